r"""The experiments of ptft-diagonal-networks: Appendix A's endpoints and Appendix E.1.

:func:`min_q_endpoint_errors` and :func:`ptft_min_q_endpoint_errors` measure how
far gradient descent ends from Appendix A's minimum-Q interpolant as the step
size halves (the discretization error of the flow).

Appendix E.1 compares the predictors that multi-task learning (MTL),
pretraining then finetuning (PT+FT) and single-task learning (STL) find on
diagonal linear networks: their norms against the ground truth's as the number
of samples grows (Fig. 5a, :func:`norms_versus_sample_size`), and how much of
the main-task predictor lies on the auxiliary task's features as the rescaling
factor of the pretrained first layer varies (Fig. 5b,
:func:`overlap_versus_rescaling`). Both run on the batched gradient-descent
simulations of :mod:`implicit_bias.validation.diagonal_networks`, whose module
docstring states the networks, the loss and the stopping rule, and of
:mod:`implicit_bias.validation.diagonal_pretrain_finetune` for PT+FT.
"""

from __future__ import annotations

from implicit_bias.validation.diagonal_experiments.batches import (
    stacks_repeats,
    Float64Array as Float64Array,
)
from implicit_bias.validation.diagonal_experiments.appendix_a_min_q import (
    min_q_endpoint_errors,
    ptft_min_q_endpoint_errors,
    ENDPOINT_LEARNING_RATES as ENDPOINT_LEARNING_RATES,
)
from implicit_bias.validation.diagonal_experiments.appendix_b1_min_l12 import (
    multitask_dense_gap,
    multitask_dense_gaps,
    multitask_planted_distances,
)
from implicit_bias.validation.diagonal_experiments.appendix_e1 import (
    NormsVersusSampleSize,
    OverlapVersusRescaling,
    norms_versus_sample_size,
    overlap_versus_rescaling,
)

# The sibling experiment modules (diagonal_learned_sparsity) train their
# networks in the same batches.
from implicit_bias.validation.diagonal_experiments.batches import (
    _Batch as _Batch,
    _pretraining as _pretraining,
    _stable_learning_rate as _stable_learning_rate,
    _train_together as _train_together,
)

__all__ = [
    "NormsVersusSampleSize",
    "OverlapVersusRescaling",
    "min_q_endpoint_errors",
    "multitask_dense_gap",
    "multitask_dense_gaps",
    "multitask_planted_distances",
    "norms_versus_sample_size",
    "overlap_versus_rescaling",
    "ptft_min_q_endpoint_errors",
    "stacks_repeats",
]
