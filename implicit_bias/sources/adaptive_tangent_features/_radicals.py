r"""Identities between radical expressions, decided where they are not real.

The closed forms of Figure 2's join and of (12) for :math:`(z-1)^2` are roots
of a cubic and a quartic in radicals (Cardano, Ferrari); at sampled points
their intermediate radicals are complex, so a 50-digit real evaluation is
undefined there. :func:`judge_radical` then evaluates the difference of the
sides in complex ball arithmetic at exact points (principal branches, as
SymPy's).
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from flint import acb, arb, ctx

from implicit_bias.claims.checks import judge_relation
from implicit_bias.claims.engine import Basis, Reason, Verdict

__all__ = ["complex_ball", "judge_radical"]


#: Exact points at which a radical identity that is not real where sampled is
#: evaluated in complex ball arithmetic.
_RADICAL_PROBES = (Fraction(1, 3), Fraction(2), Fraction(7), Fraction(50))


def complex_ball(expression: sp.Basic, point: dict[sp.Symbol, Fraction]) -> acb:
    """``expression`` (rationals, symbols, sums, products, powers) at ``point``
    in complex ball arithmetic, principal branches as SymPy's."""
    if isinstance(expression, sp.Symbol):
        value = point[expression]
        return acb(arb(value.numerator) / arb(value.denominator))
    if isinstance(expression, sp.Rational):
        return acb(arb(int(expression.p)) / arb(int(expression.q)))
    if isinstance(expression, sp.Add):
        total = acb(0)
        for term in expression.args:
            total += complex_ball(term, point)
        return total
    if isinstance(expression, sp.Mul):
        product = acb(1)
        for factor in expression.args:
            product *= complex_ball(factor, point)
        return product
    if isinstance(expression, sp.Pow):
        base = complex_ball(expression.base, point)
        exponent = expression.exp
        if isinstance(exponent, sp.Integer):
            return base ** int(exponent)
        return base ** complex_ball(exponent, point)
    raise TypeError(f"no complex ball for {type(expression).__name__}")


def judge_radical(relation: sp.Basic, symbolic: bool = True) -> Verdict:
    """A radical identity in one positive variable, by :func:`judge_relation`
    (exact, else 50 digits at 20 points; ``symbolic=False``: numerically only);
    where its sides are not real at the sampled points, the difference of the
    sides in complex ball arithmetic at exact points: a ball excluding 0 (in
    its real or imaginary part) refutes the identity there."""
    verdict = judge_relation(relation, budget_seconds=2.0, points=20, symbolic=symbolic)
    if verdict.reason != Reason.NON_FINITE or not isinstance(relation, sp.Eq):
        return verdict
    difference = relation.lhs - relation.rhs
    symbols = sorted(difference.free_symbols, key=str)
    previous = ctx.prec
    try:
        ctx.prec = 256
        for value in _RADICAL_PROBES:
            point = {symbol: value for symbol in symbols}
            try:
                ball = complex_ball(difference, point)
            except (TypeError, ZeroDivisionError):
                return verdict
            if not (ball.real.contains(0) and ball.imag.contains(0)):
                where = ", ".join(f"{symbol} = {value}" for symbol in symbols)
                counterexample = (
                    f"at {where} (exactly), lhs - rhs is in {ball} (complex ball "
                    "arithmetic, 256 bits), which excludes 0"
                )
                return Verdict.fails(
                    f"{verdict.detail}; certified: {counterexample}",
                    Basis.CERTIFIED,
                    counterexample,
                )
    finally:
        ctx.prec = previous
    return verdict
