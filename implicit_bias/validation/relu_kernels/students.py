r"""The mean-field student (18) of features-are-fate trained on the source's
population loss by gradient descent with hand-written gradients (App. D.2:
projected steps on the sphere), and the condensation of its kernel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from implicit_bias.errors import ConvergenceError, InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    check_generator,
    check_integer,
    check_real,
    check_seed,
)
from implicit_bias.numerics.relu_kernels import (
    relu_gram,
    relu_kernel_and_derivative,
)
from implicit_bias.validation.relu_kernels.teachers import (
    AblationSetup,
    Float64Array,
    _check_ablation,
    _sphere,
    _vector,
    _weights,
    ablation_setup,
)
from implicit_bias.validation.relu_kernels.monte_carlo import kernel_gram_on_inputs

__all__ = [
    "KernelCondensation",
    "StudentTraining",
    "kernel_condensation",
    "source_loss_and_gradients",
    "train_student_on_source",
]


@dataclass(frozen=True)
class StudentTraining:
    r"""A student trained on the source's population loss.

    Attributes:
      hidden_weights: final :math:`(w_i)`, unit rows, (m, d).
      readout: final c, (m,).
      losses: the population loss :math:`\frac12\mathbb E(f - f_s^*)^2` every
        ``record_every`` steps.
      initial_hidden_weights: the :math:`(w_i)` at initialization.
    """

    hidden_weights: Float64Array
    readout: Float64Array
    losses: Float64Array
    initial_hidden_weights: Float64Array


def source_loss_and_gradients(
    hidden_weights: Float64Array,
    readout: Float64Array,
    setup: AblationSetup,
) -> tuple[float, Float64Array, Float64Array]:
    r"""The student's population loss on the source (19) and its gradients.

    .. math:: L = \frac12\Big(\frac{1}{m^2}c^\top Gc - \frac{2}{m m_s}c^\top Hc_s
              + \frac{1}{m_s^2}c_s^\top G_sc_s\Big),

    with G, H, :math:`G_s` the arc-cosine Gram matrices (eq. (153); all
    weights on the unit sphere), :math:`m_s = (1-\mu)m_*` and :math:`c_s` the
    source's readout. :math:`\partial_cL = Gc/m^2 - Hc_s/(mm_s)`, and the
    Riemannian gradient in :math:`w_i` (tangent to the sphere) is
    :math:`\frac{c_i}{m}\big(\frac1m\sum_jc_j\kappa'_{ij}
    - \frac{1}{m_s}\sum_kc_{s,k}\kappa'_{ik}\big)`,
    :math:`\kappa'_{ij} = (\pi - \theta_{ij})(w_j - u_{ij}w_i)/(2\pi)`.
    The rows of ``hidden_weights`` (unit within :data:`UNIT_NORM_TOLERANCE`)
    are renormalized before use.

    Args:
      hidden_weights: the student's unit :math:`(w_i)`, (m, d).
      readout: its c, (m,).
      setup: the teachers.

    Returns:
      ``(loss, readout_gradient, hidden_gradient)`` (the last tangent, (m, d)).

    Raises:
      InvalidArgumentError: ``hidden_weights`` is not (m, d) with unit rows
        (within :data:`UNIT_NORM_TOLERANCE`), ``readout`` is not a finite
        (m,) vector, ``setup`` is not a valid :class:`AblationSetup`, or the
        dimensions differ.
      OutOfRangeError: the loss or a gradient overflows float64 (rescale
        ``readout``).
    """
    weights = _weights("hidden_weights", hidden_weights, unit=True)
    checked = _check_ablation("setup", setup)
    if checked.teacher_weights.shape[1] != weights.shape[1]:
        raise InvalidArgumentError(
            f"hidden_weights has dimension {weights.shape[1]} but "
            f"setup.teacher_weights has {checked.teacher_weights.shape[1]}: the "
            "student and the teachers share the inputs' R^d"
        )
    c = _vector("readout", readout, ("hidden_weights", weights.shape[0]))
    loss, readout_gradient, hidden_gradient = _source_loss_and_gradients(
        weights, c, checked
    )
    if not (
        math.isfinite(loss)
        and np.all(np.isfinite(readout_gradient))
        and np.all(np.isfinite(hidden_gradient))
    ):
        raise OutOfRangeError(
            "the population loss or its gradients overflow float64: rescale "
            "readout (the loss is quadratic in it)"
        )
    return loss, readout_gradient, hidden_gradient


def _source_loss_and_gradients(
    hidden_weights: Float64Array, readout: Float64Array, setup: AblationSetup
) -> tuple[float, Float64Array, Float64Array]:
    """:func:`source_loss_and_gradients` on checked arguments (may overflow)."""
    source = _SourceTerms.from_setup(setup)
    with np.errstate(over="ignore", invalid="ignore"):
        return source(_unit_rows(hidden_weights), readout)


def _unit_rows(weights: Float64Array) -> Float64Array:
    """The rows of ``weights`` divided by their norms (``np.linalg.norm``'s sums)."""
    return np.asarray(
        weights / np.sqrt(np.add.reduce(weights * weights, axis=1, keepdims=True))
    )


@dataclass(frozen=True)
class _SourceTerms:
    r"""The source's part of :func:`source_loss_and_gradients`, formed once.

    Its unit weights (renormalized), its readout, :math:`m_s` and the constant
    :math:`c_s^\top G_sc_s`; calling it with the student's unit
    :math:`(w_i)` and c gives the loss and its gradients. The student's rows
    are unit, so the Gram entries are :math:`k(u_{ij})` of eq. (153) without
    :func:`relu_gram`'s norms (1 to rounding), and one ``arccos`` per entry
    gives both :math:`k(u)` and :math:`k'(u)`; the student's and the source's
    units are stacked, one product and one kernel evaluation for both Grams.
    """

    weights: Float64Array
    readout: Float64Array
    energy: float

    @classmethod
    def from_setup(cls, setup: AblationSetup) -> _SourceTerms:
        weights = setup.source_weights
        readout = setup.source_readout
        energy = float(readout @ relu_gram(weights) @ readout)
        return cls(_unit_rows(weights), readout, energy)

    def __call__(
        self, hidden_weights: Float64Array, readout: Float64Array
    ) -> tuple[float, Float64Array, Float64Array]:
        width, source_width = hidden_weights.shape[0], self.weights.shape[0]
        units = np.concatenate((hidden_weights, self.weights))
        cosine = hidden_weights @ units.T
        np.clip(cosine, -1.0, 1.0, out=cosine)
        kernel, slope = relu_kernel_and_derivative(cosine)
        model_part = kernel[:, :width] @ readout / width**2
        source_part = kernel[:, width:] @ self.readout / (width * source_width)
        loss = 0.5 * (
            readout @ model_part
            - 2 * readout @ source_part
            + self.energy / source_width**2
        )
        # The gradient of k(u_ij) in w_i is k'(u_ij) w_j, whose part tangent
        # to the sphere is k'(u_ij)(w_j - u_ij w_i) (source_loss_and_gradients'
        # kappa'_ij): k'(u_ij) c_j / m^2 against the student's units and
        # -k'(u_ik) c_s,k / (m m_s) against the source's give the ambient
        # gradient in one product, the readouts carried by the units (m + m_s
        # rows, not m (m + m_s) entries); the radial part is removed below.
        coupling = np.concatenate(
            (readout / width**2, self.readout / (-width * source_width))
        )
        ambient = slope @ (units * coupling[:, None])
        ambient *= readout[:, None]
        radial = np.sum(ambient * hidden_weights, axis=1, keepdims=True)
        return (
            float(loss),
            model_part - source_part,
            ambient - radial * hidden_weights,
        )


def train_student_on_source(
    setup: AblationSetup,
    width: int,
    steps: int,
    rng: np.random.Generator,
    *,
    learning_rate: float = 0.01,
    readout_init: float = 1e-7,
    record_every: int = 100,
) -> StudentTraining:
    r"""Train the mean-field student (18) on the source (19)'s population loss.

    .. math:: c \leftarrow c - \eta m\,\partial_cL,\qquad
              w_i \leftarrow \frac{w_i - \eta m\,\mathrm{grad}_{w_i}L}
              {\|w_i - \eta m\,\mathrm{grad}_{w_i}L\|}

    Gradient descent with steps of size :math:`\eta m` (App. D.2's
    :math:`0.01m`) on :func:`source_loss_and_gradients`: each :math:`w_i`
    moves along its Riemannian gradient and is renormalized to the sphere.
    Hidden weights start uniform on the sphere, readouts at ``readout_init``.

    Args:
      setup: the teachers (:func:`ablation_setup`).
      width: m, the student's units, >= 1.
      steps: gradient steps, >= 1.
      rng: the generator of the initialization.
      learning_rate: :math:`\eta > 0`.
      readout_init: the readouts' initial value, finite.
      record_every: the loss is recorded every this many steps, >= 1.

    Returns:
      A :class:`StudentTraining`.

    Raises:
      InvalidArgumentError: an argument is outside the domain above, or
        ``setup`` is not a valid :class:`AblationSetup`.
      OutOfRangeError: the initial loss overflows float64 (lower
        ``readout_init``).
      ConvergenceError: the iterates overflow (the step :math:`\eta m` is past
        stability): raised at the step where it happens; lower
        ``learning_rate``.
    """
    checked = _check_ablation("setup", setup)
    m = check_integer("width", width, min_value=1, meaning="m, the student's units")
    count = check_integer("steps", steps, min_value=1, meaning="a number of steps")
    generator = check_generator("rng", rng)
    rate = check_real(
        "learning_rate",
        learning_rate,
        min_value=0.0,
        exclusive=True,
        meaning="the step size eta (> 0; steps are eta * width)",
    )
    start = check_real("readout_init", readout_init, meaning="the initial readout")
    every = check_integer(
        "record_every", record_every, min_value=1, meaning="a recording interval"
    )
    weights = _sphere(m, checked.teacher_weights.shape[1], generator)
    initial = weights.copy()
    readout = np.full(m, start)
    step = rate * m
    source = _SourceTerms.from_setup(checked)
    losses = []

    def diverged(iteration: int) -> ConvergenceError:
        return ConvergenceError(
            f"gradient descent diverged at step {iteration} of {count} with "
            f"learning_rate={rate!r} (step {step!r} = learning_rate * width): "
            "lower learning_rate"
        )

    def finite() -> bool:
        return bool(np.all(np.isfinite(readout)) and np.all(np.isfinite(weights)))

    with np.errstate(over="ignore", invalid="ignore"):
        for iteration in range(count):
            loss, readout_gradient, tangent = source(weights, readout)
            if iteration % every == 0:
                losses.append(loss)
            # A non-finite iterate makes the next loss non-finite (NaN and inf
            # propagate through the Grams), so the loss alone is tested per
            # step; the iterates only once it fails, to name the step at
            # which they, or this loss, first left float64.
            if not math.isfinite(loss):
                if iteration == 0:
                    raise OutOfRangeError(
                        "the initial loss overflows float64 with "
                        f"readout_init={start!r}: lower readout_init"
                    )
                raise diverged(iteration if finite() else iteration - 1)
            readout = readout - step * readout_gradient
            moved = weights - step * tangent
            norms = np.sqrt(np.add.reduce(moved * moved, axis=1, keepdims=True))
            if not np.isfinite(norms).all():
                # Squares past float64 (finite rows above ~1e154): each such
                # row scaled by its largest entry first, which keeps its
                # direction; a row that is itself not finite has diverged.
                if not np.isfinite(moved).all():
                    raise diverged(iteration)
                moved = moved / np.max(np.abs(moved), axis=1, keepdims=True)
                norms = np.sqrt(np.add.reduce(moved * moved, axis=1, keepdims=True))
            weights = moved / norms
    if not finite():
        raise diverged(count - 1)
    return StudentTraining(weights, readout, np.asarray(losses), initial)


@dataclass(frozen=True)
class KernelCondensation:
    r"""How close a student trained on the source comes to the source's kernel.

    Attributes:
      setup: the teacher, its source (ablated) and target readouts.
      training: the trained student.
      distance_before, distance_after: relative Frobenius distance of the
        student's kernel Gram to the source teacher's, on ``inputs``, at
        initialization and after training.
      nearest_cosines: per student unit, the largest cosine to a source unit.
      inputs: the Gaussian inputs of the Grams.
    """

    setup: AblationSetup
    training: StudentTraining
    distance_before: float
    distance_after: float
    nearest_cosines: Float64Array
    inputs: Float64Array


def kernel_condensation(
    *,
    dimension: int = 10,
    teacher_units: int = 10,
    ablated_fraction: float = 0.3,
    width: int = 100,
    steps: int = 20_000,
    learning_rate: float = 0.2,
    gram_inputs: int = 300,
    seed: int = 4,
) -> KernelCondensation:
    r"""Train a student on the source and compare its kernel with the source's.

    .. math:: \frac{\|K_{\text{student}} - K_{s}\|_F}{\|K_s\|_F}

    Fig. 4(a)-(b) of features-are-fate: after training on the ablated source
    the student's kernel should become nearly indistinguishable from the
    source teacher's (its units condense onto the source units).

    Args:
      dimension: d, >= 1.
      teacher_units: :math:`m_*`, >= 1.
      ablated_fraction: :math:`\mu\in[0, 1)` with :math:`\mu m_*` an integer.
      width: the student's units m, >= 1.
      steps: gradient steps, >= 1.
      learning_rate: :math:`\eta > 0` (steps :math:`\eta m`).
      gram_inputs: Gaussian inputs of the Gram matrices, >= 1.
      seed: the seed of ``numpy.random.default_rng``, >= 0.

    Returns:
      A :class:`KernelCondensation`.

    Raises:
      InvalidArgumentError: an argument is outside the domain above, or the
        source's kernel vanishes on all ``gram_inputs`` inputs (too few
        inputs: the relative distance is undefined).
      ConvergenceError: training diverges (lower ``learning_rate``).
    """
    d = check_integer("dimension", dimension, min_value=1, meaning="the dimension d")
    units = check_integer(
        "teacher_units", teacher_units, min_value=1, meaning="m_*, the teacher's units"
    )
    fraction = check_real(
        "ablated_fraction",
        ablated_fraction,
        meaning="mu, the fraction of ablated teacher units, in [0, 1)",
    )
    check_integer("width", width, min_value=1, meaning="m, the student's units")
    check_integer("steps", steps, min_value=1, meaning="a number of steps")
    check_real(
        "learning_rate",
        learning_rate,
        min_value=0.0,
        exclusive=True,
        meaning="the step size eta (> 0)",
    )
    count = check_integer(
        "gram_inputs", gram_inputs, min_value=1, meaning="a number of inputs"
    )
    rng = np.random.default_rng(check_seed("seed", seed))
    setup = ablation_setup(
        teacher_width=units, dimension=d, ablated_fraction=fraction, rng=rng
    )
    training = train_student_on_source(
        setup, width, steps, rng, learning_rate=learning_rate, record_every=1_000
    )
    inputs = rng.standard_normal((count, d))
    source = kernel_gram_on_inputs(inputs, setup.source_weights)
    source_norm = float(np.linalg.norm(source))
    if source_norm == 0.0:
        raise InvalidArgumentError(
            f"gram_inputs={count} is too few: the source teacher's features vanish "
            "on every drawn input, so the relative distance of the Grams is "
            "undefined; draw more gram_inputs"
        )

    def distance(weights: Float64Array) -> float:
        gram = kernel_gram_on_inputs(inputs, weights)
        return float(np.linalg.norm(gram - source) / source_norm)

    return KernelCondensation(
        setup=setup,
        training=training,
        distance_before=distance(training.initial_hidden_weights),
        distance_after=distance(training.hidden_weights),
        nearest_cosines=np.max(training.hidden_weights @ setup.source_weights.T, 1),
        inputs=inputs,
    )
