"""The claim engine: verdicts, budgets, failures of checks, and the records."""

from __future__ import annotations

import math
import pickle
import sys
import time
from typing import Any

import pytest
import sympy as sp

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.claims.engine import (
    Basis,
    CheckTimeout,
    Claim,
    Kind,
    Reading,
    Reason,
    Result,
    Status,
    Verdict,
    conjunction,
    run_claims,
    WALL_BACKSTOP_FACTOR,
    time_limit,
    unique_ids,
)


def _claim(
    check,
    expected=Status.HOLDS,
    budget=10.0,
    label="x",
    corrects=None,
    expected_reason=None,
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
        expected_reason=expected_reason,
    )


def _sleep_forever() -> Verdict:
    time.sleep(60)
    return Verdict.holds("woke up", Basis.PROOF)


def _spin_forever() -> Verdict:
    while True:
        sum(range(1000))


def _spin_in_c() -> Verdict:
    # One long call into C: Python's signal handlers cannot run inside it.
    import numpy as np

    rng = np.random.default_rng(0)
    a = rng.standard_normal((3000, 3000))
    while True:
        a = np.linalg.qr(a)[0]


def _swallow_timeouts() -> Verdict:
    while True:
        try:
            while True:
                sum(range(1000))
        except Exception:  # the point: a check that hides every error
            pass


def _spin_cpu(seconds: float) -> None:
    """Use ``seconds`` of CPU time (bounded, so a broken limit cannot hang)."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        sum(range(1000))


def _raise() -> Verdict:
    raise ZeroDivisionError("boom")


def _not_a_verdict() -> Verdict:
    return "holds"  # type: ignore[return-value]


def test_claim_id_joins_source_equation_label() -> None:
    assert _claim(lambda: Verdict.holds("", Basis.PROOF)).id == "test-source:1:x"


def test_verdicts_come_back_in_order_with_timings() -> None:
    claims = [
        _claim(lambda: Verdict.holds("fine", Basis.PROOF), label="a"),
        _claim(
            lambda: Verdict.fails("residual 1", Basis.CERTIFIED),
            Status.FAILS,
            label="b",
        ),
    ]
    results = run_claims(claims, workers=2)
    assert [r.claim.label for r in results] == ["a", "b"]
    assert [r.verdict.status for r in results] == [Status.HOLDS, Status.FAILS]
    assert all(r.as_expected and r.seconds >= 0 for r in results)


@pytest.mark.parametrize("check", [_spin_forever, _spin_in_c, _swallow_timeouts])
def test_a_check_past_its_cpu_budget_is_killed_and_inconclusive(check) -> None:
    (result,) = run_claims([_claim(check, budget=1.0)])
    assert result.verdict.status == Status.INCONCLUSIVE
    assert "time budget of 1 s of CPU time" in result.verdict.detail
    assert result.verdict.reason == Reason.BUDGET
    assert not result.as_expected


def test_a_check_that_waits_is_stopped_by_the_wall_clock_backstop() -> None:
    (result,) = run_claims([_claim(_sleep_forever, budget=0.3)])
    assert result.verdict.status == Status.INCONCLUSIVE
    assert "wall-clock backstop" in result.verdict.detail
    assert result.verdict.reason == Reason.BUDGET
    assert result.seconds >= WALL_BACKSTOP_FACTOR * 0.3


@pytest.mark.parametrize(
    ("check", "fragment"),
    [(_raise, "ZeroDivisionError: boom"), (_not_a_verdict, "not a Verdict")],
)
def test_a_broken_check_is_inconclusive_with_the_reason(check, fragment: str) -> None:
    (result,) = run_claims([_claim(check)])
    assert result.verdict.status == Status.INCONCLUSIVE
    assert result.verdict.reason == Reason.CRASH
    assert fragment in result.verdict.detail


@pytest.mark.parametrize("check", [_raise, _not_a_verdict])
def test_a_crash_never_matches_an_expected_inconclusive(check) -> None:
    statistical = _claim(check, Status.INCONCLUSIVE, expected_reason=Reason.STATISTICAL)
    (result,) = run_claims([statistical])
    assert result.verdict.status == Status.INCONCLUSIVE
    assert not result.as_expected


def test_an_expected_inconclusive_matches_only_its_reason() -> None:
    def undecided() -> Verdict:
        return Verdict.inconclusive("could not tell", Reason.UNDECIDED)

    def within_noise() -> Verdict:
        return Verdict.inconclusive("0.3 SE", Reason.STATISTICAL)

    expecting = {"expected": Status.INCONCLUSIVE, "expected_reason": Reason.STATISTICAL}
    results = run_claims(
        [
            _claim(undecided, label="a", **expecting),
            _claim(within_noise, label="b", **expecting),
        ]
    )
    assert [r.as_expected for r in results] == [False, True]
    record = results[1].as_record()
    assert (record["reason"], record["expected_reason"]) == (
        "statistical",
        "statistical",
    )


def test_an_expected_inconclusive_names_its_reason_and_never_a_crash() -> None:
    with pytest.raises(InvalidArgumentError, match="expected_reason"):
        _claim(_raise, Status.INCONCLUSIVE)
    with pytest.raises(InvalidArgumentError, match="may not expect a crash"):
        _claim(_raise, Status.INCONCLUSIVE, expected_reason=Reason.CRASH)
    with pytest.raises(InvalidArgumentError, match="expected_reason"):
        _claim(_raise, Status.HOLDS, expected_reason=Reason.STATISTICAL)


def test_a_verdict_has_a_reason_exactly_when_inconclusive() -> None:
    with pytest.raises(InvalidArgumentError, match="reason"):
        Verdict(Status.INCONCLUSIVE, "no reason given")
    with pytest.raises(InvalidArgumentError, match="reason"):
        Verdict(Status.HOLDS, "shown", Reason.UNDECIDED)
    assert Verdict.inconclusive("?").reason == Reason.UNDECIDED
    budget = Verdict.inconclusive("slow", Reason.BUDGET).with_detail("step 2: slow")
    assert (budget.status, budget.reason) == (Status.INCONCLUSIVE, Reason.BUDGET)


def test_a_conjunction_fails_on_any_failure_and_is_undecided_otherwise() -> None:
    shown, refuted = (
        Verdict.holds("a", Basis.PROOF),
        Verdict.fails("b", Basis.CERTIFIED),
    )
    timed_out = Verdict.inconclusive("c", Reason.BUDGET)
    assert conjunction((shown, shown), "d").status == Status.HOLDS
    assert conjunction((timed_out, refuted), "d").status == Status.FAILS
    undecided = conjunction((shown, timed_out), "d")
    assert (undecided.status, undecided.reason) == (Status.INCONCLUSIVE, Reason.BUDGET)


def test_an_unexpected_verdict_is_flagged() -> None:
    (result,) = run_claims(
        [_claim(lambda: Verdict.fails("no", Basis.CERTIFIED), expected=Status.HOLDS)]
    )
    assert not result.as_expected


def test_record_has_the_documented_keys() -> None:
    (result,) = run_claims(
        [_claim(lambda: Verdict.holds("ok", Basis.PROOF), corrects="test-source:1:y")]
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


def _swallow_one_timeout_then_spin() -> int:
    swallowed = 0
    with time_limit(0.05):
        try:
            _spin_cpu(2.0)
        except CheckTimeout:
            # As a garbage-collector callback or a __del__ would.
            swallowed += 1
        _spin_cpu(2.0)
    return swallowed


def test_a_swallowed_timeout_fires_again() -> None:
    with pytest.raises(CheckTimeout, match=r"0\.05 s"):
        _swallow_one_timeout_then_spin()


class _FailingFinalizer:
    def __del__(self) -> None:
        raise KeyError("finalizer")


class _SlowFinalizer:
    def __del__(self) -> None:
        _spin_cpu(2.0)


def _finalize_slowly_then_spin() -> None:
    with time_limit(0.05):
        finalizer = _SlowFinalizer()
        del finalizer
        _spin_cpu(2.0)


def test_a_timeout_in_a_finalizer_is_not_reported_as_unraisable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The timer landing in a __del__ is expected, not an error of the
    # finalizer; pytest fails the test whose unraisablehook it interrupts.
    reported: list[BaseException | None] = []
    monkeypatch.setattr(
        sys, "unraisablehook", lambda unraisable: reported.append(unraisable.exc_value)
    )
    with pytest.raises(CheckTimeout):
        _finalize_slowly_then_spin()
    assert reported == []


def test_other_unraisable_exceptions_reach_the_previous_hook(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reported: list[BaseException | None] = []
    monkeypatch.setattr(
        sys, "unraisablehook", lambda unraisable: reported.append(unraisable.exc_value)
    )
    with time_limit(5.0):
        finalizer = _FailingFinalizer()
        del finalizer
    assert [type(error) for error in reported] == [KeyError]


def _finalize_with_an_error_then_spin() -> None:
    with time_limit(5.0), time_limit(0.05):
        finalizer = _FailingFinalizer()
        del finalizer
        _spin_cpu(2.0)


@pytest.mark.parametrize("nested", [False, True])
def test_the_timer_does_not_interrupt_the_previous_hook(
    monkeypatch: pytest.MonkeyPatch, nested: bool
) -> None:
    # pytest's hook formats a traceback; interrupted, it fails the test. The
    # hook here takes many timer periods, and (nested) reports another
    # unraisable exception while it runs.
    finished: list[str] = []

    def slow_hook(unraisable: Any) -> None:
        if nested and not finished:
            finished.append("outer started")
            finalizer = _FailingFinalizer()
            del finalizer
        _spin_cpu(0.3)
        finished.append(type(unraisable.exc_value).__name__)

    monkeypatch.setattr(sys, "unraisablehook", slow_hook)
    with pytest.raises(CheckTimeout, match=r"0\.05 s"):
        _finalize_with_an_error_then_spin()
    expected = ["KeyError"] if not nested else ["outer started", "KeyError", "KeyError"]
    assert finished == expected


def test_time_limit_does_not_fire_after_the_block() -> None:
    with time_limit(0.05):
        pass
    _spin_cpu(0.2)


def test_time_limit_counts_cpu_time_not_waiting() -> None:
    # A busy machine slows a step down without making it use more CPU; the
    # limit must not fire for time the process spends off the CPU.
    with time_limit(0.1):
        time.sleep(0.3)


def _inner_limits_then_spin() -> None:
    with time_limit(5.0):
        pass
    with time_limit(0.05):
        pass
    _spin_cpu(5.0)


def test_an_inner_limit_keeps_the_outer_one_running() -> None:
    with pytest.raises(CheckTimeout, match=r"0\.5 s"), time_limit(0.5):
        _inner_limits_then_spin()


def _spin_under_a_loose_limit() -> None:
    with time_limit(10.0):
        _spin_cpu(5.0)


def test_an_inner_limit_looser_than_the_outer_keeps_the_outer() -> None:
    with pytest.raises(CheckTimeout, match=r"0\.3 s"), time_limit(0.3):
        _spin_under_a_loose_limit()


def test_the_tighter_inner_limit_fires_first() -> None:
    with time_limit(5.0):
        with pytest.raises(CheckTimeout, match=r"0\.1 s"), time_limit(0.1):
            _spin_cpu(5.0)
        _spin_cpu(0.1)


@pytest.mark.parametrize("seconds", [0.0, -1.0, float("nan")])
def test_time_limit_needs_a_positive_duration(seconds: float) -> None:
    with pytest.raises(ValueError, match="seconds"), time_limit(seconds):
        pass


def test_duplicate_ids_are_rejected() -> None:
    claim = _claim(lambda: Verdict.holds("", Basis.PROOF))
    with pytest.raises(ValueError, match="duplicate claim id"):
        unique_ids([claim, claim])


def test_a_decided_verdict_names_its_basis() -> None:
    with pytest.raises(InvalidArgumentError, match="basis"):
        Verdict(Status.HOLDS, "shown")
    with pytest.raises(InvalidArgumentError, match="basis"):
        Verdict(Status.FAILS, "refuted")
    assert Verdict.decide(True, "d", Basis.NUMERICAL) == Verdict.holds(
        "d", Basis.NUMERICAL
    )
    assert Verdict.decide(False, "d", Basis.PROOF).status == Status.FAILS
    # An inconclusive verdict may say what was tried.
    tried = Verdict.inconclusive("2.1 SE", Reason.STATISTICAL, Basis.STATISTICAL)
    assert tried.basis == Basis.STATISTICAL


def test_a_conjunction_holds_on_its_weakest_basis_and_fails_on_the_failing_part() -> (
    None
):
    proof = Verdict.holds("a", Basis.PROOF)
    numbers = Verdict.holds("b", Basis.NUMERICAL)
    runs = Verdict.holds("c", Basis.STATISTICAL)
    assert conjunction((proof, numbers), "d").basis == Basis.NUMERICAL
    assert conjunction((runs, proof, numbers), "d").basis == Basis.STATISTICAL
    refuted = Verdict.fails("e", Basis.CERTIFIED, "at x=1, in [1 +/- 0]")
    failed = conjunction((proof, refuted), "f")
    assert (failed.basis, failed.counterexample) == (
        Basis.CERTIFIED,
        "at x=1, in [1 +/- 0]",
    )


def test_records_carry_the_basis_the_reading_and_the_counterexample() -> None:
    claim = Claim(
        "test-source",
        "1",
        "x",
        Kind.IDENTITY,
        "statement",
        lambda: Verdict.fails("no", Basis.CERTIFIED, "at x=2"),
        Status.FAILS,
        quote="x = 1",
        reading=Reading.PRINTED,
        regime="x in [1, 3], the text's range",
    )
    (result,) = run_claims([claim])
    record = result.as_record()
    assert (record["basis"], record["counterexample"]) == ("certified", "at x=2")
    assert (record["quote"], record["reading"], record["regime"]) == (
        "x = 1",
        "printed",
        "x in [1, 3], the text's range",
    )


def test_a_conjunction_of_nothing_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="parts"):
        conjunction((), "nothing shown")


def test_a_counterexample_point_is_data_in_the_record() -> None:
    # Issue 21: the point was only in the counterexample's text.
    refuted = Verdict.fails(
        "no", Basis.CERTIFIED, "at y=3/2, x=1 (exactly)", point={"y": "3/2", "x": "1"}
    )
    claim = _claim(lambda: refuted, expected=Status.FAILS)
    record = Result(claim, refuted, 0.1).as_record()
    assert record["counterexample_point"] == {"y": "3/2", "x": "1"}
    # In the order the check wrote it, not sorted.
    assert list(record["counterexample_point"]) == ["y", "x"]
    held = Result(_claim(print), Verdict.holds("ok", Basis.PROOF), 0.1).as_record()
    assert held["counterexample_point"] is None


def test_a_verdict_with_a_point_is_hashable_and_keeps_its_own_copy() -> None:
    # Verdicts are compared, hashed and pickled between processes.
    coordinates = {"x": "2"}
    refuted = Verdict.fails("no", Basis.CERTIFIED, "at x=2", point=coordinates)
    coordinates["x"] = "3"
    assert refuted.point == {"x": "2"}
    assert hash(refuted) == hash(
        Verdict.fails("no", Basis.CERTIFIED, "at x=2", point={"x": "2"})
    )
    assert pickle.loads(pickle.dumps(refuted)) == refuted
    assert refuted.with_detail("other").point == {"x": "2"}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            {"status": Status.HOLDS, "basis": Basis.PROOF, "point": {"x": "1"}},
            "point: only a fails",
        ),
        (
            {"status": Status.FAILS, "basis": Basis.CERTIFIED, "point": {"x": "1"}},
            "point: comes with the counterexample",
        ),
        (
            {
                "status": Status.FAILS,
                "basis": Basis.CERTIFIED,
                "counterexample": "at x=1",
                "point": {"x": 1},
            },
            "point: symbol name -> exact value, both str",
        ),
        *(
            (
                {
                    "status": Status.FAILS,
                    "basis": Basis.CERTIFIED,
                    "counterexample": "at x=1",
                    "point": {"x": value},
                },
                "each value a decimal or p/q",
            )
            # Only numbers, so that LaTeX and Markdown set them as they are.
            for value in ("pi/3", "1.5e-5", "1}", "", "0.5 ")
        ),
        (
            {
                "status": Status.FAILS,
                "basis": Basis.CERTIFIED,
                "counterexample": "at x=1",
                "point": [("x", "1")],
            },
            "point: a mapping",
        ),
    ],
)
def test_a_bad_point_is_refused(arguments: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        Verdict(detail="d", **arguments)  # type: ignore[arg-type]


def test_a_point_is_shown_in_the_source_glyphs() -> None:
    delta, m_aux = sp.Symbol("Delta", positive=True), sp.Symbol("m_aux")
    refuted = Verdict.fails(
        "no",
        Basis.CERTIFIED,
        "at Delta=3/2, m_aux=-0.25 (exactly)",
        point={"Delta": "3/2", "m_aux": "-0.25"},
    )
    glyphs = {delta: r"\Delta", sp.Symbol("unused"): r"\nu"}
    # A symbol without a glyph keeps SymPy's name in text, SymPy's LaTeX in LaTeX.
    assert refuted.shown_point(glyphs) == r"\Delta = 3/2, m_aux = -0.25"
    assert refuted.shown_point(glyphs, latex=True) == (
        r"$\Delta = 3/2$, $m_{aux} = -0.25$"
    )
    assert refuted.shown_point({m_aux: r"m^{\text{aux}}"}) == (
        r"Delta = 3/2, m^{\text{aux}} = -0.25"
    )
    assert Verdict.holds("ok", Basis.PROOF).shown_point(glyphs) is None


@pytest.mark.parametrize(
    "budget", [0.0, -1.0, math.inf, math.nan, 1e6 + 1, 1e19, True, "60"]
)
def test_a_claim_refuses_a_budget_that_is_not_a_finite_positive_time(budget) -> None:
    # An infinite budget once passed here and killed its worker later with an
    # OverflowError (RLIMIT_CPU cannot be set to infinity seconds).
    with pytest.raises(InvalidArgumentError, match="budget_seconds"):
        _claim(lambda: Verdict.holds("", Basis.PROOF), budget=budget)


@pytest.mark.parametrize("budget_bytes", [0, -1, 1.5, True, "1 GiB"])
def test_a_claim_refuses_a_memory_budget_that_is_not_a_byte_count(
    budget_bytes,
) -> None:
    with pytest.raises(InvalidArgumentError, match="budget_bytes"):
        Claim(
            "test-source",
            "1",
            "x",
            Kind.NUMERIC,
            "a statement",
            lambda: Verdict.holds("", Basis.PROOF),
            Status.HOLDS,
            budget_bytes=budget_bytes,
        )
