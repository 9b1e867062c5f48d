"""NumPy simulations and direct minimizations checking the numerics, by network."""

from implicit_bias.validation.diagonal_experiments import (
    NormsVersusSampleSize,
    OverlapVersusRescaling,
    min_q_endpoint_errors,
    multitask_dense_gap,
    multitask_planted_distances,
    norms_versus_sample_size,
    overlap_versus_rescaling,
    ptft_min_q_endpoint_errors,
)
from implicit_bias.validation.diagonal_networks import (
    DEFAULT_MAX_STEPS,
    DEFAULT_TOLERANCE,
    DiagonalTrainingResult,
    diagonal_coefficients,
    train_diagonal_networks,
    train_multitask_diagonal_networks,
)
from implicit_bias.validation.diagonal_pretrain_finetune import (
    PretrainFinetuneResult,
    finetuning_initialization,
    pretrain_finetune_diagonal_networks,
    support_overlap,
)
from implicit_bias.validation.relu_networks import (
    UNIT_NORM_TOLERANCE,
    UnitDeviationResult,
    minimize_unit_deviation,
    minimize_unit_deviation_batch,
    unit_deviation,
)

__all__ = [
    "DEFAULT_MAX_STEPS",
    "DEFAULT_TOLERANCE",
    "UNIT_NORM_TOLERANCE",
    "DiagonalTrainingResult",
    "NormsVersusSampleSize",
    "OverlapVersusRescaling",
    "PretrainFinetuneResult",
    "UnitDeviationResult",
    "diagonal_coefficients",
    "finetuning_initialization",
    "min_q_endpoint_errors",
    "minimize_unit_deviation",
    "minimize_unit_deviation_batch",
    "multitask_dense_gap",
    "multitask_planted_distances",
    "norms_versus_sample_size",
    "overlap_versus_rescaling",
    "pretrain_finetune_diagonal_networks",
    "ptft_min_q_endpoint_errors",
    "support_overlap",
    "train_diagonal_networks",
    "train_multitask_diagonal_networks",
    "unit_deviation",
]
