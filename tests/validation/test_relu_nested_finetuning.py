"""Fig. 8b-c experiment: pretrain, rescale, finetune on a nested task, measure."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics import ensd, participation_ratio
from implicit_bias.validation.relu_feature_clusters import (
    FeatureClusterSetup,
    trained_students,
)
from implicit_bias.validation import relu_nested_finetuning
from implicit_bias.validation.relu_sample_efficiency import teacher_outputs
from implicit_bias.validation.relu_nested_finetuning import (
    NestedFinetuningSetup,
    nested_finetuning,
)

PRETRAINING = FeatureClusterSetup(
    sample_sizes=(16, 128),
    seeds=3,
    dimension=4,
    teacher_units=3,
    width=8,
    steps=1500,
    max_clusters=3,
    restarts=1,
    test_samples=200,
)
TINY = NestedFinetuningSetup(
    pretraining=PRETRAINING, main_units=1, main_samples=64, steps=1500
)


def _responses(inputs: np.ndarray, hidden: np.ndarray) -> np.ndarray:
    return np.maximum(np.einsum("smd,shd->smh", inputs, hidden), 0.0)


def test_the_measures_are_those_of_the_stored_networks() -> None:
    result = nested_finetuning(TINY)
    students = trained_students(PRETRAINING, "rich", 128)
    before = _responses(students.test_inputs, students.networks.hidden_weights)
    np.testing.assert_allclose(
        result.pretrained_pr, [participation_ratio(r) for r in before], rtol=1e-13
    )
    np.testing.assert_array_equal(
        result.pretraining_loss, students.networks.relative_loss
    )
    assert result.finetuned_pr.shape == result.shared_dimensions.shape == (3, 3)
    for i in range(3):
        after = _responses(students.test_inputs, result.finetuned_hidden_weights[i])
        np.testing.assert_allclose(
            result.finetuned_pr[i], [participation_ratio(r) for r in after], rtol=1e-13
        )
        np.testing.assert_allclose(
            result.shared_dimensions[i],
            [ensd(b, a) for b, a in zip(before, after, strict=True)],
            rtol=1e-13,
        )
    assert nested_finetuning(TINY) is result


def test_the_main_task_is_a_subset_and_the_step_shrinks_as_s_squared() -> None:
    result = nested_finetuning(TINY)
    teacher = trained_students(PRETRAINING, "rich", 128).teacher_units
    np.testing.assert_array_equal(result.main_teacher_units, teacher[:, :1])
    np.testing.assert_allclose(result.learning_rates, [0.2, 0.2, 0.2 / 100], rtol=1e-15)
    # Cached and shared: read-only.
    with pytest.raises(ValueError, match="read-only"):
        result.finetuned_pr[0, 0] = 1.0


def test_each_finetuning_starts_from_the_rescaled_network(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]] = []
    real = relu_nested_finetuning.train_relu_networks

    def recording(x, y, w1, w2, *, learning_rate, steps):  # type: ignore[no-untyped-def]
        calls.append(
            (np.array(x), np.array(y), np.array(w1), np.array(w2), learning_rate)
        )
        return real(x, y, w1, w2, learning_rate=learning_rate, steps=steps)

    monkeypatch.setattr(relu_nested_finetuning, "train_relu_networks", recording)
    setup = replace(TINY, seed=3)
    nested_finetuning(setup)
    students = trained_students(PRETRAINING, "rich", 128)
    pretrained = students.networks.hidden_weights
    assert len(calls) == len(setup.rescalings)
    for (x, y, w1, w2, rate), s in zip(calls, setup.rescalings, strict=True):
        # Hidden weights rescaled, readouts re-drawn small (the same draw at
        # every s), the main teacher one auxiliary unit with readout 1.
        np.testing.assert_allclose(w1, s * pretrained, rtol=1e-15)
        np.testing.assert_array_equal(w2, calls[0][3])
        assert np.max(np.abs(w2)) < 10 * PRETRAINING.rich_scale
        np.testing.assert_allclose(
            y,
            teacher_outputs(x, students.teacher_units[:, :1], np.ones(3)),
            rtol=1e-13,
        )
        assert rate == pytest.approx(setup.learning_rate / max(1.0, s * s), rel=1e-15)


def test_without_training_the_measures_ignore_the_rescaling() -> None:
    # One negligible step: the finetuned hidden layer is the pretrained one
    # times s, and PR and ENSD are invariant to scaling, so at every s
    # PR(FT) = PR(PT) and ENSD(PT, FT) = ENSD(PT, PT) = PR(PT).
    setup = replace(TINY, steps=1, learning_rate=1e-12)
    result = nested_finetuning(setup)
    for row in (*result.finetuned_pr, *result.shared_dimensions):
        np.testing.assert_allclose(row, result.pretrained_pr, rtol=1e-9)


def test_finetuning_a_subset_lowers_the_dimension_unless_lazy() -> None:
    result = nested_finetuning(TINY)
    assert result.relative_loss.max() < 1e-3
    decrease = result.pretrained_pr - result.finetuned_pr
    # s = 0.1: the unused units stay small while the used one grows; s = 10:
    # the readouts fit the task and the hidden layer barely moves.
    assert np.all(decrease[0] > 0)
    assert np.all(np.abs(decrease[2]) < 0.1 * decrease[0])
    # ENSD = CKA sqrt(PR(PT) PR(FT)) with CKA <= 1.
    bound = np.sqrt(result.pretrained_pr * result.finetuned_pr)
    assert np.all(result.shared_dimensions <= bound * (1 + 1e-12))


def test_finetuning_on_every_feature_keeps_more_dimensions() -> None:
    # The control of "nested": a main task using all the auxiliary features
    # keeps more of the pretrained dimensions at s = 0.1 than one feature does.
    nested = nested_finetuning(TINY)
    full = nested_finetuning(replace(TINY, main_units=PRETRAINING.teacher_units))
    assert np.mean(full.finetuned_pr[0]) > np.mean(nested.finetuned_pr[0])


@pytest.mark.parametrize(
    ("changes", "name"),
    [
        ({"main_units": 0}, "main_units"),
        ({"main_units": 4}, "main_units"),
        ({"main_samples": 0}, "main_samples"),
        ({"steps": 0}, "steps"),
        ({"seed": -1}, "seed"),
        ({"learning_rate": 0.0}, "learning_rate"),
        ({"rescalings": ()}, "rescalings"),
        ({"rescalings": (1.0, 0.1)}, "increasing"),
        ({"rescalings": (0.0, 1.0)}, r"rescalings\[0\]"),
        ({"pretraining": object()}, "FeatureClusterSetup"),
    ],
)
def test_invalid_setups_are_refused(changes: dict[str, object], name: str) -> None:
    with pytest.raises(InvalidArgumentError, match=name):
        replace(TINY, **changes)  # type: ignore[arg-type]


def test_nested_finetuning_refuses_another_setup() -> None:
    with pytest.raises(InvalidArgumentError, match="NestedFinetuningSetup"):
        nested_finetuning(PRETRAINING)  # type: ignore[arg-type]
