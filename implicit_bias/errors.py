"""The exception family of implicit-bias.

Every error the library raises on purpose is an :class:`ImplicitBiasError`.
Bad arguments raise :class:`InvalidArgumentError`, which is also a
:class:`ValueError`, so ``except ValueError`` keeps working for callers who
do not know this module.
"""

from __future__ import annotations

__all__ = [
    "ConvergenceError",
    "ImplicitBiasError",
    "InvalidArgumentError",
    "OutOfRangeError",
]


class ImplicitBiasError(Exception):
    """Base class of the errors raised by implicit-bias."""


class InvalidArgumentError(ImplicitBiasError, ValueError):
    """An argument lies outside the domain of the formula it was passed to.

    The message names the argument, its offending value and the allowed domain.
    """


class ConvergenceError(ImplicitBiasError, RuntimeError):
    """An iterative method did not converge; the message says what to try."""


class OutOfRangeError(ImplicitBiasError, OverflowError):
    """A result exists but lies outside the float64 range.

    Raised instead of returning ``inf`` (or a NaN from ``inf - inf``) where the
    function does not document an infinite result; the message names the
    arguments and says which bound was passed.
    """
