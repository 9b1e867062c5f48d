r"""The quantities of Lemma B.1's proof (features-are-fate, Appendix B.3), and a judge.

Every step of the proof after (54) relates scalar quantities of a state of the
flow: :math:`s_l^2 = \|W_l\|_{op}^2`, :math:`\|W_l\|_F^2`, the norms of the
initialization :math:`\bar W_l`, :math:`\|\bar D_l\|_{op}` (the invariant
(35) at :math:`\bar W`), quadratic forms in the top singular vectors
:math:`u_{l+1}, v_l`. Each is a symbol here (:data:`LAYER`, :data:`PAIR`),
typeset as the paper writes it, whose value at a state of
:mod:`._network_states` is enclosed in ball arithmetic; :func:`judge_at_states`
decides a relation between them at 40 exact initial states and 28 checkpoints
of gradient flows (L = 3, d = 2), and at the states of :mod:`._lemma_b1_states`
where the proof's bounds are nearly tight (48 initial states and 88
checkpoints in all). :func:`chain`, :func:`step` and
:func:`claim` build the derivation chains and claims of :mod:`.appendix_b3`
and :mod:`.appendix_b3_alignment` from them.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp
from flint import arb, ctx, fmpq

from implicit_bias.claims.certify import exact_point
from implicit_bias.claims.checks import RelationCheck
from implicit_bias.claims.derivation import Derivation, Step
from implicit_bias.claims.engine import Basis, Claim, Kind, Reading, Status, Verdict
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.sources.features_are_fate._lemma_b1_states import extra_states
from implicit_bias.sources.features_are_fate._network_states import (
    PRECISION_BITS,
    FlowState,
    drift_tolerance,
    initial_states,
    quantities,
    trajectory_states,
)
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.theory import transfer_asymptotics as theory

__all__ = [
    "ALPHA",
    "ASSUMPTIONS",
    "DEPTH",
    "GLYPHS",
    "LAYER",
    "LAYERS",
    "LAYER_INDEX",
    "ORDER",
    "ORDER_FACTS",
    "PAIR",
    "PRECISION",
    "PRODUCT_NORM",
    "chain",
    "claim",
    "claim_id",
    "fro_difference",
    "invariant_term",
    "judge_at_states",
    "rank_one_bound",
    "step",
]
#: The depth and width of every state.
DEPTH, DIMENSION = 3, 2
#: The layers l the chains are written at.
LAYERS = (1, 2)

ALPHA = theory.alpha

#: The symbols of Appendix B.3 in the paper's notation.
GLYPHS: dict[sp.Basic, str] = {}


def quantity_symbol(name: str, glyph: str, sign: str = "real") -> sp.Symbol:
    """A symbol for a quantity of a state, typeset as ``glyph``.

    ``sign`` is what the quantity is at every state of the proof: "real",
    "nonnegative" (a squared norm, a quadratic form of a Gram matrix, a
    squared cosine) or "positive" (the squared norm of a nonzero matrix, or a
    quadratic form of a matrix (22) makes positive definite). SymPy reads it
    when :mod:`implicit_bias.claims.mutant_truth` asks whether an altered
    bound is still true.
    """
    symbol = sp.Symbol(name, **{sign: True})
    GLYPHS[symbol] = glyph
    return symbol


def _layer_symbols(k: int) -> dict[str, sp.Symbol]:
    return {
        # Under (22) every W_l and Wbar_l is nonzero.
        "s2": quantity_symbol(f"s2_{k}", f"s_{{{k}}}^2", "positive"),
        "fro": quantity_symbol(f"fro_{k}", rf"\|W_{{{k}}}\|_F^2", "positive"),
        "fbar": quantity_symbol(f"fbar_{k}", rf"\|\bar W_{{{k}}}\|_F^2", "positive"),
        "obar": quantity_symbol(
            f"obar_{k}", rf"\|\bar W_{{{k}}}\|_{{op}}^2", "positive"
        ),
    }


def _pair_symbols(layer: int) -> dict[str, sp.Symbol]:
    i, n = layer, layer + 1
    bar_invariant = (
        rf"\bar W_{{{i}}}^\top \bar W_{{{i}}} - \bar W_{{{n}}}\bar W_{{{n}}}^\top"
    )
    # Under (22), Dbar_l >= lambda I > 0, and D_l = alpha^2 Dbar_l by (35).
    return {
        "dbar": quantity_symbol(
            f"dbar_{i}", rf"\|{bar_invariant}\|_{{op}}", "positive"
        ),
        "v_top": quantity_symbol(
            f"v_top_{i}",
            rf"v_{{{i}}}^\top W_{{{i}}}^\top W_{{{i}}} v_{{{i}}}",
            "nonnegative",
        ),
        "v_next": quantity_symbol(
            f"v_next_{i}",
            rf"v_{{{i}}}^\top W_{{{n}}} W_{{{n}}}^\top v_{{{i}}}",
            "nonnegative",
        ),
        "v_inv": quantity_symbol(
            f"v_inv_{i}", rf"v_{{{i}}}^\top D_{{{i}}} v_{{{i}}}", "positive"
        ),
        "v_split": quantity_symbol(
            f"v_split_{i}",
            rf"v_{{{i}}}^\top (s_{{{n}}}^2 u_{{{n}}}u_{{{n}}}^\top"
            rf" + W_{{{n}}}W_{{{n}}}^\top"
            rf" - s_{{{n}}}^2 u_{{{n}}}u_{{{n}}}^\top) v_{{{i}}}",
            "nonnegative",
        ),
        "align": quantity_symbol(
            f"align_{i}", rf"(v_{{{i}}}^\top u_{{{n}}})^2", "nonnegative"
        ),
        "u_top": quantity_symbol(
            f"u_top_{i}",
            rf"u_{{{n}}}^\top W_{{{i}}}^\top W_{{{i}}} u_{{{n}}}",
            "nonnegative",
        ),
        "u_split": quantity_symbol(
            f"u_split_{i}",
            rf"u_{{{n}}}^\top (D_{{{i}}} + W_{{{n}}}W_{{{n}}}^\top) u_{{{n}}}",
            "nonnegative",
        ),
        "u_bar": quantity_symbol(
            f"u_bar_{i}", rf"u_{{{n}}}^\top ({bar_invariant}) u_{{{n}}}", "positive"
        ),
    }


LAYER = {k: _layer_symbols(k) for k in range(1, DEPTH + 1)}
PAIR = {layer: _pair_symbols(layer) for layer in range(1, DEPTH)}


def _order() -> dict[sp.Symbol, sp.Expr]:
    r"""The order of the quantities at every state, as a reparametrization.

    Definitions: :math:`v_l^\top W_l^\top W_l v_l = s_l^2` (:math:`v_l` is
    the top right singular vector), (56)'s :math:`u_{l+1}^\top(D_l +
    W_{l+1}W_{l+1}^\top)u_{l+1}` is :math:`u_{l+1}^\top W_l^\top W_l
    u_{l+1}` by (35), (63)'s split is :math:`v_l^\top W_{l+1}W_{l+1}^\top
    v_l`, and :math:`W_L` is a column, so :math:`\|W_L\|_F^2 = s_L^2`,
    :math:`\|\bar W_L\|_F^2 = \|\bar W_L\|_{op}^2` and :math:`v_{L-1}^\top
    W_L W_L^\top v_{L-1} = s_L^2 (v_{L-1}^\top u_L)^2`.

    Inequalities: :math:`s_l^2 \le \|W_l\|_F^2` (an operator norm is at
    most the Frobenius norm); :math:`\|\bar W_1\|_{op}^2 > \|\bar
    W_2\|_{op}^2 > \|\bar W_3\|_{op}^2` by (22); :math:`\bar D_l \succ 0`
    and :math:`\bar D_l \preceq \bar W_l^\top\bar W_l`, so
    :math:`\|\bar W_l\|_{op}^2 - \|\bar W_{l+1}\|_{op}^2 \le \|\bar
    D_l\|_{op}` (Weyl), :math:`\|\bar D_l\|_{op} \le \|\bar W_l\|_{op}^2`
    (written at :math:`l = L - 1` only: at both layers it would take a
    quotient of slacks, whose sign SymPy's simplification often loses) and
    :math:`\|\bar D_l\|_{op} \le \mathrm{tr}\,\bar D_l = \|\bar W_l\|_F^2 -
    \|\bar W_{l+1}\|_F^2`;
    :math:`u^\top\bar D_l u > 0` and :math:`v^\top
    D_l v \le \alpha^2\|\bar D_l\|_{op}` (quadratic forms, :math:`D_l =
    \alpha^2\bar D_l` by (35)); (55)-(57): :math:`s_l^2 \ge u_{l+1}^\top
    W_l^\top W_l u_{l+1} = s_{l+1}^2 + \alpha^2 u_{l+1}^\top\bar D_l
    u_{l+1}`; :math:`v_l^\top W_{l+1}W_{l+1}^\top v_l \le s_{l+1}^2`
    (a Rayleigh quotient) and :math:`(v_l^\top u_{l+1})^2 \le 1`.

    Each quantity is written through :math:`s_L^2`, :math:`\alpha` and
    nonnegative slacks, as
    :math:`\|W_l\|_F^2 = s_l^2 + e_l` or :math:`(v_l^\top u_{l+1})^2 = 1/(1 +
    a_l)`: the constraint every relation of them is stated under, with which
    SymPy may show an altered bound still true
    (:mod:`implicit_bias.claims.mutant_truth`). :data:`ORDER_FACTS` lists the
    facts, which the tests decide at every state (past :math:`t = 0`, those
    through (35) within its drift).
    """

    def slack(name: str, sign: str = "nonnegative") -> sp.Symbol:
        return sp.Symbol(name, **{sign: True})

    last = DEPTH
    # ||Dbar_l|| = ||Wbar_l||^2 - ||Wbar_{l+1}||^2 + h_l, h_l >= 0 (Weyl); at
    # l = L - 1 also h_l <= ||Wbar_L||^2 (so ||Dbar_l|| <= ||Wbar_l||^2),
    # written without a quotient, which SymPy's simplification would not
    # always see through.
    reach = slack(f"dbar_reach_{last - 1}")
    obar: dict[int, sp.Expr] = {last: reach + slack(f"obar_rest_{last}", "positive")}
    dbar: dict[int, sp.Expr] = {}
    for k in (2, 1):
        gap = slack(f"obar_gap_{k}", "positive")
        obar[k] = obar[k + 1] + gap
        dbar[k] = gap + (reach if k == last - 1 else slack(f"dbar_reach_{k}"))
    # u^T Dbar_l u <= ||Dbar_l|| is left out: as a quotient of slacks inside
    # s_l^2 it would hide the sign of sums SymPy now reads.
    u_bar = {i: PAIR[i]["u_bar"] for i in (1, 2)}
    fbar: dict[int, sp.Expr] = {last: obar[last]}
    s2: dict[int, sp.Expr] = {last: LAYER[last]["s2"]}
    for k in (2, 1):
        fbar[k] = fbar[k + 1] + dbar[k] + slack(f"trace_rest_{k}")
        s2[k] = s2[k + 1] + ALPHA**2 * u_bar[k] + slack(f"s2_gap_{k}")
    align = {i: 1 / (1 + slack(f"align_ratio_{i}")) for i in (1, 2)}
    order: dict[sp.Symbol, sp.Expr] = {}
    for k in (1, 2):
        order[LAYER[k]["s2"]] = s2[k]
        order[LAYER[k]["obar"]] = obar[k]
        order[LAYER[k]["fro"]] = s2[k] + slack(f"fro_gap_{k}")
    for k in (1, 2, 3):
        order[LAYER[k]["fbar"]] = fbar[k]
    order[LAYER[last]["obar"]] = obar[last]
    order[LAYER[last]["fro"]] = s2[last]
    for i in (1, 2):
        p = PAIR[i]
        u_top = s2[i + 1] + ALPHA**2 * u_bar[i]
        v_next = (
            s2[i + 1] * align[i]
            if i + 1 == last
            else s2[i + 1] / (1 + slack(f"v_next_ratio_{i}"))
        )
        order[p["dbar"]] = dbar[i]
        order[p["u_top"]] = u_top
        order[p["u_split"]] = u_top
        order[p["v_top"]] = s2[i]
        order[p["v_inv"]] = ALPHA**2 * dbar[i] / (1 + slack(f"v_inv_ratio_{i}"))
        order[p["v_next"]] = v_next
        order[p["v_split"]] = v_next
        order[p["align"]] = align[i]
    return order


#: See :func:`_order`.
ORDER = _order()


def _order_facts() -> tuple[sp.Rel, ...]:
    last = DEPTH
    facts: list[sp.Rel] = [
        sp.Eq(LAYER[last]["fro"], LAYER[last]["s2"]),
        sp.Eq(LAYER[last]["fbar"], LAYER[last]["obar"]),
    ]
    for k in (1, 2):
        a, b, p = LAYER[k], LAYER[k + 1], PAIR[k]
        facts += [
            sp.Le(a["s2"], a["fro"]),
            sp.Le(a["obar"], a["fbar"]),
            sp.Lt(b["obar"], a["obar"]),
            sp.Le(a["obar"] - b["obar"], p["dbar"]),
            sp.Le(p["dbar"], a["fbar"] - b["fbar"]),
            sp.Eq(p["u_top"], b["s2"] + ALPHA**2 * p["u_bar"]),
            sp.Eq(p["u_split"], p["u_top"]),
            sp.Le(p["u_top"], a["s2"]),
            sp.Eq(p["v_top"], a["s2"]),
            sp.Le(p["v_inv"], ALPHA**2 * p["dbar"]),
            sp.Le(p["v_next"], b["s2"]),
            sp.Eq(p["v_split"], p["v_next"]),
            sp.Le(p["align"], 1),
        ]
    facts += [
        sp.Le(PAIR[last - 1]["dbar"], LAYER[last - 1]["obar"]),
        sp.Eq(PAIR[last - 1]["v_next"], LAYER[last]["s2"] * PAIR[last - 1]["align"]),
    ]
    return tuple(facts)


#: The facts :data:`ORDER` writes through slacks.
ORDER_FACTS: tuple[sp.Rel, ...] = _order_facts()
PRODUCT_NORM = quantity_symbol(
    "product_norm", r"\|W_1 W_2 \cdots W_L\|_2", "nonnegative"
)
LAYER_INDEX = sp.Symbol("l", integer=True, positive=True)
GLYPHS[LAYER_INDEX] = "l"


# --- deciding a relation of these symbols at the states


def _arb_value(expression: sp.Basic, values: dict[sp.Symbol, arb]) -> arb:
    """``expression`` (sums, products, integer powers of the symbols and
    rationals) evaluated in ball arithmetic."""
    if isinstance(expression, sp.Symbol):
        return values[expression]
    if expression.is_Rational:
        return arb(fmpq(int(expression.p), int(expression.q)))
    if isinstance(expression, sp.Add):
        return sum((_arb_value(a, values) for a in expression.args), arb(0))
    if isinstance(expression, sp.Mul):
        result = arb(1)
        for factor in expression.args:
            result *= _arb_value(factor, values)
        return result
    if isinstance(expression, sp.Pow) and expression.exp.is_Integer:
        base = _arb_value(expression.base, values)
        exponent = int(expression.exp)
        return base**exponent if exponent >= 0 else 1 / base ** (-exponent)
    raise InvalidArgumentError(
        f"expression: sums, products and integer powers of the state's quantities, "
        f"got {sp.sstr(expression)}"
    )


def _symbol_values(state: FlowState) -> dict[sp.Symbol, arb]:
    values = {
        symbol: quantities(state)[symbol.name]
        for group in (*LAYER.values(), *PAIR.values())
        for symbol in group.values()
    }
    values[PRODUCT_NORM] = quantities(state)["product_norm"]
    values[ALPHA] = arb(fmpq(state.alpha.numerator, state.alpha.denominator))
    return values


def all_states() -> tuple[FlowState, ...]:
    """The initial states, the checkpoints of the flows (L = 3), then the
    nearly tight states of :mod:`._lemma_b1_states`."""
    return initial_states(DEPTH) + trajectory_states(DEPTH) + extra_states()


#: The states of :func:`all_states` in words: at t = 0, and past it.
STATES_WRITTEN = (
    "generic ones, alpha in {8, 2, 1/2, 1/8, 1/32}, and ones with v_l "
    "perpendicular to u_{l+1} and (69) nearly tight, alpha in {8, 2, 1/2, 1/8}",
    "from generic Wbar toward beta_s = (0.6, 0.8), alpha = 1/8, 1/32, each "
    "checkpoint also read as the flow from (16 alpha)(Wbar / 16); and every step "
    "of an axis-aligned flow toward beta_s = e_2 through the switch of the top "
    "singular vectors, alpha = 1/8",
)
PRECISION = (
    f"{PRECISION_BITS}-bit ball arithmetic (python-flint arb) on exact rational entries"
)


def judge_at_states(
    relation: sp.Basic, states: tuple[FlowState, ...] | None = None
) -> Verdict:
    r"""Decide ``relation`` (``Eq``, ``<=``, ``>=``, ``<``, ``>`` of the
    quantities) at the initial and trajectory states.

    Refuted (``Basis.CERTIFIED``) at an initial state whose enclosure of the
    gap excludes the relation; refuted (``Basis.NUMERICAL``) at a trajectory
    state whose gap misses by more than :func:`drift_tolerance`; else holds
    (``Basis.NUMERICAL``: finitely many states).
    """
    if not isinstance(relation, (sp.Eq, sp.Le, sp.Lt, sp.Ge, sp.Gt)):
        raise InvalidArgumentError(
            f"relation: Eq, <=, <, >= or >, got a {type(relation).__name__}"
        )
    states = all_states() if states is None else states
    equality = isinstance(relation, sp.Eq)
    strict = isinstance(relation, (sp.Lt, sp.Gt))
    if equality:
        gap_expression = relation.lhs - relation.rhs
    else:
        gap_expression = relation.gts - relation.lts
    worst_drift = arb(0)
    with ctx.workprec(PRECISION_BITS):
        for state in states:
            gap = _arb_value(gap_expression, _symbol_values(state))
            tolerance = drift_tolerance(state)
            worst_drift = max(worst_drift, tolerance, key=lambda x: x.upper())
            if equality:
                refuted = bool(abs(gap) > tolerance)
            else:
                refuted = bool(gap < -tolerance) or (strict and bool(gap == 0))
            if not refuted:
                continue
            what = "lhs - rhs" if equality else "greater side - lesser side"
            counterexample = (
                f"{state.written()}: {what} = {gap.mid().str(6, radius=False)} "
                f"(enclosed in [{gap.lower().str(6, radius=False)}, "
                f"{gap.upper().str(6, radius=False)}])"
                + ("" if state.initial else f", beyond the drift tolerance {tolerance}")
            )
            return Verdict.fails(
                f"refuted at {counterexample}",
                Basis.CERTIFIED if state.initial else Basis.NUMERICAL,
                counterexample,
                point=exact_point(
                    {sp.Symbol(k): v for k, v in state.coordinates().items()}
                ),
            )
    initial = sum(state.initial for state in states)
    return Verdict.holds(
        f"holds at {initial} exact initial states (t = 0, W = alpha Wbar, Wbar "
        f"satisfying (22): {STATES_WRITTEN[0]}) and "
        f"{len(states) - initial} checkpoints of midpoint-rule gradient flows "
        f"(L = 3, d = 2, to convergence: {STATES_WRITTEN[1]}); {PRECISION}; "
        "tolerance: the enclosure at t = 0, "
        f"2 L d delta at the checkpoints (drift of (35), at most "
        f"{float(worst_drift.upper()):.2g})",
        Basis.NUMERICAL,
    )


def judge(relation: sp.Basic) -> Verdict:
    """:func:`judge_at_states` at every state: a step's or a claim's judge."""
    return judge_at_states(relation)


def relation_at_states(relation: Callable[[], sp.Basic]) -> RelationCheck:
    """A check deciding ``relation()`` with :func:`judge`, stated under
    :data:`ORDER`."""
    return RelationCheck(relation, judge, ORDER)


ASSUMPTIONS = (
    "gradient flow (6) on the population loss (4) from W_l(0) = alpha Wbar_l with "
    "(22), so D_l(t) = alpha^2 (Wbar_l^T Wbar_l - Wbar_{l+1} Wbar_{l+1}^T) by (35)",
    "u_l, v_l: top left and right singular vectors of W_l, s_l = ||W_l||_op",
)
REGIME = (
    "L = 3, d = 2, l = {layer}: 48 exact initial states (Wbar satisfying (22), "
    "alpha from 1/32 to 8; 8 of them with v_l perpendicular to u_{{l+1}}) and 88 "
    "checkpoints of midpoint-rule gradient flows from alpha Wbar to convergence "
    "(28 of them also read with Wbar scaled by 1/16), in ball arithmetic"
)


# --- building the chains and claims


def chain(
    layer: int,
    equation: str,
    label: str,
    title: str,
    start: Callable[[], sp.Basic],
    steps: tuple[Step, ...],
    quote: str,
) -> Derivation:
    """A chain of the proof at layer ``layer``, steps judged at the states."""
    return Derivation(
        source=SOURCE_ID,
        equation=equation,
        label=f"{label}-layer-{layer}",
        title=f"{title}, L = 3, l = {layer}",
        start=start,
        steps=steps,
        quote=quote,
        reading=Reading.PRINTED,
        regime=REGIME.format(layer=layer),
        assumptions=ASSUMPTIONS,
        claim_budget_seconds=30.0,
        substitutions=ORDER,
    )


def step(
    expression: Callable[[], sp.Basic],
    justification: str,
    relation: str,
    equation: str,
    quote: str,
    *,
    slip: str | None = None,
) -> Step:
    """A step judged at the states; one naming a slip is expected to fail."""
    return Step(
        expression,
        justification,
        relation,
        equation=equation,
        quote=quote,
        judge=judge,
        expected=Status.HOLDS if slip is None else Status.FAILS,
        slip=slip,
    )


def rank_one_bound(layer: int) -> sp.Expr:
    r"""$\alpha^2(\|\bar W_l\|_F^2 - \|\bar W_L\|_F^2 + \|\bar W_l\|_{op}^2 -
    \|\bar W_L\|_{op}^2)$, the right side of (60)."""
    a, last = LAYER[layer], LAYER[DEPTH]
    return ALPHA**2 * (a["fbar"] - last["fbar"] + a["obar"] - last["obar"])


def fro_difference(k: int, *, printed: bool) -> sp.Expr:
    r"""$\|W_k\|_F^2 - \|W_k\|_F^2$ as printed in (64)-(65), else
    $\|W_k\|_F^2 - \|W_k\|_{op}^2$."""
    a = LAYER[k]
    if printed:
        return sp.Add(a["fro"], -a["fro"], evaluate=False)
    return a["fro"] - a["s2"]


def invariant_term(layer: int, *, printed: bool) -> sp.Expr:
    r"""$\alpha^2\|\bar D_l\|_{op}^2$ as printed, else $\alpha^2\|\bar D_l\|_{op}$."""
    return ALPHA**2 * PAIR[layer]["dbar"] ** (2 if printed else 1)


def claim(
    equation: str,
    label: str,
    kind: Kind,
    statement: str,
    relation: Callable[[], sp.Basic],
    quote: str,
    layer: int,
    *,
    expected: Status = Status.HOLDS,
    reading: Reading = Reading.PRINTED,
    slip: str | None = None,
    corrects: str | None = None,
) -> Claim:
    """A claim at layer ``layer`` deciding ``relation()`` at the states."""
    return Claim(
        SOURCE_ID,
        equation,
        f"{label}-layer-{layer}",
        kind,
        statement,
        relation_at_states(relation),
        expected,
        formula=relation,
        assumptions=ASSUMPTIONS,
        budget_seconds=30.0,
        quote=quote,
        reading=reading,
        regime=REGIME.format(layer=layer),
        slip=slip,
        corrects=corrects,
    )


def claim_id(equation: str, label: str) -> str:
    """The id of this source's claim ``label`` of eq. ``equation``."""
    return f"{SOURCE_ID}:{equation}:{label}"
