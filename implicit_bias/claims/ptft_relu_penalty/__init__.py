r"""Claims of ptft-relu-penalty: eqs. (6)-(11), Section 1.2 and Fig. 1c.

:mod:`.derivation` checks the reduction to :math:`p(u)` and the quartic of
eqs. (6)-(10); :mod:`.penalty` the penalty :math:`\tilde r` of eq. (11), its
slope and its limits; :mod:`.section_1_2` the statements of Section 1.2 about
reused and fresh units; :mod:`.fig1c` the sample-efficiency prediction of
Fig. 1c in trained ReLU networks.

Symbols: ``m`` is :math:`m_h`, ``m0`` is :math:`m_{0h}^{(1)} = \sqrt{m^{aux}}`,
``rho`` is :math:`\rho_h`, ``gamma`` is :math:`\gamma`.
"""

from implicit_bias.claims.ptft_relu_penalty.derivation import (
    CLAIMS as DERIVATION_CLAIMS,
)
from implicit_bias.claims.ptft_relu_penalty.fig1c import CLAIMS as FIG1C_CLAIMS
from implicit_bias.claims.ptft_relu_penalty.penalty import CLAIMS as PENALTY_CLAIMS
from implicit_bias.claims.ptft_relu_penalty.section_1_2 import (
    CLAIMS as SECTION_1_2_CLAIMS,
)
from implicit_bias.claims.ptft_relu_penalty.section_1_2 import SMALL_GAMMAS
from implicit_bias.claims.ptft_relu_penalty.source import SOURCE

__all__ = ["CLAIMS", "SMALL_GAMMAS", "SOURCE"]

CLAIMS = DERIVATION_CLAIMS + PENALTY_CLAIMS + SECTION_1_2_CLAIMS + FIG1C_CLAIMS
