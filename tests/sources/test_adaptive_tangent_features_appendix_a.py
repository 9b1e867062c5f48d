"""The chains of Appendix A.2.2 (eqs. (24)-(26)) are the printed equations, checked."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.derivation import Derivation
from implicit_bias.claims.engine import Basis, Status
from implicit_bias.sources.adaptive_tangent_features import SOURCE, appendix_a
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID
from implicit_bias.theory import tangent_features as theory

v, w, p = theory.v, theory.w, theory.p
C_P = appendix_a.slope_constant

CHAINS = {chain.label: chain for chain in appendix_a.DERIVATIONS}


def _curve() -> tuple[sp.Expr, sp.Expr]:
    u_of_w, tilde_of_w = theory.power_tilde_parametric()
    return sp.sqrt(u_of_w), tilde_of_w


def test_chains_are_registered_on_the_source() -> None:
    assert SOURCE.derivations == appendix_a.DERIVATIONS
    ids = {claim.id for claim in SOURCE.all_claims()}
    expected = {
        f"{SOURCE_ID}:{equation}:{label}-step-{k}"
        for equation, label in [
            ("24", "first-derivative"),
            ("25", "second-derivative"),
            ("26", "minimizer-slope"),
            ("26", "v-slope"),
        ]
        for k in (1, 2)
    }
    assert expected <= ids
    # The claims the steps replace are gone (no duplicate checks).
    for removed in (
        "24:first-derivative",
        "25:second-derivative",
        "26:derivative-of-minimizer",
    ):
        assert f"{SOURCE_ID}:{removed}" not in ids


@pytest.mark.parametrize(
    "claim",
    [claim for chain in appendix_a.DERIVATIONS for claim in chain.claims],
    ids=lambda claim: claim.id,
)
def test_every_step_holds_exactly(claim) -> None:  # type: ignore[no-untyped-def]
    verdict = claim.check()
    assert claim.expected == Status.HOLDS
    assert verdict.status == Status.HOLDS, verdict.detail
    assert verdict.basis == Basis.PROOF, verdict.detail


def test_eq24_is_the_printed_chain() -> None:
    v_of_w, tilde_of_w = _curve()
    start, middle, end = CHAINS["first-derivative"].expressions()
    derivative = sp.Derivative(tilde_of_w, w) / sp.Derivative(v_of_w, w)
    assert start == sp.Limit(derivative, w, 0, "+")
    assert middle == sp.Limit(2 * v_of_w / (1 + w) ** 2, w, 0, "+")
    assert end == 0


def test_eq25_middle_is_the_theory_second_derivative() -> None:
    # theory.taylor_second_derivative transcribes (25) for z* as a function of
    # v; along the curve z* = 1 + w, v = v(w) and dz*/dv = 1/(dv/dw).
    v_of_w, _ = _curve()
    z_of_v = sp.Function("z")(v)
    printed = theory.taylor_second_derivative(z_of_v)
    along_curve = printed.subs(sp.Derivative(z_of_v, v), 1 / sp.Derivative(v_of_w, w))
    along_curve = along_curve.subs(z_of_v, 1 + w).subs(v, v_of_w)
    _, middle, end = CHAINS["second-derivative"].expressions()
    assert middle == sp.Limit(along_curve, w, 0, "+")
    assert end == 2


def test_eq26_is_the_printed_chain_with_the_text_minimizer() -> None:
    chain = CHAINS["minimizer-slope"]
    start, implicit, power_law = chain.expressions()
    z_star = theory.taylor_minimizer_leading()
    assert start == sp.Derivative(z_star, v)
    assert implicit == 4 * v / (p * (p - 1) * sp.Abs(z_star - 1) ** (p - 2))
    assert power_law == C_P * v ** (1 - 2 * (p - 2) / (p - 1))
    assert chain.substitutions == {C_P: theory.taylor_slope_constant()}
    _, product, limit = CHAINS["v-slope"].expressions()
    assert product == sp.Limit(C_P * v ** (2 / (p - 1)), v, 0, "+")
    assert limit == 0


def _mutated(chain: Derivation, step: int, expression: sp.Expr) -> sp.Eq:
    previous = chain.expressions()[step - 1]
    return sp.Eq(previous, expression, evaluate=False)


@pytest.mark.parametrize(
    ("label", "step", "wrong"),
    [
        ("first-derivative", 2, sp.Integer(1)),
        ("second-derivative", 2, sp.Integer(1)),
        ("minimizer-slope", 2, C_P * v ** (2 - 2 * (p - 2) / (p - 1))),
        ("v-slope", 2, sp.Integer(1)),
    ],
)
def test_a_wrong_step_is_refuted(label: str, step: int, wrong: sp.Expr) -> None:
    chain = CHAINS[label]
    judge = chain.steps[step - 1].judge
    assert judge is not None
    verdict = judge(_mutated(chain, step, wrong))
    assert verdict.status == Status.FAILS, verdict.detail
    assert verdict.basis in (Basis.PROOF, Basis.CERTIFIED)
    assert verdict.counterexample


def test_equal_limits_of_different_arguments_are_not_refuted() -> None:
    # 2v/z*^2 and 4v/z*^2 differ, but both tend to 0: a step between their
    # limits holds, so the judge must not refute it from the arguments alone.
    v_of_w, _ = _curve()
    relation = sp.Eq(
        sp.Limit(2 * v_of_w / (1 + w) ** 2, w, 0, "+"),
        sp.Limit(4 * v_of_w / (1 + w) ** 2, w, 0, "+"),
        evaluate=False,
    )
    chain = CHAINS["first-derivative"]
    judge = chain.steps[0].judge
    assert judge is not None
    assert judge(relation).status == Status.HOLDS
