"""The numeric fallback of the two-sided checks: a residual sampled at 50 digits.

When SymPy cannot decide an identity or an inequality, the relative residual
(or gap) is evaluated with mpmath at random points of the stated domain; the
worst point is certified a counterexample by ball arithmetic
(:mod:`implicit_bias.claims.certify`), exactly at an int coordinate and at
the point rounded to the 15 digits it is reported with.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from implicit_bias.claims.certify import (
    Certificate,
    certified_nonzero,
    certified_sign,
    exact_point,
)
from implicit_bias.claims.gap_search import (
    SearchOutcome,
    search_coordinates,
    search_violation,
)
from implicit_bias.claims.samplers import Sampler, from_assumptions
from implicit_bias.errors import InvalidArgumentError

__all__ = ["DEFAULT_DPS", "default_sampler"]

#: Digits of the numeric fallback.
DEFAULT_DPS = 50
#: A residual is "zero" at DEFAULT_DPS digits when below this, relative to the
#: size of the terms: 10 digits of headroom for cancellation in the residual.
_RELATIVE_ZERO = mpmath.mpf(10) ** (-(DEFAULT_DPS - 10))


def default_sampler(symbol: sp.Symbol) -> Sampler:
    """The sampler of a symbol given none: :func:`from_assumptions` (integers for
    ``integer=True``, signs from the assumptions); the name existing code uses."""
    return from_assumptions(symbol)


@dataclass(frozen=True)
class _Residuals:
    """The numeric fallback's sample: the worst finite relative residual, where
    it is, and the points where the residual or the scale is not a finite real."""

    worst: mpmath.mpf
    #: None when no point gave a finite residual.
    worst_point: dict[sp.Symbol, int | mpmath.mpf] | None
    non_finite: int
    non_finite_point: dict[sp.Symbol, int | mpmath.mpf]
    #: What the local search after the sample searched ("" if none ran).
    searched: str = ""


def _finite_real(value: object) -> bool:
    return isinstance(value, mpmath.mpf) and bool(mpmath.isfinite(value))


def _numeric_residual(
    residual: sp.Expr,
    scale: sp.Expr,
    samplers: Mapping[sp.Symbol, Sampler],
    points: int,
    seed: int,
    *,
    signed: bool = False,
    sides: tuple[Sequence[sp.Expr], Sequence[sp.Expr]] | None = None,
) -> _Residuals:
    """|residual| / (|scale| + 1e-300) at random points, split into finite and not.

    With ``signed``, the largest residual / (|scale| + 1e-300) instead (the
    most positive, not the largest in size), and, when no sampled point has
    a positive one and ``sides`` gives the terms of two sides whose
    difference is ``residual``, the end points of
    :func:`~.gap_search.search_violation` from the sampled points, each
    evaluated here at DEFAULT_DPS digits, the worst kept if larger.
    """
    if points < 1:
        raise InvalidArgumentError(f"points: must be >= 1, got {points!r}")
    rng = np.random.default_rng(seed)
    symbols = sorted(residual.free_symbols | scale.free_symbols, key=str)
    with mpmath.workdps(DEFAULT_DPS):
        f_residual = sp.lambdify(symbols, residual, modules="mpmath")
        f_scale = sp.lambdify(symbols, scale, modules="mpmath")
        worst = mpmath.mpf(0)
        worst_point: dict[sp.Symbol, int | mpmath.mpf] | None = None
        non_finite = 0
        non_finite_point: dict[sp.Symbol, int | mpmath.mpf] = {}
        drawers = {
            s: samplers[s] if s in samplers else default_sampler(s) for s in symbols
        }
        finite_points: list[dict[sp.Symbol, int | mpmath.mpf]] = []
        for _ in range(points):
            point = {s: drawers[s](rng) for s in symbols}
            # An int point stays exact for the certificate; evaluated as a
            # Python int, 1/n would be a 16-digit float.
            values = [mpmath.mpmathify(point[s]) for s in symbols]
            try:
                # A constant side lambdifies to a Python number: make it mpmath's.
                difference = mpmath.mpmathify(f_residual(*values))
                size = mpmath.mpmathify(f_scale(*values))
            except (ZeroDivisionError, OverflowError, ValueError):
                # A pole (mpmath raises ValueError there) is a non-finite point.
                difference = size = mpmath.nan
            if not (_finite_real(difference) and _finite_real(size)):
                non_finite += 1
                non_finite_point = non_finite_point or point
                continue
            finite_points.append(point)
            magnitude = difference if signed else abs(difference)
            ratio = magnitude / (abs(size) + mpmath.mpf(10) ** -300)
            if worst_point is None or ratio > worst:
                worst, worst_point = ratio, point
        searched = ""
        if (
            signed
            and sides is not None
            and worst_point is not None
            and worst <= _RELATIVE_ZERO
        ):
            # No violation sampled: search near the closest points for one
            # (gap_search), each end point kept only if worse at DEFAULT_DPS
            # digits too.
            search = _searched(sides, symbols, samplers, finite_points, rng)
            searched = search.described()
            for end in search.points:
                # A float coordinate as the exact binary number it is.
                found = {
                    s: mpmath.mpf(v) if isinstance(v, float) else v
                    for s, v in end.items()
                }
                values = [mpmath.mpmathify(found[s]) for s in symbols]
                try:
                    difference = mpmath.mpmathify(f_residual(*values))
                    size = mpmath.mpmathify(f_scale(*values))
                except (ZeroDivisionError, OverflowError, ValueError):
                    continue
                if _finite_real(difference) and _finite_real(size):
                    ratio = difference / (abs(size) + mpmath.mpf(10) ** -300)
                    if ratio > worst:
                        worst, worst_point = ratio, found
    return _Residuals(worst, worst_point, non_finite, non_finite_point, searched)


def _searched(
    sides: tuple[Sequence[sp.Expr], Sequence[sp.Expr]],
    symbols: Sequence[sp.Symbol],
    samplers: Mapping[sp.Symbol, Sampler],
    sampled: Sequence[Mapping[sp.Symbol, int | mpmath.mpf]],
    rng: np.random.Generator,
) -> SearchOutcome:
    """:func:`~.gap_search.search_violation` over ``symbols``; a symbol of a
    term that cancels from the residual (not in ``symbols``) is held at one
    value drawn by its sampler."""
    lhs_terms, rhs_terms = sides
    extra = sorted(
        set().union(*(t.free_symbols for t in (*lhs_terms, *rhs_terms))) - set(symbols),
        key=str,
    )
    if extra:
        held_rng = np.random.default_rng(0)
        held = {
            s: sp.sympify(
                (samplers[s] if s in samplers else default_sampler(s))(held_rng)
            )
            for s in extra
        }
        lhs_terms = [t.xreplace(held) for t in lhs_terms]
        rhs_terms = [t.xreplace(held) for t in rhs_terms]
    return search_violation(
        lhs_terms,
        rhs_terms,
        symbols,
        search_coordinates(symbols, samplers),
        sampled,
        rng,
    )


def _format_point(point: Mapping[sp.Symbol, int | mpmath.mpf]) -> str:
    return _joined(
        f"{s}={v if isinstance(v, int) else mpmath.nstr(v, 8)}"
        for s, v in point.items()
    )


def _joined(coordinates: Iterable[str]) -> str:
    return ", ".join(coordinates) or "(no free symbols: the sides are constants)"


def _decimal_point(point: Mapping[sp.Symbol, mpmath.mpf]) -> dict[sp.Symbol, Fraction]:
    """The point rounded to 15 significant digits, as exact rationals: a
    counterexample is certified at the decimal point it is reported at."""
    return {
        s: Fraction(mpmath.nstr(v, 15, min_fixed=-mpmath.inf, max_fixed=mpmath.inf))
        for s, v in point.items()
    }


def _at_integers(
    expression: sp.Expr, point: Mapping[sp.Symbol, int | mpmath.mpf]
) -> tuple[sp.Expr, dict[sp.Symbol, mpmath.mpf]]:
    """``expression`` with the int coordinates of ``point`` substituted exactly,
    and the other coordinates: SymPy then evaluates what has a meaning only at
    integers, such as (-1)**t, which ball arithmetic would take through log(-1)."""
    integers = {s: sp.Integer(v) for s, v in point.items() if isinstance(v, int)}
    reals = {s: v for s, v in point.items() if s not in integers}
    return expression.subs(integers), reals


def _certify(
    expression: sp.Expr,
    point: Mapping[sp.Symbol, int | mpmath.mpf],
    sign: int | None,
    *,
    violated: bool,
) -> tuple[Certificate, dict[str, str]]:
    """Certify ``expression`` nonzero (or of ``sign``) at the sampled ``point``,
    or, when the sample shows a clear violation there (``violated``), at the
    point rounded to 15 digits, a neighbour short enough to report. Returns
    the certificate and the point it holds at, written exactly by symbol name
    (:func:`~implicit_bias.claims.certify.exact_point`; an int coordinate as
    it is), or ``{}`` when it is not certified."""
    expression, reals = _at_integers(expression, point)
    candidates: list[dict[sp.Symbol, mpmath.mpf | Fraction]] = []
    if violated:
        candidates.append(_decimal_point(reals))
    candidates.append(dict(reals))
    certificate = Certificate(False, "", 0)
    for candidate in candidates:
        certificate = (
            certified_nonzero(expression, candidate)
            if sign is None
            else certified_sign(expression, candidate, sign)
        )
        if certificate.certified:
            # In the sampled point's order, with its int coordinates.
            return certificate, exact_point({**point, **candidate})
    return certificate, {}


def _written(point: Mapping[str, str]) -> str:
    """An exact point as a counterexample's text: ``x=1.5, y=1/3``."""
    return _joined(f"{name}={value}" for name, value in point.items())
