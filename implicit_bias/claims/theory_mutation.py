r"""Mutation of the theory layer: would the claims notice a wrong formula in
the theory they compute against?

:mod:`implicit_bias.claims.mutate` alters the relation a check is handed; a
claim that compares a NumPy evaluator, a simulation or a closed form with a
formula of :mod:`implicit_bias.theory` is only as good as its reaction to a
wrong *theory*. :func:`theory_mutants` alters the source of a theory module
one step at a time, inside the body of one function

* an operator ``+``, ``-``, ``*``, ``/`` becomes its opposite (``-``, ``+``,
  ``/``, ``*``);
* a unary minus is dropped;
* a number :math:`c` becomes :math:`c + 1`;
* a comparison ``<``, ``>``, ``<=``, ``>=`` is turned around;

never in a docstring, a default, an index, an argument guard (an ``if`` that
only raises) or a ``raise``/``assert``. Which claims reach a function is found
statically (:class:`~implicit_bias.claims.cache_keys.ClaimKeys`, which also
follows the functions a module calls at import, so tables computed at import
count).

Each mutant is judged in a process of its own, forked from this one: the
theory, numerics, validation and source modules are dropped from
``sys.modules`` and imported again with the mutated module in place of the
original, so that every evaluator lambdified from the theory, every table
computed at import and every cache is rebuilt from the wrong formula. The
claims of each source that reach the mutated function are then run, least
tested and cheapest first, until one stops saying ``holds``: the mutant is
*killed* for that source (by a ``fails`` or by an ``inconclusive``; the
report gives the share of ``fails``). A mutant no reaching claim kills is
*equivalent* only when SymPy proves the mutated function equal to the
original at symbolic arguments, and otherwise *survives*. Before any mutant,
a control run imports the sources again without a mutation and runs every
claim to be judged: a claim that does not hold there is not used to judge
mutants (its verdict could not be told from a kill).
"""

from __future__ import annotations

import collections
import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field


from implicit_bias.claims.cache_keys import ClaimKeys
from implicit_bias.claims.engine import (
    Claim,
    Status,
    WorkerDeath,
    run_in_workers,
)
from implicit_bias.claims.mutate import Outcome
from implicit_bias.claims.source import Source
from implicit_bias.claims.theory_runs import (
    EQUIVALENCE_SECONDS,
    _control_in_child,
    _judged_in_child,
    _Run,
    _source_modules,
)
from implicit_bias.claims.theory_sites import (
    PER_FUNCTION,
    TheoryMutant,
    theory_mutants,
)
from implicit_bias.errors import InvalidArgumentError

__all__ = [
    "MUTANT_SECONDS",
    "NOT_JUDGED",
    "PER_FUNCTION",
    "THEORY_PACKAGE",
    "ClaimJudgement",
    "TheoryMutant",
    "TheoryMutations",
    "TheoryOutcome",
    "mutate_theory",
    "theory_mutants",
    "theory_reach",
]

#: The package whose modules are mutated.
THEORY_PACKAGE = "implicit_bias.theory"
#: CPU seconds for running one mutant's claims (per source).
MUTANT_SECONDS = 20.0
#: The outcome of a mutant no claim was run on within its budget.
NOT_JUDGED = "not judged"


@dataclass(frozen=True)
class TheoryOutcome:
    """What the claims of one source made of one theory mutant.

    Attributes:
      mutant: the mutant.
      source: the source whose claims judged it.
      outcome: an :class:`~implicit_bias.claims.mutate.Outcome` value
        (killed, survived, equivalent) or :data:`NOT_JUDGED`.
      judged: the claims run on it, in order.
      killed_by: the claim that stopped saying ``holds`` ("" if none).
      fails: whether that claim said ``fails`` (not ``inconclusive``).
      detail: the killing verdict's detail, or why nothing was judged.
    """

    mutant: TheoryMutant
    source: str
    outcome: str
    judged: tuple[str, ...] = ()
    killed_by: str = ""
    fails: bool = False
    detail: str = ""

    def as_record(self) -> dict[str, object]:
        """The JSON record of ``implicit-bias mutate --json``."""
        return {
            "module": self.mutant.module,
            "function": self.mutant.function,
            "line": self.mutant.line,
            "description": self.mutant.description,
            "source": self.source,
            "outcome": self.outcome,
            "judged": list(self.judged),
            "killed_by": self.killed_by,
            "fails": self.fails,
            "detail": self.detail,
        }


def _theory_modules(package: str) -> dict[str, str]:
    """File label (as claim keys name files) -> module name, for ``package``."""
    from implicit_bias.claims.cache_keys import _file_label

    root = importlib.import_module(package)
    labels = {}
    modules = [root] + [
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages(root.__path__, package + ".")
    ]
    for module in modules:
        filename = getattr(module, "__file__", None)
        if filename:
            labels[_file_label(filename)] = module.__name__
    return labels


def theory_reach(
    claims: Sequence[Claim], package: str = THEORY_PACKAGE
) -> dict[str, frozenset[tuple[str, str]]]:
    """For each claim, the ``(module, function)`` pairs of ``package`` its
    check can reach (statically, as :class:`ClaimKeys` finds them)."""
    modules = _theory_modules(package)
    keys = ClaimKeys()
    reach = {}
    for claim in claims:
        found = set()
        for entry in keys.parts(claim)["functions"]:
            label, _, rest = entry.partition(":")
            module = modules.get(label)
            if module is None:
                continue
            qualname = rest.partition("=")[0].split(".<locals>")[0]
            if "<" not in qualname:
                found.add((module, qualname))
        reach[claim.id] = frozenset(found)
    return reach


# --- judging, in a forked process


@dataclass
class _Ledger:
    """What the parent knows while mutants are judged: the control runs'
    costs and how many mutants each claim has judged (read by each child at
    its fork, to put the least tested claims first)."""

    cost: dict[str, float] = field(default_factory=dict)
    received: dict[str, int] = field(default_factory=dict)

    def ordered(self, ids: Sequence[str]) -> list[str]:
        return sorted(
            ids, key=lambda i: (self.received.get(i, 0), self.cost.get(i, 0.0), i)
        )


def _outcomes_of(
    mutant: TheoryMutant, results: list[tuple[str, list[_Run]]], sources: Sequence[str]
) -> list[TheoryOutcome]:
    equivalent = any(source == "" for source, _ in results)
    outcomes = []
    for source_id, runs in results:
        if source_id == "":
            continue
        judged = tuple(r.claim_id for r in runs if not r.cut and r.claim_id)
        killer = next(
            (r for r in runs if r.status != str(Status.HOLDS) and not r.cut), None
        )
        if killer is not None:
            outcomes.append(
                TheoryOutcome(
                    mutant,
                    source_id,
                    Outcome.KILLED,
                    judged,
                    killer.claim_id,
                    killer.status == str(Status.FAILS),
                    killer.detail,
                )
            )
        elif not judged:
            outcomes.append(
                TheoryOutcome(
                    mutant, source_id, NOT_JUDGED, (), detail="its budget ran out"
                )
            )
        else:
            outcomes.append(
                TheoryOutcome(
                    mutant,
                    source_id,
                    Outcome.EQUIVALENT if equivalent else Outcome.SURVIVED,
                    judged,
                )
            )
    done = {o.source for o in outcomes}
    outcomes.extend(
        TheoryOutcome(mutant, s, NOT_JUDGED, (), detail="its process ended early")
        for s in sources
        if s not in done
    )
    return outcomes


@dataclass(frozen=True)
class ClaimJudgement:
    """A claim run on a theory mutant after the mutant's own judging, so
    that every claim calling a theory function judges at least one mutant.

    Attributes:
      claim_id: the claim.
      mutant: the mutant it ran on.
      status: its verdict's status (``holds``: the claim did not notice).
      detail: its verdict's detail.
    """

    claim_id: str
    mutant: TheoryMutant
    status: str
    detail: str

    def as_record(self) -> dict[str, object]:
        """The JSON record of ``implicit-bias mutate --json``."""
        return {
            "id": self.claim_id,
            "module": self.mutant.module,
            "function": self.mutant.function,
            "description": self.mutant.description,
            "status": self.status,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class TheoryMutations:
    """The result of :func:`mutate_theory`.

    Attributes:
      outcomes: one per mutant and source reaching it.
      excluded: claims not used, with why (they do not hold in the control
        run, or they are slow).
      reach: for each claim run, the theory functions it calls.
      judgements: the claims that no mutant's judging reached, each run on
        one mutant of a function it calls.
    """

    outcomes: tuple[TheoryOutcome, ...]
    excluded: Mapping[str, str]
    reach: Mapping[str, frozenset[tuple[str, str]]]
    judgements: tuple[ClaimJudgement, ...] = ()

    def received(self) -> dict[str, int]:
        """How many mutants each claim judged."""
        counts: dict[str, int] = {}
        for outcome in self.outcomes:
            for claim_id in outcome.judged:
                counts[claim_id] = counts.get(claim_id, 0) + 1
        for judgement in self.judgements:
            counts[judgement.claim_id] = counts.get(judgement.claim_id, 0) + 1
        return counts

    def killed(self) -> dict[str, int]:
        """How many mutants each claim killed."""
        counts: dict[str, int] = {}
        for outcome in self.outcomes:
            if outcome.killed_by:
                counts[outcome.killed_by] = counts.get(outcome.killed_by, 0) + 1
        for judgement in self.judgements:
            if judgement.status != str(Status.HOLDS):
                counts[judgement.claim_id] = counts.get(judgement.claim_id, 0) + 1
        return counts


def mutate_theory(
    claims: Sequence[Claim],
    sources: Sequence[Source],
    *,
    package: str = THEORY_PACKAGE,
    per_function: int | None = PER_FUNCTION,
    mutant_seconds: float = MUTANT_SECONDS,
    slow: bool = False,
    workers: int | None = None,
    on_done: Callable[[list[TheoryOutcome], int, int], None] | None = None,
) -> TheoryMutations:
    """Mutation-test the theory functions ``claims`` reach (module docstring).

    Args:
      claims: the claims; only those expected to hold judge mutants.
      sources: the sources that define them (imported again per mutant).
      package: the theory package to mutate.
      per_function: mutants per reached function (see :func:`theory_mutants`).
      mutant_seconds: CPU seconds for one mutant's claims, per source.
      slow: also run slow claims.
      workers: concurrent processes (default: the number of CPUs).
      on_done: called as ``on_done(outcomes, done, total)`` as each mutant ends.

    Raises:
      InvalidArgumentError: ``mutant_seconds`` is not positive, or
        ``per_function`` is below 1.
    """
    if not mutant_seconds > 0:
        raise InvalidArgumentError(
            f"mutant_seconds: must be > 0, got {mutant_seconds!r}"
        )
    excluded: dict[str, str] = {}
    used = []
    for claim in claims:
        if claim.expected != Status.HOLDS:
            continue
        if claim.slow and not slow:
            excluded[claim.id] = "slow (run with --slow)"
            continue
        used.append(claim)
    static = theory_reach(used, package)
    source_modules = _source_modules(sources)
    by_source: dict[str, list[str]] = {}
    for claim in used:
        if claim.source not in source_modules:
            excluded[claim.id] = "its source cannot be imported again"
        elif static[claim.id]:
            by_source.setdefault(claim.source, []).append(claim.id)
    ledger = _Ledger()
    budgets = {c.id: c.budget_seconds for c in used}
    reach: dict[str, frozenset[tuple[str, str]]] = {c.id: frozenset() for c in used}
    sources_order = list(by_source)

    def control_done(index: int, value: object, seconds: float) -> None:
        source_id = sources_order[index]
        if isinstance(value, WorkerDeath):
            for claim_id in by_source[source_id]:
                excluded[claim_id] = f"the control run ended: {value.detail}"
            return
        at_import: frozenset[tuple[str, str]] = frozenset()
        for run, called in value:  # type: ignore[attr-defined]
            if not run.claim_id:
                at_import = called
                continue
            ledger.cost[run.claim_id] = run.seconds
            # What it called, and what its source's import called that its
            # code reads (a table computed at import).
            reach[run.claim_id] = called | (at_import & static[run.claim_id])
            if run.status != str(Status.HOLDS):
                excluded[run.claim_id] = (
                    f"does not hold when imported again: {run.status} ({run.detail})"
                )

    run_in_workers(
        [
            (
                functools.partial(
                    _control_in_child, package, source_modules, s, by_source[s]
                ),
                min(sum(budgets[i] for i in by_source[s]) + 60.0, 3600.0),
            )
            for s in sources_order
        ],
        workers=workers,
        on_done=control_done,
    )
    functions: dict[tuple[str, str], dict[str, list[str]]] = {}
    for claim in used:
        if claim.id in excluded:
            continue
        for pair in sorted(reach[claim.id]):
            functions.setdefault(pair, {}).setdefault(claim.source, []).append(claim.id)
    mutants: list[TheoryMutant] = []
    for module in sorted({m for m, _ in functions}):
        names = sorted(f for m, f in functions if m == module)
        mutants.extend(theory_mutants(module, names, per_function))
    outcomes: list[TheoryOutcome] = []
    finished: list[int] = []

    def judge(mutant: TheoryMutant) -> list[tuple[str, list[_Run]]]:
        # Runs in the child, forked when the task is handed out: the ledger
        # it reads is the parent's at that moment.
        wanted = functions[(mutant.module, mutant.function)]
        order = {s: ledger.ordered(ids) for s, ids in wanted.items()}
        return _judged_in_child(package, mutant, source_modules, order, mutant_seconds)

    def done(index: int, value: object, seconds: float) -> None:
        mutant = mutants[index]
        wanted = functions[(mutant.module, mutant.function)]
        results = [] if isinstance(value, WorkerDeath) else value
        found = _outcomes_of(mutant, results, list(wanted))  # type: ignore[arg-type]
        for outcome in found:
            for claim_id in outcome.judged:
                ledger.received[claim_id] = ledger.received.get(claim_id, 0) + 1
        outcomes.extend(found)
        finished.append(index)
        if on_done is not None:
            on_done(found, len(finished), len(mutants))

    run_in_workers(
        [
            (
                functools.partial(judge, mutant),
                min(
                    len(functions[(mutant.module, mutant.function)]) * mutant_seconds
                    + EQUIVALENCE_SECONDS
                    + 60.0,
                    3600.0,
                ),
            )
            for mutant in mutants
        ],
        workers=workers,
        on_done=done,
    )
    judgements = _judgements(
        package,
        mutants,
        [c for c in used if c.id not in excluded],
        reach,
        dict(collections.Counter(i for o in outcomes for i in o.judged)),
        source_modules,
        mutant_seconds,
        workers,
    )
    return TheoryMutations(tuple(outcomes), excluded, reach, judgements)


def _judgements(
    package: str,
    mutants: Sequence[TheoryMutant],
    claims: Sequence[Claim],
    reach: Mapping[str, frozenset[tuple[str, str]]],
    received: Mapping[str, int],
    source_modules: Mapping[str, str],
    mutant_seconds: float,
    workers: int | None,
) -> tuple[ClaimJudgement, ...]:
    """Run each claim that calls the theory but judged no mutant on one
    mutant of a function it calls (the mutant most such claims share)."""
    pending = [c for c in claims if reach[c.id] and not received.get(c.id)]
    groups: dict[int, list[Claim]] = {}
    for claim in pending:
        candidates = [
            i
            for i, m in enumerate(mutants)
            if (m.module, m.function) in reach[claim.id]
        ]
        if candidates:
            chosen = next((i for i in candidates if i in groups), candidates[0])
            groups.setdefault(chosen, []).append(claim)
    tasks = []
    for index, members in groups.items():
        order: dict[str, list[str]] = {}
        for claim in members:
            order.setdefault(claim.source, []).append(claim.id)
        tasks.append(
            (
                functools.partial(
                    _judged_in_child,
                    package,
                    mutants[index],
                    source_modules,
                    order,
                    mutant_seconds * len(members),
                    True,
                ),
                min(mutant_seconds * len(members) + 60.0, 3600.0),
                index,
            )
        )
    judgements: list[ClaimJudgement] = []

    def done(position: int, value: object, seconds: float) -> None:
        if isinstance(value, WorkerDeath):
            return
        mutant = mutants[tasks[position][2]]
        for _, runs in value:  # type: ignore[attr-defined]
            judgements.extend(
                ClaimJudgement(run.claim_id, mutant, run.status, run.detail)
                for run in runs
                if run.claim_id and not run.cut
            )

    run_in_workers(
        [(task, budget) for task, budget, _ in tasks], workers=workers, on_done=done
    )
    return tuple(judgements)
