"""Every claim of ptft-relu-penalty returns the verdict the registry expects."""

from __future__ import annotations

import pytest

from implicit_bias.claims.engine import Claim, Result, Status, run_claims
from implicit_bias.claims.ptft_relu_penalty import derivation, penalty, section_1_2
from implicit_bias.claims.registry import get_claim

# Eqs. (6)-(11) and Section 1.2; the Fig. 1c simulations have their own test file.
CLAIMS = derivation.CLAIMS + penalty.CLAIMS + section_1_2.CLAIMS


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return {r.claim.id: r for r in run_claims([c for c in CLAIMS if not c.slow])}


@pytest.mark.parametrize("claim", [c for c in CLAIMS if not c.slow], ids=lambda c: c.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.verdict.status == claim.expected, result.verdict.detail


def test_every_numbered_equation_6_to_11_has_a_claim() -> None:
    equations = {c.equation for c in CLAIMS}
    assert {"6", "7", "8", "9", "10", "11", "sec-1.2"} <= equations


def test_every_failing_claim_has_a_correction() -> None:
    failing = {c.id for c in CLAIMS if c.expected == Status.FAILS}
    corrected = {c.corrects for c in CLAIMS if c.corrects}
    assert failing == corrected
    for claim in CLAIMS:
        if claim.corrects:
            assert get_claim(claim.corrects).expected == Status.FAILS


def test_counterexample_to_the_unique_root_is_reported_with_roots(
    results: dict[str, Result],
) -> None:
    detail = results["ptft-relu-penalty:10:unique-positive-root"].verdict.detail
    assert "3 positive roots" in detail
    assert detail.count("u=") == 3
