"""How a worker process lives and dies: a process group of its own, death
with the thread that forked it, and no process its tasks leave behind.

The workers of :mod:`implicit_bias.claims.workers` call
:func:`_become_worker` when forked and run each task under
:func:`_task_processes`; the runner ends a worker it stops or loses with
:func:`_end_group`. Linux adds ``prctl``: a parent-death signal and the
adoption of orphaned processes, which are then ended after each task.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Iterator
from types import FrameType


def _die_with_parent(parent: int) -> None:
    """Have the kernel send this child SIGTERM when the thread that forked it
    ends (which :func:`_become_worker` makes end the child's group).

    Without it, a child whose parent was killed (a Dask worker lost
    mid-claim, ``verify`` killed by SIGKILL) would run on, unwatched, until
    its CPU budget or for ever if it waits. Linux only
    (``prctl(PR_SET_PDEATHSIG)``); elsewhere a no-op.
    """
    if not sys.platform.startswith("linux"):
        return
    _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:
        # The parent died before the request took effect.
        os._exit(1)


#: Linux's ``prctl`` options used here (``<linux/prctl.h>``).
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


def _prctl(option: int, value: int) -> None:
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)


def _become_worker(parent: int) -> None:
    """Make a freshly forked process a worker of ``parent``'s run.

    It leads a process group of its own, which the processes its tasks
    start join: the runner ends the group whenever it ends or loses the
    worker (:func:`_end_group`), and SIGTERM -- also what the worker gets
    when the thread that forked it ends (:func:`_die_with_parent`) -- ends
    the group from inside. The terminal's Ctrl-C goes to the runner, which
    stops its workers. What it prints goes to the run's standard error, so
    that a check's output never mixes with the command's own (``verify
    --json``). On Linux it adopts the processes a task orphans
    (``PR_SET_CHILD_SUBREAPER``), so that :func:`_task_processes` can end
    them when the task returns.
    """
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    # SIGTERM, and the parent's death (which sends it), end the worker's
    # whole group: the worker and every process its tasks started.
    signal.signal(signal.SIGTERM, _end_own_group)
    _die_with_parent(parent)
    # In a group of its own, the worker no longer gets the terminal's Ctrl-C
    # (the runner does, and stops it); what it starts gets SIGINT's default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    with contextlib.suppress(OSError):
        os.dup2(2, 1)
    # The stream object too: it may write elsewhere than descriptor 1 (a
    # capturing test runner's, a notebook's).
    sys.stdout = sys.stderr
    if sys.platform.startswith("linux"):
        _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def _end_own_group(signum: int, frame: FrameType | None) -> None:
    """End this worker and every process of its group (a signal handler)."""
    os.killpg(0, signal.SIGKILL)


def _own_group(pid: int | None) -> None:
    """Make the freshly forked worker ``pid`` lead a process group, as it does
    itself (:func:`_become_worker`): whichever runs first, the group exists
    before the runner may have to end it."""
    if pid is None:
        return
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)


def _end_group(pid: int | None) -> None:
    """Kill worker ``pid`` and the processes of its group (what its tasks
    started, which would otherwise outlive it holding the run's output)."""
    if pid is None:
        return
    for kill in (os.killpg, os.kill):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            kill(pid, signal.SIGKILL)


def _flush_standard_streams() -> None:
    """Write out what this process buffered before a fork copies the buffer
    (the child would print it again)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()


#: How many rounds :func:`_end_descendants` kills what it finds: each round
#: ends the processes whose parents the previous one killed.
_MAX_KILL_ROUNDS = 64


@contextlib.contextmanager
def _task_processes(worker: int) -> Iterator[None]:
    """Let a task's processes end with it.

    A copy of the worker that the task forked (``os.fork()`` in a check)
    returns from the task too: it exits here instead of serving tasks, or
    sending a value, as a second worker nobody waits for (holding the run's
    output open for ever). After the task, the worker ends every process
    the task left below it (Linux).
    """
    try:
        yield
    finally:
        if os.getpid() != worker:
            _flush_standard_streams()
            os._exit(0)
        _end_descendants()


def _multiprocessing_helpers() -> set[int]:
    """The pids of the helper processes :mod:`multiprocessing` keeps for the
    life of the process it serves (its resource tracker, its fork server).

    They outlive a task by design: a task that started one (a ``spawn``
    lock, a ``forkserver`` pool) leaves it to the next, which would meet a
    "process died unexpectedly" warning if it were ended.
    """
    helpers: set[int] = set()
    for module, holder, attribute in (
        ("multiprocessing.resource_tracker", "_resource_tracker", "_pid"),
        ("multiprocessing.forkserver", "_forkserver", "_forkserver_pid"),
    ):
        loaded = sys.modules.get(module)
        pid = getattr(getattr(loaded, holder, None), attribute, None)
        if isinstance(pid, int):
            helpers.add(pid)
    return helpers


def _children() -> list[int]:
    """This process's children (Linux's ``/proc/self/task/*/children``)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for thread in os.listdir("/proc/self/task"):
            with (
                contextlib.suppress(OSError),
                open(f"/proc/self/task/{thread}/children", encoding="ascii") as listing,
            ):
                found.extend(int(pid) for pid in listing.read().split())
    return found


def _end_descendants() -> None:
    """Kill and reap every process below this one (Linux; elsewhere nothing).

    A subreaper (:func:`_become_worker`) adopts the children of a child it
    kills, so the next round finds them.
    """
    if not sys.platform.startswith("linux"):
        return
    kept = _multiprocessing_helpers()
    for _ in range(_MAX_KILL_ROUNDS):
        children = [pid for pid in _children() if pid not in kept]
        if not children:
            return
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for pid in children:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
