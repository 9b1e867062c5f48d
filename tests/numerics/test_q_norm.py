r"""Tests of :mod:`implicit_bias.numerics.q_norm` (ptft-diagonal-networks, eqs. 22-30).

Notation follows the module: :math:`q(z) = 2 - \sqrt{4+z^2} + z\,\mathrm{asinh}(z/2)`
(eq. 23), :math:`k_d = w_{1,d}^2 + w_{2,d}^2` and
:math:`\|\beta\|_Q = \sum_d k_d q(2\beta_d/k_d)` (eq. 22),
:math:`\|\beta\|_{1,2} = \sum_d \|\beta_{:,d}\|_2` (eq. 30).

Domain of the q tests: every finite float with :math:`|z| \le 10^{300}`
(decades :math:`d\cdot 10^k`, :math:`k \in [-300, 299]`, both signs, 0 and
subnormals). Errors are measured in ulps of the exact value
(:func:`q_potential_mp`, eq. 23 as printed at a precision raised by its
cancellation, itself checked against the integral
:math:`q(z) = \int_0^z \mathrm{asinh}(s/2)\,ds`).

The solvers are checked by what defines their answers, not by comparing with
themselves: feasibility, the KKT condition, no lower value along feasible
directions, an independent LP (basis pursuit), the limits of eq. (22), and
a duality gap recomputed here from the returned primal and dual points.
"""

from __future__ import annotations

import itertools
import math
import operator
from typing import Any

import mpmath
import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from scipy.optimize import linprog

from implicit_bias.errors import ConvergenceError, InvalidArgumentError
from implicit_bias.numerics.multitask import min_l12_interpolant
from implicit_bias.numerics.q_norm import (
    min_q_norm_interpolant,
    q_derivative,
    q_norm,
    q_potential,
    q_potential_mp,
)

#: Unit roundoff of float64, 2**-53.
U = 2.0**-53
#: The smallest subnormal, 2**-1074 (the spacing of floats near 0).
TINY = math.ulp(0.0)
#: Digits of the mpmath references.
DPS = 50
#: The overall ulp bound: the first-order rounding bound of the module
#: docstring is 4.6 ulp with NumPy's arcsinh (<= 1.0u) and tanh (<= 1.62u).
MAX_ULPS = 5.0

# ---------------------------------------------------------------------------
# Strategies.
# ---------------------------------------------------------------------------

_DECADES = st.builds(
    lambda mantissa, exponent: mantissa * 10.0**exponent,
    st.floats(min_value=1.0, max_value=10.0, exclude_max=True),
    st.integers(min_value=-300, max_value=299),
)
_SUBNORMALS = st.floats(min_value=TINY, max_value=2.0**-1022, exclude_max=True)
_NEAR_THE_SWITCH = st.floats(min_value=0.5, max_value=4.0)
_MAGNITUDES = st.one_of(_DECADES, _SUBNORMALS, _NEAR_THE_SWITCH)
_REALS = st.one_of(st.just(0.0), _MAGNITUDES, _MAGNITUDES.map(operator.neg))


def _ulps(computed: float, exact: Any) -> float:
    """|computed - exact| in units of the spacing of floats at the exact value."""
    # The ratio is formed in mpmath: near 0 the error itself is below the
    # float range.
    with mpmath.workdps(DPS):
        spacing = mpmath.mpf(math.ulp(float(exact)))
        return float(abs(mpmath.mpf(computed) - exact) / spacing)


# ---------------------------------------------------------------------------
# q: accuracy.
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("z", [1e-300, 1e-8, 0.3, 1.0, 2.0, 7.5, 1e4, -3.0])
def test_reference_matches_the_integral_form(z: float) -> None:
    # q(z) = int_0^z asinh(s/2) ds (q(0) = q'(0) = 0 and q' = asinh(z/2)), on [0, 1].
    with mpmath.workdps(DPS + 10):
        z_ = mpmath.mpf(z)
        # (Scaled to an O(1) integrand: mpmath.quad stops on an absolute error
        # estimate and is inaccurate for tiny integrands.)
        integral = (
            z_ * z_ * mpmath.quad(lambda u: mpmath.asinh(z_ * u / 2) / z_, [0, 1])
        )
        assert abs(q_potential_mp(z, dps=DPS) - integral) <= mpmath.mpf(10) ** (
            -DPS + 2
        ) * abs(integral)


@example(z=0.0)
@example(z=1.0)
@example(z=math.nextafter(1.0, 2.0))
@example(z=-2.0)
@example(z=1e-300)
@example(z=TINY)
@example(z=2.0**-537)  # q = 2**-1076: rounds to a subnormal (or 0)
@example(z=1e300)
@given(z=_REALS)
def test_q_potential_is_within_a_few_ulps(z: float) -> None:
    assert _ulps(float(q_potential(z)), q_potential_mp(z, dps=DPS)) <= MAX_ULPS


@example(z=1.0000000000000002)
@example(z=1.409)
@example(z=2.858)
@example(z=1e300)
@given(z=st.one_of(_DECADES, _NEAR_THE_SWITCH, _SUBNORMALS))
def test_q_potential_error_is_within_its_rounding_analysis(z: float) -> None:
    r"""Each error is inside the first-order bound of the module's analysis.

    Series branch (:math:`|z| \le 1`): :math:`3.2u\,q + 2^{-1074}`.
    Transcendental branch: :math:`(c_1|\varepsilon_a| + c_2|\varepsilon_t| + 2u)q`
    with the errors :math:`\varepsilon_a`, :math:`\varepsilon_t` that NumPy's
    arcsinh and tanh make at this very point, measured here against mpmath.
    """
    exact = q_potential_mp(z, dps=DPS)
    error = abs(mpmath.mpf(float(q_potential(z))) - exact)
    if abs(z) <= 1.0:
        bound = 3.2 * U * exact + TINY
    else:
        with mpmath.workdps(DPS):
            x = mpmath.mpf(0.5 * z)
            theta_float = float(np.arcsinh(0.5 * z))
            theta = mpmath.asinh(x)
            epsilon_a = (theta_float - theta) / theta
            half = mpmath.mpf(theta_float) / 2
            epsilon_t = (float(np.tanh(theta_float / 2)) - mpmath.tanh(half)) / (
                mpmath.tanh(half)
            )
            t = mpmath.tanh(theta / 2)
            difference = theta - t
            c1 = theta * (1 + t * t) / (2 * difference)
            c2 = t / difference
            bound = (c1 * abs(epsilon_a) + c2 * abs(epsilon_t) + 2.01 * U) * exact
    assert error <= bound, (float(error / exact / U), float(bound / exact / U))


def _log_uniform(rng: np.random.Generator, low: float, high: float, size: int) -> Any:
    return 10.0 ** rng.uniform(low, high, size) * rng.choice([-1.0, 1.0], size)


#: Bands of |z| (decimal exponents) and the largest error measured in each, in
#: ulps (benchmarks/bench_q_norm.py, 20000 points per band; NumPy 2.4, AVX-512).
_BANDS = [
    (-300, -155, 0.50),  # q is 0 or subnormal: one rounding to the subnormal grid
    (-155, -8, 0.50),
    (-8, -1, 1.43),
    (-1, 0, 1.75),
    (0, 0.5, 2.52),  # just above the switch |z| = 1
    (0.5, 1, 2.27),
    (1, 3, 2.43),
    (3, 300, 1.87),
]


@pytest.mark.parametrize(("low", "high", "measured"), _BANDS)
def test_q_potential_ulps_by_band(low: float, high: float, measured: float) -> None:
    rng = np.random.default_rng(2024)
    z = _log_uniform(rng, low, high, 2000)
    computed = q_potential(z)
    worst = max(
        _ulps(float(c), q_potential_mp(float(v), dps=DPS))
        for v, c in zip(z, computed, strict=True)
    )
    assert worst <= MAX_ULPS
    assert worst <= measured + 1.0  # no silent regression from what was measured


def test_q_potential_overflows_only_past_the_float_range() -> None:
    # q(z) ~ |z| log|z| passes 1.8e308 near |z| = 2.6e305.
    assert np.isfinite(q_potential(2.5e305))
    assert q_potential(-1e306) == np.inf
    assert q_potential(np.finfo(np.float64).max) == np.inf


# ---------------------------------------------------------------------------
# q: shape.
# ---------------------------------------------------------------------------


@given(z=_REALS)
def test_q_potential_is_even_bitwise(z: float) -> None:
    assert q_potential(-z) == q_potential(z)


@given(a=_REALS, b=_REALS)
def test_q_potential_is_convex(a: float, b: float) -> None:
    # Midpoint convexity; 32u covers the rounding of both sides (<= 5 ulp each)
    # and of the midpoint (q' z / q <= 2 amplifies it at most twice).
    middle = 0.5 * a + 0.5 * b
    chord = 0.5 * float(q_potential(a)) + 0.5 * float(q_potential(b))
    assert float(q_potential(middle)) <= chord * (1 + 32 * U) + 2 * TINY


@given(z=_REALS)
def test_q_potential_lies_between_zero_and_the_quadratic(z: float) -> None:
    # q'' = (4 + z^2)^(-1/2) <= 1/2, q(0) = q'(0) = 0: 0 <= q <= z^2/4.
    value = float(q_potential(z))
    assert value >= 0.0
    if abs(z) < 1e150:
        assert value <= (0.25 * z * z) * (1 + 8 * U) + TINY


@given(z=st.floats(min_value=0.0, max_value=1e-3))
def test_q_potential_small_z_expansion(z: float) -> None:
    # q = z^2/4 - z^4/192 + z^6/2560 - ...: an alternating series.
    quadratic = 0.25 * z * z
    value = float(q_potential(z))
    assert (
        abs(value - quadratic * (1 - z * z / 48))
        <= quadratic * (z**4 / 640 + 4 * U) + 2 * TINY
    )


@example(z=10.0)
@example(z=1e300)
@given(z=st.floats(min_value=10.0, max_value=1e300))
def test_q_potential_grows_like_z_log_z(z: float) -> None:
    # q = |z| log|z| - |z| + 2 - 1/|z| + 1/(2|z|^3) + O(|z|^-5): the remainder
    # after the first three terms lies in [-1/|z|, 0] for |z| >= 10.
    leading = z * math.log(z) - z
    value = float(q_potential(-z))
    assert -1.0 / z - 8 * U * value <= value - (leading + 2.0) <= 8 * U * value


@given(z=_REALS)
def test_q_derivative_is_the_derivative_of_the_reference(z: float) -> None:
    with mpmath.workdps(DPS):
        exact = mpmath.asinh(mpmath.mpf(z) / 2)
        if z != 0:
            # Independent of asinh: a numerical derivative of eq. (23), with a
            # step relative to z and the reference at twice the digits.
            slope = mpmath.diff(
                lambda t: q_potential_mp(t, dps=2 * DPS),
                z,
                h=abs(mpmath.mpf(z)) / 10**20,
            )
            assert abs(slope - exact) <= mpmath.mpf(10) ** (-30) * abs(exact)
    assert _ulps(float(q_derivative(z)), exact) <= 2.0


def test_q_accepts_arrays_and_keeps_their_shape() -> None:
    z = np.array([[0.0, -1.0, 3.0], [1e-200, 2e100, -0.5]])
    expected = [[float(q_potential(v)) for v in row] for row in z]
    assert q_potential(z).shape == (2, 3)
    assert q_potential(z).tolist() == expected
    assert q_derivative(z).shape == (2, 3)


# ---------------------------------------------------------------------------
# The Q-norm.
# ---------------------------------------------------------------------------


def _q_norm_reference(beta: Any, w1: Any, w2: Any) -> Any:
    """Eq. (22) term by term at 50 digits (k formed exactly, no overflow)."""
    with mpmath.workdps(DPS + 10):
        terms = []
        for b, u, v in zip(beta, w1, w2, strict=True):
            k = mpmath.mpf(u) ** 2 + mpmath.mpf(v) ** 2
            if b == 0:
                terms.append(mpmath.mpf(0))
                continue
            z = 2 * mpmath.mpf(b) / k
            # q_potential_mp takes any mpf; z may be far outside float range.
            terms.append(k * q_potential_mp(z, dps=DPS + 10))
        return mpmath.fsum(terms)


_WEIGHTS = st.builds(
    lambda mantissa, exponent, sign: sign * mantissa * 10.0**exponent,
    st.floats(min_value=1.0, max_value=10.0, exclude_max=True),
    st.integers(min_value=-150, max_value=150),
    st.sampled_from([-1.0, 1.0]),
)


@example(beta=[1.0, 0.0], w1=[1e-170, 0.0], w2=[0.0, 0.0])  # k underflows
@example(beta=[1e-300, 3.0], w1=[1e-160, 1e150], w2=[1e-160, 0.0])
@example(beta=[2.0, -1e-3], w1=[1.0, 0.1], w2=[0.5, 0.0])
@given(
    beta=st.lists(st.one_of(st.just(0.0), _WEIGHTS), min_size=1, max_size=6),
    w1=st.lists(_WEIGHTS, min_size=6, max_size=6),
    w2=st.lists(st.one_of(st.just(0.0), _WEIGHTS), min_size=6, max_size=6),
)
def test_q_norm_matches_reference(
    beta: list[float], w1: list[float], w2: list[float]
) -> None:
    w1, w2 = w1[: len(beta)], w2[: len(beta)]
    exact = _q_norm_reference(beta, w1, w2)
    value = float(q_norm(beta, w1, w2))
    # Per term: x = |beta|/k has <= 4 roundings (scaled k), q's <= 5 ulp and the
    # conditioning of D(x) is <= 1; the sum of nonnegative terms adds <= D u.
    assert abs(mpmath.mpf(value) - exact) <= 24 * U * exact + 16 * TINY


def test_q_norm_limits_of_the_initialization_scale() -> None:
    beta = np.array([0.3, -2.0, 0.0, 1e-3])
    ones = np.ones(4)
    # Lazy: k q(2b/k) = b^2/k - b^4/(12 k^3) + ..., an alternating series.
    for k in [1e3, 1e8, 1e100]:
        lazy = np.sum(beta**2) / k
        value = float(q_norm(beta, np.sqrt(k) * ones, 0 * ones))
        quartic = np.sum(beta**4) / (12 * k**3)
        assert -8 * U * lazy <= lazy - value <= quartic + 8 * U * lazy
    # Rich: 2|b| (log(2|b|/k) - 1) + O(k log): dominated by 2 log(1/k) ||b||_1.
    for k in [1e-20, 1e-100, 1e-300]:
        nonzero = beta != 0
        rich = np.sum(
            2 * np.abs(beta[nonzero]) * (np.log(2 * np.abs(beta[nonzero]) / k) - 1)
        )
        assert abs(q_norm(beta, np.sqrt(k) * ones, 0 * ones) - rich) <= 1e-12 * rich


@given(scale=st.integers(min_value=-60, max_value=60))
def test_q_norm_scales_with_beta_and_k_together(scale: int) -> None:
    # ||c beta||_{c k} = c ||beta||_k; c = 4**scale keeps w -> 2**scale w exact.
    beta = np.array([0.7, -3.0, 1e-4, 0.0])
    w1 = np.array([0.1, 1.0, 2.0, 0.0])
    w2 = np.array([0.0, 0.5, 1e-3, 0.0])
    base = float(q_norm(beta, w1, w2))
    scaled = float(q_norm(4.0**scale * beta, 2.0**scale * w1, 2.0**scale * w2))
    assert abs(scaled - 4.0**scale * base) <= 16 * U * 4.0**scale * base


def test_q_norm_broadcasts_over_leading_axes() -> None:
    rng = np.random.default_rng(7)
    beta = rng.standard_normal((3, 2, 5))
    w1 = rng.uniform(0.1, 2.0, 5)
    value = q_norm(beta, w1, 0.0)
    assert value.shape == (3, 2)
    for index in np.ndindex(3, 2):
        assert value[index] == q_norm(beta[index], w1, np.zeros(5))


def test_q_norm_of_a_zero_initialized_coordinate() -> None:
    assert q_norm([0.0, 1.0], [0.0, 1.0], [0.0, 0.0]) == q_norm([1.0], [1.0], [0.0])
    with pytest.raises(InvalidArgumentError, match=r"beta\[1\]=2.0 .* \+inf"):
        q_norm([1.0, 2.0], [1.0, 0.0], [0.0, 0.0])


@pytest.mark.parametrize(
    ("arguments", "match"),
    [
        (([np.nan], [1.0], [1.0]), "beta=nan is not finite"),
        (([1.0], [np.inf], [1.0]), "w1_init=inf is not finite"),
        (([1.0, 2.0], [1.0, 1.0, 1.0], [1.0]), "do not broadcast"),
        ((1.0, 1.0, 1.0), "broadcast to a scalar"),
        ((["a"], [1.0], [1.0]), "not a real number"),
    ],
)
def test_q_norm_rejects_bad_arguments(arguments: tuple[Any, ...], match: str) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        q_norm(*arguments)


@pytest.mark.parametrize(
    ("function", "value", "match"),
    [
        (q_potential, np.nan, "z=nan is not finite"),
        (q_potential, [1.0, -np.inf], "z=-inf is not finite"),
        (q_derivative, np.inf, "z=inf is not finite"),
        (q_potential, "x", "not a real number"),
    ],
)
def test_q_rejects_non_finite(function: Any, value: Any, match: str) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        function(value)


def test_q_potential_mp_rejects_non_finite() -> None:
    with pytest.raises(InvalidArgumentError, match="not finite"):
        q_potential_mp(math.inf)


# ---------------------------------------------------------------------------
# The minimum-Q-norm interpolant.
# ---------------------------------------------------------------------------


def _problem(seed: int, n: int, dimension: int) -> tuple[Any, Any]:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, dimension))
    teacher = rng.standard_normal(dimension) * (rng.random(dimension) < 0.4)
    teacher[0] = 1.0
    return x, x @ teacher


def _null_space(x: Any) -> Any:
    _, sigma, vt = np.linalg.svd(x)
    rank = int(np.sum(sigma > sigma[0] * max(x.shape) * np.finfo(float).eps))
    return vt[rank:].T


_SOLVER_CASES = st.fixed_dictionaries(
    {
        "seed": st.integers(min_value=0, max_value=2**32 - 1),
        "n": st.integers(min_value=1, max_value=8),
        "extra": st.integers(min_value=0, max_value=16),
        "log_k": st.floats(min_value=-24.0, max_value=8.0),
        "spread": st.floats(min_value=0.0, max_value=3.0),
    }
)


def _q_case(case: dict[str, Any]) -> tuple[Any, Any, Any, Any]:
    x, y = _problem(case["seed"], case["n"], case["n"] + case["extra"])
    rng = np.random.default_rng(case["seed"] + 1)
    w1 = 10.0 ** (0.5 * case["log_k"] + rng.uniform(0, case["spread"], x.shape[1]))
    w2 = rng.uniform(-1, 1, x.shape[1]) * w1
    return x, y, w1, w2


@example(case={"seed": 0, "n": 8, "extra": 16, "log_k": -24.0, "spread": 0.0})
@example(case={"seed": 1, "n": 3, "extra": 0, "log_k": 8.0, "spread": 3.0})
@given(case=_SOLVER_CASES)
def test_min_q_norm_interpolant_is_feasible_and_satisfies_kkt(
    case: dict[str, Any],
) -> None:
    x, y, w1, w2 = _q_case(case)
    beta = min_q_norm_interpolant(x, y, w1, w2)
    k = w1**2 + w2**2
    assert np.linalg.norm(x @ beta - y) <= 1e-10 * np.linalg.norm(y)
    # KKT: grad ||beta||_Q = 2 asinh(beta/k) lies in the row space of X.
    gradient = 2 * np.arcsinh(beta / k)
    projection = x.T @ np.linalg.lstsq(x.T, gradient, rcond=None)[0]
    assert np.linalg.norm(gradient - projection) <= 1e-10 * np.linalg.norm(gradient)


@given(case=_SOLVER_CASES, size=st.floats(min_value=1e-6, max_value=1.0))
def test_min_q_norm_interpolant_beats_feasible_perturbations(
    case: dict[str, Any], size: float
) -> None:
    x, y, w1, w2 = _q_case(case)
    beta = min_q_norm_interpolant(x, y, w1, w2)
    null = _null_space(x)
    best = float(q_norm(beta, w1, w2))
    rng = np.random.default_rng(case["seed"] + 2)
    for _ in range(4 * (null.shape[1] > 0)):
        direction = null @ rng.standard_normal(null.shape[1])
        direction *= size * np.linalg.norm(beta) / np.linalg.norm(direction)
        # Rounding of the sum: a few ulps of each term of eq. (22).
        assert float(q_norm(beta + direction, w1, w2)) >= best * (1 - 1e-13)


def _basis_pursuit(x: Any, y: Any) -> Any:
    dimension = x.shape[1]
    result = linprog(
        np.ones(2 * dimension),
        A_eq=np.hstack([x, -x]),
        b_eq=y,
        bounds=(0, None),
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10},
    )
    assert result.status == 0
    return result.x[:dimension] - result.x[dimension:]


@pytest.mark.parametrize("seed", [0, 1, 3])
def test_small_initializations_give_the_min_l1_interpolant(seed: int) -> None:
    # With s = X^T lambda, beta_d = k sinh(s_d/2) and s/2 ~ log(1/k) v, v the
    # basis-pursuit dual certificate (|v_d| = 1 on the support, <= 1 - margin
    # off it): off-support coordinates are O(k^margin), and so is the distance
    # to the (then unique) basis-pursuit solution. 10 k^margin bounds it.
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((10, 40))
    teacher = np.zeros(40)
    teacher[:3] = rng.standard_normal(3)
    y = x @ teacher
    l1 = _basis_pursuit(x, y)
    pursuit = min_l12_interpolant(x, y[:, None])
    assert np.allclose(pursuit.beta[0], l1, atol=1e-9)
    off = pursuit.beta[0] == 0
    margin = 1 - np.max(np.abs(x.T @ pursuit.dual[:, 0])[off])
    assert margin > 0.05
    distances = []
    for k in [1e-3, 1e-6, 1e-12, 1e-30, 1e-100]:
        beta = min_q_norm_interpolant(x, y, math.sqrt(k) * np.ones(40), np.zeros(40))
        distances.append(np.linalg.norm(beta - l1) / np.linalg.norm(l1))
        assert distances[-1] <= 10 * k**margin + 1e-12
    assert all(b < a for a, b in itertools.pairwise(distances))


@pytest.mark.parametrize("k", [1e3, 1e6, 1e12])
def test_large_initializations_give_the_weighted_least_norm_interpolant(
    k: float,
) -> None:
    # k q(2b/k) = b^2/k - b^4/(12 k^3) + ...: the minimizer of sum b^2/k_d,
    # K X^T (X K X^T)^-1 y, up to a relative O((max|b|/k)^2 / 6).
    x, y = _problem(6, 6, 15)
    scales = np.random.default_rng(0).uniform(0.5, 2.0, 15)
    weights = k * scales**2
    least = weights * (x.T @ np.linalg.solve((x * weights) @ x.T, y))
    beta = min_q_norm_interpolant(x, y, np.sqrt(k) * scales, np.zeros(15))
    bound = (np.max(np.abs(least)) / np.min(weights)) ** 2 + 1e-12
    assert np.linalg.norm(beta - least) <= bound * np.linalg.norm(least)


def test_min_q_norm_interpolant_special_systems() -> None:
    x, y = _problem(8, 4, 9)
    w = np.full(9, 0.3)
    # y = 0: beta = 0.
    assert min_q_norm_interpolant(x, 0 * y, w, 0.0).tolist() == [0.0] * 9
    # Repeated rows (rank-deficient X) and more rows than columns.
    doubled = min_q_norm_interpolant(np.vstack([x, x]), np.concatenate([y, y]), w, 0.0)
    assert np.allclose(doubled, min_q_norm_interpolant(x, y, w, 0.0), atol=1e-12)
    tall = x[:, :3]
    target = tall @ np.array([1.0, -2.0, 0.5])
    assert np.allclose(min_q_norm_interpolant(tall, target, 1.0, 0.0), [1.0, -2.0, 0.5])
    # A coordinate initialized at zero stays at zero.
    frozen = w.copy()
    frozen[2] = 0.0
    beta = min_q_norm_interpolant(x, y, frozen, 0.0)
    assert beta[2] == 0.0
    assert np.linalg.norm(x @ beta - y) <= 1e-10 * np.linalg.norm(y)


def test_min_q_norm_interpolant_reports_slow_convergence() -> None:
    x, y = _problem(3, 5, 20)
    with pytest.raises(ConvergenceError, match="max_iter"):
        min_q_norm_interpolant(x, y, 1e-100 * np.ones(20), 0.0, max_iter=3)


_X = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])


@pytest.mark.parametrize(
    ("arguments", "keywords", "match"),
    [
        ((_X[0], [1.0], 1.0, 0.0), {}, "X has shape .* must have 2 axes"),
        ((_X, [1.0, 2.0, 3.0], 1.0, 0.0), {}, "one row per row of X"),
        ((_X, [1.0, np.nan], 1.0, 0.0), {}, "y=nan is not finite"),
        ((_X, [1.0, 2.0], [1.0, 1.0], 0.0), {}, r"broadcast to \(3,\)"),
        ((np.ones((2, 3)), [1.0, 2.0], 1.0, 0.0), {}, "not in the column space"),
        ((_X * [1, 0, 1], [1.0, 2.0], [1.0, 1.0, 0.0], 0.0), {}, "columns with k > 0"),
        ((_X, [1.0, 2.0], 1e200, 0.0), {}, "not a finite positive"),
        ((_X, [1.0, 2.0], 1.0, 0.0), {"tol": 0.0}, r"tol=0.0 is outside \(0, 1\)"),
        ((_X, [1.0, 2.0], 1.0, 0.0), {"max_iter": 0}, "max_iter=0 is below 1"),
        ((_X, [1.0, 2.0], 1.0, 0.0), {"max_iter": 2.5}, "not an integer"),
        ((np.ones((0, 3)), [], 1.0, 0.0), {}, "n, D >= 1"),
    ],
)
def test_min_q_norm_interpolant_rejects_bad_arguments(
    arguments: tuple[Any, ...], keywords: dict[str, Any], match: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        min_q_norm_interpolant(*arguments, **keywords)


# ---------------------------------------------------------------------------
# The l_{1,2} norm and its minimum-norm interpolant.
# ---------------------------------------------------------------------------
