"""ptft-diagonal-networks Appendix E.2.1 (Fig. 6a-b): the cluster claims decide."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from implicit_bias.claims.engine import Basis, Kind, Reading, Reason, Status
from implicit_bias.sources.ptft_diagonal_networks import CLAIMS, appendix_e2
from implicit_bias.validation.relu_feature_clusters import (
    FeatureClusters,
    FeatureClusterSetup,
)

SETUP = FeatureClusterSetup(
    sample_sizes=(8, 16, 32),
    seeds=4,
    dimension=4,
    teacher_units=3,
    width=6,
    steps=100,
    max_clusters=4,
    restarts=2,
    test_samples=20,
)
LABELS = (
    "rich-about-six-features",
    "lazy-no-such-bias",
    "alignment-grows-with-samples",
    "highly-aligned",
    "less-sparse-in-between",
)


def _planted(
    inertia_k: np.ndarray,
    alignment: np.ndarray,
    *,
    teacher: float = 0.1,
    cosine: float = 0.5,
    loss: float = 1e-6,
) -> FeatureClusters:
    """A result with I_k = ``inertia_k`` (regimes, N, S) and the alignment given."""
    regimes, sizes, seeds = inertia_k.shape
    inertia = np.ones((regimes, sizes, seeds, SETUP.max_clusters))
    inertia[..., SETUP.teacher_units - 1] = inertia_k
    shape = (regimes, sizes, seeds)
    return FeatureClusters(
        SETUP,
        ("rich", "lazy")[:regimes],
        SETUP.sample_sizes[-sizes:],
        inertia,
        alignment,
        np.full(shape, 3.0),
        np.full(shape, loss),
        np.full(shape, 1.0),
        np.full(seeds, teacher),
        np.full(seeds, cosine),
    )


@pytest.fixture
def planted(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Make the claims read ``result`` instead of training."""
    monkeypatch.setattr(appendix_e2, "SETUP", SETUP)
    monkeypatch.setattr(appendix_e2, "_K", SETUP.teacher_units)
    monkeypatch.setattr(appendix_e2, "_LARGEST", SETUP.sample_sizes[-1])

    def use(result: FeatureClusters) -> None:
        monkeypatch.setattr(appendix_e2, "feature_clusters", lambda *a, **k: result)

    return use


NOISE = np.array([0.01, -0.01, 0.005, -0.005])
#: Independent noise at each of three n (rows), so that differences vary.
NOISES = np.stack([np.roll(NOISE, shift) * (1 + shift) for shift in range(3)])


def test_compare_decides_both_ways_and_needs_convergence_to_fail() -> None:
    up, down = 1.0 + NOISE, -1.0 + NOISE
    assert appendix_e2.compare(up, "D", True)[0].status == Status.HOLDS
    failed = appendix_e2.compare(down, "D", True)[0]
    assert failed.status == Status.FAILS
    assert failed.basis == Basis.STATISTICAL
    unconverged = appendix_e2.compare(down, "D", False)[0]
    assert unconverged.status == Status.INCONCLUSIVE
    assert "did not all converge" in unconverged.detail
    within = appendix_e2.compare(NOISE, "D", True)[0]
    assert within.status == Status.INCONCLUSIVE
    assert within.reason == Reason.STATISTICAL
    flat = appendix_e2.compare(np.full(4, 2.0), "D", True)[0]
    assert flat.status == Status.INCONCLUSIVE


def test_about_six_features_holds_below_and_fails_above_the_teacher(planted) -> None:  # type: ignore[no-untyped-def]
    alignment = np.ones((1, 1, 4))
    planted(_planted((0.01 + NOISE / 10)[None, None], alignment))
    assert appendix_e2._check_about_six_features().status == Status.HOLDS
    planted(_planted((0.3 + NOISE)[None, None], alignment))
    assert appendix_e2._check_about_six_features().status == Status.FAILS
    planted(_planted((0.3 + NOISE)[None, None], alignment, loss=0.1))
    assert appendix_e2._check_about_six_features().status == Status.INCONCLUSIVE


def test_lazy_claim_fails_when_some_n_is_below_the_teacher(planted) -> None:  # type: ignore[no-untyped-def]
    high = np.broadcast_to(0.4 + NOISE, (1, 3, 4)).copy()
    alignment = np.ones((1, 3, 4))
    planted(_planted(high, alignment))
    assert appendix_e2._check_lazy_no_bias().status == Status.HOLDS
    high[0, 1] = 0.01 + NOISE / 10
    planted(_planted(high, alignment))
    assert appendix_e2._check_lazy_no_bias().status == Status.FAILS


def test_alignment_claims_fail_on_a_decrease_and_a_low_score(planted) -> None:  # type: ignore[no-untyped-def]
    inertia = np.full((1, 3, 4), 0.1)
    rising = (np.array([0.3, 0.6, 0.9])[:, None] + NOISES)[None]
    planted(_planted(inertia, rising))
    assert appendix_e2._check_alignment_grows().status == Status.HOLDS
    planted(_planted(inertia, rising[:, ::-1].copy()))
    assert appendix_e2._check_alignment_grows().status == Status.FAILS
    planted(_planted(inertia[:, :1], rising[:, 2:], cosine=0.5))
    assert appendix_e2._check_highly_aligned().status == Status.HOLDS
    planted(_planted(inertia[:, :1], rising[:, :1], cosine=0.8))
    assert appendix_e2._check_highly_aligned().status == Status.FAILS


def test_intermediate_bump_holds_on_a_bump_and_fails_on_a_dip(planted) -> None:  # type: ignore[no-untyped-def]
    alignment = np.ones((1, 3, 4))
    bump = (np.array([0.05, 0.3, 0.05])[:, None] + NOISES)[None]
    planted(_planted(bump, alignment))
    assert appendix_e2._check_less_sparse_in_between().status == Status.HOLDS
    dip = (np.array([0.3, 0.05, 0.3])[:, None] + NOISES)[None]
    planted(_planted(dip, alignment))
    assert appendix_e2._check_less_sparse_in_between().status == Status.FAILS


def test_the_checks_run_on_a_small_experiment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(appendix_e2, "SETUP", SETUP)
    monkeypatch.setattr(appendix_e2, "_K", SETUP.teacher_units)
    monkeypatch.setattr(appendix_e2, "_LARGEST", SETUP.sample_sizes[-1])
    verdict = appendix_e2._check_about_six_features()
    assert "I_5(teacher) - I_6(rich)" in verdict.detail
    assert verdict.basis == Basis.STATISTICAL


def test_the_claims_are_registered_under_fig_6() -> None:
    claims = [c for c in CLAIMS if c.equation == "fig-6"]
    assert [c.label for c in claims] == list(LABELS)
    for claim in claims:
        assert claim.kind == Kind.SIMULATION
        assert claim.quote
        assert claim.regime
        assert claim.cost is not None
    readings = {c.label: c.reading for c in claims}
    assert readings["alignment-grows-with-samples"] == Reading.PROSE
    assert readings["rich-about-six-features"] == Reading.INTERPRETATION
    expected = {c.label: c.expected for c in claims}
    assert expected.pop("alignment-grows-with-samples") == Status.INCONCLUSIVE
    assert set(expected.values()) == {Status.HOLDS}


def test_cost_counts_the_networks_it_trains() -> None:
    setup = replace(SETUP, seeds=3)
    estimate = appendix_e2.cluster_cost(("rich", "lazy"), (8, 32), setup)()
    assert estimate.runs == 2 * 2 * 3
    assert estimate.steps == setup.steps
    assert estimate.seconds > 0
