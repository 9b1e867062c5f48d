r"""PT+FT and multi-task learning in diagonal linear networks (Appendices A-B).

The derivations of Appendix A (gradient flow, the sinh form of the solution and
the Q-norm, eqs. (6)-(23)) and Appendix B (the :math:`\ell_{1,2}` penalty of
multi-task diagonal linear and ReLU networks, eqs. (24)-(35)) of
ptft-diagonal-networks, equation by equation as the source prints them. Eq.
(12) is printed empty.

Notation. :math:`X` is the :math:`n\times D` data matrix, :math:`y\in\mathbb{R}^n`
the targets and :math:`\tilde X = [X\ {-X}]`. Each layer's weights stack the two
halves of the network, :math:`w^{(l)} = [w^{(l)}_+; w^{(l)}_-]\in\mathbb{R}^{2D}`,
so that :math:`\tilde X (w^{(1)}\circ w^{(2)}) = X\beta(w)` with :math:`\beta` of
eq. (7). The paper never defines the residual :math:`r(t)`; we use that of
Woodworth et al. (2020), whose notation it adopts,

.. math:: r(t) = \tilde X\,(w^{(1)}(t)\circ w^{(2)}(t)) - y = X\beta(t) - y,

and gradient flow :math:`\dot w = -\nabla L`. :math:`R(t) = \int_0^t r(\tau)\,d\tau`
(so :math:`R' = r`, :math:`R(0) = 0`) and :math:`u = X^\top R` is the exponent of
eqs. (18)-(21), one entry per input dimension.

The vector equations are elementwise, so they are stated on an explicit small
instance (:data:`DIMENSION` inputs, :data:`SAMPLES` samples, real symbols as
entries) by the functions taking matrices; the scalar functions state one
coordinate. ``display_*`` functions build the relation a claim prints, with
atoms typeset by :data:`GLYPHS`.

Every object here is a SymPy expression; nothing is evaluated numerically.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

from implicit_bias.theory.symbols import gamma

__all__ = [
    "DIMENSION",
    "GLYPHS",
    "SAMPLES",
    "beta_eq16",
    "beta_eq17",
    "beta_eq18_19",
    "beta_eq18_19_corrected",
    "beta_eq20",
    "beta_eq21",
    "data_matrix",
    "difference_coordinates",
    "display_eq7",
    "display_eq8",
    "display_eq9",
    "display_eq10",
    "display_eq11",
    "display_eq13",
    "display_eq14",
    "display_eq16",
    "display_eq17",
    "display_eq18_19",
    "display_eq20",
    "display_eq21",
    "display_eq22",
    "display_eq23",
    "display_eq28",
    "display_eq29",
    "display_eq30",
    "display_eq31",
    "display_eq33",
    "display_eq34",
    "display_eq35",
    "effective_weights",
    "flow_rhs_eq8",
    "flow_rhs_eq9",
    "flow_rhs_eq10",
    "flow_rhs_eq11",
    "hadamard",
    "integrated_residual",
    "l12_norm",
    "layer_weights",
    "loss_gradient",
    "mtl_effective_weights",
    "mtl_objective_eq28",
    "mtl_parameter_norm_eq26",
    "mtl_parameter_norm_eq27",
    "norm",
    "ptft_coefficient",
    "q_large_z",
    "q_norm",
    "q_norm_coefficient",
    "q_norm_term",
    "q_potential",
    "q_small_z",
    "relu",
    "relu_direction_eq32",
    "relu_magnitude_eq32",
    "relu_network_eq31",
    "relu_objective_eq33",
    "residual",
    "solution_eq13",
    "solution_eq14",
    "split_halves",
    "squared_loss",
    "stacked_data",
    "stationary_z_squared",
    "sum_coordinates",
    "targets",
]

#: Input dimension D of the explicit instance (the identities are elementwise,
#: and D = 2 shows that the + and - halves of X~ do not mix).
DIMENSION = 2
#: Number of samples n of the explicit instance.
SAMPLES = 2

# --- display atoms: one coordinate i of a 2D-vector, or d of a D-vector

t = sp.Symbol("t", nonnegative=True)
z = sp.Symbol("z", real=True)
z_abs = sp.Symbol("z_abs", positive=True)
k_d = sp.Symbol("k_d", positive=True)
beta_d = sp.Symbol("beta_d", real=True)
beta_aux_d = sp.Symbol("beta_aux_d", real=True)
w1_i, w2_i = sp.symbols("w1_i w2_i", real=True)
w1_dot_i, w2_dot_i = sp.symbols("w1dot_i w2dot_i", real=True)
grad_w1_i, grad_w2_i = sp.symbols("grad_w1_i grad_w2_i", real=True)
xt_r_i = sp.Symbol("xt_r_i", real=True)
xt_int_r_i = sp.Symbol("xt_int_r_i", real=True)
x_int_r_d = sp.Symbol("x_int_r_d", real=True)
s_i, d_i, s_dot_i, d_dot_i = sp.symbols("s_i d_i sdot_i ddot_i", real=True)
s_init_i, d_init_i = sp.symbols("s0_i d0_i", real=True)
s_plus, s_minus, d_plus, d_minus = sp.symbols("s_p s_m d_p d_m", real=True)
w1_plus, w2_plus, w1_minus, w2_minus = sp.symbols("w1_p w2_p w1_m w2_m", real=True)
s0_d, d0_d = sp.symbols("s0_d d0_d", real=True)
w01_d, w02_d = sp.symbols("w01_d w02_d", real=True)
q_norm_atom = sp.Symbol("q_norm", nonnegative=True)
z_d = sp.Symbol("z_d", positive=True)
z_h = sp.Symbol("z_h", positive=True)
beta_norm_d = sp.Symbol("beta_norm_d", nonnegative=True)
m_norm_h = sp.Symbol("m_norm_h", nonnegative=True)
param_norm_d = sp.Symbol("param_norm_d", nonnegative=True)
param_norm_h = sp.Symbol("param_norm_h", nonnegative=True)
index_d = sp.Symbol("d", integer=True, positive=True)
index_h = sp.Symbol("h", integer=True, positive=True)
dimension_atom = sp.Symbol("D", integer=True, positive=True)
units_atom = sp.Symbol("H", integer=True, positive=True)
f_of_x = sp.Symbol("f_w", real=True)
w2_relu_h, m_h, relu_w1_x, relu_theta_x = sp.symbols(
    "w2_h m_h relu_w1x relu_thetax", real=True
)
q_of_z = sp.Function("q")(z)

#: How each symbol of this source is typeset (paper notation).
GLYPHS: dict[sp.Symbol, str] = {
    t: r"t",
    z: r"z",
    z_abs: r"|z|",
    k_d: r"k_d",
    beta_d: r"\beta_d",
    beta_aux_d: r"\beta^{aux}_d",
    gamma: r"\gamma",
    w1_i: r"w^{(1)}_i(t)",
    w2_i: r"w^{(2)}_i(t)",
    w1_dot_i: r"\dot{w}^{(1)}_i(t)",
    w2_dot_i: r"\dot{w}^{(2)}_i(t)",
    grad_w1_i: r"\left(\nabla_{\vec{w}^{(1)}(t)} L\right)_i",
    grad_w2_i: r"\left(\nabla_{\vec{w}^{(2)}(t)} L\right)_i",
    xt_r_i: r"\left(\tilde{X}^\top r(t)\right)_i",
    xt_int_r_i: r"\left(\tilde{X}^\top \int_0^t r(\tau)\,d\tau\right)_i",
    x_int_r_d: r"\left(X^\top \int_0^t r(\tau)\,d\tau\right)_d",
    s_i: r"s_i(t)",
    d_i: r"d_i(t)",
    s_dot_i: r"\dot{s}_i(t)",
    d_dot_i: r"\dot{d}_i(t)",
    s_init_i: r"s_i(0)",
    d_init_i: r"d_i(0)",
    s_plus: r"s_{+,d}(t)",
    s_minus: r"s_{-,d}(t)",
    d_plus: r"d_{+,d}(t)",
    d_minus: r"d_{-,d}(t)",
    w1_plus: r"w_{+,d}^{(1)}",
    w2_plus: r"w_{+,d}^{(2)}",
    w1_minus: r"w_{-,d}^{(1)}",
    w2_minus: r"w_{-,d}^{(2)}",
    s0_d: r"s_{0,d}",
    d0_d: r"d_{0,d}",
    w01_d: r"(w_0)_d^{(1)}",
    w02_d: r"(w_0)_d^{(2)}",
    q_norm_atom: r"\|\beta\|_Q",
    z_d: r"z_d",
    z_h: r"z_h",
    beta_norm_d: r"\|\vec{\beta}_d\|_2",
    m_norm_h: r"\|\vec{m}_h\|_2",
    param_norm_d: (
        r"\left((w_{+,d}^{(1)})^2 + \sum_{o=1}^O (w_{+,o,d}^{(2)})^2\right)"
    ),
    param_norm_h: r"\left(\|w_h^{(1)}\|_2^2 + \|w_h^{(2)}\|_2^2\right)",
    index_d: r"d",
    index_h: r"h",
    dimension_atom: r"D",
    units_atom: r"H",
    f_of_x: r"f_w(x)",
    w2_relu_h: r"w_h^{(2)}",
    m_h: r"\vec{m}_h",
    relu_w1_x: r"\left(\langle w_h^{(1)}, \vec{x}\rangle\right)_+",
    relu_theta_x: r"\left(\langle \vec{\theta}_h, \vec{x}\rangle\right)_+",
}


# --- the explicit instance


def _symbol_matrix(name: str, rows: int, cols: int) -> sp.Matrix:
    return sp.Matrix(
        rows,
        cols,
        lambda i, j: sp.Symbol(f"{name}_{i + 1}{j + 1}", real=True),
    )


def hadamard(a: sp.Matrix, b: sp.Matrix) -> sp.Matrix:
    r"""The elementwise product :math:`a\circ b` of two column vectors."""
    return a.multiply_elementwise(b)


def norm(vector: sp.Matrix | Sequence[sp.Expr]) -> sp.Expr:
    r"""The Euclidean norm :math:`\|v\|_2` of a vector of SymPy expressions."""
    return sp.sqrt(sum(sp.sympify(v) ** 2 for v in vector))


def data_matrix(samples: int = SAMPLES, dimension: int = DIMENSION) -> sp.Matrix:
    r"""The :math:`n\times D` data matrix :math:`X` with real symbols ``x_ij``."""
    return _symbol_matrix("x", samples, dimension)


def targets(samples: int = SAMPLES) -> sp.Matrix:
    r"""The targets :math:`y\in\mathbb{R}^n` as real symbols ``y_i``."""
    return sp.Matrix([sp.Symbol(f"y_{i + 1}", real=True) for i in range(samples)])


def stacked_data(x: sp.Matrix) -> sp.Matrix:
    r""":math:`\tilde X = [X\ {-X}]`, the data matrix seen by the stacked weights."""
    return sp.Matrix.hstack(x, -x)


def layer_weights(layer: int, dimension: int = DIMENSION) -> sp.Matrix:
    r"""The stacked weights :math:`w^{(l)} = [w^{(l)}_+; w^{(l)}_-]\in\mathbb{R}^{2D}`.

    Entry ``w{l}p_{d}`` is :math:`w^{(l)}_{+,d}` and ``w{l}m_{d}`` is
    :math:`w^{(l)}_{-,d}`.
    """
    plus = [sp.Symbol(f"w{layer}p_{d + 1}", real=True) for d in range(dimension)]
    minus = [sp.Symbol(f"w{layer}m_{d + 1}", real=True) for d in range(dimension)]
    return sp.Matrix(plus + minus)


def split_halves(vector: sp.Matrix) -> tuple[sp.Matrix, sp.Matrix]:
    """The + half (first D entries) and the - half (last D entries) of a 2D-vector."""
    half = vector.rows // 2
    return vector[:half, :], vector[half:, :]


def effective_weights(w1: sp.Matrix, w2: sp.Matrix) -> sp.Matrix:
    r"""Eq. (7) (and (15)) of ptft-diagonal-networks.

    .. math:: \beta_d = w^{(2)}_{+,d} w^{(1)}_{+,d} - w^{(2)}_{-,d} w^{(1)}_{-,d}

    Examples:
      >>> x, w1, w2 = data_matrix(), layer_weights(1), layer_weights(2)
      >>> stacked = stacked_data(x) * hadamard(w1, w2)
      >>> sp.expand(stacked - x * effective_weights(w1, w2)) == sp.zeros(SAMPLES, 1)
      True
    """
    w1_p, w1_m = split_halves(w1)
    w2_p, w2_m = split_halves(w2)
    return hadamard(w2_p, w1_p) - hadamard(w2_m, w1_m)


def squared_loss(
    x_tilde: sp.Matrix, y: sp.Matrix, w1: sp.Matrix, w2: sp.Matrix
) -> sp.Expr:
    r"""The task loss of eqs. (8)-(9).

    .. math:: L = \|\tilde X(w^{(1)}\circ w^{(2)}) - y\|_2^2
    """
    difference = x_tilde * hadamard(w1, w2) - y
    return (difference.T * difference)[0, 0]


def residual(
    x_tilde: sp.Matrix, y: sp.Matrix, w1: sp.Matrix, w2: sp.Matrix
) -> sp.Matrix:
    r"""Our residual :math:`r = \tilde X(w^{(1)}\circ w^{(2)}) - y` (Woodworth).

    The paper never defines :math:`r`; this sign makes the right-hand sides of
    eqs. (8)-(9) gradient flow :math:`\dot w = -\nabla L`.
    """
    return x_tilde * hadamard(w1, w2) - y


def loss_gradient(loss: sp.Expr, weights: sp.Matrix) -> sp.Matrix:
    r""":math:`\nabla_w L`, the column vector of partial derivatives."""
    return sp.Matrix([sp.diff(loss, w) for w in weights])


def flow_rhs_eq8(x_tilde: sp.Matrix, r: sp.Matrix, w2: sp.Matrix) -> sp.Matrix:
    r"""Right-hand side of eq. (8): :math:`-2\tilde X^\top r\circ w^{(2)}`."""
    return -2 * hadamard(x_tilde.T * r, w2)


def flow_rhs_eq9(x_tilde: sp.Matrix, r: sp.Matrix, w1: sp.Matrix) -> sp.Matrix:
    r"""Right-hand side of eq. (9): :math:`-2\tilde X^\top r\circ w^{(1)}`."""
    return -2 * hadamard(x_tilde.T * r, w1)


def sum_coordinates(w1: sp.Matrix, w2: sp.Matrix) -> sp.Matrix:
    r""":math:`s = \frac12(w^{(1)} + w^{(2)})` (before eq. (10))."""
    return (w1 + w2) / 2


def difference_coordinates(w1: sp.Matrix, w2: sp.Matrix) -> sp.Matrix:
    r""":math:`d = \frac12(w^{(1)} - w^{(2)})` (before eq. (10))."""
    return (w1 - w2) / 2


def flow_rhs_eq10(x_tilde: sp.Matrix, r: sp.Matrix, s: sp.Matrix) -> sp.Matrix:
    r"""Right-hand side of eq. (10): :math:`\dot s = -2\tilde X^\top r\circ s`."""
    return -2 * hadamard(x_tilde.T * r, s)


def flow_rhs_eq11(x_tilde: sp.Matrix, r: sp.Matrix, d: sp.Matrix) -> sp.Matrix:
    r"""Right-hand side of eq. (11): :math:`\dot d = 2\tilde X^\top r\circ d`."""
    return 2 * hadamard(x_tilde.T * r, d)


def integrated_residual(samples: int = SAMPLES) -> sp.Matrix:
    r""":math:`R(t) = \int_0^t r(\tau)\,d\tau` as undefined functions ``R_k(t)``.

    Its derivative is the residual, :math:`R_k'(t) = r_k(t)`, and :math:`R(0) = 0`.
    """
    return sp.Matrix([sp.Function(f"R_{k + 1}")(t) for k in range(samples)])


def solution_eq13(
    s_init: sp.Matrix, x_tilde: sp.Matrix, r_integral: sp.Matrix
) -> sp.Matrix:
    r"""Eq. (13): :math:`s(t) = s(0)\circ\exp(-2\tilde X^\top\int_0^t r)`."""
    exponent = -2 * x_tilde.T * r_integral
    return hadamard(s_init, exponent.applyfunc(sp.exp))


def solution_eq14(
    d_init: sp.Matrix, x_tilde: sp.Matrix, r_integral: sp.Matrix
) -> sp.Matrix:
    r"""Eq. (14): :math:`d(t) = d(0)\circ\exp(2\tilde X^\top\int_0^t r)`."""
    exponent = 2 * x_tilde.T * r_integral
    return hadamard(d_init, exponent.applyfunc(sp.exp))


# --- eqs. (16)-(21), one input dimension d


def beta_eq16(s_p: sp.Expr, d_p: sp.Expr, s_m: sp.Expr, d_m: sp.Expr) -> sp.Expr:
    r"""Eq. (16) of ptft-diagonal-networks.

    .. math:: \beta_d = (s_{+,d}^2 - d_{+,d}^2) - (s_{-,d}^2 - d_{-,d}^2)
    """
    return (s_p**2 - d_p**2) - (s_m**2 - d_m**2)


def beta_eq17(s_p: sp.Expr, d_p: sp.Expr, s_m: sp.Expr, d_m: sp.Expr) -> sp.Expr:
    r"""Eq. (17) of ptft-diagonal-networks.

    .. math:: \beta_d = (s_{+,d}^2 - s_{-,d}^2) - (d_{+,d}^2 - d_{-,d}^2)
    """
    return (s_p**2 - s_m**2) - (d_p**2 - d_m**2)


def beta_eq18_19(s0: sp.Expr, d0: sp.Expr, u: sp.Expr) -> sp.Expr:
    r"""Eqs. (18)-(19) as printed, with :math:`u = (X^\top\int_0^t r)_d`.

    .. math:: 2s_0^2(e^{-4u} - e^{4u}) - 2d_0^2(e^{4u} - e^{-4u})
    """
    return 2 * s0**2 * (sp.exp(-4 * u) - sp.exp(4 * u)) - 2 * d0**2 * (
        sp.exp(4 * u) - sp.exp(-4 * u)
    )


def beta_eq18_19_corrected(s0: sp.Expr, d0: sp.Expr, u: sp.Expr) -> sp.Expr:
    r"""Eqs. (18)-(19) without the spurious factor 2 (what eq. (17) gives).

    .. math:: s_0^2(e^{-4u} - e^{4u}) - d_0^2(e^{4u} - e^{-4u})
    """
    return s0**2 * (sp.exp(-4 * u) - sp.exp(4 * u)) - d0**2 * (
        sp.exp(4 * u) - sp.exp(-4 * u)
    )


def beta_eq20(s0: sp.Expr, d0: sp.Expr, u: sp.Expr) -> sp.Expr:
    r"""Eq. (20): :math:`2(s_0^2 + d_0^2)\sinh(-4u)`."""
    return 2 * (s0**2 + d0**2) * sp.sinh(-4 * u)


def beta_eq21(w0_1: sp.Expr, w0_2: sp.Expr, u: sp.Expr) -> sp.Expr:
    r"""Eq. (21): :math:`((w_0^{(1)})^2 + (w_0^{(2)})^2)\sinh(-4u)`."""
    return q_norm_coefficient(w0_1, w0_2) * sp.sinh(-4 * u)


# --- eqs. (22)-(23): the Q-norm


def q_potential(z_value: sp.Expr = z) -> sp.Expr:
    r"""Eq. (23) of ptft-diagonal-networks.

    .. math:: q(z) = 2 - \sqrt{4+z^2} + z\,\operatorname{arcsinh}(z/2)

    Examples:
      >>> z = sp.Symbol("z", real=True)
      >>> sp.simplify(sp.diff(q_potential(z), z) - sp.asinh(z / 2))
      0
      >>> q_potential(sp.Integer(0))
      0
    """
    return 2 - sp.sqrt(4 + z_value**2) + z_value * sp.asinh(z_value / 2)


def q_norm_coefficient(w0_1: sp.Expr, w0_2: sp.Expr) -> sp.Expr:
    r"""The weight of eqs. (21)-(22).

    .. math:: k_d = ((w_0)^{(1)}_d)^2 + ((w_0)^{(2)}_d)^2
    """
    return w0_1**2 + w0_2**2


def q_norm_term(beta: sp.Expr, k: sp.Expr) -> sp.Expr:
    r"""One summand of eq. (22): :math:`k_d\,q(2\beta_d/k_d)`."""
    return k * q_potential(2 * beta / k)


def q_norm(betas: Sequence[sp.Expr], coefficients: Sequence[sp.Expr]) -> sp.Expr:
    r"""Eq. (22): :math:`\|\beta\|_Q = \sum_d k_d\,q(2\beta_d/k_d)`."""
    return sp.Add(
        *(q_norm_term(b, k) for b, k in zip(betas, coefficients, strict=True))
    )


def ptft_coefficient(beta_aux: sp.Expr, gamma_value: sp.Expr = gamma) -> sp.Expr:
    r""":math:`k_d` of PT+FT (end of Appendix A).

    With :math:`(w_0)^{(1)}_d = \sqrt{|\beta^{aux}_d|}` and
    :math:`(w_0)^{(2)}_d = \gamma`: :math:`k_d = |\beta^{aux}_d| + \gamma^2`.
    """
    return q_norm_coefficient(sp.sqrt(sp.Abs(beta_aux)), gamma_value)


def q_small_z(z_value: sp.Expr = z) -> sp.Expr:
    r"""The expansion of eq. (23) at 0 to :math:`O(z^6)`: :math:`z^2/4 - z^4/192`."""
    return z_value**2 / 4 - z_value**4 / 192


def q_large_z(z_value: sp.Expr = z) -> sp.Expr:
    r"""The expansion of eq. (23) at :math:`|z|\to\infty` to :math:`O(|z|^{-3})`.

    .. math:: q(z) = |z|\log|z| - |z| + 2 - 1/|z| + O(|z|^{-3})
    """
    a = sp.Abs(z_value)
    return a * sp.log(a) - a + 2 - 1 / a


# --- Appendix B: multi-task networks


def mtl_effective_weights(
    w1_p: sp.Expr, w2_p: sp.Matrix, w1_m: sp.Expr, w2_m: sp.Matrix
) -> sp.Matrix:
    r"""Eq. (25) for one input dimension d, all outputs o at once.

    .. math:: \beta_{o,d} = w^{(2)}_{+,o,d}w^{(1)}_{+,d} - w^{(2)}_{-,o,d}w^{(1)}_{-,d}
    """
    return w2_p * w1_p - w2_m * w1_m


def mtl_parameter_norm_eq26(
    w1_p: sp.Expr, w2_p: sp.Matrix, w1_m: sp.Expr, w2_m: sp.Matrix
) -> sp.Expr:
    r"""The summand d of eq. (26): both halves' squared weights."""
    return w1_p**2 + sum(v**2 for v in w2_p) + w1_m**2 + sum(v**2 for v in w2_m)


def mtl_parameter_norm_eq27(w1_p: sp.Expr, w2_p: sp.Matrix) -> sp.Expr:
    r"""The summand d of eq. (27): the + half only."""
    return w1_p**2 + sum(v**2 for v in w2_p)


def mtl_objective_eq28(z_value: sp.Expr, beta_norm: sp.Expr) -> sp.Expr:
    r"""Right-hand side of eq. (28): :math:`z_d^2 + \|\beta_d\|_2^2/z_d^2`."""
    return z_value**2 + beta_norm**2 / z_value**2


def stationary_z_squared(beta_norm: sp.Expr) -> sp.Expr:
    r"""Eq. (29) (and (34)): the stationary :math:`z^2 = \|\beta_d\|_2`."""
    return beta_norm


def l12_norm(betas: sp.Matrix) -> sp.Expr:
    r"""The :math:`\ell_{1,2}` norm of eq. (30): :math:`\sum_d \|\beta_{\cdot,d}\|_2`.

    ``betas`` is :math:`O\times D` (column d is :math:`\vec\beta_d`).
    """
    return sp.Add(*(norm(betas[:, d]) for d in range(betas.cols)))


def relu(a: sp.Expr) -> sp.Expr:
    r"""The ReLU :math:`(a)_+ = \max(0, a)`."""
    return sp.Max(0, a)


def relu_network_eq31(
    w1: Sequence[sp.Matrix], w2: Sequence[sp.Matrix], x: sp.Matrix
) -> sp.Matrix:
    r"""Eq. (31), first form.

    .. math:: f_w(x) = \sum_h w_h^{(2)}(\langle w_h^{(1)}, x\rangle)_+
    """
    terms = [b * relu((a.T * x)[0, 0]) for a, b in zip(w1, w2, strict=True)]
    return sum(terms[1:], terms[0])


def relu_magnitude_eq32(w1: sp.Matrix, w2: sp.Matrix) -> sp.Matrix:
    r"""Eq. (32): :math:`\vec m_h = w_h^{(2)}\|w_h^{(1)}\|_2`."""
    return w2 * norm(w1)


def relu_direction_eq32(w1: sp.Matrix) -> sp.Matrix:
    r"""Eq. (32): :math:`\vec\theta_h = w_h^{(1)}/\|w_h^{(1)}\|_2`."""
    return w1 / norm(w1)


def relu_objective_eq33(z_value: sp.Expr, m_norm: sp.Expr) -> sp.Expr:
    r"""Right-hand side of eq. (33): :math:`z_h^2 + \|\vec m_h\|_2^2/z_h^2`.

    Transcribed as printed, not built from eq. (28), so that the claims of eqs.
    (33)-(35) check eq. (33) itself rather than re-checking eq. (28).
    """
    return z_value**2 + m_norm**2 / z_value**2


# --- the relations the claims print


def _eq(lhs: sp.Expr, rhs: sp.Expr) -> sp.Eq:
    return sp.Eq(lhs, rhs, evaluate=False)


def _sinh_as_printed(argument: sp.Expr) -> sp.Expr:
    """``sinh(-4u)`` kept unevaluated, as the paper prints it (not ``-sinh(4u)``)."""
    return sp.sinh(argument, evaluate=False)


def display_eq7() -> sp.Eq:
    r"""Eq. (7), coordinate d."""
    return _eq(beta_d, w2_plus * w1_plus - w2_minus * w1_minus)


def display_eq8(*, as_printed: bool = True) -> sp.Eq:
    r"""Eq. (8), coordinate i: the printed gradient, or gradient flow."""
    if as_printed:
        return _eq(grad_w1_i, -2 * xt_r_i * w2_i)
    return _eq(w1_dot_i, -2 * xt_r_i * w2_i)


def display_eq9(*, as_printed: bool = True) -> sp.Eq:
    r"""Eq. (9), coordinate i: the printed gradient, or gradient flow."""
    if as_printed:
        return _eq(grad_w2_i, -2 * xt_r_i * w1_i)
    return _eq(w2_dot_i, -2 * xt_r_i * w1_i)


def display_eq10() -> sp.Eq:
    r"""Eq. (10), coordinate i."""
    return _eq(s_dot_i, -2 * xt_r_i * s_i)


def display_eq11() -> sp.Eq:
    r"""Eq. (11), coordinate i."""
    return _eq(d_dot_i, 2 * xt_r_i * d_i)


def display_eq13() -> sp.Eq:
    r"""Eq. (13), coordinate i."""
    return _eq(s_i, s_init_i * sp.exp(-2 * xt_int_r_i))


def display_eq14() -> sp.Eq:
    r"""Eq. (14), coordinate i."""
    return _eq(d_i, d_init_i * sp.exp(2 * xt_int_r_i))


def display_eq16() -> sp.Eq:
    r"""Eqs. (15)-(16), coordinate d."""
    return _eq(
        w1_plus * w2_plus - w1_minus * w2_minus,
        beta_eq16(s_plus, d_plus, s_minus, d_minus),
    )


def display_eq17() -> sp.Eq:
    r"""Eq. (17), coordinate d."""
    return _eq(beta_d, beta_eq17(s_plus, d_plus, s_minus, d_minus))


def display_eq18_19(*, as_printed: bool = True) -> sp.Eq:
    r"""Eqs. (18)-(19), coordinate d, as printed or without the factor 2."""
    form = beta_eq18_19 if as_printed else beta_eq18_19_corrected
    return _eq(beta_d, form(s0_d, d0_d, x_int_r_d))


def display_eq20() -> sp.Eq:
    r"""Eq. (20), coordinate d."""
    return _eq(beta_d, 2 * (s0_d**2 + d0_d**2) * _sinh_as_printed(-4 * x_int_r_d))


def display_eq21() -> sp.Eq:
    r"""Eq. (21), coordinate d."""
    return _eq(
        beta_d,
        q_norm_coefficient(w01_d, w02_d) * _sinh_as_printed(-4 * x_int_r_d),
    )


def display_eq22() -> sp.Eq:
    r"""Eq. (22) with :math:`k_d = ((w_0)^{(1)}_d)^2 + ((w_0)^{(2)}_d)^2`."""
    return _eq(
        q_norm_atom,
        sp.Sum(k_d * sp.Function("q")(2 * beta_d / k_d), (index_d, 1, dimension_atom)),
    )


def display_eq23() -> sp.Eq:
    r"""Eq. (23)."""
    return _eq(q_of_z, q_potential(z))


def display_eq28() -> sp.Eq:
    r"""Eq. (28), with :math:`w_{+,d}^{(1)} = z_d` and :math:`w^{(2)} = \beta/z_d`."""
    return _eq(param_norm_d, mtl_objective_eq28(z_d, beta_norm_d))


def display_eq29() -> sp.Eq:
    r"""Eq. (29)."""
    return _eq(z_d**2, stationary_z_squared(beta_norm_d))


def display_eq30() -> sp.Eq:
    r"""Eq. (30), at the minimizing :math:`z_d`."""
    return _eq(
        sp.Sum(param_norm_d, (index_d, 1, dimension_atom)),
        2 * sp.Sum(beta_norm_d, (index_d, 1, dimension_atom)),
    )


def display_eq31() -> sp.Eq:
    r"""Eq. (31), one hidden unit."""
    return _eq(w2_relu_h * relu_w1_x, m_h * relu_theta_x)


def display_eq33() -> sp.Eq:
    r"""Eq. (33); :math:`\|w_h^{(1)}\|_2 = z_h`, :math:`w_h^{(2)} = \vec m_h/z_h`."""
    return _eq(param_norm_h, relu_objective_eq33(z_h, m_norm_h))


def display_eq34() -> sp.Eq:
    r"""Eq. (34)."""
    return _eq(z_h**2, stationary_z_squared(m_norm_h))


def display_eq35() -> sp.Eq:
    r"""Eq. (35), at the minimizing :math:`z_h`."""
    return _eq(
        sp.Sum(param_norm_h, (index_h, 1, units_atom)),
        2 * sp.Sum(m_norm_h, (index_h, 1, units_atom)),
    )
