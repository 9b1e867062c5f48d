r"""A fast float64 evaluator against its multi-precision reference, in ulps.

A NumPy evaluator of a closed form is accurate to a number of units in the
last place (ulps) that its rounding analysis gives; :func:`check_against_reference`
decides that claim at sampled points, with the escalation of
:func:`implicit_bias.testing.assert_ulp_close` (the reference is evaluated
again at higher precision wherever the result looks wrong), and returns a
:class:`~implicit_bias.claims.engine.Verdict` instead of raising.
"""

from __future__ import annotations

import inspect
import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import mpmath
import numpy as np
import numpy.typing as npt

from implicit_bias.claims.checks import check_close
from implicit_bias.claims.engine import Basis, Reason, Verdict
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.testing import DEFAULT_PRECISIONS, REFERENCE_TOLERANCE_ULPS

__all__ = ["check_against_reference"]


def _argument_names(evaluate: Callable[..., Any], count: int) -> list[str]:
    try:
        names = list(inspect.signature(evaluate).parameters)
    except (TypeError, ValueError):
        names = []
    if len(names) >= count:
        return names[:count]
    return [f"arguments[{index}]" for index in range(count)]


def _reference_values(
    reference: Callable[..., Any], points: list[tuple[float, ...]], dps: int
) -> list[mpmath.mpf]:
    values = []
    with mpmath.workdps(dps):
        for point in points:
            # mpf(float) is exact: the reference sees the float64 inputs.
            value = mpmath.mpmathify(reference(*(mpmath.mpf(c) for c in point)))
            if isinstance(value, mpmath.mpc):
                if value.imag != 0:
                    raise InvalidArgumentError(
                        f"reference{point!r} returned {value}, not a real number"
                    )
                value = value.real
            values.append(value)
    return values


def _ulps(result: float, value: mpmath.mpf, dps: int) -> float:
    """``|result - value|`` in float64 ulps of ``value``; NaN for a NaN reference."""
    if mpmath.isnan(value):
        return math.nan
    if math.isnan(result):
        return math.inf
    rounded = float(value)
    if math.isinf(rounded) or math.isinf(result):
        return 0.0 if result == rounded else math.inf
    with mpmath.workdps(dps):
        return float(
            abs(mpmath.mpf(result) - value) / mpmath.mpf(np.spacing(abs(rounded)))
        )


def _apart(previous: mpmath.mpf, last: mpmath.mpf, dps: int) -> float:
    """How far two references are apart, in float64 ulps of the last one."""
    if mpmath.isnan(previous) or mpmath.isnan(last):
        return 0.0 if mpmath.isnan(previous) and mpmath.isnan(last) else math.inf
    rounded = float(last)
    if math.isinf(rounded):
        return 0.0 if float(previous) == rounded else math.inf
    with mpmath.workdps(dps):
        return float(abs(previous - last) / mpmath.mpf(np.spacing(abs(rounded))))


def check_against_reference(
    evaluate: Callable[..., npt.ArrayLike],
    reference: Callable[..., Any],
    arguments: Sequence[npt.ArrayLike],
    *,
    ulps: float,
    precisions: Sequence[int] = DEFAULT_PRECISIONS,
    what: str = "evaluator",
) -> Verdict:
    r"""Decide that a float64 evaluator is within ``ulps`` of a multi-precision
    reference at every sampled point.

    .. math:: \frac{|\hat f(x_i) - f(x_i)|}{\operatorname{ulp}(f(x_i))} \le
              \text{ulps},\qquad \operatorname{ulp}(y) = \texttt{numpy.spacing}(|y|)

    ``evaluate`` is called once on the arrays ``arguments`` (vectorized);
    ``reference`` once per point, on the exact ``mpmath.mpf`` values of its
    float64 coordinates, under ``mpmath.workdps`` of the first of
    ``precisions``. A point outside the tolerance is evaluated again at each
    further precision and judged by the most precise reference (as
    :func:`implicit_bias.testing.assert_ulp_close` does).

    Returns:
      ``holds`` (numerical) with the largest distance in ulps; ``fails``
      (numerical) at the worst point, named, with both values -- a NaN or an
      infinity where the reference is a finite real is a wrong result;
      ``inconclusive`` (``Reason.UNDECIDED``) where the two most precise
      references differ by more than
      :data:`~implicit_bias.testing.REFERENCE_TOLERANCE_ULPS` (the reference
      has not converged), (``Reason.NON_FINITE``) where the reference is NaN.

    Args:
      evaluate: the fast evaluator, NumPy in and out.
      reference: a scalar function of mpmath numbers.
      arguments: one array-like per parameter, broadcast together; no NaN.
      ulps: the tolerance, from the evaluator's rounding analysis (> 0).
      precisions: decimal digits of the reference, increasing, each >= 17.
      what: names the evaluator in the evidence.

    Raises:
      InvalidArgumentError: bad ``ulps`` or ``precisions``, arguments that do
        not broadcast or contain NaN, an evaluator whose output does not have
        their shape, or a reference that returns a complex number.

    Examples:
      >>> x = np.linspace(0.5, 4.0, 16)
      >>> check_against_reference(np.sqrt, mpmath.sqrt, (x,), ulps=0.5).status
      <Status.HOLDS: 'holds'>
      >>> def rough_log1p(x):
      ...     return np.log(1 + x)
      >>> check_against_reference(rough_log1p, mpmath.log1p, (x * 1e-9,), ulps=1).status
      <Status.FAILS: 'fails'>
    """
    if isinstance(ulps, bool) or not isinstance(ulps, int | float | np.floating):
        raise InvalidArgumentError(f"ulps={ulps!r} is not a real number")
    if not (math.isfinite(ulps) and ulps > 0):
        raise InvalidArgumentError(
            f"ulps={ulps!r} must be finite and > 0: the tolerance in ulps of the "
            "reference, from the evaluator's rounding analysis"
        )
    tolerance = float(ulps)
    digits = tuple(int(d) for d in precisions)
    if (
        not digits
        or digits[0] < 17
        or any(a >= b for a, b in itertools.pairwise(digits))
    ):
        raise InvalidArgumentError(
            f"precisions={precisions!r} must be increasing digits, each >= 17"
        )
    try:
        columns = np.broadcast_arrays(
            *(np.asarray(a, dtype=np.float64) for a in arguments)
        )
    except ValueError as error:
        raise InvalidArgumentError(f"arguments do not broadcast ({error})") from error
    if not columns:
        raise InvalidArgumentError("arguments: give one array-like per parameter")
    if any(np.isnan(column).any() for column in columns):
        raise InvalidArgumentError("arguments contain NaN: points, not NaN")
    results = np.asarray(evaluate(*columns), dtype=np.float64)
    if results.shape != columns[0].shape:
        raise InvalidArgumentError(
            f"evaluate returned shape {results.shape} for arguments of shape "
            f"{columns[0].shape}: it must be vectorized"
        )
    points = list(zip(*(column.ravel().tolist() for column in columns), strict=True))
    computed = results.ravel().tolist()
    references = _reference_values(reference, points, digits[0])
    distances = [
        _ulps(r, v, digits[0]) for r, v in zip(computed, references, strict=True)
    ]
    unconverged: list[int] = []
    for index in [i for i, d in enumerate(distances) if d > tolerance]:
        ladder = [references[index]] + [
            _reference_values(reference, [points[index]], dps)[0] for dps in digits[1:]
        ]
        references[index] = ladder[-1]
        distances[index] = _ulps(computed[index], ladder[-1], digits[-1])
        if len(ladder) > 1 and _apart(ladder[-2], ladder[-1], digits[-1]) > (
            REFERENCE_TOLERANCE_ULPS
        ):
            unconverged.append(index)
    names = _argument_names(evaluate, len(columns))

    def where(index: int) -> str:
        return ", ".join(
            f"{name}={value!r}"
            for name, value in zip(names, points[index], strict=True)
        )

    judged = [
        i for i, d in enumerate(distances) if not math.isnan(d) and i not in unconverged
    ]
    worst = max(judged, key=lambda i: distances[i], default=None)
    detail = (
        f"{what} against the reference at {len(points)} points ({digits[0]} digits, "
        f"escalated to {digits[-1]} where outside): "
    )
    if worst is not None and distances[worst] > tolerance:
        counterexample = (
            f"at {where(worst)}: {what} = {computed[worst]!r}, reference "
            f"{mpmath.nstr(references[worst], 20)}, {distances[worst]:.4g} ulps"
        )
        return Verdict.fails(
            f"{detail}{sum(distances[i] > tolerance for i in judged)} points beyond "
            f"{tolerance:g} ulps; worst {counterexample}",
            Basis.NUMERICAL,
            counterexample,
        )
    if unconverged:
        return Verdict.inconclusive(
            f"{detail}the reference did not converge at {len(unconverged)} points "
            f"(e.g. {where(unconverged[0])}): it cancels more digits than "
            f"{digits[-1]}",
            Reason.UNDECIDED,
            Basis.NUMERICAL,
        )
    undefined = [i for i, d in enumerate(distances) if math.isnan(d)]
    if undefined:
        return Verdict.inconclusive(
            f"{detail}the reference is NaN at {len(undefined)} points (e.g. "
            f"{where(undefined[0])})",
            Reason.NON_FINITE,
            Basis.NUMERICAL,
        )
    within = check_close(
        np.asarray(distances),
        0.0,
        tolerance,
        what=f"distance of {what} from the reference (ulps)",
    )
    return within.with_detail(
        f"{detail}max distance {max(distances):.3g} ulps (tolerance "
        f"{tolerance:g} ulps of the reference)"
    )
