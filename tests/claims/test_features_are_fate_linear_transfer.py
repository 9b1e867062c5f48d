"""The linear-transfer claims of features-are-fate ((108)-(120)): expected verdicts."""

from __future__ import annotations

import pytest

from tests.claims.claim_checks import (
    assert_detail_mentions,
    assert_failures_are_refutations,
    assert_symbolic_claims_exact,
    quick,
    quick_results,
)
from implicit_bias.claims.engine import (
    Claim,
    Result,
    Status,
)
from implicit_bias.claims.features_are_fate.linear_transfer import CLAIMS
from implicit_bias.claims.features_are_fate.source import SOURCE


#: The steps of Appendix B this module covers: linear transfer (108)-(120).
COVERED = {
    "108-109",
    "111",
    "113",
    "115",
    "116",
    "117",
    "118",
    "119",
    "120",
}


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(CLAIMS)


def test_every_step_in_scope_has_a_claim() -> None:
    assert {c.equation for c in CLAIMS} == COVERED


@pytest.mark.parametrize("claim", quick(CLAIMS), ids=lambda c: c.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.as_expected, (result.verdict.status, result.verdict.detail)


@pytest.mark.parametrize(
    ("claim_id", "needles"),
    [
        ("117:as-printed", ["['oo', 'oo', 'oo']", "e^(+r^2/2)"]),
    ],
)
def test_failures_report_the_counterexample(
    claim_id: str, needles: list[str], results: dict[str, Result]
) -> None:
    result = results[f"{SOURCE}:{claim_id}"]
    # The evidence is the one of the refutation, not of another outcome.
    assert result.verdict.status == Status.FAILS, result.verdict.detail
    assert_detail_mentions(result, needles)


def test_symbolic_claims_are_exact(results: dict[str, Result]) -> None:
    assert_symbolic_claims_exact(results)


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)
