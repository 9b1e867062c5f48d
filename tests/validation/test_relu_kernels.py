r"""Tests of :mod:`implicit_bias.validation.relu_kernels` (features-are-fate, Sec. 4).

The Monte-Carlo estimators against the closed forms within 5 standard errors
(at most ~50 comparisons per test: a correct estimator fails with probability
below 1e-4, and the seeds are fixed); the population loss's gradients against
central finite differences (error :math:`O(h^2)`, h = 1e-6, so agreement to
~1e-8 relative); and the training loop on a small problem.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from implicit_bias.errors import ConvergenceError, InvalidArgumentError, OutOfRangeError
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


def test_training_is_projected_descent_on_the_population_loss() -> None:
    # The trainer's loop (its source terms formed once, the loss alone tested
    # per step) against the textbook loop on source_loss_and_gradients: the
    # same iterates up to rounding (relu_gram's norms of unit rows, and the
    # order of the sums), 200 steps.
    setup = ablation_setup(5, 4, 0.4, np.random.default_rng(12))
    training = train_student_on_source(
        setup, 7, 200, np.random.default_rng(13), learning_rate=0.2, record_every=1
    )
    weights = sample_sphere(7, 4, np.random.default_rng(13))
    np.testing.assert_array_equal(weights, training.initial_hidden_weights)
    readout = np.full(7, 1e-7)
    losses = []
    for _ in range(200):
        loss, readout_gradient, tangent = source_loss_and_gradients(
            weights, readout, setup
        )
        losses.append(loss)
        readout = readout - 0.2 * 7 * readout_gradient
        weights = weights - 0.2 * 7 * tangent
        weights /= np.linalg.norm(weights, axis=1, keepdims=True)
    np.testing.assert_allclose(training.losses, losses, rtol=1e-10)
    np.testing.assert_allclose(training.hidden_weights, weights, rtol=0, atol=1e-12)
    np.testing.assert_allclose(training.readout, readout, rtol=1e-10, atol=1e-15)


def test_training_names_the_step_that_diverged() -> None:
    # Step 0 moves the weights by ~1e299 (their squares overflow, the rows do
    # not: they are renormalized to the sphere) and the readouts to ~1e299;
    # at step 1 the loss, quadratic in them, is past float64.
    setup = ablation_setup(4, 3, 0.5, np.random.default_rng(0))
    with pytest.raises(ConvergenceError, match="diverged at step 1 of 50"):
        train_student_on_source(
            setup,
            4,
            50,
            np.random.default_rng(1),
            readout_init=1.0,
            learning_rate=1e300,
        )


def test_training_keeps_huge_moved_weights_on_the_sphere() -> None:
    # Regression: a moved row of norm beyond float64 (finite entries, squares
    # that overflow) was divided by an infinite norm and became zero, off the
    # sphere, and training went on from there; it is renormalized instead, and
    # the readouts, growing 1e50-fold per step, overflow the loss.
    setup = ablation_setup(4, 3, 0.5, np.random.default_rng(0))
    with pytest.raises(ConvergenceError, match="diverged at step 3 of 50"):
        train_student_on_source(
            setup,
            4,
            50,
            np.random.default_rng(1),
            readout_init=1.0,
            learning_rate=1e50,
        )


@pytest.mark.slow
def test_training_moves_the_kernel_towards_the_source() -> None:
    experiment = kernel_condensation()
    losses = experiment.training.losses
    assert losses[-1] < 1e-3 * losses[0]
    assert experiment.distance_after < experiment.distance_before


def test_kernel_condensation_passes_dimension_and_teacher_units_by_name() -> None:
    # Regression: ablation_setup(dimension, teacher_units, ...) swapped m_* and d;
    # equal defaults (10, 10) hid it. With d = 3 and m_* = 4 the teacher must be
    # (4, 3) and every input and student weight live in R^3.
    experiment = kernel_condensation(
        dimension=3,
        teacher_units=4,
        ablated_fraction=0.5,
        width=5,
        steps=3,
        gram_inputs=20,
    )
    assert experiment.setup.teacher_weights.shape == (4, 3)
    assert experiment.setup.teacher_readout.shape == (4,)
    assert experiment.setup.ablated.size == 2
    assert experiment.inputs.shape == (20, 3)
    assert experiment.training.hidden_weights.shape == (5, 3)
    assert experiment.nearest_cosines.shape == (5,)


def test_monte_carlo_overlaps_do_not_overflow_where_the_overlaps_fit() -> None:
    # Regression: the squares of the products (fourth powers of the weights)
    # overflowed for weights ~1e80 and gave NaN standard errors, although the
    # overlaps (~1e160) fit in float64. Power-of-two scaling is exact, so the
    # scaled estimate is the unit one times 2^(2k) bit for bit.
    weights = sample_sphere(3, 2, np.random.default_rng(0))
    unit = monte_carlo_overlaps(weights, weights, 1000, np.random.default_rng(1))
    big = monte_carlo_overlaps(
        2.0**266 * weights, 2.0**266 * weights, 1000, np.random.default_rng(1)
    )
    np.testing.assert_array_equal(big.mean, unit.mean * 2.0**532)
    np.testing.assert_array_equal(big.standard_error, unit.standard_error * 2.0**532)


def test_training_divergence_raises_at_once() -> None:
    # Regression: a step past stability ran all steps on NaN and returned NaN.
    setup = ablation_setup(4, 3, 0.5, np.random.default_rng(0))
    with pytest.raises(ConvergenceError, match="lower learning_rate"):
        train_student_on_source(
            setup, 4, 10**4, np.random.default_rng(1), learning_rate=1e300
        )


def test_training_refuses_an_overflowing_initial_readout() -> None:
    setup = ablation_setup(4, 3, 0.5, np.random.default_rng(0))
    with pytest.raises(OutOfRangeError, match="readout_init"):
        train_student_on_source(
            setup, 4, 3, np.random.default_rng(1), readout_init=1e300
        )


_SETUP = ablation_setup(4, 3, 0.5, np.random.default_rng(0))
_UNIT = sample_sphere(2, 3, np.random.default_rng(1))


@pytest.mark.parametrize(
    ("call", "name"),
    [
        # Regression: a NaN fraction, a float width, a seed for rng.
        (lambda: ablation_setup(4, 3, np.nan, np.random.default_rng(0)), "ablated"),
        (lambda: ablation_setup(4.0, 3, 0.5, np.random.default_rng(0)), "teacher_w"),
        (lambda: ablation_setup(4, 3, 0.5, 0), "rng"),
        (
            lambda: ablation_setup(
                4,
                3,
                0.5,
                np.random.default_rng(0),
                teacher=(2 * _SETUP.teacher_weights, _SETUP.teacher_readout),
            ),
            "teacher",
        ),
        (lambda: sample_sphere(0, 3, np.random.default_rng(0)), "count"),
        (lambda: relu_features(np.ones((2, 3)), np.ones((2, 2))), "weights"),
        (lambda: relu_features(np.ones((0, 3)), np.ones((2, 3))), "inputs"),
        (
            lambda: monte_carlo_overlaps(_UNIT, _UNIT, 10, None),  # type: ignore[arg-type]
            "rng",
        ),
        # Regression: the numerics named these hidden_weights / target_hidden_weights.
        (
            lambda: monte_carlo_projection(
                np.ones((2, 4)), _UNIT, np.ones(2), 10, np.random.default_rng(0)
            ),
            "target_weights",
        ),
        (
            lambda: monte_carlo_projection(
                1e200 * _UNIT, _UNIT, np.ones(2), 10, np.random.default_rng(0)
            ),
            "model_weights",
        ),
        # Regression: one sample gave NaN standard errors (ddof=1).
        (
            lambda: monte_carlo_projection(
                _UNIT, _UNIT, np.ones(2), 1, np.random.default_rng(0)
            ),
            "samples",
        ),
        (
            lambda: linear_transfer_errors(
                _UNIT, _UNIT, np.ones(2), (), 2, np.random.default_rng(0)
            ),
            "sample_sizes",
        ),
        (
            lambda: linear_transfer_errors(
                _UNIT,
                _UNIT,
                np.ones(2),
                "12",
                2,
                np.random.default_rng(0),  # type: ignore[arg-type]
            ),
            "sample_sizes",
        ),
        (lambda: source_loss_and_gradients(2 * _UNIT, np.ones(2), _SETUP), "hidden"),
        (lambda: source_loss_and_gradients(_UNIT, np.ones(3), _SETUP), "readout"),
        (lambda: source_loss_and_gradients(_UNIT, np.ones(2), None), "setup"),  # type: ignore[arg-type]
        (
            lambda: train_student_on_source(
                _SETUP, 2, 3, np.random.default_rng(0), learning_rate=np.nan
            ),
            "learning_rate",
        ),
        (lambda: kernel_condensation(teacher_units=0), "teacher_units"),
        (lambda: kernel_condensation(seed=-1), "seed"),
        (lambda: kernel_condensation(learning_rate=0.0), "learning_rate"),
    ],
)
def test_bad_arguments_are_named(call: Callable[[], object], name: str) -> None:
    with pytest.raises(InvalidArgumentError, match=name):
        call()
