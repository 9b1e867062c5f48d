r"""Tests of :mod:`implicit_bias.numerics.multitask` (ptft-diagonal-networks, eq. 30).

:math:`\|\beta\|_{1,2} = \sum_d \|\beta_{:,d}\|_2`; the minimum-norm interpolant is
checked by a duality gap recomputed here from the returned primal and dual points,
and with one output against an independent LP (basis pursuit).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.multitask import L12Solution, l12_norm, min_l12_interpolant
from tests.numerics.test_q_norm import _X, U, _basis_pursuit, _null_space, _problem


@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    exponent=st.integers(min_value=-300, max_value=300),
)
def test_l12_norm_matches_naive_loop_at_every_scale(seed: int, exponent: int) -> None:
    b = np.random.default_rng(seed).standard_normal((2, 3, 4))
    scale = 10.0**exponent
    value = l12_norm(b * scale)
    assert value.shape == (2,)
    for batch in range(2):
        naive = sum(
            math.sqrt(sum(float(v) ** 2 for v in column)) for column in b[batch].T
        )
        assert abs(value[batch] - naive * scale) <= 8 * U * naive * scale


def test_l12_norm_with_one_output_is_l1_and_the_parameter_norm_is_twice_it() -> None:
    assert l12_norm([[1.0, -2.0, 3.5]]) == 6.5
    # Eqs. (28)-(30): over factorizations beta_{o,d} = z_d w_{o,d}, the parameter
    # norm sum_d z_d^2 + ||w_d||^2 is least, 2 ||beta||_{1,2}, at z_d^2 = ||beta_d||.
    rng = np.random.default_rng(1)
    beta = rng.standard_normal((3, 5))
    norms = np.linalg.norm(beta, axis=0)
    for z_squared in [norms, norms * rng.uniform(0.2, 5.0, 5)]:
        parameters = np.sum(z_squared) + np.sum(beta**2 / z_squared)
        assert parameters >= 2 * l12_norm(beta) * (1 - 1e-15)
    assert np.isclose(np.sum(norms) + np.sum(beta**2 / norms), 2 * l12_norm(beta))


def _check_certificate(x: Any, y: Any, solution: L12Solution, tol: float) -> None:
    """Recompute the certificate here: feasibility, dual feasibility, the gap."""
    beta, dual = solution.beta, solution.dual
    assert beta.shape == (y.shape[1], x.shape[1])
    assert dual.shape == y.shape
    assert np.linalg.norm(x @ beta.T - y) <= 1e-12 * np.linalg.norm(y)
    assert np.max(np.linalg.norm(x.T @ dual, axis=1)) <= 1 + 1e-12
    primal = l12_norm(beta)
    gap = primal - float(np.sum(dual * y))
    assert gap <= tol * primal
    assert abs(gap - solution.duality_gap) <= 1e-12 * primal


_L12_CASES = st.fixed_dictionaries(
    {
        "seed": st.integers(min_value=0, max_value=2**32 - 1),
        "n": st.integers(min_value=1, max_value=6),
        "extra": st.integers(min_value=0, max_value=14),
        "outputs": st.integers(min_value=1, max_value=4),
    }
)


@example(case={"seed": 0, "n": 6, "extra": 14, "outputs": 4})
@example(case={"seed": 1, "n": 1, "extra": 0, "outputs": 1})
@given(case=_L12_CASES)
def test_min_l12_interpolant_is_certified_optimal(case: dict[str, Any]) -> None:
    rng = np.random.default_rng(case["seed"])
    n, dimension = case["n"], case["n"] + case["extra"]
    x = rng.standard_normal((n, dimension))
    teacher = rng.standard_normal((dimension, case["outputs"]))
    y = x @ (teacher * (rng.random((dimension, 1)) < 0.5))
    if not y.any():
        y = x @ teacher
    solution = min_l12_interpolant(x, y)
    _check_certificate(x, y, solution, 1e-10)
    # No feasible perturbation is better (the gap already proves it; this
    # checks the proof's ingredients against each other).
    null = _null_space(x)
    best = l12_norm(solution.beta)
    for _ in range(3 * (null.shape[1] > 0)):
        direction = null @ rng.standard_normal((null.shape[1], case["outputs"]))
        assert l12_norm(solution.beta + 1e-3 * direction.T) >= best * (1 - 1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_min_l12_interpolant_with_one_output_is_basis_pursuit(seed: int) -> None:
    x, y = _problem(100 + seed, 12, 40)
    solution = min_l12_interpolant(x, y[:, None])
    l1 = _basis_pursuit(x, y)
    assert abs(l12_norm(solution.beta) - np.sum(np.abs(l1))) <= 1e-9 * np.sum(
        np.abs(l1)
    )
    # Generic data: the basis-pursuit solution is unique, so the points agree.
    assert np.allclose(solution.beta[0], l1, atol=1e-8 * np.max(np.abs(l1)))
    # The polish leaves the columns off the support exactly zero.
    assert np.count_nonzero(solution.beta[0]) <= 12


def test_min_l12_interpolant_special_systems() -> None:
    rng = np.random.default_rng(11)
    x = rng.standard_normal((5, 12))
    y = x @ rng.standard_normal((12, 3))
    zero = min_l12_interpolant(x, 0 * y)
    assert not zero.beta.any()
    assert zero.duality_gap == 0.0
    # Duplicate columns: the minimizer is not unique, the certificate still holds.
    duplicated = np.hstack([x, x[:, :4]])
    _check_certificate(duplicated, y, min_l12_interpolant(duplicated, y), 1e-10)
    # Repeated rows: rank-deficient X.
    _check_certificate(
        np.vstack([x, x]),
        np.vstack([y, y]),
        min_l12_interpolant(np.vstack([x, x]), np.vstack([y, y])),
        1e-10,
    )
    # Badly scaled columns.
    scaled = x * 10.0 ** rng.uniform(-4, 4, 12)
    _check_certificate(scaled, y, min_l12_interpolant(scaled, y), 1e-10)


@pytest.mark.parametrize(
    ("arguments", "keywords", "match"),
    [
        ((_X, [1.0, 2.0]), {}, "Y has shape .* must have 2 axes"),
        ((_X, np.ones((3, 1))), {}, "one row per row of X"),
        ((_X, np.ones((2, 0))), {}, "at least 1 column"),
        ((_X, [[1.0], [np.inf]]), {}, "Y=inf is not finite"),
        ((np.ones((2, 3)), [[1.0], [2.0]]), {}, "not in the column space"),
        ((_X, [[1.0], [2.0]]), {"tol": 1.0}, r"tol=1.0 is outside \(0, 1\)"),
    ],
)
def test_min_l12_interpolant_rejects_bad_arguments(
    arguments: tuple[Any, ...], keywords: dict[str, Any], match: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        min_l12_interpolant(*arguments, **keywords)


@pytest.mark.parametrize(
    ("value", "match"),
    [([1.0, 2.0], r"B must be \(\.\.\., O, D\)"), ([[np.nan]], "B=nan is not finite")],
)
def test_l12_norm_rejects_bad_arguments(value: Any, match: str) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        l12_norm(value)
