r"""Parametric results: decided at exact parameter values, not by SymPy's assumptions.

A limit, series or integral SymPy computes may still depend on a parameter in
a way its assumption system cannot reason about: :math:`\lim_{t\to\infty} q^t`
for :math:`q > 0` is ``exp(oo*sign(log(q)))``, which is :math:`0` for
:math:`q < 1`, :math:`1` at :math:`q = 1` and :math:`\infty` for :math:`q > 1`,
yet SymPy calls it nonzero and infinite. Results with an infinity, a ``sign``,
a ``Piecewise``, a ``Heaviside`` or an ``Abs`` (and their kin) of the
parameters are therefore not decided by ``is_zero`` / ``is_infinite``
(:func:`depends_on_parameters`); :func:`decide_at_points` decides them
instead:

1. draw the parameters from their domains -- each symbol's assumptions, or
   its interval (:func:`~implicit_bias.claims.intervals.bounded`), through
   :func:`~implicit_bias.claims.samplers.from_assumptions` -- and round each
   real draw to a short exact decimal;
2. substitute those exact rationals and let SymPy evaluate the now
   parameter-free result exactly, to ``oo``, ``-oo``, ``zoo`` or a number;
3. compare with the expected value at the same point, exactly: two
   infinities are equal when they are the same infinity, an infinity never
   equals a number, and two numbers are equal when their difference is
   exactly 0 (or below :math:`10^{-40}` relative at 50 digits) and differ
   when ball arithmetic (:mod:`implicit_bias.claims.certify`) encloses their
   difference away from 0.

A point where they differ is a certified counterexample (``fails``, with
the point); all points agreeing is ``holds`` on a numerical basis (the
number of points is in the evidence: sampling is not a proof); a point
SymPy cannot evaluate (``nan``, an unevaluated ``sign``) or compare is
``inconclusive`` with the reason.

Examples:
  >>> import sympy as sp
  >>> from implicit_bias.claims.intervals import bounded
  >>> q, t = sp.Symbol("q", positive=True), sp.Symbol("t")
  >>> limit = sp.limit(q**t, t, sp.oo)
  >>> depends_on_parameters(limit)
  True
  >>> refuted = decide_at_points(limit, sp.Integer(0), what="limit")
  >>> refuted.status.value, refuted.basis.value, float(refuted.point["q"]) > 1
  ('fails', 'certified', True)
  >>> share = bounded(q, 0, 1)
  >>> decide_at_points(limit.xreplace({q: share}), sp.Integer(0)).status.value
  'holds'
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from implicit_bias.claims.certify import certified_nonzero, exact_point
from implicit_bias.claims.engine import (
    Basis,
    CheckTimeout,
    Reason,
    Verdict,
    time_limit,
)
from implicit_bias.claims.intervals import interval_of, within_interval
from implicit_bias.claims.samplers import from_assumptions
from implicit_bias.errors import InvalidArgumentError

__all__ = [
    "PARAMETRIC_POINTS",
    "decide_at_points",
    "decide_parametric",
    "depends_on_parameters",
]

#: Points :func:`decide_at_points` evaluates by default: the chance that none
#: falls in a region of a tenth of the domain is 0.9**40, about 1.5%; a half,
#: about 1e-12.
PARAMETRIC_POINTS = 40
#: Digits of the numeric comparison of two finite values at a point.
_DIGITS = 50
#: Two finite values are equal at a point when they differ by less than this,
#: relative to their size: 10 digits of headroom at 50 (as check_identity).
_RELATIVE_ZERO = mpmath.mpf(10) ** (-(_DIGITS - 10))
#: Significant digits a real draw is rounded to: a short exact decimal to
#: evaluate at and to report.
_REPORTED_DIGITS = 15

#: Nodes whose value SymPy's assumptions decide only piecewise in their
#: argument: a result holding one of a parameter is decided at points.
_PIECEWISE_NODES: tuple[type[sp.Basic], ...] = (
    sp.sign,
    sp.Piecewise,
    sp.Heaviside,
    sp.Abs,
    sp.Max,
    sp.Min,
    sp.floor,
    sp.ceiling,
    sp.frac,
    sp.re,
    sp.im,
    sp.arg,
    sp.DiracDelta,
)
_INFINITIES = (sp.oo, -sp.oo, sp.zoo)
#: What an evaluated value at a point may not contain: it is no number then.
_UNSETTLED: tuple[type[sp.Basic], ...] = (
    sp.Piecewise,
    sp.AccumBounds,
    sp.Limit,
    sp.Integral,
    sp.Sum,
    sp.Order,
)


def depends_on_parameters(expression: sp.Basic) -> bool:
    r"""Whether ``expression`` has free symbols and an infinity, or a ``sign``,
    ``Piecewise``, ``Heaviside``, ``Abs``, ``Max``, ``Min``, ``floor``,
    ``ceiling``, ``frac``, ``re``, ``im``, ``arg`` or ``DiracDelta`` of an
    expression in them: SymPy's ``is_zero`` and ``is_infinite`` on it may
    hold for some parameter values only (``exp(oo*sign(log(q)))`` is
    :math:`0` for :math:`q < 1`), so :func:`decide_at_points` decides it.

    Examples:
      >>> q = sp.Symbol("q", positive=True)
      >>> depends_on_parameters(sp.exp(sp.oo * sp.sign(sp.log(q))))
      True
      >>> depends_on_parameters(sp.oo), depends_on_parameters(q**2 + 1)
      (False, False)
    """
    expression = sp.sympify(expression)
    # A matrix (or a relation) is no value to evaluate at a point.
    if (
        not isinstance(expression, sp.Expr)
        or expression.is_Matrix
        or not expression.free_symbols
    ):
        return False
    if expression.has(*_INFINITIES):
        return True
    return any(
        isinstance(node, _PIECEWISE_NODES) and node.free_symbols
        for node in sp.preorder_traversal(expression)
    )


@dataclass(frozen=True)
class _Comparison:
    """The two sides at one point and what their comparison showed."""

    #: "equal", "close" (within _RELATIVE_ZERO at 50 digits), "differ" or
    #: "undecided".
    outcome: str
    #: Why they differ (the enclosure), or why it is undecided.
    words: str = ""
    reason: Reason | None = None


def _exact_coordinate(symbol: sp.Symbol, value: int | mpmath.mpf) -> sp.Rational:
    """A drawn coordinate as an exact rational: an int as it is, a real
    rounded to 15 significant digits if that stays in the symbol's domain
    (its interval; the sign a decimal rounding keeps), else its exact value."""
    if isinstance(value, int):
        return sp.Integer(value)
    text = mpmath.nstr(
        value, _REPORTED_DIGITS, min_fixed=-mpmath.inf, max_fixed=mpmath.inf
    )
    short = sp.Rational(Fraction(text).numerator, Fraction(text).denominator)
    if within_interval(symbol, short):
        return short
    sign, mantissa, exponent, _ = value._mpf_
    return (-1) ** sign * sp.Integer(int(mantissa)) * sp.Integer(2) ** int(exponent)


def _settled(expression: sp.Expr) -> sp.Expr | None:
    """``expression`` (free of symbols) as SymPy evaluates it: an infinity,
    ``nan`` or a number; None when it stays unevaluated."""
    candidate = expression
    for evaluate in (sp.sympify, lambda e: e.doit(), sp.simplify):
        candidate = evaluate(candidate)
        if candidate in _INFINITIES or candidate is sp.nan:
            return candidate
        if (
            candidate.is_number
            and not candidate.has(*_INFINITIES, sp.nan)
            and not candidate.has(*_UNSETTLED)
        ):
            return candidate
    return None


def _compare(value: sp.Expr, expected: sp.Expr) -> _Comparison:
    """Compare two evaluated parameter-free values exactly."""
    if value is sp.nan or expected is sp.nan:
        return _Comparison("undecided", "SymPy evaluates it to nan", Reason.NON_FINITE)
    if value in _INFINITIES or expected in _INFINITIES:
        # An infinity from exact evaluation: equal only to the same infinity.
        if value == expected:
            return _Comparison("equal")
        return _Comparison(
            "differ",
            "different infinities"
            if value in _INFINITIES and expected in _INFINITIES
            else "an infinity against a number",
        )
    difference = value - expected
    if difference == 0 or difference.is_zero is True:
        return _Comparison("equal")
    certificate = certified_nonzero(difference, {})
    if certificate.certified:
        return _Comparison(
            "differ",
            f"their difference is in {certificate.enclosure} (ball arithmetic, "
            f"{certificate.bits} bits), which excludes 0",
        )
    try:
        with mpmath.workdps(_DIGITS):
            gap = abs(mpmath.mpmathify(sp.N(difference, _DIGITS)))
            size = abs(mpmath.mpmathify(sp.N(value, _DIGITS))) + abs(
                mpmath.mpmathify(sp.N(expected, _DIGITS))
            )
    except (TypeError, ValueError) as error:
        return _Comparison(
            "undecided",
            f"cannot be evaluated numerically ({error})",
            Reason.UNEVALUATED,
        )
    if gap <= _RELATIVE_ZERO * (size + mpmath.mpf(10) ** -300):
        return _Comparison("close")
    return _Comparison(
        "undecided",
        f"they differ by {mpmath.nstr(gap, 6)} at {_DIGITS} digits, but this is "
        f"not certified ({certificate.enclosure or 'no enclosure'})",
        Reason.UNDECIDED,
    )


def _domain(symbol: sp.Symbol) -> str:
    bounds = interval_of(symbol)
    if bounds is not None:
        return f"{symbol} in ({sp.sstr(bounds[0])}, {sp.sstr(bounds[1])})"
    stated = ", ".join(
        key if value else f"not {key}"
        for key, value in symbol._assumptions_orig.items()
        if key != "commutative"
    )
    return f"{symbol} from its assumptions ({stated or 'none: any real'})"


def _written(point: Mapping[str, str]) -> str:
    return ", ".join(f"{name}={value}" for name, value in point.items())


def decide_at_points(
    value: sp.Expr,
    expected: sp.Expr,
    *,
    what: str = "value",
    points: int = PARAMETRIC_POINTS,
    seed: int = 0,
    budget_seconds: float = 30.0,
) -> Verdict:
    r"""Decide ``value == expected`` for results that depend on parameters, at
    exact parameter values drawn from the parameters' domains.

    .. math:: v(p_k) \overset{?}{=} e(p_k),\quad p_k \sim \text{domain},
        \quad k = 1, \dots, N

    Let :math:`v` be ``value``, :math:`e` be ``expected`` and :math:`N` be
    ``points``. Each parameter is drawn by
    :func:`~implicit_bias.claims.samplers.from_assumptions` (its assumptions,
    or its interval) and rounded to a short exact decimal inside its domain;
    SymPy evaluates both sides there exactly, and they are compared as the
    module docstring says.

    Args:
      value: the computed result; ``what`` names it in the evidence.
      expected: what the claim says it is.
      points: how many points :math:`N \ge 1` to evaluate at.
      seed: seed of the generator the points are drawn with.
      budget_seconds: CPU time for all the points.

    Returns:
      ``fails`` (``Basis.CERTIFIED``, with ``point``) at the first point where
      the two differ; ``inconclusive`` when a point cannot be evaluated or
      compared (``Reason.NON_FINITE`` for ``nan``, ``Reason.UNEVALUATED``,
      ``Reason.UNDECIDED``), when a parameter cannot be drawn
      (``Reason.UNDECIDED``) or past the budget (``Reason.BUDGET``); else
      ``holds`` on ``Basis.NUMERICAL``, saying at how many points.

    Raises:
      InvalidArgumentError: ``points < 1``.
    """
    if isinstance(points, bool) or not isinstance(points, int) or points < 1:
        raise InvalidArgumentError(f"points={points!r} is not an integer >= 1")
    value, expected = sp.sympify(value), sp.sympify(expected)
    symbols = sorted(
        value.free_symbols | expected.free_symbols, key=sp.default_sort_key
    )
    shown = f"{what} is {sp.sstr(value)}, expected {sp.sstr(expected)}"
    names = ", ".join(str(s) for s in symbols)
    try:
        drawers = {s: from_assumptions(s) for s in symbols}
    except InvalidArgumentError as error:
        return Verdict.inconclusive(
            f"{shown}; its parameters cannot be drawn: {error}", Reason.UNDECIDED
        )
    domains = "; ".join(_domain(s) for s in symbols)
    rng = np.random.default_rng(seed)
    exact = close = 0
    try:
        with time_limit(budget_seconds):
            for _ in range(points):
                point = {s: _exact_coordinate(s, drawers[s](rng)) for s in symbols}
                reported = exact_point(
                    {s: Fraction(int(v.p), int(v.q)) for s, v in point.items()}
                )
                at_value = _settled(value.xreplace(point))
                at_expected = _settled(expected.xreplace(point))
                if at_value is None or at_expected is None:
                    side = what if at_value is None else "the expected value"
                    return Verdict.inconclusive(
                        f"{shown}: at {_written(reported)} SymPy leaves {side} "
                        "unevaluated, so the parametric result cannot be compared "
                        "there",
                        Reason.UNEVALUATED,
                    )
                comparison = _compare(at_value, at_expected)
                if comparison.outcome == "differ":
                    counterexample = (
                        f"at {_written(reported)} (exactly), {what} = "
                        f"{sp.sstr(at_value)}, not {sp.sstr(at_expected)} "
                        f"({comparison.words})"
                    )
                    return Verdict.fails(
                        f"{shown}; as it depends on {names} through an infinity or "
                        "a piecewise function, it is decided at exact values of "
                        f"them, not by SymPy's is_zero: {counterexample}",
                        Basis.CERTIFIED,
                        counterexample,
                        point=reported,
                    )
                if comparison.outcome == "undecided":
                    if comparison.reason is None:
                        raise AssertionError("comparison.reason is not None")
                    return Verdict.inconclusive(
                        f"{shown}: at {_written(reported)}, {what} = "
                        f"{sp.sstr(at_value)} against {sp.sstr(at_expected)}: "
                        f"{comparison.words}",
                        comparison.reason,
                    )
                exact += comparison.outcome == "equal"
                close += comparison.outcome == "close"
    except CheckTimeout:
        return Verdict.inconclusive(
            f"{shown}: {exact + close} of {points} points agreed before the "
            f"{budget_seconds:g} s budget ran out",
            Reason.BUDGET,
        )
    return Verdict.holds(
        f"{shown}; as it depends on {names} through an infinity or a piecewise "
        f"function, it is decided at exact values of them: at {points} points "
        f"drawn from their domains ({domains}; seed {seed}) SymPy evaluates both "
        f"exactly and they agree ({exact} exactly, {close} within "
        f"{mpmath.nstr(_RELATIVE_ZERO, 1)} relative at {_DIGITS} digits); "
        "sampled, not proved",
        Basis.NUMERICAL,
    )


def decide_parametric(
    value: sp.Expr,
    expected: sp.Expr,
    *,
    what: str = "value",
    budget_seconds: float = 30.0,
) -> Verdict:
    """Decide ``value == expected`` for results :func:`depends_on_parameters`
    holds for, as :func:`~implicit_bias.claims.check_equal` does.

    A proof only when neither side holds an infinity and the difference
    simplifies to 0 (with an infinity, ``oo - oo`` is no 0 and a
    simplification may drop the parameter values where a side is ``nan``);
    otherwise :func:`decide_at_points`, within ``budget_seconds`` of CPU time
    for each of the two steps.

    Examples:
      >>> x = sp.Symbol("x", real=True)
      >>> decide_parametric(sp.Abs(x) * sp.sign(x), x).basis.value
      'proof'
      >>> decide_parametric(sp.sign(x), sp.Integer(1)).status.value
      'fails'
    """
    value, expected = sp.sympify(value), sp.sympify(expected)
    if not (value.has(*_INFINITIES) or expected.has(*_INFINITIES)):
        with contextlib.suppress(CheckTimeout), time_limit(budget_seconds):
            if sp.simplify(value - expected) == 0:
                return Verdict.holds(f"exact: {what} = {sp.sstr(value)}", Basis.PROOF)
    return decide_at_points(value, expected, what=what, budget_seconds=budget_seconds)
