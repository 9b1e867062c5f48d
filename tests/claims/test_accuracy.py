"""A float64 evaluator against its multi-precision reference, as a verdict."""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np
import pytest

from implicit_bias.claims.accuracy import check_against_reference
from implicit_bias.claims.checks import injected_bias
from implicit_bias.claims.engine import Basis, Reason, Status
from implicit_bias.errors import InvalidArgumentError

_X = np.linspace(0.5, 4.0, 16)


def test_a_correctly_rounded_evaluator_holds_within_half_an_ulp() -> None:
    verdict = check_against_reference(np.sqrt, mpmath.sqrt, (_X,), ulps=0.5)
    assert verdict.status == Status.HOLDS
    assert verdict.basis == Basis.NUMERICAL
    assert "16 points" in verdict.detail
    assert "0.5 ulps of the reference" in verdict.detail


def test_a_cancelling_evaluator_fails_at_the_worst_point_named() -> None:
    def naive_log1p(x: np.ndarray) -> np.ndarray:
        return np.log(1 + x)

    x = np.array([1e-3, 1e-6, 1e-9])
    verdict = check_against_reference(naive_log1p, mpmath.log1p, (x,), ulps=1)
    assert verdict.status == Status.FAILS
    # log(1 + x) loses most digits at the smallest x: that is the worst point.
    assert verdict.counterexample is not None
    assert verdict.counterexample.startswith("at x=1e-09:")
    assert "ulps" in verdict.counterexample


def test_the_distance_is_measured_in_ulps_of_the_reference() -> None:
    # One ulp above the correctly rounded square root: within 1.5, not 0.9.
    def one_ulp_high(x: np.ndarray) -> np.ndarray:
        return np.nextafter(np.sqrt(x), np.inf)

    x = np.array([2.0, 3.0, 5.0])
    assert check_against_reference(
        one_ulp_high, mpmath.sqrt, (x,), ulps=1.5
    ).status == (Status.HOLDS)
    assert check_against_reference(
        one_ulp_high, mpmath.sqrt, (x,), ulps=0.9
    ).status == (Status.FAILS)


def test_several_arguments_broadcast_and_are_named() -> None:
    def hypot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.hypot(a, b) * (1 + 1e-12 * (b > 2))

    verdict = check_against_reference(
        hypot, lambda a, b: mpmath.sqrt(a**2 + b**2), (_X, 3.0), ulps=1
    )
    assert verdict.status == Status.FAILS
    assert "a=" in verdict.detail
    assert "b=3.0" in verdict.detail


def test_a_nan_result_where_the_reference_is_finite_fails() -> None:
    def broken(x: np.ndarray) -> np.ndarray:
        return np.where(x > 3.5, np.nan, np.sqrt(x))

    verdict = check_against_reference(broken, mpmath.sqrt, (_X,), ulps=1)
    assert verdict.status == Status.FAILS


def test_a_nan_reference_is_inconclusive() -> None:
    verdict = check_against_reference(
        np.sqrt, lambda x: mpmath.nan if x > 3.5 else mpmath.sqrt(x), (_X,), ulps=1
    )
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.NON_FINITE)


def test_a_reference_that_does_not_converge_is_inconclusive() -> None:
    # A reference that depends on the working precision never settles.
    def unsettled(x: mpmath.mpf) -> mpmath.mpf:
        return mpmath.sqrt(x) * (1 + mpmath.mpf(10) ** (-(mpmath.mp.dps // 4)))

    verdict = check_against_reference(np.sqrt, unsettled, (_X,), ulps=1)
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.UNDECIDED)


def test_mutation_testing_can_shift_the_decisive_comparison() -> None:
    with injected_bias(2.0) as injection:
        verdict = check_against_reference(np.sqrt, mpmath.sqrt, (_X,), ulps=0.5)
    assert verdict.status == Status.FAILS
    assert injection.comparisons == 1


@pytest.mark.parametrize(
    ("arguments", "keywords", "match"),
    [
        ((_X,), {"ulps": 0.0}, "ulps"),
        ((_X,), {"ulps": np.nan}, "ulps"),
        ((_X,), {"ulps": "1"}, "ulps"),
        ((_X,), {"ulps": 1, "precisions": (10,)}, "precisions"),
        ((_X,), {"ulps": 1, "precisions": (60, 30)}, "precisions"),
        ((_X, np.ones(3)), {"ulps": 1}, "broadcast"),
        ((np.array([1.0, np.nan]),), {"ulps": 1}, "NaN"),
        ((), {"ulps": 1}, "one array-like"),
    ],
)
def test_bad_arguments_are_refused(
    arguments: tuple[Any, ...], keywords: dict[str, Any], match: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        check_against_reference(
            lambda *a: np.sqrt(a[0]),
            lambda *a: mpmath.sqrt(a[0]),
            arguments,
            **keywords,
        )


def test_a_complex_reference_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="not a real number"):
        check_against_reference(np.sqrt, lambda x: mpmath.sqrt(-x), (_X,), ulps=1)


def test_an_evaluator_that_is_not_vectorized_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="vectorized"):
        check_against_reference(lambda x: 1.0, mpmath.sqrt, (_X,), ulps=1)
