"""Property tests of the note's NumPy code, with the toolkit's strategies."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.strategies import angles, gaussian_designs, positive_scales
from max_margin_note.simulation import (
    direction_gap,
    logistic_descent,
    residual,
    step_size_bound,
)

EPS = np.finfo(np.float64).eps


@given(
    theta=angles(),
    a=positive_scales(-3, 3),
    b=positive_scales(-3, 3),
    g=positive_scales(-3, 3),
    side=st.sampled_from([-1.0, 1.0]),
)
@example(theta=0.0, a=1.0, b=1e-3, g=1e3, side=1.0)
def test_direction_gap_obeys_eq_13(
    theta: float, a: float, b: float, g: float, side: float
) -> None:
    # Eq. (13): w = g w_hat + r, r orthogonal to w_hat, is within b/(a g) of
    # w_hat's direction, and (as 2 sin(theta/2) >= sin(theta) for theta in
    # [0, pi/2)) at least sin(theta) = b / ||w|| from it.
    direction = np.array([np.cos(theta), np.sin(theta)])
    w_hat = a * direction
    r = side * b * np.array([-direction[1], direction[0]])
    w = g * w_hat + r
    gap = float(direction_gap(w, w_hat))
    # The difference of two unit vectors carries ~ a few eps of absolute
    # rounding (the normalizations and the subtraction): 8 eps covers it.
    slack = 8 * EPS
    assert gap <= b / (a * g) * (1 + slack) + slack
    assert gap >= b / np.hypot(a * g, b) * (1 - slack) - slack


def _loss(z: np.ndarray, w: np.ndarray) -> float:
    return float(np.sum(np.logaddexp(0.0, -(z @ w))))


@given(
    z=gaussian_designs(st.integers(1, 8), st.integers(1, 4)),
    fraction=st.floats(min_value=0.01, max_value=0.99),
)
def test_one_step_decreases_the_loss_as_the_descent_lemma_says(
    z: np.ndarray, fraction: float
) -> None:
    # L is beta-smooth with beta = sigma_max(Z)^2 / 4, so a step eta below
    # 8 / sigma_max^2 decreases it by at least eta (1 - beta eta / 2) ||grad||^2.
    eta = fraction * step_size_bound(z)
    beta = np.linalg.norm(z, 2) ** 2 / 4.0
    gradient = -0.5 * z.sum(axis=0)
    w1 = logistic_descent(z, [eta], [1])[0, 0]
    decrease = eta * (1.0 - beta * eta / 2.0) * float(gradient @ gradient)
    start = z.shape[0] * np.log(2.0)
    # Rounding of a sum of n logaddexp's: a few eps per term, relative.
    assert _loss(z, w1) <= start - decrease + 4 * EPS * z.shape[0] * start


def test_residual_removes_the_log_t_growth() -> None:
    w_hat = np.array([2.0, 1.0]) / 3.0
    steps = [10, 100]
    iterates = np.array([[w_hat * np.log(t) + [0.5, -0.25]] for t in steps])
    assert np.allclose(residual(iterates, w_hat, steps), [0.5, -0.25], atol=1e-15)


@pytest.mark.parametrize(
    ("data", "step_sizes", "checkpoints", "names"),
    [
        ([], [0.1], [1], "data"),
        ([[1.0, 0.0]], [0.0], [1], "step_sizes"),
        ([[1.0, 0.0]], [8.5], [1], "step_sizes"),
        ([[1.0, 0.0]], [0.1], [0], "checkpoints"),
        ([[1.0, 0.0]], [0.1], [5, 5], "checkpoints"),
        ([[1.0, 0.0]], [0.1], [], "checkpoints"),
    ],
)
def test_logistic_descent_rejects_bad_arguments(
    data: list[list[float]], step_sizes: list[float], checkpoints: list[int], names: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=names):
        logistic_descent(data, step_sizes, checkpoints)
