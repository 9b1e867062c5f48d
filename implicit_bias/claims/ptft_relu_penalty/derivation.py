r"""Claims of ptft-relu-penalty: the derivation of eqs. (6)-(10).

The reduction of the constrained problem (5) to the one-dimensional
:math:`p(u)` of eqs. (6)-(8), its derivative (9) and the quartic (10) whose
positive roots are its stationary points, checked with SymPy; and the two
numeric claims about them (the direct minimization of (5), and how many
positive roots (10) has). Symbols as in
:mod:`implicit_bias.claims.ptft_relu_penalty`.
"""

from __future__ import annotations

import itertools

import mpmath
import numpy as np
import sympy as sp

from implicit_bias.claims.checks import check_identity, check_limit
from implicit_bias.claims.engine import (
    Claim,
    Kind,
    Reason,
    Status,
    Verdict,
    conjunction,
)
from implicit_bias.claims.ptft_relu_penalty.source import (
    SOURCE,
    deviation_mp,
    domain_sample,
)
from implicit_bias.numerics import relu_penalty as numerics
from implicit_bias.theory import relu_penalty as theory
from implicit_bias.theory.symbols import m, m0, rho, u
from implicit_bias.validation import relu_networks

__all__ = ["CLAIMS"]


def _claim_id(equation: str, label: str) -> str:
    return f"{SOURCE}:{equation}:{label}"


def _eq(lhs: sp.Expr, rhs: sp.Expr) -> sp.Eq:
    return sp.Eq(lhs, rhs, evaluate=False)


# --- eqs. (6)-(9): p(u) and its derivative


def _check_eq7() -> Verdict:
    w_hat, _, unit = theory.unit_vectors()
    last = w_hat[-1]
    return check_identity(
        theory.deviation_eq6(),
        theory.deviation_eq7(),
        substitutions={last**2: sp.solve(unit, last**2)[0]},
    )


def _check_eq8() -> Verdict:
    w_hat, w0, unit = theory.unit_vectors()
    hidden = u * w_hat
    w0_norm = sp.sqrt((w0.T * w0)[0, 0])
    cosine = (hidden.T * w0)[0, 0] / (sp.sqrt((hidden.T * hidden)[0, 0]) * w0_norm)
    last = w_hat[-1]
    eq8_in_vectors = theory.deviation_eq8().subs({rho: cosine, m0: w0_norm})
    constraint = {last**2: sp.solve(unit, last**2)[0]}
    return check_identity(
        sp.expand(eq8_in_vectors).subs(constraint),
        sp.expand(theory.deviation_eq7()).subs(constraint),
        substitutions=constraint,
    )


def _check_divergence(m_value: sp.Expr) -> Verdict:
    p = theory.deviation_eq8().subs(m, m_value)
    at_zero = check_limit(p, u, 0, sp.oo, direction="+")
    at_infinity = check_limit(p, u, sp.oo, sp.oo)
    return conjunction(
        (at_zero, at_infinity),
        f"u -> 0+: {at_zero.detail}; u -> oo: {at_infinity.detail}",
    )


def _check_divergence_as_printed() -> Verdict:
    # The paper states it for every m_h; m_h = 0 is in the domain (a unit not used).
    return _check_divergence(sp.Integer(0))


def _check_divergence_nonzero_m() -> Verdict:
    return _check_divergence(sp.Symbol("m", real=True, nonzero=True))


def _check_direct_minimization() -> Verdict:
    size = 200
    m_values, rho_values, m0_values, gamma_values = domain_sample(size, seed=14)
    m_values = np.sign(m_values) * np.maximum(np.abs(m_values), 1e-6)
    direct = relu_networks.minimize_unit_deviation_batch(
        m_values,
        rho_values,
        m0_values,
        gamma_values,
        dimension=5,
        rng=np.random.default_rng(14),
    )
    fast = numerics.relu_ptft_penalty(m_values, rho_values, m0_values, gamma_values)
    error = np.abs(direct - fast) / fast
    # The direct search refines t = log u to ~1e-12; p is quadratic at a minimum,
    # so its value is accurate to ~1e-12 relative plus rounding of the vector norms.
    tolerance = 1e-9
    detail = (
        "eq. (5) minimized directly over (w1, w2) in R^5 x R, without eq. (10), at "
        f"{size} "
        f"points: max relative difference from min_u p(u) {error.max():.2e}"
    )
    return Verdict.holds(detail) if error.max() <= tolerance else Verdict.fails(detail)


def _check_geometric_form() -> Verdict:
    return check_identity(theory.deviation_eq8(), theory.deviation_geometric())


def _check_eq9() -> Verdict:
    return check_identity(sp.diff(theory.deviation_eq8(), u), theory.stationarity_eq9())


def _check_eq10() -> Verdict:
    return check_identity(
        theory.stationarity_eq9() * u**3 / 2, theory.stationarity_eq10()
    )


# --- eq. (10): how many positive roots


def _check_unique_root_as_printed() -> Verdict:
    size = 100_000
    sample = domain_sample(size, seed=10)
    counts = numerics.relu_ptft_stationary_count(*sample)
    multiple = np.flatnonzero(counts > 1)
    if multiple.size == 0:
        # An empty search is not a proof of uniqueness.
        return Verdict.inconclusive(
            f"one positive root at all {size} sampled points: no counterexample, "
            "but the search does not prove uniqueness",
            Reason.UNDECIDED,
        )
    point = tuple(float(v[multiple[0]]) for v in sample)
    roots = numerics.relu_ptft_stationary_points_mp(*point)
    if len(roots) < 2:
        return Verdict.inconclusive(
            f"NumPy reports several roots at m, rho, m0, gamma = {point}; mpmath does "
            "not"
        )
    with mpmath.workdps(50):
        values = [deviation_mp(x, point) for x in roots]
    listing = "; ".join(
        f"u={mpmath.nstr(x, 8)}: p={mpmath.nstr(v, 8)}"
        for x, v in zip(roots, values, strict=True)
    )
    return Verdict.fails(
        f"{multiple.size / size:.2%} of {size} sampled points have 3 positive roots; "
        f"e.g. m={point[0]:.3g}, rho={point[1]:.4g}, m0={point[2]:.4g}, "
        f"gamma={point[3]:.3g}: roots (exact isolation, 50 digits) {listing}"
    )


def _descartes_sign_changes(coefficients: list[sp.Expr]) -> int:
    """Sign changes of a coefficient sequence whose signs SymPy can decide."""
    signs = [sp.sign(c) for c in coefficients]
    if any(s not in (-1, 0, 1) for s in signs):
        raise ValueError(f"undecided signs {signs}")
    nonzero = [s for s in signs if s != 0]
    return sum(1 for a, b in itertools.pairwise(nonzero) if a != b)


def _check_unique_root_sufficient() -> Verdict:
    # Every sign case of rho and gamma*m covered by "rho <= 0 or gamma*m <= 0",
    # written with symbols whose assumptions fix the sign.
    positive = sp.Symbol("positive", positive=True)
    negative = sp.Symbol("negative", negative=True)
    m_value = sp.Symbol("m_nonzero", real=True, nonzero=True)
    cases = {}
    for rho_sign in (negative, sp.Integer(0), positive):
        for product_sign in (negative, sp.Integer(0), positive):
            if rho_sign == positive and product_sign == positive:
                continue
            cases[(str(rho_sign), str(product_sign))] = [
                sp.Integer(1),
                -m0 * rho_sign if rho_sign != 0 else sp.Integer(0),
                sp.Integer(0),
                product_sign,
                -(m_value**2),
            ]
    m0_positive = sp.Symbol("m0", positive=True)
    counts = {
        case: _descartes_sign_changes(
            [sp.sympify(c).subs(m0, m0_positive) for c in coeffs]
        )
        for case, coeffs in cases.items()
    }
    if all(count == 1 for count in counts.values()):
        return Verdict.holds(
            "exact (Descartes' rule of signs): the coefficients of eq. (10) change "
            "sign "
            f"once in all {len(counts)} sign cases of (rho, gamma*m) with rho <= 0 or "
            "gamma*m <= 0; q(0) = -m^2 < 0 < q(oo) gives the root"
        )
    return Verdict.fails(f"sign changes by case: {counts}")


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE,
        "6",
        "divergence",
        Kind.LIMIT,
        "p(u) diverges to infinity both for u -> 0 and u -> infinity (stated for every "
        "m_h)",
        _check_divergence_as_printed,
        Status.FAILS,
        assumptions=("u > 0", "m_h real"),
        formula=lambda: sp.Eq(sp.Limit(theory.p_of_u, u, 0, "+"), sp.oo),
    ),
    Claim(
        SOURCE,
        "6",
        "divergence-nonzero-m",
        Kind.LIMIT,
        "for m_h != 0, p(u) diverges to infinity both for u -> 0 and u -> infinity",
        _check_divergence_nonzero_m,
        Status.HOLDS,
        assumptions=("u > 0", "m_h != 0"),
        corrects=_claim_id("6", "divergence"),
        formula=lambda: sp.Eq(sp.Limit(theory.p_of_u, u, 0, "+"), sp.oo),
    ),
    Claim(
        SOURCE,
        "6",
        "direct-minimization",
        Kind.NUMERIC,
        "the constrained problem (5) equals min_{u>0} p(u)",
        _check_direct_minimization,
        Status.HOLDS,
        assumptions=("w_hat unit vector in R^5", "|m_h| >= 1e-6"),
        formula=theory.display_eq6,
    ),
    Claim(
        SOURCE,
        "7",
        "expansion",
        Kind.IDENTITY,
        "(m_h/u - gamma)^2 + ||u w_hat - w0||^2 = (m_h/u - gamma)^2 + u^2 + ||w0||^2 - "
        "2u<w_hat, w0>",
        _check_eq7,
        Status.HOLDS,
        assumptions=(
            "||w_hat||_2 = 1",
            "vectors in R^3 (the identity is coordinatewise)",
        ),
        formula=theory.display_eq7,
    ),
    Claim(
        SOURCE,
        "8",
        "cosine-form",
        Kind.IDENTITY,
        "with m0 = ||w0|| and rho the cosine of w_h^(1) and w0, eq. (7) is eq. (8)",
        _check_eq8,
        Status.HOLDS,
        assumptions=("||w_hat||_2 = 1", "w_h^(1) = u w_hat"),
        formula=lambda: _eq(theory.p_of_u, theory.deviation_eq8()),
    ),
    Claim(
        SOURCE,
        "8",
        "sum-of-squares",
        Kind.IDENTITY,
        "p(u) = (m_h/u - gamma)^2 + (u - m0 rho)^2 + m0^2 (1 - rho)(1 + rho) (our "
        "stable form)",
        _check_geometric_form,
        Status.HOLDS,
        formula=lambda: _eq(theory.p_of_u, theory.deviation_geometric()),
    ),
    Claim(
        SOURCE,
        "9",
        "derivative",
        Kind.IDENTITY,
        "p'(u) = -2(m_h/u - gamma) m_h/u^2 + 2u - 2 m0 rho",
        _check_eq9,
        Status.HOLDS,
        formula=lambda: _eq(sp.Derivative(theory.p_of_u, u), theory.stationarity_eq9()),
    ),
    Claim(
        SOURCE,
        "10",
        "quartic",
        Kind.IDENTITY,
        "p'(u) = 0 multiplied by u^3/2 is -m_h^2 + gamma m_h u - m0 rho u^3 + u^4 = 0",
        _check_eq10,
        Status.HOLDS,
        assumptions=("u > 0",),
        formula=lambda: _eq(theory.stationarity_eq10(), sp.Integer(0)),
    ),
    Claim(
        SOURCE,
        "10",
        "unique-positive-root",
        Kind.NUMERIC,
        "eq. (10) has a unique positive real root ('in all empirical cases we "
        "explored')",
        _check_unique_root_as_printed,
        Status.FAILS,
        assumptions=(
            "sampled: |m| in [1e-10, 1e3], rho in [-1, 1], m0 in [1e-3, 1e2], "
            "|gamma| in [1e-4, 10]",
        ),
        formula=lambda: _eq(theory.stationarity_eq10(), sp.Integer(0)),
    ),
    Claim(
        SOURCE,
        "10",
        "unique-root-if",
        Kind.IDENTITY,
        "eq. (10) has exactly one positive root whenever rho <= 0 or gamma m_h <= 0",
        _check_unique_root_sufficient,
        Status.HOLDS,
        assumptions=("m_h != 0", "m0 > 0"),
        corrects=_claim_id("10", "unique-positive-root"),
        formula=lambda: _eq(theory.stationarity_eq10(), sp.Integer(0)),
    ),
)
