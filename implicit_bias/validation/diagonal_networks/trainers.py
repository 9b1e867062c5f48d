r"""The public trainers of diagonal linear networks, single-task and
multi-task: argument checking, batching of networks by shared inputs, and the
runs of :mod:`implicit_bias.validation.diagonal_networks.descent`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import (
    ConvergenceError,
    InvalidArgumentError,
)
from implicit_bias.numerics.arguments import as_finite_array, check_stopping_rule
from implicit_bias.numerics.arguments import check_closed_interval
from implicit_bias.validation.diagonal_networks.descent import (
    DEFAULT_MAX_STEPS,
    DEFAULT_TOLERANCE,
    DiagonalTrainingResult,
    Float64Array,
    _descend,
    _weights_to_coefficients,
)

__all__ = [
    "train_diagonal_networks",
    "train_multitask_diagonal_networks",
]


# ------------------------------------------------------------------ arguments


def _positive(name: str, value: ArrayLike, meaning: str) -> Float64Array:
    """A finite float64 array of values > 0, scalar or (K,)."""
    array = as_finite_array(name, value, ndim=(0, 1), shape="() or (K,)")
    bad = ~(array > 0)
    if bad.any():
        raise InvalidArgumentError(
            f"{name}={float(array[bad].flat[0])!r} is not positive: {name} is "
            f"{meaning} and must be > 0"
        )
    return array


def _counts(
    name: str, sample_counts: ArrayLike | None, samples: int
) -> Float64Array | None:
    if sample_counts is None:
        return None
    # Converted first: it refuses ragged and non-numeric values by name, after
    # which np.asarray cannot fail (and shows whether they were booleans).
    counts = as_finite_array(name, sample_counts, ndim=(0, 1), shape="() or (K,)")
    if np.asarray(sample_counts).dtype == np.bool_:
        raise InvalidArgumentError(
            f"{name}={sample_counts!r} is boolean, not integer: it counts the rows "
            "of X a network trains on"
        )
    bad = counts != np.round(counts)
    if bad.any():
        raise InvalidArgumentError(
            f"{name}={float(counts[bad].flat[0])!r} is not an integer: it "
            "counts the rows of X a network trains on"
        )
    check_closed_interval(
        name, counts, 1, samples, "how many rows of X a network trains on"
    )
    return counts


@dataclass(frozen=True)
class _Batch:
    """Checked, broadcast arguments of one training run (see :func:`_prepare`)."""

    X: Float64Array
    targets: Float64Array
    mask: Float64Array | None
    counts: Float64Array
    rates: Float64Array
    w1: Float64Array
    w2: Float64Array
    tolerance: float
    steps: int
    single_output: bool
    groups: NDArray[np.int64] | None = None


def _prepare(
    X: ArrayLike,
    Y: ArrayLike,
    w1_init: ArrayLike,
    w2_init: ArrayLike,
    *,
    learning_rate: ArrayLike,
    sample_counts: ArrayLike | None,
    tol: float,
    max_steps: int,
    single_output: bool,
    names: dict[str, str] | None = None,
) -> _Batch:
    """Check the arguments of a trainer and broadcast them to one batch.

    ``names`` maps the trainer's argument names ("X", "y", "w1_init", ...) to
    the caller's, so that a wrapper's errors name its own arguments.
    """
    keys = ["X", "y", "Y", "w1_init", "w2_init", "learning_rate", "sample_counts"]
    named = {key: key for key in keys} | (names or {})
    X_ = as_finite_array(named["X"], X, ndim=(2, 3), shape="(n, D) or (K, n, D)")
    target_name = named["y"] if single_output else named["Y"]
    if single_output:
        y_ = as_finite_array(target_name, Y, ndim=(1, 2), shape="(n,) or (K, n)")
        y_ = y_[..., None]
        w2_ = as_finite_array(
            named["w2_init"], w2_init, ndim=(0, 1, 2), shape="(), (D,) or (K, D)"
        )
        w2_ = w2_[..., None, :] if w2_.ndim else w2_
    else:
        y_ = as_finite_array(target_name, Y, ndim=(2, 3), shape="(n, O) or (K, n, O)")
        w2_ = as_finite_array(
            named["w2_init"],
            w2_init,
            ndim=(0, 1, 2, 3),
            shape="(), (D,), (O, D) or (K, O, D)",
        )
    w1_ = as_finite_array(
        named["w1_init"], w1_init, ndim=(0, 1, 2), shape="(), (D,) or (K, D)"
    )
    rate = _positive(
        named["learning_rate"], learning_rate, "the gradient-descent step size"
    )
    tolerance, steps = check_stopping_rule(
        tol,
        max_steps,
        tol_meaning="the relative training loss to stop at",
        minimum_steps=0,
    )
    samples, dimension = X_.shape[-2:]
    outputs = y_.shape[-1]
    if y_.shape[-2] != samples:
        raise InvalidArgumentError(
            f"{target_name} has {y_.shape[-2]} samples but {named['X']} has "
            f"{samples} rows: one target per row of {named['X']}"
        )
    if samples == 0 or dimension == 0 or outputs == 0:
        raise InvalidArgumentError(
            f"{named['X']} has shape {X_.shape} and {target_name} {y_.shape}: n, "
            "D and O must be >= 1"
        )
    # After the shape checks: an empty X would otherwise be reported as
    # sample counts outside [1, 0].
    counts = _counts(named["sample_counts"], sample_counts, samples)
    batch_shapes = {
        named["X"]: X_.shape[:-2],
        target_name: y_.shape[:-2],
        named["w1_init"]: w1_.shape[:-1],
        named["w2_init"]: w2_.shape[:-2],
        named["learning_rate"]: rate.shape,
        named["sample_counts"]: () if counts is None else counts.shape,
    }
    try:
        (count,) = np.broadcast_shapes(*batch_shapes.values(), (1,))
        w1_ = np.broadcast_to(w1_, (count, dimension)).copy()
        w2_ = np.broadcast_to(w2_, (count, outputs, dimension)).copy()
    except ValueError as error:
        listed = ", ".join(f"{n}: {s}" for n, s in batch_shapes.items())
        raise InvalidArgumentError(
            f"shapes do not broadcast to one batch of networks ({listed}; and "
            f"D={dimension} inputs, O={outputs} outputs)"
        ) from error
    if count == 0:
        empty = [name for name, shape in batch_shapes.items() if 0 in shape]
        raise InvalidArgumentError(
            f"{empty[0]} has an empty batch axis: there must be K >= 1 networks"
        )
    targets = np.array(np.broadcast_to(y_, (count, samples, outputs)), order="C")
    if counts is None:
        mask = None
        counts_k = np.full(count, float(samples))
    else:
        counts_k = np.broadcast_to(counts, (count,)).astype(np.float64)
        mask = (np.arange(samples) < counts_k[:, None]).astype(np.float64)[..., None]
        targets *= mask
    if X_.ndim == 3 and X_.shape[0] == 1:
        X_ = X_[0]  # one X for every network: the shared, matrix-matrix path
    if X_.ndim == 3:
        X_ = np.ascontiguousarray(X_)
    rates = np.broadcast_to(rate, (count,)).astype(np.float64)
    return _Batch(
        X_, targets, mask, counts_k, rates, w1_, w2_, tolerance, steps, single_output
    )


def _run(batch: _Batch, *, strict: bool) -> DiagonalTrainingResult:
    """Run :func:`_descend` on a checked batch and package the result."""
    (w1p, w1m, w2p, w2m), loss, taken, converged = _descend(
        batch.X,
        batch.targets,
        batch.mask,
        batch.counts,
        batch.rates,
        (batch.w1, batch.w1, batch.w2, batch.w2),
        batch.tolerance,
        batch.steps,
        strict=strict,
        groups=batch.groups,
    )
    if strict and not converged.all():
        k = int(np.flatnonzero(~converged)[0])
        scale = float(np.sum(batch.targets[k] ** 2) / batch.counts[k])
        relative = float(loss[k]) / scale if scale > 0 else float(loss[k])
        raise ConvergenceError(
            f"{int((~converged).sum())} of {converged.size} networks did not reach "
            f"a relative loss of tol={batch.tolerance:g} within "
            f"max_steps={batch.steps}: network {k} stopped at {relative:.3g}. Raise "
            "max_steps (from initialization scale alpha the escape from the origin "
            "alone takes about log(1/alpha^2) / (learning_rate * |X^T y| / n) "
            "steps), raise learning_rate or tol, or check that X beta = y has a "
            "solution (n <= D, full row rank); strict=False returns the networks "
            "as they are"
        )
    beta = _weights_to_coefficients(w1p, w1m, w2p, w2m)
    if batch.single_output:
        beta, w2p, w2m = beta[:, 0], w2p[:, 0], w2m[:, 0]
    return DiagonalTrainingResult(
        coefficients=beta,
        first_layer_plus=w1p,
        first_layer_minus=w1m,
        second_layer_plus=w2p,
        second_layer_minus=w2m,
        loss=loss,
        steps=taken,
        converged=converged,
    )


def _train_groups(
    inputs: list[Float64Array],
    sizes: list[int],
    Y: Float64Array,
    w1_init: Float64Array,
    w2_init: Float64Array,
    *,
    learning_rate: Float64Array,
    sample_counts: NDArray[np.int64],
    tol: float,
    single_output: bool,
) -> DiagonalTrainingResult:
    r"""Train networks in groups that share inputs: the first ``sizes[0]`` on
    ``inputs[0]``, the next ``sizes[1]`` on ``inputs[1]``, and so on.

    One batch, as :func:`train_diagonal_networks` (``single_output``) or
    :func:`train_multitask_diagonal_networks` with per-network X would train
    it, without a copy of the inputs per network: each step takes two
    matrix-matrix products per group (:class:`_GroupedProducts`).
    ``Y`` holds every network's targets with as many rows as the largest
    input matrix (zero past its own), and ``sample_counts`` is required, each
    count at most its group's rows.

    Raises:
      InvalidArgumentError: as the trainers, or ``inputs`` differ in D, or a
        count exceeds its group's rows.
    """
    if len(inputs) != len(sizes) or not inputs:
        raise InvalidArgumentError(
            f"{len(inputs)} input matrices for {len(sizes)} group sizes: one "
            "(n_g, D) matrix per group, at least one"
        )
    samples = max(x.shape[0] for x in inputs)
    dimension = inputs[0].shape[1]
    if any(x.ndim != 2 or x.shape[1] != dimension for x in inputs):
        raise InvalidArgumentError(
            "inputs: every group's matrix must be (n_g, D) with one D, got "
            f"{[x.shape for x in inputs]}"
        )
    stacked = np.zeros((len(inputs), samples, dimension))
    for g, x in enumerate(inputs):
        stacked[g, : x.shape[0]] = as_finite_array("inputs", x, ndim=2)
    groups = np.repeat(np.arange(len(inputs)), sizes)
    batch = _prepare(
        stacked[0],
        Y,
        w1_init,
        w2_init,
        learning_rate=learning_rate,
        sample_counts=sample_counts,
        tol=tol,
        max_steps=DEFAULT_MAX_STEPS,
        single_output=single_output,
    )
    rows = np.array([x.shape[0] for x in inputs])[groups]
    if batch.counts.shape != rows.shape or np.any(batch.counts > rows):
        raise InvalidArgumentError(
            f"sample_counts has {batch.counts.size} counts for {rows.size} "
            "networks, or a count above its group's rows: one count per "
            "network, at most the rows of its inputs"
        )
    if batch.mask is None:
        raise AssertionError("batch.mask is not None")
    # Ascending counts within each group (for _group_bounds' blocks), and back.
    order = np.lexsort((batch.counts, groups))
    result = _run(
        replace(
            batch,
            X=stacked,
            groups=groups[order],
            targets=batch.targets[order],
            mask=batch.mask[order],
            counts=batch.counts[order],
            rates=batch.rates[order],
            w1=batch.w1[order],
            w2=batch.w2[order],
        ),
        strict=True,
    )
    inverse = np.argsort(order)
    return DiagonalTrainingResult(
        **{field.name: getattr(result, field.name)[inverse] for field in fields(result)}
    )


def _flag(name: str, value: bool) -> bool:
    # An int or a string would pass ``if value:`` silently.
    if not isinstance(value, bool | np.bool_):
        raise InvalidArgumentError(f"{name}={value!r} is not a bool")
    return bool(value)


# ------------------------------------------------------------------- trainers


def train_diagonal_networks(
    X: ArrayLike,
    y: ArrayLike,
    w1_init: ArrayLike,
    w2_init: ArrayLike,
    *,
    learning_rate: ArrayLike,
    sample_counts: ArrayLike | None = None,
    tol: float = DEFAULT_TOLERANCE,
    max_steps: int = DEFAULT_MAX_STEPS,
    strict: bool = True,
) -> DiagonalTrainingResult:
    r"""Single-task gradient descent on K diagonal linear networks at once.

    .. math:: \beta = w^{(2)}_+ \circ w^{(1)}_+ - w^{(2)}_- \circ w^{(1)}_-,
              \qquad w \leftarrow w - \eta\,\nabla_w \tfrac1n\|X\beta - y\|_2^2,
              \qquad w_\pm(0) = w_0

    Let :math:`X` be ``X``, :math:`y` be ``y``, :math:`w^{(1)}_0` be
    ``w1_init``, :math:`w^{(2)}_0` be ``w2_init`` and :math:`\eta` be
    ``learning_rate``. Both branches start at :math:`w_0` (Appendix A), so if
    descent converges to an interpolant, its endpoint is within
    :math:`O(\eta)` of :math:`\arg\min_{X\beta=y}\|\beta\|_Q` with
    :math:`k_d = (w^{(1)}_{0,d})^2 + (w^{(2)}_{0,d})^2` (eqs. 21-23).
    Leading axes of length K batch the networks; they broadcast.

    Args:
      X: inputs, (n, D) shared by all networks or (K, n, D), finite.
      y: targets, (n,) or (K, n), finite.
      w1_init: first-layer initialization :math:`w^{(1)}_0`, (), (D,) or (K, D).
      w2_init: second-layer initialization :math:`w^{(2)}_0`, (), (D,) or (K, D).
      learning_rate: step size :math:`\eta > 0`, () or (K,).
      sample_counts: network k trains on the first ``sample_counts[k]`` rows of
        its X, an integer in [1, n], () or (K,); None means all n rows.
      tol: stop a network once its loss is at most ``tol`` times
        :math:`\|y\|^2/n`, ``>= 0``.
      max_steps: most gradient steps per network, an integer ``>= 0``.
      strict: raise if a network has not converged after ``max_steps`` steps;
        with False, return it with ``converged`` False.

    Returns:
      A :class:`DiagonalTrainingResult` with (K, D) coefficients.

    Raises:
      InvalidArgumentError: an argument is not finite, has the wrong shape, or
        is out of range; or the batch shapes do not broadcast.
      OutOfRangeError: the loss at the initialization lies beyond the float64
        range.
      ConvergenceError: descent diverged (the loss overflowed or grew 10^4
        times: lower ``learning_rate``), or, with ``strict``, a network is
        stuck at the same weights or did not converge within ``max_steps``.

    Examples:
      With one sample per input (X the identity) the interpolant is unique:

      >>> result = train_diagonal_networks(
      ...     np.eye(3), [1.0, -2.0, 0.5], 0.1, 0.1, learning_rate=0.1
      ... )
      >>> bool(np.allclose(result.coefficients, [[1.0, -2.0, 0.5]], atol=1e-9))
      True
      >>> bool(result.converged.all() and result.loss[0] <= 1e-20 * 5.25 / 3)
      True

    References:
      Eq. (7) of ptft-diagonal-networks; eqs. (8)-(9) for the gradients.
    """
    strict = _flag("strict", strict)
    batch = _prepare(
        X,
        y,
        w1_init,
        w2_init,
        learning_rate=learning_rate,
        sample_counts=sample_counts,
        tol=tol,
        max_steps=max_steps,
        single_output=True,
    )
    return _run(batch, strict=strict)


def train_multitask_diagonal_networks(
    X: ArrayLike,
    Y: ArrayLike,
    w1_init: ArrayLike,
    w2_init: ArrayLike,
    *,
    learning_rate: ArrayLike,
    sample_counts: ArrayLike | None = None,
    tol: float = DEFAULT_TOLERANCE,
    max_steps: int = DEFAULT_MAX_STEPS,
    strict: bool = True,
) -> DiagonalTrainingResult:
    r"""Multi-task gradient descent: O outputs share the first layer (eq. 25).

    .. math:: \beta_{o,d} = w^{(2)}_{+,o,d} w^{(1)}_{+,d}
              - w^{(2)}_{-,o,d} w^{(1)}_{-,d},\qquad
              L = \tfrac1n\|X\beta^\top - Y\|_F^2

    Let :math:`X` be ``X``, :math:`Y` be ``Y`` (one column per output),
    :math:`w^{(1)}_{0,d}` be ``w1_init`` and :math:`w^{(2)}_{0,o,d}` be
    ``w2_init``; both branches start there. From small initialization the
    endpoint approaches the minimum-:math:`\ell_{1,2}` interpolant
    :math:`\arg\min_{X\beta^\top = Y}\sum_d\|\beta_{:,d}\|_2`, the
    minimum-parameter-norm solution of eqs. (26)-(30).

    Args:
      X: inputs, (n, D) shared by all networks or (K, n, D), finite.
      Y: targets, (n, O) or (K, n, O), finite.
      w1_init: first-layer initialization, (), (D,) or (K, D).
      w2_init: second-layer initialization, (), (D,), (O, D) or (K, O, D).
      learning_rate: step size :math:`\eta > 0`, () or (K,).
      sample_counts: network k trains on the first ``sample_counts[k]`` rows,
        an integer in [1, n], () or (K,); None means all rows.
      tol: stop a network once its loss is at most ``tol`` times
        :math:`\|Y\|_F^2/n`, ``>= 0``.
      max_steps: most gradient steps per network, an integer ``>= 0``.
      strict: raise if a network has not converged after ``max_steps`` steps;
        with False, return it with ``converged`` False.

    Returns:
      A :class:`DiagonalTrainingResult` with (K, O, D) coefficients.

    Raises:
      InvalidArgumentError: an argument is not finite, has the wrong shape, or
        is out of range; or the batch shapes do not broadcast.
      OutOfRangeError: the loss at the initialization lies beyond the float64
        range.
      ConvergenceError: descent diverged (the loss overflowed or grew 10^4
        times: lower ``learning_rate``), or, with ``strict``, a network is
        stuck at the same weights or did not converge within ``max_steps``.

    Examples:
      Outputs fitted on disjoint inputs never interact; with one sample per
      input each output is interpolated exactly:

      >>> Y = np.array([[1.0, 0.0], [0.0, -3.0]])
      >>> result = train_multitask_diagonal_networks(
      ...     np.eye(2), Y, 0.1, 0.1, learning_rate=0.05
      ... )
      >>> bool(np.allclose(result.coefficients[0], Y.T, atol=1e-9))
      True

    References:
      Eq. (25) of ptft-diagonal-networks; eqs. (26)-(30) for the
      :math:`\ell_{1,2}` norm.
    """
    strict = _flag("strict", strict)
    batch = _prepare(
        X,
        Y,
        w1_init,
        w2_init,
        learning_rate=learning_rate,
        sample_counts=sample_counts,
        tol=tol,
        max_steps=max_steps,
        single_output=False,
    )
    return _run(batch, strict=strict)
