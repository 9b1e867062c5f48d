"""Claims of adaptive-tangent-features: the derivation, its numbers, its networks.

:mod:`.symbolic` checks eqs. (4)-(29) and Appendix A with SymPy, and
:mod:`.appendix_a` writes the Taylor argument (24)-(26) as derivation chains;
:mod:`.numeric` checks the effective and joint penalties (eqs. (11)-(12),
Propositions 3-4) against their references; :mod:`.simulations` solves the
relaxed problems directly (Theorem 1, Lemma 5) and trains NumPy MLPs (Figure 1,
eq. (19)); :mod:`.notation` holds the symbols of the claims' formulas, and
:mod:`.inventory` the text's numbered items for ``implicit-bias coverage``.
"""

from implicit_bias.claims.source import Citation, Source
from implicit_bias.sources.adaptive_tangent_features import appendix_a, notation
from implicit_bias.sources.adaptive_tangent_features.findings import SLIPS
from implicit_bias.sources.adaptive_tangent_features.inventory import INVENTORY
from implicit_bias.theory import tangent_features as tangent_features_theory
from implicit_bias.sources.adaptive_tangent_features.numeric import (
    CLAIMS as NUMERIC_CLAIMS,
)
from implicit_bias.sources.adaptive_tangent_features.simulations import (
    CLAIMS as SIMULATION_CLAIMS,
)
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID
from implicit_bias.sources.adaptive_tangent_features.symbolic import (
    CLAIMS as SYMBOLIC_CLAIMS,
)
from implicit_bias.claims.engine import in_paper_order

__all__ = ["CITATION", "CLAIMS", "SOURCE", "SOURCE_ID"]

#: Where the claims that are not about one numbered equation sit in the paper.
_POSITIONS = {
    "sec-3.1": 9.5,  # Figure 1, between (9) and (10)
    "prop-3": 18.5,  # stated after Theorem 2's (18)
    "fig-2": 18.6,
    "prop-4": 22.5,  # Appendix A.2.1, after (22)
    "prop-3-proof": 23.5,  # Appendix A.2.2, after (23)
}

CLAIMS = in_paper_order(
    SYMBOLIC_CLAIMS + NUMERIC_CLAIMS + SIMULATION_CLAIMS, _POSITIONS
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
