r"""The direct solvers: the relaxed problem (4) and Lemma 5's two-sided
problem (27) of adaptive-tangent-features by gradient descent, without the
reduction to effective penalties, and their result records.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    as_finite_array,
    check_iteration_count,
    check_real,
    check_seed,
)
from implicit_bias.numerics.tangent_features import Penalty
from implicit_bias.validation.tangent_features.descent import (
    DEFAULT_GRADIENT_TOLERANCE,
    DEFAULT_MAX_ITERATIONS,
    Float64Array,
    Point,
    _check_gradient_tol,
    _check_scale,
    _curvature,
    _descend,
    _inner,
    _power_exponent,
    _scaled_targets,
    _spectral_value_and_gradient,
    _starting_maps,
    _symmetric,
    _tangent_arguments,
)
from implicit_bias.validation.tangent_features.closed_forms import relaxed_dual_bound

__all__ = [
    "RelaxedProblemSolution",
    "TwoSidedSolution",
    "solve_relaxed_problem",
    "solve_two_sided_problem",
]


@dataclass(frozen=True, eq=False)
class RelaxedProblemSolution:
    r"""A direct solution of problem (4) with :math:`\Omega = \Omega_\omega`.

    Attributes:
      feature_map: the symmetric :math:`M` (P, P).
      coefficients: :math:`\delta = \theta - \theta_0` (P,), the minimum-norm
        solution of :math:`JM\delta = r` for this M.
      objective: :math:`\Omega_\omega(M) + \|\delta\|^2` at this feasible point,
        an upper bound on the minimum of (4).
      dual_bound: the Lagrangian lower bound at :math:`\lambda = u` (module
        docstring), a lower bound on the minimum of (4); ``-inf`` for p = 2
        where :math:`\|J^\top u\| \ge 1` (the Lagrangian is unbounded
        below) and where the bound is below the float64 range (p near 2), both
        only for a descent stopped far from the optimum.
      gradient_norm: Frobenius norm of the gradient at the end.
      curvature: the Hessian's smallest eigenvalue there (finite differences).
      iterations: descent iterations taken.
      converged: whether ``gradient_norm <= gradient_tol``.
    """

    feature_map: Float64Array
    coefficients: Float64Array
    objective: float
    dual_bound: float
    gradient_norm: float
    curvature: float
    iterations: int
    converged: bool

    @property
    def duality_gap(self) -> float:
        """``objective - dual_bound``: a rigorous bound on the suboptimality."""
        return self.objective - self.dual_bound

    @property
    def location_bound(self) -> float:
        r""":math:`\|\nabla F\|/\mu`, the first-order distance to the minimizer."""
        if self.curvature <= 0:
            return math.inf
        return self.gradient_norm / self.curvature


@dataclass(frozen=True, eq=False)
class TwoSidedSolution:
    r"""A direct solution of problem (27) for a single matrix B.

    Attributes:
      left_map: the symmetric :math:`M_1` (P, P).
      right_map: the symmetric :math:`M_2` (Q, Q).
      weights: :math:`W = M_1^{-1} B M_2^{-1}` (P, Q).
      objective: :math:`\Omega_{\omega_1}(M_1) + \Omega_{\omega_2}(M_2)
        + \|W\|_F^2`.
      gradient_norm: Frobenius norm of the gradient at the end.
      curvature: the Hessian's smallest eigenvalue there (finite differences).
      iterations: descent iterations taken.
      converged: whether ``gradient_norm <= gradient_tol``.
    """

    left_map: Float64Array
    right_map: Float64Array
    weights: Float64Array
    objective: float
    gradient_norm: float
    curvature: float
    iterations: int
    converged: bool

    @property
    def gap_bound(self) -> float:
        r""":math:`\|\nabla F\|^2/(2\mu)`, the first-order suboptimality bound."""
        if self.curvature <= 0:
            return math.inf
        return self.gradient_norm**2 / (2.0 * self.curvature)

    @property
    def location_bound(self) -> float:
        r""":math:`\|\nabla F\|/\mu`, the first-order distance to the minimizer."""
        if self.curvature <= 0:
            return math.inf
        return self.gradient_norm / self.curvature


def solve_relaxed_problem(
    tangent_features: ArrayLike,
    targets: ArrayLike,
    penalty: Penalty,
    *,
    init_scale: float = 0.0,
    seed: int = 0,
    gradient_tol: float = DEFAULT_GRADIENT_TOLERANCE,
    max_iterations: int = DEFAULT_MAX_ITERATIONS,
    gap_tol: float | None = None,
) -> RelaxedProblemSolution:
    r"""Solve problem (4) with :math:`\Omega = \Omega_\omega` by gradient descent.

    .. math:: \min_{M = M^\top}\ \Omega_\omega(M)
              + r^\top (J M^2 J^\top)^{-1} r,\qquad
              \delta = MJ^\top (JM^2J^\top)^{-1} r

    Let :math:`J` be ``tangent_features`` and :math:`r` be ``targets``
    (:math:`\hat y_i - f_{\theta_0}(x_i)`). The descent starts at the
    identity (the paper's :math:`M_{\theta_0} = I_P`) plus a random symmetric
    perturbation of Frobenius norm ``init_scale``; see the module docstring
    for the gradient, the stopping rule and the certificates returned.

    Args:
      tangent_features: J, (N, P), full row rank, N <= P.
      targets: r, (N,).
      penalty: :math:`\omega = |z-1|^p`, :math:`p\ge 2`, from
        :func:`implicit_bias.numerics.tangent_features.power_deviation`.
      init_scale: size of the perturbation of the start, in [0, 1).
      seed: seed of the perturbation, an integer >= 0.
      gradient_tol: stop once the gradient's Frobenius norm is at most this.
      max_iterations: most descent iterations, an integer >= 1.
      gap_tol: if given (a number >= 0), the descent also stops once the
        duality gap is at most ``gap_tol * (1 + |objective|)`` (tested every
        8 iterations), when the value is all that is wanted: the gap then
        certifies it to that accuracy whatever the gradient norm. None (the
        default): stop on the gradient norm or ``max_iterations`` only.

    Returns:
      A :class:`RelaxedProblemSolution`. Its dual bound is ``-inf`` (and its
      duality gap inf) for p = 2 when the descent stops where
      :math:`\|J^\top u\| \ge 1`, far from the optimum, and where the bound
      is below the float64 range.

    Raises:
      InvalidArgumentError: bad shapes, J not of full row rank, a penalty that
        is not a smooth power penalty, or bad settings.
      OutOfRangeError: the targets are too large relative to J for a descent
        in float64 (the objective overflows).

    Examples:
      One constraint: the optimum is :math:`\tilde\omega(\|\hat\beta\|)`
      and the duality gap certifies it.

      >>> from implicit_bias.numerics.tangent_features import squared_deviation
      >>> from implicit_bias.validation.tangent_features import theorem_one_value
      >>> J, r = [[1.0, 2.0, 0.0]], [3.0]
      >>> solution = solve_relaxed_problem(J, r, squared_deviation)
      >>> value = theorem_one_value(J, r, squared_deviation)
      >>> bool(solution.converged and solution.duality_gap < 1e-12)
      True
      >>> bool(abs(solution.objective - value) < 1e-12)
      True

    References:
      Problem (4), eq. (6) and Theorem 1 of adaptive-tangent-features.
    """
    features, targets_array, scale = _tangent_arguments(tangent_features, targets)
    exponent = _power_exponent(penalty, "penalty")
    tolerance = _check_gradient_tol(gradient_tol)
    iterations_cap = check_iteration_count("max_iterations", max_iterations)
    gap_limit = (
        None
        if gap_tol is None
        else check_real(
            "gap_tol",
            gap_tol,
            min_value=0.0,
            meaning="the duality gap, relative to 1 + |objective|, at which the "
            "descent may stop (>= 0), or None",
        )
    )
    start = _starting_maps(
        (features.shape[1],), _check_scale(init_scale), check_seed("seed", seed)
    )
    residual = _scaled_targets(targets_array, scale)

    def multiplier_and_coefficients(
        matrix: Float64Array,
    ) -> tuple[Float64Array, Float64Array] | None:
        mapped = features @ matrix
        try:
            factor = np.linalg.cholesky(mapped @ mapped.T)
        except np.linalg.LinAlgError:
            return None
        multiplier = np.linalg.solve(factor.T, np.linalg.solve(factor, residual))
        return multiplier, mapped.T @ multiplier

    def objective(point: Point) -> tuple[float, Point]:
        (matrix,) = point
        solved = multiplier_and_coefficients(matrix)
        if solved is None:
            return math.inf, point
        multiplier, coefficients = solved
        value, gradient = _spectral_value_and_gradient(penalty, exponent, matrix)
        pulled = features.T @ multiplier
        gradient = gradient - (
            np.outer(pulled, coefficients) + np.outer(coefficients, pulled)
        )
        return value + float(residual @ multiplier), (gradient,)

    def gap_reached(point: Point, value: float) -> bool:
        # The same bound as the solution's below, so its gap meets gap_limit.
        solved = multiplier_and_coefficients(point[0])
        if solved is None or gap_limit is None:  # pragma: no cover - feasible
            return False
        try:
            dual = relaxed_dual_bound(features, residual, solved[0], penalty)
        except OutOfRangeError:
            return False
        return value - dual <= gap_limit * (1.0 + abs(value))

    point, value, gradient, iterations, converged = _descend(
        objective,
        start,
        tolerance,
        iterations_cap,
        None if gap_limit is None else gap_reached,
    )
    (matrix,) = point
    solved = multiplier_and_coefficients(matrix)
    if solved is None:  # pragma: no cover - the descent only accepts finite values
        raise AssertionError("the descent ended at an infeasible point")
    multiplier, coefficients = solved
    try:
        dual = relaxed_dual_bound(features, residual, multiplier, penalty)
    except OutOfRangeError:
        # The bound is below the objective (weak duality), which is finite, so
        # it overflowed downwards: -inf is a valid, if empty, lower bound.
        dual = -math.inf
    return RelaxedProblemSolution(
        feature_map=matrix,
        coefficients=np.asarray(coefficients),
        objective=value,
        dual_bound=dual,
        gradient_norm=math.sqrt(_inner(gradient, gradient)),
        curvature=_curvature(objective, point),
        iterations=iterations,
        converged=converged,
    )


# ------------------------------------------------------------ problem (27)


def solve_two_sided_problem(
    target: ArrayLike,
    left_penalty: Penalty,
    right_penalty: Penalty,
    *,
    init_scale: float = 0.0,
    seed: int = 0,
    gradient_tol: float = DEFAULT_GRADIENT_TOLERANCE,
    max_iterations: int = DEFAULT_MAX_ITERATIONS,
) -> TwoSidedSolution:
    r"""Solve problem (27) for the constraint set :math:`\{B\}` by gradient descent.

    .. math:: \min_{M_1 = M_1^\top,\ M_2 = M_2^\top}\
              \Omega_{\omega_1}(M_1) + \Omega_{\omega_2}(M_2)
              + \|M_1^{-1} B M_2^{-1}\|_F^2

    Let B be ``target``, :math:`\omega_1` be ``left_penalty`` and
    :math:`\omega_2` be ``right_penalty``. Lemma 5 says the minimum is
    :math:`\tilde\Omega_{\omega_1\oplus\omega_2}(B) = \sum_j
    \widetilde{(\omega_1\oplus\omega_2)}(\sigma_j(B))`, attained with
    :math:`M_1, M_2` sharing B's singular vectors. The descent starts at the
    identities plus random symmetric perturbations of Frobenius norm
    ``init_scale``.

    Args:
      target: B, (P, Q), finite.
      left_penalty: :math:`\omega_1 = |z-1|^p`, :math:`p \ge 2`.
      right_penalty: :math:`\omega_2 = |z-1|^p`, :math:`p \ge 2`.
      init_scale: size of the perturbations of the start, in [0, 1).
      seed: seed of the perturbations, an integer >= 0.
      gradient_tol: stop once the gradient's Frobenius norm is at most this.
      max_iterations: most descent iterations, an integer >= 1.

    Returns:
      A :class:`TwoSidedSolution`.

    Raises:
      InvalidArgumentError: B not a finite matrix (or :math:`\|B\|_F^2`
        beyond the float64 range), a penalty that is not a smooth power
        penalty, or bad settings.

    Examples:
      A 1 x 1 problem with two quadratic penalties: the minimum is the
      effective penalty of the joint penalty at :math:`|b|`.

      >>> from implicit_bias.numerics.tangent_features import (
      ...     join_penalty, omega_tilde, squared_deviation)
      >>> solution = solve_two_sided_problem([[2.0]], squared_deviation,
      ...                                    squared_deviation)
      >>> joint = join_penalty(squared_deviation, squared_deviation)
      >>> bool(abs(solution.objective - float(omega_tilde(joint, 2.0))) < 1e-10)
      True

    References:
      Lemma 5, eqs. (27)-(29) of adaptive-tangent-features.
    """
    matrix = as_finite_array("target", target, ndim=2)
    if matrix.size == 0:
        raise InvalidArgumentError(
            f"target has shape {matrix.shape}: B needs at least one row and one "
            "column (the feature maps are P x P and Q x Q)"
        )
    with np.errstate(over="ignore"):
        squared_norm = float(np.sum(matrix * matrix))
    if not math.isfinite(squared_norm):
        raise InvalidArgumentError(
            "target has ||B||_F^2 beyond the float64 range: the objective of "
            "(27) is not finite at any feature maps near the identity"
        )
    left_exponent = _power_exponent(left_penalty, "left_penalty")
    right_exponent = _power_exponent(right_penalty, "right_penalty")
    tolerance = _check_gradient_tol(gradient_tol)
    iterations_cap = check_iteration_count("max_iterations", max_iterations)
    rows, columns = matrix.shape
    start = _starting_maps(
        (rows, columns), _check_scale(init_scale), check_seed("seed", seed)
    )

    def weights_of(point: Point) -> Float64Array | None:
        left, right = point
        try:
            inner = np.linalg.solve(left, matrix)
            return np.asarray(np.linalg.solve(right.T, inner.T).T)
        except np.linalg.LinAlgError:
            return None

    def objective(point: Point) -> tuple[float, Point]:
        left, right = point
        weights = weights_of(point)
        if weights is None or not np.isfinite(weights).all():
            return math.inf, point
        left_value, left_gradient = _spectral_value_and_gradient(
            left_penalty, left_exponent, left
        )
        right_value, right_gradient = _spectral_value_and_gradient(
            right_penalty, right_exponent, right
        )
        left_data = np.asarray(np.linalg.solve(left, weights @ weights.T))
        right_data = np.asarray(np.linalg.solve(right, weights.T @ weights).T)
        left_gradient -= 2.0 * _symmetric(left_data)
        right_gradient -= 2.0 * _symmetric(right_data)
        value = left_value + right_value + float(np.sum(weights * weights))
        return value, (left_gradient, right_gradient)

    point, value, gradient, iterations, converged = _descend(
        objective, start, tolerance, iterations_cap
    )
    weights = weights_of(point)
    if weights is None:  # pragma: no cover - the descent only accepts finite values
        raise AssertionError("the descent ended at an infeasible point")
    return TwoSidedSolution(
        left_map=point[0],
        right_map=point[1],
        weights=weights,
        objective=value,
        gradient_norm=math.sqrt(_inner(gradient, gradient)),
        curvature=_curvature(objective, point),
        iterations=iterations,
        converged=converged,
    )
