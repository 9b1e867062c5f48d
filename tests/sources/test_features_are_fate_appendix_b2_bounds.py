"""Lemma 3.3's proof after (40), features-are-fate Appendix B.2: (42)-(49)."""

from __future__ import annotations

import functools

import pytest
import sympy as sp

from implicit_bias.claims.checks import judge_relation
from implicit_bias.claims.engine import Basis, Status
from implicit_bias.claims.loewner import LoewnerLe
from implicit_bias.claims.matrix_checks import matrices_at
from implicit_bias.sources.features_are_fate import CLAIMS, SOURCE
from implicit_bias.sources.features_are_fate import appendix_b2_bounds as bounds
from implicit_bias.sources.features_are_fate._balanced_states import (
    BalancedState,
    balanced_states,
    judge_at_states,
    positive_semidefinite,
)
from implicit_bias.sources.features_are_fate._tight_states import (
    DRAWS,
    SCALES,
    tight_states,
)
import itertools

_ID = SOURCE.id
_NEW = {claim.id: claim for claim in bounds.CLAIMS}


def _judged_at_states(relation: sp.Basic, depth: int) -> Status:
    return bounds._judge_at_states(depth, relation).status


def test_the_claims_are_registered_with_the_source() -> None:
    registered = {claim.id for claim in CLAIMS}
    assert set(_NEW) <= registered
    assert sorted({claim.equation for claim in bounds.CLAIMS}) == [
        str(n) for n in range(42, 50)
    ]


@pytest.mark.parametrize("claim_id", sorted(_NEW))
def test_each_claim_has_its_expected_verdict(claim_id: str) -> None:
    claim = _NEW[claim_id]
    verdict = claim.check()
    assert verdict.status == claim.expected, (claim_id, verdict.detail)


def test_the_states_satisfy_the_initialization_exactly() -> None:
    for depth in bounds.DEPTHS:
        for state in balanced_states(depth, 2, bounds.STATES):
            shift = state.alpha**2 * state.margin * sp.eye(2)
            assert state.margin > 0
            assert all(positive_semidefinite(d - shift) for d in state.invariants)


def test_44_fails_at_depth_four_with_an_exact_state_and_vector() -> None:
    verdict = _NEW[f"{_ID}:44:loewner-depth-4"].check()
    assert verdict.status == Status.FAILS
    assert verdict.basis == Basis.PROOF
    point = matrices_at(verdict.point or {})
    w = [point[f"W_{layer}"] for layer in (1, 2, 3, 4)]
    gap = w[2].T * (w[1].T * w[1]) ** 2 * w[2] - (w[2].T * w[2]) ** 3
    assert (point["v"].T * gap * point["v"])[0, 0] < 0
    # The state satisfies the hypothesis: D_l >= alpha^2 lambda I exactly.
    shift = point["alpha"] ** 2 * point["lambda"] * sp.eye(2)
    for upper, lower in itertools.pairwise(w):
        assert positive_semidefinite(upper.T * upper - lower * lower.T - shift)


def test_43_needs_the_invariant_to_be_positive_semidefinite() -> None:
    # With D_1 indefinite (an initialization violating (22)) the step fails:
    # the states' hypothesis is what makes it hold.
    w1 = sp.Matrix([[1, 0], [0, 0]])
    w2 = sp.Matrix([[0, 1], [1, 0]])
    w3 = sp.Matrix([[1], [1]])
    unbalanced = BalancedState(
        tuple(map(sp.ImmutableMatrix, (w1, w2, w3))),
        sp.Integer(1),
        sp.Integer(1),
        sp.ImmutableMatrix([[1], [0]]),
    )
    relation = bounds._relation("43", 3)
    verdict = judge_at_states(
        relation, [unbalanced], functools.partial(bounds._state_matrices, 3)
    )
    assert verdict.status == Status.FAILS


def test_42_with_d_2_in_place_of_d_1_fails() -> None:
    w, d = bounds._weights(4), bounds._invariants(4)
    wrong = sp.Eq(
        bounds.gram(4),
        bounds._conjugated(w[1] * w[1].T + d[1], 4, 2),
        evaluate=False,
    )
    verdict = judge_relation(wrong, substitutions=bounds._definitions(4), points=10)
    assert verdict.status == Status.FAILS


def test_43_with_a_cube_fails() -> None:
    w = bounds._weights(3)
    wrong = LoewnerLe(sp.MatPow(w[1].T * w[1], 3), bounds.step_42(3))
    assert _judged_at_states(wrong, 3) == Status.FAILS


def test_44_with_exponent_l_fails_at_depth_three() -> None:
    w = bounds._weights(3)
    wrong = LoewnerLe(sp.MatPow(w[1].T * w[1], 3), bounds.step_43(3))
    assert _judged_at_states(wrong, 3) == Status.FAILS


def test_45_with_the_wrong_invariant_fails() -> None:
    w, d = bounds._weights(4), bounds._invariants(4)
    wrong = sp.Eq(bounds.step_44(4), sp.MatPow(w[3] * w[3].T + d[1], 3), evaluate=False)
    verdict = judge_relation(wrong, substitutions=bounds._definitions(4), points=10)
    assert verdict.status == Status.FAILS


def test_46_without_the_square_of_alpha_fails() -> None:
    alpha, lam = bounds._alpha, bounds._lam
    wrong = LoewnerLe((alpha * lam) ** 2 * sp.Identity(2), bounds.step_45(3))
    assert _judged_at_states(wrong, 3) == Status.FAILS


def test_47_with_a_rate_of_one_power_less_fails() -> None:
    network = bounds._network(3)
    wrong = sp.Le(
        network.loss_rate(),
        -2 * (bounds._alpha**2 * bounds._lam) * network.loss,
        evaluate=False,
    )
    assert bounds._decay_judge(3, wrong).status == Status.FAILS


def test_48_as_a_bound_fails_with_a_rate_thirty_percent_too_fast() -> None:
    assert bounds._check_decay_bound(exponent_scale=1.3).status == Status.FAILS


def test_49_with_a_growing_exponential_fails() -> None:
    bound = bounds._initial_loss * sp.exp(
        2 * (bounds._alpha**2 * bounds._lam) ** 2 * bounds._t
    )
    wrong = sp.Eq(sp.Limit(bound, bounds._t, sp.oo), 0, evaluate=False)
    assert judge_relation(wrong).status == Status.FAILS


def test_the_printed_equality_48_is_refuted_for_every_admissible_lambda() -> None:
    verdict = _NEW[f"{_ID}:48:as-printed"].check()
    assert verdict.status == Status.FAILS
    assert verdict.basis == Basis.PROOF
    assert verdict.point


def test_the_tight_states_satisfy_the_initialization_exactly() -> None:
    for depth in bounds.DEPTHS:
        states = tight_states(depth)
        assert len(states) == len(SCALES) * DRAWS
        for state in states:
            shift = state.alpha**2 * state.margin * sp.eye(2)
            assert state.margin > 0
            assert all(positive_semidefinite(d - shift) for d in state.invariants)
            # Nearly equalities: lambda_min(D_l) within 1e-4 of alpha^2 lambda.
            for d in state.invariants:
                lowest = min(sp.Matrix(d).eigenvals(multiple=True))
                assert lowest / (state.alpha**2 * state.margin) < 1 + sp.Rational(
                    1, 10**4
                )


def _powered(depth: int, alpha_power: int, lambda_power: int) -> sp.MatrixExpr:
    return bounds._alpha**alpha_power * bounds._lam**lambda_power * sp.Identity(2)


def _judged_at_old_states(relation: sp.Basic, depth: int) -> Status:
    return judge_at_states(
        relation,
        balanced_states(depth, 2, bounds.STATES),
        functools.partial(bounds._state_matrices, depth),
    ).status


@pytest.mark.parametrize(
    ("alpha_power", "lambda_power"), [(7, 3), (5, 3), (6, 4)], ids=str
)
@pytest.mark.parametrize("step", ["44-46", "43-46"])
def test_44_bounds_with_a_wrong_power_fail_at_the_tight_states(
    step: str, alpha_power: int, lambda_power: int
) -> None:
    # (alpha^2 lambda)^3 holds with the factor (L - 1)! = 6 to spare (4 for
    # (43)); alpha^7, alpha^5 and lambda^4 exceed it only at alpha = 8,
    # alpha = 1/8 and lambda = 16 with D_l = alpha^2 lambda I: the drawn
    # states alone let them hold.
    upper = bounds._relation(step, 4).upper
    wrong = LoewnerLe(_powered(4, alpha_power, lambda_power), upper)
    assert _judged_at_old_states(wrong, 4) == Status.HOLDS
    assert _judged_at_states(wrong, 4) == Status.FAILS


@pytest.mark.parametrize("depth", bounds.DEPTHS)
def test_46_with_one_power_of_lambda_more_fails_at_the_tight_states(
    depth: int,
) -> None:
    power = depth - 1
    wrong = LoewnerLe(_powered(depth, 2 * power, power + 1), bounds.step_45(depth))
    assert _judged_at_old_states(wrong, depth) == Status.HOLDS
    assert _judged_at_states(wrong, depth) == Status.FAILS


def test_43_to_46_with_one_factor_w2_fewer_fails_at_the_tight_states() -> None:
    w = bounds._weights(4)
    wrong = LoewnerLe(bounds.step_46(4), bounds._conjugated(w[1].T * w[1], 4, 3))
    assert _judged_at_old_states(wrong, 4) == Status.HOLDS
    assert _judged_at_states(wrong, 4) == Status.FAILS


def test_what_the_tight_states_cannot_refute_is_true() -> None:
    # Dropping D_1 from (42) gives (43) itself, and (46) without W_L W_L^T
    # is D_{L-1}^{L-1} >= (alpha^2 lambda)^{L-1} I, true since D_{L-1} >=
    # alpha^2 lambda I: mutants that no sound check can refute.
    w, d = bounds._weights(3), bounds._invariants(3)
    assert (
        _judged_at_states(
            LoewnerLe(bounds.step_43(3), bounds._conjugated(w[1] * w[1].T, 3, 2)), 3
        )
        == Status.HOLDS
    )
    assert (
        _judged_at_states(LoewnerLe(bounds.step_46(3), sp.MatPow(d[1], 2)), 3)
        == Status.HOLDS
    )


def _chain_rule_slip(depth: int) -> sp.Basic:
    """(47) with dL/dt's term 2 v_{3,10} (W_1 W_2)_{01} counted 3/2 times."""
    network = bounds._network(depth)
    w1, w2, v3 = network.weights[0], network.weights[1], network.velocities[2]
    term = 2 * v3[1, 0] * (w1 * w2)[0, 1]
    relation = bounds._decay_rate(depth)
    assert term in relation.lhs.atoms(sp.Mul)
    return relation.xreplace({term: 3 * term / 2})


def test_47_with_a_term_of_dl_dt_miscounted_fails_at_a_searched_state() -> None:
    wrong = _chain_rule_slip(3)
    flow = bounds._network(3).flow()
    at_fixed = judge_at_states(
        wrong,
        bounds._states(3),
        functools.partial(bounds._entry_values, 3),
        substitutions=flow,
    )
    assert at_fixed.status == Status.HOLDS
    verdict = bounds._decay_judge(3, wrong)
    assert verdict.status == Status.FAILS
    assert verdict.basis == Basis.PROOF


def test_the_searched_states_satisfy_the_initialization_exactly() -> None:
    for depth in bounds.DEPTHS:
        states = bounds._searched_states(depth, bounds._decay_rate(depth))
        assert len(states) == bounds.SEARCHED
        for state in states:
            shift = state.alpha**2 * state.margin * sp.eye(2)
            assert state.margin > 0
            assert all(positive_semidefinite(d - shift) for d in state.invariants)
