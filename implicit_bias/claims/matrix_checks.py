r"""Matrix-valued mathematics: identities between matrices, exactly.

:func:`~implicit_bias.claims.checks.check_identity` hands a relation whose
sides are matrices -- an explicit ``sympy.Matrix`` (its entries may hold
symbols), or an expression of ``MatrixSymbol``\ s with transposes, products,
traces, inverses, Kronecker products -- to :func:`check_matrix_identity`.
:mod:`implicit_bias.claims.loewner` decides the Loewner order on the same
instances.

First a proof: SymPy's matrix-expression rules (``expand``, ``doit``,
``simplify``; :math:`(AB)^\top - B^\top A^\top` expands to a ``ZeroMatrix``)
and, for matrices of concrete shape, every entry written with generic
entries :math:`A_{ij}` simplified to 0. Else the relation is evaluated at
random *exact* instances: every ``MatrixSymbol`` drawn by a matrix sampler
of :mod:`implicit_bias.claims.samplers` (rational entries;
:func:`~implicit_bias.claims.samplers.gaussian_matrix` of its shape by
default), every scalar symbol by its sampler (its assumptions by default),
as an exact rational, and every dimension symbol of a shape such as
:math:`n \times n` at the sizes :data:`SIZES`. The arithmetic is exact, so a
nonzero entry *is* a counterexample (``fails``, ``Basis.PROOF``, the
instance in :attr:`~implicit_bias.claims.engine.Verdict.point`, read back by
:func:`matrices_at`), and an identity that holds at every instance holds on
a sampling basis (``Basis.NUMERICAL``, saying how many instances, and that
they were evaluated exactly: a false polynomial identity vanishes at a
random point with probability 0).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from implicit_bias.claims import checks
from implicit_bias.claims.certify import certified_nonzero, exact_point
from implicit_bias.claims.engine import (
    Basis,
    CheckTimeout,
    Reason,
    Verdict,
    time_limit,
)
from implicit_bias.claims.recording import recording_or_replaying
from implicit_bias.claims.samplers import (
    MatrixSampler,
    Sampler,
    from_assumptions,
    gaussian_matrix,
)
from implicit_bias.errors import InvalidArgumentError

__all__ = [
    "SIZES",
    "check_matrix_identity",
    "involves_matrices",
    "matrices_at",
    "proof_of_zero",
]

#: The sizes a dimension symbol (the ``n`` of ``MatrixSymbol("A", n, n)``)
#: takes, in turn, at the instances of a check: 2 and 3, where products do
#: not commute, 1, where a matrix statement is a scalar one, and 4.
SIZES = (2, 3, 1, 4)
#: Generic explicit entries are tried in the exact step only up to this size
#: (a generic n x n product has n^3 terms; an inverse, a determinant's).
_GENERIC_SIZE = 6

#: A sampler given for a symbol: a scalar's or a matrix's.
AnySampler = Sampler | MatrixSampler


def involves_matrices(expression: object) -> bool:
    """Whether ``expression`` is a matrix or holds one (in a trace, say).

    :func:`~implicit_bias.claims.checks.check_identity` then decides it by
    :func:`check_matrix_identity`.

    Examples:
      >>> A = sp.MatrixSymbol("A", 2, 2)
      >>> involves_matrices(sp.Trace(A)), involves_matrices(sp.Symbol("x") + 1)
      (True, False)
    """
    if isinstance(expression, (sp.MatrixBase, sp.MatrixExpr)):
        return True
    return isinstance(expression, sp.Basic) and expression.has(sp.MatrixExpr)


def _as_basic(side: object) -> sp.Basic:
    if isinstance(side, sp.MatrixBase):
        return sp.ImmutableMatrix(side)
    return sp.sympify(side)


def _shape(side: sp.Basic) -> tuple[sp.Expr, sp.Expr] | None:
    """The shape of a matrix side, None for a scalar."""
    if isinstance(side, (sp.MatrixBase, sp.MatrixExpr)):
        rows, columns = side.shape
        return sp.sympify(rows), sp.sympify(columns)
    return None


def _written_shape(shape: tuple[sp.Expr, sp.Expr] | None) -> str:
    return "a scalar" if shape is None else f"{shape[0]} x {shape[1]}"


def _sides(lhs: object, rhs: object, names: tuple[str, str]) -> tuple[sp.Basic, ...]:
    """The two sides as SymPy objects of one shape; a literal 0 beside a
    matrix is the zero matrix of its shape.

    Raises:
      InvalidArgumentError: the shapes differ, naming the sides and shapes.
    """
    sides = [_as_basic(lhs), _as_basic(rhs)]
    shapes = [_shape(side) for side in sides]
    for index, other in ((0, 1), (1, 0)):
        beside = shapes[other]
        if shapes[index] is None and beside is not None and sides[index] == 0:
            sides[index] = sp.ZeroMatrix(*beside)
            shapes[index] = beside
    if shapes[0] != shapes[1]:
        raise InvalidArgumentError(
            f"{names[0]} and {names[1]}: must have one shape, got {names[0]} "
            f"{_written_shape(shapes[0])} and {names[1]} {_written_shape(shapes[1])}"
        )
    return tuple(sides)


def _is_zero(value: sp.Basic) -> bool:
    if isinstance(value, sp.ZeroMatrix):
        return True
    if isinstance(value, sp.MatrixBase):
        return all(entry == 0 for entry in value)
    return bool(value == 0)


def _matrix_symbols(expression: sp.Basic) -> list[sp.MatrixSymbol]:
    return sorted(expression.atoms(sp.MatrixSymbol), key=str)


def _dimension_symbols(expression: sp.Basic) -> list[sp.Symbol]:
    """The symbols of the shapes in ``expression`` (of a ``MatrixSymbol``, an
    ``Identity(n)``, a ``ZeroMatrix(n, n)``...)."""
    found: set[sp.Symbol] = set()
    for node in sp.preorder_traversal(expression):
        if isinstance(node, sp.MatrixExpr):
            for dimension in node.shape:
                found |= sp.sympify(dimension).free_symbols
    return sorted(found, key=str)


def _scalar_symbols(expression: sp.Basic) -> list[sp.Symbol]:
    dimensions = set(_dimension_symbols(expression))
    return sorted(
        (
            s
            for s in expression.free_symbols
            if isinstance(s, sp.Symbol) and s not in dimensions
        ),
        key=str,
    )


def _concrete(expression: sp.Basic) -> bool:
    """Whether every matrix in ``expression`` has an integer shape, small
    enough for generic explicit entries."""
    return not _dimension_symbols(expression) and all(
        int(d) <= _GENERIC_SIZE
        for m in expression.atoms(sp.MatrixSymbol)
        for d in m.shape
    )


def _explicit(value: sp.Basic) -> sp.Basic:
    """``value`` evaluated (``doit``), a matrix of concrete shape written out."""
    value = value.doit()
    if isinstance(value, sp.MatrixExpr) and not isinstance(value, sp.MatrixBase):
        value = value.as_explicit()
    return value


def _entries(value: sp.Basic) -> list[tuple[tuple[int, int] | None, sp.Basic]]:
    """The entries of a matrix with their (row, column); a scalar as one."""
    if isinstance(value, sp.MatrixBase):
        return [
            ((i, j), value[i, j]) for i in range(value.rows) for j in range(value.cols)
        ]
    return [(None, value)]


def proof_of_zero(difference: sp.Basic) -> str | None:
    """How SymPy shows the matrix (or matrix-valued scalar) ``difference``
    zero, or None: its matrix-expression rules first, then, at a concrete
    shape, every entry written with generic entries :math:`A_{ij}`."""
    for name, method in (
        ("expand", sp.expand),
        ("doit", lambda e: e.doit()),
        ("simplify", sp.simplify),
    ):
        if _is_zero(method(difference)):
            return f"exact: {name}(lhs - rhs) = 0"
    if not _concrete(difference):
        return None
    generic = {m: m.as_explicit() for m in _matrix_symbols(difference)}
    entries = _entries(_explicit(difference.xreplace(generic)))
    for _, entry in entries:
        if not any(method(entry) == 0 for method in (sp.expand, sp.cancel)) and (
            sp.simplify(entry) != 0
        ):
            return None
    return (
        "exact: every entry of lhs - rhs, written with generic entries "
        f"({', '.join(f'{m}[i, j]' for m in generic) or 'constant'}), "
        "simplifies to 0"
    )


def _rational(value: int | mpmath.mpf | sp.Basic) -> sp.Rational:
    """A sampled coordinate as the exact rational it is."""
    if isinstance(value, mpmath.mpf):
        if not mpmath.isfinite(value):
            raise InvalidArgumentError(f"a sampler drew the non-finite {value}")
        sign, mantissa, exponent, _ = value._mpf_
        return sp.Integer((-1) ** sign * int(mantissa)) * sp.Integer(2) ** int(exponent)
    rational = sp.sympify(value)
    if not rational.is_Rational:
        raise InvalidArgumentError(
            f"a sampler drew {value!r}, not an exact rational (an int, an mpf, a "
            "Rational)"
        )
    return rational


@dataclass(frozen=True)
class _Instance:
    """One exact instance: what replaces each symbol, and the point it is."""

    replacements: dict[sp.Basic, sp.Basic]
    #: Coordinate name -> exact value, in the order written (Verdict.point).
    coordinates: dict[sp.Symbol, Fraction]
    written: str


def _instances(
    expression: sp.Basic,
    samplers: Mapping[Any, AnySampler],
    points: int,
    seed: int,
) -> Iterator[_Instance]:
    """``points`` exact instances of the symbols of ``expression``."""
    if points < 1:
        raise InvalidArgumentError(f"points: must be >= 1, got {points!r}")
    dimensions = _dimension_symbols(expression)
    scalars = _scalar_symbols(expression)
    matrices = _matrix_symbols(expression)
    for matrix in matrices:
        symbolic = any(not sp.sympify(d).is_Integer for d in matrix.shape)
        if symbolic and matrix in samplers:
            raise InvalidArgumentError(
                f"samplers: {matrix} has the symbolic shape {matrix.shape}; a "
                "matrix sampler draws one shape, so give the MatrixSymbol a "
                "concrete shape to sample it with one"
            )
    rng = np.random.default_rng(seed)
    for index in range(points):
        replacements: dict[sp.Basic, sp.Basic] = {}
        coordinates: dict[sp.Symbol, Fraction] = {}
        for offset, dimension in enumerate(dimensions):
            if dimension in samplers:
                size = samplers[dimension](rng)
                if isinstance(size, bool) or not isinstance(size, int) or size < 1:
                    raise InvalidArgumentError(
                        f"samplers[{dimension}]: a dimension is an int >= 1, "
                        f"got {size!r}"
                    )
            else:
                size = SIZES[(index + offset) % len(SIZES)]
            replacements[dimension] = sp.Integer(size)
            coordinates[dimension] = Fraction(size)
        for scalar in scalars:
            drawn = (
                samplers[scalar] if scalar in samplers else from_assumptions(scalar)
            )(rng)
            value = _rational(drawn)
            replacements[scalar] = value
            coordinates[scalar] = Fraction(int(value.p), int(value.q))
        for matrix in matrices:
            rows, columns = (
                int(sp.sympify(d).xreplace(replacements)) for d in matrix.shape
            )
            shape = (rows, columns)
            sampler = samplers.get(matrix) or gaussian_matrix(shape)
            drawn_matrix = sampler(rng)
            if not (
                isinstance(drawn_matrix, sp.MatrixBase)
                and drawn_matrix.shape == shape
                and all(sp.sympify(e).is_Rational for e in drawn_matrix)
            ):
                raise InvalidArgumentError(
                    f"samplers[{matrix}]: must draw a {shape[0]} x {shape[1]} "
                    f"sympy.Matrix of exact rationals, got {drawn_matrix!r}"
                )
            replacements[matrix] = sp.ImmutableMatrix(drawn_matrix)
            for i in range(shape[0]):
                for j in range(shape[1]):
                    entry = sp.Rational(drawn_matrix[i, j])
                    coordinates[sp.Symbol(f"{matrix}[{i},{j}]")] = Fraction(
                        int(entry.p), int(entry.q)
                    )
        written = ", ".join(
            f"{symbol} = {_one_line(replacements[symbol])}"
            for symbol in (*dimensions, *scalars, *matrices)
        )
        yield _Instance(replacements, coordinates, written or "(constants)")


def _one_line(value: sp.Basic) -> str:
    """A value in words on one line: a matrix as its list of rows."""
    if isinstance(value, sp.MatrixBase):
        return sp.sstr(value.tolist())
    return sp.sstr(value)


def matrices_at(point: Mapping[str, str]) -> dict[str, sp.Basic]:
    """A counterexample's point (``Verdict.point``) read back into matrices.

    Each matrix (coordinates ``A[i,j]``) as a ``sympy.Matrix``, each vector
    (``v[i]``) as a column, each scalar as a ``Rational``, by name.

    Examples:
      >>> matrices_at({"n": "2", "A[0,0]": "1/2", "A[0,1]": "0", "A[1,0]": "3",
      ...              "A[1,1]": "-1", "v[0]": "1", "v[1]": "2"})
      {'n': 2, 'A': Matrix([
      [1/2,  0],
      [  3, -1]]), 'v': Matrix([
      [1],
      [2]])}
    """
    scalars: dict[str, sp.Basic] = {}
    entries: dict[str, dict[tuple[int, int], sp.Rational]] = {}
    for name, text in point.items():
        value = sp.Rational(Fraction(text).numerator, Fraction(text).denominator)
        base, bracket, index = name.partition("[")
        if not bracket:
            scalars[name] = value
            continue
        numbers = [int(k) for k in index.rstrip("]").split(",")]
        position = (numbers[0], numbers[1] if len(numbers) > 1 else 0)
        entries.setdefault(base, {})[position] = value
    matrices = {
        name: sp.Matrix(
            max(i for i, _ in values) + 1,
            max(j for _, j in values) + 1,
            lambda i, j, values=values: values[(i, j)],
        )
        for name, values in entries.items()
    }
    return {**scalars, **matrices}


def _evaluated(expression: sp.Basic, instance: _Instance) -> sp.Basic:
    return _explicit(expression.xreplace(instance.replacements))


#: What evaluating an instance may raise where the expression has no value
#: there (a singular inverse: ``NonInvertibleMatrixError`` is a ValueError).
_NO_VALUE = (ZeroDivisionError, ValueError, ArithmeticError)


def check_matrix_identity(
    lhs: object,
    rhs: object,
    *,
    samplers: Mapping[Any, AnySampler] | None = None,
    substitutions: Mapping[sp.Expr, sp.Expr] | None = None,
    budget_seconds: float = 20.0,
    points: int = 50,
    seed: int = 0,
    symbolic: bool = True,
) -> Verdict:
    r"""Decide ``lhs == rhs`` between matrices: exactly, else at exact instances.

    The sides may also be scalars holding matrices, such as traces.

    .. math:: \mathrm{lhs} - \mathrm{rhs} = 0 \in \mathbb{Q}^{m \times n}

    Called by :func:`~implicit_bias.claims.checks.check_identity` on a
    relation that :func:`involves_matrices`; call that (it records its
    relation for the ledger and ``mutate``; so does this, through it).

    Args:
      lhs, rhs: explicit ``sympy.Matrix`` (entries may hold symbols) or
        expressions of ``MatrixSymbol``; a literal 0 beside a matrix is the
        zero matrix.
      samplers: a sampler per symbol: a matrix sampler
        (:func:`~implicit_bias.claims.samplers.gaussian_matrix`,
        ``symmetric_matrix``...) per ``MatrixSymbol`` of concrete shape
        (default Gaussian), a scalar one per scalar symbol (default from its
        assumptions), an int-valued one per dimension symbol (default
        :data:`SIZES` in turn).
      substitutions: applied to both sides first (a constraint).
      budget_seconds: CPU time for the exact attempt.
      points: exact random instances of the fallback.
      seed: seed of the instances.
      symbolic: whether to try the exact proof first.

    Returns:
      ``holds`` on a proof (``Basis.PROOF``) or when every entry of
      ``lhs - rhs`` is exactly 0 at every instance (``Basis.NUMERICAL``,
      saying so); ``fails`` with the instance as ``point`` when an entry is
      a nonzero rational (``Basis.PROOF``) or a nonzero ball
      (``Basis.CERTIFIED``); ``inconclusive`` when an instance has no value
      (a singular inverse), or an entry is neither shown 0 nor certified
      nonzero.

    Raises:
      InvalidArgumentError: the sides' shapes differ, or a sampler draws
        something else than its symbol's domain.

    Examples:
      >>> A, B = sp.MatrixSymbol("A", 2, 3), sp.MatrixSymbol("B", 3, 2)
      >>> check_matrix_identity((A * B).T, B.T * A.T).detail
      'exact: expand(lhs - rhs) = 0'
      >>> check_matrix_identity(A * B * A * B, A * (B * A) * B).status
      <Status.HOLDS: 'holds'>
      >>> C = sp.MatrixSymbol("C", 2, 2)
      >>> refuted = check_matrix_identity(A * B * C, C * A * B)
      >>> refuted.status, refuted.basis
      (<Status.FAILS: 'fails'>, <Basis.PROOF: 'proof'>)
    """
    if recording_or_replaying():
        return checks.check_identity(
            lhs,
            rhs,
            samplers=samplers,
            substitutions=substitutions,
            budget_seconds=budget_seconds,
            points=points,
            seed=seed,
            symbolic=symbolic,
        )
    left, right = _sides(lhs, rhs, ("lhs", "rhs"))
    if substitutions:
        left, right = left.subs(substitutions), right.subs(substitutions)
    difference = left - right
    if symbolic:
        with (
            contextlib.suppress(CheckTimeout),
            time_limit(checks._budget(budget_seconds)),
        ):
            proof = proof_of_zero(difference)
            if proof is not None:
                return Verdict.holds(proof, Basis.PROOF)
    undecided: list[str] = []
    no_value: list[str] = []
    sizes: set[str] = set()
    for instance in _instances(difference, samplers or {}, points, seed):
        try:
            value = _evaluated(difference, instance)
        except _NO_VALUE as error:
            no_value.append(f"{instance.written} ({error})")
            continue
        except (TypeError, NotImplementedError) as error:
            return Verdict.inconclusive(
                f"lhs - rhs cannot be evaluated at an instance ({error})",
                Reason.UNEVALUATED,
            )
        sizes.add(_written_shape(_shape(value)))
        for position, entry in _entries(value):
            verdict = _nonzero_entry(entry, position, instance)
            if verdict is None:
                continue
            if verdict.status == "fails":
                return verdict
            undecided.append(verdict.detail)
    if no_value:
        return Verdict.inconclusive(
            f"lhs - rhs has no value at {len(no_value)} of {points} instances "
            f"(e.g. {no_value[0]})",
            Reason.NON_FINITE,
        )
    if undecided:
        return Verdict.inconclusive(
            f"{len(undecided)} entries are neither shown 0 nor certified nonzero "
            f"(e.g. {undecided[0]})",
            Reason.UNDECIDED,
        )
    return Verdict.holds(
        f"exact rational arithmetic at {points} random instances "
        f"({_how_drawn(difference)}; lhs - rhs of shape "
        f"{' or '.join(sorted(sizes))}): every entry of lhs - rhs is exactly 0",
        Basis.NUMERICAL,
    )


def _how_drawn(expression: sp.Basic) -> str:
    dimensions = _dimension_symbols(expression)
    parts = []
    if dimensions:
        parts.append(
            f"dimensions {', '.join(map(str, dimensions))} at sizes from "
            f"{{{', '.join(map(str, sorted(SIZES)))}}}"
        )
    matrices = _matrix_symbols(expression)
    if matrices:
        parts.append(f"matrices {', '.join(map(str, matrices))} drawn exactly")
    scalars = _scalar_symbols(expression)
    if scalars:
        parts.append(f"scalars {', '.join(map(str, scalars))} as exact rationals")
    return "; ".join(parts) or "constants"


def _nonzero_entry(
    entry: sp.Basic, position: tuple[int, int] | None, instance: _Instance
) -> Verdict | None:
    """None when ``entry`` is 0 exactly; a ``fails`` when it is shown
    nonzero; an ``inconclusive`` (its detail) otherwise."""
    where = "lhs - rhs" if position is None else f"entry {position} of lhs - rhs"
    if entry.is_Rational:
        if entry == 0:
            return None
        counterexample = (
            f"at {instance.written} (exactly), {where} is {entry}, not 0 (exact "
            "rational arithmetic)"
        )
        return Verdict.fails(
            f"{where} is {entry} at an exact instance; certified: {counterexample}",
            Basis.PROOF,
            counterexample,
            point=exact_point(instance.coordinates) or None,
        )
    if entry.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        return Verdict.inconclusive(f"{where} is {entry}", Reason.NON_FINITE)
    if sp.simplify(entry) == 0:
        return None
    certificate = certified_nonzero(entry, {})
    if certificate.certified:
        counterexample = (
            f"at {instance.written} (exactly), {where} = {sp.sstr(entry)} is in "
            f"{certificate.enclosure} (ball arithmetic, {certificate.bits} bits), "
            "which excludes 0"
        )
        return Verdict.fails(
            f"{where} is nonzero at an exact instance; certified: {counterexample}",
            Basis.CERTIFIED,
            counterexample,
            point=exact_point(instance.coordinates) or None,
        )
    return Verdict.inconclusive(
        f"{where} = {sp.sstr(entry)} at {instance.written}", Reason.UNDECIDED
    )
