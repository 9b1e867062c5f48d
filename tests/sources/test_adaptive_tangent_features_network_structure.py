"""Section 3.2 of adaptive-tangent-features ((13), (17)-(19)) gives its verdicts."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.checks import injected_bias
from implicit_bias.claims.engine import Basis, Claim, Reason, Result, Status, Verdict
from implicit_bias.sources.adaptive_tangent_features import network_structure
from implicit_bias.sources.adaptive_tangent_features.appendix_b_mnist import (
    QUICK_SEEDS,
    QUICK_STUDY,
)
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID
from tests.claims.claim_checks import (
    SYMBOLIC_KINDS,
    assert_failures_are_refutations,
    quick,
    quick_results,
)

QUICK = quick(network_structure.CLAIMS)


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(network_structure.CLAIMS)


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
        ("17-18:as-printed", ["a1**2*b2**2 - 1", "j = k"]),
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


def test_the_analogue_never_refutes_eq19(results: dict[str, Result]) -> None:
    # The synthetic analogue of B.1 cannot refute the paper's MNIST statement:
    # a reversal there is inconclusive, not a failure.
    verdict = results[f"{SOURCE_ID}:19:readout-carries-change"].verdict
    assert verdict.status != Status.FAILS
    if verdict.status == Status.INCONCLUSIVE:
        assert verdict.reason in (Reason.STATISTICAL, Reason.UNDECIDED)
    else:
        assert verdict.basis == Basis.STATISTICAL


def _refuted(verdict: Verdict) -> bool:
    return (
        verdict.status == Status.FAILS
        and verdict.basis in (Basis.PROOF, Basis.CERTIFIED)
        and bool(verdict.counterexample)
    )


def test_eq13_refutes_the_other_kronecker_order() -> None:
    # (z^T M) (x) I_C on a column-stacked vec(W_L) is not the output W_L^T M z.
    def swapped(features: sp.Matrix, m1: sp.Matrix, outputs: int) -> sp.Matrix:
        return sp.kronecker_product(features.T * m1, sp.eye(outputs))

    assert _refuted(network_structure._eq13_verdict(swapped))


def test_eq13_needs_a_symmetric_transformation() -> None:
    # With z_theta = M z_theta0 and M not symmetric, (13) is W^T M^T z, not
    # W^T M z: the regime (M_L^(1) symmetric) is what the claim holds on.
    verdict = network_structure._eq13_verdict(
        network_structure._eq13_features_as_printed, symmetric=False
    )
    assert _refuted(verdict)


@pytest.mark.parametrize("factor", [2.0, -2.0])
def test_hidden_share_notices_a_shift_of_its_statistic(factor: float) -> None:
    # Both mean readout shares are compared with the interval [0, 1/2 - 3 SE]
    # they must lie in: an error of two half-widths leaves the claim undecided.
    with injected_bias(factor) as record:
        verdict = network_structure._check_hidden_share(QUICK_SEEDS, QUICK_STUDY)
    assert record.comparisons == 2
    assert verdict.status != Status.HOLDS
