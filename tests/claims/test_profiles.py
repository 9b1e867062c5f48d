"""Profiles: which claims run, at what size, what they cost, and the seeds they need."""

from __future__ import annotations

import dataclasses
import math
import statistics
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from implicit_bias.claims.cache import VerdictCache
from implicit_bias.claims.engine import Basis, Claim, Kind, Reason, Status, Verdict
from implicit_bias.claims.profiles import (
    Configuration,
    CostEstimate,
    PowerCalculation,
    Profile,
    claim_for_profile,
    claims_for_profile,
    format_plan,
    measure_step_seconds,
    plan,
    plan_summary,
    timings_are_rough,
)
from implicit_bias.errors import InvalidArgumentError


def _small() -> Verdict:
    return Verdict.inconclusive("6 seeds: -1.1 SE", Reason.STATISTICAL)


def _large() -> Verdict:
    return Verdict.holds("40 seeds: 4.2 SE", Basis.STATISTICAL)


def _paper_cost() -> CostEstimate:
    return CostEstimate.of_training(40, 1000, 2e-5, "40 seeds")


PAPER = Configuration(
    "Fig. 9: 40 seeds",
    _large,
    budget_seconds=600.0,
    expected=Status.HOLDS,
    cost=_paper_cost,
)

SIMULATION = Claim(
    "s",
    "9",
    "sim",
    Kind.SIMULATION,
    "a simulation",
    _small,
    Status.INCONCLUSIVE,
    expected_reason=Reason.STATISTICAL,
    cost=lambda: CostEstimate.of_training(6, 1000, 2e-5),
    paper=PAPER,
    regime="6 seeds",
)
SLOW = Claim("s", "10", "slow", Kind.NUMERIC, "slow", _large, Status.HOLDS, slow=True)
PLAIN = Claim("s", "11", "plain", Kind.NUMERIC, "plain", _large, Status.HOLDS)


def test_quick_leaves_out_slow_claims_and_default_runs_every_claim_as_written() -> None:
    claims = [SIMULATION, SLOW, PLAIN]
    assert claims_for_profile(claims, "quick") == [SIMULATION, PLAIN]
    assert claims_for_profile(claims, Profile.DEFAULT) == claims


def test_paper_runs_the_paper_configuration_under_the_same_id() -> None:
    paper = claim_for_profile(SIMULATION, "paper")
    assert paper is not None
    assert paper.id == SIMULATION.id
    assert paper.check is _large
    assert (paper.expected, paper.expected_reason) == (Status.HOLDS, None)
    assert paper.budget_seconds == 600.0
    assert paper.cost is _paper_cost
    assert "Fig. 9: 40 seeds" in paper.regime
    # Claims without a paper configuration, slow ones included, run as written.
    assert claim_for_profile(SLOW, "paper") is SLOW
    assert claim_for_profile(PLAIN, "paper") is PLAIN


def test_an_unknown_profile_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="profile"):
        claim_for_profile(PLAIN, "huge")


def test_a_configuration_states_its_reason_exactly_when_inconclusive() -> None:
    with pytest.raises(InvalidArgumentError, match="expected_reason"):
        Configuration("x", _small, 1.0, Status.INCONCLUSIVE, _paper_cost)
    with pytest.raises(InvalidArgumentError, match="expected_reason"):
        Configuration("x", _large, 1.0, Status.HOLDS, _paper_cost, Reason.BUDGET)
    with pytest.raises(InvalidArgumentError, match="budget_seconds"):
        Configuration("x", _large, 0.0, Status.HOLDS, _paper_cost)


@given(
    runs=st.integers(0, 10**4),
    steps=st.integers(0, 10**6),
    step_seconds=st.floats(0, 1e-2, allow_nan=False),
)
def test_a_training_cost_is_runs_times_steps_times_the_step(
    runs: int, steps: int, step_seconds: float
) -> None:
    estimate = CostEstimate.of_training(runs, steps, step_seconds)
    assert estimate.seconds == runs * steps * step_seconds
    assert (estimate.runs, estimate.steps) == (runs, steps)
    assert f"{runs} runs x {steps} steps" in estimate.detail


@pytest.mark.parametrize(
    "arguments",
    [(-1, 10, 1e-6), (10, 2.5, 1e-6), (10, 10, math.nan), (10, 10, -1e-6)],
)
def test_a_cost_needs_counts_and_a_finite_step(
    arguments: tuple[int, float, float],
) -> None:
    with pytest.raises(InvalidArgumentError):
        CostEstimate.of_training(*arguments)  # type: ignore[arg-type]


def test_a_step_is_timed_in_cpu_seconds_of_its_thread() -> None:
    def sleep_then_spin() -> None:
        # A sleep costs no CPU: only the spin may be counted.
        time.sleep(0.002)
        end = time.thread_time() + 0.004
        while time.thread_time() < end:
            pass

    # Another thread of the process spinning meanwhile is not counted either.
    stop = threading.Event()

    def busy() -> None:
        while not stop.is_set():
            pass

    other = threading.Thread(target=busy)
    other.start()
    try:
        seconds = measure_step_seconds(sleep_then_spin, steps=5, repeats=2)
    finally:
        stop.set()
        other.join()
    assert 0.004 <= seconds < 0.006
    with pytest.raises(InvalidArgumentError, match="steps"):
        measure_step_seconds(sleep_then_spin, steps=0)


@given(
    effect=st.floats(1e-3, 10.0),
    sd=st.floats(1e-3, 10.0),
    z=st.floats(0.5, 5.0),
    power=st.floats(0.5, 0.99),
)
def test_the_seeds_of_a_power_calculation_resolve_the_effect(
    effect: float, sd: float, z: float, power: float
) -> None:
    calculation = PowerCalculation(effect, "Fig. 1", sd, 6, "pilot", z, power)
    seeds = calculation.seeds
    # With S seeds the mean is normal with sd sigma / sqrt(S): it lies beyond
    # z SE with probability Phi(|delta| sqrt(S) / sigma - z) >= power, and one
    # seed fewer would not do (unless the floor of 2 seeds binds).
    normal = statistics.NormalDist()

    def resolved(s: int) -> float:
        return normal.cdf(effect * math.sqrt(s) / sd - z)

    assert resolved(seeds) >= power - 1e-9
    assert seeds == 2 or resolved(seeds - 1) < power + 1e-9
    assert (
        calculation.seeds
        == PowerCalculation(-effect, "Fig. 1", sd, 6, "pilot", z, power).seeds
    )


def test_a_worked_power_calculation() -> None:
    # delta = 0.05, sigma = 0.05, z = 3, power 0.9: ((3 + 1.2816) 1)^2 = 18.33.
    assert PowerCalculation(0.05, "Fig. 1", 0.05, 6, "pilot").seeds == 19
    text = PowerCalculation(0.05, "Fig. 1", 0.05, 6, "pilot").describe()
    assert text.startswith("19 seeds resolve the reported effect 0.05 (Fig. 1)")


@pytest.mark.parametrize(
    ("field", "value"),
    [("effect", 0.0), ("pilot_sd", -1.0), ("pilot_seeds", 1), ("power", 1.0)],
)
def test_a_power_calculation_refuses_a_degenerate_input(
    field: str, value: float
) -> None:
    arguments = {
        "effect": 0.05,
        "effect_quote": "Fig. 1",
        "pilot_sd": 0.05,
        "pilot_seeds": 6,
        "pilot": "pilot",
        field: value,
    }
    with pytest.raises(InvalidArgumentError, match=field):
        PowerCalculation(**arguments)  # type: ignore[arg-type]


def test_a_plan_estimates_by_model_then_by_the_last_run() -> None:
    def broken() -> CostEstimate:
        raise RuntimeError("no trainer")

    broken_claim = Claim(
        "s", "12", "broken", Kind.SIMULATION, "b", _large, Status.HOLDS, cost=broken
    )
    claims = [SIMULATION, SLOW, PLAIN, broken_claim]
    default = {e.claim.id: e for e in plan(claims, "default", {PLAIN.id: 1.5})}
    assert default[SIMULATION.id].seconds == pytest.approx(6 * 1000 * 2e-5)
    assert default[SIMULATION.id].basis == "model"
    assert (default[PLAIN.id].seconds, default[PLAIN.id].basis) == (1.5, "last run")
    assert (default[SLOW.id].seconds, default[SLOW.id].basis) == (None, "unknown")
    assert default[broken_claim.id].basis == "unknown"
    assert "no trainer" in default[broken_claim.id].detail
    paper = {e.claim.id: e for e in plan(claims, "paper")}
    assert paper[SIMULATION.id].seconds == pytest.approx(40 * 1000 * 2e-5)
    assert SLOW.id not in {e.claim.id for e in plan(claims, "quick")}


def test_a_measured_run_comes_before_the_model_when_asked() -> None:
    last = {SIMULATION.id: 0.25, PLAIN.id: 1.5}
    by_model = {e.claim.id: e for e in plan([SIMULATION, PLAIN], "default", last)}
    assert by_model[SIMULATION.id].basis == "model"
    measured = {
        e.claim.id: e
        for e in plan([SIMULATION, PLAIN], "default", last, measured_first=True)
    }
    assert (measured[SIMULATION.id].seconds, measured[SIMULATION.id].basis) == (
        0.25,
        "last run",
    )
    # A claim never run keeps its model.
    fresh = plan([SIMULATION], "default", {}, measured_first=True)
    assert fresh[0].basis == "model"


def test_a_rough_plan_times_each_model_step_once_after_its_warm_up() -> None:
    calls: list[str] = []

    def timed_cost() -> CostEstimate:
        seconds = measure_step_seconds(lambda: calls.append("step"), steps=7, repeats=3)
        return CostEstimate.of_training(10, 100, seconds)

    timed = dataclasses.replace(SIMULATION, cost=timed_cost)
    (entry,) = plan([timed], "default", rough=True)
    assert (entry.basis, len(calls)) == ("model", 2)
    calls.clear()
    plan([timed], "default")
    assert len(calls) == 1 + 7 * 3
    # Rough timings end with the plan that asked for them.
    assert not timings_are_rough()
    calls.clear()
    measure_step_seconds(lambda: calls.append("step"), steps=7, repeats=3)
    assert len(calls) == 1 + 7 * 3


def test_a_plan_summary_leaves_out_the_wall_time_without_a_process_count() -> None:
    entries = plan([SIMULATION, PLAIN], "default", {PLAIN.id: 30.0})
    with_workers = plan_summary(entries, 2)
    assert with_workers.startswith("2 claims: 30.1 s of CPU estimated")
    assert "about 30.0 s of wall time on 2 processes" in with_workers
    assert plan_summary(entries, None) == "2 claims: 30.1 s of CPU estimated"
    assert "(1 not estimated)" in plan_summary(plan([PLAIN], "default"), 1)


def test_a_plan_prints_its_total_and_the_claims_beyond_an_hour() -> None:
    hours = Claim(
        "s",
        "13",
        "hours",
        Kind.SIMULATION,
        "h",
        _large,
        Status.HOLDS,
        cost=lambda: CostEstimate.of_training(100, 10**6, 1e-4),
    )
    text = format_plan(plan([SIMULATION, PLAIN, hours], "default"), workers=2)
    assert "s:13:hours" in text
    assert "3 claims: 2.8 h of CPU estimated (1 not estimated)" in text
    assert "about 2.8 h of wall time on 2 processes" in text
    assert "over an hour each (a cluster's work): s:13:hours" in text


@pytest.mark.parametrize(
    ("arguments", "name"),
    [((-1, 10, 1e-6), "runs"), ((10, -1, 1e-6), "steps"), ((10, 2.5, 1e-6), "steps")],
)
def test_a_bad_count_of_a_training_cost_is_named(
    arguments: tuple[int, float, float], name: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=f"^{name}: must be an integer"):
        CostEstimate.of_training(*arguments)  # type: ignore[arg-type]


def test_a_power_calculation_counts_its_pilot_in_whole_seeds() -> None:
    with pytest.raises(InvalidArgumentError, match="pilot_seeds"):
        PowerCalculation(0.05, "Fig. 1", 0.05, 6.5, "pilot")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "name"),
    [
        ({"budget_seconds": math.inf}, "budget_seconds"),
        (
            {"expected": Status.INCONCLUSIVE, "expected_reason": Reason.CRASH},
            "expected_reason",
        ),
    ],
)
def test_a_configuration_refuses_what_no_claim_may_have(
    changes: dict[str, object], name: str
) -> None:
    arguments: dict[str, object] = {
        "description": "Fig. 9: 40 seeds",
        "check": _large,
        "budget_seconds": 600.0,
        "expected": Status.HOLDS,
        "cost": _paper_cost,
    }
    with pytest.raises(InvalidArgumentError, match=name):
        Configuration(**{**arguments, **changes})  # type: ignore[arg-type]


def test_a_cost_model_that_returns_no_estimate_is_unknown_in_the_plan() -> None:
    odd = Claim(
        "s",
        "14",
        "odd",
        Kind.SIMULATION,
        "o",
        _large,
        Status.HOLDS,
        cost=lambda: 12.0,  # type: ignore[arg-type,return-value]
    )
    (entry,) = plan([odd], "default")
    assert (entry.seconds, entry.basis) == (None, "unknown")
    assert "not a CostEstimate" in entry.detail


@pytest.mark.parametrize("workers", [0, -2, True])
def test_a_plan_refuses_a_count_of_processes_below_one(workers: int) -> None:
    with pytest.raises(InvalidArgumentError, match="workers"):
        format_plan(plan([SIMULATION], "default"), workers=workers)


def _seeded(seeds: int) -> Callable[[], Verdict]:
    def check() -> Verdict:
        return Verdict.holds(f"{seeds} seeds", Basis.STATISTICAL)

    return check


def test_a_paper_verdict_is_cached_apart_from_the_default_one(tmp_path: Path) -> None:
    # The same code, budget and expected verdict at both sizes: only the seeds
    # captured by the check differ, and they must part the keys.
    claim = Claim(
        "s",
        "15",
        "seeded",
        Kind.SIMULATION,
        "s",
        _seeded(6),
        Status.HOLDS,
        budget_seconds=60.0,
        paper=Configuration(
            "40 seeds",
            _seeded(40),
            budget_seconds=60.0,
            expected=Status.HOLDS,
            cost=_paper_cost,
        ),
    )
    paper = claim_for_profile(claim, "paper")
    assert paper is not None
    cache = VerdictCache(tmp_path)
    assert cache.key(paper) != cache.key(claim)
    assert cache.key(claim_for_profile(claim, "default")) == cache.key(claim)  # type: ignore[arg-type]


@pytest.mark.parametrize("plan_only", [False, True])
def test_a_slow_claim_named_under_quick_is_refused_not_dropped(
    plan_only: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from implicit_bias import cli

    source = tmp_path / "slow_note.py"
    source.write_text(
        "from implicit_bias.claims.engine import Basis, Claim, Kind, Status, Verdict\n"
        "from implicit_bias.claims.source import Source\n"
        "def _check():\n"
        "    return Verdict.holds('ok', Basis.NUMERICAL)\n"
        "SOURCE = Source('slow-note', 'Slow note', claims=(\n"
        "    Claim('slow-note', '1', 'slow', Kind.NUMERIC, 's', _check,\n"
        "          Status.HOLDS, slow=True),))\n",
        encoding="utf-8",
    )
    arguments = ["verify", "--file", str(source), "--claim", "slow-note:1:slow"]
    arguments += ["--quick", "--cache-dir", str(tmp_path / "cache")]
    assert cli.main(arguments + (["--plan"] if plan_only else [])) == 2
    assert "--claim slow-note:1:slow: slow, left out" in capsys.readouterr().err
