"""The claims of features-are-fate's Appendix B.7, (121)-(130): expected verdicts."""

from __future__ import annotations

import pytest

from tests.claims.claim_checks import (
    assert_failures_are_refutations,
    assert_shift_detected,
    assert_symbolic_claims_exact,
    quick,
    quick_results,
)
from implicit_bias.claims.engine import (
    Claim,
    Result,
)
from implicit_bias.sources.features_are_fate.appendix_b7 import CLAIMS
from implicit_bias.sources.features_are_fate.source import SOURCE_ID

#: The steps of the proof of Theorem 3.8 this module covers: (121)-(130).
COVERED = {"121", "126", "128", "129-130"}


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(CLAIMS)


def test_every_step_in_scope_has_a_claim() -> None:
    assert {c.equation for c in CLAIMS} == COVERED


@pytest.mark.parametrize("claim", quick(CLAIMS), ids=lambda c: c.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.as_expected, (result.verdict.status, result.verdict.detail)


def test_symbolic_claims_are_exact(results: dict[str, Result]) -> None:
    assert_symbolic_claims_exact(results)


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)


#: Numeric and simulation claims whose decision goes through check_close.
_SHIFTED = ["128:monte-carlo", "129-130:float64"]


@pytest.mark.parametrize("label", _SHIFTED)
@pytest.mark.parametrize("factor", [5.0, -5.0])
def test_a_shift_of_five_tolerances_is_detected(label: str, factor: float) -> None:
    claim = next(c for c in CLAIMS if c.id == f"{SOURCE_ID}:{label}")
    assert_shift_detected(claim, factor)
