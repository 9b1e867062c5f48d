r"""How much of a source's text its claims check: ``implicit-bias coverage``.

Every item of a source's :attr:`~implicit_bias.claims.source.Source.inventory`
gets one status, from the claims that account for it (those whose
``equation`` is its label or a range of numbers containing it, and those the
item names) and their verdicts:

* ``checked``: one of its claims has a decided verdict (holds or fails);
* ``undecided``: it has claims, and every verdict known is inconclusive;
* ``not run``: it has claims, none with a verdict at hand;
* ``definition``: a definition, with the claims that use it named;
* ``not checkable``: the inventory says why it cannot be checked;
* ``missing``: none of these -- nothing accounts for it.

An item is *accounted for* unless it is missing. The share *checked* is
counted over the results and proof steps (definitions are used, not checked).
Claims whose ``equation`` matches no item are listed apart, so that an
inventory and its claims cannot drift apart unseen.

Examples:
  >>> from implicit_bias.claims import Basis, Claim, Kind, Source, Status, Verdict
  >>> from implicit_bias.claims.inventory import Item, ItemKind
  >>> claim = Claim("note", "2", "a", Kind.IDENTITY, "", print, Status.HOLDS)
  >>> note = Source("note", "A note", claims=(claim,), inventory=(
  ...     Item("1", ItemKind.DEFINITION, "Section 1", "the loss", used_by=(claim.id,)),
  ...     Item("2", ItemKind.RESULT, "Section 1", "its minimum"),
  ...     Item("3", ItemKind.PROOF_STEP, "Section 2", "a step"),
  ... ))
  >>> report = source_coverage(note, {claim.id: Verdict.holds("ok", Basis.PROOF)})
  >>> [(c.item.label, str(c.status)) for c in report.items]
  [('1', 'definition'), ('2', 'checked'), ('3', 'missing')]
  >>> print(report.summary())  # doctest: +NORMALIZE_WHITESPACE
  note: 3 items, 2 accounted for (66.7%), 1 of 2 results and proof steps
  checked (50.0%); missing: (3)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from implicit_bias.claims.engine import Status, Verdict
from implicit_bias.claims.inventory import Item, ItemKind, equation_numbers
from implicit_bias.claims.source import Source

__all__ = [
    "CoverageStatus",
    "ItemCoverage",
    "SourceCoverage",
    "coverage_markdown",
    "coverage_text",
    "source_coverage",
]


class CoverageStatus(enum.StrEnum):
    """What accounts for an item (see the module docstring)."""

    CHECKED = "checked"
    UNDECIDED = "undecided"
    NOT_RUN = "not run"
    DEFINITION = "definition"
    NOT_CHECKABLE = "not checkable"
    MISSING = "missing"


@dataclass(frozen=True)
class ItemCoverage:
    """One item, its status, and the claims behind it with their verdicts.

    Attributes:
      item: the inventory's item.
      status: a :class:`CoverageStatus`.
      claims: (claim id, verdict status or "not run") of the claims that
        check it; for a definition, of the claims that use it.
    """

    item: Item
    status: CoverageStatus
    claims: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class SourceCoverage:
    """A source's coverage: one :class:`ItemCoverage` per inventory item.

    Attributes:
      source: the source's id.
      items: in the inventory's order.
      unplaced: ids of the source's claims that check no item (using a
        definition does not count; none when the source has no inventory).
    """

    source: str
    items: tuple[ItemCoverage, ...]
    unplaced: tuple[str, ...]
    mutated: frozenset[str] | None = None

    def mutation_tested(self, coverage: ItemCoverage) -> bool:
        """Whether a checked item has a decided claim that received a mutant
        (:attr:`mutated`; False when it is not known)."""
        return (
            self.mutated is not None
            and coverage.status == CoverageStatus.CHECKED
            and any(
                claim_id in self.mutated
                for claim_id, status in coverage.claims
                if status in (Status.HOLDS, Status.FAILS)
            )
        )

    def counts(self) -> dict[str, int]:
        """Items, accounted for, results and proof steps, those checked and,
        when :attr:`mutated` is known, those of them mutation-tested."""
        checkable = [c for c in self.items if c.item.kind != ItemKind.DEFINITION]
        counts = {
            "items": len(self.items),
            "accounted": sum(c.status != CoverageStatus.MISSING for c in self.items),
            "results_and_steps": len(checkable),
            "checked": sum(c.status == CoverageStatus.CHECKED for c in checkable),
        }
        if self.mutated is not None:
            counts["mutation_tested"] = sum(map(self.mutation_tested, checkable))
        return counts

    def missing(self) -> tuple[str, ...]:
        """The labels nothing accounts for, in the inventory's order."""
        return tuple(
            c.item.label for c in self.items if c.status == CoverageStatus.MISSING
        )

    def _missing_in_words(self) -> str:
        return ", ".join(
            _label(c.item).removesuffix(" (unnumbered)")
            for c in self.items
            if c.status == CoverageStatus.MISSING
        )

    def summary(self) -> str:
        """One line: items accounted for and results checked, with shares."""
        counts = self.counts()
        if not counts["items"]:
            return f"{self.source}: no inventory of its text (coverage unknown)"

        def share(part: int, whole: int) -> str:
            return f"{100 * part / whole:.1f}%" if whole else "-"

        missing = self._missing_in_words()
        return (
            f"{self.source}: {counts['items']} items, {counts['accounted']} "
            f"accounted for ({share(counts['accounted'], counts['items'])}), "
            f"{counts['checked']} of {counts['results_and_steps']} results and "
            f"proof steps checked "
            f"({share(counts['checked'], counts['results_and_steps'])})"
            + (
                f", {counts['mutation_tested']} of them mutation-tested "
                f"({share(counts['mutation_tested'], counts['results_and_steps'])})"
                if "mutation_tested" in counts
                else ""
            )
            + (f"; missing: {missing}" if missing else "")
        )

    def as_record(self) -> dict[str, object]:
        """The JSON record of ``implicit-bias coverage --json``."""
        return {
            "source": self.source,
            **self.counts(),
            "items": [
                {
                    "label": c.item.label,
                    "numbered": c.item.numbered,
                    "kind": str(c.item.kind),
                    "section": c.item.section,
                    "what": c.item.what,
                    "status": str(c.status),
                    **(
                        {"mutation_tested": self.mutation_tested(c)}
                        if self.mutated is not None
                        else {}
                    ),
                    "claims": [{"id": i, "status": s} for i, s in c.claims],
                    "not_checked": c.item.not_checked,
                }
                for c in self.items
            ],
            "unplaced_claims": list(self.unplaced),
        }


def source_coverage(
    source: Source,
    verdicts: Mapping[str, Verdict | Status],
    mutated: Iterable[str] | None = None,
) -> SourceCoverage:
    """The coverage of ``source``'s inventory by its claims and their verdicts.

    Args:
      source: the source, with its inventory.
      verdicts: claim id -> its verdict (or status); a claim absent from it
        has not been run.
      mutated: the ids of the claims that received at least one mutant
        (``implicit-bias mutate``), if known: a checked item is then
        *mutation-tested* when one of its decided claims is among them.
    """
    claims = source.all_claims()
    by_label: dict[str, list[str]] = {}
    for claim in claims:
        for label in equation_numbers(claim.equation):
            by_label.setdefault(label, []).append(claim.id)

    def status_of(claim_id: str) -> str:
        verdict = verdicts.get(claim_id)
        if verdict is None:
            return str(CoverageStatus.NOT_RUN)
        return str(verdict.status if isinstance(verdict, Verdict) else verdict)

    placed: set[str] = set()
    items = []
    for item in source.inventory:
        if item.kind == ItemKind.DEFINITION:
            ids = list(item.used_by)
        else:
            ids = [*by_label.get(item.label, []), *item.claims]
        ids = list(dict.fromkeys(ids))
        # A claim on the item's own label (a definition's property) or named by
        # it checks it; merely using a definition does not place a claim.
        placed.update(ids if item.kind != ItemKind.DEFINITION else ())
        placed.update(by_label.get(item.label, ()))
        statuses = [status_of(i) for i in ids]
        items.append(
            ItemCoverage(
                item, _status(item, statuses), tuple(zip(ids, statuses, strict=True))
            )
        )
    # Without an inventory nothing is placed: the summary says so once.
    unplaced = tuple(c.id for c in claims if c.id not in placed and items)
    return SourceCoverage(
        source.id,
        tuple(items),
        unplaced,
        None if mutated is None else frozenset(mutated),
    )


def _status(item: Item, statuses: list[str]) -> CoverageStatus:
    if item.kind == ItemKind.DEFINITION and statuses:
        return CoverageStatus.DEFINITION
    if any(s in (Status.HOLDS, Status.FAILS) for s in statuses):
        return CoverageStatus.CHECKED
    if any(s == Status.INCONCLUSIVE for s in statuses):
        return CoverageStatus.UNDECIDED
    if statuses:
        return CoverageStatus.NOT_RUN
    if item.not_checked:
        return CoverageStatus.NOT_CHECKABLE
    return CoverageStatus.MISSING


def _claims_in_words(coverage: ItemCoverage) -> str:
    if coverage.status == CoverageStatus.NOT_CHECKABLE:
        return f"not checkable: {coverage.item.not_checked}"
    used = "used by " if coverage.item.kind == ItemKind.DEFINITION else ""
    return used + ", ".join(f"{i} ({s})" for i, s in coverage.claims)


def coverage_text(report: SourceCoverage) -> str:
    """The report as text: the summary, then each section's items, one a line."""
    lines = [report.summary()]
    section = None
    for coverage in report.items:
        if coverage.item.section != section:
            section = coverage.item.section
            lines += ["", f"  {section}"]
        tested = (
            ""
            if report.mutated is None or coverage.status != CoverageStatus.CHECKED
            else " (mutation-tested)"
            if report.mutation_tested(coverage)
            else " (no mutant)"
        )
        lines.append(
            f"    {_label(coverage.item)} {coverage.item.kind}, "
            f"{coverage.status}{tested}: "
            f"{_claims_in_words(coverage) or coverage.item.what}"
        )
    if report.unplaced:
        lines += ["", f"  claims on no numbered item: {', '.join(report.unplaced)}"]
    return "\n".join(lines)


def coverage_markdown(report: SourceCoverage) -> str:
    """The report as a Markdown section: totals, a table per section, what is
    missing and the claims on no numbered item."""
    counts = report.counts()
    if not counts["items"]:
        return (
            "## Coverage\n\nThis source does not list the numbered items of its "
            "text (`Source.inventory`): how much of it is checked is unknown.\n"
        )
    lines = ["## Coverage", "", report.summary() + ".", ""]
    by_section: dict[str, list[ItemCoverage]] = {}
    for coverage in report.items:
        by_section.setdefault(coverage.item.section, []).append(coverage)
    for section, items in by_section.items():
        checkable = [c for c in items if c.item.kind != ItemKind.DEFINITION]
        checked = sum(c.status == CoverageStatus.CHECKED for c in checkable)
        lines += [
            f"### {section} ({checked} of {len(checkable)} results and proof "
            "steps checked)",
            "",
            "| item | kind | status | what | claims |",
            "| --- | --- | --- | --- | --- |",
        ]
        lines += [
            f"| {_label(c.item)} | {c.item.kind} | {c.status} | "
            f"{_cell(c.item.what)} | {_cell(_claims_in_words(c))} |"
            for c in items
        ]
        lines.append("")
    missing = report._missing_in_words()
    if missing:
        lines += [f"Not accounted for: {missing}.", ""]
    if report.unplaced:
        lines += [
            "Claims on no numbered item: "
            + ", ".join(f"`{i}`" for i in report.unplaced)
            + ".",
            "",
        ]
    return "\n".join(lines)


def _label(item: Item) -> str:
    """``(11)`` for a numbered item, ``[sec-G:pr] (unnumbered)`` otherwise."""
    return f"({item.label})" if item.numbered else f"[{item.label}] (unnumbered)"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
