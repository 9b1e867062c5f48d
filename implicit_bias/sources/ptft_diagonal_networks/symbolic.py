r"""Claims of ptft-diagonal-networks: eqs. (7)-(35) and Appendix G, symbolically.

:mod:`.gradient_flow` checks gradient flow, the change of variables and its
solution (eqs. (7)-(21)); :mod:`.q_norm` the Q-norm and its potential
(eqs. (22)-(23)); :mod:`.multi_task` the minimum parameter norms of multi-task
diagonal and ReLU networks (Appendix B, eqs. (26)-(35)); :mod:`.representations`
the participation ratio and ENSD of Appendix G. The steps of eqs. (15)-(21)
and (28)-(30) are derivation chains (:data:`DERIVATIONS`).

The numeric and simulation claims of the source (the Q-norm and
:math:`\ell_{1,2}` minimizers, trained networks) are in :mod:`.numeric`.
"""

from __future__ import annotations

from implicit_bias.claims.derivation import Derivation
from implicit_bias.claims.engine import Claim
from implicit_bias.sources.ptft_diagonal_networks.gradient_flow import (
    CLAIMS as GRADIENT_FLOW_CLAIMS,
)
from implicit_bias.sources.ptft_diagonal_networks.gradient_flow import (
    DERIVATIONS as GRADIENT_FLOW_DERIVATIONS,
)
from implicit_bias.sources.ptft_diagonal_networks.multi_task import (
    CLAIMS as MULTI_TASK_CLAIMS,
)
from implicit_bias.sources.ptft_diagonal_networks.multi_task import (
    DERIVATIONS as MULTI_TASK_DERIVATIONS,
)
from implicit_bias.sources.ptft_diagonal_networks.q_norm import CLAIMS as Q_NORM_CLAIMS
from implicit_bias.sources.ptft_diagonal_networks.representations import (
    CLAIMS as REPRESENTATION_CLAIMS,
)

__all__ = ["CLAIMS", "DERIVATIONS"]

CLAIMS: tuple[Claim, ...] = (
    GRADIENT_FLOW_CLAIMS + Q_NORM_CLAIMS + MULTI_TASK_CLAIMS + REPRESENTATION_CLAIMS
)

#: The derivation chains: eqs. (15)-(21) and (28)-(30).
DERIVATIONS: tuple[Derivation, ...] = GRADIENT_FLOW_DERIVATIONS + MULTI_TASK_DERIVATIONS
