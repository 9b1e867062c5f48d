r"""Exact states of deep linear networks under the initialization (22), and a judge.

The bounds of Appendix B.2-B.3 of features-are-fate hold at every time of the
gradient flow (6) from an initialization :math:`W_l(0) = \alpha \bar W_l`
satisfying (22), :math:`\bar W_l^\top \bar W_l - \bar W_{l+1}\bar W_{l+1}^\top
\succeq \lambda I`, because the invariant (35)
:math:`D_l = W_l^\top W_l - W_{l+1} W_{l+1}^\top` keeps its initial value
:math:`\alpha^2(\bar W_l^\top \bar W_l - \bar W_{l+1}\bar W_{l+1}^\top)
\succeq \alpha^2\lambda I`. What the proofs use of a state at time :math:`t`
is therefore :math:`D_l(W(t)) \succeq \alpha^2 \lambda I` for :math:`l < L`.
Any weights :math:`W` with that property are such a state, reached at
:math:`t = 0` from :math:`\bar W = W/\alpha` (which satisfies (22)).

:func:`balanced_states` draws them with exact rational entries: a weight
:math:`W_L \in \mathbb{Q}^{d\times 1}` of random scale, then from the top
down :math:`W_l = Q_l (W_{l+1}W_{l+1}^\top + \alpha^2 \bar D_l)^{1/2}`
(:math:`Q_l` random orthogonal, :math:`\bar D_l` a random positive definite
matrix, anisotropic, of random scale), rounded to the grid
:math:`2^{-20}\mathbb{Z}`; then :math:`D_l` is computed exactly from the
rounded weights and :math:`\lambda` is a rational with
:math:`D_l - \alpha^2\lambda I \succeq 0` decided exactly (the coefficients
of the characteristic polynomial alternate in sign). :math:`\alpha` runs
over 1, 1/8, 1/64 -- the small-:math:`\alpha` regime of the paper, with
weights of order one and invariants of order :math:`\alpha^2`, as late in
training -- and 2, where :math:`\alpha^2\lambda` may exceed 1 (so that a
wrong power of it is seen). Every third state is one where the bounds of
(40)-(47) are nearly tight, as early in training: :math:`W_L` of order
:math:`10^{-3}\alpha` and :math:`\bar D_l` a multiple of the identity, so that
:math:`W_l^\top W_l \approx (L - l)\alpha^2\lambda I`.

:func:`judge_at_states` decides a relation -- an identity, a scalar
inequality or a Loewner order -- exactly at each state: rational arithmetic,
so a violation is a counterexample (``Basis.PROOF``), reported with the
state's coordinates.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy as sp
from flint import fmpq, fmpq_mat

from implicit_bias.claims.certify import exact_point
from implicit_bias.claims.engine import Basis, Reason, Status, Verdict
from implicit_bias.claims.loewner import LoewnerLe, LoewnerLt, check_loewner
from implicit_bias.errors import InvalidArgumentError

__all__ = ["BalancedState", "balanced_states", "judge_at_states"]

#: The values of alpha the states cycle through.
ALPHAS = (sp.Integer(1), sp.Rational(1, 8), sp.Rational(1, 64), sp.Integer(2))
#: Entries are rounded to multiples of 2**-GRID_BITS.
GRID_BITS = 20
#: Every TIGHT_EVERY-th state is one where the bounds are nearly tight.
TIGHT_EVERY = 3


@dataclass(frozen=True)
class BalancedState:
    r"""Weights with :math:`D_l \succeq \alpha^2 \lambda I` (:math:`l < L`), exactly.

    Attributes:
      weights: :math:`W_1, \dots, W_L` (``d x d``, :math:`W_L` ``d x 1``),
        rational.
      alpha: :math:`\alpha > 0`.
      margin: :math:`\lambda > 0`.
      target: :math:`\beta_s` (``d x 1``), rational, for the loss.
    """

    weights: tuple[sp.ImmutableMatrix, ...]
    alpha: sp.Rational
    margin: sp.Rational
    target: sp.ImmutableMatrix

    @property
    def invariants(self) -> tuple[sp.ImmutableMatrix, ...]:
        r""":math:`D_l = W_l^\top W_l - W_{l+1}W_{l+1}^\top`, :math:`l < L` (35)."""
        return tuple(
            sp.ImmutableMatrix(w.T * w - v * v.T)
            for w, v in zip(self.weights, self.weights[1:], strict=False)
        )

    def coordinates(self) -> dict[sp.Symbol, Fraction]:
        """The state as a point: ``W_l[i,j]``, ``alpha``, ``lambda``, ``beta_s[i]``."""
        point: dict[sp.Symbol, Fraction] = {}
        for layer, weight in enumerate(self.weights, start=1):
            for i in range(weight.rows):
                for j in range(weight.cols):
                    point[sp.Symbol(f"W_{layer}[{i},{j}]")] = _fraction(weight[i, j])
        point[sp.Symbol("alpha")] = _fraction(self.alpha)
        point[sp.Symbol("lambda")] = _fraction(self.margin)
        for i in range(self.target.rows):
            point[sp.Symbol(f"beta_s[{i}]")] = _fraction(self.target[i, 0])
        return point

    def written(self) -> str:
        """The state on one line."""
        weights = ", ".join(
            f"W_{layer} = {sp.sstr(w.tolist())}"
            for layer, w in enumerate(self.weights, start=1)
        )
        return (
            f"{weights}, alpha = {self.alpha}, lambda = {self.margin}, beta_s = "
            f"{sp.sstr(self.target.T.tolist())}^T"
        )


def _fraction(value: sp.Basic) -> Fraction:
    rational = sp.Rational(value)
    return Fraction(int(rational.p), int(rational.q))


def _rational_matrix(array: np.ndarray) -> sp.ImmutableMatrix:
    grid = 2**GRID_BITS
    rounded = np.rint(array * grid).astype(np.int64)
    rows, columns = array.shape
    return sp.ImmutableMatrix(
        rows, columns, [sp.Rational(int(v), grid) for v in rounded.ravel()]
    )


def positive_semidefinite(matrix: sp.MatrixBase) -> bool:
    r"""Whether the symmetric rational ``matrix`` is positive semidefinite,
    exactly: its characteristic polynomial :math:`\sum_k c_k x^k` has
    :math:`(-1)^{n-k} c_k \ge 0` for every ``k`` (Descartes' rule; its roots
    are real)."""
    size = matrix.rows
    entries = [sp.Rational(e) for e in matrix]
    exact = fmpq_mat(size, size, [fmpq(int(e.p), int(e.q)) for e in entries])
    polynomial = exact.charpoly()
    return all(polynomial[k] * (-1) ** (size - k) >= 0 for k in range(size + 1))


def _square_root(matrix: np.ndarray) -> np.ndarray:
    values, vectors = np.linalg.eigh(matrix)
    return np.asarray(vectors @ np.diag(np.sqrt(np.maximum(values, 0.0))) @ vectors.T)


def _orthogonal(rng: np.random.Generator, size: int) -> np.ndarray:
    q, r = np.linalg.qr(rng.standard_normal((size, size)))
    return np.asarray(q * np.sign(np.diagonal(r)))


def _draw(
    rng: np.random.Generator,
    depth: int,
    dimension: int,
    alpha: sp.Rational,
    *,
    tight: bool,
) -> BalancedState | None:
    a = float(alpha)
    top_scale = 1e-3 * a if tight else 10 ** rng.uniform(-1, 1)
    top = rng.standard_normal((dimension, 1)) * top_scale
    floats = [top]
    for _ in range(depth - 1):
        g = rng.standard_normal((dimension, dimension))
        scale = 0.0 if tight else 10 ** rng.uniform(-1, 1)
        floor = 10 ** rng.uniform(-2, 0)
        invariant = g @ g.T / dimension * scale + floor * np.eye(dimension)
        above = floats[0]
        gram = above @ above.T + a**2 * invariant
        floats.insert(0, _orthogonal(rng, dimension) @ _square_root(gram))
    weights = tuple(_rational_matrix(w) for w in floats)
    target = _rational_matrix(rng.standard_normal((dimension, 1)))
    trial = BalancedState(weights, alpha, sp.Integer(1), target)
    lowest = min(
        float(np.linalg.eigvalsh(np.array(d.tolist(), dtype=float))[0])
        for d in trial.invariants
    )
    margin = sp.Rational(int(0.99 * lowest / a**2 * 2**GRID_BITS), 2**GRID_BITS)
    for _ in range(8):
        if margin <= 0:
            return None
        shift = alpha**2 * margin * sp.eye(dimension)
        if all(positive_semidefinite(d - shift) for d in trial.invariants):
            return BalancedState(weights, alpha, margin, target)
        margin /= 2
    return None


@functools.cache
def balanced_states(
    depth: int, dimension: int = 2, count: int = 24, seed: int = 0
) -> tuple[BalancedState, ...]:
    r"""``count`` exact states with :math:`D_l \succeq \alpha^2\lambda I`.

    Args:
      depth: :math:`L \ge 2`.
      dimension: :math:`d \ge 1`.
      count: the number of states.
      seed: of the generator.

    Raises:
      InvalidArgumentError: an argument outside its domain.
    """
    for name, value, least in (("depth", depth, 2), ("dimension", dimension, 1)):
        if not isinstance(value, int) or value < least:
            raise InvalidArgumentError(f"{name}={value!r}: an integer >= {least}")
    if not isinstance(count, int) or count < 1:
        raise InvalidArgumentError(f"count={count!r}: an integer >= 1")
    rng = np.random.default_rng(seed)
    states: list[BalancedState] = []
    while len(states) < count:
        index = len(states)
        state = _draw(
            rng,
            depth,
            dimension,
            ALPHAS[index % len(ALPHAS)],
            tight=index % TIGHT_EVERY == TIGHT_EVERY - 1,
        )
        if state is not None:
            states.append(state)
    return tuple(states)


#: The values of a state for a relation's symbols.
Values = Callable[[BalancedState], Mapping[sp.Basic, sp.Basic]]


def _explicit(value: sp.Basic) -> sp.Basic:
    value = value.doit()
    if isinstance(value, sp.MatrixExpr) and not isinstance(value, sp.MatrixBase):
        value = value.as_explicit()
    if isinstance(value, sp.MatrixBase):
        return sp.ImmutableMatrix(value)
    return value


def _rational(value: sp.Basic) -> bool:
    if isinstance(value, sp.MatrixBase):
        return all(sp.sympify(e).is_Rational for e in value)
    return bool(sp.sympify(value).is_Rational)


def _scalar_gap(relation: sp.Rel, at: Callable[[sp.Basic], sp.Basic]) -> sp.Basic:
    """``greater - lesser`` of an inequality, evaluated."""
    return at(relation.gts) - at(relation.lts)


def judge_at_states(
    relation: sp.Basic,
    states: Sequence[BalancedState],
    values: Values,
    *,
    substitutions: Mapping[sp.Basic, sp.Basic] | None = None,
    regime: str = "",
) -> Verdict:
    r"""Decide ``relation`` exactly at each of ``states``.

    ``relation`` is ``Eq`` (scalars or matrices), a scalar ``<=``, ``<``,
    ``>=``, ``>``, or a :class:`~implicit_bias.claims.loewner.LoewnerLe`
    (:class:`~implicit_bias.claims.loewner.LoewnerLt`), decided at a state by
    :func:`~implicit_bias.claims.loewner.check_loewner` on its exact values.
    ``substitutions`` (the gradient flow, say) are applied first, then
    ``values(state)``.

    Returns:
      ``holds`` (``Basis.NUMERICAL``: finitely many exact states) when it holds
      at every state; ``fails`` (``Basis.PROOF``) at the first state where it
      does not, with the state as the counterexample; ``inconclusive`` when a
      side is not an exact rational there or the form is not one of these.
    """
    kinds = (sp.Eq, sp.Le, sp.Lt, sp.Ge, sp.Gt, LoewnerLe)
    if not isinstance(relation, kinds):
        return Verdict.inconclusive(
            f"judge_at_states decides Eq, <=, <, >=, > and the Loewner order, got "
            f"a {type(relation).__name__}",
            Reason.UNDECIDED,
        )
    if substitutions:
        relation = relation.xreplace(dict(substitutions))
    for number, state in enumerate(states, start=1):
        replacements = dict(values(state))

        def at(side: sp.Basic, replacements: dict = replacements) -> sp.Basic:
            return _explicit(side.xreplace(replacements))

        where = f"state {number} of {len(states)} ({state.written()})"
        if isinstance(relation, LoewnerLe):
            lower, upper = at(relation.lower), at(relation.upper)
            if not (_rational(lower) and _rational(upper)):
                return Verdict.inconclusive(
                    f"the sides are not exact rationals at {where}", Reason.UNDECIDED
                )
            verdict = check_loewner(
                lower, upper, strict=isinstance(relation, LoewnerLt)
            )
            if verdict.status == Status.HOLDS:
                continue
            if verdict.status == Status.FAILS:
                vector = {
                    sp.Symbol(name): Fraction(text)
                    for name, text in (verdict.point or {}).items()
                }
                point = exact_point({**state.coordinates(), **vector})
                counterexample = f"at {where}: {verdict.counterexample}"
                return Verdict.fails(
                    f"upper - lower is not positive semidefinite at an exact state: "
                    f"{counterexample}",
                    Basis.PROOF,
                    counterexample,
                    point=point,
                )
            return Verdict.inconclusive(
                f"at {where}: {verdict.detail}", Reason.UNDECIDED
            )
        if isinstance(relation, sp.Eq):
            difference = at(relation.lhs) - at(relation.rhs)
        else:
            difference = _scalar_gap(relation, at)
        if not _rational(difference):
            return Verdict.inconclusive(
                f"the sides are not exact rationals at {where}", Reason.UNDECIDED
            )
        if isinstance(relation, sp.Eq):
            nonzero = (
                any(e != 0 for e in difference)
                if isinstance(difference, sp.MatrixBase)
                else difference != 0
            )
            if not nonzero:
                continue
            counterexample = f"at {where}: lhs - rhs = {sp.sstr(difference)} != 0"
        else:
            strict = isinstance(relation, (sp.Lt, sp.Gt))
            if difference > 0 or (difference == 0 and not strict):
                continue
            counterexample = (
                f"at {where}: greater side - lesser side = {difference} "
                f"({float(difference):.6g}) {'<=' if strict else '<'} 0"
            )
        return Verdict.fails(
            f"exact rational arithmetic refutes it: {counterexample}",
            Basis.PROOF,
            counterexample,
            point=exact_point(state.coordinates()),
        )
    return Verdict.holds(
        f"holds at {len(states)} exact rational states"
        + (f" ({regime})" if regime else "")
        + ", decided in exact rational arithmetic (tolerance 0)",
        Basis.NUMERICAL,
    )
