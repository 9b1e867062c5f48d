"""Benchmark: ``implicit-bias mutate`` over every source, now and before.

Each state is one fresh ``implicit-bias mutate --json --workers N`` process
(its own interpreter, its forked workers), timed wall clock together with the
CPU seconds of the process and its workers. With ``--baseline-rev REV`` the
package as of git revision REV (``git archive`` into a temporary directory,
run from there so that it shadows the installed one) runs first, in the same
session; the load average is printed before, between and after.

What the two states decided is compared mutant by mutant: a mutant both
judged (same claim, same description) must have the same outcome, except
where one of them was undecided for want of time (a step's budget ran out);
the claims one state tested in part are listed with how many of their
mutants each judged.

Run:  python benchmarks/bench_mutate.py [--baseline-rev REV] [--workers 2]
      [--source ID ...]
Target (issue 23): ``implicit-bias mutate`` over all four sources under 10
minutes of wall time on 2 cores.
"""

from __future__ import annotations

import argparse
import collections
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
MUTATE = (
    "import sys; from implicit_bias.cli import main; "
    "sys.exit(main(['mutate', '--json'] + sys.argv[1:]))"
)


@dataclass
class State:
    """One state of the package and what its ``mutate`` run gave."""

    label: str
    cwd: Path
    wall: float = 0.0
    cpu: float = 0.0
    records: list[dict[str, Any]] = field(default_factory=list)

    def outcomes(self) -> dict[tuple[str, str], str]:
        return {
            (record["id"], outcome["description"]): outcome["outcome"]
            for record in self.records
            for outcome in (*record["symbolic"], *record["bias"])
        }

    def counts(self) -> collections.Counter[str]:
        return collections.Counter(self.outcomes().values())


def measure_mutate(state: State, arguments: list[str]) -> None:
    """Run ``mutate --json`` once in ``state.cwd``; record its time and records."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    completed = subprocess.run(
        [sys.executable, "-c", MUTATE, *arguments],
        cwd=state.cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    state.wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if completed.returncode != 0:
        raise RuntimeError(
            f"{state.label}: mutate exited {completed.returncode}:\n"
            f"{completed.stderr[-2000:]}"
        )
    state.cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    state.records = json.loads(completed.stdout)


def _for_want_of_time(outcome: str, detail: str) -> bool:
    return outcome == "undecided" and "timed out" in detail


def outcome_differences(current: State, baseline: State) -> list[str]:
    """Mutants both states judged whose outcomes differ, other than by a timeout."""
    details = {
        (record["id"], outcome["description"]): outcome["detail"]
        for state in (current, baseline)
        for record in state.records
        for outcome in (*record["symbolic"], *record["bias"])
    }
    now, before = current.outcomes(), baseline.outcomes()
    return [
        f"{claim}: {description}: {before[key]} -> {now[key]}"
        for key in sorted(now.keys() & before.keys())
        for claim, description in [key]
        if now[key] != before[key]
        and not _for_want_of_time(now[key], details[key])
        and not _for_want_of_time(before[key], details[key])
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-rev", default=None)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--source", action="append", default=[], help="only this source (repeat)"
    )
    arguments = parser.parse_args()
    extra = ["--workers", str(arguments.workers)]
    for source in arguments.source:
        extra += ["--source", source]
    print(
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}; implicit-bias mutate --json {' '.join(extra)}"
    )
    print(f"load average before: {load_average()}")
    with tempfile.TemporaryDirectory(prefix="bench-mutate-") as scratch:
        states = [State("now", REPOSITORY)]
        if arguments.baseline_rev is not None:
            previous = Path(scratch) / "previous"
            previous.mkdir()
            states.insert(
                0,
                State(
                    f"at {arguments.baseline_rev}",
                    checkout_at(arguments.baseline_rev, previous),
                ),
            )
        for state in states:
            measure_mutate(state, extra)
            print(f"load average after {state.label}: {load_average()}")
    reference = states[0]
    print(
        f"\n| state | wall (min) | CPU (s) | wall / {reference.label} | "
        "mutants judged | killed | undecided | equivalent | survived |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for state in states:
        counts = state.counts()
        print(
            f"| {state.label} | {state.wall / 60:.2f} | {state.cpu:.0f} | "
            f"{state.wall / reference.wall:.2f} | {sum(counts.values())} | "
            f"{counts['killed']} | {counts['undecided']} | {counts['equivalent']} | "
            f"{counts['survived']} |"
        )
    for state in states:
        in_part = [r for r in state.records if "in part" in r["note"]]
        print(f"\n{state.label}: {len(in_part)} claims mutation-tested in part")
        for record in in_part:
            print(f"    {record['id']}: {record['note']}")
    if len(states) == 2:
        differences = outcome_differences(states[1], states[0])
        both = states[1].outcomes().keys() & states[0].outcomes().keys()
        print(
            f"\nmutants both judged: {len(both)}; outcomes that differ other "
            f"than by a timeout: {len(differences)}"
        )
        for line in differences:
            print(f"    {line}")


if __name__ == "__main__":
    main()
