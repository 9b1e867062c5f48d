"""Consistent linear systems X B = Y, reduced to orthonormal rows by the SVD.

Shared by the interpolant solvers of :mod:`implicit_bias.numerics.q_norm`
(eq. (22) of ptft-diagonal-networks) and :mod:`implicit_bias.numerics.multitask`
(eq. (30)): both minimize a norm over the solutions of ``X @ B = Y``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.arguments import as_finite_array

__all__ = ["ReducedSystem", "check_linear_system", "reduce_linear_system"]

Float64Array = NDArray[np.float64]

_EPS = float(np.finfo(np.float64).eps)
#: y lies in the column space of X when its least-squares residual is at most
#: this fraction of its norm: room for a y computed as ``X @ beta`` in float64 at
#: condition numbers up to ~1e7.
CONSISTENCY_RTOL = 1e-8


class ReducedSystem(NamedTuple):
    """:math:`X = U\\Sigma V^\\top` truncated at rank r: ``A = V_r^T`` (orthonormal
    rows) and ``rhs`` :math:`= \\Sigma_r^{-1}U_r^\\top Y`, so ``A @ B = rhs`` iff
    ``X @ B = Y`` (for Y in the column space)."""

    a: Float64Array
    rhs: Float64Array
    u: Float64Array
    sigma: Float64Array


def check_linear_system(
    x: ArrayLike, y: ArrayLike, y_name: str, y_ndim: int
) -> tuple[Float64Array, Float64Array]:
    """``X`` (n, D) and ``y`` with one row per row of X, finite; else a named error."""
    x_ = as_finite_array("X", x, ndim=2)
    y_ = as_finite_array(y_name, y, ndim=y_ndim)
    if x_.shape[0] == 0 or x_.shape[1] == 0:
        raise InvalidArgumentError(
            f"X has shape {x_.shape}: X must be (n, D) with n, D >= 1"
        )
    if y_.shape[0] != x_.shape[0]:
        raise InvalidArgumentError(
            f"X has shape {x_.shape} but {y_name} has shape {y_.shape}: {y_name} "
            f"needs one row per row of X (n = {x_.shape[0]})"
        )
    return x_, y_


def reduce_linear_system(
    x: Float64Array, y: Float64Array, y_name: str, frozen: str
) -> ReducedSystem:
    """Reduce ``X @ B = Y`` to orthonormal rows; raise if Y is off the column space.

    The rank counts the singular values above ``max(n, D) * eps * sigma_max``
    (NumPy's ``matrix_rank``); Y is consistent when the part of it outside the
    span of the kept left singular vectors is at most ``CONSISTENCY_RTOL`` of
    its norm.
    """
    if x.shape[1] == 0:
        u = np.zeros((x.shape[0], 0))
        sigma = np.zeros(0)
        vt = np.zeros((0, 0))
    else:
        u, sigma, vt = np.linalg.svd(x, full_matrices=False)
    rank = int(np.sum(sigma > sigma[0] * max(x.shape) * _EPS)) if sigma.size else 0
    u_r = u[:, :rank]
    inside = u_r.T @ y
    residual = float(np.linalg.norm(y - u_r @ inside))
    norm = float(np.linalg.norm(y))
    if residual > CONSISTENCY_RTOL * norm:
        raise InvalidArgumentError(
            f"{y_name} is not in the column space of X{frozen}: the least-squares "
            f"residual is {residual / norm:.3g} of ||{y_name}|| (allowed: "
            f"{CONSISTENCY_RTOL:g}), so no interpolant exists"
        )
    rhs = inside / (sigma[:rank, None] if inside.ndim == 2 else sigma[:rank])
    return ReducedSystem(vt[:rank], rhs, u_r, sigma[:rank])
