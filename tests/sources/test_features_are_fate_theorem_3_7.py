"""Every claim of features-are-fate's Theorem 3.7 returns the verdict it expects.

Section 3.3, linear transfer (12)-(13); see
:mod:`implicit_bias.sources.features_are_fate.theorem_3_7`.
"""

from __future__ import annotations


from tests.claims.verdict_suites import (
    ExactSymbolicClaims,
    ExpectedVerdicts,
    RefutationDetails,
    ShiftDetection,
)
from implicit_bias.sources.features_are_fate.theorem_3_7 import CLAIMS


class TestClaims(
    ExpectedVerdicts, ExactSymbolicClaims, RefutationDetails, ShiftDetection
):
    claims = CLAIMS
    refutation_details = (
        ("13:interval-as-printed", ("empty", "0.264376", "0.945624")),
    )
    #: Numeric claims whose decision goes through check_close.
    shifted = ("13:boundaries-numeric",)
