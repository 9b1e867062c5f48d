"""The SymPy derivation of ptft-diagonal-networks, Appendices A-B, step by step."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.theory import diagonal_networks as theory
from implicit_bias.theory.symbols import gamma

z = sp.Symbol("z", real=True)
beta = sp.Symbol("beta", real=True)
k = sp.Symbol("k", positive=True)


def _zero(matrix: sp.Matrix) -> bool:
    return all(sp.expand(entry) == 0 for entry in matrix)


def _instance() -> tuple[sp.Matrix, sp.Matrix, sp.Matrix, sp.Matrix, sp.Matrix]:
    x = theory.data_matrix()
    return (
        x,
        theory.targets(),
        theory.stacked_data(x),
        theory.layer_weights(1),
        theory.layer_weights(2),
    )


def test_instance_shapes_follow_the_paper() -> None:
    x, y, x_tilde, w1, w2 = _instance()
    assert x.shape == (theory.SAMPLES, theory.DIMENSION)
    assert y.shape == (theory.SAMPLES, 1)
    assert x_tilde.shape == (theory.SAMPLES, 2 * theory.DIMENSION)
    assert w1.shape == w2.shape == (2 * theory.DIMENSION, 1)
    assert x_tilde[:, theory.DIMENSION :] == -x


def test_stacked_data_times_stacked_weights_is_x_beta() -> None:
    x, _, x_tilde, w1, w2 = _instance()
    assert _zero(
        x_tilde * theory.hadamard(w1, w2) - x * theory.effective_weights(w1, w2)
    )


def test_loss_gradient_is_plus_two_xt_r_hadamard_other_layer() -> None:
    # The sign the paper's eq. (8) gets wrong: grad L = +2 X~^T r o w2 for
    # r = X~(w1 o w2) - y, so gradient flow is -2 X~^T r o w2 (the printed RHS).
    _, y, x_tilde, w1, w2 = _instance()
    loss = theory.squared_loss(x_tilde, y, w1, w2)
    r = theory.residual(x_tilde, y, w1, w2)
    assert _zero(theory.loss_gradient(loss, w1) + theory.flow_rhs_eq8(x_tilde, r, w2))
    assert _zero(theory.loss_gradient(loss, w2) + theory.flow_rhs_eq9(x_tilde, r, w1))


def test_change_of_variables_gives_eqs_10_and_11() -> None:
    _, _, x_tilde, w1, w2 = _instance()
    r = sp.Matrix(sp.symbols("r1 r2", real=True))
    w1_dot = theory.flow_rhs_eq8(x_tilde, r, w2)
    w2_dot = theory.flow_rhs_eq9(x_tilde, r, w1)
    s = theory.sum_coordinates(w1, w2)
    d = theory.difference_coordinates(w1, w2)
    assert _zero((w1_dot + w2_dot) / 2 - theory.flow_rhs_eq10(x_tilde, r, s))
    assert _zero((w1_dot - w2_dot) / 2 - theory.flow_rhs_eq11(x_tilde, r, d))
    assert _zero(s + d - w1)
    assert _zero(s - d - w2)


@pytest.mark.parametrize(
    ("solution", "rhs"),
    [
        (theory.solution_eq13, theory.flow_rhs_eq10),
        (theory.solution_eq14, theory.flow_rhs_eq11),
    ],
)
def test_closed_forms_13_14_solve_the_odes(solution, rhs) -> None:
    _, _, x_tilde, _, _ = _instance()
    r_integral = theory.integrated_residual()
    init = sp.Matrix(sp.symbols("c1:5", real=True))
    value = solution(init, x_tilde, r_integral)
    assert _zero(value.diff(theory.t) - rhs(x_tilde, r_integral.diff(theory.t), value))
    at_zero = value.subs(theory.t, 0).subs({f.subs(theory.t, 0): 0 for f in r_integral})
    assert _zero(at_zero - init)


def test_eqs_15_to_17_are_difference_of_squares_regroupings() -> None:
    a_p, b_p, a_m, b_m = sp.symbols("a_p b_p a_m b_m", real=True)
    s_p, d_p = (a_p + b_p) / 2, (a_p - b_p) / 2
    s_m, d_m = (a_m + b_m) / 2, (a_m - b_m) / 2
    beta_15 = a_p * b_p - a_m * b_m
    assert sp.expand(theory.beta_eq16(s_p, d_p, s_m, d_m) - beta_15) == 0
    assert sp.expand(theory.beta_eq17(s_p, d_p, s_m, d_m) - beta_15) == 0


def test_eqs_18_19_as_printed_are_twice_the_correct_form() -> None:
    s0, d0, u = sp.symbols("s0 d0 u", real=True)
    printed = theory.beta_eq18_19(s0, d0, u)
    corrected = theory.beta_eq18_19_corrected(s0, d0, u)
    assert sp.expand(printed - 2 * corrected) == 0
    assert sp.expand(corrected - theory.beta_eq20(s0, d0, u).rewrite(sp.exp)) == 0


def test_eq21_coefficient_is_twice_s0_sq_plus_d0_sq() -> None:
    a, b, u = sp.symbols("a b u", real=True)
    s0, d0 = (a + b) / 2, (a - b) / 2
    assert sp.expand(2 * (s0**2 + d0**2) - theory.q_norm_coefficient(a, b)) == 0
    assert sp.expand(theory.beta_eq20(s0, d0, u) - theory.beta_eq21(a, b, u)) == 0


def test_q_potential_value_slope_and_curvature() -> None:
    q = theory.q_potential(z)
    assert q.subs(z, 0) == 0
    assert sp.simplify(sp.diff(q, z) - sp.asinh(z / 2)) == 0
    assert sp.simplify(sp.diff(q, z, 2) - 1 / sp.sqrt(4 + z**2)) == 0
    assert sp.expand(q.subs(z, -z) - q) == 0


def test_q_expansions_at_zero_and_infinity() -> None:
    q = theory.q_potential(z)
    series = sp.series(q, z, 0, 6).removeO()
    assert sp.expand(series - theory.q_small_z(z)) == 0
    eps = sp.Symbol("epsilon", positive=True)
    at_infinity = sp.series(
        theory.q_potential(1 / eps).rewrite(sp.log), eps, 0, 3
    ).removeO()
    assert sp.simplify(at_infinity - theory.q_large_z(1 / eps)) == 0


def test_q_norm_gradient_inverts_the_sinh_form() -> None:
    gradient = sp.diff(theory.q_norm_term(beta, k), beta)
    assert sp.cancel(gradient - 2 * sp.asinh(beta / k)) == 0
    betas, ks = sp.symbols("b1 b2", real=True), sp.symbols("k1 k2", positive=True)
    total = theory.q_norm(betas, ks)
    assert total == theory.q_norm_term(betas[0], ks[0]) + theory.q_norm_term(
        betas[1], ks[1]
    )


def test_ptft_coefficient() -> None:
    beta_aux = sp.Symbol("beta_aux", real=True)
    assert theory.ptft_coefficient(beta_aux) == sp.Abs(beta_aux) + gamma**2


def test_multitask_objective_minimum() -> None:
    zp, size = sp.symbols("z b", positive=True)
    objective = theory.mtl_objective_eq28(zp, size)
    z_squared = theory.stationary_z_squared(size)
    assert sp.simplify(sp.diff(objective, zp).subs(zp, sp.sqrt(z_squared))) == 0
    assert sp.simplify(objective.subs(zp, sp.sqrt(z_squared))) == 2 * size


def test_multitask_weights_and_norms() -> None:
    a, c = sp.symbols("a c", real=True)
    b = sp.Matrix(sp.symbols("b1 b2", real=True))
    e = sp.Matrix(sp.symbols("e1 e2", real=True))
    assert theory.mtl_effective_weights(a, b, c, e) == b * a - e * c
    both = theory.mtl_parameter_norm_eq26(a, b, c, e)
    plus = theory.mtl_parameter_norm_eq27(a, b)
    assert sp.expand(both - plus - c**2 - e[0] ** 2 - e[1] ** 2) == 0
    betas = sp.Matrix([[3, 0], [4, -2]])
    assert theory.l12_norm(betas) == 7


def test_single_output_l12_is_l1() -> None:
    betas = sp.Matrix([list(sp.symbols("b1:4", real=True))])
    assert theory.l12_norm(betas) == sum(sp.Abs(v) for v in betas)


def test_relu_reparameterization() -> None:
    w1 = sp.Matrix([3, 4])
    w2 = sp.Matrix([1, -2])
    x = sp.Matrix(sp.symbols("x1 x2", real=True))
    magnitude = theory.relu_magnitude_eq32(w1, w2)
    direction = theory.relu_direction_eq32(w1)
    assert magnitude == sp.Matrix([5, -10])
    assert (direction.T * direction)[0, 0] == 1
    network = theory.relu_network_eq31([w1], [w2], x)
    rewritten = magnitude * theory.relu((direction.T * x)[0, 0])
    difference = (network - rewritten).applyfunc(lambda v: v.rewrite(sp.Abs))
    assert all(sp.simplify(entry) == 0 for entry in difference)
    assert theory.relu(sp.Integer(-2)) == 0


def test_every_display_relation_is_typeset_in_paper_notation() -> None:
    displays = [
        getattr(theory, name) for name in theory.__all__ if name.startswith("display")
    ]
    assert len(displays) >= 20
    for display in displays:
        relation = display()
        assert relation.free_symbols <= set(theory.GLYPHS), display.__name__
        text = sp.latex(relation, symbol_names=theory.GLYPHS)
        for symbol in relation.free_symbols:
            assert theory.GLYPHS[symbol] in text, (display.__name__, symbol)


def test_as_printed_and_corrected_displays_differ() -> None:
    assert theory.display_eq8() != theory.display_eq8(as_printed=False)
    assert theory.display_eq9() != theory.display_eq9(as_printed=False)
    assert theory.display_eq18_19() != theory.display_eq18_19(as_printed=False)
    latex = sp.latex(theory.display_eq20(), symbol_names=theory.GLYPHS)
    assert r"\sinh{\left(- 4" in latex
