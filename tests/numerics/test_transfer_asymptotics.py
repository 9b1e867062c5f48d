"""Exact finite-size transfer risks: theory, mpmath references and Monte Carlo."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import example, given
from hypothesis import strategies as st

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics import transfer_asymptotics as numerics
from implicit_bias.numerics import transfer_risks
from implicit_bias.theory import transfer_asymptotics as theory

#: Monte Carlo means must be within this many standard errors of the exact value
#: (two-sided normal probability 6e-5; seeds are fixed).
STANDARD_ERRORS = 4.0
#: float64 quadrature vs mpmath: ~500 positive terms, ~1000 u in all.
QUADRATURE_RTOL = 1e-13


def test_public_names_cite_their_equation_with_formula_and_example() -> None:
    # The requirements tests/test_public_api.py makes of exported numerics.
    for name in numerics.__all__:
        doc = inspect.getdoc(getattr(numerics, name)) or ""
        assert "Eq" in doc, name
        assert "of features-are-fate" in doc, name
        assert ".. math::" in doc, name
        assert ">>>" in doc, name


@pytest.mark.parametrize(
    ("call", "needle"),
    [
        (lambda: numerics.scratch_risk_finite(2.5, 10, 0.1), "n=2.5"),
        (lambda: numerics.scratch_risk_finite(0, 10, 0.1), "n=0.0"),
        (lambda: numerics.scratch_risk_finite(3, 0, 0.1), "d=0.0"),
        (lambda: numerics.scratch_risk_finite(3, 10, -0.1), "sigma=-0.1"),
        (lambda: numerics.scratch_risk_finite(3, 10, np.nan), "sigma=nan"),
        (lambda: numerics.ridge_transfer_risk_finite(2, 0.1, 0.3, 0.1), "n=2.0"),
        (lambda: numerics.ridge_transfer_risk_finite(10, -1, 0.3, 0.1), "lam=-1.0"),
        (lambda: numerics.ridge_transfer_risk_finite(10, 1, np.inf, 0.1), "theta=inf"),
        (
            lambda: numerics.ridge_transfer_risk_finite_mp(10, 1, np.nan, 0.1),
            "theta=nan",
        ),
        (
            lambda: numerics.ridge_transfer_risk_finite_mp(10, 1, 0.3, -0.1),
            "sigma=-0.1",
        ),
        (lambda: numerics.chi_square_ridge_integrals([3, 4.5], 0.1), "n=4.5"),
        (lambda: numerics.chi_square_ridge_integrals_mp(10, -0.5), "lam=-0.5"),
        (
            lambda: numerics.chi_square_ridge_integrals_mp(
                [3, 4],  # type: ignore[arg-type]
                0.5,
            ),
            "scalars",
        ),
        (
            lambda: numerics.scratch_risk_samples(3, 10, 0.1, draws=0, seed=1),
            "draws=0",
        ),
        (
            lambda: numerics.ridge_transfer_risk_samples(
                5, 1, 0.1, 0.3, 0.1, draws=3, seed=1
            ),
            "d=1 ",
        ),
        # Each of these was accepted: NaN risks, a fresh entropy seed, an
        # angle outside [0, pi], a bool counted as one sample.
        (
            lambda: numerics.scratch_risk_samples(5, 8, np.nan, draws=2, seed=0),
            "sigma",
        ),
        (
            lambda: numerics.scratch_risk_samples(5, 8, 0.1, draws=2, seed=None),  # type: ignore[arg-type]
            "seed",
        ),
        (
            lambda: numerics.ridge_transfer_risk_samples(
                5, 8, 0.1, 4.0, 0.1, draws=2, seed=0
            ),
            "theta",
        ),
        (lambda: numerics.ridge_transfer_risk_finite(10, 0.5, 4.0, 0.1), "theta"),
        (lambda: numerics.scratch_risk_finite(True, 10, 0.1), "n"),
        (lambda: numerics.chi_square_ridge_integrals_mp(6, 0.5, dps=0), "dps"),
        (lambda: numerics.chi_square_ridge_integrals_mp(6, 0.5, dps=10**9), "dps"),
    ],
)
def test_invalid_arguments_raise(call: Callable[[], object], needle: str) -> None:
    with pytest.raises(InvalidArgumentError, match=None) as info:
        call()
    assert needle in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("noise", [0.0, 0.7])
def test_scratch_risk_matches_the_theory_expression(noise: float) -> None:
    samples, dimensions = np.meshgrid(np.arange(1, 13), np.arange(1, 13))
    fast = numerics.scratch_risk_finite(samples, dimensions, noise)
    exact = theory.scratch_risk_finite().subs(theory.sigma, sp.nsimplify(noise))
    for s, dim, value in zip(samples.flat, dimensions.flat, fast.flat, strict=True):
        expected = exact.subs({theory.n: int(s), theory.d: int(dim)})
        if expected == sp.oo:
            assert value == np.inf
        else:
            # Two terms of <= 2 roundings each and their sum: within 5 u.
            assert value == pytest.approx(float(expected), rel=5.6e-16, abs=1e-300)


def test_scratch_risk_broadcasts_and_tends_to_eq10() -> None:
    risk = numerics.scratch_risk_finite(np.array([[10], [20]]), [40, 80, 160], 0.5)
    assert risk.shape == (2, 3)
    assert risk.dtype == np.float64
    large = numerics.scratch_risk_finite(10**6, 2 * 10**6, 0.5)
    assert large == pytest.approx(transfer_risks.scratch_risk(0.5, 0.5), rel=1e-6)


@pytest.mark.parametrize("samples", [3, 4, 5, 17, 250, 4000, 100000])
@pytest.mark.parametrize("ridge", [0.0, 1e-8, 0.2, 5.0, 1e3])
def test_chi_square_integrals_match_mpmath(samples: int, ridge: float) -> None:
    fast = numerics.chi_square_ridge_integrals(samples, ridge)
    reference = numerics.chi_square_ridge_integrals_mp(samples, ridge, dps=20)  # mpmath
    for a, b in zip(fast, reference, strict=True):
        assert float(a) == pytest.approx(float(b), rel=QUADRATURE_RTOL)


@pytest.mark.parametrize(("samples", "ridge"), [(3, 0.7), (8, 0.0), (40, 2.5)])
def test_chi_square_reference_matches_separate_quadratures(
    samples: int, ridge: float
) -> None:
    # Each expectation by its own quadrature of the chi-square density at 40
    # digits, no shared nodes: the reference (which computes the density once
    # per node for the three) must agree to its 20 digits.
    reference = numerics.chi_square_ridge_integrals_mp(samples, ridge, dps=20)
    with mpmath.workdps(40):
        n, lam = mpmath.mpf(samples), mpmath.mpf(ridge) * samples

        def expectation(h: Callable[[mpmath.mpf], mpmath.mpf]) -> mpmath.mpf:
            return mpmath.quad(
                lambda v: (
                    h(v)
                    * v ** (n / 2 - 1)
                    * mpmath.exp(-v / 2)
                    / (2 ** (n / 2) * mpmath.gamma(n / 2))
                ),
                [0, n, mpmath.inf],
            )

        separate = (
            expectation(lambda v: v**2 / (v + lam) ** 2),
            expectation(lambda v: v / (v + lam) ** 2),
            expectation(lambda v: v / (v + lam)),
        )
        for value, expected in zip(reference, separate, strict=True):
            assert abs(value / expected - 1) < mpmath.mpf(10) ** -19


@given(
    samples=st.integers(3, 10**6),
    ridge=st.floats(0, 1e4, allow_nan=False, allow_infinity=False),
)
@example(samples=3, ridge=0.0)
@example(samples=3, ridge=1e-12)
def test_chi_square_integrals_are_ordered(samples: int, ridge: float) -> None:
    shifted, plain, second = numerics.chi_square_ridge_integrals(samples, ridge)
    # x/(x+lam) is in [0, 1], so its square is below it; x/(x+lam)^2 <= 1/x.
    assert 0 <= shifted <= second * (1 + 1e-14) <= 1 + 1e-14
    assert 0 <= plain <= (1 / (samples - 2)) * (1 + 1e-13)


def test_chi_square_integrals_at_zero_ridge() -> None:
    samples = np.arange(3, 2000)
    shifted, plain, second = numerics.chi_square_ridge_integrals(samples, 0.0)
    np.testing.assert_allclose(shifted, 1.0, rtol=1e-14)
    np.testing.assert_allclose(second, 1.0, rtol=1e-14)
    np.testing.assert_allclose(plain, 1.0 / (samples - 2.0), rtol=1e-13)


def test_ridge_risk_at_zero_ridge_is_eq12() -> None:
    samples = np.arange(3, 500)
    theta, noise = 0.9, 0.3
    risk = numerics.ridge_transfer_risk_finite(samples, 0.0, theta, noise)
    expected = transfer_risks.linear_transfer_risk(samples, theta, noise)
    np.testing.assert_allclose(risk, expected, rtol=1e-13)


@pytest.mark.parametrize(
    ("samples", "ridge", "theta", "noise"),
    [(3, 0.1, 0.2, 0.0), (10, 0.5, 1.0, 1.0), (1000, 2.0, np.pi / 2, 0.3)],
)
def test_ridge_risk_matches_mpmath(
    samples: int, ridge: float, theta: float, noise: float
) -> None:
    fast = numerics.ridge_transfer_risk_finite(samples, ridge, theta, noise)
    with mpmath.workdps(30):
        reference = numerics.ridge_transfer_risk_finite_mp(samples, ridge, theta, noise)
    assert float(fast) == pytest.approx(float(reference), rel=QUADRATURE_RTOL)


def test_ridge_risk_tends_to_eq15_as_one_over_n() -> None:
    ridge, theta, noise = 0.4, 0.6, 0.2
    coefficients = theory.ridge_risk_expansion(2)
    values = {theory.lam: sp.nsimplify(ridge), theory.theta: sp.nsimplify(theta)}
    values[theory.sigma] = sp.nsimplify(noise)
    first, second = (float(c.subs(values)) for c in coefficients[1:])
    samples = np.array([500.0, 5000.0])
    difference = numerics.ridge_transfer_risk_finite(
        samples, ridge, theta, noise
    ) - transfer_risks.ridge_transfer_risk(ridge, theta)
    np.testing.assert_array_less(
        np.abs(samples * difference - first), 2 * abs(second) / samples
    )


def _mean_and_error(draws: np.ndarray) -> tuple[float, float]:
    return float(draws.mean()), float(draws.std(ddof=1) / np.sqrt(draws.size))


@pytest.mark.parametrize(
    ("samples", "dimension", "noise"), [(6, 20, 0.5), (20, 6, 0.8), (3, 3, 0.0)]
)
def test_scratch_risk_monte_carlo(samples: int, dimension: int, noise: float) -> None:
    draws = numerics.scratch_risk_samples(
        samples, dimension, noise, draws=2000, seed=samples
    )
    mean, error = _mean_and_error(draws)
    exact = float(numerics.scratch_risk_finite(samples, dimension, noise))
    assert abs(mean - exact) <= STANDARD_ERRORS * error + 1e-12


@pytest.mark.parametrize(
    ("samples", "dimension", "ridge", "theta", "noise"),
    [(8, 10, 0.4, 0.5, 0.3), (15, 4, 2.0, 1.3, 0.0)],
)
def test_ridge_risk_monte_carlo(
    samples: int, dimension: int, ridge: float, theta: float, noise: float
) -> None:
    draws = numerics.ridge_transfer_risk_samples(
        samples, dimension, ridge, theta, noise, draws=2000, seed=samples
    )
    mean, error = _mean_and_error(draws)
    exact = float(numerics.ridge_transfer_risk_finite(samples, ridge, theta, noise))
    assert abs(mean - exact) <= STANDARD_ERRORS * error


def test_chi_square_integrals_agree_across_chunks() -> None:
    samples = np.arange(3, 9003).reshape(3, 3000)  # more points than one chunk
    ridge = np.linspace(0.0, 2.0, 3000)
    together = numerics.chi_square_ridge_integrals(samples, ridge)
    for row, column in [(0, 0), (1, 1095), (1, 1096), (2, 2999)]:
        alone = numerics.chi_square_ridge_integrals(samples[row, column], ridge[column])
        for a, b in zip(together, alone, strict=True):
            assert a.shape == samples.shape
            assert a[row, column] == b


def test_a_finite_risk_beyond_float64_raises_instead_of_returning_inf() -> None:
    # sigma^2 d / (n - d - 1) with sigma = 1e160 is finite but not a float64.
    with pytest.raises(OutOfRangeError, match="sigma"):
        numerics.scratch_risk_finite(10, 3, 1e160)
    assert numerics.scratch_risk_finite(10, 10, 1e160) == np.inf  # documented


def test_ridge_samples_at_a_ridge_below_rounding_are_the_least_squares_limit() -> None:
    # n lam = 5e-300 vanishes against Phi^T Phi in float64: the system was
    # singular (LinAlgError) though the exact solution is the lam -> 0 limit.
    tiny = numerics.ridge_transfer_risk_samples(5, 8, 1e-300, 0.5, 0.3, draws=3, seed=0)
    plain = numerics.ridge_transfer_risk_samples(5, 8, 0.0, 0.5, 0.3, draws=3, seed=0)
    # Two float64 routes to one rank-one solution: each errs by a few d ulps
    # (d = 8 terms per product), so 10 d eps bounds their difference.
    eps = np.finfo(np.float64).eps
    np.testing.assert_allclose(tiny, plain, rtol=10 * 8 * eps)


def test_a_noise_level_near_the_float64_maximum_raises_by_name() -> None:
    # sigma = 1.7e308: sigma eps overflowed inside y = X beta_t + sigma eps and
    # the draws came back NaN; the risk ~ sigma^2 is beyond float64.
    with pytest.raises(OutOfRangeError, match=r"sigma=1\.7e"):
        numerics.scratch_risk_samples(5, 8, 1.7e308, draws=4, seed=0)
    with pytest.raises(OutOfRangeError, match=r"sigma=1\.7e"):
        numerics.ridge_transfer_risk_samples(5, 8, 0.5, 0.5, 1.7e308, draws=4, seed=0)
    with pytest.raises(OutOfRangeError, match=r"sigma=1\.7e"):
        numerics.ridge_transfer_risk_finite(10, 0.5, 0.5, 1.7e308)


def test_a_finite_risk_at_extreme_ridge_and_noise_is_computed() -> None:
    # n lam overflowed for lam = 1.7e308 (NaN from inf * 0 in n lam I): the
    # readout is Phi^T y / (n lam) -> 0, so the risk is ||beta_t||^2 = 1 to
    # rounding, even with sigma = 1e300 (sigma / (n lam) ~ 1e-9).
    for noise in (0.3, 1e300):
        risks = numerics.ridge_transfer_risk_samples(
            5, 8, 1.7e308, 0.5, noise, draws=4, seed=0
        )
        np.testing.assert_allclose(risks, 1.0, rtol=1e-8)
    # sigma^2 overflows at 1.4e154 but sigma^2 I_1 need not: at lam = 1e300,
    # I_1(n, lam) ~ 1/(n lam^2), and the risk is 1 + sigma^2 I_1 ~ 1 + 1e-293.
    risk = numerics.ridge_transfer_risk_finite(10, 1e300, 0.5, 1e160)
    assert np.isfinite(risk)
    np.testing.assert_allclose(risk, 1.0, rtol=1e-12)
