r"""Training many diagonal networks together for the experiments of
ptft-diagonal-networks: a stable learning rate per problem, batches of
networks sharing inputs (stacked while they fit in memory) and the
pretraining runs PT+FT starts from (see
:mod:`implicit_bias.validation.diagonal_experiments`).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.validation.diagonal_networks import (
    DiagonalTrainingResult,
    _train_groups,
)

__all__ = [
    "stacks_repeats",
]

Float64Array = NDArray[np.float64]


def _stable_learning_rate(
    X: Float64Array, counts: NDArray[np.int64], size: float
) -> Float64Array:
    r"""Per-network step sizes :math:`0.5 / (\lambda_{\max}(X_n^\top X_n/n)\, s)`.

    At an interpolant the Hessian of L in the weights is
    :math:`\tfrac2n J^\top J` with :math:`J J^\top = X\mathrm{diag}(c)X^\top`,
    :math:`c_d = \sum_\pm (w^{(1)}_{\pm,d})^2 + (w^{(2)}_{\pm,d})^2 \approx
    2|\beta_d|` (balanced weights, one live branch), so its largest eigenvalue
    is at most :math:`4\lambda_{\max}\max_d|\beta_d|` and descent is stable
    below :math:`0.5/(\lambda_{\max}\max_d|\beta_d|)`. Here s is
    ``max(1, size)`` with ``size`` the ground truth's largest coefficient; the
    bound is loose (diag(c) rarely aligns with the top eigenvector of
    :math:`X^\top X`), and a run that diverges raises ConvergenceError.
    """
    top = np.array([np.linalg.eigvalsh(X[:n].T @ X[:n] / n)[-1] for n in counts])
    return np.asarray(0.5 / (top * max(1.0, size)))


@dataclass(frozen=True)
class _Batch:
    """The networks one repeat trains on its own (n, D) inputs ``X``.

    ``targets`` (K, n) or (K, n, O), ``w1`` (K, D), ``w2`` (K, D) or
    (K, O, D), ``rate`` and ``counts`` (K,): the arguments of a trainer.
    """

    X: Float64Array
    targets: Float64Array
    w1: Float64Array
    w2: Float64Array
    rate: Float64Array
    counts: NDArray[np.int64]


#: Repeats train together while the stacked copies of their inputs, one per
#: network, take at most this many bytes: in cache, a step of the stacked
#: products costs about what the R steps of the shared ones do (quick Appendix
#: E.1 configurations, 0.4 MB: 30 us against 34 us for R = 2); beyond it they
#: would stream every copy from memory (full configurations, 27 MB: 5.8 ms
#: against 0.7 ms for R = 5), and the repeats train in groups that share one
#: copy of their inputs instead.
_STACKED_BYTES = 1 << 20


def stacks_repeats(networks: int, samples: int, dimension: int) -> bool:
    r"""Whether the experiments here train ``networks`` repeats of an (n, D)
    problem in one batched call, each with its own copy of the inputs, rather
    than one after another: when the copies fit in 1 MiB of float64,

    .. math::

        8 \cdot \mathrm{networks} \cdot n \cdot D \le 2^{20} \text{ bytes}.

    In cache, a step of the stacked products costs about what the repeats'
    steps one at a time do; beyond it every copy would stream from memory, and
    the repeats train in one call as groups of networks that share their
    inputs (the cost models of the experiments' claims count their calls by
    it).

    Args:
      networks: the repeats (networks) trained together.
      samples: n, the samples of each.
      dimension: D, the input dimension.

    Returns:
      True when the experiments stack the repeats.

    Raises:
      InvalidArgumentError: an argument is not an integer >= 1.

    Examples:
      >>> stacks_repeats(2, 50, 500), stacks_repeats(5, 500, 1000)
      (True, False)

    References:
      The Appendix E.1 experiments of ptft-diagonal-networks
      (:func:`norms_versus_sample_size`, :func:`overlap_versus_rescaling`).
    """
    for name, value in (
        ("networks", networks),
        ("samples", samples),
        ("dimension", dimension),
    ):
        if (
            isinstance(value, bool)
            or not isinstance(value, int | np.integer)
            or value < 1
        ):
            raise InvalidArgumentError(
                f"{name}: must be an integer >= 1, got {value!r}"
            )
    return networks * samples * dimension * 8 <= _STACKED_BYTES


def _train_together(
    trainer: Callable[..., DiagonalTrainingResult],
    batches: Sequence[_Batch],
    tol: float,
) -> list[DiagonalTrainingResult]:
    """Train the batches of every repeat; the results, by batch.

    When :func:`stacks_repeats`, in one call, each network with its batch's
    X (the per-network-input path of the trainers), padded with zero rows to
    the most rows of any batch (its sample count masks them out): the batches
    advance together, one loop instead of one per batch, and each network's
    iterates are the ones it has alone up to the summation order of the
    stacked products. Otherwise also in one call, each batch a group of
    networks sharing its X (``_train_groups``): one loop for all the repeats
    instead of one per batch, two products with each batch's X per step, over
    the rows its live networks train on; the iterates differ from those of a
    call per batch by the summation order of the products only.
    """
    networks = sum(b.rate.size for b in batches)
    samples = max(b.X.shape[0] for b in batches)

    def padded(array: Float64Array, axis: int) -> Float64Array:
        widths = [(0, 0)] * array.ndim
        widths[axis] = (0, samples - array.shape[axis])
        return np.pad(array, widths)

    targets = np.concatenate([padded(b.targets, 1) for b in batches])
    w1 = np.concatenate([b.w1 for b in batches])
    w2 = np.concatenate([b.w2 for b in batches])
    rate = np.concatenate([b.rate for b in batches])
    counts = np.concatenate([b.counts for b in batches])
    if stacks_repeats(networks, samples, batches[0].X.shape[1]):
        result = trainer(
            np.concatenate(
                [
                    np.broadcast_to(
                        padded(b.X, 0), (b.rate.size, samples, b.X.shape[1])
                    )
                    for b in batches
                ]
            ),
            targets,
            w1,
            w2,
            learning_rate=rate,
            sample_counts=counts,
            tol=tol,
        )
    else:
        result = _train_groups(
            [b.X for b in batches],
            [b.rate.size for b in batches],
            targets,
            w1,
            w2,
            learning_rate=rate,
            sample_counts=counts,
            tol=tol,
            # (K, D) second layers: single-task batches; (K, O, D): multi-task.
            single_output=batches[0].w2.ndim == 2,
        )
    starts = np.cumsum([0] + [b.rate.size for b in batches])
    return [
        dataclasses.replace(
            result,
            **{
                field.name: getattr(result, field.name)[start:end]
                for field in dataclasses.fields(result)
            },
        )
        for start, end in itertools.pairwise(starts)
    ]


def _pretraining(
    X_aux: Float64Array, y_aux: Float64Array, size: float, alpha: float
) -> _Batch:
    """One network pretrained from ``alpha`` on ``(X_aux, y_aux)``, all its rows."""
    samples, dimension = X_aux.shape
    return _Batch(
        X_aux,
        y_aux[None],
        np.full((1, dimension), alpha),
        np.full((1, dimension), alpha),
        _stable_learning_rate(X_aux, np.array([samples]), size),
        np.array([samples]),
    )
