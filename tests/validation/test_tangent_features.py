"""Direct solutions of problems (4) and (27) against Theorem 1 and Lemma 5.

:mod:`implicit_bias.validation.tangent_features` descends the original
bilinear problems; :mod:`implicit_bias.numerics.tangent_features` evaluates
the effective penalties the paper reduces them to. Tolerances (derived in the
validation module's docstring):

* value of (4): the duality gap is a rigorous bound on suboptimality, so the
  predicted minimum lies in ``[dual_bound - rounding, objective + rounding]``
  with ``rounding`` = (cond(J M^2 J^T) + P + 16) ulps of 1 + |value| (the
  Cholesky solve and the P penalty terms);
* value of (27): ``g^2 / 2 mu`` (quadratic model) + 64 ulps + twice the
  numerics' stated 1e-12 relative accuracy (omega~ of a join is nested);
* gradients: central differences with step h have error
  O(h^2 |third derivative|) + O(eps / h); h = 1e-5 gives ~1e-10 at O(1) data.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.tangent_features import (
    Penalty,
    absolute_deviation,
    join_penalty,
    omega_tilde,
    power_deviation,
    squared_deviation,
)
from tests.contract.harness import cpu_budget
from implicit_bias.validation.tangent_features import (
    minimum_norm_coefficients,
    relaxed_dual_bound,
    solve_relaxed_problem,
    solve_two_sided_problem,
    theorem_one_value,
)
from implicit_bias.validation.tangent_features.descent import (
    _spectral_value_and_gradient,
)

EPS = float(np.finfo(np.float64).eps)
QUARTIC = power_deviation(4.0)
#: Central-difference step and the resulting absolute tolerance (docstring).
STEP = 1e-5
GRADIENT_TOL = 1e-7


def random_problem(seed: int, rows: int, columns: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.standard_normal((rows, columns)), 2.0 * rng.standard_normal(rows)


def rounding(features: np.ndarray, matrix: np.ndarray, value: float) -> float:
    mapped = features @ matrix
    condition = float(np.linalg.cond(mapped @ mapped.T))
    return (condition + matrix.shape[0] + 16.0) * EPS * (1.0 + abs(value))


@pytest.mark.parametrize("penalty", [squared_deviation, QUARTIC], ids=["p2", "p4"])
def test_spectral_gradient_matches_central_differences(penalty: Penalty) -> None:
    rng = np.random.default_rng(3)
    noise = rng.standard_normal((4, 4))
    matrix = np.eye(4) + 0.3 * (noise + noise.T)
    exponent = float(penalty.exponent or 0.0)
    _, gradient = _spectral_value_and_gradient(penalty, exponent, matrix)
    for i in range(4):
        for j in range(i, 4):
            direction = np.zeros((4, 4))
            direction[i, j] = direction[j, i] = 1.0
            plus, _ = _spectral_value_and_gradient(
                penalty, exponent, matrix + STEP * direction
            )
            minus, _ = _spectral_value_and_gradient(
                penalty, exponent, matrix - STEP * direction
            )
            numeric = (plus - minus) / (2 * STEP)
            assert abs(numeric - np.sum(gradient * direction)) <= GRADIENT_TOL


@given(
    seed=st.integers(0, 2**32 - 1),
    rows=st.integers(1, 3),
    extra=st.integers(0, 3),
    scale=st.floats(0.0, 0.9),
)
def test_theorem_one_value_is_certified_by_the_duality_gap(
    seed: int, rows: int, extra: int, scale: float
) -> None:
    features, targets = random_problem(seed, rows, rows + extra + 1)
    predicted = theorem_one_value(features, targets, squared_deviation)
    solution = solve_relaxed_problem(
        features, targets, squared_deviation, init_scale=scale, seed=seed
    )
    slack = rounding(features, solution.feature_map, predicted)
    assert solution.dual_bound - slack <= predicted <= solution.objective + slack
    assert solution.duality_gap <= 1e-7 * (1.0 + predicted)


@given(
    seed=st.integers(0, 2**32 - 1),
    rows=st.integers(1, 3),
    extra=st.integers(0, 3),
    gap_tol=st.floats(1e-9, 1e-4),
)
def test_gap_tol_stops_once_the_gap_certifies_the_value(
    seed: int, rows: int, extra: int, gap_tol: float
) -> None:
    # (z-1)^4 from a random start: the degenerate directions make the gradient
    # norm slow, the gap fast. The early stop keeps the certificate: the
    # predicted minimum lies in [dual bound, objective], a gap <= gap_tol.
    features, targets = random_problem(seed, rows, rows + extra + 1)
    predicted = theorem_one_value(features, targets, QUARTIC)
    common = {"init_scale": 0.5, "seed": seed, "max_iterations": 400}
    early = solve_relaxed_problem(features, targets, QUARTIC, gap_tol=gap_tol, **common)
    full = solve_relaxed_problem(features, targets, QUARTIC, **common)
    slack = rounding(features, early.feature_map, predicted)
    assert early.dual_bound - slack <= predicted <= early.objective + slack
    assert early.iterations <= full.iterations
    if early.iterations < full.iterations:
        # Stopped on the gap (every 8 iterations), not on the gradient or cap.
        assert early.duality_gap <= gap_tol * (1.0 + abs(early.objective))
        assert early.iterations % 8 == 0
        assert not early.converged
    else:
        assert early.objective == full.objective


def test_gap_tol_stops_early_where_the_gap_closes_first() -> None:
    # seed 0, 2 x 5 with (z-1)^4: the gap falls below 1e-6 long before the
    # gradient norm meets its tolerance (80 of 400 iterations when written).
    features, targets = random_problem(0, 2, 5)
    common = {"init_scale": 0.5, "seed": 0, "max_iterations": 400}
    early = solve_relaxed_problem(features, targets, QUARTIC, gap_tol=1e-6, **common)
    full = solve_relaxed_problem(features, targets, QUARTIC, **common)
    assert early.iterations < full.iterations
    assert early.duality_gap <= 1e-6 * (1.0 + abs(early.objective))


@given(seed=st.integers(0, 2**32 - 1), scale=st.floats(0.0, 0.9))
def test_weak_duality_at_random_feasible_points(seed: int, scale: float) -> None:
    rng = np.random.default_rng(seed)
    features, targets = random_problem(seed, 2, 4)
    noise = rng.standard_normal((4, 4))
    matrix = np.eye(4) + scale * (noise + noise.T) / np.linalg.norm(noise + noise.T)
    mapped = features @ matrix
    delta = mapped.T @ np.linalg.solve(mapped @ mapped.T, targets)
    singular = np.linalg.svd(matrix, compute_uv=False)
    for penalty in (squared_deviation, QUARTIC):
        objective = float(np.sum(penalty(singular))) + float(delta @ delta)
        multiplier = rng.standard_normal(2) * rng.uniform(0.0, 0.5)
        bound = relaxed_dual_bound(features, targets, multiplier, penalty)
        assert bound <= objective + 64 * EPS * (1.0 + objective)


def test_theorem_one_minimizer_and_kernel() -> None:
    features, targets = random_problem(11, 3, 6)
    solution = solve_relaxed_problem(
        features, targets, squared_deviation, init_scale=0.5, seed=1
    )
    assert solution.converged
    assert solution.curvature > 0
    beta = minimum_norm_coefficients(features, targets)
    rho = float(np.linalg.norm(beta))
    direction = beta / rho
    eigenvalues, vectors = np.linalg.eigh(solution.feature_map)
    s = eigenvalues[-1]
    distance = 2 * solution.location_bound + math.sqrt(EPS)
    # Spectrum {1, ..., 1, s}, the top eigenvector along beta_hat.
    assert np.all(np.abs(eigenvalues[:-1] - 1.0) <= distance)
    assert abs(abs(vectors[:, -1] @ direction) - 1.0) <= distance
    # s minimizes omega(z) + rho^2 / z^2 over z >= 1 (Theorem 1): its value
    # exceeds the minimum by at most the duality gap (plus rounding).
    gap = solution.duality_gap + rounding(features, solution.feature_map, rho)
    value = float(squared_deviation(s)) + rho**2 / s**2
    excess = value - float(omega_tilde(squared_deviation, rho))
    assert -gap <= excess <= gap
    # ||M delta - beta_hat|| <= s sqrt(gap) (validation module docstring), plus
    # the first-order displacement of M itself.
    coefficient_tol = s * math.sqrt(gap) + rho * distance
    assert np.linalg.norm(solution.coefficients - beta / s) <= coefficient_tol
    # J M^2 J^T moves by ||J||^2 (2 ||M_hat|| + d) d when M moves by d.
    kernel = features @ solution.feature_map @ solution.feature_map @ features.T
    predicted = features @ features.T + (s**2 - 1) / rho**2 * np.outer(targets, targets)
    spectral = float(np.linalg.norm(features, 2)) ** 2
    kernel_tol = spectral * (2.0 * s + distance) * distance
    assert np.linalg.norm(kernel - predicted) <= kernel_tol


def test_zero_targets_leave_the_features_unchanged() -> None:
    features, _ = random_problem(2, 2, 4)
    solution = solve_relaxed_problem(features, np.zeros(2), squared_deviation)
    assert solution.objective == 0.0
    assert np.array_equal(solution.feature_map, np.eye(4))


@pytest.mark.parametrize(
    ("shape", "left", "right"),
    [
        ((3, 3), squared_deviation, squared_deviation),
        ((3, 3), squared_deviation, QUARTIC),
        ((2, 4), QUARTIC, squared_deviation),
        ((4, 2), squared_deviation, squared_deviation),
    ],
)
def test_lemma_five_value(
    shape: tuple[int, int], left: Penalty, right: Penalty
) -> None:
    target = 2.0 * np.random.default_rng(sum(shape)).standard_normal(shape)
    singular = np.linalg.svd(target, compute_uv=False)
    per_value = omega_tilde(join_penalty(left, right), singular)
    predicted = float(np.sum(per_value))
    for seed in (0, 1):
        solution = solve_two_sided_problem(
            target, left, right, init_scale=0.5, seed=seed
        )
        assert solution.converged
        assert solution.curvature > 0
        tolerance = (
            solution.gap_bound
            + 64 * EPS * (1 + predicted)
            + 2e-12 * float(np.sum(1 + per_value))
        )
        assert abs(solution.objective - predicted) <= tolerance
        # W is the constrained factor: M1 W M2 = B exactly.
        product = solution.left_map @ solution.weights @ solution.right_map
        assert np.allclose(product, target, rtol=0, atol=1e-12 * np.abs(target).max())


def test_lemma_five_for_rank_one_b_keeps_the_orthogonal_complement_at_one() -> None:
    target = np.outer([1.0, 2.0, 0.0], [0.5, -1.0])
    solution = solve_two_sided_problem(
        target, squared_deviation, squared_deviation, init_scale=0.3, seed=4
    )
    distance = 2 * solution.location_bound + math.sqrt(EPS)
    left = np.sort(np.linalg.eigvalsh(solution.left_map))
    right = np.sort(np.linalg.eigvalsh(solution.right_map))
    # Only the singular pair of B moves; the other eigenvalues stay at 1 (eq. 28).
    assert np.all(np.abs(left[:2] - 1.0) <= distance)
    assert np.abs(right[0] - 1.0) <= distance
    assert left[2] > 1.0
    assert right[1] > 1.0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: solve_relaxed_problem([[1.0, 0.0]], [1.0], absolute_deviation),
            "p >= 2",
        ),
        (
            lambda: solve_relaxed_problem(
                [[1.0], [2.0]], [1.0, 1.0], squared_deviation
            ),
            "1 <= N <= P",
        ),
        (
            lambda: solve_relaxed_problem(
                [[1.0, 1.0], [2.0, 2.0]], [1.0, 1.0], squared_deviation
            ),
            "full row rank",
        ),
        (
            lambda: solve_relaxed_problem([[1.0, 0.0]], [1.0, 2.0], squared_deviation),
            "one per row",
        ),
        (
            lambda: solve_relaxed_problem([[1.0, 0.0]], [np.nan], squared_deviation),
            "not finite",
        ),
        (
            lambda: solve_relaxed_problem(
                [[1.0, 0.0]], [1.0], squared_deviation, init_scale=1.5
            ),
            "init_scale",
        ),
        (
            lambda: solve_relaxed_problem(
                [[1.0, 0.0]], [1.0], squared_deviation, gradient_tol=0.0
            ),
            "gradient_tol",
        ),
        (
            lambda: solve_relaxed_problem(
                [[1.0, 0.0]], [1.0], squared_deviation, max_iterations=0
            ),
            "max_iterations",
        ),
        (
            lambda: solve_relaxed_problem(
                [[1.0, 0.0]], [1.0], squared_deviation, gap_tol=-1e-9
            ),
            "gap_tol",
        ),
        (
            lambda: solve_relaxed_problem(
                [[1.0, 0.0]], [1.0], squared_deviation, gap_tol=math.nan
            ),
            "gap_tol",
        ),
        (
            lambda: solve_two_sided_problem(
                [1.0, 2.0], squared_deviation, squared_deviation
            ),
            "2 axes",
        ),
        (
            lambda: solve_two_sided_problem(
                [[1.0]], squared_deviation, power_deviation(1.5)
            ),
            "right_penalty",
        ),
        (
            lambda: solve_two_sided_problem(
                [[1e200, 0.0], [0.0, 1.0]], squared_deviation, squared_deviation
            ),
            "float64 range",
        ),
        (
            lambda: relaxed_dual_bound(
                [[1.0, 0.0]], [1.0], [1.0, 2.0], squared_deviation
            ),
            "multiplier",
        ),
    ],
)
def test_invalid_arguments(call: Callable[[], object], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        call()


def test_dual_bound_is_minus_infinity_past_the_quadratic_growth() -> None:
    # For (z-1)^2 the Lagrangian is unbounded below once ||J^T lambda|| >= 1.
    bound = relaxed_dual_bound([[1.0, 0.0]], [1.0], [1.0], squared_deviation)
    assert bound == -math.inf
    assert math.isfinite(relaxed_dual_bound([[1.0, 0.0]], [1.0], [1.0], QUARTIC))


@pytest.mark.parametrize("target", [1e78, 1e150, 1e300])
@pytest.mark.parametrize("problem", ["relaxed", "two-sided"])
def test_targets_beyond_float64_fail_fast_instead_of_hanging(
    problem: str, target: float
) -> None:
    # Before the bound on backtracking, a squared gradient norm of inf made
    # the Armijo test false forever (targets ~1e78): the call never returned.
    solve: Callable[[], object] = (
        (lambda: solve_relaxed_problem([[1.0, 2.0, 0.0]], [target], QUARTIC))
        if problem == "relaxed"
        else (lambda: solve_two_sided_problem([[target]], QUARTIC, QUARTIC))
    )
    with cpu_budget(10.0), pytest.raises((OutOfRangeError, InvalidArgumentError)):
        solve()


@pytest.mark.parametrize("power", [-600, -3, 0, 5, 600])
def test_dual_bound_does_not_depend_on_a_common_scale_of_j_and_r(power: int) -> None:
    # J, r -> 2^k J, 2^k r and lambda -> 2^-k lambda leave J^T lambda and
    # lambda^T r unchanged, hence the bound; scaling by 2^k is exact.
    J, r, lam = [[1.0, 2.0, 0.5]], [1.5], [0.3]
    scaled = relaxed_dual_bound(
        np.ldexp(J, power), np.ldexp(r, power), np.ldexp(lam, -power), QUARTIC
    )
    assert scaled == relaxed_dual_bound(J, r, lam, QUARTIC)


@pytest.mark.parametrize("seed", [None, -1, 1.5, "0"])
def test_seed_must_be_a_nonnegative_integer(seed: object) -> None:
    with pytest.raises(InvalidArgumentError, match="seed"):
        solve_relaxed_problem([[1.0, 0.0]], [1.0], QUARTIC, seed=seed)  # type: ignore[arg-type]


# ------------------------------------------------ regressions (argument contract)


def _power_penalty(exponent: float) -> Penalty:
    """A penalty claiming |z-1|^exponent, the exponent set past its constructor.

    Penalty refuses an exponent outside (0, inf) when it is built; the descents
    read the exponent themselves, and must refuse one set afterwards too.
    """
    penalty = Penalty(
        name=f"|z-1|^{exponent}",
        function=squared_deviation.function,
        mp=squared_deviation.mp,
        exponent=2.0,
    )
    object.__setattr__(penalty, "exponent", exponent)
    return penalty


@pytest.mark.parametrize("exponent", [math.inf, math.nan])
def test_a_penalty_exponent_must_be_finite(exponent: float) -> None:
    # nan < 2 is False and inf >= 2: both passed as smooth power penalties.
    # Penalty refuses them where it is built ...
    with pytest.raises(InvalidArgumentError, match=r"^exponent="):
        Penalty(
            name="|z-1|^p",
            function=squared_deviation.function,
            mp=squared_deviation.mp,
            exponent=exponent,
        )
    # ... and the descents, which read the exponent, refuse one set past that.
    with pytest.raises(InvalidArgumentError, match="penalty"):
        solve_relaxed_problem([[1.0, 0.0]], [1.0], _power_penalty(exponent))
    with pytest.raises(InvalidArgumentError, match="right_penalty"):
        solve_two_sided_problem([[1.0]], QUARTIC, _power_penalty(exponent))
    with pytest.raises(InvalidArgumentError, match="penalty"):
        relaxed_dual_bound([[1.0, 0.0]], [1.0], [0.1], _power_penalty(exponent))


def test_an_empty_target_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="target"):
        solve_two_sided_problem(np.empty((2, 0)), QUARTIC, QUARTIC)


@pytest.mark.parametrize(
    "penalty", ["squared", None, lambda z: (z - 2.0) ** 2, lambda z: -abs(z - 1.0)]
)
def test_theorem_one_value_names_the_penalty(penalty: object) -> None:
    # omega_tilde's complaint named its own argument, omega.
    with pytest.raises(InvalidArgumentError, match="penalty"):
        theorem_one_value([[1.0, 0.0]], [1.0], penalty)  # type: ignore[arg-type]


def test_an_interpolant_beyond_float64_is_out_of_range() -> None:
    # r / max|J| overflowing was refused as an invalid argument, and a finite
    # r / max|J| with an interpolant past float64 came back as inf.
    for features, targets in (
        ([[1e-300, 0.0]], [1e300]),
        ([[1.0, 1.0], [1.0, 1.0 + 1e-14]], [1e308, -1e308]),
    ):
        with pytest.raises(OutOfRangeError):
            minimum_norm_coefficients(features, targets)
    # ||beta_hat||^2 overflows: omega_tilde refused "v", no caller's argument.
    with pytest.raises(OutOfRangeError, match="beta_hat"):
        theorem_one_value([[1.0, 0.0]], [1e160], squared_deviation)


def test_the_interpolant_is_exact_over_the_float64_range() -> None:
    # The scaled pair gives the interpolant of the caller's pair, power for power.
    features, targets = random_problem(4, 2, 3)
    beta = minimum_norm_coefficients(features, targets)
    for power in (-900, 900):
        scaled = minimum_norm_coefficients(features, np.ldexp(targets, power))
        assert np.array_equal(scaled, np.ldexp(beta, power))


@pytest.mark.parametrize(
    ("exponent", "multiplier"),
    [(2.00001, 4.0), (2.5, 1e100), (3.0, 1e160), (4.0, 1e200)],
)
def test_dual_bounds_past_float64_are_out_of_range(
    exponent: float, multiplier: float
) -> None:
    # Python's float power raised a raw OverflowError in the scalar problem,
    # and ||J^T lambda||^2 = inf gave an undocumented -inf.
    with cpu_budget(10.0), pytest.raises(OutOfRangeError, match="multiplier"):
        relaxed_dual_bound([[1.0, 0.0]], [1.0], [multiplier], power_deviation(exponent))


def test_dual_bound_for_targets_far_larger_than_the_features() -> None:
    # r / max|J| overflows, but 2 lambda^T r does not: the bound is finite
    # (it was refused as an invalid argument).
    bound = relaxed_dual_bound([[1e-300, 0.0]], [1e300], [1e-10], QUARTIC)
    # ||J^T lambda||^2 = 1e-620 underflows to 0, where the inner minimum is 0.
    assert bound == 2.0 * (1e-10 * 1e300)


def test_dual_bounds_near_the_float64_limit_are_finite() -> None:
    # The root and the terms of the scalar problem are past float64, but the
    # minimum -c (1 + w)(1 + (1 - 2/p) w) is not.
    bound = relaxed_dual_bound([[1.0, 0.0]], [0.0], [1.0], power_deviation(2.5))
    assert math.isfinite(bound)
    assert bound < 0


def test_a_descent_stopped_far_from_the_optimum_keeps_its_solution() -> None:
    # p near 2 and ||J^T u|| > 1: the dual bound is below float64. The
    # solution was lost to a raw OverflowError; its bound is now -inf.
    solution = solve_relaxed_problem(
        [[1.0, 0.5]], [3.0], power_deviation(2.00001), max_iterations=1
    )
    assert solution.dual_bound == -math.inf
    assert math.isfinite(solution.objective)
