r"""Claims of features-are-fate, Appendix B.2: Lemma 3.3's proof after (40).

To turn the decay (40), $\dot{\mathcal{L}} \le -2\sigma_{\min}^2(W_{L-1}^\top
\cdots W_1^\top)\mathcal{L}$, into convergence the proof bounds
$\sigma_{\min}^2$ from below in the Loewner order, (42)-(46), using the
invariant (35) $D_l = W_l^\top W_l - W_{l+1}W_{l+1}^\top$ and the
initialization (22): $D_l(t) = D_l(0) \succeq \alpha^2\lambda I$. Then (47)
$\dot{\mathcal{L}} \le -2(\alpha^2\lambda)^{L-1}\mathcal{L}$, (48) the
exponential decay and (49) $\mathcal{L} \to 0$.

Each Loewner step is a :class:`~implicit_bias.claims.loewner.LoewnerLe`
between expressions of ``MatrixSymbol``\ s $W_l$, $D_l$ at $d = 2$, $L = 3$
and $L = 4$ (at $L = 2$ the product $W_1 \cdots W_{L-1}$ has no inner factor
and (42)-(43) say nothing). The identities (42), (45) are decided by SymPy
with $D_l$ replaced by its definition (35). The inequalities are what holds at
every time of the flow from (22), i.e. at every state with
$D_l \succeq \alpha^2\lambda I$ (:mod:`._balanced_states`): they are decided
exactly at such states drawn with rational entries, with $D_l$ computed from
the weights.

Findings. The "⋮" of (44) does not hold at $L = 4$: after (43) an induction
would need $(W_3 W_3^\top + D_2)^2 \succeq (W_3 W_3^\top)^2$, and squaring is
not monotone in the Loewner order; an exact state refutes (44) there. What
the proof needs, $W_{L-1}^\top \cdots W_1^\top W_1 \cdots W_{L-1} \succeq
(\alpha^2\lambda)^{L-1} I$, holds all the same ($\sigma_{\min}$ of a product
is at least the product of the $\sigma_{\min}(W_l)$, and
$\sigma_{\min}^2(W_l) \ge \lambda_{\min}(D_l) \ge \alpha^2\lambda$), so (47)
stands. (45) prints $D_L$, which (35) does not define (there is no
$W_{L+1}$): by (35) $W_{L-1}^\top W_{L-1} = W_L W_L^\top + D_{L-1}$, our
reading. (48) is printed as an equality, $\mathcal{L}(t) =
\mathcal{L}(0)e^{-2(\alpha^2\lambda)^{L-1}t}$; it is the bound $\le$ that
(47) gives and (49) uses.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

import numpy as np
import sympy as sp

from implicit_bias.claims.certify import exact_point
from implicit_bias.claims.checks import RelationCheck, relation_check
from implicit_bias.claims.engine import Basis, Claim, Kind, Reading, Status, Verdict
from implicit_bias.claims.loewner import LoewnerLe
from implicit_bias.claims.profiles import CostEstimate
from implicit_bias.sources.features_are_fate._balanced_states import (
    BalancedState,
    balanced_states,
    judge_at_states,
)
from implicit_bias.sources.features_are_fate._costs import whole_run_seconds
from implicit_bias.sources.features_are_fate._state_search import (
    CANDIDATES,
    closest_states,
)
from implicit_bias.sources.features_are_fate._tight_states import (
    DRAWS as TIGHT_DRAWS,
)
from implicit_bias.sources.features_are_fate._tight_states import (
    SCALES,
    tight_states,
)
from implicit_bias.sources.features_are_fate.appendix_b2 import (
    DeepLinearNetwork,
    deep_linear_network,
)
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.theory import transfer_asymptotics as theory
from implicit_bias.validation import deep_linear_networks as networks

__all__ = ["CLAIMS", "GLYPHS"]

#: The data dimension of every instance.
DIMENSION = 2
#: The depths the Loewner chain is checked at.
DEPTHS = (3, 4)
#: Exact states per inequality.
STATES = 24
#: States of the search where (47) is closest to failing, decided as well.
SEARCHED = 4

_alpha, _lam, _t = theory.alpha, theory.lam, theory.t
_initial_loss = sp.Symbol("L_0", positive=True)

#: The symbols of this module in the paper's notation.
GLYPHS: dict[sp.Basic, str] = {_initial_loss: r"\mathcal{L}(0)"}


# --- the matrices of (42)-(46)


@functools.cache
def _weights(depth: int) -> tuple[sp.MatrixSymbol, ...]:
    r"""$W_1, \dots, W_L$: ``d x d``, $W_L$ ``d x 1``."""
    return tuple(
        sp.MatrixSymbol(f"W_{layer}", DIMENSION, DIMENSION if layer < depth else 1)
        for layer in range(1, depth + 1)
    )


@functools.cache
def _invariants(depth: int) -> tuple[sp.MatrixSymbol, ...]:
    r"""$D_1, \dots, D_{L-1}$ (35)."""
    return tuple(
        sp.MatrixSymbol(f"D_{layer}", DIMENSION, DIMENSION) for layer in range(1, depth)
    )


def _definitions(depth: int) -> dict[sp.Basic, sp.Basic]:
    r"""(35): $D_l = W_l^\top W_l - W_{l+1} W_{l+1}^\top$."""
    w = _weights(depth)
    return {
        d: w[k].T * w[k] - w[k + 1] * w[k + 1].T
        for k, d in enumerate(_invariants(depth))
    }


def _product(factors: list[sp.MatrixExpr]) -> sp.MatrixExpr:
    """The ordered product; the identity when empty."""
    if not factors:
        return sp.Identity(DIMENSION)
    return factors[0] if len(factors) == 1 else sp.MatMul(*factors)


def _conjugated(middle: sp.MatrixExpr, depth: int, first: int) -> sp.MatrixExpr:
    r"""$W_{L-1}^\top \cdots W_{f}^\top\, M\, W_f \cdots W_{L-1}$, $f$ = ``first``."""
    w = _weights(depth)
    inner = list(w[first - 1 : depth - 1])
    outer = [m.T for m in reversed(inner)]
    return _product([*outer, middle, *inner]) if inner else middle


def gram(depth: int) -> sp.MatrixExpr:
    r"""$W_{L-1}^\top \cdots W_1^\top W_1 \cdots W_{L-1}$, the left side of (42)."""
    w = _weights(depth)
    return _conjugated(w[0].T * w[0], depth, 2)


def step_42(depth: int) -> sp.MatrixExpr:
    r"""(42): $W_{L-1}^\top\cdots W_2^\top(W_2W_2^\top + D_1)W_2\cdots W_{L-1}$."""
    w, d = _weights(depth), _invariants(depth)
    return _conjugated(w[1] * w[1].T + d[0], depth, 2)


def step_43(depth: int) -> sp.MatrixExpr:
    r"""(43): $W_{L-1}^\top\cdots W_3^\top(W_2^\top W_2)^2 W_3\cdots W_{L-1}$."""
    w = _weights(depth)
    return _conjugated(sp.MatPow(w[1].T * w[1], 2), depth, 3)


def step_44(depth: int) -> sp.MatrixExpr:
    r"""(44): $(W_{L-1}^\top W_{L-1})^{L-1}$."""
    w = _weights(depth)
    return sp.MatPow(w[depth - 2].T * w[depth - 2], depth - 1)


def step_45(depth: int) -> sp.MatrixExpr:
    r"""(45) read with $D_{L-1}$: $(W_L W_L^\top + D_{L-1})^{L-1}$."""
    w, d = _weights(depth), _invariants(depth)
    return sp.MatPow(w[depth - 1] * w[depth - 1].T + d[depth - 2], depth - 1)


def step_46(depth: int) -> sp.MatrixExpr:
    r"""(46): $(\alpha^2\lambda)^{L-1} I$."""
    return (_alpha**2 * _lam) ** (depth - 1) * sp.Identity(DIMENSION)


def _state_matrices(depth: int, state: BalancedState) -> Mapping[sp.Basic, sp.Basic]:
    """The state's W_l, D_l, alpha and lambda for the MatrixSymbols above."""
    return {
        **dict(zip(_weights(depth), state.weights, strict=True)),
        **dict(zip(_invariants(depth), state.invariants, strict=True)),
        _alpha: state.alpha,
        _lam: state.margin,
    }


def _states(depth: int) -> tuple[BalancedState, ...]:
    """The drawn states, then those where the bounds are nearly equalities."""
    return balanced_states(depth, DIMENSION, STATES) + tight_states(depth, DIMENSION)


#: The states of each depth.
COUNT = STATES + len(SCALES) * TIGHT_DRAWS

_STATES_REGIME = (
    "d = 2, L = {depth}: {count} exact rational states with D_l >= alpha^2 lambda I "
    "(l < L), D_l computed from the weights by (35): "
    + str(STATES)
    + " drawn with alpha in {{1, 1/8, 1/64, 2}} and "
    + str(len(SCALES) * TIGHT_DRAWS)
    + " where (40)-(47) are nearly equalities (D_l = alpha^2 lambda I up to "
    "rounding, W_L ~ 1e-3 alpha, r along the bottom singular vector of W_1 ... "
    "W_{{L-1}}) with (alpha, lambda) in {{"
    + ", ".join(f"({alpha}, {lam})" for alpha, lam in SCALES)
    + "}}"
)


def _judge_at_states(depth: int, relation: sp.Basic) -> Verdict:
    """``relation`` (in the MatrixSymbols W_l, D_l) decided at the states."""
    return judge_at_states(
        relation,
        _states(depth),
        functools.partial(_state_matrices, depth),
        regime=_STATES_REGIME.format(depth=depth, count=COUNT),
    )


def _loewner_check(relation: Callable[[], sp.Basic], depth: int) -> RelationCheck:
    return RelationCheck(relation, functools.partial(_judge_at_states, depth))


def _relation(build: str, depth: int) -> sp.Basic:
    """The relation of one step, by name (so a claim's check is picklable)."""
    steps = {
        "42": lambda: sp.Eq(gram(depth), step_42(depth), evaluate=False),
        "43": lambda: LoewnerLe(step_43(depth), step_42(depth)),
        "44": lambda: LoewnerLe(step_44(depth), step_43(depth)),
        "45": lambda: sp.Eq(step_44(depth), step_45(depth), evaluate=False),
        "46": lambda: LoewnerLe(step_46(depth), step_45(depth)),
        "42-44": lambda: LoewnerLe(step_44(depth), gram(depth)),
        "44-46": lambda: LoewnerLe(step_46(depth), gram(depth)),
        "43-46": lambda: LoewnerLe(step_46(depth), step_43(depth)),
    }
    return steps[build]()


_ASSUMPTIONS = (
    "gradient flow (6) from W_l(0) = alpha Wbar_l with (22): Wbar_l^T Wbar_l - "
    "Wbar_{l+1} Wbar_{l+1}^T >= lambda I, so D_l(t) = D_l(0) >= alpha^2 lambda I "
    "by (35) at every time",
    "hidden widths d_l = d (eq. (9)); W_L is d x 1",
)

_Q42 = (
    "To proceed we bound σ_min(W_{L−1}^T ... W_1^T) away from zero by showing that "
    "W_1 ... W_{L−1} W_{L−1}^T ... W_1^T is positive definite W_{L−1}^T ... W_1^T "
    "W_1 ... W_{L−1} = W_{L−1}^T ... W_2^T (W_2 W_2^T + D_1) W_2 ... W_{L−1} (42)"
)
_Q43 = "≽ W_{L−1}^T ... W_3^T (W_2^T W_2)^2 W_3 ... W_{L−1} (43)"
_Q44 = "⋮ ≽ (W_{L−1}^T W_{L−1})^{L−1} (44)"
_Q45 = "= (W_L W_L^T + D_L)^{L−1} (45)"
_Q46 = (
    "≽ (α^2 λ)^{L−1} (46) where we have used the conservation law (35) and the "
    "initialization assumption (22)."
)


def _loewner_claims(depth: int) -> tuple[Claim, ...]:
    def claim(
        equation: str,
        label: str,
        kind: Kind,
        statement: str,
        check: RelationCheck,
        quote: str,
        *,
        expected: Status = Status.HOLDS,
        reading: Reading = Reading.PRINTED,
        regime: str = "",
        slip: str | None = None,
        corrects: str | None = None,
    ) -> Claim:
        return Claim(
            SOURCE_ID,
            equation,
            f"{label}-depth-{depth}",
            kind,
            statement,
            check,
            expected,
            formula=check.relation,
            assumptions=_ASSUMPTIONS,
            budget_seconds=30.0,
            quote=quote,
            reading=reading,
            regime=regime or _STATES_REGIME.format(depth=depth, count=COUNT),
            slip=slip,
            corrects=corrects,
        )

    relation = functools.partial(_relation, depth=depth)
    identity_regime = (
        f"d = 2, L = {depth}, W_l and D_l matrix symbols, D_l replaced by its "
        "definition (35): an identity for every value of the weights"
    )
    claims = [
        claim(
            "42",
            "gram",
            Kind.IDENTITY,
            "W_{L-1}^T ... W_1^T W_1 ... W_{L-1} = W_{L-1}^T ... W_2^T (W_2 W_2^T + "
            "D_1) W_2 ... W_{L-1}, by (35)",
            relation_check(
                functools.partial(relation, "42"),
                substitutions=_definitions(depth),
                points=20,
            ),
            _Q42,
            regime=identity_regime,
        ),
        claim(
            "43",
            "loewner",
            Kind.INEQUALITY,
            "(42) >= W_{L-1}^T ... W_3^T (W_2^T W_2)^2 W_3 ... W_{L-1} (D_1 >= 0)",
            _loewner_check(functools.partial(relation, "43"), depth),
            _Q43,
        ),
    ]
    fails = depth >= 4
    claims.append(
        claim(
            "44",
            "loewner",
            Kind.INEQUALITY,
            "(43) >= (W_{L-1}^T W_{L-1})^{L-1}"
            + (
                ": the omitted steps would need (W_3 W_3^T + D_2)^2 >= (W_3 W_3^T)^2, "
                "and squaring is not monotone in the Loewner order"
                if fails
                else " (at L = 3 the two sides are one matrix)"
            ),
            _loewner_check(functools.partial(relation, "44"), depth),
            _Q44,
            expected=Status.FAILS if fails else Status.HOLDS,
            slip="loewner-induction-44" if fails else None,
        )
    )
    claims += [
        claim(
            "45",
            "invariant",
            Kind.IDENTITY,
            "(W_{L-1}^T W_{L-1})^{L-1} = (W_L W_L^T + D_{L-1})^{L-1}: (35) at l = "
            "L - 1; the text prints D_L, which (35) does not define (no W_{L+1})",
            relation_check(
                functools.partial(relation, "45"),
                substitutions=_definitions(depth),
                points=20,
            ),
            _Q45,
            reading=Reading.INTERPRETATION,
            regime=identity_regime + "; D_L of the text read as D_{L-1}",
        ),
        claim(
            "46",
            "loewner",
            Kind.INEQUALITY,
            "(W_L W_L^T + D_{L-1})^{L-1} >= (alpha^2 lambda)^{L-1} I, as D_{L-1} >= "
            "alpha^2 lambda I by (35) and (22)",
            _loewner_check(functools.partial(relation, "46"), depth),
            _Q46,
        ),
    ]
    if fails:
        claims.append(
            claim(
                "44",
                "chain",
                Kind.INEQUALITY,
                "W_{L-1}^T ... W_1^T W_1 ... W_{L-1} >= (W_{L-1}^T W_{L-1})^{L-1}: "
                "what the chain (42)-(44) concludes",
                _loewner_check(functools.partial(relation, "42-44"), depth),
                _Q42 + " " + _Q43 + " " + _Q44,
                expected=Status.FAILS,
                slip="loewner-induction-44",
            )
        )
        claims.append(
            claim(
                "44",
                "smallest-eigenvalue",
                Kind.INEQUALITY,
                "W_{L-1}^T ... W_1^T W_1 ... W_{L-1} >= (alpha^2 lambda)^{L-1} I, "
                "what (42)-(46) conclude, without (44): sigma_min of a product is at "
                "least the product of the sigma_min(W_l)^2 >= lambda_min(D_l)",
                _loewner_check(functools.partial(relation, "44-46"), depth),
                _Q42 + " ... " + _Q46,
                reading=Reading.EXTENSION,
                corrects=f"{SOURCE_ID}:44:chain-depth-{depth}",
            )
        )
        claims.append(
            claim(
                "44",
                "step-bound",
                Kind.INEQUALITY,
                "W_{L-1}^T ... W_3^T (W_2^T W_2)^2 W_3 ... W_{L-1} >= (alpha^2 "
                "lambda)^{L-1} I: (43) bounded as (46) bounds (45), without (44) "
                "(each W_l^T W_l >= alpha^2 lambda I)",
                _loewner_check(functools.partial(relation, "43-46"), depth),
                _Q43 + " ... " + _Q46,
                reading=Reading.EXTENSION,
                corrects=f"{SOURCE_ID}:44:loewner-depth-{depth}",
            )
        )
    return tuple(claims)


# --- (47)-(49): the exponential decay


@functools.cache
def _network(depth: int) -> DeepLinearNetwork:
    return deep_linear_network(depth)


def _entry_values(depth: int, state: BalancedState) -> Mapping[sp.Basic, sp.Basic]:
    """The state's entries for the symbols of :class:`DeepLinearNetwork`."""
    network = _network(depth)
    values: dict[sp.Basic, sp.Basic] = {_alpha: state.alpha, _lam: state.margin}
    for symbols, weight in zip(network.weights, state.weights, strict=True):
        values.update(zip(symbols, weight, strict=True))
    values.update(zip(network.target, state.target, strict=True))
    return values


def _decay_rate(depth: int) -> sp.Basic:
    r"""(47): $\dot{\mathcal{L}} \le -2(\alpha^2\lambda)^{L-1}\mathcal{L}$."""
    network = _network(depth)
    return sp.Le(
        network.loss_rate(),
        -2 * (_alpha**2 * _lam) ** (depth - 1) * network.loss,
        evaluate=False,
    )


def _searched_states(depth: int, relation: sp.Basic) -> tuple[BalancedState, ...]:
    """The admissible states where ``relation`` (under the flow) is closest to
    failing, from a float64 search (:func:`._state_search.closest_states`)."""
    if not isinstance(relation, (sp.Le, sp.Lt, sp.Ge, sp.Gt)):
        return ()
    network = _network(depth)
    flowed = relation.xreplace(network.flow())
    symbols = [
        *(entry for weight in network.weights for entry in weight),
        *network.target,
        _alpha,
        _lam,
    ]
    if not flowed.free_symbols <= set(symbols):
        return ()
    gap = flowed.gts - flowed.lts
    return closest_states(
        gap, abs(flowed.gts) + abs(flowed.lts), symbols, depth, count=SEARCHED
    )


def _decay_judge(depth: int, relation: sp.Basic) -> Verdict:
    searched = _searched_states(depth, relation)
    return judge_at_states(
        relation,
        _states(depth) + searched,
        functools.partial(_entry_values, depth),
        substitutions=_network(depth).flow(),
        regime=_STATES_REGIME.format(depth=depth, count=COUNT)
        + f", beta_s Gaussian (tight states: r along the bottom singular vector), "
        f"and {len(searched)} where it is closest to failing among "
        f"{CANDIDATES} admissible states of a float64 search (W_L up to 10^1.5 "
        "alpha sqrt(lambda), D_l up to 10^5-fold anisotropic, alpha in {8, 2, 1, "
        "1/8, 1/64}, lambda in {1/16, 1, 16}); dL/dt under the flow",
    )


def _check_printed_equality(depth: int) -> Verdict:
    r"""(48) as printed, an equality for all $t \ge 0$, at exact initial states.

    If $\mathcal{L}(t) = \mathcal{L}(0)e^{-ct}$ for all $t$, then at $t = 0$
    $\dot{\mathcal{L}} = -c\mathcal{L}$, i.e. $\sum_l\|\nabla_l\mathcal{L}\|_F^2
    = 2c\mathcal{L}$ with $c = (\alpha^2\lambda)^{L-1}$. Every $\lambda$ of (22)
    has $\alpha^2\lambda \le \lambda_{\min}(D_l) \le (D_l)_{ii}$, so
    $c \le \bar c = (\min_{l,i}(D_l)_{ii})^{L-1}$, a rational: a state with
    $\sum_l\|\nabla_l\mathcal{L}\|_F^2 > 2\bar c\mathcal{L}$ refutes the
    equality for every admissible $\lambda$, in exact arithmetic.
    """
    network = _network(depth)
    rate = network.loss_rate().xreplace(network.flow())
    for number, state in enumerate(_states(depth), start=1):
        values = _entry_values(depth, state)
        decay = -rate.xreplace(values)
        loss = network.loss.xreplace(values)
        ceiling = min(d[i, i] for d in state.invariants for i in range(DIMENSION)) ** (
            depth - 1
        )
        if decay > 2 * ceiling * loss:
            counterexample = (
                f"the initial state {number} ({state.written()}): sum_l ||grad_l "
                f"L||_F^2 = {float(decay):.6g} > 2 cbar L(0) = "
                f"{float(2 * ceiling * loss):.6g}, cbar = (min_(l,i) (D_l)_ii)^(L-1) "
                f">= (alpha^2 lambda)^(L-1) for every lambda of (22) (exact rationals)"
            )
            return Verdict.fails(
                "L(t) = L(0) e^{-2 (alpha^2 lambda)^{L-1} t} for all t would give "
                "dL/dt(0) = -2 (alpha^2 lambda)^{L-1} L(0); refuted for every "
                f"admissible lambda at {counterexample}",
                Basis.PROOF,
                counterexample,
                point=exact_point(state.coordinates()),
            )
    return Verdict.inconclusive(
        f"at each of the {len(_states(depth))} states the initial decay rate is "
        "within the admissible range: the equality is not refuted by its "
        "derivative at t = 0"
    )


#: The gradient-flow runs of (48): alpha, the step eta (and eta/2), the time
#: horizon per depth, the number of checkpoints, and the scale of Wbar_L.
_FLOW_ALPHA = 0.5
_FLOW_STEP = 0.02
_FLOW_HORIZONS = {2: 10.0, 3: 20.0}
_CHECKPOINTS = 40
_TOP_SCALE = 0.05
#: The two runs per depth: steps eta and eta/2.
_FLOW_STEPS = (_FLOW_STEP, _FLOW_STEP / 2)


def _steps_per_checkpoint(depth: int, step: float) -> int:
    """Midpoint steps of size ``step`` between two checkpoints of the run."""
    return round(_FLOW_HORIZONS[depth] / _CHECKPOINTS / step)


def _initialization(depth: int) -> list[np.ndarray]:
    r"""$\bar W$ where (47) is nearly tight at $t = 0$.

    $\bar W_L = \epsilon e_1$ small and $\bar W_l = \sqrt{L - l}\, I$ above, so
    $D_l = \alpha^2 I$ ($l < L - 1$), $D_{L-1} = \alpha^2(I -
    \epsilon^2 e_1 e_1^\top)$ and $\lambda = 1 - \epsilon^2$; at $L = 2$,
    $\|\nabla_2\mathcal{L}\|^2 = \|W_1^\top r\|^2 = 2\alpha^2\mathcal{L}$ and
    $\|\nabla_1\mathcal{L}\|^2 = O(\epsilon^2)$, so the decay starts at the
    rate of (47) up to $O(\epsilon^2)$.
    """
    top = np.zeros((1, DIMENSION, 1))
    top[0, 0, 0] = _TOP_SCALE
    hidden = [
        np.sqrt(depth - layer) * np.eye(DIMENSION)[None] for layer in range(1, depth)
    ]
    return [*hidden, top]


def _losses(depth: int, step: float) -> tuple[np.ndarray, float]:
    """Losses at the checkpoints of the midpoint flow with step ``step``, and
    the margin lambda of the initialization."""
    bar = _initialization(depth)
    margin = float(networks.balancedness_margin(bar)[0])
    weights = [_FLOW_ALPHA * w for w in bar]
    source = np.array([0.6, 0.8])
    per_checkpoint = _steps_per_checkpoint(depth, step)
    losses = [0.5 * float(np.sum((networks.end_to_end(weights)[0] - source) ** 2))]
    for _ in range(_CHECKPOINTS):
        result = networks.pretrain(
            weights,
            source,
            learning_rate=step,
            integrator="midpoint",
            tol=0.0,
            max_steps=per_checkpoint,
            strict=False,
        )
        weights = list(result.weights)
        losses.append(0.5 * float(np.sum((result.coefficients[0] - source) ** 2)))
    return np.array(losses), margin


def _decay_bound_at(depth: int, exponent_scale: float) -> tuple[bool, str]:
    """Whether (48) as a bound holds along the run of depth ``depth``, and how."""
    (coarse, margin), (fine, _) = (_losses(depth, step) for step in _FLOW_STEPS)
    rate = 2 * (_FLOW_ALPHA**2 * margin) ** (depth - 1) * exponent_scale
    times = np.linspace(0.0, _FLOW_HORIZONS[depth], _CHECKPOINTS + 1)
    bound = fine[0] * np.exp(-rate * times)
    tolerance = np.abs(coarse - fine)
    excess = fine - bound - tolerance
    worst = int(np.argmax(excess))
    closest = int(np.argmax(fine / bound * (times > 0)))
    where = f"L = {depth} (lambda = {margin:.6g}, rate {rate:.4g})"
    if excess[worst] <= 0:
        return True, (
            f"{where}: L(t) <= L(0) e^(-rate t) at all {_CHECKPOINTS} checkpoints to "
            f"t = {times[-1]:g}, closest at t = {times[closest]:g} (L/bound = "
            f"{fine[closest] / bound[closest]:.3g})"
        )
    return False, (
        f"{where}: at t = {times[worst]:g}, L = {fine[worst]:.6g} exceeds the bound "
        f"{bound[worst]:.6g} by more than the tolerance {tolerance[worst]:.3g}"
    )


def _check_decay_bound(*, exponent_scale: float = 1.0) -> Verdict:
    r"""(48) read as a bound along gradient-flow runs (midpoint rule).

    The run at step $\eta/2$ approximates the flow with a first-order error,
    estimated by its difference $\Delta_k$ from the run at step $\eta$; the
    bound must hold within $|\Delta_k|$ at each checkpoint.
    ``exponent_scale`` multiplies the rate (a test's wrong formula).
    """
    results = [_decay_bound_at(depth, exponent_scale) for depth in _FLOW_HORIZONS]
    detail = (
        f"d = {DIMENSION}, alpha = {_FLOW_ALPHA}, beta_s = (0.6, 0.8), Wbar_L = "
        f"{_TOP_SCALE} e_1, midpoint rule with eta = {_FLOW_STEP} and eta/2, float64, "
        "tolerance |L_eta - L_eta/2| (the first-order step-size error); "
        + "; ".join(text for _, text in results)
    )
    if all(ok for ok, _ in results):
        return Verdict.holds(detail, Basis.NUMERICAL)
    failed = "; ".join(text for ok, text in results if not ok)
    return Verdict.fails(detail, Basis.NUMERICAL, failed)


def _decay_bound_cost() -> CostEstimate:
    r"""What :func:`_check_decay_bound` costs: at each depth, the runs at
    $\eta$ and $\eta/2$ to the horizon.

    A step's cost falls along a run at L = 3 (its midpoint equation needs 8
    fixed-point iterations at the start, 2 once the loss is small), so the
    run at $\eta$ is timed whole, as the check runs it, at each depth
    (:func:`~._costs.whole_run_seconds`), and its mean step taken for the run
    at $\eta/2$ too: an upper bound there (by 7% at L = 3, 15% at L = 2, as
    measured), as its first steps need an iteration fewer and the set-up of
    its :data:`_CHECKPOINTS` calls is spread over twice the steps. The
    estimate's step is the mean over all four runs' steps.
    """
    mean_step = {
        depth: whole_run_seconds(functools.partial(_losses, depth, _FLOW_STEP))
        / (_CHECKPOINTS * _steps_per_checkpoint(depth, _FLOW_STEP))
        for depth in _FLOW_HORIZONS
    }
    steps = {
        (depth, step): _CHECKPOINTS * _steps_per_checkpoint(depth, step)
        for depth in _FLOW_HORIZONS
        for step in _FLOW_STEPS
    }
    seconds = sum(count * mean_step[depth] for (depth, _), count in steps.items())
    runs = len(steps)
    per_run = round(sum(steps.values()) / runs)
    return CostEstimate.of_training(
        runs,
        per_run,
        seconds / (runs * per_run),
        f"L = {', '.join(map(str, _FLOW_HORIZONS))} at eta = {_FLOW_STEP:g} and "
        f"eta/2, d = {DIMENSION}: "
        + ", ".join(
            f"{count} steps (L = {depth}, eta = {step:g})"
            for (depth, step), count in steps.items()
        )
        + "; a step's cost falls along a run (the midpoint rule's fixed-point "
        "iterations), so the run at eta is timed whole at each depth ("
        + ", ".join(
            f"{per_step * 1e6:.3g} us/step at L = {depth}"
            for depth, per_step in mean_step.items()
        )
        + ") and its mean step taken for eta/2",
    )


_DECAY_QUOTE = (
    "We now have L̇ ≤ −2(α^2λ)^{L−1} L (47) ⟹ L(t) = L(0)e^{−2(α^2λ)^{L−1}t} (48) "
    "⟹ lim_{t→∞} L(t) = 0 (49)"
)


def _decay_claims() -> tuple[Claim, ...]:
    claims: list[Claim] = []
    for depth in DEPTHS:
        relation = functools.partial(_decay_rate, depth)
        claims.append(
            Claim(
                SOURCE_ID,
                "47",
                f"decay-rate-depth-{depth}",
                Kind.INEQUALITY,
                "dL/dt <= -2 (alpha^2 lambda)^{L-1} L under the flow: (40) with "
                "sigma_min^2 >= (alpha^2 lambda)^{L-1}",
                RelationCheck(
                    relation,
                    functools.partial(_decay_judge, depth),
                    _network(depth).flow(),
                ),
                Status.HOLDS,
                formula=relation,
                assumptions=(
                    *_ASSUMPTIONS,
                    "the noise-free population loss L = ||W_1 ... W_L - beta_s||^2/2",
                ),
                budget_seconds=30.0,
                quote=_DECAY_QUOTE,
                reading=Reading.PRINTED,
                regime=_STATES_REGIME.format(depth=depth, count=COUNT)
                + ", beta_s Gaussian; every weight entry a symbol, dL/dt = "
                "sum_l <grad_l L, dW_l/dt> with dW_l/dt = -grad_l L",
            )
        )
    bound = _initial_loss * sp.exp(-2 * (_alpha**2 * _lam) ** (theory.depth - 1) * _t)
    loss_at_t = sp.Function("L")(_t)
    claims += [
        Claim(
            SOURCE_ID,
            "48",
            "as-printed",
            Kind.IDENTITY,
            "L(t) = L(0) e^{-2 (alpha^2 lambda)^{L-1} t} for all t >= 0, as printed "
            "(an equality)",
            functools.partial(_check_printed_equality, 3),
            Status.FAILS,
            formula=lambda: sp.Eq(
                loss_at_t, bound.subs(theory.depth, 3), evaluate=False
            ),
            slip="equality-48",
            assumptions=_ASSUMPTIONS,
            budget_seconds=30.0,
            quote=_DECAY_QUOTE,
            reading=Reading.PRINTED,
            regime=_STATES_REGIME.format(depth=3, count=COUNT)
            + ", each taken as the initialization; the equality for all t implies "
            "it for dL/dt at t = 0",
        ),
        Claim(
            SOURCE_ID,
            "48",
            "decay-bound",
            Kind.SIMULATION,
            "L(t) <= L(0) e^{-2 (alpha^2 lambda)^{L-1} t} along the gradient flow: "
            "(48) read as the bound (47) gives by Groenwall's lemma",
            _check_decay_bound,
            Status.HOLDS,
            cost=_decay_bound_cost,
            formula=lambda: sp.Le(loss_at_t, bound, evaluate=False),
            corrects=f"{SOURCE_ID}:48:as-printed",
            assumptions=_ASSUMPTIONS,
            budget_seconds=30.0,
            quote=_DECAY_QUOTE,
            reading=Reading.INTERPRETATION,
            regime=(
                "L = 2 and 3, d = 2, alpha = 0.5, Wbar_l = sqrt(L - l) I, Wbar_L = "
                "0.05 e_1 (lambda = 0.9975; at L = 2 the decay starts at the rate of "
                "(47)), beta_s = (0.6, 0.8): gradient flow on the noise-free "
                "population loss by the midpoint rule (which conserves (35)), t <= "
                "10 (L = 2) and 20 (L = 3)"
            ),
        ),
        Claim(
            SOURCE_ID,
            "49",
            "limit",
            Kind.LIMIT,
            "lim_{t -> oo} L(0) e^{-2 (alpha^2 lambda)^{L-1} t} = 0, so 0 <= L(t) "
            "<= (48) gives lim L(t) = 0",
            relation_check(
                lambda: sp.Eq(sp.Limit(bound, _t, sp.oo), 0, evaluate=False)
            ),
            Status.HOLDS,
            formula=lambda: sp.Eq(sp.Limit(bound, _t, sp.oo), 0, evaluate=False),
            assumptions=("alpha > 0, lambda > 0, L(0) > 0, L a positive integer",),
            budget_seconds=30.0,
            quote=_DECAY_QUOTE,
            reading=Reading.PRINTED,
            regime="symbolic alpha, lambda, L(0) > 0 and depth L",
        ),
    ]
    return tuple(claims)


CLAIMS: tuple[Claim, ...] = (
    *(claim for depth in DEPTHS for claim in _loewner_claims(depth)),
    *_decay_claims(),
)
