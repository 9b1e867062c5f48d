r"""Section 3 of the note, the code: gradient descent on a product of two weights.

Plain NumPy; the claim of :mod:`balance_note.experiment` compares what it
produces with the note's prediction.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from implicit_bias.errors import InvalidArgumentError

__all__ = ["factor_descent"]


def factor_descent(
    target: float, start: tuple[float, float], step_size: float, steps: int
) -> NDArray[np.float64]:
    r"""Gradient descent on :math:`L(a, b) = (ab - y)^2/2`, eq. (7).

    .. math:: a_{k+1} = a_k - \eta(a_k b_k - y)\,b_k,\qquad
              b_{k+1} = b_k - \eta(a_k b_k - y)\,a_k

    Args:
      target: :math:`y`, a finite number.
      start: :math:`(a_0, b_0)`, finite.
      step_size: :math:`\eta > 0`.
      steps: the number of steps, at least 1.

    Returns:
      The iterates :math:`(a_k, b_k)`, :math:`k = 0, \dots,` ``steps``, shape
      ``(steps + 1, 2)``.

    Raises:
      InvalidArgumentError: an argument outside its domain (named).

    Examples:
      >>> factor_descent(1.0, (1.0, 0.0), 0.5, 1).tolist()
      [[1.0, 0.0], [1.0, 0.5]]
    """
    if not np.isfinite(target):
        raise InvalidArgumentError(f"target={target!r} is not a finite number")
    if len(start) != 2 or not np.all(np.isfinite(start)):
        raise InvalidArgumentError(
            f"start={start!r} is not two finite weights (a_0, b_0)"
        )
    if not (np.isfinite(step_size) and step_size > 0):
        raise InvalidArgumentError(f"step_size={step_size!r} is not a number > 0")
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
        raise InvalidArgumentError(f"steps={steps!r} is not an integer >= 1")
    iterates = np.empty((steps + 1, 2))
    iterates[0] = start
    for k in range(steps):
        first, second = iterates[k]
        residual = first * second - target
        iterates[k + 1] = (
            first - step_size * residual * second,
            second - step_size * residual * first,
        )
    return iterates
