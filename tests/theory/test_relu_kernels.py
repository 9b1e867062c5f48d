r"""Tests of :mod:`implicit_bias.theory.relu_kernels` (features-are-fate, App. C).

Each expression is checked against an independent derivation: the Gaussian
integral for eq. (153), SymPy's series and Hermite integrals for its
expansions, and the L2 normal equations for eqs. (158)-(159).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sympy as sp

from implicit_bias.theory import relu_kernels as theory

u = theory.u
eps = theory.epsilon


def test_kernel_values_at_the_ends_and_zero() -> None:
    assert theory.arc_cosine_kernel(sp.Integer(1)) == sp.Rational(1, 2)
    assert theory.arc_cosine_kernel(sp.Integer(-1)) == 0
    assert theory.arc_cosine_kernel(sp.Integer(0)) == 1 / (2 * sp.pi)


def test_polar_integral_gives_the_angular_form() -> None:
    derived = theory.gaussian_overlap_polar().doit()
    assert sp.simplify(derived - theory.arc_cosine_kernel_angular()) == 0


def test_angular_form_is_the_printed_form() -> None:
    difference = theory.arc_cosine_kernel_angular(
        sp.acos(u)
    ) - theory.arc_cosine_kernel(u)
    assert sp.simplify(difference) == 0


def test_unit_variance_feature_norm() -> None:
    # E[sigma(z)^2] = 1/2 for z ~ N(0, 1): the kernel's value at u = 1.
    z = theory.z
    second_moment = sp.integrate(z**2 * sp.exp(-(z**2) / 2), (z, 0, sp.oo)) / sp.sqrt(
        2 * sp.pi
    )
    assert sp.simplify(second_moment - theory.arc_cosine_kernel(sp.Integer(1))) == 0


def test_derivative() -> None:
    derivative = sp.diff(theory.arc_cosine_kernel(u), u)
    assert sp.simplify(derivative - theory.kernel_derivative(u)) == 0
    second = sp.diff(theory.kernel_derivative(u), u)
    assert sp.simplify(second - 1 / (2 * sp.pi * sp.sqrt(1 - u**2))) == 0


def test_odd_part_is_linear() -> None:
    # acos(x) = pi/2 - asin(x) and asin is odd: acos(-u) = pi - acos(u).
    difference = theory.arc_cosine_kernel(u) - theory.arc_cosine_kernel(-u)
    assert sp.simplify((difference - u / 2).rewrite(sp.asin)) == 0


@pytest.mark.parametrize("order", [2, 7, 14])
def test_taylor_coefficients(order: int) -> None:
    series = sp.series(theory.arc_cosine_kernel(u), u, 0, order).removeO()
    expected = sum(
        (theory.kernel_taylor_coefficient(n) * u**n for n in range(order)),
        sp.Integer(0),
    )
    assert sp.simplify(sp.expand(series - expected)) == 0


@pytest.mark.parametrize("n", range(7))
def test_hermite_coefficients_square_to_taylor(n: int) -> None:
    coefficient = theory.hermite_coefficient(n).doit()
    mehler = coefficient**2 / sp.factorial(n)
    assert sp.simplify(mehler - theory.kernel_taylor_coefficient(n)) == 0
    assert theory.kernel_taylor_coefficient(n) >= 0


def test_taylor_coefficient_rejects_negative_power() -> None:
    with pytest.raises(ValueError, match="n=-1"):
        theory.kernel_taylor_coefficient(-1)


@pytest.mark.parametrize(
    ("end", "form"),
    [(1, theory.kernel_series_at_one), (-1, theory.kernel_series_at_minus_one)],
)
def test_series_at_the_ends(end: int, form: Callable[[sp.Expr], sp.Expr]) -> None:
    series = sp.series(theory.arc_cosine_kernel(end - end * eps), eps, 0, 3).removeO()
    assert sp.simplify(sp.expand(series - form(eps))) == 0


def test_leading_term_near_minus_one() -> None:
    # The printed terms are O(eps^(1/2)) each; the kernel is O(eps^(3/2)).
    ratio = theory.arc_cosine_kernel(-1 + eps) / eps ** sp.Rational(3, 2)
    assert sp.limit(ratio, eps, 0, "+") == sp.sqrt(2) / (3 * sp.pi)


def test_general_overlap_is_homogeneous() -> None:
    scale = sp.Symbol("s", positive=True)
    overlap = theory.gaussian_relu_overlap(u, scale * theory.norm_i, theory.norm_j)
    assert sp.simplify(overlap - scale * theory.gaussian_relu_overlap()) == 0


@pytest.mark.parametrize(("width", "target"), [(2, 2), (2, 3), (3, 1)])
def test_eq158_is_the_l2_projection(width: int, target: int) -> None:
    gram, cross, target_gram = theory.feature_grams(width, target)
    readout = theory.readout_vector(target)
    m, m_star = sp.Integer(width), sp.Integer(target)
    kernel, _, cross_kernel = theory.kernel_matrices(
        gram, cross, target_gram, m, m_star
    )
    eq158 = theory.projection_norm_eq158(kernel, cross_kernel, readout, m_star)
    normal = theory.projection_norm_normal_equations(gram, cross, readout, m_star)
    assert sp.cancel(eq158 - normal) == 0


def test_eq159_is_the_residual_norm() -> None:
    gram, cross, target_gram = theory.feature_grams(2, 2)
    readout = theory.readout_vector(2)
    m, m_star = theory.width, theory.target_width
    kernel, target_kernel, cross_kernel = theory.kernel_matrices(
        gram, cross, target_gram, m, m_star
    )
    eq159 = theory.complement_norm_eq159(
        kernel, cross_kernel, target_kernel, readout, m_star
    )
    direct = theory.residual_norm_direct(gram, cross, target_gram, readout, m_star)
    assert sp.cancel(eq159 - direct) == 0


def test_projection_of_a_feature_of_the_model_is_itself() -> None:
    # Target = model feature 1 (H = first column of G): nothing is left outside.
    gram, _, _ = theory.feature_grams(2, 1)
    cross = gram[:, 0]
    target_gram = sp.Matrix([[gram[0, 0]]])
    readout = sp.Matrix([sp.Integer(1)])
    direct = theory.residual_norm_direct(gram, cross, target_gram, readout, 1)
    assert sp.cancel(direct) == 0


def test_ablated_source_readout_matches_eq19() -> None:
    readout = theory.readout_vector(3)
    kept = sp.Matrix([1, 0, 1])
    mu = sp.Rational(1, 3)
    rescaled = theory.ablated_source_readout(readout, kept, mu)
    # (1/m_*) sum_i c~_i sigma_i vs (1/((1-mu) m_*)) sum_{i in A^c} c_i sigma_i.
    features = sp.Matrix(sp.symbols("f1:4", real=True))
    as_target = (rescaled.T * features)[0, 0] / 3
    eq19 = (readout[0] * features[0] + readout[2] * features[2]) / ((1 - mu) * 3)
    assert sp.expand(as_target - eq19) == 0


def test_mercer_eigenfunction_on_a_diagonal_kernel() -> None:
    lam = sp.Symbol("l", positive=True)
    kernel = sp.diag(lam, 3 * lam)
    psi = theory.mercer_eigenfunction_coefficients(sp.Matrix([0, 1]), 3 * lam, 2)
    image = theory.integral_operator_coefficients(kernel, psi)
    assert sp.simplify(image - 3 * lam * psi) == sp.zeros(2, 1)
    assert sp.simplify(theory.l2_norm_coefficients(kernel, psi, 2)) == 1


def test_rkhs_norm_eq151_with_squared_eigenvalues() -> None:
    # f = psi_1 on a diagonal kernel: c = (1, 0); ||psi_1||_k^2 = 1/eigenvalue.
    eigenvalue = sp.Rational(1, 4)
    value = theory.rkhs_norm_eq151(sp.Matrix([1, 0]), sp.Matrix([eigenvalue, 1]))
    kernel = sp.diag(eigenvalue, 1)
    psi = theory.mercer_eigenfunction_coefficients(sp.Matrix([1, 0]), eigenvalue, 2)
    assert theory.l2_norm_coefficients(kernel, psi, 2) == 1
    assert value == theory.rkhs_norm_coefficients(psi, 2) == 4


def test_displays_use_only_glyphed_symbols() -> None:
    for display in (
        theory.display_eq153,
        theory.display_eq153_any_norm,
        theory.display_eq158,
        theory.display_eq159,
    ):
        assert display().free_symbols <= set(theory.GLYPHS)
