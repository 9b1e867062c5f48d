"""Section 3.1 of adaptive-tangent-features (Theorem 1, the l1 remark): its verdicts."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.engine import Basis, Claim, Result, Status
from implicit_bias.sources.adaptive_tangent_features import structureless
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID
from implicit_bias.theory import tangent_features as tf
from tests.claims.claim_checks import (
    SYMBOLIC_KINDS,
    assert_failures_are_refutations,
    quick,
    quick_results,
)

QUICK = quick(structureless.CLAIMS)


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(structureless.CLAIMS)


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
        ("sec-3.1:l1-as-value", ["2 |beta|", "2||.||_1"]),
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


def test_certificates_are_reported(results: dict[str, Result]) -> None:
    assert "duality gap" in results[f"{SOURCE_ID}:8:direct-minimum"].verdict.detail


# -- checks that can fail: a visibly wrong theory formula is refuted (issue 20)


def _check_of(label: str) -> Claim:
    (claim,) = [
        claim for claim in structureless.CLAIMS if claim.id == f"{SOURCE_ID}:{label}"
    ]
    return claim


def _wrong_transform(vector: sp.Matrix, scale: sp.Expr = tf.s) -> sp.Matrix:
    # Eq. (8) with s - 2 for s - 1: M_hat beta = (s - 1) beta.
    return sp.eye(vector.rows) + (scale - 2) * tf.unit_projector(vector)


def _wrong_parameters(vector: sp.Matrix, scale: sp.Expr = tf.s) -> sp.Matrix:
    # Eq. (8) with s^-2 for s^-1.
    return vector / scale**2


def _wrong_identity_part(vector: sp.Matrix, scale: sp.Expr = tf.s) -> sp.Matrix:
    # Eq. (8) with 2 I_P: the directions orthogonal to beta are doubled.
    return 2 * sp.eye(vector.rows) + (scale - 1) * tf.unit_projector(vector)


@pytest.mark.parametrize(
    ("label", "function", "wrong"),
    [
        ("8:interpolates", "theorem1_transform", _wrong_transform),
        ("8:interpolates", "theorem1_parameters", _wrong_parameters),
        ("8:spectrum", "theorem1_transform", _wrong_transform),
        ("8:spectrum", "theorem1_transform", _wrong_identity_part),
        ("8:objective", "theorem1_parameters", _wrong_parameters),
        (
            "8:objective",
            "effective_objective",
            lambda omega, z_value, v_value: omega(z_value) + v_value**2 / z_value,
        ),
        ("9:adapted-kernel", "theorem1_transform", _wrong_transform),
        ("9:adapted-kernel", "theorem1_transform", _wrong_identity_part),
    ],
)
def test_a_wrong_theory_formula_fails(
    label: str, function: str, wrong: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: inconclusive ("SymPy did not simplify it to 0", or "name 'omega'
    # is not defined").
    monkeypatch.setattr(tf, function, wrong)
    verdict = _check_of(label).check()
    assert verdict.status == Status.FAILS, verdict
    assert verdict.basis in (Basis.PROOF, Basis.CERTIFIED)
    assert verdict.counterexample
