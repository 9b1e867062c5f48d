r"""Vectorized asymptotic risks of deep linear transfer learning (features-are-fate).

The expected risks and transferabilities of Theorems 3.6-3.9 (eqs. (10), (12),
(13), (15), (16), (17)) and the boundaries of the negative-transfer regions of
Section 3.3, as NumPy evaluators. The plain formulas are lambdified from
:mod:`implicit_bias.theory.transfer_risks`; :func:`negative_transfer_gammas`
is written by hand in a cancellation-free form and tested against the theory
expression.

Notation: ``gamma`` is :math:`\gamma = n/d` (target samples per input
dimension), ``sigma`` is the label-noise standard deviation :math:`\sigma`,
``theta`` the source-target angle :math:`\theta` (:math:`\beta_s^\top\beta_t =
\cos\theta`, unit-norm weights), ``n`` the number of target samples and
``lam`` the ridge parameter :math:`\lambda` of eq. (14).

Domains (checked before any work; violations raise
:class:`~implicit_bias.errors.InvalidArgumentError`, a ``ValueError``):
:math:`\gamma>0`, :math:`\sigma\ge0`, :math:`\theta\in[0,\pi]`, :math:`n>2`,
:math:`\lambda\ge0`, all finite.

**The interpolation threshold** :math:`\gamma = 1`. Eq. (10) is printed for
:math:`\gamma\ne1`. Both branches tend to :math:`+\infty` as
:math:`\gamma\to1` when :math:`\sigma>0` (the double-descent peak), and to 0
when :math:`\sigma=0`. So at ``gamma == 1`` the risks (10), (13) and (16) raise
for ``sigma > 0`` and return their (two-sided) limit for ``sigma == 0``:
:math:`\mathbb E\mathcal R_{sc} = 0`, :math:`\mathcal T_{lt} = -\sin^2\theta`,
:math:`\mathbb E\mathcal R_{ft} = 0`. Eq. (17) is printed for :math:`\gamma\le1`
and is 0 at :math:`\gamma=1` (the common limit of both sides).

**Rounding.** Each evaluator is a handful of correctly rounded operations
(relative error u = 2**-53 each) and at most one ``sin``/``cos`` (about 1 ulp in
NumPy): the error is at most a small multiple of u times the sum of the
absolute values of the terms (the bounds are stated per function and checked
in tests/numerics/test_transfer_risks.py against 50-digit mpmath). A
transferability is a difference of two risks, so near its zeros its *relative*
error is unbounded; its *absolute* error is not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    as_finite_arrays,
    check_closed_interval,
    check_nonnegative,
)
from implicit_bias.numerics._lazy import lazy_formula

if TYPE_CHECKING:
    import sympy as sp

__all__ = [
    "finetune_risk",
    "finetune_transferability",
    "has_negative_transfer_region",
    "linear_transfer_risk",
    "linear_transferability",
    "negative_transfer_gammas",
    "ridge_transfer_risk",
    "scratch_risk",
    "underparameterized_negative_transfer_gamma",
]

Float64Array = NDArray[np.float64]


# The plain formulas, lambdified at their first use (importing numerics does
# not import SymPy); the tests compare each evaluator with its theory expression.


def _lambdify(expression: sp.Expr, *symbols: sp.Symbol) -> Callable[..., Float64Array]:
    import sympy as sp

    return sp.lambdify(symbols, expression, modules="numpy")


@lazy_formula
def _scratch_over() -> Callable[..., Float64Array]:
    """Eq. (10) for gamma < 1 (overparameterized), as f(gamma, sigma)."""
    from implicit_bias.theory import transfer_risks as theory

    return _lambdify(
        theory.scratch_risk_overparameterized(), theory.gamma, theory.sigma
    )


@lazy_formula
def _scratch_under() -> Callable[..., Float64Array]:
    """Eq. (10) for gamma > 1 (underparameterized), as f(gamma, sigma)."""
    from implicit_bias.theory import transfer_risks as theory

    return _lambdify(
        theory.scratch_risk_underparameterized(), theory.gamma, theory.sigma
    )


@lazy_formula
def _linear_transfer() -> Callable[..., Float64Array]:
    """Eq. (12) as f(n, theta, sigma)."""
    from implicit_bias.theory import transfer_risks as theory

    return _lambdify(
        theory.linear_transfer_risk(), theory.n, theory.theta, theory.sigma
    )


@lazy_formula
def _ridge_transfer_in_shrinkage() -> Callable[..., Float64Array]:
    """Eq. (15) in t = 1/(1 + lambda) in (0, 1], as f(t, theta).

    (2 lambda + 1) and (lambda + 1)^2 overflow for lambda near the float64
    maximum (inf/inf = NaN) while t does not, and the substitution is exact
    algebra on the printed formula.
    """
    import sympy as sp

    from implicit_bias.theory import transfer_risks as theory

    shrinkage = sp.Symbol("t", positive=True)
    return _lambdify(
        sp.simplify(theory.ridge_transfer_risk().subs(theory.lam, 1 / shrinkage - 1)),
        shrinkage,
        theory.theta,
    )


@lazy_formula
def _finetune_shift() -> Callable[..., Float64Array]:
    """Eq. (17) for gamma <= 1 (overparameterized), as f(gamma, theta)."""
    from implicit_bias.theory import transfer_risks as theory

    return _lambdify(
        theory.finetune_transferability_overparameterized(), theory.gamma, theory.theta
    )


# ---------------------------------------------------------------------------
# Argument checking.
# ---------------------------------------------------------------------------


def _check_above(name: str, values: Float64Array, bound: float, meaning: str) -> None:
    bad = ~(values > bound)
    if bad.any():
        raise InvalidArgumentError(
            f"{name}={float(values[bad].flat[0])!r} is not > {bound:g}: {name} is "
            f"{meaning}"
        )


def _check_gamma(gamma: Float64Array) -> None:
    _check_above("gamma", gamma, 0.0, "the ratio n/d of target samples to dimension")


def _check_sigma(sigma: Float64Array) -> None:
    check_nonnegative("sigma", sigma, "the standard deviation of the label noise")


def _check_theta(theta: Float64Array) -> None:
    check_closed_interval(
        "theta", theta, 0.0, np.pi, "the angle between source and target weights"
    )


def _check_not_at_threshold(gamma: Float64Array, sigma: Float64Array) -> None:
    bad = (gamma == 1.0) & (sigma > 0.0)
    if bad.any():
        raise InvalidArgumentError(
            f"gamma=1.0 with sigma={float(sigma[bad].flat[0])!r} > 0: gamma = 1 is "
            "the interpolation threshold, where the scratch-trained risk (10) "
            "diverges to +inf; gamma must differ from 1 unless sigma = 0"
        )


def _representable(values: Float64Array, formula: str) -> Float64Array:
    """``values`` after checking that none overflowed to inf.

    The risks are finite on the checked domain, so an inf is a true value
    beyond the float64 range (sigma^2 near 1e308, or a pole approached within
    rounding): an error names it rather than returning inf as if it were exact.
    """
    overflowed = np.isinf(values)
    if overflowed.any():
        raise OutOfRangeError(
            f"{formula} is beyond the float64 range at some of the arguments "
            "(sigma too large, or gamma or n too close to the pole)"
        )
    return values


def _scratch(gamma: Float64Array, sigma: Float64Array) -> Float64Array:
    """Eq. (10) on checked arguments; 0 at gamma == 1 (there sigma == 0)."""
    out = np.zeros_like(gamma)
    over = gamma < 1.0
    under = gamma > 1.0
    with np.errstate(over="ignore"):
        out[over] = _scratch_over()(gamma[over], sigma[over])
        out[under] = _scratch_under()(gamma[under], sigma[under])
    return _representable(out, "the scratch-trained risk, eq. (10)")


# ---------------------------------------------------------------------------
# Training from scratch and linear transfer.
# ---------------------------------------------------------------------------


def scratch_risk(gamma: ArrayLike, sigma: ArrayLike) -> Float64Array:
    r"""Expected risk of the scratch-trained (minimum-norm) model, eq. (10).

    .. math:: \mathbb E_{\mathcal D}\mathcal R_{sc} = \begin{cases}
              \frac{(1-\gamma)^2+\gamma\sigma^2}{1-\gamma} & \gamma<1\\
              \frac{\sigma^2}{\gamma-1} & \gamma>1\end{cases}

    At :math:`\gamma=1` the risk diverges for :math:`\sigma>0` (raises) and is
    0 for :math:`\sigma=0` (the limit from both sides). Error at most 6u
    relative (both terms of the first branch are positive: one rounding each
    in :math:`1-\gamma` (exact for :math:`\gamma\ge1/2`), :math:`(1-\gamma)^2`,
    :math:`\sigma^2`, the product, the sum and the quotient).

    Args:
      gamma: :math:`\gamma = n/d > 0`.
      sigma: label-noise standard deviation :math:`\sigma\ge0`.

    Returns:
      The risk, a float64 array of the broadcast shape.

    Raises:
      InvalidArgumentError: an argument is outside its domain, or
        ``gamma == 1`` where ``sigma > 0``.
      OutOfRangeError: the value is beyond the float64 range.

    Examples:
      >>> bool(np.isclose(scratch_risk(0.5, 0.0), 0.5))
      True
      >>> bool(np.isclose(scratch_risk(3.0, 2.0), 2.0))
      True

    References:
      Eq. (10) (Theorem 3.6) of features-are-fate.
    """
    gamma_, sigma_ = as_finite_arrays({"gamma": gamma, "sigma": sigma})
    _check_gamma(gamma_)
    _check_sigma(sigma_)
    _check_not_at_threshold(gamma_, sigma_)
    return _scratch(gamma_, sigma_)


def linear_transfer_risk(
    n: ArrayLike, theta: ArrayLike, sigma: ArrayLike
) -> Float64Array:
    r"""Expected risk of linear transfer with n target samples, eq. (12).

    .. math:: \mathbb E_{\mathcal D}\mathcal R_{lt} = \sin^2\theta
              + \frac{\sigma^2+\sin^2\theta}{n-2}

    Stated by the paper at finite n (not in terms of :math:`\gamma`): the
    retrained last layer sees a single sparsified feature, so the risk does
    not depend on d. It is finite only for :math:`n>2`
    (:math:`\mathbb E[1/\chi^2_n] = 1/(n-2)`); n need not be an integer here.
    Error at most about 6u relative (positive terms; ``sin`` within 1 ulp).

    Args:
      n: number of target samples, :math:`n>2`.
      theta: source-target angle :math:`\theta\in[0,\pi]`.
      sigma: label-noise standard deviation :math:`\sigma\ge0`.

    Returns:
      The risk, a float64 array of the broadcast shape.

    Raises:
      InvalidArgumentError: an argument is outside its domain.
      OutOfRangeError: the value is beyond the float64 range.

    Examples:
      >>> bool(np.isclose(linear_transfer_risk(12.0, np.pi / 2, 0.0), 1.1))
      True

    References:
      Eq. (12) (Theorem 3.7) of features-are-fate.
    """
    n_, theta_, sigma_ = as_finite_arrays({"n": n, "theta": theta, "sigma": sigma})
    _check_above("n", n_, 2.0, "the number of target samples (eq. (12) needs n > 2)")
    _check_theta(theta_)
    _check_sigma(sigma_)
    with np.errstate(over="ignore"):
        risk = np.asarray(_linear_transfer()(n_, theta_, sigma_), dtype=np.float64)
    return _representable(risk, "the linear-transfer risk, eq. (12)")


def linear_transferability(
    gamma: ArrayLike, theta: ArrayLike, sigma: ArrayLike
) -> Float64Array:
    r"""Linear transferability as :math:`n,d\to\infty`, eq. (13).

    .. math:: \mathcal T_{lt} = \mathbb E\mathcal R_{sc} - \sin^2\theta
              = \begin{cases}
              \frac{(1-\gamma)^2+\gamma\sigma^2}{1-\gamma} - \sin^2\theta
              & \gamma<1\\
              \frac{\sigma^2}{\gamma-1} - \sin^2\theta & \gamma>1\end{cases}

    Positive where transfer helps. At :math:`\gamma=1`: raises for
    :math:`\sigma>0` (eq. (10) diverges), :math:`-\sin^2\theta` for
    :math:`\sigma=0`. Absolute error at most about
    :math:`8u(\mathbb E\mathcal R_{sc}+\sin^2\theta)`.

    Args:
      gamma: :math:`\gamma = n/d > 0`.
      theta: source-target angle :math:`\theta\in[0,\pi]`.
      sigma: label-noise standard deviation :math:`\sigma\ge0`.

    Returns:
      :math:`\mathcal T_{lt}`, a float64 array of the broadcast shape.

    Raises:
      InvalidArgumentError: an argument is outside its domain, or
        ``gamma == 1`` where ``sigma > 0``.
      OutOfRangeError: the value is beyond the float64 range.

    Examples:
      Anomalous positive transfer: orthogonal features still beat scratch
      training next to the double-descent peak.

      >>> bool(linear_transferability(1.01, np.pi / 2, 0.2) > 0)
      True

    References:
      Eq. (13) of features-are-fate.
    """
    gamma_, theta_, sigma_ = as_finite_arrays(
        {"gamma": gamma, "theta": theta, "sigma": sigma}
    )
    _check_gamma(gamma_)
    _check_theta(theta_)
    _check_sigma(sigma_)
    _check_not_at_threshold(gamma_, sigma_)
    return np.asarray(_scratch(gamma_, sigma_) - np.sin(theta_) ** 2)


def has_negative_transfer_region(
    theta: ArrayLike, sigma: ArrayLike
) -> NDArray[np.bool_]:
    r"""Whether linear transfer is negative somewhere in :math:`0<\gamma<1`.

    .. math:: |\cos\theta| < 1-\sigma

    Equivalently :math:`\sigma<1` and :math:`\theta\in(\arccos(1-\sigma),
    \pi-\arccos(1-\sigma))`: the discriminant of :math:`q` (module
    :mod:`implicit_bias.theory.transfer_risks`) is positive exactly there. On
    the boundary :math:`|\cos\theta| = 1-\sigma` the roots merge and
    :math:`\mathcal T_{lt}\ge0`.

    Args:
      theta: source-target angle :math:`\theta\in[0,\pi]`.
      sigma: label-noise standard deviation :math:`\sigma\ge0`.

    Returns:
      A boolean array of the broadcast shape.

    Raises:
      InvalidArgumentError: an argument is outside its domain.

    Examples:
      >>> has_negative_transfer_region([0.1, 1.5], 0.2).tolist()
      [False, True]

    References:
      Section 3.3 of features-are-fate (text after eq. (13)).
    """
    theta_, sigma_ = as_finite_arrays({"theta": theta, "sigma": sigma})
    _check_theta(theta_)
    _check_sigma(sigma_)
    return np.asarray(np.abs(np.cos(theta_)) + sigma_ < 1.0)


def negative_transfer_gammas(
    theta: ArrayLike, sigma: ArrayLike
) -> tuple[Float64Array, Float64Array]:
    r"""The overparameterized negative-transfer interval :math:`(\gamma_-, \gamma_+)`.

    .. math:: \gamma_\pm = \tfrac12\Big[(1+\cos^2\theta-\sigma^2)
              \pm\sqrt{(1+\cos^2\theta-\sigma^2)^2-4\cos^2\theta}\Big]

    For :math:`0<\gamma<1`, eq. (13) is negative exactly for
    :math:`\gamma_-<\gamma<\gamma_+`, with :math:`0\le\gamma_-<\gamma_+\le1`
    (:math:`\gamma_+ = 1` only at :math:`\sigma = 0`, where it is a zero of
    :math:`(1-\gamma)\mathcal T_{lt}` but not of :math:`\mathcal T_{lt}`, which
    tends to :math:`-\sin^2\theta` there).
    Evaluated without cancellation: the discriminant as the product
    :math:`(1-\sigma-c)(1-\sigma+c)(1+\sigma-c)(1+\sigma+c)`,
    :math:`c=|\cos\theta|`, and :math:`\gamma_- = \cos^2\theta/\gamma_+`
    (Vieta). The roots are ill-conditioned only where they merge
    (:math:`c\to1-\sigma`), as a double root is.

    The text prints the interval as :math:`(\gamma_+,\gamma_-)`; with
    :math:`\gamma_\pm` as defined there, :math:`\gamma_-\le\gamma_+`, so the
    interval is returned in that order (claim ``13:interval-as-printed``).

    Where there is no such interval (:func:`has_negative_transfer_region` is
    False: :math:`|\cos\theta|\ge1-\sigma`, e.g. :math:`\sigma\ge1`) this
    raises rather than return NaN or an empty interval; mask with
    :func:`has_negative_transfer_region` first to sweep a grid.

    Args:
      theta: source-target angle :math:`\theta\in[0,\pi]`.
      sigma: label-noise standard deviation :math:`\sigma\ge0`.

    Returns:
      ``(gamma_minus, gamma_plus)``, two float64 arrays of the broadcast shape.

    Raises:
      InvalidArgumentError: an argument is outside its domain, or some
        ``(theta, sigma)`` has no negative-transfer interval.

    Examples:
      The noiseless limit is :math:`(\cos^2\theta, 1)`:

      >>> low, high = negative_transfer_gammas(np.pi / 3, 0.0)
      >>> bool(np.isclose(low, 0.25) and np.isclose(high, 1.0))
      True

    References:
      Section 3.3 of features-are-fate (text after eq. (13)).
    """
    theta_, sigma_ = as_finite_arrays({"theta": theta, "sigma": sigma})
    _check_theta(theta_)
    _check_sigma(sigma_)
    cosine = np.abs(np.cos(theta_))
    missing = ~(cosine + sigma_ < 1.0)
    if missing.any():
        raise InvalidArgumentError(
            f"theta={float(theta_[missing].flat[0])!r}, "
            f"sigma={float(sigma_[missing].flat[0])!r}: linear transfer is never "
            "negative for 0 < gamma < 1 there (|cos theta| >= 1 - sigma); "
            "(gamma_-, gamma_+) exists only where |cos theta| < 1 - sigma, see "
            "has_negative_transfer_region"
        )
    discriminant = (
        (1.0 - sigma_ - cosine)
        * (1.0 - sigma_ + cosine)
        * (1.0 + sigma_ - cosine)
        * (1.0 + sigma_ + cosine)
    )
    linear = 1.0 + cosine * cosine - sigma_ * sigma_
    gamma_plus = 0.5 * (linear + np.sqrt(discriminant))
    gamma_minus = cosine * cosine / gamma_plus
    return np.asarray(gamma_minus), np.asarray(gamma_plus)


def underparameterized_negative_transfer_gamma(
    theta: ArrayLike, sigma: ArrayLike
) -> Float64Array:
    r"""Where negative linear transfer starts for :math:`\gamma>1`.

    .. math:: \gamma_{\rm under} = 1+\frac{\sigma^2}{\sin^2\theta}

    For :math:`\gamma>1`, eq. (13) is negative exactly for
    :math:`\gamma>\gamma_{\rm under}` (the text's
    :math:`\gamma-1>\sigma^2/\sin^2\theta`). At :math:`\sin\theta=0` there is no
    negative transfer for :math:`\gamma>1` and this raises.

    Args:
      theta: source-target angle :math:`\theta\in[0,\pi]`, :math:`\sin\theta\ne0`.
      sigma: label-noise standard deviation :math:`\sigma\ge0`.

    Returns:
      :math:`\gamma_{\rm under}\ge1`, a float64 array of the broadcast shape.

    Raises:
      InvalidArgumentError: an argument is outside its domain, or
        :math:`\sin\theta = 0`.
      OutOfRangeError: the value is beyond the float64 range.

    Examples:
      >>> bool(np.isclose(underparameterized_negative_transfer_gamma(np.pi / 2, 0.5),
      ...                 1.25))
      True

    References:
      Section 3.3 of features-are-fate (text after eq. (13)).
    """
    theta_, sigma_ = as_finite_arrays({"theta": theta, "sigma": sigma})
    _check_theta(theta_)
    _check_sigma(sigma_)
    sine = np.sin(theta_)
    bad = sine == 0.0
    if bad.any():
        raise InvalidArgumentError(
            f"theta={float(theta_[bad].flat[0])!r} has sin(theta) = 0: identical "
            "source and target features never transfer negatively for gamma > 1; "
            "theta must lie in (0, pi)"
        )
    with np.errstate(over="ignore"):
        gamma = np.asarray(1.0 + (sigma_ / sine) ** 2)
    return _representable(gamma, "1 + sigma^2 / sin^2 theta")


# ---------------------------------------------------------------------------
# Ridge linear transfer and fine-tuning.
# ---------------------------------------------------------------------------


def ridge_transfer_risk(lam: ArrayLike, theta: ArrayLike) -> Float64Array:
    r"""Large-n risk of ridge linear transfer, eq. (15).

    .. math:: \lim_{n\to\infty}\mathbb E_{\mathcal D}\mathcal R^\lambda_{lt}
              = 1 - \cos^2\theta\,\frac{1+2\lambda}{(1+\lambda)^2}

    Independent of :math:`\sigma` (the noise averages out as
    :math:`n\to\infty`). At :math:`\lambda = 0` it is :math:`\sin^2\theta`, the
    :math:`n\to\infty` limit of eq. (12). Absolute error at most about 8u.

    Args:
      lam: ridge parameter :math:`\lambda\ge0` of eq. (14).
      theta: source-target angle :math:`\theta\in[0,\pi]`.

    Returns:
      The risk, a float64 array of the broadcast shape, in
      :math:`[\sin^2\theta, 1]`.

    Raises:
      InvalidArgumentError: an argument is outside its domain.

    Examples:
      >>> bool(np.isclose(ridge_transfer_risk(1.0, 0.0), 0.25))
      True

    References:
      Eq. (15) (Theorem 3.8) of features-are-fate.
    """
    lam_, theta_ = as_finite_arrays({"lam": lam, "theta": theta})
    check_nonnegative("lam", lam_, "the ridge parameter lambda of eq. (14)")
    _check_theta(theta_)
    shrinkage = 1.0 / (1.0 + lam_)
    return np.asarray(
        _ridge_transfer_in_shrinkage()(shrinkage, theta_), dtype=np.float64
    )


FinetuneForm = Literal["corrected", "printed"]
"""Which fine-tuning formula: our corrected limit (default) or eq. (16)/(17)."""

_FINETUNE_FORMS = ("corrected", "printed")


def _check_form(form: object) -> FinetuneForm:
    if not isinstance(form, str) or form not in _FINETUNE_FORMS:
        raise InvalidArgumentError(f"form={form!r} is not 'corrected' or 'printed'")
    return "corrected" if form == "corrected" else "printed"


def _finetune_excess(
    gamma: Float64Array, theta: Float64Array, sigma: Float64Array, form: FinetuneForm
) -> Float64Array:
    """E R_ft - E R_sc on checked arguments: 0 for gamma >= 1."""
    out = np.zeros(np.broadcast(gamma, theta, sigma).shape)
    gamma, theta, sigma = np.broadcast_arrays(gamma, theta, sigma)
    over = gamma < 1.0
    g, cos = gamma[over], np.cos(theta[over])
    if form == "printed":
        out[over] = -_finetune_shift()(g, theta[over])
        return out
    # c^2 = ((1 - g) + sqrt((1 + g)^2 + 4 sigma^2 g/(1 - g)))/2, the square root
    # as a hypot so that it does not overflow before the risk does.
    with np.errstate(over="ignore"):
        root = np.hypot(1.0 + g, 2.0 * sigma[over] * np.sqrt(g / (1.0 - g)))
    scale_squared = 0.5 * ((1.0 - g) + root)
    scale = np.sqrt(scale_squared)
    out[over] = (1.0 - g) * scale * (scale - 2.0 * cos)
    return out


def finetune_risk(
    gamma: ArrayLike,
    theta: ArrayLike,
    sigma: ArrayLike,
    *,
    form: FinetuneForm = "corrected",
) -> Float64Array:
    r"""Expected risk of fine-tuning from the pretrained weights (eq. (16), corrected).

    Eq. (16) of features-are-fate (Theorem 3.9) prints

    .. math:: \mathbb E_{\mathcal D}\mathcal R_{ft} = \begin{cases}
              \mathbb E_{\mathcal D}\mathcal R_{sc}+(1-\gamma)(1-2\cos\theta)
              & \gamma\le1\\
              \mathbb E_{\mathcal D}\mathcal R_{sc} & \gamma>1\end{cases}

    which holds only at :math:`\sigma = 0`: the claims
    ``features-are-fate:16:monte-carlo`` (fails) and
    ``features-are-fate:16:monte-carlo-corrected`` (holds) show that with
    label noise the gradient-flow endpoint of the two-layer linear model
    gives, for :math:`\gamma<1`,

    .. math:: \mathbb E_{\mathcal D}\mathcal R_{ft} = \mathbb E_{\mathcal D}
              \mathcal R_{sc} + (1-\gamma)(c^2 - 2c\cos\theta),\quad
              c^2 = \tfrac12\Big(1-\gamma+\sqrt{(1+\gamma)^2
              + 4\sigma^2\gamma/(1-\gamma)}\Big)

    (:func:`implicit_bias.theory.transfer_asymptotics.finetune_risk_limit_corrected`;
    :math:`c = 1` at :math:`\sigma = 0`, where the two agree). ``form``
    chooses: ``"corrected"`` (default) or ``"printed"`` (eq. (16) as printed).
    :math:`\mathbb E\mathcal R_{sc}` is eq. (10). At :math:`\gamma=1`:
    raises for :math:`\sigma>0`, 0 for :math:`\sigma=0`.

    Args:
      gamma: :math:`\gamma = n/d > 0`.
      theta: source-target angle :math:`\theta\in[0,\pi]`.
      sigma: label-noise standard deviation :math:`\sigma\ge0`.
      form: ``"corrected"`` or ``"printed"``.

    Returns:
      The risk, a float64 array of the broadcast shape.

    Raises:
      InvalidArgumentError: an argument is outside its domain, or
        ``gamma == 1`` where ``sigma > 0``.
      OutOfRangeError: the value is beyond the float64 range.

    Examples:
      >>> bool(finetune_risk(0.5, 0.0, 0.1) < scratch_risk(0.5, 0.1))
      True
      >>> finetune_risk(0.5, 0.5, 0.0).item() == finetune_risk(
      ...     0.5, 0.5, 0.0, form="printed").item()
      True

    References:
      Eq. (16) (Theorem 3.9) of features-are-fate; the correction is ours.
    """
    gamma_, theta_, sigma_ = as_finite_arrays(
        {"gamma": gamma, "theta": theta, "sigma": sigma}
    )
    _check_gamma(gamma_)
    _check_theta(theta_)
    _check_sigma(sigma_)
    _check_not_at_threshold(gamma_, sigma_)
    chosen = _check_form(form)
    with np.errstate(over="ignore"):
        risk = _scratch(gamma_, sigma_) + _finetune_excess(
            gamma_, theta_, sigma_, chosen
        )
    return _representable(risk, "the fine-tuning risk, eq. (16)")


def finetune_transferability(
    gamma: ArrayLike,
    theta: ArrayLike,
    sigma: ArrayLike = 0.0,
    *,
    form: FinetuneForm = "corrected",
) -> Float64Array:
    r"""Fine-tuning transferability (eq. (17), corrected).

    Eq. (17) of features-are-fate prints

    .. math:: \mathcal T_{ft} = \begin{cases}(\gamma-1)(1-2\cos\theta)
              & \gamma\le1\\ 0 & \gamma>1\end{cases}

    independent of :math:`\sigma`; it holds at :math:`\sigma = 0` only. The
    corrected form (default) is :math:`\mathcal T_{ft} = -(1-\gamma)(c^2 -
    2c\cos\theta)` for :math:`\gamma<1` with :math:`c` of
    :func:`finetune_risk`, and 0 for :math:`\gamma\ge1`; the two agree at
    ``sigma = 0`` (the default). Positive for :math:`\theta<\pi/3` and
    negative for :math:`\theta>\pi/3` when :math:`\gamma<1`, :math:`\sigma=0`.

    Args:
      gamma: :math:`\gamma = n/d > 0`.
      theta: source-target angle :math:`\theta\in[0,\pi]`.
      sigma: label-noise standard deviation :math:`\sigma\ge0` (the printed
        form does not depend on it).
      form: ``"corrected"`` or ``"printed"``.

    Returns:
      :math:`\mathcal T_{ft}`, a float64 array of the broadcast shape.

    Raises:
      InvalidArgumentError: an argument is outside its domain.
      OutOfRangeError: the value is beyond the float64 range.

    Examples:
      >>> finetune_transferability([0.5, 2.0], 0.0).tolist()
      [0.5, 0.0]

    References:
      Eq. (17) of features-are-fate; the correction is ours (see
      :func:`finetune_risk`).
    """
    gamma_, theta_, sigma_ = as_finite_arrays(
        {"gamma": gamma, "theta": theta, "sigma": sigma}
    )
    _check_gamma(gamma_)
    _check_theta(theta_)
    _check_sigma(sigma_)
    chosen = _check_form(form)
    excess = _finetune_excess(gamma_, theta_, sigma_, chosen)
    return _representable(0.0 - excess, "the fine-tuning transferability, eq. (17)")
