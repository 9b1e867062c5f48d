r"""The batched descent engine of :mod:`implicit_bias.validation.deep_linear_networks`.

Private: the backward pass, the two step rules, the adaptive step and the
descent loop that the training phases of
:mod:`~implicit_bias.validation.deep_linear_networks` run; the losses, the
stopping rule and the conservation laws the steps keep are described there.

Backpropagation, by hand. With :math:`P_l = W_1\cdots W_{l-1}` and
:math:`q_l = W_{l+1}\cdots W_L` (so :math:`\beta = P_l W_l q_l`), the gradient
of a loss with :math:`\partial\mathcal{L}/\partial\beta = g` is the outer
product

.. math:: \nabla_{W_l}\mathcal{L} = a_l\, q_l^\top,\qquad
          a_1 = g,\ a_{l+1} = W_l^\top a_l,\qquad
          q_L = 1,\ q_{l-1} = W_l\, q_l,

one chain of matrix-vector products each way; no matrix-matrix product and no
autograd. K independent networks are stacked on a leading axis and advance
together (``np.matmul`` / ``np.einsum`` over the batch); a network that has
converged is frozen and dropped from the batch.

The midpoint step. The Euler step :math:`W_l' = W_l - \eta\,a_l q_l^\top` with
:math:`a_l, q_l` evaluated at the midpoint weights
:math:`\bar W_l = (W_l + W_l')/2` and :math:`g` frozen at the start of the
step. Then
:math:`W_l'^\top W_l' - W_l^\top W_l = W_{l+1}'W_{l+1}'^\top -
W_{l+1}W_{l+1}^\top` holds exactly (the identity
:math:`A'^\top A' - A^\top A = \mathrm{sym}((A'-A)^\top(A'+A))` and
:math:`\bar W_l^\top a_l = a_{l+1}`, :math:`\bar W_{l+1} q_{l+1} = q_l`), so
the invariant (35) :math:`D_l = W_l^\top W_l - W_{l+1}W_{l+1}^\top` is
conserved to rounding at ANY step size, as under the flow. An Euler step
changes it by
:math:`\eta^2(\|a_l\|^2 q_l q_l^\top - \|q_{l+1}\|^2 a_{l+1}a_{l+1}^\top)`,
in total about :math:`\eta` times the loss decrease. For L = 2 the midpoint
step is solved in closed form (the update of :math:`W_2` is a scalar multiple
of known vectors); for L > 2 by fixed-point iteration to rounding.

The adaptive step. With ``learning_rate=None`` each network takes the step
:math:`1/h_k`, :math:`h_k` an upper bound on the largest eigenvalue of the
loss Hessian in the trainable weights at the current point:

.. math:: h = \lambda_X \sum_{l} \|P_l\|^2\|q_l\|^2
          + \|g\| \sum_{l<m} \|P_l\|\,\|W_{l+1}\cdots W_{m-1}\|\,\|q_m\|

(Gauss-Newton part :math:`J^\top\Sigma J` plus the curvature of
:math:`g^\top\beta`; :math:`\lambda_X` the top eigenvalue of the input
covariance, 1 for the population loss; matrix norms bounded by products of
Frobenius norms). Descent is stable below :math:`2/h`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from implicit_bias.errors import ConvergenceError, OutOfRangeError

if TYPE_CHECKING:
    from implicit_bias.validation.deep_linear_networks import Integrator

Float64Array = NDArray[np.float64]

#: Power iterations for the top eigenvalue of X^T X / n. The estimate is a
#: lower bound that converges like (lambda_2/lambda_1)^iterations; 1.1 times it
#: with the factor-2 margin of the step 1/h (stable below 2/h) keeps descent
#: stable whenever the estimate is within 45 % of the truth.
_POWER_ITERATIONS = 30
_LAMBDA_MARGIN = 1.1
#: Fixed-point iterations of the midpoint step for L > 2 (each contracts the
#: error by about eta ||g|| ||W||^(L-2) < 1; rounding is reached in a few).
_MIDPOINT_ITERATIONS = 50
#: Most halvings of an adaptive step whose midpoint equation has no solution:
#: 2^-64 of the step 1/h is below the rounding of any weight it moves.
_MAX_HALVINGS = 64
#: A loss this many times its initial value means descent is diverging.
#: Descent with a stable step only lowers the loss; an unstable step grows it
#: geometrically, so the check fires a few steps after the instability
#: instead of when the loss overflows.
_EXPLOSION = 1e4
#: Every this many steps the weights are compared with those of the previous
#: check: a network back at the same weights is stuck forever.
_CYCLE_CHECK = 1000


# --------------------------------------------------------------- forward/back


def right_chain(weights: Sequence[Float64Array]) -> list[Float64Array]:
    """q_0..q_L: q_L = 1, q_{L-1} = W_L[..., 0], q_{l-1} = W_l q_l; beta = q_0."""
    chain = [np.ones((weights[-1].shape[0], 1)), weights[-1][..., 0]]
    for W in reversed(weights[1:-1]):
        chain.append(np.matmul(W, chain[-1][..., None])[..., 0])
    chain.append(np.matmul(weights[0], chain[-1][..., None])[..., 0])
    chain.reverse()
    return chain


def _left_chain(
    weights: Sequence[Float64Array], gradient: Float64Array
) -> list[Float64Array]:
    """a_1..a_L: a_1 = g, a_{l+1} = W_l^T a_l."""
    chain = [gradient]
    for W in weights[:-1]:
        chain.append(np.einsum("kij,ki->kj", W, chain[-1]))
    return chain


def _curvature(
    weights: Sequence[Float64Array],
    rights: Sequence[Float64Array],
    gradient_norm: Float64Array,
    top_eigenvalue: Float64Array,
    trainable: Sequence[int],
) -> Float64Array:
    """The Hessian bound h of the module docstring, per network, (K,)."""
    norms = [np.sqrt(np.einsum("kij,kij->k", W, W)) for W in weights]
    right_norms = [np.sqrt(np.einsum("ki,ki->k", q, q)) for q in rights[1:]]
    # right_norms[l] = ||q_{l+1}||, the right factor of layer l (0-based).
    # ||P_l|| <= ||W_1|| ... ||W_{l-1}||, P_1 = I.
    prefix = [np.ones_like(norms[0])]
    for norm in norms[:-1]:
        prefix.append(prefix[-1] * norm)
    bound = np.zeros_like(norms[0])
    for layer in trainable:
        bound += top_eigenvalue * (prefix[layer] * right_norms[layer]) ** 2
    for position, first in enumerate(trainable):
        for last in trainable[position + 1 :]:
            between = np.ones_like(bound)
            for j in range(first + 1, last):
                between = between * norms[j]
            bound += gradient_norm * prefix[first] * between * right_norms[last]
    return bound


# ------------------------------------------------------------------ losses


@dataclass
class Loss:
    """A loss of beta for a batch: its gradient, value and stopping threshold.

    ``X`` (K, n, d) and ``y`` (K, n), or ``X`` None for the population loss
    with ``y`` the source predictors (K, d). ``floor`` is the infimum of the
    loss (or the plateau, for linear transfer), ``threshold`` the excess at
    which a network stops, ``top`` the top eigenvalue of the input covariance.
    """

    X: Float64Array | None
    y: Float64Array
    floor: Float64Array
    threshold: Float64Array
    top: Float64Array
    inverse_gram: Float64Array | None = None

    def evaluate(self, beta: Float64Array) -> tuple[Float64Array, Float64Array]:
        """(loss, direction) at beta (K, d): the gradient, or X^+ r (preconditioned)."""
        if self.X is None:
            gradient = beta - self.y
            return 0.5 * np.einsum("ki,ki->k", gradient, gradient), gradient
        samples, dimension = self.X.shape[1:]
        residual = np.matmul(self.X, beta[..., None])[..., 0]
        residual -= self.y
        loss = 0.5 * np.einsum("kn,kn->k", residual, residual) / samples
        if self.inverse_gram is None:
            return loss, np.einsum("knd,kn->kd", self.X, residual) / samples
        if samples <= dimension:  # X^+ r = X^T (X X^T)^{-1} r
            solved = np.matmul(self.inverse_gram, residual[..., None])[..., 0]
            return loss, np.einsum("knd,kn->kd", self.X, solved)
        moment = np.einsum("knd,kn->kd", self.X, residual)  # (X^T X)^{-1} X^T r
        return loss, np.matmul(self.inverse_gram, moment[..., None])[..., 0]

    def take(self, keep: NDArray[np.bool_]) -> Loss:
        return Loss(
            None if self.X is None else self.X[keep],
            self.y[keep],
            self.floor[keep],
            self.threshold[keep],
            self.top[keep],
            None if self.inverse_gram is None else self.inverse_gram[keep],
        )


def top_eigenvalue(X: Float64Array) -> Float64Array:
    """Power-iteration estimate of lambda_max(X^T X / n) per draw, times a margin.

    The iteration runs on X / 2^e (exact), 2^e >= max |X| per draw, so the
    norms it takes neither overflow nor underflow; the estimate is scaled back
    by 4^e (inf where lambda_max itself lies beyond float64, which the
    adaptive step reports). A draw with X = 0 has lambda_max = 0.
    """
    largest = np.max(np.abs(X), axis=(1, 2))
    exponent = np.frexp(np.where(largest > 0, largest, 1.0))[1]
    scaled = np.ldexp(X, -exponent[:, None, None])
    rng = np.random.default_rng(0)
    vector = rng.standard_normal((X.shape[0], X.shape[2]))
    value = np.ones(X.shape[0])
    for _ in range(_POWER_ITERATIONS):
        norm = np.linalg.norm(vector, axis=1, keepdims=True)
        vector /= np.where(norm > 0, norm, 1.0)
        image = np.einsum(
            "knd,kn->kd", scaled, np.matmul(scaled, vector[..., None])[..., 0]
        )
        value = np.einsum("kd,kd->k", vector, image) / X.shape[1]
        vector = image
    with np.errstate(over="ignore"):
        return np.asarray(_LAMBDA_MARGIN * np.ldexp(value, 2 * exponent))


def least_squares_floor(
    X: Float64Array, y: Float64Array, gram: Float64Array | None
) -> Float64Array:
    """inf_beta ||X beta - y||^2 / (2n) per draw: 0 when n <= d (full row rank).

    ``gram`` is X^T X (K, d, d) when n > d (None otherwise).
    """
    count, samples, _ = X.shape
    if gram is None:
        return np.zeros(count)
    moment = np.einsum("kni,kn->ki", X, y)
    fitted = np.linalg.solve(gram, moment[..., None])[..., 0]
    explained = np.einsum("ki,ki->k", fitted, moment)
    return np.asarray(
        0.5 * np.maximum(np.einsum("kn,kn->k", y, y) - explained, 0.0) / samples
    )


# ------------------------------------------------------------------ engine


def _midpoint_step(
    weights: list[Float64Array],
    gradient: Float64Array,
    rate: Float64Array,
    trainable: Sequence[int],
) -> list[Float64Array] | None:
    """The midpoint step of the module docstring; None if it has no solution."""
    depth = len(weights)
    if depth == 2 and tuple(trainable) == (0, 1):
        W1, w2 = weights[0], weights[1][..., 0]
        quarter = 0.25 * (rate * rate) * np.einsum("ki,ki->k", gradient, gradient)
        if not np.all(quarter < 0.5):
            return None
        pulled = np.einsum("kij,ki->kj", W1, gradient)
        w2_new = ((1 + quarter)[:, None] * w2 - rate[:, None] * pulled) / (1 - quarter)[
            :, None
        ]
        mean = 0.5 * (w2 + w2_new)
        W1_new = W1 - (rate[:, None] * gradient)[:, :, None] * mean[:, None, :]
        return [W1_new, w2_new[..., None]]
    new = _euler_step(weights, gradient, rate, trainable)
    for _ in range(_MIDPOINT_ITERATIONS):
        middle = [0.5 * (a + b) for a, b in zip(weights, new, strict=True)]
        candidate = _euler_step(weights, gradient, rate, trainable, evaluate_at=middle)
        change = max(
            float(np.max(np.abs(c - n))) for c, n in zip(candidate, new, strict=True)
        )
        scale = max(float(np.max(np.abs(c))) for c in candidate)
        new = candidate
        if not np.isfinite(change):
            return None
        if change <= 4 * np.finfo(np.float64).eps * scale:
            return new
    return None


def _euler_step(
    weights: list[Float64Array],
    gradient: Float64Array,
    rate: Float64Array,
    trainable: Sequence[int],
    *,
    evaluate_at: list[Float64Array] | None = None,
) -> list[Float64Array]:
    """W_l - rate a_l q_l^T with a, q evaluated at ``evaluate_at`` (default W)."""
    at = weights if evaluate_at is None else evaluate_at
    rights = right_chain(at)
    lefts = _left_chain(at, gradient)
    new = list(weights)
    for layer in trainable:
        outer = (rate[:, None] * lefts[layer])[:, :, None] * rights[layer + 1][
            :, None, :
        ]
        new[layer] = weights[layer] - outer
    return new


def _stuck_message(network: int, step: int) -> str:
    return (
        f"gradient descent is stuck: network {network} has the same weights at "
        f"step {step} as {_CYCLE_CHECK} steps before, so the iteration repeats "
        "forever without reaching the tolerance (a stationary point such as "
        "all-zero weights, or steps below the rounding of the weights). Start "
        "from other (nonzero) weights, raise learning_rate or raise tol"
    )


def _divergence_message(
    network: int, initial: float, value: float, step: int, learning_rate: float | None
) -> str:
    growth = (
        f"gradient descent diverged: the loss of network {network} grew from "
        f"{initial:.3g} to {value:.3g} by step {step}"
    )
    if learning_rate is None:
        return (
            f"{growth} with the adaptive step (its Hessian bound failed: the "
            "weights or the data are ill-scaled). Rescale the problem, or pass "
            "a small fixed learning_rate"
        )
    return (
        f"{growth}: learning_rate={learning_rate!r} is too large. Lower "
        "learning_rate (descent is stable below 2 / the largest Hessian "
        "eigenvalue) or use learning_rate=None (the adaptive step)"
    )


def _adaptive_rate(
    current: list[Float64Array],
    rights: list[Float64Array],
    gradient: Float64Array,
    loss: Loss,
    trainable: Sequence[int],
    live: NDArray[np.int64],
) -> Float64Array:
    """The step 1/h of the module docstring, per network; 0 where h = 0.

    h = 0 only where every trainable gradient vanishes (e.g. all-zero
    weights): such a network cannot move, and the cycle check of
    :func:`descend` reports it. h = inf (weights near the float64 range)
    would make the step 0 silently, so it raises.
    """
    norm = np.sqrt(np.einsum("ki,ki->k", gradient, gradient))
    bound = _curvature(current, rights, norm, loss.top, trainable)
    if not np.isfinite(bound).all():
        k = int(np.flatnonzero(~np.isfinite(bound))[0])
        raise ConvergenceError(
            f"the adaptive step of network {live[k]} is undefined: the bound on "
            f"the loss Hessian is {float(bound[k])!r} (the weights or the data "
            "are near the float64 range). Rescale the data and the weights"
        )
    stationary = bound == 0
    return np.where(stationary, 0.0, 1.0 / np.where(stationary, 1.0, bound))


def _step(
    current: list[Float64Array],
    gradient: Float64Array,
    rate: Float64Array,
    trainable: Sequence[int],
    integrator: Integrator,
    fixed: bool,
) -> list[Float64Array]:
    """One step of ``integrator``; the adaptive midpoint step halves until solvable."""
    if integrator != "midpoint":
        return _euler_step(current, gradient, rate, trainable)
    for _ in range(_MAX_HALVINGS):
        stepped = _midpoint_step(current, gradient, rate, trainable)
        if stepped is not None:
            return stepped
        if fixed:
            raise ConvergenceError(
                f"learning_rate={float(rate[0])!r} is too large for the midpoint "
                "step: its implicit equation has no solution at the current "
                "weights, or its fixed-point iteration does not contract (the "
                "step overshoots the curvature of the loss). Lower learning_rate, "
                "use learning_rate=None (the adaptive step) or integrator='gd'"
            )
        rate = 0.5 * rate
    raise ConvergenceError(
        f"the midpoint step has no solution even at 2^-{_MAX_HALVINGS} times the "
        "adaptive step: the weights are too large or ill-scaled for it; use "
        "integrator='gd' or rescale the problem"
    )


def descend(
    weights: list[Float64Array],
    loss: Loss,
    *,
    trainable: Sequence[int],
    learning_rate: float | None,
    integrator: Integrator,
    max_steps: int,
    strict: bool = True,
) -> tuple[tuple[Float64Array, ...], Float64Array, NDArray[np.int64]]:
    """Train every network of the batch until its excess loss <= its threshold.

    Returns the final weights, excess losses (K,) and steps taken (K,).

    Raises:
      OutOfRangeError: the loss at the initial weights overflows float64.
      ConvergenceError: the loss overflows or grows :data:`_EXPLOSION` times
        above its initial value (divergence), a network is stuck (module
        docstring), or (``strict``) one does not stop within ``max_steps``.
    """
    count = weights[0].shape[0]
    finals = [np.empty_like(W) for W in weights]
    final_excess = np.empty(count)
    final_steps = np.zeros(count, dtype=np.int64)
    live = np.arange(count)
    current = [W.copy() for W in weights]
    initial = np.empty(count)
    snapshot = current
    with np.errstate(over="ignore", invalid="ignore"):
        for step in range(max_steps + 1):
            rights = right_chain(current)
            value, gradient = loss.evaluate(rights[0])
            excess = value - loss.floor
            if step == 0:
                if not np.isfinite(value).all():
                    bad = int(np.flatnonzero(~np.isfinite(value))[0])
                    raise OutOfRangeError(
                        f"the loss of network {bad} at its initial weights is "
                        f"{float(value[bad])!r}, beyond the float64 range: rescale "
                        "the data (X, y or source) and the weights"
                    )
                initial = value.copy()
            # Descent with a stable step does not raise the loss; a loss far
            # above its start (or overflowing) is an unstable step blowing up.
            exploded = ~(value <= _EXPLOSION * initial)
            if exploded.any():
                bad = int(np.flatnonzero(exploded)[0])
                raise ConvergenceError(
                    _divergence_message(
                        int(live[bad]),
                        float(initial[bad]),
                        float(value[bad]),
                        step,
                        learning_rate,
                    )
                )
            done = excess <= loss.threshold
            if step == max_steps and not strict:
                done[:] = True
            elif step > 0 and step % _CYCLE_CHECK == 0:
                # The iteration is a function of the weights alone: weights
                # that recur recur forever.
                stuck = np.ones(live.size, dtype=np.bool_)
                for new, old in zip(current, snapshot, strict=True):
                    stuck &= np.all(new == old, axis=(1, 2))
                stuck &= ~done
                if stuck.any() and strict:
                    raise ConvergenceError(
                        _stuck_message(int(live[np.flatnonzero(stuck)[0]]), step)
                    )
                # Without strict, a stuck network ends at max_steps as it is.
                done |= stuck
                snapshot = current
            if step == max_steps and not done.all():
                k = int(np.flatnonzero(~done)[0])
                raise ConvergenceError(
                    f"{int((~done).sum())} of {count} networks did not reach their "
                    f"excess-loss tolerance within max_steps={max_steps}: network "
                    f"{live[k]} stopped at an excess loss of {float(excess[k]):.3g} "
                    f"(threshold {float(loss.threshold[k]):.3g}). Raise max_steps, "
                    "use learning_rate=None (the largest stable step) or raise tol"
                )
            if done.any():
                index = live[done]
                for final, W in zip(finals, current, strict=True):
                    final[index] = W[done]
                final_excess[index] = excess[done]
                final_steps[index] = np.where(
                    excess[done] <= loss.threshold[done], step, max_steps
                )
                keep = ~done
                if not keep.any():
                    break
                live = live[keep]
                initial = initial[keep]
                current = [W[keep] for W in current]
                snapshot = [W[keep] for W in snapshot]
                rights = [q[keep] for q in rights]
                gradient = gradient[keep]
                loss = loss.take(keep)
            if learning_rate is None:
                rate = _adaptive_rate(current, rights, gradient, loss, trainable, live)
            else:
                rate = np.full(live.size, learning_rate)
            current = _step(
                current,
                gradient,
                rate,
                trainable,
                integrator,
                learning_rate is not None,
            )
    return tuple(finals), final_excess, final_steps


def _top_right_singular_vector(phi: Float64Array, start: Float64Array) -> Float64Array:
    """The top right singular vector of each phi (K, n, m), power-iterated from start.

    The power iteration converges at the rate (sigma_2 / sigma_1)^2 per step.
    A start with no component along the top singular space (e.g. W_L = 0)
    collapses to 0/0; those networks take the vector from an SVD instead.
    """
    direction = start.copy()
    with np.errstate(invalid="ignore", divide="ignore"):
        for _ in range(_POWER_ITERATIONS):
            direction /= np.linalg.norm(direction, axis=1, keepdims=True)
            image = np.matmul(phi, direction[..., None])[..., 0]
            direction = np.einsum("knd,kn->kd", phi, image)
        direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    failed = ~np.isfinite(direction).all(axis=1)
    if failed.any():
        direction[failed] = np.linalg.svd(phi[failed])[2][:, 0]
    return direction


def descend_readout(
    weights: Sequence[Float64Array],
    X: Float64Array,
    y: Float64Array,
    tolerance: float,
    max_steps: int,
) -> tuple[Float64Array, Float64Array, NDArray[np.int64]]:
    """Linear transfer's descent on W_L alone, until the rank-one plateau.

    ``weights`` (K, ...), ``X`` (K, n, d), ``y`` (K, n): the rule of
    :func:`~implicit_bias.validation.deep_linear_networks.linear_transfer`.
    Returns the trained W_L[..., 0] (K, d_{L-1}), the excess losses along the
    top singular direction (K,) and the steps taken (K,).

    Raises:
      OutOfRangeError: the features or the trained W_L overflow float64.
      ConvergenceError: a network did not reach the plateau in ``max_steps``.
    """
    count, samples, _ = X.shape
    features = weights[0]
    for W in weights[1:-1]:
        features = np.matmul(features, W)
    with np.errstate(over="ignore", invalid="ignore"):
        phi = np.matmul(X, features)  # (K, n, d_{L-1})
    if not np.isfinite(phi).all():
        raise OutOfRangeError(
            "the features X W_1 ... W_{L-1} overflow float64: rescale X or the "
            "pretrained weights"
        )
    # The problem in phi / s and s W_L, s a power of two per network, is the
    # same problem exactly (no rounding), with the curvature below kept away
    # from underflow and overflow.
    largest = np.max(np.abs(phi), axis=(1, 2))
    scale = np.ldexp(1.0, np.frexp(np.where(largest > 0, largest, 1.0))[1])
    phi = phi / scale[:, None, None]
    direction = _top_right_singular_vector(phi, weights[-1][..., 0])
    # The curvature lambda = ||Phi v||^2 / n of the loss along v: 0 only for
    # Phi = 0, where the loss does not depend on W_L (the plateau from the start).
    along = np.matmul(phi, direction[..., None])[..., 0]
    curvature = np.einsum("kn,kn->k", along, along) / samples
    flat = curvature == 0
    safe = np.where(flat, 1.0, curvature)
    # The loss v can remove, (Phi v . y)^2 / (2 n^2 lambda) = (u . y)^2 / (2n)
    # with u = Phi v / ||Phi v||: the second form does not overflow on the way
    # (it is inf only where the loss of W_L = 0 is).
    length = np.sqrt(np.einsum("kn,kn->k", along, along))
    unit = along / np.where(flat, 1.0, length)[:, None]
    with np.errstate(over="ignore"):
        reach = np.where(flat, 0.0, 0.5 * np.einsum("kn,kn->k", unit, y) ** 2 / samples)
        # tol = 0 stops only at the plateau itself, even where reach is inf.
        threshold = tolerance * reach if tolerance > 0 else np.zeros(count)
    # Gradient descent on W_L alone, a quadratic with Hessian Phi^T Phi / n, at
    # the step 1 / lambda_max: the top direction converges in a step or two.
    with np.errstate(over="ignore"):
        w = weights[-1][..., 0] * scale[:, None]
    if not np.isfinite(w).all():
        raise OutOfRangeError(
            "the pretrained W_L times the scale of the features X W_1 ... W_{L-1} "
            "lies beyond the float64 range (the initial outputs overflow): "
            "rescale X or the pretrained weights"
        )
    finals = np.empty_like(w)
    final_excess = np.empty(count)
    final_steps = np.zeros(count, dtype=np.int64)
    live = np.arange(count)
    for step in range(max_steps + 1):
        with np.errstate(over="ignore", invalid="ignore"):
            residual = np.matmul(phi, w[..., None])[..., 0] - y
            gradient = np.einsum("knd,kn->kd", phi, residual) / samples
            # The excess loss along v: (v^T grad)^2 / (2 lambda) for a quadratic.
            along_gradient = np.einsum("kd,kd->k", direction, gradient)
            excess = np.where(flat, 0.0, 0.5 * along_gradient**2 / safe)
        if not np.isfinite(excess).all():
            raise OutOfRangeError(
                "the loss of linear transfer overflows float64: rescale y or X"
            )
        done = excess <= threshold
        if step == max_steps and not done.all():
            k = int(np.flatnonzero(~done)[0])
            raise ConvergenceError(
                f"linear transfer of network {live[k]} did not reach the rank-one "
                f"plateau within max_steps={max_steps} "
                f"(excess {float(excess[k]):.3g}, "
                f"threshold {float(threshold[k]):.3g}); raise max_steps or tol"
            )
        if done.any():
            finals[live[done]] = w[done]
            final_excess[live[done]] = excess[done]
            final_steps[live[done]] = step
            keep = ~done
            if not keep.any():
                break
            live, w, phi, y = live[keep], w[keep], phi[keep], y[keep]
            curvature, threshold = curvature[keep], threshold[keep]
            flat, safe = flat[keep], safe[keep]
            direction, gradient = direction[keep], gradient[keep]
        w = w - gradient / curvature[:, None]
    with np.errstate(over="ignore"):
        trained = finals / scale[:, None]
    if not np.isfinite(trained).all():
        raise OutOfRangeError(
            "the trained last layer W_L overflows float64: the features "
            "X W_1 ... W_{L-1} are too small for the labels y; rescale them"
        )
    return trained, final_excess, final_steps
