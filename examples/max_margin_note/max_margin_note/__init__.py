r"""max-margin-note: a worked example of a note checked with implicit-bias.

The note (``NOTE.md``) follows Soudry et al., "The Implicit Bias of Gradient
Descent on Separable Data" (JMLR 2018, arXiv:1710.10345): gradient descent
on the logistic loss of separable data converges in direction to the L2
max-margin separator, at the rate :math:`1/\log t`. Its sections are the
modules here: :mod:`.setting` (Section 1), :mod:`.derivation` (Section 2),
:mod:`.simulation` and :mod:`.experiment` (Section 3).

:data:`SOURCE` is registered through the entry point ``implicit_bias.sources``
(see ``pyproject.toml``), so ``implicit-bias verify --source max-margin-note``
checks it. Equation (12') is a deliberate slip, which the toolkit refutes.
"""

from implicit_bias.claims import Source
from max_margin_note import derivation, experiment
from max_margin_note.setting import CITATION, GLYPHS, REGIMES, SOURCE_ID

__all__ = ["SOURCE", "SOURCE_ID"]

#: The note, as a source of claims and derivation chains.
SOURCE = Source(
    id=SOURCE_ID,
    title="Max-margin note: gradient descent on separable data",
    citation=CITATION,
    claims=derivation.CLAIMS + experiment.CLAIMS,
    derivations=derivation.CHAINS,
    glyphs=GLYPHS,
    regimes=REGIMES,
    description=(
        "A theorist's note following Soudry et al. (2018): the exponential tail of "
        "the logistic loss, the log t growth of the iterates, the 1/log t direction "
        "gap, and gradient descent on a four-point dataset against them. Eq. (12') "
        "is a slip made on purpose, refuted with a certified counterexample."
    ),
)
