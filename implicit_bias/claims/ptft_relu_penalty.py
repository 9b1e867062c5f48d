r"""Claims of ptft-relu-penalty: eqs. (6)-(11) and Section 1.2.

Symbols: ``m`` is :math:`m_h`, ``m0`` is :math:`m_{0h}^{(1)} = \sqrt{m^{aux}}`,
``rho`` is :math:`\rho_h`, ``gamma`` is :math:`\gamma`. The paper never gives
the value of the small readout initialization :math:`\gamma` used in Fig. 1;
the Section 1.2 claims are checked for each of :data:`SMALL_GAMMAS`.
"""

from __future__ import annotations

import itertools

import mpmath
import numpy as np
import sympy as sp

from implicit_bias.claims.checks import (
    check_identity,
    check_limit,
    interval,
    log_uniform,
)
from implicit_bias.claims.engine import (
    CheckTimeout,
    Claim,
    Kind,
    Status,
    Verdict,
    time_limit,
)
from implicit_bias.numerics import relu_penalty as numerics
from implicit_bias.theory import relu_penalty as theory
from implicit_bias.theory.symbols import gamma, m, m0, rho, u
from implicit_bias.validation import relu_networks

__all__ = ["CLAIMS", "SMALL_GAMMAS", "SOURCE"]

SOURCE = "ptft-relu-penalty"
#: Readout initializations for which the Section 1.2 statements are checked.
SMALL_GAMMAS = (0.0, 1e-3, 1e-2)
#: Fig. 1's auxiliary-task magnitudes m^aux; the pretrained norm is sqrt(m^aux).
M_AUX = (0.01, 1.0, 100.0)

_SAMPLERS = {
    rho: interval(-1.0, 1.0),
    m: log_uniform(1e-3, 1e3, signed=True),
    gamma: log_uniform(1e-3, 1e1, signed=True),
}
_ID = f"{SOURCE}:{{}}"


def _claim_id(equation: str, label: str) -> str:
    return _ID.format(f"{equation}:{label}")


# --- eqs. (6)-(10): the derivation


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
    if at_zero.status != Status.HOLDS:
        return Verdict.fails(f"u -> 0+: {at_zero.detail}")
    at_infinity = check_limit(p, u, sp.oo, sp.oo)
    if at_infinity.status != Status.HOLDS:
        return Verdict.fails(f"u -> oo: {at_infinity.detail}")
    return Verdict.holds(f"u -> 0+: {at_zero.detail}; u -> oo: {at_infinity.detail}")


def _check_divergence_as_printed() -> Verdict:
    # The paper states it for every m_h; m_h = 0 is in the domain (a unit not used).
    return _check_divergence(sp.Integer(0))


def _check_divergence_nonzero_m() -> Verdict:
    return _check_divergence(sp.Symbol("m", real=True, nonzero=True))


def _check_eq9() -> Verdict:
    return check_identity(sp.diff(theory.deviation_eq8(), u), theory.stationarity_eq9())


def _check_eq10() -> Verdict:
    return check_identity(
        theory.stationarity_eq9() * u**3 / 2, theory.stationarity_eq10()
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
    return Verdict.holds(
        f"m/u - gamma - u^2(u - m0 rho)/m = -q(u)/(m u) ({identity.detail}), so the "
        "two "
        f"agree at every root; p from the gap is eq. (8) ({from_gap.detail})"
    )


def _check_geometric_form() -> Verdict:
    return check_identity(theory.deviation_eq8(), theory.deviation_geometric())


# --- eq. (10): how many positive roots


def _domain_sample(size: int, seed: int) -> tuple[np.ndarray, ...]:
    """A seeded sample of the stated domain, with |m| reaching down to 1e-10."""
    rng = np.random.default_rng(seed)
    m_values = rng.choice([-1.0, 1.0], size) * 10.0 ** rng.uniform(-10, 3, size)
    rho_values = rng.uniform(-1, 1, size)
    m0_values = 10.0 ** rng.uniform(-3, 2, size)
    gamma_values = rng.choice([-1.0, 1.0], size) * 10.0 ** rng.uniform(-4, 1, size)
    return m_values, rho_values, m0_values, gamma_values


def _check_unique_root_as_printed() -> Verdict:
    size = 100_000
    sample = _domain_sample(size, seed=10)
    counts = numerics.relu_ptft_stationary_count(*sample)
    multiple = np.flatnonzero(counts > 1)
    if multiple.size == 0:
        return Verdict.holds(f"one positive root at all {size} sampled points")
    point = tuple(float(v[multiple[0]]) for v in sample)
    roots = numerics.relu_ptft_stationary_points_mp(*point)
    if len(roots) < 2:
        return Verdict.inconclusive(
            f"NumPy reports several roots at m, rho, m0, gamma = {point}; mpmath does "
            "not"
        )
    with mpmath.workdps(50):
        values = [
            numerics._deviation_mpmath(x, *(mpmath.mpf(v) for v in point))
            for x in roots
        ]
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


# --- eq. (11): the penalty


def _check_eq11_as_printed() -> Verdict:
    size = 100_000
    sample = _domain_sample(size, seed=11)
    counts = numerics.relu_ptft_stationary_count(*sample)
    penalties = numerics.relu_ptft_penalty(*sample)
    worst_gap, worst = mpmath.mpf(0), None
    for index in np.flatnonzero(counts > 1)[:50]:
        point = tuple(float(v[index]) for v in sample)
        with mpmath.workdps(50):
            values = [
                numerics._deviation_mpmath(x, *(mpmath.mpf(v) for v in point))
                for x in numerics.relu_ptft_stationary_points_mp(*point)
            ]
        gap = (max(values) - min(values)) / min(values)
        if gap > worst_gap:
            worst_gap, worst = gap, (point, values, penalties[index])
    if worst is None:
        return Verdict.holds("eq. (11) is single-valued at every sampled point")
    point, values, penalty = worst
    return Verdict.fails(
        "eq. (11) takes different values at the different positive roots of eq. (10): "
        f"at m={point[0]:.3g}, rho={point[1]:.4g}, m0={point[2]:.4g}, "
        f"gamma={point[3]:.3g} "
        f"it gives {', '.join(mpmath.nstr(v, 8) for v in values)}; the global minimum "
        f"is {penalty:.8g} (relative spread {mpmath.nstr(worst_gap, 3)})"
    )


def _check_global_minimum() -> Verdict:
    size = 200
    sample = _domain_sample(size, seed=12)
    # Half of the points in the region where eq. (10) has three positive roots.
    counts = numerics.relu_ptft_stationary_count(*_domain_sample(100_000, seed=13))
    extra = np.flatnonzero(counts > 1)[: size // 2]
    more = tuple(v[extra] for v in _domain_sample(100_000, seed=13))
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
    return Verdict.holds(detail) if worst <= tolerance else Verdict.fails(detail)


def _check_direct_minimization() -> Verdict:
    size = 200
    m_values, rho_values, m0_values, gamma_values = _domain_sample(size, seed=14)
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
    return Verdict.holds(
        f"p'(u) = 2 q(u)/u^3 ({identity.detail}); d/dm p(u*(m), m) - 2(m/u* - "
        "gamma)/u* "
        f"= p'(u*) u*'(m) = 0 ({chain.detail})"
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
    return Verdict.holds(detail) if worst <= tolerance else Verdict.fails(detail)


# --- limits


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
        return Verdict.inconclusive("series did not finish within 60 s")
    expected = m**2 / m0**2 - m**4 / m0**6
    difference = sp.simplify(sp.expand(value) - expected)
    if difference == 0:
        return Verdict.holds(
            f"exact: along the root u* = {sp.sstr(root)} + ..., r~ = "
            f"{sp.sstr(sp.expand(value))} + O(m^6)"
        )
    return Verdict.fails(
        f"series is {sp.sstr(value)}, differs by {sp.sstr(difference)}"
    )


def _check_small_m_first_order() -> Verdict:
    try:
        with time_limit(60):
            root = _root_series(theory.stationarity_eq10(), m, m0 * rho, 2)
            value = sp.series(theory.deviation_eq8().subs(u, root), m, 0, 2).removeO()
    except CheckTimeout:
        return Verdict.inconclusive("series did not finish within 60 s")
    expected = gamma**2 + m0**2 * (1 - rho**2) - 2 * gamma * m / (m0 * rho)
    difference = sp.simplify(sp.expand(value - expected))
    if difference == 0:
        return Verdict.holds(
            f"exact: r~ = {sp.sstr(sp.expand(value))} + O(m^2) on the branch u* -> m0 "
            "rho"
        )
    return Verdict.fails(
        f"series is {sp.sstr(value)}, differs by {sp.sstr(difference)}"
    )


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
        return Verdict.inconclusive("limit did not finish within 60 s")
    if sp.simplify(value - 2) == 0:
        return Verdict.holds(
            f"exact: with m = 1/eps^2, u* = ({sp.sstr(root)} + ...)/eps; "
            "eps^2 r~ -> 2, i.e. r~ / (2|m|) -> 1"
        )
    return Verdict.fails(f"eps^2 r~ tends to {sp.sstr(value)}, not 2")


def _check_new_unit() -> Verdict:
    m_positive = sp.Symbol("m", positive=True)
    p = theory.deviation_eq8().subs({m0: 0, gamma: 0, m: m_positive})
    stationary = [s for s in sp.solve(sp.diff(p, u), u) if s.is_positive]
    if len(stationary) != 1:
        return Verdict.fails(f"positive stationary points: {stationary}")
    value = sp.simplify(p.subs(u, stationary[0]))
    minimum_ok = sp.simplify(sp.diff(p, u, 2).subs(u, stationary[0])).is_positive
    if (
        sp.simplify(value - theory.penalty_new_unit().subs(m, m_positive)) == 0
        and minimum_ok
    ):
        return Verdict.holds(
            f"exact: unique stationary point u = {sp.sstr(stationary[0])}, p'' > 0, "
            f"min = {sp.sstr(value)} (even in m, so 2|m|)"
        )
    return Verdict.fails(f"minimum is {sp.sstr(value)}")


def _check_balanced_pretraining() -> Verdict:
    m_aux, w2 = sp.symbols("m_aux w2", positive=True)
    norm = u**2 + w2**2
    on_constraint = norm.subs(w2, m_aux / u)
    stationary = [s for s in sp.solve(sp.diff(on_constraint, u), u) if s.is_positive]
    if stationary == [sp.sqrt(m_aux)]:
        return Verdict.holds(
            "exact: u^2 + (m_aux/u)^2 has its unique positive stationary point "
            "(a minimum: it diverges at 0 and oo) at u = sqrt(m_aux) = m0"
        )
    return Verdict.fails(f"stationary points {stationary}")


def _check_symmetry() -> Verdict:
    flipped = theory.deviation_eq8().subs({m: -m, gamma: -gamma}, simultaneous=True)
    verdict = check_identity(flipped, theory.deviation_eq8())
    if verdict.status != Status.HOLDS:
        return verdict
    return Verdict.holds(
        f"p(u; -m, -gamma) = p(u; m, gamma) ({verdict.detail}), so r~ is even in (m, "
        "gamma)"
    )


# --- Section 1.2


def _log_slope_regimes() -> tuple[float, float, float]:
    """d log r~/dm and d log r~/d log m of a fresh unit at m = 10; the l2 elasticity."""
    fresh = float(numerics.relu_ptft_log_slope(10.0, 1.0, 0.0, 0.0))
    fresh_elasticity = float(numerics.relu_ptft_log_log_slope(10.0, 1.0, 0.0, 0.0))
    l2_elasticity = float(numerics.relu_ptft_log_log_slope(1e-3, 1.0, 10.0, 0.0))
    return fresh, fresh_elasticity, l2_elasticity


def _check_log_derivative_as_printed() -> Verdict:
    fresh, _, _ = _log_slope_regimes()
    small = float(numerics.relu_ptft_log_slope(1e-3, 1.0, 10.0, 0.0))
    if abs(fresh - 1) < 0.25 and abs(small - 2) < 0.25:
        return Verdict.holds(f"d log r~/dm = {fresh:.4g} (l1) and {small:.4g} (l2)")
    return Verdict.fails(
        "d log r~/dm is not near 1 for the exactly l1 penalty r~ = 2|m| (fresh unit, "
        f"m0 = gamma = 0, m = 10): it is 1/m = {fresh:.4g}; for the l2-like r~ ~ "
        "m^2/m0^2 "
        f"(rho = 1, m0 = 10, gamma = 0, m = 1e-3) it is {small:.4g}, not 2: the values "
        "1 "
        "and 2 are those of d log r~/d log m"
    )


def _check_log_log_derivative() -> Verdict:
    _, fresh, l2 = _log_slope_regimes()
    # Fresh unit: r~ = 2|m| exactly, elasticity 1 to rounding. rho = 1, gamma = 0:
    # r~ = m^2/m0^2 - m^4/m0^6 + ..., elasticity 2 - 2 m^2/m0^4 = 2 - 2e-10 here.
    if abs(fresh - 1) <= 1e-12 and abs(l2 - 2) <= 1e-9:
        return Verdict.holds(
            f"d log r~/d log m = {fresh:.15g} for r~ = 2|m| (m = 10) and {l2:.12g} for "
            "rho = 1, m0 = 10, gamma = 0, m = 1e-3 (series: 2 - 2m^2/m0^4)"
        )
    return Verdict.fails(f"elasticities {fresh!r} (expected 1) and {l2!r} (expected 2)")


def _elasticity_and_penalty(
    m_values: np.ndarray, rho_value: float, m_aux: float, gamma_value: float
) -> tuple[np.ndarray, np.ndarray]:
    m0_value = np.sqrt(m_aux)
    return (
        numerics.relu_ptft_log_log_slope(m_values, rho_value, m0_value, gamma_value),
        numerics.relu_ptft_penalty(m_values, rho_value, m0_value, gamma_value),
    )


def _check_nested_sparsity_gap() -> Verdict:
    m_values = np.logspace(-2, 2, 401)
    findings = []
    # rho = 1 and m = gamma*m0 makes r~ = 0 (no deviation at all), where log r~
    # has no slope; those grid points are not part of the statement.
    for gamma_value in SMALL_GAMMAS:
        for rho_value in (1.0, 0.999):
            grid = m_values[
                ~np.isclose(m_values, gamma_value * 1.0, rtol=1e-12, atol=0)
            ]
            elasticity, used = _elasticity_and_penalty(
                grid, rho_value, 1.0, gamma_value
            )
            _, unused = _elasticity_and_penalty(grid, rho_value, 0.01, gamma_value)
            l1_like = elasticity < 1.5
            if not l1_like.any():
                return Verdict.fails(
                    f"rho={rho_value}, gamma={gamma_value}: m_aux = 1 is never l1-like "
                    "on [1e-2, 1e2]"
                )
            ratio = unused[l1_like] / used[l1_like]
            if ratio.min() <= 1:
                worst = grid[l1_like][np.argmin(ratio)]
                return Verdict.fails(
                    f"rho={rho_value}, gamma={gamma_value}, m={worst:.3g}: l1-like yet "
                    f"r~(m_aux=0.01)/r~(m_aux=1) = {ratio.min():.4g} <= 1"
                )
            findings.append(ratio.min())
    return Verdict.holds(
        "rho in {1, 0.999}, gamma in {0, 1e-3, 1e-2}: wherever the m_aux = 1 penalty "
        "is "
        "l1-like (elasticity < 1.5) on m in [1e-2, 1e2], r~(m_aux = 0.01) exceeds "
        f"r~(m_aux = 1) by a factor >= {min(findings):.3f}"
    )


def _check_l1_like_at_099() -> Verdict:
    values = [
        float(numerics.relu_ptft_log_log_slope(1.0, 0.99, 1.0, g)) for g in SMALL_GAMMAS
    ]
    detail = (
        "d log r~/d log m at rho = 0.99, m_aux = 1, m = 1 for gamma in "
        "{0, 1e-3, 1e-2}: " + ", ".join(f"{v:.4f}" for v in values)
    )
    if all(v < 1.5 for v in values):
        return Verdict.holds(detail + " (closer to 1 than to 2: l1-like)")
    return Verdict.fails(detail + " (not closer to 1 than to 2)")


def _check_l1_like_at_099_crossover() -> Verdict:
    m_values = np.logspace(-2, 3, 2001)
    rows = []
    for gamma_value in SMALL_GAMMAS:
        elasticity = numerics.relu_ptft_log_log_slope(m_values, 0.99, 1.0, gamma_value)
        above = np.flatnonzero(elasticity >= 1.5)
        crossover = m_values[above[-1] + 1] if above.size else m_values[0]
        rows.append((gamma_value, float(elasticity.max()), float(crossover)))
    detail = "rho = 0.99, m_aux = 1: " + "; ".join(
        f"gamma={g:g}: max elasticity {peak:.3f}, < 1.5 for all m >= {cross:.3g}"
        for g, peak, cross in rows
    )
    if all(cross <= 2.0 and peak < 2.0 for _, peak, cross in rows):
        return Verdict.holds(detail)
    return Verdict.fails(detail)


def _check_reversal(rho_value: float, worse_with_large_aux: bool) -> Verdict:
    rows = []
    for gamma_value in SMALL_GAMMAS:
        large = float(numerics.relu_ptft_penalty(1.0, rho_value, 10.0, gamma_value))
        small = float(numerics.relu_ptft_penalty(1.0, rho_value, 0.1, gamma_value))
        rows.append((gamma_value, large, small))
    detail = f"rho = {rho_value}, m = 1: " + "; ".join(
        f"gamma={g:g}: r~(m_aux=100) = {a:.4g}, r~(m_aux=0.01) = {b:.4g}"
        for g, a, b in rows
    )
    ok = all((a > b) if worse_with_large_aux else (a < b) for _, a, b in rows)
    return Verdict.holds(detail) if ok else Verdict.fails(detail)


# --- the registry entries


def _eq(lhs: sp.Expr, rhs: sp.Expr) -> sp.Eq:
    return sp.Eq(lhs, rhs, evaluate=False)


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
    Claim(
        SOURCE,
        "11",
        "at-the-root",
        Kind.NUMERIC,
        "r~ is eq. (11) evaluated at the positive root u* of eq. (10)",
        _check_eq11_as_printed,
        Status.FAILS,
        formula=lambda: _eq(theory.penalty, theory.penalty_eq11(theory.u_star)),
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
        corrects=_claim_id("11", "at-the-root"),
        formula=lambda: _eq(theory.penalty, theory.penalty_eq11(theory.u_star)),
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
    ),
    Claim(
        SOURCE,
        "11",
        "sign-symmetry",
        Kind.IDENTITY,
        "r~(-m_h, rho, m0, -gamma) = r~(m_h, rho, m0, gamma): gamma < 0 mirrors m_h",
        _check_symmetry,
        Status.HOLDS,
        formula=lambda: _eq(
            theory.deviation_eq8().subs({m: -m, gamma: -gamma}, simultaneous=True),
            theory.deviation_eq8(),
        ),
    ),
    Claim(
        SOURCE,
        "sec-1.2",
        "pretrained-norm",
        Kind.IDENTITY,
        "if pretraining minimizes the parameter norm, m0 = sqrt(m_aux)",
        _check_balanced_pretraining,
        Status.HOLDS,
        assumptions=("m_aux > 0",),
        formula=lambda: sp.Eq(m0, sp.sqrt(sp.Symbol("m^{aux}", positive=True))),
    ),
    Claim(
        SOURCE,
        "sec-1.2",
        "fresh-unit-l1",
        Kind.IDENTITY,
        "a newly initialized unit (m0 = gamma = 0) has penalty 2|m_h|: exactly l1",
        _check_new_unit,
        Status.HOLDS,
        assumptions=("m0 = 0", "gamma = 0"),
        formula=lambda: _eq(theory.penalty, theory.penalty_new_unit()),
    ),
    Claim(
        SOURCE,
        "sec-1.2",
        "log-derivative",
        Kind.NUMERIC,
        "d log r~ / d m is close to 2 where the norm is l2-like and close to 1 where "
        "it is l1-like",
        _check_log_derivative_as_printed,
        Status.FAILS,
        formula=lambda: sp.Derivative(sp.log(theory.penalty), m),
    ),
    Claim(
        SOURCE,
        "sec-1.2",
        "log-log-derivative",
        Kind.NUMERIC,
        "d log r~ / d log |m_h| is 1 where r~ is l1 (2|m_h|) and tends to 2 where it "
        "is l2",
        _check_log_log_derivative,
        Status.HOLDS,
        corrects=_claim_id("sec-1.2", "log-derivative"),
        formula=lambda: _eq(
            m * sp.Derivative(sp.log(theory.penalty), m),
            m * theory.envelope_slope(theory.u_star) / theory.penalty,
        ),
    ),
    Claim(
        SOURCE,
        "sec-1.2",
        "nested-sparsity-gap",
        Kind.NUMERIC,
        "for rho near 1, even where the penalty is l1-like, m_aux = 1 gives a smaller "
        "penalty than m_aux = 0.01",
        _check_nested_sparsity_gap,
        Status.HOLDS,
        assumptions=(
            "rho in {1, 0.999}",
            "gamma in {0, 1e-3, 1e-2}",
            "m in [1e-2, 1e2]",
        ),
    ),
    Claim(
        SOURCE,
        "sec-1.2",
        "l1-like-at-0.99",
        Kind.NUMERIC,
        "for rho = 0.99 the norm behaves like an l1 norm at m ~ 1 (m_aux = 1)",
        _check_l1_like_at_099,
        Status.FAILS,
        assumptions=("rho = 0.99", "m_aux = 1", "m = 1", "gamma in {0, 1e-3, 1e-2}"),
    ),
    Claim(
        SOURCE,
        "sec-1.2",
        "l1-like-at-0.99-from-m-2",
        Kind.NUMERIC,
        "for rho = 0.99 (m_aux = 1) the norm is l1-like (d log r~/d log m < 1.5) for "
        "every "
        "m >= 2, and never l2-like (elasticity < 2 everywhere)",
        _check_l1_like_at_099_crossover,
        Status.HOLDS,
        assumptions=(
            "rho = 0.99",
            "m_aux = 1",
            "m in [1e-2, 1e3] (grid of 2001)",
            "gamma in {0, 1e-3, 1e-2}",
        ),
        corrects=_claim_id("sec-1.2", "l1-like-at-0.99"),
    ),
    Claim(
        SOURCE,
        "sec-1.2",
        "moderate-correlation-reversal",
        Kind.NUMERIC,
        "rho = 0.9, m ~ 1: m_aux = 100 yields a worse (larger) penalty than m_aux = "
        "0.01",
        lambda: _check_reversal(0.9, worse_with_large_aux=True),
        Status.HOLDS,
        assumptions=("rho = 0.9", "m = 1", "gamma in {0, 1e-3, 1e-2}"),
    ),
    Claim(
        SOURCE,
        "sec-1.2",
        "perfect-correlation-benefit",
        Kind.NUMERIC,
        "rho = 1, m ~ 1: the opposite: m_aux = 100 yields a smaller penalty than m_aux "
        "= 0.01",
        lambda: _check_reversal(1.0, worse_with_large_aux=False),
        Status.HOLDS,
        assumptions=("rho = 1", "m = 1", "gamma in {0, 1e-3, 1e-2}"),
    ),
)
