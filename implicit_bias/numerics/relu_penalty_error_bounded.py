r"""The PT+FT penalty of a ReLU unit: the error-bounded float64 path, mpmath fallback.

:func:`_minimize` evaluates eqs. (6)-(11) of ptft-relu-penalty -- the global
minimizer :math:`u^*`, the penalty :math:`\tilde r`, the number of stationary
points and the slope :math:`\partial\log\tilde r/\partial m` -- with an error
bound on every result. It serves the scale, the count and the slopes of
:mod:`implicit_bias.numerics.relu_penalty`, and the points the certified fast
path (:mod:`implicit_bias.numerics.relu_penalty_certified`) leaves. Notation
and the conventions at the edges of the domain (m = 0, gamma < 0, a point on
the hyperbola) are those of :mod:`implicit_bias.numerics.relu_penalty`.

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
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any, NamedTuple

import mpmath
import numpy as np
from numpy.typing import NDArray

from implicit_bias.errors import ConvergenceError

#: No public names: :mod:`implicit_bias.numerics.relu_penalty` is the interface.
__all__: list[str] = []

Float64Array = NDArray[np.float64]
BoolArray = NDArray[np.bool_]


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
    if best is None:
        raise AssertionError("best is not None")
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
