r"""The relation helper calls of a check: recorded to typeset it, replayed to mutate it.

A claim is most often written as a bare call of a relation helper of
:mod:`implicit_bias.claims.checks`, ``check=lambda: check_identity(lhs, rhs)``:
the helper is handed the relation the claim states (here
:math:`\mathrm{lhs} = \mathrm{rhs}`) as its arguments. So the toolkit learns
that relation from the helper rather than asking the author to write it a
second time (``formula=``) or in another style (``relation_check``): the
LaTeX ledger typesets it, and ``implicit-bias mutate`` alters it.

Every relation helper (``check_identity``, ``check_inequality``,
``check_limit``, ``check_series``, ``check_integral``, ``check_equal``,
``check_loewner``, ``judge_relation``) routes its call through
:func:`helper_call`, which reads a context variable:

* **normally** the helper decides its own arguments, as if nothing were
  there (one context-variable lookup per call);
* **recording** (:func:`recorded_calls`): each helper call records the
  relation it was handed (a :class:`HelperCall`: ``Eq(lhs, rhs)``, ``lhs <=
  rhs``, ``Eq(Limit(f, x, a), L)``, ``Eq(f, g + O(x**n))``,
  ``Eq(Integral(f, (x, a, b)), I)``, ``LoewnerLe(lower, upper)``) and
  returns at once a placeholder ``holds`` without deciding anything. The
  check therefore runs on along the path on which every relation holds --
  the path of a claim expected to hold -- and the next calls are recorded
  too: a conjunction of helper calls records every part, a helper called in
  a loop records each pass, and a call made only once an earlier verdict
  holds is reached. What the check
  computes before and between its helper calls (a simplification, a
  simulation) runs for real, so the run is budgeted
  (:data:`RECORDING_SECONDS` of CPU, :func:`~implicit_bias.claims.engine.time_limit`)
  and stopped by a private sentinel after :data:`MAX_RECORDED_CALLS` calls;
  a stopped run keeps the calls recorded so far. A call the check makes only
  when an earlier helper is undecided or fails (a fallback) is not reached,
  and not recorded; a check that branches on the placeholder's ``detail`` or
  ``basis`` records a path it never takes when it runs (the unaltered replay
  below then finds fewer calls and reports it);
* **replaying** (:func:`replaced_call`): the check runs for real, except
  that its k-th helper call decides a given relation -- a mutant of the k-th
  recorded one -- instead of its arguments, with that call's own options
  (samplers, substitutions, budget, points). Mutation testing re-runs the
  claim's own check on each mutant, so a check's whole decision is tested,
  not the helper alone.

Calls are matched by their order, and a replay checks that each call is
handed the relation recorded for it: a check that takes another path (its
calls depend on an earlier verdict, or on randomness) is reported as such
(:attr:`Replay.diverged`, :attr:`Replay.applied`), never judged as if it had
decided the mutant. A helper decides with the mode cleared, so a helper that
calls another (``check_limit`` calls ``check_equal``) is one call. The mode is
a :mod:`contextvars` variable: a helper called from another thread or
process is not recorded.

:func:`claim_formula` is the relation a claim states: its ``formula=`` if it
gives one, else what its check hands the helpers (one relation, or the
conjunction of at most :data:`MAX_TYPESET_RELATIONS`). It is derived lazily,
when a ledger is typeset, in a forked process (:func:`claim_recording`):
constructing a claim runs nothing. :func:`lint_claim` (``implicit-bias
check-source``) says of each claim how it is typeset and mutated, or why it
cannot be and how to fix that.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import io
import pickle
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import sympy as sp

from implicit_bias.claims.engine import (
    Basis,
    CheckTimeout,
    Claim,
    Kind,
    Status,
    Verdict,
    WorkerDeath,
    run_forked,
    time_limit,
)

__all__ = [
    "MAX_RECORDED_CALLS",
    "MAX_TYPESET_RELATIONS",
    "RECORDING_SECONDS",
    "RELATION_HELPERS",
    "ClaimLint",
    "HelperCall",
    "RecordedCalls",
    "Replay",
    "claim_formula",
    "claim_recording",
    "helper_call",
    "lint_claim",
    "note_comparison",
    "recorded_calls",
    "recording_or_replaying",
    "replaced_call",
]

#: CPU seconds a check may compute while its helper calls are recorded.
RECORDING_SECONDS = 2.0
#: A recording run is stopped after this many helper calls (a long loop).
MAX_RECORDED_CALLS = 100
#: A check handing its helpers more distinct relations than this (a loop over
#: cases) is typeset only from its ``formula=``: a conjunction of many
#: instances is not the statement a reader looks for.
MAX_TYPESET_RELATIONS = 4
#: The helpers whose calls are recorded, as the hint of a lint message.
RELATION_HELPERS = (
    "check_identity",
    "check_inequality",
    "check_limit",
    "check_series",
    "check_integral",
    "check_equal",
    "check_loewner",
    "judge_relation",
)

#: What a helper returns while recording: a check runs on as if it held.
_PLACEHOLDER = Verdict.holds("recorded, not decided", Basis.PROOF)


@dataclass(frozen=True)
class HelperCall:
    """One call of a relation helper: the relation it was handed.

    Attributes:
      helper: the helper's name, e.g. ``"check_identity"``.
      relation: the relation, unevaluated, in the form the helper reads back
        when it decides a mutant of it (see the module docstring).
      substitutions: the constraint the call states it under, if any (as for
        :func:`~implicit_bias.claims.checks.check_identity`).
    """

    helper: str
    relation: sp.Basic
    substitutions: Mapping[sp.Expr, sp.Expr] | None = None


@dataclass(frozen=True)
class RecordedCalls:
    """The helper calls of one recording run of a check.

    Attributes:
      calls: the calls, in the order the check made them.
      stopped: "" when the check ran to its end; else why the run stopped
        (the budget, too many calls, an exception), in words.
      comparisons: how many :func:`~implicit_bias.claims.checks.check_close`
        comparisons the check made on the way (``mutate`` shifts those).
    """

    calls: tuple[HelperCall, ...]
    stopped: str = ""
    comparisons: int = 0

    def relations(self) -> list[sp.Basic]:
        """The distinct relations handed to the helpers, in call order."""
        return list(dict.fromkeys(call.relation for call in self.calls))

    def formula(self) -> sp.Basic | None:
        """The relation the check states: the one relation its helpers were
        handed, or the conjunction of at most :data:`MAX_TYPESET_RELATIONS`;
        None when there are none or more (see :meth:`why_no_formula`)."""
        relations = self.relations()
        if len(relations) == 1:
            return relations[0]
        if 1 < len(relations) <= MAX_TYPESET_RELATIONS:
            return sp.And(*relations, evaluate=False)
        return None

    def why_no_formula(self) -> str:
        """Why :meth:`formula` is None, in words ("" when it is not)."""
        count = len(self.relations())
        if count > MAX_TYPESET_RELATIONS:
            return (
                f"its check hands the relation helpers {count} relations (a loop "
                "over cases?), too many to typeset as one formula"
            )
        if count:
            return ""
        if self.stopped:
            return f"{self.stopped}, before it called a relation helper"
        return (
            "its check calls no relation helper (" + ", ".join(RELATION_HELPERS) + ")"
        )


class _Enough(BaseException):
    """Stops a recording run after :data:`MAX_RECORDED_CALLS` calls.

    A ``BaseException``, so that a check's ``except Exception`` does not
    swallow it and run on.
    """


@dataclass
class _Recording:
    calls: list[HelperCall]
    comparisons: int = 0


@dataclass
class Replay:
    """What became of a replacement during :func:`replaced_call`.

    Attributes:
      applied: the check reached the replaced call, handed the recorded
        relation, and that call decided the given relation instead.
      diverged: some helper call of the check was handed another relation
        than the recording's at its position, or the check made calls the
        recording did not see: it took another path.
    """

    applied: bool = False
    diverged: bool = False


@dataclass
class _Replaying:
    recorded: tuple[HelperCall, ...]
    index: int
    relation: sp.Basic | None
    replay: Replay
    calls: int = 0


_MODE: contextvars.ContextVar[_Recording | _Replaying | None] = contextvars.ContextVar(
    "implicit_bias_relation_helper_mode", default=None
)


def recording_or_replaying() -> bool:
    """Whether a helper called now is to go through :func:`helper_call`
    (its calls are being recorded or replayed), rather than decide at once."""
    return _MODE.get() is not None


def helper_call(
    helper: str,
    relation: Callable[[], sp.Basic],
    decide: Callable[[sp.Basic], Verdict],
    original: Callable[[], Verdict],
    *,
    substitutions: Mapping[sp.Expr, sp.Expr] | None = None,
) -> Verdict:
    """One call of a relation helper, decided as the current mode asks.

    A helper of one's own becomes recordable and mutable by routing through
    this when :func:`recording_or_replaying`, as those of
    :mod:`implicit_bias.claims.checks` do: ``decide`` and ``original`` call
    the helper again, which then decides (the mode is cleared for them).

    Args:
      helper: the helper's name, for reports.
      relation: builds the relation the call was handed (unevaluated), in a
        form ``decide`` reads back.
      decide: decides a relation of that form with the call's own options.
      original: decides the call's own arguments (what the helper does when
        nothing is recorded or replaced).
      substitutions: the constraint of the call, if any (recorded with it).

    Returns:
      ``original()``, normally; a placeholder ``holds`` while recording; in a
      replay, ``decide`` of the replacement at the replaced call and
      ``original()`` elsewhere.
    """
    mode = _MODE.get()
    if mode is None:
        return original()
    index = len(mode.calls) if isinstance(mode, _Recording) else mode.calls
    if isinstance(mode, _Recording):
        if index >= MAX_RECORDED_CALLS:
            raise _Enough
        mode.calls.append(HelperCall(helper, relation(), substitutions))
        return _PLACEHOLDER
    mode.calls += 1
    stated = relation()
    recorded = mode.recorded[index].relation if index < len(mode.recorded) else None
    # The helper decides with the mode cleared: a helper it calls in turn
    # (check_limit -> check_equal) is part of this call, not a call of its own.
    token = _MODE.set(None)
    try:
        if stated != recorded:
            mode.replay.diverged = True
        elif index == mode.index and mode.relation is not None:
            mode.replay.applied = True
            return decide(mode.relation)
        return original()
    finally:
        _MODE.reset(token)


def note_comparison() -> None:
    """Count a comparison mutation testing can shift
    (:func:`~implicit_bias.claims.checks.check_close`,
    :func:`~implicit_bias.claims.checks.check_positive`,
    :func:`~implicit_bias.claims.repeats.check_not_consistently_below`, each
    with a nonzero tolerance) made while a check's calls are recorded (a no-op
    otherwise)."""
    mode = _MODE.get()
    if isinstance(mode, _Recording):
        mode.comparisons += 1


def recorded_calls(
    check: Callable[[], object], *, budget_seconds: float = RECORDING_SECONDS
) -> RecordedCalls:
    """Run ``check`` in this process, recording its relation helper calls
    without deciding them (see the module docstring).

    The check computes what it computes outside the helpers for real, for at
    most ``budget_seconds`` of CPU time (in the main thread; see
    :func:`~implicit_bias.claims.engine.time_limit`). Nothing it raises
    escapes: the run stops, and :attr:`RecordedCalls.stopped` says why.

    Examples:
      >>> from implicit_bias.claims.checks import check_identity, check_limit
      >>> x = sp.Symbol("x", positive=True)
      >>> recorded = recorded_calls(
      ...     lambda: check_identity(sp.log(x**2), 2 * sp.log(x)))
      >>> recorded.formula()
      Eq(log(x**2), 2*log(x))
      >>> recorded_calls(lambda: check_limit(sp.sin(x) / x, x, 0, 1)).formula()
      Eq(Limit(sin(x)/x, x, 0, dir='+'), 1)
    """
    recording = _Recording([])
    token = _MODE.set(recording)
    stopped = ""
    started = time.process_time()
    try:
        with time_limit(budget_seconds):
            check()
    except CheckTimeout:
        stopped = f"its check computed for more than {budget_seconds:g} s of CPU"
    except _Enough:
        stopped = f"its check made more than {MAX_RECORDED_CALLS} helper calls"
    except Exception as error:
        stopped = f"its check raised {error!r} while its calls were recorded"
    finally:
        _MODE.reset(token)
    if not stopped and time.process_time() - started > budget_seconds:
        # The check swallowed the timeout (an ``except Exception``) and ran on.
        stopped = f"its check computed for more than {budget_seconds:g} s of CPU"
    return RecordedCalls(tuple(recording.calls), stopped, recording.comparisons)


@contextlib.contextmanager
def replaced_call(
    recorded: RecordedCalls, index: int, relation: sp.Basic | None
) -> Iterator[Replay]:
    """Within the block, a check's ``index``-th helper call decides
    ``relation`` instead of its arguments; its other calls decide their own.

    ``relation=None`` replaces nothing: the replay only checks that the
    check takes the recorded path. The yielded :class:`Replay` says, once
    the check has run, whether the replacement was applied and whether the
    check diverged from ``recorded``.
    """
    replay = Replay()
    state = _Replaying(recorded.calls, index, relation, replay)
    token = _MODE.set(state)
    try:
        yield replay
    finally:
        _MODE.reset(token)
    if relation is None and state.calls < len(recorded.calls):
        # Run unaltered, the check made fewer calls than recorded: it took
        # another path (it branched on the recording's placeholders). A
        # mutant's replay may stop early, as a refuted conjunction does.
        replay.diverged = True


def _unevaluated(kind: type[sp.Basic], args: tuple[sp.Basic, ...]) -> sp.Basic:
    return kind(*args, evaluate=False)


class _Pickler(pickle.Pickler):
    """Pickles relations, sums, products and powers as they are.

    SymPy pickles an object as its class called on its arguments, which
    evaluates: ``Eq(x, x)`` or ``x <= x + 1`` (x > 0) would arrive as a bare
    ``True``, and the terms ``1 + x**3 + O(x**2)`` states beyond its order
    would be absorbed. These are rebuilt with ``evaluate=False`` instead
    (``sympy.evaluate(False)`` around the whole load would not do: ``Order``
    recurses without end under it).
    """

    def reducer_override(self, obj: object) -> Any:
        if isinstance(obj, (sp.core.relational.Relational, sp.Add, sp.Mul, sp.Pow)):
            return _unevaluated, (type(obj), obj.args)
        return NotImplemented


def _recorded_in_child(check: Callable[[], object]) -> bytes:
    """:func:`recorded_calls` in a forked child, pickled by :class:`_Pickler`."""
    recorded = recorded_calls(check)
    stream = io.BytesIO()
    try:
        _Pickler(stream).dump(recorded)
    except Exception as error:
        stream = io.BytesIO()
        _Pickler(stream).dump(
            RecordedCalls(
                (),
                f"its check's relations cannot be sent between processes ({error!r})",
                recorded.comparisons,
            )
        )
    return stream.getvalue()


#: Recordings of the checks typeset in this process, by ``id`` of the check
#: (kept with it, so that the id is not reused).
_RECORDINGS: dict[int, tuple[object, RecordedCalls]] = {}

#: CPU seconds a forked recording run may take beyond :data:`RECORDING_SECONDS`
#: (the child stops its check first, and sends what it recorded).
_FORK_SECONDS = 3.0


def claim_recording(claim: Claim) -> RecordedCalls:
    """:func:`recorded_calls` of ``claim``'s check, run once per process in
    a forked child (what the check prints goes to stderr, the state it
    changes is the child's, and a check that blocks is killed)."""
    known = _RECORDINGS.get(id(claim.check))
    if known is not None and known[0] is claim.check:
        return known[1]
    value, _ = run_forked(
        functools.partial(_recorded_in_child, claim.check),
        RECORDING_SECONDS + _FORK_SECONDS,
    )
    if isinstance(value, bytes):
        value = pickle.loads(value)
    recorded = (
        value
        if isinstance(value, RecordedCalls)
        else RecordedCalls(
            (),
            "its check's recording run ended without a result: "
            + (value.detail if isinstance(value, WorkerDeath) else repr(value)),
        )
    )
    _RECORDINGS[id(claim.check)] = (claim.check, recorded)
    return recorded


#: The formulas built in this process, by ``id`` of the claim's ``formula``
#: (kept with it, so that the id is not reused): the docs' pages, ledger and
#: staleness check each ask for every formula, and some take seconds to build.
_FORMULAS: dict[int, tuple[object, sp.Basic | None]] = {}


def claim_formula(claim: Claim) -> sp.Basic | None:
    """The relation ``claim`` states, for LaTeX: its ``formula`` if it has
    one (a :class:`~implicit_bias.claims.checks.RelationCheck` gives its
    relation), else the relations its check hands the relation helpers
    (:meth:`RecordedCalls.formula`, derived now, not when the claim was
    made); None if there is none."""
    if claim.formula is None:
        return claim_recording(claim).formula()
    cached = _FORMULAS.get(id(claim.formula))
    if cached is not None and cached[0] is claim.formula:
        return cached[1]
    formula = claim.formula()
    _FORMULAS[id(claim.formula)] = (claim.formula, formula)
    return formula


_HOW_TO_TYPESET = (
    "give the claim formula= (a function returning the SymPy relation it "
    "states), or decide the relation through a relation helper (check_identity, "
    "check_inequality, check_limit, check_series, check_integral, relation_check)"
)
_HOW_TO_MUTATE = (
    "decide the relation it states through a relation helper (check_identity, "
    "check_inequality, check_limit, check_series, check_integral, relation_check), "
    "so that mutate can alter it"
)


@dataclass(frozen=True)
class ClaimLint:
    """How a claim is typeset and mutated, or why it cannot be.

    Attributes:
      claim_id: the claim's id.
      typeset: how the ledger typesets it ("" if only in words).
      mutated: how ``implicit-bias mutate`` alters it ("" if it cannot).
      problems: each thing it cannot have, why, and how to fix it.
    """

    claim_id: str
    typeset: str
    mutated: str
    problems: tuple[str, ...]


def lint_claim(claim: Claim) -> ClaimLint:
    """Whether ``claim`` is typeset as mathematics and mutation-tested, and
    if not, why and how to fix it (``implicit-bias check-source``).

    Records the check's helper calls (:func:`claim_recording`) unless its
    ``formula`` and its check's relation are both given.
    """
    relation = getattr(claim.check, "relation", None)
    relation_given = callable(relation)
    recorded = None if relation_given else claim_recording(claim)
    problems = []
    if claim.formula is not None:
        typeset = (
            "its check's relation (RelationCheck)"
            if relation_given and claim.formula is relation
            else "its formula="
        )
    else:
        if recorded is None:
            raise AssertionError("a RelationCheck's relation is its formula")
        count = len(recorded.relations())
        typeset = (
            f"the {'relation' if count == 1 else f'{count} relations'} its check "
            "hands the relation helpers"
            if recorded.formula() is not None
            else ""
        )
        if not typeset:
            problems.append(
                f"typeset in words only: {recorded.why_no_formula()}; "
                + _HOW_TO_TYPESET
            )
    numeric = claim.kind in (Kind.NUMERIC, Kind.SIMULATION)
    if claim.expected != Status.HOLDS:
        mutated = f"not mutated: it is expected {claim.expected}, by design"
    elif relation_given:
        mutated = "mutants of its check's relation (RelationCheck)"
    else:
        if recorded is None:
            raise AssertionError("recorded is not None")
        calls = len(recorded.calls)
        if calls and recorded.stopped:
            mutated = ""
            problems.append(
                f"not mutation-tested: the recording of its helper calls stopped "
                f"({recorded.stopped}), so a replay cannot follow its check; "
                + _HOW_TO_MUTATE
            )
        elif calls:
            mutated = (
                f"mutants of the relation{'s' if calls > 1 else ''} of its "
                f"{calls} helper call{'s' if calls > 1 else ''}, replayed"
            )
        elif recorded.comparisons and numeric:
            mutated = "its numerical comparisons, shifted by 2 and 5 tolerances"
        elif numeric and recorded.stopped:
            mutated = (
                "its numerical comparisons, shifted, if its decision makes any "
                f"({recorded.stopped} before one was seen)"
            )
        else:
            mutated = ""
            why = recorded.why_no_formula() or "its check calls no relation helper"
            if recorded.comparisons:
                why += (
                    f"; its numerical comparisons are shifted only for numeric "
                    f"and simulation claims, and it is {claim.kind}"
                )
            problems.append(f"not mutation-tested: {why}; {_HOW_TO_MUTATE}")
    return ClaimLint(claim.id, typeset, mutated, tuple(problems))
