r"""Section 4 of features-are-fate at a laptop's size: ReLU student-teacher transfer.

The closed forms of Appendix C (:mod:`implicit_bias.numerics.relu_kernels`)
against Monte Carlo over Gaussian inputs, and the ablated transfer setup of
eqs. (18)-(21):

* a target teacher :math:`f_t^*(x) = \frac{1}{m_*}\sum_i c^*_i\sigma(w_i^{*\top}x)`
  with :math:`w^*_i` uniform on :math:`S^{d-1}` (as the paper constrains them)
  and :math:`c^*_i\sim\mathcal N(0,1)` or :math:`c^*_i = 1` (our choices: the
  paper does not say how its teachers' readouts are drawn); the source (19)
  keeps the units outside a uniformly random set :math:`\mathcal A` of
  :math:`\mu m_*` units and rescales by :math:`1/(1-\mu)`; inputs
  :math:`x\sim\mathcal N(0, I_d)`;
* a mean-field student (18), :math:`f(x) = \frac1m\sum_ic_i\sigma(w_i^\top x)`,
  trained on the source's population loss
  :math:`L = \frac12\mathbb E(f - f_s^*)^2` (exact through the arc-cosine
  kernel) by gradient descent with hand-written gradients: plain steps on c,
  projected steps on the sphere for each :math:`w_i` (App. D.2: hidden
  weights on the sphere, readouts initialized at :math:`10^{-7}`, step
  :math:`0.01m`);
* linear transfer (21): the readout refit on n target samples by least
  squares on fixed features, whose generalization error is computed exactly.

Error theory. A Monte-Carlo mean over N independent samples has standard
error :math:`\hat s/\sqrt N` from the sample standard deviation; the claims
compare with closed forms in units of that error. The in-sample residual of a
least-squares fit on N samples underestimates the population minimum and the
residual of that fit on fresh samples overestimates it, so the two bracket
:math:`\|P_\perp f_t^*\|^2` up to their standard errors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.arguments import as_finite_array, check_iteration_count
from implicit_bias.numerics.relu_kernels import relu_gram, relu_rkhs_projection

__all__ = [
    "AblationSetup",
    "KernelCondensation",
    "MonteCarloEstimate",
    "ProjectionCheck",
    "StudentTraining",
    "ablation_setup",
    "kernel_condensation",
    "kernel_gram_on_inputs",
    "linear_transfer_errors",
    "monte_carlo_overlaps",
    "monte_carlo_projection",
    "relu_features",
    "sample_sphere",
    "source_loss_and_gradients",
    "train_student_on_source",
]

Float64Array = NDArray[np.float64]

#: Rows of inputs processed at once by the Monte-Carlo estimators.
_BATCH = 1 << 14


@dataclass(frozen=True)
class MonteCarloEstimate:
    """A Monte-Carlo mean and its standard error (same shape)."""

    mean: Float64Array
    standard_error: Float64Array


@dataclass(frozen=True)
class AblationSetup:
    r"""The teachers of eqs. (19)-(20).

    Attributes:
      teacher_weights: :math:`(w^*_i)_{i\le m_*}` on the unit sphere, (m_*, d).
      teacher_readout: :math:`c^*`, (m_*,).
      ablated: the sorted indices :math:`\mathcal A`, :math:`|\mathcal A| = \mu m_*`.
      ablated_fraction: :math:`\mu`.
    """

    teacher_weights: Float64Array
    teacher_readout: Float64Array
    ablated: NDArray[np.int64]
    ablated_fraction: float

    @property
    def kept(self) -> NDArray[np.int64]:
        r"""The indices :math:`\mathcal A^c` of the source's units."""
        mask = np.ones(self.teacher_readout.size, dtype=bool)
        mask[self.ablated] = False
        return np.flatnonzero(mask)

    @property
    def source_weights(self) -> Float64Array:
        r""":math:`(w^*_i)_{i\in\mathcal A^c}`, the source's hidden weights."""
        return self.teacher_weights[self.kept]

    @property
    def source_readout(self) -> Float64Array:
        r"""The source (19)'s readout over its own units, :math:`c^*_{\mathcal A^c}`.

        :math:`f_s^* = \frac{1}{|\mathcal A^c|}\sum_{i\in\mathcal A^c}c^*_i\sigma_i`
        and :math:`|\mathcal A^c| = (1-\mu)m_*`.
        """
        return self.teacher_readout[self.kept]


def sample_sphere(count: int, dimension: int, rng: np.random.Generator) -> Float64Array:
    r"""``count`` points uniform on :math:`S^{d-1}`, as rows."""
    points = rng.standard_normal((count, dimension))
    return points / np.linalg.norm(points, axis=1, keepdims=True)


def ablation_setup(
    teacher_width: int,
    dimension: int,
    ablated_fraction: float,
    rng: np.random.Generator,
    *,
    readout: Literal["gaussian", "ones"] = "gaussian",
    teacher: tuple[Float64Array, Float64Array] | None = None,
) -> AblationSetup:
    r"""Draw the teachers of eqs. (19)-(20): ablate :math:`\mu m_*` units at random.

    Args:
      teacher_width: :math:`m_*`.
      dimension: d.
      ablated_fraction: :math:`\mu\in[0,1)`; :math:`\mu m_*` must be an integer.
      rng: the generator.
      readout: :math:`c^*_i\sim\mathcal N(0,1)` (``"gaussian"``) or
        :math:`c^*_i = 1` (``"ones"``).
      teacher: reuse these ``(weights, readout)`` instead of drawing a teacher
        (only the ablated set is drawn).

    Raises:
      InvalidArgumentError: :math:`\mu` outside [0, 1) or :math:`\mu m_*` not
        integral, or an unknown ``readout``.
    """
    check_iteration_count("teacher_width", teacher_width)
    check_iteration_count("dimension", dimension)
    count = ablated_fraction * teacher_width
    if not 0.0 <= ablated_fraction < 1.0 or abs(count - round(count)) > 1e-9:
        raise InvalidArgumentError(
            f"ablated_fraction={ablated_fraction!r} is not in [0, 1) with "
            f"mu * m_* an integer (m_* = {teacher_width}): mu is the fraction of "
            "ablated teacher units"
        )
    if readout not in ("gaussian", "ones"):
        raise InvalidArgumentError(
            f"readout={readout!r} is not 'gaussian' or 'ones': it says how c* is drawn"
        )
    if teacher is None:
        weights = sample_sphere(teacher_width, dimension, rng)
        readouts = (
            rng.standard_normal(teacher_width)
            if readout == "gaussian"
            else np.ones(teacher_width)
        )
    else:
        weights, readouts = teacher
    ablated = np.sort(rng.permutation(teacher_width)[: round(count)])
    return AblationSetup(weights, readouts, ablated.astype(np.int64), ablated_fraction)


def relu_features(inputs: Float64Array, weights: Float64Array) -> Float64Array:
    r""":math:`\sigma(w_i^\top x_a)` for every input row a and weight row i."""
    return np.maximum(inputs @ weights.T, 0.0)


def monte_carlo_overlaps(
    weights: Float64Array,
    other_weights: Float64Array,
    samples: int,
    rng: np.random.Generator,
) -> MonteCarloEstimate:
    r"""Monte Carlo of the overlaps of eq. (152).

    :math:`\mathbb E[\sigma(w_i^\top x)\sigma(v_j^\top x)]` with

    :math:`x\sim\mathcal N(0, I_d)`; the standard error of each entry is
    :math:`\sqrt{(\overline{p^2} - \bar p^2)/N}` with :math:`p` the product.
    """
    check_iteration_count("samples", samples)
    first = as_finite_array("weights", weights, ndim=2)
    second = as_finite_array("other_weights", other_weights, ndim=2)
    total = np.zeros((first.shape[0], second.shape[0]))
    total_squares = np.zeros_like(total)
    done = 0
    while done < samples:
        batch = min(_BATCH, samples - done)
        inputs = rng.standard_normal((batch, first.shape[1]))
        a, b = relu_features(inputs, first), relu_features(inputs, second)
        total += a.T @ b
        total_squares += (a * a).T @ (b * b)
        done += batch
    mean = total / samples
    variance = np.maximum(total_squares / samples - mean * mean, 0.0)
    return MonteCarloEstimate(mean, np.sqrt(variance / samples))


@dataclass(frozen=True)
class ProjectionCheck:
    r"""Monte-Carlo evidence on eqs. (158)-(159) for one model and target.

    Attributes:
      closed_outside: :math:`\|P_\perp f_*\|^2` of eq. (159) (closed form).
      closed_target: :math:`\|f_*\|^2 = c_*^\top K_*c_*/m_*`.
      residual: MC of :math:`\|f_* - v^\top\sigma\|^2` with the closed-form
        projection coefficients v (unbiased).
      target: MC of :math:`\|f_*\|^2` (unbiased).
      orthogonality: MC of :math:`\langle\sigma_i, f_* - v^\top\sigma\rangle`
        (zero for the projection), over i.
      fitted_in_sample: residual of a least-squares fit on ``samples`` inputs,
        on those inputs (biased low).
      fitted_out_of_sample: that fit's residual on fresh inputs (biased high).
    """

    closed_outside: float
    closed_target: float
    residual: MonteCarloEstimate
    target: MonteCarloEstimate
    orthogonality: MonteCarloEstimate
    fitted_in_sample: float
    fitted_out_of_sample: MonteCarloEstimate


def _mean_and_error(values: Float64Array) -> MonteCarloEstimate:
    count = values.shape[0]
    return MonteCarloEstimate(
        np.asarray(values.mean(axis=0)),
        np.asarray(values.std(axis=0, ddof=1) / np.sqrt(count)),
    )


def monte_carlo_projection(
    model_weights: Float64Array,
    target_weights: Float64Array,
    target_readout: Float64Array,
    samples: int,
    rng: np.random.Generator,
) -> ProjectionCheck:
    r"""Eqs. (158)-(159) against Monte Carlo over :math:`x\sim\mathcal N(0, I_d)`.

    The closed form comes from
    :func:`~implicit_bias.numerics.relu_kernels.relu_rkhs_projection`; the
    Monte-Carlo estimates use ``samples`` fresh inputs each (module docstring).
    """
    check_iteration_count("samples", samples)
    projection = relu_rkhs_projection(model_weights, target_weights, target_readout)
    dimension = model_weights.shape[1]
    width = target_weights.shape[0]

    def draw() -> tuple[Float64Array, Float64Array]:
        inputs = rng.standard_normal((samples, dimension))
        target = relu_features(inputs, target_weights) @ target_readout / width
        return relu_features(inputs, model_weights), target

    features, target = draw()
    residual = target - features @ projection.coefficients
    fit, *_ = np.linalg.lstsq(features, target, rcond=None)
    in_sample = float(np.mean((target - features @ fit) ** 2))
    fresh_features, fresh_target = draw()
    return ProjectionCheck(
        closed_outside=projection.outside,
        closed_target=projection.target,
        residual=_mean_and_error(residual**2),
        target=_mean_and_error(target**2),
        orthogonality=_mean_and_error(features * residual[:, None]),
        fitted_in_sample=in_sample,
        fitted_out_of_sample=_mean_and_error(
            (fresh_target - fresh_features @ fit) ** 2
        ),
    )


def linear_transfer_errors(
    model_weights: Float64Array,
    target_weights: Float64Array,
    target_readout: Float64Array,
    sample_sizes: tuple[int, ...],
    repeats: int,
    rng: np.random.Generator,
) -> Float64Array:
    r"""Generalization errors of linear transfer (21), exactly, for each n and draw.

    The model's features are fixed; its readout is refit on n target samples
    (noiseless, :math:`\sigma = 0` as in Fig. 4) by least squares (minimum
    norm where n < m). The error
    :math:`\|f_t^* - \hat v^\top\sigma\|^2
    = \|f_t^*\|^2 - 2\hat v^\top b + \hat v^\top G\hat v`
    is exact through the arc-cosine Gram matrices (:math:`G`, and
    :math:`b = Hc^*/m_*`).

    Returns:
      An array (len(sample_sizes), repeats).
    """
    check_iteration_count("repeats", repeats)
    gram = relu_gram(model_weights)
    cross = relu_gram(model_weights, target_weights) @ target_readout
    width = target_weights.shape[0]
    cross /= width
    target_norm = float(
        target_readout @ relu_gram(target_weights) @ target_readout / width**2
    )
    errors = np.empty((len(sample_sizes), repeats))
    for row, n in enumerate(sample_sizes):
        check_iteration_count("sample size", n)
        for column in range(repeats):
            inputs = rng.standard_normal((n, model_weights.shape[1]))
            features = relu_features(inputs, model_weights)
            labels = relu_features(inputs, target_weights) @ target_readout / width
            fit, *_ = np.linalg.lstsq(features, labels, rcond=None)
            errors[row, column] = target_norm - 2 * fit @ cross + fit @ gram @ fit
    return errors


def kernel_gram_on_inputs(inputs: Float64Array, weights: Float64Array) -> Float64Array:
    r"""The network kernel on sample inputs, the Gram matrix of Fig. 4(a)-(b).

    :math:`\frac1m\sum_i\sigma(w_i^\top x_a)\sigma(w_i^\top x_b)` on the rows of
    ``inputs``.
    """
    features = relu_features(inputs, weights)
    return np.asarray(features @ features.T / weights.shape[0])


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


def _gradient_cross(
    weights: Float64Array, others: Float64Array
) -> tuple[Float64Array, Float64Array]:
    r"""Overlaps of unit weights and the angular factor of their gradients.

    For unit a, b with cosine u and :math:`\theta = \arccos u`, the Riemannian
    gradient of :math:`\kappa(a, b) = k(u)` in a is
    :math:`(\pi-\theta)(b - ua)/(2\pi)` (:math:`k'(u) = (\pi-\theta)/(2\pi)`);
    this returns :math:`(k(u_{ij}), (\pi-\theta_{ij})/(2\pi))`.
    """
    gram = relu_gram(weights, others)
    cosine = np.clip(weights @ others.T, -1.0, 1.0)
    return gram, np.arccos(-cosine) / (2 * np.pi)


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

    Args:
      hidden_weights: the student's unit :math:`(w_i)`, (m, d).
      readout: its c, (m,).
      setup: the teachers.

    Returns:
      ``(loss, readout_gradient, hidden_gradient)`` (the last tangent, (m, d)).
    """
    source_weights, source_readout = setup.source_weights, setup.source_readout
    width, source_width = hidden_weights.shape[0], source_weights.shape[0]
    gram, angular = _gradient_cross(hidden_weights, hidden_weights)
    cross, cross_angular = _gradient_cross(hidden_weights, source_weights)
    source_energy = source_readout @ relu_gram(source_weights) @ source_readout
    model_part = gram @ readout / width**2
    source_part = cross @ source_readout / (width * source_width)
    loss = 0.5 * (
        readout @ model_part
        - 2 * readout @ source_part
        + source_energy / source_width**2
    )
    coupling_model = angular * readout[None, :] / width**2
    coupling_source = cross_angular * source_readout[None, :] / (width * source_width)
    ambient = coupling_model @ hidden_weights - coupling_source @ source_weights
    ambient *= readout[:, None]
    radial = np.sum(ambient * hidden_weights, axis=1, keepdims=True)
    return float(loss), model_part - source_part, ambient - radial * hidden_weights


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

    Gradient descent with steps of size :math:`\eta m` (App. D.2's
    :math:`0.01m`) on :func:`source_loss_and_gradients`:
    :math:`c \leftarrow c - \eta m\,\partial_cL`, and each :math:`w_i` moves
    along its Riemannian gradient and is renormalized to the sphere. Hidden
    weights start uniform on the sphere, readouts at ``readout_init``.
    """
    check_iteration_count("width", width)
    check_iteration_count("steps", steps)
    check_iteration_count("record_every", record_every)
    weights = sample_sphere(width, setup.teacher_weights.shape[1], rng)
    initial = weights.copy()
    readout = np.full(width, readout_init)
    step = learning_rate * width
    losses = []
    for iteration in range(steps):
        loss, readout_gradient, tangent = source_loss_and_gradients(
            weights, readout, setup
        )
        if iteration % record_every == 0:
            losses.append(loss)
        readout = readout - step * readout_gradient
        weights = weights - step * tangent
        weights /= np.linalg.norm(weights, axis=1, keepdims=True)
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
    """
    rng = np.random.default_rng(seed)
    setup = ablation_setup(dimension, teacher_units, ablated_fraction, rng)
    training = train_student_on_source(
        setup, width, steps, rng, learning_rate=learning_rate, record_every=1_000
    )
    inputs = rng.standard_normal((gram_inputs, dimension))
    source = kernel_gram_on_inputs(inputs, setup.source_weights)

    def distance(weights: Float64Array) -> float:
        gram = kernel_gram_on_inputs(inputs, weights)
        return float(np.linalg.norm(gram - source) / np.linalg.norm(source))

    return KernelCondensation(
        setup=setup,
        training=training,
        distance_before=distance(training.initial_hidden_weights),
        distance_after=distance(training.hidden_weights),
        nearest_cosines=np.max(training.hidden_weights @ setup.source_weights.T, 1),
        inputs=inputs,
    )
