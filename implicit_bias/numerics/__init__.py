"""Vectorized NumPy evaluators of the papers' formulas, with mpmath references."""

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

__all__ = [
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
