"""Proposition 3 of adaptive-tangent-features gives its verdicts."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sympy as sp

from implicit_bias.claims.checks import injected_bias
from implicit_bias.claims.engine import Basis, Claim, Result, Status
from implicit_bias.sources.adaptive_tangent_features import proposition_3
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID
from implicit_bias.theory import tangent_features as theory
from tests.claims.claim_checks import (
    SYMBOLIC_KINDS,
    assert_failures_are_refutations,
    quick,
    quick_results,
)

QUICK = quick(proposition_3.CLAIMS)


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(proposition_3.CLAIMS)


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
    inexact = {}
    for claim_id, result in results.items():
        if result.claim.kind in SYMBOLIC_KINDS:
            expected = inexact.get(claim_id.split(":", 2)[2], Basis.PROOF)
            assert result.verdict.basis == expected, claim_id


@pytest.mark.parametrize(
    ("claim_id", "needles"),
    [
        ("prop-3:strict-increase-as-proved", ["not attained", "omega~(2) = omega~(3)"]),
    ],
)
def test_failures_report_residual_or_counterexample(
    claim_id: str, needles: list[str], results: dict[str, Result]
) -> None:
    verdict = results[f"{SOURCE_ID}:{claim_id}"].verdict
    assert verdict.status == Status.FAILS
    # A refutation rests on exact or certified arithmetic and names its point.
    assert verdict.basis in (Basis.PROOF, Basis.CERTIFIED)
    assert verdict.counterexample
    for needle in needles:
        assert needle in verdict.detail


def test_increasing_concave_refutes_a_doubled_effective_penalty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 2 omega~ is still increasing and concave, but its slope near v = 0 is 2,
    # above the 1/z*^2 <= 1 that (12) allows: a step exceeds du.
    omega_tilde = proposition_3.omega_tilde
    monkeypatch.setattr(
        proposition_3,
        "omega_tilde",
        lambda omega, v: 2.0 * omega_tilde(omega, v),
    )
    assert proposition_3._check_prop3_concave_increasing().status != Status.HOLDS


def test_small_v_bounds_come_from_the_theory_objective(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (12) with v^2/z^2 doubled puts the sandwich at [2/(1 + w_u)^2, 2], away
    # from omega~/v^2 ~ 1.
    monkeypatch.setattr(
        theory,
        "effective_objective",
        lambda omega, z, v: omega(z) + 2 * v**2 / z**2,
    )
    assert proposition_3._check_prop3_small_v().status != Status.HOLDS


@pytest.mark.parametrize("factor", [2.0, -2.0])
def test_small_v_notices_a_shift_of_its_ratio(factor: float) -> None:
    with injected_bias(factor) as record:
        verdict = proposition_3._check_prop3_small_v()
    assert record.comparisons == 1
    assert verdict.status != Status.HOLDS


_absolute_tilde = theory.absolute_tilde


def _reversed_threshold(v_value: sp.Expr = theory.v) -> sp.Expr:
    # |z-1|'s closed form of (12) with its two pieces on the wrong sides of
    # v^2 = 1/2: the positions of the pieces are those of the closed form.
    closed = _absolute_tilde(v_value)
    return sp.Piecewise(
        (closed.args[0][0], v_value**2 >= sp.Rational(1, 2)), (closed.args[1][0], True)
    )


@pytest.mark.parametrize("label", ["prop-3:small-v", "prop-3:absolute-tail"])
def test_absolute_pieces_are_chosen_by_their_conditions(
    label: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Near 0 the closed form must be v^2 and at infinity the interior value,
    # wherever the Piecewise lists them.
    monkeypatch.setattr(theory, "absolute_tilde", _reversed_threshold)
    claim = next(c for c in proposition_3.CLAIMS if c.id == f"{SOURCE_ID}:{label}")
    assert claim.check().status != Status.HOLDS


@pytest.mark.parametrize(
    "penalty",
    [
        # Minimized at 1 with omega(1) = 2, decreasing on each side.
        lambda x: 1 + 1 / (1 + sp.Abs(x - 1)) ** 2,
        # omega(1) = 0 but a pole at z = 0 and z = 2, negative beyond.
        lambda x: 1 - 1 / (1 - sp.Abs(x - 1)) ** 2,
    ],
    ids=["not-zero-at-1", "pole"],
)
def test_bounded_penalty_must_meet_the_other_hypotheses(
    penalty: Callable[[sp.Expr], sp.Expr], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The contrast of strict-increase-coercive shows coercivity is needed only
    # if the bounded penalty meets Proposition 3's other hypotheses.
    monkeypatch.setattr(theory, "saturating_penalty", penalty)
    assert proposition_3._check_prop3_strict_increase_coercive().status != (
        Status.HOLDS
    )
    assert proposition_3._check_prop3_strict_increase_as_proved().status != (
        Status.FAILS
    )
