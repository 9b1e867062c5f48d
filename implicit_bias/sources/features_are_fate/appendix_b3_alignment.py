r"""Claims of features-are-fate, Appendix B.3: Lemma B.1's alignment, (61)-(72), (51).

After (60) the proof of Lemma B.1 bounds the misalignment of adjacent singular
vectors, :math:`1 - (v_l^\top u_{l+1})^2 \le \alpha^2 C_l / s_{l+1}^2`
(61)-(70), keeps the singular values away from zero at the end of training
(71)-(72), and so proves (51), :math:`\lim_{\alpha\to0}\lim_{t\to\infty}
(u_{l+1}^\top v_l)^2 = 1`. The steps relate scalar quantities of a state
(:mod:`._lemma_b1`) and are decided as in :mod:`.appendix_b3`: at 48 exact
initial states and 88 checkpoints of gradient flows (L = 3, d = 2), in ball
arithmetic, at :math:`l = 1` (where :math:`W_{l+1}` is square) and
:math:`l = 2 = L - 1` (where :math:`W_{l+1} = W_L` is a column). (51) is
decided at the converged ends of flows from :math:`\alpha\bar W`,
:math:`\alpha = 1/2` to :math:`1/32`; (71)-(72) at a zero-loss state and at
the flows' ends.

Findings (each with a corrected claim that holds):

* (62) and (65) (and (66), (68), (70) after them) bound
  :math:`v_l^\top \bar D_l v_l` by :math:`\|\bar D_l\|_{op}^2`, where it is
  :math:`\le \|\bar D_l\|_{op}`: (62) and (65) fail when
  :math:`\|\bar D_l\|_{op} < 1` and :math:`v_l` lies near the top
  eigenvector of :math:`\bar D_l` (slip ``squared-norm-62``). (66), (68) and
  (69) hold as printed: (68) because :math:`u^\top\bar D_l u > 0`, (66)
  through the :math:`\alpha^2\,\mathrm{tr}\,\bar D_l` its index :math:`l`
  adds to (60) at :math:`l + 1`, which bounds :math:`\alpha^2 v^\top\bar
  D_l v`;
* (64) and (65) print :math:`\|W_{l+1}\|_F^2 - \|W_{l+1}\|_F^2 = 0` where
  (66) uses :math:`\|W_{l+1}\|_F^2 - \|W_{l+1}\|_{op}^2` (slip
  ``frobenius-64``): (64) fails at :math:`l = 1`, and (65) would fail there
  by it alone; at :math:`l = L - 1` the two are equal (:math:`W_L` has rank
  one) and (64) holds;
* (71) bounds :math:`\|W_1\cdots W_L\|_2` by :math:`\prod_l s_l^2`, where
  submultiplicativity gives :math:`\prod_l s_l`: the square fails when
  :math:`\|\hat y\|/\|X\|_{op} < 1` (slip ``product-71``); (72) follows
  either way.

The misalignment at the flows' ends falls as :math:`\alpha^4`, well inside
the :math:`\alpha^2` of (69).
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
import sympy as sp
from flint import arb, ctx, fmpq

from implicit_bias.claims.derivation import Derivation
from implicit_bias.claims.engine import Basis, Claim, Kind, Reading, Status, Verdict
from implicit_bias.claims.profiles import CostEstimate
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.sources.features_are_fate._costs import whole_run_seconds
from implicit_bias.sources.features_are_fate._lemma_b1 import (
    ALPHA,
    ASSUMPTIONS,
    DEPTH,
    GLYPHS,
    LAYER,
    LAYERS,
    PAIR,
    PRECISION,
    PRODUCT_NORM,
    chain,
    claim,
    claim_id,
    fro_difference,
    invariant_term,
    quantity_symbol,
    rank_one_bound,
    step,
)
from implicit_bias.sources.features_are_fate._network_states import (
    ENDPOINT_ALPHAS,
    PRECISION_BITS,
    drift_tolerance,
    endpoint_initializations,
    endpoint_run,
    endpoint_states,
    quantities,
    trajectory_states,
)
from implicit_bias.sources.features_are_fate.source import SOURCE_ID

__all__ = ["CLAIMS", "DERIVATIONS"]

# --- the quotes

_Q61 = (
    "To show the alignment of adjacent singular vectors we again take advantage of "
    "the invariant quantity (35) v_l^T W_{l+1} W_{l+1}^T v_l = v_l^T W_l^T W_l v_l − "
    "v_l^T D_l v_l (61)"
)
_Q62 = "≥ s_l^2 − α^2 ||W̄_l^T W̄_l − W̄_{l+1} W̄_{l+1}^T||_op^2 (62)"
_Q63 = (
    "we also derive the following upper bound on (62) v_l^T W_{l+1} W_{l+1}^T v_l = "
    "v_l^T (s_{l+1}^2 u_{l+1} u_{l+1}^T + W_{l+1} W_{l+1}^T − s_{l+1}^2 u_{l+1} "
    "u_{l+1}^T) v_l (63)"
)
_Q64 = "≤ s_{l+1}^2 (v_l^T u_{l+1})^2 + ||W_{l+1}||_F^2 − ||W_{l+1}||_F^2 (64)"
_Q65 = (
    "combining these two bounds s_l^2 ≤ s_{l+1}^2 (v_l^T u_{l+1})^2 + α^2 ||W̄_l^T "
    "W̄_l − W̄_{l+1} W̄_{l+1}^T||_op^2 + ||W_{l+1}||_F^2 − ||W_{l+1}||_F^2 (65)"
)
_Q66 = (
    "≤ s_{l+1}^2 (v_l^T u_{l+1})^2 + α^2 ||W̄_l^T W̄_l − W̄_{l+1} W̄_{l+1}^T||_op^2 + "
    "α^2(||W̄_l||_F^2 − ||W̄_L||_F^2 + ||W̄_l||_op^2 − ||W̄_L||_op^2) (66) where we have "
    "used the result derived in the previous proof for the second inequality."
)
_Q67 = (
    "Finally, we derive an upper bound on this quantity s_l^2 ≥ u_{l+1}^T W_l^T W_l "
    "u_{l+1} (67)"
)
_Q68 = "≥ s_{l+1}^2 − α^2 ||W̄_l^T W̄_l − W̄_{l+1} W̄_{l+1}^T||_op^2 (68)"
_Q69_70 = (
    "We can combine the upper and lower bounds and divide by s_{l+1}^2 to conclude "
    "(v_l^T u_{l+1})^2 ≥ 1 − α^2 C_l / s_{l+1}^2 (69) C_l = 2||W̄_l^T W̄_l − W̄_{l+1} "
    "W̄_{l+1}^T||_op^2 + ||W̄_l||_F^2 − ||W̄_L||_F^2 + ||W̄_l||_op^2 − ||W̄_L||_op^2 (70)"
)
_Q71 = (
    "Let ŷ = lim_{t→∞} X W_1 W_2 ... W_L denote the final network predictions. Then "
    "||ŷ||/||X||_op ≤ lim_{t→∞} ||W_1 W_2 ... W_L||_2 ≤ lim_{t→∞} Π_{l=1}^L s_l^2 (71)"
)
_Q72 = (
    "This implies that lim_{t→∞} Π_{l=1}^L s_l^2 > 0 (72) which implies that the "
    "individual singular values are bounded away from zero at the end of training."
)
_Q51 = "Furthermore lim_{α→0} lim_{t→∞} (u_{l+1}(t)^T v_l(t))^2 = 1 (51)"


# --- (61)-(68): the alignment through v_l^T W_{l+1} W_{l+1}^T v_l


def _alignment_chains(layer: int) -> tuple[Derivation, ...]:
    a, b, p = LAYER[layer], LAYER[layer + 1], PAIR[layer]
    align_term = b["s2"] * p["align"]
    at_last = layer + 1 == DEPTH
    frobenius_slip = None if at_last else "frobenius-64"
    return (
        chain(
            layer,
            "61-62",
            "alignment-lower",
            "The lower bound on v_l^T W_{l+1} W_{l+1}^T v_l",
            lambda: p["v_next"],
            (
                step(
                    lambda: p["v_top"] - p["v_inv"],
                    "W_{l+1} W_{l+1}^T = W_l^T W_l - D_l (35)",
                    "=",
                    "61",
                    _Q61,
                ),
                step(
                    lambda: a["s2"] - invariant_term(layer, printed=True),
                    "as printed: v_l^T D_l v_l <= alpha^2 ||Dbar_l||_op^2",
                    ">=",
                    "62",
                    _Q62,
                    slip="squared-norm-62",
                ),
            ),
            _Q61,
        ),
        chain(
            layer,
            "63-64",
            "alignment-upper",
            "The upper bound on v_l^T W_{l+1} W_{l+1}^T v_l",
            lambda: p["v_next"],
            (
                step(
                    lambda: p["v_split"],
                    "s_{l+1}^2 u_{l+1} u_{l+1}^T added and taken away",
                    "=",
                    "63",
                    _Q63,
                ),
                step(
                    lambda: align_term + fro_difference(layer + 1, printed=True),
                    "as printed, ||W_{l+1}||_F^2 - ||W_{l+1}||_F^2 = 0"
                    + (": W_L has rank one, so this is the bound" if at_last else ""),
                    "<=",
                    "64",
                    _Q64,
                    slip=frobenius_slip,
                ),
            ),
            _Q63,
        ),
        chain(
            layer,
            "65-66",
            "singular-value-upper",
            "The upper bound on s_l^2 through the alignment",
            lambda: a["s2"],
            (
                step(
                    lambda: (
                        align_term
                        + invariant_term(layer, printed=True)
                        + fro_difference(layer + 1, printed=True)
                    ),
                    "(62) and (64) as printed (the square of (62) fails it; at "
                    "l < L - 1 so does the 0 of (64))",
                    "<=",
                    "65",
                    _Q65,
                    slip="squared-norm-62",
                ),
                step(
                    lambda: (
                        align_term
                        + invariant_term(layer, printed=True)
                        + rank_one_bound(layer)
                    ),
                    "(60), which makes the printed 0 of (65) at most alpha^2 (...)",
                    "<=",
                    "66",
                    _Q66,
                ),
            ),
            _Q65,
        ),
        chain(
            layer,
            "67-68",
            "singular-value-lower",
            "The lower bound on s_l^2 through s_{l+1}^2",
            lambda: a["s2"],
            (
                step(
                    lambda: p["u_top"],
                    "a Rayleigh quotient, as in (55)",
                    ">=",
                    "67",
                    _Q67,
                ),
                step(
                    lambda: b["s2"] - invariant_term(layer, printed=True),
                    "(56)-(57): u^T W_l^T W_l u = s_{l+1}^2 + alpha^2 u^T Dbar_l u, "
                    "and u^T Dbar_l u >= 0 >= -||Dbar_l||_op^2",
                    ">=",
                    "68",
                    _Q68,
                ),
            ),
            _Q67,
        ),
    )


def _alignment_claims(layer: int) -> tuple[Claim, ...]:
    a, b, p, last = LAYER[layer], LAYER[layer + 1], PAIR[layer], LAYER[DEPTH]
    align_term = b["s2"] * p["align"]
    constant = 2 * p["dbar"] ** 2 + a["fbar"] - last["fbar"] + a["obar"] - last["obar"]
    claims = [
        claim(
            "62",
            "norm-bound",
            Kind.INEQUALITY,
            "v_l^T W_l^T W_l v_l - v_l^T D_l v_l >= s_l^2 - alpha^2 ||Wbar_l^T "
            "Wbar_l - Wbar_{l+1} Wbar_{l+1}^T||_op: (62) with the norm, not its "
            "square",
            lambda: sp.Ge(
                p["v_top"] - p["v_inv"], a["s2"] - invariant_term(layer, printed=False)
            ),
            _Q62,
            layer,
            reading=Reading.INTERPRETATION,
            corrects=claim_id("62", f"alignment-lower-layer-{layer}-step-2"),
        ),
        claim(
            "65",
            "corrected",
            Kind.INEQUALITY,
            "s_l^2 <= s_{l+1}^2 (v_l^T u_{l+1})^2 + alpha^2 ||Dbar_l||_op + "
            "||W_{l+1}||_F^2 - ||W_{l+1}||_op^2: (62) and (64) corrected, combined",
            lambda: sp.Le(
                a["s2"],
                align_term
                + invariant_term(layer, printed=False)
                + fro_difference(layer + 1, printed=False),
            ),
            _Q65,
            layer,
            reading=Reading.INTERPRETATION,
            corrects=claim_id("65", f"singular-value-upper-layer-{layer}-step-1"),
        ),
        claim(
            "66",
            "bound",
            Kind.INEQUALITY,
            "s_l^2 <= s_{l+1}^2 (v_l^T u_{l+1})^2 + alpha^2 ||Dbar_l||_op^2 + alpha^2 "
            "(||Wbar_l||_F^2 - ||Wbar_L||_F^2 + ||Wbar_l||_op^2 - ||Wbar_L||_op^2), "
            "the chain (65)-(66)'s conclusion as printed",
            lambda: sp.Le(
                a["s2"],
                align_term
                + invariant_term(layer, printed=True)
                + rank_one_bound(layer),
            ),
            _Q65 + " " + _Q66,
            layer,
        ),
        claim(
            "69",
            "alignment",
            Kind.INEQUALITY,
            "(v_l^T u_{l+1})^2 >= 1 - alpha^2 C_l / s_{l+1}^2 with C_l of (70)",
            lambda: sp.Ge(p["align"], 1 - ALPHA**2 * constant / b["s2"]),
            _Q69_70,
            layer,
        ),
    ]
    if layer + 1 < DEPTH:
        claims.append(
            claim(
                "64",
                "corrected",
                Kind.INEQUALITY,
                "v_l^T W_{l+1} W_{l+1}^T v_l <= s_{l+1}^2 (v_l^T u_{l+1})^2 + "
                "||W_{l+1}||_F^2 - ||W_{l+1}||_op^2",
                lambda: sp.Le(
                    p["v_split"], align_term + fro_difference(layer + 1, printed=False)
                ),
                _Q64,
                layer,
                reading=Reading.INTERPRETATION,
                corrects=claim_id("64", f"alignment-upper-layer-{layer}-step-2"),
            )
        )
    return tuple(claims)


# --- (71)-(72): the end of training


def _stationary_state() -> tuple[list[sp.Matrix], sp.Matrix]:
    r"""A zero-loss state of (5) with $D_1 \succ 0$ and $\|\hat y\|/\|X\| < 1$:
    $L = 2$, $n = d = 2$, $X = I$, $y = (3/10, 0)$, $W_1 = \mathrm{diag}(3/5,
    1/5)$, $W_2 = (1/2, 0)^\top$; $D_1 = \mathrm{diag}(11/100, 1/25)$."""
    w1 = sp.diag(sp.Rational(3, 5), sp.Rational(1, 5))
    w2 = sp.Matrix([sp.Rational(1, 2), 0])
    return [w1, w2], sp.Matrix([sp.Rational(3, 10), 0])


def _check_product_bound(*, squared: bool) -> Verdict:
    r"""(71) at a limit state: $\|\hat y\|/\|X\|_{op} \le \|W_1\cdots W_L\|_2 \le
    \prod_l s_l^{2}$ (``squared``) or $\prod_l s_l$, exactly.

    The stationary state of :func:`_stationary_state` (the flow's limit from
    itself: it has zero loss, and satisfies (22) with alpha = 1, lambda = 1/25),
    then the endpoints of the trajectory states (population loss, where
    $\hat y = \beta_s$).
    """
    weights, targets = _stationary_state()
    invariant = weights[0].T * weights[0] - weights[1] * weights[1].T
    if not all(e > 0 for e in invariant.eigenvals()):
        raise InvalidArgumentError("the stationary state must satisfy (22)")
    product = weights[0] * weights[1]
    norm = sp.sqrt((product.T * product)[0, 0])
    singular = [sp.sqrt(max((w.T * w).eigenvals())) for w in weights]
    power = 2 if squared else 1
    bound = sp.Mul(*(s**power for s in singular))
    prediction = sp.sqrt((targets.T * targets)[0, 0])  # ||ŷ||, X = I
    if not prediction <= norm:
        raise InvalidArgumentError("||ŷ|| / ||X|| <= ||W_1 W_2|| must hold")
    written = (
        "L = 2, n = d = 2, X = I, y = (3/10, 0), W_1 = diag(3/5, 1/5), W_2 = "
        "(1/2, 0)^T (zero loss, D_1 = diag(11/100, 1/25) > 0)"
    )
    if not norm <= bound:
        counterexample = (
            f"{written}: ||ŷ||/||X||_op = ||W_1 W_2||_2 = {norm} > "
            f"prod_l s_l^{power} = {bound} (exact)"
        )
        return Verdict.fails(counterexample, Basis.PROOF, counterexample)
    ends = [s for s in trajectory_states(DEPTH) if s.converged]
    with ctx.workprec(PRECISION_BITS):
        for state in ends:
            values = quantities(state)
            product_bound = arb(1)
            for k in range(1, DEPTH + 1):
                product_bound *= (
                    values[f"s2_{k}"] if squared else values[f"s2_{k}"].sqrt()
                )
            if bool(values["product_norm"] > product_bound):
                return Verdict.fails(
                    f"at the endpoint {state.written()}: ||W_1 W_2 W_3|| > the product",
                    Basis.CERTIFIED,
                )
    return Verdict.holds(
        f"exact at {written} ({norm} <= {bound}); and at the {len(ends)} endpoints "
        f"of the gradient flows (L = 3, ||beta_s|| = 1) in {PRECISION}, tolerance 0",
        Basis.NUMERICAL,
    )


def _check_product_positive() -> Verdict:
    r"""(72): $\prod_l s_l^2 \ge (\|\hat y\|/\|X\|_{op})^2 > 0$ at the endpoints
    of the flows (population loss: $\hat y = \beta_s$, $\|\beta_s\| = 1$)."""
    ends = [s for s in trajectory_states(DEPTH) if s.converged]
    lowest = None
    with ctx.workprec(PRECISION_BITS):
        for state in ends:
            values = quantities(state)
            product = arb(1)
            for k in range(1, DEPTH + 1):
                product *= values[f"s2_{k}"]
            target = values["product_norm"] ** 2
            if not bool(product >= target) or not bool(target > 0):
                return Verdict.fails(
                    f"at the endpoint {state.written()}: prod s_l^2 = {product}, "
                    f"||W_1 W_2 W_3||^2 = {target}",
                    Basis.CERTIFIED,
                )
            lowest = (
                product
                if lowest is None
                else min(lowest, product, key=lambda x: x.lower())
            )
    if not ends or lowest is None:
        return Verdict.inconclusive("no converged endpoint among the trajectory states")
    return Verdict.holds(
        f"at the {len(ends)} converged endpoints of the gradient flows (L = 3, d = 2, "
        f"alpha = 1/8, 1/32): prod_l s_l^2 >= ||W_1 W_2 W_3||_2^2 = ||beta_s||^2 > 0, "
        f"smallest product {float(lowest.mid()):.6g}; {PRECISION}, tolerance 0",
        Basis.NUMERICAL,
    )


def _check_alignment_limit(*, exponent: int = 2) -> Verdict:
    r"""(51) at the converged ends of the flow, alpha = 1/2 to 1/32.

    At each end, :math:`1 - (u_{l+1}^\top v_l)^2 \le \alpha^{p} C_l/s_{l+1}^2`
    with :math:`p` = ``exponent`` (2: (69) at :math:`t \to \infty`; :math:`C_l`
    depends on :math:`\bar W` alone, so the bound, and the misalignment, vanish
    as :math:`\alpha \to 0`), within the drift tolerance; and the misalignment
    falls with alpha at every halving.
    """
    ends = endpoint_states(DEPTH)
    deficits: dict[tuple[object, int], list[float]] = {}
    with ctx.workprec(PRECISION_BITS):
        for state in ends:
            values = quantities(state)
            scale = (
                arb(fmpq(state.alpha.numerator, state.alpha.denominator)) ** exponent
            )
            for layer in LAYERS:
                constant = (
                    2 * values[f"dbar_{layer}"] ** 2
                    + values[f"fbar_{layer}"]
                    - values[f"fbar_{DEPTH}"]
                    + values[f"obar_{layer}"]
                    - values[f"obar_{DEPTH}"]
                )
                deficit = 1 - values[f"align_{layer}"]
                bound = scale * constant / values[f"s2_{layer + 1}"]
                if bool(deficit > bound + drift_tolerance(state)):
                    counterexample = (
                        f"{state.written()}, l = {layer}: 1 - (v_l^T u_(l+1))^2 = "
                        f"{float(deficit.mid()):.4g} > alpha^{exponent} C_l/s_(l+1)^2 "
                        f"= {float(bound.mid()):.4g}"
                    )
                    return Verdict.fails(
                        counterexample, Basis.NUMERICAL, counterexample
                    )
                deficits.setdefault((state.initialization, layer), []).append(
                    float(deficit.mid())
                )
    falling = all(
        later < earlier
        for series in deficits.values()
        for earlier, later in itertools.pairwise(series)
    )
    smallest = max(series[-1] for series in deficits.values())
    slopes = [
        float(
            np.polyfit(np.log([float(a) for a in ENDPOINT_ALPHAS]), np.log(series), 1)[
                0
            ]
        )
        for series in deficits.values()
    ]
    detail = (
        f"{len(ends)} converged ends (L = 3, d = 2, 2 initializations satisfying "
        f"(22), alpha = 1/2 to 1/32): 1 - (v_l^T u_(l+1))^2 <= alpha^{exponent} "
        f"C_l/s_(l+1)^2 at each (l = 1, 2), falling at every halving of alpha to "
        f"{smallest:.2g} at alpha = 1/32 (fitted order in alpha "
        f"{min(slopes):.2f} to {max(slopes):.2f}); {PRECISION}, tolerance 2 L d "
        "delta (the drift of (35))"
    )
    if not falling:
        return Verdict.inconclusive(
            "the misalignment does not fall at every halving of alpha: " + detail
        )
    return Verdict.holds(detail, Basis.NUMERICAL)


def _alignment_limit_cost() -> CostEstimate:
    r"""What :func:`_check_alignment_limit` costs: a flow to its end per
    initialization and alpha.

    A run's steps are adaptive (its step count not a parameter) and their
    cost falls along it (the midpoint equation needs up to 40 fixed-point
    iterations per step while the network leaves the origin, 2 near the
    end), so the runs at the middle alpha of :data:`ENDPOINT_ALPHAS` (in
    log scale) are timed whole, one per initialization, and give the steps
    and the mean step. The ball arithmetic at the ends (under 1 ms each) is
    left out.
    """
    alpha = ENDPOINT_ALPHAS[len(ENDPOINT_ALPHAS) // 2]
    initializations = endpoint_initializations(DEPTH)
    taken: list[int] = []

    def runs_at_alpha() -> None:
        taken[:] = [int(endpoint_run(bar, alpha).steps[0]) for bar in initializations]

    seconds = whole_run_seconds(runs_at_alpha)
    runs = len(initializations) * len(ENDPOINT_ALPHAS)
    return CostEstimate.of_training(
        runs,
        round(float(np.mean(taken))),
        seconds / sum(taken),
        f"L = {DEPTH}, d = 2, {len(initializations)} initializations x "
        f"{len(ENDPOINT_ALPHAS)} alphas; adaptive midpoint steps to the loss "
        f"1e-24: steps and mean step of the runs at alpha = {alpha}, timed whole "
        f"({', '.join(map(str, taken))} steps; a step's fixed-point iterations "
        "fall along a run)",
    )


def _alignment_claim() -> Claim:
    misalignment = quantity_symbol("misalignment", r"1 - (u_{l+1}^\top v_l)^2")
    constant = quantity_symbol("C_over_s2", r"C_l / s_{l+1}^2")
    return Claim(
        SOURCE_ID,
        "51",
        "alignment-limit",
        Kind.SIMULATION,
        "lim_{alpha -> 0} lim_{t -> oo} (u_{l+1}^T v_l)^2 = 1: at the flow's ends "
        "1 - (u_{l+1}^T v_l)^2 <= alpha^2 C_l / s_{l+1}^2, C_l fixed by Wbar",
        _check_alignment_limit,
        Status.HOLDS,
        cost=_alignment_limit_cost,
        formula=lambda: sp.Le(misalignment, ALPHA**2 * constant),
        assumptions=ASSUMPTIONS,
        budget_seconds=30.0,
        quote=_Q51,
        reading=Reading.PRINTED,
        regime=(
            "L = 3, d = 2, two initializations Wbar satisfying (22), alpha = 1/2, "
            "1/4, 1/8, 1/16, 1/32, midpoint-rule flows on the population loss to "
            "convergence (t -> oo), l = 1, 2"
        ),
    )


_singular = [sp.Symbol(f"s_{k}", positive=True) for k in (1, 2, 3)]
GLYPHS.update({s: f"s_{{{k}}}" for k, s in enumerate(_singular, 1)})


def _end_claims() -> tuple[Claim, ...]:
    common = {
        "assumptions": (
            "the flow's limit is a global minimizer (Lemma 3.3, Theorem 3.5); "
            "ŷ = lim X W_1 ... W_L",
        ),
        "budget_seconds": 30.0,
        "quote": _Q71,
    }
    return (
        Claim(
            SOURCE_ID,
            "71",
            "as-printed",
            Kind.INEQUALITY,
            "||ŷ||/||X||_op <= lim ||W_1 ... W_L||_2 <= lim prod_l s_l^2",
            functools.partial(_check_product_bound, squared=True),
            Status.FAILS,
            formula=lambda: sp.Le(PRODUCT_NORM, sp.Mul(*(s**2 for s in _singular))),
            reading=Reading.PRINTED,
            regime=(
                "a limit of the flow on the empirical loss (5): the zero-loss state "
                "W_1 = diag(3/5, 1/5), W_2 = (1/2, 0)^T for X = I, y = (3/10, 0) "
                "(L = 2, n = d = 2), stationary and satisfying (22)"
            ),
            slip="product-71",
            **common,  # type: ignore[arg-type]
        ),
        Claim(
            SOURCE_ID,
            "71",
            "submultiplicative",
            Kind.INEQUALITY,
            "||ŷ||/||X||_op <= lim ||W_1 ... W_L||_2 <= lim prod_l s_l: "
            "(71) with the singular values, not their squares",
            functools.partial(_check_product_bound, squared=False),
            Status.HOLDS,
            formula=lambda: sp.Le(PRODUCT_NORM, sp.Mul(*_singular)),
            reading=Reading.INTERPRETATION,
            regime=(
                "the zero-loss state of 71:as-printed, exactly, and the 4 converged "
                "endpoints of the gradient flows (L = 3, d = 2, alpha = 1/8, 1/32, "
                "population loss)"
            ),
            corrects=claim_id("71", "as-printed"),
            **common,  # type: ignore[arg-type]
        ),
        Claim(
            SOURCE_ID,
            "72",
            "positive",
            Kind.INEQUALITY,
            "lim prod_l s_l^2 > 0: at the flows' endpoints prod_l s_l^2 >= "
            "||W_1 W_2 W_3||_2^2 = ||beta_s||^2 > 0",
            _check_product_positive,
            Status.HOLDS,
            formula=lambda: sp.Gt(sp.Mul(*(s**2 for s in _singular)), 0),
            assumptions=common["assumptions"],  # type: ignore[arg-type]
            budget_seconds=30.0,
            quote=_Q72,
            reading=Reading.PROSE,
            regime=(
                "the converged endpoints of midpoint-rule gradient flows, L = 3, "
                "d = 2, alpha = 1/8, 1/32, population loss with ||beta_s|| = 1"
            ),
        ),
    )


DERIVATIONS: tuple[Derivation, ...] = tuple(
    item for layer in LAYERS for item in _alignment_chains(layer)
)

CLAIMS: tuple[Claim, ...] = (
    _alignment_claim(),
    *(item for layer in LAYERS for item in _alignment_claims(layer)),
    *_end_claims(),
)
