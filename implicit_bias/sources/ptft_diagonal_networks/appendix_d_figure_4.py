r"""Claims of ptft-diagonal-networks: Appendix D, Fig. 4b, PT+FT against STL.

Appendix D: "we repeated the experiments of Fig. 2a with 8192 auxiliary task
samples and 40 ground-truth features. [...] Further, MTL and PT+FT tend to
outperform STL if the features are overlapping and MTL tends to outperform
PT+FT (Fig. 4b)." The claims (equation ``fig-4b``, the panel) check the
PT+FT half of the first statement on
:func:`~implicit_bias.validation.relu_feature_overlap.feature_overlap`, STL
and PT+FT ReLU networks on main tasks sharing 0, 20 or 40 of the auxiliary
teacher's 40 units: PT+FT generalizes better where features are shared
(20/40 and 40/40), and -- our reading of "if", as a contrast -- better by
more at 40/40 than at 0/40. Each comparison is paired over seeds, decided as
the Fig. 6 claims' are (:func:`.appendix_e2.compare`: beyond the Student-t
equivalent of :data:`~._thresholds.SIGNIFICANCE` SE; a reversal only with
every run converged). "Tend to" is read as: ``holds`` when every setting
judged holds, ``fails`` only when every one is reversed.

The text gives the 8192 auxiliary samples and the 40 features; the rest is
the main text's (Fig. 2a) and ours, fixed before the claims were judged:
d = 16, width 64, initialization :math:`10^{-2}`, 4000 full-batch steps of
0.05 in every phase (0.2, the step of the six-unit experiments, diverges on
the 40-unit teacher's larger targets), main tasks of 64 and 256 samples, 6
seeds. In this protocol PT+FT beats STL even with no shared feature (the
teachers' readouts are all 1, so every teacher has a large common part),
which the first claim reports without judging (the text states no comparison
there) and the second weighs.

Findings (master seed 0): STL - PT+FT error gaps of +7.9 to +29.6 SE at
20/40 and 40/40 shared features (n = 64, 256), and +10.7 / +5.7 SE with none
shared; the gap at 40/40 exceeds that at 0/40 by +10 SE at n = 256 but by
+0.8 SE at n = 64: the contrast is inconclusive.

Not encoded: Fig. 4a (rich against lazy networks by the teacher's sparsity:
which teachers are "sparse" depends on sizes the text does not give, and a
pilot of ours changed verdict with them), and the MTL curves of Fig. 4b
(multi-output ReLU networks, which the validation layer does not train).
"""

from __future__ import annotations

import math
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
    T_CRITICAL,
    all_hold,
    compare,
    relu_step_seconds,
)
from implicit_bias.sources.ptft_diagonal_networks.source import SOURCE_ID, measured
from implicit_bias.validation.relu_feature_overlap import (
    FeatureOverlap,
    FeatureOverlapSetup,
    feature_overlap,
)

__all__ = ["CLAIMS", "SETUP"]

#: The experiment of the claim (module docstring).
SETUP = FeatureOverlapSetup()


def _run() -> tuple[FeatureOverlap, np.ndarray, bool, str]:
    """The experiment, the paired gaps error(STL) - error(PT+FT) (O, N, S),
    whether every run converged, and the setting in words."""
    result = feature_overlap(SETUP)
    losses = (result.stl_loss, result.ptft_loss, result.pretraining_loss)
    worst = float(max(loss.max() for loss in losses))
    converged = worst <= CONVERGED
    stl = np.round(result.stl_error.mean(axis=-1), 4).tolist()
    ptft = np.round(result.ptft_error.mean(axis=-1), 4).tolist()
    state = "converged" if converged else "not all converged"
    setting = (
        f"{SETUP.seeds} seeds, overlaps {list(SETUP.overlaps)} of "
        f"{SETUP.teacher_units}, n = {list(SETUP.sample_sizes)}; mean relative "
        f"test error STL {stl}, PT+FT {ptft} (rows: overlaps); runs {state} "
        f"(largest final relative training loss {worst:.1e}; criterion <= "
        f"{CONVERGED:g})"
    )
    return result, result.stl_error - result.ptft_error, converged, setting


def _tends(parts: list[tuple[Verdict, str]], detail: str) -> Verdict:
    """ "Tend to": ``holds`` when every part holds, ``fails`` only when every
    part fails (a reversal everywhere), else ``inconclusive``."""
    if parts and all(verdict.status == Status.FAILS for verdict, _ in parts):
        lines = "; ".join(line for _, line in parts)
        return Verdict.fails(
            f"{detail}: {lines}", Basis.STATISTICAL, parts[0][0].counterexample
        )
    if any(verdict.status == Status.FAILS for verdict, _ in parts):
        # A reversal in some settings only: not a refutation of a tendency.
        parts = [
            (
                Verdict.inconclusive(line, Reason.STATISTICAL, Basis.STATISTICAL)
                if verdict.status == Status.FAILS
                else verdict,
                line,
            )
            for verdict, line in parts
        ]
    return all_hold(parts, detail)


def _check_ptft_beats_stl_with_overlap() -> Verdict:
    _, gap, converged, setting = _run()
    k = SETUP.teacher_units
    parts = [
        compare(
            gap[i, j],
            f"{o}/{k} shared, n = {n}: error(STL) - error(PT+FT)",
            converged,
        )
        for i, o in enumerate(SETUP.overlaps)
        if o > 0
        for j, n in enumerate(SETUP.sample_sizes)
    ]
    # Reported, not decided: no check_positive, so mutation testing does not
    # shift a comparison the verdict does not rest on.
    unshared = [
        f"0/{k} shared, n = {n}: mean {gap[i, j].mean():.4g} +- "
        f"{gap[i, j].std(ddof=1) / math.sqrt(SETUP.seeds):.3g} (SE)"
        for i, o in enumerate(SETUP.overlaps)
        if o == 0
        for j, n in enumerate(SETUP.sample_sizes)
    ]
    return _tends(
        parts,
        f"{setting}; not judged (no shared feature, on which the text states "
        f"no comparison): [{'; '.join(unshared) or 'none run'}]; judged",
    )


def _check_benefit_grows_with_overlap() -> Verdict:
    _, gap, converged, setting = _run()
    k, overlaps = SETUP.teacher_units, SETUP.overlaps
    first, last = overlaps.index(min(overlaps)), overlaps.index(max(overlaps))
    parts = [
        compare(
            gap[last, j] - gap[first, j],
            f"n = {n}: gap at {overlaps[last]}/{k} - gap at {overlaps[first]}/{k}",
            converged,
        )
        for j, n in enumerate(SETUP.sample_sizes)
    ]
    return _tends(parts, f"{setting}; gap = error(STL) - error(PT+FT)")


def _cost() -> CostEstimate:
    """The pretraining and the two arms at each n, at the measured CPU seconds
    of a batched step of each."""
    s, d, h = SETUP.seeds, SETUP.dimension, SETUP.width
    arms = 2 * len(SETUP.overlaps) * s
    total = sum(
        SETUP.steps * relu_step_seconds(count, n, d, h)
        for count, n in (
            (s, SETUP.aux_samples),
            *((arms, n) for n in SETUP.sample_sizes),
        )
    )
    runs = 1 + len(SETUP.sample_sizes)
    return CostEstimate.of_training(
        runs,
        SETUP.steps,
        total / (runs * SETUP.steps),
        f"pretraining {s} networks on {SETUP.aux_samples} samples, then {arms} "
        f"(STL and PT+FT) at each n of {list(SETUP.sample_sizes)}; fixed step "
        "counts, no early stop",
    )


#: Trainer steps per timed call of :func:`_cost`.
_TIMED_STEPS = 5

_GAP = measured(
    "ptft_error_gap", r"\overline{e^{\mathrm{STL}} - e^{\mathrm{PT+FT}}}(o, n)"
)

_GROWTH = measured(
    "ptft_gap_growth",
    r"\overline{(e^{\mathrm{STL}} - e^{\mathrm{PT+FT}})(40) - "
    r"(e^{\mathrm{STL}} - e^{\mathrm{PT+FT}})(0)}(n)",
)
_ASSUMPTIONS = (
    "40 teacher units uniform on the sphere, readouts 1, d = 16, Gaussian "
    "inputs, 8192 auxiliary samples",
    "main teacher: o of the auxiliary units and 40 - o fresh ones, o in {0, 20, 40}",
    "width 64, no biases, init 1e-2, PT+FT readouts reset to 0, 4000 "
    "steps of 0.05 in every phase",
    "relative test error on 2000 fresh inputs, paired over 6 seeds, "
    "significant beyond the t equivalent of 3 SE",
)
_QUOTE = (
    "Further, MTL and PT+FT tend to outperform STL if the features are "
    "overlapping and MTL tends to outperform PT+FT (Fig. 4b)."
)
_PROTOCOL = (
    "our protocol (module docstring of appendix_d_figure_4): the text's 40 "
    "features and 8192 auxiliary samples, d = 16, width 64, init 1e-2, 4000 "
    "steps of 0.05, n in {64, 256}; paired over 6 seeds, t* = 5.51; 'tend to' "
    "read as: holds when every setting judged holds, fails only when every "
    "one is reversed"
)


def _claim(
    label: str,
    statement: str,
    check: Callable[[], Verdict],
    formula: sp.Symbol,
    reading: Reading,
    regime: str,
    expected: Status,
) -> Claim:
    return Claim(
        SOURCE_ID,
        "fig-4b",
        label,
        Kind.SIMULATION,
        statement,
        check,
        expected,
        cost=_cost,
        expected_reason=Reason.STATISTICAL if expected == Status.INCONCLUSIVE else None,
        formula=lambda: sp.Gt(formula, T_CRITICAL * SE_PAIRED, evaluate=False),
        assumptions=_ASSUMPTIONS,
        slow=True,
        budget_seconds=600.0,
        quote=_QUOTE,
        reading=reading,
        regime=f"{regime}; {_PROTOCOL}",
    )


CLAIMS: tuple[Claim, ...] = (
    _claim(
        "ptft-beats-stl-with-overlap",
        "on a 40-unit teacher with 8192 auxiliary samples, PT+FT ReLU networks "
        "generalize better than STL ones when main and auxiliary tasks share "
        "features",
        _check_ptft_beats_stl_with_overlap,
        _GAP,
        Reading.PROSE,
        "the PT+FT half of the statement (MTL not simulated), at 20/40 and 40/40 "
        "shared features (0/40 reported, not judged)",
        Status.HOLDS,
    ),
    _claim(
        "ptft-benefit-grows-with-overlap",
        "on a 40-unit teacher with 8192 auxiliary samples, the benefit of PT+FT "
        "over STL is larger when all 40 features are shared than when none is",
        _check_benefit_grows_with_overlap,
        _GROWTH,
        Reading.INTERPRETATION,
        "'if the features are overlapping' read as a contrast: the gap "
        "error(STL) - error(PT+FT) at 40/40 shared features exceeds that at 0/40",
        Status.INCONCLUSIVE,
    ),
)
