r"""Appendix A.2.2 of adaptive-tangent-features: the Taylor argument, as chains.

The proof of Proposition 3 obtains :math:`\tilde\omega(v) = v^2 + o(v^2)` from
eqs. (24)-(26): the first derivative of the effective penalty at 0 (24), the
second (25), and the slope of the minimizer (26) with its consequence
:math:`v\,\partial z^*/\partial v = C_p v^{2/(p-1)} \to 0`. Each printed line is a
:class:`~implicit_bias.claims.derivation.Derivation` whose expressions are the
printed ones, built from :mod:`implicit_bias.theory.tangent_features`.

"At :math:`v = 0`" is the limit :math:`v \to 0^+`. Along the minimizer curve of
:math:`|z-1|^p` (:func:`~implicit_bias.theory.tangent_features.
power_tilde_parametric`, parametrized by :math:`w = z^* - 1`), :math:`v^2` is
increasing in w and tends to 0 with w when :math:`p > 1`, so the limit is
:math:`w \to 0^+`; derivatives in v are derivatives in w over
:math:`dv/dw`. Eq. (26) uses the text's own leading-order relation
:math:`p|z^*-1|^{p-1} = 2v^2`, taken exactly as the text plugs it in.

(Eq. (27) is the problem of Lemma 5, not a step of this proof; its claims are
in :mod:`.appendix_a3_proofs`.)

A step between two expressions "at :math:`v = 0`" that both tend to 0 holds
for almost any pair, so such a step is checked as what the text derives and
then uses: the envelope theorem gives the middle of (24) for every v, and (25)
differentiates it; the middle of (25) is that derivative for every v; and
:math:`v\,\partial z^*/\partial v = C_p v^{2/(p-1)}` is an identity before
:math:`v \to 0^+`. These steps are the identity of the two expressions along
the curve (which gives the equality at 0), and a wrong side fails with a
certified counterexample. The last step of (24), a limit 0 that is all the text
claims, is also checked at leading order, :math:`2v/z^{*2} \sim 2v`: the text's
"at :math:`v = 0`, :math:`z^* = 1`" (our reading).
"""

from __future__ import annotations

import dataclasses

import sympy as sp

from implicit_bias.claims.checks import interval, judge_relation
from implicit_bias.claims.derivation import Derivation, Step
from implicit_bias.claims.engine import (
    Basis,
    CheckTimeout,
    Reason,
    Status,
    Verdict,
    conjunction,
    time_limit,
)
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID
from implicit_bias.sources.adaptive_tangent_features.symbolic import EXPONENTS
from implicit_bias.theory import tangent_features as theory

__all__ = ["DERIVATIONS", "GLYPHS", "slope_constant"]

v, w, p = theory.v, theory.w, theory.p

#: The constant of eq. (26), typeset as the text writes it.
slope_constant = sp.Symbol("C_p", positive=True)

#: How the symbols of this module are typeset.
GLYPHS: dict[sp.Symbol, str] = {slope_constant: r"C_{p}"}

#: C_p as the text's leading-order relation determines it.
_SLOPE_CONSTANT = {slope_constant: theory.taylor_slope_constant()}

_LIMIT_BUDGET_SECONDS = 10.0

#: Where an identity of (26) is sampled if SymPy does not decide it: the text's
#: case p > 1 (the relation p|z*-1|^(p-1) = 2v^2 has no meaning at p = 1).
_EXPONENT_SAMPLER = {p: interval(1.05, 6.0)}


def _minimizer_curve() -> tuple[sp.Expr, sp.Expr]:
    """(v, omega~) along the minimizer curve of |z-1|^p, as functions of w."""
    u_of_w, tilde_of_w = theory.power_tilde_parametric()
    return sp.sqrt(u_of_w), tilde_of_w


def _at_zero(expression: sp.Expr, variable: sp.Symbol = w) -> sp.Limit:
    """``expression`` at v = 0: its limit as ``variable`` -> 0+."""
    return sp.Limit(expression, variable, 0, "+")


def _first_derivative() -> sp.Expr:
    r""":math:`\partial\tilde\omega/\partial v`, as
    :math:`(d\tilde\omega/dw)/(dv/dw)`."""
    v_of_w, tilde_of_w = _minimizer_curve()
    return sp.Derivative(tilde_of_w, w) / sp.Derivative(v_of_w, w)


def _slope_of_minimizer() -> sp.Expr:
    r""":math:`\partial z^*/\partial v` along the curve: :math:`1/(dv/dw)`."""
    v_of_w, _ = _minimizer_curve()
    return 1 / sp.Derivative(v_of_w, w)


def _eq24_envelope() -> sp.Expr:
    """The middle of eq. (24): 2 v / z*^2."""
    v_of_w, _ = _minimizer_curve()
    return 2 * v_of_w / (1 + w) ** 2


def _second_derivative() -> sp.Expr:
    r""":math:`\partial^2\tilde\omega/\partial v^2`: the first derivative
    differentiated in w, over :math:`dv/dw`."""
    return sp.Derivative(_first_derivative(), w) * _slope_of_minimizer()


def _eq25_middle() -> sp.Expr:
    """The middle of eq. (25): 2/z*^2 - 4 v/z*^3 dz*/dv."""
    v_of_w, _ = _minimizer_curve()
    z_star = 1 + w
    return 2 / z_star**2 - 4 * v_of_w / z_star**3 * _slope_of_minimizer()


def _leading_slope() -> sp.Expr:
    """dz*/dv for the text's z* with p|z*-1|^(p-1) = 2v^2, written d(z* - 1)/dv.

    z* - 1 = (2v^2/p)^(1/(p-1)) is what the relation fixes; the constant 1 of
    z* has derivative 0, and left inside the derivative it would be a term
    whose change no check could notice (the derivative is the same)."""
    return sp.Derivative(theory.taylor_minimizer_leading() - 1, v)


def _eq26_implicit() -> sp.Expr:
    """Eq. (26), left, solved for dz*/dv: 4v / (p(p-1)|z*-1|^(p-2))."""
    deviation = sp.Abs(theory.taylor_minimizer_leading() - 1)
    return 4 * v / (p * (p - 1) * deviation ** (p - 2))


def _eq26_power_law() -> sp.Expr:
    """Eq. (26), right: C_p v^(1 - 2(p-2)/(p-1))."""
    return slope_constant * v ** (1 - 2 * (p - 2) / (p - 1))


def _power_simplify(expression: sp.Expr) -> sp.Expr:
    """Combine powers of positive symbols (v, p > 0), which simplify leaves apart.

    First the numerator over a common denominator, expanded: when it is 0 so
    is the expression (where it is defined, as after ``cancel``), found at a
    fraction of the cost of ``simplify``, which is tried when it is not.
    """
    expanded = sp.expand_power_base(sp.powdenest(expression, force=True), force=True)
    combined = sp.powsimp(expanded, force=True)
    numerator = sp.expand(sp.fraction(sp.together(combined))[0])
    if numerator == 0:
        return numerator
    return sp.simplify(combined)


def _sides(relation: sp.Basic) -> tuple[sp.Expr, sp.Expr] | None:
    if not isinstance(relation, sp.Eq):
        return None
    return relation.lhs, relation.rhs


def _limit_value(side: sp.Expr, exponent: sp.Expr) -> sp.Expr:
    """``side`` at p = ``exponent``: the limit a Limit stands for, else itself."""
    side = side.subs(_SLOPE_CONSTANT).subs(p, exponent)
    if isinstance(side, sp.Limit):
        expression, variable, point, direction = side.args
        with time_limit(_LIMIT_BUDGET_SECONDS):
            return sp.limit(expression.doit(), variable, point, dir=str(direction))
    return side.doit()


def _judge_limits_at_exponents(relation: sp.Basic) -> Verdict:
    """Both sides' limits as v -> 0+, exactly, at each p of :data:`EXPONENTS`
    (SymPy cannot take them for symbolic p, and they need p > 1)."""
    sides = _sides(relation)
    if sides is None:
        return Verdict.inconclusive(
            f"not an equation: {sp.sstr(relation)}", Reason.UNDECIDED
        )
    parts, details = [], []
    for exponent in EXPONENTS:
        try:
            left, right = (_limit_value(side, exponent) for side in sides)
        except (CheckTimeout, NotImplementedError, ValueError) as error:
            return Verdict.inconclusive(
                f"p = {exponent}: SymPy did not take the limit ({error})",
                Reason.UNDECIDED,
            )
        if not (left.is_number and right.is_number):
            return Verdict.inconclusive(
                f"p = {exponent}: the limits {left}, {right} are not numbers",
                Reason.UNDECIDED,
            )
        difference = sp.simplify(left - right)
        if difference == 0:
            parts.append(Verdict.holds(f"p = {exponent}: {left}", Basis.PROOF))
        elif difference.is_zero is False:
            parts.append(
                Verdict.fails(
                    f"p = {exponent}: the limits are {left} and {right}",
                    Basis.PROOF,
                    f"p = {exponent}: as v -> 0+ the sides tend to {left} and "
                    f"{right} (exact limits)",
                )
            )
        else:
            return Verdict.inconclusive(
                f"p = {exponent}: {left} - {right} not decided", Reason.UNDECIDED
            )
        details.append(parts[-1].detail)
    return conjunction(parts, "exact limits as v -> 0+: " + "; ".join(details))


def _judge_identity_before_limit(relation: sp.Basic) -> Verdict:
    """``Eq(Limit(a), Limit(b))`` at the same point, as the identity ``a = b``
    the text derives for every v > 0 before it sets v = 0: exactly for symbolic
    p (powers of positive symbols combined), else at 50 digits with a certified
    counterexample (:func:`_judge_powers`). Equal limits alone do not make it
    hold: both sides of these steps tend to 0 (or to 2) for almost any
    expression. Where the identity is undecided, limits that differ still
    refute the step; limits that agree leave it undecided."""
    sides = _sides(relation)
    if sides is None or not all(isinstance(side, sp.Limit) for side in sides):
        return _judge_limits_at_exponents(relation)
    left, right = sides
    if left.args[1:] != right.args[1:]:
        return _judge_limits_at_exponents(relation)
    identity = _judge_powers(sp.Eq(left.args[0], right.args[0], evaluate=False))
    if identity.status == Status.HOLDS:
        return identity.with_detail(
            f"the arguments are equal for symbolic p ({identity.detail}), so "
            "are their limits as v -> 0+"
        )
    if identity.status == Status.FAILS:
        return identity.with_detail(
            "the arguments, equal for every v > 0 in the text's derivation, "
            f"differ: {identity.detail}"
        )
    limits = _judge_limits_at_exponents(relation)
    if limits.status == Status.FAILS:
        return limits
    return Verdict.inconclusive(
        f"the identity of the arguments is undecided ({identity.detail}); "
        f"their limits: {limits.detail}",
        identity.reason or Reason.UNDECIDED,
    )


def _judge_vanishing_at_leading_order(
    relation: sp.Basic, leading: sp.Expr, name: str
) -> Verdict:
    """``Eq(Limit(f, w, 0, '+'), 0)`` at each p of :data:`EXPONENTS`, and the
    leading order of f that the text's reason gives, ``f / leading -> 1``
    (``name``: how the evidence writes ``leading``).

    A limit 0 holds for almost any f that vanishes; the ratio tells a wrong f
    apart up to terms of higher order."""
    limits = _judge_limits_at_exponents(relation)
    sides = _sides(relation)
    if limits.status != Status.HOLDS or sides is None:
        return limits
    left = sides[0]
    if not isinstance(left, sp.Limit):
        return limits
    expression, variable, point, direction = left.args
    ratio = sp.Limit(expression / leading, variable, point, str(direction))
    order = _judge_limits_at_exponents(sp.Eq(ratio, 1, evaluate=False))
    if order.status == Status.FAILS and order.counterexample is not None:
        # Its "sides" are the ratio and 1, not the step's: say so.
        order = dataclasses.replace(
            order,
            counterexample=f"at leading order, lhs / ({name}) should "
            f"tend to 1: {order.counterexample}",
        )
    return conjunction(
        [limits, order],
        f"{limits.detail}; at leading order, lhs / ({name}) -> 1: {order.detail}",
    )


def _judge_envelope_vanishes(relation: sp.Basic) -> Verdict:
    """The last step of (24): 2v/z*^2 -> 0, and 2v/z*^2 ~ 2v (z* -> 1)."""
    v_of_w, _ = _minimizer_curve()
    return _judge_vanishing_at_leading_order(relation, 2 * v_of_w, "2v")


def _judge_powers(relation: sp.Basic) -> Verdict:
    """An identity in v, p > 0 (C_p as the text's relation fixes it): exactly
    once powers of positive symbols are combined, else by
    :func:`~implicit_bias.claims.checks.judge_relation`, numerically (50
    digits, p in [1.05, 6])."""
    sides = _sides(relation)
    if sides is not None:
        left, right = (side.subs(_SLOPE_CONSTANT).doit() for side in sides)
        try:
            with time_limit(_LIMIT_BUDGET_SECONDS):
                difference = _power_simplify(left - right)
        except CheckTimeout:
            difference = None
        if difference == 0:
            return Verdict.holds(
                "exact, symbolic p: lhs - rhs = 0 once powers of the positive v "
                "and p are combined",
                Basis.PROOF,
            )
    # SymPy's expand and simplify were tried above, on the powers combined:
    # straight to the numbers, which refute a wrong side in a second where a
    # second symbolic attempt would spend its whole budget first.
    return judge_relation(
        relation,
        samplers=_EXPONENT_SAMPLER,
        substitutions=_SLOPE_CONSTANT,
        symbolic=False,
    )


_QUOTE_24 = (
    r"\partial\omega(z^{*})-2\tfrac{v^{2}}{z^{*3}}\ni 0 \implies\frac{\partial"
    r"\tilde{\omega}(v)}{\partial v}\Big{|}_{v=0}=2\frac{v}{z^{*2}}\Big{|}_{v=0}=0"
)
_QUOTE_25 = (
    r"\frac{\partial^{2}\tilde{\omega}(v)}{\partial v^{2}}\Big{|}_{v=0}=2\frac{1}"
    r"{z^{*2}}-4\frac{v}{z^{*3}}\frac{\partial z^{*}}{\partial v}\Big{|}_{v=0}=2"
)
_QUOTE_26 = (
    r"p(p-1)|z^{*}-1|^{p-2}\frac{\partial z^{*}}{\partial v}=4v\implies\frac{"
    r"\partial z^{*}}{\partial v}=C_{p}v^{1-\frac{2(p-2)}{p-1}}"
)
_QUOTE_V_SLOPE = (
    r"This implies that v\frac{\partial z^{*}}{\partial v}=C_{p}v^{\tfrac{2}{p-1}}"
    r"\to 0 as v\to 0^{+}"
)
_REGIME_CURVE = (
    "omega = |z-1|^p (Proposition 3's second case): symbolic p > 0 along the "
    "minimizer curve for identities, p in {5/4, 3/2, 2, 3, 5} for the limits "
    "v -> 0+ (w = z* - 1 -> 0+): the proof of Proposition 3 (A.2.2)"
)
_REGIME_LEADING = (
    "symbolic p > 1, v > 0, with the text's p|z*-1|^(p-1) = 2v^2 taken exactly "
    "as the text plugs it in; C_p = 2 (2/p)^(1/(p-1)) / (p-1), the constant the "
    "text leaves unnamed; limits at p in {5/4, 3/2, 2, 3, 5}"
)

DERIVATIONS: tuple[Derivation, ...] = (
    Derivation(
        source=SOURCE_ID,
        equation="24",
        label="first-derivative",
        title="The first derivative of the effective penalty at v = 0",
        start=lambda: _at_zero(_first_derivative()),
        steps=(
            Step(
                lambda: _at_zero(_eq24_envelope()),
                (
                    r"the stationarity of (12), $\omega'(z^*) - 2v^2/{z^*}^3 = 0$ "
                    r"(envelope theorem: $d\tilde\omega/dv$ is the partial derivative "
                    r"of $\omega(z) + v^2/z^2$ in $v$ at $z = z^*$); the theorem "
                    r"gives $d\tilde\omega/dv = 2v/{z^*}^2$ for every $v > 0$, and "
                    r"(25) differentiates it, so the step is checked as that identity "
                    r"along the minimizer curve, which gives the equality at $v = 0$ "
                    "(both sides tend to 0, which alone would hold for almost any "
                    "pair)"
                ),
                quote=r"\frac{\partial\tilde{\omega}(v)}{\partial v}\Big{|}_{v=0}"
                r"=2\frac{v}{z^{*2}}\Big{|}_{v=0}",
                judge=_judge_identity_before_limit,
            ),
            Step(
                lambda: sp.Integer(0),
                (
                    r"'at $v = 0$, $z^* = 1$': $v \to 0$ and $z^* \to 1$; checked as "
                    r"the limit 0 the text states and, at leading order, as "
                    r"$2v/{z^*}^2 \sim 2v$ (the ratio tends to 1, i.e. $z^* \to 1$: "
                    r"our reading of 'at $v = 0$, $z^* = 1$')"
                ),
                quote=r"2\frac{v}{z^{*2}}\Big{|}_{v=0}=0",
                judge=_judge_envelope_vanishes,
            ),
        ),
        quote=_QUOTE_24,
        regime=_REGIME_CURVE,
        assumptions=("omega = |z-1|^p",),
    ),
    Derivation(
        source=SOURCE_ID,
        equation="25",
        label="second-derivative",
        title="The second derivative of the effective penalty at v = 0",
        start=lambda: _at_zero(_second_derivative()),
        steps=(
            Step(
                lambda: _at_zero(_eq25_middle()),
                (
                    r"differentiate $2v/{z^*}^2$ of (24) in $v$ ($z^*$ depends on "
                    r"$v$): an identity for every $v > 0$, checked as such along the "
                    "minimizer curve (both sides tend to 2, which alone would hold "
                    "for many wrong middles)"
                ),
                quote=r"\frac{\partial^{2}\tilde{\omega}(v)}{\partial v^{2}}\Big{|}"
                r"_{v=0}=2\frac{1}{z^{*2}}-4\frac{v}{z^{*3}}\frac{\partial z^{*}}"
                r"{\partial v}\Big{|}_{v=0}",
                judge=_judge_identity_before_limit,
            ),
            Step(
                lambda: sp.Integer(2),
                "z* -> 1 and v dz*/dv -> 0 as v -> 0+ (justified by (26))",
                quote=r"-4\frac{v}{z^{*3}}\frac{\partial z^{*}}{\partial v}\Big{|}"
                r"_{v=0}=2",
                judge=_judge_limits_at_exponents,
            ),
        ),
        quote=_QUOTE_25,
        regime=_REGIME_CURVE,
        assumptions=("omega = |z-1|^p, p in {5/4, 3/2, 2, 3, 5} for the limits",),
    ),
    Derivation(
        source=SOURCE_ID,
        equation="26",
        label="minimizer-slope",
        title="The slope of the minimizer near v = 0",
        start=_leading_slope,
        steps=(
            Step(
                _eq26_implicit,
                "differentiate p|z*-1|^(p-1) = 2v^2 in v: "
                "p(p-1)|z*-1|^(p-2) dz*/dv = 4v",
                quote=r"p(p-1)|z^{*}-1|^{p-2}\frac{\partial z^{*}}{\partial v}=4v",
                judge=_judge_powers,
            ),
            Step(
                _eq26_power_law,
                "plug in |z*-1| = (2v^2/p)^(1/(p-1))",
                quote=r"\frac{\partial z^{*}}{\partial v}=C_{p}v^{1-\frac{2(p-2)}"
                r"{p-1}}",
                judge=_judge_powers,
            ),
        ),
        quote=_QUOTE_26,
        regime=_REGIME_LEADING,
        assumptions=("p|z*-1|^(p-1) = 2v^2 (leading order)", "p > 1"),
        substitutions=_SLOPE_CONSTANT,
    ),
    Derivation(
        source=SOURCE_ID,
        equation="26",
        label="v-slope",
        title="v dz*/dv vanishes as v -> 0+",
        start=lambda: _at_zero(v * _leading_slope(), v),
        steps=(
            Step(
                lambda: _at_zero(slope_constant * v ** (2 / (p - 1)), v),
                (
                    r"multiply (26) by $v$: $v^{2 - 2(p-2)/(p-1)} = v^{2/(p-1)}$; an "
                    r"identity for every $v > 0$, checked as such (both sides tend "
                    "to 0, which alone would hold for almost any pair)"
                ),
                quote=r"v\frac{\partial z^{*}}{\partial v}=C_{p}v^{\tfrac{2}{p-1}}",
                judge=_judge_identity_before_limit,
            ),
            Step(
                lambda: sp.Integer(0),
                "2/(p-1) > 0 for p > 1",
                quote=r"C_{p}v^{\tfrac{2}{p-1}}\to 0 as v\to 0^{+}",
                judge=_judge_limits_at_exponents,
            ),
        ),
        quote=_QUOTE_V_SLOPE,
        regime=_REGIME_LEADING,
        assumptions=("p|z*-1|^(p-1) = 2v^2 (leading order)", "p > 1"),
        substitutions=_SLOPE_CONSTANT,
    ),
)
