r"""The batched gradient-descent engine of diagonal linear networks (eqs. 7 and
25 of ptft-diagonal-networks): the result record, the coefficients
:math:`\beta` of the weights, the hand-written residual and gradients
(grouped products for networks sharing inputs) and the descent loop with its
stopping rules (see :mod:`implicit_bias.validation.diagonal_networks`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import (
    ConvergenceError,
    OutOfRangeError,
)
from implicit_bias.numerics.arguments import as_finite_arrays

__all__ = [
    "DEFAULT_MAX_STEPS",
    "DEFAULT_TOLERANCE",
    "DiagonalTrainingResult",
    "diagonal_coefficients",
]

Float64Array = NDArray[np.float64]

#: Default stopping tolerance on the relative training loss
#: :math:`\|X\beta - y\|^2 / \|y\|^2`: a residual of 1e-10 relative, far below
#: the O(learning rate) discretization error and far above float64 rounding
#: of the residual (about 1e-16 relative, a loss of 1e-32).
DEFAULT_TOLERANCE = 1e-20
#: Default cap on the number of gradient steps per network.
DEFAULT_MAX_STEPS = 200_000
#: A loss this many times its initial value means descent is diverging: with
#: a stable step the loss only decreases, while an unstable step grows it
#: geometrically, so the check fires a few steps after the instability.
_EXPLOSION = 1e4
#: Every this many steps the weights are compared with those of the previous
#: check: a network back at the same weights is stuck forever.
_CYCLE_CHECK = 1000
#: Row-wise dot products of two (K, m) arrays: ``np.vecdot`` (NumPy >= 2) in
#: half the time of ``np.einsum``'s, which older NumPy falls back to.
_row_dots: Callable[[Float64Array, Float64Array], Float64Array] = getattr(
    np, "vecdot", functools.partial(np.einsum, "ij,ij->i")
)


@dataclass(frozen=True, eq=False)
class DiagonalTrainingResult:
    r"""K diagonal linear networks after gradient descent (eqs. 7 and 25).

    Single-task results (from :func:`train_diagonal_networks`) have no output
    axis: ``coefficients`` and the second layers are (K, D); multi-task results
    have (K, O, D), in the paper's index order :math:`w^{(2)}_{\pm,o,d}`.

    Attributes:
      coefficients: :math:`\beta`, (K, D) or (K, O, D).
      first_layer_plus: :math:`w^{(1)}_+`, (K, D).
      first_layer_minus: :math:`w^{(1)}_-`, (K, D).
      second_layer_plus: :math:`w^{(2)}_+`, (K, D) or (K, O, D).
      second_layer_minus: :math:`w^{(2)}_-`, (K, D) or (K, O, D).
      loss: the training loss :math:`\|X\beta^\top - Y\|_F^2/n` at the
        returned weights, (K,).
      steps: gradient steps taken, (K,).
      converged: whether the loss reached ``tol`` times :math:`\|Y\|_F^2/n`,
        (K,); all True unless the trainer ran with ``strict=False``.
    """

    coefficients: Float64Array
    first_layer_plus: Float64Array
    first_layer_minus: Float64Array
    second_layer_plus: Float64Array
    second_layer_minus: Float64Array
    loss: Float64Array
    steps: NDArray[np.int64]
    converged: NDArray[np.bool_]


def _weights_to_coefficients(
    w1_plus: Float64Array,
    w1_minus: Float64Array,
    w2_plus: Float64Array,
    w2_minus: Float64Array,
) -> Float64Array:
    """Eq. (25) on stacked (K, D) first and (K, O, D) second layers."""
    return np.asarray(w2_plus * w1_plus[:, None, :] - w2_minus * w1_minus[:, None, :])


def diagonal_coefficients(
    w1_plus: ArrayLike,
    w2_plus: ArrayLike,
    w1_minus: ArrayLike,
    w2_minus: ArrayLike,
) -> Float64Array:
    r"""The linear predictor of a diagonal linear network, elementwise.

    .. math:: \beta_d = w^{(2)}_{+,d}\, w^{(1)}_{+,d} - w^{(2)}_{-,d}\, w^{(1)}_{-,d}

    Let :math:`w^{(1)}_\pm` be ``w1_plus``/``w1_minus`` and :math:`w^{(2)}_\pm`
    be ``w2_plus``/``w2_minus``. The arguments broadcast, so multi-task
    networks (eq. 25) pass first layers of shape (..., 1, D) against second
    layers of shape (..., O, D).

    Args:
      w1_plus: first-layer weights of the + branch, finite.
      w2_plus: second-layer weights of the + branch, finite.
      w1_minus: first-layer weights of the - branch, finite.
      w2_minus: second-layer weights of the - branch, finite.

    Returns:
      :math:`\beta`, a float64 array of the broadcast shape.

    Raises:
      InvalidArgumentError: a value is not finite or the shapes do not broadcast.
      OutOfRangeError: an entry of :math:`\beta` lies beyond the float64 range
        (products that overflow while their difference does not are rescaled,
        exactly, by powers of two).

    Examples:
      Equal branches cancel, which is why Appendix A's initialization
      :math:`w_+(0) = w_-(0)` starts from :math:`\beta = 0`:

      >>> w1, w2 = np.array([0.3, 2.0]), np.array([1.5, -0.1])
      >>> bool(np.all(diagonal_coefficients(w1, w2, w1, w2) == 0.0))
      True
      >>> bool(np.allclose(diagonal_coefficients(w1, w2, 0.0, 0.0), w1 * w2))
      True

    References:
      Eq. (7) of ptft-diagonal-networks; eq. (25) for O outputs.
    """
    w1p, w2p, w1m, w2m = as_finite_arrays(
        {
            "w1_plus": w1_plus,
            "w2_plus": w2_plus,
            "w1_minus": w1_minus,
            "w2_minus": w2_minus,
        }
    )
    with np.errstate(over="ignore", invalid="ignore"):
        beta = np.asarray(w2p * w1p - w2m * w1m)
    bad = ~np.isfinite(beta)
    if bad.any():
        # A product overflowed: divide each factor pair by a power of two
        # (exact), subtract, and scale back; inf remains only past float64.
        first = np.frexp(np.maximum(np.abs(w2p), np.abs(w2m))[bad])[1]
        second = np.frexp(np.maximum(np.abs(w1p), np.abs(w1m))[bad])[1]
        scaled = np.ldexp(w2p[bad], -first) * np.ldexp(w1p[bad], -second) - np.ldexp(
            w2m[bad], -first
        ) * np.ldexp(w1m[bad], -second)
        with np.errstate(over="ignore"):
            beta[bad] = np.ldexp(scaled, first + second)
        if not np.isfinite(beta).all():
            raise OutOfRangeError(
                "an entry of beta = w2_plus w1_plus - w2_minus w1_minus lies "
                "beyond the float64 range"
            )
    return beta


# --------------------------------------------------------------------- engine


def _residual_and_gradient(
    X: Float64Array,
    X_transposed: Float64Array,
    beta: Float64Array,
    targets: Float64Array,
    mask: Float64Array | None,
) -> tuple[Float64Array, Float64Array]:
    r"""The squared residual per network (K,) and R^T X (K, O, D) of one step.

    ``beta`` is (K, O, D), ``targets`` (K, O, n) and ``mask`` (K, 1, n): the
    residual is laid out (K, O, n), so that both products are plain matrix
    products. Shared X, (n, D): each is one matrix-matrix product over all K
    networks, :math:`B X^\top` with B the (K O, D) coefficients and
    :math:`R X` with R the (K O, n) residual. Per-network X, (K, n, D), with
    ``X_transposed`` its (K, D, n) transposed view: stacked products
    (K, O, D) @ (K, D, n) and (K, O, n) @ (K, n, D), each reading X once, in
    a third of the time of ``np.einsum``'s loop at the sizes of the sources
    (NumPy 2.4).
    """
    count, outputs, dimension = beta.shape
    if X.ndim == 2:
        flat = beta.reshape(count * outputs, dimension) @ X_transposed
        residual = flat.reshape(targets.shape)
    else:
        residual = flat = np.matmul(beta, X_transposed)
    residual -= targets
    if mask is not None:
        residual *= mask
    rows = residual.reshape(count, -1)
    squares = _row_dots(rows, rows)
    if X.ndim == 2:
        return squares, (flat @ X).reshape(beta.shape)
    return squares, np.matmul(residual, X)


#: What one more block of networks costs per step, in networks x rows of X:
#: a block's two products took about 3.3 us per call pair plus 15 ns per
#: network and row (D = 200, OpenBLAS 0.3, one thread; fitted to blocks of the
#: full Appendix E.1 configuration), 220 rows' worth, rounded up.
_BLOCK_ROWS = 256
#: Up to this many coefficient rows a block's product B X^T reads X through
#: its transposed view (see :class:`_GroupedProducts`).
_FEW_PRODUCTS = 8


def _group_bounds(
    groups: NDArray[np.int64], counts: Float64Array
) -> list[tuple[int, int, int, int]]:
    """``(g, start, stop, rows)``: the batch split into blocks of networks that
    take their products with ``X[g]`` together, over its first ``rows`` rows.

    ``groups`` is sorted, and within a group ``counts`` ascending. A block's
    products cost about its networks times its most rows, plus
    :data:`_BLOCK_ROWS` for the calls: splitting a group into consecutive
    blocks skips the rows its smaller networks mask out. The split minimizes
    that cost (dynamic programming over the group's networks).
    """
    present, starts = np.unique(groups, return_index=True)
    stops = [*starts[1:].tolist(), groups.size]
    bounds = []
    for g, start, stop in zip(present.tolist(), starts.tolist(), stops, strict=True):
        rows = counts[start:stop].astype(np.int64).tolist()
        # best[j]: the least cost of the group's first j networks; cut[j]: where
        # the last block of that split starts.
        best, cut = [0] * (len(rows) + 1), [0] * (len(rows) + 1)
        for j in range(1, len(rows) + 1):
            best[j], cut[j] = min(
                (best[i] + (j - i) * rows[j - 1] + _BLOCK_ROWS, i) for i in range(j)
            )
        j, blocks = len(rows), []
        while j:
            blocks.append((g, start + cut[j], start + j, rows[j - 1]))
            j = cut[j]
        bounds.extend(reversed(blocks))
    return bounds


class _GroupedProducts:
    r""":func:`_residual_and_gradient` for networks in groups that share inputs.

    ``X`` is (G, n, D), one matrix per group (zero rows past its own), and
    network k of the sorted ``groups`` trains on ``X[groups[k]]``: per block
    of :func:`_group_bounds`, the products with shared X,
    :math:`BX_g^\top` and :math:`RX_g`, each one matrix product over the
    block's networks and only over the rows they train on. The coefficients,
    residual and gradient live in buffers whose block views are formed once
    per batch (:meth:`keep` forms them again when networks leave), so a step
    is two calls per block and the elementwise work. The residual's rows past
    a block's are zero from the first step on (masked, with zero targets),
    and stay so.

    With ``split=False`` (one group: the trainers' shared X, (1, n, D)) the
    batch is one block over every row, through X's transposed view: the
    products of :func:`_residual_and_gradient` on shared X, call for call.
    """

    def __init__(
        self,
        X: Float64Array,
        groups: NDArray[np.int64],
        counts: Float64Array,
        outputs: int,
        *,
        split: bool = True,
    ) -> None:
        self.X = X
        self.split = split
        # Row-major X^T: B X^T reads it along its rows, ~40% faster than
        # through the transposed view for blocks of many networks (OpenBLAS
        # 0.3, D = 200).
        self.X_transposed = (
            np.ascontiguousarray(X.transpose(0, 2, 1))
            if split
            else X.transpose(0, 2, 1)
        )
        self.outputs = outputs
        self.groups = groups
        self.residual = np.zeros((groups.size, outputs, X.shape[1]))
        self._form(counts)

    def keep(self, keep: NDArray[np.bool_], counts: Float64Array) -> None:
        """Drop the networks where ``keep`` is False; ``counts`` of those kept."""
        self.groups = self.groups[keep]
        self.residual = self.residual[keep]
        self._form(counts)

    def _form(self, counts: Float64Array) -> None:
        count, outputs = self.groups.size, self.outputs
        samples, dimension = self.X.shape[1:]
        self.products = np.empty((2, count, outputs, dimension))
        self.beta = np.empty((count, outputs, dimension))
        self.gradient = np.empty((count, outputs, dimension))
        flat = self.residual.reshape(count * outputs, samples)
        coefficients = self.beta.reshape(count * outputs, dimension)
        gradient = self.gradient.reshape(count * outputs, dimension)
        self.rows = self.residual.reshape(count, -1)
        self.first: list[tuple[Float64Array, Float64Array, Float64Array]] = []
        self.second: list[tuple[Float64Array, Float64Array, Float64Array]] = []
        bounds = (
            _group_bounds(self.groups, counts)
            if self.split
            else [(0, 0, count, samples)]
        )
        for g, start, stop, rows in bounds:
            a, b = start * outputs, stop * outputs
            # The row-major copy of X^T for blocks of many products (gemm), X
            # itself through the transposed view for few (gemv-like, bound by
            # reading X: one copy of it in cache instead of two).
            inputs = (
                self.X_transposed[g, :, :rows]
                if self.split and b - a > _FEW_PRODUCTS
                else self.X[g, :rows].T
            )
            self.first.append((coefficients[a:b], inputs, flat[a:b, :rows]))
            self.second.append((flat[a:b, :rows], self.X[g, :rows], gradient[a:b]))

    def __call__(
        self,
        second: Float64Array,
        first: Float64Array,
        targets: Float64Array,
        mask: Float64Array | None,
    ) -> tuple[Float64Array, Float64Array]:
        """The squared residual per network and R^T X of the weights' step.

        ``second * first`` summed over the branches is beta, as in
        :func:`_descend`, in the buffers (the same operations, the same bits).
        """
        np.multiply(second, first, out=self.products)
        np.add(self.products[0], self.products[1], out=self.beta)
        for left, right, out in self.first:
            np.matmul(left, right, out=out)
        residual = self.residual
        residual -= targets
        if mask is not None:
            residual *= mask
        squares = _row_dots(self.rows, self.rows)
        for left, right, out in self.second:
            np.matmul(left, right, out=out)
        return squares, self.gradient


def _descend(
    X: Float64Array,
    targets: Float64Array,
    mask: Float64Array | None,
    counts: Float64Array,
    learning_rate: Float64Array,
    weights: tuple[Float64Array, Float64Array, Float64Array, Float64Array],
    tol: float,
    max_steps: int,
    *,
    strict: bool,
    groups: NDArray[np.int64] | None = None,
) -> tuple[
    tuple[Float64Array, Float64Array, Float64Array, Float64Array],
    Float64Array,
    NDArray[np.int64],
    NDArray[np.bool_],
]:
    r"""Full-batch gradient descent on K networks until each loss <= tol ||y||^2/n.

    ``targets`` is (K, n, O) with masked entries zeroed, ``mask`` (K, n, 1) or
    None, ``counts`` and ``learning_rate`` (K,), ``weights`` the (K, D), (K, D),
    (K, O, D), (K, O, D) arrays w1+, w1-, w2+, w2-. Returns the final weights,
    the loss at them, the steps taken and the convergence flags. With
    ``groups`` (K,), sorted, ``X`` is (G, n, D) and network k trains on
    ``X[groups[k]]`` (:class:`_GroupedProducts`).

    The two branches are stacked on a leading axis, with the second layer of
    the - branch negated, :math:`v = -w^{(2)}_-`: then
    :math:`\beta = w^{(2)}_+ w^{(1)}_+ + v\, w^{(1)}_-` and both branches take
    the same step, :math:`w^{(1)} \mathrel{-}= \sum_o g\, w^{(2)}`,
    :math:`w^{(2)} \mathrel{-}= g\, w^{(1)}`, so one array operation advances
    both. Negation is exact in floating point: the stacking changes no
    rounding; the products with X round as BLAS sums them.

    Raises:
      OutOfRangeError: the loss at the initial weights overflows float64.
      ConvergenceError: the loss overflows or grows :data:`_EXPLOSION` times
        above its initial value, or (``strict``) a network is stuck.
    """
    w1p, w1m, w2p, w2m = weights
    # first: (2, K, 1, D), second: (2, K, O, D); index 0 is the + branch.
    first = np.stack([w1p, w1m]).astype(np.float64)[:, :, None, :]
    second = np.stack([w2p, -np.asarray(w2m)]).astype(np.float64)
    count = first.shape[1]
    finals = [np.empty_like(w) for w in (first[:, :, 0], second)]
    final_loss = np.empty(count)
    final_steps = np.zeros(count, dtype=np.int64)
    converged = np.zeros(count, dtype=np.bool_)
    # One output: both layers in one (layer, branch, K, 1, D) array, whose
    # step is one product with the layers swapped, w -= g * w[::-1]: the
    # values of the two updates w1 -= g w2, w2 -= g w1 (old w1), bit for bit.
    layers = np.stack([first, second]) if second.shape[2] == 1 else None
    if layers is not None:
        first, second = layers

    live = np.arange(count)
    # Tests on the sum of squares S = n L, not on L: loss <= tol ||y||^2 / n
    # is S <= tol ||y||^2, without a division per step.
    # tol ||y||^2 may overflow for a huge tol: the infinite threshold is what
    # it stands for, met by every finite loss.
    with np.errstate(over="ignore"):
        threshold = tol * np.einsum("kno,kno->k", targets, targets)
    scale = (learning_rate * (2.0 / counts))[:, None, None]
    # The layout of the residual: (K, O, n).
    targets = np.ascontiguousarray(targets.transpose(0, 2, 1))
    if mask is not None:
        mask = np.ascontiguousarray(mask.transpose(0, 2, 1))
    X_transposed = X.T if X.ndim == 2 else X.transpose(0, 2, 1)
    # Shared X: one group, unsplit (the same products, without reshaping and
    # allocating every step).
    grouped = (
        _GroupedProducts(X, groups, counts, second.shape[2])
        if groups is not None
        else _GroupedProducts(
            X[None], np.zeros(count, np.int64), counts, second.shape[2], split=False
        )
        if X.ndim == 2
        else None
    )
    initial = ceiling = np.empty(count)  # of S, set at step 0
    snapshot = (first.copy(), second.copy())
    with np.errstate(over="ignore", invalid="ignore"):
        for step in range(max_steps + 1):
            if grouped is None:
                products = second * first
                beta = products[0] + products[1]
                squares, gradient = _residual_and_gradient(
                    X, X_transposed, beta, targets, mask
                )
            else:
                squares, gradient = grouped(second, first, targets, mask)
            if step == 0:
                if not np.isfinite(squares).all():
                    bad = int(np.flatnonzero(~np.isfinite(squares))[0])
                    raise OutOfRangeError(
                        f"the loss of network {bad} at its initial weights is "
                        f"{float(squares[bad] / counts[bad])!r}, beyond the "
                        "float64 range: rescale X, the targets and the "
                        "initialization (w1_init, w2_init)"
                    )
                initial = squares.copy()
                ceiling = _EXPLOSION * initial
            # Descent with a stable step does not raise the loss; a loss far
            # above its start (or overflowing, or NaN) is an unstable step
            # blowing up. count_nonzero: the cheapest test of a small mask.
            if np.count_nonzero(squares <= ceiling) < squares.size:
                bad = int(np.flatnonzero(~(squares <= ceiling))[0])
                grown = float(squares[bad] / counts[bad])
                raise ConvergenceError(
                    f"gradient descent diverged: the loss of network {live[bad]} "
                    f"grew from {float(initial[bad] / counts[bad]):.3g} to "
                    f"{grown:.3g} by step {step}: learning_rate="
                    f"{float(learning_rate[bad])!r} is too large for the scale "
                    "of X and of the weights (from w1_init, w2_init). Lower the "
                    "learning rate or the initialization: "
                    "descent is stable only below 2 / (largest Hessian eigenvalue), "
                    "about 1 / (lambda_max(X^T X / n) * max_d (w1_d^2 + w2_d^2)) "
                    "along the way (the weights grow to about sqrt(|beta_d|))"
                )
            cycle = step > 0 and step % _CYCLE_CHECK == 0
            done = squares <= threshold
            if step == max_steps or cycle or np.count_nonzero(done):
                if step == max_steps:
                    done[:] = True
                elif cycle:
                    # The iteration is a function of the weights alone:
                    # weights that recur recur forever.
                    stuck = ~done
                    for new, old in zip((first, second), snapshot, strict=True):
                        stuck &= np.all(new == old, axis=(0, 2, 3))
                    if stuck.any() and strict:
                        raise ConvergenceError(
                            f"gradient descent is stuck: network "
                            f"{live[np.flatnonzero(stuck)[0]]} has the same "
                            f"weights at step {step} as {_CYCLE_CHECK} steps "
                            "before, so the iteration repeats forever without "
                            "reaching the tolerance (a stationary point such as "
                            "w1_init = w2_init = 0, or steps below the rounding "
                            "of the weights). Start from nonzero weights, raise "
                            "learning_rate or raise tol"
                        )
                    # Without strict, a stuck network ends at max_steps as it is.
                    done |= stuck
                    snapshot = (first.copy(), second.copy())
                if np.count_nonzero(done):
                    index = live[done]
                    finals[0][:, index] = first[:, done, 0]
                    finals[1][:, index] = second[:, done]
                    final_loss[index] = squares[done] / counts[done]
                    converged[index] = squares[done] <= threshold[done]
                    final_steps[index] = np.where(converged[index], step, max_steps)
                    keep = ~done
                    if not keep.any():
                        break
                    live = live[keep]
                    if layers is not None:
                        layers = layers[:, :, keep]
                        first, second = layers
                    else:
                        first, second = first[:, keep], second[:, keep]
                    snapshot = (snapshot[0][:, keep], snapshot[1][:, keep])
                    gradient = gradient[keep]
                    if grouped is not None:
                        grouped.keep(keep, counts[keep])
                    elif X.ndim == 3:
                        X = X[keep]
                        X_transposed = X.transpose(0, 2, 1)
                    targets = targets[keep]
                    if mask is not None:
                        mask = mask[keep]
                    counts, threshold = counts[keep], threshold[keep]
                    scale, learning_rate = scale[keep], learning_rate[keep]
                    initial, ceiling = initial[keep], ceiling[keep]
            gradient *= scale
            if layers is not None:
                layers -= gradient * layers[::-1]
                continue
            step_first = np.add.reduce(gradient * second, axis=2, keepdims=True)
            second -= gradient * first
            first -= step_first
    return (
        (finals[0][0], finals[0][1], finals[1][0], -finals[1][1]),
        final_loss,
        final_steps,
        converged,
    )
