r"""Two-layer ReLU networks without biases (eq. (1) of ptft-relu-penalty),
batched: outputs, the squared loss with hand-written gradients, and full-batch
gradient descent with its finiteness checks (see
:mod:`implicit_bias.validation.relu_sample_efficiency`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import ConvergenceError, InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    as_finite_array,
    check_iteration_count,
)

__all__ = [
    "TrainedNetworks",
    "relu_loss_and_gradients",
    "relu_network_outputs",
    "train_relu_networks",
]

Float64Array = NDArray[np.float64]


def relu_network_outputs(
    inputs: ArrayLike, hidden_weights: ArrayLike, readout: ArrayLike
) -> Float64Array:
    r"""Outputs of K two-layer ReLU networks without biases, eq. (1).

    .. math:: f_w(x) = \sum_{h=1}^H w_h^{(2)}(\langle w_h^{(1)}, x\rangle)_+

    Args:
      inputs: x, (K, n, d) (or (n, d), shared by all networks).
      hidden_weights: :math:`w^{(1)}`, (K, H, d).
      readout: :math:`w^{(2)}`, (K, H).

    Returns:
      The outputs, (K, n).

    Raises:
      InvalidArgumentError: a value is not finite, an axis is empty, or the
        shapes do not match.
      OutOfRangeError: an output overflows float64.

    Examples:
      >>> w1 = np.array([[[1.0, 0.0], [0.0, -1.0]]])
      >>> relu_network_outputs([[[2.0, 3.0], [-1.0, -4.0]]], w1, [[0.5, 2.0]])
      array([[1., 8.]])

    References:
      Eq. (1) of ptft-relu-penalty.
    """
    x, w1, w2 = _network_arrays(inputs, hidden_weights, readout)
    with np.errstate(over="ignore", invalid="ignore"):
        outputs = _outputs(x, w1, w2)
    return _finite(outputs, "the outputs", "inputs, hidden_weights or readout")


def _finite(value: Float64Array, what: str, rescale: str) -> Float64Array:
    """``value`` if every entry is finite, else OutOfRangeError saying what to do."""
    if not np.all(np.isfinite(value)):
        raise OutOfRangeError(f"{what} overflow float64: rescale {rescale}")
    return value


def _network_arrays(
    inputs: ArrayLike,
    hidden_weights: ArrayLike,
    readout: ArrayLike,
    *,
    names: tuple[str, str] = ("hidden_weights", "readout"),
) -> tuple[Float64Array, Float64Array, Float64Array]:
    """Checked (x, w1, w2) as (K, n, d), (K, H, d), (K, H); ``names`` of w1, w2."""
    hidden_name, readout_name = names
    w1 = as_finite_array(hidden_name, hidden_weights, ndim=3, shape="(K, H, d)")
    w2 = as_finite_array(readout_name, readout, ndim=2, shape="(K, H)")
    x = as_finite_array("inputs", inputs, ndim=(2, 3), shape="(K, n, d) or (n, d)")
    if x.ndim == 2:
        x = np.broadcast_to(x, (w1.shape[0], *x.shape))
    count, width, dimension = w1.shape
    if w2.shape != (count, width) or x.shape[0] != count or x.shape[2] != dimension:
        raise InvalidArgumentError(
            f"shapes do not match: inputs {x.shape}, {hidden_name} {w1.shape}, "
            f"{readout_name} {w2.shape}; they must be (K, n, d), (K, H, d), (K, H)"
        )
    for name, array in ((hidden_name, w1), ("inputs", x)):
        if 0 in array.shape:
            raise InvalidArgumentError(
                f"{name} has shape {array.shape}: every axis needs at least one "
                "entry (K networks, H units, n samples, d >= 1)"
            )
    return x, w1, w2


def _targets(targets: ArrayLike, shape: tuple[int, ...]) -> Float64Array:
    """Checked y of shape (K, n) or (n,), as a (K, n) copy."""
    y = as_finite_array("targets", targets, ndim=(1, 2), shape="(K, n) or (n,)")
    if y.shape not in (shape, shape[1:]):
        raise InvalidArgumentError(
            f"targets has shape {y.shape}: targets must be (K, n) = {shape} or "
            f"(n,) = ({shape[1]},), one target per input"
        )
    return np.broadcast_to(y, shape).copy()


def _outputs(x: Float64Array, w1: Float64Array, w2: Float64Array) -> Float64Array:
    features = np.maximum(x @ w1.transpose(0, 2, 1), 0.0)
    return np.asarray((features @ w2[:, :, None])[..., 0])


def _loss_and_gradients(
    x: Float64Array, y: Float64Array, w1: Float64Array, w2: Float64Array
) -> tuple[Float64Array, Float64Array, Float64Array]:
    """Loss (K,) and gradients of :func:`_residual_and_gradients`, in the layout
    of the arguments: the hidden gradient is (K, H, d) like ``w1``."""
    work = _Workspace(x, w1.shape[1])
    residual, hidden_gradient, readout_gradient = _residual_and_gradients(
        y, np.ascontiguousarray(w1.transpose(0, 2, 1)), w2, work
    )
    return (
        _loss(residual),
        np.ascontiguousarray(hidden_gradient.transpose(0, 2, 1)),
        readout_gradient,
    )


def _loss(residual: Float64Array) -> Float64Array:
    return np.asarray(0.5 * np.sum(residual * residual, axis=1) / residual.shape[1])


def _residual_and_gradients(
    y: Float64Array,
    hidden_transposed: Float64Array,
    w2: Float64Array,
    work: _Workspace,
) -> tuple[Float64Array, Float64Array, Float64Array]:
    r"""Residuals and gradients of K networks on ``work``'s inputs, in its buffers.

    The hidden weights come transposed, :math:`(w^{(1)})^\top` as (K, d, H),
    and so does their gradient; the readout gradient is (K, H). The module
    docstring's gradients, with the activation mask
    :math:`a_{ih} = \mathbb 1[\langle w_h^{(1)}, x_i\rangle > 0]` and
    :math:`M_h = \sum_i a_{ih} r_i x_i`:

    .. math:: \frac{\partial L}{\partial w_h^{(1)}} = \frac{w_h^{(2)}}n M_h,
              \qquad \frac{\partial L}{\partial w_h^{(2)}}
              = \frac1n\sum_i r_i(\langle w_h^{(1)}, x_i\rangle)_+
              = \frac1n\langle w_h^{(1)}, M_h\rangle,

    the last because :math:`a_{ih}\langle w_h^{(1)}, x_i\rangle =
    (\langle w_h^{(1)}, x_i\rangle)_+`: one stacked matrix product (BLAS per
    network) gives :math:`M^\top = (x^\top \operatorname{diag} r)\,a` for
    both gradients. The only elementwise passes over (K, n, H) arrays are the
    mask, its float copy and the ReLU as a product with it; the direct form's
    residual broadcast over the units (its slowest pass) and its second
    product over the features (for the readout gradient) are gone: 1.6x
    faster a step at K = 12, n = 1024, H = 48, d = 8, the same up to rounding
    (benchmarks/bench_relu_fig1c.py). The same operations, in the same order,
    for every caller; the buffers spare a training loop an allocation per
    array per step (and, where the allocator hands out fresh pages, their
    page faults). Where a preactivation overflows to -inf (an input times a
    weight beyond float64), the product with the mask is NaN where the ReLU
    is 0: the callers then report an overflow, as they do for +inf.
    """
    x, x_transposed = work.inputs, work.inputs_transposed
    count = x.shape[1]
    np.matmul(x, hidden_transposed, out=work.features)
    np.greater(work.features, 0.0, out=work.active)
    # bool -> float64 through a uint8 view: the fastest cast measured.
    np.copyto(work.mask, work.active.view(np.uint8))
    # The ReLU as a product with the mask: 2x faster than np.maximum.
    work.features *= work.mask
    np.matmul(work.features, w2[:, :, None], out=work.output)
    np.subtract(work.output[..., 0], y, out=work.residual)
    np.multiply(x_transposed, work.residual[:, None, :], out=work.weighted_inputs)
    np.matmul(work.weighted_inputs, work.mask, out=work.moment)
    np.einsum("kdh,kdh->kh", hidden_transposed, work.moment, out=work.readout_gradient)
    work.readout_gradient /= count
    np.divide(w2, count, out=work.readout_scale)
    np.multiply(work.moment, work.readout_scale[:, None, :], out=work.hidden_gradient)
    return work.residual, work.hidden_gradient, work.readout_gradient


class _Workspace:
    """The inputs of K networks, both ways round, and the arrays of one step of
    :func:`_residual_and_gradients`, for reuse."""

    def __init__(self, x: Float64Array, units: int) -> None:
        networks, samples, dimension = x.shape
        self.inputs = x
        self.inputs_transposed = np.ascontiguousarray(x.transpose(0, 2, 1))
        self.features = np.empty((networks, samples, units))
        self.active = np.empty((networks, samples, units), dtype=bool)
        self.mask = np.empty((networks, samples, units))
        self.output = np.empty((networks, samples, 1))
        self.residual = np.empty((networks, samples))
        self.weighted_inputs = np.empty((networks, dimension, samples))
        self.moment = np.empty((networks, dimension, units))
        self.readout_scale = np.empty((networks, units))
        self.readout_gradient = np.empty((networks, units))
        self.hidden_gradient = np.empty((networks, dimension, units))


def relu_loss_and_gradients(
    inputs: ArrayLike, targets: ArrayLike, hidden_weights: ArrayLike, readout: ArrayLike
) -> tuple[Float64Array, Float64Array, Float64Array]:
    r"""The squared loss of K ReLU networks and its gradients (module docstring).

    .. math:: L = \frac1{2n}\sum_i r_i^2,\quad
              \partial_{w_h^{(2)}}L = \frac1n\sum_i r_i(\langle w_h^{(1)},x_i\rangle)_+,
              \quad \partial_{w_h^{(1)}}L = \frac{w_h^{(2)}}n\sum_i r_i
              \mathbb 1[\langle w_h^{(1)},x_i\rangle>0]\,x_i

    Args:
      inputs: x, (K, n, d) or (n, d).
      targets: y, (K, n) (or (n,), shared).
      hidden_weights: :math:`w^{(1)}`, (K, H, d).
      readout: :math:`w^{(2)}`, (K, H).

    Returns:
      ``(loss, hidden_gradient, readout_gradient)``: (K,), (K, H, d), (K, H).

    Raises:
      InvalidArgumentError: a value is not finite or the shapes do not match.
      OutOfRangeError: the loss or a gradient overflows float64.

    Examples:
      A network that fits its data has zero loss and gradient:

      >>> loss, g1, g2 = relu_loss_and_gradients(
      ...     [[[1.0, 2.0]]], [[5.0]], [[[1.0, 2.0]]], [[1.0]]
      ... )
      >>> float(loss[0]), float(np.abs(g1).max()), float(np.abs(g2).max())
      (0.0, 0.0, 0.0)

    References:
      Eq. (1) of ptft-relu-penalty (the network); the loss is our choice.
    """
    x, w1, w2 = _network_arrays(inputs, hidden_weights, readout)
    y = _targets(targets, x.shape[:2])
    with np.errstate(over="ignore", invalid="ignore"):
        loss, hidden_gradient, readout_gradient = _loss_and_gradients(x, y, w1, w2)
    rescale = "inputs, targets, hidden_weights or readout"
    return (
        _finite(loss, "the loss", rescale),
        _finite(hidden_gradient, "the hidden gradient", rescale),
        _finite(readout_gradient, "the readout gradient", rescale),
    )


@dataclass(frozen=True, eq=False)
class TrainedNetworks:
    """K ReLU networks after gradient descent.

    Attributes:
      hidden_weights: :math:`w^{(1)}`, (K, H, d).
      readout: :math:`w^{(2)}`, (K, H).
      relative_loss: the final training loss over that of the zero function,
        :math:`\\sum_i r_i^2 / \\sum_i y_i^2` (the loss itself where y = 0),
        (K,).
    """

    hidden_weights: Float64Array
    readout: Float64Array
    relative_loss: Float64Array


def train_relu_networks(
    inputs: ArrayLike,
    targets: ArrayLike,
    hidden_init: ArrayLike,
    readout_init: ArrayLike,
    *,
    learning_rate: ArrayLike,
    steps: int,
) -> TrainedNetworks:
    r"""Full-batch gradient descent on K ReLU networks at once.

    .. math:: w \leftarrow w - \eta_k\,\nabla_w L_k(w)

    with the gradients of :func:`relu_loss_and_gradients`, for ``steps`` steps.

    Args:
      inputs: x, (K, n, d) or (n, d).
      targets: y, (K, n) or (n,).
      hidden_init: :math:`w^{(1)}(0)`, (K, H, d).
      readout_init: :math:`w^{(2)}(0)`, (K, H).
      learning_rate: :math:`\eta > 0`, () or (K,).
      steps: number of steps, >= 1.

    Returns:
      A :class:`TrainedNetworks`.

    Raises:
      InvalidArgumentError: a value is not finite, a shape does not match, the
        learning rate is not positive or ``steps`` is not an integer >= 1.
      OutOfRangeError: the initial loss overflows float64 (rescale the data).
      ConvergenceError: the iterates overflow (the learning rate is too large),
        raised at the step where it happens.

    Examples:
      One unit learns a single ReLU feature:

      >>> x = np.random.default_rng(0).standard_normal((1, 64, 2))
      >>> y = np.maximum(x[..., 0], 0.0)
      >>> trained = train_relu_networks(
      ...     x, y, [[[0.5, 0.1]]], [[0.5]], learning_rate=0.5, steps=2000
      ... )
      >>> bool(trained.relative_loss[0] < 1e-8)
      True

    References:
      Eq. (1) of ptft-relu-penalty.
    """
    x, w1, w2 = _network_arrays(
        inputs, hidden_init, readout_init, names=("hidden_init", "readout_init")
    )
    y = _targets(targets, x.shape[:2])
    rate = as_finite_array(
        "learning_rate", learning_rate, ndim=(0, 1), shape="() or (K,)"
    )
    if rate.ndim == 1 and rate.shape[0] != w1.shape[0]:
        raise InvalidArgumentError(
            f"learning_rate has shape {rate.shape}: it must be () or (K,) with "
            f"K = {w1.shape[0]}"
        )
    if np.any(rate <= 0):
        raise InvalidArgumentError(
            f"learning_rate={float(rate[rate <= 0].flat[0])!r} is not positive: "
            "it is the gradient-descent step size"
        )
    check_iteration_count("steps", steps)
    rate = np.broadcast_to(rate, w1.shape[:1])
    # One rate for every network (the experiments' case) scales the gradients
    # by a Python float: the same products, without broadcasting (K,) over the
    # (d, H) of each network (3x faster at K = 36, H = 48, d = 8).
    uniform = float(rate[0]) if np.all(rate == rate[0]) else None
    # The hidden weights train transposed, (K, d, H): the layout of the
    # stacked products and of the gradient (_residual_and_gradients).
    w1, w2 = np.ascontiguousarray(w1.transpose(0, 2, 1)), w2.copy()
    work = _Workspace(x, w1.shape[2])

    def advance(step: int) -> None:
        """One gradient step of every network, in place."""
        residual, hidden_gradient, readout_gradient = _residual_and_gradients(
            y, w1, w2, work
        )
        # The loss itself is needed only for this check and at the end.
        if step == 0 and not np.all(np.isfinite(_loss(residual))):
            raise OutOfRangeError(
                "the initial loss overflows float64: rescale inputs, targets, "
                "hidden_init or readout_init"
            )
        if uniform is None:
            hidden_gradient *= rate[:, None, None]
            readout_gradient *= rate[:, None]
        else:
            hidden_gradient *= uniform
            readout_gradient *= uniform
        np.subtract(w1, hidden_gradient, out=w1)
        np.subtract(w2, readout_gradient, out=w2)

    def diverged() -> bool:
        # A sum holding an inf or NaN is not finite: one reduction per array;
        # the elementwise check runs only when a sum is not finite (or
        # overflowed, every entry finite: then training goes on).
        return not (math.isfinite(w1.sum()) and math.isfinite(w2.sum()))

    # A step size past stability overflows, and an inf or NaN never leaves the
    # iterates again (inf - inf is NaN, NaN stays): checked every
    # _CHECK_EVERY steps, from a copy of the last checked iterates, and on
    # overflow replayed from that copy step by step (the same arithmetic, so
    # the same iterates), so that divergence is reported at the step it
    # happens, as a check every step would, for a sixteenth of its cost.
    checked = (w1.copy(), w2.copy())
    last = 0
    with np.errstate(over="ignore", invalid="ignore"):
        for step in range(steps):
            advance(step)
            if (step + 1) % _CHECK_EVERY and step + 1 < steps:
                continue
            if diverged() and not _all_finite(w1, w2):
                np.copyto(w1, checked[0])
                np.copyto(w2, checked[1])
                for replayed in range(last, step + 1):
                    advance(replayed)
                    if diverged():
                        _check_iterates(w1, w2, rate, replayed, steps)
            np.copyto(checked[0], w1)
            np.copyto(checked[1], w2)
            last = step + 1
        loss = _loss(_residual_and_gradients(y, w1, w2, work)[0])
    _check_iterates(w1, w2, rate, steps, steps, loss)
    scale = 0.5 * np.mean(y * y, axis=1)
    return TrainedNetworks(
        np.ascontiguousarray(w1.transpose(0, 2, 1)),
        w2,
        np.asarray(loss / np.where(scale > 0, scale, 1.0)),
    )


#: Trainer steps between finiteness checks of the iterates (:func:`train_relu_networks`
#: replays the steps since the last check when one fails): the check's two
#: reductions cost a tenth of a step of 36 networks on 8 samples.
_CHECK_EVERY = 16


def _all_finite(w1: Float64Array, w2: Float64Array) -> bool:
    return bool(np.isfinite(w1).all() and np.isfinite(w2).all())


def _check_iterates(
    w1: Float64Array,
    w2: Float64Array,
    rate: Float64Array,
    step: int,
    steps: int,
    loss: Float64Array | None = None,
) -> None:
    """ConvergenceError naming the first network whose iterates (or loss) overflow."""
    finite = np.all(np.isfinite(w2), axis=1) & np.all(np.isfinite(w1), axis=(1, 2))
    if loss is not None:
        finite &= np.isfinite(loss)
    if not finite.all():
        k = int(np.flatnonzero(~finite)[0])
        raise ConvergenceError(
            f"the loss of network {k} overflows at step {step} of {steps} with "
            f"learning_rate={rate[k]!r}: lower the learning rate"
        )
