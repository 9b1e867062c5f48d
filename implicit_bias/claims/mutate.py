r"""Mutation testing of checks: can a claim's check tell a wrong formula apart?

A check that still says ``holds`` when the relation it checks is altered is
too weak to notice the error it exists to catch. For every claim whose check
takes its relation as input (a :class:`~implicit_bias.claims.checks.RelationCheck`),
:func:`symbolic_mutants` alters the relation one small step at a time

* a numeric constant :math:`c` becomes :math:`c(1 \pm 10^{-3})` or :math:`c \pm 1`;
* a term of a sum changes sign, or is dropped;
* an integer exponent :math:`k` becomes :math:`k \pm 1`;
* two free symbols with the same SymPy assumptions are swapped;

and the claim's own judge decides each mutant. A mutant is *killed* when its
verdict is not ``holds``, *equivalent* when SymPy shows the mutant true by
itself (without the claim's check: a mutated identity that is still an
identity, a limit that still diverges), and otherwise *survives*: an error
the check cannot see. Only claims expected to hold are mutated: the question
is whether their ``holds`` could have been anything else.

For numeric and simulation claims whose decision goes through
:func:`~implicit_bias.claims.checks.check_close`, :func:`injected_bias`
shifts the compared value by a multiple of the check's own tolerance; a check
that still holds under a shift of 5 tolerances cannot detect an error of
that size.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import sympy as sp

from implicit_bias.claims.checks import RelationCheck, capped_budgets, injected_bias
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.claims.engine import (
    CheckTimeout,
    Claim,
    Kind,
    Reason,
    Status,
    Verdict,
    WorkerDeath,
    run_in_workers,
    time_limit,
)

__all__ = [
    "BIAS_FACTORS",
    "ClaimMutations",
    "Mutant",
    "MutantOutcome",
    "Outcome",
    "bias_outcomes",
    "mutate_claims",
    "mutation_outcomes",
    "symbolic_mutants",
]

#: Shifts of a compared value, in units of the check's tolerance.
BIAS_FACTORS = (2.0, 5.0)

_NEAR = (sp.Rational(1001, 1000), sp.Rational(999, 1000))


@dataclass(frozen=True)
class Mutant:
    """A relation altered by one mutation, and the mutation in words."""

    description: str
    relation: sp.Basic


class Outcome:
    """What became of a mutant: the values of :attr:`MutantOutcome.outcome`."""

    KILLED = "killed"
    SURVIVED = "survived"
    #: The mutant is a true statement too (SymPy proves it without the
    #: claim's check): no sound check could kill it.
    EQUIVALENT = "equivalent"
    #: The judge was undecided on the mutant (a timeout, a non-finite value):
    #: it did not say ``holds``, so the mutant counts as killed, but the
    #: report shows it apart.
    UNDECIDED = "undecided"


@dataclass(frozen=True)
class MutantOutcome:
    """One mutant of one claim, judged by the claim's own check."""

    claim_id: str
    description: str
    outcome: str
    detail: str
    #: For a shifted comparison, the shift in tolerances.
    factor: float | None = None

    @property
    def killed(self) -> bool:
        """Whether the check refuted the mutant (an undecided one is not)."""
        return self.outcome == Outcome.KILLED


def _rebuilt(expression: sp.Basic, args: Sequence[sp.Basic]) -> sp.Basic:
    # A relation must stay a relation: evaluated, a mutant that SymPy can
    # decide on the spot would become a bare True or False.
    if isinstance(expression, sp.core.relational.Relational):
        return expression.func(*args, evaluate=False)
    return expression.func(*args)


def _node_mutants(node: sp.Basic) -> Iterator[tuple[str, sp.Basic]]:
    """The mutants of one node of an expression tree (not of its children)."""
    if node.is_Number and node not in (sp.S.Zero,) and node.is_finite:
        for factor in _NEAR:
            yield f"{node} -> {node} * {factor}", node * factor
        for shift in (1, -1):
            yield f"{node} -> {node} {'+' if shift > 0 else '-'} 1", node + shift
    if isinstance(node, sp.Add) and len(node.args) > 1:
        for index, term in enumerate(node.args):
            others = [*node.args[:index], *node.args[index + 1 :]]
            yield f"term {term} -> {-term}", sp.Add(*others, -term, evaluate=False)
            yield f"term {term} dropped", sp.Add(*others, evaluate=False)
    if isinstance(node, sp.Pow) and node.exp.is_Integer:
        for shift in (1, -1):
            exponent = node.exp + shift
            if exponent != 0:
                yield (
                    f"exponent of {node} -> {exponent}",
                    sp.Pow(node.base, exponent, evaluate=False),
                )


def _tree_mutants(expression: sp.Basic) -> Iterator[tuple[str, sp.Basic]]:
    """Every single-node mutant of ``expression``, by position in the tree."""
    yield from _node_mutants(expression)
    # Exponents are mutated as exponents, not as the constants they are.
    children = expression.args
    if isinstance(expression, sp.Pow):
        children = expression.args[:1]
    if isinstance(expression, (sp.Limit, sp.Derivative, sp.Integral)):
        children = expression.args[:1]
    relation = isinstance(expression, sp.core.relational.Relational)
    for index, child in enumerate(children):
        side = ("lhs: ", "rhs: ")[index] if relation else ""
        for description, mutated in _tree_mutants(child):
            args = list(expression.args)
            args[index] = mutated
            yield side + description, _rebuilt(expression, args)


def _swaps(relation: sp.Basic) -> Iterator[tuple[str, sp.Basic]]:
    symbols = sorted(relation.free_symbols, key=str)
    for first, second in itertools.combinations(symbols, 2):
        if first.assumptions0 == second.assumptions0:
            swapped = relation.xreplace({first: second, second: first})
            if not isinstance(swapped, sp.core.relational.Relational):
                continue
            yield f"{first} <-> {second}", swapped


def symbolic_mutants(relation: sp.Basic, limit: int | None = None) -> list[Mutant]:
    """The single-step mutants of ``relation`` (see the module docstring).

    Args:
      relation: a SymPy relation (``Eq``, ``Le``...), unevaluated.
      limit: keep at most this many, spread evenly over the list (the same
        ones every run).

    Examples:
      >>> x = sp.Symbol("x")
      >>> relation = sp.Eq(x**2 - 1, (x - 1) * (x + 1), evaluate=False)
      >>> [m.description for m in symbolic_mutants(relation)][:3]
      ['lhs: term -1 -> 1', 'lhs: term -1 dropped', 'lhs: term x**2 -> -x**2']
      >>> len(symbolic_mutants(relation, limit=5))
      5
    """
    if limit is not None and limit < 1:
        raise InvalidArgumentError(f"limit: must be >= 1 or None, got {limit!r}")
    mutants: list[Mutant] = []
    seen: set[sp.Basic] = {relation}
    for description, mutated in itertools.chain(
        _tree_mutants(relation), _swaps(relation)
    ):
        if mutated in seen:
            continue
        seen.add(mutated)
        mutants.append(Mutant(description, mutated))
    if limit is not None and len(mutants) > limit:
        step = len(mutants) / limit
        mutants = [mutants[int(i * step)] for i in range(limit)]
    return mutants


def _true_by_itself(
    mutant: sp.Basic,
    substitutions: Mapping[sp.Expr, sp.Expr] | None,
    budget_seconds: float,
) -> bool:
    """Whether SymPy shows the mutant relation true on its own, without the
    claim's check (so a check ignoring its relation is not excused), under
    the constraint the relation is stated with: an identity whose difference
    simplifies to 0, a limit SymPy evaluates to the stated value, an
    inequality whose gap SymPy shows of the right sign."""

    def constrained(expression: sp.Expr) -> sp.Expr:
        expression = expression.doit()
        if substitutions:
            expression = sp.expand(expression).subs(substitutions)
        return expression

    try:
        with time_limit(budget_seconds):
            if isinstance(mutant, sp.Eq) and isinstance(mutant.lhs, sp.Limit):
                value = mutant.lhs.doit()
                return bool(value == mutant.rhs or sp.simplify(value - mutant.rhs) == 0)
            if isinstance(mutant, sp.Eq):
                return bool(sp.simplify(constrained(mutant.lhs - mutant.rhs)) == 0)
            if isinstance(mutant, (sp.Le, sp.Lt, sp.Ge, sp.Gt)):
                gap = sp.simplify(constrained(mutant.gts - mutant.lts))
                strict = isinstance(mutant, (sp.Lt, sp.Gt))
                return bool(gap.is_positive if strict else gap.is_nonnegative)
    except CheckTimeout:
        return False
    except Exception:  # SymPy gives up on some mutants (NotImplementedError...)
        return False
    return False


def mutation_outcomes(
    claim: Claim, *, limit: int | None = 40, equivalence_seconds: float = 5.0
) -> list[MutantOutcome]:
    """Judge the mutants of ``claim``'s relation with ``claim``'s own check.

    Args:
      claim: a claim whose ``check`` is a
        :class:`~implicit_bias.claims.checks.RelationCheck`.
      limit: at most this many mutants (see :func:`symbolic_mutants`).
      equivalence_seconds: CPU time to show a surviving mutant true by itself.

    Returns:
      One :class:`MutantOutcome` per mutant; empty when the check does not
      take its relation as input or the claim is not expected to hold.
    """
    check = claim.check
    if not isinstance(check, RelationCheck) or claim.expected != Status.HOLDS:
        return []
    original = check.relation()
    outcomes = []
    for mutant in symbolic_mutants(original, limit):
        verdict = _judged(check.judge, mutant.relation)
        if verdict.status == Status.FAILS:
            outcome = Outcome.KILLED
        elif verdict.status == Status.INCONCLUSIVE:
            outcome = Outcome.UNDECIDED
        elif _true_by_itself(mutant.relation, check.substitutions, equivalence_seconds):
            outcome = Outcome.EQUIVALENT
        else:
            outcome = Outcome.SURVIVED
        outcomes.append(
            MutantOutcome(claim.id, mutant.description, outcome, verdict.detail)
        )
    return outcomes


def _judged(judge: Callable[[sp.Basic], Verdict], relation: sp.Basic) -> Verdict:
    try:
        return judge(relation)
    except CheckTimeout as error:
        return Verdict.inconclusive(f"timed out: {error}", Reason.BUDGET)
    except Exception as error:  # a mutant may break what the check assumes
        return Verdict.inconclusive(f"the judge raised {error!r}", Reason.CRASH)


def bias_outcomes(claim: Claim) -> list[MutantOutcome]:
    """Run ``claim``'s check with its compared value shifted by each of
    :data:`BIAS_FACTORS` times its tolerance, both ways.

    Only checks deciding through :func:`~implicit_bias.claims.checks.check_close`
    can be shifted; for others the check's verdict is unchanged and the
    outcome is reported as not instrumented (empty list).
    """
    if claim.expected != Status.HOLDS:
        return []
    outcomes = []
    for factor in BIAS_FACTORS:
        for sign in (1.0, -1.0):
            with injected_bias(sign * factor) as record:
                verdict = _checked(claim)
            if not record.comparisons:
                return []
            outcome = (
                Outcome.SURVIVED
                if verdict.status == Status.HOLDS
                else Outcome.UNDECIDED
                if verdict.status == Status.INCONCLUSIVE
                else Outcome.KILLED
            )
            outcomes.append(
                MutantOutcome(
                    claim.id,
                    f"compared value shifted by {sign * factor:+g} tolerances",
                    outcome,
                    verdict.detail,
                    sign * factor,
                )
            )
    return outcomes


def _checked(claim: Claim) -> Verdict:
    try:
        return claim.check()
    except CheckTimeout as error:
        return Verdict.inconclusive(f"timed out: {error}", Reason.BUDGET)
    except Exception as error:
        return Verdict.inconclusive(f"the check raised {error!r}", Reason.CRASH)


@dataclass(frozen=True)
class ClaimMutations:
    """The mutation outcomes of one claim.

    Attributes:
      claim_id, source, kind: the claim's.
      symbolic: outcomes of the mutants of its relation (empty when its check
        does not take its relation as input).
      bias: outcomes of the shifted comparisons (empty when its decision does
        not go through ``check_close`` or it was not run).
      note: why nothing was run, or how the worker ended, if it did not
        return.
    """

    claim_id: str
    source: str
    kind: str
    symbolic: tuple[MutantOutcome, ...]
    bias: tuple[MutantOutcome, ...]
    note: str = ""

    def as_record(self) -> dict[str, object]:
        """The JSON record of ``implicit-bias mutate --json``."""
        return {
            "id": self.claim_id,
            "source": self.source,
            "kind": self.kind,
            "note": self.note,
            "symbolic": [vars(o) for o in self.symbolic],
            "bias": [vars(o) for o in self.bias],
        }


#: CPU seconds each symbolic step of a check may take while judging mutants.
STEP_SECONDS = 3.0


def _mutations(claim: Claim, limit: int | None, with_bias: bool) -> ClaimMutations:
    try:
        with capped_budgets(STEP_SECONDS):
            symbolic = mutation_outcomes(claim, limit=limit)
    except Exception as error:
        return ClaimMutations(
            claim.id,
            claim.source,
            str(claim.kind),
            (),
            (),
            f"mutation raised {error!r}",
        )
    numeric = claim.kind in (Kind.NUMERIC, Kind.SIMULATION)
    bias = bias_outcomes(claim) if with_bias and numeric else []
    note = ""
    if claim.expected != Status.HOLDS:
        note = f"expected {claim.expected}: only claims that hold are mutated"
    elif not symbolic and not bias:
        note = (
            "not instrumented: the check neither takes its relation as input "
            "nor compares through check_close"
            if with_bias or not numeric
            else "slow: bias not injected (run with --slow)"
        )
    return ClaimMutations(
        claim.id, claim.source, str(claim.kind), tuple(symbolic), tuple(bias), note
    )


def mutate_claims(
    claims: Sequence[Claim],
    *,
    limit: int | None = 40,
    slow: bool = False,
    workers: int | None = None,
    on_done: Callable[[ClaimMutations, int, int], None] | None = None,
) -> list[ClaimMutations]:
    """Mutation-test ``claims`` in worker processes (see the module docstring).

    Args:
      claims: the claims.
      limit: at most this many symbolic mutants per claim.
      slow: also inject biases into slow claims (each runs its check four
        more times).
      workers: concurrent processes (default: the number of CPUs).
      on_done: called as ``on_done(mutations, done, total)`` as each ends.

    Returns:
      One :class:`ClaimMutations` per claim, in the order of ``claims``.

    Raises:
      InvalidArgumentError: ``limit`` is below 1.
    """
    if limit is not None and limit < 1:
        raise InvalidArgumentError(f"limit: must be >= 1 or None, got {limit!r}")
    reports: dict[int, ClaimMutations] = {}

    def done(index: int, value: object, seconds: float) -> None:
        claim = claims[index]
        if isinstance(value, WorkerDeath):
            value = ClaimMutations(
                claim.id, claim.source, str(claim.kind), (), (), value.detail
            )
        assert isinstance(value, ClaimMutations)
        reports[index] = value
        if on_done is not None:
            on_done(value, len(reports), len(claims))

    tasks = []
    for claim in claims:
        runs = (limit or 40) * STEP_SECONDS * 3 + 4 * claim.budget_seconds
        tasks.append(
            (
                functools.partial(_mutations, claim, limit, slow or not claim.slow),
                runs,
            )
        )
    run_in_workers(tasks, workers=workers, on_done=done)
    return [reports[i] for i in range(len(claims))]
