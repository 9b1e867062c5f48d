r"""Claims of features-are-fate, Section 3.3: Theorem 3.7, linear transfer.

The asymptotic linear-transfer risk (12) and transferability (13) from
:mod:`implicit_bias.theory.transfer_risks`, and every condition the text states
about the sign of (13): the underparameterized and noise conditions, the roots
gamma_+- of the quadratic q and the negative-transfer interval (empty as
printed; a separate claim, ``corrects=``, states what holds), the angle
condition, the noiseless limit, and how noise and angle move the region; and
the float64 roots against the evaluators of
:mod:`implicit_bias.numerics.transfer_risks`.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from fractions import Fraction

from implicit_bias.claims.certify import certified_sign
from implicit_bias.claims.checks import (
    check_close,
    check_identity,
    check_limit,
)
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
    conjunction,
    time_limit,
)
from implicit_bias.sources.features_are_fate._common import all_hold
from implicit_bias.sources.features_are_fate import notation as nt
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.numerics import transfer_risks as numerics
from implicit_bias.theory import transfer_risks as tr
from implicit_bias.sources.features_are_fate._risks import (
    _BUDGET,
    _COS2,
    _DEEP_LINEAR,
    _GAMMA,
    _OVER,
    _SIGMA,
    _SIN2,
    _STEP_SECONDS,
    _THETA,
    _U,
    _ULPS,
    _claim_id,
    _numerical_or_undecided,
)

__all__ = ["CLAIMS"]


def _check_eq12_structure() -> Verdict:
    source = sp.Matrix([1, 0])
    target = sp.Matrix([sp.cos(_THETA), sp.sin(_THETA)])
    orthogonal = target - (source.T * target)[0, 0] * source
    risk = tr.linear_transfer_risk()
    return all_hold(
        {
            "||(I - b_s b_s^T) b_t||^2 = sin^2 theta": check_identity(
                (orthogonal.T * orthogonal)[0, 0], _SIN2
            ),
            "n (R_lt - sin^2 theta) -> sigma^2 + sin^2 theta": check_limit(
                tr.n * (risk - _SIN2), tr.n, sp.oo, _SIGMA**2 + _SIN2
            ),
        }
    )


def _check_eq13_from_10_12() -> Verdict:
    with time_limit(_STEP_SECONDS):
        limit_lt = sp.limit(tr.linear_transfer_risk(), tr.n, sp.oo)
    return all_hold(
        {
            "gamma < 1": check_identity(
                tr.linear_transferability_overparameterized(),
                tr.scratch_risk_overparameterized() - limit_lt,
            ),
            "gamma > 1": check_identity(
                tr.linear_transferability_underparameterized(),
                tr.scratch_risk_underparameterized() - limit_lt,
            ),
        }
    )


def _check_underparameterized_condition() -> Verdict:
    # T = (sin^2/(gamma-1)) (sigma^2/sin^2 - (gamma-1)) with a positive prefactor.
    verdict = check_identity(
        tr.linear_transferability_underparameterized(),
        _SIN2 / (_GAMMA - 1) * (_SIGMA**2 / _SIN2 - (_GAMMA - 1)),
    )
    return verdict.with_detail(
        "T_lt = [sin^2 theta/(gamma-1)] (sigma^2/sin^2 theta - (gamma-1)), prefactor "
        f"> 0 for gamma > 1, sin theta != 0: {verdict.detail}",
    )


def _check_noise_condition() -> Verdict:
    excess = sp.Symbol("s", nonnegative=True)
    quadratic = tr.negative_transfer_quadratic().subs(_SIGMA, sp.sqrt(1 + excess))
    verdict = all_hold(
        {
            "(1-gamma) T_lt = q(gamma)": check_identity(
                (1 - _GAMMA) * tr.linear_transferability_overparameterized(),
                tr.negative_transfer_quadratic(),
            ),
            "q = gamma^2 + cos^2 theta (1-gamma) + s gamma at sigma^2 = 1 + s": (
                check_identity(
                    quadratic, _GAMMA**2 + _COS2 * (1 - _GAMMA) + excess * _GAMMA
                )
            ),
        }
    )
    if verdict.status != Status.HOLDS:
        return verdict
    return verdict.with_detail(
        "for sigma >= 1 and 0 < gamma < 1 every term of q is >= 0 and gamma^2 > 0, "
        f"so T_lt = q/(1-gamma) > 0. {verdict.detail}"
    )


def _check_roots() -> Verdict:
    quadratic = tr.negative_transfer_quadratic()
    return all_hold(
        {
            "q(gamma_+) = 0": check_identity(
                quadratic.subs(_GAMMA, tr.gamma_plus()), 0
            ),
            "q(gamma_-) = 0": check_identity(
                quadratic.subs(_GAMMA, tr.gamma_minus()), 0
            ),
            "gamma_+ gamma_- = cos^2 theta": check_identity(
                tr.gamma_plus() * tr.gamma_minus(), _COS2
            ),
        }
    )


def _example_interval() -> tuple[float, float, float, float]:
    theta_value, sigma_value = float(np.pi / 3), 0.2
    point = {_THETA: sp.pi / 3, _SIGMA: sp.Rational(1, 5)}
    low = float(tr.gamma_minus().subs(point))
    high = float(tr.gamma_plus().subs(point))
    middle = 0.5 * (low + high)
    value = float(numerics.linear_transferability(middle, theta_value, sigma_value))
    return low, high, middle, value


def _check_interval_as_printed() -> Verdict:
    width = check_identity(
        tr.gamma_plus() - tr.gamma_minus(), sp.sqrt(tr.negative_transfer_discriminant())
    )
    low, high, middle, value = _example_interval()
    # Certify T_lt < 0 at the example point, theta = pi/3 and sigma = 1/5 exact,
    # gamma the midpoint rounded to 6 digits (a rational).
    point = Fraction(f"{middle:.6f}")
    at_example = tr.linear_transferability_overparameterized().subs(
        {_THETA: sp.pi / 3, _SIGMA: sp.Rational(1, 5)}
    )
    certificate = certified_sign(at_example, {_GAMMA: point}, -1)
    if (
        width.status == Status.HOLDS
        and width.basis == Basis.PROOF
        and certificate.certified
    ):
        counterexample = (
            f"theta = pi/3, sigma = 1/5, gamma = {point} (exactly): T_lt is in "
            f"{certificate.enclosure} (ball arithmetic, {certificate.bits} bits), "
            "< 0, and (gamma_+, gamma_-) is empty"
        )
        return Verdict.fails(
            "gamma_+ - gamma_- = sqrt(Delta) >= 0, so (gamma_+, gamma_-) is empty as "
            f"written ({width.detail}); at theta = pi/3, sigma = 0.2: gamma_- = "
            f"{low:.6f} < gamma_+ = {high:.6f} and T_lt({middle:.4f}) = {value:.6f} "
            f"< 0 with gamma outside (gamma_+, gamma_-); certified: {counterexample}",
            Basis.CERTIFIED,
            counterexample,
        )
    return Verdict.inconclusive(
        f"gamma_- = {low}, gamma_+ = {high}; width: {width.detail}; T_lt at "
        f"gamma = {point}: {certificate.enclosure}",
        Reason.UNDECIDED,
    )


def _check_interval() -> Verdict:
    quadratic = tr.negative_transfer_quadratic()
    verdict = all_hold(
        {
            "q(0) = cos^2 theta": check_identity(quadratic.subs(_GAMMA, 0), _COS2),
            "q(1) = sigma^2": check_identity(quadratic.subs(_GAMMA, 1), _SIGMA**2),
            "(1-gamma) T_lt = q": check_identity(
                (1 - _GAMMA) * tr.linear_transferability_overparameterized(), quadratic
            ),
        }
    )
    if verdict.status != Status.HOLDS:
        return verdict
    return verdict.with_detail(
        "q is a monic quadratic with q(0) >= 0, q(1) >= 0 and vertex "
        "(1 + cos^2 - sigma^2)/2 in (0, 1) for sigma < 1, so when Delta > 0 both roots "
        "lie in [0, 1] and T_lt = q/(1-gamma) < 0 exactly on (gamma_-, gamma_+). "
        + verdict.detail
    )


def _check_angle_condition() -> Verdict:
    cosine = sp.Symbol("c", nonnegative=True)
    factored = (
        (1 - _SIGMA - cosine)
        * (1 - _SIGMA + cosine)
        * (1 + _SIGMA - cosine)
        * (1 + _SIGMA + cosine)
    )
    identity = check_identity(
        tr.negative_transfer_discriminant().subs(sp.cos(_THETA), cosine), factored
    )
    right_angle = check_identity(
        tr.negative_transfer_quadratic().subs(_THETA, sp.pi / 2),
        _GAMMA * (_GAMMA - (1 - _SIGMA**2)),
    )
    verdict = all_hold(
        {
            "Delta = (1-sigma-c)(1-sigma+c)(1+sigma-c)(1+sigma+c), c = cos theta": (
                identity
            ),
            "at theta = pi/2, q = gamma (gamma - (1 - sigma^2))": right_angle,
        }
    )
    if verdict.status != Status.HOLDS:
        return verdict
    return verdict.with_detail(
        "for theta in [0, pi/2] (c in [0, 1]) and sigma < 1 the last three factors "
        "are > 0 wherever the first is, so Delta > 0 iff cos theta < 1 - sigma iff "
        "theta > arccos(1 - sigma); the endpoint theta = pi/2 belongs too, with "
        f"(gamma_-, gamma_+) = (0, 1 - sigma^2). {verdict.detail}"
    )


def _check_noiseless_limit() -> Verdict:
    # sqrt of the discriminant at sigma = 0 is |1 - cos^2| = sin^2 theta.
    return all_hold(
        {
            "gamma_+ -> 1": check_limit(tr.gamma_plus(), _SIGMA, 0, sp.Integer(1)),
            "gamma_- -> cos^2 theta": check_limit(tr.gamma_minus(), _SIGMA, 0, _COS2),
        }
    )


def _check_noise_shrinks() -> Verdict:
    return all_hold(
        {
            "dq/dsigma = 2 sigma gamma >= 0, so {gamma in (0, 1): q < 0} = "
            "{T_lt < 0} is nested, shrinking as sigma grows": check_identity(
                sp.diff(tr.negative_transfer_quadratic(), _SIGMA), 2 * _SIGMA * _GAMMA
            ),
            "d Delta/d sigma = -4 sigma (1 + cos^2 - sigma^2) < 0 for 0 < sigma < 1 "
            "(width sqrt(Delta))": check_identity(
                sp.diff(tr.negative_transfer_discriminant(), _SIGMA),
                -4 * _SIGMA * (1 + _COS2 - _SIGMA**2),
            ),
            "d/dsigma (1 + sigma^2/sin^2) = 2 sigma/sin^2 > 0": check_identity(
                sp.diff(tr.underparameterized_negative_transfer_gamma(), _SIGMA),
                2 * _SIGMA / _SIN2,
            ),
        }
    )


def _check_angle_degrades() -> Verdict:
    verdict = check_identity(
        sp.diff(tr.linear_transferability_overparameterized(), _THETA),
        -sp.sin(2 * _THETA),
    )
    under = check_identity(
        sp.diff(tr.linear_transferability_underparameterized(), _THETA),
        -sp.sin(2 * _THETA),
    )
    return all_hold(
        {
            "dT_lt/dtheta = -sin 2theta < 0 on (0, pi/2), gamma < 1": verdict,
            "gamma > 1": under,
        }
    )


def _check_anomalous_positive() -> Verdict:
    over = tr.linear_transferability_overparameterized().subs(_THETA, sp.pi / 2)
    under = tr.linear_transferability_underparameterized().subs(_THETA, sp.pi / 2)
    return all_hold(
        {
            "theta = pi/2, gamma < 1: T = gamma (gamma - (1-sigma^2))/(1-gamma) > 0 "
            "on (1-sigma^2, 1)": check_identity(
                over, _GAMMA * (_GAMMA - (1 - _SIGMA**2)) / (1 - _GAMMA)
            ),
            "gamma > 1: T = (1 + sigma^2 - gamma)/(gamma - 1) > 0 on (1, 1+sigma^2)": (
                check_identity(under, (1 + _SIGMA**2 - _GAMMA) / (_GAMMA - 1))
            ),
        }
    )


def _check_boundaries_numeric() -> Verdict:
    r"""gamma_+- from the evaluators are sign changes of T_lt, within rounding.

    A root computed with relative error e moves T_lt by about
    :math:`|\gamma T_{lt}'(\gamma)|\,e`, and evaluating T_lt adds
    :math:`O(u)(\mathbb E\mathcal R_{sc}+\sin^2\theta)`; the residual is
    compared with _ULPS u times the sum of the two scales (:func:`check_close`).
    """
    rng = np.random.default_rng(13)
    sigma_values = rng.uniform(0.0, 0.9, 400)
    margin = np.arccos(1.0 - sigma_values)
    theta_values = rng.uniform(margin + 1e-3, np.pi - margin - 1e-3)
    low, high = numerics.negative_transfer_gammas(theta_values, sigma_values)
    threshold = numerics.underparameterized_negative_transfer_gamma(
        theta_values, sigma_values
    )
    slope = sp.lambdify(
        (_GAMMA, _THETA, _SIGMA),
        sp.diff(tr.linear_transferability(), _GAMMA),
        modules="numpy",
    )
    worst = 0.0
    comparisons = []
    for name, root in (
        ("gamma_-", low),
        ("gamma_+", high),
        ("1 + sigma^2/sin^2 theta", threshold),
    ):
        usable = root != 1.0
        arguments = (root[usable], theta_values[usable], sigma_values[usable])
        value = numerics.linear_transferability(*arguments)
        scale = (
            np.abs(arguments[0] * slope(*arguments))
            + numerics.scratch_risk(arguments[0], arguments[2])
            + np.sin(arguments[1]) ** 2
        )
        worst = max(worst, float(np.max(np.abs(value) / (_U * scale))))
        comparisons.append(
            check_close(value, 0.0, _ULPS * _U * scale, what=f"T_lt at {name}")
        )
    middle = numerics.linear_transferability(
        0.5 * (low + high), theta_values, sigma_values
    )
    negative = bool(np.all(middle < 0))
    detail = (
        f"400 random (theta, sigma) with |cos theta| < 1 - sigma, in float64 "
        f"(u = 2^-53): |T_lt| at gamma_-, "
        f"gamma_+ and 1 + sigma^2/sin^2 theta <= {worst:.2f} u x (|gamma T_lt'| + "
        f"R_sc + sin^2 theta) (tolerance {_ULPS:g} u x that scale); T_lt < 0 at "
        f"every midpoint of "
        f"(gamma_-, gamma_+): {negative}"
    )
    # The sign at the midpoints is a sign pattern, not a tolerance comparison.
    sign = (
        Verdict.holds("T_lt < 0 at every midpoint", Basis.NUMERICAL)
        if negative
        else Verdict.fails("T_lt >= 0 at a midpoint", Basis.NUMERICAL)
    )
    verdict = conjunction(
        [*comparisons, sign],
        f"{detail}; " + "; ".join(c.detail for c in comparisons),
    )
    return _numerical_or_undecided(verdict)


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "12",
        "irreducible-and-1/n",
        Kind.LIMIT,
        "in (12) the irreducible error sin^2 theta is the squared norm of beta_t "
        "orthogonal to beta_s, and the rest decays as 1/n (also eq. (21): C(n) ~ 1/n)",
        _check_eq12_structure,
        Status.HOLDS,
        assumptions=("Assumptions 3.1-3.2", "n > 2"),
        formula=lambda: sp.Eq(tr.risk_linear, tr.linear_transfer_risk()),
        budget_seconds=_BUDGET,
        quote="Luckily, since the pretrained feature space has sparsified, the effect "
        "of finite sampling and additive label noise decays as ∼1/n",
        reading=Reading.PROSE,
        regime="all theta, sigma symbolic, n -> oo, as the text states it for (12) "
        "(n > 2); '~1/n' checked exactly as n (R_lt - sin^2 theta) -> "
        "sigma^2 + sin^2 theta, no threshold",
    ),
    Claim(
        SOURCE_ID,
        "13",
        "from-10-12",
        Kind.IDENTITY,
        "(13) = (10) - lim_{n -> oo} (12), both branches",
        _check_eq13_from_10_12,
        Status.HOLDS,
        assumptions=_DEEP_LINEAR,
        formula=lambda: sp.Eq(tr.transferability_linear, tr.linear_transferability()),
        budget_seconds=_BUDGET,
        quote="In the limit n, d → ∞, the transferability (7) is T_lt = "
        "(1−γ)²+γσ²/(1−γ) − sin²θ for γ < 1; σ²/(γ−1) − sin²θ for γ > 1 (13)",
        reading=Reading.PRINTED,
        regime="all gamma != 1, theta, sigma symbolic, as (13) is stated",
    ),
    Claim(
        SOURCE_ID,
        "13",
        "underparameterized-condition",
        Kind.INEQUALITY,
        "for gamma > 1, negative transfer T_lt < 0 iff gamma - 1 > sigma^2/sin^2 theta",
        _check_underparameterized_condition,
        Status.HOLDS,
        assumptions=(*_DEEP_LINEAR, "gamma > 1", "sin theta != 0"),
        formula=lambda: sp.Gt(_GAMMA - 1, _SIGMA**2 / _SIN2),
        budget_seconds=_BUDGET,
        quote="In the underparameterized regime (γ > 1), there is negative transfer "
        "for all γ − 1 > σ²/sin²θ.",
        reading=Reading.PROSE,
        regime="all gamma > 1, theta with sin theta != 0, sigma symbolic, as the "
        "sentence states it (red region of Fig. 1b)",
    ),
    Claim(
        SOURCE_ID,
        "13",
        "noise-condition",
        Kind.INEQUALITY,
        "for gamma < 1, negative transfer only occurs when sigma < 1 (SNR > 1): for "
        "sigma >= 1, T_lt > 0",
        _check_noise_condition,
        Status.HOLDS,
        assumptions=_OVER,
        formula=lambda: sp.Eq(
            (1 - _GAMMA) * tr.transferability_linear, tr.negative_transfer_quadratic()
        ),
        budget_seconds=_BUDGET,
        quote="In the overparameterized regime (γ < 1), negative transfer only occurs "
        "when σ < 1.",
        reading=Reading.PROSE,
        regime="all 0 < gamma < 1, theta, sigma >= 1 symbolic, as the sentence "
        "states it",
    ),
    Claim(
        SOURCE_ID,
        "13",
        "roots",
        Kind.IDENTITY,
        "gamma_+- = [(1 + cos^2 theta - sigma^2) +- sqrt((1 + cos^2 theta - sigma^2)^2 "
        "- 4 cos^2 theta)]/2 are the zeros of T_lt for gamma < 1",
        _check_roots,
        Status.HOLDS,
        assumptions=_OVER,
        formula=lambda: sp.Eq(tr.gamma_plus_atom, tr.gamma_plus()),
        budget_seconds=_BUDGET,
        quote="where γ± = ½[(1+cos²θ−σ²) ± √((1+cos²θ−σ²)² − 4cos²θ)]",
        reading=Reading.INTERPRETATION,
        regime="theta, sigma symbolic (gamma < 1 branch of (13)); that the printed "
        "endpoints are the zeros of T_lt is our reading of their role as the "
        "boundary of the negative-transfer interval",
    ),
    Claim(
        SOURCE_ID,
        "13",
        "interval-as-printed",
        Kind.INEQUALITY,
        "for sigma < 1, negative transfer occurs for gamma in (gamma_+, gamma_-) "
        "(endpoint order as extracted)",
        _check_interval_as_printed,
        Status.FAILS,
        slip="interval-endpoints-13",
        assumptions=(*_OVER, "sigma < 1"),
        formula=lambda: sp.And(
            sp.Lt(tr.gamma_plus_atom, _GAMMA), sp.Lt(_GAMMA, tr.gamma_minus_atom)
        ),
        budget_seconds=_BUDGET,
        quote="When SNR > 1, negative transfer occurs when θ ∈ (arccos(1−σ), π/2) and "
        "γ ∈ (γ+, γ−)",
        reading=Reading.PROSE,
        regime="theta, sigma symbolic for the emptiness; counterexample at "
        "theta = pi/3, sigma = 0.2, the noise of Fig. 1, inside the stated "
        "theta in (arccos(1 - sigma), pi/2)",
    ),
    Claim(
        SOURCE_ID,
        "13",
        "interval",
        Kind.INEQUALITY,
        "for sigma < 1 and Delta > 0, T_lt < 0 exactly for gamma in (gamma_-, "
        "gamma_+), a subinterval of [0, 1]",
        _check_interval,
        Status.HOLDS,
        assumptions=(*_OVER, "sigma < 1"),
        corrects=_claim_id("13", "interval-as-printed"),
        formula=lambda: sp.And(
            sp.Lt(tr.gamma_minus_atom, _GAMMA), sp.Lt(_GAMMA, tr.gamma_plus_atom)
        ),
        budget_seconds=_BUDGET,
        quote="negative transfer occurs when θ ∈ (arccos(1−σ), π/2) and γ ∈ (γ+, γ−)",
        reading=Reading.EXTENSION,
        regime="0 < gamma < 1, 0 <= sigma < 1, theta symbolic with Delta > 0: the "
        "text's statement with the endpoints in increasing order (ours)",
    ),
    Claim(
        SOURCE_ID,
        "13",
        "angle-condition",
        Kind.INEQUALITY,
        "for sigma < 1, the negative-transfer interval exists for theta in "
        "(arccos(1 - sigma), pi/2)",
        _check_angle_condition,
        Status.HOLDS,
        assumptions=(*_OVER, "sigma < 1", "theta in [0, pi/2]"),
        formula=lambda: sp.Gt(_THETA, sp.acos(1 - _SIGMA)),
        budget_seconds=_BUDGET,
        quote="When SNR > 1, negative transfer occurs when θ ∈ (arccos(1−σ), π/2)",
        reading=Reading.PROSE,
        regime="0 <= sigma < 1 (SNR > 1) and theta in [0, pi/2] symbolic, as the "
        "sentence states it (the theta axis of Fig. 1)",
    ),
    Claim(
        SOURCE_ID,
        "13",
        "noiseless-limit",
        Kind.LIMIT,
        "as sigma -> 0 the condition becomes theta in (0, pi/2), cos^2 theta < gamma "
        "< 1: gamma_- -> cos^2 theta and gamma_+ -> 1",
        _check_noiseless_limit,
        Status.HOLDS,
        assumptions=(*_OVER, "theta in (0, pi/2)"),
        formula=lambda: sp.Eq(sp.Limit(tr.gamma_minus(), _SIGMA, 0), _COS2),
        budget_seconds=_BUDGET,
        quote="In the noiseless case σ → 0, this expression simplifies to "
        "θ ∈ (0, π/2), cos²θ < γ < 1",
        reading=Reading.PROSE,
        regime="sigma -> 0+, theta in (0, pi/2) symbolic, as the sentence states it",
    ),
    Claim(
        SOURCE_ID,
        "13",
        "noise-shrinks-region",
        Kind.INEQUALITY,
        "as sigma increases, the region of negative transfer shrinks",
        _check_noise_shrinks,
        Status.HOLDS,
        formula=lambda: nt.both(
            nt.ge(sp.Derivative(tr.negative_transfer_quadratic(), _SIGMA), 0),
            nt.lt(sp.Derivative(tr.negative_transfer_discriminant(), _SIGMA), 0),
            nt.gt(
                sp.Derivative(tr.underparameterized_negative_transfer_gamma(), _SIGMA),
                0,
            ),
        ),
        assumptions=(*_DEEP_LINEAR, "0 < sigma < 1"),
        budget_seconds=_BUDGET,
        quote="As σ increases, the region of negative transfer shrinks, since the "
        "noise corrupts the scratch trained accuracy.",
        reading=Reading.PROSE,
        regime="0 < sigma < 1 and all gamma, theta symbolic: both regions of Fig. 1b "
        "(gamma < 1 nested since dq/dsigma >= 0; gamma > 1 threshold increasing)",
    ),
    Claim(
        SOURCE_ID,
        "13",
        "angle-degrades",
        Kind.INEQUALITY,
        "at fixed gamma and sigma, transferability degrades as the out-of-subspace "
        "component sin theta grows",
        _check_angle_degrades,
        Status.HOLDS,
        formula=lambda: nt.both(
            nt.lt(
                sp.Derivative(tr.linear_transferability_overparameterized(), _THETA), 0
            ),
            nt.lt(
                sp.Derivative(tr.linear_transferability_underparameterized(), _THETA), 0
            ),
        ),
        assumptions=(*_DEEP_LINEAR, "theta in [0, pi/2]"),
        budget_seconds=_BUDGET,
        quote="at fixed γ and σ, i.e., fixing the number of datapoints and label "
        "noise, as the norm of the out-of-subspace component increases, transfer "
        "efficiency degrades.",
        reading=Reading.PROSE,
        regime="theta in (0, pi/2), all gamma != 1, sigma symbolic (the text says it "
        "of gamma > 1; it holds on both branches)",
    ),
    Claim(
        SOURCE_ID,
        "13",
        "anomalous-positive",
        Kind.INEQUALITY,
        "the two negative-transfer regions are separated by positive transfer that "
        "persists at theta = pi/2 (anomalous positive transfer)",
        _check_anomalous_positive,
        Status.HOLDS,
        formula=lambda: nt.both(
            nt.gt(
                tr.linear_transferability_overparameterized().subs(_THETA, sp.pi / 2), 0
            ),
            nt.gt(
                tr.linear_transferability_underparameterized().subs(_THETA, sp.pi / 2),
                0,
            ),
        ),
        assumptions=(*_DEEP_LINEAR, "theta = pi/2", "sigma > 0"),
        budget_seconds=_BUDGET,
        quote="the two regions of negative transfer in Fig. 1 are separated by "
        "positive transfer that persists even when θ = π/2.",
        reading=Reading.PROSE,
        regime="theta = pi/2, sigma > 0 symbolic (sigma = 0.2 in Fig. 1), gamma in "
        "(1 - sigma^2, 1 + sigma^2) minus 1",
    ),
    Claim(
        SOURCE_ID,
        "13",
        "boundaries-numeric",
        Kind.NUMERIC,
        "the evaluated gamma_+- and 1 + sigma^2/sin^2 theta are zeros of the "
        "evaluated T_lt to rounding, with T_lt < 0 between gamma_- and gamma_+",
        _check_boundaries_numeric,
        Status.HOLDS,
        formula=lambda: nt.both(
            nt.eq(
                sp.Subs(
                    tr.linear_transferability_overparameterized(),
                    _GAMMA,
                    tr.gamma_minus_atom,
                ),
                0,
            ),
            nt.eq(
                sp.Subs(
                    tr.linear_transferability_overparameterized(),
                    _GAMMA,
                    tr.gamma_plus_atom,
                ),
                0,
            ),
            nt.eq(
                sp.Subs(
                    tr.linear_transferability_underparameterized(),
                    _GAMMA,
                    tr.underparameterized_negative_transfer_gamma(),
                ),
                0,
            ),
            nt.lt(
                sp.Subs(
                    tr.linear_transferability_overparameterized(),
                    _GAMMA,
                    (tr.gamma_minus_atom + tr.gamma_plus_atom) / 2,
                ),
                0,
            ),
        ),
        assumptions=_DEEP_LINEAR,
        budget_seconds=_BUDGET,
        quote="",
        reading=Reading.EXTENSION,
        regime="400 random (theta, sigma), sigma in [0, 0.9], |cos theta| < 1 - "
        "sigma: our float64 evaluators, bound 16 u from their operation count",
    ),
)
