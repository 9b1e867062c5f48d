r"""The PT+FT penalty of a ReLU unit: fast NumPy evaluators and mpmath references.

Eqs. (6)-(11) of ptft-relu-penalty define the penalty of one hidden unit,

.. math:: \tilde r(m, \rho, m_0, \gamma) = \min_{u>0} p(u),\qquad
          p(u) = (m/u-\gamma)^2 + u^2 + m_0^2 - 2u m_0\rho,

where ``m`` is the signed magnitude :math:`m_h`, ``rho`` the cosine
:math:`\rho_h`, ``m0`` the pretrained norm :math:`m_{0h}^{(1)}` and ``gamma``
the readout initialization :math:`\gamma`. The stationary points of p are the
positive roots of the quartic of eq. (10),
:math:`q(u) = u^4 - m_0\rho\,u^3 + \gamma m\,u - m^2`.

The paper takes "the" positive root. That root is not always unique: when
:math:`\rho>0` and :math:`\gamma m>0`, q can have three positive roots (two
local minima of p), e.g. for every small enough :math:`|m|`. The evaluators
here return the GLOBAL minimum: they locate every local minimizer of p in
closed-form brackets, converge on each by Halley iterations started where
Newton's would converge monotonically, and keep the smaller value.

How the work is divided. :func:`relu_ptft_penalty` first runs the certified
fast path (:mod:`~implicit_bias.numerics.relu_penalty_certified`: closed-form
starts, Householder steps, an a posteriori error bound per point) and
evaluates the points it cannot certify by the error-bounded float64 path
(:mod:`~implicit_bias.numerics.relu_penalty_error_bounded`: the brackets and
Halley iterations above, an error bound on every result, 320-bit mpmath where
float64 cannot be trusted), which the scale, the count and the slopes use for
every point. The mpmath references (``*_mp``) isolate the roots of eq. (10)
exactly (:mod:`~implicit_bias.numerics.relu_penalty_reference`), an algorithm
independent of both.

Conventions at the edges of the domain:

* ``m = 0``: the unit carries no function. The constraint of eq. (5) is then
  met by switching off either layer, and the penalty is the infimum of eq. (5)
  over both ways, :math:`\min(m_0^2,\ \gamma^2 + m_0^2(1-\rho_+^2))` with
  :math:`\rho_+ = \max(\rho, 0)`; the scale is :math:`m_0\rho` when the
  second is smaller (readout switched off) and 0 otherwise. This is the
  limit :math:`m\to 0` from the side where :math:`\gamma m > 0`.
* ``gamma < 0``: a readout initialized at a negative value. Since p depends on
  m and :math:`\gamma` only through :math:`(m/u-\gamma)^2` and :math:`m^2`,
  :math:`\tilde r(-m, \rho, m_0, -\gamma) = \tilde r(m, \rho, m_0, \gamma)`;
  every point is evaluated as the one with :math:`m \ge 0`.
* ``m = m0*rho*gamma`` exactly, with :math:`m_0\rho > 0`: the point
  :math:`(m_0\rho, \gamma)` lies on the hyperbola :math:`u\,w^{(2)} = m`,
  so :math:`u^* = m_0\rho` and :math:`\tilde r = m_0^2(1-\rho^2)`, which is
  0 for :math:`\rho = 1`.
"""

from __future__ import annotations

import mpmath
import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import as_finite_arrays, relu_unit_arguments
from implicit_bias.numerics.relu_penalty_certified import _fast_penalty
from implicit_bias.numerics.relu_penalty_error_bounded import _minimize, _Minimum
from implicit_bias.numerics.relu_penalty_reference import (
    _NAMES,
    _check_mp_arguments,
    _exact_quartic,
    _mp_minimize,
    _positive_root_intervals,
    _to_mpf,
)

__all__ = [
    "relu_ptft_deviation",
    "relu_ptft_log_log_slope",
    "relu_ptft_log_slope",
    "relu_ptft_penalty",
    "relu_ptft_penalty_mp",
    "relu_ptft_scale",
    "relu_ptft_scale_mp",
    "relu_ptft_stationary_count",
    "relu_ptft_stationary_points_mp",
]

Float64Array = NDArray[np.float64]
BoolArray = NDArray[np.bool_]


def _penalty(
    m: Float64Array, rho: Float64Array, m0: Float64Array, gamma: Float64Array
) -> Float64Array:
    r"""The global minimum of eq. (11): certified float64, else :func:`_minimize`.

    The points whose certified error (:func:`_fast_penalty`) exceeds 16 unit
    roundoffs of the result
    (:data:`~implicit_bias.numerics.relu_penalty_certified._FAST_RELATIVE`), or
    which lie outside the fast path's range (m = 0, magnitudes near the ends of
    float64, a penalty that cancels near the hyperbola), are evaluated by
    :func:`_minimize`, the error-bounded float64 path with its mpmath fallback.
    """
    shape = m.shape
    flat = [
        np.ascontiguousarray(v, dtype=np.float64).ravel() for v in (m, rho, m0, gamma)
    ]
    penalty, certified = _fast_penalty(*flat)
    rest = np.flatnonzero(~certified)
    if rest.size:
        penalty[rest] = _minimize(*(v[rest] for v in flat)).penalty
    return penalty.reshape(shape)


def _where(mask: BoolArray, arguments: list[Float64Array]) -> str:
    """The arguments of the first point where ``mask`` holds, for a message."""
    values = (float(np.broadcast_to(v, mask.shape)[mask].flat[0]) for v in arguments)
    return ", ".join(
        f"{name}={value!r}" for name, value in zip(_NAMES, values, strict=True)
    )


def _representable(
    values: Float64Array, arguments: list[Float64Array], what: str
) -> Float64Array:
    """``values``, or OutOfRangeError where one lies beyond the float64 range."""
    beyond = np.isinf(values)
    if beyond.any():
        raise OutOfRangeError(
            f"{what} is beyond the float64 range (above 1.8e308 in magnitude) at "
            f"{_where(beyond, arguments)}: it exists but is not representable"
        )
    return values


def _differentiable(result: _Minimum, arguments: list[Float64Array]) -> None:
    """InvalidArgumentError where log r~ has no derivative in m."""
    if result.zero.any():
        raise InvalidArgumentError(
            f"log r~ is undefined where r~ = 0 ({_where(result.zero, arguments)}): "
            "the penalty vanishes only for rho = 1 and m = gamma*m0, and for "
            "m = m0 = 0"
        )
    if result.singular.any():
        raise InvalidArgumentError(
            f"{_where(result.singular, arguments)}: the penalty is not "
            "differentiable at m = 0 when the minimizer is u* = 0 "
            "(|gamma| > m0*rho or rho <= 0)"
        )


def relu_ptft_penalty(
    m: ArrayLike, rho: ArrayLike, m0: ArrayLike, gamma: ArrayLike
) -> Float64Array:
    r"""The PT+FT penalty :math:`\tilde r` of a ReLU hidden unit (global minimum).

    .. math:: \tilde r(\hat w_h, m_h \mid w_{0h}^{(1)}, \gamma)
              = \min_{u>0}\,(m_h/u-\gamma)^2 + u^2 + (m_{0h}^{(1)})^2
              - 2u m_{0h}^{(1)}\rho_h

    Eqs. (6), (8) and (11) of ptft-relu-penalty, with the minimum taken over all
    positive roots of eq. (10), not "the" root (see the module docstring).

    Let :math:`m_h` be ``m``, :math:`\rho_h` be ``rho``, :math:`m_{0h}^{(1)}` be
    ``m0`` and :math:`\gamma` be ``gamma``.

    Args:
      m: signed magnitude :math:`\|w_h^{(1)}\|_2 w_h^{(2)}` of the unit, finite.
      rho: cosine similarity in ``[-1, 1]``.
      m0: norm of the pretrained hidden weights, ``>= 0``.
      gamma: readout initialization, finite (negative allowed).

    Returns:
      The penalty, a float64 array of the broadcast shape of the arguments; a
      penalty below the float64 range is rounded to a subnormal number or 0.

    Raises:
      InvalidArgumentError: an argument is NaN or infinite, rho is outside
        ``[-1, 1]`` or m0 is negative.
      OutOfRangeError: the penalty exceeds the float64 range (it is at least
        :math:`\min(m_0^2, \gamma^2 + m_0^2(1-\rho_+^2))`-like in size, e.g.
        beyond 1.8e308 for ``m0`` above 1.35e154 with ``rho = 0``).

    Examples:
      A fresh unit (:math:`m_0 = \gamma = 0`) costs :math:`2|m|` (balanced weights):

      >>> bool(np.isclose(relu_ptft_penalty(3.0, 0.5, 0.0, 0.0), 6.0))
      True

      With :math:`\rho = 1` and :math:`m = \gamma m_0` no deviation is needed:

      >>> relu_ptft_penalty([0.5, 2.0], 1.0, 1.0, [0.5, 2.0]).tolist()
      [0.0, 0.0]

    References:
      Eqs. (6)-(11) of ptft-relu-penalty.
    """
    arguments = relu_unit_arguments(m, rho, m0, gamma)
    return _representable(_penalty(*arguments), arguments, "the penalty r~")


def relu_ptft_scale(
    m: ArrayLike, rho: ArrayLike, m0: ArrayLike, gamma: ArrayLike
) -> Float64Array:
    r"""The global minimizer :math:`u^* = \|w_h^{(1)}\|_2` of eq. (6).

    .. math:: u^* = \operatorname{arg\,min}_{u>0}\, p(u),\qquad
              u^{*4} - m_{0h}^{(1)}\rho_h u^{*3} + \gamma m_h u^* - m_h^2 = 0

    Eqs. (6) and (10) of ptft-relu-penalty; the readout weight is
    :math:`w_h^{(2)} = m_h/u^*`. At ``m = 0`` the minimizer is
    :math:`m_{0h}^{(1)}\rho_h` if the readout is switched off, and 0 if the
    hidden weights are (module docstring). Where two local minima tie exactly
    the larger u is returned.

    Args:
      m, rho, m0, gamma: as for :func:`relu_ptft_penalty`.

    Returns:
      :math:`u^*`, a float64 array of the broadcast shape of the arguments; a
      minimizer below the float64 range (e.g. :math:`u^*\approx m/\gamma` for
      a tiny ``m`` and a huge ``gamma``) is rounded to a subnormal number or 0.

    Raises:
      InvalidArgumentError: as :func:`relu_ptft_penalty`.
      OutOfRangeError: :math:`u^*` exceeds the float64 range (only for
        ``m0`` or ``|gamma|`` within rounding of the largest float64).

    Examples:
      With :math:`\rho = 1` and :math:`m = \gamma m_0` no deviation is needed:

      >>> float(relu_ptft_scale(0.2, 1.0, 2.0, 0.1))
      2.0

    References:
      Eqs. (6) and (10) of ptft-relu-penalty.
    """
    arguments = relu_unit_arguments(m, rho, m0, gamma)
    return _representable(_minimize(*arguments).scale, arguments, "the minimizer u*")


def relu_ptft_stationary_count(
    m: ArrayLike, rho: ArrayLike, m0: ArrayLike, gamma: ArrayLike
) -> Float64Array:
    r"""The number of positive roots of eq. (10) (stationary points of p), 1 or 3.

    .. math:: \#\{u > 0 : u^4 - m_{0h}^{(1)}\rho_h u^3 + \gamma m_h u - m_h^2 = 0\}

    The paper reports one positive root "in all empirical cases we explored";
    three occur when :math:`\rho > 0`, :math:`\gamma m > 0` and q has a dip
    below zero after a hump above it. Double roots (measure zero) count as one
    or three according to rounding. At ``m = 0`` the count is 1 (or 0 roots
    when :math:`\rho\le 0`, reported as 1: the infimum is then at :math:`u\to 0`).

    Args:
      m, rho, m0, gamma: as for :func:`relu_ptft_penalty`.

    Returns:
      The count as a float64 array.

    Examples:
      >>> relu_ptft_stationary_count([1e-8, -1e-8], 1.0, 1.0, 0.01).tolist()
      [3.0, 1.0]

    References:
      Eq. (10) of ptft-relu-penalty.
    """
    return _minimize(*relu_unit_arguments(m, rho, m0, gamma)).roots


def relu_ptft_log_slope(
    m: ArrayLike, rho: ArrayLike, m0: ArrayLike, gamma: ArrayLike
) -> Float64Array:
    r"""The derivative :math:`\partial\log\tilde r/\partial m_h`, exact (envelope).

    .. math:: \frac{\partial \log\tilde r}{\partial m_h}
              = \frac{2\,(m_h/u^*-\gamma)}{u^*\,\tilde r}

    The quantity Section 1.2 of ptft-relu-penalty prints; the values it reads
    off it (2 for :math:`\ell_2`-like, 1 for :math:`\ell_1`-like) are those of
    :func:`relu_ptft_log_log_slope`, which is ``m`` times this one. Where two
    local minima tie the penalty has a kink, and the slope of the branch
    :func:`relu_ptft_scale` returns is given. The ratio is formed where its
    parts are representable, so the slope is exact also where :math:`u^*`
    or :math:`\tilde r` lie below the float64 range (e.g. :math:`2/m` for a
    tiny :math:`m_h/\gamma`).

    Args:
      m, rho, m0, gamma: as for :func:`relu_ptft_penalty`.

    Returns:
      The slope, a float64 array of the broadcast shape of the arguments.

    Raises:
      InvalidArgumentError: as :func:`relu_ptft_penalty`; also where the
        penalty is 0 (log undefined) or where ``m = 0`` and the minimizer is
        :math:`u^* = 0` (the penalty jumps there: no derivative).
      OutOfRangeError: the slope exceeds the float64 range (e.g. about
        :math:`1/m_h` for ``|m|`` below 1e-308).

    Examples:
      For a fresh unit :math:`\tilde r = 2|m|`, so the slope is :math:`1/m`:

      >>> bool(np.isclose(relu_ptft_log_slope(4.0, 0.3, 0.0, 0.0), 0.25))
      True

    References:
      Section 1.2 of ptft-relu-penalty; eq. (11) and the envelope theorem.
    """
    arguments = relu_unit_arguments(m, rho, m0, gamma)
    result = _minimize(*arguments, slope=True)
    _differentiable(result, arguments)
    return _representable(result.slope, arguments, "the slope d(log r~)/dm")


def relu_ptft_log_log_slope(
    m: ArrayLike, rho: ArrayLike, m0: ArrayLike, gamma: ArrayLike
) -> Float64Array:
    r"""The elasticity :math:`\partial\log\tilde r/\partial\log|m_h|` (2: l2, 1: l1).

    .. math:: \frac{\partial \log\tilde r}{\partial \log |m_h|}
              = m_h\,\frac{\partial \log\tilde r}{\partial m_h}

    The slope of :math:`\tilde r` on log-log axes, the reading Section 1.2 of
    ptft-relu-penalty gives to its "derivative of the log norm" (Fig. 1b): a
    penalty :math:`\propto |m|^k` has elasticity k. It is ``m`` times
    :func:`relu_ptft_log_slope` wherever that slope is a normal float64
    number, and is evaluated directly where it is not (e.g. 2 for
    ``m = 1e-310``, whose slope :math:`2/m` overflows).

    Args:
      m, rho, m0, gamma: as for :func:`relu_ptft_penalty`.

    Returns:
      The elasticity, a float64 array of the broadcast shape of the arguments.

    Raises:
      InvalidArgumentError: as :func:`relu_ptft_log_slope`.
      OutOfRangeError: the elasticity exceeds the float64 range.

    Examples:
      >>> bool(np.isclose(relu_ptft_log_log_slope(-7.0, 0.3, 0.0, 0.0), 1.0))
      True

    References:
      Section 1.2 and Fig. 1b of ptft-relu-penalty.
    """
    arguments = relu_unit_arguments(m, rho, m0, gamma)
    result = _minimize(*arguments, slope=True)
    _differentiable(result, arguments)
    return _representable(result.elasticity, arguments, "the elasticity")


def relu_ptft_deviation(
    u: ArrayLike, m: ArrayLike, rho: ArrayLike, m0: ArrayLike, gamma: ArrayLike
) -> Float64Array:
    r"""The objective p(u) of eq. (8), in cancellation-free form.

    .. math:: p(u) = (m_h/u-\gamma)^2 + (u-m_{0h}^{(1)}\rho_h)^2
              + \Big(m_{0h}^{(1)}\sqrt{(1-\rho_h)(1+\rho_h)}\Big)^2

    Args:
      u: hidden-weight norm, ``> 0``.
      m, rho, m0, gamma: as for :func:`relu_ptft_penalty`.

    Returns:
      p(u), a float64 array of the broadcast shape of the arguments.

    Raises:
      InvalidArgumentError: ``u`` is not positive and finite, or as
        :func:`relu_ptft_penalty`.
      OutOfRangeError: p(u) exceeds the float64 range (e.g. :math:`(m/u)^2`
        for ``|m/u|`` above 1.35e154).

    Examples:
      >>> at_two = relu_ptft_deviation(2.0, 1.0, 0.5, 1.0, 0.0)
      >>> bool(at_two >= relu_ptft_penalty(1.0, 0.5, 1.0, 0.0))
      True

    References:
      Eq. (8) of ptft-relu-penalty.
    """
    u_, m_, rho_, m0_, gamma_ = as_finite_arrays(
        {"u": u, "m": m, "rho": rho, "m0": m0, "gamma": gamma}
    )
    if (u_ <= 0).any():
        raise InvalidArgumentError(
            f"u={float(u_[u_ <= 0].flat[0])!r} is not positive: u is a norm, u > 0"
        )
    arguments = relu_unit_arguments(m_, rho_, m0_, gamma_)
    with np.errstate(over="ignore"):
        # m0 sqrt((1 - rho)(1 + rho)) <= m0: no inf * 0 at rho = +-1 for a huge m0.
        value = (
            (m_ / u_ - gamma_) ** 2
            + (u_ - m0_ * rho_) ** 2
            + (m0_ * np.sqrt((1.0 - rho_) * (1.0 + rho_))) ** 2
        )
    beyond = np.isinf(value)
    if beyond.any():
        point = np.broadcast_to(u_, beyond.shape)[beyond].flat[0]
        raise OutOfRangeError(
            f"p(u) is beyond the float64 range (above 1.8e308) at u={float(point)!r}, "
            f"{_where(beyond, arguments)}: it exists but is not representable"
        )
    return np.asarray(value, dtype=np.float64)


def relu_ptft_stationary_points_mp(
    m: float, rho: float, m0: float, gamma: float, *, dps: int = 50
) -> list[mpmath.mpf]:
    r"""Every positive root of eq. (10), exactly isolated, to ``dps`` digits each.

    .. math:: u^4 - m_{0h}^{(1)}\rho_h u^3 + \gamma m_h u - m_h^2 = 0,\quad u > 0

    The float arguments are converted to exact rationals; python-flint factors
    the quartic over the integers and Arb isolates the roots of each factor
    in balls with rigorous radii, which are narrowed to a relative width of
    :math:`10^{-dps-10}` and certified by exact rational signs at their ends
    (:func:`_positive_root_intervals`). Unlike a floating-point root finder,
    this resolves roots many decades apart (e.g. :math:`u \approx m_h/\gamma`
    next to :math:`u \approx m_{0h}^{(1)}\rho_h`) and roots close to double.

    Args:
      m, rho, m0, gamma: scalars (floats or mpmath numbers, taken exactly at
        ``dps + 10`` digits), as for :func:`relu_ptft_penalty`.
      dps: decimal digits of each root.

    Returns:
      The distinct positive roots in increasing order (empty when ``m = 0``
      and :math:`\rho\le 0`).

    Raises:
      InvalidArgumentError: an argument is not a finite real number (strings,
        None, complex numbers and bools are refused), is outside its domain
        as for :func:`relu_ptft_penalty`, or ``dps`` is not an integer in
        ``[1, MAX_DPS]``.

    Examples:
      >>> [float(r) for r in relu_ptft_stationary_points_mp(4.0, 0.5, 0.0, 0.0)]
      [2.0]

    References:
      Eq. (10) of ptft-relu-penalty.
    """
    dps = _check_mp_arguments(m, rho, m0, gamma, dps)
    quartic = _exact_quartic(m, rho, m0, gamma, dps)
    with mpmath.workdps(dps + 10):
        return [
            _to_mpf((low + high) / 2)
            for low, high in _positive_root_intervals(quartic, dps)
        ]


def relu_ptft_penalty_mp(
    m: float, rho: float, m0: float, gamma: float, *, dps: int = 50
) -> mpmath.mpf:
    r"""Reference value of :func:`relu_ptft_penalty` at ``dps`` significant digits.

    .. math:: \tilde r = \min_{u^*>0,\ q(u^*)=0} p(u^*)

    The minimum of eq. (11) over the positive roots of eq. (10) found by
    :func:`relu_ptft_stationary_points_mp` (exact root isolation, an algorithm
    independent of the NumPy path), evaluated at ``dps + 10`` digits.

    Args:
      m, rho, m0, gamma: scalars, as for :func:`relu_ptft_penalty`.
      dps: decimal digits of the result.

    Returns:
      :math:`\tilde r` as an ``mpmath.mpf``.

    Raises:
      InvalidArgumentError: an argument is not a finite real number (strings,
        None, complex numbers and bools are refused), is outside its domain
        as for :func:`relu_ptft_penalty`, or ``dps`` is not an integer in
        ``[1, MAX_DPS]``.

    Examples:
      >>> float(relu_ptft_penalty_mp(3.0, 0.5, 0.0, 0.0))
      6.0

    References:
      Eqs. (10)-(11) of ptft-relu-penalty.
    """
    return _mp_minimize(m, rho, m0, gamma, dps)[1]


def relu_ptft_scale_mp(
    m: float, rho: float, m0: float, gamma: float, *, dps: int = 50
) -> mpmath.mpf:
    r"""Reference value of :func:`relu_ptft_scale` at ``dps`` significant digits.

    .. math:: u^* = \operatorname{arg\,min}_{u^*>0,\ q(u^*)=0} p(u^*)

    Args:
      m, rho, m0, gamma: scalars, as for :func:`relu_ptft_penalty`.
      dps: decimal digits of the result.

    Returns:
      :math:`u^*` as an ``mpmath.mpf``.

    Raises:
      InvalidArgumentError: an argument is not a finite real number (strings,
        None, complex numbers and bools are refused), is outside its domain
        as for :func:`relu_ptft_penalty`, or ``dps`` is not an integer in
        ``[1, MAX_DPS]``.

    Examples:
      >>> float(relu_ptft_scale_mp(4.0, 0.5, 0.0, 0.0))
      2.0

    References:
      Eqs. (6) and (10) of ptft-relu-penalty.
    """
    return _mp_minimize(m, rho, m0, gamma, dps)[0]
