r"""The inventory of features-are-fate: every numbered item of its text.

One :class:`~implicit_bias.claims.inventory.Item` per numbered equation
(1)-(159), theorem, lemma, assumption and figure, in the order of the text,
for ``implicit-bias coverage`` (:mod:`implicit_bias.claims.coverage`).

Labels are the text's own numbers: ``"35"`` is the equation printed with the
tag (35); ``thm-3.4``, ``lemma-B.1``, ``assumption-3.1``, ``fig-4`` are
Theorem 3.4, Lemma B.1, Assumption 3.1 and Figure 4. The numbers are those of
the text extraction of Tahir, Ganguli and Rotskoff, "Features are fate"
(arXiv:2410.08194) the claims quote: the main text
numbers (1)-(21), Appendix A (22), Appendices B-C (23)-(159) (Appendices D-E
number no equation). Which arXiv version it was taken from is not recorded
(:data:`~implicit_bias.sources.features_are_fate.CITATION`), so another
version may number differently.

Kinds follow the text: a *definition* introduces a model, a loss, a metric or
a matrix (its ``used_by`` names the claims whose checks use it: those on the
equation and those whose check evaluates the theory function that encodes
it); a *result* is asserted by the text (a theorem, a closed form, a figure's
finding); a *proof step* is a line of a derivation in Appendix B. Figures are
listed whole (fig-1, ...): no claim names a panel. Tags (29) and (41) stand
on empty lines of the text and are the only items that cannot be checked.

The two claims on the prose of Section 4 (label ``sec-4``; a section is not a
numbered item) are placed on what they check or use: the kernel's
sparsification on Fig. 4 (panels (a)-(b)), the exact population loss on
(153), through which it is computed, and on the definitions (4), (18)-(20).
"""

from __future__ import annotations

from implicit_bias.claims.inventory import Item, ItemKind
from implicit_bias.sources.features_are_fate.source import SOURCE_ID

__all__ = ["INVENTORY"]

_D, _R, _P = ItemKind.DEFINITION, ItemKind.RESULT, ItemKind.PROOF_STEP


def _ids(*labels: str) -> tuple[str, ...]:
    """Claim ids of this source from their ``equation:label`` suffixes."""
    return tuple(f"{SOURCE_ID}:{label}" for label in labels)


def _union(*groups: tuple[str, ...]) -> tuple[str, ...]:
    """The claim ids of ``groups``, each once, in their order."""
    return tuple(dict.fromkeys(i for group in groups for i in group))


#: Claims that train deep linear networks (9) by gradient descent, pretraining
#: on the population loss (4) from an initialization satisfying (22).
_PRETRAINED_RUNS = _ids(
    "thm-3.4:features-rank-one",
    "50:as-printed",
    "50:order-alpha",
    "108:gd-endpoint",
    "142:gd-as-printed",
    "142:gd-corrected",
    "13:gd-slices",
    "17:gd-slices",
)
#: Claims that train deep linear networks (9) on the target's empirical loss
#: (5) (from scratch, by linear transfer or by fine-tuning).
_TARGET_RUNS = _ids(
    "thm-3.5:scratch-min-norm",
    "108:gd-endpoint",
    "142:gd-as-printed",
    "142:gd-corrected",
    "142:as-printed",
    "142:balanced-endpoint",
    "13:gd-slices",
    "17:gd-slices",
)
#: Claims that draw target data sets y = X beta_t + eps (eq. (2), Assumption
#: 3.1) and average a generalization error (8) over them.
_TARGET_DRAWS = _ids(
    "10:monte-carlo",
    "12:monte-carlo",
    "13:surface-monte-carlo",
    "13:gd-slices",
    "15:monte-carlo",
    "16:monte-carlo",
    "16:monte-carlo-corrected",
    "17:surface-monte-carlo",
    "17:gd-slices",
    "95:finite-scratch-risk",
    "120:linear-transfer-exact",
    "128:monte-carlo",
    "142:excess-risk-monte-carlo",
)
#: Claims of Section 4 on the two-layer ReLU student (18) and the ablated
#: (19) and full (20) teachers.
_RELU_TRANSFER = _ids(
    "sec-4:exact-population-loss",
    "sec-4:kernel-sparsifies",
    "21:irreducible-error",
    "21:increases-with-mu",
)
#: Claims on the projections (158)-(159), built from the Gram matrices
#: (154)-(156).
_PROJECTIONS = _ids(
    "158:normal-equations",
    "159:pythagoras",
    "158-159:float64",
    "158-159:monte-carlo",
)
#: Claims that use the integrals I_1, I_2 of (129)-(130).
_RIDGE_INTEGRALS = _ids(
    "129-130:spherical",
    "129-130:float64",
    "128:risk",
    "128:monte-carlo",
    "131:i1-laplace-step-1",
    "138:limit",
    "139:limit",
    "140:limit",
)


#: Claims that check a proof step or result although their ``equation``
#: names another label (claims on the label itself are found without this).
_NAMED: dict[str, tuple[str, ...]] = {
    # Not the proof's steps, which sit on (28), (31)-(34): the proof's failing
    # threshold 34:choice-as-printed would accuse the KL half, which holds.
    "thm-2.2": _ids("34:choice-corrected"),
    # lim L(t) = 0 of (49), L = ||beta(t) - beta_s||^2/2, is the lemma.
    "lemma-3.3": _ids("48:decay-bound", "49:limit"),
    "thm-3.6": _ids("10:monte-carlo"),
    "fig-1": _ids(
        "13:surface-monte-carlo",
        "13:interval",
        "13:underparameterized-condition",
        "13:gd-slices",
    ),
    "thm-3.7": _ids("12:monte-carlo", "120:linear-transfer-exact"),
    "thm-3.8": _ids("15:monte-carlo", "141:limit"),
    "fig-2": _ids("15:monte-carlo", "15:increasing"),
    "thm-3.9": _ids("16:monte-carlo", "16:monte-carlo-corrected"),
    "fig-3": _ids("17:surface-monte-carlo", "17:sign", "17:gd-slices"),
    "fig-4": _ids("sec-4:kernel-sparsifies", "21:increases-with-mu"),
    "lemma-B.1": _ids(
        "50:as-printed",
        "50:order-alpha",
        "60:rank-one-layer-1",
        "51:alignment-limit",
    ),
    # C_l is checked inside (69).
    "70": _ids("69:alignment-layer-1", "69:alignment-layer-2"),
    "fig-6": _ids("13:noiseless-limit"),
    "73": _ids("thm-3.4:features-rank-one"),
    # Lemma 3.3's conclusion (the text cites Theorem 3.5), checked by its proof.
    "74": _ids("48:decay-bound", "49:limit"),
    "77": _ids("thm-3.4:features-rank-one"),
    "96": _ids("143-144:orthogonal-term"),
    "103": _ids("10:monte-carlo"),
    "107": _ids("108:gd-endpoint"),
    "110": _ids("111:risk-from-moments"),
    "122": _ids("thm-3.4:features-rank-one"),
    "123": _ids("thm-3.4:features-rank-one"),
    "125": _ids("126:rank-one"),
    "127": _ids("128:risk"),
    "136": _ids("137:angular-factor"),
    "153": _ids("sec-4:exact-population-loss"),
}


def _steps(
    section: str, steps: dict[str, str], kind: ItemKind = _P
) -> tuple[Item, ...]:
    """Proof steps (or results) of one section, label -> what, in order."""
    return tuple(
        Item(label, kind, section, what, claims=_NAMED.get(label, ()))
        for label, what in steps.items()
    )


def _empty_tag(label: str, section: str, after: str) -> Item:
    """A tag the text prints on a line of its own, with no equation."""
    return Item(
        label,
        _P,
        section,
        f"an empty line after ({after})",
        not_checked=f"the text prints the tag ({label}) on a line of its own, "
        f"after ({after}), with no equation: there is nothing to check",
    )


_SECTION_2 = (
    Item(
        "1",
        _D,
        "Section 2",
        "source labels y = f_s*(x) + eps, eps ~ N(0, sigma^2)",
        used_by=_ids(
            "thm-2.2:dudley-as-printed",
            "thm-2.2:wasserstein",
            "31-34:kl-closed-form",
            "thm-3.4:features-rank-one",
        ),
    ),
    Item(
        "2",
        _D,
        "Section 2",
        "target labels y = f_t*(x) + eps",
        used_by=_TARGET_DRAWS,
    ),
    Item(
        "3",
        _D,
        "Section 2",
        "the model f(x; Theta) = sum_i c_i phi_i(x; theta)",
        used_by=_ids("thm-3.4:features-rank-one", "thm-3.5:scratch-min-norm")
        + _RELU_TRANSFER,
    ),
    Item(
        "4",
        _D,
        "Section 2",
        "the source task's population loss",
        used_by=_PRETRAINED_RUNS
        + _ids("sec-4:exact-population-loss", "sec-4:kernel-sparsifies"),
    ),
    Item(
        "5",
        _D,
        "Section 2",
        "the target task's empirical loss on n samples",
        used_by=_TARGET_RUNS + _ids("35:conservation-law", "21:irreducible-error"),
    ),
    Item(
        "6",
        _D,
        "Section 2",
        "gradient flow dTheta/dt = -grad L",
        used_by=_union(_ids("35:conservation-law"), _PRETRAINED_RUNS, _TARGET_RUNS),
    ),
    Item(
        "7",
        _D,
        "Section 2",
        "the transferability T = E_D(R_sc - R_tx)",
        used_by=_ids(
            "13:from-10-12",
            "17:from-16",
            "13:gd-slices",
            "17:gd-slices",
            "13:surface-monte-carlo",
            "17:surface-monte-carlo",
        ),
    ),
    Item(
        "8",
        _D,
        "Section 2",
        "the generalization error R = E_p(x)[(f(x) - f*(x))^2]",
        used_by=_TARGET_DRAWS + _ids("111:risk-from-moments", "21:irreducible-error"),
    ),
    Item(
        "assumption-2.1",
        _D,
        "Section 2.1",
        "Assumption 2.1: Gaussian label noise, Phi a subspace of L2(p) with an "
        "orthonormal basis",
        used_by=_ids(
            "thm-2.2:dudley-as-printed", "thm-2.2:wasserstein", "31-34:kl-closed-form"
        ),
    ),
    *_steps(
        "Section 2.1",
        {
            "thm-2.2": "Theorem 2.2: tasks of one feature space arbitrarily far "
            "apart in the Dudley metric and in KL divergence",
        },
        kind=_R,
    ),
)

_SECTION_3 = (
    Item(
        "9",
        _D,
        "Section 3",
        "the deep linear network f(x) = x^T W_1 W_2 ... W_L",
        used_by=_union(_ids("35:conservation-law"), _PRETRAINED_RUNS, _TARGET_RUNS),
    ),
    Item(
        "assumption-3.1",
        _D,
        "Section 3",
        "Assumption 3.1: Gaussian inputs, n iid pairs with Gaussian label noise",
        used_by=_ids(
            "10:monte-carlo",
            "12:monte-carlo",
            "95:finite-scratch-risk",
            "100:inverse-trace-limit",
            "116:chi-square",
            "143-144:orthogonal-term",
        ),
    ),
    Item(
        "assumption-3.2",
        _D,
        "Section 3",
        "Assumption 3.2: linear source and target of unit norm, overlap cos theta",
        used_by=_ids(
            "12:monte-carlo",
            "13:from-10-12",
            "16:monte-carlo",
            "111:risk-from-moments",
            "113:mean",
            "115:second-moment",
        ),
    ),
    *_steps(
        "Section 3.1",
        {
            "lemma-3.3": "Lemma 3.3: gradient flow on the population loss (4) "
            "reaches beta_s",
            "thm-3.4": "Theorem 3.4: pretrained hidden features are rank one, "
            "beta_s v^T",
        },
        kind=_R,
    ),
    *_steps(
        "Section 3.2",
        {
            "thm-3.5": "Theorem 3.5: scratch training ends at the minimum-norm "
            "solution X^+ y",
            "thm-3.6": "Theorem 3.6: the scratch model's expected risk (10)",
            "10": "the scratch risk E_D R (double descent)",
        },
        kind=_R,
    ),
    Item(
        "11",
        _D,
        "Section 3.3",
        "linear transfer: the readout W_L solving least squares on frozen features",
        used_by=_ids(
            "12:monte-carlo",
            "108:gd-endpoint",
            "120:linear-transfer-exact",
            "13:gd-slices",
            "13:surface-monte-carlo",
        ),
    ),
    *_steps(
        "Section 3.3",
        {
            "fig-1": "Figure 1: the linear transferability surface (a), its sign "
            "regions (b) and slices against trained networks (c)",
            "thm-3.7": "Theorem 3.7: the linear transfer risk (12)",
            "12": "the linear transfer risk sin^2 theta + (sigma^2 + sin^2 theta)/"
            "(n - 2)",
            "13": "the linear transferability T_lt, both regimes",
        },
        kind=_R,
    ),
    Item(
        "14",
        _D,
        "Section 3.3.1",
        "ridge linear transfer: the l2-penalized readout problem",
        used_by=_ids(
            "121:normal-equation", "126:rank-one", "15:monte-carlo", "128:monte-carlo"
        ),
    ),
    *_steps(
        "Section 3.3.1",
        {
            "thm-3.8": "Theorem 3.8: the ridge linear transfer risk (15)",
            "15": "the ridge risk 1 - cos^2 theta (1 + 2 lambda)/(1 + lambda)^2",
            "fig-2": "Figure 2: the ridge risk increases with lambda, theory and "
            "experiment",
        },
        kind=_R,
    ),
    *_steps(
        "Section 3.4",
        {
            "thm-3.9": "Theorem 3.9: the fine-tuning risk (16)",
            "16": "the fine-tuning risk E R_sc + (1 - gamma)(1 - 2 cos theta) for "
            "gamma <= 1",
            "17": "the fine-tuning transferability (gamma - 1)(1 - 2 cos theta) or 0",
            "fig-3": "Figure 3: the fine-tuning transferability surface (a), its "
            "sign regions (b) and slices against trained networks (c)",
        },
        kind=_R,
    ),
)

_SECTION_4 = (
    Item(
        "18",
        _D,
        "Section 4",
        "the two-layer ReLU network (1/m) sum_i c_i sigma(w_i^T x)",
        used_by=_RELU_TRANSFER,
    ),
    *_steps(
        "Section 4",
        {
            "fig-4": "Figure 4: Gram matrices of the trained model and the source "
            "(a)-(b), the scratch risk's power law (c), ||P_perp f_t||^2 against "
            "mu (d), the transferability heat map (e)",
        },
        kind=_R,
    ),
    Item(
        "19",
        _D,
        "Section 4",
        "the source teacher: the target's units less an ablated fraction mu",
        used_by=_RELU_TRANSFER,
    ),
    Item(
        "20",
        _D,
        "Section 4",
        "the target teacher with m_* units",
        used_by=_RELU_TRANSFER,
    ),
    *_steps(
        "Section 4",
        {"21": "linear transfer risk = C(n) + ||P_perp f_t*||^2"},
        kind=_R,
    ),
)

_APPENDIX_A_B1 = (
    Item(
        "22",
        _D,
        "Appendix A",
        "the initialization assumption Wbar_l^T Wbar_l - Wbar_{l+1} Wbar_{l+1}^T "
        ">= lambda I",
        # Not 35:conservation-law: D_l is invariant from any initialization
        # (its check uses symbolic weights, not the bound (22)).
        used_by=_union(_ids("thm-3.5:scratch-min-norm"), _PRETRAINED_RUNS),
    ),
    Item(
        "23",
        _D,
        "Appendix B.1",
        "the Dudley metric gamma_beta(p, q)",
        used_by=_ids("thm-2.2:dudley-as-printed", "26:witness-norm"),
    ),
    Item(
        "24",
        _D,
        "Appendix B.1",
        "the bounded-Lipschitz norm ||h||_BL = ||h||_L + ||h||_inf",
        used_by=_ids("thm-2.2:dudley-as-printed", "26:witness-norm"),
    ),
    *_steps(
        "Appendix B.1",
        {
            "25": "gamma_beta(p_f, p_g) written with the Gaussian label densities",
            "26": "the lower bound through the witness cos(y)/2",
            "27": "the Gaussian average of cos y",
            "28": "the bound by (f^2 + g^2) e^(-sigma^2/2)/2",
        },
    ),
    _empty_tag("29", "Appendix B.1", "28"),
    *_steps(
        "Appendix B.1",
        {
            "30": "int f^2 p = sum_i alpha_i^2 in the orthonormal basis",
            "31": "D_KL(p_f || p_g) as an integral",
            "32": "the squares expanded",
            "33": "(||f||^2 + ||g||^2 - 2<f, g>)/(2 sigma^2)",
            "34": "||f - g||^2/(2 sigma^2)",
        },
    ),
)

_APPENDIX_B2 = (
    *_steps(
        "Appendix B.2",
        {
            "35": "the conservation law: D_l = W_l^T W_l - W_{l+1} W_{l+1}^T is "
            "invariant",
            "36": "dL/dt = sum_l <grad_l L, dW_l/dt>",
            "37": "= -sum_l ||grad_l L||_F^2",
            "38": "<= -||grad_L L||_F^2",
            "39": "= -||W_{L-1}^T ... W_1^T r||^2",
            "40": "<= -2 sigma_min^2(W_{L-1}^T ... W_1^T) L",
        },
    ),
    _empty_tag("41", "Appendix B.2", "40"),
    *_steps(
        "Appendix B.2",
        {
            "42": "W_{L-1}^T ... W_1^T W_1 ... W_{L-1} rewritten with D_1 by (35)",
            "43": "a Loewner lower bound by (W_2^T W_2)^2",
            "44": ">= (W_{L-1}^T W_{L-1})^{L-1}",
            "45": "= (W_L W_L^T + D_L)^{L-1} (D_L read as D_{L-1}: (35) defines no "
            "D_L)",
            "46": ">= (alpha^2 lambda)^{L-1} by (22)",
            "47": "dL/dt <= -2 (alpha^2 lambda)^{L-1} L",
            "48": "L(t) = L(0) e^{-2 (alpha^2 lambda)^{L-1} t} (printed as an "
            "equality; the bound <= holds)",
            "49": "lim_{t -> oo} L(t) = 0",
        },
    ),
)

_APPENDIX_B3 = (
    *_steps(
        "Appendix B.3",
        {
            "lemma-B.1": "Lemma B.1: the weights are rank one up to O(alpha^2), "
            "adjacent singular vectors align",
        },
        kind=_R,
    ),
    *_steps(
        "Appendix B.3",
        {
            "50": "W_l = sigma_l u_l v_l^T + O(alpha^2)",
            "51": "lim_{alpha -> 0} lim_{t -> oo} (u_{l+1}^T v_l)^2 = 1",
        },
        kind=_R,
    ),
    *_steps(
        "Appendix B.3",
        {
            "52": "||W_l||_F^2 - ||W_{l+1}||_F^2 = alpha^2 (same for Wbar), the "
            "trace of (35)",
            "53": "(52) summed from l to L - 1",
            "54": "||W_l||_F^2 - ||W_L||_F^2 = alpha^2 (||Wbar_l||_F^2 - "
            "||Wbar_L||_F^2)",
            "55": "||W_l||_op^2 >= u_{l+1}^T W_l^T W_l u_{l+1}",
            "56": "= u_{l+1}^T (D_l + W_{l+1} W_{l+1}^T) u_{l+1}",
            "57": "= ||W_{l+1}||_op^2 + alpha^2 u^T (Wbar terms) u",
            "58": ">= ||W_{l+1}||_op^2 + alpha^2 (||Wbar_{l+1}||_op^2 - "
            "||Wbar_l||_op^2)",
            "59": "(58) summed from l to L - 1 (printed with ||Wbar_L||_op^2 for "
            "||W_L||_op^2)",
            "60": "||W_l||_F^2 - ||W_l||_op^2 <= alpha^2 (...)",
            "61": "v_l^T W_{l+1} W_{l+1}^T v_l = v_l^T W_l^T W_l v_l - v_l^T D_l v_l",
            "62": ">= s_l^2 - alpha^2 ||Wbar_l^T Wbar_l - Wbar_{l+1} "
            "Wbar_{l+1}^T||_op^2",
            "63": "the same quadratic form through the top singular pair of W_{l+1}",
            "64": "<= s_{l+1}^2 (v_l^T u_{l+1})^2 + ||W_{l+1}||_F^2 - "
            "||W_{l+1}||_F^2 (printed F twice)",
            "65": "s_l^2 bounded by the alignment and alpha^2 terms",
            "66": "(65) with (60)",
            "67": "s_l^2 >= u_{l+1}^T W_l^T W_l u_{l+1}",
            "68": ">= s_{l+1}^2 - alpha^2 ||Wbar_l^T Wbar_l - Wbar_{l+1} "
            "Wbar_{l+1}^T||_op",
            "69": "(v_l^T u_{l+1})^2 >= 1 - alpha^2 C_l/s_{l+1}^2",
            "70": "the constant C_l",
            "71": "||y_hat||/||X||_op <= lim ||W_1 ... W_L|| <= lim prod_l s_l^2",
            "72": "lim_{t -> oo} prod_l s_l^2 > 0",
            "73": "W_1 ... W_{L-1} = c u_1 v_{L-1}^T after pretraining",
            "74": "W_1 ... W_{L-1} W_L = beta_s after pretraining (Lemma 3.3)",
            "75": "= c u_1 (v_{L-1}^T W_L)",
            "76": "= c u_1",
            "77": "W_1 ... W_{L-1} = beta_s v_{L-1}^T (Theorem 3.4)",
        },
    ),
)

_APPENDIX_B4 = _steps(
    "Appendix B.4",
    {
        "78": "the empirical loss split into r_par in im(X) and r_perp in ker(X^T)",
        "79": "dL_par/dt = sum_l <grad_l L_par, dW_l/dt>",
        "80": "= -sum_l <grad_l L_par, grad_l L>",
        "81": "= -sum_l (||grad_l L_par||_F^2 + <grad_l L_par, grad_l L_perp>)",
        "82": "grad_l L_perp = 0",
        "83": "dL_par/dt = -sum_l ||grad_l L_par||_F^2",
        "84": "<= -||grad_L L_par||_F^2",
        "85": "= -||W_{L-1}^T ... W_1^T X^T P_par r||^2",
        "86": "<= -sigma_min^2(W_{L-1}^T ... W_1^T) ||X^T P_par r||^2",
        "87": "<= -(alpha^2 lambda)^{L-1} ||X^T P_par r||^2",
        "88": "<= -2 (alpha^2 lambda)^{L-1} lambda_min L_par",
        "89": "lim lim beta(t) = c u_1",
        "90": "||W_1^perp(t)||_F = ||W_1^perp(0)||_F <= alpha ||Wbar_1||_F",
    },
)

_APPENDIX_B5 = _steps(
    "Appendix B.5",
    {
        "91": "E R = E ||beta_t - beta_hat||^2",
        "92": "= 1 + E ||beta_hat||^2 - 2 E <beta_hat, beta_t>",
        "93": "the terms of (92) with beta_hat = X^+ X beta_t + X^+ eps",
        "94": "the cross terms of (93)",
        "95": "1 - E ||P_row(X) beta_t||^2 + sigma^2 E tr((X^+)^T X^+)",
        "96": "E ||P_row(X) beta_t||^2 = gamma (random projection)",
        "97": "E tr((X^+)^T X^+) = E sum_l 1/sigma_l^2",
        "98": "= (gamma/n) E tr(C^{-1}), C = XX^T/d",
        "99": "= -gamma lim_{z -> 0} (1/n) E tr((zI - C)^{-1})",
        "100": "= -gamma lim_{z -> 0} g_C(z)",
        "101": "the Marchenko-Pastur Stieltjes transform g_C(z)",
        "102": "lim_{z -> 0} g_C(z) = -1/(1 - gamma)",
        "103": "the scratch risk, both regimes (= (10))",
    },
)

_APPENDIX_B6 = _steps(
    "Appendix B.6",
    {
        "104": "Phi^+ = v_{L-1} (X beta_s)^T/||X beta_s||^2 for the rank-one Phi",
        "105": "beta_hat = W_1 ... W_{L-1} W_hat_L",
        "106": "= W_1 ... W_{L-1} Phi^+ y_t",
        "107": "beta_hat = b beta_s",
        "108": "b = beta_s^T X^T y_t/(beta_s^T X^T X beta_s)",
        "109": "b split into signal and noise parts",
        "110": "E R_lt = ||beta_hat - beta_t||^2",
        "111": "= 1 + E b^2 - 2 cos theta E b",
        "112": "E_{X,eps} b = E_{z,w,eps} b (z = X beta_s, w = X nu)",
        "113": "E b = cos theta",
        "114": "E_{X,eps} b^2 = E_{z,w,eps} b^2",
        "115": "E b^2 = cos^2 theta + (sin^2 theta + sigma^2) E 1/||z||^2",
        "116": "E 1/||z||^2 as a Gaussian integral",
        "117": "in polar coordinates",
        "118": "t = r^2/2",
        "119": "S_{n-1} Gamma(n/2 - 1)/(4 pi^{n/2})",
        "120": "= 1/(n - 2)",
    },
)

_APPENDIX_B7 = (
    *_steps(
        "Appendix B.7",
        {
            "121": "W_hat_L = (Phi^T Phi + n lambda I)^{-1} Phi^T y_t solves (14)",
            "122": "Phi = (X beta_s) v_{L-1}^T (Theorem 3.4)",
            "123": "W_1 ... W_{L-1} = beta_s v_{L-1}^T (Theorem 3.4)",
            "124": "beta_hat = W_1 ... W_{L-1} W_hat_L",
            "125": "(121) with the rank-one Phi substituted",
            "126": "beta_hat = (X beta_s)^T y_t/(||X beta_s||^2 + n lambda) beta_s",
            "127": "E R_lt^lambda = ||beta_hat - beta_t||^2",
            "128": "the ridge risk through the integrals I_1, I_2",
        },
    ),
    Item(
        "129",
        _D,
        "Appendix B.7",
        "the integral I_1(m, lambda), in spherical coordinates",
        used_by=_RIDGE_INTEGRALS,
    ),
    Item(
        "130",
        _D,
        "Appendix B.7",
        "the integral I_2(m, lambda), in spherical coordinates",
        used_by=_RIDGE_INTEGRALS,
    ),
    *_steps(
        "Appendix B.7",
        {
            "131": "I_1(n, lambda) with u = r^2/2",
            "132": "with t = u/n",
            "133": "= n (2n)^{n/2} int g(t) e^{n f(t)} dt",
            "134": "the saddle-point approximation",
            "135": "its value at t_0 = 1/2",
            "136": "I_1(n, lambda) with the angular factor restored",
            "137": "Stirling's approximation of S_{n-1}",
            "138": "I_1(n, lambda) = 1/(n (1 + lambda)^2)",
            "139": "I_1(n + 2, lambda) = 1/(1 + lambda)^2",
            "140": "I_2(n, lambda) = 1/(1 + lambda)",
            "141": "lim_n E R_lt^lambda = 1 - cos^2 theta (1 + 2 lambda)/(1 + "
            "lambda)^2",
        },
    ),
)

_APPENDIX_B8 = _steps(
    "Appendix B.8",
    {
        "142": "the fine-tuned endpoint beta_sc + (I - P_row(X)) beta_s",
        "143": "E <nu, (I - P_row(X)) beta_s> = sum_k nu_k E(beta_s)_k",
        "144": "= 0",
    },
)

_MERCER_USERS = _ids(
    "150-151:as-printed",
    "151:squared-eigenvalue",
    "157:mercer-eigenfunction",
    "157:monte-carlo",
)

_APPENDIX_C = (
    Item(
        "145",
        _D,
        "Appendix C",
        "the one-hidden-layer ReLU network f(x)",
        used_by=_ids(
            "152-153:monte-carlo",
            "153:general-weights-as-printed",
            "153:general-weights",
            "157:monte-carlo",
            "158-159:float64",
            "158-159:monte-carlo",
        ),
    ),
    Item(
        "146",
        _D,
        "Appendix C",
        "the target ReLU network f_*(x) with m_* units",
        used_by=_PROJECTIONS,
    ),
    Item(
        "147",
        _D,
        "Appendix C",
        "the RKHS H_k of a kernel",
        used_by=_ids(
            "150-151:as-printed",
            "151:squared-eigenvalue",
            "158-159:monte-carlo",
            "21:increases-with-mu",
        ),
    ),
    Item(
        "148",
        _D,
        "Appendix C",
        "the RKHS norm ||f||_k^2 = sum_ij alpha_i k(z_i, z_j) alpha_j",
        used_by=_ids("150-151:as-printed", "151:squared-eigenvalue"),
    ),
    Item(
        "149",
        _D,
        "Appendix C",
        "the integral operator T_k f = int p(x') k(x, x') f(x') dx'",
        used_by=_MERCER_USERS,
    ),
    Item(
        "150",
        _D,
        "Appendix C",
        "the Mercer eigenfunctions: T_k psi_l = lambda_l psi_l",
        used_by=_MERCER_USERS,
    ),
    *_steps("Appendix C", {"151": "||f||_k^2 = sum_l c_l^2/lambda_l^2"}, kind=_R),
    Item(
        "152",
        _D,
        "Appendix C",
        "the L2(p) overlap of two ReLU features",
        used_by=_ids(
            "152-153:quadrature",
            "152-153:monte-carlo",
            "153:overlap-step-1",
            "153:general-weights",
        ),
    ),
    *_steps(
        "Appendix C",
        {"153": "the arc-cosine kernel (sqrt(1 - u^2) + u (pi - arccos u))/(2 pi)"},
        kind=_R,
    ),
    Item(
        "154",
        _D,
        "Appendix C",
        "the model's Gram matrix K",
        used_by=_PROJECTIONS + _ids("157:mercer-eigenfunction", "157:monte-carlo"),
    ),
    Item(
        "155",
        _D,
        "Appendix C",
        "the target's Gram matrix K_*",
        # Not 158:normal-equations: (158) has no K_*.
        used_by=_ids("159:pythagoras", "158-159:float64", "158-159:monte-carlo"),
    ),
    Item("156", _D, "Appendix C", "the cross Gram matrix K~", used_by=_PROJECTIONS),
    *_steps(
        "Appendix C",
        {
            "157": "the Mercer eigenfunctions from the eigenvectors of K",
            "158": "||P f_*||^2 = c*^T K~^T K^{-1} K~ c*/m_*",
            "159": "||P_perp f_*||^2 = ||f_*||^2 - ||P f_*||^2",
        },
        kind=_R,
    ),
)

_APPENDIX_E = _steps(
    "Appendix E",
    {
        "fig-5": "Figure 5: transferability against D_KL(p_s || p_t) (a) and "
        "W_1(p_s, p_t) (b): no negative correlation",
        "fig-6": "Figure 6: linear transferability at sigma = 0, negative for "
        "cos^2 theta < gamma < 1 and for gamma > 1",
        "fig-7": "Figure 7: linear transferability at sigma = 0, theory against "
        "experiment",
    },
    kind=_R,
)

#: Every numbered item of the text, in its order.
INVENTORY: tuple[Item, ...] = (
    _SECTION_2
    + _SECTION_3
    + _SECTION_4
    + _APPENDIX_A_B1
    + _APPENDIX_B2
    + _APPENDIX_B3
    + _APPENDIX_B4
    + _APPENDIX_B5
    + _APPENDIX_B6
    + _APPENDIX_B7
    + _APPENDIX_B8
    + _APPENDIX_C
    + _APPENDIX_E
)
