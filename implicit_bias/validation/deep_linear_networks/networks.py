r"""Deep linear networks (eq. 9 of features-are-fate): the result records, the
argument checks, the end-to-end map :math:`\beta = W_1\cdots W_L` and the
driver of the batched descent engine (see
:mod:`implicit_bias.validation.deep_linear_networks`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    as_finite_array,
    check_real,
    check_stopping_rule,
)
from implicit_bias.validation import _deep_linear_descent as descent
from implicit_bias.validation._deep_linear_descent import Float64Array

__all__ = [
    "DEFAULT_MAX_STEPS",
    "DEFAULT_TOLERANCE",
    "DeepLinearResult",
    "Integrator",
    "TransferResult",
    "end_to_end",
]

Integrator = Literal["midpoint", "gd"]

#: Default relative excess loss to stop at: the excess loss is quadratic in
#: the distance to the end point, so 1e-20 leaves that distance at 1e-10 of
#: the scale of the problem, far below the O(alpha) limits measured here.
DEFAULT_TOLERANCE = 1e-20
#: Default cap on the number of steps per network.
DEFAULT_MAX_STEPS = 100_000


@dataclass(frozen=True, eq=False)
class DeepLinearResult:
    r"""K deep linear networks after training.

    Attributes:
      weights: :math:`(W_1, \dots, W_L)`, each (K, d_{l-1}, d_l).
      coefficients: :math:`\beta = W_1\cdots W_L`, (K, d).
      excess_loss: loss minus its infimum at the returned weights, (K,) (for
        linear transfer: the excess along the top singular direction of the
        features, the rank-one plateau's).
      steps: steps taken, (K,).
    """

    weights: tuple[Float64Array, ...]
    coefficients: Float64Array
    excess_loss: Float64Array
    steps: NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class TransferResult:
    r"""One pretrained network and K target draws trained three ways.

    Attributes:
      pretrained: the network after pretraining on the population loss (4),
        one network (K = 1) shared by every draw.
      linear: linear transfer (only :math:`W_L` trained), K draws.
      finetuned: fine-tuning (every layer trained), K draws.
      scratch: training from the initialization :math:`\alpha\bar W`, K draws.
    """

    pretrained: DeepLinearResult
    linear: DeepLinearResult
    finetuned: DeepLinearResult
    scratch: DeepLinearResult


# --------------------------------------------------------------- arguments


def _weights(name: str, weights: Sequence[ArrayLike]) -> list[Float64Array]:
    """Checked, copied (K, d_{l-1}, d_l) weights with d_L = 1, L >= 2, K, d_l >= 1.

    ``name`` is the caller's argument; a layer is named ``name[l-1]``.
    """
    if isinstance(weights, str | bytes) or not isinstance(
        weights, Sequence | np.ndarray
    ):
        raise InvalidArgumentError(
            f"{name}={weights!r} is not a sequence of layers: {name} is "
            "(W_1, ..., W_L), each an array (K, d_{l-1}, d_l)"
        )
    if len(weights) < 2:
        raise InvalidArgumentError(
            f"{name} has {len(weights)} layers: a deep linear network has L >= 2"
        )
    arrays = []
    for index, value in enumerate(weights):
        array = as_finite_array(
            f"{name}[{index}]", value, ndim=(3,), shape="(K, d_{l-1}, d_l)"
        )
        if 0 in array.shape:
            raise InvalidArgumentError(
                f"{name}[{index}] has shape {array.shape}: the number of networks "
                "K and every width must be >= 1"
            )
        arrays.append(np.array(array, dtype=np.float64))
    count = arrays[0].shape[0]
    for index, (left, right) in enumerate(itertools.pairwise(arrays)):
        if left.shape[2] != right.shape[1] or right.shape[0] != count:
            raise InvalidArgumentError(
                f"{name}[{index}] has shape {left.shape} and {name}[{index + 1}] "
                f"{right.shape}: consecutive layers must chain, (K, a, b) then "
                "(K, b, c)"
            )
    if arrays[-1].shape[2] != 1:
        raise InvalidArgumentError(
            f"{name}[-1] has shape {arrays[-1].shape}: the network has one "
            "output, d_L = 1"
        )
    return arrays


def _rate(learning_rate: float | None) -> float | None:
    if learning_rate is None:
        return None
    return check_real(
        "learning_rate",
        learning_rate,
        min_value=0.0,
        exclusive=True,
        meaning="the step size of gradient descent (None: adaptive), > 0",
    )


def _integrator(integrator: str) -> Integrator:
    if not isinstance(integrator, str) or integrator not in ("midpoint", "gd"):
        raise InvalidArgumentError(
            f"integrator={integrator!r} is not 'midpoint' or 'gd'"
        )
    return "midpoint" if integrator == "midpoint" else "gd"


def _flag(name: str, value: bool) -> bool:
    # An int or a string would pass ``if value:`` silently.
    if not isinstance(value, bool | np.bool_):
        raise InvalidArgumentError(f"{name}={value!r} is not a bool")
    return bool(value)


def _stopping_rule(tol: float, max_steps: int) -> tuple[float, int]:
    return check_stopping_rule(
        tol, max_steps, tol_meaning="the relative excess loss to stop at"
    )


def _data(
    X: ArrayLike, y: ArrayLike, count: int, dimension: int
) -> tuple[Float64Array, Float64Array]:
    """X as (K, n, d) and y as (K, n), broadcast against ``count`` networks."""
    X_ = as_finite_array("X", X, ndim=(2, 3), shape="(n, d) or (K, n, d)")
    y_ = as_finite_array("y", y, ndim=(1, 2), shape="(n,) or (K, n)")
    if X_.ndim == 2:
        X_ = X_[None]
    if y_.ndim == 1:
        y_ = y_[None]
    if y_.shape[-1] != X_.shape[-2]:
        raise InvalidArgumentError(
            f"y has {y_.shape[-1]} samples but X has {X_.shape[-2]} rows: one target "
            "per row of X"
        )
    if X_.shape[-2] == 0:
        raise InvalidArgumentError("X has no rows: n must be >= 1")
    if X_.shape[2] != dimension:
        raise InvalidArgumentError(
            f"X has {X_.shape[2]} columns but the first layer has {dimension} rows"
        )
    try:
        (batch,) = np.broadcast_shapes(X_.shape[:1], y_.shape[:1], (count,))
    except ValueError as error:
        raise InvalidArgumentError(
            f"X ({X_.shape[0]} draws), y ({y_.shape[0]}) and the weights "
            f"({count} networks) do not broadcast to one batch"
        ) from error
    X_ = np.ascontiguousarray(np.broadcast_to(X_, (batch, *X_.shape[1:])))
    y_ = np.ascontiguousarray(np.broadcast_to(y_, (batch, y_.shape[1])))
    return X_, y_


def _threshold(tolerance: float, scale: Float64Array) -> Float64Array:
    """The excess loss to stop at, tol times the loss at beta = 0 above its floor.

    A scale beyond float64 (inf) gives inf for tol > 0 and 0 for tol = 0 (not
    the NaN of 0 * inf): tol = 0 stops only at the infimum itself.
    """
    if tolerance == 0:
        return np.zeros_like(scale)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(tolerance * scale)


def _exponents(arrays: Sequence[Float64Array]) -> NDArray[np.int64]:
    """Per network (leading axis), e with 2^e >= the largest |entry| of ``arrays``.

    Dividing by 2^e is exact, so a product of layers so divided is the product
    itself rescaled exactly, without overflowing on the way.
    """
    largest = np.max([np.max(np.abs(a), axis=(1, 2)) for a in arrays], axis=0)
    return np.asarray(np.frexp(np.where(largest > 0, largest, 1.0))[1])


# ------------------------------------------------------ forward and descent


def end_to_end(weights: Sequence[ArrayLike]) -> Float64Array:
    r"""The linear predictor of a deep linear network, :math:`\beta = W_1\cdots W_L`.

    Eq. (9) of features-are-fate: :math:`f(x) = x^\top W_1 W_2\cdots W_L`.

    Args:
      weights: :math:`W_1, \dots, W_L`, each (K, d_{l-1}, d_l), d_L = 1.

    Returns:
      :math:`\beta`, (K, d).

    Raises:
      InvalidArgumentError: fewer than two layers, shapes that do not chain,
        an empty axis, or a value that is not finite.
      OutOfRangeError: an entry of :math:`\beta` lies beyond the float64 range
        (partial products that overflow while :math:`\beta` does not are
        rescaled, exactly, by powers of two).

    Examples:
      >>> W1 = np.arange(6.0).reshape(1, 3, 2)
      >>> W2 = np.array([[[1.0], [-1.0]]])
      >>> end_to_end([W1, W2]).tolist()
      [[-1.0, -1.0, -1.0]]

    References:
      Eq. (9) of features-are-fate.
    """
    return _product(_weights("weights", weights))


def _product(weights: Sequence[Float64Array]) -> Float64Array:
    """beta = W_1 ... W_L (K, d), rescaled by powers of two where it overflows."""
    with np.errstate(over="ignore", invalid="ignore"):
        beta = descent.right_chain(weights)[0]
    if np.isfinite(beta).all():
        return beta
    exponents = [_exponents([W]) for W in weights]
    scaled = [
        W / np.ldexp(1.0, e)[:, None, None]
        for W, e in zip(weights, exponents, strict=True)
    ]
    total = np.sum(exponents, axis=0)
    with np.errstate(over="ignore"):
        beta = np.ldexp(descent.right_chain(scaled)[0], total[:, None])
    if not np.isfinite(beta).all():
        raise OutOfRangeError(
            "beta = W_1 ... W_L has an entry beyond the float64 range "
            f"(about 2^{int(np.max(total))}): rescale the weights"
        )
    return np.asarray(beta)


def _descend(
    weights: list[Float64Array],
    loss: descent.Loss,
    *,
    trainable: Sequence[int],
    learning_rate: float | None,
    integrator: Integrator,
    max_steps: int,
    strict: bool,
) -> DeepLinearResult:
    """Run :func:`~implicit_bias.validation._deep_linear_descent.descend`."""
    finals, excess, steps = descent.descend(
        weights,
        loss,
        trainable=trainable,
        learning_rate=learning_rate,
        integrator=integrator,
        max_steps=max_steps,
        strict=strict,
    )
    return DeepLinearResult(
        weights=finals,
        coefficients=_product(finals),
        excess_loss=excess,
        steps=steps,
    )
