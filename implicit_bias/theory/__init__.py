"""The papers' derivations in SymPy: expressions, equations and the steps between them."""

from implicit_bias.theory import relu_penalty, symbols

__all__ = ["relu_penalty", "symbols"]
