"""Contract entries of the ReLU feature-cluster experiment (ptft-diagonal-networks).

:mod:`implicit_bias.validation.relu_feature_clusters`: the unit points of a
network, weighted k-means, the alignment score and the teacher's merge
inertia, on small arrays with entries across the float64 range; the
experiment itself on a tiny setup (two seeds, a few steps), its scales and
learning rates drawn: finite results or a named error (ConvergenceError)
only.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import numpy as np
from hypothesis import strategies as st

from implicit_bias.validation import FeatureClusterSetup, sample_sphere
from tests.contract.harness import Exempt, Spec

_V = "implicit_bias.validation"

# The experiment trains networks: Hypothesis examples outside `thorough`.
_EXAMPLES = 4


def _rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def _powers(low: int, high: int) -> st.SearchStrategy[float]:
    """10^k for integer k in [low, high]: scales across the float64 range."""
    return st.integers(low, high).map(lambda k: 10.0**k)


_RNG = st.integers(0, 2**32).map(np.random.default_rng)
_RNG_INVALID = [0, 1.5, "rng", np.random.RandomState(0)]


def _scaled(draw: Any, rows: int, columns: int) -> np.ndarray:
    """A Gaussian (rows, columns) matrix times 10^k, k across the float64 range."""
    seed = draw(st.integers(0, 2**16))
    return draw(_powers(-300, 300)) * _rng(seed).standard_normal((rows, columns))


@st.composite
def _units(draw: Any) -> dict[str, Any]:
    width, dimension = draw(st.integers(1, 6)), draw(st.integers(1, 4))
    hidden = _scaled(draw, width, dimension)
    readout = _scaled(draw, 1, width)[0]
    # Some units may be dead (zero input weights), never all of them.
    dead = draw(st.lists(st.booleans(), min_size=width, max_size=width))
    if all(dead):
        dead[0] = False
    hidden[np.array(dead)] = 0.0
    return {"hidden_weights": hidden, "readout": readout}


@st.composite
def _kmeans(draw: Any) -> dict[str, Any]:
    points, dimension = draw(st.integers(1, 6)), draw(st.integers(1, 3))
    weights = np.abs(_scaled(draw, 1, points)[0])
    zero = draw(st.lists(st.booleans(), min_size=points, max_size=points))
    if all(zero):
        zero[0] = False
    weights[np.array(zero)] = 0.0
    return {
        "points": _scaled(draw, points, dimension),
        "weights": weights,
        "clusters": draw(st.integers(1, points + 2)),
        "rng": draw(_RNG),
        "restarts": draw(st.integers(1, 3)),
    }


@st.composite
def _alignments(draw: Any) -> dict[str, Any]:
    dimension = draw(st.integers(1, 4))
    return {
        "teacher_units": _scaled(draw, draw(st.integers(1, 5)), dimension),
        "centers": _scaled(draw, draw(st.integers(1, 5)), dimension),
    }


@st.composite
def _teachers(draw: Any) -> dict[str, Any]:
    count, dimension = draw(st.integers(2, 6)), draw(st.integers(1, 4))
    return {"teacher_units": sample_sphere(count, dimension, draw(_RNG))}


_TINY = FeatureClusterSetup(
    sample_sizes=(4, 8),
    seeds=2,
    dimension=3,
    teacher_units=2,
    width=4,
    steps=20,
    max_clusters=3,
    restarts=2,
    test_samples=20,
)


@st.composite
def _experiments(draw: Any) -> dict[str, Any]:
    setup = replace(
        _TINY,
        rich_scale=draw(_powers(-100, 0)),
        lazy_scale=draw(_powers(-3, 3)),
        rich_learning_rate=draw(_powers(-3, 300)),
        lazy_learning_rate=draw(_powers(-3, 300)),
        steps=draw(st.integers(1, 30)),
        seed=draw(st.integers(0, 2**32)),
    )
    return {
        "setup": setup,
        "regimes": draw(st.sampled_from([("rich",), ("lazy",), ("rich", "lazy")])),
        "sample_sizes": draw(st.sampled_from([None, (4,), (8,), (4, 8)])),
    }


SPECS: dict[str, Spec | Exempt] = {
    f"{_V}.FeatureClusterSetup": Exempt(
        "configuration record users build: test_returned_objects.py checks its "
        "construction (every field) and its fields"
    ),
    f"{_V}.FeatureClusters": Exempt("result record of feature_clusters"),
    f"{_V}.unit_points": Spec(
        valid=lambda: {
            "hidden_weights": np.array([[3.0, 4.0], [0.0, 2.0], [0.0, 0.0]]),
            "readout": np.array([1.0, -0.5, 2.0]),
        },
        domains=_units(),
        invalid={
            "hidden_weights": [np.ones(3), np.ones((2, 2))],
            "readout": [np.ones((3, 1)), np.ones(2), np.zeros(3)],
        },
    ),
    f"{_V}.weighted_kmeans": Spec(
        valid=lambda: {
            "points": np.array([[1.0, 0.0], [0.8, 0.6], [0.0, 1.0]]),
            "weights": np.array([0.5, 0.25, 0.25]),
            "clusters": 2,
            "rng": _rng(),
            "restarts": 3,
        },
        domains=_kmeans(),
        invalid={
            "points": [np.ones(3), np.ones((2, 2))],
            "weights": [[-0.5, 1.0, 1.0], np.zeros(3), np.ones(2), np.ones((3, 1))],
            "clusters": [0, -1],
            "restarts": [0, -2],
            "rng": _RNG_INVALID,
        },
    ),
    f"{_V}.alignment_score": Spec(
        valid=lambda: {
            "teacher_units": np.array([[1.0, 0.0], [0.0, 2.0]]),
            "centers": np.array([[3.0, 0.0], [1.0, 1.0], [0.0, 0.0]]),
        },
        domains=_alignments(),
        invalid={
            "teacher_units": [np.ones(2), np.ones((2, 3)), [[1.0, 0.0], [0.0, 0.0]]],
            "centers": [np.ones(2), np.ones((2, 3)), np.zeros((2, 2))],
        },
    ),
    f"{_V}.teacher_merge_inertia": Spec(
        valid=lambda: {"teacher_units": np.array([[1.0, 0.0], [0.0, 1.0], [-1, 0]])},
        domains=_teachers(),
        invalid={
            "teacher_units": [
                np.array([[1.0, 0.0]]),
                np.array([[2.0, 0.0], [0.0, 1.0]]),
                np.zeros((2, 2)),
                np.ones(2),
            ]
        },
    ),
    f"{_V}.feature_clusters": Spec(
        valid=lambda: {"setup": _TINY},
        domains=_experiments(),
        # A setup with a bad field cannot be built: the construction contract
        # of FeatureClusterSetup (test_returned_objects.py) probes its fields.
        invalid={
            "setup": ["setup", SimpleNamespace(**_TINY.__dict__)],
            "regimes": [(), ("medium",), ("rich", "medium"), "rich", None, [1]],
            "sample_sizes": [(), (16,), (4.0,), (4, 16), (True,), "4", 4],
        },
        max_examples=_EXAMPLES,
    ),
}
