"""NumPy simulations and direct minimizations checking the numerics, by network."""

from implicit_bias.validation.relu_networks import (
    UNIT_NORM_TOLERANCE,
    UnitDeviationResult,
    minimize_unit_deviation,
    minimize_unit_deviation_batch,
    unit_deviation,
)

__all__ = [
    "UNIT_NORM_TOLERANCE",
    "UnitDeviationResult",
    "minimize_unit_deviation",
    "minimize_unit_deviation_batch",
    "unit_deviation",
]
