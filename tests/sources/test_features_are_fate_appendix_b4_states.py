"""features-are-fate (87): the states where it is an equality, and fitted labels."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.sources.features_are_fate._empirical_networks import (
    smallest_singular_value_squared,
)
from implicit_bias.sources.features_are_fate.appendix_b4_states import (
    equality_states,
    fitted_labels,
)


def test_equality_states_meet_22_with_equality() -> None:
    for state in equality_states(6):
        (invariant,) = state.invariants
        floor = state.alpha**2 * state.margin
        assert invariant == floor * sp.eye(2)
        first = sp.Matrix(state.weights[0])
        assert sp.simplify(smallest_singular_value_squared(first.T) - floor) == 0
        assert all(sp.sympify(e).is_Rational for w in state.weights for e in w)


def test_fitted_labels_leave_no_residual_in_the_image() -> None:
    normal = sp.Matrix([2, 3, 1 - 4 - 9])
    data = normal.cross(sp.Matrix([1, 2, 5])).row_join(
        normal.cross(sp.Matrix([-3, 1, 2]))
    )
    weights = (sp.Matrix([[1, 2], [3, -1]]), sp.Matrix([[2], [5]]))
    labels = fitted_labels(data, normal, weights, sp.Rational(7, 3))
    residual = data * weights[0] * weights[1] - labels
    assert data.T * residual == sp.zeros(2, 1)
    assert residual != sp.zeros(3, 1)


@pytest.mark.parametrize("count", [0, -1, 2.0])
def test_equality_states_reject_a_bad_count(count: object) -> None:
    with pytest.raises(InvalidArgumentError, match="count"):
        equality_states(count)  # type: ignore[arg-type]
