"""The scratch-risk claims of features-are-fate ((95)-(102)): expected verdicts."""

from __future__ import annotations


import pytest

from tests.claims.claim_checks import (
    assert_failures_are_refutations,
    assert_shift_detected,
    assert_symbolic_claims_exact,
    quick,
    quick_results,
)
from implicit_bias.claims.checks import RelationCheck
from implicit_bias.claims.engine import Basis, Claim, Kind, Result, Status
from implicit_bias.sources.features_are_fate.random_matrix import CLAIMS


#: The steps of Appendix B this module covers: the scratch risk (95)-(102).
COVERED = {
    "95",
    "100",
    "101",
    "102",
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


def test_symbolic_holds_are_proofs(results: dict[str, Result]) -> None:
    for result in results.values():
        if (
            result.claim.kind in (Kind.IDENTITY, Kind.LIMIT)
            and result.verdict.status == Status.HOLDS
        ):
            assert result.verdict.basis == Basis.PROOF, result.claim.id


@pytest.mark.parametrize(
    "claim",
    [c for c in CLAIMS if isinstance(c.check, RelationCheck)],
    ids=lambda c: c.id,
)
def test_relation_checks_judge_the_printed_formula(claim: Claim) -> None:
    assert isinstance(claim.check, RelationCheck)
    assert claim.formula is claim.check.relation


def test_symbolic_claims_are_exact(results: dict[str, Result]) -> None:
    assert_symbolic_claims_exact(results)


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)


#: Cheap numeric claims whose decision goes through check_close.
_SHIFTED = ["95:finite-scratch-rate", "95:finite-scratch-risk"]


@pytest.mark.parametrize("label", _SHIFTED)
@pytest.mark.parametrize("factor", [5.0, -5.0])
def test_a_shift_of_five_tolerances_is_detected(label: str, factor: float) -> None:
    (claim,) = [c for c in CLAIMS if c.id.endswith(f":{label}")]
    assert_shift_detected(claim, factor)
