"""Every claim of ptft-diagonal-networks returns the verdict the registry expects."""

from __future__ import annotations

import re

import pytest
import sympy as sp

from implicit_bias.sources import ptft_diagonal_networks
from implicit_bias.claims.engine import (
    Basis,
    Reason,
    Result,
    Status,
    Verdict,
    run_claims,
)
from implicit_bias.sources.ptft_diagonal_networks._common import (
    check_entries,
    refuted_as,
)
from implicit_bias.sources.ptft_diagonal_networks.symbolic import (
    CLAIMS as SYMBOLIC_CLAIMS,
)
from implicit_bias.claims.registry import GLYPHS, SOURCES, get_claim
from implicit_bias.latex import claim_latex, claims_latex
from tests.claims.claim_checks import assert_failures_are_refutations

CLAIMS = ptft_diagonal_networks.CLAIMS

#: Equations 7-35 that state something checkable. Not listed: (6) and (24)-(25)
#: define the models, (12) is printed empty, (15) restates (7) (its step to (16)
#: is the claim on 16).
CHECKABLE = {
    "7",
    "8",
    "9",
    "10",
    "11",
    "13",
    "14",
    "16",
    "17",
    "18-19",
    "20",
    "21",
    "22",
    "23",
    "26",
    "27",
    "28",
    "29",
    "30",
    "31",
    "32",
    "33",
    "34",
    "35",
}


@pytest.fixture(scope="module")
def results():
    return {r.claim.id: r for r in run_claims([c for c in CLAIMS if not c.slow])}


def test_registered_under_the_source_stem() -> None:
    assert SOURCES["ptft-diagonal-networks"] is CLAIMS
    assert {c.source for c in CLAIMS} == {"ptft-diagonal-networks"}


@pytest.mark.parametrize("claim", [c for c in CLAIMS if not c.slow], ids=lambda c: c.id)
def test_verdict_is_the_expected_one(claim, results) -> None:
    result = results[claim.id]
    assert result.verdict.status == claim.expected, result.verdict.detail
    assert result.verdict.reason == claim.expected_reason, result.verdict.detail


def test_symbolic_claims_that_hold_are_proved(results) -> None:
    symbolic = {c.id for c in SYMBOLIC_CLAIMS}
    for claim_id in symbolic:
        verdict = results[claim_id].verdict
        if verdict.status == Status.HOLDS:
            assert verdict.basis == Basis.PROOF, claim_id


def test_refuted_as_keeps_a_certified_failure_and_nothing_else() -> None:
    certified = Verdict.fails("residual", Basis.CERTIFIED, "at x=1, [2 +/- 0]")
    kept = refuted_as(certified, "the claim")
    assert (kept.status, kept.basis, kept.counterexample) == (
        Status.FAILS,
        Basis.CERTIFIED,
        "at x=1, [2 +/- 0]",
    )
    uncertified = Verdict.fails("float64 residual", Basis.NUMERICAL, "x=1")
    for verdict in (
        uncertified,
        Verdict.holds("exact", Basis.PROOF),
        Verdict.inconclusive("not certified", Reason.UNDECIDED),
    ):
        assert refuted_as(verdict, "the claim").reason == Reason.UNDECIDED


def test_check_entries_is_exact_or_refutes_an_entry() -> None:
    x = sp.Symbol("x", real=True)
    exact = check_entries(sp.Matrix([(x + 1) ** 2]), sp.Matrix([x**2 + 2 * x + 1]))
    assert (exact.status, exact.basis) == (Status.HOLDS, Basis.PROOF)
    wrong = check_entries(sp.Matrix([x, x**2]), sp.Matrix([x, x**2 + x]))
    assert (wrong.status, wrong.basis) == (Status.FAILS, Basis.CERTIFIED)
    assert wrong.detail.startswith("entry 2:")


def test_every_checkable_equation_and_appendix_g_has_a_claim() -> None:
    equations = {c.equation for c in CLAIMS}
    assert CHECKABLE | {"sec-G"} <= equations


def test_every_failing_claim_has_a_correction() -> None:
    failing = {c.id for c in CLAIMS if c.expected == Status.FAILS}
    corrected = {c.corrects for c in CLAIMS if c.corrects}
    assert failing == corrected
    for claim in CLAIMS:
        if claim.corrects:
            assert get_claim(claim.corrects).expected == Status.FAILS
            assert get_claim(claim.corrects).equation == claim.equation or (
                claim.equation == "27"
            )


@pytest.mark.parametrize(
    ("claim_id", "needles"),
    [
        ("8:as-printed", ["4 X~^T r o w2", "r := y - X~(w1 o w2)", "ascent"]),
        ("9:as-printed", ["4 X~^T r o w1", "ascent"]),
        ("18-19:as-printed", ["(18)-(19) = 2 beta(t)", "exact"]),
        ("20:from-18-19", ["(18)-(19) = 2 x (20)"]),
        ("26:one-branch-zero", ["w_- = (1, [-1])", "2||beta_d|| = 16"]),
        ("sec-G:ensd-subset", ["ENSD = 3", "ENSD = 66/13"]),
    ],
)
def test_failures_report_residual_or_counterexample(claim_id, needles, results) -> None:
    detail = results[f"ptft-diagonal-networks:{claim_id}"].verdict.detail
    for needle in needles:
        assert needle in detail


def test_exact_where_it_can_be(results) -> None:
    for claim_id, result in results.items():
        if result.verdict.status == Status.HOLDS:
            assert "numerically" not in result.verdict.detail, claim_id


def test_latex_is_tagged_with_the_paper_number_in_paper_notation() -> None:
    for claim in CLAIMS:
        block = claim_latex(claim)
        if block is None:
            continue
        if re.fullmatch(r"[0-9]+(-[0-9]+)?", claim.equation):
            assert rf"\tag{{{claim.equation}}}" in block
        else:
            assert r"\notag" in block
    text = "\n".join(
        line for line in claims_latex(CLAIMS).splitlines() if not line.startswith("%")
    )
    assert text.count(r"\begin{equation}") == text.count(r"\end{equation}") > 30
    for glyph in (r"w_{+,d}^{(1)}", r"\beta_d", r"\tilde{X}", r"\mathbf{X}", "k_d"):
        assert glyph in text
    for raw in ("xt_r_i", "beta_norm_d", "w1_p", "x_int_r_d", "q_norm"):
        assert raw not in text
    # Indexed eigenvalues print as lambda_i by themselves.
    assert set(GLYPHS["ptft-diagonal-networks"]) >= {
        symbol
        for claim in CLAIMS
        if claim.formula is not None
        for symbol in claim.formula().free_symbols
        if not isinstance(symbol, sp.Indexed | sp.IndexedBase)
    }


def test_q_float64_fails_only_on_a_certified_excess() -> None:
    from implicit_bias.sources.ptft_diagonal_networks.numeric import (
        _certified_ulp_violation,
    )
    from implicit_bias.numerics import q_potential_mp

    exact = float(q_potential_mp(1.0))
    off = _certified_ulp_violation("d", 1.0, exact * (1 + 1e-12), exact)
    assert (off.status, off.basis) == (Status.FAILS, Basis.CERTIFIED)
    assert "which is > 0" in (off.counterexample or "")
    within = _certified_ulp_violation("d", 1.0, exact, exact)
    assert (within.status, within.reason) == (
        Status.INCONCLUSIVE,
        Reason.UNDECIDED,
    )


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)
