"""The claims of features-are-fate's Appendix E (Figs. 5 and 7): expected
verdicts, and what makes them fail."""

from __future__ import annotations

import pytest

from implicit_bias.claims.engine import Claim, Status
from implicit_bias.sources.features_are_fate.appendix_e import CLAIMS
from tests.claims.claim_checks import assert_shift_detected


def test_the_figures_are_covered() -> None:
    assert {c.equation for c in CLAIMS} == {"fig-5", "fig-7"}


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_every_claim_holds(claim: Claim) -> None:
    verdict = claim.check()
    assert verdict.status == Status.HOLDS, verdict.detail


def test_the_symbolic_claims_are_proofs() -> None:
    for claim in CLAIMS[1:]:
        assert "exact" in claim.check().detail, claim.id


@pytest.mark.parametrize("factor", [5.0, -5.0])
def test_a_shift_of_five_tolerances_is_detected(factor: float) -> None:
    assert_shift_detected(CLAIMS[0], factor)
