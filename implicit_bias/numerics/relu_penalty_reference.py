r"""The PT+FT penalty of a ReLU unit: exact root isolation for the mpmath references.

The references ``relu_ptft_stationary_points_mp``, ``relu_ptft_penalty_mp`` and
``relu_ptft_scale_mp`` of :mod:`implicit_bias.numerics.relu_penalty` are built
on these helpers: the float arguments are taken as exact rationals, the
quartic of eq. (10) of ptft-relu-penalty is factored over the integers by
python-flint and its positive roots are isolated by Arb in rational intervals
certified by exact signs (:func:`_positive_root_intervals`); eq. (11) is
evaluated at each root without cancellation (:func:`_penalty_at_root_mp`)
and the smallest value kept (:func:`_mp_minimize`). Nothing here is shared
with the float64 paths, which makes it their reference.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath

from implicit_bias.errors import ConvergenceError
from implicit_bias.numerics.arguments import (
    check_dps,
    check_mp_real,
    relu_unit_arguments,
)
from implicit_bias.numerics._lazy import lazy_formula

#: No public names: :mod:`implicit_bias.numerics.relu_penalty` is the interface.
__all__: list[str] = []


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
