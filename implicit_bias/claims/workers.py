"""Worker processes for checks: CPU-time and memory budgets, a wall-clock
backstop, reused workers, and children that never outlive the run.

:func:`run_in_workers` runs tasks in forked processes (reused or one per
task), :func:`run_forked` in one child forked with :func:`os.fork` (for
callers, such as a Dask worker's thread, where :mod:`multiprocessing` cannot
start one). What a task gets:

* a CPU-time budget the kernel enforces (``RLIMIT_CPU``) and a wall-clock
  backstop of :data:`WALL_BACKSTOP_FACTOR` times it;
* a memory budget (:func:`~implicit_bias.claims.worker_limits.memory_limit`,
  applied by the claim engine around each check): the address space it may
  add to its process, past which an allocation raises :class:`MemoryError`;
* a standard output that is the run's standard error, so what a check prints
  never mixes with what the command prints (``verify --json``);
* a process that dies with its parent (``prctl(PR_SET_PDEATHSIG)`` on
  Linux), leaves SIGINT to it, and ends a copy of itself that a check forked
  as soon as the copy's task returns.

It knows nothing of claims: :mod:`implicit_bias.claims.engine` builds the
tasks. How a worker process lives and dies (its process group, the
processes its tasks leave) is :mod:`implicit_bias.claims.process_groups`; its
limits are :mod:`implicit_bias.claims.worker_limits`.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import pickle
import resource
import select
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


from implicit_bias.claims.process_groups import (
    _become_worker,
    _end_group,
    _flush_standard_streams,
    _own_group,
    _task_processes,
)
from implicit_bias.claims.worker_limits import (
    _global_state_restored,
    _limit_child,
    _limit_next_task,
    _limit_threads,
    _thread_pools,
    _use_memory_budget_of,
    _warm_blas,
)
from implicit_bias.errors import InvalidArgumentError

__all__ = [
    "MAX_BUDGET_SECONDS",
    "WALL_BACKSTOP_FACTOR",
    "WorkerDeath",
    "check_budget",
    "run_forked",
    "run_in_workers",
]


WALL_BACKSTOP_FACTOR = 10.0
"""A check is killed after this many times its (CPU) budget of wall time.

Only checks that wait without computing meet it: a check computing all the
time meets its CPU budget first unless the machine gives it less than a
tenth of a core.
"""


class _TaskStarted:
    """Sent by a reused worker (the class itself) when a task reaches it: a
    worker that dies before sending it dies of something else than the task."""


def _serve_tasks(
    tasks: Sequence[tuple[Callable[[], Any], float]],
    connection: multiprocessing.connection.Connection,
    threads: int,
    parent: int,
) -> None:
    """A reused worker: run the tasks whose indices arrive, one at a time.

    The tasks came with the fork; only indices and values cross the pipe.
    A task that raises ends the worker (its parent reports the death and
    forks another), as a value that does not pickle does.
    """
    worker = os.getpid()
    _become_worker(parent)
    _limit_threads(threads)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    while True:
        index = connection.recv()
        if index is None:
            return
        connection.send(_TaskStarted)
        task, budget = tasks[index]
        _limit_next_task(budget)
        with _task_processes(worker), _global_state_restored():
            value = task()
        connection.send(value)


def _run_in_child(
    task: Callable[[], Any],
    budget_seconds: float,
    connection: multiprocessing.connection.Connection,
    threads: int,
    parent: int,
) -> None:
    worker = os.getpid()
    _become_worker(parent)
    _limit_child(budget_seconds, threads)
    with _task_processes(worker):
        value = task()
    connection.send(value)
    connection.close()


@dataclass(frozen=True)
class WorkerDeath:
    """What a task that returned nothing ran into: its budget or a crash."""

    over_budget: bool
    detail: str


MAX_BUDGET_SECONDS = 1e6
"""The largest CPU-time budget a task may have (about 11.6 days).

Larger budgets are no budget at all, and break the limits that enforce them
(``RLIMIT_CPU`` takes a C long, the wall-clock backstop a timeout that
``select`` can represent).
"""


def check_budget(name: str, seconds: object) -> float:
    """``seconds`` as a CPU-time budget in (0, :data:`MAX_BUDGET_SECONDS`].

    Raises:
      InvalidArgumentError: naming ``name``, otherwise.
    """
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not 0 < seconds <= MAX_BUDGET_SECONDS
    ):
        raise InvalidArgumentError(
            f"{name}={seconds!r}: must be a number of seconds in "
            f"(0, {MAX_BUDGET_SECONDS:g}]"
        )
    return float(seconds)


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
      InvalidArgumentError: ``workers`` is not None or an integer >= 1, a
        budget is not in (0, :data:`MAX_BUDGET_SECONDS`], or
        ``needs_warm_up`` does not give one flag a task.
    """
    for index, (_, budget) in enumerate(tasks):
        check_budget(f"tasks[{index}] budget_seconds", budget)
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
    # Read by the workers forked below (memory_limit's default).
    _use_memory_budget_of(limit)
    # Found now, for every worker of this run; forgotten after it, when the
    # process may have loaded other libraries.
    _thread_pools.cache_clear()
    _thread_pools()
    _warm_blas()
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

    try:
        while pending or running:
            while pending and len(running) < limit:
                index, (task, budget) = pending.pop()
                receiver, sender = context.Pipe(duplex=False)
                process = context.Process(
                    target=_run_in_child,
                    args=(task, budget, sender, threads, os.getpid()),
                    daemon=True,
                )
                _flush_standard_streams()
                process.start()
                _own_group(process.pid)
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
                    _end_group(job.process.pid)
                    finish(job, value)
                elif (
                    time.perf_counter() - job.started
                    > WALL_BACKSTOP_FACTOR * job.budget_seconds
                ):
                    _end_group(job.process.pid)
                    finish(job, _backstop_death(job.budget_seconds))
    finally:
        # Interrupted (Ctrl-C, SIGTERM): no task outlives the run.
        for job in running:
            _end_group(job.process.pid)
            job.process.join(timeout=5)
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
            args=(self.tasks, child_end, self.threads, os.getpid()),
            daemon=True,
        )
        _flush_standard_streams()
        process.start()
        _own_group(process.pid)
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
        _end_group(worker.process.pid)
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
        if job is None:
            raise AssertionError("job is not None")
        worker.job = None
        self.on_done(job.index, value, time.perf_counter() - job.started)

    def _receive(self, worker: _Worker) -> None:
        job = worker.job
        if job is None:
            raise AssertionError("job is not None")
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
            _end_group(worker.process.pid)
            self._retire(worker)
        if value is _TaskStarted:
            worker.started = True
            return
        self._finish(worker, value)

    def _watch(self, worker: _Worker) -> None:
        job = worker.job
        if job is None:
            raise AssertionError("job is not None")
        if (
            time.perf_counter() - job.started
            > WALL_BACKSTOP_FACTOR * job.budget_seconds
        ):
            _end_group(worker.process.pid)
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
        # Interrupted mid-task (Ctrl-C), or deaf to the request to stop: the
        # worker and whatever its tasks left in its group end here.
        _end_group(worker.process.pid)
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
    check_budget("budget_seconds", budget_seconds)
    parent = os.getpid()
    started = time.perf_counter()
    # A child forked by another thread while this pipe's write end is open
    # here would hold it too: this read would see no end of file until that
    # child exited, and a finished check would meet the backstop.
    # A cluster's worker process runs one claim per thread: each of its
    # children may use its share of the machine.
    _use_memory_budget_of(os.cpu_count() or 1)
    _warm_blas()
    with _FORK_LOCK:
        read_end, write_end = os.pipe()
        _flush_standard_streams()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            _forked_child(task, budget_seconds, write_end, threads, parent)
        _own_group(pid)
        os.close(write_end)
    deadline = started + WALL_BACKSTOP_FACTOR * budget_seconds
    chunks: list[bytes] = []
    try:
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                _end_group(pid)
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
        _end_group(pid)
        os.waitpid(pid, 0)
        raise
    finally:
        os.close(read_end)
    _, status = os.waitpid(pid, 0)
    # A child killed by its budget leaves what its task started.
    _end_group(pid)
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
    child = os.getpid()
    try:
        _become_worker(parent)
        _limit_child(budget_seconds, threads)
        with _task_processes(child):
            value = task()
        payload = pickle.dumps(value)
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
