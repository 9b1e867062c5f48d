"""Checks of estimates: Monte-Carlo means, convergence orders, descent endpoints."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from implicit_bias.claims.checks import injected_bias
from implicit_bias.claims.engine import Basis, Reason, Status
from implicit_bias.claims.estimates import (
    check_convergence_order,
    check_descent_endpoint,
    check_mean,
)
from implicit_bias.errors import InvalidArgumentError

#: 100 draws of mean 0 whose standard error of the mean is exactly known.
_BASE = np.tile([-1.0, 1.0], 50)
_BASE_SE = math.sqrt(100 / 99) / 10


def _shifted(effect: float) -> np.ndarray:
    """Draws whose mean lies ``effect`` standard errors above 0."""
    return _BASE + effect * _BASE_SE


# --- check_mean -------------------------------------------------------------


def test_a_mean_is_judged_against_a_textbook_standard_error() -> None:
    rng = np.random.default_rng(5)
    draws = rng.exponential(2.0, 4000)
    # Textbook reference: the sample mean and s / sqrt(n), written as loops.
    mean = sum(draws) / len(draws)
    se = math.sqrt(sum((d - mean) ** 2 for d in draws) / (len(draws) - 1)) / math.sqrt(
        len(draws)
    )
    verdict = check_mean(draws, 2.0, what="exponential mean")
    assert verdict.status == Status.HOLDS
    assert verdict.basis == Basis.STATISTICAL
    assert f"{mean:.6g} +- {se:.3g}" in verdict.detail
    assert f"{(mean - 2.0) / se:+.2f} SE" in verdict.detail
    assert verdict.detail.startswith("exponential mean:")


@pytest.mark.parametrize(
    ("effect", "status"),
    [
        (3.9, Status.HOLDS),
        (-3.9, Status.HOLDS),
        (4.1, Status.FAILS),
        (-4.1, Status.FAILS),
    ],
)
def test_the_verdict_turns_at_z_standard_errors(effect: float, status: Status) -> None:
    verdict = check_mean(_shifted(effect), 0.0, standard_errors=4.0)
    assert verdict.status == status
    assert f"{effect:+.2f} SE" in verdict.detail


@pytest.mark.parametrize(
    ("effect", "status", "reason"),
    [
        (3.5, Status.HOLDS, None),
        (5.0, Status.INCONCLUSIVE, Reason.STATISTICAL),
        (-5.0, Status.INCONCLUSIVE, Reason.STATISTICAL),
        (6.5, Status.FAILS, None),
    ],
)
def test_fail_beyond_gives_the_three_way_verdict(
    effect: float, status: Status, reason: Reason | None
) -> None:
    verdict = check_mean(_shifted(effect), 0.0, standard_errors=4.0, fail_beyond=6.0)
    assert (verdict.status, verdict.reason) == (status, reason)
    assert verdict.basis == Basis.STATISTICAL


def test_a_bias_bound_widens_both_bands_by_itself() -> None:
    draws = _shifted(5.0)
    assert check_mean(draws, 0.0).status == Status.FAILS
    assert check_mean(draws, 0.0, bias_bound=1.1 * _BASE_SE).status == Status.HOLDS
    assert check_mean(draws, 0.0, bias_bound=0.9 * _BASE_SE).status == Status.FAILS


def test_the_false_alarm_rate_is_the_normal_tail() -> None:
    # A true statement at z = 2 misses with probability 2 * Phi(-2) = 0.0455:
    # 1000 seeds give 45.5 misses, sd 6.6. An SE off by a factor sqrt(n) (or
    # by the ddof) would move the count far outside [25, 70].
    misses = sum(
        check_mean(
            np.random.default_rng(seed).normal(1.0, 3.0, 50), 1.0, standard_errors=2.0
        ).status
        == Status.FAILS
        for seed in range(1000)
    )
    assert 25 <= misses <= 70


def test_a_constant_sample_neither_shows_nor_refutes_a_mean() -> None:
    # 100 Bernoulli(0.001) draws: all 0 with probability 0.999**100 = 0.90.
    rare = (np.random.default_rng(0).random(100) < 0.001).astype(float)
    assert not rare.any()
    for expected in (0.001, 0.0):
        verdict = check_mean(rare, expected)
        assert verdict.status == Status.INCONCLUSIVE
        assert verdict.reason == Reason.STATISTICAL
        assert "standard error is 0" in verdict.detail


@pytest.mark.parametrize(
    ("draws", "expected"),
    [([1.0, np.nan, 2.0], 1.5), ([1.0, np.inf, 2.0], 1.5), ([1.0, 2.0], np.nan)],
)
def test_non_finite_values_are_inconclusive(
    draws: list[float], expected: float
) -> None:
    verdict = check_mean(draws, expected)
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.NON_FINITE)


@pytest.mark.parametrize(
    ("draws", "keywords", "match"),
    [
        ([1.0], {}, "n >= 2"),
        ([], {}, "n >= 2"),
        ([[1.0, 2.0], [3.0, 4.0]], {}, "one-dimensional"),
        ([1.0 + 1j, 2.0], {}, "real"),
        (["a", "b"], {}, "real"),
        ([1.0, 2.0], {"standard_errors": 0.0}, "standard_errors"),
        ([1.0, 2.0], {"standard_errors": -1.0}, "standard_errors"),
        ([1.0, 2.0], {"standard_errors": math.inf}, "standard_errors"),
        ([1.0, 2.0], {"fail_beyond": 3.0}, "fail_beyond"),
        ([1.0, 2.0], {"fail_beyond": 0.0}, "fail_beyond"),
        ([1.0, 2.0], {"bias_bound": -0.1}, "bias_bound"),
    ],
)
def test_bad_arguments_are_refused(
    draws: Any, keywords: dict[str, float], match: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        check_mean(draws, 1.5, **keywords)


def test_numpy_scalars_are_accepted_and_a_non_number_refused() -> None:
    assert check_mean(_shifted(3.5), 0.0, standard_errors=np.int64(4)).status == (
        Status.HOLDS
    )
    with pytest.raises(InvalidArgumentError, match="expected"):
        check_mean(_shifted(0.0), "zero")  # type: ignore[arg-type]


def test_mutation_testing_can_shift_the_decisive_comparison() -> None:
    draws = _shifted(0.0)
    assert check_mean(draws, 0.0).status == Status.HOLDS
    with injected_bias(2.0) as injection:
        assert check_mean(draws, 0.0).status == Status.FAILS
    assert injection.comparisons == 1


# --- check_convergence_order --------------------------------------------------

_H = np.array([0.1, 0.05, 0.025, 0.0125])


def test_an_exact_power_law_holds_with_no_model_tolerance() -> None:
    verdict = check_convergence_order(_H, 3 * _H**2, 2)
    assert verdict.status == Status.HOLDS
    assert verdict.basis == Basis.NUMERICAL
    assert "fitted order 2.0000" in verdict.detail


def test_the_slope_is_the_least_squares_fit() -> None:
    errors = 3 * _H**2 * (1 + _H)
    slope = np.polyfit(np.log(_H), np.log(errors), 1)[0]
    verdict = check_convergence_order(_H, errors, 2, model_tolerance=0.1)
    assert f"fitted order {slope:.4f}" in verdict.detail


def test_the_next_term_needs_its_model_tolerance() -> None:
    # e = 3 h^2 (1 + h): the local order is 2 + h/(1 + h) <= 2 + 1/11 on the
    # range, so a model tolerance of 0.1 covers the next term.
    errors = 3 * _H**2 * (1 + _H)
    assert check_convergence_order(_H, errors, 2, model_tolerance=0.1).status == (
        Status.HOLDS
    )
    assert check_convergence_order(_H, errors, 2).status != Status.HOLDS
    wrong = check_convergence_order(_H, errors, 3, model_tolerance=0.1)
    assert wrong.status == Status.FAILS
    assert wrong.counterexample is not None


def _fitted(slope: float, standard_error: float) -> tuple[np.ndarray, np.ndarray]:
    """Points with log-log slope ``slope`` and slope SE ``standard_error``.

    x = 0, -1, -2, -3; residuals (a, -a, -a, a) are orthogonal to 1 and x, and
    SE = sqrt(4 a^2 / 2 / 5) = a sqrt(0.4).
    """
    x = np.array([0.0, -1.0, -2.0, -3.0])
    a = standard_error / math.sqrt(0.4)
    y = slope * x + a * np.array([1.0, -1.0, -1.0, 1.0])
    return np.exp(x), np.exp(y)


@pytest.mark.parametrize(
    ("slope", "status", "reason"),
    [
        (1.13, Status.HOLDS, None),
        (0.87, Status.HOLDS, None),
        (1.15, Status.INCONCLUSIVE, Reason.STATISTICAL),
        (1.17, Status.FAILS, None),
        (0.83, Status.FAILS, None),
    ],
)
def test_the_order_bands_are_z_standard_errors_plus_the_model_tolerance(
    slope: float, status: Status, reason: Reason | None
) -> None:
    # SE 0.01, model tolerance 0.1: accepted within 0.14, refuted beyond 0.16.
    h, e = _fitted(slope, 0.01)
    verdict = check_convergence_order(
        h, e, 1, model_tolerance=0.1, standard_errors=4, fail_beyond=6
    )
    assert (verdict.status, verdict.reason) == (status, reason)
    assert "+- 0.01 (SE" in verdict.detail


def test_points_far_from_a_power_law_cannot_show_an_order() -> None:
    # SE 0.1: 4 SE exceed the model tolerance 0.1, so even the exact order is
    # not shown; an order 10 SE away is still refuted.
    h, e = _fitted(1.0, 0.1)
    verdict = check_convergence_order(h, e, 1, model_tolerance=0.1)
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.STATISTICAL)
    assert "does not resolve" in verdict.detail
    assert check_convergence_order(h, e, 2.5, model_tolerance=0.1).status == (
        Status.FAILS
    )


@pytest.mark.parametrize(
    ("errors", "resolution", "reason"),
    [
        ([1e-2, np.nan, 1e-4], 0.0, Reason.NON_FINITE),
        ([1e-2, np.inf, 1e-4], 0.0, Reason.NON_FINITE),
        ([1e-2, 1e-3, 0.0], 0.0, Reason.UNDECIDED),
        ([1e-2, 1e-3, 1e-17], 1e-15, Reason.UNDECIDED),
    ],
)
def test_unmeasurable_errors_are_inconclusive(
    errors: list[float], resolution: float, reason: Reason
) -> None:
    verdict = check_convergence_order(
        [0.1, 0.01, 0.001], errors, 1, resolution=resolution
    )
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, reason)


@pytest.mark.parametrize(
    ("parameters", "errors", "keywords", "match"),
    [
        ([0.1, 0.05], [1.0, 0.5], {}, ">= 3"),
        ([0.1, 0.05, 0.02], [1.0, 0.5], {}, "one error per parameter"),
        ([0.1, 0.0, 0.02], [1.0, 0.5, 0.2], {}, "> 0"),
        ([0.1, -0.05, 0.02], [1.0, 0.5, 0.2], {}, "> 0"),
        ([0.1, 0.1, 0.1], [1.0, 0.5, 0.2], {}, "all equal"),
        ([0.1, 0.05, 0.02], [1.0, -0.5, 0.2], {}, "negative"),
        ([0.1, 0.05, 0.02], [1.0, 0.5, 0.2], {"model_tolerance": -1.0}, "model"),
        ([0.1, 0.05, 0.02], [1.0, 0.5, 0.2], {"resolution": -1.0}, "resolution"),
        ([0.1, 0.05, 0.02], [1.0, 0.5, 0.2], {"standard_errors": 0.0}, "standard"),
    ],
)
def test_bad_order_arguments_are_refused(
    parameters: list[float], errors: list[float], keywords: dict[str, float], match: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        check_convergence_order(parameters, errors, 1, **keywords)


# --- check_descent_endpoint ---------------------------------------------------


def _factorization_endpoints(
    steps: np.ndarray, u: float = 1.5, v: float = 0.2, target: float = 2.0
) -> tuple[np.ndarray, np.ndarray]:
    """Gradient descent on (u v - y)^2 / 2 for 40 time units at each step size:
    the endpoints and the final residuals |u v - y|."""
    endpoints, residuals = [], []
    for eta in steps:
        a, b = u, v
        for _ in range(round(40 / eta)):
            r = a * b - target
            a, b = a - eta * r * b, b - eta * r * a
        endpoints.append([a, b])
        residuals.append(abs(a * b - target))
    return np.array(endpoints), np.array(residuals)


def _flow_endpoint(u: float = 1.5, v: float = 0.2, target: float = 2.0) -> np.ndarray:
    # Gradient flow conserves u^2 - v^2 = c; with u v = y,
    # u^2 = (c + sqrt(c^2 + 4 y^2)) / 2.
    c = u**2 - v**2
    limit = math.sqrt((c + math.sqrt(c**2 + 4 * target**2)) / 2)
    return np.array([limit, target / limit])


_ETA = np.array([0.04, 0.02, 0.01])


def test_gradient_descent_reaches_the_flow_endpoint_at_first_order() -> None:
    # Each step changes u^2 - v^2 by the factor 1 - eta^2 r^2: the drift is
    # O(eta), so the endpoint is the flow's to first order in the step.
    endpoints, residuals = _factorization_endpoints(_ETA)
    verdict = check_descent_endpoint(
        endpoints,
        _flow_endpoint(),
        scales=_ETA,
        order=1,
        order_tolerance=0.15,
        converged=residuals < 1e-12,
    )
    assert verdict.status == Status.HOLDS
    assert verdict.basis == Basis.NUMERICAL
    balanced = np.sqrt([2.0, 2.0])  # the wrong endpoint: a balanced factorization
    wrong = check_descent_endpoint(
        endpoints, balanced, scales=_ETA, order=1, order_tolerance=0.15
    )
    assert wrong.status == Status.FAILS


def test_a_proven_constant_bounds_every_endpoint() -> None:
    limit = np.array([1.0, -2.0])
    runs = limit + np.outer(_ETA, [0.3, 0.4])  # error exactly 0.5 eta
    within = check_descent_endpoint(runs, limit, scales=_ETA, order=1, constant=0.51)
    assert within.status == Status.HOLDS
    beyond = check_descent_endpoint(runs, limit, scales=_ETA, order=1, constant=0.49)
    assert beyond.status == Status.FAILS
    assert beyond.counterexample is not None
    squared = check_descent_endpoint(runs, limit, scales=_ETA, order=2, constant=0.51)
    assert squared.status == Status.FAILS


def test_an_unconverged_run_is_inconclusive_never_fails() -> None:
    endpoints, _ = _factorization_endpoints(_ETA)
    verdict = check_descent_endpoint(
        endpoints,
        np.sqrt([2.0, 2.0]),
        scales=_ETA,
        order=1,
        order_tolerance=0.15,
        converged=[True, False, True],
    )
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.UNDECIDED)
    assert "0.02" in verdict.detail


@pytest.mark.parametrize(
    ("trained", "predicted", "keywords", "match"),
    [
        (np.zeros((3, 2)), np.zeros(2), {}, "exactly one"),
        (
            np.zeros((3, 2)),
            np.zeros(2),
            {"constant": 1.0, "order_tolerance": 0.1},
            "exactly one",
        ),
        (np.zeros((2, 2)), np.zeros(2), {"constant": 1.0}, "one endpoint per scale"),
        (np.zeros((3, 2)), np.zeros(3), {"constant": 1.0}, "broadcast"),
        (np.zeros((3, 2)), np.zeros((3, 3, 2)), {"constant": 1.0}, "shape"),
        (np.zeros((3, 2)), np.zeros(2), {"constant": 0.0}, "constant"),
        (np.zeros((3, 2)), np.zeros(2), {"constant": 1, "converged": [1, 0]}, "flag"),
    ],
)
def test_bad_endpoint_arguments_are_refused(
    trained: np.ndarray, predicted: np.ndarray, keywords: dict[str, float], match: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        check_descent_endpoint(trained, predicted, scales=_ETA, order=1, **keywords)


def test_endpoint_scales_must_be_positive() -> None:
    with pytest.raises(InvalidArgumentError, match="scales"):
        check_descent_endpoint(
            np.zeros((3, 2)), np.zeros(2), scales=[0.1, 0.0, 0.01], order=1, constant=1
        )
