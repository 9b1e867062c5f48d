r"""A small ReLU MLP in NumPy: initialization, outputs, hand-written tangent
features, full-batch gradient descent, and the average tangent features of
eq. (2) of adaptive-tangent-features along the linear path (see
:mod:`implicit_bias.validation.tangent_kernels`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import ConvergenceError, InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    as_finite_array,
    check_integer,
    check_iteration_count,
    check_real,
    check_seed,
)

__all__ = [
    "TrainingRun",
    "average_tangent_features",
    "flatten_weights",
    "initialize_mlp",
    "mlp_outputs",
    "mlp_tangent_features",
    "train_mlp",
]

Float64Array = NDArray[np.float64]
Weights = tuple[Float64Array, ...]


@dataclass(frozen=True, eq=False)
class TrainingRun:
    r"""An MLP after full-batch gradient descent on the squared loss.

    Attributes:
      initial_weights: :math:`\theta_0` as the layer matrices.
      final_weights: :math:`\hat\theta` as the layer matrices.
      losses: :math:`\tfrac1{2N}\|f - y\|^2` before every step and at the end.
      converged: whether the loss fell to ``tol`` times :math:`\|y\|^2/2N`.
    """

    initial_weights: Weights
    final_weights: Weights
    losses: Float64Array
    converged: bool

    @property
    def steps(self) -> int:
        """Gradient steps taken."""
        return int(self.losses.size - 1)


# ------------------------------------------------------------------- network


def _check_weights(weights: Sequence[ArrayLike], name: str = "weights") -> Weights:
    """The layers as float64 matrices, chained, one output, none empty."""
    if isinstance(weights, str | bytes) or not isinstance(
        weights, Sequence | np.ndarray
    ):
        raise InvalidArgumentError(
            f"{name}={weights!r:.80} is not a sequence of layer matrices W_1, ..., W_L"
        )
    layers = tuple(
        as_finite_array(f"{name}[{index}]", layer, ndim=2)
        for index, layer in enumerate(weights)
    )
    if not layers:
        raise InvalidArgumentError(f"{name} is empty: an MLP has at least one layer")
    for index, layer in enumerate(layers):
        if layer.size == 0:
            raise InvalidArgumentError(
                f"{name}[{index}] has shape {layer.shape}: every layer has at "
                "least one input and one output"
            )
    for index in range(1, len(layers)):
        if layers[index].shape[0] != layers[index - 1].shape[1]:
            raise InvalidArgumentError(
                f"{name}[{index}] has shape {layers[index].shape}: its rows must "
                f"match the {layers[index - 1].shape[1]} outputs of layer {index - 1}"
            )
    if layers[-1].shape[1] != 1:
        raise InvalidArgumentError(
            f"{name}[-1] has shape {layers[-1].shape}: the network has one output"
        )
    return layers


def _check_inputs(inputs: ArrayLike, layers: Weights) -> Float64Array:
    x = as_finite_array("inputs", inputs, ndim=2)
    if x.shape[0] == 0:
        raise InvalidArgumentError(
            f"inputs has shape {x.shape}: inputs must have at least one row (example)"
        )
    if x.shape[1] != layers[0].shape[0]:
        raise InvalidArgumentError(
            f"inputs has shape {x.shape}: it must have {layers[0].shape[0]} columns, "
            "the input dimension of the first layer"
        )
    return x


def _check_widths(widths: Sequence[int], *, hidden_required: bool) -> list[int]:
    """The hidden widths as ints >= 1 (at least one if ``hidden_required``)."""
    if isinstance(widths, str | bytes) or not isinstance(widths, Sequence | np.ndarray):
        raise InvalidArgumentError(
            f"widths={widths!r:.80} is not a sequence of hidden widths"
        )
    sizes = [
        check_integer(
            f"widths[{index}]", width, min_value=1, meaning="a hidden width (units)"
        )
        for index, width in enumerate(widths)
    ]
    if hidden_required and not sizes:
        raise InvalidArgumentError(
            "widths is empty: the experiment needs at least one hidden layer (the "
            "tangent features of a linear model do not change in training)"
        )
    return sizes


def _check_finite_result(result: Float64Array, what: str) -> Float64Array:
    if not np.isfinite(result).all():
        raise OutOfRangeError(
            f"{what} overflow float64: the weights and inputs are too large "
            "for a forward pass in float64"
        )
    return result


def initialize_mlp(
    input_dimension: int, widths: Sequence[int], *, seed: int = 0
) -> Weights:
    r"""PyTorch's default initialization of a bias-free ReLU MLP with one output.

    .. math:: [W_\ell]_{pq} \sim \mathcal U\big(-P_\ell^{-1/2},\ P_\ell^{-1/2}\big)

    (``torch.nn.Linear``'s default, variance :math:`1/(3P_\ell)`), the
    initialization of the PyTorch network of Appendix B.1.

    Args:
      input_dimension: D, an integer >= 1.
      widths: the hidden widths, each an integer >= 1 (L - 1 of them; none
        is a linear model).
      seed: seed of ``numpy.random.default_rng``, an integer >= 0.

    Returns:
      The layer matrices :math:`W_1, \ldots, W_L`, shapes (D, H_1), ...,
      (H_{L-1}, 1).

    Examples:
      >>> [w.shape for w in initialize_mlp(3, [4, 5], seed=0)]
      [(3, 4), (4, 5), (5, 1)]
      >>> bool(np.all(np.abs(initialize_mlp(4, [3], seed=0)[0]) <= 0.5))
      True

    References:
      Appendix B.1 of adaptive-tangent-features (architecture).
    """
    sizes = [check_iteration_count("input_dimension", input_dimension)]
    sizes += _check_widths(widths, hidden_required=False)
    sizes.append(1)
    rng = np.random.default_rng(check_seed("seed", seed))
    return tuple(
        rng.uniform(-1.0, 1.0, (fan_in, fan_out)) / math.sqrt(fan_in)
        for fan_in, fan_out in itertools.pairwise(sizes)
    )


def _forward(
    layers: Weights, inputs: Float64Array
) -> tuple[list[Float64Array], list[Float64Array]]:
    """Activations a_0..a_{L-1} and pre-activations h_1..h_{L-1} of every example."""
    activations = [inputs]
    preactivations = []
    for layer in layers[:-1]:
        hidden = activations[-1] @ layer
        preactivations.append(hidden)
        activations.append(np.maximum(hidden, 0.0))
    return activations, preactivations


def mlp_outputs(weights: Sequence[ArrayLike], inputs: ArrayLike) -> Float64Array:
    r"""The network's outputs :math:`f_\theta(x_i)` on the rows of ``inputs``.

    .. math:: f_\theta(x) = W_L^\top\phi(W_{L-1}^\top\cdots\phi(W_1^\top x))

    Args:
      weights: :math:`W_1, \ldots, W_L`, chained shapes, one output.
      inputs: X, (N, D).

    Returns:
      (N,) outputs.

    Raises:
      InvalidArgumentError: bad shapes, or entries not finite reals.
      OutOfRangeError: the outputs overflow float64.

    Examples:
      >>> float(mlp_outputs([np.eye(2), np.array([[1.0], [-1.0]])], [[2.0, -3.0]])[0])
      2.0

    References:
      Appendix B.1 of adaptive-tangent-features.
    """
    layers = _check_weights(weights)
    x = _check_inputs(inputs, layers)
    with np.errstate(over="ignore", invalid="ignore"):
        activations, _ = _forward(layers, x)
        outputs = np.asarray((activations[-1] @ layers[-1])[:, 0])
    return _check_finite_result(outputs, "the outputs")


def flatten_weights(weights: Sequence[ArrayLike]) -> Float64Array:
    r""":math:`\theta = \mathrm{concat}(\mathrm{vec}(W_1), \ldots, \mathrm{vec}(W_L))`.

    vec stacks columns (Section 2's notation), the order of
    :func:`mlp_tangent_features`.

    Examples:
      >>> flatten_weights([np.array([[1.0, 2.0], [3.0, 4.0]]), np.ones((2, 1))])
      array([1., 3., 2., 4., 1., 1.])

    References:
      Section 3.2 of adaptive-tangent-features.
    """
    layers = _check_weights(weights)
    return np.concatenate([layer.ravel(order="F") for layer in layers])


def _unflatten(theta: Float64Array, like: Weights) -> Weights:
    layers = []
    offset = 0
    for layer in like:
        size = layer.size
        layers.append(theta[offset : offset + size].reshape(layer.shape, order="F"))
        offset += size
    return tuple(layers)


def _tangent_features(layers: Weights, x: Float64Array) -> Float64Array:
    activations, preactivations = _forward(layers, x)
    count = x.shape[0]
    signal = np.ones((count, 1))
    blocks: list[Float64Array] = []
    for index in range(len(layers) - 1, -1, -1):
        # Per example, vec(a g^T) with columns stacked: index (out, in) flattened.
        blocks.append(
            np.einsum("no,ni->noi", signal, activations[index]).reshape(count, -1)
        )
        if index > 0:
            signal = (signal @ layers[index].T) * (preactivations[index - 1] > 0)
    return np.concatenate(blocks[::-1], axis=1)


def mlp_tangent_features(
    weights: Sequence[ArrayLike], inputs: ArrayLike
) -> Float64Array:
    r"""Per-example tangent features :math:`\nabla_\theta f_\theta(x_i)`, by backprop.

    .. math:: \frac{\partial f}{\partial W_\ell} = a_{\ell-1} g_\ell^\top,\quad
              g_L = 1,\quad g_\ell = \phi'(h_\ell)\odot W_{\ell+1}g_{\ell+1}

    Args:
      weights: :math:`W_1, \ldots, W_L`.
      inputs: X, (N, D).

    Returns:
      J, (N, P): row i is the gradient in the order of :func:`flatten_weights`.

    Raises:
      InvalidArgumentError: bad shapes, or entries not finite reals.
      OutOfRangeError: the features overflow float64.

    Examples:
      The readout's features are the last hidden activations:

      >>> w = [np.eye(2), np.array([[1.0], [-1.0]])]
      >>> mlp_tangent_features(w, [[2.0, -3.0]])[0, -2:]
      array([2., 0.])

    References:
      Eqs. (2) and (13) of adaptive-tangent-features.
    """
    layers = _check_weights(weights)
    x = _check_inputs(inputs, layers)
    with np.errstate(over="ignore", invalid="ignore"):
        features = _tangent_features(layers, x)
    return _check_finite_result(features, "the tangent features")


def _loss_and_gradient(
    layers: Weights, x: Float64Array, targets: Float64Array
) -> tuple[float, Weights]:
    activations, preactivations = _forward(layers, x)
    count = x.shape[0]
    residual = (activations[-1] @ layers[-1])[:, 0] - targets
    loss = 0.5 * float(residual @ residual) / count
    signal = residual[:, None] / count
    gradients: list[Float64Array] = []
    for index in range(len(layers) - 1, -1, -1):
        gradients.append(activations[index].T @ signal)
        if index > 0:
            signal = (signal @ layers[index].T) * (preactivations[index - 1] > 0)
    return loss, tuple(gradients[::-1])


def train_mlp(
    weights: Sequence[ArrayLike],
    inputs: ArrayLike,
    targets: ArrayLike,
    *,
    learning_rate: float,
    max_steps: int = 20_000,
    tol: float = 1e-4,
) -> TrainingRun:
    r"""Full-batch gradient descent on :math:`\tfrac1{2N}\|f_\theta(X) - y\|^2`.

    .. math:: \theta_{k+1} = \theta_k - \eta\,\tfrac1N J_k^\top(f_{\theta_k}(X) - y)

    Args:
      weights: the initialization :math:`\theta_0`.
      inputs: X, (N, D).
      targets: y, (N,).
      learning_rate: :math:`\eta > 0`.
      max_steps: most steps, an integer >= 1.
      tol: stop once the loss is at most ``tol`` times :math:`\|y\|^2/2N`.

    Returns:
      A :class:`TrainingRun`.

    Raises:
      InvalidArgumentError: bad shapes or settings.
      OutOfRangeError: the loss at the initial weights overflows float64.
      ConvergenceError: the loss overflowed later (lower the learning rate).

    Examples:
      >>> x = np.array([[1.0, 0.0], [0.0, 1.0]])
      >>> run = train_mlp(initialize_mlp(2, [8], seed=1), x, [1.0, -1.0],
      ...                 learning_rate=0.5, tol=1e-10)
      >>> bool(run.converged and np.allclose(mlp_outputs(run.final_weights, x),
      ...                                    [1.0, -1.0], atol=1e-4))
      True

    References:
      Problem (1) of adaptive-tangent-features, squared loss.
    """
    layers = _check_weights(weights)
    x = _check_inputs(inputs, layers)
    y = as_finite_array("targets", targets, ndim=1)
    if y.shape[0] != x.shape[0]:
        raise InvalidArgumentError(
            f"targets has {y.shape[0]} entries: it must have one per input row "
            f"({x.shape[0]})"
        )
    rate = check_real(
        "learning_rate",
        learning_rate,
        min_value=0.0,
        exclusive=True,
        meaning="the step size (> 0)",
    )
    steps = check_iteration_count("max_steps", max_steps)
    tolerance = check_real(
        "tol", tol, min_value=0.0, meaning="a relative training loss (>= 0)"
    )
    # tol * ||y||^2 / 2N may overflow (a threshold of inf stops at once, as
    # any finite loss meets it); scaling by max|y| keeps ||y||^2 itself finite.
    largest = float(np.max(np.abs(y)))
    with np.errstate(over="ignore"):
        mean_square = float(np.mean(np.square(y / largest))) if largest > 0 else 0.0
        threshold = tolerance * 0.5 * mean_square * largest * largest
    current = tuple(layer.copy() for layer in layers)
    losses: list[float] = []
    converged = False
    # Overflow is reported as an error below, never as a NaN. One errstate
    # around the loop: entering one costs as much as a small step's matmul.
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(steps + 1):
            loss, gradients = _loss_and_gradient(current, x, y)
            if not math.isfinite(loss):
                if not losses:
                    raise OutOfRangeError(
                        "the loss at the initial weights overflows float64: the "
                        "weights, inputs or targets are too large for training "
                        "in float64"
                    )
                raise ConvergenceError(
                    f"gradient descent diverged after {len(losses)} steps with "
                    f"learning_rate={rate!r}: lower the learning rate"
                )
            losses.append(loss)
            if loss <= threshold:
                converged = True
                break
            if len(losses) > steps:
                break
            current = tuple(
                layer - rate * gradient
                for layer, gradient in zip(current, gradients, strict=True)
            )
            # A finite sum needs finite entries: the entrywise test runs only
            # when the sum is not finite (a non-finite entry, or an overflow).
            if not math.isfinite(sum(float(layer.sum()) for layer in current)) and (
                not all(np.isfinite(layer).all() for layer in current)
            ):
                # A weight past float64 can leave the loss finite (a unit that
                # is off everywhere), so the weights are checked, not only the
                # loss.
                raise ConvergenceError(
                    f"gradient descent diverged after {len(losses)} steps with "
                    f"learning_rate={rate!r}: a weight overflowed float64; lower "
                    "the learning rate"
                )
    return TrainingRun(
        initial_weights=layers,
        final_weights=current,
        losses=np.array(losses),
        converged=converged,
    )


def average_tangent_features(
    initial_weights: Sequence[ArrayLike],
    final_weights: Sequence[ArrayLike],
    inputs: ArrayLike,
    *,
    nodes: int = 50,
) -> Float64Array:
    r"""Average tangent features along the linear path, eq. (2), by the midpoint rule.

    .. math:: \overline{\nabla f_\theta}(x) = \int_0^1 \nabla_{\theta'}
              f_{\theta'}(x)\big|_{\theta' = (1-t)\theta_0 + t\theta}\,dt
              \approx \frac1n\sum_{k=0}^{n-1}\nabla f_{\theta(t_k)}(x),\quad
              t_k = \frac{k + 1/2}{n}

    Let n be ``nodes``. The error is :math:`O(1/n)` from the activation
    switches along the path (module docstring).

    Args:
      initial_weights: :math:`\theta_0`.
      final_weights: :math:`\theta`, the same shapes.
      inputs: X, (N, D).
      nodes: quadrature points, an integer >= 1 (B.1 uses 50).

    Returns:
      :math:`\bar J`, (N, P).

    Raises:
      InvalidArgumentError: bad shapes or settings.
      OutOfRangeError: the features overflow float64.

    Examples:
      For the readout alone the path average is exact, since the readout's
      features do not depend on the readout:

      >>> w0 = initialize_mlp(3, [4], seed=0)
      >>> w1 = (w0[0], w0[1] + 1.0)
      >>> x = np.random.default_rng(0).standard_normal((5, 3))
      >>> jbar = average_tangent_features(w0, w1, x, nodes=1)
      >>> change = mlp_outputs(w1, x) - mlp_outputs(w0, x)
      >>> bool(np.allclose(jbar @ (flatten_weights(w1) - flatten_weights(w0)), change))
      True

    References:
      Eqs. (2) and (20), Appendix B.1 of adaptive-tangent-features.
    """
    start = _check_weights(initial_weights, "initial_weights")
    end = _check_weights(final_weights, "final_weights")
    if [w.shape for w in start] != [w.shape for w in end]:
        raise InvalidArgumentError(
            "initial_weights and final_weights have different shapes: the path "
            "joins two parameter vectors of one network"
        )
    x = _check_inputs(inputs, start)
    count = check_iteration_count("nodes", nodes)
    total = np.zeros((x.shape[0], sum(w.size for w in start)))
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(count):
            t = (k + 0.5) / count
            point = tuple(
                (1.0 - t) * a + t * b for a, b in zip(start, end, strict=True)
            )
            total += _tangent_features(point, x)
        total /= count
    return _check_finite_result(total, "the tangent features along the path")
