r"""What the Section 4 and Appendix C modules of features-are-fate share.

Conventions. Inputs :math:`x\sim\mathcal N(0, I_d)` (the paper's). The model's
kernel is :math:`k(x,x') = \frac1m\sum_i\sigma(w_i^\top x)\sigma(w_i^\top x')`, so
that :math:`K = G/m` with :math:`G_{ij} = \langle\sigma_i,\sigma_j\rangle_{L_2}`
(eq. (154)). Monte-Carlo comparisons accept :math:`|z| \le 5` standard errors
per entry: with at most ~100 entries per check, a correct formula fails with
probability below :math:`10^{-4}` (and the seeds are fixed); a formula off by
even :math:`10^{-3}` relative fails by hundreds of standard errors at these
sample sizes.

Used by :mod:`.section_4`, :mod:`.appendix_c` and :mod:`.appendix_c_mercer`.
"""

from __future__ import annotations

from collections.abc import Callable

from implicit_bias.claims.engine import (
    Basis,
    Reason,
    Verdict,
)
from implicit_bias.sources.features_are_fate._costs import (
    MonteCarloDraws,
)
from implicit_bias.sources.features_are_fate.source import SOURCE_ID


#: Largest accepted |Monte Carlo - closed form| in standard errors (module docstring).
_Z_MAX = 5.0


def _claim_id(equation: str, label: str) -> str:
    return f"{SOURCE_ID}:{equation}:{label}"


def _verdict(ok: bool, detail: str, basis: Basis) -> Verdict:
    """``holds`` or ``fails`` on ``basis``: for Monte-Carlo comparisons with a
    stated number of standard errors, and for checks of this package's code."""
    return Verdict.decide(ok, detail, basis)


def _replicated(ok: bool, detail: str, basis: Basis) -> Verdict:
    """``holds`` on ``basis`` if ``ok``; else our protocol did not reproduce the
    statement, which refutes nothing: ``inconclusive`` (``Reason.STATISTICAL``)."""
    if ok:
        return Verdict.holds(detail, basis)
    return Verdict.inconclusive(
        f"{detail}; not reproduced by this protocol (not evidence against it)",
        Reason.STATISTICAL,
        basis,
    )


def _inputs(check: Callable[[int], Verdict], what: str) -> MonteCarloDraws:
    """The cost of a check's 4e5 Gaussian inputs, timed on 1e5 of them.

    Timed on 1e4 the cost of (158)-(159)'s was a third of the real one: its
    arrays (4e5 x 12 features) fall out of the cache that 1e4 inputs fit.
    """
    return MonteCarloDraws(check, 400_000, timed=100_000, what=what)
