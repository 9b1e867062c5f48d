r"""Participation ratio, linear CKA and ENSD of representations (Appendix G).

The dimensionality and shared-dimensionality measures of Appendix G of
ptft-diagonal-networks, as SymPy expressions of explicit matrices. A
representation is an :math:`n\times p` matrix :math:`\mathbf{X}` of mean-centred
responses (rows are samples) with covariance
:math:`\mathbf{C}_X = \frac1n\mathbf{X}^\top\mathbf{X}`. The CKA is the linear
CKA of Kornblith et al. (2019) without centring (the responses are already
centred). ``display_*`` functions give the relations in the paper's notation
with :class:`sympy.MatrixSymbol` operands, typeset by :data:`GLYPHS`.

Every object here is a SymPy expression; nothing is evaluated numerically.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

__all__ = [
    "GLYPHS",
    "covariance",
    "display_ensd",
    "display_ensd_cka",
    "display_pr_eigenvalues",
    "display_pr_traces",
    "ensd",
    "ensd_from_traces",
    "linear_cka",
    "linear_cka_from_traces",
    "participation_ratio",
    "participation_ratio_of_data",
    "participation_ratio_of_eigenvalues",
    "symbolic_responses",
    "uncorrelated_units",
]

samples_atom = sp.Symbol("n", integer=True, positive=True)
units_atom = sp.Symbol("p", integer=True, positive=True)
x_atom = sp.MatrixSymbol("X", samples_atom, units_atom)
y_atom = sp.MatrixSymbol("Y", samples_atom, units_atom)
c_atom = sp.MatrixSymbol("C_X", units_atom, units_atom)
eigenvalue = sp.IndexedBase("lambda")
index_i = sp.Symbol("i", integer=True, positive=True)
pr_x = sp.Function("PR", positive=True)(x_atom)
pr_y = sp.Function("PR", positive=True)(y_atom)
cka_xy = sp.Function("CKA")(x_atom, y_atom)
ensd_xy = sp.Function("ENSD")(x_atom, y_atom)

#: How each symbol of Appendix G is typeset (paper notation).
GLYPHS: dict[sp.Basic, str] = {
    samples_atom: r"n",
    units_atom: r"p",
    x_atom: r"\mathbf{X}",
    y_atom: r"\mathbf{Y}",
    c_atom: r"\mathbf{C}_X",
    index_i: r"i",
    eigenvalue.label: r"\lambda",
}


def symbolic_responses(name: str, samples: int, units: int) -> sp.Matrix:
    r"""An :math:`n\times p` matrix of real symbols ``{name}_ij``."""
    return sp.Matrix(
        samples, units, lambda i, j: sp.Symbol(f"{name}_{i + 1}{j + 1}", real=True)
    )


def covariance(x: sp.Matrix, normalization: sp.Expr | None = None) -> sp.Matrix:
    r""":math:`\mathbf{C}_X = \frac1n\mathbf{X}^\top\mathbf{X}` (Appendix G).

    Args:
      x: the :math:`n\times p` responses.
      normalization: the :math:`n` to divide by (default: the rows of ``x``).
    """
    n = sp.Integer(x.rows) if normalization is None else normalization
    return x.T * x / n


def participation_ratio(c: sp.Matrix) -> sp.Expr:
    r"""PR in its covariance form (Appendix G of ptft-diagonal-networks).

    .. math:: PR = \frac{\operatorname{tr}(\mathbf{C}_X)^2}
              {\operatorname{tr}(\mathbf{C}_X^2)}
    """
    return c.trace() ** 2 / (c * c).trace()


def participation_ratio_of_data(x: sp.Matrix) -> sp.Expr:
    r"""PR in its data form (Appendix G of ptft-diagonal-networks).

    .. math:: PR = \frac{\operatorname{tr}(\mathbf{X}^\top\mathbf{X})^2}
              {\operatorname{tr}(\mathbf{X}^\top\mathbf{X}\mathbf{X}^\top\mathbf{X})}
    """
    gram = x.T * x
    return gram.trace() ** 2 / (gram * gram).trace()


def participation_ratio_of_eigenvalues(eigenvalues: Sequence[sp.Expr]) -> sp.Expr:
    r"""PR in its eigenvalue form: :math:`(\sum_i\lambda_i)^2/\sum_i\lambda_i^2`.

    Examples:
      >>> pr = participation_ratio_of_eigenvalues
      >>> pr([1, 1, 1]), pr([1, 0, 0]), pr([2, 1])
      (3, 1, 9/5)
    """
    return sp.Add(*eigenvalues) ** 2 / sp.Add(*(v**2 for v in eigenvalues))


def linear_cka(x: sp.Matrix, y: sp.Matrix) -> sp.Expr:
    r"""Linear CKA (Kornblith et al., 2019) of centred responses.

    .. math:: CKA = \frac{
              \operatorname{tr}(\mathbf{Y}^\top\mathbf{X}\mathbf{X}^\top\mathbf{Y})}
              {\sqrt{\operatorname{tr}((\mathbf{X}^\top\mathbf{X})^2)
              \operatorname{tr}((\mathbf{Y}^\top\mathbf{Y})^2)}}
    """
    gram_x, gram_y = x.T * x, y.T * y
    return linear_cka_from_traces(
        (y.T * x * x.T * y).trace(),
        (gram_x * gram_x).trace(),
        (gram_y * gram_y).trace(),
    )


def linear_cka_from_traces(
    cross: sp.Expr, gram_x_sq: sp.Expr, gram_y_sq: sp.Expr
) -> sp.Expr:
    r"""Linear CKA from the traces :math:`\operatorname{tr}(Y^\top XX^\top Y)`,
    :math:`\operatorname{tr}((X^\top X)^2)` and :math:`\operatorname{tr}((Y^\top Y)^2)`.
    """
    return cross / sp.sqrt(gram_x_sq * gram_y_sq)


def ensd(x: sp.Matrix, y: sp.Matrix) -> sp.Expr:
    r"""The ENSD of Giaffar et al. (2023), as printed in Appendix G.

    .. math:: ENSD(X, Y) = \frac{
              \operatorname{tr}(\mathbf{Y}^\top\mathbf{X}\mathbf{X}^\top\mathbf{Y})
              \operatorname{tr}(\mathbf{X}^\top\mathbf{X})
              \operatorname{tr}(\mathbf{Y}^\top\mathbf{Y})}
              {\operatorname{tr}(\mathbf{X}^\top\mathbf{X}\mathbf{X}^\top\mathbf{X})
              \operatorname{tr}(\mathbf{Y}^\top\mathbf{Y}\mathbf{Y}^\top\mathbf{Y})}

    Examples:
      >>> x = uncorrelated_units([1] * 10)
      >>> ensd(x, x[:, :5]), ensd(x, x) == participation_ratio_of_data(x)
      (5, True)
    """
    gram_x, gram_y = x.T * x, y.T * y
    return ensd_from_traces(
        (y.T * x * x.T * y).trace(),
        gram_x.trace(),
        gram_y.trace(),
        (gram_x * gram_x).trace(),
        (gram_y * gram_y).trace(),
    )


def ensd_from_traces(
    cross: sp.Expr,
    gram_x: sp.Expr,
    gram_y: sp.Expr,
    gram_x_sq: sp.Expr,
    gram_y_sq: sp.Expr,
) -> sp.Expr:
    r"""ENSD from its five traces (same order as the printed formula)."""
    return cross * gram_x * gram_y / (gram_x_sq * gram_y_sq)


def uncorrelated_units(scales: Sequence[sp.Expr]) -> sp.Matrix:
    r"""Mean-centred responses of uncorrelated units with the given standard deviations.

    The :math:`2p\times p` matrix :math:`\sqrt{p}\,[\operatorname{diag}(\sigma);
    -\operatorname{diag}(\sigma)]`: every column has mean 0 and
    :math:`\mathbf{C}_X = \mathbf{X}^\top\mathbf{X}/(2p) =
    \operatorname{diag}(\sigma^2)`, so the units are uncorrelated and unit j has
    variance :math:`\sigma_j^2` (exactly, not only in expectation).

    Examples:
      >>> x = uncorrelated_units([1, 2, 3])
      >>> covariance(x) == sp.diag(1, 4, 9), [sum(x[:, j]) for j in range(3)]
      (True, [0, 0, 0])
    """
    # Each unit is nonzero on 2 of the 2p samples: sqrt(p) makes its variance
    # sigma^2 rather than sigma^2/p.
    block = sp.sqrt(len(scales)) * sp.diag(*scales)
    return sp.Matrix.vstack(block, -block)


# --- the relations the claims print


def _eq(lhs: sp.Expr, rhs: sp.Expr) -> sp.Eq:
    return sp.Eq(lhs, rhs, evaluate=False)


def _trace(a: sp.MatrixExpr) -> sp.Expr:
    return sp.Trace(a)


def display_pr_traces() -> sp.Eq:
    r"""The trace form of PR (Appendix G)."""
    x = x_atom
    return _eq(pr_x, _trace(x.T * x) ** 2 / _trace(x.T * x * x.T * x))


def display_pr_eigenvalues() -> sp.Eq:
    r""":math:`PR(X) = (\sum_i\lambda_i)^2/\sum_i\lambda_i^2`."""
    return _eq(
        pr_x,
        sp.Sum(eigenvalue[index_i], (index_i, 1, units_atom)) ** 2
        / sp.Sum(eigenvalue[index_i] ** 2, (index_i, 1, units_atom)),
    )


def display_ensd() -> sp.Eq:
    r"""The printed ENSD formula."""
    x, y = x_atom, y_atom
    return _eq(
        ensd_xy,
        _trace(y.T * x * x.T * y)
        * _trace(x.T * x)
        * _trace(y.T * y)
        / (_trace(x.T * x * x.T * x) * _trace(y.T * y * y.T * y)),
    )


def display_ensd_cka() -> sp.Eq:
    r""":math:`ENSD(X, Y) = CKA(X, Y)\sqrt{PR(X)PR(Y)}`."""
    root = sp.Pow(sp.Mul(pr_x, pr_y, evaluate=False), sp.S.Half, evaluate=False)
    return _eq(ensd_xy, sp.Mul(cka_xy, root, evaluate=False))
