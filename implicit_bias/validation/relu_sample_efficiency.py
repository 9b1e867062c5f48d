r"""Fig. 1c of ptft-relu-penalty: sample efficiency of STL and PT+FT in ReLU networks.

The paper's novel prediction (Section 1.2, last paragraph): the penalty
:math:`\tilde r` of eq. (11) makes a pretrained unit cheap to reuse for a
finetuning feature at correlation :math:`\rho = 1` whatever the magnitudes, but
at a moderate correlation (:math:`\rho = 0.9`) a unit pretrained with a much
larger weight than the finetuning feature's (:math:`m^{aux} = 100`,
:math:`m \approx 1`) costs more than a fresh one. Fig. 1c tests it with
teacher-student networks; this module runs that experiment at a laptop's size.

Networks. A two-layer ReLU network without biases, eq. (1),

.. math:: f_w(x) = \sum_{h=1}^H w_h^{(2)}\,(\langle w_h^{(1)}, x\rangle)_+,

trained on the loss :math:`L = \frac1{2n}\sum_i (f_w(x_i) - y_i)^2` by full-batch
gradient descent with the hand-written gradients

.. math:: \frac{\partial L}{\partial w_h^{(2)}} = \frac1n\sum_i r_i
          (\langle w_h^{(1)}, x_i\rangle)_+,\qquad
          \frac{\partial L}{\partial w_h^{(1)}} = \frac1n\sum_i r_i\,
          w_h^{(2)}\,\mathbb 1[\langle w_h^{(1)}, x_i\rangle > 0]\,x_i,

:math:`r_i = f_w(x_i) - y_i` (the ReLU's derivative at 0 is taken as 0, a
null set for Gaussian inputs). K networks advance together as (K, H, d) and
(K, H) arrays, each on its own data (K, n, d).

Teachers. Inputs are :math:`x\sim\mathcal N(0, I_d)`. The auxiliary
(pretraining) teacher has :math:`k = 6` units :math:`v_j` uniform on
:math:`S^{d-1}` and readouts 1 (feature magnitude :math:`m^{aux} = 1`):
:math:`f^{aux}(x) = \sum_j (\langle v_j, x\rangle)_+`. The finetuning teacher
has units :math:`u_j = \rho v_j + \sqrt{1-\rho^2}\,v_j^\perp` with
:math:`v_j^\perp` a uniformly random unit vector orthogonal to :math:`v_j`, so
that :math:`\langle u_j, v_j\rangle = \rho`, and readouts m:
:math:`f(x) = m\sum_j(\langle u_j, x\rangle)_+`. A smaller m is a larger
relative auxiliary magnitude (Fig. 1c's caption: the same as raising
:math:`m^{aux}` with m fixed).

Training. STL starts from a small random initialization,
:math:`w_h^{(1)}\sim\mathcal N(0, \sigma^2 I_d/d)`,
:math:`w_h^{(2)}\sim\mathcal N(0,\sigma^2)`. PT+FT trains the same way on n_aux
samples of the auxiliary task, then keeps the hidden weights and re-initializes
every readout to :math:`\gamma`, the initialization of eq. (2), and trains on
the n finetuning samples. Generalization error is the mean squared error on
fresh test inputs divided by the teacher's mean square on them (the error of
the zero function), so that magnitudes compare.

Scale equivalence of STL. Scaling every weight by :math:`\sqrt m` scales the
network by m, the loss by :math:`m^2` and the gradient step relative to the
weights by m; so STL on the teacher of magnitude m from initialization
:math:`\sigma\sqrt m` with learning rate :math:`\eta/m` follows exactly the
trajectory of STL on magnitude 1 from :math:`\sigma` with :math:`\eta`, scaled
by :math:`\sqrt m`, and has the same relative error. STL is therefore run once
per correlation, at magnitude 1 (:func:`train_relu_networks` is checked for this
in the tests). PT+FT has no such symmetry: its pretrained weights fix a scale.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import ConvergenceError, InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    as_finite_array,
    check_generator,
    check_integer,
    check_iteration_count,
    check_real,
    check_seed,
)
from implicit_bias.validation.relu_kernels import sample_sphere

__all__ = [
    "SampleEfficiency",
    "SampleEfficiencySetup",
    "TrainedNetworks",
    "correlated_units",
    "relu_loss_and_gradients",
    "relu_network_outputs",
    "sample_efficiency",
    "teacher_outputs",
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


def correlated_units(
    units: ArrayLike, rho: float, rng: np.random.Generator
) -> Float64Array:
    r"""Unit vectors :math:`u_j = \rho v_j + \sqrt{1-\rho^2}\,v_j^\perp`.

    :math:`v_j^\perp` is a uniformly random unit vector orthogonal to
    :math:`v_j`, so that :math:`\langle u_j, v_j\rangle = \rho` (the
    :math:`\rho_h` of eq. (8) between a pretraining and a finetuning feature).

    Args:
      units: the rows :math:`v_j`, unit vectors, (k, d) with d >= 2.
      rho: the correlation, in [-1, 1].
      rng: the generator drawing :math:`v_j^\perp`.

    Returns:
      The rows :math:`u_j`, (k, d).

    Raises:
      InvalidArgumentError: ``units`` is not (k, d) with k >= 1, d >= 2 and
        unit rows, rho is not a real number in [-1, 1], or ``rng`` is not a
        Generator.

    Examples:
      >>> v = np.eye(3)[:2]
      >>> u = correlated_units(v, 0.9, np.random.default_rng(0))
      >>> bool(np.allclose(np.sum(u * v, axis=1), 0.9))
      True
      >>> bool(np.allclose(np.linalg.norm(u, axis=1), 1.0))
      True

    References:
      Eq. (8) of ptft-relu-penalty (definition of :math:`\rho_h`).
    """
    v = as_finite_array("units", units, ndim=2, shape="(k, d)")
    if v.shape[0] == 0 or v.shape[1] < 2:
        raise InvalidArgumentError(
            f"units has shape {v.shape}: units must be (k, d) with k >= 1 and "
            "d >= 2 (u_j needs a direction orthogonal to v_j)"
        )
    norms = np.linalg.norm(v, axis=1)
    if not np.allclose(norms, 1.0, rtol=0.0, atol=1e-10):
        bad = float(norms[~np.isclose(norms, 1.0, rtol=0.0, atol=1e-10)][0])
        raise InvalidArgumentError(
            f"units has a row of norm {bad!r}: the rows of units are unit vectors "
            "(norm 1 within 1e-10)"
        )
    r = check_real(
        "rho", rho, min_value=-1.0, max_value=1.0, meaning="a cosine similarity"
    )
    rng = check_generator("rng", rng)
    noise = _orthogonal_directions(v, rng)
    # sqrt((1 - rho)(1 + rho)): no cancellation near |rho| = 1.
    return np.asarray(r * v + math.sqrt((1.0 - r) * (1.0 + r)) * noise)


#: A draw whose part orthogonal to v_j is shorter than this fraction of it is
#: redrawn (it is (nearly) parallel to v_j, e.g. when v_j came from the same
#: seed); normalizing it would amplify rounding into the direction.
_PARALLEL_FRACTION = 1e-6
#: Redraw rounds before giving up (each round fails with probability ~1e-6).
_MAX_REDRAWS = 64


def _orthogonal_directions(v: Float64Array, rng: np.random.Generator) -> Float64Array:
    """Unit rows uniformly random among those orthogonal to the rows of ``v``."""
    noise = rng.standard_normal(v.shape)
    for _ in range(_MAX_REDRAWS):
        length = np.linalg.norm(noise, axis=1)
        noise -= np.sum(noise * v, axis=1, keepdims=True) * v
        orthogonal = np.linalg.norm(noise, axis=1)
        parallel = orthogonal <= _PARALLEL_FRACTION * length
        if not parallel.any():
            return np.asarray(noise / orthogonal[:, None])
        noise[parallel] = rng.standard_normal((int(parallel.sum()), v.shape[1]))
    raise ConvergenceError(
        f"no direction orthogonal to units found in {_MAX_REDRAWS} draws: "
        "check that rng is a working generator"
    )


def teacher_outputs(
    inputs: ArrayLike, units: ArrayLike, magnitude: ArrayLike
) -> Float64Array:
    r"""A teacher :math:`f(x) = m\sum_j(\langle u_j, x\rangle)_+`.

    Args:
      inputs: x, (..., n, d).
      units: :math:`u_j`, (..., k, d), broadcasting with ``inputs``.
      magnitude: m, broadcasting with the leading axes (...).

    Returns:
      The outputs, (..., n).

    Raises:
      InvalidArgumentError: a value is not finite, an array lacks its two
        trailing axes (or they are empty), the dimensions differ, or the
        leading axes do not broadcast.
      OutOfRangeError: an output overflows float64.

    Examples:
      >>> teacher_outputs([[1.0, -2.0]], [[1.0, 0.0], [0.0, -1.0]], 3.0)
      array([9.])

    References:
      The teacher-student setup of Fig. 1c of ptft-relu-penalty.
    """
    x = as_finite_array("inputs", inputs)
    u = as_finite_array("units", units)
    m = as_finite_array("magnitude", magnitude)
    for name, array, axes in (
        ("inputs", x, "(..., n, d)"),
        ("units", u, "(..., k, d)"),
    ):
        if array.ndim < 2 or 0 in array.shape[-2:]:
            raise InvalidArgumentError(
                f"{name} has shape {array.shape}: {name} must be {axes} with at "
                "least one row of dimension d >= 1"
            )
    if x.shape[-1] != u.shape[-1]:
        raise InvalidArgumentError(
            f"inputs has dimension {x.shape[-1]} but units has {u.shape[-1]}: both "
            "live in R^d"
        )
    try:
        np.broadcast_shapes(x.shape[:-2], u.shape[:-2], m.shape)
    except ValueError as error:
        raise InvalidArgumentError(
            f"the leading axes do not broadcast: inputs {x.shape[:-2]}, units "
            f"{u.shape[:-2]}, magnitude {m.shape}"
        ) from error
    with np.errstate(over="ignore", invalid="ignore"):
        features = np.maximum(np.einsum("...nd,...kd->...nk", x, u), 0.0)
        outputs = np.asarray(np.sum(features, axis=-1) * m[..., None])
    return _finite(outputs, "the teacher's outputs", "inputs, units or magnitude")


@dataclass(frozen=True)
class SampleEfficiencySetup:
    r"""The configuration of the Fig. 1c experiment (module docstring).

    Attributes:
      correlations: the :math:`\rho` of the finetuning teacher, (R,), each in
        :math:`[-1, 1]`.
      magnitudes: finetuning feature magnitudes m > 0 (auxiliary: 1), (M,).
      sample_sizes: finetuning sample sizes n >= 1, (N,).
      seeds: independent repeats S (teachers, data, initializations), >= 1.
      dimension: d >= 2. teacher_units: k >= 1. width: H >= 1.
      aux_samples: pretraining sample size, >= 1.
      init_scale: :math:`\sigma > 0` of the random initialization.
      readout_reinit: :math:`\gamma`, the readouts PT+FT finetunes from
        (finite).
      learning_rate: :math:`\eta > 0`, every phase (STL at magnitude 1).
      steps: gradient steps >= 1, every phase (pretraining, STL, and PT+FT
        finetuning unless ``finetune_steps`` is given).
      finetune_steps: gradient steps >= 1 of PT+FT finetuning, or None for
        ``steps``: at a small finetuning magnitude m it converges far more
        slowly than the other phases (its hidden weights move at a rate
        proportional to m).
      test_samples: fresh inputs for the generalization error, >= 1.
      seed: the master seed, an integer >= 0.

    The sequences are stored as tuples (a list is accepted), their entries and
    the scalars as Python floats and ints.

    Raises:
      InvalidArgumentError: a field outside its domain (the message names the
        field, and the entry of a sequence: ``correlations[1]``).
    """

    correlations: tuple[float, ...] = (1.0, 0.9)
    magnitudes: tuple[float, ...] = (1.0, 0.01)
    sample_sizes: tuple[int, ...] = (16, 64)
    seeds: int = 6
    dimension: int = 8
    teacher_units: int = 6
    width: int = 24
    aux_samples: int = 256
    init_scale: float = 1e-2
    readout_reinit: float = 0.0
    learning_rate: float = 0.2
    steps: int = 3000
    test_samples: int = 2000
    seed: int = 0
    finetune_steps: int | None = None

    def __post_init__(self) -> None:
        # Checked where the setup is built (sample_efficiency checked them only
        # when it ran), so that no setup holds a bad field.
        checked: dict[str, object] = {}
        for name, minimum, meaning in (
            ("seeds", 1, "the number of independent repeats S (>= 1)"),
            (
                "dimension",
                2,
                "the input dimension d (>= 2: correlated units need two directions)",
            ),
            ("teacher_units", 1, "the teacher's number of hidden units k (>= 1)"),
            ("width", 1, "the student's hidden width H (>= 1)"),
            ("aux_samples", 1, "the pretraining sample size (>= 1)"),
            ("steps", 1, "the number of gradient steps per phase (>= 1)"),
            ("test_samples", 1, "the number of fresh test inputs (>= 1)"),
        ):
            checked[name] = check_integer(
                name, getattr(self, name), min_value=minimum, meaning=meaning
            )
        checked["seed"] = check_seed("seed", self.seed)
        if self.finetune_steps is not None:
            checked["finetune_steps"] = check_integer(
                "finetune_steps",
                self.finetune_steps,
                min_value=1,
                meaning="the number of PT+FT finetuning steps (>= 1), or None "
                "for steps",
            )
        for name in ("correlations", "magnitudes", "sample_sizes"):
            value = getattr(self, name)
            if not isinstance(value, tuple | list) or len(value) == 0:
                raise InvalidArgumentError(
                    f"{name}={value!r:.80} is empty or not a tuple: {name} needs "
                    "at least one value"
                )
        checked["sample_sizes"] = tuple(
            check_integer(
                f"sample_sizes[{index}]",
                n,
                min_value=1,
                meaning="a finetuning sample size (>= 1)",
            )
            for index, n in enumerate(self.sample_sizes)
        )
        for name, low, high, meaning in (
            ("correlations", -1.0, 1.0, "a teacher's cosine rho, in [-1, 1]"),
            ("magnitudes", 0.0, None, "a teacher's readout m (> 0)"),
        ):
            checked[name] = tuple(
                check_real(
                    f"{name}[{index}]",
                    value,
                    min_value=low,
                    max_value=high,
                    exclusive=high is None,
                    meaning=meaning,
                )
                for index, value in enumerate(getattr(self, name))
            )
        for name, meaning in (
            ("init_scale", "the scale sigma of the random initialization (> 0)"),
            ("learning_rate", "the learning rate eta of every phase (> 0)"),
        ):
            checked[name] = check_real(
                name,
                getattr(self, name),
                min_value=0.0,
                exclusive=True,
                meaning=meaning,
            )
        checked["readout_reinit"] = check_real(
            "readout_reinit",
            self.readout_reinit,
            meaning="the readout PT+FT finetunes from (finite)",
        )
        for name, value in checked.items():
            object.__setattr__(self, name, value)


@dataclass(frozen=True, eq=False)
class SampleEfficiency:
    """Relative generalization errors of STL and PT+FT (Fig. 1c).

    Attributes:
      setup: the configuration.
      stl_error: (R, M, N, S); equal across M by the scale equivalence of STL.
      ptft_error: (R, M, N, S).
      stl_train_loss, ptft_train_loss: final relative training losses, same
        shapes; pretraining_loss: (S,).
    """

    setup: SampleEfficiencySetup
    stl_error: Float64Array
    ptft_error: Float64Array
    stl_train_loss: Float64Array
    ptft_train_loss: Float64Array
    pretraining_loss: Float64Array


def _small_init(
    count: int, width: int, dimension: int, scale: float, rng: np.random.Generator
) -> tuple[Float64Array, Float64Array]:
    hidden = (
        scale * rng.standard_normal((count, width, dimension)) / math.sqrt(dimension)
    )
    return hidden, scale * rng.standard_normal((count, width))


def _check_setup(setup: object) -> SampleEfficiencySetup:
    """A :class:`SampleEfficiencySetup`, which checked its fields when built."""
    if not isinstance(setup, SampleEfficiencySetup):
        raise InvalidArgumentError(
            f"setup={setup!r:.80} is not a SampleEfficiencySetup: setup is the "
            "configuration of the Fig. 1c experiment"
        )
    return setup


def sample_efficiency(setup: SampleEfficiencySetup) -> SampleEfficiency:
    r"""Run Fig. 1c: STL and PT+FT errors versus n, for each (rho, m), S seeds.

    .. math:: e = \frac{\sum_{t}(f_w(x_t) - f(x_t))^2}{\sum_t f(x_t)^2}

    on fresh test inputs :math:`x_t`. Per seed: one auxiliary teacher, one
    pretrained network (shared by every finetuning run of that seed), one
    finetuning teacher per correlation (drawn from the auxiliary units), and
    nested data sets (the first n of one draw of ``max(sample_sizes)``
    inputs). STL and PT+FT of a seed see the same finetuning data, so their
    errors are paired.

    Args:
      setup: the configuration.

    Returns:
      A :class:`SampleEfficiency`.

    Raises:
      InvalidArgumentError: the setup is not a :class:`SampleEfficiencySetup`
        (which refuses a field out of range when it is built), or the teacher
        vanishes on every test input (too few ``setup.test_samples``).
      OutOfRangeError: an error or loss overflows float64 (rescale the
        magnitudes).
      ConvergenceError: training diverges (lower the learning rate).

    References:
      Fig. 1c and Section 1.2 of ptft-relu-penalty.
    """
    setup = _check_setup(setup)
    rng = np.random.default_rng(setup.seed)
    seeds, d = setup.seeds, setup.dimension
    aux_units, pretrained = _pretrain(
        setup.seed,
        seeds,
        d,
        setup.teacher_units,
        setup.width,
        setup.aux_samples,
        setup.init_scale,
        setup.learning_rate,
        setup.steps,
    )
    # Past the pretraining's draws, which _pretrain made from its own generator.
    _pretraining_draws(
        rng,
        seeds,
        d,
        setup.teacher_units,
        setup.aux_samples,
        setup.width,
        setup.init_scale,
    )
    largest = max(setup.sample_sizes)
    rhos, magnitudes = setup.correlations, setup.magnitudes
    units = np.stack(
        [np.stack([correlated_units(v, r, rng) for v in aux_units]) for r in rhos]
    )  # (R, S, k, d)
    x = rng.standard_normal((seeds, largest, d))
    x_test = rng.standard_normal((seeds, setup.test_samples, d))
    stl_init = _small_init(len(rhos) * seeds, setup.width, d, setup.init_scale, rng)
    shape = (len(rhos), len(magnitudes), len(setup.sample_sizes), seeds)
    stl_error, ptft_error = np.empty(shape), np.empty(shape)
    stl_loss, ptft_loss = np.empty(shape), np.empty(shape)
    unit_target = teacher_outputs(x[None], units, np.ones((len(rhos), seeds)))
    unit_test = teacher_outputs(x_test[None], units, np.ones((len(rhos), seeds)))
    if np.any(np.all(unit_test == 0.0, axis=-1)):
        raise InvalidArgumentError(
            f"setup.test_samples={setup.test_samples} is too few: a finetuning "
            "teacher vanishes on every test input, so its relative error is "
            "undefined; use more test_samples"
        )
    finetune_steps = (
        setup.steps if setup.finetune_steps is None else setup.finetune_steps
    )
    for index, n in enumerate(setup.sample_sizes):
        inputs = np.broadcast_to(x[None, :, :n], (len(rhos), seeds, n, d))
        stl_run = (
            inputs.reshape(-1, n, d),
            unit_target[:, :, :n].reshape(-1, n),
            *stl_init,
        )
        # PT+FT for every (rho, m): the pretrained hidden weights, readouts gamma.
        count = len(rhos) * len(magnitudes) * seeds
        targets = (
            unit_target[:, None, :, :n] * np.asarray(magnitudes)[None, :, None, None]
        ).reshape(count, n)
        ft_inputs = np.broadcast_to(
            x[None, None, :, :n], (len(rhos), len(magnitudes), seeds, n, d)
        ).reshape(count, n, d)
        ft_hidden = np.broadcast_to(
            pretrained.hidden_weights[None, None],
            (len(rhos), len(magnitudes), *pretrained.hidden_weights.shape),
        ).reshape(count, setup.width, d)
        ptft_run = (
            ft_inputs,
            targets,
            ft_hidden,
            np.full((count, setup.width), setup.readout_reinit),
        )
        stl, ptft = _train_side_by_side(
            (stl_run, ptft_run), setup.learning_rate, (setup.steps, finetune_steps)
        )
        stl_error[:, :, index] = _relative_error(
            stl, x_test, unit_test, len(rhos), seeds
        )[:, None]
        stl_loss[:, :, index] = stl.relative_loss.reshape(len(rhos), 1, seeds)
        outputs = _outputs(
            np.broadcast_to(
                x_test[None, None], (len(rhos), len(magnitudes), *x_test.shape)
            ).reshape(count, setup.test_samples, d),
            ptft.hidden_weights,
            ptft.readout,
        ).reshape(len(rhos), len(magnitudes), seeds, -1)
        truth = unit_test[:, None] * np.asarray(magnitudes)[None, :, None, None]
        with np.errstate(over="ignore", invalid="ignore"):
            ptft_error[:, :, index] = np.sum((outputs - truth) ** 2, axis=-1) / np.sum(
                truth**2, axis=-1
            )
        ptft_loss[:, :, index] = ptft.relative_loss.reshape(
            len(rhos), len(magnitudes), seeds
        )
    for array in (stl_error, ptft_error, stl_loss, ptft_loss):
        _finite(array, "the relative errors or losses", "setup.magnitudes")
    return SampleEfficiency(
        setup, stl_error, ptft_error, stl_loss, ptft_loss, pretrained.relative_loss
    )


def _train_side_by_side(
    runs: tuple[tuple[Float64Array, ...], ...],
    learning_rate: float,
    steps: tuple[int, ...],
) -> list[TrainedNetworks]:
    """:func:`train_relu_networks` on each (inputs, targets, hidden, readout) run.

    Runs of the same step count and sample size train as one stack: each
    network's arithmetic is its own (a matrix product per network, reductions
    along its own rows), so its iterates are those of a separate run, bit for
    bit, and the stack saves the per-step overhead of the separate calls.
    """
    shapes = {(count, run[0].shape[1]) for count, run in zip(steps, runs, strict=True)}
    if len(shapes) > 1:
        return [
            train_relu_networks(*run, learning_rate=learning_rate, steps=count)
            for count, run in zip(steps, runs, strict=True)
        ]
    stacked = train_relu_networks(
        *(np.concatenate(parts) for parts in zip(*runs, strict=True)),
        learning_rate=learning_rate,
        steps=steps[0],
    )
    bounds = np.cumsum([run[0].shape[0] for run in runs])[:-1]
    return [
        TrainedNetworks(hidden, readout, loss)
        for hidden, readout, loss in zip(
            np.split(stacked.hidden_weights, bounds),
            np.split(stacked.readout, bounds),
            np.split(stacked.relative_loss, bounds),
            strict=True,
        )
    ]


def _pretraining_draws(
    rng: np.random.Generator,
    seeds: int,
    dimension: int,
    teacher_units: int,
    aux_samples: int,
    width: int,
    init_scale: float,
) -> tuple[Float64Array, Float64Array, Float64Array, Float64Array]:
    """The auxiliary teachers, inputs and initializations, drawn from ``rng``."""
    aux_units = np.stack(
        [sample_sphere(teacher_units, dimension, rng) for _ in range(seeds)]
    )
    aux_x = rng.standard_normal((seeds, aux_samples, dimension))
    hidden, readout = _small_init(seeds, width, dimension, init_scale, rng)
    return aux_units, aux_x, hidden, readout


@functools.lru_cache(maxsize=4)
def _pretrain(
    seed: int,
    seeds: int,
    dimension: int,
    teacher_units: int,
    width: int,
    aux_samples: int,
    init_scale: float,
    learning_rate: float,
    steps: int,
) -> tuple[Float64Array, TrainedNetworks]:
    """The auxiliary teachers and the pretrained networks of a master seed.

    They are the first draws of the master seed's stream and depend on these
    fields only, so the runs of one process that share them (the claims at
    each correlation of one setup) pretrain once.
    """
    rng = np.random.default_rng(seed)
    aux_units, aux_x, hidden, readout = _pretraining_draws(
        rng, seeds, dimension, teacher_units, aux_samples, width, init_scale
    )
    aux_y = teacher_outputs(aux_x, aux_units, np.ones(seeds))
    trained = train_relu_networks(
        aux_x, aux_y, hidden, readout, learning_rate=learning_rate, steps=steps
    )
    # Shared by every run that hits the cache (pretraining_loss is returned).
    for array in (
        aux_units,
        trained.hidden_weights,
        trained.readout,
        trained.relative_loss,
    ):
        array.setflags(write=False)
    return aux_units, trained


def _relative_error(
    trained: TrainedNetworks,
    x_test: Float64Array,
    truth: Float64Array,
    correlations: int,
    seeds: int,
) -> Float64Array:
    """(R, S) relative test errors of R*S networks on their seed's test inputs."""
    test = np.broadcast_to(x_test[None], (correlations, *x_test.shape))
    outputs = _outputs(
        test.reshape(-1, *x_test.shape[1:]), trained.hidden_weights, trained.readout
    ).reshape(correlations, seeds, -1)
    return np.asarray(
        np.sum((outputs - truth) ** 2, axis=-1) / np.sum(truth**2, axis=-1)
    )
