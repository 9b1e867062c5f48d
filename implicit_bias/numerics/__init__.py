"""Vectorized NumPy evaluators of the papers' formulas, with mpmath references."""

from implicit_bias.numerics.multitask import L12Solution, l12_norm, min_l12_interpolant
from implicit_bias.numerics.q_norm import (
    min_q_norm_interpolant,
    q_derivative,
    q_norm,
    q_potential,
    q_potential_mp,
)
from implicit_bias.numerics.relu_penalty import (
    relu_ptft_deviation,
    relu_ptft_log_log_slope,
    relu_ptft_log_slope,
    relu_ptft_penalty,
    relu_ptft_penalty_mp,
    relu_ptft_scale,
    relu_ptft_scale_mp,
    relu_ptft_stationary_count,
    relu_ptft_stationary_points_mp,
)
from implicit_bias.numerics.representations import cka, ensd, participation_ratio

__all__ = [
    "L12Solution",
    "cka",
    "ensd",
    "l12_norm",
    "min_l12_interpolant",
    "min_q_norm_interpolant",
    "participation_ratio",
    "q_derivative",
    "q_norm",
    "q_potential",
    "q_potential_mp",
    "relu_ptft_deviation",
    "relu_ptft_log_log_slope",
    "relu_ptft_log_slope",
    "relu_ptft_penalty",
    "relu_ptft_penalty_mp",
    "relu_ptft_scale",
    "relu_ptft_scale_mp",
    "relu_ptft_stationary_count",
    "relu_ptft_stationary_points_mp",
]
