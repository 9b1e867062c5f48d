"""The inventory of adaptive-tangent-features declares every numbered item of its text.

The text numbers its equations (1) to (32) without a gap (eqs. (17)-(18) are
one display on two numbered lines, both listed); it states Theorems 1 and 2,
Propositions 3 and 4 and Lemma 5, defines the lettered Model A, and prints
Figures 1 to 3 (no panel labels: no claim names one).
"""

from __future__ import annotations

import pytest

from implicit_bias.claims.coverage import CoverageStatus, source_coverage
from implicit_bias.claims.inventory import ItemKind
from implicit_bias.sources.adaptive_tangent_features import SOURCE

#: The number of equations the text numbers.
EQUATIONS = 32

#: The numbered (or lettered) items that are not equations, in the text's order.
OTHER_ITEMS = (
    "thm-1",
    "fig-1",
    "model-A",
    "thm-2",
    "prop-3",
    "fig-2",
    "fig-3",
    "prop-4",
    "lemma-5",
)


def _labels() -> list[str]:
    return [item.label for item in SOURCE.inventory]


def test_equations_are_one_to_n_in_order() -> None:
    equations = [label for label in _labels() if label.isdigit()]
    assert equations == [str(n) for n in range(1, EQUATIONS + 1)]


#: Statements the text makes without a number that claims check, last.
UNNUMBERED = (
    "sec-3.1:l1-penalty",
    "sec-3.1:kernel-alignment",
    "prop-3-proof:conjugate",
)


def test_theorems_propositions_lemma_model_and_figures_in_order() -> None:
    others = [label for label in _labels() if not label.isdigit()]
    assert others == [*OTHER_ITEMS, *UNNUMBERED]
    assert [i.label for i in SOURCE.inventory if not i.numbered] == list(UNNUMBERED)


#: (an item, the item the text prints right after it).
NEIGHBOURS = (
    ("7", "thm-1"),
    ("thm-1", "8"),
    ("9", "fig-1"),
    ("fig-1", "model-A"),
    ("model-A", "10"),
    ("13", "thm-2"),
    ("thm-2", "14"),
    ("18", "prop-3"),
    ("prop-3", "fig-2"),
    ("fig-3", "19"),
    ("22", "prop-4"),
    ("prop-4", "23"),
    ("26", "lemma-5"),
    ("lemma-5", "27"),
)


@pytest.mark.parametrize(("first", "second"), NEIGHBOURS)
def test_items_sit_where_the_text_prints_them(first: str, second: str) -> None:
    labels = _labels()
    assert labels.index(second) == labels.index(first) + 1


def test_every_claim_accounts_for_an_item() -> None:
    # Coverage places no claim when there is no inventory at all.
    assert SOURCE.inventory
    assert source_coverage(SOURCE, {}).unplaced == ()


def test_every_definition_names_the_claims_that_use_it() -> None:
    definitions = [i for i in SOURCE.inventory if i.kind == ItemKind.DEFINITION]
    assert [d.label for d in definitions] == [
        "1",
        "3",
        "4",
        "5",
        "6",
        "7",
        "model-A",
        "10",
        "11",
        "12",
    ]
    assert all(d.used_by and not d.not_checked for d in definitions)


def test_proof_steps_are_the_appendix_derivation_lines() -> None:
    steps = [i.label for i in SOURCE.inventory if i.kind == ItemKind.PROOF_STEP]
    assert steps == ["23", "24", "25", "26", "30", "31", "32", "prop-3-proof:conjugate"]
    assert all(
        i.section.startswith("Appendix A")
        for i in SOURCE.inventory
        if i.kind == ItemKind.PROOF_STEP
    )


def test_the_results_theorems_and_lemma_name_their_claims() -> None:
    coverage = {c.item.label: c for c in source_coverage(SOURCE, {}).items}
    for label in (
        "thm-1",
        "thm-2",
        "prop-3",
        "prop-4",
        "lemma-5",
        "fig-1",
        "fig-2",
        "fig-3",
    ):
        assert coverage[label].claims, label
    # Nothing is declared uncheckable, and every item is accounted for:
    # Theorem 2's (14)-(16) and Figure 3 were the last missing.
    assert not any(item.not_checked for item in SOURCE.inventory)
    missing = [
        label for label, c in coverage.items() if c.status == CoverageStatus.MISSING
    ]
    assert missing == []
    for label in ("14", "15", "16", "fig-3"):
        assert coverage[label].claims, label
