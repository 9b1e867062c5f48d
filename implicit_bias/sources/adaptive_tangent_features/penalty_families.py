r"""The penalties that statements over all penalties are checked at.

Proposition 3, Proposition 4 and Appendix A.1 speak of every continuous,
strictly quasi-convex :math:`\omega` with minimum :math:`\omega(1) = 0`; the
claims check them on two families: the powers :math:`|z-1|^p` at the
exponents :data:`EXPONENTS` where SymPy cannot decide symbolic p, and a fixed
family :data:`PENALTIES` beyond the power family (smooth, kinked, non-convex
and slowly growing ones), vectorized in float64, with mpmath twins
(:func:`mp_penalty`) for the references.
"""

from __future__ import annotations

from collections.abc import Callable

import mpmath
import numpy as np
import sympy as sp

from implicit_bias.numerics.tangent_features import (
    absolute_deviation,
    squared_deviation,
)
from implicit_bias.sources.adaptive_tangent_features._float64 import Float64Array

__all__ = [
    "EXPONENTS",
    "PENALTIES",
    "asymmetric_kink",
    "cosh_log",
    "log_squared",
    "mp_penalty",
    "saturating_plus_square",
    "square_root_deviation",
]


#: Exponents p > 1 at which statements about |z-1|^p are checked when SymPy
#: cannot decide them for symbolic p (1 < p < 2, p = 2 and p > 2 all occur).
EXPONENTS: tuple[sp.Rational, ...] = (
    sp.Rational(5, 4),
    sp.Rational(3, 2),
    sp.Integer(2),
    sp.Integer(3),
    sp.Integer(5),
)


# --- admissible penalties beyond |z-1|^p (all coercive)


def log_squared(z: Float64Array) -> Float64Array:
    r""":math:`\log(z)^2`: smooth, grows only logarithmically."""
    return np.log(z) ** 2


def cosh_log(z: Float64Array) -> Float64Array:
    r""":math:`\cosh(\log z) - 1 = (z-1)^2/(2z)`: smooth, linear growth."""
    return (z - 1.0) ** 2 / (2.0 * z)


def asymmetric_kink(z: Float64Array) -> Float64Array:
    r""":math:`0.3|z-1|` left of 1, :math:`2(z-1)^{3/2}` right: kinked, asymmetric."""
    deviation = z - 1.0
    return np.where(
        deviation < 0, 0.3 * np.abs(deviation), 2.0 * np.abs(deviation) ** 1.5
    )


def saturating_plus_square(z: Float64Array) -> Float64Array:
    r""":math:`0.1(z-1)^2 + 3(1 - e^{-(z-1)^2})`: quasi-convex, not convex."""
    deviation = z - 1.0
    return 0.1 * deviation**2 - 3.0 * np.expm1(-(deviation**2))


def square_root_deviation(z: Float64Array) -> Float64Array:
    r""":math:`|z-1|^{1/2}`: concave on each side; (12) then has two local minima."""
    return np.sqrt(np.abs(z - 1.0))


#: Penalties for the property claims: name -> omega (vectorized).
PENALTIES: dict[str, Callable[[Float64Array], Float64Array]] = {
    "log(z)^2": log_squared,
    "cosh(log z) - 1": cosh_log,
    "asymmetric kink": asymmetric_kink,
    "saturating + square": saturating_plus_square,
    "|z-1|^(1/2)": square_root_deviation,
    "(z-1)^2": squared_deviation,
    "|z-1|": absolute_deviation,
}


def mp_penalty(omega: Callable[[Float64Array], Float64Array]) -> Callable[..., object]:
    """An mpmath version of a PENALTIES member (same formula, mpf arithmetic)."""
    table: dict[object, Callable[..., object]] = {
        log_squared: lambda z: mpmath.log(z) ** 2,
        cosh_log: lambda z: (z - 1) ** 2 / (2 * z),
        asymmetric_kink: lambda z: (
            0.3 * abs(z - 1) if z < 1 else 2 * abs(z - 1) ** mpmath.mpf(1.5)
        ),
        saturating_plus_square: lambda z: (
            mpmath.mpf("0.1") * (z - 1) ** 2 - 3 * mpmath.expm1(-((z - 1) ** 2))
        ),
        square_root_deviation: lambda z: mpmath.sqrt(abs(z - 1)),
    }
    return table[omega]
