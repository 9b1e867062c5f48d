"""assert_ulp_close: distances in ulps, escalation of precision, failure messages."""

from __future__ import annotations

import math
from typing import Any

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.testing import assert_ulp_close


def exp_remainder_reference(x: Any) -> Any:
    r"""(e^x - 1 - x)/x^2 as printed: cancels about -2 log10|x| digits near 0."""
    return (mpmath.exp(x) - 1 - x) / x**2


def exp_remainder_series(x: np.ndarray) -> np.ndarray:
    r"""(e^x - 1 - x)/x^2 = 1/2 + x/6 + x^2/24 + O(x^3), for |x| <= 1e-6.

    The truncation error x^3/120 < 1e-20 is far below an ulp of 1/2; the
    Horner form has 2 roundings on terms << 1/2 plus 1 on the sum: <= 1 ulp.
    """
    return 0.5 + x * (1.0 / 6.0 + x / 24.0)


# Points where the reference cancels 18-22 digits: at 30 digits it keeps 8-12,
# too few to judge a float64 result; at 60 it keeps 38 or more.
SMALL_X = np.array([1e-11, -3e-11, 1e-10, 2.5e-9, -1e-9])


def test_correctly_rounded_operations_lie_within_half_an_ulp() -> None:
    x = np.linspace(0.25, 64.0, 50)
    distances = assert_ulp_close(np.sqrt(x), mpmath.sqrt, 0.5, arguments=(x,))
    assert distances.shape == x.shape
    assert distances.max() <= 0.5


def test_the_distance_is_measured_in_ulps_of_the_reference() -> None:
    one_ulp_above = np.nextafter(1.0, 2.0)
    distance = assert_ulp_close(one_ulp_above, lambda: mpmath.mpf(1), 1.0)
    assert distance == 1.0
    with pytest.raises(AssertionError, match=r"distance  = 1 ulps"):
        assert_ulp_close(one_ulp_above, lambda: mpmath.mpf(1), 0.99)


@given(st.floats(-1e100, 1e100), st.floats(-1e100, 1e100))
def test_products_are_correctly_rounded(x: float, y: float) -> None:
    assert_ulp_close(x * y, lambda a, b: a * b, 0.5, arguments=(x, y))


def test_a_wrong_implementation_is_caught_with_its_worst_point() -> None:
    # The printed form in float64 loses all digits near 0: wrong by far more
    # than the 1 ulp of the series.
    with np.errstate(all="ignore"):
        naive = (np.exp(SMALL_X) - 1.0 - SMALL_X) / SMALL_X**2
    with pytest.raises(AssertionError) as failure:
        assert_ulp_close(naive, exp_remainder_reference, 1, arguments=(SMALL_X,))
    message = str(failure.value)
    assert message.startswith("5 of 5 points lie more than 1 ulps")
    assert "at 120 digits" in message
    assert "worst: index (" in message


def test_escalation_rescues_a_reference_that_cancels_at_30_digits() -> None:
    series = exp_remainder_series(SMALL_X)
    # The 30-digit reference itself is wrong at the float64 level ...
    with mpmath.workdps(30):
        coarse = [float(exp_remainder_reference(mpmath.mpf(x))) for x in SMALL_X]
    assert not np.allclose(coarse, series, rtol=1e-12, atol=0)
    # ... so without escalation the correct series would be condemned,
    with pytest.raises(AssertionError, match="at 30 digits"):
        assert_ulp_close(
            series, exp_remainder_reference, 1, arguments=(SMALL_X,), precisions=(30,)
        )
    # while with it the series is judged by converged references.
    distances = assert_ulp_close(
        series, exp_remainder_reference, 1, arguments=(SMALL_X,)
    )
    assert distances.max() <= 1.0


def test_an_unconverged_reference_fails_even_when_the_result_is_right() -> None:
    # At x = 1e-40 the reference cancels 80 digits: 0 at 60 digits, 1/2 at 120.
    x = np.array([1e-40])
    with pytest.raises(AssertionError) as failure:
        assert_ulp_close(
            exp_remainder_series(x), exp_remainder_reference, 1, arguments=(x,)
        )
    message = str(failure.value)
    assert "did not converge" in message
    assert "(at 60 digits)" in message
    assert "lie more than" not in message
    # Passing higher precisions lets it converge.
    assert_ulp_close(
        exp_remainder_series(x),
        exp_remainder_reference,
        1,
        arguments=(x,),
        precisions=(30, 120, 240),
    )


def test_only_mismatched_points_are_escalated() -> None:
    calls: list[int] = []

    def counting_reference(x: Any) -> Any:
        calls.append(mpmath.mp.dps)
        return exp_remainder_reference(x)

    x = np.concatenate([SMALL_X[:2], [0.5, 1.5, 2.0]])
    with mpmath.workdps(50):
        rounded = [float(exp_remainder_reference(mpmath.mpf(v))) for v in x]
    actual = np.where(np.abs(x) < 1e-6, exp_remainder_series(x), rounded)
    assert_ulp_close(actual, counting_reference, 1, arguments=(x,))
    # Every point once at 30 digits, the two cancelling ones again at 60 and 120.
    assert sorted(calls) == [30] * 5 + [60] * 2 + [120] * 2


def test_arguments_broadcast_and_the_failure_names_the_index() -> None:
    x = np.linspace(1.0, 3.0, 3)[:, None]
    y = np.linspace(-2.0, 2.0, 4)[None, :]
    product = x * y
    distances = assert_ulp_close(product, lambda a, b: a * b, 0.5, arguments=(x, y))
    assert distances.shape == (3, 4)
    product[1, 2] = np.nextafter(product[1, 2], np.inf)
    product[1, 2] = np.nextafter(product[1, 2], np.inf)
    with pytest.raises(AssertionError, match=r"index \(1, 2\), arguments \(2.0, "):
        assert_ulp_close(product, lambda a, b: a * b, 1.0, arguments=(x, y))


def test_nan_fails_and_matching_overflow_passes() -> None:
    with pytest.raises(AssertionError, match="actual    = nan"):
        assert_ulp_close(math.nan, lambda: mpmath.mpf(1), 1e6)
    with np.errstate(over="ignore"):
        overflowed = np.exp(np.array([800.0]))
    assert_ulp_close(overflowed, mpmath.exp, 0.5, arguments=([800.0],))
    with pytest.raises(AssertionError, match="inf ulps"):
        assert_ulp_close(np.finfo(float).max, mpmath.exp, 0.5, arguments=(800.0,))


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"ulps": -1.0}, "ulps=-1.0 is not a finite number >= 0"),
        ({"ulps": math.nan}, "ulps=nan"),
        ({"ulps": "one"}, "ulps='one' is not a real number"),
        ({"reference_tolerance_ulps": math.inf}, "reference_tolerance_ulps=inf"),
        ({"precisions": ()}, "precisions=\\(\\) is empty"),
        ({"precisions": (10, 60)}, "precisions contains 10, below 17"),
        ({"precisions": (30.0,)}, "precisions contains 30.0, not an integer"),
        ({"precisions": (60, 30)}, "not strictly increasing"),
        ({"reference": 1.0}, "reference=1.0 is not callable"),
        ({"arguments": (np.ones(3),)}, "do not broadcast"),
        ({"arguments": (["a"],)}, "arguments\\[0\\]=\\['a'\\] is not a real"),
        ({"reference": lambda x: mpmath.sqrt(-x)}, "not a real number"),
        # Issue 22: NumPy's inhomogeneous-shape ValueError and an OverflowError
        # escaped before the argument was named.
        (
            {"actual": [[1.0, 2.0], [3.0]]},
            "actual=\\[\\[1.0, 2.0\\], \\[3.0\\]\\] is a ragged",
        ),
        ({"arguments": ([[1.0, 2.0], [3.0]],)}, "arguments\\[0\\]=.* is a ragged"),
        ({"actual": 10**400}, "actual=1000.* is not a real number"),
        ({"arguments": ([1.0, 10**400],)}, "arguments\\[0\\]=.* is not a real number"),
        ({"actual": 1.0 + 1.0j}, "actual=\\(1\\+1j\\) is complex"),
    ],
)
def test_invalid_arguments_are_rejected(keywords: dict[str, Any], message: str) -> None:
    call: dict[str, Any] = {
        "actual": np.ones(2),
        "reference": mpmath.sqrt,
        "ulps": 0.5,
        "arguments": (np.ones(2),),
    }
    call.update(keywords)
    with pytest.raises(InvalidArgumentError, match=message):
        assert_ulp_close(
            call.pop("actual"), call.pop("reference"), call.pop("ulps"), **call
        )
