"""What a worker process may use and must give back: CPU-time and memory
budgets, BLAS threads, and the process-wide state restored after each task.

Used by :mod:`implicit_bias.claims.workers` in the processes it forks, and by
the claim engine around each check (:func:`memory_limit`).
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import resource
import signal
import sys
import warnings
from collections.abc import Iterator

from threadpoolctl import ThreadpoolController

from implicit_bias.errors import InvalidArgumentError

__all__ = ["MEMORY_SHARE", "memory_budget", "memory_limit"]


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


def _warm_blas() -> None:
    """Run one small matrix product here, before the workers are forked.

    A BLAS library allocates its work buffers at its first product: done in
    the runner, they are inherited by every worker instead of counted against
    the memory budget of the first claim that multiplies matrices there (a
    verdict must not depend on which claim a worker ran first).
    """
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        # Large enough that the library runs it on all its threads, each of
        # which allocates its own buffer (a 64 x 64 product used one).
        square = numpy.ones((512, 512))
        square @ square


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
    working directory, the environment, the recursion limit and the SIGTERM
    handler.

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
    # The worker's SIGTERM handler ends its process group (workers.py).
    terminate = signal.getsignal(signal.SIGTERM)
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
        signal.signal(signal.SIGTERM, terminate)


#: The share of the machine's memory that the workers of one run may take
#: together (the rest is for the runner, the page cache and other work).
MEMORY_SHARE = 0.75

#: The memory budget a task gets unless it asks for one: set by
#: :func:`_use_memory_budget_of` before a run forks its workers.
_run_memory_budget: int | None = None


def _use_memory_budget_of(workers: int) -> None:
    """Give the tasks of the processes forked from now on the default memory
    budget of a run of ``workers`` processes (:func:`memory_budget`)."""
    global _run_memory_budget
    _run_memory_budget = memory_budget(workers)


#: Where Linux states the memory limit of this process's control group
#: (cgroup v2, then v1): a container's or a batch job's share of the machine.
_CGROUP_LIMITS = (
    "/sys/fs/cgroup/memory.max",
    "/sys/fs/cgroup/memory/memory.limit_in_bytes",
)


def _machine_memory_bytes() -> int | None:
    """The memory this process may use: the machine's physical memory, or its
    control group's limit where that is lower (under a container or a batch
    scheduler the kernel's out-of-memory killer acts at that limit); None
    where neither can be told."""
    limits = []
    with contextlib.suppress(OSError, ValueError):
        limits.append(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    for path in _CGROUP_LIMITS:
        with (
            contextlib.suppress(OSError, ValueError),
            open(path, encoding="ascii") as stated,
        ):
            # "max" (v2) or a huge number (v1) when there is no limit.
            limits.append(int(stated.read().strip()))
    return min(limits) if limits else None


def memory_budget(workers: int) -> int | None:
    r"""The default memory budget of a task when ``workers`` run at once.

    .. math:: \lfloor \text{MEMORY\_SHARE} \cdot M / w \rfloor

    bytes, for ``M`` the memory this process may use (the physical memory, or
    its control group's limit where lower) and ``w`` the workers:
    together the workers cannot take more than :data:`MEMORY_SHARE` of it,
    so a task that grows without end meets its own budget (``inconclusive``,
    reason budget) before the kernel's out-of-memory killer picks some
    process. None where the machine's memory cannot be told.

    Raises:
      InvalidArgumentError: ``workers`` is not an integer >= 1.

    Examples:
      >>> budget = memory_budget(2)
      >>> budget is None or budget == memory_budget(1) // 2 or budget
      True
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidArgumentError(
            f"workers={workers!r}: must be an integer >= 1 (processes at once)"
        )
    memory = _machine_memory_bytes()
    if memory is None:
        return None
    return int(MEMORY_SHARE * memory) // workers


def _address_space_bytes() -> int | None:
    """This process's address space now (Linux's ``/proc/self/statm``)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


@contextlib.contextmanager
def memory_limit(budget_bytes: int | None = None) -> Iterator[int | None]:
    """Let the block add at most ``budget_bytes`` to this process's memory.

    The limit is on the address space (``RLIMIT_AS``), set to what the
    process has mapped when the block starts plus the budget, so what
    earlier tasks of a reused worker left in caches is not counted against
    this one: a task's verdict does not depend on what ran before it (up to
    freed memory the allocator keeps mapped, which the task may reuse
    beyond its budget). An allocation past the limit raises
    :class:`MemoryError` (NumPy's and Python's alike), which the block's
    caller reports as a budget overrun; the limit is lifted when the block
    ends. ``None`` takes the run's default (:func:`memory_budget` of its
    worker count, set by :func:`run_in_workers`; one per CPU otherwise).
    Linux only; elsewhere the block runs without a limit.

    Yields:
      The budget in force (bytes), or None when there is none.

    Raises:
      InvalidArgumentError: ``budget_bytes`` is not None or an integer >= 1.
    """
    if budget_bytes is not None and (
        isinstance(budget_bytes, bool)
        or not isinstance(budget_bytes, int)
        or budget_bytes < 1
    ):
        raise InvalidArgumentError(
            f"budget_bytes={budget_bytes!r}: must be an integer >= 1 (bytes), "
            "or None for the run's default"
        )
    if budget_bytes is None:
        budget_bytes = _run_memory_budget
        if budget_bytes is None:
            budget_bytes = memory_budget(os.cpu_count() or 1)
    mapped = _address_space_bytes()
    if budget_bytes is None or mapped is None:
        yield None
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = mapped + budget_bytes
    # A limit the process already has (the user's `ulimit -v`) stays.
    for bound in (soft, hard):
        if bound != resource.RLIM_INFINITY:
            limit = min(limit, bound)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield budget_bytes
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
