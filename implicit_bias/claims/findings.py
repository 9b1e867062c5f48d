r"""Errors a claim's ``fails`` shows in its source: one :class:`Slip` each.

A printed or prose claim that fails accuses the source's authors of an
error. Several claims may show the same slip (a misprinted factor that the
next equation carries along, a formula and the sentence restating it), and
errors differ in weight. A source therefore declares its slips, each with a
:class:`Severity` and a summary saying where and by how much, and each
failing claim names the slip it shows (``Claim.slip``); the docs pages count
distinct slips, ranked, substantive first.

Severity, by the reading and the evidence, never by the basis of the verdict:

* ``substantive``: a wrong result or conclusion -- a theorem, a closed form
  the paper uses later, a claimed behaviour of trained networks, that is false
  on the regime the paper states;
* ``minor``: a wrong proof step, constant or edge case that the conclusion
  survives (the next step or the result is right, or the slip changes no
  claim the paper makes);
* ``typo``: a misprint that the surrounding derivation uses correctly (the
  equations before and after agree with the corrected form).

Our text of each paper is an extraction: a slip that could be an artefact of
the extraction (a lost sign, exponent, transpose or factor where the
surrounding derivation uses the correct form) says so in ``artefact`` and is
not counted among the authors' errors until checked against the typeset
paper.

Examples:
  >>> slip = Slip("factor-2-in-8", Severity.TYPO, "(8) drops a factor 2 that (9) has")
  >>> slip.counted
  True
  >>> Slip("lost-sign-117", Severity.MINOR, "a sign", artefact="as extracted").counted
  False
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from implicit_bias.claims.engine import Basis, Kind, Reading, Status, Verdict
from implicit_bias.errors import InvalidArgumentError

if TYPE_CHECKING:
    from implicit_bias.claims.engine import Claim

__all__ = ["SEVERITY_ORDER", "Severity", "Slip", "errors_markdown"]


class Severity(enum.StrEnum):
    """How much an error in the source matters (see the module docstring)."""

    SUBSTANTIVE = "substantive"
    MINOR = "minor"
    TYPO = "typo"


#: Pages rank slips in this order.
SEVERITY_ORDER = (Severity.SUBSTANTIVE, Severity.MINOR, Severity.TYPO)

_SLIP_ID = re.compile(r"^[a-z0-9][a-z0-9.-]*$")


@dataclass(frozen=True)
class Slip:
    """One error in a source, shown by one or more failing claims.

    Attributes:
      id: a slug, unique in its source; claims name it in ``slip``.
      severity: :class:`Severity`.
      summary: where it is and by how much, in words (the paper's equation
        numbers, the wrong and the right value).
      artefact: why it may be an artefact of the text extraction rather than
        the authors' error ("" when it cannot be); such a slip is listed
        apart and not counted.
    """

    id: str
    severity: Severity
    summary: str
    artefact: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not _SLIP_ID.fullmatch(self.id):
            raise InvalidArgumentError(
                f"id: lower case letters, digits, '.' and '-', got {self.id!r}"
            )
        try:
            object.__setattr__(self, "severity", Severity(self.severity))
        except ValueError:
            raise InvalidArgumentError(
                f"Slip {self.id}: severity must be one of "
                f"{[str(s) for s in Severity]}, got {self.severity!r}"
            ) from None
        if not isinstance(self.summary, str) or not self.summary.strip():
            raise InvalidArgumentError(
                f"Slip {self.id}: summary says where the error is and by how much"
            )

    @property
    def counted(self) -> bool:
        """Whether it counts among the authors' errors (not a possible artefact)."""
        return not self.artefact


def errors_markdown(
    slips: Sequence[Slip], claims: Sequence[Claim], verdicts: Mapping[str, Verdict]
) -> str:
    """The "Errors in the source" section of a source's page, from the records.

    The slips at least one of whose claims fails in ``verdicts`` (a
    simulation failing on its statistics is a non-replication, not an error
    shown), ranked by
    :data:`SEVERITY_ORDER` (then in the order declared), each with the claims
    showing it; then the possible extraction artefacts (not counted); then the
    failing printed or prose claims that name no slip (not yet assessed).

    Args:
      slips: the source's slips.
      claims: its claims, in the paper's order.
      verdicts: a verdict for every claim, by id.
    """
    failing = [c for c in claims if _shows_an_error(c, verdicts[c.id])]
    shown: dict[str, list[Claim]] = {}
    for claim in failing:
        if claim.slip is not None:
            shown.setdefault(claim.slip, []).append(claim)
    ranked = sorted(
        (s for s in slips if s.id in shown),
        key=lambda s: SEVERITY_ORDER.index(s.severity),
    )
    counted = [s for s in ranked if s.counted]
    artefacts = [s for s in ranked if not s.counted]
    unassessed = [c for c in failing if c.slip is None]
    by_severity = ", ".join(
        f"{sum(s.severity == level for s in counted)} {level}"
        for level in SEVERITY_ORDER
    )
    lines = [
        "## Errors in the source",
        "",
        f"{len(counted)} distinct errors ({by_severity}) shown by the "
        f"{len(failing)} printed or prose claims that fail; "
        f"{len(artefacts)} possible extraction artefacts, not counted; "
        f"{len(unassessed)} failing claims whose error is not yet assessed. "
        "Severity: substantive, a wrong result or conclusion; minor, a proof "
        "step, constant or edge case the conclusion survives; typo, a misprint "
        "the surrounding derivation uses correctly.",
        "",
    ]

    def shown_by(slip: Slip) -> str:
        return ", ".join(f"`{_short(c)}`" for c in shown[slip.id])

    lines += [
        f"{rank}. **{slip.severity}** ({slip.id}): {slip.summary} Shown by "
        f"{shown_by(slip)}."
        for rank, slip in enumerate(counted, 1)
    ]
    if artefacts:
        lines += ["", "Possible artefacts of the text extraction (not counted):", ""]
        lines += [
            f"- ({slip.id}, {slip.severity} if the paper prints it): "
            f"{slip.summary} {slip.artefact} Shown by {shown_by(slip)}."
            for slip in artefacts
        ]
    if unassessed:
        lines += [
            "",
            "Not yet assessed: "
            + ", ".join(f"`{_short(c)}`" for c in unassessed)
            + ".",
        ]
    return "\n".join(lines) + "\n"


def _shows_an_error(claim: Claim, verdict: Verdict) -> bool:
    """Whether ``verdict`` on ``claim`` shows an error in the source: a printed
    or prose claim that fails, except a simulation refuted by its statistics,
    a non-replication under our protocol (as
    :func:`implicit_bias.reports.category` files it), not an error shown."""
    return (
        claim.reading in (Reading.PRINTED, Reading.PROSE)
        and verdict.status == Status.FAILS
        and not (claim.kind == Kind.SIMULATION and verdict.basis == Basis.STATISTICAL)
    )


def _short(claim: Claim) -> str:
    return claim.id.removeprefix(claim.source + ":")
