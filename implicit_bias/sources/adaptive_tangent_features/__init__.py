"""Claims of adaptive-tangent-features, by the sections of the paper.

One module per part of the paper, in its order:

- :mod:`.framework`: Section 2, the adaptive feature framework (eq. (2));
- :mod:`.penalties`: the penalties, eq. (6) of Section 3 and the joint and
  effective penalties (11)-(12) of Section 3.2;
- :mod:`.structureless`: Section 3.1, Theorem 1 (8)-(9) and the diagonal
  remark;
- :mod:`.figure_1`: Figure 1, label kernel alignment in a trained MLP;
- :mod:`.network_structure`: Section 3.2, Model A, eq. (13), Theorem 2's
  kernel (17)-(18) and eq. (19);
- :mod:`.theorem_2`: Theorem 2's solution (14)-(16) under Model A;
- :mod:`.proposition_3`: Proposition 3, the shape of the effective penalty;
- :mod:`.figure_2`: Figure 2, the effective penalties of its three examples;
- :mod:`.figure_3`: Figure 3, the difficult points in the kernel of a trained MLP;
- :mod:`.discussion`: Section 4, the average transformation (20);
- :mod:`.appendix_a1_diagonal`: Appendix A.1, the diagonal example (21)-(22);
- :mod:`.appendix_a2_penalties`: Appendix A.2, Proposition 4 and (23), and
  the proof of Proposition 3; its Taylor argument (24)-(26) is written as
  derivation chains in :mod:`.appendix_a`;
- :mod:`.appendix_a3_proofs`: Appendix A.3, Lemma 5 (27)-(29) and the proofs;
- :mod:`.appendix_b_mnist`: Appendix B, the MLP experiment as run here, which
  :mod:`.figure_1` and :mod:`.network_structure` decide on.

Shared by them: :mod:`.penalty_families` (the penalties statements over all
penalties are checked at), :mod:`._exact` and :mod:`._float64` (helpers of
the exact and the float64 checks), :mod:`._radicals` (identities between
radicals), :mod:`._matrices` (explicit matrices) and :mod:`._descents` (direct
solutions of (4) and (27)); :mod:`.notation` holds the symbols of the claims'
formulas, :mod:`.inventory` the text's numbered items for ``implicit-bias
coverage``, and :mod:`.findings` the slips the failing claims share.
"""

from implicit_bias.claims.engine import in_paper_order
from implicit_bias.claims.source import Citation, Source
from implicit_bias.sources.adaptive_tangent_features import (
    appendix_a,
    appendix_a1_diagonal,
    appendix_a2_penalties,
    appendix_a3_proofs,
    discussion,
    figure_1,
    figure_2,
    figure_3,
    framework,
    network_structure,
    notation,
    penalties,
    proposition_3,
    structureless,
    theorem_2,
)
from implicit_bias.sources.adaptive_tangent_features.findings import SLIPS
from implicit_bias.sources.adaptive_tangent_features.inventory import INVENTORY
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID
from implicit_bias.theory import tangent_features as tangent_features_theory

__all__ = ["CITATION", "CLAIMS", "SOURCE", "SOURCE_ID"]

#: The modules that hold claims, in the order of the paper's sections.
_SECTIONS = (
    framework,
    penalties,
    structureless,
    figure_1,
    network_structure,
    theorem_2,
    proposition_3,
    figure_2,
    figure_3,
    discussion,
    appendix_a1_diagonal,
    appendix_a2_penalties,
    appendix_a3_proofs,
)

#: Where the claims that are not about one numbered equation sit in the paper.
_POSITIONS = {
    "sec-3.1": 9.5,  # Figure 1, between (9) and (10)
    "prop-3": 18.5,  # stated after Theorem 2's (18)
    "fig-2": 18.6,
    "fig-3": 18.7,
    "prop-4": 22.5,  # Appendix A.2.1, after (22)
    "prop-3-proof": 23.5,  # Appendix A.2.2, after (23)
}

CLAIMS = in_paper_order(
    tuple(claim for section in _SECTIONS for claim in section.CLAIMS), _POSITIONS
)

#: The bibliographic record of the paper.
CITATION = Citation(
    title="An Adaptive Tangent Feature Perspective of Neural Networks",
    authors=("Daniel LeJeune", "Sina Alemohammad"),
    year=2024,
    venue="CPAL 2024 (PMLR 234)",
    arxiv="2308.15478",
    version_note=(
        "Equation numbers follow the text with eqs. (1)-(32) and Appendix A; the "
        "arXiv version it was taken from is not recorded."
    ),
)

#: The source, registered through the entry point ``implicit_bias.sources``.
SOURCE = Source(
    id=SOURCE_ID,
    title="An adaptive tangent feature perspective of neural networks",
    citation=CITATION,
    claims=CLAIMS,
    derivations=appendix_a.DERIVATIONS,
    glyphs={
        **tangent_features_theory.GLYPHS,
        **notation.GLYPHS,
        **appendix_a.GLYPHS,
    },
    regimes={},
    positions=_POSITIONS,
    inventory=INVENTORY,
    slips=SLIPS,
    description=(
        "Linear models in tangent feature space with learned feature "
        "transformations: eqs. (1)-(32), Theorems 1-2, Propositions 3-4, Lemma 5,"
        " Appendix A.1 and trained MLPs."
    ),
)
