r"""Gradient descent on deep linear networks, batched: pretraining and transfer.

A deep linear network of depth :math:`L \ge 2` (eq. 9 of features-are-fate)
computes :math:`f(x) = x^\top W_1 W_2 \cdots W_L = x^\top\beta` with
:math:`W_l \in \mathbb{R}^{d_{l-1}\times d_l}`, :math:`d_0 = d` and
:math:`d_L = 1`. Every loss of the paper is a function of :math:`\beta` alone:

* pretraining, the population loss (4) with :math:`x \sim N(0, I_d)`:
  :math:`\mathcal{L}_s = \tfrac12\|\beta - \beta_s\|^2 + \tfrac12\sigma^2`,
  gradient :math:`g = \beta - \beta_s`;
* target training, the empirical loss (5):
  :math:`\mathcal{L}_t = \tfrac1{2n}\|X\beta - y\|^2`,
  gradient :math:`g = X^\top(X\beta - y)/n`.

Gradients are backpropagated by hand (one chain of matrix-vector products
each way, no autograd) on K independent networks stacked on a leading axis,
which advance together; a network that has converged is frozen and dropped
from the batch. The engine, with the formulas of the backward pass, the
midpoint step and the adaptive step, is
:mod:`implicit_bias.validation._deep_linear_descent`.

Two integrators of the gradient flow (6):

* ``"gd"`` -- plain gradient descent (explicit Euler), the paper's recipe
  (Appendix D.1: fixed step :math:`\eta = 10^{-3}`);
* ``"midpoint"`` (default) -- the same step with the backpropagated factors
  evaluated at the midpoint weights :math:`(W_l + W_l')/2` and the gradient
  with respect to :math:`\beta` frozen at the start of the step. It conserves
  the invariant (35) :math:`D_l = W_l^\top W_l - W_{l+1}W_{l+1}^\top` to
  rounding at ANY step size, as under the flow, while an Euler step changes it
  by about :math:`\eta` times the loss decrease: the fine-tuning endpoint (142)
  depends on :math:`D_l` (it fixes the scale of the preserved source
  component), so Euler's endpoint carries an :math:`O(\eta)` error and the
  midpoint rule's does not.

Both integrators move :math:`W_1` only by :math:`g\,q_1^\top`
(:math:`q_1 = W_2\cdots W_L`) with :math:`g \in \mathrm{row}(X)`, so
:math:`(I - P_{\mathrm{row}(X)})W_1` is conserved exactly: this (with
interpolation) is what makes the scratch endpoint the minimum-norm solution
and the fine-tuning endpoint keep :math:`(I - P_{\mathrm{row}(X)})\beta_s`
(Appendices B.4 and B.8).

Step size. With ``learning_rate=None`` each network takes the step
:math:`1/h_k`, :math:`h_k` an upper bound on the largest eigenvalue of the
loss Hessian in the trainable weights at the current point (the Gauss-Newton
part plus the curvature of :math:`g^\top\beta`, bounded by products of
Frobenius norms of the layers; the engine's docstring gives it). Descent is
stable below :math:`2/h`.

Stopping. A network stops once its excess loss over the infimum of the loss
is at most ``tol`` times the loss of :math:`\beta = 0` above that infimum
(:math:`\tfrac12\|\beta_s\|^2` for pretraining; for the empirical loss the
infimum is the least-squares residual, zero when :math:`n \le d`). Linear
transfer (only :math:`W_L` trained) is a least-squares problem on the frozen
features :math:`\Phi = X W_1\cdots W_{L-1}`; at finite :math:`\alpha` they have
rank :math:`\min(n, d)`, with all but one singular value of order
:math:`\alpha^{L-1}`, so the loss first settles on the plateau of the
rank-one problem (the fit along the top singular direction, Theorem 3.7) and
would leave it only on the time scale :math:`\alpha^{-2(L-1)}` (the paper's
runs stop at :math:`t = 100`). Linear transfer therefore stops once the excess
loss along the top right singular vector v of :math:`\Phi`,
:math:`(v^\top\nabla_{W_L}\mathcal{L})^2/(2\lambda)` with
:math:`\lambda = \|\Phi v\|^2/n`, is at most ``tol`` times the loss that
direction can remove. Its step is :math:`1/\lambda`, which solves the
rank-one part in one step.

Input preconditioning (``preconditioned=True``, target training only): the
update uses :math:`X^+ r` in place of :math:`g = X^\top r/n`, i.e. gradient
descent in the metric :math:`(X^\top X/n)^+`. The direction still lies in
:math:`\mathrm{row}(X)` and the midpoint rule still conserves (35), so the
endpoint is unchanged (it is fixed by those two conservation laws and
interpolation), while the number of steps no longer grows with the condition
number of :math:`X^\top X` (about 20 steps instead of thousands near
:math:`\gamma = 1`); it costs one Gram matrix and its inverse per draw.

Failures. A network that does not stop within ``max_steps`` steps raises
:class:`~implicit_bias.errors.ConvergenceError`, as does divergence, caught at
once: a loss that overflows or grows :math:`10^4` times above its initial
value (descent with a stable step only lowers it), or, for the midpoint rule
with a fixed ``learning_rate``, a step whose implicit equation has no solution
(the adaptive step is halved instead). Every 1000 steps the weights are
compared with those 1000 steps before: the iteration is a function of the
weights alone, so a network back at the same weights (a stationary point such
as all-zero weights, or steps below the rounding of the weights) is stuck
forever, and raises at once (with ``strict=False`` it is returned as it would
be after ``max_steps`` steps). A loss beyond the float64 range at the initial
weights raises :class:`~implicit_bias.errors.OutOfRangeError`.
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
    check_integer,
    check_real,
    check_seed,
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
    "balanced_initialization",
    "balancedness_margin",
    "end_to_end",
    "finetune",
    "linear_transfer",
    "pretrain",
    "train_from_scratch",
    "transfer_experiment",
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


def pretrain(
    init: Sequence[ArrayLike],
    source: ArrayLike,
    *,
    learning_rate: float | None = None,
    integrator: Integrator = "midpoint",
    tol: float = DEFAULT_TOLERANCE,
    max_steps: int = DEFAULT_MAX_STEPS,
    strict: bool = True,
) -> DeepLinearResult:
    r"""Pretraining: gradient descent on the population loss (4) of the source task.

    .. math:: \mathcal{L}_s = \tfrac12\mathbb{E}_{x\sim N(0,I)}[(x^\top\beta
              - y)^2] = \tfrac12\|\beta - \beta_s\|^2 + \tfrac12\sigma^2

    Let :math:`\beta_s` be ``source``; the noise only shifts the loss. Stops
    once :math:`\tfrac12\|\beta-\beta_s\|^2 \le` ``tol`` :math:`\cdot
    \tfrac12\|\beta_s\|^2` (Lemma 3.3: the flow converges to :math:`\beta_s`).

    Args:
      init: :math:`W_1(0), \dots, W_L(0)`, each (K, d_{l-1}, d_l), e.g.
        :math:`\alpha` times :func:`balanced_initialization`.
      source: :math:`\beta_s`, (d,) or (K, d).
      learning_rate: fixed step > 0 (plain ``"gd"`` is the paper's recipe), or
        None for the adaptive step :math:`1/h`.
      integrator: ``"midpoint"`` (conserves (35) exactly) or ``"gd"``.
      tol: relative excess loss to stop at, >= 0.
      max_steps: most steps per network, an integer >= 1.
      strict: raise if a network has not converged within ``max_steps``; with
        False, return it as it is.

    Returns:
      A :class:`DeepLinearResult`.

    Raises:
      InvalidArgumentError: an argument is invalid (checked before training;
        for ``preconditioned``, also a rank-deficient X).
      OutOfRangeError: the loss at ``init`` lies beyond the float64 range.
      ConvergenceError: descent diverged (a ``learning_rate`` too large: the
        loss overflowed or grew 10^4 times, or the midpoint step had no
        solution), is stuck at the same weights, or did not converge within
        ``max_steps``; the message says what to try.

    Examples:
      >>> init = [1e-3 * W for W in balanced_initialization([3, 3])]
      >>> result = pretrain(init, [0.6, 0.0, 0.8])
      >>> bool(np.allclose(result.coefficients, [[0.6, 0.0, 0.8]], atol=1e-9))
      True

    References:
      Eq. (4) and Lemma 3.3 of features-are-fate.
    """
    weights = _weights("init", init)
    count, dimension = weights[0].shape[:2]
    beta_s = as_finite_array("source", source, ndim=(1, 2), shape="(d,) or (K, d)")
    if beta_s.shape[-1] != dimension:
        raise InvalidArgumentError(
            f"source has {beta_s.shape[-1]} entries but init[0] has {dimension} rows"
        )
    try:
        beta_s = np.ascontiguousarray(np.broadcast_to(beta_s, (count, dimension)))
    except ValueError as error:
        raise InvalidArgumentError(
            f"source has shape {beta_s.shape}: one source per network, (d,) or "
            f"({count}, d)"
        ) from error
    rate = _rate(learning_rate)
    rule = _integrator(integrator)
    tolerance, steps = _stopping_rule(tol, max_steps)
    strict = _flag("strict", strict)
    with np.errstate(over="ignore"):
        scale = 0.5 * np.einsum("ki,ki->k", beta_s, beta_s)
    loss = descent.Loss(
        None, beta_s, np.zeros(count), _threshold(tolerance, scale), np.ones(count)
    )
    return _descend(
        weights,
        loss,
        trainable=tuple(range(len(weights))),
        learning_rate=rate,
        integrator=rule,
        max_steps=steps,
        strict=strict,
    )


def _target_training(
    name: str,
    init: Sequence[ArrayLike],
    X: ArrayLike,
    y: ArrayLike,
    *,
    learning_rate: float | None,
    integrator: str,
    preconditioned: bool,
    tol: float,
    max_steps: int,
    strict: bool,
) -> DeepLinearResult:
    """Fine-tuning or scratch training; ``name`` is the caller's name of ``init``."""
    weights = _weights(name, init)
    X_, y_ = _data(X, y, weights[0].shape[0], weights[0].shape[1])
    rate = _rate(learning_rate)
    rule = _integrator(integrator)
    preconditioned = _flag("preconditioned", preconditioned)
    tolerance, steps = _stopping_rule(tol, max_steps)
    strict = _flag("strict", strict)
    weights = [
        np.array(np.broadcast_to(W, (X_.shape[0], *W.shape[1:]))) for W in weights
    ]
    count, samples, dimension = X_.shape
    overdetermined = samples > dimension
    with np.errstate(over="ignore", invalid="ignore"):
        gram = np.matmul(np.swapaxes(X_, 1, 2), X_) if overdetermined else None
        floor = descent.least_squares_floor(X_, y_, gram)
        scale = 0.5 * np.einsum("kn,kn->k", y_, y_) / samples - floor
    if preconditioned:
        # In the metric (X^T X / n)^+ the Gauss-Newton part has eigenvalue 1.
        if gram is None:
            gram = np.matmul(X_, np.swapaxes(X_, 1, 2))
        loss = descent.Loss(
            X_,
            y_,
            floor,
            _threshold(tolerance, scale),
            np.ones(count),
            _inverse_gram(gram),
        )
    else:
        loss = descent.Loss(
            X_, y_, floor, _threshold(tolerance, scale), descent.top_eigenvalue(X_)
        )
    return _descend(
        weights,
        loss,
        trainable=tuple(range(len(weights))),
        learning_rate=rate,
        integrator=rule,
        max_steps=steps,
        strict=strict,
    )


def _inverse_gram(gram: Float64Array) -> Float64Array:
    """The inverse of each Gram matrix of the preconditioner (K, m, m)."""
    try:
        with np.errstate(over="ignore", invalid="ignore"):
            inverse = np.linalg.inv(gram)
    except np.linalg.LinAlgError as error:
        raise InvalidArgumentError(
            "preconditioned=True needs X of full rank (X X^T or X^T X "
            "invertible); X is rank deficient: use preconditioned=False"
        ) from error
    if not np.isfinite(inverse).all():
        raise OutOfRangeError(
            "the inverse Gram matrix of X overflows float64 (X is nearly rank "
            "deficient or tiny): use preconditioned=False or rescale X"
        )
    return np.asarray(inverse)


def finetune(
    pretrained: Sequence[ArrayLike],
    X: ArrayLike,
    y: ArrayLike,
    *,
    learning_rate: float | None = None,
    integrator: Integrator = "midpoint",
    preconditioned: bool = False,
    tol: float = DEFAULT_TOLERANCE,
    max_steps: int = DEFAULT_MAX_STEPS,
    strict: bool = True,
) -> DeepLinearResult:
    r"""Fine-tuning: every layer trained on the target samples from pretraining.

    .. math:: \mathcal{L}_t = \tfrac1{2n}\|X W_1\cdots W_L - y\|^2

    Let :math:`X` be ``X`` and :math:`y` be ``y``. Stops once the loss is within
    ``tol`` (relative) of its infimum; from small-initialization pretraining
    the endpoint approaches
    :func:`~implicit_bias.numerics.transfer_endpoints.finetune_endpoint`
    (eq. 142, corrected).

    Args:
      pretrained: :math:`W_1, \dots, W_L` after pretraining, each
        (K, d_{l-1}, d_l) or (1, ...) shared by every draw.
      X: target inputs, (n, d) or (K, n, d).
      y: target labels, (n,) or (K, n).
      learning_rate: fixed step > 0, or None for the adaptive step.
      integrator: ``"midpoint"`` or ``"gd"`` (the paper's recipe).
      preconditioned: descend in the metric :math:`(X^\top X/n)^+` (module
        docstring); needs X of full rank.
      tol: relative excess loss to stop at, >= 0.
      max_steps: most steps per network, an integer >= 1.
      strict: raise if a network has not converged within ``max_steps``; with
        False, return it as it is.

    Returns:
      A :class:`DeepLinearResult`.

    Raises:
      InvalidArgumentError: an argument is invalid (checked before training;
        for ``preconditioned``, also a rank-deficient X).
      OutOfRangeError: the loss at ``init`` lies beyond the float64 range.
      ConvergenceError: descent diverged (a ``learning_rate`` too large: the
        loss overflowed or grew 10^4 times, or the midpoint step had no
        solution), is stuck at the same weights, or did not converge within
        ``max_steps``; the message says what to try.

    Examples:
      On the source task itself (y = X beta_s) fine-tuning keeps beta_s:

      >>> X = np.random.default_rng(0).standard_normal((3, 5))
      >>> source = np.eye(5)[0]
      >>> pre = pretrain([1e-4 * W for W in balanced_initialization([5, 5])], source)
      >>> beta = finetune(pre.weights, X, X @ source).coefficients
      >>> bool(np.allclose(beta, source, atol=1e-6))
      True

    References:
      Eq. (5), Section 3.4 and eq. (142) of features-are-fate.
    """
    return _target_training(
        "pretrained",
        pretrained,
        X,
        y,
        learning_rate=learning_rate,
        integrator=integrator,
        preconditioned=preconditioned,
        tol=tol,
        max_steps=max_steps,
        strict=strict,
    )


def train_from_scratch(
    init: Sequence[ArrayLike],
    X: ArrayLike,
    y: ArrayLike,
    *,
    learning_rate: float | None = None,
    integrator: Integrator = "midpoint",
    preconditioned: bool = False,
    tol: float = DEFAULT_TOLERANCE,
    max_steps: int = DEFAULT_MAX_STEPS,
    strict: bool = True,
) -> DeepLinearResult:
    r"""Scratch training on the target samples from a small initialization.

    .. math:: W_l(0) = \alpha\bar W_l,\qquad
              \lim_{\alpha\to0}\lim_{t\to\infty}\beta(t) = X^+ y

    Args and errors as :func:`finetune`, with ``init`` the initialization
    (e.g. :math:`\alpha` times :func:`balanced_initialization`).

    Returns:
      A :class:`DeepLinearResult`.

    Examples:
      >>> rng = np.random.default_rng(1)
      >>> X, y = rng.standard_normal((3, 5)), rng.standard_normal(3)
      >>> init = [1e-6 * W for W in balanced_initialization([5, 5])]
      >>> result = train_from_scratch(init, X, y)
      >>> bool(np.allclose(result.coefficients[0], np.linalg.pinv(X) @ y, atol=1e-5))
      True

    References:
      Theorem 3.5 and Appendix B.4 of features-are-fate.
    """
    return _target_training(
        "init",
        init,
        X,
        y,
        learning_rate=learning_rate,
        integrator=integrator,
        preconditioned=preconditioned,
        tol=tol,
        max_steps=max_steps,
        strict=strict,
    )


def linear_transfer(
    pretrained: Sequence[ArrayLike],
    X: ArrayLike,
    y: ArrayLike,
    *,
    tol: float = DEFAULT_TOLERANCE,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> DeepLinearResult:
    r"""Linear transfer: only the last layer :math:`W_L` trained on the target samples.

    .. math:: \hat W_L = \arg\min_{W_L}\tfrac1{2n}\|\Phi W_L - y\|^2,\qquad
              \Phi = X W_1\cdots W_{L-1}

    Gradient descent on :math:`W_L` from its pretrained value with the step
    :math:`1/\lambda`, :math:`\lambda = \|\Phi v\|^2/n` the curvature along the
    top right singular vector v of :math:`\Phi` (power iteration), until the
    excess loss along v is at most ``tol`` times the loss v can remove: the
    plateau of the rank-one problem (module docstring). From
    small-initialization pretraining the endpoint approaches
    :math:`b\beta_s` with b of eq. (108)
    (:func:`~implicit_bias.numerics.transfer_endpoints.linear_transfer_coefficient`).

    Args:
      pretrained: :math:`W_1, \dots, W_L` after pretraining, (K, ...) or (1, ...).
      X: target inputs, (n, d) or (K, n, d).
      y: target labels, (n,) or (K, n).
      tol: relative excess loss along v to stop at, >= 0.
      max_steps: most steps per network, an integer >= 1.

    Returns:
      A :class:`DeepLinearResult` (``excess_loss`` along v).

    Raises:
      InvalidArgumentError: an argument is invalid.
      OutOfRangeError: the features, the loss or the trained :math:`W_L`
        lie beyond the float64 range.
      ConvergenceError: a network did not reach the plateau.

    Examples:
      Labels twice the source's give b = 2 in eq. (108):

      >>> X = np.random.default_rng(0).standard_normal((3, 5))
      >>> source = np.eye(5)[0]
      >>> pre = pretrain([1e-4 * W for W in balanced_initialization([5, 5])], source)
      >>> beta = linear_transfer(pre.weights, X, 2 * X @ source).coefficients
      >>> bool(np.allclose(beta, 2 * source, atol=1e-6))
      True

    References:
      Eqs. (11) and (104)-(108) of features-are-fate.
    """
    weights = _weights("pretrained", pretrained)
    X_, y_ = _data(X, y, weights[0].shape[0], weights[0].shape[1])
    tolerance, steps = _stopping_rule(tol, max_steps)
    count = X_.shape[0]
    weights = [np.array(np.broadcast_to(W, (count, *W.shape[1:]))) for W in weights]
    finals, final_excess, final_steps = descent.descend_readout(
        weights, X_, y_, tolerance, steps
    )
    trained = (*weights[:-1], finals[..., None])
    return DeepLinearResult(
        weights=trained,
        coefficients=_product(trained),
        excess_loss=final_excess,
        steps=final_steps,
    )


def transfer_experiment(
    init: Sequence[ArrayLike],
    source: ArrayLike,
    X: ArrayLike,
    y: ArrayLike,
    *,
    tol: float = DEFAULT_TOLERANCE,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> TransferResult:
    r"""Pretrain once on :math:`\beta_s`, then transfer to K target draws three ways.

    Pretraining starts from the first network of ``init`` (shape (1, ...));
    scratch training of draw k starts from network k of ``init`` broadcast to
    the K draws; linear transfer and fine-tuning start from the pretrained
    weights. All use the adaptive step and the midpoint integrator.

    Args:
      init: :math:`\alpha\bar W_1, \dots, \alpha\bar W_L`, (1, ...) or (K, ...).
      source: :math:`\beta_s`, (d,).
      X: target inputs, (K, n, d) or (n, d).
      y: target labels, (K, n) or (n,).
      tol: relative excess loss to stop at.
      max_steps: most steps per phase and network.

    Returns:
      A :class:`TransferResult`.

    Raises:
      InvalidArgumentError: an argument is invalid (checked before training).
      OutOfRangeError, ConvergenceError: as :func:`pretrain`, :func:`finetune`
        and :func:`linear_transfer`.

    References:
      Sections 3.1-3.4 and Appendix D.1 of features-are-fate.
    """
    weights = _weights("init", init)
    count, dimension = weights[0].shape[:2]
    beta_s = as_finite_array("source", source, ndim=1, shape="(d,)")
    if beta_s.shape[0] != dimension:
        raise InvalidArgumentError(
            f"source has {beta_s.shape[0]} entries but init[0] has {dimension} rows"
        )
    _data(X, y, count, dimension)
    _stopping_rule(tol, max_steps)
    pretrained = pretrain(
        [W[:1] for W in weights], beta_s, tol=tol, max_steps=max_steps
    )
    return TransferResult(
        pretrained=pretrained,
        linear=linear_transfer(pretrained.weights, X, y, tol=tol, max_steps=max_steps),
        finetuned=finetune(pretrained.weights, X, y, tol=tol, max_steps=max_steps),
        scratch=train_from_scratch(weights, X, y, tol=tol, max_steps=max_steps),
    )
