r"""The alpha -> 0 endpoints of features-are-fate against textbook forms and the theory.

Reference forms are plain: ``np.linalg.pinv`` (an SVD) for :math:`X^+`, a
one-column least-squares fit for b of eq. (108), the quadratic formula for the
depth-2 scale and the SymPy scale equation of
:mod:`implicit_bias.theory.transfer_asymptotics` for any depth. The fast path
solves with the Gram matrix, whose condition number is below 1e4 for these
Gaussian draws (n / d <= 0.8 or >= 2), so 1e-12 (relative to O(1) values)
covers its rounding.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

import mpmath
import numpy as np
import pytest
import sympy as sp

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics import transfer_endpoints as endpoints
from implicit_bias.theory import transfer_asymptotics as theory

EPS = float(np.finfo(np.float64).eps)

ATOL = 1e-12


def problem(
    dimension: int, samples: int, count: int, theta: float, sigma: float, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A unit source, K Gaussian target designs and noisy labels at angle theta."""
    rng = np.random.default_rng(seed)
    source = rng.standard_normal(dimension)
    source /= np.linalg.norm(source)
    other = rng.standard_normal(dimension)
    other -= (other @ source) * source
    other /= np.linalg.norm(other)
    target = np.cos(theta) * source + np.sin(theta) * other
    X = rng.standard_normal((count, samples, dimension))
    y = X @ target + sigma * rng.standard_normal((count, samples))
    return source, X, y


def test_public_names_cite_their_equation_with_formula_and_example() -> None:
    # The requirements tests/test_public_api.py makes of exported numerics.
    for name in endpoints.__all__:
        doc = inspect.getdoc(getattr(endpoints, name)) or ""
        assert "Eq" in doc, name
        assert "of features-are-fate" in doc, name
        assert ".. math::" in doc, name
        assert ">>>" in doc, name


@pytest.mark.parametrize(("samples", "dimension"), [(4, 9), (20, 8)])
def test_min_norm_solution_is_the_pseudo_inverse(samples: int, dimension: int) -> None:
    _, X, y = problem(dimension, samples, 3, 0.8, 0.4, seed=samples)
    batched = endpoints.min_norm_solution(X, y)
    for k in range(3):
        reference = np.linalg.pinv(X[k]) @ y[k]
        np.testing.assert_allclose(batched[k], reference, atol=ATOL)
        alone = endpoints.min_norm_solution(X[k], y[k])
        np.testing.assert_allclose(alone, reference, atol=ATOL)


def test_linear_transfer_coefficient_is_the_least_squares_fit_along_source() -> None:
    source, X, y = problem(10, 6, 3, 0.9, 0.5, seed=2)
    b = endpoints.linear_transfer_coefficient(X, y, source)
    assert b.shape == (3,)
    for k in range(3):
        column = (X[k] @ source)[:, None]
        (fit,), *_ = np.linalg.lstsq(column, y[k], rcond=None)
        assert b[k] == pytest.approx(fit, rel=1e-12)


def test_finetune_endpoint_interpolates_and_balances() -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 9))
    y = rng.standard_normal(4)
    source = rng.standard_normal(9)
    source /= np.linalg.norm(source)
    endpoint = endpoints.finetune_endpoint(x, y, source)
    np.testing.assert_allclose(x @ endpoint, y, atol=ATOL)
    projector = np.linalg.pinv(x) @ x
    frozen = source - projector @ source
    scale = (endpoint - projector @ endpoint) @ frozen / (frozen @ frozen)
    # c^4 = |X^+ y|^2 + c^2 |(I-P) beta_s|^2 and ||beta_ft|| = c^2.
    min_norm = np.linalg.pinv(x) @ y
    # Relative 1e-12 like ATOL (module docstring): the values are O(1).
    assert scale**4 == pytest.approx(
        min_norm @ min_norm + scale**2 * (frozen @ frozen), rel=1e-12
    )
    assert np.linalg.norm(endpoint) == pytest.approx(scale**2, rel=1e-12)


def test_depth_two_endpoint_is_the_quadratic_formula() -> None:
    source, X, y = problem(9, 4, 3, 1.1, 0.5, seed=8)
    batched = endpoints.finetune_endpoint(X, y, source, depth=2)
    for k in range(3):
        pseudo_inverse = np.linalg.pinv(X[k])
        minimum = pseudo_inverse @ y[k]
        frozen = source - pseudo_inverse @ (X[k] @ source)
        a, b = frozen @ frozen, minimum @ minimum
        # s^4 - a s^2 - b = 0, the positive root in s^2.
        scale = np.sqrt((a + np.sqrt(a**2 + 4 * b)) / 2)
        np.testing.assert_allclose(batched[k], minimum + scale * frozen, atol=ATOL)
        alone = endpoints.finetune_endpoint(X[k], y[k], source)
        np.testing.assert_allclose(alone, batched[k], atol=ATOL)


@pytest.mark.parametrize("depth", [2, 3, 5])
def test_corrected_endpoint_solves_the_theory_scale_equation(depth: int) -> None:
    source, X, y = problem(9, 4, 1, 1.1, 0.5, seed=depth)
    beta = endpoints.finetune_endpoint(X, y, source, depth=depth)[0]
    minimum = endpoints.min_norm_solution(X, y)[0]
    outside = source - endpoints.min_norm_solution(X, X @ source)[0]
    # beta = X^+ y + s^(L-1) (I - P) beta_s; the theory's c is s.
    scale = (np.linalg.norm(beta - minimum) / np.linalg.norm(outside)) ** (
        1 / (depth - 1)
    )
    equation = sp.lambdify(
        (theory.scale_c, theory.norm_a, theory.norm_b, theory.depth),
        theory.finetune_scale_equation(),
    )
    residual = equation(scale, np.linalg.norm(minimum), np.linalg.norm(outside), depth)
    assert abs(residual) < 1e-12 * (1 + scale ** (2 * depth))


def test_eq_142_as_printed_holds_when_target_is_source() -> None:
    source, X, _ = problem(10, 4, 2, 0.0, 0.0, seed=3)
    y = X @ source
    np.testing.assert_allclose(
        endpoints.finetune_endpoint(X, y, source, depth=3),
        endpoints.finetune_endpoint_as_printed(X, y, source),
        atol=ATOL,
    )


def test_eq_142_as_printed_misses_the_scale_with_noise() -> None:
    source, X, y = problem(10, 4, 1, 0.7, 1.0, seed=5)
    printed = endpoints.finetune_endpoint_as_printed(X, y, source)[0]
    corrected = endpoints.finetune_endpoint(X, y, source)[0]
    minimum = endpoints.min_norm_solution(X, y)[0]
    outside = printed - minimum
    # Both keep X^+ y and differ by (s - 1) (I - P) beta_s with s != 1.
    np.testing.assert_allclose(X[0] @ printed, y[0], atol=ATOL)
    scale = (corrected - minimum) @ outside / (outside @ outside)
    np.testing.assert_allclose(corrected - minimum, scale * outside, atol=ATOL)
    assert abs(scale - 1) > 1e-2


def test_rank_one_deviation_is_the_singular_value_ratio() -> None:
    rng = np.random.default_rng(4)
    matrices = rng.standard_normal((3, 5, 4))
    singular = np.linalg.svd(matrices, compute_uv=False)
    np.testing.assert_allclose(
        endpoints.rank_one_deviation(matrices), singular[:, 1] / singular[:, 0]
    )
    outer = np.einsum("ki,kj->kij", matrices[:, :, 0], matrices[:, 0, :])
    assert np.all(endpoints.rank_one_deviation(outer) < 1e-15)
    assert endpoints.rank_one_deviation(matrices[:, :, :1]).tolist() == [0.0] * 3


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (
            lambda: endpoints.finetune_endpoint(
                np.ones((2, 3)), np.ones(3), np.ones(3)
            ),
            "do not match",
        ),
        (
            lambda: endpoints.finetune_endpoint(np.eye(2), [1.0, 0.0], [1.0, 0, 0]),
            "do not match",
        ),
        (lambda: endpoints.min_norm_solution(np.eye(2), [1.0]), "do not match"),
        (lambda: endpoints.min_norm_solution(np.ones(2), [1.0]), "shape"),
        (lambda: endpoints.min_norm_solution([[np.nan, 1.0]], [1.0]), "finite"),
        (lambda: endpoints.min_norm_solution(np.zeros((2, 3)), [1.0, 1.0]), "rank"),
        (
            lambda: endpoints.finetune_endpoint(
                [[1.0, 0.0, 0.0], [2.0, 0.0, 0.0]], [1.0, 2.0], [0.0, 1.0, 0.0]
            ),
            "rank",
        ),
        (
            lambda: endpoints.finetune_endpoint(np.eye(2), [1.0, 0.0], [2.0, 0.0]),
            "norm",
        ),
        (
            lambda: endpoints.finetune_endpoint(
                np.ones((3, 2)), np.ones(3), [1.0, 0.0]
            ),
            "n <= d",
        ),
        (
            lambda: endpoints.finetune_endpoint(
                np.eye(2), [1.0, 0.0], [1.0, 0.0], depth=1
            ),
            "depth",
        ),
        (
            lambda: endpoints.finetune_endpoint(
                np.eye(2),
                [1.0, 0.0],
                [1.0, 0.0],
                depth=2.5,  # type: ignore[arg-type]
            ),
            "integer",
        ),
        (
            lambda: endpoints.finetune_endpoint(
                np.eye(2), [1.0, 0.0], [1.0, 0.0], depth=True
            ),
            "integer",
        ),
        (
            lambda: endpoints.linear_transfer_coefficient(
                np.eye(2)[:1], [1.0], [0.0, 1.0]
            ),
            "0/0",
        ),
        (lambda: endpoints.rank_one_deviation(np.zeros((2, 3, 3))), "zero matrix"),
        (lambda: endpoints.rank_one_deviation(np.ones((3, 3))), "(K, m, p)"),
    ],
)
def test_invalid_arguments_raise(call: Callable[[], object], match: str) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        call()
    assert match in str(info.value)
    assert isinstance(info.value, ValueError)


# Designs and labels spanning float64: the Gram matrix of X overflows from
# |X| ~ 1e155 (the endpoints were all NaN) and underflows below ~1e-160
# ("rank deficient"); ||X^+ y||^2 overflows from ||X^+ y|| ~ 1e154.
SCALES = [1e-300, 1e-170, 1e155, 1e300]


@pytest.mark.parametrize("scale", SCALES)
def test_min_norm_solution_is_homogeneous_over_the_float64_range(scale: float) -> None:
    # X^+ y is invariant under (X, y) -> (tX, ty); scaling by a power of ten
    # rounds each entry once (1/2 ulp), so a few ulps of the unscaled solution.
    rng = np.random.default_rng(3)
    X, y = rng.standard_normal((4, 7)), rng.standard_normal(4)
    expected = endpoints.min_norm_solution(X, y)
    scaled = endpoints.min_norm_solution(X * scale, y * scale)
    np.testing.assert_allclose(scaled, expected, rtol=64 * EPS, atol=0)


@pytest.mark.parametrize("scale", SCALES)
def test_linear_transfer_coefficient_is_homogeneous_over_the_float64_range(
    scale: float,
) -> None:
    rng = np.random.default_rng(4)
    X, y = rng.standard_normal((4, 7)), rng.standard_normal(4)
    source = rng.standard_normal(7)
    expected = endpoints.linear_transfer_coefficient(X, y, source)
    scaled = endpoints.linear_transfer_coefficient(X * scale, y * scale, source)
    np.testing.assert_allclose(scaled, expected, rtol=64 * EPS, atol=0)


@pytest.mark.parametrize("depth", [2, 3, 5])
@pytest.mark.parametrize("scale", [1e-300, 1e155, 1e300])
def test_finetune_endpoint_at_extreme_labels_matches_mpmath(
    depth: int, scale: float
) -> None:
    # beta_ft = m + c^((L-1)/2) o, c the positive root of c^L - a c^(L-1) - b
    # with a = ||o||^2, b = ||m||^2 (which overflows in float64 here); m, o
    # are the float64 X^+ y and (I - P) beta_s, so only the scale equation and
    # the assembly are compared.
    rng = np.random.default_rng(5)
    X, y = rng.standard_normal((3, 6)), scale * rng.standard_normal(3)
    source = rng.standard_normal(6)
    source /= np.linalg.norm(source)
    result = endpoints.finetune_endpoint(X, y, source, depth=depth)
    minimum = endpoints.min_norm_solution(X, y)
    outside = endpoints.finetune_endpoint_as_printed(X, y, source) - minimum
    with mpmath.workdps(50):
        m = [mpmath.mpf(v) for v in minimum]
        o = [mpmath.mpf(v) for v in outside]
        a, b = mpmath.fsum(v * v for v in o), mpmath.fsum(v * v for v in m)
        # In t = c / max(a, b^(1/L)) the coefficients are at most one and
        # the root lies in [1, 2], so findroot's test on the residual is relative.
        unit = max(a, b ** (mpmath.mpf(1) / depth))
        p, q = a / unit, b / unit**depth
        t = mpmath.findroot(lambda t: t**depth - p * t ** (depth - 1) - q, 2)
        c = t * unit
        factor = c ** (mpmath.mpf(depth - 1) / 2)
        expected = [float(mi + factor * oi) for mi, oi in zip(m, o, strict=True)]
        size = [float(abs(mi) + abs(factor * oi)) for mi, oi in zip(m, o, strict=True)]
    # Each path rounds a few dozen times (norms of 6 entries, powers, Newton's
    # last step), each within eps/2 of the size of the sum it feeds.
    np.testing.assert_array_less(
        np.abs(result - np.array(expected)), 64 * EPS * np.array(size) + 1e-300
    )


def test_min_norm_solution_at_labels_near_the_float64_maximum() -> None:
    # X^+ y = X^{-1} y = (1.7e308, 0) is finite, but (X X^T)^{-1} y on the way
    # overflowed (3 y, -2 y) and X^T applied to it gave inf - inf = NaN;
    # with the labels scaled by a power of two too it is computed.
    X = np.array([[1.0, 1.0], [1.0, 1.5]])
    y = np.array([1.7e308, 1.7e308])
    solution = endpoints.min_norm_solution(X, y)
    # X's condition number is about 10: a few dozen ulps of ||y||.
    np.testing.assert_allclose(
        solution, [1.7e308, 0.0], rtol=0, atol=64 * EPS * 1.7e308
    )
    with pytest.raises(OutOfRangeError, match="float64 range"):
        endpoints.min_norm_solution(X, [1.7e308, -1.7e308])  # (8.5e308, -6.8e308)
