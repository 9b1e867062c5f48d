r"""balance-note: a second worked example of a note checked with implicit-bias.

The note (``NOTE.md``) follows Du, Hu and Lee, "Algorithmic Regularization in
Learning Deep Homogeneous Models: Layers are Automatically Balanced" (NeurIPS
2018, arXiv:1806.00900) in its smallest case, a scalar target fitted by the
product :math:`ab` of two weights: gradient flow conserves :math:`a^2 - b^2`,
weight decay on the factors is at least :math:`|ab|`, and gradient descent from
a small balanced start finds the balanced factors. Its sections are the
modules here: :mod:`.setting` (Section 1), :mod:`.derivation` (Section 2),
:mod:`.simulation` and :mod:`.experiment` (Section 3).

:data:`SOURCE` is registered through the entry point ``implicit_bias.sources``
(see ``pyproject.toml``), so ``implicit-bias verify --source balance-note``
checks it. Inequality (4') is a deliberate slip, which the toolkit refutes.
"""

from balance_note import derivation, experiment
from balance_note.setting import CITATION, GLYPHS, REGIMES, SOURCE_ID
from implicit_bias.claims import Source

__all__ = ["SOURCE", "SOURCE_ID"]

#: The note, as a source of claims and a derivation chain.
SOURCE = Source(
    id=SOURCE_ID,
    title="Balance note: weight decay and balance in a product of two weights",
    citation=CITATION,
    claims=derivation.CLAIMS + experiment.CLAIMS,
    derivations=derivation.CHAINS,
    glyphs=GLYPHS,
    regimes=REGIMES,
    description=(
        "A theorist's note following Du, Hu and Lee (2018) in its smallest case: "
        "gradient flow on a product of two weights conserves their balance, weight "
        "decay on the factors is at least the l1 penalty of the product, and "
        "gradient descent from a small balanced start finds the balanced factors. "
        "Ineq. (4') is a slip made on purpose, refuted with a certified "
        "counterexample."
    ),
)
