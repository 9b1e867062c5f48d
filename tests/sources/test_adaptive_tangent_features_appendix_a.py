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
    # dz*/dv written d(z* - 1)/dv: no constant under the derivative.
    assert start == sp.Derivative(z_star - 1, v)
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


def _leading_slope() -> sp.Expr:
    return sp.Derivative(theory.taylor_minimizer_leading(), v)


def _wrong_middles() -> list[tuple[str, int, sp.Expr]]:
    """Steps whose wrong side tends to the same value as the right one."""
    v_of_w, _ = _curve()
    z_star = 1 + w
    return [
        # 3v/z*^2 for 2v/z*^2: both tend to 0.
        ("first-derivative", 1, sp.Limit(3 * v_of_w / z_star**2, w, 0, "+")),
        # 2/z*^2 - 2v/z*^3 dz*/dv for ... - 4v/z*^3 dz*/dv: both tend to 2.
        (
            "second-derivative",
            1,
            sp.Limit(
                2 / z_star**2 - 2 * v_of_w / z_star**3 / sp.Derivative(v_of_w, w),
                w,
                0,
                "+",
            ),
        ),
        # 2 C_p v^(2/(p-1)) for C_p v^(2/(p-1)): both tend to 0.
        ("v-slope", 1, sp.Limit(2 * C_P * v ** (2 / (p - 1)), v, 0, "+")),
    ]


@pytest.mark.parametrize(
    ("label", "step", "wrong"),
    _wrong_middles(),
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_a_wrong_side_with_the_same_limit_is_refuted(
    label: str, step: int, wrong: sp.Expr
) -> None:
    # The step is the identity the text derives for every v > 0 (and uses
    # next): equal limits at v = 0 do not make a wrong side hold.
    chain = CHAINS[label]
    judge = chain.steps[step - 1].judge
    assert judge is not None
    verdict = judge(_mutated(chain, step, wrong))
    assert verdict.status == Status.FAILS, verdict.detail
    assert verdict.basis in (Basis.PROOF, Basis.CERTIFIED)
    assert verdict.counterexample


def test_a_step_between_different_arguments_with_equal_limits_is_refuted() -> None:
    # 2v/z*^2 and 4v/z*^2 both tend to 0, but (24) states the first for every
    # v > 0 and (25) differentiates it: the step between them fails.
    v_of_w, _ = _curve()
    relation = sp.Eq(
        sp.Limit(2 * v_of_w / (1 + w) ** 2, w, 0, "+"),
        sp.Limit(4 * v_of_w / (1 + w) ** 2, w, 0, "+"),
        evaluate=False,
    )
    judge = CHAINS["first-derivative"].steps[0].judge
    assert judge is not None
    verdict = judge(relation)
    assert verdict.status == Status.FAILS, verdict.detail
    assert verdict.basis == Basis.CERTIFIED
    assert "differ" in verdict.detail


@pytest.mark.parametrize("factor", [sp.Rational(3, 2), sp.Rational(1001, 1000)])
def test_eq24_vanishing_side_is_checked_at_leading_order(factor: sp.Expr) -> None:
    # factor * 2v/z*^2 -> 0 like 2v/z*^2: the limit the text states holds, the
    # leading order 2v/z*^2 ~ 2v ('at v = 0, z* = 1') does not.
    v_of_w, _ = _curve()
    relation = sp.Eq(
        sp.Limit(factor * 2 * v_of_w / (1 + w) ** 2, w, 0, "+"), 0, evaluate=False
    )
    judge = CHAINS["first-derivative"].steps[1].judge
    assert judge is not None
    verdict = judge(relation)
    assert verdict.status == Status.FAILS, verdict.detail
    assert verdict.basis == Basis.PROOF
    assert verdict.counterexample is not None
    assert "leading order" in verdict.counterexample


def test_eq26_slope_has_no_constant_under_the_derivative() -> None:
    # A constant under d/dv is a term whose change no check can notice: the
    # start is d(z* - 1)/dv, equal to dz*/dv.
    start = CHAINS["minimizer-slope"].expressions()[0]
    assert isinstance(start, sp.Derivative)
    assert not any(term.is_number for term in sp.Add.make_args(start.expr))
    assert sp.simplify(start.doit() - _leading_slope().doit()) == 0
