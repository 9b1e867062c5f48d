"""Claims of ptft-diagonal-networks: the derivation (symbolic) and its numbers.

:mod:`.symbolic` checks eqs. (7)-(35) and Appendix G with SymPy, in
:mod:`.gradient_flow` (eqs. (7)-(21)), :mod:`.q_norm` ((22)-(23)),
:mod:`.multi_task` ((26)-(35)) and :mod:`.representations` (Appendix G);
:mod:`.numeric` checks the evaluators against their references and trained
networks against the implicit-bias predictions (Appendices A, B.1 and E.1).
"""

from implicit_bias.claims.ptft_diagonal_networks.numeric import NUMERIC_CLAIMS
from implicit_bias.claims.ptft_diagonal_networks.source import SOURCE
from implicit_bias.claims.ptft_diagonal_networks.symbolic import (
    CLAIMS as SYMBOLIC_CLAIMS,
)

__all__ = ["CLAIMS", "SOURCE"]

CLAIMS = SYMBOLIC_CLAIMS + NUMERIC_CLAIMS
