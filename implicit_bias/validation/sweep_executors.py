r"""Executors of :mod:`implicit_bias.validation.sweeps`: workers, signals, progress.

* Local workers (:class:`ProcessBackend`) die with the sweep: on Linux they
  ask for ``SIGKILL`` when their parent dies (``prctl(PR_SET_PDEATHSIG)``),
  and everywhere a thread of theirs watches ``os.getppid()`` and kills the
  worker once it changes. They ignore SIGINT (Ctrl-C reaches the whole
  process group; the parent handles it) and pin their BLAS thread count
  with threadpoolctl.
* :class:`DaskBackend` submits to a Dask distributed scheduler; the BLAS
  thread count is applied around every call.
* :class:`Signals` notes SIGINT and SIGTERM in the parent, which the sweep's
  loop then acts on between two steps (never inside an SQLite transaction).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import importlib
import json
import math
import os
import signal
import sys
import threading
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from types import FrameType
from typing import Any, NamedTuple, TextIO

import numpy as np
from threadpoolctl import threadpool_limits

from implicit_bias.validation.sweep_store import process_alive

__all__ = [
    "SIGNAL_NAMES",
    "DaskBackend",
    "Outcome",
    "ProcessBackend",
    "Progress",
    "Signals",
    "Stop",
    "canonical_json",
    "evaluate",
    "resolve",
]

SIGNAL_NAMES: dict[int, str] = {
    int(signal.SIGINT): "SIGINT",
    int(signal.SIGTERM): "SIGTERM",
}
"""The signals a sweep handles, by number."""

# Seconds between two checks, in a worker, that its parent is alive.
_PARENT_WATCH_SECONDS = 0.5


class Outcome(NamedTuple):
    """A worker's answer: the result as JSON, or the error's traceback."""

    result: str | None
    error: str | None
    seconds: float


def _json_default(value: Any) -> Any:
    if isinstance(value, np.ndarray | np.generic):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON-serializable")


def canonical_json(value: Any) -> str:
    return json.dumps(
        value,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
        allow_nan=False,
        default=_json_default,
    )


def resolve(name: str) -> Any:
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


def _set_parent_death_signal() -> None:
    """Ask Linux to SIGKILL this process when its parent thread exits."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)


def _watch_parent(parent: int) -> None:
    """Kill this process once its parent is gone (it is reparented)."""
    while os.getppid() == parent:
        time.sleep(_PARENT_WATCH_SECONDS)
    os.kill(os.getpid(), signal.SIGKILL)


def _initialize_worker(parent: int, blas_threads: int) -> None:
    """Set up a local worker: die with the parent, leave signals to it, pin BLAS."""
    _set_parent_death_signal()
    # The parent is the sweep (fork) or a fork server (forkserver, spawn's
    # helpers), which exits with the sweep; a dead sweep before the request
    # above left this worker orphaned already.
    watched = os.getppid()
    if watched != parent and not process_alive(parent):
        os.kill(os.getpid(), signal.SIGKILL)
    threading.Thread(target=_watch_parent, args=(watched,), daemon=True).start()
    # Ctrl-C reaches the whole process group: the parent handles it and
    # stops the workers, which would otherwise print tracebacks of their own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = str(blas_threads)  # libraries loaded later
    threadpool_limits(limits=blas_threads)


def evaluate(function: str, configuration_json: str, blas_threads: int) -> Outcome:
    """Run one configuration in a worker; never raises, so both executors agree."""
    start = time.perf_counter()
    try:
        with threadpool_limits(limits=blas_threads):
            result = resolve(function)(**json.loads(configuration_json))
        return Outcome(canonical_json(result), None, time.perf_counter() - start)
    except Exception:
        return Outcome(None, traceback.format_exc(), time.perf_counter() - start)


class Progress:
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

    def abandon(self) -> None:
        """End an in-place line, so that a message can follow on its own line."""
        if self._stream is not None and self._interactive:
            self._stream.write("\n")
            self._stream.flush()

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


class Signals:
    """SIGINT and SIGTERM noted (not raised) while a sweep runs in the main thread.

    The sweep's loop looks at :attr:`number` between steps, so a signal never
    lands inside an SQLite transaction.
    """

    def __init__(self) -> None:
        self.number: int | None = None
        self._pid = os.getpid()
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> Signals:
        if threading.current_thread() is threading.main_thread():
            for number in SIGNAL_NAMES:
                self._previous[number] = signal.signal(number, self._note)
        return self

    def _note(self, number: int, frame: FrameType | None) -> None:
        if os.getpid() != self._pid:
            # A worker forked before its initializer reset the handlers:
            # SIGINT is the parent's to handle, SIGTERM ends the worker.
            if number != signal.SIGINT:
                os._exit(128 + number)
            return
        if self.number is None:
            self.number = number

    def __exit__(self, *exc_info: object) -> None:
        for number, previous in self._previous.items():
            signal.signal(number, signal.SIG_DFL if previous is None else previous)


class Stop(Exception):
    """The sweep's loop stops for a signal."""


class ProcessBackend:
    """Local worker processes that die with this one."""

    def __init__(self, workers: int, blas_threads: int) -> None:
        self._pool = ProcessPoolExecutor(
            max_workers=workers,
            initializer=_initialize_worker,
            initargs=(os.getpid(), blas_threads),
        )
        self._in_flight: dict[Future[Outcome], str] = {}

    def __len__(self) -> int:
        return len(self._in_flight)

    def submit(self, key: str, function: str, configuration: str, threads: int) -> None:
        future = self._pool.submit(evaluate, function, configuration, threads)
        self._in_flight[future] = key

    def done(self, timeout: float) -> list[tuple[str, Outcome]]:
        finished, _ = wait(
            self._in_flight, timeout=timeout, return_when=FIRST_COMPLETED
        )
        return [(self._in_flight.pop(future), future.result()) for future in finished]

    def close(self, *, abandon: bool) -> None:
        if abandon:
            # Stop the workers now: their running configurations are lost
            # anyway (never stored), and a rerun computes them again.
            processes = list(getattr(self._pool, "_processes", {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                with contextlib.suppress(OSError, ValueError):
                    process.kill()
            for process in processes:
                with contextlib.suppress(OSError, ValueError, AssertionError):
                    process.join()
        self._pool.shutdown(wait=True, cancel_futures=True)


class DaskBackend:
    """Futures on a Dask distributed cluster."""

    def __init__(self, scheduler: str) -> None:
        try:
            from distributed import Client
        except ImportError as error:
            raise ImportError(
                "executor='dask' needs Dask distributed; install it with "
                "`pip install 'implicit-bias[dist]'`"
            ) from error
        self._client = Client(scheduler)
        self._in_flight: dict[Any, str] = {}

    def __len__(self) -> int:
        return len(self._in_flight)

    def submit(self, key: str, function: str, configuration: str, threads: int) -> None:
        future = self._client.submit(
            evaluate, function, configuration, threads, pure=False
        )
        self._in_flight[future] = key

    def done(self, timeout: float) -> list[tuple[str, Outcome]]:
        from distributed import wait as dask_wait

        with contextlib.suppress(TimeoutError):
            dask_wait(
                list(self._in_flight), timeout=timeout, return_when="FIRST_COMPLETED"
            )
        finished = [future for future in self._in_flight if future.done()]
        outcomes = [(self._in_flight.pop(f), f.result()) for f in finished]
        for future in finished:
            future.release()
        return outcomes

    def close(self, *, abandon: bool) -> None:
        if abandon and self._in_flight:
            self._client.cancel(list(self._in_flight))
        self._client.close()
