r"""Tangent features and kernels of a small ReLU MLP, and the Figure 1 experiment.

A NumPy version of the network of Appendix B.1 of adaptive-tangent-features,
small enough for a test: an MLP with ReLU activations, no biases and one
output,

.. math:: f_\theta(x) = W_L^\top\,\phi(W_{L-1}^\top \cdots \phi(W_1^\top x)),
          \qquad \theta = \mathrm{concat}(\mathrm{vec}(W_1),\ldots,
          \mathrm{vec}(W_L)),

with :math:`W_\ell\in\mathbb R^{P_\ell\times Q_\ell}` (inputs by outputs, the
paper's orientation :math:`f = W_L^\top z`) and vec stacking columns, as in
Section 2's notation. Initialization is PyTorch's default for linear layers,
uniform with variance :math:`1/(3P_\ell)` (B.1 used PyTorch).

**Tangent features** :math:`\nabla_\theta f_\theta(x_i)` of every example are
computed by hand-written backpropagation: with :math:`a_0 = x`,
:math:`h_\ell = W_\ell^\top a_{\ell-1}`, :math:`a_\ell = \phi(h_\ell)`, the
backward signals are :math:`g_L = 1`,
:math:`g_{\ell} = \phi'(h_\ell)\odot W_{\ell+1} g_{\ell+1}`, and
:math:`\partial f/\partial W_\ell = a_{\ell-1} g_\ell^\top`, for all examples
at once.

**Kernels** on the training points: the initial NTK
:math:`K_0 = J_0 J_0^\top` (Section 3), the adapted kernel
:math:`K = \bar J\bar J^\top` of eq. (7) with the average tangent features
:math:`\bar J` of eq. (2) (equivalently eq. (20)), and the label kernel
:math:`K_{\hat y} = (f_{\hat\theta} - f_{\theta_0})(f_{\hat\theta} -
f_{\theta_0})^\top` of eq. (9). The average of eq. (2) is taken over the
linear path from :math:`\theta_0` to :math:`\hat\theta`, as Appendix B.1 does
("50 points along the linear path"), by the composite midpoint rule with
``nodes`` points. Along the path the integrand is piecewise polynomial with
jumps where a unit's activation switches, so the rule's error is
:math:`O(1/\text{nodes})` (jumps) plus :math:`O(1/\text{nodes}^2)` (smooth
pieces). Eq. (2) then holds as :math:`f_{\hat\theta} - f_{\theta_0} =
\bar J(\hat\theta - \theta_0)` up to that error. The training trajectory
enters only through its end point: along the trajectory itself the features
integrate (against the velocity) to the same change of f, but not to a
feature matrix applied to :math:`\hat\theta - \theta_0`, which is what eqs.
(2), (7) and (20) average.

**Figure 1.** Two Gaussian classes in :math:`\mathbb R^D` stand in for the
MNIST digits 2 and 3 (no download); each input is normalized to zero mean and
unit variance, as B.1 does with the images. The linear targets are
:math:`y = z(x)^\top b^*`, the least-squares fit of the :math:`\pm1` class
labels on the penultimate features :math:`z` of an independently initialized
network, and the binary targets are :math:`\mathrm{sign}(y)`. A fresh network
is trained on each by full-batch gradient descent on
:math:`\tfrac1{2N}\|f - y\|^2`; the alignment is the cosine similarity
:math:`\langle K, K_{\hat y}\rangle_F/(\|K\|_F\|K_{\hat y}\|_F)`. Both tasks
of one seed start from the same initialization (a paired comparison), and
the seed-level differences are summarized by their mean and standard error.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, fields

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
    "LabelAlignmentStudy",
    "LabelAlignmentTrial",
    "TrainingRun",
    "average_tangent_features",
    "flatten_weights",
    "initialize_mlp",
    "kernel_alignment",
    "label_alignment_study",
    "label_alignment_trial",
    "label_kernel",
    "mlp_outputs",
    "mlp_tangent_features",
    "tangent_kernel",
    "train_mlp",
    "two_class_inputs",
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


@dataclass(frozen=True, eq=False)
class LabelAlignmentTrial:
    r"""One seed of the Figure 1 experiment: both tasks, both kernels.

    Attributes:
      linear_alignment: :math:`\cos(K, K_{\hat y})` after training on y.
      sign_alignment: :math:`\cos(K, K_{\hat y})` after training on sign(y).
      linear_initial_alignment: :math:`\cos(K_0, K_{\hat y})`, linear task.
      sign_initial_alignment: :math:`\cos(K_0, K_{\hat y})`, binary task.
      linear_norm: :math:`\|\hat\beta\|_2` of eq. (5) with
        :math:`\tilde\Omega = \|\cdot\|_2` (the NTK interpolant) for y,
        relative to :math:`\|y - f_{\theta_0}\|` (the minimum-norm
        least-squares solution where :math:`J_0` lacks full row rank).
      sign_norm: the same for sign(y).
      linear_loss: final relative training loss, linear task.
      sign_loss: final relative training loss, binary task.
      linear_readout_share: the readout's share of the kernel change,
        :math:`\|\Delta K_L\|_F/\sum_\ell\|\Delta K_\ell\|_F` with
        :math:`\Delta K_\ell = \bar J_\ell\bar J_\ell^\top - J_{0\ell}J_{0\ell}^\top`
        the change of layer :math:`\ell`'s block (eq. 19), linear task.
      sign_readout_share: the same, binary task.
      linear_difficulty_correlation: Spearman's rank correlation, over the
        training points, of :math:`|y_i|` (the linear targets: small where a
        point is hard for the binarized task) with the change of the kernel's
        diagonal :math:`K(x_i, x_i) - K_0(x_i, x_i)`, linear task (Figure 3).
      sign_difficulty_correlation: the same, binary task.
    """

    linear_alignment: float
    sign_alignment: float
    linear_initial_alignment: float
    sign_initial_alignment: float
    linear_norm: float
    sign_norm: float
    linear_loss: float
    sign_loss: float
    linear_readout_share: float
    sign_readout_share: float
    linear_difficulty_correlation: float
    sign_difficulty_correlation: float


@dataclass(frozen=True, eq=False)
class LabelAlignmentStudy:
    r"""The Figure 1 experiment over several seeds.

    Attributes:
      trials: one :class:`LabelAlignmentTrial` per seed.
    """

    trials: tuple[LabelAlignmentTrial, ...]

    def values(self, name: str) -> Float64Array:
        """The field ``name`` of every trial, as a float64 array, (S,).

        Raises:
          InvalidArgumentError: ``name`` is not a field of
            :class:`LabelAlignmentTrial` (the message lists them).
        """
        names = [field.name for field in fields(LabelAlignmentTrial)]
        if not isinstance(name, str) or name not in names:
            # getattr(trial, name) raised a raw AttributeError (TypeError for
            # a name that is no string), and would read a method's name too.
            raise InvalidArgumentError(
                f"name={name!r:.80} is not a field of LabelAlignmentTrial: name is "
                f"one of {names}"
            )
        return np.array([getattr(trial, name) for trial in self.trials], dtype=float)

    @property
    def differences(self) -> Float64Array:
        """Per seed, sign-task alignment minus linear-task alignment."""
        return self.values("sign_alignment") - self.values("linear_alignment")

    @property
    def mean_difference(self) -> float:
        """The mean of :attr:`differences`."""
        return float(np.mean(self.differences))

    @property
    def standard_error(self) -> float:
        r"""Standard error of the mean difference, :math:`s/\sqrt{n}`."""
        differences = self.differences
        if differences.size < 2:
            return math.inf
        return float(np.std(differences, ddof=1) / math.sqrt(differences.size))


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


# ------------------------------------------------------------------- kernels


def tangent_kernel(features: ArrayLike) -> Float64Array:
    r"""The kernel matrix of tangent features, eq. (7): :math:`K = JJ^\top`.

    With the initial features this is :math:`K_0`, the NTK; with the average
    features of eq. (2) it is the adapted kernel :math:`K`.

    Raises:
      InvalidArgumentError: features not a finite, non-empty matrix.
      OutOfRangeError: an entry of K overflows float64.

    Examples:
      >>> tangent_kernel([[1.0, 2.0], [0.0, 1.0]])
      array([[5., 2.],
             [2., 1.]])

    References:
      Eq. (7) of adaptive-tangent-features.
    """
    j = as_finite_array("features", features, ndim=2)
    if j.size == 0:
        raise InvalidArgumentError(
            f"features has shape {j.shape}: it needs at least one row (example) "
            "and one column (parameter)"
        )
    with np.errstate(over="ignore", invalid="ignore"):
        kernel = np.asarray(j @ j.T)
    if not np.isfinite(kernel).all():
        raise OutOfRangeError(
            "the kernel J J^T overflows float64: features is too large "
            f"(largest entry {float(np.max(np.abs(j)))!r})"
        )
    return kernel


def label_kernel(initial_outputs: ArrayLike, final_outputs: ArrayLike) -> Float64Array:
    r"""The label kernel of eq. (9).

    .. math:: K_{\hat y}(x, x') = (f_{\hat\theta}(x) - f_{\theta_0}(x))
              (f_{\hat\theta}(x') - f_{\theta_0}(x'))

    Raises:
      InvalidArgumentError: the outputs are not finite vectors of one length
        (at least one).
      OutOfRangeError: an entry of the kernel overflows float64.

    Examples:
      >>> label_kernel([0.0, 1.0], [1.0, 3.0])
      array([[1., 2.],
             [2., 4.]])

    References:
      Eq. (9) of adaptive-tangent-features.
    """
    start = as_finite_array("initial_outputs", initial_outputs, ndim=1)
    end = as_finite_array("final_outputs", final_outputs, ndim=1)
    if start.shape != end.shape:
        raise InvalidArgumentError(
            f"initial_outputs {start.shape} and final_outputs {end.shape} differ"
        )
    if start.size == 0:
        raise InvalidArgumentError(
            "initial_outputs and final_outputs are empty: a kernel needs at least "
            "one example"
        )
    with np.errstate(over="ignore", invalid="ignore"):
        change = end - start
        kernel = np.asarray(np.outer(change, change))
    if not np.isfinite(kernel).all():
        raise OutOfRangeError(
            "the label kernel overflows float64: final_outputs - initial_outputs "
            f"reaches {float(np.max(np.abs(change)))!r}, whose square is beyond "
            "float64"
        )
    return kernel


def kernel_alignment(first: ArrayLike, second: ArrayLike) -> float:
    r"""The cosine similarity of two kernel matrices (Figure 1).

    .. math:: \frac{\langle K_1, K_2\rangle_F}{\|K_1\|_F\,\|K_2\|_F}

    Raises:
      InvalidArgumentError: different shapes, empty or zero matrices.

    Examples:
      >>> kernel_alignment(np.eye(2), 3.0 * np.eye(2))
      1.0

    References:
      Figure 1 of adaptive-tangent-features.
    """
    a = as_finite_array("first", first, ndim=2)
    b = as_finite_array("second", second, ndim=2)
    if a.shape != b.shape:
        raise InvalidArgumentError(f"first {a.shape} and second {b.shape} differ")
    if a.size == 0:
        raise InvalidArgumentError(
            f"first and second have shape {a.shape}: a kernel matrix is not empty"
        )
    largest_a, largest_b = float(np.max(np.abs(a))), float(np.max(np.abs(b)))
    for name, largest in (("first", largest_a), ("second", largest_b)):
        if largest == 0.0:
            raise InvalidArgumentError(
                f"{name} is a zero matrix: its cosine with any kernel is 0/0"
            )
    # Divide by the largest entry first: the Frobenius norm squares the entries,
    # which overflows (or underflows) for finite ones beyond ~1e+-154.
    a, b = a / largest_a, b / largest_b
    return float(np.sum(a * b) / np.sqrt(np.sum(a * a) * np.sum(b * b)))


# ------------------------------------------------------------------ Figure 1


def two_class_inputs(
    samples: int, dimension: int, *, separation: float = 1.5, seed: int = 0
) -> tuple[Float64Array, Float64Array]:
    r"""Two Gaussian classes, each input normalized to zero mean, unit variance.

    .. math:: x = \pm\,\tfrac{\Delta}{2}\,u + \xi,\quad \xi\sim\mathcal N(0, I_D),
              \qquad x \leftarrow (x - \bar x)/\mathrm{sd}(x)

    A synthetic stand-in for the MNIST digits 2 and 3 of Appendix B.1. Let
    :math:`\Delta` be ``separation`` and u a random unit vector.

    Args:
      samples: N, an integer >= 2 (half per class, rounded).
      dimension: D, an integer >= 2.
      separation: distance between the class means, a finite number > 0.
      seed: seed of ``numpy.random.default_rng``, an integer >= 0.

    Returns:
      (inputs (N, D), labels (N,) in {-1, +1}).

    Examples:
      >>> x, labels = two_class_inputs(6, 4, seed=0)
      >>> bool(np.allclose(x.mean(axis=1), 0) and np.allclose(x.std(axis=1), 1))
      True

    References:
      Appendix B.1 of adaptive-tangent-features (data preparation).
    """
    count = check_integer(
        "samples", samples, min_value=2, meaning="the number of inputs (two classes)"
    )
    size = check_integer(
        "dimension",
        dimension,
        min_value=2,
        meaning="the input dimension (a per-input variance needs two entries)",
    )
    gap = check_real(
        "separation",
        separation,
        min_value=0.0,
        exclusive=True,
        meaning="the distance between the class means (> 0)",
    )
    rng = np.random.default_rng(check_seed("seed", seed))
    direction = rng.standard_normal(size)
    direction /= np.linalg.norm(direction)
    labels = np.where(np.arange(count) % 2 == 0, 1.0, -1.0)
    x = 0.5 * gap * labels[:, None] * direction + rng.standard_normal((count, size))
    # Normalization does not depend on a row's scale; dividing each row by a
    # power of two near its largest entry is exact and keeps the squares of
    # the variance finite for separations up to the float64 range.
    _, exponents = np.frexp(np.max(np.abs(x), axis=1, keepdims=True))
    x = np.ldexp(x, -exponents)
    x = (x - x.mean(axis=1, keepdims=True)) / x.std(axis=1, keepdims=True)
    return x, labels


def _penultimate(layers: Weights, x: Float64Array) -> Float64Array:
    activations, _ = _forward(layers, x)
    return activations[-1]


def _power_of_two_above(*arrays: Float64Array) -> int:
    """e with max|entry| < 2^e (0 for zero arrays): dividing by 2^e is exact."""
    largest = max(float(np.max(np.abs(array))) for array in arrays)
    return math.frexp(largest)[1]


def _readout_share(
    initial_features: Float64Array,
    averaged: Float64Array,
    kernel_change: Float64Array,
    readout_size: int,
) -> float:
    """||dK_L||_F / (||dK_L||_F + ||dK_hidden||_F), the blocks of eq. (19).

    NaN when the kernel did not change at all (0/0): the caller refuses that.
    """
    before = initial_features[:, -readout_size:]
    after = averaged[:, -readout_size:]
    readout = after @ after.T - before @ before.T
    readout_norm = float(np.linalg.norm(readout))
    hidden_norm = float(np.linalg.norm(kernel_change - readout))
    total = readout_norm + hidden_norm
    return readout_norm / total if total > 0.0 else math.nan


def _ranks(values: Float64Array) -> Float64Array:
    """0-based ranks of ``values``, tied values sharing their average rank."""
    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    starts = np.cumsum(counts) - counts
    return np.asarray((starts + (counts - 1) / 2.0)[inverse], dtype=np.float64)


def _rank_correlation(first: Float64Array, second: Float64Array) -> float:
    """Spearman's rank correlation: Pearson's of the ranks (ties averaged).

    NaN when either vector is constant (its ranks carry no order).
    """
    ranks = [_ranks(values) for values in (first, second)]
    centred = [r - r.mean() for r in ranks]
    scale = math.sqrt(float(centred[0] @ centred[0]) * float(centred[1] @ centred[1]))
    return float(centred[0] @ centred[1]) / scale if scale > 0.0 else math.nan


def _relative_interpolant_norm(features: Float64Array, residual: Float64Array) -> float:
    r""":math:`\|\hat\beta\|/\|r\|` of the minimum-norm :math:`J_0\beta = r`.

    :math:`\hat\beta = J_0^+ r`, by least squares on :math:`J_0` itself (not
    its kernel, whose condition number is the square of J_0's). Where
    :math:`J_0` does not have full row rank (more samples than the features
    span, or units off on some inputs) this is the minimum-norm
    least-squares solution, the limit of the interpolant's formula.
    """
    beta = np.linalg.lstsq(features, residual, rcond=None)[0]
    return float(np.linalg.norm(beta)) / float(np.linalg.norm(residual))


def label_alignment_trial(
    seed: int,
    *,
    samples: int = 60,
    dimension: int = 8,
    widths: Sequence[int] = (32, 32),
    nodes: int = 20,
    step_fraction: float = 0.5,
    max_steps: int = 4000,
    tol: float = 1e-3,
) -> LabelAlignmentTrial:
    r"""One seed of the Figure 1 experiment (module docstring).

    .. math:: y = z(X)\,b^*,\ b^* = \arg\min_b\|z(X)b - \mathrm{labels}\|,
              \qquad \text{alignment} = \cos(K, K_{\hat y})

    The learning rate is ``step_fraction`` times :math:`2N/\lambda_{\max}(K_0)`,
    the stability limit of the linearized dynamics.

    Args:
      seed: seeds the data, the reference network and the trained network, an
        integer >= 0.
      samples: N, an integer >= 2.
      dimension: D, an integer >= 2.
      widths: hidden widths of both networks, at least one, each an integer
        >= 1.
      nodes: midpoint nodes of the path average (eq. 2), an integer >= 1.
      step_fraction: learning rate as a fraction of the linearized limit, in (0, 1).
      max_steps: most gradient steps per task, an integer >= 1.
      tol: relative training loss at which training stops, >= 0 and below the
        relative loss at the initialization (1 is that of the zero function).

    Returns:
      A :class:`LabelAlignmentTrial`.

    Raises:
      InvalidArgumentError: an argument outside the domain above; a network
        off on every input at initialization (narrow layers, few samples: use
        another seed); ``tol`` met before the first step.
      ConvergenceError: training diverges or steps into a region where the
        network is off on every input (lower ``step_fraction``), or leaves the
        outputs unchanged in float64 (raise ``step_fraction``).

    Examples:
      >>> trial = label_alignment_trial(0, samples=12, dimension=3, widths=(8,),
      ...                               max_steps=200)
      >>> bool(-1.0 <= trial.linear_alignment <= 1.0)
      True

    References:
      Figure 1 and Appendix B.1 of adaptive-tangent-features.
    """
    settings = _check_trial_settings(
        samples, dimension, widths, nodes, step_fraction, max_steps, tol
    )
    return _trial(check_seed("seed", seed), settings)


@dataclass(frozen=True)
class _TrialSettings:
    samples: int
    dimension: int
    widths: tuple[int, ...]
    nodes: int
    step_fraction: float
    max_steps: int
    tol: float


def _check_trial_settings(
    samples: int,
    dimension: int,
    widths: Sequence[int],
    nodes: int,
    step_fraction: float,
    max_steps: int,
    tol: float,
) -> _TrialSettings:
    """The settings of the Figure 1 experiment, checked before any work."""
    return _TrialSettings(
        samples=check_integer(
            "samples", samples, min_value=2, meaning="the number of inputs N"
        ),
        dimension=check_integer(
            "dimension", dimension, min_value=2, meaning="the input dimension D"
        ),
        widths=tuple(_check_widths(widths, hidden_required=True)),
        nodes=check_iteration_count("nodes", nodes),
        step_fraction=check_real(
            "step_fraction",
            step_fraction,
            min_value=0.0,
            max_value=1.0,
            exclusive=True,
            meaning="a fraction of the linearized stability limit, in (0, 1)",
        ),
        max_steps=check_iteration_count("max_steps", max_steps),
        tol=check_real(
            "tol", tol, min_value=0.0, meaning="a relative training loss (>= 0)"
        ),
    )


def _trial(seed: int, settings: _TrialSettings) -> LabelAlignmentTrial:
    samples, dimension, widths = settings.samples, settings.dimension, settings.widths
    nodes, fraction = settings.nodes, settings.step_fraction
    max_steps, tol = settings.max_steps, settings.tol
    rng = np.random.default_rng(seed)
    data_seed, reference_seed, network_seed = (
        int(s) for s in rng.integers(2**31, size=3)
    )
    x, labels = two_class_inputs(samples, dimension, seed=data_seed)
    reference = initialize_mlp(dimension, widths, seed=reference_seed)
    features = _penultimate(reference, x)
    linear_targets = features @ np.linalg.lstsq(features, labels, rcond=None)[0]
    if not linear_targets.any():
        raise InvalidArgumentError(
            f"seed={seed!r}, widths={widths!r}: the linear targets are zero (the "
            "reference network is off on every input, or its features are "
            "orthogonal to the labels, as when the inputs coincide); use wider "
            "layers, more samples, a larger dimension or another seed"
        )
    sign_targets = np.where(linear_targets >= 0, 1.0, -1.0)

    initial = initialize_mlp(dimension, widths, seed=network_seed)
    j0 = _tangent_features(initial, x)
    k0 = j0 @ j0.T
    largest = float(np.linalg.eigvalsh(k0)[-1])
    if largest == 0.0:
        raise InvalidArgumentError(
            f"seed={seed!r}, widths={widths!r}: the trained network is off on "
            "every input at initialization (its tangent kernel K0 is zero), so "
            "gradient descent cannot move it; use wider layers, more samples or "
            "another seed"
        )
    rate = fraction * 2.0 * samples / largest
    initial_outputs = mlp_outputs(initial, x)

    results = {}
    for name, targets in (("linear", linear_targets), ("sign", sign_targets)):
        run = train_mlp(
            initial, x, targets, learning_rate=rate, max_steps=max_steps, tol=tol
        )
        if run.steps == 0:
            raise InvalidArgumentError(
                f"tol={tol!r} is met at the initialization on the {name} targets: "
                "training takes no step, so the label kernel is zero and its "
                "alignment 0/0; lower tol"
            )
        # The loss was finite, so the outputs are: pre-activations past
        # float64 can only be -inf of units that are off.
        final_outputs = mlp_outputs(run.final_weights, x)
        # Cosines and the readout share do not change when the features (or
        # the outputs) share a scale; dividing by a power of two is exact and
        # keeps the kernels of a network trained to large weights in float64.
        outputs_shift = _power_of_two_above(initial_outputs, final_outputs)
        labels_kernel = label_kernel(
            np.ldexp(initial_outputs, -outputs_shift),
            np.ldexp(final_outputs, -outputs_shift),
        )
        averaged = average_tangent_features(initial, run.final_weights, x, nodes=nodes)
        features_shift = _power_of_two_above(averaged, j0)
        averaged = np.ldexp(averaged, -features_shift)
        initial_features = np.ldexp(j0, -features_shift)
        adapted = averaged @ averaged.T
        share = _readout_share(
            initial_features,
            averaged,
            adapted - initial_features @ initial_features.T,
            initial[-1].size,
        )
        if not adapted.any():
            raise ConvergenceError(
                f"the tangent features averaged over {nodes} nodes of the path to "
                f"the network trained on the {name} targets are zero (the network "
                "is off on every input at every node, after a step into a dead "
                f"region), so the alignment is 0/0: lower step_fraction="
                f"{fraction!r} or use more nodes"
            )
        if not labels_kernel.any() or math.isnan(share):
            raise ConvergenceError(
                f"{run.steps} gradient steps on the {name} targets left the "
                "network's outputs or kernel unchanged in float64 (a learning "
                f"rate of {rate!r}, step_fraction={fraction!r} of the linearized "
                "limit, is too small to move the weights), so the alignment is "
                "0/0; raise step_fraction"
            )
        results[name] = (
            kernel_alignment(adapted, labels_kernel),
            kernel_alignment(k0, labels_kernel),
            _relative_interpolant_norm(j0, targets - initial_outputs),
            float(run.losses[-1] / (0.5 * float(targets @ targets) / samples)),
            share,
            _rank_correlation(
                np.abs(linear_targets),
                np.diag(adapted) - np.sum(initial_features**2, axis=1),
            ),
        )
    return LabelAlignmentTrial(
        linear_alignment=results["linear"][0],
        sign_alignment=results["sign"][0],
        linear_initial_alignment=results["linear"][1],
        sign_initial_alignment=results["sign"][1],
        linear_norm=results["linear"][2],
        sign_norm=results["sign"][2],
        linear_loss=results["linear"][3],
        sign_loss=results["sign"][3],
        linear_readout_share=results["linear"][4],
        sign_readout_share=results["sign"][4],
        linear_difficulty_correlation=results["linear"][5],
        sign_difficulty_correlation=results["sign"][5],
    )


def label_alignment_study(
    seeds: Sequence[int],
    *,
    samples: int = 60,
    dimension: int = 8,
    widths: Sequence[int] = (32, 32),
    nodes: int = 20,
    step_fraction: float = 0.5,
    max_steps: int = 4000,
    tol: float = 1e-3,
) -> LabelAlignmentStudy:
    r"""The Figure 1 experiment over several seeds (:func:`label_alignment_trial`).

    .. math:: \bar\Delta = \frac1n\sum_{k=1}^n \big(\cos(K, K_{\hat y})_{\rm sign}
              - \cos(K, K_{\hat y})_{\rm linear}\big)_k

    Args:
      seeds: one trial per seed, at least two (for a standard error), each an
        integer >= 0.
      samples, dimension, widths, nodes, step_fraction, max_steps, tol: as in
        :func:`label_alignment_trial`.

    Returns:
      A :class:`LabelAlignmentStudy`.

    Raises:
      InvalidArgumentError, ConvergenceError: as :func:`label_alignment_trial`.

    Examples:
      >>> study = label_alignment_study([0, 1], samples=12, dimension=3,
      ...                               widths=(8,), max_steps=100)
      >>> study.differences.shape
      (2,)

    References:
      Figure 1 of adaptive-tangent-features.
    """
    if isinstance(seeds, str | bytes) or not isinstance(seeds, Sequence | np.ndarray):
        raise InvalidArgumentError(
            f"seeds={seeds!r:.80} is not a sequence of seeds (integers >= 0)"
        )
    seed_list = [
        check_seed(f"seeds[{index}]", seed) for index, seed in enumerate(seeds)
    ]
    if len(seed_list) < 2:
        raise InvalidArgumentError(
            f"seeds={seeds!r} has fewer than 2 entries: a standard error needs two"
        )
    settings = _check_trial_settings(
        samples, dimension, widths, nodes, step_fraction, max_steps, tol
    )
    return LabelAlignmentStudy(
        trials=tuple(_trial(seed, settings) for seed in seed_list)
    )
