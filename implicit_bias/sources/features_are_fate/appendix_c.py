r"""Claims of features-are-fate, Appendix C: the ReLU kernel, eqs. (152)-(153).

The Gaussian overlap of two ReLU features (152) in closed form, the arc-cosine
kernel (153) (Cho & Saul): the printed chain as a derivation, against
quadrature and Monte Carlo, for the unit weights of Section 4 and for general
weights, its series at the ends, that it is a valid kernel, and this
package's float64 evaluation. The conventions and tolerances are
:mod:`._kernels`'. The Mercer decomposition and the projections (148)-(151),
(154)-(159) are in :mod:`.appendix_c_mercer`.

What does not hold as printed: eq. (153) for the general weights of Appendix
C: it omits the factor :math:`\|w_i\|\|w_j\|` (holds for the unit weights of
Section 4).
"""

from __future__ import annotations

import functools
from collections.abc import Collection

import mpmath
import numpy as np
import sympy as sp

from implicit_bias.claims.checks import (
    close_or_undecided,
    check_close,
    check_equal,
    check_identity,
    judge_relation,
    relation_check,
)
from implicit_bias.claims.derivation import Derivation, Step
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
from implicit_bias.sources.features_are_fate._common import (
    holds_or_undecided,
)
from implicit_bias.sources.features_are_fate import notation as nt
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.numerics.relu_kernels import (
    KERNEL_ULPS,
    relu_gram,
    relu_kernel,
    relu_kernel_mp,
)
from implicit_bias.theory import relu_kernels as theory
from implicit_bias.validation.relu_kernels import (
    monte_carlo_overlaps,
    sample_sphere,
)
from implicit_bias.sources.features_are_fate._kernels import (
    _Z_MAX,
    _claim_id,
    _inputs,
    _verdict,
)

__all__ = ["CLAIMS", "DERIVATIONS", "warm_up"]


#: Digits of the quadrature reference of eq. (152).
_QUADRATURE_DPS = 40


def _judge_polar_integrals(relation: sp.Basic) -> Verdict:
    """Decide ``Eq(polar integral, closed form in theta)``: the integrals
    performed and simplified (``doit``), then :func:`check_identity`; other
    relations by :func:`judge_relation`."""
    if not isinstance(relation, sp.Eq):
        return judge_relation(relation)
    with time_limit(20):
        lhs, rhs = (sp.simplify(side.doit()) for side in relation.args)
    verdict = check_identity(lhs, rhs)
    return verdict.with_detail(
        f"the polar integral evaluates to {sp.sstr(lhs)}: {verdict.detail}"
    )


def _judge_at_cosine(relation: sp.Basic) -> Verdict:
    """Decide ``Eq(h(theta), k(u))`` at theta = acos(u), u uniform in [-1, 1]
    (theta in [0, pi], the angle between two weights); other relations by
    :func:`judge_relation`."""
    if not isinstance(relation, sp.Eq):
        return judge_relation(relation)
    verdict = check_identity(
        relation.lhs.subs(theory.theta, sp.acos(theory.u)),
        relation.rhs,
        samplers={theory.u: lambda rng: mpmath.mpf(rng.uniform(-1, 1))},
    )
    return verdict.with_detail(f"at theta = acos(u): {verdict.detail}")


def _quadrature_overlap(cosine: float, norms: tuple[float, float]) -> mpmath.mpf:
    r"""E[sigma(a.x) sigma(b.x)] for ||a||, ||b|| = norms at cosine u, by quadrature.

    With :math:`a = \|a\|e_1` and :math:`b = \|b\|(ue_1 + se_2)`, the integral
    over :math:`x_2` is :math:`x_1u\Phi(x_1u/s) + s\varphi(x_1u/s)` (Gaussian
    tail moments); the remaining integral over :math:`x_1 > 0` is smooth.
    """
    with mpmath.workdps(_QUADRATURE_DPS):
        u = mpmath.mpf(cosine)
        s = mpmath.sqrt(1 - u * u)

        def integrand(x1: mpmath.mpf) -> mpmath.mpf:
            t = x1 * u / s
            return x1 * mpmath.npdf(x1) * (x1 * u * mpmath.ncdf(t) + s * mpmath.npdf(t))

        # One tanh-sinh interval: its error estimate is ~1e-45 at every cosine
        # checked (breaks at 1 and 3 cost 35% more CPU for no accuracy).
        value = mpmath.quad(integrand, [0, mpmath.inf])
        return value * mpmath.mpf(norms[0]) * mpmath.mpf(norms[1])


_QUADRATURE_COSINES = (-0.999, -0.9, -0.3, 0.0, 0.5, 0.99, 0.999999)


@functools.cache
def _unit_quadrature_overlaps() -> tuple[mpmath.mpf, ...]:
    """:func:`_quadrature_overlap` for unit weights at each of
    :data:`_QUADRATURE_COSINES`, computed once per process.

    Three claims compare with these references (:data:`_QUADRATURE_READERS`);
    :func:`warm_up` computes them before the checks fork.
    """
    return tuple(
        _quadrature_overlap(cosine, (1.0, 1.0)) for cosine in _QUADRATURE_COSINES
    )


def _check_quadrature(norms: tuple[float, float], *, printed: bool) -> Verdict:
    worst = mpmath.mpf(0)
    worst_cosine = 0.0
    relatives = []
    with mpmath.workdps(_QUADRATURE_DPS):
        for cosine, unit in zip(
            _QUADRATURE_COSINES, _unit_quadrature_overlaps(), strict=True
        ):
            # The expectation is bilinear in the weights' norms.
            reference = unit * mpmath.mpf(norms[0]) * mpmath.mpf(norms[1])
            closed = relu_kernel_mp(cosine, dps=_QUADRATURE_DPS)
            if not printed:
                closed *= mpmath.mpf(norms[0]) * mpmath.mpf(norms[1])
            relative = abs(closed - reference) / reference
            # The signed relative difference at 40 digits, then in float64
            # (which represents 1e-32 and far below).
            relatives.append(float((closed - reference) / reference))
            if relative > worst:
                worst, worst_cosine = relative, cosine
    form = "eq. (153) as printed" if printed else "||w_i|| ||w_j|| k(u_ij)"
    detail = (
        f"{form} vs the defining expectation by {_QUADRATURE_DPS}-digit quadrature, "
        f"||w_i|| = {norms[0]:g}, ||w_j|| = {norms[1]:g}, u in "
        f"{list(_QUADRATURE_COSINES)}: max relative difference "
        f"{mpmath.nstr(worst, 3)} (at u = {worst_cosine}; bound "
        f"1e-{_QUADRATURE_DPS - 8}: {_QUADRATURE_DPS} digits less 8 for quadrature)"
    )
    verdict = close_or_undecided(
        relatives,
        0.0,
        10.0 ** -(_QUADRATURE_DPS - 8),
        what=f"{form}: relative difference from the quadrature",
    )
    return verdict.with_detail(f"{detail}; {verdict.detail}")


def _check_general_weights_as_printed() -> Verdict:
    # w_i = 2 e_1 and w_j = 3 e_1 (u_ij = 1): the overlap is 6 E[sigma(z)^2] = 3.
    # Integrated over z > 0 in a positive variable, where SymPy resolves the
    # ReLUs before integrating (over the real z, ~6x the CPU).
    z = theory.z
    positive = sp.Symbol("z_pos", positive=True)
    exact = sp.integrate(
        (theory.relu(2 * z) * theory.relu(3 * z) * sp.exp(-(z**2) / 2)).subs(
            z, positive
        ),
        (positive, 0, sp.oo),
    ) / sp.sqrt(2 * sp.pi)
    printed = theory.arc_cosine_kernel(sp.Integer(1))
    quadrature = _check_quadrature((2.0, 0.5), printed=True)
    detail = (
        f"w_i = 2 e_1, w_j = 3 e_1: E[sigma(w_i.x) sigma(w_j.x)] = {exact} exactly, "
        f"eq. (153) gives {printed}; also {quadrature.detail}. The printed form is "
        "the unit-norm case (Section 4's weights lie on the sphere)"
    )
    # Both sides are exact rationals here: a nonzero difference is a proof.
    difference = sp.nsimplify(exact - printed)
    if difference.is_Rational and difference != 0:
        return Verdict.fails(
            detail,
            Basis.PROOF,
            f"w_i = 2 e_1, w_j = 3 e_1 (u_ij = 1): the overlap is {exact}, eq. (153) "
            f"gives {printed} (exact rationals)",
        )
    if difference == 0:
        return conjunction((Verdict.holds(detail, Basis.PROOF), quadrature), detail)
    return Verdict.inconclusive(
        f"{detail}; the difference {difference} is not decided", Reason.UNDECIDED
    )


def _check_monte_carlo_kernel(count: int = 400_000) -> Verdict:
    rng = np.random.default_rng(152)
    weights = sample_sphere(8, 5, rng)
    weights[1] = -weights[0]  # an antipodal pair: u = -1, overlap 0
    estimate = monte_carlo_overlaps(weights, weights, count, rng)
    closed = relu_gram(weights)
    error = np.where(estimate.standard_error > 0, estimate.standard_error, np.inf)
    z_scores = np.abs(estimate.mean - closed) / error
    exact_zero = estimate.mean[0, 1] == 0.0 and closed[0, 1] == 0.0
    detail = (
        "d = 5, 8 unit weights (one antipodal pair), 4e5 Gaussian inputs: max "
        f"|MC - closed form| = {np.max(z_scores):.2f} standard errors over 36 "
        f"overlaps (bound {_Z_MAX:g}); antipodal overlap {closed[0, 1]:g} (MC "
        f"{estimate.mean[0, 1]:g})"
    )
    # Entries with SE 0 (the antipodal pair) must agree exactly.
    overlaps = check_close(
        estimate.mean,
        closed,
        _Z_MAX * estimate.standard_error,
        what="Monte-Carlo overlaps against eq. (153)",
        basis=Basis.STATISTICAL,
    )
    zero = _verdict(exact_zero, "the antipodal overlap is exactly 0", Basis.PROOF)
    return conjunction((overlaps, zero), f"{detail}; {overlaps.detail}")


_TAYLOR_ORDER = 12


def _taylor_relation() -> sp.Basic:
    r"""(153) = its Taylor polynomial to :math:`O(u^{12})`, as the limit
    :math:`\lim_{u\to0^+}(k(u) - \sum_{n<12}a_nu^n)/u^{11} = 0` (true exactly when
    the coefficients of :math:`u^0, \dots, u^{11}` match), with the closed-form
    coefficients a_n (a_0 = 1/(2 pi), a_1 = 1/4, a_2k+2 = C(2k,k)/(2 pi 4^k
    (2k+1)(2k+2)), odd a_n = 0 for n >= 3)."""
    u = theory.u
    polynomial = sum(
        (theory.kernel_taylor_coefficient(n) * u**n for n in range(_TAYLOR_ORDER)),
        sp.Integer(0),
    )
    remainder = (theory.arc_cosine_kernel(u) - polynomial) / u ** (_TAYLOR_ORDER - 1)
    # One-sided suffices: k - P is a power series at 0 (|u| < 1), so the limit
    # from the right is 0 exactly when every coefficient below u^12 vanishes;
    # a two-sided limit would make SymPy raise on an odd-power mismatch.
    return sp.Eq(sp.Limit(remainder, u, 0, dir="+"), 0, evaluate=False)


def _series_by_parts(expression: sp.Expr, variable: sp.Symbol, order: int) -> sp.Expr:
    r"""The expansion of ``expression`` in ``variable`` x at 0, to :math:`O(x^{order})`.

    Each part not polynomial in x (for (153) at :math:`u = \pm(1-\epsilon)`:
    :math:`\sqrt{1-u^2}` and :math:`\arccos u`) is expanded alone to
    :math:`O(x^{order})` and substituted: where the expression is a polynomial
    in those parts and x, the products and sums of the expansions (SymPy's
    ``Order`` arithmetic) are its expansion to that order. SymPy's ``series``
    of the whole of (153) gets there too, but re-expands the parts to higher
    orders after their :math:`\sqrt\epsilon` terms cancel (~4x the CPU).
    Other expressions go to ``series`` whole.
    """
    parts = {
        atom: sp.Dummy()
        for atom in expression.atoms(sp.Function, sp.Pow)
        if atom.has(variable) and not atom.is_polynomial(variable)
    }
    if not expression.xreplace(parts).is_polynomial(variable, *parts.values()):
        return sp.series(expression, variable, 0, order)
    expansions = {atom: sp.series(atom, variable, 0, order) for atom in parts}
    # Products of the parts can be known beyond O(x^order): truncate there.
    return sp.expand(expression.xreplace(expansions)) + sp.Order(
        variable**order, (variable, 0)
    )


def _check_series_at_ends() -> Verdict:
    eps = theory.epsilon
    details = []
    verdicts = []
    for end, form in (
        (1, theory.kernel_series_at_one),
        (-1, theory.kernel_series_at_minus_one),
    ):
        with time_limit(20):
            series = _series_by_parts(
                theory.arc_cosine_kernel(end - end * eps), eps, 3
            ).removeO()
        verdict = check_equal(
            sp.expand(series), sp.expand(form(eps)), what=f"series at u = {end}"
        )
        verdicts.append(verdict)
        details.append(f"u = {end} - ({end})eps: {verdict.detail}")
    return conjunction(
        verdicts,
        "; ".join(details)
        + " (1/2 - eps/2 + sqrt(2) eps^(3/2)/(3 pi) + ... at u = 1 and "
        "k(-1 + eps) = sqrt(2) eps^(3/2)/(3 pi) + ...: not analytic at u = +-1)",
    )


def _check_hermite_and_psd() -> Verdict:
    terms = 9
    mismatches = []
    with time_limit(30):
        for n in range(terms):
            # Expanded, the integrand is a sum of moments z^j e^(-z^2/2) that
            # SymPy integrates term by term (half the CPU of the product).
            coefficient = sp.simplify(sp.expand(theory.hermite_coefficient(n)).doit())
            mehler = sp.simplify(coefficient**2 / sp.factorial(n))
            if sp.simplify(mehler - theory.kernel_taylor_coefficient(n)) != 0:
                mismatches.append(n)
    k = sp.Symbol("k", integer=True, nonnegative=True)
    general = sp.binomial(2 * k, k) / (2 * sp.pi * 4**k * (2 * k + 1) * (2 * k + 2))
    # a_2 > 0 and a_(2k+4)/a_(2k+2) > 0 for every k >= 0: all a_(2k+2) > 0.
    ratio = sp.factor(sp.combsimp(general.subs(k, k + 1) / general))
    positive = bool(general.subs(k, 0).is_positive and ratio.is_positive)
    rng = np.random.default_rng(153)
    smallest = min(
        float(np.linalg.eigvalsh(relu_gram(sample_sphere(60, d, rng)))[0])
        for d in (2, 3, 10)
    )
    detail = (
        f"c_n = E[sigma(z) He_n(z)] by SymPy for n < {terms}: c_n^2/n! = a_n "
        f"(mismatches at n = {mismatches}); a_(2k+2) = {sp.sstr(general)}, "
        f"a_2 = 1/(4 pi) and a_(2k+4)/a_(2k+2) = {sp.sstr(ratio)} > 0 (SymPy: "
        f"{positive}), a_0, a_1 > 0, odd a_n = 0: all Taylor coefficients are "
        "nonnegative, so k(w_i.w_j) is positive definite on every sphere "
        f"(Schoenberg); smallest Gram eigenvalue of 60 random unit weights in "
        f"d = 2, 3, 10, float64 eigvalsh: {smallest:.2e} (tolerance 1e-12 below 0: "
        "eigvalsh's backward error)"
    )
    ok = not mismatches and positive and smallest > -1e-12
    return holds_or_undecided(ok, detail, Basis.NUMERICAL)


def _ulps(computed: float, exact: mpmath.mpf) -> float:
    spacing = np.spacing(abs(float(exact)))
    return float(abs(mpmath.mpf(computed) - exact) / spacing)


def _check_float64_accuracy() -> Verdict:
    rng = np.random.default_rng(1530)
    cosines = np.concatenate(
        [
            rng.uniform(-1, 1, 600),
            -1 + 10.0 ** rng.uniform(-16, 0, 300),
            1 - 10.0 ** rng.uniform(-16, 0, 300),
            [-1.0, 1.0, 0.0, -np.cos(1.0), -np.nextafter(np.cos(1.0), 0)],
        ]
    )
    fast = relu_kernel(cosines)
    with np.errstate(invalid="ignore"):
        printed = (np.sqrt(1 - cosines**2) + cosines * (np.pi - np.arccos(cosines))) / (
            2 * np.pi
        )
    worst, worst_printed = 0.0, 0.0
    errors = []
    with mpmath.workdps(50):
        for cosine, value, naive in zip(cosines, fast, printed, strict=True):
            exact = relu_kernel_mp(float(cosine))
            if exact == 0:
                # Any nonzero value where the kernel is 0 is infinitely many ulp.
                error = 0.0 if value == 0 else float(np.finfo(np.float64).max)
                errors.append(error)
                worst = max(worst, error)
                continue
            errors.append(_ulps(float(value), exact))
            worst = max(worst, errors[-1])
            worst_printed = max(worst_printed, _ulps(float(naive), exact))
    detail = (
        f"relu_kernel vs the 50-digit reference at {cosines.size} cosines (uniform, "
        f"and 1 -+ u down to 1e-16): max error {worst:.2f} float64 ulp (tolerance "
        f"{KERNEL_ULPS:g} ulp); eq. (153) as printed, in float64, is off by up to "
        f"{worst_printed:.3g} ulp (cancellation near u = -1)"
    )
    return check_close(
        errors, 0.0, KERNEL_ULPS, what="relu_kernel's error in ulp"
    ).with_detail(detail)


_OVERLAP_INPUTS = _inputs(_check_monte_carlo_kernel, "a Gaussian input, d = 5")


_ID_GENERAL = _claim_id("153", "general-weights-as-printed")


#: The claims that read :func:`_unit_quadrature_overlaps`.
_QUADRATURE_READERS = frozenset(
    (
        _claim_id("152-153", "quadrature"),
        _claim_id("153", "general-weights"),
        _ID_GENERAL,
    )
)


def warm_up(claim_ids: Collection[str]) -> None:
    """Compute the quadrature references if two or more of ``claim_ids`` read
    them (the source's warm-up: the checks forked after it inherit them)."""
    if len(_QUADRATURE_READERS & set(claim_ids)) >= 2:
        _unit_quadrature_overlaps()


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "152-153",
        "quadrature",
        Kind.NUMERIC,
        "eq. (153) equals the defining Gaussian expectation (152) for unit weights",
        lambda: _check_quadrature((1.0, 1.0), printed=True),
        Status.HOLDS,
        formula=theory.display_eq153,
        assumptions=("||w_i|| = ||w_j|| = 1 (Section 4)",),
        quote=("= (1/2π)(√(1 − u_ij^2) + u_ij(π − arccos u_ij)) (153)"),
        reading=Reading.PRINTED,
        regime=(
            "unit weights (Section 4), u in {-0.999, -0.9, -0.3, 0, 0.5, 0.99, "
            "0.999999}, 40-digit quadrature of (152), relative bound 1e-32"
        ),
    ),
    Claim(
        SOURCE_ID,
        "152-153",
        "monte-carlo",
        Kind.SIMULATION,
        "eq. (153) matches Monte-Carlo overlaps of ReLU features of unit weights "
        "under x ~ N(0, I_d)",
        _check_monte_carlo_kernel,
        Status.HOLDS,
        cost=_OVERLAP_INPUTS.cost,
        formula=lambda: nt.eq(nt.mc_overlap, theory.arc_cosine_kernel(theory.u)),
        assumptions=("||w_i|| = ||w_j|| = 1 (Section 4)",),
        quote=("= (1/2π)(√(1 − u_ij^2) + u_ij(π − arccos u_ij)) (153)"),
        reading=Reading.PRINTED,
        regime=(
            "d = 5, 8 unit weights (Section 4) with an antipodal pair, 4e5 "
            "Gaussian inputs, every overlap within 5 SE"
        ),
    ),
    Claim(
        SOURCE_ID,
        "153",
        "general-weights-as-printed",
        Kind.IDENTITY,
        "eq. (153) gives <sigma(w_i.x), sigma(w_j.x)> for the weights of Appendix C "
        "(any norm; u_ij normalizes them)",
        _check_general_weights_as_printed,
        Status.FAILS,
        formula=theory.display_eq153,
        quote=("where u_ij = w_i^T w_j / (||w_i||_2 ||w_j||_2)"),
        reading=Reading.INTERPRETATION,
        regime=(
            "w_i = 2 e_1, w_j = 3 e_1 (exact integral): Appendix C's weights of "
            "(145), which it does not restrict to the sphere and whose u_ij it "
            "normalises; (153) holds for the unit weights of Section 4"
        ),
    ),
    Claim(
        SOURCE_ID,
        "153",
        "general-weights",
        Kind.NUMERIC,
        "for weights of any norm, <sigma(w_i.x), sigma(w_j.x)> = ||w_i|| ||w_j|| "
        "k(u_ij) with k of eq. (153)",
        lambda: _check_quadrature((2.0, 0.5), printed=False),
        Status.HOLDS,
        corrects=_ID_GENERAL,
        formula=theory.display_eq153_any_norm,
        quote=("where u_ij = w_i^T w_j / (||w_i||_2 ||w_j||_2)"),
        reading=Reading.EXTENSION,
        regime=(
            "||w_i|| = 2, ||w_j|| = 0.5, the 7 cosines of the quadrature, 40 "
            "digits: our corrected form ||w_i|| ||w_j|| k(u_ij)"
        ),
    ),
    Claim(
        SOURCE_ID,
        "153",
        "taylor-at-zero",
        Kind.LIMIT,
        "eq. (153) = 1/(2 pi) + u/4 + (1/(2 pi)) sum_k C(2k,k) u^(2k+2) / "
        "(4^k (2k+1)(2k+2))",
        relation_check(_taylor_relation),
        Status.HOLDS,
        quote=("= (1/2π)(√(1 − u_ij^2) + u_ij(π − arccos u_ij)) (153)"),
        reading=Reading.EXTENSION,
        regime=(
            "the Taylor series at u = 0 to O(u^12), symbolic: a consequence of "
            "(153) the text does not draw"
        ),
    ),
    Claim(
        SOURCE_ID,
        "153",
        "series-at-ends",
        Kind.LIMIT,
        "k(1 - eps) = 1/2 - eps/2 + sqrt(2) eps^(3/2)/(3 pi) + O(eps^(5/2)) and "
        "k(-1 + eps) = sqrt(2) eps^(3/2)/(3 pi) + O(eps^(5/2))",
        _check_series_at_ends,
        Status.HOLDS,
        formula=lambda: nt.both(
            nt.eq(
                theory.arc_cosine_kernel(1 - theory.epsilon),
                theory.kernel_series_at_one(theory.epsilon)
                + sp.Order(theory.epsilon**3, (theory.epsilon, 0)),
            ),
            nt.eq(
                theory.arc_cosine_kernel(-1 + theory.epsilon),
                theory.kernel_series_at_minus_one(theory.epsilon)
                + sp.Order(theory.epsilon**3, (theory.epsilon, 0)),
            ),
        ),
        quote=("= (1/2π)(√(1 − u_ij^2) + u_ij(π − arccos u_ij)) (153)"),
        reading=Reading.EXTENSION,
        regime=(
            "u = 1 - eps and u = -1 + eps to O(eps^3), symbolic: a consequence "
            "of (153) the text does not draw"
        ),
    ),
    Claim(
        SOURCE_ID,
        "153",
        "valid-kernel",
        Kind.IDENTITY,
        "eq. (153)'s Taylor coefficients are the squared Hermite coefficients "
        "c_n^2/n! of the ReLU and all nonnegative: a positive-definite kernel",
        _check_hermite_and_psd,
        Status.HOLDS,
        formula=lambda: nt.both(
            nt.eq(
                nt.taylor_coefficient[nt.taylor_order],
                nt.hermite_coefficient[nt.taylor_order] ** 2
                / sp.factorial(nt.taylor_order),
            ),
            nt.ge(nt.taylor_coefficient[nt.taylor_order], 0),
        ),
        budget_seconds=60.0,
        quote=("For any positive definite, symmetric kernel k"),
        reading=Reading.INTERPRETATION,
        regime=(
            "Hermite coefficients c_n exactly for n < 9, all Taylor "
            "coefficients by their ratio, Gram matrices of 60 unit weights in d "
            "= 2, 3, 10: the text takes (153)'s kernel as positive definite "
            "(Mercer)"
        ),
    ),
    Claim(
        SOURCE_ID,
        "153",
        "float64",
        Kind.NUMERIC,
        f"relu_kernel evaluates eq. (153) to {KERNEL_ULPS:g} ulp on [-1, 1]",
        _check_float64_accuracy,
        Status.HOLDS,
        formula=lambda: nt.le(
            sp.Abs(nt.f64_kernel - theory.arc_cosine_kernel(theory.u)),
            sp.nsimplify(KERNEL_ULPS) * nt.kernel_ulp,
        ),
        quote=("= (1/2π)(√(1 − u_ij^2) + u_ij(π − arccos u_ij)) (153)"),
        reading=Reading.EXTENSION,
        regime=(
            "1205 cosines in [-1, 1] (uniform and within 1e-16 of the ends) "
            "against a 50-digit reference: this package's float64 evaluation of "
            "(153)"
        ),
    ),
)


#: The chain (152)-(153) of Appendix C, for unit weights at angle theta.
DERIVATIONS: tuple[Derivation, ...] = (
    Derivation(
        source=SOURCE_ID,
        equation="152-153",
        label="overlap",
        title="The Gaussian overlap of two ReLU features",
        start=theory.gaussian_overlap_polar,
        steps=(
            Step(
                theory.arc_cosine_kernel_angular,
                "the radial integral of r^3 e^(-r^2/2) is 2 and the angular "
                "integral runs over the sector where both ReLUs are active",
                equation="153",
                quote="= (1/2π)(√(1 − u_ij^2) + u_ij(π − arccos u_ij)) (153)",
                judge=_judge_polar_integrals,
            ),
            Step(
                theory.arc_cosine_kernel,
                "u_ij = cos theta, theta = arccos u_ij in [0, pi]: sin theta = "
                "sqrt(1 - u_ij^2)",
                equation="153",
                quote="where u_ij = w_i^T w_j/(∥w_i∥₂∥w_j∥₂)",
                judge=_judge_at_cosine,
            ),
        ),
        quote="for Gaussian data, p(x) = N(0, I_d), we can exactly compute the "
        "expected overlap between two ReLU functions in terms of their weight "
        "vectors (Cho & Saul, 2009): ⟨σ(w_i^T x)σ(w_j^T x)⟩_{L2} = ∫ p(x)σ(w_i^T "
        "x)σ(w_j^T x) (152)",
        reading=Reading.PRINTED,
        regime="unit weights (Section 4's w_i ∈ S^{d−1}), every angle theta in [0, "
        "pi] (symbolic), u = cos theta in [-1, 1] (sampled uniformly for the "
        "substitution); the plane spanned by w_i, w_j carries the integral",
        assumptions=("||w_i|| = ||w_j|| = 1 (Section 4)",),
    ),
)
