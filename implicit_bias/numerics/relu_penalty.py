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

The penalty is evaluated in the cancellation-free form

.. math:: p(u) = (m/u-\gamma)^2 + (u-m_0\rho)^2 + m_0^2(1-\rho)(1+\rho),

lambdified from :func:`implicit_bias.theory.relu_penalty.deviation_geometric`.

Conventions at the edges of the domain:

* ``m = 0``: the unit carries no function. The constraint of eq. (5) is then
  met by switching off either layer, and the penalty is the infimum of eq. (5)
  over both ways, :math:`\min(m_0^2,\ \gamma^2 + m_0^2(1-\rho_+^2))` with
  :math:`\rho_+ = \max(\rho, 0)`; the scale is :math:`m_0\rho` when the
  second is smaller (readout switched off) and 0 otherwise. This is the
  limit :math:`m\to 0` from the side where :math:`\gamma m > 0`.
* ``gamma < 0``: a readout initialized at a negative value. Since p depends on
  m and :math:`\gamma` only through :math:`(m/u-\gamma)^2` and :math:`m^2`,
  :math:`\tilde r(-m, \rho, m_0, -\gamma) = \tilde r(m, \rho, m_0, \gamma)`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np
import sympy as sp
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import ConvergenceError, InvalidArgumentError
from implicit_bias.numerics.arguments import as_finite_arrays, relu_unit_arguments
from implicit_bias.theory import relu_penalty as theory
from implicit_bias.theory.symbols import gamma as gamma_symbol
from implicit_bias.theory.symbols import m as m_symbol
from implicit_bias.theory.symbols import m0 as m0_symbol
from implicit_bias.theory.symbols import rho as rho_symbol
from implicit_bias.theory.symbols import u as u_symbol

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

_ARGUMENTS = (u_symbol, m_symbol, rho_symbol, m0_symbol, gamma_symbol)
_deviation_numpy: Callable[..., Any] = sp.lambdify(
    _ARGUMENTS, theory.deviation_geometric(), modules="numpy"
)
_deviation_mpmath: Callable[..., Any] = sp.lambdify(
    _ARGUMENTS, theory.deviation_geometric(), modules="mpmath"
)
_from_gap_numpy: Callable[..., Any] = sp.lambdify(
    (theory.readout_gap, u_symbol, rho_symbol, m0_symbol),
    theory.deviation_from_gap(),
    modules="numpy",
)
_gap_at_root_numpy: Callable[..., Any] = sp.lambdify(
    _ARGUMENTS, theory.readout_gap_at_root(), modules="numpy"
)
_envelope_from_gap_numpy: Callable[..., Any] = sp.lambdify(
    (theory.readout_gap, u_symbol), theory.envelope_slope_from_gap(), modules="numpy"
)

#: A computed root is taken to be within this many ulps of the exact one (the
#: iterations stop at steps of 4 ulps or a residual at the rounding level).
_ROOT_ULPS = 8.0
#: Iterations stop once a step moves the scaled root by less than this many ulps.
_NEWTON_ULPS = 4.0
#: From the starts below, about 5 steps reach the root (at most ~15 seen over
#: 10^6 points with magnitudes 1e-100..1e100); this cap only guards a defect.
_NEWTON_MAX_STEPS = 200
#: Below this the scaled constant term m^2/s^4 of eq. (10) has lost digits to
#: underflow (it is within 2^52 of the subnormal range): such points, with
#: |m| below ~1e-145 (m0 rho)^2, go through _minimize_small_magnitude.
_SMALLEST_SCALED_CONSTANT = 1e-290
#: Points per block of the elementwise work (64 KiB per float64 temporary).
_BLOCK = 8192
#: Rounding of eq. (10) in Horner form: at most ~5 ulps of its largest term.
_NOISE_ULPS = 8.0
#: Below this fraction of points still moving, iterate on those only.
_COMPACT_FRACTION = 0.05


def _quartic(
    x: Float64Array, a: Float64Array, b: Float64Array, c: Float64Array
) -> Float64Array:
    """Eq. (10) in Horner form, :math:`((x - a)x^2 + b)x - c`."""
    return ((x - a) * x * x + b) * x - c


def _newton_step(
    x: Float64Array, a: Float64Array, b: Float64Array, c: Float64Array
) -> NDArray[np.bool_]:
    r"""One Halley step on eq. (10), in place; returns which points still move.

    Halley's step is Newton's step :math:`\delta = q/q'` divided by
    :math:`1 - \delta q''/(2q')`; written that way, no product of the tiny
    residual with another small number underflows. A point stops once its step
    is below a few ulps or its residual is at the rounding level of the
    quartic's terms: a root with condition number kappa cannot be located
    closer than ~kappa ulps, and smaller steps would only chase rounding noise.
    """
    eps = np.finfo(np.float64).eps
    square = x * x
    cube = square * x
    residual = ((x - a) * cube + b * x) - c
    slope = (4.0 * x - 3.0 * a) * square + b
    newton = np.divide(residual, slope, out=np.zeros_like(x), where=slope != 0)
    correction = 1.0 - newton * (6.0 * x - 3.0 * a) * x / slope
    step = np.divide(newton, correction, out=newton, where=correction > 0.5)
    noise = _NOISE_ULPS * eps * ((x + np.abs(a)) * cube + np.abs(b) * x + c)
    moving = (np.abs(step) > _NEWTON_ULPS * eps * x) & (np.abs(residual) > noise)
    x -= np.where(moving, step, 0.0)
    return moving


def _newton(
    x: Float64Array, a: Float64Array, b: Float64Array, c: Float64Array
) -> Float64Array:
    """Halley's method on eq. (10) from a start where Newton's converges monotonically.

    Where Halley's correction would more than double Newton's step (far from
    the root), the plain Newton step is taken, so the iterates keep Newton's
    monotone approach.
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
            return x
    raise ConvergenceError(
        f"Halley's method on eq. (10) did not converge in {_NEWTON_MAX_STEPS} steps "
        f"for {active.size} points; this is a defect, please report the arguments"
    )


def _readout_gap(
    u: Float64Array,
    m: Float64Array,
    rho: Float64Array,
    m0: Float64Array,
    gamma: Float64Array,
) -> Float64Array:
    r"""The readout gap :math:`m/u - \gamma` at a computed root u of eq. (10).

    Two forms agree at an exact root: :math:`m/u - \gamma` and
    :math:`u^2(u - m_0\rho)/m`. With u known to :math:`\delta u` (a few ulps,
    :data:`_ROOT_ULPS`), their absolute errors are about
    :math:`\epsilon(|m/u| + |\gamma|) + |m|\delta u/u^2` (cancellation, then the
    slope in u) and :math:`(u^2\epsilon(u + |a|) + u(3u + 2|a|)\delta u)/|m|`
    with :math:`a = m_0\rho` (the second form's slope in u is
    :math:`(3u^2 - 2au)/m`).
    Each point takes the form with the smaller estimate: the first unless it
    cancels badly (e.g. u near m/gamma), the second only where it is not
    amplified by a large :math:`u^2/|m|`.
    """
    eps = np.finfo(np.float64).eps
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        direct = m / u - gamma
        at_root = _gap_at_root_numpy(u, m, rho, m0, gamma)
        shift = _ROOT_ULPS * eps * u
        direct_error = eps * (np.abs(m / u) + np.abs(gamma)) + np.abs(m) * shift / u**2
        a = np.abs(m0 * rho)
        root_error = (u * u * eps * (u + a) + u * (3 * u + 2 * a) * shift) / np.abs(m)
        return np.asarray(np.where(root_error < direct_error, at_root, direct))


def _penalty_at_root(
    u: Float64Array,
    m: Float64Array,
    rho: Float64Array,
    m0: Float64Array,
    gamma: Float64Array,
) -> Float64Array:
    """Eq. (11) at a computed root u of eq. (10), with the better readout gap."""
    gap = _readout_gap(u, m, rho, m0, gamma)
    return np.asarray(_from_gap_numpy(gap, u, rho, m0), dtype=np.float64)


def _minimize(
    m: Float64Array, rho: Float64Array, m0: Float64Array, gamma: Float64Array
) -> tuple[Float64Array, Float64Array, Float64Array]:
    """Global minimizer u*, minimum p(u*) and stationary-point count, elementwise.

    Works through blocks of :data:`_BLOCK` points so that the temporaries of
    the elementwise arithmetic stay in cache (twice as fast as whole arrays
    at 10^5 points).
    """
    shape = m.shape
    flat = [np.ascontiguousarray(v).ravel() for v in (m, rho, m0, gamma)]
    u_star, penalty, count = (np.empty(flat[0].size) for _ in range(3))
    for start in range(0, flat[0].size, _BLOCK):
        block = slice(start, start + _BLOCK)
        u_star[block], penalty[block], count[block] = _minimize_block(
            *(v[block] for v in flat)
        )
    return u_star.reshape(shape), penalty.reshape(shape), count.reshape(shape)


def _minimize_block(
    m: Float64Array, rho: Float64Array, m0: Float64Array, gamma: Float64Array
) -> tuple[Float64Array, Float64Array, Float64Array]:
    """:func:`_minimize` on one block of flat arrays."""
    zero = m == 0
    if zero.any():
        # m == 0: the infimum over both ways of switching the unit off; the
        # other points go through the quartic on their own.
        rho_plus = np.maximum(rho, 0.0)
        off_readout = gamma**2 + m0**2 * (1 - rho_plus) * (1 + rho_plus)
        # |gamma| <= m0 rho decides the tie without the cancellation in off_readout.
        interior = (rho > 0) & (np.abs(gamma) <= m0 * rho)
        u_star = np.where(interior, m0 * rho, 0.0)
        penalty = np.minimum(m0**2, off_readout)
        count = np.ones_like(m)
        live = ~zero
        if live.any():
            u_star[live], penalty[live], count[live] = _minimize_block(
                m[live], rho[live], m0[live], gamma[live]
            )
        return u_star, penalty, count
    a_raw = m0 * rho
    # With s = max(|a|, |gamma m|^(1/3), |m|^(1/2)) every scaled coefficient lies
    # in [-1, 1] and every root in (0, 2] (Fujiwara's bound), and s is as small as
    # such a bound can be, which keeps the constant term m^2/s^4 from underflowing.
    scale = np.maximum(
        np.maximum(np.abs(a_raw), np.cbrt(np.abs(gamma)) * np.cbrt(np.abs(m))),
        np.sqrt(np.abs(m)),
    )
    a = a_raw / scale
    b = (gamma / scale) * (m / scale) / scale
    c = (m / scale / scale) ** 2
    lost = c < _SMALLEST_SCALED_CONSTANT
    if lost.any():
        u_star, penalty, count = (np.empty_like(m) for _ in range(3))
        kept = ~lost
        if kept.any():
            u_star[kept], penalty[kept], count[kept] = _minimize_block(
                m[kept], rho[kept], m0[kept], gamma[kept]
            )
        u_star[lost], penalty[lost], count[lost] = _minimize_small_magnitude(
            m[lost], rho[lost], m0[lost], gamma[lost]
        )
        return u_star, penalty, count

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
        gap = ah * sin_half_phi * sin_half_phi
        v2 = 0.75 * ah - gap
        # v1 + v3 = 3a/4 - v2 = gap and v1 v3 = -b/(4 v2): v1 is the positive root.
        v1 = 0.5 * gap + np.sqrt(0.25 * gap * gap + bh / (4.0 * v2))
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
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        negative_a = np.where(a < 0, -a, np.nan)
        from_above = np.fmin(
            from_above,
            np.maximum(
                np.sqrt(2.0 * b_minus / negative_a), np.cbrt(2.0 * c / negative_a)
            ),
        )
        from_left = c / b
    from_above = np.where(
        (a <= 0) & (b > 0), np.minimum(from_above, from_left), from_above
    )
    u_star = _newton(np.where(right, from_above, from_left), a, b, c) * scale
    penalty = _penalty_at_root(u_star, m, rho, m0, gamma)
    both = np.flatnonzero(left & right)
    count = np.ones_like(m)
    if both.size:
        # Three positive roots: the leftmost is the other local minimum.
        count[both] = 3.0
        ab, bb, cb = a[both], b[both], c[both]
        u_left = _newton(cb / bb, ab, bb, cb) * scale[both]
        p_left = _penalty_at_root(u_left, m[both], rho[both], m0[both], gamma[both])
        better = p_left < penalty[both]
        u_star[both[better]] = u_left[better]
        penalty[both[better]] = p_left[better]

    return u_star, penalty, count


def _minimize_small_magnitude(
    m: Float64Array, rho: Float64Array, m0: Float64Array, gamma: Float64Array
) -> tuple[Float64Array, Float64Array, Float64Array]:
    r""":func:`_minimize_block` where :math:`m^2 \ll (m_0\rho)^4` underflows there.

    Then :math:`|a| = m_0|\rho|` dominates the scale, and eq. (10) has a root
    at :math:`u = a` to relative order :math:`m/a^2` (below :math:`10^{-145}`,
    so exactly ``a`` in float64) when :math:`a > 0`, besides the small roots.
    The small roots are found on the scale :math:`s = \max(|\gamma m|^{1/3},
    |m|^{1/2})`, where the constant term :math:`m^2/s^4` is at most 1 and does
    not underflow; :math:`|a|/s` is then huge, which only widens the concave part.
    """
    a_raw = m0 * rho
    scale = np.maximum(np.cbrt(np.abs(gamma)) * np.cbrt(np.abs(m)), np.sqrt(np.abs(m)))
    a = a_raw / scale
    b = (gamma / scale) * (m / scale) / scale
    c = (m / scale / scale) ** 2
    u_star = np.empty_like(m)
    penalty = np.empty_like(m)
    count = np.ones_like(m)

    # a < 0: q is convex on u > 0 and its one root is small: Newton from above,
    # from the least of the root bounds of _minimize_block.
    negative = np.flatnonzero(a < 0)
    if negative.size:
        an, bn, cn = a[negative], b[negative], c[negative]
        b_minus = np.maximum(-bn, 0.0)
        start = np.maximum(np.sqrt(2.0 * b_minus / -an), np.cbrt(2.0 * cn / -an))
        with np.errstate(divide="ignore"):
            start = np.where(bn > 0, np.minimum(start, cn / bn), start)
        u_star[negative] = _newton(start, an, bn, cn) * scale[negative]

    # a > 0: the root u = a, and a smaller local minimum of p where q rises
    # above zero on its hump (b > 0 and q(v1) > 0, v1 as in _minimize_block).
    positive = np.flatnonzero(a > 0)
    if positive.size:
        ap, bp, cp = a[positive], b[positive], c[positive]
        u_star[positive] = a_raw[positive]
        with np.errstate(over="ignore", invalid="ignore"):
            v2 = 0.75 * ap
            v1 = np.sqrt(np.maximum(bp, 0.0) / (4.0 * v2))
            hump = (bp > 0) & (_quartic(v1, ap, bp, cp) > 0)
        if hump.any():
            index = positive[hump]
            bh, ch = b[index], c[index]
            u_left = _newton(ch / bh, a[index], bh, ch) * scale[index]
            p_left = _penalty_at_root(
                u_left, m[index], rho[index], m0[index], gamma[index]
            )
            p_right = _penalty_at_root(
                a_raw[index], m[index], rho[index], m0[index], gamma[index]
            )
            better = p_left < p_right
            u_star[index[better]] = u_left[better]
            count[index] = 3.0
    penalty[:] = _penalty_at_root(u_star, m, rho, m0, gamma)
    return u_star, penalty, count


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
      The penalty, a float64 array of the broadcast shape of the arguments.

    Raises:
      InvalidArgumentError: an argument is NaN or infinite, rho is outside
        ``[-1, 1]`` or m0 is negative.

    Examples:
      A fresh unit (:math:`m_0 = \gamma = 0`) costs :math:`2|m|` (balanced weights):

      >>> bool(np.isclose(relu_ptft_penalty(3.0, 0.5, 0.0, 0.0), 6.0))
      True

      With :math:`\rho = 1` and :math:`m = \gamma m_0` no deviation is needed
      (zero up to the rounding of :math:`u^*`):

      >>> bool(np.all(relu_ptft_penalty([0.5, 2.0], 1.0, 1.0, [0.5, 2.0]) < 1e-28))
      True

    References:
      Eqs. (6)-(11) of ptft-relu-penalty.
    """
    return _minimize(*relu_unit_arguments(m, rho, m0, gamma))[1]


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
      :math:`u^*`, a float64 array of the broadcast shape of the arguments.

    Examples:
      With :math:`\rho = 1` and :math:`m = \gamma m_0` no deviation is needed:

      >>> float(relu_ptft_scale(0.2, 1.0, 2.0, 0.1))
      2.0

    References:
      Eqs. (6) and (10) of ptft-relu-penalty.
    """
    return _minimize(*relu_unit_arguments(m, rho, m0, gamma))[0]


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
    return _minimize(*relu_unit_arguments(m, rho, m0, gamma))[2]


def _nonzero_penalty(penalty: Float64Array, arguments: list[Float64Array]) -> None:
    zero = penalty == 0
    if zero.any():
        m, rho, m0, gamma = (v[zero].flat[0] for v in arguments)
        raise InvalidArgumentError(
            f"log r~ is undefined where r~ = 0 (m={m!r}, rho={rho!r}, m0={m0!r}, "
            f"gamma={gamma!r}): the penalty vanishes only for rho = 1 and m = gamma*m0"
        )


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
    :func:`relu_ptft_scale` returns is given.

    Args:
      m, rho, m0, gamma: as for :func:`relu_ptft_penalty`.

    Returns:
      The slope, a float64 array of the broadcast shape of the arguments.

    Raises:
      InvalidArgumentError: as :func:`relu_ptft_penalty`; also where the
        penalty is 0 (log undefined) or where ``m = 0`` and the minimizer is
        :math:`u^* = 0` (the penalty jumps there: no derivative).

    Examples:
      For a fresh unit :math:`\tilde r = 2|m|`, so the slope is :math:`1/m`:

      >>> bool(np.isclose(relu_ptft_log_slope(4.0, 0.3, 0.0, 0.0), 0.25))
      True

    References:
      Section 1.2 of ptft-relu-penalty; eq. (11) and the envelope theorem.
    """
    arguments = relu_unit_arguments(m, rho, m0, gamma)
    u_star, penalty, _ = _minimize(*arguments)
    _nonzero_penalty(penalty, arguments)
    singular = u_star == 0
    if singular.any():
        m_, rho_, m0_, gamma_ = (v[singular].flat[0] for v in arguments)
        raise InvalidArgumentError(
            f"m={m_!r} with rho={rho_!r}, m0={m0_!r}, gamma={gamma_!r}: the penalty is "
            "not differentiable at m = 0 when the minimizer is u* = 0 "
            "(|gamma| >= m0*rho or rho <= 0)"
        )
    gap = _readout_gap(u_star, *arguments)
    return np.asarray(_envelope_from_gap_numpy(gap, u_star) / penalty, dtype=np.float64)


def relu_ptft_log_log_slope(
    m: ArrayLike, rho: ArrayLike, m0: ArrayLike, gamma: ArrayLike
) -> Float64Array:
    r"""The elasticity :math:`\partial\log\tilde r/\partial\log|m_h|` (2: l2, 1: l1).

    .. math:: \frac{\partial \log\tilde r}{\partial \log |m_h|}
              = m_h\,\frac{\partial \log\tilde r}{\partial m_h}

    The slope of :math:`\tilde r` on log-log axes, the reading Section 1.2 of
    ptft-relu-penalty gives to its "derivative of the log norm" (Fig. 1b): a
    penalty :math:`\propto |m|^k` has elasticity k.

    Args:
      m, rho, m0, gamma: as for :func:`relu_ptft_penalty`.

    Returns:
      The elasticity, a float64 array of the broadcast shape of the arguments.

    Raises:
      InvalidArgumentError: as :func:`relu_ptft_log_slope`.

    Examples:
      >>> bool(np.isclose(relu_ptft_log_log_slope(-7.0, 0.3, 0.0, 0.0), 1.0))
      True

    References:
      Section 1.2 and Fig. 1b of ptft-relu-penalty.
    """
    slope = relu_ptft_log_slope(m, rho, m0, gamma)
    return np.asarray(np.asarray(m, dtype=np.float64) * slope)


def relu_ptft_deviation(
    u: ArrayLike, m: ArrayLike, rho: ArrayLike, m0: ArrayLike, gamma: ArrayLike
) -> Float64Array:
    r"""The objective p(u) of eq. (8), in cancellation-free form.

    .. math:: p(u) = (m_h/u-\gamma)^2 + (u-m_{0h}^{(1)}\rho_h)^2
              + (m_{0h}^{(1)})^2(1-\rho_h)(1+\rho_h)

    Args:
      u: hidden-weight norm, ``> 0``.
      m, rho, m0, gamma: as for :func:`relu_ptft_penalty`.

    Returns:
      p(u), a float64 array of the broadcast shape of the arguments.

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
    relu_unit_arguments(m_, rho_, m0_, gamma_)
    return np.asarray(_deviation_numpy(u_, m_, rho_, m0_, gamma_), dtype=np.float64)


_NAMES = ("m", "rho", "m0", "gamma")


def _check_mp_arguments(m: Any, rho: Any, m0: Any, gamma: Any) -> None:
    """Check the scalar arguments of the mpmath references, naming a bad one."""
    values = []
    for name, value in zip(_NAMES, (m, rho, m0, gamma), strict=True):
        try:
            values.append(float(value))
        except (TypeError, ValueError) as error:
            raise InvalidArgumentError(
                f"{name}={value!r} is not a real number: {name} must be a finite "
                "real scalar"
            ) from error
    relu_unit_arguments(*values)


def _exact_rational(value: Any, dps: int) -> sp.Rational:
    """The exact rational value of a float or mpf (an mpf is +-man * 2**exp)."""
    with mpmath.workdps(dps + 10):
        number = mpmath.mpf(value)
    mantissa, exponent = number.man_exp
    sign = -1 if number < 0 else 1
    return sign * sp.Rational(mantissa) * sp.Rational(2) ** exponent


def relu_ptft_stationary_points_mp(
    m: float, rho: float, m0: float, gamma: float, *, dps: int = 50
) -> list[mpmath.mpf]:
    r"""Every positive root of eq. (10), exactly isolated, to ``dps`` digits each.

    .. math:: u^4 - m_{0h}^{(1)}\rho_h u^3 + \gamma m_h u - m_h^2 = 0,\quad u > 0

    The float arguments are converted to exact rationals, SymPy isolates the
    real roots of the quartic exactly (Sturm/Vincent-type bisection on exact
    coefficients) and refines each to a relative width of :math:`10^{-dps-10}`.
    Unlike a floating-point root finder, this resolves roots many decades apart
    (e.g. :math:`u \approx m_h/\gamma` next to :math:`u \approx m_{0h}^{(1)}\rho_h`).

    Args:
      m, rho, m0, gamma: scalars (floats or mpmath numbers, taken exactly at
        ``dps + 10`` digits), as for :func:`relu_ptft_penalty`.
      dps: decimal digits of each root.

    Returns:
      The positive roots in increasing order (empty when ``m = 0`` and
      :math:`\rho\le 0`).

    Examples:
      >>> [float(r) for r in relu_ptft_stationary_points_mp(4.0, 0.5, 0.0, 0.0)]
      [2.0]

    References:
      Eq. (10) of ptft-relu-penalty.
    """
    _check_mp_arguments(m, rho, m0, gamma)
    m_, rho_, m0_, gamma_ = (_exact_rational(v, dps) for v in (m, rho, m0, gamma))
    quartic = sp.Poly(
        u_symbol**4 - m0_ * rho_ * u_symbol**3 + gamma_ * m_ * u_symbol - m_**2,
        u_symbol,
    )
    roots = []
    relative = sp.Rational(1, 10 ** (dps + 10))
    for (low, high), _ in quartic.intervals():
        if high <= 0:
            continue
        while low <= 0 or high - low > relative * low:
            width = (high - low) / 1024 if low <= 0 else relative * low
            low, high = quartic.refine_root(low, high, eps=width)
        if low > 0 or quartic.eval(0) != 0:
            with mpmath.workdps(dps + 10):
                roots.append(mpmath.mpf((low + high) / 2))
    return sorted(roots)


def _mp_minimize(m: Any, rho: Any, m0: Any, gamma: Any, dps: int) -> tuple[Any, Any]:
    """(u*, r~) at ``dps`` digits, from the exactly isolated roots of eq. (10)."""
    _check_mp_arguments(m, rho, m0, gamma)
    with mpmath.workdps(dps + 10):
        m_, rho_, m0_, gamma_ = (mpmath.mpf(v) for v in (m, rho, m0, gamma))
        if m_ == 0:
            _check_mp_arguments(m, rho, m0, gamma)
            off_hidden = m0_**2
            off_readout = gamma_**2 + m0_**2 * (1 - max(rho_, 0) ** 2)
            if rho_ > 0 and abs(gamma_) <= m0_ * rho_:
                return +(m0_ * rho_), +off_readout
            return mpmath.mpf(0), +off_hidden
        candidates = relu_ptft_stationary_points_mp(m, rho, m0, gamma, dps=dps)
        values = [_deviation_mpmath(x, m_, rho_, m0_, gamma_) for x in candidates]
        best = min(range(len(values)), key=values.__getitem__)
        return +candidates[best], +values[best]


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

    Examples:
      >>> float(relu_ptft_scale_mp(4.0, 0.5, 0.0, 0.0))
      2.0

    References:
      Eqs. (6) and (10) of ptft-relu-penalty.
    """
    return _mp_minimize(m, rho, m0, gamma, dps)[0]
