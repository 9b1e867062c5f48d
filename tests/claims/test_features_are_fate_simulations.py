"""Every simulation claim of features-are-fate returns the verdict it expects."""

from __future__ import annotations

import re

import pytest

from implicit_bias.claims.engine import Claim, Kind, Result, run_claims
from implicit_bias.claims.features_are_fate.simulations import CLAIMS


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return {r.claim.id: r for r in run_claims([c for c in CLAIMS if not c.slow])}


@pytest.mark.parametrize("claim", [c for c in CLAIMS if not c.slow], ids=lambda c: c.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.verdict.status == claim.expected, result.verdict.detail


def test_claims_are_simulations_of_this_source() -> None:
    assert {c.source for c in CLAIMS} == {"features-are-fate"}
    assert {c.kind for c in CLAIMS} == {Kind.SIMULATION}
    assert len({c.id for c in CLAIMS}) == len(CLAIMS)


@pytest.mark.parametrize(
    ("claim_id", "needles"),
    [
        ("16:monte-carlo", ["SE (eq. 16)", "sigma = 1.0"]),
        ("50:as-printed", ["observed order", "not 2"]),
        ("142:gd-as-printed", ["does not shrink"]),
    ],
)
def test_failures_report_the_numbers(
    claim_id: str, needles: list[str], results: dict[str, Result]
) -> None:
    detail = results[f"features-are-fate:{claim_id}"].verdict.detail
    for needle in needles:
        assert needle in detail
    assert re.search(r"\d\.\d", detail)
