"""Every simulation claim of features-are-fate returns the verdict it expects."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable

import numpy as np
import pytest
import sympy as sp

from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Result,
    Status,
    Verdict,
    run_claims,
)
from implicit_bias.sources.features_are_fate import notation, simulations
from implicit_bias.sources.features_are_fate.simulations import CLAIMS
from implicit_bias.sources.features_are_fate._costs import SliceRuns
from implicit_bias.theory import transfer_risks as tr
from implicit_bias.validation.transfer_experiments import (
    EndpointErrors,
    transferability_slices,
    transferability_surface,
)
from tests.claims.claim_checks import (
    assert_failures_are_refutations,
    assert_shift_detected,
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


def test_claims_are_simulations_of_this_source() -> None:
    assert {c.source for c in CLAIMS} == {"features-are-fate"}
    assert {c.kind for c in CLAIMS} == {Kind.SIMULATION}
    assert len({c.id for c in CLAIMS}) == len(CLAIMS)


@pytest.mark.parametrize(
    ("claim_id", "needles"),
    [
        ("16:monte-carlo", ["vs (16)", "sigma = 1.0"]),
        ("50:as-printed", ["observed order", "not 2"]),
        ("142:gd-as-printed", ["printed (142)", "corrected"]),
    ],
)
def test_failures_report_the_numbers(
    claim_id: str, needles: list[str], results: dict[str, Result]
) -> None:
    # The counterexample is written only when the check refutes the claim.
    counterexample = results[f"features-are-fate:{claim_id}"].verdict.counterexample
    assert counterexample is not None
    for needle in needles:
        assert needle in counterexample
    assert re.search(r"\d\.\d", counterexample)


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)


#: Cheap numeric claims whose decision goes through check_close.
_SHIFTED = ["12:monte-carlo"]


@pytest.mark.parametrize("label", _SHIFTED)
@pytest.mark.parametrize("factor", [5.0, -5.0])
def test_a_shift_of_five_tolerances_is_detected(label: str, factor: float) -> None:
    (claim,) = [c for c in CLAIMS if c.id.endswith(f":{label}")]
    assert_shift_detected(claim, factor)


class _Stop(Exception):
    """Raised by the stand-ins of the simulations the warm-up does not run."""


def test_the_warm_up_runs_exactly_the_endpoints_its_claims_share(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Which claims read endpoint_errors(depth), found by running each check
    # against a stand-in that records the depths asked for (its numbers are
    # made up: only what is read matters here, not the verdicts).
    asked: list[int] = []

    def record(depth: int) -> EndpointErrors:
        asked.append(depth)
        alphas = np.array([10**-1.5, 1e-2, 10**-2.5])
        names = ("scratch", "linear", "finetune", "printed", "rank-one", "first-layer")
        return EndpointErrors(alphas, {name: alphas.copy() for name in names}, depth)

    def stop(*args: object, **kwargs: object) -> None:
        raise _Stop

    monkeypatch.setattr(simulations, "endpoint_errors", record)
    # The Monte-Carlo claims' simulations are stopped where they start.
    for name in ("endpoint_risks", "transferability_slices", "transferability_surface"):
        monkeypatch.setattr(simulations, name, stop)
    readers: dict[int, set[str]] = {2: set(), 3: set()}
    simulations._shared_endpoint_errors.cache_clear()
    try:
        for claim in CLAIMS:
            if claim.slow:
                continue
            simulations._shared_endpoint_errors.cache_clear()
            del asked[:]
            with contextlib.suppress(_Stop):
                claim.check()
            for depth in asked:
                readers[depth].add(claim.id)
        assert {d: frozenset(ids) for d, ids in readers.items()} == (
            simulations._ENDPOINT_READERS
        )
        # Two readers or more: run once, shared; one alone computes it itself.
        simulations._shared_endpoint_errors.cache_clear()
        del asked[:]
        only_three = sorted(readers[3] - readers[2])
        simulations.warm_up(only_three[:1])
        assert asked == []
        simulations.warm_up(only_three[:2])
        assert asked == [3]
        claim = next(c for c in CLAIMS if c.id == only_three[0])
        claim.check()
        assert asked == [3]
    finally:
        simulations._shared_endpoint_errors.cache_clear()


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

    for name in (
        "endpoint_errors",
        "endpoint_risks",
        "transferability_slices",
        "transferability_surface",
    ):
        monkeypatch.setattr(simulations, name, recorder(name))
    shared = (
        simulations._shared_endpoint_errors,
        simulations._shared_surface,
        simulations._shared_slices,
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
    assert readers["transferability_surface"] == simulations._SURFACE_READERS
    assert readers["transferability_slices"] == simulations._SLICE_READERS


def test_the_warm_up_runs_the_surface_and_the_slices_for_two_readers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ran: list[str] = []

    def recorder(name: str) -> Callable[..., None]:
        def record(*args: object, **kwargs: object) -> None:
            ran.append(name)
            raise _Stop

        return record

    monkeypatch.setattr(simulations, "transferability_surface", recorder("surface"))
    monkeypatch.setattr(simulations, "transferability_slices", recorder("slices"))
    for readers in (simulations._SURFACE_READERS, simulations._SLICE_READERS):
        simulations.warm_up(sorted(readers)[:1])
    assert ran == []
    for readers in (simulations._SURFACE_READERS, simulations._SLICE_READERS):
        with contextlib.suppress(_Stop):
            simulations.warm_up(readers)
    assert ran == ["surface", "slices"]


def test_the_shared_runs_are_the_direct_ones_and_read_only() -> None:
    surface = simulations._shared_surface(3)
    direct_surface = transferability_surface(
        simulations._SURFACE_THETAS,
        simulations._SURFACE_GAMMAS,
        dimension=simulations._SURFACE_DIMENSION,
        draws=3,
        sigma=simulations._SURFACE_SIGMA,
        seed=8,
    )
    small = SliceRuns(thetas=(0.4,), gammas=(0.5, 1.5), dimension=12, draws=2)
    slices = simulations._shared_slices(small)
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
    assert simulations._shared_surface(3) is surface
    assert simulations._shared_slices(small) is slices
    simulations._shared_surface.cache_clear()
    simulations._shared_slices.cache_clear()


# Issue 20, "holds that could not fail": the comparisons with the n, d -> oo
# formulas (10), (13), (15), (17) allowed |finite - limit| with the limit taken
# from the formula under test, so a wrong formula widened its own tolerance.
# Each formula is shifted where the check reads it (its NumPy evaluator) and,
# for one branch only, where that evaluator is lambdified from the theory layer.
_LIMIT_CHECKS: dict[str, tuple[str, Callable[[], Verdict]]] = {
    "10:monte-carlo": ("scratch_risk", lambda: simulations._check_scratch_risk()),
    "15:monte-carlo": ("ridge_transfer_risk", lambda: simulations._check_ridge_risk()),
    "13:gd-slices": (
        "linear_transferability",
        lambda: simulations._check_transferability_slices("linear"),
    ),
    "17:gd-slices": (
        "finetune_transferability",
        lambda: simulations._check_transferability_slices("finetune"),
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
    monkeypatch.setattr(simulations, name, _shifted(getattr(simulations, name), shift))
    verdict = check()
    assert verdict.status != Status.HOLDS, (label, shift, verdict.detail)


#: One branch of each formula's NumPy evaluator, as lambdified from the theory
#: expression (numerics.transfer_risks' lazy formulas).
_BRANCHES = [
    ("10:monte-carlo", "_scratch_over"),
    ("10:monte-carlo", "_scratch_under"),
    ("13:gd-slices", "_scratch_over"),
    ("13:gd-slices", "_scratch_under"),
    ("15:monte-carlo", "_ridge_transfer_in_shrinkage"),
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


def test_a_measured_quantity_is_compared_with_the_printed_formula() -> None:
    # A simulation's formula sets its measured symbol against the theory's
    # expression, not against another symbol.
    (claim,) = [c for c in CLAIMS if c.id.endswith(":12:monte-carlo")]
    assert claim.formula is not None
    formula = claim.formula()
    assert isinstance(formula, sp.Eq)
    assert formula.lhs == notation.mc_risk_linear
    assert formula.rhs == tr.linear_transfer_risk()
