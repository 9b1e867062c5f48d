r"""mpmath references of the effective penalties of adaptive-tangent-features,
:math:`\tilde\omega` (eq. (12)) and :math:`\oplus` (eq. (11)), at a stated
working precision, for the tests of the float64 evaluators.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import mpmath

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.arguments import (
    MAX_DPS,
    check_integer,
    check_mp_real,
)
from implicit_bias.numerics.tangent_features.penalties import (
    _MAX_DOUBLINGS,
    _ZERO_AT_ONE,
    _mp_function,
)

__all__ = [
    "omega_join_mp",
    "omega_tilde_mp",
]
#: Scan points of the mpmath references.
_MP_GRID = 300


# --- mpmath references


def _golden_minimize_mp(
    objective: Callable[[Any], Any], lower: Any, upper: Any, steps: int
) -> Any:
    a, b = lower, upper
    ratio = (mpmath.sqrt(5) - 1) / 2
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = objective(c), objective(d)
    for _ in range(steps):
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = objective(c)
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = objective(d)
    return min(fc, fd)


def _scan_and_refine_mp(
    objective: Callable[[Any], Any], grid: list[Any], steps: int
) -> Any:
    values = [objective(x) for x in grid]
    best = min(range(len(grid)), key=values.__getitem__)
    lower = grid[max(best - 1, 0)]
    upper = grid[min(best + 1, len(grid) - 1)]
    return min(values[best], _golden_minimize_mp(objective, lower, upper, steps))


def _golden_steps(dps: int) -> int:
    # The value is quadratic in the location error: locate to dps/2 + 5 digits
    # of the cell, each step gaining log10(1/0.618) = 0.209 digits.
    return math.ceil((dps / 2 + 5) / 0.2089) + 10


def _check_dps(dps: int) -> int:
    # Below 15 digits the scan cannot resolve a float64-accurate minimizer.
    return check_integer(
        "dps",
        dps,
        min_value=15,
        max_value=MAX_DPS,
        meaning="the working precision in decimal digits",
    )


def _mp_value(function: Callable[[Any], Any], z: Any, name: str) -> Any:
    value = mpmath.mpf(function(z))
    if not mpmath.isfinite(value):
        raise InvalidArgumentError(
            f"{name}({mpmath.nstr(z, 10)}) = {value} is not finite: {name} must be "
            "finite on [1, inf)"
        )
    return value


def omega_tilde_mp(
    omega: Callable[[Any], Any], v: float | Any, *, dps: int = 50
) -> Any:
    r"""Reference :math:`\tilde\omega(v)` (eq. (12)) by mpmath minimization.

    .. math:: \tilde\omega(v) = \min_{z\ge 1}\ \omega(z) + \frac{v^2}{z^2}

    Eq. (12) of adaptive-tangent-features, for the tests of :func:`omega_tilde`.

    Examples:
      >>> from implicit_bias.numerics.tangent_features import absolute_deviation
      >>> float(omega_tilde_mp(absolute_deviation, 2.0, dps=20))  # 1.5 (2v^2)^(1/3)-1
      2.0

    ``omega`` is called with mpmath numbers (a :class:`Penalty` uses its
    ``mp``); :math:`z_{\max}` by doubling, a scan of 300 geometric points of
    :math:`w = z - 1` from :math:`10^{-dps}` to :math:`w_{\max}`, then golden section at
    ``dps + 10`` digits. Accurate to about ``dps`` digits when the minimizer
    lies in the best scanned cell.

    Returns:
      an ``mpmath.mpf``.
    """
    dps = _check_dps(dps)
    function = _mp_function(omega)
    value = check_mp_real("v", v, meaning="the argument v of the effective penalty")
    with mpmath.workdps(dps + 10):
        if abs(_mp_value(function, mpmath.mpf(1), "omega")) > _ZERO_AT_ONE:
            raise InvalidArgumentError("omega(1) != 0: omega must vanish at 1")
        u = value**2
        if u == 0:
            return mpmath.mpf(0)
        w_max = mpmath.mpf(1)
        for _ in range(_MAX_DOUBLINGS):
            if _mp_value(function, 1 + w_max, "omega") >= u:
                break
            w_max *= 2
        else:
            raise InvalidArgumentError(
                "omega stays below v^2 on [1, 2^1000]: the minimum is not attained"
            )

        def objective(w: Any) -> Any:
            return _mp_value(function, 1 + w, "omega") + u / (1 + w) ** 2

        # Geometric from 10^-dps (where 1 + w still differs from 1) to w_max;
        # integer powers of one step are exact to the working precision and
        # cost half of a fractional power each.
        low = mpmath.mpf(10) ** (-dps)
        step = (w_max / low) ** (1 / mpmath.mpf(_MP_GRID - 1))
        grid = [mpmath.mpf(0)] + [low * step**k for k in range(_MP_GRID)]
        return +_scan_and_refine_mp(objective, grid, _golden_steps(dps))


def _join_mp_value(
    function1: Callable[[Any], Any],
    function2: Callable[[Any], Any],
    v: Any,
    dps: int = 50,
) -> Any:
    if v == 1:
        return _mp_value(function1, v, "omega1") + _mp_value(function2, v, "omega2")
    log_v = mpmath.log(v)

    def objective(t: Any) -> Any:
        z = mpmath.exp(t * log_v)
        return _mp_value(function1, z, "omega1") + _mp_value(function2, v / z, "omega2")

    grid = [mpmath.mpf(k) / (_MP_GRID - 1) for k in range(_MP_GRID)]
    return _scan_and_refine_mp(objective, grid, _golden_steps(dps))


def omega_join_mp(
    omega1: Callable[[Any], Any],
    omega2: Callable[[Any], Any],
    v: float | Any,
    *,
    dps: int = 50,
) -> Any:
    r"""Reference :math:`(\omega_1\oplus\omega_2)(v)` (eq. (11)) by mpmath minimization.

    .. math:: (\omega_1\oplus\omega_2)(v) = \min_{1\le z\le v}\
              \omega_1(z) + \omega_2(v/z)

    Eq. (11) of adaptive-tangent-features, for the tests of :func:`omega_join`.

    Examples:
      >>> from implicit_bias.numerics.tangent_features import (
      ...     absolute_deviation,
      ...     squared_deviation,
      ... )
      >>> value = omega_join_mp(squared_deviation, absolute_deviation, 1.2, dps=20)
      >>> round(float(value), 12)  # (v - 1)^2 up to v = (1 + sqrt 3)/2
      0.04

    A scan of 300 points of :math:`t = \log z/\log v` and golden section at
    ``dps + 10`` digits; the omegas are called with mpmath numbers.

    Returns:
      an ``mpmath.mpf``.
    """
    dps = _check_dps(dps)
    function1, function2 = _mp_function(omega1), _mp_function(omega2)
    value = check_mp_real("v", v, meaning="the argument of the joint penalty, >= 1")
    with mpmath.workdps(dps + 10):
        if value < 1:
            raise InvalidArgumentError(
                f"v={v!r} is not a finite number >= 1: the joint penalty "
                "(eq. (11)) is defined on [1, inf)"
            )
        for function, name in ((function1, "omega1"), (function2, "omega2")):
            if abs(_mp_value(function, mpmath.mpf(1), name)) > _ZERO_AT_ONE:
                raise InvalidArgumentError(f"{name}(1) != 0: {name} must vanish at 1")
        return +_join_mp_value(function1, function2, value, dps)
