r"""Monte-Carlo checks of the risk formulas of features-are-fate (Section 3).

Two kinds of samples of the generalization error
:math:`\mathcal R = \|\hat\beta - \beta_t\|^2` (eq. 8 with :math:`x\sim N(0,I)`)
over independent draws of the target data :math:`(X, y = X\beta_t +
\epsilon)`:

* :func:`endpoint_risks` -- the :math:`\alpha\to0` endpoints in closed form
  (scratch :math:`X^+y`; linear transfer :math:`b\beta_s`, eq. 108; ridge
  transfer, eq. 126; fine-tuning, eq. 142 as printed and corrected, see
  :func:`~implicit_bias.numerics.transfer_endpoints.finetune_endpoint`),
  cheap enough for thousands of draws;
* :func:`transferability_slices` -- networks trained by gradient descent
  (:mod:`implicit_bias.validation.deep_linear_networks`) on the figures'
  slices :math:`\theta = \pi/8, \pi/4, 3\pi/8`.

By rotation invariance of :math:`N(0, I_d)` the source and target are
:math:`\beta_s = e_1`, :math:`\beta_t = \cos\theta e_1 + \sin\theta e_2`
without loss of generality.

:func:`compare_mean` turns a sample into a verdict: the mean must lie within
``z`` standard errors (sample standard deviation over :math:`\sqrt{K}`) of the
prediction, widened by a stated bound on the finite-size bias when the
prediction is an :math:`n, d\to\infty` limit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    as_finite_array,
    check_closed_interval,
    check_integer,
    check_real,
    check_seed,
)
from implicit_bias.numerics.transfer_endpoints import (
    finetune_endpoint,
    finetune_endpoint_as_printed,
    linear_transfer_coefficient,
    min_norm_solution,
    rank_one_deviation,
)
from implicit_bias.validation.deep_linear_networks import (
    balanced_initialization,
    finetune,
    linear_transfer,
    pretrain,
    train_from_scratch,
)

__all__ = [
    "ENDPOINT_PREDICTED_ORDERS",
    "EndpointErrors",
    "EndpointRisks",
    "MeanComparison",
    "TransferabilitySlices",
    "TransferabilitySurface",
    "compare_mean",
    "endpoint_errors",
    "endpoint_risks",
    "transferability_slices",
    "transferability_surface",
]

Float64Array = NDArray[np.float64]

#: Draws generated per batch (bounds the memory of the (K, n, d) inputs).
_CHUNK = 64

#: The largest sample ratio :math:`\gamma = n/d` of a trained or simulated
#: grid point. The figures end at :math:`\gamma = 2`; beyond 1e3 one draw of
#: the inputs holds over :math:`1000 d^2` numbers, and near the float64 limit
#: :math:`n = \mathrm{round}(\gamma d)` overflows.
_MAX_GAMMA = 1e3

#: The largest initialization scale :math:`\alpha` of
#: :func:`transferability_slices`. Its L = 2 losses grow like
#: :math:`\alpha^4` and overflow float64 near :math:`\alpha = 10^{77}`; below
#: 1e60 they keep a factor :math:`10^{68}` of room for the data's scale.
_MAX_INIT_SCALE = 1e60


@dataclass(frozen=True, eq=False)
class EndpointRisks:
    r"""Generalization errors of the :math:`\alpha\to0` endpoints over K draws.

    Attributes:
      scratch: :math:`\|X^+y - \beta_t\|^2`, (K,).
      linear: :math:`\|b\beta_s - \beta_t\|^2`, b of eq. (108), (K,).
      ridge: the same for ridge transfer at each of ``ridges``, eq. (126),
        (R, K).
      finetune: the corrected fine-tuning endpoint (n < d; NaN-free: empty
        when n >= d), (K,) or (0,).
      finetune_printed: eq. (142) as printed, (K,) or (0,).
      samples, dimension, theta, sigma, ridges: the configuration.
    """

    scratch: Float64Array
    linear: Float64Array
    ridge: Float64Array
    finetune: Float64Array
    finetune_printed: Float64Array
    samples: int
    dimension: int
    theta: float
    sigma: float
    ridges: Float64Array


def _tasks(dimension: int, theta: float) -> tuple[Float64Array, Float64Array]:
    source = np.zeros(dimension)
    source[0] = 1.0
    target = np.zeros(dimension)
    target[0], target[1] = np.cos(theta), np.sin(theta)
    return source, target


def _labels(
    X: Float64Array, target: Float64Array, sigma: float, rng: np.random.Generator
) -> Float64Array:
    """y = X beta_t + sigma noise, (K, n).

    Raises:
      OutOfRangeError: a label, or a draw's sum of squared labels, lies beyond
        float64, naming ``sigma``: every loss is a mean of squared residuals,
        first of the labels themselves, so the trainers would overflow next
        (and name y and X, not the noise that caused it).
    """
    with np.errstate(over="ignore", invalid="ignore"):
        y = X @ target + sigma * rng.standard_normal(X.shape[:2])
        squares = np.sum(y * y, axis=-1)
    if not (np.isfinite(y).all() and np.isfinite(squares).all()):
        raise OutOfRangeError(
            f"labels with noise sigma={sigma!r} have squared norms beyond float64, "
            "and with them every loss and risk (they grow like sigma^2)"
        )
    return np.asarray(y)


def _describe(values: Float64Array) -> str:
    return repr(values.tolist()) if values.size <= 8 else f"<{values.size} values>"


def _dimension(dimension: int) -> int:
    return check_integer(
        "dimension",
        dimension,
        min_value=2,
        meaning="the input dimension d (source and target need two axes)",
    )


def _draws(draws: int) -> int:
    return check_integer(
        "draws",
        draws,
        min_value=2,
        meaning="the number of draws (a standard error needs two)",
    )


def _theta(theta: float) -> float:
    return check_real(
        "theta",
        theta,
        min_value=0.0,
        max_value=np.pi,
        meaning="the source-target angle, in [0, pi]",
    )


def _sigma(sigma: float) -> float:
    return check_real(
        "sigma", sigma, min_value=0.0, meaning="the label-noise standard deviation"
    )


def _ratio(name: str, gamma: float) -> float:
    """A sample ratio gamma = n/d in (0, 1e3] (:data:`_MAX_GAMMA`), as a float."""
    domain = f"gamma = n/d, in (0, {_MAX_GAMMA:g}]"
    gamma = check_real(name, gamma, meaning=domain)
    if gamma <= 0.0:
        raise InvalidArgumentError(f"{name}={gamma!r} is not > 0: {name} is {domain}")
    if gamma > _MAX_GAMMA:
        raise InvalidArgumentError(
            f"{name}={gamma!r} is above {_MAX_GAMMA:g}: {name} is {domain}; beyond, "
            "n = round(gamma d) samples per draw are out of proportion to the "
            "figures (gamma <= 2)"
        )
    return gamma


def _grid(
    thetas: Sequence[float], gammas: Sequence[float], dimension: int
) -> tuple[Float64Array, Float64Array, list[int]]:
    """Checked angles in [0, pi], ratios in (0, 1e3] and n = round(gamma d) >= 3."""
    angles = as_finite_array("thetas", thetas, ndim=1, shape="(T,)")
    ratios = as_finite_array("gammas", gammas, ndim=1, shape="(G,)")
    for name, values in (("thetas", angles), ("gammas", ratios)):
        if values.size == 0:
            raise InvalidArgumentError(f"{name} is empty: the grid needs a point")
    check_closed_interval(
        "thetas", angles, 0.0, np.pi, "a source-target angle, in [0, pi]"
    )
    sizes = []
    for gamma in ratios:
        samples = round(_ratio("gammas", float(gamma)) * dimension)
        if samples < 3:
            raise InvalidArgumentError(
                f"gammas={float(gamma)!r} gives n = round(gamma d) = {samples} with "
                f"d = {dimension}: eq. (12) is finite only for n > 2"
            )
        sizes.append(samples)
    return angles, ratios, sizes


def endpoint_risks(
    samples: int,
    dimension: int,
    theta: float,
    sigma: float,
    *,
    draws: int,
    seed: int = 0,
    ridges: Sequence[float] = (),
) -> EndpointRisks:
    r"""Generalization errors of the closed-form endpoints over independent draws.

    .. math:: \mathcal R = \|\hat\beta - \beta_t\|^2,\qquad
              \hat\beta\in\{X^+y,\ b\beta_s,\
              \tfrac{\beta_s^\top X^\top y}{\|X\beta_s\|^2 + n\lambda}\beta_s,\
              \beta_{ft}\}

    Args:
      samples: n, an integer >= 3.
      dimension: d, an integer >= 2.
      theta: source-target angle, in :math:`[0, \pi]`.
      sigma: label-noise standard deviation, >= 0.
      draws: K >= 2 independent draws of (X, noise).
      seed: seed of ``np.random.default_rng``, an integer >= 0.
      ridges: ridge parameters :math:`\lambda \ge 0` of eq. (14).

    Returns:
      An :class:`EndpointRisks`.

    Raises:
      InvalidArgumentError: an argument outside its domain (a size below its
        minimum, an angle outside :math:`[0, \pi]`, a negative ridge).
      OutOfRangeError: a risk lies beyond the float64 range (it grows like
        :math:`\sigma^2`: about :math:`\sigma > 10^{150}`).

    Examples:
      >>> risks = endpoint_risks(20, 10, 0.3, 0.1, draws=4)
      >>> risks.scratch.shape, risks.finetune.shape
      ((4,), (0,))

    References:
      Eqs. (8), (108), (126) and (142) of features-are-fate.
    """
    samples = check_integer(
        "samples",
        samples,
        min_value=3,
        meaning="the number of samples n (eq. (12) is finite only for n > 2)",
    )
    dimension = _dimension(dimension)
    theta = _theta(theta)
    sigma = _sigma(sigma)
    draws = _draws(draws)
    seed = check_seed("seed", seed)
    ridge_values = as_finite_array("ridges", ridges).reshape(-1)
    bad = ridge_values < 0
    if bad.any():
        raise InvalidArgumentError(
            f"ridges contains {float(ridge_values[bad][0])!r}: each ridge "
            "parameter lambda must be >= 0"
        )
    source, target = _tasks(dimension, theta)
    rng = np.random.default_rng(seed)
    parts: dict[str, list[Float64Array]] = {
        "scratch": [],
        "linear": [],
        "ridge": [],
        "finetune": [],
        "printed": [],
    }

    def risk(beta: Float64Array) -> Float64Array:
        return np.asarray(np.sum((beta - target) ** 2, axis=-1))

    # Overflow (sigma beyond about 1e150) is reported below, by name.
    with np.errstate(over="ignore", invalid="ignore"):
        for start in range(0, draws, _CHUNK):
            count = min(_CHUNK, draws - start)
            X = rng.standard_normal((count, samples, dimension))
            y = _labels(X, target, sigma, rng)

            scratch = min_norm_solution(X, y)
            parts["scratch"].append(risk(scratch))
            z = X[:, :, 0]  # X beta_s
            power = np.sum(z * z, axis=1)
            moment = np.sum(z * y, axis=1)
            parts["linear"].append(risk((moment / power)[:, None] * source))
            coefficients = moment / (power + samples * ridge_values[:, None])
            parts["ridge"].append(
                np.sum((coefficients[..., None] * source - target) ** 2, axis=-1)
            )
            if samples < dimension:
                parts["finetune"].append(risk(finetune_endpoint(X, y, source)))
                parts["printed"].append(
                    risk(finetune_endpoint_as_printed(X, y, source))
                )
    empty = np.zeros(0)
    risks = EndpointRisks(
        scratch=np.concatenate(parts["scratch"]),
        linear=np.concatenate(parts["linear"]),
        ridge=np.concatenate(parts["ridge"], axis=1),
        finetune=np.concatenate(parts["finetune"]) if parts["finetune"] else empty,
        finetune_printed=(
            np.concatenate(parts["printed"]) if parts["printed"] else empty
        ),
        samples=samples,
        dimension=dimension,
        theta=theta,
        sigma=sigma,
        ridges=ridge_values,
    )
    for name in ("scratch", "linear", "ridge", "finetune", "finetune_printed"):
        if not np.isfinite(getattr(risks, name)).all():
            raise OutOfRangeError(
                f"the {name} risks of sigma={sigma!r} lie beyond the float64 "
                "range: they grow like sigma^2"
            )
    return risks


@dataclass(frozen=True)
class MeanComparison:
    """A Monte-Carlo mean against a prediction.

    Attributes:
      mean: the sample mean, finite.
      standard_error: sample standard deviation over sqrt(K), finite and >= 0.
      predicted: the prediction, finite.
      bias_bound: the finite-size bias allowed for (0 for exact predictions),
        finite and >= 0.
      z: how many standard errors are allowed, finite and > 0.

    The fields are stored as floats; :func:`compare_mean` builds the record
    from a sample.

    Raises:
      InvalidArgumentError: a field outside its domain (a NaN mean would make
        every verdict NaN-based, a negative standard error a wrong one).
    """

    mean: float
    standard_error: float
    predicted: float
    bias_bound: float
    z: float

    def __post_init__(self) -> None:
        domains: dict[str, tuple[float | None, bool, str]] = {
            "mean": (None, False, "the sample mean"),
            "standard_error": (0.0, False, "a standard error (>= 0)"),
            "predicted": (None, False, "the predicted mean"),
            "bias_bound": (0.0, False, "a bound on the finite-size bias (>= 0)"),
            "z": (0.0, True, "the number of standard errors allowed (> 0)"),
        }
        for name, (low, exclusive, meaning) in domains.items():
            value = check_real(
                name,
                getattr(self, name),
                min_value=low,
                exclusive=exclusive,
                meaning=meaning,
            )
            object.__setattr__(self, name, value)

    @property
    def deviation(self) -> float:
        """(mean - predicted) in standard errors.

        +-inf for a constant sample that misses the prediction, and where the
        ratio lies beyond the float64 range.
        """
        with np.errstate(over="ignore"):
            difference = self.mean - self.predicted
        if self.standard_error == 0.0:
            # A constant sample: a float division would raise ZeroDivisionError.
            return 0.0 if difference == 0.0 else float(np.copysign(np.inf, difference))
        if not np.isfinite(difference):
            # mean - predicted overflowed: halving both is exact.
            difference = self.mean / 2 - self.predicted / 2
            return float(np.float64(difference) / np.float64(self.standard_error / 2))
        with np.errstate(over="ignore"):
            return float(np.float64(difference) / np.float64(self.standard_error))

    @property
    def agrees(self) -> bool:
        """|mean - predicted| <= z SE + bias bound."""
        with np.errstate(over="ignore"):
            allowed = self.z * self.standard_error + self.bias_bound
            difference = abs(self.mean - self.predicted)
        if np.isfinite(difference) and np.isfinite(allowed):
            return bool(difference <= allowed)
        # An overflow: the same comparison of halves, all exact.
        with np.errstate(over="ignore"):
            half_allowed = self.z * (self.standard_error / 2) + self.bias_bound / 2
        return bool(abs(self.mean / 2 - self.predicted / 2) <= half_allowed)

    def describe(self) -> str:
        """The comparison in one line: mean +- SE, the prediction, the deviation."""
        return (
            f"mean {self.mean:.5f} +- {self.standard_error:.5f} (SE) vs predicted "
            f"{self.predicted:.5f}: {self.deviation:+.1f} SE"
            + (f", bias bound {self.bias_bound:.1e}" if self.bias_bound else "")
        )


def compare_mean(
    sample: Float64Array, predicted: float, *, z: float = 4.0, bias_bound: float = 0.0
) -> MeanComparison:
    r"""Compare a Monte-Carlo mean with a prediction, within z SE plus a bias bound.

    z = 4 makes a false alarm of a correct formula about 6e-5 per comparison
    (normal approximation of the mean).

    Args:
      sample: K >= 2 finite values (any shape, flattened).
      predicted: the predicted mean, finite.
      z: standard errors allowed, finite and > 0.
      bias_bound: known bound on the finite-size bias of the prediction,
        finite and >= 0.

    Returns:
      A :class:`MeanComparison` (moments of samples near the float64 range
      are computed without overflow).

    Raises:
      InvalidArgumentError: fewer than two values, non-finite values, a
        non-finite prediction, z not finite or <= 0, or a negative or
        non-finite bias bound.

    Examples:
      >>> compare_mean(np.array([1.0, 3.0]), 2.0).agrees
      True
    """
    values = as_finite_array("sample", sample).reshape(-1)
    if values.size < 2:
        raise InvalidArgumentError(
            f"sample has {values.size} values: a standard error needs >= 2"
        )
    predicted = check_real("predicted", predicted, meaning="the predicted mean")
    z = check_real(
        "z",
        z,
        min_value=0.0,
        exclusive=True,
        meaning="the number of standard errors allowed (finite, > 0)",
    )
    bias_bound = check_real(
        "bias_bound",
        bias_bound,
        min_value=0.0,
        meaning="a bound on the finite-size bias of the prediction (>= 0)",
    )
    with np.errstate(over="ignore", invalid="ignore"):
        mean = float(np.mean(values))
        error = float(np.std(values, ddof=1) / np.sqrt(values.size))
    if not (np.isfinite(mean) and np.isfinite(error)):
        # A sum or square overflowed: the same moments of the sample divided
        # by a power of two (exact) cannot, and they scale back exactly.
        exponent = int(np.frexp(np.max(np.abs(values)))[1])
        scaled = np.ldexp(values, -exponent)
        mean = float(np.ldexp(np.mean(scaled), exponent))
        error = float(np.ldexp(np.std(scaled, ddof=1) / np.sqrt(values.size), exponent))
    return MeanComparison(mean, error, predicted, bias_bound, z)


@dataclass(frozen=True, eq=False)
class TransferabilitySlices:
    r"""Risks of gradient-descent-trained networks on slices of Figs. 1(c)/3(c).

    Arrays are (theta, gamma, draw).

    Attributes:
      thetas, gammas: the grid.
      scratch, linear, finetune: generalization errors of the trained networks.
      dimension, sigma, init_scale, seed: the configuration.
    """

    thetas: Float64Array
    gammas: Float64Array
    scratch: Float64Array
    linear: Float64Array
    finetune: Float64Array
    dimension: int
    sigma: float
    init_scale: float
    seed: int

    @property
    def linear_transferability(self) -> Float64Array:
        """Per-draw :math:`\\mathcal R_{sc} - \\mathcal R_{lt}` (eq. 7)."""
        return np.asarray(self.scratch - self.linear)

    @property
    def finetune_transferability(self) -> Float64Array:
        """Per-draw :math:`\\mathcal R_{sc} - \\mathcal R_{ft}` (eq. 7)."""
        return np.asarray(self.scratch - self.finetune)


def transferability_slices(
    thetas: Sequence[float],
    gammas: Sequence[float],
    *,
    dimension: int,
    draws: int,
    sigma: float = 0.2,
    init_scale: float = 1e-5,
    seed: int = 0,
) -> TransferabilitySlices:
    r"""Train L = 2 networks on the figures' setup and record their risks.

    Appendix D.1 of features-are-fate: pretrain on the population loss from
    :math:`\alpha\bar W` (condition 22), then per draw linear transfer,
    fine-tuning and scratch training on :math:`n = \gamma d` samples with
    label noise :math:`\sigma`; the midpoint integrator with the adaptive step
    and the input preconditioner, each phase to a relative excess loss of
    1e-12 (gradient descent's endpoints, see
    :mod:`implicit_bias.validation.deep_linear_networks`).

    Args:
      thetas: source-target angles in :math:`[0, \pi]`, at least one.
      gammas: :math:`\gamma = n/d \in (0, 10^3]`, with
        :math:`n = \mathrm{round}(\gamma d) \ge 3`, at least one.
      dimension: d, an integer >= 2.
      draws: target draws per grid point, an integer >= 2.
      sigma: label-noise standard deviation, >= 0.
      init_scale: :math:`\alpha \in (0, 10^{60}]` (the losses grow like
        :math:`\alpha^4` and overflow float64 near :math:`10^{77}`).
      seed: seed of the draws and the initialization, an integer >= 0.

    Returns:
      A :class:`TransferabilitySlices`.

    Raises:
      InvalidArgumentError: an argument outside its domain (checked before
        training).
      OutOfRangeError: labels or a loss beyond the float64 range (a huge
        ``sigma``: the losses grow like :math:`\sigma^2`).
      ConvergenceError: a network did not converge.

    References:
      Figs. 1(c) and 3(c), eqs. (7), (13), (17) and Appendix D.1 of
      features-are-fate.
    """
    dimension = _dimension(dimension)
    angles, ratios, sizes = _grid(thetas, gammas, dimension)
    draws = _draws(draws)
    sigma = _sigma(sigma)
    init_scale = check_real(
        "init_scale",
        init_scale,
        min_value=0.0,
        exclusive=True,
        meaning="the initialization scale alpha (> 0)",
    )
    if init_scale > _MAX_INIT_SCALE:
        # alpha * W itself overflowed near 1.8e308, with a RuntimeWarning.
        raise InvalidArgumentError(
            f"init_scale={init_scale!r} is above {_MAX_INIT_SCALE:g}: init_scale "
            f"is the initialization scale alpha, in (0, {_MAX_INIT_SCALE:g}]; the "
            "losses grow like alpha^4 and overflow float64 near alpha = 1e77"
        )
    seed = check_seed("seed", seed)
    init = [
        init_scale * W
        for W in balanced_initialization([dimension, dimension], seed=seed)
    ]
    shape = (angles.size, ratios.size, draws)
    scratch, linear, tuned = np.empty(shape), np.empty(shape), np.empty(shape)
    rng = np.random.default_rng(seed)
    for i, theta in enumerate(angles):
        source, target = _tasks(dimension, theta)
        pretrained = pretrain(init, source, tol=1e-12)
        for j, samples in enumerate(sizes):
            X = rng.standard_normal((draws, samples, dimension))
            y = _labels(X, target, sigma, rng)
            runs = {
                "linear": linear_transfer(pretrained.weights, X, y, tol=1e-12),
                "finetune": finetune(
                    pretrained.weights, X, y, preconditioned=True, tol=1e-12
                ),
                "scratch": train_from_scratch(
                    init, X, y, preconditioned=True, tol=1e-12
                ),
            }
            for name, out in (
                ("linear", linear),
                ("finetune", tuned),
                ("scratch", scratch),
            ):
                beta = runs[name].coefficients
                with np.errstate(over="ignore"):
                    out[i, j] = np.sum((beta - target) ** 2, axis=1)
    for name, risks in (("scratch", scratch), ("linear", linear), ("finetune", tuned)):
        if not np.isfinite(risks).all():
            raise OutOfRangeError(
                f"the {name} risks of sigma={sigma!r} lie beyond the float64 "
                "range: they grow like sigma^2"
            )
    return TransferabilitySlices(
        thetas=angles,
        gammas=ratios,
        scratch=scratch,
        linear=linear,
        finetune=tuned,
        dimension=dimension,
        sigma=sigma,
        init_scale=init_scale,
        seed=seed,
    )


@dataclass(frozen=True, eq=False)
class TransferabilitySurface:
    r"""Per-draw transferabilities of the closed-form endpoints on a grid.

    Arrays are (theta, gamma, draw), paired: scratch and transfer on the same
    draws, so :math:`\mathcal R_{sc} - \mathcal R_{tx}` has the variance of a
    difference.

    Attributes:
      thetas, gammas: the grid; n = round(gamma d).
      linear: :math:`\mathcal R_{sc} - \mathcal R_{lt}`.
      finetune: :math:`\mathcal R_{sc} - \mathcal R_{ft}` (corrected eq. 142
        for n < d, 0 above: both endpoints are the least-squares fit).
      dimension, sigma, seed: the configuration.
    """

    thetas: Float64Array
    gammas: Float64Array
    linear: Float64Array
    finetune: Float64Array
    dimension: int
    sigma: float
    seed: int


def transferability_surface(
    thetas: Sequence[float],
    gammas: Sequence[float],
    *,
    dimension: int,
    draws: int,
    sigma: float,
    seed: int = 0,
) -> TransferabilitySurface:
    r"""Monte-Carlo transferability (eq. 7) of the :math:`\alpha\to0` endpoints.

    .. math:: \mathcal T = \mathbb E_{\mathcal D}(\mathcal R_{sc} - \mathcal R_{tx})

    Args:
      thetas: source-target angles in :math:`[0, \pi]`, at least one.
      gammas: :math:`\gamma = n/d \in (0, 10^3]`, n = round(gamma d) >= 3, at
        least one.
      dimension: d, an integer >= 2.
      draws: draws per grid point, an integer >= 2.
      sigma: label-noise standard deviation, >= 0.
      seed: seed, an integer >= 0; grid point (i, j) uses draws seeded by
        (seed, i, j).

    Returns:
      A :class:`TransferabilitySurface`.

    Raises:
      InvalidArgumentError: an argument outside its domain.
      OutOfRangeError: a risk beyond the float64 range (``sigma`` above about
        1e150).

    References:
      Eqs. (7), (13) and (17) and Figs. 1(a) and 3(a) of features-are-fate.
    """
    dimension = _dimension(dimension)
    angles, ratios, sizes = _grid(thetas, gammas, dimension)
    draws = _draws(draws)
    sigma = _sigma(sigma)
    seed = check_seed("seed", seed)
    shape = (angles.size, ratios.size, draws)
    linear, tuned = np.empty(shape), np.zeros(shape)
    for i, theta in enumerate(angles):
        for j, samples in enumerate(sizes):
            risks = endpoint_risks(
                samples,
                dimension,
                theta,
                sigma,
                draws=draws,
                seed=seed * 7919 + 97 * i + j,
            )
            linear[i, j] = risks.scratch - risks.linear
            if risks.finetune.size:
                tuned[i, j] = risks.scratch - risks.finetune
    return TransferabilitySurface(
        thetas=angles,
        gammas=ratios,
        linear=linear,
        finetune=tuned,
        dimension=dimension,
        sigma=sigma,
        seed=seed,
    )


#: Predicted order in alpha of each endpoint error at depth L (derivations in
#: tests/validation/test_deep_linear_networks.py and the claims):
#: scratch 1, rank-one features L - 1, first-layer rank-one residual 1 (eq. 50
#: as printed says 2), linear transfer 2(L - 1), fine-tuning (corrected) 2.
ENDPOINT_PREDICTED_ORDERS = {
    "scratch": lambda depth: 1,
    "rank-one": lambda depth: depth - 1,
    "first-layer": lambda depth: 1,
    "linear": lambda depth: 2 * (depth - 1),
    "finetune": lambda depth: 2,
}


@dataclass(frozen=True, eq=False)
class EndpointErrors:
    r"""Distances of trained networks to the :math:`\alpha\to0` endpoints.

    Attributes:
      alphas: initialization scales, (A,), > 0 and strictly decreasing.
      errors: name -> (A,) largest error over the draws, each > 0: "scratch"
        (:math:`|\beta - X^+y|`), "linear" (:math:`|\beta - b\beta_s|`),
        "finetune" (corrected eq. 142), "printed" (eq. 142 as printed),
        "rank-one" (:math:`\sigma_2/\sigma_1` of :math:`W_1\cdots W_{L-1}`),
        "first-layer" (:math:`\sigma_2/\sigma_1` of the pretrained :math:`W_1`).
      depth: L, an integer >= 2.

    Raises:
      InvalidArgumentError: a field outside its domain (named as
        ``errors['scratch']`` for an entry of ``errors``).
    """

    alphas: Float64Array
    errors: dict[str, Float64Array]
    depth: int

    def __post_init__(self) -> None:
        alphas = as_finite_array("alphas", self.alphas, ndim=1, shape="(A,)")
        if alphas.size == 0 or not (alphas > 0).all() or (np.diff(alphas) >= 0).any():
            raise InvalidArgumentError(
                f"alphas={_describe(alphas)} is not a non-empty, strictly "
                "decreasing sequence of initialization scales > 0"
            )
        if not isinstance(self.errors, Mapping):
            raise InvalidArgumentError(
                f"errors={self.errors!r:.80} is not a mapping: errors maps each "
                "endpoint's name to its errors, one per alpha"
            )
        if not self.errors:
            raise InvalidArgumentError(
                "errors={} is empty: errors maps at least one endpoint's name to "
                "its errors"
            )
        errors = {}
        for name, values in self.errors.items():
            if not isinstance(name, str):
                raise InvalidArgumentError(
                    f"errors has the key {name!r}, not a string: errors maps each "
                    "endpoint's name to its errors"
                )
            label = f"errors[{name!r}]"
            array = as_finite_array(label, values, ndim=1, shape="(A,)")
            # The orders are ratios of logarithms: a zero error has none.
            if array.shape != alphas.shape or not (array > 0).all():
                raise InvalidArgumentError(
                    f"{label}={_describe(array)} is not {alphas.size} errors > 0, "
                    "one per alpha"
                )
            errors[name] = array
        object.__setattr__(self, "alphas", alphas)
        object.__setattr__(self, "errors", errors)
        object.__setattr__(
            self,
            "depth",
            check_integer("depth", self.depth, min_value=2, meaning="the depth L"),
        )

    def orders(self, name: str) -> Float64Array:
        """Observed orders log(e_i / e_{i+1}) / log(alpha_i / alpha_{i+1}), (A - 1,).

        Differences of logarithms, so ratios beyond the float64 range do not
        overflow.

        Raises:
          InvalidArgumentError: ``name`` is not a key of ``errors``.
        """
        if not isinstance(name, str) or name not in self.errors:
            raise InvalidArgumentError(
                f"name={name!r:.80} is not one of the recorded errors "
                f"{sorted(self.errors)}"
            )
        log_e = np.log(self.errors[name])
        log_alpha = np.log(self.alphas)
        return np.asarray(np.diff(log_e) / np.diff(log_alpha))


def endpoint_errors(
    depth: int,
    *,
    alphas: Sequence[float] = (10**-1.5, 1e-2, 10**-2.5),
    dimension: int = 12,
    samples: int = 6,
    draws: int = 3,
    theta: float = 0.8,
    sigma: float = 0.3,
    seed: int = 11,
) -> EndpointErrors:
    r"""Train at several :math:`\alpha` and measure the distance to each limit.

    Pretraining (population loss), linear transfer, fine-tuning and scratch
    training of ``draws`` target sets, every phase to a relative excess loss of
    1e-20, with the unpreconditioned midpoint integrator (gradient descent on
    the losses themselves).

    Args:
      depth: L, an integer >= 2 (all widths equal to ``dimension``).
      alphas: strictly decreasing initialization scales > 0, at least one.
      dimension, samples, draws, theta, sigma, seed: the problem: integers
        :math:`3 \le n \le d` and K >= 2 draws, an angle in
        :math:`[0, \pi]`, noise :math:`\sigma \ge 0` and an integer seed
        >= 0.

    Returns:
      An :class:`EndpointErrors`.

    Raises:
      InvalidArgumentError: an argument outside its domain.
      OutOfRangeError: labels whose squared norms lie beyond float64 (a huge
        ``sigma``, named), or as the trainers of
        :mod:`implicit_bias.validation.deep_linear_networks` (e.g. a huge
        ``alphas`` entry).
      ConvergenceError: as those trainers.

    References:
      Theorems 3.4, 3.5, eqs. (50), (108) and (142) of features-are-fate.
    """
    depth = check_integer("depth", depth, min_value=2, meaning="the depth L")
    scales = as_finite_array("alphas", alphas, ndim=1, shape="(A,)")
    if scales.size == 0 or not (scales > 0).all() or (np.diff(scales) >= 0).any():
        raise InvalidArgumentError(
            f"alphas={_describe(scales)} is not a non-empty, strictly decreasing "
            "sequence of initialization scales > 0"
        )
    dimension = _dimension(dimension)
    samples = check_integer(
        "samples",
        samples,
        min_value=3,
        max_value=dimension,
        meaning="the number of samples n, 3 <= n <= d (eq. 142 is the n <= d case)",
    )
    draws = _draws(draws)
    theta = _theta(theta)
    sigma = _sigma(sigma)
    seed = check_seed("seed", seed)
    rng = np.random.default_rng(seed)
    source = rng.standard_normal(dimension)
    source /= np.linalg.norm(source)
    other = rng.standard_normal(dimension)
    other -= (other @ source) * source
    other /= np.linalg.norm(other)
    target = np.cos(theta) * source + np.sin(theta) * other
    X = rng.standard_normal((draws, samples, dimension))
    y = _labels(X, target, sigma, rng)
    bar = balanced_initialization([dimension] * depth, count=draws, seed=seed + 1)
    b = linear_transfer_coefficient(X, y, source)
    limits = {
        "linear": b[:, None] * source,
        "finetune": finetune_endpoint(X, y, source, depth=depth),
        "printed": finetune_endpoint_as_printed(X, y, source),
        "scratch": min_norm_solution(X, y),
    }
    errors: dict[str, list[float]] = {}
    for alpha in scales:
        init = [alpha * W for W in bar]
        pre = pretrain([W[:1] for W in init], source)
        features = pre.weights[0]
        for W in pre.weights[1:-1]:
            features = features @ W
        trained = {
            "linear": linear_transfer(pre.weights, X, y),
            "finetune": finetune(pre.weights, X, y),
            "scratch": train_from_scratch(init, X, y),
        }
        trained["printed"] = trained["finetune"]
        for name, limit in limits.items():
            distance = np.linalg.norm(trained[name].coefficients - limit, axis=1)
            errors.setdefault(name, []).append(float(np.max(distance)))
        errors.setdefault("rank-one", []).append(float(rank_one_deviation(features)[0]))
        errors.setdefault("first-layer", []).append(
            float(rank_one_deviation(pre.weights[0])[0])
        )
    return EndpointErrors(
        alphas=scales,
        errors={k: np.asarray(v) for k, v in errors.items()},
        depth=depth,
    )
