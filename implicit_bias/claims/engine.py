"""The claim engine: claims, verdicts, time budgets and the runner.

A :class:`Claim` is one statement of a source paper -- its source (the paper
file's stem), its equation number as printed, its kind and assumptions -- and
a ``check`` that returns a :class:`Verdict`. Each claim also records the
verdict it is *expected* to have, so that a change flipping a verdict is
caught (``implicit-bias verify`` exits 1).

Checks run in forked worker processes, so a check that overruns its budget is
killed and reported ``inconclusive`` instead of hanging the run; inside a
check, :func:`time_limit` bounds a single step (e.g. a SymPy simplification)
so that the check can fall back to another method.

**Budgets are CPU time**, not wall time: a check given 30 s may use 30 s of
its process's CPU, however busy the machine is, so a verdict (and the path
a check takes through its time-limited steps) does not depend on the load.
The kernel enforces a claim's budget (``RLIMIT_CPU``); a check that blocks
without computing (a sleep, a lost lock) is stopped by a wall-clock backstop
of :data:`WALL_BACKSTOP_FACTOR` times its budget.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import multiprocessing
import multiprocessing.connection
import math
import os
import resource
import signal
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

import sympy as sp
from threadpoolctl import threadpool_limits

from implicit_bias.errors import InvalidArgumentError

__all__ = [
    "WALL_BACKSTOP_FACTOR",
    "CheckTimeout",
    "Claim",
    "Kind",
    "Reason",
    "Result",
    "Status",
    "Verdict",
    "conjunction",
    "in_paper_order",
    "run_claims",
    "time_limit",
    "unique_ids",
]


WALL_BACKSTOP_FACTOR = 10.0
"""A check is killed after this many times its (CPU) budget of wall time.

Only checks that wait without computing meet it: a check computing all the
time meets its CPU budget first unless the machine gives it less than a
tenth of a core.
"""


class Status(enum.StrEnum):
    """The verdict of a check."""

    HOLDS = "holds"
    FAILS = "fails"
    INCONCLUSIVE = "inconclusive"


class Kind(enum.StrEnum):
    """What sort of statement a claim is, and so how it is checked."""

    IDENTITY = "identity"
    LIMIT = "limit/series"
    INEQUALITY = "inequality"
    NUMERIC = "numeric"
    SIMULATION = "simulation"


class Reason(enum.StrEnum):
    """Why a check is ``inconclusive``: it neither proved nor refuted."""

    #: The effect is within the stated number of standard errors of zero.
    STATISTICAL = "statistical"
    #: A step or the whole check ran past its CPU-time budget.
    BUDGET = "budget"
    #: A compared value is NaN or infinite (or complex where a real is due).
    NON_FINITE = "non-finite"
    #: SymPy returned an unevaluated object (a ``Limit``, an ``Integral``...).
    UNEVALUATED = "unevaluated"
    #: The method ran and could not decide (e.g. a sign SymPy cannot settle, or
    #: a counterexample search that came back empty).
    UNDECIDED = "undecided"
    #: The check raised, its worker died, or it returned something else than a
    #: :class:`Verdict`. No claim may expect it.
    CRASH = "crash"


@dataclass(frozen=True)
class Verdict:
    """The outcome of a check: a status, its evidence and, if inconclusive, why.

    ``reason`` (a :class:`Reason`) is set exactly when the status is
    ``inconclusive``.
    """

    status: Status
    detail: str
    reason: Reason | None = None

    def __post_init__(self) -> None:
        status = Status(self.status)
        if status == Status.INCONCLUSIVE and self.reason is None:
            raise InvalidArgumentError(
                "reason: an inconclusive Verdict names its Reason"
            )
        if status != Status.INCONCLUSIVE and self.reason is not None:
            raise InvalidArgumentError(
                f"reason: must be None for a {status} Verdict, got {self.reason!r}"
            )

    @classmethod
    def holds(cls, detail: str) -> Verdict:
        """The statement holds; ``detail`` says how it was shown."""
        return cls(Status.HOLDS, detail)

    @classmethod
    def fails(cls, detail: str) -> Verdict:
        """The statement is false; ``detail`` gives the residual or counterexample."""
        return cls(Status.FAILS, detail)

    @classmethod
    def inconclusive(cls, detail: str, reason: Reason = Reason.UNDECIDED) -> Verdict:
        """The check could not decide; ``detail`` says why, ``reason`` says how."""
        return cls(Status.INCONCLUSIVE, detail, Reason(reason))

    def with_detail(self, detail: str) -> Verdict:
        """The same status and reason with another ``detail``.

        For a sub-check's verdict reported under the part of a claim it checked.
        """
        return dataclasses.replace(self, detail=detail)


def conjunction(parts: Sequence[Verdict], detail: str) -> Verdict:
    """The verdict of "every part holds".

    ``fails`` if any part fails (its counterexample refutes the conjunction),
    else ``inconclusive`` with the first undecided part's reason if any part is
    undecided, else ``holds``.
    """
    for part in parts:
        if part.status == Status.FAILS:
            return Verdict.fails(detail)
    for part in parts:
        if part.status == Status.INCONCLUSIVE:
            return part.with_detail(detail)
    return Verdict.holds(detail)


@dataclass(frozen=True)
class Claim:
    """One checkable statement of a source paper.

    Attributes:
      source: the paper file's stem, e.g. ``"ptft-relu-penalty"``.
      equation: the equation number as printed (``"10"``, ``"18-19"``), or the
        section the statement comes from (``"sec-1.2"``).
      label: a short slug distinguishing several claims about one equation.
      kind: the :class:`Kind` of statement.
      statement: the statement in words, as the source makes it.
      check: returns the :class:`Verdict`; runs in a worker process.
      expected: the verdict this claim is known to have (the registry).
      expected_reason: for an expected ``inconclusive``, the :class:`Reason` it
        is expected for (required then, and never ``Reason.CRASH``); ``None``
        otherwise.
      assumptions: SymPy symbol assumptions and stated conditions, in words.
      corrects: the id of the claim this one corrects, if any.
      formula: builds the SymPy relation the claim states, for LaTeX.
      slow: skipped by ``verify --quick``.
      budget_seconds: CPU-time budget of the check (seconds), past which it
        is killed and ``inconclusive``; see the module docstring.
    """

    source: str
    equation: str
    label: str
    kind: Kind
    statement: str
    check: Callable[[], Verdict]
    expected: Status
    assumptions: tuple[str, ...] = ()
    corrects: str | None = None
    formula: Callable[[], sp.Basic] | None = None
    slow: bool = False
    budget_seconds: float = 60.0
    expected_reason: Reason | None = None

    def __post_init__(self) -> None:
        if self.expected == Status.INCONCLUSIVE:
            if self.expected_reason is None:
                raise InvalidArgumentError(
                    f"expected_reason: claim {self.id} expects inconclusive, so it "
                    "names the Reason (e.g. Reason.STATISTICAL)"
                )
            if self.expected_reason == Reason.CRASH:
                raise InvalidArgumentError(
                    f"expected_reason: claim {self.id} may not expect a crash"
                )
        elif self.expected_reason is not None:
            raise InvalidArgumentError(
                f"expected_reason: claim {self.id} expects {self.expected}, so "
                f"expected_reason must be None, got {self.expected_reason!r}"
            )
        if not self.budget_seconds > 0:
            raise InvalidArgumentError(
                f"budget_seconds: must be > 0, got {self.budget_seconds!r}"
            )

    @property
    def id(self) -> str:
        """``source:equation:label``, unique across the registry."""
        return f"{self.source}:{self.equation}:{self.label}"


@dataclass(frozen=True)
class Result:
    """A claim, the verdict its check returned and the seconds it took."""

    claim: Claim
    verdict: Verdict
    seconds: float

    @property
    def as_expected(self) -> bool:
        """Whether the verdict is the one the registry expects: the same status
        and, for ``inconclusive``, the same reason (a crash never matches)."""
        return (
            self.verdict.status == self.claim.expected
            and self.verdict.reason == self.claim.expected_reason
        )

    def as_record(self) -> dict[str, Any]:
        """The JSON record printed by ``implicit-bias verify --json``."""
        record: dict[str, Any] = {
            "id": self.claim.id,
            "source": self.claim.source,
            "equation": self.claim.equation,
            "kind": str(self.claim.kind),
            "statement": self.claim.statement,
            "status": str(self.verdict.status),
            "expected": str(self.claim.expected),
            "detail": self.verdict.detail,
            "reason": None if self.verdict.reason is None else str(self.verdict.reason),
            "expected_reason": (
                None
                if self.claim.expected_reason is None
                else str(self.claim.expected_reason)
            ),
            "seconds": round(self.seconds, 3),
            "assumptions": list(self.claim.assumptions),
        }
        if self.claim.corrects is not None:
            record["corrects"] = self.claim.corrects
        return record


class CheckTimeout(Exception):
    """A step of a check ran past the time given to it by :func:`time_limit`."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`CheckTimeout` in the block after ``seconds`` of CPU time.

    Counts this process's CPU time (``ITIMER_PROF``, delivered as
    ``SIGPROF``), so the limit does not depend on how busy the machine is;
    works in the main thread of a worker process, which is where checks run,
    and interrupts pure-Python work such as SymPy's. Nested limits keep the
    tighter one, and an outer limit keeps running (minus the time spent in
    the block) after an inner one ends.
    """
    if not seconds > 0:
        raise ValueError(f"seconds={seconds!r} must be > 0")

    def _expire(signum: int, frame: FrameType | None) -> None:
        raise CheckTimeout(f"step exceeded its {seconds:g} s CPU-time budget")

    outer_remaining, _ = signal.getitimer(signal.ITIMER_PROF)
    if outer_remaining and outer_remaining <= seconds:
        yield
        return
    previous = signal.signal(signal.SIGPROF, _expire)
    started = time.process_time()
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
        if outer_remaining:
            # Re-arm the outer limit with what is left of it; one that ran out
            # inside this block fires at once.
            spent = time.process_time() - started
            signal.setitimer(signal.ITIMER_PROF, max(outer_remaining - spent, 1e-6))


def _run_in_child(
    claim: Claim, connection: multiprocessing.connection.Connection, threads: int
) -> None:
    # Worker processes share the cores: BLAS threads beyond a worker's share
    # spin-wait against each other (small products slowed ~30x when two
    # OpenBLAS pools of 2 threads ran on 2 cores).
    threadpool_limits(limits=threads)
    # The kernel stops a check past its CPU budget (SIGXCPU at the soft limit,
    # SIGKILL a second later), even inside C code that never returns to
    # Python; no core file is written for it.
    budget = max(1, math.ceil(claim.budget_seconds))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CPU, (budget, budget + 1))
    try:
        verdict = claim.check()
        if not isinstance(verdict, Verdict):
            verdict = Verdict.inconclusive(
                f"check returned {verdict!r}, not a Verdict", Reason.CRASH
            )
    except CheckTimeout as error:
        verdict = Verdict.inconclusive(f"timed out: {error}", Reason.BUDGET)
    except Exception as error:
        last = traceback.format_exception_only(type(error), error)[-1].strip()
        verdict = Verdict.inconclusive(f"check raised {last}", Reason.CRASH)
    connection.send(verdict)
    connection.close()


def _died(claim: Claim, exitcode: int | None) -> Verdict:
    """The verdict of a worker that ended without sending one."""
    if exitcode in (-signal.SIGXCPU, -signal.SIGKILL):
        return Verdict.inconclusive(
            f"exceeded its time budget of {claim.budget_seconds:g} s of CPU time",
            Reason.BUDGET,
        )
    return Verdict.inconclusive(f"worker died (exit code {exitcode})", Reason.CRASH)


@dataclass
class _Running:
    claim: Claim
    process: Any
    connection: multiprocessing.connection.Connection
    started: float = field(default_factory=time.perf_counter)


def run_claims(
    claims: Sequence[Claim],
    *,
    workers: int | None = None,
    on_result: Callable[[Result, int, int], None] | None = None,
) -> list[Result]:
    """Check claims in parallel worker processes, each within its time budget.

    Args:
      claims: the claims to check.
      workers: concurrent processes (default: the number of CPUs).
      on_result: called as ``on_result(result, done, total)`` as each finishes.

    Returns:
      The results, in the order of ``claims``.
    """
    context = multiprocessing.get_context("fork")
    cores = os.cpu_count() or 1
    limit = max(1, workers or cores)
    threads = max(1, cores // limit)
    pending = list(enumerate(claims))
    pending.reverse()
    running: dict[int, _Running] = {}
    results: dict[int, Result] = {}

    def finish(index: int, verdict: Verdict) -> None:
        job = running.pop(index)
        job.process.join(timeout=5)
        result = Result(job.claim, verdict, time.perf_counter() - job.started)
        results[index] = result
        if on_result is not None:
            on_result(result, len(results), len(claims))

    while pending or running:
        while pending and len(running) < limit:
            index, claim = pending.pop()
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(
                target=_run_in_child, args=(claim, sender, threads), daemon=True
            )
            process.start()
            sender.close()
            running[index] = _Running(claim, process, receiver)
        ready = multiprocessing.connection.wait(
            [job.connection for job in running.values()], 0.05
        )
        for index, job in list(running.items()):
            if job.connection in ready:
                try:
                    verdict = job.connection.recv()
                except EOFError:
                    job.process.join(timeout=5)
                    verdict = _died(job.claim, job.process.exitcode)
                finish(index, verdict)
            elif (
                time.perf_counter() - job.started
                > WALL_BACKSTOP_FACTOR * job.claim.budget_seconds
            ):
                job.process.kill()
                finish(
                    index,
                    Verdict.inconclusive(
                        f"exceeded its wall-clock backstop of "
                        f"{WALL_BACKSTOP_FACTOR * job.claim.budget_seconds:g} s "
                        f"({WALL_BACKSTOP_FACTOR:g} x its "
                        f"{job.claim.budget_seconds:g} s CPU budget) while waiting",
                        Reason.BUDGET,
                    ),
                )
    return [results[i] for i in range(len(claims))]


def in_paper_order(
    claims: Iterable[Claim], positions: Mapping[str, float] | None = None
) -> tuple[Claim, ...]:
    """The claims sorted stably by where their equation is printed in the paper.

    An equation ``"12"`` or a range ``"17-18"`` sorts at 12 or 17; any other
    label (``"sec-3.1"``, ``"prop-3"``) at ``positions[label]``, a number
    placing it between the equations around it (e.g. 9.5 between (9) and
    (10)). Claims at the same place keep their order.

    Raises:
      ValueError: a label is neither a number, a range nor in ``positions``.

    Examples:
      >>> claims = [Claim("s", label, label, Kind.NUMERIC, "", print, Status.HOLDS)
      ...           for label in ("12", "sec-3.1", "2", "17-18")]
      >>> [c.equation for c in in_paper_order(claims, {"sec-3.1": 9.5})]
      ['2', 'sec-3.1', '12', '17-18']
    """
    places = dict(positions or {})

    def place(claim: Claim) -> float:
        if claim.equation in places:
            return places[claim.equation]
        first = claim.equation.split("-")[0]
        if first.isdigit():
            return float(first)
        raise ValueError(
            f"equation={claim.equation!r} of {claim.id} is not a number or range; "
            "give its position in the paper"
        )

    return tuple(sorted(claims, key=place))


def unique_ids(claims: Iterable[Claim]) -> list[Claim]:
    """Return the claims as a list, raising if two share an id."""
    seen: dict[str, Claim] = {}
    for claim in claims:
        if claim.id in seen:
            raise ValueError(f"duplicate claim id {claim.id!r}")
        seen[claim.id] = claim
    return list(seen.values())
