"""Benchmark: a Fig. 3(c)-style fine-tuning sweep on deep linear networks.

Target (issue): 3 theta x 10 gamma x 20 draws, d = 500, L = 2, sigma = 0.2, from
alpha = 1e-5 to a training loss <= 1e-6 (pretraining on the population loss,
then fine-tuning and scratch training of every draw) in <= 10 minutes on the
2-core machine, with endpoints at least as accurate as the paper's recipe.

Ours: the draws of one (theta, gamma) batched on a leading axis, hand-written
backprop (rank-one outer products), the midpoint integrator (conserves the
balancedness invariant (35) exactly), the adaptive step 1/h and the input
preconditioner (X^T X / n)^+ (``preconditioned=True``): every update of W_1 is
still g q^T with g in row(X), so the two conservation laws that fix the
endpoint -- (I - P_row(X)) W_1 and (35) -- hold exactly, and the endpoint is
the gradient flow's (module docstring of
``implicit_bias.validation.deep_linear_networks``). Each phase stops at a
relative excess loss of 1e-12 (the issue asks for 1e-6; the extra digits cost
a few steps).

The paper's recipe (Appendix D.1): plain gradient descent, step 1e-3, up to 1e5
steps or until the loss is 1e-6 (here: 1e-6 relative to the loss of beta = 0,
about 0.52, so slightly stricter), from the same balanced initialization.
Its time per step is measured on a few runs and extrapolated to its step
count; on a few draws it is run to the end and both endpoints are compared
with the alpha -> 0 theory endpoint (X^+ y for scratch and for gamma > 1;
eq. (142) with its scale corrected, ``finetune_endpoint``, for fine-tuning at
gamma < 1).

Run:  python benchmarks/bench_deep_linear_networks.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

from implicit_bias.numerics.transfer_endpoints import (
    finetune_endpoint,
    min_norm_solution,
)
from implicit_bias.validation.deep_linear_networks import (
    balanced_initialization,
    finetune,
    pretrain,
    train_from_scratch,
)

SIGMA = 0.2
ALPHA = 1e-5
THETAS = (np.pi / 8, np.pi / 4, 3 * np.pi / 8)
OUR_TOL = 1e-12
RECIPE_RATE = 1e-3
RECIPE_STEPS = 100_000
RECIPE_TOL = 1e-6


def tasks(dimension: int, theta: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Unit source and target predictors at angle theta."""
    rng = np.random.default_rng(seed)
    source = rng.standard_normal(dimension)
    source /= np.linalg.norm(source)
    other = rng.standard_normal(dimension)
    other -= (other @ source) * source
    other /= np.linalg.norm(other)
    return source, np.cos(theta) * source + np.sin(theta) * other


def draws(
    target: np.ndarray, samples: int, count: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """K target data sets (X, y = X beta_t + noise)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((count, samples, target.size))
    y = X @ target + SIGMA * rng.standard_normal((count, samples))
    return X, y


def theory_endpoints(
    X: np.ndarray, y: np.ndarray, source: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(fine-tuning, scratch) endpoints of the alpha -> 0 theory."""
    scratch = min_norm_solution(X, y)
    if X.shape[1] < X.shape[2]:
        return finetune_endpoint(X, y, source), scratch
    return scratch, scratch


def risk(beta: np.ndarray, target: np.ndarray) -> np.ndarray:
    return np.sum((beta - target) ** 2, axis=-1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="small sizes, a smoke test"
    )
    options = parser.parse_args()
    if options.quick:
        dimension, count, gammas = 60, 4, (0.3, 0.9, 1.5)
        recipe_gammas: tuple[float, ...] = (0.5,)
        recipe_draws, recipe_steps = 1, 20_000
    else:
        dimension, count = 500, 20
        gammas = tuple(np.round(np.arange(0.1, 2.0, 0.2), 1))
        recipe_gammas, recipe_draws, recipe_steps = (0.5, 0.9, 1.5), 1, RECIPE_STEPS
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, NumPy {np.__version__}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    init = tuple(ALPHA * W for W in balanced_initialization([dimension, dimension]))

    # ------------------------------------------------------------ the sweep
    start = time.perf_counter()
    errors, steps, transferability = [], [], {}
    results = {}
    for t, theta in enumerate(THETAS):
        source, target = tasks(dimension, theta, seed=t)
        pretrained = pretrain(init, source, tol=OUR_TOL)
        for g, gamma in enumerate(gammas):
            samples = round(gamma * dimension)
            X, y = draws(target, samples, count, seed=1000 * t + g)
            ft = finetune(pretrained.weights, X, y, preconditioned=True, tol=OUR_TOL)
            sc = train_from_scratch(init, X, y, preconditioned=True, tol=OUR_TOL)
            results[t, g] = (X, y, source, target, ft, sc, pretrained)
            steps.append(max(ft.steps.max(), sc.steps.max()))
            transferability[t, g] = risk(sc.coefficients, target) - risk(
                ft.coefficients, target
            )
    sweep_seconds = time.perf_counter() - start
    for X, y, source, _, ft, sc, _ in results.values():
        ft_ref, sc_ref = theory_endpoints(X, y, source)
        errors.append(
            max(
                np.max(np.linalg.norm(ft.coefficients - ft_ref, axis=1)),
                np.max(np.linalg.norm(sc.coefficients - sc_ref, axis=1)),
            )
        )
    runs = len(THETAS) * len(gammas) * count

    # --------------------------------------------------- the paper's recipe
    # Time per step: fine-tuning of two draws at gamma = 1.5 in one batch, as
    # the sweep batches, from the difference of 100- and 300-step runs (setup
    # cancels).
    source, target = tasks(dimension, THETAS[1], seed=1)
    samples = round(1.5 * dimension)
    X, y = draws(target, samples, 2, seed=7)
    pretrained_one = pretrain(init, source, tol=OUR_TOL)

    def recipe_time(step_count: int) -> float:
        begin = time.perf_counter()
        finetune(
            pretrained_one.weights,
            X,
            y,
            learning_rate=RECIPE_RATE,
            integrator="gd",
            tol=0.0,
            max_steps=step_count,
            strict=False,
        )
        return time.perf_counter() - begin

    short, long = recipe_time(100), recipe_time(300)
    per_network_step = (long - short) / 200 / X.shape[0]
    # Its step count: 1e5 per phase unless the loss reaches 1e-6 first; the
    # recipe runs below record how many it took.
    comparison = []
    recipe_steps_seen = []
    for gamma in recipe_gammas:
        t, theta = 1, THETAS[1]
        source, target = tasks(dimension, theta, seed=t)
        samples = round(gamma * dimension)
        Xr, yr = draws(target, samples, recipe_draws, seed=99)
        pre_recipe = pretrain(
            init,
            source,
            learning_rate=RECIPE_RATE,
            integrator="gd",
            tol=RECIPE_TOL,
            max_steps=recipe_steps,
            strict=False,
        )
        ft_recipe = finetune(
            pre_recipe.weights,
            Xr,
            yr,
            learning_rate=RECIPE_RATE,
            integrator="gd",
            tol=RECIPE_TOL,
            max_steps=recipe_steps,
            strict=False,
        )
        sc_recipe = train_from_scratch(
            init,
            Xr,
            yr,
            learning_rate=RECIPE_RATE,
            integrator="gd",
            tol=RECIPE_TOL,
            max_steps=recipe_steps,
            strict=False,
        )
        pre_ours = pretrain(init, source, tol=OUR_TOL)
        ft_ours = finetune(pre_ours.weights, Xr, yr, preconditioned=True, tol=OUR_TOL)
        sc_ours = train_from_scratch(init, Xr, yr, preconditioned=True, tol=OUR_TOL)
        ft_ref, sc_ref = theory_endpoints(Xr, yr, source)
        recipe_steps_seen.append(
            int(pre_recipe.steps.max() + ft_recipe.steps.max() + sc_recipe.steps.max())
        )
        comparison.append(
            (
                gamma,
                np.linalg.norm(ft_recipe.coefficients - ft_ref, axis=1).max(),
                np.linalg.norm(ft_ours.coefficients - ft_ref, axis=1).max(),
                np.linalg.norm(sc_recipe.coefficients - sc_ref, axis=1).max(),
                np.linalg.norm(sc_ours.coefficients - sc_ref, axis=1).max(),
                int(ft_recipe.steps.max()),
                int(sc_recipe.steps.max()),
                int(pre_recipe.steps.max()),
            )
        )
    # Extrapolation: each of the `runs` draws needs a fine-tuning and a scratch
    # run of RECIPE_STEPS steps (the cap; the loss criterion stops earlier only
    # at small gamma, see the table), pretraining once per theta.
    recipe_seconds = per_network_step * (2 * runs + len(THETAS)) * RECIPE_STEPS
    seen = [c[5] for c in comparison] + [c[6] for c in comparison]
    mean_steps = float(np.mean(seen))

    # ------------------------------------------------------------- summary
    print("\n## Deep linear networks: Fig. 3(c)-style sweep\n")
    print(
        f"- sweep: {len(THETAS)} theta x {len(gammas)} gamma x {count} draws, "
        f"d = {dimension}, L = 2, sigma = {SIGMA}, alpha = {ALPHA:g}: pretraining "
        f"+ {runs} fine-tuning + {runs} scratch runs"
    )
    print(
        f"- ours: {sweep_seconds:.1f} s wall (target <= 600 s); most steps of a "
        f"phase {max(steps)}; max |beta - theory endpoint| over all draws "
        f"{max(errors):.2e}"
    )
    print(
        f"- paper's recipe: {per_network_step * 1e3:.3f} ms per network-step "
        f"(batched as ours), x {RECIPE_STEPS:g} steps x {2 * runs + len(THETAS)} "
        f"runs = {recipe_seconds:.0f} s extrapolated; ratio recipe / ours "
        f"{recipe_seconds / sweep_seconds:.0f}x; with the mean step count the "
        f"recipe took on the comparison draws ({mean_steps:.0f}) instead of the "
        f"cap: {recipe_seconds * mean_steps / RECIPE_STEPS / sweep_seconds:.0f}x"
    )
    print(
        "\nEndpoint error |beta - theory endpoint| on the same draws "
        f"(theta = pi/4, {recipe_draws} draw(s) each):\n"
    )
    print(
        "| gamma | fine-tune, recipe | fine-tune, ours | scratch, recipe | "
        "scratch, ours | recipe steps (ft / sc / pretrain) |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for gamma, fr, fo, sr, so, fs, ss, ps in comparison:
        print(
            f"| {gamma} | {fr:.2e} | {fo:.2e} | {sr:.2e} | {so:.2e} | "
            f"{fs} / {ss} / {ps} |"
        )
    print("\nTransferability R_sc - R_ft, mean +- sd over draws (Fig. 3(c)):\n")
    print("| gamma | " + " | ".join(f"theta = {k}pi/8" for k in (1, 2, 3)) + " |")
    print("| --- | --- | --- | --- |")
    for g, gamma in enumerate(gammas):
        cells = [
            f"{np.mean(transferability[t, g]):+.3f} +- "
            f"{np.std(transferability[t, g], ddof=1):.3f}"
            for t in range(len(THETAS))
        ]
        print(f"| {gamma} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
