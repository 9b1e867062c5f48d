"""Benchmark: batched gradient descent on diagonal linear networks.

Two figures, both measured in one run:

1. Batching. K = 64 single-task networks, each with its own X (K, n, D), advance
   together; the same 64 networks trained one at a time (K = 1 per call) take
   the same number of steps. Reported: time per network-step of each, and the
   ratio. Target (issue): >= 3x faster per network in the batch.
2. Memory bandwidth. One step of the batched kernel reads X twice (once per
   matrix product: R = X beta^T - y and G = R^T X) and reads and writes the
   weights. Reported: the step time against the time those bytes take at the
   machine's streaming bandwidth, measured in the same run on arrays 16x the
   last-level cache (the best of a read-only sum, a BLAS dot of two arrays
   and a copy). Target (issue): within 2x of that bound.

Step times are differences of two runs with different step counts, so the
argument checks and setup (one pass over X) cancel; each time is the best of
``--repeats``.

Run:  python benchmarks/bench_diagonal_networks.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable

import numpy as np

from implicit_bias.validation import train_diagonal_networks

BYTES = 8  # float64


def best_time(function: Callable[[], object], repeats: int) -> float:
    """The best wall time of ``repeats`` calls, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def bandwidth(size_bytes: int, repeats: int) -> dict[str, float]:
    """Streaming bandwidths in bytes/s: read-only sum, two-array dot, copy (r+w)."""
    count = size_bytes // BYTES
    a = np.ones(count)
    b = np.ones(count)
    figures = {
        "sum (read)": count * BYTES / best_time(a.sum, repeats),
        "dot (read 2 arrays)": 2
        * count
        * BYTES
        / best_time(lambda: np.dot(a, b), repeats),
        "copyto (read + write)": 2
        * count
        * BYTES
        / best_time(lambda: np.copyto(b, a), repeats),
    }
    return figures


def problem(
    count: int, samples: int, dimension: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per-network Gaussian inputs (K, n, D) and targets of a sparse predictor."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((count, samples, dimension))
    beta = np.zeros((count, dimension))
    beta[:, : max(1, dimension // 20)] = 1.0
    y = np.einsum("knd,kd->kn", X, beta)
    return X, y


def run_steps(X: np.ndarray, y: np.ndarray, steps: int) -> None:
    """``steps`` gradient steps on every network, never stopping early."""
    train_diagonal_networks(
        X, y, 0.01, 0.01, learning_rate=1e-3, tol=0.0, max_steps=steps, strict=False
    )


def step_time(X: np.ndarray, y: np.ndarray, steps: int, repeats: int) -> float:
    """Seconds per step, setup excluded: (T(2s) - T(s)) / s."""
    short = best_time(lambda: run_steps(X, y, steps), repeats)
    long = best_time(lambda: run_steps(X, y, 2 * steps), repeats)
    return (long - short) / steps


def batching(
    count: int, samples: int, dimension: int, steps: int, repeats: int
) -> tuple[float, float]:
    """(seconds per network-step batched, one network at a time)."""
    X, y = problem(count, samples, dimension, seed=0)
    batched = step_time(X, y, steps, repeats) / count
    singles = [
        step_time(X[k : k + 1], y[k : k + 1], steps, repeats) for k in range(count)
    ]
    return batched, float(np.mean(singles))


def step_bytes(count: int, samples: int, dimension: int) -> int:
    """Bytes one step must move: X twice, y and R, the weights read and written.

    X: read by each of the two products (2 K n D). Targets y: read once, the
    residual R written once and read by the second product (3 K n). Weights:
    w1+, w1-, w2+, w2- read and written (8 K D), beta written and read
    (2 K D), the gradient written and read (2 K D). O = 1.
    """
    return BYTES * (
        2 * count * samples * dimension + 3 * count * samples + 12 * count * dimension
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="small sizes, a smoke test"
    )
    parser.add_argument("--repeats", type=int, default=5)
    options = parser.parse_args()
    repeats = 2 if options.quick else options.repeats

    print(
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, NumPy {np.__version__}"
    )

    # 1. Batching, at the sizes the tests and experiments use.
    count = 64
    small = (16, 64, 200) if options.quick else (32, 128, 1000)
    print("\n## Batching: K = 64 networks, X (K, n, D) per network\n")
    print("| n | D | steps | batched, per network-step | one at a time | speed-up |")
    print("| --- | --- | --- | --- | --- | --- |")
    for samples, dimension in ((small[0], small[1]), (4 * small[0], 4 * small[1])):
        batched, single = batching(count, samples, dimension, small[2], repeats)
        print(
            f"| {samples} | {dimension} | {small[2]} | {batched * 1e6:.2f} us | "
            f"{single * 1e6:.2f} us | {single / batched:.1f}x |"
        )

    # 1b. Networks that share one X (seeds or tasks on the same inputs): every
    # product is then a single matrix-matrix product over the batch.
    print("\n## Batching: K = 64 networks sharing one X (n, D)\n")
    print("| n | D | steps | batched, per network-step | one at a time | speed-up |")
    print("| --- | --- | --- | --- | --- | --- |")
    for samples, dimension in ((small[0], small[1]), (4 * small[0], 4 * small[1])):
        X, targets = problem(count, samples, dimension, seed=2)
        shared = X[0]
        batched = step_time(shared, targets, small[2], repeats) / count
        single = float(
            np.mean(
                [step_time(shared, targets[k], small[2], repeats) for k in range(count)]
            )
        )
        print(
            f"| {samples} | {dimension} | {small[2]} | {batched * 1e6:.2f} us | "
            f"{single * 1e6:.2f} us | {single / batched:.1f}x |"
        )

    # 2. Memory bandwidth, at a size where X is far larger than the caches.
    samples, dimension, steps = (256, 256, 10) if options.quick else (1024, 1024, 30)
    X, y = problem(count, samples, dimension, seed=1)
    per_step = step_time(X, y, steps, repeats)
    figures = bandwidth(max(X.nbytes // 2, 1 << 28), repeats)
    peak = max(figures.values())
    moved = step_bytes(count, samples, dimension)
    bound = moved / peak
    print(
        f"\n## Memory bandwidth: K = {count}, n = {samples}, D = {dimension} "
        f"(X = {X.nbytes / 2**20:.0f} MiB)\n"
    )
    for name, value in figures.items():
        print(f"- bandwidth, {name}: {value / 1e9:.1f} GB/s")
    print(
        f"- bytes per step: {moved / 1e9:.3f} GB "
        f"(X read twice: {2 * X.nbytes / 1e9:.3f} GB)"
    )
    print(
        f"- step time: {per_step * 1e3:.1f} ms; "
        f"bound at {peak / 1e9:.1f} GB/s: {bound * 1e3:.1f} ms"
    )
    print(f"- ratio step / bound: {per_step / bound:.2f} (target <= 2)")
    print(f"- effective bandwidth of the step: {moved / per_step / 1e9:.1f} GB/s")


if __name__ == "__main__":
    main()
