"""Benchmark: the three slow Fig. 1c claims of ptft-relu-penalty, now and before.

The claims ``ptft-relu-penalty:fig-1c:ptft-benefit-at-rho-1-large``,
``reversal-at-rho-0.9-large`` and ``reversal-at-rho-0.9-largest-n-large`` run
at the default profile (issue 23: they were most of ``verify``'s default
cost). Each is run by its own check (the simulation, the statistics and the
verdict), in a fresh interpreter on one BLAS thread (what a ``verify`` worker
of two on two cores gets), timed in CPU seconds of that process:

* ``cold``: one process per claim, so every claim pretrains its networks (the
  claim seconds of ``verify --claim ID``);
* ``worker``: one process running the three in turn, as a reused ``verify``
  worker would (the two claims of master seed 0 share one pretraining).

With ``--baseline-rev REV`` (default 342a32b, before issue 23's work) the
package as of REV (``git archive`` into a temporary directory, run from there
so that it shadows the installed one) is measured in the same session,
alternating with the current one round by round (the order flips every
round), so that a change of the machine's load hits both alike; each figure
is the best of ``--rounds``, and the load average is printed before and after.

Sameness. The two states must give each claim the same (status, basis,
reason); the detail strings are compared (equal, or the differing words
shown), and so are the simulations' arrays. The relative test errors must
agree to ``--rtol`` (default 1e-9: the two states' gradients differ by
rounding, a few ulps, which 6000 steps amplify to ~1e-13 here; a wrong
gradient would show at O(1)). The training losses are compared as relative
residual norms, the square roots of the relative losses, to the absolute
``--residual-atol`` (default 1e-12): a run that fits its data to rounding has
a loss of ~1e-30 whose relative change under a rounding-level perturbation of
the weights is O(1), while its residual moves by a few ulps of the targets.

Run:  python benchmarks/bench_relu_fig1c.py [--rounds 3] [--modes cold worker]
      [--baseline-rev 342a32b]
Target (issue 23): the three claims <= ~12 s of claim CPU together.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from baseline import REPOSITORY, checkout_at, load_average


LABELS = (
    "ptft-benefit-at-rho-1-large",
    "reversal-at-rho-0.9-large",
    "reversal-at-rho-0.9-largest-n-large",
)

#: Run by a fresh interpreter whose first ``sys.path`` entry is its working
#: directory (the checkout measured): runs the claims named in argv[2:] in
#: turn, records each one's CPU seconds, verdict and simulation arrays.
CHILD = r"""
import json, sys, time
import numpy as np
from threadpoolctl import threadpool_limits
import implicit_bias
from implicit_bias.sources.ptft_relu_penalty import fig1c

out_dir, labels = sys.argv[1], sys.argv[2:]
captured = []
original = fig1c.sample_efficiency

def capture(setup):
    result = original(setup)
    captured.append(result)
    return result

fig1c.sample_efficiency = capture
claims = {claim.label: claim for claim in fig1c.CLAIMS}
records = []
with threadpool_limits(1):
    for label in labels:
        captured.clear()
        start = time.process_time()
        verdict = claims[label].check()
        seconds = time.process_time() - start
        (result,) = captured
        np.savez(
            f"{out_dir}/{label}.npz",
            **{
                name: getattr(result, name)
                for name in ("stl_error", "ptft_error", "stl_train_loss",
                             "ptft_train_loss", "pretraining_loss")
            },
        )
        records.append({
            "label": label, "seconds": seconds, "status": verdict.status.value,
            "basis": None if verdict.basis is None else verdict.basis.value,
            "reason": None if verdict.reason is None else verdict.reason.value,
            "detail": verdict.detail, "package": implicit_bias.__file__,
        })
print(json.dumps(records))
"""


@dataclass
class State:
    """One state of the package: where it runs, and what its runs gave."""

    label: str
    cwd: Path
    seconds: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    arrays: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)


def run(state: State, mode: str, labels: tuple[str, ...]) -> None:
    """One fresh process of ``state`` running ``labels`` in turn; record it."""
    with tempfile.TemporaryDirectory(prefix="bench-relu-fig1c-") as out:
        completed = subprocess.run(
            [sys.executable, "-c", CHILD, out, *labels],
            cwd=state.cwd,
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"},
        )
        if completed.returncode != 0:
            raise RuntimeError(f"{state.label}: {completed.stderr[-3000:]}")
        for record in json.loads(completed.stdout):
            if not record["package"].startswith(str(state.cwd)):
                raise RuntimeError(
                    f"{state.label} imported {record['package']}, not its checkout"
                )
            label = record["label"]
            state.seconds.setdefault((mode, label), []).append(record["seconds"])
            state.records[label] = record
            with np.load(Path(out) / f"{label}.npz") as data:
                state.arrays[label] = {name: data[name] for name in data.files}


def relative_difference(before: np.ndarray, now: np.ndarray) -> float:
    """Largest |now - before| / |before| (0 where both are 0)."""
    scale = np.where(before == 0.0, 1.0, np.abs(before))
    return float(np.max(np.abs(now - before) / scale))


def sameness(
    current: State, baseline: State, rtol: float, residual_atol: float
) -> list[str]:
    """Lines comparing the two states' verdicts and arrays; '!' marks a failure."""
    lines = []
    for label in LABELS:
        now, before = current.records[label], baseline.records[label]
        verdict_now = (now["status"], now["basis"], now["reason"])
        verdict_before = (before["status"], before["basis"], before["reason"])
        mark = " " if verdict_now == verdict_before else "!"
        lines.append(f"{mark} {label}: {verdict_before} -> {verdict_now}")
        if now["detail"] == before["detail"]:
            lines.append("    detail identical")
        else:
            words_now, words_before = now["detail"].split(), before["detail"].split()
            changed = [
                f"{a} -> {b}"
                for a, b in zip(words_before, words_now, strict=False)
                if a != b
            ]
            lines.append(f"    detail differs: {'; '.join(changed)[:400]}")
        for name, array in baseline.arrays[label].items():
            other = current.arrays[label][name]
            if np.array_equal(array, other):
                lines.append(f"    {name}: bitwise identical")
            elif name.endswith("loss"):
                gap = float(np.max(np.abs(np.sqrt(other) - np.sqrt(array))))
                mark = " " if gap <= residual_atol else "!"
                lines.append(
                    f"  {mark} {name}: max |sqrt(now) - sqrt(before)| {gap:.1e}"
                )
            else:
                difference = relative_difference(array, other)
                mark = " " if difference <= rtol else "!"
                lines.append(f"  {mark} {name}: max rel diff {difference:.1e}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--modes", nargs="+", choices=("cold", "worker"), default=["cold", "worker"]
    )
    parser.add_argument("--baseline-rev", default="342a32b")
    parser.add_argument("--rtol", type=float, default=1e-9)
    parser.add_argument("--residual-atol", type=float, default=1e-12)
    options = parser.parse_args()

    print(
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, NumPy {np.__version__}"
    )
    print(f"load average before: {load_average()}")
    with tempfile.TemporaryDirectory(prefix="bench-relu-fig1c-rev-") as directory:
        baseline = State(
            f"before ({options.baseline_rev})",
            checkout_at(options.baseline_rev, Path(directory)),
        )
        current = State("now", REPOSITORY)
        for round_index in range(options.rounds):
            order = (baseline, current) if round_index % 2 == 0 else (current, baseline)
            for state in order:
                for mode in options.modes:
                    if mode == "cold":
                        for label in LABELS:
                            run(state, mode, (label,))
                    else:
                        run(state, mode, LABELS)
            print(f"round {round_index + 1} of {options.rounds} done", flush=True)
    print(f"load average after: {load_average()}")

    print(f"\nCPU seconds of each claim's check, best of {options.rounds}:\n")
    print(f"| mode | claim | {baseline.label} | {current.label} | ratio |")
    print("| --- | --- | --- | --- | --- |")
    for mode in options.modes:
        total_before = total_now = 0.0
        for label in LABELS:
            before = min(baseline.seconds[(mode, label)])
            now = min(current.seconds[(mode, label)])
            total_before, total_now = total_before + before, total_now + now
            print(
                f"| {mode} | {label} | {before:.2f} | {now:.2f} | {before / now:.2f}x |"
            )
        print(
            f"| {mode} | the three | {total_before:.2f} | {total_now:.2f} | "
            f"{total_before / total_now:.2f}x |"
        )
    print("\nSameness (before -> now):\n")
    lines = sameness(current, baseline, options.rtol, options.residual_atol)
    print("\n".join(lines))
    if any(line.lstrip().startswith("!") for line in lines):
        sys.exit("verdicts or arrays differ beyond --rtol")


if __name__ == "__main__":
    main()
