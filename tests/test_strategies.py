"""The public Hypothesis strategies draw from the domains they advertise."""

from __future__ import annotations

import math
import pickle
import warnings
from typing import Any

import mpmath
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
MAX = float(np.finfo(np.float64).max)


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


def test_dimension_ratios_reach_the_float64_extremes() -> None:
    # Built inside the test: before the fix of issue 22 building it raised.
    @given(dimension_ratios(5e-324, MAX))
    def draw(gamma: float) -> None:
        assert 5e-324 <= gamma <= MAX

    draw()


def test_dimension_ratios_draw_up_to_the_float64_maximum() -> None:
    # Issue 22: 10.0 ** log10(MAX) raised OverflowError (Python's float power
    # does not return inf); the draw there is the bound itself.
    assert find(dimension_ratios(0.1, MAX), lambda gamma: gamma > 1e308) <= MAX
    assert find(dimension_ratios(MAX, MAX), lambda gamma: True) == MAX


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


def _penalty_mp(omega: QuasiConvexPenalty, v: float) -> float:
    """A textbook omega(v) at 50 digits, for the float64 evaluation to match."""
    with mpmath.workdps(50):
        d = mpmath.mpf(v) - 1
        if d < 0:
            power = omega.left_coefficient * abs(d) ** omega.left_exponent
        else:
            power = omega.right_coefficient * abs(d) ** omega.right_exponent
        quadratic = omega.quadratic_coefficient * d**2
        saturating = omega.saturating_coefficient * (1 - mpmath.exp(-(d**2)))
        return float(power + quadratic + saturating)


@pytest.mark.parametrize(
    ("omega", "v"),
    [
        # |v-1|^p underflows to 0 where c |v-1|^p = 1e-300 is a float.
        (QuasiConvexPenalty(1e100, 100.0, 1.0, 1.0), 1.0 - 1e-4),
        # |v-1|^p overflows where c |v-1|^p = 1e300 is a float.
        (QuasiConvexPenalty(1.0, 1.0, 1e-100, 100.0), 1.0 + 1e4),
        # (v-1)^2 overflows where a (v-1)^2 = 1e300 is a float.
        (QuasiConvexPenalty(1.0, 1.0, 1.0, 1.0, 1e-10), 1.0 + 1e155),
        # The corner of the domain: every term at its largest for |v-1| <= 100.
        (QuasiConvexPenalty(1e100, 100.0, 1e100, 100.0, 1e100, 1e100), -99.0),
        (QuasiConvexPenalty(1e100, 100.0, 1e100, 100.0, 1e100, 1e100), 101.0),
        (QuasiConvexPenalty(1.0, 2.0, 1.0, 0.5, 0.5, 2.0), 1.0 + 2.0**-52),
    ],
)
def test_penalty_terms_survive_an_intermediate_over_or_underflow(
    omega: QuasiConvexPenalty, v: float
) -> None:
    # Issue 22: the plain c * |v-1|**p gave 0 or inf for these float results.
    # The exp-log form errs by about (|log c| + 2 |p log d|) eps < 1e-12.
    value = float(omega(v))
    assert math.isfinite(value)
    assert value == pytest.approx(_penalty_mp(omega, v), rel=1e-12, abs=0.0)


def test_penalty_beyond_float64_is_inf_without_a_warning() -> None:
    # Issue 22: numpy's RuntimeWarning (overflow encountered in power) escaped.
    omega = QuasiConvexPenalty(1.0, 2.0, 1.0, 2.0, 1.0, 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        values = omega(np.array([-1e200, 1e200, MAX, -MAX]))
    assert np.all(values == np.inf)


@pytest.mark.parametrize(
    ("v", "message"),
    [
        (None, "v=None is not a real number"),
        ("2.0", "v='2.0' is a string"),
        (math.nan, "v=nan is not finite"),
        (math.inf, "v=inf is not finite"),
        ([[0.0, 1.0], [2.0]], "v=.* is a ragged nested sequence"),
        (1.0 + 1.0j, "v=\\(1\\+1j\\) is complex"),
    ],
)
def test_penalty_refuses_a_v_that_is_not_finite_and_real(v: Any, message: str) -> None:
    # Issue 22: None and NaN gave a silent NaN, "2.0" was read as 2.0.
    with pytest.raises(InvalidArgumentError, match=message):
        QuasiConvexPenalty(1.0, 2.0, 1.0, 2.0)(v)


@given(omegas(min_exponent=0.01, max_exponent=0.01, optional_terms=False))
def test_omegas_at_the_smallest_exponent_are_strictly_monotone(
    omega: QuasiConvexPenalty,
) -> None:
    # |v-1|^0.01 changes by about 0.01 h/d >= 1e-5 between grid points.
    values = omega(V_GRID)
    left, right = values[V_GRID <= 1.0], values[V_GRID >= 1.0]
    assert np.all(np.diff(left) < 0.0)
    assert np.all(np.diff(right) > 0.0)


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
        # Issue 22: the float64 maximum overflowed omega when called, and an
        # integer beyond float64 raised OverflowError.
        (
            QuasiConvexPenalty,
            (MAX, 1.0, 1.0, 1.0),
            "left_coefficient=1.79.* is "
            "outside \\(0, 1e\\+100\\]: .* finite for \\|v-1\\| <= 100",
        ),
        (
            QuasiConvexPenalty,
            (1.0, MAX, 1.0, 1.0),
            "left_exponent=1.79.* is outside \\(0, 100\\]",
        ),
        (QuasiConvexPenalty, (1.0, 1.0, 1e101, 1.0), "right_coefficient=1e\\+101"),
        (QuasiConvexPenalty, (1.0, 1.0, 1.0, 101.0), "right_exponent=101.0 is outside"),
        (
            QuasiConvexPenalty,
            (1.0, 1.0, 1.0, 1.0, MAX),
            "quadratic_coefficient=1.79.* is outside \\[0, 1e\\+100\\]",
        ),
        (QuasiConvexPenalty, (1.0, 1.0, 1.0, 1.0, 0.0, 1e101), "saturating_coeff"),
        (
            QuasiConvexPenalty,
            (10**400, 1.0, 1.0, 1.0),
            "left_coefficient=1000.* is beyond the float64 range",
        ),
        (dimension_ratios, (0.1, 10**400), "max_value=1000.* is beyond the float64"),
        (positive_scales, (0, 10**400), "max_exponent=1000.* is beyond the float64"),
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
        ({"min_exponent": 0.0}, "min_exponent=0.0 is outside \\[0.01, 16\\]"),
        ({"max_exponent": 20.0}, "max_exponent=20.0 is outside \\[0.01, 16\\]"),
        # Issue 22: exponents down to 5e-324 drew penalties flat in float64.
        ({"min_exponent": 5e-324}, "min_exponent=5e-324 is outside \\[0.01, 16\\]"),
        ({"min_exponent": 0.005}, "flat to rounding"),
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
