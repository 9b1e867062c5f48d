r"""Deep linear networks on the empirical loss (5), with symbolic data and weights.

The proof of Theorem 3.5 (Appendix B.4 of features-are-fate) works with the
empirical loss :math:`\mathcal{L} = \tfrac{1}{2n}\|r\|_2^2`,
:math:`r = X W_1 \cdots W_L - y`, and splits the residual with the orthogonal
projectors :math:`P_\parallel` onto :math:`\mathrm{im}(X)` and
:math:`P_\perp = I - P_\parallel` onto :math:`\ker(X^\top)` (eq. (78)).
:class:`EmpiricalNetwork` writes all of it at a concrete shape with a symbol
for every entry of the weights, the data :math:`X`, the labels :math:`y` and
the projector :math:`P_\parallel` (a symmetric matrix of symbols), so the
proof's expressions read as the text writes them.

That :math:`P_\parallel` is the projector onto the image of :math:`X` is a
constraint, imposed by substitutions (:meth:`EmpiricalNetwork.data_constraint`)
that write every admissible :math:`X` through free parameters whose
denominators SymPy sees are positive (a denominator that might vanish makes
SymPy's ``Abs`` of a large expression expand it): the columns
(``n = 3 > d = 2``) or rows (``n = 2 < d = 3``) of :math:`X` are
:math:`m \times a` and :math:`m \times b` for vectors :math:`a, b \in
\mathbb{R}^3` of symbols and :math:`m = (2u, 2v, 1 - u^2 - v^2)`,
:math:`\|m\| = 1 + u^2 + v^2`, so :math:`m` spans :math:`\ker(X^\top)`
(resp. :math:`\ker(X)`) and the projector onto :math:`\mathrm{im}(X)` (resp.
:math:`\mathrm{row}(X)`) is :math:`I - mm^\top/\|m\|^2`. Every :math:`X` of
rank 2 is of this form but for a set of measure zero (:math:`a \mapsto m
\times a` maps onto :math:`m^\perp`; :math:`m` misses one direction).
"""

from __future__ import annotations

from collections.abc import Mapping

import sympy as sp

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.sources.features_are_fate.appendix_b2 import DeepLinearNetwork
from implicit_bias.theory import transfer_asymptotics as theory

__all__ = [
    "EmpiricalNetwork",
    "glyph",
    "inner",
    "smallest_eigenvalue",
    "smallest_singular_value_squared",
]

_t = sp.Symbol("t", real=True)
_alpha, _lam = theory.alpha, theory.lam


def _entries(name: str, rows: int, columns: int) -> sp.Matrix:
    return sp.Matrix(rows, columns, lambda i, j: sp.Symbol(f"{name}_{i}{j}", real=True))


def _symmetric_entries(name: str, size: int) -> sp.Matrix:
    def entry(i: int, j: int) -> sp.Symbol:
        low, high = min(i, j), max(i, j)
        return sp.Symbol(f"{name}_{low}{high}", real=True)

    return sp.Matrix(size, size, entry)


def inner(a: sp.Matrix, b: sp.Matrix) -> sp.Expr:
    r"""The Frobenius inner product :math:`\langle A, B\rangle = \mathrm{tr}
    (A^\top B)`."""
    return sum((x * y for x, y in zip(a, b, strict=True)), sp.Integer(0))


def product(matrices: list[sp.Matrix]) -> sp.Matrix:
    """The ordered product of ``matrices`` (at least one)."""
    result = matrices[0]
    for matrix in matrices[1:]:
        result = result * matrix
    return result


def smallest_eigenvalue(symmetric: sp.Matrix) -> sp.Expr:
    r""":math:`\lambda_{\min}` of a symmetric :math:`2\times 2` matrix, exactly.

    .. math:: \lambda_{\min}(S) = \tfrac12\Big(\mathrm{tr}\,S -
              \sqrt{(S_{00} - S_{11})^2 + 4 S_{01}^2}\Big)

    The radicand is written as a sum of squares, so SymPy knows the root real.
    """
    a, b, c = symmetric[0, 0], symmetric[0, 1], symmetric[1, 1]
    return (a + c - sp.sqrt((a - c) ** 2 + 4 * b**2)) / 2


def smallest_singular_value_squared(matrix: sp.Matrix) -> sp.Expr:
    r""":math:`\sigma_{\min}^2(M)` of a :math:`2\times 2` matrix, exactly.

    .. math:: \sigma_{\min}^2(M) = \tfrac12\Big(\|M\|_F^2 - \sqrt{\big((m_{00}
              - m_{11})^2 + (m_{01} + m_{10})^2\big)\big((m_{00} + m_{11})^2 +
              (m_{01} - m_{10})^2\big)}\Big)

    the radicand :math:`\|M\|_F^4 - 4\det(M)^2` factored into two sums of
    squares.
    """
    a, b, c, d = matrix[0, 0], matrix[0, 1], matrix[1, 0], matrix[1, 1]
    radicand = ((a - d) ** 2 + (b + c) ** 2) * ((a + d) ** 2 + (b - c) ** 2)
    return (a**2 + b**2 + c**2 + d**2 - sp.sqrt(radicand)) / 2


class EmpiricalNetwork(DeepLinearNetwork):
    r"""The empirical loss (5) of :math:`x^\top W_1 \cdots W_L` on ``samples`` data.

    Attributes (beyond :class:`~implicit_bias.sources.features_are_fate.\
appendix_b2.DeepLinearNetwork`'s weights and velocities):
      samples: :math:`n`.
      data: :math:`X`, ``n x d`` symbols ``X_ij``.
      labels: :math:`y`, ``n x 1`` symbols ``y_i0``.
      projector: :math:`P_\parallel` onto :math:`\mathrm{im}(X)` (``n > d``) or
        :math:`P_{\mathrm{row}(X)}` onto the row space (``n < d``), symmetric
        symbols ``P_ij``.
      residual: :math:`r = X W_1\cdots W_L - y`.
      loss: :math:`\mathcal{L} = \tfrac{1}{2n}\|r\|_2^2`, eq. (5) and (78);
        its gradients drive the flow (6) (:meth:`flow`).
    """

    def __init__(self, depth: int, samples: int, dimension: int = 2) -> None:
        super().__init__(depth, dimension)
        if {samples, dimension} not in ({2, 3},):
            raise InvalidArgumentError(
                f"(samples, dimension) = ({samples}, {dimension}): the network is "
                "written for (n, d) = (3, 2) and (2, 3), where rank X = 2"
            )
        self.samples = samples
        self.data = _entries("X", samples, dimension)
        self.labels = _entries("y", samples, 1)
        self.projector = _symmetric_entries("P", max(samples, dimension))
        self.residual = self.data * product(self.weights) - self.labels
        self.loss = (self.residual.T * self.residual)[0, 0] / (2 * samples)

    def parallel_residual(self) -> sp.Matrix:
        r""":math:`r_\parallel = P_\parallel r` (``n > d``)."""
        return self.projector * self.residual

    def perpendicular_residual(self) -> sp.Matrix:
        r""":math:`r_\perp = (I - P_\parallel) r` (``n > d``)."""
        return (sp.eye(self.samples) - self.projector) * self.residual

    def partial_gradient(self, function: sp.Expr, layer: int) -> sp.Matrix:
        r""":math:`\nabla_l f`: the partial derivatives of ``function`` in
        :math:`W_l`'s entries."""
        weight = self.weights[layer - 1]
        return weight.applyfunc(lambda entry: sp.diff(function, entry))

    def rate(self, function: sp.Expr) -> sp.Expr:
        r""":math:`\dot f`: the time derivative of ``function`` along
        :math:`\dot W_l = V_l` (the velocities, symbols)."""
        paths = {
            entry: sp.Function(entry.name)(_t)
            for weight in self.weights
            for entry in weight
        }
        rate = sp.diff(function.subs(paths), _t)
        back = {
            sp.Derivative(path, _t): velocity
            for path, velocity in zip(
                paths.values(),
                (v for velocity in self.velocities for v in velocity),
                strict=True,
            )
        }
        return rate.subs(back).subs({path: entry for entry, path in paths.items()})

    def data_constraint(self) -> dict[sp.Symbol, sp.Expr]:
        r""":math:`X` and its projector through :math:`(u, v, a, b)`, as substitutions.

        :math:`m = (2u, 2v, 1 - u^2 - v^2)` has :math:`\|m\| = 1 + u^2 + v^2`
        (stereographic coordinates of its direction). ``n > d``: the columns of
        :math:`X` are :math:`m \times a` and :math:`m \times b`, so :math:`m`
        spans :math:`\ker(X^\top)` and :math:`P_\parallel = I -
        mm^\top/\|m\|^2`; ``n < d``: the rows of :math:`X` are those vectors,
        :math:`m` spans :math:`\ker(X)` and :math:`P_{\mathrm{row}(X)} = I -
        mm^\top/\|m\|^2`.
        """
        u, v = sp.symbols("u v", real=True)
        normal = sp.Matrix([2 * u, 2 * v, 1 - u**2 - v**2])
        spanning = [normal.cross(_entries(name, 3, 1)) for name in ("a", "b")]
        columns = spanning[0].row_join(spanning[1])
        data = columns if self.samples > self.dimension else columns.T
        projector = sp.eye(3) - normal * normal.T / (1 + u**2 + v**2) ** 2
        values: dict[sp.Symbol, sp.Expr] = dict(zip(self.data, data, strict=True))
        values.update(zip(self.projector, projector, strict=True))
        return values

    @property
    def dimension(self) -> int:
        """:math:`d`."""
        return self.weights[0].rows

    def glyph_symbols(self) -> list[sp.Symbol]:
        """The symbols of this network's formulas and constraints."""
        values: Mapping[sp.Symbol, sp.Expr] = self.data_constraint()
        found = set(self.data) | set(self.labels) | set(self.projector)
        for matrix in (*self.weights, *self.velocities):
            found |= set(matrix)
        for value in values.values():
            found |= value.free_symbols
        return sorted(found, key=str)


_LETTERS = {"w": "W", "v": r"\dot{W}", "X": "X", "y": "y", "P": "P"}


def glyph(entry: sp.Symbol) -> str:
    """``w2_01`` is the (0, 1) entry of W_2: ``(W_{2})_{01}``; a parameter of
    :meth:`EmpiricalNetwork.data_constraint` (``a_10``, ``u``) keeps its name."""
    name, _, indices = entry.name.partition("_")
    letter = name.rstrip("0123456789")
    layer = name[len(letter) :]
    matrix = _LETTERS.get(letter, letter) + (f"_{{{layer}}}" if layer else "")
    return f"({matrix})_{{{indices}}}" if indices else matrix
