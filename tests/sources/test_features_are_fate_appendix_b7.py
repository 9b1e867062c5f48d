"""The claims of features-are-fate's Appendix B.7, (121)-(130): expected verdicts."""

from __future__ import annotations


from tests.claims.verdict_suites import (
    EquationsCovered,
    ExactSymbolicClaims,
    ExpectedVerdicts,
    ShiftDetection,
)
from implicit_bias.sources.features_are_fate.appendix_b7 import CLAIMS


class TestClaims(
    ExpectedVerdicts, EquationsCovered, ExactSymbolicClaims, ShiftDetection
):
    claims = CLAIMS
    #: The steps of the proof of Theorem 3.8 this module covers: (121)-(130).
    equations = frozenset({"121", "126", "128", "129-130"})
    #: Numeric and simulation claims whose decision goes through check_close.
    shifted = ("128:monte-carlo", "129-130:float64")
