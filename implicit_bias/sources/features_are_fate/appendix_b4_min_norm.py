r"""Claims of features-are-fate, Appendix B.4 Part 2: the minimum-norm limit, (89)-(90).

For :math:`n \le d` the proof of Theorem 3.5 argues: by Lemma B.1 the end
point is :math:`\lim_{\alpha\to0}\lim_{t\to\infty}\beta(t) = c\,u_1` (89),
:math:`u_1` the top left singular vector of :math:`W_1`; the part
:math:`W_1^\perp` of :math:`W_1` off the row space of :math:`X` has zero
gradient, so :math:`\|W_1^\perp(t)\|_F = \|W_1^\perp(0)\|_F \le
\alpha\|\bar W_1\|_F` (90), which vanishes as :math:`\alpha \to 0`; hence
:math:`u_1 \in \mathrm{row}(X)`, and the only interpolating
:math:`\beta \in \mathrm{row}(X)` is :math:`X^+y`.

The text says the columns of :math:`W_1^\perp` lie in :math:`\ker(X^\top)`,
a subspace of :math:`\mathbb{R}^n`, while they are vectors of
:math:`\mathbb{R}^d`: we read :math:`\ker(X) = \mathrm{row}(X)^\perp`, the
complement the argument needs (:math:`W_1^\perp = (I - P_{\mathrm{row}(X)})
W_1`).

* (90) is checked symbolically at :math:`n = 2 < d = 3`, :math:`L = 2, 3`
  (:class:`~implicit_bias.sources.features_are_fate._empirical_networks.\
EmpiricalNetwork`): under the flow (6),
  :math:`\dot W_1^\perp = -(I - P_{\mathrm{row}(X)})\nabla_1\mathcal{L} = 0`;
  and :math:`\|(I - P_{\mathrm{row}(X)})\,\alpha\bar W_1\|_F^2 \le
  \alpha^2\|\bar W_1\|_F^2`.
* (89) and :math:`u_1 \in \mathrm{row}(X)` in the limit, along networks
  trained from scratch (:mod:`~implicit_bias.sources.features_are_fate.\
_limit_orders`: :math:`n = 3 < d = 6`, :math:`L = 2, 3`): the sine of the
  angle between :math:`\beta(\infty)` and :math:`u_1` vanishes at order 3
  (ours: :math:`\sigma_k(W_1) = \Theta(\alpha)`, :math:`k \ge 2`, times
  :math:`v_k^\top W_2\cdots W_L = O(\alpha^2)`: by (35) :math:`q = W_2\cdots
  W_L` satisfies :math:`W_1^\top W_1 q = |W_L|^2 q + O(\alpha^2)` at
  :math:`L \le 3`), and
  :math:`\|(I - P_{\mathrm{row}(X)})u_1\| \le \|W_1^\perp\|/\sigma_1(W_1)`
  at order 1, by (90) (:math:`W_1^\perp v_1 = \alpha(I - P_{\mathrm{row}(X)})
  \bar W_1 v_1`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import sympy as sp

from implicit_bias.claims.checks import RelationCheck, judge_relation
from implicit_bias.claims.derivation import Derivation, Step
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Status,
    Verdict,
    conjunction,
)
from implicit_bias.sources.features_are_fate import notation as nt
from implicit_bias.sources.features_are_fate._empirical_networks import (
    EmpiricalNetwork,
    glyph,
    inner,
)
from implicit_bias.sources.features_are_fate.appendix_b4 import (
    NEAR,
    NEAR_POINTS,
    NearTightSet,
    judge_near,
)
from implicit_bias.sources.features_are_fate._limit_orders import (
    training_cost,
    order_verdict,
    trained_networks,
)
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.theory import transfer_asymptotics as theory

__all__ = ["CLAIMS", "DERIVATIONS", "GLYPHS", "min_norm_errors"]

#: n < d: the samples and data dimension of the symbolic checks of (90).
SAMPLES, DIMENSION = 2, 3
#: The depths checked.
DEPTHS = (2, 3)
#: Random instances per check and CPU seconds of the symbolic attempt.
POINTS = 20
#: The CPU budget of each claim (the slowest takes about 15 s).
CLAIM_SECONDS = 45.0
SYMBOLIC_SECONDS = 1.0

_alpha = theory.alpha


@functools.cache
def network(depth: int) -> EmpiricalNetwork:
    """The network of depth ``depth`` at n = 2, d = 3, built once."""
    return EmpiricalNetwork(depth, SAMPLES, DIMENSION)


def _with_stated_precision(verdict: Verdict) -> Verdict:
    # An exact matrix check says "exact rational arithmetic" but names no
    # tolerance: it is 0.
    if verdict.basis == Basis.NUMERICAL and "tolerance" not in verdict.detail:
        return verdict.with_detail(f"{verdict.detail} (tolerance 0: exact)")
    return verdict


def _judge(
    depth: int, *, flow: bool, near: NearTightSet | None = None
) -> Callable[[sp.Basic], Verdict]:
    """Decide a relation at :data:`POINTS` random points of the data
    constraint (under the flow (6) if ``flow``), and, for an inequality with
    a ``near`` set, also at :data:`~implicit_bias.sources.features_are_fate.\
appendix_b4.NEAR_POINTS` points next to where it is tight."""

    def judge(relation: sp.Basic) -> Verdict:
        net = network(depth)
        maps = [net.flow()] if flow else []
        maps.append(net.data_constraint())
        lhs, rhs = relation.args
        for mapping in maps:
            lhs, rhs = lhs.xreplace(mapping), rhs.xreplace(mapping)
        verdict = _with_stated_precision(
            judge_relation(
                relation.func(lhs, rhs, evaluate=False),
                budget_seconds=SYMBOLIC_SECONDS,
                points=POINTS,
            )
        )
        if near is None or verdict.status != Status.HOLDS:
            return verdict
        close = judge_near(relation.func(lhs, rhs, evaluate=False), near)
        return conjunction(
            [verdict, close],
            f"{verdict.detail}; and {near.description}: {close.detail}",
        )

    return judge


def _off_row_space(depth: int) -> sp.Matrix:
    r""":math:`I - P_{\mathrm{row}(X)}`."""
    return sp.eye(DIMENSION) - network(depth).projector


def _perpendicular_rate_chain(depth: int) -> Derivation:
    net = network(depth)
    return Derivation(
        source=SOURCE_ID,
        equation="90",
        label=f"first-layer-perpendicular-depth-{depth}",
        title=f"W_1 off the row space of X does not move, L = {depth}, "
        f"n = {SAMPLES}, d = {DIMENSION}",
        start=lambda: _off_row_space(depth) * net.velocities[0],
        steps=(
            Step(
                lambda: sp.zeros(DIMENSION, DIMENSION),
                "under the flow, dW_1/dt = -grad_1 L = -X^T r (W_2 ... W_L)^T/n, "
                "whose columns lie in row(X)",
                quote="The left hand side of (82) also shows that the gradient of "
                "W_1^⊥ is zero, which means that this component remains unchanged "
                "under gradient flow dynamics.",
                judge=_judge(depth, flow=True),
            ),
        ),
        quote="We can break W_1 into two components W_1^∥ and W_1^⊥ where the "
        "columns of W_1^∥ are in row(X) and the columns of W_1^⊥ are in ker(X^T).",
        reading=Reading.INTERPRETATION,
        claim_budget_seconds=CLAIM_SECONDS,
        regime=(
            f"n = {SAMPLES} < d = {DIMENSION}, L = {depth}, every entry of the "
            "weights, X and y a symbol; judged at 20 exact rational instances with "
            "P_row(X) = I - m m^T/|m|^2, m spanning ker(X) (every X of rank 2 but "
            "a set of measure zero)"
        ),
        assumptions=(
            "L = ||X W_1 ... W_L - y||^2/(2n) (5); gradient flow (6)",
            "W_1^perp = (I - P_row(X)) W_1: the columns off row(X), i.e. in "
            "ker(X) (the text's ker(X^T) is a subspace of R^n, not R^d)",
        ),
        substitutions=net.flow(),
    )


DERIVATIONS: tuple[Derivation, ...] = tuple(
    _perpendicular_rate_chain(depth) for depth in DEPTHS
)

_initial = sp.Matrix(
    DIMENSION,
    DIMENSION,
    lambda i, j: sp.Symbol(f"wbar1_{i}{j}", real=True),
)


def _near_the_kernel() -> dict[sp.Symbol, sp.Expr]:
    r""":math:`\bar W_1 = m c^\top + \delta E`, :math:`\delta =`
    :data:`~implicit_bias.sources.features_are_fate.appendix_b4.NEAR`: the
    columns of :math:`\bar W_1` next to :math:`\ker(X) = \mathrm{span}(m)`
    of the data constraint, where (90)'s bound is an equality."""
    u, v = sp.symbols("u v", real=True)
    normal = (2 * u, 2 * v, 1 - u**2 - v**2)
    return {
        _initial[i, j]: normal[i] * sp.Symbol(f"c_{j}", real=True)
        + NEAR * sp.Symbol(f"e_{i}{j}", real=True)
        for i in range(DIMENSION)
        for j in range(DIMENSION)
    }


#: (90) is an equality when the columns of Wbar_1 lie in ker(X).
_NEAR_KERNEL = NearTightSet(
    _near_the_kernel,
    f"at {NEAR_POINTS} points next to where it is an equality, Wbar_1 = m c^T + "
    "2^-20 E (its columns nearly in ker(X) = span(m))",
)


def _initial_bound() -> sp.Basic:
    r""":math:`\|(I - P_{\mathrm{row}(X)})\,\alpha\bar W_1\|_F^2 \le
    \alpha^2\|\bar W_1\|_F^2`."""
    off = _off_row_space(2) * (_alpha * _initial)
    return sp.Le(inner(off, off), _alpha**2 * inner(_initial, _initial), evaluate=False)


# --- (89) along trained networks


def min_norm_errors(depth: int) -> dict[str, np.ndarray]:
    r"""Per alpha, the largest over the draws of :math:`\sin\angle(\beta, u_1)`
    (``"89"``) and :math:`\|(I - P_{\mathrm{row}(X)})u_1\|` (``"row"``),
    :math:`u_1` the top left singular vector of the trained :math:`W_1`."""
    runs = trained_networks(depth, "scratch")
    if runs.data is None:
        raise AssertionError("networks trained from scratch keep their data")
    data = runs.data[0]
    sines, offs = [], []
    for weights in runs.weights:
        worst_sine, worst_off = 0.0, 0.0
        for k in range(data.shape[0]):
            first = weights[0][k]
            beta = functools.reduce(np.matmul, [w[k] for w in weights])[:, 0]
            top = np.linalg.svd(first)[0][:, 0]
            along = beta - (top @ beta) * top
            worst_sine = max(
                worst_sine, float(np.linalg.norm(along) / np.linalg.norm(beta))
            )
            row = np.linalg.pinv(data[k]) @ data[k]
            worst_off = max(worst_off, float(np.linalg.norm(top - row @ top)))
        sines.append(worst_sine)
        offs.append(worst_off)
    return {"89": np.array(sines), "row": np.array(offs)}


def _check_min_norm_limit(
    expected: dict[str, int] | None = None,
) -> Verdict:
    orders = expected or {"89": 3, "row": 1}
    verdicts = [
        order_verdict(
            min_norm_errors(depth)[name],
            orders[name],
            f"L = {depth}, {what}, order {orders[name]}",
        )
        for depth in DEPTHS
        for name, what in (("89", "sin(beta, u_1)"), ("row", "|(I - P_row) u_1|"))
    ]
    return conjunction(
        verdicts,
        "trained from scratch on the empirical loss (5) to a relative excess loss "
        "of 1e-20 (midpoint rule), n = 3 < d = 6, 2 draws of (X, y) and of "
        "alpha Wbar with (22) (generic Dbar_l), largest error over them; "
        + "; ".join(v.detail for v in verdicts),
    )


GLYPHS: dict[sp.Symbol, str] = {
    **{
        symbol: glyph(symbol)
        for depth in DEPTHS
        for symbol in network(depth).glyph_symbols()
    },
    **{
        symbol: rf"(\bar W_{{1}})_{{{symbol.name.partition('_')[2]}}}"
        for symbol in _initial
    },
}
_sine = sp.Symbol("sine_beta_u1", nonnegative=True)
_row_distance = sp.Symbol("row_space_distance_u1", nonnegative=True)
GLYPHS[_sine] = r"\sin\angle(\beta(\infty), u_1)"
GLYPHS[_row_distance] = r"\|(I - P_{row(X)})u_1\|_2"

CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "90",
        "initial-bound",
        Kind.INEQUALITY,
        "||W_1^perp(0)||_F = ||(I - P_row(X)) alpha Wbar_1||_F <= alpha ||Wbar_1||_F",
        RelationCheck(_initial_bound, _judge(2, flow=False, near=_NEAR_KERNEL)),
        Status.HOLDS,
        formula=_initial_bound,
        assumptions=("W_1(0) = alpha Wbar_1", "P_row(X) the orthogonal projector"),
        quote="Therefore we have ||W_1^⊥(t)||_F = ||W_1^⊥(0)||_F ≤ α||W¯_1||_F (90) "
        "which vanishes in the limit α → 0.",
        reading=Reading.PRINTED,
        budget_seconds=CLAIM_SECONDS,
        regime=(
            f"n = {SAMPLES} < d = {DIMENSION}, every entry of Wbar_1 and X a "
            "symbol, 20 random points at 50 digits"
        ),
    ),
    Claim(
        SOURCE_ID,
        "89",
        "end-point-along-u1",
        Kind.SIMULATION,
        "lim_{alpha -> 0} lim_{t -> oo} beta(t) = c u_1: the angle between the "
        "scratch-trained beta and the top left singular vector u_1 of W_1 vanishes "
        "(order 3), and u_1 tends into row(X) (order 1, by (90))",
        _check_min_norm_limit,
        Status.HOLDS,
        formula=lambda: nt.both(
            nt.le(_sine, nt.order_constant * _alpha**3),
            nt.le(_row_distance, nt.order_constant * _alpha),
        ),
        assumptions=(
            "gradient flow (midpoint rule) on the empirical loss (5) from alpha "
            "Wbar with (22), n < d",
            "orders: ours, from (35) and (90) for a generic initialization (module "
            "docstring)",
        ),
        budget_seconds=20.0,
        cost=lambda: training_cost("scratch", DEPTHS),
        quote="Lemma B.1 shows that the parameter matrices are approximately rank "
        "one at all times and u_{l+1} and v_l align at the end of training as "
        "α → 0, which means that lim_{α→0} lim_{t→∞} β(t) = lim_{α→0} lim_{t→∞} "
        "W_1W_2...W_L = c u_1 (89) where c > 0. ... This implies that u_1 ∈ row(X) "
        "at all times.",
        reading=Reading.INTERPRETATION,
        regime=(
            "n = 3 < d = 6, L = 2, 3, alpha = 10^-1 to 10^-2.5 after training to "
            "convergence: the text's n <= d case and alpha -> 0, reached at the "
            "orders we derive (c's sign is that of u_1, a convention)"
        ),
    ),
)
