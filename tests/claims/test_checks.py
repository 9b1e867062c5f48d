"""The reusable checks: exact proof, numeric fallback, limits and series."""

from __future__ import annotations

import sympy as sp

from implicit_bias.claims.checks import (
    check_identity,
    check_limit,
    check_series,
    interval,
)
from implicit_bias.claims.engine import Status

x = sp.Symbol("x", positive=True)
y = sp.Symbol("y", real=True)


def test_a_true_identity_is_proven_exactly() -> None:
    verdict = check_identity((x + 1) ** 2, x**2 + 2 * x + 1)
    assert verdict.status == Status.HOLDS
    assert verdict.detail.startswith("exact")


def test_a_false_identity_fails_with_a_point() -> None:
    verdict = check_identity((x + 1) ** 2, x**2 + 1)
    assert verdict.status == Status.FAILS
    assert "x=" in verdict.detail


def test_numeric_fallback_is_used_and_reported_when_sympy_has_no_time() -> None:
    # asinh(x) = log(x + sqrt(x^2 + 1)) holds; with no time for simplify, the
    # check must fall back to 50-digit numerics and say so.
    verdict = check_identity(
        sp.asinh(y), sp.log(y + sp.sqrt(y**2 + 1)), budget_seconds=1e-6
    )
    assert verdict.status == Status.HOLDS
    assert verdict.detail.startswith("numerically, 200 points")


def test_numeric_fallback_catches_a_small_error() -> None:
    verdict = check_identity(
        sp.asinh(y),
        sp.log(y + sp.sqrt(y**2 + 1)) + sp.Rational(1, 10**20),
        samplers={y: interval(1, 2)},
        budget_seconds=1e-6,
    )
    assert verdict.status == Status.FAILS


def test_limits() -> None:
    assert check_limit(sp.sin(x) / x, x, 0, 1).status == Status.HOLDS
    assert check_limit(1 / x, x, 0, sp.oo).status == Status.HOLDS
    assert check_limit(1 / x, x, 0, 0).status == Status.FAILS


def test_series() -> None:
    assert check_series(sp.exp(x), x, 1 + x + x**2 / 2, 3).status == Status.HOLDS
    assert check_series(sp.exp(x), x, 1 + x, 3).status == Status.FAILS
