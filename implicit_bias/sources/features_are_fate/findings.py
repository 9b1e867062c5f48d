r"""The errors in features-are-fate that its failing claims show.

One :class:`~implicit_bias.claims.findings.Slip` per error, with the severity
of :mod:`implicit_bias.claims.findings` (substantive, minor, typo); the
claims showing it name it in ``slip``. Equation numbers are those of Tahir,
Ganguli and Rotskoff, "Features are fate: a theory of transfer learning in
high-dimensional regression" (ICML 2025; arXiv:2410.08194).

Shared slips: Theorem 2.2's Dudley half and the step (28) of its proof; the
fine-tuning endpoint (142), its gradient-descent runs and Theorem 3.9's (16);
(32) and the step (32)-(33) after it; (117) and the substitution (118) after it.

Our text of the paper is an extraction, and its displays come out scrambled
(fractions and superscripts split over lines, minus signs moved to the next
line, as in (25)-(27) and (31)-(32)). A slip lost in such a display, where the
equations on both sides have the right form, is marked as a possible artefact:
(32)'s factor 1/(2 sigma^2) and (117)'s minus sign. The others are counted:
(137) keeps every other factor of (136), the square missing in (150) is
missing in the sentence after it as well, and the swapped endpoints of (13)
are no lost glyph.
"""

from __future__ import annotations

from implicit_bias.claims.findings import Severity, Slip

__all__ = ["SLIPS"]

#: The slips, in the order of the text.
SLIPS = (
    Slip(
        "dudley-half-thm-2.2",
        Severity.SUBSTANTIVE,
        "Theorem 2.2's Dudley half (for every f in Phi and delta > 0 some g in Phi "
        "with gamma_beta(p_f, p_g) >= delta) is false for delta >= 2: "
        "gamma_beta <= 2 TV <= 2 for any two laws (f(x) = x, Phi = span{x}: "
        "gamma_beta(p_f, p_cx) <= (4/pi) atan(|1 - c|/(2 sigma)) < 2 for every c). "
        "The proof breaks at (28): cos x + x^2 >= cos z - z^2 bounds the signed "
        "difference of the cosines in (27) from below by -(f^2 + g^2), not its "
        "modulus from below by e^{-sigma^2/2}/2 int (f^2 + g^2) p (f = g = 1: "
        "|(27)| = 0 < (28) = e^{-sigma^2/2}); in fact |(27)| <= e^{-sigma^2/2}. "
        "The KL half of the theorem holds.",
    ),
    Slip(
        "interval-endpoints-13",
        Severity.TYPO,
        "After (13) the negative-transfer interval for SNR > 1 is printed "
        "gamma in (gamma_+, gamma_-), which is empty since gamma_+ - gamma_- = "
        "sqrt(Delta) >= 0 (theta = pi/3, sigma = 0.2: T_lt < 0 at gamma = 0.605, "
        "between gamma_- = 0.264 and gamma_+ = 0.946). The interval is "
        "(gamma_-, gamma_+), as the text's own noiseless limit cos^2 theta < gamma "
        "< 1, which is (gamma_-, gamma_+) at sigma = 0, has it.",
    ),
    Slip(
        "kl-factor-32",
        Severity.TYPO,
        "(32) as extracted lacks the factor 1/(2 sigma^2) that (31) carries inside "
        "its squares and (33)-(34) carry in front: it is 2 sigma^2 times (31). The "
        "steps (31)-(32) and (32)-(33) both fail against this one factor; the "
        "result (34), D_KL = ||f - g||^2/(2 sigma^2), is right.",
        artefact="A fraction lost from a display that the extraction scrambles "
        "(its exponent's 2 sigma^2 and the minus signs of the bracket land on "
        "other lines), with (31) and (33) on either side right; only the typeset "
        "paper can tell whether (32) prints it.",
    ),
    Slip(
        "kl-threshold-34",
        Severity.MINOR,
        "The proof's closing choice g = -alpha f with alpha > sigma delta^{1/2}/"
        "||f|| after (34) does not give D_KL >= delta: D_KL = (1 + alpha)^2 "
        "||f||^2/(2 sigma^2) is then only above delta/2 in general (||f|| = sigma "
        "= 1, delta = 100, alpha = 10.001: D_KL = 60.5). The threshold misses a "
        "factor sqrt(2): alpha >= sigma sqrt(2 delta)/||f|| works, so the KL half "
        "of Theorem 2.2 stands.",
    ),
    Slip(
        "rank-one-order-50",
        Severity.MINOR,
        "Lemma B.1's (50), W_l = sigma_l u_l v_l^T + O(alpha^2) for all time, has "
        "a remainder of order alpha, not alpha^2, under the paper's own "
        "initialization (22): W^T W - W W^T >= alpha^2 lambda I keeps sigma_2(W_1) "
        ">= alpha sqrt(lambda) (gradient-flow runs at L = 3: sigma_2/sigma_1 of the "
        "pretrained W_1 falls with order 1.0 in alpha). The proof's own bound "
        "(60) is on ||W_l||_F^2 - ||W_l||_op^2, the squared remainder, so it "
        "gives O(alpha) too; the proofs that use (50), at (73) and (89), take "
        "alpha -> 0, where O(alpha) serves as well.",
    ),
    Slip(
        "inverse-norm-sign-117",
        Severity.TYPO,
        "(117) as extracted integrates r^{n-3} e^{r^2/2}, which diverges, where "
        "(116) and (118) have e^{-r^2/2} and e^{-t}; the step into (117) and the "
        "substitution t = r^2/2 out of it both fail against this one sign, and the "
        "result (120), E 1/||z||^2 = 1/(n - 2), is right.",
        artefact="A minus sign lost from a superscript of a display that the "
        "extraction scrambles, with (116) and (118) right; the extracted (117) "
        "keeps the minus of r^{n-3}, so the paper may print it, but only the "
        "typeset paper can tell.",
    ),
    Slip(
        "minus-sign-38",
        Severity.TYPO,
        "(38) as extracted bounds the loss's decay by ||grad_L L||_F^2 with no minus "
        "sign, where (37) before it and (39)-(40) after it carry theirs: read as "
        "printed, the step to (39), -||W_{L-1}^T ... W_1^T r||^2, fails by twice that "
        "square (L = 2, W_1 = I, W_2 = 0, beta_s = e_1: 1 against -1); with the minus, "
        "(38)-(39) hold (39:last-layer-gradient) and Lemma 3.3's argument stands.",
        artefact="A minus sign lost at the start of a display line that the "
        "extraction breaks apart (the minus of (37), (39) and (40) survives on "
        "lines of their own); only the typeset paper can tell.",
    ),
    Slip(
        "loewner-induction-44",
        Severity.MINOR,
        "The step (43) -> (44) of Lemma 3.3's proof (the induction the text "
        "elides), W_{L-1}^T ... W_3^T (W_2^T W_2)^2 W_3 ... W_{L-1} >= (W_{L-1}^T "
        "W_{L-1})^{L-1}, fails at L = 4: there, with W_3 invertible, it is "
        "equivalent to (W_3 W_3^T + D_2)^2 >= (W_3 W_3^T)^2, and squaring is not "
        "monotone in the Loewner order. At 9 of our 24 exact states with "
        "D_l >= alpha^2 lambda I (d = 2), "
        "(43) - (44) has a negative eigenvalue (alpha = 1: -1.6e3 where (44)'s "
        "smallest is 7.6e2), and at 8 so has the chain's own conclusion W_3^T "
        "W_2^T W_1^T W_1 W_2 W_3 - (W_3^T W_3)^3 (the same state: -5.9e2). At "
        "L = 3, (43) and "
        "(44) are one matrix. What the proof needs, W_{L-1}^T ... W_1^T W_1 ... "
        "W_{L-1} >= (alpha^2 lambda)^{L-1} I, holds for every L "
        "(sigma_min(W_1 ... W_{L-1})^2 >= prod_l sigma_min(W_l)^2, and "
        "sigma_min(W_l)^2 >= lambda_min(D_l) >= alpha^2 lambda), so (46)-(49) and "
        "Lemma 3.3 stand.",
    ),
    Slip(
        "equality-48",
        Severity.TYPO,
        "(48) prints L(t) = L(0) e^{-2 (alpha^2 lambda)^{L-1} t}, an equality, "
        "where the inequality (47) before it gives only the bound <=, which (49) "
        "after it uses. As printed, its two sides agree at t = 0 but their "
        "slopes there differ: it would need dL/dt(0) = -2 (alpha^2 lambda)^{L-1} "
        "L(0), while an exact state satisfying (22) (L = 3, d = 2) decays faster "
        "than that for every admissible lambda, so the equality fails for every "
        "small t > 0.",
    ),
    Slip(
        "bar-59",
        Severity.TYPO,
        "(59) in Lemma B.1's proof prints ||W_l||_op^2 >= ||Wbar_L||_op^2 + alpha^2 "
        "(||Wbar_L||_op^2 - ||Wbar_l||_op^2), with a bar on the first W_L; summing "
        "(58) from l to L - 1 gives ||W_L||_op^2 there, which (60) uses. As "
        "printed it fails at t = 0, where ||W_l||_op^2 = alpha^2 ||Wbar_l||_op^2 "
        "is small and ||Wbar_L||_op^2 is not (L = 3, d = 2, alpha = 1/2, Wbar "
        "satisfying (22): short by 0.19); with ||W_L||_op^2 it holds. The "
        "printed form mixes the unscaled ||Wbar_L||_op^2 with alpha^2-scaled "
        "terms, so it fails in the small-alpha regime the lemma is about.",
    ),
    Slip(
        "squared-norm-62",
        Severity.MINOR,
        "(62), (65), (66), (68) and (70) of Lemma B.1's proof bound v_l^T D_l v_l "
        "by alpha^2 ||Wbar_l^T Wbar_l - Wbar_{l+1} Wbar_{l+1}^T||_op^2, where "
        "v^T D_l v <= alpha^2 ||Dbar_l||_op, without the square: (62) fails "
        "exactly when v_l^T Dbar_l v_l > ||Dbar_l||_op^2, at every t and alpha > 0 "
        "when lambda_min(Dbar_l) > ||Dbar_l||_op^2 (Dbar_l = I/4, which (22) "
        "allows; D_l is conserved) (L = 3, d = 2, t = 0, alpha = 2, Wbar "
        "satisfying (22): (62) short by 0.32 at l = 1 and 0.48 at l = 2, (65) by "
        "0.32 and 0.48). (66), (68) and the result (69)-(70) hold as printed (at "
        "exact and gradient-flow states): (68) because u^T Dbar_l u > 0 under "
        "(22), (66) through the alpha^2 tr Dbar_l its index l adds to (60), so "
        "Lemma B.1 stands.",
    ),
    Slip(
        "frobenius-64",
        Severity.TYPO,
        "(64) and (65) of Lemma B.1's proof end with ||W_{l+1}||_F^2 - "
        "||W_{l+1}||_F^2, which is 0, where (66) replaces ||W_{l+1}||_F^2 - "
        "||W_{l+1}||_op^2 by the bound (60). With the 0, (64) claims v_l^T "
        "W_{l+1} W_{l+1}^T v_l <= s_{l+1}^2 (v_l^T u_{l+1})^2, false unless v_l = "
        "+-u_{l+1} when W_{l+1} has full rank, as (22) makes it for l + 1 < L "
        "(L = 3, d = 2, l = 1, t = 0, alpha = 2: short by 1.3e-3), "
        "and it alone would make (65) fail there (by 3.6e-4 with the norm of (62) "
        "unsquared); at l = L - 1, W_L has rank one and the two agree.",
    ),
    Slip(
        "product-71",
        Severity.MINOR,
        "(71) bounds lim ||W_1 ... W_L||_2 by lim prod_l s_l^2; submultiplicativity "
        "gives prod_l s_l, and the square is smaller whenever the product is below "
        "1: at the zero-loss state W_1 = diag(3/5, 1/5), W_2 = (1/2, 0)^T of X = "
        "I, y = (3/10, 0) (L = 2, D_1 = diag(11/100, 1/25) > 0), ||y_hat||/||X||_op "
        "= ||W_1 W_2|| = 3/10 > prod_l s_l^2 = 9/100. The conclusion (72), "
        "lim prod_l s_l^2 > 0, follows from prod_l s_l >= ||y_hat||/||X||_op > 0 "
        "all the same. In the population case with ||beta_s|| = 1 the printed "
        "link holds (prod_l s_l^2 >= ||beta||^2 = 1); it fails in the empirical "
        "case with ||beta_hat|| < 1, the overparametrized noiseless one "
        "included.",
    ),
    Slip(
        "normalization-78-88",
        Severity.MINOR,
        "The constants of (79)-(88) are those of L = ||r||^2/2 with L_par = "
        "||r_par||^2/2, the convention of Lemma 3.3's proof (36)-(40), under "
        "which every step holds; but the proof of Theorem 3.5 states L_par := "
        "||r_par||_2^2 and (78), L = (1/2n)(||r_par||^2 + ||r_perp||^2), which "
        "the flow (6) descends. Against these, three steps are off by a "
        "constant: (81) needs "
        "grad_l L = (grad_l L_par + grad_l L_perp)/(2n) and drops that 1/(2n) "
        "(at n = 3 its right side is 6 times (80)); (85) drops the 2 of "
        "grad_L ||P_par r||^2 = 2 W_{L-1}^T ... W_1^T X^T P_par r (its square is "
        "4 times (85)); (88) needs ||X^T r_par||^2 >= 2 lambda_min ||r_par||^2, "
        "twice what holds (X = [[1, 0], [0, 2], [0, 0]], r_par = e_1: 1 against "
        "2). The prose before, 'the global minimum of (78) is equal to "
        "||r_perp||^2', misses the same 1/(2n). With the factors the text's "
        "definitions give, each step holds (81:normalized-depth-L, "
        "85:normalized-depth-L, 88:normalized-depth-L), and so does the "
        "conclusion: ||r_par||^2 decays exponentially, at the rate "
        "(2/n)(alpha^2 lambda)^{L-1} lambda_min, and lim_t ||r_par(t)|| = 0.",
    ),
    Slip(
        "stirling-factor-137",
        Severity.TYPO,
        "(137) as printed is (136) with S_{n-1} replaced by its Stirling form but "
        "without (136)'s 1/(2 pi)^{n/2}: it is off by the factor (2 pi)^{n/2} "
        "(9792.6 at n = 10). (138), 1/(n(1 + lambda)^2), which follows from (136), "
        "is right.",
    ),
    Slip(
        "strict-increase-141",
        Severity.MINOR,
        "After (141): 'a strictly increasing function in lambda >= 0 for any "
        "theta in [0, pi/2]'; at theta = pi/2, (141) is 1 for every lambda (its "
        "derivative is 2 lambda cos^2 theta/(1 + lambda)^3), so it is strictly "
        "increasing on [0, pi/2) only. The conclusion lambda* = 0 survives (at "
        "theta = pi/2 every lambda is optimal).",
    ),
    Slip(
        "finetune-endpoint-142",
        Severity.SUBSTANTIVE,
        "(142), the fine-tuning endpoint beta_sc + (I - P_row(X)) beta_s, holds "
        "only when ||X^+ y||^2 + ||(I - P) beta_s||^2 = 1 (noiseless labels as "
        "n, d -> oo); with the label noise of Assumption 3.1 the frozen component "
        "is rescaled, beta_ft = X^+ y + c^{(L-1)/2} (I - P) beta_s with c > 0 the "
        "root of c^L - ||(I - P) beta_s||^2 c^{L-1} - ||X^+ y||^2 = 0, which "
        "converged gradient descent reaches (to 2e-6 at L = 2, sigma = 0.3) while "
        "staying 0.135 from (142). Theorem 3.9's (16), E R_ft = E R_sc + (1 - gamma)"
        "(1 - 2 cos theta) for gamma <= 1, therefore holds at sigma = 0 only: for "
        "sigma > 0 the excess is (1 - gamma)(k^2 - 2k cos theta), k^2 = [1 - gamma "
        "+ sqrt((1 + gamma)^2 + 4 sigma^2 gamma/(1 - gamma))]/2 (gamma = 1/2, "
        "theta = 3 pi/8, sigma = 1: 0.281; measured 0.285 +- 0.007; (16): 0.117). "
        "The transferability (17), plotted in Fig. 3 with Fig. 1's sigma = 0.2, "
        "inherits it.",
    ),
    Slip(
        "eigenvalue-square-150",
        Severity.TYPO,
        "(150) and the sentence after it make lambda_l the eigenvalue of T_k "
        "(T_k psi_l = lambda_l psi_l), but (151), ||f||_k^2 = sum c_l^2/lambda_l^2, "
        "is the RKHS norm only with eigenvalue lambda_l^2, as the Mercer "
        "decomposition {lambda_l^2, psi_l} before it and (157) ('eigenvalue "
        "lambda_l^2') have it (K = diag(1/4, 1), f = sigma_1: 8 by (151) with "
        "eigenvalue lambda_l, 2 by (148)).",
    ),
)
