r"""The experiments of ptft-diagonal-networks: Appendix A's endpoints and Appendix E.1.

:func:`min_q_endpoint_errors` and :func:`ptft_min_q_endpoint_errors` measure how
far gradient descent ends from Appendix A's minimum-Q interpolant as the step
size halves (the discretization error of the flow).

Appendix E.1 compares the predictors that multi-task learning (MTL),
pretraining then finetuning (PT+FT) and single-task learning (STL) find on
diagonal linear networks: their norms against the ground truth's as the number
of samples grows (Fig. 5a, :func:`norms_versus_sample_size`), and how much of
the main-task predictor lies on the auxiliary task's features as the rescaling
factor of the pretrained first layer varies (Fig. 5b,
:func:`overlap_versus_rescaling`). Both run on the batched gradient-descent
simulations of :mod:`implicit_bias.validation.diagonal_networks`, whose module
docstring states the networks, the loss and the stopping rule, and of
:mod:`implicit_bias.validation.diagonal_pretrain_finetune` for PT+FT.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics import (
    l12_norm,
    min_l12_interpolant,
    min_q_norm_interpolant,
    q_norm,
)
from implicit_bias.numerics.arguments import check_seed
from implicit_bias.validation.diagonal_networks import (
    DiagonalTrainingResult,
    _flag,
    _train_groups,
    train_diagonal_networks,
    train_multitask_diagonal_networks,
)
from implicit_bias.validation.diagonal_pretrain_finetune import (
    finetuning_initialization,
    pretrain_finetune_diagonal_networks,
    support_overlap,
)

__all__ = [
    "NormsVersusSampleSize",
    "OverlapVersusRescaling",
    "min_q_endpoint_errors",
    "multitask_dense_gap",
    "multitask_dense_gaps",
    "multitask_planted_distances",
    "norms_versus_sample_size",
    "overlap_versus_rescaling",
    "ptft_min_q_endpoint_errors",
    "stacks_repeats",
]

Float64Array = NDArray[np.float64]


def _stable_learning_rate(
    X: Float64Array, counts: NDArray[np.int64], size: float
) -> Float64Array:
    r"""Per-network step sizes :math:`0.5 / (\lambda_{\max}(X_n^\top X_n/n)\, s)`.

    At an interpolant the Hessian of L in the weights is
    :math:`\tfrac2n J^\top J` with :math:`J J^\top = X\mathrm{diag}(c)X^\top`,
    :math:`c_d = \sum_\pm (w^{(1)}_{\pm,d})^2 + (w^{(2)}_{\pm,d})^2 \approx
    2|\beta_d|` (balanced weights, one live branch), so its largest eigenvalue
    is at most :math:`4\lambda_{\max}\max_d|\beta_d|` and descent is stable
    below :math:`0.5/(\lambda_{\max}\max_d|\beta_d|)`. Here s is
    ``max(1, size)`` with ``size`` the ground truth's largest coefficient; the
    bound is loose (diag(c) rarely aligns with the top eigenvector of
    :math:`X^\top X`), and a run that diverges raises ConvergenceError.
    """
    top = np.array([np.linalg.eigvalsh(X[:n].T @ X[:n] / n)[-1] for n in counts])
    return np.asarray(0.5 / (top * max(1.0, size)))


@dataclass(frozen=True)
class _Batch:
    """The networks one repeat trains on its own (n, D) inputs ``X``.

    ``targets`` (K, n) or (K, n, O), ``w1`` (K, D), ``w2`` (K, D) or
    (K, O, D), ``rate`` and ``counts`` (K,): the arguments of a trainer.
    """

    X: Float64Array
    targets: Float64Array
    w1: Float64Array
    w2: Float64Array
    rate: Float64Array
    counts: NDArray[np.int64]


#: Repeats train together while the stacked copies of their inputs, one per
#: network, take at most this many bytes: in cache, a step of the stacked
#: products costs about what the R steps of the shared ones do (quick Appendix
#: E.1 configurations, 0.4 MB: 30 us against 34 us for R = 2); beyond it they
#: would stream every copy from memory (full configurations, 27 MB: 5.8 ms
#: against 0.7 ms for R = 5), and the repeats train in groups that share one
#: copy of their inputs instead.
_STACKED_BYTES = 1 << 20


def stacks_repeats(networks: int, samples: int, dimension: int) -> bool:
    r"""Whether the experiments here train ``networks`` repeats of an (n, D)
    problem in one batched call, each with its own copy of the inputs, rather
    than one after another: when the copies fit in 1 MiB of float64,

    .. math::

        8 \cdot \mathrm{networks} \cdot n \cdot D \le 2^{20} \text{ bytes}.

    In cache, a step of the stacked products costs about what the repeats'
    steps one at a time do; beyond it every copy would stream from memory, and
    the repeats train in one call as groups of networks that share their
    inputs (the cost models of the experiments' claims count their calls by
    it).

    Args:
      networks: the repeats (networks) trained together.
      samples: n, the samples of each.
      dimension: D, the input dimension.

    Returns:
      True when the experiments stack the repeats.

    Raises:
      InvalidArgumentError: an argument is not an integer >= 1.

    Examples:
      >>> stacks_repeats(2, 50, 500), stacks_repeats(5, 500, 1000)
      (True, False)

    References:
      The Appendix E.1 experiments of ptft-diagonal-networks
      (:func:`norms_versus_sample_size`, :func:`overlap_versus_rescaling`).
    """
    for name, value in (
        ("networks", networks),
        ("samples", samples),
        ("dimension", dimension),
    ):
        if (
            isinstance(value, bool)
            or not isinstance(value, int | np.integer)
            or value < 1
        ):
            raise InvalidArgumentError(
                f"{name}: must be an integer >= 1, got {value!r}"
            )
    return networks * samples * dimension * 8 <= _STACKED_BYTES


def _train_together(
    trainer: Callable[..., DiagonalTrainingResult],
    batches: Sequence[_Batch],
    tol: float,
) -> list[DiagonalTrainingResult]:
    """Train the batches of every repeat; the results, by batch.

    When :func:`stacks_repeats`, in one call, each network with its batch's
    X (the per-network-input path of the trainers), padded with zero rows to
    the most rows of any batch (its sample count masks them out): the batches
    advance together, one loop instead of one per batch, and each network's
    iterates are the ones it has alone up to the summation order of the
    stacked products. Otherwise also in one call, each batch a group of
    networks sharing its X (``_train_groups``): one loop for all the repeats
    instead of one per batch, two products with each batch's X per step, over
    the rows its live networks train on; the iterates differ from those of a
    call per batch by the summation order of the products only.
    """
    networks = sum(b.rate.size for b in batches)
    samples = max(b.X.shape[0] for b in batches)

    def padded(array: Float64Array, axis: int) -> Float64Array:
        widths = [(0, 0)] * array.ndim
        widths[axis] = (0, samples - array.shape[axis])
        return np.pad(array, widths)

    targets = np.concatenate([padded(b.targets, 1) for b in batches])
    w1 = np.concatenate([b.w1 for b in batches])
    w2 = np.concatenate([b.w2 for b in batches])
    rate = np.concatenate([b.rate for b in batches])
    counts = np.concatenate([b.counts for b in batches])
    if stacks_repeats(networks, samples, batches[0].X.shape[1]):
        result = trainer(
            np.concatenate(
                [
                    np.broadcast_to(
                        padded(b.X, 0), (b.rate.size, samples, b.X.shape[1])
                    )
                    for b in batches
                ]
            ),
            targets,
            w1,
            w2,
            learning_rate=rate,
            sample_counts=counts,
            tol=tol,
        )
    else:
        result = _train_groups(
            [b.X for b in batches],
            [b.rate.size for b in batches],
            targets,
            w1,
            w2,
            learning_rate=rate,
            sample_counts=counts,
            tol=tol,
            # (K, D) second layers: single-task batches; (K, O, D): multi-task.
            single_output=batches[0].w2.ndim == 2,
        )
    starts = np.cumsum([0] + [b.rate.size for b in batches])
    return [
        dataclasses.replace(
            result,
            **{
                field.name: getattr(result, field.name)[start:end]
                for field in dataclasses.fields(result)
            },
        )
        for start, end in itertools.pairwise(starts)
    ]


def _pretraining(
    X_aux: Float64Array, y_aux: Float64Array, size: float, alpha: float
) -> _Batch:
    """One network pretrained from ``alpha`` on ``(X_aux, y_aux)``, all its rows."""
    samples, dimension = X_aux.shape
    return _Batch(
        X_aux,
        y_aux[None],
        np.full((1, dimension), alpha),
        np.full((1, dimension), alpha),
        _stable_learning_rate(X_aux, np.array([samples]), size),
        np.array([samples]),
    )


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


#: Step sizes of the endpoint experiments: eta, eta/2, eta/4.
ENDPOINT_LEARNING_RATES = 0.04 / 2.0 ** np.arange(3)


def min_q_endpoint_errors(*, seed: int = 1) -> Float64Array:
    r"""Distance of single-task descent endpoints to the min-Q interpolant vs the step.

    .. math:: e(\eta) = \|\beta_{GD,\eta}(\infty) - \arg\min_{X\beta = y}
              \|\beta\|_Q\|_2,\qquad k_d = (w^{(1)}_{0,d})^2 + (w^{(2)}_{0,d})^2

    Four random problems (n = 5 < D = 10, Gaussian X and y), unbalanced random
    initializations :math:`w^{(1)}_0 \ne w^{(2)}_0` of scale about 0.5 with
    :math:`w_+(0) = w_-(0)`, each trained at :data:`ENDPOINT_LEARNING_RATES`, all
    twelve networks in one batch. Appendix A's result is exact for the flow, so
    :math:`e(\eta) = A\eta + O(\eta^2)`.

    Args:
      seed: seed of the problems, an integer >= 0.

    Returns:
      The errors, shape (4, 3): problems by step size.

    Raises:
      InvalidArgumentError: ``seed`` is not an integer >= 0.
      ConvergenceError: a network diverged or did not converge (for some
        seeds the fixed learning rates may be too large).

    Examples:
      >>> errors = min_q_endpoint_errors()
      >>> bool(np.all(errors[:, 1:] < errors[:, :-1]))
      True

    References:
      Eqs. (21)-(22) of ptft-diagonal-networks.
    """
    seed = check_seed("seed", seed)
    rng = np.random.default_rng(seed)
    problems, samples, dimension = 4, 5, 10
    x = rng.standard_normal((problems, samples, dimension))
    y = rng.standard_normal((problems, samples))
    w1 = 0.5 * (0.5 + rng.random((problems, dimension)))
    w2 = 0.5 * (0.5 + rng.random((problems, dimension)))
    steps = ENDPOINT_LEARNING_RATES.size
    result = train_diagonal_networks(
        np.repeat(x, steps, axis=0),
        np.repeat(y, steps, axis=0),
        np.repeat(w1, steps, axis=0),
        np.repeat(w2, steps, axis=0),
        learning_rate=np.tile(ENDPOINT_LEARNING_RATES, problems),
    )
    endpoints = result.coefficients.reshape(problems, steps, dimension)
    return np.array(
        [
            np.linalg.norm(
                endpoints[p] - min_q_norm_interpolant(x[p], y[p], w1[p], w2[p]), axis=1
            )
            for p in range(problems)
        ]
    )


def ptft_min_q_endpoint_errors(*, seed: int = 11) -> Float64Array:
    r"""Distance of finetuning endpoints to the min-Q interpolant with pretrained k.

    .. math:: k_d = \lambda^2 (w^{(1),aux}_d)^2 + \gamma^2,\qquad
              e(\eta) = \|\beta_{FT,\eta}(\infty) - \arg\min_{X\beta = y}
              \|\beta\|_Q\|_2

    Pretraining from :math:`\alpha = 0.3` on 8 samples of a 4-sparse auxiliary
    task in D = 10, rescaling :math:`\lambda` = 1 and 0.5, readout
    :math:`\gamma = 0.1`, finetuning on a random main task with n = 5 at
    :data:`ENDPOINT_LEARNING_RATES` (also used for pretraining).

    Args:
      seed: seed of the tasks, an integer >= 0.

    Returns:
      The errors, shape (2, 3): rescaling factor by step size.

    Raises:
      InvalidArgumentError: ``seed`` is not an integer >= 0.
      ConvergenceError: a network diverged or did not converge (for some
        seeds the fixed learning rates may be too large).

    Examples:
      >>> errors = ptft_min_q_endpoint_errors()
      >>> bool(np.all(errors[:, 1:] < errors[:, :-1]))
      True

    References:
      Eqs. (21)-(22) and the end of Appendix A of ptft-diagonal-networks.
    """
    seed = check_seed("seed", seed)
    rng = np.random.default_rng(seed)
    samples, dimension = 5, 10
    x_aux = rng.standard_normal((8, dimension))
    aux = np.zeros(dimension)
    aux[:4] = rng.standard_normal(4)
    x, y = rng.standard_normal((samples, dimension)), rng.standard_normal(samples)
    steps = ENDPOINT_LEARNING_RATES.size
    rescale = np.repeat([1.0, 0.5], steps)
    result = pretrain_finetune_diagonal_networks(
        x_aux,
        x_aux @ aux,
        x,
        y,
        init_scale=0.3,
        gamma=0.1,
        learning_rate=np.tile(ENDPOINT_LEARNING_RATES, 2),
        rescale=rescale,
    )
    return np.array(
        [
            np.linalg.norm(
                result.finetuned.coefficients[k]
                - min_q_norm_interpolant(
                    x, y, result.finetune_w1_init[k], result.finetune_w2_init[k]
                )
            )
            for k in range(2 * steps)
        ]
    ).reshape(2, steps)


def multitask_planted_distances(*, seed: int = 0) -> Float64Array:
    r"""Relative distance of small-init multi-task descent to a planted predictor.

    .. math:: \|\beta_{GD}(\infty) - B\|_F / \|B\|_F,\qquad
              \alpha = 10^{-1}, 10^{-2}, 10^{-3}

    n = 20 Gaussian samples, D = 40 inputs, O = 2 outputs sharing 5 inputs
    (enough samples that the planted B is the unique min-l1,2 interpolant),
    every weight started at :math:`\alpha`, learning rate 0.04, relative loss
    1e-8 (the tail near a sparse predictor is slow).

    Args:
      seed: seed of X and B, an integer >= 0.

    Returns:
      The three relative distances, in the order of the alphas.

    Raises:
      InvalidArgumentError: ``seed`` is not an integer >= 0.
      ConvergenceError: a network diverged or did not converge (for some
        seeds the fixed learning rates may be too large).

    Examples:
      >>> distances = multitask_planted_distances()
      >>> bool(np.all(np.diff(distances) < 0))
      True

    References:
      Eq. (30) of ptft-diagonal-networks.
    """
    seed = check_seed("seed", seed)
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((20, 40))
    truth = np.zeros((2, 40))
    truth[:, :5] = rng.standard_normal((2, 5))
    alphas = np.array([1e-1, 1e-2, 1e-3])
    result = train_multitask_diagonal_networks(
        x,
        x @ truth.T,
        alphas[:, None],
        alphas[:, None, None],
        learning_rate=0.04,
        tol=1e-8,
    )
    distance = np.linalg.norm(result.coefficients - truth, axis=(1, 2))
    return np.asarray(distance / np.linalg.norm(truth))


def multitask_dense_gap(*, seed: int = 0) -> tuple[Float64Array, Float64Array]:
    r"""How far small-init multi-task descent ends from min-l1,2 on dense targets.

    .. math:: \frac{\|\beta_{GD}(\infty)\|_{1,2}}{\min_{XB^\top = Y}\|B\|_{1,2}} - 1,
              \qquad \alpha = 10^{-2}, 10^{-4}

    n = 5 Gaussian samples, D = 12 inputs, O = 2 dense Gaussian targets, every
    weight started at :math:`\alpha`, learning rate 0.02.

    Args:
      seed: seed of X and Y, an integer >= 0.

    Returns:
      ``(excess, distance)``: the relative l1,2 excess over the minimum and
      the Frobenius distance to the min-l1,2 interpolant, one per alpha.

    Raises:
      InvalidArgumentError: ``seed`` is not an integer >= 0.
      ConvergenceError: a network diverged or did not converge (for some
        seeds the fixed learning rates may be too large).

    Examples:
      >>> excess, distance = multitask_dense_gap()
      >>> bool(excess[1] > excess[0] > 0)
      True

    References:
      Eq. (30) of ptft-diagonal-networks.
    """
    seed = check_seed("seed", seed)
    rng = np.random.default_rng(seed)
    x, targets = rng.standard_normal((5, 12)), rng.standard_normal((5, 2))
    best = min_l12_interpolant(x, targets).beta
    alphas = np.array([1e-2, 1e-4])
    result = train_multitask_diagonal_networks(
        x, targets, alphas[:, None], alphas[:, None, None], learning_rate=0.02
    )
    excess = l12_norm(result.coefficients) / l12_norm(best) - 1.0
    distance = np.linalg.norm(result.coefficients - best, axis=(1, 2))
    return np.asarray(excess), np.asarray(distance)


def multitask_dense_gaps(seeds: Sequence[int]) -> tuple[Float64Array, Float64Array]:
    r""":func:`multitask_dense_gap` for several seeds, trained as one batch.

    .. math:: \frac{\|\beta^{(s)}_{GD}(\infty)\|_{1,2}}
              {\min_{X_s B^\top = Y_s}\|B\|_{1,2}} - 1,
              \qquad s \in \text{seeds},\ \alpha = 10^{-2}, 10^{-4}

    The problems of all seeds advance together (one batch of per-problem
    inputs, :func:`train_multitask_diagonal_networks`), so S problems cost
    about one problem's Python overhead per step instead of S.

    Args:
      seeds: the seeds, integers >= 0, at least one.

    Returns:
      ``(excess, distance)``, each (S, 2): row s is
      ``multitask_dense_gap(seed=seeds[s])`` up to float64 rounding (the
      stacked products sum in another order than the shared-input ones).

    Raises:
      InvalidArgumentError: ``seeds`` is empty or a seed is not an integer
        >= 0.
      ConvergenceError: a network diverged or did not converge.

    Examples:
      >>> excess, _ = multitask_dense_gaps([0, 1])
      >>> excess.shape
      (2, 2)

    References:
      Eq. (30) of ptft-diagonal-networks.
    """
    if isinstance(seeds, (str, bytes)) or not isinstance(seeds, Iterable):
        raise InvalidArgumentError(
            f"seeds={seeds!r} is not a sequence of integer seeds >= 0"
        )
    seeds = [check_seed("seeds", seed) for seed in seeds]
    if not seeds:
        raise InvalidArgumentError("seeds=[]: give at least one seed")
    xs, targets, best = [], [], []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        x, y = rng.standard_normal((5, 12)), rng.standard_normal((5, 2))
        xs.append(x)
        targets.append(y)
        best.append(min_l12_interpolant(x, y).beta)
    alphas = np.tile([1e-2, 1e-4], len(seeds))
    # Network 2s + a is seed s at alpha a.
    result = train_multitask_diagonal_networks(
        np.repeat(np.array(xs), 2, axis=0),
        np.repeat(np.array(targets), 2, axis=0),
        alphas[:, None],
        alphas[:, None, None],
        learning_rate=0.02,
    )
    coefficients = result.coefficients.reshape(len(seeds), 2, 2, 12)
    minimum = np.array(best)
    excess = l12_norm(coefficients) / l12_norm(minimum)[:, None] - 1.0
    distance = np.linalg.norm(coefficients - minimum[:, None], axis=(2, 3))
    return np.asarray(excess), np.asarray(distance)
