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

import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
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
from implicit_bias.claims.cache import VerdictCache, run_claims_cached
from implicit_bias.claims.discovery import default_registry
from implicit_bias.claims.source import Citation
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.latex import equation_references, formula_latex
from implicit_bias.markdown import COMMAND, escape_markdown, text_markdown
from implicit_bias.api_reference import api_page

__all__ = [
    "CATEGORIES",
    "category",
    "gather_verdicts",
    "read_verdicts",
    "source_page",
    "stale_docs",
    "verdicts_json",
    "write_docs",
]


#: Names this module exported before it was split (e691abb), by the module
#: that has them now: imported on first use, so that code written against
#: the old ``from implicit_bias.reports import mutation_page`` keeps working.
_MOVED = {
    "mutation_page": "implicit_bias.mutation_report",
    "mutation_summary": "implicit_bias.mutation_report",
    "public_modules": "implicit_bias.api_reference",
}


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        import importlib

        return getattr(importlib.import_module(_MOVED[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    "possible extraction artefact": "printed or prose claims that fail where the "
    "text we have may have lost a sign or factor the typeset paper has (not "
    "counted as the authors' error until checked against it)",
    "non-replication": "simulations whose statistics do not reproduce a printed "
    "or prose claim under our protocol (failing or undecided by them)",
    "reading that does not hold": "our interpretations of the text that fail",
    "extension": "statements beyond the text (other domains, corrected forms, "
    "consequences the source does not draw)",
    "confirmed": "printed, prose and interpreted claims that hold",
    "undecided": "printed, prose and interpreted claims no check could decide",
}


def category(claim: Claim, verdict: Verdict, *, artefact: bool = False) -> str:
    """Which of :data:`CATEGORIES` a claim's verdict belongs to.

    ``artefact``: the slip the claim shows may be an artefact of the text's
    extraction (:attr:`~implicit_bias.claims.findings.Slip.artefact`), so a
    failing printed or prose claim is a possible extraction artefact, not an
    error in the source.

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
        if reading == Reading.INTERPRETATION:
            return "reading that does not hold"
        return "possible extraction artefact" if artefact else "error in the source"
    if verdict.status == Status.HOLDS:
        return "confirmed"
    return "undecided"


# --- Markdown pages of the sources


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


def _categories(
    claims: Sequence[Claim],
    verdicts: Mapping[str, Verdict],
    artefacts: Collection[str] = (),
) -> list[str]:
    """The category list; ``artefacts``: ids of slips that may be artefacts
    of the text's extraction."""
    groups: dict[str, list[Claim]] = {name: [] for name in CATEGORIES}
    for claim in claims:
        artefact = claim.slip in artefacts
        groups[category(claim, verdicts[claim.id], artefact=artefact)].append(claim)
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
        *_categories(
            claims,
            verdicts,
            () if record is None else [s.id for s in record.slips if not s.counted],
        ),
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
