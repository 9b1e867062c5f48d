r"""The numbered items of ptft-relu-penalty's text, for ``implicit-bias coverage``.

Every equation the appendix numbers, (1)-(11), and the three panels of its
Fig. 1 that the text refers to (Fig. 1a, 1b, 1c), in the text's order, each
an :class:`~implicit_bias.claims.inventory.Item` whose label is the text's own
number (``"11"``, ``"fig-1c"``), the label the claims carry in their
``equation``. The text prints no theorem, lemma or numbered definition.

The numbers are those of the appendix text the claims quote (its Section 1,
on the PT+FT penalty of shallow ReLU networks, which refers to "the original
submission" and "our manuscript"); which arXiv version of Lippl and
Lindsey's paper that text was taken from is not recorded, so the numbers may
differ from another version's.

Claims on the prose of Section 1.2 (label ``sec-1.2``) are placed on the
panel whose finding they check (``claims=``): the penalty curves of Fig. 1a,
the log-derivative of Fig. 1b. The claim that pretraining leaves
:math:`m_{0h}^{(1)} = \sqrt{m^{aux}}` checks a sentence of Section 1.2 that
the text does not number: it has an unnumbered item of its own,
``sec-1.2:pretrained-norm``.
"""

from __future__ import annotations

from implicit_bias.claims.inventory import Item, ItemKind
from implicit_bias.sources.ptft_relu_penalty.source import SOURCE_ID

__all__ = ["INVENTORY"]


def _ids(equation: str, *labels: str) -> tuple[str, ...]:
    return tuple(f"{SOURCE_ID}:{equation}:{label}" for label in labels)


_SECTION_1_1 = "Section 1.1"
_SECTION_1_2 = "Section 1.2"

#: The Fig. 1c simulations: they train the two-layer ReLU networks of eq. (1).
_FIG_1C = _ids(
    "fig-1c",
    "ptft-benefit-at-rho-1",
    "reversal-at-rho-0.9",
    "reversal-at-rho-0.9-largest-n",
    "ptft-benefit-at-rho-1-large",
    "reversal-at-rho-0.9-large",
    "reversal-at-rho-0.9-largest-n-large",
)
#: Minimizes the deviation R of eq. (2) of one unit under the constraints of
#: eq. (5) over the weights themselves (validation.relu_networks); for one
#: hidden unit, eq. (3) is eq. (5).
_DIRECT_MINIMIZATION = _ids("6", "direct-minimization")
#: The reduction of (3) to a sum over units (4) of the problems (5), and of (5)
#: to the one-variable p(u) of (6) (module reduction).
_DECOMPOSITION = _ids("4", "objective-splits", "unit-decomposition")
_UNIT_PROBLEM = (*_ids("6", "constraint-curve"), *_ids("6", "unit-problem-step-1"))

INVENTORY: tuple[Item, ...] = (
    Item(
        "1",
        ItemKind.DEFINITION,
        _SECTION_1_1,
        "the shallow ReLU network f_w",
        used_by=_FIG_1C,
    ),
    Item(
        "2",
        ItemKind.DEFINITION,
        _SECTION_1_1,
        "R(w | w_0, gamma), the squared deviation from the initialization",
        used_by=_DECOMPOSITION + _DIRECT_MINIMIZATION,
    ),
    Item(
        "3",
        ItemKind.DEFINITION,
        _SECTION_1_1,
        "R~(w_hat, m), the least deviation for given directions and magnitudes",
        used_by=_DECOMPOSITION + _DIRECT_MINIMIZATION,
    ),
    Item(
        "4",
        ItemKind.PROOF_STEP,
        _SECTION_1_1,
        "R~ is the sum over hidden units of the per-unit r~",
    ),
    Item(
        "5",
        ItemKind.DEFINITION,
        _SECTION_1_1,
        "r~(w_hat_h, m_h), the per-unit constrained minimum",
        used_by=_DECOMPOSITION[1:] + _UNIT_PROBLEM + _DIRECT_MINIMIZATION,
    ),
    Item(
        "6",
        ItemKind.PROOF_STEP,
        _SECTION_1_1,
        "r~ = min_{u>0} p(u), the one-dimensional problem",
    ),
    Item("7", ItemKind.PROOF_STEP, _SECTION_1_1, "p(u) with the square expanded"),
    Item("8", ItemKind.PROOF_STEP, _SECTION_1_1, "p(u) in terms of m_0h and rho_h"),
    Item("9", ItemKind.PROOF_STEP, _SECTION_1_1, "the derivative p'(u)"),
    Item(
        "10",
        ItemKind.PROOF_STEP,
        _SECTION_1_1,
        "the quartic whose positive root u* is the stationary point",
    ),
    Item(
        "11",
        ItemKind.RESULT,
        _SECTION_1_1,
        "the penalty r~ as p(u*)",
        # Eq. (11) at m_0h = gamma = 0: the exactly l1 penalty of a fresh unit.
        claims=_ids("sec-1.2", "fresh-unit-l1"),
    ),
    Item(
        "sec-1.2:pretrained-norm",
        ItemKind.RESULT,
        _SECTION_1_2,
        "after pretraining, m_0h = sqrt(m_aux) if the pretrained solution minimizes "
        "the parameter norm",
        claims=_ids("sec-1.2", "pretrained-norm"),
        numbered=False,
    ),
    Item(
        "fig-1a",
        ItemKind.RESULT,
        _SECTION_1_2,
        "the penalty r~ against m for several rho and m_aux",
        claims=_ids(
            "sec-1.2",
            "nested-sparsity-gap",
            "moderate-correlation-reversal",
            "perfect-correlation-benefit",
        ),
    ),
    Item(
        "fig-1b",
        ItemKind.RESULT,
        _SECTION_1_2,
        "the derivative of log r~: l1-like near 1, l2-like near 2",
        claims=_ids(
            "sec-1.2",
            "log-derivative",
            "log-log-derivative",
            "nested-sparsity-gap",
            "l1-like-at-0.99",
            "l1-like-at-0.99-from-m-2",
        ),
    ),
    Item(
        "fig-1c",
        ItemKind.RESULT,
        _SECTION_1_2,
        "sample efficiency of PT+FT against STL across rho and magnitudes",
    ),
)
