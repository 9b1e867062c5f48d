"""Lemma B.1's rank-one half, features-are-fate Appendix B.3: (52)-(60)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from implicit_bias.claims.checks import judge_relation
from implicit_bias.claims.engine import Basis, Status
from implicit_bias.sources.features_are_fate import CLAIMS, DERIVATIONS
from implicit_bias.sources.features_are_fate import _lemma_b1 as lemma
from implicit_bias.sources.features_are_fate import appendix_b3
from implicit_bias.sources.features_are_fate._balanced_states import (
    positive_semidefinite,
)
from implicit_bias.sources.features_are_fate._network_states import (
    initial_states,
    quantities,
    trajectory_states,
)
from implicit_bias.sources.features_are_fate.appendix_b2 import deep_linear_network
import itertools

_NEW = {
    claim.id: claim
    for claim in (
        *appendix_b3.CLAIMS,
        *(c for chain in appendix_b3.DERIVATIONS for c in chain.claims),
    )
}
_ALPHA = lemma.ALPHA


def test_the_claims_and_chains_are_registered() -> None:
    registered = {claim.id for claim in CLAIMS}
    assert {claim.id for claim in appendix_b3.CLAIMS} <= registered
    assert {c.label for c in appendix_b3.DERIVATIONS} <= {c.label for c in DERIVATIONS}
    equations = {c.equation for c in _NEW.values()}
    assert equations == {"52", "53-54", "54", "55", "56", "57", "58", "59", "60"}


@pytest.mark.parametrize("claim_id", sorted(_NEW))
def test_each_claim_has_its_expected_verdict(claim_id: str) -> None:
    claim = _NEW[claim_id]
    verdict = claim.check()
    assert verdict.status == claim.expected, (claim_id, verdict.detail)


def test_the_initial_states_satisfy_the_initialization_exactly() -> None:
    for state in initial_states(3):
        bars = [
            sp.Matrix([[sp.Rational(e) for e in row] for row in w])
            for w in state.initialization
        ]
        for upper, lower in itertools.pairwise(bars):
            invariant = upper.T * upper - lower * lower.T
            assert positive_semidefinite(invariant)
            assert invariant.det() > 0


def test_the_flows_conserve_the_invariant_and_converge() -> None:
    states = trajectory_states(3)
    assert max(float(quantities(s)["drift"].upper()) for s in states) < 1e-12
    assert sum(s.converged for s in states) == 4


def test_the_quantities_match_numpy_singular_value_decompositions() -> None:
    # A textbook reference: numpy's SVD of the float weights.
    for state in (*initial_states(3)[:3], *trajectory_states(3)[-3:]):
        values = quantities(state)
        weights = [np.array(w, dtype=float) for w in state.weights]
        u, s, vt = zip(*(np.linalg.svd(w) for w in weights), strict=True)
        for k in (1, 2, 3):
            assert float(values[f"s2_{k}"].mid()) == pytest.approx(s[k - 1][0] ** 2)
        for layer in (1, 2):
            overlap = float(vt[layer - 1][0] @ u[layer][:, 0]) ** 2
            assert float(values[f"align_{layer}"].mid()) == pytest.approx(overlap)
            gram = weights[layer - 1].T @ weights[layer - 1]
            top = u[layer][:, 0]
            assert float(values[f"u_top_{layer}"].mid()) == pytest.approx(
                top @ gram @ top
            )


def test_59_fails_at_an_exact_initial_state() -> None:
    verdict = _NEW["features-are-fate:59:as-printed-layer-1"].check()
    assert verdict.status == Status.FAILS
    assert verdict.basis == Basis.CERTIFIED
    assert "t = 0" in (verdict.counterexample or "")


def _judged(relation: sp.Basic) -> Status:
    return lemma.judge_at_states(relation).status


def test_52_with_a_factor_two_fails() -> None:
    network = deep_linear_network(3)
    rate = appendix_b3._frobenius_rate(1, 2)
    wrong = sp.Eq(
        rate.lhs
        + 2
        * sum(
            w * v
            for w, v in zip(network.weights[1], network.velocities[1], strict=True)
        ),
        0,
        evaluate=False,
    )
    verdict = judge_relation(wrong, substitutions=network.flow(), points=20)
    assert verdict.status == Status.FAILS


def test_the_telescoped_sum_stopping_one_short_fails() -> None:
    f, k = appendix_b3._FROBENIUS, sp.Symbol("k", integer=True)
    first, last = lemma.LAYER_INDEX, sp.Symbol("L", integer=True, positive=True)
    wrong = sp.Eq(sp.Sum(f(k) - f(k + 1), (k, first, last - 1)), f(first) - f(last - 1))
    assert judge_relation(wrong, points=20).status == Status.FAILS


@pytest.mark.parametrize("layer", [1, 2])
def test_57_without_alpha_squared_fails(layer: int) -> None:
    p, b = lemma.PAIR[layer], lemma.LAYER[layer + 1]
    assert _judged(sp.Eq(p["u_split"], b["s2"] + p["u_bar"])) == Status.FAILS


@pytest.mark.parametrize("layer", [1, 2])
def test_58_with_the_norms_swapped_fails(layer: int) -> None:
    a, b, p = lemma.LAYER[layer], lemma.LAYER[layer + 1], lemma.PAIR[layer]
    wrong = sp.Ge(
        b["s2"] + _ALPHA**2 * p["u_bar"], b["s2"] + _ALPHA**2 * (a["obar"] - b["obar"])
    )
    assert _judged(wrong) == Status.FAILS


@pytest.mark.parametrize("layer", [1, 2])
def test_60_with_alpha_to_the_fourth_fails(layer: int) -> None:
    a = lemma.LAYER[layer]
    wrong = sp.Le(a["fro"] - a["s2"], _ALPHA**2 * lemma.rank_one_bound(layer))
    assert _judged(wrong) == Status.FAILS


def test_55_as_an_equality_fails() -> None:
    p = lemma.PAIR[1]
    assert _judged(sp.Eq(p["v_top"], p["u_top"])) == Status.FAILS


@pytest.mark.parametrize("fact", lemma.ORDER_FACTS, ids=str)
def test_the_order_the_equivalence_tests_use_holds_at_every_state(
    fact: sp.Rel,
) -> None:
    # ORDER is stated, not observed: each of its inequalities is decided at
    # every state the claims are judged at, and ORDER writes it so that SymPy
    # reads it from the slacks' signs.
    assert lemma.judge_at_states(fact).status == Status.HOLDS
    if isinstance(fact, sp.Eq):
        assert sp.simplify((fact.lhs - fact.rhs).subs(lemma.ORDER)) == 0
        return
    gap = (fact.gts - fact.lts).subs(lemma.ORDER)
    assert sp.simplify(gap).is_nonnegative


def test_a_bound_loosened_within_the_order_is_an_equivalent_mutant() -> None:
    from implicit_bias.claims.mutant_truth import true_by_itself

    a, b = lemma.LAYER[1], lemma.LAYER[2]
    # (58) without the alpha^2 u^T Dbar u term: s_2^2 >= s_2^2 + alpha^2
    # (||Wbar_2||^2 - ||Wbar_1||^2), true because (22) orders the norms.
    loosened = sp.Ge(
        b["s2"], b["s2"] + lemma.ALPHA**2 * (b["obar"] - a["obar"]), evaluate=False
    )
    assert true_by_itself(loosened, lemma.ORDER, 5.0)
    assert not true_by_itself(loosened, None, 5.0)
    turned = sp.Ge(
        b["s2"], b["s2"] + lemma.ALPHA**2 * (a["obar"] - b["obar"]), evaluate=False
    )
    assert not true_by_itself(turned, lemma.ORDER, 5.0)


@pytest.mark.parametrize("layer", [1, 2])
def test_59_with_the_sign_of_its_alpha_squared_term_turned_fails(layer: int) -> None:
    # s_l^2 >= s_L^2 + alpha^2 (||Wbar_l||^2 - ||Wbar_L||^2) is an equality at
    # t = 0; it fails once the flow turns u_{l+1} off the top eigenvectors of
    # Dbar (the axis-aligned flow toward e_2).
    a, last = lemma.LAYER[layer], lemma.LAYER[lemma.DEPTH]
    wrong = sp.Ge(a["s2"], last["s2"] + _ALPHA**2 * (a["obar"] - last["obar"]))
    assert _judged(wrong) == Status.FAILS


@pytest.mark.parametrize("layer", [1, 2])
def test_60_bounded_by_the_initial_subleading_norm_alone_fails(layer: int) -> None:
    # ||W_l||_F^2 - s_l^2 <= alpha^2 (||Wbar_l||_F^2 - ||Wbar_l||_op^2): an
    # equality at t = 0, false once the flow grows W along another axis.
    a = lemma.LAYER[layer]
    wrong = sp.Le(a["fro"] - a["s2"], _ALPHA**2 * (a["fbar"] - a["obar"]))
    assert _judged(wrong) == Status.FAILS


def test_the_order_shows_bounds_the_proof_states_loosely_still_true() -> None:
    from implicit_bias.claims.mutant_truth import true_by_itself

    a, b, p = lemma.LAYER[1], lemma.LAYER[2], lemma.PAIR[1]
    # (68) without its alpha^2 ||Dbar||^2: u^T W_1^T W_1 u = s_2^2 + alpha^2
    # u^T Dbar_1 u (57) >= s_2^2.
    assert true_by_itself(sp.Ge(p["u_top"], b["s2"], evaluate=False), lemma.ORDER, 5.0)
    # (66)'s last step with ||Wbar_1||_op^2 and ||Wbar_L||_op^2 swapped: W_L is
    # a column, so ||Wbar_L||_F = ||Wbar_L||_op, and ||Wbar_1||_F >= ||Wbar_1||_op.
    last = lemma.LAYER[lemma.DEPTH]
    swapped = sp.Le(
        0,
        _ALPHA**2 * (a["fbar"] - last["fbar"] + last["obar"] - a["obar"]),
        evaluate=False,
    )
    assert true_by_itself(swapped, lemma.ORDER, 5.0)
    # ... but not with the Frobenius norms swapped too.
    turned = sp.Le(
        0,
        _ALPHA**2 * (last["fbar"] - a["fbar"] + last["obar"] - a["obar"]),
        evaluate=False,
    )
    assert not true_by_itself(turned, lemma.ORDER, 5.0)


def test_the_regime_counts_the_states_the_claims_are_judged_at() -> None:
    states = lemma.all_states()
    initial = sum(state.initial for state in states)
    assert f"{initial} exact initial states" in lemma.REGIME
    assert f"{len(states) - initial} checkpoints" in lemma.REGIME
