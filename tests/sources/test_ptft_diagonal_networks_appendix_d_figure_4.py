"""ptft-diagonal-networks Fig. 4b: PT+FT against STL by shared features."""

from __future__ import annotations

import numpy as np
import pytest

from implicit_bias.claims.engine import Basis, Reading, Status
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.sources.ptft_diagonal_networks import (
    CLAIMS,
    appendix_d_figure_4,
    appendix_e2,
)
from implicit_bias.validation.relu_feature_overlap import FeatureOverlap

SETUP = appendix_d_figure_4.SETUP
#: Per-seed noise of the made-up errors, varying with n and the overlap.
NOISE = np.array([0.002, -0.002, 0.001, -0.001, 0.0015, -0.0015])


def _result(
    gaps: list[float], loss: float = 1e-6, pretraining: float = 1e-6
) -> FeatureOverlap:
    """STL error 0.1 everywhere, PT+FT 0.1 - gap at each overlap (0, 20, 40)."""
    shape = (len(SETUP.overlaps), len(SETUP.sample_sizes), SETUP.seeds)
    stl = np.full(shape, 0.1)
    ptft = np.stack(
        [
            np.stack([0.1 - gap + (1 + j) * (1 + i) * NOISE for j in range(shape[1])])
            for i, gap in enumerate(gaps)
        ]
    )
    return FeatureOverlap(
        SETUP,
        stl,
        ptft,
        np.full(shape, 1e-6),
        np.full(shape, loss),
        np.full(SETUP.seeds, pretraining),
        np.zeros((SETUP.seeds, 40, 16)),
        np.zeros((*shape[:1], SETUP.seeds, 40, 16)),
        np.zeros((SETUP.seeds, 1, 16)),
    )


@pytest.mark.parametrize(
    ("gaps", "loss", "status"),
    [
        ([0.05, 0.05, 0.05], 1e-6, Status.HOLDS),
        # No benefit without a shared feature: not judged, the text says nothing.
        ([-0.05, 0.05, 0.05], 1e-6, Status.HOLDS),
        # STL better everywhere shared: the tendency reversed.
        ([0.05, -0.05, -0.05], 1e-6, Status.FAILS),
        ([0.05, -0.05, -0.05], 0.5, Status.INCONCLUSIVE),
        # Reversed at 20/40 only: "tend to" is not refuted by one setting.
        ([0.05, -0.05, 0.05], 1e-6, Status.INCONCLUSIVE),
        ([0.05, 0.05, -0.05], 1e-6, Status.INCONCLUSIVE),
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


@pytest.mark.parametrize(
    ("gaps", "status"),
    [
        ([0.01, 0.03, 0.05], Status.HOLDS),
        ([0.05, 0.03, 0.01], Status.FAILS),
        ([0.05, 0.0, 0.05], Status.INCONCLUSIVE),
    ],
)
def test_the_growth_claim_compares_all_shared_with_none(
    monkeypatch: pytest.MonkeyPatch, gaps: list[float], status: Status
) -> None:
    result = _result(gaps)
    monkeypatch.setattr(appendix_d_figure_4, "feature_overlap", lambda setup: result)
    verdict = appendix_d_figure_4._check_benefit_grows_with_overlap()
    assert verdict.status == status


@pytest.mark.parametrize(
    "losses", [{"loss": 0.5}, {"pretraining": 0.5}], ids=["ptft", "pretraining"]
)
def test_unconverged_runs_refute_nothing(
    monkeypatch: pytest.MonkeyPatch, losses: dict[str, float]
) -> None:
    result = _result([0.05, -0.05, -0.05], **losses)
    monkeypatch.setattr(appendix_d_figure_4, "feature_overlap", lambda setup: result)
    verdict = appendix_d_figure_4._check_ptft_beats_stl_with_overlap()
    assert verdict.status == Status.INCONCLUSIVE


def test_no_setting_to_judge_is_an_error() -> None:
    with pytest.raises(InvalidArgumentError, match="parts"):
        appendix_d_figure_4._tends([], "nothing")
    with pytest.raises(InvalidArgumentError, match="parts"):
        appendix_e2.all_hold([], "nothing")


def test_a_growth_at_one_n_only_is_no_refutation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    result = _result([0.05, 0.03, 0.01])
    # At the second n the gap grows with the overlap instead.
    gap = np.array(result.ptft_error)
    gap[0, 1] = gap[2, 1] + 0.04 + NOISE
    changed = FeatureOverlap(
        *(
            gap if name == "ptft_error" else value
            for name, value in vars(result).items()
        )
    )
    monkeypatch.setattr(appendix_d_figure_4, "feature_overlap", lambda setup: changed)
    verdict = appendix_d_figure_4._check_benefit_grows_with_overlap()
    assert verdict.status == Status.INCONCLUSIVE


def test_the_claims_are_registered_under_fig_4_as_slow() -> None:
    claims = {c.label: c for c in CLAIMS if c.equation == "fig-4b"}
    assert set(claims) == {
        "ptft-beats-stl-with-overlap",
        "ptft-benefit-grows-with-overlap",
    }
    assert all(c.slow for c in claims.values())
    assert claims["ptft-beats-stl-with-overlap"].reading == Reading.PROSE
    assert claims["ptft-beats-stl-with-overlap"].expected == Status.HOLDS
    assert SETUP.teacher_units == 40
    assert SETUP.aux_samples == 8192
    estimate = claims["ptft-beats-stl-with-overlap"].cost()  # type: ignore[misc]
    assert estimate.runs == 3
