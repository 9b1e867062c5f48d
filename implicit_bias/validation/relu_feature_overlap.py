r"""Fig. 4b of ptft-diagonal-networks: PT+FT against STL by overlapping features.

Appendix D of the paper repeats its teacher-student experiments "with 8192
auxiliary task samples and 40 ground-truth features" and reports the
generalization loss of single-task learning (STL) and of pretraining +
finetuning (PT+FT) "for different numbers of overlapping features (out of 40
total) between main and auxiliary tasks" (Fig. 4b). This module runs the STL
and PT+FT arms of that experiment (not its multi-task arm).

Teachers. Inputs :math:`x\sim\mathcal N(0, I_d)`. The auxiliary teacher has
k units :math:`v_j` uniform on :math:`S^{d-1}` with readouts 1,
:math:`f^{aux}(x) = \sum_j (\langle v_j, x\rangle)_+`; the main teacher with
overlap o keeps the first o of them and replaces the others by fresh units
:math:`u_j` drawn the same way (one draw per seed, shared by every o),
:math:`f_o(x) = \sum_{j\le o} (\langle v_j, x\rangle)_+ + \sum_{j>o}
(\langle u_j, x\rangle)_+`: readouts 1 for every feature, as in the paper's
teacher-student setup (ptft-relu-penalty, Section 1.2: "the finetuning task
uses a feature with the same weight as the pretraining task does").

Training. The networks, loss and gradient descent of
:mod:`implicit_bias.validation.relu_sample_efficiency` (eq. (1) of
ptft-relu-penalty, no biases). STL trains from the small initialization
:math:`w_h^{(1)}\sim\mathcal N(0,\sigma^2 I_d/d)`,
:math:`w_h^{(2)}\sim\mathcal N(0,\sigma^2)` on the main task; PT+FT trains
the same way on the auxiliary task, then keeps the hidden weights, sets every
readout to 0 (the small :math:`\gamma` of eq. (2) of ptft-relu-penalty) and
trains on the main task. STL and PT+FT of a seed see the same main-task data
(nested: the first n of one draw), so their errors are paired. The
generalization error is the test mean squared error over the teacher's mean
square on the same fresh inputs.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.arguments import check_integer, check_real, check_seed
from implicit_bias.validation.relu_kernels import sample_sphere
from implicit_bias.validation.relu_sample_efficiency import (
    TrainedNetworks,
    relu_network_outputs,
    teacher_outputs,
    train_relu_networks,
)

__all__ = ["FeatureOverlap", "FeatureOverlapSetup", "feature_overlap"]

Float64Array = NDArray[np.float64]


@dataclass(frozen=True)
class FeatureOverlapSetup:
    r"""The configuration of the Fig. 4b experiment (module docstring).

    Attributes:
      overlaps: the shared features o, each in [0, k], strictly increasing.
      sample_sizes: main-task sample sizes n >= 1, strictly increasing.
      seeds: independent repeats S (teachers, data, initializations), >= 2.
      dimension: d >= 2. teacher_units: k >= 1. width: H >= 1.
      aux_samples: pretraining samples, >= 1.
      init_scale: :math:`\sigma > 0` of the small initialization.
      learning_rate: :math:`\eta > 0`, every phase.
      steps: gradient steps >= 1, every phase.
      test_samples: fresh inputs of the generalization error, >= 1.
      seed: the master seed, >= 0.

    Raises:
      InvalidArgumentError: a field outside its domain.
    """

    overlaps: tuple[int, ...] = (0, 20, 40)
    sample_sizes: tuple[int, ...] = (64, 256)
    seeds: int = 6
    dimension: int = 16
    teacher_units: int = 40
    width: int = 64
    aux_samples: int = 8192
    init_scale: float = 1e-2
    learning_rate: float = 0.05
    steps: int = 4000
    test_samples: int = 2000
    seed: int = 0

    def __post_init__(self) -> None:
        checked: dict[str, object] = {}
        for name, minimum, meaning in (
            ("seeds", 2, "the independent repeats S (>= 2: a standard error)"),
            ("dimension", 2, "the input dimension d (>= 2)"),
            ("teacher_units", 1, "the teacher's units k (>= 1)"),
            ("width", 1, "the student's width H (>= 1)"),
            ("aux_samples", 1, "the pretraining samples (>= 1)"),
            ("steps", 1, "the gradient steps of every phase (>= 1)"),
            ("test_samples", 1, "the fresh test inputs (>= 1)"),
        ):
            checked[name] = check_integer(
                name, getattr(self, name), min_value=minimum, meaning=meaning
            )
        checked["seed"] = check_seed("seed", self.seed)
        k = int(checked["teacher_units"])  # type: ignore[call-overload]
        for name, low, high, meaning in (
            ("overlaps", 0, k, f"a number of shared features, in [0, {k}]"),
            ("sample_sizes", 1, None, "a main-task sample size (>= 1)"),
        ):
            values = getattr(self, name)
            if not isinstance(values, tuple | list) or not values:
                raise InvalidArgumentError(
                    f"{name}={values!r:.80} must be a nonempty tuple"
                )
            entries = tuple(
                check_integer(
                    f"{name}[{i}]", v, min_value=low, max_value=high, meaning=meaning
                )
                for i, v in enumerate(values)
            )
            if list(entries) != sorted(set(entries)):
                raise InvalidArgumentError(
                    f"{name}={values!r} must be strictly increasing"
                )
            checked[name] = entries
        for name in ("init_scale", "learning_rate"):
            checked[name] = check_real(
                name,
                getattr(self, name),
                min_value=0.0,
                exclusive=True,
                meaning="an initialization scale or step size (> 0)",
            )
        for name, value in checked.items():
            object.__setattr__(self, name, value)


@dataclass(frozen=True, eq=False)
class FeatureOverlap:
    """The errors of :func:`feature_overlap`.

    Axes: overlap (``setup.overlaps``), n (``setup.sample_sizes``), seed (S).

    Attributes:
      setup: the configuration.
      stl_error, ptft_error: relative generalization errors, (O, N, S).
      stl_loss, ptft_loss: final relative training losses, (O, N, S).
      pretraining_loss: the auxiliary task's, (S,).
      auxiliary_units: the auxiliary teachers' units, (S, k, d).
      main_units: the main teachers' units, (O, S, k, d): at overlap o, the
        first o auxiliary units, then fresh ones.
      test_inputs: each seed's fresh test inputs, (S, m, d).

    Every array is read-only: the result is cached and shared.
    """

    setup: FeatureOverlapSetup
    stl_error: Float64Array
    ptft_error: Float64Array
    stl_loss: Float64Array
    ptft_loss: Float64Array
    pretraining_loss: Float64Array
    auxiliary_units: Float64Array
    main_units: Float64Array
    test_inputs: Float64Array


def feature_overlap(setup: FeatureOverlapSetup) -> FeatureOverlap:
    r"""Run Fig. 4b's STL and PT+FT arms: errors by overlap and n, S seeds.

    .. math:: e = \frac{\sum_t (f_w(x_t) - f_o(x_t))^2}{\sum_t f_o(x_t)^2}

    on fresh test inputs (module docstring). Computed once per process and
    setup.

    Args:
      setup: the configuration.

    Returns:
      A :class:`FeatureOverlap`.

    Raises:
      InvalidArgumentError: ``setup`` is not a :class:`FeatureOverlapSetup`, or
        a main teacher vanishes on every test input (too few test samples).
      ConvergenceError: training diverges (lower the learning rate).

    References:
      Appendix D, Fig. 4b of ptft-diagonal-networks.
    """
    if not isinstance(setup, FeatureOverlapSetup):
        raise InvalidArgumentError(f"setup={setup!r:.80} is not a FeatureOverlapSetup")
    return _run(setup)


def _small_init(
    count: int, setup: FeatureOverlapSetup, rng: np.random.Generator
) -> tuple[Float64Array, Float64Array]:
    h, d, sigma = setup.width, setup.dimension, setup.init_scale
    hidden = sigma * rng.standard_normal((count, h, d)) / math.sqrt(d)
    return hidden, sigma * rng.standard_normal((count, h))


@functools.lru_cache(maxsize=2)
def _run(setup: FeatureOverlapSetup) -> FeatureOverlap:
    rng = np.random.default_rng(setup.seed)
    s, d, k = setup.seeds, setup.dimension, setup.teacher_units
    aux_units = np.stack([sample_sphere(k, d, rng) for _ in range(s)])
    fresh_units = np.stack([sample_sphere(k, d, rng) for _ in range(s)])
    aux_x = rng.standard_normal((s, setup.aux_samples, d))
    pretrained = train_relu_networks(
        aux_x,
        teacher_outputs(aux_x, aux_units, np.ones(s)),
        *_small_init(s, setup, rng),
        learning_rate=setup.learning_rate,
        steps=setup.steps,
    )
    overlaps = setup.overlaps
    count = len(overlaps) * s
    # (O, S, k, d): the first o auxiliary units, then fresh ones.
    main_units = np.stack(
        [
            np.concatenate([aux_units[:, :o], fresh_units[:, o:]], axis=1)
            for o in overlaps
        ]
    ).reshape(count, k, d)
    x = rng.standard_normal((s, max(setup.sample_sizes), d))
    x_test = rng.standard_normal((s, setup.test_samples, d))
    stl_init = _small_init(count, setup, rng)
    inputs = np.broadcast_to(x[None], (len(overlaps), *x.shape)).reshape(count, -1, d)
    tests = np.broadcast_to(x_test[None], (len(overlaps), *x_test.shape)).reshape(
        count, -1, d
    )
    truth = teacher_outputs(tests, main_units, np.ones(count))
    if np.any(np.all(truth == 0.0, axis=-1)):
        raise InvalidArgumentError(
            f"setup.test_samples={setup.test_samples} is too few: a main teacher "
            "vanishes on every test input, so its relative error is undefined"
        )
    targets = teacher_outputs(inputs, main_units, np.ones(count))
    hidden = np.broadcast_to(
        pretrained.hidden_weights[None],
        (len(overlaps), *pretrained.hidden_weights.shape),
    ).reshape(count, setup.width, d)
    shape = (len(overlaps), len(setup.sample_sizes), s)
    stl_error, ptft_error, stl_loss, ptft_loss = (np.empty(shape) for _ in range(4))
    for index, n in enumerate(setup.sample_sizes):
        # Both arms as one stack: each network's arithmetic is its own.
        both = train_relu_networks(
            np.concatenate([inputs[:, :n], inputs[:, :n]]),
            np.concatenate([targets[:, :n], targets[:, :n]]),
            np.concatenate([stl_init[0], hidden]),
            np.concatenate([stl_init[1], np.zeros((count, setup.width))]),
            learning_rate=setup.learning_rate,
            steps=setup.steps,
        )
        errors = _relative_error(both, np.concatenate([tests, tests]), truth)
        stl_error[:, index] = errors[:count].reshape(len(overlaps), s)
        ptft_error[:, index] = errors[count:].reshape(len(overlaps), s)
        stl_loss[:, index] = both.relative_loss[:count].reshape(len(overlaps), s)
        ptft_loss[:, index] = both.relative_loss[count:].reshape(len(overlaps), s)
    result = FeatureOverlap(
        setup,
        stl_error,
        ptft_error,
        stl_loss,
        ptft_loss,
        pretrained.relative_loss,
        aux_units,
        main_units.reshape(len(overlaps), s, k, d),
        x_test,
    )
    for array in vars(result).values():
        if isinstance(array, np.ndarray):
            array.setflags(write=False)
    return result


def _relative_error(
    trained: TrainedNetworks, tests: Float64Array, truth: Float64Array
) -> Float64Array:
    """Relative test errors of 2C networks, the truth (C, m) of each arm's C."""
    outputs = relu_network_outputs(tests, trained.hidden_weights, trained.readout)
    both = np.concatenate([truth, truth])
    return np.asarray(np.sum((outputs - both) ** 2, axis=-1) / np.sum(both**2, axis=-1))
