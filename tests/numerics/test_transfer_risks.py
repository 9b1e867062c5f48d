r"""Tests of :mod:`implicit_bias.numerics.transfer_risks` (features-are-fate, Sec. 3).

Notation follows the module: ``gamma`` :math:`=\gamma=n/d`, ``sigma`` the
label-noise standard deviation, ``theta`` the source-target angle, ``n`` the
number of target samples, ``lam`` the ridge parameter.

References are the SymPy expressions of :mod:`implicit_bias.theory.transfer_risks`
evaluated by mpmath at 50 digits at the float64 arguments taken exactly.
Errors are measured in units of u = 2**-53 times the *size* of the formula (the
sum of the absolute values of its terms, branch by branch): that is the bound a
short chain of correctly rounded operations obeys, whatever cancellation
happens between the terms (a transferability vanishes at the boundaries, so a
relative error there is meaningless). The constants per function are the
operation counts of the module's docstrings: at most ~8 roundings plus one
``sin``/``cos`` of about 1 ulp, so 10 u covers them all with the sum bound.
"""

from __future__ import annotations

from collections.abc import Callable

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, example, given
from hypothesis import strategies as st

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.transfer_risks import (
    finetune_risk,
    finetune_transferability,
    has_negative_transfer_region,
    linear_transfer_risk,
    linear_transferability,
    negative_transfer_gammas,
    ridge_transfer_risk,
    scratch_risk,
    underparameterized_negative_transfer_gamma,
)
from implicit_bias.theory import transfer_asymptotics as asymptotics
from implicit_bias.theory import transfer_risks as theory

#: Unit roundoff of float64.
U = 2.0**-53
#: Digits of the mpmath references.
DPS = 50
#: Error bound in units of u x (sum of |terms|): ~8 roundings and one sin/cos.
MAX_UNITS = 10.0

_GAMMAS = st.one_of(
    st.floats(min_value=1e-6, max_value=1.0, exclude_max=True),
    st.floats(min_value=1.0, max_value=1e6, exclude_min=True),
)
#: theta = 0 or theta >= 1e-150: below, sin(theta)^2 is subnormal and carries an
#: absolute (not relative) rounding error, which 1/(n - 2) then amplifies.
_THETAS = st.one_of(st.just(0.0), st.floats(min_value=1e-150, max_value=np.pi))
_SIGMAS = st.one_of(st.just(0.0), st.floats(min_value=1e-6, max_value=1e3))
_SAMPLES = st.floats(min_value=2.0, max_value=1e9, exclude_min=True)
_RIDGES = st.one_of(st.just(0.0), st.floats(min_value=1e-8, max_value=1e8))


def _size(expression: sp.Expr) -> sp.Expr:
    """Sum of the absolute values of the terms, branch by branch."""
    if isinstance(expression, sp.Piecewise):
        return sp.Piecewise(*[(_size(e), c) for e, c in expression.args])
    return sp.Add(*[sp.Abs(t) for t in sp.Add.make_args(sp.expand(expression))])


def _reference(
    expression: sp.Expr,
    symbols: tuple[sp.Symbol, ...],
    magnitude: sp.Expr | None = None,
) -> Callable[..., tuple[mpmath.mpf, mpmath.mpf]]:
    """Value and error scale (``magnitude``, by default :func:`_size`) in mpmath."""
    value = sp.lambdify(symbols, expression, modules="mpmath")
    size = sp.lambdify(
        symbols, _size(expression) if magnitude is None else magnitude, "mpmath"
    )

    def evaluate(*arguments: float) -> tuple[mpmath.mpf, mpmath.mpf]:
        with mpmath.workdps(DPS):
            point = [mpmath.mpf(a) for a in arguments]
            return value(*point), abs(size(*point))

    return evaluate


_SCRATCH = _reference(theory.scratch_risk(), (theory.gamma, theory.sigma))
_LINEAR = _reference(
    theory.linear_transfer_risk(), (theory.n, theory.theta, theory.sigma)
)
_TRANSFERABILITY = _reference(
    theory.linear_transferability(), (theory.gamma, theory.theta, theory.sigma)
)
_RIDGE = _reference(theory.ridge_transfer_risk(), (theory.lam, theory.theta))
_FINETUNE = _reference(
    theory.finetune_risk(), (theory.gamma, theory.theta, theory.sigma)
)
_FINETUNE_T = _reference(
    theory.finetune_transferability(), (theory.gamma, theory.theta)
)
#: Our corrected eq. (16): E R_sc + (1 - gamma) c (c - 2 cos theta) below
#: gamma = 1, computed as written; its error scale is the sum of the sizes of
#: the terms: |E R_sc|'s and (1 - gamma) c (c + 2 |cos theta|).
_SCALE = sp.sqrt(
    asymptotics.finetune_scale_limit().subs(asymptotics.gamma_ratio, theory.gamma)
)
_CORRECTED_EXCESS = sp.Piecewise(
    (
        asymptotics.finetune_risk_limit_corrected().subs(
            asymptotics.gamma_ratio, theory.gamma
        ),
        theory.gamma < 1,
    ),
    (0, True),
)
_EXCESS_SIZE = sp.Piecewise(
    (
        (1 - theory.gamma) * _SCALE * (_SCALE + 2 * sp.Abs(sp.cos(theory.theta))),
        theory.gamma < 1,
    ),
    (0, True),
)
_FINETUNE_CORRECTED = _reference(
    theory.scratch_risk() + _CORRECTED_EXCESS,
    (theory.gamma, theory.theta, theory.sigma),
    _size(theory.scratch_risk()) + _EXCESS_SIZE,
)
_FINETUNE_T_CORRECTED = _reference(
    -_CORRECTED_EXCESS, (theory.gamma, theory.theta, theory.sigma), _EXCESS_SIZE
)


def _units(computed: float, exact: mpmath.mpf, size: mpmath.mpf) -> float:
    """The error in units of u x size, plus the subnormal spacing 2**-1074.

    Each rounding errs by at most u relative or half the subnormal spacing
    absolute, whichever is larger (results below 2**-1022 are subnormal).
    """
    with mpmath.workdps(DPS):
        return float(
            abs(mpmath.mpf(computed) - exact) / (U * size + mpmath.mpf(2) ** -1074)
        )


# ---------------------------------------------------------------------------
# Accuracy against the theory expressions.
# ---------------------------------------------------------------------------


@given(gamma=_GAMMAS, sigma=_SIGMAS)
@example(gamma=1.0 - 2.0**-52, sigma=1.0)
@example(gamma=1.0 + 2.0**-52, sigma=1e-3)
@example(gamma=0.5, sigma=0.0)
def test_scratch_risk_matches_eq10(gamma: float, sigma: float) -> None:
    exact, size = _SCRATCH(gamma, sigma)
    assert _units(float(scratch_risk(gamma, sigma)), exact, size) <= MAX_UNITS


@given(n=_SAMPLES, theta=_THETAS, sigma=_SIGMAS)
@example(n=2.0 + 2.0**-51, theta=np.pi / 2, sigma=1.0)
def test_linear_transfer_risk_matches_eq12(
    n: float, theta: float, sigma: float
) -> None:
    exact, size = _LINEAR(n, theta, sigma)
    computed = float(linear_transfer_risk(n, theta, sigma))
    assert _units(computed, exact, size) <= MAX_UNITS


@given(gamma=_GAMMAS, theta=_THETAS, sigma=_SIGMAS)
@example(gamma=0.6, theta=np.pi / 3, sigma=0.2)
def test_linear_transferability_matches_eq13(
    gamma: float, theta: float, sigma: float
) -> None:
    exact, size = _TRANSFERABILITY(gamma, theta, sigma)
    computed = float(linear_transferability(gamma, theta, sigma))
    assert _units(computed, exact, size) <= MAX_UNITS


@given(lam=_RIDGES, theta=_THETAS)
# (2 lambda + 1) / (lambda + 1)^2 was inf / inf = NaN from lambda ~ 9e307.
@example(lam=9e307, theta=0.3)
@example(lam=float(np.finfo(np.float64).max), theta=0.0)
@example(lam=1e200, theta=1.0)
def test_ridge_transfer_risk_matches_eq15(lam: float, theta: float) -> None:
    exact, size = _RIDGE(lam, theta)
    assert _units(float(ridge_transfer_risk(lam, theta)), exact, size) <= MAX_UNITS


@given(gamma=_GAMMAS, theta=_THETAS, sigma=_SIGMAS)
def test_finetune_risk_matches_eq16(gamma: float, theta: float, sigma: float) -> None:
    exact, size = _FINETUNE(gamma, theta, sigma)
    computed = float(finetune_risk(gamma, theta, sigma, form="printed"))
    assert _units(computed, exact, size) <= MAX_UNITS


@given(gamma=_GAMMAS, theta=_THETAS, sigma=_SIGMAS)
@example(gamma=0.5, theta=np.pi / 4, sigma=1.0)
def test_finetune_risk_matches_the_corrected_limit(
    gamma: float, theta: float, sigma: float
) -> None:
    exact, size = _FINETUNE_CORRECTED(gamma, theta, sigma)
    computed = float(finetune_risk(gamma, theta, sigma))
    assert _units(computed, exact, size) <= MAX_UNITS
    exact, size = _FINETUNE_T_CORRECTED(gamma, theta, sigma)
    computed = float(finetune_transferability(gamma, theta, sigma))
    assert _units(computed, exact, size) <= MAX_UNITS


def test_the_corrected_finetune_risk_is_the_printed_one_without_noise() -> None:
    # Each form is within MAX_UNITS u of its exact value times the size of its
    # terms (the property tests above), at most 4 here: (1 - gamma) c (c + 2)
    # with c = 1, plus E R_sc = 1 - gamma; the exact values agree at sigma = 0.
    tolerance = 2 * MAX_UNITS * U * 4
    gamma = np.array([[0.1], [0.5], [0.9], [2.0]])
    theta = np.linspace(0.0, np.pi, 7)
    corrected = finetune_risk(gamma, theta, 0.0)
    printed = finetune_risk(gamma, theta, 0.0, form="printed")
    np.testing.assert_allclose(corrected, printed, rtol=0, atol=tolerance)
    # With noise they differ. At gamma = 1/2, sigma = 1: c^2 = (1/2 + 5/2)/2 = 3/2,
    # so at theta = pi/4 the excesses are 3/4 - sqrt(3)/2 and (1 - sqrt(2))/2
    # (the claim features-are-fate:16:monte-carlo-corrected: 0.0911 apart).
    gap = finetune_risk(0.5, np.pi / 4, 1.0) - finetune_risk(
        0.5, np.pi / 4, 1.0, form="printed"
    )
    exact_gap = 0.25 + (np.sqrt(2.0) - np.sqrt(3.0)) / 2
    assert float(gap) == pytest.approx(exact_gap, rel=0, abs=tolerance)


@pytest.mark.parametrize("form", ["Corrected", "", None, 1])
def test_an_unknown_finetune_form_is_refused(form: object) -> None:
    with pytest.raises(InvalidArgumentError, match="form="):
        finetune_risk(0.5, 0.3, 0.1, form=form)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="form="):
        finetune_transferability(0.5, 0.3, form=form)  # type: ignore[arg-type]


@given(gamma=_GAMMAS, theta=_THETAS)
@example(gamma=1.0, theta=0.3)
def test_finetune_transferability_matches_eq17(gamma: float, theta: float) -> None:
    exact, size = _FINETUNE_T(gamma, theta)
    computed = float(finetune_transferability(gamma, theta, form="printed"))
    assert _units(computed, exact, size) <= MAX_UNITS


# ---------------------------------------------------------------------------
# The negative-transfer boundaries.
# ---------------------------------------------------------------------------

_ROOT_SYMBOLS = (theory.theta, theory.sigma)
_GAMMA_MINUS = sp.lambdify(_ROOT_SYMBOLS, theory.gamma_minus(), modules="mpmath")
_GAMMA_PLUS = sp.lambdify(_ROOT_SYMBOLS, theory.gamma_plus(), modules="mpmath")
_SLOPES = {
    name: (
        sp.lambdify(_ROOT_SYMBOLS, sp.diff(root, theory.theta), modules="mpmath"),
        sp.lambdify(_ROOT_SYMBOLS, sp.diff(root, theory.sigma), modules="mpmath"),
    )
    for name, root in (("-", theory.gamma_minus()), ("+", theory.gamma_plus()))
}


#: Steps from a root smaller than this are below the root's rounding error.
_RESOLVED = 1e4 * U


@st.composite
def _region_points(draw: st.DrawFn) -> tuple[float, float]:
    """(theta, sigma) with a negative-transfer interval: |cos theta| < 1 - sigma."""
    sigma = draw(st.one_of(st.just(0.0), st.floats(min_value=1e-8, max_value=0.999)))
    edge = float(np.arccos(1.0 - sigma))
    theta = draw(st.floats(min_value=edge, max_value=np.pi - edge))
    assume(abs(np.cos(theta)) + sigma < 1.0)
    return theta, sigma


@given(point=_region_points())
@example(point=(np.pi / 2, 0.0))
@example(point=(np.pi / 3, 0.2))
@example(point=(1e-3, 0.0))
def test_negative_transfer_gammas_match_the_text(point: tuple[float, float]) -> None:
    # The only cancellation is in 1 -+ sigma -+ |cos theta| (absolute error
    # <= 2u(1 + sigma + c)), i.e. a perturbation of c or sigma by that much;
    # the root moves by at most |d gamma/d theta| |d theta| + |d gamma/d sigma|
    # |d sigma| for it, plus ~8 relative roundings of the root itself.
    theta, sigma = point
    low, high = negative_transfer_gammas(theta, sigma)
    cosine = abs(np.cos(theta))
    with mpmath.workdps(DPS):
        theta_, sigma_ = mpmath.mpf(theta), mpmath.mpf(sigma)
        sine = abs(mpmath.sin(theta_)) + mpmath.mpf(2) ** -1074
        for name, computed, exact in (
            ("-", low, _GAMMA_MINUS(theta_, sigma_)),
            ("+", high, _GAMMA_PLUS(theta_, sigma_)),
        ):
            slope_theta, slope_sigma = _SLOPES[name]
            perturbation = 2 * U * (1 + sigma + cosine)
            allowed = MAX_UNITS * (
                U * abs(exact)
                + perturbation
                * (
                    abs(slope_theta(theta_, sigma_)) / sine
                    + abs(slope_sigma(theta_, sigma_))
                )
            )
            assert abs(mpmath.mpf(float(computed)) - exact) <= allowed, name
    assert 0.0 <= float(low) < float(high) <= 1.0


@given(point=_region_points())
def test_gammas_are_sign_changes_of_the_transferability(
    point: tuple[float, float],
) -> None:
    # T_lt at the midpoint is -(width/2)^2/(1 - gamma) and T_lt's rounding is
    # ~u, so the sign is resolved only for width >> sqrt(u); likewise the
    # steps outside must dwarf the roots' own error (a few u).
    theta, sigma = point
    low, high = (float(v) for v in negative_transfer_gammas(theta, sigma))
    assume(high - low > 1e-6)
    assert float(linear_transferability(0.5 * (low + high), theta, sigma)) < 0.0
    # Just outside, by 1% of the width (staying in (0, 1)), T_lt > 0.
    width = 0.01 * (high - low)
    below = 0.5 * min(width, low)
    if below > _RESOLVED:
        assert float(linear_transferability(low - below, theta, sigma)) > 0.0
    above = 0.5 * min(width, 1.0 - high)
    if above > _RESOLVED:
        assert float(linear_transferability(high + above, theta, sigma)) > 0.0


_SLOPE_T = sp.lambdify(
    (theory.gamma, theory.theta, theory.sigma),
    sp.diff(theory.linear_transferability_overparameterized(), theory.gamma),
    modules="numpy",
)


@given(point=_region_points())
@example(point=(np.pi / 3, 0.2))
def test_gammas_are_zeros_of_the_transferability(point: tuple[float, float]) -> None:
    # A root with relative error e moves T_lt by |gamma T_lt'(gamma)| e; the
    # evaluation of T_lt adds ~u (R_sc + sin^2 theta). At sigma = 0, gamma_+ = 1
    # is a zero of q = (1 - gamma) T_lt only: there T_lt -> -sin^2 theta.
    theta, sigma = point
    low, high = negative_transfer_gammas(theta, sigma)
    for root in (low, high) if sigma > 0 else (low,):
        gamma = float(root)
        if not 0.0 < gamma < 1.0:
            continue
        value = float(linear_transferability(gamma, theta, sigma))
        scale = (
            abs(gamma * _SLOPE_T(gamma, theta, sigma))
            + float(scratch_risk(gamma, sigma))
            + np.sin(theta) ** 2
        )
        assert abs(value) <= MAX_UNITS * U * scale


@given(theta=_THETAS, sigma=_SIGMAS)
@example(theta=0.0, sigma=0.0)
@example(theta=np.pi / 2, sigma=1.0)
def test_no_region_means_no_negative_transfer_below_one(
    theta: float, sigma: float
) -> None:
    assume(not has_negative_transfer_region(theta, sigma))
    gammas = np.linspace(1e-4, 1 - 1e-4, 401)
    values = linear_transferability(gammas, theta, sigma)
    scale = scratch_risk(gammas, sigma) + np.sin(theta) ** 2
    assert np.all(values >= -MAX_UNITS * U * scale)
    with pytest.raises(InvalidArgumentError, match="has_negative_transfer_region"):
        negative_transfer_gammas(theta, sigma)


@given(
    theta=st.floats(min_value=1e-6, max_value=np.pi - 1e-6),
    sigma=_SIGMAS,
)
def test_underparameterized_boundary_is_a_zero(theta: float, sigma: float) -> None:
    threshold = float(underparameterized_negative_transfer_gamma(theta, sigma))
    assume(threshold > 1.0)
    value = float(linear_transferability(threshold, theta, sigma))
    # The threshold carries ~4 roundings; T_lt moves by |T'| gamma per unit.
    slope = sigma**2 / (threshold - 1) ** 2
    allowed = MAX_UNITS * U * (slope * threshold + 2 * np.sin(theta) ** 2)
    assert abs(value) <= allowed
    if threshold < 1e6:
        assert float(linear_transferability(threshold * 1.01, theta, sigma)) < 0


def test_noiseless_interval_is_cos_squared_to_one() -> None:
    theta = np.linspace(0.1, np.pi / 2, 50)
    low, high = negative_transfer_gammas(theta, 0.0)
    np.testing.assert_allclose(low, np.cos(theta) ** 2, rtol=4 * U, atol=4 * U)
    np.testing.assert_allclose(high, 1.0, rtol=4 * U)


def test_region_shrinks_with_noise() -> None:
    sigma = np.linspace(0.0, 0.29, 30)
    low, high = negative_transfer_gammas(np.pi / 2.5, sigma)
    assert np.all(np.diff(high - low) < 0)


# ---------------------------------------------------------------------------
# Shapes and monotonicity stated by the paper.
# ---------------------------------------------------------------------------


@given(
    lam=st.floats(min_value=0.0, max_value=1e6),
    step=st.floats(min_value=1e-3, max_value=1e3),
    theta=st.floats(min_value=0.0, max_value=1.5),
)
def test_ridge_risk_increases_with_lambda(
    lam: float, step: float, theta: float
) -> None:
    # Theorem 3.8: strictly increasing for cos theta != 0; allow ties within
    # rounding (8u) where the increase is below it (lambda very large).
    first = float(ridge_transfer_risk(lam, theta))
    second = float(ridge_transfer_risk(lam + step, theta))
    assert second >= first - 8 * U
    assert float(ridge_transfer_risk(0.0, theta)) == pytest.approx(
        np.sin(theta) ** 2, abs=4 * U
    )


@given(
    gamma=st.floats(min_value=1.0, max_value=1e3, exclude_min=True),
    factor=st.floats(min_value=1.001, max_value=10.0),
    sigma=st.floats(min_value=1e-3, max_value=10.0),
)
def test_scratch_risk_decreases_above_one(
    gamma: float, factor: float, sigma: float
) -> None:
    assert scratch_risk(gamma * factor, sigma) < scratch_risk(gamma, sigma)


def test_scratch_risk_double_descent_shape() -> None:
    sigma = 0.2
    gamma = np.linspace(0.01, 0.99, 981)
    risk = scratch_risk(gamma, sigma)
    turn = int(np.argmin(risk))
    assert gamma[turn] == pytest.approx(1 - sigma, abs=1e-3)
    assert np.all(np.diff(risk[: turn + 1]) < 0)
    assert np.all(np.diff(risk[turn:]) > 0)
    assert scratch_risk(1 - 1e-9, sigma) > 1e6
    assert scratch_risk(1 + 1e-9, sigma) > 1e6


@given(
    gamma=_GAMMAS,
    sigma=_SIGMAS,
    theta=st.floats(min_value=0.0, max_value=np.pi / 2 - 1e-3),
    step=st.floats(min_value=1e-3, max_value=0.5),
)
def test_linear_transferability_degrades_with_angle(
    gamma: float, sigma: float, theta: float, step: float
) -> None:
    wider = min(theta + step, np.pi / 2)
    first = float(linear_transferability(gamma, theta, sigma))
    second = float(linear_transferability(gamma, wider, sigma))
    assert second <= first + MAX_UNITS * U * (abs(first) + 1)


@given(gamma=st.floats(min_value=1e-6, max_value=1.0, exclude_max=True), theta=_THETAS)
def test_finetune_sign_changes_at_pi_over_three(gamma: float, theta: float) -> None:
    value = float(finetune_transferability(gamma, theta))
    if theta < np.pi / 3 - 1e-9:
        assert value > 0
    elif theta > np.pi / 3 + 1e-9:
        assert value < 0
    assert float(finetune_transferability(1.0 + gamma, theta)) == 0.0


@given(gamma=_GAMMAS, theta=_THETAS, sigma=_SIGMAS)
def test_finetune_risk_is_scratch_minus_transferability(
    gamma: float, theta: float, sigma: float
) -> None:
    scratch = float(scratch_risk(gamma, sigma))
    for form in ("corrected", "printed"):
        gain = float(finetune_transferability(gamma, theta, sigma, form=form))
        computed = float(finetune_risk(gamma, theta, sigma, form=form))
        assert computed == scratch - gain


def test_linear_transfer_risk_decays_like_one_over_n() -> None:
    n = np.array([1e2, 1e4, 1e6])
    excess = linear_transfer_risk(n, 0.7, 0.3) - np.sin(0.7) ** 2
    np.testing.assert_allclose(excess * (n - 2), 0.3**2 + np.sin(0.7) ** 2, rtol=1e-9)


# ---------------------------------------------------------------------------
# The interpolation threshold gamma = 1.
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("function", "arguments"),
    [
        (scratch_risk, (1.0, 0.5)),
        (linear_transferability, (1.0, 0.3, 0.5)),
        (finetune_risk, (1.0, 0.3, 1e-300)),
    ],
)
def test_threshold_with_noise_raises(function: Callable, arguments: tuple) -> None:
    with pytest.raises(InvalidArgumentError, match="interpolation threshold"):
        function(*arguments)


def test_threshold_without_noise_is_the_limit() -> None:
    theta = 0.7
    assert float(scratch_risk(1.0, 0.0)) == 0.0
    assert float(linear_transferability(1.0, theta, 0.0)) == -(np.sin(theta) ** 2)
    assert float(finetune_risk(1.0, theta, 0.0)) == 0.0
    assert float(finetune_transferability(1.0, theta)) == 0.0
    for side in (1 - 1e-9, 1 + 1e-9):
        assert float(scratch_risk(side, 0.0)) == pytest.approx(0.0, abs=2e-9)
        assert float(linear_transferability(side, theta, 0.0)) == pytest.approx(
            -(np.sin(theta) ** 2), abs=2e-9
        )


def test_broadcasting_and_dtype() -> None:
    gamma = np.array([[0.5], [2.0]])
    theta = np.array([0.1, 0.2, 0.3])
    out = linear_transferability(gamma, theta, 0.1)
    assert out.shape == (2, 3)
    assert out.dtype == np.float64
    low, high = negative_transfer_gammas(np.array([1.2, 1.4]), 0.1)
    assert low.shape == high.shape == (2,)
    assert has_negative_transfer_region([0.1, 1.5], 0.2).dtype == np.bool_
    assert finetune_transferability(gamma, theta).shape == (2, 3)


# ---------------------------------------------------------------------------
# Bad input.
# ---------------------------------------------------------------------------

_BAD = [
    (scratch_risk, (0.0, 0.1), "gamma"),
    (scratch_risk, (-1.0, 0.1), "gamma"),
    (scratch_risk, (np.nan, 0.1), "gamma"),
    (scratch_risk, (0.5, -0.1), "sigma"),
    (scratch_risk, (0.5, np.inf), "sigma"),
    (scratch_risk, ("a", 0.1), "gamma"),
    (scratch_risk, ([0.5, 0.6], [0.1, 0.2, 0.3]), "broadcast"),
    (linear_transfer_risk, (2.0, 0.1, 0.1), "n"),
    (linear_transfer_risk, (1.0, 0.1, 0.1), "n"),
    (linear_transfer_risk, (10.0, -0.1, 0.1), "theta"),
    (linear_transfer_risk, (10.0, 3.2, 0.1), "theta"),
    (linear_transfer_risk, (10.0, 0.1, -1.0), "sigma"),
    (linear_transferability, (0.0, 0.1, 0.1), "gamma"),
    (linear_transferability, (0.5, 4.0, 0.1), "theta"),
    (linear_transferability, (0.5, 0.1, -0.1), "sigma"),
    (ridge_transfer_risk, (-0.1, 0.1), "lam"),
    (ridge_transfer_risk, (0.1, -0.1), "theta"),
    (finetune_risk, (-0.5, 0.1, 0.1), "gamma"),
    (finetune_risk, (0.5, 0.1, -0.1), "sigma"),
    (finetune_transferability, (0.0, 0.1), "gamma"),
    (finetune_transferability, (0.5, np.nan), "theta"),
    (negative_transfer_gammas, (0.1, 0.2), "has_negative_transfer_region"),
    (negative_transfer_gammas, (1.5, 1.0), "has_negative_transfer_region"),
    (negative_transfer_gammas, (1.5, -0.1), "sigma"),
    (has_negative_transfer_region, (4.0, 0.1), "theta"),
    (underparameterized_negative_transfer_gamma, (0.0, 0.1), "sin"),
    (underparameterized_negative_transfer_gamma, (0.5, -0.1), "sigma"),
]


@pytest.mark.parametrize(
    ("function", "arguments", "needle"),
    _BAD,
    ids=[f"{f.__name__}-{i}" for i, (f, _, _) in enumerate(_BAD)],
)
def test_invalid_arguments_raise(
    function: Callable, arguments: tuple, needle: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=needle):
        function(*arguments)


@pytest.mark.parametrize(
    ("function", "arguments"),
    [
        (linear_transfer_risk, (2.0 + 2.0**-51, 0.5, 1e150)),
        (scratch_risk, (1.0 - 2.0**-53, 1e150)),
        (underparameterized_negative_transfer_gamma, (1e-200, 1e150)),
    ],
)
def test_a_risk_beyond_float64_raises_instead_of_returning_inf(
    function: Callable, arguments: tuple
) -> None:
    # The true value (~1e300 / 2^-51 and the like) is finite but not a float64;
    # the functions returned inf as if it were the value.
    with pytest.raises(OutOfRangeError, match="float64 range"):
        function(*arguments)
