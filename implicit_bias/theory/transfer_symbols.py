r"""The SymPy symbols of features-are-fate's Appendix B, with their assumptions.

The samples :math:`n`, the dimension :math:`d` and their ratio :math:`\gamma`,
the ridge :math:`\lambda`, the angle :math:`\theta`, the noise :math:`\sigma`,
the integration variables of eqs. (101)-(140), the unknowns of eqs. (113)-(115)
and (128), the fine-tuning quantities of eqs. (142)-(144), the depth :math:`L`,
and display atoms (the expected risks, the resolvent, the rate of
:math:`D_l`); :data:`GLYPHS` typesets each in the paper's notation. The
expressions built from them are in
:mod:`implicit_bias.theory.transfer_asymptotics`.
"""

from __future__ import annotations

import sympy as sp

__all__ = [
    "GLYPHS",
    "alpha",
    "balance_rate",
    "d",
    "depth",
    "finetune_excess",
    "gamma_ratio",
    "i1_plain",
    "i1_shifted",
    "i2_plain",
    "inverse_norm_atom",
    "lam",
    "m",
    "mean_b",
    "mean_b_squared",
    "n",
    "norm_a",
    "norm_b",
    "r",
    "resolvent",
    "risk_linear",
    "risk_ridge",
    "risk_scratch",
    "scale_c",
    "sigma",
    "t",
    "theta",
    "u",
    "x",
    "z",
]

#: Number of target samples :math:`n` (positive, not integer, so that limits and
#: Gamma-function identities apply; the finite forms need integers).
n = sp.Symbol("n", positive=True)
#: Input dimension :math:`d`.
d = sp.Symbol("d", positive=True)
#: Sample ratio :math:`\gamma = n/d`.
gamma_ratio = sp.Symbol("gamma", positive=True)
#: Ridge parameter :math:`\lambda`.
lam = sp.Symbol("lambda", positive=True)
#: Source-target angle :math:`\theta`.
theta = sp.Symbol("theta", real=True)
#: Label-noise standard deviation :math:`\sigma`.
sigma = sp.Symbol("sigma", nonnegative=True)
#: Complex argument :math:`z` of the Stieltjes transform.
z = sp.Symbol("z")
#: Eigenvalue variable :math:`x` of the Marchenko-Pastur density.
x = sp.Symbol("x", positive=True)
#: Radius :math:`r = \|z\|_2`, and the substitutions :math:`u = r^2/2`, :math:`t = u/n`.
r, u, t = sp.symbols("r u t", positive=True)
#: Power :math:`m` of eqs. (129)-(130).
m = sp.Symbol("m", positive=True)
#: Initialization scale :math:`\alpha`.
alpha = sp.Symbol("alpha", positive=True)
#: :math:`E\|z\|_2^{-2}`, the unknown of eq. (115).
inverse_norm_atom = sp.Symbol("E_inv", positive=True)
#: Conditional means over the noise of :math:`b` and :math:`b^2` (eqs. (113), (115)).
mean_b, mean_b_squared = sp.symbols("Eb Eb2", real=True)
#: The integrals :math:`I_1(n+2,\lambda), I_1(n,\lambda), I_2(n,\lambda)` of (128).
i1_shifted, i1_plain, i2_plain = sp.symbols("I1_n2 I1_n I2_n", positive=True)
#: Fine-tuning: :math:`a = \|X^+y\|_2`, :math:`b = \|(I-P)\beta_s\|_2` and the
#: scale :math:`c` of the balanced network (see :func:`finetune_scale_equation`).
norm_a, norm_b, scale_c = sp.symbols("a_ft b_ft c_ft", positive=True)
depth = sp.Symbol("L", integer=True, positive=True)
#: Display atoms: the expected risks, the resolvent and the rate of :math:`D_l`.
risk_scratch = sp.Symbol("R_sc", real=True)
risk_linear = sp.Symbol("R_lt", real=True)
risk_ridge = sp.Symbol("R_lt_lambda", real=True)
finetune_excess = sp.Symbol("R_ft_minus_R_sc", real=True)
resolvent = sp.Symbol("g_C")
balance_rate = sp.Symbol("dD_l", real=True)

#: How each symbol of this topic is typeset (paper notation).
GLYPHS: dict[sp.Basic, str] = {
    n: r"n",
    d: r"d",
    gamma_ratio: r"\gamma",
    lam: r"\lambda",
    theta: r"\theta",
    sigma: r"\sigma",
    z: r"z",
    x: r"x",
    r: r"r",
    u: r"u",
    t: r"t",
    m: r"m",
    alpha: r"\alpha",
    inverse_norm_atom: r"E_z\frac{1}{\|z\|_2^2}",
    mean_b: r"E_{z,w,\epsilon}\, b",
    mean_b_squared: r"E_{z,w,\epsilon}\, b^2",
    i1_shifted: r"I_1(n+2,\lambda)",
    i1_plain: r"I_1(n,\lambda)",
    i2_plain: r"I_2(n,\lambda)",
    norm_a: r"\|X^+y_t\|_2",
    norm_b: r"\|(I-P_{row(X)})\beta_s\|_2",
    scale_c: r"c",
    depth: r"L",
    risk_scratch: r"E_{X,\epsilon}\mathcal{R}_{sc}",
    risk_linear: r"E_{X,\epsilon}\mathcal{R}_{lt}",
    risk_ridge: r"E_{X,\epsilon}\mathcal{R}^\lambda_{lt}",
    finetune_excess: r"E\mathcal{R}_{ft} - E\mathcal{R}_{sc}",
    resolvent: r"g_C(z)",
    balance_rate: r"\frac{d}{dt}\left(W_l^\top W_l - W_{l+1}W_{l+1}^\top\right)",
}
