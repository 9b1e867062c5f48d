"""ptft-diagonal-networks Fig. 8a-c: PR before and after finetuning."""

from __future__ import annotations

import numpy as np
import pytest

from implicit_bias.claims.engine import Basis, Reading, Status
from implicit_bias.sources.ptft_diagonal_networks import CLAIMS, appendix_g_figure_8
from implicit_bias.validation.relu_feature_clusters import (
    FeatureClusters,
    FeatureClusterSetup,
)
from implicit_bias.validation.relu_nested_finetuning import NestedFinetuning

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
NOISE = np.array([[0.1, -0.1, 0.05, -0.05], [0.05, 0.1, -0.1, -0.05]])


def _result(rich: float, lazy: float, loss: float) -> FeatureClusters:
    # (regime, n, seed): two sizes, four seeds, noise varying by n.
    pr = np.stack([rich + NOISE, lazy - NOISE[::-1]])
    shape = pr.shape
    return FeatureClusters(
        SETUP,
        ("rich", "lazy"),
        SETUP.sample_sizes[:2],
        np.ones((*shape, SETUP.max_clusters)),
        np.ones(shape),
        pr,
        np.full(shape, loss),
        np.ones(shape),
        np.full(4, 0.1),
        np.full(4, 0.5),
    )


@pytest.mark.parametrize(
    ("rich", "lazy", "loss", "status"),
    [
        (3.0, 10.0, 1e-6, Status.HOLDS),
        (10.0, 3.0, 1e-6, Status.FAILS),
        (10.0, 3.0, 0.5, Status.INCONCLUSIVE),
        (5.0, 5.0, 1e-6, Status.INCONCLUSIVE),
    ],
)
def test_the_claim_decides_the_paired_pr_gap(
    monkeypatch: pytest.MonkeyPatch,
    rich: float,
    lazy: float,
    loss: float,
    status: Status,
) -> None:
    result = _result(rich, lazy, loss)
    monkeypatch.setattr(appendix_g_figure_8, "feature_clusters", lambda *a, **k: result)
    verdict = appendix_g_figure_8._check_rich_lower_pr()
    assert verdict.status == status
    assert verdict.basis == Basis.STATISTICAL


def test_the_claim_is_registered_under_fig_8a() -> None:
    (claim,) = [c for c in CLAIMS if c.equation == "fig-8a"]
    assert claim.label == "rich-lower-participation-ratio"
    assert claim.reading == Reading.PROSE
    assert claim.expected == Status.HOLDS
    estimate = claim.cost()  # type: ignore[misc]
    assert estimate.runs == 2 * 3 * 8


# Fig. 8b-c: results made up per seed (4 seeds), with spread, at s = 0.1, 1, 10.
SPREAD = np.array([0.002, -0.002, 0.001, -0.001])


def _finetuning(
    finetuned: tuple[float, float, float],
    ensd_ratio: tuple[float, float, float] = (1.0, 1.0, 1.0),
    loss: float = 1e-6,
) -> NestedFinetuning:
    pretrained = np.full(4, 5.0) + SPREAD
    pr = np.array([value + (2 + i) * SPREAD[::-1] for i, value in enumerate(finetuned)])
    shared = pr * (np.array(ensd_ratio)[:, None] + SPREAD)
    return NestedFinetuning(
        appendix_g_figure_8.FINETUNING,
        pretrained,
        pr,
        shared,
        np.full((3, 4), loss),
        np.full(4, 1e-6),
        np.zeros((4, 1, 10)),
        np.array([0.2, 0.2, 0.002]),
        np.zeros((3, 4, 32, 10)),
    )


def _verdict(
    monkeypatch: pytest.MonkeyPatch, label: str, result: NestedFinetuning
) -> Status:
    monkeypatch.setattr(appendix_g_figure_8, "nested_finetuning", lambda setup: result)
    (claim,) = [c for c in CLAIMS if c.label == label]
    verdict = claim.check()
    assert verdict.basis == Basis.STATISTICAL
    return verdict.status


@pytest.mark.parametrize(
    ("label", "finetuned", "status"),
    [
        # The paper's picture: 2 at s = 0.1, 4.5 at 1, 5 (no change) at 10.
        ("nested-regime-pr-decreases", (2.0, 4.5, 5.0), Status.HOLDS),
        ("rich-regime-pr-decreases", (2.0, 4.5, 5.0), Status.HOLDS),
        ("lazy-no-decrease", (2.0, 4.5, 5.0), Status.HOLDS),
        ("small-scaling-lower-pr", (2.0, 4.5, 5.0), Status.HOLDS),
        # PR rising after finetuning at s = 1 / at s = 0.1; each claim reads
        # its own rescaling.
        ("nested-regime-pr-decreases", (2.0, 5.5, 5.0), Status.FAILS),
        ("nested-regime-pr-decreases", (5.5, 4.5, 5.5), Status.HOLDS),
        ("rich-regime-pr-decreases", (5.5, 4.5, 5.0), Status.FAILS),
        ("rich-regime-pr-decreases", (2.0, 5.5, 5.5), Status.HOLDS),
        # The lazy decrease is the nested one: not "no decrease".
        ("lazy-no-decrease", (2.0, 4.5, 4.5), Status.FAILS),
        # A tenth of the nested one: at the margin, within noise.
        ("lazy-no-decrease", (2.0, 4.0, 4.9), Status.INCONCLUSIVE),
        # No nested decrease to contrast with: not judged, whatever s = 10 does.
        ("lazy-no-decrease", (2.0, 5.0, 3.0), Status.INCONCLUSIVE),
        ("lazy-no-decrease", (2.0, 5.5, 5.0), Status.INCONCLUSIVE),
        # Larger scaling, lower PR; s = 10 is not compared.
        ("small-scaling-lower-pr", (4.5, 2.0, 5.0), Status.FAILS),
        ("small-scaling-lower-pr", (2.0, 4.5, 1.0), Status.HOLDS),
    ],
)
def test_the_finetuning_claims_decide_the_paired_differences(
    monkeypatch: pytest.MonkeyPatch,
    label: str,
    finetuned: tuple[float, float, float],
    status: Status,
) -> None:
    assert _verdict(monkeypatch, label, _finetuning(finetuned)) == status


@pytest.mark.parametrize(
    ("label", "ratio", "loss", "status"),
    [
        ("ensd-matches-finetuned-pr", (1.0, 1.02, 0.98), 1e-6, Status.HOLDS),
        # A third of the finetuned dimensions not shared, at s = 1 or at 10.
        ("ensd-matches-finetuned-pr", (1.0, 0.7, 1.0), 1e-6, Status.FAILS),
        ("ensd-matches-finetuned-pr", (1.0, 1.0, 1.3), 1e-6, Status.FAILS),
        ("ensd-matches-finetuned-pr", (1.0, 0.7, 1.0), 0.5, Status.INCONCLUSIVE),
        # At the margin: within noise of a tenth.
        ("ensd-matches-finetuned-pr", (1.0, 0.9, 1.0), 1e-6, Status.INCONCLUSIVE),
        # s = 0.1 is the other claim's.
        ("ensd-matches-finetuned-pr", (0.7, 1.0, 1.0), 1e-6, Status.HOLDS),
        ("ensd-matches-finetuned-pr-rich", (0.7, 1.0, 1.0), 1e-6, Status.FAILS),
        ("ensd-matches-finetuned-pr-rich", (1.05, 0.7, 1.3), 1e-6, Status.HOLDS),
    ],
)
def test_ensd_against_finetuned_pr_is_decided_at_its_rescalings(
    monkeypatch: pytest.MonkeyPatch,
    label: str,
    ratio: tuple[float, float, float],
    loss: float,
    status: Status,
) -> None:
    result = _finetuning((2.0, 4.5, 5.0), ratio, loss)
    assert _verdict(monkeypatch, label, result) == status


def test_unconverged_finetuning_refutes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    result = _finetuning((2.0, 5.5, 5.0), loss=0.5)
    status = _verdict(monkeypatch, "nested-regime-pr-decreases", result)
    assert status == Status.INCONCLUSIVE


def test_unconverged_pretraining_refutes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = _finetuning((2.0, 5.5, 5.0))
    result = NestedFinetuning(
        *(
            np.full(4, 0.5) if name == "pretraining_loss" else value
            for name, value in vars(made).items()
        )
    )
    status = _verdict(monkeypatch, "nested-regime-pr-decreases", result)
    assert status == Status.INCONCLUSIVE


def test_the_finetuning_claims_are_registered_under_fig_8b_and_8c() -> None:
    claims = {c.label: c for c in CLAIMS if c.equation in ("fig-8b", "fig-8c")}
    assert set(claims) == {
        "nested-regime-pr-decreases",
        "rich-regime-pr-decreases",
        "lazy-no-decrease",
        "ensd-matches-finetuned-pr",
        "ensd-matches-finetuned-pr-rich",
        "small-scaling-lower-pr",
    }
    assert claims["nested-regime-pr-decreases"].reading == Reading.PROSE
    assert claims["rich-regime-pr-decreases"].reading == Reading.INTERPRETATION
    assert claims["ensd-matches-finetuned-pr-rich"].expected == Status.INCONCLUSIVE
    assert all(c.slow for c in claims.values())
    assert appendix_g_figure_8.FINETUNING.main_units == 1
    estimate = claims["lazy-no-decrease"].cost()  # type: ignore[misc]
    assert estimate.runs == 4
