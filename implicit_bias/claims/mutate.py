r"""Mutation testing of checks: can a claim's check tell a wrong formula apart?

A check that still says ``holds`` when the relation it checks is altered is
too weak to notice the error it exists to catch. :func:`symbolic_mutants`
alters a relation one small step at a time

* a numeric constant :math:`c` becomes :math:`c(1 \pm 10^{-3})` or :math:`c \pm 1`;
* a term of a sum changes sign, or is dropped (never the :math:`O(x^n)` of a
  series);
* an integer exponent :math:`k` becomes :math:`k \pm 1`;
* two free symbols with the same SymPy assumptions are swapped;
* and, in a relation none of these alter (two bare symbols, ``s2 >= u_top``),
  a side :math:`a` becomes :math:`a(1 \pm 10^{-3})` or :math:`-a`;

and says which occurrence it changed: ``rhs: 2 -> 2 + 1, so 2*x becomes
3*x (at rhs.args[0].args[0])`` -- the side, the change, the smallest
enclosing subexpression that occurs once in the relation before and after
it, and the path of ``args`` to the changed node.

Each mutant is decided by the claim's own check, whichever way the claim is
written: a :class:`~implicit_bias.claims.checks.RelationCheck` (``relation_check``)
judges it with its ``judge``; any other check -- a bare
``lambda: check_identity(lhs, rhs)``, a conjunction of several helper calls
-- has its relation helper calls recorded, and is re-run with one call
deciding the mutant in place of its arguments
(:mod:`implicit_bias.claims.recording`; the first call handed each distinct
relation is mutated). A replayed check is first re-run unaltered, which must
hold along the recorded path; its cost sets how many mutants the replays can
afford. A mutant is *killed* when its verdict is ``fails``, *undecided* when
it is ``inconclusive`` (the check noticed, and refuted nothing; the report
counts it as killed, by inconclusive, and gives the share of kills that are
refutations), *not decided* when the check did not decide the mutant on the
recorded path (it took another path: its helper calls depend on an earlier
verdict; not in the kill rate), *equivalent* when SymPy shows the mutant
true by itself (without the claim's check: a mutated identity that is still
an identity, a limit that still diverges; an inequality implied by the
stated one, whose greater side grew or smaller side shrank:
:mod:`.mutant_truth`), and otherwise
*survives*: an error the check cannot see. Only claims expected to hold are
mutated: the question is whether their ``holds`` could have been anything
else.

For numeric and simulation claims whose decision goes through
:func:`~implicit_bias.claims.checks.check_close`, :func:`injected_bias`
shifts the compared value by a multiple of the check's own tolerance; a check
that still holds under a shift of 5 tolerances cannot detect an error of
that size. One-sided comparisons
(:func:`~implicit_bias.claims.checks.check_positive`,
:func:`~implicit_bias.claims.repeats.check_not_consistently_below`) are
moved toward refutation only.
"""

from __future__ import annotations

import collections
import functools
import itertools
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixElement

from implicit_bias.claims.checks import RelationCheck, capped_budgets, injected_bias
from implicit_bias.claims.mutant_truth import renamed, true_by_itself
from implicit_bias.claims.recording import (
    RecordedCalls,
    recorded_calls,
    replaced_call,
)
from implicit_bias.claims.worker_limits import memory_limit
from implicit_bias.claims.workers import MAX_BUDGET_SECONDS
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
    "CLAIM_SECONDS",
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
#: CPU seconds each symbolic step of a check may take while judging mutants.
STEP_SECONDS = 3.0
#: CPU seconds for judging one claim's mutants (its judge called, or its check
#: re-run, on each, and the equivalence tests of the survivors). Mutants are
#: judged in an order whose every prefix is spread over the relation, so a
#: claim that runs out is mutation-tested in part, evenly; the few claims
#: whose judging is that slow (exact limits at several exponents, checks of
#: seconds re-run) would otherwise take most of a run.
CLAIM_SECONDS = 30.0

_NEAR = (sp.Rational(1001, 1000), sp.Rational(999, 1000))

_T = TypeVar("_T")


@dataclass(frozen=True)
class Mutant:
    """A relation altered by one mutation, and the mutation in words (which
    occurrence changed, and how; see the module docstring)."""

    description: str
    relation: sp.Basic
    #: The two symbols a swap exchanged (None for other mutations).
    swapped: tuple[sp.Symbol, sp.Symbol] | None = None


class Outcome:
    """What became of a mutant: the values of :attr:`MutantOutcome.outcome`."""

    KILLED = "killed"
    SURVIVED = "survived"
    #: The mutant is a true statement too (SymPy proves it without the
    #: claim's check): no sound check could kill it.
    EQUIVALENT = "equivalent"
    #: The judge was undecided on the mutant (a timeout, a non-finite value):
    #: it did not say ``holds``, yet refuted nothing; the report counts it as
    #: killed by ``inconclusive``, apart from the refutations.
    UNDECIDED = "undecided"
    #: A replayed check did not decide the mutant on its recorded path (it
    #: did not reach the call, or took another path and held): its verdict
    #: is not about the mutant; not in the kill rate.
    NOT_DECIDED = "not decided"


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


def _node_mutants(node: sp.Basic) -> Iterator[tuple[str, sp.Basic]]:
    """The mutants of one node of an expression tree (not of its children):
    the mutation in words, and what the node becomes."""
    if node.is_Number and node not in (sp.S.Zero,) and node.is_finite:
        for factor in _NEAR:
            yield f"{node} -> {node} * {factor}", node * factor
        for shift in (1, -1):
            yield f"{node} -> {node} {'+' if shift > 0 else '-'} 1", node + shift
    if isinstance(node, sp.Add) and len(node.args) > 1:
        for index, term in enumerate(node.args):
            if term.is_Order:
                # A series' remainder: without it the relation is another kind
                # of statement (an exact equality), and negated it is the same.
                continue
            others = [*node.args[:index], *node.args[index + 1 :]]
            yield f"term {term} -> {-term}", sp.Add(*others, -term, evaluate=False)
            yield f"term {term} dropped", sp.Add(*others, evaluate=False)
    if isinstance(node, (sp.Pow, sp.MatPow)) and node.exp.is_Integer:
        for shift in (1, -1):
            exponent = node.exp + shift
            if exponent != 0:
                yield (
                    f"exponent of {node} -> {exponent}",
                    node.func(node.base, exponent, evaluate=False),
                )


_Path = tuple[int, ...]


def _tree_mutants(
    expression: sp.Basic, path: _Path = ()
) -> Iterator[tuple[_Path, str, sp.Basic]]:
    """Every single-node mutant of ``expression``: the path of ``args``
    indices to the node, the mutation, and what the node becomes."""
    for description, mutated in _node_mutants(expression):
        yield path, description, mutated
    # Exponents are mutated as exponents, not as the constants they are; a
    # limit, derivative or integral only in its argument (not its variable or
    # bounds); a series' remainder O(x**n) not at all. A shape is no constant:
    # a matrix symbol (name, rows, columns), an identity or zero matrix is not
    # mutated, an explicit matrix only in its entries, an entry A[i, j] only
    # in its matrix.
    children = list(enumerate(expression.args))
    if isinstance(
        expression,
        (sp.Pow, sp.MatPow, sp.Limit, sp.Derivative, sp.Integral, MatrixElement),
    ):
        children = children[:1]
    if isinstance(expression, sp.MatrixBase):
        children = [(i, a) for i, a in children if isinstance(a, sp.Tuple)]
    if isinstance(
        expression,
        (sp.Order, sp.MatrixSymbol, sp.Identity, sp.ZeroMatrix, sp.OneMatrix),
    ):
        children = []
    for index, child in children:
        yield from _tree_mutants(child, (*path, index))


def _rebuilt(expression: sp.Basic, args: Sequence[sp.Basic]) -> sp.Basic:
    # A relation must stay a relation: evaluated, a mutant that SymPy can
    # decide on the spot would become a bare True or False.
    if isinstance(expression, sp.core.relational.Relational):
        return expression.func(*args, evaluate=False)
    return expression.func(*args)


def _subexpression(expression: sp.Basic, path: _Path) -> sp.Basic:
    for index in path:
        expression = expression.args[index]
    return expression


def _replaced(expression: sp.Basic, path: _Path, node: sp.Basic) -> sp.Basic:
    """``expression`` with its node at ``path`` replaced by ``node``."""
    if not path:
        return node
    args = list(expression.args)
    args[path[0]] = _replaced(args[path[0]], path[1:], node)
    return _rebuilt(expression, args)


#: An enclosing subexpression longer than this is not quoted in a mutant's
#: description (its path says where the mutation is).
_LONGEST_CONTEXT = 80


def _described(
    relation: sp.Basic,
    path: _Path,
    mutation: str,
    node: sp.Basic,
    counts: Mapping[sp.Basic, int],
) -> str:
    """A mutation in words, with the occurrence it changed: its side, the
    smallest enclosing subexpression occurring once in ``relation`` (before
    and after), and its path of ``args``."""
    relational = isinstance(relation, sp.core.relational.Relational)
    side = ("lhs", "rhs")[path[0]] if relational and path else ""
    position = (side or "relation") + "".join(
        f".args[{i}]" for i in path[1 if side else 0 :]
    )
    original = _subexpression(relation, path)
    # A constant is told apart by what it multiplies or adds to; a sum or a
    # power by itself, if it occurs once.
    nearest = len(path) - 1 if original.is_Number else len(path)
    nearest = max(nearest, 1 if side else 0)
    depth = nearest
    top = 1 if side else 0
    while depth > top and counts[_subexpression(relation, path[:depth])] > 1:
        depth -= 1
    if _longer_than(_subexpression(relation, path[:depth]), _LONGEST_CONTEXT):
        depth = nearest
    before = _subexpression(relation, path[:depth])
    words = f"{side}: {mutation}" if side else mutation
    shown = depth < len(path) or isinstance(original, sp.Add)
    if shown and not _longer_than(before, _LONGEST_CONTEXT):
        after = _replaced(before, path[depth:], node)
        words += f", so {before} becomes {after}"
    return f"{words} (at {position})"


def _longer_than(expression: sp.Basic, length: int) -> bool:
    """Whether ``expression`` prints to more than ``length`` characters.

    An expression of more than ``2 length`` leaves is long without printing
    it (each leaf prints at least half a character: ``1/x`` hides the -1 of
    ``x**-1``); printing one of the Appendix B chains' sides took seconds,
    once for each of its thousands of mutants.
    """
    leaves = 0
    for node in sp.preorder_traversal(expression):
        if not node.args:
            leaves += 1
            if leaves > 2 * length:
                return True
    return len(str(expression)) > length


def _swaps(
    relation: sp.Basic,
) -> Iterator[tuple[str, sp.Basic, tuple[sp.Symbol, sp.Symbol]]]:
    symbols = sorted(relation.free_symbols, key=str)
    for first, second in itertools.combinations(symbols, 2):
        # Matrix symbols of different shapes are not swapped: a shape is no
        # symbol to mutate (and SymPy refuses the product it would make).
        same_shape = getattr(first, "shape", None) == getattr(second, "shape", None)
        if first.assumptions0 == second.assumptions0 and same_shape:
            swapped = relation.xreplace({first: second, second: first})
            if not isinstance(swapped, sp.core.relational.Relational):
                continue
            yield f"{first} <-> {second}", swapped, (first, second)


def _spread(items: Sequence[_T], limit: int | None) -> list[_T]:
    """At most ``limit`` of ``items``, spread evenly (the same ones every run)."""
    if limit is None or len(items) <= limit:
        return list(items)
    step = len(items) / limit
    return [items[int(i * step)] for i in range(limit)]


def _prefix_spread_order(count: int) -> list[int]:
    """The indices ``0 .. count - 1`` in van der Corput order (0, count/2,
    count/4, 3 count/4, ...): each prefix of :math:`2^j` of them has one index
    in each :math:`1/2^j` of the range."""
    if count == 0:
        return []
    bits = max(1, (count - 1).bit_length())
    order: list[int] = []
    seen: set[int] = set()
    for k in range(1 << bits):
        # k's bits reversed, as a fraction of 1: 0, 1/2, 1/4, 3/4, 1/8, ...
        fraction = int(f"{k:0{bits}b}"[::-1], 2) / (1 << bits)
        index = int(fraction * count)
        # 2^bits >= count fractions 1/2^bits apart reach every index.
        if index not in seen:
            seen.add(index)
            order.append(index)
    return order


def symbolic_mutants(relation: sp.Basic, limit: int | None = None) -> list[Mutant]:
    """The single-step mutants of ``relation`` (see the module docstring).

    Args:
      relation: a SymPy relation (``Eq``, ``Le``...), unevaluated.
      limit: keep at most this many, spread evenly over the list (the same
        ones every run).

    Examples:
      >>> x = sp.Symbol("x")
      >>> relation = sp.Eq(2 * x + 2, 2 * (x + 1), evaluate=False)
      >>> for mutant in symbolic_mutants(relation)[:8:2]:
      ...     print(mutant.description)
      lhs: term 2 -> -2, so 2*x + 2 becomes 2*x - 2 (at lhs)
      lhs: term 2*x -> -2*x, so 2*x + 2 becomes 2 - 2*x (at lhs)
      lhs: 2 -> 2 * 1001/1000, so 2*x + 2 becomes 2*x + 1001/500 (at lhs.args[0])
      lhs: 2 -> 2 + 1, so 2*x + 2 becomes 2*x + 3 (at lhs.args[0])
      >>> print(symbolic_mutants(relation)[10].description)
      lhs: 2 -> 2 + 1, so 2*x + 2 becomes 3*x + 2 (at lhs.args[1].args[0])
      >>> len(symbolic_mutants(relation, limit=5))
      5
    """
    if limit is not None and limit < 1:
        raise InvalidArgumentError(f"limit: must be >= 1 or None, got {limit!r}")
    counts = collections.Counter(sp.preorder_traversal(relation))
    # Described once chosen: a long relation has thousands of mutants.
    found: list[Mutant | tuple[_Path, str, sp.Basic, sp.Basic]] = []
    seen: set[sp.Basic] = {relation}
    for path, mutation, node in _tree_mutants(relation):
        mutated = _replaced(relation, path, node)
        if mutated in seen:
            continue
        seen.add(mutated)
        found.append((path, mutation, node, mutated))
    for description, mutated, pair in _swaps(relation):
        if mutated not in seen:
            seen.add(mutated)
            found.append(Mutant(description, mutated, pair))
    if not found:
        found = [m for m in _side_mutants(relation) if m.relation not in seen]
    return [
        item
        if isinstance(item, Mutant)
        else Mutant(_described(relation, *item[:3], counts), item[3])
        for item in _spread(found, limit)
    ]


def _side_mutants(relation: sp.Basic) -> Iterator[Mutant]:
    r"""A side scaled by :math:`1 \pm 10^{-3}` or negated: the mutants of a
    relation with no constant, sum, exponent or swappable pair to alter.

    Examples:
      >>> a, b = sp.symbols("a b", positive=True)
      >>> for mutant in list(_side_mutants(sp.Ge(a, b)))[:3]:
      ...     print(mutant.description, "|", mutant.relation)
      lhs: a -> a * 1001/1000 (at lhs) | a*(1001/1000) >= b
      lhs: a -> a * 999/1000 (at lhs) | a*(999/1000) >= b
      lhs: a -> -a (at lhs) | -a >= b

    Against a zero side, scaling a side leaves the relation as it was, and so
    does negating one of an equation: only an inequality's negation is kept.

      >>> x = sp.Symbol("x", real=True)
      >>> [m.relation for m in _side_mutants(sp.Ge(x, 0))]
      [-x >= 0]
      >>> list(_side_mutants(sp.Eq(x, 0)))
      []
    """
    if not isinstance(relation, sp.core.relational.Relational):
        return
    for index, side in enumerate(relation.args):
        if side.is_Number or side.is_Matrix:
            continue
        name = ("lhs", "rhs")[index]
        against_zero = relation.args[1 - index].is_zero is True
        if against_zero and isinstance(relation, (sp.Eq, sp.Ne)):
            continue
        for factor in () if against_zero else _NEAR:
            yield Mutant(
                f"{name}: {side} -> {side} * {factor} (at {name})",
                _replaced(relation, (index,), sp.Mul(side, factor, evaluate=False)),
            )
        yield Mutant(
            f"{name}: {side} -> {-side} (at {name})",
            _replaced(relation, (index,), sp.Mul(-1, side, evaluate=False)),
        )


def mutation_outcomes(
    claim: Claim,
    *,
    limit: int | None = 40,
    equivalence_seconds: float = 5.0,
    claim_seconds: float | None = CLAIM_SECONDS,
) -> list[MutantOutcome]:
    """Judge the mutants of ``claim``'s relation with ``claim``'s own check.

    Args:
      claim: a claim expected to hold, its check a
        :class:`~implicit_bias.claims.checks.RelationCheck` or any check that
        decides through the relation helpers (see the module docstring).
      limit: at most this many mutants (see :func:`symbolic_mutants`).
      equivalence_seconds: CPU time to show a surviving mutant true by itself.
      claim_seconds: CPU time for judging all the mutants (the judge's calls
        or the check's re-runs, and the equivalence tests); the mutants are
        judged in an order whose every prefix is spread over the relation,
        and those left when it is spent are not judged (see
        :data:`CLAIM_SECONDS`). None: no limit.

    Returns:
      One :class:`MutantOutcome` per judged mutant, in the order of
      :func:`symbolic_mutants`; empty when the claim is not expected to hold
      or its check decides no relation through a helper.

    Raises:
      InvalidArgumentError: ``claim_seconds`` is not > 0 or None.
    """
    if claim_seconds is not None and not claim_seconds > 0:
        raise InvalidArgumentError(
            f"claim_seconds: must be > 0 or None, got {claim_seconds!r}"
        )
    return _symbolic_outcomes(claim, limit, equivalence_seconds, claim_seconds)[0]


class _Judged(NamedTuple):
    """The outcomes of a claim's mutants, why some or all were not judged ("" if
    nothing is to be said), and how many the CPU budget left unjudged."""

    outcomes: list[MutantOutcome]
    note: str
    unjudged: int = 0


def _symbolic_outcomes(
    claim: Claim,
    limit: int | None,
    equivalence_seconds: float,
    claim_seconds: float | None,
) -> _Judged:
    """:func:`mutation_outcomes`, with why and how many were not judged."""
    check = claim.check
    if claim.expected != Status.HOLDS:
        return _Judged([], "")
    if not isinstance(check, RelationCheck):
        # The recording runs the check's own computations: under its memory
        # budget, as every run of the check here (an overrun stops it).
        with memory_limit(claim.budget_bytes):
            recorded = recorded_calls(check)
        if recorded.stopped and recorded.calls:
            return _Judged(
                [],
                f"the recording of its helper calls stopped ({recorded.stopped}): "
                "a replay cannot follow its check",
            )
        if not recorded.calls:
            return _Judged([], recorded.why_no_formula())
        return _replayed_outcomes(
            claim, recorded, limit, equivalence_seconds, claim_seconds
        )
    judge, substitutions = check.judge, check.substitutions

    def judged(mutant: Mutant) -> MutantOutcome:
        if mutant.swapped is not None and renamed(check, stated, *mutant.swapped):
            return MutantOutcome(
                claim.id,
                mutant.description,
                Outcome.EQUIVALENT,
                "a renaming of the stated relation's variables: its check decides "
                "it for every value of both in the same domain",
            )
        verdict = _judged(judge, mutant.relation, claim.budget_bytes)
        outcome = _outcome(
            verdict, mutant.relation, substitutions, equivalence_seconds, stated
        )
        return MutantOutcome(claim.id, mutant.description, outcome, verdict.detail)

    stated = check.relation()
    mutants = symbolic_mutants(stated, limit)
    return _within_budget(
        [functools.partial(judged, mutant) for mutant in mutants], claim_seconds
    )


def _within_budget(
    judgements: Sequence[Callable[[], MutantOutcome]],
    claim_seconds: float | None,
) -> _Judged:
    """Run ``judgements`` in :func:`_prefix_spread_order` until they have
    used ``claim_seconds`` of CPU; their outcomes in their own order, and a
    note if some were not run."""
    outcomes: dict[int, MutantOutcome] = {}
    started = time.process_time()
    run = 0
    for index in _prefix_spread_order(len(judgements)):
        if claim_seconds is not None and time.process_time() - started > claim_seconds:
            break
        run += 1
        outcomes[index] = judgements[index]()
    note = (
        f"mutation-tested in part: {run} of {len(judgements)} mutants, spread "
        f"over its relations, before their judging used its {claim_seconds:g} s"
        if run < len(judgements)
        else ""
    )
    return _Judged([outcomes[i] for i in sorted(outcomes)], note, len(judgements) - run)


def _outcome(
    verdict: Verdict,
    relation: sp.Basic,
    substitutions: Mapping[sp.Expr, sp.Expr] | None,
    equivalence_seconds: float,
    original: sp.Basic | None = None,
) -> str:
    if verdict.status == Status.FAILS:
        return Outcome.KILLED
    if verdict.status == Status.INCONCLUSIVE:
        return Outcome.UNDECIDED
    if true_by_itself(relation, substitutions, equivalence_seconds, original):
        return Outcome.EQUIVALENT
    return Outcome.SURVIVED


#: CPU seconds a replay on a mutant may take beyond the unaltered check: the
#: replaced call's symbolic steps (each capped at :data:`STEP_SECONDS`) may
#: all run out where the original relation was decided at once.
_REPLAY_EXTRA_SECONDS = 4 * STEP_SECONDS + 1.0


def _replayed_outcomes(
    claim: Claim,
    recorded: RecordedCalls,
    limit: int | None,
    equivalence_seconds: float,
    claim_seconds: float | None,
) -> _Judged:
    """Mutants of the recorded calls' relations, each decided by re-running
    the claim's check with the call it came from deciding it."""
    distinct = recorded.relations()
    candidates: list[tuple[int, Mutant]] = []
    mutated: set[sp.Basic] = set()
    for index, call in enumerate(recorded.calls):
        if call.relation in mutated:
            continue
        mutated.add(call.relation)
        prefix = (
            f"call {index + 1} of {len(recorded.calls)} ({call.helper}), "
            if len(distinct) > 1
            else ""
        )
        candidates += [
            (index, Mutant(prefix + m.description, m.relation))
            for m in symbolic_mutants(call.relation)
        ]
    started = time.process_time()
    with replaced_call(recorded, -1, None) as replay:
        verdict = _checked(claim)
    cost = time.process_time() - started
    if verdict.status != Status.HOLDS or replay.diverged:
        why = (
            "took another path than when its helper calls were recorded"
            if replay.diverged
            else f"says {verdict.status}: {verdict.detail[:200]}"
        )
        return _Judged([], f"its check, re-run unaltered, {why}")

    def judged(index: int, mutant: Mutant) -> MutantOutcome:
        with replaced_call(recorded, index, mutant.relation) as replay:
            try:
                with time_limit(cost + _REPLAY_EXTRA_SECONDS):
                    verdict = _checked(claim)
            except CheckTimeout as error:
                verdict = Verdict.inconclusive(f"timed out: {error}", Reason.BUDGET)
        if not replay.applied:
            outcome, detail = (
                Outcome.NOT_DECIDED,
                f"not decided: the check did not reach call {index + 1} with the "
                f"recorded relation on this run ({verdict.status}: {verdict.detail})",
            )
        elif replay.diverged and verdict.status == Status.HOLDS:
            outcome, detail = (
                Outcome.NOT_DECIDED,
                "the check took another path after deciding the mutant, and its "
                f"later helper calls decided relations it had not recorded "
                f"(holds: {verdict.detail})",
            )
        else:
            substitutions = recorded.calls[index].substitutions
            outcome = _outcome(
                verdict,
                mutant.relation,
                substitutions,
                equivalence_seconds,
                recorded.calls[index].relation,
            )
            detail = verdict.detail
        return MutantOutcome(claim.id, mutant.description, outcome, detail)

    return _within_budget(
        [
            functools.partial(judged, index, mutant)
            for index, mutant in _spread(candidates, limit)
        ],
        claim_seconds,
    )


def _judged(
    judge: Callable[[sp.Basic], Verdict],
    relation: sp.Basic,
    budget_bytes: int | None,
) -> Verdict:
    return _guarded(functools.partial(judge, relation), budget_bytes, "the judge")


def _guarded(
    decide: Callable[[], Verdict], budget_bytes: int | None, what: str
) -> Verdict:
    """``decide()`` under the claim's memory budget, as ``verify`` runs it: a
    timeout or an overrun is ``inconclusive`` (budget), an error a crash."""
    try:
        with memory_limit(budget_bytes):
            return decide()
    except CheckTimeout as error:
        return Verdict.inconclusive(f"timed out: {error}", Reason.BUDGET)
    except MemoryError as error:
        return Verdict.inconclusive(
            f"exceeded its memory budget ({error!r})", Reason.BUDGET
        )
    except Exception as error:  # a mutant may break what the check assumes
        return Verdict.inconclusive(f"{what} raised {error!r}", Reason.CRASH)


def bias_outcomes(claim: Claim) -> list[MutantOutcome]:
    """Run ``claim``'s check with its compared value shifted by each of
    :data:`BIAS_FACTORS` times its tolerance, both ways.

    Only checks deciding through :func:`~implicit_bias.claims.checks.check_close`,
    :func:`~implicit_bias.claims.checks.check_positive` or
    :func:`~implicit_bias.claims.repeats.check_not_consistently_below` can be
    shifted; for others the check's verdict is unchanged and the outcome is
    reported as not instrumented (empty list). A check whose comparisons are
    all one-sided is moved toward refutation whatever the sign
    (:func:`~implicit_bias.claims.mutation_hooks.shift_against_claim`), so it
    runs once per factor.
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
            one_sided = record.one_sided == record.comparisons
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
                    f"compared value moved {factor:g} tolerances toward refutation "
                    "(one-sided comparisons)"
                    if one_sided
                    else f"compared value shifted by {sign * factor:+g} tolerances"
                    + (
                        " (its one-sided comparisons toward refutation)"
                        if record.one_sided
                        else ""
                    ),
                    outcome,
                    verdict.detail,
                    -factor if one_sided else sign * factor,
                )
            )
            if one_sided:
                break
    return outcomes


def _checked(claim: Claim) -> Verdict:
    return _guarded(claim.check, claim.budget_bytes, "the check")


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
      unjudged: symbolic mutants its CPU budget left unjudged.
    """

    claim_id: str
    source: str
    kind: str
    symbolic: tuple[MutantOutcome, ...]
    bias: tuple[MutantOutcome, ...]
    note: str = ""
    unjudged: int = 0

    def as_record(self) -> dict[str, object]:
        """The JSON record of ``implicit-bias mutate --json``."""
        return {
            "id": self.claim_id,
            "source": self.source,
            "kind": self.kind,
            "note": self.note,
            "unjudged": self.unjudged,
            "symbolic": [vars(o) for o in self.symbolic],
            "bias": [vars(o) for o in self.bias],
        }


def _mutations(
    claim: Claim, limit: int | None, with_bias: bool, claim_seconds: float | None
) -> ClaimMutations:
    try:
        with capped_budgets(STEP_SECONDS):
            symbolic, why, unjudged = _symbolic_outcomes(
                claim, limit, 5.0, claim_seconds
            )
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
    note = why if symbolic else ""
    if claim.expected != Status.HOLDS:
        note = f"expected {claim.expected}: only claims that hold are mutated"
    elif not symbolic and not bias:
        if numeric and not with_bias:
            note = "slow: bias not injected (run with --slow)"
        else:
            note = (
                f"not instrumented: {why}"
                + (
                    ", and it compares nothing through check_close or check_positive"
                    if numeric
                    else ""
                )
                + "; decide the relation it states through a relation helper "
                "(check_identity, check_inequality, check_limit, check_series, "
                "check_integral, relation_check)"
                + (
                    ", or compare through check_close or check_positive"
                    if numeric
                    else ""
                )
            )
    return ClaimMutations(
        claim.id,
        claim.source,
        str(claim.kind),
        tuple(symbolic),
        tuple(bias),
        note,
        unjudged,
    )


def mutate_claims(
    claims: Sequence[Claim],
    *,
    limit: int | None = 40,
    slow: bool = False,
    workers: int | None = None,
    claim_seconds: float | None = CLAIM_SECONDS,
    on_done: Callable[[ClaimMutations, int, int], None] | None = None,
) -> list[ClaimMutations]:
    """Mutation-test ``claims`` in worker processes (see the module docstring).

    Args:
      claims: the claims.
      limit: at most this many symbolic mutants per claim.
      slow: also inject biases into slow claims (each runs its check four
        more times).
      workers: concurrent processes (default: the number of CPUs).
      claim_seconds: CPU seconds for judging each claim's symbolic mutants
        (see :func:`mutation_outcomes`); None: no limit.
      on_done: called as ``on_done(mutations, done, total)`` as each ends.

    Returns:
      One :class:`ClaimMutations` per claim, in the order of ``claims``.

    Raises:
      InvalidArgumentError: ``limit`` is below 1.
    """
    if limit is not None and limit < 1:
        raise InvalidArgumentError(f"limit: must be >= 1 or None, got {limit!r}")
    if claim_seconds is not None and not claim_seconds > 0:
        raise InvalidArgumentError(
            f"claim_seconds: must be > 0 or None, got {claim_seconds!r}"
        )
    reports: dict[int, ClaimMutations] = {}

    def done(index: int, value: object, seconds: float) -> None:
        claim = claims[index]
        if isinstance(value, WorkerDeath):
            value = ClaimMutations(
                claim.id, claim.source, str(claim.kind), (), (), value.detail
            )
        if not isinstance(value, ClaimMutations):
            raise AssertionError("isinstance(value, ClaimMutations)")
        reports[index] = value
        if on_done is not None:
            on_done(value, len(reports), len(claims))

    tasks = [
        (
            functools.partial(
                _mutations, claim, limit, slow or not claim.slow, claim_seconds
            ),
            _worker_seconds(claim, limit, claim_seconds),
        )
        for claim in claims
    ]
    run_in_workers(tasks, workers=workers, on_done=done)
    return [reports[i] for i in range(len(claims))]


def _worker_seconds(
    claim: Claim, limit: int | None, claim_seconds: float | None
) -> float:
    """The CPU budget of the worker mutating ``claim``: its symbolic mutants,
    then the four bias runs of its check.

    The symbolic part is at least ``limit`` (or 40) mutants of three capped
    steps each, and at least what ``claim_seconds`` lets the judging take:
    the recording and the unaltered run of its check, ``claim_seconds``, and
    the judgement begun just before they were spent (a replay, its extra
    time and the equivalence test). Stopped before, a worker reports none of
    the mutants it judged. With ``claim_seconds`` None, no limit.
    """
    if claim_seconds is None:
        return MAX_BUDGET_SECONDS
    last = claim.budget_seconds + _REPLAY_EXTRA_SECONDS + 5.0
    judging = 2 * claim.budget_seconds + claim_seconds + last
    symbolic = max((limit or 40) * STEP_SECONDS * 3, judging)
    return min(symbolic + 4 * claim.budget_seconds, MAX_BUDGET_SECONDS)
