r"""The Figs. 5c-5f experiment of ptft-diagonal-networks and its sparsity measures.

:func:`variance_beyond_top_k` and :func:`mean_weight_rank` against a plain
loop over the sorted weights; :func:`learned_solutions` against what its
networks must satisfy whatever the claims find: linear probing ends at the
minimum-l2 interpolant, every predictor lies in the span the data allow.
"""

from __future__ import annotations

import numpy as np
import pytest

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.validation import (
    learned_solutions,
    mean_weight_rank,
    variance_beyond_top_k,
)
from implicit_bias.validation.diagonal_learned_sparsity import (
    LEARNED_SOLUTIONS_CONFIGURATIONS,
)


def _loop_variance_beyond(beta: list[float], k: int) -> float:
    """The textbook form: sort |beta| descending, sum the squares past k."""
    squares = sorted((b * b for b in beta), reverse=True)
    return sum(squares[k:]) / sum(squares)


@pytest.mark.parametrize("seed", range(5))
def test_measures_agree_with_a_plain_loop(seed: int) -> None:
    rng = np.random.default_rng(seed)
    beta = rng.standard_normal(9) * rng.exponential(size=9)
    for k in range(10):
        assert float(variance_beyond_top_k(beta, k)) == pytest.approx(
            _loop_variance_beyond(list(beta), k), abs=1e-15
        )
    area = sum(_loop_variance_beyond(list(beta), k) for k in range(1, 10))
    assert float(mean_weight_rank(beta)) == pytest.approx(1 + area, rel=1e-14)


def test_measures_batch_and_ignore_sign_and_scale() -> None:
    beta = np.array([[3.0, 0.0, -4.0], [1.0, 1.0, 1.0]])
    np.testing.assert_allclose(variance_beyond_top_k(beta, 1), [0.36, 2 / 3])
    np.testing.assert_allclose(mean_weight_rank(beta), [1.36, 2.0])
    np.testing.assert_allclose(
        mean_weight_rank(-1e-200 * beta), mean_weight_rank(beta), rtol=1e-14
    )


@pytest.mark.parametrize(
    ("coefficients", "k", "match"),
    [
        ([0.0, 0.0], 1, "zero predictor"),
        ([1.0, np.nan], 1, "finite"),
        (np.empty(0), 0, "D >= 1"),
        ([1.0, 2.0], 3, r"\[0, 2\]"),
        ([1.0, 2.0], -1, r"\[0, 2\]"),
        ([1.0, 2.0], 1.0, "integer"),
        ([1.0, 2.0], True, "integer"),
    ],
)
def test_bad_arguments_are_named(coefficients: object, k: object, match: str) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        variance_beyond_top_k(coefficients, k)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"quick": 1}, "quick"),
        ({"seed": -1}, "seed"),
        ({"repeats": 1}, "repeats"),
        ({"repeats": 2.0}, "repeats"),
        ({"aux_samples": 0}, r"aux_samples=0 is below 1"),
        ({"aux_samples": -4}, "aux_samples"),
        ({"aux_samples": 20.0}, "aux_samples=20.0 is not an integer"),
        ({"aux_samples": True}, "aux_samples"),
        ({"rescale": 0.0}, r"rescale=0.0 is outside \(0, inf\)"),
        ({"rescale": -0.5}, "rescale"),
        ({"rescale": float("nan")}, "rescale=nan is not finite"),
        ({"rescale": float("inf")}, "rescale"),
        ({"rescale": True}, "rescale"),
        ({"rescale": [0.1, 1.0]}, "rescale"),
    ],
)
def test_learned_solutions_rejects_bad_options(options: dict, match: str) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        learned_solutions(**options)


@pytest.fixture(scope="module")
def small() -> object:
    return learned_solutions(quick=True, repeats=2)


def test_learned_solutions_shapes_and_supports(small: object) -> None:
    result = small
    sizes = LEARNED_SOLUTIONS_CONFIGURATIONS["quick"]
    shape = (len(sizes.overlaps), len(sizes.sample_sizes), 2, sizes.dimension)
    for name in ("stl", "linear_probe", "ptft", "mtl"):
        assert getattr(result, name).shape == shape, name
    assert result.truth.shape == (len(sizes.overlaps), 2, sizes.dimension)
    assert int(result.aux_support.sum()) == sizes.features
    # At overlap s the main task has F features, s of them auxiliary ones.
    for v, shared in enumerate(result.overlaps):
        on = result.truth[v] != 0
        assert (on.sum(axis=-1) == sizes.features).all()
        assert (on[:, result.aux_support].sum(axis=-1) == shared).all()


def test_linear_probe_is_the_minimum_l2_interpolant(small: object) -> None:
    # Redraw repeat 0's data as learned_solutions does (the first n rows of
    # one draw): X^+ y is the interpolant orthogonal to the null space of X_n.
    result = small
    child = np.random.SeedSequence(result.seed).spawn(2)[0]
    rng = np.random.default_rng(child)
    features, dimension = result.features, result.dimension
    rng.standard_normal(features)  # the auxiliary coefficients
    rng.standard_normal(features)  # the main task's
    X = rng.standard_normal((int(result.sample_sizes[-1]), dimension))
    for i, n in enumerate(result.sample_sizes):
        probe = result.linear_probe[:, i, 0]
        np.testing.assert_allclose(
            probe @ X[:n].T, result.truth[:, 0] @ X[:n].T, atol=1e-9
        )
        null = np.linalg.svd(X[:n])[2][n:]
        np.testing.assert_allclose(probe @ null.T, 0.0, atol=1e-9)
        # The trained networks interpolate the same data (relative loss 1e-6).
        for name in ("stl", "ptft", "mtl"):
            residual = (getattr(result, name)[:, i, 0] - result.truth[:, 0]) @ X[:n].T
            scale = np.linalg.norm(result.truth[:, 0] @ X[:n].T, axis=-1)
            assert (np.linalg.norm(residual, axis=-1) <= 2e-3 * scale).all(), name


def test_same_seed_same_networks() -> None:
    a = learned_solutions(quick=True, repeats=2, seed=3)
    b = learned_solutions(quick=True, repeats=2, seed=3)
    np.testing.assert_array_equal(a.ptft, b.ptft)
    np.testing.assert_array_equal(a.stl, b.stl)


def test_aux_samples_and_rescale_change_ptft_only(small: object) -> None:
    # The auxiliary samples are drawn after the main task's data: the tasks,
    # STL, MTL and LP are the default run's; PT+FT starts elsewhere.
    default = small
    assert (default.aux_samples, default.rescale) == (20, 1.0)  # D/2, lambda = 1
    for options in ({"aux_samples": 64}, {"rescale": 0.1}):
        other = learned_solutions(quick=True, repeats=2, **options)
        assert other.aux_samples == options.get("aux_samples", 20)
        assert other.rescale == options.get("rescale", 1.0)
        np.testing.assert_array_equal(other.truth, default.truth)
        np.testing.assert_array_equal(other.linear_probe, default.linear_probe)
        np.testing.assert_allclose(other.stl, default.stl, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(other.mtl, default.mtl, rtol=1e-9, atol=1e-12)
        change = np.abs(other.ptft - default.ptft).max(axis=-1)
        # At the smallest n the finetuned predictor leans on the pretrained
        # features, so a different start moves it by far more than round-off.
        assert change[:, 0].min() > 1e-3, options


@pytest.mark.parametrize("measure", [mean_weight_rank, variance_beyond_top_k])
def test_an_empty_batch_of_predictors_is_refused(measure: object) -> None:
    # Regression: a (0, D) batch returned an empty array instead of an error.
    arguments = (
        (np.empty((0, 3)),) if measure is mean_weight_rank else (np.empty((0, 3)), 1)
    )
    with pytest.raises(InvalidArgumentError, match="coefficients"):
        measure(*arguments)  # type: ignore[operator]
