r"""Claims of ptft-relu-penalty: the reduction of eqs. (2)-(6) to one variable.

Section 1.1 minimizes the deviation :math:`R` of eq. (2) over the weights of
given directions and magnitudes, eq. (3); says that this problem decomposes
over hidden units, eq. (4), into the per-unit problems (5); and writes each
as the one-variable problem (6). The steps, in the text's order:

* the objective of (3) on its feasible set is the sum over units of
  :math:`p(u_h)` of (6) (``4:objective-splits``, symbolic, two units);
* the minimum (3) is the sum (4) of the per-unit minima
  (``4:unit-decomposition``, exactly, at rational instances whose joint
  minimum is found from the gradient of the unsplit objective (2) and whose
  per-unit minima come from the text's (10) and (11));
* the feasible set of (5) is the curve :math:`(u\hat w_h, m_h/u)`,
  :math:`u > 0` (``6:constraint-curve``), and on it the objective of (5) is
  :math:`p(u)` (the chain ``5-6:unit-problem``).

That the minimum over the curve is :math:`\min_{u>0} p(u)` is then the
parametrization :math:`u = \|w_h^{(1)}\|_2`; the value is compared with a
direct minimization of (5) by ``6:direct-minimization`` of
:mod:`.derivation`. Symbols as in :mod:`implicit_bias.sources.ptft_relu_penalty`;
unit :math:`h`'s own symbols carry its index (``m_1``, ``u_1``, ...).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import sympy as sp

from implicit_bias.claims.checks import check_identity
from implicit_bias.claims.derivation import Derivation, Step
from implicit_bias.claims.engine import (
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
    conjunction,
)
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.sources.ptft_relu_penalty.source import REGIME, SOURCE_ID
from implicit_bias.theory import relu_penalty as theory
from implicit_bias.theory.symbols import gamma, m, m0, rho, u

__all__ = [
    "CLAIMS",
    "DERIVATIONS",
    "GLYPHS",
    "UNIT_PROBLEM",
    "DecompositionInstance",
    "decomposition_instance",
    "joint_minimum",
    "rational_unit_vector",
    "sum_of_unit_penalties",
]

_W_HAT, _W0, _UNIT = theory.unit_vectors()
_DIMENSION = len(_W_HAT)
_UNIT_SPHERE = {_W_HAT[-1] ** 2: sp.solve(_UNIT, _W_HAT[-1] ** 2)[0]}

#: The weights of one unit in eq. (5), explicit in R^3: w_h^(1) and w_h^(2).
_W1 = sp.Matrix(sp.symbols(f"w1_1:{_DIMENSION + 1}", real=True))
_W2 = sp.Symbol("w2_h", real=True)

#: How this module's own symbols are typeset (merged into the source's glyphs).
GLYPHS: dict[sp.Symbol, str] = {
    **{c: rf"w_{{h,{i}}}^{{(1)}}" for i, c in enumerate(_W1, start=1)},
    _W2: r"w_h^{(2)}",
}


def _claim_id(equation: str, label: str) -> str:
    return f"{SOURCE_ID}:{equation}:{label}"


def _squared_norm(vector: sp.Matrix) -> sp.Expr:
    return (vector.T * vector)[0, 0]


# --- eq. (4): the objective of (3) splits over hidden units


@dataclass(frozen=True)
class _UnitSymbols:
    """Unit h's own symbols: its direction, pretrained weights, magnitude, scale."""

    w_hat: sp.Matrix
    w0: sp.Matrix
    magnitude: sp.Symbol
    scale: sp.Symbol


def _unit_symbols(index: int) -> _UnitSymbols:
    unit = _UnitSymbols(
        sp.Matrix(sp.symbols(f"what{index}_1:{_DIMENSION + 1}", real=True)),
        sp.Matrix(sp.symbols(f"w0{index}_1:{_DIMENSION + 1}", real=True)),
        sp.Symbol(f"m_{index}", real=True),
        sp.Symbol(f"u_{index}", positive=True),
    )
    for i in range(_DIMENSION):
        GLYPHS[unit.w_hat[i]] = rf"\hat{{w}}_{{{index},{i + 1}}}"
        GLYPHS[unit.w0[i]] = rf"w_{{0{index},{i + 1}}}^{{(1)}}"
    GLYPHS[unit.magnitude] = rf"m_{{{index}}}"
    GLYPHS[unit.scale] = rf"u_{{{index}}}"
    return unit


_TWO_UNITS = (_unit_symbols(1), _unit_symbols(2))


def _deviation_on_feasible_set(
    units: Sequence[tuple[sp.Matrix, sp.Matrix, sp.Expr, sp.Expr]],
    readout_init: sp.Expr,
) -> sp.Expr:
    r"""Eq. (2) on the feasible set of eq. (3), from the stacked parameters.

    .. math:: R = \|\theta - \theta_0\|_2^2,\quad
              \theta = (w_h^{(2)}, w_h^{(1)})_h = (m_h/u_h, u_h\hat w_h)_h,\quad
              \theta_0 = (\gamma, w_{0h}^{(1)})_h

    "the norm of the deviation from the parameters at initialization", one
    vector of all units' parameters; ``units`` holds ``(w_hat, w0, m, u)`` per
    unit. Nothing here splits by unit.
    """
    parameters = sp.Matrix.vstack(
        *(sp.Matrix([magnitude / scale]) for _, _, magnitude, scale in units),
        *(scale * w_hat for w_hat, _, _, scale in units),
    )
    initialization = sp.Matrix.vstack(
        *(sp.Matrix([readout_init]) for _ in units),
        *(w0 for _, w0, _, _ in units),
    )
    return _squared_norm(parameters - initialization)


def _unit_p_of_u(unit: _UnitSymbols) -> sp.Expr:
    """p(u) of eq. (6) (the theory's, explicit vectors) in unit h's symbols."""
    renaming = {m: unit.magnitude, u: unit.scale}
    renaming.update(zip(_W_HAT, unit.w_hat, strict=True))
    renaming.update(zip(_W0, unit.w0, strict=True))
    return theory.deviation_eq6().xreplace(renaming)


def _check_objective_splits() -> Verdict:
    units = [(s.w_hat, s.w0, s.magnitude, s.scale) for s in _TWO_UNITS]
    return check_identity(
        _deviation_on_feasible_set(units, gamma),
        _unit_p_of_u(_TWO_UNITS[0]) + _unit_p_of_u(_TWO_UNITS[1]),
    )


# --- eq. (4): the minimum of (3) is the sum of the minima of (5)


def rational_unit_vector(a: sp.Rational, b: sp.Rational) -> sp.Matrix:
    r"""A unit vector of :math:`\mathbb{R}^3` with rational coordinates.

    .. math:: \hat w = \frac{(2a,\ 2b,\ a^2 + b^2 - 1)}{a^2 + b^2 + 1}

    the inverse stereographic projection of :math:`(a, b)`, so that
    :math:`\|\hat w\|_2 = 1` exactly.

    Examples:
      >>> w = rational_unit_vector(sp.Rational(1, 2), sp.Rational(-1, 3))
      >>> (w.T * w)[0, 0]
      1
    """
    return sp.Matrix([2 * a, 2 * b, a**2 + b**2 - 1]) / (a**2 + b**2 + 1)


@dataclass(frozen=True)
class DecompositionInstance:
    r"""Rational data of eq. (3) for H hidden units in :math:`\mathbb{R}^3`.

    Attributes:
      gamma: the readout initialization :math:`\gamma`, shared by the units.
      w_hats: the unit directions :math:`\hat w_h`, exact unit vectors.
      w0s: the pretrained hidden weights :math:`w_{0h}^{(1)}`.
      magnitudes: the signed magnitudes :math:`m_h`.
    """

    gamma: sp.Rational
    w_hats: tuple[sp.Matrix, ...]
    w0s: tuple[sp.Matrix, ...]
    magnitudes: tuple[sp.Rational, ...]


def _orthogonal_to(w_hat: sp.Matrix) -> sp.Matrix:
    for axis in (sp.Matrix([1, 0, 0]), sp.Matrix([0, 1, 0])):
        normal = w_hat.cross(axis)
        if any(normal):
            return normal
    raise AssertionError("a unit vector is parallel to two axes")


def decomposition_instance(units: int, seed: int) -> DecompositionInstance:
    r"""Rational data of eq. (3), in the source's regime, with rational minimizers.

    :math:`|\gamma| \in [10^{-3}, 10^{-2}]`, :math:`|m_h| \in [1/8, 3]`,
    :math:`m_{0h}^{(1)} \in [0.1, 10]`, any :math:`\rho_h`. Each unit's
    pretrained weights are :math:`w_{0h} = a_h\hat w_h + c_h v_h` with
    :math:`v_h \perp \hat w_h` and :math:`a_h = (s^4 + \gamma m_h s - m_h^2)/s^3`
    for a rational :math:`s \in [1/2, 3]`, so that the minimizing scales are
    rational and the minima exact rationals; how the minima are found is
    not told (:func:`joint_minimum`, :func:`sum_of_unit_penalties`).

    Args:
      units: H, the number of hidden units, an integer >= 1.
      seed: the seed of ``np.random.default_rng``, an integer >= 0.

    Raises:
      InvalidArgumentError: ``units`` or ``seed`` is out of its domain.
    """
    if isinstance(units, bool) or not isinstance(units, int) or units < 1:
        raise InvalidArgumentError(
            f"units={units!r}: the number of hidden units, an integer >= 1"
        )
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidArgumentError(f"seed={seed!r}: a seed, an integer >= 0")
    rng = np.random.default_rng(seed)

    def sign() -> int:
        return int(rng.choice([-1, 1]))

    readout_init = sign() * sp.Rational(int(rng.integers(1, 11)), 1000)
    w_hats: list[sp.Matrix] = []
    w0s: list[sp.Matrix] = []
    magnitudes: list[sp.Rational] = []
    while len(w_hats) < units:
        a, b = (sp.Rational(int(rng.integers(-4, 5)), 4) for _ in range(2))
        w_hat = rational_unit_vector(a, b)
        scale = sp.Rational(int(rng.integers(2, 13)), 4)
        magnitude = sign() * sp.Rational(int(rng.integers(1, 25)), 8)
        along = (scale**4 + readout_init * magnitude * scale - magnitude**2) / scale**3
        across = sp.Rational(int(rng.integers(0, 9)), 4)
        w0 = along * w_hat + across * _orthogonal_to(w_hat)
        if sp.Rational(1, 100) <= _squared_norm(w0) <= 100:
            w_hats.append(w_hat)
            w0s.append(w0)
            magnitudes.append(magnitude)
    return DecompositionInstance(
        readout_init, tuple(w_hats), tuple(w0s), tuple(magnitudes)
    )


def _positive_real_roots(polynomial: sp.Poly) -> list[sp.Expr]:
    """The positive real roots, exactly (rationals, or CRootOf)."""
    return [root for root in polynomial.real_roots(multiple=True) if root > 0]


def joint_minimum(instance: DecompositionInstance) -> sp.Expr | None:
    r"""The minimum of eq. (3), from the unsplit objective, exactly.

    .. math:: \tilde R = \min_{u \in (0,\infty)^H} \|\theta(u) - \theta_0\|_2^2

    on the feasible set :math:`w_h^{(1)} = u_h\hat w_h`,
    :math:`w_h^{(2)} = m_h/u_h` (``6:constraint-curve``). The gradient of the
    whole objective is taken in all :math:`u_h` at once; where its component
    h depends on :math:`u_h` alone (checked: every mixed second derivative is
    0), the stationary points are the products of each component's positive
    real roots (exact root isolation), and as the objective diverges at the
    boundary of :math:`(0,\infty)^H` (:math:`m_h \ne 0`, ``6:divergence-
    nonzero-m``) its minimum is the least value among them (exact for
    rationals; algebraic values are compared at 50 digits). Returns None
    where a mixed derivative does not vanish or no stationary point is found.
    """
    scales = sp.symbols(f"s1:{len(instance.w_hats) + 1}", positive=True)
    units = list(
        zip(instance.w_hats, instance.w0s, instance.magnitudes, scales, strict=True)
    )
    objective = _deviation_on_feasible_set(units, instance.gamma)
    gradient = [sp.diff(objective, scale) for scale in scales]
    for (h, component), k in itertools.product(enumerate(gradient), range(len(scales))):
        if h != k and sp.simplify(sp.diff(component, scales[k])) != 0:
            return None
    roots = [
        _positive_real_roots(sp.Poly(sp.numer(sp.together(component)), scale))
        for component, scale in zip(gradient, scales, strict=True)
    ]
    values = [
        objective.subs(dict(zip(scales, point, strict=True)))
        for point in itertools.product(*roots)
    ]
    return min(values, key=lambda value: sp.N(value, 50)) if values else None


def sum_of_unit_penalties(instance: DecompositionInstance) -> sp.Expr | None:
    r"""The right side of eq. (4), each unit's penalty by the text's (10) and (11).

    .. math:: \sum_h \tilde r(\hat w_h, m_h),\quad
              \tilde r = (m_h/u^* - \gamma)^2 + u^{*2} + (m_{0h}^{(1)})^2
              - 2u^* m_{0h}^{(1)}\rho_h

    with :math:`m_{0h}^{(1)} = \|w_{0h}^{(1)}\|_2`, :math:`\rho_h` the cosine
    of :math:`\hat w_h` and :math:`w_{0h}^{(1)}`, and :math:`u^*` "the
    (unique ...) positive real root" of the quartic (10). Returns None where
    the quartic has not exactly one positive root.
    """
    total = sp.Integer(0)
    for w_hat, w0, magnitude in zip(
        instance.w_hats, instance.w0s, instance.magnitudes, strict=True
    ):
        norm = sp.sqrt(_squared_norm(w0))
        values = {
            m: magnitude,
            gamma: instance.gamma,
            m0: norm,
            rho: (w_hat.T * w0)[0, 0] / norm,
        }
        roots = _positive_real_roots(
            sp.Poly(theory.stationarity_eq10().subs(values), u)
        )
        if len(roots) != 1:
            return None
        total += theory.penalty_eq11(roots[0]).subs(values)
    return total


#: (H, seed) of the instances of 4:unit-decomposition: two, three and four units.
_DECOMPOSITION_CASES = ((2, 0), (3, 1), (4, 2))


def _check_unit_decomposition() -> Verdict:
    verdicts, lines = [], []
    for units, seed in _DECOMPOSITION_CASES:
        instance = decomposition_instance(units, seed)
        joint = joint_minimum(instance)
        split = sum_of_unit_penalties(instance)
        if joint is None or split is None:
            return Verdict.inconclusive(
                f"H = {units}, seed {seed}: the joint gradient does not decouple, "
                "or a minimum has no unique stationary point",
                Reason.UNDECIDED,
            )
        verdicts.append(check_identity(joint, split))
        lines.append(
            f"H = {units} (seed {seed}, gamma = {instance.gamma}): min (3) = {joint}"
        )
    return conjunction(
        verdicts,
        "exact rational instances: the minimum of (2) over the feasible set of (3), "
        "from the stationary points of the unsplit objective (its gradient "
        "decouples: every mixed second derivative is 0; one positive root per "
        "unit, exact isolation), equals the sum of the per-unit penalties of (11) "
        "at the positive root of (10), exactly: " + "; ".join(lines),
    )


# --- eqs. (5)-(6): the feasible set of (5) is the curve (u w_hat, m/u)


def _on_curve() -> dict[sp.Symbol, sp.Expr]:
    """The constraints of (5) solved with u := ||w1||: w1 = u w_hat, w2 = m/u."""
    return {**dict(zip(_W1, u * _W_HAT, strict=True)), _W2: m / u}


def _check_constraint_curve() -> Verdict:
    hidden = u * _W_HAT
    norm = sp.sqrt(_squared_norm(hidden))
    parts = (
        check_identity(norm, u, substitutions=_UNIT_SPHERE),
        check_identity(
            _squared_norm(hidden / norm - _W_HAT), 0, substitutions=_UNIT_SPHERE
        ),
        check_identity(norm * (m / u), m, substitutions=_UNIT_SPHERE),
    )
    return conjunction(
        parts,
        "exact: for u > 0 and ||w_hat|| = 1 the point (u w_hat, m/u) has "
        f"||w1|| = u ({parts[0].detail}), w1/||w1|| = w_hat ({parts[1].detail}) and "
        f"||w1|| w2 = m ({parts[2].detail}); conversely a feasible (w1, w2) has "
        "w1 = ||w1|| w_hat and w2 = m/||w1||, the point of u = ||w1|| > 0, so "
        "u -> (u w_hat, m/u) maps (0, oo) onto the feasible set one to one",
    )


def _objective_eq5() -> sp.Expr:
    r"""The objective of eq. (5), explicit in :math:`\mathbb{R}^3`.

    .. math:: (w_h^{(2)}-\gamma)^2 + \|w_h^{(1)} - w_{0h}^{(1)}\|_2^2
    """
    return (_W2 - gamma) ** 2 + _squared_norm(_W1 - _W0)


_EQ4_QUOTE = (
    "As this optimization problem decomposes over hidden units, we can solve it for "
    "each hidden unit individually: $\\tilde{R}(\\hat{w}, m|\\mathbf{w}_0^{(1)}, "
    "\\gamma) = \\sum_{h=1}^H \\tilde{r}(\\hat{\\mathbf{w}}_h, m_h|\\mathbf{w}_{0h}, "
    "\\gamma), \\quad (4)$"
)
_EQ6_QUOTE = (
    r"We can express this as $\tilde{r}(\hat{w}_h, m_h|\mathbf{w}_{0h}, \gamma) = "
    r"\min_{u>0} p(u), \quad p(u) := (m_h/u - \gamma)^2 + \|u\hat{\mathbf{w}}_h - "
    r"\mathbf{w}_{0h}^{(1)}\|_2^2. \quad (6)$"
)
_EQ5_CONSTRAINTS = (
    r"\text{ s.t. } \hat{\mathbf{w}}_h = \mathbf{w}_h^{(1)} / "
    r"\|\mathbf{w}_h^{(1)}\|_2, m_h = \|\mathbf{w}_h^{(1)}\|_2 w_h^{(2)}. \quad (5)"
)
_R_TILDE = sp.Symbol("Rtilde", nonnegative=True)
_R_UNIT = sp.Symbol("rtilde_unit", nonnegative=True)
_UNIT_INDEX = sp.Symbol("h", integer=True, positive=True)
_UNITS = sp.Symbol("H", integer=True, positive=True)
GLYPHS.update(
    {
        _R_TILDE: r"\tilde{R}(\hat{w}, m)",
        _R_UNIT: r"\tilde{r}",
        _UNIT_INDEX: "h",
        _UNITS: "H",
    }
)


def _eq4_display() -> sp.Eq:
    r"""Eq. (4) for the ledger: :math:`\tilde R = \sum_h \tilde r_h`."""
    per_unit = sp.IndexedBase(_R_UNIT)
    return sp.Eq(
        _R_TILDE,
        sp.Sum(per_unit[_UNIT_INDEX], (_UNIT_INDEX, 1, _UNITS)),
        evaluate=False,
    )


_TWO_UNIT_REGIME = (
    "two hidden units, all real directions, pretrained weights in R^3, m_h, gamma "
    "and u_h > 0 (symbolic; the identity is coordinatewise, and H units add terms "
    "of the same form)"
)

CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "4",
        "objective-splits",
        Kind.IDENTITY,
        "on the feasible set of (3), the deviation R of (2) is the sum over hidden "
        "units of p(u_h) of (6): each unit's terms depend on its own weights only",
        _check_objective_splits,
        Status.HOLDS,
        assumptions=(
            "w_h^(1) = u_h w_hat_h, w_h^(2) = m_h/u_h (the feasible set of (3), "
            "6:constraint-curve)",
        ),
        quote=(
            "As this optimization problem decomposes over hidden units, we can "
            "solve it for each hidden unit individually:"
        ),
        reading=Reading.PROSE,
        regime=_TWO_UNIT_REGIME,
    ),
    Claim(
        SOURCE_ID,
        "4",
        "unit-decomposition",
        Kind.IDENTITY,
        "the minimum (3) of the deviation over all units' weights is the sum over "
        "hidden units of the per-unit minima (5)",
        _check_unit_decomposition,
        Status.HOLDS,
        assumptions=(
            "m_h != 0",
            "exact rational instances with rational minimizing scales",
        ),
        formula=_eq4_display,
        quote=_EQ4_QUOTE,
        reading=Reading.PRINTED,
        regime=(
            "H = 2, 3, 4 units in R^3 at exact rational points of the source "
            "regime: |gamma| in [1e-3, 1e-2], |m_h| in [1/8, 3], m0 in [0.1, 10], "
            "rho in [-1, 1], minimizing scales u_h* in [1/2, 3] (rational by "
            "construction; " + REGIME + ")"
        ),
    ),
    Claim(
        SOURCE_ID,
        "6",
        "constraint-curve",
        Kind.IDENTITY,
        "the feasible set of (5) is the curve (u w_hat_h, m_h/u), u > 0, with "
        "u = ||w_h^(1)||_2",
        _check_constraint_curve,
        Status.HOLDS,
        assumptions=("u > 0", r"$\|\hat w_h\|_2 = 1$"),
        formula=lambda: sp.Eq(
            sp.Matrix([*_W1, _W2]),
            sp.Matrix([*(u * _W_HAT), m / u]),
            evaluate=False,
        ),
        quote=(
            r"\tilde{r}(\hat{\mathbf{w}}_h, m_h|\mathbf{w}_{0h}, \gamma) := "
            r"\min_{\mathbf{w}_h^{(1)}, w_h^{(2)}} (w_h^{(2)} - \gamma)^2 + "
            r"\|\mathbf{w}_h^{(1)} - \mathbf{w}_{0h}^{(1)}\|_2^2 " + _EQ5_CONSTRAINTS
        ),
        reading=Reading.INTERPRETATION,
        regime=(
            r"all real vectors of $\mathbb{R}^3$ with $\|\hat w_h\| = 1$, $u > 0$, "
            "m_h real (symbolic): the step from (5) to (6) the text leaves to the "
            "reader"
        ),
    ),
)

#: Eqs. (5)-(6): the objective of (5) on its feasible set is p(u) of (6).
UNIT_PROBLEM = Derivation(
    source=SOURCE_ID,
    equation="5-6",
    label="unit-problem",
    title="the per-unit problem (5) as the one-variable p(u)",
    start=_objective_eq5,
    steps=(
        Step(
            theory.deviation_eq6,
            (
                r"on the feasible set of (5), with $u := \|w_h^{(1)}\|_2 > 0$, the "
                r"constraints give $w_h^{(1)} = u\hat w_h$ and $w_h^{(2)} = m_h/u$ "
                "(6:constraint-curve), substituted before the comparison"
            ),
            equation="6",
            quote=_EQ6_QUOTE,
        ),
    ),
    quote=(
        r"\tilde{r}(\hat{\mathbf{w}}_h, m_h|\mathbf{w}_{0h}, \gamma) := "
        r"\min_{\mathbf{w}_h^{(1)}, w_h^{(2)}} (w_h^{(2)} - \gamma)^2 + "
        r"\|\mathbf{w}_h^{(1)} - \mathbf{w}_{0h}^{(1)}\|_2^2 " + _EQ5_CONSTRAINTS
    ),
    regime=(
        r"all real vectors of $\mathbb{R}^3$ with $\|\hat w_h\| = 1$, $u > 0$, m_h "
        "and gamma real, as the equations are stated (symbolic)"
    ),
    assumptions=(r"$\|\hat w_h\|_2 = 1$", "u > 0", "vectors in R^3"),
    # The constraints of (5) solved on the feasible set: the step is this
    # substitution (it needs no ||w_hat|| = 1), and a mutant is judged (and
    # found equivalent) under it. Adding the unit sphere here would let SymPy
    # replace w_hat_3^2 before w1_3 -> u w_hat_3 creates it.
    substitutions=_on_curve(),
)

#: The chains of this module, in the order of the text.
DERIVATIONS: tuple[Derivation, ...] = (UNIT_PROBLEM,)
