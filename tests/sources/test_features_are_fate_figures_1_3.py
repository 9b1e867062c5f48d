"""Every claim of features-are-fate's Figures 1 and 3 returns the verdict it expects."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import numpy as np
import pytest

from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Result,
    Status,
    Verdict,
    run_claims,
)
from implicit_bias.sources.features_are_fate import figures_1_3
from implicit_bias.sources.features_are_fate.figures_1_3 import CLAIMS
from implicit_bias.sources.features_are_fate._costs import SliceRuns
from implicit_bias.validation.transfer_experiments import (
    transferability_slices,
    transferability_surface,
)
from tests.claims.claim_checks import (
    assert_failures_are_refutations,
)


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return {r.claim.id: r for r in run_claims([c for c in CLAIMS if not c.slow])}


@pytest.mark.parametrize("claim", [c for c in CLAIMS if not c.slow], ids=lambda c: c.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.as_expected, (result.verdict.status, result.verdict.detail)


@pytest.mark.parametrize("claim", [c for c in CLAIMS if not c.slow], ids=lambda c: c.id)
def test_decided_verdicts_rest_on_runs(
    claim: Claim, results: dict[str, Result]
) -> None:
    verdict = results[claim.id].verdict
    if verdict.status != Status.INCONCLUSIVE:
        assert verdict.basis in (Basis.STATISTICAL, Basis.NUMERICAL), claim.id
    if verdict.status == Status.FAILS:
        assert verdict.counterexample, claim.id


def test_claims_are_figures_1_3_of_this_source() -> None:
    assert {c.source for c in CLAIMS} == {"features-are-fate"}
    assert {c.kind for c in CLAIMS} == {Kind.SIMULATION}
    assert len({c.id for c in CLAIMS}) == len(CLAIMS)


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)


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
    pairs = [(surface, direct_surface, name) for name in ("linear", "finetune")]
    pairs += [(slices, direct_slices, n) for n in ("scratch", "linear", "finetune")]
    for shared, direct, name in pairs:
        np.testing.assert_array_equal(getattr(shared, name), getattr(direct, name))
        assert not getattr(shared, name).flags.writeable
    assert figures_1_3._shared_surface(3) is surface
    assert figures_1_3._shared_slices(small) is slices
    figures_1_3._shared_surface.cache_clear()
    figures_1_3._shared_slices.cache_clear()


# Issue 20, "holds that could not fail": the comparisons with the n, d -> oo
# formulas (10), (13), (15), (17) allowed |finite - limit| with the limit taken
# from the formula under test, so a wrong formula widened its own tolerance.
# Each formula is shifted where the check reads it (its NumPy evaluator) and,
# for one branch only, where that evaluator is lambdified from the theory layer.
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


def _shifted(function: Callable[..., object], shift: float) -> Callable[..., object]:
    def shifted(*args: object, **kwargs: object) -> object:
        return function(*args, **kwargs) + shift  # type: ignore[operator]

    return shifted


@pytest.mark.parametrize("shift", [0.3, -0.3, 0.05, -0.05])
@pytest.mark.parametrize("label", sorted(_LIMIT_CHECKS))
def test_a_shifted_limit_formula_no_longer_holds(
    label: str, shift: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    name, check = _LIMIT_CHECKS[label]
    monkeypatch.setattr(figures_1_3, name, _shifted(getattr(figures_1_3, name), shift))
    verdict = check()
    assert verdict.status != Status.HOLDS, (label, shift, verdict.detail)


#: One branch of each formula's NumPy evaluator, as lambdified from the theory
#: expression (numerics.transfer_risks' lazy formulas).
_BRANCHES = [
    ("13:gd-slices", "_scratch_over"),
    ("13:gd-slices", "_scratch_under"),
    ("17:gd-slices", "_finetune_shift"),
]


@pytest.mark.parametrize(("label", "builder"), _BRANCHES)
def test_a_shifted_theory_branch_no_longer_holds(
    label: str, builder: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from implicit_bias.numerics import transfer_risks

    built = getattr(transfer_risks, builder)()
    monkeypatch.setattr(transfer_risks, builder, lambda: _shifted(built, 0.3))
    verdict = _LIMIT_CHECKS[label][1]()
    assert verdict.status != Status.HOLDS, (label, builder, verdict.detail)
