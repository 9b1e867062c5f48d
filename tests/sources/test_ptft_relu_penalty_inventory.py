"""ptft-relu-penalty's inventory: every numbered item of its text, and its claims."""

from __future__ import annotations

from implicit_bias.claims.coverage import source_coverage
from implicit_bias.claims.inventory import ItemKind
from implicit_bias.sources.ptft_relu_penalty import SOURCE

# The text numbers its equations (1)-(11) without a gap.
EQUATIONS = tuple(str(n) for n in range(1, 12))
# Fig. 1's panels, each referred to by the text ("Fig. 1a", "Fig. 1b", "Fig. 1c");
# it numbers no theorem, lemma, proposition or definition.
FIGURES = ("fig-1a", "fig-1b", "fig-1c")
# Checks a sentence of Section 1.2 (m_0h = sqrt(m_aux) after pretraining) that
# the text does not number.
UNPLACED = ("ptft-relu-penalty:sec-1.2:pretrained-norm",)


def test_the_inventory_lists_every_numbered_equation_then_the_figure_panels() -> None:
    labels = tuple(item.label for item in SOURCE.inventory)
    assert labels == EQUATIONS + FIGURES


def test_kinds_follow_the_text() -> None:
    kinds = {item.label: item.kind for item in SOURCE.inventory}
    assert [label for label, kind in kinds.items() if kind == ItemKind.DEFINITION] == [
        "1",
        "2",
        "3",
        "5",
    ]
    assert kinds["11"] == ItemKind.RESULT
    assert all(kinds[label] == ItemKind.RESULT for label in FIGURES)


def test_every_definition_names_the_claims_that_use_it() -> None:
    claim_ids = {claim.id for claim in SOURCE.all_claims()}
    for item in SOURCE.inventory:
        if item.kind == ItemKind.DEFINITION:
            assert item.used_by, item.label
            assert set(item.used_by) <= claim_ids, item.label


def test_every_claim_but_the_unnumbered_sentence_accounts_for_an_item() -> None:
    assert source_coverage(SOURCE, {}).unplaced == UNPLACED


def test_only_the_unchecked_decomposition_is_missing() -> None:
    report = source_coverage(SOURCE, {})
    assert report.missing() == ("4",)
    assert not [item.label for item in SOURCE.inventory if item.not_checked]
