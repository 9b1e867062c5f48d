r"""Relations between undefined functions, refuted at concrete functions.

A relation may state something for *every* function: the objective of a
paper's problem at its solution, :math:`\omega(s) + \|\beta\|^2/s^2`, holds
for any penalty :math:`\omega`, written ``sp.Function("omega")``. SymPy can
often prove such an identity exactly; when it cannot, the numeric fallback
of :func:`~implicit_bias.claims.checks.check_identity` cannot evaluate
:math:`\omega(s)` at a point (``lambdify`` leaves ``omega`` as a name), and a
false relation used to stay ``inconclusive``.

A relation stated for every function holds for each concrete one. So one
concrete function at which it fails refutes it: :func:`refute_at_instances`
substitutes, in turn, the :func:`function_instances` -- a polynomial of
degree 3 with random nonzero rational coefficients, then the exponential of
a random polynomial of degree 1 (positive, and with no derivative vanishing
identically) -- and decides each instantiated relation with the numeric
check of the caller. A certified counterexample at an instance is a
``fails`` whose detail and counterexample name the function substituted.
No number of instances shows a relation for every function, so when none
refutes it the verdict is ``inconclusive`` (``Reason.UNDECIDED``), saying
which instances were tried.

The relation is read as holding for *every* function the SymPy class allows:
a function created with assumptions (``sp.Function("PR", positive=True)``)
is only replaced by instances that have them (the exponential for
``positive``), and one whose assumptions no instance here has (``integer``,
``negative``) is not replaced, so the relation stays undecided. Any other
hypothesis on a function (a value such as :math:`\omega(1) = 0`) is the
caller's to state, as a substitution applied before the instances.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import sympy as sp
from sympy.core.function import AppliedUndef, UndefinedFunction

from implicit_bias.claims.engine import Reason, Status, Verdict
from implicit_bias.errors import InvalidArgumentError

__all__ = [
    "FunctionInstance",
    "function_instances",
    "instantiated",
    "refute_at_instances",
    "undefined_functions",
]

#: Degree of the polynomial instance: above the derivative orders that
#: relations of the sources here involve (at most 2), so none vanishes.
POLYNOMIAL_DEGREE = 3
#: Degree of the polynomial in the exponent of the exponential instance:
#: 1 keeps its values representable at the sampled points.
EXPONENT_DEGREE = 1

#: Decides the two sides of an instantiated relation (the caller's check,
#: with its own options).
Decide = Callable[[sp.Expr, sp.Expr], Verdict]


@dataclass(frozen=True)
class FunctionInstance:
    """Concrete functions to substitute for undefined ones.

    ``functions`` maps each undefined function to a ``sympy.Lambda``;
    ``description`` writes them out, ``omega(x) = 3/2*x**3 - x + 1/4``.
    """

    functions: Mapping[UndefinedFunction, sp.Lambda]
    description: str


def undefined_functions(*expressions: object) -> tuple[UndefinedFunction, ...]:
    """The undefined functions applied in ``expressions``, sorted by name.

    Examples:
      >>> omega = sp.Function("omega")
      >>> undefined_functions(omega(sp.Symbol("s")) + 1, sp.Integer(2))
      (omega,)
    """
    found: set[UndefinedFunction] = set()
    for expression in expressions:
        if isinstance(expression, sp.Basic):
            found.update(applied.func for applied in expression.atoms(AppliedUndef))
    return tuple(sorted(found, key=str))


def _arities(expressions: Iterable[sp.Basic]) -> dict[UndefinedFunction, int]:
    """The number of arguments each undefined function is applied to.

    Raises:
      InvalidArgumentError: a function is applied to different numbers of
        arguments (no single instance serves it).
    """
    arities: dict[UndefinedFunction, int] = {}
    for expression in expressions:
        for applied in expression.atoms(AppliedUndef):
            arity = arities.setdefault(applied.func, len(applied.args))
            if arity != len(applied.args):
                raise InvalidArgumentError(
                    f"expressions: {applied.func} is applied to {arity} and to "
                    f"{len(applied.args)} arguments"
                )
    return arities


def _random_rational(rng: np.random.Generator) -> sp.Rational:
    """A nonzero rational of numerator and denominator at most 9 in size."""
    numerator = int(rng.integers(1, 10)) * (1 if rng.random() < 0.5 else -1)
    return sp.Rational(numerator, int(rng.integers(1, 10)))


def _random_polynomial(
    variables: Sequence[sp.Symbol], degree: int, rng: np.random.Generator
) -> sp.Expr:
    """Every monomial of total degree <= ``degree`` in ``variables``, each
    with a random nonzero rational coefficient."""
    terms = []
    for exponents in itertools.product(range(degree + 1), repeat=len(variables)):
        if sum(exponents) <= degree:
            monomial = sp.Mul(
                *(x**e for x, e in zip(variables, exponents, strict=True))
            )
            terms.append(_random_rational(rng) * monomial)
    return sp.Add(*terms)


def _has_assumptions(function: UndefinedFunction, body: sp.Expr) -> bool:
    """Whether ``body`` (at real arguments) provably has every assumption the
    function was created with."""
    stated: Mapping[str, bool] = getattr(function, "_kwargs", {}) or {}
    return all(getattr(body, f"is_{key}") is value for key, value in stated.items())


def _written(function: UndefinedFunction, lam: sp.Lambda) -> str:
    arguments = ", ".join(str(x) for x in lam.variables)
    return f"{function}({arguments}) = {sp.sstr(lam.expr)}"


def function_instances(
    functions: Mapping[UndefinedFunction, int], *, seed: int = 0
) -> tuple[FunctionInstance, ...]:
    r"""Concrete functions for undefined ones, of the given numbers of arguments.

    Two instances, drawn with ``numpy.random.default_rng(seed)``: every
    function a polynomial of degree :data:`POLYNOMIAL_DEGREE` with random
    nonzero rational coefficients (numerators and denominators up to 9),
    then every function :math:`\exp` of a polynomial of degree
    :data:`EXPONENT_DEGREE`. An instance is left out when one of its
    functions does not provably have the assumptions its undefined function
    was created with (``positive=True`` keeps the exponential only).

    Args:
      functions: each undefined function and its number of arguments.
      seed: seed of the coefficients.

    Returns:
      The instances, possibly none.

    Examples:
      >>> omega = sp.Function("omega")
      >>> [i.description for i in function_instances({omega: 1})]
      ['omega(x) = -5*x**3/6 - x**2/4 + 3*x + 4/3', 'omega(x) = exp(3*x/8 - 6/5)']
    """
    for function, arity in functions.items():
        if arity < 1:
            raise InvalidArgumentError(
                f"functions: {function} takes {arity} arguments; must be >= 1"
            )
    rng = np.random.default_rng(seed)
    instances = []
    for kind in ("polynomial", "exponential"):
        mapping: dict[UndefinedFunction, sp.Lambda] = {}
        for function, arity in functions.items():
            names = ["x"] if arity == 1 else [f"x{k + 1}" for k in range(arity)]
            variables = [sp.Symbol(name, real=True) for name in names]
            if kind == "polynomial":
                body = _random_polynomial(variables, POLYNOMIAL_DEGREE, rng)
            else:
                body = sp.exp(_random_polynomial(variables, EXPONENT_DEGREE, rng))
            mapping[function] = sp.Lambda(tuple(variables), body)
        if all(_has_assumptions(f, lam.expr) for f, lam in mapping.items()):
            description = "; ".join(_written(f, lam) for f, lam in mapping.items())
            instances.append(FunctionInstance(mapping, description))
    return tuple(instances)


def instantiated(expression: sp.Basic, instance: FunctionInstance) -> sp.Basic:
    """``expression`` with the instance's functions substituted, and the
    derivatives and substitutions (``Subs``) of them evaluated.

    Examples:
      >>> omega, x = sp.Function("omega"), sp.Symbol("x")
      >>> square = FunctionInstance({omega: sp.Lambda(x, x**2)}, "omega(x) = x**2")
      >>> instantiated(sp.Derivative(omega(x), x) + omega(2), square)
      2*x + 4
    """
    substituted = sp.sympify(expression).subs(dict(instance.functions))
    return substituted.replace(
        lambda e: isinstance(e, (sp.Derivative, sp.Subs)) and not e.has(AppliedUndef),
        lambda e: e.doit(),
    )


def refute_at_instances(
    lhs: sp.Basic,
    rhs: sp.Basic,
    decide: Decide,
    *,
    substitutions: Mapping[sp.Expr, sp.Expr] | None = None,
    seed: int = 0,
) -> Verdict | None:
    """Refute a relation stated for every function at concrete functions.

    The sides, with ``substitutions`` applied first (a hypothesis on a
    function, such as ``{omega(1): 0}``, holds before the function is
    replaced), are instantiated at each of :func:`function_instances` and
    decided by ``decide`` (the caller's numeric check, with its options).

    Returns:
      None when the sides hold no undefined function, or no instance has the
      functions' assumptions (the caller decides as before); else ``fails``
      at the first instance whose ``decide`` fails, its detail and
      counterexample naming the functions substituted, and its basis and
      point those of that decision; else ``inconclusive``
      (``Reason.UNDECIDED``): the instances tried and what each gave.

    Raises:
      InvalidArgumentError: a function is applied to different numbers of
        arguments.
    """
    sides = [sp.sympify(lhs), sp.sympify(rhs)]
    if substitutions:
        sides = [sp.expand(side).subs(substitutions) for side in sides]
    arities = _arities(sides)
    if not arities:
        return None
    instances = function_instances(arities, seed=seed)
    if not instances:
        return None
    outcomes = []
    for instance in instances:
        verdict = decide(*(instantiated(side, instance) for side in sides))
        if verdict.status == Status.FAILS:
            if verdict.basis is None:
                raise AssertionError("a fails names its basis")
            return Verdict.fails(
                f"with {instance.description} substituted (a relation for every "
                f"function must hold for this one): {verdict.detail}",
                verdict.basis,
                f"with {instance.description}, {verdict.counterexample}"
                if verdict.counterexample
                else f"with {instance.description}",
                point=verdict.point,
            )
        outcomes.append(
            f"with {instance.description}: {verdict.status} ({verdict.detail})"
        )
    return Verdict.inconclusive(
        "the relation holds for every function only if it holds for each, and "
        "no concrete function tried refutes it, which does not show it for all ("
        + "; ".join(outcomes)
        + ")",
        Reason.UNDECIDED,
    )
