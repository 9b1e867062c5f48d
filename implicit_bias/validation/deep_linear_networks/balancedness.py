r"""Initializations of deep linear networks satisfying condition (22) of
features-are-fate, :math:`\bar W_l^\top\bar W_l - \bar W_{l+1}\bar W_{l+1}^\top
\succeq \lambda I`, and the balancedness margin (the largest such
:math:`\lambda`) of given weights.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    check_integer,
    check_seed,
)
from implicit_bias.validation._deep_linear_descent import Float64Array
from implicit_bias.validation.deep_linear_networks.networks import (
    _exponents,
    _weights,
)

__all__ = [
    "balanced_initialization",
    "balancedness_margin",
]


# ---------------------------------------------------------------- trainers


def balanced_initialization(
    widths: Sequence[int], *, count: int = 1, seed: int = 0
) -> tuple[Float64Array, ...]:
    r"""Random :math:`\bar W_1, \dots, \bar W_L` satisfying condition (22).

    .. math:: \bar W_l^\top\bar W_l - \bar W_{l+1}\bar W_{l+1}^\top
              \succeq \lambda I,\qquad \lambda = 1

    :math:`\bar W_l = \sqrt{1 + L - l}\;Q_l` with :math:`Q_l` a uniformly
    random (Haar) matrix with orthonormal columns, so
    :math:`\bar W_l^\top\bar W_l = (1 + L - l) I` and
    :math:`\bar W_{l+1}\bar W_{l+1}^\top \preceq (L - l) I`. Condition (22)
    needs :math:`\bar W_l^\top\bar W_l` (d_l x d_l, rank at most
    :math:`d_{l-1}`) to be positive definite, hence non-increasing widths.

    Args:
      widths: :math:`(d_0, d_1, \dots, d_{L-1})`, non-increasing, at least two
        entries; :math:`d_L = 1` is appended.
      count: networks K, an integer >= 1.
      seed: seed of ``np.random.default_rng``, an integer >= 0.

    Returns:
      :math:`(\bar W_1, \dots, \bar W_L)`, each (K, d_{l-1}, d_l).

    Raises:
      InvalidArgumentError: fewer than two widths, a width that is not an
        integer >= 1, increasing widths, a count below 1 or a seed that is
        not an integer >= 0.

    Examples:
      >>> weights = balanced_initialization([4, 3, 3], count=2)
      >>> [W.shape for W in weights]
      [(2, 4, 3), (2, 3, 3), (2, 3, 1)]
      >>> bool(np.allclose(balancedness_margin(weights), 1.0))
      True

    References:
      Eq. (22) of features-are-fate (Appendix A).
    """
    if isinstance(widths, str | bytes) or not isinstance(widths, Sequence | np.ndarray):
        raise InvalidArgumentError(
            f"widths={widths!r} is not a sequence of integers (d_0, ..., d_{{L-1}})"
        )
    sizes = [
        check_integer(f"widths[{index}]", width, min_value=1, meaning="a width")
        for index, width in enumerate(widths)
    ] + [1]
    if len(sizes) < 3:
        raise InvalidArgumentError(
            f"widths={list(widths)!r}: a network of depth L >= 2 has widths "
            "(d_0, ..., d_{L-1}), at least two"
        )
    if any(a < b for a, b in itertools.pairwise(sizes)):
        raise InvalidArgumentError(
            f"widths={list(widths)!r} increase: condition (22) needs "
            "d_0 >= d_1 >= ... >= d_{L-1} (W_l^T W_l must be positive definite)"
        )
    count = check_integer("count", count, min_value=1, meaning="the number of networks")
    seed = check_seed("seed", seed)
    rng = np.random.default_rng(seed)
    depth = len(sizes) - 1
    layers = []
    for layer in range(1, depth + 1):
        gaussian = rng.standard_normal((count, sizes[layer - 1], sizes[layer]))
        q, r = np.linalg.qr(gaussian)
        q = q * np.sign(np.diagonal(r, axis1=1, axis2=2))[:, None, :]
        layers.append(np.sqrt(1.0 + depth - layer) * q)
    return tuple(layers)


def balancedness_margin(weights: Sequence[ArrayLike]) -> Float64Array:
    r"""The largest :math:`\lambda` with which the weights satisfy condition (22).

    .. math:: \lambda = \min_{1 \le l < L}\lambda_{\min}\big(W_l^\top W_l
              - W_{l+1}W_{l+1}^\top\big)

    Args:
      weights: :math:`W_1, \dots, W_L`, each (K, d_{l-1}, d_l).

    Returns:
      :math:`\lambda`, (K,); positive iff (22) holds.

    Raises:
      InvalidArgumentError: as :func:`end_to_end`.
      OutOfRangeError: :math:`|\lambda|` lies beyond the float64 range
        (Gram matrices that overflow while :math:`\lambda` does not are
        rescaled, exactly, by a power of two).

    Examples:
      >>> W1 = np.array([[[2.0, 0.0], [0.0, 2.0]]])
      >>> W2 = np.array([[[1.0], [0.0]]])
      >>> balancedness_margin([W1, W2]).tolist()
      [3.0]

    References:
      Eq. (22) of features-are-fate; eq. (35) for the invariant.
    """
    arrays = _weights("weights", weights)
    margin = _margin(arrays)
    if np.isfinite(margin).all():
        return margin
    # lambda is homogeneous of degree 2 in the weights: compute it for the
    # weights divided by 2^e (exact) and multiply by 4^e.
    exponent = _exponents(arrays)
    scale = np.ldexp(1.0, exponent)[:, None, None]
    with np.errstate(over="ignore"):
        margin = np.ldexp(_margin([W / scale for W in arrays]), 2 * exponent)
    if not np.isfinite(margin).all():
        raise OutOfRangeError(
            "the balancedness margin lies beyond the float64 range (about "
            f"4^{int(np.max(exponent))}): rescale the weights"
        )
    return np.asarray(margin)


def _margin(arrays: Sequence[Float64Array]) -> Float64Array:
    """min_l lambda_min(W_l^T W_l - W_{l+1} W_{l+1}^T) per network; NaN on overflow."""
    margins = []
    for W, V in itertools.pairwise(arrays):
        with np.errstate(over="ignore", invalid="ignore"):
            invariant = np.swapaxes(W, 1, 2) @ W - V @ np.swapaxes(V, 1, 2)
        finite = np.isfinite(invariant).all(axis=(1, 2))
        lowest = np.full(invariant.shape[0], np.nan)
        if finite.any():
            lowest[finite] = np.linalg.eigvalsh(invariant[finite])[:, 0]
        margins.append(lowest)
    return np.asarray(np.min(margins, axis=0))
