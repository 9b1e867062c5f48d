"""What the commands share: the claims the options select, their verdict
records and cache, and the progress lines."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence

from implicit_bias.claims.cache import VerdictCache
from implicit_bias.claims.engine import Claim, Result, Verdict
from implicit_bias.claims.discovery import (
    LoadInterrupted,
    Registry,
    default_registry,
    extended_registry,
)
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.reports import (
    gather_verdicts,
    read_verdicts,
)


def _registry(arguments: argparse.Namespace) -> Registry:
    """The installed sources plus those of ``--file`` and ``--module`` (in
    place of installed ones of the same id with ``--shadow``); every source
    that failed to load, and every installed one shadowed, is reported on
    stderr."""
    shadow = getattr(arguments, "shadow", False)
    if shadow and getattr(arguments, "executor", "local") == "dask":
        # A Dask worker builds its registry from the files alone, where the
        # installed source would keep the id: it would check the wrong claims.
        raise InvalidArgumentError(
            "--shadow: for local runs only; with --executor dask, give the "
            "file's source an id of its own"
        )
    try:
        registry = extended_registry(
            getattr(arguments, "file", None) or (),
            getattr(arguments, "module", None) or (),
            shadow=shadow,
        )
    except LoadInterrupted as interrupt:
        # Say which file Ctrl-C stopped; the interrupt itself is main's to report.
        print(f"implicit-bias: {interrupt}", file=sys.stderr)
        raise
    for error in registry.errors:
        print(f"implicit-bias: source not loaded: {error}", file=sys.stderr)
    for source_id, installed in registry.shadowed.items():
        print(
            f"implicit-bias: {registry.origins[source_id]} shadows the installed "
            f"source {source_id} ({installed}) for this run",
            file=sys.stderr,
        )
    return registry


def _selected(arguments: argparse.Namespace) -> list[Claim]:
    """The claims the options name: ``--claim``, else ``--source``, ``--file`` and
    ``--module`` (all those given), else every registered claim."""
    registry = default_registry()
    if getattr(arguments, "claim", None):
        return [registry.claim(claim_id) for claim_id in arguments.claim]
    chosen = list(arguments.source or ())
    loaded: list[str] = []
    for origin_kind, values in (("file", "file"), ("module", "module")):
        for value in getattr(arguments, values, None) or ():
            loaded.append(f"--{origin_kind} {value}")
            chosen += [
                source_id
                for source_id, origin in registry.origins.items()
                if origin == f"{origin_kind} {value}" and source_id not in chosen
            ]
    if loaded and not chosen:
        # Else a file that failed to load would select every installed claim.
        raise InvalidArgumentError(
            f"{', '.join(loaded)}: no source registered (see the errors above)"
        )
    return (
        [c for source in chosen for c in registry.claims(source)]
        if chosen
        else registry.claims()
    )


def _progress(result: Result, done: int, total: int) -> None:
    mark = "ok" if result.as_expected else "UNEXPECTED"
    print(
        f"[{done:>3}/{total}] {result.claim.id}: {result.verdict.status} "
        f"({result.seconds:.1f} s) {mark}",
        file=sys.stderr,
        flush=True,
    )


def _recorded(arguments: argparse.Namespace) -> dict[str, Verdict]:
    return read_verdicts(arguments.verdicts or ())


def _gathered(
    arguments: argparse.Namespace,
    claims: Sequence[Claim],
    recorded: Mapping[str, Verdict],
    *,
    run: bool,
    cache: VerdictCache | None,
) -> dict[str, Verdict]:
    """:func:`gather_verdicts` with the ``--quick`` and ``--workers`` options,
    printing each claim run."""
    return gather_verdicts(
        claims,
        recorded,
        run=run,
        quick=arguments.quick,
        workers=arguments.workers,
        on_result=_progress,
        cache=cache,
    )


def _add_cache_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="run every claim, ignoring stored verdicts (the new ones are stored)",
    )
    parser.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="where verdicts are cached, by a digest of the code each claim runs "
        "(default: $IMPLICIT_BIAS_CACHE_DIR, else .implicit-bias-cache)",
    )
    parser.add_argument(
        "--cache-key-file",
        metavar="FILE",
        help="the secret key that signs cached verdicts, created if absent; "
        "share it among the writers of a shared cache, with no one else "
        "(default: $IMPLICIT_BIAS_CACHE_KEY_FILE, else "
        "~/.config/implicit-bias/cache-key)",
    )


def _cache(arguments: argparse.Namespace) -> VerdictCache | None:
    """The verdict cache the options name, or None with ``--no-cache``."""
    if arguments.no_cache:
        return None
    return VerdictCache(
        arguments.cache_dir or VerdictCache.default_directory(),
        key_file=arguments.cache_key_file,
    )


def _add_selection_options(parser: argparse.ArgumentParser, source_help: str) -> None:
    parser.add_argument("--source", action="append", metavar="ID", help=source_help)
    parser.add_argument(
        "--claim",
        action="append",
        metavar="ID",
        help="only this claim (source:equation:label); repeatable",
    )
    parser.add_argument(
        "--file",
        action="append",
        metavar="PATH",
        help="also load the sources a Python file defines; repeatable",
    )
    parser.add_argument(
        "--module",
        action="append",
        metavar="NAME",
        help="also load the sources an importable module defines; repeatable",
    )
    parser.add_argument(
        "--shadow",
        action="store_true",
        help="let a source of --file or --module replace the installed source "
        "of the same id for this run (without it, such a source is refused)",
    )


def _add_verdict_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--verdicts",
        nargs="+",
        metavar="FILE",
        help="JSON verdict records (`verify --json`, docs/verdicts/*.json) to use "
        "instead of running those claims; the first file naming a claim wins",
    )
    parser.add_argument("--quick", action="store_true", help="do not run slow claims")
    parser.add_argument("--workers", type=int, default=None, help="parallel processes")
    _add_cache_options(parser)
