r"""Symbols for what the claims of features-are-fate measure, and their glyphs.

The theory modules name the paper's quantities; the claims also compare
quantities that only a computation produces -- a Monte Carlo mean, a trained
network's endpoint, a float64 evaluation -- against them. Those get a symbol
here, typeset with a hat (:math:`\hat{\mathcal R}_{sc}`: the Monte Carlo mean
of the risk of eq. (10)), so that a claim's formula says what its check
compares. :data:`GLYPHS` is merged into the source's glyph map.
"""

from __future__ import annotations

import sympy as sp

from implicit_bias.theory import transfer_asymptotics as asymptotics

__all__ = ["GLYPHS"]

_alpha = asymptotics.alpha


def _measured(name: str, glyph: str, **assumptions: bool) -> sp.Symbol:
    symbol = sp.Symbol(name, **assumptions)
    GLYPHS[symbol] = glyph
    return symbol


#: Symbol -> LaTeX, for the symbols of this module.
GLYPHS: dict[sp.Symbol, str] = {}

# --- Monte Carlo means over draws of the data (Section 3)
mc_risk_scratch = _measured("hatR_sc", r"\hat{\mathcal{R}}_{sc}", real=True)
mc_risk_linear = _measured("hatR_lt", r"\hat{\mathcal{R}}_{lt}", real=True)
mc_risk_ridge = _measured(
    "hatR_lt_lambda", r"\hat{\mathcal{R}}^{\lambda}_{lt}", real=True
)
mc_finetune_excess = _measured(
    "hatR_ft_minus_R_sc", r"\hat{\mathcal{R}}_{ft} - \hat{\mathcal{R}}_{sc}", real=True
)
mc_transferability_linear = _measured("hatT_lt", r"\hat{\mathcal{T}}_{lt}", real=True)
mc_transferability_finetune = _measured("hatT_ft", r"\hat{\mathcal{T}}_{ft}", real=True)
gd_transferability_linear = _measured(
    "hatT_lt_gd", r"\hat{\mathcal{T}}_{lt}^{\mathrm{GD}}", real=True
)
gd_transferability_finetune = _measured(
    "hatT_ft_gd", r"\hat{\mathcal{T}}_{ft}^{\mathrm{GD}}", real=True
)
mc_orthogonal_overlap = _measured(
    "hat_nu_overlap",
    r"\hat{E}_X\langle\nu,(I-P_{row(X)})\beta_s\rangle",
    real=True,
)
mc_orthogonal_norm = _measured(
    "hat_orthogonal_norm",
    r"\hat{E}_X\|(I-P_{row(X)})\beta_s\|_2^2",
    nonnegative=True,
)

# --- distances of trained networks to the alpha -> 0 endpoints (Appendix B)
rank_one_residual = _measured(
    "sigma2_over_sigma1_Phi",
    r"\sigma_2/\sigma_1(W_1\cdots W_{L-1})",
    nonnegative=True,
)
first_layer_residual = _measured(
    "sigma2_over_sigma1_W1", r"\sigma_2/\sigma_1(W_1)", nonnegative=True
)
scratch_endpoint_error = _measured(
    "scratch_endpoint_error", r"\|\beta_{\mathrm{GD}} - X^+y\|_2", nonnegative=True
)
linear_endpoint_error = _measured(
    "linear_endpoint_error", r"\|\beta_{\mathrm{GD}} - b\beta_s\|_2", nonnegative=True
)
printed_finetune_error = _measured(
    "printed_finetune_error",
    r"\|\beta_{\mathrm{GD}} - X^+y - (I-P_{row(X)})\beta_s\|_2",
    nonnegative=True,
)
corrected_finetune_error = _measured(
    "corrected_finetune_error",
    r"\|\beta_{\mathrm{GD}} - X^+y - c^{(L-1)/2}(I-P_{row(X)})\beta_s\|_2",
    nonnegative=True,
)

# --- rates: the coefficient of 1/n of an exact finite-size value
rate_coefficient = _measured("c_1", r"c_1", real=True)

# --- Theorem 2.2's witness
witness_lipschitz = _measured(
    "witness_lipschitz", r"\|\tfrac{\cos y}{2}\|_L", nonnegative=True
)
witness_sup = _measured(
    "witness_sup", r"\|\tfrac{\cos y}{2}\|_\infty", nonnegative=True
)

# --- the readout coefficient (108)-(109) as its quadratic forms
source_label_overlap = _measured("bsXty", r"\beta_s^TX^Ty_t", real=True)
source_gram = _measured("bsXXbs", r"\beta_s^TX^TX\beta_s", positive=True)
source_target_overlap = _measured("bsXXbt", r"\beta_s^TX^TX\beta_t", real=True)
source_noise_overlap = _measured("bsXeps", r"\beta_s^TX^T\epsilon", real=True)
projected_label_overlap = _measured("zty", r"(X\beta_s)^Ty_t", real=True)
projected_norm_squared = _measured("znorm2", r"\|X\beta_s\|_2^2", positive=True)

# --- float64 evaluators against high-precision references
f64_radial_integral = _measured(
    "I_k_float64", r"\hat{I}_k^{\mathrm{float64}}", real=True
)
reference_radial_integral = _measured(
    "I_k_reference", r"I_k^{\mathrm{mpmath}}", real=True
)
f64_transfer_value = _measured(
    "risk_float64", r"\hat{\mathcal{R}}^{\mathrm{float64}}", real=True
)
reference_transfer_value = _measured(
    "risk_reference", r"\mathcal{R}^{\mathrm{50\,digits}}", real=True
)
f64_kernel = _measured("k_float64", r"\hat{k}^{\mathrm{float64}}(u_{ij})", real=True)
kernel_ulp = _measured("ulp_k", r"\mathrm{ulp}(k(u_{ij}))", positive=True)
f64_projection = _measured(
    "P_norm_float64", r"\widehat{\|P_{\parallel}f_*\|^2}^{\mathrm{float64}}", real=True
)
f64_complement = _measured(
    "Pperp_norm_float64", r"\widehat{\|P_{\perp}f_*\|^2}^{\mathrm{float64}}", real=True
)

# --- Monte Carlo over Gaussian inputs (Section 4, Appendix C)
mc_overlap = _measured(
    "overlap_mc",
    r"\widehat{\langle\sigma(w_i^Tx)\sigma(w_j^Tx)\rangle}_{\mathrm{MC}}",
    real=True,
)
mc_complement = _measured(
    "Pperp_norm_mc", r"\widehat{\|P_{\perp}f_*\|^2}_{\mathrm{MC}}", real=True
)
mc_target_norm = _measured(
    "target_norm_mc", r"\widehat{\|f_*\|^2}_{\mathrm{MC}}", nonnegative=True
)
mc_population_loss = _measured(
    "population_loss_mc", r"\widehat{\|f - f_*\|^2}_{\mathrm{MC}}", nonnegative=True
)
exact_population_loss = _measured(
    "population_loss_exact",
    r"\|f - f_*\|^2_{L_2}\big|_{(153)}",
    nonnegative=True,
)
kernel_distance = _measured(
    "kernel_distance",
    r"\frac{\|K_f - K_{f_*,A^c}\|_F}{\|K_{f_*,A^c}\|_F}",
    nonnegative=True,
)
relu_transfer_risk = _measured(
    "relu_linear_transfer_risk", r"\hat{\mathcal{R}}_{lt}(n)", nonnegative=True
)
target_complement = _measured(
    "target_complement", r"\|P_{\perp}f_t\|_{L_2}^2", nonnegative=True
)
sandwich_constant = _measured("C_sandwich", r"C_{\mathrm{sandwich}}", positive=True)
#: :math:`\rho_\perp(\mu) = \|P_\perp f_t\|^2/\|f_t\|^2` as a function of the
#: ablated fraction (Fig. 4(d)).
complement_fraction = sp.Function(r"\rho_\perp")
mercer_image = _measured("T_k_psi_l", r"T_k\psi_l", real=True)
mc_mercer_image = _measured(
    "T_k_psi_l_mc", r"\widehat{T_k\psi_l}_{\mathrm{MC}}", real=True
)
mercer_function = _measured("psi_l", r"\psi_l", real=True)
mc_mercer_gram = _measured(
    "psi_gram_mc", r"\widehat{\langle\psi_l,\psi_{l'}\rangle}_{\mathrm{MC}}", real=True
)
kronecker = _measured("delta_ll", r"\delta_{ll'}", real=True)
rkhs_norm = _measured("f_k_norm2", r"\|f\|_k^2", nonnegative=True)
eigenvalue = _measured("lambda_l", r"\lambda_l", positive=True)
mode = _measured("l", r"l", integer=True, positive=True)
mode_coefficient = sp.IndexedBase("c")
mode_eigenvalue = sp.IndexedBase("lambda")
taylor_order = _measured("n_taylor", r"n", integer=True, nonnegative=True)
taylor_coefficient = sp.IndexedBase("a")
hermite_coefficient = sp.IndexedBase("c")
# An indexed object typesets itself; its label is a symbol of the formula.
GLYPHS.update(
    {
        mode_coefficient.label: "c",
        mode_eigenvalue.label: r"\lambda",
        taylor_coefficient.label: "a",
    }
)


def order(power: sp.Expr) -> sp.Expr:
    r""":math:`O(\alpha^{p})` as :math:`\alpha\to0`."""
    return sp.Order(_alpha**power, (_alpha, 0))


def inverse_order(variable: sp.Symbol, power: int) -> sp.Expr:
    r""":math:`O(v^{-p})` as :math:`v\to\infty`."""
    return sp.Order(variable ** (-power), (variable, sp.oo))


#: Gradient descent's step size, whose error order the fine-tuning runs test.
step_size = _measured("eta", r"\eta", positive=True)
#: The number of target samples n.
samples = asymptotics.n
GLYPHS[samples] = "n"
#: The constant of an error bound :math:`\le C\alpha^p` (p depends on the depth).
order_constant = _measured("C_alpha", r"C", positive=True)
#: The 1/n coefficient of Laplace's method for (132)-(134) (computed by the
#: theory's ``laplace_relative_correction``, slow to build symbolically).
laplace_coefficient = _measured("a_laplace", r"a(\lambda)", real=True)


def eq(lhs: sp.Basic, rhs: sp.Basic) -> sp.Basic:
    """``lhs = rhs`` left unevaluated (SymPy would try to decide it)."""
    return sp.Eq(lhs, rhs, evaluate=False)


def le(lhs: sp.Basic, rhs: sp.Basic) -> sp.Basic:
    """``lhs <= rhs`` left unevaluated."""
    return sp.Le(lhs, rhs, evaluate=False)


def lt(lhs: sp.Basic, rhs: sp.Basic) -> sp.Basic:
    """``lhs < rhs`` left unevaluated."""
    return sp.Lt(lhs, rhs, evaluate=False)


def ge(lhs: sp.Basic, rhs: sp.Basic) -> sp.Basic:
    """``lhs >= rhs`` left unevaluated."""
    return sp.Ge(lhs, rhs, evaluate=False)


def gt(lhs: sp.Basic, rhs: sp.Basic) -> sp.Basic:
    """``lhs > rhs`` left unevaluated."""
    return sp.Gt(lhs, rhs, evaluate=False)


def both(*relations: sp.Basic) -> sp.Basic:
    """The conjunction of ``relations``, left unevaluated."""
    return sp.And(*relations, evaluate=False)
