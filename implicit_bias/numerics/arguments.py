"""Argument checking for the numerics, in one place.

Data enters the library through the public evaluators; each checks its
arguments here, before any work, and raises
:class:`~implicit_bias.errors.InvalidArgumentError` (a ``ValueError``) whose
message names the argument, shows the offending value and states the domain.
"""

from __future__ import annotations

import operator

from collections.abc import Mapping

import mpmath
import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import InvalidArgumentError

__all__ = [
    "MAX_DPS",
    "as_finite_array",
    "as_finite_arrays",
    "as_real_array",
    "check_closed_interval",
    "check_dps",
    "check_generator",
    "check_integer",
    "check_iteration_count",
    "check_mp_real",
    "check_nonnegative",
    "check_real",
    "check_seed",
    "check_stopping_rule",
    "check_tolerance",
    "relu_unit_arguments",
]

MAX_DPS = 100_000
"""Largest working precision (decimal digits) the mpmath references accept.

Far beyond any reference a float64 result needs (17 digits distinguish every
float64), and small enough that a mistyped precision fails at once instead
of running for hours.
"""


def _first_offender(values: NDArray[np.float64], bad: NDArray[np.bool_]) -> float:
    return float(values[bad].flat[0])


def _describe(value: object) -> str:
    """``value``'s repr, or its shape and dtype for an array (reprs can be huge)."""
    if isinstance(value, np.ndarray) and value.ndim > 0:
        return f"<array of shape {value.shape}, dtype {value.dtype}>"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _nested_shape(value: object) -> tuple[int, ...] | None:
    """The shape of nested lists, tuples and arrays, or None if they are ragged.

    Ragged: rows of one level differ in length or in depth
    (``[[1, 2], [3]]``, ``[1, [2]]``). Anything else counts as a scalar.
    """
    if isinstance(value, np.ndarray):
        return value.shape
    if not isinstance(value, list | tuple):
        return ()
    shapes = {_nested_shape(item) for item in value}
    if len(shapes) > 1:
        return None
    inner = shapes.pop() if shapes else ()
    return None if inner is None else (len(value), *inner)


def _ragged_error(name: str, value: object) -> InvalidArgumentError:
    return InvalidArgumentError(
        f"{name}={_describe(value)} is a ragged nested sequence (its rows differ "
        f"in length): {name} must be a real number or a rectangular array of them"
    )


def as_real_array(name: str, value: ArrayLike) -> NDArray[np.float64]:
    """Convert one array-like of real numbers to a float64 array; NaN and inf
    pass (see :func:`as_finite_array` to refuse them).

    Refused, naming ``name``, is what ``np.asarray(value, float)`` would turn
    into a wrong number or a foreign error: None (NaN), a string (``"1.0"``
    read as 1.0), a complex value (its real part kept), a ragged nested
    sequence, an integer beyond float64.

    Raises:
      InvalidArgumentError: ``value`` is not a real number or array of them.

    Examples:
      >>> as_real_array("x", [1, float("nan")]).dtype
      dtype('float64')
      >>> as_real_array("x", [[1.0, 2.0], [3.0]])
      Traceback (most recent call last):
      ...
      implicit_bias.errors.InvalidArgumentError: x=[[1.0, 2.0], [3.0]] is a ragged...
    """
    # np.asarray(None, float) is NaN and np.asarray(1j, float) drops the
    # imaginary part with only a warning: both would pass as wrong numbers.
    if value is None:
        raise InvalidArgumentError(
            f"{name}=None is not a real number or array of real numbers"
        )
    if isinstance(value, str | bytes):
        raise InvalidArgumentError(
            f"{name}={value!r} is a string, not a real number or array of real numbers"
        )
    # Converted without a dtype first, so that a complex value shows as one;
    # the ragged test walks the nesting in Python, so it runs only on failure.
    try:
        array = np.asarray(value)
    except (TypeError, ValueError, OverflowError) as error:
        if _nested_shape(value) is None:
            raise _ragged_error(name, value) from error
        raise InvalidArgumentError(
            f"{name}={_describe(value)} is not a real number or array of real numbers"
        ) from error
    if np.iscomplexobj(array):
        raise InvalidArgumentError(
            f"{name}={_describe(value)} is complex: {name} must be real"
        )
    try:
        return np.asarray(array, dtype=np.float64)
    except (TypeError, ValueError, OverflowError) as error:
        raise InvalidArgumentError(
            f"{name}={_describe(value)} is not a real number or array of real numbers"
        ) from error


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
        array = as_real_array(name, value)
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


def check_integer(
    name: str,
    value: object,
    *,
    min_value: int | None = None,
    max_value: int | None = None,
    meaning: str,
) -> int:
    """Return ``value`` as an ``int`` after checking its type and bounds.

    Accepts Python and NumPy integers (not ``bool``, not floats, not None).

    Args:
      name: the argument's name, for the message.
      value: the argument.
      min_value, max_value: inclusive bounds, None for unbounded.
      meaning: what the argument is, for the message (``"a sample count"``).

    Raises:
      InvalidArgumentError: ``value`` is not an integer or lies out of bounds.

    Examples:
      >>> check_integer("n", np.int64(3), min_value=1, meaning="a sample count")
      3
    """
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise InvalidArgumentError(
            f"{name}={value!r} is not an integer: {name} is {meaning}"
        )
    number = int(value)
    if min_value is not None and number < min_value:
        raise InvalidArgumentError(
            f"{name}={number!r} is below {min_value}: {name} is {meaning}"
        )
    if max_value is not None and number > max_value:
        raise InvalidArgumentError(
            f"{name}={number!r} is above {max_value}: {name} is {meaning}"
        )
    return number


def check_seed(name: str, value: object) -> int:
    """Return a seed of ``numpy.random.default_rng`` after checking it.

    A seed is an integer ``>= 0``; None (fresh OS entropy) is refused, because
    every simulation of the library is reproducible by its arguments.

    Raises:
      InvalidArgumentError: ``value`` is not an integer ``>= 0``.
    """
    return check_integer(
        name, value, min_value=0, meaning="a seed of numpy.random.default_rng (>= 0)"
    )


def check_dps(value: object, name: str = "dps") -> int:
    """Return an mpmath working precision after checking it.

    Args:
      value: decimal digits, an integer in ``[1, MAX_DPS]``.
      name: the argument's name, for the message.

    Raises:
      InvalidArgumentError: ``value`` is not an integer in ``[1, MAX_DPS]``.
    """
    return check_integer(
        name,
        value,
        min_value=1,
        max_value=MAX_DPS,
        meaning="the working precision in decimal digits",
    )


def check_real(
    name: str,
    value: object,
    *,
    min_value: float | None = None,
    max_value: float | None = None,
    exclusive: bool = False,
    meaning: str,
) -> float:
    """Return a finite real scalar as a float after checking its bounds.

    Args:
      name: the argument's name, for the message.
      value: the argument: a real number (Python or NumPy, 0-d array).
      min_value, max_value: bounds, None for unbounded.
      exclusive: whether the bounds themselves are excluded.
      meaning: what the argument is, for the message.

    Raises:
      InvalidArgumentError: ``value`` is not a finite real scalar in bounds.

    Examples:
      >>> check_real("sigma", 0.5, min_value=0.0, meaning="a noise level")
      0.5
    """
    if isinstance(value, bool):
        raise InvalidArgumentError(
            f"{name}={value!r} is a bool, not a real number: {name} is {meaning}"
        )
    array = as_real_array(name, value)  # type: ignore[arg-type]
    if array.ndim != 0:
        raise InvalidArgumentError(
            f"{name} has shape {array.shape}: {name} is a scalar, {meaning}"
        )
    number = float(array)
    if not np.isfinite(number):
        raise InvalidArgumentError(
            f"{name}={number!r} is not finite: {name} is {meaning}"
        )
    low_bad = min_value is not None and (
        number <= min_value if exclusive else number < min_value
    )
    high_bad = max_value is not None and (
        number >= max_value if exclusive else number > max_value
    )
    if low_bad or high_bad:
        low = "-inf" if min_value is None else f"{min_value:g}"
        high = "inf" if max_value is None else f"{max_value:g}"
        brackets = "()" if exclusive else "[]"
        raise InvalidArgumentError(
            f"{name}={number!r} is outside {brackets[0]}{low}, {high}{brackets[1]}: "
            f"{name} is {meaning}"
        )
    return number


def check_generator(name: str, value: object) -> np.random.Generator:
    """Return ``value`` after checking that it is a ``numpy.random.Generator``.

    Seeds, None and legacy ``RandomState`` objects are refused: a function that
    takes a generator draws from the caller's stream, so a seed passed by
    mistake would silently start a new one.

    Raises:
      InvalidArgumentError: ``value`` is not a ``numpy.random.Generator``.
    """
    if not isinstance(value, np.random.Generator):
        raise InvalidArgumentError(
            f"{name}={_describe(value)} is not a numpy.random.Generator: {name} "
            "is the random generator to draw from (np.random.default_rng(seed))"
        )
    return value


def check_mp_real(name: str, value: object, *, meaning: str) -> mpmath.mpf:
    """Return a finite real number, converted exactly, for an mpmath reference.

    Accepts Python and NumPy integers and floats, 0-d real arrays and
    ``mpmath.mpf``; a float is its exact binary value. Strings are refused
    (``mpmath.mpf("0.1")`` is not the float 0.1 a NumPy evaluator receives),
    as are bools, None, complex numbers and NaN or infinities.

    Raises:
      InvalidArgumentError: ``value`` is not a finite real number.

    Examples:
      >>> check_mp_real("u", 0.5, meaning="a cosine")
      mpf('0.5')
    """
    if isinstance(value, mpmath.mpf):
        number = value
    else:
        if isinstance(value, bool) or not isinstance(
            value, int | float | np.integer | np.floating | np.ndarray
        ):
            raise InvalidArgumentError(
                f"{name}={_describe(value)} is not a real number: {name} is {meaning}"
            )
        if isinstance(value, int | np.integer):
            number = mpmath.mpf(int(value))
        else:
            number = mpmath.mpf(check_real(name, value, meaning=meaning))
    if not mpmath.isfinite(number):
        raise InvalidArgumentError(
            f"{name}={number!r} is not finite: {name} is {meaning}"
        )
    return number
