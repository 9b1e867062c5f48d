r"""Dimensionality and shared dimensionality of representations (Section G).

Section G of ptft-diagonal-networks measures a network representation, an
:math:`n\times p` matrix X of n samples of p units, by its participation
ratio (PR; Gao et al. 2017) and compares two of them by the effective number
of shared dimensions (ENSD; Giaffar et al. 2023), which is linear centered
kernel alignment (CKA; Kornblith et al. 2019) times the geometric mean of the
two PRs. The samples are mean-centered first ("n mean-centered samples").

Every quantity is a ratio of traces of Gram matrices,

.. math:: \operatorname{tr}(X^\top X) = \|X\|_F^2,\quad
          \operatorname{tr}((X^\top X)^2) = \|X^\top X\|_F^2 = \|XX^\top\|_F^2,\quad
          \operatorname{tr}(Y^\top XX^\top Y) = \|X^\top Y\|_F^2
          = \langle XX^\top, YY^\top\rangle_F,

computed from whichever Gram matrix is smaller (units by units when
:math:`n \ge p`, samples by samples otherwise), never an :math:`n\times n`
matrix when n is the large side. Each measure is invariant to rescaling X and
Y, so each matrix is first divided by its largest entry: nothing under- or
overflows. Let ``X`` and ``Y`` be the paper's :math:`\mathbf{X}` and
:math:`\mathbf{Y}` (samples by units; Y may have another number of units).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.arguments import as_finite_array

__all__ = ["cka", "ensd", "participation_ratio"]

Float64Array = NDArray[np.float64]


def _checked(name: str, value: ArrayLike) -> Float64Array:
    """A finite (samples, units) matrix with at least one of each."""
    x = as_finite_array(name, value, ndim=2)
    if x.shape[0] == 0 or x.shape[1] == 0:
        raise InvalidArgumentError(
            f"{name} has shape {x.shape}: {name} must be (samples, units), both >= 1"
        )
    return x


def _prepared(name: str, x: Float64Array, center: bool) -> Float64Array:
    """Center the samples of a checked matrix and scale it to largest entry 1."""
    if center:
        x = x - x.mean(axis=0)
    largest = float(np.max(np.abs(x)))
    if largest == 0:
        what = "after mean-centering " if center else ""
        raise InvalidArgumentError(
            f"{name} is zero {what}(shape {x.shape}): it has no variance, and the "
            "measure is 0/0"
        )
    return x / largest


class _Traces(NamedTuple):
    """:math:`\\mathrm{tr}(X^\\top X)` and :math:`\\mathrm{tr}((X^\\top X)^2)`."""

    trace: float
    trace_of_square: float


def _traces(x: Float64Array) -> _Traces:
    gram = x.T @ x if x.shape[0] >= x.shape[1] else x @ x.T
    return _Traces(float(np.trace(gram)), float(np.sum(gram * gram)))


def _cross(x: Float64Array, y: Float64Array) -> float:
    r""":math:`\|X^\top Y\|_F^2`, through the cheaper of p x q or n x n products."""
    samples = x.shape[0]
    if x.shape[1] * y.shape[1] <= samples * samples:
        product = x.T @ y
        return float(np.sum(product * product))
    return float(np.sum((x @ x.T) * (y @ y.T)))


def _pair(x: ArrayLike, y: ArrayLike, center: bool) -> tuple[Float64Array, ...]:
    x_, y_ = _checked("X", x), _checked("Y", y)
    if x_.shape[0] != y_.shape[0]:
        raise InvalidArgumentError(
            f"X has {x_.shape[0]} samples and Y has {y_.shape[0]}: the rows of X and Y "
            "must be the same samples"
        )
    return _prepared("X", x_, center), _prepared("Y", y_, center)


def participation_ratio(X: ArrayLike, *, center: bool = True) -> float:
    r"""The participation ratio of a representation: its effective dimensionality.

    .. math:: PR(X) = \frac{(\sum_i\lambda_i)^2}{\sum_i\lambda_i^2}
              = \frac{\mathrm{tr}(X^\top X)^2}{\mathrm{tr}(X^\top XX^\top X)}

    with :math:`\lambda_i` the eigenvalues of the covariance
    :math:`C_X = X^\top X/n` of the mean-centered samples. It lies in
    ``[1, min(n, p)]``: 1 for one direction of variance, p for p uncorrelated
    units of equal variance.

    Args:
      X: responses, shape (n samples, p units), finite.
      center: subtract the mean over samples first (the paper's convention).

    Returns:
      PR(X) as a float.

    Raises:
      InvalidArgumentError: X is not a finite 2-D array with at least one
        sample and unit, or has no variance (PR = 0/0).

    Examples:
      Three uncorrelated units of equal variance:

      >>> X = np.array([[1.0, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]])
      >>> bool(np.isclose(participation_ratio(X), 3.0))
      True

    References:
      Section G of ptft-diagonal-networks (Gao et al. 2017).
    """
    traces = _traces(_prepared("X", _checked("X", X), center))
    return traces.trace**2 / traces.trace_of_square


def cka(X: ArrayLike, Y: ArrayLike, *, center: bool = True) -> float:
    r"""Linear centered kernel alignment of two representations of the same samples.

    .. math:: CKA(X, Y) = \frac{\|X^\top Y\|_F^2}{\|X^\top X\|_F\,\|Y^\top Y\|_F}
              = \frac{\operatorname{tr}(Y^\top XX^\top Y)}
              {\sqrt{\operatorname{tr}((X^\top X)^2)\operatorname{tr}((Y^\top Y)^2)}}

    In ``[0, 1]``; 1 iff the two sample Gram matrices are proportional,
    invariant to orthogonal transformations and rescaling of either argument.

    Args:
      X: responses of one network, shape (n samples, p units), finite.
      Y: responses of another, shape (n samples, q units), finite.
      center: subtract the mean over samples first (what makes it "centered").

    Returns:
      CKA(X, Y) as a float.

    Raises:
      InvalidArgumentError: an argument is not a finite 2-D array with at
        least one sample and unit, has no variance, or X and Y have different
        numbers of samples.

    Examples:
      >>> X = np.random.default_rng(0).standard_normal((50, 4))
      >>> bool(np.isclose(cka(X, 3.0 * X @ np.linalg.qr(X.T @ X)[0]), 1.0))
      True

    References:
      Section G of ptft-diagonal-networks (Kornblith et al. 2019).
    """
    x, y = _pair(X, Y, center)
    return _cross(x, y) / np.sqrt(
        _traces(x).trace_of_square * _traces(y).trace_of_square
    )


def ensd(X: ArrayLike, Y: ArrayLike, *, center: bool = True) -> float:
    r"""The effective number of shared dimensions of two representations.

    .. math:: ENSD(X, Y) = \frac{\operatorname{tr}(Y^\top XX^\top Y)\,
              \operatorname{tr}(X^\top X)\,\operatorname{tr}(Y^\top Y)}
              {\operatorname{tr}(X^\top XX^\top X)\,\operatorname{tr}(Y^\top YY^\top Y)}
              = CKA(X, Y)\sqrt{PR(X)\,PR(Y)}

    If X consists of 10 uncorrelated units and Y of five of them, ENSD = 5; if
    Y's units are uncorrelated with X's, ENSD = 0.

    Args:
      X: responses of one network, shape (n samples, p units), finite.
      Y: responses of another, shape (n samples, q units), finite.
      center: subtract the mean over samples first (the paper's convention).

    Returns:
      ENSD(X, Y) as a float, in :math:`[0, \sqrt{PR(X)PR(Y)}]` (CKA <= 1).

    Raises:
      InvalidArgumentError: as :func:`cka`.

    Examples:
      Ten uncorrelated units (orthogonal, centered columns of a Hadamard
      matrix) and five of them:

      >>> from scipy.linalg import hadamard
      >>> X = hadamard(16)[:, 1:11].astype(float)
      >>> bool(np.isclose(ensd(X, X[:, :5]), 5.0))
      True

    References:
      Section G of ptft-diagonal-networks (Giaffar et al. 2023).
    """
    x, y = _pair(X, Y, center)
    tx, ty = _traces(x), _traces(y)
    return (
        _cross(x, y) * (tx.trace / tx.trace_of_square) * (ty.trace / ty.trace_of_square)
    )
