r"""Appendix B.1 of ptft-diagonal-networks: multi-task networks against the
minimum-:math:`\ell_{1,2}` interpolant, on planted and dense problems.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics import (
    l12_norm,
    min_l12_interpolant,
)
from implicit_bias.numerics.arguments import check_seed
from implicit_bias.validation.diagonal_networks import train_multitask_diagonal_networks
from implicit_bias.validation.diagonal_experiments.batches import Float64Array

__all__ = [
    "multitask_dense_gap",
    "multitask_dense_gaps",
    "multitask_planted_distances",
]


def multitask_planted_distances(*, seed: int = 0) -> Float64Array:
    r"""Relative distance of small-init multi-task descent to a planted predictor.

    .. math:: \|\beta_{GD}(\infty) - B\|_F / \|B\|_F,\qquad
              \alpha = 10^{-1}, 10^{-2}, 10^{-3}

    n = 20 Gaussian samples, D = 40 inputs, O = 2 outputs sharing 5 inputs
    (enough samples that the planted B is the unique min-l1,2 interpolant),
    every weight started at :math:`\alpha`, learning rate 0.04, relative loss
    1e-8 (the tail near a sparse predictor is slow).

    Args:
      seed: seed of X and B, an integer >= 0.

    Returns:
      The three relative distances, in the order of the alphas.

    Raises:
      InvalidArgumentError: ``seed`` is not an integer >= 0.
      ConvergenceError: a network diverged or did not converge (for some
        seeds the fixed learning rates may be too large).

    Examples:
      >>> distances = multitask_planted_distances()
      >>> bool(np.all(np.diff(distances) < 0))
      True

    References:
      Eq. (30) of ptft-diagonal-networks.
    """
    seed = check_seed("seed", seed)
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((20, 40))
    truth = np.zeros((2, 40))
    truth[:, :5] = rng.standard_normal((2, 5))
    alphas = np.array([1e-1, 1e-2, 1e-3])
    result = train_multitask_diagonal_networks(
        x,
        x @ truth.T,
        alphas[:, None],
        alphas[:, None, None],
        learning_rate=0.04,
        tol=1e-8,
    )
    distance = np.linalg.norm(result.coefficients - truth, axis=(1, 2))
    return np.asarray(distance / np.linalg.norm(truth))


def multitask_dense_gap(*, seed: int = 0) -> tuple[Float64Array, Float64Array]:
    r"""How far small-init multi-task descent ends from min-l1,2 on dense targets.

    .. math:: \frac{\|\beta_{GD}(\infty)\|_{1,2}}{\min_{XB^\top = Y}\|B\|_{1,2}} - 1,
              \qquad \alpha = 10^{-2}, 10^{-4}

    n = 5 Gaussian samples, D = 12 inputs, O = 2 dense Gaussian targets, every
    weight started at :math:`\alpha`, learning rate 0.02.

    Args:
      seed: seed of X and Y, an integer >= 0.

    Returns:
      ``(excess, distance)``: the relative l1,2 excess over the minimum and
      the Frobenius distance to the min-l1,2 interpolant, one per alpha.

    Raises:
      InvalidArgumentError: ``seed`` is not an integer >= 0.
      ConvergenceError: a network diverged or did not converge (for some
        seeds the fixed learning rates may be too large).

    Examples:
      >>> excess, distance = multitask_dense_gap()
      >>> bool(excess[1] > excess[0] > 0)
      True

    References:
      Eq. (30) of ptft-diagonal-networks.
    """
    seed = check_seed("seed", seed)
    rng = np.random.default_rng(seed)
    x, targets = rng.standard_normal((5, 12)), rng.standard_normal((5, 2))
    best = min_l12_interpolant(x, targets).beta
    alphas = np.array([1e-2, 1e-4])
    result = train_multitask_diagonal_networks(
        x, targets, alphas[:, None], alphas[:, None, None], learning_rate=0.02
    )
    excess = l12_norm(result.coefficients) / l12_norm(best) - 1.0
    distance = np.linalg.norm(result.coefficients - best, axis=(1, 2))
    return np.asarray(excess), np.asarray(distance)


def multitask_dense_gaps(seeds: Sequence[int]) -> tuple[Float64Array, Float64Array]:
    r""":func:`multitask_dense_gap` for several seeds, trained as one batch.

    .. math:: \frac{\|\beta^{(s)}_{GD}(\infty)\|_{1,2}}
              {\min_{X_s B^\top = Y_s}\|B\|_{1,2}} - 1,
              \qquad s \in \text{seeds},\ \alpha = 10^{-2}, 10^{-4}

    The problems of all seeds advance together (one batch of per-problem
    inputs, :func:`train_multitask_diagonal_networks`), so S problems cost
    about one problem's Python overhead per step instead of S.

    Args:
      seeds: the seeds, integers >= 0, at least one.

    Returns:
      ``(excess, distance)``, each (S, 2): row s is
      ``multitask_dense_gap(seed=seeds[s])`` up to float64 rounding (the
      stacked products sum in another order than the shared-input ones).

    Raises:
      InvalidArgumentError: ``seeds`` is empty or a seed is not an integer
        >= 0.
      ConvergenceError: a network diverged or did not converge.

    Examples:
      >>> excess, _ = multitask_dense_gaps([0, 1])
      >>> excess.shape
      (2, 2)

    References:
      Eq. (30) of ptft-diagonal-networks.
    """
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Iterable):
        raise InvalidArgumentError(
            f"seeds={seeds!r} is not a sequence of integer seeds >= 0"
        )
    seeds = [check_seed("seeds", seed) for seed in seeds]
    if not seeds:
        raise InvalidArgumentError("seeds=[]: give at least one seed")
    xs, targets, best = [], [], []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        x, y = rng.standard_normal((5, 12)), rng.standard_normal((5, 2))
        xs.append(x)
        targets.append(y)
        best.append(min_l12_interpolant(x, y).beta)
    alphas = np.tile([1e-2, 1e-4], len(seeds))
    # Network 2s + a is seed s at alpha a.
    result = train_multitask_diagonal_networks(
        np.repeat(np.array(xs), 2, axis=0),
        np.repeat(np.array(targets), 2, axis=0),
        alphas[:, None],
        alphas[:, None, None],
        learning_rate=0.02,
    )
    coefficients = result.coefficients.reshape(len(seeds), 2, 2, 12)
    minimum = np.array(best)
    excess = l12_norm(coefficients) / l12_norm(minimum)[:, None] - 1.0
    distance = np.linalg.norm(coefficients - minimum[:, None], axis=(2, 3))
    return np.asarray(excess), np.asarray(distance)
