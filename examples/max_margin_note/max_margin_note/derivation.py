r"""Section 2 of the note: the derivation, as chains of checked steps.

* eq. (7): the logistic loss has an exponential tail, :math:`-\ell'(u)\le e^{-u}`;
* eqs. (8)-(10): the one-dimensional model :math:`\dot g = c\,e^{-g}` is solved
  by :math:`g(t) = \log(ct + e^{g_0})`, which grows like :math:`\log t`;
* eqs. (11)-(13): an iterate :math:`g\hat w + r` with :math:`r\perp\hat w` is at
  direction gap at most :math:`\|r\|/(\|\hat w\| g)` from :math:`\hat w`, so a
  bounded :math:`r` and :math:`g \sim \log t` give the :math:`O(1/\log t)` of
  eq. (6);
* eq. (12'): a tempting shortcut in (12) that is wrong on purpose -- the
  toolkit refutes it with a certified counterexample.
"""

from __future__ import annotations

import sympy as sp

from implicit_bias.claims import (
    Claim,
    Derivation,
    Kind,
    Reading,
    Status,
    Step,
    relation_check,
)
from max_margin_note.setting import SOURCE_ID, a, b, c, g, g0, t, u

__all__ = ["CHAINS", "CLAIMS", "direction_cosine", "one_minus_cosine"]


def _logistic(margin: sp.Expr) -> sp.Expr:
    """Eq. (1): the logistic loss of a margin."""
    return sp.log(1 + sp.exp(-margin))


_TAIL = Derivation(
    source=SOURCE_ID,
    equation="7",
    label="exponential-tail",
    title="The logistic loss has an exponential tail",
    start=lambda: -sp.Derivative(_logistic(u), u),
    steps=(
        Step(
            lambda: sp.exp(-u) / (1 + sp.exp(-u)),
            "the chain rule: the derivative of log(1 + e^{-u}) is -e^{-u}/(1 + e^{-u})",
        ),
        Step(
            lambda: 1 / (1 + sp.exp(u)),
            "multiply numerator and denominator by e^u",
        ),
        Step(
            lambda: sp.exp(-u),
            "1 + e^u > e^u",
            "<=",
        ),
    ),
    quote="-l'(u) = e^{-u}/(1+e^{-u}) = 1/(1+e^u) <= e^{-u}",
    reading=Reading.PRINTED,
    regime="symbolic",
    assumptions=("u real",),
)


def _growth(time: sp.Expr) -> sp.Expr:
    """Eq. (9): the solution of the model (8)."""
    return sp.log(c * time + sp.exp(g0))


_GROWTH = Derivation(
    source=SOURCE_ID,
    equation="9",
    label="log-growth",
    title="g(t) = log(ct + e^{g_0}) solves dg/dt = c e^{-g}",
    start=lambda: sp.Derivative(_growth(t), t),
    steps=(
        Step(
            lambda: c / (c * t + sp.exp(g0)),
            "the chain rule: d/dt log(ct + e^{g_0}) = c/(ct + e^{g_0})",
        ),
        Step(
            lambda: c * sp.exp(-_growth(t)),
            "e^{-log x} = 1/x for x = ct + e^{g_0} > 0",
        ),
    ),
    quote="d/dt log(ct + e^{g_0}) = c/(ct + e^{g_0}) = c e^{-g(t)}",
    reading=Reading.PRINTED,
    regime="symbolic",
    assumptions=("c > 0", "t > 0", "g_0 real"),
)

_INITIAL_VALUE = Claim(
    source=SOURCE_ID,
    equation="9",
    label="initial-value",
    kind=Kind.IDENTITY,
    statement="g(t) = log(ct + e^{g_0}) starts at g(0) = g_0",
    check=relation_check(lambda: sp.Eq(_growth(sp.Integer(0)), g0, evaluate=False)),
    expected=Status.HOLDS,
    assumptions=("g_0 real",),
    quote="g(0) = log(e^{g_0}) = g_0",
    reading=Reading.PRINTED,
    regime="symbolic",
)

_LOG_RATE = Claim(
    source=SOURCE_ID,
    equation="10",
    label="log-rate",
    kind=Kind.LIMIT,
    statement="g(t) grows like log t: g(t)/log t -> 1 as t -> oo, whatever c and g_0",
    check=relation_check(
        lambda: sp.Eq(sp.Limit(_growth(t) / sp.log(t), t, sp.oo), 1, evaluate=False)
    ),
    expected=Status.HOLDS,
    assumptions=("c > 0", "g_0 real"),
    quote="lim_{t -> oo} g(t)/log t = 1",
    reading=Reading.PRINTED,
    regime="symbolic",
)


def direction_cosine() -> sp.Expr:
    r"""Eq. (11): the cosine of the angle of :math:`g\hat w + r` to :math:`\hat w`.

    .. math:: \cos\theta = \frac{a g}{\sqrt{a^2 g^2 + b^2}}

    with :math:`a = \|\hat w\|`, :math:`b = \|r\|` and :math:`r \perp \hat w`.
    """
    return a * g / sp.sqrt(a**2 * g**2 + b**2)


def one_minus_cosine() -> sp.Expr:
    r"""Eq. (12), first form: :math:`1 - \cos\theta` rationalized.

    .. math:: 1 - \cos\theta = \frac{b^2}{\sqrt{a^2g^2+b^2}\,
              \bigl(\sqrt{a^2g^2+b^2} + ag\bigr)}
    """
    root = sp.sqrt(a**2 * g**2 + b**2)
    return b**2 / (root * (root + a * g))


_COSINE_GAP = Derivation(
    source=SOURCE_ID,
    equation="12",
    label="cosine-gap",
    title="1 - cos(theta) <= ||r||^2 / (2 ||w_hat||^2 g^2)",
    start=lambda: 1 - direction_cosine(),
    steps=(
        Step(
            one_minus_cosine,
            "multiply and divide by sqrt(a^2 g^2 + b^2) + a g",
        ),
        Step(
            lambda: b**2 / (2 * a**2 * g**2),
            "sqrt(a^2 g^2 + b^2) >= a g, so the denominator is at least "
            "a g (a g + a g) = 2 a^2 g^2",
            "<=",
        ),
    ),
    quote="1 - cos θ = b^2/(√(a²g²+b²)(√(a²g²+b²)+ag)) <= b^2/(2a²g²)",
    reading=Reading.PRINTED,
    regime="symbolic",
    assumptions=("a, b, g > 0",),
)

#: The deliberate slip: both factors of the denominator bounded below by 2ag,
#: where only the second one is (the first is only >= ag). The bound it gives
#: is false; the note marks it "wrong on purpose".
_COSINE_GAP_SLIP = Derivation(
    source=SOURCE_ID,
    equation="12'",
    label="cosine-gap-slip",
    title="A slip in (12): 1 - cos(theta) <= ||r||^2 / (4 ||w_hat||^2 g^2)",
    start=one_minus_cosine,
    steps=(
        Step(
            lambda: b**2 / (4 * a**2 * g**2),
            "each factor of the denominator is at least 2 a g (wrong on purpose: "
            "only the second is; the first is only at least a g)",
            "<=",
            expected=Status.FAILS,
        ),
    ),
    quote="b^2/(√(a²g²+b²)(√(a²g²+b²)+ag)) <= b^2/(4a²g²)",
    reading=Reading.PRINTED,
    regime="symbolic",
    assumptions=("a, b, g > 0",),
)

_DIRECTION_GAP = Derivation(
    source=SOURCE_ID,
    equation="13",
    label="direction-gap",
    title="The direction gap is at most ||r|| / (||w_hat|| g)",
    start=lambda: sp.sqrt(2 * (1 - direction_cosine())),
    steps=(
        Step(
            lambda: sp.sqrt(2 * b**2 / (2 * a**2 * g**2)),
            "(12), and the square root is increasing",
            "<=",
        ),
        Step(
            lambda: b / (a * g),
            "a, b, g > 0",
        ),
    ),
    quote="||w/||w|| - ŵ/||ŵ|| || = √(2(1 - cos θ)) <= b/(ag)",
    reading=Reading.PRINTED,
    regime="symbolic",
    assumptions=("a, b, g > 0",),
)

#: The derivation chains of Section 2, in the order of the note.
CHAINS = (_TAIL, _GROWTH, _COSINE_GAP, _COSINE_GAP_SLIP, _DIRECTION_GAP)
#: The claims of Section 2 that are not steps of a chain.
CLAIMS = (_INITIAL_VALUE, _LOG_RATE)
