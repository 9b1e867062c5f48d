"""The NumPy MLP's tangent features, kernels and the Figure 1 experiment.

Tolerances:

* tangent features vs central differences: a bias-free ReLU MLP is piecewise
  *linear* in any single weight, so a central difference is exact unless a
  kink lies within the step h; what remains is rounding, about
  ``eps * |f| / h`` (1e-10 for h = 1e-6 at |f| ~ 1), and 1e-8 covers it;
* Euler's identity for the positively L-homogeneous network,
  :math:`\\nabla f(\\theta)\\cdot\\theta = L f(\\theta)`, holds to the
  rounding of the sums (64 ulps of the summed magnitudes);
* eq. (2): the midpoint rule is O(1/nodes) at activation switches (module
  docstring), so quadrupling the nodes must shrink the residual; we require
  at least a factor 2 over each quadrupling (order >= 1/2).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from implicit_bias.errors import ConvergenceError, InvalidArgumentError
from implicit_bias.validation.tangent_kernels import (
    LabelAlignmentTrial,
    _unflatten,
    average_tangent_features,
    flatten_weights,
    initialize_mlp,
    kernel_alignment,
    label_alignment_study,
    label_alignment_trial,
    label_kernel,
    mlp_outputs,
    mlp_tangent_features,
    tangent_kernel,
    train_mlp,
    two_class_inputs,
)

EPS = float(np.finfo(np.float64).eps)
STEP = 1e-6


def naive_outputs(weights: Sequence[np.ndarray], inputs: np.ndarray) -> np.ndarray:
    """Textbook forward pass, one example at a time."""
    outputs = []
    for x in inputs:
        activation = np.asarray(x, dtype=float)
        for layer in weights[:-1]:
            activation = np.maximum(layer.T @ activation, 0.0)
        outputs.append(float(weights[-1][:, 0] @ activation))
    return np.array(outputs)


@given(seed=st.integers(0, 2**32 - 1), depth=st.integers(1, 3))
def test_outputs_match_a_naive_loop(seed: int, depth: int) -> None:
    weights = initialize_mlp(4, [5] * depth, seed=seed)
    x = np.random.default_rng(seed).standard_normal((7, 4))
    assert np.allclose(mlp_outputs(weights, x), naive_outputs(weights, x), atol=1e-14)


@pytest.mark.parametrize("widths", [(3,), (4, 5), (3, 4, 2)])
def test_tangent_features_match_central_differences(widths: tuple[int, ...]) -> None:
    weights = initialize_mlp(3, widths, seed=len(widths))
    x = np.random.default_rng(7).standard_normal((5, 3))
    features = mlp_tangent_features(weights, x)
    theta = flatten_weights(weights)
    numeric = np.empty_like(features)
    for k in range(theta.size):
        shift = np.zeros_like(theta)
        shift[k] = STEP
        plus = mlp_outputs(_unflatten(theta + shift, weights), x)
        minus = mlp_outputs(_unflatten(theta - shift, weights), x)
        numeric[:, k] = (plus - minus) / (2 * STEP)
    assert features.shape == (5, theta.size)
    assert np.abs(numeric - features).max() <= 1e-8


@given(seed=st.integers(0, 2**32 - 1), depth=st.integers(1, 3))
def test_euler_identity_of_the_homogeneous_network(seed: int, depth: int) -> None:
    weights = initialize_mlp(4, [6] * depth, seed=seed)
    x = np.random.default_rng(seed).standard_normal((5, 4))
    features = mlp_tangent_features(weights, x)
    theta = flatten_weights(weights)
    scale = np.abs(features) @ np.abs(theta)
    residual = features @ theta - (depth + 1) * mlp_outputs(weights, x)
    assert np.all(np.abs(residual) <= 64 * EPS * scale + 1e-300)


def test_eq_2_path_average_converges() -> None:
    x, labels = two_class_inputs(30, 5, seed=1)
    initial = initialize_mlp(5, (16, 16), seed=2)
    run = train_mlp(initial, x, labels, learning_rate=0.5, max_steps=2000, tol=1e-3)
    change = mlp_outputs(run.final_weights, x) - mlp_outputs(initial, x)
    step = flatten_weights(run.final_weights) - flatten_weights(initial)
    residuals = [
        np.linalg.norm(
            average_tangent_features(initial, run.final_weights, x, nodes=n) @ step
            - change
        )
        for n in (8, 32, 128)
    ]
    assert residuals[1] <= residuals[0] / 2
    assert residuals[2] <= residuals[1] / 2


def test_training_fits_and_records_the_losses() -> None:
    x, labels = two_class_inputs(20, 8, seed=3)
    weights = initialize_mlp(8, (32,), seed=4)
    # A quarter of the linearized stability limit 2N / lambda_max(K0).
    ntk = tangent_kernel(mlp_tangent_features(weights, x))
    rate = 0.5 * 20 / np.linalg.eigvalsh(ntk)[-1]
    run = train_mlp(weights, x, labels, learning_rate=rate, tol=1e-4)
    assert run.converged
    assert run.losses[-1] <= 1e-4 * 0.5 * float(labels @ labels) / 20
    assert run.steps == run.losses.size - 1
    assert run.losses[-1] < run.losses[0]


def test_training_diverges_loudly() -> None:
    x, labels = two_class_inputs(10, 4, seed=3)
    with pytest.raises(ConvergenceError, match="lower the learning rate"):
        train_mlp(
            initialize_mlp(4, (8,), seed=4),
            x,
            1e3 * labels,
            learning_rate=1e6,
            max_steps=500,
        )


def test_kernels() -> None:
    features = np.random.default_rng(0).standard_normal((4, 9))
    kernel = tangent_kernel(features)
    assert np.allclose(kernel, kernel.T)
    assert np.linalg.eigvalsh(kernel).min() > -1e-12
    labels = label_kernel([0.0, 1.0, 2.0, 3.0], [1.0, 1.0, 0.0, 4.0])
    assert np.linalg.matrix_rank(labels) == 1
    assert kernel_alignment(kernel, 5.0 * kernel) == pytest.approx(1.0, abs=1e-15)
    assert kernel_alignment(kernel, labels) == pytest.approx(
        kernel_alignment(labels, kernel), abs=1e-15
    )
    assert abs(kernel_alignment(kernel, labels)) <= 1.0
    # <diag(1, 0), 1 1^T>_F = 1, norms 1 and 2: cosine exactly 1/2, at any scale.
    for scale in (1.0, 1e-160, 1e160):
        ones = scale * np.ones((2, 2))
        assert kernel_alignment(np.diag([scale, 0.0]), ones) == 0.5
    assert kernel_alignment(np.eye(2), np.array([[0.0, 1.0], [1.0, 0.0]])) == 0.0


def test_two_class_inputs_are_normalized_and_balanced() -> None:
    x, labels = two_class_inputs(11, 5, seed=9)
    assert np.allclose(x.mean(axis=1), 0.0)
    assert np.allclose(x.std(axis=1), 1.0)
    assert set(np.unique(labels)) == {-1.0, 1.0}
    assert abs(labels.sum()) <= 1


def test_trial_is_reproducible_and_the_study_summarizes_it() -> None:
    def trial(seed: int) -> LabelAlignmentTrial:
        return label_alignment_trial(
            seed, samples=16, dimension=4, widths=(8,), max_steps=300
        )

    first = trial(5)
    assert trial(5).sign_alignment == first.sign_alignment
    study = label_alignment_study(
        [5, 6, 7], samples=16, dimension=4, widths=(8,), max_steps=300
    )
    differences = study.differences
    assert differences[0] == first.sign_alignment - first.linear_alignment
    assert study.mean_difference == pytest.approx(differences.mean())
    assert study.standard_error == pytest.approx(differences.std(ddof=1) / np.sqrt(3))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: initialize_mlp(0, [3]), "input_dimension"),
        (
            lambda: mlp_outputs([np.ones((2, 3)), np.ones((2, 1))], [[1.0, 2.0]]),
            "rows must match",
        ),
        (lambda: mlp_outputs([np.ones((2, 2))], [[1.0, 2.0]]), "one output"),
        (lambda: mlp_outputs([np.ones((2, 1))], [[1.0, 2.0, 3.0]]), "columns"),
        (lambda: mlp_outputs([], [[1.0]]), "empty"),
        (
            lambda: train_mlp(
                [np.ones((2, 1))], [[1.0, 2.0]], [1.0, 2.0], learning_rate=0.1
            ),
            "one per input",
        ),
        (
            lambda: train_mlp(
                [np.ones((2, 1))], [[1.0, 2.0]], [1.0], learning_rate=-1.0
            ),
            "learning_rate",
        ),
        (
            lambda: train_mlp(
                [np.ones((2, 1))], [[1.0, 2.0]], [1.0], learning_rate=0.1, tol=-1.0
            ),
            "tol",
        ),
        (
            lambda: average_tangent_features(
                [np.ones((2, 1))], [np.ones((3, 1))], [[1.0, 2.0]]
            ),
            "different shapes",
        ),
        (
            lambda: average_tangent_features(
                [np.ones((2, 1))], [np.ones((2, 1))], [[1.0, 2.0]], nodes=0
            ),
            "nodes",
        ),
        (lambda: kernel_alignment(np.zeros((2, 2)), np.eye(2)), "zero"),
        (lambda: kernel_alignment(np.eye(3), np.eye(2)), "differ"),
        (lambda: label_kernel([1.0], [1.0, 2.0]), "differ"),
        (lambda: two_class_inputs(1, 3), "both must be >= 2"),
        (lambda: two_class_inputs(4, 3, separation=0.0), "separation"),
        (lambda: label_alignment_trial(0, step_fraction=1.0), "step_fraction"),
        (lambda: label_alignment_study([0]), "fewer than 2"),
    ],
)
def test_invalid_arguments(call: Callable[[], object], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        call()
