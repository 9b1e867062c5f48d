r"""Transferability (eq. 7 of features-are-fate): of deep linear networks
trained by gradient descent on the figures' slices
:math:`\theta = \pi/8, \pi/4, 3\pi/8` (:func:`transferability_slices`), and
of the :math:`\alpha\to0` endpoints over a grid of :math:`(\theta, \gamma)`
(:func:`transferability_surface`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    check_real,
    check_seed,
)
from implicit_bias.validation.deep_linear_networks import (
    balanced_initialization,
    finetune,
    linear_transfer,
    pretrain,
    train_from_scratch,
)
from implicit_bias.validation.transfer_experiments.endpoints import (
    Float64Array,
    _MAX_INIT_SCALE,
    _dimension,
    _draws,
    _grid,
    _labels,
    _sigma,
    _tasks,
    endpoint_risks,
)

__all__ = [
    "TransferabilitySlices",
    "TransferabilitySurface",
    "transferability_slices",
    "transferability_surface",
]


@dataclass(frozen=True, eq=False)
class TransferabilitySlices:
    r"""Risks of gradient-descent-trained networks on slices of Figs. 1(c)/3(c).

    Arrays are (theta, gamma, draw).

    Attributes:
      thetas, gammas: the grid.
      scratch, linear, finetune: generalization errors of the trained networks.
      dimension, sigma, init_scale, seed: the configuration.
    """

    thetas: Float64Array
    gammas: Float64Array
    scratch: Float64Array
    linear: Float64Array
    finetune: Float64Array
    dimension: int
    sigma: float
    init_scale: float
    seed: int

    @property
    def linear_transferability(self) -> Float64Array:
        """Per-draw :math:`\\mathcal R_{sc} - \\mathcal R_{lt}` (eq. 7)."""
        return np.asarray(self.scratch - self.linear)

    @property
    def finetune_transferability(self) -> Float64Array:
        """Per-draw :math:`\\mathcal R_{sc} - \\mathcal R_{ft}` (eq. 7)."""
        return np.asarray(self.scratch - self.finetune)


def transferability_slices(
    thetas: Sequence[float],
    gammas: Sequence[float],
    *,
    dimension: int,
    draws: int,
    sigma: float = 0.2,
    init_scale: float = 1e-5,
    seed: int = 0,
) -> TransferabilitySlices:
    r"""Train L = 2 networks on the figures' setup and record their risks.

    Appendix D.1 of features-are-fate: pretrain on the population loss from
    :math:`\alpha\bar W` (condition 22), then per draw linear transfer,
    fine-tuning and scratch training on :math:`n = \gamma d` samples with
    label noise :math:`\sigma`; the midpoint integrator with the adaptive step
    and the input preconditioner, each phase to a relative excess loss of
    1e-12 (gradient descent's endpoints, see
    :mod:`implicit_bias.validation.deep_linear_networks`).

    Args:
      thetas: source-target angles in :math:`[0, \pi]`, at least one.
      gammas: :math:`\gamma = n/d \in (0, 10^3]`, with
        :math:`n = \mathrm{round}(\gamma d) \ge 3`, at least one.
      dimension: d, an integer >= 2.
      draws: target draws per grid point, an integer >= 2.
      sigma: label-noise standard deviation, >= 0.
      init_scale: :math:`\alpha \in (0, 10^{60}]` (the losses grow like
        :math:`\alpha^4` and overflow float64 near :math:`10^{77}`).
      seed: seed of the draws and the initialization, an integer >= 0.

    Returns:
      A :class:`TransferabilitySlices`.

    Raises:
      InvalidArgumentError: an argument outside its domain (checked before
        training).
      OutOfRangeError: labels or a loss beyond the float64 range (a huge
        ``sigma``: the losses grow like :math:`\sigma^2`).
      ConvergenceError: a network did not converge.

    References:
      Figs. 1(c) and 3(c), eqs. (7), (13), (17) and Appendix D.1 of
      features-are-fate.
    """
    dimension = _dimension(dimension)
    angles, ratios, sizes = _grid(thetas, gammas, dimension)
    draws = _draws(draws)
    sigma = _sigma(sigma)
    init_scale = check_real(
        "init_scale",
        init_scale,
        min_value=0.0,
        exclusive=True,
        meaning="the initialization scale alpha (> 0)",
    )
    if init_scale > _MAX_INIT_SCALE:
        # alpha * W itself overflowed near 1.8e308, with a RuntimeWarning.
        raise InvalidArgumentError(
            f"init_scale={init_scale!r} is above {_MAX_INIT_SCALE:g}: init_scale "
            f"is the initialization scale alpha, in (0, {_MAX_INIT_SCALE:g}]; the "
            "losses grow like alpha^4 and overflow float64 near alpha = 1e77"
        )
    seed = check_seed("seed", seed)
    init = [
        init_scale * W
        for W in balanced_initialization([dimension, dimension], seed=seed)
    ]
    shape = (angles.size, ratios.size, draws)
    scratch, linear, tuned = np.empty(shape), np.empty(shape), np.empty(shape)
    rng = np.random.default_rng(seed)
    for i, theta in enumerate(angles):
        source, target = _tasks(dimension, theta)
        pretrained = pretrain(init, source, tol=1e-12)
        for j, samples in enumerate(sizes):
            X = rng.standard_normal((draws, samples, dimension))
            y = _labels(X, target, sigma, rng)
            runs = {
                "linear": linear_transfer(pretrained.weights, X, y, tol=1e-12),
                "finetune": finetune(
                    pretrained.weights, X, y, preconditioned=True, tol=1e-12
                ),
                "scratch": train_from_scratch(
                    init, X, y, preconditioned=True, tol=1e-12
                ),
            }
            for name, out in (
                ("linear", linear),
                ("finetune", tuned),
                ("scratch", scratch),
            ):
                beta = runs[name].coefficients
                with np.errstate(over="ignore"):
                    out[i, j] = np.sum((beta - target) ** 2, axis=1)
    for name, risks in (("scratch", scratch), ("linear", linear), ("finetune", tuned)):
        if not np.isfinite(risks).all():
            raise OutOfRangeError(
                f"the {name} risks of sigma={sigma!r} lie beyond the float64 "
                "range: they grow like sigma^2"
            )
    return TransferabilitySlices(
        thetas=angles,
        gammas=ratios,
        scratch=scratch,
        linear=linear,
        finetune=tuned,
        dimension=dimension,
        sigma=sigma,
        init_scale=init_scale,
        seed=seed,
    )


@dataclass(frozen=True, eq=False)
class TransferabilitySurface:
    r"""Per-draw transferabilities of the closed-form endpoints on a grid.

    Arrays are (theta, gamma, draw), paired: scratch and transfer on the same
    draws, so :math:`\mathcal R_{sc} - \mathcal R_{tx}` has the variance of a
    difference.

    Attributes:
      thetas, gammas: the grid; n = round(gamma d).
      linear: :math:`\mathcal R_{sc} - \mathcal R_{lt}`.
      finetune: :math:`\mathcal R_{sc} - \mathcal R_{ft}` (corrected eq. 142
        for n < d, 0 above: both endpoints are the least-squares fit).
      dimension, sigma, seed: the configuration.
    """

    thetas: Float64Array
    gammas: Float64Array
    linear: Float64Array
    finetune: Float64Array
    dimension: int
    sigma: float
    seed: int


def transferability_surface(
    thetas: Sequence[float],
    gammas: Sequence[float],
    *,
    dimension: int,
    draws: int,
    sigma: float,
    seed: int = 0,
) -> TransferabilitySurface:
    r"""Monte-Carlo transferability (eq. 7) of the :math:`\alpha\to0` endpoints.

    .. math:: \mathcal T = \mathbb E_{\mathcal D}(\mathcal R_{sc} - \mathcal R_{tx})

    Args:
      thetas: source-target angles in :math:`[0, \pi]`, at least one.
      gammas: :math:`\gamma = n/d \in (0, 10^3]`, n = round(gamma d) >= 3, at
        least one.
      dimension: d, an integer >= 2.
      draws: draws per grid point, an integer >= 2.
      sigma: label-noise standard deviation, >= 0.
      seed: seed, an integer >= 0; grid point (i, j) uses draws seeded by
        (seed, i, j).

    Returns:
      A :class:`TransferabilitySurface`.

    Raises:
      InvalidArgumentError: an argument outside its domain.
      OutOfRangeError: a risk beyond the float64 range (``sigma`` above about
        1e150).

    References:
      Eqs. (7), (13) and (17) and Figs. 1(a) and 3(a) of features-are-fate.
    """
    dimension = _dimension(dimension)
    angles, ratios, sizes = _grid(thetas, gammas, dimension)
    draws = _draws(draws)
    sigma = _sigma(sigma)
    seed = check_seed("seed", seed)
    shape = (angles.size, ratios.size, draws)
    linear, tuned = np.empty(shape), np.zeros(shape)
    for i, theta in enumerate(angles):
        for j, samples in enumerate(sizes):
            risks = endpoint_risks(
                samples,
                dimension,
                theta,
                sigma,
                draws=draws,
                seed=seed * 7919 + 97 * i + j,
            )
            linear[i, j] = risks.scratch - risks.linear
            if risks.finetune.size:
                tuned[i, j] = risks.scratch - risks.finetune
    return TransferabilitySurface(
        thetas=angles,
        gammas=ratios,
        linear=linear,
        finetune=tuned,
        dimension=dimension,
        sigma=sigma,
        seed=seed,
    )
