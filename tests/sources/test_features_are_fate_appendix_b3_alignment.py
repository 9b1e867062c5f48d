"""Lemma B.1's alignment half, features-are-fate Appendix B.3: (61)-(72), (51)."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.engine import Basis, Status
from implicit_bias.sources.features_are_fate import CLAIMS
from implicit_bias.sources.features_are_fate import _lemma_b1 as lemma
from implicit_bias.sources.features_are_fate import appendix_b3_alignment as alignment

_NEW = {
    claim.id: claim
    for claim in (
        *alignment.CLAIMS,
        *(c for chain in alignment.DERIVATIONS for c in chain.claims),
    )
}
_ALPHA = lemma.ALPHA


def test_the_claims_are_registered() -> None:
    registered = {claim.id for claim in CLAIMS}
    assert {claim.id for claim in alignment.CLAIMS} <= registered
    numbers = {c.equation for c in _NEW.values()}
    assert {str(n) for n in (51, *range(61, 70), 71, 72)} <= numbers


@pytest.mark.parametrize("claim_id", sorted(_NEW))
def test_each_claim_has_its_expected_verdict(claim_id: str) -> None:
    claim = _NEW[claim_id]
    verdict = claim.check()
    assert verdict.status == claim.expected, (claim_id, verdict.detail)


def _judged(relation: sp.Basic) -> Status:
    return lemma.judge_at_states(relation).status


def _constant(layer: int) -> sp.Expr:
    a, last, p = lemma.LAYER[layer], lemma.LAYER[lemma.DEPTH], lemma.PAIR[layer]
    return 2 * p["dbar"] ** 2 + a["fbar"] - last["fbar"] + a["obar"] - last["obar"]


@pytest.mark.parametrize("layer", [1, 2])
def test_61_with_the_invariant_added_fails(layer: int) -> None:
    p = lemma.PAIR[layer]
    assert _judged(sp.Eq(p["v_next"], p["v_top"] + p["v_inv"])) == Status.FAILS


@pytest.mark.parametrize("layer", [1, 2])
def test_68_with_the_invariant_added_fails(layer: int) -> None:
    p, b = lemma.PAIR[layer], lemma.LAYER[layer + 1]
    wrong = sp.Ge(p["u_top"], b["s2"] + lemma.invariant_term(layer, printed=False))
    assert _judged(wrong) == Status.FAILS


@pytest.mark.parametrize("layer", [1, 2])
def test_69_with_alpha_to_the_fourth_fails(layer: int) -> None:
    p, b = lemma.PAIR[layer], lemma.LAYER[layer + 1]
    wrong = sp.Ge(p["align"], 1 - _ALPHA**4 * _constant(layer) / b["s2"])
    assert _judged(wrong) == Status.FAILS


def test_65_fails_by_the_square_and_at_the_first_layer_by_the_zero_too() -> None:
    # squared-norm-62 fails (65) at both layers; frobenius-64 alone fails it at
    # l = 1 only (W_L has rank one); with both corrected it holds.
    def printed_65(layer: int, *, squared: bool, zero: bool) -> sp.Basic:
        b, p = lemma.LAYER[layer + 1], lemma.PAIR[layer]
        return sp.Le(
            lemma.LAYER[layer]["s2"],
            b["s2"] * p["align"]
            + lemma.invariant_term(layer, printed=squared)
            + lemma.fro_difference(layer + 1, printed=zero),
        )

    for layer in (1, 2):
        assert _judged(printed_65(layer, squared=True, zero=False)) == Status.FAILS
        assert _judged(printed_65(layer, squared=False, zero=False)) == Status.HOLDS
    assert _judged(printed_65(1, squared=False, zero=True)) == Status.FAILS
    assert _judged(printed_65(2, squared=False, zero=True)) == Status.HOLDS


def test_62_fails_at_an_exact_initial_state() -> None:
    verdict = _NEW["features-are-fate:62:alignment-lower-layer-1-step-2"].check()
    assert verdict.status == Status.FAILS
    assert verdict.basis == Basis.CERTIFIED
    assert verdict.point


def test_51_fails_with_an_alignment_bound_of_order_alpha_to_the_sixth() -> None:
    # The misalignment falls as alpha^4: alpha^2 (69) and alpha^4 hold, alpha^6
    # does not.
    assert alignment._check_alignment_limit(exponent=4).status == Status.HOLDS
    assert alignment._check_alignment_limit(exponent=6).status == Status.FAILS


def test_71_fails_exactly_with_squares_and_holds_without() -> None:
    printed = alignment._check_product_bound(squared=True)
    assert printed.status == Status.FAILS
    assert printed.basis == Basis.PROOF
    assert "3/10 > prod_l s_l^2 = 9/100" in (printed.counterexample or "")
    assert alignment._check_product_bound(squared=False).status == Status.HOLDS


@pytest.mark.parametrize("layer", [1, 2])
def test_69_with_its_constant_a_thousandth_smaller_fails(layer: int) -> None:
    # At the perpendicular initializations (v_l . u_{l+1} = 0) C_l is within
    # a factor 1 + O(2^-14) of s_{l+1}^2 / alpha^2: (69) is nearly tight.
    p, b = lemma.PAIR[layer], lemma.LAYER[layer + 1]
    wrong = sp.Ge(
        p["align"],
        1 - sp.Rational(999, 1000) * _ALPHA**2 * _constant(layer) / b["s2"],
    )
    verdict = lemma.judge_at_states(wrong)
    assert verdict.status == Status.FAILS
    assert verdict.basis == Basis.CERTIFIED


@pytest.mark.parametrize("layer", [1, 2])
def test_69_with_the_operator_norms_swapped_fails_before_the_crossing(
    layer: int,
) -> None:
    # C_l with ||Wbar_l||_op^2 and ||Wbar_L||_op^2 swapped is 2||Dbar_l||^2 +
    # ||Wbar_l||_F^2 - ||Wbar_l||_op^2: it holds at t = 0 (it bounds the
    # misalignment there), not along the axis-aligned flow just before its top
    # singular vectors switch.
    a, last, p, b = (
        lemma.LAYER[layer],
        lemma.LAYER[lemma.DEPTH],
        lemma.PAIR[layer],
        lemma.LAYER[layer + 1],
    )
    swapped = 2 * p["dbar"] ** 2 + a["fbar"] - last["fbar"] + last["obar"] - a["obar"]
    wrong = sp.Ge(p["align"], 1 - _ALPHA**2 * swapped / b["s2"])
    assert _judged(wrong) == Status.FAILS


def test_66_with_the_invariant_norm_and_the_frobenius_norm_swapped_fails() -> None:
    # alpha^2 ||Wbar_2||_F^4 + alpha^2 ||Dbar_2||: it fails where ||Wbar_2||_F
    # < 1, as at the checkpoints read with Wbar scaled by 1/16.
    a, b, p, last = lemma.LAYER[2], lemma.LAYER[3], lemma.PAIR[2], lemma.LAYER[3]
    wrong = sp.Le(
        a["s2"],
        b["s2"] * p["align"]
        + _ALPHA**2 * a["fbar"] ** 2
        + _ALPHA**2 * (p["dbar"] - last["fbar"] + a["obar"] - last["obar"]),
    )
    assert _judged(wrong) == Status.FAILS
