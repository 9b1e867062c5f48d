r"""The multi-task :math:`\ell_{1,2}` norm and its minimum-norm interpolant.

Eq. (30) of ptft-diagonal-networks: the minimum parameter norm of a multi-task
diagonal linear network with coefficients :math:`\beta\in\mathbb{R}^{O\times D}`
is :math:`2\|\beta\|_{1,2} = 2\sum_d \|\vec\beta_d\|_2`, so small-initialization
training is biased towards the interpolant of least :math:`\ell_{1,2}` norm.
"""

from __future__ import annotations

import contextlib
import warnings
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import ConvergenceError, InvalidArgumentError
from implicit_bias.numerics.arguments import (
    as_finite_array,
    check_tolerance,
)
from implicit_bias.numerics.linear_systems import (
    check_linear_system,
    reduce_linear_system,
)

__all__ = ["L12Solution", "l12_norm", "min_l12_interpolant"]

Float64Array = NDArray[np.float64]

_EPS = float(np.finfo(np.float64).eps)
#: Armijo's sufficient-decrease fraction and the smallest step tried.
_ARMIJO = 0.25
_MIN_STEP = 2.0**-60


# ---------------------------------------------------------------------------
# The l_{1,2} norm and its minimum-norm interpolant.
# ---------------------------------------------------------------------------


def _column_norms(b: Float64Array) -> Float64Array:
    """Euclidean norms over axis -2, scaled so that no square under- or overflows."""
    scale = np.max(np.abs(b), axis=-2, keepdims=True)
    safe = np.where(scale > 0, scale, 1.0)
    scaled = b / safe
    return np.asarray(
        safe[..., 0, :] * np.sqrt(np.sum(scaled * scaled, axis=-2)), dtype=np.float64
    )


def l12_norm(B: ArrayLike) -> Float64Array:
    r"""The :math:`\ell_{1,2}` norm of eq. (30): the sum over inputs of output norms.

    .. math:: \|\beta\|_{1,2} = \sum_{d=1}^D \|\vec\beta_d\|_2
              = \sum_{d=1}^D \Big(\sum_{o=1}^O \beta_{o,d}^2\Big)^{1/2}

    :math:`\beta\in\mathbb{R}^{O\times D}` as in eq. (24) (rows: outputs o,
    columns: inputs d). Each column is scaled by its largest entry before
    squaring, so nothing under- or overflows before the result does. The
    minimum parameter norm of a multi-output diagonal network with effective
    weights :math:`\beta` is twice this (eq. 30).

    Args:
      B: effective weights, shape (..., O, D), finite; leading axes are batch
        axes.

    Returns:
      :math:`\|\beta\|_{1,2}`, a float64 array of shape ``B.shape[:-2]``.

    Raises:
      InvalidArgumentError: ``B`` is not finite or has fewer than 2 axes.

    Examples:
      With one output it is the :math:`\ell_1` norm:

      >>> bool(l12_norm([[3.0, -4.0, 0.5]]) == 7.5)
      True
      >>> bool(l12_norm([[3.0, 0.0], [4.0, 1e-300]]) == 5.0 + 1e-300)
      True

    References:
      Eqs. (24) and (28)-(30) of ptft-diagonal-networks.
    """
    b = as_finite_array("B", B)
    if b.ndim < 2 or 0 in b.shape:
        raise InvalidArgumentError(
            f"B has shape {b.shape}: B must be (..., O, D) with O, D >= 1 "
            "(outputs by inputs, eq. 24)"
        )
    return np.asarray(np.sum(_column_norms(b), axis=-1), dtype=np.float64)


class L12Solution(NamedTuple):
    r"""A certified minimizer of the :math:`\ell_{1,2}` norm (eq. 30) over interpolants.

    .. math:: \|\beta\|_{1,2} - \langle\Lambda, Y\rangle \ge 0 \ \text{for every}\
              X\beta^\top = Y,\ \max_d\|(X^\top\Lambda)_d\|_2 \le 1

    Fields:
      beta: the interpolant :math:`\beta`, shape (O, D), with
        :math:`X\beta^\top = Y` to rounding.
      dual: a dual-feasible :math:`\Lambda`, shape (n, O):
        :math:`\|(X^\top\Lambda)_d\|_2 \le 1` for every d (to rounding).
      duality_gap: :math:`\|\beta\|_{1,2} - \langle\Lambda, Y\rangle \ge 0`
        (clipped at 0 against rounding), a bound on how far
        :math:`\|\beta\|_{1,2}` is above the minimum.

    Examples:
      >>> solution = min_l12_interpolant(np.eye(2), [[1.0], [-2.0]])
      >>> bool(solution.duality_gap <= 1e-10 * l12_norm(solution.beta))
      True

    References:
      Eq. (30) of ptft-diagonal-networks and its Lagrange dual.
    """

    beta: Float64Array
    dual: Float64Array
    duality_gap: float


#: Barrier parameters of the central path, relative to ||Y|| in the reduced
#: coordinates, go from 1 down by factors of 50; at each of these the support
#: is read off and polished (a smaller one separates columns whose dual norm is
#: nearer 1, at the price of slack variables resolved to fewer digits).
_POLISH_LEVELS = (1e-8, 1e-10, 1e-12)
_BARRIER_SHRINK = 0.02
#: Newton steps per barrier parameter at most; centering stops when the Newton
#: decrement of the barrier-scaled objective is below this (the polish, not the
#: path, makes the final digits; a stage that stalls hands over as it is).
_BARRIER_STEPS = 80
_CENTERED = 1e-3
#: A barrier step goes at most this fraction of the way to the boundary of the
#: dual feasible set, so that no slack 1 - ||v_d||^2 falls below half its value
#: in one step (the slack is concave along the step). Going 0.99 of the way (the
#: primal-dual habit) lets one step pin some v_d against its sphere
#: ||v_d|| = 1 pointing the wrong way; with O >= 2 outputs it can then only turn
#: along the sphere by about sqrt(slack) per step, and the path stalls.
_BOUNDARY_FRACTION = 0.5
#: Newton steps on the KKT equations per support, and supports tried per level.
_POLISH_STEPS = 30
#: Relative size below which the polish treats KKT directions as singular.
_RANK_RCOND = 1e-12
_POLISH_ROUNDS = 4
#: Smallest damping factor of a polish step before the polish stops.
_MIN_POLISH_STEP = 2.0**-20


def _barrier_objective(
    lam: Float64Array, a: Float64Array, c: Float64Array, mu: float
) -> float:
    v = a.T @ lam
    slack = 1.0 - np.einsum("do,do->d", v, v)
    if np.any(slack <= 0):
        return -np.inf
    return float(np.sum(lam * c) + mu * np.sum(np.log(slack)))


def _central_path(
    a: Float64Array, c: Float64Array, lam: Float64Array, mu: float, mu_final: float
) -> tuple[Float64Array, Float64Array]:
    """Follow the log-barrier central path of the l12 dual from ``mu`` to ``mu_final``.

    Starts at the dual point ``lam`` (strictly feasible); returns the last dual
    iterate and the primal point it defines,
    :math:`b_d = 2\\mu v_d/(1-\\|v_d\\|^2)` (feasible up to the centering).
    Damped Newton: each step goes at most :data:`_BOUNDARY_FRACTION` of the way
    to the boundary, then backtracks (Armijo) on the barrier objective.
    """
    # SciPy is imported at first use: importing numerics stays cheap.
    import scipy.linalg

    rank, dimension = a.shape
    outputs = c.shape[1]
    identity = np.eye(outputs)
    while True:
        for _ in range(_BARRIER_STEPS):
            v = a.T @ lam
            slack = 1.0 - np.einsum("do,do->d", v, v)
            primal = (2.0 * mu / slack)[:, None] * v
            gradient = (c - a @ primal).reshape(-1)
            # Hessian of -mu sum log(1 - |v_d|^2) through v = A^T lam:
            # sum_d a_d a_d^T (x) mu (2 I / s_d + 4 v_d v_d^T / s_d^2).
            outer = (a[:, :, None] * v[None, :, :]).transpose(0, 2, 1)
            outer = outer.reshape(rank * outputs, dimension) * (
                2.0 * np.sqrt(mu) / slack
            )
            hessian = (
                np.kron((a * (2.0 * mu / slack)) @ a.T, identity) + outer @ outer.T
            )
            try:
                step = scipy.linalg.cho_solve(
                    scipy.linalg.cho_factor(hessian, check_finite=False), gradient
                )
            except np.linalg.LinAlgError:
                step = np.linalg.lstsq(hessian, gradient, rcond=None)[0]
            increase = float(gradient @ step)
            decrement = np.sqrt(max(increase, 0.0) / mu)
            if decrement <= _CENTERED:
                break
            direction = step.reshape(rank, outputs)
            # Newton's step, or 0.99 of the way to the boundary if that is nearer,
            # then Armijo backtracking (the barrier keeps iterates inside).
            moved = a.T @ direction
            quadratic = np.einsum("do,do->d", moved, moved)
            linear = np.einsum("do,do->d", v, moved)
            with np.errstate(divide="ignore"):
                # Positive root of slack - 2 t linear - t^2 quadratic = 0.
                boundary = slack / (
                    linear + np.sqrt(linear * linear + quadratic * slack)
                )
            t = min(1.0, _BOUNDARY_FRACTION * float(np.min(boundary, initial=np.inf)))
            current = _barrier_objective(lam, a, c, mu)
            while _barrier_objective(lam + t * direction, a, c, mu) < (
                current + _ARMIJO * t * increase
            ):
                t *= 0.5
                if t < _MIN_STEP:
                    break
            if t < _MIN_STEP:
                break
            lam = lam + t * direction
        if mu <= mu_final:
            return lam, primal
        mu = max(mu * _BARRIER_SHRINK, mu_final)


def _kkt_step(matrix: Float64Array, rhs: Float64Array) -> Float64Array:
    """Solve the KKT system by LU, or by least squares where it is singular.

    Where LAPACK's condition estimate flags the matrix (a minimizer that is
    not unique, e.g. duplicated columns), QR with column pivoting (``gelsy``)
    drops the directions below :data:`_RANK_RCOND` of the largest and so gives
    a bounded step instead of a huge one.
    """
    import scipy.linalg

    with warnings.catch_warnings():
        warnings.simplefilter("error", scipy.linalg.LinAlgWarning)
        with contextlib.suppress(scipy.linalg.LinAlgWarning, np.linalg.LinAlgError):
            return np.asarray(scipy.linalg.solve(matrix, rhs, check_finite=False))
    # Singular or flagged ill-conditioned: least squares with a rank cutoff.
    return np.asarray(
        scipy.linalg.lstsq(matrix, rhs, cond=_RANK_RCOND, lapack_driver="gelsy")[0]
    )


def _kkt_residual(
    a_s: Float64Array, c: Float64Array, b: Float64Array, lam: Float64Array
) -> Float64Array | None:
    """The KKT residual of :func:`_polish`, or None where a column of ``b`` is 0."""
    norms = _column_norms(b.T)
    if np.any(norms == 0):
        return None
    unit = b / norms[:, None]
    return np.concatenate([(unit - a_s.T @ lam).ravel(), (a_s @ b - c).ravel()])


def _polish(
    a: Float64Array,
    c: Float64Array,
    support: NDArray[np.intp],
    start: Float64Array,
    lam: Float64Array,
) -> tuple[Float64Array, Float64Array]:
    r"""Newton's method on the KKT equations of the l12 problem restricted to a support.

    Unknowns :math:`b_d` (:math:`d\in S`) and :math:`\Lambda`; equations
    :math:`b_d/\|b_d\| = (A^\top\Lambda)_d` and :math:`A_S B_S = C`. Smooth
    where every :math:`b_d \ne 0`; converges quadratically near a solution.
    Damped: a step is halved until the residual norm falls by the Armijo
    fraction, since a column whose norm is small (near a phase transition the
    minimizer has columns 1e-4 of the largest) leaves Newton's region of fast
    convergence small, and a full step can throw the iterate far outside it.
    Returns the last iterate (the residual only decreases).
    """
    rank, outputs = c.shape
    a_s = a[:, support]
    size = support.size
    b = start[support].copy()
    lam = lam.copy()
    identity = np.eye(outputs)
    jacobian = np.zeros(((size + rank) * outputs, (size + rank) * outputs))
    jacobian[: size * outputs, size * outputs :] = -np.kron(a_s.T, identity)
    jacobian[size * outputs :, : size * outputs] = np.kron(a_s, identity)
    residual = _kkt_residual(a_s, c, b, lam)
    for _ in range(_POLISH_STEPS):
        if residual is None:
            break
        size_of_residual = float(np.linalg.norm(residual))
        norms = _column_norms(b.T)
        unit = b / norms[:, None]
        for j in range(size):
            block = slice(j * outputs, (j + 1) * outputs)
            jacobian[block, block] = (identity - np.outer(unit[j], unit[j])) / norms[j]
        step = _kkt_step(jacobian, -residual)
        step_b = step[: size * outputs].reshape(size, outputs)
        step_lam = step[size * outputs :].reshape(rank, outputs)
        t = 1.0
        while t >= _MIN_POLISH_STEP:
            trial = _kkt_residual(a_s, c, b + t * step_b, lam + t * step_lam)
            if trial is not None and float(np.linalg.norm(trial)) <= (
                (1.0 - _ARMIJO * t) * size_of_residual
            ):
                break
            t *= 0.5
        else:
            break  # no decrease left: converged to rounding, or stuck
        b, lam, residual = b + t * step_b, lam + t * step_lam, trial
    out = np.zeros_like(start)
    out[support] = b
    return out, lam


def _certificate(
    x: Float64Array, y: Float64Array, beta: Float64Array, dual: Float64Array
) -> tuple[float, float, Float64Array] | None:
    """(primal value, gap, dual scaled to feasibility) in the caller's coordinates.

    None where ``beta`` (shape (O, D)) misses the constraints by more than
    rounding, ``64 eps (||Y|| + || |X| |beta^T| ||)``: a gap means nothing there.
    """
    allowed = (
        64.0 * _EPS * (np.linalg.norm(y) + np.linalg.norm(np.abs(x) @ np.abs(beta.T)))
    )
    if not np.linalg.norm(x @ beta.T - y) <= allowed:
        return None
    primal = float(np.sum(_column_norms(beta)))
    worst = float(np.max(_column_norms((x.T @ dual).T)))
    if worst > 1.0:
        dual = dual / worst
    gap = max(primal - float(np.sum(dual * y)), 0.0)
    return primal, gap, dual


def min_l12_interpolant(
    X: ArrayLike, Y: ArrayLike, *, tol: float = 1e-10
) -> L12Solution:
    r"""The interpolant of least :math:`\ell_{1,2}` norm (eq. 30), certified by duality.

    .. math:: \min_{\beta\in\mathbb{R}^{O\times D}} \sum_d\|\vec\beta_d\|_2
              \ \text{s.t.}\ X\beta^\top = Y
              \quad=\quad \max_{\Lambda\in\mathbb{R}^{n\times O}}
              \langle\Lambda, Y\rangle\ \text{s.t.}\
              \|(X^\top\Lambda)_d\|_2 \le 1\ \forall d

    The minimum parameter-norm solution of a multi-output diagonal linear
    network (eqs. 26-30; with one output, basis pursuit, the minimum
    :math:`\ell_1` interpolant). Solved in the orthonormal row space of X:
    a log-barrier path on the dual (damped Newton, at most half-way to the
    boundary per step; barrier parameter from :math:`\|Y\|` down by factors
    of 50), read off the support at :math:`10^{-8}\|Y\|` (then
    :math:`10^{-10}`, :math:`10^{-12}` if needed), damped Newton's method on
    the KKT equations over that support (refined while a
    column outside it violates dual feasibility), which leaves the other
    columns exactly zero; the constraints are then met with the support's
    columns and the result certified. The path's own last point, projected
    onto the constraints, is the fallback. A Newton step costs
    :math:`O((rO)^3)`, r the rank of X (single-threaded: 0.05 s in all for
    n = 20, D = 100, O = 3; 0.4 s for n = 40, D = 200, O = 5).

    Args:
      X: inputs, shape (n, D), finite.
      Y: targets, shape (n, O), finite, in the column space of X.
      tol: the relative duality gap to certify,
        :math:`\text{gap} \le \text{tol}\cdot\|\beta\|_{1,2}`.

    Returns:
      An :class:`L12Solution` (``beta`` of shape (O, D), ``dual`` of shape
      (n, O), ``duality_gap``).

    Raises:
      InvalidArgumentError: an argument is not finite or has the wrong shape,
        ``Y`` is not in the column space of X (least-squares residual above
        ``CONSISTENCY_RTOL = 1e-8`` of :math:`\|Y\|_F`), or ``tol`` is outside
        (0, 1).
      ConvergenceError: the gap could not be brought below ``tol``; the
        message says what to try.

    Examples:
      One output: basis pursuit picks the sparsest-in-:math:`\ell_1` solution:

      >>> solution = min_l12_interpolant([[1.0, 2.0]], [[4.0]])
      >>> bool(np.allclose(solution.beta, [[0.0, 2.0]]))
      True

    References:
      Eqs. (24)-(30) of ptft-diagonal-networks.
    """
    x_, y_ = check_linear_system(X, Y, "Y", 2)
    if y_.shape[1] == 0:
        raise InvalidArgumentError(f"Y has shape {y_.shape}: Y needs at least 1 column")
    tol = check_tolerance("tol", tol)
    outputs = y_.shape[1]
    if not y_.any():
        return L12Solution(
            np.zeros((outputs, x_.shape[1])), np.zeros((x_.shape[0], outputs)), 0.0
        )
    system = reduce_linear_system(x_, y_, "Y", "")
    scale = float(np.linalg.norm(system.rhs))
    a, c = system.a, system.rhs / scale
    to_caller = system.u / system.sigma  # Lambda_X = U_r Sigma_r^-1 Lambda

    def certify(
        beta_t: Float64Array, lam: Float64Array, support: NDArray[np.intp]
    ) -> tuple[float, L12Solution] | None:
        # Meet the constraints exactly with the support's columns, then certify.
        beta_t = beta_t.copy()
        a_s = a[:, support]
        missing = c - a_s @ beta_t[support]
        beta_t[support] += np.linalg.lstsq(a_s, missing, rcond=None)[0]
        beta = np.ascontiguousarray(beta_t.T * scale)
        result = _certificate(x_, y_, beta, to_caller @ lam)
        if result is None:
            return None
        primal, gap, dual = result
        return gap / primal, L12Solution(beta, dual, gap)

    best: tuple[float, L12Solution] | None = None
    lam, mu = np.zeros_like(c), 1.0
    everything = np.arange(a.shape[1])
    for level in _POLISH_LEVELS:
        lam, primal = _central_path(a, c, lam, mu, level)
        mu = level
        norms = _column_norms(primal.T)
        # Off the support ||b_d|| ~ mu / (1 - ||v_d||), on it O(1).
        support = np.flatnonzero(norms > np.sqrt(level) * norms.max())
        for _ in range(_POLISH_ROUNDS):
            with np.errstate(all="ignore"):
                beta_t, polished = _polish(a, c, support, primal, lam)
            candidate = None
            if np.all(np.isfinite(beta_t)) and np.all(np.isfinite(polished)):
                candidate = certify(beta_t, polished, support)
            if candidate is not None and (best is None or candidate[0] < best[0]):
                best = candidate
            if best is not None and best[0] <= tol:
                return best[1]
            # Refine the support: add dual violators, drop columns that vanished.
            v_norms = _column_norms((a.T @ polished).T)
            b_norms = _column_norms(beta_t.T)
            keep = b_norms[support] > _EPS * b_norms.max()
            grow = (v_norms > 1.0 + 1e3 * _EPS) & ~np.isin(everything, support)
            new_support = np.union1d(support[keep], np.flatnonzero(grow))
            if new_support.size == 0 or np.array_equal(new_support, support):
                break
            support = new_support
    # No polish certified tol: the last point of the path, projected onto the
    # constraints (dense, but certified if the path got close enough).
    candidate = certify(primal, lam, everything)
    if candidate is not None and (best is None or candidate[0] < best[0]):
        best = candidate
    if best is not None and best[0] <= tol:
        return best[1]
    reached = f"{best[0]:.3g}" if best is not None else "none (no feasible point)"
    raise ConvergenceError(
        f"min_l12_interpolant: the best relative duality gap reached is {reached} "
        f"> tol={tol:g}; try a larger tol, or rescale X's columns to comparable norms "
        "(near-duplicate columns make the minimizer nearly non-unique)"
    )
