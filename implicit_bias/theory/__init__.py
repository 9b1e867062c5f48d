"""The papers' derivations in SymPy: expressions, equations, the steps between them."""

from implicit_bias.theory import (
    diagonal_networks,
    relu_penalty,
    representations,
    symbols,
)

__all__ = ["diagonal_networks", "relu_penalty", "representations", "symbols"]
