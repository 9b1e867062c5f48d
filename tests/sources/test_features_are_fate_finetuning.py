"""The conservation-law (35) and fine-tuning ((142)-(144)) claims: verdicts."""

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
    Basis,
    Claim,
    Kind,
    Result,
    Status,
    run_claims,
)
from implicit_bias.sources.features_are_fate.finetuning import CLAIMS
from implicit_bias.sources.features_are_fate.source import SOURCE_ID


#: The steps of Appendix B this module covers: the conservation law (35)
#: and fine-tuning (142)-(144).
COVERED = {
    "35",
    "142",
    "143-144",
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
        ("142:as-printed", ["printed (142)", "gap - |beta_GD - corrected|"]),
    ],
)
def test_failures_report_the_counterexample(
    claim_id: str, needles: list[str], results: dict[str, Result]
) -> None:
    # The counterexample is written only when the check refutes the claim.
    verdict = results[f"{SOURCE_ID}:{claim_id}"].verdict
    assert verdict.status == Status.FAILS
    assert verdict.counterexample is not None
    for needle in needles:
        assert needle in verdict.counterexample


def test_symbolic_holds_are_proofs(results: dict[str, Result]) -> None:
    for result in results.values():
        if result.claim.kind == Kind.IDENTITY and result.verdict.status == Status.HOLDS:
            assert result.verdict.basis in (Basis.PROOF, Basis.CERTIFIED)


def test_symbolic_claims_are_exact(results: dict[str, Result]) -> None:
    assert_symbolic_claims_exact(results)


@pytest.mark.slow
@pytest.mark.parametrize("claim", [c for c in CLAIMS if c.slow], ids=lambda c: c.id)
def test_slow_claims(claim: Claim) -> None:
    (result,) = run_claims([claim])
    assert result.as_expected, (result.verdict.status, result.verdict.detail)


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)


#: Cheap numeric claims whose decision goes through check_close.
_SHIFTED = ["143-144:orthogonal-term"]


@pytest.mark.parametrize("label", _SHIFTED)
@pytest.mark.parametrize("factor", [5.0, -5.0])
def test_a_shift_of_five_tolerances_is_detected(label: str, factor: float) -> None:
    (claim,) = [c for c in CLAIMS if c.id.endswith(f":{label}")]
    assert_shift_detected(claim, factor)
