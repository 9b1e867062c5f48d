r"""A value between two derived bounds: :math:`\ell \le x \le u`, through check_close.

Many numeric statements are one-sided -- a step of an increasing function is
positive, a seed mean lies beyond :math:`z` standard errors of a threshold --
yet the quantity they are about has a range that theory gives on the other
side too: a difference of values of a function whose slope lies in
:math:`[0, 1]` lies in :math:`[0, \Delta u]`; a share of a total lies in
:math:`[0, 1]`; a cosine of two positive semidefinite matrices lies in
:math:`[0, 1]`. :func:`check_within` decides :math:`\ell \le x \le u` with
such bounds, as :func:`~implicit_bias.claims.checks.check_close` of the
midpoint with the half-width as tolerance,

.. math:: \ell \le x \le u \iff \left|x - \tfrac{\ell + u}{2}\right|
          \le \tfrac{u - \ell}{2},

so that ``implicit-bias mutate`` (:func:`~implicit_bias.claims.checks.injected_bias`)
shifts the compared value by multiples of the half-width and asks whether the
claim notices an error of the size of its interval. Rounding of the compared
values (a documented accuracy contract) widens the interval on both sides.

Examples:
  >>> check_within([0.2, 0.7], 0.0, 1.0, what="shares").status
  <Status.HOLDS: 'holds'>
  >>> check_within(1.5, 0.0, 1.0, what="a share").status
  <Status.FAILS: 'fails'>
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from implicit_bias.claims.checks import check_close
from implicit_bias.claims.engine import Basis, Verdict
from implicit_bias.errors import InvalidArgumentError

__all__ = ["check_within"]


def check_within(
    observed: npt.ArrayLike,
    lower: npt.ArrayLike,
    upper: npt.ArrayLike,
    *,
    what: str,
    rounding: npt.ArrayLike = 0.0,
    basis: Basis = Basis.NUMERICAL,
) -> Verdict:
    r"""Decide :math:`\ell - r \le x \le u + r` everywhere (arrays broadcast).

    .. math:: \left|x - \tfrac{\ell + u}{2}\right| \le \tfrac{u - \ell}{2} + r

    Args:
      observed: the values :math:`x`.
      lower, upper: the bounds :math:`\ell \le u` theory gives (finite; a
        one-sided statement takes the other side from the quantity's range).
      what: names the compared quantity in the evidence.
      rounding: :math:`r \ge 0`, the error the compared values may carry
        (0 for exact values).
      basis: the verdict's basis (``Basis.STATISTICAL`` for bounds in
        standard errors).

    Returns:
      ``holds`` when every value lies in its interval; ``fails`` at the worst
      value otherwise; ``inconclusive`` (``Reason.NON_FINITE``) when a value
      or bound is not finite -- the verdicts of
      :func:`~implicit_bias.claims.checks.check_close`, its evidence opening
      on the interval.

    Raises:
      InvalidArgumentError: a lower bound above its upper bound, or a
        negative ``rounding``.

    Examples:
      >>> check_within(0.4, [0.0, 0.5], [0.5, 1.0], what="x").status
      <Status.FAILS: 'fails'>
      >>> check_within(1.0 + 1e-12, 0.0, 1.0, what="x", rounding=1e-10).status
      <Status.HOLDS: 'holds'>
    """
    low, high, error = (
        np.asarray(bound, dtype=np.float64) for bound in (lower, upper, rounding)
    )
    if np.any(low > high):
        raise InvalidArgumentError(
            f"lower, upper: the lower bound must not exceed the upper one, got "
            f"{low.ravel()[np.argmax((low > high).ravel())]!r} > "
            f"{high.ravel()[np.argmax((low > high).ravel())]!r}"
        )
    if np.any(error < 0):
        raise InvalidArgumentError(
            f"rounding: an error bound >= 0, got {float(error.min())!r}"
        )
    verdict = check_close(
        observed,
        (low + high) / 2.0,
        (high - low) / 2.0 + error,
        what=f"{what} (midpoint of its interval)",
        basis=basis,
    )
    values = np.asarray(observed, dtype=np.float64)
    widened = f" widened by {float(np.max(error)):.3g}" if np.any(error > 0) else ""
    if values.size == 1 and low.size == 1 and high.size == 1:
        shown = (
            f"{what} = {float(values.ravel()[0]):.6g} in [{float(low.ravel()[0]):.6g}, "
            f"{float(high.ravel()[0]):.6g}]{widened}"
        )
    elif values.size and bool(np.all(np.isfinite(values))):
        shown = (
            f"{what}: {values.size} values from {float(values.min()):.6g} to "
            f"{float(values.max()):.6g}, each in its interval [lower, upper]"
            f"{widened} (lower from {float(low.min()):.6g}, upper to "
            f"{float(high.max()):.6g})"
        )
    else:
        shown = what
    return verdict.with_detail(f"{shown}; {verdict.detail}")
