"""Contract entries of validation.transfer_experiments (features-are-fate).

Monte-Carlo checks with tiny configurations (d <= 6, n <= 8, a few draws);
the noise level spans the float64 range, where the risks (which grow like
sigma^2) must come back finite or raise OutOfRangeError.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

from tests.contract.harness import Exempt, Spec

_V = "implicit_bias.validation"


def _floats(min_value: float, max_value: float) -> st.SearchStrategy[float]:
    return st.floats(min_value=min_value, max_value=max_value, allow_nan=False)


_ANGLES = _floats(0.0, math.pi)
_SIGMAS = _floats(0.0, 1e300)
_SEEDS = st.integers(0, 2**63)

_GRID_INVALID: dict[str, list[Any]] = {
    "thetas": [[-0.1], [3.2], [], [[0.5]], None, "0.5"],
    # Above 1e3 (n = round(gamma d) overflowed at 1.8e308).
    "gammas": [[0.5], [0.0], [-1.0], [], None, [1001.0], [1.0, 1e308]],
    "dimension": [1, 0],
    "draws": [1],
    "sigma": [-0.1],
    "seed": [-1],
}


@st.composite
def _grid(draw: Any) -> dict[str, Any]:
    """A grid with n = round(gamma d) >= 3 at every gamma."""
    dimension = draw(st.integers(2, 5))
    lowest = 2.6 / dimension
    return {
        "thetas": draw(st.lists(_ANGLES, min_size=1, max_size=2)),
        "gammas": draw(st.lists(_floats(lowest, lowest + 2.0), min_size=1, max_size=2)),
        "dimension": dimension,
        "draws": draw(st.integers(2, 3)),
        "sigma": draw(_SIGMAS),
        "seed": draw(_SEEDS),
    }


@st.composite
def _endpoint_errors(draw: Any) -> dict[str, Any]:
    dimension = draw(st.integers(3, 5))
    first = draw(st.integers(-6, -1))
    second = draw(st.integers(first - 3, first - 1))
    return {
        "depth": draw(st.integers(2, 3)),
        "alphas": (10.0**first, 10.0**second),
        "dimension": dimension,
        "samples": draw(st.integers(3, dimension)),
        "draws": 2,
        "theta": draw(_ANGLES),
        "sigma": draw(st.one_of(_floats(0.0, 10.0), _SIGMAS)),
        "seed": draw(_SEEDS),
    }


_SAMPLES = st.lists(_floats(-1e308, 1e308), min_size=2, max_size=12).map(np.array)

SPECS: dict[str, Spec | Exempt] = {
    f"{_V}.ENDPOINT_PREDICTED_ORDERS": Exempt(
        "constant: the predicted order in alpha of each endpoint error"
    ),
    f"{_V}.EndpointErrors": Exempt(
        "record endpoint_errors returns, which users may also build: "
        "test_returned_objects.py checks its construction (every field), its "
        "fields and orders()"
    ),
    f"{_V}.EndpointRisks": Exempt("result record of endpoint_risks"),
    f"{_V}.MeanComparison": Exempt(
        "record compare_mean returns, which users may also build: "
        "test_returned_objects.py checks its construction (every field), its "
        "fields and deviation, agrees and describe()"
    ),
    f"{_V}.TransferabilitySlices": Exempt("result record of transferability_slices"),
    f"{_V}.TransferabilitySurface": Exempt("result record of transferability_surface"),
    f"{_V}.endpoint_risks": Spec(
        valid=lambda: {
            "samples": 4,
            "dimension": 3,
            "theta": 0.3,
            "sigma": 0.1,
            "draws": 3,
            "seed": 0,
            "ridges": (0.0, 0.5),
        },
        domains={
            "samples": st.integers(3, 8),
            "dimension": st.integers(2, 6),
            "theta": _ANGLES,
            "sigma": _SIGMAS,
            "draws": st.integers(2, 5),
            "seed": _SEEDS,
            "ridges": st.lists(_floats(0.0, 1e300), max_size=3),
        },
        invalid={
            "samples": [2, 0],
            "dimension": [1],
            "theta": [-0.1, 3.2],
            "sigma": [-0.1],
            "draws": [1],
            "seed": [-1],
            "ridges": [(-1.0,), "0.5", None],
        },
        skip_probes={("ridges", "empty"): "ridges=() is the default: no ridge risks"},
        max_examples=20,
    ),
    f"{_V}.compare_mean": Spec(
        valid=lambda: {
            "sample": np.array([1.0, 2.0, 4.0]),
            "predicted": 2.0,
            "z": 4.0,
            "bias_bound": 0.0,
        },
        domains={
            "sample": _SAMPLES,
            "predicted": _floats(-1e308, 1e308),
            "z": _floats(1e-300, 1e308),
            "bias_bound": _floats(0.0, 1e308),
        },
        invalid={
            "sample": [np.array([1.0]), [[1.0]]],
            "z": [0.0, -1.0],
            "bias_bound": [-1.0],
        },
        skip_probes={("sample", "extra-axis"): "the sample is flattened"},
    ),
    f"{_V}.transferability_slices": Spec(
        valid=lambda: {
            "thetas": [0.5],
            "gammas": [1.0],
            "dimension": 3,
            "draws": 2,
            "sigma": 0.2,
            "init_scale": 1e-3,
            "seed": 0,
        },
        domains=_grid().flatmap(
            lambda grid: st.fixed_dictionaries(
                {"init_scale": st.integers(-300, 60).map(lambda k: 10.0**k)}
            ).map(lambda scale: grid | scale)
        ),
        # Above 1e60: the losses grow like init_scale^4 (1e300 * W overflowed).
        invalid={**_GRID_INVALID, "init_scale": [0.0, -1e-3, 1.01e60, 1e300]},
        max_examples=5,
    ),
    f"{_V}.transferability_surface": Spec(
        valid=lambda: {
            "thetas": [0.5, 1.0],
            "gammas": [1.0, 2.0],
            "dimension": 3,
            "draws": 2,
            "sigma": 0.2,
            "seed": 0,
        },
        domains=_grid(),
        invalid=_GRID_INVALID,
        max_examples=20,
    ),
    f"{_V}.endpoint_errors": Spec(
        valid=lambda: {
            "depth": 2,
            "alphas": (0.1, 0.01),
            "dimension": 4,
            "samples": 3,
            "draws": 2,
            "theta": 0.8,
            "sigma": 0.3,
            "seed": 0,
        },
        domains=_endpoint_errors(),
        invalid={
            "depth": [1],
            "alphas": [(0.01, 0.1), (0.1, 0.1), (0.1, -0.01), (), None],
            "dimension": [1],
            "samples": [2, 5],
            "draws": [1],
            "theta": [-0.1, 3.2],
            "sigma": [-0.1],
            "seed": [-1],
        },
        max_examples=5,
    ),
}
