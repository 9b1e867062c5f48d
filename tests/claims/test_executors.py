"""Executors: claims on local processes and on a Dask cluster, budgets enforced
on the worker, and one record per claim whatever becomes of a worker.

The tests marked ``cluster`` share one ``distributed.LocalCluster`` of two
worker processes; they run in the default suite (about a minute on a busy
2-core machine).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from implicit_bias import cli
from implicit_bias.claims.discovery import extended_registry
from implicit_bias.claims.engine import (
    WALL_BACKSTOP_FACTOR,
    Basis,
    Claim,
    Reason,
    Result,
    Status,
    WorkerDeath,
    run_claims,
    run_forked,
)
from implicit_bias.claims.cache import VerdictCache, run_claims_cached
from implicit_bias.claims.executors import (
    ClaimReference,
    DaskExecutor,
    LocalExecutor,
    _check_on_worker,
    plain_fields,
)
from implicit_bias.errors import InvalidArgumentError

#: A user's source with one claim of each outcome a run can give. The
#: ``blocks`` claim writes the pid of the process that forked it (a Dask
#: worker) to a file beside this one, then waits; on a second run (the
#: marker exists) it holds at once.
_NOTE = """
import os
import time
from pathlib import Path

import sympy as sp

from implicit_bias.claims import Basis, Claim, Kind, Reason, Source, Status, Verdict
from implicit_bias.claims.engine import CheckTimeout, time_limit

x = sp.Symbol("x", positive=True)
HERE = Path(__file__).parent


def spin():
    while True:
        sum(range(1000))


def undecided():
    return Verdict.inconclusive("the search came back empty", Reason.UNDECIDED)


def falls_back():
    # time_limit needs signals: it works only in a process's main thread.
    try:
        with time_limit(0.3):
            spin()
    except CheckTimeout:
        return Verdict.holds("the exact step timed out; fell back", Basis.NUMERICAL)


def crash():
    raise ZeroDivisionError("boom")


def blocks():
    marker = HERE / "blocks-started"
    if marker.exists():
        return Verdict.holds("ran again after its worker was lost", Basis.NUMERICAL)
    marker.write_text(str(os.getppid()))
    time.sleep(120)
    return Verdict.holds("woke up", Basis.NUMERICAL)


def claim(label, check, expected=Status.HOLDS, **options):
    return Claim("exec-note", "1", label, Kind.IDENTITY, label, check, expected,
                 **options)


SOURCE = Source(
    "exec-note",
    "Claims of every outcome",
    claims=(
        claim("holds", lambda: Verdict.decide(
            sp.simplify(sp.log(x**2) - 2 * sp.log(x)) == 0, "log", Basis.PROOF)),
        claim("fails", lambda: Verdict.decide(
            sp.simplify(sp.log(x**2) - 3 * sp.log(x)) == 0, "log", Basis.PROOF),
            Status.FAILS),
        claim("undecided", undecided, Status.INCONCLUSIVE,
              expected_reason=Reason.UNDECIDED),
        claim("over-budget", spin, Status.INCONCLUSIVE,
              expected_reason=Reason.BUDGET, budget_seconds=1.0),
        claim("waits", lambda: time.sleep(60), Status.INCONCLUSIVE,
              expected_reason=Reason.BUDGET, budget_seconds=0.1),
        claim("falls-back", falls_back),
        claim("crash", crash),
        claim("blocks", blocks, budget_seconds=30.0),
        claim("slow", undecided, Status.INCONCLUSIVE,
              expected_reason=Reason.UNDECIDED, slow=True),
    ),
)
"""


@pytest.fixture
def note(tmp_path: Path) -> Path:
    path = tmp_path / "exec_note.py"
    path.write_text(_NOTE, encoding="utf-8")
    return path


def _claims(note: Path, *labels: str) -> list[Claim]:
    registry = extended_registry([note])
    return [registry.claim(f"exec-note:1:{label}") for label in labels]


def _records(results: list[Result]) -> list[tuple[str, str, str | None, str | None]]:
    return [
        (
            r.claim.id,
            str(r.verdict.status),
            None if r.verdict.basis is None else str(r.verdict.basis),
            None if r.verdict.reason is None else str(r.verdict.reason),
        )
        for r in results
    ]


def _builtin_claims(count: int = 4) -> list[Claim]:
    """Fast installed claims (under a second each), run beside the note's."""
    claims = extended_registry().claims("ptft-relu-penalty")
    return [c for c in claims if not c.slow][:count]


# --- run_forked: the fork-and-wait the Dask tasks use -----------------------


def _spin() -> None:
    while True:
        sum(range(1000))


def test_a_forked_task_returns_its_value() -> None:
    value, seconds = run_forked(lambda: ("value", os.getpid()), 5.0)
    assert value[0] == "value"
    assert value[1] != os.getpid()
    assert seconds > 0


def test_a_forked_task_past_its_cpu_budget_is_killed() -> None:
    value, _ = run_forked(_spin, 1.0)
    # Stopped by the CPU limit, not by the wall-clock backstop (whose detail
    # differs), however busy the machine.
    assert value == WorkerDeath(True, "exceeded its time budget of 1 s of CPU time")


def test_a_forked_task_that_waits_meets_the_backstop() -> None:
    value, seconds = run_forked(lambda: time.sleep(60), 0.2)
    assert isinstance(value, WorkerDeath)
    assert value.over_budget
    assert "wall-clock backstop of 2 s" in value.detail
    # The backstop cannot fire before its time, on any machine.
    assert seconds >= WALL_BACKSTOP_FACTOR * 0.2


def test_a_forked_task_that_dies_or_raises_is_a_crash() -> None:
    died, _ = run_forked(lambda: os._exit(3), 5.0)
    assert died == WorkerDeath(False, "worker died (exit code 3)")
    raised, _ = run_forked(lambda: 1 / 0, 5.0)
    assert raised == WorkerDeath(False, "worker died (exit code 1)")


def test_a_forked_task_returns_a_value_larger_than_a_pipe_buffer() -> None:
    value, _ = run_forked(lambda: "x" * 1_000_000, 5.0)
    assert value == "x" * 1_000_000


def test_a_child_forked_by_another_thread_does_not_hold_the_pipe(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Dask runs tasks in several threads of a worker: a child forked by one
    # thread must not inherit the pipe of another's check, else that check
    # ends only when the other child does.
    # The other child waits until this test opens a gate, after this thread's
    # check has returned: were the pipe held, that check would meet its 10 s
    # backstop first and return no value.
    gate_read, gate_write = os.pipe()
    real_fork = os.fork
    forks: list[int] = []
    other_forked = threading.Event()
    other_result: dict[str, Any] = {}
    other = threading.Thread(
        target=lambda: other_result.update(
            value=run_forked(lambda: os.read(gate_read, 1) and None, 30.0)
        )
    )

    def fork() -> int:
        pid = real_fork()
        if pid == 0:
            return 0
        forks.append(pid)
        if len(forks) == 1:
            # This thread's child is forked, its write end still open here:
            # let the other thread fork now if it can.
            other.start()
            other_forked.wait(timeout=1.0)
        else:
            other_forked.set()
        return pid

    monkeypatch.setattr(os, "fork", fork)
    try:
        value, _ = run_forked(lambda: "quick", 1.0)
    finally:
        os.write(gate_write, b"x")
        other.join(timeout=60)
        os.close(gate_read)
        os.close(gate_write)
    assert value == "quick"
    assert other_result["value"][0] is None


def test_a_forked_child_dies_with_the_thread_that_forked_it(tmp_path: Path) -> None:
    # A parent killed mid-claim (a lost Dask worker) leaves no child running.
    pid_file = tmp_path / "child.pid"
    script = (
        "import os, time\n"
        "from implicit_bias.claims.engine import run_forked\n"
        "def wait():\n"
        f"    open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
        "    time.sleep(60)\n"
        "run_forked(wait, 30.0)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 60
        while not (pid_file.exists() and pid_file.read_text()):
            assert time.monotonic() < deadline, "the child never started"
            time.sleep(0.05)
        child = int(pid_file.read_text())
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 10
    while _alive(child):
        assert time.monotonic() < deadline, "the child outlived its parent"
        time.sleep(0.05)


class _Interrupted(Exception):
    pass


def test_an_interrupted_wait_kills_the_forked_child(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"

    def wait() -> None:
        pid_file.write_text(str(os.getpid()))
        time.sleep(60)

    def interrupt(signum: int, frame: object) -> None:
        # Once the child runs: the wait is interrupted, not the fork.
        if pid_file.exists() and pid_file.read_text():
            raise _Interrupted

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.2, 0.2)
    try:
        with pytest.raises(_Interrupted):
            run_forked(wait, 30.0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    # Killed and reaped before the exception left run_forked.
    assert not _alive(int(pid_file.read_text()))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie waits for init to reap it: dead, for this test.
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z")


# --- what a worker does with a reference ------------------------------------


def test_a_worker_checks_the_claim_a_reference_names(note: Path) -> None:
    (claim,) = _claims(note, "fails")
    reference = ClaimReference(claim.id, "default", (str(note),))
    value, _ = _check_on_worker(reference, plain_fields(claim), 1)
    assert (value.status, value.basis) == (Status.FAILS, Basis.PROOF)


@pytest.mark.parametrize(
    ("label", "profile", "change", "fragment"),
    [
        ("nowhere", "default", {}, "not found on worker"),
        ("holds", "default", {"budget_seconds": 7.0}, "differs from the client's"),
        ("holds", "default", {"statement": "other"}, "in statement"),
        ("slow", "quick", {}, "not run under profile quick"),
    ],
)
def test_a_worker_refuses_a_claim_it_does_not_have(
    note: Path, label: str, profile: str, change: dict[str, Any], fragment: str
) -> None:
    (claim,) = _claims(note, "slow" if label == "slow" else "holds")
    fields = dict(plain_fields(claim)) | change
    reference = ClaimReference(f"exec-note:1:{label}", profile, (str(note),))
    value, seconds = _check_on_worker(reference, tuple(fields.items()), 1)
    assert (value.status, value.reason, seconds) == (
        Status.INCONCLUSIVE,
        Reason.CRASH,
        0.0,
    )
    assert fragment in value.detail


def test_a_worker_reads_a_file_again_when_it_changes(note: Path) -> None:
    (claim,) = _claims(note, "holds")
    reference = ClaimReference(claim.id, "default", (str(note),))
    before, _ = _check_on_worker(reference, plain_fields(claim), 1)
    # The same claim (same plain fields), its check edited: 2 log x -> 3 log x.
    edited = _NOTE.replace(
        'sp.log(x**2) - 2 * sp.log(x)) == 0, "log"',
        'sp.log(x**2) - 3 * sp.log(x)) == 0, "log"',
        1,
    )
    assert edited != _NOTE
    note.write_text(edited, encoding="utf-8")
    after, _ = _check_on_worker(reference, plain_fields(claim), 1)
    assert (before.status, after.status) == (Status.HOLDS, Status.FAILS)


class _Finished:
    """A stand-in for a ``distributed.Future`` that ended in ``error``."""

    status = "error"

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def exception(self) -> BaseException:
        return self.error


def test_a_task_that_failed_or_lost_its_worker_is_a_crash() -> None:
    distributed = pytest.importorskip("distributed")
    from types import SimpleNamespace

    from implicit_bias.claims.executors import _outcome

    lost = distributed.KilledWorker(
        "implicit-bias-claim-0-x", SimpleNamespace(address="tcp://10.0.0.5:4000"), 0
    )
    death, seconds = _outcome(_Finished(lost), 2.5)
    assert death == WorkerDeath(
        False,
        "worker lost: Dask worker tcp://10.0.0.5:4000 died holding the task "
        "(running or queued there), the last of 1 attempts "
        "(distributed.scheduler.allowed-failures)",
    )
    assert seconds == 2.5
    failed, _ = _outcome(_Finished(MemoryError("worker ran out")), 1.0)
    assert failed == WorkerDeath(
        False, "the Dask task did not complete: MemoryError: worker ran out"
    )


def test_a_dask_run_with_nothing_to_run_needs_no_scheduler() -> None:
    calls: list[object] = []
    DaskExecutor("tcp://127.0.0.1:1").run([], lambda *outcome: calls.append(outcome))
    assert calls == []


# --- executors and the command line -----------------------------------------


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        (["--executor", "dask"], "--scheduler: --executor dask needs the address"),
        (["--scheduler", "tcp://127.0.0.1:1"], "used by --executor dask only"),
        (
            [
                "--executor",
                "dask",
                "--scheduler",
                "tcp://127.0.0.1:1",
                "--workers",
                "2",
            ],
            "--workers 2: counts local processes",
        ),
    ],
)
def test_the_command_line_refuses_inconsistent_executor_options(
    arguments: list[str], fragment: str, capsys: pytest.CaptureFixture[str]
) -> None:
    claim_id = _builtin_claims(1)[0].id
    status = cli.main(["verify", "--claim", claim_id, *arguments])
    assert status == 2
    assert fragment in capsys.readouterr().err


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda: LocalExecutor(0), "workers=0: must be an integer >= 1"),
        (lambda: DaskExecutor(""), "scheduler: must be a Dask scheduler's address"),
        (lambda: DaskExecutor("tcp://h:1", profile="huge"), "profile='huge'"),
        (lambda: DaskExecutor("tcp://h:1", blas_threads=0), "blas_threads=0"),
    ],
)
def test_executors_refuse_bad_arguments(make: Any, fragment: str) -> None:
    with pytest.raises(InvalidArgumentError, match=fragment):
        make()


def test_workers_and_an_executor_are_not_given_together(note: Path) -> None:
    with pytest.raises(InvalidArgumentError, match="workers=2: given with executor"):
        run_claims(_claims(note, "holds"), workers=2, executor=LocalExecutor(1))


def test_the_local_path_does_not_import_dask() -> None:
    script = (
        "import sys\n"
        "import implicit_bias.claims, implicit_bias.claims.executors\n"
        "from implicit_bias.claims import run_claims\n"
        "run_claims([])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('dask', 'distributed')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """Two worker processes of one thread; a worker lost mid-task is not
    retried (allowed-failures 0), so a kill gives the lost-worker verdict."""
    distributed = pytest.importorskip(
        "distributed", reason="Dask distributed is not installed (implicit-bias[dist])"
    )
    import dask

    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        ) as local_cluster,
        distributed.Client(local_cluster) as client,
    ):
        yield local_cluster, client


_OUTCOMES = ("holds", "fails", "undecided", "over-budget", "waits", "falls-back")


@pytest.mark.cluster
def test_a_dask_run_gives_the_records_of_a_local_run(cluster: Any, note: Path) -> None:
    _, client = cluster
    claims = _claims(note, *_OUTCOMES, "crash") + _builtin_claims()
    progress: list[tuple[str, int, int]] = []
    local = run_claims(claims, executor=LocalExecutor(2))
    remote = run_claims(
        claims,
        executor=DaskExecutor(client, files=[note]),
        on_result=lambda r, done, total: progress.append((r.claim.id, done, total)),
    )
    assert _records(remote) == _records(local)
    statuses = {record[1:] for record in _records(remote)}
    assert {
        ("holds", "proof", None),
        ("fails", "proof", None),
        ("inconclusive", None, "undecided"),
        ("inconclusive", None, "budget"),
        ("holds", "numerical", None),
        ("inconclusive", None, "crash"),
    } <= statuses
    # Streamed: one call per claim, counting up, in any order of claims.
    assert sorted(claim_id for claim_id, _, _ in progress) == sorted(
        c.id for c in claims
    )
    assert [(done, total) for _, done, total in progress] == [
        (i + 1, len(claims)) for i in range(len(claims))
    ]


@pytest.mark.cluster
def test_the_budget_is_enforced_on_the_worker(cluster: Any, note: Path) -> None:
    _, client = cluster
    over, waits = run_claims(
        _claims(note, "over-budget", "waits"),
        executor=DaskExecutor(client, files=[note]),
    )
    assert (over.verdict.reason, waits.verdict.reason) == (Reason.BUDGET,) * 2
    # The kernel's CPU limit, not the backstop, stops the spinning check (the
    # details differ); the waiting one meets the backstop.
    assert "time budget of 1 s of CPU time" in over.verdict.detail
    assert "wall-clock backstop of 1 s" in waits.verdict.detail


def _kill_the_worker_of(marker: Path) -> int:
    """Wait until the ``blocks`` claim runs; SIGKILL the worker running it."""
    deadline = time.monotonic() + 120
    while not (marker.exists() and marker.read_text()):
        assert time.monotonic() < deadline, "the blocking claim never started"
        time.sleep(0.05)
    worker = int(marker.read_text())
    os.kill(worker, signal.SIGKILL)
    return worker


def _run_in_background(run: Any) -> tuple[Any, dict[str, Any]]:
    import threading

    outcome: dict[str, Any] = {}

    def target() -> None:
        outcome["value"] = run()

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread, outcome


@pytest.mark.cluster
def test_a_worker_killed_mid_claim_loses_no_record(
    cluster: Any, note: Path, tmp_path: Path
) -> None:
    _, client = cluster
    claims = _claims(note, "holds", "blocks", "fails")
    cache = VerdictCache(tmp_path / "cache")
    calls: list[tuple[str, bool]] = []
    thread, outcome = _run_in_background(
        lambda: run_claims_cached(
            claims,
            cache,
            executor=DaskExecutor(client, files=[note]),
            on_result=lambda r, done, total, cached: calls.append((r.claim.id, cached)),
        )
    )
    _kill_the_worker_of(note.parent / "blocks-started")
    thread.join(timeout=120)
    assert not thread.is_alive()
    results, from_cache = outcome["value"]
    assert from_cache == 0
    assert sorted(calls) == sorted((c.id, False) for c in claims)
    assert [r.claim.id for r in results] == [c.id for c in claims]
    lost = "worker lost: Dask worker tcp://"
    blocks = results[1].verdict
    assert (blocks.status, blocks.reason) == (Status.INCONCLUSIVE, Reason.CRASH)
    assert lost in blocks.detail
    assert cache.get(claims[1]) is None
    # The scheduler may have queued another claim on the killed worker: that
    # one is lost too (and not cached); the others ran (and are cached).
    for result, status in zip(
        (results[0], results[2]), (Status.HOLDS, Status.FAILS), strict=True
    ):
        if lost in result.verdict.detail:
            assert result.verdict.reason == Reason.CRASH
            assert cache.get(result.claim) is None
        else:
            assert result.verdict.status == status
            assert cache.get(result.claim) is not None


@pytest.mark.cluster
def test_a_claim_the_scheduler_runs_again_is_one_record(
    cluster: Any, note: Path
) -> None:
    local_cluster, client = cluster
    claims = _claims(note, "blocks", "holds")
    calls: list[str] = []
    local_cluster.scheduler.allowed_failures = 1
    try:
        thread, outcome = _run_in_background(
            lambda: run_claims(
                claims,
                executor=DaskExecutor(client, files=[note]),
                on_result=lambda r, done, total: calls.append(r.claim.id),
            )
        )
        _kill_the_worker_of(note.parent / "blocks-started")
        thread.join(timeout=120)
    finally:
        local_cluster.scheduler.allowed_failures = 0
    assert not thread.is_alive()
    blocks, holds = outcome["value"]
    assert sorted(calls) == sorted(c.id for c in claims)
    assert (blocks.verdict.status, blocks.verdict.basis) == (
        Status.HOLDS,
        Basis.NUMERICAL,
    )
    assert "ran again after its worker was lost" in blocks.verdict.detail
    assert holds.verdict.status == Status.HOLDS


@pytest.mark.cluster
def test_verify_runs_on_a_dask_scheduler_from_the_command_line(
    cluster: Any, note: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    local_cluster, _ = cluster
    selection = [
        argument
        for label in ("holds", "fails", "undecided", "over-budget")
        for argument in ("--claim", f"exec-note:1:{label}")
    ]
    common = ["verify", "--file", str(note), *selection, "--json", "--no-cache"]
    assert cli.main(common) == 0
    local = json.loads(capsys.readouterr().out)
    remote_status = cli.main(
        [*common, "--executor", "dask", "--scheduler", local_cluster.scheduler_address]
    )
    captured = capsys.readouterr()
    assert remote_status == 0
    remote = json.loads(captured.out)

    def key(record: dict[str, Any]) -> tuple[Any, ...]:
        return (record["id"], record["status"], record["basis"], record["reason"])

    assert [key(r) for r in remote] == [key(r) for r in local]
    assert "[  4/4] exec-note:1:" in captured.err
