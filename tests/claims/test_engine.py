"""The claim engine: verdicts, budgets, failures of checks, and the records."""

from __future__ import annotations

import time

import pytest

from implicit_bias.claims.engine import (
    CheckTimeout,
    Claim,
    Kind,
    Status,
    Verdict,
    run_claims,
    time_limit,
    unique_ids,
)


def _claim(
    check, expected=Status.HOLDS, budget=10.0, label="x", corrects=None
) -> Claim:
    return Claim(
        "test-source",
        "1",
        label,
        Kind.NUMERIC,
        "a statement",
        check,
        expected,
        corrects=corrects,
        budget_seconds=budget,
    )


def _sleep_forever() -> Verdict:
    time.sleep(60)
    return Verdict.holds("woke up")


def _raise() -> Verdict:
    raise ZeroDivisionError("boom")


def _not_a_verdict() -> Verdict:
    return "holds"  # type: ignore[return-value]


def test_claim_id_joins_source_equation_label() -> None:
    assert _claim(lambda: Verdict.holds("")).id == "test-source:1:x"


def test_verdicts_come_back_in_order_with_timings() -> None:
    claims = [
        _claim(lambda: Verdict.holds("fine"), label="a"),
        _claim(lambda: Verdict.fails("residual 1"), Status.FAILS, label="b"),
    ]
    results = run_claims(claims, workers=2)
    assert [r.claim.label for r in results] == ["a", "b"]
    assert [r.verdict.status for r in results] == [Status.HOLDS, Status.FAILS]
    assert all(r.as_expected and r.seconds >= 0 for r in results)


def test_a_check_past_its_budget_is_killed_and_inconclusive() -> None:
    (result,) = run_claims([_claim(_sleep_forever, budget=0.5)])
    assert result.verdict.status == Status.INCONCLUSIVE
    assert "time budget" in result.verdict.detail
    assert not result.as_expected


@pytest.mark.parametrize(
    ("check", "fragment"),
    [(_raise, "ZeroDivisionError: boom"), (_not_a_verdict, "not a Verdict")],
)
def test_a_broken_check_is_inconclusive_with_the_reason(check, fragment: str) -> None:
    (result,) = run_claims([_claim(check)])
    assert result.verdict.status == Status.INCONCLUSIVE
    assert fragment in result.verdict.detail


def test_an_unexpected_verdict_is_flagged() -> None:
    (result,) = run_claims([_claim(lambda: Verdict.fails("no"), expected=Status.HOLDS)])
    assert not result.as_expected


def test_record_has_the_documented_keys() -> None:
    (result,) = run_claims(
        [_claim(lambda: Verdict.holds("ok"), corrects="test-source:1:y")]
    )
    record = result.as_record()
    for key in ("id", "source", "equation", "kind", "status", "detail", "seconds"):
        assert key in record
    assert record["corrects"] == "test-source:1:y"
    assert record["status"] == "holds"


def test_time_limit_interrupts_python_work() -> None:
    def spin() -> None:
        with time_limit(0.2):
            while True:
                sum(range(1000))

    with pytest.raises(CheckTimeout):
        spin()


def test_time_limit_does_not_fire_after_the_block() -> None:
    with time_limit(0.05):
        pass
    time.sleep(0.1)


def test_duplicate_ids_are_rejected() -> None:
    claim = _claim(lambda: Verdict.holds(""))
    with pytest.raises(ValueError, match="duplicate claim id"):
        unique_ids([claim, claim])
