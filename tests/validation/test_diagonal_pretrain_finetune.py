r"""Pretraining and finetuning (PT+FT) of diagonal linear networks.

:mod:`implicit_bias.validation.diagonal_pretrain_finetune` chains two runs of
the single-task trainer (tested in ``test_diagonal_networks.py``); here: the
weights finetuning starts from, argument checking, and the overlap measurement
of Appendix E.1. Where finetuning ends (Appendix A's minimum-Q interpolant
with the pretrained k) is checked in ``test_diagonal_experiments.py``.
"""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import implicit_bias.validation as validation
import implicit_bias.validation.diagonal_pretrain_finetune as diagonal_pretrain_finetune
from implicit_bias.errors import (
    ConvergenceError,
    InvalidArgumentError,
    OutOfRangeError,
)
from implicit_bias.validation import (
    finetuning_initialization,
    pretrain_finetune_diagonal_networks,
    support_overlap,
    train_diagonal_networks,
    train_multitask_diagonal_networks,
)

# ------------------------------------------------------- the finetuning start


def test_finetuning_starts_from_the_rescaled_pretrained_first_layer() -> None:
    # Pretrain on a sparse auxiliary task, rescale by lambda, re-initialize the
    # readout to gamma: both branches start at lambda |w1_aux| (so that
    # k = (lambda |w1_aux|)^2 + gamma^2; the endpoint itself is checked in
    # test_diagonal_experiments.py).
    rng = np.random.default_rng(11)
    samples, dimension = 5, 10
    X_aux = rng.standard_normal((8, dimension))
    aux = np.zeros(dimension)
    aux[:4] = rng.standard_normal(4)
    X, y = rng.standard_normal((samples, dimension)), rng.standard_normal(samples)
    rates = np.tile(0.04 / 2.0 ** np.arange(3), 2)
    rescale = np.repeat([1.0, 0.5], 3)
    result = pretrain_finetune_diagonal_networks(
        X_aux,
        X_aux @ aux,
        X,
        y,
        init_scale=0.3,
        gamma=0.1,
        learning_rate=rates,
        rescale=rescale,
    )
    magnitude = np.hypot(
        result.pretrained.first_layer_plus, result.pretrained.first_layer_minus
    )
    np.testing.assert_allclose(result.finetune_w1_init, rescale[:, None] * magnitude)
    assert np.all(result.finetune_w2_init == 0.1)


def test_ptft_rejects_bad_arguments() -> None:
    with pytest.raises(InvalidArgumentError, match=r"^init_scale\b"):
        pretrain_finetune_diagonal_networks(
            np.eye(2), [1.0, 0.0], np.eye(2), [1.0, 1.0],
            init_scale=0.0, gamma=0.1, learning_rate=0.1,
        )  # fmt: skip
    pretrained = train_diagonal_networks(
        np.eye(2), [1.0, 0.0], 0.1, 0.1, learning_rate=0.1
    )
    with pytest.raises(InvalidArgumentError, match=r"^rescale\b"):
        finetuning_initialization(pretrained, rescale=-1.0, gamma=0.1)
    multi = train_multitask_diagonal_networks(
        np.eye(2), np.eye(2), 0.1, 0.1, learning_rate=0.1
    )
    with pytest.raises(InvalidArgumentError, match=r"^pretrained\b"):
        finetuning_initialization(multi, rescale=1.0, gamma=0.1)


# --------------------------------------------------------------------- overlap


finite = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False)


@given(
    st.lists(finite, min_size=2, max_size=8).filter(lambda v: any(x != 0 for x in v)),
    st.data(),
)
def test_overlap_of_a_set_and_its_complement_sum_to_one(
    values: list[float], data: st.DataObject
) -> None:
    beta = np.array(values)
    mask = np.array(
        data.draw(st.lists(st.booleans(), min_size=beta.size, max_size=beta.size))
    )
    inside, outside = support_overlap(beta, mask), support_overlap(beta, ~mask)
    assert 0.0 <= inside <= 1.0
    assert inside + outside == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize(
    ("coefficients", "support", "name"),
    [
        ([0.0, 0.0], [True, False], "coefficients"),
        ([1.0, 0.0], [1, 0], "support"),
        ([1.0, 0.0], [True], "support"),
    ],
)
def test_overlap_rejects_bad_arguments(
    coefficients: object, support: object, name: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=rf"^{name}\b"):
        support_overlap(coefficients, support)  # type: ignore[arg-type]


# ------------------------------------------------------------ documentation


OWN_NAMES = [
    name for name in validation.__all__ if name in diagonal_pretrain_finetune.__all__
]


def test_exports_are_complete() -> None:
    assert set(diagonal_pretrain_finetune.__all__) <= set(validation.__all__)


@pytest.mark.parametrize("name", OWN_NAMES)
def test_public_names_are_documented(name: str) -> None:
    obj = getattr(validation, name)
    if inspect.isfunction(obj):
        doc = inspect.getdoc(obj) or ""
        for section in (".. math::", "Args:", "Returns:", "Examples:", "References:"):
            assert section in doc, f"{name} lacks {section}"
        assert "of ptft-diagonal-networks" in doc
    else:
        assert inspect.isclass(obj)
        assert inspect.getdoc(obj)


@pytest.mark.parametrize(
    ("override", "phase"),
    [
        ({"init_scale": 5e-324}, "pretraining from init_scale=5e-324"),
        ({"init_scale": 1e300}, "pretraining from init_scale=1e+300"),
        ({"gamma": 1.7976931348623157e308}, "finetuning from rescale=0.5, gamma="),
    ],
)
def test_a_failing_phase_names_the_arguments_it_started_from(
    override: dict[str, float], phase: str
) -> None:
    # The trainer's message named its own w1_init and w2_init, which the
    # caller of PT+FT never passed.
    arguments: dict[str, float] = {
        "init_scale": 1e-3,
        "gamma": 1e-3,
        "learning_rate": 0.05,
        "rescale": 0.5,
    }
    with pytest.raises((ConvergenceError, OutOfRangeError), match=re.escape(phase)):
        pretrain_finetune_diagonal_networks(
            np.eye(2), [4.0, 0.0], np.eye(2), [1.0, 1.0], **(arguments | override)
        )
