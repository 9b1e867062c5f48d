"""Sweeps: keys, storage, resumption (also after SIGKILL), executors and the CLI."""

from __future__ import annotations

import collections
import contextlib
import hashlib
import io
import re
import json
import math
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import threadpoolctl

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.relu_penalty import relu_ptft_penalty
from implicit_bias.numerics.transfer_risks import (
    finetune_transferability,
    linear_transferability,
)
from implicit_bias.validation import sweeps
from implicit_bias.validation.sweep_store import process_alive
from implicit_bias.validation.sweeps import (
    BUILTIN_SWEEPS,
    SweepError,
    configuration_grid,
    configuration_key,
    load_results,
    run_sweep,
)

REPOSITORY = Path(__file__).resolve().parents[2]
RELU_PENALTY = "implicit_bias.numerics.relu_penalty.relu_ptft_penalty"
LOGGED_SQUARE = "tests.validation.test_sweeps.logged_square"


def logged_square(
    x: int,
    log: str,
    delay: float = 0.0,
    fail_while: str | None = None,
    pids: str | None = None,
) -> dict[str, int]:
    """A sweep function that records each completed call in ``log``.

    One line per call, appended in one write (atomic for short lines with
    O_APPEND), after the work and before the result is returned: a call that
    is cut short leaves no line. Raises for multiples of 3 while the file
    ``fail_while`` exists. Records the worker's pid as a file in the
    directory ``pids``, if given, before the work.
    """
    if pids is not None:
        Path(pids, str(os.getpid())).touch()
    if fail_while is not None and os.path.exists(fail_while) and x % 3 == 0:
        raise ValueError(f"x={x} fails while {fail_while} exists")
    time.sleep(delay)
    with open(log, "a") as handle:
        handle.write(f"{x}\n")
    return {"square": x * x}


def blas_threads_in_use() -> list[int]:
    """A sweep function: the thread counts of the BLAS libraries of its worker."""
    return [
        info["num_threads"]
        for info in threadpoolctl.threadpool_info()
        if info["user_api"] == "blas"
    ]


def not_json(x: int) -> Any:
    """A sweep function whose results cannot be stored (a set, or NaN)."""
    return {x} if x else math.nan


def call_counts(log: Path) -> collections.Counter[int]:
    if not log.exists():
        return collections.Counter()
    return collections.Counter(int(line) for line in log.read_text().split())


def stored_rows(store: Path) -> list[tuple[str, str, str]]:
    connection = sqlite3.connect(store, timeout=30.0)
    try:
        return connection.execute(
            "SELECT key, configuration, result FROM results"
        ).fetchall()
    except sqlite3.OperationalError:  # the sweep has not created its table yet
        return []
    finally:
        connection.close()


def test_configuration_key_is_the_sha256_of_canonical_json() -> None:
    configuration = {"rho": 0.5, "m": 1.0, "m0": 1.0, "gamma": 0.0}
    document = json.dumps(
        {"configuration": configuration, "function": RELU_PENALTY, "version": "7"},
        sort_keys=True,
        separators=(",", ":"),
    )
    expected = hashlib.sha256(document.encode()).hexdigest()
    assert configuration_key(relu_ptft_penalty, configuration, version="7") == expected
    reordered = dict(reversed(list(configuration.items())))
    assert configuration_key(RELU_PENALTY, reordered, version="7") == expected
    # NumPy scalars count as the Python numbers they hold.
    numpy_valued = {key: np.float64(value) for key, value in configuration.items()}
    assert configuration_key(RELU_PENALTY, numpy_valued, version="7") == expected


def test_configuration_key_depends_on_function_version_and_values() -> None:
    configuration = {"x": 1, "log": "calls.txt"}
    keys = {
        configuration_key(LOGGED_SQUARE, configuration),
        configuration_key(LOGGED_SQUARE, configuration, version="2"),
        configuration_key("tests.validation.test_sweeps.not_json", configuration),
        configuration_key(LOGGED_SQUARE, {**configuration, "x": 1.0}),
    }
    assert len(keys) == 4


def test_a_sweep_stores_the_function_values(tmp_path: Path) -> None:
    sweep = BUILTIN_SWEEPS["relu-penalty-demo"]()
    store = tmp_path / "demo.sqlite"
    summary = run_sweep(
        sweep.function,
        sweep.configurations,
        store=store,
        version=sweep.version,
        workers=2,
        progress=False,
    )
    assert (summary.total, summary.already_stored, summary.computed) == (55, 0, 55)
    results = load_results(store, RELU_PENALTY)
    assert sorted(json.dumps(c, sort_keys=True) for c, _ in results) == sorted(
        json.dumps(c, sort_keys=True) for c in sweep.configurations
    )
    configurations = [configuration for configuration, _ in results]
    expected = relu_ptft_penalty(
        *(
            np.array([c[name] for c in configurations])
            for name in ("m", "rho", "m0", "gamma")
        )
    )
    # JSON stores floats by their shortest repr, which round-trips exactly.
    np.testing.assert_array_equal([result for _, result in results], expected)


def test_a_rerun_computes_nothing_twice(tmp_path: Path) -> None:
    store, log = tmp_path / "store.sqlite", tmp_path / "calls.txt"
    grid = configuration_grid(x=range(12), log=[str(log)])
    first = run_sweep(LOGGED_SQUARE, grid[:5], store=store, workers=2, progress=False)
    second = run_sweep(LOGGED_SQUARE, grid, store=store, workers=2, progress=False)
    third = run_sweep(LOGGED_SQUARE, grid, store=store, workers=2, progress=False)
    assert (first.computed, second.already_stored, second.computed) == (5, 5, 7)
    assert (third.already_stored, third.computed) == (12, 0)
    assert call_counts(log) == collections.Counter(range(12))
    results = load_results(store, logged_square)
    assert sorted((c["x"], r["square"]) for c, r in results) == [
        (x, x * x) for x in range(12)
    ]


def test_a_new_version_is_computed_afresh(tmp_path: Path) -> None:
    store, log = tmp_path / "store.sqlite", tmp_path / "calls.txt"
    grid = configuration_grid(x=range(3), log=[str(log)])
    run_sweep(LOGGED_SQUARE, grid, store=store, workers=1, progress=False)
    summary = run_sweep(
        LOGGED_SQUARE, grid, store=store, version="2", workers=1, progress=False
    )
    assert summary.computed == 3
    assert len(load_results(store, LOGGED_SQUARE, version="2")) == 3
    assert len(load_results(store)) == 6


def test_duplicate_configurations_run_once(tmp_path: Path) -> None:
    store, log = tmp_path / "store.sqlite", tmp_path / "calls.txt"
    grid = configuration_grid(x=[1, 2], log=[str(log)])
    summary = run_sweep(
        LOGGED_SQUARE, grid + grid[::-1], store=store, workers=2, progress=False
    )
    assert (summary.total, summary.computed) == (2, 2)
    assert call_counts(log) == collections.Counter([1, 2])


def test_failures_are_reported_not_stored_and_retried(tmp_path: Path) -> None:
    store, log, flag = (tmp_path / name for name in ("s.sqlite", "calls.txt", "flag"))
    flag.touch()
    grid = configuration_grid(x=range(7), log=[str(log)], fail_while=[str(flag)])
    with pytest.raises(SweepError, match=r"3 of 7 configurations .* raised") as error:
        run_sweep(LOGGED_SQUARE, grid, store=store, workers=2, progress=False)
    assert "ValueError: x=" in str(error.value)
    assert (error.value.summary.computed, error.value.summary.failed) == (4, 3)
    assert sorted(c["x"] for c, _ in load_results(store)) == [1, 2, 4, 5]
    flag.unlink()
    summary = run_sweep(LOGGED_SQUARE, grid, store=store, workers=2, progress=False)
    assert (summary.already_stored, summary.computed) == (4, 3)
    assert call_counts(log) == collections.Counter(range(7))


def test_results_that_are_not_json_fail_and_are_not_stored(tmp_path: Path) -> None:
    store = tmp_path / "store.sqlite"
    with pytest.raises(SweepError, match="2 of 2 configurations") as error:
        run_sweep(
            "tests.validation.test_sweeps.not_json",
            [{"x": 0}, {"x": 1}],
            store=store,
            workers=1,
            progress=False,
        )
    assert "JSON" in str(error.value) or "not JSON compliant" in str(error.value)
    assert load_results(store) == []


def test_the_progress_bar_shows_counts_and_eta(tmp_path: Path) -> None:
    store, log = tmp_path / "store.sqlite", tmp_path / "calls.txt"
    stream = io.StringIO()
    grid = configuration_grid(x=range(4), log=[str(log)])
    run_sweep(LOGGED_SQUARE, grid, store=store, workers=1, progress=stream)
    final = stream.getvalue().splitlines()[-1]
    # The elapsed time is printed, not bounded: a busy machine may take longer.
    assert re.match(r"\[#{30}\] 4/4 elapsed \d+:\d\d:\d\d ", final), final
    assert final.endswith("ETA done")


# Polls of the waiting loops below: bounded by a count, not by a clock. The
# failure message says what did not happen within them.
POLLS, POLL_SECONDS = 1200, 0.05


def poll_until(condition: Any, what: str, polls: int = POLLS) -> None:
    """Poll ``condition()`` up to ``polls`` times, ``POLL_SECONDS`` apart."""
    for _ in range(polls):
        if condition():
            return
        time.sleep(POLL_SECONDS)
    pytest.fail(f"{what} did not happen in {polls} polls of {POLL_SECONDS} s")


def session_members(session: int) -> list[int]:
    """Live (non-zombie) processes of a session, by scanning /proc."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        # After the command: state, ppid, process group, session, ...
        if int(fields[3]) == session and fields[0] not in ("Z", "X"):
            members.append(int(entry.name))
    return members


def live(pids: Iterable[int]) -> list[int]:
    return [pid for pid in pids if process_alive(pid)]


def recorded_pids(directory: Path) -> set[int]:
    return {int(path.name) for path in directory.iterdir()}


SWEEP_SCRIPT = (
    "import json, sys\n"
    "from implicit_bias.validation.sweeps import run_sweep\n"
    "run_sweep(sys.argv[1], json.loads(sys.argv[2]), store=sys.argv[3],"
    " workers=2, progress=False)\n"
)


def start_sweep(grid: list[dict[str, Any]], store: Path) -> subprocess.Popen[bytes]:
    """The sweep of ``logged_square`` over ``grid`` in a new session."""
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            SWEEP_SCRIPT,
            LOGGED_SQUARE,
            json.dumps(grid),
            str(store),
        ],
        cwd=REPOSITORY,
        start_new_session=True,
    )


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
@pytest.mark.parametrize(
    "kills",
    [
        pytest.param(3, id="3-kills"),
        pytest.param(10, marks=pytest.mark.slow, id="10-kills"),
    ],
)
def test_a_sweep_killed_repeatedly_resumes_without_loss_duplicates_or_orphans(
    tmp_path: Path, kills: int
) -> None:
    store, log, pids = tmp_path / "store.sqlite", tmp_path / "calls.txt", tmp_path / "p"
    pids.mkdir()
    rng = random.Random(1000 + kills)
    # Each round stores at most a few results (<= 3 after the poll that sees
    # them, or what 2 workers do in 0.8 s at 0.1 s a call), so the sweep is
    # never over when it is killed.
    count = 6 * kills + 20
    grid = configuration_grid(
        x=range(count), log=[str(log)], delay=[0.1], pids=[str(pids)]
    )
    recomputed_after_storing = 0
    for round_ in range(kills):
        before = {json.loads(c)["x"] for _, c, _ in stored_rows(store)}
        calls_before = len(log.read_text().split()) if log.exists() else 0
        sweep = start_sweep(grid, store)
        try:
            if round_ % 2 == 0:  # after a random number of newly stored results
                target = len(before) + rng.randint(1, 3)
                poll_until(
                    lambda target=target, sweep=sweep: (
                        len(stored_rows(store)) >= target or sweep.poll() is not None
                    ),
                    f"storing {target} results (round {round_})",
                )
            else:  # after a random delay, maybe before anything is stored
                time.sleep(rng.uniform(0.0, 0.8))
            assert sweep.poll() is None, f"the sweep ended before kill {round_}"
            os.kill(sweep.pid, signal.SIGKILL)
        finally:
            sweep.wait()
        assert sweep.returncode == -signal.SIGKILL
        # The workers die with their parent: nothing of its session survives.
        poll_until(
            lambda sweep=sweep: (
                not session_members(sweep.pid) and not live(recorded_pids(pids))
            ),
            f"the end of the workers of killed sweep {round_} "
            f"(alive: {session_members(sweep.pid)})",
        )
        calls = [int(x) for x in log.read_text().split()[calls_before:]]
        recomputed_after_storing += len(before.intersection(calls))
    before = {json.loads(c)["x"] for _, c, _ in stored_rows(store)}
    calls_before = len(log.read_text().split())
    assert len(before) < count

    summary = run_sweep(LOGGED_SQUARE, grid, store=store, workers=2, progress=False)

    recomputed_after_storing += len(
        before.intersection(int(x) for x in log.read_text().split()[calls_before:])
    )
    assert summary.already_stored == len(before)
    assert summary.computed == count - len(before)
    rows = stored_rows(store)
    keys = [key for key, _, _ in rows]
    xs = [json.loads(c)["x"] for _, c, _ in rows]
    lost = set(range(count)) - set(xs)
    duplicated = len(xs) - len(set(xs))
    assert (len(lost), duplicated, recomputed_after_storing) == (0, 0, 0)
    assert len(set(keys)) == len(keys) == count
    for key, configuration, result in rows:
        x = json.loads(configuration)["x"]
        assert json.loads(result) == {"square": x * x}
        assert key == configuration_key(LOGGED_SQUARE, json.loads(configuration))
    # The final run's pool is shut down and joined before run_sweep returns;
    # polled all the same, as the killed runs' workers are: a recorded pid of a
    # dead worker may since have gone to a short-lived process of a busy
    # machine (pid_max can be 32768), which is not an orphan (seen once in CI).
    poll_until(
        lambda: not live(recorded_pids(pids)),
        "the end of every worker whose pid the sweeps recorded",
    )
    print(
        f"{kills} kills: {len(before)} of {count} stored before the final run; "
        f"lost {len(lost)}, duplicated {duplicated}, recomputed after storing "
        f"{recomputed_after_storing}, orphaned 0 of {len(recorded_pids(pids))} "
        "recorded worker pids"
    )


INTERRUPTED_SCRIPT = (
    "import json, sys\n"
    "from implicit_bias.validation.sweeps import SweepInterrupted, run_sweep\n"
    "try:\n"
    "    run_sweep(sys.argv[1], json.loads(sys.argv[2]), store=sys.argv[3],"
    " workers=2, progress=False)\n"
    "except SweepInterrupted as error:\n"
    "    print(json.dumps([error.signal_number, error.summary.computed, str(error)]))\n"
    "    sys.exit(128 + error.signal_number)\n"
)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGINT])
def test_sigterm_and_sigint_stop_the_workers_and_keep_the_results(
    tmp_path: Path, signal_number: int
) -> None:
    store, log, pids = tmp_path / "store.sqlite", tmp_path / "calls.txt", tmp_path / "p"
    pids.mkdir()
    grid = configuration_grid(
        x=range(20), log=[str(log)], delay=[0.1], pids=[str(pids)]
    )
    arguments = [json.dumps(grid), str(store)]
    sweep = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED_SCRIPT, LOGGED_SQUARE, *arguments],
        cwd=REPOSITORY,
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        poll_until(lambda: len(stored_rows(store)) >= 2, "storing 2 results")
        workers = recorded_pids(pids)
        os.kill(sweep.pid, signal_number)
        out, err = sweep.communicate()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(sweep.pid, signal.SIGKILL)
    assert sweep.returncode == 128 + signal_number, err.decode()
    assert err == b""
    number, computed, message = json.loads(out)
    assert number == signal_number
    assert "\n" not in message
    assert message.startswith(f"interrupted by {signal.Signals(signal_number).name}")
    assert computed == len(stored_rows(store)) >= 2
    poll_until(lambda: not live(workers), "the end of the workers")
    assert not session_members(sweep.pid)
    # The claims of the interrupted sweep are released: a rerun takes them.
    summary = run_sweep(LOGGED_SQUARE, grid, store=store, workers=2, progress=False)
    assert summary.already_stored + summary.computed == 20


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
@pytest.mark.parametrize(
    ("signal_number", "group"), [(signal.SIGINT, True), (signal.SIGTERM, False)]
)
def test_the_command_line_stops_on_a_signal_with_one_line(
    tmp_path: Path, signal_number: int, group: bool
) -> None:
    """Ctrl-C reaches the whole process group (``group``), SIGTERM the parent."""
    store = tmp_path / "slices.sqlite"
    command = [sys.executable, "-m", "implicit_bias.cli", "sweep"]
    command += ["transferability-slices", "--store", str(store), "--workers", "2"]
    sweep = subprocess.Popen(
        command,
        cwd=REPOSITORY,
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        # Two workers are up once three processes share the session.
        poll_until(lambda: len(session_members(sweep.pid)) >= 3, "starting 2 workers")
        workers = set(session_members(sweep.pid)) - {sweep.pid}
        if group:
            os.killpg(sweep.pid, signal_number)
        else:
            os.kill(sweep.pid, signal_number)
        _, err = sweep.communicate()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(sweep.pid, signal.SIGKILL)
    assert sweep.returncode == 128 + signal_number, err.decode()
    lines = [line for line in err.decode().split("\n") if line.strip()]
    # The progress bar (not a terminal: a line every 10 s) may precede it.
    lines = [line for line in lines if not line.startswith("[")]
    assert len(lines) == 1, err.decode()
    name = signal.Signals(signal_number).name
    assert lines[0].startswith(f"implicit-bias sweep: interrupted by {name}")
    assert "Traceback" not in err.decode()
    poll_until(lambda: not live(workers), "the end of the workers")


CONCURRENT_SCRIPT = (
    "import dataclasses, json, os, sys, time\n"
    "from implicit_bias.validation.sweeps import run_sweep\n"
    "for _ in range(1200):\n"
    "    if os.path.exists(sys.argv[4]):\n"
    "        break\n"
    "    time.sleep(0.05)\n"
    "summary = run_sweep(sys.argv[1], json.loads(sys.argv[2]), store=sys.argv[3],"
    " workers=1, progress=False)\n"
    "print(json.dumps(dataclasses.asdict(summary)))\n"
)


def test_concurrent_sweeps_on_one_store_compute_each_configuration_once(
    tmp_path: Path,
) -> None:
    store, log, go = tmp_path / "store.sqlite", tmp_path / "calls.txt", tmp_path / "go"
    count = 24
    grid = configuration_grid(x=range(count), log=[str(log)], delay=[0.1])
    arguments = [LOGGED_SQUARE, json.dumps(grid), str(store), str(go)]
    sweeps_ = [
        subprocess.Popen(
            [sys.executable, "-c", CONCURRENT_SCRIPT, *arguments],
            cwd=REPOSITORY,
            stdout=subprocess.PIPE,
        )
        for _ in range(2)
    ]
    go.touch()  # both start at once, on one store
    summaries = [json.loads(sweep.communicate()[0]) for sweep in sweeps_]
    assert [sweep.returncode for sweep in sweeps_] == [0, 0]
    assert call_counts(log) == collections.Counter(range(count))
    assert sum(summary["computed"] for summary in summaries) == count
    for summary in summaries:
        assert summary["total"] == count
        assert summary["failed"] == 0
        assert (
            summary["already_stored"]
            + summary["computed"]
            + summary["stored_by_others"]
            == count
        )
    # Both took part (each computed some), as their stored owners say too.
    assert all(summary["computed"] > 0 for summary in summaries), summaries
    connection = sqlite3.connect(store)
    try:
        owners = connection.execute(
            "SELECT owner, COUNT(*) FROM results GROUP BY owner"
        ).fetchall()
        claims = connection.execute("SELECT COUNT(*) FROM claims").fetchone()[0]
    finally:
        connection.close()
    assert sorted(n for _, n in owners) == sorted(s["computed"] for s in summaries)
    assert claims == 0
    assert sorted(c["x"] for c, _ in load_results(store)) == list(range(count))


def test_a_claim_of_a_dead_sweep_is_taken_over(tmp_path: Path) -> None:
    store, log = tmp_path / "store.sqlite", tmp_path / "calls.txt"
    grid = configuration_grid(x=range(4), log=[str(log)])
    run_sweep(LOGGED_SQUARE, grid[:1], store=store, workers=1, progress=False)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    key = configuration_key(LOGGED_SQUARE, grid[1])
    connection = sqlite3.connect(store)
    with connection:
        connection.execute(
            "INSERT INTO claims VALUES (?, 'gone', ?, ?, '', ?)",
            (key, dead.pid, socket.gethostname(), time.time()),
        )
    connection.close()
    summary = run_sweep(LOGGED_SQUARE, grid, store=store, workers=1, progress=False)
    assert (summary.already_stored, summary.computed) == (1, 3)
    assert call_counts(log) == collections.Counter(range(4))


def test_the_blas_thread_count_is_applied_and_recorded(tmp_path: Path) -> None:
    function = "tests.validation.test_sweeps.blas_threads_in_use"
    for threads in (1, 2):
        store = tmp_path / f"threads-{threads}.sqlite"
        summary = run_sweep(
            function, [{}], store=store, workers=1, progress=False, blas_threads=threads
        )
        assert summary.blas_threads == threads
        [(_, in_use)] = load_results(store)
        # Within the limit: OpenBLAS cannot exceed its own maximum.
        assert in_use
        assert max(in_use) <= threads
        if threads == 1:
            assert in_use == [1] * len(in_use)
        connection = sqlite3.connect(store)
        try:
            recorded = connection.execute("SELECT blas_threads FROM results").fetchall()
            meta = connection.execute(
                "SELECT value FROM meta WHERE name = 'blas_threads'"
            ).fetchone()
        finally:
            connection.close()
        assert recorded == [(threads,)]
        assert meta == (str(threads),)
    # One store holds one thread count.
    with pytest.raises(InvalidArgumentError, match=r"blas_threads=2 differs .* 1 "):
        run_sweep(
            function,
            [{"x": 1}],
            store=tmp_path / "threads-1.sqlite",
            workers=1,
            progress=False,
            blas_threads=2,
        )


def multipage_store(path: Path) -> Path:
    """A sweep store of many pages, checkpointed into its file."""
    grid = configuration_grid(x=range(300), log=[str(path.with_suffix(".log"))])
    run_sweep(LOGGED_SQUARE, grid, store=path, workers=1, progress=False)
    assert path.stat().st_size >= 20 * 4096
    assert not Path(f"{path}-wal").exists()  # all in the main file
    return path


def damage(kind: str, path: Path) -> str:
    """Make ``path`` a damaged store of the given kind; the error's words."""
    if kind == "directory":
        path.mkdir()
        return "is a directory"
    if kind == "not-sqlite":
        path.write_text("x,y\n1,2\n")
        return "not an SQLite database"
    if kind == "other-schema":
        connection = sqlite3.connect(path)
        connection.execute("CREATE TABLE measurements (t REAL, value REAL)")
        connection.close()
        return "another schema"
    if kind == "old-schema":
        connection = sqlite3.connect(path)
        connection.execute(
            "CREATE TABLE results (key TEXT PRIMARY KEY, function TEXT, version TEXT,"
            " configuration TEXT, result TEXT, seconds REAL, completed_at TEXT)"
        )
        connection.close()
        return "older implicit-bias"
    multipage_store(path)
    data = bytearray(path.read_bytes())
    if kind == "truncated":
        path.write_bytes(data[: len(data) // 2 + 100])
        return "truncated"
    if kind == "truncated-at-a-page":
        path.write_bytes(data[: len(data) // 2 // 4096 * 4096])
        return "truncated"
    if kind == "corrupt-page":
        middle = len(data) // 2 // 4096 * 4096
        data[middle : middle + 4096] = random.Random(5).randbytes(4096)
        path.write_bytes(data)
        return "corrupt"
    assert kind == "read-only"
    path.chmod(0o444)
    return "read-only"


@pytest.mark.parametrize(
    "kind",
    [
        "directory",
        "not-sqlite",
        "other-schema",
        "old-schema",
        "truncated",
        "truncated-at-a-page",
        "corrupt-page",
        "read-only",
    ],
)
def test_a_damaged_store_is_refused_by_name(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "store.sqlite"
    words = damage(kind, path)
    grid = configuration_grid(x=range(3), log=[str(tmp_path / "calls.txt")])
    with pytest.raises(InvalidArgumentError, match=words) as error:
        run_sweep(LOGGED_SQUARE, grid, store=path, workers=1, progress=False)
    assert f"store={str(path)!r}" in str(error.value)
    assert not (tmp_path / "calls.txt").exists()  # refused before any work
    if kind != "read-only":  # reading a read-only store is fine
        with pytest.raises(InvalidArgumentError, match=words):
            load_results(path)
    else:
        assert len(load_results(path)) == 300


def test_a_store_in_a_missing_directory_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "missing" / "store.sqlite"
    with pytest.raises(InvalidArgumentError, match="does not exist"):
        run_sweep(RELU_PENALTY, [{}], store=path, workers=1, progress=False)


def test_the_dask_executor_runs_a_sweep_on_a_local_cluster(tmp_path: Path) -> None:
    distributed = pytest.importorskip(
        "distributed", reason="Dask distributed is not installed (implicit-bias[dist])"
    )
    sweep = BUILTIN_SWEEPS["relu-penalty-demo"]()
    configurations = sweep.configurations[::5]
    store = tmp_path / "dask.sqlite"
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        first = run_sweep(
            sweep.function,
            configurations,
            store=store,
            executor="dask",
            scheduler=cluster.scheduler_address,
            progress=False,
        )
        second = run_sweep(
            sweep.function,
            configurations,
            store=store,
            executor="dask",
            scheduler=cluster.scheduler_address,
            progress=False,
        )
    assert (first.computed, second.already_stored, second.computed) == (11, 11, 0)
    results = load_results(store)
    expected = [
        float(relu_ptft_penalty(c["m"], c["rho"], c["m0"], c["gamma"]))
        for c, _ in results
    ]
    assert [result for _, result in results] == expected


def test_the_dask_executor_without_dask_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ImportError, match=r"implicit-bias\[dist\]"):
        run_sweep(
            RELU_PENALTY,
            [{"m": 1.0, "rho": 0.0, "m0": 1.0, "gamma": 0.0}],
            store=tmp_path / "store.sqlite",
            executor="dask",
            scheduler="tcp://127.0.0.1:1",
            progress=False,
        )


@pytest.mark.parametrize(
    ("function", "configurations", "keywords", "message"),
    [
        (RELU_PENALTY, [{}], {"executor": "threads"}, "executor='threads'"),
        (RELU_PENALTY, [{}], {"executor": "dask"}, "scheduler is missing"),
        (RELU_PENALTY, [{}], {"scheduler": "tcp://x:1"}, "used by executor='dask'"),
        (RELU_PENALTY, [{}], {"workers": 0}, "workers=0 is below 1"),
        (RELU_PENALTY, [{}], {"workers": 1.5}, "workers=1.5 is not an integer"),
        (RELU_PENALTY, [{}], {"version": 2}, "version=2 is not a string"),
        (RELU_PENALTY, [{}], {"blas_threads": 0}, "blas_threads=0 is below 1"),
        (RELU_PENALTY, [{}], {"blas_threads": 1.0}, "blas_threads=1.0 is not an"),
        (RELU_PENALTY, [{}], {"store": 1}, "store=1 is not a path"),
        (RELU_PENALTY, [{}], {"store": ""}, "store='' is not a non-empty path"),
        (RELU_PENALTY, [{}], {"progress": "yes"}, "progress='yes' is neither"),
        (RELU_PENALTY, [{}], {"executor": None}, "executor=None is not one of"),
        (RELU_PENALTY, None, {}, "configurations=None is not a list"),
        (RELU_PENALTY, "m", {}, "configurations='m' is not a list"),
        (1.0, [{}], {}, "function=1.0 is neither"),
        (RELU_PENALTY, {"m": 1.0}, {}, "a single dict"),
        (RELU_PENALTY, [[1.0]], {}, "configurations\\[0\\]=\\[1.0\\] is not a dict"),
        (RELU_PENALTY, [{"m": math.nan}], {}, "is not JSON-serializable"),
        (RELU_PENALTY, [{"m": object()}], {}, "is not JSON-serializable"),
        ("no_such_module.f", [{}], {}, "cannot be imported"),
        (lambda x: x, [{}], {}, "cannot be imported"),
        ("implicit_bias.validation.sweeps.EXECUTORS", [{}], {}, "is not callable"),
    ],
)
def test_invalid_arguments_are_rejected(
    tmp_path: Path,
    function: Any,
    configurations: Any,
    keywords: dict[str, Any],
    message: str,
) -> None:
    defaults: dict[str, Any] = {"store": tmp_path / "store.sqlite", "progress": False}
    with pytest.raises(InvalidArgumentError, match=message):
        run_sweep(
            function,
            configurations,
            **(defaults | keywords),
        )


def test_load_results_rejects_what_is_not_a_store(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgumentError, match="does not exist"):
        load_results(tmp_path / "missing.sqlite")
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).close()
    with pytest.raises(InvalidArgumentError, match="is not a sweep store"):
        load_results(other)


def test_transferability_point_reports_simulation_beside_theory() -> None:
    point = sweeps.transferability_point(
        theta=np.pi / 4, gamma=0.5, dimension=60, draws=3, sigma=0.2, seed=1
    )
    assert point["linear_theory"] == pytest.approx(
        float(linear_transferability(0.5, np.pi / 4, 0.2)), rel=1e-15
    )
    assert point["finetune_theory"] == pytest.approx(
        float(finetune_transferability(0.5, np.pi / 4, form="printed")), rel=1e-15
    )
    assert point["linear_standard_error"] > 0
    assert all(np.isfinite(value) for value in point.values())


@pytest.mark.parametrize("gamma", [1000.5, 1e300, 1.7976931348623157e308])
def test_transferability_point_refuses_gamma_above_1e3(gamma: float) -> None:
    # round(gamma d) raised OverflowError at gamma d = inf, and a huge finite
    # gamma asked for round(gamma d) samples per draw.
    with pytest.raises(InvalidArgumentError, match=r"^gamma=.* above 1000"):
        sweeps.transferability_point(
            theta=np.pi / 4, gamma=gamma, dimension=4, draws=2, sigma=0.2, seed=1
        )


def test_the_transferability_sweep_is_the_figures_grid() -> None:
    sweep = sweeps.BUILTIN_SWEEPS["transferability-slices"]()
    assert len(sweep.configurations) == 3 * 10
    assert len({c["seed"] for c in sweep.configurations}) == 30
    assert all(c["gamma"] != 1.0 for c in sweep.configurations)
