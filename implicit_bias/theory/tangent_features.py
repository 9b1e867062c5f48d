r"""Adaptive tangent features: effective penalties, their joins and Theorems 1-2.

The derivations of adaptive-tangent-features (LeJeune & Alemohammad) as SymPy
expressions: the spectral regularizer (6), the joint penalty (11), the scalar
effective penalty (12), Theorem 1's solution (8) and kernel (9), Theorem 2's
kernel (17)-(18), the diagonal example (21)-(22), the Taylor argument
(24)-(26) and the Legendre-Fenchel step of the proof of Proposition 3.

Notation. :math:`u = v^2`, :math:`w = z - 1 \ge 0` (only :math:`z \ge 1`
enters (12)). A penalty is a Python callable from a SymPy expression (the
argument z) to its value, e.g. :func:`squared_deviation`; on
:math:`z \ge 1` the families :math:`|z-1|^p` are :math:`w^p`.

**Parametric closed forms.** If a penalty is given parametrically as
:math:`(z(t), \omega(t))` with z increasing, the stationarity of
:math:`\omega + u/z^2` in t gives :math:`u = \omega'(t) z(t)^3 / (2 z'(t))`
and the effective penalty :math:`\tilde\omega = \omega + u/z^2` at that
point (:func:`effective_parametric`). With :math:`z = 1 + w`,
:math:`\omega = w^p` this is :math:`|z-1|^p`; with the parametric form of the
join :math:`(z-1)^2\oplus|z-1|` (:func:`squared_absolute_join_parametric`) it
is the effective penalty of Figure 2's :math:`\omega_3`. Envelope identity:
along the curve, :math:`d\tilde\omega/du = 1/z^2`.

Every object here is a SymPy expression; nothing is evaluated numerically.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from implicit_bias.errors import InvalidArgumentError

__all__ = [
    "GLYPHS",
    "absolute_deviation",
    "absolute_tilde",
    "conjugate_objective_as_printed",
    "conjugate_objective_corrected",
    "diagonal_objective",
    "effective_objective",
    "effective_parametric",
    "join_kink",
    "join_objective",
    "kernel_change_as_printed",
    "kernel_change_exact",
    "layer_transform",
    "power_deviation",
    "power_tilde_parametric",
    "power_tilde_tail_coefficient",
    "saturating_penalty",
    "squared_absolute_join_parametric",
    "squared_absolute_join_root",
    "squared_absolute_tilde_parametric",
    "squared_deviation",
    "squared_tilde_parametric",
    "squared_tilde_root",
    "taylor_minimizer_leading",
    "taylor_second_derivative",
    "taylor_slope_constant",
    "theorem1_parameters",
    "theorem1_transform",
    "theorem2_layer",
    "theorem2_scalar_objective",
    "unit_projector",
]

Penalty = Callable[[sp.Expr], sp.Expr]

v = sp.Symbol("v", positive=True)
u = sp.Symbol("u", positive=True)
z = sp.Symbol("z", positive=True)
w = sp.Symbol("w", positive=True)
p = sp.Symbol("p", positive=True)
s = sp.Symbol("s", positive=True)
m = sp.Symbol("m", positive=True)
beta = sp.Symbol("beta", real=True)
t = sp.Symbol("t", positive=True)
sigma = sp.Symbol("sigma", nonnegative=True)
s1, s2 = sp.symbols("s1 s2", positive=True)
omega_atom = sp.Function("omega")
#: The value :math:`\tilde\omega(v)`, as an atom for displayed relations.
omega_tilde_value = sp.Symbol("omega_tilde_v", nonnegative=True)

#: How each symbol of this source is typeset (paper notation).
GLYPHS: dict[sp.Symbol, str] = {
    v: r"v",
    u: r"v^2",
    z: r"z",
    w: r"(z^{*}-1)",
    p: r"p",
    s: r"s",
    m: r"m_j",
    beta: r"\beta_j",
    t: r"z^{-2}",
    sigma: r"\sigma",
    s1: r"s_1",
    s2: r"s_2",
    omega_tilde_value: r"\tilde{\omega}(v)",
}


# --- penalties (Section 3, Figure 2)


def squared_deviation(x: sp.Expr) -> sp.Expr:
    r""":math:`\omega_1(x) = (x-1)^2` of Figure 2."""
    return (x - 1) ** 2


def absolute_deviation(x: sp.Expr) -> sp.Expr:
    r""":math:`\omega_2(x) = |x-1|` of Figure 2."""
    return sp.Abs(x - 1)


def power_deviation(x: sp.Expr, exponent: sp.Expr = p) -> sp.Expr:
    r""":math:`\omega(x) = |x-1|^p`, the example after eq. (6)."""
    return sp.Abs(x - 1) ** exponent


def saturating_penalty(x: sp.Expr) -> sp.Expr:
    r"""A bounded strictly quasi-convex penalty: :math:`1 - (1+|x-1|)^{-2}`.

    Continuous, minimized at :math:`\omega(1) = 0`, strictly monotone on each
    side of 1 and below 1 everywhere: the counterexample to the strict
    increase claimed in the proof of Proposition 3 (on :math:`x\ge 1` it is
    :math:`1 - 1/x^2`).
    """
    return 1 - 1 / (1 + sp.Abs(x - 1)) ** 2


# --- eqs. (11)-(12)


def effective_objective(omega: Penalty, z_value: sp.Expr, v_value: sp.Expr) -> sp.Expr:
    r"""The objective of eq. (12): :math:`\omega(z) + v^2/z^2`."""
    return omega(z_value) + v_value**2 / z_value**2


def join_objective(
    omega1: Penalty, omega2: Penalty, z_value: sp.Expr, v_value: sp.Expr
) -> sp.Expr:
    r"""The objective of eq. (11): :math:`\omega_1(z) + \omega_2(v/z)`."""
    return omega1(z_value) + omega2(v_value / z_value)


def effective_parametric(
    argument: sp.Expr, value: sp.Expr, parameter: sp.Symbol
) -> tuple[sp.Expr, sp.Expr]:
    r"""Stationary point of eq. (12) for a penalty given as a curve.

    For a penalty :math:`\omega(z(t)) = \omega(t)` on :math:`z \ge 1`, the
    stationarity :math:`\partial_t[\omega(t) + u/z(t)^2] = 0` solved for u.

    Returns:
      ``(u, tilde)``: :math:`u = v^2` and :math:`\tilde\omega = \omega+u/z^2`
      at the stationary point, as functions of the parameter.
    """
    objective = value + u / argument**2
    (u_stationary,) = sp.solve(sp.diff(objective, parameter), u)
    u_stationary = sp.factor(u_stationary)
    return u_stationary, sp.factor(sp.expand(objective.subs(u, u_stationary)))


def power_tilde_parametric(exponent: sp.Expr = p) -> tuple[sp.Expr, sp.Expr]:
    r"""Eq. (12) for :math:`|z-1|^p`, parametrized by :math:`w = z^* - 1`.

    .. math:: v^2 = \tfrac{p}{2} w^{p-1}(1+w)^3,\qquad
              \tilde\omega = w^p + \tfrac{p}{2} w^{p-1}(1+w)
    """
    return effective_parametric(1 + w, w ** sp.sympify(exponent), w)


def squared_tilde_parametric() -> tuple[sp.Expr, sp.Expr]:
    r"""Eq. (12) for :math:`(z-1)^2`.

    .. math:: v^2 = w(1+w)^3,\qquad \tilde\omega = w(1+2w)
    """
    return power_tilde_parametric(2)


def squared_tilde_root() -> sp.Expr:
    r"""The real positive root w of the quartic :math:`w(1+w)^3 = u`, by radicals."""
    roots = sp.solve(w * (1 + w) ** 3 - u, w)
    (real_root,) = [
        r
        for r in roots
        if abs(sp.im(sp.N(r.subs(u, 1)))) < 1e-30 and sp.N(r.subs(u, 1)) > 0
    ]
    return real_root


def absolute_tilde(v_value: sp.Expr = v) -> sp.Expr:
    r"""Eq. (12) for :math:`|z-1|` in closed form.

    .. math:: \tilde\omega(v) = \begin{cases} v^2 & v^2\le 1/2\\
              \tfrac32 (2v^2)^{1/3} - 1 & v^2 > 1/2\end{cases}

    Derived from the stationarity :math:`1 = 2v^2/z^3` (:math:`z \ge 1`).
    """
    objective = effective_objective(lambda x: x - 1, z, v_value)
    (z_star,) = sp.solve(sp.diff(objective, z), z)
    interior = sp.simplify(objective.subs(z, z_star))
    return sp.Piecewise((v_value**2, v_value**2 <= sp.Rational(1, 2)), (interior, True))


def power_tilde_tail_coefficient(exponent: sp.Expr = p) -> sp.Expr:
    r"""The limit of :math:`\tilde\omega(v)/v^{2p/(p+2)}` for :math:`|z-1|^p`.

    From :math:`\min_z z^p + v^2/z^2`: :math:`(1+p/2)(2/p)^{p/(p+2)}`.
    """
    exponent = sp.sympify(exponent)
    return (1 + exponent / 2) * (2 / exponent) ** (exponent / (exponent + 2))


def squared_absolute_join_parametric() -> tuple[sp.Expr, sp.Expr]:
    r"""Eq. (11) for :math:`(z-1)^2\oplus|z-1|` above its kink, parametrized by z.

    Stationarity of :math:`(z-1)^2 + v/z - 1` gives :math:`v = 2z^2(z-1)`,
    and the value there is :math:`3z^2 - 4z`. Valid for
    :math:`z \ge (1+\sqrt3)/2` (:func:`join_kink`); below, the minimum is the
    end point :math:`z = v` with value :math:`(v-1)^2`.

    Returns:
      ``(v, value)`` as functions of z.
    """
    objective = join_objective(squared_deviation, lambda x: x - 1, z, v)
    (v_stationary,) = sp.solve(sp.diff(objective, z), v)
    return sp.factor(v_stationary), sp.expand(objective.subs(v, v_stationary))


def join_kink() -> sp.Expr:
    r"""The v where the stationary z of (11) for :math:`(z-1)^2\oplus|z-1|` is v."""
    v_of_z, _ = squared_absolute_join_parametric()
    (kink,) = [r for r in sp.solve(sp.Eq(v_of_z, z), z) if r.is_positive and r > 1]
    return sp.nsimplify(kink)


def squared_absolute_join_root(v_value: sp.Expr = v) -> sp.Expr:
    r"""The real root z of :math:`2z^2(z-1) = v` (Cardano), for :math:`v > 0`."""
    v_of_z, _ = squared_absolute_join_parametric()
    roots = sp.solve(sp.Eq(v_of_z, v_value), z)
    (real_root,) = [r for r in roots if abs(sp.im(sp.N(r.subs(v_value, 3)))) < 1e-30]
    return real_root


def squared_absolute_tilde_parametric() -> tuple[sp.Expr, sp.Expr]:
    r"""Eq. (12) for Figure 2's :math:`\omega_3 = (z-1)^2\oplus|z-1|`, in terms of z.

    With the join's curve :math:`(2z^2(z-1),\ 3z^2-4z)` of
    :func:`squared_absolute_join_parametric`: :math:`v^2 = 4z^5(z-1)^3`,
    :math:`\tilde\omega_3 = 4z^2 - 5z` (for an outer minimizer above the kink).
    """
    argument, value = squared_absolute_join_parametric()
    return effective_parametric(argument, value, z)


# --- Theorem 1, eqs. (8)-(9)


def unit_projector(vector: sp.Matrix) -> sp.Matrix:
    r""":math:`\|\beta\|_2^{-2}\beta\beta^\top`."""
    return vector * vector.T / (vector.T * vector)[0, 0]


def theorem1_transform(vector: sp.Matrix, scale: sp.Expr = s) -> sp.Matrix:
    r"""Eq. (8): :math:`\hat M = I + (s-1)\hat\beta\hat\beta^\top/\|\hat\beta\|^2`."""
    return sp.eye(vector.rows) + (scale - 1) * unit_projector(vector)


def theorem1_parameters(vector: sp.Matrix, scale: sp.Expr = s) -> sp.Matrix:
    r"""Eq. (8): :math:`\hat\theta - \theta_0 = s^{-1}\hat\beta`."""
    return vector / scale


# --- Theorem 2, eqs. (10), (17)-(18)


def layer_transform(m1: sp.Matrix, m2: sp.Matrix) -> sp.Matrix:
    r"""Eq. (10): :math:`M_\ell = M^{(2)\top}_\ell\otimes M^{(1)}_\ell` on vec(W).

    .. math:: \mathrm{vec}(M^{(1)} W M^{(2)})
              = (M^{(2)\top}\otimes M^{(1)})\mathrm{vec}(W)
    """
    return sp.kronecker_product(m2.T, m1)


def kernel_change_exact(m1: sp.Matrix, m2: sp.Matrix) -> sp.Matrix:
    r"""The change :math:`M_\ell M_\ell^\top - I` of a layer's kernel (eq. (7))."""
    transform = layer_transform(m1, m2)
    return transform * transform.T - sp.eye(transform.rows)


def kernel_change_as_printed(
    u_matrix: sp.Matrix,
    v_matrix: sp.Matrix,
    scales1: list[sp.Expr],
    scales2: list[sp.Expr],
) -> sp.Matrix:
    r"""Eqs. (17)-(18) between the Jacobians: the diagonal pairs j only.

    .. math:: \sum_{j\le\min(P,Q)} ([s^{(1)}]_j^2[s^{(2)}]_j^2 - 1)\,
              \mathrm{vec}(u_j v_j^\top)\mathrm{vec}(u_j v_j^\top)^\top
    """
    total = sp.zeros(u_matrix.rows * v_matrix.rows)
    for j in range(min(u_matrix.rows, v_matrix.rows)):
        direction = (u_matrix[:, j] * v_matrix[:, j].T).vec()
        total += (scales1[j] ** 2 * scales2[j] ** 2 - 1) * direction * direction.T
    return total


def theorem2_layer(
    u_matrix: sp.Matrix,
    v_matrix: sp.Matrix,
    scales1: list[sp.Expr],
    singular: list[sp.Expr],
    scales2: list[sp.Expr],
) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
    r"""Eq. (14): one layer's :math:`\hat M^{(1)}, \hat W, \hat M^{(2)}` of Theorem 2.

    .. math:: \hat M^{(1)} = U\,\mathrm{diag}(s^{(1)})\,U^\top,\quad
              \hat W = U\,\mathrm{diag}_{P\times Q}(\sigma)\,V^\top,\quad
              \hat M^{(2)} = V\,\mathrm{diag}(s^{(2)})\,V^\top

    Args:
      u_matrix, v_matrix: :math:`U` (P x P) and :math:`V` (Q x Q), orthogonal.
      scales1, scales2: :math:`s^{(1)}` (P entries), :math:`s^{(2)}` (Q
        entries); Theorem 2 sets those beyond :math:`\min\{P, Q\}` to 1.
      singular: :math:`\sigma`, :math:`\min\{P, Q\}` entries.

    Raises:
      InvalidArgumentError: an argument's length does not fit U and V.
    """
    rows, columns = u_matrix.rows, v_matrix.rows
    for name, values, size in (
        ("scales1", scales1, rows),
        ("singular", singular, min(rows, columns)),
        ("scales2", scales2, columns),
    ):
        if len(values) != size:
            raise InvalidArgumentError(
                f"{name}: {size} entries for U of size {rows} and V of size "
                f"{columns}, got {len(values)}"
            )
    sigma = sp.zeros(rows, columns)
    for index, value in enumerate(singular):
        sigma[index, index] = value
    return (
        u_matrix * sp.diag(*scales1) * u_matrix.T,
        u_matrix * sigma * v_matrix.T,
        v_matrix * sp.diag(*scales2) * v_matrix.T,
    )


def theorem2_scalar_objective(
    omega1: Penalty,
    omega2: Penalty,
    scale1: sp.Expr,
    scale2: sp.Expr,
    singular_value: sp.Expr,
) -> sp.Expr:
    r"""Eq. (15)'s objective with :math:`\sigma` taken from its constraint.

    .. math:: \omega^{(1)}(s_1) + \omega^{(2)}(s_2) + \sigma^2,\qquad
              \sigma = \frac{d}{s_1 s_2}\quad (s_1\sigma s_2 = d)
    """
    sigma_value = singular_value / (scale1 * scale2)
    return omega1(scale1) + omega2(scale2) + sigma_value**2


# --- Appendix A.1, eqs. (21)-(22)


def diagonal_objective(
    omega: Penalty, m_value: sp.Expr, beta_value: sp.Expr
) -> sp.Expr:
    r"""A.1: one scalar problem :math:`\omega(m_j)+\beta_j^2/m_j^2` of a diagonal M."""
    return omega(m_value) + beta_value**2 / m_value**2


# --- proof of Proposition 3 (A.2.2)


def conjugate_objective_as_printed(omega: Penalty, v_value: sp.Expr) -> sp.Expr:
    r"""The printed conjugacy: :math:`-\tilde\omega(v) = \sup_y\ v^2 y - \phi(y)`.

    With :math:`\phi: z^2 \mapsto \omega(1/z^2)`, i.e. :math:`\phi(y) = \omega(1/y)`
    and y (= :math:`z^2`) the conjugate variable paired with :math:`v^2`.
    """
    return v_value**2 * t - omega(1 / t)


def conjugate_objective_corrected(omega: Penalty, v_value: sp.Expr) -> sp.Expr:
    r"""The corrected conjugacy, :math:`-\tilde\omega(v) = h^*(-v^2)`.

    With :math:`h(t) = \omega(t^{-1/2})` on :math:`t = z^{-2}\in(0,1]`:
    :math:`h^*(-v^2) = \sup_{t\in(0,1]} -v^2 t - \omega(t^{-1/2})`.
    """
    return -(v_value**2) * t - omega(1 / sp.sqrt(t))


# --- eqs. (24)-(26)


def taylor_second_derivative(z_of_v: sp.Expr, v_value: sp.Expr = v) -> sp.Expr:
    r"""Eq. (25): :math:`2/z^{*2} - 4 (v/z^{*3})\,\partial z^*/\partial v`."""
    return 2 / z_of_v**2 - 4 * v_value / z_of_v**3 * sp.diff(z_of_v, v_value)


def taylor_minimizer_leading(v_value: sp.Expr = v, exponent: sp.Expr = p) -> sp.Expr:
    r"""The minimizer the text plugs into eq. (26): :math:`p|z^*-1|^{p-1} = 2v^2`.

    .. math:: z^* = 1 + \left(\tfrac{2v^2}{p}\right)^{1/(p-1)}

    The leading order of the stationarity :math:`\partial\omega(z^*) \ni 2v^2/z^{*3}`
    for :math:`\omega(z) = |z-1|^p + o(|z-1|^p)`, "exact as :math:`v\to 0^+`"
    (proof of Proposition 3, before eq. (26)); defined for :math:`p \ne 1`.
    """
    exponent = sp.sympify(exponent)
    return 1 + (2 * v_value**2 / exponent) ** (1 / (exponent - 1))


def taylor_slope_constant(exponent: sp.Expr = p) -> sp.Expr:
    r"""The constant :math:`C_p` of eq. (26), which the text leaves unnamed.

    .. math:: C_p = \frac{2}{p-1}\left(\frac{2}{p}\right)^{1/(p-1)}

    From :func:`taylor_minimizer_leading`:
    :math:`\partial z^*/\partial v = C_p v^{1 - 2(p-2)/(p-1)}`.
    """
    exponent = sp.sympify(exponent)
    return 2 / (exponent - 1) * (2 / exponent) ** (1 / (exponent - 1))
