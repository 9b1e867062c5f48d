r"""Appendix B of features-are-fate step by step, and its exact finite-n forms.

Appendix B proves the deep-linear results of "Features are fate" (Tahir,
Ganguli, Rotskoff 2024) through a chain of intermediate results; this module
states each as the paper prints it, as SymPy expressions:

* the conservation law (35) of gradient flow on a deep linear network
  :math:`f(x) = x^\top W_1\cdots W_L`;
* the Stieltjes transform (101)-(102) of the Marchenko-Pastur law of
  :math:`C = \frac1d XX^\top` (:math:`X\in\mathbb{R}^{n\times d}` standard
  Gaussian, :math:`\gamma = n/d < 1`);
* the linear-transfer coefficient and its moments (108)-(115) and the integral
  :math:`E\,\|z\|^{-2} = 1/(n-2)` (116)-(120);
* ridge linear transfer (121)-(141): the risk (128) through the integrals
  (129)-(130) and their saddle-point limits (131)-(140);
* the fine-tuning endpoint (142)-(144).

Beyond the paper, the exact finite-size risks its limits come from: the
min-norm least-squares risk (the finite-:math:`n, d` form of eq. (10)) and the
ridge-transfer risk (128) with :math:`I_1, I_2` exact expectations over
:math:`\|z\|_2^2\sim\chi^2_n`, expanded in :math:`1/n` through the central
moments of :math:`\chi^2_n/n`.

Notation. Risk is the paper's generalization error (8),
:math:`\mathcal R = E_x[(\hat\beta^\top x - \beta_t^\top x)^2]
= \|\hat\beta - \beta_t\|_2^2` for :math:`x\sim\mathcal N(0, I_d)`, with
:math:`\|\beta_s\|_2 = \|\beta_t\|_2 = 1`, :math:`\beta_s^\top\beta_t=\cos\theta`
and label noise :math:`\epsilon\sim\mathcal N(0,\sigma^2 I_n)`; the risks below
are its expectation :math:`E_{X,\epsilon}`. :math:`S_{n-1} =
2\pi^{n/2}/\Gamma(n/2)` is the area of the unit sphere in
:math:`\mathbb{R}^n`. The Stieltjes transform is the paper's (and Potters &
Bouchaud's) resolvent convention :math:`g_C(z) = \frac1n E\operatorname{tr}
(zI - C)^{-1} = \int\rho(x)\,dx/(z - x)`, which decays like :math:`+1/z` and
has :math:`\operatorname{Im} g < 0` for :math:`\operatorname{Im} z > 0` (the
other common convention :math:`s(z) = \int\rho/(x-z) = -g(z)` decays like
:math:`-1/z`).

Every object here is a SymPy expression; nothing is evaluated numerically.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import sympy as sp

from implicit_bias.theory.transfer_symbols import (
    n as n,
    d as d,
    gamma_ratio as gamma_ratio,
    lam as lam,
    theta as theta,
    sigma as sigma,
    z as z,
    x as x,
    r as r,
    u as u,
    t as t,
    m as m,
    alpha as alpha,
    inverse_norm_atom as inverse_norm_atom,
    mean_b as mean_b,
    mean_b_squared as mean_b_squared,
    i1_shifted as i1_shifted,
    i1_plain as i1_plain,
    i2_plain as i2_plain,
    norm_a as norm_a,
    norm_b as norm_b,
    scale_c as scale_c,
    depth as depth,
    risk_scratch as risk_scratch,
    risk_linear as risk_linear,
    risk_ridge as risk_ridge,
    finetune_excess as finetune_excess,
    resolvent as resolvent,
    balance_rate as balance_rate,
    GLYPHS,
)

__all__ = [
    "GLYPHS",
    "balance_matrix",
    "chi_square_density",
    "chi_square_expectation_expansion",
    "conditional_coefficient_moments",
    "finetune_endpoint_eq142",
    "finetune_risk_limit_corrected",
    "finetune_scale_equation",
    "finetune_scale_limit",
    "flow_time_derivative",
    "gaussian_expectation",
    "gradient_flow_velocities",
    "inverse_norm_eq116",
    "inverse_norm_eq117",
    "inverse_norm_eq117_corrected",
    "inverse_norm_eq118",
    "inverse_norm_eq119",
    "inverse_norm_eq120",
    "inverse_trace_finite",
    "inverse_trace_limit",
    "laplace_exponent",
    "laplace_prefactor",
    "laplace_relative_correction",
    "linear_transfer_risk_eq111",
    "linear_transfer_risk_finite",
    "marchenko_pastur_density",
    "marchenko_pastur_edges",
    "normalized_chi_square_central_moment",
    "product",
    "ridge_coefficient_eq126",
    "ridge_i1_eq131",
    "ridge_i1_eq132",
    "ridge_i1_eq135",
    "ridge_i1_eq136",
    "ridge_i1_eq137",
    "ridge_i1_eq138",
    "ridge_i1_shifted_eq139",
    "ridge_i2_eq140",
    "ridge_integrand_radial",
    "ridge_readout_eq121",
    "ridge_risk_eq128",
    "ridge_risk_eq141",
    "ridge_risk_expansion",
    "ridge_summands",
    "scratch_risk_finite",
    "scratch_risk_finite_limit",
    "scratch_risk_finite_overparameterized",
    "scratch_risk_finite_underparameterized",
    "sphere_area",
    "sphere_area_stirling",
    "squared_loss",
    "stieltjes_eq101",
    "stieltjes_eq101_single_root",
    "stieltjes_eq102",
    "stieltjes_quadratic",
    "symbol_matrix",
]

# --- eq. (35): the conservation law


def symbol_matrix(name: str, rows: int, cols: int) -> sp.Matrix:
    r"""A ``rows`` x ``cols`` matrix of real symbols ``{name}_ij``."""
    return sp.Matrix(
        rows, cols, lambda i, j: sp.Symbol(f"{name}_{i + 1}{j + 1}", real=True)
    )


def product(matrices: Sequence[sp.Matrix], width: int) -> sp.Matrix:
    r"""The ordered product :math:`W_1 W_2\cdots W_k` (the identity when empty)."""
    result = sp.eye(width)
    for matrix in matrices:
        result = result * matrix
    return result


def squared_loss(
    weights: Sequence[sp.Matrix], data: sp.Matrix, y: sp.Matrix
) -> sp.Expr:
    r"""The empirical loss (5), :math:`\frac{1}{2n}\|y - XW_1\cdots W_L\|_2^2`."""
    residual = y - data * product(weights, data.cols)
    return (residual.T * residual)[0, 0] / (2 * data.rows)


def gradient_flow_velocities(
    weights: Sequence[sp.Matrix], loss: sp.Expr
) -> list[sp.Matrix]:
    r"""Gradient flow (6): :math:`\dot W_l = -\nabla_{W_l}\mathcal L`, entrywise."""
    return [w.applyfunc(lambda entry: -sp.diff(loss, entry)) for w in weights]


def balance_matrix(weights: Sequence[sp.Matrix], layer: int) -> sp.Matrix:
    r"""Eq. (35): :math:`D_l = W_l^\top W_l - W_{l+1}W_{l+1}^\top` (``layer`` from 1).

    Eq. (35) of features-are-fate.
    """
    w_l, w_next = weights[layer - 1], weights[layer]
    return w_l.T * w_l - w_next * w_next.T


def flow_time_derivative(
    matrix: sp.Matrix,
    weights: Sequence[sp.Matrix],
    velocities: Sequence[sp.Matrix],
) -> sp.Matrix:
    r""":math:`\frac{d}{dt}M = \sum_{l,ij} \frac{\partial M}{\partial (W_l)_{ij}}
    (\dot W_l)_{ij}` along the flow given by ``velocities``."""
    pairs = [
        (entry, rate)
        for w, v in zip(weights, velocities, strict=True)
        for entry, rate in zip(w, v, strict=True)
    ]
    return matrix.applyfunc(
        lambda element: sp.expand(sum(sp.diff(element, e) * v for e, v in pairs))
    )


# --- eqs. (98)-(102): the Marchenko-Pastur law and its Stieltjes transform


def marchenko_pastur_edges() -> tuple[sp.Expr, sp.Expr]:
    r"""The edges :math:`\lambda_\pm = (1\pm\sqrt\gamma)^2` of the MP law of
    :math:`C = \frac1d XX^\top`."""
    root = sp.sqrt(gamma_ratio)
    return (1 - root) ** 2, (1 + root) ** 2


def marchenko_pastur_density() -> sp.Expr:
    r"""The MP density of :math:`C = \frac1d XX^\top`, :math:`\gamma = n/d\le 1`.

    .. math:: \rho(x) = \frac{\sqrt{(\lambda_+ - x)(x - \lambda_-)}}{2\pi\gamma x},
              \quad x\in[\lambda_-, \lambda_+]

    (no atom at 0 for :math:`\gamma\le 1`; Potters & Bouchaud (2020) Ch. 4).
    """
    lower, upper = marchenko_pastur_edges()
    return sp.sqrt((upper - x) * (x - lower)) / (2 * sp.pi * gamma_ratio * x)


def stieltjes_eq101() -> sp.Expr:
    r"""Eq. (101) as printed: the resolvent of the MP law, two separate roots.

    .. math:: g_C(z) = \frac{z - (1-\gamma) - \sqrt{z - (1+\sqrt\gamma)^2}
              \sqrt{z - (1-\sqrt\gamma)^2}}{2\gamma z}

    With principal square roots, the product of the two roots has its cut on
    :math:`[\lambda_-, \lambda_+]` only and behaves like :math:`z` at infinity:
    this is the branch of a Stieltjes transform. Eq. (101) of features-are-fate.
    """
    lower, upper = marchenko_pastur_edges()
    numerator = z - (1 - gamma_ratio) - sp.sqrt(z - upper) * sp.sqrt(z - lower)
    return numerator / (2 * gamma_ratio * z)


def stieltjes_eq101_single_root() -> sp.Expr:
    r"""Eq. (101) with one root, :math:`\sqrt{(z-\lambda_+)(z-\lambda_-)}`.

    Not the paper's form: the other branch on :math:`z < \lambda_-`, shown to
    make the point that the two-root form is the one that gives (102).
    """
    lower, upper = marchenko_pastur_edges()
    numerator = z - (1 - gamma_ratio) - sp.sqrt((z - upper) * (z - lower))
    return numerator / (2 * gamma_ratio * z)


def stieltjes_quadratic(g: sp.Expr) -> sp.Expr:
    r"""The self-consistent equation of the MP resolvent,
    :math:`\gamma z g^2 - (z - 1 + \gamma) g + 1` (zero at :math:`g = g_C(z)`)."""
    return gamma_ratio * z * g**2 - (z - 1 + gamma_ratio) * g + 1


def stieltjes_eq102() -> sp.Expr:
    r"""Eq. (102): :math:`\lim_{z\to 0} g_C(z) = -\frac{1}{1-\gamma}`."""
    return -1 / (1 - gamma_ratio)


def inverse_trace_limit() -> sp.Expr:
    r"""Eq. (100) with (102): :math:`E\operatorname{tr}((X^+)^\top X^+)\to
    -\gamma\lim_{z\to0} g_C(z) = \frac{\gamma}{1-\gamma}` (:math:`\gamma < 1`)."""
    return -gamma_ratio * stieltjes_eq102()


def inverse_trace_finite(samples: sp.Expr = n, dimension: sp.Expr = d) -> sp.Expr:
    r"""Exact :math:`E\operatorname{tr}((X^+)^\top X^+)` for Gaussian :math:`X`.

    .. math:: E\operatorname{tr}((X^+)^\top X^+) = \begin{cases}
              \frac{n}{d - n - 1} & n < d - 1\\ \frac{d}{n - d - 1} & n > d + 1
              \end{cases}

    from the inverse-Wishart mean :math:`E W^{-1} = I/(k - p - 1)` of
    :math:`W\sim\mathcal W_p(k, I)`: :math:`XX^\top\sim\mathcal W_n(d, I)` when
    :math:`n<d`, :math:`X^\top X\sim\mathcal W_d(n, I)` when :math:`n > d`
    (infinite for :math:`|n-d|\le 1`).
    """
    return sp.Piecewise(
        (samples / (dimension - samples - 1), samples < dimension - 1),
        (dimension / (samples - dimension - 1), samples > dimension + 1),
        (sp.oo, True),
    )


def scratch_risk_finite_overparameterized() -> sp.Expr:
    r""":func:`scratch_risk_finite` for :math:`n < d-1`:
    :math:`1 - \frac nd + \frac{\sigma^2 n}{d-n-1}`."""
    return 1 - n / d + sigma**2 * n / (d - n - 1)


def scratch_risk_finite_underparameterized() -> sp.Expr:
    r""":func:`scratch_risk_finite` for :math:`n > d+1`:
    :math:`\frac{\sigma^2 d}{n-d-1}`."""
    return sigma**2 * d / (n - d - 1)


def scratch_risk_finite() -> sp.Expr:
    r"""Exact expected risk of the min-norm least-squares fit (scratch training).

    Eq. (95), :math:`E\mathcal R = 1 - E\|P_{row(X)}\beta_t\|^2 + \sigma^2
    E\operatorname{tr}((X^+)^\top X^+)`, at finite :math:`n, d`:
    :math:`E\|P_{row(X)}\beta_t\|_2^2 = \min(n, d)/d` exactly (the row space is
    uniform on the Grassmannian), and :math:`E\operatorname{tr}` from
    :func:`inverse_trace_finite`:

    .. math:: E_{X,\epsilon}\mathcal R_{sc} = \begin{cases}
              1 - \frac nd + \frac{\sigma^2 n}{d-n-1} & n < d - 1\\
              \frac{\sigma^2 d}{n - d - 1} & n > d + 1\end{cases}

    (the finite form of eq. (10) of features-are-fate). For
    :math:`|n-d|\le1` it is infinite when :math:`\sigma > 0`, and the
    noiseless :math:`1 - n/d` (:math:`n<d`) or 0 (:math:`n\ge d`) when
    :math:`\sigma = 0`.
    """
    return sp.Piecewise(
        (scratch_risk_finite_overparameterized(), n < d - 1),
        (scratch_risk_finite_underparameterized(), n > d + 1),
        (1 - n / d, sp.Eq(sigma, 0) & (n < d)),
        (0, sp.Eq(sigma, 0)),
        (sp.oo, True),
    )


def scratch_risk_finite_limit() -> sp.Expr:
    r""":func:`scratch_risk_finite` with :math:`n = \gamma d`, :math:`d\to\infty`
    (the branch :math:`\gamma < 1`): :math:`1-\gamma+\sigma^2\gamma/(1-\gamma)`."""
    finite = scratch_risk_finite_overparameterized().subs(n, gamma_ratio * d)
    return sp.limit(finite, d, sp.oo)


# --- eqs. (108)-(120): linear transfer


def gaussian_expectation(
    polynomial: sp.Expr, variances: dict[sp.Symbol, sp.Expr]
) -> sp.Expr:
    r""":math:`E[p]` of a polynomial in independent centred Gaussians.

    Each monomial's expectation is the product of the moments
    :math:`E g^k = \mathrm{var}^{k/2}(k-1)!!` (even :math:`k`), 0 (odd :math:`k`).
    """
    variables = list(variances)
    expanded = sp.Poly(sp.expand(polynomial), *variables)
    total = sp.Integer(0)
    for powers, coefficient in expanded.terms():
        moment = sp.Integer(1)
        for variable, power in zip(variables, powers, strict=True):
            if power % 2:
                moment = sp.Integer(0)
                break
            moment *= variances[variable] ** (power // 2) * sp.factorial2(power - 1)
        total += coefficient * moment
    return total


def conditional_coefficient_moments(
    samples: int = 3,
) -> tuple[sp.Expr, sp.Expr, sp.Expr, list[sp.Symbol]]:
    r"""The coefficient (108)-(109) and its first two moments over :math:`w,\epsilon`.

    With :math:`z = X\beta_s`, :math:`w = X\nu` and
    :math:`y = X\beta_t+\epsilon = z\cos\theta + w\sin\theta + \epsilon`,
    :math:`b = z^\top y/\|z\|_2^2` (eq. (108)). On an explicit instance of
    ``samples`` coordinates, :math:`w_i\sim\mathcal N(0,1)` and
    :math:`\epsilon_i\sim\mathcal N(0,\sigma^2)` are independent of :math:`z`,
    which is held fixed; the moments are exact Gaussian expectations.

    Returns:
      :math:`b`, :math:`E[b\mid z]`, :math:`E[b^2\mid z]` and the symbols of
      :math:`z`.
    """
    coordinates = [sp.Symbol(f"z_{i + 1}", real=True) for i in range(samples)]
    w = [sp.Symbol(f"w_{i + 1}", real=True) for i in range(samples)]
    noise = [sp.Symbol(f"epsilon_{i + 1}", real=True) for i in range(samples)]
    variances = {**{wi: sp.Integer(1) for wi in w}, **{e: sigma**2 for e in noise}}
    y = [
        zi * sp.cos(theta) + wi * sp.sin(theta) + ei
        for zi, wi, ei in zip(coordinates, w, noise, strict=True)
    ]
    norm_squared = sum(zi**2 for zi in coordinates)
    numerator = sum(zi * yi for zi, yi in zip(coordinates, y, strict=True))
    b = numerator / norm_squared
    first = gaussian_expectation(numerator, variances) / norm_squared
    second = gaussian_expectation(numerator**2, variances) / norm_squared**2
    return b, first, second, coordinates


def linear_transfer_risk_eq111() -> sp.Expr:
    r"""Eq. (111): :math:`E\mathcal R_{lt} = 1 + E\,b^2 - 2\cos\theta\,E\,b`."""
    return 1 + mean_b_squared - 2 * sp.cos(theta) * mean_b


def sphere_area(dimension: sp.Expr = n) -> sp.Expr:
    r""":math:`S_{n-1} = 2\pi^{n/2}/\Gamma(n/2)`, the area of the unit sphere in
    :math:`\mathbb R^n`."""
    return 2 * sp.pi ** (dimension / 2) / sp.gamma(dimension / 2)


def chi_square_density(value: sp.Expr = x, dof: sp.Expr = n) -> sp.Expr:
    r"""The :math:`\chi^2_n` density, the law of :math:`\|z\|_2^2`,
    :math:`z\sim\mathcal N(0, I_n)`."""
    return (
        value ** (dof / 2 - 1)
        * sp.exp(-value / 2)
        / (2 ** (dof / 2) * sp.gamma(dof / 2))
    )


def inverse_norm_eq116() -> sp.Expr:
    r"""Eq. (116) as the :math:`\chi^2_n` expectation :math:`E[1/\|z\|_2^2]`.

    The :math:`n`-dimensional Gaussian integral of eq. (116) depends on
    :math:`z` only through :math:`\|z\|_2^2\sim\chi^2_n`.
    """
    return sp.Integral(chi_square_density() / x, (x, 0, sp.oo))


def inverse_norm_eq117() -> sp.Expr:
    r"""Eq. (117) as printed:
    :math:`\frac{S_{n-1}}{(2\pi)^{n/2}}\int_0^\infty r^{n-3}e^{r^2/2}dr`."""
    return (
        sphere_area()
        / (2 * sp.pi) ** (n / 2)
        * sp.Integral(r ** (n - 3) * sp.exp(r**2 / 2), (r, 0, sp.oo))
    )


def inverse_norm_eq117_corrected() -> sp.Expr:
    r"""Eq. (117) with the Gaussian's sign:
    :math:`\frac{S_{n-1}}{(2\pi)^{n/2}}\int_0^\infty r^{n-3}e^{-r^2/2}dr`."""
    return (
        sphere_area()
        / (2 * sp.pi) ** (n / 2)
        * sp.Integral(r ** (n - 3) * sp.exp(-(r**2) / 2), (r, 0, sp.oo))
    )


def inverse_norm_eq118() -> sp.Expr:
    r"""Eq. (118): :math:`\frac{S_{n-1}}{4\pi^{n/2}}\int_0^\infty e^{-t}t^{n/2-2}dt`."""
    return (
        sphere_area()
        / (4 * sp.pi ** (n / 2))
        * sp.Integral(sp.exp(-t) * t ** (n / 2 - 2), (t, 0, sp.oo))
    )


def inverse_norm_eq119() -> sp.Expr:
    r"""Eq. (119): :math:`\frac{S_{n-1}}{4\pi^{n/2}}\Gamma(\frac n2 - 1)`."""
    return sphere_area() / (4 * sp.pi ** (n / 2)) * sp.gamma(n / 2 - 1)


def inverse_norm_eq120() -> sp.Expr:
    r"""Eq. (120): :math:`E\,\|z\|_2^{-2} = \frac{1}{n-2}` (:math:`n > 2`)."""
    return 1 / (n - 2)


def linear_transfer_risk_finite() -> sp.Expr:
    r"""Eq. (111) with (113), (115) and (120): exact for every :math:`n\ge3`.

    .. math:: E\mathcal R_{lt} = 1 + \cos^2\theta + \frac{\sin^2\theta +
              \sigma^2}{n-2} - 2\cos^2\theta
    """
    second = sp.cos(theta) ** 2 + (sp.sin(theta) ** 2 + sigma**2) * inverse_norm_eq120()
    return linear_transfer_risk_eq111().subs(
        {mean_b: sp.cos(theta), mean_b_squared: second}
    )


# --- eqs. (121)-(141): ridge linear transfer


def ridge_readout_eq121(features: sp.Matrix, y: sp.Matrix, ridge: sp.Expr) -> sp.Matrix:
    r"""Eq. (121): :math:`\hat W_L = (\Phi^\top\Phi+n\lambda I_d)^{-1}\Phi^\top y_t`."""
    size = features.cols
    return (features.T * features + features.rows * ridge * sp.eye(size)).inv() * (
        features.T * y
    )


def ridge_coefficient_eq126(
    projected: sp.Matrix, y: sp.Matrix, ridge: sp.Expr
) -> sp.Expr:
    r"""Eq. (126): :math:`\hat\beta = \frac{(X\beta_s)^\top y_t}{\|X\beta_s\|_2^2 +
    n\lambda}\beta_s`; returns the coefficient of :math:`\beta_s`."""
    return (projected.T * y)[0, 0] / (
        (projected.T * projected)[0, 0] + projected.rows * ridge
    )


def ridge_risk_eq128() -> sp.Expr:
    r"""Eq. (128): :math:`1 + \cos^2\theta\,I_1(n+2,\lambda) + (\sin^2\theta +
    \sigma^2) I_1(n,\lambda) - 2\cos^2\theta\,I_2(n,\lambda)`."""
    return (
        1
        + sp.cos(theta) ** 2 * i1_shifted
        + (sp.sin(theta) ** 2 + sigma**2) * i1_plain
        - 2 * sp.cos(theta) ** 2 * i2_plain
    )


def ridge_summands(radius_squared: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    r"""The integrands of :math:`I_1(n+2), I_1(n), I_2(n)` as functions of
    :math:`\|z\|_2^2` (eqs. (129)-(130) with :math:`m = n+2, n, n`)."""
    denominator = radius_squared + n * lam
    return (
        radius_squared**2 / denominator**2,
        radius_squared / denominator**2,
        radius_squared / denominator,
    )


def ridge_integrand_radial(power: sp.Expr, squared: bool) -> sp.Expr:
    r"""Eqs. (129)-(130) in spherical coordinates:
    :math:`\frac{S_{n-1}}{(2\pi)^{n/2}}\frac{r^{m+1}e^{-r^2/2}}{(r^2+n\lambda)^k}`,
    :math:`k = 2` for :math:`I_1` (``squared``) and 1 for :math:`I_2`."""
    exponent = 2 if squared else 1
    return (
        sphere_area()
        / (2 * sp.pi) ** (n / 2)
        * r ** (power + 1)
        * sp.exp(-(r**2) / 2)
        / (r**2 + n * lam) ** exponent
    )


def ridge_i1_eq131() -> sp.Expr:
    r"""Eq. (131)'s integrand (:math:`u = r^2/2`, :math:`m = n`, angular factor
    dropped): :math:`2^{n/2}u^{n/2}e^{-u}/(2u+n\lambda)^2`."""
    return 2 ** (n / 2) * u ** (n / 2) * sp.exp(-u) / (2 * u + n * lam) ** 2


def ridge_i1_eq132() -> sp.Expr:
    r"""Eq. (132)'s integrand (:math:`t = u/n`):
    :math:`n(2n)^{n/2}t^{n/2}e^{-nt}/(2nt+n\lambda)^2`."""
    return (
        n
        * (2 * n) ** (n / 2)
        * t ** (n / 2)
        * sp.exp(-n * t)
        / (2 * n * t + n * lam) ** 2
    )


def laplace_exponent() -> sp.Expr:
    r"""Eq. (133): :math:`f(t) = \frac12\log t - t`, the exponent in :math:`e^{nf}`."""
    return sp.log(t) / 2 - t


def laplace_prefactor() -> sp.Expr:
    r"""Eq. (133): :math:`g(t) = (2nt + n\lambda)^{-2}`."""
    return 1 / (2 * n * t + n * lam) ** 2


def laplace_relative_correction() -> sp.Expr:
    r"""The :math:`1/n` coefficient :math:`a` of Laplace's method for (132)-(134).

    :math:`\int g\,e^{nf}dt = \sqrt{2\pi/(n|f_2|)}\,e^{nf}g\,(1 + a/n +
    O(n^{-2}))` at the maximum :math:`t_0` of :math:`f`, with :math:`f_k`,
    :math:`g_k` the k-th derivatives at :math:`t_0`,

    .. math:: a\,g_0 = -\frac{g_2}{2f_2} + \frac{g_1f_3}{2f_2^2}
              + \frac{g_0 f_4}{8f_2^2} - \frac{5 g_0 f_3^2}{24 f_2^3}

    (the next term of the saddle-point expansion). The :math:`n`-free part of
    :math:`g` of eq. (133), :math:`(2t+\lambda)^{-2}`, is used (the factor
    :math:`n^{-2}` cancels); at :math:`t_0 = 1/2`,
    :math:`a = \frac{6}{(1+\lambda)^2} - \frac{4}{1+\lambda} + \frac16`.
    """
    f = laplace_exponent()
    g = sp.simplify(laplace_prefactor() * n**2)
    critical = sp.Rational(1, 2)

    def at(expression: sp.Expr, order: int) -> sp.Expr:
        return sp.diff(expression, t, order).subs(t, critical)

    f2, f3, f4 = at(f, 2), at(f, 3), at(f, 4)
    g0, g1, g2 = at(g, 0), at(g, 1), at(g, 2)
    correction = (
        -g2 / (2 * f2)
        + g1 * f3 / (2 * f2**2)
        + g0 * f4 / (8 * f2**2)
        - 5 * g0 * f3**2 / (24 * f2**3)
    )
    return sp.simplify(correction / g0)


def ridge_i1_eq135() -> sp.Expr:
    r"""Eq. (135): :math:`\frac{\sqrt{\pi n}\,n^{n/2}e^{-n/2}}{(n+n\lambda)^2}`
    (the saddle-point value, angular factor dropped)."""
    return sp.sqrt(sp.pi * n) * n ** (n / 2) * sp.exp(-n / 2) / (n + n * lam) ** 2


def ridge_i1_eq136() -> sp.Expr:
    r"""Eq. (136): :math:`I_1(n,\lambda) = \frac{S_{n-1}}{(2\pi)^{n/2}}\times` (135).

    Transcribed as printed,

    .. math:: I_1(n,\lambda) = \frac{S_{n-1}}{(2\pi)^{n/2}}
              \frac{\sqrt{\pi n}\,n^{n/2}e^{-n/2}}{(n+n\lambda)^2},

    not built from :func:`ridge_i1_eq135`.
    """
    saddle = sp.sqrt(sp.pi * n) * n ** (n / 2) * sp.exp(-n / 2) / (n + n * lam) ** 2
    return sphere_area() / (2 * sp.pi) ** (n / 2) * saddle


def sphere_area_stirling() -> sp.Expr:
    r"""Stirling's form of :math:`S_{n-1}` used in eq. (137):
    :math:`\frac{n\pi^{n/2}}{\sqrt{\pi n}}\left(\frac n2\right)^{-n/2}e^{n/2}`."""
    return (
        n * sp.pi ** (n / 2) / sp.sqrt(sp.pi * n) * (n / 2) ** (-n / 2) * sp.exp(n / 2)
    )


def ridge_i1_eq137() -> sp.Expr:
    r"""Eq. (137) as printed: Stirling's form of the angular factor times (135),

    .. math:: \frac{n\pi^{n/2}}{\sqrt{\pi n}}\left(\frac n2\right)^{-n/2}e^{n/2}
              \frac{\sqrt{\pi n}\,n^{n/2}e^{-n/2}}{(n+n\lambda)^2}
    """
    # Transcribed as printed, not built from sphere_area_stirling and eq. (135).
    return (
        n
        * sp.pi ** (n / 2)
        / sp.sqrt(sp.pi * n)
        * (n / 2) ** (-n / 2)
        * sp.exp(n / 2)
        * sp.sqrt(sp.pi * n)
        * n ** (n / 2)
        * sp.exp(-n / 2)
        / (n + n * lam) ** 2
    )


def ridge_i1_eq138() -> sp.Expr:
    r"""Eq. (138): :math:`I_1(n,\lambda)\approx\frac{1}{n(1+\lambda)^2}`."""
    return 1 / (n * (1 + lam) ** 2)


def ridge_i1_shifted_eq139() -> sp.Expr:
    r"""Eq. (139): :math:`I_1(n+2,\lambda)\to\frac{1}{(1+\lambda)^2}`."""
    return 1 / (1 + lam) ** 2


def ridge_i2_eq140() -> sp.Expr:
    r"""Eq. (140): :math:`I_2(n,\lambda)\to\frac{1}{1+\lambda}`."""
    return 1 / (1 + lam)


def ridge_risk_eq141() -> sp.Expr:
    r"""Eq. (141): :math:`\lim_n E\mathcal R^\lambda_{lt} = 1 - \cos^2\theta
    \frac{1+2\lambda}{(1+\lambda)^2}`."""
    return 1 - sp.cos(theta) ** 2 * (1 + 2 * lam) / (1 + lam) ** 2


# --- the 1/n expansion of chi-square expectations


@functools.cache
def normalized_chi_square_central_moment(order: int) -> sp.Expr:
    r"""The central moment :math:`E(x-1)^k` of :math:`x = \chi^2_n/n`, exact in n.

    From the cumulants :math:`\kappa_j = 2^{j-1}(j-1)!/n^{j-1}` of :math:`x`
    (those of :math:`\chi^2_n` are :math:`n2^{j-1}(j-1)!`) by the
    moment-cumulant recursion; :math:`\kappa_1` is dropped (centred).
    """
    s = sp.Symbol("s")
    generating = sum(
        2 ** (j - 1) * sp.factorial(j - 1) / n ** (j - 1) * s**j / sp.factorial(j)
        for j in range(2, order + 1)
    )
    series = sp.series(sp.exp(generating), s, 0, order + 1).removeO()
    return sp.expand(series.coeff(s, order) * sp.factorial(order))


def chi_square_expectation_expansion(
    function: Callable[[sp.Expr], sp.Expr], order: int
) -> list[sp.Expr]:
    r"""Coefficients of :math:`E\,h(\chi^2_n/n) = \sum_k c_k n^{-k} + O(n^{-order-1})`.

    .. math:: E\,h(x) = \sum_k \frac{h^{(k)}(1)}{k!} E(x-1)^k, \qquad
              E(x-1)^k = O(n^{-\lceil k/2\rceil}),

    truncated at :math:`k = 2\,\mathrm{order}` and then at
    :math:`n^{-\mathrm{order}}`. An asymptotic expansion for :math:`h` smooth
    at 1 and integrable against :math:`\chi^2_n` (the tails are exponentially
    small in :math:`n`). E.g. :math:`h = 1/x` gives
    :math:`n/(n-2) = 1 + 2/n + 4/n^2 + \dots`

    Returns:
      :math:`[c_0, \dots, c_{order}]`.
    """
    variable = sp.Symbol("x_chi", positive=True)
    h = function(variable)
    inverse = sp.Symbol("epsilon_n", positive=True)
    total = sp.Integer(0)
    for k in range(2 * order + 1):
        derivative = sp.diff(h, variable, k).subs(variable, 1)
        moment = 1 if k == 0 else normalized_chi_square_central_moment(k)
        total += derivative * sp.sympify(moment).subs(n, 1 / inverse) / sp.factorial(k)
    total = sp.expand(total)
    return [sp.factor(total.coeff(inverse, k)) for k in range(order + 1)]


def ridge_risk_expansion(order: int = 2) -> list[sp.Expr]:
    r"""Eq. (128) with exact :math:`I_1, I_2`: coefficients of its 1/n expansion.

    :math:`I_1(n+2) = E\,\frac{x^2}{(x+\lambda)^2}`,
    :math:`I_1(n) = \frac1n E\,\frac{x}{(x+\lambda)^2}`,
    :math:`I_2(n) = E\,\frac{x}{x+\lambda}` with :math:`x = \|z\|_2^2/n`, so
    :math:`E\mathcal R^\lambda_{lt} = \sum_k c_k n^{-k} + O(n^{-order-1})`;
    :math:`c_0` is eq. (141) and :math:`c_1\ne0` gives the rate :math:`1/n`.

    Returns:
      :math:`[c_0, \dots, c_{order}]`.
    """
    shifted = chi_square_expectation_expansion(lambda v: v**2 / (v + lam) ** 2, order)
    plain = [
        sp.Integer(0),
        *chi_square_expectation_expansion(lambda v: v / (v + lam) ** 2, order - 1),
    ]
    second = chi_square_expectation_expansion(lambda v: v / (v + lam), order)
    risk = ridge_risk_eq128()
    coefficients = []
    for k in range(order + 1):
        values = {i1_shifted: shifted[k], i1_plain: plain[k], i2_plain: second[k]}
        term = risk.subs(values) - (1 if k else 0)
        coefficients.append(sp.factor(sp.simplify(term)))
    return coefficients


# --- eqs. (142)-(144): the fine-tuning endpoint


def finetune_endpoint_eq142(
    min_norm: sp.Matrix, projector: sp.Matrix, source: sp.Matrix
) -> sp.Matrix:
    r"""Eq. (142): :math:`\beta_{ft} = \beta_{sc} + (I - P_{row(X)})\beta_s`."""
    return min_norm + (sp.eye(projector.rows) - projector) * source


def finetune_scale_equation() -> sp.Expr:
    r"""The scale of the fine-tuned balanced network (the correction of eq. (142)).

    With :math:`D_l = 0` (eq. (35) at :math:`\alpha\to0`) the network stays
    balanced and rank one, :math:`W_1 = c\,u v^\top,\dots, W_L = c\,v'`, so
    :math:`\beta = c^L u`; the component of :math:`W_1` in :math:`\ker X` is
    frozen at its pretrained value :math:`(I-P)\beta_s v^\top`, so
    :math:`(I-P)\beta_{ft} = c^{L-1}(I-P)\beta_s`, while
    :math:`P\beta_{ft} = X^+y_t` (interpolation). Then
    :math:`\|\beta_{ft}\|_2 = c^L` gives

    .. math:: c^{2L} = \|X^+y_t\|_2^2 + c^{2L-2}\|(I-P)\beta_s\|_2^2,

    whose positive root is :math:`c = 1` only when
    :math:`\|X^+y_t\|^2 + \|(I-P)\beta_s\|^2 = 1`. Returns the left minus right.
    """
    return scale_c ** (2 * depth) - norm_a**2 - scale_c ** (2 * depth - 2) * norm_b**2


def finetune_scale_limit() -> sp.Expr:
    r"""The positive root :math:`c^2` of :func:`finetune_scale_equation` at
    :math:`L = 2` in the limit :math:`n, d\to\infty`, :math:`\gamma < 1`:
    :math:`\|X^+y\|^2\to\gamma + \sigma^2\gamma/(1-\gamma)` and
    :math:`\|(I-P)\beta_s\|^2\to 1-\gamma`, so

    .. math:: c^2 = \tfrac12\left(1-\gamma + \sqrt{(1-\gamma)^2 +
              4\gamma + 4\sigma^2\gamma/(1-\gamma)}\right)

    (:math:`(1-\gamma)^2 + 4\gamma = (1+\gamma)^2`, so :math:`c = 1` at
    :math:`\sigma = 0`).
    """
    b_squared = 1 - gamma_ratio
    discriminant = (1 + gamma_ratio) ** 2 + 4 * sigma**2 * gamma_ratio / (
        1 - gamma_ratio
    )
    return (b_squared + sp.sqrt(discriminant)) / 2


def finetune_risk_limit_corrected() -> sp.Expr:
    r"""Fine-tuning risk at :math:`L=2`, :math:`\gamma<1`, from the corrected endpoint.

    :math:`E\mathcal R_{ft} = E\mathcal R_{sc} + (1-\gamma)(c^2 - 2c\cos\theta)`
    with :math:`c` of :func:`finetune_scale_limit` (so
    :math:`\|(I-P)\beta_s\|^2\to1-\gamma`,
    :math:`\langle(I-P)\beta_t,(I-P)\beta_s\rangle\to(1-\gamma)\cos\theta`);
    at :math:`\sigma = 0`, :math:`c = 1` and this is eq. (16). Returns the
    excess over :math:`E\mathcal R_{sc}`.
    """
    c_squared = finetune_scale_limit()
    return (1 - gamma_ratio) * (c_squared - 2 * sp.sqrt(c_squared) * sp.cos(theta))
