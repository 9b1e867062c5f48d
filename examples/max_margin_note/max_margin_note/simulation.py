r"""Section 3 of the note, the code: gradient descent on the logistic loss.

Everything here is plain NumPy, vectorized over the runs (one per step size)
and the data; the claims of :mod:`max_margin_note.experiment` compare what it
produces with the note's predictions.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit

from implicit_bias.errors import InvalidArgumentError

__all__ = ["direction_gap", "logistic_descent", "residual", "step_size_bound"]


def step_size_bound(data: ArrayLike) -> float:
    r"""The step bound of Soudry et al.'s Theorem 3, :math:`2/(\beta\sigma_{\max}^2)`.

    .. math:: \eta < \frac{2}{\beta\,\sigma_{\max}^2(Z)},\qquad \beta = \tfrac14

    for the logistic loss (:math:`\ell'' \le 1/4`), with :math:`Z` the matrix
    whose rows are :math:`z_n = y_n x_n`.

    Examples:
      >>> bool(np.isclose(step_size_bound([[1.0, 0.0]]), 8.0))
      True
    """
    z = np.asarray(data, dtype=np.float64)
    return float(8.0 / np.linalg.norm(z, 2) ** 2)


def logistic_descent(
    data: ArrayLike,
    step_sizes: ArrayLike,
    checkpoints: Sequence[int],
) -> NDArray[np.float64]:
    r"""Gradient descent on the logistic loss from :math:`w(0) = 0`, eqs. (2)-(3).

    .. math:: w(t+1) = w(t) + \eta \sum_n \frac{z_n}{1 + e^{z_n^\top w(t)}}

    One run per step size, all advanced together.

    Args:
      data: the rows :math:`z_n = y_n x_n`, shape ``(n, d)``.
      step_sizes: the step sizes :math:`\eta`, each in
        ``(0, step_size_bound(data))``.
      checkpoints: the steps t >= 1 at which to record :math:`w(t)`,
        increasing.

    Returns:
      The iterates, shape ``(len(checkpoints), len(step_sizes), d)``.

    Raises:
      InvalidArgumentError: the data are not a nonempty matrix, a step size is
        outside the range of Theorem 3, or the checkpoints are not increasing
        positive integers.

    Examples:
      >>> w = logistic_descent([[1.0, 0.0]], [0.5], [1])
      >>> bool(np.allclose(w, [[[0.25, 0.0]]]))
      True
    """
    z = np.asarray(data, dtype=np.float64)
    if z.ndim != 2 or z.size == 0:
        raise InvalidArgumentError(
            f"data: a nonempty (n, d) matrix of rows y_n x_n, got shape {z.shape}"
        )
    etas = np.atleast_1d(np.asarray(step_sizes, dtype=np.float64))
    bound = step_size_bound(z)
    if etas.ndim != 1 or not np.all((etas > 0) & (etas < bound)):
        raise InvalidArgumentError(
            f"step_sizes={etas.tolist()} must lie in (0, {bound:.6g}): the range "
            "2/(beta sigma_max^2) of Soudry et al.'s Theorem 3"
        )
    steps = [int(k) for k in checkpoints]
    if not steps or steps[0] < 1 or any(q <= p for p, q in itertools.pairwise(steps)):
        raise InvalidArgumentError(
            f"checkpoints={list(checkpoints)} must be increasing integers >= 1"
        )
    w = np.zeros((etas.size, z.shape[1]))
    recorded = np.empty((len(steps), etas.size, z.shape[1]))
    done = 0
    for index, stop in enumerate(steps):
        for _ in range(stop - done):
            # -l'(m) = expit(-m) is the stable form of 1/(1 + e^m).
            w += etas[:, None] * (expit(-(w @ z.T)) @ z)
        done = stop
        recorded[index] = w
    return recorded


def residual(
    iterates: ArrayLike, max_margin: ArrayLike, steps: ArrayLike
) -> NDArray[np.float64]:
    r"""Eq. (5): the residual :math:`\rho(t) = w(t) - \hat w \log t`.

    Args:
      iterates: :math:`w(t)`, shape ``(..., d)`` with the step axis first.
      max_margin: :math:`\hat w`, shape ``(d,)``.
      steps: the steps t of the first axis of ``iterates``.

    Examples:
      >>> residual([[[1.0, 1.0]]], [1.0, 0.0], [1]).tolist()
      [[[1.0, 1.0]]]
    """
    w = np.asarray(iterates, dtype=np.float64)
    logs = np.log(np.asarray(steps, dtype=np.float64))
    shape = (logs.size,) + (1,) * (w.ndim - 1)
    return w - logs.reshape(shape) * np.asarray(max_margin, dtype=np.float64)


def direction_gap(w: ArrayLike, max_margin: ArrayLike) -> NDArray[np.float64]:
    r"""Eq. (6): the distance of the direction of :math:`w` from that of :math:`\hat w`.

    .. math:: \Bigl\|\frac{w}{\|w\|} - \frac{\hat w}{\|\hat w\|}\Bigr\|

    over the last axis of ``w``.

    Examples:
      >>> bool(np.isclose(direction_gap([0.0, 2.0], [3.0, 0.0]), np.sqrt(2.0)))
      True
    """
    iterate = np.asarray(w, dtype=np.float64)
    target = np.asarray(max_margin, dtype=np.float64)
    unit = iterate / np.linalg.norm(iterate, axis=-1, keepdims=True)
    return np.asarray(
        np.linalg.norm(unit - target / np.linalg.norm(target), axis=-1),
        dtype=np.float64,
    )
