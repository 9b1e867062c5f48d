r"""Section 1 of the note: the setting, its symbols and its dataset.

The note's notation: a datum is :math:`z_n = y_n x_n` (label times input),
the logistic loss is :math:`\ell(u) = \log(1 + e^{-u})` (eq. (1)), gradient
descent with step :math:`\eta` runs on :math:`L(w) = \sum_n \ell(z_n^\top w)`
(eqs. (2)-(3)), and :math:`\hat w` is the L2 max-margin separator (eq. (4)).
The dataset of Section 3 is written here in exact rationals, so that its
max-margin separator and dual coefficients are checked exactly.
"""

from __future__ import annotations

import sympy as sp

from implicit_bias.claims import Citation

__all__ = [
    "ALPHA",
    "CITATION",
    "DATA",
    "GLYPHS",
    "MAX_MARGIN",
    "REGIMES",
    "SOURCE_ID",
    "STEP_SIZES",
    "SUPPORT",
    "a",
    "b",
    "c",
    "g",
    "g0",
    "t",
    "u",
]

SOURCE_ID = "max-margin-note"

#: The published result the note follows.
CITATION = Citation(
    title="The Implicit Bias of Gradient Descent on Separable Data",
    authors=(
        "Daniel Soudry",
        "Elad Hoffer",
        "Mor Shpigel Nacson",
        "Suriya Gunasekar",
        "Nathan Srebro",
    ),
    year=2018,
    venue="Journal of Machine Learning Research",
    arxiv="1710.10345",
    version_note=(
        "JMLR 19(70):1-57; the note cites Theorem 3 of that version. The note's "
        "own equations are numbered (1)-(17) in NOTE.md."
    ),
)

#: A margin u = z^T w of one datum (eqs. (1) and (7)).
u = sp.Symbol("u", real=True)
#: The rate c > 0 of the one-dimensional model (8) and its time t >= 0.
c = sp.Symbol("c", positive=True)
t = sp.Symbol("t", positive=True)
#: The initial margin g(0) = g0 of the model (8).
g0 = sp.Symbol("g_0", real=True)
#: Eqs. (11)-(13): w = g w_hat + r with r orthogonal to w_hat, a = ||w_hat||,
#: b = ||r||, g > 0 the growing coefficient along w_hat.
a = sp.Symbol("a", positive=True)
b = sp.Symbol("b", positive=True)
g = sp.Symbol("g", positive=True)

#: How the note typesets its symbols.
GLYPHS = {u: "u", c: "c", t: "t", g0: "g_0", a: r"\|\hat w\|", b: r"\|r\|", g: "g"}

#: The dataset of eq. (14), as z_n = y_n x_n: the inputs (1, 1) and (3, 1)
#: labelled +1, (-2, 1) and (-2, -2) labelled -1.
DATA = sp.Matrix([[1, 1], [2, -1], [3, 1], [2, 2]])
#: The rows of DATA that are support vectors (margin exactly 1).
SUPPORT = (0, 1)
#: The max-margin separator of DATA and its dual coefficients on SUPPORT, as
#: the note states them in eq. (14).
MAX_MARGIN = sp.Matrix([sp.Rational(2, 3), sp.Rational(1, 3)])
ALPHA = (sp.Rational(4, 9), sp.Rational(1, 9))
#: The step sizes of the experiment, below the bound 2 / (beta sigma_max^2) of
#: Soudry et al.'s Theorem 3 (beta = 1/4 for the logistic loss, sigma_max^2 =
#: (25 + sqrt(265)) / 2 for DATA, so the bound is about 0.388).
STEP_SIZES = (sp.Rational(1, 4), sp.Rational(1, 8))

#: The regimes the claims are checked on, in words.
REGIMES = {
    "symbolic": "all real margins u; c, t, a, b, g > 0; g0 real",
    "dataset": (
        "the four points of eq. (14), gradient descent from w(0) = 0 with "
        "eta in {1/4, 1/8}, up to t = 10^6 steps"
    ),
}
