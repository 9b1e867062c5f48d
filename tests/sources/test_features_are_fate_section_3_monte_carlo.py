"""Every Monte-Carlo claim of features-are-fate's Section 3 returns its verdict."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
import sympy as sp

from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Result,
    Status,
    Verdict,
    run_claims,
)
from implicit_bias.sources.features_are_fate import section_3_monte_carlo
from implicit_bias.sources.features_are_fate.section_3_monte_carlo import CLAIMS
from implicit_bias.sources.features_are_fate import notation
from implicit_bias.theory import transfer_risks as tr
from tests.claims.claim_checks import (
    assert_failures_are_refutations,
    assert_shift_detected,
)


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return {r.claim.id: r for r in run_claims([c for c in CLAIMS if not c.slow])}


@pytest.mark.parametrize("claim", [c for c in CLAIMS if not c.slow], ids=lambda c: c.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.as_expected, (result.verdict.status, result.verdict.detail)


@pytest.mark.parametrize("claim", [c for c in CLAIMS if not c.slow], ids=lambda c: c.id)
def test_decided_verdicts_rest_on_runs(
    claim: Claim, results: dict[str, Result]
) -> None:
    verdict = results[claim.id].verdict
    if verdict.status != Status.INCONCLUSIVE:
        assert verdict.basis in (Basis.STATISTICAL, Basis.NUMERICAL), claim.id
    if verdict.status == Status.FAILS:
        assert verdict.counterexample, claim.id


def test_claims_are_section_3_monte_carlo_of_this_source() -> None:
    assert {c.source for c in CLAIMS} == {"features-are-fate"}
    assert {c.kind for c in CLAIMS} == {Kind.SIMULATION}
    assert len({c.id for c in CLAIMS}) == len(CLAIMS)


@pytest.mark.parametrize(
    ("claim_id", "needles"),
    [
        ("16:monte-carlo", ["vs (16)", "sigma = 1.0"]),
    ],
)
def test_failures_report_the_numbers(
    claim_id: str, needles: list[str], results: dict[str, Result]
) -> None:
    # The counterexample is written only when the check refutes the claim.
    counterexample = results[f"features-are-fate:{claim_id}"].verdict.counterexample
    assert counterexample is not None
    for needle in needles:
        assert needle in counterexample
    assert re.search(r"\d\.\d", counterexample)


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)


#: Cheap numeric claims whose decision goes through check_close.
_SHIFTED = ["12:monte-carlo"]


@pytest.mark.parametrize("label", _SHIFTED)
@pytest.mark.parametrize("factor", [5.0, -5.0])
def test_a_shift_of_five_tolerances_is_detected(label: str, factor: float) -> None:
    (claim,) = [c for c in CLAIMS if c.id.endswith(f":{label}")]
    assert_shift_detected(claim, factor)


# Issue 20, "holds that could not fail": the comparisons with the n, d -> oo
# formulas (10), (13), (15), (17) allowed |finite - limit| with the limit taken
# from the formula under test, so a wrong formula widened its own tolerance.
# Each formula is shifted where the check reads it (its NumPy evaluator) and,
# for one branch only, where that evaluator is lambdified from the theory layer.
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


def _shifted(function: Callable[..., object], shift: float) -> Callable[..., object]:
    def shifted(*args: object, **kwargs: object) -> object:
        return function(*args, **kwargs) + shift  # type: ignore[operator]

    return shifted


@pytest.mark.parametrize("shift", [0.3, -0.3, 0.05, -0.05])
@pytest.mark.parametrize("label", sorted(_LIMIT_CHECKS))
def test_a_shifted_limit_formula_no_longer_holds(
    label: str, shift: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    name, check = _LIMIT_CHECKS[label]
    monkeypatch.setattr(
        section_3_monte_carlo,
        name,
        _shifted(getattr(section_3_monte_carlo, name), shift),
    )
    verdict = check()
    assert verdict.status != Status.HOLDS, (label, shift, verdict.detail)


#: One branch of each formula's NumPy evaluator, as lambdified from the theory
#: expression (numerics.transfer_risks' lazy formulas).
_BRANCHES = [
    ("10:monte-carlo", "_scratch_over"),
    ("10:monte-carlo", "_scratch_under"),
    ("15:monte-carlo", "_ridge_transfer_in_shrinkage"),
]


@pytest.mark.parametrize(("label", "builder"), _BRANCHES)
def test_a_shifted_theory_branch_no_longer_holds(
    label: str, builder: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from implicit_bias.numerics import transfer_risks

    built = getattr(transfer_risks, builder)()
    monkeypatch.setattr(transfer_risks, builder, lambda: _shifted(built, 0.3))
    verdict = _LIMIT_CHECKS[label][1]()
    assert verdict.status != Status.HOLDS, (label, builder, verdict.detail)


def test_a_measured_quantity_is_compared_with_the_printed_formula() -> None:
    # A simulation's formula sets its measured symbol against the theory's
    # expression, not against another symbol.
    (claim,) = [c for c in CLAIMS if c.id.endswith(":12:monte-carlo")]
    assert claim.formula is not None
    formula = claim.formula()
    assert isinstance(formula, sp.Eq)
    assert formula.lhs == notation.mc_risk_linear
    assert formula.rhs == tr.linear_transfer_risk()
