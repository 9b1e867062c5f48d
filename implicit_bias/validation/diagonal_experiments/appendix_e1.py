r"""Appendix E.1 of ptft-diagonal-networks: the norms of the MTL, PT+FT and STL
predictors against the number of samples (Fig. 5a) and the overlap of the
main-task predictor with the auxiliary task's features against the rescaling
of the pretrained first layer (Fig. 5b).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics import (
    l12_norm,
    min_q_norm_interpolant,
    q_norm,
)
from implicit_bias.numerics.arguments import check_seed
from implicit_bias.validation.diagonal_networks import (
    _flag,
    train_diagonal_networks,
    train_multitask_diagonal_networks,
)
from implicit_bias.validation.diagonal_pretrain_finetune import (
    finetuning_initialization,
    support_overlap,
)
from implicit_bias.validation.diagonal_experiments.batches import (
    Float64Array,
    _Batch,
    _pretraining,
    _stable_learning_rate,
    _train_together,
)

__all__ = [
    "NormsVersusSampleSize",
    "OverlapVersusRescaling",
    "norms_versus_sample_size",
    "overlap_versus_rescaling",
]


@dataclass(frozen=True, eq=False)
class NormsVersusSampleSize:
    r"""Appendix E.1, Fig. 5a: norms of learned and ground-truth predictors vs n.

    Arrays over sample sizes (S) and repeats (R). The MTL predictor has the
    outputs (main, auxiliary); "STL" stacks two single-task networks, one per
    task, trained on the same samples (None when run without them,
    ``single_task=False``). The Q norm is that of the PT+FT
    networks, :math:`k_d = (w^{(1)}_d)^2 + \gamma^2` with the pretrained (and
    here not rescaled) first layer of that repeat.

    Attributes:
      sample_sizes: n, (S,).
      mtl_l12: :math:`\ell_{1,2}` norm of the MTL predictor, (S, R).
      stl_l12: :math:`\ell_{1,2}` norm of the two STL predictors, (S, R), or
        None.
      truth_l12: :math:`\ell_{1,2}` norm of the ground truth, (R,).
      ptft_q: Q norm of the PT+FT main-task predictor, (S, R).
      stl_q: Q norm of the STL main-task predictor, (S, R), or None.
      min_q: Q norm of the minimum-Q interpolant of the same data, (S, R).
      truth_q: Q norm of the ground-truth main-task predictor, (R,).
      dimension, features, aux_samples, init_scale, gamma, tol, seed: the
        configuration (see :func:`norms_versus_sample_size`); every network
        stopped at a training loss of at most ``tol`` times
        :math:`\|y\|^2/n`.
    """

    sample_sizes: NDArray[np.int64]
    mtl_l12: Float64Array
    stl_l12: Float64Array | None
    truth_l12: Float64Array
    ptft_q: Float64Array
    stl_q: Float64Array | None
    min_q: Float64Array
    truth_q: Float64Array
    dimension: int
    features: int
    aux_samples: int
    init_scale: float
    gamma: float
    tol: float
    seed: int


def norms_versus_sample_size(
    *, quick: bool = False, seed: int = 0, single_task: bool = True
) -> NormsVersusSampleSize:
    r"""Appendix E.1's first claim: norms of MTL, PT+FT and STL solutions vs n.

    .. math:: \|B\|_{1,2} = \sum_d \|B_{:,d}\|_2,\qquad
              \|\beta\|_Q = \sum_d k_d\, q(2\beta_d/k_d)

    The claim: "as the amount of training data increases, the norms all
    converge to that of the ground truth solution, but in the low-sample
    regime, MTL and PT+FT find solutions with lower values of their
    corresponding norm than the ground-truth function".

    Configuration (``quick`` in brackets). D = 200 [40] standard Gaussian
    inputs; the main and auxiliary tasks use the same 20 [4] inputs (the
    analogue of the paper's 40/40 overlap) with independent standard normal
    coefficients; noiseless targets. Sample sizes n = 10, 20, 40, 60, 80, 120,
    160 [4, 8, 12, 16, 24, 32], nested (network k uses the first n rows of one
    draw), 5 [2] repeats. STL and MTL start every weight at
    :math:`\alpha = 10^{-3}`; PT+FT pretrains from :math:`\alpha` on D/2 fresh
    samples of the auxiliary task and finetunes from :math:`\lambda = 1`,
    :math:`\gamma = 10^{-3}`. MTL sees both tasks' targets on the same n
    samples. Learning rates :math:`0.5/(\lambda_{\max}(X^\top X/n)
    \max(1, \|B\|_\infty))` per network; each network stops at a relative loss
    of ``tol = 1e-6``.

    Args:
      quick: the small configuration (seconds instead of about a minute).
      seed: seed of ``np.random.SeedSequence``, an integer >= 0; repeat r uses
        its r-th child.
      single_task: also train the STL networks (else ``stl_l12`` and ``stl_q``
        are None). The data and every other network are the same either way
        (the STL networks train apart from them), up to the summation order
        of the batched products.

    Returns:
      A :class:`NormsVersusSampleSize`.

    Raises:
      InvalidArgumentError: ``quick`` or ``single_task`` is not a bool or
        ``seed`` not an integer >= 0.
      ConvergenceError: a network diverged or did not converge.

    Examples:
      >>> result = norms_versus_sample_size(quick=True)
      >>> result.mtl_l12.shape == (len(result.sample_sizes), 2)
      True
      >>> bool(np.all(result.min_q <= result.truth_q * (1 + 1e-9)))
      True

    References:
      Appendix E.1 (Fig. 5a) of ptft-diagonal-networks; eq. (30) for
      :math:`\ell_{1,2}`, eqs. (22)-(23) for Q.
    """
    quick = _flag("quick", quick)
    seed = check_seed("seed", seed)
    single_task = _flag("single_task", single_task)
    dimension, features, repeats = (40, 4, 2) if quick else (200, 20, 5)
    sizes = np.array(
        [4, 8, 12, 16, 24, 32] if quick else [10, 20, 40, 60, 80, 120, 160]
    )
    alpha = gamma = 1e-3
    tol = 1e-6
    aux_samples = dimension // 2
    shape = (sizes.size, repeats)
    mtl_l12, stl_l12, ptft_q, stl_q, min_q = (np.empty(shape) for _ in range(5))
    truth_l12, truth_q = np.empty(repeats), np.empty(repeats)
    draws = []
    for child in np.random.SeedSequence(seed).spawn(repeats):
        rng = np.random.default_rng(child)
        truth = np.zeros((2, dimension))  # (main, auxiliary)
        truth[:, :features] = rng.standard_normal((2, features))
        X = rng.standard_normal((sizes[-1], dimension))
        X_aux = rng.standard_normal((aux_samples, dimension))
        draws.append((truth, X, X_aux, float(np.max(np.abs(truth)))))
    stl, multis, rates, targets = [], [], [], []
    for truth, X, _, size in draws:
        Y = X @ truth.T
        targets.append(Y)
        rates.append(_stable_learning_rate(X, sizes, size))
        alphas = np.full((2 * sizes.size, dimension), alpha)
        # STL on (main,) * S and (aux,) * S.
        stl.append(
            _Batch(
                X,
                np.repeat(Y.T, sizes.size, axis=0),
                alphas,
                alphas,
                np.tile(rates[-1], 2),
                np.tile(sizes, 2),
            )
        )
        multis.append(
            _Batch(
                X,
                np.broadcast_to(Y, (sizes.size, *Y.shape)),
                alphas[: sizes.size],
                np.full((sizes.size, 2, dimension), alpha),
                rates[-1],
                sizes,
            )
        )
    # STL does not wait for pretraining: both in one batch.
    pretraining = [
        _pretraining(X_aux, X_aux @ truth[1], size, alpha)
        for truth, _, X_aux, size in draws
    ]
    first = _train_together(
        train_diagonal_networks, pretraining + (stl if single_task else []), tol
    )
    finetuning, readouts = [], []
    for r, (_, X, _, _) in enumerate(draws):
        w1, w2 = finetuning_initialization(first[r], rescale=1.0, gamma=gamma)
        readouts.append((w1[0], w2[0]))
        finetuning.append(
            _Batch(
                X,
                np.broadcast_to(targets[r][:, 0], (sizes.size, X.shape[0])),
                np.broadcast_to(w1, (sizes.size, dimension)),
                np.broadcast_to(w2, (sizes.size, dimension)),
                rates[r],
                sizes,
            )
        )
    ptft_runs = _train_together(train_diagonal_networks, finetuning, tol)
    mtl_runs = _train_together(train_multitask_diagonal_networks, multis, tol)
    for r, (truth, X, _, _) in enumerate(draws):
        Y = targets[r]
        w1_ft, w2_ft = readouts[r]
        truth_l12[r] = l12_norm(truth)
        truth_q[r] = q_norm(truth[0], w1_ft, w2_ft)
        for i, n in enumerate(sizes):
            mtl_l12[i, r] = l12_norm(mtl_runs[r].coefficients[i])
            ptft_q[i, r] = q_norm(ptft_runs[r].coefficients[i], w1_ft, w2_ft)
            reference = min_q_norm_interpolant(X[:n], Y[:n, 0], w1_ft, w2_ft)
            min_q[i, r] = q_norm(reference, w1_ft, w2_ft)
        if single_task:
            stl_pairs = (
                first[repeats + r]
                .coefficients.reshape(2, sizes.size, dimension)
                .swapaxes(0, 1)
            )
            for i in range(sizes.size):
                stl_l12[i, r] = l12_norm(stl_pairs[i])
                stl_q[i, r] = q_norm(stl_pairs[i, 0], w1_ft, w2_ft)
    return NormsVersusSampleSize(
        sample_sizes=sizes,
        mtl_l12=mtl_l12,
        stl_l12=stl_l12 if single_task else None,
        truth_l12=truth_l12,
        ptft_q=ptft_q,
        stl_q=stl_q if single_task else None,
        min_q=min_q,
        truth_q=truth_q,
        dimension=dimension,
        features=features,
        aux_samples=aux_samples,
        init_scale=alpha,
        gamma=gamma,
        tol=tol,
        seed=seed,
    )


@dataclass(frozen=True, eq=False)
class OverlapVersusRescaling:
    r"""Appendix E.1, Fig. 5b: feature overlap of PT+FT predictors vs rescaling.

    The overlap is :func:`support_overlap` of the learned main-task predictor
    with the auxiliary task's features.

    Attributes:
      rescales: the rescaling factors :math:`\lambda`, (F,).
      sample_sizes: n, (S,).
      ptft_overlap: overlap of the PT+FT predictors, (F, S, R).
      stl_overlap: overlap of single-task predictors from :math:`\alpha`,
        (S, R).
      truth_overlap: overlap of the ground-truth main-task predictor, (R,).
      dimension, features, shared, aux_samples, init_scale, gamma, tol, seed:
        the configuration (see :func:`overlap_versus_rescaling`).
    """

    rescales: Float64Array
    sample_sizes: NDArray[np.int64]
    ptft_overlap: Float64Array
    stl_overlap: Float64Array
    truth_overlap: Float64Array
    dimension: int
    features: int
    shared: int
    aux_samples: int
    init_scale: float
    gamma: float
    tol: float
    seed: int


def _among(
    name: str, value: Sequence[int] | None, sizes: NDArray[np.int64]
) -> NDArray[np.int64]:
    """``value`` as an ascending subset of ``sizes`` (all of them if None)."""
    if value is None:
        return sizes
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise InvalidArgumentError(
            f"{name}={value!r} is not a sequence of sample sizes"
        )
    chosen = list(value)
    if not chosen or any(
        isinstance(n, bool) or not isinstance(n, int | np.integer) or n not in sizes
        for n in chosen
    ):
        raise InvalidArgumentError(
            f"{name}={value!r}: give one or more of the configuration's sample "
            f"sizes n = {sizes.tolist()}"
        )
    return np.unique(np.asarray(chosen, dtype=np.int64))


def overlap_versus_rescaling(
    *, quick: bool = False, seed: int = 0, sample_sizes: Sequence[int] | None = None
) -> OverlapVersusRescaling:
    r"""Appendix E.1's second claim: rescaling below 1 reduces feature reuse.

    .. math:: k_d = \lambda^2 (w^{(1),aux}_d)^2 + \gamma^2,\qquad
              \mathrm{overlap} = \frac{\sum_{d\in S_{aux}}\beta_d^2}
              {\sum_d \beta_d^2}

    The claim: "weight rescaling by a factor less than 1.0 following
    pretraining reduces the propensity of the network to share features
    between auxiliary and main tasks during finetuning", measured by "the
    overlap between the auxiliary task features and the learned linear
    predictor for the main task".

    Configuration (``quick`` in brackets). D = 200 [40] standard Gaussian
    inputs; the auxiliary task uses inputs 0-19 [0-5], the main task 20 [6]
    inputs of which 10 [3] are auxiliary features (inputs 10-29 [3-8]), with
    independent standard normal coefficients; noiseless targets.
    :math:`\lambda` = 0.01, 0.03, 0.1, 0.3, 1 [0.03, 0.1, 0.3, 1]; main-task
    sample sizes n = 10, 20, 40, 80 [6, 12, 24], nested; 5 [2] repeats.
    Pretraining from :math:`\alpha = 10^{-3}` on D/2 samples of the auxiliary
    task (once per repeat, shared by every :math:`\lambda` and n), then
    finetuning from :math:`\gamma = 10^{-3}`; STL from :math:`\alpha`. Learning
    rates as in :func:`norms_versus_sample_size`; relative loss ``tol = 1e-6``.

    Args:
      quick: the small configuration.
      seed: seed of ``np.random.SeedSequence``, an integer >= 0; repeat r uses
        its r-th child.
      sample_sizes: train the PT+FT and STL networks at these of the
        configuration's n only (default: all of them). The data are drawn for
        the whole configuration, so a network is the same whichever others
        train, up to the summation order of the batched products.

    Returns:
      An :class:`OverlapVersusRescaling` (its ``sample_sizes`` those trained).

    Raises:
      InvalidArgumentError: ``quick`` is not a bool, ``seed`` not an integer
        >= 0, or ``sample_sizes`` not a non-empty set of the configuration's n.
      ConvergenceError: a network diverged or did not converge.

    Examples:
      >>> result = overlap_versus_rescaling(quick=True)
      >>> result.ptft_overlap.shape == (4, 3, 2)
      True
      >>> bool(np.all((0 <= result.ptft_overlap) & (result.ptft_overlap <= 1)))
      True

    References:
      Appendix E.1 (Fig. 5b) of ptft-diagonal-networks; Appendix A (eqs.
      21-23) for k.
    """
    quick = _flag("quick", quick)
    seed = check_seed("seed", seed)
    if quick:
        dimension, features, shared, repeats = 40, 6, 3, 2
        rescales = np.array([0.03, 0.1, 0.3, 1.0])
        sizes = np.array([6, 12, 24])
    else:
        dimension, features, shared, repeats = 200, 20, 10, 5
        rescales = np.array([0.01, 0.03, 0.1, 0.3, 1.0])
        sizes = np.array([10, 20, 40, 80])
    drawn = sizes[-1]  # the data's rows, whichever sizes train
    sizes = _among("sample_sizes", sample_sizes, sizes)
    rows = int(sizes[-1])
    alpha = gamma = 1e-3
    tol = 1e-6
    aux_samples = dimension // 2
    aux_support = np.arange(dimension) < features
    main_support = slice(features - shared, 2 * features - shared)
    ptft_overlap = np.empty((rescales.size, sizes.size, repeats))
    stl_overlap = np.empty((sizes.size, repeats))
    truth_overlap = np.empty(repeats)
    draws = []
    for child in np.random.SeedSequence(seed).spawn(repeats):
        rng = np.random.default_rng(child)
        aux, main = np.zeros(dimension), np.zeros(dimension)
        aux[:features] = rng.standard_normal(features)
        main[main_support] = rng.standard_normal(features)
        X = rng.standard_normal((drawn, dimension))
        X_aux = rng.standard_normal((aux_samples, dimension))
        size = float(max(np.max(np.abs(aux)), np.max(np.abs(main))))
        draws.append((aux, main, X, X_aux, size))
    pretrained_runs = _train_together(
        train_diagonal_networks,
        [
            _pretraining(X_aux, X_aux @ aux, size, alpha)
            for aux, _, _, X_aux, size in draws
        ],
        tol,
    )
    batches = []
    for r, (_, main, X, _, size) in enumerate(draws):
        w1, w2 = finetuning_initialization(
            pretrained_runs[r], rescale=np.repeat(rescales, sizes.size), gamma=gamma
        )
        rate = _stable_learning_rate(X, sizes, size)
        # PT+FT (F x S networks), then STL (S networks, from alpha).
        stl_init = np.full((sizes.size, dimension), alpha)
        batches.append(
            _Batch(
                X[:rows],
                np.broadcast_to((X @ main)[:rows], (w1.shape[0] + sizes.size, rows)),
                np.concatenate([w1, stl_init]),
                np.concatenate([w2, stl_init]),
                np.tile(rate, rescales.size + 1),
                np.tile(sizes, rescales.size + 1),
            )
        )
        truth_overlap[r] = support_overlap(main, aux_support)
    trained = _train_together(train_diagonal_networks, batches, tol)
    for r, result in enumerate(trained):
        overlap = support_overlap(result.coefficients, aux_support)
        ptft_overlap[:, :, r] = overlap[: rescales.size * sizes.size].reshape(
            rescales.size, sizes.size
        )
        stl_overlap[:, r] = overlap[rescales.size * sizes.size :]
    return OverlapVersusRescaling(
        rescales=rescales,
        sample_sizes=sizes,
        ptft_overlap=ptft_overlap,
        stl_overlap=stl_overlap,
        truth_overlap=truth_overlap,
        dimension=dimension,
        features=features,
        shared=shared,
        aux_samples=aux_samples,
        init_scale=alpha,
        gamma=gamma,
        tol=tol,
        seed=seed,
    )
