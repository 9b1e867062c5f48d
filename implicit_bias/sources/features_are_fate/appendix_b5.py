r"""Claims of features-are-fate, Appendix B.5: Theorem 3.6's scratch risk, (91)-(99).

With :math:`\hat\beta = X^+y = X^+X\beta_t + X^+\epsilon` (Theorem 3.5), the
proof writes the expected risk (8) as :math:`1 - E_X\|P_{\mathrm{row}(X)}
\beta_t\|^2 + \sigma^2 E_X\mathrm{tr}((X^+)^\top X^+)` (91)-(95), then the
trace as a sum over the singular values of :math:`X` (97) and, for
:math:`\gamma < 1`, through the Wishart matrix :math:`C = \tfrac1d XX^\top`
and its resolvent (98)-(99); (100)-(102) follow in
:mod:`~implicit_bias.sources.features_are_fate.random_matrix`.

Both chains are written at :math:`n = 2 < d = 4` (:math:`\gamma = 1/2`, where
:math:`E_X\mathrm{tr}((X^+)^\top X^+) = n/(d - n - 1)` is finite) with a
symbol for every entry of :math:`X`, :math:`\beta_t` and :math:`\epsilon`.
The expectations over the noise :math:`\epsilon \sim N(0, \sigma^2 I_n)` and
the test input :math:`x \sim N(0, I_d)` are taken exactly (Gaussian moments,
:func:`~implicit_bias.theory.transfer_asymptotics.gaussian_expectation`); the
one over :math:`X` is kept outside: each step is checked for every :math:`X`
(an identity at every :math:`X` is one between the expectations). The
expressions hold :math:`X^+` as a matrix of symbols, its value
:math:`X^\top(XX^\top)^{-1}` substituted when a step is judged.
:math:`\|\beta_t\| = 1` (Assumption 3.2) is imposed by writing
:math:`\beta_t = (2s, 1 - \|s\|^2)/(1 + \|s\|^2)`, :math:`s \in \mathbb{R}^3`.

(93) prints the cross term of :math:`E\|\hat\beta\|^2` as
:math:`2E\,\epsilon^\top(X^+X)\beta_t`, which does not type-check for
:math:`n \ne d` (:math:`\epsilon \in \mathbb{R}^n`, :math:`X^+X` is
:math:`d\times d`); we read :math:`2E\,\epsilon^\top(X^+)^\top X^+X\beta_t`,
the term of the expansion. Its expectation is 0 whatever matrix stands there,
so the chain's values do not depend on the reading.
"""

from __future__ import annotations

import functools

import sympy as sp

from implicit_bias.claims.checks import judge_relation
from implicit_bias.claims.derivation import Derivation, Step
from implicit_bias.claims.engine import (
    CheckTimeout,
    Reading,
    Reason,
    Verdict,
    time_limit,
)
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.theory import transfer_asymptotics as theory

__all__ = ["DERIVATIONS", "GLYPHS"]

#: gamma = n/d < 1: samples and dimension.
SAMPLES, DIMENSION = 2, 4
#: Random points per step.
POINTS = 20
#: The CPU budget of each claim (the slowest takes about 15 s).
CLAIM_SECONDS = 45.0

_sigma, _z = theory.sigma, theory.z
_gamma = sp.Rational(SAMPLES, DIMENSION)


def _vector(name: str, size: int) -> sp.Matrix:
    return sp.Matrix(size, 1, lambda i, j: sp.Symbol(f"{name}_{i}", real=True))


_data = sp.Matrix(SAMPLES, DIMENSION, lambda i, j: sp.Symbol(f"X_{i}{j}", real=True))
_target = _vector("bt", DIMENSION)
_noise = _vector("eps", SAMPLES)
_input = _vector("x", DIMENSION)
_sphere = _vector("s", DIMENSION - 1)


def _unit_target() -> dict[sp.Symbol, sp.Expr]:
    r""":math:`\beta_t = (2s, 1 - \|s\|^2)/(1 + \|s\|^2)`: every unit vector but one."""
    norm = sum((entry**2 for entry in _sphere), sp.Integer(0))
    values = [2 * entry / (1 + norm) for entry in _sphere] + [(1 - norm) / (1 + norm)]
    return dict(zip(_target, values, strict=True))


def _inner(a: sp.Matrix, b: sp.Matrix) -> sp.Expr:
    return (a.T * b)[0, 0]


#: X^+ as a matrix of symbols while the Gaussian expectations are expanded
#: (its entries do not depend on eps or x), replaced by its value after.
_plus = sp.Matrix(DIMENSION, SAMPLES, lambda i, j: sp.Symbol(f"pinv_{i}{j}", real=True))


@functools.cache
def _plus_value() -> dict[sp.Symbol, sp.Expr]:
    r""":math:`X^+ = X^\top(XX^\top)^{-1}` (:math:`X` of full row rank)."""
    value = _data.T * (_data * _data.T).inv()
    return dict(zip(_plus, value, strict=True))


def pseudo_inverse() -> sp.Matrix:
    r""":math:`X^+`, as symbols (the judge substitutes :func:`_plus_value`)."""
    return _plus


def _estimate() -> sp.Matrix:
    r""":math:`\hat\beta = X^+X\beta_t + X^+\epsilon`."""
    return pseudo_inverse() * _data * _target + pseudo_inverse() * _noise


def _over_noise(expression: sp.Expr) -> sp.Expr:
    r""":math:`E_\epsilon` of a polynomial in :math:`\epsilon`, exactly."""
    return theory.gaussian_expectation(expression, dict.fromkeys(_noise, _sigma**2))


def _risk() -> sp.Expr:
    r""":math:`E_\epsilon E_x[(x^\top\hat\beta - x^\top\beta_t)^2]`: the risk (8)."""
    difference = _inner(_input, _estimate()) - _inner(_input, _target)
    over_inputs = theory.gaussian_expectation(
        sp.expand(difference**2), dict.fromkeys(_input, sp.Integer(1))
    )
    return _over_noise(over_inputs)


def _squared_distance() -> sp.Expr:
    difference = _target - _estimate()
    return _over_noise(sp.expand(_inner(difference, difference)))


def _expanded_norm() -> sp.Expr:
    estimate = _estimate()
    return (
        1
        + _over_noise(sp.expand(_inner(estimate, estimate)))
        - 2 * _over_noise(sp.expand(_inner(estimate, _target)))
    )


def _projector() -> sp.Matrix:
    r""":math:`X^+X = P_{\mathrm{row}(X)}`."""
    return pseudo_inverse() * _data


def _norm_terms() -> sp.Expr:
    r"""The first line (93): :math:`1 + E\|\hat\beta\|^2` expanded."""
    plus = pseudo_inverse()
    signal = _projector() * _target
    return (
        1
        + _inner(signal, signal)
        + _over_noise(sp.expand(_inner(plus * _noise, plus * _noise)))
        + 2 * _over_noise(sp.expand(_inner(plus * _noise, signal)))
    )


def _norm_expanded() -> sp.Expr:
    r"""(93): :math:`E\|\hat\beta\|^2` expanded, :math:`-2E\langle\hat\beta,
    \beta_t\rangle` not yet."""
    return _norm_terms() - 2 * _over_noise(sp.expand(_inner(_estimate(), _target)))


def _cross_terms() -> sp.Expr:
    r"""(93) with (94): :math:`- 2(E\beta_t^\top(X^+X)\beta_t + E\beta_t^\top X^+
    \epsilon)`."""
    inner = _inner(_target, _projector() * _target)
    noise = _over_noise(sp.expand(_inner(_target, pseudo_inverse() * _noise)))
    return _norm_terms() - 2 * (inner + noise)


def _collected() -> sp.Expr:
    r"""(95): :math:`1 - \|P_{\mathrm{row}(X)}\beta_t\|^2 + \sigma^2
    \mathrm{tr}((X^+)^\top X^+)`."""
    projected = _projector() * _target
    plus = pseudo_inverse()
    return 1 - _inner(projected, projected) + _sigma**2 * (plus.T * plus).trace()


#: CPU seconds for evaluating a step's sides (the limit of (99) takes about
#: 0.6 s). Judged within the steps' 1 s, it timed out on a busy machine,
#: whose CPU seconds run slower.
_EVALUATE_SECONDS = 20.0


def _judge(relation: sp.Basic) -> Verdict:
    lhs, rhs = relation.args
    values = {**_unit_target(), **_plus_value()}
    lhs, rhs = lhs.xreplace(values), rhs.xreplace(values)
    try:
        with time_limit(_EVALUATE_SECONDS):
            lhs, rhs = lhs.doit(), rhs.doit()
    except CheckTimeout:
        return Verdict.inconclusive(
            f"evaluating the sides (doit) did not finish within "
            f"{_EVALUATE_SECONDS:g} s",
            Reason.BUDGET,
        )
    return judge_relation(
        relation.func(lhs, rhs, evaluate=False), budget_seconds=1.0, points=POINTS
    )


_REGIME = (
    f"n = {SAMPLES} < d = {DIMENSION} (gamma = 1/2), every entry of X, beta_t and "
    "eps a symbol; E over eps ~ N(0, sigma^2 I) and x ~ N(0, I) exact, each step "
    "for every X (so for E_X), ||beta_t|| = 1 by a rational parametrization; "
    "20 random points at 50 digits where SymPy does not decide it"
)


def _risk_chain() -> Derivation:
    return Derivation(
        source=SOURCE_ID,
        equation="91-95",
        label="scratch-risk",
        title=f"The scratch risk of Theorem 3.6's proof, n = {SAMPLES}, "
        f"d = {DIMENSION}",
        start=_risk,
        steps=(
            Step(
                _squared_distance,
                "x ~ N(0, I_d): E_x (x^T (β̂ - beta_t))^2 = ||β̂ - beta_t||^2",
                equation="91",
                quote="E_{X,ϵ} R = E_{X,ϵ} ||β_t − β̂||_2^2 (91)",
                judge=_judge,
            ),
            Step(
                _expanded_norm,
                "expand the square, ||beta_t|| = 1",
                equation="92",
                quote="= 1 + E_{X,ϵ}||β̂||_2^2 − 2E_{X,ϵ}⟨β̂, β_t⟩ (92)",
                judge=_judge,
            ),
            Step(
                _norm_expanded,
                "β̂ = X^+ X beta_t + X^+ eps in ||β̂||^2; the printed "
                "cross term eps^T (X^+ X) beta_t read as eps^T (X^+)^T X^+ X beta_t "
                "(both have E_eps = 0)",
                equation="93",
                quote="= 1 + E_X β_t^T(X^+X)^T(X^+X)β_t + E_{X,ϵ} ϵ^T(X^+)^T X^+ ϵ "
                "+ 2E_{X,ϵ} ϵ^T(X^+X)β_t (93)",
                judge=_judge,
            ),
            Step(
                _cross_terms,
                "β̂ = X^+ X beta_t + X^+ eps in <β̂, beta_t>",
                equation="94",
                quote="− 2(E_X β_t^T(X^+X)β_t + E_{X,ϵ} β_t^T X^+ ϵ) (94)",
                judge=_judge,
            ),
            Step(
                _collected,
                "X^+ X = P_row(X) is a symmetric projector, eps is independent of X "
                "with E eps eps^T = sigma^2 I",
                equation="95",
                quote="= 1 − E_X ||P_row(X) β_t||_2^2 + σ^2 E_X tr((X^+)^T X^+) (95)",
                judge=_judge,
            ),
        ),
        quote="Let β̂ = lim_{t→∞} W_1W_2...W_L. From Theorem 3.5, β̂ = X^+y = "
        "X^+Xβ_t + X^+ϵ. Then the average generalization error at the end of "
        "training can be written",
        reading=Reading.PRINTED,
        claim_budget_seconds=CLAIM_SECONDS,
        regime=_REGIME,
        assumptions=(
            "β̂ = X^+ y = X^+ X beta_t + X^+ eps (Theorem 3.5), X of full row rank",
            "||beta_t|| = 1 (Assumption 3.2), eps ~ N(0, sigma^2 I_n) independent of "
            "X, x ~ N(0, I_d) in the risk (8)",
        ),
    )


# --- (97)-(99)


def _trace() -> sp.Expr:
    plus = pseudo_inverse()
    return (plus.T * plus).trace()


def _singular_value_sum() -> sp.Expr:
    r""":math:`\sum_l 1/\sigma_l^2`, :math:`\sigma_l^2` the eigenvalues of
    :math:`XX^\top` written out (:math:`2\times 2`)."""
    gram = _data * _data.T
    a, b, c = gram[0, 0], gram[0, 1], gram[1, 1]
    root = sp.sqrt((a - c) ** 2 + 4 * b**2)
    # The smaller eigenvalue as 2 det/(tr + root): no cancellation.
    return (a + c + root) / (2 * (a * c - b**2)) + 2 / (a + c + root)


def _wishart() -> sp.Matrix:
    return _data * _data.T / DIMENSION


def _wishart_trace() -> sp.Expr:
    return _gamma / SAMPLES * _wishart().inv().trace()


def _resolvent_limit() -> sp.Expr:
    resolvent = (_z * sp.eye(SAMPLES) - _wishart()).inv().trace() / SAMPLES
    return -_gamma * sp.Limit(resolvent, _z, 0)


def _trace_chain() -> Derivation:
    return Derivation(
        source=SOURCE_ID,
        equation="97-99",
        label="inverse-trace-finite",
        title=f"The inverse trace through the Wishart resolvent, n = {SAMPLES}, "
        f"d = {DIMENSION}",
        start=_trace,
        steps=(
            Step(
                _singular_value_sum,
                "tr((X^+)^T X^+) = ||X^+||_F^2 = sum of 1/sigma_l^2 over the "
                "nonzero singular values of X",
                equation="97",
                quote="E_X tr((X^+)^T X^+) = E_X Σ_{l=1}^{min(n,d)} 1/σ_l^2 (97)",
                judge=_judge,
            ),
            Step(
                _wishart_trace,
                "for gamma < 1 the sigma_l^2 are the n eigenvalues of X X^T = d C, "
                "and 1/d = gamma/n",
                equation="98",
                quote="Then there are n nonzero singular values of X, which are the "
                "eigenvalues of the Wishart matrix C = (1/d) XX^T and "
                "E_X tr((X^+)^T X^+) = (γ/n) E_X tr(C^{−1}) (98)",
                judge=_judge,
            ),
            Step(
                _resolvent_limit,
                "(zI - C)^{-1} -> -C^{-1} as z -> 0 (C invertible)",
                equation="99",
                quote="= −γ lim_{z→0} (1/n) E[tr((zI − C)^{−1})] (99)",
                judge=_judge,
            ),
        ),
        quote="Let σ_l be the nonzero singular values of the data matrix X. Then",
        reading=Reading.PRINTED,
        claim_budget_seconds=CLAIM_SECONDS,
        regime=(
            f"n = {SAMPLES} < d = {DIMENSION} (gamma = 1/2, the text's first case), "
            "every entry of X a symbol, each step for every X of full rank (so for "
            "E_X); 20 random points at 50 digits where SymPy does not decide it"
        ),
        assumptions=("gamma = n/d < 1, X of full row rank",),
    )


DERIVATIONS: tuple[Derivation, ...] = (_risk_chain(), _trace_chain())

#: The symbols of the chains in the paper's notation.
GLYPHS: dict[sp.Symbol, str] = {
    **{s: f"(X)_{{{s.name[2:]}}}" for s in _data},
    **{s: rf"(\beta_t)_{{{s.name[3:]}}}" for s in _target},
    **{s: rf"\epsilon_{{{s.name[4:]}}}" for s in _noise},
    **{s: f"x_{{{s.name[2:]}}}" for s in _input},
    **{s: f"s_{{{s.name[2:]}}}" for s in _sphere},
    **{s: f"(X^+)_{{{s.name[5:]}}}" for s in _plus},
}
