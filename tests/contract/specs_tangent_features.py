"""Contract entries of the adaptive-tangent-features validation modules.

:mod:`implicit_bias.validation.tangent_kernels` (a NumPy ReLU MLP, its tangent
features and kernels, and the Figure 1 experiment) and
:mod:`implicit_bias.validation.tangent_features` (direct descents of problems
(4) and (27) and the duality certificate). Networks and problems are tiny
(D <= 4, widths <= 8, N <= 10, P <= 6 for the descents, tens of steps), so a
draw costs milliseconds; the drawn scales of data, weights, targets and
learning rates span the float64 range, where a function must end in a finite
result or a named error (OutOfRangeError, ConvergenceError), never NaN, a raw
NumPy error or a hang.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

from implicit_bias.numerics.tangent_features import (
    Penalty,
    absolute_deviation,
    join_penalty,
    power_deviation,
    squared_deviation,
)
from implicit_bias.validation import initialize_mlp
from tests.contract.harness import Exempt, Spec

_V = "implicit_bias.validation"

# Trainers and descents: Hypothesis examples per entry outside `thorough`.
_EXAMPLES = 12
# The Figure 1 experiment trains two networks per seed: fewer examples.
_TRIALS = 6

_SEEDS = st.integers(0, 2**32)
_SEED_INVALID = [-1, None, 2.0, np.float64(3.0)]


def _matrix(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape)


def _powers(low: int, high: int) -> st.SearchStrategy[float]:
    """10^k for integer k in [low, high]: scales across the float64 range."""
    return st.integers(low, high).map(lambda k: 10.0**k)


# ------------------------------------------------------------ tangent_kernels


def _network(seed: int = 0) -> tuple[np.ndarray, ...]:
    return initialize_mlp(3, (4,), seed=seed)


# Out-of-domain sequences of layers (W_1, ..., W_L), (P_l, Q_l), one output.
_BAD_WEIGHTS: list[Any] = [
    [],
    None,
    "weights",
    1.0,
    [np.ones(3)],
    [np.ones((3, 4)), np.ones((3, 1))],
    [np.ones((3, 4)), np.ones((4, 2))],
    [np.full((3, 4), np.nan), np.ones((4, 1))],
    [np.ones((3, 4)), np.full((4, 1), np.inf)],
    [np.ones((3, 4)) + 1j, np.ones((4, 1))],
    [np.ones((3, 4)), "layer"],
    [np.ones((3, 4)), None],
    [np.ones((3, 0)), np.ones((0, 1))],
]
_BAD_INPUTS: list[Any] = [np.ones(3), np.ones((2, 2)), np.ones((2, 4)), [[1.0, 2.0]]]


@st.composite
def _layers(draw: Any, dimension: int) -> tuple[np.ndarray, ...]:
    """A network on `dimension` inputs, every layer at its own scale."""
    widths = draw(st.lists(st.integers(1, 5), max_size=2))
    layers = initialize_mlp(dimension, widths, seed=draw(_SEEDS))
    return tuple(draw(_powers(-100, 100)) * layer for layer in layers)


@st.composite
def _network_and_inputs(draw: Any) -> dict[str, Any]:
    dimension = draw(st.integers(1, 4))
    return {
        "weights": draw(_layers(dimension)),
        "inputs": draw(_powers(-150, 150))
        * _matrix(draw(st.integers(1, 5)), dimension, seed=draw(_SEEDS)),
    }


@st.composite
def _initializations(draw: Any) -> dict[str, Any]:
    return {
        "input_dimension": draw(st.integers(1, 10)),
        "widths": draw(st.lists(st.integers(1, 10), max_size=3)),
        "seed": draw(_SEEDS),
    }


@st.composite
def _flatten(draw: Any) -> dict[str, Any]:
    return {"weights": draw(_layers(draw(st.integers(1, 4))))}


@st.composite
def _training(draw: Any) -> dict[str, Any]:
    arguments = draw(_network_and_inputs())
    samples = arguments["inputs"].shape[0]
    arguments["targets"] = draw(_powers(-150, 150)) * _matrix(
        samples, seed=draw(_SEEDS)
    )
    arguments["learning_rate"] = draw(_powers(-3, 300))
    arguments["max_steps"] = draw(st.integers(1, 20))
    arguments["tol"] = draw(st.one_of(st.just(0.0), _powers(-12, 300)))
    return arguments


@st.composite
def _paths(draw: Any) -> dict[str, Any]:
    arguments = draw(_network_and_inputs())
    start = arguments.pop("weights")
    seed = draw(_SEEDS)
    arguments["initial_weights"] = start
    arguments["final_weights"] = tuple(
        layer + draw(_powers(-100, 100)) * _matrix(*layer.shape, seed=seed + index)
        for index, layer in enumerate(start)
    )
    arguments["nodes"] = draw(st.integers(1, 20))
    return arguments


@st.composite
def _features(draw: Any) -> dict[str, Any]:
    return {
        "features": draw(_powers(-300, 300))
        * _matrix(draw(st.integers(1, 5)), draw(st.integers(1, 5)), seed=draw(_SEEDS))
    }


@st.composite
def _outputs(draw: Any) -> dict[str, Any]:
    samples = draw(st.integers(1, 5))
    return {
        "initial_outputs": draw(_powers(-300, 300))
        * _matrix(samples, seed=draw(_SEEDS)),
        "final_outputs": draw(_powers(-300, 300)) * _matrix(samples, seed=draw(_SEEDS)),
    }


@st.composite
def _kernel_pairs(draw: Any) -> dict[str, Any]:
    shape = (draw(st.integers(1, 4)), draw(st.integers(1, 4)))
    return {
        "first": draw(_powers(-300, 300)) * _matrix(*shape, seed=draw(_SEEDS)),
        "second": draw(_powers(-300, 300)) * _matrix(*shape, seed=draw(_SEEDS)),
    }


@st.composite
def _two_classes(draw: Any) -> dict[str, Any]:
    return {
        "samples": draw(st.integers(2, 40)),
        "dimension": draw(st.integers(2, 20)),
        "separation": draw(_powers(-300, 300)),
        "seed": draw(_SEEDS),
    }


_TRIAL_VALID: dict[str, Any] = {
    "samples": 8,
    "dimension": 3,
    "widths": (8,),
    "nodes": 4,
    "step_fraction": 0.5,
    "max_steps": 20,
    "tol": 1e-3,
}


@st.composite
def _trial_settings(draw: Any) -> dict[str, Any]:
    """Settings where a network off on every input is improbable (< 1e-5).

    Narrower layers, D = 2 (every normalized input is +-(1, -1)) or fewer
    samples are in the domain too, but there the initial networks are off on
    every input often enough that the refusal (InvalidArgumentError naming
    seed and widths) would be drawn.
    """
    width = draw(st.integers(8, 10))
    return {
        "samples": draw(st.integers(6, 10)),
        "dimension": draw(st.integers(3, 4)),
        "widths": draw(st.sampled_from([(width,), (width, 16)])),
        "nodes": draw(st.integers(1, 6)),
        "step_fraction": draw(st.floats(0.0, 1.0, exclude_min=True, exclude_max=True)),
        "max_steps": draw(st.integers(1, 20)),
        # The relative loss at the initialization is above 0.09 in 2e4 draws.
        "tol": draw(st.one_of(st.just(0.0), _powers(-12, -2))),
    }


@st.composite
def _trials(draw: Any) -> dict[str, Any]:
    return {"seed": draw(_SEEDS), **draw(_trial_settings())}


@st.composite
def _studies(draw: Any) -> dict[str, Any]:
    seeds = draw(st.lists(_SEEDS, min_size=2, max_size=3))
    return {"seeds": seeds, **draw(_trial_settings())}


_TRIAL_INVALID: dict[str, list[Any]] = {
    "samples": [1, 0, -3],
    "dimension": [1, 0],
    "widths": [(0,), (3, -1), 5, None, "widths"],
    "nodes": [0, -1],
    "step_fraction": [0.0, 1.0, -0.5, 2.0],
    "max_steps": [0, -1],
    "tol": [-1e-3, 1e300],
}

# --------------------------------------------------------- tangent_features

# Power penalties |z-1|^p with p >= 2, the smooth ones the descents take.
_SMOOTH = st.one_of(
    st.sampled_from([squared_deviation, power_deviation(3.0), power_deviation(4.0)]),
    st.floats(2.0, 16.0).map(power_deviation),
)
# Wider exponents where nothing is descended (the dual bound's scalar problem).
_SMOOTH_WIDE = st.one_of(_SMOOTH, _powers(1, 3).map(power_deviation))
# Penalties omega_tilde accepts: any power, a join, plain callables.
_ANY_PENALTY = st.one_of(
    _SMOOTH_WIDE,
    st.sampled_from(
        [
            absolute_deviation,
            power_deviation(0.5),
            power_deviation(1.5),
            join_penalty(squared_deviation, absolute_deviation),
            lambda z: (z - 1.0) ** 2,
            lambda z: np.abs(z - 1.0) ** 3,
        ]
    ),
)


def _forced_exponent(exponent: float) -> Penalty:
    """(z-1)^2 with ``exponent`` set past Penalty's check, which refuses it.

    The descents read the exponent themselves: one set after construction
    must not pass as a smooth power (nan < 2 is False, and inf >= 2).
    """
    penalty = Penalty(
        name=f"|z-1|^{exponent}",
        function=squared_deviation.function,
        mp=squared_deviation.mp,
        exponent=2.0,
    )
    object.__setattr__(penalty, "exponent", exponent)
    return penalty


# Not a power penalty with p >= 2: refused by the descents and the dual bound.
_NOT_SMOOTH: list[Any] = [
    power_deviation(1.5),
    absolute_deviation,
    join_penalty(squared_deviation, squared_deviation),
    lambda z: (z - 1.0) ** 2,
    "squared",
    None,
    _forced_exponent(math.inf),
    _forced_exponent(math.nan),
    # Smooth, but without the exponent the descents take the derivative from.
    Penalty("(z-1)^2", squared_deviation.function, squared_deviation.mp),
]


@st.composite
def _constraints(
    draw: Any, *, targets_low: int = -300, targets_high: int = 300
) -> dict[str, Any]:
    """J of full row rank (N <= P, Gaussian) and r, at independent scales."""
    rows = draw(st.integers(1, 3))
    columns = rows + draw(st.integers(0, 3))
    seed = draw(_SEEDS)
    return {
        "tangent_features": draw(_powers(-300, 300))
        * _matrix(rows, columns, seed=seed),
        "targets": draw(st.one_of(st.just(0.0), _powers(targets_low, targets_high)))
        * _matrix(rows, seed=seed + 1),
    }


@st.composite
def _theorem_one(draw: Any) -> dict[str, Any]:
    return {**draw(_constraints()), "penalty": draw(_ANY_PENALTY)}


@st.composite
def _dual_bounds(draw: Any) -> dict[str, Any]:
    arguments = draw(_constraints())
    rows = arguments["targets"].shape[0]
    arguments["multiplier"] = draw(
        st.one_of(st.just(0.0), _powers(-300, 300))
    ) * _matrix(rows, seed=draw(_SEEDS))
    arguments["penalty"] = draw(_SMOOTH_WIDE)
    return arguments


_DESCENT: dict[str, st.SearchStrategy[Any]] = {
    "init_scale": st.one_of(st.just(0.0), st.floats(0.0, 1.0, exclude_max=True)),
    "seed": _SEEDS,
    "gradient_tol": _powers(-12, 300),
    "max_iterations": st.integers(1, 200),
}


@st.composite
def _relaxed(draw: Any) -> dict[str, Any]:
    return {
        **draw(_constraints()),
        "penalty": draw(_SMOOTH),
        **{name: draw(strategy) for name, strategy in _DESCENT.items()},
    }


@st.composite
def _two_sided(draw: Any) -> dict[str, Any]:
    shape = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    # ||B||_F^2 must be finite (documented): entries up to 1e150.
    return {
        "target": draw(st.one_of(st.just(0.0), _powers(-300, 150)))
        * _matrix(*shape, seed=draw(_SEEDS)),
        "left_penalty": draw(_SMOOTH),
        "right_penalty": draw(_SMOOTH),
        **{name: draw(strategy) for name, strategy in _DESCENT.items()},
    }


def _constraint_valid() -> dict[str, Any]:
    return {
        "tangent_features": np.array([[1.0, 2.0, 0.0], [0.0, 1.0, -1.0]]),
        "targets": np.array([1.0, -0.5]),
    }


_CONSTRAINT_INVALID: dict[str, list[Any]] = {
    # N > P, rank-deficient, zero, a vector.
    "tangent_features": [
        np.ones((3, 2)),
        np.array([[1.0, 2.0, 0.0], [2.0, 4.0, 0.0]]),
        np.zeros((2, 3)),
        np.ones(3),
        np.empty((2, 0)),
    ],
    "targets": [np.ones(3), np.ones(1), np.ones((2, 1))],
}

_DESCENT_INVALID: dict[str, list[Any]] = {
    "init_scale": [1.0, -0.1, 1.5],
    "seed": _SEED_INVALID,
    "gradient_tol": [0.0, -1e-9],
    "max_iterations": [0, -1, 10.0],
}


SPECS: dict[str, Spec | Exempt] = {
    # ----------------------------------------------------------- tangent_kernels
    f"{_V}.TrainingRun": Exempt("result record of train_mlp"),
    f"{_V}.LabelAlignmentTrial": Exempt("result record of label_alignment_trial"),
    f"{_V}.LabelAlignmentStudy": Exempt("result record of label_alignment_study"),
    f"{_V}.initialize_mlp": Spec(
        valid=lambda: {"input_dimension": 3, "widths": [4, 2], "seed": 0},
        domains=_initializations(),
        invalid={
            "input_dimension": [0, -1],
            "widths": [[0], [3, -1], 5, None, [3, None]],
            "seed": _SEED_INVALID,
        },
        skip_probes={
            ("widths", "empty"): "no hidden layer: L = 1, a linear readout",
        },
    ),
    f"{_V}.mlp_outputs": Spec(
        valid=lambda: {"weights": _network(), "inputs": _matrix(2, 3, seed=1)},
        domains=_network_and_inputs(),
        invalid={"weights": _BAD_WEIGHTS, "inputs": _BAD_INPUTS},
    ),
    f"{_V}.flatten_weights": Spec(
        valid=lambda: {"weights": _network()},
        domains=_flatten(),
        invalid={"weights": _BAD_WEIGHTS},
    ),
    f"{_V}.mlp_tangent_features": Spec(
        valid=lambda: {"weights": _network(), "inputs": _matrix(2, 3, seed=1)},
        domains=_network_and_inputs(),
        invalid={"weights": _BAD_WEIGHTS, "inputs": _BAD_INPUTS},
    ),
    f"{_V}.train_mlp": Spec(
        valid=lambda: {
            "weights": _network(),
            "inputs": _matrix(2, 3, seed=1),
            "targets": _matrix(2, seed=2),
            "learning_rate": 0.1,
            "max_steps": 10,
            "tol": 1e-4,
        },
        domains=_training(),
        invalid={
            "weights": _BAD_WEIGHTS,
            "inputs": _BAD_INPUTS,
            "targets": [np.ones(3), np.ones((2, 1)), np.ones(1)],
            "learning_rate": [0.0, -0.1, np.ones(2), True],
            "max_steps": [0, -1],
            "tol": [-1e-4, np.ones(2), True],
        },
        max_examples=_EXAMPLES,
    ),
    f"{_V}.average_tangent_features": Spec(
        valid=lambda: {
            "initial_weights": _network(),
            "final_weights": _network(seed=1),
            "inputs": _matrix(2, 3, seed=1),
            "nodes": 5,
        },
        domains=_paths(),
        invalid={
            "initial_weights": _BAD_WEIGHTS,
            "final_weights": [
                *_BAD_WEIGHTS,
                initialize_mlp(3, (5,), seed=0),
                initialize_mlp(3, (4, 2), seed=0),
            ],
            "inputs": _BAD_INPUTS,
            "nodes": [0, -1],
        },
        max_examples=_EXAMPLES,
    ),
    f"{_V}.tangent_kernel": Spec(
        valid=lambda: {"features": _matrix(3, 5)},
        domains=_features(),
        invalid={"features": [np.ones(3), np.empty((2, 0)), [[1.0], [1j]]]},
    ),
    f"{_V}.label_kernel": Spec(
        valid=lambda: {
            "initial_outputs": _matrix(3),
            "final_outputs": _matrix(3, seed=1),
        },
        domains=_outputs(),
        invalid={
            "initial_outputs": [np.ones(2), np.ones((3, 1))],
            "final_outputs": [np.ones(4), np.ones((1, 3))],
        },
    ),
    f"{_V}.kernel_alignment": Spec(
        valid=lambda: {"first": _matrix(3, 3), "second": _matrix(3, 3, seed=1)},
        domains=_kernel_pairs(),
        invalid={
            "first": [np.zeros((3, 3)), np.ones((2, 3)), np.ones(3)],
            "second": [np.zeros((3, 3)), np.ones((3, 2))],
        },
    ),
    f"{_V}.two_class_inputs": Spec(
        valid=lambda: {"samples": 6, "dimension": 4, "separation": 1.5, "seed": 0},
        domains=_two_classes(),
        invalid={
            "samples": [1, 0, -2],
            "dimension": [1, 0],
            "separation": [0.0, -1.5, np.ones(2)],
            "seed": _SEED_INVALID,
        },
    ),
    f"{_V}.label_alignment_trial": Spec(
        valid=lambda: {"seed": 0, **_TRIAL_VALID},
        domains=_trials(),
        invalid={"seed": _SEED_INVALID, **_TRIAL_INVALID},
        max_examples=_TRIALS,
    ),
    f"{_V}.label_alignment_study": Spec(
        valid=lambda: {"seeds": [0, 1], **_TRIAL_VALID},
        domains=_studies(),
        invalid={
            "seeds": [[0], [], [0, -1], [0, 1.5], [0, None], None, 3, "01"],
            **_TRIAL_INVALID,
        },
        max_examples=_TRIALS,
    ),
    # ---------------------------------------------------------- tangent_features
    f"{_V}.DEFAULT_GRADIENT_TOLERANCE": Exempt(
        "a constant (the descents' default gradient tolerance)"
    ),
    f"{_V}.DEFAULT_MAX_ITERATIONS": Exempt(
        "a constant (the descents' default iteration cap)"
    ),
    f"{_V}.RelaxedProblemSolution": Exempt("result record of solve_relaxed_problem"),
    f"{_V}.TwoSidedSolution": Exempt("result record of solve_two_sided_problem"),
    f"{_V}.minimum_norm_coefficients": Spec(
        valid=_constraint_valid,
        domains=_constraints(),
        invalid=_CONSTRAINT_INVALID,
    ),
    f"{_V}.theorem_one_value": Spec(
        valid=lambda: {**_constraint_valid(), "penalty": squared_deviation},
        domains=_theorem_one(),
        invalid={
            **_CONSTRAINT_INVALID,
            "penalty": [
                "squared",
                None,
                lambda z: (z - 2.0) ** 2,
                lambda z: -np.abs(z - 1.0),
            ],
        },
    ),
    f"{_V}.relaxed_dual_bound": Spec(
        valid=lambda: {
            **_constraint_valid(),
            "multiplier": np.array([0.1, -0.2]),
            "penalty": squared_deviation,
        },
        domains=_dual_bounds(),
        invalid={
            **_CONSTRAINT_INVALID,
            "multiplier": [np.ones(3), np.ones(1), np.ones((2, 1))],
            "penalty": _NOT_SMOOTH,
        },
        infinite="``-inf`` for p = 2 when",
    ),
    f"{_V}.solve_relaxed_problem": Spec(
        valid=lambda: {
            **_constraint_valid(),
            "penalty": squared_deviation,
            "init_scale": 0.5,
            "seed": 0,
            "gradient_tol": 1e-9,
            "max_iterations": 100,
        },
        domains=_relaxed(),
        infinite="Its dual bound is ``-inf`` (and its duality gap inf) for p = 2",
        invalid={
            **_CONSTRAINT_INVALID,
            "penalty": _NOT_SMOOTH,
            **_DESCENT_INVALID,
            "gap_tol": [-1e-9, float("nan"), float("inf")],
        },
        max_examples=_EXAMPLES,
    ),
    f"{_V}.solve_two_sided_problem": Spec(
        valid=lambda: {
            "target": np.array([[2.0, 0.5], [0.0, -1.0], [1.0, 1.0]]),
            "left_penalty": squared_deviation,
            "right_penalty": power_deviation(4.0),
            "init_scale": 0.5,
            "seed": 0,
            "gradient_tol": 1e-9,
            "max_iterations": 100,
        },
        domains=_two_sided(),
        invalid={
            "target": [np.ones(3), 1e200 * np.ones((2, 2)), np.empty((2, 0))],
            "left_penalty": _NOT_SMOOTH,
            "right_penalty": _NOT_SMOOTH,
            **_DESCENT_INVALID,
        },
        max_examples=_EXAMPLES,
    ),
}
