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

import dataclasses
import math
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from implicit_bias.errors import (
    ConvergenceError,
    InvalidArgumentError,
    OutOfRangeError,
)
from implicit_bias.validation.tangent_kernels import label_alignment
from implicit_bias.validation.tangent_kernels import (
    LabelAlignmentStudy,
    LabelAlignmentTrial,
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
from implicit_bias.validation.tangent_kernels.mlp import _unflatten

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


_TRIAL_FIELDS = len(dataclasses.fields(LabelAlignmentTrial))


def _study() -> LabelAlignmentStudy:
    return LabelAlignmentStudy(
        tuple(
            LabelAlignmentTrial(*(seed + 0.1 * k for k in range(_TRIAL_FIELDS)))
            for seed in (0, 1)
        )
    )


def test_study_values_are_a_field_of_every_trial() -> None:
    values = _study().values("sign_alignment")
    assert values.dtype == np.float64
    np.testing.assert_array_equal(values, [0.1, 1.1])


@pytest.mark.parametrize(
    "name", ["no_such_field", "", "sign_alignment ", "__class__", None, 1, ["sign"]]
)
def test_study_values_name_a_field(name: object) -> None:
    # getattr(trial, name) raised a raw AttributeError (TypeError for a name
    # that is no string), and "__class__" gave an object array of classes.
    with pytest.raises(InvalidArgumentError, match=r"^name=.*linear_alignment"):
        _study().values(name)  # type: ignore[arg-type]


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
        (lambda: kernel_alignment(np.eye(2), np.zeros((2, 2))), "second is a zero"),
        (lambda: label_kernel([1.0], [1.0, 2.0]), "differ"),
        (lambda: two_class_inputs(1, 3), "samples=1 is below 2"),
        (lambda: two_class_inputs(4, 3, separation=0.0), "separation"),
        (lambda: label_alignment_trial(0, step_fraction=1.0), "step_fraction"),
        (lambda: label_alignment_study([0]), "fewer than 2"),
    ],
)
def test_invalid_arguments(call: Callable[[], object], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        call()


# ------------------------------------------------ regressions (argument contract)

_NET = ([[1.0, -1.0], [0.5, 2.0]], [[1.0], [1.0]])


@pytest.mark.parametrize(
    ("call", "name"),
    [
        # Seeds: None drew OS entropy, -1 and 1.5 raised NumPy's own errors.
        (lambda: initialize_mlp(2, [3], seed=None), "seed"),
        (lambda: initialize_mlp(2, [3], seed=-1), "seed"),
        (lambda: initialize_mlp(2, [3], seed=1.5), "seed"),
        (lambda: two_class_inputs(4, 3, seed=-1), "seed"),
        (lambda: label_alignment_trial(-1), "seed"),
        (lambda: label_alignment_trial(None), "seed"),
        (lambda: label_alignment_study([0, -1]), "seeds"),
        (lambda: label_alignment_study(None), "seeds"),
        # Not a sequence: a raw TypeError from iterating it.
        (lambda: initialize_mlp(2, 3), "widths"),
        (lambda: initialize_mlp(2, None), "widths"),
        (lambda: mlp_outputs(None, [[1.0, 2.0]]), "weights"),
        (lambda: flatten_weights(1.0), "weights"),
        # Layers are named after the caller's argument, not "weights".
        (
            lambda: average_tangent_features(
                [np.full((2, 1), np.nan)], [np.ones((2, 1))], [[1.0, 2.0]]
            ),
            "initial_weights",
        ),
        (
            lambda: average_tangent_features(
                [np.ones((2, 1))], [np.ones((2, 1)) + 1j], [[1.0, 2.0]]
            ),
            "final_weights",
        ),
        # Empty layers and inputs were accepted.
        (lambda: mlp_outputs([np.ones((2, 0)), np.ones((0, 1))], [[1.0, 2.0]]), "0"),
        (lambda: mlp_outputs(_NET, np.empty((0, 2))), "inputs"),
        (
            lambda: train_mlp(_NET, np.empty((0, 2)), [], learning_rate=0.1),
            "inputs",
        ),
        (lambda: tangent_kernel(np.empty((0, 3))), "features"),
        (lambda: kernel_alignment(np.empty((0, 0)), np.empty((0, 0))), "first"),
        # Strings were converted by float(); complex raised a raw TypeError.
        (lambda: train_mlp(_NET, [[1.0, 2.0]], [1.0], learning_rate="0.1"), "rate"),
        (
            lambda: train_mlp(_NET, [[1.0, 2.0]], [1.0], learning_rate=0.1, tol="0"),
            "tol",
        ),
        (lambda: two_class_inputs(4, 3, separation="1.5"), "separation"),
        (lambda: two_class_inputs(4, 3, separation=1j), "separation"),
        (lambda: label_alignment_trial(0, step_fraction=0.5j), "step_fraction"),
        (lambda: label_alignment_trial(0, tol="0.1"), "tol"),
        # No hidden layer: K = K0 and the readout share was 0/0 = NaN.
        (lambda: label_alignment_trial(0, samples=4, dimension=3, widths=()), "widths"),
        # Training stopped before the first step: the error named no argument.
        (
            lambda: label_alignment_trial(
                0, samples=6, dimension=3, widths=(8,), max_steps=5, tol=1e300
            ),
            "tol",
        ),
    ],
)
def test_arguments_are_refused_under_their_names(
    call: Callable[[], object], name: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=name):
        call()


def test_results_beyond_float64_raise_instead_of_returning_inf() -> None:
    # Hidden pre-activations of 2e400 and outputs of 4e600 were inf (or NaN)
    # with RuntimeWarnings; so were K = J J^T and the label kernel.
    big = [1e200 * np.ones((2, 2)), 1e200 * np.ones((2, 1))]
    x = [[1e200, 1e200]]
    for call in (
        lambda: mlp_outputs(big, x),
        lambda: mlp_tangent_features(big, x),
        lambda: average_tangent_features(big, big, x, nodes=2),
        lambda: tangent_kernel([[1e200, 1.0]]),
        lambda: label_kernel([-1e308], [1e308]),
        lambda: train_mlp(big, x, [1.0], learning_rate=0.1),
    ):
        with np.errstate(all="raise"), pytest.raises(OutOfRangeError):
            call()


def test_a_weight_past_float64_is_a_divergence_even_with_a_finite_loss() -> None:
    # The unit's weights go to -inf: it is off on the (positive) input, so the
    # loss stays finite, but the returned weights were not.
    weights = [np.array([[1.0, 1.0]]), np.array([[1.0], [1.0]])]
    with pytest.raises(ConvergenceError, match="overflowed"):
        train_mlp(weights, [[1.0]], [-1e10], learning_rate=1e300, max_steps=3)


@pytest.mark.parametrize("separation", [1e160, 1e300])
def test_two_class_inputs_are_normalized_at_any_separation(separation: float) -> None:
    # The variance of a row squared entries ~ separation: it overflowed, and
    # the inputs came back as zeros.
    x, _ = two_class_inputs(6, 4, separation=separation, seed=2)
    assert np.allclose(x.mean(axis=1), 0.0)
    assert np.allclose(x.std(axis=1), 1.0)


def test_two_class_inputs_rescaling_is_exact() -> None:
    # Dividing a row by a power of two does not change the normalized inputs.
    x, labels = two_class_inputs(7, 5, seed=3)
    rng = np.random.default_rng(3)
    direction = rng.standard_normal(5)
    direction /= np.linalg.norm(direction)
    raw = 0.75 * labels[:, None] * direction + rng.standard_normal((7, 5))
    expected = (raw - raw.mean(axis=1, keepdims=True)) / raw.std(axis=1, keepdims=True)
    assert np.array_equal(x, expected)


def test_trial_with_units_off_on_every_input_is_refused() -> None:
    # D = 2: every normalized input is +-(1, -1), so a narrow network is often
    # off on all of them, or the inputs coincide; K0 = 0 gave a
    # ZeroDivisionError (the learning rate 2N / lambda_max), zero linear
    # targets a division by zero in the relative loss.
    messages = []
    for seed in range(40):
        try:
            label_alignment_trial(
                seed, samples=2, dimension=2, widths=(1,), max_steps=3, nodes=2
            )
        except InvalidArgumentError as error:
            messages.append(str(error))
        except ConvergenceError:
            pass
    assert messages
    assert all("seed" in message for message in messages)
    assert all("widths" in message for message in messages)


def test_trial_with_a_rank_deficient_initial_kernel_is_finite() -> None:
    # N = 10 > P = 3 + 1: K0 is singular, np.linalg.solve raised LinAlgError.
    trial = label_alignment_trial(
        1,
        samples=10,
        dimension=3,
        widths=(1,),
        max_steps=20,
        nodes=2,
        step_fraction=0.3,
    )
    assert np.isfinite([trial.linear_norm, trial.sign_norm]).all()


def test_trial_kernels_of_large_trained_weights_stay_finite() -> None:
    # Near the stability limit the weights grow until the path-averaged
    # kernel's entries pass 1e154: its Frobenius norm overflowed (a warning,
    # then a NaN readout share) before the features were rescaled.
    trial = label_alignment_trial(
        54,
        samples=8,
        dimension=3,
        widths=(10, 16),
        nodes=6,
        step_fraction=0.668398749463585,
        max_steps=14,
        tol=0.0,
    )
    assert 0.0 <= trial.linear_readout_share <= 1.0
    assert 0.0 <= trial.sign_readout_share <= 1.0


def test_difficulty_correlations_are_rank_correlations() -> None:
    # Textbook Spearman: Pearson's correlation of the ranks, ties averaged, by loops.
    def ranks(values: list[float]) -> list[float]:
        return [
            sum(other < value for other in values)
            + (sum(other == value for other in values) - 1) / 2
            for value in values
        ]

    def pearson(a: list[float], b: list[float]) -> float:
        mean_a, mean_b = sum(a) / len(a), sum(b) / len(b)
        covariance = sum((x - mean_a) * (y - mean_b) for x, y in zip(a, b, strict=True))
        return covariance / math.sqrt(
            sum((x - mean_a) ** 2 for x in a) * sum((y - mean_b) ** 2 for y in b)
        )

    first = [3.0, 1.0, 3.0, 2.0, 7.0, -1.0]
    second = [0.5, 0.1, 0.2, 0.9, 0.9, -4.0]
    expected = pearson(ranks(first), ranks(second))
    assert math.isclose(
        label_alignment._rank_correlation(np.array(first), np.array(second)),
        expected,
        rel_tol=1e-14,
    )
    assert math.isnan(label_alignment._rank_correlation(np.array(first), np.ones(6)))
    trial = label_alignment_trial(
        0, samples=12, dimension=3, widths=(8,), max_steps=200
    )
    correlations = (
        trial.linear_difficulty_correlation,
        trial.sign_difficulty_correlation,
    )
    assert all(-1.0 <= value <= 1.0 for value in correlations)
