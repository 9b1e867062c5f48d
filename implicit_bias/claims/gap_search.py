r"""A local search for the worst point of an inequality, after its random sample.

Random points find a violation of :math:`\mathrm{lhs} \le \mathrm{rhs}` only
where violations fill a good part of the sampled domain. A wrong bound is
often violated on a thin set -- near where the true bound is tight -- and a
sample of 50 or 200 points comes close (a relative gap of :math:`10^{-3}`)
without entering it. :func:`refined_point` starts at the sample's worst point
and follows the relative violation uphill in float64: an adaptive random
search (the step grows on success and shrinks on failure), moving every
coordinate or one at a time, by factors :math:`e^{\sigma z}` that keep each
coordinate's sign -- so a positive symbol stays positive and a negative one
negative -- and its magnitude in :math:`[10^{-3}, 10^3]`, the window the
default sampler draws from. Coordinates whose
domain is something else (an integer, an interval, a sampler the caller gave)
stay where the sample put them.

The search only proposes: the caller evaluates the point it returns at 50
digits and certifies a violation there in ball arithmetic, as for a sampled
point; a search that finds nothing changes no verdict.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import sympy as sp

from implicit_bias.claims.intervals import interval_of

__all__ = ["SEARCH_STEPS", "movable_symbols", "refined_point"]

#: float64 evaluations of the search.
SEARCH_STEPS = 400
_FIRST_STEP, _LARGEST_STEP, _SMALLEST_STEP = 0.5, 2.0, 1e-9
#: The magnitudes the default samplers draw (samplers.from_assumptions).
_LOW, _HIGH = 1e-3, 1e3


def movable_symbols(
    symbols: Sequence[sp.Symbol], given: Mapping[sp.Symbol, object]
) -> list[sp.Symbol]:
    """The symbols the search may move: drawn by the default sampler from a
    domain given by their sign alone (not an integer, not on an interval,
    no sampler in ``given``)."""
    return [
        s
        for s in symbols
        if s not in given and not s.is_integer and interval_of(s) is None
    ]


def refined_point(
    violation: sp.Expr,
    scale: sp.Expr,
    symbols: Sequence[sp.Symbol],
    movable: Sequence[sp.Symbol],
    start: Mapping[sp.Symbol, object],
    rng: np.random.Generator,
    steps: int = SEARCH_STEPS,
) -> dict[sp.Symbol, object] | None:
    r"""A point where ``violation / |scale|`` is larger than at ``start``, or
    None.

    Args:
      violation: the expression whose positive values violate the relation
        (``lhs - rhs`` of :math:`\mathrm{lhs} \le \mathrm{rhs}`).
      scale: the size it is measured against (:math:`|\mathrm{lhs}| +
        |\mathrm{rhs}|`).
      symbols: every free symbol of the two, in the order of ``start``.
      movable: those the search moves (:func:`movable_symbols`).
      start: the sample's worst point.
      rng: the sample's generator, continued.
      steps: float64 evaluations.

    Returns:
      The best point found (the other coordinates as in ``start``), when
      better in float64 than ``start``; None when it is not, or the
      expressions cannot be evaluated in float64.
    """
    if not movable or steps < 1:
        return None
    try:
        function = sp.lambdify(symbols, violation / (sp.Abs(scale) + 1e-300), "math")
    except (TypeError, NameError, NotImplementedError, SyntaxError, KeyError):
        return None
    # float64 throughout (an mpmath start would keep the search in mpmath);
    # the coordinates the search does not move keep their exact values.
    best = {s: float(start[s]) if s in movable else start[s] for s in symbols}  # type: ignore[arg-type]
    best_value = _value(function, symbols, best)
    if best_value is None:
        return None
    improved = False
    step = _FIRST_STEP
    for k in range(steps):
        moved = movable if k % 2 == 0 else [movable[int(rng.integers(len(movable)))]]
        candidate = dict(best)
        for s in moved:
            factor = math.exp(step * float(rng.standard_normal()))
            moved_to = float(best[s]) * factor  # type: ignore[arg-type]
            # Inside the window the sample is drawn from: far out, a relative
            # gap may shrink towards 0 without ever changing sign.
            candidate[s] = math.copysign(min(max(abs(moved_to), _LOW), _HIGH), moved_to)
        value = _value(function, symbols, candidate)
        if value is not None and value > best_value:
            best, best_value, improved = candidate, value, True
            step = min(step * 1.5, _LARGEST_STEP)
        else:
            step = max(step * 0.97, _SMALLEST_STEP)
    return best if improved else None


def _value(
    function: Callable[..., object],
    symbols: Sequence[sp.Symbol],
    point: Mapping[sp.Symbol, object],
) -> float | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = function(*(point[s] for s in symbols))
        except (ArithmeticError, ValueError, TypeError):
            return None
    if isinstance(value, complex) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None
