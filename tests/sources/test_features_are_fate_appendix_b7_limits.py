"""The claims of features-are-fate's Appendix B.7, (131)-(141): expected verdicts."""

from __future__ import annotations

import pytest
import sympy as sp

from tests.claims.claim_checks import (
    assert_detail_mentions,
    assert_failures_are_refutations,
    assert_judge_refutes,
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
from implicit_bias.sources.features_are_fate.appendix_b7_limits import (
    CLAIMS as MODULE_CLAIMS,
)
from implicit_bias.sources.features_are_fate.appendix_b7_limits import DERIVATIONS
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.theory import transfer_asymptotics as theory

CLAIMS = MODULE_CLAIMS + tuple(c for d in DERIVATIONS for c in d.claims)


#: The steps of the proof of Theorem 3.8 this module covers: (131)-(141).
COVERED = {
    "131",
    "132",
    "133",
    "133-134",
    "134",
    "135",
    "137",
    "138",
    "139",
    "140",
    "141",
}


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(CLAIMS)


def test_every_step_in_scope_has_a_claim() -> None:
    assert {c.equation for c in CLAIMS} == COVERED


@pytest.mark.parametrize("claim", quick(CLAIMS), ids=lambda c: c.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.as_expected, (result.verdict.status, result.verdict.detail)


@pytest.mark.parametrize(
    ("claim_id", "needles"),
    [
        ("137:as-printed", ["2**(n/2)*pi**(n/2)", "9792.6"]),
        ("141:strictly-increasing", ["2*lambda*cos(theta)**2/(lambda + 1)**3", "= 1"]),
    ],
)
def test_failures_report_the_counterexample(
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
_SHIFTED = ["134:laplace-accuracy"]


@pytest.mark.parametrize("label", _SHIFTED)
@pytest.mark.parametrize("factor", [5.0, -5.0])
def test_a_shift_of_five_tolerances_is_detected(label: str, factor: float) -> None:
    claim = next(c for c in CLAIMS if c.id == f"{SOURCE_ID}:{label}")
    assert_shift_detected(claim, factor)


@pytest.mark.parametrize(
    ("label", "description"),
    [
        ("131:i1-laplace-step-1", "lhs: exponent of (lambda*n + r**2)**(-2) -> -3"),
        ("132:i1-laplace-step-2", "lhs: exponent of (lambda*n + 2*u)**(-2) -> -3"),
        ("133:i1-laplace-step-3", "lhs: exponent of (lambda*n + 2*n*t)**(-2) -> -3"),
        ("135:saddle-value", "lhs: exponent of (lambda*n + n)**(-2) -> -3"),
    ],
)
def test_the_judge_refutes_a_wrong_relation(label: str, description: str) -> None:
    # The check takes its relation as input: a one-step error in the relation
    # (one of mutation testing's symbolic mutants) is refuted.
    claim = next(c for c in CLAIMS if c.id == f"{SOURCE_ID}:{label}")
    assert_judge_refutes(claim, description)


def test_the_laplace_chain_is_the_printed_proof(results: dict[str, Result]) -> None:
    (chain,) = DERIVATIONS
    n, r, u, t = theory.n, theory.r, theory.u, theory.t
    expressions = chain.expressions()
    # (129) for I_1(n) with S_{n-1}/(2 pi)^{n/2} set aside, as the text does.
    assert expressions[0] == sp.Integral(
        r ** (n + 1) * sp.exp(-(r**2) / 2) / (r**2 + n * theory.lam) ** 2,
        (r, 0, sp.oo),
    )
    assert expressions[1:3] == [
        sp.Integral(theory.ridge_i1_eq131(), (u, 0, sp.oo)),
        sp.Integral(theory.ridge_i1_eq132(), (t, 0, sp.oo)),
    ]
    assert expressions[3] == n * (2 * n) ** (n / 2) * sp.Integral(
        theory.laplace_prefactor() * sp.exp(n * theory.laplace_exponent()),
        (t, 0, sp.oo),
    )
    assert [results[c.id].verdict.status for c in chain.claims] == [Status.HOLDS] * 3
