r"""Norms of diagonal linear networks: the PT+FT Q-norm and the multi-task l_{1,2} norm.

Eqs. (22)-(23) of ptft-diagonal-networks: gradient flow from the
initialization :math:`w_0` of a diagonal linear network converges, among the
interpolants of the training data, to the minimizer of

.. math:: \|\beta\|_Q = \sum_{d=1}^D k_d\, q\!\left(\frac{2\beta_d}{k_d}\right),
          \qquad q(z) = 2 - \sqrt{4+z^2} + z\operatorname{arcsinh}(z/2),

with :math:`k_d = ((w_0)^{(1)}_d)^2 + ((w_0)^{(2)}_d)^2` (``k`` below; the
arguments ``w1_init``, ``w2_init`` are :math:`(w_0)^{(1)}` and
:math:`(w_0)^{(2)}`). Eq. (30): a multi-output network without such a prior
minimizes the :math:`\ell_{1,2}` norm :math:`\sum_d \|\vec\beta_d\|_2` of its
effective weights :math:`\beta \in \mathbb{R}^{O\times D}` (eq. 24).

**Evaluating q without cancellation.** Eq. (23) as printed loses every digit
for small :math:`|z|` (:math:`2-\sqrt{4+z^2}` and :math:`z\operatorname{arcsinh}(z/2)`
are both :math:`\approx \mp z^2/2` while :math:`q \approx z^2/4`). With
:math:`x = |z|/2`, :math:`\theta = \operatorname{arcsinh} x` and
:math:`t = \tanh(\theta/2) = x/(1+\sqrt{1+x^2})`, eq. (23) is

.. math:: q(z) = 2\int_0^{x}\operatorname{arcsinh}u\,du
          = |z|\,(\theta - \tanh(\theta/2))
          = w \sum_{n\ge 0} \frac{(-1)^n\, 2\binom{2n}{n}}{4^n(2n+1)(2n+2)}\, w^n,
          \quad w = x^2 .

:func:`q_potential` sums the series (24 terms, truncation below
:math:`4\cdot 10^{-19}` relative) for :math:`|z| \le 1` and uses
:math:`|z|(\theta - \tanh(\theta/2))` above; nothing overflows before q
itself does (q exceeds the float64 range for :math:`|z| > 2.6\cdot 10^{305}`
and is then ``inf``).

*Rounding analysis* (u = 2**-53; the error in ulps is below the relative
error in units of u). Series branch: one rounding in w, at most 1.1u in the
Horner sum (which lies in [0.979, 1]), one in the product: at most 3.2u, plus
:math:`2^{-1074}` absolute where q is subnormal. Transcendental branch: with
:math:`\varepsilon_a`, :math:`\varepsilon_t` the relative errors of the
platform's ``arcsinh`` and ``tanh``, :math:`D = \theta - t`, the error is
:math:`c_1|\varepsilon_a| + c_2|\varepsilon_t| + 2u` to first order, with
:math:`c_1 = \theta(1+t^2)/(2D) \le 1.31` (computing t from the rounded
:math:`\theta` makes the two errors of :math:`\theta` partly cancel; from x it
would be :math:`\theta/D \approx 2`) and :math:`c_2 = t/D \le 0.97`. NumPy 2.4
on AVX-512 (SVML) has :math:`|\varepsilon_a| \le 1.0u` and
:math:`|\varepsilon_t| \le 1.62u` (measured against mpmath), so the bound is
4.6 ulp; the largest error measured is 2.6 ulp (tests/numerics/test_q_norm.py
checks the per-point first-order bound and 5 ulp overall).

**Minimizing the Q-norm.** :math:`\partial\|\beta\|_Q/\partial\beta_d =
2\operatorname{arcsinh}(\beta_d/k_d)`, so the interpolant is
:math:`\beta(\lambda) = k\odot\sinh(X^\top\lambda/2)` where :math:`\lambda`
maximizes the smooth concave dual

.. math:: G(\lambda) = \lambda^\top y - \sum_d 2k_d(\cosh((X^\top\lambda)_d/2) - 1),
          \qquad \nabla G = y - X\beta(\lambda),

written stably as :math:`2k(\cosh-1) = 2\beta^2/(k+\sqrt{k^2+\beta^2})`.
:func:`min_q_norm_interpolant` runs damped Newton on G.

**Minimizing the l_{1,2} norm.** The dual of
:math:`\min \sum_d\|\vec\beta_d\|_2` s.t. :math:`X\beta^\top = Y` is
:math:`\max \langle\Lambda, Y\rangle` s.t. :math:`\|(X^\top\Lambda)_d\|_2 \le 1`.
:func:`min_l12_interpolant` follows the central path of the log barrier
:math:`\mu\sum_d\log(1-\|(X^\top\Lambda)_d\|^2)` of that dual, polishes the
support found there by Newton's method on the KKT equations, and certifies
the result by the duality gap.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import mpmath
import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import ConvergenceError, InvalidArgumentError
from implicit_bias.numerics.linear_systems import (
    ReducedSystem,
    check_linear_system,
    reduce_linear_system,
)
from implicit_bias.numerics.arguments import (
    as_finite_array,
    as_finite_arrays,
    check_dps,
    check_iteration_count,
    check_mp_real,
    check_tolerance,
)

__all__ = [
    "min_q_norm_interpolant",
    "q_derivative",
    "q_norm",
    "q_potential",
    "q_potential_mp",
]

Float64Array = NDArray[np.float64]

_EPS = float(np.finfo(np.float64).eps)

#: Coefficients of :math:`q = w\,S(w)`, :math:`S(w) = \sum_n a_n w^n`,
#: :math:`w = (z/2)^2`, rounded once from exact rationals. For :math:`w \le 1/4`
#: the first omitted term is below :math:`4\cdot 10^{-19}`.
_SERIES = tuple(
    float(Fraction((-1) ** n * 2 * comb(2 * n, n), 4**n * (2 * n + 1) * (2 * n + 2)))
    for n in range(24)
)
#: The series is used for :math:`x = |z|/2 \le` this.
_SERIES_MAX_X = 0.5
#: Above this, :math:`\sinh h = \mathrm{sign}(h)e^{|h|}/2` to double precision.
_SINH_EXP_FORM = 20.0
#: Newton steps on the Q-norm dual move no :math:`(X^\top\lambda)_d/2` by more
#: than this (a trust region: sinh grows by e^16 at most per step).
_MAX_HALF_SLOPE_STEP = 16.0
#: Below this largest change of (X^T lambda)/2, Newton's step is also tried on
#: beta directly (its second-order error is then below ~1e-13 relative).
_LINEAR_STEP = 1e-6
#: Armijo's sufficient-increase fraction and the smallest step tried.
_ARMIJO = 0.25
_MIN_STEP = 2.0**-60


# ---------------------------------------------------------------------------
# q and its derivative.
# ---------------------------------------------------------------------------


def _series(w: Float64Array) -> Float64Array:
    """:math:`S(w)` by Horner's rule, for :math:`0 \\le w \\le 1/4` (no cancelling)."""
    total = np.full_like(w, _SERIES[-1])
    for coefficient in reversed(_SERIES[:-1]):
        total = total * w + coefficient
    return total


def _slope_difference(x: Float64Array) -> Float64Array:
    r""":math:`D(x) = \theta - \tanh(\theta/2)` with :math:`\theta = \sinh^{-1} x`.

    :math:`D = q(2x)/(2x)`. The stable form of
    :math:`\operatorname{arcsinh}(x) - (\sqrt{1+x^2}-1)/x`: no square of x (no
    overflow) and t taken from the rounded :math:`\theta` (see the module
    docstring's rounding analysis). Accurate for :math:`x \ge 1/2`.
    """
    theta = np.arcsinh(x)
    return np.asarray(theta - np.tanh(0.5 * theta))


def q_potential(z: ArrayLike) -> Float64Array:
    r"""The potential q of eq. (23), elementwise, accurate to a few ulp everywhere.

    .. math:: q(z) = 2 - \sqrt{4+z^2} + z\operatorname{arcsinh}(z/2)

    Evaluated without the cancellation of the printed form (module docstring):
    a series for :math:`|z| \le 1` and :math:`|z|(\theta-\tanh(\theta/2))`,
    :math:`\theta = \operatorname{arcsinh}(|z|/2)`, above. Error at most
    4.6 ulp (2.6 measured) where ``arcsinh`` and ``tanh`` are as accurate as
    NumPy's; ``inf`` where q exceeds the float64 range
    (:math:`|z| > 2.6\cdot 10^{305}`).

    Args:
      z: real numbers, finite.

    Returns:
      q(z), a float64 array of the shape of ``z``; even, convex,
      :math:`0 \le q(z) \le z^2/4`.

    Raises:
      InvalidArgumentError: ``z`` is NaN or infinite.

    Examples:
      Near 0, :math:`q(z) = z^2/4 - z^4/192 + \dots`:

      >>> bool(np.isclose(q_potential(1e-3), 1e-6 / 4))
      True
      >>> bool(q_potential(-7.5) == q_potential(7.5))
      True

    References:
      Eq. (23) of ptft-diagonal-networks.
    """
    z_ = as_finite_array("z", z)
    x = 0.5 * np.abs(z_)
    out = np.empty_like(x)
    small = x <= _SERIES_MAX_X
    w = x[small] * x[small]
    out[small] = w * _series(w)
    large = ~small
    with np.errstate(over="ignore"):
        out[large] = 2.0 * x[large] * _slope_difference(x[large])
    return out


def q_derivative(z: ArrayLike) -> Float64Array:
    r"""The derivative of q (eq. 23), :math:`q'(z) = \operatorname{arcsinh}(z/2)`.

    .. math:: q'(z) = \operatorname{arcsinh}(z/2),\qquad q''(z) = (4+z^2)^{-1/2}

    So :math:`\partial\|\beta\|_Q/\partial\beta_d
    = 2\operatorname{arcsinh}(\beta_d/k_d)`.

    Args:
      z: real numbers, finite.

    Returns:
      :math:`q'(z)`, a float64 array of the shape of ``z``.

    Raises:
      InvalidArgumentError: ``z`` is NaN or infinite.

    Examples:
      >>> h = 1e-5
      >>> slope = (q_potential(1.0 + h) - q_potential(1.0 - h)) / (2 * h)
      >>> bool(np.isclose(slope, q_derivative(1.0), rtol=1e-9))
      True

    References:
      Eq. (23) of ptft-diagonal-networks, differentiated.
    """
    z_ = as_finite_array("z", z)
    return np.asarray(np.arcsinh(0.5 * z_))


def q_potential_mp(z: float, *, dps: int = 50) -> mpmath.mpf:
    r"""Reference value of :func:`q_potential` at ``dps`` significant digits.

    .. math:: q(z) = 2 - \sqrt{4+z^2} + z\operatorname{arcsinh}(z/2)

    Eq. (23) exactly as printed, at a working precision raised by the
    :math:`2\log_{10}(1/|z|)` digits its cancellation costs for :math:`|z|<1`
    (e.g. 600 extra digits at :math:`z = 10^{-300}`): an evaluation independent of
    the float64 path.

    Args:
      z: a finite real scalar (float or ``mpmath.mpf``, taken exactly).
      dps: decimal digits of the result.

    Returns:
      q(z) as an ``mpmath.mpf``.

    Raises:
      InvalidArgumentError: ``z`` is NaN or infinite.

    Examples:
      >>> with mpmath.workdps(50):
      ...     value = q_potential_mp(2.0)
      ...     exact = 2 - 2 * mpmath.sqrt(2) + 2 * mpmath.asinh(1)
      ...     bool(abs(value - exact) < mpmath.mpf(10) ** -48)
      True

    References:
      Eq. (23) of ptft-diagonal-networks.
    """
    dps = check_dps(dps)
    z_ = check_mp_real("z", z, meaning="the argument of the potential q")
    if z_ == 0:
        return mpmath.mpf(0)
    lost = max(0, -2 * int(mpmath.floor(mpmath.log10(abs(z_))))) + 2
    with mpmath.workdps(dps + 10 + lost):
        value = 2 - mpmath.sqrt(4 + z_ * z_) + z_ * mpmath.asinh(z_ / 2)
    with mpmath.workdps(dps):
        return +value


# ---------------------------------------------------------------------------
# The Q-norm.
# ---------------------------------------------------------------------------


def q_norm(beta: ArrayLike, w1_init: ArrayLike, w2_init: ArrayLike) -> Float64Array:
    r"""The PT+FT implicit-bias norm :math:`\|\beta\|_Q` of eq. (22), on the last axis.

    .. math:: \|\beta\|_Q = \sum_{d=1}^D k_d\, q\!\left(\frac{2\beta_d}{k_d}\right),
              \qquad k_d = ((w_0)^{(1)}_d)^2 + ((w_0)^{(2)}_d)^2

    Each term is computed as :math:`2|\beta_d|\,D(|\beta_d|/k_d)`,
    :math:`D(x) = q(2x)/(2x)`, which needs neither :math:`k_d` nor
    :math:`2\beta_d/k_d` to be representable (both may under- or overflow for
    extreme initializations). Limits: as :math:`k_d\to\infty` a term tends to
    :math:`\beta_d^2/k_d \to 0`; as :math:`k_d\to 0` it grows like
    :math:`2|\beta_d|(\log(2|\beta_d|/k_d) - 1) \to +\infty` for
    :math:`\beta_d \ne 0` (a coordinate initialized at exactly zero never
    moves under gradient flow), and is 0 for :math:`\beta_d = 0`.

    Args:
      beta: effective weights :math:`\beta`, finite; the last axis is d.
      w1_init: first-layer initialization :math:`(w_0)^{(1)}`, finite.
      w2_init: second-layer initialization :math:`(w_0)^{(2)}`, finite.
        The three broadcast against each other; leading axes are batch axes.

    Returns:
      :math:`\|\beta\|_Q`, a float64 array of the broadcast shape without its
      last axis.

    Raises:
      InvalidArgumentError: an argument is not finite, the shapes do not
        broadcast or broadcast to a scalar, or :math:`k_d = 0` (both
        initializations zero) where :math:`\beta_d \ne 0` (infinite norm).

    Examples:
      Small :math:`\beta/k`: :math:`\|\beta\|_Q \approx \sum_d \beta_d^2/k_d`
      (the lazy, :math:`\ell_2` regime):

      >>> value = q_norm([1e-4, -2e-4], [1.0, 1.0], [0.0, 1.0])
      >>> bool(np.isclose(value, 1e-8 + 4e-8 / 2, rtol=1e-7))
      True

    References:
      Eqs. (22)-(23) of ptft-diagonal-networks.
    """
    beta_, w1, w2 = as_finite_arrays(
        {"beta": beta, "w1_init": w1_init, "w2_init": w2_init}
    )
    if beta_.ndim == 0:
        raise InvalidArgumentError(
            "beta, w1_init and w2_init broadcast to a scalar: q_norm sums over the "
            "last axis (d); pass arrays of shape (..., D)"
        )
    abs_beta = np.abs(beta_)
    # k = m^2 (1 + r^2), m = max(|w1|, |w2|), r = min/m in [0, 1]: neither k nor
    # |beta|/k is formed where it would under- or overflow.
    m = np.maximum(np.abs(w1), np.abs(w2))
    frozen = m == 0
    bad = frozen & (beta_ != 0)
    if bad.any():
        index = tuple(int(i[0]) for i in np.nonzero(bad))
        raise InvalidArgumentError(
            f"beta{list(index)}={float(beta_[index])!r} with w1_init = w2_init = 0 "
            "there: the Q-norm is +inf (k_d = 0; a coordinate initialized at zero "
            "never moves), defined only for beta_d = 0"
        )
    safe_m = np.where(frozen, 1.0, m)
    ratio = np.minimum(np.abs(w1), np.abs(w2)) / safe_m
    k_over_m2 = 1.0 + ratio * ratio
    with np.errstate(over="ignore", under="ignore"):
        x = np.where(frozen, 0.0, abs_beta / safe_m / safe_m / k_over_m2)
    terms = np.empty_like(x)
    small = x <= _SERIES_MAX_X
    xs = x[small]
    # 2|beta| D(x) with D(x) = q(2x)/(2x) = x S(x^2)/2.
    terms[small] = abs_beta[small] * (xs * _series(xs * xs))
    large = (~small) & np.isfinite(x)
    terms[large] = 2.0 * abs_beta[large] * _slope_difference(x[large])
    huge = ~np.isfinite(x)
    if huge.any():
        # |beta|/k overflows: arcsinh x = log(2x) and tanh(theta/2) = 1 to double
        # precision, with log x = log|beta| - log k.
        log_k = 2.0 * np.log(safe_m[huge]) + np.log1p(ratio[huge] ** 2)
        theta = np.log(2.0 * abs_beta[huge]) - log_k
        terms[huge] = 2.0 * abs_beta[huge] * (theta - 1.0)
    return np.asarray(np.sum(terms, axis=-1), dtype=np.float64)


# ---------------------------------------------------------------------------
# Linear systems: checking and reduction to orthonormal rows.
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# The minimum-Q-norm interpolant: damped Newton on the dual.
# ---------------------------------------------------------------------------


def _k_sinh(k: Float64Array, half_slope: Float64Array) -> Float64Array:
    """:math:`k\\sinh h` without overflow of sinh where the product is finite."""
    out = k * np.sinh(np.clip(half_slope, -_SINH_EXP_FORM, _SINH_EXP_FORM))
    big = np.abs(half_slope) > _SINH_EXP_FORM
    if big.any():
        with np.errstate(over="ignore"):
            out[big] = np.sign(half_slope[big]) * np.exp(
                np.abs(half_slope[big]) + np.log(0.5 * k[big])
            )
    return out


def _dual_objective(
    mu: Float64Array, rhs: Float64Array, beta: Float64Array, k: Float64Array
) -> float:
    r""":math:`G = \mu^\top b - \sum 2\beta^2/(k+\sqrt{k^2+\beta^2})`, or -inf."""
    if not np.all(np.isfinite(beta)):
        return -np.inf
    with np.errstate(over="ignore"):
        penalty = float(np.sum(2.0 * beta * beta / (k + np.hypot(k, beta))))
    return float(mu @ rhs) - penalty if np.isfinite(penalty) else -np.inf


def min_q_norm_interpolant(
    X: ArrayLike,
    y: ArrayLike,
    w1_init: ArrayLike,
    w2_init: ArrayLike,
    *,
    tol: float = 1e-12,
    max_iter: int = 100,
) -> Float64Array:
    r"""The interpolant of least Q-norm (eq. 22): where PT+FT gradient flow converges.

    .. math:: \beta^* = \operatorname*{arg\,min}_{X\beta = y} \|\beta\|_Q
              = k\odot\sinh(X^\top\lambda^*/2),\qquad
              \lambda^* = \operatorname*{arg\,max}_\lambda\ \lambda^\top y
              - \sum_d 2k_d\left(\cosh\frac{(X^\top\lambda)_d}{2} - 1\right)

    Damped Newton's method (Armijo backtracking, steps of
    :math:`(X^\top\lambda)/2` capped at 16) on the concave dual, in the
    coordinates of the orthonormal row space of X (from its SVD), started at
    :math:`\lambda = 0`. By construction :math:`\nabla\|\beta\|_Q =
    2\operatorname{arcsinh}(\beta/k)` lies in the row space of X at every
    iterate; Newton drives :math:`X\beta(\lambda) - y` to zero (quadratically
    near the end). Coordinates with :math:`k_d = 0` stay at 0.

    Args:
      X: inputs, shape (n, D), finite.
      y: targets, shape (n,), finite, in the column space of X.
      w1_init: first-layer initialization :math:`(w_0)^{(1)}`, shape (D,) or
        broadcastable to it, finite.
      w2_init: second-layer initialization :math:`(w_0)^{(2)}`, likewise.
      tol: stop once the residual inside the column space of X is at most
        ``tol * ||y||`` (or at the rounding level ``4 eps || |X| |beta| ||``).
      max_iter: most Newton steps.

    Returns:
      :math:`\beta^*`, a float64 array of shape (D,).

    Raises:
      InvalidArgumentError: an argument is not finite or has the wrong shape,
        ``y`` is not in the column space of X (least-squares residual above
        ``CONSISTENCY_RTOL = 1e-8`` of :math:`\|y\|`; also counting only the
        columns with :math:`k_d > 0`), :math:`k_d` is not representable
        (:math:`|w| \gtrsim 10^{154}` or both :math:`\lesssim 10^{-162}` but
        not 0), or ``tol``/``max_iter`` are out of range.
      ConvergenceError: ``max_iter`` steps were not enough, or the line search
        stalled; the message says what to try.

    Examples:
      For equal :math:`k_d` the solution is sign-symmetric and fits the data:

      >>> X = np.array([[1.0, 1.0, 0.5]])
      >>> beta = min_q_norm_interpolant(X, [2.0], np.ones(3), np.zeros(3))
      >>> bool(np.isclose(X @ beta, 2.0).all() and np.isclose(beta[0], beta[1]))
      True

    References:
      Eqs. (21)-(23) of ptft-diagonal-networks; the dual form follows from
      :math:`\beta(t) = k\odot\sinh(\cdot)` of eq. (21).
    """
    x_, y_ = check_linear_system(X, y, "y", 1)
    dimension = x_.shape[1]
    w1, w2 = as_finite_arrays({"w1_init": w1_init, "w2_init": w2_init})
    try:
        w1, w2 = (np.broadcast_to(w, (dimension,)) for w in (w1, w2))
    except ValueError as error:
        raise InvalidArgumentError(
            f"w1_init has shape {np.shape(w1)} and w2_init {np.shape(w2)}: both must "
            f"broadcast to ({dimension},), one entry per column of X"
        ) from error
    tol = check_tolerance("tol", tol)
    max_iter = check_iteration_count("max_iter", max_iter)
    with np.errstate(over="ignore", under="ignore"):
        k = w1 * w1 + w2 * w2
    unrepresentable = ~np.isfinite(k) | ((k == 0) & ((w1 != 0) | (w2 != 0)))
    if unrepresentable.any():
        index = int(np.flatnonzero(unrepresentable)[0])
        raise InvalidArgumentError(
            f"w1_init[{index}]={float(w1[index])!r}, w2_init[{index}]="
            f"{float(w2[index])!r}: k = w1**2 + w2**2 is not a finite positive float; "
            "rescale w1_init, w2_init and y together (beta scales with them)"
        )
    beta = np.zeros(dimension)
    if not y_.any():
        return beta
    active = np.flatnonzero(k > 0)
    frozen = "" if active.size == dimension else " restricted to the columns with k > 0"
    if frozen:
        reduce_linear_system(x_, y_, "y", "")
    system = reduce_linear_system(x_[:, active], y_, "y", frozen)
    beta[active] = _dual_newton(
        x_[:, active], y_, k[active], system, tol=tol, max_iter=max_iter
    )
    return beta


def _dual_newton(
    x: Float64Array,
    y: Float64Array,
    k: Float64Array,
    system: ReducedSystem,
    *,
    tol: float,
    max_iter: int,
) -> Float64Array:
    """Damped Newton on the Q-norm dual in the reduced coordinates."""
    a, rhs, sigma = system.a, system.rhs, system.sigma
    mu = np.zeros(a.shape[0])
    beta = np.zeros(a.shape[1])
    objective = 0.0
    target = tol * float(np.linalg.norm(y))
    abs_x = np.abs(x)
    residual = np.inf
    for _ in range(max_iter):
        gradient = rhs - a @ beta
        residual = float(np.linalg.norm(sigma * gradient))
        floor = 4.0 * _EPS * float(np.linalg.norm(abs_x @ np.abs(beta)))
        if residual <= max(target, floor):
            return beta
        weights = 0.5 * np.hypot(k, beta)
        hessian = (a * weights) @ a.T
        try:
            factor = np.linalg.cholesky(hessian)
            step = np.linalg.solve(factor.T, np.linalg.solve(factor, gradient))
        except np.linalg.LinAlgError:
            step = np.linalg.lstsq(hessian, gradient, rcond=None)[0]
        increase = float(gradient @ step)
        moved = a.T @ step
        slope_step = 0.5 * float(np.max(np.abs(moved)))
        if slope_step <= _LINEAR_STEP:
            # Newton's step taken on beta itself, beta + (dbeta/ds) A^T step:
            # it meets the constraints to rounding, which k sinh(A^T mu / 2)
            # cannot where k spans many decades (an error eps |s| in s moves
            # beta by k eps |s|); the gradient stays in the row space up to
            # the second-order term, below 1e-13 relative.
            linear = beta + weights * moved
            if np.linalg.norm(sigma * (rhs - a @ linear)) <= max(target, floor):
                return np.asarray(linear)
        t = min(1.0, _MAX_HALF_SLOPE_STEP / slope_step) if slope_step > 0 else 1.0
        # At the rounding level of G, Armijo's test is noise: take Newton's step.
        noise = 64.0 * _EPS * (abs(float(mu @ rhs)) + abs(objective))
        while True:
            trial = mu + t * step
            trial_beta = _k_sinh(k, 0.5 * (a.T @ trial))
            trial_objective = _dual_objective(trial, rhs, trial_beta, k)
            if trial_objective >= objective + _ARMIJO * t * increase or (
                t == 1.0 and increase <= noise and np.isfinite(trial_objective)
            ):
                break
            t *= 0.5
            if t < _MIN_STEP:
                raise ConvergenceError(
                    "min_q_norm_interpolant: the line search on the dual stalled at "
                    f"a residual ||X beta - y|| = {residual:.3g} (target "
                    f"{max(target, floor):.3g}); try a larger tol, or rescale X's "
                    "columns to comparable norms"
                )
        mu, beta, objective = trial, trial_beta, trial_objective
    raise ConvergenceError(
        f"min_q_norm_interpolant: {max_iter} Newton steps left the residual "
        f"||X beta - y|| at {residual:.3g} (target {target:.3g}); try a larger "
        "max_iter (very small initializations, k below ~1e-30, need more steps) "
        "or a larger tol"
    )
