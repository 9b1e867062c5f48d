r"""What the direct descents of problems (4) and (27) of
adaptive-tangent-features are compared with: the minimum-norm interpolant,
Theorem 1's value :math:`\Omega^*` and the dual lower bound of the relaxed
problem.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import as_finite_array
from implicit_bias.numerics.tangent_features import (
    Penalty,
    omega_tilde,
)
from implicit_bias.validation.tangent_features.descent import (
    Float64Array,
    _BISECTIONS,
    _FLOAT_MAX,
    _LARGEST_NORM,
    _LOG_FLOAT_MAX,
    _MAX_HALVINGS,
    _power_exponent,
    _power_of_two_scale,
    _tangent_arguments,
)

__all__ = [
    "minimum_norm_coefficients",
    "relaxed_dual_bound",
    "theorem_one_value",
]


def _minimum_norm_mantissa(
    tangent_features: ArrayLike, targets: ArrayLike
) -> tuple[Float64Array, int]:
    r""":math:`\hat\beta = 2^k b`, as b and k, so that b never overflows.

    J and r are each divided by a power of two (exactly), the interpolant of
    the scaled pair is solved, and the two powers give k.
    """
    features, residual, exponent = _tangent_arguments(tangent_features, targets)
    shift = _power_of_two_scale(residual)
    scaled = np.ldexp(residual, -shift)
    mantissa = features.T @ np.linalg.solve(features @ features.T, scaled)
    return np.asarray(mantissa), shift - exponent


def minimum_norm_coefficients(
    tangent_features: ArrayLike, targets: ArrayLike
) -> Float64Array:
    r"""The minimum-:math:`\ell_2` interpolant :math:`\hat\beta` of eq. (5).

    .. math:: \hat\beta = J^\top (JJ^\top)^{-1} r
              = \arg\min_{J\beta = r}\|\beta\|_2

    Theorem 1 says eq. (5) is solved with :math:`\tilde\Omega = \|\cdot\|_2`,
    so this is its :math:`\hat\beta`. Let :math:`J` be ``tangent_features``
    and :math:`r` be ``targets``.

    Args:
      tangent_features: J, (N, P), full row rank, N <= P.
      targets: r, (N,).

    Returns:
      :math:`\hat\beta`, (P,).

    Raises:
      InvalidArgumentError: bad shapes, or J not of full row rank.
      OutOfRangeError: an entry of :math:`\hat\beta` overflows float64.

    Examples:
      >>> beta = minimum_norm_coefficients([[1.0, 1.0]], [2.0])
      >>> bool(np.allclose(beta, [1.0, 1.0]))
      True

    References:
      Theorem 1, eqs. (5) and (8) of adaptive-tangent-features.
    """
    mantissa, power = _minimum_norm_mantissa(tangent_features, targets)
    with np.errstate(over="ignore", under="ignore"):
        beta = np.ldexp(mantissa, power)
    if not np.isfinite(beta).all():
        raise OutOfRangeError(
            "the minimum-norm interpolant overflows float64: targets is too large "
            "relative to tangent_features (or J is nearly rank-deficient)"
        )
    return np.asarray(beta)


def theorem_one_value(
    tangent_features: ArrayLike, targets: ArrayLike, penalty: Penalty
) -> float:
    r"""The minimum of problem (4) that Theorem 1 predicts.

    .. math:: \min_{M,\theta}\Omega_\omega(M) + \|\theta-\theta_0\|^2
              = \tilde\omega(\|\hat\beta\|_2)
              = \min_{z\ge 1}\omega(z) + \frac{\|\hat\beta\|_2^2}{z^2}

    (eqs. 8 and 12: :math:`\hat M` has singular values s and ones, and
    :math:`\|\hat\theta - \theta_0\| = \|\hat\beta\|/s`.)

    Args:
      tangent_features: J, (N, P), full row rank, N <= P.
      targets: r, (N,).
      penalty: :math:`\omega`, as accepted by
        :func:`implicit_bias.numerics.tangent_features.omega_tilde`.

    Returns:
      :math:`\tilde\omega(\|\hat\beta\|_2)`.

    Raises:
      InvalidArgumentError: bad shapes, J not of full row rank, or a penalty
        :func:`~implicit_bias.numerics.tangent_features.omega_tilde` refuses.
      OutOfRangeError: :math:`\|\hat\beta\|^2` overflows float64.

    Examples:
      >>> from implicit_bias.numerics.tangent_features import squared_deviation
      >>> value = theorem_one_value([[1.0, 0.0]], [0.0], squared_deviation)
      >>> value == 0.0
      True

    References:
      Theorem 1 (eq. 8) and eq. (12) of adaptive-tangent-features.
    """
    mantissa, power = _minimum_norm_mantissa(tangent_features, targets)
    with np.errstate(over="ignore", under="ignore"):
        norm = float(np.ldexp(np.linalg.norm(mantissa), power))
    if not norm <= _LARGEST_NORM:
        raise OutOfRangeError(
            f"||beta_hat|| = {norm!r} is beyond {_LARGEST_NORM!r}: its square, "
            "the argument of omega~ (eq. 12), overflows float64; targets is too "
            "large relative to tangent_features"
        )
    if not callable(penalty):
        raise InvalidArgumentError(f"penalty={penalty!r} is not callable")
    try:
        value = omega_tilde(penalty, norm)
    except InvalidArgumentError as error:
        # ||beta_hat|| is a finite float in omega_tilde's range: the complaint
        # is about the penalty, named omega there.
        raise InvalidArgumentError(
            f"penalty={penalty!r:.80} is not accepted by omega_tilde: {error}"
        ) from error
    return float(value)


def _dual_inner_minimum(exponent: float, c: float) -> float:
    r""":math:`\min_{z\ge 0}|z-1|^p - c z^2` for p >= 2 (module docstring).

    ``-inf`` for p = 2 and :math:`c \ge 1`, where the minimum is unbounded.

    Raises:
      OutOfRangeError: p > 2 and the minimum (finite) is below the float64
        range, or c overflowed float64.
    """
    if c == 0.0:
        return 0.0  # at z = 1
    if exponent == 2.0:
        if c >= 1.0:
            return -math.inf
        w = c / (1.0 - c)
        return w * w - c * (1.0 + w) ** 2

    if c == math.inf:
        raise OutOfRangeError(
            "||J^T lambda||^2 overflows float64, and the minimum over z of "
            "|z-1|^p - ||J^T lambda||^2 z^2 (below -||J^T lambda||^2) is beyond "
            "the float64 range: rescale multiplier"
        )

    def stationarity(w: float) -> float:
        try:
            value = exponent * w ** (exponent - 1.0) - 2.0 * c * (1.0 + w)
        except OverflowError:
            value = math.nan
        if math.isfinite(value):
            return value
        # A term beyond float64: only the sign matters, so compare logarithms.
        difference = (
            math.log(exponent)
            + (exponent - 1.0) * math.log(w)
            - math.log(2.0)
            - math.log(c)
            - math.log1p(w)
        )
        return math.copysign(1.0, difference)

    # The root is below max(1, (4c/p)^(1/(p-2))); past 2^1022 it, and the
    # minimum (below -(1 - 2/p) c w^2 there), are beyond the float64 range.
    upper = 1.0
    for _ in range(_MAX_HALVINGS):
        if stationarity(upper) > 0.0:
            break
        if upper > _FLOAT_MAX / 4.0:
            raise OutOfRangeError(
                f"the minimizer of |z-1|^{exponent:g} - c z^2 with c = {c!r} is "
                "beyond the float64 range, and so is the minimum: rescale "
                "multiplier"
            )
        upper *= 2.0
    lower = 0.0
    for _ in range(_BISECTIONS):
        middle = 0.5 * (lower + upper)
        if stationarity(middle) <= 0.0:
            lower = middle
        else:
            upper = middle
        if upper - lower <= 4.0 * np.finfo(np.float64).eps * upper:
            break
    w = 0.5 * (lower + upper)
    try:
        value = float(w**exponent - c * (1.0 + w) ** 2)
    except OverflowError:
        value = math.nan
    if math.isfinite(value):
        return value
    # Terms beyond float64: at the root, w^p = (2c/p) w (1 + w), so the minimum
    # is -c (1 + w) (1 + (1 - 2/p) w), evaluated through its logarithm.
    log_magnitude = math.log(c) + math.log1p(w) + math.log1p((1.0 - 2.0 / exponent) * w)
    if log_magnitude >= _LOG_FLOAT_MAX:
        raise OutOfRangeError(
            f"the minimum of |z-1|^{exponent:g} - c z^2 with c = {c!r} is about "
            f"-exp({log_magnitude:.6g}), beyond the float64 range: rescale "
            "multiplier"
        )
    return -math.exp(log_magnitude)


def relaxed_dual_bound(
    tangent_features: ArrayLike,
    targets: ArrayLike,
    multiplier: ArrayLike,
    penalty: Penalty,
) -> float:
    r"""A Lagrangian lower bound on the minimum of problem (4).

    .. math:: \min_{JM\delta = r}\Omega_\omega(M) + \|\delta\|^2\ \ge\
              2\lambda^\top r + \min_{z\ge 0}\big(\omega(z)
              - \|J^\top\lambda\|^2 z^2\big)

    for every :math:`\lambda` (weak duality; module docstring). Let
    :math:`\lambda` be ``multiplier``.

    Args:
      tangent_features: J, (N, P), full row rank, N <= P.
      targets: r, (N,).
      multiplier: :math:`\lambda`, (N,).
      penalty: :math:`\omega = |z-1|^p` with :math:`p \ge 2`.

    Returns:
      The bound (``-inf`` for p = 2 when :math:`\|J^\top\lambda\| \ge 1`).

    Raises:
      InvalidArgumentError: bad shapes, J not of full row rank, or a penalty
        that is not a power penalty with p >= 2.
      OutOfRangeError: the bound (finite) is beyond the float64 range.

    Examples:
      With :math:`J = (1, 0)`, :math:`r = 1` the minimum is
      :math:`\tilde\omega(1)`; the optimal multiplier attains it:

      >>> from implicit_bias.numerics.tangent_features import squared_deviation
      >>> best = max(relaxed_dual_bound([[1.0, 0.0]], [1.0], [t], squared_deviation)
      ...            for t in np.linspace(0.0, 0.99, 100))
      >>> value = theorem_one_value([[1.0, 0.0]], [1.0], squared_deviation)
      >>> bool(best <= value + 1e-12 and value - best < 1e-3)
      True

    References:
      Problem (4) of adaptive-tangent-features.
    """
    features, residual, scale = _tangent_arguments(tangent_features, targets)
    weights = as_finite_array("multiplier", multiplier, ndim=1)
    if weights.shape != residual.shape:
        raise InvalidArgumentError(
            f"multiplier has shape {weights.shape}: it must match targets "
            f"{residual.shape}"
        )
    exponent = _power_exponent(penalty, "penalty")
    # J was divided by 2^scale (exactly): J^T lambda is that of the caller's J
    # once multiplied back.
    with np.errstate(over="ignore"):
        pulled = np.ldexp(features.T @ weights, scale)
        c = float(np.sum(np.square(pulled)))
    inner = _dual_inner_minimum(exponent, c)
    if inner == -math.inf:
        return -math.inf  # p = 2 and ||J^T lambda|| >= 1: unbounded below
    with np.errstate(over="ignore"):
        linear = 2.0 * float(weights @ residual)
    bound = linear + inner
    if not math.isfinite(bound):
        raise OutOfRangeError(
            f"the bound is beyond the float64 range (2 lambda^T r = {linear!r}, "
            f"inner minimum {inner!r}): rescale multiplier"
        )
    return bound
