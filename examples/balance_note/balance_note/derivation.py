r"""Section 2 of the note: the derivation, as a chain of steps and three claims.

* eq. (3): along the flow (2), :math:`a^2 - b^2` is conserved (a
  :class:`~implicit_bias.claims.Derivation` whose steps are checked one by one);
* eq. (4): :math:`(a^2 + b^2)/2 \geq |ab|`, weight decay on the factors is at
  least the :math:`\ell_1` penalty of the product;
* eq. (4'): a slip that doubles the right-hand side of (4), wrong on purpose --
  the toolkit refutes it with a certified counterexample;
* eq. (6): the balanced flow's product solves the logistic equation (5).
"""

from __future__ import annotations

import sympy as sp

from balance_note.setting import SOURCE_ID, a, b, p0, t, y
from implicit_bias.claims import (
    Claim,
    Derivation,
    Kind,
    Reading,
    Status,
    Step,
    relation_check,
)

__all__ = ["CHAINS", "CLAIMS", "balanced_product", "flow"]


def flow() -> tuple[sp.Expr, sp.Expr]:
    r"""Eq. (2): the velocities :math:`(\dot a, \dot b)` of gradient flow on (1)."""
    residual = a * b - y
    return -residual * b, -residual * a


def _conservation_start() -> sp.Expr:
    """Eq. (3), first form: 2a a' - 2b b' with (2) substituted, unevaluated."""
    velocity_a, velocity_b = flow()
    return sp.Add(
        sp.Mul(2, a, velocity_a, evaluate=False),
        sp.Mul(-2, b, velocity_b, evaluate=False),
        evaluate=False,
    )


_CONSERVATION = Derivation(
    source=SOURCE_ID,
    equation="3",
    label="balance",
    title=r"$a^2 - b^2$ is conserved along the flow (2)",
    start=_conservation_start,
    steps=(
        Step(
            lambda: sp.Add(
                -2 * (a * b - y) * a * b, 2 * (a * b - y) * a * b, evaluate=False
            ),
            r"multiply out: each term is $\pm 2(ab - y)ab$",
        ),
        Step(lambda: sp.Integer(0), "the two terms cancel"),
    ),
    quote=(
        r"$\frac{d}{dt}(a^2 - b^2) = 2a\dot a - 2b\dot b = -2(ab - y)ab + "
        r"2(ab - y)ab = 0$"
    ),
    reading=Reading.PRINTED,
    regime="symbolic",
    assumptions=("$a$, $b$ real",),
)

_PRODUCT_PENALTY = Claim(
    source=SOURCE_ID,
    equation="4",
    label="product-penalty",
    kind=Kind.INEQUALITY,
    statement=(
        r"$(a^2 + b^2)/2 \geq |ab|$: weight decay on the factors is at least the "
        r"$\ell_1$ penalty of their product"
    ),
    check=relation_check(lambda: sp.Ge((a**2 + b**2) / 2, sp.Abs(a * b))),
    expected=Status.HOLDS,
    quote=r"$(a^2 + b^2)/2 \geq |ab|$",
    reading=Reading.PRINTED,
    regime="symbolic",
)

#: The deliberate slip: the right-hand side of (4) doubled. False wherever
#: |a| and |b| are within a factor 2 + sqrt(3) of each other.
_PRODUCT_PENALTY_SLIP = Claim(
    source=SOURCE_ID,
    equation="4'",
    label="product-penalty-slip",
    kind=Kind.INEQUALITY,
    statement=r"$(a^2 + b^2)/2 \geq 2|ab|$ (wrong on purpose: (4) doubled)",
    check=relation_check(lambda: sp.Ge((a**2 + b**2) / 2, 2 * sp.Abs(a * b))),
    expected=Status.FAILS,
    quote=r"$(a^2 + b^2)/2 \geq 2|ab|$",
    reading=Reading.PRINTED,
    regime="symbolic",
)


def balanced_product(time: sp.Expr) -> sp.Expr:
    r"""Eq. (6): the product :math:`p(t) = u(t)^2` of the balanced flow.

    .. math:: p(t) = \frac{y}{1 + (y/p_0 - 1)\,e^{-2yt}}
    """
    return y / (1 + (y / p0 - 1) * sp.exp(-2 * y * time))


_LOGISTIC = Claim(
    source=SOURCE_ID,
    equation="6",
    label="logistic-solution",
    kind=Kind.IDENTITY,
    statement=(
        r"$p(t) = y/(1 + (y/p_0 - 1)e^{-2yt})$ solves the balanced flow "
        r"$\dot p = -2(p - y)p$ of (5)"
    ),
    check=relation_check(
        lambda: sp.Eq(
            sp.diff(balanced_product(t), t),
            -2 * (balanced_product(t) - y) * balanced_product(t),
            evaluate=False,
        )
    ),
    expected=Status.HOLDS,
    assumptions=("$y$, $p_0$, $t > 0$",),
    quote=r"$p(t) = y/(1 + (y/p_0 - 1)\,e^{-2yt})$",
    reading=Reading.PRINTED,
    regime="symbolic",
)

#: The derivation chain of Section 2.
CHAINS = (_CONSERVATION,)
#: The claims of Section 2 that are not steps of a chain, in the order of the note.
CLAIMS = (_PRODUCT_PENALTY, _PRODUCT_PENALTY_SLIP, _LOGISTIC)
