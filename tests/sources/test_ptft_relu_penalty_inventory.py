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
# A sentence of Section 1.2 (m_0h = sqrt(m_aux) after pretraining) that a claim
# checks and the text does not number, between eq. (11) and the figure.
UNNUMBERED = ("sec-1.2:pretrained-norm",)


def test_the_inventory_lists_every_numbered_equation_then_the_figure_panels() -> None:
    labels = tuple(item.label for item in SOURCE.inventory)
    assert labels == EQUATIONS + UNNUMBERED + FIGURES
    unnumbered = [item.label for item in SOURCE.inventory if not item.numbered]
    assert tuple(unnumbered) == UNNUMBERED


def test_kinds_follow_the_text() -> None:
    kinds = {item.label: item.kind for item in SOURCE.inventory}
    assert [label for label, kind in kinds.items() if kind == ItemKind.DEFINITION] == [
        "1",
        "2",
        "3",
        "5",
    ]
    assert kinds["11"] == ItemKind.RESULT
    assert kinds["4"] == ItemKind.PROOF_STEP
    assert kinds["sec-1.2:pretrained-norm"] == ItemKind.RESULT
    assert all(kinds[label] == ItemKind.RESULT for label in FIGURES)


def test_every_definition_names_the_claims_that_use_it() -> None:
    claim_ids = {claim.id for claim in SOURCE.all_claims()}
    for item in SOURCE.inventory:
        if item.kind == ItemKind.DEFINITION:
            assert item.used_by, item.label
            assert set(item.used_by) <= claim_ids, item.label


def test_every_claim_accounts_for_an_item() -> None:
    assert source_coverage(SOURCE, {}).unplaced == ()


def test_nothing_is_missing() -> None:
    report = source_coverage(SOURCE, {})
    assert report.missing() == ()
    assert not [item.label for item in SOURCE.inventory if item.not_checked]


def test_the_decomposition_4_is_checked_by_its_claims() -> None:
    report = source_coverage(SOURCE, {})
    (item,) = [c for c in report.items if c.item.label == "4"]
    assert [claim_id for claim_id, _ in item.claims] == [
        "ptft-relu-penalty:4:objective-splits",
        "ptft-relu-penalty:4:unit-decomposition",
    ]
