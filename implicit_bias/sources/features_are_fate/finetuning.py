r"""Claims of features-are-fate, Appendix B: gradient flow and fine-tuning.

The conservation law (35) of the deep linear network's gradient flow, checked
symbolically (:mod:`implicit_bias.theory.transfer_asymptotics`), and the
fine-tuning endpoint and excess risk of the proof of Theorem 3.9, eqs.
(142)-(144), checked by gradient descent
(:mod:`implicit_bias.validation.deep_linear_networks`) against the endpoints of
:mod:`implicit_bias.numerics.transfer_endpoints` and by Monte Carlo.

Tolerances. A Monte Carlo mean must lie within 4 standard errors of the exact
value (a two-sided normal probability of 6e-5 of failing by chance; seeds are
fixed). Gradient descent is a first-order discretization of the flow: its
endpoint error must have observed order in the step size within 0.15 of 1.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import sympy as sp

from implicit_bias.claims.certify import certified_nonzero
from implicit_bias.claims.checks import check_close, check_identity
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
from implicit_bias.sources.features_are_fate._common import (
    ORDER_TOLERANCE,
    STANDARD_ERRORS,
    claim_id,
    holds_if,
)
from implicit_bias.sources.features_are_fate import notation as nt
from implicit_bias.claims.profiles import Configuration, PowerCalculation
from implicit_bias.sources.features_are_fate._costs import (
    FinetuneRuns,
    MonteCarloDraws,
)
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.numerics import transfer_endpoints as endpoints
from implicit_bias.theory import transfer_asymptotics as theory
from implicit_bias.validation import deep_linear_networks as networks

__all__ = ["CLAIMS"]

#: Gradient descent stops once the training residual ||X beta - y|| is below
#: this: 1e-13 against endpoint distances of order eta ~ 1e-2 (to the corrected
#: endpoint) and 1 (to the printed one).
_RESIDUAL_TOLERANCE = 1e-13
#: Cap on gradient-descent steps: at eta = 0.01 the runs stop after ~4400.
_MAX_GD_STEPS = 2_000_000

_gamma, _theta, _sigma = theory.gamma_ratio, theory.theta, theory.sigma


# --- eq. (35)


def _check_conservation_law() -> Verdict:
    depth, width, samples = 3, 2, 2
    weights = [theory.symbol_matrix(f"w{layer}", width, width) for layer in (1, 2)]
    weights.append(theory.symbol_matrix("w3", width, 1))
    data = theory.symbol_matrix("x", samples, width)
    y = theory.symbol_matrix("y", samples, 1)
    velocities = theory.gradient_flow_velocities(
        weights, theory.squared_loss(weights, data, y)
    )
    for layer in range(1, depth):
        rate = theory.flow_time_derivative(
            theory.balance_matrix(weights, layer), weights, velocities
        )
        # The entries are expanded polynomials in the symbols: one that is not
        # 0 is a nonzero polynomial, an exact refutation.
        if rate != sp.zeros(*rate.shape):
            return Verdict.fails(
                f"dD_{layer}/dt = {sp.sstr(rate)} != 0 (expanded polynomials)",
                Basis.PROOF,
                f"L = {depth}, d = {width}, n = {samples}: dD_{layer}/dt = "
                f"{sp.sstr(rate)}",
            )
    scaled = [theory.alpha * w for w in weights]
    initial = theory.balance_matrix(scaled, 1) - theory.alpha**2 * (
        theory.balance_matrix(weights, 1)
    )
    if initial.applyfunc(sp.expand) != sp.zeros(width, width):
        return Verdict.fails(
            "D_1(alpha W) != alpha^2 D_1(W) (expanded polynomials)",
            Basis.PROOF,
            f"D_1(alpha W) - alpha^2 D_1(W) = {sp.sstr(initial.applyfunc(sp.expand))}",
        )
    return Verdict.holds(
        f"exact: L = {depth}, d = {width}, n = {samples}, symbolic X, y and weights: "
        "d/dt D_l = 0 (l = 1, 2) along W_l' = -grad_{W_l} L of the empirical loss "
        "(5); D_l(alpha W) = alpha^2 D_l(W)",
        Basis.PROOF,
    )


# --- eqs. (142)-(144): fine-tuning


def _finetune_gradient_descent(
    x: np.ndarray,
    y: np.ndarray,
    source: np.ndarray,
    direction: np.ndarray,
    steps: tuple[float, ...],
) -> list[np.ndarray]:
    """Plain gradient descent on (5) for L = 2 from W1 = beta_s v^T, W2 = v (D_1 = 0).

    The pretrained point of Theorem 3.4 at alpha -> 0, one run per step size,
    each until the training residual ||X beta - y|| is below 1e-13 (the flow
    interpolates when n < d): the stopping rule of
    :func:`~implicit_bias.validation.deep_linear_networks.finetune` is the
    loss relative to ||y||^2 / (2n), so its tolerance is (1e-13 / ||y||)^2.
    """
    pretrained = [np.outer(source, direction)[None], direction[None, :, None]]
    tolerance = _RESIDUAL_TOLERANCE**2 / float(y @ y)
    return [
        networks.finetune(
            pretrained,
            x,
            y,
            learning_rate=step,
            integrator="gd",
            tol=tolerance,
            max_steps=_MAX_GD_STEPS,
        ).coefficients[0]
        for step in steps
    ]


def _finetune_problem() -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(5)
    samples, dimension, noise, angle = 5, 12, 1.0, np.pi / 4
    x = rng.standard_normal((samples, dimension))
    source = np.zeros(dimension)
    source[0] = 1.0
    target = np.zeros(dimension)
    target[0], target[1] = np.cos(angle), np.sin(angle)
    y = x @ target + noise * rng.standard_normal(samples)
    direction = rng.standard_normal(dimension)
    direction /= np.linalg.norm(direction)
    return x, y, source, direction


_STEPS = (0.04, 0.02, 0.01)


def _finetune_errors() -> tuple[np.ndarray, np.ndarray]:
    x, y, source, direction = _finetune_problem()
    printed = endpoints.finetune_endpoint_as_printed(x, y, source)
    corrected = endpoints.finetune_endpoint(x, y, source)
    runs = _finetune_gradient_descent(x, y, source, direction, _STEPS)
    to_printed = np.array([np.linalg.norm(e - printed) for e in runs])
    to_corrected = np.array([np.linalg.norm(e - corrected) for e in runs])
    return to_printed, to_corrected


def _check_finetune_as_printed() -> Verdict:
    to_printed, to_corrected = _finetune_errors()
    orders = np.log2(to_printed[:-1] / to_printed[1:])
    x, y, source, _ = _finetune_problem()
    gap = float(
        np.linalg.norm(
            endpoints.finetune_endpoint(x, y, source)
            - endpoints.finetune_endpoint_as_printed(x, y, source)
        )
    )
    detail = (
        "n = 5, d = 12, sigma = 1, theta = pi/4, L = 2, gradient descent from "
        "W1 = beta_s v^T, W2 = v (D = 0) at eta = 0.04, 0.02, 0.01: "
        f"|beta_GD - (beta_sc + (I - P) beta_s)| = "
        f"{np.array2string(to_printed, precision=4)} (orders in eta "
        f"{np.round(orders, 2).tolist()}: it does not shrink with eta, and "
        f"approaches |c - 1| |(I-P) beta_s| = {gap:.4f}, c of the balanced endpoint; "
        f"orders in eta judged with tolerance {ORDER_TOLERANCE:g}; float64 runs "
        f"converged: each stopped at a training residual ||X beta - y|| < "
        f"{_RESIDUAL_TOLERANCE:g})"
    )
    if np.all(np.abs(orders - 1) <= ORDER_TOLERANCE):
        return Verdict.holds(detail, Basis.NUMERICAL)
    # Fail on evidence, not on the runs failing to converge: they converge (at
    # first order in eta) to the corrected endpoint, which is farther from the
    # printed one than every run is from it, so by the triangle inequality
    # |beta_GD - printed| >= gap - |beta_GD - corrected| > 0 stays bounded away.
    corrected_orders = np.log2(to_corrected[:-1] / to_corrected[1:])
    converges_elsewhere = bool(np.all(np.abs(corrected_orders - 1) <= ORDER_TOLERANCE))
    if converges_elsewhere and gap > to_corrected.max():
        # Deterministic runs: the discretization error, O(eta), is estimated by
        # the distance to the corrected endpoint; the printed endpoint is
        # farther than that by the stated factor.
        return Verdict.fails(
            f"{detail}; the gap {gap:.4f} is {gap / to_corrected.max():.3g} times the "
            f"largest discretization error {to_corrected.max():.3g}",
            Basis.NUMERICAL,
            f"eta = {_STEPS[-1]}: |beta_GD - printed (142)| = {to_printed[-1]:.4f} >= "
            f"gap - |beta_GD - corrected| = {gap - to_corrected[-1]:.4f} > 0",
        )
    return Verdict.inconclusive(
        f"{detail}; the runs do not converge to the corrected endpoint either "
        f"(distances {np.array2string(to_corrected, precision=4)})",
        Reason.STATISTICAL,
    )


def _check_finetune_corrected() -> Verdict:
    _, to_corrected = _finetune_errors()
    orders = np.log2(to_corrected[:-1] / to_corrected[1:])
    x, y, source, _ = _finetune_problem()
    minimum = endpoints.min_norm_solution(x, y)
    frozen = endpoints.finetune_endpoint_as_printed(x, y, source) - minimum
    a_squared, b_squared = float(minimum @ minimum), float(frozen @ frozen)
    # The endpoint is X^+ y + c (I - P) beta_s: read c off it.
    scale = (endpoints.finetune_endpoint(x, y, source) - minimum) @ frozen / b_squared
    noiseless = sp.simplify(theory.finetune_scale_limit().subs(_sigma, 0))
    order = check_close(
        orders, 1.0, ORDER_TOLERANCE, what="observed order in eta of the GD error"
    )
    ok = order.status == Status.HOLDS and noiseless == 1
    detail = (
        "same runs: |beta_GD - (X^+ y + c (I - P) beta_s)| = "
        f"{np.array2string(to_corrected, precision=4)}, orders in eta "
        f"{np.round(orders, 3).tolist()} (-> 0 with eta), with c^4 = |X^+y|^2 + "
        f"c^2 |(I-P) beta_s|^2: |X^+y|^2 = {a_squared:.3f}, |(I-P)beta_s|^2 = "
        f"{b_squared:.3f}, c = {scale:.4f}. As n, d -> oo, c^2 -> "
        f"{sp.sstr(theory.finetune_scale_limit())}, = {noiseless} at sigma = 0 "
        f"(float64 runs stopped at a training residual < {_RESIDUAL_TOLERANCE:g}); "
        f"{order.detail}"
    )
    if ok:
        return Verdict.holds(detail, Basis.NUMERICAL)
    return Verdict.inconclusive(detail, Reason.STATISTICAL, Basis.NUMERICAL)


def _check_finetune_noise_free_limit() -> Verdict:
    excess = theory.finetune_risk_limit_corrected()
    printed = (1 - _gamma) * (1 - 2 * sp.cos(_theta))
    noiseless = check_identity(excess.subs(_sigma, 0), printed)
    at = {_gamma: sp.Rational(1, 2), _theta: sp.pi / 4, _sigma: 1}
    difference = (excess - printed).subs(at)
    certificate = certified_nonzero(difference, {})
    differs = (
        Verdict.holds(
            f"at gamma = 1/2, theta = pi/4, sigma = 1 it differs from (16) by "
            f"{certificate.enclosure} (ball arithmetic, excludes 0)",
            Basis.CERTIFIED,
        )
        if certificate.certified
        else Verdict.inconclusive(
            f"the difference at gamma = 1/2, theta = pi/4, sigma = 1 is not "
            f"certified nonzero: {certificate.enclosure}",
            Reason.UNDECIDED,
        )
    )
    return conjunction(
        (noiseless, differs),
        "with the corrected endpoint, E R_ft - E R_sc -> (1-gamma)(c^2 - 2c cos "
        f"theta); at sigma = 0 this is eq. (16)'s (1-gamma)(1-2cos theta) "
        f"({noiseless.detail}); {differs.detail}",
    )


def _check_finetune_excess_monte_carlo(draws: int = 150) -> Verdict:
    samples, dimension, noise, angle = 50, 100, 1.0, np.pi / 4
    rng = np.random.default_rng(17)
    source = np.zeros(dimension)
    source[0] = 1.0
    target = np.zeros(dimension)
    target[0], target[1] = np.cos(angle), np.sin(angle)
    excess = np.empty(draws)
    for draw in range(draws):
        x = rng.standard_normal((samples, dimension))
        y = x @ target + noise * rng.standard_normal(samples)
        scratch = np.linalg.pinv(x) @ y
        finetuned = endpoints.finetune_endpoint(x, y, source)
        excess[draw] = np.sum((finetuned - target) ** 2) - np.sum(
            (scratch - target) ** 2
        )
    mean = float(excess.mean())
    error = float(excess.std(ddof=1) / np.sqrt(draws))
    ratio = sp.Rational(samples, dimension)
    values = {_gamma: ratio, _theta: sp.pi / 4, _sigma: 1}
    corrected = float(theory.finetune_risk_limit_corrected().subs(values))
    printed = float(((1 - _gamma) * (1 - 2 * sp.cos(_theta))).subs(values))
    close = check_close(
        mean,
        corrected,
        STANDARD_ERRORS * error,
        what="mean excess risk against the corrected limit",
        basis=Basis.STATISTICAL,
    )
    # Separated from (16): a distance beyond the tolerance, not a closeness.
    apart = holds_if(
        abs(mean - printed) > STANDARD_ERRORS * error,
        f"beyond {STANDARD_ERRORS:g} SE of (16)",
        Basis.STATISTICAL,
    )
    return conjunction(
        (close, apart),
        f"within {STANDARD_ERRORS:g} SE of the corrected limit and beyond "
        f"{STANDARD_ERRORS:g} SE of (16): "
        f"n = {samples}, d = {dimension}, sigma = {noise}, theta = pi/4, {draws} "
        f"draws, endpoint of finetune_endpoint: E[R_ft - R_sc] = {mean:.4f} +- "
        f"{error:.4f}; the corrected limit (1-gamma)(c^2 - 2c cos theta) = "
        f"{corrected:.4f}, eq. (16)'s (1-gamma)(1-2cos theta) = {printed:.4f} "
        f"({abs(mean - printed) / error:.1f} standard errors away). The O(1/n) "
        "finite-size bias is not modelled (2000-draw runs put it below 0.01 for n "
        "= 25 to 100, under this standard error)",
    )


def _check_orthogonal_term(draws: int = 4000) -> Verdict:
    rng = np.random.default_rng(11)
    samples, dimension = 6, 15
    x = rng.standard_normal((draws, samples, dimension))
    source = np.zeros(dimension)
    source[0] = 1.0
    other = np.zeros(dimension)
    other[1] = 1.0
    projector = np.linalg.pinv(x) @ x
    frozen = source - projector @ source
    cross = frozen @ other
    kept = (frozen**2).sum(axis=-1)
    cross_error = float(cross.std(ddof=1) / np.sqrt(draws))
    kept_error = float(kept.std(ddof=1) / np.sqrt(draws))
    expected = 1 - samples / dimension
    parts = (
        check_close(
            cross.mean(),
            0.0,
            STANDARD_ERRORS * cross_error,
            what="mean <nu, (I-P) beta_s> against 0",
            basis=Basis.STATISTICAL,
        ),
        check_close(
            kept.mean(),
            expected,
            STANDARD_ERRORS * kept_error,
            what="mean |(I-P) beta_s|^2 against 1 - n/d",
            basis=Basis.STATISTICAL,
        ),
    )
    return conjunction(
        parts,
        f"within {STANDARD_ERRORS:g} SE: "
        f"n = {samples}, d = {dimension}, {draws} draws of X: mean <nu, (I-P) beta_s> "
        f"= {cross.mean():.4f} +- {cross_error:.4f} (exactly 0: E P = (n/d) I by "
        f"rotation invariance, and nu is orthogonal to beta_s); mean |(I-P)beta_s|^2 "
        f"= {kept.mean():.4f} +- {kept_error:.4f} vs 1 - n/d = {expected:.4f}",
    )


#: What the checks cost (:mod:`._costs`): the three gradient-descent runs of
#: (142) (the problem of :func:`_finetune_problem`), and the draws of the two
#: Monte-Carlo checks, timed by running them on fewer.
_GD_RUNS = FinetuneRuns(_STEPS, samples=5, dimension=12)


def _excess_draws(count: int) -> MonteCarloDraws:
    return MonteCarloDraws(
        _check_finetune_excess_monte_carlo,
        count,
        timed=16,
        what="a Gaussian X, n = 50, d = 100: min-norm and fine-tuned endpoints",
    )


def _orthogonal_draws(count: int) -> MonteCarloDraws:
    return MonteCarloDraws(
        _check_orthogonal_term,
        count,
        timed=500,
        what="a Gaussian X, n = 6, d = 15: its row-space projector",
    )


# Power calculations; pilots: the checks' own draws.
EXCESS_POWER = PowerCalculation(
    effect=0.0911,
    effect_quote="eq. (16) as printed, (1 - gamma)(1 - 2 cos theta) = -0.207 at "
    "gamma = 1/2, theta = pi/4, sigma = 1, against the corrected limit -0.116",
    pilot_sd=0.0893,
    pilot_seeds=150,
    pilot="the check's n = 50, d = 100, 150 draws (seed 17) of R_ft - R_sc",
    z=STANDARD_ERRORS,
)
ORTHOGONAL_POWER = PowerCalculation(
    effect=0.6,
    effect_quote="B.8: E||(I - P) beta_s||^2 = 1 - gamma = 0.6 at n = 6, d = 15",
    pilot_sd=0.168,
    pilot_seeds=4000,
    pilot="the check's n = 6, d = 15, 4000 draws (seed 11)",
    z=STANDARD_ERRORS,
)


def _at_power(
    check: Callable[[int], Verdict],
    draws: int,
    power: PowerCalculation,
    cost: Callable[[int], MonteCarloDraws],
    description: str,
) -> Configuration:
    sized = max(draws, power.seeds)
    return Configuration(
        f"{description}, {sized} draws: max({draws}, the power calculation's "
        f"{power.seeds}); the source gives no configuration for this check",
        lambda: check(sized),
        budget_seconds=600.0,
        expected=Status.HOLDS,
        cost=cost(sized).cost,
        power=power,
        from_source=False,
    )


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "35",
        "conservation-law",
        Kind.IDENTITY,
        "D_l = W_l^T W_l - W_{l+1} W_{l+1}^T is invariant under gradient flow, so "
        "D(t) = D(0) = alpha^2 (Wbar_l^T Wbar_l - Wbar_{l+1} Wbar_{l+1}^T)",
        _check_conservation_law,
        Status.HOLDS,
        assumptions=("explicit instance L = 3, d = 2, n = 2", "loss (5)"),
        formula=lambda: sp.Eq(theory.balance_rate, 0),
        quote=(
            "the matrix D_l = W_l^T W_l − W_{l+1} W_{l+1}^T (35) is an "
            "invariance of the gradient flow dynamics, so that D(t) = D(0) = "
            "α^2(W̄_l^T W̄_l − W̄_{l+1} W̄_{l+1}^T) for all time"
        ),
        reading=Reading.PROSE,
        regime=(
            "explicit instance L = 3, d = 2, n = 2 with symbolic X, y and "
            "weights (the rate is a polynomial identity in them): the flow (6) "
            "on the empirical loss (5), as used in B.2-B.8"
        ),
    ),
    Claim(
        SOURCE_ID,
        "142",
        "as-printed",
        Kind.SIMULATION,
        "after fine-tuning, lim beta_ft = beta_sc + (I - P_row(X)) beta_s",
        _check_finetune_as_printed,
        Status.FAILS,
        slip="finetune-endpoint-142",
        cost=_GD_RUNS.cost,
        formula=lambda: nt.eq(
            nt.printed_finetune_error, sp.Order(nt.step_size, (nt.step_size, 0))
        ),
        assumptions=("L = 2, pretrained W1 = beta_s v^T, W2 = v (alpha -> 0)",),
        quote=("lim_{α→0} lim_{t→∞} β_ft(t) = β_sc + (I − P_row(X)) β_s"),
        reading=Reading.PRINTED,
        regime=(
            "L = 2, n = 5 < d = 12, sigma = 1, theta = pi/4, gradient descent "
            "at eta = 0.04, 0.02, 0.01 from the alpha -> 0 pretrained point (D "
            "= 0): Theorem 3.9's gamma <= 1 case with label noise (Assumption "
            "3.1), at finite n as (142) is stated"
        ),
    ),
    Claim(
        SOURCE_ID,
        "142",
        "balanced-endpoint",
        Kind.SIMULATION,
        "fine-tuning ends at beta_sc + c (I - P) beta_s with c^4 = ||X^+y||^2 + c^2 "
        "||(I-P) beta_s||^2 (the frozen ker-X part of W1 scaled by the balanced "
        "second layer); c -> 1 as n, d -> oo only when sigma = 0",
        _check_finetune_corrected,
        Status.HOLDS,
        cost=_GD_RUNS.cost,
        corrects=claim_id("142", "as-printed"),
        assumptions=("L = 2, D = 0 (balanced)",),
        formula=lambda: sp.Eq(
            theory.finetune_scale_equation().subs(theory.depth, 2), 0
        ),
        quote=("lim_{α→0} lim_{t→∞} β_ft(t) = β_sc + (I − P_row(X)) β_s"),
        reading=Reading.EXTENSION,
        regime=(
            "L = 2, n = 5, d = 12, sigma = 1, theta = pi/4, the same runs (eta "
            "= 0.04 to 0.01, order within 0.15 of 1); c -> 1 symbolically at "
            "sigma = 0: our corrected endpoint"
        ),
    ),
    Claim(
        SOURCE_ID,
        "142",
        "noise-free-risk",
        Kind.IDENTITY,
        "with the corrected endpoint the fine-tuning excess risk is (1-gamma)(c^2 - "
        "2c cos theta), which is eq. (16)'s (1-gamma)(1-2 cos theta) at sigma = 0 "
        "only",
        _check_finetune_noise_free_limit,
        Status.HOLDS,
        formula=lambda: sp.Eq(
            theory.finetune_excess, theory.finetune_risk_limit_corrected()
        ),
        quote=("E_D R_ft = E_D R_sc + (1 − γ)(1 − 2cosθ) for γ ≤ 1"),
        reading=Reading.EXTENSION,
        regime=(
            "symbolic gamma < 1, theta at sigma = 0, and the point gamma = 1/2, "
            "theta = pi/4, sigma = 1: our corrected limit against (16)"
        ),
    ),
    Claim(
        SOURCE_ID,
        "142",
        "excess-risk-monte-carlo",
        Kind.SIMULATION,
        "with label noise the fine-tuning excess risk E R_ft - E R_sc follows the "
        "corrected endpoint's (1-gamma)(c^2 - 2c cos theta), not eq. (16)'s "
        "(1-gamma)(1-2cos theta)",
        _check_finetune_excess_monte_carlo,
        Status.HOLDS,
        cost=_excess_draws(150).cost,
        paper=_at_power(
            _check_finetune_excess_monte_carlo,
            150,
            EXCESS_POWER,
            _excess_draws,
            "n = 50, d = 100, sigma = 1, theta = pi/4",
        ),
        formula=lambda: nt.eq(
            nt.mc_finetune_excess, theory.finetune_risk_limit_corrected()
        ),
        assumptions=("L = 2, D = 0", "n, d large: the limit is compared at n = 50"),
        slow=True,
        budget_seconds=300.0,
        quote=("E_D R_ft = E_D R_sc + (1 − γ)(1 − 2cosθ) for γ ≤ 1"),
        reading=Reading.EXTENSION,
        regime=(
            "n = 50, d = 100 (gamma = 1/2), sigma = 1, theta = pi/4, 150 draws "
            "of the closed-form corrected endpoint, 4 SE: our corrected limit, "
            "separated from (16)"
        ),
    ),
    Claim(
        SOURCE_ID,
        "143-144",
        "orthogonal-term",
        Kind.SIMULATION,
        "E_X <nu, (I - P_row(X)) beta_s> = 0, and E||(I - P) beta_s||^2 = max(0, 1 - "
        "gamma) (the printed sum of (143) runs to n - d; the projector has rank "
        "d - n)",
        _check_orthogonal_term,
        Status.HOLDS,
        cost=_orthogonal_draws(4000).cost,
        paper=_at_power(
            _check_orthogonal_term,
            4000,
            ORTHOGONAL_POWER,
            _orthogonal_draws,
            "n = 6, d = 15",
        ),
        formula=lambda: nt.both(
            nt.eq(nt.mc_orthogonal_overlap, 0),
            nt.eq(nt.mc_orthogonal_norm, sp.Max(0, 1 - theory.gamma_ratio)),
        ),
        quote=("E⟨ν, (I − P_row(X))β_s⟩ = Σ_{k=1}^{n−d} ν_k E(β_s)_k = 0"),
        reading=Reading.PRINTED,
        regime=(
            "n = 6 < d = 15, 4000 draws of Gaussian X, 4 SE: the gamma < 1 case "
            "of B.8, where (I - P) has rank d - n (the printed sum runs to n - "
            "d)"
        ),
    ),
)
