"""The scratch-risk claims of features-are-fate ((95)-(102)): expected verdicts."""

from __future__ import annotations


import pytest

from implicit_bias.claims.engine import Claim, Result, run_claims
from implicit_bias.claims.features_are_fate.random_matrix import CLAIMS

BY_ID = {claim.id: claim for claim in CLAIMS}

#: The steps of Appendix B this module covers: the scratch risk (95)-(102).
COVERED = {
    "95",
    "100",
    "101",
    "102",
}


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return {r.claim.id: r for r in run_claims([c for c in CLAIMS if not c.slow])}


def test_every_step_in_scope_has_a_claim() -> None:
    assert {c.equation for c in CLAIMS} == COVERED


@pytest.mark.parametrize("claim", [c for c in CLAIMS if not c.slow], ids=lambda c: c.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.verdict.status == claim.expected, result.verdict.detail


def test_symbolic_claims_are_exact(results: dict[str, Result]) -> None:
    for claim_id, result in results.items():
        if (
            BY_ID[claim_id].kind.value == "identity"
            and result.verdict.status == "holds"
        ):
            assert "numerically" not in result.verdict.detail, claim_id
