r"""What the Section 3 risk modules of features-are-fate share.

The budgets of the symbolic steps, the float64 rounding bound of the
evaluators of :mod:`implicit_bias.numerics.transfer_risks`, the symbols of
:mod:`implicit_bias.theory.transfer_risks` and the regime of Theorems 3.6-3.9
(Assumptions 3.1-3.2, the proportional limit), for :mod:`.theorem_3_6`,
:mod:`.theorem_3_7` and :mod:`.theorems_3_8_3_9`.
"""

from __future__ import annotations

import sympy as sp

from implicit_bias.claims.engine import (
    Basis,
    Reason,
    Status,
    Verdict,
)
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.theory import transfer_risks as tr


#: Seconds a symbolic step may take before the check gives up (inconclusive).
#: The slowest step (a Gaussian integral) takes ~2 s on an idle core; the margin
#: is for a loaded machine.
_STEP_SECONDS = 25.0
#: Budget of each claim: every check takes under ~3 s on an idle core.
_BUDGET = 30.0
#: Float64 unit roundoff.
_U = 2.0**-53
#: Absolute error bound of the evaluators, in units of u times the size of the
#: terms (each evaluator is <= 8 correctly rounded operations plus one sin or
#: cos within 1 ulp; see implicit_bias.numerics.transfer_risks).
_ULPS = 16.0

_GAMMA, _SIGMA, _THETA = tr.gamma, tr.sigma, tr.theta
_SIN2 = sp.sin(_THETA) ** 2
_COS2 = sp.cos(_THETA) ** 2


def _claim_id(equation: str, label: str) -> str:
    return f"{SOURCE_ID}:{equation}:{label}"


def _numerical_or_undecided(verdict: Verdict) -> Verdict:
    """``verdict`` of a floating-point comparison with a closed form, except that
    a miss refutes nothing without a certificate: a ``fails`` becomes
    ``inconclusive`` (``Reason.UNDECIDED``)."""
    if verdict.status != Status.FAILS:
        return verdict
    return Verdict.inconclusive(
        f"{verdict.detail}; outside the rounding bound in floating point, not "
        "certified",
        Reason.UNDECIDED,
        Basis.NUMERICAL,
    )


_DEEP_LINEAR = ("Assumptions 3.1-3.2", "n, d -> oo with gamma = n/d fixed")
_OVER = (*_DEEP_LINEAR, "0 < gamma < 1")
