r"""Statements about independent repeats of an experiment: "not consistently below".

A source may say that a method "does not consistently" reach some level --
its repeats are not all below a bound. One repeat at or above the bound shows
that; the opposite, *consistently below*, needs more than every repeat being
below, which two repeats are by chance one time in four: the shortfall must be
systematic, its mean beyond chance. :func:`check_not_consistently_below`
decides the statement both ways, with the number of standard errors it
refutes at written down.

The threshold is the one-sided Student-t critical value with :math:`R - 1`
degrees of freedom at the tail probability of ``standard_errors`` normal
standard errors, :math:`\Phi(-z)`: a mean of few repeats carries its own
uncertainty in the standard deviation, and :math:`z` normal standard errors
would refute far too easily (3 SE is :math:`p \approx 0.10` for two repeats,
not 0.0013). For :math:`z = 3`, :math:`t^* = 235.8` for :math:`R = 2`,
6.62 for :math:`R = 5` and 3.36 for :math:`R = 24`.
"""

from __future__ import annotations

import math
import statistics

import numpy as np
import numpy.typing as npt

from implicit_bias.claims.engine import Basis, Reason, Verdict
from implicit_bias.claims.mutation_hooks import bias_injected, shift_against_claim
from implicit_bias.claims.recording import note_comparison
from implicit_bias.errors import InvalidArgumentError

__all__ = ["check_not_consistently_below", "student_t_critical"]


def student_t_critical(repeats: int, standard_errors: float = 3.0) -> float:
    r"""The one-sided Student-t critical value of a mean of ``repeats`` repeats.

    .. math:: t^* = F^{-1}_{t,\,R-1}\bigl(1 - \Phi(-z)\bigr)

    with :math:`R` ``repeats`` and :math:`z` ``standard_errors``: a mean
    beyond :math:`t^*` standard errors has the one-sided p-value that a
    normal mean beyond :math:`z` has.

    Args:
      repeats: :math:`R \ge 2`, the independent repeats averaged.
      standard_errors: :math:`z > 0`.

    Raises:
      InvalidArgumentError: ``repeats`` is not an integer >= 2 or
        ``standard_errors`` not a finite number > 0.

    Examples:
      >>> round(student_t_critical(5), 2), round(student_t_critical(2), 1)
      (6.62, 235.8)
    """
    if isinstance(repeats, bool) or not isinstance(repeats, int | np.integer):
        raise InvalidArgumentError(f"repeats={repeats!r} is not an integer")
    if repeats < 2:
        raise InvalidArgumentError(
            f"repeats={repeats} must be >= 2: a standard error needs two repeats"
        )
    z = _positive("standard_errors", standard_errors)
    from scipy import stats  # here: importing scipy.stats takes ~0.3 s

    tail = statistics.NormalDist().cdf(-z)
    return float(stats.t.isf(tail, int(repeats) - 1))


def check_not_consistently_below(
    values: npt.ArrayLike,
    bound: float,
    *,
    standard_errors: float = 3.0,
    what: str = "value",
) -> Verdict:
    r"""Decide that independent repeats are *not consistently* below ``bound``.

    With :math:`X_1, \dots, X_R` the repeats, :math:`b` ``bound``, the
    shortfall :math:`\bar d = b - \bar X` and its standard error
    :math:`s/\sqrt R`:

    * ``holds`` (basis search) when some :math:`X_r \ge b`: a repeat that
      is not below;
    * ``fails`` (basis statistical) when every :math:`X_r < b` and

      .. math:: \bar d > t^*\,\frac{s}{\sqrt R},\qquad
                s^2 = \frac{1}{R-1}\sum_r (X_r - \bar X)^2,

      :math:`t^*` = :func:`student_t_critical` ``(R, standard_errors)``:
      below in every repeat, and systematically;
    * ``inconclusive`` otherwise: (``Reason.STATISTICAL``) every repeat
      below but the shortfall within :math:`t^*` SE, one repeat only (no
      standard error), or every repeat equal (:math:`s = 0` bounds nothing);
      (``Reason.NON_FINITE``) a repeat or the bound is not finite.

    Under :func:`~implicit_bias.claims.mutation_hooks.injected_bias` the
    repeats are first moved :math:`|\mathrm{factor}|\,t^*\,s/\sqrt R`
    down, toward "consistently below" (two repeats or more).

    The evidence states the mean shortfall, its SE, the effect in SE, the
    threshold, the one-sided p-value, and the sign test's
    :math:`2^{-R}` (the chance that R repeats of a median at the bound all
    fall below).

    Args:
      values: the repeats, one-dimensional, :math:`R \ge 1`.
      bound: :math:`b`.
      standard_errors: :math:`z > 0`, the normal standard errors whose tail
        probability the refutation must reach.
      what: names the repeated quantity in the evidence.

    Raises:
      InvalidArgumentError: no repeat, a repeat that is not real,
        a ``bound`` that is not a real number, or ``standard_errors`` not a
        finite number > 0.

    Examples:
      >>> check_not_consistently_below([0.4, 1.1], 1.0).status
      <Status.HOLDS: 'holds'>
      >>> check_not_consistently_below([0.43, 0.35, 0.41, 0.39, 0.39], 1.0).status
      <Status.FAILS: 'fails'>
      >>> check_not_consistently_below([0.68, 0.5], 1.0).status
      <Status.INCONCLUSIVE: 'inconclusive'>
    """
    repeats = _repeats(values)
    z = _positive("standard_errors", standard_errors)
    try:
        level = float(bound)
    except (TypeError, ValueError) as refusal:
        raise InvalidArgumentError(
            f"bound={bound!r} is not a real number: the level the repeats are "
            "compared with"
        ) from refusal
    if not (np.all(np.isfinite(repeats)) and math.isfinite(level)):
        return Verdict.inconclusive(
            f"{what}: {int(np.sum(~np.isfinite(repeats)))} of {repeats.size} "
            f"repeats are not finite (bound {level})",
            Reason.NON_FINITE,
            Basis.STATISTICAL,
        )
    count = repeats.size
    spread = float(np.std(repeats, ddof=1)) if count > 1 else 0.0
    if spread > 0:
        note_comparison()
        if bias_injected():
            # What mutation testing shifts (toward "consistently below"): the
            # repeats, by its factor times the refutation threshold t* SE.
            repeats = repeats + shift_against_claim(
                student_t_critical(count, z) * spread / math.sqrt(count)
            )
    above = repeats >= level
    if np.any(above):
        return Verdict.holds(
            f"{what}: {int(np.sum(above))} of {count} repeats at or above {level:g} "
            f"(the largest {float(np.max(repeats)):.6g}), so not below in every "
            "repeat",
            Basis.SEARCH,
        )
    shortfall = level - float(np.mean(repeats))
    sign_test = f"sign test p = 2^-{count} = {2.0**-count:.3g}"
    if count == 1:
        return Verdict.inconclusive(
            f"{what}: the one repeat, {float(repeats[0]):.6g}, is below {level:g}; "
            "one repeat has no standard error",
            Reason.STATISTICAL,
            Basis.STATISTICAL,
        )
    error = float(np.std(repeats, ddof=1) / math.sqrt(count))
    if error == 0:
        return Verdict.inconclusive(
            f"{what}: all {count} repeats equal {float(repeats[0]):.6g}, below "
            f"{level:g}; their standard error is 0 and bounds nothing ({sign_test})",
            Reason.STATISTICAL,
            Basis.STATISTICAL,
        )
    from scipy import stats  # here: importing scipy.stats takes ~0.3 s

    critical = student_t_critical(count, z)

    effect = shortfall / error
    p_value = float(stats.t.sf(effect, count - 1))
    detail = (
        f"{what}: below {level:g} in all {count} repeats ({sign_test}); mean "
        f"shortfall {shortfall:.4g} +- {error:.3g} (SE), {effect:.2f} SE, one-sided "
        f"p = {p_value:.3g} (Student t, df = {count - 1}); refuted "
        f"beyond {critical:.3g} SE (the tail of {z:g} normal SE, "
        f"p = {statistics.NormalDist().cdf(-z):.3g})"
    )
    if effect > critical:
        return Verdict.fails(
            detail,
            Basis.STATISTICAL,
            f"every one of {count} repeats below {level:g}, mean shortfall "
            f"{shortfall:.4g} +- {error:.3g} (SE) = {effect:.2f} SE > {critical:.3g}",
        )
    return Verdict.inconclusive(
        f"{detail}: not beyond it, so not shown systematic",
        Reason.STATISTICAL,
        Basis.STATISTICAL,
    )


def _positive(name: str, value: float) -> float:
    if isinstance(value, bool) or not isinstance(
        value, int | float | np.integer | np.floating
    ):
        raise InvalidArgumentError(f"{name}={value!r} is not a real number")
    if not (math.isfinite(value) and value > 0):
        raise InvalidArgumentError(f"{name}={value!r} must be finite and > 0")
    return float(value)


def _repeats(values: npt.ArrayLike) -> np.ndarray:
    array = np.asarray(values)
    if np.iscomplexobj(array) or not np.issubdtype(array.dtype, np.number):
        raise InvalidArgumentError("values must be an array of real numbers")
    if array.ndim != 1:
        raise InvalidArgumentError(
            f"values must be one-dimensional (one per repeat), got shape {array.shape}"
        )
    if array.size < 1:
        raise InvalidArgumentError("values is empty: there is no repeat to judge")
    return array.astype(np.float64)
