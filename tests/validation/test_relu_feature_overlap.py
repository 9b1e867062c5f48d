"""Fig. 4b experiment: STL and PT+FT by the features main and auxiliary share."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.validation import relu_feature_overlap
from implicit_bias.validation.relu_feature_overlap import (
    FeatureOverlapSetup,
    feature_overlap,
)
from implicit_bias.validation.relu_sample_efficiency import (
    SampleEfficiencySetup,
    relu_network_outputs,
    sample_efficiency,
    teacher_outputs,
)

TINY = FeatureOverlapSetup(
    overlaps=(0, 2, 3),
    sample_sizes=(8, 32),
    seeds=4,
    dimension=4,
    teacher_units=3,
    width=6,
    aux_samples=128,
    learning_rate=0.1,
    steps=600,
    test_samples=300,
)


def test_shapes_and_the_pretraining_converges() -> None:
    result = feature_overlap(TINY)
    for array in (result.stl_error, result.ptft_error, result.stl_loss):
        assert array.shape == (3, 2, 4)
    assert result.pretraining_loss.shape == (4,)
    assert np.all(result.stl_error >= 0)
    assert np.all(result.ptft_error >= 0)
    assert feature_overlap(TINY) is result


def test_the_main_teachers_share_the_first_o_auxiliary_units() -> None:
    result = feature_overlap(TINY)
    aux = result.auxiliary_units
    np.testing.assert_allclose(np.linalg.norm(result.main_units, axis=-1), 1.0)
    for units, o in zip(result.main_units, TINY.overlaps, strict=True):
        np.testing.assert_array_equal(units[:, :o], aux[:, :o])
        # The others are fresh: no auxiliary unit among them.
        cosines = np.einsum("skd,sjd->skj", units[:, o:], aux)
        assert np.all(cosines < 1 - 1e-6)
    # The fresh units are one draw per seed, shared by every overlap.
    np.testing.assert_array_equal(
        result.main_units[0, :, 2:], result.main_units[1, :, 2:]
    )


def test_the_arms_are_paired_and_finetune_their_own_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[np.ndarray, ...]] = []
    real = relu_feature_overlap.train_relu_networks

    def recording(x, y, w1, w2, **kwargs):  # type: ignore[no-untyped-def]
        trained = real(x, y, w1, w2, **kwargs)
        calls.append((np.array(x), np.array(y), np.array(w1), np.array(w2), trained))
        return trained

    monkeypatch.setattr(relu_feature_overlap, "train_relu_networks", recording)
    setup = replace(TINY, seed=7)
    result = feature_overlap(setup)
    pretraining, *finetunings = calls
    assert len(finetunings) == len(setup.sample_sizes)
    count = len(setup.overlaps) * setup.seeds
    pretrained = pretraining[4].hidden_weights
    for (x, y, w1, w2, _), n in zip(finetunings, setup.sample_sizes, strict=True):
        # (STL, PT+FT) x (overlap, seed): both arms see the same data.
        assert x.shape == (2 * count, n, setup.dimension)
        np.testing.assert_array_equal(x[:count], x[count:])
        np.testing.assert_array_equal(y[:count], y[count:])
        # PT+FT starts from its own seed's pretrained hidden weights, readouts 0.
        starts = w1[count:].reshape(len(setup.overlaps), setup.seeds, *w1.shape[1:])
        for start in starts:
            np.testing.assert_array_equal(start, pretrained)
        np.testing.assert_array_equal(w2[count:], 0.0)
        # The nested samples: the first n of one draw.
        np.testing.assert_array_equal(x[:, :8], finetunings[0][0][:, :8])
    # The targets are the main teacher of each (overlap, seed), and so is the
    # truth the stored errors are measured against.
    units = result.main_units.reshape(count, *result.main_units.shape[2:])
    for x, y, *_ in finetunings:
        np.testing.assert_allclose(
            y[:count], teacher_outputs(x[:count], units, np.ones(count)), rtol=1e-13
        )
    last = finetunings[-1][4]
    tests = np.concatenate([result.test_inputs] * len(setup.overlaps))
    truth = teacher_outputs(tests, units, np.ones(count))
    for arm, stored in enumerate((result.stl_error, result.ptft_error)):
        part = slice(arm * count, (arm + 1) * count)
        outputs = relu_network_outputs(
            tests, last.hidden_weights[part], last.readout[part]
        )
        errors = np.sum((outputs - truth) ** 2, -1) / np.sum(truth**2, -1)
        np.testing.assert_allclose(
            stored[:, -1],
            errors.reshape(len(setup.overlaps), setup.seeds),
            rtol=1e-12,
        )
    np.testing.assert_array_equal(
        result.stl_loss[:, -1],
        last.relative_loss[:count].reshape(len(setup.overlaps), setup.seeds),
    )


def test_full_overlap_is_the_sample_efficiency_experiment_at_rho_1() -> None:
    # With every feature shared, the main teacher is the auxiliary one: the
    # Fig. 1c experiment at rho = 1, m = 1 (its PT+FT readouts reset to 0, as
    # here), run by independent code. Same configuration, different draws: the
    # mean errors agree to the spread of the seeds, and both arms rank alike.
    setup = replace(TINY, overlaps=(3,), sample_sizes=(32,), seeds=6)
    ours = feature_overlap(setup)
    theirs = sample_efficiency(
        SampleEfficiencySetup(
            correlations=(1.0,),
            magnitudes=(1.0,),
            sample_sizes=(32,),
            seeds=6,
            dimension=4,
            teacher_units=3,
            width=6,
            aux_samples=128,
            learning_rate=0.1,
            steps=600,
            test_samples=300,
        )
    )
    for mine, other in (
        (ours.stl_error[0, 0], theirs.stl_error[0, 0, 0]),
        (ours.ptft_error[0, 0], theirs.ptft_error[0, 0, 0]),
    ):
        spread = np.hypot(mine.std(ddof=1), other.std(ddof=1)) / np.sqrt(6)
        assert abs(mine.mean() - other.mean()) < 5 * spread
    assert np.mean(ours.ptft_error) < np.mean(ours.stl_error)
    assert np.mean(theirs.ptft_error) < np.mean(theirs.stl_error)


@pytest.mark.parametrize(
    ("changes", "name"),
    [
        ({"overlaps": (0, 4)}, r"overlaps\[1\]"),
        ({"overlaps": (2, 1)}, "increasing"),
        ({"overlaps": ()}, "overlaps"),
        ({"sample_sizes": (0,)}, r"sample_sizes\[0\]"),
        ({"seeds": 1}, "seeds"),
        ({"teacher_units": 0}, "teacher_units"),
        ({"learning_rate": -1.0}, "learning_rate"),
        ({"init_scale": 0.0}, "init_scale"),
        ({"seed": -1}, "seed"),
    ],
)
def test_invalid_setups_are_refused(changes: dict[str, object], name: str) -> None:
    with pytest.raises(InvalidArgumentError, match=name):
        replace(TINY, **changes)  # type: ignore[arg-type]


def test_feature_overlap_refuses_another_setup() -> None:
    with pytest.raises(InvalidArgumentError, match="FeatureOverlapSetup"):
        feature_overlap(TINY.__dict__)  # type: ignore[arg-type]
