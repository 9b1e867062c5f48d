r"""Tests of :mod:`implicit_bias.theory.tangent_features` (adaptive-tangent-features).

The derived closed forms are checked against their defining equations with
SymPy (exactly where it can decide) and at 50-digit sample points; the
matrix constructions (eqs. (8), (10), (17)-(18)) against their definitions.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.theory import tangent_features as theory

w, z, u, v, p = theory.w, theory.z, theory.u, theory.v, theory.p


def _numeric(expression: sp.Expr, values: dict[sp.Symbol, object]) -> mpmath.mpf:
    with mpmath.workdps(50):
        return mpmath.mpf(sp.N(expression.subs(values), 50))


def test_power_parametric_form() -> None:
    u_of_w, tilde_of_w = theory.power_tilde_parametric()
    assert sp.simplify(u_of_w - p * w ** (p - 1) * (1 + w) ** 3 / 2) == 0
    assert sp.simplify(tilde_of_w - (w**p + p * w ** (p - 1) * (1 + w) / 2)) == 0
    # p = 2: v^2 = w (1+w)^3 and omega~ = w (1 + 2w) = (z-1)(2z-1).
    u2, tilde2 = theory.squared_tilde_parametric()
    assert sp.expand(u2 - w * (1 + w) ** 3) == 0
    assert sp.expand(tilde2 - w * (1 + 2 * w)) == 0


@pytest.mark.parametrize("u_value", ["1e-12", "0.3", "1", "7.5", "1e6"])
def test_squared_root_solves_the_quartic_and_is_the_minimizer(u_value: str) -> None:
    root = theory.squared_tilde_root()
    x = _numeric(root, {u: sp.Float(u_value, 60)})
    with mpmath.workdps(50):
        assert x > 0
        assert abs(x * (1 + x) ** 3 - mpmath.mpf(u_value)) <= mpmath.mpf(10) ** -40 * (
            1 + mpmath.mpf(u_value)
        )


def test_absolute_tilde_pieces_meet() -> None:
    closed = theory.absolute_tilde()
    below = closed.subs(v, sp.Rational(1, 2))
    above = closed.subs(v, 2)
    assert below == sp.Rational(1, 4)
    assert sp.simplify(above - (sp.Rational(3, 2) * 8 ** sp.Rational(1, 3) - 1)) == 0
    interior = closed.args[1][0]
    assert sp.simplify(interior.subs(v, 1 / sp.sqrt(2)) - sp.Rational(1, 2)) == 0


def test_tail_coefficient_matches_the_power_minimum() -> None:
    # min_z z^p + v^2/z^2 = C_p v^(2p/(p+2)) at v = 1: check at p = 2, 1.
    assert sp.simplify(theory.power_tilde_tail_coefficient(2) - 2) == 0
    expected = sp.Rational(3, 2) * 2 ** sp.Rational(1, 3)
    assert sp.simplify(theory.power_tilde_tail_coefficient(1) - expected) == 0


def test_join_parametric_form_and_kink() -> None:
    v_of_z, value_of_z = theory.squared_absolute_join_parametric()
    assert sp.expand(v_of_z - 2 * z**2 * (z - 1)) == 0
    assert sp.expand(value_of_z - (3 * z**2 - 4 * z)) == 0
    kink = theory.join_kink()
    assert sp.simplify(kink - (1 + sp.sqrt(3)) / 2) == 0
    assert sp.simplify(v_of_z.subs(z, kink) - kink) == 0


def test_join_root_is_real_and_solves_the_cubic() -> None:
    root = theory.squared_absolute_join_root()
    for v_value in ("1.5", "10", "1e5"):
        x = _numeric(root, {v: sp.Float(v_value, 60)})
        with mpmath.workdps(50):
            residual = 2 * x**2 * (x - 1) - mpmath.mpf(v_value)
            assert abs(residual) <= mpmath.mpf(10) ** -40 * mpmath.mpf(v_value)


def test_omega3_tilde_parametric_form() -> None:
    u_of_z, tilde_of_z = theory.squared_absolute_tilde_parametric()
    assert sp.expand(u_of_z - 4 * z**5 * (z - 1) ** 3) == 0
    assert sp.expand(tilde_of_z - (4 * z**2 - 5 * z)) == 0


def test_theorem1_transform_is_identity_plus_rank_one() -> None:
    beta = sp.Matrix([1, 2, 2])
    transform = theory.theorem1_transform(beta, 3)
    assert transform * beta == 3 * beta
    assert transform * sp.Matrix([2, -1, 0]) == sp.Matrix([2, -1, 0])
    assert theory.theorem1_parameters(beta, 3) == beta / 3
    assert theory.unit_projector(beta) ** 2 == theory.unit_projector(beta)


def test_layer_transform_acts_on_vec() -> None:
    m1 = sp.Matrix([[1, 2], [3, 4]])
    m2 = sp.Matrix([[5, 6, 7], [8, 9, 10], [11, 12, 14]])
    weights = sp.Matrix(2, 3, list(sp.symbols("w0:6")))
    lhs = (m1 * weights * m2).vec()
    rhs = theory.layer_transform(m1, m2) * weights.vec()
    assert (lhs - rhs).applyfunc(sp.expand) == sp.zeros(6, 1)


def test_kernel_changes_agree_when_scales_are_one_off_the_diagonal() -> None:
    # With s1 = (a, 1) and s2 = (1, 1, 1), s1_j^2 s2_k^2 - 1 vanishes off the
    # pairs (1, k); (17) keeps only (1, 1), so the two differ unless a = 1.
    a = sp.Symbol("a", positive=True)
    u_matrix, v_matrix = sp.eye(2), sp.eye(3)
    m1, m2 = sp.diag(a, 1), sp.eye(3)
    exact = theory.kernel_change_exact(m1, m2)
    printed = theory.kernel_change_as_printed(u_matrix, v_matrix, [a, 1], [1, 1, 1])
    difference = (exact - printed).applyfunc(sp.expand)
    assert difference.subs(a, 1) == sp.zeros(6)
    assert difference != sp.zeros(6)
    # The missing directions are vec(e1 e2^T), vec(e1 e3^T): entries 2 and 4.
    assert {i for i in range(6) if difference[i, i] != 0} == {2, 4}


def test_conjugate_objectives() -> None:
    t = theory.t
    printed = theory.conjugate_objective_as_printed(theory.squared_deviation, v)
    assert sp.limit(printed, t, sp.oo) == sp.oo
    corrected = theory.conjugate_objective_corrected(theory.squared_deviation, v)
    objective = theory.effective_objective(theory.squared_deviation, z, v)
    assert sp.simplify(corrected.subs(t, 1 / z**2) + objective) == 0


def test_saturating_penalty_is_bounded_and_zero_at_one() -> None:
    x = sp.Symbol("x", real=True)
    penalty = theory.saturating_penalty(x)
    assert penalty.subs(x, 1) == 0
    assert sp.limit(penalty, x, sp.oo) == 1
    assert sp.limit(penalty, x, -sp.oo) == 1


def test_diagonal_objective_with_square_penalty_minimum() -> None:
    m, beta = theory.m, sp.Symbol("b", positive=True)
    objective = theory.diagonal_objective(lambda x: x**2, m, beta)
    assert sp.simplify(objective.subs(m, sp.sqrt(beta)) - 2 * beta) == 0


def test_glyphs_cover_the_symbols() -> None:
    for symbol in (v, u, z, w, p, theory.s, theory.m, theory.beta, theory.t):
        assert symbol in theory.GLYPHS


def test_theorem2_layer_has_the_printed_factors() -> None:
    # Eq. (14) with U = V = I (P = 3, Q = 2): the factors are the diagonals.
    s1, sigma, s2 = [2, 3, 1], [5, 7], [11, 13]
    m1, weights, m2 = theory.theorem2_layer(sp.eye(3), sp.eye(2), s1, sigma, s2)
    assert m1 == sp.diag(2, 3, 1)
    assert weights == sp.Matrix([[5, 0], [0, 7], [0, 0]])
    assert m2 == sp.diag(11, 13)


@pytest.mark.parametrize(
    ("s1", "sigma", "s2", "named"),
    [
        ([1, 1], [1, 1], [1, 1], "scales1"),
        ([1, 1, 1], [1], [1, 1], "singular"),
        ([1, 1, 1], [1, 1], [1, 1, 1], "scales2"),
    ],
)
def test_theorem2_layer_refuses_lengths_that_do_not_fit(
    s1: list[int], sigma: list[int], s2: list[int], named: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=named):
        theory.theorem2_layer(sp.eye(3), sp.eye(2), s1, sigma, s2)


def test_theorem2_scalar_objective_takes_sigma_from_the_constraint() -> None:
    s1, s2, d = sp.symbols("s1 s2 d", positive=True)
    objective = theory.theorem2_scalar_objective(
        theory.squared_deviation, theory.squared_deviation, s1, s2, d
    )
    sigma = d / (s1 * s2)
    assert sp.simplify(objective - ((s1 - 1) ** 2 + (s2 - 1) ** 2 + sigma**2)) == 0
