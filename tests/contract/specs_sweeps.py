"""Contract entries of implicit_bias.validation.sweeps (resumable simulation sweeps).

Kept cheap: :func:`run_sweep` computes one or two configurations of the
closed-form ReLU penalty (eq. (11) of ptft-relu-penalty) with one worker,
each call in a fresh store; :func:`load_results` reads one small store
built once; :func:`transferability_point` trains on d <= 4 with 2 draws.
"""

from __future__ import annotations

import atexit
import math
import tempfile
from pathlib import Path

from hypothesis import strategies as st

from tests.contract.harness import Exempt, Spec

_S = "implicit_bias.validation.sweeps"
_RELU_PENALTY = "implicit_bias.numerics.relu_penalty.relu_ptft_penalty"

_DIRECTORY = tempfile.TemporaryDirectory(prefix="contract-sweeps-")
atexit.register(_DIRECTORY.cleanup)
_COUNTER = [0]


def _fresh_store() -> str:
    _COUNTER[0] += 1
    return str(Path(_DIRECTORY.name) / f"run-{_COUNTER[0]}.sqlite")


def _built_store() -> str:
    """A store holding two results of the ReLU penalty, built on first use."""
    path = Path(_DIRECTORY.name) / "built.sqlite"
    if not path.exists():
        from implicit_bias.validation.sweeps import run_sweep

        run_sweep(
            _RELU_PENALTY,
            [
                {"m": 1.0, "rho": 0.5, "m0": 1.0, "gamma": 0.5},
                {"m": 2.0, "rho": 0.0, "m0": 1.0, "gamma": 0.5},
            ],
            store=path,
            workers=1,
            progress=False,
        )
    return str(path)


def _floats(min_value: float, max_value: float) -> st.SearchStrategy[float]:
    return st.floats(min_value=min_value, max_value=max_value, allow_nan=False)


# In-domain penalty configurations: eq. (11) takes m, m0 real, rho a cosine
# in [-1, 1] and gamma >= 0.
_PENALTY_CONFIGURATIONS = st.lists(
    st.fixed_dictionaries(
        {
            "m": _floats(-10.0, 10.0),
            "rho": _floats(-1.0, 1.0),
            "m0": _floats(0.1, 10.0),
            "gamma": _floats(0.0, 10.0),
        }
    ),
    min_size=1,
    max_size=2,
)

_JSON_VALUES = st.one_of(
    st.integers(-(10**6), 10**6),
    _floats(-1e300, 1e300),
    st.text(max_size=5),
    st.booleans(),
    st.none(),
)

_ANY_STRING = "any string is a version label (part of the key)"

SPECS: dict[str, Spec | Exempt] = {
    f"{_S}.BUILTIN_SWEEPS": Exempt("constant: the sweeps runnable by name"),
    f"{_S}.EXECUTORS": Exempt("constant: the executor names run_sweep accepts"),
    f"{_S}.Sweep": Exempt("record of a named sweep (function, grid, version)"),
    f"{_S}.SweepError": Exempt("exception class raised by run_sweep"),
    f"{_S}.SweepInterrupted": Exempt("exception class raised by run_sweep"),
    f"{_S}.SweepSummary": Exempt("result record of run_sweep"),
    # **axes: the contract calls it with one axis named "axes".
    f"{_S}.configuration_grid": Spec(
        valid=lambda: {"axes": [10, 20]},
        domains={"axes": st.lists(_JSON_VALUES, min_size=1, max_size=4)},
        invalid={"axes": [[math.nan], [1j], [object()], {"a": 1}, 3]},
        skip_probes={
            ("axes", "non-integer-entry"): "an axis holds any JSON values",
            ("axes", "ragged"): "an axis holds any JSON values, lists among them",
        },
    ),
    f"{_S}.configuration_key": Spec(
        valid=lambda: {
            "function": _RELU_PENALTY,
            "configuration": {"m": 1.0, "rho": 0.5, "m0": 1.0, "gamma": 0.0},
            "version": "1",
        },
        domains={
            "configuration": st.dictionaries(st.text(max_size=4), _JSON_VALUES),
            "version": st.text(max_size=8),
        },
        invalid={
            "function": [
                "no_such_module.f",
                "implicit_bias.validation.sweeps.EXECUTORS",
            ],
            "configuration": [None, [1.0], {"m": math.nan}, {1: 2.0}, {"m": 1j}],
        },
        skip_probes={("version", "unknown-option"): _ANY_STRING},
    ),
    f"{_S}.load_results": Spec(
        valid=lambda: {
            "store": _built_store(),
            "function": _RELU_PENALTY,
            "version": "1",
        },
        domains={
            "function": st.sampled_from([None, _RELU_PENALTY, "a.b"]),
            "version": st.one_of(st.none(), st.text(max_size=4)),
        },
        invalid={"store": ["", Path(_DIRECTORY.name)], "function": [3, object()]},
        skip_probes={
            ("function", "unknown-option"): (
                "results of a function that is no longer importable are read by "
                "its dotted name"
            ),
            ("version", "unknown-option"): _ANY_STRING,
        },
    ),
    f"{_S}.run_sweep": Spec(
        valid=lambda: {
            "function": _RELU_PENALTY,
            "configurations": [{"m": 1.0, "rho": 0.5, "m0": 1.0, "gamma": 0.5}],
            "store": _fresh_store(),
            "version": "1",
            "workers": 1,
            "executor": "process",
            "progress": False,
            "blas_threads": 1,
        },
        domains={"configurations": _PENALTY_CONFIGURATIONS},
        invalid={
            "configurations": [None, 5, "m", {"m": 1.0}, [[1.0]], [{"m": math.nan}]],
            "store": ["", Path(_DIRECTORY.name), Path(_DIRECTORY.name) / "no/x.db"],
            "workers": [0, -1],
            "blas_threads": [0],
            "progress": ["yes", 2],
        },
        skip_probes={
            ("store", "unknown-option"): "any new file name is a new store",
            ("version", "unknown-option"): _ANY_STRING,
        },
        max_examples=3,
        budget_seconds=30.0,
    ),
    f"{_S}.transferability_point": Spec(
        valid=lambda: {
            "theta": math.pi / 4,
            "gamma": 1.5,
            "dimension": 4,
            "draws": 2,
            "sigma": 0.2,
            "seed": 1,
        },
        domains={
            "theta": _floats(0.0, math.pi),
            # n = round(gamma d) >= 3 at d = 4; away from the pole at gamma = 1.
            "gamma": st.one_of(_floats(0.75, 0.95), _floats(1.05, 3.0)),
            "sigma": _floats(0.0, 10.0),
            "seed": st.integers(0, 2**32),
        },
        invalid={
            "theta": [-0.1, 3.2],
            # Above 1e3 (round(gamma d) overflowed at 1.8e308).
            "gamma": [0.0, -1.0, 0.5, 1001.0, 1e300],
            "dimension": [1, 0],
            "draws": [1],
            "sigma": [-0.1],
            "seed": [-1],
        },
        max_examples=3,
    ),
}
