r"""Fig. 6a-b and 8a of ptft-diagonal-networks: which features a ReLU network uses.

Appendix E.2 of the paper measures "the effective sparse structure of learned
task solutions" of a two-layer ReLU network by clustering its hidden units:
k-means with K clusters "on the normalized input weights to each hidden-layer
neuron", each unit weighted "by the magnitude of the product of its
associated input and output weights" (footnote 3), and reports the inertia,
"the fraction of variance left unexplained", against K (Fig. 6a), and an
alignment score between the cluster centers and the teacher's units
(Fig. 6b). Appendix G measures the participation ratio of the hidden
representation (Fig. 8a). This module runs the single-task teacher-student
experiment of those panels at a laptop's size.

Units as points. A unit h with input weights :math:`w_h^{(1)}` and readout
:math:`w_h^{(2)}` is the point :math:`\theta_h = w_h^{(1)}/\|w_h^{(1)}\|_2`
(eq. (32)'s direction) on the unit sphere with weight
:math:`p_h = |w_h^{(2)}|\,\|w_h^{(1)}\|_2 / \sum_g |w_g^{(2)}|\,\|w_g^{(1)}\|_2`
(eq. (32)'s :math:`|m_h|`, normalized). Its weighted inertia with K centers
:math:`c_k` is

.. math:: I_K = \min_{c_1..c_K}\sum_h p_h \min_k \|\theta_h - c_k\|_2^2 ,

and since :math:`\sum_h p_h\|\theta_h\|^2 = 1`, :math:`I_K` is the fraction
of the points' (uncentred) second moment the centers leave unexplained: in
[0, 1], 0 exactly when the units point in at most K directions. (Our
reading of "fraction of variance": the text does not say whether it
normalizes; unit points have total second moment 1, so the weighted sum of
squares is already that fraction.) :func:`weighted_kmeans` finds the centers
by k-means++ seeding and Lloyd iterations, the best of ``restarts`` runs: like
the paper's k-means, a heuristic, whose value bounds the minimum above.

The alignment score (Appendix E.2.1): "for each teacher unit, ... measuring
its cosine similarity with all the cluster centers, choosing the maximum
value, and averaging this quantity across all teacher units",

.. math:: A = \frac1k\sum_{j=1}^k \max_k
          \frac{\langle v_j, c_k\rangle}{\|v_j\|\,\|c_k\|}.

The teacher's own resolution. A teacher of k units :math:`v_j` with equal
readouts, as points of weight 1/k, has :math:`I_k = 0` and

.. math:: I_{k-1}^{\mathrm{teacher}} = \min_{i<j}\frac{\|v_i - v_j\|^2}{2k}

(with k points and k - 1 nonempty clusters exactly one cluster holds two
points, i and j, whose center is their midpoint; an empty cluster only
raises the sum): the cost of merging the teacher's two closest features.
:func:`teacher_merge_inertia` computes it exactly.

Networks and training are those of
:mod:`implicit_bias.validation.relu_sample_efficiency` (eq. (1) of
ptft-relu-penalty, no biases, full-batch gradient descent on the mean squared
error, Gaussian inputs, a teacher of k unit-norm units with readouts 1),
trained from a small initialization (rich) and from a large one (lazy):
:math:`w_h^{(1)}\sim\mathcal N(0,\sigma^2 I_d/d)`,
:math:`w_h^{(2)}\sim\mathcal N(0,\sigma^2)`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    as_finite_array,
    check_generator,
    check_integer,
    check_real,
    check_seed,
)
from implicit_bias.numerics.representations import participation_ratio
from implicit_bias.validation.relu_kernels import sample_sphere
from implicit_bias.validation.relu_sample_efficiency import (
    TrainedNetworks,
    teacher_outputs,
    train_relu_networks,
)

__all__ = [
    "REGIMES",
    "FeatureClusterSetup",
    "FeatureClusters",
    "TrainedStudents",
    "alignment_score",
    "feature_clusters",
    "teacher_merge_inertia",
    "trained_students",
    "unit_points",
    "weighted_kmeans",
]

Float64Array = NDArray[np.float64]

#: Lloyd iterations per k-means run at most; a run stops earlier when no
#: point changes cluster (then the centers are a fixed point).
_MAX_LLOYD_ITERATIONS = 300


def unit_points(
    hidden_weights: ArrayLike, readout: ArrayLike
) -> tuple[Float64Array, Float64Array]:
    r"""The units of one network as weighted points on the sphere (footnote 3).

    .. math:: \theta_h = \frac{w_h^{(1)}}{\|w_h^{(1)}\|_2},\qquad
              p_h = \frac{|w_h^{(2)}|\,\|w_h^{(1)}\|_2}
              {\sum_g |w_g^{(2)}|\,\|w_g^{(1)}\|_2}

    Units with :math:`w_h^{(1)} = 0` have no direction and weight 0: they are
    left out.

    Args:
      hidden_weights: :math:`w^{(1)}`, (H, d).
      readout: :math:`w^{(2)}`, (H,).

    Returns:
      The directions (H', d) and the weights (H',), summing to 1.

    Raises:
      InvalidArgumentError: a value is not finite, the shapes do not match, or
        every unit has weight 0 (the network is the zero function).

    Examples:
      >>> theta, p = unit_points([[3.0, 4.0], [0.0, 2.0]], [1.0, -0.5])
      >>> theta.tolist(), p.tolist()
      ([[0.6, 0.8], [0.0, 1.0]], [0.8333333333333334, 0.16666666666666666])

    References:
      Eq. (32) and Appendix E.2 (footnote 3) of ptft-diagonal-networks.
    """
    w1 = as_finite_array("hidden_weights", hidden_weights, ndim=2, shape="(H, d)")
    w2 = as_finite_array("readout", readout, ndim=1, shape="(H,)")
    if w1.shape[0] != w2.shape[0] or w1.shape[1] == 0:
        raise InvalidArgumentError(
            f"hidden_weights has shape {w1.shape} and readout {w2.shape}: they "
            "must be (H, d) and (H,) with d >= 1"
        )
    scaled, lengths, exponents = _binary_scaled_rows(w1)
    # |w2_h| ||w1_h|| = m_h 2^(e_h): the weights are ratios of these, taken
    # with the exponents apart, so products far from 1 neither over- nor
    # underflow (a weight below 2^-1074 of the largest rounds to 0).
    readout_mantissas, readout_exponents = np.frexp(np.abs(w2))
    mantissas = readout_mantissas * lengths
    kept = mantissas > 0
    if not kept.any():
        raise InvalidArgumentError(
            "every unit has |readout| * ||hidden weights|| = 0: the network is "
            "the zero function and its units have no weights to cluster"
        )
    powers = readout_exponents[kept] + exponents[kept]
    magnitudes = np.ldexp(mantissas[kept], powers - powers.max())
    return scaled[kept] / lengths[kept, None], magnitudes / magnitudes.sum()


def _binary_scaled_rows(
    matrix: Float64Array,
) -> tuple[Float64Array, Float64Array, NDArray[np.int32]]:
    """Each row as :math:`2^{e_h}` times a row of largest entry in [1/2, 1).

    Returns ``(scaled, lengths, exponents)``: the scaled rows, their Euclidean
    norms (in [1/2, sqrt(d)), 0 for a zero row) and :math:`e_h`, so that
    ``||row_h|| = lengths[h] * 2**exponents[h]``. ``np.linalg.norm`` squares
    the entries, which overflows beyond 1e154 and underflows below 1e-154;
    scaling by a power of two is exact, so within that range the directions
    ``scaled / lengths`` are bit for bit ``row / norm``.
    """
    _, exponents = np.frexp(np.max(np.abs(matrix), axis=1))
    scaled = np.ldexp(matrix, -exponents[:, None])
    return scaled, np.linalg.norm(scaled, axis=1), exponents


def _squared_distances(points: Float64Array, centers: Float64Array) -> Float64Array:
    """(P, K) squared distances, clipped at 0 (the expanded form can round below)."""
    squared = (
        np.sum(points * points, axis=1)[:, None]
        - 2.0 * points @ centers.T
        + np.sum(centers * centers, axis=1)[None, :]
    )
    return np.asarray(np.maximum(squared, 0.0))


def _seed_centers(
    points: Float64Array, weights: Float64Array, clusters: int, rng: np.random.Generator
) -> Float64Array:
    """k-means++ seeding, each point drawn with probability weight x distance^2."""
    chosen = [int(rng.choice(points.shape[0], p=weights))]
    nearest = _squared_distances(points, points[chosen])[:, 0]
    for _ in range(1, clusters):
        mass = weights * nearest
        total = float(mass.sum())
        if total <= 0:
            # Every point sits on a chosen center: any further center is a copy.
            chosen.append(chosen[-1])
            continue
        chosen.append(int(rng.choice(points.shape[0], p=mass / total)))
        nearest = np.minimum(
            nearest, _squared_distances(points, points[chosen[-1:]])[:, 0]
        )
    return np.asarray(points[chosen].copy())


def _lloyd(
    points: Float64Array, weights: Float64Array, centers: Float64Array
) -> tuple[float, Float64Array]:
    """Lloyd iterations from ``centers`` to a fixed assignment; (inertia, centers).

    Each step lowers the inertia or keeps it: the assignment to the nearest
    center, then each center the weighted mean of its points (an emptied
    cluster keeps its center).
    """
    labels = np.argmin(_squared_distances(points, centers), axis=1)
    for _ in range(_MAX_LLOYD_ITERATIONS):
        for k in range(centers.shape[0]):
            members = labels == k
            mass = float(weights[members].sum())
            if mass > 0:
                centers[k] = weights[members] @ points[members] / mass
        distances = _squared_distances(points, centers)
        updated = np.argmin(distances, axis=1)
        if np.array_equal(updated, labels):
            break
        labels = updated
    distances = _squared_distances(points, centers)
    return float(weights @ distances.min(axis=1)), centers


def weighted_kmeans(
    points: ArrayLike,
    weights: ArrayLike,
    clusters: int,
    rng: np.random.Generator,
    *,
    restarts: int = 10,
) -> tuple[float, Float64Array]:
    r"""Weighted k-means: the best of ``restarts`` k-means++ and Lloyd runs.

    .. math:: I_K = \min_{c_1..c_K}\sum_h p_h \min_k\|\theta_h - c_k\|_2^2

    with the weights normalized to sum 1. A heuristic (the problem is
    NP-hard): the returned inertia is attained by the returned centers, so it
    bounds :math:`I_K` above.

    Args:
      points: :math:`\theta_h`, (P, d).
      weights: :math:`p_h \ge 0`, (P,), not all 0.
      clusters: K >= 1.
      rng: the generator of the k-means++ draws.
      restarts: runs, >= 1.

    Returns:
      The inertia and the centers (K, d).

    Raises:
      InvalidArgumentError: a value is not finite, the shapes do not match, a
        weight is negative or all are 0, ``clusters`` or ``restarts`` is not
        an integer >= 1, or ``rng`` is not a Generator.
      OutOfRangeError: the inertia exceeds the float64 range (points beyond
        about 1e154 apart).

    Examples:
      Two tight pairs of points need two centers:

      >>> theta = [[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]]
      >>> rng = np.random.default_rng(0)
      >>> round(weighted_kmeans(theta, [1, 1, 1, 1], 1, rng)[0], 12)
      0.5
      >>> weighted_kmeans(theta, [1, 1, 1, 1], 2, rng)[0]
      0.0

    References:
      Appendix E.2 of ptft-diagonal-networks.
    """
    theta = as_finite_array("points", points, ndim=2, shape="(P, d)")
    p = as_finite_array("weights", weights, ndim=1, shape="(P,)")
    if theta.shape[0] != p.shape[0] or 0 in theta.shape:
        raise InvalidArgumentError(
            f"points has shape {theta.shape} and weights {p.shape}: they must be "
            "(P, d) and (P,) with P, d >= 1"
        )
    if np.any(p < 0) or not np.any(p > 0):
        raise InvalidArgumentError(
            "weights must be >= 0 and not all 0: they weigh each point's "
            "squared distance"
        )
    k = check_integer("clusters", clusters, min_value=1, meaning="K, the centers")
    runs = check_integer("restarts", restarts, min_value=1, meaning="k-means runs")
    rng = check_generator("rng", rng)
    # Scaled by powers of two (exact): the points so that squared distances
    # neither overflow (beyond 1e154) nor underflow, the weights so that
    # their sum does not overflow.
    exponent = int(np.frexp(np.max(np.abs(theta)))[1])
    theta = np.ldexp(theta, -exponent)
    p = np.ldexp(p, -int(np.frexp(np.max(p))[1]))
    p = p / p.sum()
    # runs >= 1: the first restart sets the best.
    best = _lloyd(theta, p, _seed_centers(theta, p, k, rng))
    for _ in range(runs - 1):
        found = _lloyd(theta, p, _seed_centers(theta, p, k, rng))
        if found[0] < best[0]:
            best = found
    try:
        inertia = math.ldexp(best[0], 2 * exponent)
    except OverflowError as error:
        raise OutOfRangeError(
            f"the inertia of points (largest entry {np.max(np.abs(points)):.3g}) "
            f"is {best[0]:.6g} * 2^{2 * exponent}, beyond the float64 range"
        ) from error
    return inertia, np.ldexp(best[1], exponent)


def alignment_score(teacher_units: ArrayLike, centers: ArrayLike) -> float:
    r"""The alignment score of Appendix E.2.1.

    .. math:: A = \frac1k\sum_{j=1}^k\max_k
              \frac{\langle v_j, c_k\rangle}{\|v_j\|\,\|c_k\|}

    Args:
      teacher_units: :math:`v_j`, (k, d), nonzero rows.
      centers: :math:`c_k`, (K, d); zero rows (no direction) are skipped.

    Returns:
      A, in [-1, 1].

    Raises:
      InvalidArgumentError: a value is not finite, the dimensions differ, a
        teacher unit is 0 or every center is 0.

    Examples:
      >>> alignment_score([[1.0, 0.0], [0.0, 2.0]], [[3.0, 0.0], [1.0, 1.0]])
      0.8535533905932737

    References:
      Appendix E.2.1 of ptft-diagonal-networks.
    """
    v = as_finite_array("teacher_units", teacher_units, ndim=2, shape="(k, d)")
    c = as_finite_array("centers", centers, ndim=2, shape="(K, d)")
    if v.shape[1] != c.shape[1] or 0 in v.shape or c.shape[0] == 0:
        raise InvalidArgumentError(
            f"teacher_units has shape {v.shape} and centers {c.shape}: both must "
            "have rows in the same R^d"
        )
    v_scaled, v_lengths, _ = _binary_scaled_rows(v)
    c_scaled, c_lengths, _ = _binary_scaled_rows(c)
    if np.any(v_lengths == 0):
        raise InvalidArgumentError(
            f"teacher_units has a zero row (row {int(np.argmin(v_lengths))}): a "
            "cosine needs a nonzero teacher unit"
        )
    if not np.any(c_lengths > 0):
        raise InvalidArgumentError(
            "centers has only zero rows: a cosine needs a nonzero center"
        )
    nonzero = c_lengths > 0
    c_unit = c_scaled[nonzero] / c_lengths[nonzero, None]
    cosines = (v_scaled / v_lengths[:, None]) @ c_unit.T
    return float(np.mean(np.max(cosines, axis=1)))


def teacher_merge_inertia(teacher_units: ArrayLike) -> float:
    r"""The inertia of the teacher's own k units with k - 1 clusters, exactly.

    .. math:: I_{k-1}^{\mathrm{teacher}} = \min_{i<j}
              \frac{\|v_i - v_j\|_2^2}{2k}

    for k unit vectors of weight 1/k (module docstring: the optimal k - 1
    clusters merge one pair).

    Args:
      teacher_units: :math:`v_j`, (k, d), unit rows, k >= 2.

    Returns:
      The inertia, in [0, 2/k].

    Raises:
      InvalidArgumentError: a value is not finite, k < 2, or a row is not a
        unit vector (norm 1 within 1e-10).

    Examples:
      >>> teacher_merge_inertia([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])
      0.3333333333333333

    References:
      Appendix E.2 of ptft-diagonal-networks (the teacher's units as points).
    """
    v = as_finite_array("teacher_units", teacher_units, ndim=2, shape="(k, d)")
    if v.shape[0] < 2 or v.shape[1] == 0:
        raise InvalidArgumentError(
            f"teacher_units has shape {v.shape}: k - 1 >= 1 clusters need k >= 2 units"
        )
    if not np.allclose(np.linalg.norm(v, axis=1), 1.0, rtol=0.0, atol=1e-10):
        raise InvalidArgumentError(
            "teacher_units has a row that is not a unit vector (norm 1 within "
            "1e-10): the teacher's units have equal weight as unit points"
        )
    pairs = np.triu_indices(v.shape[0], 1)
    squared = np.sum((v[pairs[0]] - v[pairs[1]]) ** 2, axis=1)
    return float(np.min(squared) / (2 * v.shape[0]))


@dataclass(frozen=True)
class FeatureClusterSetup:
    r"""The configuration of the single-task experiment (module docstring).

    Attributes:
      sample_sizes: training sample sizes n >= 1, increasing, (N,).
      seeds: independent repeats S (teacher, data, initializations), >= 2.
      dimension: d >= 2. teacher_units: k >= 2. width: H >= 1.
      rich_scale, lazy_scale: the initialization scale :math:`\sigma > 0` of
        the rich and the lazy networks.
      rich_learning_rate, lazy_learning_rate: their step sizes, > 0.
      steps: gradient steps of every network, >= 1.
      max_clusters: the inertia is computed for K = 1..max_clusters (>= k).
      restarts: k-means runs per K, >= 1.
      test_samples: fresh inputs of the representation's PR, >= 2.
      seed: the master seed, >= 0.

    Raises:
      InvalidArgumentError: a field outside its domain.
    """

    sample_sizes: tuple[int, ...] = (16, 64, 256, 1024)
    seeds: int = 8
    dimension: int = 10
    teacher_units: int = 6
    width: int = 32
    rich_scale: float = 1e-2
    lazy_scale: float = 1.0
    rich_learning_rate: float = 0.2
    lazy_learning_rate: float = 0.02
    steps: int = 20000
    max_clusters: int = 8
    restarts: int = 10
    test_samples: int = 1000
    seed: int = 0

    def __post_init__(self) -> None:
        checked: dict[str, object] = {}
        for name, minimum, meaning in (
            ("seeds", 2, "the independent repeats S (>= 2: a standard error)"),
            ("dimension", 2, "the input dimension d (>= 2)"),
            ("teacher_units", 2, "the teacher's units k (>= 2)"),
            ("width", 1, "the student's width H (>= 1)"),
            ("steps", 1, "the gradient steps (>= 1)"),
            ("restarts", 1, "the k-means runs per K (>= 1)"),
            ("test_samples", 2, "the fresh inputs of the PR (>= 2)"),
        ):
            checked[name] = check_integer(
                name, getattr(self, name), min_value=minimum, meaning=meaning
            )
        checked["max_clusters"] = check_integer(
            "max_clusters",
            self.max_clusters,
            min_value=int(checked["teacher_units"]),  # type: ignore[call-overload]
            meaning="the largest K (>= teacher_units)",
        )
        checked["seed"] = check_seed("seed", self.seed)
        sizes = self.sample_sizes
        if not isinstance(sizes, tuple | list) or len(sizes) == 0:
            raise InvalidArgumentError(
                f"sample_sizes={sizes!r:.80} is empty or not a tuple"
            )
        checked["sample_sizes"] = tuple(
            check_integer(
                f"sample_sizes[{i}]", n, min_value=1, meaning="a sample size (>= 1)"
            )
            for i, n in enumerate(sizes)
        )
        if list(checked["sample_sizes"]) != sorted(set(checked["sample_sizes"])):  # type: ignore[call-overload]
            raise InvalidArgumentError(
                f"sample_sizes={sizes!r} must be strictly increasing"
            )
        for name in (
            "rich_scale",
            "lazy_scale",
            "rich_learning_rate",
            "lazy_learning_rate",
        ):
            checked[name] = check_real(
                name,
                getattr(self, name),
                min_value=0.0,
                exclusive=True,
                meaning="an initialization scale or step size (> 0)",
            )
        for name, value in checked.items():
            object.__setattr__(self, name, value)


@dataclass(frozen=True, eq=False)
class FeatureClusters:
    """What the rich and lazy networks of :func:`feature_clusters` learned.

    Axes: regime (in the order of ``regimes``), n (``sample_sizes``), seed (S).

    Attributes:
      setup: the configuration.
      regimes: the regimes run, from ``("rich", "lazy")``.
      sample_sizes: the n trained, from ``setup.sample_sizes``.
      inertia: :math:`I_K` for K = 1..max_clusters, (regimes, N, S, K).
      alignment: the alignment score with K = k clusters, (regimes, N, S).
      participation_ratio: PR of the hidden representation
        :math:`(\\langle w_h^{(1)}, x\\rangle)_+` on fresh inputs,
        (regimes, N, S).
      relative_loss: final training loss over the zero function's,
        (regimes, N, S).
      weight_movement: :math:`\\|w - w(0)\\| / \\|w(0)\\|` over all weights,
        (regimes, N, S).
      teacher_inertia: :func:`teacher_merge_inertia` of each seed's teacher,
        (S,).
      teacher_cosine: each teacher's largest cosine between two of its units,
        (S,).
    """

    setup: FeatureClusterSetup
    regimes: tuple[str, ...]
    sample_sizes: tuple[int, ...]
    inertia: Float64Array
    alignment: Float64Array
    participation_ratio: Float64Array
    relative_loss: Float64Array
    weight_movement: Float64Array
    teacher_inertia: Float64Array
    teacher_cosine: Float64Array


#: The regimes :func:`feature_clusters` trains.
REGIMES = ("rich", "lazy")


def _check_setup(setup: object) -> FeatureClusterSetup:
    if not isinstance(setup, FeatureClusterSetup):
        raise InvalidArgumentError(f"setup={setup!r:.80} is not a FeatureClusterSetup")
    return setup


def feature_clusters(
    setup: FeatureClusterSetup,
    *,
    regimes: tuple[str, ...] = REGIMES,
    sample_sizes: tuple[int, ...] | None = None,
) -> FeatureClusters:
    r"""Train rich and lazy ReLU students on a k-unit teacher; cluster their units.

    Per seed: one teacher of k units uniform on :math:`S^{d-1}` with readouts
    1, nested data sets (the first n of one draw of the largest n of
    ``setup.sample_sizes``, whichever n are trained), fresh test inputs, and
    one initialization shared by both regimes and every n (the same draw
    scaled by each regime's :math:`\sigma`). Every network trains
    ``setup.steps`` steps; then its units are clustered (:func:`unit_points`,
    :func:`weighted_kmeans` for K = 1..max_clusters, a generator per (regime,
    n) from the master seed) and the alignment score uses the K = k centers.
    Each (regime, n) is computed once per process and setup.

    Args:
      setup: the configuration.
      regimes: which of ``("rich", "lazy")`` to train, in this order.
      sample_sizes: which n of ``setup.sample_sizes`` to train (None: all).

    Returns:
      A :class:`FeatureClusters`.

    Raises:
      InvalidArgumentError: ``setup`` is not a :class:`FeatureClusterSetup`, or
        a regime or n is not one of the setup's.
      ConvergenceError: training diverges (lower the learning rate).

    References:
      Appendix E.2.1, Fig. 6a-b and Fig. 8a of ptft-diagonal-networks.
    """
    setup = _check_setup(setup)
    if not regimes or any(r not in REGIMES for r in regimes):
        raise InvalidArgumentError(
            f"regimes={regimes!r} must be a nonempty tuple of {REGIMES}"
        )
    sizes = _check_sizes(setup, sample_sizes)
    pieces = [[_trained(setup, regime, n) for n in sizes] for regime in regimes]
    inertia, alignment, pr, loss, movement = (
        np.array([[piece[index] for piece in row] for row in pieces])
        for index in range(5)
    )
    units = _draws(setup)[0]
    k = setup.teacher_units
    cosines = np.einsum("skd,sjd->skj", units, units)
    off_diagonal = ~np.eye(k, dtype=bool)
    return FeatureClusters(
        setup,
        tuple(regimes),
        sizes,
        inertia,
        alignment,
        pr,
        loss,
        movement,
        np.array([teacher_merge_inertia(v) for v in units]),
        np.array([float(np.max(c[off_diagonal])) for c in cosines]),
    )


def _check_sizes(setup: FeatureClusterSetup, given: object) -> tuple[int, ...]:
    sizes = setup.sample_sizes if given is None else given
    # Integers only: 8.0 == 8 would pass the membership test and be trained
    # (and cached) as the float.
    if (
        not isinstance(sizes, tuple | list)
        or not sizes
        or any(
            isinstance(n, bool)
            or not isinstance(n, int | np.integer)
            or n not in setup.sample_sizes
            for n in sizes
        )
    ):
        raise InvalidArgumentError(
            f"sample_sizes={given!r:.80} must be a nonempty tuple of "
            f"setup.sample_sizes {setup.sample_sizes}"
        )
    return tuple(int(n) for n in sizes)


@functools.lru_cache(maxsize=2)
def _draws(
    setup: FeatureClusterSetup,
) -> tuple[Float64Array, Float64Array, Float64Array, Float64Array, Float64Array]:
    """Teachers, inputs, targets, test inputs and the unscaled initialization."""
    rng = np.random.default_rng(setup.seed)
    seeds, d, k = setup.seeds, setup.dimension, setup.teacher_units
    units = np.stack([sample_sphere(k, d, rng) for _ in range(seeds)])
    x = rng.standard_normal((seeds, setup.sample_sizes[-1], d))
    y = teacher_outputs(x, units, np.ones(seeds))
    x_test = rng.standard_normal((seeds, setup.test_samples, d))
    hidden = rng.standard_normal((seeds, setup.width, d)) / math.sqrt(d)
    readout = rng.standard_normal((seeds, setup.width))
    for array in (units, x, y, x_test, hidden, readout):
        array.setflags(write=False)
    return units, x, y, x_test, np.concatenate([hidden, readout[..., None]], axis=2)


@dataclass(frozen=True, eq=False)
class TrainedStudents:
    """The S networks :func:`feature_clusters` trains at one (regime, n).

    Attributes:
      teacher_units: each seed's teacher, k unit-norm rows, (S, k, d).
      test_inputs: each seed's fresh inputs (those of the PR), (S, m, d).
      hidden_init: :math:`w^{(1)}(0)`, (S, H, d).
      readout_init: :math:`w^{(2)}(0)`, (S, H).
      networks: the trained networks (:class:`TrainedNetworks`).

    Every array is read-only: the networks are cached and shared.
    """

    teacher_units: Float64Array
    test_inputs: Float64Array
    hidden_init: Float64Array
    readout_init: Float64Array
    networks: TrainedNetworks


def trained_students(
    setup: FeatureClusterSetup, regime: str, n: int
) -> TrainedStudents:
    """The networks of :func:`feature_clusters` at one (regime, n), trained once
    per process and setup (shared with :func:`feature_clusters`).

    Args:
      setup: the configuration.
      regime: ``"rich"`` or ``"lazy"``.
      n: one of ``setup.sample_sizes``.

    Returns:
      A :class:`TrainedStudents`.

    Raises:
      InvalidArgumentError: ``setup`` is not a :class:`FeatureClusterSetup`,
        or ``regime`` or ``n`` is not one of the setup's.
      ConvergenceError: training diverges (lower the learning rate).

    References:
      Appendix E.2.1 and Appendix G of ptft-diagonal-networks.
    """
    setup = _check_setup(setup)
    if regime not in REGIMES:
        raise InvalidArgumentError(f"regime={regime!r:.40} must be one of {REGIMES}")
    if (
        isinstance(n, bool)
        or not isinstance(n, int | np.integer)
        or n not in setup.sample_sizes
    ):
        raise InvalidArgumentError(
            f"n={n!r:.40} must be one of setup.sample_sizes {setup.sample_sizes}"
        )
    return _students(setup, regime, int(n))


@functools.lru_cache(maxsize=16)
def _students(setup: FeatureClusterSetup, regime: str, n: int) -> TrainedStudents:
    units, x, y, x_test, initial = _draws(setup)
    scale, rate = (
        (setup.rich_scale, setup.rich_learning_rate)
        if regime == "rich"
        else (setup.lazy_scale, setup.lazy_learning_rate)
    )
    w1, w2 = scale * initial[..., :-1], scale * initial[..., -1]
    trained = train_relu_networks(
        x[:, :n], y[:, :n], w1, w2, learning_rate=rate, steps=setup.steps
    )
    for array in (
        w1,
        w2,
        trained.hidden_weights,
        trained.readout,
        trained.relative_loss,
    ):
        array.setflags(write=False)
    return TrainedStudents(units, x_test, w1, w2, trained)


@functools.lru_cache(maxsize=16)
def _trained(
    setup: FeatureClusterSetup, regime: str, n: int
) -> tuple[Float64Array, ...]:
    """(inertia (S, K), alignment, PR, loss, movement (S,)) of one (regime, n)."""
    students = _students(setup, regime, n)
    units, x_test = students.teacher_units, students.test_inputs
    w1, w2, trained = students.hidden_init, students.readout_init, students.networks
    change = np.sqrt(
        np.sum((trained.hidden_weights - w1) ** 2, axis=(1, 2))
        + np.sum((trained.readout - w2) ** 2, axis=1)
    )
    movement = change / np.sqrt(np.sum(w1**2, axis=(1, 2)) + np.sum(w2**2, axis=1))
    seeds, k = setup.seeds, setup.teacher_units
    inertia = np.empty((seeds, setup.max_clusters))
    alignment, pr = np.empty(seeds), np.empty(seeds)
    cluster_rng = np.random.default_rng([setup.seed, REGIMES.index(regime), n])
    for s in range(seeds):
        theta, p = unit_points(trained.hidden_weights[s], trained.readout[s])
        for clusters in range(1, setup.max_clusters + 1):
            value, centers = weighted_kmeans(
                theta, p, clusters, cluster_rng, restarts=setup.restarts
            )
            inertia[s, clusters - 1] = value
            if clusters == k:
                alignment[s] = alignment_score(units[s], centers)
        responses = np.maximum(x_test[s] @ trained.hidden_weights[s].T, 0.0)
        pr[s] = participation_ratio(responses)
    return inertia, alignment, pr, trained.relative_loss, movement
