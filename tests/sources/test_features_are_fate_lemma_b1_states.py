"""The nearly tight states of Lemma B.1's checks (features-are-fate, Appendix B.3)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.sources.features_are_fate import _lemma_b1_states as extra
from implicit_bias.sources.features_are_fate._network_states import (
    quantities,
    trajectory_states,
)


def test_every_initialization_satisfies_22_exactly() -> None:
    for state in extra.extra_states():
        assert extra.satisfies_initialization(state.initialization)


def test_the_initial_states_are_alpha_times_the_initialization() -> None:
    for state in extra.perpendicular_states():
        assert state.initial
        for weight, bar in zip(state.weights, state.initialization, strict=True):
            assert weight == tuple(tuple(state.alpha * e for e in row) for row in bar)


def test_an_initialization_violating_22_is_refused() -> None:
    # Dbar_2 = diag(1/4 - 1/4, ...) is singular: (22) asks for lambda > 0.
    assert not extra.satisfies_initialization(
        (
            ((Fraction(1), Fraction(0)), (Fraction(0), Fraction(1))),
            ((Fraction(1, 2), Fraction(0)), (Fraction(0), Fraction(1, 2))),
            ((Fraction(0),), (Fraction(1, 2),)),
        )
    )
    with pytest.raises(InvalidArgumentError, match="first, second, last"):
        extra._axis_aligned(
            (Fraction(1), Fraction(1)), (Fraction(1), Fraction(1, 2)), Fraction(1, 4)
        )


def test_a_rescaled_reading_is_the_same_flow_from_the_same_start() -> None:
    state = trajectory_states(3)[5]
    read = extra.rescaled_reading(state, Fraction(1, 16))
    assert read.weights == state.weights
    assert read.alpha == 16 * state.alpha
    for bar, scaled in zip(state.initialization, read.initialization, strict=True):
        start = [[state.alpha * e for e in row] for row in bar]
        assert start == [[read.alpha * e for e in row] for row in scaled]
    # D_l(W) - alpha^2 Dbar_l does not change: the same drift.
    drift = quantities(state)["drift"]
    assert float(quantities(read)["drift"].upper()) == pytest.approx(
        float(drift.upper()), rel=1e-9, abs=1e-30
    )
    with pytest.raises(InvalidArgumentError, match="factor"):
        extra.rescaled_reading(state, Fraction(0))


@pytest.mark.parametrize("layer", [1, 2])
def test_the_perpendicular_states_have_orthogonal_singular_vectors(layer: int) -> None:
    states = extra.perpendicular_states()
    index = (layer - 1) * len(extra.PERPENDICULAR_ALPHAS)
    values = quantities(states[index])
    assert values[f"align_{layer}"].contains(0)
    assert float(values[f"align_{layer}"].upper()) < 1e-30


def test_the_crossing_flow_switches_its_singular_vectors_and_converges() -> None:
    states = extra.crossing_states()
    assert states[-1].converged
    assert max(float(quantities(s)["drift"].upper()) for s in states) < 1e-12
    # Axis-aligned throughout: the off-diagonal entries stay exactly 0.
    assert all(s.weights[1][0][1] == 0 == s.weights[1][1][0] for s in states)
    alignments = [float(quantities(s)["align_2"].mid()) for s in states]
    assert alignments[0] == 0
    assert alignments[-1] == 1
