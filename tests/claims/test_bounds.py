"""A value between two derived bounds (claims.bounds.check_within)."""

from __future__ import annotations

import numpy as np
import pytest

from implicit_bias.claims.bounds import check_within
from implicit_bias.claims.checks import injected_bias
from implicit_bias.claims.engine import Basis, Reason, Status
from implicit_bias.errors import InvalidArgumentError


@pytest.mark.parametrize(
    ("value", "status"),
    [
        (0.0, Status.HOLDS),
        (0.25, Status.HOLDS),
        (1.0, Status.HOLDS),
        (-1e-9, Status.FAILS),
        (1.0 + 1e-9, Status.FAILS),
    ],
)
def test_the_verdict_turns_at_the_bounds(value: float, status: Status) -> None:
    assert check_within(value, 0.0, 1.0, what="a share").status == status


def test_rounding_widens_both_sides() -> None:
    for value in (-5e-11, 1.0 + 5e-11):
        assert check_within(value, 0.0, 1.0, what="x").status == Status.FAILS
        widened = check_within(value, 0.0, 1.0, what="x", rounding=1e-10)
        assert widened.status == Status.HOLDS


def test_bounds_broadcast_per_value_and_the_worst_value_is_named() -> None:
    verdict = check_within(
        [0.1, 0.9, 2.5], [0.0, 0.5, 3.0], [0.2, 1.0, 4.0], what="steps"
    )
    assert verdict.status == Status.FAILS
    assert verdict.detail.startswith("steps: 3 values from 0.1 to 2.5")
    assert "2.5" in verdict.counterexample


def test_the_basis_is_the_callers() -> None:
    verdict = check_within(0.3, 0.1, 0.5, what="mean", basis=Basis.STATISTICAL)
    assert verdict.basis == Basis.STATISTICAL


def test_a_value_that_is_not_finite_is_undecided() -> None:
    verdict = check_within([0.5, np.nan], 0.0, 1.0, what="x")
    assert verdict.status == Status.INCONCLUSIVE
    assert verdict.reason == Reason.NON_FINITE


@pytest.mark.parametrize("factor", [2.0, -2.0])
def test_mutation_shifts_by_half_widths(factor: float) -> None:
    # 0.5 is the midpoint of [0, 1]: a shift of 2 half-widths puts it outside.
    with injected_bias(factor) as record:
        verdict = check_within(0.5, 0.0, 1.0, what="x")
    assert record.comparisons == 1
    assert verdict.status == Status.FAILS


@pytest.mark.parametrize(
    ("lower", "upper", "rounding", "named"),
    [
        (1.0, 0.0, 0.0, "lower, upper"),
        ([0.0, 2.0], [1.0, 1.0], 0.0, "lower, upper"),
        (0.0, 1.0, -1e-3, "rounding"),
    ],
)
def test_invalid_bounds_are_refused(
    lower: object, upper: object, rounding: float, named: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=named):
        check_within(0.5, lower, upper, what="x", rounding=rounding)
