"""Claims of features-are-fate (Tahir, Ganguli, Rotskoff): theory, proofs, networks.

:mod:`.task_distance` checks Theorem 2.2 and its proof (eqs. (23)-(34));
:mod:`.risks` the risks of Section 3 (eqs. (10)-(17)); the proof steps of
Appendix B ((35)-(144)) and the exact finite-size risks are in
:mod:`.random_matrix` (the scratch risk, (95)-(102)), :mod:`.linear_transfer`
((108)-(120)), :mod:`.ridge_transfer` ((121)-(141)) and :mod:`.finetuning`
(the conservation law (35) and (142)-(144)); :mod:`.kernels` Section 4 and
Appendix C (the ReLU arc-cosine kernel and RKHS projections); :mod:`.simulations`
trains deep linear networks by gradient descent against the theory.
"""

from implicit_bias.claims.engine import in_paper_order
from implicit_bias.claims.features_are_fate.finetuning import (
    CLAIMS as FINETUNING_CLAIMS,
)
from implicit_bias.claims.features_are_fate.kernels import CLAIMS as KERNEL_CLAIMS
from implicit_bias.claims.features_are_fate.linear_transfer import (
    CLAIMS as LINEAR_TRANSFER_CLAIMS,
)
from implicit_bias.claims.features_are_fate.random_matrix import (
    CLAIMS as RANDOM_MATRIX_CLAIMS,
)
from implicit_bias.claims.features_are_fate.ridge_transfer import (
    CLAIMS as RIDGE_TRANSFER_CLAIMS,
)
from implicit_bias.claims.features_are_fate.risks import CLAIMS as RISK_CLAIMS
from implicit_bias.claims.features_are_fate.simulations import (
    CLAIMS as SIMULATION_CLAIMS,
)
from implicit_bias.claims.features_are_fate.source import SOURCE
from implicit_bias.claims.features_are_fate.task_distance import (
    CLAIMS as TASK_DISTANCE_CLAIMS,
)

__all__ = ["CLAIMS", "SOURCE"]

#: Where the claims that are not about one numbered equation sit in the paper.
_POSITIONS = {
    "thm-2.2": 8.5,  # Theorem 2.2, between (8) and (9)
    "thm-3.4": 9.5,  # Theorems 3.4-3.5, after (9)
    "thm-3.5": 9.6,
    "10-17": 17.1,  # (17) = (10) - (16), after both
    "sec-4": 17.5,  # Section 4, before its (18)
}

CLAIMS = in_paper_order(
    TASK_DISTANCE_CLAIMS
    + RISK_CLAIMS
    + FINETUNING_CLAIMS
    + RANDOM_MATRIX_CLAIMS
    + LINEAR_TRANSFER_CLAIMS
    + RIDGE_TRANSFER_CLAIMS
    + KERNEL_CLAIMS
    + SIMULATION_CLAIMS,
    _POSITIONS,
)
