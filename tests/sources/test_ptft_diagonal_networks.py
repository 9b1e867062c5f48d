"""ptft-diagonal-networks as a whole: every claim returns the verdict the registry
expects; the registry, the corrections, the ledger and the chains.

The tests of each module are in ``test_ptft_diagonal_networks_<module>.py``.
"""

from __future__ import annotations

import re

import pytest
import sympy as sp

from implicit_bias.claims.discovery import default_registry
from implicit_bias.claims.engine import Basis, Result, Status, run_claims
from implicit_bias.claims.registry import get_claim
from implicit_bias.latex import claim_latex, claims_latex
from implicit_bias.sources import ptft_diagonal_networks
from implicit_bias.sources.ptft_diagonal_networks import (
    DERIVATIONS,
    gradient_flow,
    multi_task,
    q_norm,
    representations,
)
from tests.claims.claim_checks import assert_failures_are_refutations

CLAIMS = ptft_diagonal_networks.CLAIMS
#: The claims and the steps of the chains of eqs. (15)-(21) and (28)-(30).
ALL = ptft_diagonal_networks.SOURCE.all_claims()
#: The claims checked with SymPy: eqs. (7)-(35) and Appendix G's displays.
SYMBOLIC_CLAIMS = (
    gradient_flow.CLAIMS + q_norm.CLAIMS + multi_task.CLAIMS + representations.CLAIMS
)

#: Equations 7-35 that state something checkable. Not listed: (6) and (24)-(25)
#: define the models, (12) is printed empty, (15) restates (7) (its step to (16)
#: is the first step of the chain 15-21).
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
    return {r.claim.id: r for r in run_claims([c for c in ALL if not c.slow])}


def test_registered_under_the_source_stem() -> None:
    registered = default_registry().sources["ptft-diagonal-networks"]
    assert registered.all_claims() == ALL
    assert {c.source for c in ALL} == {"ptft-diagonal-networks"}


@pytest.mark.parametrize("claim", [c for c in ALL if not c.slow], ids=lambda c: c.id)
def test_verdict_is_the_expected_one(claim, results) -> None:
    result = results[claim.id]
    assert result.verdict.status == claim.expected, result.verdict.detail
    assert result.verdict.reason == claim.expected_reason, result.verdict.detail


def test_symbolic_claims_that_hold_are_proved(results) -> None:
    symbolic = {c.id for c in SYMBOLIC_CLAIMS} | {
        c.id for chain in DERIVATIONS for c in chain.claims
    }
    for claim_id in symbolic:
        verdict = results[claim_id].verdict
        if verdict.status == Status.HOLDS:
            assert verdict.basis == Basis.PROOF, claim_id


def test_every_checkable_equation_and_appendix_g_has_a_claim() -> None:
    equations = {c.equation for c in ALL}
    assert CHECKABLE | {"sec-G"} <= equations


def test_every_failing_claim_has_a_correction() -> None:
    failing = {c.id for c in ALL if c.expected == Status.FAILS}
    corrected = {c.corrects for c in ALL if c.corrects}
    assert failing == corrected
    for claim in ALL:
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
        ("18-19:beta-step-3", ["(18)-(19) = 2 beta(t)", "exact"]),
        ("20:beta-step-4", ["(18)-(19) = 2 x (20)"]),
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
    assert set(default_registry().glyphs("ptft-diagonal-networks")) >= {
        symbol
        for claim in CLAIMS
        if claim.formula is not None
        for symbol in claim.formula().free_symbols
        if not isinstance(symbol, sp.Indexed | sp.IndexedBase)
    }


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)


def test_the_source_registers_the_chains() -> None:
    assert ptft_diagonal_networks.SOURCE.derivations == DERIVATIONS
    assert [d.label for d in DERIVATIONS] == ["beta", "min-norm"]
