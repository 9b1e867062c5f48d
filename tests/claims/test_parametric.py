"""Parametric results decided at exact parameter values, not by is_zero."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from fractions import Fraction

import pytest
import sympy as sp

from implicit_bias.claims import parametric
from implicit_bias.claims.engine import Basis, CheckTimeout, Reason, Status
from implicit_bias.claims.intervals import bounded
from implicit_bias.claims.parametric import (
    PARAMETRIC_POINTS,
    decide_at_points,
    decide_parametric,
    depends_on_parameters,
)
from implicit_bias.errors import InvalidArgumentError

q = sp.Symbol("q", positive=True)
t = sp.Symbol("t")
y = sp.Symbol("y", real=True)
n = sp.Symbol("n", integer=True, nonnegative=True)
#: sympy.limit(q**t, t, oo): 0 for q < 1, nan at q = 1, oo for q > 1.
power_limit = sp.exp(sp.oo * sp.sign(sp.log(q)))


@pytest.mark.parametrize(
    ("expression", "parametric_"),
    [
        (power_limit, True),
        (sp.oo * y, True),
        (sp.Piecewise((0, y < 1), (1, True)), True),
        (sp.Heaviside(y - 1), True),
        (sp.Abs(y) + 1, True),
        (sp.Max(y, 1), True),
        (sp.sign(y) * sp.exp(y), True),
        # No parameter, or none inside the piecewise node: SymPy decides it.
        (sp.oo, False),
        (sp.Abs(sp.Integer(-2)) + y, False),
        (sp.exp(-(y**2)), False),
        (sp.Integer(0), False),
        # A matrix is compared entrywise elsewhere, not evaluated as a value.
        (sp.Matrix([[sp.Abs(y)]]), False),
    ],
)
def test_what_depends_on_parameters(expression: sp.Expr, parametric_: bool) -> None:
    assert depends_on_parameters(expression) is parametric_


def test_the_power_limit_fails_at_a_point_above_one() -> None:
    verdict = decide_at_points(power_limit, sp.Integer(0), what="limit")
    assert (verdict.status, verdict.basis) == (Status.FAILS, Basis.CERTIFIED)
    assert verdict.point is not None
    assert Fraction(verdict.point["q"]) > 1
    assert "limit = oo, not 0 (an infinity against a number)" in (
        verdict.counterexample or ""
    )
    # The point is exact: the limit is oo there.
    at = sp.Rational(Fraction(verdict.point["q"]))
    assert power_limit.xreplace({q: at}) == sp.oo


def test_on_the_interval_the_power_limit_holds_at_every_point() -> None:
    share = bounded(q, 0, 1)
    verdict = decide_at_points(power_limit.xreplace({q: share}), sp.Integer(0))
    assert (verdict.status, verdict.basis) == (Status.HOLDS, Basis.NUMERICAL)
    assert f"at {PARAMETRIC_POINTS} points" in verdict.detail
    assert f"({PARAMETRIC_POINTS} exactly, 0 within" in verdict.detail
    assert "q in (0, 1)" in verdict.detail
    assert "not proved" in verdict.detail


def test_two_infinities_are_equal_only_when_the_same() -> None:
    assert decide_at_points(sp.oo * sp.sign(y), sp.oo).status == Status.FAILS
    refuted = decide_at_points(sp.oo * sp.sign(y), -sp.oo)
    assert refuted.status == Status.FAILS
    assert "different infinities" in (refuted.counterexample or "")
    assert Fraction(refuted.point["y"]) > 0  # type: ignore[index]


def test_numbers_that_agree_to_fifty_digits_but_not_exactly_are_close() -> None:
    # log(a) + log(3) - log(3a) at a rational a stays unsimplified and ball
    # arithmetic cannot exclude 0: the comparison falls to 50 digits.
    value = sp.Piecewise(
        (sp.log(2 + y**2) + sp.log(3), y > 0), (sp.log(6 + 3 * y**2), True)
    )
    verdict = decide_at_points(value, sp.log(6 + 3 * y**2), points=5)
    assert verdict.status == Status.HOLDS, verdict.detail
    assert "5 points" in verdict.detail
    assert ", 0 within" not in verdict.detail


def test_a_point_where_sympy_gives_nan_is_inconclusive() -> None:
    # n = 0 is among the draws of a nonnegative integer: oo * sign(0) is nan.
    verdict = decide_at_points(sp.oo * sp.sign(n), sp.oo)
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.NON_FINITE)
    assert "n=0" in verdict.detail
    assert "nan" in verdict.detail


def test_a_point_sympy_leaves_unevaluated_is_inconclusive() -> None:
    unknown = sp.Function("f")
    verdict = decide_at_points(sp.Abs(y) * sp.Integral(unknown(t), (t, 0, 1)), 0)
    assert (verdict.status, verdict.reason) == (
        Status.INCONCLUSIVE,
        Reason.UNEVALUATED,
    )


@contextlib.contextmanager
def _out_of_time(seconds: float) -> Iterator[None]:
    raise CheckTimeout(f"step exceeded its {seconds:g} s CPU-time budget")
    yield


def test_past_the_budget_it_is_inconclusive(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parametric, "time_limit", _out_of_time)
    verdict = decide_parametric(power_limit, sp.Integer(0))
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.BUDGET)


def test_a_difference_that_simplifies_to_zero_is_a_proof_without_infinities() -> None:
    proven = decide_parametric(sp.Abs(y) * sp.sign(y), y)
    assert (proven.status, proven.basis) == (Status.HOLDS, Basis.PROOF)
    # With an infinity, oo - oo is no 0: decided at points, never "exact".
    sampled = decide_parametric(sp.oo * sp.sign(q + 1), sp.oo * sp.sign(2 * q + 2))
    assert (sampled.status, sampled.basis) == (Status.HOLDS, Basis.NUMERICAL)


def test_the_points_are_reproducible() -> None:
    first = decide_at_points(sp.sign(y), sp.Integer(1), seed=3)
    assert first == decide_at_points(sp.sign(y), sp.Integer(1), seed=3)


@pytest.mark.parametrize("points", [0, -1, 2.5, True])
def test_bad_point_counts_are_refused(points: object) -> None:
    with pytest.raises(InvalidArgumentError, match=r"^points="):
        decide_at_points(sp.sign(y), sp.Integer(1), points=points)  # type: ignore[arg-type]
