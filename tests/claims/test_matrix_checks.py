"""Matrix identities: exact proofs, exact instances, certified
counterexamples, and mutation that keeps shapes."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sympy as sp

from implicit_bias.claims.checks import check_identity, judge_relation
from implicit_bias.claims.engine import Basis, Claim, Kind, Reason, Status, Verdict
from implicit_bias.claims.matrix_checks import (
    check_matrix_identity,
    involves_matrices,
    matrices_at,
)
from implicit_bias.claims.mutate import mutation_outcomes
from implicit_bias.claims.recording import recorded_calls
from implicit_bias.claims.samplers import (
    gaussian_matrix,
)
from implicit_bias.errors import InvalidArgumentError

x = sp.Symbol("x", real=True)
y = sp.Symbol("y", real=True)
t = sp.Symbol("t", positive=True)


def _at(expression: sp.Basic, point: dict[str, sp.Basic]) -> sp.Basic:
    """``expression`` with every symbol and MatrixSymbol replaced by the
    point's value of that name, evaluated explicitly."""
    replacements: dict[sp.Basic, sp.Basic] = {}
    for atom in expression.atoms(sp.Symbol, sp.MatrixSymbol):
        if str(atom) in point:
            value = point[str(atom)]
            replacements[atom] = (
                sp.ImmutableMatrix(value) if isinstance(value, sp.MatrixBase) else value
            )
    value = expression.xreplace(replacements).doit()
    if isinstance(value, sp.MatrixExpr) and not isinstance(value, sp.MatrixBase):
        value = value.as_explicit()
    return value


# -- identities between explicit matrices -----------------------------------


def test_an_explicit_matrix_identity_with_symbols_is_proven() -> None:
    # Before: "inconclusive (unevaluated): cannot create mpf from matrix".
    m = sp.Matrix([[x, y], [0, x]])
    verdict = check_identity(m * m, sp.Matrix([[x**2, 2 * x * y], [0, x**2]]))
    assert verdict.status == Status.HOLDS
    assert verdict.basis == Basis.PROOF


def test_a_false_explicit_matrix_identity_fails_at_an_exact_point() -> None:
    m = sp.Matrix([[x, y], [0, x]])
    wrong = sp.Matrix([[x**2, x * y], [0, x**2]])
    # symbolic=False: the counterexample comes from an exact instance.
    verdict = check_identity(m * m, wrong, symbolic=False)
    assert verdict.status == Status.FAILS
    assert verdict.point is not None
    point = matrices_at(verdict.point)
    assert set(point) == {"x", "y"}
    assert _at(m * m - wrong, point) != sp.zeros(2, 2)


def test_a_matrix_identity_inside_judge_relation() -> None:
    m = sp.Matrix([[x, 1], [0, 1]])
    relation = sp.Eq(m.T * m, sp.Matrix([[x**2, x], [x, 2]]), evaluate=False)
    assert judge_relation(relation).status == Status.HOLDS


# -- identities between matrix expressions ----------------------------------

a23 = sp.MatrixSymbol("A", 2, 3)
b32 = sp.MatrixSymbol("B", 3, 2)
a = sp.MatrixSymbol("A", 3, 3)
b = sp.MatrixSymbol("B", 3, 3)
c = sp.MatrixSymbol("C", 2, 2)
d = sp.MatrixSymbol("D", 2, 2)


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        ((a23 * b32).T, b32.T * a23.T),
        (sp.Trace(a23 * b32), sp.Trace(b32 * a23)),
        ((a * b).T * (a * b), b.T * a.T * a * b),
        (
            sp.KroneckerProduct(c, d) * sp.KroneckerProduct(d, c),
            sp.KroneckerProduct(c * d, d * c),
        ),
        (2 * a + t * a, (2 + t) * a),
    ],
    ids=["transpose", "trace", "gram", "kronecker", "scalars"],
)
def test_true_matrix_expression_identities_hold_by_proof(
    lhs: sp.Basic, rhs: sp.Basic
) -> None:
    verdict = check_identity(lhs, rhs)
    assert verdict.status == Status.HOLDS, verdict.detail
    assert verdict.basis == Basis.PROOF


def test_an_inverse_identity_holds_at_exact_instances() -> None:
    # The push-through identity (I + AB)^-1 A = A (I + BA)^-1.
    identity = sp.Identity(3)
    lhs, rhs = (identity + a * b).inv() * a, a * (identity + b * a).inv()
    verdict = check_identity(lhs, rhs, symbolic=False, points=20)
    assert verdict.status == Status.HOLDS, verdict.detail
    assert verdict.basis == Basis.NUMERICAL
    assert "exact rational arithmetic at 20 random instances" in verdict.detail
    wrong = check_identity(lhs, (identity + b * a).inv() * a, symbolic=False)
    assert wrong.status == Status.FAILS


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        ((a * b).T, a.T * b.T),
        (a * b, b * a),
        (sp.Trace(a * b * a.T), sp.Trace(a * a.T * b.T * b)),
    ],
    ids=["transpose-order", "commute", "trace"],
)
def test_false_matrix_identities_fail_with_the_instance(
    lhs: sp.Basic, rhs: sp.Basic
) -> None:
    verdict = check_identity(lhs, rhs)
    assert verdict.status == Status.FAILS, verdict.detail
    assert verdict.basis == Basis.PROOF
    assert verdict.point is not None
    point = matrices_at(verdict.point)
    assert _at(lhs, point) != _at(rhs, point)


def test_a_singular_instance_is_undecided_not_refuted() -> None:
    # A sampler of singular matrices: C^-1 has no value at any instance.
    singular = sp.Matrix([[1, 2], [2, 4]])
    verdict = check_identity(
        c.inv() * d, d * c.inv(), symbolic=False, samplers={c: lambda rng: singular}
    )
    assert verdict.status == Status.INCONCLUSIVE
    assert verdict.reason == Reason.NON_FINITE


def _flow(widths: tuple[sp.Basic, ...]) -> tuple[list[sp.MatrixSymbol], sp.Basic]:
    """Three layers W1 W2 W3 (f = W1 W2 W3) and the loss gradient E = dL/df."""
    d0, d1, d2, d3 = widths
    w = [
        sp.MatrixSymbol("W1", d0, d1),
        sp.MatrixSymbol("W2", d1, d2),
        sp.MatrixSymbol("W3", d2, d3),
    ]
    return w, sp.MatrixSymbol("E", d0, d3)


@pytest.mark.parametrize(
    "widths",
    [(2, 3, 2, 4), sp.symbols("d0:4", integer=True, positive=True)],
    ids=["concrete", "symbolic"],
)
def test_the_invariance_of_d_l_under_gradient_flow(
    widths: tuple[sp.Basic, ...],
) -> None:
    # Gradient flow W_l' = -grad_l L on f = W1 W2 W3 keeps
    # D_1 = W1^T W1 - W2 W2^T: d/dt (W1^T W1) = d/dt (W2 W2^T).
    (w1, w2, w3), e = _flow(widths)
    w1_dot = -e * (w2 * w3).T
    w2_dot = -w1.T * e * w3.T
    verdict = check_identity(
        w1_dot.T * w1 + w1.T * w1_dot, w2_dot * w2.T + w2 * w2_dot.T
    )
    assert verdict.status == Status.HOLDS, verdict.detail
    # A sign error in one gradient breaks it.
    wrong = check_identity(
        w1_dot.T * w1 + w1.T * w1_dot, -w2_dot * w2.T + w2 * w2_dot.T
    )
    assert wrong.status == Status.FAILS, wrong.detail


def test_symbolic_dimensions_are_evaluated_at_concrete_sizes() -> None:
    n = sp.Symbol("n", integer=True, positive=True)
    p, q = sp.MatrixSymbol("P", n, n), sp.MatrixSymbol("Q", n, n)
    verdict = check_matrix_identity(
        (p + q) * (p + q), p * p + p * q + q * p + q * q, symbolic=False, points=8
    )
    assert verdict.status == Status.HOLDS
    assert "dimensions n at sizes from {1, 2, 3, 4}" in verdict.detail
    refuted = check_matrix_identity(p * q, q * p, symbolic=False, points=8)
    assert refuted.status == Status.FAILS
    assert refuted.point is not None
    assert int(refuted.point["n"]) >= 2


@pytest.mark.parametrize(
    ("lhs", "rhs", "message"),
    [
        (a23, b32, "lhs 2 x 3 and rhs 3 x 2"),
        (sp.Matrix([[x, y]]), sp.Matrix([x, y]), "lhs 1 x 2 and rhs 2 x 1"),
        (a, 1, "lhs 3 x 3 and rhs a scalar"),
    ],
)
def test_sides_of_different_shapes_are_refused(
    lhs: sp.Basic, rhs: sp.Basic, message: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        check_identity(lhs, rhs)


def test_a_sampler_of_the_wrong_shape_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match=r"samplers\[A\]"):
        check_identity(a * b, b * a, samplers={a: gaussian_matrix((2, 2))})


def test_involves_matrices() -> None:
    assert involves_matrices(sp.Matrix([[1]]))
    assert involves_matrices(sp.Trace(a) + x)
    assert not involves_matrices(x**2)
    assert not involves_matrices(3)


# -- recording and mutation --------------------------------------------------


def _claim(check: Callable[[], Verdict]) -> Claim:
    return Claim(
        "test-source", "1", "m", Kind.IDENTITY, "a statement", check, Status.HOLDS
    )


def test_a_matrix_identity_is_mutated_and_its_mutants_decided() -> None:
    # Before, a mutant 3 -> 3003/1000 of a shape broke the check (a crash, so
    # undecided); now only the coefficient is mutated, and each mutant refuted.
    identity = _claim(lambda: check_identity(2 * a * b.T, a * b.T + (b * a.T).T))
    outcomes = mutation_outcomes(identity, limit=None)
    assert len(outcomes) == 8
    assert all(o.killed for o in outcomes), outcomes


def test_a_matrix_identity_is_recorded_as_an_equation_of_matrices() -> None:
    recorded = recorded_calls(lambda: check_identity((a * b).T, b.T * a.T))
    formula = recorded.formula()
    assert isinstance(formula, sp.Eq)
    assert formula.lhs == (a * b).T
