"""The reduction (2)-(6) of ptft-relu-penalty: its instances, minima and claims."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import sympy as sp

from implicit_bias.claims.engine import Status
from implicit_bias.claims.registry import get_claim
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.sources.ptft_relu_penalty import reduction
from implicit_bias.theory import relu_penalty as theory
from implicit_bias.theory.symbols import gamma

CASES = ((2, 0), (3, 1), (4, 2), (3, 7))


def _objective(instance: reduction.DecompositionInstance, scales: list) -> sp.Expr:
    # Eq. (2) written as the text prints it, a sum over units of both terms, on
    # the feasible point w_h^(1) = u_h w_hat_h, w_h^(2) = m_h / u_h.
    total = sp.Integer(0)
    for w_hat, w0, magnitude, scale in zip(
        instance.w_hats, instance.w0s, instance.magnitudes, scales, strict=True
    ):
        difference = scale * w_hat - w0
        total += (magnitude / scale - instance.gamma) ** 2 + (
            difference.T * difference
        )[0, 0]
    return total


@pytest.mark.parametrize(
    ("a", "b"), [(0, 0), (sp.Rational(1, 2), sp.Rational(-1, 3)), (4, -7)]
)
def test_rational_unit_vectors_have_norm_one(a: sp.Rational, b: sp.Rational) -> None:
    w_hat = reduction.rational_unit_vector(sp.Rational(a), sp.Rational(b))
    assert (w_hat.T * w_hat)[0, 0] == 1
    assert all(c.is_Rational for c in w_hat)


@pytest.mark.parametrize(
    ("units", "seed", "named"),
    [(0, 0, "units"), (2.0, 0, "units"), (True, 0, "units"), (2, -1, "seed")],
)
def test_bad_instance_arguments_are_refused(
    units: object, seed: object, named: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=named):
        reduction.decomposition_instance(units, seed)  # type: ignore[arg-type]


@pytest.mark.parametrize(("units", "seed"), CASES)
def test_instances_lie_in_the_source_regime(units: int, seed: int) -> None:
    instance = reduction.decomposition_instance(units, seed)
    assert len(instance.w_hats) == len(instance.w0s) == units
    assert sp.Rational(1, 1000) <= abs(instance.gamma) <= sp.Rational(1, 100)
    for w_hat, w0, magnitude in zip(
        instance.w_hats, instance.w0s, instance.magnitudes, strict=True
    ):
        norm_sq = (w0.T * w0)[0, 0]
        assert (w_hat.T * w_hat)[0, 0] == 1
        assert sp.Rational(1, 100) <= norm_sq <= 100
        assert sp.Rational(1, 8) <= abs(magnitude) <= 3
        assert (w_hat.T * w0)[0, 0] ** 2 <= norm_sq  # |rho| <= 1


@pytest.mark.parametrize(("units", "seed"), CASES)
def test_the_joint_minimum_is_below_the_objective_at_random_feasible_points(
    units: int, seed: int
) -> None:
    instance = reduction.decomposition_instance(units, seed)
    minimum = reduction.joint_minimum(instance)
    assert minimum is not None
    rng = np.random.default_rng(seed)
    for _ in range(30):
        scales = [sp.Rational(int(k), 64) for k in rng.integers(8, 256, units)]
        assert _objective(instance, scales) >= minimum


@pytest.mark.parametrize(("units", "seed"), CASES)
def test_the_joint_minimum_is_attained_near_a_numerical_search(
    units: int, seed: int
) -> None:
    # An independent float search: each scale on a fine grid, all units at once.
    instance = reduction.decomposition_instance(units, seed)
    minimum = reduction.joint_minimum(instance)
    grid = np.linspace(0.25, 4.0, 3001)
    best = 0.0
    for w_hat, w0, magnitude in zip(
        instance.w_hats, instance.w0s, instance.magnitudes, strict=True
    ):
        w_hat_f = np.array(w_hat, dtype=float).ravel()
        w0_f = np.array(w0, dtype=float).ravel()
        values = (float(magnitude) / grid - float(instance.gamma)) ** 2 + (
            (grid[:, None] * w_hat_f - w0_f) ** 2
        ).sum(axis=1)
        best += values.min()
    # The grid spacing 1.25e-3 misses a minimum by at most p''/2 * (6.25e-4)^2;
    # a grid point at a minimizer may round below it by a few ulps.
    assert float(minimum) * (1 - 1e-12) <= best <= float(minimum) + 1e-4


def test_the_sum_of_unit_penalties_matches_the_joint_minimum() -> None:
    for units, seed in CASES:
        instance = reduction.decomposition_instance(units, seed)
        assert reduction.sum_of_unit_penalties(instance) == reduction.joint_minimum(
            instance
        )


def test_a_wrong_per_unit_penalty_fails_the_decomposition(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    printed = theory.penalty_eq11
    monkeypatch.setattr(
        theory, "penalty_eq11", lambda u_star: printed(u_star) + sp.Rational(1, 10**6)
    )
    verdict = get_claim("ptft-relu-penalty:4:unit-decomposition").check()
    assert verdict.status == Status.FAILS
    assert verdict.counterexample


def test_an_objective_that_couples_units_is_not_decided(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    split = reduction._deviation_on_feasible_set

    def coupled(units, readout_init):  # type: ignore[no-untyped-def]
        scales = [scale for _, _, _, scale in units]
        return split(units, readout_init) + scales[0] * scales[1] / 100

    monkeypatch.setattr(reduction, "_deviation_on_feasible_set", coupled)
    assert reduction.joint_minimum(reduction.decomposition_instance(2, 0)) is None
    verdict = get_claim("ptft-relu-penalty:4:unit-decomposition").check()
    assert verdict.status == Status.INCONCLUSIVE


def test_the_step_from_5_to_6_refutes_a_wrong_p_of_u() -> None:
    # The judge substitutes the feasible curve, then compares: p(u) + 1 is not it.
    step = reduction.UNIT_PROBLEM.claims[0]
    relation = step.check.relation()
    wrong = relation.func(relation.lhs, relation.rhs + 1, evaluate=False)
    assert step.check.judge(wrong).status == Status.FAILS


def test_the_chain_of_5_to_6_ends_at_the_printed_p_of_u() -> None:
    chain = reduction.UNIT_PROBLEM
    assert [c.id for c in chain.claims] == ["ptft-relu-penalty:6:unit-problem-step-1"]
    assert chain.expressions()[-1] == theory.deviation_eq6()
    assert chain.steps[0].quote.endswith("(6)$")


def test_the_two_unit_objective_splits_into_the_printed_p_of_u() -> None:
    units = reduction._TWO_UNITS
    stacked = reduction._deviation_on_feasible_set(
        [(s.w_hat, s.w0, s.magnitude, s.scale) for s in units], gamma
    )
    for first, second in itertools.permutations(units):
        difference = stacked - reduction._unit_p_of_u(first)
        assert sp.expand(difference - reduction._unit_p_of_u(second)) == 0
        assert sp.diff(difference, first.scale) == 0


def test_the_module_symbols_are_new_to_the_source() -> None:
    # A symbol named like one of the theory's (its w0 coordinates are w1, w2, w3)
    # would be the same SymPy symbol, and its glyph would replace the other's.
    from implicit_bias.sources.ptft_relu_penalty import source

    assert not set(reduction.GLYPHS) & (set(theory.GLYPHS) | set(source.GLYPHS))
