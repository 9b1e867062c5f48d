"""Reusable checks: exact proof first, high-precision numerics as the fallback.

Symbolic checks try to decide a statement exactly (simplify a difference to
zero, compute a limit or a series). When SymPy cannot decide within its time
budget, :func:`check_identity` falls back to evaluating the residual with
mpmath at 50 digits at random points of the stated domain and says so in the
verdict: ``holds (numerically, 200 points, max residual ...)``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import mpmath
import numpy as np
import sympy as sp

from implicit_bias.claims.certify import certified_nonzero
from implicit_bias.claims.engine import CheckTimeout, Reason, Verdict, time_limit

__all__ = [
    "DEFAULT_DPS",
    "Sampler",
    "check_equal",
    "check_identity",
    "check_limit",
    "check_series",
    "default_sampler",
    "interval",
    "log_uniform",
]

#: Digits of the numeric fallback.
DEFAULT_DPS = 50
#: A residual is "zero" at DEFAULT_DPS digits when below this, relative to the
#: size of the terms: 10 digits of headroom for cancellation in the residual.
_RELATIVE_ZERO = mpmath.mpf(10) ** (-(DEFAULT_DPS - 10))

Sampler = Callable[[np.random.Generator], mpmath.mpf]


def log_uniform(min_value: float, max_value: float, *, signed: bool = False) -> Sampler:
    """Sample ``10**U(log10 min, log10 max)``, with a random sign if ``signed``."""

    def sample(rng: np.random.Generator) -> mpmath.mpf:
        value = mpmath.mpf(10) ** mpmath.mpf(
            rng.uniform(np.log10(min_value), np.log10(max_value))
        )
        return -value if signed and rng.random() < 0.5 else value

    return sample


def interval(min_value: float, max_value: float) -> Sampler:
    """Sample uniformly from ``[min_value, max_value]``."""

    def sample(rng: np.random.Generator) -> mpmath.mpf:
        return mpmath.mpf(rng.uniform(min_value, max_value))

    return sample


def default_sampler(symbol: sp.Symbol) -> Sampler:
    """A sampler honouring the symbol's SymPy assumptions (positive, real...)."""
    if symbol.is_positive:
        return log_uniform(1e-3, 1e3)
    if symbol.is_nonnegative:
        return log_uniform(1e-3, 1e3)
    return log_uniform(1e-3, 1e3, signed=True)


@dataclass(frozen=True)
class _Residuals:
    """The numeric fallback's sample: the worst finite relative residual, where
    it is, and the points where the residual or the scale is not a finite real."""

    worst: mpmath.mpf
    worst_point: dict[sp.Symbol, mpmath.mpf]
    non_finite: int
    non_finite_point: dict[sp.Symbol, mpmath.mpf]


def _finite_real(value: object) -> bool:
    return isinstance(value, mpmath.mpf) and bool(mpmath.isfinite(value))


def _numeric_residual(
    residual: sp.Expr,
    scale: sp.Expr,
    samplers: Mapping[sp.Symbol, Sampler],
    points: int,
    seed: int,
) -> _Residuals:
    """|residual| / (|scale| + 1e-300) at random points, split into finite and not."""
    rng = np.random.default_rng(seed)
    symbols = sorted(residual.free_symbols | scale.free_symbols, key=str)
    with mpmath.workdps(DEFAULT_DPS):
        f_residual = sp.lambdify(symbols, residual, modules="mpmath")
        f_scale = sp.lambdify(symbols, scale, modules="mpmath")
        worst = mpmath.mpf(0)
        worst_point: dict[sp.Symbol, mpmath.mpf] = {}
        non_finite = 0
        non_finite_point: dict[sp.Symbol, mpmath.mpf] = {}
        for _ in range(points):
            point = {s: samplers.get(s, default_sampler(s))(rng) for s in symbols}
            values = [point[s] for s in symbols]
            try:
                difference, size = f_residual(*values), f_scale(*values)
            except (ZeroDivisionError, OverflowError):
                difference = size = mpmath.nan
            if not (_finite_real(difference) and _finite_real(size)):
                non_finite += 1
                non_finite_point = non_finite_point or point
                continue
            ratio = abs(difference) / (abs(size) + mpmath.mpf(10) ** -300)
            if not worst_point or ratio > worst:
                worst, worst_point = ratio, point
    return _Residuals(worst, worst_point, non_finite, non_finite_point)


def _format_point(point: Mapping[sp.Symbol, mpmath.mpf]) -> str:
    return ", ".join(f"{s}={mpmath.nstr(v, 8)}" for s, v in point.items())


def check_identity(
    lhs: sp.Expr,
    rhs: sp.Expr,
    *,
    samplers: Mapping[sp.Symbol, Sampler] | None = None,
    substitutions: Mapping[sp.Expr, sp.Expr] | None = None,
    budget_seconds: float = 20.0,
    points: int = 200,
    seed: int = 0,
) -> Verdict:
    """Decide ``lhs == rhs``: exactly if SymPy can, else at 50 digits numerically.

    Args:
      lhs, rhs: the two sides.
      samplers: how to draw each free symbol for the numeric fallback (default
        from its assumptions, see :func:`default_sampler`).
      substitutions: applied to the difference before anything else (e.g. a
        constraint such as a unit-norm condition solved for one coordinate).
      budget_seconds: time for the exact attempt before falling back.
      points: random points of the numeric fallback.
      seed: seed of the numeric fallback's generator.

    Returns:
      ``holds`` with "exact" or "numerically, N points, max residual r" (only
      when the residual is a finite real at every point); ``fails`` with the
      worst finite point, its residual and the ball enclosing lhs - rhs there
      that excludes 0 (a certified counterexample, see
      :mod:`implicit_bias.claims.certify`); ``inconclusive`` when that point
      cannot be certified (``Reason.UNDECIDED``), or when no point
      refutes it but some are not finite reals (``Reason.NON_FINITE``) or the
      residual cannot be evaluated (``Reason.UNEVALUATED``).
    """
    difference = sp.sympify(lhs - rhs)
    if substitutions:
        difference = sp.expand(difference).subs(substitutions)
    # Past the budget, fall through to the numeric check.
    with contextlib.suppress(CheckTimeout), time_limit(budget_seconds):
        for method in (sp.expand, sp.cancel, sp.simplify):
            if method(difference) == 0:
                return Verdict.holds(f"exact: {method.__name__}(lhs - rhs) = 0")
    scale = sp.Abs(sp.sympify(lhs)) + sp.Abs(sp.sympify(rhs))
    if substitutions:
        scale = scale.subs(substitutions)
    try:
        sample = _numeric_residual(difference, scale, samplers or {}, points, seed)
    except (TypeError, NameError) as error:
        # lambdify leaves what it cannot translate (an unevaluated Integral,
        # an undefined function) as a name or object mpmath cannot evaluate.
        return Verdict.inconclusive(
            f"the residual cannot be evaluated numerically ({error})",
            Reason.UNEVALUATED,
        )
    if sample.worst_point and sample.worst > _RELATIVE_ZERO:
        where = _format_point(sample.worst_point)
        certificate = certified_nonzero(difference, sample.worst_point)
        if certificate.certified:
            return Verdict.fails(
                f"relative residual {mpmath.nstr(sample.worst, 6)} at {where}; "
                f"certified: lhs - rhs there is in {certificate.enclosure} (ball "
                f"arithmetic, {certificate.bits} bits), which excludes 0"
            )
        return Verdict.inconclusive(
            f"relative residual {mpmath.nstr(sample.worst, 6)} at {where} in "
            f"{DEFAULT_DPS}-digit arithmetic, but not certified: "
            f"{certificate.enclosure or 'no enclosure'}",
            Reason.UNDECIDED,
        )
    if sample.non_finite:
        others = (
            f"; at the other points the max relative residual is "
            f"{mpmath.nstr(sample.worst, 3)}"
            if sample.worst_point
            else ""
        )
        return Verdict.inconclusive(
            f"the residual or the size of the sides is not a finite real at "
            f"{sample.non_finite} of {points} points (e.g. "
            f"{_format_point(sample.non_finite_point)}){others}",
            Reason.NON_FINITE,
        )
    return Verdict.holds(
        f"numerically, {points} points at {DEFAULT_DPS} digits, "
        f"max relative residual {mpmath.nstr(sample.worst, 3)}"
    )


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
    undecided numeric sample.

    Args:
      value: the computed result; ``what`` names it in the evidence.
      expected: what the claim says it is.
      budget_seconds: CPU time for each symbolic step.
    """
    value, expected = sp.sympify(value), sp.sympify(expected)
    if _unevaluated(value):
        return Verdict.inconclusive(
            f"{what} is the unevaluated {sp.sstr(value)}", Reason.UNEVALUATED
        )
    if value == expected:
        return Verdict.holds(f"exact: {what} = {sp.sstr(value)}")
    if value is sp.nan or expected is sp.nan:
        return Verdict.inconclusive(f"{what} is {sp.sstr(value)}", Reason.UNDECIDED)
    if value.is_infinite or expected.is_infinite:
        # Two different infinities, or an infinity and a finite value.
        return Verdict.fails(f"{what} is {sp.sstr(value)}, not {sp.sstr(expected)}")
    with contextlib.suppress(CheckTimeout), time_limit(budget_seconds):
        difference = sp.simplify(value - expected)
        if difference == 0:
            return Verdict.holds(f"exact: {what} = {sp.sstr(value)}")
        if difference.is_zero is False:
            return Verdict.fails(
                f"{what} is {sp.sstr(value)}, not {sp.sstr(expected)} (they differ "
                f"by {sp.sstr(difference)}, which SymPy shows nonzero)"
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
    try:
        with time_limit(budget_seconds):
            value = sp.limit(expression, variable, point, dir=direction)
    except CheckTimeout:
        return Verdict.inconclusive(
            f"sympy.limit did not finish within {budget_seconds:g} s", Reason.BUDGET
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
    try:
        with time_limit(budget_seconds):
            series = sp.expand(sp.series(expression, variable, 0, order).removeO())
    except CheckTimeout:
        return Verdict.inconclusive(
            f"sympy.series did not finish within {budget_seconds:g} s", Reason.BUDGET
        )
    return check_equal(
        series,
        sp.expand(sp.sympify(expected)),
        what=f"series to O({variable}**{order})",
        budget_seconds=budget_seconds,
    )
