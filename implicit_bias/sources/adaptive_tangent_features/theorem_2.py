r"""Theorem 2 of adaptive-tangent-features: the solution (14)-(16) under Model A.

Theorem 2 (Section 3.2) states a solution of problem (4) under Model A: per
layer, :math:`\hat M^{(1)}_\ell`, :math:`\hat W_\ell`, :math:`\hat M^{(2)}_\ell`
share singular vectors (14), their spectra solve the scalar problems (15),
and the :math:`\hat B_\ell = U_\ell\,\mathrm{diag}(d_\ell)\,V_\ell^\top` solve
the linearly constrained problem (16) with the effective penalties of the
joint penalties. Its proof (Appendix A.3.2) applies Lemma 5 to each layer.
Checked here:

- (14), exactly: with (15)'s constraint :math:`s_1\sigma s_2 = d_j`, the
  factors multiply to :math:`\hat B_\ell`, their spectra are the scales, and
  the layer's objective is the sum of (15)'s (rational orthogonal U, V;
  :mod:`._matrices`);
- (15), exactly, for Figure 2's pair :math:`(z-1)^2, |z-1|`: its minimizer is
  the join's, and its minimum the effective penalty of the join
  (the theory's closed forms of Figure 2);
- (16): the constraint of (4) under Model A is (16)'s with
  :math:`B_\ell = M^{(1)}_\ell W_\ell M^{(2)}_\ell` (exactly, two layers), and
  the minimum of (4) under Model A, found directly, is (16)'s, attained at the
  :math:`B_\ell` of the direct solution (two scalar layers, float64).

Lemma 5 itself, the step from each layer's factors to
:math:`\tilde\Omega_{\omega_1\oplus\omega_2}(B_\ell)`, is checked in
:mod:`.appendix_a3_proofs`; Theorem 2's adapted kernel (17)-(18) in
:mod:`.network_structure`.
"""

from __future__ import annotations

import numpy as np
import sympy as sp
from scipy import optimize

from implicit_bias.claims.checks import check_close, check_identity, check_inequality
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Status,
    Verdict,
    conjunction,
)
from implicit_bias.numerics.tangent_features import (
    absolute_deviation,
    join_penalty,
    omega_tilde,
    squared_deviation,
)
from implicit_bias.sources.adaptive_tangent_features import notation as nt
from implicit_bias.sources.adaptive_tangent_features._float64 import (
    DIRECT_RTOL,
    Float64Array,
    compared,
)
from implicit_bias.sources.adaptive_tangent_features._matrices import (
    generic_matrix,
    rational_orthogonal,
)
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID
from implicit_bias.theory import tangent_features as theory

__all__ = ["CLAIMS"]

z = theory.z


# --- eq. (14): the factors of one layer


#: (P, Q) at which (14) is checked: a layer with more rows, and one with more
#: columns, so that s = 1 beyond min{P, Q} is exercised on either side.
_EQ14_SHAPES = ((3, 2), (2, 3))


def _eq14_parts(rows: int, columns: int) -> list[Verdict]:
    u_matrix, v_matrix = rational_orthogonal(rows), rational_orthogonal(columns)
    shared = min(rows, columns)
    scales1 = list(sp.symbols(f"a1:{shared + 1}", positive=True))
    singular = list(sp.symbols(f"sigma1:{shared + 1}", positive=True))
    scales2 = list(sp.symbols(f"b1:{shared + 1}", positive=True))
    # Theorem 2: [s]_j = 1 for j > min{P, Q}.
    scales1 += [sp.Integer(1)] * (rows - shared)
    scales2 += [sp.Integer(1)] * (columns - shared)
    m1, weights, m2 = theory.theorem2_layer(
        u_matrix, v_matrix, scales1, singular, scales2
    )
    # (15)'s constraint s1 sigma s2 = d_j, and B_hat = U diag_{PxQ}(d) V^T.
    spectrum = sp.zeros(rows, columns)
    for j in range(shared):
        spectrum[j, j] = scales1[j] * singular[j] * scales2[j]
    target = u_matrix * spectrum * v_matrix.T
    left, right = generic_matrix("c", rows, 1), generic_matrix("e", columns, 1)
    rows_probe, columns_probe = (
        generic_matrix("f", rows, 1),
        generic_matrix("g", columns, 1),
    )
    return [
        check_identity(
            (left.T * m1 * weights * m2 * right)[0, 0], (left.T * target * right)[0, 0]
        ),
        check_identity(
            (left.T * m1 * u_matrix * rows_probe)[0, 0],
            (left.T * u_matrix * sp.diag(*scales1) * rows_probe)[0, 0],
        ),
        check_identity(
            (right.T * m2 * v_matrix * columns_probe)[0, 0],
            (right.T * v_matrix * sp.diag(*scales2) * columns_probe)[0, 0],
        ),
        check_identity((weights.T * weights).trace(), sum(s**2 for s in singular)),
    ]


def _check_eq14_factorization() -> Verdict:
    parts = []
    for rows, columns in _EQ14_SHAPES:
        shape_parts = _eq14_parts(rows, columns)
        verdict = conjunction(shape_parts, "; ".join(p.detail for p in shape_parts))
        if verdict.status != Status.HOLDS:
            return verdict.with_detail(f"P = {rows}, Q = {columns}: {verdict.detail}")
        parts.append(verdict)
    return conjunction(
        parts,
        "exact, at (P, Q) = (3, 2) and (2, 3), rational orthogonal U, V, symbolic "
        "positive s^(1), sigma, s^(2) (1 beyond min{P, Q}): (14)'s M^(1) W M^(2) = U "
        "diag_{PxQ}(s1 sigma s2) V^T, (16)'s B with (15)'s constraint; M^(1) U = U "
        "S^(1), M^(2) V = V S^(2) (so Omega_omega(M^(i)) = sum_j omega(s^(i)_j)); "
        "||W||_F^2 = sum_j sigma_j^2: the layer's objective is the sum over j of "
        "(15)'s, the scales beyond min{P, Q} adding omega(1) = 0",
    )


# --- eq. (15): the scalar problem, for Figure 2's pair


def _short(verdict: Verdict) -> str:
    """A part's evidence, or its basis where SymPy's expression runs long."""
    return verdict.detail if len(verdict.detail) <= 100 else f"{verdict.basis} (SymPy)"


def _check_eq15_figure_2_pair() -> Verdict:
    # s1 = 1 + a, s2 = 1 + b with a, b > 0: omega^(2)(s2) = |b| = b there.
    a, b, d, t = sp.symbols("a b d t", positive=True)
    s1, s2 = sp.symbols("s1 s2", positive=True)
    objective = theory.theorem2_scalar_objective(
        theory.squared_deviation, theory.absolute_deviation, 1 + a, 1 + b, d
    )
    gradient = [sp.diff(objective, x) for x in (a, b)]
    # The sigma^2 term alone (both penalties 0): its Hessian in (s1, s2).
    coupling = theory.theorem2_scalar_objective(
        lambda _: sp.Integer(0), lambda _: sp.Integer(0), s1, s2, d
    )
    hessian = sp.hessian(coupling, (s1, s2))
    # The join's minimizer z (= s1) and the product s1 s2 = v(z) of Figure 2's
    # join, with d^2 where z minimizes (12) for the join (the theory's curves).
    product_of_z, _ = theory.squared_absolute_join_parametric()
    d_squared_of_z, tilde_of_z = theory.squared_absolute_tilde_parametric()
    point = {a: z - 1, b: product_of_z / z - 1, d: sp.sqrt(d_squared_of_z)}
    kink = theory.join_kink()
    named = (
        (
            "omega^(1)(1 + a) = a^2, omega^(2)(1 + b) = b (Figure 2's pair)",
            check_identity(
                theory.squared_deviation(1 + a) + theory.absolute_deviation(1 + b),
                a**2 + b,
            ),
        ),
        ("d/ds1 = 0 there", check_identity(gradient[0].subs(point), sp.Integer(0))),
        ("d/ds2 = 0 there", check_identity(gradient[1].subs(point), sp.Integer(0))),
        (
            "the value there is omega~ of the join, 4z^2 - 5z",
            check_identity(objective.subs(point), tilde_of_z),
        ),
        (
            "d^2/ds1^2 of sigma^2 = 6 d^2/(s1^4 s2^2) > 0",
            check_identity(hessian[0, 0], 6 * d**2 / (s1**4 * s2**2)),
        ),
        (
            "its Hessian determinant = 20 d^4/(s1 s2)^6 > 0, so sigma^2 is convex "
            "and, with omega^(1) convex and omega^(2) linear on s2 >= 1, the objective",
            check_identity(hessian.det(), 20 * d**4 / (s1 * s2) ** 6),
        ),
        (
            "s2 = 2z(z - 1) is 1 at the kink z_k = (1 + sqrt 3)/2",
            check_identity((product_of_z / z).subs(z, kink), sp.Integer(1)),
        ),
        (
            "and increases beyond it, so s2 > 1 for z > z_k",
            check_inequality(
                sp.Integer(0),
                sp.diff(product_of_z / z, z).subs(z, kink + t),
                strict=True,
            ),
        ),
    )
    return conjunction(
        [part for _, part in named],
        "exact, omega^(1) = (z-1)^2, omega^(2) = |z-1|, sigma = d/(s1 s2) from the "
        "constraint: at s1 = z, s2 = 2z(z-1) (the join's minimizer and v/z), d^2 = "
        "4z^5(z-1)^3, z > z_k: "
        + "; ".join(f"{name} ({_short(part)})" for name, part in named)
        + ": an interior stationary point of a convex objective on s1, s2 >= 1, so "
        "(15)'s minimum, and it is omega~_{omega1 (+) omega2}(d), the penalty of (16)",
    )


# --- eq. (16): the constraint of (4) under Model A, and its minimum


def _check_eq16_constraint() -> Verdict:
    # Two layers: W_1 (2 x 2) with M_1^(1), M_1^(2) (2 x 2, not symmetric), the
    # final W_2 (P_2 = 2, C = 1) with M_2^(1) and M_2^(2) = I_1 (Model A item 4).
    m11, m12, m21 = (generic_matrix(name, 2, 2) for name in ("a", "b", "c"))
    w1, w2 = generic_matrix("w", 2, 2), generic_matrix("x", 2, 1)
    j1, j2 = generic_matrix("g", 1, 4), generic_matrix("h", 1, 2)
    # Model A item 2 through (10): M acts on vec(W_l) as M_l^(2)T (x) M_l^(1).
    transform = sp.diag(
        theory.layer_transform(m11, m12), theory.layer_transform(m21, sp.eye(1))
    )
    step = sp.Matrix.vstack(w1.vec(), w2.vec())
    features = sp.Matrix.hstack(j1, j2)
    lhs = (features * transform * step)[0, 0]
    rhs = (j1 * (m11 * w1 * m12).vec())[0, 0] + (j2 * (m21 * w2).vec())[0, 0]
    return check_identity(lhs, rhs).with_detail(
        "exact, two layers (W_1 2x2 with general M_1^(1), M_1^(2); W_2 2x1 with "
        "M_2^(1), M_2^(2) = I_1), symbolic entries and features: grad f0(x) M "
        "(theta - theta0), with M acting on vec(W_l) as M_l^(2)T (x) M_l^(1), is "
        "sum_l grad_vec(W_l) f0(x) vec(M_l^(1) W_l M_l^(2)): the constraint of (4) "
        "depends on each layer only through B_l = M_l^(1) W_l M_l^(2), the "
        "variable of (16)"
    )


#: The instance of (4) under Model A: two scalar layers (P = Q = 1; the final
#: one with M_L^(2) = I_1), one data point with features J = (J_1, J_2) and
#: residual r. The hidden layer carries omega^(1) = (z-1)^2, omega^(2) = |z-1|
#: (Figure 2's pair), the final one omega_L^(1) = (z-1)^2; r = 1.2 puts the
#: hidden layer's s^(2) at its kink 1, r = 3 above it.
_FEATURES = (1.3, 0.7)
_RESIDUALS = (1.2, 3.0)
#: Starts of the direct search (uniform around the identity transforms).
_STARTS = 6


def _squared(x: Float64Array) -> Float64Array:
    return np.asarray((np.abs(x) - 1.0) ** 2, dtype=np.float64)


def _absolute(x: Float64Array) -> Float64Array:
    return np.asarray(np.abs(np.abs(x) - 1.0), dtype=np.float64)


def _direct_minimum(residual: float) -> tuple[float, float]:
    """min of (4) under Model A over (m1, w1, m2, m3), w2 from the constraint.

    The spectral penalties of 1 x 1 transforms are omega(|m|). Returns the
    minimum and the hidden layer's B_1 = m1 w1 m2 there.
    """
    j1, j2 = _FEATURES

    def objective(x: Float64Array) -> float:
        m1, w1, m2, m3 = x
        w2 = (residual - j1 * m1 * w1 * m2) / (j2 * m3)
        return float(_squared(m1) + _absolute(m2) + w1**2 + _squared(m3) + w2**2)

    rng = np.random.default_rng(16)
    ends = []
    for _ in range(_STARTS):
        start = np.concatenate(
            [1 + rng.uniform(0, 1, 1), rng.uniform(0, 2, 1), 1 + rng.uniform(0, 1, 2)]
        )
        for _ in range(2):  # a restart from Nelder-Mead's end point
            start = optimize.minimize(
                objective,
                start,
                method="Nelder-Mead",
                options={"xatol": 1e-11, "fatol": 1e-15, "maxiter": 20000},
            ).x
        ends.append((objective(start), start))
    value, (m1, w1, m2, _) = min(ends, key=lambda end: end[0])
    return value, float(m1 * w1 * m2)


def _reduced_objective(residual: float, b1: Float64Array) -> Float64Array:
    """(16)'s objective on its constraint J_1 B_1 + J_2 B_2 = r, in B_1."""
    j1, j2 = _FEATURES
    hidden = join_penalty(squared_deviation, absolute_deviation)
    b2 = (residual - j1 * b1) / j2
    return omega_tilde(hidden, b1) + omega_tilde(squared_deviation, b2)


def _reduced_minimum(residual: float) -> float:
    """min of (16) over B_1 (grid, then bounded Brent)."""
    grid = np.linspace(-12.0, 12.0, 4001)
    values = _reduced_objective(residual, grid)
    best = int(np.argmin(values))
    result = optimize.minimize_scalar(
        lambda b: float(_reduced_objective(residual, np.array([b]))[0]),
        bounds=(grid[max(best - 1, 0)], grid[min(best + 1, grid.size - 1)]),
        method="bounded",
        options={"xatol": 1e-12},
    )
    return float(min(result.fun, values[best]))


def _check_eq16_direct() -> Verdict:
    directs, reduced, at_solution, details = [], [], [], []
    for residual in _RESIDUALS:
        direct, hidden_b = _direct_minimum(residual)
        directs.append(direct)
        reduced.append(_reduced_minimum(residual))
        at_solution.append(float(_reduced_objective(residual, np.array([hidden_b]))[0]))
        details.append(
            f"r = {residual:g}: min (4) = {direct:.12g}, min (16) = "
            f"{reduced[-1]:.12g}, B_1 = {hidden_b:.8g}"
        )
    return compared(
        [
            check_close(
                directs,
                reduced,
                DIRECT_RTOL,
                what="min of (4) under Model A vs min of (16)",
                relative=True,
                basis=Basis.SEARCH,
            ),
            check_close(
                at_solution,
                reduced,
                DIRECT_RTOL,
                what="(16)'s objective at the direct solution's B_l vs min of (16)",
                relative=True,
                basis=Basis.SEARCH,
            ),
        ],
        "two scalar layers (hidden: omega^(1) = (z-1)^2, omega^(2) = |z-1|; final: "
        "omega_L^(1) = (z-1)^2, M_L^(2) = I), one point with features (1.3, 0.7): "
        f"(4) minimized directly over (M, W) (Nelder-Mead, {_STARTS} starts) and "
        "(16) over its constraint line (grid + Brent, omega~ of the join in "
        "float64); " + "; ".join(details),
    )


# --- formulas: what each check compares, for the ledger


def _formula_eq14() -> sp.Basic:
    return sp.And(
        sp.Eq(nt.M1 * nt.W * nt.M2, nt.U * nt.D_matrix * nt.V_t),
        sp.Eq(nt.M1, nt.U * nt.S1 * nt.U_t),
        sp.Eq(nt.M2, nt.V * nt.S2 * nt.V_t),
        sp.Eq(nt.W, nt.U * nt.Sigma * nt.V_t),
    )


def _formula_eq15() -> sp.Basic:
    return sp.Eq(nt.scalar_minimum, nt.join_tilde(nt.singular_value))


def _formula_eq16_constraint() -> sp.Basic:
    return sp.Eq(nt.model_a_change, nt.layers_change)


def _formula_eq16_direct() -> sp.Basic:
    return sp.And(
        sp.Eq(nt.minimum_4_model_a, nt.minimum_16),
        sp.Eq(nt.objective_16(nt.solution_B), nt.minimum_16),
    )


_EQ14_QUOTE = (
    r"\widehat{\mathbf{M}}_{\ell}^{(1)}=\mathbf{U}_{\ell}\mathbf{S}_{\ell}^{(1)}"
    r"\mathbf{U}_{\ell}^{\mathsf{T}},\quad\widehat{\mathbf{W}}_{\ell}=\mathbf{U}_{\ell}"
    r"{\bm{\Sigma}}_{\ell}\mathbf{V}_{\ell}^{\mathsf{T}},\quad\widehat{\mathbf{M}}_{"
    r"\ell}^{(2)}=\mathbf{V}_{\ell}\mathbf{S}_{\ell}^{(2)}\mathbf{V}_{\ell}^{\mathsf{T}}"
)
_EQ15_QUOTE = (
    r"[\mathbf{s}_{\ell}^{(1)}]_{j},[{\bm{\sigma}}_{\ell}]_{j},[\mathbf{s}_{\ell}^{(2)}"
    r"]_{j}=\operatorname*{arg\,min}_{s_{1},s_{2}\geq 1,\sigma\geq 0}\omega_{\ell}^{(1)"
    r"}(s_{1})+\omega_{\ell}^{(2)}(s_{2})+\sigma^{2}\;\;\text{s.t.}\;\;s_{1}\sigma s_{"
    r"2}=[\mathbf{d}_{\ell}]_{j}"
)
_EQ16_QUOTE = (
    r"(\widehat{\mathbf{B}}_{\ell})_{\ell=1}^{L}\in\operatorname*{arg\,min}_{\mathbf{"
    r"B}_{\ell}\in\mathbb{R}^{P_{\ell}\times Q_{\ell}}}\sum_{\ell=1}^{L}\widetilde{"
    r"\Omega}_{\omega_{\ell}^{(1)}\oplus\omega_{\ell}^{(2)}}(\mathbf{B}_{\ell})\;\;"
    r"\text{s.t.}\;\;\widehat{\mathbf{y}}_{i}-f_{{\bm{\theta}}_{0}}(\mathbf{x}_{i})="
    r"\sum_{\ell=1}^{L}\nabla_{\mathrm{vec}(\mathbf{W}_{\ell})}f_{{\bm{\theta}}_{0}}"
    r"(\mathbf{x}_{i})\mathrm{vec}(\mathbf{B}_{\ell})"
)

CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "14",
        "layer-factorization",
        Kind.IDENTITY,
        (
            r"with (15)'s constraint $s_1\sigma s_2 = [\mathbf{d}_\ell]_j$ and "
            r"$[\mathbf{s}]_j = 1$ for $j > \min\{P_\ell, Q_\ell\}$, (14)'s factors "
            r"multiply to $\widehat{\mathbf{B}}_\ell = \mathbf{U}_\ell\,"
            r"\mathrm{diag}_{P\times Q}(\mathbf{d}_\ell)\,\mathbf{V}_\ell^\top$, have "
            r"the spectra $\mathbf{s}^{(1)}, \boldsymbol{\sigma}, \mathbf{s}^{(2)}$, "
            "and the layer's objective is the sum of (15)'s"
        ),
        _check_eq14_factorization,
        Status.HOLDS,
        quote=_EQ14_QUOTE,
        reading=Reading.PRINTED,
        regime=(
            "one layer at (P, Q) = (3, 2) and (2, 3), rational orthogonal U, V "
            "(Cayley transforms), symbolic positive scales and singular values: "
            "(14) with (15)'s constraint, for any values the minimizers of (15) take"
        ),
        assumptions=("U, V orthogonal", "s^(1), sigma, s^(2) > 0"),
        formula=_formula_eq14,
    ),
    Claim(
        SOURCE_ID,
        "15",
        "figure-2-pair",
        Kind.IDENTITY,
        (
            r"for $\omega^{(1)} = (z-1)^2$, $\omega^{(2)} = |z-1|$, (15) is minimized "
            r"at $s_1 = z$, $s_2 = 2z(z-1)$, $\sigma = d/(s_1 s_2)$ with $d^2 = "
            r"4z^5(z-1)^3$, where its value is $\tilde\omega_{\omega_1\oplus\omega_2}"
            r"(d) = 4z^2 - 5z$: the penalty of (16)"
        ),
        _check_eq15_figure_2_pair,
        Status.HOLDS,
        quote=_EQ15_QUOTE,
        reading=Reading.INTERPRETATION,
        regime=(
            "Figure 2's pair omega^(1) = (z-1)^2, omega^(2) = |z-1| (strictly "
            "quasi-convex, 0 at 1: Model A's item 3), d above the join's kink "
            "(z > (1 + sqrt 3)/2, d^2 > 4z_k^5(z_k - 1)^3 ~ 0.93), where the minimizer "
            "is interior; our reading: (15)'s minimum is (16)'s penalty at d"
        ),
        assumptions=("omega^(1) = (z-1)^2, omega^(2) = |z-1|", "z > (1 + sqrt 3)/2"),
        formula=_formula_eq15,
    ),
    Claim(
        SOURCE_ID,
        "16",
        "model-a-constraint",
        Kind.IDENTITY,
        (
            r"under Model A the constraint of (4), $\hat y_i - f_{\theta_0}(x_i) = "
            r"\nabla f_{\theta_0}(x_i) M (\theta - \theta_0)$, is (16)'s, "
            r"$\sum_\ell \nabla_{\mathrm{vec}(W_\ell)} f_{\theta_0}(x_i)\,\mathrm{vec}"
            r"(B_\ell)$, with $B_\ell = M^{(1)}_\ell W_\ell M^{(2)}_\ell$"
        ),
        _check_eq16_constraint,
        Status.HOLDS,
        quote=(
            r"The only care needed is in defining the constraint set \mathcal{B}. "
            r"Proceeding in \ell and fixing choices of the previous "
            r"(\mathbf{B}_{\ell^{\prime}})_{\ell^{\prime}=1}^{\ell-1}, we can always "
            r"define \mathcal{B} in terms of the remaining \mathbf{B}_{\ell} that can "
            "satisfy the linear constraint."
        ),
        reading=Reading.INTERPRETATION,
        regime=(
            "Model A items 2 and 4 with (10): two layers (W_1 2 x 2, general "
            "M_1^(1), M_1^(2); W_2 2 x 1, M_2^(2) = I_1), symbolic entries and "
            "features: the step of the proof of Theorem 2 (A.3.2) that makes (16)'s "
            "constraint"
        ),
        formula=_formula_eq16_constraint,
    ),
    Claim(
        SOURCE_ID,
        "16",
        "direct-minimum",
        Kind.NUMERIC,
        (
            "the minimum of (4) under Model A equals (16)'s, and the B_l of a "
            "solution of (4) minimize (16)"
        ),
        _check_eq16_direct,
        Status.HOLDS,
        quote=_EQ16_QUOTE,
        reading=Reading.INTERPRETATION,
        regime=(
            "two scalar layers (hidden: omega^(1) = (z-1)^2, omega^(2) = |z-1|; "
            "final: omega_L^(1) = (z-1)^2, M_L^(2) = I), one data point with "
            "features (1.3, 0.7) and residual r in {1.2, 3}: Theorem 2's "
            r"'$\widehat{B}_\ell$ satisfy (16)' read as equal optimal values, "
            "attained at the direct solution's B_l"
        ),
        assumptions=(
            "P_l = Q_l = 1, N = 1",
            "omega^(1) = (z-1)^2, omega^(2) = |z-1|; omega_L^(1) = (z-1)^2",
        ),
        budget_seconds=60.0,
        formula=_formula_eq16_direct,
    ),
)
