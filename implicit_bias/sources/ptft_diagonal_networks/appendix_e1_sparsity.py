r"""Claims of ptft-diagonal-networks: Appendix E.1, Figs. 5c-5f, sparsity and reuse.

Fig. 5c: the solutions of single-task learning from a small initialization
(STL) concentrate their variance in a few weights, unlike linear probing (LP),
and their sparsity is nonmonotonic in the number of samples; Fig. 5d: their
:math:`\ell_1` norm grows with it; Fig. 5e: PT+FT and MTL solutions are sparse,
and sparser than STL's when the tasks share features; Fig. 5f: with few samples
the main-task solutions put weight on the auxiliary task's features. Trained
networks of
:func:`~implicit_bias.validation.diagonal_learned_sparsity.learned_solutions`,
run once per process for the claims that share them (:func:`warm_up`).

A curve of Fig. 5c or 5e is summarized by the area under it,
:math:`\bar r - 1` with :math:`\bar r` the
:func:`~implicit_bias.validation.diagonal_learned_sparsity.mean_weight_rank`:
"decreases much more rapidly" reads as a smaller :math:`\bar r`. Every
comparison is paired over the repeats (independent draws of the tasks and
data) and counts as an effect beyond the Student-t equivalent, for R repeats,
of :data:`~._thresholds.SIGNIFICANCE` normal standard errors
(:func:`~implicit_bias.claims.repeats.student_t_critical`: 3.45 SE for
R = 20); the opposite effect beyond it refutes. A claim holds when every
comparison it names shows the effect, fails when one shows the opposite, and
is inconclusive otherwise. Each side is decided by
:func:`~implicit_bias.claims.bounds.check_within` (through
:func:`~implicit_bias.claims.checks.check_close`), the mean difference in
:math:`[t^*\mathrm{SE}, \mathrm{span}]` with the span the range of the
difference (:math:`(D - 1)/2` for mean weight ranks, 1 for shares of the
squared norm), so ``implicit-bias mutate`` can shift it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import numpy as np
import sympy as sp
from numpy.typing import NDArray

from implicit_bias.claims.bounds import check_within
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
)
from implicit_bias.claims.profiles import Configuration
from implicit_bias.claims.repeats import student_t_critical
from implicit_bias.errors import ConvergenceError
from implicit_bias.sources.ptft_diagonal_networks._thresholds import SIGNIFICANCE
from implicit_bias.sources.ptft_diagonal_networks.appendix_e1_regimes import (
    REGIMES,
    FinetuningRegime,
    agreed_verdict,
    equivalence_verdict,
)
from implicit_bias.sources.ptft_diagonal_networks.simulation_costs import (
    experiment_cost,
)
from implicit_bias.sources.ptft_diagonal_networks.source import SOURCE_ID, measured
from implicit_bias.validation.diagonal_learned_sparsity import (
    LEARNED_SOLUTIONS_CONFIGURATIONS,
    LearnedSolutions,
    learned_solutions,
    mean_weight_rank,
)
from implicit_bias.validation.diagonal_pretrain_finetune import support_overlap

__all__ = ["CLAIMS", "QUICK_READERS", "warm_up"]

Float64Array = NDArray[np.float64]

_LABELS = (
    ("fig-5c", "stl-sparser-than-lp"),
    ("fig-5c", "sparsity-nonmonotonic"),
    ("fig-5d", "l1-grows-with-samples"),
    ("fig-5e", "ptft-mtl-sparse"),
    ("fig-5e", "sparser-than-stl-with-overlap"),
    ("fig-5e", "as-sparse-as-stl-without-overlap"),
    ("fig-5e", "denser-than-stl-without-overlap"),
    ("fig-5f", "biased-to-share-with-few-samples"),
)
#: The claims that read the quick run of :func:`learned_solutions`.
QUICK_READERS = frozenset(f"{SOURCE_ID}:{figure}:{label}" for figure, label in _LABELS)

#: The runs of :func:`_shared`, by ``quick`` and regime.
_RUNS: dict[tuple[bool, FinetuningRegime], LearnedSolutions] = {}
#: The claims that also read the quick run in the second of :data:`REGIMES`.
_REGIME_READERS = frozenset(i for i in QUICK_READERS if i.endswith("-without-overlap"))


def _shared(quick: bool, regime: FinetuningRegime = REGIMES[0]) -> LearnedSolutions:
    """``learned_solutions`` in ``regime``, run once per process, read-only."""
    if (quick, regime) not in _RUNS:
        result = learned_solutions(
            quick=quick, aux_samples=regime.aux_samples, rescale=regime.rescale
        )
        for field in dataclasses.fields(result):
            value = getattr(result, field.name)
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
        _RUNS[quick, regime] = result
    return _RUNS[quick, regime]


def warm_up(claim_ids: Collection[str]) -> None:
    """Run each quick experiment two or more of ``claim_ids`` read (the runner
    calls the source's warm-up before forking the checks)."""
    if len(QUICK_READERS & set(claim_ids)) >= 2:
        _shared(True)
    if len(_REGIME_READERS & set(claim_ids)) >= 2:
        _shared(True, REGIMES[1])


def _configuration(quick: bool) -> str:
    sizes = LEARNED_SOLUTIONS_CONFIGURATIONS["quick" if quick else "full"]
    return (
        f"{'quick' if quick else 'full'} configuration (D = {sizes.dimension}, "
        f"F = {sizes.features} features per task, overlaps s = "
        f"{list(sizes.overlaps)}, n = {list(sizes.sample_sizes)}, "
        f"{sizes.repeats} repeats; every network stopped at a relative training "
        "loss of 1e-6, the trainer raises otherwise)"
    )


@dataclass(frozen=True)
class _Effect:
    """A paired effect over repeats, positive in the claimed direction."""

    where: str
    mean: float
    standard_error: float
    critical: float
    claimed_side: Verdict
    opposite_side: Verdict

    @property
    def shown(self) -> bool:
        return self.standard_error > 0 and self.claimed_side.status == Status.HOLDS

    @property
    def refuted(self) -> bool:
        return self.standard_error > 0 and self.opposite_side.status == Status.HOLDS

    def __str__(self) -> str:
        ratio = self.mean / self.standard_error if self.standard_error else np.inf
        return (
            f"{self.where}: {self.mean:+.3g} +- {self.standard_error:.2g} "
            f"({ratio:+.1f} SE)"
        )


def _effect(
    differences: Float64Array, where: str, what: str, *, span: float
) -> _Effect:
    r"""The mean :math:`\bar\Delta` of ``differences`` (one per repeat) on
    either side of the band :math:`|\bar\Delta| \le t^*\,\mathrm{SE}`,
    :math:`t^*` the Student-t equivalent of :data:`SIGNIFICANCE` normal SE
    for R repeats.

    Each side is a :func:`check_within` of the mean in an interval that takes
    its far end from the range of the quantity, :math:`|\Delta| \le`
    ``span`` (the one-sided form that function documents): the claimed side
    :math:`[t^*\mathrm{SE}, \mathrm{span}]`, the opposite one
    :math:`[-\mathrm{span}, -t^*\mathrm{SE}]`. A difference of 0 SE (all
    repeats equal) is on neither side.
    """
    values = np.asarray(differences, dtype=np.float64)
    mean = float(values.mean())
    error = float(values.std(ddof=1) / np.sqrt(values.size))
    critical = student_t_critical(values.size, SIGNIFICANCE)
    edge = min(critical * error, span)
    label = f"{what} at {where}"
    claimed = check_within(
        mean, edge, span, what=f"{label}, claimed side", basis=Basis.STATISTICAL
    )
    opposite = check_within(
        mean, -span, -edge, what=f"{label}, opposite side", basis=Basis.STATISTICAL
    )
    return _Effect(where, mean, error, critical, claimed, opposite)


#: Beyond this many comparisons a verdict names the weakest ones only.
_LISTED = 8


def _decide(effects: Sequence[_Effect], detail: str, claimed: str) -> Verdict:
    """``holds`` if every effect is shown, ``fails`` if one is refuted,
    ``inconclusive`` (``Reason.STATISTICAL``) otherwise."""
    listed = "; ".join(map(str, effects))
    if len(effects) > _LISTED:
        ordered = sorted(effects, key=lambda e: e.mean / e.standard_error)
        listed = (
            f"{len(effects)} comparisons, the weakest {ordered[0]}, the next "
            f"{ordered[1]}, the strongest {ordered[-1]}"
        )
    critical = effects[0].critical
    text = (
        f"{detail}. {claimed}, paired over repeats (counted beyond {critical:.3g} SE, "
        f"the Student-t equivalent of {SIGNIFICANCE:g} normal SE): {listed}"
    )
    refuted = [e for e in effects if e.refuted]
    if refuted:
        return Verdict.fails(
            text,
            Basis.STATISTICAL,
            "; ".join(
                f"the opposite at {e.where}: {e.mean:+.4g} +- {e.standard_error:.2g}"
                f" (SE), beyond {critical:.3g} SE"
                for e in refuted
            ),
        )
    if all(e.shown for e in effects):
        return Verdict.holds(text, Basis.STATISTICAL)
    return Verdict.inconclusive(
        f"{text}; not every effect beyond {critical:.3g} SE", Reason.STATISTICAL
    )


def _rank_span(result: LearnedSolutions) -> float:
    """The range of a difference of mean weight ranks, which lie in [1, (D+1)/2]."""
    return (result.dimension - 1) / 2


def _run(
    quick: bool, regime: FinetuningRegime = REGIMES[0]
) -> LearnedSolutions | Verdict:
    try:
        return _shared(quick, regime)
    except ConvergenceError as failure:
        return Verdict.inconclusive(f"a run did not converge: {failure}", Reason.BUDGET)


def _overlap(coefficients: Float64Array, result: LearnedSolutions) -> Float64Array:
    """:func:`support_overlap` with the auxiliary features, over (..., D)."""
    flat = coefficients.reshape(-1, coefficients.shape[-1])
    return support_overlap(flat, result.aux_support).reshape(coefficients.shape[:-1])


# --- the checks


def _check_stl_sparser_than_lp(quick: bool = True) -> Verdict:
    result = _run(quick)
    if isinstance(result, Verdict):
        return result
    # STL does not see the auxiliary task: each repeat's V placements of its
    # main task are averaged (one value per repeat, repeats independent).
    gap = (mean_weight_rank(result.linear_probe) - mean_weight_rank(result.stl)).mean(
        axis=0
    )
    span = _rank_span(result)
    effects = [
        _effect(gap[i], f"n = {n}", "mean weight rank of LP - STL", span=span)
        for i, n in enumerate(result.sample_sizes)
    ]
    stl = mean_weight_rank(result.stl).mean(axis=(0, 2))
    probe = mean_weight_rank(result.linear_probe).mean(axis=(0, 2))
    detail = (
        f"{_configuration(quick)}: mean weight rank (1 + area under the variance "
        f"beyond the top k) of STL {np.round(stl, 2).tolist()}, of LP "
        f"{np.round(probe, 2).tolist()}, of the truth "
        f"{float(mean_weight_rank(result.truth).mean()):.2f}"
    )
    return _decide(effects, detail, "LP's mean weight rank above STL's at every n")


def _check_sparsity_nonmonotonic(quick: bool = True) -> Verdict:
    result = _run(quick)
    if isinstance(result, Verdict):
        return result
    rank = mean_weight_rank(result.stl).mean(axis=0)  # (S, R)
    sizes = result.sample_sizes
    # The interior n where the mean rank peaks; the comparisons with both ends
    # are then one-sided at that n (chosen from the same data: the ends of
    # the grid are fixed in advance, the peak is not).
    peak = 1 + int(np.argmax(rank[1:-1].mean(axis=1)))
    span = _rank_span(result)
    effects = [
        _effect(
            rank[peak] - rank[0], f"n = {sizes[peak]} vs {sizes[0]}", "rise", span=span
        ),
        _effect(
            rank[peak] - rank[-1],
            f"n = {sizes[peak]} vs {sizes[-1]}",
            "fall",
            span=span,
        ),
    ]
    detail = (
        f"{_configuration(quick)}: STL mean weight rank at n = {sizes.tolist()}: "
        f"{np.round(rank.mean(axis=1), 2).tolist()}; the largest inside the grid at "
        f"n = {sizes[peak]}"
    )
    return _decide(
        effects,
        detail,
        "the rank (less sparse) at that n above the rank at both ends of the grid",
    )


def _check_l1_grows(quick: bool = True) -> Verdict:
    result = _run(quick)
    if isinstance(result, Verdict):
        return result
    l1 = np.abs(result.stl).sum(axis=-1).mean(axis=0)  # (S, R)
    sizes = result.sample_sizes
    # A mean growth l1(b) - l1(a) lies in [-mean l1(a), mean l1(b)].
    span = float(l1.mean(axis=1).max())
    steps = [
        _effect(
            l1[i + 1] - l1[i],
            f"n = {sizes[i]} -> {sizes[i + 1]}",
            "l1 growth",
            span=span,
        )
        for i in range(sizes.size - 1)
    ]
    detail = (
        f"{_configuration(quick)}: mean STL l1 norm at n = {sizes.tolist()}: "
        f"{np.round(l1.mean(axis=1), 3).tolist()} (truth "
        f"{float(np.abs(result.truth).sum(axis=-1).mean()):.3f}); consecutive "
        "steps, not judged ('largely monotonic'): " + "; ".join(map(str, steps))
    )
    overall = _effect(
        l1[-1] - l1[0], f"n = {sizes[0]} -> {sizes[-1]}", "l1 growth", span=span
    )
    return _decide([overall], detail, "the l1 norm larger at the largest n")


def _check_ptft_mtl_sparse(quick: bool = True) -> Verdict:
    result = _run(quick)
    if isinstance(result, Verdict):
        return result
    probe = mean_weight_rank(result.linear_probe)
    effects = [
        _effect(
            probe[v, i] - mean_weight_rank(getattr(result, method)[v, i]),
            f"{name}, s = {s}, n = {n}",
            f"mean weight rank of LP - {name}",
            span=_rank_span(result),
        )
        for method, name in (("ptft", "PT+FT"), ("mtl", "MTL"))
        for v, s in enumerate(result.overlaps)
        for i, n in enumerate(result.sample_sizes)
    ]
    ranks = {
        name: np.round(
            mean_weight_rank(getattr(result, method)).mean(axis=(1, 2)), 2
        ).tolist()
        for method, name in (("ptft", "PT+FT"), ("mtl", "MTL"), ("linear_probe", "LP"))
    }
    detail = (
        f"{_configuration(quick)}: mean weight rank over n, by overlap "
        f"{result.overlaps.tolist()}: {ranks}"
    )
    return _decide(
        effects,
        detail,
        "PT+FT's and MTL's mean weight rank below LP's (the dense readout-only "
        "solution of Fig. 5c) at every overlap and n",
    )


def _rank_gaps(result: LearnedSolutions) -> dict[str, Float64Array]:
    """STL's mean weight rank minus PT+FT's and MTL's, averaged over n, (V, R)."""
    stl = mean_weight_rank(result.stl)
    return {
        name: (stl - mean_weight_rank(getattr(result, method))).mean(axis=1)
        for method, name in (("ptft", "PT+FT"), ("mtl", "MTL"))
    }


def _check_sparser_than_stl(quick: bool = True) -> Verdict:
    result = _run(quick)
    if isinstance(result, Verdict):
        return result
    gaps = _rank_gaps(result)
    effects = [
        _effect(
            gaps["PT+FT"][v],
            f"PT+FT, s = {s}",
            "mean weight rank of STL - PT+FT",
            span=_rank_span(result),
        )
        for v, s in enumerate(result.overlaps)
        if s > 0
    ]
    reported = [
        _effect(
            gaps[name][v], f"{name}, s = {s}", f"STL - {name}", span=_rank_span(result)
        )
        for name in gaps
        for v, s in enumerate(result.overlaps)
        if name == "MTL" or s == 0
    ]
    detail = (
        f"{_configuration(quick)}: STL's minus PT+FT's mean weight rank, averaged "
        "over n (positive: sparser than STL); not judged: s = 0 (the "
        "as-sparse-as-stl-without-overlap claim) and MTL (ours sees the auxiliary "
        "task on the main task's n samples only): " + "; ".join(map(str, reported))
    )
    return _decide(
        effects,
        detail,
        "PT+FT sparser than STL (lower mean weight rank) at every overlap s > 0",
    )


#: The relative margin within which two mean weight ranks count as "as
#: sparse": a threshold of ours (the text gives none).
_AS_SPARSE = 0.1


def _in_regimes(
    check: Callable[[LearnedSolutions, bool], Verdict], quick: bool
) -> Verdict:
    """``check(result, quick)`` on the run of each of :data:`REGIMES`, the
    decision kept only where they agree (:func:`agreed_verdict`)."""
    configured = LEARNED_SOLUTIONS_CONFIGURATIONS["quick" if quick else "full"]
    judged = []
    for regime in REGIMES:
        result = _run(quick, regime)
        if isinstance(result, Verdict):
            judged.append((regime.describe(configured.dimension), result))
        else:
            judged.append((regime.describe(result.dimension), check(result, quick)))
    return agreed_verdict(judged)


def _check_as_sparse_without_overlap(quick: bool = True) -> Verdict:
    """PT+FT against STL at s = 0, in each of :data:`REGIMES`: equivalent
    within :data:`_AS_SPARSE` of STL's mean rank (:func:`equivalence_verdict`)."""
    return _in_regimes(_as_sparse_in, quick)


def _as_sparse_in(result: LearnedSolutions, quick: bool) -> Verdict:
    if result.overlaps[0] != 0:
        raise AssertionError("the configurations start at overlap 0")
    gaps = _rank_gaps(result)
    margin = _AS_SPARSE * float(mean_weight_rank(result.stl[0]).mean())
    mtl = _effect(gaps["MTL"][0], "MTL, s = 0", "STL - MTL", span=_rank_span(result))
    by_n = {
        name: np.round(
            mean_weight_rank(getattr(result, method)[0]).mean(axis=-1), 2
        ).tolist()
        for method, name in (("stl", "STL"), ("ptft", "PT+FT"))
    }
    return equivalence_verdict(
        gaps["PT+FT"][0],
        margin,
        what="mean weight rank of STL - PT+FT at s = 0, averaged over n",
        context=(
            f"{_configuration(quick)}: mean weight rank at s = 0 by n "
            f"{result.sample_sizes.tolist()}: {by_n}"
        ),
        note=f"{_AS_SPARSE:g} of STL's mean rank; MTL, not judged: {mtl}",
    )


def _check_denser_without_overlap(quick: bool = True) -> Verdict:
    """PT+FT's mean weight rank above STL's at s = 0, in each of :data:`REGIMES`."""
    return _in_regimes(_denser_in, quick)


def _denser_in(result: LearnedSolutions, quick: bool) -> Verdict:
    if result.overlaps[0] != 0:
        raise AssertionError("the configurations start at overlap 0")
    gap = -_rank_gaps(result)["PT+FT"][0]
    effect = _effect(
        gap,
        "s = 0",
        "mean weight rank of PT+FT - STL, averaged over n",
        span=_rank_span(result),
    )
    share = _overlap(result.ptft[0], result).mean(axis=-1)
    detail = (
        f"{_configuration(quick)}: PT+FT's share of squared weight on the auxiliary "
        f"features (none of the main task's) at s = 0 by n "
        f"{result.sample_sizes.tolist()}: {np.round(share, 2).tolist()}"
    )
    return _decide([effect], detail, "PT+FT's mean weight rank above STL's at s = 0")


def _check_biased_to_share(quick: bool = True) -> Verdict:
    result = _run(quick)
    if isinstance(result, Verdict):
        return result
    features = result.features
    ptft = _overlap(result.ptft, result)
    stl = _overlap(result.stl, result)
    mtl = _overlap(result.mtl, result)
    truth = _overlap(result.truth, result)
    smallest = int(result.sample_sizes[0])
    effects = [
        _effect(
            ptft[v, 0] - stl[v, 0],
            f"s = {s}, n = {smallest}",
            "overlap with the auxiliary features, PT+FT - STL",
            span=1.0,
        )
        for v, s in enumerate(result.overlaps)
        if s < features
    ]
    detail = (
        f"{_configuration(quick)}: share of the main-task predictor's squared norm on "
        f"the auxiliary features at n = {result.sample_sizes.tolist()}, by overlap "
        f"s = {result.overlaps.tolist()}: PT+FT "
        f"{np.round(ptft.mean(axis=-1), 2).tolist()}, STL "
        f"{np.round(stl.mean(axis=-1), 2).tolist()}, MTL (not judged: it sees the "
        f"auxiliary task on the same n samples) "
        f"{np.round(mtl.mean(axis=-1), 2).tolist()}, truth "
        f"{np.round(truth.mean(axis=-1), 2).tolist()}"
    )
    return _decide(
        effects,
        detail,
        f"PT+FT's overlap above STL's (same samples) at the smallest n, every s < "
        f"F = {features}",
    )


# --- what the claims compare (the ledger's formulas)


def _paired(name: str, latex: str) -> sp.Basic:
    """The ledger's :math:`\\bar\\Delta > t^*\\,\\mathrm{SE}(\\bar\\Delta)`."""
    mean = measured(f"{name}_mean", rf"\bar{{\Delta}}_{{{latex}}}", real=True)
    error = measured(
        f"{name}_se", rf"\mathrm{{SE}}(\bar{{\Delta}}_{{{latex}}})", positive=True
    )
    critical = measured("t_critical", r"t^{*}_{R-1}", positive=True)
    return sp.Gt(mean, critical * error, evaluate=False)


_FULL = LEARNED_SOLUTIONS_CONFIGURATIONS["full"]
_PAPER_DESCRIPTION = (
    "Figs. 5c-5f are drawn for the diagonal networks of Fig. 1 (40 features per "
    "task, overlaps 0/40 to 40/40), whose sizes are in the main text, not in these "
    "appendices (Appendix D: '1024 auxiliary task samples and up to 1024 main task "
    "samples in most of our experiments'); ours, the full configuration: D = "
    f"{_FULL.dimension}, F = {_FULL.features}, s = {list(_FULL.overlaps)}, n = "
    f"{list(_FULL.sample_sizes)}, {_FULL.repeats} repeats, D/2 auxiliary samples "
    "(and 1024 with rescale 0.1 for the 0/40 comparisons)"
)


def _paper(
    check: object, expected: Status, reason: Reason | None, two_regimes: bool
) -> Configuration:
    name = f"learned_solutions full{', two regimes' if two_regimes else ''}"
    return Configuration(
        _PAPER_DESCRIPTION,
        lambda: check(quick=False),  # type: ignore[operator]
        budget_seconds=600.0,
        expected=expected,
        cost=lambda: experiment_cost(name),
        expected_reason=reason,
        from_source=False,
    )


_QUICK_REGIME = (
    "quick configuration (D = 40, F = 6 features per task, overlaps s = 0, 3, 6, "
    "n = 4..32 nested, 20 repeats; alpha = gamma = 1e-3, PT+FT pretrained on D/2 "
    "auxiliary samples, MTL on the same n samples for both tasks), scaled down "
    "from the paper's 40 features per task"
)


def _claim(
    figure: str,
    label: str,
    statement: str,
    check: object,
    expected: Status,
    *,
    quote: str,
    regime: str,
    formula: sp.Basic,
    paper_expected: Status,
    reading: Reading = Reading.INTERPRETATION,
    expected_reason: Reason | None = None,
    paper_reason: Reason | None = None,
    corrects: str | None = None,
    two_regimes: bool = False,
) -> Claim:
    name = f"learned_solutions quick{', two regimes' if two_regimes else ''}"
    return Claim(
        SOURCE_ID,
        figure,
        label,
        Kind.SIMULATION,
        statement,
        lambda: check(quick=True),  # type: ignore[operator]
        expected,
        cost=lambda: experiment_cost(name),
        paper=_paper(check, paper_expected, paper_reason, two_regimes),
        formula=lambda: formula,
        expected_reason=expected_reason,
        corrects=corrects,
        budget_seconds=120.0,
        quote=quote,
        reading=reading,
        regime=f"{_QUICK_REGIME}; {regime}",
    )


CLAIMS: tuple[Claim, ...] = (
    _claim(
        "fig-5c",
        "stl-sparser-than-lp",
        "the variance of STL solutions beyond their top k weights falls much faster "
        "in k than that of linear probing (readout-only) solutions",
        _check_stl_sparser_than_lp,
        Status.HOLDS,
        quote=(
            "When both layers are trained from small initialization (STL), this "
            "variance decreases much more rapidly than for pure linear readout "
            "training (STL (LP)), demonstrating the sparsity of the learned solution."
        ),
        regime=(
            "'decreases more rapidly' = a smaller area under the curve (mean weight "
            "rank) at every n; LP = the limit of readout training, the min-l2 "
            "interpolant"
        ),
        formula=_paired("rank_lp_stl", r"\bar r_{\mathrm{LP}} - \bar r_{\mathrm{STL}}"),
        paper_expected=Status.HOLDS,
    ),
    _claim(
        "fig-5c",
        "sparsity-nonmonotonic",
        "the sparsity of STL solutions is nonmonotonic in the number of samples",
        _check_sparsity_nonmonotonic,
        Status.HOLDS,
        quote=(
            "There is an interesting discrepancy between the behavior of the "
            "sparsity of the solutions (nonmonotonic, see Fig. 5c) and the L1 norm "
            "(largely monotonic, see Fig. 5d)."
        ),
        regime=(
            "'nonmonotonic' = STL's mean weight rank at the interior n where it "
            "peaks above its values at the smallest and the largest n"
        ),
        formula=_paired(
            "rank_peak", r"\bar r(n_{\mathrm{peak}}) - \bar r(n_{\mathrm{end}})"
        ),
        paper_expected=Status.HOLDS,
    ),
    _claim(
        "fig-5d",
        "l1-grows-with-samples",
        "the l1 norm of STL solutions increases with the number of training samples",
        _check_l1_grows,
        Status.HOLDS,
        quote=(
            "the L1 norm of the solution increases with the training sample size, "
            "consistent with a bias towards L1 minimization"
        ),
        regime=(
            "'increases' = larger at the largest n than at the smallest (nested "
            "samples); the consecutive steps are reported, not judged: the text "
            "calls the curve 'largely monotonic'"
        ),
        formula=_paired(
            "l1_growth", r"\|\hat\beta\|_1(n_{\max}) - \|\hat\beta\|_1(n_{\min})"
        ),
        paper_expected=Status.HOLDS,
        reading=Reading.PROSE,
    ),
    _claim(
        "fig-5e",
        "ptft-mtl-sparse",
        "the variance of PT+FT and MTL solutions beyond their top k weights falls "
        "rapidly in k, at every overlap: their solutions are sparse",
        _check_ptft_mtl_sparse,
        Status.HOLDS,
        quote=(
            "The rapid decrease in variance demonstrates the sparsity of the learned "
            "solutions both for PT+FT and MTL."
        ),
        regime=(
            "'rapid' = a smaller mean weight rank than linear probing's (Fig. 5c's "
            "dense reference) at every overlap and n"
        ),
        formula=_paired(
            "rank_lp_ptft", r"\bar r_{\mathrm{LP}} - \bar r_{\mathrm{PT+FT}}"
        ),
        paper_expected=Status.HOLDS,
    ),
    _claim(
        "fig-5e",
        "sparser-than-stl-with-overlap",
        "PT+FT and MTL solutions are sparser than STL's when the tasks share features",
        _check_sparser_than_stl,
        Status.INCONCLUSIVE,
        quote=(
            "learned solutions across a range of overlaps are as sparse as using "
            "single-task learning (see Fig. 5c) when task features do not overlap "
            "(0/40 case) and more sparse otherwise"
        ),
        regime=(
            "'more sparse' = a lower mean weight rank than STL's, paired per repeat "
            "and averaged over the n grid, at every overlap s > 0; the 0/40 case is "
            "reported, not judged"
        ),
        formula=_paired(
            "rank_stl_ptft", r"\bar r_{\mathrm{STL}} - \bar r_{\mathrm{PT+FT}}"
        ),
        paper_expected=Status.INCONCLUSIVE,
        expected_reason=Reason.STATISTICAL,
        paper_reason=Reason.STATISTICAL,
    ),
    _claim(
        "fig-5e",
        "as-sparse-as-stl-without-overlap",
        "when the tasks share no features, PT+FT solutions are as sparse as STL's, "
        "read in two finetuning regimes the paper does not state for this figure",
        _check_as_sparse_without_overlap,
        Status.INCONCLUSIVE,
        quote=(
            "learned solutions across a range of overlaps are as sparse as using "
            "single-task learning (see Fig. 5c) when task features do not overlap "
            "(0/40 case)"
        ),
        regime=(
            "'as sparse as' = STL's minus PT+FT's mean weight rank at s = 0, "
            "averaged over the n grid, within 10% of STL's mean rank (a margin of "
            "ours), in two regimes of ours, since the paper states neither the "
            "auxiliary samples nor the rescaling behind Fig. 5e: D/2 auxiliary "
            "samples with rescale 1, and Appendix D's 1024 with rescale 0.1; holds "
            "when both are inside it beyond the critical SE, fails when both are "
            "outside it beyond them; MTL is reported, not judged"
        ),
        formula=sp.Le(
            sp.Abs(measured("rank_gap_disjoint", r"\bar{\Delta}_{s=0}", real=True)),
            _AS_SPARSE
            * measured("rank_stl_disjoint", r"\bar r_{\mathrm{STL}}", positive=True),
            evaluate=False,
        ),
        paper_expected=Status.INCONCLUSIVE,
        expected_reason=Reason.UNDECIDED,
        paper_reason=Reason.UNDECIDED,
        two_regimes=True,
    ),
    _claim(
        "fig-5e",
        "denser-than-stl-without-overlap",
        "when the tasks share no features, PT+FT solutions are less sparse than "
        "STL's: finetuning spreads weight over the auxiliary task's features",
        _check_denser_without_overlap,
        Status.INCONCLUSIVE,
        quote=(
            "learned solutions across a range of overlaps are as sparse as using "
            "single-task learning (see Fig. 5c) when task features do not overlap "
            "(0/40 case)"
        ),
        regime=(
            "the other side of as-sparse-as-stl-without-overlap's gap: PT+FT's mean "
            "weight rank above STL's at s = 0, paired per repeat and averaged over "
            "the n grid, in the same two regimes of ours; holds only if both show it"
        ),
        formula=_paired(
            "rank_ptft_stl", r"\bar r_{\mathrm{PT+FT}} - \bar r_{\mathrm{STL}}"
        ),
        paper_expected=Status.INCONCLUSIVE,
        reading=Reading.EXTENSION,
        expected_reason=Reason.STATISTICAL,
        paper_reason=Reason.STATISTICAL,
        two_regimes=True,
    ),
    _claim(
        "fig-5f",
        "biased-to-share-with-few-samples",
        "with few samples, PT+FT main-task solutions put more of their weight on "
        "the auxiliary task's features than single-task solutions do",
        _check_biased_to_share,
        Status.HOLDS,
        quote=(
            "learned main task solutions are biased to share auxiliary task features "
            "when few samples are available"
        ),
        regime=(
            "'biased to share' = PT+FT's share of squared weight on the auxiliary "
            "features above STL's on the same samples at the smallest n, every "
            "overlap s < F (at s = F the truth lies on them); MTL is reported, not "
            "judged (ours sees the auxiliary task on the main task's n samples, the "
            "paper's on its own 1024)"
        ),
        formula=_paired(
            "overlap_ptft_stl", r"\omega_{\mathrm{PT+FT}} - \omega_{\mathrm{STL}}"
        ),
        paper_expected=Status.HOLDS,
    ),
)
