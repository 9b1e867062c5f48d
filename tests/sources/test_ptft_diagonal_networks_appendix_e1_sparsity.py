"""ptft-diagonal-networks, Appendix E.1 Figs. 5c-5f: the checks on made-up runs.

Each check is fed a :class:`LearnedSolutions` built by hand, whose effects are
known, so every branch (holds, fails, inconclusive) is reached without
training; the claims' registration and the inventory are checked against the
module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest

from implicit_bias.claims.engine import Basis, Kind, Reason, Status, Verdict
from implicit_bias.errors import ConvergenceError, InvalidArgumentError
from implicit_bias.sources.ptft_diagonal_networks import (
    CLAIMS,
    INVENTORY,
    appendix_e1_sparsity,
)
from implicit_bias.sources.ptft_diagonal_networks.appendix_e1_regimes import (
    REGIMES,
    agreed_verdict,
)
from implicit_bias.sources.ptft_diagonal_networks.simulation_costs import (
    experiment_cost,
)
from implicit_bias.validation.diagonal_learned_sparsity import LearnedSolutions

D, F, R = 12, 3, 6
OVERLAPS = np.array([0, 1, 3])
SIZES = np.array([2, 4, 6, 8])


def _spread(count: int, rng: np.random.Generator, *, start: int = 0) -> np.ndarray:
    """Predictors (R, D) with ``count`` equal-ish weights from input ``start``."""
    beta = np.zeros((R, D))
    beta[:, start : start + count] = 1.0 + 0.05 * rng.random((R, count))
    return beta


def made_up(**overrides: np.ndarray) -> LearnedSolutions:
    """A run where STL is sparse (F weights), LP dense (D), PT+FT and MTL
    sparser than STL (F - 1 weights, on the auxiliary inputs at small n)."""
    rng = np.random.default_rng(0)
    shape = (OVERLAPS.size, SIZES.size, R, D)
    stl, probe, ptft, mtl = (np.empty(shape) for _ in range(4))
    for v in range(OVERLAPS.size):
        for i in range(SIZES.size):
            stl[v, i] = _spread(F, rng, start=F)
            probe[v, i] = _spread(D, rng)
            ptft[v, i] = _spread(F - 1, rng, start=0 if i == 0 else F)
            mtl[v, i] = _spread(F - 1, rng, start=F)
        # A little weight off the auxiliary inputs, so the overlaps vary.
        ptft[v, 0, :, D - 1] = 0.2 * rng.random(R)
    fields: dict[str, np.ndarray] = {
        "stl": stl,
        "linear_probe": probe,
        "ptft": ptft,
        "mtl": mtl,
        "truth": np.stack([_spread(F, rng, start=F - s) for s in OVERLAPS]),
    }
    fields.update(overrides)
    return LearnedSolutions(
        overlaps=OVERLAPS,
        sample_sizes=SIZES,
        aux_support=np.arange(D) < F,
        dimension=D,
        features=F,
        aux_samples=D // 2,
        rescale=1.0,
        init_scale=1e-3,
        gamma=1e-3,
        tol=1e-6,
        seed=0,
        **fields,
    )


@pytest.fixture
def feed(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """Make the checks read the given run (or raise the given error); with
    ``second``, that run in the second of the regimes (the first otherwise)."""

    def set_run(run: object, second: object = None) -> None:
        def learned(**options: object) -> LearnedSolutions:
            regime = (options.get("aux_samples"), options.get("rescale", 1.0))
            chosen = run
            if second is not None and regime == (1024, 0.1):
                chosen = second
            if isinstance(chosen, Exception):
                raise chosen
            assert isinstance(chosen, LearnedSolutions)
            return chosen

        appendix_e1_sparsity._RUNS.clear()
        monkeypatch.setattr(appendix_e1_sparsity, "learned_solutions", learned)

    yield set_run
    appendix_e1_sparsity._RUNS.clear()


CHECKS: dict[str, Callable[..., Verdict]] = {
    "stl-sparser-than-lp": appendix_e1_sparsity._check_stl_sparser_than_lp,
    "sparsity-nonmonotonic": appendix_e1_sparsity._check_sparsity_nonmonotonic,
    "l1-grows-with-samples": appendix_e1_sparsity._check_l1_grows,
    "ptft-mtl-sparse": appendix_e1_sparsity._check_ptft_mtl_sparse,
    "sparser-than-stl-with-overlap": appendix_e1_sparsity._check_sparser_than_stl,
    "as-sparse-as-stl-without-overlap": (
        appendix_e1_sparsity._check_as_sparse_without_overlap
    ),
    "denser-than-stl-without-overlap": (
        appendix_e1_sparsity._check_denser_without_overlap
    ),
    "biased-to-share-with-few-samples": appendix_e1_sparsity._check_biased_to_share,
}


def test_sparse_stl_against_dense_probe(feed: Callable[..., None]) -> None:
    feed(made_up())
    assert CHECKS["stl-sparser-than-lp"]().status == Status.HOLDS
    assert CHECKS["ptft-mtl-sparse"]().status == Status.HOLDS
    # Swapped: the probe sparse, STL dense, is the opposite effect.
    run = made_up()
    feed(made_up(stl=run.linear_probe, linear_probe=run.stl, ptft=run.linear_probe))
    verdict = CHECKS["stl-sparser-than-lp"]()
    assert verdict.status == Status.FAILS
    assert verdict.basis == Basis.STATISTICAL
    assert verdict.counterexample
    assert CHECKS["ptft-mtl-sparse"]().status == Status.FAILS


def test_sparser_than_stl_reads_ptft_at_shared_overlaps(
    feed: Callable[..., None],
) -> None:
    run = made_up()
    feed(run)
    verdict = CHECKS["sparser-than-stl-with-overlap"]()
    assert verdict.status == Status.HOLDS, verdict.detail
    # PT+FT denser than STL (as dense as the probe) refutes it.
    feed(made_up(ptft=run.linear_probe))
    assert CHECKS["sparser-than-stl-with-overlap"]().status == Status.FAILS
    # Equal to STL: no effect either way.
    feed(made_up(ptft=run.stl))
    verdict = CHECKS["sparser-than-stl-with-overlap"]()
    assert verdict.status == Status.INCONCLUSIVE
    assert verdict.reason == Reason.STATISTICAL


def test_as_sparse_without_overlap_is_an_equivalence(
    feed: Callable[..., None],
) -> None:
    run = made_up()
    feed(made_up(ptft=run.stl + 1e-3 * run.linear_probe))
    assert CHECKS["as-sparse-as-stl-without-overlap"]().status == Status.HOLDS
    feed(made_up(ptft=run.linear_probe))
    verdict = CHECKS["as-sparse-as-stl-without-overlap"]()
    assert verdict.status == Status.FAILS
    assert "outside the margin" in verdict.detail
    assert CHECKS["denser-than-stl-without-overlap"]().status == Status.HOLDS
    # F - 1 against F weights: a rank gap of about 0.5 on STL's 2, outside the
    # 10% margin; with its noise alone it is not decided.
    feed(run)
    assert CHECKS["as-sparse-as-stl-without-overlap"]().status != Status.HOLDS
    # ... and PT+FT sparser than STL there refutes the correction.
    assert CHECKS["denser-than-stl-without-overlap"]().status == Status.FAILS


def test_without_overlap_is_judged_in_both_regimes(
    feed: Callable[..., None],
) -> None:
    run = made_up()
    inside = made_up(ptft=run.stl)
    outside = made_up(ptft=run.linear_probe)
    # Outside the margin in one regime, inside it in the other: undecided.
    feed(outside, second=inside)
    verdict = CHECKS["as-sparse-as-stl-without-overlap"]()
    assert verdict.status == Status.INCONCLUSIVE
    assert verdict.reason == Reason.UNDECIDED
    assert "outside the margin" in verdict.detail
    assert "within the margin" in verdict.detail
    for regime in REGIMES:
        assert f"[{regime.describe(D)}]" in verdict.detail
    assert verdict.detail.count("mean weight rank of STL - PT+FT") == 2
    # Denser in the first regime only: the mirror claim is not shown in both.
    verdict = CHECKS["denser-than-stl-without-overlap"]()
    assert verdict.status == Status.INCONCLUSIVE
    assert verdict.reason == Reason.STATISTICAL
    # Inside in the first, outside in the second: undecided as well.
    feed(inside, second=outside)
    verdict = CHECKS["as-sparse-as-stl-without-overlap"]()
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.UNDECIDED)
    # Outside in both: fails, with both regimes' figures.
    feed(outside, second=outside)
    verdict = CHECKS["as-sparse-as-stl-without-overlap"]()
    assert verdict.status == Status.FAILS
    assert verdict.counterexample is not None
    assert verdict.counterexample.count(" > ") == 2


def test_the_regimes_are_the_runs_the_checks_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[object, object]] = []
    run = made_up()

    def learned(**options: object) -> LearnedSolutions:
        calls.append((options.get("aux_samples"), options.get("rescale")))
        return run

    appendix_e1_sparsity._RUNS.clear()
    monkeypatch.setattr(appendix_e1_sparsity, "learned_solutions", learned)
    try:
        CHECKS["as-sparse-as-stl-without-overlap"]()
        CHECKS["denser-than-stl-without-overlap"]()
    finally:
        appendix_e1_sparsity._RUNS.clear()
    # Our earlier reading and the paper's Appendix D count with rescale 0.1,
    # each run once.
    assert calls == [(None, 1.0), (1024, 0.1)]


def _verdict(status: Status, reason: Reason | None = None) -> Verdict:
    if status == Status.HOLDS:
        return Verdict.holds("inside", Basis.STATISTICAL)
    if status == Status.FAILS:
        return Verdict.fails("outside", Basis.STATISTICAL, "|x| > m")
    return Verdict.inconclusive("between", reason or Reason.STATISTICAL)


@pytest.mark.parametrize(
    ("statuses", "expected", "reason"),
    [
        ((Status.HOLDS, Status.HOLDS), Status.HOLDS, None),
        ((Status.FAILS, Status.FAILS), Status.FAILS, None),
        ((Status.FAILS, Status.HOLDS), Status.INCONCLUSIVE, Reason.UNDECIDED),
        ((Status.HOLDS, Status.FAILS), Status.INCONCLUSIVE, Reason.UNDECIDED),
        ((Status.FAILS, Status.INCONCLUSIVE), Status.INCONCLUSIVE, Reason.STATISTICAL),
        ((Status.INCONCLUSIVE, Status.HOLDS), Status.INCONCLUSIVE, Reason.STATISTICAL),
    ],
)
def test_agreed_verdict_keeps_a_decision_only_where_regimes_agree(
    statuses: tuple[Status, Status], expected: Status, reason: Reason | None
) -> None:
    verdict = agreed_verdict([(f"r{i}", _verdict(s)) for i, s in enumerate(statuses)])
    assert verdict.status == expected
    assert verdict.reason == reason
    assert "[r0]" in verdict.detail
    assert "[r1]" in verdict.detail


def test_agreed_verdict_keeps_the_reason_of_a_run_that_did_not_converge() -> None:
    verdict = agreed_verdict(
        [
            ("a", _verdict(Status.FAILS)),
            ("b", _verdict(Status.INCONCLUSIVE, Reason.BUDGET)),
        ]
    )
    assert verdict.reason == Reason.BUDGET
    with pytest.raises(InvalidArgumentError, match="judged"):
        agreed_verdict([])


def test_nonmonotonic_sparsity(feed: Callable[..., None]) -> None:
    rng = np.random.default_rng(1)
    stl = made_up().stl.copy()
    stl[:, 1] = _spread(2 * F, rng, start=F)  # denser inside the grid
    feed(made_up(stl=stl))
    assert CHECKS["sparsity-nonmonotonic"]().status == Status.HOLDS
    # Monotonically denser with n: the peak is not above the last size.
    stl = stl.copy()
    for i in range(SIZES.size):
        stl[:, i] = _spread(i + 1, rng, start=F)
    feed(made_up(stl=stl))
    assert CHECKS["sparsity-nonmonotonic"]().status == Status.FAILS


def test_l1_growth(feed: Callable[..., None]) -> None:
    stl = made_up().stl * (1 + np.arange(SIZES.size))[None, :, None, None]
    feed(made_up(stl=stl))
    verdict = CHECKS["l1-grows-with-samples"]()
    assert verdict.status == Status.HOLDS
    assert "not judged" in verdict.detail
    feed(made_up(stl=stl[:, ::-1]))
    assert CHECKS["l1-grows-with-samples"]().status == Status.FAILS


def test_bias_to_share_with_few_samples(feed: Callable[..., None]) -> None:
    feed(made_up())
    verdict = CHECKS["biased-to-share-with-few-samples"]()
    assert verdict.status == Status.HOLDS, verdict.detail
    run = made_up()
    feed(made_up(ptft=run.stl))
    assert CHECKS["biased-to-share-with-few-samples"]().status == Status.INCONCLUSIVE
    # STL on the auxiliary inputs, PT+FT off them: the opposite.
    feed(made_up(stl=run.ptft, ptft=run.stl))
    assert CHECKS["biased-to-share-with-few-samples"]().status == Status.FAILS


@pytest.mark.parametrize("label", list(CHECKS))
def test_a_run_that_does_not_converge_is_inconclusive(
    label: str, feed: Callable[..., None]
) -> None:
    feed(ConvergenceError("a network diverged; try a smaller learning rate"))
    verdict = CHECKS[label]()
    assert verdict.status == Status.INCONCLUSIVE
    assert verdict.reason == Reason.BUDGET


def test_warm_up_runs_the_quick_experiment_once_for_two_readers(
    feed: Callable[..., None], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[bool] = []
    run = made_up()

    def learned(*, quick: bool = True, **options: object) -> LearnedSolutions:
        calls.append(quick if options.get("rescale", 1.0) == 1.0 else "second")
        return run

    monkeypatch.setattr(appendix_e1_sparsity, "learned_solutions", learned)
    readers = sorted(appendix_e1_sparsity.QUICK_READERS)
    appendix_e1_sparsity.warm_up(readers[:1])
    assert calls == []
    appendix_e1_sparsity.warm_up(readers[:2])
    assert calls == [True]
    for claim in CLAIMS:
        if claim.id in appendix_e1_sparsity.QUICK_READERS:
            claim.check()
    # The 0/40 claims of Fig. 5e read a second run, once for both.
    assert calls == [True, "second"]
    appendix_e1_sparsity._RUNS.clear()
    calls.clear()
    appendix_e1_sparsity.warm_up(sorted(appendix_e1_sparsity._REGIME_READERS))
    assert calls == [True, "second"]


def test_claims_are_registered_under_their_figures() -> None:
    ours = [c for c in CLAIMS if c.id in appendix_e1_sparsity.QUICK_READERS]
    assert len(ours) == len(CHECKS) == len(appendix_e1_sparsity.QUICK_READERS)
    items = {item.label: item for item in INVENTORY}
    for claim in ours:
        assert claim.kind == Kind.SIMULATION
        assert claim.equation in {"fig-5c", "fig-5d", "fig-5e", "fig-5f"}
        # Found by their equation, the item's label.
        assert items[claim.equation].kind.value == "result"
        assert claim.quote
        assert claim.regime
        assert claim.reading is not None
        assert claim.paper is not None
        assert not claim.paper.from_source
        assert claim.cost is not None


def test_cost_models_scale_with_the_configuration() -> None:
    quick = experiment_cost("learned_solutions quick")
    full = experiment_cost("learned_solutions full")
    # 20 repeats of 1 + 3 x 18 networks (pretraining, STL, PT+FT, MTL).
    assert quick.runs == 20 * (1 + 3 * 18)
    assert full.runs == 20 * (1 + 3 * 21)
    assert full.seconds > quick.seconds > 0
    # The 0/40 claims of Fig. 5e train the experiment in two regimes.
    for size, one in (("quick", quick), ("full", full)):
        both = experiment_cost(f"learned_solutions {size}, two regimes")
        assert both.runs == 2 * one.runs
        assert both.seconds > one.seconds
    costs = {c.label: c.cost() for c in CLAIMS if c.equation == "fig-5e"}  # type: ignore[misc]
    assert costs["as-sparse-as-stl-without-overlap"].runs == 2 * quick.runs
    assert costs["ptft-mtl-sparse"].runs == quick.runs
