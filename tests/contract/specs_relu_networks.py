"""Contract entries of the ReLU validation modules.

:mod:`implicit_bias.validation.relu_kernels` (features-are-fate, Sec. 4),
:mod:`implicit_bias.validation.relu_networks` (the direct minimization of
eq. (5) of ptft-relu-penalty) and
:mod:`implicit_bias.validation.relu_sample_efficiency` (Fig. 1c of
ptft-relu-penalty). Networks and samples are tiny (d <= 5, at most a few
units, tens of steps), so a trainer's draw costs milliseconds; the drawn
scales of data, weights and learning rates span the float64 range, where a
function must end in a finite result or a named error (OutOfRangeError,
ConvergenceError), never NaN, a raw NumPy error or a hang.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from types import SimpleNamespace
from typing import Any

import numpy as np
from hypothesis import strategies as st

from implicit_bias.validation import (
    AblationSetup,
    SampleEfficiencySetup,
    ablation_setup,
    sample_sphere,
)
from tests.contract.harness import Exempt, Spec

_V = "implicit_bias.validation"

# Trainers: Hypothesis examples per entry outside the thorough profile.
_EXAMPLES = 8


def _rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def _matrix(*shape: int, seed: int = 0) -> np.ndarray:
    return _rng(seed).standard_normal(shape)


def _unit(rows: int, dimension: int, seed: int = 0) -> np.ndarray:
    return sample_sphere(rows, dimension, _rng(seed))


def _powers(low: int, high: int) -> st.SearchStrategy[float]:
    """10^k for integer k in [low, high]: scales across the float64 range."""
    return st.integers(low, high).map(lambda k: 10.0**k)


def _signed(low: int, high: int) -> st.SearchStrategy[float]:
    return st.tuples(st.sampled_from([-1.0, 1.0]), _powers(low, high)).map(
        lambda pair: pair[0] * pair[1]
    )


_RNG = st.integers(0, 2**32).map(np.random.default_rng)
_SEEDS = st.integers(0, 2**32)
_RNG_INVALID = [0, 1.5, "rng", np.random.RandomState(0)]


def _setup(width: int = 4, dimension: int = 3, fraction: float = 0.5) -> AblationSetup:
    return ablation_setup(width, dimension, fraction, _rng(0))


@st.composite
def _ablations(draw: Any) -> AblationSetup:
    width = draw(st.integers(1, 6))
    kept = draw(st.integers(1, width))
    return ablation_setup(
        width,
        draw(st.integers(1, 4)),
        (width - kept) / width,
        draw(_RNG),
        readout=draw(st.sampled_from(["gaussian", "ones"])),
    )


# ------------------------------------------------------------------ relu_kernels


@st.composite
def _ablation_arguments(draw: Any) -> dict[str, Any]:
    width = draw(st.integers(1, 8))
    dimension = draw(st.integers(1, 5))
    arguments = {
        "teacher_width": width,
        "dimension": dimension,
        "ablated_fraction": draw(st.integers(0, width - 1)) / width,
        "rng": draw(_RNG),
        "readout": draw(st.sampled_from(["gaussian", "ones"])),
    }
    if draw(st.booleans()):
        arguments["teacher"] = (
            _unit(width, dimension, draw(_SEEDS)),
            draw(_powers(-300, 300)) * _matrix(width, seed=draw(_SEEDS)),
        )
    return arguments


@st.composite
def _inputs_and_weights(draw: Any) -> dict[str, Any]:
    dimension = draw(st.integers(1, 4))
    return {
        "inputs": draw(_powers(-200, 200))
        * _matrix(draw(st.integers(1, 5)), dimension, seed=draw(_SEEDS)),
        "weights": draw(_powers(-200, 200))
        * _matrix(draw(st.integers(1, 5)), dimension, seed=draw(_SEEDS)),
    }


@st.composite
def _overlaps(draw: Any) -> dict[str, Any]:
    dimension = draw(st.integers(1, 4))
    return {
        "weights": draw(_powers(-300, 300))
        * _matrix(draw(st.integers(1, 4)), dimension, seed=draw(_SEEDS)),
        "other_weights": draw(_powers(-300, 300))
        * _matrix(draw(st.integers(1, 4)), dimension, seed=draw(_SEEDS)),
        "samples": draw(st.integers(1, 200)),
        "rng": draw(_RNG),
    }


@st.composite
def _targets(draw: Any, samples: st.SearchStrategy[int]) -> dict[str, Any]:
    """A model and target within the Gram's norm range, readouts at any scale."""
    dimension = draw(st.integers(1, 4))
    targets = draw(st.integers(1, 4))
    return {
        "model_weights": draw(_powers(-100, 100))
        * _matrix(draw(st.integers(1, 4)), dimension, seed=draw(_SEEDS)),
        "target_weights": draw(_powers(-100, 100))
        * _matrix(targets, dimension, seed=draw(_SEEDS)),
        "target_readout": draw(_powers(-300, 300))
        * _matrix(targets, seed=draw(_SEEDS)),
        "rng": draw(_RNG),
        "samples": draw(samples),
    }


@st.composite
def _transfer(draw: Any) -> dict[str, Any]:
    arguments = draw(_targets(st.just(2)))
    del arguments["samples"]
    arguments["sample_sizes"] = tuple(
        draw(st.lists(st.integers(1, 8), min_size=1, max_size=3))
    )
    arguments["repeats"] = draw(st.integers(1, 3))
    return arguments


@st.composite
def _source_loss(draw: Any) -> dict[str, Any]:
    setup = draw(_ablations())
    width = draw(st.integers(1, 5))
    return {
        "hidden_weights": _unit(width, setup.teacher_weights.shape[1], draw(_SEEDS)),
        "readout": draw(_powers(-300, 300)) * _matrix(width, seed=draw(_SEEDS)),
        "setup": setup,
    }


@st.composite
def _condensation(draw: Any) -> dict[str, Any]:
    units = draw(st.integers(1, 5))
    return {
        "dimension": draw(st.integers(1, 4)),
        "teacher_units": units,
        "ablated_fraction": draw(st.integers(0, units - 1)) / units,
        "width": draw(st.integers(1, 5)),
        "steps": draw(st.integers(1, 20)),
        "learning_rate": draw(_powers(-3, 300)),
        # 2^-20 bounds the chance that a source unit's features vanish on all
        # inputs (the relative distance is then undefined and refused).
        "gram_inputs": draw(st.integers(20, 40)),
        "seed": draw(_SEEDS),
    }


_TARGET_VALID = {
    "model_weights": lambda: _unit(2, 3, 1),
    "target_weights": lambda: _unit(3, 3, 2),
    "target_readout": lambda: _matrix(3, seed=3),
}
_TARGET_INVALID: dict[str, list[Any]] = {
    "model_weights": [1e200 * np.ones((2, 3)), np.ones((2, 2)), np.ones(3)],
    "target_weights": [np.ones((3, 2)), 1e200 * np.ones((3, 3))],
    "target_readout": [np.ones(2), np.ones((3, 1))],
}


def _target_valid() -> dict[str, Any]:
    return {name: make() for name, make in _TARGET_VALID.items()}


_BAD_SETUPS = [
    "setup",
    replace(_setup(), ablated=np.array([7], dtype=np.int64)),
    replace(_setup(), ablated=np.arange(4, dtype=np.int64)),
    replace(_setup(), teacher_weights=2 * _unit(4, 3)),
    replace(_setup(), teacher_readout=np.ones(3)),
]

# ------------------------------------------------------------------ relu_networks


@st.composite
def _unit_deviation(draw: Any) -> dict[str, Any]:
    dimension = draw(st.integers(1, 4))
    leading = draw(st.sampled_from([(), (2,), (2, 3)]))
    return {
        "hidden_weights": draw(_powers(-200, 200))
        * _matrix(*leading, dimension, seed=draw(_SEEDS)),
        "readout": draw(_signed(-200, 200)),
        "w0": draw(_powers(-200, 200)) * _matrix(dimension, seed=draw(_SEEDS)),
        "gamma": draw(_signed(-200, 200)),
    }


@st.composite
def _minimize(draw: Any) -> dict[str, Any]:
    dimension = draw(st.integers(1, 4))
    return {
        "w_hat": _unit(1, dimension, draw(_SEEDS))[0],
        "m": draw(st.one_of(st.just(0.0), _signed(-60, 60))),
        "w0": draw(_powers(-60, 60)) * _matrix(dimension, seed=draw(_SEEDS)),
        "gamma": draw(st.one_of(st.just(0.0), _signed(-60, 60))),
        "grid_size": draw(st.integers(8, 256)),
        "tol": draw(_powers(-12, -1)),
    }


_BATCH_DOMAINS: dict[str, st.SearchStrategy[Any]] = {
    "m": st.one_of(st.just(0.0), _signed(-60, 60)),
    "rho": st.floats(-1.0, 1.0),
    "m0": st.one_of(st.just(0.0), _powers(-60, 60)),
    "gamma": st.one_of(st.just(0.0), _signed(-60, 60)),
    "dimension": st.integers(2, 5),
    "rng": st.one_of(st.none(), _SEEDS, _RNG),
    "grid_size": st.integers(8, 256),
    "tol": _powers(-12, -1),
}

# --------------------------------------------------------- relu_sample_efficiency


@st.composite
def _networks(
    draw: Any, *, init: bool = False, targets: bool = False
) -> dict[str, Any]:
    count, samples = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    width, dimension = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    seed = draw(_SEEDS)
    hidden, readout = (
        ("hidden_init", "readout_init")
        if init
        else (
            "hidden_weights",
            "readout",
        )
    )
    shared = draw(st.booleans())
    arguments = {
        "inputs": draw(_powers(-150, 150))
        * (
            _matrix(samples, dimension, seed=seed)
            if shared
            else _matrix(count, samples, dimension, seed=seed)
        ),
        hidden: draw(_powers(-150, 150))
        * _matrix(count, width, dimension, seed=seed + 1),
        readout: draw(_powers(-150, 150)) * _matrix(count, width, seed=seed + 2),
    }
    if targets:
        arguments["targets"] = draw(_powers(-150, 150)) * (
            _matrix(samples, seed=seed + 3)
            if draw(st.booleans())
            else _matrix(count, samples, seed=seed + 3)
        )
    return arguments


@st.composite
def _training(draw: Any) -> dict[str, Any]:
    arguments = draw(_networks(init=True, targets=True))
    arguments["learning_rate"] = draw(_powers(-3, 300))
    arguments["steps"] = draw(st.integers(1, 50))
    return arguments


@st.composite
def _correlated(draw: Any) -> dict[str, Any]:
    return {
        "units": _unit(draw(st.integers(1, 4)), draw(st.integers(2, 5)), draw(_SEEDS)),
        "rho": draw(st.floats(-1.0, 1.0)),
        "rng": draw(_RNG),
    }


@st.composite
def _teacher(draw: Any) -> dict[str, Any]:
    dimension = draw(st.integers(1, 4))
    leading = draw(st.sampled_from([(), (2,)]))
    return {
        "inputs": draw(_powers(-150, 150))
        * _matrix(*leading, draw(st.integers(1, 5)), dimension, seed=draw(_SEEDS)),
        "units": _unit(draw(st.integers(1, 4)), dimension, draw(_SEEDS)),
        "magnitude": draw(_signed(-300, 300)),
    }


_TINY = SampleEfficiencySetup(
    correlations=(1.0, 0.9),
    magnitudes=(1.0, 0.01),
    sample_sizes=(2, 4),
    seeds=2,
    dimension=2,
    teacher_units=1,
    width=2,
    aux_samples=4,
    steps=5,
    # The teacher vanishes on all test inputs with probability 2^-30: refused.
    test_samples=30,
)


@st.composite
def _experiments(draw: Any) -> dict[str, Any]:
    return {
        "setup": replace(
            _TINY,
            correlations=tuple(
                draw(st.lists(st.floats(-1.0, 1.0), min_size=1, max_size=2))
            ),
            magnitudes=tuple(draw(st.lists(_powers(-3, 3), min_size=1, max_size=2))),
            sample_sizes=tuple(
                draw(st.lists(st.integers(1, 6), min_size=1, max_size=2))
            ),
            init_scale=draw(_powers(-3, 0)),
            readout_reinit=draw(st.floats(-1.0, 1.0)),
            learning_rate=draw(_powers(-3, 300)),
            steps=draw(st.integers(1, 10)),
            seed=draw(_SEEDS),
        )
    }


def _network_valid(init: bool = False) -> dict[str, Any]:
    hidden, readout = (
        ("hidden_init", "readout_init")
        if init
        else (
            "hidden_weights",
            "readout",
        )
    )
    return {
        "inputs": _matrix(2, 3, 2, seed=1),
        hidden: _matrix(2, 4, 2, seed=2),
        readout: _matrix(2, 4, seed=3),
    }


def _network_invalid(init: bool = False) -> dict[str, list[Any]]:
    hidden, readout = (
        ("hidden_init", "readout_init")
        if init
        else (
            "hidden_weights",
            "readout",
        )
    )
    return {
        "inputs": [np.ones(3), np.ones((2, 3, 3)), np.ones((3, 3, 2))],
        hidden: [np.ones((2, 4)), np.ones((2, 4, 3))],
        readout: [np.ones((2, 3)), np.ones(4)],
    }


SPECS: dict[str, Spec | Exempt] = {
    # -------------------------------------------------------------- relu_kernels
    f"{_V}.AblationSetup": Exempt("result record of ablation_setup"),
    f"{_V}.MonteCarloEstimate": Exempt("result record of the Monte-Carlo estimators"),
    f"{_V}.ProjectionCheck": Exempt("result record of monte_carlo_projection"),
    f"{_V}.StudentTraining": Exempt("result record of train_student_on_source"),
    f"{_V}.KernelCondensation": Exempt("result record of kernel_condensation"),
    f"{_V}.sample_sphere": Spec(
        valid=lambda: {"count": 3, "dimension": 2, "rng": _rng()},
        domains={
            "count": st.integers(1, 20),
            "dimension": st.integers(1, 10),
            "rng": _RNG,
        },
        invalid={"count": [0, -1], "dimension": [0], "rng": _RNG_INVALID},
    ),
    f"{_V}.ablation_setup": Spec(
        valid=lambda: {
            "teacher_width": 4,
            "dimension": 3,
            "ablated_fraction": 0.5,
            "rng": _rng(),
            "readout": "ones",
        },
        domains=_ablation_arguments(),
        invalid={
            "teacher_width": [0, -2],
            "dimension": [0],
            "ablated_fraction": [1.0, -0.25, 0.3, 1e300],
            "rng": _RNG_INVALID,
            "teacher": [
                "teacher",
                (_unit(4, 3),),
                (2 * _unit(4, 3), np.ones(4)),
                (_unit(4, 3), np.ones(3)),
                (_unit(3, 3), np.ones(3)),
                (_unit(4, 2), np.ones(4)),
                (_unit(4, 3), np.array([1.0, np.nan, 0.0, 0.0])),
                (_unit(4, 3) + 1j, np.ones(4)),
            ],
        },
    ),
    f"{_V}.relu_features": Spec(
        valid=lambda: {"inputs": _matrix(3, 2), "weights": _matrix(4, 2, seed=1)},
        domains=_inputs_and_weights(),
        invalid={"inputs": [np.ones(2)], "weights": [np.ones((4, 3)), np.ones(2)]},
    ),
    f"{_V}.kernel_gram_on_inputs": Spec(
        valid=lambda: {"inputs": _matrix(3, 2), "weights": _matrix(4, 2, seed=1)},
        domains=_inputs_and_weights(),
        invalid={"inputs": [np.ones(2)], "weights": [np.ones((4, 3)), np.ones(2)]},
    ),
    f"{_V}.monte_carlo_overlaps": Spec(
        valid=lambda: {
            "weights": _matrix(3, 2),
            "other_weights": _matrix(2, 2, seed=1),
            "samples": 100,
            "rng": _rng(),
        },
        domains=_overlaps(),
        invalid={
            "other_weights": [np.ones((2, 3))],
            "samples": [0, -1],
            "rng": _RNG_INVALID,
        },
    ),
    f"{_V}.monte_carlo_projection": Spec(
        valid=lambda: {**_target_valid(), "samples": 50, "rng": _rng()},
        domains=_targets(st.integers(2, 100)),
        invalid={**_TARGET_INVALID, "samples": [1, 0], "rng": _RNG_INVALID},
    ),
    f"{_V}.linear_transfer_errors": Spec(
        valid=lambda: {
            **_target_valid(),
            "sample_sizes": (2, 5),
            "repeats": 2,
            "rng": _rng(),
        },
        domains=_transfer(),
        invalid={
            **_TARGET_INVALID,
            "sample_sizes": [(0,), (), "12", 5, (2, 2.5), (2, True), None],
            "repeats": [0],
            "rng": _RNG_INVALID,
        },
    ),
    f"{_V}.source_loss_and_gradients": Spec(
        valid=lambda: {
            "hidden_weights": _unit(3, 3, 5),
            "readout": _matrix(3, seed=6),
            "setup": _setup(),
        },
        domains=_source_loss(),
        invalid={
            "hidden_weights": [2 * _unit(3, 3), _unit(3, 2)],
            "readout": [np.ones(2)],
            "setup": [*_BAD_SETUPS, _setup(4, 2)],
        },
    ),
    f"{_V}.train_student_on_source": Spec(
        valid=lambda: {
            "setup": _setup(),
            "width": 3,
            "steps": 5,
            "rng": _rng(),
            "learning_rate": 0.1,
            "readout_init": 1e-7,
            "record_every": 2,
        },
        domains={
            "setup": _ablations(),
            "width": st.integers(1, 5),
            "steps": st.integers(1, 30),
            "rng": _RNG,
            "learning_rate": _powers(-3, 300),
            "readout_init": _signed(-300, 300),
            "record_every": st.integers(1, 10),
        },
        invalid={
            "setup": _BAD_SETUPS,
            "width": [0],
            "steps": [0],
            "rng": _RNG_INVALID,
            "learning_rate": [0.0, -0.1],
            "record_every": [0],
        },
        max_examples=_EXAMPLES,
    ),
    f"{_V}.kernel_condensation": Spec(
        valid=lambda: {
            "dimension": 3,
            "teacher_units": 4,
            "ablated_fraction": 0.5,
            "width": 4,
            "steps": 5,
            "learning_rate": 0.2,
            "gram_inputs": 20,
            "seed": 0,
        },
        domains=_condensation(),
        invalid={
            "dimension": [0],
            "teacher_units": [0],
            "ablated_fraction": [0.3, 1.0, -0.5],
            "width": [0],
            "steps": [0],
            "learning_rate": [0.0, -1.0],
            "gram_inputs": [0],
            "seed": [-1],
        },
        max_examples=_EXAMPLES,
    ),
    # ------------------------------------------------------------- relu_networks
    f"{_V}.UNIT_NORM_TOLERANCE": Exempt("a constant (the unit-norm tolerance)"),
    f"{_V}.UnitDeviationResult": Exempt("result record of minimize_unit_deviation"),
    f"{_V}.unit_deviation": Spec(
        valid=lambda: {
            "hidden_weights": np.array([1.0, 2.0]),
            "readout": 0.1,
            "w0": np.array([1.0, 0.5]),
            "gamma": 0.1,
        },
        domains=_unit_deviation(),
        invalid={
            "hidden_weights": [1.0, np.ones(3), np.ones((3, 2, 3))],
            "w0": [1.0, np.ones(3)],
        },
        skip_probes={
            ("hidden_weights", "extra-axis"): "leading axes are a batch: (1, d)",
            ("w0", "extra-axis"): "leading axes are a batch: (1, d)",
        },
    ),
    f"{_V}.minimize_unit_deviation": Spec(
        valid=lambda: {
            "w_hat": np.array([0.6, 0.8]),
            "m": 1.0,
            "w0": np.array([0.5, 0.5]),
            "gamma": 0.1,
            "grid_size": 64,
            "tol": 1e-8,
        },
        domains=_minimize(),
        invalid={
            "w_hat": [np.array([1.0, 1.0]), np.array([1.0, 0.0, 0.0]), [[0.6, 0.8]]],
            "w0": [np.ones(3)],
            "m": [np.ones(2)],
            "grid_size": [4, 2**21, 64.0],
            "tol": [0.0, 1.0, -1e-3],
        },
    ),
    f"{_V}.minimize_unit_deviation_batch": Spec(
        valid=lambda: {
            "m": np.array([1.0, -2.0]),
            "rho": np.array([0.5, 0.9]),
            "m0": np.array([1.0, 0.0]),
            "gamma": np.array([0.1, 0.0]),
            "dimension": 3,
            "rng": 0,
            "grid_size": 64,
            "tol": 1e-8,
        },
        domains=_BATCH_DOMAINS,
        invalid={
            "rho": [1.5, np.array([0.5, -1.01])],
            "m0": [-1.0],
            "m": [np.ones(3)],
            "dimension": [1, 10**7],
            "rng": [-1, np.random.RandomState(0)],
            "grid_size": [4],
            "tol": [0.0, 1.0],
        },
        skip_probes={
            (name, "extra-axis"): "batched: a leading axis of length 1 broadcasts"
            for name in ("m", "rho", "m0", "gamma")
        },
    ),
    # ---------------------------------------------------- relu_sample_efficiency
    f"{_V}.SampleEfficiency": Exempt("result record of sample_efficiency"),
    f"{_V}.SampleEfficiencySetup": Exempt(
        "configuration record users build: test_returned_objects.py checks its "
        "construction (every field) and its fields"
    ),
    f"{_V}.TrainedNetworks": Exempt("result record of train_relu_networks"),
    f"{_V}.relu_network_outputs": Spec(
        valid=_network_valid,
        domains=_networks(),
        invalid=_network_invalid(),
    ),
    f"{_V}.relu_loss_and_gradients": Spec(
        valid=lambda: {**_network_valid(), "targets": _matrix(2, 3, seed=4)},
        domains=_networks(targets=True),
        invalid={
            **_network_invalid(),
            "targets": [np.ones(2), np.ones((3, 3)), np.ones((2, 3, 1))],
        },
    ),
    f"{_V}.train_relu_networks": Spec(
        valid=lambda: {
            **_network_valid(init=True),
            "targets": _matrix(2, 3, seed=4),
            "learning_rate": 0.1,
            "steps": 10,
        },
        domains=_training(),
        invalid={
            **_network_invalid(init=True),
            "targets": [np.ones(2), np.ones((3, 3))],
            "learning_rate": [0.0, -1.0, np.ones(3), np.ones((2, 1))],
            "steps": [0, -1],
        },
        max_examples=_EXAMPLES,
    ),
    f"{_V}.correlated_units": Spec(
        valid=lambda: {"units": np.eye(3)[:2], "rho": 0.9, "rng": _rng()},
        domains=_correlated(),
        invalid={
            "units": [2 * np.eye(3)[:2], np.ones((2, 1)), np.ones(3)],
            "rho": [1.5, -1.01, np.ones(2)],
            "rng": _RNG_INVALID,
        },
    ),
    f"{_V}.teacher_outputs": Spec(
        valid=lambda: {
            "inputs": _matrix(3, 2),
            "units": np.eye(2),
            "magnitude": 3.0,
        },
        domains=_teacher(),
        invalid={
            "inputs": [np.ones(2), np.ones((3, 3))],
            "units": [np.ones(2), np.ones((2, 3))],
        },
        skip_probes={
            ("inputs", "extra-axis"): "a leading batch axis (1, n, d) broadcasts",
            ("units", "extra-axis"): "a leading batch axis (1, k, d) broadcasts",
        },
    ),
    f"{_V}.sample_efficiency": Spec(
        valid=lambda: {"setup": _TINY},
        domains=_experiments(),
        # A setup with a bad field cannot be built: the construction contract
        # of SampleEfficiencySetup (test_returned_objects.py) probes its fields.
        invalid={"setup": ["setup", SimpleNamespace(**asdict(_TINY))]},
        max_examples=_EXAMPLES,
    ),
}
