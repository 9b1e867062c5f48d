r"""Fig. 8b-c of ptft-diagonal-networks: dimensionality before and after finetuning.

Appendix G of the paper compares the hidden representation of a ReLU network
after pretraining (PT) with the one after finetuning (FT) on "the nested
sparsity task" -- a main task that "uses a subset of the features of the
auxiliary task" -- with the pretrained weights rescaled by a factor before
finetuning: the participation ratio of each
(:func:`~implicit_bias.numerics.participation_ratio`) and the effective
number of shared dimensions between them (:func:`~implicit_bias.numerics.ensd`).
This module runs that experiment at a laptop's size.

Pretraining. The rich networks of
:func:`~implicit_bias.validation.relu_feature_clusters.feature_clusters` at
the largest n of the ``pretraining`` setup (by default: a teacher of six
unit-norm units :math:`v_j` with readouts 1 in d = 10, 1024 Gaussian samples,
width 32, initialization :math:`10^{-2}`, 20000 steps of 0.2, as for Fig. 6
and 8a, but 24 seeds), through
:func:`~implicit_bias.validation.relu_feature_clusters.trained_students`.

Finetuning. The main task's teacher is the first ``main_units`` of the
auxiliary teacher's units (by default one: "the ground-truth main task
consists of a single auxiliary task features", Appendix E.2.3), with the same
readouts 1 (ptft-relu-penalty,
Section 1.2: "the finetuning task uses a feature with the same weight as the
pretraining task does, which is the case in our teacher-student setup"):
:math:`f(x) = \sum_{j \le k'} (\langle v_j, x\rangle)_+`. The hidden weights
are multiplied by the rescaling :math:`s`, the readouts re-initialized small
(eq. (2) of ptft-relu-penalty: "readout weights are initialized by a small
value"; here :math:`\mathcal N(0, \sigma^2)` with the pretraining's
:math:`\sigma`), and every weight trains by full-batch gradient descent on
``main_samples`` fresh samples. The step is
:math:`\eta / \max(1, s^2)`: the readout's curvature is the second moment
of the hidden activations, :math:`s^2` times the pretrained one, so a step
that is stable at :math:`s = 1` stays stable at :math:`s > 1`.

Measures. On each seed's fresh test inputs :math:`X` (the pretraining setup's),
:math:`R_{PT} = (X W_{PT}^{(1)\top})_+` and
:math:`R_{FT} = (X W_{FT}^{(1)\top})_+`; their participation ratios and
:math:`ENSD(R_{PT}, R_{FT})`. Both are invariant to scaling either
representation, so the rescaling itself changes neither.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.arguments import check_integer, check_real, check_seed
from implicit_bias.numerics.representations import ensd, participation_ratio
from implicit_bias.validation.relu_feature_clusters import (
    FeatureClusterSetup,
    trained_students,
)
from implicit_bias.validation.relu_sample_efficiency import (
    teacher_outputs,
    train_relu_networks,
)

__all__ = ["NestedFinetuning", "NestedFinetuningSetup", "nested_finetuning"]

Float64Array = NDArray[np.float64]


@dataclass(frozen=True)
class NestedFinetuningSetup:
    r"""The configuration of the finetuning experiment (module docstring).

    Attributes:
      pretraining: the experiment whose rich networks at its largest n are
        the pretrained ones (:class:`FeatureClusterSetup`).
      main_units: :math:`k'`, how many of the auxiliary teacher's units the
        main task uses, 1 <= k' <= k.
      main_samples: the main task's training samples, >= 1.
      rescalings: the factors :math:`s > 0` applied to the pretrained hidden
        weights, strictly increasing.
      learning_rate: :math:`\eta > 0`, the step at :math:`s \le 1`.
      steps: gradient steps of every finetuning, >= 1.
      seed: the seed of the main task's inputs and readouts, >= 0.

    Raises:
      InvalidArgumentError: a field outside its domain.
    """

    pretraining: FeatureClusterSetup = field(
        default_factory=lambda: FeatureClusterSetup(sample_sizes=(1024,), seeds=24)
    )
    main_units: int = 1
    main_samples: int = 256
    rescalings: tuple[float, ...] = (0.1, 1.0, 10.0)
    learning_rate: float = 0.2
    steps: int = 20000
    seed: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.pretraining, FeatureClusterSetup):
            raise InvalidArgumentError(
                f"pretraining={self.pretraining!r:.80} is not a FeatureClusterSetup"
            )
        checked: dict[str, object] = {
            "main_units": check_integer(
                "main_units",
                self.main_units,
                min_value=1,
                max_value=self.pretraining.teacher_units,
                meaning="the auxiliary teacher's units the main task uses",
            ),
            "main_samples": check_integer(
                "main_samples", self.main_samples, min_value=1, meaning="samples"
            ),
            "steps": check_integer(
                "steps", self.steps, min_value=1, meaning="gradient steps"
            ),
            "seed": check_seed("seed", self.seed),
            "learning_rate": check_real(
                "learning_rate",
                self.learning_rate,
                min_value=0.0,
                exclusive=True,
                meaning="a step size (> 0)",
            ),
        }
        scalings = self.rescalings
        if not isinstance(scalings, tuple | list) or not scalings:
            raise InvalidArgumentError(
                f"rescalings={scalings!r:.80} must be a nonempty tuple of factors > 0"
            )
        values = tuple(
            check_real(
                f"rescalings[{i}]",
                s,
                min_value=0.0,
                exclusive=True,
                meaning="a rescaling factor (> 0)",
            )
            for i, s in enumerate(scalings)
        )
        if list(values) != sorted(set(values)):
            raise InvalidArgumentError(
                f"rescalings={scalings!r} must be strictly increasing"
            )
        checked["rescalings"] = values
        for name, value in checked.items():
            object.__setattr__(self, name, value)


@dataclass(frozen=True, eq=False)
class NestedFinetuning:
    """The representations of :func:`nested_finetuning`.

    Axes: rescaling (``setup.rescalings``), seed (S).

    Attributes:
      setup: the configuration.
      pretrained_pr: PR of the pretrained representation, (S,).
      finetuned_pr: PR of the finetuned one, (R, S).
      shared_dimensions: ENSD between them, (R, S).
      relative_loss: final main-task training loss over the zero function's,
        (R, S).
      pretraining_loss: the same for the auxiliary task, (S,).
      main_teacher_units: the main task's units, the first k' of each
        seed's auxiliary teacher, (S, k', d).
      learning_rates: the finetuning step at each rescaling, (R,).
      finetuned_hidden_weights: :math:`W_{FT}^{(1)}`, (R, S, H, d).

    Every array is read-only: the result is cached and shared.
    """

    setup: NestedFinetuningSetup
    pretrained_pr: Float64Array
    finetuned_pr: Float64Array
    shared_dimensions: Float64Array
    relative_loss: Float64Array
    pretraining_loss: Float64Array
    main_teacher_units: Float64Array
    learning_rates: Float64Array
    finetuned_hidden_weights: Float64Array


def nested_finetuning(setup: NestedFinetuningSetup) -> NestedFinetuning:
    r"""Pretrain, rescale by each :math:`s`, finetune on a nested task; measure.

    .. math:: PR(R_{PT}),\quad PR(R_{FT}(s)),\quad ENSD(R_{PT}, R_{FT}(s))

    (module docstring). Computed once per process and setup.

    Args:
      setup: the configuration.

    Returns:
      A :class:`NestedFinetuning`.

    Raises:
      InvalidArgumentError: ``setup`` is not a :class:`NestedFinetuningSetup`.
      ConvergenceError: training diverges (lower the learning rate).

    References:
      Appendix G, Fig. 8b-c of ptft-diagonal-networks.
    """
    if not isinstance(setup, NestedFinetuningSetup):
        raise InvalidArgumentError(
            f"setup={setup!r:.80} is not a NestedFinetuningSetup"
        )
    return _finetuned(setup)


@functools.lru_cache(maxsize=2)
def _finetuned(setup: NestedFinetuningSetup) -> NestedFinetuning:
    base = setup.pretraining
    students = trained_students(base, "rich", base.sample_sizes[-1])
    pretrained = students.networks
    seeds, width, d = pretrained.hidden_weights.shape
    rng = np.random.default_rng([setup.seed, base.seed])
    x = rng.standard_normal((seeds, setup.main_samples, d))
    main_units = students.teacher_units[:, : setup.main_units]
    y = teacher_outputs(x, main_units, np.ones(seeds))
    readout = base.rich_scale * rng.standard_normal((seeds, width))
    before = _responses(students.test_inputs, pretrained.hidden_weights)
    pretrained_pr = np.array([participation_ratio(r) for r in before])
    count = len(setup.rescalings)
    # The readout's curvature grows as s^2 (module docstring).
    rates = np.array([setup.learning_rate / max(1.0, s * s) for s in setup.rescalings])
    finetuned_pr, shared, loss = (np.empty((count, seeds)) for _ in range(3))
    hidden = np.empty((count, *pretrained.hidden_weights.shape))
    for i, s in enumerate(setup.rescalings):
        finetuned = train_relu_networks(
            x,
            y,
            s * pretrained.hidden_weights,
            readout,
            learning_rate=rates[i],
            steps=setup.steps,
        )
        hidden[i] = finetuned.hidden_weights
        after = _responses(students.test_inputs, finetuned.hidden_weights)
        finetuned_pr[i] = [participation_ratio(r) for r in after]
        shared[i] = [ensd(b, a) for b, a in zip(before, after, strict=True)]
        loss[i] = finetuned.relative_loss
    result = NestedFinetuning(
        setup,
        pretrained_pr,
        finetuned_pr,
        shared,
        loss,
        pretrained.relative_loss,
        main_units,
        rates,
        hidden,
    )
    for array in vars(result).values():
        if isinstance(array, np.ndarray):
            array.setflags(write=False)
    return result


def _responses(inputs: Float64Array, hidden_weights: Float64Array) -> Float64Array:
    r"""The hidden layers :math:`(X W^{(1)\top})_+`, (S, m, H)."""
    return np.maximum(np.einsum("smd,shd->smh", inputs, hidden_weights), 0.0)
