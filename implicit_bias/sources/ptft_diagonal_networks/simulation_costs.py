r"""What the simulation claims of ptft-diagonal-networks cost, before they run.

Each experiment of :mod:`implicit_bias.validation.diagonal_experiments` is a
few calls of the batched trainers of
:mod:`implicit_bias.validation.diagonal_networks`; :data:`EXPERIMENTS`
describes each call as a :class:`TrainerCall` (the trainer, the networks it
batches, the shape of its data), read off the experiment's configuration in
its docstring. :func:`experiment_cost` times ten batched steps of every
distinct call at its sizes and counts

.. math:: T \le \sum_{\text{calls}} K\, T_{\max}\, c_{\text{step}},

with :math:`T_{\max}` the trainers' step cap
(:data:`~implicit_bias.validation.diagonal_networks.DEFAULT_MAX_STEPS`):
every network stops at its convergence tolerance, most long before the cap,
so the figure is an upper bound (the tests compare it with the steps the runs
take). The convex solves of the reference interpolants are left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from implicit_bias.claims.profiles import CostEstimate, measure_step_seconds
from implicit_bias.validation.diagonal_experiments import stacks_repeats
from implicit_bias.validation.diagonal_networks import (
    DEFAULT_MAX_STEPS,
    train_diagonal_networks,
    train_multitask_diagonal_networks,
)

__all__ = ["EXPERIMENTS", "TrainerCall", "dense_gaps_cost", "experiment_cost"]


@dataclass(frozen=True)
class TrainerCall:
    """One call of a batched diagonal-network trainer.

    Attributes:
      networks: K, the networks the call trains together.
      samples: rows of the data matrix (the largest n; smaller sample counts
        are masked rows of it).
      dimension: D.
      outputs: O (1: :func:`train_diagonal_networks`; more:
        :func:`train_multitask_diagonal_networks`).
      shared_data: whether the K networks share one (n, D) data matrix
        (else each has its own, (K, n, D)).
      repeats: how many times the experiment makes this call.
    """

    networks: int
    samples: int
    dimension: int
    outputs: int = 1
    shared_data: bool = True
    repeats: int = 1


def _together(
    parts: tuple[tuple[int, int], ...], dimension: int, repeats: int, outputs: int = 1
) -> tuple[TrainerCall, ...]:
    """The calls of one ``_train_together`` over the repeats of an experiment.

    ``parts`` lists (networks, n) of each repeat's batches. One call over all
    of them, each network on its own copy of its (padded) data, when the
    experiments stack them (``stacks_repeats``); else one call too, each batch
    a group of networks sharing its data, whose step costs at most about the
    batches' shared-data steps one after another: counted as one such call
    per batch.
    """
    networks = repeats * sum(count for count, _ in parts)
    samples = max(rows for _, rows in parts)
    if stacks_repeats(networks, samples, dimension):
        return (TrainerCall(networks, samples, dimension, outputs, shared_data=False),)
    return tuple(
        TrainerCall(count, rows, dimension, outputs, repeats=repeats)
        for count, rows in parts
    )


def _norms_versus_sample_size(
    dimension: int, sizes: int, largest: int, repeats: int, *, single_task: bool = True
) -> tuple[TrainerCall, ...]:
    """Fig. 5a: pretraining with STL (two tasks) at each n (without STL when not
    ``single_task``); PT+FT at each n; MTL at each n."""
    first = ((1, dimension // 2), (2 * sizes, largest))
    return (
        *_together(first if single_task else first[:1], dimension, repeats),
        *_together(((sizes, largest),), dimension, repeats),
        *_together(((sizes, largest),), dimension, repeats, outputs=2),
    )


def _overlap_versus_rescaling(
    dimension: int, rescales: int, sizes: int, largest: int, repeats: int
) -> tuple[TrainerCall, ...]:
    """Fig. 5b: pretraining; PT+FT at each (rescaling, n) with STL at each n, for
    ``sizes`` sample sizes on data of ``largest`` rows."""
    return (
        *_together(((1, dimension // 2),), dimension, repeats),
        *_together((((rescales + 1) * sizes, largest),), dimension, repeats),
    )


def _learned_solutions(
    dimension: int,
    overlaps: int,
    sizes: int,
    largest: int,
    repeats: int,
    aux_samples: int | None = None,
) -> tuple[TrainerCall, ...]:
    """Figs. 5c-5f: pretraining on ``aux_samples`` (None: D/2) with STL at each
    (overlap, n); PT+FT at each; MTL at each (LP is a closed form, left out)."""
    networks = overlaps * sizes
    pretraining = (1, dimension // 2 if aux_samples is None else aux_samples)
    return (
        *_together((pretraining, (networks, largest)), dimension, repeats),
        *_together(((networks, largest),), dimension, repeats),
        *_together(((networks, largest),), dimension, repeats, outputs=2),
    )


#: The trainer calls of each experiment (configurations in the docstrings of
#: :mod:`implicit_bias.validation.diagonal_experiments`).
EXPERIMENTS: dict[str, tuple[TrainerCall, ...]] = {
    # 4 problems x 3 step sizes, each network on its own (5, 10) data.
    "min_q_endpoint_errors": (TrainerCall(12, 5, 10, shared_data=False),),
    # Pretraining on 8 samples, finetuning on 5, at 2 rescalings x 3 step sizes.
    "ptft_min_q_endpoint_errors": (TrainerCall(6, 8, 10), TrainerCall(6, 5, 10)),
    # One problem at 2 initialization scales (the claim runs one per seed).
    "multitask_dense_gap": (TrainerCall(2, 5, 12, outputs=2),),
    "multitask_planted_distances": (TrainerCall(3, 20, 40, outputs=2),),
    "norms_versus_sample_size quick": _norms_versus_sample_size(40, 6, 32, 2),
    "norms_versus_sample_size full": _norms_versus_sample_size(200, 7, 160, 5),
    # norms-versus-samples-full's run: MTL and PT+FT, no STL.
    "norms_versus_sample_size full without STL": _norms_versus_sample_size(
        200, 7, 160, 5, single_task=False
    ),
    "overlap_versus_rescaling quick": _overlap_versus_rescaling(40, 4, 3, 24, 2),
    "overlap_versus_rescaling full": _overlap_versus_rescaling(200, 5, 4, 80, 5),
    # rescaling-reduces-overlap-full's run: n = 10 only (data of 10 rows).
    "overlap_versus_rescaling full at n = 10": _overlap_versus_rescaling(
        200, 5, 1, 10, 5
    ),
    # Configurations in implicit_bias.validation.diagonal_learned_sparsity.
    "learned_solutions quick": _learned_solutions(40, 3, 6, 32, 20),
    "learned_solutions full": _learned_solutions(400, 3, 7, 160, 20),
    # The 0/40 claims of Fig. 5e also read a second run, in the second regime of
    # appendix_e1_regimes.REGIMES (1024 auxiliary samples).
    "learned_solutions quick, two regimes": (
        _learned_solutions(40, 3, 6, 32, 20)
        + _learned_solutions(40, 3, 6, 32, 20, aux_samples=1024)
    ),
    "learned_solutions full, two regimes": (
        _learned_solutions(400, 3, 7, 160, 20)
        + _learned_solutions(400, 3, 7, 160, 20, aux_samples=1024)
    ),
}

#: Steps per timing of a batched step (their mean is the per-step figure).
_TIMED_STEPS = 10


def _batched_step(call: TrainerCall) -> Callable[[], None]:
    """Ten steps of ``call``'s trainer at its sizes, from a small random start."""
    rng = np.random.default_rng(0)
    count, samples, dimension = call.networks, call.samples, call.dimension
    shape = (samples, dimension) if call.shared_data else (count, samples, dimension)
    x = rng.standard_normal(shape)
    w1 = 1e-3 * (1.0 + rng.random((count, dimension)))
    if call.outputs == 1:
        y = rng.standard_normal((count, samples))
        w2 = 1e-3 * (1.0 + rng.random((count, dimension)))

        def step() -> None:
            train_diagonal_networks(
                x,
                y,
                w1,
                w2,
                learning_rate=1e-3,
                max_steps=_TIMED_STEPS,
                strict=False,
            )

        return step
    targets = rng.standard_normal((samples, call.outputs))
    w2_multi = 1e-3 * (1.0 + rng.random((count, call.outputs, dimension)))

    def multitask_step() -> None:
        train_multitask_diagonal_networks(
            x,
            targets,
            w1,
            w2_multi,
            learning_rate=1e-3,
            max_steps=_TIMED_STEPS,
            strict=False,
        )

    return multitask_step


def experiment_cost(name: str, times: int = 1) -> CostEstimate:
    r"""An upper bound on the CPU seconds of :data:`EXPERIMENTS`' experiment ``name``.

    .. math:: T \le \sum_{\text{calls}} r\,K\,T_{\max}\,c_{\text{step}}(K, n, D, O)

    (r the call's repeats, :math:`c_{\text{step}}` one network's share of a
    measured batched step), for ``times`` runs of the experiment (e.g. one per
    seed); module docstring.
    """
    return _estimate(name, EXPERIMENTS[name], times)


def dense_gaps_cost(problems: int) -> CostEstimate:
    r"""An upper bound on the CPU seconds of ``multitask_dense_gaps(range(problems))``.

    One batched call of the multi-task trainer on 2 ``problems`` networks (two
    initialization scales per problem), each on its own (5, 12) data; bounded
    as in :func:`experiment_cost`.
    """
    call = TrainerCall(2 * problems, 5, 12, outputs=2, shared_data=False)
    return _estimate(f"multitask_dense_gaps of {problems} problems", (call,), 1)


def _estimate(name: str, calls: tuple[TrainerCall, ...], times: int) -> CostEstimate:
    seconds = 0.0
    runs = 0
    for call in calls:
        batched = (
            measure_step_seconds(_batched_step(call), steps=2, repeats=3) / _TIMED_STEPS
        )
        seconds += times * call.repeats * batched * DEFAULT_MAX_STEPS
        runs += times * call.repeats * call.networks
    return CostEstimate.of_training(
        runs,
        DEFAULT_MAX_STEPS,
        seconds / (runs * DEFAULT_MAX_STEPS),
        f"{name}{f' x {times}' if times > 1 else ''}: {len(calls)} batched "
        "trainer call(s) each; the steps are the "
        f"trainers' cap ({DEFAULT_MAX_STEPS}): every network stops at its "
        "convergence tolerance, most far earlier, so this is an upper bound",
    )
