r"""The :math:`\alpha\to0` endpoints of features-are-fate (Section 3): their
generalization errors over draws of the target data in closed form
(:func:`endpoint_risks`), and the distances of trained deep linear networks to
them as :math:`\alpha` shrinks (:func:`endpoint_errors`); the argument checks
the experiments share (see :mod:`implicit_bias.validation.transfer_experiments`).
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
    "endpoint_errors",
    "endpoint_risks",
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
