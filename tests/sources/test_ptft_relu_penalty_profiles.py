"""The paper profile of ptft-relu-penalty's Fig. 1c claims: costs, power, pilots.

Every simulation claim has a cost model whose counts follow its setup, and a
paper configuration sized by a power calculation whose pilot figures are what
the pilot configuration gives.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import numpy as np
import pytest

from implicit_bias.claims.engine import Kind, Reason, Status
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.sources.ptft_relu_penalty import fig1c
from implicit_bias.sources.ptft_relu_penalty import fig1c_simulation as simulation
from implicit_bias.sources.ptft_relu_penalty.fig1c import (
    CLAIMS,
    PAPER_REVERSAL_SETUP,
    REPLICATE_SETUP,
    SETUP,
    SLOW_SETUP,
)
from implicit_bias.sources.ptft_relu_penalty.fig1c_simulation import (
    pilot_statistics,
    sample_efficiency_cost,
)
from implicit_bias.validation.relu_sample_efficiency import (
    SampleEfficiencySetup,
    sample_efficiency,
)

SIMULATIONS = [claim for claim in CLAIMS if claim.kind == Kind.SIMULATION]


def _runs(setup: SampleEfficiencySetup) -> int:
    """Networks trained: pretraining S, then per n STL R S and PT+FT R M S."""
    r, m, s = len(setup.correlations), len(setup.magnitudes), setup.seeds
    return s + len(setup.sample_sizes) * (r * s + r * m * s)


@pytest.mark.parametrize(
    "setup",
    [
        replace(SETUP, correlations=(0.9,)),
        SETUP,
        replace(SLOW_SETUP, correlations=(1.0,)),
        replace(SETUP, seeds=3, finetune_steps=12_000),
        replace(PAPER_REVERSAL_SETUP, correlations=(0.9,)),
    ],
    ids=["default", "two-correlations", "slow", "long-finetuning", "paper"],
)
def test_cost_model_counts_the_runs_and_steps_of_its_setup(
    setup: SampleEfficiencySetup,
) -> None:
    estimate = sample_efficiency_cost(setup)
    finetune = setup.steps if setup.finetune_steps is None else setup.finetune_steps
    assert estimate.runs == _runs(setup)
    assert estimate.steps == max(setup.steps, finetune)
    assert math.isfinite(estimate.seconds)
    assert estimate.seconds > 0
    assert estimate.seconds == pytest.approx(
        estimate.runs * estimate.steps * estimate.step_seconds
    )


def test_longer_finetuning_costs_more_and_only_its_phase_grows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Made-up step costs, in the order the model measures its phases
    # (pretraining and STL, then PT+FT): the arithmetic, not the machine.
    fixed, finetuning = 3e-4, 5e-4

    # measure_step_seconds times calls of simulation._TIMED_STEPS trainer steps.
    phases = itertools.cycle(
        (fixed * simulation._TIMED_STEPS, finetuning * simulation._TIMED_STEPS)
    )
    monkeypatch.setattr(
        simulation, "measure_step_seconds", lambda step, **_: next(phases)
    )
    steps = SETUP.steps
    short = sample_efficiency_cost(replace(SETUP, correlations=(0.9,)))
    long = sample_efficiency_cost(
        replace(SETUP, correlations=(0.9,), finetune_steps=10 * steps)
    )
    assert short.seconds == pytest.approx((fixed + finetuning) * steps, rel=1e-12)
    assert long.seconds == pytest.approx(
        fixed * steps + finetuning * 10 * steps, rel=1e-12
    )


def test_every_simulation_claim_has_a_cost_and_a_powered_paper_configuration() -> None:
    assert len(SIMULATIONS) == 6
    for claim in SIMULATIONS:
        assert claim.cost is not None, claim.id
        assert claim.paper is not None, claim.id
        assert claim.paper.power is not None, claim.id
        assert claim.paper.cost is not None
        power = claim.paper.power
        assert power.z == fig1c.SIGNIFICANCE
        assert "Fig. 1c" in power.effect_quote


def test_paper_seeds_are_the_power_calculations() -> None:
    for setup, power in (
        (fig1c.PAPER_BENEFIT_SETUP, fig1c._BENEFIT_POWER),
        (fig1c.PAPER_REVERSAL_SETUP, fig1c._REVERSAL_POWER),
        (fig1c.PAPER_LARGEST_N_SETUP, fig1c._LARGEST_N_POWER),
    ):
        assert setup.seeds >= power.seeds
        assert setup.aux_samples == 1024
        assert setup.teacher_units == 6
        assert setup.finetune_steps == fig1c.PAPER_FINETUNE_STEPS
    # The signs: the benefit is a lower PT+FT error, the reversal a higher one.
    assert fig1c._BENEFIT_POWER.effect < 0 < fig1c._REVERSAL_POWER.effect


def test_paper_configuration_estimates_follow_its_setup() -> None:
    claim = next(c for c in SIMULATIONS if c.label == "reversal-at-rho-0.9")
    assert claim.paper is not None
    estimate = claim.paper.cost()
    assert estimate.runs == _runs(replace(PAPER_REVERSAL_SETUP, correlations=(0.9,)))
    assert estimate.steps == fig1c.PAPER_FINETUNE_STEPS


@pytest.mark.parametrize(
    ("setup", "rho", "largest_n", "recorded"),
    [
        (SETUP, 1.0, False, fig1c._BENEFIT_PILOT),
        (SETUP, 0.9, False, fig1c._REVERSAL_PILOT),
        (REPLICATE_SETUP, 0.9, True, fig1c._LARGEST_N_PILOT),
    ],
    ids=["benefit", "reversal", "largest-n"],
)
def test_recorded_pilot_figures_are_what_the_pilot_gives(
    setup: SampleEfficiencySetup,
    rho: float,
    largest_n: bool,
    recorded: tuple[float, float],
) -> None:
    sd, stl_error = pilot_statistics(setup, rho, 0.01, largest_n=largest_n)
    # Recorded to four significant figures.
    assert sd == pytest.approx(recorded[0], rel=1e-3)
    assert stl_error == pytest.approx(recorded[1], rel=1e-3)
    # m = 1 has the smaller sd, so m = 0.01 is the statistic that sizes the seeds.
    assert pilot_statistics(setup, rho, 1.0, largest_n=largest_n)[0] < sd


def test_finetune_steps_changes_ptft_only() -> None:
    tiny = SampleEfficiencySetup(
        correlations=(0.9,),
        sample_sizes=(8,),
        seeds=2,
        width=6,
        aux_samples=32,
        steps=50,
        test_samples=200,
    )
    base = sample_efficiency(tiny)
    same = sample_efficiency(replace(tiny, finetune_steps=tiny.steps))
    longer = sample_efficiency(replace(tiny, finetune_steps=4 * tiny.steps))
    np.testing.assert_array_equal(base.ptft_error, same.ptft_error)
    np.testing.assert_array_equal(base.stl_error, longer.stl_error)
    np.testing.assert_array_equal(base.pretraining_loss, longer.pretraining_loss)
    assert np.all(longer.ptft_train_loss < base.ptft_train_loss)


@pytest.mark.parametrize("bad", [0, -3, 2.5, True])
def test_finetune_steps_must_be_a_positive_count(bad: object) -> None:
    with pytest.raises(InvalidArgumentError, match="finetune_steps"):
        sample_efficiency(replace(SETUP, finetune_steps=bad))  # type: ignore[arg-type]


def test_paper_configurations_hold_only_on_converged_runs() -> None:
    unconverged = simulation.decide(True, False, False, "d", converge=True)
    assert unconverged.status == Status.INCONCLUSIVE
    assert unconverged.reason == Reason.STATISTICAL
    assert "did not converge" in unconverged.detail
    assert (
        simulation.decide(True, False, True, "d", converge=True).status == Status.HOLDS
    )
    # The default configurations decide at their stated budget, as before.
    assert simulation.decide(True, False, False, "d").status == Status.HOLDS
