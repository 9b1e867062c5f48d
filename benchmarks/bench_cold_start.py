"""Benchmark: cold start of a fresh interpreter importing the NumPy evaluators.

Each measurement is the wall time of a fresh ``python -c "<statement>"``
process, interpreter start-up included, taken ``--runs`` times (default 7);
the table gives the best and the median, and each best as a ratio to the
best of ``import numpy`` measured in the same run (NumPy is the floor
``implicit_bias.numerics`` cannot go below). ``import sympy`` is timed for
scale: it is what importing the evaluators cost while they were lambdified
at import time. The runs are interleaved (one of each measurement per round)
so that a change of the machine's load hits all of them alike; the load
average is printed before and after.

Bytecode: modules are loaded from a bytecode cache written by one untimed
warm-up run per measurement into a temporary ``-X pycache_prefix`` (so the
working tree is not touched), as from an installed package;
``PYTHONDONTWRITEBYTECODE`` is ignored for that. ``--no-bytecode`` compiles
the package's sources on every run instead (an editable install with
``PYTHONDONTWRITEBYTECODE=1``).

``--baseline-rev REV`` also times ``import implicit_bias.numerics`` from the
package as of git revision REV (``git archive`` into a temporary directory),
for the ratio of the current state to a previous one in the same run.

Run:  python benchmarks/bench_cold_start.py [--runs 7] [--baseline-rev HEAD]
Target (issue 13): ``import implicit_bias.numerics`` <= 0.3 s on an idle
2-core machine, with nothing of SymPy or SciPy imported.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from baseline import checkout_at, load_average

HEAVY = ("sympy", "scipy", "mpmath")


@dataclass
class Measurement:
    """One command timed in fresh processes."""

    label: str
    statement: str
    cwd: Path
    seconds: list[float] = field(default_factory=list)

    @property
    def best(self) -> float:
        return min(self.seconds)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)


def interpreter_command(statement: str, pycache: Path | None) -> list[str]:
    prefix = [] if pycache is None else ["-X", f"pycache_prefix={pycache}"]
    return [sys.executable, *prefix, "-c", statement]


def interpreter_environment(pycache: Path | None) -> dict[str, str]:
    environment = dict(os.environ)
    if pycache is not None:
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
    return environment


def run_once(measurement: Measurement, pycache: Path | None) -> float:
    """Wall time of one fresh interpreter running the measurement's statement."""
    command = interpreter_command(measurement.statement, pycache)
    environment = interpreter_environment(pycache)
    start = time.perf_counter()
    subprocess.run(
        command, cwd=measurement.cwd, env=environment, check=True, capture_output=True
    )
    return time.perf_counter() - start


def loaded_heavy_modules(measurement: Measurement, pycache: Path | None) -> list[str]:
    """Which of SymPy, SciPy and mpmath the statement leaves in ``sys.modules``."""
    probe = (
        f"{measurement.statement}\nimport json, sys\n"
        f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    )
    result = subprocess.run(
        interpreter_command(probe, pycache),
        cwd=measurement.cwd,
        env=interpreter_environment(pycache),
        check=True,
        capture_output=True,
        text=True,
    )
    loaded: list[str] = json.loads(result.stdout.strip().splitlines()[-1])
    return loaded


def measure_interpreter(cwd: Path) -> Measurement:
    return Measurement("bare interpreter", "pass", cwd)


def measure_numpy(cwd: Path) -> Measurement:
    return Measurement("import numpy (baseline)", "import numpy", cwd)


def measure_sympy(cwd: Path) -> Measurement:
    return Measurement("import sympy (for scale)", "import sympy", cwd)


def measure_numerics(cwd: Path) -> Measurement:
    return Measurement(
        "import implicit_bias.numerics", "import implicit_bias.numerics", cwd
    )


def measure_numerics_at(revision: str, checkout: Path) -> Measurement:
    """``import implicit_bias.numerics`` from the package as of ``revision``.

    The package is exported with ``git archive`` into ``checkout``, which is
    the working directory of the runs: ``python -c`` puts it first on
    ``sys.path``, ahead of the installed package.
    """
    checkout_at(revision, checkout)
    return Measurement(
        f"import implicit_bias.numerics at {revision}",
        "import implicit_bias.numerics",
        checkout,
    )


def run_interleaved(
    measurements: list[Measurement], runs: int, pycache: Path | None
) -> None:
    """One untimed warm-up each (it writes the bytecode), then ``runs`` rounds."""
    for measurement in measurements:
        run_once(measurement, pycache)
    for _ in range(runs):
        for measurement in measurements:
            measurement.seconds.append(run_once(measurement, pycache))


def print_table(
    measurements: list[Measurement], baseline: Measurement, pycache: Path | None
) -> None:
    print("| measurement | command | best (s) | median (s) | best / numpy | loads |")
    print("|---|---|---|---|---|---|")
    for measurement in measurements:
        loaded = ", ".join(loaded_heavy_modules(measurement, pycache)) or "-"
        command = f'`python -c "{measurement.statement}"`'
        print(
            f"| {measurement.label} | {command} | {measurement.best:.3f} | "
            f"{measurement.median:.3f} | {measurement.best / baseline.best:.2f} | "
            f"{loaded} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--baseline-rev", default=None)
    parser.add_argument("--no-bytecode", action="store_true")
    arguments = parser.parse_args()
    if arguments.runs < 1:
        parser.error(f"--runs={arguments.runs} must be an integer >= 1")
    print(
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}; {arguments.runs} fresh interpreters per "
        f"measurement; bytecode cache: {'no' if arguments.no_bytecode else 'yes'}"
    )
    print(f"load average before: {load_average()}")
    with tempfile.TemporaryDirectory(prefix="bench-cold-start-") as scratch:
        root = Path(scratch)
        neutral = root / "cwd"
        neutral.mkdir()
        pycache = None if arguments.no_bytecode else root / "pycache"
        baseline = measure_numpy(neutral)
        measurements = [
            measure_interpreter(neutral),
            baseline,
            measure_numerics(neutral),
        ]
        if arguments.baseline_rev is not None:
            previous = root / "previous"
            previous.mkdir()
            measurements.append(measure_numerics_at(arguments.baseline_rev, previous))
        measurements.append(measure_sympy(neutral))
        run_interleaved(measurements, arguments.runs, pycache)
        print(f"load average after: {load_average()}\n")
        print_table(measurements, baseline, pycache)
        if arguments.baseline_rev is not None:
            current, previous_state = measurements[2], measurements[3]
            print(
                f"\nimport implicit_bias.numerics, now / at {arguments.baseline_rev}: "
                f"best {current.best / previous_state.best:.2f}, "
                f"median {current.median / previous_state.median:.2f}"
            )


if __name__ == "__main__":
    main()
