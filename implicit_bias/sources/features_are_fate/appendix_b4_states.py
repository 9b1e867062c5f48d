r"""States where step (87) of features-are-fate, Appendix B.4, is an equality.

(87) bounds :math:`-\sigma_{\min}^2(W_{L-1}^\top\cdots W_1^\top)\,\|v\|^2` by
:math:`-(\alpha^2\lambda)^{L-1}\|v\|^2`, :math:`v = X^\top P_\parallel r`, on
weights with :math:`D_l = W_l^\top W_l - W_{l+1}W_{l+1}^\top \succeq
\alpha^2\lambda I` ((22), kept by (35)). At random states the two sides are far
apart, and an error in :math:`v` on one side is lost in the slack. Two kinds of
state close it, both inside the hypotheses:

* :func:`equality_states` (:math:`L = 2`): :math:`D_1 = \alpha^2\lambda I`
  exactly, the equality case of (22), so :math:`W_1^\top W_1 = W_2 W_2^\top +
  \alpha^2\lambda I` has smallest eigenvalue :math:`\alpha^2\lambda` and (87)
  is an equality for every :math:`v`. With :math:`s^2 + p^2 + q^2 = t^2` (a
  Pythagorean quadruple, :math:`(a^2 + b^2 - c^2, 2ac, 2bc, a^2 + b^2 + c^2)`),
  :math:`W_2 = (p, q)^\top`, :math:`\alpha^2\lambda = s^2` and
  :math:`W_1 = R\,(sI + (t - s)W_2W_2^\top/\|W_2\|^2)` with :math:`R` a rational
  rotation: every entry rational. (At :math:`L = 3`, :math:`\sigma_{\min}^2
  \ge 2(\alpha^2\lambda)^2` whenever :math:`D_l \succeq \alpha^2\lambda I`, so
  (87) is never an equality there unless :math:`v = 0`.)
* :func:`fitted_labels`: labels :math:`y = X W_1\cdots W_L + s\,m` with
  :math:`m` spanning :math:`\ker(X^\top)`, so :math:`r_\parallel = 0`: a
  global minimum of (78), where Part 1 shows the flow goes, and :math:`v = 0`
  on both sides.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.sources.features_are_fate._balanced_states import (
    ALPHAS,
    BalancedState,
)

__all__ = ["equality_states", "fitted_labels"]


def _small_rational(rng: np.random.Generator) -> sp.Rational:
    """A nonzero rational p/q with |p| <= 9, 1 <= q <= 4."""
    numerator = int(rng.integers(1, 10)) * (1 if rng.random() < 0.5 else -1)
    return sp.Rational(numerator, int(rng.integers(1, 5)))


def _rotation(parameter: sp.Rational) -> sp.Matrix:
    cosine = (1 - parameter**2) / (1 + parameter**2)
    sine = 2 * parameter / (1 + parameter**2)
    return sp.Matrix([[cosine, -sine], [sine, cosine]])


def equality_states(count: int, seed: int = 0) -> tuple[BalancedState, ...]:
    r"""``count`` exact rational states of depth 2, :math:`d = 2`, with
    :math:`D_1 = \alpha^2\lambda I` and :math:`\sigma_{\min}^2(W_1) =
    \alpha^2\lambda` (module docstring); :math:`\alpha` cycles through
    1, 1/8, 1/64, 2.

    Raises:
      InvalidArgumentError: ``count`` is not an integer >= 1.
    """
    if not isinstance(count, int) or count < 1:
        raise InvalidArgumentError(f"count={count!r}: an integer >= 1")
    rng = np.random.default_rng(seed)
    states: list[BalancedState] = []
    while len(states) < count:
        a, b, c = (_small_rational(rng) for _ in range(3))
        smallest = abs(a**2 + b**2 - c**2)
        if smallest == 0:
            continue
        top = sp.Matrix([2 * a * c, 2 * b * c])
        largest = a**2 + b**2 + c**2
        square_root = (
            smallest * sp.eye(2)
            + (largest - smallest) * top * top.T / (top.T * top)[0, 0]
        )
        first = _rotation(_small_rational(rng)) * square_root
        alpha = ALPHAS[len(states) % len(ALPHAS)]
        target = sp.Matrix([_small_rational(rng), _small_rational(rng)])
        states.append(
            BalancedState(
                (sp.ImmutableMatrix(first), sp.ImmutableMatrix(top)),
                alpha,
                smallest**2 / alpha**2,
                sp.ImmutableMatrix(target),
            )
        )
    return tuple(states)


def fitted_labels(
    data: sp.Matrix,
    normal: sp.Matrix,
    weights: tuple[sp.MatrixBase, ...],
    offset: sp.Rational,
) -> sp.Matrix:
    r""":math:`y = X W_1\cdots W_L + s\,m`: labels the network fits up to a
    part in :math:`\ker(X^\top)` (``normal`` spans it), so that
    :math:`P_\parallel r = 0`.

    Let :math:`X` be ``data``, :math:`m` be ``normal`` and :math:`s` be
    ``offset``.
    """
    product = sp.Matrix(weights[0])
    for weight in weights[1:]:
        product = product * sp.Matrix(weight)
    return data * product + offset * normal
