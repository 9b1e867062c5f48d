r"""The PT+FT penalty of a ReLU unit: the certified float64 fast path.

The fast path of :func:`~implicit_bias.numerics.relu_penalty.relu_ptft_penalty`
(eqs. (10)-(11) of ptft-relu-penalty, notation as in
:mod:`implicit_bias.numerics.relu_penalty`). The penalty alone needs neither
the scale nor the slope, and p is stationary at the root: an error
:math:`\delta` in u moves p by :math:`p''\delta^2/2` only. So
:func:`_fast_penalty` solves eq. (10) unscaled, from closed-form starts, by a
fixed number of Householder steps of order 3 in preallocated blocks, and
certifies each point a posteriori: Kantorovich's theorem on the residual
bounds :math:`\delta`, and the rounding of eq. (8) at the root is bounded term
by term (:func:`_fast_certify`). Where the bound is at most 16 unit roundoffs
(1.8e-15) of p the value is returned; elsewhere -- p cancelling near the
hyperbola, a near-double root, m = 0, magnitudes near the ends of float64 --
the point is evaluated by the error-bounded path of
:mod:`implicit_bias.numerics.relu_penalty_error_bounded`. The points with up
to three roots are decided from the signs of q at its critical points, as
there.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

#: No public names: :mod:`implicit_bias.numerics.relu_penalty` is the interface.
__all__: list[str] = []

Float64Array = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

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
#: bound then fails are evaluated again by the error-bounded path
#: (:func:`~implicit_bias.numerics.relu_penalty_error_bounded._minimize`).
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
    * :math:`b < 0`: the bounds of
      :func:`~implicit_bias.numerics.relu_penalty_error_bounded._scaled_minimum`,
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
    :func:`~implicit_bias.numerics.relu_penalty_error_bounded._minimize` takes
    over.
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
    trigonometric form of
    :func:`~implicit_bias.numerics.relu_penalty_error_bounded._scaled_minimum`.
    Any point's value of q
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
