"""Every claim of features-are-fate's Theorem 3.6 returns the verdict it expects.

Section 3.2, the scratch risk (10); see
:mod:`implicit_bias.sources.features_are_fate.theorem_3_6`.
"""

from __future__ import annotations

import pytest

from tests.claims.claim_checks import (
    assert_detail_mentions,
    assert_failures_are_refutations,
    assert_symbolic_claims_exact,
    quick,
    quick_results,
)
from implicit_bias.claims.engine import (
    Claim,
    Result,
    Status,
)
from implicit_bias.sources.features_are_fate import SOURCE
from implicit_bias.sources.features_are_fate.theorem_3_6 import CLAIMS
from implicit_bias.sources.features_are_fate.source import SOURCE_ID


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(CLAIMS)


@pytest.mark.parametrize("claim", quick(CLAIMS), ids=lambda c: c.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.as_expected, (result.verdict.status, result.verdict.detail)


@pytest.mark.parametrize(
    ("claim_id", "needles"),
    [
        ("10:double-descent-beyond-regime", ["gamma(2-gamma)", "no divergence"]),
    ],
)
def test_failures_report_residual_or_counterexample(
    claim_id: str, needles: list[str], results: dict[str, Result]
) -> None:
    result = results[f"{SOURCE_ID}:{claim_id}"]
    # The evidence is the one of the refutation, not of another outcome.
    assert result.verdict.status == Status.FAILS, result.verdict.detail
    assert_detail_mentions(result, needles)


def test_symbolic_claims_are_exact(results: dict[str, Result]) -> None:
    assert_symbolic_claims_exact(results)


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)


def test_every_claim_of_the_source_has_a_formula() -> None:
    # The ledger typesets each claim's formula: what its check compares.
    missing = [c.id for c in SOURCE.all_claims() if c.formula is None]
    assert missing == []
