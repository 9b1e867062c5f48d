"""Theorem 2 of adaptive-tangent-features, its solution (14)-(16), gives its verdicts.

Each check must be able to fail: a wrong theory formula for (14), (15) or
(10), or a wrong penalty in (16), is refuted (exactly where the check is
exact) or left undecided (the float64 search).
"""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.checks import injected_bias
from implicit_bias.claims.engine import Basis, Claim, Result, Status, Verdict
from implicit_bias.sources.adaptive_tangent_features import theorem_2
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID
from implicit_bias.theory import tangent_features as theory
from tests.claims.claim_checks import (
    SYMBOLIC_KINDS,
    assert_failures_are_refutations,
    quick,
    quick_results,
)

QUICK = quick(theorem_2.CLAIMS)


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(theorem_2.CLAIMS)


@pytest.mark.parametrize("claim", QUICK, ids=lambda claim: claim.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.as_expected, (result.verdict.reason, result.verdict.detail)
    assert result.verdict.basis is not None, claim.id


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)


def test_symbolic_claims_are_exact(results: dict[str, Result]) -> None:
    for claim_id, result in results.items():
        if result.claim.kind in SYMBOLIC_KINDS:
            assert result.verdict.basis == Basis.PROOF, claim_id


def test_every_equation_of_the_solution_has_a_claim() -> None:
    assert {claim.equation for claim in theorem_2.CLAIMS} == {"14", "15", "16"}
    assert all(claim.id.startswith(f"{SOURCE_ID}:") for claim in theorem_2.CLAIMS)


def _refuted(verdict: Verdict) -> bool:
    return verdict.status == Status.FAILS and verdict.basis in (
        Basis.PROOF,
        Basis.CERTIFIED,
    )


def test_eq14_refutes_factors_without_the_transpose(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # W = U Sigma V (not V^T): M^(1) W M^(2) is no longer U diag(d) V^T.
    layer = theory.theorem2_layer

    def untransposed(
        u: sp.Matrix, v: sp.Matrix, s1: list, sigma: list, s2: list
    ) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
        m1, weights, m2 = layer(u, v, s1, sigma, s2)
        return m1, weights * v * v, m2

    monkeypatch.setattr(theory, "theorem2_layer", untransposed)
    assert _refuted(theorem_2._check_eq14_factorization())


def test_eq15_refutes_a_wrong_effective_penalty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # omega~ of Figure 2's join off by z: (15)'s minimum is not it.
    parametric = theory.squared_absolute_tilde_parametric

    def shifted() -> tuple[sp.Expr, sp.Expr]:
        d_squared, value = parametric()
        return d_squared, value + theory.z

    monkeypatch.setattr(theory, "squared_absolute_tilde_parametric", shifted)
    assert _refuted(theorem_2._check_eq15_figure_2_pair())


def test_eq15_refutes_sigma_from_a_wrong_constraint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # sigma = d/(s1 + s2) instead of d/(s1 s2): the join's point is not stationary.
    def objective(
        omega1: theory.Penalty,
        omega2: theory.Penalty,
        s1: sp.Expr,
        s2: sp.Expr,
        d: sp.Expr,
    ) -> sp.Expr:
        return omega1(s1) + omega2(s2) + (d / (s1 + s2)) ** 2

    monkeypatch.setattr(theory, "theorem2_scalar_objective", objective)
    assert _refuted(theorem_2._check_eq15_figure_2_pair())


def test_eq16_constraint_refutes_the_other_kronecker_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # M^(1) (x) M^(2)T acts on vec(W) as M^(2)... : not vec(M^(1) W M^(2)).
    monkeypatch.setattr(
        theory,
        "layer_transform",
        lambda m1, m2: sp.kronecker_product(m1, m2.T),
    )
    assert _refuted(theorem_2._check_eq16_constraint())


def test_eq16_direct_notices_a_penalty_without_the_join(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (16) with omega~ of omega^(1) alone for the hidden layer (no join with
    # omega^(2)) has another minimum than (4) under Model A.
    monkeypatch.setattr(theorem_2, "join_penalty", lambda first, second: first)
    assert theorem_2._check_eq16_direct().status != Status.HOLDS


@pytest.mark.parametrize("factor", [2.0, -2.0])
def test_eq16_direct_notices_a_shift_of_its_minima(factor: float) -> None:
    with injected_bias(factor) as record:
        verdict = theorem_2._check_eq16_direct()
    assert record.comparisons == 2
    assert verdict.status != Status.HOLDS
