r"""Explicit matrices the matrix identities of adaptive-tangent-features use.

Matrices of distinct real symbols (general and symmetric), for identities
that must hold entry by entry (eqs. (13), (20)), and rational orthogonal
matrices (Cayley transforms), for the singular vectors of Theorem 2's
instances, so that every check stays in exact arithmetic.
"""

from __future__ import annotations

import sympy as sp

__all__ = ["generic_matrix", "generic_symmetric", "rational_orthogonal"]


def generic_matrix(name: str, rows: int, columns: int) -> sp.Matrix:
    """A matrix whose entries are distinct real symbols ``name_ij``."""
    return sp.Matrix(
        rows, columns, lambda i, j: sp.Symbol(f"{name}_{i + 1}{j + 1}", real=True)
    )


def generic_symmetric(name: str, size: int) -> sp.Matrix:
    """A symmetric matrix of distinct real symbols ``name_ij``, i <= j."""
    return sp.Matrix(
        size,
        size,
        lambda i, j: sp.Symbol(f"{name}_{min(i, j) + 1}{max(i, j) + 1}", real=True),
    )


def rational_orthogonal(size: int) -> sp.Matrix:
    """A rational orthogonal matrix by the Cayley transform of a skew matrix."""
    skew = sp.zeros(size)
    for i in range(size):
        for j in range(i + 1, size):
            skew[i, j] = sp.Rational(i + 2 * j + 1, 3)
            skew[j, i] = -skew[i, j]
    identity = sp.eye(size)
    return (identity - skew) * (identity + skew).inv()
