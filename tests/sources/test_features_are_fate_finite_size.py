"""The finite-size corrections of features-are-fate's limit formulas (issue 20)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics import transfer_asymptotics as numerics
from implicit_bias.numerics import transfer_risks as limits
from implicit_bias.sources.features_are_fate import _finite_size as finite_size
from implicit_bias.theory import transfer_asymptotics as theory

_n, _d, _sigma, _theta = theory.n, theory.d, theory.sigma, theory.theta


def test_the_scratch_corrections_are_the_closed_forms() -> None:
    over, under = finite_size.scratch_correction_expressions()
    assert sp.simplify(over - _sigma**2 * _n / ((_d - _n) * (_d - _n - 1))) == 0
    assert sp.simplify(under - _sigma**2 * _d / ((_n - _d) * (_n - _d - 1))) == 0


def test_the_linear_correction_is_the_finite_term_of_eq_12() -> None:
    expected = (sp.sin(_theta) ** 2 + _sigma**2) / (_n - 2)
    assert sp.simplify(finite_size.linear_correction_expression() - expected) == 0


def test_the_ridge_limit_is_eq_141() -> None:
    difference = finite_size.ridge_limit_expression() - theory.ridge_risk_eq141()
    assert sp.simplify(difference) == 0


@pytest.mark.parametrize(("n", "d"), [(30, 60), (90, 60), (18, 60), (114, 60)])
def test_the_scratch_correction_is_the_finite_risk_minus_eq_10(n: int, d: int) -> None:
    # numerics.transfer_risks.scratch_risk is eq. (10), written separately.
    expected = float(numerics.scratch_risk_finite(n, d, 0.5)) - float(
        limits.scratch_risk(n / d, 0.5)
    )
    assert finite_size.scratch_correction(n, d, 0.5) == pytest.approx(
        expected, rel=1e-12
    )


@pytest.mark.parametrize(("n", "d"), [(59, 60), (60, 60), (61, 60)])
def test_the_scratch_correction_needs_n_and_d_apart(n: int, d: int) -> None:
    with pytest.raises(InvalidArgumentError, match="n - d"):
        finite_size.scratch_correction(n, d, 0.5)


@pytest.mark.parametrize("lam", [0.0, 0.2, 0.6])
def test_the_ridge_correction_is_eq_128_minus_eq_15(lam: float) -> None:
    expected = float(
        numerics.ridge_transfer_risk_finite(40, lam, np.pi / 8, 0.2)
    ) - float(limits.ridge_transfer_risk(lam, np.pi / 8))
    assert finite_size.ridge_correction(40, lam, np.pi / 8, 0.2) == pytest.approx(
        expected, rel=1e-10
    )


def test_the_ridge_correction_at_lambda_0_is_the_linear_one() -> None:
    # Eq. (128) at lambda = 0 is eq. (12).
    assert finite_size.ridge_correction(12, 0.0, 0.3, 0.2) == pytest.approx(
        finite_size.linear_correction(12, 0.3, 0.2), rel=1e-12
    )


def test_the_corrections_vanish_like_one_over_the_size() -> None:
    sizes = np.array([1e3, 1e4, 1e5])
    scratch = [finite_size.scratch_correction(int(s), int(2 * s), 0.5) for s in sizes]
    # sigma^2 gamma / (1 - gamma)^2 at gamma = 1/2, per unit of d = 2n.
    np.testing.assert_allclose(2 * sizes * scratch, 0.5, rtol=3e-3)
    linear = [finite_size.linear_correction(int(s), 0.3, 0.2) for s in sizes]
    np.testing.assert_allclose(sizes * linear, np.sin(0.3) ** 2 + 0.04, rtol=3e-3)
