r"""The Fig. 1c experiment of ptft-relu-penalty: its setup, single-task
learning and pretraining + finetuning side by side over sample sizes, the
cached pretraining, and the relative generalization errors.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.arguments import (
    check_integer,
    check_real,
    check_seed,
)
from implicit_bias.validation.relu_kernels import sample_sphere
from implicit_bias.validation.relu_sample_efficiency.networks import (
    Float64Array,
    TrainedNetworks,
    _finite,
    _outputs,
    train_relu_networks,
)
from implicit_bias.validation.relu_sample_efficiency.teachers import (
    correlated_units,
    teacher_outputs,
)

__all__ = [
    "SampleEfficiency",
    "SampleEfficiencySetup",
    "sample_efficiency",
]


@dataclass(frozen=True)
class SampleEfficiencySetup:
    r"""The configuration of the Fig. 1c experiment (module docstring).

    Attributes:
      correlations: the :math:`\rho` of the finetuning teacher, (R,), each in
        :math:`[-1, 1]`.
      magnitudes: finetuning feature magnitudes m > 0 (auxiliary: 1), (M,).
      sample_sizes: finetuning sample sizes n >= 1, (N,).
      seeds: independent repeats S (teachers, data, initializations), >= 1.
      dimension: d >= 2. teacher_units: k >= 1. width: H >= 1.
      aux_samples: pretraining sample size, >= 1.
      init_scale: :math:`\sigma > 0` of the random initialization.
      readout_reinit: :math:`\gamma`, the readouts PT+FT finetunes from
        (finite).
      learning_rate: :math:`\eta > 0`, every phase (STL at magnitude 1).
      steps: gradient steps >= 1, every phase (pretraining, STL, and PT+FT
        finetuning unless ``finetune_steps`` is given).
      finetune_steps: gradient steps >= 1 of PT+FT finetuning, or None for
        ``steps``: at a small finetuning magnitude m it converges far more
        slowly than the other phases (its hidden weights move at a rate
        proportional to m).
      test_samples: fresh inputs for the generalization error, >= 1.
      seed: the master seed, an integer >= 0.

    The sequences are stored as tuples (a list is accepted), their entries and
    the scalars as Python floats and ints.

    Raises:
      InvalidArgumentError: a field outside its domain (the message names the
        field, and the entry of a sequence: ``correlations[1]``).
    """

    correlations: tuple[float, ...] = (1.0, 0.9)
    magnitudes: tuple[float, ...] = (1.0, 0.01)
    sample_sizes: tuple[int, ...] = (16, 64)
    seeds: int = 6
    dimension: int = 8
    teacher_units: int = 6
    width: int = 24
    aux_samples: int = 256
    init_scale: float = 1e-2
    readout_reinit: float = 0.0
    learning_rate: float = 0.2
    steps: int = 3000
    test_samples: int = 2000
    seed: int = 0
    finetune_steps: int | None = None

    def __post_init__(self) -> None:
        # Checked where the setup is built (sample_efficiency checked them only
        # when it ran), so that no setup holds a bad field.
        checked: dict[str, object] = {}
        for name, minimum, meaning in (
            ("seeds", 1, "the number of independent repeats S (>= 1)"),
            (
                "dimension",
                2,
                "the input dimension d (>= 2: correlated units need two directions)",
            ),
            ("teacher_units", 1, "the teacher's number of hidden units k (>= 1)"),
            ("width", 1, "the student's hidden width H (>= 1)"),
            ("aux_samples", 1, "the pretraining sample size (>= 1)"),
            ("steps", 1, "the number of gradient steps per phase (>= 1)"),
            ("test_samples", 1, "the number of fresh test inputs (>= 1)"),
        ):
            checked[name] = check_integer(
                name, getattr(self, name), min_value=minimum, meaning=meaning
            )
        checked["seed"] = check_seed("seed", self.seed)
        if self.finetune_steps is not None:
            checked["finetune_steps"] = check_integer(
                "finetune_steps",
                self.finetune_steps,
                min_value=1,
                meaning="the number of PT+FT finetuning steps (>= 1), or None "
                "for steps",
            )
        for name in ("correlations", "magnitudes", "sample_sizes"):
            value = getattr(self, name)
            if not isinstance(value, tuple | list) or len(value) == 0:
                raise InvalidArgumentError(
                    f"{name}={value!r:.80} is empty or not a tuple: {name} needs "
                    "at least one value"
                )
        checked["sample_sizes"] = tuple(
            check_integer(
                f"sample_sizes[{index}]",
                n,
                min_value=1,
                meaning="a finetuning sample size (>= 1)",
            )
            for index, n in enumerate(self.sample_sizes)
        )
        for name, low, high, meaning in (
            ("correlations", -1.0, 1.0, "a teacher's cosine rho, in [-1, 1]"),
            ("magnitudes", 0.0, None, "a teacher's readout m (> 0)"),
        ):
            checked[name] = tuple(
                check_real(
                    f"{name}[{index}]",
                    value,
                    min_value=low,
                    max_value=high,
                    exclusive=high is None,
                    meaning=meaning,
                )
                for index, value in enumerate(getattr(self, name))
            )
        for name, meaning in (
            ("init_scale", "the scale sigma of the random initialization (> 0)"),
            ("learning_rate", "the learning rate eta of every phase (> 0)"),
        ):
            checked[name] = check_real(
                name,
                getattr(self, name),
                min_value=0.0,
                exclusive=True,
                meaning=meaning,
            )
        checked["readout_reinit"] = check_real(
            "readout_reinit",
            self.readout_reinit,
            meaning="the readout PT+FT finetunes from (finite)",
        )
        for name, value in checked.items():
            object.__setattr__(self, name, value)


@dataclass(frozen=True, eq=False)
class SampleEfficiency:
    """Relative generalization errors of STL and PT+FT (Fig. 1c).

    Attributes:
      setup: the configuration.
      stl_error: (R, M, N, S); equal across M by the scale equivalence of STL.
      ptft_error: (R, M, N, S).
      stl_train_loss, ptft_train_loss: final relative training losses, same
        shapes; pretraining_loss: (S,).
    """

    setup: SampleEfficiencySetup
    stl_error: Float64Array
    ptft_error: Float64Array
    stl_train_loss: Float64Array
    ptft_train_loss: Float64Array
    pretraining_loss: Float64Array


def _small_init(
    count: int, width: int, dimension: int, scale: float, rng: np.random.Generator
) -> tuple[Float64Array, Float64Array]:
    hidden = (
        scale * rng.standard_normal((count, width, dimension)) / math.sqrt(dimension)
    )
    return hidden, scale * rng.standard_normal((count, width))


def _check_setup(setup: object) -> SampleEfficiencySetup:
    """A :class:`SampleEfficiencySetup`, which checked its fields when built."""
    if not isinstance(setup, SampleEfficiencySetup):
        raise InvalidArgumentError(
            f"setup={setup!r:.80} is not a SampleEfficiencySetup: setup is the "
            "configuration of the Fig. 1c experiment"
        )
    return setup


def sample_efficiency(setup: SampleEfficiencySetup) -> SampleEfficiency:
    r"""Run Fig. 1c: STL and PT+FT errors versus n, for each (rho, m), S seeds.

    .. math:: e = \frac{\sum_{t}(f_w(x_t) - f(x_t))^2}{\sum_t f(x_t)^2}

    on fresh test inputs :math:`x_t`. Per seed: one auxiliary teacher, one
    pretrained network (shared by every finetuning run of that seed), one
    finetuning teacher per correlation (drawn from the auxiliary units), and
    nested data sets (the first n of one draw of ``max(sample_sizes)``
    inputs). STL and PT+FT of a seed see the same finetuning data, so their
    errors are paired.

    Args:
      setup: the configuration.

    Returns:
      A :class:`SampleEfficiency`.

    Raises:
      InvalidArgumentError: the setup is not a :class:`SampleEfficiencySetup`
        (which refuses a field out of range when it is built), or the teacher
        vanishes on every test input (too few ``setup.test_samples``).
      OutOfRangeError: an error or loss overflows float64 (rescale the
        magnitudes).
      ConvergenceError: training diverges (lower the learning rate).

    References:
      Fig. 1c and Section 1.2 of ptft-relu-penalty.
    """
    setup = _check_setup(setup)
    rng = np.random.default_rng(setup.seed)
    seeds, d = setup.seeds, setup.dimension
    aux_units, pretrained = _pretrain(
        setup.seed,
        seeds,
        d,
        setup.teacher_units,
        setup.width,
        setup.aux_samples,
        setup.init_scale,
        setup.learning_rate,
        setup.steps,
    )
    # Past the pretraining's draws, which _pretrain made from its own generator.
    _pretraining_draws(
        rng,
        seeds,
        d,
        setup.teacher_units,
        setup.aux_samples,
        setup.width,
        setup.init_scale,
    )
    largest = max(setup.sample_sizes)
    rhos, magnitudes = setup.correlations, setup.magnitudes
    units = np.stack(
        [np.stack([correlated_units(v, r, rng) for v in aux_units]) for r in rhos]
    )  # (R, S, k, d)
    x = rng.standard_normal((seeds, largest, d))
    x_test = rng.standard_normal((seeds, setup.test_samples, d))
    stl_init = _small_init(len(rhos) * seeds, setup.width, d, setup.init_scale, rng)
    shape = (len(rhos), len(magnitudes), len(setup.sample_sizes), seeds)
    stl_error, ptft_error = np.empty(shape), np.empty(shape)
    stl_loss, ptft_loss = np.empty(shape), np.empty(shape)
    unit_target = teacher_outputs(x[None], units, np.ones((len(rhos), seeds)))
    unit_test = teacher_outputs(x_test[None], units, np.ones((len(rhos), seeds)))
    if np.any(np.all(unit_test == 0.0, axis=-1)):
        raise InvalidArgumentError(
            f"setup.test_samples={setup.test_samples} is too few: a finetuning "
            "teacher vanishes on every test input, so its relative error is "
            "undefined; use more test_samples"
        )
    finetune_steps = (
        setup.steps if setup.finetune_steps is None else setup.finetune_steps
    )
    for index, n in enumerate(setup.sample_sizes):
        inputs = np.broadcast_to(x[None, :, :n], (len(rhos), seeds, n, d))
        stl_run = (
            inputs.reshape(-1, n, d),
            unit_target[:, :, :n].reshape(-1, n),
            *stl_init,
        )
        # PT+FT for every (rho, m): the pretrained hidden weights, readouts gamma.
        count = len(rhos) * len(magnitudes) * seeds
        targets = (
            unit_target[:, None, :, :n] * np.asarray(magnitudes)[None, :, None, None]
        ).reshape(count, n)
        ft_inputs = np.broadcast_to(
            x[None, None, :, :n], (len(rhos), len(magnitudes), seeds, n, d)
        ).reshape(count, n, d)
        ft_hidden = np.broadcast_to(
            pretrained.hidden_weights[None, None],
            (len(rhos), len(magnitudes), *pretrained.hidden_weights.shape),
        ).reshape(count, setup.width, d)
        ptft_run = (
            ft_inputs,
            targets,
            ft_hidden,
            np.full((count, setup.width), setup.readout_reinit),
        )
        stl, ptft = _train_side_by_side(
            (stl_run, ptft_run), setup.learning_rate, (setup.steps, finetune_steps)
        )
        stl_error[:, :, index] = _relative_error(
            stl, x_test, unit_test, len(rhos), seeds
        )[:, None]
        stl_loss[:, :, index] = stl.relative_loss.reshape(len(rhos), 1, seeds)
        outputs = _outputs(
            np.broadcast_to(
                x_test[None, None], (len(rhos), len(magnitudes), *x_test.shape)
            ).reshape(count, setup.test_samples, d),
            ptft.hidden_weights,
            ptft.readout,
        ).reshape(len(rhos), len(magnitudes), seeds, -1)
        truth = unit_test[:, None] * np.asarray(magnitudes)[None, :, None, None]
        with np.errstate(over="ignore", invalid="ignore"):
            ptft_error[:, :, index] = np.sum((outputs - truth) ** 2, axis=-1) / np.sum(
                truth**2, axis=-1
            )
        ptft_loss[:, :, index] = ptft.relative_loss.reshape(
            len(rhos), len(magnitudes), seeds
        )
    for array in (stl_error, ptft_error, stl_loss, ptft_loss):
        _finite(array, "the relative errors or losses", "setup.magnitudes")
    return SampleEfficiency(
        setup, stl_error, ptft_error, stl_loss, ptft_loss, pretrained.relative_loss
    )


def _train_side_by_side(
    runs: tuple[tuple[Float64Array, ...], ...],
    learning_rate: float,
    steps: tuple[int, ...],
) -> list[TrainedNetworks]:
    """:func:`train_relu_networks` on each (inputs, targets, hidden, readout) run.

    Runs of the same step count and sample size train as one stack: each
    network's arithmetic is its own (a matrix product per network, reductions
    along its own rows), so its iterates are those of a separate run, bit for
    bit, and the stack saves the per-step overhead of the separate calls.
    """
    shapes = {(count, run[0].shape[1]) for count, run in zip(steps, runs, strict=True)}
    if len(shapes) > 1:
        return [
            train_relu_networks(*run, learning_rate=learning_rate, steps=count)
            for count, run in zip(steps, runs, strict=True)
        ]
    stacked = train_relu_networks(
        *(np.concatenate(parts) for parts in zip(*runs, strict=True)),
        learning_rate=learning_rate,
        steps=steps[0],
    )
    bounds = np.cumsum([run[0].shape[0] for run in runs])[:-1]
    return [
        TrainedNetworks(hidden, readout, loss)
        for hidden, readout, loss in zip(
            np.split(stacked.hidden_weights, bounds),
            np.split(stacked.readout, bounds),
            np.split(stacked.relative_loss, bounds),
            strict=True,
        )
    ]


def _pretraining_draws(
    rng: np.random.Generator,
    seeds: int,
    dimension: int,
    teacher_units: int,
    aux_samples: int,
    width: int,
    init_scale: float,
) -> tuple[Float64Array, Float64Array, Float64Array, Float64Array]:
    """The auxiliary teachers, inputs and initializations, drawn from ``rng``."""
    aux_units = np.stack(
        [sample_sphere(teacher_units, dimension, rng) for _ in range(seeds)]
    )
    aux_x = rng.standard_normal((seeds, aux_samples, dimension))
    hidden, readout = _small_init(seeds, width, dimension, init_scale, rng)
    return aux_units, aux_x, hidden, readout


@functools.lru_cache(maxsize=4)
def _pretrain(
    seed: int,
    seeds: int,
    dimension: int,
    teacher_units: int,
    width: int,
    aux_samples: int,
    init_scale: float,
    learning_rate: float,
    steps: int,
) -> tuple[Float64Array, TrainedNetworks]:
    """The auxiliary teachers and the pretrained networks of a master seed.

    They are the first draws of the master seed's stream and depend on these
    fields only, so the runs of one process that share them (the claims at
    each correlation of one setup) pretrain once.
    """
    rng = np.random.default_rng(seed)
    aux_units, aux_x, hidden, readout = _pretraining_draws(
        rng, seeds, dimension, teacher_units, aux_samples, width, init_scale
    )
    aux_y = teacher_outputs(aux_x, aux_units, np.ones(seeds))
    trained = train_relu_networks(
        aux_x, aux_y, hidden, readout, learning_rate=learning_rate, steps=steps
    )
    # Shared by every run that hits the cache (pretraining_loss is returned).
    for array in (
        aux_units,
        trained.hidden_weights,
        trained.readout,
        trained.relative_loss,
    ):
        array.setflags(write=False)
    return aux_units, trained


def _relative_error(
    trained: TrainedNetworks,
    x_test: Float64Array,
    truth: Float64Array,
    correlations: int,
    seeds: int,
) -> Float64Array:
    """(R, S) relative test errors of R*S networks on their seed's test inputs."""
    test = np.broadcast_to(x_test[None], (correlations, *x_test.shape))
    outputs = _outputs(
        test.reshape(-1, *x_test.shape[1:]), trained.hidden_weights, trained.readout
    ).reshape(correlations, seeds, -1)
    return np.asarray(
        np.sum((outputs - truth) ** 2, axis=-1) / np.sum(truth**2, axis=-1)
    )
