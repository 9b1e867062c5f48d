r"""Claims of features-are-fate, Section 3.2: Theorem 3.6, the scratch risk (10).

Double descent of the asymptotic risk of a model trained from scratch, eq. (10)
(:func:`implicit_bias.theory.transfer_risks.scratch_risk`): the sentence as
printed on the text's noisy regime, the same sentence for every noise level
(which fails), what does hold (the minimum at gamma = 1 - sigma and both
one-sided limits), and the monotone underparameterized branch. The
Monte-Carlo check of (10) at finite size is in :mod:`.section_3_monte_carlo`.
"""

from __future__ import annotations

import sympy as sp

from implicit_bias.claims.checks import (
    check_identity,
    check_limit,
    relation_check,
)
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
    time_limit,
)
from implicit_bias.sources.features_are_fate._common import all_hold
from implicit_bias.sources.features_are_fate import notation as nt
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.theory import transfer_risks as tr
from implicit_bias.sources.features_are_fate._risks import (
    _BUDGET,
    _DEEP_LINEAR,
    _GAMMA,
    _OVER,
    _SIGMA,
    _STEP_SECONDS,
    _claim_id,
)

__all__ = ["CLAIMS"]


def _check_double_descent_as_printed() -> Verdict:
    # On the text's regime 0 < sigma < 1 (sigma = 0.2 in Figs. 1-3): the slope
    # (sigma^2 - (1-gamma)^2)/(1-gamma)^2 is < 0 on (0, 1-sigma), a nonempty
    # interval, and > 0 on (1-sigma, 1); the risk -> +oo as gamma -> 1-.
    risk = tr.scratch_risk_overparameterized()
    noisy = sp.Symbol("sigma_p", positive=True)
    verdict = all_hold(
        {
            "dR/dgamma = (sigma^2 - (1-gamma)^2)/(1-gamma)^2": check_identity(
                sp.diff(risk, _GAMMA),
                (_SIGMA**2 - (1 - _GAMMA) ** 2) / (1 - _GAMMA) ** 2,
            ),
            "gamma -> 1- (sigma > 0)": check_limit(
                risk.subs(_SIGMA, noisy), _GAMMA, 1, sp.oo, direction="-"
            ),
        }
    )
    if verdict.status != Status.HOLDS:
        return verdict
    return verdict.with_detail(
        "for 0 < sigma < 1 the slope is < 0 on (0, 1 - sigma) and > 0 on "
        "(1 - sigma, 1), and R_sc -> +oo as gamma -> 1-: the risk first decreases, "
        f"then diverges. {verdict.detail}"
    )


def _check_double_descent_beyond_regime() -> Verdict:
    risk = tr.scratch_risk_overparameterized()
    slope_at_one = sp.simplify(sp.diff(risk, _GAMMA).subs(_SIGMA, 1))
    increasing = check_identity(slope_at_one, _GAMMA * (2 - _GAMMA) / (1 - _GAMMA) ** 2)
    with time_limit(_STEP_SECONDS):
        noiseless = sp.limit(risk.subs(_SIGMA, 0), _GAMMA, 1, dir="-")
    if increasing.status == Status.HOLDS and increasing.basis == Basis.PROOF:
        zero = (
            " and at sigma = 0, R_sc = 1 - gamma -> 0, no divergence"
            if noiseless == 0
            else ""
        )
        return Verdict.fails(
            "not for every sigma: at sigma = 1, dR_sc/dgamma = gamma(2-gamma)/"
            f"(1-gamma)^2 > 0 on (0, 1) ({increasing.detail}), so the risk never "
            f"decreases for gamma < 1 (likewise for every sigma >= 1){zero}",
            Basis.PROOF,
            "sigma = 1: dR_sc/dgamma = gamma(2-gamma)/(1-gamma)^2 > 0 for every "
            "gamma in (0, 1) (exact)",
        )
    return Verdict.inconclusive(
        f"slope at sigma = 1: {slope_at_one} ({increasing.detail}); limit at "
        f"sigma = 0: {noiseless}",
        Reason.UNDECIDED,
    )


def _check_double_descent_corrected() -> Verdict:
    risk = tr.scratch_risk_overparameterized()
    slope = check_identity(
        sp.diff(risk, _GAMMA),
        (_SIGMA**2 - (1 - _GAMMA) ** 2) / (1 - _GAMMA) ** 2,
    )
    minimum_value = check_identity(
        risk.subs(_GAMMA, 1 - _SIGMA), 2 * _SIGMA - _SIGMA**2
    )
    noisy = sp.Symbol("sigma_p", positive=True)
    left = check_limit(risk.subs(_SIGMA, noisy), _GAMMA, 1, sp.oo, direction="-")
    right = check_limit(
        tr.scratch_risk_underparameterized().subs(_SIGMA, noisy),
        _GAMMA,
        1,
        sp.oo,
        direction="+",
    )
    return all_hold(
        {
            "dR/dgamma = (sigma^2 - (1-gamma)^2)/(1-gamma)^2: < 0 on (0, 1-sigma), "
            "> 0 on (1-sigma, 1)": slope,
            "R(1-sigma) = 2 sigma - sigma^2": minimum_value,
            "gamma -> 1- (sigma > 0)": left,
            "gamma -> 1+ (sigma > 0)": right,
        }
    )


def _underparameterized_slope() -> sp.Basic:
    """dR_sc/dgamma = -sigma^2/(gamma-1)^2 (<= 0, < 0 for sigma > 0), gamma > 1."""
    return sp.Eq(
        sp.diff(tr.scratch_risk_underparameterized(), _GAMMA),
        -(_SIGMA**2) / (_GAMMA - 1) ** 2,
        evaluate=False,
    )


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "10",
        "double-descent-as-printed",
        Kind.INEQUALITY,
        "in the overparameterized regime the scratch risk (10) first decreases, then "
        "becomes infinite as gamma -> 1",
        _check_double_descent_as_printed,
        Status.HOLDS,
        assumptions=(*_OVER, "0 < sigma < 1 (sigma = 0.2 in Figs. 1-3)"),
        formula=lambda: sp.Eq(tr.risk_scratch, tr.scratch_risk()),
        budget_seconds=_BUDGET,
        quote="This expression exhibits double descent behavior: in the "
        "overparameterized regime, the generalization error first decreases, then "
        "becomes infinite as γ → 1",
        reading=Reading.PROSE,
        regime="0 < gamma < 1, 0 < sigma < 1 symbolic: the noisy, SNR > 1 setting "
        "of every figure of Section 3 (sigma = 0.2 in Figs. 1-3); the sentence "
        "states no condition on sigma",
    ),
    Claim(
        SOURCE_ID,
        "10",
        "double-descent-beyond-regime",
        Kind.INEQUALITY,
        "beyond the text's regime: for every sigma >= 0, (10) first decreases, then "
        "becomes infinite as gamma -> 1-",
        _check_double_descent_beyond_regime,
        Status.FAILS,
        formula=lambda: nt.lt(
            sp.Derivative(tr.scratch_risk_overparameterized(), _GAMMA), 0
        ),
        assumptions=(*_OVER, "sigma >= 0 (any noise level)"),
        budget_seconds=_BUDGET,
        quote="",
        reading=Reading.EXTENSION,
        regime="0 < gamma < 1 at sigma = 1 and sigma = 0, outside the noisy "
        "sigma < 1 setting of the figures; the text never states the sentence for "
        "every sigma",
    ),
    Claim(
        SOURCE_ID,
        "10",
        "double-descent",
        Kind.LIMIT,
        "for 0 < sigma < 1, (10) decreases on (0, 1-sigma), increases on (1-sigma, 1) "
        "with minimum 2 sigma - sigma^2, and tends to +oo as gamma -> 1 from both "
        "sides (sigma > 0)",
        _check_double_descent_corrected,
        Status.HOLDS,
        assumptions=(*_DEEP_LINEAR, "0 < sigma < 1 for the decrease"),
        corrects=_claim_id("10", "double-descent-beyond-regime"),
        formula=lambda: sp.Eq(
            sp.diff(tr.scratch_risk_overparameterized(), _GAMMA),
            (_SIGMA**2 - (1 - _GAMMA) ** 2) / (1 - _GAMMA) ** 2,
        ),
        budget_seconds=_BUDGET,
        quote="(1−γ)²+γσ²/(1−γ) for γ < 1; σ²/(γ−1) for γ > 1 (10)",
        reading=Reading.EXTENSION,
        regime="all gamma in (0, 1) and (1, oo), sigma symbolic in (0, 1): the "
        "minimum at gamma = 1 - sigma and both one-sided limits are ours",
    ),
    Claim(
        SOURCE_ID,
        "10",
        "underparameterized-decreasing",
        Kind.INEQUALITY,
        "in the underparameterized regime (10) decreases monotonically with gamma",
        relation_check(_underparameterized_slope, budget_seconds=_STEP_SECONDS),
        Status.HOLDS,
        assumptions=(*_DEEP_LINEAR, "gamma > 1"),
        formula=_underparameterized_slope,
        budget_seconds=_BUDGET,
        quote="while in the underparameterized regime, the generalization error "
        "monotonically decreases with increasing γ.",
        reading=Reading.PROSE,
        regime="all gamma > 1, sigma >= 0 symbolic, as the sentence states it",
    ),
)
