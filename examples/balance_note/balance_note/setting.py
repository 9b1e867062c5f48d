r"""Section 1 of the note: the setting, its symbols and its citation.

A target :math:`y > 0` is fitted by the product :math:`ab` of two weights with
the square loss :math:`L(a, b) = (ab - y)^2/2` (eq. (1)), on which gradient flow
(eq. (2)) and gradient descent (eq. (7)) run.
"""

from __future__ import annotations

import sympy as sp

from implicit_bias.claims import Citation

__all__ = [
    "ALPHA",
    "CITATION",
    "GLYPHS",
    "REGIMES",
    "SOURCE_ID",
    "STEPS",
    "STEP_SIZE",
    "TARGET",
    "a",
    "b",
    "p0",
    "t",
    "y",
]

SOURCE_ID = "balance-note"

#: The published result the note follows, in its smallest case.
CITATION = Citation(
    title=(
        "Algorithmic Regularization in Learning Deep Homogeneous Models: Layers "
        "are Automatically Balanced"
    ),
    authors=("Simon S. Du", "Wei Hu", "Jason D. Lee"),
    year=2018,
    venue="NeurIPS 2018",
    arxiv="1806.00900",
    version_note=(
        "The note cites Theorem 2.1 for two layers; its own equations are "
        "numbered (1)-(8) in NOTE.md."
    ),
)

#: The two weights (any real values) and the target y > 0 of eq. (1).
a = sp.Symbol("a", real=True)
b = sp.Symbol("b", real=True)
y = sp.Symbol("y", positive=True)
#: The time of the flow and the product's value p(0) = p0 > 0 at its start (6).
t = sp.Symbol("t", positive=True)
p0 = sp.Symbol("p_0", positive=True)

#: How the note typesets its symbols.
GLYPHS = {a: "a", b: "b", y: "y", t: "t", p0: "p_0"}

#: The experiment of Section 3: target, step size, start and number of steps.
TARGET = 4.0
STEP_SIZE = 1.0 / 20.0
ALPHA = 1e-3
STEPS = 500

#: The regimes the claims are checked on, in words.
REGIMES = {
    "symbolic": "all real weights $a$, $b$; $y$, $p_0$, $t > 0$",
    "experiment": (
        r"$y = 4$, gradient descent with $\eta = 1/20$ from "
        r"$a(0) = b(0) = 10^{-3}$, 500 steps"
    ),
}
