"""The command line: ``implicit-bias verify | latex | list | docs | mutate |
coverage | check-source | figure | sweep | new``.

Commands that take claims see every installed source (the entry-point group
``implicit_bias.sources``) plus those of ``--file FILE`` and ``--module MOD``;
a source that fails to load is reported on stderr and the others still run.

Each subcommand is added to the parser by its own ``_add_<name>`` function and
run by its own ``_<name>`` function (``set_defaults(handler=...)``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import Any

from implicit_bias.claims.engine import Claim
from implicit_bias.claims.coverage import coverage_text, source_coverage
from implicit_bias.claims.mutate import (
    CLAIM_SECONDS,
    ClaimMutations,
    Outcome,
    mutate_claims,
)
from implicit_bias.claims.recording import lint_claim
from implicit_bias.paper_profile import (
    read_paper_run,
    stale_paper_profile,
    write_paper_profile_page,
    write_paper_records,
)
from implicit_bias.claims.discovery import (
    default_registry,
    shipped_registry,
    using_registry,
)
from implicit_bias import __version__
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.scaffold import scaffold
from implicit_bias.latex import (
    bibliography_bibtex,
    claims_latex,
    document_latex,
    ledgers_latex,
    typeset_counts,
)
from implicit_bias.figures import FIGURES, MissingExtraError, draw_figure
from implicit_bias.claims.theory_mutation import (
    MUTANT_SECONDS,
    PER_FUNCTION,
    THEORY_PACKAGE,
    TheoryOutcome,
    mutate_theory,
)
from implicit_bias.mutation_report import mutated_claims, mutation_page
from implicit_bias.reports import (
    read_verdicts,
    stale_docs,
    write_docs,
)
from implicit_bias.validation.sweeps import (
    BUILTIN_SWEEPS,
    EXECUTORS,
    SweepError,
    SweepInterrupted,
    run_sweep,
)

from implicit_bias.cli.options import (
    _add_selection_options,
    _add_verdict_options,
    _cache,
    _gathered,
    _recorded,
    _registry,
    _selected,
)
from implicit_bias.cli.verify import _add_verify

__all__ = ["main"]


def _coverage(arguments: argparse.Namespace) -> int:
    registry = default_registry()
    source_ids = list(dict.fromkeys(c.source for c in _selected(arguments)))
    claims = [c for s in source_ids for c in registry.claims(s)]
    recorded = _recorded(arguments)
    cache = _cache(arguments)
    verdicts = _gathered(arguments, claims, recorded, run=arguments.run, cache=cache)
    cached = 0
    if cache is not None:
        for claim in claims:
            if claim.id not in verdicts and (hit := cache.get(claim)) is not None:
                verdicts[claim.id] = hit.verdict
                cached += 1
    mutated = None
    if arguments.mutations:
        mutated = mutated_claims(
            json.loads(Path(arguments.mutations).read_text(encoding="utf-8"))
        )
    reports = [
        source_coverage(registry.source(s), verdicts, mutated) for s in source_ids
    ]
    from_files = sum(1 for c in claims if c.id in recorded)
    print(
        f"verdicts: {from_files} recorded, {cached} from the cache, "
        f"{len(verdicts) - from_files - cached} run, {len(claims) - len(verdicts)} "
        "not run" + ("" if arguments.run else " (--run checks them)"),
        file=sys.stderr,
    )
    if arguments.json:
        print(json.dumps([r.as_record() for r in reports], indent=2))
    else:
        print("\n\n".join(coverage_text(r) for r in reports))
    return 0


def _latex(arguments: argparse.Namespace) -> int:
    claims = _selected(arguments)
    if arguments.bibliography is not None:
        registry = default_registry()
        cited = dict.fromkeys(claim.source for claim in claims)
        Path(arguments.bibliography).write_text(
            bibliography_bibtex(
                registry.source(s) for s in cited if s in registry.sources
            ),
            encoding="utf-8",
        )
        print(f"wrote {arguments.bibliography}", file=sys.stderr)
    ledger = arguments.ledger or arguments.run or bool(arguments.verdicts)
    if arguments.output is None and not ledger:
        print(claims_latex(claims), end="")
        return 0
    recorded = _recorded(arguments)
    verdicts = _gathered(
        arguments, claims, recorded, run=arguments.run, cache=_cache(arguments)
    )
    if arguments.output is None:
        print(ledgers_latex(claims, verdicts), end="")
        return 0
    from_files = sum(1 for claim in claims if claim.id in recorded)
    checked = len(verdicts) - from_files
    note = (
        f"Verdicts in the margin: {from_files} recorded "
        f"({', '.join(map(str, arguments.verdicts or ())) or 'no files'}), "
        f"{checked} checked now, {len(claims) - len(verdicts)} not run "
        "(their expected verdict is shown, in italics)."
    )
    Path(arguments.output).write_text(
        document_latex(claims, verdicts, note=note), encoding="utf-8"
    )
    counts = typeset_counts(claims)
    print(
        f"wrote {arguments.output}: {counts['mathematics']} claims typeset as "
        f"mathematics, {counts['text']} as text",
        file=sys.stderr,
    )
    return 0


def _docs_claims(arguments: argparse.Namespace) -> list[Claim] | None:
    """The claims ``docs`` concerns: those the options name; with ``--api`` and
    none named, those of the sources the toolkit ships (its own docs, whatever
    else is installed); else None (every registered source to write, those
    the directory holds records of to check)."""
    named = (arguments.source, arguments.claim, arguments.file, arguments.module)
    if any(named):
        return _selected(arguments)
    if arguments.api:
        shipped = shipped_registry().sources
        return [c for source in shipped for c in default_registry().claims(source)]
    return None


def _docs(arguments: argparse.Namespace) -> int:
    output = Path(arguments.output)
    if arguments.paper_run is not None:
        if arguments.check:
            raise InvalidArgumentError(
                "--paper-run: writes the paper-profile records; not with --check"
            )
        run, run_records = read_paper_run(arguments.paper_run)
        written = write_paper_records(output, run, run_records)
        page = write_paper_profile_page(output)
        for path in [*written, *([] if page is None else [page])]:
            print(f"wrote {path}", file=sys.stderr)
        return 0
    chosen = _docs_claims(arguments)
    if arguments.check:
        problems = stale_docs(
            output,
            sources=None if chosen is None else dict.fromkeys(c.source for c in chosen),
            api=True if arguments.api else None,
            prefaces=arguments.prefaces,
        ) + stale_paper_profile(output)
        for problem in problems:
            print(problem)
        return 1 if problems else 0
    claims = _selected(arguments) if chosen is None else chosen
    sources = list(dict.fromkeys(claim.source for claim in claims))
    verdicts = _gathered(
        arguments, claims, _recorded(arguments), run=True, cache=_cache(arguments)
    )
    kept = [c for c in claims if c.id not in verdicts]
    if kept:
        # Slow claims skipped by --quick keep the verdict recorded by an earlier run.
        records = [output / "verdicts" / f"{source}.json" for source in sources]
        earlier = read_verdicts(path for path in records if path.is_file())
        unknown = [c.id for c in kept if c.id not in earlier]
        if unknown:
            raise ValueError(
                f"no recorded verdict for {', '.join(unknown)}: "
                "run `implicit-bias docs` without --quick"
            )
        verdicts.update({c.id: earlier[c.id] for c in kept})
        print(f"kept the recorded verdicts of {len(kept)} slow claims", file=sys.stderr)
    for path in write_docs(
        output,
        verdicts,
        sources=sources,
        prefaces=arguments.prefaces,
        api=arguments.api,
    ):
        print(f"wrote {path}", file=sys.stderr)
    page = write_paper_profile_page(output)
    if page is not None:
        print(f"wrote {page}", file=sys.stderr)
    unexpected = [c.id for c in claims if verdicts[c.id].status != c.expected]
    if unexpected:
        print(f"UNEXPECTED verdicts: {', '.join(unexpected)}", file=sys.stderr)
    return 1 if unexpected else 0


def _list(arguments: argparse.Namespace) -> int:
    if arguments.sources:
        for source_id, source in default_registry().sources.items():
            cited = source.citation.text() if source.citation else "(no citation)"
            count = len(source.all_claims())
            print(f"{source_id}  {count} claims  {source.title}: {cited}")
        return 0
    for claim in _selected(arguments):
        flags = " [slow]" if claim.slow else ""
        corrects = f" (corrects {claim.corrects})" if claim.corrects else ""
        print(
            f"{claim.id}  {claim.kind}  {claim.reading}  expected {claim.expected}"
            f"{flags}: {claim.statement}{corrects}"
        )
    return 0


def _mutate(arguments: argparse.Namespace) -> int:
    claims = _selected(arguments)

    def progress(report: ClaimMutations, done: int, total: int) -> None:
        killed = sum(
            o.outcome != Outcome.SURVIVED
            if o.factor is not None
            else o.outcome in (Outcome.KILLED, Outcome.UNDECIDED)
            for o in (*report.symbolic, *report.bias)
        )
        tried = len(report.symbolic) + len(report.bias)
        print(
            f"[{done:>3}/{total}] {report.claim_id}: {killed}/{tried} killed"
            + (f" ({report.note})" if report.note else ""),
            file=sys.stderr,
            flush=True,
        )

    reports = mutate_claims(
        claims,
        limit=arguments.limit,
        slow=arguments.slow,
        workers=arguments.workers,
        on_done=progress,
        claim_seconds=arguments.claim_seconds,
    )
    theory = None
    if not arguments.no_theory:

        def theory_progress(found: list[TheoryOutcome], done: int, total: int) -> None:
            for outcome in found:
                print(
                    f"[{done:>3}/{total}] theory {outcome.mutant.label}: "
                    f"{outcome.outcome} for {outcome.source}"
                    + (f" by {outcome.killed_by}" if outcome.killed_by else ""),
                    file=sys.stderr,
                    flush=True,
                )

        registry = default_registry()
        theory = mutate_theory(
            claims,
            [registry.source(s) for s in dict.fromkeys(c.source for c in claims)],
            package=arguments.theory_package,
            per_function=arguments.theory_per_function,
            mutant_seconds=arguments.theory_seconds,
            slow=arguments.slow,
            workers=arguments.workers,
            on_done=theory_progress,
        )
    if arguments.json:
        records: dict[str, object] = {"claims": [r.as_record() for r in reports]}
        if theory is not None:
            records["theory"] = [o.as_record() for o in theory.outcomes]
            records["theory_judgements"] = [j.as_record() for j in theory.judgements]
            records["theory_excluded"] = dict(theory.excluded)
        print(json.dumps(records, indent=2))
    page = mutation_page(
        reports,
        command="implicit-bias mutate " + " ".join(arguments.argv),
        theory=theory,
    )
    if arguments.output:
        Path(arguments.output).write_text(page, encoding="utf-8")
        print(f"wrote {arguments.output}", file=sys.stderr)
    elif not arguments.json:
        print(page, end="")
    return 0


def _add_mutate(commands: Any, source_help: str) -> None:
    mutate = commands.add_parser(
        "mutate",
        help="mutation-test the checks: does each notice a wrong formula?",
        description="Judge altered copies of each claim's relation with its "
        "own check, shift the values numeric checks compare by 2 and 5 "
        "tolerances, and alter the theory functions the claims call (each "
        "mutant imported in place of the original before the claims run "
        "again); report kill rates per source and every survivor.",
    )
    _add_selection_options(mutate, source_help)
    mutate.add_argument(
        "--limit", type=int, default=40, help="most symbolic mutants per claim"
    )
    mutate.add_argument(
        "--slow", action="store_true", help="also shift the values of slow claims"
    )
    mutate.add_argument("--json", action="store_true", help="print JSON records")
    mutate.add_argument("--output", metavar="FILE", help="write the Markdown report")
    mutate.add_argument("--workers", type=int, default=None, help="parallel processes")
    mutate.add_argument(
        "--claim-seconds",
        type=float,
        default=CLAIM_SECONDS,
        metavar="S",
        help="CPU seconds for judging one claim's mutants, spread evenly over "
        f"its relations when they run out (default {CLAIM_SECONDS:g})",
    )
    mutate.add_argument(
        "--no-theory",
        action="store_true",
        help="do not mutate the functions of the theory layer",
    )
    mutate.add_argument(
        "--theory-package",
        default=THEORY_PACKAGE,
        metavar="NAME",
        help="the package of theory modules to alter, e.g. your own "
        f"`mynote.theory` (default {THEORY_PACKAGE})",
    )
    mutate.add_argument(
        "--theory-per-function",
        type=int,
        default=PER_FUNCTION,
        metavar="N",
        help=f"mutants per theory function (default {PER_FUNCTION})",
    )
    mutate.add_argument(
        "--theory-seconds",
        type=float,
        default=MUTANT_SECONDS,
        metavar="S",
        help="CPU seconds for one theory mutant's claims, per source "
        f"(default {MUTANT_SECONDS:g})",
    )
    mutate.set_defaults(handler=_mutate)


def _check_source(arguments: argparse.Namespace) -> int:
    claims = _selected(arguments)
    troubled = 0
    for claim in claims:
        lint = lint_claim(claim)
        troubled += bool(lint.problems)
        for problem in lint.problems:
            print(f"{claim.id}: {problem}")
        if arguments.verbose and not lint.problems:
            print(f"{claim.id}: typeset from {lint.typeset}; mutated: {lint.mutated}")
    print(
        f"{len(claims)} claims: {len(claims) - troubled} typeset as mathematics "
        f"and mutation-tested (or expected not to hold), {troubled} "
        + ("not (above)" if troubled else "not"),
        file=sys.stderr,
    )
    return 1 if troubled else 0


def _add_check_source(commands: Any, source_help: str) -> None:
    check = commands.add_parser(
        "check-source",
        help="lint the claims: is each typeset as mathematics and mutation-tested?",
        description="For each claim, say whether the LaTeX ledger typesets it as "
        "mathematics (its formula=, or the relation its check hands a relation "
        "helper such as check_identity) and whether `mutate` can alter it; for "
        "each that cannot, say why and how to fix it. Records each check's "
        "helper calls without deciding them (a few seconds of CPU at most, in "
        "a child process). Exit status 1 if any claim cannot.",
    )
    _add_selection_options(check, source_help)
    check.add_argument(
        "--verbose", action="store_true", help="also say how each good claim fares"
    )
    check.set_defaults(handler=_check_source)


def _add_latex(commands: Any, source_help: str) -> None:
    latex = commands.add_parser(
        "latex",
        help="print the claims as LaTeX, or write a compilable ledger",
        description="Without --output: one tagged equation per claim with a "
        "formula (fragments). With --output FILE: a standalone article, each "
        "source's claims as an align* ledger in the paper's order with the "
        "verdict in the margin; --ledger prints the ledgers alone. Margin "
        "verdicts come from --verdicts records, else from running the claims "
        "(--run), else the expected verdict is shown, labelled 'expected'.",
    )
    _add_selection_options(latex, source_help)
    latex.add_argument("--output", metavar="FILE", help="write a standalone .tex")
    latex.add_argument("--ledger", action="store_true", help="print the align* ledgers")
    latex.add_argument(
        "--bibliography",
        metavar="FILE",
        help="also write the BibTeX records of the selected claims' sources "
        "(the --output document has its own bibliography)",
    )
    latex.add_argument(
        "--run", action="store_true", help="check the claims that have no record"
    )
    _add_verdict_options(latex)
    latex.set_defaults(handler=_latex)


def _add_coverage(commands: Any, source_help: str) -> None:
    coverage = commands.add_parser(
        "coverage",
        help="how much of each source's text its claims check",
        description="For every numbered equation, theorem, lemma, proposition "
        "and figure a source lists (Source.inventory): checked (a claim with a "
        "decided verdict), undecided, not run, a definition with the claims "
        "that use it, not checkable (and why), or missing; per source and "
        "section, with the shares. Verdicts come from --verdicts records, the "
        "verdict cache, and with --run from checking the claims that have none.",
    )
    _add_selection_options(coverage, source_help)
    coverage.add_argument("--json", action="store_true", help="print JSON records")
    coverage.add_argument(
        "--mutations",
        metavar="FILE",
        help="the JSON of `implicit-bias mutate --json`: count the checked items "
        "whose claims received a mutant (mutation-tested)",
    )
    coverage.add_argument(
        "--run", action="store_true", help="check the claims that have no verdict"
    )
    _add_verdict_options(coverage)
    coverage.set_defaults(handler=_coverage)


def _add_list(commands: Any, source_help: str) -> None:
    listing = commands.add_parser("list", help="list the claims, one per line")
    _add_selection_options(listing, source_help)
    listing.add_argument(
        "--sources", action="store_true", help="list the sources and their citations"
    )
    listing.set_defaults(handler=_list)


def _add_docs(commands: Any, source_help: str) -> None:
    docs = commands.add_parser(
        "docs",
        help="generate the Markdown pages of the sources",
        description="Write, for each source asked for (--source, --file, "
        "--module; every registered one if none is), OUTPUT/<source>.md "
        "(preface from OUTPUT/prefaces, every claim with its formula, verdict "
        "and evidence) and OUTPUT/verdicts/<source>.json (the evidence); with "
        "--api, also OUTPUT/api.md, the toolkit's API reference (and, if no "
        "source is named, the pages of the sources the toolkit ships). The claims "
        "are run, except those given by --verdicts; with --quick, slow claims "
        "keep the verdict recorded in OUTPUT/verdicts. Exits 1 when a verdict "
        "is not the expected one. --check writes nothing: it checks the "
        "sources asked for (with --api and none named, those the toolkit ships), "
        "else those OUTPUT holds records of, and OUTPUT/api.md if there is one "
        "or --api is given.",
    )
    docs.add_argument("--output", default="docs", help="the docs directory")
    _add_selection_options(docs, source_help)
    docs.add_argument(
        "--prefaces", metavar="DIR", help="the prefaces (default OUTPUT/prefaces)"
    )
    docs.add_argument(
        "--check",
        action="store_true",
        help="write nothing; list what is stale and exit 1 if anything is",
    )
    docs.add_argument(
        "--api",
        action="store_true",
        help="also write (or check) OUTPUT/api.md, the toolkit's API reference; "
        "with no source named, the docs of the sources the toolkit ships (its "
        "own docs/)",
    )
    docs.add_argument(
        "--paper-run",
        metavar="FILE",
        help="write OUTPUT/verdicts/paper/ (each source's records at the paper "
        "profile, and what the run was) and OUTPUT/paper-profile.md from the "
        "file benchmarks/run_paper_profile.py wrote; runs no claim",
    )
    _add_verdict_options(docs)
    docs.set_defaults(handler=_docs)


def _sweep(arguments: argparse.Namespace) -> int:
    store = arguments.store or f"{arguments.name}.sqlite"
    try:
        sweep = BUILTIN_SWEEPS[arguments.name]()
        summary = run_sweep(
            sweep.function,
            sweep.configurations,
            store=store,
            version=sweep.version,
            workers=arguments.workers,
            executor=arguments.executor,
            scheduler=arguments.scheduler,
            progress=not arguments.quiet,
            blas_threads=arguments.blas_threads,
        )
    except SweepInterrupted as error:
        # One line, no traceback; 128 + N is the shell's status for signal N.
        print(f"implicit-bias sweep: {error}", file=sys.stderr)
        return 128 + error.signal_number
    except KeyboardInterrupt:  # before or after the sweep's own handling
        print(
            f"implicit-bias sweep: interrupted by SIGINT; results so far are kept "
            f"in {store}, rerun to resume",
            file=sys.stderr,
        )
        return 130
    except SweepError as error:
        print(f"implicit-bias sweep: {error}", file=sys.stderr)
        return 1
    except ImportError as error:
        print(f"implicit-bias sweep: error: {error}", file=sys.stderr)
        return 2
    others = (
        f", {summary.stored_by_others} stored by other sweeps"
        if summary.stored_by_others
        else ""
    )
    print(
        f"{arguments.name}: {summary.total} configurations, "
        f"{summary.already_stored} already stored, {summary.computed} computed"
        f"{others} in {summary.seconds:.1f} s with {summary.blas_threads} BLAS "
        f"thread(s) per worker; results in {store}"
    )
    return 0


def _add_sweep(commands: Any, source_help: str) -> None:
    descriptions = "; ".join(
        f"{name}: {' '.join((factory.__doc__ or '').split())}"
        for name, factory in BUILTIN_SWEEPS.items()
    )
    sweep = commands.add_parser(
        "sweep",
        help="run a built-in simulation sweep, resuming from its store",
        description="Run a built-in sweep, storing each result in SQLite as it "
        "completes; rerunning resumes, and sweeps sharing a store share the "
        "work. Ctrl-C or SIGTERM stops it (exit status 130 or 143), keeping "
        f"what is stored. Sweeps: {descriptions}",
    )
    sweep.add_argument("name", choices=sorted(BUILTIN_SWEEPS), help="the sweep")
    sweep.add_argument("--store", help="SQLite file (default: NAME.sqlite)")
    sweep.add_argument("--workers", type=int, default=None, help="local processes")
    sweep.add_argument(
        "--executor", choices=EXECUTORS, default="process", help="where to compute"
    )
    sweep.add_argument("--scheduler", help="Dask scheduler address (--executor dask)")
    sweep.add_argument(
        "--blas-threads",
        type=int,
        default=1,
        help="BLAS threads per worker (default 1); one store holds one count",
    )
    sweep.add_argument("--quiet", action="store_true", help="no progress bar")
    sweep.set_defaults(handler=_sweep)


def _figure(arguments: argparse.Namespace) -> int:
    if arguments.list or arguments.name is None:
        for name, spec in FIGURES.items():
            print(f"{name}  {spec.caption}")
        return 0
    output = arguments.output or f"{arguments.name.replace(':', '-fig')}.png"
    try:
        path = draw_figure(arguments.name, output)
    except MissingExtraError as error:
        print(f"implicit-bias figure: error: {error}", file=sys.stderr)
        return 2
    print(f"{arguments.name}: written to {path}")
    return 0


def _add_figure(commands: Any, source_help: str) -> None:
    figure = commands.add_parser(
        "figure",
        help="draw one of the papers' figures from the numerics",
        description="Draw figure NAME (source:figure, see --list) into a PNG, PDF "
        "or SVG file. Needs matplotlib: pip install 'implicit-bias[plot]'.",
    )
    figure.add_argument("name", nargs="?", help="the figure, e.g. ptft-relu-penalty:1a")
    figure.add_argument("--output", help="the file (default: NAME as a .png here)")
    figure.add_argument("--list", action="store_true", help="list the figures")
    figure.set_defaults(handler=_figure)


def _new(arguments: argparse.Namespace) -> int:
    directory = arguments.directory or arguments.name
    for path in scaffold(arguments.name, directory):
        print(f"wrote {path}", file=sys.stderr)
    print(
        f"next: pip install -e {directory} && implicit-bias verify --source "
        f"{arguments.name}"
    )
    return 0


def _add_new(commands: Any, source_help: str) -> None:
    new = commands.add_parser(
        "new",
        help="write the skeleton of a source package of your own",
        description="Write an installable package NAME (pyproject.toml registering "
        "its source through the entry-point group implicit_bias.sources, a Source "
        "with one claim and one derivation chain, a test) into DIRECTORY (default "
        "NAME).",
    )
    new.add_argument("name", help="the source id, e.g. my-note")
    new.add_argument("directory", nargs="?", help="where to write (default: NAME)")
    new.set_defaults(handler=_new)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="implicit-bias",
        description="Verify the claims of implicit-bias theory papers.",
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    source_help = "only this source id (`implicit-bias list --sources`); repeatable"
    for add in (
        _add_verify,
        _add_latex,
        _add_list,
        _add_docs,
        _add_mutate,
        _add_coverage,
        _add_check_source,
        _add_figure,
        _add_sweep,
        _add_new,
    ):
        add(commands, source_help)
    return parser


class _Terminated(BaseException):
    """SIGTERM arrived: raised in the main thread, so that the runner stops
    its workers on the way out as it does for Ctrl-C."""


@contextlib.contextmanager
def _sigterm_raises() -> Iterator[None]:
    """Turn SIGTERM into :class:`_Terminated` while a command runs (main
    thread only; the workers take SIGTERM's default action again)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(number: int, frame: FrameType | None) -> None:
        raise _Terminated

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    SIGINT (Ctrl-C) and SIGTERM stop the command and its workers with one
    line on stderr and the shell's status for the signal (130 or 143); the
    verdicts ``verify`` finished before are in its cache.
    """
    words = list(sys.argv[1:] if argv is None else argv)
    arguments = _parser().parse_args(words)
    arguments.argv = words[1:]
    command = words[0] if words else ""
    try:
        with _sigterm_raises(), using_registry(_registry(arguments)):
            return int(arguments.handler(arguments))
    except (ValueError, OSError) as error:
        print(f"implicit-bias: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"implicit-bias {command}: interrupted by SIGINT", file=sys.stderr)
        return 128 + signal.SIGINT
    except _Terminated:
        print(f"implicit-bias {command}: stopped by SIGTERM", file=sys.stderr)
        return 128 + signal.SIGTERM
