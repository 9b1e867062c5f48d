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

**Storage.** Results go to an embedded SQLite database (``store``, see
:mod:`implicit_bias.validation.sweep_store`), one row per configuration,
written by the parent process only and committed one by one as they
arrive, in WAL mode with ``synchronous=FULL``. The store is checked when
opened (SQLite header and size, ``PRAGMA quick_check``, schema version,
writability), so a damaged or foreign file is refused by name before any
work. A sweep that is interrupted -- even by SIGKILL -- keeps every
committed result; running it again computes only the configurations
missing from the store, so nothing is lost and nothing stored is computed
twice (a configuration that was running at the moment of the kill was never
stored, and is computed again). A configuration whose function raises is
not stored; the sweep finishes the others and then raises
:class:`SweepError`, and a rerun retries the failures.

**Sharing a store.** Sweeps running at once on one store (on one host or on
several sharing the file system) share the work: each claims a
configuration in the store before computing it, so every configuration is
computed once; a claim whose owner process died (or stopped sending
heartbeats) is taken over. A sweep whose remaining configurations are all
claimed by others waits for their results; its :class:`SweepSummary` counts
what it computed and what others stored separately.

**Reproducibility.** Results may differ in their last bits with the number
of BLAS threads, so it is a sweep setting (``blas_threads``, default 1),
applied in every worker with :mod:`threadpoolctl`, recorded with every
result, and fixed per store: a sweep with another count on the same store
is refused (use one store per count).

**Executors.** ``executor="process"`` (the default) runs the configurations in
a :class:`concurrent.futures.ProcessPoolExecutor` of ``workers`` processes,
which die with the sweep (``PR_SET_PDEATHSIG`` on Linux, and a watch of
their parent elsewhere) -- a SIGKILLed sweep leaves no orphaned workers.
``executor="dask"`` submits them to the Dask distributed scheduler at
``scheduler`` (an address such as ``tcp://10.0.0.5:8786``), which needs the
``implicit-bias[dist]`` extra and workers that can import the function.
SIGTERM or SIGINT (Ctrl-C) of a sweep running in the main thread stops the
workers, keeps what was stored and raises :class:`SweepInterrupted`.

**Built-in sweeps** (:data:`BUILTIN_SWEEPS`) are run by name from the command
line, ``implicit-bias sweep NAME --store PATH --workers N --executor
{process,dask} --scheduler ADDRESS --blas-threads K``.

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

import collections
import hashlib
import itertools
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np

from implicit_bias.errors import ImplicitBiasError, InvalidArgumentError
from implicit_bias.numerics.arguments import check_integer, check_real, check_seed
from implicit_bias.validation.sweep_executors import (
    Stop,
    SIGNAL_NAMES,
    DaskBackend,
    ProcessBackend,
    Progress,
    Signals,
    canonical_json,
    resolve,
)
from implicit_bias.validation.sweep_store import SweepStore, store_path

__all__ = [
    "BUILTIN_SWEEPS",
    "EXECUTORS",
    "Sweep",
    "SweepError",
    "SweepInterrupted",
    "SweepSummary",
    "configuration_grid",
    "configuration_key",
    "load_results",
    "run_sweep",
    "transferability_point",
]

EXECUTORS = ("process", "dask")
"""The executors :func:`run_sweep` accepts."""

# Futures kept in flight (and configurations claimed) per worker: enough to
# keep every worker busy while results are being written, few enough that an
# interrupted sweep leaves little queued work behind and that sweeps sharing
# a store share it finely.
_IN_FLIGHT_PER_WORKER = 4

# Seconds between two looks at the futures, the signals and the claims of
# other sweeps; bounds how late an interruption is acted on.
_POLL_SECONDS = 0.2


@dataclass(frozen=True)
class SweepSummary:
    """What one call of :func:`run_sweep` did.

    ``total == already_stored + computed + stored_by_others + failed`` for a
    sweep that ran to its end.

    Attributes:
      total: distinct configurations in the sweep.
      already_stored: configurations found in the store before the run.
      computed: configurations computed and stored by this run.
      stored_by_others: configurations stored during the run by other sweeps
        sharing the store (each computed by them, not by this run).
      failed: configurations whose function raised (not stored).
      seconds: wall-clock duration of the run.
      blas_threads: the BLAS thread count of every worker.
    """

    total: int
    already_stored: int
    computed: int
    stored_by_others: int
    failed: int
    seconds: float
    blas_threads: int


class SweepError(ImplicitBiasError, RuntimeError):
    """Some configurations of a sweep raised; the others were stored.

    Rerunning the sweep retries exactly the failed configurations. The
    :class:`SweepSummary` of the run is the attribute ``summary``.
    """

    def __init__(self, message: str, summary: SweepSummary) -> None:
        super().__init__(message)
        self.summary = summary


class SweepInterrupted(SweepError):
    """SIGTERM or SIGINT stopped a sweep; its workers are stopped, its results kept.

    The message is one line. Attributes: ``summary`` (the
    :class:`SweepSummary` so far) and ``signal_number``; a command line exits
    with ``128 + signal_number`` (130 for SIGINT, 143 for SIGTERM).
    """

    def __init__(self, message: str, summary: SweepSummary, signal_number: int) -> None:
        super().__init__(message, summary)
        self.signal_number = signal_number


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


def _function_name(function: object) -> str:
    if isinstance(function, str):
        name = function
    elif callable(function) and hasattr(function, "__qualname__"):
        name = f"{function.__module__}.{function.__qualname__}"
    else:
        raise InvalidArgumentError(
            f"function={function!r} is neither a function nor its dotted import "
            "path (a string such as 'package.module.function')"
        )
    try:
        resolved = resolve(name)
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


def _check_version(version: object, *, optional: bool = False) -> str | None:
    if version is None and optional:
        return None
    if not isinstance(version, str):
        raise InvalidArgumentError(
            f"version={version!r} is not a string: version is the sweep's version "
            "label, part of every key"
        )
    return version


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
        the configuration is not a JSON-serializable dict with string keys, or
        the version is not a string.

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
    checked = str(_check_version(version))
    return _key(name, _configuration_json(configuration, "configuration"), checked)


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
        return canonical_json(dict(configuration))
    except (TypeError, ValueError) as error:
        raise InvalidArgumentError(
            f"{name}={configuration!r} is not JSON-serializable ({error}); "
            "parameters must be numbers (finite), strings, booleans, None, "
            "lists or dicts"
        ) from error


def configuration_grid(**axes: Iterable[Any]) -> list[dict[str, Any]]:
    """The Cartesian product of parameter values, as a list of configurations.

    Args:
      **axes: parameter name -> the values it takes: a non-empty iterable
        (not a string) of JSON-serializable values.

    Returns:
      One dict per combination, the last axis varying fastest.

    Raises:
      InvalidArgumentError: an axis is not an iterable, is a string or a
        dict, is empty, or holds a value that is not JSON-serializable
        (NaN, infinity, complex numbers, objects).

    Examples:
      >>> configuration_grid(n=[10, 20], gamma=[0.5])
      [{'n': 10, 'gamma': 0.5}, {'n': 20, 'gamma': 0.5}]
    """
    names = list(axes)
    values: list[list[Any]] = []
    for name, axis in axes.items():
        if isinstance(axis, str | bytes | Mapping) or not isinstance(axis, Iterable):
            raise InvalidArgumentError(
                f"{name}={axis!r} is not a list of values: each axis of a grid is "
                "an iterable (not a string or a dict) of the parameter's values"
            )
        listed = list(axis)
        if not listed:
            raise InvalidArgumentError(
                f"{name}={axis!r} is empty: each axis of a grid needs at least "
                "one value (an empty axis empties the grid)"
            )
        for value in listed:
            _configuration_json({name: value}, name)
        values.append(listed)
    return [
        dict(zip(names, combination, strict=True))
        for combination in itertools.product(*values)
    ]


def _check_workers(workers: object) -> int:
    if workers is None:
        return os.cpu_count() or 1
    return check_integer(
        "workers", workers, min_value=1, meaning="a count of worker processes (>= 1)"
    )


def _check_progress(progress: object) -> TextIO | None:
    if progress is True:
        return sys.stderr
    if progress is False or progress is None:
        return None
    if callable(getattr(progress, "write", None)):
        return progress  # type: ignore[return-value]
    raise InvalidArgumentError(
        f"progress={progress!r} is neither a bool nor a writable stream"
    )


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
    blas_threads: int = 1,
) -> SweepSummary:
    """Compute every configuration missing from the store, storing each as it completes.

    Each result is committed to the SQLite database ``store`` by this process
    as soon as its worker returns it; configurations already stored (same
    function, version and parameters) are skipped, so rerunning an
    interrupted sweep resumes it. Duplicate configurations run once. Sweeps
    running at once on one store claim configurations before computing them,
    so each is computed by one of them (see the module's docstring).

    Args:
      function: a module-level function, or its dotted import path; called as
        ``function(**configuration)`` and returning a JSON-serializable result.
      configurations: the keyword arguments of each call; JSON-serializable.
      store: path of the SQLite database, created if missing.
      version: part of every key; bump it when the function's results change.
      workers: local processes (``executor="process"``), or with ``"dask"``
        a quarter of the configurations kept in flight; default: CPU count.
      executor: ``"process"`` (local processes) or ``"dask"``.
      scheduler: the Dask scheduler's address, required with ``"dask"``.
      progress: draw a progress bar with ETA on stderr (True), on the given
        stream, or not at all (False).
      blas_threads: BLAS threads of every worker (>= 1), applied with
        threadpoolctl and recorded with the results; one store holds results
        of one count.

    Returns:
      A :class:`SweepSummary` of the run.

    Raises:
      InvalidArgumentError: an argument is invalid (the message says which),
        the store is not a usable sweep store (missing directory, not SQLite,
        truncated, corrupt, another schema, read-only, a directory), or its
        results were computed with another ``blas_threads``.
      ImportError: ``executor="dask"`` without Dask distributed installed.
      SweepError: some configurations raised; every other one was stored.
      SweepInterrupted: SIGTERM or SIGINT arrived (main thread only); the
        workers were stopped and every result stored so far is kept.
      concurrent.futures.process.BrokenProcessPool: a local worker died (e.g.
        killed for memory); what was stored stays, and a rerun resumes.
    """
    start = time.monotonic()
    name = _function_name(function)
    checked_version = str(_check_version(version))
    if not isinstance(executor, str) or executor not in EXECUTORS:
        raise InvalidArgumentError(
            f"executor={executor!r} is not one of {', '.join(EXECUTORS)}"
        )
    if scheduler is not None and not isinstance(scheduler, str):
        raise InvalidArgumentError(
            f"scheduler={scheduler!r} is not a string (a Dask scheduler address)"
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
    threads = check_integer(
        "blas_threads",
        blas_threads,
        min_value=1,
        meaning="the BLAS thread count of each worker (>= 1)",
    )
    stream = _check_progress(progress)
    path = store_path(store)
    if isinstance(configurations, Mapping):
        raise InvalidArgumentError(
            "configurations is a single dict: pass a list of configurations"
        )
    if isinstance(configurations, str | bytes) or not isinstance(
        configurations, Iterable
    ):
        raise InvalidArgumentError(
            f"configurations={configurations!r} is not a list of configurations "
            "(dicts of keyword arguments)"
        )
    by_key: dict[str, str] = {}
    for index, configuration in enumerate(configurations):
        configuration_json = _configuration_json(
            configuration, f"configurations[{index}]"
        )
        by_key.setdefault(
            _key(name, configuration_json, checked_version), configuration_json
        )

    sweep_store = SweepStore(path, create=True, writable=True)
    counts: collections.Counter[str] = collections.Counter()
    failures: list[tuple[str, str]] = []
    stored: set[str] = set()
    interrupted: int | None = None
    try:
        sweep_store.fix_blas_threads(threads)
        stored = sweep_store.stored_keys(list(by_key))
        pending = collections.deque(k for k in by_key if k not in stored)
        bar = Progress(stream, len(by_key), len(stored))
        local_workers = max(1, min(worker_count, len(pending)))
        window = _IN_FLIGHT_PER_WORKER * (
            local_workers if executor == "process" else worker_count
        )
        with Signals() as signals:
            try:
                _compute(
                    sweep_store,
                    pending,
                    window,
                    lambda: (
                        DaskBackend(str(scheduler))
                        if executor == "dask"
                        else ProcessBackend(local_workers, threads)
                    ),
                    {
                        "function": name,
                        "version": checked_version,
                        "by_key": by_key,
                        "blas_threads": threads,
                    },
                    signals,
                    bar,
                    counts,
                    failures,
                )
            except Stop:
                interrupted = signals.number
                bar.abandon()
        if interrupted is None:
            bar.finish()
    finally:
        sweep_store.close()
    summary = SweepSummary(
        total=len(by_key),
        already_stored=len(stored),
        computed=counts["computed"],
        stored_by_others=counts["others"],
        failed=len(failures),
        seconds=time.monotonic() - start,
        blas_threads=threads,
    )
    if interrupted is not None:
        in_store = summary.already_stored + summary.computed + summary.stored_by_others
        raise SweepInterrupted(
            f"interrupted by {SIGNAL_NAMES.get(interrupted, interrupted)}: workers "
            f"stopped; {in_store} of {summary.total} configurations of {name} are "
            f"stored in {str(path)!r} ({summary.computed} by this run); rerun to "
            "resume",
            summary,
            interrupted,
        )
    if failures:
        configuration_json, error = failures[0]
        raise SweepError(
            f"{len(failures)} of {summary.total - summary.already_stored} "
            f"configurations of {name} raised and were not stored "
            f"({summary.computed} were); rerun to retry them. First failure, "
            f"configuration {configuration_json}:\n{error}",
            summary,
        )
    return summary


def _compute(
    sweep_store: SweepStore,
    pending: collections.deque[str],
    window: int,
    start_backend: Callable[[], ProcessBackend | DaskBackend],
    sweep: dict[str, Any],
    signals: Signals,
    bar: Progress,
    counts: collections.Counter[str],
    failures: list[tuple[str, str]],
) -> None:
    """Claim, compute and store the pending keys; counts go to ``counts``.

    Keys claimed by other live sweeps wait, and are claimed again once this
    run has nothing else to do: then they are stored (by the others), or
    taken over (their owner died, or failed and released them).
    """
    by_key: dict[str, str] = sweep["by_key"]
    held: list[str] = []
    backend: ProcessBackend | DaskBackend | None = None
    abandon = True
    try:
        while True:
            if signals.number is not None:
                raise Stop
            sweep_store.heartbeat()
            in_flight = len(backend) if backend is not None else 0
            while in_flight < window and pending:
                batch = [
                    pending.popleft()
                    for _ in range(min(window - in_flight, len(pending)))
                ]
                mine, stored, others = sweep_store.claim(batch)
                held.extend(others)
                counts["others"] += len(stored)
                for _ in stored:
                    bar.advance(failed=False)
                if mine and backend is None:
                    backend = start_backend()
                for key in mine:
                    if backend is None:
                        raise AssertionError("backend is not None")
                    backend.submit(
                        key, sweep["function"], by_key[key], sweep["blas_threads"]
                    )
                in_flight += len(mine)
            if not in_flight:
                if not held:
                    break
                # Everything left is being computed by other sweeps: wait
                # for their results, or for their claims to go stale.
                time.sleep(_POLL_SECONDS)
                pending.extend(held)
                held.clear()
                continue
            if backend is None:
                raise AssertionError("backend is not None")
            for key, outcome in backend.done(_POLL_SECONDS):
                if outcome.result is None:
                    failures.append((by_key[key], str(outcome.error)))
                    sweep_store.release(key)
                else:
                    sweep_store.put(
                        key,
                        {
                            "function": sweep["function"],
                            "version": sweep["version"],
                            "configuration": by_key[key],
                            "result": outcome.result,
                            "seconds": outcome.seconds,
                            "blas_threads": sweep["blas_threads"],
                        },
                    )
                    counts["computed"] += 1
                bar.advance(failed=outcome.result is None)
        abandon = False
    except Exception as error:
        if signals.number is not None:
            # E.g. a worker ended by the signal before it could ignore it.
            raise Stop from error
        raise
    finally:
        if backend is not None:
            backend.close(abandon=abandon)


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
        path, which need not be importable any more); all functions when None.
      version: only results of this version; all versions when None.

    Returns:
      ``(configuration, result)`` pairs, both as parsed from their JSON.

    Raises:
      InvalidArgumentError: the store does not exist or is not a usable sweep
        store (a directory, not SQLite, truncated, corrupt, another schema),
        or ``function`` or ``version`` is of the wrong type.
    """
    path = store_path(store)
    name: str | None
    if function is None or isinstance(function, str):
        name = function
    elif callable(function):
        name = _function_name(function)
    else:
        raise InvalidArgumentError(
            f"function={function!r} is neither None, a function nor its dotted "
            "import path"
        )
    checked_version = _check_version(version, optional=True)
    sweep_store = SweepStore(path, create=False, writable=False)
    try:
        rows = sweep_store.connection.execute(
            "SELECT configuration, result FROM results "
            "WHERE (?1 IS NULL OR function = ?1) AND (?2 IS NULL OR version = ?2) "
            "ORDER BY rowid",
            (name, checked_version),
        ).fetchall()
    finally:
        sweep_store.connection.close()
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

    Args:
      theta: source-target angle in :math:`[0, \pi]`.
      gamma: :math:`\gamma = n/d \in (0, 10^3]`, with
        :math:`n = \mathrm{round}(\gamma d) \ge 3`; not 1 where ``sigma > 0``
        (eq. (13) diverges there).
      dimension: d, an integer >= 2.
      draws: target draws, an integer >= 2.
      sigma: label-noise standard deviation, >= 0.
      seed: seed of the draws, an integer >= 0.

    Returns:
      ``linear_mean``, ``linear_standard_error``, ``linear_theory``,
      ``finetune_mean``, ``finetune_standard_error`` and ``finetune_theory``.

    Raises:
      InvalidArgumentError: an argument outside its domain (named).
      OutOfRangeError: a loss beyond the float64 range (a huge ``sigma``).
      ConvergenceError: a network did not converge.
    """
    # Imported here: a sweep worker loads only the function it runs.
    from implicit_bias.numerics.transfer_risks import (
        finetune_transferability,
        linear_transferability,
    )
    from implicit_bias.validation.transfer_experiments import transferability_slices
    from implicit_bias.validation.transfer_experiments.endpoints import _ratio

    theta = check_real(
        "theta", theta, min_value=0.0, max_value=math.pi, meaning="an angle in [0, pi]"
    )
    # In (0, 1e3]: round(gamma d) overflowed at gamma = 1.8e308, and a huge
    # finite gamma asked for as many samples.
    gamma = _ratio("gamma", gamma)
    seed = check_seed("seed", seed)

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
    # Eq. (17) as printed: the figure the sweep reproduces.
    point["finetune_theory"] = float(
        finetune_transferability(gamma, theta, form="printed")
    )
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
