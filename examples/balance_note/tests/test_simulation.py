"""Property tests of the note's NumPy code, with the toolkit's strategies."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given

from balance_note.simulation import factor_descent
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.strategies import positive_scales

EPS = np.finfo(np.float64).eps


@given(
    target=positive_scales(-2, 2),
    a0=positive_scales(-3, 1),
    b0=positive_scales(-3, 1),
    step_size=positive_scales(-3, -1),
)
@example(target=4.0, a0=1e-3, b0=1e-3, step_size=0.05)
def test_one_step_shrinks_the_imbalance_by_one_minus_eta_squared_r_squared(
    target: float, a0: float, b0: float, step_size: float
) -> None:
    # Eq. (3) conserves a^2 - b^2 along the flow; a step of (7) multiplies it by
    # 1 - eta^2 (ab - y)^2, exactly in real arithmetic:
    # (a - eta r b)^2 - (b - eta r a)^2 = (a^2 - b^2)(1 - eta^2 r^2).
    (a, b), (a1, b1) = factor_descent(target, (a0, b0), step_size, 1)
    r = a * b - target
    predicted = (a * a - b * b) * (1.0 - (step_size * r) ** 2)
    # Each square and difference rounds by a few eps of the largest square.
    scale = max(a1 * a1, b1 * b1, a * a, b * b)
    assert abs((a1 * a1 - b1 * b1) - predicted) <= 16 * EPS * scale


@given(target=positive_scales(-1, 1), alpha=positive_scales(-4, -1))
def test_a_balanced_start_stays_balanced(target: float, alpha: float) -> None:
    # The two updates of (7) are the same arithmetic when a = b.
    iterates = factor_descent(target, (alpha, alpha), 0.05, 50)
    assert np.array_equal(iterates[:, 0], iterates[:, 1])


@pytest.mark.parametrize(
    ("target", "start", "step_size", "steps", "name"),
    [
        (float("nan"), (1.0, 1.0), 0.1, 1, "target"),
        (1.0, (1.0,), 0.1, 1, "start"),
        (1.0, (1.0, float("inf")), 0.1, 1, "start"),
        (1.0, (1.0, 1.0), 0.0, 1, "step_size"),
        (1.0, (1.0, 1.0), -0.1, 1, "step_size"),
        (1.0, (1.0, 1.0), 0.1, 0, "steps"),
        (1.0, (1.0, 1.0), 0.1, 2.5, "steps"),
    ],
)
def test_factor_descent_rejects_bad_arguments(
    target: float,
    start: tuple[float, ...],
    step_size: float,
    steps: int,
    name: str,
) -> None:
    with pytest.raises(InvalidArgumentError, match=name):
        factor_descent(target, start, step_size, steps)  # type: ignore[arg-type]
