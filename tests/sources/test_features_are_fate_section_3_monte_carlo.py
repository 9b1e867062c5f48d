"""Every Monte-Carlo claim of features-are-fate's Section 3 returns its verdict."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import ClassVar

import sympy as sp

from implicit_bias.claims.engine import Verdict
from implicit_bias.sources.features_are_fate import section_3_monte_carlo
from implicit_bias.sources.features_are_fate.section_3_monte_carlo import CLAIMS
from implicit_bias.sources.features_are_fate import notation
from implicit_bias.theory import transfer_risks as tr
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from tests.claims.verdict_suites import (
    ExpectedVerdicts,
    MeasuredRefutations,
    ShiftDetection,
    SimulationVerdicts,
    claim_labelled,
)
from tests.sources.transfer_limit_shifts import LimitFormulaShifts


#: The checks of (10) and (15) against runs, by the evaluator each reads.
_LIMIT_CHECKS: dict[str, tuple[str, Callable[[], Verdict]]] = {
    "10:monte-carlo": (
        "scratch_risk",
        lambda: section_3_monte_carlo._check_scratch_risk(),
    ),
    "15:monte-carlo": (
        "ridge_transfer_risk",
        lambda: section_3_monte_carlo._check_ridge_risk(),
    ),
}


class TestClaims(
    ExpectedVerdicts,
    SimulationVerdicts,
    MeasuredRefutations,
    ShiftDetection,
    LimitFormulaShifts,
):
    claims = CLAIMS
    source_id = SOURCE_ID
    refutation_counterexamples = (("16:monte-carlo", ("vs (16)", "sigma = 1.0")),)
    #: Cheap numeric claims whose decision goes through check_close.
    shifted = ("12:monte-carlo",)
    checked_module: ClassVar[ModuleType] = section_3_monte_carlo
    limit_checks = _LIMIT_CHECKS
    theory_branches = (
        ("10:monte-carlo", "_scratch_over"),
        ("10:monte-carlo", "_scratch_under"),
        ("15:monte-carlo", "_ridge_transfer_in_shrinkage"),
    )


def test_a_measured_quantity_is_compared_with_the_printed_formula() -> None:
    # A simulation's formula sets its measured symbol against the theory's
    # expression, not against another symbol.
    claim = claim_labelled(CLAIMS, "12:monte-carlo")
    assert claim.formula is not None
    formula = claim.formula()
    assert isinstance(formula, sp.Eq)
    assert formula.lhs == notation.mc_risk_linear
    assert formula.rhs == tr.linear_transfer_risk()
