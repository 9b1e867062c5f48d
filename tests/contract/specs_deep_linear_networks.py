"""Contract entries of validation.deep_linear_networks (features-are-fate).

The trainers run on tiny networks (d <= 3, n <= 3, L <= 3, K <= 2) with at
most 200 steps per draw, so each call costs milliseconds; the drawn scales of
the data, the weights and the learning rate span the float64 range, where a
trainer must end in a finite result or a named error (OutOfRangeError,
ConvergenceError), never NaN, a raw NumPy error or a hang.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

from implicit_bias.validation import balanced_initialization
from tests.contract.harness import Exempt, Spec

_V = "implicit_bias.validation"

# A trainer's draw runs at most this many steps (a few ms for these sizes).
_STEPS = 200
_EXAMPLES = 8


def _layers(widths: list[int], count: int, scale: float, seed: int) -> list[Any]:
    return [scale * W for W in balanced_initialization(widths, count=count, seed=seed)]


def _matrix(rows: int, columns: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((rows, columns))


def _powers(low: int, high: int) -> st.SearchStrategy[float]:
    """10^k for integer k in [low, high]: scales across the float64 range."""
    return st.integers(low, high).map(lambda k: 10.0**k)


# Out-of-domain values of a sequence of layers (W_1, ..., W_L), each (K, a, b).
_BAD_LAYERS = [
    [],
    [np.ones((1, 3, 1))],
    [np.ones((1, 3, 2)), np.ones((1, 3, 1))],
    [np.ones((1, 3, 2)), np.ones((1, 2, 2))],
    [np.full((1, 3, 2), np.nan), np.ones((1, 2, 1))],
    [np.ones((1, 3, 2)) + 1j, np.ones((1, 2, 1))],
    [np.ones((0, 3, 2)), np.ones((0, 2, 1))],
    [np.ones((3, 2)), np.ones((2, 1))],
    "layers",
    1.0,
]

_STOPPING_INVALID: dict[str, list[Any]] = {
    "tol": [-1.0, [1e-3]],
    "max_steps": [0, -1],
    "strict": [1, "yes", None],
}
_RULE_INVALID: dict[str, list[Any]] = {
    **_STOPPING_INVALID,
    "learning_rate": [0.0, -1.0, math.inf],
    "integrator": ["rk4", None],
}


@st.composite
def _network(draw: Any, count: int | None = None) -> list[Any]:
    """Balanced layers of depth 2-3 on d = 3 inputs, at a scale 1e-150..1e150."""
    depth = draw(st.integers(2, 3))
    widths = [3] + [draw(st.integers(1, 3))] * (depth - 1)
    widths = sorted(widths, reverse=True)
    networks = count if count is not None else draw(st.integers(1, 2))
    return _layers(
        widths, networks, draw(_powers(-150, 150)), draw(st.integers(0, 2**32))
    )


_RULES: dict[str, st.SearchStrategy[Any]] = {
    "learning_rate": st.one_of(st.none(), _powers(-300, 300)),
    "integrator": st.sampled_from(["midpoint", "gd"]),
    "tol": st.one_of(st.just(0.0), _powers(-300, 300)),
    "max_steps": st.integers(1, _STEPS),
    "strict": st.booleans(),
}


@st.composite
def _pretraining(draw: Any) -> dict[str, Any]:
    source = draw(_powers(-150, 150)) * _matrix(1, 3, draw(st.integers(0, 99)))[0]
    return {
        "init": draw(_network()),
        "source": source,
        **{name: draw(rule) for name, rule in _RULES.items()},
    }


@st.composite
def _target_training(draw: Any, name: str) -> dict[str, Any]:
    samples = draw(st.integers(1, 3))
    seed = draw(st.integers(0, 99))
    return {
        name: draw(_network()),
        "X": draw(_powers(-150, 150)) * _matrix(samples, 3, seed),
        "y": draw(_powers(-150, 150)) * _matrix(1, samples, seed + 1)[0],
        "preconditioned": draw(st.booleans()),
        **{key: draw(rule) for key, rule in _RULES.items()},
    }


@st.composite
def _readout(draw: Any) -> dict[str, Any]:
    samples = draw(st.integers(1, 3))
    seed = draw(st.integers(0, 99))
    return {
        "pretrained": draw(_network()),
        "X": draw(_powers(-150, 150)) * _matrix(samples, 3, seed),
        "y": draw(_powers(-150, 150)) * _matrix(1, samples, seed + 1)[0],
        "tol": draw(st.one_of(st.just(0.0), _powers(-300, 300))),
        "max_steps": draw(st.integers(1, _STEPS)),
    }


@st.composite
def _experiment(draw: Any) -> dict[str, Any]:
    samples = draw(st.integers(1, 3))
    seed = draw(st.integers(0, 99))
    return {
        "init": draw(_network()),
        "source": draw(_powers(-150, 150)) * _matrix(1, 3, seed)[0],
        "X": draw(_powers(-150, 150)) * _matrix(samples, 3, seed + 1),
        "y": draw(_powers(-150, 150)) * _matrix(1, samples, seed + 2)[0],
        "tol": draw(st.one_of(st.just(0.0), _powers(-300, 300))),
        "max_steps": draw(st.integers(1, _STEPS)),
    }


@st.composite
def _any_layers(draw: Any) -> dict[str, Any]:
    """Layers whose scales differ per layer, so partial products may overflow."""
    depth = draw(st.integers(2, 4))
    layers = balanced_initialization(
        [3] * depth, count=draw(st.integers(1, 2)), seed=draw(st.integers(0, 99))
    )
    return {"weights": [draw(_powers(-200, 200)) * W for W in layers]}


@st.composite
def _widths(draw: Any) -> list[int]:
    widths = draw(st.lists(st.integers(1, 5), min_size=2, max_size=4))
    return sorted(widths, reverse=True)


def _target_valid(name: str) -> dict[str, Any]:
    return {
        name: _layers([3, 3], 1, 0.1, 0),
        "X": _matrix(2, 3, 1),
        "y": _matrix(1, 2, 2)[0],
        "learning_rate": 0.05,
        "integrator": "gd",
        "tol": 1e-6,
        "max_steps": 5000,
    }


_DATA_SKIPS = {
    ("X", "extra-axis"): "X of shape (1, n, d) is one draw of (K, n, d)",
    ("y", "extra-axis"): "y of shape (1, n) is one draw of (K, n)",
}
_DATA_INVALID: dict[str, list[Any]] = {
    "X": [np.ones((2, 4)), np.ones((2, 2, 2, 3))],
    "y": [np.ones(3), np.ones((2, 2, 2))],
}

SPECS: dict[str, Spec | Exempt] = {
    f"{_V}.DeepLinearResult": Exempt("result record of the deep-linear trainers"),
    f"{_V}.TransferResult": Exempt("result record of transfer_experiment"),
    f"{_V}.Integrator": Exempt("a typing alias, Literal['midpoint', 'gd']"),
    f"{_V}.balanced_initialization": Spec(
        valid=lambda: {"widths": [3, 2], "count": 2, "seed": 0},
        domains={
            "widths": _widths(),
            "count": st.integers(1, 3),
            "seed": st.integers(0, 2**63),
        },
        invalid={
            "widths": [[3, 4], [3], [3, 0], [3, True], "32", None, 3],
            "count": [0, -1],
            "seed": [-1],
        },
    ),
    f"{_V}.end_to_end": Spec(
        valid=lambda: {"weights": _layers([3, 2], 2, 1.0, 0)},
        domains=_any_layers(),
        invalid={"weights": _BAD_LAYERS},
    ),
    f"{_V}.balancedness_margin": Spec(
        valid=lambda: {"weights": _layers([3, 2], 2, 1.0, 0)},
        domains=_any_layers(),
        invalid={"weights": _BAD_LAYERS},
    ),
    f"{_V}.pretrain": Spec(
        valid=lambda: {
            "init": _layers([3, 3], 1, 0.1, 0),
            "source": np.array([0.6, 0.0, 0.8]),
            "learning_rate": 0.05,
            "integrator": "gd",
            "tol": 1e-6,
            "max_steps": 5000,
        },
        domains=_pretraining(),
        invalid={
            "init": _BAD_LAYERS,
            "source": [np.ones(2), np.ones((3, 3))],
            **_RULE_INVALID,
        },
        skip_probes={
            ("source", "extra-axis"): "source of shape (1, d) is one per network"
        },
        max_examples=_EXAMPLES,
    ),
    f"{_V}.finetune": Spec(
        valid=lambda: _target_valid("pretrained"),
        domains=_target_training("pretrained"),
        invalid={
            "pretrained": _BAD_LAYERS,
            **_DATA_INVALID,
            **_RULE_INVALID,
            "preconditioned": [1, "yes", None],
        },
        skip_probes=_DATA_SKIPS,
        max_examples=_EXAMPLES,
    ),
    f"{_V}.train_from_scratch": Spec(
        valid=lambda: _target_valid("init"),
        domains=_target_training("init"),
        invalid={
            "init": _BAD_LAYERS,
            **_DATA_INVALID,
            **_RULE_INVALID,
            "preconditioned": [1, "yes", None],
        },
        skip_probes=_DATA_SKIPS,
        max_examples=_EXAMPLES,
    ),
    f"{_V}.linear_transfer": Spec(
        valid=lambda: {
            "pretrained": _layers([3, 3], 1, 0.1, 0),
            "X": _matrix(2, 3, 1),
            "y": _matrix(1, 2, 2)[0],
            "tol": 1e-6,
            "max_steps": 100,
        },
        domains=_readout(),
        invalid={
            "pretrained": _BAD_LAYERS,
            **_DATA_INVALID,
            "tol": [-1.0],
            "max_steps": [0],
        },
        skip_probes=_DATA_SKIPS,
        max_examples=_EXAMPLES,
    ),
    f"{_V}.transfer_experiment": Spec(
        valid=lambda: {
            "init": _layers([3, 3], 1, 1e-2, 0),
            "source": np.array([0.6, 0.0, 0.8]),
            "X": _matrix(2, 3, 1),
            "y": _matrix(1, 2, 2)[0],
            "tol": 1e-8,
            "max_steps": 5000,
        },
        domains=_experiment(),
        invalid={
            "init": _BAD_LAYERS,
            "source": [np.ones(2), np.ones((1, 3))],
            **_DATA_INVALID,
            "tol": [-1.0],
            "max_steps": [0],
        },
        skip_probes=_DATA_SKIPS,
        max_examples=_EXAMPLES,
    ),
}
