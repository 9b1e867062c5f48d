r"""Section 3 of the note, the claim: gradient descent finds the balanced factors.

* eq. (8): from the small balanced start of eq. (7), gradient descent ends at
  :math:`a = b = \sqrt{y}`, where weight decay on the factors equals the
  :math:`\ell_1` penalty :math:`y` of the product -- the equality case of (4).
"""

from __future__ import annotations

import numpy as np

from balance_note.setting import ALPHA, SOURCE_ID, STEP_SIZE, STEPS, TARGET
from balance_note.simulation import factor_descent
from implicit_bias.claims import (
    Claim,
    Kind,
    Reading,
    Status,
    Verdict,
    check_close,
    conjunction,
)

__all__ = ["CLAIMS", "TOLERANCE"]

#: The note's "to within 1e-10" of eq. (8): far above the rounding of 500
#: steps (a few 1e-16 each, contracting by 1 - 8 eta near the minimum) and far
#: below any distance a wrong limit would leave.
TOLERANCE = 1e-10


def _check_balanced_limit() -> Verdict:
    final = factor_descent(TARGET, (ALPHA, ALPHA), STEP_SIZE, STEPS)[-1]
    penalty = float(final @ final) / 2.0
    root = np.sqrt(TARGET)
    verdicts = [
        check_close(final, [root, root], TOLERANCE, what="(a, b) after 500 steps"),
        check_close(penalty, TARGET, TOLERANCE, what="(a^2 + b^2)/2"),
    ]
    return conjunction(
        verdicts,
        f"gradient descent, eta = {STEP_SIZE}, from a = b = {ALPHA:g}: "
        f"(a, b) = {final.tolist()}, (a^2 + b^2)/2 = {penalty!r} against "
        f"sqrt(y) = {root!r} and y = {TARGET!r}",
    )


_BALANCED_LIMIT = Claim(
    source=SOURCE_ID,
    equation="8",
    label="balanced-limit",
    kind=Kind.SIMULATION,
    statement=(
        r"gradient descent from $a(0) = b(0) = 10^{-3}$ ends at "
        r"$a = b = \sqrt{y}$, where $(a^2 + b^2)/2 = y$: the equality case of (4)"
    ),
    check=_check_balanced_limit,
    expected=Status.HOLDS,
    assumptions=(r"$y = 4$, $\eta = 1/20$, 500 steps",),
    quote=r"$a = b = \sqrt{y} = 2$ and $(a^2 + b^2)/2 = y$",
    reading=Reading.PRINTED,
    regime="experiment",
)

#: The claims of Section 3.
CLAIMS = (_BALANCED_LIMIT,)
