r"""Tests of :mod:`implicit_bias.numerics.relu_penalty` (ptft-relu-penalty, eqs. 6-11).

With the modules it is made of: the certified fast path
(:mod:`~implicit_bias.numerics.relu_penalty_certified`), the error-bounded path
(:mod:`~implicit_bias.numerics.relu_penalty_error_bounded`) and the exact root
isolation of the mpmath references
(:mod:`~implicit_bias.numerics.relu_penalty_reference`), whose internals are
tested here through the public functions they serve and, where named, directly.

The float64 evaluators are checked against mpmath references, against
identities, and for their argument checking. Notation follows the module:
``m`` is :math:`m_h`, ``rho`` is :math:`\rho_h`, ``m0`` is :math:`m_{0h}^{(1)}`,
``gamma`` is :math:`\gamma`, ``u`` is :math:`\|w_h^{(1)}\|_2`,
:math:`p(u) = (m/u-\gamma)^2 + u^2 + m_0^2 - 2um_0\rho` (eq. 8) and
:math:`q(u) = u^4 - m_0\rho u^3 + \gamma m u - m^2` (eq. 10).

Domain of the property tests: the whole stated domain of the evaluators, with
magnitudes :math:`d\cdot 10^k`, :math:`d \in [1, 10)`, :math:`k \in [-100, 100]`:

* ``m``: 0 or :math:`\pm d\,10^k`; ``gamma``: likewise;
* ``m0``: 0 or :math:`d\,10^k`;
* ``rho``: any float in ``[-1, 1]`` (subnormals and -0.0 included), exactly
  -1, 0, 1, and :math:`\pm(1 - 10^{-j})`, :math:`j = 1..16`, next to :math:`\pm 1`.

The exponent range keeps every product of two of ``m``, ``m0``, ``gamma``
(``m**2``, ``m0**2``, ``gamma**2``, ``gamma*m``) inside
:math:`[10^{-200}, 10^{202}]`, well inside the float64 normal range
:math:`[10^{-290}, 10^{290}]`, and the penalty below :math:`\sim 10^{203}`;
the minimizer :math:`u^*` lies in :math:`[10^{-202}, 10^{102}]`. ``m0*rho`` may
underflow for a tiny ``rho``, which moves p by a relative
:math:`2|m_0\rho|/u < 10^{-100}`. The penalty itself can lie below the normal
range (e.g. :math:`(m/\gamma)^2` for ``m0 = 0``); there an absolute floor of a
few smallest normals, the resolution of float64, is added to every tolerance
instead of excluding those points.

The mpmath reference of these tests is written independently of the
library's :func:`relu_ptft_penalty_mp`, which it also checks: every positive
root of eq. (10) is bracketed by a sign change of q on a logarithmic grid,
bisected and polished by Newton's method (:func:`_reference`).
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics import (
    relu_penalty_certified,
    relu_penalty_error_bounded,
    relu_penalty_reference,
)
from implicit_bias.numerics.relu_penalty import (
    relu_ptft_deviation,
    relu_ptft_log_log_slope,
    relu_ptft_log_slope,
    relu_ptft_penalty,
    relu_ptft_penalty_mp,
    relu_ptft_scale,
    relu_ptft_scale_mp,
    relu_ptft_stationary_count,
    relu_ptft_stationary_points_mp,
)

#: Unit roundoff of float64 doubled (the spacing of floats at 1), 2**-52.
EPS = float(np.finfo(np.float64).eps)
#: Absolute resolution of float64 near 0: a few smallest normal numbers.
UNDERFLOW = 16 * float(np.finfo(np.float64).tiny)
#: Digits of the mpmath references (the library's default).
DPS = 50

# ---------------------------------------------------------------------------
# Strategies over the whole domain.
# ---------------------------------------------------------------------------

_MAGNITUDES = st.builds(
    lambda mantissa, exponent: mantissa * 10.0**exponent,
    st.floats(min_value=1.0, max_value=10.0, exclude_max=True),
    st.integers(min_value=-100, max_value=100),
)
_NONZERO_REALS = st.one_of(_MAGNITUDES, _MAGNITUDES.map(operator.neg))
_REALS = st.one_of(st.just(0.0), _NONZERO_REALS)
_NORMS = st.one_of(st.just(0.0), _MAGNITUDES)
_COSINES = st.one_of(
    st.sampled_from(
        [-1.0, 0.0, 1.0, math.nextafter(1.0, 0.0), math.nextafter(-1.0, 0.0)]
    ),
    st.floats(min_value=-1.0, max_value=1.0),
    st.integers(min_value=1, max_value=16).map(lambda j: 1.0 - 10.0**-j),
    st.integers(min_value=1, max_value=16).map(lambda j: -1.0 + 10.0**-j),
)
#: Floats i * 2**k with a 26-bit i: the product of two of them is exact.
_SHORT_DYADICS = st.builds(
    lambda mantissa, exponent: math.ldexp(mantissa, exponent),
    st.integers(min_value=1, max_value=2**26 - 1),
    st.integers(min_value=-332, max_value=306),
)

# ---------------------------------------------------------------------------
# Independent mpmath reference: bracket, bisect, polish.
# ---------------------------------------------------------------------------

#: Digits of the grid points and bisection midpoints (the signs of q there are
#: computed exactly).
_BRACKET_DPS = 40
#: Bisection stops at this relative width; Newton then polishes.
_BRACKET_WIDTH = 1e-30
#: Digits of the Newton polish. T1 = m/u - gamma and T2 = u - m0*rho cancel by up
#: to ~600 digits in this domain (m0 = 0, m = 1e-100, gamma = 1e100 has
#: m/u* = gamma(1 - 1e-604)), so u* is polished far past DPS.
_POLISH_DPS = 1000
#: Grid points per factor-3 half-interval around a Newton-polygon breakpoint
#: (q is monotone between the critical points, which are on the grid too, so
#: any number finds every root; more only shorten the bisections).
_GRID = 4


def _polyval(coefficients: dict[int, Any], u: Any) -> Any:
    return mpmath.fsum(c * u**k for k, c in coefficients.items())


def _terms(coefficients: dict[int, Any], u: Any) -> Any:
    """Sum of the absolute values of the terms, the scale of q's rounding error."""
    return mpmath.fsum(abs(c) * u**k for k, c in coefficients.items())


def _exact_sign(coefficients: dict[int, Any], u: Any) -> int:
    """Sign of the polynomial at u, in exact arithmetic (no term is ever dropped)."""
    total = mpmath.mpf(0)
    for k, c in coefficients.items():
        term = c
        for _ in range(k):
            term = mpmath.fmul(term, u, exact=True)
        total = mpmath.fadd(total, term, exact=True)
    return int(mpmath.sign(total))


def _derivative(coefficients: dict[int, Any]) -> dict[int, Any]:
    return {k - 1: mpmath.fmul(k, c, exact=True) for k, c in coefficients.items() if k}


def _positive_roots(coefficients: dict[int, Any], extra_points: list[Any]) -> list[Any]:
    r"""Positive roots of :math:`\sum_k c_k u^k` by sign changes on a log grid.

    At a root the largest term equals the sum of the others, so the two largest
    terms :math:`|c_i u^i| \ge |c_j u^j|` are within a factor 3 (four terms at
    most); hence every positive root lies within a factor 3 of a breakpoint
    :math:`|c_i/c_j|^{1/(j-i)}` of the Newton polygon, and q keeps its sign
    between those intervals. ``extra_points`` are the positive critical points
    of the polynomial: between two consecutive grid points the polynomial is
    then monotone, so each cell holds at most one root, found by its sign
    change (by Rolle a critical point separates any two adjacent roots). Each
    sign change is bisected
    (geometric midpoints, exact signs) to a relative width of 1e-30 and polished by
    Newton's method (:func:`_polish`).
    """
    with mpmath.workdps(_BRACKET_DPS):
        nonzero = sorted(k for k, c in coefficients.items() if c != 0)
        grid = {x for x in extra_points if x > 0}
        for i, low in enumerate(nonzero):
            for high in nonzero[i + 1 :]:
                ratio = abs(coefficients[low] / coefficients[high])
                breakpoint_ = ratio ** (mpmath.mpf(1) / (high - low))
                grid.update(
                    breakpoint_ * mpmath.mpf(3) ** (mpmath.mpf(t) / _GRID)
                    for t in range(-_GRID, _GRID + 1)
                )
        points = sorted(grid)
        signs = [_exact_sign(coefficients, x) for x in points]
        roots = [x for x, s in zip(points, signs, strict=True) if s == 0]
        for (lo, sign_lo), (hi, sign_hi) in zip(
            zip(points, signs, strict=True),
            zip(points[1:], signs[1:], strict=True),
            strict=False,
        ):
            if sign_lo * sign_hi >= 0:
                continue
            while hi > lo * (1 + mpmath.mpf(_BRACKET_WIDTH)):
                mid = mpmath.sqrt(lo * hi)
                sign_mid = _exact_sign(coefficients, mid)
                if sign_mid == 0:
                    roots.append(mid)  # an exact root
                    break
                if sign_mid == sign_lo:
                    lo = mid
                else:
                    hi = mid
            else:
                roots.append(_polish(coefficients, lo, hi))
    return sorted(roots)


def _polish(coefficients: dict[int, Any], lo: Any, hi: Any) -> Any:
    """Newton's method at :data:`_POLISH_DPS` digits from a bisected bracket.

    Newton may overshoot a root that sits within rounding of an end of the
    bracket (a grid point on a breakpoint), so it may leave the bracket by a
    margin of 1e-25 relative, far below the bracket's distance to any other
    root; if it goes further (near a double root) the bisection value is kept.
    """
    slope_coefficients = _derivative(coefficients)
    with mpmath.workdps(_POLISH_DPS):
        margin = 1 + mpmath.mpf(10) ** -25
        low, high = mpmath.mpf(lo) / margin, mpmath.mpf(hi) * margin
        tolerance = mpmath.mpf(10) ** (20 - _POLISH_DPS)
        start = u = mpmath.sqrt(mpmath.mpf(lo) * hi)
        for _ in range(64):
            slope = _polyval(slope_coefficients, u)
            if not slope:
                break
            step = _polyval(coefficients, u) / slope
            if not low <= u - step <= high:
                return start
            u -= step
            if abs(step) <= tolerance * u:
                break
        return u


def _deviation_mp(u: Any, m: Any, rho: Any, m0: Any, gamma: Any) -> Any:
    """Eq. (8) as printed, at the current mpmath precision (textbook form)."""
    return (m / u - gamma) ** 2 + u**2 + m0**2 - 2 * u * m0 * rho


@dataclass(frozen=True)
class _LocalMinimum:
    """A local minimizer u of p with its value and float64 error bounds."""

    u: Any
    value: Any
    kappa: Any  # condition number of u as a root of eq. (10)
    root_error: Any  # float64 error bound of a computed u
    penalty_error: Any  # float64 error bound of p evaluated at a computed u


@dataclass(frozen=True)
class _Reference:
    """All positive roots of eq. (10) and the local minima of p, at m != 0."""

    roots: tuple[Any, ...]
    minima: tuple[_LocalMinimum, ...]
    best: _LocalMinimum
    degeneracy: Any  # min |q(v)| / (sum of |terms|) over critical points v of q

    @property
    def penalty_tolerance(self) -> Any:
        r"""Allowed |float64 penalty - reference penalty|.

        The float64 evaluator returns the smaller of its computed local minima;
        a runner-up i with value :math:`p_i = p^* + g_i` can be returned only if
        :math:`g_i <` the sum of both bounds, and then the result is at least
        :math:`p^* + g_i - e_i`. So the result lies within
        :math:`\max_i (e_i - g_i)` of :math:`p^*` (with :math:`g = 0` for the best).
        """
        return max(x.penalty_error - (x.value - self.best.value) for x in self.minima)

    @property
    def separated(self) -> bool:
        """Whether float64 rounding cannot swap the global minimum with another one."""
        return all(
            x.value - self.best.value > x.penalty_error + self.best.penalty_error
            for x in self.minima
            if x is not self.best
        )

    def gap(self) -> Any:
        """Distance from the global minimum to the runner-up local minimum."""
        return min(
            (x.value - self.best.value for x in self.minima if x is not self.best),
            default=mpmath.inf,
        )


#: Roundings per evaluated term of p (see _penalty_error).
_TERM_ROUNDINGS = 8
#: Roundings that locate a float64 root (see _root_error).
_ROOT_ROUNDINGS = 24


def _root_error(u: Any, kappa: Any) -> Any:
    r"""Error bound of a float64 root u of eq. (10) with condition number kappa.

    The scaled coefficients carry at most 5 roundings each (``c = (m/s/s)**2``),
    the Horner evaluation of q at most 8 more, so :math:`|\hat q(x) - q(x)| \le
    13\,\epsilon\sum|\text{terms}|`; Newton stops at a residual of that size or at
    a step of 4 ulps, which moves the root by :math:`\le 17\kappa\epsilon u`
    (:math:`\kappa = \sum|\text{terms}| / (u|q'(u)|)`), plus a few ulps for the
    stop and the rescaling :math:`u = xs`. Hence :math:`24\epsilon u(\kappa+1)`.
    """
    return _ROOT_ROUNDINGS * EPS * u * (kappa + 1)


def _penalty_error(u: Any, delta: Any, m: Any, rho: Any, m0: Any, gamma: Any) -> Any:
    r"""Float64 error bound of p evaluated at a computed local minimizer.

    The library evaluates :math:`p = T_1 + T_2 + T_3` with
    :math:`T_1 = (m/u-\gamma)^2`, :math:`T_2 = (u - m_0\rho)^2`,
    :math:`T_3 = m_0^2(1-\rho)(1+\rho)`, all non-negative, at a computed
    :math:`\hat u = u^* + \delta`.

    * Rounding: the difference in :math:`T_1` carries :math:`\le 2\epsilon
      (|m/u| + |\gamma|)` absolute error, squaring doubles it relative to
      :math:`|m/u - \gamma|`, so :math:`|\Delta T_1| \le 2|m/u-\gamma|(|m/u| +
      |\gamma|)\,c\epsilon`; likewise :math:`|\Delta T_2| \le 2|u - m_0\rho|(u +
      |m_0\rho|)\,c\epsilon` and :math:`|\Delta T_3| \le c\epsilon T_3`, with
      :math:`c = 8` covering the 3-5 roundings per term and the two sums. The
      differences are taken at :math:`\hat u`, which moves them by
      :math:`|m|\delta/u^2` and :math:`\delta`.
    * Root error: :math:`p'(u^*) = 0`, so :math:`\delta` changes p only at second
      order, :math:`p''\delta^2/2 + |p'''|\delta^3/6`, with
      :math:`p'' = 2m^2/u^4 + 4m(m/u-\gamma)/u^3 + 2` and
      :math:`p''' = -12m^2/u^5 - 12m(m/u-\gamma)/u^4`.
    * Underflow: an absolute floor :data:`UNDERFLOW`.
    """
    t1 = abs(m / u - gamma) + abs(m) / u**2 * delta
    t2 = abs(u - m0 * rho) + delta
    t3 = m0**2 * (1 - rho) * (1 + rho)
    rounding = (
        _TERM_ROUNDINGS
        * EPS
        * (2 * t1 * (abs(m / u) + abs(gamma)) + 2 * t2 * (u + abs(m0 * rho)) + t3)
    )
    second = 2 * m**2 / u**4 + 4 * m * (m / u - gamma) / u**3 + 2
    third = -12 * m**2 / u**5 - 12 * m * (m / u - gamma) / u**4
    return rounding + abs(second) * delta**2 / 2 + abs(third) * delta**3 / 6 + UNDERFLOW


@functools.lru_cache(maxsize=4096)
def _reference(m: float, rho: float, m0: float, gamma: float) -> _Reference:
    """Roots of eq. (10) and local minima of p by :func:`_positive_roots` (m != 0)."""
    assert m != 0, "m = 0 is a convention, not a root of eq. (10)"
    with mpmath.workdps(_POLISH_DPS):
        m_, rho_, m0_, gamma_ = (mpmath.mpf(v) for v in (m, rho, m0, gamma))
        a = m0_ * rho_
        quartic = {4: mpmath.mpf(1), 3: -a, 1: gamma_ * m_, 0: -(m_**2)}
        slope = _derivative(quartic)
        # q'' = 6u(2u - a): q' is monotone on each side of a/2.
        critical = _positive_roots(slope, [a / 2] if a > 0 else [])
        roots = _positive_roots(quartic, critical)
        degeneracy = min(
            (abs(_polyval(quartic, v)) / _terms(quartic, v) for v in critical),
            default=mpmath.inf,
        )
        # p' = 2q/u^3: local minima of p where q crosses from - to +.
        upward = [u for u in roots if _polyval(slope, u) > 0] or roots
        minima = []
        for u in upward:
            with mpmath.workdps(DPS + 10):
                kappa = _terms(quartic, u) / (u * abs(_polyval(slope, u)))
                delta = _root_error(u, kappa)
                error = _penalty_error(u, delta, m_, rho_, m0_, gamma_)
            value = _deviation_mp(u, m_, rho_, m0_, gamma_)
            minima.append(_LocalMinimum(u, value, kappa, delta, error))
    best = min(minima, key=lambda x: x.value)
    return _Reference(tuple(roots), tuple(minima), best, degeneracy)


def _zero_magnitude_penalty(rho: float, m0: float, gamma: float) -> tuple[Any, Any]:
    """(penalty, error bound) at m = 0: min(m0^2, gamma^2 + m0^2 (1 - max(rho, 0)^2)).

    The library's convention (module docstring), exact here. ``1 - rho**2``
    cancels for rho near 1, so float64 gets it to an absolute
    c*eps*(gamma^2 + m0^2), not a relative one.
    """
    with mpmath.workdps(DPS + 10):
        rho_, m0_, gamma_ = (mpmath.mpf(v) for v in (rho, m0, gamma))
        positive = max(rho_, 0)
        value = min(m0_**2, gamma_**2 + m0_**2 * (1 - positive) * (1 + positive))
        return value, _TERM_ROUNDINGS * EPS * (gamma_**2 + m0_**2) + UNDERFLOW


def _zero_magnitude_branch_is_clear(rho: float, m0: float, gamma: float) -> bool:
    """Whether float64 rounding cannot flip the m = 0 branch (|gamma| vs m0*rho)."""
    return rho <= 0 or abs(abs(gamma) - m0 * rho) > 4 * EPS * (abs(gamma) + m0 * rho)


def _as_float(x: Any) -> float:
    return float(np.asarray(x, dtype=np.float64))


# Edge cases shared by the property tests. Each is a dict of keyword arguments.
_EDGE_CASES = [
    # Three positive roots of eq. (10) (two local minima of p): the paper's
    # "unique root" fails; the doctest of relu_ptft_stationary_count.
    {"m": 1e-8, "rho": 1.0, "m0": 1.0, "gamma": 0.01},
    # Its mirror image under (m, gamma) -> (-m, -gamma): gamma < 0.
    {"m": -1e-8, "rho": 1.0, "m0": 1.0, "gamma": -0.01},
    # gamma < 0 with m > 0: one root (Descartes).
    {"m": 1.0, "rho": 0.5, "m0": 1.0, "gamma": -2.0},
    # rho = 1 and m = gamma*m0 exactly: penalty exactly 0 at u* = m0.
    {"m": 0.5, "rho": 1.0, "m0": 1.0, "gamma": 0.5},
    {"m": 0.2, "rho": 1.0, "m0": 2.0, "gamma": 0.1},
    # m0 = 0 (fresh hidden weights), with and without a readout initialization.
    {"m": 3.0, "rho": 0.5, "m0": 0.0, "gamma": 0.0},
    {"m": -7.0, "rho": 0.3, "m0": 0.0, "gamma": 2.0},
    # Extremes of the domain.
    {"m": 1e100, "rho": 1.0 - 1e-16, "m0": 1e-100, "gamma": -1e100},
    {"m": -1e-100, "rho": -1.0, "m0": 1e100, "gamma": 1e-100},
    # Regressions found by this suite: the global minimum u* = 1.9e-71 missed
    # where b = gamma*m/s^3 << (m0*rho/s)^3 (the closed-form critical point
    # cancelled) ...
    {
        "m": 2.934388233652187e-46,
        "rho": 0.8871760239635555,
        "m0": 89.33265269192448,
        "gamma": 1.5441665443738926e25,
    },
    # ... and an infinite penalty where the scaled constant term underflowed.
    {
        "m": -2.0427905122369333e-68,
        "rho": 1.0,
        "m0": 7.990148029080682e-36,
        "gamma": 9.255679343118125e94,
    },
]
# m = 0, each branch of its convention: readout switched off (u* = m0*rho),
# hidden weights switched off because rho <= 0, or because |gamma| > m0*rho,
# and the tie gamma^2 = (m0*rho)^2 between the two.
_ZERO_MAGNITUDE_CASES = [
    {"m": 0.0, "rho": 0.5, "m0": 2.0, "gamma": 0.1},
    {"m": 0.0, "rho": -0.5, "m0": 2.0, "gamma": 0.1},
    {"m": 0.0, "rho": 0.5, "m0": 2.0, "gamma": 3.0},
    {"m": 0.0, "rho": 0.5, "m0": 2.0, "gamma": 1.0},
]


def _with_examples(cases: list[dict[str, float]]) -> Callable[[Any], Any]:
    def decorate(test: Any) -> Any:
        for case in reversed(cases):
            test = example(**case)(test)
        return test

    return decorate


# ---------------------------------------------------------------------------
# 1-2. float64 against mpmath over the whole domain.
# ---------------------------------------------------------------------------


@_with_examples(_EDGE_CASES + _ZERO_MAGNITUDE_CASES)
@given(m=_REALS, rho=_COSINES, m0=_NORMS, gamma=_REALS)
def test_penalty_matches_mpmath_reference(
    m: float, rho: float, m0: float, gamma: float
) -> None:
    r"""relu_ptft_penalty/scale agree with relu_ptft_penalty_mp/scale_mp (dps=50).

    Over the whole domain of the module docstring: exponents in [-100, 100]
    keep m**2, m0**2, gamma**2 and gamma*m in [1e-200, 1e202], inside float64's
    normal range; a penalty that underflows is covered by an absolute floor.
    Tolerance from float64 error analysis at the reference (see
    :func:`_penalty_error`, :func:`_root_error`), not a tuned constant. The
    minimizer is compared only where the global minimum is separated from the
    other local minimum by more than both error bounds; otherwise float64 may
    legitimately pick the other one (the penalty is compared always).
    """
    penalty = _as_float(relu_ptft_penalty(m, rho, m0, gamma))
    scale = _as_float(relu_ptft_scale(m, rho, m0, gamma))
    penalty_mp = relu_ptft_penalty_mp(m, rho, m0, gamma, dps=DPS)
    scale_mp = relu_ptft_scale_mp(m, rho, m0, gamma, dps=DPS)
    if m == 0:
        expected, tolerance = _zero_magnitude_penalty(rho, m0, gamma)
        assert abs(penalty - penalty_mp) <= tolerance, (penalty, penalty_mp, expected)
        if _zero_magnitude_branch_is_clear(rho, m0, gamma):
            assert scale == pytest.approx(float(scale_mp), rel=EPS, abs=0.0)
        return
    reference = _reference(m, rho, m0, gamma)
    assert abs(penalty - penalty_mp) <= reference.penalty_tolerance, (
        f"numpy {penalty!r}, relu_ptft_penalty_mp {mpmath.nstr(penalty_mp, 17)}, "
        f"independent reference {mpmath.nstr(reference.best.value, 17)}, "
        f"tolerance {mpmath.nstr(reference.penalty_tolerance, 3)}"
    )
    if reference.separated:
        best = reference.best
        assert abs(scale - scale_mp) <= best.root_error, (
            f"numpy u*={scale!r}, relu_ptft_scale_mp {mpmath.nstr(scale_mp, 17)}, "
            f"independent {mpmath.nstr(best.u, 17)}, "
            f"tolerance {mpmath.nstr(best.root_error, 3)}"
        )


@_with_examples(_EDGE_CASES)
# u* = m0 (1 + 3e-85), next to a grid point: the reference's Newton polish must
# be allowed past the end of its bracket.
@example(
    m=-2.8171670277650526e39,
    rho=1.0,
    m0=7.118303153361253e40,
    gamma=-6.799926422849658e-79,
)
# Regression found by this suite: u* = 1.8e-110, lost by mpmath.polyroots,
# whose convergence test is absolute.
@example(
    m=9.392248778544265e-33,
    rho=0.14262201104482353,
    m0=9.323725400246023e-49,
    gamma=5.274046100982253e77,
)
@given(m=_NONZERO_REALS, rho=_COSINES, m0=_NORMS, gamma=_REALS)
def test_mpmath_reference_matches_independent_reference(
    m: float, rho: float, m0: float, gamma: float
) -> None:
    r"""relu_ptft_penalty_mp/scale_mp agree with the bracketing reference of this file.

    Both claim DPS digits; the tolerance is the float64 analysis of
    :func:`_penalty_error` with :math:`\epsilon` replaced by :math:`10^{-DPS}`
    (the references work at DPS + 10 digits, so a factor :math:`10^{10}` of
    slack is left for conditioning), which a reference evaluating eq. (8) at a
    root correct to DPS digits meets.
    """
    penalty_mp = relu_ptft_penalty_mp(m, rho, m0, gamma, dps=DPS)
    scale_mp = relu_ptft_scale_mp(m, rho, m0, gamma, dps=DPS)
    reference = _reference(m, rho, m0, gamma)
    with mpmath.workdps(DPS + 10):
        ratio = mpmath.mpf(10) ** -DPS / EPS
        tolerance = max(
            x.penalty_error * ratio - (x.value - reference.best.value)
            for x in reference.minima
        )
        assert abs(penalty_mp - reference.best.value) <= tolerance, (
            f"relu_ptft_penalty_mp {mpmath.nstr(penalty_mp, 20)} "
            f"(u={mpmath.nstr(scale_mp, 20)}), "
            f"independent {mpmath.nstr(reference.best.value, 20)} "
            f"(u={mpmath.nstr(reference.best.u, 20)})"
        )
        if reference.gap() > 2 * tolerance:
            best = reference.best
            assert abs(scale_mp - best.u) <= best.root_error * ratio, (
                mpmath.nstr(scale_mp, 20),
                mpmath.nstr(best.u, 20),
            )


# ---------------------------------------------------------------------------
# 3. The log-slope against a finite difference of the mpmath penalty.
# ---------------------------------------------------------------------------

#: Finite-difference step relative to |m|: the truncation error is O(h^2), 1e-40
#: relative.
_FD_STEP = mpmath.mpf(10) ** -20
#: Digits of the finite difference, to which as many are added as the elasticity
#: m d(log r~)/dm has leading zeros: p(m +- h) differ by ~ h/|m| * elasticity
#: relative, which must stay far above 10^-digits.
_FD_DPS = 60
#: Smallest elasticity tried: below it the difference needs > 160 digits.
_MIN_ELASTICITY = 1e-100
#: Where kappa exceeds this the minimizer is near a double root: the linear
#: error analysis below needs delta/u ~ 24 kappa eps << 1.
_MAX_KAPPA = 1e6


@example(m=1.0, rho=0.9, m0=1.0, gamma=0.0)
@example(m=1e-8, rho=1.0, m0=1.0, gamma=0.01)
@example(m=-7.0, rho=0.3, m0=0.0, gamma=2.0)
@example(m=1e4, rho=0.99, m0=1e2, gamma=1e-3)
@given(m=_NONZERO_REALS, rho=_COSINES, m0=_NORMS, gamma=_REALS)
def test_log_slope_matches_finite_difference(
    m: float, rho: float, m0: float, gamma: float
) -> None:
    r"""relu_ptft_log_slope against a central difference of relu_ptft_penalty_mp.

    At points where the minimizer is non-degenerate (:math:`\kappa < 10^6`), the
    global minimum is separated from any other local minimum (no kink within
    the step) and float64 resolves the penalty to 1e-3. The slope
    :math:`L = s(u)/p` with :math:`s(u) = 2(m/u-\gamma)/u` depends on u at first
    order, so its error is
    :math:`(|s'(u)|\delta + c\epsilon(|m/u|+|\gamma|)/u)/p + |L|(e_p/p + c\epsilon)`,
    :math:`s'(u) = -4m/u^3 + 2\gamma/u^2`, with :math:`\delta` and :math:`e_p` the
    bounds of :func:`_root_error` and :func:`_penalty_error`. The difference,
    step :math:`h = 10^{-20}|m|`, is taken at :data:`_FD_DPS` digits plus the
    leading zeros of the elasticity, so that its rounding error stays
    :math:`\le 10^{-40}` relative; its truncation error is :math:`O(h^2)`.
    """
    assume(_as_float(relu_ptft_penalty(m, rho, m0, gamma)) > 0)
    slope = _as_float(relu_ptft_log_slope(m, rho, m0, gamma))
    reference = _reference(m, rho, m0, gamma)
    best = reference.best
    assume(best.kappa < _MAX_KAPPA)
    assume(best.penalty_error < 1e-3 * best.value)
    assume(reference.separated)
    with mpmath.workdps(DPS):
        m_, gamma_, u, p = mpmath.mpf(m), mpmath.mpf(gamma), best.u, best.value
        envelope = 2 * (m_ / u - gamma_) / u
        elasticity = abs(m_ * envelope / p)
        assume(elasticity > _MIN_ELASTICITY)
        tolerance = (
            abs(-4 * m_ / u**3 + 2 * gamma_ / u**2) * best.root_error
            + _TERM_ROUNDINGS * EPS * (abs(m_ / u) + abs(gamma_)) / u
        ) / p + abs(envelope / p) * (best.penalty_error / p + _TERM_ROUNDINGS * EPS)
    digits = _FD_DPS + max(0, -math.floor(math.log10(elasticity)))
    with mpmath.workdps(digits + 20):
        h = _FD_STEP * abs(m_)
        plus = relu_ptft_penalty_mp(m_ + h, rho, m0, gamma, dps=digits)
        minus = relu_ptft_penalty_mp(m_ - h, rho, m0, gamma, dps=digits)
        difference = (plus - minus) / (2 * h) / p
        tolerance += abs(difference) * mpmath.mpf(10) ** -30  # O(h^2), rounding
        assert abs(slope - difference) <= tolerance, (
            slope,
            mpmath.nstr(difference, 20),
            mpmath.nstr(tolerance, 3),
        )


@_with_examples(_EDGE_CASES[:3])
@example(m=10.0, rho=0.9999999999999999, m0=1e82, gamma=0.0)  # subnormal slope
@given(m=_NONZERO_REALS, rho=_COSINES, m0=_NORMS, gamma=_REALS)
def test_log_log_slope_is_m_times_log_slope(
    m: float, rho: float, m0: float, gamma: float
) -> None:
    """relu_ptft_log_log_slope == m * relu_ptft_log_slope where the slope is normal.

    Bitwise there (the same operations); where the slope is subnormal its
    rounding error is half the smallest subnormal, 2^-1075, and the elasticity,
    evaluated directly, may differ from m times it by |m| 2^-1075 plus its own
    rounding.
    """
    assume(_as_float(relu_ptft_penalty(m, rho, m0, gamma)) > 0)
    slope = relu_ptft_log_slope(m, rho, m0, gamma)
    elasticity = relu_ptft_log_log_slope(m, rho, m0, gamma)
    if abs(_as_float(slope)) >= np.finfo(np.float64).tiny:
        np.testing.assert_array_equal(elasticity, m * slope)
    else:
        rounding = (
            0.5 * abs(m) * 2.0**-1074 + EPS * abs(_as_float(elasticity)) + 2.0**-1074
        )
        assert abs(_as_float(elasticity) - m * _as_float(slope)) <= rounding


#: Magnitudes over the whole float64 exponent range, subnormal m and gamma
#: included: the part of the domain the float64 path hands to mpmath.
_FULL_RANGE_MAGNITUDES = st.builds(
    lambda mantissa, exponent: mantissa * 10.0**exponent,
    st.floats(min_value=1.0, max_value=10.0, exclude_max=True),
    st.integers(min_value=-320, max_value=307),
).filter(lambda value: value > 0.0)
_FULL_RANGE_REALS = st.one_of(
    st.just(0.0), _FULL_RANGE_MAGNITUDES, _FULL_RANGE_MAGNITUDES.map(operator.neg)
)
_FULL_RANGE_NORMS = st.one_of(st.just(0.0), _FULL_RANGE_MAGNITUDES)
#: The module keeps a float64 result only under an error bound of 2^-40 of its
#: value and rounds an mpmath result once (half an ulp, or half the smallest
#: subnormal below the normal range).
_FULL_RANGE_RELATIVE = 2.0**-40 + EPS
_HALF_SUBNORMAL = mpmath.mpf(2) ** -1075
_FLOAT_MAX = mpmath.mpf(float(np.finfo(np.float64).max))
#: The exact reference isolates roots of quartics with coefficients of up to
#: ~2000 bits (0.2-1 s a point): 25 examples, except in the thorough profile.
_REFERENCE_SETTINGS = (
    settings()
    if settings.get_current_profile_name() == "thorough"
    else settings(max_examples=25)
)


@_REFERENCE_SETTINGS
@example(m=1e-300, rho=0.3, m0=1e-300, gamma=1e-300)  # was 1e-300, is 2e-300
@example(m=1e160, rho=0.5, m0=1e160, gamma=1e160)  # 1e320: beyond float64
@example(m=1.0, rho=0.5, m0=1e200, gamma=1e-200)  # was inf
@example(m=5e-324, rho=1.0, m0=1.0, gamma=5e-324)
@given(
    m=_FULL_RANGE_REALS,
    rho=_COSINES,
    m0=_FULL_RANGE_NORMS,
    gamma=_FULL_RANGE_REALS,
)
def test_penalty_over_the_float64_range(
    m: float, rho: float, m0: float, gamma: float
) -> None:
    """relu_ptft_penalty is within 2^-40 of the reference anywhere in float64.

    Beyond the exponents of test_penalty_matches_mpmath_reference: a penalty
    above the float64 maximum raises OutOfRangeError, never inf; one below the
    normal range is rounded to a subnormal number or 0.
    """
    # 20 digits resolve the 2^-40 (1e-12) tolerance 10^8-fold.
    reference = relu_ptft_penalty_mp(m, rho, m0, gamma, dps=20)
    if reference > _FLOAT_MAX:
        with pytest.raises(OutOfRangeError, match="float64"):
            relu_ptft_penalty(m, rho, m0, gamma)
        return
    penalty = _as_float(relu_ptft_penalty(m, rho, m0, gamma))
    error = abs(mpmath.mpf(penalty) - reference)
    assert error <= _FULL_RANGE_RELATIVE * reference + _HALF_SUBNORMAL, (
        penalty,
        mpmath.nstr(reference, 17),
    )


@pytest.mark.parametrize(
    ("m", "rho", "m0", "gamma"),
    [
        (0.1, -1.0, 0.0, 1e17),  # m/u* and gamma share 70 digits
        (1e-100, 0.5, 0.0, 1e100),  # ... 600 digits
        (2.0141930025354058e-45, 0.9999999999999, 5.585167637729167e192, 2.0e-45),
    ],
)
def test_mpmath_reference_keeps_its_digits_through_cancellation(
    m: float, rho: float, m0: float, gamma: float
) -> None:
    """relu_ptft_penalty_mp at dps=30 agrees with eq. (8) at 2000 digits to 1e-30.

    Eq. (8) evaluated directly at the root cancels as many digits as m/u* and
    gamma (or u* and m0*rho) share; at 2000 digits, after polishing the root of
    eq. (10) from the reference's own u*, the cancellation leaves > 1000.
    """
    penalty = relu_ptft_penalty_mp(m, rho, m0, gamma, dps=30)
    start = relu_ptft_scale_mp(m, rho, m0, gamma, dps=30)
    with mpmath.workdps(2000):
        m_, rho_, m0_, gamma_ = (mpmath.mpf(v) for v in (m, rho, m0, gamma))
        root = mpmath.findroot(
            lambda u: u**4 - m0_ * rho_ * u**3 + gamma_ * m_ * u - m_**2,
            mpmath.mpf(start),
        )
        direct = (m_ / root - gamma_) ** 2 + (root - m0_ * rho_) ** 2
        direct += m0_**2 * (1 - rho_) * (1 + rho_)
        assert abs(penalty - direct) <= mpmath.mpf(10) ** -30 * direct


def test_the_scale_is_the_global_minimizer_far_beyond_unit_scale() -> None:
    """u* = 1 (p = 1e320) beats u = 5e159 (p = 1.75e320) at m = m0 = gamma = 1e160.

    The float64 path used to return the other local minimizer, 5e159.
    """
    arguments = (1e160, 0.5, 1e160, 1e160)
    reference = relu_ptft_scale_mp(*arguments, dps=30)
    scale = _as_float(relu_ptft_scale(*arguments))
    assert abs(mpmath.mpf(scale) - reference) <= _FULL_RANGE_RELATIVE * reference


# ---------------------------------------------------------------------------
# 4. Identities.
# ---------------------------------------------------------------------------


@_with_examples(_EDGE_CASES + _ZERO_MAGNITUDE_CASES)
@given(m=_REALS, rho=_COSINES, m0=_NORMS, gamma=_REALS)
def test_sign_symmetry_is_bitwise(
    m: float, rho: float, m0: float, gamma: float
) -> None:
    r"""r~(-m, rho, m0, -gamma) == r~(m, rho, m0, gamma), bitwise.

    p depends on (m, gamma) only through :math:`(m/u-\gamma)^2`, :math:`\gamma m`
    and :math:`m^2`; negating both arguments is exact and flips the sign of
    :math:`m/u - \gamma` exactly, so every float64 operation sees the same
    magnitudes: the penalty, the minimizer and the root count are bitwise equal.
    """
    for function in (relu_ptft_penalty, relu_ptft_scale, relu_ptft_stationary_count):
        np.testing.assert_array_equal(
            function(-m, rho, m0, -gamma),
            function(m, rho, m0, gamma),
            err_msg=function.__name__,
        )


@example(m=3.0, rho=0.5)
@example(m=-1e-100, rho=-1.0)
@example(m=9.999999999999999e100, rho=1.0)
@given(m=_NONZERO_REALS, rho=_COSINES)
def test_fresh_unit_costs_twice_its_magnitude(m: float, rho: float) -> None:
    r"""With :math:`m_0=\gamma=0`, :math:`\tilde r = 2|m|` at :math:`u^*=\sqrt{|m|}`.

    The quartic is :math:`u^4 - m^2` (scaled: :math:`x^4 - 1`, :math:`\kappa = 1/2`),
    so u* is within :math:`24\epsilon u(\kappa+1) = 36\epsilon u` and the penalty
    within 8 roundings (second-order root error :math:`\sim 10^3\epsilon^2`).
    """
    penalty = _as_float(relu_ptft_penalty(m, rho, 0.0, 0.0))
    scale = _as_float(relu_ptft_scale(m, rho, 0.0, 0.0))
    assert penalty == pytest.approx(2 * abs(m), rel=_TERM_ROUNDINGS * EPS, abs=0.0)
    assert scale == pytest.approx(math.sqrt(abs(m)), rel=36 * EPS, abs=0.0)
    assert _as_float(relu_ptft_stationary_count(m, rho, 0.0, 0.0)) == 1.0


@example(gamma=0.5, m0=1.0)
@example(gamma=-0.5, m0=1.0)
@example(gamma=2.0, m0=1.0)
@example(gamma=0.1, m0=2.0)
# Regression found by this suite: an infinite penalty (scaled m**2 underflowed).
@example(gamma=6.6284529373951395e96, m0=1.0792012882580265e-71)
@given(
    gamma=st.one_of(_SHORT_DYADICS, _SHORT_DYADICS.map(operator.neg)), m0=_SHORT_DYADICS
)
def test_penalty_vanishes_at_rho_one_and_m_gamma_m0(gamma: float, m0: float) -> None:
    r"""r~(gamma*m0, 1, m0, gamma) = 0: no deviation from initialization is needed.

    ``gamma*m0`` is exact for 26-bit mantissas, so :math:`u^* = m_0` is an exact
    root (:math:`\kappa = 2`) with :math:`T_1 = T_2 = T_3 = 0`. A float64 root
    within :math:`\delta` of it leaves a second-order residue bounded by
    :func:`_penalty_error` (:math:`O(\epsilon^2(\gamma^2 + m_0^2))`).
    """
    m = gamma * m0
    penalty = _as_float(relu_ptft_penalty(m, 1.0, m0, gamma))
    scale = _as_float(relu_ptft_scale(m, 1.0, m0, gamma))
    with mpmath.workdps(DPS):
        delta = _root_error(mpmath.mpf(m0), 2)
        bound = _penalty_error(
            mpmath.mpf(m0), delta, mpmath.mpf(m), 1, mpmath.mpf(m0), mpmath.mpf(gamma)
        )
    assert 0 <= penalty <= bound, (penalty, mpmath.nstr(bound, 3))
    assert abs(scale - m0) <= delta, (scale, m0)


@_with_examples(_EDGE_CASES + _ZERO_MAGNITUDE_CASES)
@given(m=_REALS, rho=_COSINES, m0=_NORMS, gamma=_REALS)
def test_penalty_is_the_global_minimum(
    m: float, rho: float, m0: float, gamma: float
) -> None:
    r"""relu_ptft_penalty <= relu_ptft_deviation(u) for every u > 0.

    Sampled at :math:`u^*(1 \pm 2^{-j})`, on a log grid :math:`u^*10^k`, at
    every root of eq. (10) and at both switched-off configurations. Tolerance:
    the penalty's error bound plus the rounding of the deviation at u
    (8 roundings on each non-negative term, as in :func:`_penalty_error`).
    """
    penalty = _as_float(relu_ptft_penalty(m, rho, m0, gamma))
    if m == 0:
        _, penalty_error = _zero_magnitude_penalty(rho, m0, gamma)
        anchors = [x for x in (m0 * rho, m0, abs(gamma), 1.0) if x > 0]
        roots: tuple[Any, ...] = ()
    else:
        reference = _reference(m, rho, m0, gamma)
        penalty_error = reference.penalty_tolerance
        anchors = [float(reference.best.u)]
        roots = reference.roots
    points = {float(r) for r in roots}
    for anchor in anchors:
        points.update(
            anchor * (1 + s * 2.0**-j) for j in range(1, 53, 3) for s in (1, -1)
        )
        points.update(anchor * 10.0**k for k in range(-40, 41, 4))
    u = np.array(sorted(x for x in points if 1e-300 < x < 1e300))
    deviation = relu_ptft_deviation(u, m, rho, m0, gamma)
    with mpmath.workdps(DPS):
        m_, rho_, m0_, gamma_ = (mpmath.mpf(v) for v in (m, rho, m0, gamma))
        for x, value in zip(u, deviation, strict=True):
            x_ = mpmath.mpf(x)
            rounding = _penalty_error(x_, 0, m_, rho_, m0_, gamma_)
            assert penalty <= value + penalty_error + rounding, (x, value, penalty)


@_with_examples(
    [{k: v for k, v in c.items() if k != "m"} for c in _ZERO_MAGNITUDE_CASES]
)
@given(rho=_COSINES, m0=_NORMS, gamma=_REALS)
def test_zero_magnitude_convention(rho: float, m0: float, gamma: float) -> None:
    r"""At m = 0, r~ = min(m0^2, gamma^2 + m0^2(1 - max(rho, 0)^2)), u* = m0 rho or 0.

    Exact values in mpmath; the float64 tolerance is absolute,
    :math:`8\epsilon(\gamma^2 + m_0^2)`, because :math:`1-\rho^2` cancels near
    :math:`\rho = 1`. The minimizer is checked where the two branches are
    separated (readout off iff :math:`\rho > 0` and :math:`|\gamma| \le m_0\rho`).
    """
    expected, tolerance = _zero_magnitude_penalty(rho, m0, gamma)
    penalty = _as_float(relu_ptft_penalty(0.0, rho, m0, gamma))
    assert abs(penalty - expected) <= tolerance, (penalty, mpmath.nstr(expected, 17))
    # The mpmath reference applies the same convention, to DPS digits.
    with mpmath.workdps(DPS):
        penalty_mp = relu_ptft_penalty_mp(0.0, rho, m0, gamma, dps=DPS)
        assert abs(penalty_mp - expected) <= mpmath.mpf(10) ** (10 - DPS) * expected
    scale = _as_float(relu_ptft_scale(0.0, rho, m0, gamma))
    if _zero_magnitude_branch_is_clear(rho, m0, gamma):
        readout_off = rho > 0 and abs(gamma) <= m0 * rho
        assert scale == pytest.approx(
            m0 * rho if readout_off else 0.0, rel=EPS, abs=0.0
        )
    assert _as_float(relu_ptft_stationary_count(0.0, rho, m0, gamma)) == 1.0


# ---------------------------------------------------------------------------
# 5. The number of stationary points.
# ---------------------------------------------------------------------------

#: Below this |q(v)| / sum|terms| at a critical point v of q, q has a near-double
#: root: its sign at v, which decides 1 vs 3 roots, is within ~1000 roundings of
#: 0 (13 for coefficients and Horner, the rest for the location of v).
_NEAR_DOUBLE = 1024 * EPS


@_with_examples(_EDGE_CASES)
@example(m=1e-4, rho=1.0, m0=1.0, gamma=0.1)
@given(m=_NONZERO_REALS, rho=_COSINES, m0=_NORMS, gamma=_REALS)
def test_stationary_count_matches_sign_changes(
    m: float, rho: float, m0: float, gamma: float
) -> None:
    r"""relu_ptft_stationary_count == sign changes of q on a fine log grid.

    The grid and its completeness argument are those of :func:`_positive_roots`
    (the critical points of q separate adjacent roots). Near-double roots are
    skipped. For generic points the count also equals the number of positive
    real roots from mpmath.polyroots at dps=50, whose convergence test is
    absolute (1e-50): it is used on q scaled by
    :math:`s = \max(|m_0\rho|, |\gamma m|^{1/3}, |m|^{1/2})`, whose roots all
    have modulus <= 2 (Fujiwara), where Fujiwara's bound on the reversed
    polynomial puts every root modulus above 1e-15, and where no critical
    value of q is within 1e-8 of 0.
    """
    count = _as_float(relu_ptft_stationary_count(m, rho, m0, gamma))
    reference = _reference(m, rho, m0, gamma)
    assume(reference.degeneracy > _NEAR_DOUBLE)
    assert count == len(reference.roots), [mpmath.nstr(r, 10) for r in reference.roots]
    with mpmath.workdps(DPS):
        m_, rho_, m0_, gamma_ = (mpmath.mpf(v) for v in (m, rho, m0, gamma))
        s = max(abs(m0_ * rho_), mpmath.cbrt(abs(gamma_ * m_)), mpmath.sqrt(abs(m_)))
        scaled = [1, -m0_ * rho_ / s, 0, gamma_ * m_ / s**3, -(m_**2) / s**4]
        reversed_bound = 2 * max(
            (abs(c / scaled[4])) ** (mpmath.mpf(1) / (4 - k))
            for k, c in enumerate(scaled[:4])
            if c
        )
        if reference.degeneracy > 1e-8 and reversed_bound < 1e15:
            roots = mpmath.polyroots(scaled, maxsteps=400, extraprec=2 * DPS)
            real = [z for z in roots if mpmath.im(z) == 0 and mpmath.re(z) > 0]
            assert count == len(real), roots


@_with_examples(_EDGE_CASES + _ZERO_MAGNITUDE_CASES)
@given(m=_REALS, rho=_COSINES, m0=_NORMS, gamma=_REALS)
def test_stationary_count_is_one_by_descartes(
    m: float, rho: float, m0: float, gamma: float
) -> None:
    r"""One stationary point if :math:`\rho\le 0`, :math:`\gamma m\le 0`, or m0 = 0.

    The coefficients of eq. (10), :math:`(1, -m_0\rho, 0, \gamma m, -m^2)`, then
    change sign once, so by Descartes' rule of signs q has exactly one positive
    root (and m = 0 is reported as 1 by convention).
    """
    assume(rho <= 0 or np.sign(gamma) * np.sign(m) <= 0 or m0 == 0)
    assert _as_float(relu_ptft_stationary_count(m, rho, m0, gamma)) == 1.0


# ---------------------------------------------------------------------------
# 6. Broadcasting.
# ---------------------------------------------------------------------------

_EVALUATORS = [
    relu_ptft_penalty,
    relu_ptft_scale,
    relu_ptft_stationary_count,
    relu_ptft_log_slope,
    relu_ptft_log_log_slope,
]


@pytest.mark.parametrize("function", _EVALUATORS, ids=lambda f: f.__name__)
def test_broadcasting_matches_scalar_calls(function: Callable[..., Any]) -> None:
    """Shapes (3, 1) x (1, 4) x () x (4,) -> (3, 4), float64, equal to scalar calls."""
    m = np.array([[0.5], [-2.0], [1e-8]])
    rho = np.array([[1.0, 0.5, -0.3, 0.99]])
    m0 = 1.0
    gamma = np.array([0.01, -0.2, 0.0, 3.0])
    result = function(m, rho, m0, gamma)
    assert result.shape == (3, 4)
    assert result.dtype == np.float64
    for i, j in np.ndindex(3, 4):
        scalar = function(float(m[i, 0]), float(rho[0, j]), m0, float(gamma[j]))
        assert np.shape(scalar) == ()
        assert result[i, j] == scalar
    np.testing.assert_array_equal(
        function(m.tolist(), rho.tolist(), m0, gamma.tolist()), result
    )


def test_deviation_broadcasts_and_accepts_lists() -> None:
    """relu_ptft_deviation broadcasts u with the other arguments, float64 out."""
    u = [[0.5], [1.0], [2.0]]
    result = relu_ptft_deviation(u, [1.0, -1.0, 0.0, 2.0], 0.5, 1.0, 0.1)
    assert result.shape == (3, 4)
    assert result.dtype == np.float64
    # Eq. (8) as printed at u = m = m0 = 1, rho = 0.5, gamma = 0.1: 0.81 + 1.
    assert result[1, 0] == pytest.approx(1.81, rel=_TERM_ROUNDINGS * EPS, abs=0.0)


# ---------------------------------------------------------------------------
# 7. Bad input.
# ---------------------------------------------------------------------------

_GOOD = {"m": 1.0, "rho": 0.5, "m0": 1.0, "gamma": 0.1}
_BAD_VALUES = [
    ("rho", 1.5),
    ("rho", -1.0000001),
    ("m0", -1e-300),
    ("m", "abc"),
    ("rho", "abc"),
    ("m0", "abc"),
    ("gamma", "abc"),
] + [(name, value) for name in _GOOD for value in (math.nan, math.inf, -math.inf)]
_ALL_EVALUATORS = [*_EVALUATORS, relu_ptft_penalty_mp, relu_ptft_scale_mp]


@pytest.mark.parametrize(
    ("name", "value"), _BAD_VALUES, ids=[f"{n}={v!r}" for n, v in _BAD_VALUES]
)
@pytest.mark.parametrize("function", _ALL_EVALUATORS, ids=lambda f: f.__name__)
def test_invalid_argument_is_rejected_by_name(
    function: Callable[..., Any], name: str, value: Any
) -> None:
    """Out-of-domain, non-finite or non-numeric arguments raise InvalidArgumentError."""
    arguments = {**_GOOD, name: value}
    with pytest.raises(InvalidArgumentError, match=rf"\b{name}=") as error:
        function(**arguments)
    assert isinstance(error.value, ValueError)


@pytest.mark.parametrize("function", _EVALUATORS, ids=lambda f: f.__name__)
def test_shapes_that_do_not_broadcast_are_rejected(
    function: Callable[..., Any],
) -> None:
    """The message names every argument with its shape."""
    with pytest.raises(
        InvalidArgumentError, match=r"broadcast.*m: \(2,\).*rho: \(3,\)"
    ):
        function([1.0, 2.0], [0.1, 0.2, 0.3], 1.0, 0.0)


@pytest.mark.parametrize(
    ("m", "rho", "m0", "gamma"),
    [
        (0.5, 1.0, 1.0, 0.5),  # penalty exactly 0: log undefined
        (0.0, -0.5, 1.0, 0.1),  # m = 0, u* = 0 because rho <= 0
        (0.0, 0.5, 1.0, 2.0),  # m = 0, u* = 0 because |gamma| > m0 rho
    ],
)
@pytest.mark.parametrize(
    "function", [relu_ptft_log_slope, relu_ptft_log_log_slope], ids=lambda f: f.__name__
)
def test_log_slope_is_undefined_where_it_does_not_exist(
    function: Callable[..., Any], m: float, rho: float, m0: float, gamma: float
) -> None:
    """log r~ has no derivative where r~ = 0 or where it jumps (m = 0, u* = 0)."""
    with pytest.raises(InvalidArgumentError, match=r"\bm="):
        function(m, rho, m0, gamma)


@pytest.mark.parametrize("u", [0.0, -1.0, [1.0, 0.0], math.nan, math.inf, "abc"])
def test_deviation_rejects_invalid_u(u: Any) -> None:
    """u is a norm: u > 0 and finite."""
    with pytest.raises(InvalidArgumentError, match=r"\bu="):
        relu_ptft_deviation(u, 1.0, 0.5, 1.0, 0.1)


@pytest.mark.parametrize(
    "point",
    [
        (-1e-100, -1.0, 1e100, 1e-100),
        (1.0, -1.0, 1e73, 0.0),
        (1e-95, -1.0, 1e25, 0.0),
        (1e-100, 1.0, 1e100, 1e60),
        (1e-100, 0.9, 1e100, 1e-10),
    ],
)
def test_magnitudes_far_below_the_pretrained_scale(
    point: tuple[float, float, float, float],
) -> None:
    """|m| << (m0 rho)^2, where the scaled quartic's constant term would underflow."""
    penalty_mp = relu_ptft_penalty_mp(*point)
    assert abs(relu_ptft_penalty(*point) - penalty_mp) <= 8 * EPS * penalty_mp
    scale_mp = relu_ptft_scale_mp(*point)
    assert abs(relu_ptft_scale(*point) - scale_mp) <= 8 * EPS * scale_mp


# ---------------------------------------------------------------------------
# The exact root isolation of the mpmath references (python-flint / Arb)
# against SymPy's (Vincent-Akritas-Strzebonski continued fractions).
# ---------------------------------------------------------------------------

#: Positive rationals d * 10^k, d an integer in [1, 10^6], k in [-30, 30].
_RATIONAL_MAGNITUDES = st.builds(
    lambda digits, exponent: Fraction(digits) * Fraction(10) ** exponent,
    st.integers(min_value=1, max_value=10**6),
    st.integers(min_value=-30, max_value=30),
)
_RATIONALS = st.one_of(
    st.just(Fraction(0)), _RATIONAL_MAGNITUDES, _RATIONAL_MAGNITUDES.map(operator.neg)
)


u_ = sp.Symbol("u")


@st.composite
def _quartics_with_close_roots(draw: st.DrawFn) -> list[Fraction]:
    r"""Monic quartics :math:`(u - r)(u - r(1 + \delta))(u^2 + su + t)`.

    :math:`\delta = 10^{-j}`, j up to 60 (nearly double roots), or 0 (an exact
    double root); r of either sign; the quadratic factor may have real roots
    (possibly positive, possibly double) or none. Leading coefficient first.
    """
    root = draw(st.one_of(_RATIONAL_MAGNITUDES, _RATIONAL_MAGNITUDES.map(operator.neg)))
    closeness = draw(st.one_of(st.just(0), st.integers(min_value=1, max_value=60)))
    other = root * (1 + (Fraction(1, 10**closeness) if closeness else 0))
    s, t = draw(_RATIONALS), draw(_RATIONALS)
    factors = [[Fraction(1), -root], [Fraction(1), -other], [Fraction(1), s, t]]
    coefficients = [Fraction(1)]
    for factor in factors:
        product = [Fraction(0)] * (len(coefficients) + len(factor) - 1)
        for i, x in enumerate(coefficients):
            for j, y in enumerate(factor):
                product[i + j] += x * y
        coefficients = product
    return coefficients


def _sympy_positive_roots(
    coefficients: list[Fraction],
) -> list[tuple[sp.Rational, sp.Rational]]:
    """SymPy's isolating intervals of the distinct positive real roots."""
    poly = sp.Poly([sp.Rational(c.numerator, c.denominator) for c in coefficients], u_)
    return sorted(
        (low, high)
        for (low, high), _ in poly.intervals()
        if high > 0 and not (low == high == 0)
    )


def _check_isolation_against_sympy(
    coefficients: list[Fraction], dps: int, centre: Fraction | None
) -> None:
    intervals = relu_penalty_reference._positive_root_intervals(
        coefficients, dps, centre=centre
    )
    expected = _sympy_positive_roots(coefficients)
    assert len(intervals) == len(expected), (intervals, expected)
    # SymPy refines a root only on a squarefree polynomial.
    poly = sp.Poly(
        [sp.Rational(c.numerator, c.denominator) for c in coefficients], u_
    ).sqf_part()
    relative = Fraction(1, 10 ** (dps + 10))
    for (low, high), (low_s, high_s) in zip(intervals, expected, strict=True):
        assert 0 < low <= high
        assert high - low <= relative * low
        # SymPy's interval, refined below a tenth of ours, must meet ours: both
        # hold the same root, and ours are disjoint, so a misplaced interval fails.
        width = max(high - low, relative * low) / 10
        low_s, high_s = poly.refine_root(
            low_s, high_s, eps=sp.Rational(width.numerator, width.denominator)
        )
        low_s, high_s = (Fraction(int(x.p), int(x.q)) for x in (low_s, high_s))
        assert low_s <= high, ((low, high), (low_s, high_s))
        assert low <= high_s, ((low, high), (low_s, high_s))
        if centre is not None and not low <= centre <= high:
            distance = min(abs(low - centre), abs(high - centre))
            assert high - low <= relative * distance
    for (_, high), (low, _) in itertools.pairwise(intervals):
        assert high < low


@example(
    coefficients=[Fraction(1), Fraction(-2), Fraction(0), Fraction(0), Fraction(0)],
    dps=5,
)
@example(  # (u - 1)^2 (u - 2)(u + 3): a double root at 1
    coefficients=[Fraction(c) for c in (1, -1, -7, 13, -6)], dps=20
)
@given(coefficients=_quartics_with_close_roots(), dps=st.integers(1, 60))
def test_root_isolation_matches_sympy_near_double_roots(
    coefficients: list[Fraction], dps: int
) -> None:
    """Exactly isolated roots (python-flint) agree with SymPy's, close roots included.

    Every distinct positive root is found once, in an interval of relative
    width 10^-(dps+10) that meets SymPy's refined isolating interval.
    """
    _check_isolation_against_sympy(coefficients, dps, centre=None)


@_with_examples(_EDGE_CASES[:2])
@example(m=-0.0000716303, rho=0.546333, m0=23.0316, gamma=-0.268108)
@example(m=0.1, rho=0.5, m0=1.0, gamma=1e17)
@example(m=0.5, rho=1.0, m0=1.0, gamma=0.5)  # u* = m0 rho exactly
@example(m=1.0000000000000002e-300, rho=1.0, m0=1.0, gamma=1e-300)  # u*-m0 rho ~1e-616
@_REFERENCE_SETTINGS  # SymPy isolates slowly at coefficients of 1e-400
@given(m=_NONZERO_REALS, rho=_COSINES, m0=_NORMS, gamma=_REALS)
def test_root_isolation_of_eq10_matches_sympy(
    m: float, rho: float, m0: float, gamma: float
) -> None:
    """Eq. (10) at exact float arguments: the isolation agrees with SymPy's.

    With the centre m0 rho, each interval is also narrower than 10^-(dps+10)
    of its distance to m0 rho (what relu_ptft_penalty_mp needs for u - m0 rho).
    """
    quartic = relu_penalty_reference._exact_quartic(m, rho, m0, gamma, 25)
    _check_isolation_against_sympy(quartic, 25, centre=-quartic[1])


def test_three_positive_roots_are_isolated() -> None:
    """The three-root point of the doctest of relu_ptft_stationary_count.

    q(u) = u^4 - u^3 + 1e-10 u - 1e-16: roots near 1e-6 and 1e-5 (where
    u(1e-10 - u^2) = 1e-16 at small u) and near 1; each checked by exact signs
    of q on either side.
    """
    roots = relu_ptft_stationary_points_mp(1e-8, 1.0, 1.0, 0.01, dps=30)
    assert len(roots) == 3
    quartic = relu_penalty_reference._exact_quartic(1e-8, 1.0, 1.0, 0.01, 30)
    with mpmath.workdps(40):
        for root in roots:
            slack = root * mpmath.mpf(10) ** -28
            ends = [
                relu_penalty_reference._exact_rational(x, 30)
                for x in (root - slack, root + slack)
            ]
            values = [relu_penalty_reference._value(quartic, end) for end in ends]
            assert values[0] * values[1] < 0


# ---------------------------------------------------------------------------
# The certified float64 fast path of relu_ptft_penalty (issue 23) and its
# fallback to the error-bounded path (_minimize).
# ---------------------------------------------------------------------------

#: The fast path's certified relative error: 16 unit roundoffs (1.8e-15).
_FAST_RELATIVE = 16 * 2.0**-53


def _fast(m: float, rho: float, m0: float, gamma: float) -> tuple[float, bool]:
    """The fast path alone at one point: (penalty, certified)."""
    arrays = [np.array([float(v)]) for v in (m, rho, m0, gamma)]
    penalty, certified = relu_penalty_certified._fast_penalty(*arrays)
    return float(penalty[0]), bool(certified[0])


def _fallback(m: float, rho: float, m0: float, gamma: float) -> float:
    """The error-bounded path the fast path falls back to, at one point."""
    arrays = [np.array([float(v)]) for v in (m, rho, m0, gamma)]
    return float(relu_penalty_error_bounded._minimize(*arrays).penalty[0])


@_with_examples(_EDGE_CASES + _ZERO_MAGNITUDE_CASES)
@given(m=_REALS, rho=_COSINES, m0=_NORMS, gamma=_REALS)
def test_fast_path_holds_its_certificate(
    m: float, rho: float, m0: float, gamma: float
) -> None:
    """A certified fast value is within 16 unit roundoffs of the reference.

    Elsewhere relu_ptft_penalty returns the fallback's value, bitwise. The
    bound is the fast path's own a-posteriori certificate (Kantorovich on the
    root, rounding of eq. (8) at it), so this checks that certificate
    against the exact root isolation of relu_ptft_penalty_mp at 30 digits.
    """
    penalty, certified = _fast(m, rho, m0, gamma)
    value = _as_float(relu_ptft_penalty(m, rho, m0, gamma))
    if not certified:
        assert value == _fallback(m, rho, m0, gamma)
        return
    assert value == penalty
    reference = relu_ptft_penalty_mp(m, rho, m0, gamma, dps=30)
    assert abs(mpmath.mpf(penalty) - reference) <= _FAST_RELATIVE * reference, (
        penalty,
        mpmath.nstr(reference, 20),
    )


@pytest.mark.parametrize(
    ("point", "why"),
    [
        ((0.5 * (1 + 2.0**-40), 1.0, 1.0, 0.5), "p cancels near the hyperbola"),
        (
            (
                -0.010661737028212928,
                0.9968630186536842,
                0.049354602574167857,
                -0.19666611148417992,
            ),
            "g and d cancel ~10x: a bound ~3x the certified 16 unit roundoffs",
        ),
        ((1e-3, 1.0, 1.0, 0.18848514918079914), "q has a near-double root"),
        ((1e-3, 1.0, 1.0, 0.18848514918079917), "q has a near-double root"),
        ((0.0, 0.5, 1.0, 0.1), "m = 0, a convention"),
        ((1e-200, 0.5, 1.0, 0.1), "m^2 underflows"),
        ((1.0, 0.5, 1e140, 0.0), "p near the top of the float64 range"),
    ],
)
def test_fast_path_falls_back_where_its_bound_fails(
    point: tuple[float, float, float, float], why: str
) -> None:
    """Points the fast path cannot certify get the fallback's value, exact to 2^-40.

    The two near-double roots are the gammas either side of the switch from
    one to three positive roots at m = 1e-3, rho = m0 = 1 (bisection on
    relu_ptft_stationary_count); the hyperbola point has m/u* within 2^-40 of
    gamma and u* within 2^-40 of m0 rho, where eq. (8) loses 40 bits.
    """
    _, certified = _fast(*point)
    assert not certified, why
    value = _as_float(relu_ptft_penalty(*point))
    assert value == _fallback(*point)
    reference = relu_ptft_penalty_mp(*point, dps=30)
    assert abs(mpmath.mpf(value) - reference) <= _FULL_RANGE_RELATIVE * reference


@pytest.mark.parametrize(
    "point",
    [
        (1e-8, 1.0, 1.0, 0.01),  # global minimum at the convex part's root
        (1e-3, 0.5, 1.0, 1.0),  # ... at the concave part's root, u* ~ m/gamma
    ],
)
def test_fast_path_finds_the_global_minimum_of_three_roots(
    point: tuple[float, float, float, float],
) -> None:
    """With three positive roots the fast path certifies the smaller local minimum."""
    assert _as_float(relu_ptft_stationary_count(*point)) == 3.0
    penalty, certified = _fast(*point)
    assert certified
    reference = relu_ptft_penalty_mp(*point, dps=30)
    assert abs(mpmath.mpf(penalty) - reference) <= _FAST_RELATIVE * reference


def _issue_domain(size: int, seed: int) -> tuple[np.ndarray, ...]:
    """Issue 23's domain: m log-uniform in [1e-3, 10], m0 in [1e-2, 10], rho in
    [-1, 1], gamma in [0, 0.1] (benchmarks/bench_relu_penalty.py)."""
    rng = np.random.default_rng(seed)
    m = 10.0 ** rng.uniform(-3, 1, size)
    m0 = 10.0 ** rng.uniform(-2, 1, size)
    rho = rng.uniform(-1, 1, size)
    gamma = rng.uniform(0, 0.1, size)
    return m, rho, m0, gamma


def test_fast_path_covers_the_issue_domain() -> None:
    """On 400 points of issue 23's domain >= 99% are certified, all within 2e-15.

    The fallback costs ~300 us a call; the fraction guards the fast path's
    reach (the starts, step counts and bound), the error issue 23's target.
    """
    points = _issue_domain(400, seed=23)
    _, certified = relu_penalty_certified._fast_penalty(*points)
    assert certified.mean() >= 0.99
    values = relu_ptft_penalty(*points)
    for i in range(values.size):
        reference = relu_ptft_penalty_mp(*(float(v[i]) for v in points), dps=30)
        assert abs(mpmath.mpf(float(values[i])) - reference) <= 2e-15 * reference


def test_fast_path_results_do_not_depend_on_their_neighbours() -> None:
    """A call over several blocks (three-root, fallback and m = 0 points mixed in)
    equals scalar calls, bitwise: every decision of the fast path is per point."""
    points = [np.array(v) for v in _issue_domain(3 * 4096 + 17, seed=5)]
    special = [
        (1e-8, 1.0, 1.0, 0.01),
        (1e-3, 0.5, 1.0, 1.0),
        (0.5 * (1 + 2.0**-40), 1.0, 1.0, 0.5),
        (0.0, 0.5, 1.0, 0.1),
        (-1e-8, 1.0, 1.0, -0.01),
    ]
    for k, point in enumerate(special):
        for v, value in zip(points, point, strict=True):
            v[1000 * k + 4090] = value
    values = relu_ptft_penalty(*points)
    for i in [*range(0, values.size, 997), *(1000 * k + 4090 for k in range(5))]:
        scalar = relu_ptft_penalty(*(float(v[i]) for v in points))
        assert values[i] == scalar, i


@pytest.mark.parametrize(
    "point",
    [
        (9.995961706279933e-51, 0.6573591240466778, 1.1546765975558498e-100, 6.4e45),
        (1.452853024389441e-09, 0.346197441253004, 5.148839506567611e-23, 4.2e64),
        (-8.909061157386187e-56, 0.378657326041302, 4.400051258091938e-94, -8e22),
        # u* = 7e-158: the root form of g is subnormal, the direct form is exact.
        (4.533694286150722e-58, -0.999, 5.0538608291573695e-79, 6.149022974282653e99),
    ],
)
def test_penalty_where_the_readout_gap_underflows(
    point: tuple[float, float, float, float],
) -> None:
    r"""u* ~ m/gamma far below m0 rho: g = u^2 d/m ~ 1e-238, d = u - m0 rho ~ 1e-96.

    Eq. (8) in the tied form :math:`g^2(1 + m^2/u^4)` lost :math:`d^2` to the
    underflow of :math:`g^2` (the error-bounded path returned :math:`t^2`
    alone at the first three points, up to 1e31 times too small, or lost 10
    bits); its error bound underflowed with it. Found comparing both float64
    paths with relu_ptft_penalty_mp over magnitudes 10^-100..10^100.
    """
    reference = relu_ptft_penalty_mp(*point, dps=30)
    assert abs(relu_ptft_penalty(*point) - reference) <= 2.0**-40 * reference
    assert abs(_fallback(*point) - reference) <= 2.0**-40 * reference
