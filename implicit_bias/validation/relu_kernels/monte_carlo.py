r"""Monte Carlo over Gaussian inputs against the closed forms of Appendix C of
features-are-fate: the overlaps of two ReLU units, the projection of the
target on the source's kernel, the linear-transfer (21) errors and the kernel
Gram matrix on inputs; estimates carry their standard errors.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.arguments import (
    check_generator,
    check_integer,
)
from implicit_bias.numerics.relu_kernels import (
    relu_gram,
    relu_rkhs_projection,
)
from implicit_bias.validation.relu_kernels.teachers import (
    Float64Array,
    _BATCH,
    _binary_exponent,
    _features,
    _finite,
    _short,
    _vector,
    _weights,
)

__all__ = [
    "MonteCarloEstimate",
    "ProjectionCheck",
    "kernel_gram_on_inputs",
    "linear_transfer_errors",
    "monte_carlo_overlaps",
    "monte_carlo_projection",
]


@dataclass(frozen=True)
class MonteCarloEstimate:
    """A Monte-Carlo mean and its standard error (same shape)."""

    mean: Float64Array
    standard_error: Float64Array


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
