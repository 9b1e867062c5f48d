"""Benchmark: the slowest simulation claims of the default profile, now and before.

Issue 23: the default profile's costliest simulations after the ReLU Fig. 1c
claims are features-are-fate's Fig. 4(a)-(b) student (``kernel-sparsifies``)
and ptft-diagonal-networks' full Appendix E.1 experiments and planted
multi-task problem. Each claim's check is run in a fresh interpreter (one
BLAS thread, as a verify worker runs it), and its CPU seconds measured around
``claim.check()`` alone (not the imports). With ``--baseline-rev REV`` the
package as of git revision REV (``git archive`` into a temporary directory,
run from there so that it shadows the installed one) runs in the same
session, alternating with the current one claim by claim (the order flips
every run), so that a change of the machine's load hits both alike; the load
average is printed before and after, and each figure is the best of
``--runs``.

Results must not change: the (status, basis, reason) of every claim must be
the same in both states (the script exits 1 otherwise), and the detail
strings are compared too (printed when they differ: a change at rounding
level is allowed, anything else is not).

Run:  python benchmarks/bench_default_simulations.py [--runs 3]
      [--baseline-rev 342a32b] [--claim ID ...]
Target (issue 23): these four claims together within ~10 s of CPU at the
default profile (from ~28 s).
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from baseline import REPOSITORY, checkout_at, load_average


CLAIMS = (
    "features-are-fate:sec-4:kernel-sparsifies",
    "ptft-diagonal-networks:sec-E.1:norms-versus-samples-full",
    "ptft-diagonal-networks:sec-E.1:rescaling-reduces-overlap-full",
    "ptft-diagonal-networks:30:gd-recovers-group-sparse",
)

#: Run by a fresh interpreter whose first ``sys.path`` entry is the working
#: directory (the checkout being measured): one claim's check, timed alone.
CHILD = """
import json, sys, time
import implicit_bias
from threadpoolctl import threadpool_limits
from implicit_bias.claims.registry import get_claim
claim = get_claim(sys.argv[1])
with threadpool_limits(limits=1):
    start = time.process_time()
    verdict = claim.check()
    seconds = time.process_time() - start
print(json.dumps({
    "file": implicit_bias.__file__,
    "seconds": seconds,
    "verdict": [str(verdict.status), str(verdict.basis), str(verdict.reason)],
    "detail": verdict.detail,
}))
"""


@dataclass
class State:
    """One state of the package: where it runs from, and what it measured."""

    label: str
    cwd: Path
    seconds: dict[str, list[float]] = field(default_factory=dict)
    results: dict[str, dict[str, Any]] = field(default_factory=dict)


def run_check(state: State, claim: str) -> None:
    """Run ``claim``'s check once in a fresh interpreter from ``state.cwd``."""
    completed = subprocess.run(
        [sys.executable, "-c", CHILD, claim],
        cwd=state.cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(
            f"{state.label} {claim}: exited {completed.returncode}:\n"
            f"{completed.stderr[-2000:]}"
        )
    result = json.loads(completed.stdout.splitlines()[-1])
    if not Path(result["file"]).resolve().is_relative_to(state.cwd.resolve()):
        raise RuntimeError(
            f"{state.label} imported {result['file']}, not the package in {state.cwd}"
        )
    state.seconds.setdefault(claim, []).append(result["seconds"])
    state.results[claim] = result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="best of this many")
    parser.add_argument(
        "--baseline-rev",
        default="342a32b",
        help="git revision to compare with ('' to time the current state alone)",
    )
    parser.add_argument(
        "--claim",
        action="append",
        dest="claims",
        help="a claim id (repeatable); default: the four of issue 23",
    )
    args = parser.parse_args()
    claims = tuple(args.claims or CLAIMS)
    print(f"python {platform.python_version()} on {platform.machine()}")
    print(f"load average before: {load_average()}")
    with tempfile.TemporaryDirectory(prefix="bench-default-simulations-") as temp:
        states = [State("current", REPOSITORY)]
        if args.baseline_rev:
            baseline = checkout_at(args.baseline_rev, Path(temp))
            states.append(State(f"baseline {args.baseline_rev}", baseline))
        for run in range(args.runs):
            for claim in claims:
                order = states if run % 2 == 0 else states[::-1]
                for state in order:
                    run_check(state, claim)
    print(f"load average after:  {load_average()}")
    current = states[0]
    width = max(map(len, claims))
    header = f"{'claim':<{width}}  {'now (s)':>8}"
    if len(states) > 1:
        header += f"  {'before (s)':>10}  {'ratio':>6}"
    print(f"\nbest of {args.runs} runs, CPU seconds of claim.check() alone")
    print(header)
    totals = [0.0] * len(states)
    for claim in claims:
        bests = [min(state.seconds[claim]) for state in states]
        totals = [total + best for total, best in zip(totals, bests, strict=True)]
        line = f"{claim:<{width}}  {bests[0]:8.2f}"
        if len(states) > 1:
            line += f"  {bests[1]:10.2f}  {bests[0] / bests[1]:6.2f}"
        print(line)
    total = f"{'total':<{width}}  {totals[0]:8.2f}"
    if len(states) > 1:
        total += f"  {totals[1]:10.2f}  {totals[0] / totals[1]:6.2f}"
    print(total)
    if len(states) == 1:
        return
    failed = False
    for claim in claims:
        now, before = current.results[claim], states[1].results[claim]
        if now["verdict"] != before["verdict"]:
            failed = True
            print(f"\nVERDICT CHANGED {claim}: {before['verdict']} -> {now['verdict']}")
        if now["detail"] != before["detail"]:
            print(
                f"\ndetail differs for {claim}:\n  before: {before['detail']}\n"
                f"  now:    {now['detail']}"
            )
    if failed:
        sys.exit(1)
    print("\nverdicts identical ((status, basis, reason) of every claim)")


if __name__ == "__main__":
    main()
