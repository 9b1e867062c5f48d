"""SymPy symbols shared by the theory modules, with their assumptions.

A symbol's *name* is plain ASCII; how it is typeset is decided by the glyph
map of the source that uses it (see :data:`implicit_bias.theory.relu_penalty.GLYPHS`).
"""

from __future__ import annotations

import sympy as sp

__all__ = ["gamma", "m", "m0", "rho", "u"]

#: Signed magnitude :math:`m_h = \|w_h^{(1)}\|_2 w_h^{(2)}` of a hidden unit.
m = sp.Symbol("m", real=True)
#: Norm :math:`m_{0h}^{(1)} = \|w_{0h}^{(1)}\|_2` of the pretrained hidden weights.
m0 = sp.Symbol("m0", nonnegative=True)
#: Cosine similarity :math:`\rho_h` between fine-tuned and pretrained hidden weights.
rho = sp.Symbol("rho", real=True)
#: Readout initialization :math:`\gamma`.
gamma = sp.Symbol("gamma", real=True)
#: Hidden-weight norm :math:`u = \|w_h^{(1)}\|_2 > 0`.
u = sp.Symbol("u", positive=True)
