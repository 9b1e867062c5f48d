"""Cost models, power calculations and paper sizes of adaptive-tangent-features."""

from __future__ import annotations

import math

import pytest

from implicit_bias.claims.engine import Claim, Kind, Reason, Status
from implicit_bias.claims.profiles import CostEstimate, Profile, claim_for_profile
from implicit_bias.sources.adaptive_tangent_features import SOURCE
from implicit_bias.sources.adaptive_tangent_features import (
    appendix_a3_proofs,
    appendix_b_mnist,
    figure_1,
    figure_3,
    framework,
    network_structure,
    structureless,
)
from implicit_bias.validation.tangent_features import DEFAULT_MAX_ITERATIONS

SIMULATIONS = [claim for claim in SOURCE.claims if claim.kind == Kind.SIMULATION]
BY_LABEL = {claim.id.split(":", 1)[1]: claim for claim in SIMULATIONS}

#: The claims that decide on a mean over seeds in standard errors (the Figure 1
#: study), with the power calculation each must carry.
STATISTICAL = {
    "sec-3.1:figure-1-alignment": figure_1._FIGURE_ONE_POWER,
    "sec-3.1:figure-1-alignment-full": figure_1._FIGURE_ONE_POWER,
    "sec-3.1:kernel-alignment": figure_1._ALIGNMENT_POWER,
    "19:readout-carries-change": network_structure._READOUT_POWER,
    "19:hidden-layers-carry-change": network_structure._HIDDEN_POWER,
}

#: (runs, steps) of each claim's own check, from the configurations it runs.
_STUDY_STEPS = appendix_b_mnist._STUDY_MAX_STEPS
EXPECTED_SIZES = {
    "2:path-average-identity": (1, framework._PATH_MAX_STEPS),
    "8:direct-minimum": (
        len(structureless._relaxed_problems())
        * len(structureless._PENALTIES)
        * len(structureless._VALUE_STARTS),
        structureless._VALUE_MAX_ITERATIONS,
    ),
    "8:direct-minimizer": (
        len(structureless._relaxed_problems()),
        DEFAULT_MAX_ITERATIONS,
    ),
    "9:direct-adapted-kernel": (
        len(structureless._relaxed_problems()),
        DEFAULT_MAX_ITERATIONS,
    ),
    "sec-3.1:figure-1-alignment": (2 * len(appendix_b_mnist.QUICK_SEEDS), _STUDY_STEPS),
    "sec-3.1:kernel-alignment": (2 * len(appendix_b_mnist.QUICK_SEEDS), _STUDY_STEPS),
    "sec-3.1:figure-1-alignment-full": (
        2 * len(appendix_b_mnist.FULL_SEEDS),
        _STUDY_STEPS,
    ),
    "19:readout-carries-change": (2 * len(appendix_b_mnist.QUICK_SEEDS), _STUDY_STEPS),
    "19:hidden-layers-carry-change": (
        2 * len(appendix_b_mnist.QUICK_SEEDS),
        _STUDY_STEPS,
    ),
    "fig-3:difficult-points": (2 * len(figure_3.FIGURE_3_SEEDS), _STUDY_STEPS),
    "27-29:direct-minimum": (
        len(appendix_a3_proofs._two_sided_cases())
        * len(appendix_a3_proofs._LEMMA_FIVE_SEEDS),
        DEFAULT_MAX_ITERATIONS,
    ),
    "28:shared-singular-vectors": (
        len(appendix_a3_proofs._two_sided_cases()),
        DEFAULT_MAX_ITERATIONS,
    ),
}


def _assert_sound(estimate: CostEstimate, runs: int, steps: int) -> None:
    assert (estimate.runs, estimate.steps) == (runs, steps)
    assert math.isfinite(estimate.seconds)
    assert estimate.step_seconds > 0.0
    # The training term is part of the estimate, the fixed costs come on top.
    assert estimate.seconds >= runs * steps * estimate.step_seconds
    assert estimate.detail


def test_every_simulation_claim_is_sized() -> None:
    assert set(BY_LABEL) == set(EXPECTED_SIZES)
    for claim in SIMULATIONS:
        assert claim.cost is not None, claim.id


@pytest.mark.parametrize("label", sorted(EXPECTED_SIZES))
def test_cost_model_counts_the_configuration(label: str) -> None:
    claim = BY_LABEL[label]
    assert claim.cost is not None
    _assert_sound(claim.cost(), *EXPECTED_SIZES[label])


@pytest.mark.parametrize("label", sorted(STATISTICAL))
def test_statistical_claims_have_a_powered_paper_configuration(label: str) -> None:
    claim = BY_LABEL[label]
    configuration = claim.paper
    assert configuration is not None
    assert configuration.power is STATISTICAL[label]
    assert configuration.power.z == appendix_b_mnist.SIGNIFICANCE
    seeds = configuration.power.seeds
    assert f"{seeds} seeds" in configuration.description
    # The paper configuration runs the study at B.1's sizes with the seeds the
    # power calculation asks for (B.1 itself trains one network per task).
    _assert_sound(configuration.cost(), 2 * seeds, _STUDY_STEPS)
    assert "N = 500" in configuration.cost().detail
    paper = claim_for_profile(claim, Profile.PAPER)
    assert paper is not None
    assert paper.cost is configuration.cost
    assert paper.budget_seconds == configuration.budget_seconds


def test_power_calculations_follow_the_pilot() -> None:
    # ((3 + 1.2816) * 0.02852 / 0.05)^2 = 5.96; ((3 + 1.2816) * 0.03106 / 0.05)^2
    # = 7.07; the share effects of 1/2 need the minimum of 2.
    assert figure_1._FIGURE_ONE_POWER.seeds == 6
    assert figure_1._ALIGNMENT_POWER.seeds == 8
    assert network_structure._READOUT_POWER.seeds == 2
    assert network_structure._HIDDEN_POWER.seeds == 2


def test_only_simulations_of_the_study_get_a_paper_configuration() -> None:
    with_paper = {label for label, claim in BY_LABEL.items() if claim.paper}
    assert with_paper == set(STATISTICAL)


def test_unconverged_runs_decide_nothing_at_the_paper_size() -> None:
    # The quick configuration leaves runs short of relative loss 1e-3 (seeds 3
    # and 5 stop at the 4000-step cap), while its hidden-share check holds: in
    # the paper profile that holds must become inconclusive for the budget.
    plain = network_structure._check_hidden_share(
        appendix_b_mnist.QUICK_SEEDS, appendix_b_mnist.QUICK_STUDY
    )
    study, _ = appendix_b_mnist.figure_one_study(
        appendix_b_mnist.QUICK_SEEDS, appendix_b_mnist.QUICK_STUDY
    )
    assert not appendix_b_mnist.all_converged(study)
    assert plain.status == Status.HOLDS
    verdict = appendix_b_mnist._converged_only(
        network_structure._check_hidden_share,
        appendix_b_mnist.QUICK_SEEDS,
        appendix_b_mnist.QUICK_STUDY,
    )
    assert verdict.status == Status.INCONCLUSIVE
    assert verdict.reason == Reason.BUDGET
    assert "unconverged run decides nothing" in verdict.detail


def test_converged_runs_keep_the_verdict() -> None:
    # The sizes of the full configuration, whose runs all converge (its pilot),
    # with fewer path nodes.
    seeds = (0, 1)
    config = {**appendix_b_mnist.FULL_STUDY, "nodes": 5}
    study, _ = appendix_b_mnist.figure_one_study(seeds, config)
    assert appendix_b_mnist.all_converged(study)
    for check in (network_structure._check_hidden_share, figure_1._check_figure_one):
        plain = check(seeds, config)
        assert appendix_b_mnist._converged_only(check, seeds, config) == plain


@pytest.mark.slow
def test_pilot_standard_deviations_are_the_recorded_ones() -> None:
    # The pilot is figure-1-alignment-full's own configuration (~20 CPU s).
    measured = appendix_b_mnist._per_seed_sds(
        appendix_b_mnist.FULL_SEEDS, appendix_b_mnist.FULL_STUDY
    )
    for name, recorded in appendix_b_mnist.PILOT_SDS.items():
        # Recorded to 4 significant digits.
        assert measured[name] == pytest.approx(recorded, rel=2e-4), name


def test_claims_keep_their_default_checks() -> None:
    for claim in SIMULATIONS:
        chosen = claim_for_profile(claim, Profile.DEFAULT)
        assert isinstance(chosen, Claim)
        assert chosen.check is claim.check
