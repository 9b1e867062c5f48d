"""Run every claim once at the papers' own sizes, on a Dask ``LocalCluster``.

Starts a ``distributed.LocalCluster`` of ``--workers`` single-threaded worker
processes and runs ``implicit-bias verify --profile paper --executor dask``
against it, with the verdict cache in ``--cache-dir`` (outside the work tree
by default, so a run stopped part-way -- a session's end, a reboot -- resumes
where it stopped: every finished claim's verdict is stored as it arrives and
read back by the next run of the same code).

What the run leaves in ``--output`` (JSON): the records of every claim as
``verify --json`` prints them, the commit the package was run at (and whether
the work tree differed from it), the wall and CPU seconds of this invocation,
how many claims came from the cache, and the estimate of ``verify --plan
--profile paper`` made before the run.  ``implicit-bias docs
--paper-run FILE`` turns that file into the committed per-source records
and the page comparing the default and the paper verdicts.

The workers run at a lower scheduling priority (``--nice``) so that a
developer can go on working on the same machine; the CPU seconds, not the
wall time, are then the figure to hold against the plan's estimate.

Run:  python benchmarks/run_paper_profile.py [--workers 2] [--nice 10]
      [--cache-dir ~/.cache/implicit-bias/paper-profile] [--output FILE]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parent.parent
DEFAULT_CACHE = Path.home() / ".cache" / "implicit-bias" / "paper-profile"


def _git(*arguments: str) -> str:
    return subprocess.run(
        ["git", *arguments], cwd=REPOSITORY, capture_output=True, text=True, check=True
    ).stdout.strip()


def _children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _plan(cache_dir: Path) -> dict[str, Any]:
    """The plan's estimate for the paper profile, as ``verify --plan`` prints it."""
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "implicit_bias",
            "verify",
            "--plan",
            "--profile",
            "paper",
            "--cache-dir",
            str(cache_dir),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return {"summary": completed.stdout.strip().splitlines()[-1]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--nice", type=int, default=10)
    parser.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--output", type=Path, default=None)
    arguments = parser.parse_args(argv)
    if arguments.workers < 1:
        parser.error(f"--workers={arguments.workers} must be >= 1")

    import distributed

    commit = _git("rev-parse", "HEAD")
    dirty = bool(
        _git("status", "--porcelain", "--untracked-files=no", "--", "implicit_bias")
    )
    arguments.cache_dir.mkdir(parents=True, exist_ok=True)
    output = arguments.output or arguments.cache_dir / f"run-{commit[:12]}.json"
    plan = _plan(arguments.cache_dir)
    print(f"plan: {plan['summary']}", flush=True)
    os.nice(arguments.nice)
    started = datetime.datetime.now(datetime.UTC)
    wall_start = time.perf_counter()
    cpu_start = _children_cpu_seconds()
    with (
        distributed.LocalCluster(
            n_workers=arguments.workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        completed = subprocess.run(
            [
                sys.executable,
                "-m",
                "implicit_bias",
                "verify",
                "--profile",
                "paper",
                "--executor",
                "dask",
                "--scheduler",
                cluster.scheduler_address,
                "--json",
                "--cache-dir",
                str(arguments.cache_dir),
            ],
            stdout=subprocess.PIPE,
            text=True,
            check=False,
        )
        worker_cpu = sum(
            client.run(lambda: sum(os.times()[:2])).values()  # type: ignore[no-untyped-call]
        )
    wall = time.perf_counter() - wall_start
    records = json.loads(completed.stdout) if completed.stdout.strip() else []
    run = {
        "commit": commit,
        "work_tree_differs": dirty,
        "profile": "paper",
        "executor": (
            f"dask LocalCluster, {arguments.workers} workers x 1 thread, "
            f"nice {arguments.nice}"
        ),
        "started": started.isoformat(timespec="seconds"),
        "wall_seconds": round(wall, 1),
        "cpu_seconds_workers": round(worker_cpu, 1),
        "cpu_seconds_client": round(_children_cpu_seconds() - cpu_start, 1),
        "claim_seconds": round(sum(r.get("seconds") or 0.0 for r in records), 1),
        "plan": plan,
        "exit_status": completed.returncode,
        "records": records,
    }
    output.write_text(json.dumps(run, indent=2) + "\n")
    print(f"{len(records)} records, {wall:.0f} s wall -> {output}", flush=True)
    return 0 if records else 1


if __name__ == "__main__":
    sys.exit(main())
