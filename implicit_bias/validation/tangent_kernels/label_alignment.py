r"""The Figure 1 experiment of adaptive-tangent-features: two Gaussian classes,
linear and binary targets, and the alignment of the adapted kernel with the
label kernel, per seed (:func:`label_alignment_trial`) and over seeds
(:func:`label_alignment_study`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields

import numpy as np

from implicit_bias.errors import ConvergenceError, InvalidArgumentError
from implicit_bias.numerics.arguments import (
    check_integer,
    check_iteration_count,
    check_real,
    check_seed,
)
from implicit_bias.validation.tangent_kernels.mlp import (
    Float64Array,
    Weights,
    _check_widths,
    _forward,
    _tangent_features,
    average_tangent_features,
    initialize_mlp,
    mlp_outputs,
    train_mlp,
)
from implicit_bias.validation.tangent_kernels.kernels import (
    kernel_alignment,
    label_kernel,
)

__all__ = [
    "LabelAlignmentStudy",
    "LabelAlignmentTrial",
    "label_alignment_study",
    "label_alignment_trial",
    "two_class_inputs",
]


@dataclass(frozen=True, eq=False)
class LabelAlignmentTrial:
    r"""One seed of the Figure 1 experiment: both tasks, both kernels.

    Attributes:
      linear_alignment: :math:`\cos(K, K_{\hat y})` after training on y.
      sign_alignment: :math:`\cos(K, K_{\hat y})` after training on sign(y).
      linear_initial_alignment: :math:`\cos(K_0, K_{\hat y})`, linear task.
      sign_initial_alignment: :math:`\cos(K_0, K_{\hat y})`, binary task.
      linear_norm: :math:`\|\hat\beta\|_2` of eq. (5) with
        :math:`\tilde\Omega = \|\cdot\|_2` (the NTK interpolant) for y,
        relative to :math:`\|y - f_{\theta_0}\|` (the minimum-norm
        least-squares solution where :math:`J_0` lacks full row rank).
      sign_norm: the same for sign(y).
      linear_loss: final relative training loss, linear task.
      sign_loss: final relative training loss, binary task.
      linear_readout_share: the readout's share of the kernel change,
        :math:`\|\Delta K_L\|_F/\sum_\ell\|\Delta K_\ell\|_F` with
        :math:`\Delta K_\ell = \bar J_\ell\bar J_\ell^\top - J_{0\ell}J_{0\ell}^\top`
        the change of layer :math:`\ell`'s block (eq. 19), linear task.
      sign_readout_share: the same, binary task.
      linear_difficulty_correlation: Spearman's rank correlation, over the
        training points, of :math:`|y_i|` (the linear targets: small where a
        point is hard for the binarized task) with the change of the kernel's
        diagonal :math:`K(x_i, x_i) - K_0(x_i, x_i)`, linear task (Figure 3).
      sign_difficulty_correlation: the same, binary task.
    """

    linear_alignment: float
    sign_alignment: float
    linear_initial_alignment: float
    sign_initial_alignment: float
    linear_norm: float
    sign_norm: float
    linear_loss: float
    sign_loss: float
    linear_readout_share: float
    sign_readout_share: float
    linear_difficulty_correlation: float
    sign_difficulty_correlation: float


@dataclass(frozen=True, eq=False)
class LabelAlignmentStudy:
    r"""The Figure 1 experiment over several seeds.

    Attributes:
      trials: one :class:`LabelAlignmentTrial` per seed.
    """

    trials: tuple[LabelAlignmentTrial, ...]

    def values(self, name: str) -> Float64Array:
        """The field ``name`` of every trial, as a float64 array, (S,).

        Raises:
          InvalidArgumentError: ``name`` is not a field of
            :class:`LabelAlignmentTrial` (the message lists them).
        """
        names = [field.name for field in fields(LabelAlignmentTrial)]
        if not isinstance(name, str) or name not in names:
            # getattr(trial, name) raised a raw AttributeError (TypeError for
            # a name that is no string), and would read a method's name too.
            raise InvalidArgumentError(
                f"name={name!r:.80} is not a field of LabelAlignmentTrial: name is "
                f"one of {names}"
            )
        return np.array([getattr(trial, name) for trial in self.trials], dtype=float)

    @property
    def differences(self) -> Float64Array:
        """Per seed, sign-task alignment minus linear-task alignment."""
        return self.values("sign_alignment") - self.values("linear_alignment")

    @property
    def mean_difference(self) -> float:
        """The mean of :attr:`differences`."""
        return float(np.mean(self.differences))

    @property
    def standard_error(self) -> float:
        r"""Standard error of the mean difference, :math:`s/\sqrt{n}`."""
        differences = self.differences
        if differences.size < 2:
            return math.inf
        return float(np.std(differences, ddof=1) / math.sqrt(differences.size))


# ------------------------------------------------------------------ Figure 1


def two_class_inputs(
    samples: int, dimension: int, *, separation: float = 1.5, seed: int = 0
) -> tuple[Float64Array, Float64Array]:
    r"""Two Gaussian classes, each input normalized to zero mean, unit variance.

    .. math:: x = \pm\,\tfrac{\Delta}{2}\,u + \xi,\quad \xi\sim\mathcal N(0, I_D),
              \qquad x \leftarrow (x - \bar x)/\mathrm{sd}(x)

    A synthetic stand-in for the MNIST digits 2 and 3 of Appendix B.1. Let
    :math:`\Delta` be ``separation`` and u a random unit vector.

    Args:
      samples: N, an integer >= 2 (half per class, rounded).
      dimension: D, an integer >= 2.
      separation: distance between the class means, a finite number > 0.
      seed: seed of ``numpy.random.default_rng``, an integer >= 0.

    Returns:
      (inputs (N, D), labels (N,) in {-1, +1}).

    Examples:
      >>> x, labels = two_class_inputs(6, 4, seed=0)
      >>> bool(np.allclose(x.mean(axis=1), 0) and np.allclose(x.std(axis=1), 1))
      True

    References:
      Appendix B.1 of adaptive-tangent-features (data preparation).
    """
    count = check_integer(
        "samples", samples, min_value=2, meaning="the number of inputs (two classes)"
    )
    size = check_integer(
        "dimension",
        dimension,
        min_value=2,
        meaning="the input dimension (a per-input variance needs two entries)",
    )
    gap = check_real(
        "separation",
        separation,
        min_value=0.0,
        exclusive=True,
        meaning="the distance between the class means (> 0)",
    )
    rng = np.random.default_rng(check_seed("seed", seed))
    direction = rng.standard_normal(size)
    direction /= np.linalg.norm(direction)
    labels = np.where(np.arange(count) % 2 == 0, 1.0, -1.0)
    x = 0.5 * gap * labels[:, None] * direction + rng.standard_normal((count, size))
    # Normalization does not depend on a row's scale; dividing each row by a
    # power of two near its largest entry is exact and keeps the squares of
    # the variance finite for separations up to the float64 range.
    _, exponents = np.frexp(np.max(np.abs(x), axis=1, keepdims=True))
    x = np.ldexp(x, -exponents)
    x = (x - x.mean(axis=1, keepdims=True)) / x.std(axis=1, keepdims=True)
    return x, labels


def _penultimate(layers: Weights, x: Float64Array) -> Float64Array:
    activations, _ = _forward(layers, x)
    return activations[-1]


def _power_of_two_above(*arrays: Float64Array) -> int:
    """e with max|entry| < 2^e (0 for zero arrays): dividing by 2^e is exact."""
    largest = max(float(np.max(np.abs(array))) for array in arrays)
    return math.frexp(largest)[1]


def _readout_share(
    initial_features: Float64Array,
    averaged: Float64Array,
    kernel_change: Float64Array,
    readout_size: int,
) -> float:
    """||dK_L||_F / (||dK_L||_F + ||dK_hidden||_F), the blocks of eq. (19).

    NaN when the kernel did not change at all (0/0): the caller refuses that.
    """
    before = initial_features[:, -readout_size:]
    after = averaged[:, -readout_size:]
    readout = after @ after.T - before @ before.T
    readout_norm = float(np.linalg.norm(readout))
    hidden_norm = float(np.linalg.norm(kernel_change - readout))
    total = readout_norm + hidden_norm
    return readout_norm / total if total > 0.0 else math.nan


def _ranks(values: Float64Array) -> Float64Array:
    """0-based ranks of ``values``, tied values sharing their average rank."""
    _, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    starts = np.cumsum(counts) - counts
    return np.asarray((starts + (counts - 1) / 2.0)[inverse], dtype=np.float64)


def _rank_correlation(first: Float64Array, second: Float64Array) -> float:
    """Spearman's rank correlation: Pearson's of the ranks (ties averaged).

    NaN when either vector is constant (its ranks carry no order).
    """
    ranks = [_ranks(values) for values in (first, second)]
    centred = [r - r.mean() for r in ranks]
    scale = math.sqrt(float(centred[0] @ centred[0]) * float(centred[1] @ centred[1]))
    return float(centred[0] @ centred[1]) / scale if scale > 0.0 else math.nan


def _relative_interpolant_norm(features: Float64Array, residual: Float64Array) -> float:
    r""":math:`\|\hat\beta\|/\|r\|` of the minimum-norm :math:`J_0\beta = r`.

    :math:`\hat\beta = J_0^+ r`, by least squares on :math:`J_0` itself (not
    its kernel, whose condition number is the square of J_0's). Where
    :math:`J_0` does not have full row rank (more samples than the features
    span, or units off on some inputs) this is the minimum-norm
    least-squares solution, the limit of the interpolant's formula.
    """
    beta = np.linalg.lstsq(features, residual, rcond=None)[0]
    return float(np.linalg.norm(beta)) / float(np.linalg.norm(residual))


def label_alignment_trial(
    seed: int,
    *,
    samples: int = 60,
    dimension: int = 8,
    widths: Sequence[int] = (32, 32),
    nodes: int = 20,
    step_fraction: float = 0.5,
    max_steps: int = 4000,
    tol: float = 1e-3,
) -> LabelAlignmentTrial:
    r"""One seed of the Figure 1 experiment (module docstring).

    .. math:: y = z(X)\,b^*,\ b^* = \arg\min_b\|z(X)b - \mathrm{labels}\|,
              \qquad \text{alignment} = \cos(K, K_{\hat y})

    The learning rate is ``step_fraction`` times :math:`2N/\lambda_{\max}(K_0)`,
    the stability limit of the linearized dynamics.

    Args:
      seed: seeds the data, the reference network and the trained network, an
        integer >= 0.
      samples: N, an integer >= 2.
      dimension: D, an integer >= 2.
      widths: hidden widths of both networks, at least one, each an integer
        >= 1.
      nodes: midpoint nodes of the path average (eq. 2), an integer >= 1.
      step_fraction: learning rate as a fraction of the linearized limit, in (0, 1).
      max_steps: most gradient steps per task, an integer >= 1.
      tol: relative training loss at which training stops, >= 0 and below the
        relative loss at the initialization (1 is that of the zero function).

    Returns:
      A :class:`LabelAlignmentTrial`.

    Raises:
      InvalidArgumentError: an argument outside the domain above; a network
        off on every input at initialization (narrow layers, few samples: use
        another seed); ``tol`` met before the first step.
      ConvergenceError: training diverges or steps into a region where the
        network is off on every input (lower ``step_fraction``), or leaves the
        outputs unchanged in float64 (raise ``step_fraction``).

    Examples:
      >>> trial = label_alignment_trial(0, samples=12, dimension=3, widths=(8,),
      ...                               max_steps=200)
      >>> bool(-1.0 <= trial.linear_alignment <= 1.0)
      True

    References:
      Figure 1 and Appendix B.1 of adaptive-tangent-features.
    """
    settings = _check_trial_settings(
        samples, dimension, widths, nodes, step_fraction, max_steps, tol
    )
    return _trial(check_seed("seed", seed), settings)


@dataclass(frozen=True)
class _TrialSettings:
    samples: int
    dimension: int
    widths: tuple[int, ...]
    nodes: int
    step_fraction: float
    max_steps: int
    tol: float


def _check_trial_settings(
    samples: int,
    dimension: int,
    widths: Sequence[int],
    nodes: int,
    step_fraction: float,
    max_steps: int,
    tol: float,
) -> _TrialSettings:
    """The settings of the Figure 1 experiment, checked before any work."""
    return _TrialSettings(
        samples=check_integer(
            "samples", samples, min_value=2, meaning="the number of inputs N"
        ),
        dimension=check_integer(
            "dimension", dimension, min_value=2, meaning="the input dimension D"
        ),
        widths=tuple(_check_widths(widths, hidden_required=True)),
        nodes=check_iteration_count("nodes", nodes),
        step_fraction=check_real(
            "step_fraction",
            step_fraction,
            min_value=0.0,
            max_value=1.0,
            exclusive=True,
            meaning="a fraction of the linearized stability limit, in (0, 1)",
        ),
        max_steps=check_iteration_count("max_steps", max_steps),
        tol=check_real(
            "tol", tol, min_value=0.0, meaning="a relative training loss (>= 0)"
        ),
    )


def _trial(seed: int, settings: _TrialSettings) -> LabelAlignmentTrial:
    samples, dimension, widths = settings.samples, settings.dimension, settings.widths
    nodes, fraction = settings.nodes, settings.step_fraction
    max_steps, tol = settings.max_steps, settings.tol
    rng = np.random.default_rng(seed)
    data_seed, reference_seed, network_seed = (
        int(s) for s in rng.integers(2**31, size=3)
    )
    x, labels = two_class_inputs(samples, dimension, seed=data_seed)
    reference = initialize_mlp(dimension, widths, seed=reference_seed)
    features = _penultimate(reference, x)
    linear_targets = features @ np.linalg.lstsq(features, labels, rcond=None)[0]
    if not linear_targets.any():
        raise InvalidArgumentError(
            f"seed={seed!r}, widths={widths!r}: the linear targets are zero (the "
            "reference network is off on every input, or its features are "
            "orthogonal to the labels, as when the inputs coincide); use wider "
            "layers, more samples, a larger dimension or another seed"
        )
    sign_targets = np.where(linear_targets >= 0, 1.0, -1.0)

    initial = initialize_mlp(dimension, widths, seed=network_seed)
    j0 = _tangent_features(initial, x)
    k0 = j0 @ j0.T
    largest = float(np.linalg.eigvalsh(k0)[-1])
    if largest == 0.0:
        raise InvalidArgumentError(
            f"seed={seed!r}, widths={widths!r}: the trained network is off on "
            "every input at initialization (its tangent kernel K0 is zero), so "
            "gradient descent cannot move it; use wider layers, more samples or "
            "another seed"
        )
    rate = fraction * 2.0 * samples / largest
    initial_outputs = mlp_outputs(initial, x)

    results = {}
    for name, targets in (("linear", linear_targets), ("sign", sign_targets)):
        run = train_mlp(
            initial, x, targets, learning_rate=rate, max_steps=max_steps, tol=tol
        )
        if run.steps == 0:
            raise InvalidArgumentError(
                f"tol={tol!r} is met at the initialization on the {name} targets: "
                "training takes no step, so the label kernel is zero and its "
                "alignment 0/0; lower tol"
            )
        # The loss was finite, so the outputs are: pre-activations past
        # float64 can only be -inf of units that are off.
        final_outputs = mlp_outputs(run.final_weights, x)
        # Cosines and the readout share do not change when the features (or
        # the outputs) share a scale; dividing by a power of two is exact and
        # keeps the kernels of a network trained to large weights in float64.
        outputs_shift = _power_of_two_above(initial_outputs, final_outputs)
        labels_kernel = label_kernel(
            np.ldexp(initial_outputs, -outputs_shift),
            np.ldexp(final_outputs, -outputs_shift),
        )
        averaged = average_tangent_features(initial, run.final_weights, x, nodes=nodes)
        features_shift = _power_of_two_above(averaged, j0)
        averaged = np.ldexp(averaged, -features_shift)
        initial_features = np.ldexp(j0, -features_shift)
        adapted = averaged @ averaged.T
        share = _readout_share(
            initial_features,
            averaged,
            adapted - initial_features @ initial_features.T,
            initial[-1].size,
        )
        if not adapted.any():
            raise ConvergenceError(
                f"the tangent features averaged over {nodes} nodes of the path to "
                f"the network trained on the {name} targets are zero (the network "
                "is off on every input at every node, after a step into a dead "
                f"region), so the alignment is 0/0: lower step_fraction="
                f"{fraction!r} or use more nodes"
            )
        if not labels_kernel.any() or math.isnan(share):
            raise ConvergenceError(
                f"{run.steps} gradient steps on the {name} targets left the "
                "network's outputs or kernel unchanged in float64 (a learning "
                f"rate of {rate!r}, step_fraction={fraction!r} of the linearized "
                "limit, is too small to move the weights), so the alignment is "
                "0/0; raise step_fraction"
            )
        results[name] = (
            kernel_alignment(adapted, labels_kernel),
            kernel_alignment(k0, labels_kernel),
            _relative_interpolant_norm(j0, targets - initial_outputs),
            float(run.losses[-1] / (0.5 * float(targets @ targets) / samples)),
            share,
            _rank_correlation(
                np.abs(linear_targets),
                np.diag(adapted) - np.sum(initial_features**2, axis=1),
            ),
        )
    return LabelAlignmentTrial(
        linear_alignment=results["linear"][0],
        sign_alignment=results["sign"][0],
        linear_initial_alignment=results["linear"][1],
        sign_initial_alignment=results["sign"][1],
        linear_norm=results["linear"][2],
        sign_norm=results["sign"][2],
        linear_loss=results["linear"][3],
        sign_loss=results["sign"][3],
        linear_readout_share=results["linear"][4],
        sign_readout_share=results["sign"][4],
        linear_difficulty_correlation=results["linear"][5],
        sign_difficulty_correlation=results["sign"][5],
    )


def label_alignment_study(
    seeds: Sequence[int],
    *,
    samples: int = 60,
    dimension: int = 8,
    widths: Sequence[int] = (32, 32),
    nodes: int = 20,
    step_fraction: float = 0.5,
    max_steps: int = 4000,
    tol: float = 1e-3,
) -> LabelAlignmentStudy:
    r"""The Figure 1 experiment over several seeds (:func:`label_alignment_trial`).

    .. math:: \bar\Delta = \frac1n\sum_{k=1}^n \big(\cos(K, K_{\hat y})_{\rm sign}
              - \cos(K, K_{\hat y})_{\rm linear}\big)_k

    Args:
      seeds: one trial per seed, at least two (for a standard error), each an
        integer >= 0.
      samples, dimension, widths, nodes, step_fraction, max_steps, tol: as in
        :func:`label_alignment_trial`.

    Returns:
      A :class:`LabelAlignmentStudy`.

    Raises:
      InvalidArgumentError, ConvergenceError: as :func:`label_alignment_trial`.

    Examples:
      >>> study = label_alignment_study([0, 1], samples=12, dimension=3,
      ...                               widths=(8,), max_steps=100)
      >>> study.differences.shape
      (2,)

    References:
      Figure 1 of adaptive-tangent-features.
    """
    if isinstance(seeds, str | bytes) or not isinstance(seeds, Sequence | np.ndarray):
        raise InvalidArgumentError(
            f"seeds={seeds!r:.80} is not a sequence of seeds (integers >= 0)"
        )
    seed_list = [
        check_seed(f"seeds[{index}]", seed) for index, seed in enumerate(seeds)
    ]
    if len(seed_list) < 2:
        raise InvalidArgumentError(
            f"seeds={seeds!r} has fewer than 2 entries: a standard error needs two"
        )
    settings = _check_trial_settings(
        samples, dimension, widths, nodes, step_fraction, max_steps, tol
    )
    return LabelAlignmentStudy(
        trials=tuple(_trial(seed, settings) for seed in seed_list)
    )
