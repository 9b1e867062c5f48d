r"""The ReLU arc-cosine kernel and projections onto a ReLU network's RKHS (App. C).

Appendix C of features-are-fate (eqs. (145)-(159)) and the kernel view of its
Section 4. For standard Gaussian inputs :math:`x\sim\mathcal N(0, I_d)` and
hidden weights :math:`w_i, w_j` with cosine :math:`u_{ij}`, eqs. (152)-(153)
state (Cho & Saul 2009)

.. math:: \langle\sigma(w_i^\top x), \sigma(w_j^\top x)\rangle_{L_2}
          = \frac{1}{2\pi}\left(\sqrt{1-u_{ij}^2} + u_{ij}(\pi - \arccos u_{ij})\right).

**Derivation.** The integrand depends on x only through its projection onto
:math:`\mathrm{span}(w_i, w_j)`, a standard Gaussian in the plane. In polar
coordinates :math:`(r, \phi)` with :math:`w_i = \|w_i\|e_1` and
:math:`w_j` at angle :math:`\theta = \arccos u_{ij}\in[0,\pi]`, both ReLUs are
active for :math:`\phi\in[\theta-\pi/2, \pi/2]`, and

.. math:: \mathbb E[\sigma(w_i^\top x)\sigma(w_j^\top x)]
          = \frac{\|w_i\|\|w_j\|}{2\pi}\int_0^\infty r^3e^{-r^2/2}dr
            \int_{\theta-\pi/2}^{\pi/2}\cos\phi\cos(\phi-\theta)\,d\phi
          = \frac{\|w_i\|\|w_j\|}{2\pi}(\sin\theta + (\pi-\theta)\cos\theta).

The printed (153) omits the factor :math:`\|w_i\|\|w_j\|`: it holds for unit
weights (Section 4 constrains all weights to :math:`S^{d-1}`), not for the
general weights Appendix C writes, whose normalization in :math:`u_{ij}`
suggests arbitrary norms. :func:`gaussian_relu_overlap` is the corrected form.

**Expansions.** :math:`k'(u) = (\pi - \arccos u)/(2\pi)` and
:math:`k''(u) = 1/(2\pi\sqrt{1-u^2})`, so the Taylor series at 0 is

.. math:: k(u) = \frac{1}{2\pi} + \frac u4 + \frac{1}{2\pi}\sum_{n\ge0}
          \frac{\binom{2n}{n}}{4^n(2n+1)(2n+2)}u^{2n+2},

with nonnegative coefficients, equal to :math:`c_n^2/n!` with the Hermite
coefficients :math:`c_n = \mathbb E[\sigma(z)\mathrm{He}_n(z)]` (Mehler's
formula): a positive-definite dot-product kernel on every sphere
(Schoenberg). At :math:`u = 1` the kernel is not analytic:
:math:`k(1-\epsilon) = \tfrac12 - \tfrac\epsilon2 + \tfrac{\sqrt2}{3\pi}\epsilon^{3/2}
+ O(\epsilon^{5/2})`, and :math:`k(-1+\epsilon) = \tfrac{\sqrt2}{3\pi}\epsilon^{3/2}
+ O(\epsilon^{5/2})` since :math:`k(u) - k(-u) = u/2`.

**Projections (eqs. (154)-(159)).** Let :math:`G = (\langle\sigma_i,\sigma_j\rangle)`
(model features, :math:`m\times m`), :math:`H = (\langle\sigma_i,\sigma^*_j\rangle)`
(:math:`m\times m_*`) and :math:`G^* = (\langle\sigma^*_i,\sigma^*_j\rangle)`. Then
:math:`K = G/m`, :math:`K^* = G^*/m_*`, :math:`\tilde K = H/\sqrt{m m_*}`. The
:math:`L_2` projection of :math:`f_* = \frac{1}{m_*}\sum_j c^*_j\sigma^*_j` onto
:math:`\mathrm{span}\{\sigma_i\}` is :math:`v^\top\sigma` with the normal equations
:math:`Gv = b`, :math:`b = Hc^*/m_*`, so :math:`\|Pf_*\|^2 = b^\top G^{-1}b`, which
is eq. (158); eq. (159) is Pythagoras. These are stated on an explicit
instance with symbolic Gram entries by :func:`feature_grams`.

**Mercer decomposition (eqs. (147)-(151), (157)).** For the model's kernel
:math:`k(x,x') = \frac1m\sum_i\sigma_i(x)\sigma_i(x')` a function
:math:`f = a^\top\sigma` has :math:`T_kf = (Ka)^\top\sigma` (eq. (149)), RKHS norm
:math:`\|f\|_k^2 = m\|a\|^2` (eq. (148), for independent features) and
:math:`\|f\|^2_{L_2} = a^\top Ga`; these coefficient-space forms are what the
claims of eqs. (150), (151) and (157) are checked with.

Every object here is a SymPy expression; nothing is evaluated numerically.
"""

from __future__ import annotations

import sympy as sp

from implicit_bias.errors import InvalidArgumentError

__all__ = [
    "GLYPHS",
    "ablated_source_readout",
    "arc_cosine_kernel",
    "arc_cosine_kernel_angular",
    "complement_norm_eq159",
    "display_eq153",
    "display_eq153_any_norm",
    "display_eq158",
    "display_eq159",
    "feature_grams",
    "gaussian_overlap_polar",
    "gaussian_relu_overlap",
    "hermite_coefficient",
    "integral_operator_coefficients",
    "kernel_derivative",
    "kernel_matrices",
    "kernel_series_at_minus_one",
    "kernel_series_at_one",
    "kernel_taylor_coefficient",
    "l2_norm_coefficients",
    "mercer_eigenfunction_coefficients",
    "projection_norm_eq158",
    "projection_norm_normal_equations",
    "readout_vector",
    "relu",
    "residual_norm_direct",
    "rkhs_norm_coefficients",
    "rkhs_norm_eq151",
    "target_norm_eq159",
]

#: The cosine :math:`u_{ij} = w_i^\top w_j/(\|w_i\|\|w_j\|)` of two hidden weights.
u = sp.Symbol("u_ij", real=True)
#: The angle :math:`\theta = \arccos u_{ij}\in[0,\pi]` between them.
theta = sp.Symbol("theta", nonnegative=True)
#: Polar coordinates of the input's projection on span(w_i, w_j).
r = sp.Symbol("r", nonnegative=True)
phi = sp.Symbol("phi", real=True)
#: A standard Gaussian scalar :math:`z\sim\mathcal N(0,1)` (Hermite expansion).
z = sp.Symbol("z", real=True)
#: Distance :math:`\epsilon` from u = 1 or u = -1 in the expansions there.
epsilon = sp.Symbol("epsilon", positive=True)
#: Norms of the two weight vectors.
norm_i, norm_j = sp.symbols("wnorm_i wnorm_j", positive=True)
#: Widths of the model (m) and of the target network (m_*).
width, target_width = sp.symbols("m m_star", positive=True, integer=True)
#: Ablated fraction mu of Section 4.
mu = sp.Symbol("mu", nonnegative=True)
#: Display atoms of eqs. (153), (158), (159).
overlap_atom = sp.Symbol("overlap_ij", real=True)
projection_atom = sp.Symbol("P_norm", nonnegative=True)
complement_atom = sp.Symbol("Pperp_norm", nonnegative=True)
quadratic_158 = sp.Symbol("cKtKinvKc", real=True)
quadratic_star = sp.Symbol("cKstarc", real=True)

#: How each symbol of this topic is typeset (paper notation).
GLYPHS: dict[sp.Symbol, str] = {
    u: r"u_{ij}",
    theta: r"\theta",
    r: r"r",
    phi: r"\phi",
    z: r"z",
    epsilon: r"\epsilon",
    norm_i: r"\|w_i\|_2",
    norm_j: r"\|w_j\|_2",
    width: r"m",
    target_width: r"m_*",
    mu: r"\mu",
    overlap_atom: r"\langle\sigma(w_i^Tx)\sigma(w_j^Tx)\rangle_{L_2}",
    projection_atom: r"\|P_{\parallel}f_*(x)\|_{L_2}^2",
    complement_atom: r"\|P_{\perp}f_*(x)\|_{L_2}^2",
    quadratic_158: r"c_*^T\tilde{K}^T K^{-1}\tilde{K}c_*",
    quadratic_star: r"c_*^T K_* c_*",
}


# --- eqs. (152)-(153): the kernel


def relu(a: sp.Expr) -> sp.Expr:
    r"""The ReLU :math:`\sigma(a) = \max(0, a)`."""
    return sp.Max(0, a)


def arc_cosine_kernel(cosine: sp.Expr = u) -> sp.Expr:
    r"""Eq. (153) of features-are-fate, as printed.

    .. math:: k(u) = \frac{1}{2\pi}\left(\sqrt{1-u^2} + u(\pi - \arccos u)\right)

    Examples:
      >>> arc_cosine_kernel(sp.Integer(1)), arc_cosine_kernel(sp.Integer(0))
      (1/2, 1/(2*pi))
    """
    return (sp.sqrt(1 - cosine**2) + cosine * (sp.pi - sp.acos(cosine))) / (2 * sp.pi)


def arc_cosine_kernel_angular(angle: sp.Expr = theta) -> sp.Expr:
    r"""Eq. (153) in the angle :math:`\theta = \arccos u`.

    .. math:: k = \frac{1}{2\pi}(\sin\theta + (\pi-\theta)\cos\theta)
    """
    return (sp.sin(angle) + (sp.pi - angle) * sp.cos(angle)) / (2 * sp.pi)


def gaussian_relu_overlap(
    cosine: sp.Expr = u, first_norm: sp.Expr = norm_i, second_norm: sp.Expr = norm_j
) -> sp.Expr:
    r"""Eq. (152) for weights of any norm (the corrected (153); Cho & Saul 2009).

    .. math:: \langle\sigma(w_i^\top x),\sigma(w_j^\top x)\rangle_{L_2}
              = \|w_i\|\|w_j\|\,k(u_{ij})
    """
    return first_norm * second_norm * arc_cosine_kernel(cosine)


def gaussian_overlap_polar(angle: sp.Expr = theta) -> sp.Expr:
    r"""Eq. (152) for unit weights at angle :math:`\theta`, in polar coordinates.

    .. math:: \frac{1}{2\pi}\int_0^\infty r^3e^{-r^2/2}dr
              \int_{\theta-\pi/2}^{\pi/2}\cos\phi\cos(\phi-\theta)\,d\phi

    Unevaluated: ``.doit()`` performs the integrals. The density of the
    plane's Gaussian is :math:`e^{-r^2/2}/(2\pi)` and the two ReLUs are
    :math:`r\cos\phi` and :math:`r\cos(\phi-\theta)` where both are positive.
    """
    radial = sp.Integral(r**3 * sp.exp(-(r**2) / 2), (r, 0, sp.oo))
    angular = sp.Integral(
        sp.cos(phi) * sp.cos(phi - angle), (phi, angle - sp.pi / 2, sp.pi / 2)
    )
    return radial * angular / (2 * sp.pi)


def kernel_derivative(cosine: sp.Expr = u) -> sp.Expr:
    r""":math:`k'(u) = (\pi - \arccos u)/(2\pi)`, the derivative of eq. (153)."""
    return (sp.pi - sp.acos(cosine)) / (2 * sp.pi)


def kernel_taylor_coefficient(n: int) -> sp.Expr:
    r"""The coefficient of :math:`u^n` in the Taylor series of eq. (153) at 0.

    .. math:: a_0 = \frac{1}{2\pi},\ a_1 = \frac14,\
              a_{2k+2} = \frac{\binom{2k}{k}}{2\pi\,4^k(2k+1)(2k+2)},\
              a_{2k+3} = 0

    from :math:`k''(u) = (2\pi)^{-1}(1-u^2)^{-1/2}
    = (2\pi)^{-1}\sum_k\binom{2k}{k}4^{-k}u^{2k}`.
    """
    if n < 0:
        raise InvalidArgumentError(f"n={n} is negative: n is the power of u, >= 0")
    if n == 0:
        return 1 / (2 * sp.pi)
    if n == 1:
        return sp.Rational(1, 4)
    if n % 2:
        return sp.Integer(0)
    k = (n - 2) // 2
    return sp.binomial(2 * k, k) / (2 * sp.pi * 4**k * (2 * k + 1) * (2 * k + 2))


def hermite_coefficient(n: int) -> sp.Expr:
    r"""The Hermite coefficient :math:`c_n = \mathbb E[\sigma(z)\mathrm{He}_n(z)]`.

    .. math:: c_n = \frac{1}{\sqrt{2\pi}}\int_0^\infty z\,\mathrm{He}_n(z)e^{-z^2/2}dz

    Unevaluated; by Mehler's formula the kernel of unit weights is
    :math:`k(u) = \sum_n c_n^2u^n/n!`.
    """
    return sp.Integral(
        z * sp.hermite_prob(n, z) * sp.exp(-(z**2) / 2), (z, 0, sp.oo)
    ) / sp.sqrt(2 * sp.pi)


def kernel_series_at_one(distance: sp.Expr = epsilon) -> sp.Expr:
    r"""Eq. (153) at :math:`u = 1-\epsilon` to :math:`O(\epsilon^{7/2})`.

    .. math:: k(1-\epsilon) = \frac12 - \frac\epsilon2
              + \frac{\sqrt2}{3\pi}\epsilon^{3/2} + \frac{\sqrt2}{60\pi}\epsilon^{5/2}

    From :math:`k(1-\epsilon) = \tfrac12 - \tfrac\epsilon2
    + \tfrac{1}{2\pi}\int_0^\epsilon\arccos(1-s)\,ds` and
    :math:`\arccos(1-s) = \sqrt{2s}(1 + s/12 + O(s^2))`.
    """
    root2 = sp.sqrt(2)
    return (
        sp.Rational(1, 2)
        - distance / 2
        + root2 * distance ** sp.Rational(3, 2) / (3 * sp.pi)
        + root2 * distance ** sp.Rational(5, 2) / (60 * sp.pi)
    )


def kernel_series_at_minus_one(distance: sp.Expr = epsilon) -> sp.Expr:
    r"""Eq. (153) at :math:`u = -1+\epsilon` to :math:`O(\epsilon^{7/2})`.

    .. math:: k(-1+\epsilon) = \frac{\sqrt2}{3\pi}\epsilon^{3/2}
              + \frac{\sqrt2}{60\pi}\epsilon^{5/2}

    (:math:`k(u) = k(-u) + u/2`.) The leading :math:`\epsilon^{3/2}` is what the
    two printed terms leave after cancelling to :math:`O(\epsilon^{1/2})`.
    """
    return kernel_series_at_one(distance) - sp.Rational(1, 2) + distance / 2


# --- eqs. (154)-(159): Gram matrices and projections


def _symmetric(name: str, size: int) -> sp.Matrix:
    def entry(i: int, j: int) -> sp.Symbol:
        a, b = min(i, j), max(i, j)
        return sp.Symbol(f"{name}_{a + 1}{b + 1}", real=True)

    return sp.Matrix(size, size, entry)


def feature_grams(
    model_width: int, target_features: int
) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
    r"""Symbolic :math:`L_2` Gram matrices of an explicit instance.

    Returns :math:`(G, H, G^*)` with :math:`G_{ij} = \langle\sigma_i,\sigma_j\rangle`
    (symmetric, entries ``g_ij``), :math:`H_{ij} = \langle\sigma_i,\sigma^*_j\rangle`
    (``h_ij``) and :math:`G^*_{ij} = \langle\sigma^*_i,\sigma^*_j\rangle` (``s_ij``).
    """
    cross = sp.Matrix(
        model_width,
        target_features,
        lambda i, j: sp.Symbol(f"h_{i + 1}{j + 1}", real=True),
    )
    return (
        _symmetric("g", model_width),
        cross,
        _symmetric("s", target_features),
    )


def readout_vector(size: int, name: str = "c") -> sp.Matrix:
    r"""A readout vector of real symbols ``c_j`` (the :math:`c^*` of eq. (146))."""
    return sp.Matrix([sp.Symbol(f"{name}_{j + 1}", real=True) for j in range(size)])


def kernel_matrices(
    gram: sp.Matrix,
    cross: sp.Matrix,
    target_gram: sp.Matrix,
    model_width: sp.Expr,
    target_features: sp.Expr,
) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
    r"""Eqs. (154)-(156): the scaled Gram matrices.

    .. math:: K = G/m,\qquad K^* = G^*/m_*,\qquad \tilde K = H/\sqrt{mm_*}
    """
    return (
        gram / model_width,
        target_gram / target_features,
        cross / sp.sqrt(model_width * target_features),
    )


def projection_norm_normal_equations(
    gram: sp.Matrix, cross: sp.Matrix, readout: sp.Matrix, target_features: sp.Expr
) -> sp.Expr:
    r""":math:`\|Pf_*\|^2 = b^\top G^{-1}b`, :math:`b = Hc^*/m_*`: the L2 projection.

    The minimizer v of :math:`\|f_* - v^\top\sigma\|^2` solves :math:`Gv = b`, and
    :math:`\|Pf_*\|^2 = v^\top Gv = b^\top G^{-1}b`.
    """
    b = cross * readout / target_features
    return (b.T * gram.inv() * b)[0, 0]


def residual_norm_direct(
    gram: sp.Matrix,
    cross: sp.Matrix,
    target_gram: sp.Matrix,
    readout: sp.Matrix,
    target_features: sp.Expr,
) -> sp.Expr:
    r""":math:`\|f_* - v^\top\sigma\|^2` expanded, with :math:`Gv = Hc^*/m_*`.

    .. math:: \frac{c^{*\top}G^*c^*}{m_*^2} - 2v^\top\frac{Hc^*}{m_*} + v^\top Gv
    """
    b = cross * readout / target_features
    v = gram.inv() * b
    target = (readout.T * target_gram * readout)[0, 0] / target_features**2
    return target - 2 * (v.T * b)[0, 0] + (v.T * gram * v)[0, 0]


def projection_norm_eq158(
    kernel: sp.Matrix,
    cross_kernel: sp.Matrix,
    readout: sp.Matrix,
    target_features: sp.Expr,
) -> sp.Expr:
    r"""Eq. (158) of features-are-fate.

    .. math:: \|P_\parallel f_*(x)\|_{L_2}^2
              = \frac{1}{m_*}c_*^\top\tilde K^\top K^{-1}\tilde Kc_*
    """
    quadratic = readout.T * cross_kernel.T * kernel.inv() * cross_kernel * readout
    return quadratic[0, 0] / target_features


def target_norm_eq159(
    target_kernel: sp.Matrix, readout: sp.Matrix, target_features: sp.Expr
) -> sp.Expr:
    r"""The first term of eq. (159): :math:`\|f_*\|^2 = c_*^\top K_*c_*/m_*`."""
    return (readout.T * target_kernel * readout)[0, 0] / target_features


def complement_norm_eq159(
    kernel: sp.Matrix,
    cross_kernel: sp.Matrix,
    target_kernel: sp.Matrix,
    readout: sp.Matrix,
    target_features: sp.Expr,
) -> sp.Expr:
    r"""Eq. (159) of features-are-fate.

    .. math:: \|P_\perp f_*(x)\|_{L_2}^2 = \frac{1}{m_*}c_*^\top K_*c_*
              - \frac{1}{m_*}c_*^\top\tilde K^\top K^{-1}\tilde Kc_*
    """
    # Transcribed as printed, not built from eq. (158) and the first term, so that
    # the claim of eq. (159) checks eq. (159) itself.
    target = readout.T * target_kernel * readout
    projected = readout.T * cross_kernel.T * kernel.inv() * cross_kernel * readout
    return target[0, 0] / target_features - projected[0, 0] / target_features


def ablated_source_readout(
    readout: sp.Matrix, kept: sp.Matrix, ablated_fraction: sp.Expr = mu
) -> sp.Matrix:
    r"""Eq. (19) as a readout over all :math:`m_*` teacher units.

    :math:`f_s^* = \frac{1}{(1-\mu)m_*}\sum_{i\in A^c}c^*_i\sigma^*_i` is
    :math:`\frac{1}{m_*}\sum_i \tilde c_i\sigma^*_i` with
    :math:`\tilde c_i = c^*_i\,\mathbb 1[i\in A^c]/(1-\mu)`; ``kept`` is the 0/1
    indicator vector of :math:`A^c`.
    """
    return readout.multiply_elementwise(kept) / (1 - ablated_fraction)


# --- eqs. (148)-(151), (157): the Mercer decomposition in coefficient space


def integral_operator_coefficients(
    kernel: sp.Matrix, coefficients: sp.Matrix
) -> sp.Matrix:
    r"""Eq. (149) on :math:`f = a^\top\sigma`: :math:`T_kf = (Ka)^\top\sigma`.

    With :math:`k(x,x') = \frac1m\sum_i\sigma_i(x)\sigma_i(x')`,
    :math:`T_kf(x) = \frac1m\sum_i\sigma_i(x)\sum_j\langle\sigma_i,\sigma_j\rangle a_j`.
    """
    return kernel * coefficients


def l2_norm_coefficients(
    kernel: sp.Matrix, coefficients: sp.Matrix, model_width: sp.Expr
) -> sp.Expr:
    r""":math:`\|a^\top\sigma\|_{L_2}^2 = a^\top Ga = m\,a^\top Ka`."""
    return model_width * (coefficients.T * kernel * coefficients)[0, 0]


def rkhs_norm_coefficients(coefficients: sp.Matrix, model_width: sp.Expr) -> sp.Expr:
    r"""Eq. (148) for :math:`f = a^\top\sigma`: :math:`\|f\|_k^2 = m\|a\|^2`.

    :math:`f = \sum_b\alpha_bk(\cdot,z_b)` has
    :math:`a = \frac1m\sum_b\alpha_b\sigma(z_b)` and eq. (148) gives
    :math:`\alpha^\top[k(z_b,z_c)]\alpha = \frac1m\|\sum_b\alpha_b\sigma(z_b)\|^2
    = m\|a\|^2` (features linearly independent).
    """
    return model_width * (coefficients.T * coefficients)[0, 0]


def mercer_eigenfunction_coefficients(
    eigenvector: sp.Matrix, eigenvalue: sp.Expr, model_width: sp.Expr
) -> sp.Matrix:
    r"""Eq. (157): the coefficients :math:`z_l/\sqrt{m\lambda_l^2}` of :math:`\psi_l`.

    ``eigenvalue`` is :math:`\lambda_l^2`, the eigenvalue of K. (The printed sum
    runs over an index l that is also the eigenfunction's; it is the sum over
    the hidden units i.)
    """
    return eigenvector / sp.sqrt(model_width * eigenvalue)


def rkhs_norm_eq151(components: sp.Matrix, eigenvalues: sp.Matrix) -> sp.Expr:
    r"""Eq. (151): :math:`\|f\|_k^2 = \sum_l c_l^2/\lambda_l^2`.

    ``eigenvalues`` holds the :math:`\lambda_l^2` whose reciprocals weigh the
    squared components :math:`c_l = \langle f,\psi_l\rangle`.
    """
    return sum(
        (c**2 / lam for c, lam in zip(components, eigenvalues, strict=True)),
        sp.Integer(0),
    )


# --- the relations the claims print


def _eq(lhs: sp.Expr, rhs: sp.Expr) -> sp.Eq:
    return sp.Eq(lhs, rhs, evaluate=False)


def display_eq153() -> sp.Eq:
    r"""Eqs. (152)-(153)."""
    return _eq(overlap_atom, arc_cosine_kernel(u))


def display_eq153_any_norm() -> sp.Eq:
    r"""Eqs. (152)-(153) for weights of any norm (the correction)."""
    return _eq(overlap_atom, gaussian_relu_overlap(u, norm_i, norm_j))


def display_eq158() -> sp.Eq:
    r"""Eq. (158)."""
    return _eq(projection_atom, quadratic_158 / target_width)


def display_eq159() -> sp.Eq:
    r"""Eq. (159)."""
    return _eq(
        complement_atom,
        quadratic_star / target_width - quadratic_158 / target_width,
    )
