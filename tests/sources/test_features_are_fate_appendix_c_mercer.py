"""Claims of features-are-fate's Appendix C, Mercer and projections: verdicts."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Result,
    Status,
    run_claims,
)
from implicit_bias.sources.features_are_fate import appendix_c_mercer
from implicit_bias.sources.features_are_fate.appendix_c_mercer import CLAIMS
from implicit_bias.sources.features_are_fate import notation
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.theory.relu_kernels import GLYPHS
from tests.claims.claim_checks import (
    assert_failures_are_refutations,
)

#: Appendix C equations of the Mercer decomposition and the projections that
#: state something checkable. Not listed: (145)-(147), (149) and (154)-(156)
#: define the networks, the RKHS, T_k and the matrices.
CHECKABLE = {"150-151", "151", "157", "158", "159", "158-159"}

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


def test_every_checkable_equation_has_a_claim() -> None:
    assert {c.equation for c in CLAIMS} == CHECKABLE


@pytest.mark.parametrize(
    ("label", "needles"),
    [
        ("150-151:as-printed", ["gives 8", "(148) is 2"]),
    ],
)
def test_failures_report_the_counterexample(
    label: str, needles: list[str], results: dict[str, Result]
) -> None:
    # The counterexample is written only when the check refutes the claim.
    counterexample = results[f"{SOURCE_ID}:{label}"].verdict.counterexample
    assert counterexample is not None
    for needle in needles:
        assert needle in counterexample


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


@given(
    rows=st.integers(2, 50),
    columns=st.integers(1, 4),
    shift=st.floats(-3, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_standard_error_from_sums_is_the_two_pass_one(
    rows: int, columns: int, shift: float, seed: int
) -> None:
    draws = np.random.default_rng(seed).standard_normal((rows, columns)) + shift
    mean = draws.mean(axis=0)
    from_sums = appendix_c_mercer._standard_error((draws**2).sum(axis=0), mean, rows)
    two_pass = draws.std(axis=0, ddof=1) / np.sqrt(rows)
    # The one-pass variance sum x^2 - N xbar^2 carries the rounding of its
    # sums, <= (N + 2) u sum x^2, relative to (N - 1) s^2: the amplification
    # sum x^2/((N - 1) s^2) is the sample's, unbounded for a few draws close
    # together (N = 2 at shift 2 gives ~1e5), not the population's E[x^2]/Var x.
    # The square root halves the relative error; the bound keeps the factor 2.
    amplification = (draws**2).sum(axis=0) / ((rows - 1) * draws.var(axis=0, ddof=1))
    bound = (rows + 2) * np.finfo(float).eps / 2 * amplification
    assert np.all(np.abs(from_sums - two_pass) <= bound * two_pass), (
        from_sums,
        two_pass,
        bound,
    )
