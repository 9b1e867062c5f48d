r"""Claims of features-are-fate, Appendix B.7: the proof of Theorem 3.8, (131)-(141).

The second half of the proof of Theorem 3.8 as printed: the substitutions and
saddle point (131)-(137) that bring :math:`I_1` to Laplace form, the limits
(138)-(141) and the monotonicity in lambda, checked symbolically
(:mod:`implicit_bias.theory.transfer_asymptotics`) where SymPy can decide it and
numerically otherwise, and the exact finite-size risk against eq. (15)
(:mod:`implicit_bias.theory.transfer_risks`). The chain (131)-(133) is a
derivation, one claim per step. (121)-(130) are in :mod:`.appendix_b7`.

Tolerances. A 1/n convergence rate is tested as
:func:`~implicit_bias.sources.features_are_fate._common.rate_verdict` explains.
The saddle-point approximation's relative error and its next-order remainder
must have log-log slopes within 0.15 of -1.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import mpmath
import numpy as np
import sympy as sp

from implicit_bias.claims.certify import certified_nonzero
from implicit_bias.claims.checks import (
    RelationCheck,
    check_close,
    check_equal,
    check_identity,
    judge_relation,
    relation_check,
)
from implicit_bias.claims.derivation import Derivation, Step
from implicit_bias.claims.engine import (
    Basis,
    CheckTimeout,
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
    conjunction,
    time_limit,
)
from implicit_bias.sources.features_are_fate._common import (
    ORDER_TOLERANCE,
    as_asymptotics_symbols,
    claim_id,
    rate_verdict,
)
from implicit_bias.sources.features_are_fate import notation as nt
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.numerics import transfer_asymptotics as numerics
from implicit_bias.numerics import transfer_risks as limits
from implicit_bias.theory import transfer_asymptotics as theory
from implicit_bias.theory import transfer_risks as limits_theory
from implicit_bias.sources.features_are_fate.appendix_b7 import (
    _SAMPLERS,
    _lam,
    _n,
    _ratio_is_one,
    _sigma,
    _theta,
    _undecided_on_miss,
)

__all__ = ["CLAIMS", "DERIVATIONS"]


#: CPU seconds for simplifying the ratio of the two sides of a relation.
_RATIO_SECONDS = 20.0


def _judge_ratio(relation: sp.Basic) -> Verdict:
    """Decide ``Eq(lhs, rhs)`` between products of powers of the positive n, u,
    t, lambda: ``holds`` (proof) when lhs/rhs, its powers and logs combined,
    simplifies to 1; else :func:`check_identity` of the two sides (a certified
    ``fails`` or a numeric ``holds``). Other relations: :func:`judge_relation`."""
    if not isinstance(relation, sp.Eq):
        return judge_relation(relation, samplers=_SAMPLERS)
    lhs, rhs = relation.lhs, relation.rhs
    ratio: sp.Expr = lhs / rhs
    with contextlib.suppress(CheckTimeout), time_limit(_RATIO_SECONDS):
        ratio = sp.simplify(
            sp.powsimp(
                sp.expand_log(sp.expand_power_base(lhs / rhs, force=True), force=True),
                force=True,
            )
        )
    return _ratio_is_one(ratio, lhs, rhs, f"lhs/rhs = {sp.sstr(ratio)}")


def _one_integral(side: sp.Expr) -> tuple[sp.Expr, sp.Integral] | None:
    """``(P, int_0^oo h)`` when ``side`` is P times one integral over (0, oo)."""
    integrals = side.atoms(sp.Integral)
    if len(integrals) != 1:
        return None
    integral = integrals.pop()
    prefactor = side / integral
    if prefactor.has(sp.Integral) or len(integral.limits) != 1:
        return None
    if tuple(integral.limits[0][1:]) != (0, sp.oo):
        return None
    return prefactor, integral


def _change_of_variables(
    old: sp.Symbol, replacement: sp.Expr, new: sp.Symbol
) -> Callable[[sp.Basic], Verdict]:
    """A judge of ``Eq(P int_0^oo h(old) d old, Q int_0^oo k(new) d new)`` under
    ``old = replacement(new)``, an increasing map of (0, oo) onto itself: the
    integrals are equal when P h(replacement) d(replacement)/d(new) = Q k(new),
    decided by :func:`_judge_ratio`. Other relations: :func:`_judge_ratio`."""

    def judge(relation: sp.Basic) -> Verdict:
        if not isinstance(relation, sp.Eq):
            return _judge_ratio(relation)
        first, second = _one_integral(relation.lhs), _one_integral(relation.rhs)
        if first is None or second is None:
            return _judge_ratio(relation)
        (left, before), (right, after) = first, second
        if before.limits[0][0] != old or after.limits[0][0] != new:
            return _judge_ratio(relation)
        transformed = (
            left * before.function.subs(old, replacement) * sp.diff(replacement, new)
        )
        verdict = _judge_ratio(
            sp.Eq(transformed, right * after.function, evaluate=False)
        )
        change = (
            "the same variable"
            if replacement == old
            else f"{old} = {sp.sstr(replacement)}"
        )
        return verdict.with_detail(
            f"{change}, integrands with their prefactors: {verdict.detail}"
        )

    return judge


def _eq129_without_coefficient() -> sp.Expr:
    """(129)'s radial integral of I_1(n) with S_{n-1}/(2 pi)^{n/2} set aside."""
    integrand = theory.ridge_integrand_radial(_n, True) / (
        theory.sphere_area() / (2 * sp.pi) ** (_n / 2)
    )
    return sp.Integral(integrand, (theory.r, 0, sp.oo))


def _eq133() -> sp.Expr:
    """(133): n (2n)^{n/2} int g(t) e^{n f(t)} dt."""
    return (
        _n
        * (2 * _n) ** (_n / 2)
        * sp.Integral(
            theory.laplace_prefactor() * sp.exp(_n * theory.laplace_exponent()),
            (theory.t, 0, sp.oo),
        )
    )


def _check_laplace_form() -> Verdict:
    exponent, prefactor = theory.laplace_exponent(), theory.laplace_prefactor()
    integrand = _n * (2 * _n) ** (_n / 2) * prefactor * sp.exp(_n * exponent)
    ratio = sp.simplify(sp.powsimp(integrand / theory.ridge_i1_eq132(), force=True))
    critical = sp.solve(sp.diff(exponent, theory.t), theory.t)
    curvature = sp.diff(exponent, theory.t, 2).subs(theory.t, critical[0])
    form = _ratio_is_one(
        ratio,
        integrand,
        theory.ridge_i1_eq132(),
        f"(132) = n(2n)^(n/2) g(t) e^(n f(t)) (ratio {ratio})",
    )
    if form.status != Status.HOLDS:
        return form
    # solve and the second derivative are exact.
    return Verdict.decide(
        critical == [sp.Rational(1, 2)] and curvature == -2,
        f"{form.detail}; f'(t) = 0 at t = {critical}, f''(t0) = {curvature}",
        form.basis or Basis.PROOF,
    )


def _saddle_value() -> sp.Basic:
    """Laplace's method at t0 = 1/2, n (2n)^(n/2) sqrt(2 pi/(n |f''(t0)|)) g(t0)
    e^(n f(t0)), is eq. (135)."""
    t0 = sp.Rational(1, 2)
    exponent, prefactor = theory.laplace_exponent(), theory.laplace_prefactor()
    curvature = -sp.diff(exponent, theory.t, 2).subs(theory.t, t0)
    laplace = (
        _n
        * (2 * _n) ** (_n / 2)
        * sp.sqrt(2 * sp.pi / (_n * curvature))
        * prefactor.subs(theory.t, t0)
        * sp.exp(_n * exponent.subs(theory.t, t0))
    )
    return sp.Eq(laplace, theory.ridge_i1_eq135(), evaluate=False)


def _sci(values: np.ndarray) -> str:
    return "[" + " ".join(f"{v:.3e}" for v in values) + "]"


def _check_laplace_accuracy() -> Verdict:
    ridge = mpmath.mpf("0.5")
    sizes = np.array([50.0, 100.0, 200.0, 400.0, 800.0])
    errors = []
    with mpmath.workdps(30):
        for size in sizes:
            k = mpmath.mpf(int(size))

            def integrand(v: mpmath.mpf, k: mpmath.mpf = k) -> mpmath.mpf:
                # t^(n/2) e^(-n t) / (2t + lambda)^2, scaled by its value at 1/2.
                return (
                    mpmath.exp(k / 2 * mpmath.log(2 * v) - k * (v - mpmath.mpf(1) / 2))
                    / (2 * v + ridge) ** 2
                )

            exact = mpmath.quad(integrand, [0, mpmath.mpf(1) / 2, 1, mpmath.inf])
            laplace = mpmath.sqrt(mpmath.pi / k) / (1 + ridge) ** 2
            errors.append(float(exact / laplace - 1))
    relative = np.array(errors)
    correction = float(theory.laplace_relative_correction().subs(_lam, 0.5))
    remainder = sizes * relative - correction
    slope = float(np.polyfit(np.log(sizes), np.log(np.abs(relative)), 1)[0])
    remainder_slope = float(np.polyfit(np.log(sizes), np.log(np.abs(remainder)), 1)[0])
    slopes = check_close(
        [slope, remainder_slope],
        -1.0,
        ORDER_TOLERANCE,
        what="log-log slopes of the relative error and of its remainder",
    )
    return _undecided_on_miss(
        slopes.with_detail(
            "exact integral (132) / saddle-point value (134), lambda = 0.5, at n = "
            f"{sizes.astype(int).tolist()}: relative error "
            f"{_sci(relative)} (log-log "
            f"slope {slope:.3f}); "
            f"n x relative error - a = {np.array2string(remainder, precision=3)} "
            f"(slope {remainder_slope:.3f}) with the next saddle-point term a = "
            f"{correction:.5f}: relative error a/n + O(1/n^2); both slopes within "
            f"{ORDER_TOLERANCE} of -1; {slopes.detail}",
        )
    )


def _check_eq137_as_printed() -> Verdict:
    ratio = sp.simplify(
        sp.powsimp(theory.ridge_i1_eq137() / theory.ridge_i1_eq138(), force=True)
    )
    at = {_n: 10, _lam: sp.Rational(1, 2)}
    detail = (
        f"eq. (137) / eq. (138) = {sp.sstr(ratio)} (e.g. {sp.N(ratio.subs(at), 6)} "
        "at n = 10): (137) multiplies (135) by Stirling's form of S_{n-1} alone and "
        "drops the 1/(2 pi)^{n/2} of (136); (138), which follows from (136), is "
        "right (137:angular-factor)"
    )
    if sp.simplify(ratio - 1) == 0:
        return Verdict.holds(f"exact: {detail}", Basis.PROOF)
    difference = (theory.ridge_i1_eq137() - theory.ridge_i1_eq138()).subs(at)
    certificate = certified_nonzero(difference, {})
    if certificate.certified:
        counterexample = (
            f"at n = 10, lambda = 1/2 (exactly), (137) - (138) is in "
            f"{certificate.enclosure} (ball arithmetic, {certificate.bits} bits), "
            "which excludes 0"
        )
        return Verdict.fails(
            f"{detail}; certified: {counterexample}", Basis.CERTIFIED, counterexample
        )
    return Verdict.inconclusive(
        f"{detail}; not certified: {certificate.enclosure}", Reason.UNDECIDED
    )


def _check_eq137_corrected() -> Verdict:
    # (136)/(138) = [S_{n-1} / Stirling's S_{n-1}] * [(137)/(2 pi)^{n/2} / (138)].
    # In n = 2m (m -> oo with n) the ratio is a product of positive factors,
    # whose logarithm SymPy splits into a sum (m log m - log Gamma(m) + ...);
    # its limit L gives the ratio's, e^L (exp is continuous), in a quarter of
    # the CPU of the ratio's own limit.
    half = sp.Symbol("m", positive=True)
    ratio = (theory.sphere_area() / theory.sphere_area_stirling()).subs(_n, 2 * half)
    with time_limit(60):
        value = sp.exp(sp.limit(sp.expand_log(sp.log(ratio)), half, sp.oo))
    stirling = theory.ridge_i1_eq137() / (2 * sp.pi) ** (_n / 2)
    exact = sp.simplify(sp.powsimp(stirling / theory.ridge_i1_eq138(), force=True))
    identity = _ratio_is_one(
        exact,
        stirling,
        theory.ridge_i1_eq138(),
        f"(137) divided by (2 pi)^(n/2) is (138) identically (ratio {exact})",
    )
    limit = check_equal(value, sp.Integer(1), what="lim S_{n-1}/(Stirling's S_{n-1})")
    return conjunction(
        [identity, limit],
        f"{identity.detail}, and (136)/(138) = S_{{n-1}}/(Stirling's S_{{n-1}}) -> "
        f"{value} as n -> oo ({limit.detail})",
    )


def _expansion_coefficients(
    function: Callable[[sp.Expr], sp.Expr],
) -> list[sp.Expr]:
    """The coefficients of n^0, n^-1, n^-2 of E_z function(||z||^2/n), in lambda."""
    return theory.chi_square_expectation_expansion(function, 2)


def _ratio_over(v: sp.Expr) -> sp.Expr:
    return v / (v + _lam) ** 2


def _square_ratio(v: sp.Expr) -> sp.Expr:
    return v**2 / (v + _lam) ** 2


def _ratio(v: sp.Expr) -> sp.Expr:
    return v / (v + _lam)


def _check_integral_limit(which: str) -> Verdict:
    # lambda = 0.5 zeroes c1 of n I_1(n) and c2 of I_2(n); 0.3 leaves all nonzero.
    ridge = 0.3
    sizes = np.array([200.0, 400.0, 800.0, 1600.0, 3200.0, 6400.0])
    shifted, plain, second = numerics.chi_square_ridge_integrals(sizes, ridge)
    if which == "138":
        finite = sizes * plain
        function: Callable[[sp.Expr], sp.Expr] = _ratio_over
        printed_expression = sp.expand(_n * theory.ridge_i1_eq138())
        label = "n I_1(n, lambda) -> 1/(1+lambda)^2"
    elif which == "139":
        finite = shifted
        function = _square_ratio
        printed_expression = theory.ridge_i1_shifted_eq139()
        label = "I_1(n+2, lambda) -> 1/(1+lambda)^2"
    else:
        finite = second
        function = _ratio
        printed_expression = theory.ridge_i2_eq140()
        label = "I_2(n, lambda) -> 1/(1+lambda)"
    coefficients = _expansion_coefficients(function)
    # The limit: the n^0 coefficient of the exact expansion against the printed
    # value, for every lambda (exact).
    limit = check_equal(coefficients[0], printed_expression, what="the n^0 coefficient")
    if limit.status != Status.HOLDS:
        return limit.with_detail(f"{label}: {limit.detail}")
    value = sp.nsimplify(ridge)
    printed = float(printed_expression.subs(_lam, value))
    first, second_order = (float(c.subs(_lam, value)) for c in coefficients[1:])
    rate = rate_verdict(
        sizes, finite - printed, first, second_order, f"{label}, lambda = {ridge}"
    )
    return conjunction(
        [limit, rate], f"limit for every lambda: {limit.detail}; {rate.detail}"
    )


def _check_ridge_limit_symbolic() -> Verdict:
    substituted = theory.ridge_risk_eq128().subs(
        {
            theory.i1_shifted: theory.ridge_i1_shifted_eq139(),
            theory.i1_plain: theory.ridge_i1_eq138(),
            theory.i2_plain: theory.ridge_i2_eq140(),
        }
    )
    limit = sp.limit(substituted, _n, sp.oo)
    printed = check_identity(limit, theory.ridge_risk_eq141())
    theirs = check_identity(
        limit, as_asymptotics_symbols(limits_theory.ridge_transfer_risk())
    )
    expansion = theory.ridge_risk_expansion(1)[0]
    leading = check_identity(expansion, theory.ridge_risk_eq141())
    return conjunction(
        [printed, theirs, leading],
        f"(128) with (138)-(140), n -> oo, is (141) ({printed.detail}) and eq. (15) "
        f"({theirs.detail}); the n^0 term of the exact expansion is (141) "
        f"({leading.detail})",
    )


def _check_ridge_strictly_increasing() -> Verdict:
    derivative = sp.factor(sp.diff(theory.ridge_risk_eq141(), _lam))
    at_right_angle = sp.simplify(theory.ridge_risk_eq141().subs(_theta, sp.pi / 2))
    if at_right_angle.has(_lam):
        return Verdict.inconclusive(
            f"at theta = pi/2, (141) = {at_right_angle} depends on lambda; "
            f"d/d lambda of (141) = {sp.sstr(derivative)}",
            Reason.UNDECIDED,
        )
    return Verdict.fails(
        f"d/d lambda of (141) = {sp.sstr(derivative)}, which vanishes for every "
        f"lambda at theta = pi/2, where (141) = {at_right_angle}: constant, not "
        "strictly increasing, on the closed interval [0, pi/2] as printed",
        Basis.PROOF,
        f"theta = pi/2: (141) = {at_right_angle} for every lambda >= 0 (exact)",
    )


def _ridge_slope() -> sp.Basic:
    """d/d lambda of (141) = 2 lambda cos^2(theta)/(1+lambda)^3 >= 0: nondecreasing
    for every theta, strictly increasing iff cos(theta) != 0, so lambda* = 0 is
    optimal (and unique iff theta != pi/2)."""
    return sp.Eq(
        sp.diff(theory.ridge_risk_eq141(), _lam),
        2 * _lam * sp.cos(_theta) ** 2 / (1 + _lam) ** 3,
        evaluate=False,
    )


def _check_ridge_rate() -> Verdict:
    ridge, angle, noise = 0.5, np.pi / 4, 0.5
    sizes = np.array([200.0, 400.0, 800.0, 1600.0, 3200.0, 6400.0])
    finite = numerics.ridge_transfer_risk_finite(sizes, ridge, angle, noise)
    difference = finite - limits.ridge_transfer_risk(ridge, angle)
    values = {_lam: sp.nsimplify(ridge), _theta: sp.pi / 4, _sigma: sp.nsimplify(noise)}
    _, first, second = (float(c.subs(values)) for c in theory.ridge_risk_expansion(2))
    return rate_verdict(
        sizes,
        difference,
        first,
        second,
        f"ridge transfer, lambda = {ridge}, theta = pi/4, sigma = {noise}",
    )


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "133-134",
        "saddle-point",
        Kind.IDENTITY,
        "the integrand is g(t) e^{n f(t)} with f = log(t)/2 - t, g = (2nt + n "
        "lambda)^{-2}; the critical point is t0 = 1/2",
        _check_laplace_form,
        Status.HOLDS,
        formula=lambda: sp.Eq(sp.Function("f")(theory.t), theory.laplace_exponent()),
        quote="t0 is a critical point of f(t) = ½ log t − t and g(t) = "
        "(2nt + nλ)^{−2}. Differentiating f(t) and setting equal to zero we find "
        "t0 = 1/2.",
        reading=Reading.PROSE,
        regime="all n, t > 0, lambda >= 0 symbolic, as stated",
    ),
    Claim(
        SOURCE_ID,
        "134",
        "laplace-accuracy",
        Kind.NUMERIC,
        "the saddle-point approximation (134) of (132) has relative error a/n + "
        "O(1/n^2), a from the next term of Laplace's method",
        _check_laplace_accuracy,
        Status.HOLDS,
        formula=lambda: nt.eq(
            sp.Integral(theory.ridge_i1_eq132(), (theory.t, 0, sp.oo))
            / theory.ridge_i1_eq135()
            - 1,
            nt.laplace_coefficient / _n + nt.inverse_order(_n, 2),
        ),
        quote="the limit n → ∞ is exact since corrections to the saddle point value "
        "are subleading in n.",
        reading=Reading.INTERPRETATION,
        regime="lambda = 0.5 (Fig. 2 spans lambda in [0, 0.6]), n = 50..800 at 30 "
        "digits; 'subleading' read as relative error a/n + O(1/n^2), slopes within "
        "0.15 of -1",
    ),
    Claim(
        SOURCE_ID,
        "135",
        "saddle-value",
        Kind.IDENTITY,
        "the saddle-point value is sqrt(pi n) n^{n/2} e^{-n/2}/(n + n lambda)^2",
        RelationCheck(_saddle_value, _judge_ratio),
        Status.HOLDS,
        formula=_saddle_value,
        quote="I1(n, λ) ∝ √(πn) n^{n/2} e^{−n/2}/(n + nλ)² (135)",
        reading=Reading.PRINTED,
        regime="all n > 0, lambda >= 0 symbolic, t0 = 1/2 as the text finds it",
    ),
    Claim(
        SOURCE_ID,
        "137",
        "as-printed",
        Kind.IDENTITY,
        "(137) n pi^{n/2}/sqrt(pi n) (n/2)^{-n/2} e^{n/2} * (135) = 1/(n(1+lambda)^2) "
        "(138)",
        _check_eq137_as_printed,
        Status.FAILS,
        slip="stirling-factor-137",
        formula=lambda: sp.Eq(theory.ridge_i1_eq137(), theory.ridge_i1_eq138()),
        quote="≈ nπ^{n/2}/√(πn) (n/2)^{−n/2} e^{n/2} √(πn) n^{n/2} e^{−n/2}/(n + nλ)² "
        "(137) = 1/(n(1+λ)²) (138)",
        reading=Reading.PRINTED,
        regime="n, lambda symbolic; certified counterexample at n = 10, "
        "lambda = 1/2 (inside Fig. 2's lambda in [0, 0.6])",
    ),
    Claim(
        SOURCE_ID,
        "137",
        "angular-factor",
        Kind.LIMIT,
        "(136) = S_{n-1}/(2 pi)^{n/2} * (135) ~ 1/(n(1+lambda)^2): Stirling's S_{n-1} "
        "divided by (2 pi)^{n/2}",
        _check_eq137_corrected,
        Status.HOLDS,
        corrects=claim_id("137", "as-printed"),
        formula=lambda: sp.Eq(
            sp.Limit(theory.ridge_i1_eq136() / theory.ridge_i1_eq138(), _n, sp.oo), 1
        ),
        quote="",
        reading=Reading.EXTENSION,
        regime="n, lambda symbolic, n -> oo: (136) with Stirling's S_{n-1} and "
        "the 1/(2 pi)^{n/2} kept (ours)",
    ),
    Claim(
        SOURCE_ID,
        "138",
        "limit",
        Kind.NUMERIC,
        "I_1(n, lambda) ~ 1/(n(1+lambda)^2): n I_1 -> 1/(1+lambda)^2, at rate 1/n",
        lambda: _check_integral_limit("138"),
        Status.HOLDS,
        formula=lambda: nt.eq(
            _n * theory.i1_plain, 1 / (1 + _lam) ** 2 + nt.inverse_order(_n, 1)
        ),
        quote="= 1/(n(1+λ)²) (138)",
        reading=Reading.INTERPRETATION,
        regime="limit for every lambda (exact expansion); rate at lambda = 0.3, "
        "n = 200..6400; the text's '≈ ... for large n' read as n I1 -> "
        "1/(1+lambda)^2 with a 1/n correction",
    ),
    Claim(
        SOURCE_ID,
        "139",
        "limit",
        Kind.NUMERIC,
        "I_1(n+2, lambda) -> 1/(1+lambda)^2, at rate 1/n",
        lambda: _check_integral_limit("139"),
        Status.HOLDS,
        formula=lambda: nt.eq(
            theory.i1_shifted, 1 / (1 + _lam) ** 2 + nt.inverse_order(_n, 1)
        ),
        quote="I1(n+2, λ) = 1/(1+λ)² (139)",
        reading=Reading.INTERPRETATION,
        regime="limit for every lambda (exact expansion); rate at lambda = 0.3, "
        "n = 200..6400; 'for large n' read as a limit with a 1/n correction",
    ),
    Claim(
        SOURCE_ID,
        "140",
        "limit",
        Kind.NUMERIC,
        "I_2(n, lambda) -> 1/(1+lambda), at rate 1/n",
        lambda: _check_integral_limit("140"),
        Status.HOLDS,
        formula=lambda: nt.eq(
            theory.i2_plain, 1 / (1 + _lam) + nt.inverse_order(_n, 1)
        ),
        quote="I2(n, λ) = 1/(1+λ) (140)",
        reading=Reading.INTERPRETATION,
        regime="limit for every lambda (exact expansion); rate at lambda = 0.3, "
        "n = 200..6400; 'for large n' read as a limit with a 1/n correction",
    ),
    Claim(
        SOURCE_ID,
        "141",
        "limit",
        Kind.LIMIT,
        "lim_n E R^lambda_lt = 1 - cos^2(theta)(1 + 2 lambda)/(1 + lambda)^2 (= eq. "
        "(15))",
        _check_ridge_limit_symbolic,
        Status.HOLDS,
        formula=lambda: sp.Eq(
            sp.Limit(theory.risk_ridge, _n, sp.oo), theory.ridge_risk_eq141()
        ),
        quote="lim_{n→∞} E_{X,ϵ} R^λ_lt = 1 − cos²θ (1+2λ)/(1+λ)² (141)",
        reading=Reading.PRINTED,
        regime="n -> oo with lambda, theta, sigma symbolic, as (141) is stated",
    ),
    Claim(
        SOURCE_ID,
        "141",
        "finite-size-rate",
        Kind.NUMERIC,
        "beyond the paper: the exact finite-n ridge risk converges to (141) = (15) "
        "as c1/n with the c1 of the 1/n expansion",
        _check_ridge_rate,
        Status.HOLDS,
        formula=lambda: nt.eq(
            theory.risk_ridge - theory.ridge_risk_eq141(),
            nt.rate_coefficient / _n + nt.inverse_order(_n, 2),
        ),
        quote="",
        reading=Reading.EXTENSION,
        regime="lambda = 0.5, theta = pi/4, sigma = 0.5, n = 200..6400: the finite-n "
        "rate, which the text does not state",
    ),
    Claim(
        SOURCE_ID,
        "141",
        "strictly-increasing",
        Kind.INEQUALITY,
        "(141) is a strictly increasing function of lambda >= 0 for any theta in "
        "[0, pi/2]",
        _check_ridge_strictly_increasing,
        Status.FAILS,
        slip="strict-increase-141",
        formula=lambda: nt.gt(sp.Derivative(theory.ridge_risk_eq141(), _lam), 0),
        quote="This is a strictly increasing function in λ ≥ 0 for any θ ∈ [0, π/2], "
        "which implies that the optimal regularization value is λ∗ = 0.",
        reading=Reading.PROSE,
        regime="lambda >= 0 and theta in [0, pi/2] as stated, closed interval "
        "included; refuted at its endpoint theta = pi/2",
    ),
    Claim(
        SOURCE_ID,
        "141",
        "nondecreasing",
        Kind.INEQUALITY,
        "(141) is nondecreasing in lambda >= 0, strictly increasing iff cos(theta) "
        "!= 0; lambda* = 0",
        relation_check(_ridge_slope),
        Status.HOLDS,
        corrects=claim_id("141", "strictly-increasing"),
        formula=_ridge_slope,
        quote="",
        reading=Reading.EXTENSION,
        regime="lambda >= 0, theta in [0, pi/2] symbolic: nondecreasing, strictly "
        "iff cos theta != 0 (ours)",
    ),
)


#: The chain (129)-(133) of the proof of Theorem 3.8: I_1(n) as a Laplace integral.
DERIVATIONS: tuple[Derivation, ...] = (
    Derivation(
        source=SOURCE_ID,
        equation="131-133",
        label="i1-laplace",
        title="I_1(n, lambda) brought to Laplace form",
        start=_eq129_without_coefficient,
        steps=(
            Step(
                lambda: sp.Integral(theory.ridge_i1_eq131(), (theory.u, 0, sp.oo)),
                "We have introduced the change of variables u = r²/2 in the first "
                "line (quoted)",
                equation="131",
                quote="I1(n, λ) ∝ 2^{n/2} ∫ u^{n/2} e^{−u}/(2u + nλ)² du (131)",
                judge=_change_of_variables(theory.r, sp.sqrt(2 * theory.u), theory.u),
            ),
            Step(
                lambda: sp.Integral(theory.ridge_i1_eq132(), (theory.t, 0, sp.oo)),
                "t = u/n in the second line (quoted)",
                equation="132",
                quote="= n(2n)^{n/2} ∫ t^{n/2} e^{−nt}/(2nt + nλ)² dt (132)",
                judge=_change_of_variables(theory.u, _n * theory.t, theory.t),
            ),
            Step(
                _eq133,
                "f(t) = ½ log t − t and g(t) = (2nt + nλ)^{−2} (quoted): "
                "t^{n/2} e^{-nt} = e^{n f(t)}",
                equation="133",
                quote="= n(2n)^{n/2} ∫ g(t) e^{nf(t)} dt (133)",
                judge=_change_of_variables(theory.t, theory.t, theory.t),
            ),
        ),
        quote="To avoid cluttering the notation, we ignore the coefficient "
        "S_{n−1}/(2π)^{n/2} while solving the integral and restore it at the end "
        "of the calculation. Then",
        reading=Reading.PRINTED,
        regime="all n > 0, lambda >= 0 symbolic, r, u, t > 0, with the text's "
        "substitutions u = r²/2 and t = u/n (the coefficient set aside, as the "
        "text does)",
    ),
)
