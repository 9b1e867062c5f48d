"""Where checks run: forked local processes, or tasks on a Dask cluster.

An :class:`~implicit_bias.claims.engine.Executor` runs the checks of a list
of claims and reports what became of each, once, as it finishes:
:func:`~implicit_bias.claims.engine.run_claims` (and so ``implicit-bias
verify --executor local|dask``) turns the reports into results.

* :class:`LocalExecutor` forks worker processes on this machine
  (:func:`~implicit_bias.claims.engine.run_in_workers`), the default.
* :class:`DaskExecutor` submits one task per claim to a Dask distributed
  scheduler and streams the verdicts back as they complete.

**Claims travel by reference.** A Dask task carries a :class:`ClaimReference`
-- the claim's id, the profile it runs under, and where its source is found
(the ``--file`` paths and ``--module`` names; installed sources come from
their entry points) -- never the pickled check. A worker process builds the
registry once (again only when a file's content changes), looks the claim
up, applies the profile
(:func:`~implicit_bias.claims.profiles.claim_for_profile`) and compares the
claim's plain fields (statement, budget, expected verdict...) with those the
client sent: a worker running other code reports a crash, never the verdict
of another claim. So every worker needs this package, the sources' packages
and the ``--file`` files at the same paths; restart the workers after
changing installed code or a ``--module`` (a process imports a module once).

**Budgets are enforced on the worker.** Dask runs tasks in threads of
daemonic processes, where neither signal-based limits nor
:mod:`multiprocessing` children work, so each task forks its own child
(:func:`~implicit_bias.claims.engine.run_forked`) under the claim's CPU-time
budget and wall-clock backstop, exactly as a local run does: over budget is
``inconclusive`` (``Reason.BUDGET``), a crash ``Reason.CRASH``.

**A lost worker loses no record.** Each task has its own key and reports by
the claim's index; when a worker dies mid-claim the scheduler may run the
task again elsewhere (``distributed.scheduler.allowed-failures``), and once it
gives up the claim is ``inconclusive`` (``Reason.CRASH``, naming the lost
worker), which the verdict cache never stores. A claim is reported once,
however many times it ran.

Examples:
  >>> import sympy as sp
  >>> from implicit_bias.claims.checks import relation_check
  >>> from implicit_bias.claims.engine import Claim, Kind, Status, run_claims
  >>> x = sp.Symbol("x", positive=True)
  >>> claim = Claim("note", "1", "log", Kind.IDENTITY, "log x^2 = 2 log x",
  ...               relation_check(lambda: sp.Eq(sp.log(x**2), 2 * sp.log(x))),
  ...               Status.HOLDS)
  >>> [str(r.verdict.status) for r in run_claims([claim], executor=LocalExecutor(1))]
  ['holds']
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import threading
import time
import traceback
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from implicit_bias.claims.discovery import Registry, extended_registry
from implicit_bias.claims.engine import (
    Claim,
    Executor,
    Reason,
    Verdict,
    WorkerDeath,
    _claim_verdict,
    run_forked,
    run_locally,
)
from implicit_bias.claims.profiles import Profile, claim_for_profile
from implicit_bias.errors import InvalidArgumentError

if TYPE_CHECKING:
    from distributed import Client, Future

__all__ = [
    "EXECUTORS",
    "ClaimReference",
    "DaskExecutor",
    "Executor",
    "LocalExecutor",
    "plain_fields",
]

#: The executors ``implicit-bias verify --executor`` names.
EXECUTORS = ("local", "dask")

#: What an executor reports for one claim: its index in the claims given,
#: a :class:`~implicit_bias.claims.engine.Verdict` or a
#: :class:`~implicit_bias.claims.engine.WorkerDeath`, and its wall seconds.
OnDone = Callable[[int, Any, float], None]


@dataclasses.dataclass(frozen=True)
class LocalExecutor:
    """Forked processes on this machine, ``workers`` at a time (default: the
    number of CPUs); see :func:`~implicit_bias.claims.engine.run_in_workers`.

    The workers are reused, claim after claim (what one check cached serves
    the next); ``isolate=True`` runs each claim in a fresh process of its
    own instead, for a check suspected of depending on what ran before it.

    Raises:
      InvalidArgumentError: ``workers`` is not None or an integer >= 1.
    """

    workers: int | None = None
    isolate: bool = False

    def __post_init__(self) -> None:
        if self.workers is not None and (
            isinstance(self.workers, bool)
            or not isinstance(self.workers, int)
            or self.workers < 1
        ):
            raise InvalidArgumentError(
                f"workers={self.workers!r}: must be an integer >= 1 (processes), "
                "or None for one per CPU"
            )

    def run(self, claims: Sequence[Claim], on_done: OnDone) -> None:
        """Check the claims in forked local processes."""
        run_locally(claims, on_done, workers=self.workers, isolate=self.isolate)


@dataclasses.dataclass(frozen=True)
class ClaimReference:
    """How a worker finds a claim: its id, its profile and where its source is.

    Attributes:
      claim_id: ``source:equation:label``.
      profile: the :class:`~implicit_bias.claims.profiles.Profile` it runs
        under.
      files: Python files defining sources (absolute paths), as ``--file``.
      modules: importable modules defining sources, as ``--module``.
    """

    claim_id: str
    profile: str
    files: tuple[str, ...] = ()
    modules: tuple[str, ...] = ()


def plain_fields(claim: Claim) -> tuple[tuple[str, object], ...]:
    """The claim's fields that are plain values (not code), by name.

    Two processes that see the same claim see the same plain fields; a
    worker compares them with the client's to refuse a claim that is not
    the one the client meant (other code on the worker).
    """
    plain = (str, int, float, tuple, type(None))
    return tuple(
        (field.name, value)
        for field in dataclasses.fields(claim)
        if isinstance(value := getattr(claim, field.name), plain)
    )


def _file_digests(files: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Each file with the SHA-256 of its content ("" when unreadable)."""
    digests = []
    for path in files:
        try:
            digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        except OSError:
            digest = ""
        digests.append((path, digest))
    return tuple(digests)


#: Serializes the building of registries: a worker of several threads would
#: otherwise load one file into ``sys.modules`` twice at once.
_REGISTRY_LOCK = threading.Lock()


def _worker_registry(
    files: tuple[tuple[str, str], ...], modules: tuple[str, ...]
) -> Registry:
    """The registry of a worker process, built once per content of the files."""
    with _REGISTRY_LOCK:
        return _build_registry(files, modules)


@functools.lru_cache(maxsize=8)
def _build_registry(
    files: tuple[tuple[str, str], ...], modules: tuple[str, ...]
) -> Registry:
    return extended_registry([path for path, _ in files], modules)


def _worker_address() -> str:
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        return "this process (not a Dask worker)"


def _claim_on_worker(
    reference: ClaimReference, fields: tuple[tuple[str, object], ...]
) -> Claim | Verdict:
    """The claim ``reference`` names, or the crash verdict saying why not."""
    registry = _worker_registry(_file_digests(reference.files), reference.modules)
    where = f"on worker {_worker_address()}"
    try:
        registered = registry.claim(reference.claim_id)
    except InvalidArgumentError as error:
        errors = "; ".join(str(e) for e in registry.errors) or "none"
        return Verdict.inconclusive(
            f"not found {where}: {error} (load errors there: {errors})",
            Reason.CRASH,
        )
    claim = claim_for_profile(registered, reference.profile)
    if claim is None:
        return Verdict.inconclusive(
            f"not run under profile {reference.profile} {where}", Reason.CRASH
        )
    if plain_fields(claim) != fields:
        theirs = dict(plain_fields(claim))
        differ = [name for name, value in fields if theirs.get(name) != value]
        return Verdict.inconclusive(
            f"the claim {where} differs from the client's in "
            f"{', '.join(differ) or 'its fields'} (other code there?)",
            Reason.CRASH,
        )
    return claim


def _check_on_worker(
    reference: ClaimReference,
    fields: tuple[tuple[str, object], ...],
    blas_threads: int,
) -> tuple[Any, float]:
    """The Dask task: look the claim up, run its check in a forked child."""
    claim = _claim_on_worker(reference, fields)
    if isinstance(claim, Verdict):
        return claim, 0.0
    return run_forked(
        functools.partial(_claim_verdict, claim),
        claim.budget_seconds,
        threads=blas_threads,
    )


class DaskExecutor:
    """One Dask task per claim, on the cluster of a distributed scheduler.

    Args:
      scheduler: the scheduler's address (``tcp://host:8786``), or a
        ``distributed.Client`` to use (and leave open).
      files: the ``--file`` paths the claims' sources come from (made
        absolute: the workers read them at the same paths).
      modules: the ``--module`` names the claims' sources come from.
      profile: the profile the claims run under
        (:class:`~implicit_bias.claims.profiles.Profile`); the claims given to
        :meth:`run` must be those it makes.
      blas_threads: BLAS threads of each check (1 by default: a worker host
        runs as many checks as it has cores, and oversubscribed BLAS pools
        slow small products many times).

    Raises:
      InvalidArgumentError: an empty address, a profile that does not exist
        or ``blas_threads`` below 1.
    """

    def __init__(
        self,
        scheduler: str | Client,
        *,
        files: Sequence[str | Path] = (),
        modules: Sequence[str] = (),
        profile: Profile | str = Profile.DEFAULT,
        blas_threads: int = 1,
    ) -> None:
        if isinstance(scheduler, str) and not scheduler:
            raise InvalidArgumentError(
                "scheduler: must be a Dask scheduler's address such as "
                "tcp://127.0.0.1:8786, or a distributed.Client; got ''"
            )
        if isinstance(blas_threads, bool) or not (
            isinstance(blas_threads, int) and blas_threads >= 1
        ):
            raise InvalidArgumentError(
                f"blas_threads={blas_threads!r}: must be an integer >= 1"
            )
        try:
            self.profile = str(Profile(profile))
        except ValueError:
            raise InvalidArgumentError(
                f"profile={profile!r}: must be one of "
                f"{', '.join(p.value for p in Profile)}"
            ) from None
        self.scheduler = scheduler
        self.files = tuple(str(Path(path).resolve()) for path in files)
        self.modules = tuple(modules)
        self.blas_threads = blas_threads

    def __repr__(self) -> str:
        return f"DaskExecutor({self.scheduler!r}, profile={self.profile!r})"

    def _client(self) -> tuple[Client, bool]:
        """The client, and whether this executor opened it (and so closes it)."""
        try:
            from distributed import Client
        except ImportError as error:
            raise ImportError(
                "executor 'dask' needs Dask distributed; install it with "
                "`pip install 'implicit-bias[dist]'`"
            ) from error
        if isinstance(self.scheduler, str):
            return Client(self.scheduler), True
        return self.scheduler, False

    def run(self, claims: Sequence[Claim], on_done: OnDone) -> None:
        """Submit a task per claim and report each as it completes."""
        if not claims:
            # Every verdict came from the cache: no cluster is needed.
            return
        client, owned = self._client()
        from distributed import as_completed

        # A fresh token per run: a task key names one claim of one run, so a
        # task the scheduler retries is still that claim's only task.
        token = uuid.uuid4().hex
        futures: dict[Future, int] = {}
        started = time.perf_counter()
        try:
            for index, claim in enumerate(claims):
                reference = ClaimReference(
                    claim.id, self.profile, self.files, self.modules
                )
                future = client.submit(
                    _check_on_worker,
                    reference,
                    plain_fields(claim),
                    self.blas_threads,
                    key=f"implicit-bias-claim-{index}-{token}",
                    # The order given: earlier claims first.
                    priority=len(claims) - index,
                )
                futures[future] = index
            reported: set[int] = set()
            for future in as_completed(futures):
                index = futures[future]
                if index in reported:
                    continue
                value, seconds = _outcome(future, time.perf_counter() - started)
                future.release()
                reported.add(index)
                on_done(index, value, seconds)
        finally:
            pending = [future for future in futures if not future.done()]
            if pending:
                client.cancel(pending)
            if owned:
                client.close()


def _outcome(future: Future, elapsed: float) -> tuple[Any, float]:
    """A completed task's (outcome, seconds); a failed one's WorkerDeath."""
    from distributed import KilledWorker

    if future.status == "finished":
        value, seconds = future.result()
        return value, seconds
    try:
        error = future.exception()
    except BaseException as cancelled:  # a cancelled future raises it
        error = cancelled
    if isinstance(error, KilledWorker):
        return (
            WorkerDeath(
                False,
                f"worker lost: Dask worker {error.last_worker.address} died "
                "holding the task (running or queued there), the last of "
                f"{error.allowed_failures + 1} attempts "
                "(distributed.scheduler.allowed-failures)",
            ),
            elapsed,
        )
    last = traceback.format_exception_only(type(error), error)[-1].strip()
    return WorkerDeath(False, f"the Dask task did not complete: {last}"), elapsed
