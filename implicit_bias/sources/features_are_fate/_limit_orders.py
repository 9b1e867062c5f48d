r"""The :math:`\alpha \to 0` limits of Appendices B.3-B.4, along trained networks.

The proofs of Theorems 3.4 and 3.5 end in limits :math:`\lim_{\alpha\to0}
\lim_{t\to\infty}`: a quantity :math:`e(\alpha)` of the trained network (a
distance to the limit the text states) tends to 0. :func:`trained_networks`
trains deep linear networks from :math:`\alpha\bar W` (condition (22),
:func:`~implicit_bias.validation.deep_linear_networks.balanced_initialization`)
to convergence, pretraining on the population loss (4) or training from
scratch on the empirical loss (5), at the scales :data:`ALPHAS`.

:func:`order_verdict` judges :math:`e(\alpha) = O(\alpha^p)` from the local
orders :math:`s_i = \log(e_i/e_{i+1})/\log(\alpha_i/\alpha_{i+1})`. If
:math:`e = A\alpha^{p'}(1 + \sum_j B_j\alpha^{q_j})` the local order tends to
:math:`p'`, its deviations decaying like :math:`\alpha^{q_j}`: a geometric tail
of ratio :math:`\rho^{q} \le \rho = \alpha_{i+1}/\alpha_i = 10^{-1/2}` per
step, whose sum after the last pair, :math:`\rho/(1 - \rho) < 1` times a
step's change, is below the largest change
:math:`\max_i|s_{i+1} - s_i|` seen over the range. That is the tolerance of
the last local order. The rounding of the errors (float64, a few units of
:math:`10^{-16}` relative to the size-one matrices they come from) shifts a
local order by at most :math:`2\delta/|\log\rho|`, :math:`\delta =
10^{-14}/e_{\min}`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from implicit_bias.claims.engine import Basis, Reason, Verdict
from implicit_bias.claims.profiles import CostEstimate
from implicit_bias.sources.features_are_fate._costs import whole_run_seconds
from implicit_bias.validation import deep_linear_networks as networks

__all__ = ["ALPHAS", "TrainedNetworks", "order_verdict", "trained_networks"]

#: Initialization scales, a geometric sequence of ratio 10^-1/2.
ALPHAS = (10**-1.0, 10**-1.5, 10**-2.0, 10**-2.5)
#: Width d of every layer, samples n of the empirical loss (n < d), draws.
DIMENSION, SAMPLES, DRAWS = 6, 3, 2
#: Rounding of an error computed from size-one float64 matrices.
ROUNDING = 1e-14


@dataclass(frozen=True)
class TrainedNetworks:
    """Trained weights at each of :data:`ALPHAS`, with what they were trained on.

    Attributes:
      depth: L.
      weights: per alpha, (W_1, ..., W_L), each (K, d_{l-1}, d_l).
      source: beta_s (d,), unit norm (pretraining), or None.
      data: X (K, n, d) and y (K, n) (training from scratch), or None.
    """

    depth: int
    weights: tuple[tuple[np.ndarray, ...], ...]
    source: np.ndarray | None
    data: tuple[np.ndarray, np.ndarray] | None


@functools.cache
def trained_networks(depth: int, kind: str) -> TrainedNetworks:
    """``kind`` "pretrained" (population loss (4), unit beta_s) or "scratch"
    (empirical loss (5), n = 3 < d = 6), at every alpha of :data:`ALPHAS`,
    trained to the default relative excess loss 1e-20 (midpoint rule)."""
    rng = np.random.default_rng(7 + depth)
    bar = networks.balanced_initialization([DIMENSION] * depth, count=DRAWS, seed=3)
    runs = []
    if kind == "pretrained":
        source = rng.standard_normal(DIMENSION)
        source /= np.linalg.norm(source)
        for alpha in ALPHAS:
            result = networks.pretrain([alpha * w for w in bar], source)
            runs.append(result.weights)
        return TrainedNetworks(depth, tuple(runs), source, None)
    x = rng.standard_normal((DRAWS, SAMPLES, DIMENSION))
    y = rng.standard_normal((DRAWS, SAMPLES))
    for alpha in ALPHAS:
        runs.append(networks.train_from_scratch([alpha * w for w in bar], x, y).weights)
    return TrainedNetworks(depth, tuple(runs), None, (x, y))


def order_verdict(errors: np.ndarray, minimum: float, what: str) -> Verdict:
    r"""Judge ``errors`` (one per alpha of :data:`ALPHAS`) to be
    :math:`O(\alpha^p)`, :math:`p` = ``minimum``, by the last local order.

    ``holds`` when the last local order is at least ``minimum`` less the
    tolerance (module docstring) and the errors decrease; ``fails`` when it is
    below by more than three tolerances; else ``inconclusive``
    (``Reason.STATISTICAL``).
    """
    values = np.asarray(errors, dtype=float)
    alphas = np.asarray(ALPHAS)
    ratio = alphas[1] / alphas[0]
    floor = float(np.min(values))
    if not np.all(np.isfinite(values)) or floor <= 0:
        return Verdict.inconclusive(
            f"{what}: errors {values.tolist()} are not all finite and positive",
            Reason.NON_FINITE,
            Basis.NUMERICAL,
        )
    orders = np.diff(np.log(values)) / np.diff(np.log(alphas))
    rounding = 2 * (ROUNDING / floor) / abs(np.log(ratio))
    tail = float(np.max(np.abs(np.diff(orders))))
    tolerance = tail + rounding
    detail = (
        f"{what}: errors {np.array2string(values, precision=3)} at alpha = "
        f"10^-1 ... 10^-2.5 (float64), local orders "
        f"{np.round(orders, 4).tolist()}; the last must be >= {minimum:g} within "
        f"the tolerance {tolerance:.2g} (the largest change of the local order, "
        f"{tail:.2g}, bounding the tail of the corrections, and rounding "
        f"{rounding:.2g})"
    )
    decreasing = bool(np.all(np.diff(values) < 0))
    if orders[-1] >= minimum - tolerance and decreasing:
        return Verdict.holds(detail, Basis.NUMERICAL)
    if orders[-1] < minimum - 3 * tolerance:
        return Verdict.fails(detail, Basis.NUMERICAL, detail)
    return Verdict.inconclusive(detail, Reason.STATISTICAL, Basis.NUMERICAL)


def training_cost(kind: str, depths: tuple[int, ...]) -> CostEstimate:
    """What :func:`trained_networks` costs for ``kind`` at ``depths``: each
    depth's whole training (one batch of :data:`DRAWS` networks per alpha of
    :data:`ALPHAS`) timed once, uncached; the midpoint rule's adaptive steps
    leave no fixed step count to scale (:func:`._costs.whole_run_seconds`)."""
    seconds = [
        whole_run_seconds(functools.partial(trained_networks.__wrapped__, depth, kind))
        for depth in depths
    ]
    runs = len(depths) * len(ALPHAS)
    return CostEstimate(
        sum(seconds),
        runs=runs,
        detail=(
            f"{kind} training at L = {depths}, {len(ALPHAS)} alphas, {DRAWS} draws: "
            + ", ".join(f"{s:.2g} s" for s in seconds)
            + " (each depth's runs timed whole)"
        ),
    )
