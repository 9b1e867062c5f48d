r"""The PT+FT penalty of a ReLU unit: fast NumPy evaluators and mpmath references.

Eqs. (6)-(11) of ptft-relu-penalty define the penalty of one hidden unit,

.. math:: \tilde r(m, \rho, m_0, \gamma) = \min_{u>0} p(u),\qquad
          p(u) = (m/u-\gamma)^2 + u^2 + m_0^2 - 2u m_0\rho,

where ``m`` is the signed magnitude :math:`m_h`, ``rho`` the cosine
:math:`\rho_h`, ``m0`` the pretrained norm :math:`m_{0h}^{(1)}` and ``gamma``
the readout initialization :math:`\gamma`. The stationary points of p are the
positive roots of the quartic of eq. (10),
:math:`q(u) = u^4 - m_0\rho\,u^3 + \gamma m\,u - m^2`.

The paper takes "the" positive root. That root is not always unique: when
:math:`\rho>0` and :math:`\gamma m>0`, q can have three positive roots (two
local minima of p), e.g. for every small enough :math:`|m|`. The evaluators
here return the GLOBAL minimum: they locate every local minimizer of p in
closed-form brackets, converge on each by Halley iterations started where
Newton's would converge monotonically, and keep the smaller value.

How the brackets are found. :math:`q''(u) = 6u(2u - a)` with :math:`a=m_0\rho`,
so q is concave on :math:`(0, a/2)` and convex beyond. Local minima of p are
roots where q changes sign from - to + (p' has the sign of q); there are at
most two of them: the leftmost root, in the concave part, approached from
the left, and the rightmost root, in the convex part, approached from the
right (from a bound on the roots). Whether each exists follows from the signs of q at
:math:`a/2` and at the critical points :math:`v_1 < a/2 < v_2` of q, which
are roots of the cubic :math:`q'(u) = 4u^3 - 3au^2 + b` in trigonometric
closed form. All iterations run on the scaled variable :math:`x = u/s` with
:math:`s = \max(|a|, |\gamma m|^{1/3}, |m|^{1/2})`, so that every coefficient
lies in :math:`[-1, 1]` and every root in :math:`(0, 2]` (Fujiwara's bound);
nothing overflows before the penalty itself does.

The penalty is evaluated at a root from the readout gap :math:`g = m/u-\gamma`
and the deviation :math:`d = u - m_0\rho`,

.. math:: p = g^2 + d^2 + m_0^2(1-\rho)(1+\rho),\qquad g = \frac{u^2 d}{m}
          \ \text{at a root}

(:func:`implicit_bias.theory.relu_penalty.deviation_from_gap` and
:func:`~implicit_bias.theory.relu_penalty.readout_gap_at_root`): each of g
and d is either computed directly or obtained from the other through the
identity, whichever carries the smaller error bound, so that neither
cancellation in :math:`m/u-\gamma` nor in :math:`u - m_0\rho` spoils the
result near the point where the penalty vanishes.

The range of float64. A point is evaluated in float64 where the scaled
constant term :math:`m^2/s^4` of eq. (10) has not underflowed and every
quantity its results are made of (:math:`u^*`, g, the penalty, the slope)
lies in :math:`[2^{-1000}, 2^{1020}]` with an error bound below
:math:`2^{-40}` of its value. The other points -- :math:`|m|` below about
:math:`10^{-145}(m_0\rho)^2` or far below :math:`|\gamma|^2`, a penalty or
slope beyond the normal range, a readout gap lost to cancellation -- run the
same algorithm in mpmath at 320 bits, whose exponent range is unbounded, and
are rounded once to float64. A result beyond the float64 range raises
:class:`~implicit_bias.errors.OutOfRangeError`; one below it is rounded to a
subnormal number or 0.

The fast path of :func:`relu_ptft_penalty`. The penalty alone needs neither the
scale nor the slope, and p is stationary at the root: an error
:math:`\delta` in u moves p by :math:`p''\delta^2/2` only. So
:func:`relu_ptft_penalty` first solves eq. (10) unscaled, from closed-form
starts, by a fixed number of Householder steps of order 3 in preallocated
blocks, and certifies each point a posteriori: Kantorovich's theorem on the
residual bounds :math:`\delta`, and the rounding of eq. (8) at the root is
bounded term by term (:func:`_fast_certify`). Where the bound is at most 16
unit roundoffs (1.8e-15) of p the value is returned; elsewhere -- p cancelling
near the hyperbola, a near-double root, m = 0, magnitudes near the ends of
float64 -- the point is evaluated by the path above. The points with up to
three roots are decided from the signs of q at its critical points, as above.

Conventions at the edges of the domain:

* ``m = 0``: the unit carries no function. The constraint of eq. (5) is then
  met by switching off either layer, and the penalty is the infimum of eq. (5)
  over both ways, :math:`\min(m_0^2,\ \gamma^2 + m_0^2(1-\rho_+^2))` with
  :math:`\rho_+ = \max(\rho, 0)`; the scale is :math:`m_0\rho` when the
  second is smaller (readout switched off) and 0 otherwise. This is the
  limit :math:`m\to 0` from the side where :math:`\gamma m > 0`.
* ``gamma < 0``: a readout initialized at a negative value. Since p depends on
  m and :math:`\gamma` only through :math:`(m/u-\gamma)^2` and :math:`m^2`,
  :math:`\tilde r(-m, \rho, m_0, -\gamma) = \tilde r(m, \rho, m_0, \gamma)`;
  every point is evaluated as the one with :math:`m \ge 0`.
* ``m = m0*rho*gamma`` exactly, with :math:`m_0\rho > 0`: the point
  :math:`(m_0\rho, \gamma)` lies on the hyperbola :math:`u\,w^{(2)} = m`,
  so :math:`u^* = m_0\rho` and :math:`\tilde r = m_0^2(1-\rho^2)`, which is
  0 for :math:`\rho = 1`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any, NamedTuple

import mpmath
import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import ConvergenceError, InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    as_finite_arrays,
    check_dps,
    check_mp_real,
    relu_unit_arguments,
)
from implicit_bias.numerics._lazy import lazy_formula

__all__ = [
    "relu_ptft_deviation",
    "relu_ptft_log_log_slope",
    "relu_ptft_log_slope",
    "relu_ptft_penalty",
    "relu_ptft_penalty_mp",
    "relu_ptft_scale",
    "relu_ptft_scale_mp",
    "relu_ptft_stationary_count",
    "relu_ptft_stationary_points_mp",
]

Float64Array = NDArray[np.float64]
BoolArray = NDArray[np.bool_]


@lazy_formula
def _penalty_at_root_mpmath() -> Callable[..., Any]:
    """Eq. (11) at a root of eq. (10) as a function of (u, d, m, rho, m0).

    d = u - m0*rho; the expression is deviation_from_gap at
    readout_gap_at_root, a sum of nonnegative terms.
    """
    import sympy as sp

    from implicit_bias.theory import relu_penalty as theory
    from implicit_bias.theory.symbols import m, m0, rho, u

    deviation = sp.Symbol("d", real=True)
    return sp.lambdify(
        (u, deviation, m, rho, m0),
        theory.deviation_from_gap(theory.readout_gap_at_root()).subs(
            u - m0 * rho, deviation
        ),
        modules="mpmath",
    )


_EPS = float(np.finfo(np.float64).eps)
_SMALLEST_NORMAL = float(np.finfo(np.float64).tiny)
#: A computed root is taken to be within this many ulps of the exact one, times
#: its condition number plus one (the iterations stop at steps of 4 ulps or a
#: residual at the rounding level).
_ROOT_ULPS = 8.0
#: Iterations stop once a step moves the scaled root by less than this many ulps.
_NEWTON_ULPS = 4.0
#: From the starts below, about 5 steps reach the root (at most ~15 seen over
#: 10^6 points with magnitudes 1e-100..1e100); this cap only guards a defect.
_NEWTON_MAX_STEPS = 200
#: Below this the scaled constant term m^2/s^4 of eq. (10) has lost digits to
#: underflow (it is within 2^52 of the subnormal range), and the smallest roots
#: may lie below the float64 range: such points, with |m| below ~1e-145
#: (m0 rho)^2 or ~1e-145 gamma^2, are evaluated in mpmath (_minimize_point_mp).
_SMALLEST_SCALED_CONSTANT = 1e-290
#: Points per block of the elementwise work (64 KiB per float64 temporary).
_BLOCK = 8192
#: Rounding of eq. (10) in Horner form: at most ~5 ulps of its largest term.
_NOISE_ULPS = 8.0
#: Below this fraction of points still moving, iterate on those only.
_COMPACT_FRACTION = 0.05
#: A float64 result is kept only where every quantity it is made of lies in
#: this range: below it subnormal numbers lose digits, above it a square or a
#: sum of squares may overflow.
_TRUSTED_LOW = 2.0**-1000
_TRUSTED_HIGH = 2.0**1020
#: ... and where its error bound is below this fraction of its value (a readout
#: gap or penalty that cancelled to a few digits near the hyperbola, a root
#: near a double root).
_TRUSTED_RELATIVE = 2.0**-40
#: Bits of the mpmath evaluation. Off the hyperbola g or d is at least ~2^-212
#: of the scale (m, m0*rho and gamma are floats, so m - m0*rho*gamma is either
#: 0 or at least that), which 320 bits still resolve to 2^-100.
_MP_BITS = 320
#: Near a double root Halley's iterations converge linearly; at 320 bits they
#: need a few hundred steps.
_MP_MAX_STEPS = 2000


def _quartic(x: Any, a: Any, b: Any, c: Any) -> Any:
    """Eq. (10) in Horner form, :math:`((x - a)x^2 + b)x - c`."""
    return ((x - a) * x * x + b) * x - c


def _condition(x: Any, a: Any, b: Any, c: Any) -> Any:
    r"""Condition number of a root x of the scaled eq. (10).

    .. math:: \kappa = \frac{x^4 + |a|x^3 + |b|x + c}{x\,|q'(x)|}

    A relative change :math:`\epsilon` of every coefficient moves the root by
    :math:`\kappa\epsilon x` (infinite at a double root).
    """
    square = x * x
    terms = (x + abs(a)) * square * x + abs(b) * x + c
    slope = (4.0 * x - 3.0 * a) * square + b
    return terms / (x * abs(slope))


def _newton_step(
    x: Float64Array, a: Float64Array, b: Float64Array, c: Float64Array
) -> BoolArray:
    r"""One Halley step on eq. (10), in place; returns which points still move.

    Halley's step is Newton's step :math:`\delta = q/q'` divided by
    :math:`1 - \delta q''/(2q')`; written that way, no product of the tiny
    residual with another small number underflows. A point stops once its step
    is below a few ulps or its residual is at the rounding level of the
    quartic's terms: a root with condition number kappa cannot be located
    closer than ~kappa ulps, and smaller steps would only chase rounding noise.
    """
    square = x * x
    cube = square * x
    residual = ((x - a) * cube + b * x) - c
    slope = (4.0 * x - 3.0 * a) * square + b
    newton = np.divide(residual, slope, out=np.zeros_like(x), where=slope != 0)
    correction = 1.0 - newton * (6.0 * x - 3.0 * a) * x / slope
    step = np.divide(newton, correction, out=newton, where=correction > 0.5)
    noise = _NOISE_ULPS * _EPS * ((x + np.abs(a)) * cube + np.abs(b) * x + c)
    moving = (np.abs(step) > _NEWTON_ULPS * _EPS * x) & (np.abs(residual) > noise)
    x -= np.where(moving, step, 0.0)
    return moving


def _newton(
    x: Float64Array, a: Float64Array, b: Float64Array, c: Float64Array
) -> tuple[Float64Array, BoolArray]:
    """Halley's method on eq. (10) from a start where Newton's converges monotonically.

    Where Halley's correction would more than double Newton's step (far from
    the root), the plain Newton step is taken, so the iterates keep Newton's
    monotone approach. Returns the roots and which of them converged (the
    others, which would be a defect, are evaluated again in mpmath).
    """
    x = x.copy()
    active = np.arange(x.size)
    # Sweep whole arrays while many points still move (gathers cost more than
    # the arithmetic they save); then iterate on the stragglers only.
    for _ in range(_NEWTON_MAX_STEPS):
        if active.size > _COMPACT_FRACTION * x.size:
            moving = _newton_step(x, a, b, c)
            active = np.flatnonzero(moving)
        else:
            xa = x[active]
            moving = _newton_step(xa, a[active], b[active], c[active])
            x[active] = xa
            active = active[moving]
        if active.size == 0:
            break
    converged = np.ones(x.size, dtype=bool)
    converged[active] = False
    return x, converged


def _select_scalar(condition: Any, when_true: Any, when_false: Any) -> Any:
    return when_true if condition else when_false


def _at_root(
    u: Any,
    m: Any,
    a: Any,
    gamma: Any,
    t2: Any,
    kappa: Any,
    eps: Any,
    select: Callable[[Any, Any, Any], Any],
    smallest: float = 0.0,
) -> tuple[Any, Any, Any, Any]:
    r"""Penalty and readout gap at a computed root u of eq. (10), with error bounds.

    For ``m > 0``, on NumPy arrays (``select=np.where``) or mpmath scalars.
    With :math:`u` within :math:`\delta = 8\epsilon u(\kappa+1)` of the root,
    the readout gap is either

    .. math:: g = \frac{m}{u} - \gamma \quad\text{or}\quad
              g = \frac{u^2 (u - a)}{m} = \frac{d}{m/u^2},

    with absolute errors :math:`\epsilon(m/u + |\gamma|) + m\delta/u^2` and
    :math:`(\epsilon(u + |a|) + (3u + 2|a|)\delta/u)\,u^2/m` (rounding, then the
    slope in u); the one with the smaller bound is kept. The penalty is either
    eq. (8) at u, :math:`p = g^2 + d^2 + t^2` with the direct g and d, whose
    error is the rounding of both differences plus :math:`p''\delta^2/2`
    (u enters only at second order at a minimizer), or the form tied by the
    identity :math:`d = g\,m/u^2`,

    .. math:: p = g^2\left(1 + \frac{m^2}{u^4}\right) + t^2,

    whose error is first order in that of g; the one with the smaller bound is
    kept, the second only where :math:`g^2 \ge` ``smallest`` (the float64
    range; its rounding is not bounded below it). ``t2`` is
    :math:`t^2 = m_0^2(1-\rho)(1+\rho)`.

    Returns:
      ``(penalty, penalty_error, gap, gap_error)``.
    """
    ratio = m / u
    curvature = ratio / u
    direct_gap = ratio - gamma
    deviation = u - a
    shift = _ROOT_ULPS * eps * u * (kappa + 1.0)
    direct_gap_error = eps * (ratio + abs(gamma)) + curvature * shift
    root_gap = deviation / curvature
    root_gap_error = (
        eps * (u + abs(a)) + (3.0 * u + 2.0 * abs(a)) * shift / u
    ) / curvature
    from_root = root_gap_error < direct_gap_error
    gap = select(from_root, root_gap, direct_gap)
    gap_error = select(from_root, root_gap_error, direct_gap_error)
    objective = direct_gap * direct_gap + deviation * deviation + t2
    # p'' = 2 m^2/u^4 + 4 m g/u^3 + 2 at u.
    second = 2.0 * curvature * curvature + 4.0 * curvature * direct_gap / u + 2.0
    objective_error = (
        2.0 * eps * abs(direct_gap) * (ratio + abs(gamma))
        + 2.0 * eps * abs(deviation) * (u + abs(a))
        + abs(second) * shift * shift / 2.0
        + 4.0 * eps * objective
    )
    stretch = 1.0 + curvature * curvature
    tied = gap * gap * stretch + t2
    tied_error = 2.0 * abs(gap) * gap_error * stretch + 4.0 * eps * tied
    # Where g^2 lies below the float64 range (u* ~ m/gamma far below m0 rho,
    # e.g. m = 1e-50, gamma = 6e45: g^2 ~ 1e-475 while g^2 (m/u^2)^2 = d^2 ~
    # 1e-192) this form loses its main term: the other one is used, or mpmath.
    tied_error = select(gap * gap >= smallest, tied_error, math.inf)
    use_tied = tied_error < objective_error
    penalty = select(use_tied, tied, objective)
    penalty_error = select(use_tied, tied_error, objective_error)
    return penalty, penalty_error, gap, gap_error


def _in_range(x: Float64Array) -> BoolArray:
    """Whether ``|x|`` lies in the trusted range of float64 results."""
    magnitude = np.abs(x)
    return (magnitude >= _TRUSTED_LOW) & (magnitude <= _TRUSTED_HIGH)


class _Minimum(NamedTuple):
    r"""Results of :func:`_minimize`, elementwise.

    ``slope`` is :math:`\partial\log\tilde r/\partial m` and ``elasticity``
    ``m`` times it (both NaN where undefined: ``zero`` marks an exactly
    vanishing penalty, ``singular`` m = 0 with :math:`u^* = 0`); entries beyond
    the float64 range are infinite. ``trusted`` marks the float64 evaluations
    (the others were evaluated in mpmath).
    """

    scale: Float64Array
    penalty: Float64Array
    roots: Float64Array
    slope: Float64Array
    elasticity: Float64Array
    zero: BoolArray
    singular: BoolArray
    trusted: BoolArray


def _minimize(
    m: Float64Array,
    rho: Float64Array,
    m0: Float64Array,
    gamma: Float64Array,
    *,
    slope: bool = False,
) -> _Minimum:
    """Global minimizer u*, minimum p(u*), stationary-point count and slope.

    Works through blocks of :data:`_BLOCK` points so that the temporaries of
    the elementwise arithmetic stay in cache (twice as fast as whole arrays
    at 10^5 points); then evaluates in mpmath the points whose float64 results
    are not trusted (module docstring). With ``slope=False`` the slope is not
    needed, and a point whose slope alone is not trusted stays in float64.
    """
    shape = m.shape
    flat = [
        np.ascontiguousarray(v, dtype=np.float64).ravel() for v in (m, rho, m0, gamma)
    ]
    size = flat[0].size
    fields: list[Any] = [np.empty(size) for _ in range(5)]
    fields += [np.empty(size, dtype=bool) for _ in range(3)]
    for start in range(0, size, _BLOCK):
        block = slice(start, start + _BLOCK)
        m_block, rho_block, m0_block, gamma_block = (v[block] for v in flat)
        minimum = _minimize_block(m_block, rho_block, m0_block, gamma_block, slope)
        for field, values in zip(fields, minimum, strict=True):
            field[block] = values
    result = _Minimum(*fields)
    for index in np.flatnonzero(~result.trusted):
        point = _minimize_point_mp(*(float(v[index]) for v in flat))
        for field, value in zip(result, point, strict=True):
            field[index] = value
        if _SMALLEST_NORMAL <= abs(result.slope[index]) < math.inf:
            # m times the rounded slope, as relu_ptft_log_log_slope promises
            # wherever the slope itself is a normal float64 number.
            result.elasticity[index] = flat[0][index] * result.slope[index]
    return _Minimum._make(np.reshape(field, shape) for field in result)


def _minimize_block(
    m_signed: Float64Array,
    rho: Float64Array,
    m0: Float64Array,
    gamma_signed: Float64Array,
    slope: bool,
) -> _Minimum:
    """:func:`_minimize` in float64 on one block of flat arrays."""
    sign = np.where(m_signed < 0, -1.0, 1.0)
    m = np.abs(m_signed)
    gamma = sign * gamma_signed
    size = m.size
    u_star, penalty, gap = (np.zeros(size) for _ in range(3))
    count = np.ones(size)
    zero, singular, trusted = (np.zeros(size, dtype=bool) for _ in range(3))
    with np.errstate(all="ignore"):
        a = m0 * rho
        # m0 sqrt((1 - rho)(1 + rho)) <= m0 never overflows, and (1 -+ rho) are
        # exact near rho = +-1 (Sterbenz), where 1 - rho**2 would cancel.
        t2 = np.square(m0 * np.sqrt((1.0 - rho) * (1.0 + rho)))

    off = m == 0
    if off.any():
        readout_off = _readout_switched_off(m0[off], rho[off], gamma[off])
        index = np.flatnonzero(off)
        u_star[index] = np.where(readout_off, a[off], 0.0)
        with np.errstate(over="ignore"):
            penalty[index] = np.where(
                readout_off, gamma[off] ** 2 + t2[off], m0[off] ** 2
            )
        gap[index] = -gamma[off]
        vanishes = np.where(
            readout_off,
            (gamma[off] == 0) & ((rho[off] == 1) | (m0[off] == 0)),
            m0[off] == 0,
        )
        zero[index] = vanishes
        singular[index] = ~readout_off & ~vanishes
        trusted[index] = (_in_range(penalty[index]) | vanishes) & (
            _in_range(u_star[index]) | ~readout_off | vanishes
        )

    curve = _on_hyperbola(m, m0, rho, gamma)
    if curve.any():
        u_star[curve] = a[curve]
        penalty[curve] = t2[curve]
        zero[curve] = rho[curve] == 1
        trusted[curve] = True

    live = np.flatnonzero(~off & ~curve)
    gap_ok = np.ones(size, dtype=bool)
    if live.size:
        (
            u_star[live],
            penalty[live],
            gap[live],
            count[live],
            trusted[live],
            gap_ok[live],
        ) = _live_minimum(m[live], a[live], gamma[live], t2[live])

    with np.errstate(all="ignore"):
        slope_values = sign * (2.0 * gap / u_star / penalty)
    slope_values[curve] = 0.0
    slope_values[zero | singular] = np.nan
    if slope:
        defined = ~zero & ~singular
        exact_zero = (gap == 0) & (off | curve)
        trusted &= ~defined | ((_in_range(slope_values) | exact_zero) & gap_ok)
    elasticity = m_signed * slope_values
    return _Minimum(
        u_star, penalty, count, slope_values, elasticity, zero, singular, trusted
    )


def _readout_switched_off(
    m0: Float64Array, rho: Float64Array, gamma: Float64Array
) -> BoolArray:
    r"""At m = 0, where :math:`\rho > 0` and :math:`|\gamma| \le m_0\rho` exactly.

    ``m0*rho`` is rounded; where :math:`|\gamma|` lies within two of its ulps
    the comparison is made in exact rational arithmetic.
    """
    with np.errstate(under="ignore"):
        a = m0 * rho
    switched = (rho > 0) & (np.abs(gamma) <= a)
    close = (rho > 0) & (np.abs(np.abs(gamma) - a) <= 2.0 * np.spacing(a))
    for i in np.flatnonzero(close):
        switched[i] = abs(Fraction(gamma[i])) <= Fraction(m0[i]) * Fraction(rho[i])
    return switched


def _on_hyperbola(
    m: Float64Array, m0: Float64Array, rho: Float64Array, gamma: Float64Array
) -> BoolArray:
    r"""Where :math:`m = m_0\rho\gamma > 0` exactly: (m0 rho, gamma) on the hyperbola.

    The product is compared with m through its mantissas and exponents (no
    overflow or underflow), within 4 ulps; points that close are decided in
    exact rational arithmetic.
    """
    candidates = (m > 0) & (m0 > 0) & (rho > 0) & (gamma > 0)
    if not candidates.any():
        return candidates
    mantissas = [np.frexp(v) for v in (m0, rho, gamma, m)]
    product = mantissas[0][0] * mantissas[1][0] * mantissas[2][0]
    exponent = mantissas[0][1] + mantissas[1][1] + mantissas[2][1] - mantissas[3][1]
    with np.errstate(over="ignore", under="ignore"):
        ratio = np.ldexp(product, exponent)
    candidates &= np.abs(ratio - mantissas[3][0]) <= 4.0 * _EPS
    for i in np.flatnonzero(candidates):
        candidates[i] = Fraction(m0[i]) * Fraction(rho[i]) * Fraction(
            gamma[i]
        ) == Fraction(m[i])
    return candidates


def _live_minimum(
    m: Float64Array, a_raw: Float64Array, gamma: Float64Array, t2: Float64Array
) -> tuple[
    Float64Array, Float64Array, Float64Array, Float64Array, BoolArray, BoolArray
]:
    """Global minimum where m > 0 and the point is off the hyperbola, in float64.

    Returns ``(u*, penalty, gap, count, trusted, gap_trusted)``: ``trusted``
    marks the points whose minimizer and penalty are trusted (module
    docstring), ``gap_trusted`` those whose readout gap is as well.
    """
    size = m.size
    u_star, penalty, gap = (np.full(size, np.nan) for _ in range(3))
    penalty_error, gap_error = (np.full(size, np.inf) for _ in range(2))
    count = np.ones(size)
    converged = np.zeros(size, dtype=bool)
    with np.errstate(all="ignore"):
        # With s = max(|a|, |gamma m|^(1/3), |m|^(1/2)) every scaled coefficient lies
        # in [-1, 1] and every root in (0, 2] (Fujiwara's bound), and s is as small
        # as such a bound can be, which keeps the constant term m^2/s^4 from
        # underflowing.
        scale = np.maximum(
            np.maximum(np.abs(a_raw), np.cbrt(np.abs(gamma)) * np.cbrt(m)), np.sqrt(m)
        )
        a = a_raw / scale
        b = (gamma / scale) * (m / scale) / scale
        c = (m / scale / scale) ** 2
    usable = np.flatnonzero((c >= _SMALLEST_SCALED_CONSTANT) & np.isfinite(b))
    if usable.size:
        with np.errstate(all="ignore"):
            (
                u_star[usable],
                penalty[usable],
                penalty_error[usable],
                gap[usable],
                gap_error[usable],
                count[usable],
                converged[usable],
            ) = _scaled_minimum(
                m[usable],
                a_raw[usable],
                gamma[usable],
                t2[usable],
                scale[usable],
                a[usable],
                b[usable],
                c[usable],
            )
    with np.errstate(invalid="ignore"):
        trusted = (
            converged
            & _in_range(u_star)
            & _in_range(penalty)
            & (penalty_error <= _TRUSTED_RELATIVE * penalty)
        )
        gap_trusted = _in_range(gap) & (gap_error <= _TRUSTED_RELATIVE * np.abs(gap))
    return u_star, penalty, gap, count, trusted, gap_trusted


def _scaled_minimum(
    m: Float64Array,
    a_raw: Float64Array,
    gamma: Float64Array,
    t2: Float64Array,
    scale: Float64Array,
    a: Float64Array,
    b: Float64Array,
    c: Float64Array,
) -> tuple[Any, ...]:
    """The local minima of p on the scaled eq. (10), the smaller one kept.

    Returns ``(u*, penalty, penalty_error, gap, gap_error, count, converged)``.
    """
    q_half = _quartic(0.5 * a, a, b, c)
    positive_a = a > 0
    right = ~positive_a | (q_half < 0)
    left = positive_a & (b > 0) & (q_half >= 0)
    # Where q' has two positive roots v1 < a/2 < v2 (a > 0, 0 < b < a^3/4), a local
    # minimum of p may sit on each side of the hump: decide by the signs of q there.
    humps = np.flatnonzero(positive_a & (b > 0) & (b < 0.25 * a**3))
    if humps.size:
        ah, bh, ch = a[humps], b[humps], c[humps]
        # Trigonometric roots of q'. With cos(3 phi) = 1 - 8b/a^3 written as
        # 3 phi = 2 asin(sqrt(4b/a^3)) and 3a/4 - v2 = a sin^2(phi/2), nothing
        # cancels when b << a^3 (then v1 ~ sqrt(b/3a) << v2 ~ 3a/4).
        sin_half_phi = np.sin(np.arcsin(np.sqrt(4.0 * bh / ah**3)) / 3.0)
        hump_gap = ah * sin_half_phi * sin_half_phi
        v2 = 0.75 * ah - hump_gap
        # v1 + v3 = 3a/4 - v2 = gap and v1 v3 = -b/(4 v2): v1 is the positive root.
        v1 = 0.5 * hump_gap + np.sqrt(0.25 * hump_gap * hump_gap + bh / (4.0 * v2))
        right[humps] |= _quartic(v2, ah, bh, ch) < 0
        left[humps] |= _quartic(v1, ah, bh, ch) > 0

    # One run for every point: from above where the rightmost root is a local
    # minimum of p, else from the left (the root is then unique and lies in the
    # concave part, where b > 0). From above means from the least of these root
    # bounds U, each with q(U) >= 0 and q convex and increasing on [root, U]:
    #   a_+ + t, t = max((2 b_-)^(1/3), (2c)^(1/4)): q >= t^4 - b_- t - c >= 0;
    #   for a < 0, max((2 b_- / |a|)^(1/2), (2c / |a|)^(1/3)): q >= |a|U^3 - b_- U - c;
    #   for a <= 0 < b, c/b: q >= bU - c = 0.
    # The last two matter when the root is far below the scale (a tiny m).
    b_minus = np.maximum(-b, 0.0)
    from_above = np.maximum(a, 0.0) + np.maximum(
        np.cbrt(2.0 * b_minus), np.sqrt(np.sqrt(2.0 * c))
    )
    negative_a = np.where(a < 0, -a, np.nan)
    from_above = np.fmin(
        from_above,
        np.maximum(np.sqrt(2.0 * b_minus / negative_a), np.cbrt(2.0 * c / negative_a)),
    )
    from_left = c / b
    from_above = np.where(
        (a <= 0) & (b > 0), np.minimum(from_above, from_left), from_above
    )
    x, converged = _newton(np.where(right, from_above, from_left), a, b, c)
    u_star = x * scale
    penalty, penalty_error, gap, gap_error = _at_root(
        u_star,
        m,
        a_raw,
        gamma,
        t2,
        _condition(x, a, b, c),
        _EPS,
        np.where,
        smallest=_TRUSTED_LOW,
    )
    both = np.flatnonzero(left & right)
    count = np.ones_like(m)
    if both.size:
        # Three positive roots: the leftmost is the other local minimum.
        count[both] = 3.0
        ab, bb, cb = a[both], b[both], c[both]
        x_left, converged_left = _newton(cb / bb, ab, bb, cb)
        converged[both] &= converged_left
        u_left = x_left * scale[both]
        at_left = _at_root(
            u_left,
            m[both],
            a_raw[both],
            gamma[both],
            t2[both],
            _condition(x_left, ab, bb, cb),
            _EPS,
            np.where,
            smallest=_TRUSTED_LOW,
        )
        better = both[at_left[0] < penalty[both]]
        chosen = at_left[0] < penalty[both]
        u_star[better] = u_left[chosen]
        for values, left_values in zip(
            (penalty, penalty_error, gap, gap_error), at_left, strict=True
        ):
            values[better] = left_values[chosen]
    return u_star, penalty, penalty_error, gap, gap_error, count, converged


def _to_float(value: Any) -> float:
    """An mpmath number rounded to the nearest float64, subnormal numbers included.

    ``float(mpf)`` rounds a subnormal result twice (to 53 bits, then to the
    subnormal grid), so there it is rounded once to a multiple of 2^-1074.
    """
    if mpmath.isnan(value) or mpmath.isinf(value) or abs(value) >= _SMALLEST_NORMAL:
        return float(value)
    return math.ldexp(int(mpmath.nint(mpmath.ldexp(value, 1074))), -1074)


def _minimize_point_mp(
    m_signed: float, rho: float, m0: float, gamma_signed: float
) -> tuple[float, float, float, float, float, bool, bool, bool]:
    """One point of :func:`_minimize` by the same algorithm in mpmath arithmetic.

    At :data:`_MP_BITS` bits and with an unbounded exponent range, so that no
    coefficient, root or penalty under- or overflows; each result is rounded
    once to float64 (an infinity where it lies beyond the float64 range).
    """
    sign = -1 if m_signed < 0 else 1
    with mpmath.workprec(_MP_BITS):
        eps = mpmath.eps
        m = abs(mpmath.mpf(m_signed))
        gamma = sign * mpmath.mpf(gamma_signed)
        rho_, m0_ = mpmath.mpf(rho), mpmath.mpf(m0)
        a = m0_ * rho_
        t2 = (m0_ * (1 - rho_)) * (m0_ * (1 + rho_))
        singular = False
        count = 1
        if m == 0:
            u_star, gap = a, -gamma
            penalty = gamma**2 + t2
            if not (rho_ > 0 and abs(gamma) <= a):
                u_star, penalty, singular = mpmath.mpf(0), m0_**2, True
        else:
            u_star, penalty, gap, count = _live_minimum_mp(m, a, gamma, t2, eps)
        zero = penalty == 0
        singular = singular and not zero
        if zero or singular:
            slope = elasticity = mpmath.nan
        else:
            slope = 2 * gap / u_star / penalty
            elasticity = m * slope
            slope *= sign
        return (
            _to_float(u_star),
            _to_float(penalty),
            float(count),
            _to_float(slope),
            _to_float(elasticity),
            bool(zero),
            bool(singular),
            True,
        )


def _live_minimum_mp(
    m: Any, a_raw: Any, gamma: Any, t2: Any, eps: Any
) -> tuple[Any, ...]:
    """:func:`_scaled_minimum` for one point with m > 0, in mpmath arithmetic.

    Returns ``(u*, penalty, gap, count)``.
    """
    scale = max(abs(a_raw), mpmath.cbrt(abs(gamma) * m), mpmath.sqrt(m))
    a = a_raw / scale
    b = gamma * m / scale**3
    c = (m / scale**2) ** 2
    q_half = _quartic(a / 2, a, b, c)
    right = a <= 0 or q_half < 0
    left = a > 0 and b > 0 and q_half >= 0
    if a > 0 and 0 < b < a**3 / 4:
        sin_half_phi = mpmath.sin(mpmath.asin(mpmath.sqrt(4 * b / a**3)) / 3)
        hump_gap = a * sin_half_phi**2
        v2 = 3 * a / 4 - hump_gap
        v1 = hump_gap / 2 + mpmath.sqrt(hump_gap**2 / 4 + b / (4 * v2))
        right = right or _quartic(v2, a, b, c) < 0
        left = left or _quartic(v1, a, b, c) > 0
    b_minus = max(-b, 0)
    from_above = max(a, 0) + max(mpmath.cbrt(2 * b_minus), mpmath.root(2 * c, 4))
    if a < 0:
        from_above = min(
            from_above, max(mpmath.sqrt(2 * b_minus / -a), mpmath.cbrt(2 * c / -a))
        )
    if a <= 0 < b:
        from_above = min(from_above, c / b)
    starts = [from_above if right else c / b]
    if left and right:
        starts.append(c / b)
    best: tuple[Any, ...] | None = None
    for start in starts:
        x = _halley_mp(start, a, b, c, eps)
        u = x * scale
        slope = (4 * x - 3 * a) * x * x + b
        kappa = _condition(x, a, b, c) if slope else mpmath.inf
        penalty, _, gap, _ = _at_root(
            u, m, a_raw, gamma, t2, kappa, eps, _select_scalar
        )
        # A tie keeps the first (rightmost) minimizer, as the float64 path does.
        if best is None or penalty < best[1]:
            best = (u, penalty, gap)
    assert best is not None
    return (*best, 3 if len(starts) == 2 else 1)


def _halley_mp(x: Any, a: Any, b: Any, c: Any, eps: Any) -> Any:
    """:func:`_newton` for one mpmath number: Halley's steps to the rounding level."""
    for _ in range(_MP_MAX_STEPS):
        square = x * x
        cube = square * x
        residual = ((x - a) * cube + b * x) - c
        slope = (4 * x - 3 * a) * square + b
        if slope == 0:
            return x
        newton = residual / slope
        correction = 1 - newton * (6 * x - 3 * a) * x / slope
        step = newton / correction if correction > 0.5 else newton
        noise = _NOISE_ULPS * eps * ((x + abs(a)) * cube + abs(b) * x + c)
        if abs(step) <= _NEWTON_ULPS * eps * x or abs(residual) <= noise:
            return x
        x -= step
    raise ConvergenceError(
        f"Halley's method on eq. (10) did not converge in {_MP_MAX_STEPS} steps at "
        f"{_MP_BITS} bits (a={a}, b={b}, c={c}); this is a defect, please report the "
        "arguments"
    )


# ---------------------------------------------------------------------------
# The certified fast path of relu_ptft_penalty.
# ---------------------------------------------------------------------------

#: Unit roundoff of float64: every correctly rounded operation errs by at most
#: this fraction of its result.
_UNIT = 2.0**-53
#: A fast result is returned only where its error bound is at most this fraction
#: of it, 16 unit roundoffs (1.8e-15): below the 2e-15 of issue 23 and below
#: every tolerance the tests derive (8 ulps of each non-negative term of p).
_FAST_RELATIVE = 16.0 * _UNIT
#: Rounding of eq. (10) in Horner form at a point x, with coefficients rounded
#: once each, in units of :math:`\epsilon_u T`, :math:`T = x^4 + |a|x^3 + |b|x
#: + c` (at most ~8 roundings of the largest term; twice that for safety).
_FAST_NOISE = 16.0
#: ... and of its slope :math:`q'(x)`, in units of :math:`\epsilon_u(4x^3 +
#: 3|a|x^2 + |b|)`.
_FAST_SLOPE_NOISE = 8.0
#: The fast path needs :math:`m^2 \ge 2^{-900}` and :math:`p \ge 2^{-900}`: a
#: subnormal intermediate (at most ~2^-1074 absolute) is then below 2^-170 of
#: the terms it is added to. It needs :math:`p \le 2^{900}` (no overflow in
#: the bound), and :math:`|\gamma m| \le 2^{120}` and :math:`|m_0\rho| \le
#: 2^{1000}m^2`, so that neither :math:`m_0\rho` nor :math:`\gamma m` lost to
#: underflow (below 2^-1022) can hide the three-root case
#: :math:`m^2 < m_0\rho\,\gamma m`.
_FAST_LOW = 2.0**-900
_FAST_HIGH = 2.0**900
_FAST_LARGEST_PRODUCT = 2.0**120
_FAST_LARGEST_RATIO = 2.0**1000
#: Householder steps of order 3 from the starts of :func:`_fast_start`: two or
#: three reach the root to ~1e-15 over the benchmark's domains; points whose
#: bound then fails are evaluated again by :func:`_minimize`.
_FAST_STEPS = 3
#: ... and from c/b towards the root of the concave part of q, where it has
#: three roots (:func:`_fast_three_roots`), often near its hump.
_FAST_THREE_STEPS = 4
#: Points per block of the fast path: its 13 work rows of 4096 float64 take
#: 416 KiB, inside the L2 cache of current x86 cores (allocated once per call:
#: fresh temporaries of this size cost a page fault each time the allocator
#: returns them to the system).
_FAST_BLOCK = 4096
_FAST_ROWS = 13
#: Margins (relative) around the boundaries a decision of the fast path compares
#: rounded numbers with: :math:`c = ab` (one or three roots), :math:`a/2` (the
#: inflection point of q) and :math:`4b/a^3 = 1` (q' has two positive roots).
_FAST_MARGIN = 2.0**-50
_FAST_HUMP_MARGIN = 2.0**-40


def _penalty(
    m: Float64Array, rho: Float64Array, m0: Float64Array, gamma: Float64Array
) -> Float64Array:
    r"""The global minimum of eq. (11): certified float64, else :func:`_minimize`.

    The points whose certified error (:func:`_fast_penalty`) exceeds
    :data:`_FAST_RELATIVE` of the result, or which lie outside the fast
    path's range (m = 0, magnitudes near the ends of float64, a penalty that
    cancels near the hyperbola), are evaluated by :func:`_minimize`, the
    error-bounded float64 path with its mpmath fallback.
    """
    shape = m.shape
    flat = [
        np.ascontiguousarray(v, dtype=np.float64).ravel() for v in (m, rho, m0, gamma)
    ]
    penalty, certified = _fast_penalty(*flat)
    rest = np.flatnonzero(~certified)
    if rest.size:
        penalty[rest] = _minimize(*(v[rest] for v in flat)).penalty
    return penalty.reshape(shape)


def _fast_penalty(
    m: Float64Array, rho: Float64Array, m0: Float64Array, gamma: Float64Array
) -> tuple[Float64Array, BoolArray]:
    """Eqs. (10)-(11) in float64 on flat arrays: (penalty, certified).

    Works through blocks of :data:`_FAST_BLOCK` points in preallocated work
    rows (:func:`_fast_block`), then through the points with up to three roots
    (:func:`_fast_three_roots`). Every decision is made per point, so a
    point's result does not depend on the others in its call.
    """
    size = m.size
    penalty = np.empty(size)
    certified = np.zeros(size, dtype=bool)
    three = np.zeros(size, dtype=bool)
    block = max(1, min(size, _FAST_BLOCK))
    rows = np.empty((_FAST_ROWS, block))
    flags = np.empty((2, block), dtype=bool)
    with np.errstate(all="ignore"):
        for start in range(0, size, block):
            part = slice(start, start + block)
            count = min(block, size - start)
            _fast_block(
                m[part],
                rho[part],
                m0[part],
                gamma[part],
                penalty[part],
                certified[part],
                three[part],
                rows[:, :count],
                flags[:, :count],
            )
        index = np.flatnonzero(three)
        for start in range(0, index.size, _FAST_BLOCK):
            chunk = index[start : start + _FAST_BLOCK]
            penalty[chunk], certified[chunk] = _fast_three_roots(
                m[chunk],
                rho[chunk],
                m0[chunk],
                gamma[chunk],
                penalty[chunk],
                certified[chunk],
            )
    return penalty, certified


def _fast_block(
    m: Float64Array,
    rho: Float64Array,
    m0: Float64Array,
    gamma: Float64Array,
    penalty: Float64Array,
    certified: BoolArray,
    three: BoolArray,
    rows: Float64Array,
    flags: BoolArray,
) -> None:
    r"""Eqs. (10)-(11) on one block in float64, in place, with a certificate.

    Works on eq. (10) unscaled, :math:`q(x) = x^4 - ax^3 + bx - c` with
    :math:`a = m_0\rho`, :math:`b = \gamma m`, :math:`c = m^2` (m and
    :math:`\gamma` keep their signs: p and q depend on them only through
    :math:`(m/u-\gamma)^2`, :math:`\gamma m` and :math:`m^2`, so the result is
    bitwise symmetric). q has one positive root when :math:`a \le 0` or
    :math:`b \le 0` (Descartes) or :math:`c \ge ab` (then every root exceeds
    a, where q is convex, and deflating by the largest leaves a cubic without
    positive roots); the other points (:math:`0 < c < ab`, up to three roots)
    are marked in ``three`` for :func:`_fast_three_roots`, with p at the root
    of q's convex part, certified where that root is. Writes p and whether
    its bound holds (:func:`_fast_certify`).
    """
    a, b, c, t2, b_abs, a3, x = rows[:7]
    work = rows[7:]
    positive_a = flags[0]
    _fast_coefficients(m, rho, m0, gamma, rows[:6], work[0])
    _fast_in_range(a, b_abs, c, certified, work[:2], flags[1])
    np.greater(a, 0.0, out=positive_a)
    _fast_start(m, a, b, c, b_abs, positive_a, x, work, flags[1])
    for _ in range(_FAST_STEPS):
        _householder_step(x, a, a3, b, c, work)
    _fast_certify(
        x, m, gamma, a, a3, b, b_abs, c, t2, penalty, certified, work, flags[1]
    )
    # Up to three positive roots: 0 < c < ab (with a margin for the rounding
    # of a, b and c; the other side is proven unique above). There x is the
    # root of q's convex part if its ball lies beyond a/2.
    np.multiply(a, b, out=work[0])
    np.multiply(work[0], 1.0 + _FAST_MARGIN, out=work[0])
    np.less(c, work[0], out=three)
    np.logical_and(three, positive_a, out=three)
    if three.any():
        inside = flags[0]
        np.multiply(work[1], 2.0, out=work[0])  # delta
        np.subtract(x, work[0], out=work[0])
        np.multiply(a, 0.5 * (1.0 + _FAST_MARGIN), out=work[1])
        np.greater(work[0], work[1], out=inside)
        np.less_equal(three, inside, out=inside)  # not three, or inside
        np.logical_and(certified, inside, out=certified)


def _fast_coefficients(
    m: Float64Array,
    rho: Float64Array,
    m0: Float64Array,
    gamma: Float64Array,
    rows: Float64Array,
    work: Float64Array,
) -> None:
    r"""Rows a, b, c, :math:`t^2`, abs(b), 3a of :func:`_fast_block`, in place.

    :math:`a = m_0\rho`, :math:`b = \gamma m`, :math:`c = m^2` (eq. (10)) and
    :math:`t^2 = m_0^2(1-\rho)(1+\rho)` (eq. (8) as a sum of squares), each
    with at most five roundings.
    """
    a, b, c, t2, b_abs, a3 = rows
    np.multiply(m0, rho, out=a)
    np.multiply(gamma, m, out=b)
    np.multiply(m, m, out=c)
    np.abs(b, out=b_abs)
    # No cancellation in (1 - rho)(1 + rho) near rho = +-1 (Sterbenz).
    np.subtract(1.0, rho, out=t2)
    np.add(1.0, rho, out=work)
    np.multiply(t2, work, out=t2)
    np.multiply(m0, m0, out=work)
    np.multiply(t2, work, out=t2)
    np.multiply(a, 3.0, out=a3)


def _fast_in_range(
    a: Float64Array,
    b_abs: Float64Array,
    c: Float64Array,
    inside: BoolArray,
    work: Float64Array,
    flag: BoolArray,
) -> None:
    """Where the arguments lie in the range of the fast path (:data:`_FAST_LOW`)."""
    np.greater_equal(c, _FAST_LOW, out=inside)
    np.less_equal(b_abs, _FAST_LARGEST_PRODUCT, out=flag)
    np.logical_and(inside, flag, out=inside)
    np.multiply(c, _FAST_LARGEST_RATIO, out=work[0])
    np.abs(a, out=work[1])
    np.less_equal(work[1], work[0], out=flag)
    np.logical_and(inside, flag, out=inside)


def _fast_start(
    m: Float64Array,
    a: Float64Array,
    b: Float64Array,
    c: Float64Array,
    b_abs: Float64Array,
    positive_a: BoolArray,
    x: Float64Array,
    work: Float64Array,
    flag: BoolArray,
) -> None:
    r"""Starts for the unique positive root of eq. (10), mostly within 2x of it.

    From the balance of the terms of :math:`q(x) = x^4 - ax^3 + bx - c`:

    * :math:`a \le 0 \le b`: the least of the roots of each positive term
      against c, :math:`\min(c^{1/4}, (c/|a|)^{1/3}, c/b)` (an upper bound);
    * :math:`a > 0`, :math:`b \ge 0`: with :math:`x = a + t`,
      :math:`(a+t)^3t + bt = c - ab`, so
      :math:`t \le \min((c-ab)^{1/4}, (c-ab)/(a^3+b))`; where
      :math:`c < ab`, :math:`t = (c-ab)/(a^3+b)`, Newton's step from a
      towards the root of q's convex part;
    * :math:`b < 0`: the bounds of :func:`_scaled_minimum`,
      :math:`a_+ + \max((2|b|)^{1/3}, (2c)^{1/4})`, and for :math:`a \le 0`
      also :math:`\max(\sqrt{2|b|/|a|}, (2c/|a|)^{1/3})`.
    """
    root_c, minus_a, cube = work[0], work[1], work[2]
    np.abs(m, out=root_c)
    np.sqrt(root_c, out=root_c)
    # 0 - a, not -a: +0 for a = -0, so that c/|a| is +inf there.
    np.subtract(0.0, a, out=minus_a)
    np.divide(c, minus_a, out=cube)
    np.cbrt(cube, out=cube)
    np.divide(c, b_abs, out=x)
    np.minimum(x, root_c, out=x)
    np.minimum(x, cube, out=x)
    if positive_a.any():
        rest, ratio = work[3], work[4]
        np.multiply(a, b, out=rest)
        np.subtract(c, rest, out=rest)
        np.multiply(a, a, out=ratio)
        np.multiply(ratio, a, out=ratio)
        np.add(ratio, b, out=ratio)
        np.divide(rest, ratio, out=ratio)
        np.sqrt(rest, out=rest)
        np.sqrt(rest, out=rest)
        # c < ab (up to three roots; the root above is NaN): Newton's step
        # from a, where q(a) = ab - c > 0, towards the root of q's convex part
        # (:func:`_fast_three_roots`).
        np.fmin(rest, ratio, out=rest)
        np.add(rest, a, out=rest)
        np.copyto(x, rest, where=positive_a)
    np.less(b, 0.0, out=flag)
    if flag.any():
        above, other = work[3], work[4]
        np.cbrt(b_abs, out=above)
        np.multiply(above, 2.0 ** (1 / 3), out=above)
        np.multiply(root_c, 2.0**0.25, out=other)
        np.maximum(above, other, out=above)
        np.divide(b_abs, minus_a, out=other)
        np.multiply(other, 2.0, out=other)
        np.sqrt(other, out=other)
        np.multiply(cube, 2.0 ** (1 / 3), out=cube)
        np.maximum(other, cube, out=other)
        np.fmin(other, above, out=other)
        np.add(above, a, out=above)
        np.copyto(other, above, where=positive_a)
        np.copyto(x, other, where=flag)


def _householder_step(
    x: Float64Array,
    a: Float64Array,
    a3: Float64Array,
    b: Float64Array,
    c: Float64Array,
    work: Float64Array,
) -> None:
    r"""One Householder step of order 3 on eq. (10), in place (quartic convergence).

    .. math:: x \leftarrow x - \delta\,\frac{1 - \delta e}
              {1 - 2\delta e + \delta^2 h},\qquad
              \delta = \frac{q}{q'},\ e = \frac{q''}{2q'},\ h = \frac{q'''}{6q'}

    written with ratios to :math:`q'`, so that no power of x beyond the fourth
    is formed. ``a3`` is 3a.
    """
    square, step, four_x, slope = work[0], work[1], work[2], work[3]
    np.multiply(x, x, out=square)
    np.subtract(x, a, out=step)
    np.multiply(step, square, out=step)
    np.add(step, b, out=step)
    np.multiply(step, x, out=step)
    np.subtract(step, c, out=step)
    np.multiply(x, 4.0, out=four_x)
    np.subtract(four_x, a3, out=slope)
    np.multiply(slope, square, out=slope)
    np.add(slope, b, out=slope)
    np.divide(1.0, slope, out=slope)
    np.multiply(step, slope, out=step)  # delta
    np.subtract(four_x, a, out=four_x)
    np.multiply(four_x, slope, out=four_x)  # h = (4x - a)/q'
    np.multiply(x, 6.0, out=square)
    np.subtract(square, a3, out=square)
    np.multiply(square, x, out=square)
    np.multiply(square, slope, out=square)  # e = (6x - 3a)x/q'
    np.multiply(square, step, out=square)  # delta e
    np.multiply(four_x, step, out=four_x)
    np.multiply(four_x, step, out=four_x)
    np.add(four_x, 1.0, out=four_x)
    np.subtract(four_x, square, out=four_x)
    np.subtract(four_x, square, out=four_x)  # 1 - 2 delta e + delta^2 h
    np.subtract(1.0, square, out=square)
    np.multiply(square, step, out=square)  # delta (1 - delta e)
    np.divide(square, four_x, out=square)
    np.subtract(x, square, out=x)


def _fast_certify(
    x: Float64Array,
    m: Float64Array,
    gamma: Float64Array,
    a: Float64Array,
    a3: Float64Array,
    b: Float64Array,
    b_abs: Float64Array,
    c: Float64Array,
    t2: Float64Array,
    penalty: Float64Array,
    certified: BoolArray,
    work: Float64Array,
    flag: BoolArray,
) -> None:
    r"""p at a computed root x of eq. (10); ``certified &=`` whether its bound holds.

    The root. With :math:`\hat r` the computed :math:`q(x)`, :math:`N =
    16\epsilon_u T` a bound on its rounding and on that of the coefficients,
    :math:`R = |\hat r| + N`, and :math:`s` a lower bound on :math:`q'(x)`,
    Kantorovich's theorem puts a root of the exact eq. (10) within
    :math:`\delta = 2R/s` of x as soon as :math:`2MR \le s^2`, M bounding
    :math:`|q''| = |12y^2 - 6ay|` on the ball; with :math:`\delta \le x/4`,
    :math:`M = 12(5x/4)^2 + 6|a|(5x/4)` does. That root is simple and q
    rises through it (s > 0): a minimizer of p.

    The penalty, eq. (8) at x: :math:`p = g^2 + d^2 + t^2`,
    :math:`g = m/x - \gamma`, :math:`d = x - a`. Its rounding is at most
    :math:`\epsilon_u(2.01(|(m/x)g| + |ad|) + 7.1p)` (one rounding in m/x,
    in each difference and square, five in :math:`t^2`, two in the sum); the
    root's error adds :math:`\sup|p''|\,\delta^2/2` only (p' vanishes at the
    root), with :math:`p'' = 6m^2/y^4 - 4\gamma m/y^3 + 2` bounded on
    :math:`y \ge 3x/4`. The point is certified where the sum is at most
    :data:`_FAST_RELATIVE` p and p lies in :math:`[2^{-900}, 2^{900}]`
    (``certified`` holds :func:`_fast_in_range` on entry). Where g or d
    cancels (near the hyperbola :math:`m = m_0\rho\gamma`) the bound fails and
    :func:`_minimize` takes over.
    """
    square, residual, a_abs, bound, slope, other = work[:6]
    ok = certified
    np.multiply(x, x, out=square)
    np.subtract(x, a, out=residual)
    np.multiply(residual, square, out=residual)
    np.add(residual, b, out=residual)
    np.multiply(residual, x, out=residual)
    np.subtract(residual, c, out=residual)
    np.abs(residual, out=residual)
    np.abs(a, out=a_abs)
    # R = |q(x)| + N, N = 16 eps T, T = x^4 + |a|x^3 + |b|x + c.
    np.add(x, a_abs, out=bound)
    np.multiply(bound, square, out=bound)
    np.add(bound, b_abs, out=bound)
    np.multiply(bound, x, out=bound)
    np.add(bound, c, out=bound)
    np.multiply(bound, _FAST_NOISE * _UNIT, out=bound)
    np.add(residual, bound, out=residual)  # R
    # s = q'(x) - 8 eps (4x^3 + 3|a|x^2 + |b|), a lower bound on q'(x).
    np.multiply(x, 4.0, out=slope)
    np.multiply(a_abs, 3.0, out=bound)
    np.add(bound, slope, out=bound)
    np.multiply(bound, square, out=bound)
    np.add(bound, b_abs, out=bound)
    np.subtract(slope, a3, out=slope)
    np.multiply(slope, square, out=slope)
    np.add(slope, b, out=slope)
    np.multiply(bound, _FAST_SLOPE_NOISE * _UNIT, out=bound)
    np.subtract(slope, bound, out=slope)  # s
    # 2 M R <= s^2 with 2M = (37.5 x + 15 |a|) x, rounded up.
    np.multiply(x, 37.6, out=square)
    np.multiply(a_abs, 15.1, out=bound)
    np.add(square, bound, out=square)
    np.multiply(square, x, out=square)
    np.multiply(square, residual, out=square)
    np.multiply(slope, slope, out=bound)
    np.less_equal(square, bound, out=flag)
    np.logical_and(ok, flag, out=ok)
    # delta = 2R/s <= x/4, i.e. 8R <= x s (which also needs s > 0 for x > 0).
    np.multiply(x, slope, out=square)
    np.multiply(residual, 8.0, out=bound)
    np.less_equal(bound, square, out=flag)
    np.logical_and(ok, flag, out=ok)
    np.greater(x, 0.0, out=flag)
    np.logical_and(ok, flag, out=ok)
    np.divide(residual, slope, out=residual)  # delta / 2
    # p = g^2 + d^2 + t^2 at x.
    ratio, gap = square, slope
    np.divide(m, x, out=ratio)
    np.subtract(ratio, gamma, out=gap)
    np.subtract(x, a, out=other)  # d
    np.multiply(gap, gap, out=penalty)
    np.multiply(other, a, out=a_abs)  # a d
    np.multiply(other, other, out=other)
    np.add(penalty, other, out=penalty)
    np.add(penalty, t2, out=penalty)
    np.abs(a_abs, out=a_abs)
    np.multiply(gap, ratio, out=gap)
    np.abs(gap, out=gap)
    np.add(gap, a_abs, out=gap)  # |(m/x) g| + |a d|
    # sup p'' <= 19 (m/x^2)^2 + 9.5 |gamma m/x^2| / x + 2 for y >= 3x/4.
    np.divide(ratio, x, out=ratio)
    np.multiply(ratio, gamma, out=other)
    np.abs(other, out=other)
    np.divide(other, x, out=other)
    np.multiply(other, 9.5, out=other)
    np.multiply(ratio, ratio, out=ratio)
    np.multiply(ratio, 19.0, out=ratio)
    np.add(ratio, other, out=ratio)
    np.add(ratio, 2.0, out=ratio)
    # Error: 2.01 eps (|(m/x) g| + |a d|) + sup|p''| delta^2 / 2 (delta = 2 R/s),
    # against (16 - 7.1) eps p, with a little room for the rounding of the bound.
    np.multiply(residual, residual, out=residual)
    np.multiply(residual, ratio, out=residual)
    np.multiply(residual, 2.01, out=residual)
    np.multiply(gap, 2.01 * _UNIT, out=gap)
    np.add(gap, residual, out=gap)
    np.multiply(penalty, _FAST_RELATIVE - 7.2 * _UNIT, out=residual)
    np.less_equal(gap, residual, out=flag)
    np.logical_and(ok, flag, out=ok)
    np.greater_equal(penalty, _FAST_LOW, out=flag)
    np.logical_and(ok, flag, out=ok)
    np.less_equal(penalty, _FAST_HIGH, out=flag)
    np.logical_and(ok, flag, out=ok)


def _fast_root(
    x: Float64Array,
    m: Float64Array,
    gamma: Float64Array,
    a: Float64Array,
    a3: Float64Array,
    b: Float64Array,
    c: Float64Array,
    t2: Float64Array,
) -> tuple[Float64Array, BoolArray, Float64Array, Float64Array]:
    """:data:`_FAST_THREE_STEPS` Householder steps from x, then :func:`_fast_certify`.

    Returns ``(penalty, certified, root, delta)``, delta the radius of the
    ball around the root that holds an exact root of eq. (10).
    """
    size = x.size
    work = np.empty((6, size))
    flag = np.empty(size, dtype=bool)
    x = x.copy()
    for _ in range(_FAST_THREE_STEPS):
        _householder_step(x, a, a3, b, c, work)
    penalty = np.empty(size)
    certified = np.empty(size, dtype=bool)
    b_abs = np.abs(b)
    _fast_in_range(a, b_abs, c, certified, work[:2], flag)
    _fast_certify(x, m, gamma, a, a3, b, b_abs, c, t2, penalty, certified, work, flag)
    return penalty, certified, x, 2.0 * work[1]


def _fast_three_roots(
    m: Float64Array,
    rho: Float64Array,
    m0: Float64Array,
    gamma: Float64Array,
    convex: Float64Array,
    convex_certified: BoolArray,
) -> tuple[Float64Array, BoolArray]:
    r"""Eqs. (10)-(11) where :math:`a, b > 0` and :math:`c < ab`: up to three roots.

    Every root then lies in :math:`(c/b, a)` (q < 0 below :math:`\min(c/b, a)`,
    q > 0 from a on). The local minima of p are the roots where q rises
    through 0: one in its concave part :math:`(0, a/2)`, one in its convex
    part :math:`(a/2, \infty)`. The first exists where the maximum of q on
    its part (at :math:`v_1`, else at a/2) is positive, the second where the
    minimum on its part (at :math:`v_2`, else at a/2) is negative, with
    :math:`v_1 < a/2 < v_2` the roots of q' when :math:`4b < a^3`, in the
    trigonometric form of :func:`_scaled_minimum`. Any point's value of q
    bounds the maximum from below and the minimum from above, and near
    :math:`v_i` it errs from the extremum only at second order in the error of
    :math:`v_i`; a sign within twice the rounding bound of q, or
    :math:`4b/a^3` within :data:`_FAST_HUMP_MARGIN` of 1, leaves the point
    undecided (not certified).

    ``convex`` and ``convex_certified`` are p at the root of the convex part,
    approached from a by :func:`_fast_block`, and whether it was certified
    with its ball beyond a/2. The root of the concave part is approached from
    c/b, and must be certified with its ball below a/2; p is the smaller value.
    """
    size = m.size
    rows = np.empty((13, size))
    flags = np.empty((6, size), dtype=bool)
    _fast_coefficients(m, rho, m0, gamma, rows[:6], rows[6])
    a, b, c, t2, _, a3 = rows[:6]
    v, value, noise, ratio, work, other, v1 = rows[6:]
    right, no_right, left, no_left, hump, flag = flags

    def at(v: Float64Array) -> None:
        """q(v) into value, twice its rounding bound into noise."""
        np.multiply(v, v, out=work)
        np.subtract(v, a, out=value)
        np.multiply(value, work, out=value)
        np.add(value, b, out=value)
        np.multiply(value, v, out=value)
        np.subtract(value, c, out=value)
        np.add(v, a, out=noise)
        np.multiply(noise, work, out=noise)
        np.add(noise, b, out=noise)
        np.multiply(noise, v, out=noise)
        np.add(noise, c, out=noise)
        np.multiply(noise, 2.0 * _FAST_NOISE * _UNIT, out=noise)
        np.negative(noise, out=other)

    np.multiply(a, 0.5, out=v)
    at(v)
    np.less(value, other, out=right)
    np.greater(value, noise, out=left)
    np.copyto(no_right, left)
    np.copyto(no_left, right)
    np.multiply(a, a, out=ratio)
    np.multiply(ratio, a, out=ratio)
    np.divide(b, ratio, out=ratio)
    np.multiply(ratio, 4.0, out=ratio)  # 4b/a^3
    np.less(ratio, 1.0, out=hump)
    # sin(phi/2) = sin(asin(sqrt(4b/a^3))/3); the gap 3a/4 - v2 = a sin^2(phi/2).
    np.minimum(ratio, 1.0, out=work)
    np.sqrt(work, out=work)
    np.arcsin(work, out=work)
    np.divide(work, 3.0, out=work)
    np.sin(work, out=work)
    np.multiply(work, work, out=work)
    np.multiply(work, a, out=work)
    np.multiply(a, 0.75, out=v)
    np.subtract(v, work, out=v)  # v2
    # v1 = gap/2 + sqrt(gap^2/4 + b/(4 v2)): v1 + v3 = gap, v1 v3 = -b/(4 v2).
    np.multiply(v, 4.0, out=v1)
    np.divide(b, v1, out=v1)
    np.multiply(work, 0.5, out=other)
    np.multiply(other, other, out=value)
    np.add(v1, value, out=v1)
    np.sqrt(v1, out=v1)
    np.add(v1, other, out=v1)
    at(v)
    np.less(value, other, out=flag)
    np.logical_and(flag, hump, out=flag)
    np.logical_or(right, flag, out=right)
    np.greater(value, noise, out=flag)
    np.less_equal(hump, flag, out=flag)  # no hump, or q(v2) > N
    np.logical_and(no_right, flag, out=no_right)
    at(v1)
    np.greater(value, noise, out=flag)
    np.logical_and(flag, hump, out=flag)
    np.logical_or(left, flag, out=left)
    np.less(value, other, out=flag)
    np.less_equal(hump, flag, out=flag)  # no hump, or q(v1) < -N
    np.logical_and(no_left, flag, out=no_left)
    decided = no_right
    np.logical_or(right, no_right, out=decided)
    np.logical_or(left, no_left, out=flag)
    np.logical_and(decided, flag, out=decided)
    np.subtract(ratio, 1.0, out=work)
    np.abs(work, out=work)
    np.greater(work, _FAST_HUMP_MARGIN, out=flag)
    np.logical_and(decided, flag, out=decided)
    # Decided points have a root in one part at least.
    certified = np.where(right, convex_certified, True) & decided
    penalty = np.where(right, convex, np.inf)
    index = np.flatnonzero(left & decided)
    if index.size:
        arguments = (w[index] for w in (m, gamma, a, a3, b, c, t2))
        penalty_left, certified_left, x_left, delta_left = _fast_root(
            c[index] / b[index], *arguments
        )
        lower = a[index] * (0.5 * (1.0 - _FAST_MARGIN))
        certified[index] &= certified_left & (x_left + delta_left < lower)
        penalty[index] = np.minimum(penalty[index], penalty_left)
    return penalty, certified


def _where(mask: BoolArray, arguments: list[Float64Array]) -> str:
    """The arguments of the first point where ``mask`` holds, for a message."""
    values = (float(np.broadcast_to(v, mask.shape)[mask].flat[0]) for v in arguments)
    return ", ".join(
        f"{name}={value!r}" for name, value in zip(_NAMES, values, strict=True)
    )


def _representable(
    values: Float64Array, arguments: list[Float64Array], what: str
) -> Float64Array:
    """``values``, or OutOfRangeError where one lies beyond the float64 range."""
    beyond = np.isinf(values)
    if beyond.any():
        raise OutOfRangeError(
            f"{what} is beyond the float64 range (above 1.8e308 in magnitude) at "
            f"{_where(beyond, arguments)}: it exists but is not representable"
        )
    return values


def _differentiable(result: _Minimum, arguments: list[Float64Array]) -> None:
    """InvalidArgumentError where log r~ has no derivative in m."""
    if result.zero.any():
        raise InvalidArgumentError(
            f"log r~ is undefined where r~ = 0 ({_where(result.zero, arguments)}): "
            "the penalty vanishes only for rho = 1 and m = gamma*m0, and for "
            "m = m0 = 0"
        )
    if result.singular.any():
        raise InvalidArgumentError(
            f"{_where(result.singular, arguments)}: the penalty is not "
            "differentiable at m = 0 when the minimizer is u* = 0 "
            "(|gamma| > m0*rho or rho <= 0)"
        )


def relu_ptft_penalty(
    m: ArrayLike, rho: ArrayLike, m0: ArrayLike, gamma: ArrayLike
) -> Float64Array:
    r"""The PT+FT penalty :math:`\tilde r` of a ReLU hidden unit (global minimum).

    .. math:: \tilde r(\hat w_h, m_h \mid w_{0h}^{(1)}, \gamma)
              = \min_{u>0}\,(m_h/u-\gamma)^2 + u^2 + (m_{0h}^{(1)})^2
              - 2u m_{0h}^{(1)}\rho_h

    Eqs. (6), (8) and (11) of ptft-relu-penalty, with the minimum taken over all
    positive roots of eq. (10), not "the" root (see the module docstring).

    Let :math:`m_h` be ``m``, :math:`\rho_h` be ``rho``, :math:`m_{0h}^{(1)}` be
    ``m0`` and :math:`\gamma` be ``gamma``.

    Args:
      m: signed magnitude :math:`\|w_h^{(1)}\|_2 w_h^{(2)}` of the unit, finite.
      rho: cosine similarity in ``[-1, 1]``.
      m0: norm of the pretrained hidden weights, ``>= 0``.
      gamma: readout initialization, finite (negative allowed).

    Returns:
      The penalty, a float64 array of the broadcast shape of the arguments; a
      penalty below the float64 range is rounded to a subnormal number or 0.

    Raises:
      InvalidArgumentError: an argument is NaN or infinite, rho is outside
        ``[-1, 1]`` or m0 is negative.
      OutOfRangeError: the penalty exceeds the float64 range (it is at least
        :math:`\min(m_0^2, \gamma^2 + m_0^2(1-\rho_+^2))`-like in size, e.g.
        beyond 1.8e308 for ``m0`` above 1.35e154 with ``rho = 0``).

    Examples:
      A fresh unit (:math:`m_0 = \gamma = 0`) costs :math:`2|m|` (balanced weights):

      >>> bool(np.isclose(relu_ptft_penalty(3.0, 0.5, 0.0, 0.0), 6.0))
      True

      With :math:`\rho = 1` and :math:`m = \gamma m_0` no deviation is needed:

      >>> relu_ptft_penalty([0.5, 2.0], 1.0, 1.0, [0.5, 2.0]).tolist()
      [0.0, 0.0]

    References:
      Eqs. (6)-(11) of ptft-relu-penalty.
    """
    arguments = relu_unit_arguments(m, rho, m0, gamma)
    return _representable(_penalty(*arguments), arguments, "the penalty r~")


def relu_ptft_scale(
    m: ArrayLike, rho: ArrayLike, m0: ArrayLike, gamma: ArrayLike
) -> Float64Array:
    r"""The global minimizer :math:`u^* = \|w_h^{(1)}\|_2` of eq. (6).

    .. math:: u^* = \operatorname{arg\,min}_{u>0}\, p(u),\qquad
              u^{*4} - m_{0h}^{(1)}\rho_h u^{*3} + \gamma m_h u^* - m_h^2 = 0

    Eqs. (6) and (10) of ptft-relu-penalty; the readout weight is
    :math:`w_h^{(2)} = m_h/u^*`. At ``m = 0`` the minimizer is
    :math:`m_{0h}^{(1)}\rho_h` if the readout is switched off, and 0 if the
    hidden weights are (module docstring). Where two local minima tie exactly
    the larger u is returned.

    Args:
      m, rho, m0, gamma: as for :func:`relu_ptft_penalty`.

    Returns:
      :math:`u^*`, a float64 array of the broadcast shape of the arguments; a
      minimizer below the float64 range (e.g. :math:`u^*\approx m/\gamma` for
      a tiny ``m`` and a huge ``gamma``) is rounded to a subnormal number or 0.

    Raises:
      InvalidArgumentError: as :func:`relu_ptft_penalty`.
      OutOfRangeError: :math:`u^*` exceeds the float64 range (only for
        ``m0`` or ``|gamma|`` within rounding of the largest float64).

    Examples:
      With :math:`\rho = 1` and :math:`m = \gamma m_0` no deviation is needed:

      >>> float(relu_ptft_scale(0.2, 1.0, 2.0, 0.1))
      2.0

    References:
      Eqs. (6) and (10) of ptft-relu-penalty.
    """
    arguments = relu_unit_arguments(m, rho, m0, gamma)
    return _representable(_minimize(*arguments).scale, arguments, "the minimizer u*")


def relu_ptft_stationary_count(
    m: ArrayLike, rho: ArrayLike, m0: ArrayLike, gamma: ArrayLike
) -> Float64Array:
    r"""The number of positive roots of eq. (10) (stationary points of p), 1 or 3.

    .. math:: \#\{u > 0 : u^4 - m_{0h}^{(1)}\rho_h u^3 + \gamma m_h u - m_h^2 = 0\}

    The paper reports one positive root "in all empirical cases we explored";
    three occur when :math:`\rho > 0`, :math:`\gamma m > 0` and q has a dip
    below zero after a hump above it. Double roots (measure zero) count as one
    or three according to rounding. At ``m = 0`` the count is 1 (or 0 roots
    when :math:`\rho\le 0`, reported as 1: the infimum is then at :math:`u\to 0`).

    Args:
      m, rho, m0, gamma: as for :func:`relu_ptft_penalty`.

    Returns:
      The count as a float64 array.

    Examples:
      >>> relu_ptft_stationary_count([1e-8, -1e-8], 1.0, 1.0, 0.01).tolist()
      [3.0, 1.0]

    References:
      Eq. (10) of ptft-relu-penalty.
    """
    return _minimize(*relu_unit_arguments(m, rho, m0, gamma)).roots


def relu_ptft_log_slope(
    m: ArrayLike, rho: ArrayLike, m0: ArrayLike, gamma: ArrayLike
) -> Float64Array:
    r"""The derivative :math:`\partial\log\tilde r/\partial m_h`, exact (envelope).

    .. math:: \frac{\partial \log\tilde r}{\partial m_h}
              = \frac{2\,(m_h/u^*-\gamma)}{u^*\,\tilde r}

    The quantity Section 1.2 of ptft-relu-penalty prints; the values it reads
    off it (2 for :math:`\ell_2`-like, 1 for :math:`\ell_1`-like) are those of
    :func:`relu_ptft_log_log_slope`, which is ``m`` times this one. Where two
    local minima tie the penalty has a kink, and the slope of the branch
    :func:`relu_ptft_scale` returns is given. The ratio is formed where its
    parts are representable, so the slope is exact also where :math:`u^*`
    or :math:`\tilde r` lie below the float64 range (e.g. :math:`2/m` for a
    tiny :math:`m_h/\gamma`).

    Args:
      m, rho, m0, gamma: as for :func:`relu_ptft_penalty`.

    Returns:
      The slope, a float64 array of the broadcast shape of the arguments.

    Raises:
      InvalidArgumentError: as :func:`relu_ptft_penalty`; also where the
        penalty is 0 (log undefined) or where ``m = 0`` and the minimizer is
        :math:`u^* = 0` (the penalty jumps there: no derivative).
      OutOfRangeError: the slope exceeds the float64 range (e.g. about
        :math:`1/m_h` for ``|m|`` below 1e-308).

    Examples:
      For a fresh unit :math:`\tilde r = 2|m|`, so the slope is :math:`1/m`:

      >>> bool(np.isclose(relu_ptft_log_slope(4.0, 0.3, 0.0, 0.0), 0.25))
      True

    References:
      Section 1.2 of ptft-relu-penalty; eq. (11) and the envelope theorem.
    """
    arguments = relu_unit_arguments(m, rho, m0, gamma)
    result = _minimize(*arguments, slope=True)
    _differentiable(result, arguments)
    return _representable(result.slope, arguments, "the slope d(log r~)/dm")


def relu_ptft_log_log_slope(
    m: ArrayLike, rho: ArrayLike, m0: ArrayLike, gamma: ArrayLike
) -> Float64Array:
    r"""The elasticity :math:`\partial\log\tilde r/\partial\log|m_h|` (2: l2, 1: l1).

    .. math:: \frac{\partial \log\tilde r}{\partial \log |m_h|}
              = m_h\,\frac{\partial \log\tilde r}{\partial m_h}

    The slope of :math:`\tilde r` on log-log axes, the reading Section 1.2 of
    ptft-relu-penalty gives to its "derivative of the log norm" (Fig. 1b): a
    penalty :math:`\propto |m|^k` has elasticity k. It is ``m`` times
    :func:`relu_ptft_log_slope` wherever that slope is a normal float64
    number, and is evaluated directly where it is not (e.g. 2 for
    ``m = 1e-310``, whose slope :math:`2/m` overflows).

    Args:
      m, rho, m0, gamma: as for :func:`relu_ptft_penalty`.

    Returns:
      The elasticity, a float64 array of the broadcast shape of the arguments.

    Raises:
      InvalidArgumentError: as :func:`relu_ptft_log_slope`.
      OutOfRangeError: the elasticity exceeds the float64 range.

    Examples:
      >>> bool(np.isclose(relu_ptft_log_log_slope(-7.0, 0.3, 0.0, 0.0), 1.0))
      True

    References:
      Section 1.2 and Fig. 1b of ptft-relu-penalty.
    """
    arguments = relu_unit_arguments(m, rho, m0, gamma)
    result = _minimize(*arguments, slope=True)
    _differentiable(result, arguments)
    return _representable(result.elasticity, arguments, "the elasticity")


def relu_ptft_deviation(
    u: ArrayLike, m: ArrayLike, rho: ArrayLike, m0: ArrayLike, gamma: ArrayLike
) -> Float64Array:
    r"""The objective p(u) of eq. (8), in cancellation-free form.

    .. math:: p(u) = (m_h/u-\gamma)^2 + (u-m_{0h}^{(1)}\rho_h)^2
              + \Big(m_{0h}^{(1)}\sqrt{(1-\rho_h)(1+\rho_h)}\Big)^2

    Args:
      u: hidden-weight norm, ``> 0``.
      m, rho, m0, gamma: as for :func:`relu_ptft_penalty`.

    Returns:
      p(u), a float64 array of the broadcast shape of the arguments.

    Raises:
      InvalidArgumentError: ``u`` is not positive and finite, or as
        :func:`relu_ptft_penalty`.
      OutOfRangeError: p(u) exceeds the float64 range (e.g. :math:`(m/u)^2`
        for ``|m/u|`` above 1.35e154).

    Examples:
      >>> at_two = relu_ptft_deviation(2.0, 1.0, 0.5, 1.0, 0.0)
      >>> bool(at_two >= relu_ptft_penalty(1.0, 0.5, 1.0, 0.0))
      True

    References:
      Eq. (8) of ptft-relu-penalty.
    """
    u_, m_, rho_, m0_, gamma_ = as_finite_arrays(
        {"u": u, "m": m, "rho": rho, "m0": m0, "gamma": gamma}
    )
    if (u_ <= 0).any():
        raise InvalidArgumentError(
            f"u={float(u_[u_ <= 0].flat[0])!r} is not positive: u is a norm, u > 0"
        )
    arguments = relu_unit_arguments(m_, rho_, m0_, gamma_)
    with np.errstate(over="ignore"):
        # m0 sqrt((1 - rho)(1 + rho)) <= m0: no inf * 0 at rho = +-1 for a huge m0.
        value = (
            (m_ / u_ - gamma_) ** 2
            + (u_ - m0_ * rho_) ** 2
            + (m0_ * np.sqrt((1.0 - rho_) * (1.0 + rho_))) ** 2
        )
    beyond = np.isinf(value)
    if beyond.any():
        point = np.broadcast_to(u_, beyond.shape)[beyond].flat[0]
        raise OutOfRangeError(
            f"p(u) is beyond the float64 range (above 1.8e308) at u={float(point)!r}, "
            f"{_where(beyond, arguments)}: it exists but is not representable"
        )
    return np.asarray(value, dtype=np.float64)


_NAMES = ("m", "rho", "m0", "gamma")


_MEANINGS = {
    "m": "the product m_h of readout and hidden norm, a real number",
    "rho": "a cosine in [-1, 1]",
    "m0": "a norm, >= 0",
    "gamma": "the readout's initial value, a real number",
}


def _check_mp_arguments(m: Any, rho: Any, m0: Any, gamma: Any, dps: Any) -> int:
    """Check the arguments of the mpmath references, naming a bad one; return dps."""
    values = [
        check_mp_real(name, value, meaning=_MEANINGS[name])
        for name, value in zip(_NAMES, (m, rho, m0, gamma), strict=True)
    ]
    relu_unit_arguments(*(float(value) for value in values))
    return check_dps(dps)


def _dyadic(mantissa: int, exponent: int) -> Fraction:
    """The rational number ``mantissa * 2**exponent``."""
    if exponent >= 0:
        return Fraction(int(mantissa) << int(exponent))
    return Fraction(int(mantissa), 1 << -int(exponent))


def _exact_rational(value: Any, dps: int) -> Fraction:
    """The exact rational value of a float or mpf (an mpf is +-man * 2**exp)."""
    with mpmath.workdps(dps + 10):
        number = mpmath.mpf(value)
    mantissa, exponent = number.man_exp
    sign = -1 if number < 0 else 1
    return sign * _dyadic(mantissa, exponent)


def _to_mpf(value: Fraction) -> Any:
    """A fraction rounded to an mpf at the working precision."""
    return mpmath.mpf(value.numerator) / value.denominator


def relu_ptft_stationary_points_mp(
    m: float, rho: float, m0: float, gamma: float, *, dps: int = 50
) -> list[mpmath.mpf]:
    r"""Every positive root of eq. (10), exactly isolated, to ``dps`` digits each.

    .. math:: u^4 - m_{0h}^{(1)}\rho_h u^3 + \gamma m_h u - m_h^2 = 0,\quad u > 0

    The float arguments are converted to exact rationals; python-flint factors
    the quartic over the integers and Arb isolates the roots of each factor
    in balls with rigorous radii, which are narrowed to a relative width of
    :math:`10^{-dps-10}` and certified by exact rational signs at their ends
    (:func:`_positive_root_intervals`). Unlike a floating-point root finder,
    this resolves roots many decades apart (e.g. :math:`u \approx m_h/\gamma`
    next to :math:`u \approx m_{0h}^{(1)}\rho_h`) and roots close to double.

    Args:
      m, rho, m0, gamma: scalars (floats or mpmath numbers, taken exactly at
        ``dps + 10`` digits), as for :func:`relu_ptft_penalty`.
      dps: decimal digits of each root.

    Returns:
      The distinct positive roots in increasing order (empty when ``m = 0``
      and :math:`\rho\le 0`).

    Raises:
      InvalidArgumentError: an argument is not a finite real number (strings,
        None, complex numbers and bools are refused), is outside its domain
        as for :func:`relu_ptft_penalty`, or ``dps`` is not an integer in
        ``[1, MAX_DPS]``.

    Examples:
      >>> [float(r) for r in relu_ptft_stationary_points_mp(4.0, 0.5, 0.0, 0.0)]
      [2.0]

    References:
      Eq. (10) of ptft-relu-penalty.
    """
    dps = _check_mp_arguments(m, rho, m0, gamma, dps)
    quartic = _exact_quartic(m, rho, m0, gamma, dps)
    with mpmath.workdps(dps + 10):
        return [
            _to_mpf((low + high) / 2)
            for low, high in _positive_root_intervals(quartic, dps)
        ]


def _exact_quartic(m: Any, rho: Any, m0: Any, gamma: Any, dps: int) -> list[Fraction]:
    """Eq. (10) with the exact rational values of the arguments, leading term first."""
    m_, rho_, m0_, gamma_ = (_exact_rational(v, dps) for v in (m, rho, m0, gamma))
    return [Fraction(1), -m0_ * rho_, Fraction(0), gamma_ * m_, -m_ * m_]


def _value(coefficients: list[Fraction], x: Fraction) -> Fraction:
    """A polynomial at x, exactly (Horner's scheme on fractions, leading term first)."""
    value = Fraction(0)
    for coefficient in coefficients:
        value = value * x + coefficient
    return value


#: Rounds of the root isolation, each at twice the bits of the one before, from
#: 3.3 (dps + 10) + 16 bits. Float64 arguments put a root no closer to m0*rho
#: than ~10^-2000 of it (exponents within +-1100 in the quartic's terms), which
#: takes ~6650 bits more than the width alone: 6 rounds at dps = 1, fewer at
#: larger dps. Roots of two factors closer together than the width (nearly
#: double roots) take extra rounds likewise, until their intervals are disjoint.
_ISOLATION_ROUNDS = 12


def _positive_root_intervals(
    quartic: list[Fraction], dps: int, centre: Fraction | None = None
) -> list[tuple[Fraction, Fraction]]:
    r"""Rational intervals around the distinct positive roots of a quartic, certified.

    python-flint factors the quartic (its coefficients, leading term first)
    over the integers, exactly, and Arb encloses the complex roots of each
    irreducible factor in disjoint balls with rigorous radii, real roots with
    an imaginary part of exactly 0. Each real ball is read as the rational
    interval :math:`[\mathrm{mid}-\mathrm{rad}, \mathrm{mid}+\mathrm{rad}]`,
    and the positive ones are accepted when, checked in exact arithmetic:

    * the intervals are pairwise disjoint: then each holds one root of the
      quartic and no other (a root of one factor inside the interval of
      another would make their intervals meet);
    * the irreducible factor, whose roots are simple, has opposite signs at the
      two ends (or the interval is a point where it vanishes), so the interval
      holds its root independently of Arb's radii;
    * the interval lies in :math:`(0, \infty)` and has a width of at most
      :math:`10^{-dps-10}` of its lower end; with ``centre`` (:math:`m_0\rho`)
      also at most :math:`10^{-dps-10}` of its distance to ``centre``, unless
      ``centre`` is the root it holds.

    Otherwise the roots are enclosed again at twice the bits.

    Raises:
      ConvergenceError: not certified in :data:`_ISOLATION_ROUNDS` rounds (a
        defect).
    """
    from flint import ctx, fmpq, fmpq_poly

    polynomial = fmpq_poly(
        [fmpq(c.numerator, c.denominator) for c in reversed(quartic)]
    )
    # Any: python-flint's stubs type complex_roots() as a list of acb, but it
    # returns (root, multiplicity) pairs.
    factors: list[Any] = [factor for factor, _ in polynomial.numer().factor()[1]]
    relative = Fraction(1, 10 ** (dps + 10))
    bits = math.ceil((dps + 10) * math.log2(10)) + 16
    for _ in range(_ISOLATION_ROUNDS):
        with ctx.workprec(bits):
            balls = [
                (factor, root.real)
                for factor in factors
                for root, _ in factor.complex_roots()
                if root.imag.is_zero()
            ]
        intervals = []
        for factor, ball in balls:
            middle, radius = (
                _dyadic(*ball.mid().man_exp()),
                _dyadic(*ball.rad().man_exp()),
            )
            if middle + radius > 0:
                intervals.append((factor, middle - radius, middle + radius))
        intervals.sort(key=lambda interval: interval[1])
        if _certified(intervals, quartic, relative, centre):
            return [(low, high) for _, low, high in intervals]
        bits *= 2
    raise ConvergenceError(
        f"the positive roots of eq. (10) with coefficients {quartic} could not be "
        f"certified at {bits // 2} bits; this is a defect, please report the arguments"
    )


def _certified(
    intervals: list[tuple[Any, Fraction, Fraction]],
    quartic: list[Fraction],
    relative: Fraction,
    centre: Fraction | None,
) -> bool:
    """Whether sorted (factor, low, high) intervals pass the checks (see caller).

    The checks are those listed by :func:`_positive_root_intervals`.
    """
    from flint import fmpq

    for (_, _, high), (_, low, _) in itertools.pairwise(intervals):
        if not high < low:
            return False
    for factor, low, high in intervals:
        if not (low > 0 and high - low <= relative * low):
            return False
        ends = [factor(fmpq(end.numerator, end.denominator)) for end in (low, high)]
        if not (ends[0] * ends[1] < 0 or (low == high and ends[0] == 0)):
            return False
        if centre is None:
            continue
        if low <= centre <= high:
            if _value(quartic, centre) != 0:
                return False
        elif high - low > relative * min(abs(low - centre), abs(high - centre)):
            return False
    return True


def _penalty_at_root_mp(
    quartic: list[Fraction],
    interval: tuple[Fraction, Fraction],
    a: Fraction,
    arguments: tuple[Any, Any, Any],
    dps: int,
) -> tuple[Any, Any]:
    r"""(u, p) at the root of eq. (10) in ``interval``, p without cancellation.

    At a root :math:`g = u^2 d/m` (:math:`d = u - m_0\rho`), so

    .. math:: p = d^2\left(1 + \frac{u^4}{m^2}\right) + m_0^2(1-\rho)(1+\rho),

    a sum of nonnegative terms (``arguments`` are m, rho and m0; ``a`` is
    :math:`m_0\rho`, exactly). d is computed exactly from a rational interval
    of width at most :math:`10^{-dps-10}|d|` (:func:`_positive_root_intervals`
    with centre ``a``): the direct form :math:`(m/u-\gamma)^2 + \ldots` would
    lose as many digits as :math:`m/u` and :math:`\gamma` share (70 at
    m = 0.1, gamma = 1e17).
    """
    low, high = interval
    if low <= a <= high and _value(quartic, a) == 0:
        middle, deviation = a, Fraction(0)
    else:
        middle = (low + high) / 2
        deviation = middle - a
    with mpmath.workdps(dps + 10):
        u, d = _to_mpf(middle), _to_mpf(deviation)
        return u, _penalty_at_root_mpmath()(u, d, *arguments)


def _mp_minimize(m: Any, rho: Any, m0: Any, gamma: Any, dps: int) -> tuple[Any, Any]:
    """(u*, r~) at ``dps`` digits, from the exactly isolated roots of eq. (10)."""
    dps = _check_mp_arguments(m, rho, m0, gamma, dps)
    with mpmath.workdps(dps + 10):
        m_, rho_, m0_, gamma_ = (mpmath.mpf(v) for v in (m, rho, m0, gamma))
        if m_ == 0:
            off_hidden = m0_**2
            off_readout = gamma_**2 + m0_**2 * (1 - max(rho_, 0) ** 2)
            if rho_ > 0 and abs(gamma_) <= m0_ * rho_:
                return +(m0_ * rho_), +off_readout
            return mpmath.mpf(0), +off_hidden
    quartic = _exact_quartic(m, rho, m0, gamma, dps)
    a = -quartic[1]
    candidates = [
        _penalty_at_root_mp(quartic, interval, a, (m_, rho_, m0_), dps)
        for interval in _positive_root_intervals(quartic, dps, centre=a)
    ]
    u_star, penalty = min(candidates, key=lambda candidate: candidate[1])
    return u_star, penalty


def relu_ptft_penalty_mp(
    m: float, rho: float, m0: float, gamma: float, *, dps: int = 50
) -> mpmath.mpf:
    r"""Reference value of :func:`relu_ptft_penalty` at ``dps`` significant digits.

    .. math:: \tilde r = \min_{u^*>0,\ q(u^*)=0} p(u^*)

    The minimum of eq. (11) over the positive roots of eq. (10) found by
    :func:`relu_ptft_stationary_points_mp` (exact root isolation, an algorithm
    independent of the NumPy path), evaluated at ``dps + 10`` digits.

    Args:
      m, rho, m0, gamma: scalars, as for :func:`relu_ptft_penalty`.
      dps: decimal digits of the result.

    Returns:
      :math:`\tilde r` as an ``mpmath.mpf``.

    Raises:
      InvalidArgumentError: an argument is not a finite real number (strings,
        None, complex numbers and bools are refused), is outside its domain
        as for :func:`relu_ptft_penalty`, or ``dps`` is not an integer in
        ``[1, MAX_DPS]``.

    Examples:
      >>> float(relu_ptft_penalty_mp(3.0, 0.5, 0.0, 0.0))
      6.0

    References:
      Eqs. (10)-(11) of ptft-relu-penalty.
    """
    return _mp_minimize(m, rho, m0, gamma, dps)[1]


def relu_ptft_scale_mp(
    m: float, rho: float, m0: float, gamma: float, *, dps: int = 50
) -> mpmath.mpf:
    r"""Reference value of :func:`relu_ptft_scale` at ``dps`` significant digits.

    .. math:: u^* = \operatorname{arg\,min}_{u^*>0,\ q(u^*)=0} p(u^*)

    Args:
      m, rho, m0, gamma: scalars, as for :func:`relu_ptft_penalty`.
      dps: decimal digits of the result.

    Returns:
      :math:`u^*` as an ``mpmath.mpf``.

    Raises:
      InvalidArgumentError: an argument is not a finite real number (strings,
        None, complex numbers and bools are refused), is outside its domain
        as for :func:`relu_ptft_penalty`, or ``dps`` is not an integer in
        ``[1, MAX_DPS]``.

    Examples:
      >>> float(relu_ptft_scale_mp(4.0, 0.5, 0.0, 0.0))
      2.0

    References:
      Eqs. (6) and (10) of ptft-relu-penalty.
    """
    return _mp_minimize(m, rho, m0, gamma, dps)[0]
