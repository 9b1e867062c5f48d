"""The local search for a violation of an inequality near its closest sampled points."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from implicit_bias.claims import numeric_fallback
from implicit_bias.claims.checks import check_inequality
from implicit_bias.claims.engine import Basis, Status
from implicit_bias.claims.gap_search import (
    SEARCH_EVALUATIONS,
    SearchOutcome,
    search_coordinates,
    search_violation,
)
from implicit_bias.claims.intervals import bounded, within_interval

x = sp.Symbol("x", positive=True)
# Violated only for |x - 1| < 1e-4: random points of (1e-3, 1e3) miss it.
_THIN_LHS = sp.Rational(2, 10**8)
_THIN_RHS = (x - 1) ** 2 + sp.Rational(1, 10**8)

a, b, c, d, e, f, u, v = sp.symbols("a b c d e f u v", real=True)
# A true bound, lhs <= 0 <= rhs, with a square (a^2 u^2) mutated to a u^2:
# violated where a < 0 outweighs b^2 + d^2 + e^2 and the rest. Relative to
# the sides the gap is 1 wherever lhs < 0 < rhs, with nothing to follow; the
# terms of the sides show where a u^2 gains on the others.
_SQUARES = (b**2 + d**2 + e**2) * u**2 + a**2 * v**2 + f**2 * v**2
_MUTATED_LHS = -(a * u**2 + _SQUARES)
_TRUE_LHS = -(a**2 * u**2 + _SQUARES)


def _no_search(*args: object, **kwargs: object) -> SearchOutcome:
    return SearchOutcome([], 0, 0, 0, 0)


def test_a_violation_on_a_thin_set_is_found_and_certified() -> None:
    verdict = check_inequality(_THIN_LHS, _THIN_RHS, points=50)
    assert (verdict.status, verdict.basis) == (Status.FAILS, Basis.CERTIFIED)
    assert "x=1.0000" in verdict.detail or "x=0.9999" in verdict.detail


def test_the_random_sample_alone_misses_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(numeric_fallback, "search_violation", _no_search)
    verdict = check_inequality(_THIN_LHS, _THIN_RHS, points=50)
    assert verdict.status == Status.HOLDS


def test_a_violation_where_the_sides_keep_their_signs_is_found() -> None:
    # The search of 400 steps along the gap relative to the sides said
    # holds here (min relative gap 1.0).
    verdict = check_inequality(_MUTATED_LHS, c**2, points=20, seed=1)
    assert (verdict.status, verdict.basis) == (Status.FAILS, Basis.CERTIFIED)


def test_without_the_search_the_sample_misses_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(numeric_fallback, "search_violation", _no_search)
    verdict = check_inequality(_MUTATED_LHS, c**2, points=20, seed=1)
    assert verdict.status == Status.HOLDS


def test_a_real_symbol_may_cross_zero_and_leave_the_sampled_window() -> None:
    # Violated only for |y| < 1e-5: magnitudes below 1e-3 are never sampled,
    # and the old search kept each sign and the window.
    y = sp.Symbol("y", real=True)
    verdict = check_inequality(
        sp.Rational(2, 10**10), y**2 + sp.Rational(1, 10**10), points=50
    )
    assert (verdict.status, verdict.basis) == (Status.FAILS, Basis.CERTIFIED)


def test_a_symbol_on_an_interval_is_searched_inside_it() -> None:
    # q in (0, 1), violated only for 1 - q < 1e-6 (uniform draws miss it).
    q = bounded(sp.Symbol("q", positive=True), 0, 1)
    verdict = check_inequality(
        sp.Rational(1, 10**6) - (1 - q), sp.Integer(0) * q, points=50
    )
    assert (verdict.status, verdict.basis) == (Status.FAILS, Basis.CERTIFIED)
    assert verdict.point is not None
    assert within_interval(q, sp.Rational(verdict.point["q"]))


def test_the_detail_says_what_was_searched() -> None:
    cubic = x**3 - 3 * x + 2 + sp.Rational(1, 10**8)  # (x - 1)^2 (x + 2) + 1e-8
    verdict = check_inequality(sp.Integer(0), cubic, points=50)
    assert verdict.status == Status.HOLDS
    assert "a float64 search from the 4 closest" in verdict.detail
    assert "moving 1 symbol within their domains" in verdict.detail
    assert f"of at most {SEARCH_EVALUATIONS}" in verdict.detail
    assert "end points evaluated at 50 digits" in verdict.detail


# True inequalities, each tight somewhere: the search reaches near equality
# but a true inequality never fails (a `fails` needs a certified violation).
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_true_near_tight_inequalities_hold(seed: int) -> None:
    p, r = sp.symbols("p r", positive=True)
    z = sp.Symbol("z", real=True)
    m00, m01, m10, m11, s0, s1 = sp.symbols("m00 m01 m10 m11 s0 s1", real=True)
    frobenius = m00**2 + m01**2 + m10**2 + m11**2
    det = m00 * m11 - m01 * m10
    smallest = (frobenius - sp.sqrt(frobenius**2 - 4 * det**2)) / 2
    relations = [
        (sp.sqrt(p * r), (p + r) / 2),  # AM-GM, equality at p = r
        (1 - z**2 / 2, sp.cos(z)),  # equality at z = 0
        (
            smallest * (s0**2 + s1**2),  # sigma_min^2 |s|^2 <= |M s|^2
            (m00 * s0 + m01 * s1) ** 2 + (m10 * s0 + m11 * s1) ** 2,
        ),
        (_TRUE_LHS, c**2),
    ]
    for lhs, rhs in relations:
        verdict = check_inequality(lhs, rhs, points=20, seed=seed)
        assert verdict.status == Status.HOLDS, (lhs, rhs, verdict.detail)


def test_each_symbol_moves_in_its_own_domain() -> None:
    n = sp.Symbol("n", integer=True, positive=True)
    q = bounded(sp.Symbol("q", positive=True), 0, 1)
    w = sp.Symbol("w", negative=True)
    s = sp.Symbol("s", real=True, nonzero=True)
    y, z = sp.symbols("y z", real=True)
    coordinates = search_coordinates([n, q, w, s, x, y, z], {z: lambda rng: 1.0})
    kinds = {c.symbol: (c.kind, c.sign) for c in coordinates}
    assert kinds == {
        q: ("logistic", 1.0),
        w: ("signed", -1.0),
        s: ("signed", 0.0),
        x: ("signed", 1.0),
        y: ("sinh", 1.0),
    }


def test_end_points_stay_in_the_domains() -> None:
    w = sp.Symbol("w", negative=True)
    q = bounded(sp.Symbol("q", positive=True), 0, 1)
    # Larger the larger x, -w and q: each stops at its window or interval.
    symbols = [q, w, x]
    outcome = search_violation(
        [x - w + q],
        [sp.Integer(10**4)],
        symbols,
        search_coordinates(symbols, {}),
        [{x: 2.0, w: -3.0, q: 0.5}],
        np.random.default_rng(0),
    )
    assert outcome.starts == 1
    assert outcome.evaluations <= SEARCH_EVALUATIONS
    (end,) = outcome.points
    assert 900 < end[x] <= 1e3
    assert -1e3 <= end[w] < -900
    assert within_interval(q, sp.Rational(end[q]))
    assert end[q] > 0.99


def test_nothing_to_search_without_a_symbol_that_moves() -> None:
    n = sp.Symbol("n", integer=True)
    outcome = search_violation(
        [n], [sp.Integer(1)], [n], [], [{n: 2}], np.random.default_rng(0)
    )
    assert outcome.points == []
    assert outcome.described() == "no local search (no symbol it may move)"
