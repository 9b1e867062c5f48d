r"""Gradient descent on deep linear networks against the alpha -> 0 theory.

:mod:`implicit_bias.validation.deep_linear_networks` trains the networks of eq.
(9) of features-are-fate. Error theory (initialization :math:`\alpha\bar W`
with :math:`\bar W` satisfying (22), so :math:`D_l = \alpha^2\bar D_l`):

* scratch: :math:`(I-P)W_1 = \alpha(I-P)\bar W_1` is conserved, so the endpoint
  is :math:`X^+y + \alpha(I-P)\bar W_1 q_1(\infty)`: error of order exactly 1
  in :math:`\alpha`;
* pretrained features :math:`\Phi = W_1\cdots W_{L-1}`: every layer has its
  subleading singular values :math:`\ge\alpha\sqrt\lambda` and
  :math:`O(\alpha)` (eqs. 52-60), so :math:`\sigma_2(\Phi)/\sigma_1(\Phi)` is of
  order :math:`L-1`;
* linear transfer: a step of :math:`W_L` at :math:`1/\lambda_{\max}` moves the
  small singular directions of :math:`\Phi` by :math:`O(\sigma_2)`, which adds
  :math:`O(\sigma_2^2/\sigma_1^2)` to :math:`\beta`: order :math:`2(L-1)`;
* fine-tuning: the scale of the preserved source component is fixed by
  :math:`D_l = \alpha^2\bar D_l` (module docstring of
  :mod:`implicit_bias.validation.deep_linear_networks`): order 2.

Each observed order :math:`\log(e(\alpha_1)/e(\alpha_2))/\log(\alpha_1/
\alpha_2)` must lie within 0.25 of the prediction: the next term of each
expansion is one power of :math:`\alpha^{1}` or :math:`\alpha^2` higher, so at
:math:`\alpha \le 10^{-1.5}` it shifts the observed order by at most about
:math:`\log_{10}(1 + C\alpha)/0.5 \le 0.1` for :math:`C \le 3`; the stopping
tolerance 1e-20 (relative loss) leaves :math:`10^{-10}`, far below the errors
measured.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from implicit_bias.errors import ConvergenceError, InvalidArgumentError
from tests.contract.harness import cpu_budget
from implicit_bias.numerics.transfer_endpoints import (
    finetune_endpoint,
    linear_transfer_coefficient,
    min_norm_solution,
)
from implicit_bias.validation.deep_linear_networks import (
    Integrator,
    balanced_initialization,
    balancedness_margin,
    end_to_end,
    finetune,
    pretrain,
    train_from_scratch,
    transfer_experiment,
)
from implicit_bias.validation import _deep_linear_descent as descent
from implicit_bias.validation.transfer_experiments import (
    ENDPOINT_PREDICTED_ORDERS,
    EndpointErrors,
    endpoint_errors,
)

ORDER_TOLERANCE = 0.25


def problem(
    dimension: int, samples: int, count: int, theta: float, sigma: float, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    source = rng.standard_normal(dimension)
    source /= np.linalg.norm(source)
    other = rng.standard_normal(dimension)
    other -= (other @ source) * source
    other /= np.linalg.norm(other)
    target = np.cos(theta) * source + np.sin(theta) * other
    X = rng.standard_normal((count, samples, dimension))
    y = X @ target + sigma * rng.standard_normal((count, samples))
    return source, X, y


def loss(weights: list[np.ndarray], X: np.ndarray, y: np.ndarray) -> float:
    """The empirical loss (5) of one network, by a plain product of the layers."""
    beta = weights[0]
    for W in weights[1:]:
        beta = beta @ W
    residual = X @ beta[:, 0] - y
    return float(residual @ residual / (2 * len(y)))


# -------------------------------------------------------------- backprop


@pytest.mark.parametrize("widths", [[4, 3], [4, 3, 2], [5, 5, 4, 2]])
def test_one_step_is_gradient_descent_on_the_loss(widths: list[int]) -> None:
    rng = np.random.default_rng(3)
    X, y = rng.standard_normal((6, widths[0])), rng.standard_normal(6)
    init = [0.7 * W for W in balanced_initialization(widths, seed=4)]
    rate = 1e-2
    stepped = train_from_scratch(
        init,
        X,
        y,
        learning_rate=rate,
        integrator="gd",
        max_steps=1,
        tol=0.0,
        strict=False,
    )
    assert stepped.steps.tolist() == [1]
    # Central differences, step 1e-6: truncation O(1e-12), rounding O(1e-10).
    for layer, W in enumerate(init):
        numeric = np.zeros(W.shape[1:])
        for index in np.ndindex(numeric.shape):
            shifted = [w[0].copy() for w in init]
            shifted[layer][index] += 1e-6
            up = loss(shifted, X, y)
            shifted[layer][index] -= 2e-6
            numeric[index] = (up - loss(shifted, X, y)) / 2e-6
        expected = W[0] - rate * numeric
        np.testing.assert_allclose(stepped.weights[layer][0], expected, atol=1e-9)


def test_end_to_end_is_the_product_of_the_layers() -> None:
    weights = balanced_initialization([4, 3, 3], count=2, seed=1)
    product = weights[0] @ weights[1] @ weights[2]
    np.testing.assert_allclose(end_to_end(weights), product[..., 0], rtol=1e-14)


def test_initialization_satisfies_condition_22() -> None:
    weights = balanced_initialization([6, 5, 5, 3], count=3, seed=2)
    np.testing.assert_allclose(balancedness_margin(weights), 1.0, rtol=1e-12)


@pytest.mark.parametrize("depth", [2, 3])
def test_midpoint_conserves_the_invariant_and_gd_does_not(depth: int) -> None:
    _, X, y = problem(6, 4, 1, 0.7, 0.3, seed=5)
    init = [0.3 * W for W in balanced_initialization([6] * depth, seed=6)]

    def invariant(weights: Sequence[np.ndarray]) -> np.ndarray:
        W, V = weights[0][0], weights[1][0]
        return W.T @ W - V @ V.T

    start = invariant(init)
    midpoint = train_from_scratch(init, X, y, learning_rate=0.05, tol=1e-16)
    euler = train_from_scratch(
        init, X, y, learning_rate=0.05, integrator="gd", tol=1e-16
    )
    assert np.max(np.abs(invariant(midpoint.weights) - start)) < 1e-12
    # Euler changes it by about eta times the loss decrease (~1e-2 here).
    assert np.max(np.abs(invariant(euler.weights) - start)) > 1e-4


# ------------------------------------------------------------ endpoints


@pytest.fixture(scope="module")
def errors_by_depth() -> dict[int, EndpointErrors]:
    """Errors against the alpha -> 0 endpoints at alpha = 10^-1.5, 10^-2, 10^-2.5."""
    return {depth: endpoint_errors(depth) for depth in (2, 3)}


@pytest.mark.parametrize(
    ("name", "depth", "order"),
    [
        ("scratch", 2, 1),
        ("scratch", 3, 1),
        ("rank-one", 2, 1),
        ("rank-one", 3, 2),
        ("first-layer", 3, 1),
        ("linear", 2, 2),
        ("linear", 3, 4),
        ("finetune", 2, 2),
        ("finetune", 3, 2),
    ],
)
def test_endpoint_error_shrinks_at_the_predicted_order(
    errors_by_depth: dict[int, EndpointErrors], name: str, depth: int, order: int
) -> None:
    measured = errors_by_depth[depth]
    observed = measured.orders(name)
    assert order == ENDPOINT_PREDICTED_ORDERS[name](depth)
    assert np.all(np.abs(observed - order) <= ORDER_TOLERANCE), (
        measured.errors[name],
        observed,
    )


@pytest.mark.parametrize("depth", [2, 3])
def test_eq_142_as_printed_misses_by_a_constant(
    errors_by_depth: dict[int, EndpointErrors], depth: int
) -> None:
    errors = errors_by_depth[depth].errors["printed"]
    # With label noise A + B != 1, so the printed endpoint is off by an O(1)
    # amount that does not shrink with alpha (ratio within 1 %).
    assert errors[-1] > 1e-2
    assert abs(errors[-1] / errors[0] - 1) < 1e-2


@settings(max_examples=10)
@given(
    dimension=st.integers(4, 9),
    samples_fraction=st.floats(0.2, 0.8),
    theta=st.floats(0.0, np.pi / 2),
    sigma=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**16),
)
def test_finetuning_and_scratch_endpoints_property(
    dimension: int, samples_fraction: float, theta: float, sigma: float, seed: int
) -> None:
    samples = max(1, round(samples_fraction * dimension))
    source, X, y = problem(dimension, samples, 2, theta, sigma, seed)
    alpha = 1e-4
    init = [
        alpha * W
        for W in balanced_initialization([dimension, dimension], count=2, seed=seed)
    ]
    pre = pretrain([W[:1] for W in init], source)
    ft = finetune(pre.weights, X, y)
    sc = train_from_scratch(init, X, y)
    scale = 1 + np.linalg.norm(min_norm_solution(X, y), axis=1).max()
    # Orders 2 and 1 in alpha (module docstring), constants below 10 * scale.
    assert (
        np.linalg.norm(ft.coefficients - finetune_endpoint(X, y, source), axis=1).max()
        < 10 * scale * alpha**2
    )
    assert (
        np.linalg.norm(sc.coefficients - min_norm_solution(X, y), axis=1).max()
        < 10 * scale * alpha
    )


def test_preconditioning_keeps_the_endpoint() -> None:
    source, X, y = problem(20, 8, 2, 0.6, 0.2, seed=21)
    init = [1e-4 * W for W in balanced_initialization([20, 20], count=2, seed=1)]
    pre = pretrain([W[:1] for W in init], source)
    plain = finetune(pre.weights, X, y)
    fast = finetune(pre.weights, X, y, preconditioned=True)
    # Both are within O(alpha^2) = 1e-8 of the same limit.
    np.testing.assert_allclose(fast.coefficients, plain.coefficients, atol=1e-7)
    assert fast.steps.max() < plain.steps.max()


# ------------------------------------------------------------- failures


def test_too_few_steps_raise() -> None:
    _, X, y = problem(8, 4, 1, 0.5, 0.1, seed=1)
    init = [1e-3 * W for W in balanced_initialization([8, 8])]
    with pytest.raises(ConvergenceError, match="max_steps"):
        train_from_scratch(init, X, y, max_steps=3)


def test_divergence_raises() -> None:
    _, X, y = problem(8, 4, 1, 0.5, 0.1, seed=1)
    init = [0.5 * W for W in balanced_initialization([8, 8])]
    with pytest.raises(ConvergenceError, match="diverged"):
        train_from_scratch(init, X, y, learning_rate=50.0, integrator="gd")


def _count_loss_evaluations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the steps of descent: it evaluates the loss once per step."""
    calls = [0]
    evaluate = descent.Loss.evaluate

    def counted(self: descent.Loss, beta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        calls[0] += 1
        return evaluate(self, beta)

    monkeypatch.setattr(descent.Loss, "evaluate", counted)
    return calls


# The networks below (scale 0.1) have the Hessian bound h of the adaptive step
# about 0.5-1, so descent is stable below 2/h = 2-4; at learning rates >= 1e3
# (>= 250 times that) the first step multiplies the excess loss by about
# (eta h - 1)^2 >= 6e4, past the divergence bound (1e4 times the initial
# loss), or the midpoint step has no solution at step 0. Four evaluations of
# the loss leave room for two more steps of a weaker start, against
# max_steps = 100_000 before the fix (the fixed midpoint step was halved
# silently: minutes of CPU per call).
DIVERGENCE_EVALUATIONS = 4


@pytest.mark.parametrize("integrator", ["midpoint", "gd"])
@pytest.mark.parametrize("learning_rate", [1e3, 1e8, 1e100])
@pytest.mark.parametrize("widths", [[3, 3], [3, 3, 2]])
@pytest.mark.parametrize("trainer", ["pretrain", "finetune", "train_from_scratch"])
def test_a_huge_learning_rate_fails_within_a_few_steps(
    monkeypatch: pytest.MonkeyPatch,
    trainer: str,
    widths: list[int],
    learning_rate: float,
    integrator: Integrator,
) -> None:
    init = [0.1 * W for W in balanced_initialization(widths)]
    X = np.random.default_rng(1).standard_normal((2, 3))
    y = np.array([1.0, -1.0])
    calls = _count_loss_evaluations(monkeypatch)
    rule: dict[str, Any] = {"learning_rate": learning_rate, "integrator": integrator}
    calls_by_trainer = {
        "pretrain": lambda: pretrain(init, [0.6, 0.0, 0.8], **rule),
        "finetune": lambda: finetune(init, X, y, **rule),
        "train_from_scratch": lambda: train_from_scratch(init, X, y, **rule),
    }
    with (
        cpu_budget(10.0),
        pytest.raises(
            ConvergenceError,
            match=r"learning_rate=\S+ is too large.*Lower learning_rate",
        ),
    ):
        calls_by_trainer[trainer]()
    assert calls[0] <= DIVERGENCE_EVALUATIONS


@pytest.mark.parametrize("learning_rate", [None, 0.1])
def test_all_zero_weights_are_reported_stuck_not_run_to_max_steps(
    monkeypatch: pytest.MonkeyPatch, learning_rate: float | None
) -> None:
    # Every gradient vanishes at W = 0: the weights never move, so the cycle
    # check (every 1000 steps) reports it, instead of running 100_000 steps.
    zeros = [np.zeros((1, 3, 3)), np.zeros((1, 3, 1))]
    X = np.random.default_rng(1).standard_normal((2, 3))
    calls = _count_loss_evaluations(monkeypatch)
    with cpu_budget(10.0), pytest.raises(ConvergenceError, match="stuck"):
        train_from_scratch(zeros, X, np.array([1.0, -1.0]), learning_rate=learning_rate)
    assert calls[0] == 1001


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: balanced_initialization([3, 4]), "increase"),
        (lambda: balanced_initialization([3]), "depth"),
        # seed None drew fresh entropy before: irreproducible initializations.
        (lambda: balanced_initialization([3, 2], seed=None), "seed"),  # type: ignore[arg-type]
        (lambda: balanced_initialization([3, 2], seed=-1), "seed"),
        (lambda: end_to_end([np.ones((1, 3, 1))]), "L >= 2"),
        (lambda: end_to_end([np.ones((1, 3, 2)), np.ones((1, 3, 1))]), "chain"),
        (lambda: end_to_end([np.ones((1, 3, 2)), np.ones((1, 2, 2))]), "one output"),
        (
            lambda: end_to_end([np.full((1, 2, 2), np.nan), np.ones((1, 2, 1))]),
            "finite",
        ),
        (lambda: pretrain(balanced_initialization([3, 3]), [1.0, 0.0]), "entries"),
        (
            lambda: pretrain(balanced_initialization([2, 2]), [1.0, 0.0], tol=-1.0),
            "tol",
        ),
        (
            lambda: pretrain(balanced_initialization([2, 2]), [1.0, 0.0], max_steps=0),
            "max_steps",
        ),
        (
            lambda: pretrain(
                balanced_initialization([2, 2]), [1.0, 0.0], learning_rate=-1.0
            ),
            "learning_rate",
        ),
        (
            lambda: pretrain(
                balanced_initialization([2, 2]),
                [1.0, 0.0],
                integrator=cast(Integrator, "rk4"),
            ),
            "integrator",
        ),
        (
            lambda: finetune(
                balanced_initialization([2, 2]), np.ones((3, 2)), np.ones(2)
            ),
            "samples",
        ),
    ],
)
def test_invalid_arguments(call: Callable[[], object], match: str) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        call()


def test_transfer_experiment_runs_the_three_methods_from_one_pretraining() -> None:
    source, X, y = problem(10, 5, 3, 0.9, 0.2, seed=4)
    init = [1e-4 * W for W in balanced_initialization([10, 10], seed=2)]
    result = transfer_experiment(init, source, X, y)
    assert result.pretrained.coefficients.shape == (1, 10)
    b = linear_transfer_coefficient(X, y, source)
    # Orders 2, 2 and 1 in alpha = 1e-4 (module docstring).
    np.testing.assert_allclose(
        result.linear.coefficients, b[:, None] * source, atol=1e-6
    )
    np.testing.assert_allclose(
        result.finetuned.coefficients, finetune_endpoint(X, y, source), atol=1e-6
    )
    np.testing.assert_allclose(
        result.scratch.coefficients, min_norm_solution(X, y), atol=1e-3
    )
