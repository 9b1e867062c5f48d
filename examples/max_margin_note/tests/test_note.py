"""The note is registered, quoted faithfully, and its verdicts are the expected ones."""

from __future__ import annotations

from pathlib import Path

import pytest

import max_margin_note
from implicit_bias.claims import Basis, Claim, Status, discover, run_claims

NOTE = (Path(__file__).parents[1] / "NOTE.md").read_text(encoding="utf-8")


def test_the_entry_point_registers_the_note() -> None:
    registry = discover()
    assert not [e for e in registry.errors if "max-margin-note" in str(e)]
    assert registry.source("max-margin-note") is max_margin_note.SOURCE


@pytest.mark.parametrize(
    "claim", max_margin_note.SOURCE.all_claims(), ids=lambda claim: claim.id
)
def test_every_quote_is_the_notes_own_words(claim: Claim) -> None:
    assert claim.quote, claim.id
    assert claim.quote in NOTE, f"{claim.id}: {claim.quote!r} is not in NOTE.md"
    equation = claim.equation
    assert f"({equation})" in NOTE, f"{claim.id}: no equation ({equation}) in NOTE.md"


def test_the_slip_is_refuted_with_a_certified_counterexample() -> None:
    (slip,) = [c for c in max_margin_note.SOURCE.all_claims() if "slip" in c.id]
    (result,) = run_claims([slip], workers=1)
    assert slip.expected == Status.FAILS
    assert result.verdict.status == Status.FAILS
    assert result.verdict.basis == Basis.CERTIFIED
    assert result.verdict.counterexample
    assert "ball arithmetic" in result.verdict.counterexample
