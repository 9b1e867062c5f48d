"""The local search for a violation of an inequality near its sampled worst point."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from implicit_bias.claims import numeric_fallback
from implicit_bias.claims.checks import check_inequality
from implicit_bias.claims.engine import Basis, Status
from implicit_bias.claims.gap_search import movable_symbols, refined_point
from implicit_bias.claims.intervals import bounded

x = sp.Symbol("x", positive=True)
# Violated only for |x - 1| < 1e-4: random points of (1e-3, 1e3) miss it.
_THIN_LHS = sp.Rational(2, 10**8)
_THIN_RHS = (x - 1) ** 2 + sp.Rational(1, 10**8)


def test_a_violation_on_a_thin_set_is_found_and_certified() -> None:
    verdict = check_inequality(_THIN_LHS, _THIN_RHS, points=50)
    assert (verdict.status, verdict.basis) == (Status.FAILS, Basis.CERTIFIED)
    assert "x=1.0000" in verdict.detail or "x=0.9999" in verdict.detail


def test_the_random_sample_alone_misses_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(numeric_fallback, "refined_point", lambda *a, **k: None)
    verdict = check_inequality(_THIN_LHS, _THIN_RHS, points=50)
    assert verdict.status == Status.HOLDS


def test_a_true_inequality_still_holds_after_the_search() -> None:
    # Closest to violation near x = 1, but true: not provable by SymPy's
    # simplification, so sampled and searched.
    # (x - 1)^2 (x + 2), expanded, for x > 0.
    cubic = x**3 - 3 * x + 2 + sp.Rational(1, 10**8)
    verdict = check_inequality(sp.Integer(0), cubic, points=50)
    assert verdict.status == Status.HOLDS
    assert "local search of 400 float64 steps" in verdict.detail


def test_only_symbols_with_a_sign_domain_move() -> None:
    n = sp.Symbol("n", integer=True, positive=True)
    q = bounded(sp.Symbol("q", positive=True), 0, 1)
    y, z = sp.symbols("y z", real=True)
    assert movable_symbols([n, q, x, y, z], {z: lambda rng: 1.0}) == [x, y]


def test_the_search_keeps_signs_and_the_sampled_window() -> None:
    y = sp.Symbol("y", negative=True)
    # Larger the closer x gets to 1e3 and y to -1e3: both stop at the window.
    found = refined_point(
        x - y,
        sp.Integer(1),
        [x, y],
        [x, y],
        {x: 2.0, y: -3.0},
        np.random.default_rng(0),
    )
    assert found is not None
    assert 0 < found[x] <= 1e3
    assert -1e3 <= found[y] < 0
    assert found[x] > 900
    assert found[y] < -900


def test_no_point_when_nothing_better_is_found() -> None:
    assert (
        refined_point(
            sp.Integer(1), sp.Integer(1), [x], [x], {x: 2.0}, np.random.default_rng(0)
        )
        is None
    )
    assert (
        refined_point(x, sp.Integer(1), [x], [], {x: 2.0}, np.random.default_rng(0))
        is None
    )
