"""Every claim of features-are-fate's Theorem 3.7 returns the verdict it expects.

Section 3.3, linear transfer (12)-(13); see
:mod:`implicit_bias.sources.features_are_fate.theorem_3_7`.
"""

from __future__ import annotations

import pytest

from tests.claims.claim_checks import (
    assert_detail_mentions,
    assert_failures_are_refutations,
    assert_shift_detected,
    assert_symbolic_claims_exact,
    quick,
    quick_results,
)
from implicit_bias.claims.engine import (
    Claim,
    Result,
    Status,
)
from implicit_bias.sources.features_are_fate.theorem_3_7 import CLAIMS
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
        ("13:interval-as-printed", ["empty", "0.264376", "0.945624"]),
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


#: Numeric claims whose decision goes through check_close.
_SHIFTED = ["13:boundaries-numeric"]


@pytest.mark.parametrize("label", _SHIFTED)
@pytest.mark.parametrize("factor", [5.0, -5.0])
def test_a_shift_of_five_tolerances_is_detected(label: str, factor: float) -> None:
    claim = next(c for c in CLAIMS if c.id == f"{SOURCE_ID}:{label}")
    assert_shift_detected(claim, factor)
