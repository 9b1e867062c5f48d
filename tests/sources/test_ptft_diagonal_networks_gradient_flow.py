"""ptft-diagonal-networks, Appendix A eqs. (7)-(21): gradient flow and its solution."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.engine import Basis, Status
from implicit_bias.claims.mutate import Outcome, mutation_outcomes
from implicit_bias.claims.registry import get_claim
from implicit_bias.sources import ptft_diagonal_networks
from implicit_bias.sources.ptft_diagonal_networks import gradient_flow
from implicit_bias.theory import diagonal_networks as theory

#: The claims and the steps of the chains.
ALL = ptft_diagonal_networks.SOURCE.all_claims()


def test_chain_of_eqs_15_to_21_steps_through_the_printed_equations() -> None:
    chain = gradient_flow.BETA
    assert [c.id.split(":", 1)[1] for c in chain.claims] == [
        "16:beta-step-1",
        "17:beta-step-2",
        "18-19:beta-step-3",
        "20:beta-step-4",
        "21:beta-step-5",
    ]
    # (18)-(19) carries a spurious factor 2 and (20) drops it: both steps fail
    # as printed, and each has a correction.
    assert [c.expected for c in chain.claims] == [
        Status.HOLDS,
        Status.HOLDS,
        Status.FAILS,
        Status.FAILS,
        Status.HOLDS,
    ]
    halves = (theory.s_plus, theory.d_plus, theory.s_minus, theory.d_minus)
    initial = (theory.s0_d, theory.d0_d, theory.x_int_r_d)
    assert chain.expressions() == [
        theory.w1_plus * theory.w2_plus - theory.w1_minus * theory.w2_minus,
        theory.beta_eq16(*halves),
        theory.beta_eq17(*halves),
        theory.beta_eq18_19(*initial),
        theory.beta_eq20(*initial),
        theory.beta_eq21(theory.w01_d, theory.w02_d, theory.x_int_r_d),
    ]
    corrections = {c.corrects for c in ALL if c.corrects}
    for step in (chain.claims[2], chain.claims[3]):
        assert step.id in corrections


@pytest.mark.parametrize(
    ("step", "wrong"),
    [
        # (16) with d_- in place of s_-.
        ("16:beta-step-1", lambda r: r.rhs.subs(theory.s_minus, theory.d_minus)),
        # (18)-(19) with the factor 2 removed: the corrected form holds.
        ("18-19:beta-step-3", lambda r: r.rhs / 2),
        # (21) with a factor 2 too many.
        ("21:beta-step-5", lambda r: 2 * r.rhs),
    ],
)
def test_a_step_judge_decides_altered_relations(step, wrong) -> None:
    claim = get_claim(f"ptft-diagonal-networks:{step}")
    relation = claim.check.relation()
    altered = type(relation)(relation.lhs, wrong(relation), evaluate=False)
    verdict = claim.check.judge(altered)
    expected = Status.HOLDS if step.startswith("18-19") else Status.FAILS
    assert verdict.status == expected, verdict.detail
    if expected == Status.FAILS:
        assert verdict.counterexample


@pytest.mark.parametrize(
    ("which", "right_hand_side"),
    [("s", "flow_rhs_eq10"), ("d", "flow_rhs_eq11")],
)
def test_a_closed_form_against_a_wrong_flow_fails_with_a_certificate(
    monkeypatch: pytest.MonkeyPatch, which: str, right_hand_side: str
) -> None:
    # (13)-(14) against (10)-(11) with a factor 3/2 too many: the check
    # compares at one instant, R(t) and r(t) as free reals, so the numeric
    # fallback evaluates the exponentials and certifies the difference (it
    # could not evaluate the undefined R_k(t) and its derivative).
    original = getattr(theory, right_hand_side)
    monkeypatch.setattr(
        theory,
        right_hand_side,
        lambda x_tilde, r, v: sp.Rational(3, 2) * original(x_tilde, r, v),
    )
    verdict = gradient_flow._check_closed_form(which)
    assert verdict.status == Status.FAILS, verdict.detail
    assert verdict.basis == Basis.CERTIFIED
    assert verdict.detail.startswith("ODE: entry 1:")


@pytest.mark.parametrize("label", ["13:solves-10", "14:solves-11"])
def test_wrong_formulas_in_these_checks_fail(label: str) -> None:
    # Mutants of the relations these checks decide were inconclusive without
    # a word of what was refuted (an undefined function the numeric check
    # cannot evaluate): each is now refuted, or is still true (equivalent).
    claim = get_claim(f"ptft-diagonal-networks:{label}")
    outcomes = mutation_outcomes(claim, limit=6, claim_seconds=None)
    noticed = {Outcome.KILLED, Outcome.EQUIVALENT}
    assert outcomes
    assert {o.outcome for o in outcomes} <= noticed, [
        (o.description, o.detail) for o in outcomes if o.outcome not in noticed
    ]
    assert any(o.outcome != Outcome.EQUIVALENT for o in outcomes)
