"""Benchmark: relu_ptft_penalty against the paper's recipe, in the same run.

The paper's recipe (Appendix 1.1 of ptft-relu-penalty) is a per-point loop:
``np.roots`` on eq. (10), pick the positive real root, evaluate eq. (11).
This script times that loop and :func:`implicit_bias.numerics.relu_ptft_penalty`
on points drawn from the same distribution, reports the per-point ratio, and
measures both against the mpmath reference (50 digits).

Run:  python benchmarks/bench_relu_penalty.py [--points 100000] [--reference 2000]
Target (issue 2): >= 100x faster per point, max relative error <= 1e-12.
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np

from implicit_bias.numerics import relu_ptft_penalty, relu_ptft_penalty_mp


def sample_domain(size: int, seed: int) -> tuple[np.ndarray, ...]:
    """Points spread over the penalty's domain (log-uniform magnitudes, both signs)."""
    rng = np.random.default_rng(seed)
    m = rng.choice([-1.0, 1.0], size) * 10.0 ** rng.uniform(-4, 3, size)
    rho = rng.uniform(-1, 1, size)
    m0 = 10.0 ** rng.uniform(-2, 2, size)
    gamma = rng.choice([-1.0, 1.0], size) * 10.0 ** rng.uniform(-4, 1, size)
    return m, rho, m0, gamma


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


def best_time(function, *arguments, repeats: int) -> float:
    """The best wall time of ``repeats`` calls, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function(*arguments)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=100_000)
    parser.add_argument("--baseline-points", type=int, default=5_000)
    parser.add_argument("--reference", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()

    points = sample_domain(options.points, options.seed)
    subset = tuple(v[: options.baseline_points] for v in points)

    ours = best_time(relu_ptft_penalty, *points, repeats=7) / options.points
    recipe = best_time(paper_recipe, *subset, repeats=3) / options.baseline_points

    reference_points = tuple(v[: options.reference] for v in points)
    reference = np.array(
        [
            float(relu_ptft_penalty_mp(*(float(v[i]) for v in reference_points)))
            for i in range(options.reference)
        ]
    )
    error_ours = np.abs(relu_ptft_penalty(*reference_points) - reference) / reference
    error_recipe = np.abs(paper_recipe(*reference_points) - reference) / reference

    print(
        f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, "
        f"Python {platform.python_version()}, NumPy {np.__version__}"
    )
    print(
        "| evaluator | points timed | time per point | speed-up | max rel. error "
        f"vs mpmath ({options.reference} points) |"
    )
    print("| --- | --- | --- | --- | --- |")
    print(
        f"| paper's recipe (np.roots loop) | {options.baseline_points} | "
        f"{recipe * 1e6:.2f} us | 1x | {error_recipe.max():.2e} |"
    )
    print(
        f"| relu_ptft_penalty | {options.points} | {ours * 1e6:.3f} us | "
        f"{recipe / ours:.0f}x | {error_ours.max():.2e} |"
    )
    wrong = np.flatnonzero(error_recipe > 1e-6)
    print(
        f"\nthe recipe is off by > 1e-6 relative at {wrong.size} of "
        f"{options.reference} "
        f"points (a non-global positive root); worst {error_recipe.max():.3g}"
    )


if __name__ == "__main__":
    main()
