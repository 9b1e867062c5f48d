"""Every claim of features-are-fate's Figures 1 and 3 returns the verdict it expects."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from types import ModuleType
from typing import ClassVar

import numpy as np
import pytest

from implicit_bias.claims.engine import Verdict
from implicit_bias.sources.features_are_fate import figures_1_3
from implicit_bias.sources.features_are_fate.figures_1_3 import CLAIMS
from implicit_bias.sources.features_are_fate._costs import SliceRuns
from implicit_bias.validation.transfer_experiments import (
    transferability_slices,
    transferability_surface,
)
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from tests.claims.verdict_suites import ExpectedVerdicts, SimulationVerdicts
from tests.sources.transfer_limit_shifts import LimitFormulaShifts


class _Stop(Exception):
    """Raised by the stand-ins of the figures_1_3 the warm-up does not run."""


def test_the_surface_and_the_slices_have_exactly_their_readers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Which claims run transferability_surface / _slices, found by running each
    # check against stand-ins that record the call and stop it there.
    asked: list[str] = []

    def recorder(name: str) -> Callable[..., None]:
        def record(*args: object, **kwargs: object) -> None:
            asked.append(name)
            raise _Stop

        return record

    for name in ("transferability_slices", "transferability_surface"):
        monkeypatch.setattr(figures_1_3, name, recorder(name))
    shared = (
        figures_1_3._shared_surface,
        figures_1_3._shared_slices,
    )
    readers: dict[str, set[str]] = {
        "transferability_surface": set(),
        "transferability_slices": set(),
    }
    try:
        for claim in CLAIMS:
            if claim.slow:
                continue
            for cached in shared:
                cached.cache_clear()
            del asked[:]
            with contextlib.suppress(_Stop):
                claim.check()
            for name in asked:
                if name in readers:
                    readers[name].add(claim.id)
    finally:
        for cached in shared:
            cached.cache_clear()
    assert readers["transferability_surface"] == figures_1_3._SURFACE_READERS
    assert readers["transferability_slices"] == figures_1_3._SLICE_READERS


def test_the_warm_up_runs_the_surface_and_the_slices_for_two_readers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ran: list[str] = []

    def recorder(name: str) -> Callable[..., None]:
        def record(*args: object, **kwargs: object) -> None:
            ran.append(name)
            raise _Stop

        return record

    monkeypatch.setattr(figures_1_3, "transferability_surface", recorder("surface"))
    monkeypatch.setattr(figures_1_3, "transferability_slices", recorder("slices"))
    for readers in (figures_1_3._SURFACE_READERS, figures_1_3._SLICE_READERS):
        figures_1_3.warm_up(sorted(readers)[:1])
    assert ran == []
    for readers in (figures_1_3._SURFACE_READERS, figures_1_3._SLICE_READERS):
        with contextlib.suppress(_Stop):
            figures_1_3.warm_up(readers)
    assert ran == ["surface", "slices"]


def test_the_shared_runs_are_the_direct_ones_and_read_only() -> None:
    surface = figures_1_3._shared_surface(3)
    direct_surface = transferability_surface(
        figures_1_3._SURFACE_THETAS,
        figures_1_3._SURFACE_GAMMAS,
        dimension=figures_1_3._SURFACE_DIMENSION,
        draws=3,
        sigma=figures_1_3._SURFACE_SIGMA,
        seed=8,
    )
    small = SliceRuns(thetas=(0.4,), gammas=(0.5, 1.5), dimension=12, draws=2)
    slices = figures_1_3._shared_slices(small)
    direct_slices = transferability_slices(
        small.thetas,
        small.gammas,
        dimension=small.dimension,
        draws=small.draws,
        sigma=small.sigma,
        init_scale=small.init_scale,
        seed=small.seed,
    )
    pairs: list[tuple[object, object, str]] = [
        (surface, direct_surface, name) for name in ("linear", "finetune")
    ]
    pairs += [(slices, direct_slices, n) for n in ("scratch", "linear", "finetune")]
    for shared, direct, name in pairs:
        np.testing.assert_array_equal(getattr(shared, name), getattr(direct, name))
        assert not getattr(shared, name).flags.writeable
    assert figures_1_3._shared_surface(3) is surface
    assert figures_1_3._shared_slices(small) is slices
    figures_1_3._shared_surface.cache_clear()
    figures_1_3._shared_slices.cache_clear()


#: The checks of (13) and (17) against runs, by the evaluator each reads.
_LIMIT_CHECKS: dict[str, tuple[str, Callable[[], Verdict]]] = {
    "13:gd-slices": (
        "linear_transferability",
        lambda: figures_1_3._check_transferability_slices("linear"),
    ),
    "17:gd-slices": (
        "finetune_transferability",
        lambda: figures_1_3._check_transferability_slices("finetune"),
    ),
}


class TestClaims(ExpectedVerdicts, SimulationVerdicts, LimitFormulaShifts):
    claims = CLAIMS
    source_id = SOURCE_ID
    checked_module: ClassVar[ModuleType] = figures_1_3
    limit_checks = _LIMIT_CHECKS
    theory_branches = (
        ("13:gd-slices", "_scratch_over"),
        ("13:gd-slices", "_scratch_under"),
        ("17:gd-slices", "_finetune_shift"),
    )
