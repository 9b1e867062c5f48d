"""Generated docs: the committed pages are current, and staleness is detected.

Nothing here runs a slow claim: the pages are a pure function of the
registry, the prefaces and the recorded verdicts, which is what
:func:`stale_docs` compares. The recorded evidence itself comes from the
checks, run by ``implicit-bias docs``; ``implicit-bias verify`` re-checks it.
"""

from __future__ import annotations

import dataclasses

import json
import re
import shutil
from pathlib import Path

import pytest

from implicit_bias.claims.coverage import source_coverage
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
)
from implicit_bias.claims.cache import VerdictCache
from implicit_bias.claims.discovery import default_registry, shipped_registry
from implicit_bias.claims.registry import claims_for, get_claim
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.latex import equation_references, formula_latex
from implicit_bias.markdown import COMMAND, escape_markdown, text_markdown
from implicit_bias.reports import (
    CATEGORIES,
    category,
    gather_verdicts,
    read_verdicts,
    source_page,
    stale_docs,
    verdicts_json,
    write_docs,
)
from tests.third_party import installed_package

#: Source id -> its claims (chains included), for the sources this package ships.
SOURCES = {s.id: s.all_claims() for s in shipped_registry().sources.values()}


DOCS = Path(__file__).resolve().parents[1] / "docs"


def _recorded(source: str) -> dict[str, Verdict]:
    return read_verdicts([DOCS / "verdicts" / f"{source}.json"])


def _made_up(source: str) -> dict[str, Verdict]:
    """A verdict for every claim, as expected, with evidence full of Markdown."""
    return {
        claim.id: Verdict(
            claim.expected,
            f"made-up evidence of {claim.id}: a_b * <c>",
            claim.expected_reason,
            None if claim.expected == Status.INCONCLUSIVE else Basis.NUMERICAL,
        )
        for claim in claims_for(source)
    }


def test_committed_docs_are_current() -> None:
    # On failure, regenerate with `implicit-bias docs --api --output docs/`.
    assert stale_docs(DOCS, sources=SOURCES, api=True) == []


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_page_shows_every_claim_with_formula_verdict_and_evidence(source: str) -> None:
    claims = claims_for(source)
    verdicts = _made_up(source)
    page = source_page(source, claims, verdicts)
    references = equation_references(claims)
    headings = re.findall(r"^### \((\S+)\) `(\S+)`: (\w+)", page, re.MULTILINE)
    assert headings == [
        (references[c.id], f"{c.equation}:{c.label}", str(verdicts[c.id].status))
        for c in claims
    ]
    for claim in claims:
        assert f"`{claim.id}`" in page
        assert text_markdown(claim.statement) in page
        assert f"Evidence: {escape_markdown(verdicts[claim.id].detail)}\n" in page
        formula = formula_latex(claim)
        if formula is not None:
            assert f"$$\n{formula}\n$$" in page
    # A claim's formula is typeset from formula= or from the relation its
    # check hands a helper (recorded): one $$ block each, nothing else.
    typeset = sum(1 for c in claims if formula_latex(c) is not None)
    assert page.count("$$\n") == 2 * typeset


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_page_reports_the_coverage_of_the_text_from_its_verdicts(source: str) -> None:
    claims = claims_for(source)
    verdicts = _made_up(source)
    page = source_page(source, claims, verdicts)
    record = default_registry().source(source)
    report = source_coverage(record, verdicts)
    coverage = page.split("## Coverage\n", 1)[1].split("## Claim by claim", 1)[0]
    if not record.inventory:
        assert "how much of it is checked is unknown" in coverage
        return
    assert report.summary() + "." in coverage
    for item in report.items:
        label = (
            f"({item.item.label})"
            if item.item.numbered
            else f"[{item.item.label}] (unnumbered)"
        )
        assert f"| {label} | {item.item.kind} | {item.status} |" in coverage


def test_page_links_corrections_both_ways() -> None:
    page = source_page(
        "ptft-relu-penalty",
        claims_for("ptft-relu-penalty"),
        _made_up("ptft-relu-penalty"),
    )
    assert "corrected by `6:divergence-nonzero-m`" in page
    assert "corrects `6:divergence`" in page


def test_page_flags_a_verdict_that_is_not_the_expected_one() -> None:
    claims = claims_for("ptft-relu-penalty")
    verdicts = _made_up("ptft-relu-penalty")
    claim = get_claim("ptft-relu-penalty:7:p-of-u-step-1")
    verdicts[claim.id] = Verdict.fails("made up", Basis.CERTIFIED)
    page = source_page("ptft-relu-penalty", claims, verdicts)
    assert "### (7) `7:p-of-u-step-1`: fails (NOT AS EXPECTED" in page
    assert "1 NOT AS EXPECTED: `7:p-of-u-step-1`" in page


def test_page_needs_a_verdict_for_every_claim() -> None:
    verdicts = _made_up("ptft-relu-penalty")
    del verdicts["ptft-relu-penalty:9:stationary-points-step-1"]
    with pytest.raises(InvalidArgumentError, match="9:stationary-points-step-1"):
        source_page("ptft-relu-penalty", claims_for("ptft-relu-penalty"), verdicts)


def _copy_docs(tmp_path: Path) -> Path:
    """Docs current by construction: made-up evidence, the committed prefaces."""
    docs = tmp_path / "docs"
    shutil.copytree(DOCS / "prefaces", docs / "prefaces")
    verdicts = {}
    for source in SOURCES:
        verdicts.update(_made_up(source))
    write_docs(docs, verdicts, sources=SOURCES, api=True)
    assert stale_docs(docs, sources=SOURCES, api=True) == []
    return docs


def _rerun(docs: Path, source: str) -> str:
    """The command a problem of ``source``'s page or record says to run."""
    return f"implicit-bias docs --source {source} --output {docs}"


def test_stale_docs_finds_an_edited_page(tmp_path: Path) -> None:
    docs = _copy_docs(tmp_path)
    page = docs / "ptft-relu-penalty.md"
    page.write_text(page.read_text("utf-8").replace("holds", "held", 1), "utf-8")
    rerun = _rerun(docs, "ptft-relu-penalty")
    assert f"{page}: stale or missing (run `{rerun}`)" in stale_docs(docs)


def test_stale_docs_finds_an_edited_preface(tmp_path: Path) -> None:
    docs = _copy_docs(tmp_path)
    preface = docs / "prefaces" / "ptft-diagonal-networks.md"
    preface.write_text(preface.read_text("utf-8") + "\nMore prose.\n", "utf-8")
    page = docs / "ptft-diagonal-networks.md"
    rerun = _rerun(docs, "ptft-diagonal-networks")
    assert f"{page}: stale or missing (run `{rerun}`)" in stale_docs(docs)


def test_stale_docs_finds_records_that_do_not_match_the_registry(
    tmp_path: Path,
) -> None:
    docs = _copy_docs(tmp_path)
    record = docs / "verdicts" / "ptft-relu-penalty.json"
    records = json.loads(record.read_text("utf-8"))
    holding = next(r for r in records if r["status"] == "holds")
    holding["status"] = "fails"
    record.write_text(json.dumps(records), "utf-8")
    problems = stale_docs(docs)
    assert any("the registry expects holds" in problem for problem in problems)
    record.write_text(json.dumps(records[:-1]), "utf-8")
    shortened = f"records {len(records) - 1} claims"
    assert any(shortened in problem for problem in stale_docs(docs))


def test_stale_docs_finds_leftovers_of_unregistered_sources(tmp_path: Path) -> None:
    docs = _copy_docs(tmp_path)
    (docs / "verdicts" / "no-such-paper.json").write_text("[]", "utf-8")
    page = (docs / "ptft-relu-penalty.md").read_text("utf-8")
    (docs / "no-such-paper.md").write_text(
        page.replace("claims of ptft-relu-penalty", "claims of no-such-paper"), "utf-8"
    )
    (docs / "api.md").write_text("# outdated\n", "utf-8")
    problems = stale_docs(docs)
    assert sum("not a registered source" in problem for problem in problems) == 2
    assert any("api.md" in problem for problem in problems)


def test_written_docs_are_current_by_construction(tmp_path: Path) -> None:
    docs = _copy_docs(tmp_path)  # asserts stale_docs(docs, ...) == []
    assert sorted(path.name for path in docs.glob("*.md")) == sorted(
        [f"{source}.md" for source in SOURCES] + ["api.md"]
    )


def test_write_docs_of_one_source(tmp_path: Path) -> None:
    written = write_docs(
        tmp_path, _made_up("ptft-relu-penalty"), sources=["ptft-relu-penalty"]
    )
    # Issue 21: the toolkit's 130 KB api.md went into every user's folder.
    assert [path.relative_to(tmp_path).as_posix() for path in written] == [
        "verdicts/ptft-relu-penalty.json",
        "ptft-relu-penalty.md",
    ]
    assert stale_docs(tmp_path) == []


def test_verdict_record_round_trips(tmp_path: Path) -> None:
    claims = claims_for("ptft-relu-penalty")
    verdicts = _made_up("ptft-relu-penalty")
    path = tmp_path / "record.json"
    path.write_text(verdicts_json(claims, verdicts), "utf-8")
    assert read_verdicts([path]) == verdicts
    assert [r["id"] for r in json.loads(path.read_text("utf-8"))] == [
        claim.id for claim in claims
    ]


def test_first_verdict_file_wins(tmp_path: Path) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    first.write_text(
        json.dumps([{"id": "a", "status": "holds", "basis": "proof", "detail": "1"}])
    )
    second.write_text(
        json.dumps(
            [
                {"id": "a", "status": "fails", "basis": "proof", "detail": "2"},
                {"id": "b", "status": "inconclusive", "detail": "3", "seconds": 1.0},
            ]
        )
    )
    assert read_verdicts([first, second]) == {
        "a": Verdict.holds("1", Basis.PROOF),
        # A record of before verdicts carried reasons reads as undecided.
        "b": Verdict.inconclusive("3", Reason.UNDECIDED),
    }


def test_a_recorded_reason_is_read_back(tmp_path: Path) -> None:
    path = tmp_path / "verdicts.json"
    record = {"id": "a", "status": "inconclusive", "reason": "budget", "detail": "4"}
    path.write_text(json.dumps([record]))
    assert read_verdicts([path]) == {"a": Verdict.inconclusive("4", Reason.BUDGET)}


@pytest.mark.parametrize(
    ("content", "complaint"),
    [
        ("not json", "cannot be read as JSON"),
        ('{"id": "a"}', "holds a dict"),
        ('[{"id": "a", "status": "true", "detail": ""}]', "needs an id, a status"),
        ('[{"id": "a", "status": "holds"}]', "needs an id, a status"),
        ('["a"]', "needs an id, a status"),
        (
            '[{"id": "a", "status": "inconclusive", "reason": "x", "detail": ""}]',
            "with reason 'x'",
        ),
        ('[{"id": "a", "status": "holds", "detail": ""}]', "without a basis"),
        (
            '[{"id": "a", "status": "holds", "basis": "hunch", "detail": ""}]',
            "with basis 'hunch'",
        ),
    ],
)
def test_bad_verdict_files_are_named_errors(
    tmp_path: Path, content: str, complaint: str
) -> None:
    path = tmp_path / "verdicts.json"
    path.write_text(content)
    with pytest.raises(InvalidArgumentError, match=complaint):
        read_verdicts([path])


def test_gather_runs_only_what_is_not_recorded() -> None:
    claims = [
        get_claim("ptft-relu-penalty:7:p-of-u-step-1"),
        get_claim("ptft-relu-penalty:9:stationary-points-step-1"),
    ]
    recorded = {claims[0].id: Verdict.fails("recorded, not run", Basis.CERTIFIED)}
    assert gather_verdicts(claims, recorded, run=False) == recorded
    verdicts = gather_verdicts(claims, recorded, run=True, workers=1)
    assert verdicts[claims[0].id] == recorded[claims[0].id]
    assert verdicts[claims[1].id].status == Status.HOLDS


def test_gather_quick_leaves_slow_claims_to_their_records() -> None:
    slow = [c for c in claims_for("ptft-diagonal-networks") if c.slow]
    assert slow
    assert gather_verdicts(slow, {}, run=True, quick=True) == {}


def _skeleton(detail: str) -> str:
    """Evidence with its numbers blanked: their last digits may differ by platform."""
    return re.sub(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", "#", detail)


@pytest.mark.slow
@pytest.mark.parametrize("source", sorted(SOURCES))
def test_recorded_evidence_is_what_the_checks_return(source: str) -> None:
    # Runs every claim of the source (minutes); `pytest -m slow` only.
    claims = claims_for(source)
    recorded = _recorded(source)
    fresh = gather_verdicts(claims, {}, run=True)
    for claim in claims:
        assert fresh[claim.id].status == recorded[claim.id].status, claim.id
        assert _skeleton(fresh[claim.id].detail) == _skeleton(
            recorded[claim.id].detail
        ), claim.id


def test_a_recorded_counterexample_is_read_back(tmp_path: Path) -> None:
    path = tmp_path / "verdicts.json"
    claims = [get_claim("ptft-relu-penalty:7:p-of-u-step-1")]
    refuted = Verdict.fails("made up", Basis.CERTIFIED, "at x=2, in [1 +/- 0.1]")
    path.write_text(verdicts_json(claims, {claims[0].id: refuted}), "utf-8")
    assert read_verdicts([path]) == {claims[0].id: refuted}


def _categorised(reading: Reading, kind: Kind, verdict: Verdict) -> str:
    claim = Claim(
        "s",
        "1",
        "a",
        kind,
        "",
        print,
        verdict.status,
        reading=reading,
        expected_reason=verdict.reason,
    )  # type: ignore[arg-type]
    return category(claim, verdict)


def test_a_failing_claim_whose_slip_may_be_an_artefact_is_set_apart() -> None:
    claim = Claim(
        "s", "1", "a", Kind.IDENTITY, "", print, Status.FAILS, reading=Reading.PRINTED
    )
    verdict = Verdict.fails("", Basis.CERTIFIED)
    assert category(claim, verdict) == "error in the source"
    assert category(claim, verdict, artefact=True) == "possible extraction artefact"
    interpretation = dataclasses.replace(claim, reading=Reading.INTERPRETATION)
    assert category(interpretation, verdict, artefact=True) == (
        "reading that does not hold"
    )
    # On a page: features-are-fate's (117)-(118) and (32)-(33) slips may be
    # artefacts of the extraction.
    source = "features-are-fate"
    verdicts = _made_up(source)
    page = source_page(source, claims_for(source), verdicts)
    artefacts = page.split("- **possible extraction artefact** (", 1)[1]
    listed = artefacts.split("\n", 1)[0]
    record = default_registry().source(source)
    counted = {s.id for s in record.slips if s.counted}
    for claim in claims_for(source):
        failing = verdicts[claim.id].status == Status.FAILS
        if claim.slip is not None and claim.slip not in counted and failing:
            assert f"`{claim.id.split(':', 1)[1]}`" in listed


@pytest.mark.parametrize(
    ("reading", "kind", "verdict", "expected"),
    [
        (
            Reading.PRINTED,
            Kind.IDENTITY,
            Verdict.fails("", Basis.CERTIFIED),
            "error in the source",
        ),
        (
            Reading.PROSE,
            Kind.NUMERIC,
            Verdict.fails("", Basis.NUMERICAL),
            "error in the source",
        ),
        (
            Reading.PROSE,
            Kind.SIMULATION,
            Verdict.fails("", Basis.STATISTICAL),
            "non-replication",
        ),
        (
            Reading.PRINTED,
            Kind.SIMULATION,
            Verdict.inconclusive("", Reason.STATISTICAL),
            "non-replication",
        ),
        # Converged deterministic runs refuting a printed formula: an error in
        # the source, whatever the kind of claim (issue 20).
        (
            Reading.PRINTED,
            Kind.SIMULATION,
            Verdict.fails("", Basis.NUMERICAL),
            "error in the source",
        ),
        # A statistical holds is a confirmation, not a non-replication.
        (
            Reading.PROSE,
            Kind.SIMULATION,
            Verdict.holds("", Basis.STATISTICAL),
            "confirmed",
        ),
        (
            Reading.INTERPRETATION,
            Kind.NUMERIC,
            Verdict.fails("", Basis.NUMERICAL),
            "reading that does not hold",
        ),
        (
            Reading.EXTENSION,
            Kind.IDENTITY,
            Verdict.fails("", Basis.CERTIFIED),
            "extension",
        ),
        (Reading.EXTENSION, Kind.IDENTITY, Verdict.holds("", Basis.PROOF), "extension"),
        (Reading.PRINTED, Kind.IDENTITY, Verdict.holds("", Basis.PROOF), "confirmed"),
        (
            Reading.PRINTED,
            Kind.LIMIT,
            Verdict.inconclusive("", Reason.BUDGET),
            "undecided",
        ),
    ],
)
def test_each_verdict_falls_in_one_category(
    reading: Reading, kind: Kind, verdict: Verdict, expected: str
) -> None:
    assert _categorised(reading, kind, verdict) == expected
    assert expected in CATEGORIES


def test_gather_verdicts_takes_unchanged_claims_from_the_cache(tmp_path: Path) -> None:
    claims = [get_claim("ptft-relu-penalty:7:p-of-u-step-1")]
    cache = VerdictCache(tmp_path)
    assert cache.get(claims[0]) is None
    first = gather_verdicts(claims, {}, run=True, workers=1, cache=cache)
    stored = cache.get(claims[0])
    assert stored is not None
    assert stored.verdict == first[claims[0].id]
    seen: list[str] = []
    again = gather_verdicts(
        claims,
        {},
        run=True,
        workers=1,
        cache=cache,
        on_result=lambda result, done, total: seen.append(result.claim.id),
    )
    assert again == first
    assert seen == [claims[0].id]


def test_a_recorded_counterexample_point_is_read_back(tmp_path: Path) -> None:
    # Issue 21: the point is data in the record, not only in the text.
    path = tmp_path / "verdicts.json"
    claims = [get_claim("ptft-relu-penalty:7:p-of-u-step-1")]
    refuted = Verdict.fails(
        "made up",
        Basis.CERTIFIED,
        "at rho=0.5, m=3/2",
        point={"rho": "0.5", "m": "3/2"},
    )
    path.write_text(verdicts_json(claims, {claims[0].id: refuted}), "utf-8")
    (record,) = json.loads(path.read_text("utf-8"))
    assert record["counterexample_point"] == {"rho": "0.5", "m": "3/2"}
    (read,) = read_verdicts([path]).values()
    assert read == refuted
    assert list(read.point or {}) == ["rho", "m"]


def test_a_bad_recorded_point_is_a_named_error(tmp_path: Path) -> None:
    path = tmp_path / "verdicts.json"
    record = {
        "id": "a",
        "status": "fails",
        "basis": "certified",
        "detail": "",
        "counterexample": "at x=1",
        "counterexample_point": {"x": 1},
    }
    path.write_text(json.dumps([record]))
    with pytest.raises(InvalidArgumentError, match=r"verdicts=.* 'a'.*point"):
        read_verdicts([path])


def test_page_gives_the_counterexample_point_in_the_source_glyphs() -> None:
    claims = claims_for("ptft-relu-penalty")
    verdicts = _made_up("ptft-relu-penalty")
    claim = get_claim("ptft-relu-penalty:7:p-of-u-step-1")
    verdicts[claim.id] = Verdict.fails(
        "made up",
        Basis.CERTIFIED,
        "at rho=0.5, w=2 (exactly)",
        point={"rho": "0.5", "w": "2"},
    )
    page = source_page("ptft-relu-penalty", claims, verdicts)
    # A symbol the source has no glyph for is set by SymPy.
    assert r"Counterexample point: $\rho_{h} = 0.5$, $w = 2$" in page
    # Without a point (a record of before points were recorded): no line.
    verdicts[claim.id] = Verdict.fails("made up", Basis.CERTIFIED, "at rho=0.5")
    assert "Counterexample point" not in source_page(
        "ptft-relu-penalty", claims, verdicts
    )


# --- the sources a docs folder concerns (issue 21)


def _made_up_for(source: str) -> dict[str, Verdict]:
    """As :func:`_made_up`, for a source of the registry in use."""
    return {
        claim.id: Verdict(claim.expected, "made up", basis=Basis.PROOF)
        for claim in default_registry().claims(source)
    }


def test_the_toolkits_docs_ignore_another_installed_source(tmp_path: Path) -> None:
    # Installing a user's note made the committed docs "stale": no record of
    # the note in the toolkit's docs/. (Whether they are current is
    # test_committed_docs_are_current's.)
    alone = stale_docs(DOCS, sources=SOURCES, api=True), stale_docs(DOCS)
    with installed_package(tmp_path / "site"):
        assert "third-party-note" in default_registry().sources
        assert (stale_docs(DOCS, sources=SOURCES, api=True), stale_docs(DOCS)) == alone
        assert sorted(shipped_registry().sources) == sorted(SOURCES)


def test_a_users_docs_folder_holds_and_is_checked_for_its_sources(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "my-docs"
    with installed_package(tmp_path / "site"):
        verdicts = _made_up_for("third-party-note")
        written = write_docs(folder, verdicts, sources=["third-party-note"])
        assert sorted(path.relative_to(folder).as_posix() for path in written) == [
            "third-party-note.md",
            "verdicts/third-party-note.json",
        ]
        assert stale_docs(folder) == []
        page = folder / "third-party-note.md"
        page.write_text(page.read_text("utf-8") + "edited\n", "utf-8")
        assert stale_docs(folder) == [
            f"{page}: stale or missing (run `implicit-bias docs --source "
            f"third-party-note --output {folder}`)"
        ]
        # Named sources must have their pages; api.md when asked for.
        assert stale_docs(folder, sources=["ptft-relu-penalty"], api=True) == [
            f"{folder / 'verdicts' / 'ptft-relu-penalty.json'}: missing (run "
            f"`implicit-bias docs --source ptft-relu-penalty --output {folder}`)",
            f"{folder / 'api.md'}: stale or missing (run `implicit-bias docs --api "
            f"--output {folder}`)",
        ]
    # Uninstalled: its record and page are leftovers.
    assert stale_docs(folder) == [
        f"{folder / 'verdicts' / 'third-party-note.json'}: third-party-note is not "
        "a registered source",
        f"{page}: third-party-note is not a registered source",
    ]


def test_stale_docs_names_a_source_asked_for_that_is_not_registered(
    tmp_path: Path,
) -> None:
    assert stale_docs(tmp_path, sources=["no-such-paper"]) == [
        f"{tmp_path}: no-such-paper is not a registered source"
    ]
    # The marker by which leftover pages are found is the pages' own first line.
    page = source_page(
        "ptft-relu-penalty",
        claims_for("ptft-relu-penalty"),
        _made_up("ptft-relu-penalty"),
    )
    assert page.startswith(f"<!-- Generated by `{COMMAND}` from the claims of ")


def test_page_renders_the_mathematics_of_statements_and_quotes(
    tmp_path: Path,
) -> None:
    # Issue 21: "$...$" in a statement or quote was escaped to "\$...\$".
    with installed_package(tmp_path / "site"):
        claims = default_registry().claims("third-party-note")
        page = source_page("third-party-note", claims, _made_up_for("third-party-note"))
    assert "\n$\\log x^2 = 2 \\log x$\n" in page
    assert "\n$(x + 1)^2 = x^2 + 1$\n" in page
    assert text_markdown("a $b_1$ c_2 *") == "a $b_1$ c\\_2 \\*"
    assert text_markdown("costs $5") == "costs \\$5"


def test_the_names_reports_exported_before_its_split_still_import() -> None:
    # implicit_bias.reports listed them in __all__ until e691abb moved them
    # to mutation_report, api_reference and markdown.
    from implicit_bias import api_reference, markdown, mutation_report, reports

    for module, names in (
        (mutation_report, ("mutation_page", "mutation_summary")),
        (api_reference, ("api_page", "public_modules")),
        (markdown, ("COMMAND", "escape_markdown", "text_markdown")),
    ):
        for name in names:
            assert getattr(reports, name) is getattr(module, name)
    with pytest.raises(AttributeError, match="no_such_name"):
        reports.no_such_name  # noqa: B018
