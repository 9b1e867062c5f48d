r"""States of Lemma B.1 where the proof's bounds are nearly tight (features-are-fate).

The states of :mod:`._network_states` -- :math:`W = \alpha\bar W` at
:math:`t = 0` for generic :math:`\bar W`, and checkpoints of flows toward
:math:`\beta_s = (0.6, 0.8)` -- leave most bounds of Appendix B.3 with room:
a term of a bound (:math:`\alpha^2\|\bar D_l\|_{op}^2` in (66), the constant
of (69)) may be changed and the bound still hold at all of them. The lemma's
hypotheses allow more, and the states here use it:

* *rescaled readings* (:func:`rescaled_reading`): the flow from
  :math:`\alpha\bar W` is the flow from :math:`(\alpha/c)(c\bar W)`, and
  :math:`c\bar W` satisfies (22) (with :math:`c^2\lambda`). So each checkpoint
  is also a state of the flow from :math:`c\bar W`, :math:`\alpha/c`, where
  the norms of the initialization and the powers of :math:`\alpha` weigh
  otherwise (a square of a norm, a power of :math:`\alpha` is no longer
  homogeneous with the rest);
* *perpendicular initializations* (:func:`perpendicular_initializations`),
  at :math:`t = 0`: the top right singular vector :math:`v_l` of
  :math:`\bar W_l` perpendicular to the top left one :math:`u_{l+1}` of
  :math:`\bar W_{l+1}` (:math:`(v_l^\top u_{l+1})^2 = 0`), and singular values
  within :math:`\eta` of each other, so that (69)'s misalignment bound is
  within a factor :math:`1 + O(\eta + \|\bar D_l\|_{op})` of tight;
* *a crossing flow* (:func:`crossing_states`): axis-aligned weights grown
  toward :math:`\beta_s = e_2` (a unit task, as Assumption 3.2 asks); the
  flow stays axis-aligned, :math:`W_3` grows along the bottom eigenvector of
  :math:`\bar D_2` and the top singular vectors of :math:`W_1, W_2` switch
  from :math:`e_1` to :math:`e_2` as it does: just before, the layers are
  misaligned while :math:`s_{l+1}^2` is of order :math:`\alpha^2`, where (69)
  is nearly tight; each midpoint step is a checkpoint.

Every initialization has dyadic entries, so :math:`\alpha\bar W` is exact in
float64 and the flows start exactly there.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import numpy as np
from flint import fmpq, fmpq_mat

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.sources.features_are_fate._network_states import (
    CONVERGED_LOSS,
    FlowState,
    Matrix,
    trajectory_states,
)
from implicit_bias.validation import deep_linear_networks as networks

__all__ = [
    "CROSSING_ALPHA",
    "CROSSING_TASK",
    "PERPENDICULAR_ALPHAS",
    "RESCALING",
    "crossing_initialization",
    "crossing_states",
    "extra_states",
    "perpendicular_initializations",
    "perpendicular_states",
    "rescaled_reading",
    "rescaled_states",
    "satisfies_initialization",
]

#: c of the rescaled readings: Wbar -> c Wbar, alpha -> alpha / c.
RESCALING = Fraction(1, 16)
#: alpha of the perpendicular initializations (alpha^2 above and below 1).
PERPENDICULAR_ALPHAS = (Fraction(8), Fraction(2), Fraction(1, 2), Fraction(1, 8))
#: alpha of the crossing flow.
CROSSING_ALPHA = Fraction(1, 8)
#: beta_s of the crossing flow: a unit vector along the axis the flow grows.
CROSSING_TASK = (0.0, 1.0)
#: Most midpoint steps of the crossing flow (it converges in about 30).
CROSSING_STEPS = 200


def _product(a: Matrix, b: Matrix) -> list[list[Fraction]]:
    return [
        [
            sum((x * y for x, y in zip(row, column, strict=True)), Fraction(0))
            for column in zip(*b, strict=True)
        ]
        for row in a
    ]


def _transpose(a: Matrix) -> Matrix:
    return tuple(zip(*a, strict=True))


def satisfies_initialization(initialization: tuple[Matrix, ...]) -> bool:
    r"""Whether :math:`\bar W` satisfies (22): each :math:`\bar D_l = \bar
    W_l^\top\bar W_l - \bar W_{l+1}\bar W_{l+1}^\top` positive definite,
    exactly (the leading principal minors of the rational matrix)."""
    for upper, lower in itertools.pairwise(initialization):
        gram = _product(_transpose(upper), upper)
        outer = _product(lower, _transpose(lower))
        size = len(gram)
        entries = [gram[i][j] - outer[i][j] for i in range(size) for j in range(size)]
        exact = fmpq_mat(
            size, size, [fmpq(e.numerator, e.denominator) for e in entries]
        )
        for k in range(1, size + 1):
            minor = fmpq_mat(k, k, [exact[i, j] for i in range(k) for j in range(k)])
            if not minor.det() > 0:
                return False
    return True


def _axis_aligned(
    first: tuple[Fraction, Fraction],
    second: tuple[Fraction, Fraction],
    last: Fraction,
) -> tuple[Matrix, ...]:
    r""":math:`\bar W_1 = \mathrm{diag}(first)`, :math:`\bar W_2 =
    \mathrm{diag}(second)`, :math:`\bar W_3 = (0, last)^\top`, checked to
    satisfy (22)."""
    zero = Fraction(0)
    initialization = (
        ((first[0], zero), (zero, first[1])),
        ((second[0], zero), (zero, second[1])),
        ((zero,), (last,)),
    )
    if not satisfies_initialization(initialization):
        raise InvalidArgumentError(
            f"first, second, last: must satisfy (22), got {first}, {second}, {last}"
        )
    return initialization


def perpendicular_initializations() -> tuple[tuple[Matrix, ...], ...]:
    r"""Two :math:`\bar W` satisfying (22) with :math:`v_l \perp u_{l+1}`.

    * :math:`\eta = 2^{-16}`: :math:`\bar W_1 = \mathrm{diag}(1 + \eta, 1 +
      2\eta)`, :math:`\bar W_2 = \mathrm{diag}(1, 1 - \eta)`, :math:`\bar W_3
      = (0, 1 - 2\eta)^\top`: :math:`v_1 = e_2 \perp u_2 = e_1`, and
      :math:`C_1` of (70) is :math:`\|\bar W_2\|_{op}^2 (1 + O(\eta))`: (69)
      at :math:`l = 1` within :math:`O(\eta)` of tight;
    * :math:`\eta = 2^{-22}`, :math:`\bar W_2 = \mathrm{diag}(2^{-7}, 2^{-7} -
      \eta)`, :math:`\bar W_3 = (0, 2^{-7} - 2\eta)^\top`, :math:`\bar W_1 =
      \mathrm{diag}(2^{-6} + 2^{-10}, 2^{-6})`: :math:`v_2 = e_1 \perp u_3 =
      e_2`, :math:`\|\bar D_2\|_{op} = 2^{-14}` (so its square in (70) is
      :math:`2^{-14}` times it): (69) at :math:`l = 2` within :math:`O(2^{-14})`
      of tight.
    """
    eta = Fraction(1, 2**16)
    one = Fraction(1)
    layer_one = _axis_aligned(
        (one + eta, one + 2 * eta), (one, one - eta), one - 2 * eta
    )
    eta = Fraction(1, 2**22)
    small = Fraction(1, 2**7)
    layer_two = _axis_aligned(
        (2 * small + Fraction(1, 2**10), 2 * small),
        (small, small - eta),
        small - 2 * eta,
    )
    return layer_one, layer_two


def _scaled(initialization: tuple[Matrix, ...], factor: Fraction) -> tuple[Matrix, ...]:
    return tuple(
        tuple(tuple(factor * e for e in row) for row in w) for w in initialization
    )


@functools.cache
def perpendicular_states() -> tuple[FlowState, ...]:
    r""":math:`W = \alpha\bar W` at :math:`t = 0` for each
    :func:`perpendicular_initializations` and alpha of
    :data:`PERPENDICULAR_ALPHAS`."""
    return tuple(
        FlowState(_scaled(bar, alpha), bar, alpha, "t = 0")
        for bar in perpendicular_initializations()
        for alpha in PERPENDICULAR_ALPHAS
    )


def rescaled_reading(state: FlowState, factor: Fraction) -> FlowState:
    r"""``state`` as a state of the flow from :math:`(\alpha/c)(c\bar W)`:
    the same weights, the initialization scaled by :math:`c` = ``factor``
    (which keeps (22)) and alpha divided by it, so that
    :math:`W(0) = \alpha\bar W` and the invariant (35) are unchanged."""
    if not factor > 0:
        raise InvalidArgumentError(f"factor: must be > 0, got {factor}")
    return FlowState(
        state.weights,
        _scaled(state.initialization, factor),
        state.alpha / factor,
        f"{state.time}, read as the flow from alpha Wbar with Wbar scaled by {factor}",
        state.converged,
    )


@functools.cache
def rescaled_states() -> tuple[FlowState, ...]:
    """The checkpoints of :func:`._network_states.trajectory_states`, read with
    :data:`RESCALING` (:func:`rescaled_reading`)."""
    return tuple(rescaled_reading(s, RESCALING) for s in trajectory_states(3))


def crossing_initialization() -> tuple[Matrix, ...]:
    r""":math:`\bar W_1 = \mathrm{diag}(3/4, 1/8)`, :math:`\bar W_2 =
    \mathrm{diag}(1/2, 1/16)`, :math:`\bar W_3 = (0, 1/32)^\top`:
    :math:`\bar D_2 = \mathrm{diag}(1/4, 3/1024)`, whose top eigenvector
    :math:`e_1` is perpendicular to :math:`\bar W_3`."""
    return _axis_aligned(
        (Fraction(3, 4), Fraction(1, 8)),
        (Fraction(1, 2), Fraction(1, 16)),
        Fraction(1, 32),
    )


def _exact(array: np.ndarray) -> Matrix:
    return tuple(tuple(Fraction(float(v)) for v in row) for row in array)


@functools.cache
def crossing_states() -> tuple[FlowState, ...]:
    r"""Every midpoint step of the flow from :data:`CROSSING_ALPHA` times
    :func:`crossing_initialization` toward :data:`CROSSING_TASK`, until it
    converges (loss below 1e-24)."""
    bar = crossing_initialization()
    weights = [
        np.array([[float(CROSSING_ALPHA * e) for e in row] for row in w])[None]
        for w in bar
    ]
    states = []
    for taken in range(1, CROSSING_STEPS + 1):
        result = networks.pretrain(
            weights, CROSSING_TASK, tol=0.0, max_steps=1, strict=False
        )
        weights = list(result.weights)
        loss = float(result.excess_loss[0])
        converged = bool(result.steps[0] < 1 or loss < CONVERGED_LOSS)
        states.append(
            FlowState(
                tuple(_exact(w[0]) for w in weights),
                bar,
                CROSSING_ALPHA,
                f"after {taken} midpoint steps toward beta_s = e_2 (loss {loss:.2g})",
                converged,
            )
        )
        if converged:
            break
    return tuple(states)


def extra_states() -> tuple[FlowState, ...]:
    """The states of this module: perpendicular initializations, rescaled
    readings, the crossing flow."""
    return perpendicular_states() + rescaled_states() + crossing_states()
