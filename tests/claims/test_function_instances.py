"""Relations between undefined functions: refuted at concrete functions, and
never said to hold because concrete functions satisfy them."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.checks import check_identity, check_inequality
from implicit_bias.claims.engine import Basis, Claim, Kind, Reason, Status
from implicit_bias.claims.function_instances import (
    FunctionInstance,
    function_instances,
    instantiated,
    refute_at_instances,
    undefined_functions,
)
from implicit_bias.claims.mutate import Outcome, mutation_outcomes
from implicit_bias.errors import InvalidArgumentError

s = sp.Symbol("s", positive=True)
x = sp.Symbol("x", real=True)
omega = sp.Function("omega")
positive_function = sp.Function("PR", positive=True)
integer_function = sp.Function("n", integer=True)


# -- check_identity and check_inequality with an undefined function ---------


def test_a_true_identity_with_omega_still_holds_by_proof() -> None:
    verdict = check_identity(omega(s) + 2 / s**2 - 1 / s**2, omega(s) + 1 / s**2)
    assert verdict.status == Status.HOLDS
    assert verdict.basis == Basis.PROOF


def test_a_false_identity_with_omega_fails_at_a_stated_instance() -> None:
    # Before: inconclusive, "name 'omega' is not defined".
    verdict = check_identity(omega(s) + 1 / s**2, omega(s) + 1 / s)
    assert verdict.status == Status.FAILS, verdict
    assert verdict.basis == Basis.CERTIFIED
    assert "omega(x) = " in verdict.detail
    assert verdict.counterexample is not None
    assert verdict.counterexample.startswith("with omega(x) = ")
    assert verdict.point is not None
    assert set(verdict.point) == {"s"}


def test_a_dropped_omega_is_refuted() -> None:
    # The mutant of 8:objective that drops omega(s) from one side.
    verdict = check_identity(1 / s**2, omega(s) + 1 / s**2)
    assert verdict.status == Status.FAILS, verdict


def test_a_false_identity_between_derivatives_is_refuted() -> None:
    verdict = check_identity(sp.Derivative(omega(s), s), 2 * sp.Derivative(omega(s), s))
    assert verdict.status == Status.FAILS, verdict
    assert "omega(x) = " in verdict.detail


def test_a_true_identity_not_proven_is_not_said_to_hold_from_instances() -> None:
    # symbolic=False skips the proof; instances cannot show it for every omega.
    verdict = check_identity(
        omega(s) * s + omega(s), (s + 1) * omega(s), symbolic=False
    )
    assert verdict.status == Status.INCONCLUSIVE
    assert verdict.reason == Reason.UNDECIDED
    assert "omega(x) = " in verdict.detail


def test_a_hypothesis_on_omega_given_as_a_substitution_is_honoured() -> None:
    # omega(1) = 0 is replaced before omega is: no instance has to satisfy it.
    verdict = check_identity(
        omega(s) + 2 * omega(1), omega(s), substitutions={omega(1): 0}, symbolic=False
    )
    assert verdict.status == Status.INCONCLUSIVE
    assert verdict.reason == Reason.UNDECIDED


def test_a_false_inequality_with_omega_fails_at_a_stated_instance() -> None:
    # omega(s) <= omega(s) - 1: the gap -1 is certified, at a concrete omega.
    verdict = check_inequality(omega(s), omega(s) - 1)
    assert verdict.status == Status.FAILS, verdict
    assert verdict.basis == Basis.CERTIFIED
    assert "omega(x) = " in verdict.counterexample


def test_a_positive_function_is_replaced_only_by_positive_ones() -> None:
    # 0 < PR(x) holds for every positive PR; a polynomial would refute it.
    verdict = check_inequality(
        sp.Integer(0), positive_function(x) * (1 + x**2), strict=True
    )
    assert verdict.status != Status.FAILS, verdict


def test_a_function_no_instance_fits_keeps_the_old_verdict() -> None:
    verdict = check_identity(integer_function(x) + 1, integer_function(x))
    assert verdict.status == Status.INCONCLUSIVE
    assert verdict.reason == Reason.UNEVALUATED


# -- the module's functions --------------------------------------------------


def test_undefined_functions_are_found_in_derivatives_and_sorted() -> None:
    phi = sp.Function("phi")
    found = undefined_functions(sp.Derivative(phi(x**2), x), omega(s) + 1, 3)
    assert found == (omega, phi)


def test_instances_are_a_cubic_and_an_exponential() -> None:
    polynomial, exponential = function_instances({omega: 1}, seed=3)
    cubic = polynomial.functions[omega].expr
    (variable,) = polynomial.functions[omega].variables
    assert sp.degree(cubic, variable) == 3
    assert len(sp.Poly(cubic, variable).coeffs()) == 4
    assert isinstance(exponential.functions[omega].expr, sp.exp)
    assert polynomial.description.startswith("omega(x) = ")


def test_instances_of_two_arguments_are_polynomials_in_both() -> None:
    f = sp.Function("f")
    (polynomial, _) = function_instances({f: 2})
    x1, x2 = polynomial.functions[f].variables
    assert polynomial.functions[f].expr.has(x1 * x2)


def test_instances_honour_the_functions_assumptions() -> None:
    instances = function_instances({positive_function: 1})
    assert len(instances) == 1
    assert isinstance(instances[0].functions[positive_function].expr, sp.exp)
    assert function_instances({integer_function: 1}) == ()


def test_instantiated_evaluates_derivatives_and_subs() -> None:
    square = FunctionInstance({omega: sp.Lambda(x, x**2)}, "omega(x) = x**2")
    expression = sp.Subs(sp.Derivative(omega(x), x), x, 3) + omega(s)
    assert instantiated(expression, square) == 6 + s**2


def test_a_relation_without_functions_is_left_to_the_caller() -> None:
    assert refute_at_instances(s, s, check_identity) is None


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        (omega(s), omega(s, s)),
        (omega(s) + omega(1, 2), sp.Integer(0)),
    ],
)
def test_a_function_of_two_arities_is_refused(lhs: sp.Expr, rhs: sp.Expr) -> None:
    with pytest.raises(InvalidArgumentError, match="omega is applied to"):
        refute_at_instances(lhs, rhs, check_identity)


def test_a_function_of_no_arguments_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="must be >= 1"):
        function_instances({omega: 0})


# -- mutation -----------------------------------------------------------------


def test_the_mutants_of_a_relation_with_omega_are_killed() -> None:
    # Before: every mutant undecided ("name 'omega' is not defined").
    claim = Claim(
        "test-source",
        "1",
        "objective",
        Kind.IDENTITY,
        "a statement",
        lambda: check_identity(omega(s) + 4 / s**2, omega(s) + (2 / s) ** 2),
        Status.HOLDS,
    )
    outcomes = mutation_outcomes(claim, limit=None, claim_seconds=None)
    assert outcomes
    assert all(o.killed or o.outcome == Outcome.EQUIVALENT for o in outcomes), outcomes
