"""The papers' derivations in SymPy: expressions, equations, the steps between them."""

from implicit_bias.theory import relu_penalty, symbols

__all__ = ["relu_penalty", "symbols"]
