"""Comparisons of computed values within a tolerance derived from theory.

:func:`check_close` decides ``|observed - reference| <= tolerance`` over
arrays; :func:`close_or_undecided` is the same on floating-point evidence
about a closed form, where a miss is no certified counterexample;
:func:`check_positive` decides that a value is positive beyond its
resolution (a mean difference beyond :math:`t^*` standard errors). Each
comparison is counted for ``implicit-bias mutate``, which shifts what they
compare (:func:`~implicit_bias.claims.mutation_hooks.injected_bias`).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from implicit_bias.claims.engine import Basis, Reason, Status, Verdict
from implicit_bias.claims.mutation_hooks import _INSTRUMENTATION, shift_against_claim
from implicit_bias.claims.recording import note_comparison
from implicit_bias.errors import InvalidArgumentError

__all__ = ["check_close", "check_positive", "close_or_undecided"]


def check_close(
    observed: npt.ArrayLike,
    reference: npt.ArrayLike,
    tolerance: npt.ArrayLike,
    *,
    what: str,
    relative: bool = False,
    basis: Basis = Basis.NUMERICAL,
) -> Verdict:
    r"""Decide :math:`|\mathrm{observed} - \mathrm{reference}| \le \mathrm{tol}`
    everywhere (relative: :math:`\le \mathrm{tol}\,|\mathrm{reference}|`).

    The tolerance must come from theory (rounding, a method's error order,
    ``z`` standard errors, with ``basis=Basis.STATISTICAL``); arrays broadcast.
    ``holds`` when every difference is within it; ``fails`` at the worst
    entry otherwise; ``inconclusive`` (``Reason.NON_FINITE``) when a value is
    not finite. ``what`` names the compared quantity in the evidence.

    Under :func:`injected_bias` the observed value is first shifted by a
    given number of tolerances, so mutation testing can ask whether a claim
    notices an error of that size.
    """
    raw = [np.asarray(v) for v in (observed, reference, tolerance)]
    complex_values = [v for v in raw if np.iscomplexobj(v) and np.any(np.imag(v))]
    if complex_values:
        return Verdict.inconclusive(
            f"{what}: a compared value or tolerance is complex, where a real is due",
            Reason.NON_FINITE,
        )
    observed_array, reference_array, tolerance_array = np.broadcast_arrays(
        *(np.real(v).astype(np.float64) for v in raw)
    )
    if np.any(tolerance_array < 0):
        raise InvalidArgumentError(
            f"tolerance: must be >= 0 (a derived bound), got {tolerance_array.min()}"
        )
    bound = tolerance_array * (np.abs(reference_array) if relative else 1.0)
    if np.any(bound != 0):
        note_comparison()
    injection = _INSTRUMENTATION.injection
    if injection is not None:
        shifted = observed_array + injection.factor * bound
        # A shift of 0, or one rounding swallows, cannot be noticed.
        if np.any(shifted != observed_array):
            injection.comparisons += 1
        observed_array = shifted
    values = (observed_array, reference_array, bound)
    if not all(np.all(np.isfinite(v)) for v in values):
        bad = int(np.sum(~np.isfinite(observed_array) | ~np.isfinite(reference_array)))
        bad_bounds = int(np.sum(~np.isfinite(bound)))
        return Verdict.inconclusive(
            f"{what}: {bad} of {observed_array.size} compared values and "
            f"{bad_bounds} tolerances are not finite",
            Reason.NON_FINITE,
        )
    excess = np.abs(observed_array - reference_array) - bound
    worst = int(np.argmax(excess)) if excess.size else 0
    if excess.size == 0:
        return Verdict.inconclusive(f"{what}: nothing to compare", Reason.UNDECIDED)
    flat = [a.ravel()[worst] for a in (observed_array, reference_array, bound)]
    kind = "relative " if relative else ""
    detail = (
        f"{what}: max |observed - reference| over {excess.size} values "
        f"(float64) is "
        f"{np.max(np.abs(observed_array - reference_array)):.3g}; at the worst, "
        f"{flat[0]:.10g} against {flat[1]:.10g} with {kind}tolerance "
        f"{tolerance_array.ravel()[worst]:.3g}"
    )
    if excess[np.unravel_index(worst, excess.shape)] <= 0:
        return Verdict.holds(detail, basis)
    return Verdict.fails(
        detail,
        basis,
        f"{what} = {flat[0]:.10g}, reference {flat[1]:.10g}, beyond {flat[2]:.3g}",
    )


def close_or_undecided(
    observed: npt.ArrayLike,
    reference: npt.ArrayLike,
    tolerance: npt.ArrayLike,
    *,
    what: str,
    relative: bool = False,
) -> Verdict:
    """:func:`check_close` on a numerical basis, for floating-point evidence about
    a closed form: a miss is ``inconclusive`` (``Reason.UNDECIDED``), not a
    ``fails`` (a float outside its tolerance is no certified counterexample to a
    closed-form statement)."""
    verdict = check_close(observed, reference, tolerance, what=what, relative=relative)
    if verdict.status != Status.FAILS:
        return verdict
    return Verdict.inconclusive(
        f"{verdict.detail}; outside the tolerance in floating point, not certified",
        Reason.UNDECIDED,
        Basis.NUMERICAL,
    )


def check_positive(
    value: float,
    resolution: float,
    *,
    what: str,
    refutable: bool = True,
    basis: Basis = Basis.STATISTICAL,
) -> Verdict:
    r"""Decide :math:`v > 0` from an estimate :math:`v` known to :math:`\pm r`.

    ``holds`` when :math:`v > r`; ``fails`` when :math:`v < -r` and
    ``refutable`` (a caller passes False when its evidence cannot refute,
    e.g. runs that did not converge); ``inconclusive`` (``Reason.STATISTICAL``
    for a statistical basis, else ``Reason.UNDECIDED``) in between, or when
    :math:`v` or :math:`r` is not finite (``Reason.NON_FINITE``). The
    resolution comes from theory: for a mean of paired differences,
    :math:`r = t^*\,s_D/\sqrt S`.

    Under :func:`~implicit_bias.claims.mutation_hooks.injected_bias`,
    :math:`v` is first moved :math:`|\mathrm{factor}|\,r` toward refutation
    (:func:`~implicit_bias.claims.mutation_hooks.shift_against_claim`).

    Raises:
      InvalidArgumentError: ``resolution`` is negative.

    Examples:
      >>> check_positive(0.5, 0.1, what="gap").status
      <Status.HOLDS: 'holds'>
      >>> check_positive(-0.5, 0.1, what="gap").status
      <Status.FAILS: 'fails'>
      >>> check_positive(0.05, 0.1, what="gap").status
      <Status.INCONCLUSIVE: 'inconclusive'>
    """
    estimate, bound = float(value), float(resolution)
    if bound < 0:
        raise InvalidArgumentError(
            f"resolution: must be >= 0 (a derived bound), got {bound}"
        )
    if not (math.isfinite(estimate) and math.isfinite(bound)):
        return Verdict.inconclusive(
            f"{what}: {estimate} against resolution {bound}: not finite",
            Reason.NON_FINITE,
            basis,
        )
    if bound != 0:
        note_comparison()
    estimate += shift_against_claim(bound)
    detail = f"{what} = {estimate:.6g}, resolution {bound:.3g}"
    if estimate > bound:
        return Verdict.holds(f"{detail}: positive beyond it", basis)
    if estimate < -bound and refutable:
        return Verdict.fails(
            f"{detail}: negative beyond it",
            basis,
            f"{what} = {estimate:.6g} < -{bound:.3g}",
        )
    reason = Reason.STATISTICAL if basis == Basis.STATISTICAL else Reason.UNDECIDED
    return Verdict.inconclusive(
        f"{detail}: "
        + (
            "within it"
            if abs(estimate) <= bound
            else "negative beyond it, not refutable"
        ),
        reason,
        basis,
    )
