r"""States where the bounds of Lemma 3.3's proof (features-are-fate, B.2) are
nearly equalities, exactly.

The proof's chain (40)-(47) loses, at a state with
:math:`D_l \succeq \alpha^2\lambda I` (:mod:`._balanced_states`), only in three
places: :math:`\|M r\|^2 \ge \sigma_{\min}^2(M)\|r\|^2` (40), an equality when
:math:`r` is a bottom left singular vector of :math:`M = W_1\cdots W_{L-1}`;
:math:`D_l \succeq \alpha^2\lambda I` (43)-(46), an equality when
:math:`D_l = \alpha^2\lambda I`; and the gradients :math:`\nabla_l\mathcal{L}`,
:math:`l < L`, that (38) drops, which carry a factor :math:`W_L` and vanish
with it. :func:`tight_states` draws states with all three nearly equalities:
:math:`W_L` of order :math:`10^{-3}\alpha`, from the top down
:math:`W_l = Q_l(W_{l+1}W_{l+1}^\top + \alpha^2\lambda I)^{1/2}`
(:math:`Q_l` random orthogonal), so that every :math:`D_l` is
:math:`\alpha^2\lambda I` up to the rounding of the weights to the grid
:math:`2^{-20}\mathbb{Z}`, and :math:`\beta_s = W_1\cdots W_L - u` with
:math:`u` the unit bottom left singular vector of :math:`W_1\cdots W_{L-1}`
(rounded), so :math:`r \approx u`. Then :math:`\lambda` is a rational a
relative :math:`10^{-6}` below :math:`\lambda_{\min}(D_l)/\alpha^2`, with
:math:`D_l \succeq \alpha^2\lambda I` decided exactly, as in
:func:`~._balanced_states.balanced_states`.

A state fixes only :math:`\alpha^2\lambda` (it is :math:`W(0) = \alpha \bar W`
with :math:`\bar W = W/\alpha` satisfying (22) with :math:`\lambda`); the paper
takes :math:`\alpha \in \mathbb{R}` ("initialized as :math:`W_l(0) =
\alpha\bar W_l` where :math:`\alpha \in \mathbb{R}`") and (22) "for some
:math:`\lambda > 0`", so the pairs :data:`SCALES` are all within its
hypotheses: :math:`\alpha = 8` and :math:`\lambda = 16`, where a wrong power
of :math:`\alpha` or :math:`\lambda` is seen (no admissible state brings the
bounds (44)-(47) closer than the factor :math:`(L-1)!` by which
:math:`\lambda_{\min}(W_l^\top W_l) \ge (L-l)\alpha^2\lambda` exceeds them),
and :math:`\alpha = 1/8`.
"""

from __future__ import annotations

import functools

import numpy as np
import sympy as sp

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.sources.features_are_fate._balanced_states import (
    BalancedState,
    positive_semidefinite,
)

__all__ = [
    "SCALES",
    "margin",
    "orthogonal",
    "rational_matrix",
    "square_root",
    "tight_states",
]

#: The pairs (alpha, lambda) of the states, each drawn twice.
SCALES = (
    (sp.Integer(8), sp.Integer(1)),
    (sp.Rational(1, 8), sp.Integer(16)),
    (sp.Rational(1, 8), sp.Integer(1)),
    (sp.Integer(8), sp.Rational(1, 16)),
)
#: Draws per pair.
DRAWS = 2
#: Entries are rounded to multiples of 2**-GRID_BITS.
GRID_BITS = 20
#: The scale of W_L, relative to alpha.
TOP_SCALE = 1e-3
#: lambda is this much (relatively) below lambda_min(D_l) / alpha^2.
MARGIN_SLACK = 1e-6


def rational_matrix(array: np.ndarray) -> sp.ImmutableMatrix:
    """``array`` (finite) rounded to the grid 2^-20 Z, exactly: Python
    integers, which do not overflow where int64 would (entries past 2^43)."""
    grid = 2**GRID_BITS
    rows, columns = array.shape
    return sp.ImmutableMatrix(
        rows,
        columns,
        [sp.Rational(round(float(v) * grid), grid) for v in array.ravel()],
    )


def orthogonal(rng: np.random.Generator, size: int) -> np.ndarray:
    q, r = np.linalg.qr(rng.standard_normal((size, size)))
    return np.asarray(q * np.sign(np.diagonal(r)))


def square_root(matrix: np.ndarray) -> np.ndarray:
    values, vectors = np.linalg.eigh(matrix)
    return np.asarray(vectors @ np.diag(np.sqrt(np.maximum(values, 0.0))) @ vectors.T)


def margin(
    invariants: tuple[sp.ImmutableMatrix, ...], alpha: sp.Rational
) -> sp.Rational | None:
    """A rational lambda relatively 1e-6 below min_l lambda_min(D_l)/alpha^2
    with D_l - alpha^2 lambda I positive semidefinite, decided exactly; None
    when no positive one is found."""
    lowest = min(
        float(np.linalg.eigvalsh(np.array(d.tolist(), dtype=float))[0])
        for d in invariants
    )
    target = lowest / float(alpha) ** 2 * (1 - MARGIN_SLACK)
    for _ in range(20):
        if not target > 0:
            return None
        exponent = GRID_BITS + max(0, -int(np.floor(np.log2(target))))
        lam = sp.Rational(int(target * 2**exponent), 2**exponent)
        shift = alpha**2 * lam * sp.eye(invariants[0].rows)
        if lam > 0 and all(positive_semidefinite(d - shift) for d in invariants):
            return lam
        target *= 1 - 16 * MARGIN_SLACK
    return None


def _draw(
    rng: np.random.Generator,
    depth: int,
    dimension: int,
    alpha: sp.Rational,
    lam: sp.Rational,
) -> BalancedState | None:
    a, floor = float(alpha), float(alpha**2 * lam)
    floats = [rng.standard_normal((dimension, 1)) * TOP_SCALE * a]
    for _ in range(depth - 1):
        gram = floats[0] @ floats[0].T + floor * np.eye(dimension)
        floats.insert(0, orthogonal(rng, dimension) @ square_root(gram))
    weights = tuple(rational_matrix(w) for w in floats)
    hidden = np.array(
        functools.reduce(lambda p, w: p * w, weights[1:-1], weights[0]).tolist(),
        dtype=float,
    )
    # r along the bottom left singular vector of W_1 ... W_{L-1}: (40) tight.
    _, vectors = np.linalg.eigh(hidden @ hidden.T)
    bottom = vectors[:, :1] * rng.choice((-1.0, 1.0))
    output = np.array(
        functools.reduce(lambda p, w: p * w, weights[1:], weights[0]).tolist(),
        dtype=float,
    )
    target = rational_matrix(output - bottom)
    trial = BalancedState(weights, alpha, sp.Integer(1), target)
    lam = margin(trial.invariants, alpha)
    if lam is None:
        return None
    return BalancedState(weights, alpha, lam, target)


@functools.cache
def tight_states(
    depth: int, dimension: int = 2, seed: int = 1
) -> tuple[BalancedState, ...]:
    r"""States with :math:`D_l \approx \alpha^2\lambda I`, small :math:`W_L` and
    :math:`r` along the bottom singular vector of :math:`W_1\cdots W_{L-1}`.

    :data:`DRAWS` states for each :math:`(\alpha, \lambda)` of :data:`SCALES`,
    each with :math:`D_l \succeq \alpha^2\lambda I` exactly.

    Raises:
      InvalidArgumentError: ``depth`` < 2 or ``dimension`` < 1.
    """
    for name, value, least in (("depth", depth, 2), ("dimension", dimension, 1)):
        if not isinstance(value, int) or value < least:
            raise InvalidArgumentError(f"{name}={value!r}: an integer >= {least}")
    rng = np.random.default_rng(seed)
    states: list[BalancedState] = []
    for alpha, lam in SCALES:
        drawn = 0
        while drawn < DRAWS:
            state = _draw(rng, depth, dimension, alpha, lam)
            if state is not None:
                states.append(state)
                drawn += 1
    return tuple(states)
