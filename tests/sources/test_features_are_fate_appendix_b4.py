"""features-are-fate (74)-(99): the end of Appendix B.3, Appendix B.4 and B.5.

Each new claim's verdict, and for each chain a wrong formula its judge refutes.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from implicit_bias.claims.engine import Claim, Status
from implicit_bias.sources.features_are_fate import SOURCE
from implicit_bias.sources.features_are_fate import appendix_b3_limits as limits
from implicit_bias.sources.features_are_fate import appendix_b4 as b4
from implicit_bias.sources.features_are_fate import appendix_b4_min_norm as min_norm
from implicit_bias.sources.features_are_fate import appendix_b5 as b5
from implicit_bias.sources.features_are_fate._empirical_networks import (
    inner,
    smallest_eigenvalue,
    smallest_singular_value_squared,
)
from implicit_bias.sources.features_are_fate._limit_orders import (
    ALPHAS,
    order_verdict,
)

_MODULES = (limits, b4, min_norm, b5)


def _new_claims() -> list[Claim]:
    claims = [c for m in _MODULES for c in getattr(m, "CLAIMS", ())]
    claims += [
        c for m in _MODULES for d in getattr(m, "DERIVATIONS", ()) for c in d.claims
    ]
    return claims


def _slow(claim: Claim) -> bool:
    # The depth-3 chain's symbolic expressions take seconds a step.
    return "depth-3" in claim.label and claim.equation not in ("82", "90")


@pytest.mark.parametrize(
    "claim",
    [
        pytest.param(c, id=c.id, marks=[pytest.mark.slow] if _slow(c) else [])
        for c in _new_claims()
    ],
)
def test_each_new_claim_has_its_expected_verdict(claim: Claim) -> None:
    verdict = claim.check()
    assert verdict.status == claim.expected, (claim.id, verdict.detail)
    if verdict.status == Status.FAILS:
        assert verdict.counterexample


def test_the_new_claims_are_registered_and_cover_74_to_99() -> None:
    registered = {c.id for c in SOURCE.all_claims()}
    new = _new_claims()
    assert {c.id for c in new} <= registered
    equations = {c.equation for c in new}
    assert {str(n) for n in range(75, 100) if n not in (77, 96)} <= equations
    failing = {c.id for c in new if c.expected == Status.FAILS}
    assert failing == {
        f"features-are-fate:{eq}:parallel-decay-depth-{depth}-step-{step}"
        for depth in (2, 3)
        for eq, step in (("81", 3), ("85", 6), ("88", 9))
    }
    assert {c.slip for c in new if c.slip} == {"normalization-78-88"}


# --- Part 1 of the proof of Theorem 3.5


def test_the_data_constraint_makes_p_the_projector_onto_the_image() -> None:
    network = b4.network(2)
    values = network.data_constraint()
    data = network.data.xreplace(values)
    projector = network.projector.xreplace(values)
    rng = np.random.default_rng(0)
    point = {
        s: sp.Rational(int(rng.integers(-9, 10)), 7)
        for s in data.free_symbols | projector.free_symbols
    }
    x, p = data.xreplace(point), projector.xreplace(point)
    assert p * x == x
    assert p * p == p
    assert p == p.T
    assert p.rank() == 2


def test_83_with_a_plus_sign_fails() -> None:
    wrong = sp.Eq(b4._split(2), -b4._parallel_squares(2), evaluate=False)
    assert b4._judge(2)(wrong).status == Status.FAILS


def test_85_corrected_with_a_factor_two_fails() -> None:
    wrong = sp.Eq(b4._last_layer_square(2), b4._written_out(2, 2), evaluate=False)
    verdict = b4._judge(2)(wrong)
    assert verdict.status == Status.FAILS
    assert verdict.counterexample


def test_87_with_twice_the_bound_fails_at_the_balanced_states() -> None:
    wrong = sp.Le(
        b4._singular_value_bound(2), 2 * b4._invariant_bound(2), evaluate=False
    )
    verdict = b4._judge_at_balanced_states(2)(wrong)
    assert verdict.status == Status.FAILS
    assert "state" in verdict.counterexample


def test_78_without_the_perpendicular_part_fails() -> None:
    network = b4.network(2)
    wrong = sp.Eq(
        network.loss, b4._half_mean_square(network.parallel_residual()), evaluate=False
    )
    assert b4._judge(2, flow=False)(wrong).status == Status.FAILS


def test_82_with_the_parallel_projector_fails() -> None:
    network = b4.network(2)
    gradient = network.partial_gradient(b4.parallel_loss(2), 2)
    wrong = sp.Eq(gradient, sp.zeros(2, 1), evaluate=False)
    assert b4._judge(2, flow=False)(wrong).status == Status.FAILS


def test_smallest_eigenvalue_and_singular_value_match_their_definitions() -> None:
    matrix = sp.Matrix([[3, 1], [-2, 2]])
    assert (
        sp.simplify(
            smallest_singular_value_squared(matrix)
            - min((matrix.T * matrix).eigenvals())
        )
        == 0
    )
    symmetric = sp.Matrix([[2, 1], [1, 5]])
    assert sp.simplify(smallest_eigenvalue(symmetric) - min(symmetric.eigenvals())) == 0


# --- Part 2


def test_90_along_the_row_space_fails() -> None:
    network = min_norm.network(2)
    wrong = sp.Eq(
        network.projector * network.velocities[0], sp.zeros(3, 3), evaluate=False
    )
    assert min_norm._judge(2, flow=True)(wrong).status == Status.FAILS


def test_90_bounded_by_the_row_space_part_fails() -> None:
    network = min_norm.network(2)
    initial = min_norm._initial
    off = (sp.eye(3) - network.projector) * initial
    on = network.projector * initial
    wrong = sp.Le(inner(off, off), inner(on, on), evaluate=False)
    assert min_norm._judge(2, flow=False)(wrong).status == Status.FAILS


def test_89_at_a_higher_order_fails() -> None:
    assert min_norm._check_min_norm_limit({"89": 5, "row": 2}).status == Status.FAILS


# --- the end of Appendix B.3


def test_75_and_76_at_a_higher_order_fail() -> None:
    assert limits._check("75", {2: 4, 3: 5}).status == Status.FAILS
    assert limits._check("76", {2: 3, 3: 3}).status == Status.FAILS


def test_order_verdict_accepts_the_order_and_refutes_others() -> None:
    alphas = np.asarray(ALPHAS)
    assert order_verdict(alphas**2, 2, "exact").status == Status.HOLDS
    corrected = alphas**3 * (1 + alphas)
    assert order_verdict(corrected, 3, "with a next term").status == Status.HOLDS
    assert order_verdict(corrected, 2, "faster").status == Status.FAILS
    assert order_verdict(alphas, 2, "slower").status == Status.FAILS
    assert order_verdict(np.ones(4), 1, "constant").status == Status.FAILS


# --- Appendix B.5


def test_95_with_the_projection_added_fails() -> None:
    projected = b5._projector() * b5._target
    plus = b5.pseudo_inverse()
    wrong = sp.Eq(
        b5._cross_terms(),
        1 + b5._inner(projected, projected) + b5._sigma**2 * (plus.T * plus).trace(),
        evaluate=False,
    )
    assert b5._judge(wrong).status == Status.FAILS


def test_98_with_gamma_over_d_fails() -> None:
    wrong = sp.Eq(
        b5._singular_value_sum(),
        b5._gamma / b5.DIMENSION * b5._wishart().inv().trace(),
        evaluate=False,
    )
    assert b5._judge(wrong).status == Status.FAILS


# --- checks next to equality (issue 20)


def _with_labels_scaled(relation: sp.Basic, side: str) -> sp.Basic:
    """``relation`` with y_20 scaled by 1001/1000 on one side."""
    label = sp.Symbol("y_20", real=True)
    scaled = {label: sp.Rational(1001, 1000) * label}
    lhs, rhs = relation.args
    if side == "lhs":
        lhs = lhs.xreplace(scaled)
    else:
        rhs = rhs.xreplace(scaled)
    return relation.func(lhs, rhs, evaluate=False)


@pytest.mark.parametrize("depth", [2, 3])
def test_87_with_a_label_scaled_on_one_side_fails(depth: int) -> None:
    # Random states leave (87) slack enough to hide it; the states where it is
    # an equality (L = 2) or r_par = 0 (labels fitted) do not.
    claim = next(
        c
        for d in b4.DERIVATIONS
        for c in d.claims
        if c.id.endswith(f"depth-{depth}-step-8")
    )
    wrong = _with_labels_scaled(claim.check.relation(), "rhs")
    verdict = b4._judge_at_balanced_states(depth)(wrong)
    assert verdict.status == Status.FAILS
    assert "state" in verdict.counterexample


def test_86_next_to_a_rotation_refutes_a_label_scaled_on_one_side() -> None:
    claim = next(
        c for d in b4.DERIVATIONS for c in d.claims if c.id.endswith("depth-2-step-7")
    )
    network = b4.network(2)
    constrained = b4._substituted(
        claim.check.relation(), network.flow(), network.data_constraint()
    )
    assert b4.judge_near(constrained, b4._NEAR_ROTATION[2]).status == Status.HOLDS
    for side in ("lhs", "rhs"):
        wrong = _with_labels_scaled(claim.check.relation(), side)
        constrained = b4._substituted(wrong, network.flow(), network.data_constraint())
        verdict = b4.judge_near(constrained, b4._NEAR_ROTATION[2])
        assert verdict.status == Status.FAILS, side


def test_88_next_to_isotropic_data_refutes_a_dropped_label() -> None:
    claim = next(c for c in b4.CLAIMS if c.id.endswith("88:normalized-depth-2"))
    network = b4.network(2)
    relation = claim.check.relation()
    label = sp.Symbol("y_00", real=True)
    wrong = relation.func(relation.lhs.xreplace({label: 0}), relation.rhs)
    constrained = b4._substituted(wrong, network.flow(), network.data_constraint())
    assert b4.judge_near(constrained, b4._NEAR_ISOTROPIC).status == Status.FAILS


def test_near_sets_are_where_the_bounds_are_nearly_equalities() -> None:
    # (90): ||(I - P) Wbar||^2 = ||Wbar||^2 when the columns of Wbar lie in ker(X).
    network = min_norm.network(2)
    bound = min_norm._initial_bound()
    exact = {
        s: v.xreplace({min_norm.NEAR: 0})
        for s, v in min_norm._near_the_kernel().items()
    }
    gap = (bound.rhs - bound.lhs).xreplace(network.data_constraint()).xreplace(exact)
    assert sp.simplify(gap) == 0
