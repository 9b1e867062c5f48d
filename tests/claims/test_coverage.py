"""Coverage: what accounts for each numbered item of a source's text."""

from __future__ import annotations

import json

from implicit_bias.claims import Basis, Claim, Kind, Reason, Source, Status, Verdict
from implicit_bias.claims.coverage import (
    CoverageStatus,
    coverage_markdown,
    coverage_text,
    source_coverage,
)
from implicit_bias.claims.inventory import Item, ItemKind


def _claim(equation: str, label: str = "a") -> Claim:
    return Claim("note", equation, label, Kind.IDENTITY, "", print, Status.HOLDS)


RANGE = _claim("3-4")
ON_FIVE = _claim("5")
UNDECIDED = _claim("6")
NOT_RUN = _claim("7")
SECTION = _claim("sec-2")
STRAY = _claim("99")
CLAIMS = (RANGE, ON_FIVE, UNDECIDED, NOT_RUN, SECTION, STRAY)
INVENTORY = (
    Item("1", ItemKind.DEFINITION, "Section 1", "the loss", used_by=(ON_FIVE.id,)),
    Item("2", ItemKind.DEFINITION, "Section 1", "notation", not_checked="no use"),
    Item("3", ItemKind.PROOF_STEP, "Section 2"),
    Item("4", ItemKind.PROOF_STEP, "Section 2"),
    Item("5", ItemKind.RESULT, "Section 2"),
    Item("6", ItemKind.RESULT, "Section 2"),
    Item("7", ItemKind.RESULT, "Section 2"),
    Item("8", ItemKind.RESULT, "Section 3", not_checked="garbled: 'x=y z'"),
    Item("9", ItemKind.RESULT, "Section 3"),
    Item("thm-1", ItemKind.RESULT, "Section 2", claims=(SECTION.id,)),
)
NOTE = Source("note", "A note", claims=CLAIMS, inventory=INVENTORY)
VERDICTS = {
    RANGE.id: Verdict.holds("ok", Basis.PROOF),
    ON_FIVE.id: Verdict.fails("no", Basis.PROOF, "x = 1"),
    UNDECIDED.id: Verdict.inconclusive("?", Reason.UNDECIDED),
    SECTION.id: Status.HOLDS,
}


def test_each_item_gets_the_status_of_what_accounts_for_it() -> None:
    report = source_coverage(NOTE, VERDICTS)
    statuses = {c.item.label: c.status for c in report.items}
    assert statuses == {
        "1": CoverageStatus.DEFINITION,
        "2": CoverageStatus.NOT_CHECKABLE,
        # A claim on the range (3)-(4) checks both.
        "3": CoverageStatus.CHECKED,
        "4": CoverageStatus.CHECKED,
        # A fails is a decided verdict.
        "5": CoverageStatus.CHECKED,
        "6": CoverageStatus.UNDECIDED,
        "7": CoverageStatus.NOT_RUN,
        "8": CoverageStatus.NOT_CHECKABLE,
        "9": CoverageStatus.MISSING,
        "thm-1": CoverageStatus.CHECKED,
    }
    by_label = {c.item.label: c for c in report.items}
    assert by_label["5"].claims == ((ON_FIVE.id, "fails"),)
    assert by_label["7"].claims == ((NOT_RUN.id, "not run"),)
    assert by_label["1"].claims == ((ON_FIVE.id, "fails"),)
    assert report.unplaced == (STRAY.id,)
    assert report.missing() == ("9",)


def test_a_claim_decides_an_item_even_when_another_claim_is_undecided() -> None:
    second = _claim("6", "b")
    note = Source("note", "N", claims=(UNDECIDED, second), inventory=INVENTORY[5:6])
    verdicts = {UNDECIDED.id: VERDICTS[UNDECIDED.id], second.id: Status.HOLDS}
    (item,) = source_coverage(note, verdicts).items
    assert item.status == CoverageStatus.CHECKED


def test_counts_share_and_record() -> None:
    report = source_coverage(NOTE, VERDICTS)
    # Definitions are accounted for but are not results to check.
    assert report.counts() == {
        "items": 10,
        "accounted": 9,
        "results_and_steps": 8,
        "checked": 4,
    }
    assert report.summary() == (
        "note: 10 items, 9 accounted for (90.0%), 4 of 8 results and proof "
        "steps checked (50.0%); missing: (9)"
    )
    record = json.loads(json.dumps(report.as_record()))
    assert record["checked"] == 4
    assert record["items"][7]["not_checked"] == "garbled: 'x=y z'"
    assert record["unplaced_claims"] == [STRAY.id]


def test_a_source_without_an_inventory_says_its_coverage_is_unknown() -> None:
    report = source_coverage(Source("note", "N", claims=CLAIMS), VERDICTS)
    assert report.items == ()
    assert report.summary() == "note: no inventory of its text (coverage unknown)"
    assert report.unplaced == ()


def test_an_unnumbered_display_is_an_item_marked_as_such() -> None:
    display = Item(
        "sec-2:display",
        ItemKind.RESULT,
        "Section 2",
        "a display the text does not number",
        claims=(SECTION.id,),
        numbered=False,
    )
    bare = Item("sec-3:remark", ItemKind.RESULT, "Section 3", numbered=False)
    note = Source("note", "N", claims=(SECTION,), inventory=(display, bare))
    report = source_coverage(note, {SECTION.id: Status.HOLDS})
    assert report.unplaced == ()
    assert report.missing() == ("sec-3:remark",)
    assert report.summary().endswith("; missing: [sec-3:remark]")
    text = coverage_text(report)
    assert (
        "    [sec-2:display] (unnumbered) result, checked: note:sec-2:a (holds)" in text
    )
    assert "| [sec-2:display] (unnumbered) | result | checked |" in (
        coverage_markdown(report)
    )
    assert [i["numbered"] for i in report.as_record()["items"]] == [False, False]


def test_a_definition_no_claim_uses_is_missing() -> None:
    unused = Item("1", ItemKind.DEFINITION, "Section 1", "a loss no claim uses")
    note = Source("note", "N", claims=(ON_FIVE,), inventory=(unused,))
    (item,) = source_coverage(note, {}).items
    assert (item.status, item.claims) == (CoverageStatus.MISSING, ())


def test_using_a_definition_does_not_place_a_claim_but_checking_it_does() -> None:
    on_definition = _claim("1", "property")
    user = _claim("9", "user")
    loss = Item(
        "1",
        ItemKind.DEFINITION,
        "Section 1",
        "the loss",
        used_by=(on_definition.id, user.id),
    )
    note = Source("note", "N", claims=(on_definition, user), inventory=(loss,))
    report = source_coverage(note, {})
    assert report.items[0].status == CoverageStatus.DEFINITION
    assert report.unplaced == (user.id,)


def test_checked_items_whose_claims_received_a_mutant_are_mutation_tested() -> None:
    # RANGE checks (3) and (4); SECTION checks thm-1; ON_FIVE (5) fails, decided.
    report = source_coverage(NOTE, VERDICTS, mutated={RANGE.id, UNDECIDED.id})
    assert report.counts()["mutation_tested"] == 2
    tested = {c.item.label for c in report.items if report.mutation_tested(c)}
    # An undecided claim's mutants do not make its item checked, let alone tested.
    assert tested == {"3", "4"}
    assert "4 of 8 results and proof steps checked (50.0%), 2 of them " in (
        report.summary()
    )
    assert "mutation-tested (25.0%)" in report.summary()
    text = coverage_text(report)
    assert "(5) result, checked (no mutant)" in text
    assert "(3) proof step, checked (mutation-tested)" in text
    record = json.loads(json.dumps(report.as_record()))
    assert [i["mutation_tested"] for i in record["items"][2:5]] == [True, True, False]
    # Unknown unless given: no count, no marks.
    plain = source_coverage(NOTE, VERDICTS)
    assert "mutation_tested" not in plain.counts()
    assert "mutation" not in coverage_text(plain)
