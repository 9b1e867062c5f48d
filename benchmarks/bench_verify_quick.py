"""Benchmark: ``implicit-bias verify`` from a cold cache, now and before.

Each run is a fresh ``implicit-bias verify --profile P --no-cache --json``
process (P is ``quick``, and also ``default`` with ``--profiles quick default``)
with an empty ``--cache-dir`` of its own (so no verdict and no measured
seconds are known: the cold start a user's first run meets), timed wall clock
together with the CPU seconds of the process and its forked workers. With
``--baseline-rev REV`` the package as of git revision REV (``git archive``
into a temporary directory, run from there so that it shadows the installed
one) is run in the same session, alternating with the current one so that a
change of the machine's load hits both alike; the load average is printed
before and after, and the figures are given as ratios to the baseline.

The verdicts of the two states are compared claim by claim, profile by
profile: the (status, basis, reason) of every claim both run must be the same
(a speed-up must not change what is decided, nor on what basis).

Run:  python benchmarks/bench_verify_quick.py [--runs 1] [--baseline-rev HEAD]
      [--workers N] [--profiles quick default]
Targets: issue 13, quick <= 30 s wall on an idle 2-core machine; issue 23,
default (now) <= 2.0 x quick (before) and quick (now) <= quick (before).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from baseline import REPOSITORY, checkout_at, load_average


#: The command line, run by a fresh interpreter whose first ``sys.path`` entry
#: is the working directory (the checkout being measured).
VERIFY = (
    "import sys; from implicit_bias.cli import main; "
    "sys.exit(main(['verify', '--profile', sys.argv[1], '--no-cache', '--json', "
    "'--cache-dir', sys.argv[2]] + sys.argv[3:]))"
)


@dataclass
class State:
    """One state of the package under one profile, run in fresh processes."""

    label: str
    cwd: Path
    profile: str
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)

    @property
    def best_wall(self) -> float:
        return min(self.walls)

    @property
    def best_cpu(self) -> float:
        return min(self.cpus)


def measure_verify(state: State, workers: int | None) -> None:
    """Run ``verify --profile state.profile --no-cache`` once, cold; record it.

    Appends the wall seconds, the CPU seconds (user + system, of the process
    and every worker it forked) and keeps the JSON records of the run.
    """
    with tempfile.TemporaryDirectory(prefix="bench-verify-cache-") as cache:
        extra = [] if workers is None else ["--workers", str(workers)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        completed = subprocess.run(
            [sys.executable, "-c", VERIFY, state.profile, cache, *extra],
            cwd=state.cwd,
            capture_output=True,
            text=True,
            check=False,
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if completed.returncode not in (0, 1):
        raise RuntimeError(
            f"{state.label}: verify exited {completed.returncode}:\n"
            f"{completed.stderr[-2000:]}"
        )
    state.walls.append(wall)
    state.cpus.append(
        (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    )
    state.records = json.loads(completed.stdout)


def verdict_differences(
    current: list[dict[str, Any]], baseline: list[dict[str, Any]]
) -> list[str]:
    """Claims run by both whose (status, basis, reason) differ."""

    def verdicts(records: list[dict[str, Any]]) -> dict[str, tuple[Any, ...]]:
        return {r["id"]: (r["status"], r["basis"], r["reason"]) for r in records}

    now, before = verdicts(current), verdicts(baseline)
    return [
        f"{claim}: {before[claim]} -> {now[claim]}"
        for claim in sorted(now.keys() & before.keys())
        if now[claim] != before[claim]
    ]


def top(records: list[dict[str, Any]], count: int = 10) -> list[tuple[float, str]]:
    """The ``count`` claims that took longest (wall seconds of their worker)."""
    ranked = sorted(((r["seconds"], r["id"]) for r in records), reverse=True)
    return ranked[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--baseline-rev", default=None)
    parser.add_argument(
        "--baseline-dir",
        type=Path,
        default=None,
        help="a checkout to run as the baseline instead of --baseline-rev",
    )
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument(
        "--profiles",
        nargs="+",
        choices=("quick", "default"),
        default=["quick"],
        help="the profiles to run each state at (default: quick)",
    )
    arguments = parser.parse_args()
    if arguments.runs < 1:
        parser.error(f"--runs={arguments.runs} must be an integer >= 1")
    print(
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}; {arguments.runs} cold run(s) per state"
    )
    print(f"load average before: {load_average()}")
    with tempfile.TemporaryDirectory(prefix="bench-verify-quick-") as scratch:
        root = Path(scratch)
        trees: list[tuple[str, Path]] = [("now", REPOSITORY)]
        if arguments.baseline_dir is not None:
            trees.insert(0, (f"in {arguments.baseline_dir}", arguments.baseline_dir))
        elif arguments.baseline_rev is not None:
            previous = root / "previous"
            previous.mkdir()
            trees.insert(
                0,
                (
                    f"at {arguments.baseline_rev}",
                    checkout_at(arguments.baseline_rev, previous),
                ),
            )
        states = [
            State(f"{label}, {profile}", cwd, profile)
            for label, cwd in trees
            for profile in arguments.profiles
        ]
        for _ in range(arguments.runs):
            for state in states:
                measure_verify(state, arguments.workers)
        print(f"load average after: {load_average()}\n")
        reference = states[0]
        print(
            "| state, profile | claims | best wall (s) | best CPU (s) | "
            f"wall / {reference.label} |"
        )
        print("|---|---|---|---|---|")
        for state in states:
            print(
                f"| {state.label} | {len(state.records)} | {state.best_wall:.1f} | "
                f"{state.best_cpu:.1f} | {state.best_wall / reference.best_wall:.2f} |"
            )
        for state in states:
            print(f"\ntop 10 claims, {state.label} (worker wall seconds):")
            for seconds, claim in top(state.records):
                print(f"  {seconds:6.2f}  {claim}")
        if len(trees) == 2:
            for profile in arguments.profiles:
                before, now = (s for s in states if s.profile == profile)
                differences = verdict_differences(now.records, before.records)
                common = {r["id"] for r in before.records} & {
                    r["id"] for r in now.records
                }
                print(
                    f"\n{profile}: (status, basis, reason) differences over the "
                    f"{len(common)} claims both run: {len(differences)}"
                )
                for line in differences:
                    print(f"  {line}")


if __name__ == "__main__":
    main()
