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
From the :data:`CLIMBS` closest candidates it then follows the relative gap
downhill for :data:`CLIMB_STEPS` float64 steps, an adaptive random search
(the step grows on success, shrinks on failure) in the parameters of the
construction -- :math:`W_L`, the factors :math:`G_l`, the angles of
:math:`Q_l`, :math:`r` -- so that every point it visits is admissible. The
float64 search only proposes; the caller decides the relation exactly at
the states returned, as at any other.
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import sympy as sp

from implicit_bias.sources.features_are_fate._balanced_states import BalancedState
from implicit_bias.sources.features_are_fate._tight_states import (
    margin,
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


#: Candidates the local search starts from, and its float64 steps from each.
CLIMBS = 2
CLIMB_STEPS = 150


@dataclass(frozen=True)
class _Parameters:
    r"""An admissible state by construction: scale index, :math:`W_L`
    (``top``), per hidden layer a factor :math:`G_l` of its invariant
    :math:`D_l = \alpha^2\lambda(I + G_l G_l^\top)` and the angle and
    reflection of :math:`Q_l`, and the residual :math:`r`."""

    scale: int
    top: np.ndarray
    factors: tuple[np.ndarray, ...]
    angles: np.ndarray
    reflections: np.ndarray
    residual: np.ndarray
    #: Nonzero: r is this multiple of the bottom left singular vector of
    #: W_1 ... W_{L-1} (fixed when the state is first built).
    bottom: float = 0.0

    def moved(self, rng: np.random.Generator, step: float) -> _Parameters:
        """Each continuous coordinate moved by ``step`` times its size."""

        def move(x: np.ndarray) -> np.ndarray:
            size = np.abs(x) + 1e-3 * (np.abs(x).max() + 1e-300)
            return x + step * size * rng.standard_normal(x.shape)

        return _Parameters(
            self.scale,
            move(self.top),
            tuple(move(g) for g in self.factors),
            self.angles + step * rng.standard_normal(self.angles.shape),
            self.reflections,
            move(self.residual),
        )


def _drawn(rng: np.random.Generator, depth: int, dimension: int) -> _Parameters:
    scale = int(rng.integers(len(SCALES)))
    alpha, lam = SCALES[scale]
    top = rng.standard_normal((dimension, 1)) * np.sqrt(alpha**2 * lam)
    top *= 10 ** rng.uniform(-3, 1.5)
    factors = []
    for _ in range(depth - 1):
        spread = 0.0 if rng.random() < 0.3 else 10 ** rng.uniform(-2, 5)
        factors.append(
            rng.standard_normal((dimension, dimension)) * np.sqrt(spread / 2)
        )
    angles = rng.uniform(0, 2 * np.pi, depth - 1)
    # A third of the rotations are signed permutations (axis-aligned layers).
    angles = np.where(
        rng.random(depth - 1) < 0.3,
        np.round(angles / (np.pi / 2)) * (np.pi / 2),
        angles,
    )
    reflections = rng.choice((-1.0, 1.0), depth - 1)
    size, kind = 10 ** rng.uniform(-1, 1), rng.random()
    size *= rng.choice((-1.0, 1.0))
    residual = np.zeros((dimension, 1))
    if kind < 0.4:
        bottom = size
    elif kind < 0.6:
        bottom, residual = 0.0, np.eye(dimension)[:, [rng.integers(dimension)]] * size
    else:
        bottom, residual = 0.0, rng.standard_normal((dimension, 1)) * size
    return _Parameters(
        scale, top, tuple(factors), angles, reflections, residual, bottom
    )


def _rotation(angle: float, reflection: float, dimension: int) -> np.ndarray:
    rotation = np.eye(dimension)
    c, s = np.cos(angle), np.sin(angle)
    rotation[:2, :2] = [[c, -s], [s, c]]
    rotation[:, -1] *= reflection
    return rotation


def _column(
    parameters: _Parameters, depth: int, dimension: int
) -> tuple[np.ndarray, _Parameters]:
    """The state of ``parameters`` as a column (weights, beta_s, alpha,
    lambda), and the parameters with a bottom residual made explicit."""
    alpha, lam = SCALES[parameters.scale]
    floor = alpha**2 * lam
    weights = [parameters.top]
    for layer in reversed(range(depth - 1)):
        g = parameters.factors[layer]
        invariant = floor * (np.eye(dimension) + g @ g.T)
        rotation = _rotation(
            parameters.angles[layer], parameters.reflections[layer], dimension
        )
        weights.insert(0, rotation @ square_root(weights[0] @ weights[0].T + invariant))
    hidden = functools.reduce(np.matmul, weights[:-1])
    residual = parameters.residual
    if parameters.bottom:
        _, vectors = np.linalg.eigh(hidden @ hidden.T)
        residual = vectors[:, :1] * parameters.bottom
        parameters = dataclasses.replace(parameters, residual=residual, bottom=0.0)
    output = hidden @ weights[-1]
    column = np.concatenate(
        [w.ravel() for w in weights] + [(output - residual).ravel(), [alpha, lam]]
    )
    return column, parameters


@functools.cache
def _candidates(
    depth: int, dimension: int, seed: int
) -> tuple[np.ndarray, tuple[_Parameters, ...]]:
    rng = np.random.default_rng(seed)
    built = [
        _column(_drawn(rng, depth, dimension), depth, dimension)
        for _ in range(CANDIDATES)
    ]
    return np.array([c for c, _ in built]).T, tuple(p for _, p in built)


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
    values, parameters = _candidates(depth, dimension, seed)
    evaluate = sp.lambdify(list(symbols), [gap, scale], "numpy")

    def relative_gaps(columns: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            gaps, scales = (np.asarray(v, dtype=float) for v in evaluate(*columns))
            ratio = gaps / scales
        return np.where(np.isfinite(ratio), ratio, np.inf)

    relative = relative_gaps(values)
    order = np.argsort(relative, kind="stable")
    # Follow the closest candidates downhill (an adaptive random search in
    # the parameters, so every point visited is admissible).
    rng = np.random.default_rng(seed)
    found = []
    for index in order[:CLIMBS]:
        best, best_gap = parameters[index], relative[index]
        column, step = values[:, index], 0.3
        for _ in range(CLIMB_STEPS):
            trial_column, trial = _column(best.moved(rng, step), depth, dimension)
            trial_gap = relative_gaps(trial_column[:, None])[0]
            if trial_gap < best_gap:
                best, best_gap, column, step = (
                    trial,
                    trial_gap,
                    trial_column,
                    step * 1.5,
                )
            else:
                step = max(step * 0.8, 1e-6)
        found.append((best_gap, column))
    found += [(relative[index], values[:, index]) for index in order[:count]]
    found.sort(key=lambda item: item[0])
    states: list[BalancedState] = []
    for value, column in found:
        if len(states) == count:
            break
        if not (np.isfinite(value) and np.isfinite(column).all()):
            continue
        state = _exact(column, depth, dimension)
        if state is not None and state not in states:
            states.append(state)
    return tuple(states)
