r"""Claims of features-are-fate, Section 3: the risks against Monte Carlo.

Monte-Carlo means of the generalization error over draws of the target data
(:mod:`implicit_bias.validation.transfer_experiments`, closed-form endpoints)
against the risk formulas of Theorems 3.6-3.9
(:mod:`implicit_bias.numerics.transfer_risks`, exact finite-size forms in
:mod:`implicit_bias.numerics.transfer_asymptotics`): the scratch risk (10),
linear transfer (12), ridge (15) (Fig. 2) and fine-tuning (16), as printed
and corrected. Each check's paper configuration is sized by a power
calculation. Tolerances: :mod:`._simulations`.
"""

from __future__ import annotations

import numpy as np

from implicit_bias.claims.profiles import Configuration, PowerCalculation
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
from implicit_bias.sources.features_are_fate._common import mean_close
from implicit_bias.sources.features_are_fate._finite_size import (
    ridge_correction,
    scratch_correction,
)
from implicit_bias.sources.features_are_fate import notation as nt
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.numerics.transfer_asymptotics import (
    ridge_transfer_risk_finite,
    scratch_risk_finite,
)
from implicit_bias.numerics.transfer_risks import (
    linear_transfer_risk,
    ridge_transfer_risk,
    scratch_risk,
)
from implicit_bias.theory import transfer_asymptotics as asymptotics
from implicit_bias.theory import transfer_risks as tr
from implicit_bias.validation.transfer_experiments import (
    compare_mean,
    endpoint_risks,
)
from implicit_bias.sources.features_are_fate._simulations import (
    _Z,
    _at_power,
    _claim_id,
    _corrected_excess,
    _endpoint_draws,
)

__all__ = ["CLAIMS"]


_SCRATCH_DRAWS = _endpoint_draws(90, 60, 0.4, 0.5, 300, points=2)
_LINEAR_DRAWS = _endpoint_draws(40, 30, 3 * np.pi / 8, 1.0, 2000, points=2)
_RIDGE_DRAWS = _endpoint_draws(250, 20, np.pi / 8, 0.2, 600, 2, (0.0, 0.2, 0.6))
_FINETUNE_DRAWS = _endpoint_draws(60, 120, 3 * np.pi / 8, 1.0, 300)


# Power calculations. Each pilot is the claim's own check at its default size
# (its per-draw sd read from the same draws); the effect is what the source
# reports at the point of the check that needs the most draws, and z the
# standard errors the check decides at.
POWER_SCRATCH = PowerCalculation(
    effect=0.5,
    effect_quote="eq. (10): E R = sigma^2/(gamma - 1) = 0.5 at gamma = 1.5, "
    "sigma = 0.5",
    pilot_sd=0.171,
    pilot_seeds=300,
    pilot="the check's n = 90, d = 60, 300 draws (seed 3)",
    z=_Z,
)
POWER_LINEAR_RISK = PowerCalculation(
    effect=0.0186,
    effect_quote="eq. (12): its finite-n term (sigma^2 + sin^2 theta)/(n - 2) = "
    "0.0186 at n = 12, theta = pi/8, sigma = 0.2",
    pilot_sd=0.0323,
    pilot_seeds=2000,
    pilot="the check's n = 12, d = 30, 2000 draws (seed 4)",
    z=_Z,
)
POWER_RIDGE = PowerCalculation(
    effect=0.120,
    effect_quote="Fig. 2: R_lt^lambda rises from ~0.15 at lambda = 0 to ~0.26 at "
    "lambda = 0.6 (gamma = 0.5); (15) at theta = pi/8: 0.146 to 0.266",
    pilot_sd=0.0471,
    pilot_seeds=600,
    pilot="the check's n = 40, d = 20, lambda = 0.6, 600 draws (seed 6)",
    z=_Z,
)
POWER_FINETUNE_RISK = PowerCalculation(
    effect=0.164,
    effect_quote="eq. (16) as printed, (1 - gamma)(1 - 2 cos theta) = 0.117 at "
    "gamma = 1/2, theta = 3pi/8, against the corrected limit 0.281",
    pilot_sd=0.123,
    pilot_seeds=300,
    pilot="the check's n = 60, d = 120, sigma = 1, 300 draws of R_ft - R_sc",
    z=_Z,
)


def _paper_scratch() -> Configuration:
    return _at_power(
        _check_scratch_risk,
        300,
        POWER_SCRATCH,
        "n = 30, 90, d = 60, sigma = 0.5",
        lambda draws: _endpoint_draws(90, 60, 0.4, 0.5, draws, points=2),
    )


def _paper_linear_risk() -> Configuration:
    return _at_power(
        _check_linear_transfer_risk,
        2000,
        POWER_LINEAR_RISK,
        "n = 12, 40, d = 30",
        lambda draws: _endpoint_draws(40, 30, 3 * np.pi / 8, 1.0, draws, points=2),
    )


def _paper_finetune_risk(corrected: bool) -> Configuration:
    return _at_power(
        lambda draws: _check_finetune_risk(corrected, draws),
        300,
        POWER_FINETUNE_RISK,
        "n = 60, d = 120, theta = 3pi/8, sigma = 1",
        lambda draws: _endpoint_draws(60, 120, 3 * np.pi / 8, 1.0, draws),
        expected=Status.HOLDS if corrected else Status.FAILS,
    )


#: Fig. 2 at App. D.1's d = 500: gamma = 0.5 is n = 250.
PAPER_RIDGE_SIZES, PAPER_RIDGE_DIMENSION = (250,), 500
PAPER_RIDGE_DRAWS = max(20, POWER_RIDGE.seeds)


def _paper_ridge() -> Configuration:
    return Configuration(
        "Fig. 2: 'generalization error for gamma = 0.5 ... standard deviation over "
        "20 realizations of the target dataset', App. D.1's d = 500: n = 250, "
        f"{PAPER_RIDGE_DRAWS} draws (max(20, the power calculation's "
        f"{POWER_RIDGE.seeds})), lambda = 0, 0.2, 0.6; theta = pi/8 and sigma = "
        "0.2 are ours (Fig. 2 gives neither; App. D.1's sigma = 0.2)",
        lambda: _check_ridge_risk(
            PAPER_RIDGE_SIZES, PAPER_RIDGE_DIMENSION, PAPER_RIDGE_DRAWS
        ),
        budget_seconds=600.0,
        expected=Status.HOLDS,
        cost=_endpoint_draws(
            250, 500, np.pi / 8, 0.2, PAPER_RIDGE_DRAWS, 1, (0.0, 0.2, 0.6)
        ).cost,
        power=POWER_RIDGE,
    )


def _check_scratch_risk(draws: int = 300) -> Verdict:
    parts, verdicts = [], []
    for samples, dimension, sigma in ((30, 60, 0.5), (90, 60, 0.5)):
        risks = endpoint_risks(samples, dimension, 0.4, sigma, draws=draws, seed=3)
        exact = float(scratch_risk_finite(samples, dimension, sigma))
        limit = float(scratch_risk(samples / dimension, sigma))
        # Eq. (10) is the d -> oo limit: it predicts E_{n,d} = (10) + Delta_{n,d},
        # Delta derived from the exact finite form alone (never from (10)), so a
        # wrong (10) misses by its error; the tolerance is z SE only.
        correction = scratch_correction(samples, dimension, sigma)
        finite = compare_mean(risks.scratch, exact, z=_Z)
        asymptotic = compare_mean(risks.scratch, limit + correction, z=_Z)
        where = f"n = {samples}, d = {dimension}"
        verdicts += [
            mean_close(finite, f"{where}: mean risk against the exact finite risk"),
            mean_close(
                asymptotic, f"{where}: mean risk against eq. (10) + Delta_(n,d)"
            ),
        ]
        parts.append(
            f"n = {samples}, d = {dimension}, sigma = {sigma}, {draws} draws: "
            f"{finite.describe()} (exact finite-size); eq. (10) = {limit:.5f}, "
            f"+ Delta_(n,d) = {correction:.5f}: {asymptotic.deviation:+.1f} SE"
        )
    detail = (
        f"within {_Z:g} SE of the exact finite risk and of eq. (10) + its finite-size "
        "correction Delta_(n,d) (the exact finite form minus its own d -> oo limit; "
        "float64): " + "; ".join(parts)
    )
    return conjunction(verdicts, detail)


def _check_linear_transfer_risk(draws: int = 2000) -> Verdict:
    parts, verdicts = [], []
    for samples, theta, sigma in ((12, np.pi / 8, 0.2), (40, 3 * np.pi / 8, 1.0)):
        risks = endpoint_risks(samples, 30, theta, sigma, draws=draws, seed=4)
        comparison = compare_mean(
            risks.linear, float(linear_transfer_risk(samples, theta, sigma)), z=_Z
        )
        verdicts.append(
            mean_close(comparison, f"n = {samples}: mean risk against eq. (12)")
        )
        parts.append(
            f"n = {samples}, theta = {theta:.4f}, sigma = {sigma}: "
            f"{comparison.describe()}"
        )
    detail = (
        f"eq. (12) is exact at finite n; {draws} draws each, within {_Z:g} SE: "
        + "; ".join(parts)
    )
    return conjunction(verdicts, detail)


def _check_ridge_risk(
    sizes: tuple[int, ...] = (40, 250), dimension: int = 20, draws: int = 600
) -> Verdict:
    parts, verdicts = [], []
    lams = (0.0, 0.2, 0.6)
    for samples in sizes:
        risks = endpoint_risks(
            samples, dimension, np.pi / 8, 0.2, draws=draws, seed=6, ridges=lams
        )
        for r, lam in enumerate(lams):
            exact = float(ridge_transfer_risk_finite(samples, lam, np.pi / 8, 0.2))
            limit = float(ridge_transfer_risk(lam, np.pi / 8))
            # Eq. (15) is the n -> oo limit: it predicts E_n = (15) + Delta_n,
            # Delta_n = eq. (128) minus its own n^0 term (never (15) itself).
            correction = ridge_correction(samples, lam, np.pi / 8, 0.2)
            finite = compare_mean(risks.ridge[r], exact, z=_Z)
            asymptotic = compare_mean(risks.ridge[r], limit + correction, z=_Z)
            where = f"n = {samples}, lambda = {lam}"
            verdicts += [
                mean_close(finite, f"{where}: mean risk against eq. (128)"),
                mean_close(
                    asymptotic, f"{where}: mean risk against eq. (15) + Delta_n"
                ),
            ]
            parts.append(
                f"n = {samples}, lambda = {lam}: {finite.describe()}; eq. (15) "
                f"{limit:.5f} + Delta_n {correction:.5f}: "
                f"{asymptotic.deviation:+.1f} SE"
            )
    detail = (
        f"theta = pi/8, sigma = 0.2, d = {dimension}, {draws} draws, within "
        f"{_Z:g} SE of eq. (128) and of eq. (15) + its finite-size correction "
        "Delta_n (eq. (128) minus its own n^0 term; float64 quadrature): "
        + "; ".join(parts)
    )
    return conjunction(verdicts, detail)


def _finetune_excess(
    samples: int, dimension: int, theta: float, sigma: float, draws: int
) -> tuple[np.ndarray, np.ndarray]:
    risks = endpoint_risks(samples, dimension, theta, sigma, draws=draws, seed=7)
    # Paired: R_ft - R_sc on the same draws removes the noise term's variance.
    return risks.finetune - risks.scratch, risks.finetune_printed - risks.scratch


def _check_finetune_risk(corrected: bool, draws: int = 300) -> Verdict:
    samples, dimension, theta, sigma = 60, 120, 3 * np.pi / 8, 1.0
    gamma = samples / dimension
    excess, printed_excess = _finetune_excess(samples, dimension, theta, sigma, draws)
    as_printed = (1 - gamma) * (1 - 2 * np.cos(theta))
    limit = _corrected_excess(gamma, theta, sigma)
    # Finite-size bias: the scale c^2 solves c^2 = A + B / c^2 with
    # A = ||(I-P) beta_s||^2, B = ||X^+ y||^2, whose exact means are 1 - n/d and
    # n/d + sigma^2 n/(d - n - 1). The prediction at those means differs from
    # the limit by the O(1/d) shift computed below; the Jensen term from the
    # O(1/sqrt(d)) fluctuations of A and B is also O(1/d), estimated (not
    # derived) as at most 2/d. The verdict does not hinge on it: the mean is
    # within 4 SE without any bias allowance (see the detail), and the
    # as-printed claim misses by about 9 times the whole allowance.
    # That prediction is the limit's formula with sigma^2 gamma / (1 - gamma),
    # the limit of B - gamma, replaced by its exact mean sigma^2 n/(d - n - 1).
    exact_noise = sigma * np.sqrt(
        samples * (1 - gamma) / (gamma * (dimension - samples - 1))
    )
    finite = _corrected_excess(gamma, theta, exact_noise)
    c2 = asymptotics.finetune_scale_limit().subs(
        {asymptotics.gamma_ratio: gamma, asymptotics.sigma: exact_noise}
    )
    bias = abs(finite - limit) + 2 / dimension
    if not corrected:
        # (1 - n/d)(1 - 2 cos theta) is the exact finite-size value for eq.
        # (142)'s endpoint as printed (the control); the gradient-flow endpoint
        # is allowed the same finite-size bias as the corrected prediction.
        comparison = compare_mean(excess, as_printed, z=_Z, bias_bound=bias)
        control = compare_mean(printed_excess, as_printed, z=_Z)
        detail = (
            f"n = {samples}, d = {dimension}, theta = 3pi/8, sigma = {sigma}, {draws} "
            f"draws of E R_ft - E R_sc for the gradient-flow endpoint (closed form "
            f"alpha -> 0, t -> oo, no iteration to converge): "
            f"{comparison.describe()} (eq. 16, allowed {_Z:g} SE + finite-size "
            f"bias {bias:.3f}); for eq. (142)'s endpoint as printed: "
            f"{control.describe()}"
        )
        if comparison.agrees:
            return Verdict.holds(detail, Basis.STATISTICAL)
        # The miss counts only if the same draws reproduce (16) for the printed
        # endpoint: then the formula, not the simulation, is off.
        if control.agrees:
            return Verdict.fails(
                detail,
                Basis.STATISTICAL,
                f"n = {samples}, d = {dimension}, theta = 3pi/8, sigma = {sigma}: "
                f"mean {comparison.mean:+.4f} +- {comparison.standard_error:.4f} "
                f"vs (16) {as_printed:+.4f}",
            )
        return Verdict.inconclusive(detail, Reason.STATISTICAL)
    comparison = compare_mean(excess, limit, z=_Z, bias_bound=bias)
    detail = (
        f"n = {samples}, d = {dimension}, theta = 3pi/8, sigma = {sigma}, {draws} "
        f"draws of R_ft - R_sc: {comparison.describe()} against (1 - gamma)(c^2 - "
        f"2c cos theta), c^2 = {float(c2):.4f} (finite-size means), allowed "
        f"{_Z:g} SE + bias {bias:.3f}"
    )
    return mean_close(
        comparison, "mean R_ft - R_sc against the corrected limit + bias"
    ).with_detail(detail)


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "10",
        "monte-carlo",
        Kind.SIMULATION,
        "the expected risk of the minimum-norm solution is eq. (10) in the limit "
        "(exact finite-size form: scratch_risk_finite)",
        _check_scratch_risk,
        Status.HOLDS,
        cost=_SCRATCH_DRAWS.cost,
        paper=_paper_scratch(),
        formula=lambda: nt.eq(nt.mc_risk_scratch, tr.scratch_risk()),
        quote=("E_D R = (1−γ)^2+γσ^2 / (1−γ) for γ < 1; σ^2/(γ−1) for γ > 1"),
        reading=Reading.PRINTED,
        regime=(
            "gamma = 0.5 (n = 30, d = 60) and 1.5 (n = 90), sigma = 0.5, 300 "
            "draws of the min-norm endpoint (Theorem 3.5): (10) is the n, d -> "
            "oo limit, so it is compared (4 SE) with its finite-size correction "
            "Delta_(n,d) added, derived from the exact finite form alone"
        ),
    ),
    Claim(
        SOURCE_ID,
        "12",
        "monte-carlo",
        Kind.SIMULATION,
        "E R_lt = sin^2 theta + (sigma^2 + sin^2 theta)/(n - 2) over draws of the "
        "target data",
        _check_linear_transfer_risk,
        Status.HOLDS,
        cost=_LINEAR_DRAWS.cost,
        paper=_paper_linear_risk(),
        formula=lambda: nt.eq(nt.mc_risk_linear, tr.linear_transfer_risk()),
        quote=("E_D R_lt = sin^2θ + (σ^2 + sin^2θ)/(n − 2)."),
        reading=Reading.PRINTED,
        regime=(
            "n = 12 (theta = pi/8, sigma = 0.2) and n = 40 (theta = 3pi/8, "
            "sigma = 1), d = 30, 2000 draws of the closed-form endpoint b "
            "beta_s: (12) is stated at finite n (Theorem 3.7)"
        ),
    ),
    Claim(
        SOURCE_ID,
        "15",
        "monte-carlo",
        Kind.SIMULATION,
        "ridge linear transfer: E R_lt^lambda -> 1 - cos^2 theta (1 + 2 lambda)/"
        "(1 + lambda)^2 (exact finite-n form eq. 128)",
        _check_ridge_risk,
        Status.HOLDS,
        cost=_RIDGE_DRAWS.cost,
        paper=_paper_ridge(),
        formula=lambda: nt.eq(nt.mc_risk_ridge, tr.ridge_transfer_risk()),
        quote=("lim_{n→∞} E_D R_lt^λ = 1 − cos^2θ (1+2λ)/(1+λ)^2"),
        reading=Reading.PRINTED,
        regime=(
            "lambda = 0, 0.2, 0.6 (Fig. 2's range [0, 0.6]), theta = pi/8, "
            "sigma = 0.2, d = 20, n = 40 and 250, 600 draws; the n -> oo limit "
            "is compared (4 SE) with its finite-n correction added (eq. (128) "
            "minus its own n^0 term)"
        ),
    ),
    Claim(
        SOURCE_ID,
        "16",
        "monte-carlo",
        Kind.SIMULATION,
        "E R_ft = E R_sc + (1 - gamma)(1 - 2 cos theta) for gamma <= 1, for the "
        "model fine-tuned by gradient flow",
        lambda: _check_finetune_risk(corrected=False),
        Status.FAILS,
        slip="finetune-endpoint-142",
        cost=_FINETUNE_DRAWS.cost,
        paper=_paper_finetune_risk(corrected=False),
        formula=lambda: nt.eq(
            nt.mc_finetune_excess,
            tr.finetune_risk_overparameterized() - tr.scratch_risk_overparameterized(),
        ),
        assumptions=("sigma = 1 > 0; the endpoint is the gradient-flow one",),
        quote=("E_D R_ft = E_D R_sc + (1 − γ)(1 − 2cosθ) for γ ≤ 1"),
        reading=Reading.PRINTED,
        regime=(
            "gamma = 1/2 (n = 60, d = 120), theta = 3pi/8, sigma = 1: Theorem "
            "3.9 is stated under Assumption 3.1 for any label noise (Fig. 3 "
            "uses sigma = 0.2); 300 draws of the closed-form gradient-flow "
            "endpoint, 4 SE plus a finite-size bias allowance"
        ),
    ),
    Claim(
        SOURCE_ID,
        "16",
        "monte-carlo-corrected",
        Kind.SIMULATION,
        "E R_ft - E R_sc -> (1 - gamma)(c^2 - 2 c cos theta), c^2 the positive "
        "root of c^4 = (1 - gamma) c^2 + gamma + sigma^2 gamma/(1 - gamma); "
        "eq. (16) is the case sigma = 0",
        lambda: _check_finetune_risk(corrected=True),
        Status.HOLDS,
        cost=_FINETUNE_DRAWS.cost,
        paper=_paper_finetune_risk(corrected=True),
        formula=lambda: nt.eq(
            nt.mc_finetune_excess, asymptotics.finetune_risk_limit_corrected()
        ),
        corrects=_claim_id("16", "monte-carlo"),
        quote=("E_D R_ft = E_D R_sc + (1 − γ)(1 − 2cosθ) for γ ≤ 1"),
        reading=Reading.EXTENSION,
        regime=(
            "gamma = 1/2 (n = 60, d = 120), theta = 3pi/8, sigma = 1, 300 "
            "draws, 4 SE plus the finite-size bias: our corrected limit of (16) "
            "for sigma > 0"
        ),
    ),
)
