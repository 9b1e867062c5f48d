"""Cost models, paper configurations and power calculations of features-are-fate."""

from __future__ import annotations

import dataclasses
import inspect
import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from implicit_bias.claims.engine import Claim, Kind, Verdict
from implicit_bias.claims.profiles import CostEstimate, PowerCalculation
from implicit_bias.numerics import transfer_asymptotics as numerics
from implicit_bias.numerics.transfer_asymptotics import ridge_transfer_risk_finite
from implicit_bias.sources.features_are_fate import (
    CLAIMS,
    _network_states,
    appendix_b2_bounds,
    appendix_b3_alignment,
    appendix_b7,
    figures_1_3,
    finetuning,
    linear_transfer,
    random_matrix,
    section_3_monte_carlo,
    section_4,
)
from implicit_bias.sources.features_are_fate._costs import (
    ENDPOINT_STEPS,
    SLICE_STEPS,
    EndpointRuns,
    FinetuneRuns,
    MonteCarloDraws,
    SliceRuns,
    StudentRun,
    whole_run_seconds,
)
from implicit_bias.numerics import transfer_endpoints as endpoints
from implicit_bias.numerics.relu_kernels import relu_rkhs_projection
from implicit_bias.validation import deep_linear_networks as networks
from implicit_bias.validation.relu_kernels import (
    ablation_setup,
    kernel_condensation,
    linear_transfer_errors,
)
from implicit_bias.validation.transfer_experiments import (
    endpoint_errors,
    endpoint_risks,
    transferability_slices,
    transferability_surface,
)

SIMULATIONS = [c for c in CLAIMS if c.kind == Kind.SIMULATION]
#: The claims that decide on a mean over draws (target sets, teachers) in
#: standard errors. The Monte-Carlo integrals over Gaussian inputs against a
#: closed form (sec-4 exact-population-loss, (152)-(153), (157), (158)-(159))
#: resolve no effect the source reports, and are not in it.
STATISTICAL = {
    "features-are-fate:10:monte-carlo",
    "features-are-fate:12:monte-carlo",
    "features-are-fate:13:gd-slices",
    "features-are-fate:13:surface-monte-carlo",
    "features-are-fate:15:monte-carlo",
    "features-are-fate:16:monte-carlo",
    "features-are-fate:16:monte-carlo-corrected",
    "features-are-fate:17:gd-slices",
    "features-are-fate:17:surface-monte-carlo",
    "features-are-fate:21:irreducible-error",
    "features-are-fate:21:increases-with-mu",
    "features-are-fate:95:finite-scratch-risk",
    "features-are-fate:120:linear-transfer-exact",
    "features-are-fate:128:monte-carlo",
    "features-are-fate:142:excess-risk-monte-carlo",
    "features-are-fate:143-144:orthogonal-term",
}


def _finite(estimate: CostEstimate) -> None:
    assert math.isfinite(estimate.seconds)
    assert estimate.seconds > 0
    assert estimate.step_seconds > 0
    assert estimate.seconds == pytest.approx(
        estimate.runs * estimate.steps * estimate.step_seconds
    )


@pytest.mark.parametrize("claim", SIMULATIONS, ids=lambda c: c.id)
def test_every_simulation_claim_has_a_cost(claim: Claim) -> None:
    assert claim.cost is not None


def test_the_statistical_claims_are_simulations_of_this_source() -> None:
    assert {c.id for c in SIMULATIONS} >= STATISTICAL


@pytest.mark.parametrize(
    "claim", [c for c in SIMULATIONS if c.id in STATISTICAL], ids=lambda c: c.id
)
def test_statistical_claims_run_at_their_power_calculation(claim: Claim) -> None:
    configuration = claim.paper
    assert configuration is not None
    assert configuration.power is not None
    power = configuration.power
    assert power.z == pytest.approx(section_4._Z_MAX if claim.equation == "21" else 4.0)
    # The draws (or teachers) the configuration runs, as its description says.
    sized = re.search(r"(\d+) (draws|teachers)", configuration.description)
    assert sized is not None, configuration.description
    assert int(sized.group(1)) >= power.seeds


def test_endpoint_runs_match_endpoint_errors() -> None:
    defaults = inspect.signature(endpoint_errors).parameters
    runs = EndpointRuns()
    for name in ("alphas", "dimension", "samples", "draws"):
        assert getattr(runs, name) == defaults[name].default
    for depths in ((2, 3), (3,)):
        estimate = EndpointRuns(depths=depths).cost()
        _finite(estimate)
        assert estimate.runs == len(depths) * len(runs.alphas) * 2
        assert estimate.steps == ENDPOINT_STEPS


def test_slice_runs_cost_the_grid() -> None:
    for runs in (SliceRuns(), SliceRuns(gammas=(0.5,), dimension=30, draws=4)):
        estimate = runs.cost()
        _finite(estimate)
        assert estimate.runs == len(runs.thetas) * len(runs.gammas) * 3
        assert estimate.steps == SLICE_STEPS
    # The per-step cost is linear in the batch of draws.
    few, many = SliceRuns(draws=2).cost(), SliceRuns(draws=64).cost()
    assert many.step_seconds > few.step_seconds


def test_monte_carlo_draws_time_a_slice_of_the_draws() -> None:
    calls: list[int] = []

    def sample(count: int) -> None:
        calls.append(count)

    estimate = MonteCarloDraws(sample, 1000, points=7, timed=10).cost()
    assert (estimate.runs, estimate.steps) == (7, 1000)
    assert set(calls) == {10}
    small = MonteCarloDraws(sample, 3, timed=10).cost()
    assert small.steps == 3
    assert calls[-1] == 3


def test_student_run_matches_kernel_condensation() -> None:
    defaults = inspect.signature(kernel_condensation).parameters
    run = StudentRun()
    for name in ("dimension", "teacher_units", "width", "steps", "learning_rate"):
        assert getattr(run, name) == defaults[name].default
    assert run.seeds == (defaults["seed"].default,)
    estimate = run.cost()
    _finite(estimate)
    assert (estimate.runs, estimate.steps) == (len(run.seeds), run.steps)
    # The paper's size: the same flow time as App. D.2's 1e5 steps of 0.01 m.
    paper = section_4._PAPER_STUDENT
    assert (paper.dimension, paper.width, paper.teacher_units) == (100, 1000, 100)
    assert paper.steps * paper.learning_rate == pytest.approx(1e5 * 0.01)


def test_finetune_runs_scale_their_steps_with_the_rate() -> None:
    runs = FinetuneRuns((0.04, 0.02, 0.01), samples=5, dimension=12)
    estimate = runs.cost()
    _finite(estimate)
    assert estimate.runs == 3
    assert estimate.steps == round(np.mean([44.04 / e for e in runs.step_sizes]))


def test_whole_run_seconds_times_one_run_after_a_warm_up() -> None:
    calls: list[int] = []

    def run() -> None:
        calls.append(sum(range(10**5)))

    assert whole_run_seconds(run) > 0
    assert len(calls) == 2


def _counted_steps(
    monkeypatch: pytest.MonkeyPatch, check: Callable[[], Verdict]
) -> list[int]:
    """The steps of each pretraining run ``check()`` makes."""
    taken: list[int] = []
    pretrain = networks.pretrain

    def counted(*args: Any, **kwargs: Any) -> networks.DeepLinearResult:
        result = pretrain(*args, **kwargs)
        taken.append(int(result.steps.sum()))
        return result

    with monkeypatch.context() as patched:
        patched.setattr(networks, "pretrain", counted)
        assert check().status == "holds"
    return taken


def test_decay_bound_cost_counts_the_steps_its_check_takes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    estimate = appendix_b2_bounds._decay_bound_cost()
    _finite(estimate)
    taken = _counted_steps(monkeypatch, appendix_b2_bounds._check_decay_bound)
    # A run per depth and step size, of _CHECKPOINTS calls each.
    assert estimate.runs * appendix_b2_bounds._CHECKPOINTS == len(taken)
    assert estimate.runs * estimate.steps == sum(taken)


def test_alignment_limit_cost_counts_the_runs_its_check_makes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    estimate = appendix_b3_alignment._alignment_limit_cost()
    _finite(estimate)
    _network_states.endpoint_states.cache_clear()
    taken = _counted_steps(monkeypatch, appendix_b3_alignment._check_alignment_limit)
    assert (
        estimate.runs
        == len(taken)
        == (_network_states.ENDPOINT_RUNS * len(_network_states.ENDPOINT_ALPHAS))
    )
    # Steps read off the runs at the middle alpha: close to the mean of all.
    assert estimate.steps == pytest.approx(np.mean(taken), rel=0.1)


def test_paper_configurations_cost_their_sizes() -> None:
    for kind, runs in figures_1_3.PAPER_SLICES.items():
        assert runs.dimension == 500
        assert runs.draws >= 20
        claim = next(
            c
            for c in figures_1_3.CLAIMS
            if c.id.endswith("gd-slices")
            and ((c.equation == "13") == (kind == "linear"))
        )
        assert claim.paper is not None
        assert claim.paper.cost().runs == runs.cost().runs
    scratch = next(c for c in random_matrix.CLAIMS if c.kind == Kind.SIMULATION)
    assert scratch.paper is not None
    assert scratch.paper.cost().steps == random_matrix.SCRATCH_PAPER_DRAWS


# --- the pilots' standard deviations (each pilot is the claim's own draws)


def _sd(values: np.ndarray) -> float:
    return float(np.std(values, ddof=1))


def _recorded(power: PowerCalculation, measured: float) -> None:
    # Recorded to three significant figures.
    assert power.pilot_sd == pytest.approx(measured, rel=6e-3)


def test_pilot_sds_of_the_closed_form_draws() -> None:
    risks = endpoint_risks(90, 60, 0.4, 0.5, draws=300, seed=3)
    _recorded(section_3_monte_carlo.POWER_SCRATCH, _sd(risks.scratch))
    risks = endpoint_risks(12, 30, np.pi / 8, 0.2, draws=2000, seed=4)
    _recorded(section_3_monte_carlo.POWER_LINEAR_RISK, _sd(risks.linear))
    risks = endpoint_risks(40, 20, np.pi / 8, 0.2, draws=600, seed=6, ridges=(0.6,))
    _recorded(section_3_monte_carlo.POWER_RIDGE, _sd(risks.ridge[0]))
    risks = endpoint_risks(60, 120, 3 * np.pi / 8, 1.0, draws=300, seed=7)
    _recorded(
        section_3_monte_carlo.POWER_FINETUNE_RISK, _sd(risks.finetune - risks.scratch)
    )
    draws = numerics.scratch_risk_samples(10, 40, 0.5, draws=4000, seed=100)
    _recorded(random_matrix.SCRATCH_POWER, _sd(draws))
    draws = numerics.ridge_transfer_risk_samples(
        6, 10, 0.0, 0.7, 0.4, draws=4000, seed=200
    )
    _recorded(linear_transfer.LINEAR_POWER, _sd(draws))
    draws = numerics.ridge_transfer_risk_samples(
        10, 15, 0.3, 0.7, 0.4, draws=4000, seed=300
    )
    _recorded(appendix_b7.RIDGE_POWER, _sd(draws))
    effect = float(ridge_transfer_risk_finite(10, 0.3, 0.7, 0.4)) - float(
        ridge_transfer_risk_finite(10, 0.0, 0.7, 0.4)
    )
    assert appendix_b7.RIDGE_POWER.effect == pytest.approx(effect, rel=6e-3)


def test_pilot_sds_of_the_finetuning_draws() -> None:
    rng = np.random.default_rng(17)
    source, target = np.eye(100)[0], np.cos(np.pi / 4) * np.eye(100)[0]
    target[1] = np.sin(np.pi / 4)
    excess = []
    for _ in range(150):
        x = rng.standard_normal((50, 100))
        y = x @ target + rng.standard_normal(50)
        tuned = endpoints.finetune_endpoint(x, y, source)
        scratch = np.linalg.pinv(x) @ y
        excess.append(np.sum((tuned - target) ** 2) - np.sum((scratch - target) ** 2))
    _recorded(finetuning.EXCESS_POWER, _sd(np.array(excess)))
    rng = np.random.default_rng(11)
    x = rng.standard_normal((4000, 6, 15))
    frozen = np.eye(15)[0] - (np.linalg.pinv(x) @ x)[..., 0]
    _recorded(finetuning.ORTHOGONAL_POWER, _sd((frozen**2).sum(axis=-1)))


def test_pilot_sd_of_the_surface() -> None:
    thetas = tuple(np.linspace(0.0, np.pi / 2, 5))
    gammas = (0.2, 0.4, 0.6, 0.8, 1.25, 1.5, 2.0)
    surface = transferability_surface(
        thetas, gammas, dimension=80, draws=150, sigma=0.2, seed=8
    )
    _recorded(figures_1_3.POWER_SURFACE["linear"], _sd(surface.linear[1, 4]))
    _recorded(figures_1_3.POWER_SURFACE["finetune"], _sd(surface.finetune[3, 3]))


def test_pilot_sds_of_the_relu_draws() -> None:
    rng = np.random.default_rng(40)
    fractions = (0.0, 0.2, 0.4, 0.6, 0.8)
    # The check's own draws: both readouts from one generator, in its order.
    section_4._ablation_values(rng, "gaussian", 20, fractions)
    ones, _ = section_4._ablation_values(rng, "ones", 20, fractions)
    steps = np.diff(ones, axis=0)
    _recorded(section_4.ABLATION_POWER, _sd(steps[-1]))
    rng = np.random.default_rng(21)
    setup = ablation_setup(10, 10, 0.3, rng)
    projection = relu_rkhs_projection(
        setup.source_weights, setup.teacher_weights, setup.teacher_readout
    )
    errors = linear_transfer_errors(
        setup.source_weights,
        setup.teacher_weights,
        setup.teacher_readout,
        (100, 400, 1600),
        300,
        rng,
    )
    excess = errors - projection.outside
    paired = math.hypot(_sd(excess[1]), _sd(excess[2]))
    assert section_4.IRREDUCIBLE_POWER.pilot_sd == pytest.approx(paired, rel=0.02)
    effect = excess[1].mean() - excess[2].mean()
    assert section_4.IRREDUCIBLE_POWER.effect == pytest.approx(effect, rel=0.02)


@pytest.mark.slow
def test_pilot_sds_of_the_slices() -> None:
    pilot = figures_1_3.SLICES_PILOT
    slices = transferability_slices(
        pilot.thetas,
        pilot.gammas,
        dimension=pilot.dimension,
        draws=pilot.draws,
        sigma=pilot.sigma,
        seed=pilot.seed,
    )
    _recorded(figures_1_3.SLICES_POWER_LINEAR, _sd(slices.linear_transferability[1, 1]))
    _recorded(
        figures_1_3.SLICES_POWER_FINETUNE, _sd(slices.finetune_transferability[2, 1])
    )


def test_a_kept_measurement_is_kept_apart_for_rough_and_full_timings() -> None:
    # A rough figure taken for verify's first line must not serve a later
    # full plan in the same process (a notebook, a test session).
    from implicit_bias.claims.profiles import plan
    from implicit_bias.sources.features_are_fate import _costs

    def cost() -> CostEstimate:
        return CostEstimate.of_training(1, 1, _costs._deep_linear_step(2, 4, 3))

    probe = dataclasses.replace(CLAIMS[0], cost=cost, slow=False)
    _costs._measured_deep_linear_step.cache_clear()
    plan([probe], "default", rough=True)
    plan([probe], "default")
    info = _costs._measured_deep_linear_step.cache_info()
    assert (info.misses, info.hits, info.currsize) == (2, 0, 2)
    plan([probe], "default")
    assert _costs._measured_deep_linear_step.cache_info().hits == 1
