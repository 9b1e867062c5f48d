r"""Assertions for testing float64 evaluators against their mpmath references.

A NumPy evaluator of a closed form is tested against an mpmath reference
evaluated at many more digits, with a tolerance in units in the last place
(ulps) that comes from a rounding analysis of the evaluator. The distance of
a float64 result :math:`\hat y` from the exact value :math:`y` is

.. math:: \operatorname{ulps}(\hat y, y) = \frac{|\hat y - y|}{\operatorname{ulp}(y)},
          \qquad \operatorname{ulp}(y) = \texttt{numpy.spacing}(|y|),

the spacing of float64 numbers at :math:`y` (Goldberg's definition).

A reference is only as good as its working precision: a formula that cancels
k digits, evaluated at d digits, carries d - k correct ones, and at 30 digits
a cancellation of more than ~14 digits leaves a reference worse than the
float64 result it is meant to judge. :func:`assert_ulp_close` therefore
escalates: it evaluates the reference at the first precision (30 digits by
default) everywhere, and at every point where the result lies outside the
tolerance it evaluates the reference again at each higher precision (60 and
120 digits), judges the point by the most precise value, and also fails
where the two most precise references disagree with each other (the
reference has not converged, and no verdict is possible).

References:
  D. Goldberg, What every computer scientist should know about floating-point
  arithmetic, ACM Computing Surveys 23(1), 1991 (ulps); mpmath's precision
  discipline (``mpmath.workdps``).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import mpmath
import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.arguments import as_real_array

__all__ = ["DEFAULT_PRECISIONS", "REFERENCE_TOLERANCE_ULPS", "assert_ulp_close"]

DEFAULT_PRECISIONS = (30, 60, 120)
"""Decimal digits at which references are evaluated, in order of escalation."""

REFERENCE_TOLERANCE_ULPS = 0.01
"""Largest disagreement, in float64 ulps, between the two most precise references.

A reference within 1/100 ulp of its limit shifts a measured distance by at
most 0.01 ulp, negligible next to any tolerance stated in whole ulps; two
references further apart than that have not converged at float64 resolution.
"""

# 17 significant digits distinguish every float64; a reference at fewer digits
# cannot judge a float64 result at all.
_MIN_DIGITS = 17


def _check_precisions(precisions: Sequence[int]) -> tuple[int, ...]:
    if isinstance(precisions, str | bytes) or not isinstance(precisions, Iterable):
        raise InvalidArgumentError(
            f"precisions={precisions!r} is not a sequence of integers (digits)"
        )
    checked = tuple(precisions)
    if not checked:
        raise InvalidArgumentError(
            "precisions=() is empty: give at least one number of digits"
        )
    for dps in checked:
        if isinstance(dps, bool) or not isinstance(dps, int | np.integer):
            raise InvalidArgumentError(f"precisions contains {dps!r}, not an integer")
        if dps < _MIN_DIGITS:
            raise InvalidArgumentError(
                f"precisions contains {dps!r}, below {_MIN_DIGITS}: a reference "
                "must carry more digits than float64"
            )
    if any(low >= high for low, high in itertools.pairwise(checked)):
        raise InvalidArgumentError(
            f"precisions={checked!r} is not strictly increasing: they are the "
            "steps of an escalation"
        )
    return tuple(int(dps) for dps in checked)


def _check_ulps(name: str, value: float) -> float:
    if isinstance(value, bool | str | bytes) or value is None:
        raise InvalidArgumentError(
            f"{name}={value!r} is not a real number: {name} counts ulps"
        )
    try:
        number = float(value)
    except (TypeError, ValueError) as error:
        raise InvalidArgumentError(f"{name}={value!r} is not a real number") from error
    if not (math.isfinite(number) and number >= 0):
        raise InvalidArgumentError(
            f"{name}={value!r} is not a finite number >= 0: {name} counts ulps"
        )
    return number


def _as_real_arrays(
    actual: ArrayLike, arguments: Sequence[ArrayLike]
) -> list[NDArray[np.float64]]:
    if isinstance(arguments, str | bytes) or not isinstance(arguments, Iterable):
        raise InvalidArgumentError(
            f"arguments={arguments!r} is not a sequence of array-likes (one per "
            "parameter of the reference)"
        )
    arrays = []
    for name, value in [("actual", actual)] + [
        (f"arguments[{index}]", argument) for index, argument in enumerate(arguments)
    ]:
        # The library's conversion refuses what np.asarray(value, float) would
        # turn into a wrong number (None into NaN, "1.0" into 1.0, a complex
        # value into its real part) or a foreign error (a ragged nested list,
        # an integer beyond float64), naming the argument; NaN and inf pass.
        array = as_real_array(name, value)
        if name != "actual" and np.isnan(array).any():
            # The reference is evaluated at the arguments: a result may be NaN
            # (it is judged, and fails), a point may not.
            raise InvalidArgumentError(
                f"{name} contains NaN: the arguments must be points, not NaN"
            )
        arrays.append(array)
    try:
        return list(np.broadcast_arrays(*arrays))
    except ValueError as error:
        shapes = ", ".join(str(array.shape) for array in arrays)
        raise InvalidArgumentError(
            f"actual and arguments do not broadcast (shapes {shapes})"
        ) from error


def _evaluate(
    reference: Callable[..., Any],
    points: Sequence[tuple[float, ...]],
    dps: int,
) -> list[mpmath.mpf]:
    values = []
    with mpmath.workdps(dps):
        for point in points:
            # mpf(float) is exact, so the reference sees the float64 inputs
            # themselves, not their decimal renderings.
            value = reference(*(mpmath.mpf(coordinate) for coordinate in point))
            try:
                values.append(mpmath.mpf(value))
            except (TypeError, ValueError) as error:
                raise InvalidArgumentError(
                    f"reference{point!r} returned {value!r}, not a real number"
                ) from error
    return values


def _ulps_apart(value: Any, reference: Any, dps: int) -> float:
    """Distance of ``value`` from ``reference`` in float64 ulps of the reference.

    NaN on either side is infinitely far; so is a finite value from a reference
    beyond the float64 range (and vice versa), while the matching infinity is 0.
    """
    if mpmath.isnan(value) or mpmath.isnan(reference):
        return math.inf
    rounded = float(reference)
    if math.isinf(rounded) or mpmath.isinf(value):
        return 0.0 if float(value) == rounded else math.inf
    with mpmath.workdps(dps):
        spacing = mpmath.mpf(float(np.spacing(abs(rounded))))
        return float(abs(mpmath.mpf(value) - reference) / spacing)


def _digits(value: mpmath.mpf) -> str:
    return mpmath.nstr(value, 20)


def assert_ulp_close(
    actual: ArrayLike,
    reference: Callable[..., Any],
    ulps: float,
    *,
    arguments: Sequence[ArrayLike] = (),
    precisions: Sequence[int] = DEFAULT_PRECISIONS,
    reference_tolerance_ulps: float = REFERENCE_TOLERANCE_ULPS,
) -> NDArray[np.float64]:
    r"""Assert that float64 results lie within ``ulps`` of an mpmath reference.

    .. math:: \frac{|\hat y_i - y(x_i)|}{\operatorname{ulp}(y(x_i))} \le
              \text{ulps}\quad\text{for every point } i

    ``actual`` holds the float64 results :math:`\hat y_i`, broadcast against
    ``arguments``; ``reference`` is called once per point with the point's
    arguments as exact ``mpmath.mpf`` values under ``mpmath.workdps(dps)``,
    for ``dps`` the first of ``precisions``. Where a point falls outside the
    tolerance, the reference is evaluated again at every further precision
    and the point is judged by the most precise value; it then also fails if
    the two most precise references lie more than ``reference_tolerance_ulps``
    apart (the reference has not converged: it cancels more digits than the
    precisions carry). Points within the tolerance at the first precision are
    accepted there, so a well-conditioned reference costs one evaluation per
    point (and is not checked for convergence: a reference wrong at the first
    precision passes a result only if the result is wrong by the same amount).
    With a single precision there is neither escalation nor convergence check.

    Args:
      actual: float64 results, an array-like broadcast against ``arguments``.
      reference: a scalar function of mpmath numbers returning a real number,
        computed at the precision in force (``mpmath.mp.dps``).
      ulps: the tolerance in ulps of the reference, ``>= 0``, from a rounding
        analysis of the evaluator (0.5 is correct rounding).
      arguments: the inputs at which ``actual`` was computed, one array-like
        per parameter of ``reference``.
      precisions: decimal digits of the escalation, strictly increasing and
        each ``>= 17``; the default is :data:`DEFAULT_PRECISIONS`.
      reference_tolerance_ulps: the largest disagreement between the two most
        precise references that counts as converged; the default is
        :data:`REFERENCE_TOLERANCE_ULPS`.

    Returns:
      The distance of each result from its reference in ulps (float64, the
      broadcast shape), measured at the precision each point was judged at.

    Raises:
      AssertionError: a point lies outside the tolerance at the highest
        precision, or its references did not converge; the message shows the
        count, the worst point, its arguments, both values, its distance in
        ulps and the precision used.
      InvalidArgumentError: ``ulps``, ``precisions`` or the shapes are invalid,
        ``actual`` or an argument is not a real number or a rectangular array
        of them (None, a string, complex, a ragged nested list, an integer
        beyond float64), an argument contains NaN, or the reference returned
        something that is not a real number.

    Examples:
      The square root is correctly rounded (IEEE 754), within half an ulp:

      >>> x = np.linspace(0.5, 4.0, 8)
      >>> distances = assert_ulp_close(np.sqrt(x), mpmath.sqrt, 0.5, arguments=(x,))
      >>> bool(distances.max() <= 0.5)
      True

      A wrong implementation is caught, and the message locates it:

      >>> try:
      ...     assert_ulp_close(np.sqrt(x) + 1e-12, mpmath.sqrt, 4, arguments=(x,))
      ... except AssertionError as error:
      ...     print(str(error).splitlines()[0])
      8 of 8 points lie more than 4 ulps from the reference
    """
    tolerance = _check_ulps("ulps", ulps)
    reference_tolerance = _check_ulps(
        "reference_tolerance_ulps", reference_tolerance_ulps
    )
    digits = _check_precisions(precisions)
    if not callable(reference):
        raise InvalidArgumentError(
            f"reference={reference!r} is not callable: it must be a function of "
            "mpmath numbers"
        )
    broadcast = _as_real_arrays(actual, arguments)
    shape = broadcast[0].shape
    results = broadcast[0].ravel().tolist()
    columns = [array.ravel().tolist() for array in broadcast[1:]]
    points: list[tuple[float, ...]] = (
        list(zip(*columns, strict=True)) if columns else [()] * len(results)
    )

    references = _evaluate(reference, points, digits[0])
    distances = [
        _ulps_apart(result, value, digits[0])
        for result, value in zip(results, references, strict=True)
    ]
    judged_at = [digits[0]] * len(results)
    previous: dict[int, mpmath.mpf] = {}
    disagreements: dict[int, float] = {}
    escalated = [index for index, d in enumerate(distances) if d > tolerance]
    if len(digits) > 1 and escalated:
        subset = [points[index] for index in escalated]
        ladder = [[references[index] for index in escalated]]
        ladder += [_evaluate(reference, subset, dps) for dps in digits[1:]]
        for position, index in enumerate(escalated):
            before, last = ladder[-2][position], ladder[-1][position]
            references[index] = last
            previous[index] = before
            judged_at[index] = digits[-1]
            distances[index] = _ulps_apart(results[index], last, digits[-1])
            disagreements[index] = _ulps_apart(before, last, digits[-1])

    mismatched = [index for index, d in enumerate(distances) if d > tolerance]
    unconverged = [
        index for index, d in disagreements.items() if d > reference_tolerance
    ]
    if mismatched or unconverged:
        raise AssertionError(
            _failure_message(
                shape,
                results,
                points,
                references,
                distances,
                judged_at,
                tolerance,
                mismatched,
                unconverged,
                previous,
                disagreements,
                digits,
            )
        )
    return np.asarray(distances, dtype=np.float64).reshape(shape)


def _failure_message(
    shape: tuple[int, ...],
    results: list[float],
    points: list[tuple[float, ...]],
    references: list[mpmath.mpf],
    distances: list[float],
    judged_at: list[int],
    tolerance: float,
    mismatched: list[int],
    unconverged: list[int],
    previous: dict[int, mpmath.mpf],
    disagreements: dict[int, float],
    digits: tuple[int, ...],
) -> str:
    def where(index: int) -> str:
        position = np.unravel_index(index, shape) if shape else ()
        return f"index {tuple(int(i) for i in position)}, arguments {points[index]!r}"

    lines = []
    if mismatched:
        worst = max(mismatched, key=lambda index: distances[index])
        lines += [
            f"{len(mismatched)} of {len(results)} points lie more than "
            f"{tolerance:g} ulps from the reference",
            f"worst: {where(worst)}",
            f"  actual    = {results[worst]!r}",
            f"  reference = {_digits(references[worst])} "
            f"(at {judged_at[worst]} digits)",
            f"  distance  = {distances[worst]:.4g} ulps",
        ]
    if unconverged:
        worst = max(unconverged, key=lambda index: disagreements[index])
        lines += [
            f"{len(unconverged)} of {len(results)} points have a reference that did "
            f"not converge: at {digits[-2]} and {digits[-1]} digits it differs by "
            "more than the reference tolerance",
            f"worst: {where(worst)}",
            f"  reference = {_digits(previous[worst])} (at {digits[-2]} digits)",
            f"  reference = {_digits(references[worst])} (at {digits[-1]} digits)",
            f"  apart by  = {disagreements[worst]:.4g} ulps; the reference cancels "
            "more digits than the precisions carry: rewrite it without the "
            "cancellation or pass higher precisions",
        ]
    return "\n".join(lines)
