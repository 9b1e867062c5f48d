"""Proposition 3 of adaptive-tangent-features gives its verdicts."""

from __future__ import annotations

import pytest

from implicit_bias.claims.checks import injected_bias
from implicit_bias.claims.engine import Basis, Claim, Result, Status
from implicit_bias.sources.adaptive_tangent_features import proposition_3
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID
from implicit_bias.theory import tangent_features as theory
from tests.claims.claim_checks import (
    SYMBOLIC_KINDS,
    assert_failures_are_refutations,
    quick,
    quick_results,
)

QUICK = quick(proposition_3.CLAIMS)


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(proposition_3.CLAIMS)


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
        ("prop-3:strict-increase-as-proved", ["not attained", "omega~(2) = omega~(3)"]),
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


def test_increasing_concave_refutes_a_doubled_effective_penalty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 2 omega~ is still increasing and concave, but its slope near v = 0 is 2,
    # above the 1/z*^2 <= 1 that (12) allows: a step exceeds du.
    omega_tilde = proposition_3.omega_tilde
    monkeypatch.setattr(
        proposition_3,
        "omega_tilde",
        lambda omega, v: 2.0 * omega_tilde(omega, v),
    )
    assert proposition_3._check_prop3_concave_increasing().status != Status.HOLDS


def test_small_v_bounds_come_from_the_theory_objective(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (12) with v^2/z^2 doubled puts the sandwich at [2/(1 + w_u)^2, 2], away
    # from omega~/v^2 ~ 1.
    monkeypatch.setattr(
        theory,
        "effective_objective",
        lambda omega, z, v: omega(z) + 2 * v**2 / z**2,
    )
    assert proposition_3._check_prop3_small_v().status != Status.HOLDS


@pytest.mark.parametrize("factor", [2.0, -2.0])
def test_small_v_notices_a_shift_of_its_ratio(factor: float) -> None:
    with injected_bias(factor) as record:
        verdict = proposition_3._check_prop3_small_v()
    assert record.comparisons == 1
    assert verdict.status != Status.HOLDS
