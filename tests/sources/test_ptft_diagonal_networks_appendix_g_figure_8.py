"""ptft-diagonal-networks Fig. 8a: rich networks' lower participation ratio."""

from __future__ import annotations

import numpy as np
import pytest

from implicit_bias.claims.engine import Basis, Reading, Status
from implicit_bias.sources.ptft_diagonal_networks import CLAIMS, appendix_g_figure_8
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
