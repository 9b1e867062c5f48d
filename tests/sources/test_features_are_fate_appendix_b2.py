"""The loss-decay chain (36)-(40) of features-are-fate's Appendix B.2."""

from __future__ import annotations

import sympy as sp

from implicit_bias.claims.checks import judge_relation
from implicit_bias.claims.engine import Basis, Status
from implicit_bias.sources.features_are_fate import appendix_b2 as b2
from implicit_bias.sources.features_are_fate import CLAIMS, DERIVATIONS
from implicit_bias.sources.features_are_fate.appendix_b2 import (
    _inner,
    _smallest_singular_value_squared,
    deep_linear_network,
)


def _chain_claims() -> dict[str, object]:
    return {
        claim.id: claim
        for chain in DERIVATIONS
        if chain.label.startswith("loss-decay-depth-")
        for claim in chain.claims
    }


def test_the_chains_are_registered_at_depths_two_and_three() -> None:
    labels = [c.label for c in DERIVATIONS if c.label.startswith("loss-decay-")]
    assert labels == ["loss-decay-depth-2", "loss-decay-depth-3"]
    for chain in DERIVATIONS:
        if chain.label.startswith("loss-decay-"):
            assert [c.equation for c in chain.claims] == ["36", "37", "38", "39", "40"]


def test_each_step_has_its_expected_verdict() -> None:
    claims = _chain_claims()
    assert len(claims) == 10
    for claim in claims.values():
        verdict = claim.check()  # type: ignore[attr-defined]
        assert verdict.status == claim.expected, claim.id  # type: ignore[attr-defined]


def test_39_fails_only_for_the_missing_minus_of_38() -> None:
    (claim,) = [c for c in CLAIMS if c.id == "features-are-fate:39:last-layer-gradient"]
    assert claim.check().status == Status.HOLDS
    step = _chain_claims()["features-are-fate:39:loss-decay-depth-2-step-4"]
    verdict = step.check()  # type: ignore[attr-defined]
    assert verdict.status == Status.FAILS
    assert verdict.counterexample


def _flow_judged(relation: sp.Basic, depth: int) -> Status:
    network = deep_linear_network(depth)
    return judge_relation(relation, substitutions=network.flow(), points=30).status


def test_a_plus_sign_in_37_fails() -> None:
    network = deep_linear_network(2)
    wrong = sp.Eq(
        network.loss_rate(),
        sum(_inner(network.gradient(k), network.gradient(k)) for k in (1, 2)),
    )
    assert _flow_judged(wrong, 2) == Status.FAILS


def test_a_missing_velocity_term_in_36_fails() -> None:
    network = deep_linear_network(3)
    wrong = sp.Eq(
        network.loss_rate(),
        _inner(network.gradient(3), network.velocities[2]),
    )
    assert judge_relation(wrong, points=30).status == Status.FAILS


def test_38_with_the_other_terms_kept_on_the_wrong_side_fails() -> None:
    network = deep_linear_network(2)
    total = sum(_inner(network.gradient(k), network.gradient(k)) for k in (1, 2))
    # -sum ||grad||^2 <= -2 sum ||grad||^2 is false away from a critical point.
    wrong = sp.Le(-total, -2 * total)
    assert _flow_judged(wrong, 2) == Status.FAILS


def test_39_without_the_hidden_layers_fails() -> None:
    network = deep_linear_network(3)
    gradient = network.gradient(3)
    wrong = sp.Eq(
        -_inner(gradient, gradient), -_inner(network.residual, network.residual)
    )
    assert judge_relation(wrong, points=30).status == Status.FAILS


def test_40_with_a_factor_four_fails() -> None:
    network = deep_linear_network(2)
    written_out = network.hidden_transpose() * network.residual
    smallest = _smallest_singular_value_squared(network.hidden_transpose())
    wrong = sp.Le(-_inner(written_out, written_out), -4 * smallest * network.loss)
    verdict = judge_relation(wrong, points=30)
    assert verdict.status == Status.FAILS
    assert verdict.counterexample


def test_smallest_singular_value_matches_its_definition() -> None:
    matrix = sp.Matrix([[3, 1], [0, 2]])
    expected = min((matrix.T * matrix).eigenvals())
    assert sp.simplify(_smallest_singular_value_squared(matrix) - expected) == 0


def _step_38(depth: int) -> sp.Basic:
    claims = _chain_claims()
    claim = claims[f"features-are-fate:38:loss-decay-depth-{depth}-step-3"]
    return claim.check.relation()  # type: ignore[attr-defined]


def test_38_with_a_gradient_entry_of_the_wrong_degree_fails_at_small_weights() -> None:
    # -||grad_1 L||_F^2 has the term -(W_2)_00^2 r_1^2; with -(W_2)_00 r_1^2
    # in its place the left side is of order alpha, not alpha^2, at W = alpha
    # Wbar and positive where (W_2)_00 < 0: the bound (38) fails there.
    network = deep_linear_network(2)
    w2_00 = network.weights[1][0, 0]
    r1 = network.residual[1, 0]
    stated = _step_38(2)
    wrong = sp.Le(
        stated.lhs + w2_00**2 * r1**2 - w2_00 * r1**2, stated.rhs, evaluate=False
    )
    verdict = b2._at_small_initialization(2, wrong)
    assert verdict is not None
    assert verdict.status == Status.FAILS
    assert verdict.basis == Basis.PROOF
    assert "small-initialization point" in (verdict.counterexample or "")
    assert b2._at_small_initialization(2, stated) is None


def test_the_small_initialization_points_are_small() -> None:
    for depth in (2, 3):
        points = b2.small_initialization_points(depth)
        assert len(points) == b2.SMALL_POINTS
        network = deep_linear_network(depth)
        for number, point in enumerate(points):
            alpha = b2.SMALL_SCALES[number % len(b2.SMALL_SCALES)]
            weights = [point[s] for w in network.weights for s in w]
            assert max(abs(v) for v in weights) < 8 * alpha
            assert all(isinstance(v, sp.Rational) for v in point.values())
