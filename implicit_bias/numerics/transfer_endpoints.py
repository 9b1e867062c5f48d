r"""Where training ends as :math:`\alpha\to0`: reference endpoints, features-are-fate.

Closed forms of the predictors that deep linear networks (eq. (9)) reach from a
small initialization, against which
:mod:`implicit_bias.validation.deep_linear_networks` measures gradient
descent:

* :func:`min_norm_solution` -- training from scratch ends at :math:`X^+y`
  (Theorem 3.5);
* :func:`linear_transfer_coefficient` -- linear transfer ends at
  :math:`b\beta_s`, b of eq. (108);
* :func:`finetune_endpoint_as_printed` -- fine-tuning's endpoint as eq. (142)
  prints it, and :func:`finetune_endpoint`, the endpoint with its scale
  corrected, for any depth :math:`L \ge 2`
  (:func:`implicit_bias.theory.transfer_asymptotics.finetune_scale_equation`);
* :func:`rank_one_deviation` -- how far a matrix is from rank one, the
  pretrained features' limit of Theorem 3.4.

Every function takes one problem, ``X`` (n, d), ``y`` (n,), ``source`` (d,),
or K problems stacked on a leading axis, (K, n, d), (K, n), (K, d), which
broadcast against each other. Let :math:`X` be ``X``, :math:`y` be ``y`` and
:math:`\beta_s` be ``source``; :math:`P = P_{\mathrm{row}(X)} = X^+X`.
"""

from __future__ import annotations

import operator

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import as_finite_array

__all__ = [
    "finetune_endpoint",
    "finetune_endpoint_as_printed",
    "linear_transfer_coefficient",
    "min_norm_solution",
    "rank_one_deviation",
]

Float64Array = NDArray[np.float64]

#: Newton iterations allowed to the positive root of the scale equation; it
#: converges quadratically from a start within a factor ~2 of the root, so
#: about ten reach rounding.
_NEWTON_ITERATIONS = 200


def _inputs(X: ArrayLike, y: ArrayLike) -> tuple[Float64Array, Float64Array]:
    """Checked X (n, d) or (K, n, d) and y (n,) or (K, n) with one target a row."""
    X_ = as_finite_array("X", X, ndim=(2, 3), shape="(n, d) or (K, n, d)")
    if X_.size == 0:
        raise InvalidArgumentError(
            f"X has shape {X_.shape}: X needs at least one problem, one sample "
            "and one feature (K, n, d >= 1)"
        )
    y_ = as_finite_array("y", y, ndim=(1, 2), shape="(n,) or (K, n)")
    if y_.shape[-1] != X_.shape[-2]:
        raise InvalidArgumentError(
            f"shapes X {X_.shape} and y {y_.shape} do not match: y has "
            f"{y_.shape[-1]} samples but X has {X_.shape[-2]} rows (one target "
            "per row of X)"
        )
    return X_, y_


def _source(X: Float64Array, source: ArrayLike) -> Float64Array:
    """Checked beta_s (d,) or (K, d) with one entry per column of X."""
    beta_s = as_finite_array("source", source, ndim=(1, 2), shape="(d,) or (K, d)")
    if beta_s.shape[-1] != X.shape[-1]:
        raise InvalidArgumentError(
            f"shapes X {X.shape} and source {beta_s.shape} do not match: source "
            f"has {beta_s.shape[-1]} entries but X has {X.shape[-1]} columns"
        )
    return beta_s


def _pseudo_inverse_apply(X: Float64Array, vector: Float64Array) -> Float64Array:
    """X^+ v for X (..., n, d) of full rank, through the Gram matrix.

    ``X^T (X X^T)^{-1} v`` when n <= d, ``(X^T X)^{-1} X^T v`` otherwise; a
    batched solve is 20-50x faster than a batched SVD (``np.linalg.pinv``).
    The Gram matrix squares the condition number: for Gaussian X away from
    n = d it is below 1e4, which leaves 1e-12 relative accuracy.
    """
    samples, dimension = X.shape[-2:]
    try:
        if samples <= dimension:
            gram = np.matmul(X, np.swapaxes(X, -1, -2))
            solved = np.linalg.solve(gram, vector[..., None])
            return np.asarray(np.matmul(np.swapaxes(X, -1, -2), solved)[..., 0])
        gram = np.matmul(np.swapaxes(X, -1, -2), X)
        moment = np.matmul(np.swapaxes(X, -1, -2), vector[..., None])
        return np.asarray(np.linalg.solve(gram, moment)[..., 0])
    except np.linalg.LinAlgError as error:
        raise InvalidArgumentError(
            f"X (shape {X.shape}) is rank deficient: its Gram matrix is singular, "
            "and X must have full rank min(n, d)"
        ) from error


def _power_of_two_scaled(
    X: Float64Array, axes: int = 2
) -> tuple[Float64Array, NDArray[np.int64]]:
    """X / 2^e per matrix (per vector for ``axes=1``), 2^(e-1) <= max|X| < 2^e.

    Returns the scaled X and e; the division is exact. The Gram matrix of
    X ~ 1e155 overflows and that of X ~ 1e-170 underflows to a "singular"
    matrix; the scaled X has entries of order one, and
    :math:`X^+ = 2^{-e}(X/2^e)^+` and :math:`P_{row(X)} = P_{row(X/2^e)}`.
    """
    largest = np.max(np.abs(X), axis=tuple(range(-axes, 0)))
    exponent = np.frexp(np.where(largest > 0, largest, 1.0))[1]
    return np.ldexp(X, -exponent[(..., *([None] * axes))]), exponent


def _min_norm(X: Float64Array, y: Float64Array) -> Float64Array:
    r"""X^+ y without overflow or underflow on the way.

    X and y are both scaled to entries of order one: labels near the float64
    maximum overflowed :math:`(XX^\top)^{-1}y` (then NaN from inf - inf)
    where :math:`X^+y` itself is finite.
    """
    scaled, exponent = _power_of_two_scaled(X)
    labels, label_exponent = _power_of_two_scaled(y, axes=1)
    with np.errstate(over="ignore", under="ignore"):
        solution = np.ldexp(
            _pseudo_inverse_apply(scaled, labels),
            np.asarray(label_exponent - exponent)[..., None],
        )
    if not np.isfinite(solution).all():
        raise OutOfRangeError(
            "X^+ y has an entry beyond the float64 range: y is too large for "
            "the scale of X"
        )
    return np.asarray(solution)


def _row_space_split(
    X: Float64Array, y: Float64Array, beta_s: Float64Array
) -> tuple[Float64Array, Float64Array]:
    """(X^+ y, (I - P_row(X)) beta_s)."""
    minimum = _min_norm(X, y)
    scaled, _ = _power_of_two_scaled(X)
    inside = _pseudo_inverse_apply(scaled, np.matmul(scaled, beta_s[..., None])[..., 0])
    return minimum, beta_s - inside


def min_norm_solution(X: ArrayLike, y: ArrayLike) -> Float64Array:
    r"""The minimum-norm least-squares solution, where scratch training ends.

    .. math:: \hat\beta_{sc} = \lim_{\alpha\to0}\lim_{t\to\infty}\beta(t) = X^+ y

    Theorem 3.5 and Eq. (91) of features-are-fate (:math:`\hat\beta = X^+y`):
    the flow conserves the component of :math:`W_1` outside
    :math:`\mathrm{row}(X)`, which vanishes with :math:`\alpha` (eq. (90)).

    Args:
      X: inputs, (n, d) or (K, n, d), of full rank.
      y: labels, (n,) or (K, n).

    Returns:
      :math:`X^+ y`, (d,) or (K, d).

    Raises:
      InvalidArgumentError: a value is not finite, the shapes do not match, or
        X is (exactly) rank deficient.
      OutOfRangeError: an entry of :math:`X^+y` is beyond the float64 range.

    Examples:
      >>> min_norm_solution([[1.0, 1.0]], [2.0]).tolist()
      [1.0, 1.0]

    References:
      Theorem 3.5 and eqs. (89)-(91) of features-are-fate.
    """
    X_, y_ = _inputs(X, y)
    return _min_norm(X_, y_)


def linear_transfer_coefficient(
    X: ArrayLike, y: ArrayLike, source: ArrayLike
) -> Float64Array:
    r"""The coefficient b of the linear-transfer endpoint :math:`b\beta_s`.

    .. math:: b = \frac{\beta_s^\top X^\top y}{\beta_s^\top X^\top X\beta_s}

    Eq. (108) of features-are-fate: with the rank-one pretrained features
    :math:`\Phi = (X\beta_s)v^\top` (eq. (104)) the readout is
    :math:`\Phi^+y` and the predictor :math:`b\beta_s` (eqs. (105)-(107)).

    Args:
      X: target inputs, (n, d) or (K, n, d).
      y: target labels, (n,) or (K, n).
      source: :math:`\beta_s`, (d,) or (K, d), with :math:`X\beta_s \ne 0`.

    Returns:
      b, () or (K,).

    Raises:
      InvalidArgumentError: a value is not finite, the shapes do not match, or
        :math:`X\beta_s = 0`.
      OutOfRangeError: b is beyond the float64 range.

    Examples:
      >>> float(linear_transfer_coefficient(np.eye(2), [3.0, 1.0], [1.0, 0.0]))
      3.0

    References:
      Eqs. (104)-(108) of features-are-fate.
    """
    X_, y_ = _inputs(X, y)
    beta_s = _source(X_, source)
    # b = z.y / z.z is homogeneous of degree -1 in z = X beta_s: z is formed
    # from X / 2^e and rescaled by its own power of two 2^f (both exact), so
    # neither z nor z.z overflows or underflows; b is then divided by 2^(e+f).
    scaled, exponent = _power_of_two_scaled(X_)
    z = np.matmul(scaled, beta_s[..., None])[..., 0]
    largest = np.max(np.abs(z), axis=-1)
    if np.any(largest == 0):
        raise InvalidArgumentError("X source is zero: b of eq. (108) is 0/0")
    own = np.frexp(largest)[1]
    z = np.ldexp(z, -own[..., None])
    with np.errstate(over="ignore", under="ignore"):
        ratio = np.sum(z * y_, axis=-1) / np.sum(z * z, axis=-1)
        coefficient = np.ldexp(ratio, -(exponent + own))
    if not np.isfinite(coefficient).all():
        raise OutOfRangeError(
            "b of eq. (108) is beyond the float64 range: y is too large for the "
            "scale of X source"
        )
    return np.asarray(coefficient)


def finetune_endpoint_as_printed(
    X: ArrayLike, y: ArrayLike, source: ArrayLike
) -> Float64Array:
    r"""The fine-tuning endpoint as eq. (142) prints it.

    .. math:: \beta_{ft} = X^+ y + (I - P_{\mathrm{row}(X)})\beta_s

    Eq. (142) of features-are-fate. It is where fine-tuning ends only when
    :math:`\|X^+y\|^2 + \|(I-P)\beta_s\|^2 = 1` (e.g. :math:`y = X\beta_s`);
    :func:`finetune_endpoint` is the endpoint in general.

    Args:
      X: target inputs, (n, d) or (K, n, d), of full rank.
      y: target labels, (n,) or (K, n).
      source: :math:`\beta_s`, (d,) or (K, d).

    Returns:
      :math:`\beta_{ft}`, (d,) or (K, d).

    Raises:
      InvalidArgumentError: a value is not finite, the shapes do not match, or
        X is (exactly) rank deficient.
      OutOfRangeError: an entry of :math:`X^+y` is beyond the float64 range.

    Examples:
      >>> X = np.array([[1.0, 0.0]])
      >>> finetune_endpoint_as_printed(X, [0.3], [0.6, 0.8]).tolist()
      [0.3, 0.8]

    References:
      Eq. (142) of features-are-fate.
    """
    X_, y_ = _inputs(X, y)
    beta_s = _source(X_, source)
    minimum, outside = _row_space_split(X_, y_, beta_s)
    return np.asarray(minimum + outside)


def finetune_endpoint(
    X: ArrayLike, y: ArrayLike, source: ArrayLike, *, depth: int = 2
) -> Float64Array:
    r"""The :math:`\alpha\to0` fine-tuning endpoint: eq. (142) with its scale corrected.

    .. math:: \beta_{ft} = X^+ y + c^{(L-1)/2}(I - P_{\mathrm{row}(X)})\beta_s,
              \qquad c^L - A\,c^{L-1} - B = 0,\ c > 0,

    with :math:`A = \|(I - P_{\mathrm{row}(X)})\beta_s\|^2`,
    :math:`B = \|X^+ y\|^2` and :math:`\|\beta_s\| = 1` (the pretrained
    layers all have singular value 1). Derivation: the flow conserves
    :math:`(I - P)W_1` and, as :math:`\alpha\to0`, makes every layer rank one
    with a common singular value s (eq. (35)), so :math:`W_1 = s u v^\top` with
    :math:`s(I - P)u = (I - P)\beta_s` fixed; :math:`\beta = s^L u` and
    interpolation :math:`P\beta = X^+ y` give
    :math:`s^2 = \|su\|^2 = A + B/s^{2(L-1)}`, i.e. :math:`c = s^2` solves
    :func:`implicit_bias.theory.transfer_asymptotics.finetune_scale_equation`.
    At :math:`L = 2` this is :math:`s^4 = B + s^2 A` and
    :math:`\beta_{ft} = X^+y + s(I-P)\beta_s`. Eq. (142) of features-are-fate
    as printed (:func:`finetune_endpoint_as_printed`) is the case c = 1, which
    holds iff A + B = 1.

    Args:
      X: target inputs, (n, d) or (K, n, d), full row rank, n <= d
        (interpolation).
      y: target labels, (n,) or (K, n).
      source: :math:`\beta_s`, (d,) or (K, d), of unit norm.
      depth: L >= 2.

    Returns:
      :math:`\beta_{ft}`, (d,) or (K, d).

    Raises:
      InvalidArgumentError: n > d, shapes that do not match, a source not of
        unit norm, X (exactly) rank deficient, or depth < 2.

    Examples:
      On the source task (A + B = 1) the printed endpoint is exact:

      >>> X = np.array([[1.0, 0.0]])
      >>> finetune_endpoint(X, [0.6], [0.6, 0.8]).tolist()
      [0.6, 0.8]

      At L = 2, :math:`s^4 = 0.36 + s^2` here:

      >>> x = np.array([[1.0, 0.0, 0.0]])
      >>> finetune_endpoint(x, np.array([0.6]), np.array([0.0, 1.0, 0.0])).round(6)
      array([0.6     , 1.131824, 0.      ])

    References:
      Eq. (142) and Appendix B.8 of features-are-fate (corrected here).
    """
    X_, y_ = _inputs(X, y)
    beta_s = _source(X_, source)
    if isinstance(depth, bool):
        raise InvalidArgumentError(f"depth={depth!r} is not an integer >= 2")
    try:
        layers = operator.index(depth)
    except TypeError as error:
        raise InvalidArgumentError(
            f"depth={depth!r} is not an integer: L counts layers"
        ) from error
    if layers < 2:
        raise InvalidArgumentError(f"depth={depth!r} is below 2: L >= 2 layers")
    if X_.shape[-2] > X_.shape[-1]:
        raise InvalidArgumentError(
            f"X has shape {X_.shape}: eq. (142) is the overparameterized case n <= d"
        )
    norm = np.linalg.norm(beta_s, axis=-1)
    if not np.allclose(norm, 1.0, rtol=1e-12, atol=0):
        raise InvalidArgumentError(
            f"source has norm {float(np.ravel(norm)[0])!r}: Assumption 3.2 sets "
            "||beta_s|| = 1"
        )
    minimum, outside = _row_space_split(X_, y_, beta_s)
    a = np.sum(outside * outside, axis=-1)  # <= ||beta_s||^2 = 1
    # b = ||X^+ y||^2 overflows from ||X^+ y|| ~ 1e154 though the endpoint is
    # finite: where m = ||X^+ y|| > 1, c = s m^(2/L) with s the root of
    # s^L - (a / m^(2/L)) s^(L-1) - 1 (coefficients <= 1), and
    # c^((L-1)/2) = s^((L-1)/2) m^((L-1)/L).
    m = _norm(minimum)
    large = m > 1.0
    unit = np.where(large, m, 1.0) ** (2.0 / layers)
    with np.errstate(over="ignore", under="ignore"):
        b = np.where(large, 1.0, m * m)
    s = _positive_root(np.atleast_1d(a / unit), np.atleast_1d(b), layers)
    factor = s.reshape(np.shape(a)) ** (0.5 * (layers - 1)) * np.where(
        large, m, 1.0
    ) ** ((layers - 1) / layers)
    return np.asarray(minimum + factor[..., None] * outside)


def _norm(vectors: Float64Array) -> Float64Array:
    """Euclidean norms along the last axis, without overflow of the squares."""
    largest = np.max(np.abs(vectors), axis=-1)
    safe = np.where(largest > 0, largest, 1.0)
    return np.asarray(largest * np.linalg.norm(vectors / safe[..., None], axis=-1))


def _positive_root(a: Float64Array, b: Float64Array, depth: int) -> Float64Array:
    """The positive root of c^L - a c^(L-1) - b = 0 (a, b >= 0), by Newton's method.

    The polynomial is negative on (0, r) and increasing and convex past its
    root r >= a, so Newton's iteration from max(a, b^(1/L)) + 1 >= r decreases
    monotonically to r.
    """
    c = np.maximum(a, b ** (1.0 / depth)) + 1.0
    for _ in range(_NEWTON_ITERATIONS):
        value = c**depth - a * c ** (depth - 1) - b
        slope = depth * c ** (depth - 1) - (depth - 1) * a * c ** (depth - 2)
        step = value / slope
        c = c - step
        if np.all(np.abs(step) <= 4 * np.finfo(np.float64).eps * c):
            break
    return np.asarray(c, dtype=np.float64)


def rank_one_deviation(matrices: ArrayLike) -> Float64Array:
    r"""Distance of each matrix to rank one, relative: :math:`\sigma_2/\sigma_1`.

    .. math:: \frac{\min_{\operatorname{rank} R\le1}\|M - R\|_2}{\|M\|_2}
              = \frac{\sigma_2(M)}{\sigma_1(M)}

    (Eckart-Young). Theorem 3.4: the pretrained features
    :math:`\lim_{\alpha\to0}\lim_{t\to\infty}W_1\cdots W_{L-1}
    = \beta_s v_{L-1}^\top` are rank one, as is each layer,
    :math:`W_l = \sigma_l u_l v_l^\top + O(\alpha^2)`: Eq. (50) of
    features-are-fate (Lemma B.1).

    Args:
      matrices: (K, m, p), K, m, p >= 1, no matrix all zero.

    Returns:
      :math:`\sigma_2/\sigma_1`, (K,); 0 for a rank-one matrix or one with a
      single row or column.

    Raises:
      InvalidArgumentError: a value is not finite, the shape is not (K, m, p),
        or a matrix is zero.

    Examples:
      >>> bool(rank_one_deviation(np.outer([1.0, 2.0], [3.0, 4.0])[None])[0] < 1e-15)
      True

    References:
      Theorem 3.4, Lemma B.1 and eq. (50) of features-are-fate.
    """
    array = as_finite_array("matrices", matrices, ndim=(3,), shape="(K, m, p)")
    if array.size == 0:
        raise InvalidArgumentError(
            f"matrices has shape {array.shape}: it must hold K >= 1 matrices of "
            "at least one entry"
        )
    if not np.all(np.any(array != 0, axis=(1, 2))):
        raise InvalidArgumentError(
            "matrices holds a zero matrix: sigma_2 / sigma_1 is 0/0"
        )
    if min(array.shape[1:]) < 2:
        return np.zeros(array.shape[0])
    singular = np.linalg.svd(array, compute_uv=False)
    return np.asarray(singular[:, 1] / singular[:, 0])
