"""Appendix A.1 of adaptive-tangent-features (eqs. (21)-(22)) gives its verdicts."""

from __future__ import annotations

import pytest

from implicit_bias.claims.engine import Basis, Claim, Result, Status
from implicit_bias.sources.adaptive_tangent_features import appendix_a1_diagonal
from tests.claims.claim_checks import (
    SYMBOLIC_KINDS,
    assert_failures_are_refutations,
    quick,
    quick_results,
)

QUICK = quick(appendix_a1_diagonal.CLAIMS)


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(appendix_a1_diagonal.CLAIMS)


@pytest.mark.parametrize("claim", QUICK, ids=lambda claim: claim.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.as_expected, (result.verdict.reason, result.verdict.detail)
    if result.verdict.status != Status.INCONCLUSIVE:
        assert result.verdict.basis is not None, claim.id


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)


def test_symbolic_claims_are_exact_where_sympy_decides(
    results: dict[str, Result],
) -> None:
    inexact = {}
    for claim_id, result in results.items():
        if result.claim.kind in SYMBOLIC_KINDS:
            expected = inexact.get(claim_id.split(":", 2)[2], Basis.PROOF)
            assert result.verdict.basis == expected, claim_id
