r"""Direct minimization of the relaxed problem (4) and of Lemma 5's problem (27).

Theorem 1 and Lemma 5 of adaptive-tangent-features reduce bilinearly
constrained problems to scalar effective penalties
(:mod:`implicit_bias.numerics.tangent_features`). This module solves the
original problems directly, by gradient descent with hand-written gradients,
without using the reduction, so that the two can be compared.

**Problem (4)** with :math:`\Omega = \Omega_\omega` (eq. 6), tangent features
:math:`J\in\mathbb R^{N\times P}` (row i is
:math:`\nabla_{\theta_0} f_{\theta_0}(x_i)`), residual targets
:math:`r_i = \hat y_i - f_{\theta_0}(x_i)` and :math:`\delta = \theta-\theta_0`:

.. math:: \min_{M,\delta}\ \Omega_\omega(M) + \|\delta\|_2^2
          \quad\text{s.t.}\quad JM\delta = r.

For fixed M the best :math:`\delta` is the minimum-norm solution
:math:`\delta = M^\top J^\top u`, :math:`u = (JMM^\top J^\top)^{-1} r`, so the
descent runs on :math:`F(M) = \Omega_\omega(M) + r^\top(JMM^\top J^\top)^{-1}r`,
every iterate exactly feasible. By footnote 1 M may be taken symmetric, which
removes the orbit :math:`M\mapsto MQ` of equivalent minimizers; the descent
runs on symmetric M, where (Frobenius inner product)

.. math:: \nabla F(M) = U\,\mathrm{diag}(\omega'(|\lambda|)\,
          \mathrm{sign}\,\lambda)\,U^\top
          - (J^\top u\,\delta^\top + \delta\,u^\top J),
          \qquad M = U\,\mathrm{diag}(\lambda)\,U^\top .

**Duality certificate.** For any multiplier :math:`\lambda\in\mathbb R^N` and
any feasible :math:`(M,\delta)`, with :math:`c = \|J^\top\lambda\|^2`,

.. math:: \Omega_\omega(M) + \|\delta\|^2
          \ \ge\ 2\lambda^\top r + \sum_j\omega(\sigma_j) - \|M^\top J^\top
          \lambda\|^2 \ \ge\ 2\lambda^\top r + \min_{z\ge 0}\,(\omega(z) - cz^2),

(minimize the Lagrangian over :math:`\delta`, then use
:math:`\|M^\top v\|\le\sigma_1\|v\|` and :math:`\omega\ge 0`). With
:math:`\lambda = u` this lower bound meets the objective at the optimum, so
the *duality gap* ``objective - dual_bound`` bounds the distance of the
returned objective to the true minimum of (4) rigorously (up to rounding),
whatever the reduction of Theorem 1 says. For
:math:`\omega = |z-1|^p` the inner minimum is at :math:`z = 1+w`,
:math:`p\,w^{p-1} = 2c(1+w)` (one root for :math:`p\ge 2`, found by
bisection; for p = 2 it is :math:`w = c/(1-c)`, and :math:`-\infty` when
:math:`c \ge 1`).

**Problem (27)** with the constraint set a single matrix B
(:math:`P\times Q`):

.. math:: \min_{M_1, M_2}\ \Omega_{\omega_1}(M_1) + \Omega_{\omega_2}(M_2)
          + \|M_1^{-1} B M_2^{-1}\|_F^2,

again on symmetric :math:`M_1, M_2` (the footnote's argument on both sides),
with :math:`W = M_1^{-1}BM_2^{-1}` and gradients
:math:`-2\,\mathrm{sym}(M_1^{-1}WW^\top)` and
:math:`-2\,\mathrm{sym}(W^\top W M_2^{-1})` of the last term.

**Stopping and tolerances.** Descent (Barzilai-Borwein steps with an Armijo
backtracking safeguard) stops when the Frobenius norm of the gradient is at
most ``gradient_tol``. The curvature :math:`\mu`, the smallest eigenvalue of
the Hessian on symmetric matrices, is then estimated by central differences of
the analytic gradient (step ``1e-5``, error :math:`O(10^{-10})`). Near a
non-degenerate minimizer the quadratic model gives

.. math:: F - F^* \le \frac{\|\nabla F\|^2}{2\mu},\qquad
          \|x - x^*\| \le \frac{\|\nabla F\|}{\mu},

to first order: ``gap_bound`` and ``location_bound`` of the results. For (4)
the duality gap is the rigorous counterpart of ``gap_bound``. Only smooth
penalties can be descended: the power family :math:`|z-1|^p` with
:math:`p \ge 2` (the derivative is taken from the family's exponent).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    as_finite_array,
    check_iteration_count,
    check_real,
    check_seed,
)
from implicit_bias.numerics.tangent_features import (
    Penalty,
    omega_tilde,
)

__all__ = [
    "DEFAULT_GRADIENT_TOLERANCE",
    "DEFAULT_MAX_ITERATIONS",
    "RelaxedProblemSolution",
    "TwoSidedSolution",
    "minimum_norm_coefficients",
    "relaxed_dual_bound",
    "solve_relaxed_problem",
    "solve_two_sided_problem",
    "theorem_one_value",
]

Float64Array = NDArray[np.float64]
Point = tuple[Float64Array, ...]
Objective = Callable[[Point], tuple[float, Point]]

#: Default stopping rule: Frobenius norm of the gradient. The objectives are
#: O(1) sums of float64 terms whose gradients carry rounding of about
#: 1e-15 times the condition number of the small systems solved; 1e-9 leaves
#: room for that and makes the quadratic-model gap (g^2 / 2 mu) ~1e-18 / mu.
DEFAULT_GRADIENT_TOLERANCE = 1e-9
#: Default cap on descent iterations.
DEFAULT_MAX_ITERATIONS = 20_000
#: Central-difference step of the Hessian estimate; its error is O(h^2).
_HESSIAN_STEP = 1e-5
#: Armijo sufficient-decrease constant.
_ARMIJO = 1e-4
#: Ulps of the objective treated as rounding by the line search.
_ROUNDING_ULPS = 8.0
_EPS = float(np.finfo(np.float64).eps)
#: Bisection steps of the dual's scalar problem: 2^-200 of a bracket.
_BISECTIONS = 200
_FLOAT_MAX = float(np.finfo(np.float64).max)
_LOG_FLOAT_MAX = math.log(_FLOAT_MAX)
#: Largest ||beta_hat|| whose square is finite: omega_tilde's range.
_LARGEST_NORM = math.sqrt(_FLOAT_MAX)
#: Step halvings of one line search: from the largest float64 step to below
#: the smallest subnormal takes ~2100, so the search always ends.
_MAX_HALVINGS = 2200
#: Iterations between two tests of ``gap_tol`` (each costs a dual bound): at
#: most this many steps are taken past the point where the gap is reached.
_GAP_CHECK_EVERY = 8


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


# ----------------------------------------------------------------- penalties


def _power_exponent(penalty: object, name: str) -> float:
    """The finite exponent p >= 2 of a power penalty, the smooth ones descent needs."""
    exponent = getattr(penalty, "exponent", None)
    if not (
        isinstance(penalty, Penalty)
        and isinstance(exponent, int | float | np.integer | np.floating)
        and not isinstance(exponent, bool)
        and math.isfinite(exponent)
        and exponent >= 2
    ):
        raise InvalidArgumentError(
            f"{name}={penalty!r} is not a power penalty |z-1|^p with p >= 2: "
            "gradient descent needs omega differentiable with a Lipschitz "
            "derivative (use numerics.tangent_features.power_deviation(p), p >= 2)"
        )
    return float(exponent)


def _spectral_value_and_gradient(
    penalty: Penalty, exponent: float, matrix: Float64Array
) -> tuple[float, Float64Array]:
    r""":math:`\sum_j\omega(|\lambda_j|)` and its gradient on symmetric matrices."""
    eigenvalues, vectors = np.linalg.eigh(matrix)
    magnitudes = np.abs(eigenvalues)
    deviation = magnitudes - 1.0
    derivative = exponent * np.abs(deviation) ** (exponent - 1.0) * np.sign(deviation)
    # Symmetrized exactly: eigh reads one triangle only, so an asymmetry left by
    # rounding would make the penalty disagree with the map used in the data term.
    gradient = _symmetric((vectors * (derivative * np.sign(eigenvalues))) @ vectors.T)
    return float(np.sum(penalty(magnitudes))), gradient


def _symmetric(matrix: Float64Array) -> Float64Array:
    return np.asarray(0.5 * (matrix + matrix.T))


# ------------------------------------------------------------------- descent


def _inner(a: Point, b: Point) -> float:
    return float(sum(np.vdot(x, y) for x, y in zip(a, b, strict=True)))


def _is_finite_point(point: Point) -> bool:
    return all(bool(np.isfinite(x).all()) for x in point)


def _descend(
    objective: Objective,
    start: Point,
    gradient_tol: float,
    max_iterations: int,
    finished: Callable[[Point, float], bool] | None = None,
) -> tuple[Point, float, Point, int, bool]:
    """Gradient descent with Barzilai-Borwein steps and Armijo backtracking.

    Every loop is bounded: at most ``max_iterations`` steps, each with at most
    ``_MAX_HALVINGS`` halvings of its line search. A trial point whose value or
    gradient is not finite is rejected like one that does not decrease enough.
    ``finished(point, value)``, tested every ``_GAP_CHECK_EVERY`` iterations,
    stops the descent early (a certificate already good enough); the
    convergence flag still reports the gradient criterion only.

    Returns the final point, value, gradient, iterations and convergence flag.

    Raises:
      OutOfRangeError: the value, the gradient or its squared norm at an
        accepted point is beyond the float64 range.
    """
    point = tuple(np.array(x, dtype=np.float64) for x in start)
    with np.errstate(over="ignore", invalid="ignore"):
        value, gradient = objective(point)
    if value == math.inf:
        # The start is I + E with ||E||_F < 1, invertible: an infinite value
        # there is an objective beyond the float64 range.
        raise OutOfRangeError(
            "the objective at the starting point is beyond the float64 range: "
            "the targets are too large for a descent in float64"
        )
    step = 1e-2
    previous: tuple[Point, Point] | None = None
    for iteration in range(max_iterations + 1):
        with np.errstate(over="ignore", invalid="ignore"):
            squared_norm = _inner(gradient, gradient)
        if not (math.isfinite(value) and math.isfinite(squared_norm)):
            raise OutOfRangeError(
                f"the objective or the squared norm of its gradient is beyond the "
                f"float64 range at iteration {iteration} (value {value!r}, squared "
                f"gradient norm {squared_norm!r}): the targets are too large for a "
                "descent in float64"
            )
        if math.sqrt(squared_norm) <= gradient_tol or iteration == max_iterations:
            converged = math.sqrt(squared_norm) <= gradient_tol
            return point, value, gradient, iteration, converged
        if (
            finished is not None
            and iteration % _GAP_CHECK_EVERY == 0
            and finished(point, value)
        ):
            return point, value, gradient, iteration, False
        if previous is not None:
            with np.errstate(over="ignore", invalid="ignore"):
                moved = tuple(x - y for x, y in zip(point, previous[0], strict=True))
                changed = tuple(
                    x - y for x, y in zip(gradient, previous[1], strict=True)
                )
                curvature = _inner(moved, changed)
                length = _inner(moved, moved)
            if curvature > 0 and math.isfinite(length / curvature):
                step = length / curvature
            elif math.isfinite(2.0 * step):
                step *= 2.0
        # Decreases below the objective's rounding (a few ulps) are invisible,
        # so near the floor a step is accepted if it stays within that.
        rounding = _ROUNDING_ULPS * _EPS * (1.0 + abs(value))
        for _ in range(_MAX_HALVINGS):
            with np.errstate(over="ignore", invalid="ignore"):
                trial = tuple(
                    x - step * g for x, g in zip(point, gradient, strict=True)
                )
                trial_value, trial_gradient = (
                    objective(trial) if _is_finite_point(trial) else (math.inf, trial)
                )
                decrease = _ARMIJO * step * squared_norm
            if (
                math.isfinite(trial_value)
                and _is_finite_point(trial_gradient)
                and trial_value <= value - decrease + rounding
            ):
                break
            step *= 0.5
            if step * math.sqrt(squared_norm) < 1e-17:
                # No decrease is representable any more: rounding floor.
                return point, value, gradient, iteration, False
        else:  # pragma: no cover - the halvings reach the floor test first
            return point, value, gradient, iteration, False
        previous = (point, gradient)
        point, value, gradient = trial, trial_value, trial_gradient
    raise AssertionError("unreachable")  # pragma: no cover


def _symmetric_basis(size: int) -> list[Float64Array]:
    """An orthonormal basis of the symmetric size x size matrices (Frobenius)."""
    basis = []
    for i in range(size):
        for j in range(i, size):
            element = np.zeros((size, size))
            if i == j:
                element[i, i] = 1.0
            else:
                element[i, j] = element[j, i] = 1.0 / math.sqrt(2.0)
            basis.append(element)
    return basis


def _curvature(objective: Objective, point: Point) -> float:
    """The smallest Hessian eigenvalue on symmetric matrices, by central differences."""
    directions: list[Point] = []
    for index, block in enumerate(point):
        for element in _symmetric_basis(block.shape[0]):
            direction = tuple(
                element if k == index else np.zeros_like(x) for k, x in enumerate(point)
            )
            directions.append(direction)
    columns = []
    for direction in directions:
        plus = tuple(
            x + _HESSIAN_STEP * d for x, d in zip(point, direction, strict=True)
        )
        minus = tuple(
            x - _HESSIAN_STEP * d for x, d in zip(point, direction, strict=True)
        )
        _, gradient_plus = objective(plus)
        _, gradient_minus = objective(minus)
        difference = tuple(
            (a - b) / (2.0 * _HESSIAN_STEP)
            for a, b in zip(gradient_plus, gradient_minus, strict=True)
        )
        columns.append([_inner(other, difference) for other in directions])
    hessian = np.array(columns)
    return float(np.linalg.eigvalsh(0.5 * (hessian + hessian.T))[0])


def _starting_maps(sizes: tuple[int, ...], init_scale: float, seed: int) -> Point:
    """Identity plus a symmetric Gaussian perturbation of Frobenius size init_scale."""
    rng = np.random.default_rng(seed)
    maps = []
    for size in sizes:
        noise = _symmetric(rng.standard_normal((size, size)))
        norm = float(np.linalg.norm(noise))
        maps.append(np.eye(size) + (init_scale / norm if norm > 0 else 0.0) * noise)
    return tuple(maps)


def _check_scale(init_scale: float) -> float:
    value = check_real(
        "init_scale",
        init_scale,
        min_value=0.0,
        max_value=1.0,
        meaning="the Frobenius norm of the perturbation of the identity at the "
        "start, in [0, 1) so that the start stays invertible",
    )
    if value == 1.0:
        raise InvalidArgumentError(
            "init_scale=1.0 is outside [0, 1): the start is the identity plus a "
            "perturbation of this Frobenius norm, which must keep it invertible"
        )
    return value


def _check_gradient_tol(gradient_tol: float) -> float:
    return check_real(
        "gradient_tol",
        gradient_tol,
        min_value=0.0,
        exclusive=True,
        meaning="the stopping threshold on the gradient's Frobenius norm (> 0)",
    )


def _power_of_two_scale(array: Float64Array) -> int:
    """e with 2^(e-1) <= max|array| < 2^e: dividing by 2^e is exact (no rounding)."""
    largest = float(np.max(np.abs(array))) if array.size else 0.0
    return math.frexp(largest)[1] if largest > 0.0 else 0


# ------------------------------------------------------------- problem (4)


def _tangent_arguments(
    tangent_features: ArrayLike, targets: ArrayLike
) -> tuple[Float64Array, Float64Array, int]:
    r"""J divided by 2^e, the power of two nearest above max|J|, r, and e.

    The constraint :math:`JM\delta = r` is unchanged when J and r are divided by
    one number, and a power of two divides exactly, so the problem and every
    float64 result are the same, while :math:`JJ^\top` can neither overflow nor
    underflow. Multipliers of the scaled problem are :math:`2^e\lambda`. The
    targets are returned as given: :func:`_scaled_targets` divides them.
    """
    features = as_finite_array("tangent_features", tangent_features, ndim=2)
    residual = as_finite_array("targets", targets, ndim=1)
    rows, columns = features.shape
    if residual.shape[0] != rows:
        raise InvalidArgumentError(
            f"targets has {residual.shape[0]} entries: it must have one per row of "
            f"tangent_features ({rows})"
        )
    if rows == 0 or rows > columns:
        raise InvalidArgumentError(
            f"tangent_features has shape {features.shape}: the interpolation "
            "constraint needs 1 <= N <= P (more parameters than constraints)"
        )
    exponent = _power_of_two_scale(features)
    if exponent == 0 and not np.any(features):
        raise InvalidArgumentError(
            "tangent_features is zero: it does not have full row rank, so the "
            "constraint of eq. (4) would not be satisfiable for every target"
        )
    features = np.ldexp(features, -exponent)
    singular = np.linalg.svd(features, compute_uv=False)
    if singular[-1] <= rows * np.finfo(np.float64).eps * singular[0]:
        raise InvalidArgumentError(
            "tangent_features does not have full row rank: the constraint of "
            "eq. (4) would not be satisfiable for every target"
        )
    return features, residual, exponent


def _scaled_targets(residual: Float64Array, exponent: int) -> Float64Array:
    """r / 2^e, the targets of the scaled problem (exact unless they overflow).

    Raises:
      OutOfRangeError: r / max|J| overflows float64; so do the minimum-norm
        interpolant and the minimum of (4).
    """
    with np.errstate(over="ignore", under="ignore"):
        scaled = np.ldexp(residual, -exponent)
    if not np.isfinite(scaled).all():
        raise OutOfRangeError(
            "targets is too large relative to tangent_features: r / max|J| "
            "overflows float64, and so do the minimum-norm interpolant and the "
            "minimum of (4)"
        )
    return np.asarray(scaled)


def _minimum_norm_mantissa(
    tangent_features: ArrayLike, targets: ArrayLike
) -> tuple[Float64Array, int]:
    r""":math:`\hat\beta = 2^k b`, as b and k, so that b never overflows.

    J and r are each divided by a power of two (exactly), the interpolant of
    the scaled pair is solved, and the two powers give k.
    """
    features, residual, exponent = _tangent_arguments(tangent_features, targets)
    shift = _power_of_two_scale(residual)
    scaled = np.ldexp(residual, -shift)
    mantissa = features.T @ np.linalg.solve(features @ features.T, scaled)
    return np.asarray(mantissa), shift - exponent


def minimum_norm_coefficients(
    tangent_features: ArrayLike, targets: ArrayLike
) -> Float64Array:
    r"""The minimum-:math:`\ell_2` interpolant :math:`\hat\beta` of eq. (5).

    .. math:: \hat\beta = J^\top (JJ^\top)^{-1} r
              = \arg\min_{J\beta = r}\|\beta\|_2

    Theorem 1 says eq. (5) is solved with :math:`\tilde\Omega = \|\cdot\|_2`,
    so this is its :math:`\hat\beta`. Let :math:`J` be ``tangent_features``
    and :math:`r` be ``targets``.

    Args:
      tangent_features: J, (N, P), full row rank, N <= P.
      targets: r, (N,).

    Returns:
      :math:`\hat\beta`, (P,).

    Raises:
      InvalidArgumentError: bad shapes, or J not of full row rank.
      OutOfRangeError: an entry of :math:`\hat\beta` overflows float64.

    Examples:
      >>> beta = minimum_norm_coefficients([[1.0, 1.0]], [2.0])
      >>> bool(np.allclose(beta, [1.0, 1.0]))
      True

    References:
      Theorem 1, eqs. (5) and (8) of adaptive-tangent-features.
    """
    mantissa, power = _minimum_norm_mantissa(tangent_features, targets)
    with np.errstate(over="ignore", under="ignore"):
        beta = np.ldexp(mantissa, power)
    if not np.isfinite(beta).all():
        raise OutOfRangeError(
            "the minimum-norm interpolant overflows float64: targets is too large "
            "relative to tangent_features (or J is nearly rank-deficient)"
        )
    return np.asarray(beta)


def theorem_one_value(
    tangent_features: ArrayLike, targets: ArrayLike, penalty: Penalty
) -> float:
    r"""The minimum of problem (4) that Theorem 1 predicts.

    .. math:: \min_{M,\theta}\Omega_\omega(M) + \|\theta-\theta_0\|^2
              = \tilde\omega(\|\hat\beta\|_2)
              = \min_{z\ge 1}\omega(z) + \frac{\|\hat\beta\|_2^2}{z^2}

    (eqs. 8 and 12: :math:`\hat M` has singular values s and ones, and
    :math:`\|\hat\theta - \theta_0\| = \|\hat\beta\|/s`.)

    Args:
      tangent_features: J, (N, P), full row rank, N <= P.
      targets: r, (N,).
      penalty: :math:`\omega`, as accepted by
        :func:`implicit_bias.numerics.tangent_features.omega_tilde`.

    Returns:
      :math:`\tilde\omega(\|\hat\beta\|_2)`.

    Raises:
      InvalidArgumentError: bad shapes, J not of full row rank, or a penalty
        :func:`~implicit_bias.numerics.tangent_features.omega_tilde` refuses.
      OutOfRangeError: :math:`\|\hat\beta\|^2` overflows float64.

    Examples:
      >>> from implicit_bias.numerics.tangent_features import squared_deviation
      >>> value = theorem_one_value([[1.0, 0.0]], [0.0], squared_deviation)
      >>> value == 0.0
      True

    References:
      Theorem 1 (eq. 8) and eq. (12) of adaptive-tangent-features.
    """
    mantissa, power = _minimum_norm_mantissa(tangent_features, targets)
    with np.errstate(over="ignore", under="ignore"):
        norm = float(np.ldexp(np.linalg.norm(mantissa), power))
    if not norm <= _LARGEST_NORM:
        raise OutOfRangeError(
            f"||beta_hat|| = {norm!r} is beyond {_LARGEST_NORM!r}: its square, "
            "the argument of omega~ (eq. 12), overflows float64; targets is too "
            "large relative to tangent_features"
        )
    if not callable(penalty):
        raise InvalidArgumentError(f"penalty={penalty!r} is not callable")
    try:
        value = omega_tilde(penalty, norm)
    except InvalidArgumentError as error:
        # ||beta_hat|| is a finite float in omega_tilde's range: the complaint
        # is about the penalty, named omega there.
        raise InvalidArgumentError(
            f"penalty={penalty!r:.80} is not accepted by omega_tilde: {error}"
        ) from error
    return float(value)


def _dual_inner_minimum(exponent: float, c: float) -> float:
    r""":math:`\min_{z\ge 0}|z-1|^p - c z^2` for p >= 2 (module docstring).

    ``-inf`` for p = 2 and :math:`c \ge 1`, where the minimum is unbounded.

    Raises:
      OutOfRangeError: p > 2 and the minimum (finite) is below the float64
        range, or c overflowed float64.
    """
    if c == 0.0:
        return 0.0  # at z = 1
    if exponent == 2.0:
        if c >= 1.0:
            return -math.inf
        w = c / (1.0 - c)
        return w * w - c * (1.0 + w) ** 2

    if c == math.inf:
        raise OutOfRangeError(
            "||J^T lambda||^2 overflows float64, and the minimum over z of "
            "|z-1|^p - ||J^T lambda||^2 z^2 (below -||J^T lambda||^2) is beyond "
            "the float64 range: rescale multiplier"
        )

    def stationarity(w: float) -> float:
        try:
            value = exponent * w ** (exponent - 1.0) - 2.0 * c * (1.0 + w)
        except OverflowError:
            value = math.nan
        if math.isfinite(value):
            return value
        # A term beyond float64: only the sign matters, so compare logarithms.
        difference = (
            math.log(exponent)
            + (exponent - 1.0) * math.log(w)
            - math.log(2.0)
            - math.log(c)
            - math.log1p(w)
        )
        return math.copysign(1.0, difference)

    # The root is below max(1, (4c/p)^(1/(p-2))); past 2^1022 it, and the
    # minimum (below -(1 - 2/p) c w^2 there), are beyond the float64 range.
    upper = 1.0
    for _ in range(_MAX_HALVINGS):
        if stationarity(upper) > 0.0:
            break
        if upper > _FLOAT_MAX / 4.0:
            raise OutOfRangeError(
                f"the minimizer of |z-1|^{exponent:g} - c z^2 with c = {c!r} is "
                "beyond the float64 range, and so is the minimum: rescale "
                "multiplier"
            )
        upper *= 2.0
    lower = 0.0
    for _ in range(_BISECTIONS):
        middle = 0.5 * (lower + upper)
        if stationarity(middle) <= 0.0:
            lower = middle
        else:
            upper = middle
        if upper - lower <= 4.0 * np.finfo(np.float64).eps * upper:
            break
    w = 0.5 * (lower + upper)
    try:
        value = float(w**exponent - c * (1.0 + w) ** 2)
    except OverflowError:
        value = math.nan
    if math.isfinite(value):
        return value
    # Terms beyond float64: at the root, w^p = (2c/p) w (1 + w), so the minimum
    # is -c (1 + w) (1 + (1 - 2/p) w), evaluated through its logarithm.
    log_magnitude = math.log(c) + math.log1p(w) + math.log1p((1.0 - 2.0 / exponent) * w)
    if log_magnitude >= _LOG_FLOAT_MAX:
        raise OutOfRangeError(
            f"the minimum of |z-1|^{exponent:g} - c z^2 with c = {c!r} is about "
            f"-exp({log_magnitude:.6g}), beyond the float64 range: rescale "
            "multiplier"
        )
    return -math.exp(log_magnitude)


def relaxed_dual_bound(
    tangent_features: ArrayLike,
    targets: ArrayLike,
    multiplier: ArrayLike,
    penalty: Penalty,
) -> float:
    r"""A Lagrangian lower bound on the minimum of problem (4).

    .. math:: \min_{JM\delta = r}\Omega_\omega(M) + \|\delta\|^2\ \ge\
              2\lambda^\top r + \min_{z\ge 0}\big(\omega(z)
              - \|J^\top\lambda\|^2 z^2\big)

    for every :math:`\lambda` (weak duality; module docstring). Let
    :math:`\lambda` be ``multiplier``.

    Args:
      tangent_features: J, (N, P), full row rank, N <= P.
      targets: r, (N,).
      multiplier: :math:`\lambda`, (N,).
      penalty: :math:`\omega = |z-1|^p` with :math:`p \ge 2`.

    Returns:
      The bound (``-inf`` for p = 2 when :math:`\|J^\top\lambda\| \ge 1`).

    Raises:
      InvalidArgumentError: bad shapes, J not of full row rank, or a penalty
        that is not a power penalty with p >= 2.
      OutOfRangeError: the bound (finite) is beyond the float64 range.

    Examples:
      With :math:`J = (1, 0)`, :math:`r = 1` the minimum is
      :math:`\tilde\omega(1)`; the optimal multiplier attains it:

      >>> from implicit_bias.numerics.tangent_features import squared_deviation
      >>> best = max(relaxed_dual_bound([[1.0, 0.0]], [1.0], [t], squared_deviation)
      ...            for t in np.linspace(0.0, 0.99, 100))
      >>> value = theorem_one_value([[1.0, 0.0]], [1.0], squared_deviation)
      >>> bool(best <= value + 1e-12 and value - best < 1e-3)
      True

    References:
      Problem (4) of adaptive-tangent-features.
    """
    features, residual, scale = _tangent_arguments(tangent_features, targets)
    weights = as_finite_array("multiplier", multiplier, ndim=1)
    if weights.shape != residual.shape:
        raise InvalidArgumentError(
            f"multiplier has shape {weights.shape}: it must match targets "
            f"{residual.shape}"
        )
    exponent = _power_exponent(penalty, "penalty")
    # J was divided by 2^scale (exactly): J^T lambda is that of the caller's J
    # once multiplied back.
    with np.errstate(over="ignore"):
        pulled = np.ldexp(features.T @ weights, scale)
        c = float(np.sum(np.square(pulled)))
    inner = _dual_inner_minimum(exponent, c)
    if inner == -math.inf:
        return -math.inf  # p = 2 and ||J^T lambda|| >= 1: unbounded below
    with np.errstate(over="ignore"):
        linear = 2.0 * float(weights @ residual)
    bound = linear + inner
    if not math.isfinite(bound):
        raise OutOfRangeError(
            f"the bound is beyond the float64 range (2 lambda^T r = {linear!r}, "
            f"inner minimum {inner!r}): rescale multiplier"
        )
    return bound


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
