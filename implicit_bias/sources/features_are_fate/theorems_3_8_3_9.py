r"""Claims of features-are-fate, Sections 3.3.1 and 3.4: Theorems 3.8 and 3.9.

Ridge regularization (15) as the lambda > 0 extension of (12), increasing in
lambda (so it cannot fix negative transfer), and the fine-tuning
transferability (17) = (10) - (16) with its sign change at theta = pi/3; and
the float64 evaluators of every risk of Theorems 3.6-3.9 ((10)-(17), claim
``10-17``) against the SymPy expressions at 50 digits.
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp

from implicit_bias.claims.checks import (
    check_close,
    check_identity,
    relation_check,
)
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
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
    _SIGMA,
    _STEP_SECONDS,
    _THETA,
    _U,
    _ULPS,
    _numerical_or_undecided,
)

__all__ = ["CLAIMS"]


def _ridge_from_12() -> sp.Basic:
    """lim_{n -> oo} (12) = (15) at lambda = 0."""
    return sp.Eq(
        sp.Limit(tr.linear_transfer_risk(), tr.n, sp.oo),
        tr.ridge_transfer_risk().subs(tr.lam, 0),
        evaluate=False,
    )


def _ridge_slope() -> sp.Basic:
    """dR/dlambda = 2 lambda cos^2 theta/(1+lambda)^3, > 0 for lambda > 0 and
    cos theta != 0 (constant 1 at theta = pi/2): lambda* = 0, and
    T^lambda = R_sc - R^lambda decreases in lambda, so the negative-transfer
    region only grows."""
    return sp.Eq(
        sp.diff(tr.ridge_transfer_risk(), tr.lam),
        2 * tr.lam * _COS2 / (1 + tr.lam) ** 3,
        evaluate=False,
    )


def _check_eq17_from_16() -> Verdict:
    # gamma = 1 + s with s > 0 selects the gamma > 1 branches of every Piecewise.
    above = 1 + sp.Symbol("s", positive=True)
    return all_hold(
        {
            "gamma < 1": check_identity(
                tr.finetune_transferability_overparameterized(),
                tr.scratch_risk_overparameterized()
                - tr.finetune_risk_overparameterized(),
            ),
            "gamma > 1": check_identity(
                tr.finetune_transferability().subs(_GAMMA, above),
                tr.scratch_risk().subs(_GAMMA, above)
                - tr.finetune_risk().subs(_GAMMA, above),
            ),
        }
    )


def _check_finetune_sign() -> Verdict:
    with time_limit(_STEP_SECONDS):
        root = sp.solve(sp.Eq(2 * sp.cos(_THETA) - 1, 0), _THETA)
    factor = check_identity(
        tr.finetune_transferability_overparameterized(),
        (1 - _GAMMA) * (2 * sp.cos(_THETA) - 1),
    )
    in_range = [r for r in root if 0 <= r <= sp.pi]
    if factor.status != Status.HOLDS:
        return factor
    if in_range == [sp.pi / 3]:
        return factor.with_detail(
            "T_ft = (1-gamma)(2 cos theta - 1) for gamma <= 1, and 2 cos theta - 1 "
            "decreases on [0, pi] through its only zero theta = pi/3: T_ft > 0 for "
            f"theta < pi/3, < 0 for theta > pi/3 (gamma < 1), 0 for gamma >= 1 "
            f"({factor.detail})"
        )
    return Verdict.fails(
        f"zeros of 2 cos theta - 1 on [0, pi]: {in_range}; {factor.detail}",
        Basis.PROOF,
        f"2 cos theta - 1 = 0 on [0, pi] at theta in {in_range}, not only pi/3",
    )


def _check_evaluators() -> Verdict:
    """The float64 evaluators against the theory expressions at 50 digits."""
    rng = np.random.default_rng(7)
    size = 300
    gamma_values = np.concatenate(
        [rng.uniform(0.01, 0.99, size // 2), rng.uniform(1.01, 5.0, size // 2)]
    )
    theta_values = rng.uniform(0.0, np.pi, size)
    sigma_values = rng.uniform(0.0, 2.0, size)
    n_values = rng.uniform(2.5, 1e4, size)
    lam_values = rng.uniform(0.0, 10.0, size)
    cases: list[tuple[str, np.ndarray, sp.Expr, tuple[sp.Symbol, ...], tuple]] = [
        (
            "scratch_risk",
            numerics.scratch_risk(gamma_values, sigma_values),
            tr.scratch_risk(),
            (_GAMMA, _SIGMA),
            (gamma_values, sigma_values),
        ),
        (
            "linear_transfer_risk",
            numerics.linear_transfer_risk(n_values, theta_values, sigma_values),
            tr.linear_transfer_risk(),
            (tr.n, _THETA, _SIGMA),
            (n_values, theta_values, sigma_values),
        ),
        (
            "linear_transferability",
            numerics.linear_transferability(gamma_values, theta_values, sigma_values),
            tr.linear_transferability(),
            (_GAMMA, _THETA, _SIGMA),
            (gamma_values, theta_values, sigma_values),
        ),
        (
            "ridge_transfer_risk",
            numerics.ridge_transfer_risk(lam_values, theta_values),
            tr.ridge_transfer_risk(),
            (tr.lam, _THETA),
            (lam_values, theta_values),
        ),
        (
            "finetune_risk",
            numerics.finetune_risk(
                gamma_values, theta_values, sigma_values, form="printed"
            ),
            tr.finetune_risk(),
            (_GAMMA, _THETA, _SIGMA),
            (gamma_values, theta_values, sigma_values),
        ),
        (
            "finetune_transferability",
            numerics.finetune_transferability(
                gamma_values, theta_values, form="printed"
            ),
            tr.finetune_transferability(),
            (_GAMMA, _THETA),
            (gamma_values, theta_values),
        ),
    ]
    report = []
    comparisons = []
    with mpmath.workdps(50):
        for name, fast, expression, symbols, arguments in cases:
            terms = sp.Add.make_args(sp.expand(_branch_sum_of_abs(expression)))
            exact = sp.lambdify(symbols, expression, modules="mpmath")
            size_of = sp.lambdify(symbols, sp.Add(*terms), modules="mpmath")
            # The error fast - exact at 50 digits, then rounded: its relative
            # rounding (u) is far below the bound it is compared with.
            errors = np.empty(size)
            scales = np.empty(size)
            for index in range(size):
                point = [mpmath.mpf(float(a[index])) for a in arguments]
                errors[index] = float(mpmath.mpf(float(fast[index])) - exact(*point))
                scales[index] = float(abs(size_of(*point)) + mpmath.mpf(2) ** -1074)
            worst = float(np.max(np.abs(errors) / scales)) / _U
            comparisons.append(
                check_close(
                    errors, 0.0, _ULPS * _U * scales, what=f"{name} - 50-digit value"
                )
            )
            report.append(f"{name} {worst:.2f}")
    detail = (
        f"{size} random points (gamma in (0.01, 5) away from 1, theta in [0, pi], "
        "sigma in [0, 2], n in (2.5, 1e4), lambda in [0, 10]): max error of the "
        "float64 evaluators against the expressions at 50 digits, in units of "
        f"u = 2^-53 x (sum of |terms|): {', '.join(report)} (tolerance {_ULPS:g} u x "
        "that sum)"
    )
    verdict = conjunction(
        comparisons, f"{detail}; " + "; ".join(c.detail for c in comparisons)
    )
    return _numerical_or_undecided(verdict)


def _branch_sum_of_abs(expression: sp.Expr) -> sp.Expr:
    """The size of an expression's terms, branch by branch (for error bounds)."""
    if isinstance(expression, sp.Piecewise):
        return sp.Piecewise(
            *[(_branch_sum_of_abs(e), condition) for e, condition in expression.args]
        )
    return sp.Add(*[sp.Abs(term) for term in sp.Add.make_args(sp.expand(expression))])


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "15",
        "from-12",
        Kind.IDENTITY,
        "at lambda = 0, (15) is the n -> oo limit of (12), sin^2 theta",
        relation_check(_ridge_from_12, budget_seconds=_STEP_SECONDS),
        Status.HOLDS,
        assumptions=("Assumptions 3.1-3.2", "n -> oo"),
        formula=_ridge_from_12,
        budget_seconds=_BUDGET,
        quote="lim_{n→∞} E_D R^λ_lt = 1 − cos²θ (1+2λ)/(1+λ)² (15)",
        reading=Reading.EXTENSION,
        regime="lambda = 0, theta symbolic: a consistency of (15) with (12) the text "
        "does not state",
    ),
    Claim(
        SOURCE_ID,
        "15",
        "increasing",
        Kind.INEQUALITY,
        "(15) is a strictly increasing function of lambda, so ridge regularization "
        "enlarges the region of negative transfer for any lambda > 0",
        relation_check(_ridge_slope, budget_seconds=_STEP_SECONDS),
        Status.HOLDS,
        assumptions=("Assumptions 3.1-3.2", "n -> oo", "cos theta != 0"),
        formula=_ridge_slope,
        budget_seconds=_BUDGET,
        quote="we show that the generalization error for regularized linear transfer "
        "is a strictly increasing function of the ridge parameter λ, leading to a "
        "larger region of negative transfer for any λ > 0",
        reading=Reading.PROSE,
        regime="lambda >= 0, theta with cos theta != 0 symbolic: the main text names "
        "no theta range and calls the useful features 'those with θ < π/2' "
        "(Fig. 2, lambda in [0, 0.6])",
    ),
    Claim(
        SOURCE_ID,
        "17",
        "from-16",
        Kind.IDENTITY,
        "(17) = (10) - (16) in both regimes",
        _check_eq17_from_16,
        Status.HOLDS,
        assumptions=_DEEP_LINEAR,
        formula=lambda: sp.Eq(
            tr.transferability_finetune, tr.finetune_transferability()
        ),
        budget_seconds=_BUDGET,
        quote="T_ft = (γ−1)(1−2cosθ) for γ ≤ 1; 0 for γ > 1 (17)",
        reading=Reading.PRINTED,
        regime="all gamma, theta, sigma symbolic, as (16)-(17) are stated",
    ),
    Claim(
        SOURCE_ID,
        "17",
        "sign",
        Kind.INEQUALITY,
        "for gamma < 1 fine-tuning transfers positively for theta < pi/3 and "
        "negatively for theta > pi/3; for gamma > 1 the transferability is 0",
        _check_finetune_sign,
        Status.HOLDS,
        formula=lambda: nt.eq(
            sp.sign(tr.finetune_transferability_overparameterized()),
            sp.sign(sp.pi / 3 - _THETA),
        ),
        assumptions=(*_DEEP_LINEAR, "theta in [0, pi]"),
        budget_seconds=_BUDGET,
        quote="For θ < π/3, the pretrained features are beneficial, leading to "
        "positive transfer. For θ > π/3, however, the pretrained features bias the "
        "network too strongly toward the source task, leading to negative transfer.",
        reading=Reading.PROSE,
        regime="0 < gamma < 1 and theta in [0, pi] symbolic (Fig. 3 shows "
        "theta in [0, pi/2]), as the sentences state it",
    ),
    Claim(
        SOURCE_ID,
        "10-17",
        "evaluators",
        Kind.NUMERIC,
        "the float64 evaluators of (10), (12), (13), (15), (16), (17) agree with the "
        "SymPy expressions at 50 digits to a few units of roundoff",
        _check_evaluators,
        Status.HOLDS,
        formula=lambda: nt.eq(nt.f64_transfer_value, nt.reference_transfer_value),
        assumptions=("float64 arguments taken exactly",),
        budget_seconds=_BUDGET,
        quote="",
        reading=Reading.EXTENSION,
        regime="300 random points, gamma in (0.01, 5) away from 1, theta in [0, pi], "
        "sigma in [0, 2], n in (2.5, 1e4), lambda in [0, 10]: our evaluators, bound "
        "16 u from their operation count",
    ),
)
