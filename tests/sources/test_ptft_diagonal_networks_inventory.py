"""ptft-diagonal-networks' inventory: every numbered item of its text, its claims."""

from __future__ import annotations

from implicit_bias.claims.coverage import source_coverage
from implicit_bias.claims.inventory import ItemKind
from implicit_bias.sources.ptft_diagonal_networks import SOURCE

# Appendices A-G continue the main text's numbering: their equations are
# (6)-(35), N = 30; (1)-(5) are the main text's. No gap: (12) is a bare tag.
EQUATIONS = tuple(str(n) for n in range(6, 36))
# Figs. 4-8; Figs. 5 and 8 by panel (the Appendix E.1 claims check 5a-5f,
# one claim 8a, and 8b-8d are not checkable). The text numbers no theorem, lemma,
# proposition or definition.
FIGURES = (
    "fig-4",
    *(f"fig-5{panel}" for panel in "abcdef"),
    "fig-6",
    "fig-7",
    *(f"fig-8{panel}" for panel in "abcd"),
)
# The text displays the participation ratio and the ENSD of Appendix G
# without a number: two unnumbered items place the claims on them.
UNNUMBERED = ("sec-G:participation-ratio", "sec-G:ensd")
# The sentence between (26) and (27) that a claim checks, unnumbered too.
ONE_BRANCH_ZERO = "sec-B.1:one-branch-zero"


def test_the_inventory_lists_equations_6_to_35_then_the_figures() -> None:
    labels = tuple(item.label for item in SOURCE.inventory)
    after_26 = EQUATIONS.index("27")
    assert labels == (
        *EQUATIONS[:after_26],
        ONE_BRANCH_ZERO,
        *EQUATIONS[after_26:],
        *FIGURES,
        *UNNUMBERED,
    )
    assert [i.label for i in SOURCE.inventory if not i.numbered] == [
        ONE_BRANCH_ZERO,
        *UNNUMBERED,
    ]
    assert len(EQUATIONS) == 30


def test_the_failing_sentence_after_26_is_not_placed_on_27() -> None:
    # The sentence fails while (27), the reduction it justifies, is right: on
    # (27) its verdict would say (27) is wrong.
    claims = {
        c.item.label: [claim_id for claim_id, _ in c.claims]
        for c in source_coverage(SOURCE, {}).items
    }
    one_branch_zero = f"{SOURCE.id}:26:one-branch-zero"
    assert one_branch_zero not in claims["27"]
    assert claims["27"] == [f"{SOURCE.id}:27:wlog-plus-branch"]
    assert claims[ONE_BRANCH_ZERO] == [one_branch_zero]


def test_kinds_follow_the_text() -> None:
    kinds = {item.label: item.kind for item in SOURCE.inventory}
    definitions = [
        label for label, kind in kinds.items() if kind == ItemKind.DEFINITION
    ]
    assert definitions == ["6", "7", "23", "24", "25", "26", "32"]
    assert [label for label in EQUATIONS if kinds[label] == ItemKind.RESULT] == [
        "22",
        "30",
        "35",
    ]
    assert all(kinds[label] == ItemKind.RESULT for label in FIGURES)


def test_every_definition_names_the_claims_that_use_it() -> None:
    claim_ids = {claim.id for claim in SOURCE.all_claims()}
    for item in SOURCE.inventory:
        if item.kind == ItemKind.DEFINITION:
            assert item.used_by, item.label
            assert set(item.used_by) <= claim_ids, item.label


def test_only_the_bare_tag_12_and_figs_7_8d_are_not_checkable() -> None:
    assert [item.label for item in SOURCE.inventory if item.not_checked] == [
        "12",
        "fig-7",
        "fig-8d",
    ]


def test_figs_6_and_8a_are_checked_by_the_relu_cluster_claims() -> None:
    claims = {
        c.item.label: [claim_id for claim_id, _ in c.claims]
        for c in source_coverage(SOURCE, {}).items
    }
    assert claims["fig-6"] == [
        f"{SOURCE.id}:fig-6:{label}"
        for label in (
            "rich-about-six-features",
            "lazy-no-such-bias",
            "alignment-grows-with-samples",
            "highly-aligned",
            "less-sparse-in-between",
        )
    ]
    assert claims["fig-8a"] == [f"{SOURCE.id}:fig-8a:rich-lower-participation-ratio"]
    assert claims["fig-8c"] == [
        f"{SOURCE.id}:fig-8c:ensd-matches-finetuned-pr",
        f"{SOURCE.id}:fig-8c:ensd-matches-finetuned-pr-rich",
        f"{SOURCE.id}:fig-8c:small-scaling-lower-pr",
    ]


def test_every_claim_accounts_for_an_item() -> None:
    assert source_coverage(SOURCE, {}).unplaced == ()


def test_every_item_is_accounted_for() -> None:
    assert source_coverage(SOURCE, {}).missing() == ()
