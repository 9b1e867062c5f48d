r"""Claims of ptft-relu-penalty: the derivation of eqs. (6)-(10).

The reduction of the constrained problem (5) to the one-dimensional
:math:`p(u)` of eqs. (6)-(8) (the chain :data:`P_OF_U`), its derivative (9)
and the quartic (10) whose positive roots are its stationary points (the chain
:data:`STATIONARY_POINTS`), each step checked with SymPy; the limits of p, our
sum-of-squares form of (8), and the numeric claims about them (the direct
minimization of (5), and how many positive roots (10) has). Symbols as in
:mod:`implicit_bias.sources.ptft_relu_penalty`.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from fractions import Fraction
from typing import NamedTuple

import mpmath
import numpy as np
import sympy as sp

from implicit_bias.claims.checks import (
    RelationCheck,
    check_close,
    check_limit,
    close_or_undecided,
    judge_relation,
    relation_check,
)
from implicit_bias.claims.derivation import Derivation, Step
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
from implicit_bias.sources.ptft_relu_penalty.source import (
    REGIME,
    REGIME_GAMMA,
    REGIME_M,
    SOURCE_ID,
    domain_sample,
    regime_sample,
)
from implicit_bias.numerics import relu_penalty as numerics
from implicit_bias.theory import relu_penalty as theory
from implicit_bias.theory.symbols import gamma, m, m0, rho, u
from implicit_bias.validation import relu_networks

__all__ = [
    "CLAIMS",
    "DERIVATIONS",
    "P_OF_U",
    "STATIONARY_POINTS",
    "exact_point",
    "positive_root_intervals",
    "three_root_point",
]


def _claim_id(equation: str, label: str) -> str:
    return f"{SOURCE_ID}:{equation}:{label}"


def _eq(lhs: sp.Expr, rhs: sp.Expr) -> sp.Eq:
    return sp.Eq(lhs, rhs, evaluate=False)


# --- eqs. (6)-(9): p(u) and its derivative


#: The unit-sphere constraint on w_hat in R^3, solved for its last coordinate
#: squared: the substitution under which eqs. (6)-(8) are compared.
_W_HAT, _W0, _UNIT = theory.unit_vectors()
_UNIT_SPHERE = {_W_HAT[-1] ** 2: sp.solve(_UNIT, _W_HAT[-1] ** 2)[0]}


def _definitions_before_eq8() -> dict[sp.Symbol, sp.Expr]:
    """The text's m0 := ||w0|| and rho := <w_h, w0>/(||w_h|| ||w0||), w_h = u w_hat."""
    hidden = u * _W_HAT
    w0_norm = sp.sqrt((_W0.T * _W0)[0, 0])
    cosine = (hidden.T * _W0)[0, 0] / (sp.sqrt((hidden.T * hidden)[0, 0]) * w0_norm)
    return {rho: cosine, m0: w0_norm}


def _judge_with_definitions(relation: sp.Basic) -> Verdict:
    """Decide a relation of eq. (8) after substituting the definitions it uses."""
    definitions = _definitions_before_eq8()
    return judge_relation(
        type(relation)(
            relation.lhs.subs(definitions),
            relation.rhs.subs(definitions),
            evaluate=False,
        ),
        substitutions=_UNIT_SPHERE,
    )


def _divergence_relation(m_value: sp.Expr) -> Callable[[], sp.Basic]:
    """lim_{u -> 0+} p(u) = oo at m_h = ``m_value``; the judge adds u -> oo."""
    return lambda: sp.Eq(
        sp.Limit(theory.deviation_eq8().subs(m, m_value), u, 0, "+"),
        sp.oo,
        evaluate=False,
    )


def _judge_divergence(relation: sp.Basic) -> Verdict:
    """The limit the relation states, and the same expression's limit at oo."""
    limit, value = relation.lhs, relation.rhs
    expression, variable, point, direction = limit.args
    at_zero = check_limit(expression, variable, point, value, direction=str(direction))
    at_infinity = check_limit(expression, variable, sp.oo, value)
    return conjunction(
        (at_zero, at_infinity),
        f"u -> {point}{direction}: {at_zero.detail}; u -> oo: {at_infinity.detail}",
    )


#: m_h = 0 is in the domain (a unit whose readout is 0); the text says "diverges"
#: of p for every m_h.
_DIVERGENCE_AT_ZERO = RelationCheck(
    _divergence_relation(sp.Integer(0)), _judge_divergence
)
_M_NONZERO = sp.Symbol("m", real=True, nonzero=True)
_DIVERGENCE_NONZERO = RelationCheck(_divergence_relation(_M_NONZERO), _judge_divergence)


#: Eq. (5) is minimized directly in R^d with this d, at this many sampled units.
_DIRECT_DIMENSION = 5
_DIRECT_POINTS = 200
#: Working digits of inf_u p(u) from eq. (6): far below the tolerance of the
#: comparison, so the reference's own error does not count.
_EQ6_DIGITS = 40


class _DirectMinima(NamedTuple):
    """Sampled units of eq. (5) in R^d and its minimum found there by search."""

    m: np.ndarray
    gamma: np.ndarray
    w_hat: np.ndarray
    w0: np.ndarray
    minimum: np.ndarray


@functools.cache
def _direct_minima() -> _DirectMinima:
    r"""Eq. (5) minimized over its feasible set at the sampled units.

    The constraints of eq. (5) leave one free parameter
    (``6:constraint-curve``): :math:`(w^{(1)}, w^{(2)}) = (e^t\hat w, m e^{-t})`;
    :func:`relu_networks.minimize_unit_deviation` searches t by a grid and
    golden-section refinement, evaluating R of eq. (5) on the vectors, without
    eqs. (6)-(11). The units are built as in
    :func:`relu_networks.minimize_unit_deviation_batch`; computed once, as it
    does not depend on the relation judged.
    """
    m_values, rho_values, m0_values, gamma_values = domain_sample(
        _DIRECT_POINTS, seed=14
    )
    m_values = np.sign(m_values) * np.maximum(np.abs(m_values), 1e-6)
    rng = np.random.default_rng(14)
    frame, _ = np.linalg.qr(rng.standard_normal((_DIRECT_POINTS, _DIRECT_DIMENSION, 2)))
    w_hat, e2 = frame[..., 0], frame[..., 1]
    # sqrt(1 - rho^2) as sqrt((1 - rho)(1 + rho)): no cancellation near |rho| = 1.
    sine = np.sqrt((1.0 - rho_values) * (1.0 + rho_values))
    w0 = m0_values[:, None] * (rho_values[:, None] * w_hat + sine[:, None] * e2)
    minimum = np.array(
        [
            relu_networks.minimize_unit_deviation(
                w_hat[i], float(m_values[i]), w0[i], float(gamma_values[i])
            ).penalty
            for i in range(_DIRECT_POINTS)
        ]
    )
    return _DirectMinima(m_values, gamma_values, w_hat, w0, minimum)


def _rational_limit(
    numerator: list[mpmath.mpf], denominator: list[mpmath.mpf], at_zero: bool
) -> mpmath.mpf:
    """The limit of N(u)/D(u) as u -> 0+ (``at_zero``) or u -> oo, from the
    coefficients (highest degree first) of N and D != 0 at a point."""

    def powers(coefficients: list[mpmath.mpf]) -> dict[int, mpmath.mpf]:
        degree = len(coefficients) - 1
        return {degree - k: c for k, c in enumerate(coefficients) if c != 0}

    top, bottom = powers(numerator), powers(denominator)
    if not top:
        return mpmath.mpf(0)
    pick = min if at_zero else max
    a, b = pick(top), pick(bottom)
    ratio = top[a] / bottom[b]
    if a == b:
        return ratio
    # u^(a - b) with u > 0: diverges where a < b at 0 or a > b at oo.
    diverges = a < b if at_zero else a > b
    return mpmath.inf * mpmath.sign(ratio) if diverges else mpmath.mpf(0)


def _eq6_infima(rhs: sp.Expr, units: _DirectMinima) -> np.ndarray | str:
    """inf_{u>0} p(u) with p the ``rhs`` of eq. (6) as stated, at every unit.

    The squared norm of eq. (6) written out in R^d; p is a rational function
    of u, so its infimum over u > 0 is the least of its values at the real
    parts of the roots of p' (a superset of its positive stationary points:
    every candidate is a value of p, so none undercuts the infimum) and of its
    limits at 0+ and oo. At :data:`_EQ6_DIGITS` digits. A string says why p
    cannot be taken so.
    """
    w_hat = sp.Matrix(sp.symbols(f"what1:{_DIRECT_DIMENSION + 1}", real=True))
    w0 = sp.Matrix(sp.symbols(f"w01:{_DIRECT_DIMENSION + 1}", real=True))
    difference = u * w_hat - w0
    p = rhs.xreplace({theory.deviation_norm_sq: (difference.T * difference)[0, 0]})
    arguments = (m, gamma, *w_hat, *w0)
    if not p.free_symbols <= {u, *arguments}:
        return f"p has symbols other than u, m_h, gamma and the vectors: {p}"
    numerator, denominator = sp.fraction(sp.together(p))
    try:
        polynomials = [
            sp.Poly(part, u)
            for part in (numerator, denominator, sp.numer(sp.together(sp.diff(p, u))))
        ]
    except sp.PolynomialError as error:
        return f"p is not a rational function of u ({error})"
    if len(polynomials[1].terms()) != 1:
        # Only a power of u keeps p free of poles on u > 0, where the limits
        # at 0+ and oo would not see them.
        return f"the denominator of p is not a power of u: {polynomials[1].as_expr()}"
    coefficients = [
        sp.lambdify(arguments, poly.all_coeffs(), modules="mpmath")
        for poly in polynomials
    ]
    p_at = sp.lambdify((u, *arguments), p, modules="mpmath")
    infima = np.empty(len(units.m))
    with mpmath.workdps(_EQ6_DIGITS):
        for i in range(len(units.m)):
            point = [
                mpmath.mpf(float(v))
                for v in (units.m[i], units.gamma[i], *units.w_hat[i], *units.w0[i])
            ]
            top, bottom, slope = (
                [mpmath.mpf(c) for c in f(*point)] for f in coefficients
            )
            if not any(bottom):
                return f"the denominator of p vanishes at unit {i}"
            candidates = [
                _rational_limit(top, bottom, at_zero) for at_zero in (True, False)
            ]
            while slope and slope[0] == 0:
                slope.pop(0)
            if len(slope) > 1:
                try:
                    roots = mpmath.polyroots(
                        slope, maxsteps=200, extraprec=2 * _EQ6_DIGITS
                    )
                except mpmath.libmp.NoConvergence:
                    return f"the roots of p' did not converge at unit {i}"
                candidates += [
                    p_at(mpmath.re(r), *point) for r in roots if mpmath.re(r) > 0
                ]
            infima[i] = float(min(candidates))
    return infima


def _judge_direct_minimization(relation: sp.Basic) -> Verdict:
    """Eq. (6)'s ``min_{u>0} p(u)`` (the relation's p) against eq. (5) minimized
    over its feasible set. A feasible value of (5) below inf p by more than the
    tolerance refutes; one above it may be a missed minimum (inconclusive)."""
    if not (isinstance(relation, sp.Eq) and relation.lhs == theory.p_of_u):
        return Verdict.inconclusive(
            f"not a definition of p(u): {sp.sstr(relation)}", Reason.UNEVALUATED
        )
    units = _direct_minima()
    infima = _eq6_infima(relation.rhs, units)
    if isinstance(infima, str):
        return Verdict.inconclusive(infima, Reason.UNEVALUATED)
    searched = (
        "float64: eq. (5) minimized over its feasible set, the curve (w1, w2) = "
        f"(e^t w_hat, m_h e^-t) in R^{_DIRECT_DIMENSION} x R (6:constraint-curve: "
        "the constraints leave only the scale free), by a grid in t and "
        "golden-section refinement, without eqs. (6)-(11); against inf_(u>0) p(u) "
        f"with p = {sp.sstr(relation.rhs)}, the norm written out in "
        f"R^{_DIRECT_DIMENSION}, from the roots of p' and its limits at 0 and oo "
        f"at {_EQ6_DIGITS} digits, at {len(infima)} units"
    )
    unbounded = np.flatnonzero(np.isneginf(infima))
    if unbounded.size:
        i = int(unbounded[0])
        where = f"m_h = {units.m[i]:.6g}, gamma = {units.gamma[i]:.6g}"
        counterexample = (
            f"at unit {i} ({where}) p is unbounded below on u > 0, while the "
            "objective of eq. (5) is a sum of squares (>= 0)"
        )
        return Verdict.fails(
            f"{searched}: {counterexample}", Basis.NUMERICAL, counterexample
        )
    # The direct search refines t = log u to ~1e-12; p is quadratic at a minimum,
    # so its value is accurate to ~1e-12 relative plus rounding of the vector norms.
    tolerance = 1e-9
    # Every value the search reports is R at a feasible point, so one below
    # inf p refutes eq. (6); a numerical optimizer that misses a minimum is no
    # counterexample: a miss above is inconclusive.
    below = check_close(
        np.minimum(units.minimum, infima),
        infima,
        tolerance,
        what="min of eq. (5) found, where below inf_u p(u)",
        relative=True,
    )
    close = close_or_undecided(
        units.minimum,
        infima,
        tolerance,
        what="min of eq. (5) against inf_u p(u)",
        relative=True,
    )
    # A refutation is told by itself; otherwise both comparisons.
    told = below.detail if below.status == Status.FAILS else close.detail
    return conjunction(
        (below, close), f"{searched} (relative tolerance {tolerance:g}): {told}"
    )


_DIRECT_MINIMIZATION = RelationCheck(
    lambda: theory.display_eq6(), _judge_direct_minimization
)


# --- eq. (10): how many positive roots


def exact_point(point: tuple[float, ...], digits: int = 6) -> tuple[sp.Rational, ...]:
    """``(m, rho, m0, gamma)`` rounded to ``digits`` significant decimals, exactly."""
    return tuple(sp.Rational(f"{value:.{digits}g}") for value in point)


def positive_root_intervals(
    point: tuple[sp.Rational, ...],
) -> list[tuple[sp.Rational, sp.Rational]]:
    """Isolating intervals of the positive roots of eq. (10) at an exact point.

    Exact arithmetic: SymPy isolates the real roots of the quartic with
    rational coefficients (Sturm/Vincent bisection); q(0) = -m^2 != 0, so an
    interval with a nonnegative left end holds a positive root.
    """
    m_value, rho_value, m0_value, gamma_value = point
    quartic = sp.Poly(
        theory.stationarity_eq10().subs(
            {m: m_value, rho: rho_value, m0: m0_value, gamma: gamma_value}
        ),
        u,
    )
    intervals = [(low, high) for (low, high), _ in quartic.intervals() if low >= 0]
    if len(intervals) != quartic.count_roots(0, None):
        raise ValueError(f"root isolation disagrees with the Sturm count at {point}")
    return intervals


def three_root_point(
    sample: tuple[np.ndarray, ...], tries: int = 20
) -> tuple[tuple[sp.Rational, ...], list[tuple[sp.Rational, sp.Rational]]] | None:
    """A short decimal point of ``sample`` where eq. (10) has several positive roots.

    The float search (:func:`relu_ptft_stationary_count`) proposes points; each is
    rounded to 6 significant digits and its roots isolated exactly.
    """
    counts = numerics.relu_ptft_stationary_count(*sample)
    for index in np.flatnonzero(counts > 1)[:tries]:
        point = exact_point(tuple(float(v[index]) for v in sample))
        intervals = positive_root_intervals(point)
        if len(intervals) > 1:
            return point, intervals
    return None


def _written(point: tuple[sp.Rational, ...]) -> str:
    names = ("m", "rho", "m0", "gamma")
    return ", ".join(
        f"{name}={sp.Float(value, 6)}" for name, value in zip(names, point, strict=True)
    )


def _several_roots_counterexample(
    point: tuple[sp.Rational, ...], intervals: list[tuple[sp.Rational, sp.Rational]]
) -> str:
    listing = ", ".join(f"[{sp.Float(a, 8)}, {sp.Float(b, 8)}]" for a, b in intervals)
    return (
        f"at {_written(point)} (exactly these decimals), eq. (10) has "
        f"{len(intervals)} positive roots, isolated exactly in {listing}"
    )


def _check_unique_root_small_gamma() -> Verdict:
    # q(u) = u^4 - a u^3 + b u - c, a = m0 rho, b = gamma m, c = m^2; the cases
    # rho <= 0 or gamma m <= 0 are Descartes' (10:unique-root-if).
    a, b, c, x = sp.symbols("a b c x", positive=True)
    q = u**4 - a * u**3 + b * u - c
    b_at_x = sp.solve(sp.diff(q, u).subs(u, x), b)[0]
    eq10 = theory.stationarity_eq10()
    steps = {
        "q is eq. (10) with a = m0 rho, b = gamma m, c = m^2": sp.expand(
            q.subs({a: m0 * rho, b: gamma * m, c: m**2}) - eq10
        ),
        "eq. (10) is invariant under (m, gamma) -> (-m, -gamma)": sp.expand(
            eq10.subs({m: -m, gamma: -gamma}, simultaneous=True) - eq10
        ),
        "q'' = 6u(2u - a)": sp.expand(sp.diff(q, u, 2) - 6 * u * (2 * u - a)),
        "q'(0) = b": sp.diff(q, u).subs(u, 0) - b,
        "q(0) = -c": q.subs(u, 0) + c,
        "q'(x) = 0 gives b - a x^2 = 2x^2(a - 2x)": sp.expand(
            b_at_x - a * x**2 - 2 * x**2 * (a - 2 * x)
        ),
        "q(x) = (b x - c) - x^3(a - x)": sp.expand(
            q.subs(u, x) - (b * x - c) + x**3 * (a - x)
        ),
        "(c/b)^3 - b/2 = m(2m^2 - gamma^4)/(2 gamma^3)": sp.simplify(
            ((c / b) ** 3 - b / 2).subs({b: gamma * m, c: m**2})
            - m * (2 * m**2 - gamma**4) / (2 * gamma**3)
        ),
    }
    broken = [step for step, residual in steps.items() if residual != 0]
    if broken:
        return Verdict.inconclusive(
            f"a step of the proof does not simplify: {broken}", Reason.UNDECIDED
        )
    return Verdict.holds(
        "exact (each step by SymPy: " + "; ".join(steps) + "). Let m, gamma > 0 "
        "(the symmetry), rho > 0. q'' < 0 on (0, a/2), > 0 after, and q'(0) = b > 0: "
        "q rises to a local maximum at x in (0, a/2) (if any), falls to a local "
        "minimum and rises. q(0) = -c < 0, so two or more positive roots need "
        "q(x) >= 0, i.e. c < b x (x < a); and b > a x^2 (x < a/2). Then "
        "c/b < x < a/2 and (c/b)^2 < x^2 < b/a, so (c/b)^3 < b/2, i.e. 2m^2 < gamma^4. "
        "Hence 2 m_h^2 >= gamma^4 gives exactly one positive root",
        Basis.PROOF,
    )


def _check_unique_root_in_regime() -> Verdict:
    # Every point of the regime has 2 m^2 >= 2 REGIME_M^2 >= REGIME_GAMMA^4 >=
    # gamma^4 (exact rationals of the float bounds), so the lemma
    # (10:unique-root-if-small-gamma) applies; a search of the regime cross-checks it.
    size = 20_000
    found = three_root_point(regime_sample(size, seed=10))
    if found is not None:
        counterexample = _several_roots_counterexample(*found)
        return Verdict.fails(
            f"in the regime: {counterexample}", Basis.PROOF, counterexample
        )
    lemma = _check_unique_root_small_gamma()
    bound = 2 * Fraction(REGIME_M) ** 2 >= Fraction(REGIME_GAMMA) ** 4
    detail = (
        f"2 m_h^2 >= 2 ({REGIME_M:g})^2 >= ({REGIME_GAMMA:g})^4 >= gamma^4 at every "
        f"point of the regime ({bound}, exact rationals), and 2 m_h^2 >= gamma^4 "
        f"gives one positive root ({lemma.detail}); a search of {size} regime "
        "points found no point with several roots"
    )
    if lemma.status == Status.HOLDS and bound:
        return Verdict.holds(detail, Basis.PROOF)
    return Verdict.inconclusive(detail, Reason.UNDECIDED, Basis.SEARCH)


def _check_unique_root_beyond_regime() -> Verdict:
    size = 100_000
    found = three_root_point(domain_sample(size, seed=10))
    if found is None:
        # An empty search is not a proof of uniqueness.
        return Verdict.inconclusive(
            f"one positive root at all {size} sampled points: no counterexample, "
            "but the search does not prove uniqueness",
            Reason.UNDECIDED,
            Basis.SEARCH,
        )
    point, intervals = found
    counterexample = _several_roots_counterexample(point, intervals)
    return Verdict.fails(
        f"{counterexample}; there 2 m^2 < gamma^4 "
        f"({2 * point[0] ** 2 < point[3] ** 4}), outside the regime",
        Basis.PROOF,
        counterexample,
    )


def _descartes_sign_changes(coefficients: list[sp.Expr]) -> int:
    """Sign changes of a coefficient sequence whose signs SymPy can decide."""
    signs = [sp.sign(c) for c in coefficients]
    if any(s not in (-1, 0, 1) for s in signs):
        raise ValueError(f"undecided signs {signs}")
    nonzero = [s for s in signs if s != 0]
    return sum(1 for a, b in itertools.pairwise(nonzero) if a != b)


def _check_unique_root_sufficient() -> Verdict:
    # Every sign case of rho and gamma*m covered by "rho <= 0 or gamma*m <= 0",
    # written with symbols whose assumptions fix the sign.
    positive = sp.Symbol("positive", positive=True)
    negative = sp.Symbol("negative", negative=True)
    m_value = sp.Symbol("m_nonzero", real=True, nonzero=True)
    cases = {}
    for rho_sign in (negative, sp.Integer(0), positive):
        for product_sign in (negative, sp.Integer(0), positive):
            if rho_sign == positive and product_sign == positive:
                continue
            cases[(str(rho_sign), str(product_sign))] = [
                sp.Integer(1),
                -m0 * rho_sign if rho_sign != 0 else sp.Integer(0),
                sp.Integer(0),
                product_sign,
                -(m_value**2),
            ]
    m0_positive = sp.Symbol("m0", positive=True)
    counts = {
        case: _descartes_sign_changes(
            [sp.sympify(c).subs(m0, m0_positive) for c in coeffs]
        )
        for case, coeffs in cases.items()
    }
    if all(count == 1 for count in counts.values()):
        return Verdict.holds(
            "exact (Descartes' rule of signs): the coefficients of eq. (10) change "
            "sign "
            f"once in all {len(counts)} sign cases of (rho, gamma*m) with rho <= 0 or "
            "gamma*m <= 0; q(0) = -m^2 < 0 < q(oo) gives the root",
            Basis.PROOF,
        )
    # More sign changes bound the roots from above only: no counterexample.
    return Verdict.inconclusive(
        f"Descartes' rule does not settle it: sign changes by case {counts}",
        Reason.UNDECIDED,
    )


_UNIQUE_ROOT_QUOTE = (
    "We can compute the solution to this quartic equation, e.g. using `np.roots` "
    "and select the (unique, in all empirical cases we explored) positive real "
    "root, u^*."
)

CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "6",
        "divergence",
        Kind.LIMIT,
        "p(u) diverges to infinity both for u -> 0 and u -> infinity (stated for every "
        "m_h)",
        _DIVERGENCE_AT_ZERO,
        Status.FAILS,
        slip="divergence-at-zero-6",
        assumptions=("u > 0", "m_h = 0 (a unit with zero readout)"),
        formula=_DIVERGENCE_AT_ZERO.relation,
        quote=(
            "Note that this function is smooth and diverges to ∞ both for "
            "u → ∞ and u → 0."
        ),
        reading=Reading.PROSE,
        regime=(
            "m_h = 0, any gamma, m0, rho: the sentence is said of p(u) of eq. (6) "
            "with no condition on m_h, and m_h = 0 is in the domain of eq. (5)"
        ),
    ),
    Claim(
        SOURCE_ID,
        "6",
        "divergence-nonzero-m",
        Kind.LIMIT,
        "for m_h != 0, p(u) diverges to infinity both for u -> 0 and u -> infinity",
        _DIVERGENCE_NONZERO,
        Status.HOLDS,
        assumptions=("u > 0", "m_h != 0"),
        corrects=_claim_id("6", "divergence"),
        # The checked relation, typeset with the source's m_h (its glyph).
        formula=lambda: _DIVERGENCE_NONZERO.relation().subs(_M_NONZERO, m),
        reading=Reading.EXTENSION,
        regime="all real m_h != 0, gamma, rho and m0 >= 0 (symbolic)",
    ),
    Claim(
        SOURCE_ID,
        "6",
        "direct-minimization",
        Kind.NUMERIC,
        "the constrained problem (5) equals min_{u>0} p(u)",
        _DIRECT_MINIMIZATION,
        Status.HOLDS,
        assumptions=(r"$\hat w$ unit vector in $\mathbb{R}^5$", "|m_h| >= 1e-6"),
        formula=lambda: theory.display_eq6(),
        quote=(
            "\\tilde{r}(\\hat{w}_h, m_h|\\mathbf{w}_{0h}, \\gamma) = \\min_{u>0} p(u), "
            "p(u) := (m_h/u - \\gamma)^2 + \\|u\\hat{\\mathbf{w}}_h - "
            "\\mathbf{w}_{0h}^{(1)}\\|_2^2. (6)"
        ),
        reading=Reading.PRINTED,
        regime=(
            "200 points, |m_h| in [1e-6, 1e3], rho in [-1, 1], m0 in [1e-3, 1e2], "
            "|gamma| in [1e-4, 10], d = 5: eq. (6) is stated for any gamma in R, "
            "beyond the small gamma of the text"
        ),
    ),
    Claim(
        SOURCE_ID,
        "8",
        "sum-of-squares",
        Kind.IDENTITY,
        "p(u) = (m_h/u - gamma)^2 + (u - m0 rho)^2 + m0^2 (1 - rho)(1 + rho) (our "
        "stable form)",
        relation_check(
            lambda: _eq(theory.deviation_eq8(), theory.deviation_geometric())
        ),
        Status.HOLDS,
        formula=lambda: _eq(theory.deviation_eq8(), theory.deviation_geometric()),
        reading=Reading.EXTENSION,
        regime="all real m_h, gamma, rho, m0 >= 0, u > 0 (symbolic)",
    ),
    Claim(
        SOURCE_ID,
        "10",
        "unique-positive-root",
        Kind.NUMERIC,
        "eq. (10) has a unique positive real root ('in all empirical cases we "
        "explored'), for the small gamma of the text",
        _check_unique_root_in_regime,
        Status.HOLDS,
        assumptions=(
            f"|gamma| <= {REGIME_GAMMA:g}",
            f"|m_h| >= {REGIME_M:g}",
            "rho, m0 any (the proof does not use them)",
        ),
        formula=lambda: _eq(theory.stationarity_eq10(), sp.Integer(0)),
        quote=_UNIQUE_ROOT_QUOTE,
        reading=Reading.PROSE,
        regime=REGIME
        + "; proved for every |m_h| >= 1e-3, |gamma| <= 1e-2 (2 m_h^2 >= gamma^4)",
    ),
    Claim(
        SOURCE_ID,
        "10",
        "unique-positive-root-beyond-regime",
        Kind.NUMERIC,
        "eq. (10) has a unique positive real root also beyond the regime of the "
        "text (gamma up to 10, |m_h| down to 1e-10)",
        _check_unique_root_beyond_regime,
        Status.FAILS,
        assumptions=(
            "sampled: |m| in [1e-10, 1e3], rho in [-1, 1], m0 in [1e-3, 1e2], "
            "|gamma| in [1e-4, 10]",
        ),
        formula=lambda: _eq(theory.stationarity_eq10(), sp.Integer(0)),
        reading=Reading.EXTENSION,
        regime=(
            "|m_h| in [1e-10, 1e3], rho in [-1, 1], m0 in [1e-3, 1e2], |gamma| in "
            "[1e-4, 10]: beyond the text's small gamma; several roots need "
            "2 m_h^2 < gamma^4"
        ),
    ),
    Claim(
        SOURCE_ID,
        "10",
        "unique-root-if",
        Kind.IDENTITY,
        "eq. (10) has exactly one positive root whenever rho <= 0 or gamma m_h <= 0",
        _check_unique_root_sufficient,
        Status.HOLDS,
        assumptions=("m_h != 0", "m0 > 0"),
        corrects=_claim_id("10", "unique-positive-root-beyond-regime"),
        formula=lambda: _eq(theory.stationarity_eq10(), sp.Integer(0)),
        reading=Reading.EXTENSION,
        regime="all real m_h != 0, m0 > 0, rho <= 0 or gamma m_h <= 0 (symbolic)",
    ),
    Claim(
        SOURCE_ID,
        "10",
        "unique-root-if-small-gamma",
        Kind.IDENTITY,
        "eq. (10) has exactly one positive root whenever 2 m_h^2 >= gamma^4 "
        "(m_h != 0), whatever rho and m0",
        _check_unique_root_small_gamma,
        Status.HOLDS,
        assumptions=("m_h != 0", "m0 >= 0", "2 m_h^2 >= gamma^4"),
        formula=lambda: _eq(theory.stationarity_eq10(), sp.Integer(0)),
        reading=Reading.EXTENSION,
        regime="all real m_h != 0, gamma with 2 m_h^2 >= gamma^4, rho, m0 (symbolic "
        "steps of a written proof)",
    ),
)


# --- the chains of eqs. (6)-(8) and (9)-(10)

_EQ6_QUOTE = (
    r"\tilde{r}(\hat{w}_h, m_h|\mathbf{w}_{0h}, \gamma) = \min_{u>0} p(u), \quad "
    r"p(u) := (m_h/u - \gamma)^2 + \|u\hat{\mathbf{w}}_h - "
    r"\mathbf{w}_{0h}^{(1)}\|_2^2. \quad (6)"
)
_EQ7_QUOTE = (
    r"p(u) = (m_h/u - \gamma)^2 + u^2 + \|\mathbf{w}_{0h}^{(1)}\|_2^2 - "
    r"2u\langle \hat{\mathbf{w}}_h, \mathbf{w}_{0h}^{(1)} \rangle, \quad (7)"
)
_EQ8_QUOTE = (
    r"p(u) = (m_h/u - \gamma)^2 + u^2 + (m_{0h}^{(1)})^2 - 2um_{0h}^{(1)}\rho_h. "
    r"\quad (8)"
)
_EQ9_QUOTE = r"p'(u) = -2(m_h/u - \gamma)m_h/u^2 + 2u - 2m_{0h}^{(1)}\rho_h, \quad (9)"
_EQ10_QUOTE = r"-m_h^2 + \gamma m_h u - m_{0h}^{(1)} \rho_h u^3 + u^4 = 0. \quad (10)"

#: Eqs. (6)-(8): p(u) with explicit vectors in R^3 (the identities are
#: coordinatewise), on the unit sphere ||w_hat|| = 1.
P_OF_U = Derivation(
    source=SOURCE_ID,
    equation="6-8",
    label="p-of-u",
    title="p(u) in terms of m0 and rho",
    start=theory.deviation_eq6,
    steps=(
        Step(
            theory.deviation_eq7,
            (
                r"expand the square, $\|u\hat w - w_0\|^2 = u^2 \|\hat w\|^2 + "
                r"\|w_0\|^2 - 2u\langle \hat w, w_0\rangle$, with $\|\hat w\|_2 = 1$ "
                "('We simplify')"
            ),
            equation="7",
            quote=_EQ7_QUOTE,
        ),
        Step(
            theory.deviation_eq8,
            (
                r"define $m_0 := \|w_0\|_2$ and $\rho := \langle w_h, "
                r"w_0\rangle/(\|w_h\|_2 \|w_0\|_2)$ with $w_h = u\hat w$, so that "
                r"$\|w_0\|^2 = m_0^2$ and $\langle \hat w, w_0\rangle = m_0 \rho$ (the "
                "text's definitions, substituted before the comparison)"
            ),
            equation="8",
            quote=_EQ8_QUOTE,
            judge=_judge_with_definitions,
        ),
    ),
    quote="We can express this as " + _EQ6_QUOTE,
    regime=(
        r"all real vectors in $\mathbb{R}^3$ with $\|\hat w\| = 1$, $u > 0$, as the "
        "equations are stated (symbolic)"
    ),
    assumptions=(
        r"$\|\hat w\|_2 = 1$",
        "vectors in R^3 (the identities are coordinatewise)",
        r"$w_h^{(1)} = u \hat w$",
    ),
    substitutions=_UNIT_SPHERE,
)

#: Eqs. (9)-(10): the derivative of eq. (8) and the quartic of its zeros; the
#: last step states "multiplying by u^3/2" as p'(u) = (2/u^3) times eq. (10).
STATIONARY_POINTS = Derivation(
    source=SOURCE_ID,
    equation="9-10",
    label="stationary-points",
    title="the stationary points of p(u)",
    start=lambda: sp.Derivative(theory.deviation_eq8(), u),
    steps=(
        Step(
            theory.stationarity_eq9,
            "differentiate eq. (8) in u ('computing the derivative')",
            equation="9",
            quote=_EQ9_QUOTE,
        ),
        Step(
            lambda: sp.Mul(2 / u**3, theory.stationarity_eq10(), evaluate=False),
            "set it to zero and multiply by u^3/2 ('Simplifying this equation (and "
            "multiplying by $u^3/2$) yields'): p'(u) is 2/u^3 times the left-hand "
            "side of eq. (10), so for u > 0 p'(u) = 0 exactly when eq. (10) holds",
            equation="10",
            quote=_EQ10_QUOTE,
        ),
    ),
    quote=(
        "We then determine the stationary points by computing the derivative "
        + _EQ9_QUOTE
    ),
    regime="all real m_h, gamma, rho, m0 >= 0, u > 0, as the equations are stated "
    "(symbolic)",
    assumptions=("u > 0",),
)

#: The chains of this module, in the order of the text.
DERIVATIONS: tuple[Derivation, ...] = (P_OF_U, STATIONARY_POINTS)
