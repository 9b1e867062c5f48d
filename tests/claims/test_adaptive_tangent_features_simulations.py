"""The simulation claims of adaptive-tangent-features return their expected verdicts."""

from __future__ import annotations

import pytest

from implicit_bias.claims.adaptive_tangent_features.simulations import (
    CLAIMS,
    SIGNIFICANCE,
)
from implicit_bias.claims.adaptive_tangent_features.source import SOURCE
from implicit_bias.claims.engine import (
    Claim,
    Result,
    run_claims,
)

QUICK = [claim for claim in CLAIMS if not claim.slow]


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return {result.claim.id: result for result in run_claims(QUICK)}


@pytest.mark.parametrize("claim", QUICK, ids=lambda claim: claim.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.verdict.status == claim.expected, result.verdict.detail


def test_figure_one_verdict_reports_the_statistics(results: dict[str, Result]) -> None:
    detail = results[f"{SOURCE}:sec-3.1:figure-1-alignment"].verdict.detail
    for needle in ("paired difference", "mean +- SE", f"{SIGNIFICANCE:g} SE", "seeds"):
        assert needle in detail


def test_certificates_are_reported(results: dict[str, Result]) -> None:
    assert "duality gap" in results[f"{SOURCE}:8:direct-minimum"].verdict.detail
    assert "/ tolerance" in results[f"{SOURCE}:27-29:direct-minimum"].verdict.detail


@pytest.mark.slow
def test_slow_claims() -> None:
    slow = [claim for claim in CLAIMS if claim.slow]
    for result in run_claims(slow):
        assert result.verdict.status == result.claim.expected, result.verdict.detail
