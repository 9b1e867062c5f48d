"""The registry: ids are unique, lookups fail clearly."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.checks import RelationCheck
from implicit_bias.claims.engine import Claim, Reading, Status
from implicit_bias.claims.discovery import shipped_registry
from implicit_bias.claims.registry import claims_for, get_claim


#: Source id -> its claims (chains included), for the sources this package ships.
SOURCES = {s.id: s.all_claims() for s in shipped_registry().sources.values()}


def _shipped_claims() -> list[Claim]:
    """The claims of the sources this package ships (a third party's installed
    source is its author's to keep)."""
    return [claim for claims in SOURCES.values() for claim in claims]


#: Source id -> its glyph map.
GLYPHS = {s.id: dict(s.glyphs) for s in shipped_registry().sources.values()}


def test_ids_are_unique_and_sources_are_paper_stems() -> None:
    claims = _shipped_claims()
    assert len({c.id for c in claims}) == len(claims)
    assert set(SOURCES) == {
        "ptft-relu-penalty",
        "ptft-diagonal-networks",
        "features-are-fate",
        "adaptive-tangent-features",
    }


def test_unknown_source_and_claim_raise_value_error() -> None:
    with pytest.raises(ValueError, match="source='nope' is not registered"):
        claims_for("nope")
    with pytest.raises(ValueError, match="is not registered"):
        get_claim("ptft-relu-penalty:99:nothing")


def test_lookup_round_trips() -> None:
    for claim in _shipped_claims():
        assert get_claim(claim.id) is claim


def test_every_failing_claim_has_a_holding_correction() -> None:
    claims = {claim.id: claim for claim in _shipped_claims()}
    corrected = {claim.corrects for claim in claims.values() if claim.corrects}
    failing = {i for i, claim in claims.items() if claim.expected == Status.FAILS}
    assert failing <= corrected, sorted(failing - corrected)
    for claim in claims.values():
        if claim.corrects:
            original = claims[claim.corrects]
            assert original.source == claim.source, claim.id
            assert original.expected == Status.FAILS, claim.id
            assert claim.expected == Status.HOLDS, claim.id


@pytest.mark.parametrize("source", list(SOURCES))
def test_claims_of_a_source_are_its_own(source: str) -> None:
    assert {claim.source for claim in SOURCES[source]} == {source}


@pytest.mark.parametrize("source", list(SOURCES))
def test_formulas_typeset_every_symbol_by_the_glyph_map(source: str) -> None:
    # Indexed objects (lambda_i) typeset themselves; symbols need a glyph, so
    # no symbol's name carries LaTeX of its own.
    glyphs = set(GLYPHS[source])
    for claim in SOURCES[source]:
        if claim.formula is None:
            continue
        symbols = {s for s in claim.formula().free_symbols if isinstance(s, sp.Symbol)}
        assert symbols <= glyphs, (claim.id, symbols - glyphs)
        assert not any("\\" in s.name or "{" in s.name for s in symbols), claim.id


def test_every_claim_says_how_it_reads_its_source_and_on_what_regime() -> None:
    for claim in _shipped_claims():
        assert claim.reading is not None, claim.id
        assert claim.regime.strip(), claim.id
        # Only a statement beyond the text may have no words of the source.
        if claim.reading != Reading.EXTENSION:
            assert claim.quote.strip(), claim.id


#: Claims whose ledger formula is not the relation their check judges, and why.
_DISPLAYED_OTHERWISE = {
    # The checked relation with its nonzero m_h renamed to the paper's glyph.
    "ptft-relu-penalty:6:divergence-nonzero-m",
    # The checks work in indexed coordinates (beta_1, m_1, beta_11, x_ij) that
    # have no glyph; the ledger shows the equation in the paper's notation.
    "ptft-diagonal-networks:30:l12-total",
    "ptft-diagonal-networks:33:objective",
    "ptft-diagonal-networks:sec-G:pr-trace-forms",
}


def test_a_check_that_takes_its_relation_typesets_that_relation() -> None:
    relation_claims = [
        c for c in _shipped_claims() if isinstance(c.check, RelationCheck)
    ]
    assert len(relation_claims) >= 30
    for claim in relation_claims:
        assert claim.formula is not None
        if claim.id in _DISPLAYED_OTHERWISE:
            continue
        assert claim.formula() == claim.check.relation(), claim.id
