r"""Section 3.2 of adaptive-tangent-features: neural network structure.

Model A parametrizes M by per-layer Kronecker factors (eq. (10)); the final
weight matrix's output is eq. (13); Theorem 2 gives the solution of (4)
under Model A, (14)-(16), and its adapted kernel (17)-(18); eq. (19) is the
final layer's share of that kernel. Checked here: (13) and its tangent
features on explicit matrices with symbolic entries (:mod:`._matrices`);
Theorem 2's kernel (17)-(18) on a layer with rational orthogonal singular
vectors and symbolic scales (as printed, and with all pairs (j, k)); (19)
exactly, and in the trained MLP of Figure 1's analogue
(:mod:`.appendix_b_mnist`), where the readout's share of the kernel change
is compared with 1/2 in standard errors. The joint and effective penalties
(11)-(12) that Theorem 2 uses are in :mod:`.penalties`, Proposition 3 in
:mod:`.proposition_3`, Figure 2 in :mod:`.figure_2`, and Lemma 5, on which
the proof of Theorem 2 rests, in :mod:`.appendix_a3_proofs`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy as sp

from implicit_bias.claims.bounds import check_within
from implicit_bias.claims.checks import check_identity
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
    conjunction,
)
from implicit_bias.claims.profiles import PowerCalculation
from implicit_bias.sources.adaptive_tangent_features import notation as nt
from implicit_bias.sources.adaptive_tangent_features._exact import undecided
from implicit_bias.sources.adaptive_tangent_features._matrices import (
    generic_matrix,
    generic_symmetric,
    rational_orthogonal,
)
from implicit_bias.sources.adaptive_tangent_features.appendix_b_mnist import (
    FULL_SEEDS,
    OUTSIDE_REGIME,
    PILOT,
    PILOT_SDS,
    QUICK_SEEDS,
    QUICK_STUDY,
    SIGNIFICANCE,
    all_converged,
    figure_one_cost,
    figure_one_study,
    mean_and_error,
    paper_configuration,
)
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID, claim_id
from implicit_bias.theory import tangent_features as theory

__all__ = ["CLAIMS"]

s = theory.s


# --- Section 3.2, eq. (13): the output through the final weight matrix
#
# The text's model before (13): f_theta(x) = W_L^T z_theta(x) with W_L of
# shape P_L x C, z_theta(x) = M_L^(1) z_theta0(x), and vec stacking columns
# (its Notation; SymPy's Matrix.vec() does the same). Both are checked at two
# shapes, (P_L, C) = (3, 2) and (2, 3), with every entry a symbol: the C
# outputs are contracted with a symbolic vector c, so that one scalar
# identity in all entries and c is the vector identity.


#: (P_L, C) at which eq. (13) is checked: a non-square W_L either way.
_EQ13_SHAPES = ((3, 2), (2, 3))


def _eq13_features_as_printed(
    features: sp.Matrix, m1: sp.Matrix, outputs: int
) -> sp.Matrix:
    r"""The underbraced features of (13), :math:`I_C \otimes (z^\top M_L^{(1)})`."""
    return sp.kronecker_product(sp.eye(outputs), features.T * m1)


def _eq13_verdict(
    kronecker_features: Callable[[sp.Matrix, sp.Matrix, int], sp.Matrix],
    *,
    symmetric: bool = True,
) -> Verdict:
    """Compare the model's output with ``kronecker_features(z, M, C) vec(W_L)``."""
    parts = []
    for rows, outputs in _EQ13_SHAPES:
        weights = generic_matrix("w", rows, outputs)
        m1 = (
            generic_symmetric("m", rows)
            if symmetric
            else generic_matrix("m", rows, rows)
        )
        features = generic_matrix("z", rows, 1)
        contraction = generic_matrix("c", outputs, 1)
        # f_theta(x) = W_L^T z_theta(x) with z_theta(x) = M_L^(1) z_theta0(x).
        model = weights.T * (m1 * features)
        printed = kronecker_features(features, m1, outputs) * weights.vec()
        verdict = check_identity(
            (contraction.T * model)[0, 0], (contraction.T * printed)[0, 0]
        )
        if verdict.status != Status.HOLDS:
            return verdict.with_detail(f"P_L = {rows}, C = {outputs}: {verdict.detail}")
        parts.append(verdict)
    return conjunction(
        parts,
        "exact, every entry symbolic, at (P_L, C) = (3, 2) and (2, 3): c^T W_L^T "
        "(M_L^(1) z) = c^T (I_C (x) (z^T M_L^(1))) vec(W_L) for symmetric M_L^(1), "
        "vec stacking columns",
    )


def _check_eq13_kronecker_form() -> Verdict:
    return _eq13_verdict(_eq13_features_as_printed)


def _check_eq13_tangent_features() -> Verdict:
    parts = []
    for rows, outputs in _EQ13_SHAPES:
        weights = generic_matrix("w", rows, outputs)
        m1 = generic_matrix("m", rows, rows)
        features = generic_matrix("z", rows, 1)
        left = generic_matrix("c", outputs, 1)
        right = generic_matrix("d", rows * outputs, 1)
        # Model A item 4: the tangent features of W_L at theta_0, by
        # differentiating f_theta0(x) = W_L^T z(x) in vec(W_L).
        jacobian = (weights.T * features).jacobian(weights.vec())
        model_a = sp.kronecker_product(sp.eye(outputs), features.T)
        # (10) with M_L^(2) = I_C: the features times M_L^(2)T (x) M_L^(1).
        transformed = jacobian * theory.layer_transform(m1, sp.eye(outputs))
        printed = _eq13_features_as_printed(features, m1, outputs)
        for name, lhs, rhs in (
            ("Model A item 4", jacobian, model_a),
            ("(10) applied to item 4", transformed, printed),
        ):
            verdict = check_identity(
                (left.T * lhs * right)[0, 0], (left.T * rhs * right)[0, 0]
            )
            if verdict.status != Status.HOLDS:
                return verdict.with_detail(
                    f"P_L = {rows}, C = {outputs}, {name}: {verdict.detail}"
                )
            parts.append(verdict)
    return conjunction(
        parts,
        "exact, every entry symbolic, at (P_L, C) = (3, 2) and (2, 3), any "
        "M_L^(1): the Jacobian of W_L^T z in vec(W_L) (columns stacked) is I_C (x) "
        "z^T (Model A, item 4), and times (10)'s M_L = I_C (x) M_L^(1) it is "
        "I_C (x) (z^T M_L^(1)), the underbraced features of (13)",
    )


# --- Theorem 2, eqs. (17)-(18)

_SCALES1 = list(sp.symbols("a1:3", positive=True))
_SCALES2 = list(sp.symbols("b1:4", positive=True))


def _layer_instance() -> tuple[sp.Matrix, sp.Matrix, sp.Matrix, sp.Matrix]:
    u_matrix, v_matrix = rational_orthogonal(2), rational_orthogonal(3)
    m1 = u_matrix * sp.diag(*_SCALES1) * u_matrix.T
    m2 = v_matrix * sp.diag(*_SCALES2) * v_matrix.T
    return u_matrix, v_matrix, m1, m2


def _check_eq17_as_printed() -> Verdict:
    u_matrix, v_matrix, m1, m2 = _layer_instance()
    exact = theory.kernel_change_exact(m1, m2)
    printed = theory.kernel_change_as_printed(u_matrix, v_matrix, _SCALES1, _SCALES2)
    difference = (exact - printed).applyfunc(sp.expand)
    if difference == sp.zeros(*difference.shape):
        return Verdict.holds("exact: (17)-(18) equal M M^T - I", Basis.PROOF)
    a1, a2 = _SCALES1
    b1, b2, b3 = _SCALES2
    cross = (u_matrix[:, 0] * v_matrix[:, 1].T).vec()
    missing = sp.expand((cross.T * difference * cross)[0, 0])
    # s^(1) = (2, 1), s^(2) = (2, 1, 1): Theorem 2's form for a rank-one B_l
    # (d_2 = 0 gives s_2 = 1, and s^(2)_3 = 1 since 3 > min(P, Q)).
    instance = {a1: 2, a2: 1, b1: 2, b2: 1, b3: 1}
    at_instance = missing.subs(instance)
    if not (at_instance.is_Rational and at_instance != 0):
        return undecided(f"on vec(u_1 v_2^T) the difference is {missing}")
    return Verdict.fails(
        "P = 2, Q = 3, rational orthogonal U, V, symbolic s^(1) = (a1, a2), "
        "s^(2) = (b1, b2, b3): M_l^2 - I = (M2^2 (x) M1^2) - I has eigenvalues "
        "s1_j^2 s2_k^2 - 1 on vec(u_j v_k^T) for all pairs (j, k), and (17)-(18) "
        f"keep only j = k; e.g. on vec(u_1 v_2^T) the difference is {missing} "
        f"(= a1^2 b2^2 - 1, nonzero unless a1 b2 = 1; here s^(1) = (2, 1), "
        f"s^(2) = (2, 1, 1), a rank-one B_l, gives {at_instance})",
        Basis.PROOF,
        "P = 2, Q = 3, s^(1) = (2, 1), s^(2) = (2, 1, 1): vec(u_1 v_2^T)^T "
        f"(M_l M_l^T - I - (17)-(18)) vec(u_1 v_2^T) = {at_instance} (exact rational "
        "arithmetic), not 0",
    )


def _check_eq17_all_pairs() -> Verdict:
    u_matrix, v_matrix, m1, m2 = _layer_instance()
    exact = theory.kernel_change_exact(m1, m2)
    corrected = sp.zeros(exact.rows)
    for j in range(u_matrix.rows):
        for k in range(v_matrix.rows):
            direction = (u_matrix[:, j] * v_matrix[:, k].T).vec()
            weight = _SCALES1[j] ** 2 * _SCALES2[k] ** 2 - 1
            corrected += weight * direction * direction.T
    difference = (exact - corrected).applyfunc(sp.expand)
    if difference == sp.zeros(*difference.shape):
        return Verdict.holds(
            "exact (P = 2, Q = 3, rational orthogonal U, V, symbolic scales): "
            "M_l M_l^T - I = sum over all j in [P], k in [Q] of (s1_j^2 s2_k^2 - 1) "
            "vec(u_j v_k^T) vec(u_j v_k^T)^T",
            Basis.PROOF,
        )
    # An expanded polynomial matrix that is not 0 is not identically 0.
    return Verdict.fails(
        f"difference {difference}",
        Basis.PROOF,
        f"the expanded difference has nonzero entries: {difference}",
    )


# --- eq. (19): the final layer's contribution, exactly and in a trained MLP


def _check_eq19() -> Verdict:
    beta_l = sp.Matrix(sp.symbols("c1:4", real=True))
    features = sp.Matrix([sp.symbols("z1:4", real=True)])
    features2 = sp.Matrix([sp.symbols("y1:4", real=True)])
    m1 = theory.theorem1_transform(beta_l)
    change = theory.kernel_change_exact(m1, sp.eye(1))
    kernel = (features * change * features2.T)[0, 0]
    norm_squared = (beta_l.T * beta_l)[0, 0]
    label = (features * beta_l)[0, 0] * (features2 * beta_l)[0, 0]
    printed = (s**2 - 1) / norm_squared * label
    return check_identity(kernel, printed)


def _check_readout_share(seeds: tuple[int, ...], config: dict[str, Any]) -> Verdict:
    """Eq. (19): for the linear targets the readout carries the kernel change."""
    study, _ = figure_one_study(seeds, config)
    linear = mean_and_error(study.values("linear_readout_share"))
    sign = mean_and_error(study.values("sign_readout_share"))
    converged = "all" if all_converged(study) else "not all"
    detail = (
        f"{len(seeds)} seeds, N = {config['samples']}, widths {config['widths']} "
        f"({converged} runs at relative loss 1e-3): readout share of the kernel "
        "change ||dK_L|| / (||dK_L|| + ||dK_hidden||) "
        f"= {linear[0]:.3f} +- {linear[1]:.3f} (targets y), {sign[0]:.3f} +- "
        f"{sign[1]:.3f} (sign(y))"
    )
    if linear[0] > 0.5 + SIGNIFICANCE * linear[1]:
        return Verdict.holds(
            f"{detail}: above 1/2 by > {SIGNIFICANCE:g} SE", Basis.STATISTICAL
        )
    if linear[0] < 0.5 - SIGNIFICANCE * linear[1]:
        return Verdict.inconclusive(
            f"{detail}: below 1/2 by more than {SIGNIFICANCE:g} SE, the hidden "
            f"layers carry much of the change here; {OUTSIDE_REGIME}",
            Reason.UNDECIDED,
            Basis.STATISTICAL,
        )
    return Verdict.inconclusive(
        f"{detail}: within {SIGNIFICANCE:g} SE of 1/2 (no majority resolved)",
        Reason.STATISTICAL,
        Basis.STATISTICAL,
    )


def _check_hidden_share(seeds: tuple[int, ...], config: dict[str, Any]) -> Verdict:
    study, _ = figure_one_study(seeds, config)
    shares, minorities = [], []
    above = False
    for task in ("linear", "sign"):
        mean, error = mean_and_error(study.values(f"{task}_readout_share"))
        # The readout's share ||dK_L|| / (||dK_L|| + ||dK_hidden||) lies in
        # [0, 1]; the hidden layers carry more than half when it lies below 1/2
        # by SIGNIFICANCE SE.
        minorities.append(
            check_within(
                mean,
                0.0,
                0.5 - SIGNIFICANCE * error,
                what=f"{task}: mean readout share",
                basis=Basis.STATISTICAL,
            )
            if 0.5 - SIGNIFICANCE * error >= 0.0
            else Verdict.inconclusive(
                f"{task}: 1/2 - {SIGNIFICANCE:g} SE = "
                f"{0.5 - SIGNIFICANCE * error:.3f} < 0: no share is resolved below 1/2",
                Reason.STATISTICAL,
                Basis.STATISTICAL,
            )
        )
        above = above or mean > 0.5 + SIGNIFICANCE * error
        shares.append(f"{task} {mean:.3f} +- {error:.3f}")
    converged = all_converged(study)
    below = conjunction(minorities, "; ".join(m.detail for m in minorities))
    detail = (
        f"{len(seeds)} seeds, N = {config['samples']}, widths {config['widths']} "
        f"({'all' if converged else 'not all'} runs at relative loss 1e-3): readout "
        f"share of the kernel change {', '.join(shares)}; the hidden layers carry "
        f"more than half of it in both tasks (by > {SIGNIFICANCE:g} SE needed)"
    )
    if below.status == Status.HOLDS:
        return Verdict.holds(f"{detail}: {below.detail}", Basis.STATISTICAL)
    if above and converged:
        return Verdict.fails(
            f"{detail}: the readout carries more than half in a task, beyond "
            f"{SIGNIFICANCE:g} SE, all runs converged",
            Basis.STATISTICAL,
        )
    return Verdict.inconclusive(
        f"{detail}: not resolved beyond {SIGNIFICANCE:g} SE (or runs unconverged; "
        f"{below.detail})",
        Reason.STATISTICAL,
        Basis.STATISTICAL,
    )


#: Eq. (19): "we should expect only the final layer to contribute to the
#: change in the adapted kernel", a readout share of 1: 1/2 beyond the
#: threshold of 1/2 that both readout claims decide at.
_SHARE_EFFECT = 0.5
_READOUT_POWER = PowerCalculation(
    effect=_SHARE_EFFECT,
    effect_quote=(
        "eq. (19): 'we should expect only the final layer to contribute to the "
        "change in the adapted kernel', a readout share of 1 against the "
        "threshold 1/2"
    ),
    pilot_sd=PILOT_SDS["linear_share"],
    pilot_seeds=len(FULL_SEEDS),
    pilot=PILOT,
    z=SIGNIFICANCE,
)
_HIDDEN_POWER = PowerCalculation(
    effect=-_SHARE_EFFECT,
    effect_quote=(
        "our extension has no effect in the source; eq. (19)'s prediction, a "
        "readout share of 1 for y, is 1/2 from the threshold 1/2 (the larger "
        "sd of the two tasks' shares)"
    ),
    pilot_sd=max(PILOT_SDS["linear_share"], PILOT_SDS["sign_share"]),
    pilot_seeds=len(FULL_SEEDS),
    pilot=PILOT,
    z=SIGNIFICANCE,
)


# --- formulas: what each check compares, for the ledger


def _formula_eq13() -> sp.Basic:
    return sp.Eq(nt.W_L_t * nt.M_L1 * nt.z_0, nt.last_features * nt.vec_W_L)


def _formula_eq13_features() -> sp.Basic:
    return sp.Eq(nt.last_features, nt.model_a_features * nt.last_layer_transform)


def _kernel_change(weight: sp.Expr, index: sp.Expr, *ranges: tuple) -> sp.Basic:
    return sp.Eq(
        nt.layer_change,
        sp.Sum(weight * nt.direction[nt.j, index], *ranges),
    )


def _formula_eq17_as_printed() -> sp.Basic:
    weight = nt.scales1[nt.j] ** 2 * nt.scales2[nt.j] ** 2 - 1
    return _kernel_change(weight, nt.j, (nt.j, 1, sp.Min(nt.P, nt.Q)))


def _formula_eq17_all_pairs() -> sp.Basic:
    weight = nt.scales1[nt.j] ** 2 * nt.scales2[nt.k] ** 2 - 1
    return _kernel_change(weight, nt.k, (nt.j, 1, nt.P), (nt.k, 1, nt.Q))


def _formula_last_layer() -> sp.Basic:
    return sp.Eq(
        nt.last_layer_change,
        (nt.last_scale**2 - 1) * nt.beta_l_norm**-2 * nt.features_x * nt.features_x2,
    )


def _formula_readout() -> sp.Basic:
    return sp.Gt(nt.readout_share, nt.half)


def _formula_hidden_layers() -> sp.Basic:
    return sp.Gt(1 - nt.readout_share, nt.half)


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "13",
        "kronecker-form",
        Kind.IDENTITY,
        (
            r"the output $f_\theta(x) = W_L^\top z_\theta(x)$ with $z_\theta(x) = "
            r"M_L^{(1)} z_{\theta_0}(x)$ is $(I_C \otimes (z_{\theta_0}(x)^\top "
            r"M_L^{(1)}))\,\mathrm{vec}(W_L)$, vec stacking columns"
        ),
        _check_eq13_kronecker_form,
        Status.HOLDS,
        quote=(
            r"f_{\bm{\theta}}(\mathbf{x})=\underbrace{(\mathbf{I}_{C}\otimes(\mathb"
            r"f{z}_{{\bm{\theta}}_{0}}(\mathbf{x})^{\mathsf{T}}\mathbf{M}_{L}^{(1)}))"
            r"}_{\overline{\nabla_{\mathrm{vec}(\mathbf{W}_{L})}f_{\bm{\theta}}}(\ma"
            r"thbf{x})}\mathrm{vec}(\mathbf{W}_{L})"
        ),
        reading=Reading.PRINTED,
        regime=(
            "the model the text states before (13), f_theta(x) = W_L^T z_theta(x), "
            "z_theta(x) = M_L^(1) z_theta0(x), W_L in R^(P_L x C), with M_L^(1) "
            "symmetric (Section 3 takes M symmetric PSD 'without loss of "
            "generality'; Theorem 2's $\\hat{M}^{(1)} = U S U^T$); (P_L, C) = (3, 2) "
            "and (2, 3), every entry symbolic"
        ),
        assumptions=(
            "vec stacks columns (the text's Notation)",
            "M_L^(1) symmetric",
        ),
        formula=_formula_eq13,
    ),
    Claim(
        SOURCE_ID,
        "13",
        "tangent-features",
        Kind.IDENTITY,
        (
            r"the underbraced features $I_C \otimes (z_{\theta_0}(x)^\top "
            r"M_L^{(1)})$ are Model A's tangent features of $W_L$, $I_C \otimes "
            r"z(x)^\top$ (the Jacobian of $W_L^\top z$ in vec($W_L$)), transformed "
            r"by (10)'s $M_L = M_L^{(2)\top} \otimes M_L^{(1)}$ with "
            r"$M_L^{(2)} = I_C$"
        ),
        _check_eq13_tangent_features,
        Status.HOLDS,
        quote=(
            r"\underbrace{(\mathbf{I}_{C}\otimes(\mathbf{z}_{{\bm{\theta}}_{0}}(\ma"
            r"thbf{x})^{\mathsf{T}}\mathbf{M}_{L}^{(1)}))}_{\overline{\nabla_{\mathrm"
            r"{vec}(\mathbf{W}_{L})}f_{\bm{\theta}}}(\mathbf{x})}"
        ),
        reading=Reading.INTERPRETATION,
        regime=(
            "Model A, items 2 and 4, with (10) and M_L^(2) = I_C, any M_L^(1) (not "
            "only symmetric); (P_L, C) = (3, 2) and (2, 3), every entry symbolic: "
            "our reading of the underbrace as (10) applied to item 4"
        ),
        assumptions=("vec stacks columns (the text's Notation)",),
        formula=_formula_eq13_features,
    ),
    Claim(
        SOURCE_ID,
        "17-18",
        "as-printed",
        Kind.IDENTITY,
        "the adapted kernel is K_0 + sum_l sum_{j <= min(P_l, Q_l)} "
        "([s1]_j^2 [s2]_j^2 - 1) J_l(x) vec(u_j v_j^T) vec(u_j v_j^T)^T J_l(x')^T",
        _check_eq17_as_printed,
        Status.FAILS,
        slip="adapted-kernel-17-18",
        quote=(
            r"K_{0}(\mathbf{x},\mathbf{x}^{\prime})+\sum_{\ell=1}^{L}\sum_{j=1}^{\min"
            r"\{P_{\ell},Q_{\ell}\}}([\mathbf{s}_{\ell}^{(1)}]_{j}^{2}[\mathbf{s}_{\e"
            "ll}^{(2)}]_{j}^{2}-1)"
        ),
        reading=Reading.PRINTED,
        regime=(
            "one layer, P = 2, Q = 3, rational orthogonal U, V, symbolic scales; "
            "counterexample s^(1) = (2, 1), s^(2) = (2, 1, 1), a rank-one B_l within "
            "Theorem 2's form (14)-(15)"
        ),
        assumptions=("M_l = M2^T (x) M1 (eq. (10)); K = J M M^T J'^T (eq. (7))",),
        formula=_formula_eq17_as_printed,
    ),
    Claim(
        SOURCE_ID,
        "17-18",
        "all-pairs",
        Kind.IDENTITY,
        "the adapted kernel is K_0 + sum_l sum_{j in [P_l], k in [Q_l]} "
        "([s1]_j^2 [s2]_k^2 - 1) J_l(x) vec(u_j v_k^T) vec(u_j v_k^T)^T J_l(x')^T",
        _check_eq17_all_pairs,
        Status.HOLDS,
        quote=(
            r"\mathbf{M}_{\ell}=\mathbf{M}_{\ell}^{(2)\mathsf{T}}\otimes\mathbf{M}_{"
            r"\ell}^{(1)}"
        ),
        reading=Reading.EXTENSION,
        regime=(
            "one layer, P = 2, Q = 3, rational orthogonal U, V, symbolic positive "
            "scales: our corrected (17)-(18), from the Kronecker form (10)"
        ),
        corrects=claim_id("17-18", "as-printed"),
        formula=_formula_eq17_all_pairs,
    ),
    Claim(
        SOURCE_ID,
        "19",
        "last-layer",
        Kind.IDENTITY,
        "with C = 1 and M_L^(2) = I, the last layer contributes "
        "([s_L^(1)]_1^2 - 1)||beta_L||^-2 (z(x)^T beta_L)(z(x')^T beta_L)",
        _check_eq19,
        Status.HOLDS,
        quote=(
            r"K(\mathbf{x},\mathbf{x}^{\prime})\approx "
            r"K_{0}(\mathbf{x},\mathbf{x}^{\prime})+([\mathbf{s}_{L}^{(1)}]_{1}^{2}-1"
            r")\|\widehat{{\bm{\beta}}}_{L}\|_{2}^{-2}"
        ),
        reading=Reading.PRINTED,
        regime=(
            "C = 1, P_L = 3, M_L^(2) = I, M_L^(1) of Theorem 2's form (14) with Q_L "
            "= 1, symbolic features and beta_L: the final-layer term of (19)"
        ),
        assumptions=("P_L = 3, M_L^(1) of the form (8)",),
        formula=_formula_last_layer,
    ),
    Claim(
        SOURCE_ID,
        "19",
        "readout-carries-change",
        Kind.SIMULATION,
        "for the linear targets y (well represented by final-layer features) "
        "only the final layer should contribute to the change of the adapted "
        "kernel: K ~ K0 + (s^2 - 1) ||beta_L||^-2 (z^T beta_L)(z'^T beta_L)",
        lambda: _check_readout_share(QUICK_SEEDS, QUICK_STUDY),
        Status.INCONCLUSIVE,
        cost=lambda: figure_one_cost(QUICK_SEEDS, QUICK_STUDY),
        paper=paper_configuration(
            _check_readout_share,
            _READOUT_POWER,
            Status.INCONCLUSIVE,
            Reason.UNDECIDED,
            "Run here (272 CPU s, every run converged within ~50 steps): readout "
            "share 0.077 +- 0.012 for y, 0.174 +- 0.015 for sign(y), below 1/2 by "
            "more than 3 SE: at B.1's sizes the hidden layers carry the change in "
            "our synthetic analogue, which does not refute the MNIST statement",
        ),
        quote=(
            "Thus, we should expect only the final layer to contribute to the change "
            "in the adapted kernel:"
        ),
        reading=Reading.INTERPRETATION,
        regime=(
            "the synthetic analogue of figure-1-alignment (6 seeds), not the "
            "source's B.1 network; 'only the final layer' read as a readout share "
            "above 1/2 by 3 SE (the weakest reading: a majority)"
        ),
        expected_reason=Reason.UNDECIDED,
        assumptions=(
            "synthetic two-class data instead of MNIST; small MLP; full-batch GD",
            "'only the final layer' read as: the readout's share of the kernel "
            f"change exceeds 1/2 by {SIGNIFICANCE:g} standard errors",
        ),
        budget_seconds=60.0,
        formula=_formula_readout,
    ),
    Claim(
        SOURCE_ID,
        "19",
        "hidden-layers-carry-change",
        Kind.SIMULATION,
        "in the trained MLP the hidden layers carry more than half of the change "
        "of the adapted kernel, for the linear and the binarized targets alike",
        lambda: _check_hidden_share(QUICK_SEEDS, QUICK_STUDY),
        Status.HOLDS,
        cost=lambda: figure_one_cost(QUICK_SEEDS, QUICK_STUDY),
        paper=paper_configuration(
            _check_hidden_share,
            _HIDDEN_POWER,
            Status.HOLDS,
            None,
            "Run here (282 CPU s, every run converged within ~50 steps): readout "
            "share 0.077 +- 0.012 for y, 0.174 +- 0.015 for sign(y), both below "
            "1/2 by more than 3 SE",
        ),
        quote="",
        reading=Reading.EXTENSION,
        regime=(
            "the synthetic analogue of figure-1-alignment (6 seeds): a finding of "
            "ours in that analogue, not a statement of the source"
        ),
        assumptions=("as readout-carries-change",),
        budget_seconds=60.0,
        formula=_formula_hidden_layers,
    ),
)
