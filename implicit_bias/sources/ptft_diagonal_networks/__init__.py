"""Claims of ptft-diagonal-networks: the derivation (symbolic) and its numbers.

:mod:`.symbolic` checks eqs. (7)-(35) and Appendix G with SymPy (with the
derivation chains of eqs. (15)-(21) and (28)-(30)), in
:mod:`.gradient_flow` (eqs. (7)-(21)), :mod:`.q_norm` ((22)-(23)),
:mod:`.multi_task` ((26)-(35)) and :mod:`.representations` (Appendix G);
:mod:`.numeric` checks the evaluators against their references and trained
networks against the implicit-bias predictions (Appendices A, B.1 and E.1).
"""

from implicit_bias.claims.source import Citation, Source
from implicit_bias.theory import diagonal_networks as diagonal_networks_theory
from implicit_bias.theory import representations as representations_theory
from implicit_bias.sources.ptft_diagonal_networks.findings import SLIPS
from implicit_bias.sources.ptft_diagonal_networks.inventory import INVENTORY
from implicit_bias.sources.ptft_diagonal_networks.numeric import NUMERIC_CLAIMS, warm_up
from implicit_bias.sources.ptft_diagonal_networks.source import GLYPHS as SOURCE_GLYPHS
from implicit_bias.sources.ptft_diagonal_networks.source import SOURCE_ID
from implicit_bias.sources.ptft_diagonal_networks.symbolic import (
    CLAIMS as SYMBOLIC_CLAIMS,
)
from implicit_bias.sources.ptft_diagonal_networks.symbolic import DERIVATIONS

__all__ = ["CITATION", "CLAIMS", "DERIVATIONS", "INVENTORY", "SOURCE", "SOURCE_ID"]

CLAIMS = SYMBOLIC_CLAIMS + NUMERIC_CLAIMS

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
    title="PT+FT and multi-task learning in diagonal linear networks",
    citation=CITATION,
    claims=CLAIMS,
    derivations=DERIVATIONS,
    # The theory's notation, and this package's (instance coordinates and
    # measured quantities, named when the claim modules above were imported).
    glyphs={
        **diagonal_networks_theory.GLYPHS,
        **representations_theory.GLYPHS,
        **SOURCE_GLYPHS,
    },
    regimes={},
    warm_up=warm_up,
    description=(
        "Appendices A-G: the norm-minimization biases of PT+FT and multi-task "
        "learning in diagonal linear networks (eqs. (6)-(35)), the q-norm, "
        "participation ratio and ENSD, and trained networks against them."
    ),
    inventory=INVENTORY,
    slips=SLIPS,
)
