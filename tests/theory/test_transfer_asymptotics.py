"""The SymPy statements of Appendix B of features-are-fate and their finite-n forms."""

from __future__ import annotations

from collections.abc import Callable

import mpmath
import pytest
import sympy as sp

from implicit_bias.theory import transfer_asymptotics as theory
from implicit_bias.theory import transfer_risks

n, d, gamma = theory.n, theory.d, theory.gamma_ratio
lam, theta, sigma = theory.lam, theory.theta, theory.sigma


def test_public_names_are_documented() -> None:
    for name in theory.__all__:
        obj = getattr(theory, name)
        if callable(obj):
            assert obj.__doc__, name


def test_conservation_law_at_depth_two() -> None:
    weights = [theory.symbol_matrix("a", 2, 2), theory.symbol_matrix("b", 2, 1)]
    data, y = theory.symbol_matrix("x", 3, 2), theory.symbol_matrix("y", 3, 1)
    velocities = theory.gradient_flow_velocities(
        weights, theory.squared_loss(weights, data, y)
    )
    rate = theory.flow_time_derivative(
        theory.balance_matrix(weights, 1), weights, velocities
    )
    assert rate == sp.zeros(2, 2)
    # The Frobenius norms are not conserved one by one: the law is non-trivial.
    norm_rate = theory.flow_time_derivative(
        sp.Matrix([sum(w**2 for w in weights[0])]), weights, velocities
    )
    assert norm_rate != sp.zeros(1, 1)


def test_marchenko_pastur_resolvent() -> None:
    g = theory.stieltjes_eq101()
    assert sp.expand(theory.stieltjes_quadratic(g) * theory.z) == 0
    quarter = {gamma: sp.Rational(1, 4)}
    assert sp.limit(g.subs(quarter), theory.z, 0) == sp.Rational(-4, 3)
    assert sp.limit(
        theory.stieltjes_eq101_single_root().subs(quarter), theory.z, 0
    ) in (
        sp.oo,
        -sp.oo,
    )
    density = theory.marchenko_pastur_density().subs(quarter)
    lower, upper = (e.subs(quarter) for e in theory.marchenko_pastur_edges())
    assert sp.N(sp.Integral(density, (theory.x, lower, upper)), 20) == pytest.approx(
        1, abs=1e-15
    )


def test_inverse_trace_and_scratch_limits() -> None:
    finite = theory.inverse_trace_finite(gamma * d, d).args[0][0]
    assert sp.simplify(sp.limit(finite, d, sp.oo) - gamma / (1 - gamma)) == 0
    limit = theory.scratch_risk_finite_limit()
    printed = transfer_risks.scratch_risk_overparameterized()
    assert sp.simplify(limit - printed) == 0


@pytest.mark.parametrize(
    ("samples", "dimension", "noise", "expected"),
    [
        (10, 40, sp.Rational(1, 2), 1 - sp.Rational(10, 40) + sp.Rational(10, 4 * 29)),
        (40, 10, sp.Rational(1, 2), sp.Rational(10, 4 * 29)),
        (5, 6, 1, sp.oo),
        (6, 6, 1, sp.oo),
        (7, 6, 1, sp.oo),
        (5, 6, 0, sp.Rational(1, 6)),
        (6, 6, 0, 0),
        (7, 6, 0, 0),
    ],
)
def test_scratch_risk_finite_values(
    samples: int, dimension: int, noise: sp.Expr, expected: sp.Expr
) -> None:
    value = theory.scratch_risk_finite().subs({n: samples, d: dimension, sigma: noise})
    assert value == expected


def test_normalized_chi_square_moments() -> None:
    # Central moments of chi2_n / n from those of chi2_n (2n, 8n, 12n^2 + 48n).
    assert theory.normalized_chi_square_central_moment(2) == 2 / n
    assert theory.normalized_chi_square_central_moment(3) == 8 / n**2
    assert (
        sp.expand(
            theory.normalized_chi_square_central_moment(4) - (12 / n**2 + 48 / n**3)
        )
        == 0
    )


@pytest.mark.parametrize(
    ("function", "expected"),
    [
        (lambda v: 1 / v, [1, 2, 4]),  # n/(n-2)
        (lambda v: v, [1, 0, 0]),
        (lambda v: v**2, [1, 2, 0]),  # 1 + 2/n
        (lambda v: 1 / v**2, [1, 6, 28]),  # n^2/((n-2)(n-4))
    ],
)
def test_chi_square_expansion_of_known_moments(
    function: Callable[[sp.Expr], sp.Expr], expected: list[int]
) -> None:
    assert theory.chi_square_expectation_expansion(function, 2) == expected


def test_ridge_expansion() -> None:
    coefficients = theory.ridge_risk_expansion(2)
    assert sp.simplify(coefficients[0] - theory.ridge_risk_eq141()) == 0
    # At lambda = 0 the risk is eq. (12): sin^2 + (sin^2 + sigma^2)/(n - 2).
    noise_part = sp.sin(theta) ** 2 + sigma**2
    at_zero = [sp.simplify(c.subs(lam, 0)) for c in coefficients]
    assert sp.simplify(at_zero[0] - sp.sin(theta) ** 2) == 0
    assert sp.simplify(at_zero[1] - noise_part) == 0
    assert sp.simplify(at_zero[2] - 2 * noise_part) == 0


def test_linear_transfer_chain() -> None:
    _, first, second, coordinates = theory.conditional_coefficient_moments(2)
    assert sp.simplify(first - sp.cos(theta)) == 0
    norm_squared = sum(c**2 for c in coordinates)
    expected = sp.cos(theta) ** 2 + (sp.sin(theta) ** 2 + sigma**2) / norm_squared
    assert sp.simplify(second - expected) == 0
    assert (
        sp.simplify(
            theory.linear_transfer_risk_finite() - transfer_risks.linear_transfer_risk()
        )
        == 0
    )


def test_gaussian_expectation_moments() -> None:
    w, e = sp.symbols("w e", real=True)
    variances = {w: sp.Integer(1), e: sigma**2}
    assert theory.gaussian_expectation(w**4, variances) == 3
    assert theory.gaussian_expectation(w**2 * e**2 + w * e, variances) == sigma**2
    assert theory.gaussian_expectation(e**6, variances) == 15 * sigma**6


def test_inverse_norm_chain_values() -> None:
    assert sp.simplify(sp.gammasimp(theory.inverse_norm_eq119())) == 1 / (n - 2)
    value = theory.inverse_norm_eq117_corrected().subs(n, 6).doit()
    assert sp.simplify(value) == sp.Rational(1, 4)
    assert theory.inverse_norm_eq117().subs(n, 6).doit() == sp.oo


def test_eq137_misses_the_angular_normalization() -> None:
    ratio = sp.powsimp(theory.ridge_i1_eq137() / theory.ridge_i1_eq138(), force=True)
    assert sp.simplify(ratio - (2 * sp.pi) ** (n / 2)) == 0


def test_finetune_scale() -> None:
    c_squared = theory.finetune_scale_limit()
    assert sp.simplify(c_squared.subs(sigma, 0)) == 1
    b_squared = 1 - gamma
    a_squared = gamma + sigma**2 * gamma / (1 - gamma)
    equation = theory.finetune_scale_equation().subs(
        {
            theory.depth: 2,
            theory.norm_a: sp.sqrt(a_squared),
            theory.norm_b: sp.sqrt(b_squared),
            theory.scale_c: sp.sqrt(c_squared),
        }
    )
    assert sp.simplify(sp.expand(equation)) == 0


def test_laplace_correction_coefficient() -> None:
    expected = 6 / (1 + lam) ** 2 - 4 / (1 + lam) + sp.Rational(1, 6)
    assert sp.simplify(theory.laplace_relative_correction() - expected) == 0
    # At lambda = 0 the integral is a Gamma function, n^(1-n/2) Gamma(n/2 - 1)/4,
    # whose ratio to the saddle-point value is 1 + a/n + O(n^-2): check at n = 4000.
    samples = 4000
    exact = mpmath.loggamma(samples / 2 - 1) - (samples / 2 - 1) * mpmath.log(samples)
    laplace = mpmath.log(mpmath.sqrt(mpmath.pi / samples) * 4) - samples / 2 * (
        mpmath.log(2) + 1
    )
    scaled = samples * (mpmath.exp(exact - laplace) - 1)
    a_zero = theory.laplace_relative_correction().subs(lam, 0)
    assert a_zero == sp.Rational(13, 6)
    # The O(1/n^2) term leaves |n (ratio - 1) - a| of order 1/n.
    assert abs(float(scaled) - 13 / 6) < 50 / samples


def test_eq142_endpoint_interpolates_and_keeps_the_kernel_part() -> None:
    data = theory.symbol_matrix("x", 1, 3)
    y = theory.symbol_matrix("y", 1, 1)
    source = theory.symbol_matrix("s", 3, 1)
    pseudo_inverse = data.T / (data * data.T)[0, 0]
    projector = pseudo_inverse * data
    endpoint = theory.finetune_endpoint_eq142(pseudo_inverse * y, projector, source)
    assert sp.simplify(data * endpoint - y) == sp.zeros(1, 1)
    kernel_part = (sp.eye(3) - projector) * (endpoint - source)
    assert sp.simplify(kernel_part) == sp.zeros(3, 1)
