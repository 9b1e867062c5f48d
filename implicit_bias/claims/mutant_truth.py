r"""Whether a mutant relation is still true: the *equivalent* mutants of :mod:`.mutate`.

A mutant that SymPy shows true on its own is no error a check could catch: a
mutated identity that is still an identity, a limit that still has the stated
value, a series whose changed coefficient lies beyond its remainder, an
inequality whose gap SymPy shows of the right sign, or one implied by the
inequality the claim states (its greater side grown, or its smaller side
shrunk, by an amount of the right sign for every value).

A sign is read from SymPy's assumptions on three forms of an expression, the
cheapest first: as the mutation left it, factored over a common denominator
(:func:`sympy.factor` of :func:`sympy.together`) under the constraint, and
simplified (:func:`sympy.simplify`) under it. Each is a proof for every value
the symbols' assumptions allow; the first keeps what expansion destroys --
:math:`-(a^2 + (b - c)^2)` is non-positive for real symbols as written, while
its expansion :math:`-a^2 - b^2 + 2bc - c^2` has no sign SymPy can read -- and
the later ones see cancellations the first misses. Each form has its own share
of the time budget, so a simplification that runs out of time (common on the
long sides of Appendix B's bounds) does not cost the cheap forms their say.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import sympy as sp

from implicit_bias.claims.checks import RelationCheck
from implicit_bias.claims.engine import CheckTimeout, time_limit
from implicit_bias.claims.loewner import LoewnerLe, LoewnerLt, semidefinite_by_form
from implicit_bias.claims.matrix_checks import involves_matrices, proof_of_zero

__all__ = ["renamed", "true_by_itself", "weakening"]

Constrain = Callable[[sp.Expr], sp.Expr]

#: The share of the time budget of each form but the last, which has what is left.
_CHEAP_FORM_SHARE = 0.25


def _forms(constrained: Constrain) -> tuple[Constrain, ...]:
    """The forms a sign is read on, cheapest first (see the module's text)."""
    return (
        lambda expression: expression,
        lambda expression: sp.factor(sp.together(constrained(expression))),
        lambda expression: sp.simplify(constrained(expression)),
    )


def _signed(value: sp.Basic, *, strict: bool) -> bool:
    return bool(value.is_positive if strict else value.is_nonnegative)


def _implied_in(mutant: sp.Basic, original: sp.Basic, form: Constrain) -> bool:
    """:func:`weakening` of a scalar inequality, with the signs of the changes
    read in one form."""
    return _signed(form(mutant.gts - original.gts), strict=False) and _signed(
        form(original.lts - mutant.lts), strict=False
    )


def _comparable(mutant: sp.Basic, original: sp.Basic) -> bool:
    """Whether ``original`` can imply ``mutant`` by a change of its sides: the
    same relation, and a strict mutant only of a strict original."""
    return type(mutant) is type(original) and not (
        isinstance(mutant, (sp.Lt, sp.Gt, LoewnerLt))
        and not isinstance(original, (sp.Lt, sp.Gt, LoewnerLt))
    )


def weakening(mutant: sp.Basic, original: sp.Basic, constrained: Constrain) -> bool:
    """Whether SymPy shows ``mutant`` implied by ``original``, an inequality
    (or a Loewner order) the claim's check shows: its greater side grown or its
    smaller side shrunk, by a difference of the right sign for every value.

    >>> a, b = sp.symbols("a b", positive=True)
    >>> stated = sp.Le(a, a + b, evaluate=False)  # as built: SymPy folds it to True
    >>> weakening(sp.Le(a, 2 * a + b, evaluate=False), stated, lambda e: e)
    True
    >>> weakening(sp.Le(a, b, evaluate=False), stated, lambda e: e)
    False
    """
    if not _comparable(mutant, original):
        return False
    if isinstance(mutant, LoewnerLe) and isinstance(original, LoewnerLe):
        return semidefinite_by_form(
            mutant.upper - original.upper
        ) and semidefinite_by_form(original.lower - mutant.lower)
    if isinstance(mutant, (sp.Le, sp.Lt, sp.Ge, sp.Gt)):
        return any(_implied_in(mutant, original, form) for form in _forms(constrained))
    return False


def _inequality_true(
    mutant: sp.Basic,
    original: sp.Basic | None,
    constrained: Constrain,
    budget_seconds: float,
) -> bool:
    """Whether an inequality ``mutant`` is shown true by itself or implied by
    ``original``, form by form (:func:`_forms`), each form within its share of
    ``budget_seconds`` (the last within what is left)."""
    implied = original is not None and _comparable(mutant, original)
    strict = isinstance(mutant, (sp.Lt, sp.Gt))
    forms = _forms(constrained)
    with time_limit(budget_seconds):
        for position, form in enumerate(forms):
            share = (
                budget_seconds * _CHEAP_FORM_SHARE
                if position < len(forms) - 1
                else budget_seconds
            )
            try:
                with time_limit(share):
                    if implied and _implied_in(mutant, original, form):
                        return True
                    if _signed(form(mutant.gts - mutant.lts), strict=strict):
                        return True
            # A form that runs out of its time or that SymPy gives up on
            # (factoring over an unsupported domain...) leaves the next its say.
            except Exception:
                continue
    return False


def true_by_itself(
    mutant: sp.Basic,
    substitutions: Mapping[sp.Expr, sp.Expr] | None,
    budget_seconds: float,
    original: sp.Basic | None = None,
) -> bool:
    """Whether SymPy shows the mutant relation true on its own, without the
    claim's check (so a check ignoring its relation is not excused), under
    the constraint the relation is stated with: an identity whose difference
    simplifies to 0, a limit SymPy evaluates to the stated value, a series
    whose remainder SymPy shows of the stated order, an inequality whose gap
    SymPy shows of the right sign -- or, given the ``original`` relation the
    claim's check shows, an inequality it implies (:func:`weakening`): a
    true statement too, which no sound check could refute.

    >>> u, v = sp.symbols("u v", real=True)
    >>> mutant = sp.Le(-(u**2) - (u - v) ** 2, v**2, evaluate=False)
    >>> true_by_itself(mutant, None, 5.0)
    True
    >>> true_by_itself(sp.Le(u**2 - (u - v) ** 2, v**2, evaluate=False), None, 5.0)
    False
    """

    def constrained(expression: sp.Expr) -> sp.Expr:
        expression = expression.doit()
        if substitutions:
            expression = sp.expand(expression).subs(substitutions)
        return expression

    try:
        if isinstance(mutant, (sp.Le, sp.Lt, sp.Ge, sp.Gt)):
            return _inequality_true(mutant, original, constrained, budget_seconds)
        with time_limit(budget_seconds):
            if original is not None and weakening(mutant, original, constrained):
                return True
            if isinstance(mutant, LoewnerLe):
                # Shown positive (semi)definite for every value: the check's
                # own symbolic proof (a Gram sum, an identity, a zero matrix).
                strict = isinstance(mutant, LoewnerLt)
                return semidefinite_by_form(mutant.upper - mutant.lower, strict=strict)
            if isinstance(mutant, sp.Eq) and involves_matrices(mutant):
                # A zero matrix is not == 0: SymPy's matrix rules decide it.
                return proof_of_zero(mutant.lhs - mutant.rhs) is not None
            if isinstance(mutant, sp.Eq) and isinstance(mutant.lhs, sp.Limit):
                value = mutant.lhs.doit()
                return bool(value == mutant.rhs or sp.simplify(value - mutant.rhs) == 0)
            remainder = mutant.rhs.getO() if isinstance(mutant, sp.Eq) else None
            if remainder is not None:
                # f = g + O(x**n) at 0 (check_series): f - g is O(x**n).
                variable = remainder.variables[0]
                order = sp.degree(remainder.expr, variable)
                difference = mutant.lhs - mutant.rhs.removeO()
                series = sp.series(difference, variable, 0, order).removeO()
                return bool(sp.simplify(series) == 0)
            if isinstance(mutant, sp.Eq):
                return bool(sp.simplify(constrained(mutant.lhs - mutant.rhs)) == 0)
    except CheckTimeout:
        return False
    except Exception:  # SymPy gives up on some mutants (NotImplementedError...)
        return False
    return False


def renamed(
    check: RelationCheck, stated: sp.Basic, first: sp.Symbol, second: sp.Symbol
) -> bool:
    """Whether swapping ``first`` and ``second`` in ``stated`` only renames
    its variables for ``check``: the check decides its relation for every
    value of each symbol in a domain (:attr:`RelationCheck.over_domains`),
    the same for both (no sampler for either, or the same one), and the
    constraint it is stated under commutes with the swap. The swapped
    relation is then the stated one read with other names: true exactly when
    it is, an equivalent mutant.

    >>> from implicit_bias.claims.checks import relation_check
    >>> u, v = sp.symbols("u v", positive=True)
    >>> stated = sp.Le(u, u + v**2, evaluate=False)
    >>> renamed(relation_check(lambda: stated), stated, u, v)
    True
    >>> renamed(relation_check(lambda: stated, substitutions={v: u}), stated, u, v)
    False
    """
    if not check.over_domains or not isinstance(stated, sp.core.relational.Relational):
        return False
    samplers = check.samplers or {}
    if samplers.get(first) is not samplers.get(second):
        return False
    swap = {first: second, second: first}
    if not check.substitutions:
        return True
    # Side by side: a relation with a side substituted may fold to True.
    sides = (stated.lhs, stated.rhs)
    constrained_then_swapped = [
        side.subs(check.substitutions).xreplace(swap) for side in sides
    ]
    swapped_then_constrained = [
        side.xreplace(swap).subs(check.substitutions) for side in sides
    ]
    return constrained_then_swapped == swapped_then_constrained
