"""The penalties of adaptive-tangent-features ((6), (11)-(12)) give their verdicts."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.engine import Basis, Claim, Result, Status
from implicit_bias.sources.adaptive_tangent_features import penalties
from implicit_bias.theory import tangent_features as theory
from tests.claims.claim_checks import (
    SYMBOLIC_KINDS,
    assert_failures_are_refutations,
    quick,
    quick_results,
)

QUICK = quick(penalties.CLAIMS)


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(penalties.CLAIMS)


@pytest.mark.parametrize("claim", QUICK, ids=lambda claim: claim.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.as_expected, (result.verdict.reason, result.verdict.detail)
    if result.verdict.status != Status.INCONCLUSIVE:
        assert result.verdict.basis is not None, claim.id


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)


def test_symbolic_claims_are_exact_where_sympy_decides(
    results: dict[str, Result],
) -> None:
    # Only the radical (Ferrari) root is checked numerically, at 50 digits, and
    # the second-order condition in ball arithmetic at sampled points.
    inexact = {"squared-radicals": Basis.NUMERICAL, "power-minimum": Basis.CERTIFIED}
    for claim_id, result in results.items():
        if result.claim.kind in SYMBOLIC_KINDS:
            expected = inexact.get(claim_id.split(":", 2)[2], Basis.PROOF)
            assert result.verdict.basis == expected, claim_id


_absolute_tilde = theory.absolute_tilde


def _reversed_threshold(v_value: sp.Expr = theory.v) -> sp.Expr:
    # |z-1|'s closed form of (12) with its two pieces on the wrong sides of
    # v^2 = 1/2: the positions of the pieces are those of the closed form.
    closed = _absolute_tilde(v_value)
    return sp.Piecewise(
        (closed.args[0][0], v_value**2 >= sp.Rational(1, 2)), (closed.args[1][0], True)
    )


def test_absolute_closed_form_is_compared_with_the_minimum_of_12(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(theory, "absolute_tilde", _reversed_threshold)
    assert penalties._check_absolute_closed_form().status != Status.HOLDS


def test_absolute_minimum_is_that_of_12() -> None:
    # min_{z >= 1} |z-1| + v^2/z^2: z = 1 for v^2 <= 1/2 (value v^2), else
    # z = (2 v^2)^(1/3); at v = 2, z = 2 and the value is 1 + 4/4 = 2.
    assert penalties._absolute_minimum(sp.Rational(1, 2)) == sp.Rational(1, 4)
    assert penalties._absolute_minimum(sp.Integer(2)) == 2
