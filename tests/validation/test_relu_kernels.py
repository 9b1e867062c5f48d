r"""Tests of :mod:`implicit_bias.validation.relu_kernels` (features-are-fate, Sec. 4).

The Monte-Carlo estimators against the closed forms within 5 standard errors
(at most ~50 comparisons per test: a correct estimator fails with probability
below 1e-4, and the seeds are fixed); the population loss's gradients against
central finite differences (error :math:`O(h^2)`, h = 1e-6, so agreement to
~1e-8 relative); and the training loop on a small problem.
"""

from __future__ import annotations

import numpy as np
import pytest

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.relu_kernels import relu_gram, relu_rkhs_projection
from implicit_bias.validation.relu_kernels import (
    ablation_setup,
    kernel_condensation,
    kernel_gram_on_inputs,
    linear_transfer_errors,
    monte_carlo_overlaps,
    monte_carlo_projection,
    relu_features,
    sample_sphere,
    source_loss_and_gradients,
    train_student_on_source,
)

Z_MAX = 5.0


def test_sample_sphere_rows_are_unit() -> None:
    points = sample_sphere(50, 7, np.random.default_rng(0))
    np.testing.assert_allclose(np.linalg.norm(points, axis=1), 1.0, rtol=1e-15)


def test_ablation_partitions_the_teacher() -> None:
    setup = ablation_setup(20, 6, 0.25, np.random.default_rng(1))
    assert setup.ablated.size == 5
    assert setup.kept.size == 15
    assert set(setup.ablated) | set(setup.kept) == set(range(20))
    np.testing.assert_array_equal(
        setup.source_weights, setup.teacher_weights[setup.kept]
    )
    np.testing.assert_array_equal(
        setup.source_readout, setup.teacher_readout[setup.kept]
    )


def test_ablation_can_reuse_a_teacher_and_unit_readouts() -> None:
    rng = np.random.default_rng(2)
    first = ablation_setup(10, 4, 0.0, rng, readout="ones")
    np.testing.assert_array_equal(first.teacher_readout, np.ones(10))
    again = ablation_setup(
        10, 4, 0.5, rng, teacher=(first.teacher_weights, first.teacher_readout)
    )
    assert again.teacher_weights is first.teacher_weights
    assert again.ablated.size == 5


def test_source_is_eq19() -> None:
    # f_s = (1/((1-mu) m_*)) sum_{A^c} c*_i sigma_i, evaluated on inputs.
    rng = np.random.default_rng(3)
    setup = ablation_setup(10, 4, 0.4, rng)
    inputs = rng.standard_normal((50, 4))
    features = relu_features(inputs, setup.teacher_weights)
    eq19 = features[:, setup.kept] @ setup.teacher_readout[setup.kept] / (0.6 * 10)
    as_mean = (
        relu_features(inputs, setup.source_weights)
        @ setup.source_readout
        / setup.kept.size
    )
    np.testing.assert_allclose(as_mean, eq19, rtol=1e-14)


@pytest.mark.parametrize(
    ("width", "fraction", "message"),
    [(10, 1.0, "ablated_fraction"), (10, 0.25, "integer"), (10, -0.1, r"\[0, 1\)")],
)
def test_ablation_rejects_bad_fractions(
    width: int, fraction: float, message: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        ablation_setup(width, 3, fraction, np.random.default_rng(0))


def test_ablation_rejects_unknown_readout() -> None:
    with pytest.raises(InvalidArgumentError, match="readout"):
        ablation_setup(10, 3, 0.0, np.random.default_rng(0), readout="uniform")  # type: ignore[arg-type]


def test_monte_carlo_overlaps_match_the_kernel() -> None:
    rng = np.random.default_rng(4)
    weights = sample_sphere(6, 4, rng) * rng.uniform(0.5, 2.0, (6, 1))
    estimate = monte_carlo_overlaps(weights, weights[:3], 100_000, rng)
    closed = relu_gram(weights, weights[:3])
    z = np.abs(estimate.mean - closed) / estimate.standard_error
    assert np.max(z) <= Z_MAX


def test_monte_carlo_projection_agrees_with_eq159() -> None:
    rng = np.random.default_rng(5)
    model = sample_sphere(5, 4, rng)
    target = sample_sphere(6, 4, rng)
    readout = rng.standard_normal(6)
    check = monte_carlo_projection(model, target, readout, 100_000, rng)
    z = abs(check.residual.mean - check.closed_outside) / check.residual.standard_error
    assert z <= Z_MAX
    z_target = (
        abs(check.target.mean - check.closed_target) / check.target.standard_error
    )
    assert z_target <= Z_MAX
    orthogonal = np.abs(check.orthogonality.mean) / check.orthogonality.standard_error
    assert np.max(orthogonal) <= Z_MAX


def test_linear_transfer_error_never_below_the_projection() -> None:
    # Any readout's error is >= ||P_perp f_t||^2; it approaches it as n grows.
    rng = np.random.default_rng(6)
    setup = ablation_setup(8, 5, 0.5, rng)
    outside = relu_rkhs_projection(
        setup.source_weights, setup.teacher_weights, setup.teacher_readout
    ).outside
    errors = linear_transfer_errors(
        setup.source_weights,
        setup.teacher_weights,
        setup.teacher_readout,
        (20, 2000),
        20,
        rng,
    )
    assert np.all(errors >= outside * (1 - 1e-10))
    excess = errors.mean(axis=1) - outside
    assert excess[1] < excess[0] / 10


def test_kernel_gram_on_inputs() -> None:
    rng = np.random.default_rng(7)
    inputs = rng.standard_normal((5, 3))
    weights = rng.standard_normal((4, 3))
    gram = kernel_gram_on_inputs(inputs, weights)
    expected = np.array(
        [
            [sum(max(w @ a, 0) * max(w @ b, 0) for w in weights) / 4 for b in inputs]
            for a in inputs
        ]
    )
    np.testing.assert_allclose(gram, expected, rtol=1e-14)


def test_gradients_match_finite_differences() -> None:
    rng = np.random.default_rng(8)
    setup = ablation_setup(5, 4, 0.4, rng)
    weights = sample_sphere(6, 4, rng)
    readout = rng.standard_normal(6)
    loss, readout_gradient, hidden_gradient = source_loss_and_gradients(
        weights, readout, setup
    )
    h = 1e-6
    for i in range(6):
        shift = np.zeros(6)
        shift[i] = h
        plus = source_loss_and_gradients(weights, readout + shift, setup)[0]
        minus = source_loss_and_gradients(weights, readout - shift, setup)[0]
        assert (plus - minus) / (2 * h) == pytest.approx(readout_gradient[i], rel=1e-6)
    # Along the sphere: w_i(t) = cos(t) w_i + sin(t) v, v a unit tangent.
    for i in range(6):
        tangent = rng.standard_normal(4)
        tangent -= (tangent @ weights[i]) * weights[i]
        tangent /= np.linalg.norm(tangent)
        values = []
        for t in (h, -h):
            moved = weights.copy()
            moved[i] = np.cos(t) * weights[i] + np.sin(t) * tangent
            values.append(source_loss_and_gradients(moved, readout, setup)[0])
        directional = (values[0] - values[1]) / (2 * h)
        assert directional == pytest.approx(
            hidden_gradient[i] @ tangent, rel=1e-5, abs=1e-12
        )
        assert abs(hidden_gradient[i] @ weights[i]) <= 1e-15
    # The loss is half the squared L2 distance to the source, by Monte Carlo.
    inputs = rng.standard_normal((200_000, 4))
    student = relu_features(inputs, weights) @ readout / 6
    source = (
        relu_features(inputs, setup.source_weights)
        @ setup.source_readout
        / setup.kept.size
    )
    squares = 0.5 * (student - source) ** 2
    standard_error = squares.std(ddof=1) / np.sqrt(squares.size)
    assert abs(squares.mean() - loss) <= Z_MAX * standard_error


def test_training_decreases_the_loss() -> None:
    rng = np.random.default_rng(9)
    setup = ablation_setup(4, 3, 0.5, rng)
    training = train_student_on_source(
        setup, 20, 2000, rng, learning_rate=0.2, record_every=500
    )
    assert training.losses.shape == (4,)
    assert training.losses[-1] < training.losses[0] / 20
    np.testing.assert_allclose(
        np.linalg.norm(training.hidden_weights, axis=1), 1.0, rtol=1e-14
    )


@pytest.mark.slow
def test_training_moves_the_kernel_towards_the_source() -> None:
    experiment = kernel_condensation()
    losses = experiment.training.losses
    assert losses[-1] < 1e-3 * losses[0]
    assert experiment.distance_after < experiment.distance_before
