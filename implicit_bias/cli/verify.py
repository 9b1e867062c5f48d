"""``implicit-bias verify``: run the claims, print the table, the evidence of
the surprises and the coverage of each source."""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import shutil
import sys
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from implicit_bias.claims.cache import VerdictCache, run_claims_cached
from implicit_bias.claims.engine import Claim, Result, Status
from implicit_bias.claims.executors import EXECUTORS as CLAIM_EXECUTORS
from implicit_bias.claims.executors import DaskExecutor, Executor, LocalExecutor
from implicit_bias.claims.coverage import source_coverage
from implicit_bias.claims.profiles import (
    Profile,
    claim_for_profile,
    claims_for_profile,
    format_plan,
    plan,
    plan_summary,
)
from implicit_bias.claims.discovery import (
    default_registry,
)
from implicit_bias.errors import InvalidArgumentError

from implicit_bias.cli.options import (
    _add_cache_options,
    _add_selection_options,
    _progress,
    _selected,
)


def _width() -> int:
    """The terminal's columns (``$COLUMNS`` first), 160 when not a terminal."""
    return shutil.get_terminal_size((160, 40)).columns


def _table(results: Sequence[Result], *, wide: bool = False) -> str:
    """One line per result, the evidence cut to the terminal's width unless
    ``wide`` (the whole of it is in :func:`_evidence`)."""
    width = _width()
    header = (
        "claim",
        "source",
        "kind",
        "reading",
        "verdict",
        "basis",
        "s",
        "evidence",
    )
    rows = [
        (
            f"{r.claim.equation}:{r.claim.label}",
            r.claim.source,
            str(r.claim.kind),
            str(r.claim.reading or "-"),
            str(r.verdict.status)
            + ("" if r.verdict.reason is None else f" ({r.verdict.reason})")
            + ("" if r.as_expected else " (!)"),
            str(r.verdict.basis or "-"),
            f"{r.seconds:.1f}",
            r.verdict.detail,
        )
        for r in results
    ]
    fixed_columns = len(header) - 1
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(fixed_columns)]
    lines = []
    for row in [header, *rows]:
        fixed = "  ".join(
            cell.ljust(w) for cell, w in zip(row[:fixed_columns], widths, strict=True)
        )
        room = max(20, width - len(fixed) - 2)
        evidence = (
            row[-1] if wide or len(row[-1]) <= room else row[-1][: room - 3] + "..."
        )
        lines.append(f"{fixed}  {evidence}")
    return "\n".join(lines)


def _evidence(result: Result) -> str:
    """The whole evidence of one result, wrapped to the terminal: its verdict
    against the expected one, basis, reason, evidence, counterexample and the
    counterexample's point in the source's glyphs (their LaTeX)."""
    verdict, claim = result.verdict, result.claim
    expected = str(claim.expected) + (
        "" if claim.expected_reason is None else f" ({claim.expected_reason})"
    )
    heading = f"{claim.id}: {verdict.status}" + (
        "" if verdict.reason is None else f" ({verdict.reason})"
    )
    heading += (
        " (as expected)"
        if result.as_expected
        else f" (UNEXPECTED: expected {expected})"
    )
    if verdict.basis is not None:
        heading += f", basis {verdict.basis}"
    fields = [("evidence", verdict.detail)]
    if verdict.counterexample is not None:
        fields.append(("counterexample", verdict.counterexample))
    point = verdict.shown_point(default_registry().glyphs(claim.source))
    if point is not None:
        fields.append(("counterexample point", point))
    width = _width()
    lines = [heading]
    for name, text in fields:
        # Whole words only: a ball's digits or a glyph cut in two misleads.
        lines += textwrap.wrap(
            text,
            width=width,
            initial_indent=f"  {name}: ",
            subsequent_indent="    ",
            break_long_words=False,
            break_on_hyphens=False,
        )
    return "\n".join(lines)


def _verify_profile(arguments: argparse.Namespace) -> Profile:
    """``--profile``, with ``--quick`` standing for ``--profile quick``."""
    if arguments.quick:
        if arguments.profile not in (None, Profile.QUICK):
            raise InvalidArgumentError(
                f"--quick: means --profile quick, not --profile {arguments.profile}"
            )
        return Profile.QUICK
    return Profile(arguments.profile or Profile.DEFAULT)


def _plan(arguments: argparse.Namespace, claims: Sequence[Claim]) -> int:
    profile = _verify_profile(arguments)
    cache = VerdictCache(
        arguments.cache_dir or VerdictCache.default_directory(),
        key_file=arguments.cache_key_file,
    )
    last_seconds: dict[str, float] = {}
    if not arguments.no_cache:
        for claim in claims_for_profile(claims, profile):
            stored = cache.get(claim)
            if stored is not None:
                last_seconds[claim.id] = stored.seconds
    entries = plan(claims, profile, last_seconds)
    workers = (os.cpu_count() or 1) if arguments.workers is None else arguments.workers
    print(f"profile {profile}: estimated cost of each claim, before running any")
    print(format_plan(entries, workers))
    return 0


def _expected_cost(
    to_run: Sequence[Claim],
    last_seconds: Mapping[str, float],
    arguments: argparse.Namespace,
    executor: Executor | None,
) -> str:
    """What ``verify`` says before it runs ``to_run``: the plan's estimate,
    from each claim's last run here, else its cost model, and how many
    claims neither estimates (a first run on a new machine)."""
    # The claims are already the profile's: plan them as run, not re-chosen.
    # Rough timings: a cold run's plan is paid before any claim starts.
    entries = plan(
        to_run, Profile.DEFAULT, last_seconds, measured_first=True, rough=True
    )
    if executor is None:
        workers = (
            (os.cpu_count() or 1) if arguments.workers is None else arguments.workers
        )
    else:
        workers = None
    bases = collections.Counter(entry.basis for entry in entries)
    how = ", ".join(
        f"{count} by {basis}"
        for basis, count in (
            ("their last run", bases["last run"]),
            (
                "a cost model (an upper bound: every run at its step cap)",
                bases["model"],
            ),
        )
        if count
    )
    return f"implicit-bias: running {plan_summary(entries, workers)}" + (
        f"; estimated {how}" if how else ""
    )


def _claim_executor(arguments: argparse.Namespace) -> Executor | None:
    """The executor ``--executor`` and ``--scheduler`` name; None for local
    processes (``--workers`` of them)."""
    if arguments.executor == "local":
        if arguments.scheduler is not None:
            raise InvalidArgumentError(
                f"--scheduler {arguments.scheduler}: used by --executor dask only"
            )
        if arguments.isolate:
            return LocalExecutor(arguments.workers, isolate=True)
        return None
    if arguments.isolate:
        raise InvalidArgumentError(
            "--isolate: for local processes; a Dask worker runs each claim in a "
            "process of its own already"
        )
    if not arguments.scheduler:
        raise InvalidArgumentError(
            "--scheduler: --executor dask needs the address of a running Dask "
            "scheduler, e.g. --scheduler tcp://127.0.0.1:8786"
        )
    if arguments.workers is not None:
        raise InvalidArgumentError(
            f"--workers {arguments.workers}: counts local processes; with "
            "--executor dask the cluster's workers run the claims"
        )
    return DaskExecutor(
        arguments.scheduler,
        files=arguments.file or (),
        modules=arguments.module or (),
        profile=_verify_profile(arguments),
    )


def _verify(arguments: argparse.Namespace) -> int:
    executor = _claim_executor(arguments)
    claims = _selected(arguments)
    profile = _verify_profile(arguments)
    left_out = [c.id for c in claims if claim_for_profile(c, profile) is None]
    if arguments.claim and left_out:
        # A claim asked for by name is run or refused, never dropped silently.
        raise InvalidArgumentError(
            f"--claim {' '.join(left_out)}: slow, left out by --profile {profile} "
            "(--quick); run it without --quick"
        )
    if arguments.plan:
        return _plan(arguments, claims)
    claims = claims_for_profile(claims, profile)
    cache = VerdictCache(
        arguments.cache_dir or VerdictCache.default_directory(),
        key_file=arguments.cache_key_file,
    )

    def progress(result: Result, done: int, total: int, cached: bool) -> None:
        if not cached:
            _progress(result, done, total)
            return
        mark = "ok" if result.as_expected else "UNEXPECTED"
        print(
            f"[{done:>3}/{total}] {result.claim.id}: {result.verdict.status} "
            f"(cached) {mark}",
            file=sys.stderr,
            flush=True,
        )

    def warm_up(chosen: Sequence[Claim]) -> None:
        for problem in default_registry().warm_up(chosen):
            print(f"implicit-bias: {problem}", file=sys.stderr)

    def expected_cost(to_run: Sequence[Claim], last: Mapping[str, float]) -> None:
        if to_run:
            print(_expected_cost(to_run, last, arguments, executor), file=sys.stderr)

    # Standard output is for the table or the JSON records: what a warm-up
    # prints goes to stderr, as what a check prints in a worker does.
    with contextlib.redirect_stdout(sys.stderr):
        results, from_cache = run_claims_cached(
            claims,
            cache,
            workers=None if executor is not None else arguments.workers,
            on_result=progress,
            read=not arguments.no_cache,
            executor=executor,
            prepare=warm_up,
            needs_prepare=default_registry().has_warm_up,
            on_plan=expected_cost,
        )
    for problem in [*dict.fromkeys(cache.errors), *cache.refusals()]:
        print(f"implicit-bias: cache: {problem}", file=sys.stderr)
    print(
        f"{len(results)} claims: {from_cache} from the cache, "
        f"{len(results) - from_cache} run"
        + (" (--no-cache)" if arguments.no_cache else f" (cache: {cache.directory})"),
        file=sys.stderr,
    )
    unexpected = [r for r in results if not r.as_expected]
    if arguments.json:
        print(json.dumps([r.as_record() for r in results], indent=2))
    else:
        print(_table(results, wide=arguments.wide))
        # The claims asked for by id, and every surprise or failure: in full.
        shown = [
            r
            for r in results
            if arguments.claim or not r.as_expected or r.verdict.status == Status.FAILS
        ]
        if shown:
            print("\nEvidence:\n\n" + "\n\n".join(map(_evidence, shown)))
        counts = {
            s: sum(1 for r in results if str(r.verdict.status) == s)
            for s in ("holds", "fails", "inconclusive")
        }
        print(
            f"\n{len(results)} claims: {counts['holds']} hold, {counts['fails']} fail, "
            f"{counts['inconclusive']} inconclusive; "
            + (
                "every verdict as expected."
                if not unexpected
                else f"{len(unexpected)} UNEXPECTED: "
                + ", ".join(r.claim.id for r in unexpected)
            )
        )
        if not arguments.claim:
            verdicts = {r.claim.id: r.verdict for r in results}
            registry = default_registry()
            for source_id in dict.fromkeys(r.claim.source for r in results):
                report = source_coverage(registry.source(source_id), verdicts)
                print(f"coverage: {report.summary()}")
    return 1 if unexpected else 0


def _add_verify(commands: Any, source_help: str) -> None:
    verify = commands.add_parser("verify", help="check the claims and print verdicts")
    _add_selection_options(verify, source_help)
    verify.add_argument(
        "--quick", action="store_true", help="skip slow claims (--profile quick)"
    )
    verify.add_argument(
        "--profile",
        choices=[p.value for p in Profile],
        default=None,
        help="quick: skip slow claims; default: every claim at its own size; "
        "paper: simulations at the source's own configuration where a claim "
        "gives one",
    )
    verify.add_argument(
        "--plan",
        action="store_true",
        help="print each claim's estimated cost under the profile, run nothing",
    )
    verify.add_argument("--json", action="store_true", help="print JSON records")
    verify.add_argument(
        "--wide",
        action="store_true",
        help="do not cut the table's evidence to the terminal's width (the "
        "evidence of a failing or unexpected claim, or one named by --claim, "
        "is printed whole after the table anyway)",
    )
    verify.add_argument("--workers", type=int, default=None, help="parallel processes")
    verify.add_argument(
        "--isolate",
        action="store_true",
        help="run each claim in a fresh process of its own, sharing nothing "
        "(slower; the default reuses each worker process claim after claim)",
    )
    verify.add_argument(
        "--executor",
        choices=CLAIM_EXECUTORS,
        default="local",
        help="where the checks run: local forked processes (default), or one "
        "Dask task per claim on the cluster of --scheduler, each under its "
        "budget on the worker (workers need this package, the sources and the "
        "--file files at the same paths)",
    )
    verify.add_argument(
        "--scheduler",
        metavar="ADDR",
        help="the address of a running Dask scheduler, e.g. tcp://host:8786 "
        "(required with --executor dask)",
    )
    _add_cache_options(verify)
    verify.set_defaults(handler=_verify)
