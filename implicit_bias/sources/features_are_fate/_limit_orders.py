r"""The :math:`\alpha \to 0` limits of Appendices B.3-B.4, along trained networks.

The proofs of Theorems 3.4 and 3.5 end in limits :math:`\lim_{\alpha\to0}
\lim_{t\to\infty}`: a quantity :math:`e(\alpha)` of the trained network (a
distance to the limit the text states) tends to 0. :func:`trained_networks`
trains deep linear networks from :math:`\alpha\bar W` to convergence,
pretraining on the population loss (4) or training from scratch on the
empirical loss (5), at the scales :data:`ALPHAS`. :math:`\bar W` satisfies
(22) generically (:func:`generic_initialization`): :math:`\bar W_L` random,
:math:`\bar W_l = Q_l(\bar W_{l+1}\bar W_{l+1}^\top + \bar D_l)^{1/2}` with
:math:`\bar D_l = GG^\top/d + I/2` random, so :math:`\lambda \ge 1/2`. (The
validation layer's ``balanced_initialization`` has :math:`\bar D_l = I` for
:math:`l < L - 1`, where some leading terms of the errors cancel and their
orders exceed the generic ones derived in the claims.)

:func:`order_verdict` compares the last local order
:math:`s_k = \log(e_k/e_{k+1})/\log(\alpha_k/\alpha_{k+1})` with the order
theory gives, by :func:`~implicit_bias.claims.checks.check_close`. If
:math:`e = A\alpha^{p}(1 + \sum_j B_j\alpha^{q_j})` the local orders tend to
:math:`p`, their deviations decaying like :math:`\alpha^{q_j}`: a geometric
tail of ratio at most :math:`\rho = \alpha_{i+1}/\alpha_i = 10^{-1/2}` per
step, whose sum after the last pair, :math:`\rho/(1 - \rho) < 1` times a
step's change, is below the largest change :math:`\max_i|s_{i+1} - s_i|` seen
over the range. That, with the rounding of the errors (float64, a few units of
:math:`10^{-16}` relative to the size-one matrices they come from, which
shifts a local order by at most :math:`2\delta/|\log\rho|`,
:math:`\delta = 10^{-14}/e_{\min}`), is the tolerance.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from implicit_bias.claims.checks import check_close
from implicit_bias.claims.engine import Basis, Reason, Verdict
from implicit_bias.claims.profiles import CostEstimate
from implicit_bias.sources.features_are_fate._costs import whole_run_seconds
from implicit_bias.validation import deep_linear_networks as networks

__all__ = [
    "ALPHAS",
    "TrainedNetworks",
    "generic_initialization",
    "order_verdict",
    "trained_networks",
    "training_cost",
]

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


def generic_initialization(depth: int, *, seed: int = 3) -> list[np.ndarray]:
    r""":math:`\bar W_1, \dots, \bar W_L` (each (K, d, d_l)) with
    :math:`\bar D_l = \bar W_l^\top \bar W_l - \bar W_{l+1}\bar W_{l+1}^\top =
    GG^\top/d + I/2 \succeq I/2`, :math:`G` Gaussian (condition (22))."""
    rng = np.random.default_rng(seed)
    layers = [rng.standard_normal((DRAWS, DIMENSION, 1)) / np.sqrt(DIMENSION)]
    for _ in range(depth - 1):
        g = rng.standard_normal((DRAWS, DIMENSION, DIMENSION))
        invariant = g @ np.swapaxes(g, 1, 2) / DIMENSION + 0.5 * np.eye(DIMENSION)
        gram = layers[0] @ np.swapaxes(layers[0], 1, 2) + invariant
        values, vectors = np.linalg.eigh(gram)
        root = vectors @ (np.sqrt(values)[..., None] * np.swapaxes(vectors, 1, 2))
        rotation = np.linalg.qr(rng.standard_normal((DRAWS, DIMENSION, DIMENSION)))[0]
        layers.insert(0, rotation @ root)
    return layers


@functools.cache
def trained_networks(depth: int, kind: str) -> TrainedNetworks:
    """``kind`` "pretrained" (population loss (4), unit beta_s) or "scratch"
    (empirical loss (5), n = 3 < d = 6), at every alpha of :data:`ALPHAS`,
    trained to the default relative excess loss 1e-20 (midpoint rule)."""
    rng = np.random.default_rng(7 + depth)
    bar = generic_initialization(depth)
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


def order_verdict(errors: np.ndarray, order: float, what: str) -> Verdict:
    r"""Judge ``errors`` (one per alpha of :data:`ALPHAS`) to be of order
    :math:`\alpha^p`, :math:`p` = ``order``, by the last local order
    (:func:`~implicit_bias.claims.checks.check_close`, the tolerance of the
    module docstring); ``inconclusive`` (``Reason.NON_FINITE``) for an error
    that is not finite and positive."""
    values = np.asarray(errors, dtype=float)
    alphas = np.asarray(ALPHAS)
    ratio = alphas[1] / alphas[0]
    if not np.all(np.isfinite(values)) or float(np.min(values)) <= 0:
        return Verdict.inconclusive(
            f"{what}: errors {values.tolist()} are not all finite and positive",
            Reason.NON_FINITE,
            Basis.NUMERICAL,
        )
    orders = np.diff(np.log(values)) / np.diff(np.log(alphas))
    rounding = 2 * (ROUNDING / float(np.min(values))) / abs(np.log(ratio))
    tail = float(np.max(np.abs(np.diff(orders))))
    close = check_close(
        orders[-1], order, tail + rounding, what=f"{what}: last local order"
    )
    return close.with_detail(
        f"{what}: errors {np.array2string(values, precision=3)} at alpha = "
        f"10^-1 ... 10^-2.5 (float64), local orders "
        f"{np.round(orders, 4).tolist()}; the last against {order:g}, tolerance "
        f"{tail + rounding:.2g} (the largest change of the local order, {tail:.2g}, "
        f"bounding the tail of the corrections, and rounding {rounding:.2g})"
    )


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
