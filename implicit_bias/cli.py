"""The command line: ``implicit-bias verify | latex | list``."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Sequence

from implicit_bias.claims.engine import Claim, Result
from implicit_bias.claims.engine import run_claims
from implicit_bias.claims.registry import SOURCES, claims_for, get_claim
from implicit_bias.latex import claims_latex

__all__ = ["main"]


def _selected(source: str | None, quick: bool = False) -> list[Claim]:
    claims = claims_for(source)
    return [c for c in claims if not (quick and c.slow)]


def _progress(result: Result, done: int, total: int) -> None:
    mark = "ok" if result.as_expected else "UNEXPECTED"
    print(
        f"[{done:>3}/{total}] {result.claim.id}: {result.verdict.status} "
        f"({result.seconds:.1f} s) {mark}",
        file=sys.stderr,
        flush=True,
    )


def _table(results: Sequence[Result]) -> str:
    width = shutil.get_terminal_size((160, 40)).columns
    header = ("claim", "source", "eq.", "kind", "verdict", "s", "evidence")
    rows = [
        (
            f"{r.claim.equation}:{r.claim.label}",
            r.claim.source,
            r.claim.equation,
            str(r.claim.kind),
            str(r.verdict.status) + ("" if r.as_expected else " (!)"),
            f"{r.seconds:.1f}",
            r.verdict.detail,
        )
        for r in results
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(6)]
    lines = []
    for row in [header, *rows]:
        fixed = "  ".join(
            cell.ljust(w) for cell, w in zip(row[:6], widths, strict=True)
        )
        room = max(20, width - len(fixed) - 2)
        evidence = row[6] if len(row[6]) <= room else row[6][: room - 3] + "..."
        lines.append(f"{fixed}  {evidence}")
    return "\n".join(lines)


def _verify(arguments: argparse.Namespace) -> int:
    claims = _selected(arguments.source, arguments.quick)
    results = run_claims(claims, workers=arguments.workers, on_result=_progress)
    unexpected = [r for r in results if not r.as_expected]
    if arguments.json:
        print(json.dumps([r.as_record() for r in results], indent=2))
    else:
        print(_table(results))
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
    return 1 if unexpected else 0


def _latex(arguments: argparse.Namespace) -> int:
    claims = (
        [get_claim(arguments.claim)] if arguments.claim else _selected(arguments.source)
    )
    print(claims_latex(claims), end="")
    return 0


def _list(arguments: argparse.Namespace) -> int:
    for claim in _selected(arguments.source):
        flags = " [slow]" if claim.slow else ""
        corrects = f" (corrects {claim.corrects})" if claim.corrects else ""
        print(
            f"{claim.id}  {claim.kind}  expected {claim.expected}{flags}: "
            f"{claim.statement}{corrects}"
        )
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="implicit-bias",
        description="Verify the claims of implicit-bias theory papers.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    source_help = f"only this source ({', '.join(sorted(SOURCES))})"

    verify = commands.add_parser("verify", help="check the claims and print verdicts")
    verify.add_argument("--source", help=source_help)
    verify.add_argument("--quick", action="store_true", help="skip slow simulations")
    verify.add_argument("--json", action="store_true", help="print JSON records")
    verify.add_argument("--workers", type=int, default=None, help="parallel processes")
    verify.set_defaults(run=_verify)

    latex = commands.add_parser("latex", help="print the claims as LaTeX")
    latex.add_argument("--source", help=source_help)
    latex.add_argument("--claim", help="only this claim id (source:equation:label)")
    latex.set_defaults(run=_latex)

    listing = commands.add_parser("list", help="list the claims, one per line")
    listing.add_argument("--source", help=source_help)
    listing.set_defaults(run=_list)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    arguments = _parser().parse_args(argv)
    try:
        return int(arguments.run(arguments))
    except ValueError as error:
        print(f"implicit-bias: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
