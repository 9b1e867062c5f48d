r"""Resumable simulation sweeps: grids of configurations, stored as they complete.

A sweep is a function, named by its dotted import path so that worker
processes (local or on a Dask cluster) can import it, and a list of
configurations: dicts of JSON-serializable parameters, each passed to the
function as keyword arguments. The function returns a JSON-serializable
result (NumPy scalars and arrays are converted with ``.tolist()``).

**Identity.** A configuration is identified by the SHA-256 of the canonical
JSON (sorted keys, no whitespace, no NaN) of
``{"configuration": ..., "function": ..., "version": ...}``, so the same
parameters under another function, or under a new ``version`` of the same
function (bump it when the function's results change), are computed afresh.
Note that JSON tells ``1`` from ``1.0``.

**Storage.** Results go to an embedded SQLite database (``store``), one row per
configuration, written by the parent process only and committed one by one
as they arrive, in WAL mode with ``synchronous=FULL``. A sweep that is
interrupted -- even by SIGKILL -- keeps every committed result; running it
again computes only the configurations missing from the store, so nothing
is lost and nothing stored is computed twice (a configuration that was
running at the moment of the kill was never stored, and is computed again).
A configuration whose function raises is not stored; the sweep finishes the
others and then raises :class:`SweepError`, and a rerun retries the failures.

**Executors.** ``executor="process"`` (the default) runs the configurations in
a :class:`concurrent.futures.ProcessPoolExecutor` of ``workers`` processes;
``executor="dask"`` submits them to the Dask distributed scheduler at
``scheduler`` (an address such as ``tcp://10.0.0.5:8786``), which needs the
``implicit-bias[dist]`` extra and workers that can import the function.

**Built-in sweeps** (:data:`BUILTIN_SWEEPS`) are run by name from the command
line, ``implicit-bias sweep NAME --store PATH --workers N --executor
{process,dask} --scheduler ADDRESS``.

Examples:
  >>> import tempfile, pathlib
  >>> directory = tempfile.TemporaryDirectory()
  >>> store = pathlib.Path(directory.name) / "demo.sqlite"
  >>> grid = configuration_grid(m=[0.5, 2.0], rho=[1.0], m0=[1.0], gamma=[0.5, 2.0])
  >>> function = "implicit_bias.numerics.relu_penalty.relu_ptft_penalty"
  >>> run_sweep(function, grid, store=store, workers=1, progress=False).computed
  4
  >>> run_sweep(function, grid, store=store, workers=1, progress=False).computed
  0
  >>> results = dict(
  ...     ((c["m"], c["gamma"]), r) for c, r in load_results(store, function)
  ... )
  >>> results[(2.0, 2.0)] < 1e-28  # m = gamma m0 at rho = 1: no deviation needed
  True
  >>> directory.cleanup()
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import itertools
import json
import math
import os
import sqlite3
import sys
import time
import traceback
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple, TextIO

import numpy as np
from threadpoolctl import threadpool_limits

from implicit_bias.errors import ImplicitBiasError, InvalidArgumentError

__all__ = [
    "BUILTIN_SWEEPS",
    "EXECUTORS",
    "Sweep",
    "SweepError",
    "SweepSummary",
    "configuration_grid",
    "configuration_key",
    "load_results",
    "run_sweep",
    "transferability_point",
]

EXECUTORS = ("process", "dask")
"""The executors :func:`run_sweep` accepts."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY,
    function TEXT NOT NULL,
    version TEXT NOT NULL,
    configuration TEXT NOT NULL,
    result TEXT NOT NULL,
    seconds REAL NOT NULL,
    completed_at TEXT NOT NULL
)
"""

# Futures kept in flight per local worker: enough to keep every worker busy
# while results are being written, few enough that an interrupted sweep
# leaves little queued work behind.
_IN_FLIGHT_PER_WORKER = 4


@dataclass(frozen=True)
class SweepSummary:
    """What one call of :func:`run_sweep` did.

    Attributes:
      total: distinct configurations in the sweep.
      already_stored: configurations found in the store before the run.
      computed: configurations computed and stored by this run.
      failed: configurations whose function raised (not stored).
      seconds: wall-clock duration of the run.
    """

    total: int
    already_stored: int
    computed: int
    failed: int
    seconds: float


class SweepError(ImplicitBiasError, RuntimeError):
    """Some configurations of a sweep raised; the others were stored.

    Rerunning the sweep retries exactly the failed configurations. The
    :class:`SweepSummary` of the run is the attribute ``summary``.
    """

    def __init__(self, message: str, summary: SweepSummary) -> None:
        super().__init__(message)
        self.summary = summary


@dataclass(frozen=True)
class Sweep:
    """A named sweep: a function's dotted name, its configurations and version.

    Attributes:
      function: dotted import path of the function (``package.module.name``).
      configurations: the keyword arguments of each call.
      version: part of every configuration's key; bump it when results change.
    """

    function: str
    configurations: tuple[Mapping[str, Any], ...]
    version: str


class _Outcome(NamedTuple):
    """A worker's answer: the result as JSON, or the error's traceback."""

    result: str | None
    error: str | None
    seconds: float


def _json_default(value: Any) -> Any:
    if isinstance(value, np.ndarray | np.generic):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON-serializable")


def _canonical_json(value: Any) -> str:
    return json.dumps(
        value,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
        allow_nan=False,
        default=_json_default,
    )


def _function_name(function: str | Callable[..., Any]) -> str:
    if isinstance(function, str):
        name = function
    else:
        name = f"{function.__module__}.{function.__qualname__}"
    try:
        resolved = _resolve(name)
    except (ImportError, AttributeError, ValueError) as error:
        raise InvalidArgumentError(
            f"function={name!r} cannot be imported by its dotted name: a sweep's "
            "function must be a module-level function, so that workers can import it"
        ) from error
    if not isinstance(function, str) and resolved is not function:
        raise InvalidArgumentError(
            f"function={name!r} resolves to another object than the one passed: "
            "a sweep's function must be a module-level function"
        )
    if not callable(resolved):
        raise InvalidArgumentError(f"function={name!r} is not callable")
    return name


def _resolve(name: str) -> Any:
    """Import ``package.module.attribute`` (or ``package.module:attribute``)."""
    if ":" in name:
        module_name, attribute = name.split(":", 1)
    else:
        module_name, _, attribute = name.rpartition(".")
    if not module_name or not attribute:
        raise ValueError(f"{name!r} is not a dotted name")
    value: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        value = getattr(value, part)
    return value


def configuration_key(
    function: str | Callable[..., Any],
    configuration: Mapping[str, Any],
    *,
    version: str = "1",
) -> str:
    r"""The key of a configuration: SHA-256 of its JSON with function and version.

    .. math:: \mathrm{key} = \mathrm{sha256}\bigl(\mathrm{json}(\{
              \texttt{configuration}, \texttt{function}, \texttt{version}\})\bigr)

    The JSON is canonical: keys sorted, no whitespace, ASCII, no NaN or
    infinity; NumPy scalars and arrays count as their ``.tolist()``.

    Args:
      function: the function or its dotted import path.
      configuration: the keyword arguments, JSON-serializable.
      version: the sweep's version string.

    Returns:
      64 hexadecimal digits.

    Raises:
      InvalidArgumentError: the function cannot be imported by its dotted name,
        or the configuration is not a JSON-serializable dict with string keys.

    Examples:
      >>> name = "implicit_bias.numerics.relu_penalty.relu_ptft_penalty"
      >>> a = configuration_key(name, {"m": 1.0, "rho": 0.5, "m0": 1.0, "gamma": 0.0})
      >>> b = configuration_key(name, {"gamma": 0.0, "m0": 1.0, "rho": 0.5, "m": 1.0})
      >>> a == b, len(a)
      (True, 64)
      >>> a == configuration_key(
      ...     name, {"m": 1.0, "rho": 0.5, "m0": 1.0, "gamma": 0.0}, version="2"
      ... )
      False
    """
    name = _function_name(function)
    return _key(name, _configuration_json(configuration, "configuration"), version)


def _key(function: str, configuration_json: str, version: str) -> str:
    document = (
        f'{{"configuration":{configuration_json},'
        f'"function":{json.dumps(function)},"version":{json.dumps(version)}}}'
    )
    return hashlib.sha256(document.encode("ascii")).hexdigest()


def _configuration_json(configuration: Any, name: str) -> str:
    if not isinstance(configuration, Mapping) or not all(
        isinstance(key, str) for key in configuration
    ):
        raise InvalidArgumentError(
            f"{name}={configuration!r} is not a dict with string keys: a "
            "configuration holds a function's keyword arguments"
        )
    try:
        return _canonical_json(dict(configuration))
    except (TypeError, ValueError) as error:
        raise InvalidArgumentError(
            f"{name}={configuration!r} is not JSON-serializable ({error}); "
            "parameters must be numbers (finite), strings, booleans, None, "
            "lists or dicts"
        ) from error


def configuration_grid(**axes: Iterable[Any]) -> list[dict[str, Any]]:
    """The Cartesian product of parameter values, as a list of configurations.

    Args:
      **axes: parameter name -> the values it takes.

    Returns:
      One dict per combination, the last axis varying fastest.

    Examples:
      >>> configuration_grid(n=[10, 20], gamma=[0.5])
      [{'n': 10, 'gamma': 0.5}, {'n': 20, 'gamma': 0.5}]
    """
    names = list(axes)
    values = [list(axis) for axis in axes.values()]
    return [
        dict(zip(names, combination, strict=True))
        for combination in itertools.product(*values)
    ]


def _limit_blas_threads(threads: int) -> None:
    threadpool_limits(limits=threads)


def _evaluate(function: str, configuration_json: str) -> _Outcome:
    """Run one configuration in a worker; never raises, so both executors agree."""
    start = time.perf_counter()
    try:
        result = _resolve(function)(**json.loads(configuration_json))
        return _Outcome(_canonical_json(result), None, time.perf_counter() - start)
    except Exception:
        return _Outcome(None, traceback.format_exc(), time.perf_counter() - start)


def _connect(store: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(store, timeout=60.0, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    # FULL: every commit reaches the disk, so a result once reported stored
    # survives a kill of the process and a loss of power alike.
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute(_SCHEMA)
    return connection


def _insert(
    connection: sqlite3.Connection,
    key: str,
    function: str,
    version: str,
    configuration_json: str,
    outcome: _Outcome,
) -> None:
    # Autocommit (isolation_level=None): the row is durable when this returns.
    connection.execute(
        "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO NOTHING",
        (
            key,
            function,
            version,
            configuration_json,
            outcome.result,
            outcome.seconds,
            datetime.now(UTC).isoformat(),
        ),
    )


def _stored_keys(connection: sqlite3.Connection, keys: Sequence[str]) -> set[str]:
    stored: set[str] = set()
    # Batches stay below SQLite's limit on bound parameters (999 before 3.32).
    for start in range(0, len(keys), 900):
        batch = keys[start : start + 900]
        marks = ",".join("?" * len(batch))
        rows = connection.execute(
            f"SELECT key FROM results WHERE key IN ({marks})", batch
        )
        stored.update(row[0] for row in rows)
    return stored


class _Progress:
    """A one-line progress bar with an ETA on a stream (stderr by default)."""

    _WIDTH = 30

    def __init__(self, stream: TextIO | None, total: int, already: int) -> None:
        self._stream = stream
        self._total, self._done, self._already = total, already, already
        self._failed = 0
        self._start = time.monotonic()
        self._last_draw = -math.inf
        self._interactive = bool(stream is not None and stream.isatty())

    def advance(self, failed: bool) -> None:
        self._done += 1
        self._failed += failed
        self._draw(final=False)

    def finish(self) -> None:
        self._draw(final=True)

    def _draw(self, final: bool) -> None:
        if self._stream is None:
            return
        now = time.monotonic()
        # A terminal redraws in place a few times a second; a log file gets a
        # line every 10 s, so it stays readable.
        interval = 0.2 if self._interactive else 10.0
        if not final and now - self._last_draw < interval:
            return
        self._last_draw = now
        elapsed = now - self._start
        computed = self._done - self._already
        remaining = self._total - self._done
        eta = elapsed / computed * remaining if computed else math.inf
        filled = self._WIDTH * self._done // max(self._total, 1)
        line = (
            f"[{'#' * filled}{'.' * (self._WIDTH - filled)}] "
            f"{self._done}/{self._total} "
            f"elapsed {_clock(elapsed)} ETA {_clock(eta) if remaining else 'done'}"
            + (f" ({self._failed} failed)" if self._failed else "")
        )
        end = "\n" if final or not self._interactive else ""
        self._stream.write(("\r" if self._interactive else "") + line + end)
        self._stream.flush()


def _clock(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "?"
    minutes, second = divmod(round(seconds), 60)
    hours, minute = divmod(minutes, 60)
    return f"{hours}:{minute:02d}:{second:02d}"


def _check_workers(workers: int | None) -> int:
    if workers is None:
        return os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int | np.integer):
        raise InvalidArgumentError(f"workers={workers!r} is not an integer")
    if workers < 1:
        raise InvalidArgumentError(
            f"workers={workers!r} is below 1: workers counts processes"
        )
    return int(workers)


def _process_outcomes(
    function: str, pending: dict[str, str], workers: int
) -> Generator[tuple[str, _Outcome], None, None]:
    # Processes share the cores: each gets its share of BLAS threads, since
    # OpenBLAS pools beyond it spin-wait against each other.
    threads = max(1, (os.cpu_count() or 1) // workers)
    executor = ProcessPoolExecutor(
        max_workers=workers, initializer=_limit_blas_threads, initargs=(threads,)
    )
    queue = iter(pending.items())
    in_flight: dict[Future[_Outcome], str] = {}
    try:
        while True:
            while len(in_flight) < _IN_FLIGHT_PER_WORKER * workers:
                item = next(queue, None)
                if item is None:
                    break
                key, configuration_json = item
                future = executor.submit(_evaluate, function, configuration_json)
                in_flight[future] = key
            if not in_flight:
                return
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            for future in done:
                yield in_flight.pop(future), future.result()
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def _dask_outcomes(
    function: str, pending: dict[str, str], scheduler: str
) -> Generator[tuple[str, _Outcome], None, None]:
    try:
        from distributed import Client, as_completed
    except ImportError as error:
        raise ImportError(
            "executor='dask' needs Dask distributed; install it with "
            "`pip install 'implicit-bias[dist]'`"
        ) from error
    with Client(scheduler) as client:
        futures = {
            client.submit(_evaluate, function, configuration_json, pure=False): key
            for key, configuration_json in pending.items()
        }
        for future in as_completed(futures):
            yield futures[future], future.result()
            future.release()


def run_sweep(
    function: str | Callable[..., Any],
    configurations: Iterable[Mapping[str, Any]],
    *,
    store: str | os.PathLike[str] = "sweeps.sqlite",
    version: str = "1",
    workers: int | None = None,
    executor: str = "process",
    scheduler: str | None = None,
    progress: bool | TextIO = True,
) -> SweepSummary:
    """Compute every configuration missing from the store, storing each as it completes.

    Each result is committed to the SQLite database ``store`` by this process
    as soon as its worker returns it; configurations already stored (same
    function, version and parameters) are skipped, so rerunning an
    interrupted sweep resumes it. Duplicate configurations run once.

    Args:
      function: a module-level function, or its dotted import path; called as
        ``function(**configuration)`` and returning a JSON-serializable result.
      configurations: the keyword arguments of each call; JSON-serializable.
      store: path of the SQLite database, created if missing.
      version: part of every key; bump it when the function's results change.
      workers: local processes (``executor="process"``); default: CPU count.
      executor: ``"process"`` (local processes) or ``"dask"``.
      scheduler: the Dask scheduler's address, required with ``"dask"``.
      progress: draw a progress bar with ETA on stderr (True), on the given
        stream, or not at all (False).

    Returns:
      A :class:`SweepSummary` of the run.

    Raises:
      InvalidArgumentError: an argument is invalid (the message says which).
      ImportError: ``executor="dask"`` without Dask distributed installed.
      SweepError: some configurations raised; every other one was stored.
      concurrent.futures.process.BrokenProcessPool: a local worker died (e.g.
        killed for memory); what was stored stays, and a rerun resumes.
    """
    start = time.monotonic()
    name = _function_name(function)
    if not isinstance(version, str):
        raise InvalidArgumentError(f"version={version!r} is not a string")
    if executor not in EXECUTORS:
        raise InvalidArgumentError(
            f"executor={executor!r} is not one of {', '.join(EXECUTORS)}"
        )
    if executor == "dask" and not scheduler:
        raise InvalidArgumentError(
            "scheduler is missing: executor='dask' needs the address of a Dask "
            "scheduler, e.g. scheduler='tcp://127.0.0.1:8786'"
        )
    if executor == "process" and scheduler is not None:
        raise InvalidArgumentError(
            f"scheduler={scheduler!r} is given with executor='process': a "
            "scheduler address is used by executor='dask' only"
        )
    worker_count = _check_workers(workers)
    if isinstance(configurations, Mapping):
        raise InvalidArgumentError(
            "configurations is a single dict: pass a list of configurations"
        )
    by_key: dict[str, str] = {}
    for index, configuration in enumerate(configurations):
        configuration_json = _configuration_json(
            configuration, f"configurations[{index}]"
        )
        by_key.setdefault(_key(name, configuration_json, version), configuration_json)

    connection = _connect(Path(store))
    try:
        stored = _stored_keys(connection, list(by_key))
        pending = {k: c for k, c in by_key.items() if k not in stored}
        stream = sys.stderr if progress is True else (progress or None)
        bar = _Progress(stream, len(by_key), len(stored))
        failures: list[tuple[str, str]] = []
        computed = 0
        if pending:
            outcomes = (
                _dask_outcomes(name, pending, str(scheduler))
                if executor == "dask"
                else _process_outcomes(name, pending, min(worker_count, len(pending)))
            )
            # closing: an interruption (Ctrl-C, an error while storing) shuts
            # the executor down at once, instead of whenever the generator is
            # collected.
            with contextlib.closing(outcomes):
                for key, outcome in outcomes:
                    if outcome.result is None:
                        failures.append((pending[key], str(outcome.error)))
                    else:
                        _insert(connection, key, name, version, pending[key], outcome)
                        computed += 1
                    bar.advance(failed=outcome.result is None)
        bar.finish()
    finally:
        connection.close()
    summary = SweepSummary(
        total=len(by_key),
        already_stored=len(stored),
        computed=computed,
        failed=len(failures),
        seconds=time.monotonic() - start,
    )
    if failures:
        configuration_json, error = failures[0]
        raise SweepError(
            f"{len(failures)} of {len(pending)} configurations of {name} raised and "
            f"were not stored ({computed} were); rerun to retry them. First "
            f"failure, configuration {configuration_json}:\n{error}",
            summary,
        )
    return summary


def load_results(
    store: str | os.PathLike[str],
    function: str | Callable[..., Any] | None = None,
    *,
    version: str | None = None,
) -> list[tuple[dict[str, Any], Any]]:
    """Read the stored results back, in the order they were stored.

    Args:
      store: path of a sweep's SQLite database.
      function: only this function's results (the function or its dotted
        path); all functions when None.
      version: only results of this version; all versions when None.

    Returns:
      ``(configuration, result)`` pairs, both as parsed from their JSON.

    Raises:
      InvalidArgumentError: the store does not exist or holds no sweep results.
    """
    path = Path(store)
    if not path.exists():
        raise InvalidArgumentError(f"store={str(path)!r} does not exist")
    name = None
    if function is not None:
        name = function if isinstance(function, str) else _function_name(function)
    connection = sqlite3.connect(path, timeout=60.0)
    try:
        rows = connection.execute(
            "SELECT configuration, result FROM results "
            "WHERE (?1 IS NULL OR function = ?1) AND (?2 IS NULL OR version = ?2) "
            "ORDER BY rowid",
            (name, version),
        ).fetchall()
    except sqlite3.DatabaseError as error:
        raise InvalidArgumentError(
            f"store={str(path)!r} is not a sweep store ({error})"
        ) from error
    finally:
        connection.close()
    return [(json.loads(config), json.loads(result)) for config, result in rows]


def _relu_penalty_demo() -> Sweep:
    """Eq. (11) of ptft-relu-penalty on 11 m x 5 rho, m0 = 1, gamma = 1/2 (55 runs)."""
    return Sweep(
        function="implicit_bias.numerics.relu_penalty.relu_ptft_penalty",
        configurations=tuple(
            configuration_grid(
                m=[-3.0, -2.0, -1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0, 2.0, 3.0],
                rho=[-1.0, -0.5, 0.0, 0.5, 1.0],
                m0=[1.0],
                gamma=[0.5],
            )
        ),
        version="1",
    )


def transferability_point(
    theta: float, gamma: float, dimension: int, draws: int, sigma: float, seed: int
) -> dict[str, float]:
    r"""One point of Figs. 1(c)/3(c) of features-are-fate: trained vs theory.

    Trains ``draws`` L = 2 deep linear networks per kind (linear transfer,
    fine-tuning, scratch; :func:`implicit_bias.validation.transfer_experiments.
    transferability_slices`) on :math:`n = \gamma d` samples and returns the
    Monte-Carlo transferabilities with their standard errors, beside eqs. (13)
    and (17).

    .. math:: \mathcal T = \mathbb E_{\mathcal D}(\mathcal R_{sc} - \mathcal R_{tx})
    """
    # Imported here: a sweep worker loads only the function it runs.
    from implicit_bias.numerics.transfer_risks import (
        finetune_transferability,
        linear_transferability,
    )
    from implicit_bias.validation.transfer_experiments import transferability_slices

    slices = transferability_slices(
        [theta], [gamma], dimension=dimension, draws=draws, sigma=sigma, seed=seed
    )
    point: dict[str, float] = {}
    for kind, values, theory in (
        ("linear", slices.linear_transferability, linear_transferability),
        ("finetune", slices.finetune_transferability, None),
    ):
        per_draw = np.asarray(values).ravel()
        point[f"{kind}_mean"] = float(per_draw.mean())
        point[f"{kind}_standard_error"] = float(
            per_draw.std(ddof=1) / np.sqrt(per_draw.size)
        )
        if theory is not None:
            point[f"{kind}_theory"] = float(theory(gamma, theta, sigma))
    point["finetune_theory"] = float(finetune_transferability(gamma, theta))
    return point


def _transferability_slices() -> Sweep:
    """Figs. 1(c)/3(c) of features-are-fate: 3 theta x 10 gamma, d = 500, 20 draws."""
    gammas = [0.2, 0.4, 0.6, 0.8, 0.9, 1.1, 1.25, 1.5, 1.75, 2.0]
    return Sweep(
        function="implicit_bias.validation.sweeps.transferability_point",
        configurations=tuple(
            dict(configuration, seed=index)
            for index, configuration in enumerate(
                configuration_grid(
                    theta=[np.pi / 8, np.pi / 4, 3 * np.pi / 8],
                    gamma=gammas,
                    dimension=[500],
                    draws=[20],
                    sigma=[0.2],
                )
            )
        ),
        version="1",
    )


# Built-in sweeps by name: name -> a factory, so that a grid is built (and its
# module imported) only when that sweep is asked for. A factory's docstring is
# the sweep's description in `implicit-bias sweep --help`.
BUILTIN_SWEEPS: dict[str, Callable[[], Sweep]] = {
    "relu-penalty-demo": _relu_penalty_demo,
    "transferability-slices": _transferability_slices,
}
"""Sweeps runnable by name from ``implicit-bias sweep NAME``."""
