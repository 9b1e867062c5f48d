r"""The descent machinery of :mod:`implicit_bias.validation.tangent_features`:
gradient descent with Armijo backtracking on tuples of matrices, spectral
penalties with their gradients, curvature by finite differences, starting
points and argument checks.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    as_finite_array,
    check_real,
)
from implicit_bias.numerics.tangent_features import Penalty

__all__ = [
    "DEFAULT_GRADIENT_TOLERANCE",
    "DEFAULT_MAX_ITERATIONS",
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
