"""Claims of features-are-fate's Section 4 and Appendix C: the expected verdicts."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.engine import Claim, Result, run_claims
from implicit_bias.claims.features_are_fate.kernels import CLAIMS
from implicit_bias.claims.features_are_fate.source import SOURCE
from implicit_bias.theory.relu_kernels import GLYPHS

#: Appendix C equations that state something checkable. Not listed: (145)-(147),
#: (149) and (154)-(156) define the networks, the RKHS, T_k and the matrices.
CHECKABLE = {"150-151", "151", "152-153", "153", "157", "158", "159", "158-159"}
#: Section 4 statements: eq. (21) and Fig. 4(a)-(b), (d).
SECTION_4 = {"21", "sec-4"}

FAST = [c for c in CLAIMS if not c.slow]


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return {r.claim.id: r for r in run_claims(FAST)}


@pytest.mark.parametrize("claim", FAST, ids=lambda c: c.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.verdict.status == claim.expected, result.verdict.detail


@pytest.mark.slow
@pytest.mark.parametrize("claim", [c for c in CLAIMS if c.slow], ids=lambda c: c.id)
def test_slow_verdict_is_the_expected_one(claim: Claim) -> None:
    (result,) = run_claims([claim])
    assert result.verdict.status == claim.expected, result.verdict.detail


def test_every_checkable_equation_has_a_claim() -> None:
    assert {c.equation for c in CLAIMS} >= CHECKABLE | SECTION_4


@pytest.mark.parametrize(
    ("label", "needles"),
    [
        ("153:general-weights-as-printed", ["= 3 exactly", "gives 1/2"]),
        ("150-151:as-printed", ["(151) gives 8", "||f||_k^2 = 2"]),
    ],
)
def test_failures_report_the_counterexample(
    label: str, needles: list[str], results: dict[str, Result]
) -> None:
    detail = results[f"{SOURCE}:{label}"].verdict.detail
    for needle in needles:
        assert needle in detail


def test_formulas_use_glyphed_symbols() -> None:
    for claim in CLAIMS:
        if claim.formula is not None:
            formula = claim.formula()
            assert isinstance(formula, sp.Eq)
            assert formula.free_symbols <= set(GLYPHS)
