r"""Tolerances and verdict helpers shared by the Appendix-B claims of features-are-fate.

Used by :mod:`.random_matrix`, :mod:`.linear_transfer`, :mod:`.appendix_b7`,
:mod:`.appendix_b7_limits` and :mod:`.finetuning`.

Tolerances. A Monte Carlo mean must lie within 4 standard errors of the exact
value (a two-sided normal probability of 6e-5 of failing by chance; seeds are
fixed). A convergence rate is the least-squares slope of
:math:`\log|\text{finite}-\text{limit}|` against :math:`\log n`; with
:math:`\text{finite}-\text{limit} = c_1/n + c_2/n^2 + O(n^{-3})` the local
slope is :math:`-1 - \frac{c_2/(c_1 n)}{1 + c_2/(c_1n)}`, and the fitted slope
may differ from -1 by twice the largest such deviation over the range (the
factor 2 covering the :math:`O(n^{-3})` remainder). The stronger check
:math:`|n(\text{finite}-\text{limit}) - c_1|\le 2|c_2|/n` uses the same
coefficients. Gradient descent is a first-order discretization of the flow:
its endpoint error must have observed order in the step size within 0.15 of 1.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import sympy as sp


from implicit_bias.claims.checks import check_close
from implicit_bias.claims.engine import Basis, Reason, Status, Verdict, conjunction
from implicit_bias.claims.estimates import check_mean
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.theory import transfer_asymptotics as theory
from implicit_bias.validation.transfer_experiments import MeanComparison

#: Monte Carlo means must be within this many standard errors of the exact value.
STANDARD_ERRORS = 4.0
#: Observed order of gradient descent's step-size error must be within this of 1.
ORDER_TOLERANCE = 0.15


def claim_id(equation: str, label: str) -> str:
    """The id of this source's claim ``label`` of eq. ``equation``."""
    return f"{SOURCE_ID}:{equation}:{label}"


def holds_if(ok: bool, detail: str, basis: Basis) -> Verdict:
    """HOLDS with ``detail`` if ``ok``, else FAILS with it, on ``basis``.

    Only for evidence that may refute on that basis (an exact computation, a
    simulation whose effect is beyond the stated standard errors); a
    floating-point comparison of closed forms refutes nothing without a
    certificate: use :func:`holds_or_undecided` for it.
    """
    return Verdict.decide(ok, detail, basis)


def holds_or_undecided(ok: bool, detail: str, basis: Basis) -> Verdict:
    """HOLDS on ``basis`` if ``ok``, else INCONCLUSIVE (``Reason.UNDECIDED``).

    For floating-point evidence about closed forms (a fitted rate, a sampled
    difference): a miss there is not a certified counterexample.
    """
    if ok:
        return Verdict.holds(detail, basis)
    return Verdict.inconclusive(
        f"{detail}; outside the tolerance in floating point, not certified",
        Reason.UNDECIDED,
        basis,
    )


def as_asymptotics_symbols(expression: sp.Expr) -> sp.Expr:
    """Rewrite another theory module's symbols as transfer_asymptotics', by name."""
    ours = {
        s.name: s
        for s in (
            theory.n,
            theory.d,
            theory.gamma_ratio,
            theory.lam,
            theory.theta,
            theory.sigma,
        )
    }
    return expression.xreplace(
        {s: ours[s.name] for s in expression.free_symbols if s.name in ours}
    )


def rate_verdict(
    sizes: np.ndarray,
    difference: np.ndarray,
    first: float,
    second: float,
    label: str,
) -> Verdict:
    """Whether ``difference`` (finite - limit at ``sizes``) decays as c1/n + c2/n^2.

    ``first``, ``second`` are c1, c2; the tolerances are the module docstring's.
    ``holds`` on a numerical basis (floating-point evaluation of closed forms);
    a miss is ``inconclusive`` (``Reason.UNDECIDED``), not a certified ``fails``.
    """
    if first == 0 or second == 0:
        return Verdict.inconclusive(
            f"{label}: c1 = {first:g}, c2 = {second:g}; the rate test needs both "
            "nonzero (choose other parameters)",
            Reason.UNDECIDED,
        )
    slope = float(np.polyfit(np.log(sizes), np.log(np.abs(difference)), 1)[0])
    ratio = second / (first * sizes)
    tolerance = 2 * float(np.max(np.abs(ratio / (1 + ratio))))
    scaled = sizes * difference
    bound = 2 * abs(second) / sizes
    # The decisive comparison |n (finite - limit) - c1| <= 2|c2|/n goes through
    # check_close (so mutation testing can shift it); the slope is a fit.
    close = check_close(
        scaled, first, bound, what=f"{label}: n (finite - limit) against c1"
    )
    ok = abs(slope + 1) <= tolerance and close.status == Status.HOLDS
    detail = (
        f"{label}: n = {sizes.astype(int).tolist()}; |finite - limit| (float64) = "
        f"{np.array2string(np.abs(difference), precision=3)}; fitted log-log slope "
        f"{slope:.5f} vs predicted -1 (tolerance {tolerance:.2g} from c2/c1); "
        f"n(finite - limit) = {np.array2string(scaled, precision=5)} vs c1 = "
        f"{first:.5f} (tolerance 2|c2|/n, c2 = {second:.4g})"
    )
    return holds_or_undecided(ok, detail, Basis.NUMERICAL)


def mean_close(comparison: MeanComparison, what: str) -> Verdict:
    """A Monte-Carlo mean against its prediction through
    :func:`~implicit_bias.claims.checks.check_close` on a statistical basis:
    within ``z`` standard errors plus the comparison's bias bound (the
    tolerance of :attr:`MeanComparison.agrees`)."""
    tolerance = comparison.z * comparison.standard_error + comparison.bias_bound
    return check_close(
        comparison.mean,
        comparison.predicted,
        tolerance,
        what=what,
        basis=Basis.STATISTICAL,
    )


def draws_close(
    draws: npt.ArrayLike, exact: float, *, standard_errors: float, what: str
) -> tuple[Verdict, str]:
    """The mean of Monte-Carlo draws against an exact value, within
    ``standard_errors`` standard errors of the mean
    (:func:`~implicit_bias.claims.estimates.check_mean`); also ``"mean +- se"``
    for the evidence."""
    values = np.asarray(draws, dtype=np.float64)
    mean = float(values.mean())
    error = float(values.std(ddof=1) / np.sqrt(values.size))
    verdict = check_mean(values, exact, standard_errors=standard_errors, what=what)
    return verdict, f"{mean:.4f} +- {error:.4f}"


def all_hold(verdicts: dict[str, Verdict]) -> Verdict:
    """Combine named sub-verdicts: the first that fails, else the first undecided,
    else holds on the weakest basis of the parts (see :func:`conjunction`)."""
    for status in (Status.FAILS, Status.INCONCLUSIVE):
        for name, verdict in verdicts.items():
            if verdict.status == status:
                return verdict.with_detail(f"{name}: {verdict.detail}")
    return conjunction(
        list(verdicts.values()),
        "; ".join(f"{n}: {v.detail}" for n, v in verdicts.items()),
    )
