r"""The numbered items of adaptive-tangent-features: its equations, results, figures.

Every equation the text numbers, (1) to (32) without a gap, and its Theorems 1
and 2, Propositions 3 and 4, Lemma 5, Model A and Figures 1 to 3, in the
order the text prints them, for ``implicit-bias coverage``
(:mod:`implicit_bias.claims.coverage`). Labels are the text's own numbers, as
the claims name them in their ``equation``: ``"12"``, ``"thm-1"``,
``"lemma-5"``, ``"fig-2"``; ``"model-A"`` is the lettered Model A of Section
3.2, the model Theorem 2 is stated under.

The numbers are those of the text this package was written from (eqs.
(1)-(32) and Appendix A, with the proofs in Appendix A); which arXiv version
of arXiv:2308.15478 that text is was not recorded (see the citation's
``version_note``), so another version may number differently.

Every item is checked or used by a claim; none is ``not_checked``. Figure 3 is
checked in the synthetic analogue of Appendix B.1 that Figure 1's claims use.
A theorem, proposition or lemma names the claims that check its statement
(Theorem 1: those on what (8) and (9) assert; Lemma 5: the direct solutions
of (27)), not those on steps of its proof, which their equations place.
Claims on labels that are not numbered items are named where they check one:
``sec-3.1:figure-1-alignment`` and ``-full`` check Figure 1's finding, and
``sec-3.1:l1-corrected`` checks (22), the special case that Section 3.1
restates as :math:`\tilde\Omega = \|\cdot\|_1`. The other claims on Section
3.1's prose (``l1-as-printed``, ``l1-as-value``, ``kernel-alignment``) and on
the Legendre-Fenchel step of the proof of Proposition 3
(``prop-3-proof:*``) check no numbered item; they are accounted for as users
of the definitions they evaluate ((1), (3), (4), (5), (7), (12)).
"""

from __future__ import annotations

from implicit_bias.claims.inventory import Item, ItemKind
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID

__all__ = ["INVENTORY"]

_DEFINITION, _RESULT, _PROOF_STEP = (
    ItemKind.DEFINITION,
    ItemKind.RESULT,
    ItemKind.PROOF_STEP,
)


def _ids(*labels: str) -> tuple[str, ...]:
    """Claim ids from their ``equation:label`` part."""
    return tuple(f"{SOURCE_ID}:{label}" for label in labels)


#: The claims that train the ReLU MLP of the Figure 1 analogue (full-batch
#: gradient descent on the squared loss from theta_0 to a small training loss)
#: and evaluate its kernels.
_MLP_KERNELS = (
    "sec-3.1:figure-1-alignment",
    "sec-3.1:kernel-alignment",
    "sec-3.1:figure-1-alignment-full",
    "19:readout-carries-change",
    "19:hidden-layers-carry-change",
    "fig-3:difficult-points",
)

#: The claims on Theorem 2's solution (14)-(16) under Model A.
_THEOREM_2_SOLUTION = (
    "14:layer-factorization",
    "15:figure-2-pair",
    "16:model-a-constraint",
    "16:direct-minimum",
)

#: The claims on what Theorem 1 asserts in its eqs. (8) and (9) (not
#: ``8:spectrum`` and ``8:objective``, steps of its proof sketch).
_THEOREM_1 = (
    "8:interpolates",
    "8:direct-minimum",
    "8:direct-minimizer",
    "9:adapted-kernel",
    "9:direct-adapted-kernel",
)

#: The claims on what Lemma 5 asserts, by direct solution of (27) (not those
#: on steps of its proof: ``27:alignment-*``, ``28-29:scalar-reduction``).
_LEMMA_5 = ("27-29:direct-minimum", "28:shared-singular-vectors")

#: The claims whose checks evaluate the scalar effective penalty of eq. (12)
#: (theory.tangent_features.effective_objective and the closed forms, or
#: numerics.tangent_features.omega_tilde).
_EFFECTIVE_PENALTY = (
    "8:objective",
    "8:direct-minimum",
    "8:direct-minimizer",
    "9:direct-adapted-kernel",
    "12:power-stationary",
    "12:power-minimum",
    "12:absolute-closed-form",
    "12:squared-radicals",
    "12:numerics",
    "12:numerics-vs-closed-forms",
    "prop-3:families-increasing-concave",
    "prop-3:small-v",
    "prop-3:strict-increase-as-proved",
    "prop-3:squared-like-abs-v",
    "prop-3:power-tails",
    "prop-3:absolute-tail",
    "prop-3:increasing-concave",
    "prop-3:strict-increase-coercive",
    "prop-3:small-v-numeric",
    "fig-2:omega3-tilde-closed-form",
    "fig-2:tails",
    "21:separable",
    "prop-3-proof:conjugate-as-printed",
    "prop-3-proof:conjugate-corrected",
    "24:first-derivative-step-1",
    "26:case-split-as-printed",
    "27-29:direct-minimum",
    "28-29:scalar-reduction",
    "28:shared-singular-vectors",
    "15:figure-2-pair",
    "16:direct-minimum",
)

#: The claims whose checks evaluate the joint penalty of eq. (11)
#: (numerics.tangent_features.omega_join or join_penalty, or the theory's
#: closed forms of Figure 2's join).
_JOINT_PENALTY = (
    "11:numerics",
    "12:numerics-vs-closed-forms",
    "fig-2:join-closed-form",
    "fig-2:join-cardano",
    "fig-2:omega3-tilde-closed-form",
    "fig-2:tails",
    "prop-4:increasing",
    "23:minimizer-in-1-v",
    "27-29:direct-minimum",
    "28-29:scalar-reduction",
    "28:shared-singular-vectors",
    "15:figure-2-pair",
    "16:direct-minimum",
)

#: The claims on the one-layer Kronecker structure (theory.tangent_features.
#: layer_transform, through kernel_change_exact).
_KRONECKER_LAYER = ("17-18:as-printed", "17-18:all-pairs", "19:last-layer")

#: The claims that apply (10)'s Kronecker form to Model A's tangent features of
#: the final weight matrix (item 4, with M_L^(2) = I_C), per layer along a
#: path (our M_theta' of (20)), or to every layer's vec(W_l) in (4)'s constraint.
_KRONECKER_FEATURES = (
    "13:tangent-features",
    "20:average-transformation",
    "16:model-a-constraint",
)

#: Every numbered item of the text, in the text's order.
INVENTORY: tuple[Item, ...] = (
    Item(
        "1",
        _DEFINITION,
        "Section 2.1",
        "the training problem: minimize the summed loss over theta",
        used_by=_ids("2:path-average-identity", *_MLP_KERNELS),
    ),
    Item(
        "2",
        _RESULT,
        "Section 2.1",
        "f_theta - f_theta0 as the average tangent features along the linear "
        "path applied to theta - theta0 (defines the average features)",
    ),
    Item(
        "3",
        _DEFINITION,
        "Section 2.2",
        "the minimum l2-deviation interpolating solution (what training by "
        "gradient descent to zero training error stands for)",
        used_by=_ids(*_MLP_KERNELS),
    ),
    Item(
        "4",
        _DEFINITION,
        "Section 2.2",
        "the relaxed problem: Omega(M) + ||theta - theta0||^2 under the bilinear "
        "interpolation constraint",
        used_by=_ids(
            "6:footnote-1-symmetric",
            "8:interpolates",
            "8:objective",
            "8:direct-minimum",
            "8:direct-minimizer",
            "9:direct-adapted-kernel",
            "sec-3.1:l1-as-printed",
            "sec-3.1:l1-as-value",
            "sec-3.1:l1-corrected",
            "21:separable",
            "22:l1",
            "22:diagonal-networks-eq30",
            "16:model-a-constraint",
            "16:direct-minimum",
        ),
    ),
    Item(
        "5",
        _DEFINITION,
        "Section 3",
        "the equivalent linearly constrained problem in beta with the effective "
        "penalty Omega~",
        used_by=_ids(
            "8:interpolates",
            "8:direct-minimum",
            "8:direct-minimizer",
            "9:direct-adapted-kernel",
            "sec-3.1:l1-as-printed",
            "sec-3.1:l1-corrected",
        ),
    ),
    Item(
        "6",
        _DEFINITION,
        "Section 3",
        "the spectral regularizer Omega_omega(M) = sum_j omega(sigma_j(M))",
        used_by=_ids(
            "6:footnote-1-symmetric",
            "8:spectrum",
            "8:direct-minimum",
            "8:direct-minimizer",
            "9:direct-adapted-kernel",
            "27-29:direct-minimum",
            "28:shared-singular-vectors",
            "14:layer-factorization",
            "16:direct-minimum",
        ),
    ),
    Item(
        "7",
        _DEFINITION,
        "Section 3",
        "the adapted kernel K(x, x') = grad f0(x) M^2 grad f0(x')^T",
        used_by=_ids(
            "9:adapted-kernel",
            "9:direct-adapted-kernel",
            *_KRONECKER_LAYER,
            *_MLP_KERNELS,
        ),
    ),
    Item(
        "thm-1",
        _RESULT,
        "Section 3.1",
        "Theorem 1: the structureless solution (8) and its adapted kernel (9)",
        claims=_ids(*_THEOREM_1),
    ),
    Item(
        "8",
        _RESULT,
        "Section 3.1",
        "Theorem 1's M_hat = I + (s-1) beta beta^T / ||beta||^2 and "
        "theta_hat = theta0 + beta / s",
    ),
    Item(
        "9",
        _RESULT,
        "Section 3.1",
        "Theorem 1's adapted kernel K0 + (s^2 - 1) ||beta||^-2 K_y",
    ),
    Item(
        "fig-1",
        _RESULT,
        "Section 3.2",
        "Figure 1: the harder (binarized) task has the higher label kernel alignment",
        claims=_ids("sec-3.1:figure-1-alignment", "sec-3.1:figure-1-alignment-full"),
    ),
    Item(
        "model-A",
        _DEFINITION,
        "Section 3.2",
        "Model A: per-layer transforms M1 W M2 with spectral penalties, fixed "
        "M_L^(2) = I_C",
        used_by=_ids(
            *_KRONECKER_LAYER,
            "13:tangent-features",
            "16:model-a-constraint",
            "16:direct-minimum",
        ),
    ),
    Item(
        "10",
        _DEFINITION,
        "Section 3.2",
        "the Kronecker-factored feature transformation of one weight matrix",
        used_by=_ids(*_KRONECKER_LAYER, *_KRONECKER_FEATURES),
    ),
    Item(
        "11",
        _DEFINITION,
        "Section 3.2",
        "the joint penalty (omega1 (+) omega2)(v)",
        used_by=_ids(*_JOINT_PENALTY),
    ),
    Item(
        "12",
        _DEFINITION,
        "Section 3.2",
        "the scalar effective penalty omega~(v) and the induced Omega~_omega",
        used_by=_ids(*_EFFECTIVE_PENALTY),
    ),
    Item(
        "13",
        _RESULT,
        "Section 3.2",
        "the output in Kronecker form through the final weight matrix",
    ),
    Item(
        "thm-2",
        _RESULT,
        "Section 3.2",
        "Theorem 2: the per-layer solution (14)-(16) under Model A and its "
        "adapted kernel (17)-(18)",
        claims=_ids(*_THEOREM_2_SOLUTION, "17-18:as-printed", "17-18:all-pairs"),
    ),
    Item(
        "14",
        _RESULT,
        "Section 3.2",
        "Theorem 2's shared singular vectors of M_hat^(1), W_hat, M_hat^(2)",
    ),
    Item(
        "15",
        _RESULT,
        "Section 3.2",
        "Theorem 2's scalar problems for the singular values",
    ),
    Item(
        "16",
        _RESULT,
        "Section 3.2",
        "Theorem 2's equivalent problem in (B_l) with the effective penalties of "
        "the joint penalties",
    ),
    Item("17", _RESULT, "Section 3.2", "Theorem 2's adapted kernel (first line)"),
    Item("18", _RESULT, "Section 3.2", "Theorem 2's adapted kernel (second line)"),
    Item(
        "prop-3",
        _RESULT,
        "Section 3.2",
        "Proposition 3: v^2 -> omega~(v) increasing and concave, "
        "omega~(v) = v^2 + o(v^2)",
    ),
    Item(
        "fig-2",
        _RESULT,
        "Section 3.2",
        "Figure 2: the effective penalties are sub-quadratic, like v^2 near 0",
    ),
    Item(
        "fig-3",
        _RESULT,
        "Section 3.2",
        "Figure 3: the adapted kernel is dominated by the difficult points near y = 0",
    ),
    Item(
        "19",
        _RESULT,
        "Section 3.2",
        "the adapted kernel when only the final layer changes (linear targets)",
    ),
    Item(
        "20",
        _RESULT,
        "Section 4",
        "the average features as the average transformation along the path",
    ),
    Item(
        "21",
        _RESULT,
        "Appendix A.1",
        "diagonal M: Omega~(beta) = sum_j omega~(beta_j)",
    ),
    Item(
        "22",
        _RESULT,
        "Appendix A.1",
        "omega(m) = m^2: Omega~(beta) = 2 ||beta||_1 (stated as ||.||_1 in "
        "Section 3.1)",
        claims=_ids("sec-3.1:l1-corrected"),
    ),
    Item(
        "prop-4",
        _RESULT,
        "Appendix A.2.1",
        "Proposition 4: omega1 (+) omega2 strictly increasing on [1, oo), 0 at 1",
    ),
    Item(
        "23",
        _PROOF_STEP,
        "Appendix A.2.1",
        "proof of Proposition 4: the join at v2 exceeds the join at v1",
    ),
    Item(
        "24",
        _PROOF_STEP,
        "Appendix A.2.2",
        "proof of Proposition 3: the first derivative of omega~ at 0 is 0",
    ),
    Item(
        "25",
        _PROOF_STEP,
        "Appendix A.2.2",
        "proof of Proposition 3: the second derivative of omega~ at 0 is 2",
    ),
    Item(
        "26",
        _PROOF_STEP,
        "Appendix A.2.2",
        "proof of Proposition 3: the slope dz*/dv = C_p v^(1 - 2(p-2)/(p-1))",
    ),
    Item(
        "lemma-5",
        _RESULT,
        "Appendix A.3",
        "Lemma 5: the two-sided problem (27) has the aligned solution (28)-(29)",
        claims=_ids(*_LEMMA_5),
    ),
    Item(
        "27",
        _RESULT,
        "Appendix A.3",
        "Lemma 5's two-sided problem and its solution's shared singular vectors",
    ),
    Item(
        "28",
        _RESULT,
        "Appendix A.3",
        "Lemma 5's scalar problems for the singular values",
    ),
    Item(
        "29",
        _RESULT,
        "Appendix A.3",
        "Lemma 5's B_hat minimizes Omega~ of the joint penalty",
    ),
    Item(
        "30",
        _PROOF_STEP,
        "Appendix A.3",
        "proof of Lemma 5: minimize omega1(s1) + omega2(s2) s.t. s1 s2 = a",
        # Substituting s2 = a / s1 makes (30) into (31); the claim finds the
        # minimum of (31) over all s1 > 0 in [1, a], where it is the join (11).
        claims=_ids("23:minimizer-in-1-v"),
    ),
    Item(
        "31",
        _PROOF_STEP,
        "Appendix A.3",
        "proof of Lemma 5: minimize omega1(s1) + omega2(a / s1), the join",
        claims=_ids("23:minimizer-in-1-v"),
    ),
    Item(
        "32",
        _PROOF_STEP,
        "Appendix A.3.1",
        "proof of Theorem 1: grad f0(x) M_hat^2 grad f0(x')^T expanded",
        # The claim's check is this expansion: J M_hat M_hat^T J'^T against
        # K0 + (s^2 - 1) ||beta||^-2 (J beta)(J' beta), exactly.
        claims=_ids("9:adapted-kernel"),
    ),
    # Statements the text makes without a number, which claims check.
    Item(
        "sec-3.1:l1-penalty",
        ItemKind.RESULT,
        "Section 3.1",
        "Omega~ = ||.||_1 for Omega(M) = ||M||_F^2 with a diagonal constraint",
        claims=_ids("sec-3.1:l1-as-printed", "sec-3.1:l1-as-value"),
        numbered=False,
    ),
    Item(
        "sec-3.1:kernel-alignment",
        ItemKind.RESULT,
        "Section 3.1",
        "training aligns the adapted kernel with the label kernel",
        claims=_ids("sec-3.1:kernel-alignment"),
        numbered=False,
    ),
    Item(
        "prop-3-proof:conjugate",
        _PROOF_STEP,
        "Appendix A.2",
        "proof of Proposition 3: v^2 -> -omega~(v) as a Legendre-Fenchel conjugate",
        claims=_ids(
            "prop-3-proof:conjugate-as-printed", "prop-3-proof:conjugate-corrected"
        ),
        numbered=False,
    ),
)
