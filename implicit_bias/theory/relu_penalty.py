r"""The implicit regularization penalty of PT+FT in shallow ReLU networks.

The derivation of Appendix 1.1 of ptft-relu-penalty, equation by equation as
the source prints it, plus the steps it leaves implicit. Notation: ``m`` is
:math:`m_h`, ``m0`` is :math:`m_{0h}^{(1)}`, ``rho`` is :math:`\rho_h`,
``gamma`` is :math:`\gamma` and ``u`` is :math:`u = \|w_h^{(1)}\|_2`.

Every object here is a SymPy expression; nothing is evaluated numerically.
"""

from __future__ import annotations

import sympy as sp

from implicit_bias.theory.symbols import gamma, m, m0, rho, u

__all__ = [
    "GLYPHS",
    "aux_magnitude",
    "deviation_eq6",
    "deviation_eq7",
    "deviation_eq8",
    "deviation_from_gap",
    "deviation_geometric",
    "deviation_norm_sq",
    "display_eq6",
    "display_eq7",
    "envelope_slope",
    "envelope_slope_from_gap",
    "inner_w_hat_w0",
    "large_m_scaled_quartic",
    "p_of_u",
    "penalty",
    "penalty_eq11",
    "penalty_new_unit",
    "quartic_coefficients",
    "readout",
    "readout_gap",
    "readout_gap_at_root",
    "stationarity_eq9",
    "stationarity_eq10",
    "u_star",
    "unit_vectors",
    "w0_norm_sq",
]

#: The objective :math:`p(u)` of eq. (6).
p_of_u = sp.Function("p")(u)
#: The penalty :math:`\tilde r` of eq. (11).
penalty = sp.Symbol("rtilde", nonnegative=True)
#: The pretraining task's coefficient :math:`m^{aux}` of the feature (Section 1.2).
aux_magnitude = sp.Symbol("m_aux", positive=True)
#: A stationary point :math:`u^*` of eq. (10).
u_star = sp.Symbol("ustar", positive=True)
#: :math:`\|u\hat w_h - w_{0h}^{(1)}\|_2^2`, :math:`\|w_{0h}^{(1)}\|_2^2` and
#: :math:`\langle\hat w_h, w_{0h}^{(1)}\rangle`, as atoms for display.
deviation_norm_sq = sp.Symbol("deviation_norm_sq", nonnegative=True)
w0_norm_sq = sp.Symbol("w0_norm_sq", nonnegative=True)
inner_w_hat_w0 = sp.Symbol("inner_w_hat_w0", real=True)

#: How each symbol of this source is typeset (paper notation).
GLYPHS: dict[sp.Symbol, str] = {
    m: r"m_{h}",
    m0: r"m_{0h}^{(1)}",
    rho: r"\rho_{h}",
    gamma: r"\gamma",
    aux_magnitude: r"m^{\text{aux}}",
    u: r"u",
    penalty: r"\tilde{r}",
    u_star: r"u^{*}",
    deviation_norm_sq: r"\|u\hat{\mathbf{w}}_h - \mathbf{w}_{0h}^{(1)}\|_2^2",
    w0_norm_sq: r"\|\mathbf{w}_{0h}^{(1)}\|_2^2",
    inner_w_hat_w0: r"\langle \hat{\mathbf{w}}_h, \mathbf{w}_{0h}^{(1)} \rangle",
}


def display_eq6() -> sp.Eq:
    """Eq. (6) with its norm as a display atom."""
    return sp.Eq(p_of_u, (m / u - gamma) ** 2 + deviation_norm_sq)


def display_eq7() -> sp.Eq:
    """Eq. (7) with its norm and inner product as display atoms."""
    return sp.Eq(
        p_of_u, (m / u - gamma) ** 2 + u**2 + w0_norm_sq - 2 * u * inner_w_hat_w0
    )


#: Dimension of the explicit vectors used to check the vector identities of
#: eqs. (6)-(7); the identities are coordinatewise, so any d >= 2 would do.
_VECTOR_DIMENSION = 3


def unit_vectors() -> tuple[sp.Matrix, sp.Matrix, sp.Expr]:
    r"""Symbolic :math:`\hat w_h` and :math:`w_{0h}^{(1)}` in :math:`\mathbb{R}^3`.

    Returns:
      ``(w_hat, w0, unit_constraint)``: column vectors of real symbols and the
      expression :math:`\|\hat w_h\|^2 - 1` that vanishes on the unit sphere.
    """
    w_hat = sp.Matrix(sp.symbols(f"what1:{_VECTOR_DIMENSION + 1}", real=True))
    w0 = sp.Matrix(sp.symbols(f"w01:{_VECTOR_DIMENSION + 1}", real=True))
    return w_hat, w0, (w_hat.T * w_hat)[0, 0] - 1


def deviation_eq6() -> sp.Expr:
    r"""Eq. (6) of ptft-relu-penalty with explicit vectors in :math:`\mathbb{R}^3`.

    .. math:: p(u) = (m_h/u-\gamma)^2 + \|u\hat w_h - w_{0h}^{(1)}\|_2^2
    """
    w_hat, w0, _ = unit_vectors()
    diff = u * w_hat - w0
    return (m / u - gamma) ** 2 + (diff.T * diff)[0, 0]


def deviation_eq7() -> sp.Expr:
    r"""Eq. (7) of ptft-relu-penalty with explicit vectors in :math:`\mathbb{R}^3`.

    .. math:: p(u) = (m_h/u-\gamma)^2 + u^2 + \|w_{0h}^{(1)}\|_2^2
              - 2u\langle \hat w_h, w_{0h}^{(1)}\rangle
    """
    w_hat, w0, _ = unit_vectors()
    return (
        (m / u - gamma) ** 2 + u**2 + (w0.T * w0)[0, 0] - 2 * u * (w_hat.T * w0)[0, 0]
    )


def deviation_eq8() -> sp.Expr:
    r"""Eq. (8) of ptft-relu-penalty.

    .. math:: p(u) = (m_h/u-\gamma)^2 + u^2 + (m_{0h}^{(1)})^2 - 2u m_{0h}^{(1)}\rho_h
    """
    return (m / u - gamma) ** 2 + u**2 + m0**2 - 2 * u * m0 * rho


def deviation_geometric() -> sp.Expr:
    r"""Eq. (8) as a sum of non-negative terms (our form; no cancellation).

    .. math:: p(u) = (m_h/u-\gamma)^2 + (u - m_{0h}^{(1)}\rho_h)^2
              + (m_{0h}^{(1)})^2 (1-\rho_h)(1+\rho_h)

    Geometrically, :math:`p(u) - (m_{0h}^{(1)})^2(1-\rho_h^2)` is the squared
    distance from :math:`(m_{0h}^{(1)}\rho_h, \gamma)` to the point
    :math:`(u, m_h/u)` of the hyperbola :math:`u\,w^{(2)} = m_h`.
    """
    return (m / u - gamma) ** 2 + (u - m0 * rho) ** 2 + m0**2 * (1 - rho) * (1 + rho)


#: The readout gap :math:`m_h/u - \gamma` as a free symbol.
readout_gap = sp.Symbol("readout_gap", real=True)


def deviation_from_gap(gap: sp.Expr = readout_gap) -> sp.Expr:
    r"""Eq. (8) in terms of the readout gap :math:`g = m_h/u - \gamma`.

    .. math:: p = g^2 + (u - m_{0h}^{(1)}\rho_h)^2
              + (m_{0h}^{(1)})^2(1-\rho_h)(1+\rho_h)

    With ``gap = m/u - gamma`` this is :func:`deviation_geometric`.
    """
    return gap**2 + (u - m0 * rho) ** 2 + m0**2 * (1 - rho) * (1 + rho)


def readout_gap_at_root() -> sp.Expr:
    r"""The readout gap at a root of eq. (10), free of the cancellation in m/u - gamma.

    .. math:: \frac{m_h}{u} - \gamma = \frac{u^2 (u - m_{0h}^{(1)}\rho_h)}{m_h}
              \quad\text{where}\quad
              u^4 - m_{0h}^{(1)}\rho_h u^3 + \gamma m_h u - m_h^2 = 0,

    since :math:`m_h/u - \gamma - u^2(u - m_{0h}^{(1)}\rho_h)/m_h = -q(u)/(m_h u)`.
    """
    return u**2 * (u - m0 * rho) / m


def readout(u_value: sp.Expr = u) -> sp.Expr:
    r"""The readout weight :math:`w_h^{(2)} = m_h / u` fixed by eq. (5)."""
    return m / u_value


def stationarity_eq9() -> sp.Expr:
    r"""Eq. (9) of ptft-relu-penalty, as printed.

    .. math:: p'(u) = -2(m_h/u-\gamma)m_h/u^2 + 2u - 2m_{0h}^{(1)}\rho_h
    """
    return -2 * (m / u - gamma) * m / u**2 + 2 * u - 2 * m0 * rho


def stationarity_eq10() -> sp.Expr:
    r"""Left-hand side of eq. (10) of ptft-relu-penalty, as printed.

    .. math:: -m_h^2 + \gamma m_h u - m_{0h}^{(1)}\rho_h u^3 + u^4 = 0
    """
    return -(m**2) + gamma * m * u - m0 * rho * u**3 + u**4


def quartic_coefficients() -> tuple[sp.Expr, ...]:
    """Coefficients of eq. (10) in u, highest degree first (the ``np.roots`` order)."""
    return tuple(sp.Poly(stationarity_eq10(), u).all_coeffs())


def penalty_eq11(u_star: sp.Expr) -> sp.Expr:
    r"""Eq. (11) of ptft-relu-penalty at a stationary point ``u_star``.

    .. math:: \tilde r = (m_h/u^*-\gamma)^2 + u^{*2} + (m_{0h}^{(1)})^2
              - 2u^* m_{0h}^{(1)}\rho_h
    """
    return (m / u_star - gamma) ** 2 + u_star**2 + m0**2 - 2 * u_star * m0 * rho


def envelope_slope(u_star: sp.Expr = u) -> sp.Expr:
    r"""The derivative of the penalty in :math:`m_h` by the envelope theorem.

    At a non-degenerate minimizer :math:`u^*` of eq. (6),

    .. math:: \frac{\partial\tilde r}{\partial m_h}
              = \frac{\partial p}{\partial m_h}\Big|_{u=u^*}
              = \frac{2}{u^*}\Big(\frac{m_h}{u^*}-\gamma\Big).
    """
    return sp.diff(deviation_eq8(), m).subs(u, u_star)


def envelope_slope_from_gap(gap: sp.Expr = readout_gap) -> sp.Expr:
    r""":func:`envelope_slope` in terms of the readout gap :math:`g = m_h/u^* - \gamma`.

    .. math:: \frac{\partial\tilde r}{\partial m_h} = \frac{2g}{u^*}
    """
    return 2 * gap / u


def penalty_new_unit() -> sp.Expr:
    r"""The penalty of a freshly initialized unit, :math:`m_{0h}^{(1)}=\gamma=0`.

    .. math:: \min_{u>0} m_h^2/u^2 + u^2 = 2|m_h|,

    attained at :math:`u = \sqrt{|m_h|}` (the balanced weights of Section 1.2).
    """
    return 2 * sp.Abs(m)


def large_m_scaled_quartic(eps: sp.Symbol, v: sp.Symbol) -> sp.Expr:
    r"""Eq. (10) rescaled for :math:`|m_h|\to\infty`.

    With :math:`m_h = \varepsilon^{-2}` and :math:`u = v/\varepsilon`,

    multiplying eq. (10) by :math:`\varepsilon^4` gives
    :math:`v^4 - m_{0h}^{(1)}\rho_h\varepsilon v^3 + \gamma\varepsilon v - 1 = 0`,
    whose root tends to :math:`v = 1` as :math:`\varepsilon\to 0`.
    """
    scaled = stationarity_eq10().subs({m: eps**-2, u: v / eps}) * eps**4
    return sp.expand(scaled)
