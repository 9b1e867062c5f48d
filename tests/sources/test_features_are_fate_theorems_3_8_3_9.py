"""Every claim of features-are-fate's Theorems 3.8-3.9 returns the expected verdict.

Sections 3.3.1 and 3.4, (15)-(17), and the float64 evaluators of (10)-(17);
see :mod:`implicit_bias.sources.features_are_fate.theorems_3_8_3_9`.
"""

from __future__ import annotations


from tests.claims.verdict_suites import (
    ExactSymbolicClaims,
    ExpectedVerdicts,
    ShiftDetection,
)
from implicit_bias.sources.features_are_fate.theorems_3_8_3_9 import CLAIMS


class TestClaims(ExpectedVerdicts, ExactSymbolicClaims, ShiftDetection):
    claims = CLAIMS
    #: Numeric claims whose decision goes through check_close.
    shifted = ("10-17:evaluators",)
