"""Claims of features-are-fate (Tahir, Ganguli, Rotskoff): theory, proofs, networks.

:mod:`.task_distance` checks Theorem 2.2 and its proof (eqs. (23)-(34));
:mod:`.theorem_3_6`, :mod:`.theorem_3_7` and :mod:`.theorems_3_8_3_9` the
risks of Section 3 (eqs. (10)-(17)); the proof steps of
Appendix B ((35)-(144)) and the exact finite-size risks are in
:mod:`.random_matrix` (the scratch risk, (95)-(102)), :mod:`.linear_transfer`
((108)-(120)), :mod:`.appendix_b7` and
:mod:`.appendix_b7_limits` ((121)-(141)) and :mod:`.finetuning`
(the conservation law (35) and (142)-(144)), :mod:`.appendix_b2` (the loss
decay (36)-(40) of Lemma 3.3's proof), :mod:`.appendix_b2_bounds` (its
Loewner bounds (42)-(46) and the exponential decay (47)-(49)),
:mod:`.appendix_b3` and :mod:`.appendix_b3_alignment` (Lemma B.1's proof,
(51)-(72)), :mod:`.appendix_b3_limits` (the rank-one limit (74)-(76) closing
Theorem 3.4's proof), :mod:`.appendix_b4` and :mod:`.appendix_b4_min_norm`
(the proof of Theorem 3.5, (78)-(90)), :mod:`.appendix_b5` (Theorem 3.6's
risk, (91)-(99)); :mod:`.section_4`
Section 4 (student-teacher ReLU networks), :mod:`.appendix_c` and
:mod:`.appendix_c_mercer` Appendix C (the ReLU arc-cosine kernel and RKHS
projections);
:mod:`.section_3_gradient_descent` trains deep linear networks by gradient
descent against the endpoints of Section 3 and its proofs,
:mod:`.section_3_monte_carlo` sets Monte-Carlo means of the risks against
Theorems 3.6-3.9 and :mod:`.figures_1_3` the transferability surfaces of
Figs. 1 and 3 against (13) and (17).

The proofs' printed chains are derivation chains
(:class:`~implicit_bias.claims.derivation.Derivation`), one claim per step:
(26)-(28) and (31)-(34) in :mod:`.task_distance`, (100)-(102) in
:mod:`.random_matrix`, (116)-(120) in :mod:`.linear_transfer`, (131)-(133) in
:mod:`.appendix_b7_limits` and (152)-(153) in :mod:`.appendix_c`. :mod:`.notation`
names what the claims measure (Monte Carlo means, trained endpoints, float64
values) so that every claim's formula says what its check compares.
:mod:`.inventory` lists every numbered item of the text for
``implicit-bias coverage``.
"""

from collections.abc import Collection

from implicit_bias.claims.source import Citation, Source
from implicit_bias.sources.features_are_fate import notation
from implicit_bias.theory import relu_kernels as relu_kernels_theory
from implicit_bias.theory import task_distance as task_distance_theory
from implicit_bias.theory import transfer_asymptotics as transfer_asymptotics_theory
from implicit_bias.theory import transfer_risks as transfer_risks_theory
from implicit_bias.claims.engine import in_paper_order
from implicit_bias.sources.features_are_fate._lemma_b1 import (
    GLYPHS as LEMMA_B1_GLYPHS,
)
from implicit_bias.sources.features_are_fate.appendix_b2 import (
    CLAIMS as APPENDIX_B2_CLAIMS,
)
from implicit_bias.sources.features_are_fate.appendix_b2 import (
    DERIVATIONS as APPENDIX_B2_DERIVATIONS,
)
from implicit_bias.sources.features_are_fate.appendix_b2 import (
    GLYPHS as APPENDIX_B2_GLYPHS,
)
from implicit_bias.sources.features_are_fate.appendix_b2_bounds import (
    CLAIMS as APPENDIX_B2_BOUND_CLAIMS,
)
from implicit_bias.sources.features_are_fate.appendix_b2_bounds import (
    GLYPHS as APPENDIX_B2_BOUND_GLYPHS,
)
from implicit_bias.sources.features_are_fate.appendix_b3 import (
    CLAIMS as APPENDIX_B3_CLAIMS,
)
from implicit_bias.sources.features_are_fate.appendix_b3_limits import (
    CLAIMS as APPENDIX_B3_LIMIT_CLAIMS,
)
from implicit_bias.sources.features_are_fate.appendix_b3_limits import (
    GLYPHS as APPENDIX_B3_LIMIT_GLYPHS,
)
from implicit_bias.sources.features_are_fate.appendix_b4 import (
    CLAIMS as APPENDIX_B4_CLAIMS,
)
from implicit_bias.sources.features_are_fate.appendix_b4 import (
    DERIVATIONS as APPENDIX_B4_DERIVATIONS,
)
from implicit_bias.sources.features_are_fate.appendix_b4 import (
    GLYPHS as APPENDIX_B4_GLYPHS,
)
from implicit_bias.sources.features_are_fate.appendix_b4_min_norm import (
    CLAIMS as APPENDIX_B4_MIN_NORM_CLAIMS,
)
from implicit_bias.sources.features_are_fate.appendix_b4_min_norm import (
    DERIVATIONS as APPENDIX_B4_MIN_NORM_DERIVATIONS,
)
from implicit_bias.sources.features_are_fate.appendix_b4_min_norm import (
    GLYPHS as APPENDIX_B4_MIN_NORM_GLYPHS,
)
from implicit_bias.sources.features_are_fate.appendix_b5 import (
    DERIVATIONS as APPENDIX_B5_DERIVATIONS,
)
from implicit_bias.sources.features_are_fate.appendix_b5 import (
    GLYPHS as APPENDIX_B5_GLYPHS,
)
from implicit_bias.sources.features_are_fate.appendix_b3 import (
    DERIVATIONS as APPENDIX_B3_DERIVATIONS,
)
from implicit_bias.sources.features_are_fate.appendix_b3_alignment import (
    CLAIMS as APPENDIX_B3_ALIGNMENT_CLAIMS,
)
from implicit_bias.sources.features_are_fate.appendix_b3_alignment import (
    DERIVATIONS as APPENDIX_B3_ALIGNMENT_DERIVATIONS,
)
from implicit_bias.sources.features_are_fate.finetuning import (
    CLAIMS as FINETUNING_CLAIMS,
)
from implicit_bias.sources.features_are_fate.findings import SLIPS
from implicit_bias.sources.features_are_fate.inventory import INVENTORY
from implicit_bias.sources.features_are_fate.appendix_c import (
    CLAIMS as APPENDIX_C_CLAIMS,
)
from implicit_bias.sources.features_are_fate.appendix_c import (
    DERIVATIONS as APPENDIX_C_DERIVATIONS,
)
from implicit_bias.sources.features_are_fate.appendix_c import (
    warm_up as appendix_c_warm_up,
)
from implicit_bias.sources.features_are_fate.appendix_c_mercer import (
    CLAIMS as APPENDIX_C_MERCER_CLAIMS,
)
from implicit_bias.sources.features_are_fate.section_4 import (
    CLAIMS as SECTION_4_CLAIMS,
)
from implicit_bias.sources.features_are_fate.linear_transfer import (
    CLAIMS as LINEAR_TRANSFER_CLAIMS,
)
from implicit_bias.sources.features_are_fate.linear_transfer import (
    DERIVATIONS as LINEAR_TRANSFER_DERIVATIONS,
)
from implicit_bias.sources.features_are_fate.random_matrix import (
    CLAIMS as RANDOM_MATRIX_CLAIMS,
)
from implicit_bias.sources.features_are_fate.random_matrix import (
    DERIVATIONS as RANDOM_MATRIX_DERIVATIONS,
)
from implicit_bias.sources.features_are_fate.appendix_b1_steps import (
    CLAIMS as APPENDIX_B1_STEP_CLAIMS,
)
from implicit_bias.sources.features_are_fate.appendix_e import (
    CLAIMS as APPENDIX_E_CLAIMS,
)
from implicit_bias.sources.features_are_fate.appendix_b1_steps import (
    DERIVATIONS as APPENDIX_B1_STEP_DERIVATIONS,
)
from implicit_bias.sources.features_are_fate.appendix_b1_steps import (
    GLYPHS as APPENDIX_B1_STEP_GLYPHS,
)
from implicit_bias.sources.features_are_fate.appendix_b6_readout import (
    CLAIMS as APPENDIX_B6_READOUT_CLAIMS,
)
from implicit_bias.sources.features_are_fate.appendix_b6_readout import (
    DERIVATIONS as APPENDIX_B6_READOUT_DERIVATIONS,
)
from implicit_bias.sources.features_are_fate.appendix_b6_readout import (
    GLYPHS as APPENDIX_B6_READOUT_GLYPHS,
)
from implicit_bias.sources.features_are_fate.appendix_b7 import (
    CLAIMS as APPENDIX_B7_CLAIMS,
)
from implicit_bias.sources.features_are_fate.appendix_b7_readout import (
    DERIVATIONS as APPENDIX_B7_READOUT_DERIVATIONS,
)
from implicit_bias.sources.features_are_fate.appendix_b7_limits import (
    CLAIMS as APPENDIX_B7_LIMIT_CLAIMS,
)
from implicit_bias.sources.features_are_fate.appendix_b7_limits import (
    DERIVATIONS as APPENDIX_B7_LIMIT_DERIVATIONS,
)
from implicit_bias.sources.features_are_fate.theorem_3_6 import (
    CLAIMS as THEOREM_3_6_CLAIMS,
)
from implicit_bias.sources.features_are_fate.theorem_3_7 import (
    CLAIMS as THEOREM_3_7_CLAIMS,
)
from implicit_bias.sources.features_are_fate.theorems_3_8_3_9 import (
    CLAIMS as THEOREMS_3_8_3_9_CLAIMS,
)
from implicit_bias.sources.features_are_fate.figures_1_3 import (
    CLAIMS as FIGURES_1_3_CLAIMS,
)
from implicit_bias.sources.features_are_fate.figures_1_3 import (
    warm_up as figures_1_3_warm_up,
)
from implicit_bias.sources.features_are_fate.section_3_gradient_descent import (
    CLAIMS as GRADIENT_DESCENT_CLAIMS,
)
from implicit_bias.sources.features_are_fate.section_3_gradient_descent import (
    warm_up as gradient_descent_warm_up,
)
from implicit_bias.sources.features_are_fate.section_3_monte_carlo import (
    CLAIMS as MONTE_CARLO_CLAIMS,
)
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.sources.features_are_fate.task_distance import (
    CLAIMS as TASK_DISTANCE_CLAIMS,
)
from implicit_bias.sources.features_are_fate.task_distance import (
    DERIVATIONS as TASK_DISTANCE_DERIVATIONS,
)

__all__ = ["CITATION", "CLAIMS", "DERIVATIONS", "SOURCE", "SOURCE_ID"]

#: Where the claims that are not about one numbered equation sit in the paper.
_POSITIONS = {
    "thm-2.2": 8.5,  # Theorem 2.2, between (8) and (9)
    "thm-3.4": 9.5,  # Theorems 3.4-3.5, after (9)
    "thm-3.5": 9.6,
    "10-17": 17.1,  # (17) = (10) - (16), after both
    "sec-4": 17.5,  # Section 4, before its (18)
    "fig-5": 159.5,  # Appendix E, after the last equation (159)
    "fig-7": 159.7,
}

CLAIMS = in_paper_order(
    TASK_DISTANCE_CLAIMS
    + THEOREM_3_6_CLAIMS
    + THEOREM_3_7_CLAIMS
    + THEOREMS_3_8_3_9_CLAIMS
    + FINETUNING_CLAIMS
    + APPENDIX_B2_CLAIMS
    + APPENDIX_B2_BOUND_CLAIMS
    + APPENDIX_B3_CLAIMS
    + APPENDIX_B3_ALIGNMENT_CLAIMS
    + APPENDIX_B3_LIMIT_CLAIMS
    + APPENDIX_B4_CLAIMS
    + APPENDIX_B4_MIN_NORM_CLAIMS
    + RANDOM_MATRIX_CLAIMS
    + LINEAR_TRANSFER_CLAIMS
    + APPENDIX_B6_READOUT_CLAIMS
    + APPENDIX_B1_STEP_CLAIMS
    + APPENDIX_E_CLAIMS
    + APPENDIX_B7_CLAIMS
    + APPENDIX_B7_LIMIT_CLAIMS
    + SECTION_4_CLAIMS
    + APPENDIX_C_CLAIMS
    + APPENDIX_C_MERCER_CLAIMS
    + GRADIENT_DESCENT_CLAIMS
    + MONTE_CARLO_CLAIMS
    + FIGURES_1_3_CLAIMS,
    _POSITIONS,
)

#: The proofs' chains, in the order of the text; each step is a claim.
DERIVATIONS = (
    TASK_DISTANCE_DERIVATIONS
    + APPENDIX_B2_DERIVATIONS
    + APPENDIX_B3_DERIVATIONS
    + APPENDIX_B3_ALIGNMENT_DERIVATIONS
    + APPENDIX_B4_DERIVATIONS
    + APPENDIX_B4_MIN_NORM_DERIVATIONS
    + APPENDIX_B5_DERIVATIONS
    + RANDOM_MATRIX_DERIVATIONS
    + APPENDIX_B6_READOUT_DERIVATIONS
    + APPENDIX_B1_STEP_DERIVATIONS
    + LINEAR_TRANSFER_DERIVATIONS
    + APPENDIX_B7_READOUT_DERIVATIONS
    + APPENDIX_B7_LIMIT_DERIVATIONS
    + APPENDIX_C_DERIVATIONS
)


def _warm_up(claim_ids: Collection[str]) -> None:
    """The source's warm-up: the work two or more of ``claim_ids`` share (the
    kernel quadratures, the simulations), done before the checks fork."""
    appendix_c_warm_up(claim_ids)
    gradient_descent_warm_up(claim_ids)
    figures_1_3_warm_up(claim_ids)


#: The bibliographic record of the paper.
CITATION = Citation(
    title=(
        "Features are fate: a theory of transfer learning in high-dimensional "
        "regression"
    ),
    authors=("Javan Tahir", "Surya Ganguli", "Grant M. Rotskoff"),
    year=2025,
    venue="ICML 2025",
    arxiv="2410.08194",
    version_note=(
        "Equation numbers follow the text with Appendices B-D numbered (22)-(159); "
        "the arXiv version it was taken from is not recorded."
    ),
)

#: The source, registered through the entry point ``implicit_bias.sources``.
SOURCE = Source(
    id=SOURCE_ID,
    title="Features are fate",
    citation=CITATION,
    claims=CLAIMS,
    derivations=DERIVATIONS,
    glyphs={
        **task_distance_theory.GLYPHS,
        # The proofs' expected risks are the main text's (their glyphs win).
        **transfer_asymptotics_theory.GLYPHS,
        **transfer_risks_theory.GLYPHS,
        **relu_kernels_theory.GLYPHS,
        **notation.GLYPHS,
        **APPENDIX_B2_GLYPHS,
        **APPENDIX_B2_BOUND_GLYPHS,
        **LEMMA_B1_GLYPHS,
        **APPENDIX_B3_LIMIT_GLYPHS,
        **APPENDIX_B4_GLYPHS,
        **APPENDIX_B4_MIN_NORM_GLYPHS,
        **APPENDIX_B5_GLYPHS,
        **APPENDIX_B6_READOUT_GLYPHS,
        **APPENDIX_B1_STEP_GLYPHS,
    },
    regimes={},
    positions=_POSITIONS,
    description=(
        "Transfer learning in high-dimensional linear regression: Theorem 2.2 and"
        " its proof, the risks of Section 3, the Appendix B proofs, the ReLU RKHS"
        " of Appendix C, and deep linear networks trained by gradient descent."
    ),
    warm_up=_warm_up,
    inventory=INVENTORY,
    slips=SLIPS,
)
