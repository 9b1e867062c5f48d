r"""What the simulations of features-are-fate cost: one model per kind of run.

Every model returns a :class:`~implicit_bias.claims.profiles.CostEstimate`
:math:`\text{runs}\times\text{steps}\times c_{\text{step}}` with
:math:`c_{\text{step}}` measured on this machine at the configuration's sizes
(:func:`~implicit_bias.claims.profiles.measure_step_seconds`, CPU time), and
runs and steps read off the configuration. The set-ups (dataclasses) name the
sizes a check runs at; the checks of :mod:`.section_3_gradient_descent`,
:mod:`.section_3_monte_carlo`, :mod:`.figures_1_3`, :mod:`.section_4`,
:mod:`.appendix_c_mercer` and :mod:`.finetuning` take them, so that a model
and its check cannot drift apart.

Step counts. The deep-linear trainers stop at a relative excess loss (adaptive
midpoint steps), so their step count is not a parameter: the models use the
steps measured to reach it (the cap, ``DEFAULT_MAX_STEPS`` = 1e5, is far above
them) and say so. Every model takes well under a second: a step is timed on a
batch of two networks and scaled linearly to the batch (the batched step's
cost is linear in it), or on a slice of the draws; where a step's cost
changes along a run (the midpoint rule's fixed-point iterations, Appendix
B.2-B.3's flows), on a whole representative run
(:func:`whole_run_seconds`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from threadpoolctl import threadpool_limits

from implicit_bias.claims.profiles import (
    CostEstimate,
    measure_step_seconds,
    timings_are_rough,
)
from implicit_bias.validation import deep_linear_networks as networks
from implicit_bias.validation.relu_kernels import (
    ablation_setup,
    sample_sphere,
    source_loss_and_gradients,
)

__all__ = [
    "ENDPOINT_STEPS",
    "SLICE_STEPS",
    "EndpointRuns",
    "FinetuneRuns",
    "MonteCarloDraws",
    "SliceRuns",
    "StudentRun",
    "whole_run_seconds",
]

#: Steps a batch of endpoint runs takes to a relative excess loss of 1e-20
#: (until its slowest network stops): the mean over the 12 fine-tuning and
#: scratch batches of ``endpoint_errors(2)`` and ``endpoint_errors(3)``,
#: 19547 steps in all (1100 to 2066 each), measured by wrapping the descent
#: loop. Pretraining (at most 63 steps) and linear transfer (a readout
#: descent) took 5% of the CPU time there and are left out.
ENDPOINT_STEPS = 1630
#: Steps a batch of preconditioned slice runs takes to a relative excess loss
#: of 1e-12: the mean over the fine-tuning and scratch batches of the 12 grid
#: points (14 to 22 each, the same at d = 60, 16 draws and d = 500, 8 draws;
#: measured as for :data:`ENDPOINT_STEPS`).
SLICE_STEPS = 18
#: Target phases per grid point: linear transfer, fine-tuning, scratch.
_PHASES = 3
#: The endpoint runs' phases that dominate their cost: fine-tuning, scratch.
_ENDPOINT_PHASES = 2
#: Networks the deep-linear step is timed on (the cost is linear in the batch).
_TIMED_BATCH = 2


def _timed(step: Callable[[], object], *, steps: int, repeats: int) -> float:
    """:func:`measure_step_seconds` with one BLAS thread, as claims run.

    A claim's worker runs under one BLAS thread (``run_in_workers``); timed
    with the default pool instead, the CPU time of spin-waiting threads on a
    busy machine inflated a step 13 times (d = 500).
    """
    with threadpool_limits(limits=1):
        return measure_step_seconds(step, steps=steps, repeats=repeats)


def whole_run_seconds(run: Callable[[], object]) -> float:
    """CPU seconds of one call of ``run``, a whole training run, on one BLAS thread.

    For runs whose steps differ in cost along the trajectory: the midpoint
    rule solves its implicit step by fixed-point iteration (L > 2), and the
    iterations it needs fall as the gradient does (8 to 2 per step along
    (48)'s flows at L = 3), so no slice of a run is representative and its
    mean step is its time over its steps. Timed once after a warm-up: a run
    of hundreds of steps averages over them.
    """
    return _timed(run, steps=1, repeats=1)


def _step_seconds(run: Callable[[int], object], timed: int) -> float:
    r"""CPU seconds of one step of ``run(max_steps)``: :math:`(T(1+s) - T(1))/s`.

    The set-up of a run (power iteration, stopping thresholds) cancels in the
    difference; ``timed`` = s must make :math:`T(1+s)` well above the timer's
    resolution, and ``run`` must not stop before ``max_steps`` (tolerance 0).
    """
    long = _timed(lambda: run(1 + timed), steps=1, repeats=2)
    short = _timed(lambda: run(1), steps=1, repeats=2)
    # Timer noise can make the difference vanish; a step is never free.
    return max(long - short, 0.5 * long) / timed


def _deep_linear_step(depth: int, samples: int, dimension: int) -> float:
    """:func:`_measured_deep_linear_step`, once per process and roughness of
    the timings: several claims' models time the same sizes, and a cold
    `verify`'s plan, printed before anything runs, stays cheap."""
    return _measured_deep_linear_step(depth, samples, dimension, timings_are_rough())


@functools.lru_cache(maxsize=32)
def _measured_deep_linear_step(
    depth: int, samples: int, dimension: int, rough: bool
) -> float:
    r"""CPU seconds of one step of a batch of :data:`_TIMED_BATCH` networks
    (``rough`` keys the cache only: the timer reads it itself).

    Gradient descent (adaptive midpoint steps) on the empirical loss from
    random weights of operator norm O(1), where trained networks spend their
    steps: from weights of the initialization's scale the adaptive step
    overshoots and halves, which a run does only at its start. The balanced
    initialization (seconds to draw at d = 500) is not needed. Steps timed:
    enough for ~1e6 multiply-adds per network.
    """
    rng = np.random.default_rng(0)
    scale = 1 / np.sqrt(dimension)
    init = [
        scale * rng.standard_normal((_TIMED_BATCH, dimension, dimension))
        for _ in range(depth - 1)
    ]
    init.append(scale * rng.standard_normal((_TIMED_BATCH, dimension, 1)))
    X = rng.standard_normal((_TIMED_BATCH, samples, dimension))
    y = X[..., 0] + 0.2 * rng.standard_normal((_TIMED_BATCH, samples))
    timed = int(np.clip(10**6 // (depth * dimension * dimension), 5, 100))
    return _step_seconds(
        lambda steps: networks.train_from_scratch(
            init, X, y, tol=0.0, max_steps=steps, strict=False
        ),
        timed,
    )


@dataclass(frozen=True)
class EndpointRuns:
    r"""Deep linear networks trained towards the :math:`\alpha\to0` endpoints.

    The runs of
    :func:`~implicit_bias.validation.transfer_experiments.endpoint_errors`:
    per depth and :math:`\alpha`, pretraining and three target phases, each a
    batch of ``draws`` networks trained to a relative excess loss of 1e-20.
    """

    depths: tuple[int, ...] = (2, 3)
    alphas: tuple[float, ...] = (10**-1.5, 1e-2, 10**-2.5)
    dimension: int = 12
    samples: int = 6
    draws: int = 3

    def cost(self) -> CostEstimate:
        """Runs: depths x alphas x 3 target phases (batched over draws)."""
        seconds = [
            _deep_linear_step(depth, self.samples, self.dimension)
            for depth in self.depths
        ]
        per_step = float(np.mean(seconds)) * self.draws / _TIMED_BATCH
        runs = len(self.depths) * len(self.alphas) * _ENDPOINT_PHASES
        return CostEstimate.of_training(
            runs,
            ENDPOINT_STEPS,
            per_step,
            f"L = {', '.join(map(str, self.depths))}, {len(self.alphas)} alphas x "
            f"{_ENDPOINT_PHASES} phases (fine-tuning, scratch; pretraining and "
            f"linear transfer left out, 5% of the time), batches of {self.draws} "
            f"draws at d = {self.dimension}, n = {self.samples}; steps to the "
            f"relative excess 1e-20: the mean measured "
            f"(cap {networks.DEFAULT_MAX_STEPS:.0e})",
        )


@dataclass(frozen=True)
class SliceRuns:
    r"""Figs. 1(c) and 3(c): L = 2 networks trained on a (theta, gamma) grid.

    The runs of
    :func:`~implicit_bias.validation.transfer_experiments.transferability_slices`:
    per grid point three preconditioned target phases on a batch of ``draws``
    target sets, each to a relative excess loss of 1e-12.
    """

    thetas: tuple[float, ...] = (math.pi / 8, math.pi / 4, 3 * math.pi / 8)
    gammas: tuple[float, ...] = (0.3, 0.5, 1.5, 1.9)
    dimension: int = 60
    draws: int = 16
    sigma: float = 0.2
    init_scale: float = 1e-5
    seed: int = 5

    def cost(self) -> CostEstimate:
        """Runs: thetas x gammas x 3 phases; a step timed at the mean gamma.

        Timed without the preconditioner (whose set-up, an inverse Gram matrix
        per network, would take seconds at d = 500); it adds one (n x n) or
        (d x d) matrix-vector product per step to the O(d^2) of the others.
        """
        mean_gamma = float(np.mean(self.gammas))
        samples = max(3, round(mean_gamma * self.dimension))
        per_step = (
            _deep_linear_step(2, samples, self.dimension) * self.draws / _TIMED_BATCH
        )
        runs = len(self.thetas) * len(self.gammas) * _PHASES
        return CostEstimate.of_training(
            runs,
            SLICE_STEPS,
            per_step,
            f"{len(self.thetas)} theta x {len(self.gammas)} gamma x {_PHASES} "
            f"phases, batches of {self.draws} draws at d = {self.dimension}; "
            f"preconditioned adaptive steps to the relative excess 1e-12 as "
            f"measured (cap {networks.DEFAULT_MAX_STEPS:.0e})",
        )


@dataclass(frozen=True)
class FinetuneRuns:
    r"""Plain gradient descent from the pretrained point, one run per step size.

    The runs of eq. (142)'s checks in :mod:`.finetuning`: L = 2 fine-tuning
    at fixed steps :math:`\eta`, each to a training residual of 1e-13. The
    steps that takes scale as :math:`1/\eta`: ``steps_times_rate`` is the
    measured :math:`\eta\times` steps (1104, 2203, 4404 steps at
    :math:`\eta` = 0.04, 0.02, 0.01: 44.0).
    """

    step_sizes: tuple[float, ...]
    samples: int
    dimension: int
    steps_times_rate: float = 44.04

    def cost(self) -> CostEstimate:
        """Runs: the step sizes; steps: the mean of the measured 44/eta."""
        rng = np.random.default_rng(0)
        X = rng.standard_normal((self.samples, self.dimension))
        # Labels the pretrained point does not fit (zero loss would stop it).
        y = rng.standard_normal(self.samples)
        direction = rng.standard_normal(self.dimension)
        direction /= np.linalg.norm(direction)
        start = [np.outer(np.eye(self.dimension)[0], direction)[None]]
        start.append(direction[None, :, None])
        rate = min(self.step_sizes)
        per_step = _step_seconds(
            lambda steps: networks.finetune(
                start,
                X,
                y,
                learning_rate=rate,
                integrator="gd",
                tol=0.0,
                max_steps=steps,
                strict=False,
            ),
            100,
        )
        steps = round(
            float(np.mean([self.steps_times_rate / e for e in self.step_sizes]))
        )
        return CostEstimate.of_training(
            len(self.step_sizes),
            steps,
            per_step,
            f"L = 2, n = {self.samples}, d = {self.dimension}, eta = "
            f"{', '.join(f'{e:g}' for e in self.step_sizes)}: steps to the "
            f"residual 1e-13, {self.steps_times_rate:g}/eta as measured (their mean)",
        )


@dataclass(frozen=True)
class MonteCarloDraws:
    r"""Independent draws of a closed-form quantity: a draw is a step of one run.

    ``sample(k)`` computes ``k`` draws at the configuration's sizes (one grid
    point); the check takes ``draws`` of them at each of ``points`` points.
    The model times ``sample(timed)`` and scales it to the draws.
    """

    sample: Callable[[int], object]
    draws: int
    points: int = 1
    timed: int = 64
    what: str = ""

    def cost(self) -> CostEstimate:
        """Runs: the grid points; steps: the draws at each."""
        timed = min(self.timed, self.draws)
        per_draw = _timed(lambda: self.sample(timed), steps=1, repeats=3) / timed
        return CostEstimate.of_training(
            self.points,
            self.draws,
            per_draw,
            f"a step is one draw ({self.what}); timed on {timed} draws",
        )


@dataclass(frozen=True)
class StudentRun:
    r"""Sec. 4: the mean-field ReLU student trained on the source's population loss.

    The run of
    :func:`~implicit_bias.validation.relu_kernels.kernel_condensation`:
    ``steps`` projected gradient steps of size ``learning_rate`` m on a
    student of ``width`` units, teacher of ``teacher_units`` units in
    dimension ``dimension``.
    """

    dimension: int = 10
    teacher_units: int = 10
    width: int = 100
    ablated_fraction: float = 0.3
    steps: int = 20_000
    learning_rate: float = 0.2
    seeds: tuple[int, ...] = (4,)

    def cost(self) -> CostEstimate:
        """Runs: the seeds; steps: ``steps``; a step is one loss-and-gradient."""
        rng = np.random.default_rng(0)
        setup = ablation_setup(
            self.teacher_units, self.dimension, self.ablated_fraction, rng
        )
        weights = sample_sphere(self.width, self.dimension, rng)
        readout = np.full(self.width, 1e-7)
        # One call at the paper's size takes ~0.15 s: time few of them.
        large = self.width * self.width * self.dimension > 10**7
        per_step = _timed(
            lambda: source_loss_and_gradients(weights, readout, setup),
            steps=1 if large else 5,
            repeats=1 if large else 2,
        )
        return CostEstimate.of_training(
            len(self.seeds),
            self.steps,
            per_step,
            f"d = {self.dimension}, m = {self.width}, m_* = {self.teacher_units}: "
            "population loss and Riemannian gradient per step (arc-cosine Gram "
            "matrices m x m and m x (1 - mu) m_*), no early stop",
        )
