r"""Appendix A of ptft-diagonal-networks: how far gradient descent (STL and
PT+FT) ends from the minimum-Q interpolant as the step size halves.
"""

from __future__ import annotations

import numpy as np

from implicit_bias.numerics import min_q_norm_interpolant
from implicit_bias.numerics.arguments import check_seed
from implicit_bias.validation.diagonal_networks import train_diagonal_networks
from implicit_bias.validation.diagonal_pretrain_finetune import (
    pretrain_finetune_diagonal_networks,
)
from implicit_bias.validation.diagonal_experiments.batches import Float64Array

__all__ = [
    "min_q_endpoint_errors",
    "ptft_min_q_endpoint_errors",
]


#: Step sizes of the endpoint experiments: eta, eta/2, eta/4.
ENDPOINT_LEARNING_RATES = 0.04 / 2.0 ** np.arange(3)


def min_q_endpoint_errors(*, seed: int = 1) -> Float64Array:
    r"""Distance of single-task descent endpoints to the min-Q interpolant vs the step.

    .. math:: e(\eta) = \|\beta_{GD,\eta}(\infty) - \arg\min_{X\beta = y}
              \|\beta\|_Q\|_2,\qquad k_d = (w^{(1)}_{0,d})^2 + (w^{(2)}_{0,d})^2

    Four random problems (n = 5 < D = 10, Gaussian X and y), unbalanced random
    initializations :math:`w^{(1)}_0 \ne w^{(2)}_0` of scale about 0.5 with
    :math:`w_+(0) = w_-(0)`, each trained at :data:`ENDPOINT_LEARNING_RATES`, all
    twelve networks in one batch. Appendix A's result is exact for the flow, so
    :math:`e(\eta) = A\eta + O(\eta^2)`.

    Args:
      seed: seed of the problems, an integer >= 0.

    Returns:
      The errors, shape (4, 3): problems by step size.

    Raises:
      InvalidArgumentError: ``seed`` is not an integer >= 0.
      ConvergenceError: a network diverged or did not converge (for some
        seeds the fixed learning rates may be too large).

    Examples:
      >>> errors = min_q_endpoint_errors()
      >>> bool(np.all(errors[:, 1:] < errors[:, :-1]))
      True

    References:
      Eqs. (21)-(22) of ptft-diagonal-networks.
    """
    seed = check_seed("seed", seed)
    rng = np.random.default_rng(seed)
    problems, samples, dimension = 4, 5, 10
    x = rng.standard_normal((problems, samples, dimension))
    y = rng.standard_normal((problems, samples))
    w1 = 0.5 * (0.5 + rng.random((problems, dimension)))
    w2 = 0.5 * (0.5 + rng.random((problems, dimension)))
    steps = ENDPOINT_LEARNING_RATES.size
    result = train_diagonal_networks(
        np.repeat(x, steps, axis=0),
        np.repeat(y, steps, axis=0),
        np.repeat(w1, steps, axis=0),
        np.repeat(w2, steps, axis=0),
        learning_rate=np.tile(ENDPOINT_LEARNING_RATES, problems),
    )
    endpoints = result.coefficients.reshape(problems, steps, dimension)
    return np.array(
        [
            np.linalg.norm(
                endpoints[p] - min_q_norm_interpolant(x[p], y[p], w1[p], w2[p]), axis=1
            )
            for p in range(problems)
        ]
    )


def ptft_min_q_endpoint_errors(*, seed: int = 11) -> Float64Array:
    r"""Distance of finetuning endpoints to the min-Q interpolant with pretrained k.

    .. math:: k_d = \lambda^2 (w^{(1),aux}_d)^2 + \gamma^2,\qquad
              e(\eta) = \|\beta_{FT,\eta}(\infty) - \arg\min_{X\beta = y}
              \|\beta\|_Q\|_2

    Pretraining from :math:`\alpha = 0.3` on 8 samples of a 4-sparse auxiliary
    task in D = 10, rescaling :math:`\lambda` = 1 and 0.5, readout
    :math:`\gamma = 0.1`, finetuning on a random main task with n = 5 at
    :data:`ENDPOINT_LEARNING_RATES` (also used for pretraining).

    Args:
      seed: seed of the tasks, an integer >= 0.

    Returns:
      The errors, shape (2, 3): rescaling factor by step size.

    Raises:
      InvalidArgumentError: ``seed`` is not an integer >= 0.
      ConvergenceError: a network diverged or did not converge (for some
        seeds the fixed learning rates may be too large).

    Examples:
      >>> errors = ptft_min_q_endpoint_errors()
      >>> bool(np.all(errors[:, 1:] < errors[:, :-1]))
      True

    References:
      Eqs. (21)-(22) and the end of Appendix A of ptft-diagonal-networks.
    """
    seed = check_seed("seed", seed)
    rng = np.random.default_rng(seed)
    samples, dimension = 5, 10
    x_aux = rng.standard_normal((8, dimension))
    aux = np.zeros(dimension)
    aux[:4] = rng.standard_normal(4)
    x, y = rng.standard_normal((samples, dimension)), rng.standard_normal(samples)
    steps = ENDPOINT_LEARNING_RATES.size
    rescale = np.repeat([1.0, 0.5], steps)
    result = pretrain_finetune_diagonal_networks(
        x_aux,
        x_aux @ aux,
        x,
        y,
        init_scale=0.3,
        gamma=0.1,
        learning_rate=np.tile(ENDPOINT_LEARNING_RATES, 2),
        rescale=rescale,
    )
    return np.array(
        [
            np.linalg.norm(
                result.finetuned.coefficients[k]
                - min_q_norm_interpolant(
                    x, y, result.finetune_w1_init[k], result.finetune_w2_init[k]
                )
            )
            for k in range(2 * steps)
        ]
    ).reshape(2, steps)
