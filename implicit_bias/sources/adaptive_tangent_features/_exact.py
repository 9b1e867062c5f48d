r"""Helpers of the exact checks of adaptive-tangent-features (SymPy).

A zero test under a time limit, limits decided case by case, and the verdict
of a difference SymPy did not reduce to 0 (which does not show it nonzero).
Used by the section modules whose checks are symbolic.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

from implicit_bias.claims.checks import check_limit
from implicit_bias.claims.engine import Basis, Reason, Status, Verdict, time_limit

__all__ = ["check_limits", "is_zero", "piece_on", "undecided"]


def is_zero(expression: sp.Expr, seconds: float = 10.0) -> bool:
    """Whether SymPy simplifies ``expression`` to 0 within ``seconds``
    (:class:`~implicit_bias.claims.engine.CheckTimeout` past them)."""
    with time_limit(seconds):
        return sp.simplify(expression) == 0


def check_limits(
    cases: Sequence[tuple[str, sp.Expr, sp.Symbol, sp.Expr, sp.Expr]],
) -> Verdict:
    """Run :func:`check_limit` on (name, expression, variable, point, expected)."""
    details = []
    for name, expression, variable, point, expected in cases:
        verdict = check_limit(expression, variable, point, expected)
        if verdict.status != Status.HOLDS:
            return verdict.with_detail(f"{name}: {verdict.detail}")
        details.append(f"{name}: {verdict.detail}")
    return Verdict.holds("; ".join(details), Basis.PROOF)


def piece_on(expression: sp.Expr, region: sp.Set, domain: sp.Set) -> sp.Expr | None:
    """The piece a univariate ``expression`` takes on all of ``region``.

    A :class:`sympy.Piecewise` is split by its conditions over ``domain``
    (:meth:`~sympy.Piecewise.as_expr_set_pairs`), so the piece is chosen by
    where its condition holds, not by its position; any other expression is
    its own piece on ``domain``. None when no one piece covers ``region``.
    """
    if isinstance(expression, sp.Piecewise):
        pairs = expression.as_expr_set_pairs(domain)
    else:
        pairs = [(expression, domain)]
    for piece, where in pairs:
        if region.is_subset(where) is True:
            return piece
    return None


def undecided(detail: str) -> Verdict:
    """SymPy did not reduce a difference to 0: not a proof that it is nonzero."""
    return Verdict.inconclusive(
        f"{detail} (SymPy did not simplify it to 0, which does not show it nonzero)",
        Reason.UNDECIDED,
    )
