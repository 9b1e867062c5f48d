r"""The effective penalties of adaptive-tangent-features in float64:
:math:`\tilde\omega` of eq. (12) and the join :math:`\oplus` of eq. (11),
vectorized, by closed form where the penalty carries one and otherwise by a
grid scan refined by section search; :func:`join_penalty` makes the join of
two penalties a :class:`Penalty` (see
:mod:`implicit_bias.numerics.tangent_features`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np
from numpy.typing import ArrayLike

from implicit_bias.errors import (
    InvalidArgumentError,
    OutOfRangeError,
)
from implicit_bias.numerics.arguments import as_finite_array
from implicit_bias.numerics.tangent_features.penalties import (
    Float64Array,
    Penalty,
    PenaltyFunction,
    _MAX_DOUBLINGS,
    _check_increasing,
    _check_join_operand,
    _check_penalty,
    _evaluate,
    _is_power,
    _mp_function,
    _name,
    _squared_absolute_join,
    _squared_absolute_tilde,
)
from implicit_bias.numerics.tangent_features.references import _join_mp_value

__all__ = [
    "join_penalty",
    "omega_join",
    "omega_tilde",
]

#: Grid points per input point in the scan for the global minimizer.
_GRID = 193
#: Interior points evaluated per step of the section search; a step keeps the
#: two sub-cells around the best, shrinking the bracket by 2/16 = 1/8.
_SECTION_POINTS = 15
#: Section-search steps: 8**-21 ~ 1.1e-19 of the bracket (two grid cells), at
#: most the 0.618**90 ~ 1.6e-19 of the 90 golden-section steps it replaces.
_SECTION_STEPS = 21
#: Smallest positive w = z - 1 of the scan: below ~1e-16 the argument 1 + w
#: rounds to 1 and nothing new is seen.
_SMALLEST_DEVIATION = 1e-16
#: The largest |v| whose square v^2 (the argument of eq. (12)) is finite.
_LARGEST_V = math.sqrt(float(np.finfo(np.float64).max))


def join_penalty(omega1: PenaltyFunction, omega2: PenaltyFunction) -> Penalty:
    r"""The joint penalty :math:`\omega_1\oplus\omega_2` (eq. (11)) as a Penalty.

    .. math:: (\omega_1\oplus\omega_2)(v) = \min_{1\le z\le v}\
              \omega_1(z) + \omega_2(v/z)

    Eq. (11) of adaptive-tangent-features.

    Defined on :math:`[1, \infty)` (Proposition 4); its :math:`\tilde\omega`
    (eq. (12)) is the effective penalty of a layer in Theorem 2, eq. (16). The
    Figure 2 penalty :math:`\omega_3 = \omega_1\oplus\omega_2` is
    ``join_penalty(squared_deviation, absolute_deviation)`` and carries the
    closed form of its :math:`\tilde\omega` (see
    :func:`implicit_bias.theory.tangent_features.squared_absolute_tilde_parametric`).

    Args:
      omega1, omega2: vectorized callables (a :class:`Penalty` or a plain
        function), real-valued, strictly quasi-convex and minimized at
        :math:`\omega_i(1) = 0`; each is evaluated on a grid of
        :math:`[1, 2]` (``_JOIN_GRID``) before it is accepted.

    Returns:
      A :class:`Penalty` on :math:`[1, \infty)`: calling it, or its
      ``function`` or ``mp``, below 1 raises InvalidArgumentError naming z.

    Raises:
      InvalidArgumentError: an omega is not callable, complex-valued, not
        finite, negative, not 0 at 1, decreasing on the grid, or 0 at 2
        (constant near 1, so not strictly quasi-convex).

    Examples:
      >>> from implicit_bias.numerics.tangent_features import (
      ...     absolute_deviation,
      ...     squared_deviation,
      ... )
      >>> joint = join_penalty(squared_deviation, absolute_deviation)
      >>> float(joint(1.0))
      0.0
    """
    _check_join_operand(omega1, "omega1")
    _check_join_operand(omega2, "omega2")

    def function(z: Float64Array) -> Float64Array:
        below = z < 1.0
        if below.any():
            raise InvalidArgumentError(
                f"z={float(z[below].flat[0])!r} is below 1: the joint penalty "
                "(eq. (11)) is defined on [1, inf)"
            )
        # inf beyond the float64 range, as Penalty documents (omega_join raises).
        return _join_values(omega1, omega2, z)

    mp1, mp2 = _mp_function(omega1), _mp_function(omega2)

    def function_mp(z: Any) -> Any:
        if z < 1:
            raise InvalidArgumentError(
                f"z={mpmath.nstr(z, 17)} is below 1: the joint penalty (eq. (11)) "
                "is defined on [1, inf)"
            )
        return _join_mp_value(mp1, mp2, z)

    pair = (_is_power(omega1, 2.0) and _is_power(omega2, 1.0)) or (
        _is_power(omega1, 1.0) and _is_power(omega2, 2.0)
    )
    return Penalty(
        name=f"({_name(omega1)}) (+) ({_name(omega2)})",
        function=function,
        mp=function_mp,
        tilde=_squared_absolute_tilde if pair else None,
    )


# --- omega tilde


def _upper_deviation(omega: PenaltyFunction, u: Float64Array) -> Float64Array:
    r"""Some :math:`w_{\max}\ge 1` with :math:`\omega(1+w_{\max})\ge u`, by doubling."""
    w_max = np.ones_like(u)
    for _ in range(_MAX_DOUBLINGS):
        short = _evaluate(omega, 1.0 + w_max, "omega") < u
        if not short.any():
            return w_max
        w_max = np.where(short, 2.0 * w_max, w_max)
    raise InvalidArgumentError(
        f"omega stays below v^2 = {float(u[short].flat[0])!r} up to z = 2^"
        f"{_MAX_DOUBLINGS}: the minimum of eq. (12) is then not attained at a "
        "finite z (omega must grow without bound, or at least past v^2)"
    )


def _section_minimize(
    objective: Callable[[Float64Array], Float64Array],
    lower: Float64Array,
    upper: Float64Array,
) -> tuple[Float64Array, Float64Array]:
    """Section search on every bracket at once; returns (argmin, min) over the samples.

    Each step evaluates ``_SECTION_POINTS`` equally spaced interior points of
    each row's bracket ``[a, b]`` (one call of ``objective`` on an array of
    shape ``(n, _SECTION_POINTS)``) and keeps ``[x_{k-1}, x_{k+1}]`` around the
    best sample ``x_k`` (``x_{-1} = a``, ``x_{K} = b``): for an objective
    unimodal on the bracket the minimizer stays inside, as in golden section.
    """
    fractions = np.arange(1, _SECTION_POINTS + 1) / (_SECTION_POINTS + 1.0)
    rows = np.arange(lower.size)
    a, b = lower.copy(), upper.copy()
    best_x = np.empty_like(a)
    best_f = np.full_like(a, np.inf)
    for _ in range(_SECTION_STEPS):
        points = a[:, None] + (b - a)[:, None] * fractions
        values = objective(points)
        k = np.argmin(values, axis=1)
        found = values[rows, k]
        better = found < best_f
        best_x = np.where(better, points[rows, k], best_x)
        best_f = np.where(better, found, best_f)
        ends = np.concatenate([a[:, None], points, b[:, None]], axis=1)
        a, b = ends[rows, k], ends[rows, k + 2]
    return best_x, best_f


def _scan_and_refine(
    objective: Callable[[Float64Array], Float64Array], grid: Float64Array
) -> Float64Array:
    """Minimum over each row of ``grid``, refined by section search near its best point.

    ``objective`` maps an array of parameters of shape ``(n, k)`` (row i for
    point i) to values of the same shape; ``grid`` is ``(n, G)``, increasing.
    """
    values = objective(grid)
    best = np.argmin(values, axis=1)
    rows = np.arange(grid.shape[0])
    lower = grid[rows, np.maximum(best - 1, 0)]
    upper = grid[rows, np.minimum(best + 1, grid.shape[1] - 1)]

    _, refined = _section_minimize(objective, lower, upper)
    return np.minimum(values[rows, best], refined)


def _deviation_grid(w_max: Float64Array) -> Float64Array:
    """w = 0 and a geometric grid from _SMALLEST_DEVIATION up to w_max, per point."""
    fractions = np.linspace(0.0, 1.0, _GRID - 1)[None, :]
    log_low = math.log(_SMALLEST_DEVIATION)
    log_high = np.log(w_max)[:, None]
    geometric = np.exp(log_low + fractions * (log_high - log_low))
    return np.concatenate([np.zeros((w_max.size, 1)), geometric], axis=1)


def omega_tilde(omega: PenaltyFunction, v: ArrayLike) -> Float64Array:
    r"""The scalar effective penalty of eq. (12) of adaptive-tangent-features.

    .. math:: \tilde\omega(v) = \min_{z\ge 1}\ \omega(z) + \frac{v^2}{z^2}

    Args:
      omega: :math:`\omega`, a vectorized callable (float64 array in, array of
        the same shape out), strictly quasi-convex and minimized at
        :math:`\omega(1) = 0`; a :class:`Penalty` with a closed form uses it.
      v: where to evaluate, any finite reals (:math:`\tilde\omega` depends on
        :math:`v^2` only).

    Returns:
      :math:`\tilde\omega(v)`, float64 of v's shape, to ~1e-12 relative (see
      the module docstring).

    Raises:
      InvalidArgumentError: v not finite, or :math:`v^2` not finite in float64
        (:math:`|v| > 1.34\cdot 10^{154}`); omega(1) != 0, omega negative, not
        finite (a :class:`Penalty`'s +inf, its value beyond the float64
        range, is allowed), or seen decreasing on [1, inf); omega stays below
        :math:`v^2` on all of [1, 2^1000] (the minimum is then not attained).

    Examples:
      >>> from implicit_bias.numerics.tangent_features import absolute_deviation
      >>> bool(np.isclose(omega_tilde(absolute_deviation, 2.0), 1.5 * 2 - 1))
      True

    References:
      Eq. (12) of adaptive-tangent-features; closed forms from
      :mod:`implicit_bias.theory.tangent_features`.
    """
    v_array = as_finite_array("v", v)
    too_large = np.abs(v_array) > _LARGEST_V
    if too_large.any():
        raise InvalidArgumentError(
            f"v={float(v_array[too_large].flat[0])!r} is too large: v^2 overflows "
            f"float64 (|v| must be at most {_LARGEST_V!r})"
        )
    _check_penalty(omega, "omega")
    u = np.square(v_array)
    if isinstance(omega, Penalty) and omega.tilde is not None:
        return np.asarray(omega.tilde(u), dtype=np.float64)
    flat = u.ravel()
    result = np.zeros_like(flat)
    positive = flat > 0
    if positive.any():
        result[positive] = _omega_tilde_generic(omega, flat[positive])
    return result.reshape(u.shape)


def _omega_tilde_generic(omega: PenaltyFunction, u: Float64Array) -> Float64Array:
    w_max = _upper_deviation(omega, u)
    grid = _deviation_grid(w_max)
    _check_increasing(_evaluate(omega, 1.0 + grid, "omega"), 1.0 + grid, "omega")

    def objective(w: Float64Array) -> Float64Array:
        u_rows = u.reshape((-1,) + (1,) * (w.ndim - 1))
        return _evaluate(omega, 1.0 + w, "omega") + u_rows / np.square(1.0 + w)

    return _scan_and_refine(objective, grid)


# --- the join


def omega_join(
    omega1: PenaltyFunction, omega2: PenaltyFunction, v: ArrayLike
) -> Float64Array:
    r"""The joint penalty of eq. (11) of adaptive-tangent-features.

    .. math:: (\omega_1\oplus\omega_2)(v) = \min_{1\le z\le v}\
              \omega_1(z) + \omega_2\!\left(\frac{v}{z}\right),\qquad v\ge 1.

    The pair (:data:`squared_deviation`, :data:`absolute_deviation`), in
    either order, uses its closed form; other pairs are minimized over
    :math:`t = \log z/\log v \in [0, 1]` (module docstring).

    Args:
      omega1, omega2: vectorized callables, strictly quasi-convex and minimized
        at :math:`\omega_i(1) = 0`.
      v: where to evaluate, finite reals :math:`\ge 1`.

    Returns:
      :math:`(\omega_1\oplus\omega_2)(v)`, float64 of v's shape; relative error
      ~1e-12 for :math:`v - 1 \gtrsim 10^{-4}`, absolute error of order
      :math:`\varepsilon\,(v-1)\,|\omega'|` nearer 1 (the arguments
      :math:`z, v/z` round at :math:`\varepsilon`).

    Raises:
      InvalidArgumentError: v < 1 or not finite; an omega breaks the
        assumptions where it is seen (see :func:`omega_tilde`).
      OutOfRangeError: the joint penalty is beyond the float64 range (a
        :class:`Penalty` operand is inf, its documented value beyond float64,
        on the whole scan), e.g. :math:`(z-1)^2\oplus|z-1|^3` at
        :math:`v = 10^{300}`, about :math:`v^{1.2}`.

    Examples:
      >>> from implicit_bias.numerics.tangent_features import (
      ...     absolute_deviation,
      ...     squared_deviation,
      ... )
      >>> bool(np.isclose(omega_join(squared_deviation, absolute_deviation, 1.2),
      ...                 0.2**2))
      True

    References:
      Eq. (11) of adaptive-tangent-features (Proposition 4 for its properties).
    """
    v_array = as_finite_array("v", v)
    below = v_array < 1.0
    if below.any():
        raise InvalidArgumentError(
            f"v={float(v_array[below].flat[0])!r} is below 1: the joint penalty "
            "(eq. (11)) is defined on [1, inf)"
        )
    _check_penalty(omega1, "omega1")
    _check_penalty(omega2, "omega2")
    values = _join_values(omega1, omega2, v_array)
    beyond = np.isinf(values)
    if beyond.any():
        raise OutOfRangeError(
            f"the joint penalty at v={float(v_array[beyond].flat[0])!r} is beyond "
            "the float64 range: omega1(z) + omega2(v/z) overflows at every "
            "scanned z of [1, v]"
        )
    return values


def _join_values(
    omega1: PenaltyFunction, omega2: PenaltyFunction, v_array: Float64Array
) -> Float64Array:
    """Eq. (11) at checked v >= 1, inf where it is beyond the float64 range."""
    pair = (_is_power(omega1, 2.0) and _is_power(omega2, 1.0)) or (
        _is_power(omega1, 1.0) and _is_power(omega2, 2.0)
    )
    if pair:
        return np.asarray(_squared_absolute_join(v_array), dtype=np.float64)
    flat = v_array.ravel()
    result = np.zeros_like(flat)
    above = flat > 1.0
    if above.any():
        result[above] = _omega_join_generic(omega1, omega2, flat[above])
    return result.reshape(v_array.shape)


def _omega_join_generic(
    omega1: PenaltyFunction, omega2: PenaltyFunction, v: Float64Array
) -> Float64Array:
    log_v = np.log(v)
    grid = np.broadcast_to(np.linspace(0.0, 1.0, _GRID), (v.size, _GRID))
    z_grid = np.exp(grid * log_v[:, None])
    _check_increasing(_evaluate(omega1, z_grid, "omega1"), z_grid, "omega1")
    _check_increasing(_evaluate(omega2, z_grid, "omega2"), z_grid, "omega2")

    def objective(t: Float64Array) -> Float64Array:
        log_rows = log_v.reshape((-1,) + (1,) * (t.ndim - 1))
        z = np.exp(t * log_rows)
        z_other = np.exp((1.0 - t) * log_rows)
        return _evaluate(omega1, z, "omega1") + _evaluate(omega2, z_other, "omega2")

    return _scan_and_refine(objective, np.ascontiguousarray(grid))
