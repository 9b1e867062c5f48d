"""The note is registered, quoted faithfully, and its verdicts are the expected ones."""

from __future__ import annotations

from pathlib import Path

import pytest

import balance_note
from implicit_bias.claims import Basis, Claim, Status, discover, run_claims

NOTE = (Path(__file__).parents[1] / "NOTE.md").read_text(encoding="utf-8")
CLAIMS = balance_note.SOURCE.all_claims()


def test_the_entry_point_registers_the_note() -> None:
    registry = discover()
    assert not [e for e in registry.errors if "balance-note" in str(e)]
    assert registry.source("balance-note") is balance_note.SOURCE


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda claim: claim.id)
def test_every_quote_is_the_notes_own_words(claim: Claim) -> None:
    assert claim.quote, claim.id
    assert claim.quote in NOTE, f"{claim.id}: {claim.quote!r} is not in NOTE.md"
    assert f"({claim.equation})" in NOTE, f"{claim.id}: no ({claim.equation})"


def test_the_chain_comes_where_the_note_derives_it() -> None:
    assert [claim.equation for claim in CLAIMS] == ["3", "3", "4", "4'", "6", "8"]


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda claim: claim.id)
def test_every_verdict_is_the_expected_one(claim: Claim) -> None:
    (result,) = run_claims([claim], workers=1)
    assert result.as_expected, result.verdict.detail


def test_the_slip_is_refuted_with_a_certified_counterexample() -> None:
    (slip,) = [c for c in CLAIMS if "slip" in c.id]
    (result,) = run_claims([slip], workers=1)
    assert slip.expected == Status.FAILS
    assert result.verdict.status == Status.FAILS
    assert result.verdict.basis == Basis.CERTIFIED
    assert result.verdict.counterexample
