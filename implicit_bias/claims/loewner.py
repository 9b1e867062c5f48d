r"""The Loewner order between symmetric matrices, decided with certificates.

:math:`\mathrm{lower} \preceq \mathrm{upper}` when
:math:`\mathrm{upper} - \mathrm{lower}` is positive semidefinite.

:func:`check_loewner` first tries a proof (the difference a sum of Gram
matrices :math:`c\,X^\top M X`, :math:`c \ge 0`), else evaluates both
operands at exact rational instances, drawn as
:func:`~implicit_bias.claims.matrix_checks.check_matrix_identity` draws them.

Positive semidefiniteness of a symmetric rational matrix :math:`D` is decided
exactly by Descartes' rule: its eigenvalues are real, so they are all
:math:`\ge 0` exactly when the coefficients :math:`c_k` of its characteristic
polynomial :math:`\det(\lambda I - D) = \sum_k c_k \lambda^k` alternate in
sign, :math:`(-1)^{n-k} c_k \ge 0` (all :math:`> 0` for positive definite);
python-flint's ``fmpq_mat.charpoly`` computes them exactly. A singular
positive semidefinite difference (a rank-one limit, a balanced instance) is
thus decided, where a floating-point eigenvalue could not tell 0 from
:math:`-10^{-17}`. The witness of a violation, an exact vector :math:`v`
with :math:`v^\top (\mathrm{upper} - \mathrm{lower}) v < 0`, comes from an
exact symmetric elimination (:math:`LDL^\top` with diagonal pivots, which
handles singular matrices) and is checked again on its own; it is reported
in the verdict's ``point`` as the coordinates ``v[i]``
(:func:`~implicit_bias.claims.matrix_checks.matrices_at` reads it back).
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp
from flint import fmpq, fmpq_mat

from implicit_bias.claims import checks
from implicit_bias.claims.certify import exact_point
from implicit_bias.claims.engine import (
    Basis,
    CheckTimeout,
    Reason,
    Verdict,
    time_limit,
)
from implicit_bias.claims.matrix_checks import (
    AnySampler,
    _as_basic,
    _dimension_symbols,
    _evaluated,
    _explicit,
    _how_drawn,
    _Instance,
    _instances,
    _NO_VALUE,
    _shape,
    _sides,
    _written_shape,
)
from implicit_bias.claims.recording import helper_call, recording_or_replaying
from implicit_bias.errors import InvalidArgumentError

__all__ = ["LoewnerLe", "LoewnerLt", "check_loewner", "semidefinite_by_form"]


class LoewnerLe(sp.Basic):
    r"""The Loewner order :math:`\mathrm{lower} \preceq \mathrm{upper}`, as a relation.

    What :func:`check_loewner` records (the Loewner order): the ledger
    typesets it, and ``implicit-bias mutate`` alters its operands.

    SymPy's ``Le`` takes no matrices, so the relation is a ``Basic`` of its
    own; ``args`` are ``(lower, upper)``.
    """

    #: The symbol of the order in LaTeX.
    _latex_symbol = r"\preceq"

    def __new__(cls, lower: object, upper: object) -> LoewnerLe:
        return super().__new__(cls, _as_basic(lower), _as_basic(upper))

    @property
    def lower(self) -> sp.Basic:
        """The smaller side."""
        return self.args[0]

    @property
    def upper(self) -> sp.Basic:
        """The larger side."""
        return self.args[1]

    def _latex(self, printer: Any) -> str:
        return (
            f"{printer._print(self.lower)} {self._latex_symbol} "
            f"{printer._print(self.upper)}"
        )


class LoewnerLt(LoewnerLe):
    r"""The strict relation :math:`\mathrm{lower} \prec \mathrm{upper}`.

    :math:`\mathrm{upper} - \mathrm{lower}` positive definite.
    """

    _latex_symbol = r"\prec"


def _palindromic_gram(factors: Sequence[sp.Basic]) -> bool:
    r"""Whether the product of ``factors`` is :math:`X^\top M X` with the
    middle :math:`M` positive semidefinite (or absent)."""
    count = len(factors)
    for i in range(count // 2):
        if factors[count - 1 - i] != factors[i].T:
            return False
    return count % 2 == 0 or _semidefinite_form(factors[count // 2], strict=False)


def _semidefinite_form(term: sp.Basic, *, strict: bool) -> bool:
    """Whether SymPy's form of ``term`` shows it positive semidefinite
    (definite, with ``strict``) for every value of its symbols: a zero
    matrix, an identity, a Gram product with a nonnegative coefficient, a
    diagonal matrix of entries SymPy shows nonnegative, a constant rational
    matrix decided exactly, or a sum of these."""
    if isinstance(term, sp.ZeroMatrix):
        return not strict
    if isinstance(term, sp.Identity):
        return True
    if isinstance(term, sp.MatAdd):
        parts = term.args
        return all(_semidefinite_form(p, strict=False) for p in parts) and (
            not strict or any(_semidefinite_form(p, strict=True) for p in parts)
        )
    if isinstance(term, sp.MatMul):
        coefficient, factors = term.as_coeff_matrices()
        positive = coefficient.is_positive if strict else coefficient.is_nonnegative
        if not positive:
            return False
        if strict:
            return len(factors) == 1 and _semidefinite_form(factors[0], strict=True)
        return _palindromic_gram(factors)
    if isinstance(term, sp.MatrixBase) and term.free_symbols and term.is_diagonal():
        # A diagonal of entries SymPy shows nonnegative (positive) for every value.
        sign = "is_positive" if strict else "is_nonnegative"
        return term.is_square and all(
            getattr(sp.simplify(term[i, i]), sign) for i in range(term.rows)
        )
    if isinstance(term, sp.MatrixBase) and not term.free_symbols:
        rational = _rational_matrix(term)
        return (
            rational is not None
            and _symmetric(rational)
            and (_semidefinite(rational, strict=strict))
        )
    return False


def _rational_matrix(value: sp.Basic) -> fmpq_mat | None:
    """An explicit matrix of rationals as python-flint's; None otherwise."""
    if not isinstance(value, sp.MatrixBase):
        return None
    entries = [sp.sympify(e) for e in value]
    if not all(e.is_Rational for e in entries):
        return None
    return fmpq_mat(value.rows, value.cols, [fmpq(int(e.p), int(e.q)) for e in entries])


def _symmetric(matrix: fmpq_mat) -> bool:
    return bool(matrix == matrix.transpose())


def _semidefinite(matrix: fmpq_mat, *, strict: bool) -> bool:
    r"""Whether the symmetric rational ``matrix`` is positive semidefinite
    (definite, with ``strict``), exactly, by Descartes' rule on its
    characteristic polynomial :math:`\sum_k c_k \lambda^k`: its roots are
    real, and all :math:`\ge 0` exactly when :math:`(-1)^{n-k} c_k \ge 0`
    for every ``k`` (all :math:`> 0` exactly when each is :math:`> 0`)."""
    size = matrix.nrows()
    polynomial = matrix.charpoly()
    for k in range(size + 1):
        signed = polynomial[k] * (-1) ** (size - k)
        if signed < 0 or (strict and signed == 0):
            return False
    return True


def _violating_vector(
    matrix: Sequence[Sequence[Fraction]], *, strict: bool
) -> list[Fraction] | None:
    r"""An exact :math:`v \ne 0` with :math:`v^\top D v < 0` (:math:`\le 0`
    with ``strict``) for the symmetric :math:`D` = ``matrix``, or None if
    there is none.

    A symmetric elimination: a negative (zero, if strict) diagonal entry
    gives a unit vector; a zero diagonal entry :math:`d_{ii}` beside a
    nonzero :math:`d_{ij}` gives :math:`t e_i + e_j` with
    :math:`v^\top D v = 2 t d_{ij} + d_{jj} < 0`; else a positive pivot
    :math:`d_{kk}` is eliminated, and a vector :math:`w` for the Schur
    complement :math:`S = D' - d_k d_k^\top / d_{kk}` extends to :math:`v`
    with :math:`v_k = -d_k^\top w / d_{kk}` and :math:`v^\top D v =
    w^\top S w` (zero rows are dropped alike).
    """
    size = len(matrix)
    if size == 0:
        return None

    def unit(i: int) -> list[Fraction]:
        return [Fraction(int(k == i)) for k in range(size)]

    for i in range(size):
        if matrix[i][i] < 0 or (strict and matrix[i][i] == 0):
            return unit(i)
    for i in range(size):
        if matrix[i][i] != 0:
            continue
        for j in range(size):
            if matrix[i][j] != 0:
                t = -(abs(matrix[j][j]) + 1) / (2 * matrix[i][j])
                vector = unit(j)
                vector[i] = t
                return vector
    pivots = [k for k in range(size) if matrix[k][k] > 0]
    if not pivots:
        # Every row is zero: D = 0 is positive semidefinite.
        return None
    k = pivots[0]
    rest = [i for i in range(size) if i != k]
    schur = [
        [matrix[i][j] - matrix[i][k] * matrix[k][j] / matrix[k][k] for j in rest]
        for i in rest
    ]
    inner = _violating_vector(schur, strict=strict)
    if inner is None:
        return None
    vector = [Fraction(0)] * size
    for position, i in enumerate(rest):
        vector[i] = inner[position]
    vector[k] = -sum(matrix[k][i] * vector[i] for i in rest) / matrix[k][k]
    return vector


def _quadratic_form(
    matrix: Sequence[Sequence[Fraction]], vector: Sequence[Fraction]
) -> Fraction:
    size = len(vector)
    return sum(
        (
            vector[i] * matrix[i][j] * vector[j]
            for i in range(size)
            for j in range(size)
        ),
        Fraction(0),
    )


def _integer_vector(vector: Sequence[Fraction]) -> list[Fraction]:
    """``vector`` scaled to coprime integers (the same direction)."""
    scale = math.lcm(*(v.denominator for v in vector))
    integers = [int(v * scale) for v in vector]
    divisor = math.gcd(*integers) or 1
    return [Fraction(v // divisor) for v in integers]


def check_loewner(
    lower: object,
    upper: object,
    *,
    strict: bool = False,
    samplers: Mapping[Any, AnySampler] | None = None,
    substitutions: Mapping[sp.Expr, sp.Expr] | None = None,
    budget_seconds: float = 20.0,
    points: int = 50,
    seed: int = 0,
) -> Verdict:
    r"""Decide :math:`\mathrm{lower} \preceq \mathrm{upper}` (Loewner order).

    :math:`\prec` if ``strict``; between symmetric matrices.

    .. math:: \mathrm{lower} \preceq \mathrm{upper} \iff
        v^\top (\mathrm{upper} - \mathrm{lower})\, v \ge 0
        \quad \forall v \in \mathbb{R}^n

    First a proof: SymPy's form of :math:`\mathrm{upper} - \mathrm{lower}`
    (as given, expanded, or evaluated) is a sum of Gram matrices
    :math:`c\, X^\top M X` with :math:`c \ge 0` and :math:`M` an identity,
    itself such a sum, or a constant matrix decided exactly (strictly: plus
    a positive multiple of the identity). Else the operands are evaluated at
    ``points`` exact rational instances, drawn as in
    :func:`check_matrix_identity`, and each difference is decided exactly
    (see the module docstring: Descartes' rule on its characteristic
    polynomial). Singular differences are decided too.

    Args:
      lower, upper: square matrices of one shape, explicit or of
        ``MatrixSymbol``\ s; a literal 0 is the zero matrix. Each must be
        symmetric: give its ``MatrixSymbol``\ s symmetric samplers
        (``symmetric_matrix``, ``positive_definite_matrix``) where they
        must be.
      strict: decide :math:`\prec` (the difference positive definite).
      samplers, substitutions, budget_seconds, seed: as in
        :func:`check_matrix_identity`.
      points: exact random instances.

    Returns:
      ``holds`` on a proof (``Basis.PROOF``; one instance decides when the
      operands hold no symbols), or when the difference is positive
      semidefinite (definite) at every instance (``Basis.NUMERICAL``);
      ``fails`` with the instance and an exact vector :math:`v` (the
      coordinates ``v[i]`` of ``point``, see :func:`matrices_at`) with
      :math:`v^\top(\mathrm{upper} - \mathrm{lower})v < 0` (:math:`\le 0`
      if strict), computed exactly (``Basis.PROOF``); ``inconclusive``
      when an operand is not symmetric at an instance (its samplers draw
      non-symmetric matrices), has entries that are not rational there, or
      has no value there.

    Raises:
      InvalidArgumentError: the operands differ in shape, are not square,
        or one is a constant matrix that is not symmetric.

    Recorded by :mod:`~implicit_bias.claims.recording` as :class:`LoewnerLe`
    (:class:`LoewnerLt`), so the ledger typesets it and ``mutate`` alters
    its operands (the order itself is not swapped).

    Examples:
      >>> X = sp.MatrixSymbol("X", 3, 2)
      >>> check_loewner(0, X.T * X).detail[:60]
      'exact: upper - lower = X.T*X, positive semidefinite as a sum'
      >>> from implicit_bias.claims.matrix_checks import matrices_at
      >>> refuted = check_loewner(sp.eye(2), sp.diag(2, 0))
      >>> refuted.status, matrices_at(refuted.point)["v"].T
      (<Status.FAILS: 'fails'>, Matrix([[0, 1]]))
    """
    if recording_or_replaying():
        again = functools.partial(
            check_loewner,
            strict=strict,
            samplers=samplers,
            substitutions=substitutions,
            budget_seconds=budget_seconds,
            points=points,
            seed=seed,
        )
        order = LoewnerLt if strict else LoewnerLe
        return helper_call(
            "check_loewner",
            lambda: order(lower, upper),
            lambda stated: again(stated.lower, stated.upper),
            lambda: again(lower, upper),
            substitutions=substitutions,
        )
    small, large = _sides(lower, upper, ("lower", "upper"))
    shape = _shape(small)
    if shape is None or shape[0] != shape[1]:
        raise InvalidArgumentError(
            f"lower and upper: the Loewner order compares square matrices, got "
            f"{_written_shape(shape)}"
        )
    for name, operand in (("lower", small), ("upper", large)):
        fixed = (
            _rational_matrix(_explicit(operand)) if not operand.free_symbols else None
        )
        if fixed is not None and not _symmetric(fixed):
            raise InvalidArgumentError(
                f"{name}: the Loewner order compares symmetric matrices, got the "
                f"non-symmetric {sp.sstr(operand)}"
            )
    if substitutions:
        small, large = small.subs(substitutions), large.subs(substitutions)
    relation = "<" if strict else "<="
    definite = "definite" if strict else "semidefinite"
    difference = large - small
    with (
        contextlib.suppress(CheckTimeout),
        time_limit(checks._budget(budget_seconds)),
    ):
        for form in _forms(difference):
            if _semidefinite_form(form, strict=strict):
                return Verdict.holds(
                    f"exact: upper - lower = {sp.sstr(form)}, positive {definite} "
                    "as a sum of Gram matrices c X^T M X (c >= 0, M positive "
                    "semidefinite) and constant matrices decided exactly",
                    Basis.PROOF,
                )
    # Both operands, not their difference: a symbol that cancels in it (A in
    # A + B - A) still needs a value to evaluate each operand.
    operands = sp.Tuple(small, large)
    constant = not (operands.free_symbols or _dimension_symbols(operands))
    count = 1 if constant else points
    ranks: list[int] = []
    for instance in _instances(operands, samplers or {}, count, seed):
        verdict = _loewner_at(small, large, instance, strict, ranks)
        if verdict is not None:
            return verdict
    low, high = min(ranks), max(ranks)
    rank = f"rank {low}" if low == high else f"ranks {low} to {high}"
    if constant:
        return Verdict.holds(
            f"exact: upper - lower is constant, positive {definite} ({rank}; the "
            "coefficients of its characteristic polynomial alternate in sign)",
            Basis.PROOF,
        )
    return Verdict.holds(
        f"lower {relation} upper at {count} exact rational instances "
        f"({_how_drawn(operands)}): upper - lower is positive {definite} at "
        f"each, {rank} (exactly: the coefficients of its characteristic "
        "polynomial alternate in sign)",
        Basis.NUMERICAL,
    )


def semidefinite_by_form(difference: sp.Basic, *, strict: bool = False) -> bool:
    """Whether one of SymPy's forms of ``difference`` shows it positive
    semidefinite (definite, with ``strict``) for every value of its symbols:
    the symbolic proof :func:`check_loewner` tries first (a zero matrix, an
    identity, a Gram product with a nonnegative coefficient, a constant
    rational matrix decided exactly, or a sum of these)."""
    return any(_semidefinite_form(form, strict=strict) for form in _forms(difference))


def _forms(difference: sp.Basic) -> Iterator[sp.Basic]:
    """SymPy's forms of ``difference`` in which a Gram structure may show."""
    yield difference
    yield sp.expand(difference)
    evaluated = difference.doit()
    yield evaluated
    yield sp.expand(evaluated)


def _loewner_at(
    small: sp.Basic,
    large: sp.Basic,
    instance: _Instance,
    strict: bool,
    ranks: list[int],
) -> Verdict | None:
    """The verdict :func:`check_loewner` reaches at one instance, or None
    when the order holds there (its rank appended to ``ranks``)."""
    operands = []
    for name, operand in (("lower", small), ("upper", large)):
        try:
            value = _evaluated(operand, instance)
        except _NO_VALUE as error:
            return Verdict.inconclusive(
                f"{name} has no value at {instance.written} ({error})",
                Reason.NON_FINITE,
            )
        rational = _rational_matrix(value)
        if rational is None:
            return Verdict.inconclusive(
                f"{name} has entries that are not exact rationals at "
                f"{instance.written}: the order is decided exactly only there",
                Reason.UNDECIDED,
            )
        if not _symmetric(rational):
            return Verdict.inconclusive(
                f"{name} is not symmetric at {instance.written}: the Loewner order "
                "compares symmetric matrices (give its MatrixSymbols symmetric "
                "samplers)",
                Reason.UNDECIDED,
            )
        operands.append(rational)
    difference = operands[1] - operands[0]
    if _semidefinite(difference, strict=strict):
        ranks.append(difference.rank())
        return None
    table = [[Fraction(int(e.p), int(e.q)) for e in row] for row in difference.tolist()]
    vector = _violating_vector(table, strict=strict)
    if vector is None:
        return Verdict.inconclusive(
            f"the characteristic polynomial of upper - lower at {instance.written} "
            "does not alternate in sign, yet the elimination found no violating "
            "vector",
            Reason.UNDECIDED,
        )
    vector = _integer_vector(vector)
    form = _quadratic_form(table, vector)
    if form > 0 or (not strict and form == 0):
        return Verdict.inconclusive(
            f"the elimination's vector {vector} gives v^T (upper - lower) v = "
            f"{form} at {instance.written}: no violation",
            Reason.UNDECIDED,
        )
    name = "v"
    while any(str(s).partition("[")[0] == name for s in instance.coordinates):
        name += "_"
    coordinates = {
        **instance.coordinates,
        **{sp.Symbol(f"{name}[{i}]"): c for i, c in enumerate(vector)},
    }
    written = "(" + ", ".join(str(c) for c in vector) + ")"
    counterexample = (
        f"at {instance.written} (exactly), {name} = {written} gives "
        f"{name}^T (upper - lower) {name} = {form} {'<' if form < 0 else '='} 0 "
        "(exact rational arithmetic)"
    )
    return Verdict.fails(
        f"upper - lower is not positive {'definite' if strict else 'semidefinite'} "
        f"at an exact instance; certified: {counterexample}",
        Basis.PROOF,
        counterexample,
        point=exact_point(coordinates),
    )
