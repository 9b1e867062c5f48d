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

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import ConvergenceError, InvalidArgumentError
from implicit_bias.numerics.arguments import as_finite_array, check_iteration_count
import itertools

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
        relative to :math:`\|y - f_{\theta_0}\|`.
      sign_norm: the same for sign(y).
      linear_loss: final relative training loss, linear task.
      sign_loss: final relative training loss, binary task.
      linear_readout_share: the readout's share of the kernel change,
        :math:`\|\Delta K_L\|_F/\sum_\ell\|\Delta K_\ell\|_F` with
        :math:`\Delta K_\ell = \bar J_\ell\bar J_\ell^\top - J_{0\ell}J_{0\ell}^\top`
        the change of layer :math:`\ell`'s block (eq. 19), linear task.
      sign_readout_share: the same, binary task.
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


@dataclass(frozen=True, eq=False)
class LabelAlignmentStudy:
    r"""The Figure 1 experiment over several seeds.

    Attributes:
      trials: one :class:`LabelAlignmentTrial` per seed.
    """

    trials: tuple[LabelAlignmentTrial, ...]

    def values(self, name: str) -> Float64Array:
        """The attribute ``name`` of every trial, as an array."""
        return np.array([getattr(trial, name) for trial in self.trials])

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


def _check_weights(weights: Sequence[ArrayLike]) -> Weights:
    layers = tuple(
        as_finite_array(f"weights[{index}]", layer, ndim=2)
        for index, layer in enumerate(weights)
    )
    if not layers:
        raise InvalidArgumentError("weights is empty: an MLP has at least one layer")
    for index in range(1, len(layers)):
        if layers[index].shape[0] != layers[index - 1].shape[1]:
            raise InvalidArgumentError(
                f"weights[{index}] has shape {layers[index].shape}: its rows must "
                f"match the {layers[index - 1].shape[1]} outputs of layer {index - 1}"
            )
    if layers[-1].shape[1] != 1:
        raise InvalidArgumentError(
            f"weights[-1] has shape {layers[-1].shape}: the network has one output"
        )
    return layers


def _check_inputs(inputs: ArrayLike, layers: Weights) -> Float64Array:
    x = as_finite_array("inputs", inputs, ndim=2)
    if x.shape[1] != layers[0].shape[0]:
        raise InvalidArgumentError(
            f"inputs has shape {x.shape}: it must have {layers[0].shape[0]} columns, "
            "the input dimension of the first layer"
        )
    return x


def initialize_mlp(
    input_dimension: int, widths: Sequence[int], *, seed: int | None = None
) -> Weights:
    r"""PyTorch's default initialization of a bias-free ReLU MLP with one output.

    .. math:: [W_\ell]_{pq} \sim \mathcal U\big(-P_\ell^{-1/2},\ P_\ell^{-1/2}\big)

    (``torch.nn.Linear``'s default, variance :math:`1/(3P_\ell)`), the
    initialization of the PyTorch network of Appendix B.1.

    Args:
      input_dimension: D, an integer >= 1.
      widths: the hidden widths, each an integer >= 1 (L - 1 of them).
      seed: seed of ``numpy.random.default_rng``.

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
    sizes += [check_iteration_count("widths", width) for width in widths]
    sizes.append(1)
    rng = np.random.default_rng(seed)
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

    Examples:
      >>> float(mlp_outputs([np.eye(2), np.array([[1.0], [-1.0]])], [[2.0, -3.0]])[0])
      2.0

    References:
      Appendix B.1 of adaptive-tangent-features.
    """
    layers = _check_weights(weights)
    x = _check_inputs(inputs, layers)
    activations, _ = _forward(layers, x)
    return np.asarray((activations[-1] @ layers[-1])[:, 0])


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
    return _tangent_features(layers, x)


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
      ConvergenceError: the loss overflowed (lower the learning rate).

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
    rate = float(learning_rate)
    if not (math.isfinite(rate) and rate > 0):
        raise InvalidArgumentError(
            f"learning_rate={learning_rate!r} is not > 0: it is the step size"
        )
    steps = check_iteration_count("max_steps", max_steps)
    if not (math.isfinite(float(tol)) and float(tol) >= 0):
        raise InvalidArgumentError(
            f"tol={tol!r} is not a finite number >= 0: it is a relative loss"
        )
    threshold = float(tol) * 0.5 * float(y @ y) / y.size
    current = tuple(layer.copy() for layer in layers)
    losses: list[float] = []
    converged = False
    for _ in range(steps + 1):
        # Overflow is reported as a ConvergenceError below, never as a NaN.
        with np.errstate(over="ignore", invalid="ignore"):
            loss, gradients = _loss_and_gradient(current, x, y)
        if not math.isfinite(loss):
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
    start = _check_weights(initial_weights)
    end = _check_weights(final_weights)
    if [w.shape for w in start] != [w.shape for w in end]:
        raise InvalidArgumentError(
            "initial_weights and final_weights have different shapes: the path "
            "joins two parameter vectors of one network"
        )
    x = _check_inputs(inputs, start)
    count = check_iteration_count("nodes", nodes)
    total = np.zeros((x.shape[0], sum(w.size for w in start)))
    for k in range(count):
        t = (k + 0.5) / count
        point = tuple((1.0 - t) * a + t * b for a, b in zip(start, end, strict=True))
        total += _tangent_features(point, x)
    return total / count


# ------------------------------------------------------------------- kernels


def tangent_kernel(features: ArrayLike) -> Float64Array:
    r"""The kernel matrix of tangent features, eq. (7): :math:`K = JJ^\top`.

    With the initial features this is :math:`K_0`, the NTK; with the average
    features of eq. (2) it is the adapted kernel :math:`K`.

    Examples:
      >>> tangent_kernel([[1.0, 2.0], [0.0, 1.0]])
      array([[5., 2.],
             [2., 1.]])

    References:
      Eq. (7) of adaptive-tangent-features.
    """
    j = as_finite_array("features", features, ndim=2)
    return np.asarray(j @ j.T)


def label_kernel(initial_outputs: ArrayLike, final_outputs: ArrayLike) -> Float64Array:
    r"""The label kernel of eq. (9).

    .. math:: K_{\hat y}(x, x') = (f_{\hat\theta}(x) - f_{\theta_0}(x))
              (f_{\hat\theta}(x') - f_{\theta_0}(x'))

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
    change = end - start
    return np.asarray(np.outer(change, change))


def kernel_alignment(first: ArrayLike, second: ArrayLike) -> float:
    r"""The cosine similarity of two kernel matrices (Figure 1).

    .. math:: \frac{\langle K_1, K_2\rangle_F}{\|K_1\|_F\,\|K_2\|_F}

    Raises:
      InvalidArgumentError: different shapes, or a zero matrix.

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
    largest_a, largest_b = float(np.max(np.abs(a))), float(np.max(np.abs(b)))
    if largest_a == 0.0 or largest_b == 0.0:
        raise InvalidArgumentError("a kernel matrix is zero: its cosine is 0/0")
    # Divide by the largest entry first: the Frobenius norm squares the entries,
    # which overflows (or underflows) for finite ones beyond ~1e+-154.
    a, b = a / largest_a, b / largest_b
    return float(np.sum(a * b) / np.sqrt(np.sum(a * a) * np.sum(b * b)))


# ------------------------------------------------------------------ Figure 1


def two_class_inputs(
    samples: int, dimension: int, *, separation: float = 1.5, seed: int | None = None
) -> tuple[Float64Array, Float64Array]:
    r"""Two Gaussian classes, each input normalized to zero mean, unit variance.

    .. math:: x = \pm\,\tfrac{\Delta}{2}\,u + \xi,\quad \xi\sim\mathcal N(0, I_D),
              \qquad x \leftarrow (x - \bar x)/\mathrm{sd}(x)

    A synthetic stand-in for the MNIST digits 2 and 3 of Appendix B.1. Let
    :math:`\Delta` be ``separation`` and u a random unit vector.

    Args:
      samples: N, an integer >= 2 (half per class, rounded).
      dimension: D, an integer >= 2.
      separation: distance between the class means, > 0.
      seed: seed of ``numpy.random.default_rng``.

    Returns:
      (inputs (N, D), labels (N,) in {-1, +1}).

    Examples:
      >>> x, labels = two_class_inputs(6, 4, seed=0)
      >>> bool(np.allclose(x.mean(axis=1), 0) and np.allclose(x.std(axis=1), 1))
      True

    References:
      Appendix B.1 of adaptive-tangent-features (data preparation).
    """
    count = check_iteration_count("samples", samples)
    size = check_iteration_count("dimension", dimension)
    if count < 2 or size < 2:
        raise InvalidArgumentError(
            f"samples={samples!r}, dimension={dimension!r}: both must be >= 2 "
            "(two classes; a per-input variance)"
        )
    gap = float(separation)
    if not (math.isfinite(gap) and gap > 0):
        raise InvalidArgumentError(f"separation={separation!r} is not > 0")
    rng = np.random.default_rng(seed)
    direction = rng.standard_normal(size)
    direction /= np.linalg.norm(direction)
    labels = np.where(np.arange(count) % 2 == 0, 1.0, -1.0)
    x = 0.5 * gap * labels[:, None] * direction + rng.standard_normal((count, size))
    x = (x - x.mean(axis=1, keepdims=True)) / x.std(axis=1, keepdims=True)
    return x, labels


def _penultimate(layers: Weights, x: Float64Array) -> Float64Array:
    activations, _ = _forward(layers, x)
    return activations[-1]


def _readout_share(
    initial_features: Float64Array,
    averaged: Float64Array,
    kernel_change: Float64Array,
    readout_size: int,
) -> float:
    """||dK_L||_F / (||dK_L||_F + ||dK_hidden||_F), the blocks of eq. (19)."""
    before = initial_features[:, -readout_size:]
    after = averaged[:, -readout_size:]
    readout = after @ after.T - before @ before.T
    readout_norm = float(np.linalg.norm(readout))
    hidden_norm = float(np.linalg.norm(kernel_change - readout))
    return readout_norm / (readout_norm + hidden_norm)


def _relative_interpolant_norm(k0: Float64Array, residual: Float64Array) -> float:
    r""":math:`\|\hat\beta\|/\|r\|` of the minimum-norm :math:`J_0\beta = r`.

    :math:`\|\hat\beta\|^2 = r^\top K_0^{-1} r`, solved with the N x N kernel.
    """
    squared = float(residual @ np.linalg.solve(k0, residual))
    return math.sqrt(max(squared, 0.0)) / float(np.linalg.norm(residual))


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
      seed: seeds the data, the reference network and the trained network.
      samples: N.
      dimension: D.
      widths: hidden widths of both networks.
      nodes: midpoint nodes of the path average (eq. 2).
      step_fraction: learning rate as a fraction of the linearized limit, in (0, 1).
      max_steps: most gradient steps per task.
      tol: relative training loss at which training stops.

    Returns:
      A :class:`LabelAlignmentTrial`.

    Examples:
      >>> trial = label_alignment_trial(0, samples=12, dimension=3, widths=(8,),
      ...                               max_steps=200)
      >>> bool(-1.0 <= trial.linear_alignment <= 1.0)
      True

    References:
      Figure 1 and Appendix B.1 of adaptive-tangent-features.
    """
    fraction = float(step_fraction)
    if not 0.0 < fraction < 1.0:
        raise InvalidArgumentError(
            f"step_fraction={step_fraction!r} is outside (0, 1): it is a fraction "
            "of the linearized stability limit"
        )
    rng = np.random.default_rng(seed)
    data_seed, reference_seed, network_seed = (
        int(s) for s in rng.integers(2**31, size=3)
    )
    x, labels = two_class_inputs(samples, dimension, seed=data_seed)
    reference = initialize_mlp(dimension, widths, seed=reference_seed)
    features = _penultimate(reference, x)
    linear_targets = features @ np.linalg.lstsq(features, labels, rcond=None)[0]
    sign_targets = np.where(linear_targets >= 0, 1.0, -1.0)

    initial = initialize_mlp(dimension, widths, seed=network_seed)
    j0 = _tangent_features(initial, x)
    k0 = j0 @ j0.T
    rate = fraction * 2.0 * samples / float(np.linalg.eigvalsh(k0)[-1])
    initial_outputs = (_penultimate(initial, x) @ initial[-1])[:, 0]

    results = {}
    for name, targets in (("linear", linear_targets), ("sign", sign_targets)):
        run = train_mlp(
            initial, x, targets, learning_rate=rate, max_steps=max_steps, tol=tol
        )
        final_outputs = (_penultimate(run.final_weights, x) @ run.final_weights[-1])[
            :, 0
        ]
        labels_kernel = label_kernel(initial_outputs, final_outputs)
        averaged = average_tangent_features(initial, run.final_weights, x, nodes=nodes)
        adapted = averaged @ averaged.T
        results[name] = (
            kernel_alignment(adapted, labels_kernel),
            kernel_alignment(k0, labels_kernel),
            _relative_interpolant_norm(k0, targets - initial_outputs),
            float(run.losses[-1] / (0.5 * float(targets @ targets) / samples)),
            _readout_share(j0, averaged, adapted - k0, initial[-1].size),
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
      seeds: one trial per seed, at least two (for a standard error).
      samples, dimension, widths, nodes, step_fraction, max_steps, tol: as in
        :func:`label_alignment_trial`.

    Returns:
      A :class:`LabelAlignmentStudy`.

    Examples:
      >>> study = label_alignment_study([0, 1], samples=12, dimension=3,
      ...                               widths=(8,), max_steps=100)
      >>> study.differences.shape
      (2,)

    References:
      Figure 1 of adaptive-tangent-features.
    """
    seed_list = [int(seed) for seed in seeds]
    if len(seed_list) < 2:
        raise InvalidArgumentError(
            f"seeds={seeds!r} has fewer than 2 entries: a standard error needs two"
        )
    return LabelAlignmentStudy(
        trials=tuple(
            label_alignment_trial(
                seed,
                samples=samples,
                dimension=dimension,
                widths=widths,
                nodes=nodes,
                step_fraction=step_fraction,
                max_steps=max_steps,
                tol=tol,
            )
            for seed in seed_list
        )
    )
