r"""Tests of :mod:`implicit_bias.numerics.tangent_features` (adaptive-tangent-features).

:math:`\tilde\omega(v) = \min_{z\ge1}\omega(z) + v^2/z^2` (eq. 12) and
:math:`(\omega_1\oplus\omega_2)(v) = \min_{1\le z\le v}\omega_1(z)+\omega_2(v/z)`
(eq. 11). References: the mpmath minimizations at 30-50 digits and the SymPy
parametric closed forms of :mod:`implicit_bias.theory.tangent_features`.
Property tests draw penalties from :func:`implicit_bias.strategies.omegas`
(continuous, strictly quasi-convex, :math:`\omega(1) = 0`, coercive because
the power term grows without bound) and check Propositions 3 and 4.

Tolerances: the closed forms round a bounded number of times (Newton's method
ends at rounding; the value is a sum of two non-negative terms), observed
<= 4e-16, tested at ``CLOSED_RTOL`` = 1e-13; the generic minimizer promises
``RTOL`` = 1e-10 (its section search shrinks two grid cells to 1e-19),
observed below 1e-13.
"""

from __future__ import annotations

import math
import re
from typing import Any

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import example, given
from hypothesis import strategies as st

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.tangent_features import (
    Penalty,
    absolute_deviation,
    join_penalty,
    omega_join,
    omega_join_mp,
    omega_tilde,
    omega_tilde_mp,
    power_deviation,
    squared_deviation,
)
from implicit_bias.numerics.tangent_features.effective_penalties import (
    _SECTION_POINTS,
    _SECTION_STEPS,
    _section_minimize,
)
from implicit_bias.strategies import QuasiConvexPenalty, omegas
from implicit_bias.theory import tangent_features as theory

#: The accuracy contract of the generic minimizers (relative).
RTOL = 1e-10
#: The closed forms: a few roundings (see the module docstring).
CLOSED_RTOL = 1e-13
EPS = float(np.finfo(np.float64).eps)

V_POINTS = [1e-8, 1e-3, 0.3, 1 / math.sqrt(2), 1.0, 2.0, 17.0, 1e4, 1e9]


def _relative(a: float, b: float) -> float:
    return abs(a - b) / max(abs(b), 1e-300)


# --- closed forms against references


@pytest.mark.parametrize(
    "penalty",
    [
        squared_deviation,
        absolute_deviation,
        power_deviation(0.5),
        power_deviation(1.5),
        power_deviation(3.0),
    ],
    ids=lambda penalty: penalty.name,
)
def test_closed_form_tilde_matches_mp_reference(penalty: Penalty) -> None:
    fast = omega_tilde(penalty, np.array(V_POINTS))
    for v, computed in zip(V_POINTS, fast, strict=True):
        exact = omega_tilde_mp(penalty, v, dps=30)  # mpmath, dps=30
        assert _relative(float(computed), float(exact)) <= CLOSED_RTOL, v


@pytest.mark.parametrize(
    "v", [1.0, 1.0 + 1e-6, 1.2, (1 + math.sqrt(3)) / 2, 2.5, 1e6, 1e300]
)
def test_closed_form_join_matches_mp_reference(v: float) -> None:
    computed = float(omega_join(squared_deviation, absolute_deviation, v))
    exact = omega_join_mp(squared_deviation, absolute_deviation, v, dps=30)
    assert abs(computed - float(exact)) <= CLOSED_RTOL * float(exact) + 1e-300
    # Eq. (11) is symmetric under omega_1 <-> omega_2 (substitute z -> v/z).
    assert computed == float(omega_join(absolute_deviation, squared_deviation, v))


def test_closed_forms_match_the_sympy_parametric_curves() -> None:
    for exponent, penalty in (
        (sp.Rational(3, 2), power_deviation(1.5)),
        (sp.Integer(2), squared_deviation),
    ):
        u_of_w, tilde_of_w = theory.power_tilde_parametric(exponent)
        v_of = sp.lambdify(theory.w, sp.sqrt(u_of_w), modules="mpmath")
        tilde_of = sp.lambdify(theory.w, tilde_of_w, modules="mpmath")
        with mpmath.workdps(50):
            for w in ("1e-9", "0.01", "0.5", "2", "1e5"):
                v, tilde = float(v_of(mpmath.mpf(w))), float(tilde_of(mpmath.mpf(w)))
                assert _relative(float(omega_tilde(penalty, v)), tilde) <= CLOSED_RTOL


def test_absolute_closed_form_matches_the_sympy_piecewise() -> None:
    # The |z-1| closed form against theory.absolute_tilde at 50 digits,
    # on both pieces and across the switch at v^2 = 1/2.
    exact = sp.lambdify(theory.v, theory.absolute_tilde(), modules="mpmath")
    v = np.array([1e-5, 0.3, 0.7, 1 / math.sqrt(2), 0.72, 2.0, 1e3, 1e100])
    computed = omega_tilde(absolute_deviation, v)
    with mpmath.workdps(50):
        for point, value in zip(v, computed, strict=True):
            reference = float(exact(mpmath.mpf(float(point))))
            assert _relative(float(value), reference) <= CLOSED_RTOL, point


def test_figure2_omega3_tilde_closed_form_matches_generic() -> None:
    omega3 = join_penalty(squared_deviation, absolute_deviation)
    generic = Penalty("omega_3 without closed form", omega3.function, omega3.mp)
    v = np.concatenate([np.geomspace(1e-4, 1e6, 25), [0.0, 0.8, 0.9]])
    closed = omega_tilde(omega3, v)
    numeric = omega_tilde(generic, v)
    np.testing.assert_allclose(closed, numeric, rtol=RTOL, atol=0.0)


def test_absolute_deviation_explicit_values() -> None:
    # omega~ = v^2 up to v^2 = 1/2, then 3/2 (2 v^2)^(1/3) - 1 (theory).
    v = np.array([0.0, 0.5, 1 / math.sqrt(2), 2.0])
    expected = np.array([0.0, 0.25, 0.5, 1.5 * 8 ** (1 / 3) - 1])
    np.testing.assert_allclose(omega_tilde(absolute_deviation, v), expected, rtol=4e-16)


def test_closed_forms_just_below_the_overflow_of_v_squared() -> None:
    # v^2 ~ 1.7e308 is finite while 2 v^2 is not: the closed forms must not
    # form 2 v^2. Exact values: 3/2 (2v^2)^(1/3) - 1, and for (z-1)^2 the
    # parametric form at the root w of w (1+w)^3 = v^2 (50 digits).
    v = 1.3e154
    with mpmath.workdps(50):
        u = mpmath.mpf(v) ** 2
        absolute = 1.5 * mpmath.cbrt(2 * u) - 1
        log_w = mpmath.findroot(
            lambda s: s + 3 * mpmath.log1p(mpmath.exp(s)) - mpmath.log(u),
            mpmath.log(u) / 4,
        )
        w = mpmath.exp(log_w)
        squared = w * (1 + 2 * w)
    assert _relative(float(omega_tilde(absolute_deviation, v)), float(absolute)) <= (
        CLOSED_RTOL
    )
    assert _relative(float(omega_tilde(squared_deviation, v)), float(squared)) <= (
        CLOSED_RTOL
    )


# --- generic path


def cosh_log(z):
    return (z - 1.0) ** 2 / (2.0 * z)


def cosh_log_mp(z):
    return (z - 1) ** 2 / (2 * z)


@pytest.mark.parametrize("v", V_POINTS)
def test_generic_tilde_matches_mp_reference(v: float) -> None:
    computed = float(omega_tilde(cosh_log, v))
    exact = omega_tilde_mp(cosh_log_mp, v, dps=30)
    assert _relative(computed, float(exact)) <= RTOL


def test_generic_agrees_with_closed_forms_on_a_grid() -> None:
    v = np.concatenate([np.geomspace(1e-6, 1e8, 60), -np.geomspace(1e-3, 1e3, 5)])
    for penalty in (squared_deviation, absolute_deviation, power_deviation(0.3)):
        generic = omega_tilde(penalty.function, v)
        np.testing.assert_allclose(omega_tilde(penalty, v), generic, rtol=RTOL)


def test_two_local_minima_are_compared() -> None:
    # |z-1|^(1/2): the objective has a local minimum at z = 1 (infinite slope)
    # and one inside; for v^2 = 3 the interior one is lower, for v^2 = 0.5 not.
    root = power_deviation(0.5)
    for v in (math.sqrt(0.5), math.sqrt(3.0)):
        exact = float(omega_tilde_mp(root, v, dps=30))
        assert _relative(float(omega_tilde(root.function, v)), exact) <= RTOL
        assert _relative(float(omega_tilde(root, v)), exact) <= CLOSED_RTOL
    assert float(omega_tilde(root, math.sqrt(0.5))) == math.sqrt(0.5) ** 2
    assert float(omega_tilde(root, math.sqrt(3.0))) < 3.0


def test_generic_join_matches_mp_reference() -> None:
    for v in (1.001, 1.7, 30.0):
        computed = float(omega_join(power_deviation(3.0), cosh_log, v))
        exact = omega_join_mp(power_deviation(3.0), cosh_log_mp, v, dps=30)
        assert _relative(computed, float(exact)) <= RTOL


def test_generic_tilde_of_a_generic_join_matches_the_closed_form() -> None:
    # omega~ of (z-1)^2 (+) |z-1| with both minimizations generic (nested
    # section searches) against the closed form of Figure 2's omega~_3, on
    # both sides of the join's kink (u = k^3 (k - 1) ~ 1.39).
    def square(z: np.ndarray) -> np.ndarray:
        return (z - 1.0) ** 2

    def absolute(z: np.ndarray) -> np.ndarray:
        return np.abs(z - 1.0)

    def nested(z: np.ndarray) -> np.ndarray:
        return omega_join(square, absolute, z)

    v = np.array([1e-3, 0.3, 1.0, 1.17, 1.19, 2.0, 40.0, 1e4])
    closed = omega_tilde(join_penalty(squared_deviation, absolute_deviation), v)
    np.testing.assert_allclose(omega_tilde(nested, v), closed, rtol=RTOL)


def test_generic_tilde_at_a_kink_of_omega() -> None:
    # omega = |z-1| + 10 (z-2)_+: for 4 < v^2 < 44 the minimizer of (12) is
    # the kink z = 2, where the value is linear in the location error, so
    # this needs the minimizer located to ~1e-10 relative, not only its value.
    def kinked(z: np.ndarray) -> np.ndarray:
        return np.abs(z - 1.0) + 10.0 * np.maximum(z - 2.0, 0.0)

    def kinked_mp(z: Any) -> Any:
        return abs(z - 1) + 10 * max(z - 2, 0)

    for v in (2.5, 4.0, 6.0):
        exact = float(omega_tilde_mp(kinked_mp, v, dps=30))
        assert _relative(exact, 1.0 + v**2 / 4.0) <= 1e-15
        assert _relative(float(omega_tilde(kinked, v)), exact) <= RTOL


@given(
    centre=st.floats(0.0, 1.0),
    lower=st.floats(-1e3, 1e3),
    width=st.floats(1e-6, 1e3),
    power=st.sampled_from([0.5, 1.0, 2.0, 4.0]),
)
def test_section_search_locates_the_minimizer_to_its_bracket(
    centre: float, lower: float, width: float, power: float
) -> None:
    # Unimodal |x - c|^q with c anywhere in [a, b] (ends included): the best
    # sample is within the last bracket, 2/16 of the previous one per step.
    a = np.array([lower])
    b = a + width
    c = float(a[0] + centre * width)
    located, value = _section_minimize(lambda x: np.abs(x - c) ** power, a, b)
    rounding = 8 * EPS * (abs(float(a[0])) + abs(float(b[0])))
    bound = width * (2.0 / (_SECTION_POINTS + 1.0)) ** _SECTION_STEPS + rounding
    assert abs(float(located[0]) - c) <= bound
    assert float(value[0]) == abs(float(located[0]) - c) ** power


def test_mp_references_are_consistent_across_precisions() -> None:
    low = omega_tilde_mp(squared_deviation, 1.3, dps=30)
    high = omega_tilde_mp(squared_deviation, 1.3, dps=50)
    assert abs(low - high) <= mpmath.mpf(10) ** -28 * high
    low = omega_join_mp(squared_deviation, absolute_deviation, 3, dps=30)
    high = omega_join_mp(squared_deviation, absolute_deviation, 3, dps=50)
    assert abs(low - high) <= mpmath.mpf(10) ** -28 * high


# --- shapes and vectorization


def test_shapes_broadcast_and_dtype() -> None:
    v = np.linspace(0.0, 3.0, 12).reshape(3, 4)
    for penalty in (squared_deviation, cosh_log):
        out = omega_tilde(penalty, v)
        assert out.shape == (3, 4)
        assert out.dtype == np.float64
        assert omega_tilde(penalty, 2.0).shape == ()
    joined = omega_join(squared_deviation, cosh_log, 1.0 + v)
    assert joined.shape == (3, 4)
    assert joined.dtype == np.float64
    assert omega_join(squared_deviation, absolute_deviation, [1.0, 2.0]).shape == (2,)


def test_even_in_v() -> None:
    v = np.array([0.1, 1.0, 7.0])
    for penalty in (squared_deviation, cosh_log):
        np.testing.assert_array_equal(omega_tilde(penalty, v), omega_tilde(penalty, -v))


# --- invalid arguments


def _shifted(z):
    return (z - 1.0) ** 2 + 0.5


def _negative(z):
    return -np.abs(z - 1.0)


def _decreasing(z):
    # |z-1| up to z = 2, falling to 0.5 at z = 3, then rising steeply.
    w = np.abs(z - 1.0)
    return np.where(w <= 1.0, w, np.where(w <= 2.0, 1.5 - 0.5 * w, 3.0 * w - 5.5))


def _infinite(z):
    return np.where(z > 3.0, np.inf, (z - 1.0) ** 2)


def _not_vectorized(z):
    return 0.0 * float(np.sum(z))


def _bounded(z):
    return 1.0 - 1.0 / (1.0 + np.abs(z - 1.0)) ** 2


@pytest.mark.parametrize(
    ("omega", "v", "needle"),
    [
        (_shifted, 1.0, "omega(1)"),
        (_negative, 1.0, "< 0"),
        (_decreasing, 2.0, "decreases"),
        (_infinite, 30.0, "not finite"),
        (_bounded, 2.0, "not attained"),
        (squared_deviation, float("nan"), "v=nan"),
        (squared_deviation, [1.0, float("inf")], "v=inf"),
        # v^2 overflows: the closed form of |z-1| would return inf.
        (absolute_deviation, [1.0, -1e155], "too large"),
        (cosh_log, 1e155, "too large"),
        ("not a function", 1.0, "not callable"),
    ],
)
def test_omega_tilde_rejects(omega: Any, v: Any, needle: str) -> None:
    with pytest.raises(
        InvalidArgumentError, match=needle.replace("(", r"\(").replace(")", r"\)")
    ):
        omega_tilde(omega, v)


@pytest.mark.parametrize(
    ("omega1", "omega2", "v", "needle"),
    [
        (squared_deviation, absolute_deviation, 0.5, "below 1"),
        (squared_deviation, cosh_log, [2.0, 0.9], "below 1"),
        (_shifted, cosh_log, 2.0, "omega1"),
        (cosh_log, _negative, 2.0, "omega2"),
        (cosh_log, _decreasing, 6.0, "decreases"),
        (cosh_log, cosh_log, float("nan"), "v=nan"),
    ],
)
def test_omega_join_rejects(omega1: Any, omega2: Any, v: Any, needle: str) -> None:
    with pytest.raises(InvalidArgumentError, match=needle):
        omega_join(omega1, omega2, v)


@pytest.mark.parametrize("p", [0.0, -1.0, float("nan"), float("inf"), "two"])
def test_power_deviation_rejects(p: Any) -> None:
    with pytest.raises(InvalidArgumentError, match="p="):
        power_deviation(p)


def test_mp_references_reject() -> None:
    with pytest.raises(InvalidArgumentError, match=">= 1"):
        omega_join_mp(squared_deviation, absolute_deviation, 0.5)
    with pytest.raises(InvalidArgumentError, match="dps"):
        omega_tilde_mp(squared_deviation, 1.0, dps=5)
    with pytest.raises(InvalidArgumentError, match="omega"):
        omega_tilde_mp(lambda z: (z - 1) ** 2 + 1, 1.0)
    with pytest.raises(InvalidArgumentError, match="not finite"):
        omega_tilde_mp(squared_deviation, mpmath.inf)


# --- Propositions 3 and 4 over Hypothesis-generated penalties

U_GRID = np.linspace(0.0, 40.0, 81)


def _power_lower_bound(omega: QuasiConvexPenalty, u: float) -> float:
    r"""omega~/v^2 >= 1/(1 + w_u)^2 with w_u = (u/c_R)^{1/p_R} >= omega^-1(u)."""
    w_u = (u / omega.right_coefficient) ** (1.0 / omega.right_exponent)
    return 1.0 / (1.0 + w_u) ** 2


@given(omega=omegas(min_exponent=0.5, max_exponent=4.0))
@example(omega=QuasiConvexPenalty(1.0, 2.0, 1.0, 2.0))
@example(omega=QuasiConvexPenalty(1.0, 1.0, 1.0, 0.5, 0.0, 5.0))
def test_proposition3_increasing_concave_in_v_squared(
    omega: QuasiConvexPenalty,
) -> None:
    values = omega_tilde(omega, np.sqrt(U_GRID))
    scale = float(values.max())
    # Relative errors <= RTOL per value: first differences can be off by
    # 2 RTOL scale, second differences by 4 RTOL scale.
    assert values[0] == 0.0
    assert np.all(np.diff(values) > 2 * RTOL * scale)
    assert np.all(np.diff(values, 2) <= 4 * RTOL * scale)
    assert np.all(values <= U_GRID * (1 + RTOL))  # z = 1 gives v^2


@given(omega=omegas(min_exponent=0.5, max_exponent=4.0))
@example(omega=QuasiConvexPenalty(0.1, 4.0, 0.1, 4.0))
def test_proposition3_quadratic_near_zero(omega: QuasiConvexPenalty) -> None:
    previous = 0.0
    for u in (1e-2, 1e-4, 1e-6, 1e-8):
        ratio = float(omega_tilde(omega, math.sqrt(u))) / u
        assert _power_lower_bound(omega, u) - RTOL <= ratio <= 1.0 + RTOL
        # Concavity in u with omega~(0) = 0: omega~/u does not decrease as u -> 0.
        assert ratio >= previous - RTOL
        previous = ratio


@given(
    omega1=omegas(min_exponent=0.5, max_exponent=4.0),
    omega2=omegas(min_exponent=0.5, max_exponent=4.0),
)
def test_proposition4_join_increasing_from_zero(
    omega1: QuasiConvexPenalty, omega2: QuasiConvexPenalty
) -> None:
    v = np.concatenate([[1.0], 1.0 + np.geomspace(1e-2, 1e2, 40)])
    values = omega_join(omega1, omega2, v)
    assert values[0] == 0.0
    assert np.all(np.diff(values) > 2 * RTOL * values[1:])


@given(
    omega1=omegas(min_exponent=0.5, max_exponent=4.0),
    omega2=omegas(min_exponent=0.5, max_exponent=4.0),
    v=st.floats(min_value=1.01, max_value=50.0),
)
def test_proposition4_no_lower_value_outside_one_to_v(
    omega1: QuasiConvexPenalty, omega2: QuasiConvexPenalty, v: float
) -> None:
    # Proof of Proposition 4: the minimum over z in (0, oo) lies in [1, v], so a
    # dense scan of z in [v^-2, v^3] finds nothing below the join.
    log_z = np.linspace(-2 * math.log(v), 3 * math.log(v), 4001)
    z = np.exp(log_z)
    scanned = float(np.min(omega1(z) + omega2(v / z)))
    join = float(omega_join(omega1, omega2, v))
    assert join <= scanned * (1 + RTOL)


@given(omega=omegas(min_exponent=1.0, max_exponent=3.0))
def test_join_with_itself_bounds(omega: QuasiConvexPenalty) -> None:
    # (omega (+) omega)(v) <= min(omega(v), 2 omega(sqrt v)) (z = v and z = sqrt v).
    v = np.array([1.5, 4.0, 30.0])
    values = omega_join(omega, omega, v)
    bound = np.minimum(omega(v), 2 * omega(np.sqrt(v)))
    assert np.all(values <= bound * (1 + RTOL))


def test_join_of_penalty_has_no_closed_form_unless_named() -> None:
    assert join_penalty(squared_deviation, cosh_log).tilde is None
    assert join_penalty(absolute_deviation, squared_deviation).tilde is not None


# --- the methods and fields of Penalty objects (issue 22)


def _user_penalty() -> Penalty:
    return Penalty("(z-1)^4", lambda z: (z - 1.0) ** 4, lambda z: (z - 1) ** 4)


#: Every kind of Penalty the library builds, and one a user builds.
PENALTIES = {
    "squared": squared_deviation,
    "absolute": absolute_deviation,
    "power 3": power_deviation(3.0),
    "power 0.5": power_deviation(0.5),
    "join (closed form)": join_penalty(squared_deviation, absolute_deviation),
    "join (generic)": join_penalty(squared_deviation, power_deviation(3.0)),
    "user": _user_penalty(),
}
WITH_TILDE = [name for name, penalty in PENALTIES.items() if penalty.tilde]


@pytest.mark.parametrize("name", WITH_TILDE)
@pytest.mark.parametrize(
    "u", [2.0, 2, np.float64(2.0), np.array(2.0), [0.5, 2.0], (2.0,), [[0.5], [2.0]]]
)
def test_tilde_accepts_array_likes(name: str, u: Any) -> None:
    # power_deviation(3).tilde(2.0) raised AttributeError ('bool' has no .any),
    # a list TypeError.
    penalty = PENALTIES[name]
    assert penalty.tilde is not None
    values = penalty.tilde(u)
    assert isinstance(values, np.ndarray)
    assert values.dtype == np.float64
    assert values.shape == np.shape(u)
    # The closed form against the generic minimizer of omega itself (sqrt(u)^2
    # is u to an ulp).
    v = np.sqrt(np.asarray(u, dtype=np.float64))
    np.testing.assert_allclose(values, omega_tilde(penalty.function, v), rtol=RTOL)


@pytest.mark.parametrize("name", list(PENALTIES))
@pytest.mark.parametrize("method", ["__call__", "function"])
@pytest.mark.parametrize("z", [3.0, 3, np.float64(3.0), np.array(3.0), [1.5, 3.0]])
def test_omega_accepts_array_likes(name: str, method: str, z: Any) -> None:
    penalty = PENALTIES[name]
    values = getattr(penalty, method)(z)
    assert isinstance(values, np.ndarray)
    assert values.dtype == np.float64
    assert values.shape == np.shape(z)
    points = np.asarray(z, dtype=np.float64).reshape(-1)
    expected = [float(penalty.mp(mpmath.mpf(float(point)))) for point in points]
    np.testing.assert_allclose(values.reshape(-1), expected, rtol=RTOL)


@pytest.mark.parametrize("name", list(PENALTIES))
@pytest.mark.parametrize("z", [3.0, 3, np.float64(3.0), np.array(3.0), mpmath.mpf(3)])
def test_mp_accepts_real_scalars(name: str, z: Any) -> None:
    value = PENALTIES[name].mp(z)
    assert isinstance(value, mpmath.mpf)
    assert mpmath.isfinite(value)
    assert value == PENALTIES[name].mp(mpmath.mpf(3))


# (method, argument, needle): out of every penalty's domain.
_BAD_METHOD_CALLS: list[tuple[str, Any, str]] = [
    ("__call__", float("nan"), "z=nan"),
    ("__call__", [1.0, float("inf")], "z=inf"),
    ("__call__", 1.0 + 1j, "complex"),
    ("__call__", "2.0", "string"),
    ("__call__", None, "z=None"),
    ("function", float("nan"), "z=nan"),
    ("function", [2.0, 1j], "complex"),
    ("function", None, "z=None"),
    ("function", "2.0", "string"),
    ("mp", float("nan"), "z=nan"),
    ("mp", mpmath.inf, "z="),
    ("mp", mpmath.mpc(2, 1), "z="),
    ("mp", 2 + 1j, "z="),
    ("mp", [2.0], "z="),
    ("mp", "2", "z="),
    ("mp", True, "z="),
    ("mp", None, "z="),
    ("tilde", float("nan"), "u=nan"),
    ("tilde", -1.0, "u=-1.0"),
    ("tilde", [1.0, -1e-300], "u=-1e-300"),
    ("tilde", [1.0, float("inf")], "u=inf"),
    ("tilde", 2.0 + 0j, "complex"),
    ("tilde", "2.0", "string"),
    ("tilde", None, "u=None"),
]


@pytest.mark.parametrize(
    ("name", "method", "argument", "needle"),
    [
        (name, *call)
        for name in PENALTIES
        for call in _BAD_METHOD_CALLS
        if call[0] != "tilde" or name in WITH_TILDE
    ],
)
def test_penalty_methods_reject(
    name: str, method: str, argument: Any, needle: str
) -> None:
    # NaN gave NaN, tilde(-1.0) gave -1 and mp(mpc(2, 1)) a real number.
    with pytest.raises(InvalidArgumentError, match=re.escape(needle)):
        getattr(PENALTIES[name], method)(argument)


@pytest.mark.parametrize("name", ["join (closed form)", "join (generic)"])
@pytest.mark.parametrize("method", ["__call__", "function", "mp"])
def test_a_joint_penalty_is_defined_from_one(name: str, method: str) -> None:
    # Eq. (11) defines omega_1 (+) omega_2 on [1, inf); mp(0.5) returned 0.25.
    with pytest.raises(InvalidArgumentError, match=r"z=0\.5 is below 1"):
        getattr(PENALTIES[name], method)(0.5)


def test_a_penalty_returning_nan_is_named() -> None:
    broken = Penalty("broken", lambda z: np.sqrt(z - 2.0), lambda z: z)
    with pytest.raises(InvalidArgumentError, match="function"):
        broken(1.0)


@pytest.mark.parametrize(
    ("fields", "needle"),
    [
        ({"name": 3}, "name=3"),
        ({"name": ""}, "name=''"),
        ({"function": None}, "function=None"),
        ({"function": 1.0}, "function=1.0"),
        ({"mp": "mp"}, "mp='mp'"),
        ({"tilde": 2.0}, "tilde=2.0"),
        ({"exponent": "2"}, "exponent='2'"),
        ({"exponent": 2 + 1j}, "exponent=(2+1j)"),
        ({"exponent": True}, "exponent=True"),
        # Accepted before: only the descents that read the exponent refused
        # them. The domain of power_deviation, (0, inf).
        ({"exponent": math.inf}, "exponent=inf is not finite"),
        ({"exponent": math.nan}, "exponent=nan is not finite"),
        ({"exponent": -math.inf}, "exponent=-inf is not finite"),
        ({"exponent": 0.0}, "exponent=0.0 is outside (0, inf)"),
        ({"exponent": -1}, "exponent=-1.0 is outside (0, inf)"),
        ({"exponent": np.float64(-5e-324)}, "exponent=-5e-324 is outside"),
    ],
)
def test_penalty_refuses_bad_fields(fields: dict[str, Any], needle: str) -> None:
    valid: dict[str, Any] = {
        "name": "(z-1)^2",
        "function": lambda z: (z - 1.0) ** 2,
        "mp": lambda z: (z - 1) ** 2,
    }
    with pytest.raises(InvalidArgumentError, match=re.escape(needle)):
        Penalty(**(valid | fields))


@pytest.mark.parametrize("exponent", [5e-324, 0.5, 2, np.int64(3), 1e308])
def test_a_penalty_exponent_is_stored_as_a_float(exponent: float) -> None:
    # Its whole domain (0, inf), NumPy integers included.
    penalty = Penalty(
        "p", squared_deviation.function, squared_deviation.mp, exponent=exponent
    )
    assert type(penalty.exponent) is float
    assert penalty.exponent == float(exponent)


def test_a_rebuilt_penalty_keeps_one_argument_check() -> None:
    # Penalty(..., function=other.function) must not stack the checks, and
    # the rebuilt penalty equals one built from the same callables.
    rebuilt = Penalty("again", squared_deviation.function, squared_deviation.mp)
    assert rebuilt.function == squared_deviation.function
    assert float(rebuilt(3.0)) == 4.0


def _constant(z: np.ndarray) -> np.ndarray:
    return np.zeros_like(z)


def _flat_near_one(z: np.ndarray) -> np.ndarray:
    return np.maximum(z - 2.0, 0.0) ** 2


def _early_dip(z: np.ndarray) -> np.ndarray:
    # _decreasing with its dip moved into [1, 2]: falls from z = 1.25 to 1.5.
    return _decreasing(1.0 + 4.0 * (z - 1.0))


def _complex_valued(z: np.ndarray) -> np.ndarray:
    return (z - 1.0 + 0j) ** 2


def _complex_part(z: np.ndarray) -> np.ndarray:
    return (z - 1.0) ** 2 + 1j * (z - 1.0)


@pytest.mark.parametrize(
    ("omega1", "omega2", "needle"),
    [
        (_constant, absolute_deviation, "omega1"),
        (squared_deviation, _constant, "omega2"),
        (_flat_near_one, absolute_deviation, "omega1"),
        (_negative, squared_deviation, "omega1"),
        (squared_deviation, _shifted, "omega2"),
        (_complex_valued, absolute_deviation, "omega1"),
        (squared_deviation, _complex_part, "omega2"),
        (_early_dip, squared_deviation, "decreases"),
        ("squared", squared_deviation, "omega1"),
    ],
)
def test_join_penalty_refuses_omegas_outside_eq_11(
    omega1: Any, omega2: Any, needle: str
) -> None:
    # A constant, negative or complex omega was accepted (eq. (11) needs
    # omega strictly quasi-convex, real, with minimum 0 at 1).
    with pytest.raises(InvalidArgumentError, match=needle):
        join_penalty(omega1, omega2)


@pytest.mark.parametrize("v", [1e307, 9e307, np.finfo(np.float64).max])
def test_closed_form_join_at_the_largest_floats(v: float) -> None:
    # 2 z^2 (z - 1) overflowed near the float64 limit: NaN at its largest float.
    computed = float(omega_join(squared_deviation, absolute_deviation, v))
    exact = omega_join_mp(squared_deviation, absolute_deviation, v, dps=30)
    assert _relative(computed, float(exact)) <= CLOSED_RTOL  # mpmath, dps=30


def test_a_generic_join_beyond_the_float64_range() -> None:
    # (z-1)^2 (+) |z-1|^3 at v = 1e300 is about v^1.2: beyond float64. The
    # scan met omega1(z) = inf, an overflow of a Penalty, and blamed omega1.
    joint = join_penalty(squared_deviation, power_deviation(3.0))
    with pytest.raises(OutOfRangeError, match="v=1e"):
        omega_join(squared_deviation, power_deviation(3.0), [2.0, 1e300])
    # Called as a Penalty, inf is the documented value beyond float64.
    values = joint([2.0, 1e300])
    assert np.isfinite(values[0])
    assert values[1] == np.inf
    # A plain callable's inf is still not taken for an overflow.
    with pytest.raises(InvalidArgumentError, match="omega1"):
        omega_join(_infinite, power_deviation(3.0), 30.0)
