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

import mpmath
import numpy as np
import sympy as sp

from implicit_bias.claims.engine import CheckTimeout, Verdict, time_limit

__all__ = [
    "DEFAULT_DPS",
    "Sampler",
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


def _numeric_residual(
    residual: sp.Expr,
    scale: sp.Expr,
    samplers: Mapping[sp.Symbol, Sampler],
    points: int,
    seed: int,
) -> tuple[mpmath.mpf, dict[sp.Symbol, mpmath.mpf]]:
    """Max of |residual| / (|scale| + 1e-300) over random points, and its argmax."""
    rng = np.random.default_rng(seed)
    symbols = sorted(residual.free_symbols | scale.free_symbols, key=str)
    with mpmath.workdps(DEFAULT_DPS):
        f_residual = sp.lambdify(symbols, residual, modules="mpmath")
        f_scale = sp.lambdify(symbols, scale, modules="mpmath")
        worst = mpmath.mpf(-1)
        worst_point: dict[sp.Symbol, mpmath.mpf] = {}
        for _ in range(points):
            point = {s: samplers.get(s, default_sampler(s))(rng) for s in symbols}
            values = [point[s] for s in symbols]
            size = abs(f_scale(*values)) + mpmath.mpf(10) ** -300
            ratio = abs(f_residual(*values)) / size
            if ratio > worst:
                worst, worst_point = ratio, point
    return worst, worst_point


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
      ``holds`` with "exact" or "numerically, N points, max residual r";
      ``fails`` with the worst point and its residual.
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
    worst, point = _numeric_residual(difference, scale, samplers or {}, points, seed)
    if worst <= _RELATIVE_ZERO:
        return Verdict.holds(
            f"numerically, {points} points at {DEFAULT_DPS} digits, "
            f"max relative residual {mpmath.nstr(worst, 3)}"
        )
    return Verdict.fails(
        f"relative residual {mpmath.nstr(worst, 6)} at {_format_point(point)}"
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
    """Decide ``lim_{variable -> point} expression == expected`` with SymPy."""
    try:
        with time_limit(budget_seconds):
            value = sp.limit(expression, variable, point, dir=direction)
            same = value == expected or (
                value.is_finite
                and expected.is_finite
                and sp.simplify(value - expected) == 0
            )
    except CheckTimeout:
        return Verdict.inconclusive(
            f"sympy.limit did not finish within {budget_seconds:g} s"
        )
    if same:
        return Verdict.holds(f"exact: limit = {sp.sstr(value)}")
    return Verdict.fails(f"limit is {sp.sstr(value)}, not {sp.sstr(expected)}")


def check_series(
    expression: sp.Expr,
    variable: sp.Symbol,
    expected: sp.Expr,
    order: int,
    *,
    budget_seconds: float = 30.0,
) -> Verdict:
    """Decide that ``expression = expected + O(variable**order)`` at 0 with SymPy."""
    try:
        with time_limit(budget_seconds):
            series = sp.series(expression, variable, 0, order).removeO()
            difference = sp.simplify(sp.expand(series - expected))
    except CheckTimeout:
        return Verdict.inconclusive(
            f"sympy.series did not finish within {budget_seconds:g} s"
        )
    if difference == 0:
        return Verdict.holds(
            f"exact: series to O({variable}**{order}) = {sp.sstr(sp.expand(series))}"
        )
    return Verdict.fails(
        f"series to O({variable}**{order}) is {sp.sstr(series)}; differs by "
        f"{sp.sstr(difference)}"
    )
