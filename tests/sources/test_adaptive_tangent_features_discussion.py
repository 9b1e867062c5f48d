"""Section 4 of adaptive-tangent-features (eq. (20)) gives its verdicts."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.checks import judge_relation
from implicit_bias.claims.engine import Basis, Claim, Result, Status
from implicit_bias.sources.adaptive_tangent_features import discussion
from implicit_bias.theory import tangent_features as tf
from tests.claims.claim_checks import (
    SYMBOLIC_KINDS,
    assert_failures_are_refutations,
    quick,
    quick_results,
)

QUICK = quick(discussion.CLAIMS)


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(discussion.CLAIMS)


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


def test_eq20_final_features_are_not_the_average() -> None:
    # grad f_0 M_theta (the transformation at the end of the path) in place of
    # the path average: Section 4's "average features vs. final features".
    _, average = discussion._eq20_relations()
    final = average.rhs.replace(
        lambda node: isinstance(node, sp.Integral),
        lambda node: node.function.subs(tf.t, 1),
    )
    verdict = judge_relation(sp.Eq(average.lhs, final, evaluate=False))
    assert verdict.status == Status.FAILS
    assert verdict.basis in (Basis.PROOF, Basis.CERTIFIED)
    assert verdict.counterexample
