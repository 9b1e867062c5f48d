r"""Generated documentation: verdict records, one Markdown page per source, the API.

``implicit-bias docs --output docs/`` writes, for every source asked for
(``--source``, ``--file``, ``--module``; every registered one if none is),

* ``docs/verdicts/<source>.json`` -- the verdict and evidence of each claim,
  as its check returned them (the records of ``implicit-bias verify --json``,
  reduced to ``id``, ``status`` and ``detail``);
* ``docs/<source>.md`` -- the hand-written preface ``docs/prefaces/<source>.md``
  (if there is one), then every claim in the paper's order: its id, equation,
  statement, formula (:func:`sympy.latex` in the paper's glyphs, between
  ``$$``), verdict and evidence;

and, with ``--api``, ``docs/api.md``: every name in every ``__all__`` of the
toolkit with its signature and the first line of its docstring (the
toolkit's own reference, which a user's docs folder has no need of).

A page is a pure function of the registry, its preface and its verdict
record, so :func:`stale_docs` can tell, without running a single check,
whether the committed pages are what the code would generate. Only the
evidence needs the checks to run; it is recorded once, when the pages are
generated, and ``implicit-bias verify`` re-checks it at any time.
"""

from __future__ import annotations

import ast
import enum
import importlib
import inspect
import json
import pkgutil
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from implicit_bias.claims.coverage import coverage_markdown, source_coverage
from implicit_bias.claims.findings import errors_markdown
from implicit_bias.claims.profiles import Configuration
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Reason,
    Result,
    Status,
    Verdict,
    run_claims,
)
from implicit_bias.claims.mutate import ClaimMutations, Outcome
from implicit_bias.claims.cache import VerdictCache, run_claims_cached
from implicit_bias.claims.discovery import default_registry
from implicit_bias.claims.source import Citation
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.latex import equation_references, formula_latex, split_math

__all__ = [
    "CATEGORIES",
    "COMMAND",
    "api_page",
    "category",
    "escape_markdown",
    "gather_verdicts",
    "mutation_page",
    "mutation_summary",
    "public_modules",
    "read_verdicts",
    "source_page",
    "stale_docs",
    "text_markdown",
    "verdicts_json",
    "write_docs",
]

#: The command that regenerates every page, as the pages cite it.
COMMAND = "implicit-bias docs --output docs/"

_STATUSES = {str(status): status for status in Status}
_REASONS = {str(reason): reason for reason in Reason}
_BASES = {str(basis): basis for basis in Basis}


# --- verdict records


def read_verdicts(paths: Iterable[str | Path]) -> dict[str, Verdict]:
    """The verdicts recorded in JSON files, by claim id; the first file wins.

    Each file holds a list of records with at least ``id``, ``status`` and
    ``detail``: the output of ``implicit-bias verify --json`` or a
    ``docs/verdicts/<source>.json``.

    Raises:
      InvalidArgumentError: a file is not such a list.
    """
    verdicts: dict[str, Verdict] = {}
    for path in paths:
        try:
            records = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            raise InvalidArgumentError(
                f"verdicts={str(path)!r} cannot be read as JSON: {error}"
            ) from error
        if not isinstance(records, list):
            raise InvalidArgumentError(
                f"verdicts={str(path)!r} holds a {type(records).__name__}; "
                "expected a list of records (implicit-bias verify --json)"
            )
        for record in records:
            if not (
                isinstance(record, dict)
                and isinstance(record.get("id"), str)
                and record.get("status") in _STATUSES
                and isinstance(record.get("detail"), str)
            ):
                raise InvalidArgumentError(
                    f"verdicts={str(path)!r} has the record {record!r}; a record "
                    "needs an id, a status in "
                    f"{sorted(_STATUSES)} and a detail string"
                )
            verdicts.setdefault(record["id"], _recorded_verdict(path, record))
    return verdicts


def _recorded_verdict(path: str | Path, record: dict[str, Any]) -> Verdict:
    status = _STATUSES[record["status"]]
    basis = record.get("basis")
    if basis is not None and basis not in _BASES:
        raise InvalidArgumentError(
            f"verdicts={str(path)!r} has the record {record['id']!r} with basis "
            f"{basis!r}; expected one of {sorted(_BASES)}"
        )
    if status != Status.INCONCLUSIVE:
        if basis is None:
            raise InvalidArgumentError(
                f"verdicts={str(path)!r} has the record {record['id']!r}, a "
                f"{status} without a basis (written before verdicts carried "
                "one): record it again with `implicit-bias verify --json`"
            )
        try:
            return Verdict(
                status,
                record["detail"],
                basis=_BASES[basis],
                counterexample=record.get("counterexample"),
                point=record.get("counterexample_point"),
            )
        except InvalidArgumentError as error:
            raise InvalidArgumentError(
                f"verdicts={str(path)!r} has the record {record['id']!r} with "
                f"counterexample_point {record.get('counterexample_point')!r}: "
                f"{error}"
            ) from error
    # Records written before verdicts carried a reason say only "inconclusive".
    reason = record.get("reason") or Reason.UNDECIDED.value
    if reason not in _REASONS:
        raise InvalidArgumentError(
            f"verdicts={str(path)!r} has the record {record['id']!r} with reason "
            f"{reason!r}; expected one of {sorted(_REASONS)}"
        )
    return Verdict.inconclusive(
        record["detail"], _REASONS[reason], None if basis is None else _BASES[basis]
    )


def gather_verdicts(
    claims: Sequence[Claim],
    recorded: Mapping[str, Verdict],
    *,
    run: bool,
    quick: bool = False,
    workers: int | None = None,
    on_result: Callable[[Result, int, int], None] | None = None,
    cache: VerdictCache | None = None,
) -> dict[str, Verdict]:
    """The verdict of each claim: recorded if it is, else checked now if ``run``.

    Args:
      claims: the claims wanted.
      recorded: verdicts already known, by claim id (see :func:`read_verdicts`).
      run: check the claims that have no recorded verdict.
      quick: do not check slow claims (they keep only a recorded verdict).
      workers, on_result: passed to :func:`~implicit_bias.claims.run_claims`.
      cache: if given, claims whose code is unchanged take their verdict from
        it, and the verdicts of those run are stored in it.

    Returns:
      Claim id -> verdict, for the claims that have one; without ``run`` some
      may be missing.
    """
    verdicts = {c.id: recorded[c.id] for c in claims if c.id in recorded}
    if run:
        missing = [c for c in claims if c.id not in verdicts and not (quick and c.slow)]
        if cache is None:
            results = run_claims(missing, workers=workers, on_result=on_result)
        else:
            results, _ = run_claims_cached(
                missing,
                cache,
                workers=workers,
                on_result=(
                    None
                    if on_result is None
                    else lambda result, done, total, cached: on_result(
                        result, done, total
                    )
                ),
            )
        for result in results:
            verdicts[result.claim.id] = result.verdict
    return verdicts


def verdicts_json(claims: Sequence[Claim], verdicts: Mapping[str, Verdict]) -> str:
    """The verdict record of ``claims`` (in their order) as committed JSON text."""
    records = []
    for claim in claims:
        verdict = verdicts[claim.id]
        record: dict[str, Any] = {"id": claim.id, "status": str(verdict.status)}
        if verdict.reason is not None:
            record["reason"] = str(verdict.reason)
        if verdict.basis is not None:
            record["basis"] = str(verdict.basis)
        if verdict.counterexample is not None:
            record["counterexample"] = verdict.counterexample
        if verdict.point is not None:
            record["counterexample_point"] = dict(verdict.point)
        record["detail"] = verdict.detail
        records.append(record)
    return json.dumps(records, indent=2) + "\n"


# --- what a verdict says about the source

#: The categories of :func:`category`, in the order the pages list them.
CATEGORIES = {
    "error in the source": "printed or prose claims that fail: an error in the "
    "source, shown by a counterexample",
    "non-replication": "simulations whose statistics do not reproduce a printed "
    "or prose claim under our protocol (failing or undecided by them)",
    "reading that does not hold": "our interpretations of the text that fail",
    "extension": "statements beyond the text (other domains, corrected forms, "
    "consequences the source does not draw)",
    "confirmed": "printed, prose and interpreted claims that hold",
    "undecided": "printed, prose and interpreted claims no check could decide",
}


def category(claim: Claim, verdict: Verdict) -> str:
    """Which of :data:`CATEGORIES` a claim's verdict belongs to.

    A simulation's statistical verdict (a ``fails`` on a statistical basis,
    or undecided by the statistics) on a printed or prose claim is a
    non-replication under our protocol; a ``fails`` from converged
    deterministic runs or a proof is an error in the source, whatever the
    kind of claim; an ``extension`` is one whatever its verdict.
    """
    reading = claim.reading
    if reading == Reading.EXTENSION:
        return "extension"
    if (
        reading in (Reading.PRINTED, Reading.PROSE)
        and claim.kind == Kind.SIMULATION
        and (
            verdict.reason == Reason.STATISTICAL
            or (verdict.status == Status.FAILS and verdict.basis == Basis.STATISTICAL)
        )
    ):
        return "non-replication"
    if verdict.status == Status.FAILS:
        return (
            "reading that does not hold"
            if reading == Reading.INTERPRETATION
            else "error in the source"
        )
    if verdict.status == Status.HOLDS:
        return "confirmed"
    return "undecided"


# --- Markdown pages of the sources

# Characters that start emphasis, code, links, HTML, math or strikethrough
# anywhere in a line; the others matter only at its start (below).
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]<$~])")


def escape_markdown(text: str) -> str:
    r"""``text`` with Markdown's (and GitHub's math) special characters escaped.

    Examples:
      >>> escape_markdown("m_h * x <= $5")
      'm\\_h \\* x \\<= \\$5'
      >>> escape_markdown("- 1")
      '\\- 1'
      >>> escape_markdown("2. x")
      '2\\. x'
    """
    escaped = _MARKDOWN_SPECIALS.sub(r"\\\1", text)
    # A leading "-", "+", ">", "#" or "1." would start a list, quote or heading.
    escaped = re.sub(r"^([-+>#])", r"\\\1", escaped, flags=re.MULTILINE)
    return re.sub(r"^([0-9]+)\.", r"\1\\.", escaped, flags=re.MULTILINE)


def text_markdown(text: str) -> str:
    r"""An author's text (a statement, a quote, a regime) for a page: its
    ``$...$`` mathematics as written, which GitHub renders, the rest escaped
    (:func:`escape_markdown`); the rule is
    :func:`~implicit_bias.latex.split_math`'s.

    Examples:
      >>> text_markdown(r"$\hat\beta_s$ fits m_h * x")
      '$\\hat\\beta_s$ fits m\\_h \\* x'
    """
    return "".join(
        f"${piece}$" if is_math else escape_markdown(piece)
        for is_math, piece in split_math(text)
    )


def _short_id(claim: Claim) -> str:
    return f"{claim.equation}:{claim.label}"


_LABEL_WORDS = {
    "sec-": "Section",
    "app-": "Appendix",
    "thm-": "Theorem",
    "prop-": "Proposition",
    "lemma-": "Lemma",
    "cor-": "Corollary",
    "def-": "Definition",
    "fig-": "Figure",
}


def _equation_words(equation: str) -> str:
    for prefix, word in _LABEL_WORDS.items():
        if equation.startswith(prefix):
            return f"{word} {equation.removeprefix(prefix)}"
    return f"eq. ({equation})"


def _summary(claims: Sequence[Claim], verdicts: Mapping[str, Verdict]) -> str:
    statuses = [verdicts[c.id].status for c in claims]
    corrected = {c.corrects for c in claims if c.corrects is not None}
    failing = [c for c in claims if verdicts[c.id].status == Status.FAILS]
    with_correction = sum(1 for c in failing if c.id in corrected)
    parts = [
        f"{len(claims)} claims: {statuses.count(Status.HOLDS)} hold, "
        f"{len(failing)} fail ({with_correction} of them with a "
        f"corrected claim beside them), "
        f"{statuses.count(Status.INCONCLUSIVE)} inconclusive"
    ]
    unexpected = [
        c
        for c in claims
        if (verdicts[c.id].status, verdicts[c.id].reason)
        != (c.expected, c.expected_reason)
    ]
    if unexpected:
        parts.append(
            f"{len(unexpected)} NOT AS EXPECTED: "
            + ", ".join(f"`{_short_id(c)}`" for c in unexpected)
        )
    else:
        parts.append("every verdict as the registry expects")
    return "; ".join(parts) + "."


def _categories(claims: Sequence[Claim], verdicts: Mapping[str, Verdict]) -> list[str]:
    groups: dict[str, list[Claim]] = {name: [] for name in CATEGORIES}
    for claim in claims:
        groups[category(claim, verdicts[claim.id])].append(claim)
    lines = ["## By what the verdicts say about the source", ""]
    for name, meaning in CATEGORIES.items():
        members = groups[name]
        named = ", ".join(
            f"`{_short_id(c)}` ({verdicts[c.id].status})" for c in members
        )
        listed = f": {named}" if members and name != "confirmed" else ""
        lines.append(f"- **{name}** ({len(members)}), {meaning}{listed}.")
    return [*lines, ""]


def _claim_section(
    claim: Claim,
    verdict: Verdict,
    reference: str,
    corrected_by: Sequence[Claim],
) -> list[str]:
    status = str(verdict.status)
    if verdict.reason is not None:
        status += f" ({verdict.reason})"
    if (verdict.status, verdict.reason) != (claim.expected, claim.expected_reason):
        wanted = str(claim.expected) + (
            "" if claim.expected_reason is None else f" ({claim.expected_reason})"
        )
        status += f" (NOT AS EXPECTED: the registry expects {wanted})"
    facts = [f"`{claim.id}`", _equation_words(claim.equation), str(claim.kind)]
    if claim.reading is not None:
        facts.append(f"reading: {claim.reading}")
    if verdict.basis is not None:
        facts.append(f"basis: {verdict.basis}")
    if claim.slow:
        facts.append("slow (skipped by `verify --quick`)")
    if claim.corrects is not None:
        facts.append(f"corrects `{claim.corrects.removeprefix(claim.source + ':')}`")
    if corrected_by:
        facts.append(
            "corrected by " + ", ".join(f"`{_short_id(c)}`" for c in corrected_by)
        )
    lines = [
        f"### ({reference}) `{_short_id(claim)}`: {status}",
        "",
        " · ".join(facts),
        "",
        text_markdown(claim.statement),
        "",
    ]
    if claim.quote:
        lines += ["> " + text_markdown(" ".join(claim.quote.split())), ""]
    if claim.regime:
        lines += [f"Regime: {text_markdown(claim.regime)}", ""]
    formula = formula_latex(claim)
    if formula is not None:
        lines += ["$$", formula, "$$", ""]
    if claim.assumptions:
        lines += [
            "Assumptions: " + "; ".join(map(text_markdown, claim.assumptions)),
            "",
        ]
    if verdict.counterexample is not None:
        lines += [f"Counterexample: {escape_markdown(verdict.counterexample)}", ""]
    point = verdict.shown_point(default_registry().glyphs(claim.source), latex=True)
    if point is not None:
        lines += [f"Counterexample point: {point}", ""]
    lines += [f"Evidence: {escape_markdown(verdict.detail)}", ""]
    if claim.paper is not None:
        lines += _paper_lines(claim.paper)
    return lines


def _paper_lines(configuration: Configuration) -> list[str]:
    """What ``verify --profile paper`` runs instead, and the verdict it has there."""
    expected = str(configuration.expected) + (
        ""
        if configuration.expected_reason is None
        else f" ({configuration.expected_reason})"
    )
    whose = (
        "the source's" if configuration.from_source else "ours (the source gives none)"
    )
    lines = [
        f"At the paper's size (`verify --profile paper`; configuration {whose}): "
        f"{expected}. {escape_markdown(configuration.description)}",
        "",
    ]
    if configuration.power is not None:
        lines += [f"Seeds: {escape_markdown(configuration.power.describe())}.", ""]
    return lines


def _cited(citation: Citation | None) -> str:
    return "An unpublished note." if citation is None else citation.text()


def _load_option(origin: str) -> str:
    """The option that loads a source registered from ``origin`` (none for an
    installed entry point)."""
    for kind in ("file", "module"):
        if origin.startswith(f"{kind} "):
            return f" --{kind} {origin.removeprefix(kind + ' ')}"
    return ""


def source_page(
    source: str,
    claims: Sequence[Claim],
    verdicts: Mapping[str, Verdict],
    *,
    preface: str | None = None,
) -> str:
    """The Markdown page of one source.

    Args:
      source: the source id.
      claims: its claims, in the paper's order.
      verdicts: a verdict for every claim, by id.
      preface: hand-written Markdown placed after the title (no title of its own).

    Raises:
      InvalidArgumentError: a claim has no verdict or belongs to another source.
    """
    for claim in claims:
        if claim.source != source:
            raise InvalidArgumentError(
                f"claims holds {claim.id!r}, which is not of source={source!r}"
            )
    missing = [c.id for c in claims if c.id not in verdicts]
    if missing:
        raise InvalidArgumentError(
            f"verdicts has no verdict for {', '.join(missing)}: run the checks "
            f"(`{COMMAND}`) or pass their records"
        )
    references = equation_references(claims)
    lines = [
        f"<!-- Generated by `{COMMAND}` from the claims of {source}, "
        f"docs/prefaces/{source}.md and docs/verdicts/{source}.json. Do not edit: "
        "edit those and regenerate. -->",
        "",
        f"# {source}: what holds and what does not",
        "",
    ]
    registry = default_registry()
    record = registry.sources.get(source)
    if record is not None:
        lines += [f"**{record.title}.** " + _cited(record.citation), ""]
        if record.citation is not None and record.citation.version_note:
            lines += [record.citation.version_note, ""]
    if preface is not None and preface.strip():
        lines += [preface.strip(), ""]
    elif record is not None and record.description:
        lines += [record.description, ""]
    load = _load_option(registry.origins.get(source, ""))
    lines += [
        "## Reproduce",
        "",
        "```bash",
        f"implicit-bias verify{load} --source {source}  # verdicts and evidence",
        f"implicit-bias verify{load} --source {source} --quick  # no slow claims",
        f"implicit-bias latex{load} --source {source} --output {source}.tex"
        "  # the ledger, as LaTeX",
        f"implicit-bias docs{load} --source {source} --output docs/  # this page",
        "```",
        "",
        "## Every claim",
        "",
        _summary(claims, verdicts),
        "",
        *_categories(claims, verdicts),
        *(
            [
                errors_markdown(record.slips, claims, verdicts),
                coverage_markdown(source_coverage(record, verdicts)),
            ]
            if record is not None
            else []
        ),
        "## Claim by claim",
        "",
        "Each claim is headed by its reference in the LaTeX ledger (the paper's "
        "equation number, with a letter where several claims share it), its id "
        "within the source and its verdict; then its reading of the source "
        "(printed, prose, interpretation or extension), the basis of the "
        "verdict (proof, certified, numerical, statistical or search), the "
        "source's words it encodes (quoted) and the regime it is checked on. "
        "The evidence is what the check "
        f"returned when this page was generated (recorded in "
        f"`docs/verdicts/{source}.json`).",
        "",
    ]
    for claim in claims:
        corrected_by = [c for c in claims if c.corrects == claim.id]
        lines += _claim_section(
            claim, verdicts[claim.id], references[claim.id], corrected_by
        )
    return "\n".join(lines).rstrip("\n") + "\n"


# --- mutation testing


def mutation_summary(reports: Sequence[ClaimMutations]) -> dict[str, dict[str, int]]:
    """Counts per source: symbolic mutants by outcome, and biased comparisons.

    Keys of each source's counts: ``claims``, ``relation_claims`` (claims
    whose check takes its relation), ``mutants``, one per
    :class:`~implicit_bias.claims.mutate.Outcome`, ``bias_claims`` (claims
    whose comparisons were shifted), ``detected_5x`` and ``detected_2x``
    (of them, those whose verdict changed under both signs of the shift).
    """
    counts: dict[str, dict[str, int]] = {}
    for report in reports:
        source = counts.setdefault(
            report.source,
            dict.fromkeys(
                (
                    "claims",
                    "relation_claims",
                    "mutants",
                    Outcome.KILLED,
                    Outcome.UNDECIDED,
                    Outcome.EQUIVALENT,
                    Outcome.SURVIVED,
                    "bias_claims",
                    "detected_5x",
                    "detected_2x",
                ),
                0,
            ),
        )
        source["claims"] += 1
        source["relation_claims"] += bool(report.symbolic)
        source["mutants"] += len(report.symbolic)
        for outcome in report.symbolic:
            source[outcome.outcome] += 1
        if report.bias:
            source["bias_claims"] += 1
            for factor, key in ((5, "detected_5x"), (2, "detected_2x")):
                shifted = [o for o in report.bias if abs(o.factor or 0) == factor]
                # The shift is the only change: any verdict but holds noticed it.
                source[key] += all(o.outcome != Outcome.SURVIVED for o in shifted)
    return counts


def _rate(killed: int, total: int) -> str:
    return f"{100 * killed / total:.1f}%" if total else "-"


def mutation_page(reports: Sequence[ClaimMutations], *, command: str) -> str:
    """The Markdown report of ``implicit-bias mutate``: rates, then survivors.

    Args:
      reports: the outcomes, one per claim.
      command: the command that produced them, quoted in the page.
    """
    lines = [
        f"<!-- Generated by `{command}`. Do not edit: run it again. -->",
        "",
        "# Mutation testing: can each check fail?",
        "",
        "Each claim whose check takes its relation as input is judged again "
        "on altered copies of that relation (a constant times 1 +- 1e-3 or "
        "+- 1, a term's sign flipped or the term dropped, an exponent +- 1, "
        "two symbols of equal assumptions swapped); a mutant is *killed* "
        "when the check says `fails`, *undecided* when the check is "
        "inconclusive on it (not counted as killed), *equivalent* when SymPy "
        "shows the mutant true by itself (no sound check could kill it), and "
        "*survives* otherwise. Numeric "
        "and simulation claims deciding through `check_close` are run with "
        "the compared value shifted by +-2 and +-5 times the tolerance; a "
        "shift is detected when the claim's verdict is no longer `holds`. "
        "A claim's mutants are judged within a CPU budget (`--claim-seconds`) "
        "in an order spread over its relations; those it leaves are not "
        "counted, and the claim is listed as mutation-tested in part.",
        "",
        f"Produced by `{command}`.",
        "",
        "| source | claims | with a relation | mutants | killed | undecided | "
        "equivalent | survived | kill rate | bias-tested | 5x detected | "
        "2x detected |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for source, c in mutation_summary(reports).items():
        decided = c["mutants"] - c[Outcome.EQUIVALENT]
        lines.append(
            f"| {source} | {c['claims']} | {c['relation_claims']} | "
            f"{c['mutants']} | {c[Outcome.KILLED]} | {c[Outcome.UNDECIDED]} | "
            f"{c[Outcome.EQUIVALENT]} | {c[Outcome.SURVIVED]} | "
            f"{_rate(c[Outcome.KILLED], decided)} | {c['bias_claims']} | "
            f"{c['detected_5x']} | {c['detected_2x']} |"
        )
    lines += [
        "",
        "The kill rate is killed / (mutants - equivalent).",
        "",
        "## Survivors and undetected shifts",
        "",
    ]
    # An undecided mutant is not counted as killed; a shifted comparison that
    # leaves holds for any other verdict has been noticed.
    weak = [
        (report, outcome)
        for report in reports
        for outcome in report.symbolic
        if outcome.outcome in (Outcome.SURVIVED, Outcome.UNDECIDED)
    ] + [
        (report, outcome)
        for report in reports
        for outcome in report.bias
        if outcome.outcome == Outcome.SURVIVED
    ]
    if not weak:
        lines += ["None.", ""]
    for report, outcome in weak:
        lines.append(
            f"- `{report.claim_id}` ({outcome.outcome}): "
            f"{escape_markdown(outcome.description)} -- "
            f"{escape_markdown(outcome.detail[:300])}"
        )
    # A note on a claim with outcomes says what part of it was left out.
    in_part = [r for r in reports if r.note and (r.symbolic or r.bias)]
    not_run = [r for r in reports if r.note and not (r.symbolic or r.bias)]
    for heading, listed in (
        ("Claims mutation-tested in part", in_part),
        ("Claims not mutation-tested", not_run),
    ):
        if listed:
            lines += ["", f"## {heading}", ""]
            lines += [f"- `{r.claim_id}`: {escape_markdown(r.note)}" for r in listed]
    return "\n".join(lines).rstrip("\n") + "\n"


# --- the API reference


def public_modules() -> list[types.ModuleType]:
    """Every module of :mod:`implicit_bias` that declares ``__all__``, by name."""
    package = importlib.import_module("implicit_bias")
    names = [package.__name__] + [
        info.name
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
    ]
    modules = [importlib.import_module(name) for name in sorted(names)]
    return [module for module in modules if hasattr(module, "__all__")]


def _markdown_roles(text: str) -> str:
    r"""reStructuredText roles as GitHub Markdown: ``:math:`x``` is ``$x$``,
    which GitHub renders as mathematics; ``:func:``, ``:class:``, ``:mod:``
    (and the other cross-reference roles) and double-backquoted literals
    are code, a ``~`` prefix keeping the last dotted name as Sphinx does.

    Examples:
      >>> _markdown_roles(r"Decide :math:`x \le y` with :func:`~a.b.check`.")
      'Decide $x \\le y$ with `check`.'
    """
    text = re.sub(r":math:`([^`]+)`", r"$\1$", text)

    def code(match: re.Match[str]) -> str:
        target = match.group(1)
        if target.startswith("~"):
            target = target[1:].rsplit(".", 1)[-1]
        return f"`{target}`"

    text = re.sub(
        r":(?:py:)?(?:func|class|mod|meth|attr|data|exc|obj):`([^`]+)`", code, text
    )
    return re.sub(r"``([^`]+)``", r"`\1`", text)


def _first_line(text: str | None) -> str:
    lines = [line.strip() for line in (text or "").strip().splitlines()]
    if not lines:
        return ""
    first = lines[0]
    # A formula that runs on to the next lines is taken whole.
    for line in lines[1:]:
        if not re.search(r":math:`[^`]*$", first):
            break
        first += " " + line
    return _markdown_roles(first)


def _defined_names(module: types.ModuleType) -> dict[str, tuple[str, str]]:
    """Names bound at module level -> (their ``#:`` doc, the assigned source text)."""
    try:
        source = inspect.getsource(module)
    except (OSError, TypeError):
        return {}
    lines = source.splitlines()
    names: dict[str, tuple[str, str]] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names[node.name] = ("", "")
            continue
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        comment: list[str] = []
        row = node.lineno - 2
        while row >= 0 and lines[row].lstrip().startswith("#:"):
            comment.insert(0, lines[row].lstrip().removeprefix("#:").strip())
            row -= 1
        value = getattr(node, "value", None)
        text = (ast.get_source_segment(source, value) or "") if value else ""
        for target in targets:
            if isinstance(target, ast.Name):
                names[target.id] = (" ".join(comment), " ".join(text.split()))
    return names


class _Annotation(str):
    """A string annotation that prints without quotes in a signature."""

    def __repr__(self) -> str:
        return str(self)


def _signature(value: Any) -> str | None:
    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError):
        return None

    def plain(annotation: Any) -> Any:
        if isinstance(annotation, typing.ForwardRef):
            annotation = annotation.__forward_arg__
        return _Annotation(annotation) if isinstance(annotation, str) else annotation

    signature = signature.replace(
        parameters=[
            parameter.replace(annotation=plain(parameter.annotation))
            for parameter in signature.parameters.values()
        ],
        return_annotation=plain(signature.return_annotation),
    )
    # Object reprs carry memory addresses, which change from run to run.
    return re.sub(r" at 0x[0-9a-fA-F]+", "", str(signature))


def _entry(name: str, value: Any, comment: str, assigned: str) -> str:
    if inspect.ismodule(value):
        return f"- module `{name}` (`{value.__name__}`): {_first_line(value.__doc__)}"
    if inspect.isclass(value):
        if issubclass(value, enum.Enum):
            members = ", ".join(f"`{member.name}`" for member in value)
            return f"- enum `{name}` ({members}): {_first_line(inspect.getdoc(value))}"
        signature = _signature(value) or ""
        return f"- class `{name}{signature}`: {_first_line(inspect.getdoc(value))}"
    if typing.get_origin(value) is not None:
        # The source text, not the repr, which spells private module paths.
        alias = assigned or repr(value)
        return f"- type `{name} = {alias}`" + (
            f": {_markdown_roles(comment)}" if comment else ""
        )
    if inspect.isroutine(value):
        signature = _signature(value) or "(...)"
        return f"- `{name}{signature}`: {_first_line(inspect.getdoc(value))}"
    kind = type(value).__name__
    if isinstance(value, str | int | float):
        kind += f" = {value!r}"
    return f"- `{name}` ({kind})" + (f": {_markdown_roles(comment)}" if comment else "")


def api_page() -> str:
    """``docs/api.md``: every public name of every module, with signature and doc.

    A name a package re-exports from one of its modules is listed under the
    package with a pointer to the module, where its signature and first
    docstring line are given.
    """
    modules = public_modules()
    defined = {module.__name__: _defined_names(module) for module in modules}
    by_name = {module.__name__: module for module in modules}

    def home(module: types.ModuleType, name: str, value: Any) -> str | None:
        """The other documented module that defines ``name``, if any."""
        if inspect.ismodule(value):
            return None
        owner = getattr(value, "__module__", None)
        if not isinstance(owner, str) or not (
            inspect.isclass(value) or inspect.isfunction(value)
        ):
            owner = next(
                (
                    other
                    for other, names in defined.items()
                    if other != module.__name__
                    and name in names
                    and getattr(by_name[other], name, None) is value
                ),
                None,
            )
        if (
            owner is None
            or owner == module.__name__
            or owner not in by_name
            or name not in getattr(by_name[owner], "__all__", ())
        ):
            return None
        return owner

    lines = [
        f"<!-- Generated by `{COMMAND}`; do not edit. -->",
        "",
        "# Python API",
        "",
        "Every name in the `__all__` of every module of `implicit_bias`, with its "
        "signature and the first line of its docstring (`help()` gives the rest).",
        "",
    ]
    for module in modules:
        lines += [f"## `{module.__name__}`", "", _first_line(module.__doc__), ""]
        for name in module.__all__:
            value = getattr(module, name)
            owner = home(module, name, value)
            if owner is not None:
                lines.append(f"- `{name}`: from `{owner}`")
            else:
                comment, assigned = defined[module.__name__].get(name, ("", ""))
                lines.append(_entry(name, value, comment, assigned))
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


# --- writing and checking the docs directory


def _preface(prefaces: Path | None, source: str) -> str | None:
    if prefaces is None:
        return None
    path = prefaces / f"{source}.md"
    return path.read_text(encoding="utf-8") if path.is_file() else None


def write_docs(
    output: str | Path,
    verdicts: Mapping[str, Verdict],
    *,
    sources: Iterable[str] | None = None,
    prefaces: str | Path | None = None,
    api: bool = False,
) -> list[Path]:
    """Write the verdict records and the pages of ``sources`` under ``output``,
    and ``api.md`` if ``api``.

    Args:
      output: the docs directory.
      verdicts: a verdict for every claim of every source written, by id.
      sources: the sources to write (default: every registered one).
      prefaces: the directory of the prefaces (default: ``output/prefaces``).
      api: also write ``api.md`` (:func:`api_page`), the toolkit's API
        reference: for the toolkit's own docs, not a user's.

    Returns:
      The paths written.
    """
    output = Path(output)
    preface_dir = Path(prefaces) if prefaces is not None else output / "prefaces"
    written = []
    (output / "verdicts").mkdir(parents=True, exist_ok=True)
    registry = default_registry()
    for source in registry.sources if sources is None else sources:
        claims = registry.claims(source)
        page = source_page(
            source, claims, verdicts, preface=_preface(preface_dir, source)
        )
        record = output / "verdicts" / f"{source}.json"
        record.write_text(verdicts_json(claims, verdicts), encoding="utf-8")
        path = output / f"{source}.md"
        path.write_text(page, encoding="utf-8")
        written += [record, path]
    if api:
        path = output / "api.md"
        path.write_text(api_page(), encoding="utf-8")
        written.append(path)
    return written


def _regenerate(directory: Path, source: str | None = None) -> str:
    """The command that rewrites ``source``'s page and record in
    ``directory`` (``api.md`` if ``source`` is None)."""
    if source is None:
        return f"implicit-bias docs --api --output {directory}"
    load = _load_option(default_registry().origins.get(source, ""))
    return f"implicit-bias docs{load} --source {source} --output {directory}"


def stale_docs(
    directory: str | Path,
    *,
    sources: Iterable[str] | None = None,
    api: bool | None = None,
    prefaces: str | Path | None = None,
) -> list[str]:
    """What in a docs directory differs from what the code would generate now.

    Checks, without running any claim: each source of ``sources`` is
    registered and has its verdict record, covering exactly its claims in
    order, each with the verdict the registry expects; its page is what
    :func:`source_page` makes of the registry, its preface and that record;
    no page or record is left for an unregistered source; ``api.md`` is
    :func:`api_page`.

    Args:
      directory: the docs directory.
      sources: the ids of the sources it documents; by default those it
        holds a record of (``verdicts/<id>.json``), so a user's folder of
        pages of their own sources is checked as it is. The toolkit's own
        docs name the sources it ships
        (:func:`~implicit_bias.claims.discovery.shipped_registry`), so that
        a missing one is found and another installed package's is ignored.
      api: whether the directory holds ``api.md``; by default, if it has one.
      prefaces: the directory of the prefaces (default ``directory/prefaces``).

    Returns:
      One line per problem; empty when the docs are current.
    """
    directory = Path(directory)
    preface_dir = Path(prefaces) if prefaces is not None else directory / "prefaces"
    problems = []
    registered = default_registry().sources
    records = sorted((directory / "verdicts").glob("*.json"))
    if sources is None:
        sources = [record.stem for record in records if record.stem in registered]
    for source in sources:
        if source not in registered:
            problems.append(f"{directory}: {source} is not a registered source")
            continue
        claims = list(registered[source].all_claims())
        regenerate = _regenerate(directory, source)
        record = directory / "verdicts" / f"{source}.json"
        if not record.is_file():
            problems.append(f"{record}: missing (run `{regenerate}`)")
            continue
        verdicts = read_verdicts([record])  # raises if the records are malformed
        recorded_ids = [r["id"] for r in json.loads(record.read_text("utf-8"))]
        if recorded_ids != [claim.id for claim in claims]:
            problems.append(
                f"{record}: records {len(recorded_ids)} claims, the registry has "
                f"{len(claims)} (or another order); run `{regenerate}`"
            )
            continue
        for claim in claims:
            if verdicts[claim.id].status != claim.expected:
                problems.append(
                    f"{record}: {claim.id} recorded {verdicts[claim.id].status}, "
                    f"the registry expects {claim.expected}"
                )
        page = directory / f"{source}.md"
        expected_page = source_page(
            source, claims, verdicts, preface=_preface(preface_dir, source)
        )
        if not page.is_file() or page.read_text("utf-8") != expected_page:
            problems.append(f"{page}: stale or missing (run `{regenerate}`)")
    for record in records:
        if record.stem not in registered:
            problems.append(f"{record}: {record.stem} is not a registered source")
    marker = f"<!-- Generated by `{COMMAND}` from the claims of "
    for page in sorted(directory.glob("*.md")):
        head = page.read_text("utf-8")[: len(marker) + 200]
        if head.startswith(marker) and page.stem not in registered:
            problems.append(f"{page}: {page.stem} is not a registered source")
    path = directory / "api.md"
    if api is None:
        api = path.is_file()
    if api and (not path.is_file() or path.read_text("utf-8") != api_page()):
        problems.append(f"{path}: stale or missing (run `{_regenerate(directory)}`)")
    return problems
