"""Statements about independent repeats: "not consistently below" a bound."""

from __future__ import annotations

import math
import statistics
from typing import Any

import numpy as np
import pytest

import implicit_bias.claims.repeats as repeats_module
from implicit_bias.claims.checks import injected_bias
from implicit_bias.claims.engine import Basis, Reason, Status
from implicit_bias.claims.repeats import (
    check_not_consistently_below,
    student_t_critical,
)
from implicit_bias.errors import InvalidArgumentError


@pytest.mark.parametrize(
    ("repeats", "expected"),
    [
        # Student-t quantiles at 1 - Phi(-3) = 0.998650..., scipy 1.17 (stats.t.isf).
        (2, 235.8014979604683),
        (5, 6.620205966815868),
        (24, 3.361320419784167),
    ],
)
def test_the_critical_value_is_the_student_t_tail_of_three_normal_se(
    repeats: int, expected: float
) -> None:
    assert student_t_critical(repeats) == pytest.approx(expected, rel=1e-12)


def test_the_critical_value_tends_to_the_normal_one() -> None:
    # t_{R-1} -> N(0, 1): 3 SE for many repeats, more for few.
    values = [student_t_critical(r) for r in (2, 3, 5, 10, 100, 10_000)]
    assert values == sorted(values, reverse=True)
    assert values[-1] == pytest.approx(3.0, abs=2e-3)


def test_a_repeat_at_the_bound_shows_the_values_are_not_consistently_below() -> None:
    verdict = check_not_consistently_below([0.2, 1.0, 0.3], 1.0, what="ratio")
    assert verdict.status == Status.HOLDS
    assert verdict.basis == Basis.SEARCH
    assert verdict.detail.startswith("ratio: 1 of 3 repeats at or above 1")


def test_a_systematic_shortfall_in_every_repeat_refutes_the_statement() -> None:
    # The paper-size STL l1,2 ratios of ptft-diagonal-networks at n = 10.
    values = [0.433, 0.352, 0.413, 0.389, 0.394]
    verdict = check_not_consistently_below(values, 1.0)
    assert verdict.status == Status.FAILS
    assert verdict.basis == Basis.STATISTICAL
    # Textbook reference: mean and s / sqrt(R), written out.
    mean = sum(values) / 5
    se = math.sqrt(sum((v - mean) ** 2 for v in values) / 4) / math.sqrt(5)
    assert f"{1 - mean:.4g} +- {se:.3g} (SE)" in verdict.detail
    assert f"{(1 - mean) / se:.2f} SE" in verdict.detail
    assert "sign test p = 2^-5 = 0.0312" in verdict.detail
    assert "refuted beyond 6.62 SE" in verdict.detail
    assert verdict.counterexample


def test_two_repeats_below_are_not_decisive() -> None:
    # The quick configuration's STL l1,2 ratios: 4.7 SE, p = 0.067 with 1 df.
    verdict = check_not_consistently_below([0.676, 0.5], 1.0)
    assert verdict.status == Status.INCONCLUSIVE
    assert verdict.reason == Reason.STATISTICAL
    assert "4.68 SE" in verdict.detail
    assert "p = 0.067" in verdict.detail


@pytest.mark.parametrize(
    ("effect", "status"), [(0.99, Status.INCONCLUSIVE), (1.01, Status.FAILS)]
)
def test_the_verdict_turns_at_the_critical_value(effect: float, status: Status) -> None:
    # Five repeats of sd 1 (s = 1 exactly) whose mean lies effect x t* SE
    # below the bound (every repeat below it).
    spread = np.array([-2.0, -1.0, 0.0, 1.0, 2.0]) / math.sqrt(2.5)
    critical = student_t_critical(5)
    values = 100.0 - effect * critical / math.sqrt(5) + spread
    assert statistics.stdev(values) == pytest.approx(1.0)
    assert check_not_consistently_below(values, 100.0).status == status


def test_one_repeat_decides_only_by_being_at_the_bound() -> None:
    assert check_not_consistently_below([1.5], 1.0).status == Status.HOLDS
    verdict = check_not_consistently_below([0.5], 1.0)
    assert verdict.status == Status.INCONCLUSIVE
    assert verdict.reason == Reason.STATISTICAL


def test_equal_repeats_below_bound_nothing() -> None:
    verdict = check_not_consistently_below([0.5, 0.5, 0.5], 1.0)
    assert verdict.status == Status.INCONCLUSIVE
    assert verdict.reason == Reason.STATISTICAL


def test_a_repeat_that_is_not_finite_is_not_judged() -> None:
    verdict = check_not_consistently_below([0.5, math.nan, 2.0], 1.0)
    assert verdict.status == Status.INCONCLUSIVE
    assert verdict.reason == Reason.NON_FINITE


@pytest.mark.parametrize(
    ("values", "bound", "options"),
    [
        ([], 1.0, {}),
        ([[0.5, 0.4]], 1.0, {}),
        ([0.5 + 1j, 0.4], 1.0, {}),
        (["a", "b"], 1.0, {}),
        ([0.5, 0.4], "one", {}),
        ([0.5, 0.4], 1.0, {"standard_errors": 0.0}),
        ([0.5, 0.4], 1.0, {"standard_errors": math.inf}),
        ([0.5, 0.4], 1.0, {"standard_errors": True}),
    ],
)
def test_invalid_arguments_are_refused(
    values: Any, bound: Any, options: dict[str, Any]
) -> None:
    with pytest.raises(InvalidArgumentError):
        check_not_consistently_below(values, bound, **options)


@pytest.mark.parametrize(
    ("repeats", "standard_errors"), [(1, 3.0), (2.0, 3.0), (True, 3.0), (5, -1.0)]
)
def test_invalid_critical_value_arguments_are_refused(
    repeats: Any, standard_errors: Any
) -> None:
    with pytest.raises(InvalidArgumentError):
        student_t_critical(repeats, standard_errors)


def test_an_injected_bias_moves_the_repeats_down_by_the_refutation_threshold() -> None:
    # Mean 1.0, SE 0.00707 over 5 repeats, t* SE = 0.0468: two repeats at or
    # above 1.0 hold it. Moved down 2 t* SE (whatever the factor's sign), every
    # repeat is below 1.0 and the mean shortfall, 2 t* SE, is beyond t* SE.
    repeats = np.array([0.98, 0.99, 1.0, 1.01, 1.02])
    error = float(np.std(repeats, ddof=1) / math.sqrt(5))
    threshold = student_t_critical(5) * error
    assert check_not_consistently_below(repeats, 1.0).status == Status.HOLDS
    for factor in (2.0, -5.0):
        with injected_bias(factor) as record:
            verdict = check_not_consistently_below(repeats, 1.0)
        assert (record.comparisons, record.one_sided) == (1, 1)
        assert verdict.status == Status.FAILS
        assert verdict.counterexample is not None
        shortfall = abs(factor) * threshold
        assert f"{shortfall:.4g}" in verdict.counterexample


def test_equal_repeats_are_not_counted_as_shifted() -> None:
    with injected_bias(5.0) as record:
        verdict = check_not_consistently_below([0.5, 0.5, 0.5], 1.0)
    assert verdict.status == Status.INCONCLUSIVE
    assert record.comparisons == 0


def test_repeats_above_the_bound_need_no_critical_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The critical value (a SciPy quantile) is computed only for a shift or a
    # refutation, not for the common "holds" outcome.
    def refuse(*args: object) -> float:
        raise AssertionError("student_t_critical called")

    monkeypatch.setattr(repeats_module, "student_t_critical", refuse)
    assert check_not_consistently_below([0.4, 1.1], 1.0).status == Status.HOLDS
