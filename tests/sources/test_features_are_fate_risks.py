"""Every claim of features-are-fate's risks module returns the verdict it expects.

The main-text risks of Section 3 (eqs. (10)-(17)); see
:mod:`implicit_bias.sources.features_are_fate.risks`.
"""

from __future__ import annotations

import pytest
import sympy as sp

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
from implicit_bias.sources.features_are_fate import SOURCE, notation
from implicit_bias.sources.features_are_fate.risks import CLAIMS
from implicit_bias.sources.features_are_fate.simulations import (
    CLAIMS as SIMULATION_CLAIMS,
)
from implicit_bias.theory import transfer_risks as tr
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


#: Numeric and simulation claims whose decision goes through check_close.
_SHIFTED = ["13:boundaries-numeric", "10-17:evaluators"]


@pytest.mark.parametrize("label", _SHIFTED)
@pytest.mark.parametrize("factor", [5.0, -5.0])
def test_a_shift_of_five_tolerances_is_detected(label: str, factor: float) -> None:
    claim = next(c for c in CLAIMS if c.id == f"{SOURCE_ID}:{label}")
    assert_shift_detected(claim, factor)


def test_every_claim_of_the_source_has_a_formula() -> None:
    # The ledger typesets each claim's formula: what its check compares.
    missing = [c.id for c in SOURCE.all_claims() if c.formula is None]
    assert missing == []


def test_a_measured_quantity_is_compared_with_the_printed_formula() -> None:
    # A simulation's formula sets its measured symbol against the theory's
    # expression, not against another symbol.
    (claim,) = [c for c in SIMULATION_CLAIMS if c.id.endswith(":12:monte-carlo")]
    assert claim.formula is not None
    formula = claim.formula()
    assert isinstance(formula, sp.Eq)
    assert formula.lhs == notation.mc_risk_linear
    assert formula.rhs == tr.linear_transfer_risk()
