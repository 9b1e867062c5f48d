r"""Kernels on the training points: the tangent kernel :math:`JJ^\top`
(Section 3 and eq. (7) of adaptive-tangent-features), the label kernel of
eq. (9), and the kernel alignment (cosine similarity of two kernels).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import as_finite_array
from implicit_bias.validation.tangent_kernels.mlp import Float64Array

__all__ = [
    "kernel_alignment",
    "label_kernel",
    "tangent_kernel",
]


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
