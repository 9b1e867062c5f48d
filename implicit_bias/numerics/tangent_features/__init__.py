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

from implicit_bias.numerics.tangent_features.penalties import (
    Penalty,
    absolute_deviation,
    power_deviation,
    squared_deviation,
    Float64Array as Float64Array,
    PenaltyFunction as PenaltyFunction,
)
from implicit_bias.numerics.tangent_features.effective_penalties import (
    join_penalty,
    omega_join,
    omega_tilde,
)
from implicit_bias.numerics.tangent_features.references import (
    omega_join_mp,
    omega_tilde_mp,
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
