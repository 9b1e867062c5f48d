r"""Profiles: the size claims run at, what it costs, the seeds it needs.

``implicit-bias verify --profile quick|default|paper`` runs every claim under
one of three profiles:

* ``quick`` leaves out the claims marked ``slow``;
* ``default`` runs every claim's own ``check`` (the size its author chose to
  fit a laptop);
* ``paper`` runs a claim at the source's own configuration (sizes, seeds,
  steps) wherever the claim gives one as its :class:`Configuration`
  (``Claim.paper``), and its own ``check`` elsewhere.

A simulation claim states what its training costs as a :class:`CostEstimate`
(a per-step cost measured on this machine at the configuration's sizes, times
the runs and steps the configuration asks for), so that ``verify --plan``
prints, before anything runs, what a profile will cost and what needs a
cluster. A statistical claim states the seeds it needs to resolve the effect
its source reports with a :class:`PowerCalculation` from a pilot run.
"""

from __future__ import annotations

import contextvars
import dataclasses
import enum
import math
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from threadpoolctl import threadpool_limits

from implicit_bias.claims.engine import Claim, Reason, Status, Verdict
from implicit_bias.errors import InvalidArgumentError

__all__ = [
    "Configuration",
    "CostEstimate",
    "PlanEntry",
    "PowerCalculation",
    "Profile",
    "claim_for_profile",
    "claims_for_profile",
    "format_plan",
    "measure_step_seconds",
    "plan",
    "plan_summary",
    "timings_are_rough",
]


class Profile(enum.StrEnum):
    """The size at which ``verify`` runs claims."""

    QUICK = "quick"
    DEFAULT = "default"
    PAPER = "paper"


@dataclass(frozen=True)
class CostEstimate:
    r"""What a configuration costs: CPU seconds, and how they were counted.

    The estimate of a simulation is
    :math:`\text{runs} \times \text{steps} \times c_{\text{step}}`, with
    :math:`c_{\text{step}}` the CPU seconds of one step measured on this
    machine (:func:`measure_step_seconds`) at the configuration's sizes.

    Attributes:
      seconds: estimated CPU seconds of the whole check.
      runs: training runs (seeds times grid points), 0 for a check that trains
        nothing.
      steps: gradient steps per run (the cap, where runs stop at convergence).
      step_seconds: measured CPU seconds of one step of one run.
      detail: how the figure was reached, in words.
    """

    seconds: float
    runs: int = 0
    steps: int = 0
    step_seconds: float = 0.0
    detail: str = ""

    def __post_init__(self) -> None:
        if not (math.isfinite(self.seconds) and self.seconds >= 0):
            raise InvalidArgumentError(
                f"seconds: must be a finite number >= 0, got {self.seconds!r}"
            )
        _require_count("runs", self.runs)
        _require_count("steps", self.steps)

    @classmethod
    def of_training(
        cls, runs: int, steps: int, step_seconds: float, detail: str = ""
    ) -> CostEstimate:
        """``runs`` runs of ``steps`` steps at ``step_seconds`` each."""
        # Checked before their product, which would otherwise be refused as
        # a negative ``seconds`` the caller never gave.
        _require_count("runs", runs)
        _require_count("steps", steps)
        if not (math.isfinite(step_seconds) and step_seconds >= 0):
            raise InvalidArgumentError(
                f"step_seconds: must be a finite number >= 0, got {step_seconds!r}"
            )
        per_step = (
            f"{step_seconds * 1e6:.3g} us"
            if step_seconds < 1e-3
            else f"{step_seconds * 1e3:.3g} ms"
        )
        counted = f"{runs} runs x {steps} steps x {per_step}/step (measured)"
        return cls(
            runs * steps * step_seconds,
            runs,
            steps,
            step_seconds,
            counted + (f"; {detail}" if detail else ""),
        )


def _require_count(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidArgumentError(f"{name}: must be an integer >= 0, got {value!r}")


#: Set by :func:`plan` with ``rough=True``: each timing is one call.
_ROUGH_TIMINGS: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "rough_timings", default=False
)


def timings_are_rough() -> bool:
    """Whether :func:`measure_step_seconds` times one call (inside
    ``plan(rough=True)``): a model that keeps its measurements keys them by it,
    so that a rough figure never serves a later full plan."""
    return _ROUGH_TIMINGS.get()


def measure_step_seconds(
    step: Callable[[], object],
    *,
    steps: int = 20,
    repeats: int = 3,
    blas_threads: int = 1,
) -> float:
    """CPU seconds of one call of ``step``: best of ``repeats`` timings of ``steps``.

    CPU time, so a busy machine does not inflate it; the best of several
    timings leaves out a cold cache. BLAS runs on ``blas_threads`` threads, as
    in a claim's worker when the workers fill the cores: more threads would
    count their spin-waiting on a busy machine as CPU time (up to 4.7x the
    single-thread figure, measured). With one BLAS thread the clock is the
    calling thread's (``time.thread_time``), so other threads of the process
    are not counted; with more, the process's (``time.process_time``).
    ``step`` should do one gradient step (or one batched step) at the sizes of
    the configuration whose cost is estimated. Under :func:`plan` with
    ``rough=True`` one call is timed after the warm-up, whatever ``steps``
    and ``repeats`` ask.
    """
    for name, value in (
        ("steps", steps),
        ("repeats", repeats),
        ("blas_threads", blas_threads),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InvalidArgumentError(
                f"{name}: must be an integer >= 1, got {value!r}"
            )
    if _ROUGH_TIMINGS.get():
        steps, repeats = 1, 1
    clock = time.thread_time if blas_threads == 1 else time.process_time
    with threadpool_limits(limits=blas_threads):
        step()
        best = math.inf
        for _ in range(repeats):
            start = clock()
            for _ in range(steps):
                step()
            best = min(best, (clock() - start) / steps)
    return best


@dataclass(frozen=True)
class PowerCalculation:
    r"""The seeds a statistical claim needs to resolve the effect its source reports.

    A check that decides when the mean of a per-seed statistic is beyond
    :math:`z` standard errors of zero resolves an effect :math:`\delta` with
    probability ``power`` :math:`= \Phi(z_\beta)` when

    .. math::  S \ge \left(\frac{(z + z_\beta)\, \sigma}{|\delta|}\right)^2,

    with :math:`\sigma` the per-seed standard deviation, estimated from a pilot
    run of ``pilot_seeds`` seeds (the one-sided normal approximation; the
    pilot's own uncertainty in :math:`\sigma` is not propagated, so the figure
    is a planning number, not a guarantee).

    Attributes:
      effect: the effect :math:`\delta` the source reports, in the units of
        the per-seed statistic.
      effect_quote: where the source reports it, in its words (or how it is
        read off its figure).
      pilot_sd: :math:`\sigma`, measured by the pilot run.
      pilot_seeds: the seeds the pilot ran.
      pilot: the configuration the pilot ran, in words.
      z: the number of standard errors the check decides at.
      power: the probability of resolving an effect of size ``effect``.
    """

    effect: float
    effect_quote: str
    pilot_sd: float
    pilot_seeds: int
    pilot: str
    z: float = 3.0
    power: float = 0.9

    def __post_init__(self) -> None:
        if not (math.isfinite(self.effect) and self.effect != 0):
            raise InvalidArgumentError(
                f"effect: must be a finite nonzero number, got {self.effect!r}"
            )
        if not (math.isfinite(self.pilot_sd) and self.pilot_sd > 0):
            raise InvalidArgumentError(
                f"pilot_sd: must be a finite number > 0, got {self.pilot_sd!r}"
            )
        if (
            isinstance(self.pilot_seeds, bool)
            or not isinstance(self.pilot_seeds, int)
            or self.pilot_seeds < 2
        ):
            raise InvalidArgumentError(
                f"pilot_seeds: must be an integer >= 2, got {self.pilot_seeds!r}"
            )
        if not (math.isfinite(self.z) and self.z > 0):
            raise InvalidArgumentError(
                f"z: must be a finite number > 0, got {self.z!r}"
            )
        if not 0.5 <= self.power < 1:
            raise InvalidArgumentError(
                f"power: must be in [0.5, 1), got {self.power!r}"
            )

    @property
    def seeds(self) -> int:
        r"""The seeds needed: :math:`\lceil ((z + z_\beta)\sigma/|\delta|)^2\rceil`."""
        z_power = statistics.NormalDist().inv_cdf(self.power)
        return max(
            2, math.ceil(((self.z + z_power) * self.pilot_sd / abs(self.effect)) ** 2)
        )

    def describe(self) -> str:
        return (
            f"{self.seeds} seeds resolve the reported effect {self.effect:.3g} "
            f"({self.effect_quote}) at {self.z:g} SE with power {self.power:g}, "
            f"from a per-seed sd of {self.pilot_sd:.3g} in a pilot of "
            f"{self.pilot_seeds} seeds ({self.pilot})"
        )


@dataclass(frozen=True)
class Configuration:
    """A claim run at another size: the source's own configuration, usually.

    Attributes:
      description: the configuration in words (sizes, seeds, steps), and where
        the source gives it ("Fig. 1c: 30 seeds, n = 8 ... 128").
      check: the claim's check at this configuration.
      budget_seconds: its CPU-time budget.
      expected: the verdict it is known to have at this size.
      expected_reason: for an expected ``inconclusive``, its :class:`Reason`.
      cost: estimates the check's cost without running it (it may time a few
        steps); see :class:`CostEstimate`.
      power: the power calculation that sized its seeds, for a statistical
        claim.
      from_source: the sizes are the source's own (False: the source gives
        none, and these are ours, said in ``description``).
    """

    description: str
    check: Callable[[], Verdict]
    budget_seconds: float
    expected: Status
    cost: Callable[[], CostEstimate]
    expected_reason: Reason | None = None
    power: PowerCalculation | None = None
    from_source: bool = True

    def __post_init__(self) -> None:
        if not self.description:
            raise InvalidArgumentError("description: must say the configuration")
        if not (math.isfinite(self.budget_seconds) and self.budget_seconds > 0):
            # An infinite budget cannot become a CPU limit on the worker.
            raise InvalidArgumentError(
                f"budget_seconds: must be a finite number > 0, "
                f"got {self.budget_seconds!r}"
            )
        if self.expected_reason == Reason.CRASH:
            # Refused here, where the source is loaded, not later by the Claim
            # that claim_for_profile makes under --profile paper or --plan.
            raise InvalidArgumentError(
                "expected_reason: a configuration may not expect a crash"
            )
        if (self.expected == Status.INCONCLUSIVE) != (self.expected_reason is not None):
            raise InvalidArgumentError(
                "expected_reason: must name the Reason exactly when the expected "
                f"verdict is inconclusive, got {self.expected!r} with "
                f"{self.expected_reason!r}"
            )


def claim_for_profile(claim: Claim, profile: Profile | str) -> Claim | None:
    """The claim to run under ``profile``, or None when the profile leaves it out."""
    profile = _profile(profile)
    if profile is Profile.QUICK:
        return None if claim.slow else claim
    configuration = claim.paper
    if profile is Profile.DEFAULT or configuration is None:
        return claim
    return dataclasses.replace(
        claim,
        check=configuration.check,
        budget_seconds=configuration.budget_seconds,
        expected=configuration.expected,
        expected_reason=configuration.expected_reason,
        cost=configuration.cost,
        regime=f"{claim.regime}; at the paper's size: {configuration.description}",
        paper=None,
    )


def claims_for_profile(claims: Iterable[Claim], profile: Profile | str) -> list[Claim]:
    """The claims to run under ``profile``, in order."""
    chosen = (claim_for_profile(claim, profile) for claim in claims)
    return [claim for claim in chosen if claim is not None]


@dataclass(frozen=True)
class PlanEntry:
    """One claim of a plan: what it will cost under the profile, and why we think so."""

    claim: Claim
    seconds: float | None
    basis: str
    detail: str


def plan(
    claims: Sequence[Claim],
    profile: Profile | str,
    last_seconds: Mapping[str, float] | None = None,
    *,
    measured_first: bool = False,
    rough: bool = False,
) -> list[PlanEntry]:
    """Estimate every claim's cost under ``profile`` before running any.

    A claim with a cost model (``Claim.cost``, or its paper
    :class:`Configuration`'s) is estimated by it (``basis`` "model"); any
    other by the seconds of its last run where ``last_seconds`` has them
    ("last run"), else it is "unknown". An estimate that raises is "unknown"
    and says why. With ``measured_first``, a claim's last run is preferred to
    its cost model (a model counts every run at its step cap, an upper bound
    where runs stop at convergence; a measured run is what the claim costs).
    With ``rough``, the models' timings (:func:`measure_step_seconds`) are one
    call each instead of their best of several: a noisier estimate at a
    fraction of the cost, for what ``verify`` says before it starts.
    """
    token = _ROUGH_TIMINGS.set(rough)
    try:
        return _planned(claims, profile, last_seconds, measured_first)
    finally:
        _ROUGH_TIMINGS.reset(token)


def _planned(
    claims: Sequence[Claim],
    profile: Profile | str,
    last_seconds: Mapping[str, float] | None,
    measured_first: bool,
) -> list[PlanEntry]:
    entries: list[PlanEntry] = []
    for claim in claims_for_profile(claims, profile):
        measured = None if last_seconds is None else last_seconds.get(claim.id)
        if measured_first and measured is not None:
            entries.append(PlanEntry(claim, measured, "last run", ""))
        elif claim.cost is not None:
            try:
                estimate = claim.cost()
            except Exception as error:  # a broken model must not stop the plan
                entries.append(
                    PlanEntry(claim, None, "unknown", f"cost model raised {error!r}")
                )
                continue
            if not isinstance(estimate, CostEstimate):
                entries.append(
                    PlanEntry(
                        claim,
                        None,
                        "unknown",
                        f"cost model returned {estimate!r}, not a CostEstimate",
                    )
                )
                continue
            entries.append(PlanEntry(claim, estimate.seconds, "model", estimate.detail))
        elif last_seconds is not None and claim.id in last_seconds:
            entries.append(PlanEntry(claim, last_seconds[claim.id], "last run", ""))
        else:
            entries.append(PlanEntry(claim, None, "unknown", "never run here"))
    return entries


def format_plan(entries: Sequence[PlanEntry], workers: int) -> str:
    """A table of the plan, its total and the wall time on ``workers`` processes.

    Raises:
      InvalidArgumentError: ``workers`` is not an integer >= 1.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidArgumentError(
            f"workers: must be an integer >= 1 (processes), got {workers!r}"
        )
    width = max([len(e.claim.id) for e in entries] + [5])
    lines = [f"{'claim':<{width}}  {'kind':<12}  {'estimate':>10}  basis     detail"]
    for entry in entries:
        shown = "?" if entry.seconds is None else _duration(entry.seconds)
        lines.append(
            f"{entry.claim.id:<{width}}  {entry.claim.kind:<12}  {shown:>10}  "
            f"{entry.basis:<8}  {entry.detail}"
        )
    hour = [e.claim.id for e in entries if e.seconds is not None and e.seconds > 3600]
    lines.append("")
    lines.append(plan_summary(entries, workers))
    if hour:
        lines.append(f"over an hour each (a cluster's work): {', '.join(hour)}")
    return "\n".join(lines)


def plan_summary(entries: Sequence[PlanEntry], workers: int | None) -> str:
    """One line: the claims, their estimated CPU, and the wall time on
    ``workers`` processes (left out if None: a cluster's own count).

    The wall time assumes longest-first scheduling: at best CPU / workers,
    never less than the longest claim.
    """
    known = [e.seconds for e in entries if e.seconds is not None]
    unknown = len(entries) - len(known)
    total = sum(known)
    line = f"{len(entries)} claims: {_duration(total)} of CPU estimated" + (
        f" ({unknown} not estimated)" if unknown else ""
    )
    if workers is not None:
        wall = max([total / workers, *known]) if known else 0.0
        noun = "process" if workers == 1 else "processes"
        line += f", about {_duration(wall)} of wall time on {workers} {noun}"
    return line


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def _profile(profile: Profile | str) -> Profile:
    try:
        return Profile(profile)
    except ValueError:
        raise InvalidArgumentError(
            f"profile: must be one of {', '.join(p.value for p in Profile)}, "
            f"got {profile!r}"
        ) from None
