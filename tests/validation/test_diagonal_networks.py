r"""Gradient descent on diagonal linear networks against the implicit-bias theory.

:mod:`implicit_bias.validation.diagonal_networks` trains the networks of eqs.
(7) and (25) of ptft-diagonal-networks; :mod:`implicit_bias.numerics.q_norm`
computes the interpolants the theory says training ends at. Error theory:

* Gradient flow from :math:`w_+(0) = w_-(0) = w_0` that converges to an
  interpolant ends EXACTLY at :math:`\arg\min_{X\beta=y}\|\beta\|_Q` with
  :math:`k_d = w^{(1)}_{0,d}{}^2 + w^{(2)}_{0,d}{}^2` (Appendix A). Gradient
  descent is its Euler discretization, so the endpoint error is
  :math:`e(\eta) = \eta A + \eta^2 B + O(\eta^3)` (first order).
* The stopping rule leaves a residual of ``sqrt(tol) ||y||`` (1e-10 relative),
  and the reference solvers are accurate to 1e-12 relative: both are below
  1e-6 of the smallest discretization error measured here, so they do not
  enter the tolerances.
* Small-initialization asymptotics of min-Q (derived in
  :func:`test_small_init_approaches_min_l1_at_the_predicted_rate`).
"""

from __future__ import annotations

from functools import partial

import inspect
import itertools
import math

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from numpy.typing import NDArray

import implicit_bias.validation as validation
import implicit_bias.validation.diagonal_networks as diagonal_networks
from implicit_bias.validation.diagonal_networks import descent, trainers
from implicit_bias.errors import ConvergenceError, InvalidArgumentError
from implicit_bias.numerics import (
    min_l12_interpolant,
)
from implicit_bias.validation import (
    diagonal_coefficients,
    train_diagonal_networks,
    train_multitask_diagonal_networks,
)
from tests.contract.harness import cpu_budget

Array = NDArray[np.float64]


# ------------------------------------------------------ gradients and batching


def textbook_step(
    X: Array, Y: Array, weights: list[Array], learning_rate: float
) -> list[Array]:
    """One gradient step on L = ||X B^T - Y||^2 / n, by explicit loops (eq. 25).

    ``weights`` = [w1+ (D,), w1- (D,), w2+ (O, D), w2- (O, D)].
    """
    w1p, w1m, w2p, w2m = weights
    samples, dimension = X.shape
    outputs = Y.shape[1]
    beta = [
        [w2p[o][d] * w1p[d] - w2m[o][d] * w1m[d] for d in range(dimension)]
        for o in range(outputs)
    ]
    residual = [
        [
            sum(X[i][d] * beta[o][d] for d in range(dimension)) - Y[i][o]
            for o in range(outputs)
        ]
        for i in range(samples)
    ]
    # dL/dbeta_{o,d} = (2/n) sum_i r_{i,o} x_{i,d}
    grad = [
        [
            2.0 / samples * sum(residual[i][o] * X[i][d] for i in range(samples))
            for d in range(dimension)
        ]
        for o in range(outputs)
    ]
    new_w1p = [
        w1p[d] - learning_rate * sum(grad[o][d] * w2p[o][d] for o in range(outputs))
        for d in range(dimension)
    ]
    new_w1m = [
        w1m[d] + learning_rate * sum(grad[o][d] * w2m[o][d] for o in range(outputs))
        for d in range(dimension)
    ]
    new_w2p = [
        [w2p[o][d] - learning_rate * grad[o][d] * w1p[d] for d in range(dimension)]
        for o in range(outputs)
    ]
    new_w2m = [
        [w2m[o][d] + learning_rate * grad[o][d] * w1m[d] for d in range(dimension)]
        for o in range(outputs)
    ]
    return [np.array(w) for w in (new_w1p, new_w1m, new_w2p, new_w2m)]


# Domain: small batches of random problems (entries standard normal, weights
# of either sign), n, D, O up to 5, shared or per-network X.
@given(
    count=st.integers(1, 3),
    samples=st.integers(1, 5),
    dimension=st.integers(1, 5),
    outputs=st.integers(1, 3),
    shared=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
@example(count=1, samples=1, dimension=1, outputs=1, shared=True, seed=0)
def test_one_step_matches_textbook_gradient(
    count: int, samples: int, dimension: int, outputs: int, shared: bool, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    X = rng.standard_normal(
        (samples, dimension) if shared else (count, samples, dimension)
    )
    Y = rng.standard_normal((count, samples, outputs))
    w1 = rng.standard_normal((count, dimension))
    w2 = rng.standard_normal((count, outputs, dimension))
    rate = rng.uniform(1e-3, 1e-1, count)
    result = train_multitask_diagonal_networks(
        X, Y, w1, w2, learning_rate=rate, tol=0.0, max_steps=1, strict=False
    )
    assert np.all(result.steps == 1)
    for k in range(count):
        X_k = X if shared else X[k]
        expected = textbook_step(X_k, Y[k], [w1[k], w1[k], w2[k], w2[k]], rate[k])
        got = [
            result.first_layer_plus[k],
            result.first_layer_minus[k],
            result.second_layer_plus[k],
            result.second_layer_minus[k],
        ]
        scale = 1.0 + np.abs(X_k).sum() * (np.abs(w1[k]).max() + np.abs(w2[k]).max())
        for e, g in zip(expected, got, strict=True):
            # Sums of at most n*D*O products: rounding of 64 eps of the scale.
            np.testing.assert_allclose(g, e, rtol=0, atol=64 * 2.2e-16 * scale**2)


def test_batched_networks_equal_networks_trained_alone() -> None:
    # Masked sample counts, per-network X and learning rates, in one batch.
    rng = np.random.default_rng(3)
    X = rng.standard_normal((4, 6, 10))
    y = rng.standard_normal((4, 6))
    counts = np.array([6, 4, 5, 3])
    rate = np.array([0.05, 0.02, 0.04, 0.03])
    init = 0.2 + 0.3 * rng.random((4, 10))
    batch = train_diagonal_networks(
        X, y, init, init[::-1], learning_rate=rate, sample_counts=counts
    )
    for k in range(4):
        n = counts[k]
        alone = train_diagonal_networks(
            X[k, :n], y[k, :n], init[k], init[3 - k], learning_rate=rate[k]
        )
        assert alone.steps[0] == batch.steps[k]
        # Same arithmetic up to the summation order of BLAS and einsum.
        np.testing.assert_allclose(
            batch.coefficients[k], alone.coefficients[0], rtol=1e-9, atol=1e-12
        )


@pytest.mark.parametrize("outputs", [1, 2, 3])
def test_shared_inputs_batch_equals_networks_trained_alone(outputs: int) -> None:
    # Shared X with masked sample counts and several outputs: networks leave
    # the batch at different steps (the branch-stacked layout must drop the
    # right rows of the targets and masks), each as if trained alone.
    rng = np.random.default_rng(5)
    X = rng.standard_normal((6, 10))
    Y = rng.standard_normal((4, 6, outputs))
    counts = np.array([6, 3, 5, 4])
    rate = np.array([0.03, 0.05, 0.02, 0.04])
    w1 = 0.2 + 0.3 * rng.random((4, 10))
    w2 = 0.2 + 0.3 * rng.random((4, outputs, 10))
    batch = train_multitask_diagonal_networks(
        X, Y, w1, w2, learning_rate=rate, sample_counts=counts
    )
    assert len(set(batch.steps.tolist())) == 4
    for k in range(4):
        n = counts[k]
        alone = train_multitask_diagonal_networks(
            X[:n], Y[k, :n], w1[k], w2[k], learning_rate=rate[k]
        )
        assert alone.steps[0] == batch.steps[k]
        # Same arithmetic up to the summation order of BLAS.
        for name in ("coefficients", "first_layer_minus", "second_layer_minus"):
            np.testing.assert_allclose(
                getattr(batch, name)[k], getattr(alone, name)[0], rtol=1e-9, atol=1e-12
            )


def test_multitask_with_one_output_is_single_task() -> None:
    rng = np.random.default_rng(4)
    X, y = rng.standard_normal((5, 8)), rng.standard_normal(5)
    single = train_diagonal_networks(X, y, 0.3, 0.2, learning_rate=0.05)
    multi = train_multitask_diagonal_networks(
        X, y[:, None], 0.3, 0.2, learning_rate=0.05
    )
    np.testing.assert_array_equal(single.steps, multi.steps)
    np.testing.assert_allclose(
        multi.coefficients[:, 0], single.coefficients, rtol=1e-12, atol=1e-15
    )


def test_one_single_task_step_is_the_two_layer_updates_bit_for_bit() -> None:
    # The single-output step updates both layers at once, w -= g * w[::-1]
    # (branch-stacked layers swapped): the same floating-point operations as
    # w1 -= g w2 and w2 -= g w1 with the old w1, so the same bits.
    rng = np.random.default_rng(11)
    X, y = rng.standard_normal((5, 7)), rng.standard_normal((3, 5))
    w1, w2 = rng.standard_normal((3, 7)), rng.standard_normal((3, 7))
    rate = np.array([0.01, 0.02, 0.03])
    result = train_diagonal_networks(
        X, y, w1, w2, learning_rate=rate, tol=0.0, max_steps=1, strict=False
    )
    # The trainer's arithmetic in its order: beta (the - branch's second layer
    # negated), the residual and gradient products, the scale 2 eta / n.
    beta = w2 * w1 + (-w2) * w1
    residual = beta @ X.T - y
    gradient = (residual @ X) * (rate * (2.0 / 5))[:, None]
    np.testing.assert_array_equal(result.first_layer_plus, w1 - gradient * w2)
    np.testing.assert_array_equal(result.first_layer_minus, w1 - gradient * -w2)
    np.testing.assert_array_equal(result.second_layer_plus, w2 - gradient * w1)
    np.testing.assert_array_equal(result.second_layer_minus, -(-w2 - gradient * w1))


# ------------------------------------------------- groups of networks sharing X


def _blocks_cost(blocks: list[tuple[int, int, int, int]]) -> int:
    return sum(
        (stop - start) * rows + descent._BLOCK_ROWS for _, start, stop, rows in blocks
    )


# Domain: up to 3 groups of up to 6 networks, counts 1..200 ascending within
# a group; the brute force tries every split of every group into blocks.
@given(
    st.lists(
        st.lists(st.integers(1, 200), min_size=1, max_size=6).map(sorted),
        min_size=1,
        max_size=3,
    )
)
@example([[10, 10, 20, 20, 40, 40, 60, 60, 80, 80, 120, 120, 160, 160][:6]])
def test_group_bounds_split_groups_at_the_least_cost(groups: list[list[int]]) -> None:
    ids = np.repeat(np.arange(len(groups)), [len(g) for g in groups])
    counts = np.concatenate([np.array(g, dtype=float) for g in groups])
    bounds = descent._group_bounds(ids, counts)
    # Consecutive blocks covering the batch, each within one group, over the
    # most rows of its networks.
    assert [b[1] for b in bounds] == [0, *[b[2] for b in bounds[:-1]]]
    assert bounds[-1][2] == counts.size
    for g, start, stop, rows in bounds:
        assert np.all(ids[start:stop] == g)
        assert rows == counts[start:stop].max()
    # Least cost: brute force over the 2^(m-1) splits of each group.
    best = 0
    for group in groups:
        m = len(group)
        costs = []
        for mask in range(2 ** (m - 1)):
            cuts = [0, *[i + 1 for i in range(m - 1) if mask >> i & 1], m]
            costs.append(
                sum(
                    (b - a) * group[b - 1] + descent._BLOCK_ROWS
                    for a, b in itertools.pairwise(cuts)
                )
            )
        best += min(costs)
    assert _blocks_cost(bounds) == best


@pytest.mark.parametrize("outputs", [1, 2])
def test_groups_sharing_inputs_equal_networks_trained_alone(outputs: int) -> None:
    # Three groups, one with fewer rows than the others (padded with zero
    # rows), networks in no particular order of their sample counts (sorted
    # inside, and back): each network as if trained alone on its group's X.
    rng = np.random.default_rng(8)
    inputs = [rng.standard_normal((rows, 12)) for rows in (7, 5, 7)]
    sizes = [4, 1, 3]
    group = np.repeat(np.arange(3), sizes)
    counts = np.array([7, 3, 5, 4, 5, 6, 2, 7])
    Y = rng.standard_normal((8, 7, outputs))
    Y[np.arange(7)[None, :] >= counts[:, None]] = 0.0
    rate = rng.uniform(0.02, 0.05, 8)
    w1 = 0.2 + 0.3 * rng.random((8, 12))
    w2 = 0.2 + 0.3 * rng.random((8, outputs, 12))
    grouped = trainers._train_groups(
        inputs,
        sizes,
        Y[..., 0] if outputs == 1 else Y,
        w1,
        w2[:, 0] if outputs == 1 else w2,
        learning_rate=rate,
        sample_counts=counts,
        tol=1e-12,
        single_output=outputs == 1,
    )
    assert len(set(grouped.steps.tolist())) > 4
    for k in range(8):
        n = counts[k]
        alone = train_multitask_diagonal_networks(
            inputs[group[k]][:n],
            Y[k, :n],
            w1[k],
            w2[k],
            learning_rate=rate[k],
            tol=1e-12,
        )
        assert alone.steps[0] == grouped.steps[k]
        # Same arithmetic up to the summation order of BLAS.
        got = grouped.coefficients[k].reshape(outputs, 12)
        np.testing.assert_allclose(got, alone.coefficients[0], rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(
            grouped.loss[k], alone.loss[0], rtol=1e-6, atol=1e-30
        )


@pytest.mark.parametrize(
    ("inputs", "sizes", "counts", "match"),
    [
        ([np.eye(3)], [1, 1], [3, 3], "group sizes"),
        ([], [], [], "group sizes"),
        ([np.eye(3), np.ones((3, 2))], [1, 1], [3, 3], "one D"),
        ([np.eye(3), np.eye(3)[:2]], [1, 1], [3, 3], "count above"),
        ([np.eye(3), np.full((3, 3), np.nan)], [1, 1], [3, 3], "inputs"),
    ],
)
def test_train_groups_rejects_bad_groups(
    inputs: list[Array], sizes: list[int], counts: list[int], match: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        trainers._train_groups(
            inputs,
            sizes,
            np.ones((len(counts), 3)),
            0.1 * np.ones((len(counts), 3)),
            0.1 * np.ones((len(counts), 3)),
            learning_rate=np.full(len(counts), 0.05),
            sample_counts=np.array(counts),
            tol=1e-6,
            single_output=True,
        )


# ------------------------------------------- Appendix A: STL ends at min-Q (eq. 22)


def observed_orders(errors: Array) -> Array:
    """log2 of successive error ratios for step sizes eta, eta/2, eta/4."""
    return np.log2(errors[..., :-1] / errors[..., 1:])


def assert_first_order(errors: Array) -> None:
    r"""The errors at eta, eta/2, eta/4 behave like :math:`A\eta + B\eta^2`.

    Then the observed order :math:`p = \log_2(e(\eta)/e(\eta/2))` is
    :math:`1 + (B/A)\eta/\ln 4 + O(\eta^2)`: within 0.15 of 1 (an order-0
    error would give 0, an order-2 error 2), and its deviation from 1 is
    O(eta), so it must shrink when eta halves -- to about half; 0.75 leaves
    room for the :math:`O(\eta^2)` term, which is at most a third of the
    deviation when the deviation is below 0.15.
    """
    orders = observed_orders(errors)
    deviation = np.abs(orders - 1.0)
    assert np.all(deviation <= 0.15), orders
    assert np.all(deviation[..., 1] <= 0.75 * deviation[..., 0]), orders


# ---------------------------------- Appendix A, alpha -> 0: min-Q -> min-l1


def small_init_prediction(X: Array, l1: Array, k: float) -> tuple[Array, float, float]:
    r"""Leading-order distance vector min-Q(k) - min-l1, and its next-order size.

    Derivation. The min-Q interpolant is :math:`\beta = k\sinh(X^\top\lambda)`
    (KKT of eq. 22). Let S be the support of the min-l1 interpolant
    :math:`\beta^*`, with |S| = n (a vertex, generic), :math:`\mu^*` its dual
    certificate, :math:`X_S^\top\mu^* = \mathrm{sign}\,\beta^*_S`, and
    :math:`s_d = (X^\top\mu^*)_d`, :math:`|s_d| < 1` off S. On S,
    :math:`\mathrm{asinh}(\beta_d/k) = \mathrm{sign}\,\beta_d\,
    (\log(1/k) + \log 2|\beta_d|) + O(k^2)`, which fixes
    :math:`X^\top\lambda = s\log(1/k) + c` with
    :math:`c = X^\top X_S^{-\top}(\mathrm{sign}\,\beta_S\log 2|\beta_S|)`.
    Off S then

    .. math:: \beta_d = k\sinh(s_d\log(1/k) + c_d)
              \approx \tfrac12\mathrm{sign}(s_d)\,k^{1-|s_d|}
              e^{\mathrm{sign}(s_d)c_d}

    and interpolation moves the support by
    :math:`-X_S^{-1}X_{S^c}\beta_{S^c}`. So
    :math:`\|\beta - \beta^*\| \propto k^{1-\max|s_d|} = (2\alpha^2)^{1-s_{\max}}`:
    a power of alpha, not the :math:`1/\log(1/\alpha)` at which the Q-norm
    VALUE approaches l1 (Woodworth et al.): l1 is sharp at a vertex, so only
    the entropic tail of q leaks off the support. Next order: the support
    values :math:`\beta_S` differ from :math:`\beta^*_S` by the leading
    term, which changes :math:`\log 2|\beta_S|`, hence c, by up to
    :math:`\|\delta_S\|_\infty/\min|\beta^*_S|`; propagated through
    :math:`X_{S^c}^\top X_S^{-\top}`, the relative next-order term is at most
    :math:`\|X_{S^c}^\top X_S^{-\top}\|_\infty\|\delta_S\|_\infty/\min|\beta^*_S|`
    (the sinh -> exp and asinh -> log corrections are :math:`O(k^{2s})` and
    :math:`O(k^2)`, smaller).

    Returns:
      (the leading-order vector delta, s_max, the relative next-order bound).
    """
    samples, dimension = X.shape
    support = np.flatnonzero(np.abs(l1) > 1e-9 * np.abs(l1).max())
    off = np.setdiff1d(np.arange(dimension), support)
    assert support.size == samples  # a vertex: the derivation's assumption
    sign = np.sign(l1[support])
    transfer = X[:, off].T @ np.linalg.inv(X[:, support].T)  # X_{S^c}^T X_S^{-T}
    s = transfer @ sign
    c = transfer @ (sign * np.log(2.0 * np.abs(l1[support])))
    delta = np.zeros(dimension)
    delta[off] = k * np.sinh(-s * math.log(k) + c)
    delta[support] = -np.linalg.solve(X[:, support], X[:, off] @ delta[off])
    next_order = (
        np.abs(transfer).sum(axis=1).max()
        * np.abs(delta[support]).max()
        / np.abs(l1[support]).min()
    )
    return delta, float(np.abs(s).max()), float(next_order)


def test_small_init_approaches_min_l1_at_the_predicted_rate() -> None:
    # A generic problem: n = 5, D = 12, seed 7 (its dual certificate has
    # s_max = 0.592, so the predicted rate is alpha^0.816). w1 = w2 = alpha.
    rng = np.random.default_rng(7)
    X, y = rng.standard_normal((5, 12)), rng.standard_normal(5)
    l1 = min_l12_interpolant(X, y[:, None]).beta[0]  # one output: basis pursuit
    alphas = np.array([1e-2, 1e-3, 1e-4])
    rate = 0.02
    coarse, fine = (
        train_diagonal_networks(X, y, alphas[:, None], alphas[:, None], learning_rate=h)
        for h in (rate, rate / 2)
    )
    d_coarse = np.linalg.norm(coarse.coefficients - l1, axis=1)
    d_fine = np.linalg.norm(fine.coefficients - l1, axis=1)
    assert np.all(np.diff(d_coarse) < 0)  # shrinks as alpha shrinks
    # Richardson: the O(eta) discretization error cancels in 2 d(eta/2) - d(eta).
    extrapolated = 2.0 * d_fine - d_coarse
    predictions = [small_init_prediction(X, l1, 2.0 * a * a) for a in alphas]
    predicted = np.array([np.linalg.norm(p[0]) for p in predictions])
    s_max = predictions[0][1]
    # Tolerance: the next-order term of the asymptotics, plus the O(eta^2)
    # left after extrapolation, at most the O(eta) term |d(eta) - d(eta/2)|.
    tolerance = (
        np.array([p[2] for p in predictions]) + np.abs(d_coarse - d_fine) / d_fine
    )
    relative = np.abs(extrapolated / predicted - 1.0)
    # Observed: 0.018, 0.0069, 0.0011 against tolerances 0.21, 0.035, 0.0094.
    assert np.all(relative[1:] <= tolerance[1:]), (relative, tolerance)
    # The rate: the log-log slope between the two smallest alphas is the
    # predicted one (0.836 here, tending to 2 (1 - s_max) = 0.816 as the
    # off-support terms with smaller |s_d| die out; observed 0.834).
    decade = math.log(alphas[-2] / alphas[-1])
    slope = math.log(extrapolated[-2] / extrapolated[-1]) / decade
    predicted_slope = math.log(predicted[-2] / predicted[-1]) / decade
    slope_tolerance = (tolerance[-2] + tolerance[-1]) / decade
    assert abs(slope - predicted_slope) <= slope_tolerance, (slope, predicted_slope)
    # Faster-decaying terms only steepen the local slope of their sum.
    assert predicted_slope > 2.0 * (1.0 - s_max)


# ------------------------------------------------ MTL: eqs. (25)-(30) from small init


# ----------------------------------------------------- convergence and failure


def test_divergence_raises_with_advice() -> None:
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((5, 8)), 10 * rng.standard_normal(5)
    with pytest.raises(ConvergenceError, match=r"diverged.*Lower the learning rate"):
        train_diagonal_networks(X, y, 1.0, 1.0, learning_rate=5.0)


def test_a_huge_initialization_diverges_naming_it() -> None:
    # beta = 0 at the start (the branches cancel), then the first step
    # overflows; the advice named learning_rate alone.
    with pytest.raises(ConvergenceError, match=r"diverged.*w1_init, w2_init"):
        train_diagonal_networks(
            np.eye(3, 4),
            [1.0, -2.0, 0.5],
            1.7976931348623157e308,
            0.1,
            learning_rate=0.1,
        )


def test_a_tolerance_beyond_the_float64_range_stops_at_step_zero() -> None:
    # tol ||y||^2 overflowed (a RuntimeWarning): the infinite threshold it
    # stands for is met by every finite loss.
    result = train_diagonal_networks(
        np.eye(3, 4),
        [1.0, -2.0, 0.5],
        0.1,
        0.1,
        learning_rate=0.1,
        tol=1.7976931348623157e308,
    )
    assert result.steps[0] == 0
    assert result.converged[0]


def _count_steps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the steps of descent: one residual and gradient per step (per-network
    X: _residual_and_gradient; shared or grouped X: _GroupedProducts)."""
    calls = [0]
    original = descent._residual_and_gradient
    products = descent._GroupedProducts.__call__

    def counted(*args: NDArray[np.float64] | None) -> object:
        calls[0] += 1
        return original(*args)  # type: ignore[arg-type]

    def counted_products(*args: object) -> object:
        calls[0] += 1
        return products(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(descent, "_residual_and_gradient", counted)
    monkeypatch.setattr(descent._GroupedProducts, "__call__", counted_products)
    return calls


# The problem below is stable below a learning rate of about 0.2 (it converges
# at 0.21 and overflows from 0.22 on); at >= 1e3 the first step multiplies the
# loss by far more than the divergence bound 1e4. Three evaluations of the
# loss allow one more step; before the bound, descent ran until the loss
# overflowed (step 4 to 6 here).
DIVERGENCE_EVALUATIONS = 3


@pytest.mark.parametrize("learning_rate", [1e3, 1e8, 1e100])
@pytest.mark.parametrize("multitask", [False, True])
def test_a_huge_learning_rate_fails_within_a_few_steps(
    monkeypatch: pytest.MonkeyPatch, learning_rate: float, multitask: bool
) -> None:
    rng = np.random.default_rng(0)
    X, Y = rng.standard_normal((5, 8)), rng.standard_normal((5, 2))
    calls = _count_steps(monkeypatch)
    train = (
        partial(train_multitask_diagonal_networks, X, Y, 1.0, 1.0)
        if multitask
        else partial(train_diagonal_networks, X, Y[:, 0], 1.0, 1.0)
    )
    with (
        cpu_budget(10.0),
        pytest.raises(
            ConvergenceError, match=r"learning_rate=\S+ is too large.*Lower the"
        ),
    ):
        train(learning_rate=learning_rate)
    assert 1 <= calls[0] <= DIVERGENCE_EVALUATIONS


def test_zero_initialization_is_reported_stuck_not_run_to_max_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # w1 = w2 = 0 is a stationary point: the weights never move, so the cycle
    # check (every 1000 steps) reports it instead of running 200_000 steps.
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((5, 8)), rng.standard_normal(5)
    calls = _count_steps(monkeypatch)
    with cpu_budget(10.0), pytest.raises(ConvergenceError, match="stuck"):
        train_diagonal_networks(X, y, 0.0, 0.0, learning_rate=0.1)
    assert calls[0] == 1001


def test_not_converging_raises_unless_not_strict() -> None:
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((5, 8)), rng.standard_normal(5)
    with pytest.raises(ConvergenceError, match=r"max_steps=10.*Raise max_steps"):
        train_diagonal_networks(X, y, 1e-3, 1e-3, learning_rate=0.01, max_steps=10)
    result = train_diagonal_networks(
        X, y, 1e-3, 1e-3, learning_rate=0.01, max_steps=10, strict=False
    )
    assert not result.converged[0]
    assert result.steps[0] == 10
    assert np.isfinite(result.loss).all()
    assert np.isfinite(result.coefficients).all()


def test_inconsistent_system_does_not_converge() -> None:
    # n > D with generic targets: no interpolant, the loss stalls above tol.
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((8, 3)), rng.standard_normal(8)
    with pytest.raises(ConvergenceError, match="has a solution"):
        train_diagonal_networks(X, y, 0.5, 0.5, learning_rate=0.05, max_steps=2000)


def test_zero_targets_converge_at_step_zero() -> None:
    result = train_diagonal_networks(
        np.eye(3), np.zeros(3), 0.1, 0.1, learning_rate=0.1
    )
    assert result.steps[0] == 0
    assert result.loss[0] == 0.0
    np.testing.assert_array_equal(result.coefficients, 0.0)


def test_inputs_are_not_modified() -> None:
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((2, 4, 6)), rng.standard_normal((2, 4))
    w1, w2 = np.full((2, 6), 0.2), np.full((2, 6), 0.3)
    copies = [a.copy() for a in (X, y, w1, w2)]
    train_diagonal_networks(X, y, w1, w2, learning_rate=0.05, sample_counts=[4, 2])
    for original, copy in zip((X, y, w1, w2), copies, strict=True):
        np.testing.assert_array_equal(original, copy)


GOOD: dict[str, object] = {
    "X": np.eye(3),
    "y": [1.0, 2.0, 3.0],
    "w1_init": 0.1,
    "w2_init": 0.1,
    "learning_rate": 0.05,
}

TRAIN_BAD = [
    ({"X": [1.0, 2.0]}, "X"),
    ({"X": np.full((3, 3), np.nan)}, "X"),
    ({"X": np.zeros((1, 1, 3, 3))}, "X"),
    ({"y": [[[1.0]]]}, "y"),
    ({"y": [1.0, 2.0]}, "y"),
    ({"y": [1.0, np.inf, 0.0]}, "y"),
    ({"w1_init": np.ones((2, 2, 3))}, "w1_init"),
    ({"w2_init": "a"}, "w2_init"),
    ({"learning_rate": 0.0}, "learning_rate"),
    ({"learning_rate": -1.0}, "learning_rate"),
    ({"learning_rate": np.nan}, "learning_rate"),
    ({"sample_counts": 0}, "sample_counts"),
    ({"sample_counts": 4}, "sample_counts"),
    ({"sample_counts": 1.5}, "sample_counts"),
    ({"tol": -1.0}, "tol"),
    ({"tol": [1e-3]}, "tol"),
    ({"max_steps": -1}, "max_steps"),
    ({"max_steps": 1.5}, "max_steps"),
    ({"max_steps": True}, "max_steps"),
    ({"w1_init": np.ones((2, 3)), "learning_rate": [0.1, 0.1, 0.1]}, "shapes"),
    ({"w1_init": np.ones(4)}, "shapes"),
    ({"X": np.zeros((3, 0))}, "X"),
]


@pytest.mark.parametrize(("override", "name"), TRAIN_BAD)
def test_train_rejects_bad_arguments(override: dict[str, object], name: str) -> None:
    arguments = dict(GOOD)
    arguments.update(override)
    with pytest.raises(InvalidArgumentError, match=rf"^{name}\b"):
        train_diagonal_networks(**arguments)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("override", "name"),
    [
        ({"Y": [1.0, 2.0, 3.0]}, "Y"),
        ({"w2_init": np.ones((2, 2, 2, 3, 3))}, "w2_init"),
        ({"w2_init": np.ones((4, 3))}, "shapes"),
    ],
)
def test_multitask_rejects_bad_arguments(
    override: dict[str, object], name: str
) -> None:
    arguments: dict[str, object] = {
        "X": np.eye(3),
        "Y": np.ones((3, 2)),
        "w1_init": 0.1,
        "w2_init": 0.1,
        "learning_rate": 0.05,
    }
    arguments.update(override)
    with pytest.raises(InvalidArgumentError, match=rf"^{name}\b"):
        train_multitask_diagonal_networks(**arguments)  # type: ignore[arg-type]


# ------------------------------------------------------------- small helpers


finite = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False)


@given(st.lists(st.tuples(finite, finite, finite, finite), min_size=1, max_size=6))
def test_coefficients_are_antisymmetric_in_the_branches(
    rows: list[tuple[float, float, float, float]],
) -> None:
    w1p, w2p, w1m, w2m = (np.array(c) for c in zip(*rows, strict=True))
    forward = diagonal_coefficients(w1p, w2p, w1m, w2m)
    backward = diagonal_coefficients(w1m, w2m, w1p, w2p)
    np.testing.assert_array_equal(forward, -backward)


# ------------------------------------------------------------ documentation


OWN_NAMES = [name for name in validation.__all__ if name in diagonal_networks.__all__]


def test_exports_are_complete() -> None:
    assert set(diagonal_networks.__all__) <= set(validation.__all__)


@pytest.mark.parametrize("name", OWN_NAMES)
def test_public_names_are_documented(name: str) -> None:
    obj = getattr(validation, name)
    if inspect.isfunction(obj):
        doc = inspect.getdoc(obj) or ""
        for section in (".. math::", "Args:", "Returns:", "Examples:", "References:"):
            assert section in doc, f"{name} lacks {section}"
        assert "of ptft-diagonal-networks" in doc
    elif inspect.isclass(obj):
        assert inspect.getdoc(obj)
    else:  # a constant documented by a `#:` comment in its module
        source = "".join(inspect.getsource(m) for m in (descent, trainers))
        assert "#: " in source.split(f"\n{name} =")[0].rsplit("\n\n", 1)[-1]
