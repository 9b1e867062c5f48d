r"""A Monte-Carlo sample against a prediction: the mean within ``z`` standard
errors, widened by a stated bound on the finite-size bias when the prediction
is an :math:`n, d\to\infty` limit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.arguments import (
    as_finite_array,
    check_real,
)
from implicit_bias.validation.transfer_experiments.endpoints import Float64Array

__all__ = [
    "MeanComparison",
    "compare_mean",
]


@dataclass(frozen=True)
class MeanComparison:
    """A Monte-Carlo mean against a prediction.

    Attributes:
      mean: the sample mean, finite.
      standard_error: sample standard deviation over sqrt(K), finite and >= 0.
      predicted: the prediction, finite.
      bias_bound: the finite-size bias allowed for (0 for exact predictions),
        finite and >= 0.
      z: how many standard errors are allowed, finite and > 0.

    The fields are stored as floats; :func:`compare_mean` builds the record
    from a sample.

    Raises:
      InvalidArgumentError: a field outside its domain (a NaN mean would make
        every verdict NaN-based, a negative standard error a wrong one).
    """

    mean: float
    standard_error: float
    predicted: float
    bias_bound: float
    z: float

    def __post_init__(self) -> None:
        domains: dict[str, tuple[float | None, bool, str]] = {
            "mean": (None, False, "the sample mean"),
            "standard_error": (0.0, False, "a standard error (>= 0)"),
            "predicted": (None, False, "the predicted mean"),
            "bias_bound": (0.0, False, "a bound on the finite-size bias (>= 0)"),
            "z": (0.0, True, "the number of standard errors allowed (> 0)"),
        }
        for name, (low, exclusive, meaning) in domains.items():
            value = check_real(
                name,
                getattr(self, name),
                min_value=low,
                exclusive=exclusive,
                meaning=meaning,
            )
            object.__setattr__(self, name, value)

    @property
    def deviation(self) -> float:
        """(mean - predicted) in standard errors.

        +-inf for a constant sample that misses the prediction, and where the
        ratio lies beyond the float64 range.
        """
        with np.errstate(over="ignore"):
            difference = self.mean - self.predicted
        if self.standard_error == 0.0:
            # A constant sample: a float division would raise ZeroDivisionError.
            return 0.0 if difference == 0.0 else float(np.copysign(np.inf, difference))
        if not np.isfinite(difference):
            # mean - predicted overflowed: halving both is exact.
            difference = self.mean / 2 - self.predicted / 2
            return float(np.float64(difference) / np.float64(self.standard_error / 2))
        with np.errstate(over="ignore"):
            return float(np.float64(difference) / np.float64(self.standard_error))

    @property
    def agrees(self) -> bool:
        """|mean - predicted| <= z SE + bias bound."""
        with np.errstate(over="ignore"):
            allowed = self.z * self.standard_error + self.bias_bound
            difference = abs(self.mean - self.predicted)
        if np.isfinite(difference) and np.isfinite(allowed):
            return bool(difference <= allowed)
        # An overflow: the same comparison of halves, all exact.
        with np.errstate(over="ignore"):
            half_allowed = self.z * (self.standard_error / 2) + self.bias_bound / 2
        return bool(abs(self.mean / 2 - self.predicted / 2) <= half_allowed)

    def describe(self) -> str:
        """The comparison in one line: mean +- SE, the prediction, the deviation."""
        return (
            f"mean {self.mean:.5f} +- {self.standard_error:.5f} (SE) vs predicted "
            f"{self.predicted:.5f}: {self.deviation:+.1f} SE"
            + (f", bias bound {self.bias_bound:.1e}" if self.bias_bound else "")
        )


def compare_mean(
    sample: Float64Array, predicted: float, *, z: float = 4.0, bias_bound: float = 0.0
) -> MeanComparison:
    r"""Compare a Monte-Carlo mean with a prediction, within z SE plus a bias bound.

    z = 4 makes a false alarm of a correct formula about 6e-5 per comparison
    (normal approximation of the mean).

    Args:
      sample: K >= 2 finite values (any shape, flattened).
      predicted: the predicted mean, finite.
      z: standard errors allowed, finite and > 0.
      bias_bound: known bound on the finite-size bias of the prediction,
        finite and >= 0.

    Returns:
      A :class:`MeanComparison` (moments of samples near the float64 range
      are computed without overflow).

    Raises:
      InvalidArgumentError: fewer than two values, non-finite values, a
        non-finite prediction, z not finite or <= 0, or a negative or
        non-finite bias bound.

    Examples:
      >>> compare_mean(np.array([1.0, 3.0]), 2.0).agrees
      True
    """
    values = as_finite_array("sample", sample).reshape(-1)
    if values.size < 2:
        raise InvalidArgumentError(
            f"sample has {values.size} values: a standard error needs >= 2"
        )
    predicted = check_real("predicted", predicted, meaning="the predicted mean")
    z = check_real(
        "z",
        z,
        min_value=0.0,
        exclusive=True,
        meaning="the number of standard errors allowed (finite, > 0)",
    )
    bias_bound = check_real(
        "bias_bound",
        bias_bound,
        min_value=0.0,
        meaning="a bound on the finite-size bias of the prediction (>= 0)",
    )
    with np.errstate(over="ignore", invalid="ignore"):
        mean = float(np.mean(values))
        error = float(np.std(values, ddof=1) / np.sqrt(values.size))
    if not (np.isfinite(mean) and np.isfinite(error)):
        # A sum or square overflowed: the same moments of the sample divided
        # by a power of two (exact) cannot, and they scale back exactly.
        exponent = int(np.frexp(np.max(np.abs(values)))[1])
        scaled = np.ldexp(values, -exponent)
        mean = float(np.ldexp(np.mean(scaled), exponent))
        error = float(np.ldexp(np.std(scaled, ddof=1) / np.sqrt(values.size), exponent))
    return MeanComparison(mean, error, predicted, bias_bound, z)
