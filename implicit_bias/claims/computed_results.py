"""Checks of a computed result against a stated one: a value, a limit, a
series, an integral.

SymPy computes the result within a CPU budget (past it: ``inconclusive``);
:func:`check_equal` then compares it with what the claim says, exactly where
SymPy can, at exact parameter values where the result depends on them
through a sign or a case split, and else through
:func:`~implicit_bias.claims.identities.check_identity`.
"""

from __future__ import annotations

import contextlib
import functools

import sympy as sp

from implicit_bias.claims.engine import (
    Basis,
    CheckTimeout,
    Reason,
    Verdict,
    time_limit,
)
from implicit_bias.claims.identities import _two_sided, check_identity
from implicit_bias.claims.mutation_hooks import _budget
from implicit_bias.claims.parametric import decide_parametric, depends_on_parameters
from implicit_bias.claims.recording import helper_call, recording_or_replaying
from implicit_bias.errors import InvalidArgumentError

__all__ = ["check_equal", "check_integral", "check_limit", "check_series"]


def _unevaluated(expression: sp.Basic) -> bool:
    return bool(expression.has(sp.Limit, sp.Integral, sp.Subs, sp.Derivative, sp.Order))


def check_equal(
    value: sp.Expr,
    expected: sp.Expr,
    *,
    what: str = "value",
    budget_seconds: float = 30.0,
) -> Verdict:
    """Decide ``value == expected`` for a computed result (a limit, a series...).

    ``holds`` when they are identical or their difference simplifies to 0;
    ``fails`` when one is infinite and the other not (or a different infinity),
    when SymPy shows the difference nonzero, or when :func:`check_identity`
    finds a point where it is; ``inconclusive`` on NaN, a timeout or an
    undecided numeric sample. A result that depends on its parameters through
    an infinity, a ``sign``, a ``Piecewise``, an ``Abs``...
    (:func:`~implicit_bias.claims.parametric.depends_on_parameters`) is never
    decided by SymPy's ``is_zero`` / ``is_infinite``, which may hold for some
    parameter values only, but at exact parameter values drawn from the
    symbols' domains and intervals
    (:func:`~implicit_bias.claims.parametric.decide_at_points`).

    Args:
      value: the computed result; ``what`` names it in the evidence.
      expected: what the claim says it is.
      budget_seconds: CPU time for each symbolic step.
    """
    if recording_or_replaying():
        again = functools.partial(check_equal, what=what, budget_seconds=budget_seconds)
        return _two_sided("check_equal", sp.Eq, again, value, expected)
    value, expected = sp.sympify(value), sp.sympify(expected)
    if _unevaluated(value):
        return Verdict.inconclusive(
            f"{what} is the unevaluated {sp.sstr(value)}", Reason.UNEVALUATED
        )
    if value == expected:
        return Verdict.holds(f"exact: {what} = {sp.sstr(value)}", Basis.PROOF)
    if value is sp.nan or expected is sp.nan:
        return Verdict.inconclusive(f"{what} is {sp.sstr(value)}", Reason.UNDECIDED)
    if depends_on_parameters(value) or depends_on_parameters(expected):
        return decide_parametric(
            value, expected, what=what, budget_seconds=_budget(budget_seconds)
        )
    if value.is_infinite or expected.is_infinite:
        # Two different infinities, or an infinity and a finite value.
        return Verdict.fails(
            f"{what} is {sp.sstr(value)}, not {sp.sstr(expected)}",
            Basis.PROOF,
            f"{what} = {sp.sstr(value)}",
        )
    with contextlib.suppress(CheckTimeout), time_limit(_budget(budget_seconds)):
        difference = sp.simplify(value - expected)
        if difference == 0:
            return Verdict.holds(f"exact: {what} = {sp.sstr(value)}", Basis.PROOF)
        if difference.is_zero is False:
            return Verdict.fails(
                f"{what} is {sp.sstr(value)}, not {sp.sstr(expected)} (they differ "
                f"by {sp.sstr(difference)}, which SymPy shows nonzero)",
                Basis.PROOF,
                f"{what} - expected = {sp.sstr(difference)} != 0",
            )
    numeric = check_identity(value, expected, budget_seconds=budget_seconds)
    return numeric.with_detail(
        f"{what} is {sp.sstr(value)}; against {sp.sstr(expected)}: {numeric.detail}"
    )


def check_limit(
    expression: sp.Expr,
    variable: sp.Symbol,
    point: sp.Expr,
    expected: sp.Expr,
    *,
    direction: str = "+",
    budget_seconds: float = 30.0,
) -> Verdict:
    """Decide ``lim_{variable -> point} expression == expected`` with SymPy.

    ``fails`` only when the limit is evaluated and SymPy shows it differs from
    ``expected`` (or a numeric sample of the difference does); an unevaluated
    ``Limit`` or a timeout is ``inconclusive``.
    """
    if recording_or_replaying():
        return helper_call(
            "check_limit",
            lambda: sp.Eq(
                sp.Limit(expression, variable, point, dir=direction),
                expected,
                evaluate=False,
            ),
            functools.partial(_limit_of, budget_seconds=budget_seconds),
            lambda: check_limit(
                expression,
                variable,
                point,
                expected,
                direction=direction,
                budget_seconds=budget_seconds,
            ),
        )
    try:
        with time_limit(_budget(budget_seconds)):
            value = sp.limit(expression, variable, point, dir=direction)
    except CheckTimeout:
        return Verdict.inconclusive(
            f"sympy.limit did not finish within {_budget(budget_seconds):g} s",
            Reason.BUDGET,
        )
    except NotImplementedError as error:
        # SymPy gives up on limits it cannot decide (e.g. "Not sure of sign of
        # p/2 - 1/2" for a symbolic exponent): no limit, no verdict.
        return Verdict.inconclusive(
            f"sympy.limit cannot take it: {error}", Reason.UNEVALUATED
        )
    return check_equal(value, expected, what="limit", budget_seconds=budget_seconds)


def check_series(
    expression: sp.Expr,
    variable: sp.Symbol,
    expected: sp.Expr,
    order: int,
    *,
    budget_seconds: float = 30.0,
) -> Verdict:
    """Decide that ``expression = expected + O(variable**order)`` at 0 with SymPy.

    ``fails`` only when the truncated series is evaluated and differs from
    ``expected`` (shown by SymPy or a numeric sample); an unevaluated result or
    a timeout is ``inconclusive``.
    """
    if recording_or_replaying():
        again = functools.partial(check_series, budget_seconds=budget_seconds)
        return helper_call(
            "check_series",
            lambda: sp.Eq(
                expression,
                # Unevaluated: O(x**n) would absorb the terms of order n and
                # beyond that the claim states, and the relation would not
                # be the call's.
                sp.Add(
                    *sp.Add.make_args(sp.sympify(expected)),
                    sp.O(variable**order),
                    evaluate=False,
                ),
                evaluate=False,
            ),
            lambda relation: again(
                relation.lhs, variable, relation.rhs.removeO(), order
            ),
            lambda: again(expression, variable, expected, order),
        )
    try:
        with time_limit(_budget(budget_seconds)):
            series = sp.expand(sp.series(expression, variable, 0, order).removeO())
    except CheckTimeout:
        return Verdict.inconclusive(
            f"sympy.series did not finish within {_budget(budget_seconds):g} s",
            Reason.BUDGET,
        )
    return check_equal(
        series,
        sp.expand(sp.sympify(expected)),
        what=f"series to O({variable}**{order})",
        budget_seconds=budget_seconds,
    )


def check_integral(
    integrand: sp.Expr,
    limits: tuple[sp.Symbol, sp.Expr, sp.Expr],
    expected: sp.Expr,
    *,
    budget_seconds: float = 30.0,
) -> Verdict:
    r"""Decide :math:`\int_a^b f(x)\,dx = I` with SymPy.

    ``limits`` is ``(x, a, b)``. ``sympy.integrate`` runs under
    ``budget_seconds`` of CPU time (past it: ``inconclusive``,
    ``Reason.BUDGET``); an integral SymPy leaves unevaluated is
    ``inconclusive`` (``Reason.UNEVALUATED``); otherwise the value is
    compared with ``expected`` by :func:`check_equal`.

    Examples:
      >>> x = sp.Symbol("x", positive=True)
      >>> check_integral(sp.exp(-x), (x, 0, sp.oo), 1).status
      <Status.HOLDS: 'holds'>
      >>> check_integral(x**2, (x, 0, 1), sp.Rational(1, 2)).status
      <Status.FAILS: 'fails'>
    """
    if not (
        isinstance(limits, tuple)
        and len(limits) == 3
        and isinstance(limits[0], sp.Symbol)
    ):
        raise InvalidArgumentError(
            f"limits: a tuple (x, a, b) with x a SymPy Symbol, got {limits!r}"
        )
    variable, lower, upper = limits
    if recording_or_replaying():
        again = functools.partial(check_integral, budget_seconds=budget_seconds)
        return helper_call(
            "check_integral",
            lambda: sp.Eq(sp.Integral(integrand, limits), expected, evaluate=False),
            lambda relation: again(
                relation.lhs.function, tuple(relation.lhs.limits[0]), relation.rhs
            ),
            lambda: again(integrand, limits, expected),
        )
    try:
        with time_limit(_budget(budget_seconds)):
            value = sp.integrate(integrand, (variable, lower, upper))
    except CheckTimeout:
        return Verdict.inconclusive(
            f"sympy.integrate did not finish within {_budget(budget_seconds):g} s",
            Reason.BUDGET,
        )
    return check_equal(
        value,
        expected,
        what=f"integral over {variable} from {sp.sstr(lower)} to {sp.sstr(upper)}",
        budget_seconds=budget_seconds,
    )


def _limit_of(relation: sp.Basic, *, budget_seconds: float) -> Verdict:
    """:func:`check_limit` of ``Eq(Limit(f, x, a, dir), L)``."""
    limit, expected = relation.args
    expression, variable, point, direction = limit.args
    return check_limit(
        expression,
        variable,
        point,
        expected,
        direction=str(direction),
        budget_seconds=budget_seconds,
    )
