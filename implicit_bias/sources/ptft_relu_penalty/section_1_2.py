r"""Claims of ptft-relu-penalty: Section 1.2, how reused units are penalized.

The pretrained norm :math:`m_0 = \sqrt{m^{aux}}`, the exactly :math:`\ell_1`
penalty of a fresh unit, the log-derivative that tells :math:`\ell_1`-like
from :math:`\ell_2`-like, and the comparisons of penalties across
:math:`\rho` and :math:`m^{aux}` that Fig. 1 illustrates. The paper never
gives the value of the small readout initialization :math:`\gamma` used in
Fig. 1; these claims are checked for each of :data:`SMALL_GAMMAS`. Symbols as
in :mod:`implicit_bias.sources.ptft_relu_penalty`.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from implicit_bias.claims.checks import close_or_undecided
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
    conjunction,
)
from implicit_bias.sources.ptft_relu_penalty.source import SOURCE_ID, penalty_at
from implicit_bias.numerics import relu_penalty as numerics
from implicit_bias.theory import relu_penalty as theory
from implicit_bias.theory.symbols import gamma, m, m0, u

__all__ = ["CLAIMS", "SMALL_GAMMAS"]

#: Readout initializations for which the Section 1.2 statements are checked.
SMALL_GAMMAS = (0.0, 1e-3, 1e-2)
#: Fig. 1's auxiliary-task magnitudes m^aux; the pretrained norm is sqrt(m^aux).
M_AUX = (0.01, 1.0, 100.0)
#: Our reading of the text's "m ~ 1": m within a factor 2 of 1 (41 points,
#: log-spaced). The text gives no width; a factor 2 keeps m of the order of 1.
M_NEAR_1 = np.logspace(np.log10(0.5), np.log10(2.0), 41)
#: The text's criterion: closer to 1 than to 2 is l1-like; the midpoint is 1.5.
L1_L2_MIDPOINT = 1.5


def _claim_id(equation: str, label: str) -> str:
    return f"{SOURCE_ID}:{equation}:{label}"


def _eq(lhs: sp.Expr, rhs: sp.Expr) -> sp.Eq:
    return sp.Eq(lhs, rhs, evaluate=False)


# --- the pretrained and the fresh unit


def _check_balanced_pretraining() -> Verdict:
    m_aux, w2 = sp.symbols("m_aux w2", positive=True)
    norm = u**2 + w2**2
    on_constraint = norm.subs(w2, m_aux / u)
    stationary = [s for s in sp.solve(sp.diff(on_constraint, u), u) if s.is_positive]
    detail = (
        f"exact: the positive stationary points of u^2 + (m_aux/u)^2 are {stationary} "
        "(a unique one is the minimum: it diverges at 0 and oo)"
    )
    return Verdict.decide(stationary == [sp.sqrt(m_aux)], detail, Basis.PROOF)


def _check_new_unit() -> Verdict:
    m_positive = sp.Symbol("m", positive=True)
    p = theory.deviation_eq8().subs({m0: 0, gamma: 0, m: m_positive})
    stationary = [s for s in sp.solve(sp.diff(p, u), u) if s.is_positive]
    if len(stationary) != 1:
        return Verdict.inconclusive(
            f"positive stationary points: {stationary}", Reason.UNDECIDED
        )
    value = sp.simplify(p.subs(u, stationary[0]))
    minimum_ok = sp.simplify(sp.diff(p, u, 2).subs(u, stationary[0])).is_positive
    difference = sp.simplify(value - theory.penalty_new_unit().subs(m, m_positive))
    detail = (
        f"exact: unique stationary point u = {sp.sstr(stationary[0])}, p'' > 0 "
        f"({minimum_ok}), min = {sp.sstr(value)} (even in m, so 2|m|)"
    )
    if difference == 0 and minimum_ok:
        return Verdict.holds(detail, Basis.PROOF)
    if difference.is_zero is False:
        return Verdict.fails(
            detail, Basis.PROOF, f"min p - 2|m| = {sp.sstr(difference)} != 0"
        )
    return Verdict.inconclusive(detail, Reason.UNDECIDED)


# --- l1-like and l2-like: the log-derivative


def _log_slope_regimes() -> tuple[float, float, float]:
    """d log r~/dm and d log r~/d log m of a fresh unit at m = 10; the l2 elasticity."""
    fresh = float(numerics.relu_ptft_log_slope(10.0, 1.0, 0.0, 0.0))
    fresh_elasticity = float(numerics.relu_ptft_log_log_slope(10.0, 1.0, 0.0, 0.0))
    l2_elasticity = float(numerics.relu_ptft_log_log_slope(1e-3, 1.0, 10.0, 0.0))
    return fresh, fresh_elasticity, l2_elasticity


def _check_log_derivative_as_printed() -> Verdict:
    # A fresh unit's penalty is exactly the l1 norm 2|m| (sec-1.2:fresh-unit-l1).
    # The text's own criterion: closer to 2 than to 1 reads l2-like.
    fresh = theory.penalty_new_unit()
    at = sp.Rational(1, 2)
    derivative = sp.simplify(sp.diff(sp.log(fresh), m).subs(m, at))
    elasticity = sp.simplify((m * sp.diff(sp.log(fresh), m)).subs(m, at))
    reads_l2 = bool(sp.Abs(derivative - 2) < sp.Abs(derivative - 1))
    detail = (
        f"exact: for the fresh unit (m0 = gamma = 0) r~ = 2|m_h|, exactly an l1 "
        f"norm; at m_h = 1/2 the printed d log r~/dm = 1/m_h = {derivative}, "
        f"closer to 2 than to 1 ({reads_l2}), so the criterion reads it l2-like; "
        f"d log r~/d log m = {elasticity} there (the values 1 and 2 are those of "
        "d log r~/d log m, sec-1.2:log-log-derivative)"
    )
    if reads_l2:
        return Verdict.fails(
            detail,
            Basis.PROOF,
            f"m0 = gamma = 0, m_h = 1/2: r~ = 2|m_h| is l1, yet d log r~/dm = "
            f"{derivative} exactly, closer to 2 than to 1",
        )
    return Verdict.inconclusive(detail, Reason.UNDECIDED)


def _check_log_log_derivative() -> Verdict:
    _, fresh, l2 = _log_slope_regimes()
    # Fresh unit: r~ = 2|m| exactly, elasticity 1 to rounding (1e-12). rho = 1,
    # gamma = 0: r~ = m^2/m0^2 - m^4/m0^6 + ..., elasticity 2 - 2 m^2/m0^4 = 2 - 2e-10
    # here, within 1e-9 of 2. Floating-point elasticities off their values are
    # not a certified refutation: a miss is inconclusive.
    l1 = close_or_undecided(fresh, 1.0, 1e-12, what="elasticity of r~ = 2|m| at m = 10")
    l2_like = close_or_undecided(
        l2, 2.0, 1e-9, what="elasticity at rho = 1, m0 = 10, gamma = 0, m = 1e-3"
    )
    return conjunction(
        (l1, l2_like),
        f"float64: d log r~/d log m = {fresh:.15g} for r~ = 2|m| (m = 10) and "
        f"{l2:.12g} for "
        "rho = 1, m0 = 10, gamma = 0, m = 1e-3 (series: 2 - 2m^2/m0^4): "
        f"{l1.detail}; {l2_like.detail}",
    )


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
                return Verdict.inconclusive(
                    f"rho={rho_value}, gamma={gamma_value}: m_aux = 1 is never l1-like "
                    "on [1e-2, 1e2]",
                    Reason.UNDECIDED,
                )
            ratio = unused[l1_like] / used[l1_like]
            if ratio.min() <= 1:
                # Two numerically minimized penalties: no certified counterexample.
                worst = grid[l1_like][np.argmin(ratio)]
                return Verdict.inconclusive(
                    f"rho={rho_value}, gamma={gamma_value}, m={worst:.3g}: l1-like yet "
                    f"r~(m_aux=0.01)/r~(m_aux=1) = {ratio.min():.4g} <= 1 in floating "
                    "point, not certified",
                    Reason.UNDECIDED,
                )
            findings.append(ratio.min())
    return Verdict.holds(
        "float64, tolerance 0 (strict comparisons of the float64 values): rho in "
        "{1, 0.999}, gamma in {0, 1e-3, 1e-2}: wherever the m_aux = 1 penalty is "
        "l1-like (elasticity < 1.5) on m in [1e-2, 1e2], r~(m_aux = 0.01) exceeds "
        f"r~(m_aux = 1) by a factor >= {min(findings):.3f}",
        Basis.NUMERICAL,
    )


def _check_l1_like_at_099() -> Verdict:
    rows = []
    for gamma_value in SMALL_GAMMAS:
        elasticity = numerics.relu_ptft_log_log_slope(M_NEAR_1, 0.99, 1.0, gamma_value)
        below = int(np.count_nonzero(elasticity < L1_L2_MIDPOINT))
        rows.append((gamma_value, below, elasticity))
    detail = (
        "float64, tolerance 0 (strict comparison with the midpoint 1.5): "
        "d log r~/d log m at rho = 0.99, m_aux = 1, m in [0.5, 2] (41 points; our "
        "reading of 'm ~ 1'): "
        + "; ".join(
            f"gamma={g:g}: from {e.min():.3f} to {e.max():.3f}, at m = 1 "
            f"{e[M_NEAR_1.size // 2]:.3f}, closer to 1 than to 2 at {b} of "
            f"{M_NEAR_1.size}"
            for g, b, e in rows
        )
    )
    if all(b == M_NEAR_1.size for _, b, _ in rows):
        return Verdict.holds(detail + ": l1-like throughout", Basis.NUMERICAL)
    # The float elasticities are accurate to ~1e-12: far below the margins here.
    if all(b == 0 for _, b, _ in rows):
        return Verdict.fails(
            detail + ": closer to 2 throughout", Basis.NUMERICAL, detail
        )
    return Verdict.inconclusive(
        detail + ": l1-like on part of 'm ~ 1' only, near the midpoint 1.5 between "
        "the text's 1 and 2",
        Reason.UNDECIDED,
        Basis.NUMERICAL,
    )


def _check_l1_like_at_099_crossover() -> Verdict:
    m_values = np.logspace(-2, 3, 2001)
    rows = []
    for gamma_value in SMALL_GAMMAS:
        elasticity = numerics.relu_ptft_log_log_slope(m_values, 0.99, 1.0, gamma_value)
        above = np.flatnonzero(elasticity >= 1.5)
        crossover = m_values[above[-1] + 1] if above.size else m_values[0]
        rows.append((gamma_value, float(elasticity.max()), float(crossover)))
    detail = (
        "float64, tolerance 0 (strict comparisons with 1.5 and 2): rho = 0.99, "
        "m_aux = 1: "
    ) + "; ".join(
        f"gamma={g:g}: max elasticity {peak:.3f}, < 1.5 for all m >= {cross:.3g}"
        for g, peak, cross in rows
    )
    return Verdict.decide(
        all(cross <= 2.0 and peak < 2.0 for _, peak, cross in rows),
        detail,
        Basis.NUMERICAL,
    )


def _check_reversal(rho_value: float, worse_with_large_aux: bool) -> Verdict:
    rows = []
    for gamma_value in SMALL_GAMMAS:
        large = numerics.relu_ptft_penalty(M_NEAR_1, rho_value, 10.0, gamma_value)
        small = numerics.relu_ptft_penalty(M_NEAR_1, rho_value, 0.1, gamma_value)
        ok = (large > small) if worse_with_large_aux else (large < small)
        rows.append((gamma_value, int(np.count_nonzero(ok)), large, small))
    centre = M_NEAR_1.size // 2
    detail = (
        "float64, tolerance 0 (strict comparisons of the float64 penalties): "
        f"rho = {rho_value}, m in [0.5, 2] (41 points; our reading of 'm ~ 1'): "
        + "; ".join(
            f"gamma={g:g}: r~(m_aux=100) {'>' if worse_with_large_aux else '<'} "
            f"r~(m_aux=0.01) at {k} of {M_NEAR_1.size} (at m = 1: {a[centre]:.4g} "
            f"and {b[centre]:.4g}; smallest ratio "
            f"{np.min(a / b if worse_with_large_aux else b / a):.4g})"
            for g, k, a, b in rows
        )
    )
    if all(k == M_NEAR_1.size for _, k, _, _ in rows):
        return Verdict.holds(detail, Basis.NUMERICAL)
    # Two numerically minimized penalties: a float comparison is not certified.
    return Verdict.inconclusive(detail, Reason.UNDECIDED, Basis.NUMERICAL)


_GAMMAS = (
    r"$\gamma \in \{0, 10^{-3}, 10^{-2}\}$ (the text's small $\gamma$, never given)"
)


# --- what the numeric claims compare, in the text's notation

_HALF_WAY = sp.Rational(3, 2)


def _elasticity(penalty_symbol: sp.Symbol) -> sp.Expr:
    """d log r~ / d log m_h of a penalty evaluated numerically as a function of m_h."""
    return m * sp.Derivative(sp.log(penalty_symbol), m)


_USED, _UNUSED = penalty_at(m_aux=1), penalty_at(m_aux=0.01)
_AT_099 = penalty_at(rho_value=0.99, m_aux=1)


def _nested_sparsity_formula() -> sp.Basic:
    return sp.Implies(
        sp.Lt(_elasticity(_USED), _HALF_WAY, evaluate=False),
        sp.Gt(_UNUSED, _USED, evaluate=False),
    )


def _l1_like_at_099_crossover_formula() -> sp.Basic:
    return sp.And(
        sp.Implies(
            sp.Ge(m, 2, evaluate=False),
            sp.Lt(_elasticity(_AT_099), _HALF_WAY, evaluate=False),
        ),
        sp.Lt(_elasticity(_AT_099), 2, evaluate=False),
    )


def _reversal_formula(rho_value: float, worse_with_large_aux: bool) -> sp.Basic:
    large = penalty_at(rho_value=rho_value, m_aux=100)
    small = penalty_at(rho_value=rho_value, m_aux=0.01)
    relation = sp.Gt if worse_with_large_aux else sp.Lt
    return relation(large, small, evaluate=False)


_REVERSAL_AT_09 = _reversal_formula(0.9, worse_with_large_aux=True)
_BENEFIT_AT_1 = _reversal_formula(1.0, worse_with_large_aux=False)

CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "sec-1.2",
        "pretrained-norm",
        Kind.IDENTITY,
        "if pretraining minimizes the parameter norm, m0 = sqrt(m_aux)",
        _check_balanced_pretraining,
        Status.HOLDS,
        assumptions=("m_aux > 0",),
        formula=lambda: sp.Eq(m0, sp.sqrt(theory.aux_magnitude)),
        quote=(
            "Following pretraining, the first-layer weights will have the magnitude "
            "$m_{0h}^{(1)} = \\sqrt{m^{\\text{aux}}}$ (this is guaranteed if the "
            "pretrained solution also minimizes the parameter norm, as shown in "
            "Appendix B.2 in our manuscript, also see e.g. [2])."
        ),
        reading=Reading.PROSE,
        regime=(
            "all m_aux > 0 (the text takes m_aux positive without loss of "
            "generality), one unit u w2 = m_aux of minimal u^2 + w2^2 (symbolic)"
        ),
    ),
    Claim(
        SOURCE_ID,
        "sec-1.2",
        "fresh-unit-l1",
        Kind.IDENTITY,
        "a newly initialized unit (m0 = gamma = 0) has penalty 2|m_h|: exactly l1",
        _check_new_unit,
        Status.HOLDS,
        assumptions=("m0 = 0", "gamma = 0"),
        formula=lambda: _eq(theory.penalty, theory.penalty_new_unit()),
        reading=Reading.EXTENSION,
        regime="all m_h != 0 at m0 = gamma = 0 (symbolic; the limit of Fig. 1's "
        "'essentially newly initialized' m_aux = 0.01)",
    ),
    Claim(
        SOURCE_ID,
        "sec-1.2",
        "log-derivative",
        Kind.NUMERIC,
        (
            r"$d\log\tilde r/dm$ (as printed) is closer to 2 where the norm is "
            r"$\ell_2$-like and closer to 1 where it is $\ell_1$-like"
        ),
        _check_log_derivative_as_printed,
        Status.FAILS,
        slip="log-derivative-sec-1.2",
        formula=lambda: sp.Derivative(sp.log(theory.penalty), m),
        quote=(
            "If this derivative is closer to 2, the norm behaves more like an "
            "ℓ_2 -norm, if the derivative is closer to 1, the norm behaves more like "
            "an ℓ_1 -norm (Fig. 1b)."
        ),
        reading=Reading.PROSE,
        regime=(
            r"$m_0 = \gamma = 0$ ($\tilde r = 2|m_h|$, the limit of Fig. 1's "
            r"'essentially newly initialized' $m^{\mathrm{aux}} = 0.01$), $m_h = 1/2$ "
            r"(in the $m \approx 1$ regime the text discusses); 'this derivative' is "
            r"the printed $d\log\tilde r/dm$, and 'closer to' is the text's own "
            "comparison (no threshold of ours)"
        ),
    ),
    Claim(
        SOURCE_ID,
        "sec-1.2",
        "log-log-derivative",
        Kind.NUMERIC,
        (
            r"$d\log\tilde r/d\log|m_h|$ is 1 where $\tilde r$ is $\ell_1$ ($2|m_h|$) "
            r"and tends to 2 where it is $\ell_2$"
        ),
        _check_log_log_derivative,
        Status.HOLDS,
        corrects=_claim_id("sec-1.2", "log-derivative"),
        formula=lambda: _eq(
            m * sp.Derivative(sp.log(theory.penalty), m),
            m * theory.envelope_slope(theory.u_star) / theory.penalty,
        ),
        reading=Reading.EXTENSION,
        regime=(
            r"$m = 10$ at $m_0 = \gamma = 0$ ($\tilde r = 2|m|$), and $m = 10^{-3}$ at "
            r"$\rho = 1$, $m_0 = 10$, $\gamma = 0$ ($\tilde r \approx m^2/m_0^2$)"
        ),
    ),
    Claim(
        SOURCE_ID,
        "sec-1.2",
        "nested-sparsity-gap",
        Kind.NUMERIC,
        (
            r"for $\rho$ near 1, even where the penalty is $\ell_1$-like ($d\log\tilde "
            r"r/d\log m < 1.5$), $m^{\mathrm{aux}} = 1$ gives a smaller penalty than "
            r"$m^{\mathrm{aux}} = 0.01$"
        ),
        _check_nested_sparsity_gap,
        Status.HOLDS,
        formula=_nested_sparsity_formula,
        assumptions=(
            "rho in {1, 0.999}",
            "gamma in {0, 1e-3, 1e-2}",
            "m in [1e-2, 1e2]",
        ),
        quote=(
            "In particular even in the regime where it behaves more ℓ_1 -like (i.e. "
            "the derivative is close to one, Fig. 1b, left), there remains a gap "
            "between $m^{\\text{aux}} = 1$ (indicating a feature used in the "
            "pretraining task) and $m^{\\text{aux}} = 0.01$ (indicating a feature not "
            "used in the pretraining task)."
        ),
        reading=Reading.INTERPRETATION,
        regime=(
            r"$\rho \in \{1, 0.999\}$ (our '$\rho$ near 1'), "
            + _GAMMAS
            + r", $m \in [10^{-2}, 10^2]$ (401 points); '$\ell_1$-like' read as "
            r"$d\log\tilde r/d\log m < 1.5$, the midpoint of the text's 1 and 2, and "
            r"'a gap' as $\tilde r(m^{\mathrm{aux}} = 0.01) > "
            r"\tilde r(m^{\mathrm{aux}} = 1)$"
        ),
    ),
    Claim(
        SOURCE_ID,
        "sec-1.2",
        "l1-like-at-0.99",
        Kind.NUMERIC,
        (
            r"for $\rho = 0.99$ the norm behaves like an $\ell_1$ norm ($d\log\tilde "
            r"r/d\log m$ closer to 1 than to 2) at $m \approx 1$ ($m^{\mathrm{aux}} = "
            "1$)"
        ),
        _check_l1_like_at_099,
        Status.INCONCLUSIVE,
        expected_reason=Reason.UNDECIDED,
        formula=lambda: sp.Lt(_elasticity(_AT_099), _HALF_WAY, evaluate=False),
        assumptions=(
            "rho = 0.99",
            "m_aux = 1",
            "m in [0.5, 2]",
            "gamma in {0, 1e-3, 1e-2}",
        ),
        quote=(
            "Second, we find that for $\\rho < 1$ (even relatively large ρ , e.g. "
            "$\\rho = 0.99$), the norm behaves similarly to an ℓ_1 -norm in the "
            "$m \\approx 1$ regime (i.e. if the finetuning task uses a feature with "
            "the same weight as the pretraining task does, which is the case in our "
            "teacher-student setup)."
        ),
        reading=Reading.INTERPRETATION,
        regime=(
            r"$\rho = 0.99$, $m^{\mathrm{aux}} = 1$ (the same weight as the "
            "pretraining task), "
            + _GAMMAS
            + r", $m \in [0.5, 2]$ (our reading of '$m \approx 1$': within a factor "
            r"2); 'similarly to an $\ell_1$-norm' read as "
            r"$d\log\tilde r/d\log m < 1.5$, the midpoint of the text's 1 and 2"
        ),
    ),
    Claim(
        SOURCE_ID,
        "sec-1.2",
        "l1-like-at-0.99-from-m-2",
        Kind.NUMERIC,
        (
            r"for $\rho = 0.99$ ($m^{\mathrm{aux}} = 1$) the norm is $\ell_1$-like "
            r"($d\log\tilde r/d\log m < 1.5$) for every $m \geq 2$, and never "
            r"$\ell_2$-like (elasticity $< 2$ everywhere)"
        ),
        _check_l1_like_at_099_crossover,
        Status.HOLDS,
        formula=_l1_like_at_099_crossover_formula,
        assumptions=(
            "rho = 0.99",
            "m_aux = 1",
            "m in [1e-2, 1e3] (grid of 2001)",
            "gamma in {0, 1e-3, 1e-2}",
        ),
        reading=Reading.EXTENSION,
        regime=(
            r"$\rho = 0.99$, $m^{\mathrm{aux}} = 1$, "
            + _GAMMAS
            + r", $m \in [10^{-2}, 10^3]$ (2001 log-spaced points)"
        ),
    ),
    Claim(
        SOURCE_ID,
        "sec-1.2",
        "moderate-correlation-reversal",
        Kind.NUMERIC,
        "rho = 0.9, m ~ 1: m_aux = 100 yields a worse (larger) penalty than m_aux = "
        "0.01",
        lambda: _check_reversal(0.9, worse_with_large_aux=True),
        Status.HOLDS,
        formula=lambda: _REVERSAL_AT_09,
        assumptions=("rho = 0.9", "m in [0.5, 2]", "gamma in {0, 1e-3, 1e-2}"),
        quote=(
            "In particular, we observe that if the finetuning task feature is only "
            "moderately correlated with the pretraining task feature (e.g. "
            "$\\rho = 0.9$), then if the weight of that pretraining task feature "
            "m^{aux} is much larger than the weight of the corresponding finetuning "
            "task feature (e.g. $m^{\\text{aux}} = 100$, $m \\approx 1$), it actually "
            "yields a worse penalty than a if the pretraining task feature has "
            "smaller weight ($m^{\\text{aux}} = 0.01$)."
        ),
        reading=Reading.INTERPRETATION,
        regime=(
            r"the text's example $\rho = 0.9$, $m^{\mathrm{aux}} = 100$ against "
            r"$0.01$, "
            + _GAMMAS
            + r", $m \in [0.5, 2]$ (our reading of '$m \sim 1$': within a factor 2)"
        ),
    ),
    Claim(
        SOURCE_ID,
        "sec-1.2",
        "perfect-correlation-benefit",
        Kind.NUMERIC,
        "rho = 1, m ~ 1: the opposite: m_aux = 100 yields a smaller penalty than m_aux "
        "= 0.01",
        lambda: _check_reversal(1.0, worse_with_large_aux=False),
        Status.HOLDS,
        formula=lambda: _BENEFIT_AT_1,
        assumptions=("rho = 1", "m in [0.5, 2]", "gamma in {0, 1e-3, 1e-2}"),
        quote="This is the opposite of the behavior in the $\\rho = 1$ case!",
        reading=Reading.INTERPRETATION,
        regime=(
            r"$\rho = 1$, $m^{\mathrm{aux}} = 100$ against $0.01$, "
            + _GAMMAS
            + r", $m \in [0.5, 2]$ (our reading of '$m \sim 1$': within a factor 2)"
        ),
    ),
)
