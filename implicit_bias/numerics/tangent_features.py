r"""Scalar effective penalties of adaptive tangent features: :math:`\tilde\omega` and ⊕.

Eqs. (11)-(12) of adaptive-tangent-features. For a strictly quasi-convex
:math:`\omega` minimized at :math:`\omega(1) = 0`,

.. math:: \tilde\omega(v) = \min_{z\ge 1}\ \omega(z) + \frac{v^2}{z^2},
          \qquad
          (\omega_1\oplus\omega_2)(v) = \min_{1\le z\le v}\ \omega_1(z)
          + \omega_2\!\left(\frac{v}{z}\right)\quad (v\ge 1).

Let :math:`u = v^2` and :math:`w = z - 1 \ge 0`; both objectives are computed
as sums of non-negative terms, so no digits cancel.

**Generic penalties** (any vectorized callable). The minimizer of (12)
satisfies :math:`\omega(z^*) \le \tilde\omega(v) \le v^2` (take :math:`z = 1`),
so it lies in :math:`[1, z_{\max}]` with :math:`\omega(z_{\max}) \ge v^2`,
found by doubling. The objective need not be unimodal (for
:math:`\omega = |z-1|^p`, :math:`p < 1`, both :math:`z = 1` and an interior
point are local minima), so every :math:`v` is scanned on a geometric grid of
``_GRID`` values of :math:`w` (plus :math:`w = 0`), and a section search
refines the two grid cells around the best grid point: each step evaluates
``_SECTION_POINTS`` = 15 equally spaced interior points of the bracket and
keeps the two sub-cells around the best one (which contain the minimizer of an
objective unimodal on the bracket, as in golden-section search), shrinking the
bracket by :math:`2/16`; ``_SECTION_STEPS`` = 21 steps shrink it by
:math:`8^{-21} \approx 1.1\cdot 10^{-19}` (golden section needs 90 sequential
steps for :math:`0.618^{90} \approx 1.6\cdot 10^{-19}`), so the minimizer is
located to rounding and the value, quadratic in the location error at a smooth
minimum and linear at a kink, to ~1e-13 relative or better. Few sequential
steps matter when the objective is itself a minimization (:math:`\tilde\omega`
of a generic join: 21 x 21 nested steps instead of 90 x 90). The join is
scanned in :math:`t = \log z/\log v \in [0, 1]` the same way. All points are
processed at once (arrays of shape ``(len(v), _GRID)``), with no Python loop
over points.

**Named penalties** (:data:`squared_deviation`, :data:`absolute_deviation`,
:func:`power_deviation`) carry the closed forms derived in
:mod:`implicit_bias.theory.tangent_features`: for :math:`\omega = |z-1|^p` the
minimizer solves :math:`p\,w^{p-1}(1+w)^3 = 2v^2` and
:math:`\tilde\omega = w^p + v^2/(1+w)^2` there; for :math:`p = 1` this is the
explicit :math:`\tilde\omega = \tfrac32(2v^2)^{1/3} - 1` above
:math:`v^2 = 1/2` and :math:`v^2` below; for :math:`p \ne 1` the stationarity
equation, increasing and convex in :math:`s = \log w`, is solved by Newton's
method from a point right of its root, which converges monotonically. The join
:math:`(z-1)^2 \oplus |z-1|` is :math:`(v-1)^2` for
:math:`v \le (1+\sqrt3)/2` and :math:`(z-1)^2 + v/z - 1` at the root of
:math:`2z^2(z-1) = v` above, by the same monotone Newton iteration.

The references :func:`omega_tilde_mp` and :func:`omega_join_mp` minimize with
mpmath at ``dps`` digits by the same scan-and-refine, one point at a time.
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
    OutOfRangeError,
)
from implicit_bias.numerics.arguments import (
    MAX_DPS,
    as_finite_array,
    check_integer,
    check_mp_real,
    check_nonnegative,
    check_real,
)

__all__ = [
    "Penalty",
    "absolute_deviation",
    "join_penalty",
    "omega_join",
    "omega_join_mp",
    "omega_tilde",
    "omega_tilde_mp",
    "power_deviation",
    "squared_deviation",
]

Float64Array = NDArray[np.float64]
PenaltyFunction = Callable[[Float64Array], ArrayLike]

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
#: Doublings of z_max before giving up: 2**1000 is near the float64 range.
_MAX_DOUBLINGS = 1000
#: |omega(1)| must not exceed this (the minimum value 0, up to rounding of a
#: formula evaluated at 1).
_ZERO_AT_ONE = 1e-14
#: Newton steps on the named families' stationarity equations; monotone
#: quadratic convergence needs ~10 from the starting bounds, 200 is a guard.
_NEWTON_STEPS = 200
_EPS = float(np.finfo(np.float64).eps)
#: Scan points of the mpmath references.
_MP_GRID = 300
#: Where join_penalty evaluates each omega before accepting it: 1 and
#: 1 + 2^-k, k = 10, ..., 0 (no power |z-1|^p overflows on [1, 2]).
_JOIN_GRID = np.concatenate([[1.0], 1.0 + np.geomspace(2.0**-10, 1.0, 11)])
#: The largest |v| whose square v^2 (the argument of eq. (12)) is finite.
_LARGEST_V = math.sqrt(float(np.finfo(np.float64).max))


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
