r"""Claims of ptft-relu-penalty: eqs. (2)-(11), Section 1.2 and Fig. 1c.

:mod:`.reduction` checks the reduction of the minimization (3) over all
units' weights to a sum over units (4) of the one-variable problems (5)-(6);
:mod:`.derivation` checks the reduction to :math:`p(u)` and the quartic of
eqs. (6)-(10), as two derivation chains; :mod:`.penalty` the penalty
:math:`\tilde r` of eq. (11), its slope and its limits; :mod:`.section_1_2`
the statements of Section 1.2 about reused and fresh units; :mod:`.fig1c` the
sample-efficiency prediction of Fig. 1c in trained ReLU networks.

Symbols: ``m`` is :math:`m_h`, ``m0`` is :math:`m_{0h}^{(1)} = \sqrt{m^{aux}}`,
``rho`` is :math:`\rho_h`, ``gamma`` is :math:`\gamma`.
"""

from implicit_bias.claims.source import Citation, Source
from implicit_bias.theory import relu_penalty as relu_penalty_theory
from implicit_bias.sources.ptft_relu_penalty.derivation import (
    CLAIMS as DERIVATION_CLAIMS,
)
from implicit_bias.sources.ptft_relu_penalty.derivation import (
    DERIVATIONS as DERIVATION_CHAINS,
)
from implicit_bias.sources.ptft_relu_penalty.fig1c import CLAIMS as FIG1C_CLAIMS
from implicit_bias.sources.ptft_relu_penalty.findings import SLIPS
from implicit_bias.sources.ptft_relu_penalty.inventory import INVENTORY
from implicit_bias.sources.ptft_relu_penalty.penalty import CLAIMS as PENALTY_CLAIMS
from implicit_bias.sources.ptft_relu_penalty.reduction import (
    CLAIMS as REDUCTION_CLAIMS,
)
from implicit_bias.sources.ptft_relu_penalty.reduction import (
    DERIVATIONS as REDUCTION_CHAINS,
)
from implicit_bias.sources.ptft_relu_penalty.reduction import (
    GLYPHS as REDUCTION_GLYPHS,
)
from implicit_bias.sources.ptft_relu_penalty.section_1_2 import (
    CLAIMS as SECTION_1_2_CLAIMS,
)
from implicit_bias.sources.ptft_relu_penalty.section_1_2 import SMALL_GAMMAS
from implicit_bias.sources.ptft_relu_penalty.source import GLYPHS as SOURCE_GLYPHS
from implicit_bias.sources.ptft_relu_penalty.source import REGIME, SOURCE_ID

__all__ = [
    "CITATION",
    "CLAIMS",
    "DERIVATIONS",
    "INVENTORY",
    "SMALL_GAMMAS",
    "SOURCE",
    "SOURCE_ID",
]

CLAIMS = (
    REDUCTION_CLAIMS
    + DERIVATION_CLAIMS
    + PENALTY_CLAIMS
    + SECTION_1_2_CLAIMS
    + FIG1C_CLAIMS
)
#: The derivation chains, in the order of the text: (5)-(6), (6)-(8), (9)-(10).
DERIVATIONS = REDUCTION_CHAINS + DERIVATION_CHAINS

#: The bibliographic record of the paper.
CITATION = Citation(
    title=(
        "Inductive biases of multi-task learning and finetuning: multiple regimes "
        "of feature reuse"
    ),
    authors=("Samuel Lippl", "Jack W. Lindsey"),
    year=2024,
    venue="NeurIPS 2024",
    arxiv="2310.02396",
    version_note=(
        "Equation numbers follow the appendix text the claims quote; earlier arXiv "
        "versions were titled 'Implicit regularization of multi-task learning and "
        "finetuning: multiple regimes of feature reuse'. The arXiv version that "
        "text was taken from is not recorded."
    ),
)

#: The source, registered through the entry point ``implicit_bias.sources``.
SOURCE = Source(
    id=SOURCE_ID,
    title="PT+FT penalty of shallow ReLU networks",
    citation=CITATION,
    claims=CLAIMS,
    derivations=DERIVATIONS,
    # The theory's notation, and this package's: vector coordinates and the
    # measured quantities (imported after every claim module has named them).
    glyphs={**relu_penalty_theory.GLYPHS, **SOURCE_GLYPHS, **REDUCTION_GLYPHS},
    regimes={"source regime": REGIME},
    description=(
        "The appendix on the implicit regularization penalty of pretraining + "
        "finetuning in shallow ReLU networks: eqs. (1)-(11), Section 1.2 and Fig."
        " 1c."
    ),
    inventory=INVENTORY,
    slips=SLIPS,
)
