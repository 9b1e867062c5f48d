"""The chain (124)-(126) of features-are-fate's Appendix B.7: expected verdicts,
and its judge refutes an altered readout."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.engine import Claim, Status
from implicit_bias.sources.features_are_fate.appendix_b7_readout import DERIVATIONS

_STEPS = [c for d in DERIVATIONS for c in d.claims]


def test_the_chain_covers_124() -> None:
    assert [c.equation for c in _STEPS] == ["124", "126"]


@pytest.mark.parametrize("claim", _STEPS, ids=lambda c: c.id)
def test_every_step_holds(claim: Claim) -> None:
    verdict = claim.check()
    assert verdict.status == Status.HOLDS, verdict.detail


def test_the_ridge_step_refutes_a_doubled_ridge() -> None:
    step = _STEPS[1].check
    relation = step.relation()
    ridge = next(s for s in relation.rhs.free_symbols if s.name == "lambda")
    wrong = sp.Eq(relation.lhs, relation.rhs.subs(ridge, 2 * ridge), evaluate=False)
    assert step.judge(wrong).status == Status.FAILS
