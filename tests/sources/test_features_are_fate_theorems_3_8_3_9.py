"""Every claim of features-are-fate's Theorems 3.8-3.9 returns the expected verdict.

Sections 3.3.1 and 3.4, (15)-(17), and the float64 evaluators of (10)-(17);
see :mod:`implicit_bias.sources.features_are_fate.theorems_3_8_3_9`.
"""

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
from implicit_bias.sources.features_are_fate.theorems_3_8_3_9 import CLAIMS
from implicit_bias.sources.features_are_fate.source import SOURCE_ID


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(CLAIMS)


@pytest.mark.parametrize("claim", quick(CLAIMS), ids=lambda c: c.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.as_expected, (result.verdict.status, result.verdict.detail)


def test_symbolic_claims_are_exact(results: dict[str, Result]) -> None:
    assert_symbolic_claims_exact(results)


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)


#: Numeric claims whose decision goes through check_close.
_SHIFTED = ["10-17:evaluators"]


@pytest.mark.parametrize("label", _SHIFTED)
@pytest.mark.parametrize("factor", [5.0, -5.0])
def test_a_shift_of_five_tolerances_is_detected(label: str, factor: float) -> None:
    claim = next(c for c in CLAIMS if c.id == f"{SOURCE_ID}:{label}")
    assert_shift_detected(claim, factor)
