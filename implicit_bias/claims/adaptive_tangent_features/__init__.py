"""Claims of adaptive-tangent-features: the derivation, its numbers, its networks.

:mod:`.symbolic` checks eqs. (4)-(29) and Appendix A with SymPy; :mod:`.numeric`
checks the effective and joint penalties (eqs. (11)-(12), Propositions 3-4)
against their references; :mod:`.simulations` solves the relaxed problems
directly (Theorem 1, Lemma 5) and trains NumPy MLPs (Figure 1, eq. (19)).
"""

from implicit_bias.claims.adaptive_tangent_features.numeric import (
    CLAIMS as NUMERIC_CLAIMS,
)
from implicit_bias.claims.adaptive_tangent_features.simulations import (
    CLAIMS as SIMULATION_CLAIMS,
)
from implicit_bias.claims.adaptive_tangent_features.source import SOURCE
from implicit_bias.claims.adaptive_tangent_features.symbolic import (
    CLAIMS as SYMBOLIC_CLAIMS,
)
from implicit_bias.claims.engine import in_paper_order

__all__ = ["CLAIMS", "SOURCE"]

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
