r"""The errors in adaptive-tangent-features that its failing claims show.

One :class:`~implicit_bias.claims.findings.Slip` per error, with the severity
of :mod:`implicit_bias.claims.findings` (substantive, minor, typo); the
claims showing it name it in ``slip``. Equation numbers are those of LeJeune
and Alemohammad, "An adaptive tangent feature perspective of neural networks"
(CPAL 2024; arXiv:2308.15478). Each proof-step slip of Appendix A leaves the
result it serves standing; Theorem 2's adapted kernel (17)-(18) does not.
"""

from __future__ import annotations

from implicit_bias.claims.findings import Severity, Slip

__all__ = ["SLIPS"]

#: The slips, in the order of the text.
SLIPS = (
    Slip(
        "adapted-kernel-17-18",
        Severity.SUBSTANTIVE,
        "Theorem 2's adapted kernel (17)-(18) sums over j <= min(P_l, Q_l) the "
        "terms ([s^(1)]_j^2 [s^(2)]_j^2 - 1) J_l(x) vec(u_j v_j^T) vec(u_j v_j^T)^T "
        "J_l(x')^T. The change of layer l's kernel, M_l M_l^T - I, has eigenvalue "
        "[s^(1)]_j^2 [s^(2)]_k^2 - 1 on every vec(u_j v_k^T), j <= P_l, k <= Q_l, "
        "so the sum runs over all pairs (j, k); the omitted j != k terms vanish "
        "only when s^(1) or s^(2) is all ones. For a rank-one B_l of the form "
        "(14)-(15) with s^(1) = (2, 1), s^(2) = (2, 1, 1) the pair (1, 2) "
        "contributes 3 that (17)-(18) omit.",
    ),
    Slip(
        "finite-minimizer-prop-3",
        Severity.MINOR,
        "The proof of Proposition 3 gets the strict increase of omega~ 'since the "
        "minimizer must be finite'; for a bounded continuous strictly quasi-convex "
        "omega (omega(z) = 1 - (1 + |z - 1|)^{-2}) the infimum in (12) is not "
        "attained for |v| > 1 and omega~(2) = omega~(3) = 1. Where the minimum is "
        "attained (omega coercive, as in the paper's examples) the step is right, "
        "and omega~ is non-decreasing for every omega, so Proposition 3's "
        "'increasing concave' stands.",
    ),
    Slip(
        "conjugate-prop-3",
        Severity.MINOR,
        "The proof of Proposition 3 (A.2.2) says v^2 -> -omega~(v) is the "
        "Legendre-Fenchel conjugate of z^2 -> omega(1/z^2); as printed that "
        "conjugate is +oo (omega = (z - 1)^2: sup_y v^2 y - omega(1/y) = oo), "
        "while -omega~ <= 0. With t = 1/z^2 in (0, 1], -omega~(v) = h*(-v^2) for "
        "h(t) = omega(t^{-1/2}), a supremum of affine functions of v^2, so the "
        "concavity of omega~ in v^2 that the step proves is right.",
    ),
    Slip(
        "case-split-26",
        Severity.MINOR,
        "Before (26), the proof that omega~''(0) = 2 splits into omega "
        "non-differentiable at 1 (then z* = 1 for small v) or omega(z) = "
        "|z - 1|^p + o(|z - 1|^p) with p >= 2; neither half holds in general: "
        "|z - 1|^{3/2} is differentiable at 1 but of order 3/2, and (z - 1)^2 "
        "right of 1 with |z - 1| left of 1 is not differentiable at 1 yet has "
        "z* > 1 for every v > 0. Split by the right derivative omega'(1+) (> 0: "
        "z* = 1 for small v; = 0 with any order p > 1: (26) goes through), the "
        "result omega~(v) = v^2 + o(v^2) holds.",
    ),
    Slip(
        "alignment-lemma-5",
        Severity.MINOR,
        "The proof of Lemma 5 (after (29)) says that for fixed S1, S2, "
        "||S1^{-1} U^T B V S2^{-1}||_F is minimized by aligning the smallest values "
        "of S1^{-1} and S2^{-1} (printed 'S_1^{-2}') with the largest singular "
        "values of B; the best pairing is an assignment that the sorted alignment "
        "can miss (B = diag(1, 9/10), S1 = diag(5/2, 17/10, 1), S2 = diag(3, 6/5): "
        "||W||_F^2 = 0.2124 sorted, 0.1284 paired otherwise). Lemma 5 survives: "
        "S1 and S2 are optimized too, and relabelling them gives the aligned form.",
    ),
)
