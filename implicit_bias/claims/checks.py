"""Reusable checks: exact proof first, high-precision numerics as the fallback.

Symbolic checks try to decide a statement exactly (simplify a difference to
zero, compute a limit or a series). When SymPy cannot decide within its time
budget, :func:`check_identity` falls back to evaluating the residual with
mpmath at 50 digits at random points of the stated domain and says so in the
verdict: ``holds (numerically, 200 points, max residual ...)``.

The relation helpers (:func:`check_identity`, :func:`check_inequality`,
:func:`check_limit`, :func:`check_series`, :func:`check_integral`,
:func:`check_equal`, :func:`judge_relation`) take the relation they decide
as their arguments, so a claim written as a bare call,
``check=lambda: check_identity(lhs, rhs)``, states its relation once: while
:mod:`implicit_bias.claims.recording` records a check, each helper records
the relation it is handed instead of deciding it (the LaTeX ledger typesets
it), and while it replays one, the helper decides a mutant of that relation
(``implicit-bias mutate``). Otherwise they decide their arguments, and
nothing else changes.

The helpers live in modules by kind -- :mod:`~implicit_bias.claims.identities`
(identities, inequalities), :mod:`~implicit_bias.claims.comparisons`
(``check_close``, ``check_positive``),
:mod:`~implicit_bias.claims.computed_results` (values, limits, series,
integrals) -- and this module gathers them with
:func:`judge_relation`, which picks the check a relation's form calls for.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import sympy as sp

from implicit_bias.claims.comparisons import (
    check_close,
    check_positive,
    close_or_undecided,
)
from implicit_bias.claims.computed_results import (
    check_equal,
    check_integral,
    check_limit,
    check_series,
)
from implicit_bias.claims.engine import CheckTimeout, Reason, Verdict, time_limit
from implicit_bias.claims.identities import check_identity, check_inequality

# _budget is also read as checks._budget (matrix_checks, loewner).
from implicit_bias.claims.mutation_hooks import (
    BiasInjection,
    _budget,
    capped_budgets,
    injected_bias,
)
from implicit_bias.claims.numeric_fallback import DEFAULT_DPS, default_sampler
from implicit_bias.claims.recording import helper_call, recording_or_replaying
from implicit_bias.claims.samplers import Sampler, interval, log_uniform
from implicit_bias.errors import InvalidArgumentError

__all__ = [
    "DEFAULT_DPS",
    "BiasInjection",
    "RelationCheck",
    "Sampler",
    "capped_budgets",
    "check_close",
    "check_equal",
    "check_identity",
    "check_inequality",
    "check_integral",
    "check_limit",
    "check_positive",
    "check_series",
    "close_or_undecided",
    "default_sampler",
    "injected_bias",
    "interval",
    "judge_relation",
    "log_uniform",
    "relation_check",
]


#: The relations :func:`judge_relation` decides.
_JUDGED = (sp.Eq, sp.Le, sp.Lt, sp.Ge, sp.Gt)


def judge_relation(
    relation: sp.Basic,
    *,
    samplers: Mapping[sp.Symbol, Sampler] | None = None,
    substitutions: Mapping[sp.Expr, sp.Expr] | None = None,
    budget_seconds: float = 20.0,
    points: int = 200,
    symbolic: bool = True,
) -> Verdict:
    """Decide a SymPy relation with the check its form calls for.

    ``Eq(Limit(f, x, a, dir), L)``: :func:`check_limit`; ``Eq(a, b)``:
    :func:`check_identity` (``symbolic=False``: its numeric check only);
    ``a <= b``, ``a < b`` (and ``>=``, ``>``): :func:`check_inequality`.
    Unevaluated derivatives and integrals in the sides are evaluated
    (``doit``) first. Relations must be built with ``evaluate=False`` where
    SymPy would otherwise decide them on the spot.

    Raises:
      InvalidArgumentError: ``relation`` is not one of these forms.
    """
    if recording_or_replaying() and isinstance(relation, _JUDGED):
        again = functools.partial(
            judge_relation,
            samplers=samplers,
            substitutions=substitutions,
            budget_seconds=budget_seconds,
            points=points,
            symbolic=symbolic,
        )
        return helper_call(
            "judge_relation",
            lambda: relation,
            again,
            lambda: again(relation),
            substitutions=substitutions,
        )
    if isinstance(relation, sp.Eq):
        lhs, rhs = relation.lhs, relation.rhs
        if not isinstance(lhs, sp.Limit):
            # A relation may state a derivative or an integral unevaluated (as
            # the source writes it); the check compares what it evaluates to.
            try:
                with time_limit(_budget(budget_seconds)):
                    lhs, rhs = lhs.doit(), rhs.doit()
            except CheckTimeout:
                return Verdict.inconclusive(
                    f"evaluating the sides (doit) did not finish within "
                    f"{_budget(budget_seconds):g} s",
                    Reason.BUDGET,
                )
        if isinstance(lhs, sp.Limit) and not substitutions:
            expression, variable, point, direction = lhs.args
            return check_limit(
                expression,
                variable,
                point,
                rhs,
                direction=str(direction),
                budget_seconds=budget_seconds,
            )
        return check_identity(
            lhs,
            rhs,
            samplers=samplers,
            substitutions=substitutions,
            budget_seconds=budget_seconds,
            points=points,
            symbolic=symbolic,
        )
    if isinstance(relation, (sp.Le, sp.Lt, sp.Ge, sp.Gt)):
        smaller, larger = (
            (relation.lhs, relation.rhs)
            if isinstance(relation, (sp.Le, sp.Lt))
            else (relation.rhs, relation.lhs)
        )
        return check_inequality(
            smaller,
            larger,
            strict=isinstance(relation, (sp.Lt, sp.Gt)),
            samplers=samplers,
            substitutions=substitutions,
            budget_seconds=budget_seconds,
            points=points,
        )
    raise InvalidArgumentError(
        f"relation: an Eq, Le, Lt, Ge or Gt, got {type(relation).__name__}"
    )


@dataclass(frozen=True)
class RelationCheck:
    """A claim's check that takes the relation it checks as input.

    ``relation()`` builds the relation the claim states (its ``formula``, so
    the ledger typesets what is checked); ``judge(relation)`` decides it.
    Calling the check judges the claim's own relation; ``implicit-bias
    mutate`` judges altered copies of it with the same ``judge``.
    """

    relation: Callable[[], sp.Basic]
    judge: Callable[[sp.Basic], Verdict]
    #: The constraint the relation is stated under, as substitutions (e.g. a
    #: unit norm solved for one coordinate), if any.
    substitutions: Mapping[sp.Expr, sp.Expr] | None = None
    #: Whether ``judge`` decides a relation for every value of each free
    #: symbol in one domain (its sampler in :attr:`samplers`, else its
    #: assumptions), as :func:`judge_relation` does -- not at states or
    #: values of its own. A swap of two symbols with the same domain is then
    #: a renaming (:func:`~implicit_bias.claims.mutant_truth.renamed`).
    over_domains: bool = False
    #: The samplers of ``judge``, when :attr:`over_domains`.
    samplers: Mapping[sp.Symbol, Sampler] | None = None

    def __call__(self) -> Verdict:
        return self.judge(self.relation())


def relation_check(
    relation: Callable[[], sp.Basic],
    *,
    samplers: Mapping[sp.Symbol, Sampler] | None = None,
    substitutions: Mapping[sp.Expr, sp.Expr] | None = None,
    budget_seconds: float = 20.0,
    points: int = 200,
) -> RelationCheck:
    """A :class:`RelationCheck` deciding ``relation()`` with :func:`judge_relation`.

    Examples:
      >>> x = sp.Symbol("x", positive=True)
      >>> check = relation_check(lambda: sp.Eq(sp.log(x**2), 2 * sp.log(x)))
      >>> check().status, check().basis
      (<Status.HOLDS: 'holds'>, <Basis.PROOF: 'proof'>)
    """

    def judge(candidate: sp.Basic) -> Verdict:
        return judge_relation(
            candidate,
            samplers=samplers,
            substitutions=substitutions,
            budget_seconds=budget_seconds,
            points=points,
        )

    return RelationCheck(
        relation, judge, substitutions, over_domains=True, samplers=samplers
    )
