r"""Claims of features-are-fate, Appendix B.2: the loss decay of Lemma 3.3's proof.

The chain (36)-(40) bounds the decay of the population loss of the deep linear
network $f(x) = x^\top W_1 W_2 \cdots W_L$ (eq. (9); $W_l \in \mathbb{R}^{d\times d}$
for $l < L$, $W_L \in \mathbb{R}^{d\times 1}$) under the gradient flow (6),
$\dot W_l = -\nabla_l \mathcal{L}$. With $x \sim N(0, I_d)$ (Assumption 3.1) and
no label noise the population loss (4) is
$\mathcal{L} = \tfrac12 \|r\|_2^2$, $r = W_1 W_2 \cdots W_L - \beta_s$ (the text's
$r$; (49) $\lim_t \mathcal{L}(t) = 0$ needs the noise-free loss).

Each chain is written at a concrete shape ($d = 2$, $L = 2$ and $L = 3$) with a
symbol for every weight and target entry: $\nabla_l \mathcal{L}$ is the matrix
of SymPy's partial derivatives $\partial \mathcal{L}/\partial (W_l)_{ij}$ (the
definition), $\dot{\mathcal{L}}$ SymPy's time derivative of
$\mathcal{L}(W(t))$ with every entry a function of $t$, its $\dot W_l$ left as
symbols $V_l$. Step (36), the chain rule, is decided for every $V_l$; the later
steps under the flow, $V_l = -\nabla_l \mathcal{L}$ (the chain's substitutions).
$\sigma_{\min}^2(M)$ of a $2\times 2$ matrix is written exactly,
$(\|M\|_F^2 - \sqrt{\|M\|_F^4 - 4\det(M)^2})/2$.

The extracted text prints (38) as ``≤ ||∇_L L||_F^2``, without a minus sign,
while (39) and (40) carry theirs: read as printed, step (39),
$\|\nabla_L \mathcal{L}\|_F^2 = -\|W_{L-1}^\top \cdots W_1^\top r\|_2^2$, fails
(the left side is a sum of squares, the right its negative). The minus of (38)
may have been lost in the extraction; with it, (38)-(39) read
$-\|\nabla_L \mathcal{L}\|_F^2 = -\|W_{L-1}^\top\cdots W_1^\top r\|_2^2$, which
the claim ``39:last-layer-gradient`` checks.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import sympy as sp

from implicit_bias.claims.certify import exact_point
from implicit_bias.claims.checks import judge_relation, relation_check
from implicit_bias.claims.derivation import Derivation, Step
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
)
from implicit_bias.sources.features_are_fate.source import SOURCE_ID

__all__ = [
    "CLAIMS",
    "DERIVATIONS",
    "GLYPHS",
    "DeepLinearNetwork",
    "deep_linear_network",
]

#: The data dimension of every instance (hidden widths d_l = d, as in (9)).
DIMENSION = 2
#: The depths the chain is checked at.
DEPTHS = (2, 3)
#: The depths of the networks built (Lemma 3.3's bounds (42)-(47) use L = 4 too).
NETWORK_DEPTHS = (2, 3, 4)

_t = sp.Symbol("t", real=True)


class DeepLinearNetwork:
    r"""The population loss of $x^\top W_1 \cdots W_L$ at a concrete shape.

    Attributes:
      depth: $L$.
      weights: $W_1, \dots, W_L$ with symbolic entries ``w{l}_{i}{j}``.
      velocities: $\dot W_l$ as symbols ``v{l}_{i}{j}``.
      target: $\beta_s$ with symbolic entries.
      residual: $r = W_1 \cdots W_L - \beta_s$.
      loss: $\mathcal{L} = \tfrac12 r^\top r$.
    """

    def __init__(self, depth: int, dimension: int = DIMENSION) -> None:
        shapes = [(dimension, dimension)] * (depth - 1) + [(dimension, 1)]
        self.depth = depth
        self.weights = [
            _entries(f"w{layer}", rows, columns)
            for layer, (rows, columns) in enumerate(shapes, start=1)
        ]
        self.velocities = [
            _entries(f"v{layer}", rows, columns)
            for layer, (rows, columns) in enumerate(shapes, start=1)
        ]
        self.target = _entries("beta", dimension, 1)
        self.residual = _product(self.weights) - self.target
        self.loss = (self.residual.T * self.residual)[0, 0] / 2

    def gradient(self, layer: int) -> sp.Matrix:
        r"""$\nabla_l \mathcal{L}$: the partial derivatives in $W_l$'s entries."""
        weight = self.weights[layer - 1]
        return weight.applyfunc(lambda entry: sp.diff(self.loss, entry))

    def loss_rate(self) -> sp.Expr:
        r"""$\dot{\mathcal{L}}$: the time derivative of $\mathcal{L}(W(t))$.

        Every entry of $W_l$ is a function of $t$ and $\dot W_l = V_l$.
        """
        paths = {
            entry: sp.Function(entry.name)(_t)
            for weight in self.weights
            for entry in weight
        }
        rate = sp.diff(self.loss.subs(paths), _t)
        back = {
            sp.Derivative(path, _t): velocity
            for (entry, path), velocity in zip(
                paths.items(),
                (v for velocity in self.velocities for v in velocity),
                strict=True,
            )
        }
        return rate.subs(back).subs({path: entry for entry, path in paths.items()})

    def flow(self) -> dict[sp.Expr, sp.Expr]:
        r"""The gradient flow (6): $V_l = -\nabla_l \mathcal{L}$, entry by entry."""
        return {
            velocity: -gradient
            for layer in range(1, self.depth + 1)
            for velocity, gradient in zip(
                self.velocities[layer - 1], self.gradient(layer), strict=True
            )
        }

    def hidden_transpose(self) -> sp.Matrix:
        r"""$W_{L-1}^\top \cdots W_1^\top$."""
        return _product([w.T for w in reversed(self.weights[:-1])])


def deep_linear_network(depth: int) -> DeepLinearNetwork:
    """The network of depth ``depth`` (2, 3 or 4) at d = 2 (one per depth)."""
    return _NETWORKS[depth]


def _entries(name: str, rows: int, columns: int) -> sp.Matrix:
    return sp.Matrix(rows, columns, lambda i, j: sp.Symbol(f"{name}_{i}{j}", real=True))


def _product(matrices: list[sp.Matrix]) -> sp.Matrix:
    product = matrices[0]
    for matrix in matrices[1:]:
        product = product * matrix
    return product


def _inner(a: sp.Matrix, b: sp.Matrix) -> sp.Expr:
    """The Frobenius inner product <A, B> = tr(A^T B)."""
    return sum((x * y for x, y in zip(a, b, strict=True)), sp.Integer(0))


def _smallest_singular_value_squared(matrix: sp.Matrix) -> sp.Expr:
    r"""$\sigma_{\min}^2(M)$ of a $2\times 2$ matrix, exactly."""
    frobenius = _inner(matrix, matrix)
    return (frobenius - sp.sqrt(frobenius**2 - 4 * matrix.det() ** 2)) / 2


_NETWORKS = {depth: DeepLinearNetwork(depth) for depth in NETWORK_DEPTHS}

_LETTERS = {"w": "W", "v": r"\dot{W}", "beta": r"\beta_s"}


def _glyph(entry: sp.Symbol) -> str:
    """``w2_01`` is the (0, 1) entry of W_2: ``(W_{2})_{01}``."""
    name, _, indices = entry.name.partition("_")
    letter = name.rstrip("0123456789")
    layer = name[len(letter) :]
    matrix = _LETTERS[letter] + (f"_{{{layer}}}" if layer else "")
    return f"({matrix})_{{{indices}}}"


#: The entries of the networks' matrices in the paper's notation.
GLYPHS: dict[sp.Symbol, str] = {
    entry: _glyph(entry)
    for network in _NETWORKS.values()
    for matrix in (*network.weights, *network.velocities, network.target)
    for entry in matrix
}

_QUOTE = (
    "Let r = (W_1 W_2 ... W_L − β_s) and note that L̇ = Σ_{l=1}^L ⟨∇_l L, Ẇ_l⟩ "
    "(36) = −Σ_{l=1}^L ||∇_l L||_F^2 (37) ≤ ||∇_L L||_F^2 (38) = "
    "−||W_{L−1}^T ... W_1^T r||_2^2 (39) ≤ −2σ_min^2(W_{L−1}^T ... W_1^T) L (40) "
    "where σ_min(W_{L−1}^T ... W_1^T) is the smallest singular value of "
    "W_{L−1}^T ... W_1^T"
)

_ASSUMPTIONS = (
    "x ~ N(0, I_d) (Assumption 3.1) and the noise-free population loss, so "
    "L = ||r||_2^2 / 2 with r = W_1 ... W_L - beta_s",
    "gradient flow (6): dW_l/dt = -grad_l L (step (36) for every dW_l/dt)",
    "hidden widths d_l = d (eq. (9)), so W_{L-1}^T ... W_1^T is square",
    "the text as extracted prints (38) without a minus sign; (39) is judged "
    "against it as printed (the minus may be an extraction artefact)",
)


def _chain_rule_judge(network: DeepLinearNetwork) -> Callable[[sp.Basic], Verdict]:
    # (36) is the chain rule, true for every velocity: judged without the flow.
    del network

    def judge(relation: sp.Basic) -> Verdict:
        return judge_relation(relation, budget_seconds=20.0, points=50)

    return judge


#: The scales alpha of the exact points of step (38), cycled.
SMALL_SCALES = (sp.Rational(1, 2**4), sp.Rational(1, 2**8), sp.Rational(1, 2**12))
#: Exact points of step (38) at the small initialization.
SMALL_POINTS = 24
_GRID = 2**20


def _grid_matrix(values: np.ndarray) -> sp.Matrix:
    """``values`` rounded to the grid 2^-20 Z, as exact rationals."""
    rows, columns = values.shape
    integers = np.rint(values * _GRID).astype(np.int64).ravel()
    return sp.Matrix(rows, columns, [sp.Rational(int(v), _GRID) for v in integers])


@functools.cache
def small_initialization_points(depth: int) -> tuple[dict[sp.Symbol, sp.Rational], ...]:
    r"""Exact points $W_l = \alpha \bar W_l$ of the feature-learning regime.

    $\bar W_l$ and $\beta_s$ standard Gaussian rounded to $2^{-20}\mathbb{Z}$,
    $\alpha$ cycling over :data:`SMALL_SCALES`: where the flow starts when
    $\alpha \to 0$. There every $\nabla_l \mathcal{L}$ is of order
    $\alpha^{L-1}$ and $\|\nabla_l\mathcal{L}\|_F^2$ of order
    $\alpha^{2(L-1)}$, so a term of the wrong degree in the weights is seen.
    """
    network = _NETWORKS[depth]
    rng = np.random.default_rng(depth)
    points = []
    for number in range(SMALL_POINTS):
        alpha = SMALL_SCALES[number % len(SMALL_SCALES)]
        point: dict[sp.Symbol, sp.Rational] = {}
        for weight in network.weights:
            drawn = _grid_matrix(rng.standard_normal(weight.shape)) * alpha
            point.update(zip(weight, drawn, strict=True))
        target = _grid_matrix(rng.standard_normal(network.target.shape))
        point.update(zip(network.target, target, strict=True))
        points.append(point)
    return tuple(points)


_SIDES = (
    "step 3: lhs is its left side (the expression before it), rhs its right "
    "side (the one it arrives at); "
)


def _at_small_initialization(depth: int, relation: sp.Rel) -> Verdict | None:
    """``relation`` (lhs <= rhs, under the flow) decided exactly at the points
    of :func:`small_initialization_points`: ``fails`` at the first point where
    it does not hold, ``inconclusive`` where a side is not an exact rational,
    None when it holds at all of them."""
    network = _NETWORKS[depth]
    flowed = relation.xreplace(network.flow())
    for number, point in enumerate(small_initialization_points(depth), start=1):
        gap = (flowed.rhs - flowed.lhs).xreplace(point)
        if not gap.is_Rational:
            return Verdict.inconclusive(
                f"{_SIDES}rhs - lhs is not an exact rational at the "
                f"small-initialization point {number}",
                Reason.UNDECIDED,
            )
        if gap < 0 or (gap == 0 and isinstance(relation, sp.Lt)):
            coordinates = {s: Fraction(int(v.p), int(v.q)) for s, v in point.items()}
            counterexample = (
                f"{_SIDES}at the small-initialization point {number} (W_l = "
                f"alpha Wbar_l): rhs - lhs = {gap} ({float(gap):.6g}), exact "
                "rationals"
            )
            return Verdict.fails(
                f"exact rational arithmetic refutes it: {counterexample}",
                Basis.PROOF,
                counterexample,
                point=exact_point(coordinates),
            )
    return None


def _judge_with_small_initialization(depth: int, relation: sp.Basic) -> Verdict:
    """Step (38): the chain's default judge, then exactly at the points of
    :func:`small_initialization_points`."""
    network = _NETWORKS[depth]
    verdict = judge_relation(
        relation, substitutions=network.flow(), budget_seconds=20.0, points=50
    )
    if verdict.status != Status.HOLDS or not isinstance(relation, (sp.Le, sp.Lt)):
        return dataclasses.replace(verdict, detail=_SIDES + verdict.detail)
    refuted = _at_small_initialization(depth, relation)
    if refuted is not None:
        return refuted
    return Verdict.holds(
        f"{_SIDES}{verdict.detail}; and rhs - lhs >= 0 exactly at "
        f"{SMALL_POINTS} points of the small initialization W_l = alpha Wbar_l "
        "(alpha in {2^-4, 2^-8, 2^-12}, Wbar_l and beta_s Gaussian on the grid "
        "2^-20 Z), where the flow of the regime alpha -> 0 starts",
        Basis.NUMERICAL,
    )


def _chain(depth: int) -> Derivation:
    network = _NETWORKS[depth]
    layers = range(1, depth + 1)
    return Derivation(
        source=SOURCE_ID,
        equation="36-40",
        label=f"loss-decay-depth-{depth}",
        title=(f"The loss decay of Lemma 3.3's proof, L = {depth}, d = {DIMENSION}"),
        start=network.loss_rate,
        steps=(
            Step(
                lambda: sum(
                    (
                        _inner(network.gradient(layer), network.velocities[layer - 1])
                        for layer in layers
                    ),
                    sp.Integer(0),
                ),
                "the chain rule: dL/dt = sum_l <grad_l L, dW_l/dt>, for every "
                "velocity dW_l/dt",
                equation="36",
                quote="L̇ = Σ_{l=1}^L ⟨∇_l L, Ẇ_l⟩ (36)",
                judge=_chain_rule_judge(network),
            ),
            Step(
                lambda: (
                    -sum(
                        (
                            _inner(network.gradient(layer), network.gradient(layer))
                            for layer in layers
                        ),
                        sp.Integer(0),
                    )
                ),
                "under gradient flow dW_l/dt = -grad_l L",
                equation="37",
                quote="= −Σ_{l=1}^L ||∇_l L||_F^2 (37)",
            ),
            Step(
                lambda: _inner(network.gradient(depth), network.gradient(depth)),
                "as printed (no minus sign): a sum of squares bounds a non-positive "
                "sum from above",
                relation="<=",
                equation="38",
                quote="≤ ||∇_L L||_F^2 (38)",
                judge=functools.partial(_judge_with_small_initialization, depth),
            ),
            Step(
                lambda: (
                    -_inner(
                        network.hidden_transpose() * network.residual,
                        network.hidden_transpose() * network.residual,
                    )
                ),
                "the last layer's gradient written out, grad_L L = "
                "W_{L-1}^T ... W_1^T r; read against (38) as printed, which "
                "has no minus sign (possibly an extraction artefact)",
                equation="39",
                quote="= −||W_{L−1}^T ... W_1^T r||_2^2 (39)",
                expected=Status.FAILS,
                slip="minus-sign-38",
            ),
            Step(
                lambda: (
                    -2
                    * _smallest_singular_value_squared(network.hidden_transpose())
                    * network.loss
                ),
                "||M r||^2 >= sigma_min^2(M) ||r||^2 for a square M, and ||r||^2 = 2 L",
                relation="<=",
                equation="40",
                quote="≤ −2σ_min^2(W_{L−1}^T ... W_1^T) L (40)",
            ),
        ),
        quote=_QUOTE,
        reading=Reading.PRINTED,
        regime=(
            f"gradient flow on the population loss (4), L = {depth}, d = "
            f"{DIMENSION}: W_l 2x2 for l < L, W_L 2x1, beta_s 2x1, every entry a "
            "symbol (the text's L >= 2 at one depth and width)"
        ),
        assumptions=_ASSUMPTIONS,
        substitutions=network.flow(),
        points=50,
    )


DERIVATIONS: tuple[Derivation, ...] = tuple(_chain(depth) for depth in DEPTHS)


def _last_layer_gradient(depth: int) -> sp.Basic:
    network = _NETWORKS[depth]
    gradient = network.gradient(depth)
    written_out = network.hidden_transpose() * network.residual
    # Unevaluated: at L = 2 SymPy would fold the identity to True itself.
    return sp.Eq(
        -_inner(gradient, gradient), -_inner(written_out, written_out), evaluate=False
    )


def _last_layer_claim(depth: int, label: str) -> Claim:
    relation = functools.partial(_last_layer_gradient, depth)
    return Claim(
        SOURCE_ID,
        "39",
        label,
        Kind.IDENTITY,
        "-||grad_L L||_F^2 = -||W_{L-1}^T ... W_1^T r||_2^2: (38)-(39) with a "
        "minus sign in (38), which the extracted text may have lost",
        relation_check(relation, points=50),
        Status.HOLDS,
        formula=relation,
        corrects=f"{SOURCE_ID}:39:loss-decay-depth-{depth}-step-4",
        assumptions=_ASSUMPTIONS[:3],
        quote="≤ ||∇_L L||_F^2 (38) = −||W_{L−1}^T ... W_1^T r||_2^2 (39)",
        reading=Reading.INTERPRETATION,
        regime=(
            f"L = {depth}, d = {DIMENSION}, every entry of the weights and beta_s "
            "a symbol"
        ),
    )


CLAIMS: tuple[Claim, ...] = (
    _last_layer_claim(3, "last-layer-gradient"),
    _last_layer_claim(2, "last-layer-gradient-depth-2"),
)
