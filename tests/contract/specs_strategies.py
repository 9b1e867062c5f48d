"""Contract entries of implicit_bias.strategies and implicit_bias.testing.

A strategy's "result" is the strategy itself; the contract also draws from
it (a nested Hypothesis run of a few examples) and checks that every drawn
value is finite and inside the advertised domain, so a strategy that
produces NaN or leaves its interval fails here. ``assert_ulp_close`` is
called on ``sqrt`` against ``mpmath.sqrt``, which is correctly rounded, so
every valid call passes; an infinite or NaN *result* is judged (it fails the
assertion), not refused, because judging results is what the function is for.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from implicit_bias.strategies import QuasiConvexPenalty
from tests.contract.harness import Exempt, Spec

_S = "implicit_bias.strategies"
_T = "implicit_bias.testing"

# Draws per strategy and call: enough to meet both ends of an interval, cheap
# enough to nest inside the contract's own Hypothesis run.
_DRAWS = 10


def _every_draw(check: Callable[[Any], None]) -> Callable[[Any], None]:
    """A ``check_result`` drawing from the returned strategy and checking each draw."""

    def check_strategy(strategy: Any) -> None:
        assert isinstance(strategy, st.SearchStrategy), type(strategy)

        # No shrinking: the failing draw is reported as drawn, which names the
        # strategy's arguments well enough, and shrinking a nested run took
        # seconds per failure.
        @settings(
            max_examples=_DRAWS,
            database=None,
            deadline=None,
            phases=[Phase.explicit, Phase.reuse, Phase.generate],
            suppress_health_check=[HealthCheck.nested_given, HealthCheck.too_slow],
        )
        @given(strategy)
        def draw(value: Any) -> None:
            check(value)

        draw()

    return check_strategy


def _finite_float_within(low: float, high: float) -> Callable[[Any], None]:
    def check(value: Any) -> None:
        assert isinstance(value, float), type(value)
        assert math.isfinite(value), value
        assert low <= value <= high, value

    return check


def _positive_finite(value: Any) -> None:
    assert isinstance(value, float), type(value)
    assert math.isfinite(value), value
    assert value > 0.0, value


def _finite_design(value: Any) -> None:
    assert isinstance(value, np.ndarray)
    assert value.ndim == 2
    assert value.size > 0
    assert value.dtype == np.float64
    assert np.isfinite(value).all()


_PENALTY_POINTS = np.linspace(-4.0, 6.0, 41)


def _admissible_penalty(value: Any) -> None:
    """omega(1) = 0, finite, decreasing left of 1 and increasing right of it."""
    assert isinstance(value, QuasiConvexPenalty), type(value)
    values = value(_PENALTY_POINTS)
    assert np.isfinite(values).all()
    assert value(1.0) == 0.0
    left, right = values[_PENALTY_POINTS < 1.0], values[_PENALTY_POINTS > 1.0]
    assert np.all(np.diff(left) < 0.0)
    assert np.all(np.diff(right) > 0.0)


@st.composite
def _exponent_interval(draw: Any, low: float, high: float) -> dict[str, float]:
    first = draw(st.floats(low, high))
    second = draw(st.floats(low, high))
    return {"min_exponent": min(first, second), "max_exponent": max(first, second)}


@st.composite
def _ratio_interval(draw: Any) -> dict[str, float]:
    first = draw(st.floats(1e-300, 1e300))
    second = draw(st.floats(1e-300, 1e300))
    return {"min_value": min(first, second), "max_value": max(first, second)}


def _sqrt_call() -> dict[str, Any]:
    x = np.linspace(0.5, 4.0, 8)
    return {
        "actual": np.sqrt(x),
        "reference": mpmath.sqrt,
        "ulps": 0.5,
        "arguments": (x,),
    }


@st.composite
def _sqrt_calls(draw: Any) -> dict[str, Any]:
    x = np.array(draw(st.lists(st.floats(0.0, 1e300), min_size=1, max_size=6)))
    return {"actual": np.sqrt(x), "arguments": (x,), "ulps": draw(st.floats(0.5, 8.0))}


def _distances_within_half_ulp(distances: Any) -> None:
    assert isinstance(distances, np.ndarray)
    assert np.all(distances <= 0.5)


def _are_the_profiles(names: Any) -> None:
    assert names == ("dev", "ci", "thorough"), names
    for name in names:
        settings.get_profile(name)


SPECS: dict[str, Spec | Exempt] = {
    # ---------------------------------------------------------------- strategies
    f"{_S}.PROFILES": Exempt("a constant: the names register_profiles registers"),
    f"{_S}.register_profiles": Spec(
        valid=dict,
        check_result=_are_the_profiles,
    ),
    f"{_S}.cosines": Spec(
        valid=dict, check_result=_every_draw(_finite_float_within(-1.0, 1.0))
    ),
    f"{_S}.angles": Spec(
        valid=dict, check_result=_every_draw(_finite_float_within(0.0, math.pi))
    ),
    f"{_S}.positive_scales": Spec(
        valid=lambda: {"min_exponent": -3.0, "max_exponent": 3.0},
        domains=_exponent_interval(-300.0, 300.0),
        invalid={"min_exponent": [-301.0, 4.0], "max_exponent": [301.0, -4.0]},
        max_examples=20,
        check_result=_every_draw(_positive_finite),
    ),
    f"{_S}.dimension_ratios": Spec(
        valid=lambda: {"min_value": 0.1, "max_value": 10.0},
        domains=_ratio_interval(),
        invalid={"min_value": [0.0, -1.0, 11.0], "max_value": [0.05]},
        max_examples=20,
        check_result=_every_draw(_positive_finite),
    ),
    f"{_S}.gaussian_designs": Spec(
        valid=lambda: {"n": 3, "d": 2},
        domains={"n": st.integers(1, 6), "d": st.integers(1, 6)},
        invalid={"n": [0, -1], "d": [0]},
        max_examples=20,
        check_result=_every_draw(_finite_design),
    ),
    f"{_S}.QuasiConvexPenalty": Spec(
        valid=lambda: {
            "left_coefficient": 1.0,
            "left_exponent": 2.0,
            "right_coefficient": 0.5,
            "right_exponent": 1.5,
            "quadratic_coefficient": 0.1,
            "saturating_coefficient": 0.2,
        },
        domains={
            "left_coefficient": st.floats(1e-3, 1e3),
            "left_exponent": st.floats(0.1, 16.0),
            "right_coefficient": st.floats(1e-3, 1e3),
            "right_exponent": st.floats(0.1, 16.0),
            "quadratic_coefficient": st.floats(0.0, 10.0),
            "saturating_coefficient": st.floats(0.0, 10.0),
        },
        invalid={
            "left_coefficient": [0.0, -1.0],
            "left_exponent": [0.0],
            "right_coefficient": [-2.0],
            "right_exponent": [-1.0],
            "quadratic_coefficient": [-0.1],
            "saturating_coefficient": [-0.1],
        },
        check_result=_admissible_penalty,
    ),
    f"{_S}.omegas": Spec(
        valid=lambda: {"min_exponent": 1.0, "max_exponent": 4.0},
        domains=_exponent_interval(0.1, 16.0),
        invalid={
            "min_exponent": [0.0, -1.0, 5.0],
            "max_exponent": [17.0, 0.5],
            "optional_terms": [1, "yes", None],
            "convex": [1, "yes", None],
        },
        max_examples=10,
        check_result=_every_draw(_admissible_penalty),
    ),
    # ------------------------------------------------------------------- testing
    f"{_T}.DEFAULT_PRECISIONS": Exempt("a constant: the escalation's digits"),
    f"{_T}.REFERENCE_TOLERANCE_ULPS": Exempt("a constant: a tolerance in ulps"),
    f"{_T}.assert_ulp_close": Spec(
        valid=_sqrt_call,
        domains=_sqrt_calls(),
        invalid={
            "ulps": [-0.5, True],
            "reference_tolerance_ulps": [-1.0],
            "precisions": [(16, 60), (60, 30), (30, 30), (30, True)],
            "reference": [1.0, "sqrt"],
            "arguments": [(np.ones(3),), (np.array([1.0, np.nan] * 4),), ("1.0",)],
        },
        skip_probes={
            ("actual", "nan-entry"): "a NaN result is judged: it fails the assertion",
            ("actual", "inf-entry"): "an infinite result is judged (inf matches an "
            "infinite reference), not refused",
            ("actual", "extra-axis"): "actual broadcasts against arguments: an axis "
            "of length 1 is in the domain",
            ("ulps", "tiny"): "a strict bound is in the domain: the points beyond "
            "it are judged by the AssertionError the function exists to raise",
        },
        max_examples=20,
        check_result=_distances_within_half_ulp,
    ),
}
