"""The Loewner order: Gram proofs, exact decisions at rational instances
(singular differences included), and exact violating vectors."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp

from implicit_bias.claims.engine import Basis, Claim, Kind, Status, Verdict
from implicit_bias.claims.loewner import (
    LoewnerLe,
    LoewnerLt,
    _rational_matrix,
    _semidefinite,
    _violating_vector,
    check_loewner,
    semidefinite_by_form,
)
from implicit_bias.claims.matrix_checks import matrices_at
from implicit_bias.claims.mutate import mutation_outcomes
from implicit_bias.claims.recording import recorded_calls
from implicit_bias.claims.samplers import (
    gaussian_matrix,
    positive_definite_matrix,
    symmetric_matrix,
)
from implicit_bias.errors import InvalidArgumentError


def _at(expression: sp.Basic, point: dict[str, sp.Basic]) -> sp.Basic:
    """``expression`` with every MatrixSymbol replaced by the point's matrix
    of that name, evaluated explicitly."""
    replacements = {
        m: sp.ImmutableMatrix(point[str(m)]) for m in expression.atoms(sp.MatrixSymbol)
    }
    value = expression.xreplace(replacements).doit()
    if isinstance(value, sp.MatrixExpr) and not isinstance(value, sp.MatrixBase):
        value = value.as_explicit()
    return value


gram_factor = sp.MatrixSymbol("X", 4, 3)
s = sp.MatrixSymbol("S", 3, 3)
psd = sp.MatrixSymbol("P", 3, 3)


def test_a_gram_matrix_is_positive_semidefinite_by_proof() -> None:
    verdict = check_loewner(0, gram_factor.T * gram_factor)
    assert verdict.status == Status.HOLDS
    assert verdict.basis == Basis.PROOF
    holds = check_loewner(s, s + 2 * gram_factor.T * gram_factor)
    assert holds.status == Status.HOLDS
    assert holds.basis == Basis.PROOF


def test_a_gram_matrix_holds_at_exact_instances_too() -> None:
    # The same statement with the Gram structure hidden in a sampler.
    verdict = check_loewner(
        s, s + psd, samplers={s: symmetric_matrix(3), psd: positive_definite_matrix(3)}
    )
    assert verdict.status == Status.HOLDS
    assert verdict.basis == Basis.NUMERICAL
    assert "50 exact rational instances" in verdict.detail


def test_a_violated_order_fails_with_an_exact_vector() -> None:
    # A >= A + B fails for B positive definite; v^T B v > 0 for every v != 0.
    verdict = check_loewner(
        s + psd, s, samplers={s: symmetric_matrix(3), psd: positive_definite_matrix(3)}
    )
    assert verdict.status == Status.FAILS
    assert verdict.basis == Basis.PROOF
    assert verdict.point is not None
    point = matrices_at(verdict.point)
    v = point["v"]
    assert isinstance(v, sp.MatrixBase)
    assert v.shape == (3, 1)
    gap = (v.T * (_at(s, point) - _at(s + psd, point)) * v)[0, 0]
    assert gap < 0


def _rank_one(rng: np.random.Generator) -> sp.Matrix:
    u = gaussian_matrix((3, 1))(rng)
    return u * u.T


def test_a_singular_positive_semidefinite_difference_holds() -> None:
    verdict = check_loewner(
        s, s + psd, samplers={s: symmetric_matrix(3), psd: _rank_one}
    )
    assert verdict.status == Status.HOLDS, verdict.detail
    assert "rank 1" in verdict.detail
    # Positive definite it is not: a null vector refutes the strict order.
    strict = check_loewner(
        s, s + psd, strict=True, samplers={s: symmetric_matrix(3), psd: _rank_one}
    )
    assert strict.status == Status.FAILS
    assert strict.point is not None
    point = matrices_at(strict.point)
    v = point["v"]
    assert isinstance(v, sp.MatrixBase)
    assert v != sp.zeros(3, 1)
    assert (v.T * _at(psd, point) * v)[0, 0] == 0


@pytest.mark.parametrize(
    ("lower", "upper", "holds"),
    [
        (sp.zeros(3, 3), sp.diag(1, 0, 0), True),
        (sp.zeros(2, 2), sp.Matrix([[0, 1], [1, 0]]), False),
        (sp.zeros(3, 3), sp.Matrix([[1, 1, 0], [1, 1, 0], [0, 0, 0]]), True),
        (sp.zeros(3, 3), sp.Matrix([[1, 2, 0], [2, 1, 0], [0, 0, 3]]), False),
        (sp.eye(2), sp.diag(2, 0), False),
    ],
)
def test_constant_matrices_are_decided_exactly(
    lower: sp.Matrix, upper: sp.Matrix, holds: bool
) -> None:
    verdict = check_loewner(lower, upper)
    assert verdict.status == (Status.HOLDS if holds else Status.FAILS)
    assert verdict.basis == Basis.PROOF
    if not holds:
        assert verdict.point is not None
        v = matrices_at(verdict.point)["v"]
        assert isinstance(v, sp.MatrixBase)
        assert (v.T * (upper - lower) * v)[0, 0] < 0


def _textbook_semidefinite(matrix: sp.Matrix) -> bool:
    """Every principal minor >= 0 (Sylvester's criterion for semidefiniteness)."""
    size = matrix.rows
    return all(
        matrix.extract(list(rows), list(rows)).det() >= 0
        for k in range(1, size + 1)
        for rows in itertools.combinations(range(size), k)
    )


@pytest.mark.parametrize("seed", range(12))
def test_the_exact_decision_agrees_with_principal_minors(seed: int) -> None:
    # Low-rank differences of Gram matrices: semidefinite or not, often singular.
    rng = np.random.default_rng(seed)
    u = sp.Matrix(rng.integers(-2, 3, size=(3, 2)).tolist())
    w = sp.Matrix(rng.integers(-2, 3, size=(3, 1)).tolist())
    matrix = u * u.T - (w * w.T if seed % 2 else sp.zeros(3, 3))
    rational = _rational_matrix(matrix)
    assert rational is not None
    exact = _semidefinite(rational, strict=False)
    assert exact == _textbook_semidefinite(matrix)
    table = [[Fraction(int(e)) for e in row] for row in matrix.tolist()]
    vector = _violating_vector(table, strict=False)
    assert (vector is None) == exact
    if vector is not None:
        v = sp.Matrix([sp.Rational(c.numerator, c.denominator) for c in vector])
        assert (v.T * matrix * v)[0, 0] < 0


def test_an_operand_not_symmetric_at_an_instance_is_inconclusive() -> None:
    verdict = check_loewner(0, s)
    assert verdict.status == Status.INCONCLUSIVE
    assert "upper is not symmetric" in verdict.detail


@pytest.mark.parametrize(
    ("lower", "upper", "message"),
    [
        (sp.zeros(2, 2), sp.Matrix([[1, 2], [0, 1]]), "upper: the Loewner order"),
        (sp.zeros(2, 3), sp.zeros(2, 3), "square matrices, got 2 x 3"),
        (s, gram_factor, "lower 3 x 3 and upper 4 x 3"),
    ],
)
def test_bad_operands_are_refused(
    lower: sp.Basic, upper: sp.Basic, message: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        check_loewner(lower, upper)


def test_the_loewner_order_is_recorded_and_typeset() -> None:
    recorded = recorded_calls(lambda: check_loewner(0, gram_factor.T * gram_factor))
    formula = recorded.formula()
    assert isinstance(formula, LoewnerLe)
    assert r"\preceq" in sp.latex(formula)
    strict = recorded_calls(lambda: check_loewner(s, s, strict=True)).formula()
    assert isinstance(strict, LoewnerLt)
    assert r"\prec " in sp.latex(strict)


def _claim(check: Callable[[], Verdict]) -> Claim:
    return Claim(
        "test-source", "1", "m", Kind.INEQUALITY, "a statement", check, Status.HOLDS
    )


def test_a_loewner_order_is_mutated() -> None:
    # The term S or 2 P negated: refuted with a vector.
    order = _claim(
        lambda: check_loewner(
            s, s + 2 * psd, samplers={s: symmetric_matrix(3), psd: _rank_one}
        )
    )
    outcomes = {o.description: o for o in mutation_outcomes(order, limit=None)}
    killed = [d for d, o in outcomes.items() if o.killed]
    assert any("term S -> -S" in d for d in killed), outcomes
    assert any("term 2*P -> -2*P" in d for d in killed), outcomes


def test_a_diagonal_of_nonnegative_entries_is_semidefinite_by_its_form() -> None:
    a = sp.Symbol("a", positive=True)
    b = sp.Symbol("b", real=True)
    assert semidefinite_by_form(sp.diag(a, 0))
    assert not semidefinite_by_form(sp.diag(a, 0), strict=True)
    assert semidefinite_by_form(sp.diag(a, b**2 + 1), strict=True)
    assert not semidefinite_by_form(sp.diag(a, b))
    assert not semidefinite_by_form(sp.Matrix([[a, 1], [1, a]]))
