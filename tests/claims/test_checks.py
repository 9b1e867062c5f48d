"""The reusable checks: exact proof, numeric fallback, limits and series."""

from __future__ import annotations

import mpmath
import sympy as sp

from implicit_bias.claims.checks import (
    check_equal,
    check_identity,
    check_limit,
    check_series,
    interval,
)
from implicit_bias.claims.engine import Reason, Status

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
    assert "certified" in verdict.detail


def test_a_counterexample_that_cannot_be_certified_is_inconclusive() -> None:
    # Far from 0 in 50-digit arithmetic, but besselj has no ball version here.
    verdict = check_identity(sp.besselj(0, x), sp.Integer(0))
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.UNDECIDED)
    assert "not certified" in verdict.detail


def test_limits() -> None:
    assert check_limit(sp.sin(x) / x, x, 0, 1).status == Status.HOLDS
    assert check_limit(1 / x, x, 0, sp.oo).status == Status.HOLDS
    assert check_limit(1 / x, x, 0, 0).status == Status.FAILS


def test_series() -> None:
    assert check_series(sp.exp(x), x, 1 + x + x**2 / 2, 3).status == Status.HOLDS
    assert check_series(sp.exp(x), x, 1 + x, 3).status == Status.FAILS


# atan(y) + atan(1/y) = pi/2 holds for y > 0 only, and SymPy does not prove it:
# the numeric fallback decides it.
_ARCTANGENTS = (sp.atan(y) + sp.atan(1 / y), sp.pi / 2)


def test_a_residual_that_is_never_finite_is_inconclusive_not_holds() -> None:
    verdict = check_identity(*_ARCTANGENTS, samplers={y: lambda rng: mpmath.mpf(0)})
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.NON_FINITE)
    assert "200 of 200 points" in verdict.detail


def test_the_numeric_fallback_decides_on_finite_points() -> None:
    assert check_identity(*_ARCTANGENTS, samplers={y: interval(1e-3, 1e3)}).status == (
        Status.HOLDS
    )
    assert check_identity(*_ARCTANGENTS, samplers={y: interval(-2, -1)}).status == (
        Status.FAILS
    )


def test_a_finite_counterexample_fails_even_beside_non_finite_points() -> None:
    draws = iter([mpmath.mpf(0), mpmath.mpf(-1)] * 100)
    verdict = check_identity(*_ARCTANGENTS, samplers={y: lambda rng: next(draws)})
    assert verdict.status == Status.FAILS
    assert "y=-1.0" in verdict.detail


def test_a_residual_that_cannot_be_evaluated_is_inconclusive() -> None:
    f = sp.Function("f")
    verdict = check_identity(2 * f(x), f(x))
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.UNEVALUATED)


def test_an_unevaluated_limit_or_series_is_inconclusive_not_fails() -> None:
    f = sp.Function("f")
    for verdict in (check_limit(f(x), x, 0, 0), check_series(f(x), x, f(0), 2)):
        assert (verdict.status, verdict.reason) == (
            Status.INCONCLUSIVE,
            Reason.UNEVALUATED,
        )


def test_a_limit_past_its_budget_is_inconclusive() -> None:
    heavy = (sp.exp(sp.sin(x) ** 7) - sp.exp(sp.tan(x) ** 7)) / x**9
    verdict = check_limit(heavy, x, 0, 0, budget_seconds=1e-3)
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.BUDGET)


def test_limits_with_symbols_fail_only_on_a_counterexample() -> None:
    assert check_limit(x * y, x, 1, y).status == Status.HOLDS
    refuted = check_limit(x * y, x, 1, 2 * y)
    assert refuted.status == Status.FAILS
    assert "y=" in refuted.detail
    assert check_limit(1 / x, x, 0, -sp.oo).status == Status.FAILS


def test_equal_values() -> None:
    assert check_equal(sp.sin(y) ** 2 + sp.cos(y) ** 2, sp.Integer(1)).status == (
        Status.HOLDS
    )
    assert check_equal(sp.Integer(1), sp.Integer(2)).status == Status.FAILS
    assert check_equal(sp.Integer(2), 2).status == Status.HOLDS  # type: ignore[arg-type]
    assert check_equal(sp.oo, 1).status == Status.FAILS  # type: ignore[arg-type]
    assert check_equal(sp.nan, sp.Integer(2)).status == Status.INCONCLUSIVE
    assert check_equal(sp.Limit(1 / y, y, 0), sp.oo).reason == Reason.UNEVALUATED
