r"""The ReLU arc-cosine kernel and RKHS projections: NumPy evaluators, mpmath reference.

Eq. (153) of features-are-fate gives the :math:`L_2` overlap of two ReLU
features under :math:`x\sim\mathcal N(0, I_d)` for unit weights with cosine
``u`` (:math:`u_{ij}`),

.. math:: k(u) = \frac{1}{2\pi}\left(\sqrt{1-u^2} + u(\pi - \arccos u)\right),

and eqs. (154)-(159) the norms of the projection of a target network
:math:`f_* = \frac{1}{m_*}\sum_j c^*_j\sigma(w_j^{*\top}x)` onto the span of a
model's features :math:`\{\sigma(w_i^\top x)\}_{i\le m}` and onto its orthogonal
complement in :math:`L_2(p)`. The mapping of arguments to the paper's symbols:
``hidden_weights`` is :math:`(w_i)_{i\le m}` (rows), ``target_hidden_weights``
is :math:`(w^*_j)_{j\le m_*}`, ``target_readout`` is :math:`c^*`; m and
:math:`m_*` are their numbers of rows. For weights of any norm the overlap is
:math:`\|w_i\|\|w_j\|k(u_{ij})` (the printed (153) is the unit-norm case; see
:mod:`implicit_bias.theory.relu_kernels`).

**Evaluating k without cancellation.** With :math:`\varphi = \arccos(-u)`
(:math:`= \pi - \arccos u`, computed without the subtraction),
:math:`k = (\sqrt{(1-u)(1+u)} + u\varphi)/(2\pi)`. For :math:`u < 0` the two
terms have opposite signs; near :math:`u = -1` both are
:math:`\approx\sqrt{2\epsilon}` while :math:`k\approx\frac{\sqrt2}{3\pi}\epsilon^{3/2}`
(:math:`\epsilon = 1+u`), so the printed form loses every digit. There
:math:`k = (\sin\varphi - \varphi\cos\varphi)/(2\pi)` and

.. math:: \sin\varphi - \varphi\cos\varphi
          = \varphi^3\sum_{n\ge1}\frac{(-1)^{n+1}2n}{(2n+1)!}\varphi^{2n-2},

an alternating series with terms falling by at least 10x for
:math:`\varphi\le1`: no cancellation (its sum lies in :math:`[0.9, 1]` times the
first term). :func:`relu_kernel` sums it (11 terms, truncation below
:math:`10^{-19}` relative) for :math:`u \le -\cos 1` and uses the direct form
above, where the terms cancel at most by a factor 2.9.

*Rounding analysis* (u = 2**-53). Series branch: :math:`\varphi` carries the
error of the platform's ``arccos`` (:math:`\varepsilon_a`), tripled by
:math:`\varphi^3`; the Horner sum, the powers and the two products add at most
about 5u: :math:`|3\varepsilon_a| + 5u`. Direct branch: :math:`1\pm u` are
exact (Sterbenz) or correctly rounded, the square root and products add 2-3u
per term, and the condition number of the sum is at most 2.9 (at
:math:`u = -\cos 1`), 1 for :math:`u \ge 0`. With NumPy's ``arccos`` accurate
to about 1 ulp, the bound is about 10 ulp; the largest error measured is
4.4 ulp (in the series branch, from the tripled ``arccos`` error).
tests/numerics/test_relu_kernels.py measures the error against
:func:`relu_kernel_mp` (mpmath, 50 digits) at :math:`u` spread over
:math:`[-1, 1]` and clustered at both ends, and asserts :data:`KERNEL_ULPS`.

**Projections.** The :math:`L_2` Gram matrix of the model and target
features, :math:`J = \begin{pmatrix}G & H\\ H^\top & G^*\end{pmatrix}`, is factored
as :math:`J = F^\top F` (symmetric eigendecomposition, negative rounding
eigenvalues set to 0). In these coordinates the target is
:math:`F_*c^*/m_*`, its projection is the least-squares fit by the model
columns :math:`F_m`, and :math:`\|P_\perp f_*\|^2` is the squared norm of the
residual vector: nonnegative by construction (the difference (159) can
round to a negative number when the target lies in the span, as at
:math:`\mu = 0` in Section 4). Its absolute error is of order
:math:`\varepsilon\|J\|\,\|c^*/m_*\|^2`, as for the difference: the
eigenvalues of J near 0 are known to :math:`\varepsilon\|J\|` only.
Features that are linearly dependent (e.g. repeated weights) make K
singular; the least-squares fit then projects onto their span, which is what
:math:`K^{-1}` in (158) means there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import factorial
from typing import Any, TypeGuard

import mpmath
import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.arguments import (
    as_finite_array,
    check_closed_interval,
    check_dps,
    check_mp_real,
)
from implicit_bias.numerics._lazy import lazy_formula

__all__ = [
    "KERNEL_ULPS",
    "RkhsProjection",
    "relu_gram",
    "relu_kernel",
    "relu_kernel_and_derivative",
    "relu_kernel_mp",
    "relu_rkhs_projection",
]

Float64Array = NDArray[np.float64]

#: The error bound of :func:`relu_kernel` in ulps of the exact value (module
#: docstring: ~10 ulp from the rounding analysis with a 1-ulp ``arccos``).
KERNEL_ULPS = 10.0

#: Coefficients of :math:`S(w) = \sum_{n\ge1}(-1)^{n+1}2n\,w^{n-1}/(2n+1)!`.
#: For :math:`w = \varphi^2 \le 1` the first omitted term (n = 12) is below
#: :math:`10^{-22}`, i.e. :math:`3\cdot10^{-22}` relative to the sum.
_SERIES = tuple((-1) ** (n + 1) * 2 * n / factorial(2 * n + 1) for n in range(1, 12))
#: The series is used for :math:`u \le -\cos 1`, i.e. :math:`\varphi \le 1`.
_SERIES_MAX_U = -float(np.cos(1.0))
_INV_TWO_PI = 1.0 / (2.0 * np.pi)
#: A computed cosine may exceed 1 in magnitude by rounding: a dot product of
#: two d-vectors divided by their norms is off by at most ~(d + 2) eps.
_COSINE_SLACK_EPS = 4.0


@lazy_formula
def _kernel_mpmath() -> Callable[..., Any]:
    """Eq. (153) lambdified from the theory layer, for the mpmath reference."""
    import sympy as sp

    from implicit_bias.theory import relu_kernels as theory

    return sp.lambdify(theory.u, theory.arc_cosine_kernel(theory.u), modules="mpmath")


def _series(w: Float64Array) -> Float64Array:
    total = np.full_like(w, _SERIES[-1])
    for coefficient in reversed(_SERIES[:-1]):
        total = total * w + coefficient
    return total


def _kernel_from_supplement(
    cosine: Float64Array, supplement: Float64Array
) -> Float64Array:
    r"""Eq. (153) on cosines in [-1, 1], given :math:`\pi - \theta = \arccos(-u)`.

    The printed form everywhere, then the series (module docstring) where it
    cancels, :math:`u \le -\cos 1`: one ``arccos`` serves both, and callers
    that also need :math:`k'(u)` (:func:`relu_kernel_and_derivative`) reuse it.
    """
    # In place (``out=``): 0-d arrays stay arrays, and no temporaries.
    out = np.empty_like(cosine)
    np.multiply(1.0 - cosine, 1.0 + cosine, out=out)
    np.sqrt(out, out=out)
    out += cosine * supplement
    out *= _INV_TWO_PI
    near_minus_one = cosine <= _SERIES_MAX_U
    phi = supplement[near_minus_one]
    out[near_minus_one] = (phi * phi * phi) * _series(phi * phi) * _INV_TWO_PI
    return out


def _kernel(cosine: Float64Array) -> Float64Array:
    """Eq. (153) on cosines already checked to lie in [-1, 1]."""
    return _kernel_from_supplement(cosine, np.arccos(-cosine))


def relu_kernel(u: ArrayLike) -> Float64Array:
    r"""The arc-cosine kernel of eq. (153), elementwise, accurate to a few ulp.

    .. math:: k(u) = \frac{1}{2\pi}\left(\sqrt{1-u^2} + u(\pi - \arccos u)\right)
              = \mathbb E_{x\sim\mathcal N(0,I_d)}[\sigma(w_i^\top x)\sigma(w_j^\top x)]

    for unit weights with cosine :math:`u = u_{ij}`. Evaluated without the
    cancellation of the printed form near :math:`u = -1` (module docstring);
    error at most :data:`KERNEL_ULPS` ulp.

    Args:
      u: cosines in :math:`[-1, 1]`.

    Returns:
      k(u), a float64 array of the shape of ``u``, increasing from
      :math:`k(-1) = 0` to :math:`k(1) = 1/2`.

    Raises:
      InvalidArgumentError: ``u`` is not finite or lies outside [-1, 1].

    Examples:
      >>> bool(relu_kernel(1.0) == 0.5)
      True
      >>> bool(np.isclose(relu_kernel(0.0), 1 / (2 * np.pi)))
      True
      >>> u = np.linspace(-1, 1, 9)
      >>> bool(np.allclose(relu_kernel(u) - relu_kernel(-u), u / 2))
      True

    References:
      Eqs. (152)-(153) of features-are-fate; Cho & Saul (2009).
    """
    cosine = as_finite_array("u", u)
    check_closed_interval(
        "u", cosine, -1.0, 1.0, "a cosine similarity u_ij of two hidden weights"
    )
    return _kernel(cosine)


def relu_kernel_and_derivative(u: ArrayLike) -> tuple[Float64Array, Float64Array]:
    r"""Eq. (153) and its derivative in u, elementwise, from one ``arccos``.

    .. math:: k(u) = \frac{1}{2\pi}\left(\sqrt{1-u^2} + u(\pi - \arccos u)\right),
              \qquad k'(u) = \frac{\pi - \arccos u}{2\pi}

    (differentiating (153), the square-root terms cancel). ``k`` is
    :func:`relu_kernel`'s value bit for bit (within :data:`KERNEL_ULPS` ulp);
    ``k'`` is within a few ulp. The Riemannian gradient of the population
    loss of features-are-fate's Section 4 needs both at every pair of units
    (:mod:`implicit_bias.validation.relu_kernels`), :math:`\pi - \arccos u =
    \arccos(-u)` serving both.

    Args:
      u: cosines in :math:`[-1, 1]`.

    Returns:
      ``(k(u), k'(u))``, float64 arrays of the shape of ``u``; :math:`k'`
      increases from 0 at u = -1 to 1/2 at u = 1.

    Raises:
      InvalidArgumentError: ``u`` is not finite or lies outside [-1, 1].

    Examples:
      >>> kernel, slope = relu_kernel_and_derivative([-1.0, 0.0, 1.0])
      >>> bool(np.all(kernel == relu_kernel([-1.0, 0.0, 1.0])))
      True
      >>> bool(np.allclose(slope, [0.0, 0.25, 0.5]))
      True

    References:
      Eqs. (152)-(153) of features-are-fate; Cho & Saul (2009).
    """
    if _cosines_in_range(u):
        cosine = u
    else:
        cosine = as_finite_array("u", u)
        check_closed_interval(
            "u", cosine, -1.0, 1.0, "a cosine similarity u_ij of two hidden weights"
        )
    supplement = np.arccos(-cosine)
    return _kernel_from_supplement(cosine, supplement), supplement * _INV_TWO_PI


def _cosines_in_range(u: object) -> TypeGuard[Float64Array]:
    """Whether ``u`` is a non-empty float64 array within [-1, 1] (NaN is not):
    two reductions, where the full checks of :func:`relu_kernel` take five
    passes (a gradient evaluates the kernel at every step of a descent)."""
    return (
        isinstance(u, np.ndarray)
        and u.dtype == np.float64
        and u.size > 0
        and bool(u.min() >= -1.0)
        and bool(u.max() <= 1.0)
    )


def relu_kernel_mp(u: Any, *, dps: int = 50) -> mpmath.mpf:
    r"""Eq. (153) of features-are-fate at ``dps`` digits (mpmath).

    .. math:: k(u) = \frac{1}{2\pi}\left(\sqrt{1-u^2} + u(\pi - \arccos u)\right)

    Lambdified from :func:`implicit_bias.theory.relu_kernels.arc_cosine_kernel`
    and evaluated with 10 guard digits: the reference :func:`relu_kernel` is
    tested against. ``u`` is converted exactly (a float is its exact binary
    value); the result carries ``dps`` digits (do arithmetic with it inside
    ``mpmath.workdps``).

    Raises:
      InvalidArgumentError: ``u`` is not a real number in [-1, 1].

    Examples:
      >>> with mpmath.workdps(50):
      ...     bool(abs(relu_kernel_mp(0) - 1 / (2 * mpmath.pi)) < mpmath.mpf(10) ** -49)
      True
    """
    dps = check_dps(dps)
    value = check_mp_real("u", u, meaning="a cosine similarity in [-1, 1]")
    if not -1 <= value <= 1:
        raise InvalidArgumentError(
            f"u={u!r} is outside [-1, 1]: u is a cosine similarity u_ij of two "
            "hidden weights"
        )
    with mpmath.workdps(dps + 10):
        result = _kernel_mpmath()(value)
    with mpmath.workdps(dps):
        return +result


def _weight_matrix(name: str, value: ArrayLike) -> Float64Array:
    weights = as_finite_array(name, value, ndim=2)
    if weights.shape[0] == 0 or weights.shape[1] == 0:
        raise InvalidArgumentError(
            f"{name} has shape {weights.shape}: {name} must hold at least one "
            "weight vector (row) of dimension d >= 1"
        )
    return weights


def _gram(first: Float64Array, second: Float64Array) -> Float64Array:
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        norms_first = np.linalg.norm(first, axis=1)
        norms_second = np.linalg.norm(second, axis=1)
        scale = np.outer(norms_first, norms_second)
        positive = scale > 0
        dots = first @ second.T
        cosine = np.zeros_like(dots)
        cosine[positive] = dots[positive] / scale[positive]
    slack = _COSINE_SLACK_EPS * (first.shape[1] + 2) * np.finfo(np.float64).eps
    if not (np.all(np.isfinite(scale)) and np.all(np.isfinite(cosine))) or np.any(
        np.abs(cosine) > 1.0 + slack
    ):
        raise InvalidArgumentError(
            "the weights' norms or cosines cannot be formed in float64 (a "
            "cosine off [-1, 1] beyond rounding, or an overflow): the weights "
            "must have norms between about 1e-150 and 1e150"
        )
    return scale * _kernel(np.clip(cosine, -1.0, 1.0))


def relu_gram(
    weights: ArrayLike, other_weights: ArrayLike | None = None
) -> Float64Array:
    r"""The :math:`L_2` overlaps of ReLU features under Gaussian inputs (eq. (152)).

    .. math:: G_{ij} = \langle\sigma(w_i^\top x),\sigma(v_j^\top x)\rangle_{L_2}
              = \|w_i\|\|v_j\|\,k(u_{ij}),\qquad x\sim\mathcal N(0, I_d)

    with k of eq. (153) and :math:`u_{ij}` the cosine of :math:`w_i` and
    :math:`v_j` (0 for a zero weight, whose feature vanishes). Rounding can
    push a computed cosine past :math:`\pm1` by a few eps; it is clipped.

    Args:
      weights: :math:`(w_i)`, shape (m, d).
      other_weights: :math:`(v_j)`, shape (m', d); default ``weights``.

    Returns:
      The (m, m') matrix G. ``relu_gram(w) / m`` is K of eq. (154).

    Raises:
      InvalidArgumentError: a weight is not finite, an array is not 2-D or
        empty, or the dimensions differ.

    Examples:
      Orthogonal unit weights overlap by :math:`k(0) = 1/(2\pi)`; a weight
      twice as long doubles its overlaps:

      >>> gram = relu_gram([[1.0, 0.0], [0.0, 2.0]])
      >>> bool(np.allclose(gram, [[0.5, 1 / np.pi], [1 / np.pi, 2.0]]))
      True

    References:
      Eqs. (152)-(156) of features-are-fate (for unit weights).
    """
    first = _weight_matrix("weights", weights)
    second = (
        first
        if other_weights is None
        else _weight_matrix("other_weights", other_weights)
    )
    if second.shape[1] != first.shape[1]:
        raise InvalidArgumentError(
            f"other_weights has dimension {second.shape[1]} but weights has "
            f"{first.shape[1]}: both are hidden weights in R^d"
        )
    return _gram(first, second)


@dataclass(frozen=True)
class RkhsProjection:
    r"""Squared :math:`L_2` norms of a target network and its projections.

    .. math:: \|f_*\|^2 = \|P_\parallel f_*\|^2 + \|P_\perp f_*\|^2

    Eqs. (158)-(159) of features-are-fate; returned by
    :func:`relu_rkhs_projection`.

    Examples:
      >>> p = RkhsProjection(inside=0.75, outside=0.25, target=1.0,
      ...                    coefficients=np.zeros(1))
      >>> p.outside_fraction
      0.25

    Attributes:
      inside: :math:`\|P_\parallel f_*\|^2`, eq. (158).
      outside: :math:`\|P_\perp f_*\|^2`, eq. (159).
      target: :math:`\|f_*\|^2 = \frac{1}{m_*}c_*^\top K_*c_*` (= inside + outside).
      coefficients: v with :math:`P_\parallel f_* = \sum_i v_i\sigma(w_i^\top x)`.
    """

    inside: float
    outside: float
    target: float
    coefficients: Float64Array

    @property
    def outside_fraction(self) -> float:
        r""":math:`\|P_\perp f_*\|^2/\|f_*\|^2`, the quantity of Fig. 4(d)."""
        return self.outside / self.target if self.target > 0 else 0.0


def relu_rkhs_projection(
    hidden_weights: ArrayLike,
    target_hidden_weights: ArrayLike,
    target_readout: ArrayLike,
) -> RkhsProjection:
    r"""Project a ReLU target network onto a ReLU model's feature span (158)-(159).

    .. math:: \|P_\parallel f_*\|^2
              = \frac{1}{m_*}c_*^\top\tilde K^\top K^{-1}\tilde Kc_*,\qquad
              \|P_\perp f_*\|^2 = \frac{1}{m_*}c_*^\top K_*c_*
              - \|P_\parallel f_*\|^2

    with :math:`f_*(x) = \frac{1}{m_*}\sum_j c^*_j\sigma(w_j^{*\top}x)`,
    :math:`x\sim\mathcal N(0, I_d)` and K, :math:`K_*`, :math:`\tilde K` of eqs.
    (154)-(156). Computed as a least-squares residual (module docstring), so
    ``outside`` is >= 0, with an absolute error of a few eps times
    :math:`\|f_*\|^2` (times the size of the Gram matrix's largest eigenvalue
    relative to :math:`\|f_*\|^2`).

    Args:
      hidden_weights: the model's :math:`(w_i)_{i\le m}`, shape (m, d).
      target_hidden_weights: the target's :math:`(w^*_j)_{j\le m_*}`, shape (m_*, d).
      target_readout: :math:`c^*`, shape (m_*,).

    Returns:
      An :class:`RkhsProjection`.

    Raises:
      InvalidArgumentError: shapes disagree, or an entry is not finite.

    Examples:
      A target built from the model's own features lies in its RKHS:

      >>> w = np.eye(3)
      >>> p = relu_rkhs_projection(w, w[:2], [1.0, -2.0])
      >>> bool(np.isclose(p.inside, p.target)), p.outside < 1e-15
      (True, True)

    References:
      Eqs. (154)-(159) of features-are-fate.
    """
    model = _weight_matrix("hidden_weights", hidden_weights)
    target = _weight_matrix("target_hidden_weights", target_hidden_weights)
    readout = as_finite_array("target_readout", target_readout, ndim=1)
    if target.shape[1] != model.shape[1]:
        raise InvalidArgumentError(
            f"target_hidden_weights has dimension {target.shape[1]} but "
            f"hidden_weights has {model.shape[1]}: both are weights in R^d"
        )
    if readout.shape[0] != target.shape[0]:
        raise InvalidArgumentError(
            f"target_readout has {readout.shape[0]} entries but "
            f"target_hidden_weights has {target.shape[0]} rows: c* has one entry "
            "per target unit"
        )
    m = model.shape[0]
    joint = _gram(np.vstack([model, target]), np.vstack([model, target]))
    eigenvalues, eigenvectors = np.linalg.eigh(joint)
    factor = np.sqrt(np.clip(eigenvalues, 0.0, None))[:, None] * eigenvectors.T
    model_columns, target_columns = factor[:, :m], factor[:, m:]
    target_vector = target_columns @ (readout / target.shape[0])
    coefficients, *_ = np.linalg.lstsq(model_columns, target_vector, rcond=None)
    residual = target_vector - model_columns @ coefficients
    fitted = model_columns @ coefficients
    return RkhsProjection(
        inside=float(fitted @ fitted),
        outside=float(residual @ residual),
        target=float(target_vector @ target_vector),
        coefficients=coefficients,
    )
