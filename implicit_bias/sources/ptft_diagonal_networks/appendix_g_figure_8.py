r"""Claims of ptft-diagonal-networks: Appendix G, Fig. 8a, ReLU networks' PR.

Appendix G: "networks in the rich regime, which are biased towards sparse
solutions, learn representations with lower PR than networks in the lazy
regime, which are not biased toward sparse solutions (Fig. 8a)". The
representation is the hidden layer's, :math:`(\langle w_h^{(1)}, x\rangle)_+`
on fresh Gaussian inputs, its participation ratio
:func:`~implicit_bias.numerics.participation_ratio`; the networks are those
of :mod:`.appendix_e2` (the same experiment,
:func:`~implicit_bias.validation.relu_feature_clusters.feature_clusters`),
compared paired over seeds as there.

Fig. 8b-c (PR and ENSD before and after finetuning on the nested-sparsity
task) are not encoded; Fig. 8d is ResNet18 on ImageNet and CIFAR
(not checkable here: see the source's inventory).
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from implicit_bias.claims.engine import Claim, Kind, Reading, Status, Verdict
from implicit_bias.sources.ptft_diagonal_networks.appendix_e2 import (
    SE_PAIRED,
    SETUP,
    T_CRITICAL,
    cluster_cost,
    compare,
    convergence,
)
from implicit_bias.sources.ptft_diagonal_networks.source import SOURCE_ID, measured
from implicit_bias.validation.relu_feature_clusters import feature_clusters

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
    lines = "; ".join(line for _, line in parts)
    means = np.round(pr.mean(axis=-1), 3).tolist()
    detail = (
        f"rich/lazy networks, n = {list(result.sample_sizes)}, {SETUP.seeds} "
        "seeds, PR of the "
        f"hidden layer on {SETUP.test_samples} fresh inputs; mean PR (rich, lazy "
        f"rows) {means}; {words}: {lines}"
    )
    verdicts = [verdict for verdict, _ in parts]
    for verdict in verdicts:
        if verdict.status == Status.FAILS:
            return Verdict.fails(detail, verdict.basis, verdict.counterexample)  # type: ignore[arg-type]
    if all(verdict.status == Status.HOLDS for verdict in verdicts):
        return verdicts[0].with_detail(detail)
    undecided = next(v for v in verdicts if v.status != Status.HOLDS)
    return undecided.with_detail(detail)


_GAP = measured("pr_gap", r"\overline{PR^{\mathrm{lazy}} - PR^{\mathrm{rich}}}(n)")
_FORMULA = sp.Gt(_GAP, T_CRITICAL * SE_PAIRED, evaluate=False)

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
)
