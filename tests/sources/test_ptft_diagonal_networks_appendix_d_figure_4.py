"""ptft-diagonal-networks Fig. 4b: PT+FT against STL by shared features."""

from __future__ import annotations

import numpy as np
import pytest

from implicit_bias.claims.engine import Basis, Reading, Status
from implicit_bias.sources.ptft_diagonal_networks import CLAIMS, appendix_d_figure_4
from implicit_bias.validation.relu_feature_overlap import FeatureOverlap

SETUP = appendix_d_figure_4.SETUP
#: Per-seed noise of the made-up errors, varying with n and the overlap.
NOISE = np.array([0.002, -0.002, 0.001, -0.001, 0.0015, -0.0015])


def _result(gaps: list[float], loss: float = 1e-6) -> FeatureOverlap:
    """STL error 0.1 everywhere, PT+FT 0.1 - gap at each overlap (0, 20, 40)."""
    shape = (len(SETUP.overlaps), len(SETUP.sample_sizes), SETUP.seeds)
    stl = np.full(shape, 0.1)
    ptft = np.stack(
        [
            np.stack([0.1 - gap + (1 + j) * NOISE for j in range(shape[1])])
            for gap in gaps
        ]
    )
    return FeatureOverlap(
        SETUP,
        stl,
        ptft,
        np.full(shape, loss),
        np.full(shape, loss),
        np.full(SETUP.seeds, 1e-6),
        np.zeros((SETUP.seeds, 40, 16)),
        np.zeros((*shape[:1], SETUP.seeds, 40, 16)),
    )


@pytest.mark.parametrize(
    ("gaps", "loss", "status"),
    [
        ([0.05, 0.05, 0.05], 1e-6, Status.HOLDS),
        # No benefit without a shared feature: not judged, the text says nothing.
        ([-0.05, 0.05, 0.05], 1e-6, Status.HOLDS),
        # STL better at 20/40 shared features.
        ([0.05, -0.05, 0.05], 1e-6, Status.FAILS),
        ([0.05, -0.05, 0.05], 0.5, Status.INCONCLUSIVE),
        ([0.05, 0.0, 0.05], 1e-6, Status.INCONCLUSIVE),
    ],
)
def test_the_claim_decides_the_shared_overlaps_only(
    monkeypatch: pytest.MonkeyPatch, gaps: list[float], loss: float, status: Status
) -> None:
    result = _result(gaps, loss)
    monkeypatch.setattr(appendix_d_figure_4, "feature_overlap", lambda setup: result)
    verdict = appendix_d_figure_4._check_ptft_beats_stl_with_overlap()
    assert verdict.status == status
    assert verdict.basis == Basis.STATISTICAL
    assert "0/40 shared" in verdict.detail


def test_the_claim_is_registered_under_fig_4_as_slow() -> None:
    (claim,) = [c for c in CLAIMS if c.equation == "fig-4"]
    assert claim.label == "ptft-beats-stl-with-overlap"
    assert claim.slow
    assert claim.reading == Reading.PROSE
    assert claim.expected == Status.HOLDS
    assert SETUP.teacher_units == 40 and SETUP.aux_samples == 8192
    estimate = claim.cost()  # type: ignore[misc]
    assert estimate.runs == 3
