"""Every claim of features-are-fate's Theorem 3.6 returns the verdict it expects.

Section 3.2, the scratch risk (10); see
:mod:`implicit_bias.sources.features_are_fate.theorem_3_6`.
"""

from __future__ import annotations


from tests.claims.verdict_suites import (
    ExactSymbolicClaims,
    ExpectedVerdicts,
    RefutationDetails,
)
from implicit_bias.sources.features_are_fate import SOURCE
from implicit_bias.sources.features_are_fate.theorem_3_6 import CLAIMS


class TestClaims(ExpectedVerdicts, ExactSymbolicClaims, RefutationDetails):
    claims = CLAIMS
    refutation_details = (
        ("10:double-descent-beyond-regime", ("gamma(2-gamma)", "no divergence")),
    )


def test_every_claim_of_the_source_has_a_formula() -> None:
    # The ledger typesets each claim's formula: what its check compares.
    missing = [c.id for c in SOURCE.all_claims() if c.formula is None]
    assert missing == []
