r"""Exact finite-size transfer risks of features-are-fate, and Monte Carlo draws.

The paper states the scratch and ridge-transfer risks only as
:math:`n, d\to\infty` limits (eqs. (10), (15)); here are their exact
finite-size forms for Gaussian data, whose SymPy statements are in
:mod:`implicit_bias.theory.transfer_asymptotics`:

* :func:`scratch_risk_finite` -- the min-norm least-squares risk, from the
  inverse-Wishart mean;
* :func:`ridge_transfer_risk_finite` -- eq. (128) with :math:`I_1, I_2`
  (129)-(130) evaluated exactly as expectations over
  :math:`\|z\|_2^2\sim\chi^2_n`; float64 by Gauss-Legendre quadrature in
  :math:`s = \log(\chi^2_n/n)`, and :func:`ridge_transfer_risk_finite_mp`, the
  mpmath reference by adaptive quadrature over the :math:`\chi^2_n` density.

The endpoints training reaches (the correction of eq. (142) among them) are in
:mod:`implicit_bias.numerics.transfer_endpoints`.

"Risk" is the paper's generalization error (8) averaged over the training
set, :math:`E_{X,\epsilon}\|\hat\beta - \beta_t\|_2^2` with
:math:`x\sim\mathcal N(0, I_d)`, :math:`\|\beta_t\|_2 = \|\beta_s\|_2 = 1`,
:math:`\beta_s^\top\beta_t = \cos\theta` and label noise of variance
:math:`\sigma^2` -- the normalization of eqs. (10)-(15). Let ``n`` be
:math:`n`, ``d`` be :math:`d`, ``lam`` be :math:`\lambda`, ``theta`` be
:math:`\theta` and ``sigma`` be :math:`\sigma`.

The ``*_samples`` functions draw the risk of single training sets
(:math:`\|\hat\beta - \beta_t\|_2^2` for one draw of :math:`X, \epsilon`), for
Monte Carlo checks of the exact forms.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import mpmath
import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    as_finite_arrays,
    check_closed_interval,
    check_dps,
    check_integer,
    check_nonnegative,
    check_real,
    check_seed,
)
from implicit_bias.numerics._lazy import lazy_formula

__all__ = [
    "chi_square_ridge_integrals",
    "chi_square_ridge_integrals_mp",
    "ridge_transfer_risk_finite",
    "ridge_transfer_risk_finite_mp",
    "ridge_transfer_risk_samples",
    "scratch_risk_finite",
    "scratch_risk_samples",
]

Float64Array = NDArray[np.float64]

#: Gauss-Legendre panels of the float64 chi-square quadrature in s = log(chi2/n):
#: the left tail [s_lo, 0] (long for small n, where it decays like e^{(n/2-1)s},
#: and carrying the logistic step of x/(x+lam) at s = log(lam), of width 1) is cut
#: into equal panels of _NODES_LEFT nodes, the right tail [0, s_hi] is one panel.
#: The integrand is entire; these reach float64 accuracy for every n >= 3 and
#: lam >= 0 (tested against the mpmath reference).
_PANELS_LEFT = 8
_NODES_LEFT = 48
_NODES_RIGHT = 96
#: Points evaluated at once by the quadrature (bounds its work arrays to ~16 MB).
_CHUNK = 4096
#: The quadrature stops where the integrand is below e^-45 (~3e-20) of its peak.
_TAIL_EXPONENT = 45.0


@lazy_formula
def _ridge_risk_mp() -> Callable[..., mpmath.mpf]:
    """Eq. (128) lambdified from the theory layer.

    The reference the float64 :func:`ridge_transfer_risk_finite` (written in a
    grouped form) is tested against.
    """
    import sympy as sp

    from implicit_bias.theory import transfer_asymptotics as theory

    return sp.lambdify(
        (
            theory.i1_shifted,
            theory.i1_plain,
            theory.i2_plain,
            theory.theta,
            theory.sigma,
        ),
        theory.ridge_risk_eq128(),
        modules="mpmath",
    )


def _unit_rule(nodes: int) -> tuple[Float64Array, Float64Array]:
    """Gauss-Legendre nodes and weights on [0, 1]."""
    points, weights = np.polynomial.legendre.leggauss(nodes)
    return (points + 1.0) / 2.0, weights / 2.0


def _panel_rule(panels: int, nodes: int) -> tuple[Float64Array, Float64Array]:
    """A composite Gauss-Legendre rule on [0, 1]: equal panels of ``nodes`` each."""
    points, weights = _unit_rule(nodes)
    offsets = np.arange(panels)[:, None]
    return ((offsets + points) / panels).ravel(), np.tile(weights / panels, panels)


@functools.cache
def _quadrature_rule() -> tuple[Float64Array, Float64Array, Float64Array, Float64Array]:
    """Nodes and weights of the left panels, then of the right panel, on [0, 1].

    Computed at first use (``numpy.polynomial`` is not imported with NumPy).
    """
    left_nodes, left_weights = _panel_rule(_PANELS_LEFT, _NODES_LEFT)
    right_nodes, right_weights = _unit_rule(_NODES_RIGHT)
    return left_nodes, left_weights, right_nodes, right_weights


def _as_counts(name: str, value: ArrayLike, minimum: int) -> Float64Array:
    """A sample count or dimension (array-like) as float64, checked."""
    if np.asarray(value, dtype=object if value is None else None).dtype == bool:
        raise InvalidArgumentError(
            f"{name}={value!r} is a bool: {name} counts "
            f"{'samples' if name == 'n' else 'dimensions'}, an integer >= {minimum}"
        )
    (values,) = as_finite_arrays({name: value})
    _check_integer_at_least(name, values, minimum)
    return values


def _check_integer_at_least(name: str, values: Float64Array, minimum: int) -> None:
    bad = (values != np.round(values)) | (values < minimum)
    if bad.any():
        raise InvalidArgumentError(
            f"{name}={float(values[bad].flat[0])!r} is not an integer >= {minimum}: "
            f"{name} counts {'samples' if name == 'n' else 'dimensions'}"
        )


def scratch_risk_finite(n: ArrayLike, d: ArrayLike, sigma: ArrayLike) -> Float64Array:
    r"""Exact expected risk of min-norm least squares on Gaussian data (from scratch).

    .. math:: E_{X,\epsilon}\|X^+y_t - \beta_t\|_2^2 = \begin{cases}
              1 - \frac nd + \frac{\sigma^2 n}{d - n - 1} & n < d - 1\\
              \frac{\sigma^2 d}{n - d - 1} & n > d + 1\end{cases}

    from Eq. (95) with :math:`E\|P_{row(X)}\beta_t\|^2 = \min(n,d)/d` and the
    inverse-Wishart mean :math:`E\operatorname{tr}((X^+)^\top X^+)`
    (:func:`implicit_bias.theory.transfer_asymptotics.scratch_risk_finite`).
    "Risk" is the generalization error (8) with noise-free test targets,
    :math:`\mathcal R = E_{x\sim\mathcal N(0,I_d)}[(\hat\beta^\top x -
    \beta_t^\top x)^2] = \|\hat\beta-\beta_t\|_2^2` with
    :math:`\|\beta_t\|_2 = 1`, averaged over the training set :math:`X,
    \epsilon` -- eq. (10)'s :math:`E_{\mathcal D}\mathcal R`. Its limit
    :math:`n = \gamma d\to\infty` is eq. (10) of features-are-fate; for
    :math:`\gamma<1` the difference is exactly
    :math:`\sigma^2\gamma/((1-\gamma)(d(1-\gamma)-1)) = O(1/d)` (none at
    :math:`\sigma = 0`). For :math:`|n - d|\le 1` and :math:`\sigma > 0` the
    expectation is infinite and ``inf`` is returned.

    Args:
      n: samples, an integer >= 1.
      d: input dimension, an integer >= 1.
      sigma: label-noise standard deviation, >= 0.

    Returns:
      The expected risk, broadcast over the arguments (float64).

    Raises:
      InvalidArgumentError: n or d not an integer >= 1, sigma negative, or a
        non-finite or non-real argument.
      OutOfRangeError: a finite expected risk beyond the float64 range (sigma
        near 1e154 and above).

    Examples:
      >>> bool(np.isclose(scratch_risk_finite(10, 40, 0.5), 1 - 10/40 + 0.25*10/29))
      True
    """
    _as_counts("n", n, 1)
    _as_counts("d", d, 1)
    n_, d_, sigma_ = as_finite_arrays({"n": n, "d": d, "sigma": sigma})
    check_nonnegative("sigma", sigma_, "the label-noise standard deviation")
    # (d - n)/d rounds once (integers are exact); 1 - n/d would cancel.
    signal = np.where(n_ < d_, (d_ - n_) / d_, 0.0)
    finite = np.abs(n_ - d_) >= 2
    gap = np.where(finite, np.abs(n_ - d_) - 1.0, 1.0)
    trace = np.where(n_ < d_, n_, d_) / gap
    with np.errstate(over="ignore"):
        noise = np.where(finite, sigma_**2 * trace, np.where(sigma_ > 0, np.inf, 0.0))
    if np.isinf(noise[finite]).any():
        raise OutOfRangeError(
            "sigma^2 n / |d - n - 1| is beyond the float64 range for sigma="
            f"{float(sigma_[finite & np.isinf(noise)].flat[0])!r}: the expected "
            "risk is finite but not representable"
        )
    return np.asarray(signal + noise, dtype=np.float64)


def _ridge_arguments(
    n: ArrayLike, lam: ArrayLike, theta: ArrayLike, sigma: ArrayLike
) -> list[Float64Array]:
    n_, lam_, theta_, sigma_ = as_finite_arrays(
        {"n": n, "lam": lam, "theta": theta, "sigma": sigma}
    )
    _as_counts("n", n, 3)
    check_nonnegative("lam", lam_, "the ridge parameter")
    check_closed_interval(
        "theta", theta_, 0.0, math.pi, "the angle between source and target, in [0, pi]"
    )
    check_nonnegative("sigma", sigma_, "the label-noise standard deviation")
    return [n_, lam_, theta_, sigma_]


def _left_cutoff(k: Float64Array) -> Float64Array:
    r"""Where :math:`\phi(s) = k(e^s - 1 - s) + s` (minus the log of the worst
    integrand, :math:`x^{-1}` times the density of :math:`s`) reaches the tail
    exponent on :math:`s < 0`, by Newton's method from the left (:math:`\phi` is
    convex and decreasing there, so the iterates rise monotonically to the root).
    """
    s = -(_TAIL_EXPONENT + 1.0 + k) / (k - 1.0)
    for _ in range(60):
        value = k * (np.expm1(s) - s) + s - _TAIL_EXPONENT
        slope = k * np.expm1(s) + 1.0
        s = s - value / slope
    return s


def chi_square_ridge_integrals(
    n: ArrayLike, lam: ArrayLike
) -> tuple[Float64Array, Float64Array, Float64Array]:
    r"""The integrals :math:`I_1(n+2,\lambda), I_1(n,\lambda), I_2(n,\lambda)` of (128).

    Eqs. (129)-(130) of features-are-fate, as expectations over
    :math:`\|z\|_2^2 = nx\sim\chi^2_n`:

    .. math:: I_1(n+2) = E\frac{x^2}{(x+\lambda)^2},\quad
              I_1(n) = \frac1n E\frac{x}{(x+\lambda)^2},\quad
              I_2(n) = E\frac{x}{x+\lambda}.

    Float64 by Gauss-Legendre quadrature in :math:`s = \log x`, whose density
    :math:`\propto e^{-k(e^s - 1 - s)}` (:math:`k = n/2`) is written without the
    cancellation of :math:`ks - ke^s` and normalized by the same rule (so the
    constant :math:`k^k/\Gamma(k)` is never formed); panels split at the
    mode, cut where the integrand falls below :math:`e^{-45}` of its peak.

    Args:
      n: samples, an integer >= 3 (:math:`E\chi_n^{-2}` is finite).
      lam: ridge parameter :math:`\lambda\ge 0`.

    Returns:
      ``(I1(n+2), I1(n), I2(n))`` as float64 arrays.

    Examples:
      >>> shifted, plain, second = chi_square_ridge_integrals(10, 0.0)
      >>> bool(np.isclose(plain, 1 / 8))  # E 1/chi2_n = 1/(n - 2)
      True
    """
    n_, lam_, _, _ = _ridge_arguments(n, lam, 0.0, 0.0)
    samples, ridges = n_.ravel(), lam_.ravel()
    results = np.empty((3, samples.size))
    # Chunks bound the (points x nodes) work arrays to ~_CHUNK x 480 floats.
    for start in range(0, samples.size, _CHUNK):
        chunk = slice(start, start + _CHUNK)
        results[:, chunk] = _chi_square_quadrature(samples[chunk], ridges[chunk])
    shifted, plain, second = (row.reshape(n_.shape) for row in results)
    return shifted, plain, second


def _chi_square_quadrature(
    samples: Float64Array, ridges: Float64Array
) -> tuple[Float64Array, Float64Array, Float64Array]:
    """The three integrals for 1-d arrays of checked n >= 3 and lam >= 0."""
    left_nodes, left_weights, right_nodes, right_weights = _quadrature_rule()
    k = (samples / 2.0)[:, None]
    ridge = ridges[:, None]
    left = _left_cutoff(k)
    right = np.sqrt(2.0 * _TAIL_EXPONENT / k)
    s = np.concatenate([left * (1.0 - left_nodes), right * right_nodes], axis=-1)
    weights = np.concatenate([-left * left_weights, right * right_weights], axis=-1)
    density = weights * np.exp(-k * (np.expm1(s) - s))
    x = np.exp(s)
    total = density.sum(axis=-1)
    fraction = x / (x + ridge)
    shifted = (density * fraction**2).sum(axis=-1) / total
    second = (density * fraction).sum(axis=-1) / total
    # x / (x + lam)^2 = fraction / (x + lam): bounded by 1/x, finite for n >= 3.
    plain = (density * fraction / (x + ridge)).sum(axis=-1) / total / samples
    return shifted, plain, second


def chi_square_ridge_integrals_mp(
    n: int, lam: float, *, dps: int = 30
) -> tuple[mpmath.mpf, mpmath.mpf, mpmath.mpf]:
    r"""Reference :math:`I_1(n+2), I_1(n), I_2(n)`: mpmath quadrature over chi-square.

    Adaptive tanh-sinh quadrature of

    .. math:: E\,h(\|z\|_2^2) = \int_0^\infty h(v)\,
              \frac{v^{n/2-1}e^{-v/2}}{2^{n/2}\Gamma(n/2)}\,dv

    for the three integrands of :func:`chi_square_ridge_integrals` (Eqs.
    (129)-(130) of features-are-fate), with breaks at the mode and five
    standard deviations either side, at
    ``dps + 10`` digits, rounded to ``dps`` digits.

    Examples:
      >>> shifted, plain, second = chi_square_ridge_integrals_mp(6, 0.0, dps=20)
      >>> bool(abs(plain - mpmath.mpf(1) / 4) < mpmath.mpf(10) ** -19)
      True
    """
    n_, lam_, _, _ = _ridge_arguments(n, lam, 0.0, 0.0)
    dps = check_dps(dps)
    if n_.ndim or lam_.ndim:
        raise InvalidArgumentError("n and lam must be scalars for the mpmath reference")
    with mpmath.workdps(dps + 10):
        dof = mpmath.mpf(int(n_))
        ridge = mpmath.mpf(float(lam_)) * dof
        log_normalizer = dof / 2 * mpmath.log(2) + mpmath.loggamma(dof / 2)

        # The three expectations share their breaks, so their tanh-sinh nodes
        # coincide up to the degree each reaches: the density is computed once
        # per node (its exp and log are most of the cost).
        densities: dict[mpmath.mpf, mpmath.mpf] = {}

        def density(v: mpmath.mpf) -> mpmath.mpf:
            value = densities.get(v)
            if value is None:
                value = densities[v] = mpmath.exp(
                    (dof / 2 - 1) * mpmath.log(v) - v / 2 - log_normalizer
                )
            return value

        spread = 5 * mpmath.sqrt(2 * dof)
        breaks = [mpmath.mpf(0)]
        breaks += [b for b in (dof - spread, dof, dof + spread) if b > 0]
        breaks.append(mpmath.inf)

        def expectation(h: Callable[[mpmath.mpf], mpmath.mpf]) -> mpmath.mpf:
            return mpmath.quad(lambda v: h(v) * density(v), breaks)

        shifted = expectation(lambda v: v**2 / (v + ridge) ** 2)
        plain = expectation(lambda v: v / (v + ridge) ** 2)
        second = expectation(lambda v: v / (v + ridge))
    with mpmath.workdps(dps):
        return +shifted, +plain, +second


def ridge_transfer_risk_finite(
    n: ArrayLike, lam: ArrayLike, theta: ArrayLike, sigma: ArrayLike
) -> Float64Array:
    r"""Exact expected risk of ridge linear transfer at finite :math:`n` (eq. (128)).

    .. math:: E_{X,\epsilon}\mathcal R^\lambda_{lt} = 1 + \cos^2\theta\,I_1(n+2,
              \lambda) + (\sin^2\theta + \sigma^2) I_1(n,\lambda)
              - 2\cos^2\theta\,I_2(n,\lambda)

    with the integrals of :func:`chi_square_ridge_integrals`:
    Eq. (128) of features-are-fate. It does not depend on :math:`d`. Its
    :math:`n\to\infty` limit is eq. (141) = (15), approached as :math:`c_1/n`
    (:func:`implicit_bias.theory.transfer_asymptotics.ridge_risk_expansion`);
    at :math:`\lambda = 0` it is eq. (12),
    :math:`\sin^2\theta + (\sin^2\theta+\sigma^2)/(n-2)`.

    Args:
      n: samples, an integer >= 3.
      lam: ridge parameter, >= 0.
      theta: source-target angle (radians).
      sigma: label-noise standard deviation, >= 0.

    Returns:
      The expected risk, broadcast over the arguments (float64).

    Raises:
      InvalidArgumentError: n not an integer >= 3, lam or sigma negative, theta
        outside :math:`[0, \pi]`, or a non-finite or non-real argument.
      OutOfRangeError: the risk is beyond the float64 range (its noise term
        :math:`\sigma^2 I_1(n, \lambda)`; at lam = 0 from sigma near 1e154 on).

    Examples:
      >>> risk = ridge_transfer_risk_finite(12, 0.0, 0.3, 0.2)
      >>> bool(np.isclose(risk, np.sin(0.3)**2 + (np.sin(0.3)**2 + 0.04) / 10))
      True
    """
    n_, lam_, theta_, sigma_ = _ridge_arguments(n, lam, theta, sigma)
    shifted, plain, second = chi_square_ridge_integrals(n_, lam_)
    cos2 = np.cos(theta_) ** 2
    sin2 = np.sin(theta_) ** 2
    # sigma^2 I_1 as (sigma sqrt(I_1))^2: sigma^2 alone overflows from 1.4e154
    # where a large lam makes I_1 ~ 1/(n lam^2) small and the product finite.
    with np.errstate(over="ignore"):
        noise = (sigma_ * np.sqrt(plain)) ** 2
    risk = 1.0 + cos2 * (shifted - 2.0 * second) + sin2 * plain + noise
    if np.isinf(risk).any():
        raise OutOfRangeError(
            "sigma^2 I_1(n, lam) is beyond the float64 range for sigma="
            f"{float(np.broadcast_to(sigma_, risk.shape)[np.isinf(risk)][0])!r}: "
            "the expected risk is finite but not representable"
        )
    return np.asarray(risk, dtype=np.float64)


def ridge_transfer_risk_finite_mp(
    n: int, lam: float, theta: float, sigma: float, *, dps: int = 30
) -> mpmath.mpf:
    r"""Reference :func:`ridge_transfer_risk_finite` at ``dps`` digits.

    .. math:: E\mathcal R^\lambda_{lt} = 1 + \cos^2\theta\,I_1(n+2,\lambda)
              + (\sin^2\theta+\sigma^2) I_1(n,\lambda)
              - 2\cos^2\theta\,I_2(n,\lambda)

    with the integrals of :func:`chi_square_ridge_integrals_mp`:
    Eq. (128) of features-are-fate.

    Examples:
      >>> risk = ridge_transfer_risk_finite_mp(12, 0.0, 0.3, 0.2, dps=20)
      >>> bool(abs(risk - (mpmath.sin(0.3)**2 * 11 + 0.04) / 10) < 1e-15)
      True
    """
    _, _, theta_, sigma_ = _ridge_arguments(n, lam, theta, sigma)
    if theta_.ndim or sigma_.ndim:
        raise InvalidArgumentError(
            "theta and sigma must be scalars for the mpmath reference"
        )
    shifted, plain, second = chi_square_ridge_integrals_mp(n, lam, dps=dps)
    with mpmath.workdps(dps + 10):
        risk = _ridge_risk_mp()(
            shifted, plain, second, mpmath.mpf(float(theta_)), mpmath.mpf(float(sigma_))
        )
    with mpmath.workdps(dps):
        return +risk


def _draw_risks(
    signal_error: Float64Array,
    noise_fit: Float64Array,
    sigma: float,
    *,
    gain: float = 1.0,
) -> Float64Array:
    r"""``||signal_error + sigma gain noise_fit||^2`` over the last axis, per draw.

    A fit is linear in its labels :math:`y = X\beta_t + \sigma\epsilon`, so
    its error is the fit of :math:`X\beta_t` minus :math:`\beta_t` plus
    sigma times the fit of :math:`\epsilon`. Kept apart, because
    :math:`\sigma\epsilon` overflows for sigma near the float64 maximum
    (NaN fits followed) where a fit that shrinks its labels is finite.
    ``gain`` (<= 1) multiplies the noise fit, but is applied to sigma here
    rather than to the fit: a ridge near the float64 maximum makes it ~1e-309,
    and a fit scaled by it would lose its digits among subnormal numbers. The
    sum is scaled by :math:`\max(1, \sigma\,\mathrm{gain})` and its norm by
    its largest entry, so neither overflows nor underflows: only a risk beyond
    the float64 range overflows, and that raises.

    Raises:
      OutOfRangeError: a risk is beyond the float64 range.
    """
    noise = sigma * gain
    scale = max(1.0, noise)
    with np.errstate(over="ignore", under="ignore"):
        residual = signal_error / scale + (noise / scale) * noise_fit
        largest = np.max(np.abs(residual), axis=-1, keepdims=True)
        unit = np.where(largest > 0.0, largest, 1.0)
        norms = unit[..., 0] * np.linalg.norm(residual / unit, axis=-1)
        risks = (scale * norms) ** 2
    if not np.isfinite(risks).all():
        raise OutOfRangeError(
            f"a risk is beyond the float64 range at sigma={sigma!r}: its noise "
            "term, sigma^2 times the squared fit of the noise, is not representable"
        )
    return np.asarray(risks, dtype=np.float64)


def _draw_count(draws: int) -> int:
    return check_integer("draws", draws, min_value=1, meaning="the number of draws")


def _sample_count(name: str, value: int, minimum: int) -> int:
    meaning = "the number of samples" if name == "n" else "the dimension"
    return check_integer(name, value, min_value=minimum, meaning=meaning)


def scratch_risk_samples(
    n: int, d: int, sigma: float, *, draws: int, seed: int
) -> Float64Array:
    r"""Risks :math:`\|X^+y_t - \beta_t\|_2^2` of ``draws`` Gaussian training sets.

    :math:`X\in\mathbb{R}^{n\times d}` standard Gaussian, :math:`\beta_t` a unit
    vector, :math:`y_t = X\beta_t + \epsilon`,
    :math:`\epsilon\sim\mathcal N(0,\sigma^2 I_n)`; the mean estimates
    :func:`scratch_risk_finite`, the finite form of
    Eq. (10) of features-are-fate:

    .. math:: \mathcal R = \|X^+(X\beta_t + \epsilon) - \beta_t\|_2^2.

    Raises:
      InvalidArgumentError: n or d not an integer >= 1, sigma negative or not
        a finite real number, draws below 1, or seed not an integer >= 0.
      OutOfRangeError: a risk is beyond the float64 range (sigma near 1e154
        and above, where :math:`\sigma^2\|X^+\epsilon\|^2` overflows).

    Examples:
      >>> risks = scratch_risk_samples(30, 3, 0.0, draws=5, seed=0)
      >>> bool(np.all(risks < 1e-20))  # n > d, no noise: X^+ X = I
      True
    """
    samples, dimension = _sample_count("n", n, 1), _sample_count("d", d, 1)
    noise = check_real(
        "sigma", sigma, min_value=0.0, meaning="the label-noise standard deviation"
    )
    count = _draw_count(draws)
    rng = np.random.default_rng(check_seed("seed", seed))
    target = np.zeros(dimension)
    target[0] = 1.0
    x = rng.standard_normal((count, samples, dimension))
    epsilon = rng.standard_normal((count, samples))
    pseudo_inverse = np.linalg.pinv(x)
    signal_fit = np.einsum("kdn,kn->kd", pseudo_inverse, x[..., 0])
    noise_fit = np.einsum("kdn,kn->kd", pseudo_inverse, epsilon)
    return _draw_risks(signal_fit - target, noise_fit, noise)


def ridge_transfer_risk_samples(
    n: int, d: int, lam: float, theta: float, sigma: float, *, draws: int, seed: int
) -> Float64Array:
    r"""Risks of ridge linear transfer on ``draws`` training sets, eqs. (121)-(127).

    The pretrained features are :math:`\Phi = (X\beta_s)v^\top` (Theorem 3.4)
    with unit :math:`v`; the readout is eq. (121),
    :math:`\hat W_L = (\Phi^\top\Phi + n\lambda I_d)^{-1}\Phi^\top y_t` (the
    min-norm least-squares readout :math:`\Phi^+y_t` at :math:`\lambda = 0`),
    and the predictor :math:`\hat\beta = \beta_s v^\top\hat W_L`. Solves the
    full :math:`d\times d` system, so the reduction (125)-(126) is tested, not
    assumed. The mean estimates :func:`ridge_transfer_risk_finite`,
    Eq. (128) of features-are-fate:

    .. math:: \mathcal R^\lambda_{lt} = \|\beta_s v^\top\hat W_L -
              \beta_t\|_2^2.

    Examples:
      >>> risks = ridge_transfer_risk_samples(8, 5, 0.0, 0.0, 0.0, draws=4, seed=0)
      >>> bool(np.all(risks < 1e-20))  # theta = 0, no noise: beta_hat = beta_t
      True
    """
    samples = _sample_count("n", n, 3)
    dimension = _sample_count("d", d, 2)
    ridge = check_real("lam", lam, min_value=0.0, meaning="the ridge parameter")
    angle = check_real(
        "theta",
        theta,
        min_value=0.0,
        max_value=math.pi,
        meaning="the angle between source and target, in [0, pi]",
    )
    noise = check_real(
        "sigma", sigma, min_value=0.0, meaning="the label-noise standard deviation"
    )
    count = _draw_count(draws)
    rng = np.random.default_rng(check_seed("seed", seed))
    source = np.zeros(dimension)
    source[0] = 1.0
    target = np.zeros(dimension)
    target[0], target[1] = np.cos(angle), np.sin(angle)
    readout_direction = rng.standard_normal(dimension)
    readout_direction /= np.linalg.norm(readout_direction)
    x = rng.standard_normal((count, samples, dimension))
    # The two label parts, X beta_t and eps, fitted side by side (_draw_risks).
    labels = np.stack([x @ target, rng.standard_normal((count, samples))], axis=-1)
    features = (x @ source)[..., None] * readout_direction
    shrink = 1.0
    if ridge > 0:
        # The system divided by max(1, n lam): n lam overflows for lam near the
        # float64 maximum (a Python float gives inf), where the readout tends
        # to Phi^T y / (n lam); the factor 1 / max(1, n lam) = shrink is
        # applied to the fits below. Unchanged for n lam <= 1.
        shrink = min(1.0, 1.0 / samples / ridge)
        gram = shrink * (np.swapaxes(features, -1, -2) @ features)
        gram += min(1.0, samples * ridge) * np.eye(dimension)
        # For n lam below the rounding of Phi^T Phi the system is singular in
        # float64 though not in exact arithmetic; the pseudo-inverse then gives
        # the lam -> 0 limit, which the exact solution equals to rounding.
        readout = np.linalg.pinv(gram, hermitian=True) @ (
            np.swapaxes(features, -1, -2) @ labels
        )
    else:
        readout = np.linalg.pinv(features) @ labels
    fits = (readout_direction @ readout)[:, None, :] * source[:, None]
    return _draw_risks(shrink * fits[..., 0] - target, fits[..., 1], noise, gain=shrink)
