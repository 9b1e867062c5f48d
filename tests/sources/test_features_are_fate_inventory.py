"""The inventory of features-are-fate: every numbered item of its text.

The extracted text numbers its equations (1)-(159) with no gap: (1)-(21) in
the main text, (22) in Appendix A, (23)-(159) in Appendices B-C. Tags (29)
and (41) stand on empty lines (nothing to check). Beside the equations the
text numbers Assumptions 2.1, 3.1, 3.2, Theorems 2.2 and 3.4-3.9, Lemmas 3.3
and B.1 and Figures 1-7. Sections are not items: the claims labelled
``sec-4`` (the prose of Section 4) are placed on Fig. 4, (153) and the
definitions they use.
"""

from __future__ import annotations

import re

from implicit_bias.claims.coverage import CoverageStatus, source_coverage
from implicit_bias.claims.inventory import ItemKind, equation_numbers
from implicit_bias.sources.features_are_fate import SOURCE

#: The number of numbered equations of the text.
EQUATIONS = 159
#: The numbered items that are not equations, in the text's order.
OTHER_ITEMS = (
    "assumption-2.1",
    "thm-2.2",
    "assumption-3.1",
    "assumption-3.2",
    "lemma-3.3",
    "thm-3.4",
    "thm-3.5",
    "thm-3.6",
    "fig-1",
    "thm-3.7",
    "thm-3.8",
    "fig-2",
    "thm-3.9",
    "fig-3",
    "fig-4",
    "lemma-B.1",
    "fig-5",
    "fig-6",
    "fig-7",
)


def _labels() -> list[str]:
    return [item.label for item in SOURCE.inventory]


def test_equations_are_exactly_one_to_159_in_order() -> None:
    numbers = [label for label in _labels() if label.isdigit()]
    assert numbers == [str(n) for n in range(1, EQUATIONS + 1)]


def test_theorems_lemmas_assumptions_and_figures_are_listed_in_order() -> None:
    assert [label for label in _labels() if not label.isdigit()] == list(OTHER_ITEMS)


def test_items_sit_where_the_text_prints_them() -> None:
    labels = _labels()

    def before(first: str, second: str) -> bool:
        return labels.index(first) < labels.index(second)

    assert before("8", "thm-2.2")
    assert before("thm-2.2", "9")
    assert before("thm-3.6", "10")
    assert before("10", "11")
    assert before("thm-3.9", "16")
    assert before("fig-3", "18")
    assert before("18", "fig-4")
    assert before("fig-4", "19")
    assert before("49", "lemma-B.1")
    assert before("lemma-B.1", "50")
    assert labels[-3:] == ["fig-5", "fig-6", "fig-7"]


def test_every_claim_label_but_the_section_is_an_item() -> None:
    labels = set(_labels()) | {"sec-4"}
    for claim in SOURCE.all_claims():
        assert set(equation_numbers(claim.equation)) <= labels, claim.id


def test_every_claim_accounts_for_an_item() -> None:
    report = source_coverage(SOURCE, {})
    assert report.items
    assert report.unplaced == ()


def test_every_definition_names_its_users() -> None:
    definitions = [i for i in SOURCE.inventory if i.kind == ItemKind.DEFINITION]
    assert definitions
    assert all(item.used_by and not item.not_checked for item in definitions)


def test_theorems_and_figures_are_results() -> None:
    stated = [i for i in SOURCE.inventory if re.match(r"^(thm|lemma|fig)-", i.label)]
    assert [item.label for item in stated] == [
        label for label in OTHER_ITEMS if not label.startswith("assumption-")
    ]
    assert all(item.kind == ItemKind.RESULT for item in stated)


def test_only_the_empty_tags_are_not_checkable() -> None:
    report = source_coverage(SOURCE, {})
    not_checkable = [
        c.item.label for c in report.items if c.status == CoverageStatus.NOT_CHECKABLE
    ]
    assert not_checkable == ["29", "41"]


def test_sections_follow_the_text() -> None:
    sections = {item.label: item.section for item in SOURCE.inventory}
    assert sections["1"] == sections["8"] == "Section 2"
    assert sections["22"] == "Appendix A"
    assert sections["35"] == sections["49"] == "Appendix B.2"
    assert sections["50"] == sections["77"] == "Appendix B.3"
    assert sections["91"] == sections["103"] == "Appendix B.5"
    assert sections["142"] == sections["144"] == "Appendix B.8"
    assert sections["145"] == sections["159"] == "Appendix C"


def test_theorem_2_2_carries_the_claims_on_its_statement_only() -> None:
    # The proof's failing threshold (34:choice-as-printed) would accuse the KL
    # half, which holds; the proof's steps sit on (28) and (31)-(34).
    claims = {
        c.item.label: [claim_id for claim_id, _ in c.claims]
        for c in source_coverage(SOURCE, {}).items
    }
    assert claims["thm-2.2"] == [
        f"{SOURCE.id}:thm-2.2:dudley-as-printed",
        f"{SOURCE.id}:thm-2.2:wasserstein",
        f"{SOURCE.id}:34:choice-corrected",
    ]
    assert f"{SOURCE.id}:34:choice-as-printed" in claims["34"]


def test_definitions_name_only_claims_whose_checks_use_them() -> None:
    used_by = {item.label: item.used_by for item in SOURCE.inventory}
    # D_l is invariant from any initialization: the check does not use (22).
    assert f"{SOURCE.id}:35:conservation-law" not in used_by["22"]
    # (158) has no K_*.
    assert f"{SOURCE.id}:158:normal-equations" not in used_by["155"]
    assert f"{SOURCE.id}:159:pythagoras" in used_by["155"]


def test_appendix_b2_is_accounted_for() -> None:
    # (36)-(40) are the loss-decay chains at L = 2 and 3 (appendix_b2); (42)-(49),
    # the Loewner bounds and the exponential decay, are appendix_b2_bounds'.
    items = {c.item.label: c for c in source_coverage(SOURCE, {}).items}
    b2 = [label for label, c in items.items() if c.item.section == "Appendix B.2"]
    missing = [label for label in b2 if items[label].status == CoverageStatus.MISSING]
    assert missing == []
    for number in range(42, 48):
        claim_ids = [claim_id for claim_id, _ in items[str(number)].claims]
        assert any(claim_id.endswith("-depth-4") for claim_id in claim_ids), number
    assert [claim_id for claim_id, _ in items["48"].claims] == [
        f"{SOURCE.id}:48:as-printed",
        f"{SOURCE.id}:48:decay-bound",
    ]
    assert f"{SOURCE.id}:49:limit" in [claim_id for claim_id, _ in items["49"].claims]
    for number in range(36, 41):
        claim_ids = [claim_id for claim_id, _ in items[str(number)].claims]
        assert claim_ids[:2] == [
            f"{SOURCE.id}:{number}:loss-decay-depth-2-step-{number - 35}",
            f"{SOURCE.id}:{number}:loss-decay-depth-3-step-{number - 35}",
        ]
    assert f"{SOURCE.id}:39:last-layer-gradient" in [
        claim_id for claim_id, _ in items["39"].claims
    ]


def test_appendix_b3_before_its_last_steps_is_accounted_for() -> None:
    # (51)-(72), Lemma B.1 and its proof, are appendix_b3 and
    # appendix_b3_alignment's; (73)-(77) are Theorem 3.4's.
    items = {c.item.label: c for c in source_coverage(SOURCE, {}).items}
    lemma = [str(n) for n in range(50, 73)] + ["lemma-B.1"]
    assert [
        label for label in lemma if items[label].status == CoverageStatus.MISSING
    ] == []
    claim_ids = [claim_id for claim_id, _ in items["70"].claims]
    assert claim_ids == [
        f"{SOURCE.id}:69:alignment-layer-1",
        f"{SOURCE.id}:69:alignment-layer-2",
    ]
