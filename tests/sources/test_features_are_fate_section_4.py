"""Claims of features-are-fate's Section 4: the expected verdicts."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Result,
    Status,
    run_claims,
)
from implicit_bias.sources.features_are_fate.section_4 import CLAIMS
from implicit_bias.sources.features_are_fate import notation
from implicit_bias.theory.relu_kernels import GLYPHS
from tests.claims.claim_checks import (
    assert_failures_are_refutations,
)

#: Section 4 statements: eq. (21) and Fig. 4(a)-(b), (d).
SECTION_4 = {"21", "sec-4"}

FAST = [c for c in CLAIMS if not c.slow]


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return {r.claim.id: r for r in run_claims(FAST)}


@pytest.mark.parametrize("claim", FAST, ids=lambda c: c.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.as_expected, (result.verdict.status, result.verdict.detail)


@pytest.mark.parametrize("claim", FAST, ids=lambda c: c.id)
def test_refutations_are_exact_or_certified(
    claim: Claim, results: dict[str, Result]
) -> None:
    verdict = results[claim.id].verdict
    if verdict.status == Status.FAILS:
        assert verdict.counterexample
        if claim.kind in (Kind.IDENTITY, Kind.INEQUALITY, Kind.NUMERIC):
            assert verdict.basis in (Basis.PROOF, Basis.CERTIFIED)
    if verdict.status != Status.INCONCLUSIVE:
        assert verdict.basis is not None


@pytest.mark.slow
@pytest.mark.parametrize("claim", [c for c in CLAIMS if c.slow], ids=lambda c: c.id)
def test_slow_verdict_is_the_expected_one(claim: Claim) -> None:
    (result,) = run_claims([claim])
    assert result.as_expected, (result.verdict.status, result.verdict.detail)


def test_every_statement_has_a_claim() -> None:
    assert {c.equation for c in CLAIMS} == SECTION_4


def test_formulas_use_glyphed_symbols() -> None:
    glyphs = set(GLYPHS) | set(notation.GLYPHS)
    for claim in CLAIMS:
        if claim.formula is not None:
            formula = claim.formula()
            # A relation, or a conjunction of relations (several compared pairs).
            parts = formula.args if isinstance(formula, sp.And) else (formula,)
            assert all(isinstance(p, sp.core.relational.Relational) for p in parts)
            symbols = {s for s in formula.free_symbols if isinstance(s, sp.Symbol)}
            assert symbols <= glyphs, (claim.id, symbols - glyphs)


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)
