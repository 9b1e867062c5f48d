"""Worker processes: budgets, deaths, reuse, warm-ups, and what a killed run
or a hostile check leaves behind."""

from __future__ import annotations

import functools
import math
import os
import subprocess
import sys
import time

import pytest

from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reason,
    Status,
    Verdict,
    run_claims,
)
from implicit_bias.claims.worker_limits import (
    MEMORY_SHARE,
    memory_budget,
    memory_limit,
)
from implicit_bias.claims.workers import WorkerDeath, run_forked, run_in_workers
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.validation.sweep_store import process_alive


@pytest.mark.parametrize("reuse_workers", [False, True])
def test_workers_report_what_became_of_a_task_without_a_value(
    reuse_workers: bool,
) -> None:
    outcomes: dict[int, object] = {}

    def spin() -> None:
        while True:
            sum(range(1000))

    def raise_error() -> None:
        raise RuntimeError("broken task")

    run_in_workers(
        [
            (lambda: 7, 5.0),
            (spin, 1.0),
            (lambda: os._exit(3), 5.0),
            (raise_error, 5.0),
            (lambda: lambda: None, 5.0),
            (lambda: 8, 5.0),
        ],
        workers=2,
        on_done=lambda index, value, seconds: outcomes.__setitem__(index, value),
        reuse_workers=reuse_workers,
    )
    assert outcomes[0] == 7
    assert outcomes[1] == WorkerDeath(
        True, "exceeded its time budget of 1 s of CPU time"
    )
    assert outcomes[2] == WorkerDeath(False, "worker died (exit code 3)")
    assert outcomes[3] == WorkerDeath(False, "worker died (exit code 1)")
    # A value that does not pickle ends its worker too.
    assert outcomes[4] == WorkerDeath(False, "worker died (exit code 1)")
    # Whatever became of the workers before, the last task runs.
    assert outcomes[5] == 8


def _thread_pools_of_worker() -> tuple[list[int], str | None]:
    from threadpoolctl import threadpool_info

    return (
        [pool["num_threads"] for pool in threadpool_info()],
        os.environ.get("OPENBLAS_NUM_THREADS"),
    )


@pytest.mark.parametrize("reuse_workers", [False, True])
def test_each_worker_runs_its_blas_on_its_share_of_the_cores(
    reuse_workers: bool,
) -> None:
    # The pools loaded before the fork are limited (found once, in the
    # parent); a pool a check loads later starts at the size the environment
    # gives it.
    seen: list[tuple[list[int], str | None]] = []
    run_in_workers(
        [(_thread_pools_of_worker, 30.0)] * 2,
        workers=2,
        on_done=lambda index, value, seconds: seen.append(value),
        reuse_workers=reuse_workers,
    )
    share = max(1, (os.cpu_count() or 1) // 2)
    assert len(seen) == 2
    for counts, variable in seen:
        assert counts
        assert all(count == share for count in counts), counts
        assert variable == str(share)


def _outcomes(tasks, **options) -> dict[int, object]:
    outcomes: dict[int, object] = {}
    run_in_workers(
        tasks,
        on_done=lambda index, value, seconds: outcomes.__setitem__(index, value),
        **options,
    )
    return outcomes


@pytest.mark.parametrize("reuse_workers", [False, True])
def test_reused_workers_run_task_after_task_in_one_process(
    reuse_workers: bool,
) -> None:
    outcomes = _outcomes([(os.getpid, 5.0)] * 3, workers=1, reuse_workers=reuse_workers)
    pids = set(outcomes.values())
    assert os.getpid() not in pids
    assert len(pids) == (1 if reuse_workers else 3)


def _burn(seconds: float) -> float:
    start = time.process_time()
    while time.process_time() - start < seconds:
        sum(range(1000))
    return seconds


def test_each_task_of_a_reused_worker_gets_its_own_cpu_budget() -> None:
    # Three tasks of 0.75 s CPU, each within its 1 s budget, in one process:
    # a limit counted from the worker's start (2 s, the first budget rounded
    # up) would kill the third.
    outcomes = _outcomes(
        [(lambda: _burn(0.75), 1.0)] * 3, workers=1, reuse_workers=True
    )
    assert outcomes == {0: 0.75, 1: 0.75, 2: 0.75}


def _disturb_global_state() -> None:
    import random
    import warnings

    import mpmath
    import numpy as np
    import sympy.core.random as sympy_random
    from sympy.core.parameters import global_parameters

    mpmath.mp.dps = 60
    np.seterr(all="raise")
    np.set_printoptions(precision=2)
    np.random.seed(1)  # noqa: NPY002
    random.seed(1)
    warnings.simplefilter("error")
    global_parameters.evaluate = False
    sympy_random.seed(5)
    os.environ["IMPLICIT_BIAS_TEST_VARIABLE"] = "set"
    os.chdir("/")


def _global_state() -> tuple:
    import random
    import warnings

    import mpmath
    import numpy as np
    import sympy.core.random as sympy_random
    from sympy.core.parameters import global_parameters

    return (
        mpmath.mp.dps,
        np.geterr()["over"],
        np.get_printoptions()["precision"],
        float(np.random.random()),  # noqa: NPY002
        random.random(),
        len(warnings.filters),
        global_parameters.evaluate,
        os.environ.get("IMPLICIT_BIAS_TEST_VARIABLE"),
        os.getcwd(),
        sympy_random.rng.random(),
    )


def test_a_reused_worker_undoes_what_a_task_changed_of_the_process() -> None:
    # What a fresh worker sees, and what the task after a disturbing one sees
    # in a reused worker, must be the same.
    fresh = _outcomes([(_global_state, 5.0)], workers=1)[0]
    after = _outcomes(
        [(_disturb_global_state, 5.0), (_global_state, 5.0)],
        workers=1,
        reuse_workers=True,
    )[1]
    # Python's random is reseeded in every forked child: not comparable to a
    # fresh worker's draw, but not the draw after the task's seed either.
    import random

    assert after[:4] + after[5:] == fresh[:4] + fresh[5:]
    assert after[4] != random.Random(1).random()
    assert fresh[0] != 60
    assert fresh[7] is None


_WARMED: list[str] = []


def test_tasks_that_need_no_warm_up_run_beside_it(tmp_path) -> None:
    # The warm-up waits for a file that only a task needing no warm-up
    # writes: it ends only if that task runs while it is under way.
    signal_file = tmp_path / "started"

    def warm_up() -> None:
        deadline = time.monotonic() + 60
        while not signal_file.exists():
            if time.monotonic() > deadline:
                raise AssertionError("no task ran beside the warm-up")
            time.sleep(0.01)
        _WARMED.append("warm")

    def write_signal() -> list[str]:
        signal_file.write_text("started")
        return list(_WARMED)

    _WARMED.clear()
    outcomes = _outcomes(
        [(lambda: list(_WARMED), 30.0), (write_signal, 30.0)],
        workers=2,
        reuse_workers=True,
        warm_up=warm_up,
        needs_warm_up=[True, False],
    )
    # The task that needs it sees the warm-up; the one run beside it, not.
    assert outcomes == {0: ["warm"], 1: []}
    _WARMED.clear()


@pytest.mark.parametrize(("reuse_workers", "workers"), [(False, 2), (True, 1)])
def test_a_warm_up_runs_first_without_a_worker_to_spare(
    reuse_workers: bool, workers: int
) -> None:
    _WARMED.clear()
    outcomes = _outcomes(
        [(lambda: list(_WARMED), 30.0)] * 2,
        workers=workers,
        reuse_workers=reuse_workers,
        warm_up=lambda: _WARMED.append("warm"),
        needs_warm_up=[False, True],
    )
    assert outcomes == {0: ["warm"], 1: ["warm"]}
    _WARMED.clear()


def test_a_warm_up_that_raises_stops_the_run() -> None:
    def broken() -> None:
        raise RuntimeError("warm-up broke")

    with pytest.raises(RuntimeError, match="warm-up broke"):
        _outcomes(
            [(lambda: 1, 30.0)] * 3,
            workers=2,
            reuse_workers=True,
            warm_up=broken,
            needs_warm_up=[True, False, True],
        )


def test_needs_warm_up_gives_one_flag_per_task() -> None:
    with pytest.raises(InvalidArgumentError, match="needs_warm_up"):
        _outcomes([(lambda: 1, 5.0)] * 2, needs_warm_up=[True])


def _exit_soon() -> str:
    import threading

    # The worker dies after its value was read, before the next task is sent.
    threading.Timer(0.2, os._exit, (0,)).start()
    return "zero"


def test_a_worker_that_dies_idle_loses_no_task() -> None:
    outcomes: dict[int, object] = {}

    def done(index: int, value: object, seconds: float) -> None:
        outcomes[index] = value
        if index == 0:
            time.sleep(1.0)

    run_in_workers(
        [(_exit_soon, 5.0), (lambda: "one", 5.0)],
        workers=1,
        on_done=done,
        reuse_workers=True,
    )
    assert outcomes == {0: "zero", 1: "one"}


def test_workers_that_keep_dying_give_each_task_one_death(monkeypatch) -> None:
    import implicit_bias.claims.workers as workers

    monkeypatch.setattr(workers, "_serve_tasks", lambda *args: os._exit(5))
    outcomes = _outcomes([(lambda: 1, 5.0)] * 2, workers=2, reuse_workers=True)
    assert set(outcomes) == {0, 1}
    # Each task is refused by three workers (none said it started), then
    # reported lost with them: no task is blamed for a death it did not cause.
    assert outcomes == dict.fromkeys(
        (0, 1),
        WorkerDeath(
            False,
            "3 workers died before the task reached them (the last with exit code 5)",
        ),
    )


def test_a_task_is_not_blamed_for_a_worker_that_died_before_it_started(
    monkeypatch, tmp_path
) -> None:
    import implicit_bias.claims.workers as workers

    serve = workers._serve_tasks
    first = tmp_path / "first-worker"

    def die_once(tasks, connection, threads, parent) -> None:
        if not first.exists():
            first.write_text("died")
            connection.recv()
            os._exit(5)
        serve(tasks, connection, threads, parent)

    monkeypatch.setattr(workers, "_serve_tasks", die_once)
    outcomes = _outcomes([(lambda: "ran", 5.0)], workers=1, reuse_workers=True)
    assert outcomes == {0: "ran"}


@pytest.mark.parametrize("workers", [0, -1, 1.5, True])
def test_workers_must_be_a_positive_count(workers) -> None:
    with pytest.raises(InvalidArgumentError, match="workers"):
        _outcomes([(lambda: 1, 5.0)], workers=workers)


def _gone(pids: list[int], *, patience: float = 60.0) -> bool:
    """Whether every process of ``pids`` ends within ``patience`` seconds.

    Polls: the kernel delivers a parent-death signal, and init reaps, on its
    own time, later on a busy machine.
    """
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        if not any(process_alive(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


def _fork_and_return_in_both(record: str) -> str:
    # Both the worker and its copy return from the task; the worker last, so
    # that a copy that sends its value sends it first.
    if os.fork() == 0:
        with open(record, "w", encoding="ascii") as stream:
            stream.write(str(os.getpid()))
        return "the copy's"
    time.sleep(0.5)
    return "the worker's"


@pytest.mark.parametrize("reuse_workers", [False, True])
def test_a_forked_copy_of_a_worker_exits_after_its_task(
    tmp_path, reuse_workers: bool
) -> None:
    record = tmp_path / "copy"
    outcomes = _outcomes(
        [(lambda: _fork_and_return_in_both(str(record)), 10.0), (lambda: 2, 10.0)],
        workers=1,
        reuse_workers=reuse_workers,
    )
    assert outcomes == {0: "the worker's", 1: 2}
    assert _gone([int(record.read_text())])


def test_a_forked_copy_of_a_run_forked_child_sends_nothing(tmp_path) -> None:
    record = tmp_path / "copy"
    value, _ = run_forked(lambda: _fork_and_return_in_both(str(record)), 10.0)
    assert value == "the worker's"
    assert _gone([int(record.read_text())])


def _leave_a_sleeper(record: str) -> str:
    process = subprocess.Popen(["sleep", "600"])
    with open(record, "w", encoding="ascii") as stream:
        stream.write(str(process.pid))
    return "left one"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")
@pytest.mark.parametrize("reuse_workers", [False, True])
def test_the_processes_a_task_leaves_end_with_it(tmp_path, reuse_workers) -> None:
    record = tmp_path / "sleeper"
    outcomes = _outcomes(
        [(lambda: _leave_a_sleeper(str(record)), 10.0)],
        workers=1,
        reuse_workers=reuse_workers,
    )
    assert outcomes == {0: "left one"}
    assert _gone([int(record.read_text())])


def _print_everywhere() -> str:
    print("printed by a task")
    os.write(1, b"written to fd 1 by a task\n")
    return "done"


@pytest.mark.parametrize("reuse_workers", [False, True])
def test_what_a_task_prints_goes_to_stderr(capfd, reuse_workers) -> None:
    outcomes = _outcomes([(_print_everywhere, 10.0)], reuse_workers=reuse_workers)
    assert outcomes == {0: "done"}
    captured = capfd.readouterr()
    assert "by a task" not in captured.out
    assert "printed by a task" in captured.err
    assert "written to fd 1 by a task" in captured.err


def _hog(limit_bytes: int) -> str:
    """Allocate 64 MiB blocks up to ``limit_bytes`` (bounded, so a missing
    memory budget cannot take the machine)."""
    import numpy as np

    blocks = []
    while sum(block.nbytes for block in blocks) < limit_bytes:
        blocks.append(np.ones(2**23))
    return "took it all"


def _hog_claim(budget_bytes: int | None, hog_bytes: int, label: str) -> Claim:
    def check() -> Verdict:
        return Verdict.holds(_hog(hog_bytes), Basis.NUMERICAL)

    return Claim(
        "test-source",
        "1",
        label,
        Kind.NUMERIC,
        "a statement",
        check,
        Status.HOLDS,
        budget_bytes=budget_bytes,
    )


_KEPT: list[object] = []


def _keep(nbytes: int) -> Verdict:
    import numpy as np

    # What a check caches stays in a reused worker for the claims after it.
    _KEPT.append(np.ones(nbytes // 8))
    return Verdict.holds("kept", Basis.NUMERICAL)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")
def test_a_claim_past_its_memory_budget_is_inconclusive_and_the_run_goes_on() -> None:
    mib = 2**20
    keeper = Claim(
        "test-source",
        "1",
        "keeper",
        Kind.NUMERIC,
        "a statement",
        functools.partial(_keep, 400 * mib),
        Status.HOLDS,
        budget_bytes=1024 * mib,
    )
    results = run_claims(
        [
            _hog_claim(256 * mib, 2048 * mib, "hog"),
            keeper,
            # Within its budget although its worker holds what the keeper
            # left: the budget counts the claim's own growth.
            _hog_claim(300 * mib, 128 * mib, "after"),
        ],
        workers=1,
    )
    hog, kept, after = (r.verdict for r in results)
    assert hog.status == Status.INCONCLUSIVE
    assert hog.reason == Reason.BUDGET
    assert "memory budget of 256 MiB" in hog.detail
    assert kept.status == Status.HOLDS
    assert after.status == Status.HOLDS


def test_the_default_memory_budget_shares_the_machine(monkeypatch) -> None:
    import implicit_bias.claims.worker_limits as limits

    monkeypatch.setattr(limits, "_CGROUP_LIMITS", ())
    one = memory_budget(1)
    if one is None:
        pytest.skip("this machine does not tell its memory")
    total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert one == int(MEMORY_SHARE * total)
    assert memory_budget(4) == one // 4


def test_a_control_groups_lower_limit_is_the_memory_to_share(
    monkeypatch, tmp_path
) -> None:
    # Under a container or a batch job the kernel's out-of-memory killer acts
    # at the group's limit, not at the machine's memory.
    import implicit_bias.claims.worker_limits as limits

    unlimited = tmp_path / "memory.max"
    unlimited.write_text("max\n")
    small = tmp_path / "memory.limit_in_bytes"
    small.write_text(f"{2**30}\n")
    monkeypatch.setattr(limits, "_CGROUP_LIMITS", (str(unlimited), str(small)))
    assert memory_budget(2) == int(MEMORY_SHARE * 2**30) // 2


def _soft_address_limit_inside(budget: int) -> tuple[int, int]:
    import resource

    with open("/proc/self/statm", encoding="ascii") as statm:
        mapped = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    ours = mapped + 2**32
    resource.setrlimit(resource.RLIMIT_AS, (ours, resource.RLIM_INFINITY))
    with memory_limit(budget):
        inside = resource.getrlimit(resource.RLIMIT_AS)[0]
    return ours, inside


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")
def test_a_memory_budget_never_loosens_a_limit_the_process_has() -> None:
    outcomes = _outcomes([(lambda: _soft_address_limit_inside(2**40), 10.0)])
    ours, inside = outcomes[0]
    assert inside == ours


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, None])
def test_memory_budget_needs_a_positive_worker_count(workers) -> None:
    with pytest.raises(InvalidArgumentError, match="workers"):
        memory_budget(workers)


@pytest.mark.parametrize("budget", [0, -1, 1.5, True, "1 GiB"])
def test_memory_limit_needs_a_positive_byte_count(budget) -> None:
    with (
        pytest.raises(InvalidArgumentError, match="budget_bytes"),
        memory_limit(budget),
    ):
        pass


@pytest.mark.parametrize("budget", [0.0, -1.0, math.inf, math.nan, 1e7, True])
def test_a_task_budget_must_be_a_time_the_limits_can_enforce(budget) -> None:
    # 1e19 s once reached RLIMIT_CPU (a C long) and killed the worker; 1e9 s
    # overflowed the backstop's select timeout in run_forked.
    with pytest.raises(InvalidArgumentError, match="budget_seconds"):
        _outcomes([(lambda: 1, budget)])
    with pytest.raises(InvalidArgumentError, match="budget_seconds"):
        run_forked(lambda: 1, budget)


def _spawn_lock() -> str:
    import multiprocessing
    import warnings

    # A resource tracker that died under this task's feet warns it, once.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        multiprocessing.get_context("spawn").Lock()
    return "lock made"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")
def test_multiprocessings_helpers_outlive_a_task() -> None:
    # The first task starts the resource tracker; ending it with the task's
    # other processes made the second task's verdict depend on the first.
    outcomes = _outcomes(
        [(_spawn_lock, 30.0), (_spawn_lock, 30.0)], workers=1, reuse_workers=True
    )
    assert outcomes == {0: "lock made", 1: "lock made"}


def _multiply() -> Verdict:
    import numpy as np

    square = np.random.default_rng(0).standard_normal((300, 300))
    return Verdict.holds(f"{(square @ square)[0, 0]:.3f}", Basis.NUMERICAL)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")
def test_a_first_matrix_product_is_not_charged_to_a_claims_memory_budget() -> None:
    # BLAS allocates its buffers at a process's first product: charged to the
    # first claim of a worker, they killed a 32 MiB claim run first and not
    # the same claim run second.
    claim = Claim(
        "test-source",
        "1",
        "product",
        Kind.NUMERIC,
        "a statement",
        _multiply,
        Status.HOLDS,
        budget_bytes=32 * 2**20,
    )
    (result,) = run_claims([claim], workers=1)
    assert result.verdict.status == Status.HOLDS, result.verdict.detail
