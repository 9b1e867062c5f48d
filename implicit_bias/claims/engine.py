"""The claim engine: claims, verdicts, time budgets and the runner.

A :class:`Claim` is one statement of a source paper -- its source (the paper
file's stem), its equation number as printed, its kind and assumptions -- and
a ``check`` that returns a :class:`Verdict`. Each claim also records the
verdict it is *expected* to have, so that a change flipping a verdict is
caught (``implicit-bias verify`` exits 1).

Checks run in forked worker processes, so a check that overruns its budget is
killed and reported ``inconclusive`` instead of hanging the run; inside a
check, :func:`time_limit` bounds a single step (e.g. a SymPy simplification)
so that the check can fall back to another method. A worker runs check after
check (what one cached, SymPy's caches included, serves the next), with the
process-wide state a check may change (mpmath's precision, NumPy's error
handling, warning filters, ...) restored after each; one that dies is
replaced.

**Budgets are CPU time**, not wall time: a check given 30 s may use 30 s of
its process's CPU, however busy the machine is, so a verdict (and the path
a check takes through its time-limited steps) does not depend on the load.
The kernel enforces a claim's budget (``RLIMIT_CPU``); a check that blocks
without computing (a sleep, a lost lock) is stopped by a wall-clock backstop
of :data:`WALL_BACKSTOP_FACTOR` times its budget. A check also has a memory
budget (``Claim.budget_bytes``, by default a share of the machine's memory):
past it an allocation fails and the claim is ``inconclusive``, reason budget,
while the run goes on. The worker processes, their budgets and what they do
when the run is killed are :mod:`implicit_bias.claims.workers`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import functools
import re
import signal
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import FrameType
from typing import TYPE_CHECKING, Any, Protocol

import sympy as sp

from implicit_bias.claims.worker_limits import memory_limit
from implicit_bias.claims.workers import (
    WALL_BACKSTOP_FACTOR,
    check_budget,
    WorkerDeath,
    run_forked,
    run_in_workers,
)
from implicit_bias.errors import InvalidArgumentError

if TYPE_CHECKING:
    from implicit_bias.claims.profiles import Configuration, CostEstimate

__all__ = [
    "WALL_BACKSTOP_FACTOR",
    "Basis",
    "CheckTimeout",
    "Claim",
    "Executor",
    "Kind",
    "Reading",
    "Reason",
    "Result",
    "Status",
    "Verdict",
    "WorkerDeath",
    "conjunction",
    "in_paper_order",
    "run_claims",
    "run_forked",
    "run_in_workers",
    "run_locally",
    "time_limit",
    "unique_ids",
]


class Status(enum.StrEnum):
    """The verdict of a check."""

    HOLDS = "holds"
    FAILS = "fails"
    INCONCLUSIVE = "inconclusive"


class Kind(enum.StrEnum):
    """What sort of statement a claim is, and so how it is checked."""

    IDENTITY = "identity"
    LIMIT = "limit/series"
    INEQUALITY = "inequality"
    NUMERIC = "numeric"
    SIMULATION = "simulation"


class Reason(enum.StrEnum):
    """Why a check is ``inconclusive``: it neither proved nor refuted."""

    #: The effect is within the stated number of standard errors of zero.
    STATISTICAL = "statistical"
    #: A step or the whole check ran past its CPU-time budget.
    BUDGET = "budget"
    #: A compared value is NaN or infinite (or complex where a real is due).
    NON_FINITE = "non-finite"
    #: SymPy returned an unevaluated object (a ``Limit``, an ``Integral``...).
    UNEVALUATED = "unevaluated"
    #: The method ran and could not decide (e.g. a sign SymPy cannot settle, or
    #: a counterexample search that came back empty).
    UNDECIDED = "undecided"
    #: The check raised, its worker died, or it returned something else than a
    #: :class:`Verdict`. No claim may expect it.
    CRASH = "crash"


class Basis(enum.StrEnum):
    """What a ``holds`` or ``fails`` rests on."""

    #: Exact symbolic computation (SymPy simplifies a difference to 0, computes
    #: a limit, counts sign changes...), or exact rational arithmetic.
    PROOF = "proof"
    #: Rigorous enclosures (ball arithmetic) at the evaluated points: for a
    #: ``fails``, a counterexample whose residual is enclosed away from 0.
    CERTIFIED = "certified"
    #: Floating-point or multi-precision evaluation at finitely many points,
    #: within a tolerance derived from the precision and the method's error.
    NUMERICAL = "numerical"
    #: Random simulations: an effect measured in standard errors over seeds.
    STATISTICAL = "statistical"
    #: A search (of a domain, a grid, a set of runs) and what it found.
    SEARCH = "search"


class Reading(enum.StrEnum):
    """How a claim relates to its source's text."""

    #: An equation as the source prints it.
    PRINTED = "printed"
    #: A sentence of the source's text.
    PROSE = "prose"
    #: Our reading of something the text implies but does not state.
    INTERPRETATION = "interpretation"
    #: A statement beyond the text: another domain, a corrected form, a
    #: consequence the source does not draw.
    EXTENSION = "extension"


@dataclass(frozen=True)
class Verdict:
    """The outcome of a check: a status, its evidence, its basis and, if
    inconclusive, why.

    ``reason`` (a :class:`Reason`) is set exactly when the status is
    ``inconclusive``; ``basis`` (a :class:`Basis`) says what a ``holds`` or
    ``fails`` rests on (for an ``inconclusive`` it may say what was tried).
    A ``fails`` may carry a ``counterexample`` in words and, when it is a
    point of the claim's symbols, the ``point`` as data: SymPy symbol name ->
    exact value as a string (``{"gamma": "3/2"}``), in the order the check
    wrote it, so that a reader can name each coordinate in the source's
    glyphs (:meth:`shown_point`) and a program can read it back exactly.
    """

    status: Status
    detail: str
    reason: Reason | None = None
    basis: Basis | None = None
    counterexample: str | None = None
    # Not hashed (a dict is not hashable); equal verdicts still hash equal.
    point: Mapping[str, str] | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        status = Status(self.status)
        if self.basis is not None:
            object.__setattr__(self, "basis", Basis(self.basis))
        if self.point is not None:
            # A plain dict of its own: picklable between processes, and not
            # changed by the caller's later edits of the mapping it gave.
            object.__setattr__(self, "point", _checked_point(self))
        if status == Status.INCONCLUSIVE and self.reason is None:
            raise InvalidArgumentError(
                "reason: an inconclusive Verdict names its Reason"
            )
        if status != Status.INCONCLUSIVE and self.reason is not None:
            raise InvalidArgumentError(
                f"reason: must be None for a {status} Verdict, got {self.reason!r}"
            )
        if status != Status.INCONCLUSIVE and self.basis is None:
            raise InvalidArgumentError(
                f"basis: a {status} Verdict names its Basis (what it rests on)"
            )

    @classmethod
    def holds(cls, detail: str, basis: Basis) -> Verdict:
        """The statement holds; ``detail`` says how it was shown, ``basis`` on what."""
        return cls(Status.HOLDS, detail, basis=basis)

    @classmethod
    def fails(
        cls,
        detail: str,
        basis: Basis,
        counterexample: str | None = None,
        *,
        point: Mapping[str, str] | None = None,
    ) -> Verdict:
        """The statement is false; ``detail`` gives the evidence, ``basis`` what
        it rests on and ``counterexample`` the point refuting it (with, when
        certified, the enclosure that excludes the statement there); ``point``
        gives that point's coordinates, symbol name -> exact value."""
        return cls(
            Status.FAILS,
            detail,
            basis=basis,
            counterexample=counterexample,
            point=point,
        )

    @classmethod
    def decide(cls, holds: bool, detail: str, basis: Basis) -> Verdict:
        """``holds`` if ``holds`` else ``fails``, with the same evidence and basis."""
        return cls(Status.HOLDS if holds else Status.FAILS, detail, basis=basis)

    @classmethod
    def inconclusive(
        cls,
        detail: str,
        reason: Reason = Reason.UNDECIDED,
        basis: Basis | None = None,
    ) -> Verdict:
        """The check could not decide; ``detail`` says why, ``reason`` says how."""
        return cls(Status.INCONCLUSIVE, detail, Reason(reason), basis)

    def with_detail(self, detail: str) -> Verdict:
        """The same status and reason with another ``detail``.

        For a sub-check's verdict reported under the part of a claim it checked.
        """
        return dataclasses.replace(self, detail=detail)

    def _repr_html_(self) -> str:
        """The verdict in HTML, for Jupyter (implicit_bias.claims.display)."""
        return display.render_verdict(self, "html")

    def _repr_markdown_(self) -> str:
        """The verdict in Markdown, for Jupyter (implicit_bias.claims.display)."""
        return display.render_verdict(self, "markdown")

    def _repr_latex_(self) -> str:
        """The verdict in LaTeX, for Jupyter (implicit_bias.claims.display)."""
        return display.render_verdict(self, "latex")

    def shown_point(
        self, glyphs: Mapping[sp.Basic, str], *, latex: bool = False
    ) -> str | None:
        r"""The counterexample's point with each symbol in the source's glyph,
        ``\Delta = 3/2, m_{h} = 0.5``; None without a point.

        ``glyphs`` is the source's map from SymPy symbols to LaTeX
        (``Source.glyphs``); a symbol it does not name keeps SymPy's name in
        text and is written by :func:`sympy.latex` with ``latex``, where each
        coordinate is set in math mode (``$\Delta = 3/2$``).
        """
        if self.point is None:
            return None
        named = {str(symbol): glyph for symbol, glyph in glyphs.items()}

        def shown(name: str) -> str:
            if name in named:
                return named[name]
            return sp.latex(sp.Symbol(name)) if latex else name

        coordinates = [f"{shown(name)} = {value}" for name, value in self.point.items()]
        if latex:
            coordinates = [f"${coordinate}$" for coordinate in coordinates]
        return ", ".join(coordinates)


def _checked_point(verdict: Verdict) -> dict[str, str]:
    """The verdict's point as a dict of its own, or why it cannot be one.

    Raises:
      InvalidArgumentError: the point is on a verdict other than a ``fails``
        with a counterexample, or is not a mapping of str to str.
    """
    point = verdict.point
    if not isinstance(point, Mapping):
        raise InvalidArgumentError(
            f"point: a mapping of symbol name -> exact value, got "
            f"{type(point).__name__} {point!r}"
        )
    if verdict.status != Status.FAILS:
        raise InvalidArgumentError(
            f"point: only a fails has a counterexample point, not a {verdict.status}"
        )
    if verdict.counterexample is None:
        raise InvalidArgumentError(
            "point: comes with the counterexample it is the point of (in words)"
        )
    if not all(
        isinstance(k, str) and isinstance(v, str) and _EXACT_VALUE.fullmatch(v)
        for k, v in point.items()
    ):
        raise InvalidArgumentError(
            f"point: symbol name -> exact value, both str, each value a decimal or "
            f"p/q (e.g. {{'x': '3/2', 'y': '-0.25'}}), got {point!r}"
        )
    return dict(point)


#: An exact value of a point's coordinate: a decimal or a quotient p/q. Only
#: numbers, so every printer sets them as they are (LaTeX, Markdown, text).
_EXACT_VALUE = re.compile(r"-?\d+(\.\d+)?(/\d+)?")


def conjunction(parts: Sequence[Verdict], detail: str) -> Verdict:
    """The verdict of "every part holds".

    ``fails`` if any part fails (its counterexample refutes the conjunction,
    on that part's basis), else ``inconclusive`` with the first undecided
    part's reason if any part is undecided, else ``holds`` on the weakest of
    the parts' bases (a proof and a numerical check make a numerical check).

    Raises:
      InvalidArgumentError: ``parts`` is empty (nothing was shown).
    """
    if not parts:
        raise InvalidArgumentError("parts: a conjunction needs at least one verdict")
    for part in parts:
        if part.status == Status.FAILS:
            return part.with_detail(detail)
    for part in parts:
        if part.status == Status.INCONCLUSIVE:
            return part.with_detail(detail)
    bases = [part.basis for part in parts if part.basis is not None]
    return Verdict.holds(
        detail, max(bases, key=_BASIS_STRENGTH.index, default=Basis.PROOF)
    )


#: Bases from the strongest to the weakest.
_BASIS_STRENGTH = (
    Basis.PROOF,
    Basis.CERTIFIED,
    Basis.NUMERICAL,
    Basis.SEARCH,
    Basis.STATISTICAL,
)


@dataclass(frozen=True)
class Claim:
    """One checkable statement of a source paper.

    Attributes:
      source: the paper file's stem, e.g. ``"ptft-relu-penalty"``.
      equation: the equation number as printed (``"10"``, ``"18-19"``), or the
        section the statement comes from (``"sec-1.2"``).
      label: a short slug distinguishing several claims about one equation.
      kind: the :class:`Kind` of statement.
      statement: the statement in words, as the source makes it.
      check: returns the :class:`Verdict`; runs in a worker process.
      expected: the verdict this claim is known to have (the registry).
      expected_reason: for an expected ``inconclusive``, the :class:`Reason` it
        is expected for (required then, and never ``Reason.CRASH``); ``None``
        otherwise.
      assumptions: SymPy symbol assumptions and stated conditions, in words.
      corrects: the id of the claim this one corrects, if any.
      formula: builds the SymPy relation the claim states, for LaTeX; by
        default the relation of a check that takes it
        (:class:`~implicit_bias.claims.checks.RelationCheck`).
      slow: skipped by ``verify --quick``.
      budget_seconds: CPU-time budget of the check (seconds), past which it
        is killed and ``inconclusive``; see the module docstring. At most
        :data:`~implicit_bias.claims.workers.MAX_BUDGET_SECONDS`.
      budget_bytes: memory the check may add to its worker (bytes), past
        which an allocation fails and the claim is ``inconclusive``, reason
        budget; None for the run's default, a share of the machine's memory
        (:func:`~implicit_bias.claims.worker_limits.memory_limit`). A claim that
        needs more than the default asks for it here.
      quote: the source's words or equation this claim encodes, verbatim and
        short ("" only for an ``extension`` beyond anything the source says).
      reading: how the claim relates to the text, a :class:`Reading`.
      regime: the domain the claim is checked on and where the source states
        or uses it (e.g. "gamma in [1e-3, 1e-1], the range of Fig. 1a").
      cost: estimates the check's CPU seconds without running it, for
        ``verify --plan`` (:class:`~implicit_bias.claims.profiles.CostEstimate`);
        simulations give one, from a measured per-step cost.
      paper: the claim at the source's own configuration, run by
        ``verify --profile paper``
        (:class:`~implicit_bias.claims.profiles.Configuration`).
      slip: for a printed or prose claim that fails, the id of the error in
        the source it shows, one of the source's ``slips``
        (:class:`~implicit_bias.claims.findings.Slip`: its severity, where
        and by how much); claims showing one error share it.
    """

    source: str
    equation: str
    label: str
    kind: Kind
    statement: str
    check: Callable[[], Verdict]
    expected: Status
    assumptions: tuple[str, ...] = ()
    corrects: str | None = None
    formula: Callable[[], sp.Basic] | None = None
    slow: bool = False
    budget_seconds: float = 60.0
    expected_reason: Reason | None = None
    quote: str = ""
    reading: Reading | None = None
    regime: str = ""
    cost: Callable[[], CostEstimate] | None = None
    paper: Configuration | None = None
    budget_bytes: int | None = None
    slip: str | None = None

    def __post_init__(self) -> None:
        if self.expected == Status.INCONCLUSIVE:
            if self.expected_reason is None:
                raise InvalidArgumentError(
                    f"expected_reason: claim {self.id} expects inconclusive, so it "
                    "names the Reason (e.g. Reason.STATISTICAL)"
                )
            if self.expected_reason == Reason.CRASH:
                raise InvalidArgumentError(
                    f"expected_reason: claim {self.id} may not expect a crash"
                )
        elif self.expected_reason is not None:
            raise InvalidArgumentError(
                f"expected_reason: claim {self.id} expects {self.expected}, so "
                f"expected_reason must be None, got {self.expected_reason!r}"
            )
        check_budget("budget_seconds", self.budget_seconds)
        if self.budget_bytes is not None and (
            isinstance(self.budget_bytes, bool)
            or not isinstance(self.budget_bytes, int)
            or self.budget_bytes < 1
        ):
            raise InvalidArgumentError(
                f"budget_bytes: must be an integer >= 1 (bytes) or None for the "
                f"run's default, got {self.budget_bytes!r}"
            )
        if self.reading is not None:
            object.__setattr__(self, "reading", Reading(self.reading))
        if self.slip is not None and self.reading not in (
            Reading.PRINTED,
            Reading.PROSE,
        ):
            raise InvalidArgumentError(
                f"slip: claim {self.id} names an error of the source "
                f"({self.slip!r}), so it reads the text as printed or prose, "
                f"not {self.reading}"
            )
        relation = getattr(self.check, "relation", None)
        if self.formula is None and callable(relation):
            # A check that takes its relation (checks.RelationCheck) typesets it.
            object.__setattr__(self, "formula", relation)

    @property
    def id(self) -> str:
        """``source:equation:label``, unique across the registry."""
        return f"{self.source}:{self.equation}:{self.label}"

    def _repr_html_(self) -> str:
        """The claim in HTML, for Jupyter (implicit_bias.claims.display)."""
        return display.render_claim(self, "html")

    def _repr_markdown_(self) -> str:
        """The claim in Markdown, for Jupyter (implicit_bias.claims.display)."""
        return display.render_claim(self, "markdown")

    def _repr_latex_(self) -> str:
        """The claim in LaTeX, for Jupyter (implicit_bias.claims.display)."""
        return display.render_claim(self, "latex")


@dataclass(frozen=True)
class Result:
    """A claim, the verdict its check returned and the seconds it took."""

    claim: Claim
    verdict: Verdict
    seconds: float

    @property
    def as_expected(self) -> bool:
        """Whether the verdict is the one the registry expects: the same status
        and, for ``inconclusive``, the same reason (a crash never matches)."""
        return (
            self.verdict.status == self.claim.expected
            and self.verdict.reason == self.claim.expected_reason
        )

    def as_record(self) -> dict[str, Any]:
        """The JSON record printed by ``implicit-bias verify --json``."""
        record: dict[str, Any] = {
            "id": self.claim.id,
            "source": self.claim.source,
            "equation": self.claim.equation,
            "kind": str(self.claim.kind),
            "statement": self.claim.statement,
            "status": str(self.verdict.status),
            "expected": str(self.claim.expected),
            "detail": self.verdict.detail,
            "reason": None if self.verdict.reason is None else str(self.verdict.reason),
            "expected_reason": (
                None
                if self.claim.expected_reason is None
                else str(self.claim.expected_reason)
            ),
            "basis": None if self.verdict.basis is None else str(self.verdict.basis),
            "counterexample": self.verdict.counterexample,
            "counterexample_point": (
                None if self.verdict.point is None else dict(self.verdict.point)
            ),
            "quote": self.claim.quote,
            "reading": None if self.claim.reading is None else str(self.claim.reading),
            "regime": self.claim.regime,
            "seconds": round(self.seconds, 3),
            "assumptions": list(self.claim.assumptions),
        }
        if self.claim.corrects is not None:
            record["corrects"] = self.claim.corrects
        return record

    def _repr_html_(self) -> str:
        """The result in HTML, for Jupyter (implicit_bias.claims.display)."""
        return display.render_result(self, "html")

    def _repr_markdown_(self) -> str:
        """The result in Markdown, for Jupyter (implicit_bias.claims.display)."""
        return display.render_result(self, "markdown")

    def _repr_latex_(self) -> str:
        """The result in LaTeX, for Jupyter (implicit_bias.claims.display)."""
        return display.render_result(self, "latex")


_REPEAT_SECONDS = 0.05


class CheckTimeout(Exception):
    """A step of a check ran past the time given to it by :func:`time_limit`."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`CheckTimeout` in the block after ``seconds`` of CPU time.

    Counts this process's CPU time (``ITIMER_PROF``, delivered as
    ``SIGPROF``), so the limit does not depend on how busy the machine is;
    works in the main thread of a worker process, which is where checks run,
    and interrupts pure-Python work such as SymPy's. Nested limits keep the
    tighter one, and an outer limit keeps running (minus the time spent in
    the block) after an inner one ends. A timeout the signal raises in a
    finalizer is dropped rather than reported by ``sys.unraisablehook``
    (the timer repeats until it reaches the step itself).
    """
    if not seconds > 0:
        raise ValueError(f"seconds={seconds!r} must be > 0")
    armed = True
    reporting = 0

    def _expire(signum: int, frame: FrameType | None) -> None:
        # Not while a report is under way, nor as _report starts (before it
        # can say so): the timer repeats and reaches the step again.
        entering = frame is not None and frame.f_code is _report.__code__
        if armed and not reporting and not entering:
            raise CheckTimeout(f"step exceeded its {seconds:g} s CPU-time budget")

    def _report(unraisable: Any) -> None:
        # A timeout raised in a __del__ or a garbage-collector callback is
        # the signal landing where it cannot stop the step (the repeat will),
        # not an error of that code: dropped. Anything else goes on to the
        # previous hook, which the timer must not interrupt in turn (pytest's
        # hook fails the test when it is), even when a report nests in it.
        nonlocal reporting
        if isinstance(unraisable.exc_value, CheckTimeout):
            return
        reporting += 1
        try:
            previous_hook(unraisable)
        finally:
            reporting -= 1

    # Read and stopped at once, so the outer limit cannot fire while this one
    # installs its handler and hook.
    outer_remaining, outer_interval = signal.setitimer(signal.ITIMER_PROF, 0)
    if outer_remaining and outer_remaining <= seconds:
        signal.setitimer(signal.ITIMER_PROF, outer_remaining, outer_interval)
        yield
        return
    started = time.process_time()
    previous = signal.signal(signal.SIGPROF, _expire)
    previous_hook = sys.unraisablehook
    try:
        sys.unraisablehook = _report
        # The timer repeats: a signal that lands in code which swallows
        # exceptions (a garbage-collector callback, a __del__) would otherwise
        # be lost and leave the step unbounded.
        signal.setitimer(signal.ITIMER_PROF, seconds, _REPEAT_SECONDS)
        yield
    finally:
        armed = False
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
        sys.unraisablehook = previous_hook
        if outer_remaining:
            # Re-arm the outer limit with what is left of it; one that ran out
            # inside this block fires at once.
            spent = time.process_time() - started
            signal.setitimer(
                signal.ITIMER_PROF,
                max(outer_remaining - spent, 1e-6),
                outer_interval,
            )


def _claim_verdict(claim: Claim) -> Verdict:
    """Run a claim's check (in a worker) under its memory budget: a crash, a
    timeout or an overrun is a verdict too."""
    budget: int | None = None
    try:
        with memory_limit(claim.budget_bytes) as budget:
            verdict = claim.check()
        if not isinstance(verdict, Verdict):
            verdict = Verdict.inconclusive(
                f"check returned {verdict!r}, not a Verdict", Reason.CRASH
            )
    except CheckTimeout as error:
        verdict = Verdict.inconclusive(f"timed out: {error}", Reason.BUDGET)
    except MemoryError as error:
        last = traceback.format_exception_only(type(error), error)[-1].strip()
        verdict = Verdict.inconclusive(
            f"exceeded its memory budget of {_mebibytes(budget)} ({last})",
            Reason.BUDGET,
        )
    except Exception as error:
        last = traceback.format_exception_only(type(error), error)[-1].strip()
        verdict = Verdict.inconclusive(f"check raised {last}", Reason.CRASH)
    return verdict


def _mebibytes(budget: int | None) -> str:
    return "(none)" if budget is None else f"{budget / 2**20:.0f} MiB"


class Executor(Protocol):
    """Runs checks somewhere and reports each claim's outcome once
    (implementations: :mod:`implicit_bias.claims.executors`)."""

    def run(
        self, claims: Sequence[Claim], on_done: Callable[[int, Any, float], None]
    ) -> None:
        """Check every claim; call ``on_done(index, outcome, seconds)`` exactly
        once per claim, as each finishes, the outcome a :class:`Verdict` or a
        :class:`WorkerDeath` (budget or crash)."""


def run_locally(
    claims: Sequence[Claim],
    on_done: Callable[[int, Any, float], None],
    *,
    workers: int | None = None,
    warm_up: Callable[[], object] | None = None,
    needs_warm_up: Callable[[Claim], bool] | None = None,
    isolate: bool = False,
) -> None:
    """Check the claims in forked local processes (:func:`run_in_workers`);
    the default :class:`Executor`'s work.

    ``warm_up`` (if given) runs once in this process, inherited by the
    workers of the claims for which ``needs_warm_up`` is true (default: all);
    the others may run beside it. ``isolate`` runs each claim in a process
    of its own instead of reused workers (slower: no cache carries over).
    """
    run_in_workers(
        [(functools.partial(_claim_verdict, c), c.budget_seconds) for c in claims],
        workers=workers,
        on_done=on_done,
        reuse_workers=not isolate,
        warm_up=warm_up,
        needs_warm_up=(
            None if needs_warm_up is None else [needs_warm_up(c) for c in claims]
        ),
    )


def run_claims(
    claims: Sequence[Claim],
    *,
    workers: int | None = None,
    on_result: Callable[[Result, int, int], None] | None = None,
    executor: Executor | None = None,
    warm_up: Callable[[], object] | None = None,
    needs_warm_up: Callable[[Claim], bool] | None = None,
) -> list[Result]:
    """Check claims in parallel worker processes, each within its time budget.

    Args:
      claims: the claims to check.
      workers: concurrent processes (default: the number of CPUs) of the
        default executor.
      on_result: called as ``on_result(result, done, total)`` as each finishes.
      executor: where the checks run
        (:mod:`~implicit_bias.claims.executors`); by default local forked
        processes, ``LocalExecutor(workers)``.
      warm_up: work done once in this process before the claims for which
        ``needs_warm_up`` is true (default: all) start, inherited by the
        workers forked after it (:func:`run_locally`); not run with an
        ``executor``, whose workers are other processes.
      needs_warm_up: which claims read what ``warm_up`` computes.

    Returns:
      The results, in the order of ``claims``: one per claim, whatever became
      of its worker.

    Raises:
      InvalidArgumentError: ``workers`` is given with an ``executor``.
    """
    if executor is not None and workers is not None:
        raise InvalidArgumentError(
            f"workers={workers!r}: given with executor={executor!r}, which has "
            "its own; give workers to LocalExecutor instead"
        )
    results: dict[int, Result] = {}

    def done(index: int, value: Any, seconds: float) -> None:
        if index in results:
            # A second arrival (a task the cluster ran twice) is not a record.
            return
        if isinstance(value, WorkerDeath):
            value = Verdict.inconclusive(
                value.detail, Reason.BUDGET if value.over_budget else Reason.CRASH
            )
        result = Result(claims[index], value, seconds)
        results[index] = result
        if on_result is not None:
            on_result(result, len(results), len(claims))

    if executor is None:
        run_locally(
            claims, done, workers=workers, warm_up=warm_up, needs_warm_up=needs_warm_up
        )
    else:
        executor.run(claims, done)
    return [results[i] for i in range(len(claims))]


def in_paper_order(
    claims: Iterable[Claim], positions: Mapping[str, float] | None = None
) -> tuple[Claim, ...]:
    """The claims sorted stably by where their equation is printed in the paper.

    An equation ``"12"`` or a range ``"17-18"`` sorts at 12 or 17; any other
    label (``"sec-3.1"``, ``"prop-3"``) at ``positions[label]``, a number
    placing it between the equations around it (e.g. 9.5 between (9) and
    (10)). Claims at the same place keep their order.

    Raises:
      ValueError: a label is neither a number, a range nor in ``positions``.

    Examples:
      >>> claims = [Claim("s", label, label, Kind.NUMERIC, "", print, Status.HOLDS)
      ...           for label in ("12", "sec-3.1", "2", "17-18")]
      >>> [c.equation for c in in_paper_order(claims, {"sec-3.1": 9.5})]
      ['2', 'sec-3.1', '12', '17-18']
    """
    places = dict(positions or {})

    def place(claim: Claim) -> float:
        if claim.equation in places:
            return places[claim.equation]
        first = claim.equation.split("-")[0]
        if first.isdigit():
            return float(first)
        raise ValueError(
            f"equation={claim.equation!r} of {claim.id} is not a number or range; "
            "give its position in the paper"
        )

    return tuple(sorted(claims, key=place))


def unique_ids(claims: Iterable[Claim]) -> list[Claim]:
    """Return the claims as a list, raising if two share an id."""
    seen: dict[str, Claim] = {}
    for claim in claims:
        if claim.id in seen:
            raise ValueError(f"duplicate claim id {claim.id!r}")
        seen[claim.id] = claim
    return list(seen.values())


# Imported last: display reads this module's classes when it is imported,
# and the methods above read it when called. A name of the module, not an
# import inside each method, so that a claim's cache key (which follows the
# names a method reads) does not depend on whether a notebook imported the
# display first.
import implicit_bias.claims.display as display  # noqa: E402
