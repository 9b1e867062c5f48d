r"""Claims of ptft-diagonal-networks: Appendix G, Fig. 8a-c, ReLU networks' PR.

Appendix G: "networks in the rich regime, which are biased towards sparse
solutions, learn representations with lower PR than networks in the lazy
regime, which are not biased toward sparse solutions (Fig. 8a)". The
representation is the hidden layer's, :math:`(\langle w_h^{(1)}, x\rangle)_+`
on fresh Gaussian inputs, its participation ratio
:func:`~implicit_bias.numerics.participation_ratio`; the networks are those
of :mod:`.appendix_e2` (the same experiment,
:func:`~implicit_bias.validation.relu_feature_clusters.feature_clusters`),
compared paired over seeds as there.

Fig. 8b-c: PR before and after finetuning on the nested-sparsity task, and
the ENSD between the two representations, at three rescalings of the
pretrained weights. The text fixes the task -- the main task is one of the
six auxiliary features ("the ground-truth main task consists of a single
auxiliary task features", Appendix E.2.3; Fig. 6f: "one of the six
ground-truth features used in the auxiliary task (as in Fig. 2e,f)") -- and
the rescalings 1.0 (nested feature selection) and 10.0 (lazy); 0.1 is its
"rich-regime-like" factor (Appendix E.2.3). The rest is ours:
:class:`~implicit_bias.validation.relu_nested_finetuning.NestedFinetuningSetup`'s
defaults: networks pretrained as Fig. 6 and 8a's rich ones at n = 1024, 256
main-task samples, 20000 steps. The seeds are 24, not Fig. 8a's 8, and the
count was raised after a first look: with 8 the decrease at s = 1 was +3.5 SE
against :math:`t^* = 4.53` (a review's run), too few to resolve it either
way; 24 seeds raise the expected t by :math:`\sqrt 3` (+5.6 SE recorded),
and every claim here was judged once on them. Every
comparison is paired over the seeds, against :math:`t^*` as in
:mod:`.appendix_e2` (:math:`t^* = 3.36` for 24 seeds). The claims are slow
(the experiment takes about 2 minutes).

Two words need a scale, and both get one order of magnitude, our reading:
"almost identical" is a mean ratio ENSD / PR(FT) within a tenth of 1 (two
one-sided comparisons); "no dimensionality decrease" of the lazy networks,
"by contrast" with the nested ones, is a decrease less than a tenth of
theirs, judged only when theirs is itself resolved.

Findings (master seed 0, 24 seeds): PR(PT) 4.73; the decrease is +53 SE at
s = 0.1, +5.6 SE at s = 1 (0.23) and none at s = 10 (-1e-5 +- 2e-5); the
ENSD is within a tenth of PR(FT) at s = 1 (+22.6 SE) and s = 10, but at
s = 0.1, where PR(FT) is about 1.04, the mean ratio 0.99 is within a tenth by
only +2.9 SE on its lower side: inconclusive there.

Fig. 8d is ResNet18 on ImageNet and CIFAR (not checkable here: see the
source's inventory).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import sympy as sp

from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
)
from implicit_bias.claims.profiles import CostEstimate
from implicit_bias.sources.ptft_diagonal_networks.appendix_e2 import (
    CONVERGED,
    SE_PAIRED,
    SETUP,
    T_CRITICAL,
    all_hold,
    cluster_cost,
    compare,
    convergence,
    relu_step_seconds,
)
from implicit_bias.sources.ptft_diagonal_networks.source import SOURCE_ID, measured
from implicit_bias.validation.relu_feature_clusters import feature_clusters
from implicit_bias.validation.relu_nested_finetuning import (
    NestedFinetuning,
    NestedFinetuningSetup,
    nested_finetuning,
)

__all__ = ["CLAIMS"]

#: The n compared: the grid of :data:`.appendix_e2.SETUP` without its largest,
#: where the lazy networks have not all converged in 20000 steps.
_SIZES = SETUP.sample_sizes[:-1]


def _check_rich_lower_pr() -> Verdict:
    result = feature_clusters(SETUP, sample_sizes=_SIZES)
    converged, words = convergence(result)
    pr = result.participation_ratio
    parts = [
        compare(pr[1, i] - pr[0, i], f"n = {n}: PR(lazy) - PR(rich)", converged)
        for i, n in enumerate(result.sample_sizes)
    ]
    means = np.round(pr.mean(axis=-1), 3).tolist()
    return all_hold(
        parts,
        f"rich/lazy networks, n = {list(result.sample_sizes)}, {SETUP.seeds} "
        "seeds, PR of the "
        f"hidden layer on {SETUP.test_samples} fresh inputs; mean PR (rich, lazy "
        f"rows) {means}; {words}",
    )


#: The finetuning experiment of Fig. 8b-c (module docstring).
FINETUNING = NestedFinetuningSetup()
#: "Almost identical" and "no decrease by contrast": within a tenth (module
#: docstring).
_TENTH = 0.1


def _finetuned() -> tuple[NestedFinetuning, bool, str]:
    result = nested_finetuning(FINETUNING)
    worst = float(max(result.relative_loss.max(), result.pretraining_loss.max()))
    converged = worst <= CONVERGED
    words = (
        f"runs {'converged' if converged else 'not all converged'} (largest final "
        f"relative training loss {worst:.1e}; criterion <= {CONVERGED:g})"
    )
    means = np.round(result.finetuned_pr.mean(axis=-1), 3).tolist()
    setting = (
        f"pretrained PR {result.pretrained_pr.mean():.3f} (mean of "
        f"{FINETUNING.pretraining.seeds} seeds); finetuned PR at rescalings "
        f"{list(FINETUNING.rescalings)}: {means}; {words}"
    )
    return result, converged, setting


def _index(rescaling: float) -> int:
    return FINETUNING.rescalings.index(rescaling)


def _check_pr_decreases(rescaling: float) -> Callable[[], Verdict]:
    def check() -> Verdict:
        result, converged, setting = _finetuned()
        decrease = result.pretrained_pr - result.finetuned_pr[_index(rescaling)]
        part = compare(decrease, f"s = {rescaling:g}: PR(PT) - PR(FT)", converged)
        return all_hold([part], setting)

    return check


def _check_lazy_no_decrease() -> Verdict:
    result, converged, setting = _finetuned()
    nested = result.pretrained_pr - result.finetuned_pr[_index(1.0)]
    lazy = result.pretrained_pr - result.finetuned_pr[_index(10.0)]
    reference = compare(nested, "s = 1: PR(PT) - PR(FT)", converged)
    if reference[0].status != Status.HOLDS:
        # The contrast needs a decrease to contrast with: without one the
        # reading has no scale, and the claim is not judged.
        return Verdict.inconclusive(
            f"{setting}: no decrease at s = 1 to contrast with: {reference[1]}",
            Reason.STATISTICAL,
            Basis.STATISTICAL,
        )
    part = compare(
        _TENTH * nested - lazy,
        "0.1 [PR(PT) - PR(FT)](s = 1) - [PR(PT) - PR(FT)](s = 10)",
        converged,
    )
    return all_hold([reference, part], setting)


def _check_ensd_matches_finetuned_pr(
    rescalings: tuple[float, ...],
) -> Callable[[], Verdict]:
    def check() -> Verdict:
        result, converged, setting = _finetuned()
        ratio = result.shared_dimensions / result.finetuned_pr
        # Equivalence as two one-sided comparisons: the mean ratio is above
        # 1 - 1/10 and below 1 + 1/10, each beyond t* SE.
        parts = [
            compare(side, f"s = {s:g}: {words}", converged)
            for s in rescalings
            for side, words in (
                (ratio[_index(s)] - (1 - _TENTH), "ENSD(PT, FT) / PR(FT) - 0.9"),
                ((1 + _TENTH) - ratio[_index(s)], "1.1 - ENSD(PT, FT) / PR(FT)"),
            )
        ]
        means = np.round(result.shared_dimensions.mean(axis=-1), 3).tolist()
        return all_hold(parts, f"{setting}; mean ENSD(PT, FT) {means}")

    return check


def _check_small_scaling_lower_pr() -> Verdict:
    result, converged, setting = _finetuned()
    pr = result.finetuned_pr
    part = compare(
        pr[_index(1.0)] - pr[_index(0.1)],
        "PR(FT)(s = 1) - PR(FT)(s = 0.1)",
        converged,
    )
    return all_hold([part], setting)


def _finetuning_cost() -> CostEstimate:
    """The pretraining (24 seeds: not Fig. 8a's run) and the three
    finetunings, at the measured CPU seconds of a batched step of each."""
    base = FINETUNING.pretraining
    s, d, h = base.seeds, base.dimension, base.width
    seconds = [
        relu_step_seconds(s, n, d, h)
        for n in (base.sample_sizes[-1], FINETUNING.main_samples)
    ]
    runs = 1 + len(FINETUNING.rescalings)
    total = base.steps * seconds[0] + len(FINETUNING.rescalings) * (
        FINETUNING.steps * seconds[1]
    )
    return CostEstimate.of_training(
        runs,
        FINETUNING.steps,
        total / (runs * FINETUNING.steps),
        f"pretraining {base.steps} batched steps of {s} networks on "
        f"{base.sample_sizes[-1]} samples at {seconds[0] * 1e3:.3g} ms, then "
        f"{len(FINETUNING.rescalings)} x {FINETUNING.steps} on "
        f"{FINETUNING.main_samples} at {seconds[1] * 1e3:.3g} ms; fixed step "
        "counts, no early stop",
    )


_GAP = measured("pr_gap", r"\overline{PR^{\mathrm{lazy}} - PR^{\mathrm{rich}}}(n)")
_FORMULA = sp.Gt(_GAP, T_CRITICAL * SE_PAIRED, evaluate=False)
_DECREASE = measured("pr_decrease", r"\overline{PR_{PT} - PR_{FT}}(s)")
_LAZY_MARGIN = measured(
    "lazy_decrease_margin",
    r"\overline{\tfrac{1}{10}\Delta PR(s{=}1) - \Delta PR(s{=}10)}",
)
_ENSD_RATIO = measured("ensd_ratio", r"\overline{ENSD_{PT,FT} / PR_{FT}}(s)")
_FT_STEP = measured(
    "finetuned_pr_step", r"\overline{PR_{FT}(s{=}1) - PR_{FT}(s{=}0.1)}"
)


def _significant(symbol: sp.Symbol) -> Callable[[], sp.Basic]:
    return lambda: sp.Gt(symbol, T_CRITICAL * SE_PAIRED, evaluate=False)


def _lazy_formula() -> sp.Basic:
    return sp.And(
        sp.Gt(_DECREASE, T_CRITICAL * SE_PAIRED),
        sp.Gt(_LAZY_MARGIN, T_CRITICAL * SE_PAIRED),
    )


def _within_a_tenth() -> sp.Basic:
    return sp.And(
        sp.Gt(_ENSD_RATIO - sp.Rational(9, 10), T_CRITICAL * SE_PAIRED),
        sp.Gt(sp.Rational(11, 10) - _ENSD_RATIO, T_CRITICAL * SE_PAIRED),
    )


_FINETUNING_ASSUMPTIONS = (
    "pretrained: the rich networks of Fig. 6 and 8a at n = 1024 (six-unit "
    "teacher, d = 10, width 32, init 1e-2, 20000 steps at 0.2), 24 seeds",
    "main task: one of the teacher's six units, readout 1, 256 fresh samples",
    "hidden weights x s in {0.1, 1, 10}, readouts re-initialized N(0, 1e-4); "
    "20000 steps at 0.2 / max(1, s^2)",
    "PR and ENSD of (<w1_h, x>)_+ on 1000 fresh inputs, mean-centred",
    "paired over 24 seeds, significant beyond the t equivalent of 3 SE",
)
_FINETUNING_REGIME = (
    "our protocol (module docstring of appendix_g_figure_8): rich networks "
    "pretrained on six teacher units, rescaled by s, finetuned on one of the "
    "six with 256 samples; paired over 24 seeds, significant beyond t* = 3.36 "
    "SE"
)
_B_QUOTE = (
    "Networks that we identified as being in the “nested feature selection” "
    "regime (weights rescaled by 1.0 following pre-training), and also networks "
    "in the rich regime, exhibit decreased PR following finetuning (Fig. 8b). By "
    "contrast, lazy networks (weights rescaled by 10.0 following pretraining) "
    "exhibit no dimensionality decrease during finetuning."
)
_C_QUOTE = (
    "Additionally (see Fig. 8c), the ENSD between pretrained (PT) and "
    "finetuned (FT) networks is almost identical to the dimensionality of the "
    "finetuned representation (PR FT)."
)


def _finetuning_claim(
    equation: str,
    label: str,
    statement: str,
    check: Callable[[], Verdict],
    formula: Callable[[], sp.Basic],
    quote: str,
    reading: Reading,
    regime: str,
    expected: Status = Status.HOLDS,
) -> Claim:
    return Claim(
        SOURCE_ID,
        equation,
        label,
        Kind.SIMULATION,
        statement,
        check,
        expected,
        cost=_finetuning_cost,
        expected_reason=Reason.STATISTICAL if expected == Status.INCONCLUSIVE else None,
        formula=formula,
        assumptions=_FINETUNING_ASSUMPTIONS,
        slow=True,
        budget_seconds=600.0,
        quote=quote,
        reading=reading,
        regime=f"{regime}; {_FINETUNING_REGIME}",
    )


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "fig-8a",
        "rich-lower-participation-ratio",
        Kind.SIMULATION,
        "rich-regime networks learn hidden representations of lower participation "
        "ratio than lazy-regime networks, on a six-unit teacher",
        _check_rich_lower_pr,
        Status.HOLDS,
        cost=cluster_cost(("rich", "lazy"), _SIZES),
        formula=lambda: _FORMULA,
        assumptions=(
            "six teacher units, d = 10, Gaussian inputs, width 32, no biases",
            "init 1e-2 (rich) / 1 (lazy), 20000 steps at 0.2 / 0.02",
            "PR of (<w1_h, x>)_+ on 1000 fresh inputs, mean-centred",
            "paired over 8 seeds, significant beyond the t equivalent of 3 SE",
        ),
        budget_seconds=120.0,
        quote=(
            "networks in the rich regime, which are biased towards sparse "
            "solutions, learn representations with lower PR than networks in the "
            "lazy regime, which are not biased toward sparse solutions (Fig. 8a)"
        ),
        reading=Reading.PROSE,
        regime=(
            f"the networks of Fig. 6a-b's claims at every n in {list(_SIZES)} "
            "(module docstring of appendix_e2: six-unit teacher, d = 10, width "
            "32, init 1e-2 / 1, 20000 steps, 8 seeds); paired over seeds, "
            "significant beyond t* = 4.53 SE"
        ),
    ),
    _finetuning_claim(
        "fig-8b",
        "nested-regime-pr-decreases",
        "networks whose pretrained weights are rescaled by 1.0 (the nested feature "
        "selection regime) have a lower participation ratio after finetuning on "
        "a nested task than after pretraining",
        _check_pr_decreases(1.0),
        _significant(_DECREASE),
        _B_QUOTE,
        Reading.PROSE,
        "s = 1; 'decreased PR' read as PR(PT) - PR(FT) > 0",
    ),
    _finetuning_claim(
        "fig-8b",
        "rich-regime-pr-decreases",
        "networks whose pretrained weights are rescaled by 0.1 (the rich regime) "
        "have a lower participation ratio after finetuning on a nested task than "
        "after pretraining",
        _check_pr_decreases(0.1),
        _significant(_DECREASE),
        _B_QUOTE,
        Reading.INTERPRETATION,
        "s = 0.1, our reading of 'networks in the rich regime' (Appendix E.2.3 "
        "calls the factor 0.1 'a signature of rich-regime-like behavior'; the "
        "sentence quoted names no factor)",
    ),
    _finetuning_claim(
        "fig-8b",
        "lazy-no-decrease",
        "networks whose pretrained weights are rescaled by 10.0 (the lazy regime) "
        "show no dimensionality decrease during finetuning: less than a tenth of "
        "the decrease at rescaling 1.0",
        _check_lazy_no_decrease,
        _lazy_formula,
        _B_QUOTE,
        Reading.INTERPRETATION,
        "s = 10 against s = 1; 'no dimensionality decrease', 'by contrast' with "
        "the nested networks, read as a decrease below a tenth of theirs, judged "
        "only when theirs is resolved (else inconclusive); at s = 10 the step is "
        "0.2 / 100 and the hidden layer barely moves, so the margin is about a "
        "tenth of the nested decrease",
    ),
    _finetuning_claim(
        "fig-8c",
        "ensd-matches-finetuned-pr",
        "at rescalings 1.0 and 10.0, the effective number of shared dimensions "
        "between the pretrained and the finetuned representation is almost "
        "identical to the participation ratio of the finetuned one",
        _check_ensd_matches_finetuned_pr((1.0, 10.0)),
        _within_a_tenth,
        _C_QUOTE,
        Reading.INTERPRETATION,
        "s = 1 and 10; 'almost identical' read as a mean ratio ENSD / PR(FT) "
        "within a tenth of 1 (both one-sided comparisons significant)",
    ),
    _finetuning_claim(
        "fig-8c",
        "ensd-matches-finetuned-pr-rich",
        "at rescaling 0.1, the effective number of shared dimensions between the "
        "pretrained and the finetuned representation is almost identical to the "
        "participation ratio of the finetuned one",
        _check_ensd_matches_finetuned_pr((0.1,)),
        _within_a_tenth,
        _C_QUOTE,
        Reading.INTERPRETATION,
        "s = 0.1, as the claim at s = 1 and 10; there PR(FT) is about 1.04 and "
        "the per-seed ratio varies by about 0.14, so the mean ratio (0.99) is "
        "within a tenth by only +2.9 SE on its lower side: inconclusive",
        Status.INCONCLUSIVE,
    ),
    _finetuning_claim(
        "fig-8c",
        "small-scaling-lower-pr",
        "finetuning after rescaling the pretrained weights by 0.1 leaves a lower "
        "participation ratio than finetuning them unscaled (1.0)",
        _check_small_scaling_lower_pr,
        _significant(_FT_STEP),
        "Small weight scaling decreases the participation ratio after training.",
        Reading.INTERPRETATION,
        "s = 0.1 against s = 1 (the unscaled network); 'small' read as 0.1, "
        "the text's rich-regime-like factor",
    ),
)
