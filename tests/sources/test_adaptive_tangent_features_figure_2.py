"""Figure 2 of adaptive-tangent-features (effective penalties) gives its verdicts."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.engine import Basis, Claim, Result, Status
from implicit_bias.sources.adaptive_tangent_features import figure_2
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID
from implicit_bias.theory import tangent_features as tf
from tests.claims.claim_checks import (
    SYMBOLIC_KINDS,
    assert_failures_are_refutations,
    quick,
    quick_results,
)

QUICK = quick(figure_2.CLAIMS)


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(figure_2.CLAIMS)


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


# -- checks that can fail: a visibly wrong theory formula is refuted (issue 20)


def _check_of(label: str) -> Claim:
    (claim,) = [
        claim for claim in figure_2.CLAIMS if claim.id == f"{SOURCE_ID}:{label}"
    ]
    return claim


def _wrong_effective_parametric(
    argument: sp.Expr, value: sp.Expr, parameter: sp.Symbol
) -> tuple[sp.Expr, sp.Expr]:
    # The stationary u = omega' z^3 / (2 z') of (12) without its 1/2.
    stationary = sp.factor(
        sp.diff(value, parameter) * argument**3 / sp.diff(argument, parameter)
    )
    return stationary, sp.factor(sp.expand(value + stationary / argument**2))


@pytest.mark.parametrize(
    ("label", "function", "wrong"),
    [
        (
            "fig-2:join-cardano",
            "squared_absolute_join_parametric",
            # v = 3 z^2 (z - 1) for 2 z^2 (z - 1): the root is solved from it.
            lambda: (3 * tf.z**2 * (tf.z - 1), 3 * tf.z**2 - 4 * tf.z),
        ),
        (
            "fig-2:join-closed-form",
            "squared_absolute_join_parametric",
            lambda: (3 * tf.z**2 * (tf.z - 1), 3 * tf.z**2 - 4 * tf.z),
        ),
        (
            "fig-2:join-closed-form",
            "join_objective",
            # omega_2 counted twice in (11): the curve and the kink move with it.
            lambda omega1, omega2, z_value, v_value: (
                omega1(z_value) + 2 * omega2(v_value / z_value)
            ),
        ),
        ("fig-2:join-closed-form", "join_kink", lambda: 1 + sp.sqrt(3) / 2),
        (
            "fig-2:omega3-tilde-closed-form",
            "squared_absolute_tilde_parametric",
            lambda: (4 * tf.z**5 * (tf.z - 1) ** 3, 4 * tf.z**2 - 4 * tf.z),
        ),
        (
            "fig-2:omega3-tilde-closed-form",
            "effective_parametric",
            _wrong_effective_parametric,
        ),
    ],
)
def test_a_wrong_theory_formula_fails(
    label: str, function: str, wrong: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: holds (join-cardano: the root solved from the wrong cubic solves
    # it) or inconclusive (join-closed-form and omega3-tilde-closed-form:
    # "convexity ..., end slope at kink ...", "envelope - 1/z = ...").
    monkeypatch.setattr(tf, function, wrong)
    verdict = _check_of(label).check()
    assert verdict.status == Status.FAILS, verdict
    assert verdict.basis in (Basis.PROOF, Basis.CERTIFIED)
    assert verdict.counterexample
