r"""What a source's text numbers: its equations, theorems, lemmas and figures.

A :class:`~implicit_bias.claims.source.Source` declares its text's numbered
items in its ``inventory``, one :class:`Item` each, so that nothing of the
text is silently left out: ``implicit-bias coverage``
(:mod:`implicit_bias.claims.coverage`) says of every item whether a claim
checks it, whether it is a definition and which claims use it, or why it
cannot be checked.

Labels are the ones claims use for their ``equation``: the printed number of
an equation (``"11"``), and ``thm-3.4``, ``lemma-3.3``, ``prop-3``,
``cor-1``, ``fig-1c``, ``sec-E.1`` for the other items.

Examples:
  >>> item = Item("11", ItemKind.RESULT, "Section 1.2", "the PT+FT penalty")
  >>> item.kind
  <ItemKind.RESULT: 'result'>
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from implicit_bias.errors import InvalidArgumentError

__all__ = ["Item", "ItemKind", "equation_numbers"]


class ItemKind(enum.StrEnum):
    """What a numbered item of a text is.

    ``definition``: it introduces a quantity or notation (a loss, a
    penalty's form, a data model); the theory layer encodes it and claims use
    it. ``result``: a statement the text asserts (a theorem, a closed form,
    a figure's finding). ``proof step``: an equation of a derivation or
    proof, between the statement and its conclusion.
    """

    DEFINITION = "definition"
    RESULT = "result"
    PROOF_STEP = "proof step"


_LABEL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.:'_-]*$")


@dataclass(frozen=True)
class Item:
    """One numbered item of a source's text.

    Attributes:
      label: as claims name it in their ``equation``: ``"11"``,
        ``"thm-3.4"``, ``"fig-1c"``.
      kind: definition, result or proof step (:class:`ItemKind`).
      section: where the text prints it (``"Appendix B.2"``).
      what: what it is, in a few words.
      used_by: for a definition, the ids of the claims that use it (a
        definition no claim uses is not accounted for).
      claims: ids of claims that check the item although their ``equation``
        names another label (a claim on a range ``"10-17"`` or a section
        ``"sec-4"``); claims whose ``equation`` is the label, or a range of
        numbers containing it, are found without being named.
      not_checked: why the item cannot be checked ("" when it can): for
        example an equation the text extraction garbled, quoted as it stands;
        then no claim checks or uses it.
      numbered: False for a display or statement the text does not number
        but claims check (``"sec-G:participation-ratio"``), so that every
        claim has an item to account for.
    """

    label: str
    kind: ItemKind
    section: str
    what: str = ""
    used_by: tuple[str, ...] = ()
    claims: tuple[str, ...] = ()
    not_checked: str = ""
    numbered: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.label, str) or not _LABEL.fullmatch(self.label):
            raise InvalidArgumentError(
                f"label: an equation number or a label such as 'thm-3.4', got "
                f"{self.label!r}"
            )
        try:
            object.__setattr__(self, "kind", ItemKind(self.kind))
        except ValueError:
            raise InvalidArgumentError(
                f"Item {self.label}: kind must be one of "
                f"{[str(k) for k in ItemKind]}, got {self.kind!r}"
            ) from None
        if not isinstance(self.section, str) or not self.section.strip():
            raise InvalidArgumentError(
                f"Item {self.label}: section names where the text prints it"
            )
        for name in ("used_by", "claims"):
            ids = getattr(self, name)
            if isinstance(ids, str) or not all(isinstance(i, str) for i in ids):
                raise InvalidArgumentError(
                    f"Item {self.label}: {name} is a tuple of claim ids, got {ids!r}"
                )
            object.__setattr__(self, name, tuple(ids))
        # Coverage reads used_by for a definition only and claims for the
        # rest: the other would be dropped without a word.
        if self.used_by and self.kind != ItemKind.DEFINITION:
            raise InvalidArgumentError(
                f"Item {self.label}: used_by: for a definition; a {self.kind} "
                "names the claims that check it in claims"
            )
        if self.claims and self.kind == ItemKind.DEFINITION:
            raise InvalidArgumentError(
                f"Item {self.label}: claims: for a result or proof step; a "
                "definition names the claims that use it in used_by"
            )
        if not isinstance(self.not_checked, str):
            raise InvalidArgumentError(
                f"Item {self.label}: not_checked is why it cannot be checked "
                f"('' if it can), got {self.not_checked!r}"
            )
        if self.not_checked and (self.claims or self.used_by):
            raise InvalidArgumentError(
                f"Item {self.label}: not_checked says it cannot be checked, yet "
                f"it names claims {list(self.claims + self.used_by)}"
            )


def equation_numbers(equation: str) -> tuple[str, ...]:
    """The equation labels a claim's ``equation`` covers.

    A number is itself; a range of numbers ``"a-b"`` covers a, a + 1, ..., b;
    any other label (``"thm-3.4"``, ``"17'"``) is itself.

    Examples:
      >>> equation_numbers("108-109"), equation_numbers("fig-1c")
      (('108', '109'), ('fig-1c',))
    """
    first, dash, last = equation.partition("-")
    if dash and first.isdigit() and last.isdigit() and int(first) <= int(last):
        return tuple(str(n) for n in range(int(first), int(last) + 1))
    return (equation,)
