r"""The notation of adaptive-tangent-features for the claims' formulas.

The quantities the claims compare that :mod:`implicit_bias.theory.tangent_features`
has no expression for: the paper's functions (:math:`\omega`,
:math:`\tilde\omega`, :math:`\omega_1\oplus\omega_2`, :math:`\widetilde\Omega`),
its matrices and kernels, and what a check measures (a descent's minimum, a
trained network's kernel alignment, an evaluator's value). Each symbol is
typeset through :data:`GLYPHS` in the paper's notation; a subscript
:math:`\mathrm{GD}` marks a value found by gradient descent, a hat over a
function our floating-point evaluator.
"""

from __future__ import annotations

import sympy as sp

__all__ = ["GLYPHS"]

# --- functions (typeset by name)
omega = sp.Function("omega")
omega1 = sp.Function("omega_1")
omega2 = sp.Function("omega_2")
omega3 = sp.Function("omega_3")
omega_tilde = sp.Function(r"\tilde{\omega}")
omega3_tilde = sp.Function(r"\tilde{\omega}_{3}")
join = sp.Function(r"(\omega_{1}\oplus\omega_{2})")
join_tilde = sp.Function(r"\tilde{\omega}_{\omega_{1}\oplus\omega_{2}}")
penalty = sp.Function(r"\Omega_{\omega}")
effective_penalty = sp.Function(r"\widetilde{\Omega}")
little_o = sp.Function("o")
conjugate = sp.Function(r"\phi^{*}")
phi = sp.Function("phi")
#: Our float64 evaluators of (12) and (11).
omega_tilde_evaluated = sp.Function(r"\widehat{\tilde{\omega}}")
join_evaluated = sp.Function(r"\widehat{(\omega_{1}\oplus\omega_{2})}")

# --- scalars
v1, v2 = sp.symbols("v_1 v_2", positive=True)
z_star = sp.Symbol("z_star", positive=True)
y = sp.Symbol("y", positive=True)
beta_norm = sp.Symbol("beta_norm", positive=True)
theta_norm = sp.Symbol("theta_step_norm", nonnegative=True)
singular_value = sp.Symbol("d_j", nonnegative=True)
last_scale = sp.Symbol("s_L1", positive=True)
beta_l_norm = sp.Symbol("beta_L_norm", positive=True)
l1_norm = sp.Symbol("l1_norm", nonnegative=True)
l12_norm = sp.Symbol("l12_norm", nonnegative=True)
l1_penalty = sp.Symbol("l1_penalty")
omega_tilde_penalty = sp.Symbol("Omega_tilde_penalty")
half = sp.Rational(1, 2)

# --- indices and indexed families
j, k = sp.symbols("j k", integer=True, positive=True)
P, Q = sp.symbols("P Q", integer=True, positive=True)
beta_entry = sp.IndexedBase("beta")
scales1 = sp.IndexedBase("s1")
scales2 = sp.IndexedBase("s2")
singular_values = sp.IndexedBase("sigma_B")
#: vec(u_j v_k^T) vec(u_j v_k^T)^T, the rank-one direction of a layer's kernel.
direction = sp.IndexedBase("E")

# --- matrices and vectors (non-commutative: their order is the product's)
M, M_prime, theta, theta_prime = sp.symbols("M M' theta theta'", commutative=False)
M_hat, theta_step, beta_hat, beta_hat_t = sp.symbols(
    "M_hat theta_step beta_hat beta_hat_T", commutative=False
)
identity = sp.Symbol("I_P", commutative=False)
M1, M2, W, U, V, S1, S2, Sigma, U_t, V_t = sp.symbols(
    "M_1 M_2 W U V S_1 S_2 Sigma U_T V_T", commutative=False
)
M_gd, theta_gd, theta_0 = sp.symbols("M_GD theta_GD theta_0", commutative=False)
#: Eq. (13): the final weight matrix, its transformation and the features.
W_L_t, M_L1, z_0, last_features, vec_W_L = sp.symbols(
    "W_L_T M_L1 z_0 kron_features vec_W_L", commutative=False
)
#: Model A's tangent features of W_L (item 4) and (10)'s M_L with M_L^(2) = I_C.
model_a_features, last_layer_transform = sp.symbols(
    "model_A_features M_L", commutative=False
)
#: Eq. (20): the average features, the tangent features at theta_0, M_theta'.
average_features, tangent_features_0, M_path = sp.symbols(
    "average_features grad_f0 M_theta_path", commutative=False
)
#: Theorem 2's (14)-(16): diag_{P x Q}(d) of B_hat = U D V^T, (4)'s change of the
#: output under Model A and the per-layer sum of (16)'s constraint.
D_matrix = sp.Symbol("D_PQ", commutative=False)
model_a_change = sp.Symbol("model_A_change")
layers_change = sp.Symbol("layers_change")
#: The position t in [0, 1] along the path from theta_0 to theta in (2), (20).
path_position = sp.Symbol("t_path", nonnegative=True)

# --- kernels and measured quantities
kernel = sp.Symbol("K_xx")
kernel_0 = sp.Symbol("K0_xx")
change_x, change_x2 = sp.symbols("df_x df_x2")
kernel_gd = sp.Symbol("K_GD")
kernel_0_train = sp.Symbol("K_0")
label_kernel = sp.Symbol("K_y")
layer_change = sp.Symbol("layer_change")
last_layer_change = sp.Symbol("last_layer_change")
features_x, features_x2 = sp.symbols("zbeta_x zbeta_x2")
function_change = sp.Symbol("f_change")
path_average = sp.Symbol("path_average")
minimum_4 = sp.Symbol("min_4")
minimum_27 = sp.Symbol("min_27")
scalar_minimum = sp.Symbol("min_28")
frobenius_minimum = sp.Symbol("min_W")
frobenius_aligned = sp.Symbol("W_aligned")
frobenius_paired = sp.Symbol("W_paired")
alignment_sign = sp.Symbol("cos_sign")
alignment_linear = sp.Symbol("cos_linear")
alignment_adapted = sp.Symbol("cos_K")
alignment_initial = sp.Symbol("cos_K0")
readout_share = sp.Symbol("rho_L")
minimum_4_model_a = sp.Symbol("min_4_model_A")
minimum_16 = sp.Symbol("min_16")
objective_16 = sp.Function(r"F_{(16)}")
solution_B = sp.Symbol("B_hat_GD")
difficulty_correlation = sp.Symbol("rho_S_sign")

_BOLD_BETA = r"\boldsymbol{\beta}"
_HAT_BETA = r"\widehat{\boldsymbol{\beta}}"
_THETA_STEP = r"(\widehat{\boldsymbol{\theta}}-\boldsymbol{\theta}_{0})"

#: How each symbol of this module is typeset (paper notation).
GLYPHS: dict[sp.Symbol, str] = {
    v1: r"v_{1}",
    v2: r"v_{2}",
    z_star: r"z^{*}",
    y: r"z^{2}",
    beta_norm: rf"\|{_HAT_BETA}\|_{{2}}",
    theta_norm: r"\|\widehat{\boldsymbol{\theta}}-\boldsymbol{\theta}_{0}\|_{2}",
    singular_value: r"[\mathbf{d}]_{j}",
    last_scale: r"[\mathbf{s}_{L}^{(1)}]_{1}",
    beta_l_norm: r"\|\widehat{\boldsymbol{\beta}}_{L}\|_{2}",
    l1_norm: rf"\|{_BOLD_BETA}\|_{{1}}",
    l12_norm: r"\|\mathbf{B}\|_{1,2}",
    l1_penalty: r"\|\cdot\|_{1}",
    omega_tilde_penalty: r"\widetilde{\Omega}",
    j: "j",
    k: "k",
    P: "P",
    Q: "Q",
    beta_entry.label: r"\beta",
    scales1.label: r"\mathbf{s}^{(1)}",
    scales2.label: r"\mathbf{s}^{(2)}",
    singular_values.label: r"\sigma(\mathbf{B})",
    direction.label: r"\mathbf{E}",
    M: r"\mathbf{M}",
    M_prime: r"\mathbf{M}^{\prime}",
    theta: r"\boldsymbol{\theta}",
    theta_prime: r"\boldsymbol{\theta}^{\prime}",
    M_hat: r"\widehat{\mathbf{M}}",
    theta_step: _THETA_STEP,
    beta_hat: _HAT_BETA,
    beta_hat_t: rf"{_HAT_BETA}^{{\mathsf{{T}}}}",
    identity: r"\mathbf{I}_{P}",
    M1: r"\widehat{\mathbf{M}}_{1}",
    M2: r"\widehat{\mathbf{M}}_{2}",
    W: r"\widehat{\mathbf{W}}",
    U: r"\mathbf{U}",
    V: r"\mathbf{V}",
    S1: r"\mathbf{S}_{1}",
    S2: r"\mathbf{S}_{2}",
    Sigma: r"\boldsymbol{\Sigma}",
    U_t: r"\mathbf{U}^{\mathsf{T}}",
    V_t: r"\mathbf{V}^{\mathsf{T}}",
    M_gd: r"\widehat{\mathbf{M}}_{\mathrm{GD}}",
    theta_gd: r"\widehat{\boldsymbol{\theta}}_{\mathrm{GD}}",
    theta_0: r"\boldsymbol{\theta}_{0}",
    W_L_t: r"\mathbf{W}_{L}^{\mathsf{T}}",
    M_L1: r"\mathbf{M}_{L}^{(1)}",
    z_0: r"\mathbf{z}_{\boldsymbol{\theta}_{0}}(\mathbf{x})",
    last_features: r"(\mathbf{I}_{C}\otimes(\mathbf{z}_{\boldsymbol{\theta}_{0}}"
    r"(\mathbf{x})^{\mathsf{T}}\mathbf{M}_{L}^{(1)}))",
    vec_W_L: r"\mathrm{vec}(\mathbf{W}_{L})",
    model_a_features: r"(\mathbf{I}_{C}\otimes\mathbf{z}(\mathbf{x})^{\mathsf{T}})",
    last_layer_transform: r"(\mathbf{I}_{C}\otimes\mathbf{M}_{L}^{(1)})",
    average_features: r"\overline{\nabla f_{\boldsymbol{\theta}}}(\mathbf{x})",
    tangent_features_0: r"\nabla_{\boldsymbol{\theta}_{0}}"
    r"f_{\boldsymbol{\theta}_{0}}(\mathbf{x})",
    M_path: r"\mathbf{M}_{\boldsymbol{\theta}^{\prime}}",
    path_position: "t",
    kernel: r"K(\mathbf{x},\mathbf{x}^{\prime})",
    kernel_0: r"K_{0}(\mathbf{x},\mathbf{x}^{\prime})",
    change_x: r"(f_{\widehat{\boldsymbol{\theta}}}(\mathbf{x})"
    r"-f_{\boldsymbol{\theta}_{0}}(\mathbf{x}))",
    change_x2: r"(f_{\widehat{\boldsymbol{\theta}}}(\mathbf{x}^{\prime})"
    r"-f_{\boldsymbol{\theta}_{0}}(\mathbf{x}^{\prime}))",
    kernel_gd: r"K_{\mathrm{GD}}",
    kernel_0_train: r"K_{0}",
    label_kernel: r"K_{\hat{y}}",
    layer_change: r"\mathbf{M}_{\ell}\mathbf{M}_{\ell}^{\mathsf{T}}-\mathbf{I}",
    last_layer_change: r"\Delta K_{L}(\mathbf{x},\mathbf{x}^{\prime})",
    features_x: r"(\mathbf{z}(\mathbf{x})^{\mathsf{T}}"
    r"\widehat{\boldsymbol{\beta}}_{L})",
    features_x2: r"(\mathbf{z}(\mathbf{x}^{\prime})^{\mathsf{T}}"
    r"\widehat{\boldsymbol{\beta}}_{L})",
    function_change: r"f_{\boldsymbol{\theta}}(\mathbf{x})"
    r"-f_{\boldsymbol{\theta}_{0}}(\mathbf{x})",
    path_average: r"\overline{\nabla f_{\boldsymbol{\theta}}}(\mathbf{x})"
    r"(\boldsymbol{\theta}-\boldsymbol{\theta}_{0})",
    minimum_4: r"\min_{(4)}{}_{\mathrm{GD}}",
    minimum_27: r"\min_{(27)}{}_{\mathrm{GD}}",
    scalar_minimum: r"\min_{s_{1}s_{2}\sigma=[\mathbf{d}]_{j}}\omega_{1}(s_{1})"
    r"+\omega_{2}(s_{2})+\sigma^{2}",
    frobenius_minimum: r"\min_{\mathbf{U},\mathbf{V}}\|\mathbf{S}_{1}^{-1}"
    r"\mathbf{U}^{\mathsf{T}}\mathbf{B}\mathbf{V}\mathbf{S}_{2}^{-1}\|_{F}",
    frobenius_aligned: r"\|\mathbf{S}_{1}^{-1}\mathbf{D}_{\mathrm{aligned}}"
    r"\mathbf{S}_{2}^{-1}\|_{F}",
    frobenius_paired: r"\min_{\pi}\|\mathbf{S}_{1}^{-1}\mathbf{D}_{\pi}"
    r"\mathbf{S}_{2}^{-1}\|_{F}",
    alignment_sign: r"\cos(K,K_{\hat{y}})_{\mathrm{sign}(y)}",
    alignment_linear: r"\cos(K,K_{\hat{y}})_{y}",
    alignment_adapted: r"\cos(K,K_{\hat{y}})",
    alignment_initial: r"\cos(K_{0},K_{\hat{y}})",
    readout_share: r"\rho_{L}",
    D_matrix: r"\mathrm{diag}_{P\times Q}(\mathbf{d})",
    model_a_change: r"\nabla_{\boldsymbol{\theta}_{0}}f_{\boldsymbol{\theta}_{0}}"
    r"(\mathbf{x})\mathbf{M}(\boldsymbol{\theta}-\boldsymbol{\theta}_{0})",
    layers_change: r"\sum_{\ell=1}^{L}\nabla_{\mathrm{vec}(\mathbf{W}_{\ell})}"
    r"f_{\boldsymbol{\theta}_{0}}(\mathbf{x})\mathrm{vec}(\mathbf{M}_{\ell}^{(1)}"
    r"\mathbf{W}_{\ell}\mathbf{M}_{\ell}^{(2)})",
    minimum_4_model_a: r"\min_{(4),\,\text{Model A}}",
    minimum_16: r"\min_{(16)}",
    solution_B: r"(\widehat{\mathbf{B}}_{\ell})_{\mathrm{direct}}",
    difficulty_correlation: r"\rho_{S}\big(|y_{i}|,\,K(\mathbf{x}_{i},\mathbf{x}_{i})"
    r"-K_{0}(\mathbf{x}_{i},\mathbf{x}_{i})\big)_{\mathrm{sign}(y)}",
}
