r"""Figure 1 of adaptive-tangent-features: a harder task, more label alignment.

Figure 1 (printed in Section 3.2, read in Section 3.1) trains an MLP on
targets y and on sign(y) and reports that the harder task has the higher
cosine similarity between the adapted kernel and the label kernel; Section
3.1 reads Theorem 1's eq. (9) as kernel alignment with the label kernel.
Both are decided on this package's synthetic analogue of Appendix B.1
(:mod:`.appendix_b_mnist`): a seed-level mean counts only beyond
:data:`~.appendix_b_mnist.SIGNIFICANCE` standard errors, and Figure 1's
ordering is ``inconclusive`` while its difference is within that many
standard errors of 0 either way. ``verify --profile paper`` runs the claims at
B.1's sizes with the seeds their power calculations ask for.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from implicit_bias.claims.bounds import check_within
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
    conjunction,
)
from implicit_bias.claims.profiles import PowerCalculation
from implicit_bias.sources.adaptive_tangent_features import notation as nt
from implicit_bias.sources.adaptive_tangent_features.appendix_b_mnist import (
    FULL_SEEDS,
    FULL_STUDY,
    OUTSIDE_REGIME,
    PILOT,
    PILOT_SDS,
    QUICK_SEEDS,
    QUICK_STUDY,
    SIGNIFICANCE,
    figure_one_cost,
    figure_one_study,
    mean_and_error,
    paper_configuration,
)
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID

__all__ = ["CLAIMS"]


# --- the alignment with the label kernel, per task and between tasks


def _check_figure_one(seeds: tuple[int, ...], config: dict[str, Any]) -> Verdict:
    study, detail = figure_one_study(seeds, config)
    mean, error = study.mean_difference, study.standard_error
    if mean > SIGNIFICANCE * error:
        return Verdict.holds(f"{detail}: above {SIGNIFICANCE:g} SE", Basis.STATISTICAL)
    if mean < -SIGNIFICANCE * error:
        return Verdict.inconclusive(
            f"{detail}: the difference is {mean / error:+.1f} SE, reversed beyond "
            f"{SIGNIFICANCE:g} SE; {OUTSIDE_REGIME}",
            Reason.UNDECIDED,
            Basis.STATISTICAL,
        )
    # Neither ordering is resolved: the data cannot refute the paper's MNIST claim.
    return Verdict.inconclusive(
        f"{detail}: the difference is {mean / error:+.1f} SE, within "
        f"{SIGNIFICANCE:g} SE of 0 (no ordering resolved)",
        Reason.STATISTICAL,
        Basis.STATISTICAL,
    )


#: The range of a gain of alignment with the label kernel: K, K0 and K_y are
#: positive semidefinite, so their cosines (Frobenius) lie in [0, 1] and
#: cos(K, K_y) - cos(K0, K_y) in [-1, 1].
_LARGEST_GAIN = 1.0


def _check_alignment_grows(seeds: tuple[int, ...], config: dict[str, Any]) -> Verdict:
    study, detail = figure_one_study(seeds, config)
    parts, gains, shrinks = [], [], False
    for task in ("linear", "sign"):
        gain = study.values(f"{task}_alignment") - study.values(
            f"{task}_initial_alignment"
        )
        mean, error = mean_and_error(gain)
        # The gain counts beyond SIGNIFICANCE SE of 0, up to its range's end.
        gains.append(
            check_within(
                mean,
                SIGNIFICANCE * error,
                _LARGEST_GAIN,
                what=f"{task}: mean of cos(K, K_y) - cos(K0, K_y)",
                basis=Basis.STATISTICAL,
            )
        )
        shrinks = shrinks or mean < -SIGNIFICANCE * error
        parts.append(f"{task}: cos(K, K_y) - cos(K0, K_y) = {mean:.3f} +- {error:.3f}")
    text = (
        f"{detail}; {'; '.join(parts)} (needs > {SIGNIFICANCE:g} SE each, up to "
        f"the range's end {_LARGEST_GAIN:g})"
    )
    grows = conjunction(gains, "; ".join(g.detail for g in gains))
    if grows.status == Status.HOLDS:
        return Verdict.holds(f"{text}: {grows.detail}", Basis.STATISTICAL)
    if shrinks:
        return Verdict.inconclusive(
            f"{text}: a loss of alignment beyond {SIGNIFICANCE:g} SE; {OUTSIDE_REGIME}",
            Reason.UNDECIDED,
            Basis.STATISTICAL,
        )
    return Verdict.inconclusive(
        f"{text}: a gain within {SIGNIFICANCE:g} SE of 0 ({grows.detail})",
        Reason.STATISTICAL,
        Basis.STATISTICAL,
    )


# --- the paper profile: power calculations and what a run here gave

#: B.1 shows one network per task and prints the cosine similarities inside
#: the Figure 1 image only (the text states the ordering): 0.05 in cosine
#: similarity is our smallest effect of interest for an alignment comparison.
_ALIGNMENT_EFFECT = 0.05
_FIGURE_ONE_POWER = PowerCalculation(
    effect=_ALIGNMENT_EFFECT,
    effect_quote=(
        "Figure 1: 'The harder task of regression with binarized labels has a "
        "higher label kernel alignment'; the text gives the ordering only (the "
        "values are inside the figure image), 0.05 in cosine similarity is our "
        "smallest effect of interest"
    ),
    pilot_sd=PILOT_SDS["difference"],
    pilot_seeds=len(FULL_SEEDS),
    pilot=PILOT,
    z=SIGNIFICANCE,
)
_ALIGNMENT_POWER = PowerCalculation(
    effect=_ALIGNMENT_EFFECT,
    effect_quote=(
        "Sec. 3.1: 'we observe kernel alignment with the label kernel' when "
        "s^2 - 1 >> 0 (eq. 9), shown in Figure 1 without a value in the text; "
        "0.05 in cosine similarity is our smallest effect of interest (the "
        "larger sd of the two tasks' gains)"
    ),
    pilot_sd=max(PILOT_SDS["linear_gain"], PILOT_SDS["sign_gain"]),
    pilot_seeds=len(FULL_SEEDS),
    pilot=PILOT,
    z=SIGNIFICANCE,
)


#: What the paper configuration of figure-1-alignment gave here.
_FIGURE_ONE_RUN = (
    "Run here (736 CPU s, 41 min wall on a shared machine; 12/12 runs converged "
    "within ~50 steps): cos(K, K_y) = 0.070 +- 0.006 for y, 0.112 +- 0.004 for "
    "sign(y), paired difference 0.0413 +- 0.0067 (6.2 SE): Figure 1's ordering "
    "at B.1's sizes, in our synthetic analogue"
)


# --- formulas: what each check compares, for the ledger


def _formula_figure1() -> sp.Basic:
    return sp.Gt(nt.alignment_sign, nt.alignment_linear)


def _formula_kernel_alignment() -> sp.Basic:
    return sp.Gt(nt.alignment_adapted, nt.alignment_initial)


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "sec-3.1",
        "figure-1-alignment",
        Kind.SIMULATION,
        "a more difficult task (binarized targets sign(y), poorly represented by "
        "the initial tangent features) yields a higher cosine similarity of the "
        "adapted kernel with the label kernel than the linear targets y "
        "(Figure 1)",
        lambda: _check_figure_one(QUICK_SEEDS, QUICK_STUDY),
        Status.INCONCLUSIVE,
        cost=lambda: figure_one_cost(QUICK_SEEDS, QUICK_STUDY),
        paper=paper_configuration(
            _check_figure_one,
            _FIGURE_ONE_POWER,
            Status.HOLDS,
            None,
            _FIGURE_ONE_RUN,
        ),
        quote=(
            "The harder task of regression with binarized labels has a higher label "
            "kernel alignment."
        ),
        reading=Reading.PROSE,
        regime=(
            "our synthetic analogue of B.1 (two Gaussian classes, N = 40, D = 6, "
            "widths 24, 24, full-batch GD, 6 seeds), not the source's MNIST setting "
            "(N = 500, 3 x 128 units, SGD)"
        ),
        expected_reason=Reason.STATISTICAL,
        assumptions=(
            "synthetic two-class data instead of MNIST; small MLP; full-batch GD",
            f"effect counted beyond {SIGNIFICANCE:g} standard errors",
        ),
        budget_seconds=60.0,
        formula=_formula_figure1,
    ),
    Claim(
        SOURCE_ID,
        "sec-3.1",
        "kernel-alignment",
        Kind.SIMULATION,
        (
            r"training aligns the adapted kernel with the label kernel: $\cos(K, "
            r"K_{\hat y})$ exceeds $\cos(K_0, K_{\hat y})$ for both the linear and the "
            "binarized targets (the kernel alignment that Theorem 1's eq. (9) "
            "predicts, without the ordering between tasks)"
        ),
        lambda: _check_alignment_grows(QUICK_SEEDS, QUICK_STUDY),
        Status.HOLDS,
        cost=lambda: figure_one_cost(QUICK_SEEDS, QUICK_STUDY),
        paper=paper_configuration(
            _check_alignment_grows,
            _ALIGNMENT_POWER,
            Status.HOLDS,
            None,
            "Run here (965 CPU s, 24 min wall; 16/16 runs converged within ~50 "
            "steps): cos(K, K_y) - cos(K0, K_y) = 0.034 +- 0.003 for y, 0.090 +- "
            "0.004 for sign(y)",
        ),
        quote=(
            "This kernel alignment effect has been empirically observed in real "
            "neural networks that depart from the lazy-training regime"
        ),
        reading=Reading.INTERPRETATION,
        regime=(
            "the synthetic analogue of figure-1-alignment, 6 seeds; 'kernel "
            "alignment' read as cos(K, K_y) > cos(K0, K_y) by 3 SE"
        ),
        assumptions=(
            "synthetic two-class data instead of MNIST; small MLP; full-batch GD",
            f"effect counted beyond {SIGNIFICANCE:g} standard errors",
        ),
        budget_seconds=60.0,
        formula=_formula_kernel_alignment,
    ),
    Claim(
        SOURCE_ID,
        "sec-3.1",
        "figure-1-alignment-full",
        Kind.SIMULATION,
        "Figure 1's comparison in a larger configuration (N = 100, D = 10, "
        "widths 48, 48, 50 path nodes as in B.1, 16 seeds)",
        lambda: _check_figure_one(FULL_SEEDS, FULL_STUDY),
        Status.INCONCLUSIVE,
        cost=lambda: figure_one_cost(FULL_SEEDS, FULL_STUDY),
        paper=paper_configuration(
            _check_figure_one,
            _FIGURE_ONE_POWER,
            Status.HOLDS,
            None,
            "Run here (745 CPU s, 17 min wall): the same configuration and "
            "verdict as figure-1-alignment's: paired difference 0.0413 +- 0.0067",
        ),
        quote=(
            "The harder task of regression with binarized labels has a higher label "
            "kernel alignment."
        ),
        reading=Reading.PROSE,
        regime=(
            "a larger synthetic analogue (N = 100, D = 10, widths 48, 48, 50 path "
            "nodes, 16 seeds), still not the source's MNIST setting"
        ),
        expected_reason=Reason.STATISTICAL,
        assumptions=("as figure-1-alignment",),
        slow=True,
        budget_seconds=900.0,
        formula=_formula_figure1,
    ),
)
