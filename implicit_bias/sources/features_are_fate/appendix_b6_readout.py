r"""Claims of features-are-fate, Appendix B.6: the linear-transfer readout, (104)-(106),
(112) and (114).

The proof of Theorem 3.7 begins with the pretrained features of Theorem 3.4,
:math:`\Phi = (X\beta_s)v_{L-1}^\top` (122), and their pseudoinverse

.. math::
   \Phi^+ = \frac{v_{L-1}(X\beta_s)^\top}{\|X\beta_s\|_2^2}, \qquad (104)

then writes the transferred coefficient
:math:`\hat\beta = W_1\cdots W_{L-1}\hat W_L` (105)
:math:`= W_1\cdots W_{L-1}\Phi^+y_t` (106) :math:`= b\beta_s` (107), and
changes variables to :math:`z = X\beta_s`, :math:`w = X\nu`:
:math:`E_{X,\epsilon} b = E_{z,w,\epsilon} b` (112),
:math:`E_{X,\epsilon} b^2 = E_{z,w,\epsilon} b^2` (114).

* (104): :math:`\Phi^+` is the one matrix satisfying the four Penrose
  equations :math:`\Phi P\Phi = \Phi`, :math:`P\Phi P = P`,
  :math:`(\Phi P)^\top = \Phi P`, :math:`(P\Phi)^\top = P\Phi`; the printed
  :math:`P` is checked to satisfy them, exactly, on the explicit instance
  :math:`n = 3`, :math:`d = 2` (every entry of :math:`X\beta_s` a symbol,
  :math:`v_{L-1}` the unit vector :math:`((1-t^2), 2t)/(1+t^2)`, :math:`t`
  a symbol), and to equal the Tikhonov limit
  :math:`\lim_{\lambda\to0^+}(\Phi^\top\Phi+\lambda I)^{-1}\Phi^\top`
  computed independently.
* (105)-(107) as a chain at :math:`L = 3`, :math:`n = 3`, :math:`d = 2`,
  with the rank-one layers of Theorem 3.4 (:math:`W_1 = \beta_s u^\top`,
  :math:`W_2 = u v^\top`, unit :math:`\beta_s, u, v`, so that
  :math:`W_1W_2 = \beta_s v^\top` (123)) and :math:`X` a matrix of symbols:
  :math:`\hat\beta` starts as the gradient in :math:`x` of the trained
  network (9), :math:`x^\top W_1W_2\hat W_L`; (106) substitutes for
  :math:`\hat W_L` the minimum-norm solution of (11), computed as the
  Tikhonov limit (not from (104)).
* (112), (114): :math:`b` depends on :math:`X` only through
  :math:`z = X\beta_s` and :math:`w = X\nu` (the identity is checked exactly
  after the substitution), and the rows :math:`(x_i^\top\beta_s,
  x_i^\top\nu)` of :math:`(z, w)` are :math:`\mathcal N(0, I_2)` -- the
  covariance :math:`[\beta_s\,\nu]^\top[\beta_s\,\nu] = I_2` is checked
  exactly -- so the laws of :math:`b`, and its moments, agree. A Monte Carlo
  comparison of the two sides (drawing :math:`X`, or drawing :math:`z, w`)
  checks the same at :math:`n = 12`, :math:`d = 20`.

Tolerances. The symbolic checks are exact (tolerance 0). Two Monte-Carlo
means must differ by at most 4 standard errors of their difference (a
two-sided normal probability of 6e-5 of failing by chance; seeds are fixed).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import sympy as sp

from implicit_bias.claims.checks import RelationCheck, check_close, check_identity
from implicit_bias.claims.derivation import Derivation, Step
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Status,
    Verdict,
    conjunction,
)
from implicit_bias.sources.features_are_fate._common import STANDARD_ERRORS
from implicit_bias.sources.features_are_fate._costs import MonteCarloDraws
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.theory import transfer_asymptotics as theory

__all__ = [
    "CLAIMS",
    "DERIVATIONS",
    "DIMENSION",
    "SAMPLES",
    "coefficient_draws",
    "judge_with_readout",
    "network_gradient",
    "rank_one_layers",
    "tikhonov_limit",
    "unit_vector",
]

#: The explicit instance of the symbolic checks: n samples in d dimensions.
SAMPLES, DIMENSION = 3, 2

_theta, _sigma = theory.theta, theory.sigma
_ridge = sp.Symbol("lambda", positive=True)


def unit_vector(parameter: sp.Expr) -> sp.Matrix:
    r"""The unit vector :math:`((1-t^2), 2t)^\top/(1+t^2)` of
    :math:`\mathbb R^2` (``parameter`` is :math:`t`): every unit vector but
    :math:`(-1, 0)`, with rational entries, so that products stay rational
    functions SymPy cancels exactly."""
    return sp.Matrix([1 - parameter**2, 2 * parameter]) / (1 + parameter**2)


def _parameter(name: str) -> sp.Symbol:
    return sp.Symbol(name, real=True)


@functools.cache
def rank_one_layers() -> dict[str, sp.Matrix]:
    r"""The symbolic instance of Theorem 3.4's pretrained network at L = 3.

    Returns ``x`` (an input), ``X`` (n x d symbols), ``beta_s``, ``nu``
    (:math:`\perp\beta_s`), ``u``, ``v`` (unit vectors), ``W_1 = beta_s u^T``,
    ``W_2 = u v^T`` (so :math:`W_1W_2 = \beta_s v^\top`, eq. (123)),
    ``Phi = X W_1 W_2`` (:math:`= (X\beta_s)v^\top`, eq. (122)), ``z =
    X beta_s``, ``y`` (n target labels, symbols) and ``W_L`` (the readout,
    symbols).
    """
    source = unit_vector(_parameter("p"))
    orthogonal = sp.Matrix([-source[1], source[0]])
    middle = unit_vector(_parameter("q"))
    last = unit_vector(_parameter("t"))
    data = theory.symbol_matrix("x", SAMPLES, DIMENSION)
    first_layer = source * middle.T
    second_layer = middle * last.T
    return {
        "x": theory.symbol_matrix("xi", DIMENSION, 1),
        "X": data,
        "beta_s": source,
        "nu": orthogonal,
        "u": middle,
        "v": last,
        "W_1": first_layer,
        "W_2": second_layer,
        "Phi": data * first_layer * second_layer,
        "z": data * source,
        "y": theory.symbol_matrix("y", SAMPLES, 1),
        "W_L": theory.symbol_matrix("w_L", DIMENSION, 1),
    }


def tikhonov_limit(features: sp.Matrix) -> sp.Matrix:
    r""":math:`\lim_{\lambda\to0^+}(\Phi^\top\Phi+\lambda I)^{-1}\Phi^\top`,
    the pseudoinverse of ``features`` (:math:`\Phi`), computed without it.

    The inverse is the adjugate over the determinant, each entry cancelled to
    a rational function of :math:`\lambda`; the limit is then its value at
    0 when the cancelled denominator does not vanish there, else SymPy's
    one-sided limit.
    """
    regularized = features.T * features + _ridge * sp.eye(features.cols)
    solution = regularized.adjugate() / sp.factor(regularized.det()) * features.T

    def limit(entry: sp.Expr) -> sp.Expr:
        cancelled = sp.cancel(sp.factor(entry))
        _, denominator = sp.fraction(cancelled)
        if sp.cancel(denominator.subs(_ridge, 0)) != 0:
            return sp.cancel(cancelled.subs(_ridge, 0))
        return sp.limit(cancelled, _ridge, 0, "+")

    return solution.applyfunc(limit)


def _printed_pseudoinverse(layers: dict[str, sp.Matrix]) -> sp.Matrix:
    """(104): v (X beta_s)^T / ||X beta_s||^2."""
    z = layers["z"]
    return layers["v"] * z.T / (z.T * z)[0, 0]


def _pseudoinverse_relation() -> sp.Basic:
    """Eq((104)'s left side by the Tikhonov limit, (104)'s right side)."""
    projected, last = _coordinates("z"), rank_one_layers()["v"]
    return sp.Eq(
        tikhonov_limit(projected * last.T),
        last * projected.T / (projected.T * projected)[0, 0],
        evaluate=False,
    )


def _judge_pseudoinverse(relation: sp.Basic) -> Verdict:
    r"""Decide ``Eq(Phi^+, P)`` for :math:`\Phi = z v^\top`: the four Penrose
    equations for the right side ``P`` and the identity of both sides, each
    by :func:`check_identity` (exact, or a certified instance)."""
    features = _coordinates("z") * rank_one_layers()["v"].T
    candidate = relation.rhs
    parts = {
        "Phi P Phi = Phi": (features * candidate * features, features),
        "P Phi P = P": (candidate * features * candidate, candidate),
        "(Phi P)^T = Phi P": ((features * candidate).T, features * candidate),
        "(P Phi)^T = P Phi": ((candidate * features).T, candidate * features),
        "the Tikhonov limit = P": (relation.lhs, candidate),
    }
    verdicts = {
        name: check_identity(lhs, rhs, budget_seconds=10.0)
        for name, (lhs, rhs) in parts.items()
    }
    for name, verdict in verdicts.items():
        if verdict.status != Status.HOLDS:
            return verdict.with_detail(f"{name}: {verdict.detail}")
    return conjunction(
        list(verdicts.values()),
        f"n = {SAMPLES}, d = {DIMENSION}, Phi = z v^T (z symbols, |v| = 1): the "
        "Penrose equations, which determine Phi^+ uniquely, hold for "
        "v z^T/||z||^2, which is also lim_{lambda -> 0+} (Phi^T Phi + lambda "
        "I)^{-1} Phi^T ("
        + "; ".join(f"{k}: {v.detail}" for k, v in verdicts.items())
        + ")",
    )


# --- (105)-(107): the transferred coefficient


def network_gradient() -> sp.Matrix:
    r"""The coefficient of the network (9) after transfer: the gradient in
    :math:`x` of :math:`f(x) = x^\top W_1 W_2 \hat W_L`, evaluated layer by
    layer (:math:`\hat W_L` a vector of symbols)."""
    layers = rank_one_layers()
    x = layers["x"]
    output = (((x.T * layers["W_1"]) * layers["W_2"]) * layers["W_L"])[0, 0]
    return sp.Matrix([sp.diff(output, entry) for entry in x])


def _eq105() -> sp.Matrix:
    """(105): W_1 W_2 W_hat_L."""
    layers = rank_one_layers()
    return layers["W_1"] * layers["W_2"] * layers["W_L"]


def _eq106() -> sp.Matrix:
    """(106): W_1 W_2 Phi^+ y_t with Phi^+ as printed in (104)."""
    layers = rank_one_layers()
    return layers["W_1"] * layers["W_2"] * _printed_pseudoinverse(layers) * layers["y"]


def _eq107() -> sp.Matrix:
    """(107) with (108): b beta_s, b = (X beta_s)^T y_t/||X beta_s||^2."""
    layers = rank_one_layers()
    z = layers["z"]
    coefficient = (z.T * layers["y"])[0, 0] / (z.T * z)[0, 0]
    return coefficient * layers["beta_s"]


#: Exact rational instances at which a readout step is judged.
INSTANCES = 6


def _rational_instances(symbols: list[sp.Symbol], seed: int) -> list[dict]:
    """``INSTANCES`` points giving each of ``symbols`` a random rational in
    [-21, 21] (in (0, 21] if it is positive) with denominator up to 7 (a
    fixed seed)."""
    rng = np.random.default_rng(seed)
    return [
        {
            # A positive symbol (lambda) gets a positive value.
            s: sp.Rational(
                int(rng.integers(1 if s.is_positive else -21, 22)),
                int(rng.integers(1, 8)),
            )
            for s in symbols
        }
        for _ in range(INSTANCES)
    ]


def judge_with_readout(
    readout: Callable[[dict], sp.Matrix], what: str
) -> Callable[[sp.Basic], Verdict]:
    r"""A judge substituting ``readout(point)`` for the symbols of
    :math:`\hat W_L` in both sides at :data:`INSTANCES` exact rational points,
    then :func:`check_identity` on the rational matrices (exact arithmetic: a
    nonzero entry is a counterexample)."""

    def judge(relation: sp.Basic) -> Verdict:
        layers = rank_one_layers()
        readout_symbols = set(layers["W_L"])
        symbols = sorted(
            (relation.lhs.free_symbols | relation.rhs.free_symbols | set(layers["y"]))
            - readout_symbols,
            key=str,
        )
        verdicts = []
        for point in _rational_instances(symbols, seed=106):
            # The readout may hold symbols of the point (lambda): evaluate them too.
            values = readout(point).xreplace(point)
            mapping = {**point, **dict(zip(layers["W_L"], values, strict=True))}
            lhs, rhs = (side.xreplace(mapping) for side in relation.args)
            verdict = check_identity(lhs, rhs, budget_seconds=10.0)
            if verdict.status != Status.HOLDS:
                return verdict.with_detail(
                    f"W_hat_L = {what} at the exact rational point {point}: "
                    f"{verdict.detail}"
                )
            verdicts.append(verdict)
        return Verdict.holds(
            f"W_hat_L = {what} substituted at {INSTANCES} random exact rational "
            f"points (the other symbols: {', '.join(map(str, symbols))}); both sides "
            "equal exactly at each (tolerance 0)",
            Basis.NUMERICAL,
        )

    return judge


def _minimum_norm_readout(point: dict) -> sp.Matrix:
    """The minimum-norm solution of (11), lim ridge, for Phi = X W_1 W_2 at
    ``point``."""
    layers = rank_one_layers()
    return tikhonov_limit(layers["Phi"].xreplace(point)) * layers["y"].xreplace(point)


_READOUT_REGIME = (
    f"L = 3, n = {SAMPLES}, d = {DIMENSION}: X and y_t symbols, the rank-one "
    "layers of Theorem 3.4 W_1 = beta_s u^T, W_2 = u v^T with unit beta_s, u, v "
    "rational in one symbol each (W_1 W_2 = beta_s v^T, (123)); (105)-(107) are "
    "stated for every L, n, d"
)

DERIVATIONS: tuple[Derivation, ...] = (
    Derivation(
        source=SOURCE_ID,
        equation="105-107",
        label="readout",
        title="The coefficient of the network after linear transfer",
        start=network_gradient,
        steps=(
            Step(
                _eq105,
                "the network (9) is linear in x: its coefficient is the product "
                "of its layers",
                equation="105",
                quote="β̂ = W_1 ... W_{L−1} Ŵ_L (105)",
            ),
            Step(
                _eq106,
                "W_hat_L solves (11) with minimum norm: Phi^+ y_t (here computed "
                "as lim_{lambda -> 0+} (Phi^T Phi + lambda I)^{-1} Phi^T y_t and "
                "compared with (104)'s Phi^+ y_t)",
                equation="106",
                quote="= W_1 ... W_{L−1} Φ^+ y_t (106)",
                judge=judge_with_readout(
                    _minimum_norm_readout,
                    "lim_{lambda -> 0+} (Phi^T Phi + lambda I)^{-1} Phi^T y_t",
                ),
            ),
            Step(
                _eq107,
                "W_1 ... W_{L-1} = beta_s v^T (123) and v^T v = 1",
                equation="107",
                quote="= bβ_s (107)",
            ),
        ),
        quote="The coefficent vector β̂ after linear transfer is",
        reading=Reading.PRINTED,
        regime=_READOUT_REGIME,
        assumptions=(
            "Phi = X W_1 ... W_{L-1} = (X beta_s) v^T (Theorem 3.4)",
            "W_hat_L the minimum-norm solution of (11)",
        ),
    ),
)


# --- (112), (114): the change of variables z = X beta_s, w = X nu


def _coordinates(name: str) -> sp.Matrix:
    return sp.Matrix([sp.Symbol(f"{name}_{i + 1}", real=True) for i in range(SAMPLES)])


def _coefficient_in_data(power: int) -> sp.Expr:
    r""":math:`b^{power}` as a function of :math:`X` and :math:`\epsilon` (108),
    :math:`y_t = X\beta_t + \epsilon`,
    :math:`\beta_t = \cos\theta\,\beta_s + \sin\theta\,\nu`."""
    layers = rank_one_layers()
    target = sp.cos(_theta) * layers["beta_s"] + sp.sin(_theta) * layers["nu"]
    labels = layers["X"] * target + _coordinates("epsilon")
    z = layers["z"]
    return ((z.T * labels)[0, 0] / (z.T * z)[0, 0]) ** power


def _coefficient_in_projections(power: int) -> sp.Expr:
    r""":math:`b^{power}` as a function of :math:`z, w, \epsilon`:
    :math:`z^\top(z\cos\theta + w\sin\theta + \epsilon)/\|z\|^2`."""
    z, w, noise = (_coordinates(n) for n in ("z", "w", "epsilon"))
    labels = z * sp.cos(_theta) + w * sp.sin(_theta) + noise
    return ((z.T * labels)[0, 0] / (z.T * z)[0, 0]) ** power


def _change_of_variables(power: int) -> Callable[[], sp.Basic]:
    def relation() -> sp.Basic:
        return sp.Eq(
            _coefficient_in_data(power),
            _coefficient_in_projections(power),
            evaluate=False,
        )

    return relation


def _judge_change_of_variables(relation: sp.Basic) -> Verdict:
    r"""``Eq(b(X, eps), b(z, w, eps))``: the right side with :math:`z = X\beta_s`,
    :math:`w = X\nu` substituted equals the left exactly, and the law of each
    row :math:`(z_i, w_i) = (x_i^\top\beta_s, x_i^\top\nu)`,
    :math:`x_i\sim\mathcal N(0, I_d)`, is :math:`\mathcal N(0, I_2)`
    (covariance :math:`[\beta_s\,\nu]^\top[\beta_s\,\nu]`, exactly): so both
    sides have the same law and the same expectation."""
    layers = rank_one_layers()
    projections = {
        **dict(zip(_coordinates("z"), layers["X"] * layers["beta_s"], strict=True)),
        **dict(zip(_coordinates("w"), layers["X"] * layers["nu"], strict=True)),
    }
    pointwise = check_identity(
        relation.lhs, relation.rhs.xreplace(projections), budget_seconds=20.0
    )
    if pointwise.status != Status.HOLDS:
        return pointwise.with_detail(
            f"with z = X beta_s, w = X nu the two sides differ: {pointwise.detail}"
        )
    directions = layers["beta_s"].row_join(layers["nu"])
    covariance = check_identity(directions.T * directions, sp.eye(2))
    return conjunction(
        [pointwise, covariance],
        f"n = {SAMPLES}, d = {DIMENSION}, X and eps symbols: b(X, eps) = b(z, w, "
        f"eps) at z = X beta_s, w = X nu ({pointwise.detail}); each row (z_i, w_i) "
        "is a linear image of x_i ~ N(0, I_d) with covariance [beta_s nu]^T "
        f"[beta_s nu] = I_2 ({covariance.detail}), independent across i and of "
        "eps: (z, w, eps) has the law the right side averages over",
    )


# --- (112)-(114) by Monte Carlo

#: The Monte-Carlo setting: n, d, theta, sigma.
MONTE_CARLO_SETTING = (12, 20, 0.7, 0.4)
_DRAWS = 20000


def coefficient_draws(
    samples: int,
    dimension: int,
    angle: float,
    noise: float,
    *,
    draws: int,
    seed: int,
    through_data: bool,
) -> np.ndarray:
    r"""Draws of :math:`b = z^\top y_t/\|z\|^2` (108).

    ``through_data``: draw :math:`X` (``samples`` x ``dimension``,
    :math:`\mathcal N(0,1)` entries) and :math:`\epsilon`, with
    :math:`\beta_s = e_1`, :math:`\nu = e_2`, :math:`y_t = X\beta_t +
    \epsilon` (the left sides of (112), (114)); else draw :math:`z, w \sim
    \mathcal N(0, I_n)` and :math:`\epsilon` directly (the right sides).
    Let :math:`\theta` be ``angle`` and :math:`\sigma` be ``noise``.
    """
    rng = np.random.default_rng(seed)
    if through_data:
        data = rng.standard_normal((draws, samples, dimension))
        target = np.zeros(dimension)
        target[0], target[1] = np.cos(angle), np.sin(angle)
        z = data[:, :, 0]
        labels = data @ target
    else:
        z = rng.standard_normal((draws, samples))
        w = rng.standard_normal((draws, samples))
        labels = z * np.cos(angle) + w * np.sin(angle)
    labels = labels + noise * rng.standard_normal((draws, samples))
    return np.einsum("ij,ij->i", z, labels) / np.einsum("ij,ij->i", z, z)


def _check_change_of_variables_monte_carlo(draws: int = _DRAWS) -> Verdict:
    samples, dimension, angle, noise = MONTE_CARLO_SETTING
    through_data = coefficient_draws(
        samples, dimension, angle, noise, draws=draws, seed=1120, through_data=True
    )
    direct = coefficient_draws(
        samples, dimension, angle, noise, draws=draws, seed=1121, through_data=False
    )
    verdicts, rows = [], []
    for power, equation in ((1, "112"), (2, "114")):
        left, right = through_data**power, direct**power
        difference = float(left.mean() - right.mean())
        error = float(
            np.sqrt(left.var(ddof=1) / left.size + right.var(ddof=1) / right.size)
        )
        verdicts.append(
            check_close(
                difference,
                0.0,
                STANDARD_ERRORS * error,
                what=f"({equation}): E_X b^{power} - E_zw b^{power}",
                basis=Basis.STATISTICAL,
            )
        )
        rows.append(
            f"({equation}) E b^{power}: {left.mean():.4f} (X drawn) vs "
            f"{right.mean():.4f} (z, w drawn), difference {difference:.4f} +- "
            f"{error:.4f}"
        )
    return conjunction(
        verdicts,
        f"(n, d, theta, sigma) = {MONTE_CARLO_SETTING}, {draws} draws each, "
        f"differences within {STANDARD_ERRORS:g} standard errors required: "
        + "; ".join(rows),
    )


def _monte_carlo_cost(count: int) -> MonteCarloDraws:
    samples, dimension, angle, noise = MONTE_CARLO_SETTING
    return MonteCarloDraws(
        lambda draws: [
            coefficient_draws(
                samples, dimension, angle, noise, draws=draws, seed=0, through_data=flag
            )
            for flag in (True, False)
        ],
        count,
        what="a Gaussian X and a (z, w) pair",
    )


_EXPECTATION_QUOTE = {
    "112": "E_{X,ϵ} b = E_{z,w,ϵ} b (112)",
    "114": "E_{X,ϵ} b² = E_{z,w,ϵ} b² (114)",
}

CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "104",
        "penrose",
        Kind.IDENTITY,
        "for the rank-one Phi = (X beta_s) v^T, |v| = 1, Phi^+ = v (X beta_s)^T/"
        "||X beta_s||^2",
        RelationCheck(_pseudoinverse_relation, _judge_pseudoinverse),
        Status.HOLDS,
        formula=_pseudoinverse_relation,
        assumptions=("||v_{L-1}|| = 1 (a singular vector)",),
        quote="Since Φ is a rank one matrix its pseudoinverse is easy to compute "
        "Φ^+ = v_{L−1}(Xβ_s)^T/∥Xβ_s∥²₂ (104)",
        reading=Reading.PRINTED,
        regime=f"an explicit instance n = {SAMPLES}, d = {DIMENSION}, X beta_s "
        "symbols, v a symbolic unit vector; (104) is stated for every n, d",
    ),
    *(
        Claim(
            SOURCE_ID,
            equation,
            "change-of-variables",
            Kind.IDENTITY,
            f"b^{power} depends on X only through z = X beta_s, w = X nu, whose "
            "rows are N(0, I_2): E_{X,eps} b"
            + ("" if power == 1 else "^2")
            + " = E_{z,w,eps} b"
            + ("" if power == 1 else "^2"),
            RelationCheck(_change_of_variables(power), _judge_change_of_variables),
            Status.HOLDS,
            formula=_change_of_variables(power),
            assumptions=(
                "x_i ~ N(0, I_d) (Assumption 3.1)",
                "beta_t = cos(theta) beta_s + sin(theta) nu, nu ⊥ beta_s, unit",
            ),
            quote=_EXPECTATION_QUOTE[equation],
            reading=Reading.PRINTED,
            regime=f"an explicit instance n = {SAMPLES}, d = {DIMENSION}, X and eps "
            "symbols, beta_s a symbolic unit vector; (112), (114) are stated for "
            "every n, d",
        )
        for power, equation in ((1, "112"), (2, "114"))
    ),
    Claim(
        SOURCE_ID,
        "112-114",
        "monte-carlo",
        Kind.SIMULATION,
        "E_{X,eps} b = E_{z,w,eps} b and E_{X,eps} b^2 = E_{z,w,eps} b^2: draws "
        "of X against draws of (z, w)",
        _check_change_of_variables_monte_carlo,
        Status.HOLDS,
        cost=_monte_carlo_cost(_DRAWS).cost,
        formula=_change_of_variables(2),
        quote="E_{X,ϵ} b = E_{z,w,ϵ} b (112) ... E_{X,ϵ} b² = E_{z,w,ϵ} b² (114)",
        reading=Reading.PRINTED,
        regime=f"(n, d, theta, sigma) = {MONTE_CARLO_SETTING} (n > 8, so b^2 has "
        f"a finite variance), {_DRAWS} draws of each side, 4 SE of the "
        "difference",
    ),
)


#: The LaTeX of the entries the explicit instances are written in: the
#: stereographic parameters of the unit vectors, the entries of X, x, y_t,
#: W_hat_L and the coordinates of z, w, epsilon.
_GLYPH_STEMS = {
    "x": "(X)",
    "xi": "x",
    "y": "(y_t)",
    "w_L": r"(\hat W_L)",
    "z": "z",
    "w": "w",
    "epsilon": r"\epsilon",
}


def _glyph(symbol: sp.Symbol) -> str:
    stem, _, indices = symbol.name.rpartition("_")
    if stem not in _GLYPH_STEMS:
        # The parameter of the unit vector beta_s (p), u (q) or v (t).
        return {"p": "p_s", "q": "p_u", "t": "p_v"}.get(symbol.name, symbol.name)
    return f"{_GLYPH_STEMS[stem]}_{{{indices}}}"


def _instance_symbols() -> set[sp.Symbol]:
    layers = rank_one_layers()
    symbols: set[sp.Symbol] = set()
    for value in layers.values():
        symbols |= value.free_symbols
    for name in ("z", "w", "epsilon"):
        symbols |= set(_coordinates(name))
    return {s for s in symbols if s not in (_theta, _sigma)}


#: Symbol -> LaTeX for the symbols of this module's formulas.
GLYPHS: dict[sp.Symbol, str] = {s: _glyph(s) for s in _instance_symbols()}
