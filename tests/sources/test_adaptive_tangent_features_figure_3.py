"""Figure 3 of adaptive-tangent-features (the difficult points) gives its verdict."""

from __future__ import annotations

import numpy as np
import pytest

from implicit_bias.claims.checks import injected_bias
from implicit_bias.claims.engine import Basis, Claim, Reason, Result, Status
from implicit_bias.sources.adaptive_tangent_features import figure_3
from implicit_bias.validation.tangent_kernels import LabelAlignmentStudy
from tests.claims.claim_checks import (
    assert_failures_are_refutations,
    quick,
    quick_results,
)

QUICK = quick(figure_3.CLAIMS)


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(figure_3.CLAIMS)


@pytest.mark.parametrize("claim", QUICK, ids=lambda claim: claim.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.as_expected, (result.verdict.reason, result.verdict.detail)
    assert result.verdict.basis == Basis.STATISTICAL


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)


@pytest.mark.parametrize("factor", [2.0, -2.0])
def test_figure_3_notices_a_shift_of_its_statistic(factor: float) -> None:
    with injected_bias(factor) as record:
        verdict = figure_3._check_difficult_points(
            figure_3.FIGURE_3_SEEDS, figure_3.FIGURE_3_STUDY
        )
    assert record.comparisons == 1
    assert verdict.status != Status.HOLDS


def test_a_reversal_in_the_analogue_refutes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The easy points carrying the change (a positive correlation) is outside
    # the source's regime: inconclusive, never a failure.
    values = LabelAlignmentStudy.values

    def reversed_values(study: LabelAlignmentStudy, name: str) -> np.ndarray:
        found = values(study, name)
        return -found if name == "sign_difficulty_correlation" else found

    monkeypatch.setattr(LabelAlignmentStudy, "values", reversed_values)
    verdict = figure_3._check_difficult_points(
        figure_3.FIGURE_3_SEEDS, figure_3.FIGURE_3_STUDY
    )
    assert verdict.status == Status.INCONCLUSIVE
    assert verdict.reason == Reason.UNDECIDED
