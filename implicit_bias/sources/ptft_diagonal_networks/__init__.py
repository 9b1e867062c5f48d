r"""Claims of ptft-diagonal-networks, a module per appendix (or part of one).

Appendix A, the norm-minimization bias of PT+FT:

* :mod:`.gradient_flow`: eqs. (7)-(21), gradient flow, the change of variables
  and its solution, with the derivation chain of (15)-(21);
* :mod:`.q_norm`: eqs. (22)-(23), the Q-norm and its potential, symbolically;
* :mod:`.appendix_a_min_q`: eqs. (22)-(23) in numbers, our evaluators of them
  and gradient descent ending at the minimum-Q interpolant, from a plain
  initialization and after pretraining.

Appendix B, the :math:`\ell_{1,2}` bias of MTL:

* :mod:`.multi_task`: eqs. (26)-(35), the minimum parameter norms of
  multi-task diagonal (B.1) and ReLU (B.2) networks, with the derivation chain
  of (28)-(30);
* :mod:`.appendix_b1_min_l12`: eq. (30) read as an implicit bias of multi-task
  gradient descent.

Appendix D: :mod:`.appendix_d_figure_4`, PT+FT against STL ReLU networks on
a 40-unit teacher by the number of shared features (Fig. 4b).

Appendix E.1: :mod:`.appendix_e1`, the learned norms of Fig. 5a against the
ground truth's and the overlap of Fig. 5b under rescaling;
:mod:`.appendix_e1_sparsity`, the sparsity of the learned solutions (Figs.
5c-5e) and their weight on the auxiliary features (Fig. 5f).

Appendix E.2.1: :mod:`.appendix_e2`, the k-means clusters of single-task
ReLU networks' units against the teacher's (Fig. 6a-b).

Appendix G: :mod:`.representations`, the participation ratio, the ENSD and
CKA, symbolically and through our evaluators; :mod:`.appendix_g_figure_8`,
the participation ratio of rich and lazy ReLU networks (Fig. 8a) and its
change, with the ENSD, when pretrained ReLU networks are rescaled and
finetuned on a nested task (Fig. 8b-c).

Shared by them: :mod:`._common` (the symbolic instance and entrywise
identities), :mod:`._thresholds` (the significance convention and the
ledger's bounds), :mod:`.simulation_costs` (what the simulations cost before
they run), :mod:`.source` (the source id and the package's glyphs); and
:mod:`.inventory` lists the text's numbered items, :mod:`.findings` its slips.

:data:`CLAIMS` lists the symbolic claims of Appendices A, B and G, then the
numeric and simulation claims of Appendices A, B.1, D, E.1, E.2.1 and G;
Appendices C, E.2.2-E.2.3 and F have no claim.
"""

from collections.abc import Collection

from implicit_bias.claims.derivation import Derivation
from implicit_bias.claims.engine import Claim
from implicit_bias.claims.source import Citation, Source
from implicit_bias.theory import diagonal_networks as diagonal_networks_theory
from implicit_bias.theory import representations as representations_theory
from implicit_bias.sources.ptft_diagonal_networks import (
    appendix_a_min_q,
    appendix_b1_min_l12,
    appendix_d_figure_4,
    appendix_e1,
    appendix_e1_sparsity,
    appendix_e2,
    appendix_g_figure_8,
    gradient_flow,
    multi_task,
    q_norm,
    representations,
)
from implicit_bias.sources.ptft_diagonal_networks.findings import SLIPS
from implicit_bias.sources.ptft_diagonal_networks.inventory import INVENTORY
from implicit_bias.sources.ptft_diagonal_networks.source import GLYPHS as SOURCE_GLYPHS
from implicit_bias.sources.ptft_diagonal_networks.source import SOURCE_ID

__all__ = ["CITATION", "CLAIMS", "DERIVATIONS", "INVENTORY", "SOURCE", "SOURCE_ID"]

CLAIMS: tuple[Claim, ...] = (
    gradient_flow.CLAIMS
    + q_norm.CLAIMS
    + multi_task.CLAIMS
    + representations.CLAIMS
    + appendix_a_min_q.CLAIMS
    + appendix_b1_min_l12.CLAIMS
    + appendix_d_figure_4.CLAIMS
    + appendix_e1.CLAIMS
    + appendix_e1_sparsity.CLAIMS
    + appendix_e2.CLAIMS
    + appendix_g_figure_8.CLAIMS
    + representations.EVALUATOR_CLAIMS
)


def warm_up(claim_ids: Collection[str]) -> None:
    """The source's warm-up: each Appendix E.1 module's shared quick runs
    (:func:`.appendix_e1.warm_up`, :func:`.appendix_e1_sparsity.warm_up`)."""
    appendix_e1.warm_up(claim_ids)
    appendix_e1_sparsity.warm_up(claim_ids)


#: The derivation chains: eqs. (15)-(21) and (28)-(30).
DERIVATIONS: tuple[Derivation, ...] = gradient_flow.DERIVATIONS + multi_task.DERIVATIONS

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
