r"""States of the gradient flow of Lemma B.1, and their quantities in ball arithmetic.

Appendix B.3 of features-are-fate bounds, at every time :math:`t` of the
flow (6) from :math:`W_l(0) = \alpha\bar W_l` with (22), quantities of the
weights :math:`W_l(t)` -- the top singular value :math:`s_l` of
:math:`W_l`, its top left and right singular vectors :math:`u_l, v_l`, the
invariant (35) :math:`D_l` -- against quantities of the initialization
:math:`\bar W_l`. A :class:`FlowState` holds one such pair, exactly:

* *initial* states, :math:`t = 0`: :math:`W = \alpha\bar W`, with
  :math:`\bar W` rational and satisfying (22)
  (:func:`~._balanced_states.balanced_states`, the weights read as
  :math:`\bar W`) and :math:`\alpha \in \{8, 2, 1/2, 1/8, 1/32\}` (8 and 2 too, where
  the :math:`\alpha^2` terms exceed the bare ones, so that a wrong power shows);
* *trajectory* states, :math:`t > 0`: the weights of a midpoint-rule
  gradient flow on the noise-free population loss
  (:func:`~implicit_bias.validation.deep_linear_networks.pretrain`) at
  checkpoints until it converges, float64 numbers read as the exact binary
  rationals they are.

:func:`quantities` evaluates the quantities of a state in ball arithmetic
(python-flint ``arb``, :data:`PRECISION_BITS` bits) from its exact entries:
the singular pairs of ``2 x 2`` matrices in closed form,
:math:`s^2 = \tfrac{a+c}{2} + \sqrt{(\tfrac{a-c}{2})^2 + b^2}` for
:math:`W^\top W = \begin{pmatrix} a & b\\ b & c\end{pmatrix}`, so each is
enclosed rigorously. At a trajectory state the invariant is conserved only to
the rounding of the integrator: its drift
:math:`\delta = \max_l \|D_l(W(t)) - \alpha^2\bar D_l\|_{op}` is enclosed
too, and a relation the proof derives through (35) holds there within
:func:`drift_tolerance`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from flint import arb, ctx, fmpq

from implicit_bias.sources.features_are_fate._balanced_states import balanced_states
from implicit_bias.validation import deep_linear_networks as networks

__all__ = [
    "ENDPOINT_ALPHAS",
    "ENDPOINT_RUNS",
    "PRECISION_BITS",
    "FlowState",
    "drift_tolerance",
    "endpoint_initializations",
    "endpoint_run",
    "endpoint_states",
    "initial_states",
    "quantities",
    "trajectory_states",
]

#: The working precision of the ball arithmetic.
PRECISION_BITS = 128
#: alpha of the initial states.
INITIAL_ALPHAS = (
    Fraction(8),
    Fraction(2),
    Fraction(1, 2),
    Fraction(1, 8),
    Fraction(1, 32),
)
#: alpha of the gradient-flow runs.
RUN_ALPHAS = (Fraction(1, 8), Fraction(1, 32))
#: The source task of the runs (unit norm, Assumption 3.2).
SOURCE_TASK = (0.6, 0.8)
#: A run has converged once its loss is below this (float64's floor for a
#: loss of order one is about 1e-32).
CONVERGED_LOSS = 1e-24

Matrix = tuple[tuple[Fraction, ...], ...]


@dataclass(frozen=True)
class FlowState:
    r"""Weights :math:`W(t)` and the initialization :math:`\bar W` they flow from.

    Attributes:
      weights: :math:`W_1(t), \dots, W_L(t)`, exact.
      initialization: :math:`\bar W_1, \dots, \bar W_L`, exact.
      alpha: :math:`\alpha`, with :math:`W(0) = \alpha\bar W`.
      time: "t = 0" or the run's checkpoint, in words.
    """

    weights: tuple[Matrix, ...]
    initialization: tuple[Matrix, ...]
    alpha: Fraction
    time: str
    #: Whether the flow has converged here (its loss below 1e-24).
    converged: bool = False

    @property
    def initial(self) -> bool:
        """Whether this is the state at t = 0 (the invariant then exact)."""
        return self.time == "t = 0"

    def written(self) -> str:
        """The state on one line."""

        def rows(matrix: Matrix) -> str:
            return str([[str(e) for e in row] for row in matrix]).replace("'", "")

        weights = ", ".join(
            f"Wbar_{k} = {rows(w)}" for k, w in enumerate(self.initialization, 1)
        )
        return f"{weights}, alpha = {self.alpha}, {self.time}"

    def coordinates(self) -> dict[str, Fraction]:
        """``Wbar_l[i,j]``, ``alpha`` and, past t = 0, ``W_l[i,j]``."""
        point: dict[str, Fraction] = {}
        named = [("Wbar", self.initialization)]
        if not self.initial:
            named.append(("W", self.weights))
        for name, matrices in named:
            for k, matrix in enumerate(matrices, 1):
                for i, row in enumerate(matrix):
                    for j, entry in enumerate(row):
                        point[f"{name}_{k}[{i},{j}]"] = entry
        point["alpha"] = self.alpha
        return point


def _exact(array: object) -> Matrix:
    values = np.asarray(array, dtype=float)
    return tuple(tuple(Fraction(float(v)) for v in row) for row in values)


@functools.cache
def initial_states(depth: int = 3, count: int = 8) -> tuple[FlowState, ...]:
    r"""States at :math:`t = 0`: :math:`\bar W` satisfying (22), every alpha."""
    states = []
    for state in balanced_states(depth, 2, count, seed=1):
        bar = tuple(
            tuple(tuple(Fraction(str(e)) for e in w.row(i)) for i in range(w.rows))
            for w in state.weights
        )
        for alpha in INITIAL_ALPHAS:
            weights = tuple(
                tuple(tuple(alpha * e for e in row) for row in w) for w in bar
            )
            states.append(FlowState(weights, bar, alpha, "t = 0"))
    return tuple(states)


@functools.cache
def trajectory_states(depth: int = 3, runs: int = 2) -> tuple[FlowState, ...]:
    r"""Checkpoints of midpoint-rule gradient flows from :math:`\alpha\bar W`.

    One run per initialization of :func:`initial_states` (the first ``runs``)
    and alpha of :data:`RUN_ALPHAS`, on the population loss (4) without
    noise, adaptive steps; checkpoints after 1, 2, 4, ... steps until the
    flow has converged.
    """
    states = []
    bars = {s.initialization: None for s in initial_states(depth)}
    for bar in list(bars)[:runs]:
        for alpha in RUN_ALPHAS:
            weights = [
                np.array([[float(alpha * e) for e in row] for row in w])[None]
                for w in bar
            ]
            taken, chunk = 0, 1
            while True:
                result = networks.pretrain(
                    weights, SOURCE_TASK, tol=0.0, max_steps=chunk, strict=False
                )
                weights = list(result.weights)
                taken += int(result.steps[0])
                loss = float(result.excess_loss[0])
                converged = bool(result.steps[0] < chunk or loss < CONVERGED_LOSS)
                states.append(
                    FlowState(
                        tuple(_exact(w[0]) for w in weights),
                        bar,
                        alpha,
                        f"after {taken} midpoint steps (loss {loss:.2g})",
                        converged,
                    )
                )
                if converged:
                    break
                chunk *= 2
    return tuple(states)


# --- ball arithmetic on small matrices

ArbMatrix = list[list[arb]]


def _arb(matrix: Matrix) -> ArbMatrix:
    return [[arb(fmpq(e.numerator, e.denominator)) for e in row] for row in matrix]


def _transpose(a: ArbMatrix) -> ArbMatrix:
    return [list(column) for column in zip(*a, strict=True)]


def _product(a: ArbMatrix, b: ArbMatrix) -> ArbMatrix:
    columns = _transpose(b)
    return [
        [
            sum((x * y for x, y in zip(row, column, strict=True)), arb(0))
            for column in columns
        ]
        for row in a
    ]


def _difference(a: ArbMatrix, b: ArbMatrix) -> ArbMatrix:
    return [
        [x - y for x, y in zip(r, s, strict=True)] for r, s in zip(a, b, strict=True)
    ]


def _scaled(c: arb, a: ArbMatrix) -> ArbMatrix:
    return [[c * x for x in row] for row in a]


def _form(vector: list[arb], matrix: ArbMatrix) -> arb:
    r""":math:`x^\top M x`."""
    column = [[x] for x in vector]
    return _product(_product(_transpose(column), matrix), column)[0][0]


def _frobenius_squared(a: ArbMatrix) -> arb:
    return sum((x * x for row in a for x in row), arb(0))


def _top_eigen(symmetric: ArbMatrix) -> tuple[arb, list[arb]]:
    r"""The top eigenvalue of a symmetric ``2 x 2`` (or ``1 x 1``) matrix and a
    unit eigenvector, enclosed."""
    if len(symmetric) == 1:
        return symmetric[0][0], [arb(1)]
    (a, b), (_, c) = symmetric
    top = (a + c) / 2 + (((a - c) / 2) ** 2 + b * b).sqrt()
    # Two formulas for the eigenvector; the longer one is the better
    # conditioned (the other may vanish).
    first, second = [b, top - a], [top - c, b]
    length = [sum((x * x for x in v), arb(0)) for v in (first, second)]
    vector, norm = (
        (first, length[0])
        if length[0].mid() >= length[1].mid()
        else (
            second,
            length[1],
        )
    )
    root = norm.sqrt()
    return top, [x / root for x in vector]


def _spectral_norm(symmetric: ArbMatrix) -> arb:
    """The largest absolute eigenvalue of a symmetric 2 x 2 matrix."""
    (a, b), (_, c) = symmetric
    return abs((a + c) / 2) + (((a - c) / 2) ** 2 + b * b).sqrt()


def _top_pair(weight: ArbMatrix) -> tuple[arb, list[arb], list[arb]]:
    r""":math:`(s^2, u, v)` of the top singular triple of ``weight``."""
    s2, v = _top_eigen(_product(_transpose(weight), weight))
    s = s2.sqrt()
    u = [
        sum((w * x for w, x in zip(row, v, strict=True)), arb(0)) / s for row in weight
    ]
    return s2, u, v


def _invariant(weights: list[ArbMatrix], layer: int) -> ArbMatrix:
    """D_l = W_l^T W_l - W_{l+1} W_{l+1}^T (35), layer counted from 1."""
    w, above = weights[layer - 1], weights[layer]
    return _difference(_product(_transpose(w), w), _product(above, _transpose(above)))


@functools.cache
def quantities(state: FlowState) -> dict[str, arb]:
    r"""The quantities of ``state`` the proof of Lemma B.1 bounds, enclosed.

    Keys, for each layer ``k`` and each ``l < L`` (``{l+1}`` is ``l + 1``):
    ``s2_k`` (:math:`s_k^2 = \|W_k\|_{op}^2`), ``fro_k``
    (:math:`\|W_k\|_F^2`), ``fbar_k``, ``obar_k`` (the same of
    :math:`\bar W_k`), ``dbar_l`` (:math:`\|\bar D_l\|_{op}`), ``v_top_l``
    (:math:`v_l^\top W_l^\top W_l v_l`), ``v_next_l`` (:math:`v_l^\top
    W_{l+1}W_{l+1}^\top v_l`), ``v_inv_l`` (:math:`v_l^\top D_l v_l`),
    ``v_split_l`` (the right side of (63)), ``align_l``
    (:math:`(v_l^\top u_{l+1})^2`), ``u_top_l`` (:math:`u_{l+1}^\top W_l^\top
    W_l u_{l+1}`), ``u_split_l`` (:math:`u_{l+1}^\top(D_l + W_{l+1}
    W_{l+1}^\top)u_{l+1}`), ``u_bar_l`` (:math:`u_{l+1}^\top \bar D_l
    u_{l+1}`), ``product_norm`` (:math:`\|W_1\cdots W_L\|_2`), ``drift``
    (:math:`\delta`).
    """
    with ctx.workprec(PRECISION_BITS):
        weights = [_arb(w) for w in state.weights]
        bars = [_arb(w) for w in state.initialization]
        alpha2 = arb(fmpq(state.alpha.numerator, state.alpha.denominator)) ** 2
        depth = len(weights)
        values: dict[str, arb] = {}
        pairs = [_top_pair(w) for w in weights]
        for k in range(1, depth + 1):
            values[f"s2_{k}"] = pairs[k - 1][0]
            values[f"fro_{k}"] = _frobenius_squared(weights[k - 1])
            values[f"fbar_{k}"] = _frobenius_squared(bars[k - 1])
            values[f"obar_{k}"] = _top_pair(bars[k - 1])[0]
        drifts = []
        for layer in range(1, depth):
            s2_next, u_next, _ = pairs[layer]
            _, _, v = pairs[layer - 1]
            w, above = weights[layer - 1], weights[layer]
            gram = _product(_transpose(w), w)
            outer = _product(above, _transpose(above))
            invariant = _invariant(weights, layer)
            invariant_bar = _invariant(bars, layer)
            top_outer = [[s2_next * x * y for y in u_next] for x in u_next]
            values[f"dbar_{layer}"] = _spectral_norm(invariant_bar)
            values[f"v_top_{layer}"] = _form(v, gram)
            values[f"v_next_{layer}"] = _form(v, outer)
            values[f"v_inv_{layer}"] = _form(v, invariant)
            overlap = sum((x * y for x, y in zip(v, u_next, strict=True)), arb(0))
            values[f"align_{layer}"] = overlap * overlap
            values[f"v_split_{layer}"] = s2_next * overlap * overlap + _form(
                v, _difference(outer, top_outer)
            )
            values[f"u_top_{layer}"] = _form(u_next, gram)
            values[f"u_split_{layer}"] = _form(
                u_next,
                [
                    [x + y for x, y in zip(r, s, strict=True)]
                    for r, s in zip(invariant, outer, strict=True)
                ],
            )
            values[f"u_bar_{layer}"] = _form(u_next, invariant_bar)
            drifts.append(
                _spectral_norm(_difference(invariant, _scaled(alpha2, invariant_bar)))
            )
        values["drift"] = max(drifts, key=lambda x: x.upper())
        end = weights[0]
        for w in weights[1:]:
            end = _product(end, w)
        values["product_norm"] = _frobenius_squared(end).sqrt()
    return values


def drift_tolerance(state: FlowState) -> arb:
    r"""How far a relation derived through (35) may miss at ``state``:
    :math:`2Ld\,\delta` (each bound of the proof uses the invariant of at
    most :math:`L - l` layers, each through a trace, :math:`\le d\delta`,
    and a quadratic form, :math:`\le \delta`); 0 at :math:`t = 0`."""
    if state.initial:
        return arb(0)
    depth, dimension = len(state.weights), len(state.weights[0])
    return 2 * depth * dimension * quantities(state)["drift"].upper()


#: alpha of the pretrained endpoints of (51).
ENDPOINT_ALPHAS = (
    Fraction(1, 2),
    Fraction(1, 4),
    Fraction(1, 8),
    Fraction(1, 16),
    Fraction(1, 32),
)


#: The initializations of :func:`initial_states` the endpoints flow from.
ENDPOINT_RUNS = 2


def endpoint_initializations(
    depth: int = 3, runs: int = ENDPOINT_RUNS
) -> list[tuple[Matrix, ...]]:
    r"""The first ``runs`` initializations :math:`\bar W` of :func:`initial_states`."""
    return list({s.initialization: None for s in initial_states(depth)})[:runs]


def endpoint_run(
    initialization: tuple[Matrix, ...], alpha: Fraction
) -> networks.DeepLinearResult:
    r"""The flow from :math:`\alpha\bar W` to its end: midpoint rule, adaptive
    steps, until the loss is below :data:`CONVERGED_LOSS` times
    :math:`\tfrac12\|\beta_s\|^2`."""
    weights = [
        np.array([[float(alpha * e) for e in row] for row in w])[None]
        for w in initialization
    ]
    return networks.pretrain(weights, SOURCE_TASK, tol=CONVERGED_LOSS)


@functools.cache
def endpoint_states(depth: int = 3, runs: int = ENDPOINT_RUNS) -> tuple[FlowState, ...]:
    r"""The converged ends of the flow from :math:`\alpha\bar W`
    (:func:`endpoint_run`), for each alpha of :data:`ENDPOINT_ALPHAS` and
    each initialization of :func:`endpoint_initializations`."""
    states = []
    for bar in endpoint_initializations(depth, runs):
        for alpha in ENDPOINT_ALPHAS:
            result = endpoint_run(bar, alpha)
            states.append(
                FlowState(
                    tuple(_exact(w[0]) for w in result.weights),
                    bar,
                    alpha,
                    f"converged after {int(result.steps[0])} midpoint steps",
                    True,
                )
            )
    return tuple(states)
