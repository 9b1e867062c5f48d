"""Every claim of features-are-fate's risks module returns the verdict it expects.

The main-text risks of Section 3 (eqs. (10)-(17)); see
:mod:`implicit_bias.claims.features_are_fate.risks`.
"""

from __future__ import annotations

import pytest

from tests.claims.claim_checks import (
    assert_detail_mentions,
    assert_symbolic_claims_exact,
    quick,
    quick_results,
)
from implicit_bias.claims.engine import (
    Claim,
    Result,
)
from implicit_bias.claims.features_are_fate.risks import CLAIMS
from implicit_bias.claims.features_are_fate.source import SOURCE


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(CLAIMS)


@pytest.mark.parametrize("claim", quick(CLAIMS), ids=lambda c: c.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.verdict.status == claim.expected, result.verdict.detail


@pytest.mark.parametrize(
    ("claim_id", "needles"),
    [
        ("10:double-descent-as-printed", ["gamma(2-gamma)", "no divergence"]),
        ("13:interval-as-printed", ["empty", "0.264376", "0.945624"]),
    ],
)
def test_failures_report_residual_or_counterexample(
    claim_id: str, needles: list[str], results: dict[str, Result]
) -> None:
    assert_detail_mentions(results[f"{SOURCE}:{claim_id}"], needles)


def test_symbolic_claims_are_exact(results: dict[str, Result]) -> None:
    assert_symbolic_claims_exact(results)
