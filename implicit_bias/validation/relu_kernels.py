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

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from implicit_bias.errors import ConvergenceError, InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    as_finite_array,
    check_generator,
    check_integer,
    check_real,
    check_seed,
)
from implicit_bias.numerics.relu_kernels import (
    relu_gram,
    relu_kernel_and_derivative,
    relu_rkhs_projection,
)
from implicit_bias.validation.relu_networks import UNIT_NORM_TOLERANCE

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
#: Row norms accepted where the arc-cosine Gram is formed: relu_gram forms the
#: norms' products and the cosines in float64 (see its module).
_MAX_NORM = 1e150
_MIN_NORM = 1e-150


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
    r"""``count`` points uniform on :math:`S^{d-1}`, as rows.

    .. math:: w = g/\|g\|_2,\qquad g\sim\mathcal N(0, I_d)

    Args:
      count: the number of points, >= 1.
      dimension: d, >= 1.
      rng: the generator.

    Returns:
      An array (count, d) of unit rows.

    Raises:
      InvalidArgumentError: ``count`` or ``dimension`` is not an integer >= 1,
        or ``rng`` is not a ``numpy.random.Generator``.
    """
    count_ = check_integer("count", count, min_value=1, meaning="a number of points")
    d = check_integer("dimension", dimension, min_value=1, meaning="the dimension d")
    generator = check_generator("rng", rng)
    return _sphere(count_, d, generator)


def _sphere(count: int, dimension: int, rng: np.random.Generator) -> Float64Array:
    points = rng.standard_normal((count, dimension))
    return np.asarray(points / np.linalg.norm(points, axis=1, keepdims=True))


def _weights(
    name: str,
    value: object,
    *,
    unit: bool = False,
    gram: bool = False,
    dimension: tuple[str, int] | None = None,
) -> Float64Array:
    """A finite, non-empty (m, d) weight matrix, or InvalidArgumentError naming it.

    ``unit``: rows on the unit sphere within :data:`UNIT_NORM_TOLERANCE`.
    ``gram``: row norms 0 or in ``[_MIN_NORM, _MAX_NORM]``, where the
    arc-cosine Gram forms norms and cosines in float64. ``dimension``: the
    (name, d) of an argument whose d this one must share.
    """
    weights = as_finite_array(name, value, ndim=2, shape="(m, d)")  # type: ignore[arg-type]
    if weights.shape[0] == 0 or weights.shape[1] == 0:
        raise InvalidArgumentError(
            f"{name} has shape {weights.shape}: {name} must hold at least one "
            "weight vector (row) of dimension d >= 1"
        )
    if dimension is not None and weights.shape[1] != dimension[1]:
        raise InvalidArgumentError(
            f"{name} has dimension {weights.shape[1]} but {dimension[0]} has "
            f"{dimension[1]}: both are weights in R^d"
        )
    if unit or gram:
        with np.errstate(over="ignore", under="ignore"):
            norms = np.linalg.norm(weights, axis=1)
        if unit and not np.all(np.abs(norms - 1.0) <= UNIT_NORM_TOLERANCE):
            bad = float(norms[~(np.abs(norms - 1.0) <= UNIT_NORM_TOLERANCE)][0])
            raise InvalidArgumentError(
                f"{name} has a row of norm {bad!r}: the rows of {name} lie on the "
                f"unit sphere (norm 1 within {UNIT_NORM_TOLERANCE:g})"
            )
        outside = (norms > _MAX_NORM) | ((norms > 0) & (norms < _MIN_NORM))
        if gram and outside.any():
            raise InvalidArgumentError(
                f"{name} has a row of norm {float(norms[outside][0])!r}: the rows "
                f"of {name} must have norms 0 or in [{_MIN_NORM:g}, {_MAX_NORM:g}], "
                "where the arc-cosine Gram matrix is formed in float64"
            )
    return weights


def _vector(name: str, value: object, size: tuple[str, int]) -> Float64Array:
    """A finite vector of ``size[1]`` entries (one per row of ``size[0]``)."""
    vector = as_finite_array(name, value, ndim=1, shape="(m,)")  # type: ignore[arg-type]
    if vector.shape[0] != size[1]:
        raise InvalidArgumentError(
            f"{name} has {vector.shape[0]} entries but {size[0]} has {size[1]} "
            f"rows: {name} has one entry per unit"
        )
    return vector


def _check_ablation(name: str, setup: object) -> AblationSetup:
    """Check an :class:`AblationSetup` (its fields are named ``name.field``)."""
    if not isinstance(setup, AblationSetup):
        raise InvalidArgumentError(
            f"{name}={setup!r:.80} is not an AblationSetup: {name} holds the "
            "teachers of eqs. (19)-(20) (see ablation_setup)"
        )
    weights = _weights(f"{name}.teacher_weights", setup.teacher_weights, unit=True)
    _vector(
        f"{name}.teacher_readout",
        setup.teacher_readout,
        (f"{name}.teacher_weights", weights.shape[0]),
    )
    ablated = np.asarray(setup.ablated)
    width = weights.shape[0]
    if (
        ablated.ndim != 1
        or ablated.dtype.kind not in "iu"
        or np.any(ablated < 0)
        or np.any(ablated >= width)
        or np.unique(ablated).size != ablated.size
        or ablated.size >= width
    ):
        raise InvalidArgumentError(
            f"{name}.ablated={_short(setup.ablated)} is not a set of fewer than "
            f"m_* = {width} distinct unit indices in [0, m_*): it is the ablated "
            "set A of eq. (19), and the source keeps at least one unit"
        )
    return setup


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


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

    .. math:: f_s^* = \frac{1}{(1-\mu)m_*}\sum_{i\notin\mathcal A}c^*_i
              \sigma(w_i^{*\top}x),\qquad |\mathcal A| = \mu m_*

    Args:
      teacher_width: :math:`m_*`, >= 1.
      dimension: d, >= 1.
      ablated_fraction: :math:`\mu\in[0,1)`; :math:`\mu m_*` must be an integer.
      rng: the generator.
      readout: :math:`c^*_i\sim\mathcal N(0,1)` (``"gaussian"``) or
        :math:`c^*_i = 1` (``"ones"``).
      teacher: reuse these ``(weights, readout)`` instead of drawing a teacher
        (only the ablated set is drawn): unit rows (m_*, d) and (m_*,).

    Returns:
      An :class:`AblationSetup`.

    Raises:
      InvalidArgumentError: :math:`\mu` outside [0, 1) or :math:`\mu m_*` not
        integral, an unknown ``readout``, a ``teacher`` of other shapes,
        non-unit rows or non-finite entries, a width or dimension that is not
        an integer >= 1, or an ``rng`` that is not a Generator.
    """
    width = check_integer(
        "teacher_width", teacher_width, min_value=1, meaning="m_*, the teacher's units"
    )
    d = check_integer("dimension", dimension, min_value=1, meaning="the dimension d")
    fraction = check_real(
        "ablated_fraction",
        ablated_fraction,
        meaning="mu, the fraction of ablated teacher units, in [0, 1)",
    )
    count = fraction * width
    if not 0.0 <= fraction < 1.0 or abs(count - round(count)) > 1e-9:
        raise InvalidArgumentError(
            f"ablated_fraction={ablated_fraction!r} is not in [0, 1) with "
            f"mu * m_* an integer (m_* = {width}): mu is the fraction of "
            "ablated teacher units"
        )
    if not isinstance(readout, str) or readout not in ("gaussian", "ones"):
        raise InvalidArgumentError(
            f"readout={readout!r} is not 'gaussian' or 'ones': it says how c* is drawn"
        )
    generator = check_generator("rng", rng)
    if teacher is None:
        weights = _sphere(width, d, generator)
        readouts = (
            generator.standard_normal(width)
            if readout == "gaussian"
            else np.ones(width)
        )
    else:
        if not isinstance(teacher, tuple | list) or len(teacher) != 2:
            raise InvalidArgumentError(
                f"teacher={_short(teacher)} is not a pair (weights, readout): "
                "teacher is a teacher network to reuse"
            )
        weights = _weights("teacher[0]", teacher[0], unit=True)
        if weights.shape != (width, d):
            raise InvalidArgumentError(
                f"teacher[0] has shape {weights.shape}: the teacher's weights must "
                f"be (teacher_width, dimension) = ({width}, {d})"
            )
        readouts = _vector("teacher[1]", teacher[1], ("teacher[0]", width))
    ablated = np.sort(generator.permutation(width)[: round(count)])
    return AblationSetup(weights, readouts, ablated.astype(np.int64), fraction)


def relu_features(inputs: Float64Array, weights: Float64Array) -> Float64Array:
    r""":math:`\sigma(w_i^\top x_a)` for every input row a and weight row i.

    .. math:: \Phi_{ai} = \max(w_i^\top x_a, 0)

    Args:
      inputs: the rows :math:`x_a`, (n, d), n >= 1.
      weights: the rows :math:`w_i`, (m, d), m >= 1.

    Returns:
      The features, (n, m).

    Raises:
      InvalidArgumentError: an array is not finite, not 2-D, empty, or the
        dimensions differ.
      OutOfRangeError: a feature overflows float64 (rescale the inputs or the
        weights: :math:`\sigma` is positively homogeneous).
    """
    x = _weights("inputs", inputs)
    w = _weights("weights", weights, dimension=("inputs", x.shape[1]))
    return _finite(_features(x, w), "the features", "inputs and weights")


def _features(inputs: Float64Array, weights: Float64Array) -> Float64Array:
    with np.errstate(over="ignore", invalid="ignore"):
        return np.maximum(inputs @ weights.T, 0.0)


def _finite(value: Float64Array, what: str, rescale: str) -> Float64Array:
    """``value`` if every entry is finite, else OutOfRangeError saying what to do."""
    if not np.all(np.isfinite(value)):
        raise OutOfRangeError(
            f"{what} overflow float64: rescale {rescale} (the quantities are "
            "positively homogeneous in them)"
        )
    return value


def _binary_exponent(weights: Float64Array) -> int:
    """e with ``max|weights| * 2^-e`` in [0.5, 1) (0 for a zero array)."""
    largest = float(np.max(np.abs(weights)))
    return int(np.frexp(largest)[1]) if largest > 0 else 0


def monte_carlo_overlaps(
    weights: Float64Array,
    other_weights: Float64Array,
    samples: int,
    rng: np.random.Generator,
) -> MonteCarloEstimate:
    r"""Monte Carlo of the overlaps of eq. (152).

    .. math:: \mathbb E[\sigma(w_i^\top x)\sigma(v_j^\top x)],\qquad
              x\sim\mathcal N(0, I_d);

    the standard error of each entry is
    :math:`\sqrt{(\overline{p^2} - \bar p^2)/N}` with :math:`p` the product.
    Each weight matrix is scaled by a power of two to entries below 1 before
    the products are formed and the results scaled back (exact in binary
    floating point), so the fourth powers of :math:`\overline{p^2}` do not
    overflow while the overlaps themselves fit in float64.

    Args:
      weights: :math:`(w_i)`, (m, d).
      other_weights: :math:`(v_j)`, (m', d).
      samples: N, >= 1.
      rng: the generator.

    Returns:
      A :class:`MonteCarloEstimate` of shape (m, m').

    Raises:
      InvalidArgumentError: an array is not finite, 2-D, non-empty, the
        dimensions differ, ``samples`` is not an integer >= 1, or ``rng`` is
        not a Generator.
      OutOfRangeError: an overlap or its standard error exceeds float64.
    """
    first = _weights("weights", weights)
    second = _weights(
        "other_weights", other_weights, dimension=("weights", first.shape[1])
    )
    count = check_integer("samples", samples, min_value=1, meaning="a sample count")
    generator = check_generator("rng", rng)
    first_exponent, second_exponent = _binary_exponent(first), _binary_exponent(second)
    first = np.ldexp(first, -first_exponent)
    second = np.ldexp(second, -second_exponent)
    total = np.zeros((first.shape[0], second.shape[0]))
    total_squares = np.zeros_like(total)
    done = 0
    while done < count:
        batch = min(_BATCH, count - done)
        inputs = generator.standard_normal((batch, first.shape[1]))
        a, b = _features(inputs, first), _features(inputs, second)
        total += a.T @ b
        total_squares += (a * a).T @ (b * b)
        done += batch
    mean = total / count
    variance = np.maximum(total_squares / count - mean * mean, 0.0)
    exponent = first_exponent + second_exponent
    with np.errstate(over="ignore"):
        scaled_mean = np.ldexp(mean, exponent)
        scaled_error = np.ldexp(np.sqrt(variance / count), exponent)
    rescale = "weights or other_weights"
    return MonteCarloEstimate(
        _finite(scaled_mean, "the overlaps", rescale),
        _finite(scaled_error, "the standard errors", rescale),
    )


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


def _target_arguments(
    model_weights: object, target_weights: object, target_readout: object
) -> tuple[Float64Array, Float64Array, Float64Array]:
    model = _weights("model_weights", model_weights, gram=True)
    target = _weights(
        "target_weights",
        target_weights,
        gram=True,
        dimension=("model_weights", model.shape[1]),
    )
    readout = _vector("target_readout", target_readout, ("target_weights", len(target)))
    return model, target, readout


def monte_carlo_projection(
    model_weights: Float64Array,
    target_weights: Float64Array,
    target_readout: Float64Array,
    samples: int,
    rng: np.random.Generator,
) -> ProjectionCheck:
    r"""Eqs. (158)-(159) against Monte Carlo over :math:`x\sim\mathcal N(0, I_d)`.

    .. math:: \|P_\perp f_*\|^2 = \mathbb E\big(f_*(x) - v^\top\sigma(Wx)\big)^2

    The closed form comes from
    :func:`~implicit_bias.numerics.relu_kernels.relu_rkhs_projection`; the
    Monte-Carlo estimates use ``samples`` fresh inputs each (module docstring).

    Args:
      model_weights: the model's :math:`(w_i)`, (m, d), row norms 0 or in
        [1e-150, 1e150].
      target_weights: the target's :math:`(w^*_j)`, (m_*, d), likewise.
      target_readout: :math:`c^*`, (m_*,).
      samples: inputs per estimate, >= 2 (a standard error needs two).
      rng: the generator.

    Returns:
      A :class:`ProjectionCheck`.

    Raises:
      InvalidArgumentError: an array is not finite, of the wrong shape, or
        has row norms outside that range, ``samples`` is not an integer >= 2,
        or ``rng`` is not a Generator.
      OutOfRangeError: the target or a squared residual overflows float64
        (rescale ``target_readout``).
    """
    model, target_w, readout = _target_arguments(
        model_weights, target_weights, target_readout
    )
    count = check_integer(
        "samples", samples, min_value=2, meaning="a sample count (>= 2)"
    )
    generator = check_generator("rng", rng)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        projection = relu_rkhs_projection(model, target_w, readout)
    dimension = model.shape[1]
    width = target_w.shape[0]
    rescale = "target_readout or the weights"

    def draw() -> tuple[Float64Array, Float64Array]:
        inputs = generator.standard_normal((count, dimension))
        with np.errstate(over="ignore", invalid="ignore"):
            target = _features(inputs, target_w) @ readout / width
        features = _finite(_features(inputs, model), "the features", rescale)
        return features, _finite(target, "the target's values", rescale)

    features, target = draw()
    with np.errstate(over="ignore", invalid="ignore"):
        residual = target - features @ projection.coefficients
        fit, *_ = np.linalg.lstsq(features, target, rcond=None)
        in_sample = float(np.mean((target - features @ fit) ** 2))
        fresh_features, fresh_target = draw()
        check = ProjectionCheck(
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
    values = [check.closed_outside, check.closed_target, check.fitted_in_sample]
    for estimate in (
        check.residual,
        check.target,
        check.orthogonality,
        check.fitted_out_of_sample,
    ):
        values.extend(np.ravel(estimate.mean))
        values.extend(np.ravel(estimate.standard_error))
    _finite(np.asarray(values), "the squared residuals", rescale)
    return check


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

    .. math:: \|f_t^* - \hat v^\top\sigma\|^2
              = \|f_t^*\|^2 - 2\hat v^\top b + \hat v^\top G\hat v

    is exact through the arc-cosine Gram matrices (:math:`G`, and
    :math:`b = Hc^*/m_*`).

    Args:
      model_weights: the model's :math:`(w_i)`, (m, d), row norms 0 or in
        [1e-150, 1e150].
      target_weights: the target's :math:`(w^*_j)`, (m_*, d), likewise.
      target_readout: :math:`c^*`, (m_*,).
      sample_sizes: the n, a non-empty sequence of integers >= 1.
      repeats: draws per n, >= 1.
      rng: the generator.

    Returns:
      An array (len(sample_sizes), repeats).

    Raises:
      InvalidArgumentError: an array is not finite, of the wrong shape, or
        has row norms outside that range, ``sample_sizes`` is not a non-empty
        sequence of integers >= 1, ``repeats`` is not an integer >= 1, or
        ``rng`` is not a Generator.
      OutOfRangeError: an error overflows float64 (rescale ``target_readout``).
    """
    model, target_w, readout = _target_arguments(
        model_weights, target_weights, target_readout
    )
    if isinstance(sample_sizes, str | bytes) or not isinstance(
        sample_sizes, tuple | list | np.ndarray
    ):
        raise InvalidArgumentError(
            f"sample_sizes={_short(sample_sizes)} is not a sequence of integers: "
            "sample_sizes lists the numbers n of target samples"
        )
    sizes = [
        check_integer(
            f"sample_sizes[{index}]", n, min_value=1, meaning="a number of samples"
        )
        for index, n in enumerate(sample_sizes)
    ]
    if not sizes:
        raise InvalidArgumentError(
            "sample_sizes=() is empty: it needs at least one number of samples"
        )
    draws = check_integer("repeats", repeats, min_value=1, meaning="a number of draws")
    generator = check_generator("rng", rng)
    width = target_w.shape[0]
    errors = np.empty((len(sizes), draws))
    with np.errstate(over="ignore", invalid="ignore"):
        gram = relu_gram(model)
        cross = relu_gram(model, target_w) @ readout
        cross /= width
        target_norm = float(readout @ relu_gram(target_w) @ readout / width**2)
        for row, n in enumerate(sizes):
            for column in range(draws):
                inputs = generator.standard_normal((n, model.shape[1]))
                features = _features(inputs, model)
                labels = _finite(
                    _features(inputs, target_w) @ readout / width,
                    "the target's values",
                    "target_readout",
                )
                fit, *_ = np.linalg.lstsq(features, labels, rcond=None)
                errors[row, column] = target_norm - 2 * fit @ cross + fit @ gram @ fit
    return _finite(errors, "the generalization errors", "target_readout")


def kernel_gram_on_inputs(inputs: Float64Array, weights: Float64Array) -> Float64Array:
    r"""The network kernel on sample inputs, the Gram matrix of Fig. 4(a)-(b).

    .. math:: K_{ab} = \frac1m\sum_i\sigma(w_i^\top x_a)\sigma(w_i^\top x_b)

    on the rows of ``inputs``.

    Args:
      inputs: the rows :math:`x_a`, (n, d).
      weights: the rows :math:`w_i`, (m, d).

    Returns:
      K, (n, n).

    Raises:
      InvalidArgumentError: an array is not finite, 2-D, non-empty, or the
        dimensions differ.
      OutOfRangeError: K overflows float64 (rescale inputs or weights).
    """
    x = _weights("inputs", inputs)
    w = _weights("weights", weights, dimension=("inputs", x.shape[1]))
    rescale = "inputs and weights"
    features = _finite(_features(x, w), "the features", rescale)
    with np.errstate(over="ignore", invalid="ignore"):
        gram = np.asarray(features @ features.T / w.shape[0])
    return _finite(gram, "the kernel Gram matrix", rescale)


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
