"""The claim engine: claims, verdicts, time budgets and the runner.

A :class:`Claim` is one statement of a source paper -- its source (the paper
file's stem), its equation number as printed, its kind and assumptions -- and
a ``check`` that returns a :class:`Verdict`. Each claim also records the
verdict it is *expected* to have, so that a change flipping a verdict is
caught (``implicit-bias verify`` exits 1).

Checks run in forked worker processes, so a check that overruns its budget is
killed and reported ``inconclusive`` instead of hanging the run; inside a
check, :func:`time_limit` bounds a single step (e.g. a SymPy simplification)
so that the check can fall back to another method. A worker runs check after
check (what one cached, SymPy's caches included, serves the next), with the
process-wide state a check may change (mpmath's precision, NumPy's error
handling, warning filters, ...) restored after each; one that dies is
replaced.

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
import functools
import multiprocessing
import multiprocessing.connection
import math
import os
import pickle
import resource
import select
import signal
import sys
import threading
import time
import traceback
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import FrameType
from typing import TYPE_CHECKING, Any, Protocol

import sympy as sp
from threadpoolctl import ThreadpoolController

from implicit_bias.errors import InvalidArgumentError

if TYPE_CHECKING:
    from implicit_bias.claims.profiles import Configuration, CostEstimate

__all__ = [
    "WALL_BACKSTOP_FACTOR",
    "Basis",
    "CheckTimeout",
    "Claim",
    "Executor",
    "Kind",
    "Reading",
    "Reason",
    "Result",
    "Status",
    "Verdict",
    "WorkerDeath",
    "conjunction",
    "in_paper_order",
    "run_claims",
    "run_forked",
    "run_in_workers",
    "run_locally",
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


class Basis(enum.StrEnum):
    """What a ``holds`` or ``fails`` rests on."""

    #: Exact symbolic computation (SymPy simplifies a difference to 0, computes
    #: a limit, counts sign changes...), or exact rational arithmetic.
    PROOF = "proof"
    #: Rigorous enclosures (ball arithmetic) at the evaluated points: for a
    #: ``fails``, a counterexample whose residual is enclosed away from 0.
    CERTIFIED = "certified"
    #: Floating-point or multi-precision evaluation at finitely many points,
    #: within a tolerance derived from the precision and the method's error.
    NUMERICAL = "numerical"
    #: Random simulations: an effect measured in standard errors over seeds.
    STATISTICAL = "statistical"
    #: A search (of a domain, a grid, a set of runs) and what it found.
    SEARCH = "search"


class Reading(enum.StrEnum):
    """How a claim relates to its source's text."""

    #: An equation as the source prints it.
    PRINTED = "printed"
    #: A sentence of the source's text.
    PROSE = "prose"
    #: Our reading of something the text implies but does not state.
    INTERPRETATION = "interpretation"
    #: A statement beyond the text: another domain, a corrected form, a
    #: consequence the source does not draw.
    EXTENSION = "extension"


@dataclass(frozen=True)
class Verdict:
    """The outcome of a check: a status, its evidence, its basis and, if
    inconclusive, why.

    ``reason`` (a :class:`Reason`) is set exactly when the status is
    ``inconclusive``; ``basis`` (a :class:`Basis`) says what a ``holds`` or
    ``fails`` rests on (for an ``inconclusive`` it may say what was tried).
    """

    status: Status
    detail: str
    reason: Reason | None = None
    basis: Basis | None = None
    counterexample: str | None = None

    def __post_init__(self) -> None:
        status = Status(self.status)
        if self.basis is not None:
            object.__setattr__(self, "basis", Basis(self.basis))
        if status == Status.INCONCLUSIVE and self.reason is None:
            raise InvalidArgumentError(
                "reason: an inconclusive Verdict names its Reason"
            )
        if status != Status.INCONCLUSIVE and self.reason is not None:
            raise InvalidArgumentError(
                f"reason: must be None for a {status} Verdict, got {self.reason!r}"
            )
        if status != Status.INCONCLUSIVE and self.basis is None:
            raise InvalidArgumentError(
                f"basis: a {status} Verdict names its Basis (what it rests on)"
            )

    @classmethod
    def holds(cls, detail: str, basis: Basis) -> Verdict:
        """The statement holds; ``detail`` says how it was shown, ``basis`` on what."""
        return cls(Status.HOLDS, detail, basis=basis)

    @classmethod
    def fails(
        cls, detail: str, basis: Basis, counterexample: str | None = None
    ) -> Verdict:
        """The statement is false; ``detail`` gives the evidence, ``basis`` what
        it rests on and ``counterexample`` the point refuting it (with, when
        certified, the enclosure that excludes the statement there)."""
        return cls(Status.FAILS, detail, basis=basis, counterexample=counterexample)

    @classmethod
    def decide(cls, holds: bool, detail: str, basis: Basis) -> Verdict:
        """``holds`` if ``holds`` else ``fails``, with the same evidence and basis."""
        return cls(Status.HOLDS if holds else Status.FAILS, detail, basis=basis)

    @classmethod
    def inconclusive(
        cls,
        detail: str,
        reason: Reason = Reason.UNDECIDED,
        basis: Basis | None = None,
    ) -> Verdict:
        """The check could not decide; ``detail`` says why, ``reason`` says how."""
        return cls(Status.INCONCLUSIVE, detail, Reason(reason), basis)

    def with_detail(self, detail: str) -> Verdict:
        """The same status and reason with another ``detail``.

        For a sub-check's verdict reported under the part of a claim it checked.
        """
        return dataclasses.replace(self, detail=detail)


def conjunction(parts: Sequence[Verdict], detail: str) -> Verdict:
    """The verdict of "every part holds".

    ``fails`` if any part fails (its counterexample refutes the conjunction,
    on that part's basis), else ``inconclusive`` with the first undecided
    part's reason if any part is undecided, else ``holds`` on the weakest of
    the parts' bases (a proof and a numerical check make a numerical check).

    Raises:
      InvalidArgumentError: ``parts`` is empty (nothing was shown).
    """
    if not parts:
        raise InvalidArgumentError("parts: a conjunction needs at least one verdict")
    for part in parts:
        if part.status == Status.FAILS:
            return part.with_detail(detail)
    for part in parts:
        if part.status == Status.INCONCLUSIVE:
            return part.with_detail(detail)
    bases = [part.basis for part in parts if part.basis is not None]
    return Verdict.holds(
        detail, max(bases, key=_BASIS_STRENGTH.index, default=Basis.PROOF)
    )


#: Bases from the strongest to the weakest.
_BASIS_STRENGTH = (
    Basis.PROOF,
    Basis.CERTIFIED,
    Basis.NUMERICAL,
    Basis.SEARCH,
    Basis.STATISTICAL,
)


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
      formula: builds the SymPy relation the claim states, for LaTeX; by
        default the relation of a check that takes it
        (:class:`~implicit_bias.claims.checks.RelationCheck`).
      slow: skipped by ``verify --quick``.
      budget_seconds: CPU-time budget of the check (seconds), past which it
        is killed and ``inconclusive``; see the module docstring.
      quote: the source's words or equation this claim encodes, verbatim and
        short ("" only for an ``extension`` beyond anything the source says).
      reading: how the claim relates to the text, a :class:`Reading`.
      regime: the domain the claim is checked on and where the source states
        or uses it (e.g. "gamma in [1e-3, 1e-1], the range of Fig. 1a").
      cost: estimates the check's CPU seconds without running it, for
        ``verify --plan`` (:class:`~implicit_bias.claims.profiles.CostEstimate`);
        simulations give one, from a measured per-step cost.
      paper: the claim at the source's own configuration, run by
        ``verify --profile paper``
        (:class:`~implicit_bias.claims.profiles.Configuration`).
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
    quote: str = ""
    reading: Reading | None = None
    regime: str = ""
    cost: Callable[[], CostEstimate] | None = None
    paper: Configuration | None = None

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
        if self.reading is not None:
            object.__setattr__(self, "reading", Reading(self.reading))
        relation = getattr(self.check, "relation", None)
        if self.formula is None and callable(relation):
            # A check that takes its relation (checks.RelationCheck) typesets it.
            object.__setattr__(self, "formula", relation)

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
            "basis": None if self.verdict.basis is None else str(self.verdict.basis),
            "counterexample": self.verdict.counterexample,
            "quote": self.claim.quote,
            "reading": None if self.claim.reading is None else str(self.claim.reading),
            "regime": self.claim.regime,
            "seconds": round(self.seconds, 3),
            "assumptions": list(self.claim.assumptions),
        }
        if self.claim.corrects is not None:
            record["corrects"] = self.claim.corrects
        return record


_REPEAT_SECONDS = 0.05


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
    armed = True

    def _expire(signum: int, frame: FrameType | None) -> None:
        if armed:
            raise CheckTimeout(f"step exceeded its {seconds:g} s CPU-time budget")

    outer_remaining, outer_interval = signal.getitimer(signal.ITIMER_PROF)
    if outer_remaining and outer_remaining <= seconds:
        yield
        return
    previous = signal.signal(signal.SIGPROF, _expire)
    started = time.process_time()
    # The timer repeats: a signal that lands in code which swallows exceptions
    # (a garbage-collector callback, a __del__) would otherwise be lost and
    # leave the step unbounded.
    signal.setitimer(signal.ITIMER_PROF, seconds, _REPEAT_SECONDS)
    try:
        yield
    finally:
        armed = False
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
        if outer_remaining:
            # Re-arm the outer limit with what is left of it; one that ran out
            # inside this block fires at once.
            spent = time.process_time() - started
            signal.setitimer(
                signal.ITIMER_PROF,
                max(outer_remaining - spent, 1e-6),
                outer_interval,
            )


def _claim_verdict(claim: Claim) -> Verdict:
    """Run a claim's check (in a worker): a crash or a timeout is a verdict too."""
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
    return verdict


#: Variables that size the thread pool of a BLAS or OpenMP library loaded
#: after a worker started (e.g. by a lazily imported SciPy).
_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


@functools.cache
def _thread_pools() -> ThreadpoolController:
    """The BLAS and OpenMP libraries this process has loaded, found once.

    Found in the parent before it forks, the search is inherited by every
    worker instead of repeated in each (about 15 ms a worker).
    """
    return ThreadpoolController()


def _limit_child(budget_seconds: float, threads: int) -> None:
    """Put a freshly forked worker under its BLAS threads and CPU budget."""
    _limit_threads(threads)
    # The kernel stops a task past its CPU budget (SIGXCPU at the soft limit,
    # SIGKILL a second later), even inside C code that never returns to
    # Python; no core file is written for it.
    budget = max(1, math.ceil(budget_seconds))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CPU, (budget, budget + 1))


def _limit_threads(threads: int) -> None:
    """Size this worker's BLAS and OpenMP pools, loaded and yet to load."""
    # Worker processes share the cores: BLAS threads beyond a worker's share
    # spin-wait against each other (small products slowed ~30x when two
    # OpenBLAS pools of 2 threads ran on 2 cores).
    _thread_pools().limit(limits=threads)
    for variable in _THREAD_VARIABLES:
        os.environ[variable] = str(threads)


def _limit_next_task(budget_seconds: float) -> None:
    """Let a reused worker spend ``budget_seconds`` more CPU, and no more.

    ``RLIMIT_CPU`` counts the process's CPU time since it was forked, so the
    soft limit moves up by the task's budget from what the worker has used.
    The default action of the SIGXCPU it raises ends the process even inside
    C code. The hard limit is left as it is: an unprivileged process cannot
    raise it again for the next task.
    """
    usage = resource.getrusage(resource.RUSAGE_SELF)
    soft = math.ceil(usage.ru_utime + usage.ru_stime + max(budget_seconds, 1.0))
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


@contextlib.contextmanager
def _global_state_restored() -> Iterator[None]:
    """Undo, after a task, what it changed of the process-wide state a check
    may touch: mpmath's precision, NumPy's floating-point error handling, print
    options and legacy random state, Python's :mod:`random` state, warning
    filters, SymPy's global evaluation flags and random generators, the
    working directory, the environment and the recursion limit.

    A reused worker runs many checks in turn; a check that sets, say,
    ``mp.dps = 50`` and returns must not change the verdicts of the checks
    after it.
    """
    import random

    import mpmath
    import numpy as np
    import sympy.core.random as sympy_rng
    from sympy.core.parameters import global_parameters

    precision = mpmath.mp.prec
    errors = np.geterr()
    print_options = np.get_printoptions()
    # The legacy global generator is what a careless check would seed.
    legacy_random = np.random.get_state()  # noqa: NPY002
    python_random = random.getstate()
    flags = (
        global_parameters.evaluate,
        global_parameters.distribute,
        global_parameters.exp_is_pow,
    )
    sympy_random = (sympy_rng.rng.getstate(), sympy_rng._assumptions_rng.getstate())
    directory = os.getcwd()
    environment = dict(os.environ)
    recursion = sys.getrecursionlimit()
    try:
        with warnings.catch_warnings():
            yield
    finally:
        mpmath.mp.prec = precision
        np.seterr(**errors)
        np.set_printoptions(**print_options)
        np.random.set_state(legacy_random)  # noqa: NPY002
        random.setstate(python_random)
        (
            global_parameters.evaluate,
            global_parameters.distribute,
            global_parameters.exp_is_pow,
        ) = flags
        sympy_rng.rng.setstate(sympy_random[0])
        sympy_rng._assumptions_rng.setstate(sympy_random[1])
        os.chdir(directory)
        if os.environ != environment:
            os.environ.clear()
            os.environ.update(environment)
        sys.setrecursionlimit(recursion)


class _TaskStarted:
    """Sent by a reused worker (the class itself) when a task reaches it: a
    worker that dies before sending it dies of something else than the task."""


def _serve_tasks(
    tasks: Sequence[tuple[Callable[[], Any], float]],
    connection: multiprocessing.connection.Connection,
    threads: int,
) -> None:
    """A reused worker: run the tasks whose indices arrive, one at a time.

    The tasks came with the fork; only indices and values cross the pipe.
    A task that raises ends the worker (its parent reports the death and
    forks another), as a value that does not pickle does.
    """
    _limit_threads(threads)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    while True:
        index = connection.recv()
        if index is None:
            return
        connection.send(_TaskStarted)
        task, budget = tasks[index]
        _limit_next_task(budget)
        with _global_state_restored():
            value = task()
        connection.send(value)


def _run_in_child(
    task: Callable[[], Any],
    budget_seconds: float,
    connection: multiprocessing.connection.Connection,
    threads: int,
) -> None:
    _limit_child(budget_seconds, threads)
    connection.send(task())
    connection.close()


@dataclass(frozen=True)
class WorkerDeath:
    """What a task that returned nothing ran into: its budget or a crash."""

    over_budget: bool
    detail: str


@dataclass
class _Running:
    index: int
    budget_seconds: float
    process: Any
    connection: multiprocessing.connection.Connection
    started: float = field(default_factory=time.perf_counter)


def run_in_workers(
    tasks: Sequence[tuple[Callable[[], Any], float]],
    *,
    workers: int | None = None,
    on_done: Callable[[int, Any, float], None],
    reuse_workers: bool = False,
    warm_up: Callable[[], object] | None = None,
    needs_warm_up: Sequence[bool] | None = None,
) -> None:
    """Run ``(task, budget_seconds)`` pairs in forked worker processes.

    Each task runs under its CPU-time budget (see the module docstring) and a
    wall-clock backstop; ``on_done(index, value, seconds)`` receives its
    return value, or a :class:`WorkerDeath` when the worker ended without one.
    Tasks need not be picklable (the workers are forked); return values must.

    Args:
      tasks: the ``(task, budget_seconds)`` pairs.
      workers: processes at a time (default: the number of CPUs).
      on_done: called in this process as each task ends.
      reuse_workers: False forks a process per task, which ends with it.
        True keeps ``workers`` processes, each running task after task, so
        that what one task computed and cached (SymPy's caches, a
        ``functools.cache``) is there for the next; the process-wide state
        a task may change is restored after it (:func:`_global_state_restored`)
        and a worker that dies is replaced. Tasks that patch code (mutants)
        need False.
      warm_up: work done once in this process and inherited by the workers
        forked after it (see :class:`~implicit_bias.claims.source.Source`).
        With ``reuse_workers`` and two or more workers it runs in a thread of
        this process while workers forked before it run the tasks that do not
        need it; otherwise it runs before any task.
      needs_warm_up: for each task, whether it must run after ``warm_up``
        (default: every task).

    Raises:
      InvalidArgumentError: ``workers`` is not None or an integer >= 1, or
        ``needs_warm_up`` does not give one flag a task.
    """
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int) or workers < 1
    ):
        raise InvalidArgumentError(
            f"workers={workers!r}: must be an integer >= 1 (processes), "
            "or None for one per CPU"
        )
    flags = [True] * len(tasks) if needs_warm_up is None else list(needs_warm_up)
    if len(flags) != len(tasks):
        raise InvalidArgumentError(
            f"needs_warm_up: one flag per task ({len(tasks)}), got {len(flags)}"
        )
    context = multiprocessing.get_context("fork")
    cores = os.cpu_count() or 1
    limit = max(1, workers or cores)
    threads = max(1, cores // limit)
    # Found now, for every worker of this run; forgotten after it, when the
    # process may have loaded other libraries.
    _thread_pools.cache_clear()
    _thread_pools()
    if reuse_workers:
        pool = _WorkerPool(tasks, limit, threads, on_done, context)
        pool.run(warm_up, flags)
        _thread_pools.cache_clear()
        return
    if warm_up is not None:
        warm_up()
    pending = list(enumerate(tasks))
    pending.reverse()
    running: list[_Running] = []

    def finish(job: _Running, value: Any) -> None:
        running.remove(job)
        job.process.join(timeout=5)
        on_done(job.index, value, time.perf_counter() - job.started)

    while pending or running:
        while pending and len(running) < limit:
            index, (task, budget) = pending.pop()
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(
                target=_run_in_child, args=(task, budget, sender, threads), daemon=True
            )
            process.start()
            sender.close()
            running.append(_Running(index, budget, process, receiver))
        ready = multiprocessing.connection.wait(
            [job.connection for job in running], 0.05
        )
        for job in list(running):
            if job.connection in ready:
                try:
                    value = job.connection.recv()
                except EOFError:
                    job.process.join(timeout=5)
                    value = _death(job.budget_seconds, job.process.exitcode)
                finish(job, value)
            elif (
                time.perf_counter() - job.started
                > WALL_BACKSTOP_FACTOR * job.budget_seconds
            ):
                job.process.kill()
                finish(job, _backstop_death(job.budget_seconds))
    _thread_pools.cache_clear()


@dataclass
class _Worker:
    """A reused worker process, whether it was forked after the warm-up, and
    the task it is running, if any."""

    process: Any
    connection: multiprocessing.connection.Connection
    warm: bool
    job: _Running | None = None
    #: Whether the job reached the worker (it said so).
    started: bool = False


class _WorkerPool:
    """``workers`` forked processes that run the tasks in the order given.

    The tasks are handed out one at a time, so a long one holds up no other;
    a worker that dies (its budget, a crash) or meets the backstop is
    replaced by a fresh fork of this process. Workers forked before the
    warm-up ended ("cold") take only tasks that do not need it, and one left
    with none is stopped so that a warm one takes its place.
    """

    def __init__(
        self,
        tasks: Sequence[tuple[Callable[[], Any], float]],
        limit: int,
        threads: int,
        on_done: Callable[[int, Any, float], None],
        context: Any,
    ) -> None:
        self.tasks = tasks
        self.limit = limit
        self.threads = threads
        self.on_done = on_done
        self.context = context
        self.pending = list(range(len(tasks)))
        self.pending.reverse()
        self.workers: list[_Worker] = []
        self.needs_warm_up: Sequence[bool] = [False] * len(tasks)
        self.warm = True
        self.refusals: dict[int, int] = {}

    def run(
        self, warm_up: Callable[[], object] | None, needs_warm_up: Sequence[bool]
    ) -> None:
        self.needs_warm_up = needs_warm_up
        warming: _WarmUp | None = None
        if warm_up is not None:
            self.warm = False
            if self.limit >= 2 and not all(needs_warm_up):
                # The warm-up takes one core; the other workers start now on
                # the tasks that can do without it. Forked before the thread
                # starts: no fork while it runs.
                self._hand_out(self.limit - 1)
                warming = _WarmUp(warm_up, self.threads)
            else:
                warm_up()
                self.warm = True
        try:
            while self.pending or any(w.job for w in self.workers) or warming:
                if warming is not None and warming.finished():
                    warming = None
                    self.warm = True
                if warming is None:
                    self._hand_out(self.limit)
                else:
                    self._hand_out_without_forking()
                busy = [w for w in self.workers if w.job is not None]
                ready = multiprocessing.connection.wait(
                    [w.connection for w in busy], 0.05
                )
                for worker in busy:
                    if worker.connection in ready:
                        self._receive(worker)
                    else:
                        self._watch(worker)
        finally:
            # A warm-up still running (the run was interrupted) is left to
            # end with this process: its thread is a daemon.
            for worker in list(self.workers):
                self._stop(worker)

    def _next_task(self, worker_warm: bool) -> int | None:
        """The first pending task a worker (warm or cold) may run, taken off."""
        for position in range(len(self.pending) - 1, -1, -1):
            index = self.pending[position]
            if worker_warm or not self.needs_warm_up[index]:
                del self.pending[position]
                return index
        return None

    def _hand_out_without_forking(self) -> None:
        for worker in list(self.workers):
            if worker.job is None:
                index = self._next_task(worker.warm)
                if index is not None:
                    self._give(worker, index)

    def _hand_out(self, capacity: int) -> None:
        for worker in list(self.workers):
            if worker.job is not None:
                continue
            index = self._next_task(worker.warm)
            if index is not None:
                self._give(worker, index)
            elif self.warm and self.pending:
                # A cold worker with nothing it may run: a warm fork replaces it.
                self._stop(worker)
        while self.pending and len(self.workers) < capacity:
            index = self._next_task(self.warm)
            if index is None:
                return
            self._give(self._fork(), index)

    def _fork(self) -> _Worker:
        parent_end, child_end = self.context.Pipe(duplex=True)
        process = self.context.Process(
            target=_serve_tasks,
            args=(self.tasks, child_end, self.threads),
            daemon=True,
        )
        process.start()
        child_end.close()
        worker = _Worker(process, parent_end, self.warm)
        self.workers.append(worker)
        return worker

    def _give(self, worker: _Worker, index: int) -> None:
        try:
            worker.connection.send(index)
        except OSError:
            self._refused(worker, index)
            return
        worker.job = _Running(
            index, self.tasks[index][1], worker.process, worker.connection
        )
        worker.started = False

    def _refused(self, worker: _Worker, index: int) -> None:
        """The worker died before ``index`` reached it (idle, of a signal or a
        thread its last task left behind): the task goes to the next worker,
        unless workers keep dying."""
        worker.process.join(timeout=5)
        self._retire(worker)
        self.refusals[index] = self.refusals.get(index, 0) + 1
        if self.refusals[index] < _MAX_REFUSALS:
            self.pending.append(index)
            return
        self.on_done(
            index,
            WorkerDeath(
                False,
                f"{_MAX_REFUSALS} workers died before the task reached them "
                f"(the last with exit code {worker.process.exitcode})",
            ),
            0.0,
        )

    def _finish(self, worker: _Worker, value: Any) -> None:
        job = worker.job
        assert job is not None
        worker.job = None
        self.on_done(job.index, value, time.perf_counter() - job.started)

    def _receive(self, worker: _Worker) -> None:
        job = worker.job
        assert job is not None
        try:
            value = worker.connection.recv()
        except (EOFError, ConnectionResetError):
            # Reset, not an end of file, when the worker died with the index
            # sent to it unread.
            if not worker.started:
                worker.job = None
                self._refused(worker, job.index)
                return
            worker.process.join(timeout=5)
            value = _death(job.budget_seconds, worker.process.exitcode)
            self._retire(worker)
        if value is _TaskStarted:
            worker.started = True
            return
        self._finish(worker, value)

    def _watch(self, worker: _Worker) -> None:
        job = worker.job
        assert job is not None
        if (
            time.perf_counter() - job.started
            > WALL_BACKSTOP_FACTOR * job.budget_seconds
        ):
            worker.process.kill()
            worker.process.join(timeout=5)
            self._retire(worker)
            self._finish(worker, _backstop_death(job.budget_seconds))

    def _retire(self, worker: _Worker) -> None:
        self.workers.remove(worker)
        worker.connection.close()

    def _stop(self, worker: _Worker) -> None:
        if worker.job is None:
            with contextlib.suppress(OSError):
                worker.connection.send(None)
            worker.process.join(timeout=5)
        if worker.process.is_alive():
            # Interrupted mid-task (Ctrl-C), or deaf to the request to stop.
            worker.process.kill()
            worker.process.join(timeout=5)
        self._retire(worker)


class _WarmUp:
    """A warm-up running in a thread of the runner's process.

    Its BLAS runs on a worker's share of the cores (the workers started
    beside it have the rest); an exception it raises is raised again in the
    runner when it ends.
    """

    def __init__(self, warm_up: Callable[[], object], threads: int) -> None:
        self.error: BaseException | None = None

        def run() -> None:
            try:
                with _thread_pools().limit(limits=threads):
                    warm_up()
            except BaseException as error:
                self.error = error

        self.thread = threading.Thread(target=run, name="warm-up", daemon=True)
        self.thread.start()

    def finished(self) -> bool:
        if self.thread.is_alive():
            return False
        self.thread.join()
        if self.error is not None:
            raise self.error
        return True


def _backstop_death(budget_seconds: float) -> WorkerDeath:
    """What became of a worker killed by the wall-clock backstop."""
    return WorkerDeath(
        True,
        f"exceeded its wall-clock backstop of "
        f"{WALL_BACKSTOP_FACTOR * budget_seconds:g} s "
        f"({WALL_BACKSTOP_FACTOR:g} x its "
        f"{budget_seconds:g} s CPU budget) while waiting",
    )


def _death(budget_seconds: float, exitcode: int | None) -> WorkerDeath:
    """What became of a worker that ended without sending a value."""
    if exitcode in (-signal.SIGXCPU, -signal.SIGKILL):
        return WorkerDeath(
            True, f"exceeded its time budget of {budget_seconds:g} s of CPU time"
        )
    return WorkerDeath(False, f"worker died (exit code {exitcode})")


#: How many workers may die idle, each before a task sent to it reached it,
#: before the task is reported lost with them.
_MAX_REFUSALS = 3


#: Held by :func:`run_forked` from a pipe's creation until its parent closes
#: the pipe's write end, so that no other thread forks in between.
_FORK_LOCK = threading.Lock()


def run_forked(
    task: Callable[[], Any], budget_seconds: float, *, threads: int = 1
) -> tuple[Any, float]:
    """Run ``task`` in a child forked with :func:`os.fork`; wait for its value.

    The same limits as :func:`run_in_workers` (a CPU-time budget, a
    wall-clock backstop, ``threads`` BLAS threads), for callers where
    :mod:`multiprocessing` cannot start a child: a thread of a daemonic
    process, such as a task on a Dask worker. The child dies with the thread
    that forked it and waits for it (Linux), and is killed if the wait is
    interrupted.

    Returns:
      The task's return value (which must pickle), or a :class:`WorkerDeath`
      when the child ended without one, and the wall seconds it took.
    """
    parent = os.getpid()
    started = time.perf_counter()
    # A child forked by another thread while this pipe's write end is open
    # here would hold it too: this read would see no end of file until that
    # child exited, and a finished check would meet the backstop.
    with _FORK_LOCK:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            _forked_child(task, budget_seconds, write_end, threads, parent)
        os.close(write_end)
    deadline = started + WALL_BACKSTOP_FACTOR * budget_seconds
    chunks: list[bytes] = []
    try:
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return _backstop_death(budget_seconds), time.perf_counter() - started
            readable, _, _ = select.select([read_end], [], [], remaining)
            if readable:
                chunk = os.read(read_end, 1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
    except BaseException:
        # Interrupted (Ctrl-C): no child outlives the wait for it.
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise
    finally:
        os.close(read_end)
    _, status = os.waitpid(pid, 0)
    exitcode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - started
    if exitcode == 0 and chunks:
        return pickle.loads(b"".join(chunks)), seconds
    return _death(budget_seconds, exitcode), seconds


def _forked_child(
    task: Callable[[], Any],
    budget_seconds: float,
    write_end: int,
    threads: int,
    parent: int,
) -> None:
    """The child of :func:`run_forked`: it never returns, it exits."""
    code = 1
    try:
        _die_with_parent(parent)
        _limit_child(budget_seconds, threads)
        payload = pickle.dumps(task())
        with os.fdopen(write_end, "wb") as stream:
            stream.write(payload)
        code = 0
    except BaseException:
        traceback.print_exc()
    finally:
        # What the check printed: os._exit flushes nothing, and must not run
        # the at-exit handlers, which are the parent's.
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def _die_with_parent(parent: int) -> None:
    """Have the kernel kill this child when the thread that forked it ends.

    Without it, a child whose parent was killed (a Dask worker lost
    mid-claim) would run on, unwatched, until its CPU budget or for ever if
    it waits. Linux only (``prctl(PR_SET_PDEATHSIG)``); elsewhere a no-op.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() != parent:
        # The parent died before the request took effect.
        os._exit(1)


class Executor(Protocol):
    """Runs checks somewhere and reports each claim's outcome once
    (implementations: :mod:`implicit_bias.claims.executors`)."""

    def run(
        self, claims: Sequence[Claim], on_done: Callable[[int, Any, float], None]
    ) -> None:
        """Check every claim; call ``on_done(index, outcome, seconds)`` exactly
        once per claim, as each finishes, the outcome a :class:`Verdict` or a
        :class:`WorkerDeath` (budget or crash)."""


def run_locally(
    claims: Sequence[Claim],
    on_done: Callable[[int, Any, float], None],
    *,
    workers: int | None = None,
    warm_up: Callable[[], object] | None = None,
    needs_warm_up: Callable[[Claim], bool] | None = None,
    isolate: bool = False,
) -> None:
    """Check the claims in forked local processes (:func:`run_in_workers`);
    the default :class:`Executor`'s work.

    ``warm_up`` (if given) runs once in this process, inherited by the
    workers of the claims for which ``needs_warm_up`` is true (default: all);
    the others may run beside it. ``isolate`` runs each claim in a process
    of its own instead of reused workers (slower: no cache carries over).
    """
    run_in_workers(
        [(functools.partial(_claim_verdict, c), c.budget_seconds) for c in claims],
        workers=workers,
        on_done=on_done,
        reuse_workers=not isolate,
        warm_up=warm_up,
        needs_warm_up=(
            None if needs_warm_up is None else [needs_warm_up(c) for c in claims]
        ),
    )


def run_claims(
    claims: Sequence[Claim],
    *,
    workers: int | None = None,
    on_result: Callable[[Result, int, int], None] | None = None,
    executor: Executor | None = None,
    warm_up: Callable[[], object] | None = None,
    needs_warm_up: Callable[[Claim], bool] | None = None,
) -> list[Result]:
    """Check claims in parallel worker processes, each within its time budget.

    Args:
      claims: the claims to check.
      workers: concurrent processes (default: the number of CPUs) of the
        default executor.
      on_result: called as ``on_result(result, done, total)`` as each finishes.
      executor: where the checks run
        (:mod:`~implicit_bias.claims.executors`); by default local forked
        processes, ``LocalExecutor(workers)``.
      warm_up: work done once in this process before the claims for which
        ``needs_warm_up`` is true (default: all) start, inherited by the
        workers forked after it (:func:`run_locally`); not run with an
        ``executor``, whose workers are other processes.
      needs_warm_up: which claims read what ``warm_up`` computes.

    Returns:
      The results, in the order of ``claims``: one per claim, whatever became
      of its worker.

    Raises:
      InvalidArgumentError: ``workers`` is given with an ``executor``.
    """
    if executor is not None and workers is not None:
        raise InvalidArgumentError(
            f"workers={workers!r}: given with executor={executor!r}, which has "
            "its own; give workers to LocalExecutor instead"
        )
    results: dict[int, Result] = {}

    def done(index: int, value: Any, seconds: float) -> None:
        if index in results:
            # A second arrival (a task the cluster ran twice) is not a record.
            return
        if isinstance(value, WorkerDeath):
            value = Verdict.inconclusive(
                value.detail, Reason.BUDGET if value.over_budget else Reason.CRASH
            )
        result = Result(claims[index], value, seconds)
        results[index] = result
        if on_result is not None:
            on_result(result, len(results), len(claims))

    if executor is None:
        run_locally(
            claims, done, workers=workers, warm_up=warm_up, needs_warm_up=needs_warm_up
        )
    else:
        executor.run(claims, done)
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
