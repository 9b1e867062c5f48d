"""The source adaptive-tangent-features: its claims, their order and notation.

The verdicts are tested module by module, in the files named for the
paper's sections (``test_adaptive_tangent_features_<section>.py``).
"""

from __future__ import annotations

import re

import sympy as sp

from implicit_bias.claims.engine import in_paper_order, unique_ids
from implicit_bias.sources.adaptive_tangent_features import (
    CLAIMS,
    SOURCE,
    _POSITIONS,
    _SECTIONS,
    appendix_a,
)
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID

#: Equations and statements of the paper the claims must cover (the brief's
#: scope: (8)-(9), (11)-(12), (17)-(18), Propositions 3-4, Lemma 5 (27)-(29),
#: A.1 (21)-(22), the proof of Proposition 3 and (24)-(26); and (13), (20)).
COVERED = {
    "6",
    "8",
    "9",
    "11",
    "12",
    "13",
    "17-18",
    "20",
    "21",
    "22",
    "23",
    "24",
    "25",
    "26",
    "27",
    "28-29",
    "prop-3",
    "prop-3-proof",
    "prop-4",
    "fig-2",
    "sec-3.1",
}


def test_claims_belong_to_the_source_and_have_unique_ids() -> None:
    claims = SOURCE.all_claims()
    assert {claim.source for claim in claims} == {SOURCE_ID}
    assert len(unique_ids(claims)) == len(claims)


def test_the_claims_are_the_section_modules_in_paper_order() -> None:
    # Every claim lives in the module of its section; the source lists them
    # all, sorted by where the paper prints them.
    by_module = [claim for module in _SECTIONS for claim in module.CLAIMS]
    assert len(by_module) == len(CLAIMS)
    assert in_paper_order(by_module, _POSITIONS) == CLAIMS
    steps = {claim.id for chain in appendix_a.DERIVATIONS for claim in chain.claims}
    assert {claim.id for claim in SOURCE.all_claims()} == (
        {claim.id for claim in by_module} | steps
    )


def test_every_scoped_equation_has_a_claim() -> None:
    assert {claim.equation for claim in SOURCE.all_claims()} >= COVERED


def test_every_claim_has_a_formula_in_paper_notation() -> None:
    glyphs = dict(SOURCE.glyphs)
    for claim in SOURCE.all_claims():
        assert claim.formula is not None, claim.id
        formula = claim.formula()
        symbols = {s for s in formula.free_symbols if not isinstance(s, sp.Indexed)}
        assert symbols <= set(glyphs), (claim.id, symbols - set(glyphs))
        text = sp.latex(formula, symbol_names=glyphs)
        assert not re.search(r"omega_tilde|(?<!\\)beta|_star|_norm|_GD", text), claim.id
