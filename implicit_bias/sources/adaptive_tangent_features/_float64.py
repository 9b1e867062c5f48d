r"""Helpers of the float64 checks of adaptive-tangent-features.

Tolerances. ``omega_tilde`` and ``omega_join`` promise 1e-10 relative (the
module's accuracy contract; their error analysis gives ~1e-13); values on a
grid then carry errors below :data:`RTOL` times their size, which bounds what
first and second differences can show. Direct minimizations (dense grid, then
Nelder-Mead or bounded Brent polish with tolerances 1e-12 in the location)
are accurate to ~1e-10 relative where the minimum is smooth; the comparisons
with them use :data:`DIRECT_RTOL` = 1e-8.

A float64 comparison outside its tolerance is no refutation: its verdict is
``inconclusive`` (:func:`not_certified`, :func:`compared`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray
from scipy import optimize

from implicit_bias.claims.engine import Reason, Status, Verdict, conjunction

__all__ = [
    "DIRECT_RTOL",
    "RTOL",
    "Float64Array",
    "compared",
    "not_certified",
    "unconstrained_minimum",
]


Float64Array = NDArray[np.float64]

#: The accuracy contract of omega_tilde / omega_join (relative).
RTOL = 1e-10
#: Direct minimization by grid + polish: location to ~1e-6 relative or better
#: gives the value to ~1e-12 at a smooth minimum; 1e-8 leaves room for kinks.
DIRECT_RTOL = 1e-8


def not_certified(detail: str) -> Verdict:
    """A float64 violation that is not certified: it refutes nothing."""
    return Verdict.inconclusive(
        f"{detail} (a floating-point violation, not certified by exact or ball "
        "arithmetic)",
        Reason.UNDECIDED,
    )


def compared(comparisons: list[Verdict], detail: str) -> Verdict:
    """The conjunction of :func:`check_close` comparisons, under ``detail``.

    Every comparison decides: ``holds`` only when all of them hold. A float64
    comparison outside its tolerance is reported as not certified
    (``inconclusive``): it is no exact or certified refutation.
    """
    evidence = "; ".join(part.detail for part in comparisons)
    verdict = conjunction(comparisons, f"{detail}: {evidence}")
    if verdict.status == Status.FAILS:
        return not_certified(verdict.detail)
    return verdict


def unconstrained_minimum(
    objective: Callable[[Float64Array], Float64Array],
    low: float,
    high: float,
    kinks: tuple[float, ...],
) -> tuple[float, float]:
    """Minimum of a scalar objective over log z in [low, high]: grid, then Brent.

    ``kinks`` (where an omega's argument is 1) join the grid, so that a cusp
    such as that of :math:`|z-1|^{1/2}` is evaluated exactly where it lies.
    """
    grid = np.union1d(np.linspace(low, high, 20001), np.array(kinks))
    values = objective(grid)
    best = int(np.argmin(values))
    lo, hi = grid[max(best - 1, 0)], grid[min(best + 1, grid.size - 1)]
    result = optimize.minimize_scalar(
        lambda x: float(objective(np.array([x]))[0]),
        bounds=(lo, hi),
        method="bounded",
        options={"xatol": 1e-13},
    )
    if result.fun < values[best]:
        return float(result.fun), float(result.x)
    return float(values[best]), float(grid[best])
