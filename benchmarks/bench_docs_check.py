"""Benchmark: ``implicit-bias docs --check`` (``reports.stale_docs``), now and before.

Each state is one fresh interpreter that imports the package, then calls
``stale_docs`` on the committed ``docs/`` folder with the API page, as
``docs --check --api`` does, ``--repeats`` times: the first call is what a
user waits for, the later ones what the test suite pays (its docs tests call
``stale_docs`` a dozen times in one process). Wall clock and CPU seconds of
each call are printed; the baseline (``--baseline-rev REV``: the package as
of git revision REV, exported and run from a temporary directory so that it
shadows the installed one) runs first in the same session, and the load
average is printed before, between and after.

The two states must report the same problems for the folder, or the
comparison is void: it is printed, not asserted.

Run:  python benchmarks/bench_docs_check.py [--baseline-rev REV] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from baseline import REPOSITORY, checkout_at, load_average

#: What each state runs: the timings and problems of ``repeats`` calls, as JSON.
CHECK = """
import json, sys, time
from pathlib import Path
from implicit_bias.reports import stale_docs
docs, repeats = Path(sys.argv[1]), int(sys.argv[2])
calls = []
for _ in range(repeats):
    wall, cpu = time.perf_counter(), time.process_time()
    problems = stale_docs(docs, api=True)
    calls.append([time.perf_counter() - wall, time.process_time() - cpu])
print(json.dumps({"calls": calls, "problems": problems}))
"""


def measure(cwd: Path, repeats: int) -> dict[str, list]:
    """The calls' (wall, CPU) seconds and the problems found, run in ``cwd``."""
    completed = subprocess.run(
        [sys.executable, "-c", CHECK, str(REPOSITORY / "docs"), str(repeats)],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(completed.stdout.splitlines()[-1])


def _report(label: str, result: dict[str, list]) -> None:
    for index, (wall, cpu) in enumerate(result["calls"], 1):
        print(f"{label}: call {index}: {wall:7.2f} s wall, {cpu:7.2f} s CPU")
    print(f"{label}: {len(result['problems'])} problems reported")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-rev", help="git revision to compare against")
    parser.add_argument("--repeats", type=int, default=3)
    arguments = parser.parse_args()
    print(f"load average before: {load_average()}")
    baseline = None
    if arguments.baseline_rev:
        with tempfile.TemporaryDirectory() as directory:
            baseline = measure(
                checkout_at(arguments.baseline_rev, Path(directory)),
                arguments.repeats,
            )
        _report(f"baseline {arguments.baseline_rev}", baseline)
        print(f"load average between: {load_average()}")
    current = measure(REPOSITORY, arguments.repeats)
    _report("current", current)
    print(f"load average after: {load_average()}")
    if baseline is None:
        return
    for index, (old, new) in enumerate(
        zip(baseline["calls"], current["calls"], strict=True), 1
    ):
        print(
            f"call {index}: current / baseline = {new[0] / old[0]:.3f} wall, "
            f"{new[1] / old[1]:.3f} CPU"
        )
    if baseline["problems"] != current["problems"]:
        print("the states report different problems:")
        for label, result in (("baseline", baseline), ("current", current)):
            print(f"{label}: {json.dumps(result['problems'])}")


if __name__ == "__main__":
    main()
