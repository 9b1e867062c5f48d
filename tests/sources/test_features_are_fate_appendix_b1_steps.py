"""The steps (25) and (30) of features-are-fate's Appendix B.1: expected verdicts,
and the judges refute altered relations."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.engine import Claim, Status
from implicit_bias.sources.features_are_fate.appendix_b1_steps import (
    CLAIMS,
    DERIVATIONS,
)

_ALL = list(CLAIMS) + [c for d in DERIVATIONS for c in d.claims]


def test_the_items_are_covered() -> None:
    assert {c.equation for c in _ALL} == {"25", "30"}


@pytest.mark.parametrize("claim", _ALL, ids=lambda c: c.id)
def test_every_claim_holds_exactly(claim: Claim) -> None:
    verdict = claim.check()
    assert verdict.status == Status.HOLDS, verdict.detail
    assert "exact" in verdict.detail


@pytest.mark.parametrize(
    "alter",
    [
        # sigma^2 in place of 2 sigma^2 in the label density's exponent.
        lambda e, sigma: e.subs(2 * sigma**2, sigma**2),
        # The prefactor 1/sqrt(2 pi sigma^2) dropped.
        lambda e, sigma: e * sp.sqrt(2 * sp.pi * sigma**2),
    ],
    ids=["exponent", "prefactor"],
)
def test_conditioning_judge_refutes(alter) -> None:
    check = CLAIMS[0].check
    relation = check.relation()
    sigma = next(s for s in relation.rhs.free_symbols if s.name == "sigma")
    wrong = sp.Eq(relation.lhs, alter(relation.rhs, sigma), evaluate=False)
    assert check.judge(wrong).status == Status.FAILS


def test_expansion_judge_refutes_a_missing_cross_term() -> None:
    step = next(c for c in _ALL if c.id.endswith("step-2")).check
    relation = step.relation()
    alpha = sorted(relation.rhs.free_symbols, key=str)
    wrong = sp.Eq(relation.lhs, relation.rhs + alpha[0] * alpha[1], evaluate=False)
    assert step.judge(wrong).status == Status.FAILS
