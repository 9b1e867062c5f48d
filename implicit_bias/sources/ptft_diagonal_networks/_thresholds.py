r"""Thresholds the numeric and simulation claims of ptft-diagonal-networks share.

:data:`SIGNIFICANCE` is the number of standard errors a simulated effect must
exceed (:mod:`.appendix_b1_min_l12`, :mod:`.appendix_e1`); :func:`at_most` is
the form the ledger gives a measured quantity's bound (the formulas of
:mod:`.appendix_a_min_q`, :mod:`.appendix_b1_min_l12` and :mod:`.appendix_e1`).
"""

from __future__ import annotations

import sympy as sp

__all__ = ["SIGNIFICANCE", "at_most"]

#: A mean difference over problems counts as an effect only beyond this many
#: standard errors (one-sided p ~ 0.003 for a t statistic with 23 degrees of
#: freedom, the 24 problems of Appendix B.1's claim; the convention of the
#: other sources' simulation claims). Appendix E.1's few repeats take its
#: Student-t equivalent.
SIGNIFICANCE = 3.0


def at_most(value: sp.Expr, bound: float) -> sp.Basic:
    r"""The ledger's :math:`\mathrm{value} \le \mathrm{bound}`, left unevaluated.

    The bound is printed to 3 significant digits.
    """
    return sp.Le(value, sp.Float(bound, 3), evaluate=False)
