"""Appendix A.3 of adaptive-tangent-features (Lemma 5) gives its verdicts."""

from __future__ import annotations

import pytest

from implicit_bias.claims.engine import Basis, Claim, Result, Status
from implicit_bias.sources.adaptive_tangent_features import appendix_a3_proofs
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID
from tests.claims.claim_checks import (
    assert_failures_are_refutations,
    quick,
    quick_results,
)

QUICK = quick(appendix_a3_proofs.CLAIMS)


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(appendix_a3_proofs.CLAIMS)


@pytest.mark.parametrize("claim", QUICK, ids=lambda claim: claim.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.as_expected, (result.verdict.reason, result.verdict.detail)
    if result.verdict.status != Status.INCONCLUSIVE:
        assert result.verdict.basis is not None, claim.id


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)


@pytest.mark.parametrize(
    ("claim_id", "needles"),
    [
        ("27:alignment-as-printed", ["55249/260100", "33409/260100"]),
    ],
)
def test_failures_report_residual_or_counterexample(
    claim_id: str, needles: list[str], results: dict[str, Result]
) -> None:
    verdict = results[f"{SOURCE_ID}:{claim_id}"].verdict
    assert verdict.status == Status.FAILS
    # A refutation rests on exact or certified arithmetic and names its point.
    assert verdict.basis in (Basis.PROOF, Basis.CERTIFIED)
    assert verdict.counterexample
    for needle in needles:
        assert needle in verdict.detail


def test_certificates_are_reported(results: dict[str, Result]) -> None:
    assert "/ tolerance" in results[f"{SOURCE_ID}:27-29:direct-minimum"].verdict.detail
