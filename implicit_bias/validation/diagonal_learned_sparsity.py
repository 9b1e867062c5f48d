r"""Appendix E.1, Figs. 5c-5f of ptft-diagonal-networks: what diagonal networks learn.

Fig. 5c plots the "proportion of variance concentrated in the top k weights,
as a function of k" of single-task solutions, trained in both layers from a
small initialization (STL) and by "pure linear readout training" (STL (LP));
Fig. 5d "L1 norm for STL as a function of the number of samples"; Fig. 5e the
same variance curves "across different overlaps" for PT+FT and MTL; Fig. 5f the
"proportion of weight norm in the 40 dimensions relevant for the auxiliary
task" across overlaps. :func:`learned_solutions` trains the networks of all
four panels on shared data, and :func:`variance_beyond_top_k` and
:func:`mean_weight_rank` measure the curves.

The curves "decrease" with k (Fig. 5c's caption), so the plotted variance is
read as the share *outside* the top k weights,

.. math:: v_k(\beta) = \frac{\sum_{j > k} \beta_{(j)}^2}{\sum_j \beta_{(j)}^2},
          \qquad |\beta_{(1)}| \ge |\beta_{(2)}| \ge \dots,

and a curve is summarized by the area under it, :math:`\sum_{k \ge 1} v_k =
\sum_j (j - 1)\, p_j` with :math:`p_j = \beta_{(j)}^2 / \|\beta\|^2`: the mean
rank of a weight drawn with probability :math:`p_j`, less one
(:func:`mean_weight_rank`). A curve that falls fast has a small area.

Linear probing trains the readout of a diagonal network whose first layer stays
at its initialization :math:`\alpha` on both branches: :math:`\beta =
\alpha(w^{(2)}_+ - w^{(2)}_-)` moves along :math:`-2\alpha^2\eta\,\nabla_\beta L`,
which lies in the row space of X, from :math:`\beta(0) = 0`, so descent on this
least-squares problem ends at the interpolant in the row space, the
minimum-:math:`\ell_2` one, :math:`X^+ y`; :func:`learned_solutions` takes
that limit in closed form.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.arguments import (
    as_finite_array,
    check_integer,
    check_real,
    check_seed,
)
from implicit_bias.validation.diagonal_experiments import (
    _Batch,
    _pretraining,
    _stable_learning_rate,
    _train_together,
)
from implicit_bias.validation.diagonal_networks import (
    train_diagonal_networks,
    train_multitask_diagonal_networks,
)
from implicit_bias.validation.diagonal_pretrain_finetune import (
    finetuning_initialization,
)

__all__ = [
    "LEARNED_SOLUTIONS_CONFIGURATIONS",
    "LearnedSolutions",
    "learned_solutions",
    "mean_weight_rank",
    "variance_beyond_top_k",
]

Float64Array = NDArray[np.float64]


def _shares(coefficients: ArrayLike) -> Float64Array:
    """The squared weights sorted descending, as shares of their sum, (..., D)."""
    beta = as_finite_array(
        "coefficients", coefficients, ndim=(1, 2, 3, 4, 5), shape="(..., D)"
    )
    if beta.shape[-1] == 0:
        raise InvalidArgumentError(
            f"coefficients has shape {beta.shape}: a predictor needs D >= 1 inputs"
        )
    if beta.size == 0:
        raise InvalidArgumentError(
            f"coefficients has shape {beta.shape}: a batch needs a predictor"
        )
    largest = np.max(np.abs(beta), axis=-1, keepdims=True)
    if not (largest > 0).all():
        raise InvalidArgumentError(
            "coefficients contains a zero predictor: its shares are 0/0"
        )
    # Scaled by the largest entry first, so tiny predictors do not underflow.
    squares = np.sort((beta / largest) ** 2, axis=-1)[..., ::-1]
    return np.asarray(squares / np.sum(squares, axis=-1, keepdims=True))


def variance_beyond_top_k(coefficients: ArrayLike, k: int) -> Float64Array:
    r"""The share of a predictor's squared norm outside its k largest weights.

    .. math:: v_k(\beta) = \frac{\sum_{j > k} \beta_{(j)}^2}{\|\beta\|_2^2}

    with :math:`|\beta_{(1)}| \ge |\beta_{(2)}| \ge \dots`; Fig. 5c plots it
    against k (module docstring).

    Args:
      coefficients: predictors :math:`\beta`, (..., D), finite, none zero.
      k: the number of top weights, an integer in [0, D].

    Returns:
      :math:`v_k \in [0, 1]`, shape (...).

    Raises:
      InvalidArgumentError: a value is not finite, D = 0, the batch is empty,
        a predictor is zero, or ``k`` is not an integer in [0, D].

    Examples:
      >>> float(variance_beyond_top_k([3.0, 0.0, -4.0], 1))
      0.36
      >>> float(variance_beyond_top_k([3.0, 0.0, -4.0], 2))
      0.0

    References:
      Appendix E.1 (Fig. 5c, e) of ptft-diagonal-networks.
    """
    shares = _shares(coefficients)
    dimension = shares.shape[-1]
    if (
        isinstance(k, bool)
        or not isinstance(k, int | np.integer)
        or not 0 <= k <= dimension
    ):
        raise InvalidArgumentError(
            f"k={k!r} must be an integer in [0, {dimension}]: the number of top "
            "weights of a predictor with D inputs"
        )
    return np.asarray(np.clip(np.sum(shares[..., k:], axis=-1), 0.0, 1.0))


def mean_weight_rank(coefficients: ArrayLike) -> Float64Array:
    r"""The area under the curve :math:`k \mapsto v_k(\beta)`, plus one.

    .. math:: \bar r(\beta) = 1 + \sum_{k=1}^{D} v_k(\beta)
              = \sum_{j=1}^D j\, p_j,\qquad p_j = \beta_{(j)}^2/\|\beta\|_2^2

    the mean rank of a weight drawn with probability :math:`p_j`: 1 for a
    predictor on one input, :math:`(D + 1)/2` for one with equal weights on all
    D. A curve of Fig. 5c that falls fast has a small :math:`\bar r`.

    Args:
      coefficients: predictors :math:`\beta`, (..., D), finite, none zero.

    Returns:
      :math:`\bar r \in [1, (D+1)/2]`, shape (...).

    Raises:
      InvalidArgumentError: a value is not finite, D = 0, the batch is empty
        or a predictor is zero.

    Examples:
      >>> float(mean_weight_rank([0.0, 2.0, 0.0]))
      1.0
      >>> float(mean_weight_rank([1.0, -1.0, 1.0, 1.0]))
      2.5
      >>> beta = np.array([3.0, 0.0, -4.0])
      >>> bool(np.isclose(mean_weight_rank(beta),
      ...     1 + sum(variance_beyond_top_k(beta, k) for k in range(1, 4))))
      True

    References:
      Appendix E.1 (Fig. 5c, e) of ptft-diagonal-networks.
    """
    shares = _shares(coefficients)
    ranks = np.arange(1, shares.shape[-1] + 1)
    return np.asarray(np.sum(ranks * shares, axis=-1))


@dataclass(frozen=True)
class _Configuration:
    """Sizes of :func:`learned_solutions` (see its docstring)."""

    dimension: int
    features: int
    overlaps: tuple[int, ...]
    sample_sizes: tuple[int, ...]
    repeats: int


#: The configurations of :func:`learned_solutions`, by name.
LEARNED_SOLUTIONS_CONFIGURATIONS: dict[str, _Configuration] = {
    "quick": _Configuration(40, 6, (0, 3, 6), (4, 8, 12, 16, 24, 32), 20),
    "full": _Configuration(400, 20, (0, 10, 20), (10, 20, 40, 60, 80, 120, 160), 20),
}


@dataclass(frozen=True, eq=False)
class LearnedSolutions:
    r"""Appendix E.1, Figs. 5c-5f: the predictors STL, LP, PT+FT and MTL learn.

    Arrays over overlaps (V), sample sizes (S), repeats (R) and inputs (D).
    The auxiliary task uses inputs 0..F-1; at overlap s the main task uses
    inputs F-s..2F-s-1, s of them auxiliary features.

    Attributes:
      overlaps: s, the main task's features that are auxiliary ones, (V,).
      sample_sizes: n, (S,).
      stl: single-task predictors, both layers from :math:`\alpha`, (V, S, R, D).
      linear_probe: the readout-only (LP) predictors :math:`X_n^+ y_n`,
        (V, S, R, D).
      ptft: PT+FT main-task predictors, (V, S, R, D).
      mtl: the main-task output of the MTL predictors, (V, S, R, D).
      truth: the ground-truth main-task predictors, (V, R, D).
      aux_support: the auxiliary task's inputs, a boolean mask (D,).
      dimension, features, aux_samples, rescale, init_scale, gamma, tol, seed: the
        configuration (see :func:`learned_solutions`); every trained network
        stopped at a training loss of at most ``tol`` times
        :math:`\|y\|^2/n`.
    """

    overlaps: NDArray[np.int64]
    sample_sizes: NDArray[np.int64]
    stl: Float64Array
    linear_probe: Float64Array
    ptft: Float64Array
    mtl: Float64Array
    truth: Float64Array
    aux_support: NDArray[np.bool_]
    dimension: int
    features: int
    aux_samples: int
    rescale: float
    init_scale: float
    gamma: float
    tol: float
    seed: int


def _check_flag(name: str, value: bool) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise InvalidArgumentError(f"{name}={value!r} is not a bool")
    return bool(value)


def _check_repeats(repeats: int | None, default: int) -> int:
    if repeats is None:
        return default
    if isinstance(repeats, bool) or not isinstance(repeats, int | np.integer):
        raise InvalidArgumentError(f"repeats={repeats!r} is not an integer")
    if repeats < 2:
        raise InvalidArgumentError(
            f"repeats={repeats} must be >= 2: a standard error needs two repeats"
        )
    return int(repeats)


def learned_solutions(
    *,
    quick: bool = True,
    seed: int = 0,
    repeats: int | None = None,
    aux_samples: int | None = None,
    rescale: float = 1.0,
) -> LearnedSolutions:
    r"""Train the STL, LP, PT+FT and MTL networks of Appendix E.1's Figs. 5c-5f.

    .. math:: \beta^{\mathrm{LP}} = X_n^+ y_n,\qquad
              k^{\mathrm{PT+FT}}_d = (w^{(1),\mathrm{aux}}_d)^2 + \gamma^2

    Configuration (``quick`` in brackets). D = 400 [40] standard Gaussian
    inputs; each task uses F = 20 [6] inputs: the auxiliary task inputs
    0..F-1, the main task at overlap s inputs F-s..2F-s-1, for s = 0, 10, 20
    [0, 3, 6] (the analogue of the paper's 0/40 to 40/40 overlaps), with
    standard normal coefficients (one draw of the main task's F coefficients
    per repeat, placed at each overlap); noiseless targets. Main-task sample
    sizes n = 10, 20, 40, 60, 80, 120, 160 [4, 8, 12, 16, 24, 32], nested; 20
    repeats (``repeats``). STL and MTL start every weight at :math:`\alpha =
    10^{-3}`, MTL with the outputs (main, auxiliary) on the same n samples;
    PT+FT pretrains from :math:`\alpha` on ``aux_samples`` (default D/2) fresh
    samples of the auxiliary task (once per repeat) and finetunes from
    :math:`\lambda` = ``rescale`` (default 1), :math:`\gamma = 10^{-3}`; LP is
    the limit of readout training (module docstring). The auxiliary samples
    are drawn after the main task's, so ``aux_samples`` and ``rescale`` leave
    the tasks, the main-task data, STL, MTL and LP as they are and change
    PT+FT only.
    Learning rates as in
    :func:`~implicit_bias.validation.diagonal_experiments.norms_versus_sample_size`;
    each network stops at a relative loss of ``tol = 1e-6``.

    Args:
      quick: the small configuration.
      seed: seed of ``np.random.SeedSequence``, an integer >= 0; repeat r uses
        its r-th child.
      repeats: the number of repeats, an integer >= 2 (default 20).
      aux_samples: the auxiliary task's pretraining samples, an integer >= 1;
        None for D/2 (the paper's Appendix D names 1024 "in most of our
        experiments").
      rescale: :math:`\lambda`, the factor of the pretrained first layer
        finetuning starts from, a finite real > 0.

    Returns:
      A :class:`LearnedSolutions`.

    Raises:
      InvalidArgumentError: ``quick`` is not a bool, ``seed`` not an integer
        >= 0, ``repeats`` not an integer >= 2, ``aux_samples`` not an integer
        >= 1 (or None) or ``rescale`` not a finite real > 0.
      ConvergenceError: a network diverged or did not converge.

    Examples:
      >>> result = learned_solutions(repeats=2)
      >>> result.ptft.shape == (3, 6, 2, 40)
      True
      >>> bool(np.all(mean_weight_rank(result.stl) < mean_weight_rank(
      ...     result.linear_probe)))
      True

    References:
      Appendix E.1 (Fig. 5c-f) of ptft-diagonal-networks; Appendix A (eqs.
      21-23) for k.
    """
    quick = _check_flag("quick", quick)
    seed = check_seed("seed", seed)
    configuration = LEARNED_SOLUTIONS_CONFIGURATIONS["quick" if quick else "full"]
    repeats = _check_repeats(repeats, configuration.repeats)
    dimension, features = configuration.dimension, configuration.features
    if aux_samples is None:
        aux_samples = dimension // 2
    aux_samples = check_integer(
        "aux_samples",
        aux_samples,
        min_value=1,
        meaning="the auxiliary task's pretraining samples (an integer >= 1)",
    )
    rescale = check_real(
        "rescale",
        rescale,
        min_value=0.0,
        exclusive=True,
        meaning="the factor of the pretrained first layer (a finite real > 0)",
    )
    overlaps = np.array(configuration.overlaps)
    sizes = np.array(configuration.sample_sizes)
    alpha = gamma = 1e-3
    tol = 1e-6
    aux_support = np.arange(dimension) < features
    networks = overlaps.size * sizes.size
    counts = np.tile(sizes, overlaps.size)
    draws = []
    for child in np.random.SeedSequence(seed).spawn(repeats):
        rng = np.random.default_rng(child)
        aux = np.zeros(dimension)
        aux[:features] = rng.standard_normal(features)
        coefficients = rng.standard_normal(features)
        mains = np.zeros((overlaps.size, dimension))
        for v, shared in enumerate(overlaps):
            mains[v, features - shared : 2 * features - shared] = coefficients
        X = rng.standard_normal((sizes[-1], dimension))
        X_aux = rng.standard_normal((aux_samples, dimension))
        size = float(max(np.max(np.abs(aux)), np.max(np.abs(coefficients))))
        draws.append((aux, mains, X, X_aux, size))
    pretraining, stl, multis, rates = [], [], [], []
    for aux, mains, X, X_aux, size in draws:
        pretraining.append(_pretraining(X_aux, X_aux @ aux, size, alpha))
        rates.append(np.tile(_stable_learning_rate(X, sizes, size), overlaps.size))
        main_targets = np.repeat(mains @ X.T, sizes.size, axis=0)  # (V S, n)
        alphas = np.full((networks, dimension), alpha)
        stl.append(_Batch(X, main_targets, alphas, alphas, rates[-1], counts))
        both = np.stack([main_targets, np.broadcast_to(X @ aux, main_targets.shape)])
        multis.append(
            _Batch(
                X,
                np.moveaxis(both, 0, -1),  # (V S, n, 2): (main, auxiliary)
                alphas,
                np.full((networks, 2, dimension), alpha),
                rates[-1],
                counts,
            )
        )
    first = _train_together(train_diagonal_networks, pretraining + stl, tol)
    finetuning = []
    for r, (_, _, X, _, _) in enumerate(draws):
        w1, w2 = finetuning_initialization(first[r], rescale=rescale, gamma=gamma)
        finetuning.append(
            _Batch(
                X,
                stl[r].targets,
                np.broadcast_to(w1, (networks, dimension)),
                np.broadcast_to(w2, (networks, dimension)),
                rates[r],
                counts,
            )
        )
    ptft_runs = _train_together(train_diagonal_networks, finetuning, tol)
    mtl_runs = _train_together(train_multitask_diagonal_networks, multis, tol)
    shape = (overlaps.size, sizes.size, repeats, dimension)
    stl_beta, probe, ptft, mtl = (np.empty(shape) for _ in range(4))
    truth = np.empty((overlaps.size, repeats, dimension))
    for r, (_, mains, X, _, _) in enumerate(draws):
        truth[:, r] = mains
        stl_beta[:, :, r] = first[repeats + r].coefficients.reshape(
            overlaps.size, sizes.size, dimension
        )
        ptft[:, :, r] = ptft_runs[r].coefficients.reshape(
            overlaps.size, sizes.size, dimension
        )
        mtl[:, :, r] = (
            mtl_runs[r].coefficients[:, 0].reshape(overlaps.size, sizes.size, dimension)
        )
        for i, n in enumerate(sizes):
            probe[:, i, r] = (np.linalg.pinv(X[:n]) @ (mains @ X[:n].T).T).T
    return LearnedSolutions(
        overlaps=overlaps,
        sample_sizes=sizes,
        stl=stl_beta,
        linear_probe=probe,
        ptft=ptft,
        mtl=mtl,
        truth=truth,
        aux_support=aux_support,
        dimension=dimension,
        features=features,
        aux_samples=aux_samples,
        rescale=rescale,
        init_scale=alpha,
        gamma=gamma,
        tol=tol,
        seed=seed,
    )
