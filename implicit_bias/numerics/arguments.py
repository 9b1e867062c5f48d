"""Argument checking for the numerics, in one place.

Data enters the library through the public evaluators; each checks its
arguments here, before any work, and raises
:class:`~implicit_bias.errors.InvalidArgumentError` (a ``ValueError``) whose
message names the argument, shows the offending value and states the domain.
"""

from __future__ import annotations

import operator

from collections.abc import Mapping

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import InvalidArgumentError

__all__ = [
    "as_finite_arrays",
    "check_closed_interval",
    "check_nonnegative",
    "check_stopping_rule",
    "relu_unit_arguments",
]


def _first_offender(values: NDArray[np.float64], bad: NDArray[np.bool_]) -> float:
    return float(values[bad].flat[0])


def as_finite_arrays(arguments: Mapping[str, ArrayLike]) -> list[NDArray[np.float64]]:
    """Convert named array-likes to broadcast float64 arrays, rejecting NaN and inf.

    Args:
      arguments: name -> value, in the order the caller's signature lists them.

    Returns:
      The values as float64 arrays broadcast against each other, in order.

    Raises:
      InvalidArgumentError: a value is not real, not finite, or the shapes do
        not broadcast.
    """
    arrays = []
    for name, value in arguments.items():
        try:
            array = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError) as error:
            raise InvalidArgumentError(
                f"{name}={value!r} is not a real number or array of real numbers"
            ) from error
        bad = ~np.isfinite(array)
        if bad.any():
            raise InvalidArgumentError(
                f"{name}={_first_offender(array, bad)!r} is not finite: "
                f"{name} must be a finite real number"
            )
        arrays.append(array)
    try:
        return list(np.broadcast_arrays(*arrays))
    except ValueError as error:
        shapes = ", ".join(
            f"{n}: {np.shape(a)}" for n, a in zip(arguments, arrays, strict=True)
        )
        raise InvalidArgumentError(f"shapes do not broadcast ({shapes})") from error


def check_closed_interval(
    name: str,
    values: NDArray[np.float64],
    min_value: float,
    max_value: float,
    meaning: str,
) -> None:
    """Raise unless every value lies in ``[min_value, max_value]``."""
    bad = (values < min_value) | (values > max_value)
    if bad.any():
        raise InvalidArgumentError(
            f"{name}={_first_offender(values, bad)!r} is outside "
            f"[{min_value:g}, {max_value:g}]: {name} is {meaning}"
        )


def check_nonnegative(name: str, values: NDArray[np.float64], meaning: str) -> None:
    """Raise unless every value is >= 0."""
    bad = values < 0
    if bad.any():
        raise InvalidArgumentError(
            f"{name}={_first_offender(values, bad)!r} is negative: "
            f"{name} is {meaning} and must be >= 0"
        )


def relu_unit_arguments(
    m: ArrayLike, rho: ArrayLike, m0: ArrayLike, gamma: ArrayLike
) -> list[NDArray[np.float64]]:
    """Checked arguments of a ReLU unit's penalty (eqs. (6)-(11) of ptft-relu-penalty).

    Returns ``[m, rho, m0, gamma]`` as broadcast float64 arrays: all finite,
    rho a cosine in ``[-1, 1]``, m0 a norm ``>= 0``.
    """
    m_, rho_, m0_, gamma_ = as_finite_arrays(
        {"m": m, "rho": rho, "m0": m0, "gamma": gamma}
    )
    check_closed_interval(
        "rho",
        rho_,
        -1.0,
        1.0,
        "the cosine similarity of pretrained and finetuned weights",
    )
    check_nonnegative("m0", m0_, "the norm of the pretrained hidden weights")
    return [m_, rho_, m0_, gamma_]


def as_finite_array(
    name: str,
    value: ArrayLike,
    *,
    ndim: int | tuple[int, ...] | None = None,
    shape: str | None = None,
) -> NDArray[np.float64]:
    """Convert one array-like to a float64 array, rejecting NaN, inf and wrong ranks.

    Args:
      name: the argument's name, for the message.
      value: the argument.
      ndim: the required number of axes (or the allowed numbers), None for any.
      shape: the allowed shapes in words, e.g. ``"(K, n, d)"``, for the message.

    Returns:
      The value as a float64 array (a copy only where a conversion needs one).

    Raises:
      InvalidArgumentError: the value is not real, not finite, or has another rank.
    """
    (array,) = as_finite_arrays({name: value})
    allowed = (ndim,) if isinstance(ndim, int) else ndim
    if allowed is not None and array.ndim not in allowed:
        if shape is not None:
            required = f"shape {shape}"
        elif len(allowed) == 1:
            required = f"{allowed[0]} ax{'is' if allowed[0] == 1 else 'es'}"
        else:
            required = f"one of {', '.join(map(str, allowed))} axes"
        raise InvalidArgumentError(
            f"{name} has shape {array.shape}: {name} must have {required}"
        )
    return array


def check_tolerance(name: str, value: float) -> float:
    """Return ``value`` as a float after checking that it lies in ``(0, 1)``."""
    try:
        number = float(value)
    except (TypeError, ValueError) as error:
        raise InvalidArgumentError(f"{name}={value!r} is not a real number") from error
    if not 0.0 < number < 1.0:
        raise InvalidArgumentError(
            f"{name}={value!r} is outside (0, 1): {name} is a relative tolerance"
        )
    return number


def check_iteration_count(name: str, value: int) -> int:
    """Return ``value`` after checking that it is an integer ``>= 1``."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise InvalidArgumentError(f"{name}={value!r} is not an integer")
    if value < 1:
        raise InvalidArgumentError(
            f"{name}={value!r} is below 1: {name} counts iterations"
        )
    return int(value)


def check_stopping_rule(
    tol: float, max_steps: int, *, tol_meaning: str, minimum_steps: int = 1
) -> tuple[float, int]:
    """Check an iterative solver's stopping rule: a tolerance and a step budget.

    Args:
      tol: a finite scalar ``>= 0``.
      max_steps: an integer ``>= minimum_steps`` (not a bool).
      tol_meaning: what ``tol`` bounds, for the message.
      minimum_steps: the smallest allowed budget.

    Returns:
      ``(float(tol), int(max_steps))``.

    Raises:
      InvalidArgumentError: either value is outside its domain.
    """
    (tolerance,) = as_finite_arrays({"tol": tol})
    if tolerance.ndim != 0:
        raise InvalidArgumentError(f"tol has shape {tolerance.shape}: tol is a scalar")
    check_nonnegative("tol", tolerance, tol_meaning)
    if isinstance(max_steps, bool):
        raise InvalidArgumentError(
            f"max_steps={max_steps!r} is not an integer >= {minimum_steps}"
        )
    try:
        steps = operator.index(max_steps)
    except TypeError as error:
        raise InvalidArgumentError(
            f"max_steps={max_steps!r} is not an integer: it counts gradient steps"
        ) from error
    if steps < minimum_steps:
        raise InvalidArgumentError(
            f"max_steps={steps!r} is below {minimum_steps}: it counts gradient steps"
        )
    return float(tolerance), steps
