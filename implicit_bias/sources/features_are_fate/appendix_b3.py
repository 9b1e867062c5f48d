r"""Claims of features-are-fate, Appendix B.3: Lemma B.1, the rank-one half (52)-(60).

Lemma B.1: under gradient flow from (22), :math:`W_l = \sigma_l u_l v_l^\top +
O(\alpha^2)` (50) and :math:`\lim_{\alpha\to0}\lim_{t\to\infty}(u_{l+1}^\top
v_l)^2 = 1` (51). Its proof first bounds :math:`\|W_l\|_F^2 - \|W_l\|_{op}^2`,
the squared norm of the subleading singular values, by :math:`O(\alpha^2)`:
(52)-(60), here; the alignment (61)-(70), (51), and the end of training
(71)-(72) are :mod:`.appendix_b3_alignment`'s.

(52)-(54) are conservation laws, decided by SymPy: the time derivative of
:math:`\|W_l\|_F^2 - \|W_{l+1}\|_F^2` under the flow (every weight entry a
symbol, :math:`L = 3`, :math:`d = 2`, :class:`~.appendix_b2.DeepLinearNetwork`)
is 0, and the sum (53) telescopes to (54) for symbolic :math:`l, L`. The
steps (55)-(60) relate scalar quantities of a state (:mod:`._lemma_b1`:
:math:`s_l^2 = \|W_l\|_{op}^2`, :math:`u_{l+1}^\top W_l^\top W_l u_{l+1}`,
:math:`\|\bar W_l\|_{op}^2`, ...) and are decided at the states of
:mod:`._network_states`: 40 exact initial states (:math:`W = \alpha\bar W`,
:math:`\bar W` satisfying (22), :math:`\alpha \in \{8, 2, 1/2, 1/8, 1/32\}`) and 28
checkpoints of four gradient flows (:math:`\alpha = 1/8, 1/32`, through the
plateau to convergence), and the nearly tight states of :mod:`._lemma_b1_states`
(8 more initial states, the checkpoints read with :math:`\bar W/16`, an
axis-aligned flow), each quantity enclosed in ball arithmetic. At an
initial state a relation whose enclosure excludes it is refuted
(``Basis.CERTIFIED``); at a checkpoint the invariant (35) holds to the
integrator's rounding and a relation may miss by :math:`2Ld\delta`, the drift
:math:`\delta` enclosed there. The chains are written at :math:`L = 3` for
:math:`l = 1` and :math:`l = 2 = L - 1`.

Finding: (59) prints :math:`\|\bar W_L\|_{op}^2` where summing (58) from
:math:`l` to :math:`L - 1` gives :math:`\|W_L\|_{op}^2`, which (60) uses
(slip ``bar-59``; ``59:summed`` holds). (58) holds under (22) with room to
spare: :math:`u^\top \bar D_l u \ge \lambda > 0`, while its right side is
negative.
"""

from __future__ import annotations

import functools

import sympy as sp

from implicit_bias.claims.checks import relation_check
from implicit_bias.claims.derivation import Derivation
from implicit_bias.claims.engine import Claim, Kind, Reading, Status
from implicit_bias.sources.features_are_fate._lemma_b1 import (
    ALPHA,
    ASSUMPTIONS,
    DEPTH,
    LAYER,
    LAYER_INDEX,
    LAYERS,
    PAIR,
    chain,
    claim,
    claim_id,
    rank_one_bound,
    step,
)
from implicit_bias.sources.features_are_fate.appendix_b2 import deep_linear_network
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.theory import transfer_asymptotics as theory

__all__ = ["CLAIMS", "DERIVATIONS"]

# --- the quotes

_Q52 = (
    "Taking the trace of both sides in (35) we have ||W_l||_F^2 − ||W_{l+1}||_F^2 = "
    "α^2(||W̄_l||_F^2 − ||W̄_{l+1}||_F^2) (52)"
)
_Q53_54 = (
    "Σ_{k=l}^{L−1} ||W_k||_F^2 − ||W_{k+1}||_F^2 = α^2 Σ_{k=l}^{L−1} (||W̄_k||_F^2 − "
    "||W̄_{k+1}||_F^2) (53) ||W_l||_F^2 − ||W_L||_F^2 = α^2(||W̄_l||_F^2 − "
    "||W̄_L||_F^2) (54)"
)
_Q55 = (
    "Let u_l, v_l be the top left and right singular vectors of W_l. To bound the "
    "maximum singular value of W_l we have ||W_l||_op^2 = v_l^T W_l^T W_l v_l ≥ "
    "u_{l+1}^T W_l^T W_l u_{l+1} (55)"
)
_Q56 = "= u_{l+1}^T (D_l + W_{l+1} W_{l+1}^T) u_{l+1} (56)"
_Q57 = "= ||W_{l+1}||_op^2 + α^2 u_{l+1}^T (W̄_l^T W̄_l − W̄_{l+1} W̄_{l+1}^T) u_{l+1} (57)"
_Q58 = "≥ ||W_{l+1}||_op^2 + α^2(||W̄_{l+1}||_op^2 − ||W̄_l||_op^2) (58)"
_Q59 = (
    "Summing this inequality from l to L − 1 we have ||W_l||_op^2 ≥ ||W̄_L||_op^2 + "
    "α^2(||W̄_L||_op^2 − ||W̄_l||_op^2) (59)"
)
_Q60 = (
    "Combining (53) and (59) we have ||W_l||_F^2 − ||W_l||_op^2 ≤ α^2(||W̄_l||_F^2 − "
    "||W̄_L||_F^2 + ||W̄_l||_op^2 − ||W̄_L||_op^2) (60)"
)
# --- (52)-(54): conservation of the Frobenius norms


def _frobenius_rate(first: int, last: int) -> sp.Basic:
    r"""d/dt (||W_first||_F^2 - ||W_last||_F^2) along the flow: 0."""
    network = deep_linear_network(DEPTH)

    def rate(layer: int) -> sp.Expr:
        weight, velocity = network.weights[layer - 1], network.velocities[layer - 1]
        return 2 * sum((w * v for w, v in zip(weight, velocity, strict=True)), sp.S(0))

    return sp.Eq(rate(first) - rate(last), 0, evaluate=False)


#: f_k: the Frobenius norm ||W_k||_F^2 (or ||Wbar_k||_F^2) as a function of k.
_FROBENIUS = sp.Function("f")


def _telescoping() -> sp.Basic:
    """(53) -> (54): sum_{k=l}^{L-1} (f_k - f_{k+1}) = f_l - f_L, for symbolic l, L."""
    f = _FROBENIUS
    k = sp.Symbol("k", integer=True)
    layer, big_l = LAYER_INDEX, theory.depth
    return sp.Eq(sp.Sum(f(k) - f(k + 1), (k, layer, big_l - 1)), f(layer) - f(big_l))


def _conservation_claims() -> tuple[Claim, ...]:
    network = deep_linear_network(DEPTH)
    regime = (
        "L = 3, d = 2, every entry of the weights and beta_s a symbol; the flow (6) "
        "on the noise-free population loss; at t = 0, W = alpha Wbar makes both sides "
        "alpha^2 times the Wbar norms"
    )
    claims = [
        Claim(
            SOURCE_ID,
            "52",
            f"trace-conserved-layer-{layer}",
            Kind.IDENTITY,
            f"d/dt (||W_{layer}||_F^2 - ||W_{layer + 1}||_F^2) = 0 under the flow "
            "(the trace of (35)), so it keeps its value alpha^2 (||Wbar_l||_F^2 - "
            "||Wbar_{l+1}||_F^2) at t = 0",
            relation_check(
                functools.partial(_frobenius_rate, layer, layer + 1),
                substitutions=network.flow(),
                points=20,
            ),
            Status.HOLDS,
            formula=functools.partial(_frobenius_rate, layer, layer + 1),
            assumptions=ASSUMPTIONS[:1],
            budget_seconds=30.0,
            quote=_Q52,
            reading=Reading.PRINTED,
            regime=regime,
        )
        for layer in LAYERS
    ]
    claims += [
        Claim(
            SOURCE_ID,
            "53-54",
            "telescoping",
            Kind.IDENTITY,
            "sum_{k=l}^{L-1} (f_k - f_{k+1}) = f_l - f_L: (53), the sum of (52), is "
            "(54)",
            relation_check(_telescoping),
            Status.HOLDS,
            formula=_telescoping,
            assumptions=("symbolic integers l <= L - 1",),
            budget_seconds=30.0,
            quote=_Q53_54,
            reading=Reading.PRINTED,
            regime="symbolic l and L, f_k the Frobenius norms (W or Wbar)",
        ),
        Claim(
            SOURCE_ID,
            "54",
            "first-to-last-conserved",
            Kind.IDENTITY,
            "d/dt (||W_1||_F^2 - ||W_L||_F^2) = 0 under the flow (L = 3): (54) at "
            "l = 1",
            relation_check(
                functools.partial(_frobenius_rate, 1, DEPTH),
                substitutions=network.flow(),
                points=20,
            ),
            Status.HOLDS,
            formula=functools.partial(_frobenius_rate, 1, DEPTH),
            assumptions=ASSUMPTIONS[:1],
            budget_seconds=30.0,
            quote=_Q53_54,
            reading=Reading.PRINTED,
            regime=regime,
        ),
    ]
    return tuple(claims)


# --- (55)-(58): the top singular value of W_l through W_{l+1}'s


def _operator_norm_chain(layer: int) -> Derivation:
    a, b, p = LAYER[layer], LAYER[layer + 1], PAIR[layer]
    return chain(
        layer,
        "55-58",
        "operator-norm",
        "The top singular value of W_l bounded by that of W_{l+1}",
        lambda: a["s2"],
        (
            step(
                lambda: p["v_top"],
                "v_l is the top right singular vector",
                "=",
                "55",
                _Q55,
            ),
            step(
                lambda: p["u_top"],
                "a Rayleigh quotient of W_l^T W_l is at most its top eigenvalue",
                ">=",
                "55",
                _Q55,
            ),
            step(
                lambda: p["u_split"],
                "W_l^T W_l = D_l + W_{l+1} W_{l+1}^T (35)",
                "=",
                "56",
                _Q56,
            ),
            step(
                lambda: b["s2"] + ALPHA**2 * p["u_bar"],
                "u_{l+1}^T W_{l+1} W_{l+1}^T u_{l+1} = s_{l+1}^2 and D_l = alpha^2 "
                "Dbar_l (35)",
                "=",
                "57",
                _Q57,
            ),
            step(
                lambda: b["s2"] + ALPHA**2 * (b["obar"] - a["obar"]),
                "u^T Dbar_l u >= ||Wbar_{l+1}||_op^2 - ||Wbar_l||_op^2 (by (22), "
                "Dbar_l >= lambda I > 0 > the right side)",
                ">=",
                "58",
                _Q58,
            ),
        ),
        _Q55,
    )


def _rank_one_claims(layer: int) -> tuple[Claim, ...]:
    a, last = LAYER[layer], LAYER[DEPTH]
    return (
        claim(
            "59",
            "as-printed",
            Kind.INEQUALITY,
            "||W_l||_op^2 >= ||Wbar_L||_op^2 + alpha^2 (||Wbar_L||_op^2 - "
            "||Wbar_l||_op^2), as printed (a bar on W_L)",
            lambda: sp.Ge(
                a["s2"], last["obar"] + ALPHA**2 * (last["obar"] - a["obar"])
            ),
            _Q59,
            layer,
            expected=Status.FAILS,
            slip="bar-59",
        ),
        claim(
            "59",
            "summed",
            Kind.INEQUALITY,
            "||W_l||_op^2 >= ||W_L||_op^2 + alpha^2 (||Wbar_L||_op^2 - "
            "||Wbar_l||_op^2): (58) summed from l to L - 1, as (60) uses it",
            lambda: sp.Ge(a["s2"], last["s2"] + ALPHA**2 * (last["obar"] - a["obar"])),
            _Q59,
            layer,
            reading=Reading.INTERPRETATION,
            corrects=claim_id("59", f"as-printed-layer-{layer}"),
        ),
        claim(
            "60",
            "rank-one",
            Kind.INEQUALITY,
            "||W_l||_F^2 - ||W_l||_op^2 <= alpha^2 (||Wbar_l||_F^2 - ||Wbar_L||_F^2 + "
            "||Wbar_l||_op^2 - ||Wbar_L||_op^2)",
            lambda: sp.Le(a["fro"] - a["s2"], rank_one_bound(layer)),
            _Q60,
            layer,
        ),
    )


DERIVATIONS: tuple[Derivation, ...] = tuple(
    _operator_norm_chain(layer) for layer in LAYERS
)

CLAIMS: tuple[Claim, ...] = (
    *_conservation_claims(),
    *(item for layer in LAYERS for item in _rank_one_claims(layer)),
)
