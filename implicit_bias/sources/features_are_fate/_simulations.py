r"""What the simulation modules of features-are-fate share.

Monte-Carlo claims accept a mean within 4 standard errors of an exact
finite-size prediction (false alarm about 6e-5 per comparison). An asymptotic
formula :math:`L` (eqs. (10), (13), (15)) predicts :math:`L + \Delta_{n,d}` at
finite size, its finite-size correction :math:`\Delta_{n,d}` derived from the
exact finite form alone (:mod:`._finite_size`), never from :math:`L`: the
tolerance is again 4 standard errors, and a wrong :math:`L` misses by its
error (no allowance :math:`|E_{n,d} - L|` that would grow with it). The
cost model of the closed-form endpoint draws, the paper configurations sized
by a power calculation, and the corrected limit of fine-tuning's excess risk
are here, for :mod:`.section_3_gradient_descent`,
:mod:`.section_3_monte_carlo` and :mod:`.figures_1_3`.
"""

from __future__ import annotations

import sympy as sp

from collections.abc import Callable

from implicit_bias.claims.profiles import Configuration, PowerCalculation
from implicit_bias.claims.engine import (
    Basis,
    Reason,
    Status,
    Verdict,
)
from implicit_bias.sources.features_are_fate._costs import (
    MonteCarloDraws,
)
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.theory import transfer_asymptotics as asymptotics
from implicit_bias.validation.transfer_experiments import (
    endpoint_risks,
)


#: Standard errors allowed to a Monte-Carlo mean.
_Z = 4.0


def _endpoint_draws(
    samples: int,
    dimension: int,
    theta: float,
    sigma: float,
    draws: int,
    points: int = 1,
    ridges: tuple[float, ...] = (),
) -> MonteCarloDraws:
    """The cost of ``points`` x ``draws`` closed-form endpoint draws at n, d."""
    return MonteCarloDraws(
        lambda count: endpoint_risks(
            samples, dimension, theta, sigma, draws=count, ridges=ridges
        ),
        draws,
        points,
        what=f"the closed-form endpoints of one target set, n = {samples}, d = "
        f"{dimension}",
    )


def _at_power(
    check: Callable[[int], Verdict],
    draws: int,
    power: PowerCalculation,
    description: str,
    cost: Callable[[int], MonteCarloDraws],
    expected: Status = Status.HOLDS,
) -> Configuration:
    """The check at max(its draws, the power calculation's), sizes ours."""
    sized = max(draws, power.seeds)
    return Configuration(
        f"{description}; {sized} draws: max({draws}, the {power.seeds} of the power "
        "calculation). The source gives no configuration for this check",
        lambda: check(sized),
        budget_seconds=600.0,
        expected=expected,
        cost=cost(sized).cost,
        power=power,
        from_source=False,
    )


def _replicated(ok: bool, detail: str, basis: Basis) -> Verdict:
    """HOLDS on ``basis`` if ``ok``; else our protocol did not reproduce the
    statement, which refutes nothing: INCONCLUSIVE (``Reason.STATISTICAL``)."""
    if ok:
        return Verdict.holds(detail, basis)
    return Verdict.inconclusive(
        f"{detail}; not reproduced by this protocol (not evidence against it)",
        Reason.STATISTICAL,
        basis,
    )


def _claim_id(equation: str, label: str) -> str:
    return f"{SOURCE_ID}:{equation}:{label}"


def _corrected_excess(gamma: float, theta: float, sigma: float) -> float:
    """E R_ft - E R_sc in the limit, from the corrected endpoint (theory layer)."""
    excess = sp.lambdify(
        (asymptotics.gamma_ratio, asymptotics.theta, asymptotics.sigma),
        asymptotics.finetune_risk_limit_corrected(),
    )
    return float(excess(gamma, theta, sigma))
