r"""Certified signs: ball arithmetic (python-flint's ``arb``) on SymPy expressions.

A sampled residual that is far from zero is evidence, not proof: mpmath
rounds at every step. :func:`certified_nonzero` evaluates the residual again
at the same point in ball arithmetic -- every operation returns a ball that
contains the exact value -- and the residual is certified nonzero when its
ball excludes 0. Then the point is a *certified counterexample*: a proof that
the relation fails there.

Why ``arb`` and not ``mpmath.iv``: ``arb`` propagates rigorous error bounds
through the elementary and special functions the papers use (``erf``,
inverse trigonometric and hyperbolic functions, ``gamma``) and raises the
working precision cheaply, where ``mpmath.iv`` covers fewer functions and
mixes with ordinary mpmath numbers only by converting them (and failing on
constants such as ``pi`` that SymPy emits).

The sampled points are binary floats (mpmath ``mpf``); each converts to a
ball containing it (of radius 0 once the working precision holds its
mantissa), so the enclosure contains the residual at exactly the point
reported.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import sympy as sp
from flint import arb, ctx

__all__ = ["Certificate", "certified_nonzero", "certified_sign", "exact_point"]

#: Working precisions tried in turn (bits): a ball too wide to exclude 0 at
#: one is evaluated again at the next.
PRECISIONS = (128, 512, 2048)

_FUNCTIONS: dict[type, Callable[[arb], arb]] = {
    sp.exp: arb.exp,
    sp.log: arb.log,
    sp.sin: arb.sin,
    sp.cos: arb.cos,
    sp.tan: arb.tan,
    sp.atan: arb.atan,
    sp.asin: arb.asin,
    sp.acos: arb.acos,
    sp.sinh: arb.sinh,
    sp.cosh: arb.cosh,
    sp.tanh: arb.tanh,
    sp.asinh: arb.asinh,
    sp.acosh: arb.acosh,
    sp.atanh: arb.atanh,
    sp.erf: arb.erf,
    sp.erfc: arb.erfc,
    sp.gamma: arb.gamma,
    sp.Abs: abs,
}


class _Unsupported(Exception):
    """The expression holds a node this evaluator has no ball version of."""


@dataclass(frozen=True)
class Certificate:
    """The outcome of :func:`certified_nonzero`.

    Attributes:
      certified: whether the enclosure of the value excludes 0.
      enclosure: the ball, as python-flint prints it (``[mid +/- rad]``), or
        the reason no ball was computed.
      bits: the working precision of the last evaluation.
      sign: +1 or -1, the sign of every value in the enclosure when
        certified; 0 when not certified.
    """

    certified: bool
    enclosure: str
    bits: int
    sign: int = 0


def _exact_ball(value: mpmath.mpf | Fraction) -> arb:
    if isinstance(value, Fraction):
        # Exact when the working precision holds the quotient, else a ball
        # containing it.
        return arb(value.numerator) / arb(value.denominator)
    if not mpmath.isfinite(value):
        raise ValueError(f"the point has the non-finite coordinate {value}")
    sign, mantissa, exponent, _ = value._mpf_
    return (-1) ** sign * arb(int(mantissa)) * arb(2) ** int(exponent)


def _coordinate(value: mpmath.mpf | Fraction | float) -> mpmath.mpf | Fraction:
    # mpmath.mpf(an mpf) would round it to the working precision: keep it.
    if isinstance(value, (Fraction, mpmath.mpf)):
        return value
    return mpmath.mpf(value)


def _ball(expression: sp.Basic, values: Mapping[sp.Symbol, arb]) -> arb:
    if isinstance(expression, sp.Symbol):
        return values[expression]
    if expression.is_Integer:
        return arb(int(expression))
    if expression.is_Rational:
        return arb(int(expression.p)) / arb(int(expression.q))
    if expression.is_Float:
        return _exact_ball(mpmath.mpf(expression._mpf_))
    if expression is sp.pi:
        return arb.pi()
    if expression is sp.E:
        return arb(1).exp()
    if isinstance(expression, sp.Add):
        total = arb(0)
        for term in expression.args:
            total += _ball(term, values)
        return total
    if isinstance(expression, sp.Mul):
        product = arb(1)
        for factor in expression.args:
            product *= _ball(factor, values)
        return product
    if isinstance(expression, sp.Pow):
        base, exponent = expression.args
        if exponent.is_Integer:
            return _ball(base, values) ** int(exponent)
        if exponent == sp.Rational(1, 2):
            return _ball(base, values).sqrt()
        if exponent == sp.Rational(-1, 2):
            return _ball(base, values).rsqrt()
        return (_ball(base, values).log() * _ball(exponent, values)).exp()
    function = _FUNCTIONS.get(type(expression))
    if function is not None and len(expression.args) == 1:
        return function(_ball(expression.args[0], values))
    raise _Unsupported(type(expression).__name__)


def certified_nonzero(
    expression: sp.Expr, point: Mapping[sp.Symbol, mpmath.mpf | Fraction]
) -> Certificate:
    """Whether ``expression`` is provably nonzero at ``point``.

    Evaluates ``expression`` in ball arithmetic at each of :data:`PRECISIONS`
    until its ball excludes 0 (certified) or the precisions run out.

    Args:
      expression: a SymPy expression in the symbols of ``point``; supported:
        numbers, ``pi``, ``E``, sums, products, powers, and ``exp``, ``log``,
        the (inverse) trigonometric and hyperbolic functions, ``erf``,
        ``erfc``, ``gamma``, ``Abs``.
      point: a binary float (mpmath ``mpf``) or an exact rational
        (``fractions.Fraction``, e.g. a short decimal to report) for every
        free symbol.

    Returns:
      A :class:`Certificate`; not certified when a node is unsupported, the
      ball is not finite (e.g. a square root of a ball reaching below 0), or
      it contains 0 at the highest precision.

    Examples:
      >>> x = sp.Symbol("x", real=True)
      >>> residual = sp.atan(x) + sp.atan(1 / x) - sp.pi / 2
      >>> certified_nonzero(residual, {x: mpmath.mpf(-1)}).certified
      True
      >>> certified_nonzero(residual, {x: mpmath.mpf(2)}).certified
      False
    """
    previous = ctx.prec
    enclosure, bits = "", PRECISIONS[0]
    try:
        for bits in PRECISIONS:
            ctx.prec = bits
            try:
                balls = {s: _exact_ball(_coordinate(v)) for s, v in point.items()}
                value = _ball(expression, balls)
            except _Unsupported as error:
                return Certificate(False, f"no ball arithmetic for {error}", bits)
            except (ZeroDivisionError, ValueError) as error:
                return Certificate(False, f"ball evaluation failed ({error})", bits)
            enclosure = str(value)
            if value.is_finite() and not value.contains(0):
                return Certificate(True, enclosure, bits, 1 if value > 0 else -1)
    finally:
        ctx.prec = previous
    return Certificate(False, enclosure, bits)


def certified_sign(
    expression: sp.Expr, point: Mapping[sp.Symbol, mpmath.mpf | Fraction], sign: int
) -> Certificate:
    """Whether ``expression`` is provably of sign ``sign`` (+1 or -1) at ``point``.

    For inequalities: ``lhs <= rhs`` is refuted at ``point`` when
    ``certified_sign(lhs - rhs, point, +1).certified``.

    Examples:
      >>> x = sp.Symbol("x", positive=True)
      >>> certified_sign(sp.log(x) - (x - 1), {x: mpmath.mpf(3)}, -1).certified
      True
      >>> certified_sign(sp.log(x) - (x - 1), {x: mpmath.mpf(3)}, +1).certified
      False
    """
    if sign not in (1, -1):
        raise ValueError(f"sign={sign!r} must be +1 or -1")
    certificate = certified_nonzero(expression, point)
    if certificate.certified and certificate.sign != sign:
        return Certificate(
            False,
            f"{certificate.enclosure}, of the opposite sign",
            certificate.bits,
            0,
        )
    return certificate


def exact_point(
    point: Mapping[sp.Symbol, mpmath.mpf | Fraction | int],
) -> dict[str, str]:
    """Each coordinate of ``point`` written exactly, by symbol name, in the
    point's order: the data of a counterexample (``Verdict.point``).

    An integer, a binary float (mpmath ``mpf``) and a rational with a finite
    decimal expansion are written in plain decimal (``3``, ``0.125``,
    ``0.000015``, never rounded nor in exponent form); another rational as
    ``p/q`` (``1/3``).
    Either reads back as the same number with ``fractions.Fraction``, so the
    point a certificate holds at is the point reported.

    Raises:
      ValueError: a coordinate is not finite.

    Examples:
      >>> x, y = sp.Symbol("x"), sp.Symbol("y")
      >>> exact_point({x: Fraction(3, 2), y: Fraction(1, 3)})
      {'x': '1.5', 'y': '1/3'}
      >>> exact_point({x: mpmath.mpf(0.1)})["x"]
      '0.1000000000000000055511151231257827021181583404541015625'
    """
    return {str(s): _exact_text(_fraction(v)) for s, v in point.items()}


def _fraction(value: mpmath.mpf | Fraction | int) -> Fraction:
    """The exact rational value of a coordinate."""
    if isinstance(value, Fraction | int):
        return Fraction(value)
    if not mpmath.isfinite(value):
        raise ValueError(f"the point has the non-finite coordinate {value}")
    sign, mantissa, exponent, _ = value._mpf_
    return (-1) ** sign * Fraction(int(mantissa)) * Fraction(2) ** int(exponent)


def _exact_text(value: Fraction) -> str:
    """``value`` in plain decimal if its expansion is finite, else ``p/q``."""
    denominator, twos, fives = value.denominator, 0, 0
    while denominator % 2 == 0:
        denominator, twos = denominator // 2, twos + 1
    while denominator % 5 == 0:
        denominator, fives = denominator // 5, fives + 1
    if denominator != 1:
        return f"{value.numerator}/{value.denominator}"
    # value * 10^places is an integer: write its digits, point inserted.
    places = max(twos, fives)
    digits = str(abs(value.numerator) * 10**places // value.denominator)
    digits = digits.rjust(places + 1, "0")
    whole, fraction = digits[: len(digits) - places], digits[len(digits) - places :]
    fraction = fraction.rstrip("0")
    sign = "-" if value < 0 else ""
    return f"{sign}{whole}.{fraction}" if fraction else f"{sign}{whole}"
