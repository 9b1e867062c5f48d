r"""A search for the admissible states where a scalar relation of Lemma 3.3's
proof (features-are-fate, B.2) is closest to failing.

A finite set of states decides an inequality only where it is nearly tight
or violated among them. :func:`closest_states` draws many admissible states
in float64 -- :math:`D_l \succeq \alpha^2\lambda I` (:math:`l < L`), the
states of the flow from (22) (:mod:`._balanced_states`) -- from a family
wider than the drawn and the tight states: :math:`W_L` from :math:`10^{-3}`
to :math:`10^{1.5}` times :math:`\alpha\sqrt{\lambda}`, invariants
:math:`D_l = \alpha^2\lambda(I + \kappa\, G G^\top/2)` with :math:`\kappa`
up to :math:`10^5` (an invariant of any anisotropy satisfies (22)), rotations
random or signed permutations, the residual along the bottom singular vector
of :math:`W_1\cdots W_{L-1}`, along an axis, or random, and
:math:`(\alpha, \lambda)` over :data:`SCALES`. It evaluates the relation's
relative gap :math:`(\mathrm{greater} - \mathrm{lesser}) / (|\mathrm{greater}|
+ |\mathrm{lesser}|)` at all of them and returns the ``count`` smallest, as
exact states: the weights and :math:`\beta_s` rounded to :math:`2^{-20}
\mathbb{Z}`, :math:`\lambda` recomputed exactly (:func:`._tight_states.margin`).
The float64 search only proposes; the caller decides the relation exactly at
the states returned, as at any other.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Sequence

import numpy as np
import sympy as sp

from implicit_bias.sources.features_are_fate._balanced_states import BalancedState
from implicit_bias.sources.features_are_fate._tight_states import (
    margin,
    orthogonal,
    rational_matrix,
    square_root,
)

__all__ = ["CANDIDATES", "SCALES", "closest_states"]

#: Float64 states drawn per search.
CANDIDATES = 3000
#: The values of alpha and of lambda the candidates combine.
ALPHAS = (8.0, 2.0, 1.0, 1 / 8, 1 / 64)
LAMBDAS = (1 / 16, 1.0, 16.0)
SCALES = tuple((a, lam) for a in ALPHAS for lam in LAMBDAS)


def _candidate(rng: np.random.Generator, depth: int, dimension: int) -> np.ndarray:
    """One admissible state in float64: weights, beta_s, alpha, lambda."""
    alpha, lam = SCALES[rng.integers(len(SCALES))]
    floor = alpha**2 * lam
    top = rng.standard_normal((dimension, 1)) * np.sqrt(floor)
    weights = [top * 10 ** rng.uniform(-3, 1.5)]
    for _ in range(depth - 1):
        spread = 0.0 if rng.random() < 0.3 else 10 ** rng.uniform(-2, 5)
        g = rng.standard_normal((dimension, dimension))
        invariant = floor * (np.eye(dimension) + spread * g @ g.T / 2)
        if rng.random() < 0.7:
            rotation = orthogonal(rng, dimension)
        else:
            signs = rng.choice((-1.0, 1.0), dimension)
            rotation = np.eye(dimension)[rng.permutation(dimension)] * signs
        gram = weights[0] @ weights[0].T + invariant
        weights.insert(0, rotation @ square_root(gram))
    hidden = functools.reduce(np.matmul, weights[:-1])
    output = hidden @ weights[-1]
    size, kind = 10 ** rng.uniform(-1, 1), rng.random()
    if kind < 0.4:
        _, vectors = np.linalg.eigh(hidden @ hidden.T)
        residual = vectors[:, :1] * size * rng.choice((-1.0, 1.0))
    elif kind < 0.6:
        residual = np.eye(dimension)[:, [rng.integers(dimension)]] * size
        residual *= rng.choice((-1.0, 1.0))
    else:
        residual = rng.standard_normal((dimension, 1)) * size
    return np.concatenate(
        [w.ravel() for w in weights] + [(output - residual).ravel(), [alpha, lam]]
    )


@functools.cache
def _candidates(depth: int, dimension: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([_candidate(rng, depth, dimension) for _ in range(CANDIDATES)]).T


def _exact(column: np.ndarray, depth: int, dimension: int) -> BalancedState | None:
    shapes = [(dimension, dimension)] * (depth - 1) + [(dimension, 1)]
    weights, start = [], 0
    for rows, columns in shapes:
        size = rows * columns
        weights.append(
            rational_matrix(column[start : start + size].reshape(rows, columns))
        )
        start += size
    target = rational_matrix(column[start : start + dimension].reshape(dimension, 1))
    alpha = sp.Rational(column[-2])
    trial = BalancedState(tuple(weights), alpha, sp.Integer(1), target)
    lam = margin(trial.invariants, alpha)
    if lam is None:
        return None
    return BalancedState(tuple(weights), alpha, lam, target)


def closest_states(
    gap: sp.Expr,
    scale: sp.Expr,
    symbols: Sequence[sp.Symbol],
    depth: int,
    *,
    count: int = 4,
    dimension: int = 2,
    seed: int = 2,
) -> tuple[BalancedState, ...]:
    r"""The ``count`` candidate states where ``gap / scale`` is smallest.

    Args:
      gap: greater side minus lesser side of the relation, in ``symbols``.
      scale: the size the gap is measured against (sum of the sides' moduli).
      symbols: the entries of :math:`W_1, \dots, W_L` (row by row), of
        :math:`\beta_s`, then :math:`\alpha` and :math:`\lambda`.
      depth: :math:`L`.

    Returns:
      Up to ``count`` exact states, smallest relative gap first (fewer if a
      gap is not a finite real at some candidates or a rounding leaves no
      exact margin).
    """
    values = _candidates(depth, dimension, seed)
    evaluate = sp.lambdify(list(symbols), [gap, scale], "numpy")
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gaps, scales = (np.asarray(v, dtype=float) for v in evaluate(*values))
        relative = np.where(np.isfinite(gaps / scales), gaps / scales, np.inf)
    order = np.argsort(relative, kind="stable")
    states: list[BalancedState] = []
    for index in order[:count]:
        if not (np.isfinite(relative[index]) and np.isfinite(values[:, index]).all()):
            break
        state = _exact(values[:, index], depth, dimension)
        if state is not None:
            states.append(state)
    return tuple(states)
