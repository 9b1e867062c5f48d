"""Sweeps: keys, storage, resumption (also after SIGKILL), executors and the CLI."""

from __future__ import annotations

import collections
import contextlib
import hashlib
import io
import json
import math
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.relu_penalty import relu_ptft_penalty
from implicit_bias.numerics.transfer_risks import (
    finetune_transferability,
    linear_transferability,
)
from implicit_bias.validation import sweeps
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
    x: int, log: str, delay: float = 0.0, fail_while: str | None = None
) -> dict[str, int]:
    """A sweep function that records each completed call in ``log``.

    One line per call, appended in one write (atomic for short lines with
    O_APPEND), after the work and before the result is returned: a call that
    is cut short leaves no line. Raises for multiples of 3 while the file
    ``fail_while`` exists.
    """
    if fail_while is not None and os.path.exists(fail_while) and x % 3 == 0:
        raise ValueError(f"x={x} fails while {fail_while} exists")
    time.sleep(delay)
    with open(log, "a") as handle:
        handle.write(f"{x}\n")
    return {"square": x * x}


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
    assert final.startswith("[" + "#" * 30 + "] 4/4 elapsed 0:00:")
    assert final.endswith("ETA done")


def test_a_sweep_killed_by_sigkill_resumes_without_loss_or_recomputation(
    tmp_path: Path,
) -> None:
    store, log = tmp_path / "store.sqlite", tmp_path / "calls.txt"
    count = 30
    # The kill lands after a random number of stored results, at least one and
    # well before all of them (30 results take >= 1.5 s on 2 workers, the
    # kill comes within ~10 ms of the poll that sees the 6th).
    kill_after = random.randint(1, 6)
    grid = configuration_grid(x=range(count), log=[str(log)], delay=[0.1])
    script = (
        "import json, sys\n"
        "from implicit_bias.validation.sweeps import run_sweep\n"
        "run_sweep(sys.argv[1], json.loads(sys.argv[2]), store=sys.argv[3],"
        " workers=2, progress=False)\n"
    )
    sweep = subprocess.Popen(
        [sys.executable, "-c", script, LOGGED_SQUARE, json.dumps(grid), str(store)],
        cwd=REPOSITORY,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60.0
        while len(stored_rows(store)) < kill_after:
            assert sweep.poll() is None, "the sweep ended before it was killed"
            assert time.monotonic() < deadline, "the sweep stored nothing in 60 s"
            time.sleep(0.01)
        os.kill(sweep.pid, signal.SIGKILL)
    finally:
        sweep.wait()
        # The orphaned workers of the killed sweep (its session, started by
        # this test) would otherwise finish their tasks during the rerun.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(sweep.pid, signal.SIGKILL)
    assert sweep.returncode == -signal.SIGKILL
    before = {json.loads(c)["x"] for _, c, _ in stored_rows(store)}
    assert kill_after <= len(before) < count, f"kill_after={kill_after}"

    summary = run_sweep(LOGGED_SQUARE, grid, store=store, workers=2, progress=False)

    assert summary.already_stored == len(before)
    rows = stored_rows(store)
    keys = [key for key, _, _ in rows]
    xs = sorted(json.loads(c)["x"] for _, c, _ in rows)
    assert xs == list(range(count)), f"kill_after={kill_after}"
    assert len(set(keys)) == len(keys) == count
    for key, configuration, result in rows:
        x = json.loads(configuration)["x"]
        assert json.loads(result) == {"square": x * x}
        assert key == configuration_key(LOGGED_SQUARE, json.loads(configuration))
    calls = call_counts(log)
    # Stored before the kill: never computed again. Running at the kill: at
    # most once more. Everything: at least once.
    assert all(calls[x] == 1 for x in before), (kill_after, calls)
    assert all(1 <= calls[x] <= 2 for x in range(count)), (kill_after, calls)


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
    with pytest.raises(InvalidArgumentError, match=message):
        run_sweep(
            function,
            configurations,
            store=tmp_path / "store.sqlite",
            progress=False,
            **keywords,
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
        float(finetune_transferability(0.5, np.pi / 4)), rel=1e-15
    )
    assert point["linear_standard_error"] > 0
    assert all(np.isfinite(value) for value in point.values())


def test_the_transferability_sweep_is_the_figures_grid() -> None:
    sweep = sweeps.BUILTIN_SWEEPS["transferability-slices"]()
    assert len(sweep.configurations) == 3 * 10
    assert len({c["seed"] for c in sweep.configurations}) == 30
    assert all(c["gamma"] != 1.0 for c in sweep.configurations)
