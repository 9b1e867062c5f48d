r"""Claims of ptft-relu-penalty: eq. (11), the penalty r~ and its regimes.

Eq. (11) evaluated at the roots of eq. (10) (and the minimum over them, as
:func:`implicit_bias.numerics.relu_penalty.relu_ptft_penalty` computes it),
the readout gap at a root, the envelope theorem for its slope in :math:`m_h`,
and its series and limits: :math:`\ell_2`-like near :math:`m_h = 0`,
:math:`\ell_1`-like for large :math:`|m_h|`, even in :math:`(m_h, \gamma)`.
Symbols as in :mod:`implicit_bias.claims.ptft_relu_penalty`.
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp

from implicit_bias.claims.checks import check_equal, check_identity, relation_check
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
from implicit_bias.claims.ptft_relu_penalty.derivation import (
    three_root_point,
)
from implicit_bias.claims.ptft_relu_penalty.source import (
    REGIME,
    SOURCE,
    domain_sample,
    regime_sample,
)
from implicit_bias.numerics import relu_penalty as numerics
from implicit_bias.theory import relu_penalty as theory
from implicit_bias.theory.symbols import gamma, m, m0, rho, u

__all__ = ["CLAIMS"]


def _claim_id(equation: str, label: str) -> str:
    return f"{SOURCE}:{equation}:{label}"


def _eq(lhs: sp.Expr, rhs: sp.Expr) -> sp.Eq:
    return sp.Eq(lhs, rhs, evaluate=False)


# --- eq. (11): the value at the roots of eq. (10)

#: Eq. (11) as printed (:func:`theory.penalty_eq11`), in mpmath at the working
#: precision: ``_eq11_mp(u_star, m, rho, m0, gamma)``.
_eq11_mp = sp.lambdify(
    (theory.u_star, m, rho, m0, gamma),
    theory.penalty_eq11(theory.u_star),
    modules="mpmath",
)


def _eq11_at(root: mpmath.mpf, point: tuple[float, ...]) -> mpmath.mpf:
    return _eq11_mp(root, *(mpmath.mpf(value) for value in point))


def _check_eq11_in_regime() -> Verdict:
    # In the regime eq. (10) has one positive root (10:unique-positive-root) and
    # p diverges at 0 and oo (6:divergence-nonzero-m), so eq. (11) at that root
    # is min p; checked against the global minimum at 50-digit roots.
    size = 200
    sample = regime_sample(size, seed=11)
    penalties = numerics.relu_ptft_penalty(*sample)
    worst, several = 0.0, 0
    for index in range(size):
        point = tuple(float(v[index]) for v in sample)
        roots = numerics.relu_ptft_stationary_points_mp(*point)
        several += len(roots) != 1
        with mpmath.workdps(50):
            eq11 = _eq11_at(roots[0], point)
        worst = max(worst, float(abs(eq11 - penalties[index]) / eq11))
    # As for 11:global-minimum: the float penalty is within a few ulps per term.
    tolerance = 1e-12
    detail = (
        f"{size} points of the regime: eq. (10) has one positive root at "
        f"{size - several} (exact isolation); eq. (11) there (50 digits) against the "
        f"global minimum relu_ptft_penalty: max relative difference {worst:.2e}"
    )
    if several == 0 and worst <= tolerance:
        return Verdict.holds(detail, Basis.NUMERICAL)
    return Verdict.inconclusive(
        detail + f" (tolerance {tolerance:g}): not certified", Reason.UNDECIDED
    )


def _check_eq11_beyond_regime() -> Verdict:
    found = three_root_point(domain_sample(100_000, seed=11))
    if found is None:
        # An empty search is not a proof that eq. (11) is single-valued.
        return Verdict.inconclusive(
            "no point with several positive roots of eq. (10) among 100000 sampled "
            "points, so no counterexample",
            Reason.UNDECIDED,
            Basis.SEARCH,
        )
    point, intervals = found
    floats = tuple(float(v) for v in point)
    with mpmath.workdps(50):
        values = [
            _eq11_at(root, floats)
            for root in numerics.relu_ptft_stationary_points_mp(*floats)
        ]
    names = ("m", "rho", "m0", "gamma")
    where = ", ".join(
        f"{name}={sp.Float(value, 6)}" for name, value in zip(names, point, strict=True)
    )
    listing = ", ".join(f"[{sp.Float(a, 8)}, {sp.Float(b, 8)}]" for a, b in intervals)
    counterexample = (
        f"at {where} (exactly these decimals) eq. (10) has three positive roots, "
        f"isolated exactly in {listing}; "
        "p' = 2q/u^3 (eqs. (9)-(10)) is > 0 between the first two and < 0 between "
        "the last two, so the middle root is a strict local maximum of p and eq. (11) "
        "there exceeds min p"
    )
    return Verdict.fails(
        f"{counterexample}; eq. (11) at the three roots (50 digits): "
        f"{', '.join(mpmath.nstr(v, 8) for v in values)}",
        Basis.PROOF,
        counterexample,
    )


def _check_global_minimum() -> Verdict:
    size = 200
    sample = domain_sample(size, seed=12)
    # Half of the points in the region where eq. (10) has three positive roots.
    counts = numerics.relu_ptft_stationary_count(*domain_sample(100_000, seed=13))
    extra = np.flatnonzero(counts > 1)[: size // 2]
    more = tuple(v[extra] for v in domain_sample(100_000, seed=13))
    points = [np.concatenate([a, b]) for a, b in zip(sample, more, strict=True)]
    fast = numerics.relu_ptft_penalty(*points)
    worst = 0.0
    for i in range(fast.size):
        reference = numerics.relu_ptft_penalty_mp(*(float(v[i]) for v in points))
        worst = max(worst, float(abs(fast[i] - reference) / reference))
    # A sum of three non-negative terms, each within a few ulps: 1e-12 is ~4500 ulps
    # of headroom for the cancellation inside (m/u - gamma) and (u - m0 rho).
    tolerance = 1e-12
    detail = (
        "relu_ptft_penalty vs the 50-digit reference (exactly isolated roots of eq. "
        "(10)) at "
        f"{fast.size} "
        f"points ({extra.size} with three positive roots): max relative error "
        f"{worst:.2e}"
    )
    if worst <= tolerance:
        return Verdict.holds(detail, Basis.NUMERICAL)
    return Verdict.inconclusive(
        detail + f" > {tolerance:g}: not certified", Reason.UNDECIDED, Basis.NUMERICAL
    )


def _check_readout_gap_at_root() -> Verdict:
    gap = theory.readout(u) - gamma
    identity = check_identity(
        gap - theory.readout_gap_at_root(), -theory.stationarity_eq10() / (m * u)
    )
    if identity.status != Status.HOLDS:
        return identity
    from_gap = check_identity(
        theory.deviation_from_gap(gap), theory.deviation_geometric()
    )
    if from_gap.status != Status.HOLDS:
        return from_gap
    slope = check_identity(theory.envelope_slope_from_gap(gap), theory.envelope_slope())
    if slope.status != Status.HOLDS:
        return slope
    return conjunction(
        (identity, from_gap, slope),
        f"m/u - gamma - u^2(u - m0 rho)/m = -q(u)/(m u) ({identity.detail}), so the "
        "two "
        f"agree at every root; p from the gap is eq. (8) ({from_gap.detail}); the "
        f"slope from the gap is the envelope slope ({slope.detail})",
    )


def _check_envelope() -> Verdict:
    # p'(u) = 2 q(u) / u^3, so p'(u*) = 0 at every root u* of eq. (10) and the
    # total derivative of p(u*(m), m) in m is the partial derivative.
    identity = check_identity(
        sp.diff(theory.deviation_eq8(), u), 2 * theory.stationarity_eq10() / u**3
    )
    if identity.status != Status.HOLDS:
        return identity
    implicit = -sp.diff(theory.stationarity_eq10(), m) / sp.diff(
        theory.stationarity_eq10(), u
    )
    total = sp.diff(theory.deviation_eq8(), u) * implicit + sp.diff(
        theory.deviation_eq8(), m
    )
    chain = check_identity(
        total - theory.envelope_slope(),
        2 * theory.stationarity_eq10() / u**3 * implicit,
    )
    if chain.status != Status.HOLDS:
        return chain
    return conjunction(
        (identity, chain),
        f"p'(u) = 2 q(u)/u^3 ({identity.detail}); d/dm p(u*(m), m) - 2(m/u* - "
        "gamma)/u* "
        f"= p'(u*) u*'(m) = 0 ({chain.detail})",
    )


def _check_log_slope_numeric() -> Verdict:
    rng = np.random.default_rng(15)
    size = 60
    worst = 0.0
    checked = 0
    for _ in range(size):
        point = (
            float(rng.choice([-1, 1]) * 10 ** rng.uniform(-2, 2)),
            float(rng.uniform(-1, 1)),
            float(10 ** rng.uniform(-1, 1)),
            float(rng.choice([-1, 1]) * 10 ** rng.uniform(-3, 0)),
        )
        if numerics.relu_ptft_stationary_count(*point) > 1:
            continue  # near a tie of two minima the slope is discontinuous
        exact = float(numerics.relu_ptft_log_slope(*point))
        with mpmath.workdps(60):
            step = mpmath.mpf(10) ** -20 * abs(point[0])
            upper = numerics.relu_ptft_penalty_mp(point[0] + step, *point[1:], dps=60)
            lower = numerics.relu_ptft_penalty_mp(point[0] - step, *point[1:], dps=60)
            centre = numerics.relu_ptft_penalty_mp(*point, dps=60)
            difference = (mpmath.log(upper) - mpmath.log(lower)) / (2 * step)
            _ = centre
        worst = max(
            worst, abs(exact - float(difference)) / max(abs(float(difference)), 1e-300)
        )
        checked += 1
    # The slope is 2(m/u - gamma)/(u r~): a handful of roundings, each ~1 ulp,
    # amplified by cancellation in m/u - gamma; 1e-10 leaves ample room.
    tolerance = 1e-10
    detail = (
        f"relu_ptft_log_slope vs central differences of the 60-digit reference "
        f"(step 1e-20 |m|, error O(step^2)) at {checked} points: max relative error "
        f"{worst:.2e}"
    )
    if worst <= tolerance:
        return Verdict.holds(detail, Basis.NUMERICAL)
    return Verdict.inconclusive(
        detail + f" > {tolerance:g}: not certified", Reason.UNDECIDED, Basis.NUMERICAL
    )


# --- series and limits


def _root_series(
    quartic: sp.Expr, variable: sp.Symbol, leading: sp.Expr, order: int
) -> sp.Expr:
    """The root of ``quartic`` in u through ``leading`` at variable = 0, as a series."""
    coefficients = sp.symbols(f"c1:{order + 1}")
    guess = leading + sum(c * variable ** (k + 1) for k, c in enumerate(coefficients))
    expansion = sp.expand(
        sp.series(quartic.subs(u, guess), variable, 0, order + 1).removeO()
    )
    solution: dict[sp.Symbol, sp.Expr] = {}
    for k, c in enumerate(coefficients, start=1):
        term = expansion.coeff(variable, k).subs(solution)
        solution[c] = sp.solve(term, c)[0]
    return guess.subs(solution)


def _check_small_m_series() -> Verdict:
    try:
        with time_limit(60):
            root = _root_series(
                theory.stationarity_eq10().subs(gamma, 0).subs(rho, 1), m, m0, 4
            )
            value = sp.series(
                theory.deviation_eq8().subs({gamma: 0, rho: 1}).subs(u, root), m, 0, 6
            ).removeO()
    except CheckTimeout:
        return Verdict.inconclusive("series did not finish within 60 s", Reason.BUDGET)
    verdict = check_equal(
        sp.expand(value), m**2 / m0**2 - m**4 / m0**6, what="r~ to O(m^6)"
    )
    return verdict.with_detail(
        f"along the root u* = {sp.sstr(root)} + ...: {verdict.detail}"
    )


def _check_small_m_first_order() -> Verdict:
    try:
        with time_limit(60):
            root = _root_series(theory.stationarity_eq10(), m, m0 * rho, 2)
            value = sp.series(theory.deviation_eq8().subs(u, root), m, 0, 2).removeO()
    except CheckTimeout:
        return Verdict.inconclusive("series did not finish within 60 s", Reason.BUDGET)
    verdict = check_equal(
        sp.expand(value),
        gamma**2 + m0**2 * (1 - rho**2) - 2 * gamma * m / (m0 * rho),
        what="r~ to O(m^2)",
    )
    return verdict.with_detail(f"on the branch u* -> m0 rho: {verdict.detail}")


def _check_large_m() -> Verdict:
    eps, v = sp.symbols("epsilon v", positive=True)
    try:
        with time_limit(60):
            scaled = theory.large_m_scaled_quartic(eps, v)
            root = _root_series(scaled.subs(v, u), eps, sp.Integer(1), 2)
            penalty_scaled = eps**2 * theory.deviation_eq8().subs(
                {m: eps**-2, u: root / eps}
            )
            value = sp.limit(sp.simplify(penalty_scaled), eps, 0, dir="+")
    except CheckTimeout:
        return Verdict.inconclusive("limit did not finish within 60 s", Reason.BUDGET)
    verdict = check_equal(value, sp.Integer(2), what="lim eps^2 r~")
    return verdict.with_detail(
        f"with m = 1/eps^2, u* = ({sp.sstr(root)} + ...)/eps: {verdict.detail} "
        "(eps^2 r~ -> 2 is r~ / (2|m|) -> 1)"
    )


def _symmetry_relation() -> sp.Eq:
    """p(u; -m, -gamma) = p(u; m, gamma), so r~ is even in (m, gamma)."""
    return sp.Eq(
        theory.deviation_eq8().subs({m: -m, gamma: -gamma}, simultaneous=True),
        theory.deviation_eq8(),
        evaluate=False,
    )


_EQ11_QUOTE = (
    "\\tilde{r}(\\hat{\\mathbf{w}}_h, m_h | \\mathbf{w}_{0h}^{(1)}, \\gamma) = "
    "(m_h/u^* - \\gamma)^2 + u^{*2} + (m_{0h}^{(1)})^2 - "
    "2u^* m_{0h}^{(1)} \\rho_h. (11)"
)

CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE,
        "11",
        "at-the-root",
        Kind.NUMERIC,
        "r~ is eq. (11) evaluated at the positive root u* of eq. (10), for the small "
        "gamma of the text",
        _check_eq11_in_regime,
        Status.HOLDS,
        assumptions=("|gamma| <= 1e-2", "|m_h| >= 1e-3"),
        formula=lambda: _eq(theory.penalty, theory.penalty_eq11(theory.u_star)),
        quote=_EQ11_QUOTE,
        reading=Reading.PRINTED,
        regime=REGIME + "; 200 points",
    ),
    Claim(
        SOURCE,
        "11",
        "at-the-root-beyond-regime",
        Kind.NUMERIC,
        "r~ is eq. (11) evaluated at a positive root u* of eq. (10), also beyond the "
        "regime of the text (gamma up to 10, |m_h| down to 1e-10)",
        _check_eq11_beyond_regime,
        Status.FAILS,
        formula=lambda: _eq(theory.penalty, theory.penalty_eq11(theory.u_star)),
        reading=Reading.EXTENSION,
        regime=(
            "|m_h| in [1e-10, 1e3], rho in [-1, 1], m0 in [1e-3, 1e2], |gamma| in "
            "[1e-4, 10]: beyond the text's small gamma, where eq. (10) can have "
            "three positive roots"
        ),
    ),
    Claim(
        SOURCE,
        "11",
        "global-minimum",
        Kind.NUMERIC,
        "r~ is the minimum of eq. (11) over all positive roots u* of eq. (10), "
        "as relu_ptft_penalty computes it",
        _check_global_minimum,
        Status.HOLDS,
        corrects=_claim_id("11", "at-the-root-beyond-regime"),
        formula=lambda: _eq(theory.penalty, theory.penalty_eq11(theory.u_star)),
        reading=Reading.EXTENSION,
        regime=(
            "300 points: 200 of |m_h| in [1e-10, 1e3], rho in [-1, 1], m0 in "
            "[1e-3, 1e2], |gamma| in [1e-4, 10], and 100 with three positive roots"
        ),
    ),
    Claim(
        SOURCE,
        "11",
        "readout-gap-at-root",
        Kind.IDENTITY,
        "at a root of eq. (10), m_h/u - gamma = u^2 (u - m0 rho)/m_h (our "
        "cancellation-free "
        "form of the readout gap)",
        _check_readout_gap_at_root,
        Status.HOLDS,
        assumptions=("m_h != 0", "u a root of eq. (10)"),
        formula=lambda: _eq(theory.readout(u) - gamma, theory.readout_gap_at_root()),
        reading=Reading.EXTENSION,
        regime="all real m_h != 0, gamma, rho, m0 >= 0, u > 0 (symbolic)",
    ),
    Claim(
        SOURCE,
        "11",
        "envelope",
        Kind.IDENTITY,
        "d r~/d m_h = 2(m_h/u* - gamma)/u* (envelope theorem)",
        _check_envelope,
        Status.HOLDS,
        assumptions=("u* a non-degenerate minimizer",),
        formula=lambda: _eq(
            sp.Derivative(theory.penalty, m), theory.envelope_slope(theory.u_star)
        ),
        reading=Reading.EXTENSION,
        regime="all real m_h, gamma, rho, m0 >= 0 at a non-degenerate minimizer "
        "u* > 0 (symbolic)",
    ),
    Claim(
        SOURCE,
        "11",
        "log-slope-numeric",
        Kind.NUMERIC,
        "relu_ptft_log_slope equals the derivative of log r~ computed at 60 digits",
        _check_log_slope_numeric,
        Status.HOLDS,
        formula=lambda: _eq(
            sp.Derivative(sp.log(theory.penalty), m),
            theory.envelope_slope(theory.u_star) / theory.penalty,
        ),
        reading=Reading.EXTENSION,
        regime=(
            "60 points, |m_h| in [1e-2, 1e2], rho in [-1, 1], m0 in [0.1, 10], "
            "|gamma| in [1e-3, 1], points with three roots skipped"
        ),
    ),
    Claim(
        SOURCE,
        "11",
        "small-m-branch",
        Kind.LIMIT,
        "on the branch u* -> m0 rho, r~ = gamma^2 + m0^2(1 - rho^2) - 2 gamma m_h/(m0 "
        "rho) + O(m_h^2)",
        _check_small_m_first_order,
        Status.HOLDS,
        assumptions=("m0 rho > 0",),
        formula=lambda: _eq(
            theory.penalty, gamma**2 + m0**2 * (1 - rho**2) - 2 * gamma * m / (m0 * rho)
        ),
        reading=Reading.EXTENSION,
        regime="m_h -> 0 with m0 rho > 0, gamma, rho, m0 symbolic",
    ),
    Claim(
        SOURCE,
        "11",
        "l2-near-zero",
        Kind.LIMIT,
        "rho = 1, gamma = 0: r~ = m_h^2/m0^2 - m_h^4/m0^6 + O(m_h^6) (l2-like near 0)",
        _check_small_m_series,
        Status.HOLDS,
        assumptions=("rho = 1", "gamma = 0", "m0 > 0"),
        formula=lambda: _eq(theory.penalty, m**2 / m0**2 - m**4 / m0**6),
        reading=Reading.EXTENSION,
        regime="m_h -> 0 at rho = 1, gamma = 0, m0 > 0 symbolic",
    ),
    Claim(
        SOURCE,
        "11",
        "l1-at-infinity",
        Kind.LIMIT,
        "r~ / (2|m_h|) -> 1 as |m_h| -> infinity (l1-like for large m_h)",
        _check_large_m,
        Status.HOLDS,
        formula=lambda: sp.Eq(sp.Limit(theory.penalty / (2 * sp.Abs(m)), m, sp.oo), 1),
        reading=Reading.EXTENSION,
        regime="m_h -> oo with gamma, rho, m0 symbolic",
    ),
    Claim(
        SOURCE,
        "11",
        "sign-symmetry",
        Kind.IDENTITY,
        "r~(-m_h, rho, m0, -gamma) = r~(m_h, rho, m0, gamma): gamma < 0 mirrors m_h",
        relation_check(_symmetry_relation),
        Status.HOLDS,
        formula=_symmetry_relation,
        reading=Reading.EXTENSION,
        regime="all real m_h, gamma, rho, m0 >= 0, u > 0 (symbolic)",
    ),
)
