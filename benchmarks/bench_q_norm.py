"""Benchmark: accuracy of q (eq. 23) by magnitude band, and the two interpolant solvers.

Part 1 measures :func:`implicit_bias.numerics.q_potential` against the mpmath
reference (eq. 23 as printed at a precision raised by its cancellation) on
log-uniform points in bands of |z|, and reports the largest error in ulps next
to the textbook float64 formula. Part 2 runs
:func:`~implicit_bias.numerics.min_q_norm_interpolant` across initialization
scales and :func:`~implicit_bias.numerics.min_l12_interpolant` across sizes,
reporting feasibility residuals, duality gaps and times.

Run:  python benchmarks/bench_q_norm.py [--points 20000] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import platform
import time

import mpmath
import numpy as np

from implicit_bias.numerics import (
    l12_norm,
    min_l12_interpolant,
    min_q_norm_interpolant,
    q_potential,
    q_potential_mp,
)

BANDS = [
    (-300, -155),
    (-155, -8),
    (-8, -1),
    (-1, 0),
    (0, 0.5),
    (0.5, 1),
    (1, 3),
    (3, 300),
]


def ulps(computed: float, exact: mpmath.mpf) -> float:
    """|computed - exact| in ulps of the exact value."""
    # The ratio is formed in mpmath: near 0 the error itself is below the
    # float range.
    with mpmath.workdps(50):
        spacing = mpmath.mpf(math.ulp(float(exact)))
        return float(abs(mpmath.mpf(computed) - exact) / spacing)


def textbook(z: np.ndarray) -> np.ndarray:
    """Eq. (23) as printed, in float64."""
    with np.errstate(over="ignore", invalid="ignore"):
        return 2 - np.sqrt(4 + z * z) + z * np.arcsinh(z / 2)


def accuracy(points: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    print(f"q_potential: largest error in ulps, {points} points per band")
    print(f"{'|z| band':>22} {'q_potential':>12} {'textbook':>12}")
    for low, high in BANDS:
        z = 10.0 ** rng.uniform(low, high, points) * rng.choice([-1.0, 1.0], points)
        exact = [q_potential_mp(float(v)) for v in z]
        ours = max(
            ulps(float(c), e) for c, e in zip(q_potential(z), exact, strict=True)
        )
        naive = max(
            ulps(float(c), e) if np.isfinite(c) else math.inf
            for c, e in zip(textbook(z), exact, strict=True)
        )
        print(f"{f'1e{low:g} .. 1e{high:g}':>22} {ours:12.2f} {naive:12.3g}")
    z = 10.0 ** rng.uniform(-5, 5, 1_000_000)
    start = time.perf_counter()
    q_potential(z)
    print(f"throughput: {(time.perf_counter() - start) * 1e3:.1f} ms per 1e6 points")


def solvers(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((20, 100))
    teacher = rng.standard_normal(100) * (rng.random(100) < 0.1)
    y = x @ teacher
    print("\nmin_q_norm_interpolant, n=20, D=100, k_d = k (w2 = 0)")
    print(f"{'k':>8} {'|X b - y|/|y|':>14} {'KKT residual':>13} {'ms':>7}")
    for k in [1e-30, 1e-12, 1e-6, 1e-3, 1.0, 1e3, 1e6]:
        start = time.perf_counter()
        beta = min_q_norm_interpolant(x, y, math.sqrt(k) * np.ones(100), 0.0)
        elapsed = (time.perf_counter() - start) * 1e3
        gradient = 2 * np.arcsinh(beta / k)
        off = gradient - x.T @ np.linalg.lstsq(x.T, gradient, rcond=None)[0]
        print(
            f"{k:8.0e} {np.linalg.norm(x @ beta - y) / np.linalg.norm(y):14.1e} "
            f"{np.linalg.norm(off) / np.linalg.norm(gradient):13.1e} {elapsed:7.1f}"
        )
    print("\nmin_l12_interpolant (relative gap = certified suboptimality)")
    print(f"{'n':>4} {'D':>5} {'O':>3} {'|X B^T - Y|/|Y|':>16} {'gap':>9} {'ms':>8}")
    for n, dimension, outputs in [
        (10, 50, 1),
        (20, 100, 3),
        (40, 200, 5),
        (50, 500, 10),
    ]:
        x = rng.standard_normal((n, dimension))
        b = rng.standard_normal((dimension, outputs)) * (
            rng.random((dimension, 1)) < 0.2
        )
        y = x @ b
        start = time.perf_counter()
        solution = min_l12_interpolant(x, y)
        elapsed = (time.perf_counter() - start) * 1e3
        residual = np.linalg.norm(x @ solution.beta.T - y) / np.linalg.norm(y)
        gap = solution.duality_gap / l12_norm(solution.beta)
        sizes = f"{n:4d} {dimension:5d} {outputs:3d}"
        print(f"{sizes} {residual:16.1e} {gap:9.1e} {elapsed:8.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args()
    print(f"{platform.machine()}, NumPy {np.__version__}, mpmath {mpmath.__version__}")
    accuracy(arguments.points, arguments.seed)
    solvers(arguments.seed)


if __name__ == "__main__":
    main()
