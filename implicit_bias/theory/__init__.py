"""The papers' derivations in SymPy: expressions, equations, the steps between them."""

from implicit_bias.theory import (
    diagonal_networks,
    relu_kernels,
    relu_penalty,
    representations,
    symbols,
    tangent_features,
    task_distance,
    transfer_asymptotics,
    transfer_risks,
    transfer_symbols,
)

__all__ = [
    "diagonal_networks",
    "relu_kernels",
    "relu_penalty",
    "representations",
    "symbols",
    "tangent_features",
    "task_distance",
    "transfer_asymptotics",
    "transfer_risks",
    "transfer_symbols",
]
