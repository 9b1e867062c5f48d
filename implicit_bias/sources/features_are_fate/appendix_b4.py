r"""Claims of features-are-fate, Appendix B.4: the proof of Theorem 3.5, (78)-(90).

Part 1 of the proof shows that gradient flow on the empirical loss (5)
reaches a global minimum: with :math:`r = XW_1\cdots W_L - y` it splits
:math:`\mathcal{L} = \tfrac{1}{2n}\|r\|_2^2 = \tfrac{1}{2n}(\|r_\parallel\|_2^2
+ \|r_\perp\|_2^2)` (78) with :math:`r_\parallel = P_\parallel r \in
\mathrm{im}(X)` and :math:`r_\perp = P_\perp r \in \ker(X^\top)`, defines
:math:`\mathcal{L}_\parallel := \|r_\parallel\|_2^2` and
:math:`\mathcal{L}_\perp := \|r_\perp\|_2^2`, and bounds
:math:`\dot{\mathcal{L}}_\parallel` in the chain (79)-(88). Part 2 takes
:math:`\alpha \to 0` for :math:`n \le d`: the end point is :math:`c\,u_1`
(89), and the component :math:`W_1^\perp` of :math:`W_1` off the row space of
:math:`X` never moves (90).

The chain is written at :math:`n = 3 > d = 2` (the case the text says it adds
to Yun et al.; :math:`r_\perp \ne 0`), :math:`L = 2` and :math:`3`, with a
symbol for every entry of the weights, :math:`X`, :math:`y` and
:math:`P_\parallel`
(:class:`~implicit_bias.sources.features_are_fate._empirical_networks.\
EmpiricalNetwork`): the gradients are SymPy's partial derivatives of the
text's :math:`\mathcal{L}`, :math:`\mathcal{L}_\parallel` and
:math:`\mathcal{L}_\perp`, the time derivative SymPy's along velocities
:math:`V_l`, the flow (6) :math:`V_l = -\nabla_l\mathcal{L}`. Each step is
judged on instances where :math:`P_\parallel` is the projector onto
:math:`\mathrm{im}(X)` (the data constraint), at 20 random points at 50 digits,
a violation certified in ball arithmetic. Step (87) holds on weights with
:math:`D_l \succeq \alpha^2\lambda I`, which (35) and (22) keep for all time:
it is decided at 24 exact rational such states
(:mod:`~implicit_bias.sources.features_are_fate._balanced_states`), each with
random rational data.

As printed, three steps do not follow. The text defines
:math:`\mathcal{L}_\parallel` without the :math:`\tfrac{1}{2n}` of (78) while
the flow descends (78), so :math:`\nabla_l\mathcal{L} = \tfrac{1}{2n}
(\nabla_l\mathcal{L}_\parallel + \nabla_l\mathcal{L}_\perp)`: (81) drops that
factor; :math:`\nabla_L\mathcal{L}_\parallel = 2W_{L-1}^\top\cdots W_1^\top
X^\top P_\parallel r`, so (85) drops a factor 4; and (88) needs
:math:`\|X^\top r_\parallel\|^2 \ge 2\lambda_{\min}\|r_\parallel\|^2`, twice what
holds. Each has a holding correction; the conclusion, an exponential decay of
:math:`\|r_\parallel\|^2` and so :math:`\lim_t \|r_\parallel(t)\| = 0`, stands
with the rate :math:`\tfrac{2}{n}(\alpha^2\lambda)^{L-1}\lambda_{\min}`.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping

import numpy as np
import sympy as sp

from implicit_bias.claims.checks import Sampler, judge_relation, log_uniform
from implicit_bias.claims.derivation import Derivation, Step
from implicit_bias.claims.checks import RelationCheck
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Status,
    Verdict,
    conjunction,
)
from implicit_bias.sources.features_are_fate._balanced_states import (
    BalancedState,
    balanced_states,
)
from implicit_bias.sources.features_are_fate._empirical_networks import (
    EmpiricalNetwork,
    glyph,
    inner,
    product,
    smallest_eigenvalue,
    smallest_singular_value_squared,
)
from implicit_bias.sources.features_are_fate.appendix_b4_states import (
    equality_states,
    fitted_labels,
)
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.theory import transfer_asymptotics as theory

__all__ = [
    "CLAIMS",
    "DERIVATIONS",
    "GLYPHS",
    "NearTightSet",
    "judge_near",
    "order_one_samplers",
]

#: n > d: the samples and data dimension of Part 1's chain.
SAMPLES, DIMENSION = 3, 2
#: The depths the chain is checked at.
DEPTHS = (2, 3)
#: Random points per step, and the CPU seconds of each step's symbolic attempt
#: (the expressions are too large for SymPy to decide them in time).
POINTS = 20
#: The CPU budget of each claim (the slowest takes about 15 s).
CLAIM_SECONDS = 45.0
SYMBOLIC_SECONDS = 1.0
#: Exact states with D_l >= alpha^2 lambda I that step (87) is decided at:
#: random ones, at L = 2 ones where (87) is an equality, and random ones again
#: with labels the network fits (appendix_b4_states).
BALANCED_STATES = 24
EQUALITY_STATES = 6
FITTED_STATES = 6
#: Points next to the set where an inequality is tight, beside the POINTS
#: random ones: random points put its two sides orders of magnitude apart
#: (entries drawn over six decades), so an error in a term they share is lost
#: in the slack; next to equality every term of both sides counts.
NEAR_POINTS = 10
#: The distance to that set, relative: 2**-20, as the rational grid of the
#: draws (with the perturbation's entries drawn over six decades around 1).
NEAR = sp.Rational(1, 2**20)

_alpha, _lam = theory.alpha, theory.lam


@functools.cache
def network(depth: int) -> EmpiricalNetwork:
    """Part 1's network of depth ``depth`` (n = 3, d = 2), built once."""
    return EmpiricalNetwork(depth, SAMPLES, DIMENSION)


def _substituted(relation: sp.Basic, *maps: Mapping[sp.Basic, sp.Basic]) -> sp.Basic:
    """``relation`` with ``maps`` replaced in turn, left unevaluated."""
    lhs, rhs = relation.args
    for mapping in maps:
        lhs, rhs = lhs.xreplace(dict(mapping)), rhs.xreplace(dict(mapping))
    return relation.func(lhs, rhs, evaluate=False)


@dataclasses.dataclass(frozen=True)
class NearTightSet:
    """Where an inequality of the chain is nearly an equality: substitutions
    that put the judged points there, and the set in words."""

    values: Callable[[], Mapping[sp.Symbol, sp.Expr]]
    description: str


def _judge(
    depth: int, *, flow: bool = True, near: NearTightSet | None = None
) -> Callable[[sp.Basic], Verdict]:
    """Decide a relation of the chain at depth ``depth``: under the flow (6)
    (``flow``), on data whose ``P`` is the projector onto im(X) -- at
    :data:`POINTS` random points, and, for an inequality with a ``near``
    set, also at :data:`NEAR_POINTS` points next to where it is tight."""

    def judge(relation: sp.Basic) -> Verdict:
        net = network(depth)
        maps = [net.flow()] if flow else []
        maps.append(net.data_constraint())
        verdict = judge_relation(
            _substituted(relation, *maps),
            budget_seconds=SYMBOLIC_SECONDS,
            points=POINTS,
        )
        # An exact matrix check says "exact rational arithmetic" but names no
        # tolerance: it is 0.
        if verdict.basis == Basis.NUMERICAL and "tolerance" not in verdict.detail:
            verdict = verdict.with_detail(f"{verdict.detail} (tolerance 0: exact)")
        if near is None or verdict.status != Status.HOLDS:
            return verdict
        close = judge_near(_substituted(relation, *maps), near)
        return conjunction(
            [verdict, close],
            f"{verdict.detail}; and {near.description}: {close.detail}",
        )

    return judge


def judge_near(relation: sp.Basic, near: NearTightSet) -> Verdict:
    """Decide ``relation`` (its constraints substituted) at :data:`NEAR_POINTS`
    points of ``near``, every symbol of order one (:func:`order_one_samplers`)."""
    nearby = _substituted(relation, near.values())
    return judge_relation(
        nearby,
        samplers=order_one_samplers(nearby.free_symbols),
        budget_seconds=SYMBOLIC_SECONDS,
        points=NEAR_POINTS,
    )


def order_one_samplers(symbols: set[sp.Basic]) -> dict[sp.Symbol, Sampler]:
    """Magnitudes log-uniform on [1/10, 10] (a random sign unless positive), so
    that every term of a relation is of a size with the others."""
    return {
        symbol: log_uniform(0.1, 10.0, signed=not symbol.is_positive)
        for symbol in symbols
        if isinstance(symbol, sp.Symbol)
    }


def _rotation(parameter: sp.Symbol) -> sp.Matrix:
    r"""The rotation :math:`\frac{1}{1 + q^2}\begin{pmatrix}1 - q^2 & -2q \\ 2q &
    1 - q^2\end{pmatrix}`: every rotation but by :math:`\pi`, rational at a
    rational :math:`q`."""
    cosine = (1 - parameter**2) / (1 + parameter**2)
    sine = 2 * parameter / (1 + parameter**2)
    return sp.Matrix([[cosine, -sine], [sine, cosine]])


def _near_orthogonal_weights(depth: int) -> dict[sp.Symbol, sp.Expr]:
    r""":math:`W_l = c_l(Q_l + \delta E_l)`, :math:`l < L`: :math:`Q_l` a
    rotation, :math:`c_l > 0`, :math:`E_l` free, :math:`\delta =` :data:`NEAR`;
    so :math:`W_{L-1}^\top\cdots W_1^\top` is a multiple of a rotation up to
    :math:`O(\delta)`, its singular values equal to first order."""
    values: dict[sp.Symbol, sp.Expr] = {}
    for layer, weight in enumerate(network(depth).weights[:-1], start=1):
        rotation = _rotation(sp.Symbol(f"q{layer}", real=True))
        scale = sp.Symbol(f"c{layer}", positive=True)
        for i in range(weight.rows):
            for j in range(weight.cols):
                off = sp.Symbol(f"e{layer}_{i}{j}", real=True)
                values[weight[i, j]] = scale * (rotation[i, j] + NEAR * off)
    return values


def _near_isotropic_data() -> dict[sp.Symbol, sp.Expr]:
    r""":math:`b = (m \times a)/\|m\| + \delta e`, :math:`\delta =`
    :data:`NEAR`: with the columns :math:`m \times a, m \times b` of the data
    constraint, :math:`X^\top X = \|m\|^2\|a_\perp\|^2 I + O(\delta)` (its
    two columns orthogonal and of one length, to first order)."""
    u, v = sp.symbols("u v", real=True)
    normal = sp.Matrix([2 * u, 2 * v, 1 - u**2 - v**2])
    first = sp.Matrix(3, 1, lambda i, _: sp.Symbol(f"a_{i}0", real=True))
    turned = normal.cross(first) / (1 + u**2 + v**2)
    return {
        sp.Symbol(f"b_{i}0", real=True): turned[i]
        + NEAR * sp.Symbol(f"eb_{i}0", real=True)
        for i in range(3)
    }


def _rational_draws(
    rng: np.random.Generator, symbols: list[sp.Symbol]
) -> dict[sp.Symbol, sp.Rational]:
    """Standard normal draws rounded to multiples of 2**-20, one per symbol."""
    grid = 2**20
    return {
        symbol: sp.Rational(int(np.rint(rng.standard_normal() * grid)), grid)
        for symbol in symbols
    }


def _judge_at_balanced_states(depth: int) -> Callable[[sp.Basic], Verdict]:
    """Decide a relation at the exact states with D_l >= alpha^2 lambda I of
    :func:`~implicit_bias.sources.features_are_fate._balanced_states.\
balanced_states`, each with random rational data (X through its
    constraint, y), by :func:`judge_relation` on the constant relation."""

    def judge(relation: sp.Basic) -> Verdict:
        net = network(depth)
        stated = _substituted(relation, net.data_constraint())
        free = sorted(
            stated.free_symbols - set(sp.flatten(net.weights)) - {_alpha, _lam},
            key=str,
        )
        rng = np.random.default_rng(depth)
        states, fitted = _states_of_87(depth)
        for number, state in enumerate(states, start=1):
            values: dict[sp.Symbol, sp.Basic] = {
                _alpha: state.alpha,
                _lam: state.margin,
            }
            for weight, value in zip(net.weights, state.weights, strict=True):
                values.update(zip(weight, value, strict=True))
            values.update(_rational_draws(rng, free))
            if number > len(states) - fitted:
                values.update(_fitted(net, values, state))
            verdict = judge_relation(
                _substituted(stated, values),
                budget_seconds=SYMBOLIC_SECONDS,
                points=1,
            )
            if verdict.status != Status.HOLDS:
                where = (
                    f"at state {number} of {len(states)} ({state.written()}), data "
                    f"{', '.join(f'{k} = {v}' for k, v in values.items() if k in free)}"
                )
                return dataclasses.replace(
                    verdict,
                    detail=f"{where}: {verdict.detail}",
                    counterexample=(
                        f"{where}: {verdict.counterexample}"
                        if verdict.counterexample
                        else None
                    ),
                )
        equal = EQUALITY_STATES if depth == 2 else 0
        return Verdict.holds(
            f"at {len(states)} exact rational states with D_l - alpha^2 lambda I "
            "positive semidefinite (decided exactly; alpha = 1, 1/8, 1/64, 2): "
            f"{BALANCED_STATES} with random rational data (every third nearly "
            "tight)"
            + (
                f", {equal} with D_1 = alpha^2 lambda I exactly (where (87) is an "
                "equality) and random rational data"
                if equal
                else ""
            )
            + f", and {fitted} of the first again with labels y = X W_1 ... W_L "
            "+ s m (r_par = 0, a global minimum of (78)): the constant relation "
            "holds at each, evaluated at 50 digits (tolerance 1e-40 relative: a "
            "smaller violation is equality)",
            Basis.NUMERICAL,
        )

    return judge


def _states_of_87(depth: int) -> tuple[list[BalancedState], int]:
    """The states (87) is decided at, and how many of them, last, take fitted
    labels (:mod:`~implicit_bias.sources.features_are_fate.appendix_b4_states`)."""
    balanced = list(balanced_states(depth, DIMENSION, count=BALANCED_STATES))
    equal = list(equality_states(EQUALITY_STATES)) if depth == 2 else []
    return [*balanced, *equal, *balanced[:FITTED_STATES]], FITTED_STATES


def _fitted(
    net: EmpiricalNetwork, values: Mapping[sp.Symbol, sp.Basic], state: BalancedState
) -> dict[sp.Symbol, sp.Basic]:
    """The labels of :func:`~implicit_bias.sources.features_are_fate.\
appendix_b4_states.fitted_labels` at the drawn data ``values``, with an offset
    along ker(X^T) of their y_00."""
    constraint = net.data_constraint()
    data = net.data.xreplace(constraint).xreplace(dict(values))
    u, v = sp.symbols("u v", real=True)
    normal = sp.Matrix([2 * u, 2 * v, 1 - u**2 - v**2]).xreplace(dict(values))
    offset = values[net.labels[0, 0]]
    labels = fitted_labels(data, normal, state.weights, offset)
    return dict(zip(net.labels, labels, strict=True))


def _gradients(depth: int, function: sp.Expr) -> list[sp.Matrix]:
    net = network(depth)
    return [net.partial_gradient(function, layer) for layer in range(1, depth + 1)]


def parallel_loss(depth: int) -> sp.Expr:
    r""":math:`\mathcal{L}_\parallel := \|P_\parallel r\|_2^2`, as printed."""
    residual = network(depth).parallel_residual()
    return (residual.T * residual)[0, 0]


def perpendicular_loss(depth: int) -> sp.Expr:
    r""":math:`\mathcal{L}_\perp := \|P_\perp r\|_2^2`, as printed."""
    residual = network(depth).perpendicular_residual()
    return (residual.T * residual)[0, 0]


def _sum(terms: list[sp.Expr]) -> sp.Expr:
    return sum(terms, sp.Integer(0))


def _projected_data_residual(depth: int) -> sp.Matrix:
    r""":math:`X^\top P_\parallel r`."""
    net = network(depth)
    return net.data.T * net.parallel_residual()


def _hidden_transpose(depth: int) -> sp.Matrix:
    r""":math:`W_{L-1}^\top\cdots W_1^\top`."""
    return product([w.T for w in reversed(network(depth).weights[:-1])])


def _chain_rule(depth: int) -> sp.Expr:
    net = network(depth)
    gradients = _gradients(depth, parallel_loss(depth))
    return _sum([inner(g, v) for g, v in zip(gradients, net.velocities, strict=True)])


def _against_loss_gradient(depth: int) -> sp.Expr:
    gradients = _gradients(depth, parallel_loss(depth))
    loss = _gradients(depth, network(depth).loss)
    return -_sum([inner(g, h) for g, h in zip(gradients, loss, strict=True)])


def _split(depth: int, scale: sp.Expr | int = 1) -> sp.Expr:
    parallel = _gradients(depth, parallel_loss(depth))
    perpendicular = _gradients(depth, perpendicular_loss(depth))
    return -scale * _sum(
        [
            inner(g, g) + inner(g, h)
            for g, h in zip(parallel, perpendicular, strict=True)
        ]
    )


def _parallel_squares(depth: int) -> sp.Expr:
    return -_sum([inner(g, g) for g in _gradients(depth, parallel_loss(depth))])


def _last_layer_square(depth: int) -> sp.Expr:
    gradient = network(depth).partial_gradient(parallel_loss(depth), depth)
    return -inner(gradient, gradient)


def _written_out(depth: int, scale: sp.Expr | int = 1) -> sp.Expr:
    vector = _hidden_transpose(depth) * _projected_data_residual(depth)
    return -scale * inner(vector, vector)


def _singular_value_bound(depth: int) -> sp.Expr:
    vector = _projected_data_residual(depth)
    return -smallest_singular_value_squared(_hidden_transpose(depth)) * inner(
        vector, vector
    )


def _invariant_bound(depth: int) -> sp.Expr:
    vector = _projected_data_residual(depth)
    return -((_alpha**2 * _lam) ** (depth - 1)) * inner(vector, vector)


def smallest_data_eigenvalue(depth: int) -> sp.Expr:
    r""":math:`\lambda_{\min}`, the smallest nonzero eigenvalue of :math:`XX^\top`:
    that of :math:`X^\top X` (``n > d``, rank d)."""
    data = network(depth).data
    return smallest_eigenvalue(data.T * data)


def _eigenvalue_bound(depth: int, factor: sp.Expr | int = 2) -> sp.Expr:
    return (
        -factor
        * (_alpha**2 * _lam) ** (depth - 1)
        * smallest_data_eigenvalue(depth)
        * parallel_loss(depth)
    )


_QUOTE = (
    "Let P_∥ and P_⊥ be the orthogonal projectors onto im(X) and ker(X^T) "
    "respectively, so that L_∥ := ||r_∥||_2^2 = ||P_∥(XW_1W_2...W_L − y_t)||_2^2 "
    "and L_⊥ := ||r_⊥||_2^2 = ||P_⊥(XW_1W_2...W_L − y_t)||_2^2. Then we have "
    "L̇_∥ = Σ_{l=1}^L ⟨∇_l L_∥, Ẇ_l⟩ (79) = −Σ_{l=1}^L ⟨∇_l L_∥, ∇_l L⟩ (80) = "
    "−Σ_{l=1}^L (||∇_l L_∥||_F^2 + ⟨∇_l L_∥, ∇_l L_⊥⟩) (81)"
)

_ASSUMPTIONS = (
    "L = ||r||_2^2/(2n), r = X W_1 ... W_L - y (the empirical loss (5), as (78) "
    "writes it); L_par := ||P_par r||^2 and L_perp := ||P_perp r||^2 as the text "
    "defines them",
    "gradient flow (6): dW_l/dt = -grad_l L (step (79) for every dW_l/dt)",
    "P_par the orthogonal projector onto im(X), P_perp = I - P_par",
    "hidden widths d_l = d (eq. (9)), so W_{L-1}^T ... W_1^T is square",
    "step (87): D_l = W_l^T W_l - W_{l+1} W_{l+1}^T >= alpha^2 lambda I for l < L, "
    "which (35) keeps from the initialization (22)",
)

_REGIME = (
    "n = 3 > d = 2, L = {depth}: W_l 2x2 (l < L), W_L 2x1, X 3x2, y 3x1, every "
    "entry a symbol; judged at 20 random points at 50 digits where X has columns "
    "m x a, m x b, m = (2u, 2v, 1 - u^2 - v^2), and P_par = I - m m^T/|m|^2 "
    "(every X of rank 2 but a set of measure zero), (86) and (88) also next to "
    "equality; (87) at exact rational states with D_l >= alpha^2 lambda I (alpha "
    "= 1, 1/8, 1/64, 2; at L = 2 some with equality) and random or fitted data"
)

#: The slip the three failing steps show.
NORMALIZATION_SLIP = "normalization-78-88"


#: (86) is an equality when W_{L-1}^T ... W_1^T is a multiple of a rotation.
_NEAR_ROTATION = {
    depth: NearTightSet(
        functools.partial(_near_orthogonal_weights, depth),
        f"at {NEAR_POINTS} points next to where it is an equality, W_l = c_l (Q_l "
        "+ 2^-20 E_l) for l < L (Q_l a rotation: all singular values of "
        "W_{L-1}^T ... W_1^T nearly equal)",
    )
    for depth in DEPTHS
}
#: (88) is an equality when X^T X is a multiple of I.
_NEAR_ISOTROPIC = NearTightSet(
    _near_isotropic_data,
    f"at {NEAR_POINTS} points next to where it is an equality, X^T X = c I + "
    "O(2^-20) (b = (m x a)/|m| + 2^-20 e: the columns of X orthogonal and of one "
    "length)",
)


def _chain(depth: int) -> Derivation:
    return Derivation(
        source=SOURCE_ID,
        equation="79-88",
        label=f"parallel-decay-depth-{depth}",
        title=(
            "The decay of L_par in Theorem 3.5's proof, "
            f"L = {depth}, n = {SAMPLES}, d = {DIMENSION}"
        ),
        start=lambda: network(depth).rate(parallel_loss(depth)),
        steps=(
            Step(
                lambda: _chain_rule(depth),
                "the chain rule, for every velocity dW_l/dt",
                equation="79",
                quote="L̇_∥ = Σ_{l=1}^L ⟨∇_l L_∥, Ẇ_l⟩ (79)",
                judge=_judge(depth, flow=False),
            ),
            Step(
                lambda: _against_loss_gradient(depth),
                "under gradient flow dW_l/dt = -grad_l L",
                equation="80",
                quote="= −Σ_{l=1}^L ⟨∇_l L_∥, ∇_l L⟩ (80)",
                judge=_judge(depth),
            ),
            Step(
                lambda: _split(depth),
                "grad_l L split into grad_l L_par + grad_l L_perp, as printed: "
                "with the text's L_par = ||r_par||^2 and (78), grad_l L = "
                "(grad_l L_par + grad_l L_perp)/(2n), a factor 1/(2n) the step "
                "drops",
                equation="81",
                quote="= −Σ_{l=1}^L (||∇_l L_∥||_F^2 + ⟨∇_l L_∥, ∇_l L_⊥⟩) (81)",
                judge=_judge(depth),
                expected=Status.FAILS,
                slip=NORMALIZATION_SLIP,
            ),
            Step(
                lambda: _parallel_squares(depth),
                "grad_l L_perp = 0 (82): X^T P_perp = 0",
                equation="83",
                quote="so L̇_∥ = −Σ_{l=1}^L ||∇_l L_∥||_F^2 (83)",
                judge=_judge(depth),
            ),
            Step(
                lambda: _last_layer_square(depth),
                "drop the terms l < L, each <= 0",
                relation="<=",
                equation="84",
                quote="≤ −||∇_L L_∥||_F^2 (84)",
                judge=_judge(depth),
            ),
            Step(
                lambda: _written_out(depth),
                "the last layer's gradient written out, as printed: grad_L L_par "
                "= 2 W_{L-1}^T ... W_1^T X^T P_par r for L_par = ||P_par r||^2, a "
                "factor 4 in the square the step drops",
                equation="85",
                quote="= −||W_{L−1}^T ... W_1^T X^T P_∥ r||_2^2 (85)",
                judge=_judge(depth),
                expected=Status.FAILS,
                slip=NORMALIZATION_SLIP,
            ),
            Step(
                lambda: _singular_value_bound(depth),
                "||M v||^2 >= sigma_min^2(M) ||v||^2 for a square M",
                relation="<=",
                equation="86",
                quote="≤ −σ_min^2(W_{L−1}^T ... W_1^T) ||X^T P_∥ r||_2^2 (86)",
                judge=_judge(depth, near=_NEAR_ROTATION[depth]),
            ),
            Step(
                lambda: _invariant_bound(depth),
                "sigma_min^2(W_{L-1}^T ... W_1^T) >= (alpha^2 lambda)^(L-1) when "
                "D_l >= alpha^2 lambda I ((42)-(46)), on such weights",
                relation="<=",
                equation="87",
                quote="From Eq. (42)-(46) we can bound this quantity away from "
                "zero. Then we have L̇_∥ ≤ −(α^2λ)^{L−1} ||X^T P_∥ r||_2^2 (87)",
                judge=_judge_at_balanced_states(depth),
            ),
            Step(
                lambda: _eigenvalue_bound(depth),
                "as printed: ||X^T v||^2 >= lambda_min ||v||^2 for v in im(X) gives "
                "lambda_min L_par, not the printed 2 lambda_min L_par, with "
                "L_par = ||r_par||^2",
                relation="<=",
                equation="88",
                quote="≤ −2(α^2λ)^{L−1} λ_min L_∥ (88) where λ_min is the smallest "
                "nonzero eigenvalue of XX^T",
                judge=_judge(depth),
                expected=Status.FAILS,
                slip=NORMALIZATION_SLIP,
            ),
        ),
        quote=_QUOTE,
        reading=Reading.PRINTED,
        claim_budget_seconds=CLAIM_SECONDS,
        regime=_REGIME.format(depth=depth),
        assumptions=_ASSUMPTIONS,
        substitutions=network(depth).flow(),
    )


# --- (78) and (82)


def _half_mean_square(vector: sp.Matrix) -> sp.Expr:
    return inner(vector, vector) / (2 * SAMPLES)


def _split_chain() -> Derivation:
    net = network(2)
    perpendicular = sp.eye(SAMPLES) - net.projector
    return Derivation(
        source=SOURCE_ID,
        equation="78",
        label="residual-split",
        title=f"The split of the empirical loss (78), L = 2, n = {SAMPLES}, "
        f"d = {DIMENSION}",
        start=lambda: net.loss,
        steps=(
            Step(
                lambda: (
                    (
                        inner(net.parallel_residual(), net.parallel_residual())
                        + inner(
                            net.perpendicular_residual(), net.perpendicular_residual()
                        )
                    )
                    / (2 * SAMPLES)
                ),
                "Pythagoras: r = P_par r + P_perp r, orthogonal parts",
                equation="78",
                quote="L = (1/2n)||r||_2^2 = (1/2n)(||r_∥||_2^2 + ||r_⊥||_2^2) (78)",
                judge=_judge(2, flow=False),
            ),
            Step(
                lambda: (
                    _half_mean_square(net.parallel_residual())
                    + _half_mean_square(perpendicular * net.labels)
                ),
                "r_perp = -P_perp y does not depend on the weights: X W_1 ... W_L "
                "lies in im(X), so L >= ||P_perp y||^2/(2n), with equality exactly "
                "when r_par = 0",
                quote="Since XW_1W_2...W_L ∈ im(X), the global minimum of (78) is "
                "equal to ||r_⊥||_2^2.",
                judge=_judge(2, flow=False),
            ),
        ),
        quote="First, we define the residual vector r = XW_1W_2...W_L − y_t. Then "
        "we can write the empirical loss as L = (1/2n)||r||_2^2 = (1/2n)(||r_∥||_2^2 "
        "+ ||r_⊥||_2^2) (78) where r_∥ is the component of r in im(X) and r_⊥ is "
        "the component of r in ker(X^T).",
        reading=Reading.PRINTED,
        claim_budget_seconds=CLAIM_SECONDS,
        regime=_REGIME.format(depth=2),
        assumptions=_ASSUMPTIONS[:1] + _ASSUMPTIONS[2:3],
    )


def _stacked(matrices: list[sp.Matrix]) -> sp.Matrix:
    """The entries of ``matrices``, one column."""
    return sp.Matrix([entry for matrix in matrices for entry in matrix])


def _perpendicular_gradients_printed(depth: int) -> sp.Matrix:
    r""":math:`W_{l-1}^\top\cdots W_1^\top X^\top P_\perp r W_L^\top\cdots
    W_{l+1}^\top`, :math:`l = 1, \dots, L`, as printed in (82)."""
    net = network(depth)
    weights = net.weights
    middle = net.data.T * net.perpendicular_residual()
    blocks = []
    for layer in range(1, depth + 1):
        left = [w.T for w in reversed(weights[: layer - 1])]
        right = [w.T for w in reversed(weights[layer:])]
        blocks.append(product([*left, middle, *right]) if left or right else middle)
    return _stacked(blocks)


def _perpendicular_chain(depth: int) -> Derivation:
    return Derivation(
        source=SOURCE_ID,
        equation="82",
        label=f"perpendicular-gradient-depth-{depth}",
        title=f"The gradients of L_perp vanish, L = {depth}, n = {SAMPLES}, "
        f"d = {DIMENSION}",
        start=lambda: _stacked(_gradients(depth, perpendicular_loss(depth))),
        steps=(
            Step(
                lambda: _perpendicular_gradients_printed(depth),
                "the gradients of L_perp = ||P_perp r||^2 written out for every "
                "layer l (SymPy's are twice the printed form; both vanish)",
                quote="∇_l L_⊥ = W_{l−1}^T ... W_1^T X^T P_⊥ r W_L^T ... "
                "W_{l+1}^T = 0 (82)",
                judge=_judge(depth, flow=False),
            ),
            Step(
                lambda: sp.zeros(
                    sum(w.rows * w.cols for w in network(depth).weights), 1
                ),
                "X^T P_perp = 0: P_perp projects onto ker(X^T)",
                quote="= 0 (82)",
                judge=_judge(depth, flow=False),
            ),
        ),
        quote="Taking the gradient of L_⊥ we have ∇_l L_⊥ = W_{l−1}^T ... W_1^T X^T "
        "P_⊥ r W_L^T ... W_{l+1}^T = 0 (82)",
        reading=Reading.PRINTED,
        claim_budget_seconds=CLAIM_SECONDS,
        regime=_REGIME.format(depth=depth),
        assumptions=_ASSUMPTIONS[:1] + _ASSUMPTIONS[2:4],
    )


DERIVATIONS: tuple[Derivation, ...] = (
    _split_chain(),
    *(_chain(depth) for depth in DEPTHS),
    *(_perpendicular_chain(depth) for depth in DEPTHS),
)


def _step_id(depth: int, equation: str, step: int) -> str:
    return f"{SOURCE_ID}:{equation}:parallel-decay-depth-{depth}-step-{step}"


def _correction(
    depth: int,
    equation: str,
    step: int,
    relation: Callable[[], sp.Basic],
    statement: str,
    quote: str,
    *,
    kind: Kind = Kind.IDENTITY,
    near: NearTightSet | None = None,
) -> Claim:
    return Claim(
        SOURCE_ID,
        equation,
        f"normalized-depth-{depth}",
        kind,
        statement,
        RelationCheck(relation, _judge(depth, near=near), network(depth).flow()),
        Status.HOLDS,
        formula=relation,
        corrects=_step_id(depth, equation, step),
        assumptions=_ASSUMPTIONS[:4],
        quote=quote,
        reading=Reading.INTERPRETATION,
        regime=_REGIME.format(depth=depth),
        budget_seconds=CLAIM_SECONDS,
    )


def _corrections(depth: int) -> tuple[Claim, ...]:
    two_n = 2 * SAMPLES
    return (
        _correction(
            depth,
            "81",
            3,
            lambda: sp.Eq(
                _against_loss_gradient(depth),
                _split(depth, sp.Rational(1, two_n)),
                evaluate=False,
            ),
            "(80) = -(1/(2n)) sum_l (||grad_l L_par||_F^2 + <grad_l L_par, "
            "grad_l L_perp>): (81) with the 1/(2n) of (78)",
            "= −Σ_{l=1}^L (||∇_l L_∥||_F^2 + ⟨∇_l L_∥, ∇_l L_⊥⟩) (81)",
        ),
        _correction(
            depth,
            "85",
            6,
            lambda: sp.Eq(
                _last_layer_square(depth),
                _written_out(depth, sp.Integer(4)),
                evaluate=False,
            ),
            "-||grad_L L_par||_F^2 = -4 ||W_{L-1}^T ... W_1^T X^T P_par r||^2 for "
            "L_par = ||P_par r||^2: (85) with the factor 2 of the gradient",
            "= −||W_{L−1}^T ... W_1^T X^T P_∥ r||_2^2 (85)",
        ),
        _correction(
            depth,
            "88",
            9,
            lambda: sp.Le(
                _invariant_bound(depth),
                _eigenvalue_bound(depth, sp.Integer(1)),
                evaluate=False,
            ),
            "-(alpha^2 lambda)^(L-1) ||X^T P_par r||^2 <= -(alpha^2 lambda)^(L-1) "
            "lambda_min L_par: (88) without its factor 2, for L_par = ||r_par||^2",
            "≤ −2(α^2λ)^{L−1} λ_min L_∥ (88)",
            kind=Kind.INEQUALITY,
            near=_NEAR_ISOTROPIC,
        ),
    )


CLAIMS: tuple[Claim, ...] = tuple(
    claim for depth in DEPTHS for claim in _corrections(depth)
)

#: The entries of the chains' matrices in the paper's notation.
GLYPHS: dict[sp.Symbol, str] = {
    symbol: glyph(symbol)
    for depth in DEPTHS
    for symbol in network(depth).glyph_symbols()
}
