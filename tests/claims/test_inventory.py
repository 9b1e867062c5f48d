"""A source's inventory: its text's numbered items, validated."""

from __future__ import annotations

import pytest

from implicit_bias.claims import Claim, Kind, Source, Status
from implicit_bias.claims.inventory import Item, ItemKind, equation_numbers
from implicit_bias.errors import InvalidArgumentError

CLAIM = Claim("note", "2", "a", Kind.IDENTITY, "", print, Status.HOLDS)


def test_an_item_keeps_its_fields_and_takes_its_kind_by_name() -> None:
    item = Item("thm-3.4", "result", "Section 3", "features", claims=[CLAIM.id])  # type: ignore[arg-type]
    assert item.kind is ItemKind.RESULT
    assert item.claims == (CLAIM.id,)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("", ItemKind.RESULT, "S"), "label"),
        (("(11)", ItemKind.RESULT, "S"), "label"),
        (("11", "lemma", "S"), "kind must be one of"),
        (("11", ItemKind.RESULT, " "), "section"),
    ],
)
def test_a_malformed_item_is_refused(arguments: tuple, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        Item(*arguments)


def test_claim_ids_are_a_tuple_of_strings() -> None:
    with pytest.raises(InvalidArgumentError, match="used_by is a tuple"):
        Item("1", ItemKind.DEFINITION, "S", used_by=CLAIM.id)  # type: ignore[arg-type]
    # A definition may instead say why it cannot be checked.
    assert Item("1", ItemKind.DEFINITION, "S", not_checked="garbled").used_by == ()


def test_a_source_refuses_a_repeated_item_or_an_unknown_claim() -> None:
    result = Item("2", ItemKind.RESULT, "S")
    with pytest.raises(InvalidArgumentError, match="'2' is repeated"):
        Source("note", "N", claims=(CLAIM,), inventory=(result, result))
    stray = Item("1", ItemKind.DEFINITION, "S", used_by=("note:9:z",))
    with pytest.raises(InvalidArgumentError, match=r"not have: \['note:9:z'\]"):
        Source("note", "N", claims=(CLAIM,), inventory=(stray,))
    with pytest.raises(InvalidArgumentError, match="Item objects"):
        Source("note", "N", claims=(CLAIM,), inventory=("2",))  # type: ignore[arg-type]
    assert Source("note", "N", claims=(CLAIM,), inventory=[result]).inventory == (
        result,
    )


@pytest.mark.parametrize(
    ("equation", "labels"),
    [
        ("12", ("12",)),
        ("108-109", ("108", "109")),
        ("10-13", ("10", "11", "12", "13")),
        ("9-7", ("9-7",)),
        ("thm-3.4", ("thm-3.4",)),
        ("17'", ("17'",)),
        ("sec-E.1", ("sec-E.1",)),
    ],
)
def test_a_claims_equation_names_the_labels_it_covers(
    equation: str, labels: tuple[str, ...]
) -> None:
    assert equation_numbers(equation) == labels


def test_an_item_refuses_fields_its_coverage_would_ignore() -> None:
    # Each would be dropped without a word: a result's used_by and a
    # definition's claims are never read, and a reason not to check an item
    # is not shown once claims account for it.
    with pytest.raises(InvalidArgumentError, match="used_by: for a definition"):
        Item("2", ItemKind.RESULT, "S", used_by=(CLAIM.id,))
    with pytest.raises(InvalidArgumentError, match="claims: for a result"):
        Item("1", ItemKind.DEFINITION, "S", claims=(CLAIM.id,))
    for named in ({"claims": (CLAIM.id,)}, {"used_by": (CLAIM.id,)}):
        kind = ItemKind.RESULT if "claims" in named else ItemKind.DEFINITION
        with pytest.raises(InvalidArgumentError, match="not_checked"):
            Item("2", kind, "S", not_checked="garbled", **named)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="not_checked"):
        Item("2", ItemKind.RESULT, "S", not_checked=None)  # type: ignore[arg-type]


def test_a_source_refuses_a_claim_on_an_item_it_says_cannot_be_checked() -> None:
    garbled = Item("2", ItemKind.RESULT, "S", not_checked="garbled")
    with pytest.raises(InvalidArgumentError, match=r"'2'.*note:2:a"):
        Source("note", "N", claims=(CLAIM,), inventory=(garbled,))
    on_range = Claim("note", "1-3", "a", Kind.IDENTITY, "", print, Status.HOLDS)
    with pytest.raises(InvalidArgumentError, match="not_checked"):
        Source("note", "N", claims=(on_range,), inventory=(garbled,))
