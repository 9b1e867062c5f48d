"""The public Hypothesis strategies draw from the domains they advertise."""

from __future__ import annotations

import math
import pickle
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, find, given, settings
from hypothesis import strategies as st

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.strategies import (
    PROFILES,
    QuasiConvexPenalty,
    angles,
    cosines,
    dimension_ratios,
    gaussian_designs,
    omegas,
    positive_scales,
    register_profiles,
)

# Points on both sides of the minimizer, wide enough to reach every term's tail
# and with moderate magnitudes so that |v-1|**4 stays far from overflow.
V_GRID = np.linspace(-4.0, 6.0, 2001)


@given(cosines())
def test_cosines_lie_in_the_closed_unit_interval(rho: float) -> None:
    assert -1.0 <= rho <= 1.0


@given(angles())
def test_angles_lie_in_zero_to_pi(theta: float) -> None:
    assert 0.0 <= theta <= math.pi


@given(positive_scales(-4, 2))
def test_positive_scales_lie_in_their_decades(scale: float) -> None:
    assert 1e-4 <= scale <= 1e2


def test_positive_scales_reach_every_decade() -> None:
    # Log-uniform sampling: the lowest decade is as likely as the highest, so a
    # search finds values there (a uniform draw would almost never).
    smallest = find(positive_scales(-6, 6), lambda scale: scale < 1e-5)
    largest = find(positive_scales(-6, 6), lambda scale: scale > 1e5)
    assert 1e-6 <= smallest < 1e-5
    assert 1e5 < largest <= 1e6


@given(dimension_ratios(0.25, 8.0))
def test_dimension_ratios_lie_in_their_interval(gamma: float) -> None:
    assert 0.25 <= gamma <= 8.0


def test_dimension_ratios_shrink_to_the_interpolation_threshold() -> None:
    assert find(dimension_ratios(), lambda gamma: True) == 1.0


@given(gaussian_designs(st.integers(1, 6), st.integers(1, 4)))
def test_gaussian_designs_have_the_drawn_shape(x: np.ndarray) -> None:
    assert x.dtype == np.float64
    assert x.ndim == 2
    assert 1 <= x.shape[0] <= 6
    assert 1 <= x.shape[1] <= 4
    assert np.all(np.isfinite(x))


@given(gaussian_designs(3, 5))
def test_gaussian_designs_accept_fixed_shapes(x: np.ndarray) -> None:
    assert x.shape == (3, 5)


def test_gaussian_designs_have_standard_normal_entries() -> None:
    # Pool many draws: the mean of N entries has standard error 1/sqrt(N) and
    # the variance (2/N)**0.5; 5 standard errors bound a false alarm by 1e-6.
    draws: list[np.ndarray] = []

    @settings(max_examples=40, derandomize=True, database=None)
    @given(gaussian_designs(50, 20))
    def collect(x: np.ndarray) -> None:
        draws.append(x)

    collect()
    entries = np.concatenate([x.ravel() for x in draws])
    count = entries.size
    assert abs(entries.mean()) < 5 / math.sqrt(count)
    assert abs(entries.var() - 1.0) < 5 * math.sqrt(2 / count)


def test_gaussian_designs_shrink_to_seed_zero() -> None:
    minimal = find(gaussian_designs(st.integers(1, 4), 2), lambda x: True)
    assert minimal.shape == (1, 2)
    np.testing.assert_array_equal(
        minimal, np.random.default_rng(0).standard_normal((1, 2))
    )


@given(omegas())
def test_omegas_vanish_at_one_only(omega: QuasiConvexPenalty) -> None:
    assert omega(1.0) == 0.0
    values = omega(V_GRID)
    assert values.dtype == np.float64
    assert values.shape == V_GRID.shape
    away = V_GRID != 1.0
    assert np.all(values[away] > 0.0)


@given(omegas())
def test_omegas_decrease_then_increase(omega: QuasiConvexPenalty) -> None:
    values = omega(V_GRID)
    left, right = values[V_GRID <= 1.0], values[V_GRID >= 1.0]
    assert np.all(np.diff(left) < 0.0)
    assert np.all(np.diff(right) > 0.0)


@given(
    omega=omegas(),
    v=st.floats(-4.0, 6.0),
    w=st.floats(-4.0, 6.0),
    weight=st.floats(0.05, 0.95),
)
def test_omegas_are_strictly_quasi_convex(
    omega: QuasiConvexPenalty, v: float, w: float, weight: float
) -> None:
    # The definition: omega(t v + (1-t) w) < max(omega(v), omega(w)) for v != w.
    # Points closer than 1e-2 would make the strict inequality a question of
    # rounding rather than of the penalty.
    assume(abs(v - w) >= 1e-2)
    between = weight * v + (1.0 - weight) * w
    assert omega(between) < max(omega(v), omega(w))


@given(omegas(), st.floats(1e-12, 1e-3))
def test_omegas_are_continuous_at_the_minimizer(
    omega: QuasiConvexPenalty, step: float
) -> None:
    # Every term is bounded by its coefficient times |v-1|**min(p, 2) for
    # |v-1| <= 1, so omega(1 +- h) -> 0 with that rate.
    coefficients = (
        omega.left_coefficient
        + omega.right_coefficient
        + omega.quadratic_coefficient
        + omega.saturating_coefficient
    )
    exponent = min(omega.left_exponent, omega.right_exponent, 2.0)
    bound = coefficients * step**exponent * (1 + 1e-12)
    assert omega(1.0 - step) <= bound
    assert omega(1.0 + step) <= bound


@given(omegas())
def test_omegas_pickle_and_rebuild_from_their_repr(omega: QuasiConvexPenalty) -> None:
    unpickled = pickle.loads(pickle.dumps(omega))
    rebuilt = eval(repr(omega), {"QuasiConvexPenalty": QuasiConvexPenalty})
    np.testing.assert_array_equal(unpickled(V_GRID), omega(V_GRID))
    np.testing.assert_array_equal(rebuilt(V_GRID), omega(V_GRID))
    assert str(omega).startswith("omega(v) = ")


def test_omegas_shrink_to_the_absolute_deviation() -> None:
    minimal = find(omegas(), lambda omega: True)
    assert minimal == QuasiConvexPenalty(1.0, 1.0, 1.0, 1.0, 0.0, 0.0)
    assert str(minimal) == "omega(v) = 1*|v-1|^1 [v<1] + 1*|v-1|^1 [v>=1]"


def test_omegas_include_non_convex_penalties() -> None:
    # The saturating term makes omega concave far from 1: the second difference
    # is negative somewhere, so the strategy covers quasi-convex non-convex cases.
    def concave_somewhere(omega: QuasiConvexPenalty) -> bool:
        return bool(np.any(np.diff(omega(V_GRID), 2) < 0.0))

    assert concave_somewhere(find(omegas(), concave_somewhere))


@given(omegas(optional_terms=False, min_exponent=2.0, max_exponent=2.0))
def test_omegas_without_optional_terms_are_asymmetric_quadratics(
    omega: QuasiConvexPenalty,
) -> None:
    assert omega.quadratic_coefficient == 0.0
    assert omega.saturating_coefficient == 0.0
    assert omega(0.0) == omega.left_coefficient
    assert omega(2.0) == omega.right_coefficient


@given(omegas(convex=True))
def test_convex_omegas_are_convex(omega: QuasiConvexPenalty) -> None:
    # Second differences of a convex function are >= 0; the bound allows the
    # rounding of three evaluations of magnitude up to max |omega| on the grid.
    values = omega(V_GRID)
    rounding = 8 * np.finfo(float).eps * np.max(values)
    assert omega.saturating_coefficient == 0.0
    assert np.all(np.diff(values, 2) >= -rounding)


def test_register_profiles_matches_the_documented_settings() -> None:
    assert register_profiles() == PROFILES
    assert settings.get_profile("dev").max_examples == 50
    ci = settings.get_profile("ci")
    assert ci.derandomize
    assert ci.deadline is None
    assert settings.get_profile("thorough").max_examples == 10_000


@pytest.mark.parametrize(
    ("factory", "arguments", "message"),
    [
        (positive_scales, (3.0, -3.0), "interval is empty"),
        (positive_scales, (math.nan, 1.0), "min_exponent=nan is not finite"),
        (positive_scales, ("1", 2.0), "is not a real number"),
        (positive_scales, (-400.0, 0.0), "outside \\[-300, 300\\]"),
        (dimension_ratios, (0.0, 1.0), "min_value=0.0 is not positive"),
        (dimension_ratios, (2.0, 1.0), "interval is empty"),
        (gaussian_designs, (0, 3), "n=0 is below 1"),
        (gaussian_designs, (3, 2.5), "d=2.5 is neither an integer"),
        (QuasiConvexPenalty, (-1.0, 1.0, 1.0, 1.0), "left_coefficient=-1.0"),
        (QuasiConvexPenalty, (1.0, 1.0, 1.0, 0.0), "right_exponent=0.0"),
        (QuasiConvexPenalty, (1.0, 1.0, 1.0, 1.0, -0.5), "quadratic_coefficient"),
        (QuasiConvexPenalty, (1.0, 1.0, 1.0, 1.0, 0.0, math.inf), "saturating"),
    ],
)
def test_invalid_arguments_are_rejected(
    factory: Any, arguments: tuple[Any, ...], message: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        factory(*arguments)


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"min_exponent": 0.0}, "outside \\(0, 16\\]"),
        ({"max_exponent": 20.0}, "outside \\(0, 16\\]"),
        ({"min_exponent": 3.0, "max_exponent": 2.0}, "interval is empty"),
        ({"min_exponent": 0.5, "convex": True}, "is below 1 with convex=True"),
    ],
)
def test_omegas_reject_invalid_exponents(
    keywords: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        omegas(**keywords)


def test_gaussian_designs_reject_a_size_strategy_drawing_zero() -> None:
    @settings(max_examples=5, database=None)
    @given(gaussian_designs(st.just(0), 2))
    def draw(x: np.ndarray) -> None:
        raise AssertionError("unreachable: the draw itself must fail")

    with pytest.raises(InvalidArgumentError, match="axis below 1"):
        draw()
