r"""Penalties :math:`\omega` of adaptive-tangent-features (eq. (6)): the
:class:`Penalty` record with its checked callables, the named family
:math:`|z-1|^p` with the closed forms of :math:`\tilde\omega`, and the checks
of a penalty's arguments and values (see
:mod:`implicit_bias.numerics.tangent_features`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import mpmath
import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import (
    ConvergenceError,
    InvalidArgumentError,
)
from implicit_bias.numerics.arguments import (
    as_finite_array,
    check_mp_real,
    check_nonnegative,
    check_real,
)

__all__ = [
    "Penalty",
    "absolute_deviation",
    "power_deviation",
    "squared_deviation",
]

Float64Array = NDArray[np.float64]
PenaltyFunction = Callable[[Float64Array], ArrayLike]
#: Doublings of z_max before giving up: 2**1000 is near the float64 range.
_MAX_DOUBLINGS = 1000
#: |omega(1)| must not exceed this (the minimum value 0, up to rounding of a
#: formula evaluated at 1).
_ZERO_AT_ONE = 1e-14
#: Newton steps on the named families' stationarity equations; monotone
#: quadratic convergence needs ~10 from the starting bounds, 200 is a guard.
_NEWTON_STEPS = 200
_EPS = float(np.finfo(np.float64).eps)
#: Where join_penalty evaluates each omega before accepting it: 1 and
#: 1 + 2^-k, k = 10, ..., 0 (no power |z-1|^p overflows on [1, 2]).
_JOIN_GRID = np.concatenate([[1.0], 1.0 + np.geomspace(2.0**-10, 1.0, 11)])


@dataclass(frozen=True)
class _ArrayMethod:
    r"""A float64 callable of a :class:`Penalty` behind the check of its argument.

    The argument (any real array-like) becomes a finite float64 array, at
    least 0 where ``nonnegative``; the values are float64 of its shape.
    Complex values, NaN or -inf of the wrapped callable are refused by name:
    +inf is a value beyond the float64 range, which :class:`Penalty` documents.
    """

    raw: Callable[[Float64Array], ArrayLike]
    argument: str
    meaning: str
    nonnegative: bool = False
    #: ``<field> of <penalty name>``, for messages; not part of equality, so a
    #: penalty rebuilt from another's callables equals one built from the same.
    label: str = field(default="", compare=False)

    def __call__(self, x: ArrayLike) -> Float64Array:
        points = as_finite_array(self.argument, x)
        if self.nonnegative:
            check_nonnegative(self.argument, points, self.meaning)
        # |z - 1|^p of a finite z may exceed float64: inf is then the
        # documented value (a penalty larger than any float), not an error;
        # NaN and -inf, warned about or not, are refused below.
        with np.errstate(all="ignore"):
            values = _penalty_values(self.label, self.raw(points), points)
        bad = np.isnan(values) | (values == -np.inf)
        if bad.any():
            raise InvalidArgumentError(
                f"{self.label} is {float(values[bad].flat[0])!r} at "
                f"{self.argument}={float(points[bad].flat[0])!r}: a penalty's "
                "values are real numbers (+inf only beyond the float64 range)"
            )
        return values


@dataclass(frozen=True)
class _MpMethod:
    """The mpmath callable of a :class:`Penalty` behind the check of its argument.

    The argument is a finite real number (converted exactly, see
    :func:`~implicit_bias.numerics.arguments.check_mp_real`); the value is a
    finite ``mpmath.mpf`` (mpmath does not overflow, so inf is an error here).
    """

    raw: Callable[[Any], Any]
    label: str = field(default="", compare=False)

    def __call__(self, z: Any) -> Any:
        point = check_mp_real("z", z, meaning="where the penalty is evaluated")
        value = self.raw(point)
        if isinstance(value, mpmath.mpc | complex | np.complexfloating):
            raise InvalidArgumentError(
                f"{self.label} is complex at z={mpmath.nstr(point, 17)}: a "
                "penalty's values are real numbers"
            )
        try:
            number = mpmath.mpf(value)
        except (TypeError, ValueError) as error:
            raise InvalidArgumentError(
                f"{self.label} returned {value!r} at z={mpmath.nstr(point, 17)}, "
                "not a real number"
            ) from error
        if not mpmath.isfinite(number):
            raise InvalidArgumentError(
                f"{self.label} is {number} at z={mpmath.nstr(point, 17)}: a "
                "penalty's mpmath values are finite real numbers"
            )
        return number


def _raw(function: Callable[..., Any]) -> Callable[..., Any]:
    """The callable a :class:`Penalty` wraps (the argument itself otherwise)."""
    if isinstance(function, _ArrayMethod | _MpMethod):
        return function.raw
    return function


def _penalty_values(name: str, values: Any, z: Float64Array) -> Float64Array:
    """Values of a penalty at z as float64 of z's shape; refuses complex or non-real.

    Values of another shape are broadcast to z's (a constant), or refused (a
    callable that is not elementwise).
    """
    if np.iscomplexobj(values):
        raise InvalidArgumentError(
            f"{name} returned complex values: a penalty is real-valued"
        )
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise InvalidArgumentError(
            f"{name} returned {type(values).__name__} values that are not real "
            "numbers: a penalty is real-valued"
        ) from error
    if array.shape != z.shape:
        try:
            array = np.broadcast_to(array, z.shape).astype(np.float64)
        except ValueError as error:
            raise InvalidArgumentError(
                f"{name} returned shape {array.shape} for input of shape {z.shape}: "
                f"{name} must be vectorized (elementwise)"
            ) from error
    return array


@dataclass(frozen=True)
class Penalty:
    r"""A penalty :math:`\omega` with optional closed forms of :math:`\tilde\omega`.

    Calling it evaluates :math:`\omega` (vectorized, float64) at finite real
    ``z``; where :math:`\omega(z)` is beyond the float64 range it returns inf.

    Attributes:
      name: the formula, for messages and reprs (a non-empty string).
      function: :math:`\omega` on float64 arrays (elementwise).
      mp: :math:`\omega` at an mpmath number (used by the references).
      tilde: :math:`\tilde\omega` of eq. (12) in closed form as a function of
        :math:`u = v^2 \ge 0`, or None (then it is minimized numerically).
      exponent: p in :math:`(0, \infty)` for the family :math:`|z-1|^p`, else
        None.

    The callables are stored behind the checks of their arguments, so that
    every call of a field is checked like a call of the penalty: ``function``
    and ``tilde`` take any real array-like (a float, a list, an array), finite,
    and ``u >= 0`` for ``tilde``, and return float64 arrays of its shape;
    ``mp`` takes one finite real number (no complex, no list) and returns a
    finite ``mpmath.mpf``. Complex values, NaN or -inf of a callable raise
    :class:`~implicit_bias.errors.InvalidArgumentError` naming the field.

    .. math:: \omega\colon \mathbb{R}\to\mathbb{R},\quad
              \omega(1) = 0 = \min\omega \ \text{(strictly quasi-convex)}

    Eq. (6) of adaptive-tangent-features builds the spectral regularizer from it.

    Raises:
      InvalidArgumentError: ``name`` is not a non-empty string, ``function``
        or ``mp`` is not callable, ``tilde`` neither callable nor None, or
        ``exponent`` neither a finite real number > 0 nor None.

    Examples:
      >>> float(squared_deviation(3.0)), squared_deviation.exponent
      (4.0, 2.0)
      >>> squared_deviation.tilde([0.0, 2.0]).dtype
      dtype('float64')
    """

    name: str
    function: PenaltyFunction = field(repr=False)
    mp: Callable[[Any], Any] = field(repr=False)
    tilde: Callable[[Float64Array], Float64Array] | None = field(
        default=None, repr=False
    )
    exponent: float | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise InvalidArgumentError(
                f"name={self.name!r} is not a non-empty string: name is the "
                "penalty's formula, shown in messages"
            )
        for name in ("function", "mp"):
            if not callable(getattr(self, name)):
                raise InvalidArgumentError(
                    f"{name}={getattr(self, name)!r} is not callable: {name} is "
                    "the penalty omega"
                )
        if self.tilde is not None and not callable(self.tilde):
            raise InvalidArgumentError(
                f"tilde={self.tilde!r} is neither callable nor None: tilde is the "
                "closed form of omega~ (eq. (12)), None if there is none"
            )
        if self.exponent is not None:
            if isinstance(self.exponent, bool) or not isinstance(
                self.exponent, int | float | np.integer | np.floating
            ):
                raise InvalidArgumentError(
                    f"exponent={self.exponent!r} is neither a real number nor "
                    "None: exponent is p of the family |z-1|^p"
                )
            # inf, NaN and p <= 0 were accepted here (only the descents that
            # read the exponent refused them): power_deviation's domain.
            object.__setattr__(
                self,
                "exponent",
                check_real(
                    "exponent",
                    self.exponent,
                    min_value=0.0,
                    exclusive=True,
                    meaning="p of the family |z-1|^p, in (0, inf), or None",
                ),
            )
        object.__setattr__(
            self,
            "function",
            _ArrayMethod(
                _raw(self.function),
                "z",
                "where the penalty is evaluated",
                label=f"function of the penalty {self.name}",
            ),
        )
        object.__setattr__(
            self, "mp", _MpMethod(_raw(self.mp), label=f"mp of the penalty {self.name}")
        )
        if self.tilde is not None:
            object.__setattr__(
                self,
                "tilde",
                _ArrayMethod(
                    _raw(self.tilde),
                    "u",
                    "v^2, the argument of the closed form of eq. (12)",
                    nonnegative=True,
                    label=f"tilde of the penalty {self.name}",
                ),
            )

    def __call__(self, z: ArrayLike) -> Float64Array:
        r""":math:`\omega(z)`, float64 of z's shape, at any finite real array-like z.

        Where :math:`\omega(z)` is beyond the float64 range it returns inf.
        """
        # __post_init__ stored the function behind its argument check.
        return cast(_ArrayMethod, self.function)(z)


def _power_tilde(p: float) -> Callable[[Float64Array], Float64Array]:
    r"""Closed form of :math:`\tilde\omega` for :math:`|z-1|^p`, a function of u."""

    def tilde(u: Float64Array) -> Float64Array:
        if p == 1.0:
            return _absolute_tilde(u)
        w = _power_stationary_deviation(p, u)
        return w**p + u / (1.0 + w) ** 2

    return tilde


def _absolute_tilde(u: Float64Array) -> Float64Array:
    r"""Closed form of :math:`\tilde\omega` for :math:`|z-1|`, a function of u."""
    # (2u)^(1/3) = 2 (u/4)^(1/3): u/4 is exact and cannot overflow, 2u can.
    cube_root = 2.0 * np.cbrt(u / 4.0)
    return np.where(u > 0.5, 1.5 * cube_root - 1.0, u)


def _power_stationary_deviation(p: float, u: Float64Array) -> Float64Array:
    r"""The minimizing :math:`w = z^*-1` of :math:`w^p + u/(1+w)^2` (p != 1).

    In :math:`s = \log w` the stationarity :math:`p w^{p-1}(1+w)^3 = 2u` reads
    :math:`h(s) = \log p + (p-1)s + 3\log(1+e^s) - \log 2u = 0`, with h convex.
    Both :math:`p w^{p-1}` and :math:`p w^{p+2}` are below the left side, so
    the smaller of their roots lies right of the largest root of h, and Newton's
    method from there decreases monotonically to it. For :math:`p < 1`, h first
    decreases (to its minimum at :math:`w_c = (1-p)/(2+p)`, where Newton's
    method stops when h has no root); when the objective there is not below
    that of :math:`w = 0`, the minimizer is :math:`w = 0`.
    """
    w = np.zeros_like(u)
    positive = u > 0
    if not positive.any():
        return w
    # log(2u/p) as a sum of logs: 2u/p overflows for large u or small p.
    log_target = np.log(u[positive]) + (math.log(2.0) - math.log(p))
    start = log_target / (p + 2.0)
    if p > 1.0:
        start = np.minimum(start, log_target / (p - 1.0))
    else:
        critical = math.log((1.0 - p) / (2.0 + p))
        start = np.maximum(start, critical)
    s = start

    def h(s_: Float64Array) -> Float64Array:
        return (p - 1.0) * s_ + 3.0 * np.logaddexp(0.0, s_) - log_target

    for _ in range(_NEWTON_STEPS):
        # 3 * logistic(s), without overflow for very negative s.
        slope = (p - 1.0) + 1.5 * (1.0 + np.tanh(s / 2.0))
        value = h(s)
        step = np.where(slope > 0, value / np.where(slope > 0, slope, 1.0), 0.0)
        step = np.maximum(step, 0.0)  # monotone from the right; guards rounding
        s = s - step
        if np.all(step <= 4.0 * _EPS * np.maximum(1.0, np.abs(s))):
            break
    else:
        raise ConvergenceError(
            f"Newton's method on the stationarity of |z-1|^{p:g} did not converge "
            f"in {_NEWTON_STEPS} steps; use omega_tilde with a plain callable"
        )
    interior = np.exp(s)
    if p < 1.0:
        # Any w gives an objective >= the minimum, so comparing with w = 0
        # (value u) picks the global minimizer, also where h has no root and
        # Newton stopped at h's minimum.
        u_pos = u[positive]
        interior_value = interior**p + u_pos / (1.0 + interior) ** 2
        interior = np.where(interior_value < u_pos, interior, 0.0)
    w[positive] = interior
    return w


def power_deviation(p: float) -> Penalty:
    r"""The penalty :math:`\omega(z) = |z-1|^p`, :math:`p > 0`, with its closed form.

    .. math:: \omega(z) = |z-1|^p

    Section 3 of adaptive-tangent-features ("a simple example of a choice for
    :math:`\omega`"). :math:`\tilde\omega` is computed from the stationarity
    condition :math:`p\,(z-1)^{p-1} z^3 = 2v^2` (see the module docstring).

    Args:
      p: the exponent, a finite number > 0.

    Returns:
      The :class:`Penalty`, usable wherever an omega is accepted.

    Examples:
      >>> from implicit_bias.numerics.tangent_features import omega_tilde
      >>> bool(np.isclose(omega_tilde(power_deviation(2.0), 0.5),
      ...                 omega_tilde(lambda z: (z - 1) ** 2, 0.5), rtol=1e-10))
      True
    """
    exponent = check_real(
        "p",
        p,
        min_value=0.0,
        exclusive=True,
        meaning="the exponent of |z-1|^p, in (0, inf): strictly quasi-convex with "
        "minimum at 1 only for p > 0",
    )

    def function(z: Float64Array) -> Float64Array:
        return np.abs(z - 1.0) ** exponent

    def function_mp(z: Any) -> Any:
        return abs(z - 1) ** mpmath.mpf(exponent)

    return Penalty(
        name=f"|z-1|^{exponent:g}",
        function=function,
        mp=function_mp,
        tilde=_power_tilde(exponent),
        exponent=exponent,
    )


#: :math:`\omega(z) = (z-1)^2`, plotted in Figure 2 as :math:`\omega_1`.
squared_deviation = power_deviation(2.0)
#: :math:`\omega(z) = |z-1|`, plotted in Figure 2 as :math:`\omega_2`.
absolute_deviation = power_deviation(1.0)


def _squared_absolute_join(v: Float64Array) -> Float64Array:
    r""":math:`((z-1)^2\oplus|z-1|)(v)`: the cubic :math:`2z^2(z-1) = v` above the kink.

    The objective :math:`(z-1)^2 + v/z - 1` is convex in z; its derivative at
    :math:`z = v` is :math:`2(v-1) - 1/v`, non-positive up to
    :math:`v = (1+\sqrt3)/2`, where the minimum is the end point :math:`z = v`.
    Above, Newton's method on the convex increasing :math:`g(z) = z^3-z^2-v/2`
    starts right of its root at :math:`1 + (v/2)^{1/3}` and decreases to it;
    g is formed with :math:`v/2`, as :math:`2z^2(z-1)` overflows right of the
    root for v near the largest float.
    """
    kink = (1.0 + math.sqrt(3.0)) / 2.0
    half = v / 2.0
    z = 1.0 + np.cbrt(half)
    for _ in range(_NEWTON_STEPS):
        g = z**2 * (z - 1.0) - half
        step = np.maximum(g / (3.0 * z**2 - 2.0 * z), 0.0)
        z = z - step
        if np.all(step <= 4.0 * _EPS * z):
            break
    interior = (z - 1.0) ** 2 + (v / z - 1.0)
    # min(v, kink): (v - 1)^2 is only used below the kink and would overflow
    # for v beyond ~1e154.
    return np.where(v <= kink, (np.minimum(v, kink) - 1.0) ** 2, interior)


def _squared_absolute_tilde(u: Float64Array) -> Float64Array:
    r""":math:`\tilde\omega_3` of Figure 2's :math:`\omega_3 = (z-1)^2\oplus|z-1|`.

    The outer stationarity is increasing in the outer variable, so the
    objective is unimodal. While its minimizer lies below the join's kink
    :math:`k = (1+\sqrt3)/2` (:math:`u \le k^3(k-1)`), :math:`\omega_3` is
    :math:`(s-1)^2` there and :math:`\tilde\omega_3` is that of
    :data:`squared_deviation`. Above, with z the join's inner minimizer,
    :math:`u = 4z^5(z-1)^3` and :math:`\tilde\omega_3 = z(4z-5)`; in
    :math:`y = \log(z-1)` the equation :math:`\log 4 + 5\log(1+e^y) + 3y =
    \log u` is convex increasing, and Newton's method starts right of the root
    (both :math:`4(z-1)^8` and :math:`4(z-1)^3` are below :math:`4z^5(z-1)^3`).
    """
    kink = (1.0 + math.sqrt(3.0)) / 2.0
    threshold = kink**3 * (kink - 1.0)
    result = np.array(squared_deviation.tilde(u), dtype=np.float64)  # type: ignore[misc]
    above = u > threshold
    if above.any():
        log_target = np.log(u[above] / 4.0)
        y = np.minimum(log_target / 8.0, log_target / 3.0)
        for _ in range(_NEWTON_STEPS):
            value = 5.0 * np.logaddexp(0.0, y) + 3.0 * y - log_target
            slope = 3.0 + 2.5 * (1.0 + np.tanh(y / 2.0))
            step = np.maximum(value / slope, 0.0)
            y = y - step
            if np.all(step <= 4.0 * _EPS * np.maximum(1.0, np.abs(y))):
                break
        z = 1.0 + np.exp(y)
        result[above] = z * (4.0 * z - 5.0)
    return result


def _is_power(omega: object, p: float) -> bool:
    return (
        isinstance(omega, Penalty) and omega.exponent == p and omega.tilde is not None
    )


def _name(omega: object) -> str:
    if isinstance(omega, Penalty):
        return omega.name
    return getattr(omega, "__name__", "omega")


def _mp_function(omega: object) -> Callable[[Any], Any]:
    if isinstance(omega, Penalty):
        return omega.mp
    return omega  # type: ignore[return-value]


# --- argument checks


def _evaluate(omega: PenaltyFunction, z: Float64Array, name: str) -> Float64Array:
    """omega at z as float64 of z's shape, rejecting non-finite or negative values.

    A :class:`Penalty` documents +inf as its value beyond the float64 range: it
    is kept (a point of the scans that cannot be the minimum), while a plain
    callable's inf is refused like NaN.
    """
    # z is a finite float64 array made here: a Penalty's own argument check
    # (Penalty.__call__) would repeat work in the innermost loop.
    overflow_is_inf = isinstance(omega, Penalty)
    function = _raw(omega.function) if isinstance(omega, Penalty) else omega
    with np.errstate(all="ignore"):
        values = _penalty_values(name, function(z), z)
    bad = ~np.isfinite(values)
    if overflow_is_inf:
        bad &= values != np.inf
    if bad.any():
        raise InvalidArgumentError(
            f"{name}({float(z[bad].flat[0])!r}) = {float(values[bad].flat[0])!r} "
            f"is not finite: {name} must be finite on [1, inf)"
        )
    negative = values < -_ZERO_AT_ONE
    if negative.any():
        raise InvalidArgumentError(
            f"{name}({float(z[negative].flat[0])!r}) = "
            f"{float(values[negative].flat[0])!r} < 0 = {name}(1): {name} must be "
            "minimized at 1 with minimum value 0"
        )
    return values


def _check_penalty(omega: object, name: str) -> None:
    if not callable(omega):
        raise InvalidArgumentError(f"{name}={omega!r} is not callable")
    at_one = _evaluate(omega, np.ones(1), name)[0]
    if abs(at_one) > _ZERO_AT_ONE:
        raise InvalidArgumentError(
            f"{name}(1) = {at_one!r} != 0: {name} must be minimized at 1 with "
            "minimum value 0 (eq. (6) of adaptive-tangent-features)"
        )


def _check_join_operand(omega: object, name: str) -> None:
    """Refuse an omega of eq. (11) that is seen breaking its assumptions on [1, 2].

    A strictly quasi-convex omega minimized at omega(1) = 0 is real, finite,
    increasing on [1, inf) and positive away from 1; the grid is in [1, 2],
    where no power |z-1|^p overflows. A check at a few points, not a proof:
    omega_join checks again on [1, v] where it is evaluated.
    """
    _check_penalty(omega, name)
    values = _evaluate(omega, _JOIN_GRID, name)  # type: ignore[arg-type]
    _check_increasing(values, _JOIN_GRID, name)
    if values[-1] <= 0.0:
        raise InvalidArgumentError(
            f"{name}(2) = {float(values[-1])!r}: {name} is 0 on [1, 2], so not "
            "strictly quasi-convex with its minimum 0 at 1 only (eq. (11) of "
            "adaptive-tangent-features)"
        )


def _check_increasing(values: Float64Array, z: Float64Array, name: str) -> None:
    """Reject a decrease along the last axis (z increasing from 1)."""
    # Two overflowed values of a Penalty (inf - inf) give NaN: no decrease.
    with np.errstate(invalid="ignore"):
        drop = values[..., :-1] - values[..., 1:]
    scale = np.maximum(np.abs(values[..., 1:]), np.abs(values[..., :-1]))
    bad = drop > 1e-12 * scale + 1e-300
    if bad.any():
        index = tuple(np.argwhere(bad)[0])
        raise InvalidArgumentError(
            f"{name} decreases between z={float(z[index])!r} and the next grid "
            f"point above it: {name} must be strictly quasi-convex with minimum "
            "at 1, hence increasing on [1, inf)"
        )
