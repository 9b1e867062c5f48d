"""Symbols on an interval: the checks and the samplers draw inside it."""

from __future__ import annotations

import math
import pickle
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from implicit_bias.claims import (
    Basis,
    BoundedSymbol,
    Status,
    bounded,
    check_identity,
    check_inequality,
    check_limit,
    from_assumptions,
    interval_of,
)
from implicit_bias.claims.intervals import within_interval
from implicit_bias.errors import InvalidArgumentError

q = sp.Symbol("q", positive=True)
t = sp.Symbol("t")
#: q on (0, 1): a discount, a contraction factor, a cosine below 1.
share = bounded(q, 0, 1)


def test_a_bounded_symbol_is_the_symbol_with_its_interval() -> None:
    assert isinstance(share, BoundedSymbol)
    assert str(share) == "q"
    assert sp.latex(share) == "q"
    assert interval_of(share) == (0, 1)
    assert interval_of(q) is None
    # Made twice, the same symbol; on another interval, or without one, not.
    assert bounded(q, 0, 1) == share
    assert hash(bounded(q, 0, 1)) == hash(share)
    assert share != q
    assert share != bounded(q, 0, 2)
    # The interval implies the sign: SymPy's own reasoning uses it.
    assert bounded(sp.Symbol("r"), 0, 1).is_positive
    assert bounded(sp.Symbol("r"), -2, 0).is_negative
    assert bounded(sp.Symbol("r"), -1, 1).is_real


def test_the_interval_survives_pickling_and_srepr() -> None:
    # Checks run in worker processes, and srepr keys the verdict cache.
    relation = sp.Eq(share**t + 1, 2, evaluate=False)
    (restored,) = pickle.loads(pickle.dumps(relation)).free_symbols - {t}
    assert restored == share
    assert interval_of(restored) == (0, 1)
    assert "Integer(0), Integer(1)" in sp.srepr(share)
    assert sp.srepr(bounded(q, 0, 1)) != sp.srepr(bounded(q, 0, 2))


def test_the_interval_meets_the_sign_and_an_earlier_interval() -> None:
    assert interval_of(bounded(q, -1, 1)) == (0, 1)
    assert interval_of(bounded(share, sp.Rational(1, 2), 3)) == (sp.Rational(1, 2), 1)
    negative = sp.Symbol("s", negative=True)
    assert interval_of(bounded(negative, -1, 5)) == (-1, 0)
    assert interval_of(bounded(sp.Symbol("s"), 1, sp.oo)) == (1, sp.oo)
    # A float end is the decimal it prints as.
    assert interval_of(bounded(sp.Symbol("s"), 0.1, math.inf)) == (
        sp.Rational(1, 10),
        sp.oo,
    )


@pytest.mark.parametrize(
    ("symbol", "lower", "upper", "named"),
    [
        (q, 1, 1, "upper=1"),
        (q, 2, 1, "upper=1"),
        (q, sp.oo, sp.oo, "upper=oo"),
        (q, sp.I, 1, "lower=I"),
        (q, 0, 1 + 2j, "upper=(1+2j)"),
        (q, 0, "1", "upper='1'"),
        (q, float("nan"), 1, "lower=nan"),
        (q, sp.nan, 1, "lower=nan"),
        (q, 0, sp.Symbol("b"), "upper=b"),
        (q, True, 2, "lower=True"),
        # The interval holds no value the assumptions allow.
        (q, -2, -1, "lower=-2, upper=-1"),
        (
            sp.Symbol("n", integer=True),
            Fraction(1, 3),
            Fraction(2, 3),
            "lower=Fraction(1, 3)",
        ),
        (q + 1, 0, 1, "symbol=q + 1"),
        (sp.Symbol("z", imaginary=True), 0, 1, "symbol=z"),
    ],
)
def test_bad_intervals_are_refused_by_name(
    symbol: object, lower: object, upper: object, named: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=rf"^{_escaped(named)}"):
        bounded(symbol, lower, upper)  # type: ignore[arg-type]


def _escaped(text: str) -> str:
    return "".join("\\" + c if c in "()+*.[]" else c for c in text)


@pytest.mark.parametrize(
    ("symbol", "lower", "upper"),
    [
        (q, 0, 1),
        (sp.Symbol("s"), 1, sp.oo),
        (sp.Symbol("s"), -sp.oo, -2),
        (sp.Symbol("s"), sp.Rational(1, 3), sp.Rational(1, 3) + sp.Rational(1, 10**9)),
        (sp.Symbol("s"), sp.Rational(1, 10), sp.pi),
        (sp.Symbol("n", integer=True), -3, 3),
        (sp.Symbol("n", integer=True), 500, sp.oo),
        (sp.Symbol("k", odd=True), 0, 10),
    ],
)
def test_the_default_sampler_draws_strictly_inside(
    symbol: sp.Symbol, lower: sp.Expr, upper: sp.Expr
) -> None:
    on_interval = bounded(symbol, lower, upper)
    sampler = from_assumptions(on_interval)
    rng = np.random.default_rng(0)
    draws = [sampler(rng) for _ in range(300)]
    assert all(within_interval(on_interval, v) for v in draws)
    # Exactly: each draw as the rational it is.
    low, high = interval_of(on_interval)  # type: ignore[misc]
    for value in draws:
        assert low < _exact(value) < high
    if symbol.is_integer:
        assert all(type(v) is int for v in draws)
        assert all(
            getattr(sp.Integer(v), f"is_{fact}") == holds
            for v in draws
            for fact, holds in symbol.assumptions0.items()
        )


def _exact(value: int | mpmath.mpf) -> sp.Rational:
    """A draw as the rational it is (an mpf is sign, mantissa, exponent)."""
    if isinstance(value, int):
        return sp.Integer(value)
    sign, mantissa, exponent, _ = value._mpf_
    return (-1) ** sign * sp.Integer(int(mantissa)) * sp.Integer(2) ** int(exponent)


def test_an_integer_window_is_next_to_the_end_nearest_zero() -> None:
    rng = np.random.default_rng(1)
    far = from_assumptions(bounded(sp.Symbol("n", integer=True), 500, sp.oo))
    assert {far(rng) for _ in range(2000)} == set(range(501, 602))


def test_within_interval_is_exact() -> None:
    third = bounded(sp.Symbol("s"), 0, sp.Rational(1, 3))
    assert within_interval(third, mpmath.mpf(1) / 3)  # rounded down: inside
    assert not within_interval(third, sp.Rational(1, 3))
    assert within_interval(q, 10**9)  # no interval: anything


def test_check_identity_samples_inside_the_interval() -> None:
    # |q - 1| = 1 - q holds exactly on (0, 1) and nowhere above 1.
    on_interval = check_identity(sp.Abs(share - 1), 1 - share)
    assert (on_interval.status, on_interval.basis) == (Status.HOLDS, Basis.NUMERICAL)
    unbounded = check_identity(sp.Abs(q - 1), 1 - q)
    assert (unbounded.status, unbounded.basis) == (Status.FAILS, Basis.CERTIFIED)
    assert unbounded.point is not None
    assert Fraction(unbounded.point["q"]) > 1


def test_check_inequality_samples_inside_the_interval() -> None:
    assert check_inequality(share**2, share).status == Status.HOLDS
    assert check_inequality(q**2, q).status == Status.FAILS


def test_a_limit_on_the_interval_holds_and_off_it_fails() -> None:
    on_interval = check_limit(share**t, t, sp.oo, 0)
    assert (on_interval.status, on_interval.basis) == (Status.HOLDS, Basis.NUMERICAL)
    assert "q in (0, 1)" in on_interval.detail
    assert "40 points" in on_interval.detail
    above = bounded(q, 1, sp.oo)
    assert check_limit(above**t, t, sp.oo, sp.oo).status == Status.HOLDS
    refuted = check_limit(above**t, t, sp.oo, 0)
    assert (refuted.status, refuted.basis) == (Status.FAILS, Basis.CERTIFIED)
    assert refuted.point is not None
    assert Fraction(refuted.point["q"]) > 1
