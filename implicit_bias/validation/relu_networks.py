r"""Direct minimization of a ReLU unit's deviation, eq. (5): an independent check of r~.

:mod:`implicit_bias.numerics.relu_penalty` evaluates the penalty
:math:`\tilde r` of one hidden unit through the roots of the quartic (10) and
the simplified objective (8). This module computes the same quantity without
either: it minimizes the deviation of eq. (5),

.. math:: R(w^{(1)}, w^{(2)}) = (w^{(2)} - \gamma)^2 + \|w^{(1)} - w_0^{(1)}\|_2^2
          \quad\text{s.t.}\quad w^{(1)}/\|w^{(1)}\|_2 = \hat w,\
          \|w^{(1)}\|_2\, w^{(2)} = m,

over the actual weights: the feasible set is the curve
:math:`w^{(1)} = e^t\hat w`, :math:`w^{(2)} = m e^{-t}`, and R is evaluated
from the d-dimensional vectors :math:`e^t\hat w - w_0^{(1)}` (a vector norm,
never :math:`\rho`).

Global minimization. With :math:`u = e^t` and
:math:`s = \max(|m|^{1/2}, \|w_0^{(1)}\|_2, |\gamma m|^{1/3})`, every
stationary point of R on the curve (so every local minimizer) satisfies

.. math:: \frac{m^2}{13 s^3} \le u \le 2s \qquad (m \ne 0).

Proof, from the derivative (9) of the objective:
:math:`\tfrac12 p'(u) = u - \langle\hat w, w_0\rangle - (m/u - \gamma)m/u^2`
with :math:`|\langle\hat w, w_0\rangle| \le s`. For :math:`u > 2s`,
:math:`u - \langle\hat w, w_0\rangle \ge u/2 \ge s` while
:math:`|(m/u-\gamma)m/u^2| \le s^4/u^3 + s^3/u^2 \le 3s/8`, so :math:`p' > 0`.
For :math:`u < m^2/(13s^3) \le s/13`,
:math:`u^3 p'(u)/2 = -m^2 + \gamma m u - \langle\hat w, w_0\rangle u^3 + u^4`
and the last three terms are at most :math:`u(s^3 + 4s^3 + 8s^3) < m^2` in
absolute value, so :math:`p' < 0`. (The upper bound is Fujiwara's bound on
the roots of eq. (10); only the bound, not the roots, is used.)

The search therefore runs on :math:`\tau = t - \log s` over
:math:`[2\log(|m|/s^2) - \log 13 - \delta,\ \log 2 + \delta]`, with a
margin :math:`\delta = \max(\tfrac12, h)` of at least one grid step h: a
uniform grid (log-spaced in :math:`\|w^{(1)}\|_2`), evaluated for a whole batch
by broadcasting, whose end cells lie where R is strictly monotone (checked: R
must increase towards both ends, which fails only if R overflows). Every
interior local minimum of the grid is then refined by golden-section search on
the bracket of its two neighbours, vectorized over all brackets, down to a
bracket width ``tol`` in :math:`\tau`; the best value wins.

Error theory. The refined minimizer is within ``tol`` of a local minimizer in
:math:`\tau`, so its value exceeds the local minimum by at most
:math:`R_{\tau\tau}\,\mathrm{tol}^2/2`; below that, the comparisons see only
the float64 rounding of the vector norms, a few ulps of
:math:`\|w^{(1)}\|^2 + \|w_0^{(1)}\|^2 + (w^{(2)})^2 + \gamma^2`. A grid
misses a local minimum only if it and the adjacent local maximum lie inside
one grid cell of width h (next to a fold, where two stationary points merge);
the dip it misses is then at most :math:`\max|R_{\tau\tau\tau}|\,h^3/12`
deep.

``m = 0`` follows the convention of :mod:`implicit_bias.numerics.relu_penalty`:
the infimum of eq. (5) over switching off either layer. With the readout off
(:math:`w^{(2)} = 0`), :math:`\min_{u\ge 0}\|u\hat w - w_0\|^2 + \gamma^2` is
attained at the projection :math:`u = \max(\langle\hat w, w_0\rangle, 0)`
(:math:`u = 0` being the limit :math:`t\to-\infty`); with the hidden weights
off (:math:`w^{(1)}\to 0`, :math:`w^{(2)} = \gamma`) the infimum is
:math:`\|w_0\|^2`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import ConvergenceError, InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    as_finite_array,
    as_finite_arrays,
    check_integer,
    check_real,
    check_seed,
    relu_unit_arguments,
)

__all__ = [
    "UNIT_NORM_TOLERANCE",
    "UnitDeviationResult",
    "minimize_unit_deviation",
    "minimize_unit_deviation_batch",
    "unit_deviation",
]

Float64Array = NDArray[np.float64]

#: ``w_hat`` must have Euclidean norm 1 within this absolute tolerance. Normalizing
#: a float64 vector leaves an error of about ``sqrt(d) * eps`` (< 1e-13 for
#: d <= 1e6); 1e-10 admits that and still rejects any vector not meant as a unit
#: vector. Accepted vectors are renormalized before use.
UNIT_NORM_TOLERANCE = 1e-10

#: Largest ``grid_size``: a grid is evaluated whole (B x grid_size x d floats, in
#: chunks), and 2^20 points resolve t = log||w1|| far below any useful ``tol``.
_MAX_GRID_SIZE = 1 << 20
#: Largest ``dimension`` of :func:`minimize_unit_deviation_batch`: the vectors are
#: stored whole, and the unit-norm tolerance above is argued for d <= 1e6.
_MAX_DIMENSION = 10**6

#: Least margin, in units of t = log||w1||, between the proven bounds on the
#: minimizers and the ends of the grid; it is widened to one grid step if needed,
#: so that both end cells lie where R is strictly monotone.
_MARGIN = 0.5
#: The golden-section ratio 1/phi.
_INVERSE_PHI = (math.sqrt(5.0) - 1.0) / 2.0
#: The float64 machine epsilon: the relative spacing of float64 numbers.
_EPS = float(np.finfo(np.float64).eps)
#: Upper bound on batch points x grid points x dimension evaluated at once.
_CHUNK_ELEMENTS = 1 << 22


@dataclass(frozen=True, eq=False)
class UnitDeviationResult:
    r"""The minimizer of eq. (5) for one hidden unit, found by direct search.

    Attributes:
      penalty: the minimum :math:`\tilde r` of R.
      hidden_weights: the minimizing :math:`w^{(1)} \in \mathbb{R}^d` (read-only).
      readout: the minimizing :math:`w^{(2)}`.
      scale: :math:`\|w^{(1)}\|_2`, the u of eq. (6).
      evaluations: how many times R was evaluated (grid and refinement).
      grid_minima: how many interior local minima of the grid were refined.
    """

    penalty: float
    hidden_weights: Float64Array
    readout: float
    scale: float
    evaluations: int
    grid_minima: int


def _deviation(
    w1: Float64Array, w2: Float64Array, w0: Float64Array, gamma: Float64Array
) -> Float64Array:
    """R of eq. (5) from the vectors; the last axis of ``w1`` and ``w0`` is d."""
    difference = w1 - w0
    return np.asarray((w2 - gamma) ** 2 + np.sum(difference * difference, axis=-1))


def _deviation_on_curve(
    tau: Float64Array,
    w_hat: Float64Array,
    w0: Float64Array,
    m: Float64Array,
    gamma: Float64Array,
    log_s: Float64Array,
) -> Float64Array:
    """R at ``w1 = exp(log_s + tau) w_hat``, ``w2 = m exp(-log_s - tau)``.

    ``tau`` has shape (B, ...) and the parameters shape (B,) (``w_hat``, ``w0``:
    (B, d)); the result has the shape of ``tau``.
    """
    extra = (1,) * (tau.ndim - 1)
    with np.errstate(over="ignore", invalid="ignore"):
        t = log_s.reshape(-1, *extra) + tau
        u = np.exp(t)
        w2 = m.reshape(-1, *extra) * np.exp(-t)
        w1 = u[..., None] * w_hat.reshape(w_hat.shape[0], *extra, -1)
        return _deviation(
            w1, w2, w0.reshape(w0.shape[0], *extra, -1), gamma.reshape(-1, *extra)
        )


def _switched_off(
    w_hat: Float64Array, w0: Float64Array, gamma: Float64Array
) -> tuple[Float64Array, Float64Array, Float64Array]:
    """Penalty, scale and readout at ``m = 0``: the better layer to switch off.

    Readout off: ``w2 = 0`` and ``w1`` the projection of ``w0`` on the ray of
    ``w_hat``. Hidden weights off: the infimum ``||w0||^2`` as ``w1 -> 0`` with
    ``w2 = gamma``. Ties go to the readout switched off, as in the numerics.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        projection = np.maximum(np.sum(w_hat * w0, axis=-1), 0.0)
        zero_readout = np.zeros_like(gamma)
        off_readout = _deviation(projection[:, None] * w_hat, zero_readout, w0, gamma)
        off_hidden = _deviation(np.zeros_like(w0), gamma, w0, gamma)
    readout_off = off_readout <= off_hidden
    return (
        np.where(readout_off, off_readout, off_hidden),
        np.where(readout_off, projection, 0.0),
        np.where(readout_off, 0.0, gamma),
    )


def _golden_section(
    lower: Float64Array,
    upper: Float64Array,
    best_tau: Float64Array,
    best_value: Float64Array,
    evaluate: Callable[[Float64Array], Float64Array],
    tol: float,
) -> tuple[Float64Array, Float64Array, int]:
    """Golden-section search on every bracket at once; the best point ever seen wins."""
    width = float(np.max(upper - lower))
    # No bracket shrinks below the float64 spacing of its ends, about
    # eps |tau|: a finer tol is clamped there (log(width / 5e-324) overflowed).
    resolution = _EPS * float(np.max(np.maximum(np.abs(lower), np.abs(upper))))
    reachable = max(tol, resolution)
    steps = max(0, math.ceil(math.log(width / reachable) / -math.log(_INVERSE_PHI)))
    a, b = lower.copy(), upper.copy()
    c = b - _INVERSE_PHI * (b - a)
    d = a + _INVERSE_PHI * (b - a)
    f_c, f_d = evaluate(c), evaluate(d)
    for x, f_x in ((c, f_c), (d, f_d)):
        better = f_x < best_value
        best_tau, best_value = (
            np.where(better, x, best_tau),
            np.where(better, f_x, best_value),
        )
    for _ in range(steps):
        left = f_c < f_d  # a minimum lies in [a, d]
        a = np.where(left, a, c)
        b = np.where(left, d, b)
        x = np.where(left, b - _INVERSE_PHI * (b - a), a + _INVERSE_PHI * (b - a))
        f_x = evaluate(x)
        c, f_c, d, f_d = (
            np.where(left, x, d),
            np.where(left, f_x, f_d),
            np.where(left, c, x),
            np.where(left, f_c, f_x),
        )
        better = f_x < best_value
        best_tau, best_value = (
            np.where(better, x, best_tau),
            np.where(better, f_x, best_value),
        )
    return best_tau, best_value, 2 + steps


def _minimize_batch(
    w_hat: Float64Array,
    w0: Float64Array,
    m: Float64Array,
    gamma: Float64Array,
    grid_size: int,
    tol: float,
) -> tuple[
    Float64Array, Float64Array, Float64Array, NDArray[np.int64], NDArray[np.int64]
]:
    """(penalty, scale, readout, evaluations, grid minima) for B units.

    ``w_hat`` and ``w0`` have shape (B, d), ``m`` and ``gamma`` shape (B,).
    """
    count = m.shape[0]
    penalty = np.empty(count)
    scale = np.empty(count)
    readout = np.empty(count)
    evaluations = np.zeros(count, dtype=np.int64)
    grid_minima = np.zeros(count, dtype=np.int64)

    zero = m == 0
    if zero.any():
        penalty[zero], scale[zero], readout[zero] = _switched_off(
            w_hat[zero], w0[zero], gamma[zero]
        )
        evaluations[zero] = 2

    live = np.flatnonzero(~zero)
    if live.size == 0:
        _check_finite_penalty(penalty, m, gamma)
        return penalty, scale, readout, evaluations, grid_minima
    w_hat_l, w0_l, m_l, gamma_l = w_hat[live], w0[live], m[live], gamma[live]
    abs_m = np.abs(m_l)
    log_s = _log_scale(abs_m, w0_l, gamma_l)
    # The module docstring's bounds m^2/(13 s^3) <= u <= 2s, in tau = log(u/s).
    lower = 2.0 * (np.log(abs_m) - 2.0 * log_s) - math.log(13.0)
    upper = np.full_like(lower, math.log(2.0))
    # margin >= grid step (upper - lower + 2 margin) / (grid_size - 1).
    margin = np.maximum(_MARGIN, (upper - lower) / (grid_size - 3))
    lower, upper = lower - margin, upper + margin
    fraction = np.linspace(0.0, 1.0, grid_size)
    tau = lower[:, None] + (upper - lower)[:, None] * fraction
    values = np.empty_like(tau)
    rows = max(1, _CHUNK_ELEMENTS // (grid_size * w_hat.shape[-1]))
    for start in range(0, live.size, rows):
        part = slice(start, start + rows)
        values[part] = _deviation_on_curve(
            tau[part], w_hat_l[part], w0_l[part], m_l[part], gamma_l[part], log_s[part]
        )
    monotone_ends = (values[:, 0] > values[:, 1]) & (values[:, -1] > values[:, -2])
    if not monotone_ends.all():
        k = int(live[np.flatnonzero(~monotone_ends)[0]])
        raise ConvergenceError(
            f"R does not increase towards both ends of the grid for m={m[k]!r}, "
            f"gamma={gamma[k]!r}, ||w0||={float(np.linalg.norm(w0[k]))!r}: the "
            "objective overflows float64 there; rescale the problem (R scales as "
            "lambda^2 under w0 -> lambda w0, m -> lambda^2 m, gamma -> lambda gamma)"
        )

    # Every interior local minimum of the grid (the first point of a flat run).
    inner = values[:, 1:-1]
    point, index = np.nonzero((inner < values[:, :-2]) & (inner <= values[:, 2:]))
    index = index + 1

    def objective(x: Float64Array) -> Float64Array:
        return _deviation_on_curve(
            x, w_hat_l[point], w0_l[point], m_l[point], gamma_l[point], log_s[point]
        )

    best_tau, best_value, per_bracket = _golden_section(
        tau[point, index - 1],
        tau[point, index + 1],
        tau[point, index],
        values[point, index],
        objective,
        tol,
    )
    order = np.lexsort((best_value, point))
    first = np.unique(point[order], return_index=True)[1]
    winner = order[first]
    # Each live point has at least one interior grid minimum: the ends increase.
    penalty[live] = best_value[winner]
    scale[live] = np.exp(log_s + best_tau[winner])
    readout[live] = m_l * np.exp(-(log_s + best_tau[winner]))
    brackets = np.bincount(point, minlength=live.size)
    grid_minima[live] = brackets
    evaluations[live] = grid_size + per_bracket * brackets
    _check_finite_penalty(penalty, m, gamma)
    return penalty, scale, readout, evaluations, grid_minima


def _check_finite_penalty(
    penalty: Float64Array, m: Float64Array, gamma: Float64Array
) -> None:
    """ConvergenceError where a minimum of R overflows float64 (m = 0 included)."""
    if not np.isfinite(penalty).all():
        k = int(np.flatnonzero(~np.isfinite(penalty))[0])
        raise ConvergenceError(
            f"the minimum of R overflows float64 for m={m[k]!r}, gamma={gamma[k]!r}: "
            "rescale the problem (R scales as lambda^2 under w0 -> lambda w0, "
            "m -> lambda^2 m, gamma -> lambda gamma)"
        )


def _log_scale(
    abs_m: Float64Array, w0: Float64Array, gamma: Float64Array
) -> Float64Array:
    """log s with s = max(|m|^(1/2), ||w0||, |gamma m|^(1/3)), for m != 0."""
    with np.errstate(divide="ignore"):
        return np.asarray(
            np.maximum.reduce(
                [
                    0.5 * np.log(abs_m),
                    np.log(np.linalg.norm(w0, axis=-1)),
                    (np.log(np.abs(gamma)) + np.log(abs_m)) / 3.0,
                ]
            )
        )


def _as_vector(name: str, value: ArrayLike) -> Float64Array:
    """A finite, non-empty float64 vector, or InvalidArgumentError naming ``name``."""
    vector = as_finite_array(name, value, ndim=1, shape="(d,)")
    if vector.size == 0:
        raise InvalidArgumentError(
            f"{name} has shape {vector.shape}: {name} must have shape (d,), d >= 1"
        )
    return vector


def _as_scalar(name: str, value: ArrayLike) -> float:
    return check_real(name, value, meaning="a real scalar")


def _check_search_options(grid_size: int, tol: float) -> tuple[int, float]:
    size = check_integer(
        "grid_size",
        grid_size,
        min_value=8,
        max_value=_MAX_GRID_SIZE,
        meaning="the number of grid points in t",
    )
    tolerance = check_real(
        "tol",
        tol,
        min_value=0.0,
        max_value=1.0,
        exclusive=True,
        meaning="the final bracket width in t, in (0, 1)",
    )
    return size, tolerance


def unit_deviation(
    hidden_weights: ArrayLike, readout: ArrayLike, w0: ArrayLike, gamma: ArrayLike
) -> Float64Array:
    r"""The deviation R of one hidden unit from its initialization, eq. (5).

    .. math:: R = (w_h^{(2)} - \gamma)^2 + \|w_h^{(1)} - w_{0h}^{(1)}\|_2^2

    Let :math:`w_h^{(1)}` be ``hidden_weights``, :math:`w_h^{(2)}` be
    ``readout``, :math:`w_{0h}^{(1)}` be ``w0`` and :math:`\gamma` be ``gamma``.
    Batched over leading axes; the last axis of the vectors is d.

    Args:
      hidden_weights: first-layer weights, shape (..., d), finite.
      readout: readout weight, shape broadcasting with (...), finite.
      w0: pretrained first-layer weights, shape (..., d), finite.
      gamma: readout initialization, finite.

    Returns:
      R, a float64 array of the broadcast leading shape.

    Raises:
      InvalidArgumentError: a value is not real and finite, a vector is
        0-dimensional or has d = 0, or the shapes do not broadcast.
      OutOfRangeError: R overflows float64 (rescale the weights).

    Examples:
      At the initialization itself the deviation vanishes:

      >>> float(unit_deviation([1.0, 2.0], 0.1, [1.0, 2.0], 0.1))
      0.0
      >>> bool(np.isclose(unit_deviation([3.0, 0.0], 2.0, [0.0, 4.0], 1.0), 1.0 + 25.0))
      True

    References:
      Eq. (5) of ptft-relu-penalty.
    """
    w1_ = as_finite_array("hidden_weights", hidden_weights)
    w0_ = as_finite_array("w0", w0)
    for name, vector in (("hidden_weights", w1_), ("w0", w0_)):
        if vector.ndim == 0 or vector.shape[-1] == 0:
            raise InvalidArgumentError(
                f"{name} has shape {vector.shape}: {name} must have shape (..., d) "
                "with d >= 1"
            )
    w1_, w0_ = as_finite_arrays({"hidden_weights": w1_, "w0": w0_})
    w2_, gamma_, _ = as_finite_arrays(
        {"readout": readout, "gamma": gamma, "hidden_weights": w1_[..., 0]}
    )
    with np.errstate(over="ignore", invalid="ignore"):
        deviation = _deviation(w1_, w2_, w0_, gamma_)
    if not np.all(np.isfinite(deviation)):
        raise OutOfRangeError(
            "R overflows float64 for these hidden_weights, readout, w0 and gamma: "
            "rescale them (R is quadratic in the weights)"
        )
    return deviation


def minimize_unit_deviation(
    w_hat: ArrayLike,
    m: float,
    w0: ArrayLike,
    gamma: float,
    *,
    grid_size: int = 4096,
    tol: float = 1e-12,
) -> UnitDeviationResult:
    r"""The penalty :math:`\tilde r` of eq. (5), by global search over the weights.

    .. math:: \tilde r(\hat w_h, m_h \mid w_{0h}^{(1)}, \gamma)
              = \min_{t\in\mathbb{R}} (m_h e^{-t} - \gamma)^2
              + \|e^t \hat w_h - w_{0h}^{(1)}\|_2^2

    Eq. (5) of ptft-relu-penalty on its feasible curve
    :math:`w_h^{(1)} = e^t\hat w_h`, :math:`w_h^{(2)} = m_h e^{-t}`, minimized by
    a grid in t over the proven range of the minimizers and golden-section
    refinement of every local minimum of the grid (module docstring); neither
    the quartic (10) nor the form (8) is used. Let :math:`\hat w_h` be
    ``w_hat``, :math:`m_h` be ``m``, :math:`w_{0h}^{(1)}` be ``w0`` and
    :math:`\gamma` be ``gamma``. At ``m = 0`` the infimum over switching off
    either layer is returned (module docstring).

    Args:
      w_hat: direction of the hidden weights, shape (d,), Euclidean norm 1
        within :data:`UNIT_NORM_TOLERANCE` (renormalized before use).
      m: signed magnitude :math:`\|w_h^{(1)}\|_2 w_h^{(2)}`, finite.
      w0: pretrained hidden weights, shape (d,), finite.
      gamma: readout initialization, finite (negative allowed).
      grid_size: number of grid points in t, in [8, 2^20]. The miss error next to a
        fold is below :math:`\max|R_{ttt}|h^3/12` for spacing h (module
        docstring).
      tol: final bracket width of the refinement in :math:`t - \log s`; the
        penalty is then within :math:`R_{tt}\mathrm{tol}^2/2` plus rounding of
        the local minimum. A width below the float64 spacing of the bracket's
        ends (about :math:`2.2\cdot10^{-16}|t - \log s|`) is unreachable, and
        the refinement stops there.

    Returns:
      A :class:`UnitDeviationResult`.

    Raises:
      InvalidArgumentError: a vector is not of shape (d,) or not finite, the
        shapes of ``w_hat`` and ``w0`` differ, ``w_hat`` is not a unit vector,
        ``m`` or ``gamma`` is not a finite scalar, or an option is out of range.
      ConvergenceError: R overflows float64 on the search range.

    Examples:
      A fresh unit (:math:`w_0 = 0`, :math:`\gamma = 0`) balances its layers,
      :math:`\|w^{(1)}\| = |w^{(2)}| = \sqrt{|m|}`, at cost :math:`2|m|`:

      >>> result = minimize_unit_deviation([0.6, 0.8], 4.0, [0.0, 0.0], 0.0)
      >>> bool(np.isclose(result.penalty, 8.0) and np.isclose(result.scale, 2.0))
      True
      >>> bool(np.isclose(result.readout * result.scale, 4.0))
      True

    References:
      Eq. (5) of ptft-relu-penalty.
    """
    w_hat_ = _as_vector("w_hat", w_hat)
    w0_ = _as_vector("w0", w0)
    if w_hat_.shape != w0_.shape:
        raise InvalidArgumentError(
            f"w_hat has shape {w_hat_.shape} but w0 has shape {w0_.shape}: "
            "both live in the same R^d"
        )
    norm = float(np.linalg.norm(w_hat_))
    if not abs(norm - 1.0) <= UNIT_NORM_TOLERANCE:
        raise InvalidArgumentError(
            f"w_hat has norm {norm!r}: w_hat is a unit direction, its norm must be 1 "
            f"within {UNIT_NORM_TOLERANCE:g}"
        )
    m_ = _as_scalar("m", m)
    gamma_ = _as_scalar("gamma", gamma)
    size, tolerance = _check_search_options(grid_size, tol)
    direction = w_hat_ / norm
    penalty, scale, readout, evaluations, grid_minima = _minimize_batch(
        direction[None], w0_[None], np.array([m_]), np.array([gamma_]), size, tolerance
    )
    u = float(scale[0])
    hidden = u * direction
    hidden.setflags(write=False)
    return UnitDeviationResult(
        penalty=float(penalty[0]),
        hidden_weights=hidden,
        readout=float(readout[0]),
        scale=u,
        evaluations=int(evaluations[0]),
        grid_minima=int(grid_minima[0]),
    )


def minimize_unit_deviation_batch(
    m: ArrayLike,
    rho: ArrayLike,
    m0: ArrayLike,
    gamma: ArrayLike,
    *,
    dimension: int = 3,
    rng: np.random.Generator | int | None = None,
    grid_size: int = 4096,
    tol: float = 1e-12,
) -> Float64Array:
    r"""The penalty :math:`\tilde r` of eq. (5) for units built from m, rho, m0, gamma.

    .. math:: \hat w = e_1,\quad w_0^{(1)} = m_0(\rho\, e_1 + \sqrt{1-\rho^2}\, e_2),
              \quad \tilde r = \min_t (m e^{-t}-\gamma)^2
              + \|e^t\hat w - w_0^{(1)}\|_2^2

    For every point, a random orthonormal pair :math:`(e_1, e_2)` in
    :math:`\mathbb{R}^d` (QR of a Gaussian matrix) carries the vectors, so that
    :math:`\langle\hat w, w_0\rangle/\|w_0\| = \rho` and :math:`\|w_0\| = m_0`;
    then eq. (5) is minimized as in :func:`minimize_unit_deviation`, the grid
    vectorized over the batch and the refinement over all brackets. Let
    :math:`m_h` be ``m``, :math:`\rho_h` be ``rho``, :math:`m_{0h}^{(1)}` be
    ``m0`` and :math:`\gamma` be ``gamma``.

    Args:
      m: signed magnitudes, finite.
      rho: cosine similarities in ``[-1, 1]``.
      m0: norms of the pretrained hidden weights, ``>= 0``.
      gamma: readout initializations, finite.
      dimension: d, an integer in [2, 10^6] (two directions
        are needed for rho != +-1).
      rng: a Generator, or a seed (integer >= 0) for ``np.random.default_rng``;
        None means seed 0, so results are reproducible.
      grid_size, tol: as for :func:`minimize_unit_deviation`.

    Returns:
      The penalties, a float64 array of the broadcast shape of the arguments.

    Raises:
      InvalidArgumentError: an argument is not finite, the shapes do not
        broadcast, rho is outside ``[-1, 1]``, m0 is negative, or an option is
        out of range.
      ConvergenceError: R overflows float64 on the search range.

    Examples:
      With :math:`\rho = 1` and :math:`m = \gamma m_0` no deviation is needed;
      a fresh unit costs :math:`2|m|`:

      >>> penalty = minimize_unit_deviation_batch(
      ...     [0.2, -3.0], [1.0, 0.5], [2.0, 0.0], [0.1, 0.0]
      ... )
      >>> bool(np.allclose(penalty, [0.0, 6.0], atol=1e-12))
      True

    References:
      Eq. (5) of ptft-relu-penalty.
    """
    m_, rho_, m0_, gamma_ = relu_unit_arguments(m, rho, m0, gamma)
    d = check_integer(
        "dimension",
        dimension,
        min_value=2,
        max_value=_MAX_DIMENSION,
        meaning="d; w_hat and w0 need two directions",
    )
    size, tolerance = _check_search_options(grid_size, tol)
    if rng is None:
        generator = np.random.default_rng(0)
    elif isinstance(rng, np.random.Generator):
        generator = rng
    else:
        generator = np.random.default_rng(check_seed("rng", rng))
    shape = m_.shape
    count = m_.size
    frame, _ = np.linalg.qr(generator.standard_normal((count, d, 2)))
    e1, e2 = frame[..., 0], frame[..., 1]
    rho_flat = rho_.ravel()
    # sqrt(1 - rho^2) as sqrt((1 - rho)(1 + rho)): no cancellation near |rho| = 1.
    sine = np.sqrt((1.0 - rho_flat) * (1.0 + rho_flat))
    w0 = m0_.ravel()[:, None] * (rho_flat[:, None] * e1 + sine[:, None] * e2)
    penalty, _, _, _, _ = _minimize_batch(
        e1, w0, m_.ravel(), gamma_.ravel(), size, tolerance
    )
    return penalty.reshape(shape)
