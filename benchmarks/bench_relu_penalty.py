"""Benchmark: relu_ptft_penalty against the paper's recipe, in the same run.

The paper's recipe (Appendix 1.1 of ptft-relu-penalty) is a per-point loop:
``np.roots`` on eq. (10), pick the positive real root, evaluate eq. (11).
This script times that loop and :func:`implicit_bias.numerics.relu_ptft_penalty`
on points drawn from the same distribution, alternating the two, reports the
best of ``--repeats`` per-point times and their ratio, and measures both
against the mpmath reference (50 digits) on ``--reference`` points.

Two domains, one row pair each:

* issue 23's (the headline): m log-uniform in [1e-3, 10], m0 log-uniform in
  [1e-2, 10], rho uniform in [-1, 1], gamma uniform in [0, 0.1];
* issue 2's, wider: both signs of m and gamma, |m| in [1e-4, 1e3], m0 in
  [1e-2, 1e2], |gamma| in [1e-4, 10] (log-uniform).

Run:  python benchmarks/bench_relu_penalty.py [--points 100000] [--reference 2000]
Target (issue 23): >= 150x faster per point than the recipe on issue 23's
domain, max relative error <= 2e-15 against the 50-digit reference.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable

import numpy as np

from implicit_bias.numerics import relu_ptft_penalty, relu_ptft_penalty_mp
from implicit_bias.numerics.relu_penalty import _fast_penalty

Points = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def issue_domain(size: int, seed: int) -> Points:
    """Issue 23's domain: m, m0 log-uniform, rho uniform, gamma in [0, 0.1]."""
    rng = np.random.default_rng(seed)
    m = 10.0 ** rng.uniform(-3, 1, size)
    m0 = 10.0 ** rng.uniform(-2, 1, size)
    rho = rng.uniform(-1, 1, size)
    gamma = rng.uniform(0, 0.1, size)
    return m, rho, m0, gamma


def wide_domain(size: int, seed: int) -> Points:
    """Issue 2's domain: log-uniform magnitudes, both signs of m and gamma."""
    rng = np.random.default_rng(seed)
    m = rng.choice([-1.0, 1.0], size) * 10.0 ** rng.uniform(-4, 3, size)
    rho = rng.uniform(-1, 1, size)
    m0 = 10.0 ** rng.uniform(-2, 2, size)
    gamma = rng.choice([-1.0, 1.0], size) * 10.0 ** rng.uniform(-4, 1, size)
    return m, rho, m0, gamma


DOMAINS: dict[str, Callable[[int, int], Points]] = {
    "issue 23 (m in [1e-3, 10], gamma in [0, 0.1])": issue_domain,
    "issue 2 (wider, both signs)": wide_domain,
}


def paper_recipe(
    m: np.ndarray, rho: np.ndarray, m0: np.ndarray, gamma: np.ndarray
) -> np.ndarray:
    """The paper's recipe: per point np.roots of (10), its positive root, (11)."""
    out = np.empty(m.size)
    for i in range(m.size):
        roots = np.roots([1.0, -m0[i] * rho[i], 0.0, gamma[i] * m[i], -(m[i] ** 2)])
        real = roots[(roots.imag == 0) & (roots.real > 0)].real
        u = real[0]
        out[i] = (m[i] / u - gamma[i]) ** 2 + u**2 + m0[i] ** 2 - 2 * u * m0[i] * rho[i]
    return out


def best_times(
    timed: list[tuple[Callable[..., object], Points]], repeats: int
) -> list[float]:
    """The best wall time of each (function, arguments), alternating them."""
    best = [float("inf")] * len(timed)
    for _ in range(repeats):
        for k, (function, arguments) in enumerate(timed):
            start = time.perf_counter()
            function(*arguments)
            best[k] = min(best[k], time.perf_counter() - start)
    return best


def reference_values(points: Points) -> np.ndarray:
    """relu_ptft_penalty_mp at 50 digits, rounded to float64."""
    return np.array(
        [
            float(relu_ptft_penalty_mp(*(float(v[i]) for v in points), dps=50))
            for i in range(points[0].size)
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=100_000)
    parser.add_argument("--baseline-points", type=int, default=5_000)
    parser.add_argument("--reference", type=int, default=2_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()

    print(
        f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, "
        f"NumPy {np.__version__}"
    )
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        "| domain | evaluator | points timed | time per point (best of "
        f"{options.repeats}) | speed-up | max rel. error vs 50-digit mpmath "
        f"({options.reference} points) |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    notes = []
    for name, sample in DOMAINS.items():
        points = sample(options.points, options.seed)
        m, rho, m0, gamma = (v[: options.baseline_points] for v in points)
        subset: Points = (m, rho, m0, gamma)
        relu_ptft_penalty(*points)  # warm-up (imports, first allocations)
        ours, recipe = best_times(
            [(relu_ptft_penalty, points), (paper_recipe, subset)],
            options.repeats,
        )
        ours /= options.points
        recipe /= options.baseline_points

        reference_points = sample(options.reference, options.seed + 1)
        reference = reference_values(reference_points)
        error_ours = np.abs(relu_ptft_penalty(*reference_points) / reference - 1)
        error_recipe = np.abs(paper_recipe(*reference_points) / reference - 1)
        _, certified = _fast_penalty(
            *(np.ascontiguousarray(v, dtype=np.float64) for v in points)
        )

        print(
            f"| {name} | paper's recipe (np.roots loop) | {options.baseline_points} "
            f"| {recipe * 1e6:.2f} us | 1x | {error_recipe.max():.2e} |"
        )
        print(
            f"| {name} | relu_ptft_penalty | {options.points} | "
            f"{ours * 1e9:.0f} ns | {recipe / ours:.0f}x | {error_ours.max():.2e} |"
        )
        wrong = np.flatnonzero(error_recipe > 1e-6)
        notes.append(
            f"{name}: {certified.mean():.4%} of the timed points certified by the "
            f"float64 fast path (the rest by the error-bounded path); the recipe "
            f"is off by > 1e-6 relative at {wrong.size} of {options.reference} "
            f"reference points (a non-global positive root), worst "
            f"{error_recipe.max():.3g}"
        )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    print("\n".join(notes))


if __name__ == "__main__":
    main()
