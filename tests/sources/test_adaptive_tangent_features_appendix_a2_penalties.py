"""Appendix A.2 of adaptive-tangent-features (Proposition 4, the proof of
Proposition 3) gives its verdicts.
"""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.checks import injected_bias
from implicit_bias.claims.engine import Basis, Claim, Result, Status
from implicit_bias.sources.adaptive_tangent_features import appendix_a2_penalties
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID
from implicit_bias.theory import tangent_features as theory
from tests.claims.claim_checks import (
    SYMBOLIC_KINDS,
    assert_failures_are_refutations,
    quick,
    quick_results,
)

QUICK = quick(appendix_a2_penalties.CLAIMS)


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(appendix_a2_penalties.CLAIMS)


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


@pytest.mark.parametrize(
    ("claim_id", "needles"),
    [
        ("prop-3-proof:conjugate-as-printed", ["-> oo", "+oo"]),
        ("26:case-split-as-printed", ["3/2", "-2*v**2 < 0"]),
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


def test_prop4_refutes_a_wrong_join_curve(monkeypatch: pytest.MonkeyPatch) -> None:
    # Figure 2's join J(z) = 3z^2 - 4z shifted by z: its slope along the curve
    # is no longer 1/z, the envelope theorem's; a certified counterexample.
    curve = theory.squared_absolute_join_parametric

    def shifted() -> tuple[sp.Expr, sp.Expr]:
        v_of_z, join_of_z = curve()
        return v_of_z, join_of_z + theory.z

    monkeypatch.setattr(theory, "squared_absolute_join_parametric", shifted)
    verdict = appendix_a2_penalties._check_prop4()
    assert verdict.status == Status.FAILS
    assert verdict.basis in (Basis.PROOF, Basis.CERTIFIED)


@pytest.mark.parametrize("factor", [2.0, -2.0])
def test_prop4_notices_a_shift_of_the_join_values(factor: float) -> None:
    with injected_bias(factor) as record:
        verdict = appendix_a2_penalties._check_prop4()
    assert record.comparisons == 4
    assert verdict.status != Status.HOLDS
