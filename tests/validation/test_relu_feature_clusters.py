"""Fig. 6a-b / 8a experiment: unit points, weighted k-means, alignment, the runs."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.validation.relu_feature_clusters import (
    FeatureClusterSetup,
    alignment_score,
    feature_clusters,
    teacher_merge_inertia,
    trained_students,
    unit_points,
    weighted_kmeans,
)

TINY = FeatureClusterSetup(
    sample_sizes=(8, 32),
    seeds=2,
    dimension=4,
    teacher_units=3,
    width=6,
    steps=200,
    max_clusters=4,
    restarts=3,
    test_samples=50,
)


def _naive_optimum(points: np.ndarray, weights: np.ndarray, clusters: int) -> float:
    """The exact minimum over every assignment (a textbook brute force)."""
    p = weights / weights.sum()
    best = np.inf
    for labels in itertools.product(range(clusters), repeat=len(points)):
        labels_ = np.array(labels)
        total = 0.0
        for k in range(clusters):
            members = labels_ == k
            if p[members].sum() == 0:
                continue
            center = p[members] @ points[members] / p[members].sum()
            total += float(p[members] @ np.sum((points[members] - center) ** 2, 1))
        best = min(best, total)
    return best


def test_unit_points_are_directions_weighted_by_magnitude() -> None:
    rng = np.random.default_rng(0)
    w1, w2 = rng.standard_normal((5, 3)), rng.standard_normal(5)
    w1[2] = 0.0
    theta, p = unit_points(w1, w2)
    kept = [0, 1, 3, 4]
    norms = np.linalg.norm(w1[kept], axis=1)
    np.testing.assert_allclose(theta, w1[kept] / norms[:, None], rtol=1e-15)
    magnitudes = np.abs(w2[kept]) * norms
    np.testing.assert_allclose(p, magnitudes / magnitudes.sum(), rtol=1e-14)


def test_one_cluster_leaves_one_minus_the_squared_mean() -> None:
    rng = np.random.default_rng(1)
    theta, p = unit_points(rng.standard_normal((7, 3)), rng.standard_normal(7))
    value, centers = weighted_kmeans(theta, p, 1, rng)
    mean = p @ theta
    assert value == pytest.approx(1.0 - mean @ mean, rel=1e-12)
    np.testing.assert_allclose(centers[0], mean, rtol=1e-12)


@pytest.mark.parametrize("clusters", [2, 3])
def test_kmeans_bounds_the_brute_force_optimum_above(clusters: int) -> None:
    rng = np.random.default_rng(clusters)
    gaps = []
    for _ in range(5):
        theta, p = unit_points(rng.standard_normal((6, 3)), rng.standard_normal(6))
        found, centers = weighted_kmeans(theta, p, clusters, rng, restarts=20)
        exact = _naive_optimum(theta, p, clusters)
        # The returned value is attained by the returned centers...
        attained = (
            p
            / p.sum()
            @ np.min(np.sum((theta[:, None] - centers[None]) ** 2, axis=2), axis=1)
        )
        assert found == pytest.approx(attained, rel=1e-12)
        # ...so it bounds the optimum above (a heuristic need not reach it).
        assert found >= exact - 1e-12
        gaps.append(found - exact)
    assert min(gaps) == pytest.approx(0.0, abs=1e-12)


def test_units_on_k_directions_have_zero_inertia_at_k() -> None:
    rng = np.random.default_rng(2)
    directions = rng.standard_normal((3, 5))
    w1 = np.repeat(directions, 4, axis=0) * rng.uniform(0.5, 2.0, (12, 1))
    theta, p = unit_points(w1, rng.uniform(0.5, 1.0, 12))
    assert weighted_kmeans(theta, p, 3, rng)[0] == pytest.approx(0.0, abs=1e-14)
    assert weighted_kmeans(theta, p, 2, rng)[0] > 0.01


def test_alignment_score_is_the_mean_best_cosine() -> None:
    rng = np.random.default_rng(3)
    v, c = rng.standard_normal((4, 5)), rng.standard_normal((6, 5))
    expected = np.mean(
        [max(vj @ ck / np.linalg.norm(vj) / np.linalg.norm(ck) for ck in c) for vj in v]
    )
    assert alignment_score(v, c) == pytest.approx(expected, rel=1e-14)
    assert alignment_score(v, 3.0 * v) == pytest.approx(1.0, rel=1e-14)


def test_teacher_merge_inertia_is_the_optimum_with_one_cluster_fewer() -> None:
    rng = np.random.default_rng(4)
    v = rng.standard_normal((4, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    exact = _naive_optimum(v, np.ones(4), 3)
    assert teacher_merge_inertia(v) == pytest.approx(exact, rel=1e-12)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: unit_points([[1.0, 0.0]], [1.0, 2.0]), "readout"),
        (lambda: unit_points([[0.0, 0.0]], [1.0]), "zero function"),
        (
            lambda: weighted_kmeans([[1.0]], [-1.0], 1, np.random.default_rng(0)),
            "weights",
        ),
        (
            lambda: weighted_kmeans([[1.0]], [1.0], 0, np.random.default_rng(0)),
            "clusters",
        ),
        (lambda: weighted_kmeans([[1.0]], [1.0], 1, 0), "rng"),
        (lambda: alignment_score([[0.0, 1.0]], [[1.0]]), "centers"),
        (lambda: alignment_score([[0.0, 0.0]], [[1.0, 0.0]]), "teacher unit"),
        (lambda: teacher_merge_inertia([[1.0, 0.0]]), "k >= 2"),
        (lambda: teacher_merge_inertia([[2.0, 0.0], [0.0, 1.0]]), "unit vector"),
        (lambda: replace(TINY, sample_sizes=(32, 8)), "increasing"),
        (lambda: replace(TINY, seeds=1), "seeds"),
        (lambda: replace(TINY, max_clusters=2), "max_clusters"),
        (lambda: replace(TINY, lazy_scale=0.0), "lazy_scale"),
        (lambda: feature_clusters(TINY, regimes=("wide",)), "regimes"),
        (lambda: feature_clusters(TINY, sample_sizes=(9,)), "sample_sizes"),
        (lambda: feature_clusters(object()), "FeatureClusterSetup"),  # type: ignore[arg-type]
    ],
)
def test_invalid_arguments_are_refused(call: object, name: str) -> None:
    with pytest.raises(InvalidArgumentError, match=name):
        call()  # type: ignore[operator]


def test_feature_clusters_shapes_and_subsets_agree() -> None:
    full = feature_clusters(TINY)
    assert full.regimes == ("rich", "lazy")
    assert full.inertia.shape == (2, 2, 2, 4)
    assert full.alignment.shape == full.participation_ratio.shape == (2, 2, 2)
    # Inertia decreases with K, lies in [0, 1].
    assert np.all(np.diff(full.inertia, axis=-1) <= 1e-12)
    assert np.all((full.inertia >= 0) & (full.inertia <= 1 + 1e-12))
    part = feature_clusters(TINY, regimes=("lazy",), sample_sizes=(32,))
    np.testing.assert_array_equal(part.inertia[0, 0], full.inertia[1, 1])
    np.testing.assert_array_equal(part.teacher_inertia, full.teacher_inertia)
    # The lazy networks move their weights less, relative to their start.
    assert np.all(full.weight_movement[1] < full.weight_movement[0])


def test_rich_networks_on_plenty_of_data_find_the_teacher() -> None:
    setup = replace(
        TINY, sample_sizes=(256,), seeds=2, width=12, steps=6000, restarts=5
    )
    result = feature_clusters(setup, regimes=("rich",))
    assert result.relative_loss.max() < 1e-3
    assert np.all(result.alignment > 0.99)
    assert np.all(result.inertia[0, 0, :, 2] < result.teacher_inertia)


@pytest.mark.parametrize("scale", [1e-300, 1e-160, 1e155, 1e300])
def test_unit_points_do_not_depend_on_the_scale_of_the_weights(scale: float) -> None:
    # Regression: the norms and the products |w2| ||w1|| under- or overflowed
    # (NaN weights, or every unit dropped as dead) far from scale 1.
    rng = np.random.default_rng(5)
    w1, w2 = rng.standard_normal((4, 3)), rng.standard_normal(4)
    theta, p = unit_points(w1, w2)
    scaled_theta, scaled_p = unit_points(scale * w1, scale * w2)
    np.testing.assert_allclose(scaled_theta, theta, rtol=1e-14)
    np.testing.assert_allclose(scaled_p, p, rtol=1e-14)


@pytest.mark.parametrize(
    ("point_scale", "weight_scale"),
    [(1e-300, 1e-300), (1.0, 1e308)],
)
def test_kmeans_scales_with_its_points_and_not_with_its_weights(
    point_scale: float, weight_scale: float
) -> None:
    # Regression: squared distances of points below 1e-154 underflowed to 0
    # (every point "nearest" the first center); weights summing past the
    # float64 range gave 0/inf = NaN probabilities (a foreign ValueError).
    rng = np.random.default_rng(6)
    points, weights = rng.standard_normal((6, 2)), rng.uniform(0.5, 1.0, 6)
    value, centers = weighted_kmeans(points, weights, 2, np.random.default_rng(0))
    scaled_value, scaled_centers = weighted_kmeans(
        point_scale * points, weight_scale * weights, 2, np.random.default_rng(0)
    )
    assert scaled_value == pytest.approx(value * point_scale**2, rel=1e-12)
    np.testing.assert_allclose(scaled_centers, point_scale * centers, rtol=1e-12)


def test_kmeans_inertia_beyond_float64_is_a_named_error() -> None:
    points = np.array([[1e300, 0.0], [-1e300, 0.0]])
    with pytest.raises(OutOfRangeError, match="points"):
        weighted_kmeans(points, [1.0, 1.0], 1, np.random.default_rng(0))


@pytest.mark.parametrize("scale", [1e-300, 1e-160, 1e155, 1e300])
def test_alignment_score_does_not_depend_on_the_scale(scale: float) -> None:
    # Regression: norms beyond 1e154 overflowed (cosines 0) and below 1e-154
    # underflowed (a nonzero unit refused as 0).
    rng = np.random.default_rng(7)
    v, c = rng.standard_normal((3, 4)), rng.standard_normal((5, 4))
    expected = alignment_score(v, c)
    assert alignment_score(scale * v, c) == pytest.approx(expected, rel=1e-14)
    assert alignment_score(v, scale * c) == pytest.approx(expected, rel=1e-14)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (
            lambda: alignment_score([[1.0, 0.0], [0.0, 0.0]], [[1.0, 0.0]]),
            "teacher_units",
        ),
        (lambda: alignment_score([[1.0, 0.0]], [[0.0, 0.0]]), "centers"),
        (lambda: feature_clusters(TINY, sample_sizes=8), "sample_sizes"),  # type: ignore[arg-type]
        (lambda: feature_clusters(TINY, sample_sizes=(8.0,)), "sample_sizes"),  # type: ignore[arg-type]
        (lambda: trained_students(TINY, "rich", 9), "n=9"),
        (lambda: trained_students(TINY, "rich", 8.0), "n=8.0"),  # type: ignore[arg-type]
        (lambda: trained_students(TINY, "wide", 8), "regime"),
        (lambda: trained_students(object(), "rich", 8), "FeatureClusterSetup"),  # type: ignore[arg-type]
    ],
)
def test_bad_arguments_are_named(call: object, name: str) -> None:
    # Regression: the zero-vector message named neither argument; an integer
    # sample_sizes was a TypeError and a float one was run as the integer.
    with pytest.raises(InvalidArgumentError, match=name):
        call()  # type: ignore[operator]


def test_trained_students_are_the_networks_feature_clusters_measures() -> None:
    students = trained_students(TINY, "lazy", 32)
    result = feature_clusters(TINY, regimes=("lazy",), sample_sizes=(32,))
    np.testing.assert_array_equal(
        students.networks.relative_loss, result.relative_loss[0, 0]
    )
    responses = np.maximum(
        np.einsum(
            "smd,shd->smh", students.test_inputs, students.networks.hidden_weights
        ),
        0.0,
    )
    from implicit_bias.numerics import participation_ratio

    np.testing.assert_allclose(
        [participation_ratio(r) for r in responses],
        result.participation_ratio[0, 0],
        rtol=1e-13,
    )
    # Shared and cached: read-only, so no caller can alter another's networks.
    assert trained_students(TINY, "lazy", 32) is students
    with pytest.raises(ValueError, match="read-only"):
        students.networks.hidden_weights[0, 0, 0] = 1.0
