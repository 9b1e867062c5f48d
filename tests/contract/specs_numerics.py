"""Contract entries of :mod:`implicit_bias.numerics`, by topic."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

from implicit_bias.numerics import absolute_deviation, squared_deviation
from tests.contract.harness import Exempt, Spec

_N = "implicit_bias.numerics"


def _floats(min_value: float, max_value: float) -> st.SearchStrategy[float]:
    return st.floats(min_value=min_value, max_value=max_value, allow_nan=False)


# The float64 range, as far as a formula's inputs go.
_REALS = _floats(-1e300, 1e300)
_POSITIVE = _floats(1e-300, 1e300)
_NONNEGATIVE = _floats(0.0, 1e300)
_COSINES = _floats(-1.0, 1.0)
_ANGLES = _floats(0.0, math.pi)
_GAMMAS = _POSITIVE.filter(lambda g: g != 1.0)
_FINETUNE_FORMS = st.sampled_from(["corrected", "printed"])


def _matrix(rows: int, columns: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((rows, columns))


def _vector(size: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(size)


@st.composite
def _scaled_designs(draw: Any, rows: int, columns: int) -> dict[str, Any]:
    """A fixed design and labels, each scaled by a drawn power of ten (1e-300..1e300).

    The Gram matrix of X overflows from ~1e155 and underflows below ~1e-160.
    """
    design = 10.0 ** draw(st.integers(-300, 300))
    labels = 10.0 ** draw(st.integers(-300, 300))
    return {"X": design * _matrix(rows, columns, 0), "y": labels * _vector(rows, 1)}


def _unit(size: int, seed: int) -> np.ndarray:
    vector = _vector(size, seed)
    return vector / np.linalg.norm(vector)


_RELU_UNIT = {"m": _REALS, "rho": _COSINES, "m0": _NONNEGATIVE, "gamma": _REALS}
_RELU_UNIT_VALID = {"m": 1.5, "rho": 0.5, "m0": 1.0, "gamma": 0.1}
_RELU_UNIT_INVALID = {"rho": [1.5, -1.01], "m0": [-1.0]}
_RELU_UNIT_MP = {
    "m": _floats(-1e6, 1e6),
    "rho": _COSINES,
    "m0": _floats(0.0, 1e6),
    "gamma": _floats(-1e6, 1e6),
}
_DPS_INVALID = {"dps": [0, -5, 10**9]}
#: The least-squares endpoints take a batch: X (K, n, d), y (K, n), source (K, d).
_BATCHED = "a batch of K problems is documented: (K, n, d), (K, n), (K, d)"
_BATCH_SKIPS = {
    ("X", "extra-axis"): _BATCHED,
    ("y", "extra-axis"): _BATCHED,
    ("source", "extra-axis"): _BATCHED,
}

SPECS: dict[str, Spec | Exempt] = {
    # ---------------------------------------------------------------- relu_penalty
    f"{_N}.relu_ptft_penalty": Spec(
        valid=lambda: dict(_RELU_UNIT_VALID),
        domains=_RELU_UNIT,
        invalid=_RELU_UNIT_INVALID,
    ),
    f"{_N}.relu_ptft_scale": Spec(
        valid=lambda: dict(_RELU_UNIT_VALID),
        domains=_RELU_UNIT,
        invalid=_RELU_UNIT_INVALID,
    ),
    f"{_N}.relu_ptft_log_slope": Spec(
        valid=lambda: dict(_RELU_UNIT_VALID),
        domains={**_RELU_UNIT, "m": _POSITIVE},
        invalid=_RELU_UNIT_INVALID,
    ),
    f"{_N}.relu_ptft_log_log_slope": Spec(
        valid=lambda: dict(_RELU_UNIT_VALID),
        domains={**_RELU_UNIT, "m": _POSITIVE},
        invalid=_RELU_UNIT_INVALID,
    ),
    f"{_N}.relu_ptft_stationary_count": Spec(
        valid=lambda: dict(_RELU_UNIT_VALID),
        domains=_RELU_UNIT,
        invalid=_RELU_UNIT_INVALID,
    ),
    f"{_N}.relu_ptft_deviation": Spec(
        valid=lambda: {"u": 0.7, **_RELU_UNIT_VALID},
        domains={"u": _POSITIVE, **_RELU_UNIT},
        invalid={**_RELU_UNIT_INVALID, "u": [0.0, -1.0]},
    ),
    f"{_N}.relu_ptft_penalty_mp": Spec(
        valid=lambda: {**_RELU_UNIT_VALID, "dps": 30},
        domains=_RELU_UNIT_MP,
        invalid={**_RELU_UNIT_INVALID, **_DPS_INVALID},
        max_examples=20,
    ),
    f"{_N}.relu_ptft_scale_mp": Spec(
        valid=lambda: {**_RELU_UNIT_VALID, "dps": 30},
        domains=_RELU_UNIT_MP,
        invalid={**_RELU_UNIT_INVALID, **_DPS_INVALID},
        max_examples=20,
    ),
    f"{_N}.relu_ptft_stationary_points_mp": Spec(
        valid=lambda: {**_RELU_UNIT_VALID, "dps": 30},
        domains=_RELU_UNIT_MP,
        invalid={**_RELU_UNIT_INVALID, **_DPS_INVALID},
        max_examples=20,
    ),
    # ---------------------------------------------------------------------- q_norm
    f"{_N}.q_potential": Spec(
        valid=lambda: {"z": 0.5},
        domains={"z": _REALS},
        infinite="``inf`` where q exceeds the float64 range",
    ),
    f"{_N}.q_derivative": Spec(valid=lambda: {"z": 0.5}, domains={"z": _REALS}),
    f"{_N}.q_potential_mp": Spec(
        valid=lambda: {"z": 0.5, "dps": 30},
        domains={"z": _REALS},
        invalid=_DPS_INVALID,
        max_examples=20,
    ),
    f"{_N}.q_norm": Spec(
        valid=lambda: {
            "beta": _vector(5, 0),
            "w1_init": np.full(5, 0.5),
            "w2_init": np.full(5, 0.3),
        },
        # w1_init = 0 alone is valid (k_d = w2^2 > 0): a zero pair is not.
        invalid={"w1_init": [np.ones(4)], "beta": [np.ones(4)]},
        skip_probes={
            (name, "extra-axis"): "leading axes of (..., D) are batch axes"
            for name in ("beta", "w1_init", "w2_init")
        },
    ),
    f"{_N}.min_q_norm_interpolant": Spec(
        valid=lambda: {
            "X": _matrix(3, 6, 0),
            "y": _vector(3, 1),
            "w1_init": np.full(6, 0.5),
            "w2_init": np.full(6, 0.3),
        },
        invalid={"tol": [-1.0, math.nan], "max_iter": [0, 2.5], "y": [np.ones(4)]},
    ),
    # ------------------------------------------------------------------- multitask
    "implicit_bias.numerics.L12Solution": Exempt(
        "result record of min_l12_interpolant"
    ),
    f"{_N}.l12_norm": Spec(
        valid=lambda: {"B": _matrix(5, 3, 0)},
        invalid={"B": [np.ones(3), np.ones((2, 0))]},
        skip_probes={("B", "extra-axis"): "leading axes of (..., O, D) are batches"},
    ),
    f"{_N}.min_l12_interpolant": Spec(
        valid=lambda: {"X": _matrix(3, 6, 0), "Y": _matrix(3, 2, 1)},
        invalid={"tol": [0.0, -1.0, 2.0], "Y": [np.ones((4, 2))]},
    ),
    # ------------------------------------------------------------- representations
    f"{_N}.cka": Spec(
        valid=lambda: {"X": _matrix(8, 3, 0), "Y": _matrix(8, 4, 1)},
        invalid={"Y": [np.ones((7, 4))]},
    ),
    f"{_N}.ensd": Spec(
        valid=lambda: {"X": _matrix(8, 3, 0), "Y": _matrix(8, 4, 1)},
        invalid={"Y": [np.ones((7, 4))]},
    ),
    f"{_N}.participation_ratio": Spec(
        valid=lambda: {"X": _matrix(8, 3, 0)}, invalid={"X": [np.zeros((8, 3))]}
    ),
    # -------------------------------------------------------------- transfer_risks
    f"{_N}.scratch_risk": Spec(
        valid=lambda: {"gamma": 0.5, "sigma": 0.3},
        domains={"gamma": _GAMMAS, "sigma": _floats(0.0, 1e150)},
        invalid={"gamma": [0.0, -1.0], "sigma": [-0.1]},
    ),
    f"{_N}.linear_transfer_risk": Spec(
        valid=lambda: {"n": 10.0, "theta": 0.5, "sigma": 0.3},
        domains={
            "n": _floats(2.0, 1e300).filter(lambda n: n > 2.0),
            "theta": _ANGLES,
            "sigma": _floats(0.0, 1e150),
        },
        invalid={"n": [2.0, 1.0], "theta": [-0.1, 4.0], "sigma": [-0.1]},
    ),
    f"{_N}.linear_transferability": Spec(
        valid=lambda: {"gamma": 0.5, "theta": 0.5, "sigma": 0.3},
        domains={"gamma": _GAMMAS, "theta": _ANGLES, "sigma": _floats(0.0, 1e150)},
        invalid={"gamma": [0.0], "theta": [-0.1, 4.0], "sigma": [-0.1]},
    ),
    f"{_N}.ridge_transfer_risk": Spec(
        valid=lambda: {"lam": 0.5, "theta": 0.5},
        domains={"lam": _NONNEGATIVE, "theta": _ANGLES},
        invalid={"lam": [-0.1], "theta": [-0.1, 4.0]},
    ),
    f"{_N}.finetune_risk": Spec(
        valid=lambda: {"gamma": 0.5, "theta": 0.5, "sigma": 0.3, "form": "corrected"},
        domains={
            "gamma": _GAMMAS,
            "theta": _ANGLES,
            "sigma": _floats(0.0, 1e150),
            "form": _FINETUNE_FORMS,
        },
        invalid={"gamma": [0.0], "theta": [-0.1, 4.0], "sigma": [-0.1]},
    ),
    f"{_N}.finetune_transferability": Spec(
        valid=lambda: {"gamma": 0.5, "theta": 0.5, "sigma": 0.3, "form": "corrected"},
        domains={
            "gamma": _POSITIVE,
            "theta": _ANGLES,
            "sigma": _floats(0.0, 1e150),
            "form": _FINETUNE_FORMS,
        },
        invalid={"gamma": [0.0], "theta": [-0.1, 4.0], "sigma": [-0.1]},
    ),
    f"{_N}.negative_transfer_gammas": Spec(
        valid=lambda: {"theta": 1.2, "sigma": 0.3},
        # The documented domain: |cos theta| < 1 - sigma (else it raises).
        domains=st.builds(
            lambda theta, fraction: {
                "theta": theta,
                "sigma": fraction * (1.0 - abs(math.cos(theta))),
            },
            _ANGLES.filter(lambda t: abs(math.cos(t)) < 1.0),
            _floats(0.0, 1.0).filter(lambda f: f < 1.0),
        )
        # A fraction just below 1 can round sigma onto the boundary, where
        # |cos theta| + sigma == 1 in floating point: outside the domain.
        .filter(lambda d: float(np.abs(np.cos(d["theta"]))) + d["sigma"] < 1.0),
        invalid={"theta": [-0.1, 4.0, 0.0], "sigma": [-0.1, 1.0]},
    ),
    f"{_N}.has_negative_transfer_region": Spec(
        valid=lambda: {"theta": 1.2, "sigma": 0.3},
        domains={"theta": _ANGLES, "sigma": _NONNEGATIVE},
        invalid={"theta": [-0.1, 4.0], "sigma": [-0.1]},
    ),
    f"{_N}.underparameterized_negative_transfer_gamma": Spec(
        valid=lambda: {"theta": 1.2, "sigma": 0.3},
        # The documented domain excludes sin(theta) = 0 (it raises there).
        domains={
            "theta": _ANGLES.filter(lambda t: math.sin(t) != 0.0),
            "sigma": _floats(0.0, 1e150),
        },
        invalid={"theta": [-0.1, 4.0, 0.0], "sigma": [-0.1]},
    ),
    # -------------------------------------------------------- transfer_asymptotics
    f"{_N}.chi_square_ridge_integrals": Spec(
        valid=lambda: {"n": 10, "lam": 0.5},
        domains={"n": st.integers(3, 10**6), "lam": _NONNEGATIVE},
        invalid={"n": [2, 0, 3.5], "lam": [-0.1]},
    ),
    f"{_N}.chi_square_ridge_integrals_mp": Spec(
        valid=lambda: {"n": 10, "lam": 0.5, "dps": 20},
        domains={"n": st.integers(3, 200), "lam": _floats(0.0, 1e6)},
        invalid={"n": [2, 0], "lam": [-0.1], **_DPS_INVALID},
        max_examples=10,
    ),
    f"{_N}.scratch_risk_finite": Spec(
        valid=lambda: {"n": 10, "d": 30, "sigma": 0.3},
        domains={
            "n": st.integers(1, 10**6),
            "d": st.integers(1, 10**6),
            "sigma": _floats(0.0, 1e150),
        },
        invalid={"sigma": [-0.1], "n": [0], "d": [1.5, [True]]},
        infinite="expectation is infinite and ``inf`` is returned",
    ),
    f"{_N}.ridge_transfer_risk_finite": Spec(
        valid=lambda: {"n": 10, "lam": 0.5, "theta": 0.5, "sigma": 0.3},
        domains={
            "n": st.integers(3, 10**6),
            "lam": _NONNEGATIVE,
            "theta": _ANGLES,
            "sigma": _floats(0.0, 1e150),
        },
        invalid={"n": [2], "lam": [-0.1], "theta": [4.0], "sigma": [-0.1]},
    ),
    f"{_N}.ridge_transfer_risk_finite_mp": Spec(
        valid=lambda: {"n": 10, "lam": 0.5, "theta": 0.5, "sigma": 0.3, "dps": 20},
        domains={"n": st.integers(3, 100), "lam": _floats(0.0, 1e6)},
        invalid={
            "n": [2],
            "lam": [-0.1],
            "theta": [4.0],
            "sigma": [-0.1],
            **_DPS_INVALID,
        },
        max_examples=10,
    ),
    f"{_N}.scratch_risk_samples": Spec(
        valid=lambda: {"n": 5, "d": 8, "sigma": 0.3, "draws": 4, "seed": 0},
        domains={"sigma": _floats(0.0, 1e150), "seed": st.integers(0, 2**32)},
        invalid={"sigma": [-0.1], "draws": [0], "seed": [-1], "n": [0]},
        max_examples=20,
    ),
    f"{_N}.ridge_transfer_risk_samples": Spec(
        valid=lambda: {
            "n": 5,
            "d": 8,
            "lam": 0.5,
            "theta": 0.5,
            "sigma": 0.3,
            "draws": 4,
            "seed": 0,
        },
        domains={"lam": _NONNEGATIVE, "sigma": _floats(0.0, 1e150)},
        invalid={"lam": [-0.1], "theta": [4.0], "draws": [0], "seed": [-1]},
        max_examples=20,
    ),
    # ---------------------------------------------------------- transfer_endpoints
    f"{_N}.min_norm_solution": Spec(
        valid=lambda: {"X": _matrix(4, 7, 0), "y": _vector(4, 1)},
        domains=_scaled_designs(4, 7),
        skip_probes={k: v for k, v in _BATCH_SKIPS.items() if k[0] != "source"},
        invalid={"y": [np.ones(5)]},
    ),
    f"{_N}.linear_transfer_coefficient": Spec(
        valid=lambda: {
            "X": _matrix(4, 7, 0),
            "y": _vector(4, 1),
            "source": _unit(7, 2),
        },
        domains=_scaled_designs(4, 7),
        skip_probes=_BATCH_SKIPS,
        invalid={"source": [np.ones(6), np.zeros(7)]},
    ),
    f"{_N}.finetune_endpoint": Spec(
        valid=lambda: {
            "X": _matrix(4, 7, 0),
            "y": _vector(4, 1),
            "source": _unit(7, 2),
        },
        domains=_scaled_designs(4, 7),
        skip_probes=_BATCH_SKIPS,
        invalid={"source": [np.ones(6)], "depth": [1, 0]},
    ),
    f"{_N}.finetune_endpoint_as_printed": Spec(
        valid=lambda: {
            "X": _matrix(4, 7, 0),
            "y": _vector(4, 1),
            "source": _unit(7, 2),
        },
        domains=_scaled_designs(4, 7),
        skip_probes=_BATCH_SKIPS,
        invalid={"source": [np.ones(6)]},
    ),
    f"{_N}.rank_one_deviation": Spec(
        valid=lambda: {"matrices": _matrix(3, 4, 0)[None]},
        invalid={"matrices": [np.zeros((1, 2, 2)), _matrix(3, 4, 0)]},
    ),
    # ---------------------------------------------------------------- relu_kernels
    f"{_N}.KERNEL_ULPS": Exempt("a constant: the ulp bound of relu_kernel"),
    f"{_N}.RkhsProjection": Exempt("result record of relu_rkhs_projection"),
    f"{_N}.relu_kernel": Spec(
        valid=lambda: {"u": 0.3}, domains={"u": _COSINES}, invalid={"u": [1.5, -1.1]}
    ),
    f"{_N}.relu_kernel_and_derivative": Spec(
        valid=lambda: {"u": 0.3}, domains={"u": _COSINES}, invalid={"u": [1.5, -1.1]}
    ),
    f"{_N}.relu_kernel_mp": Spec(
        valid=lambda: {"u": 0.3, "dps": 30},
        domains={"u": _COSINES},
        invalid={"u": [1.5], **_DPS_INVALID},
        max_examples=20,
    ),
    f"{_N}.relu_gram": Spec(
        valid=lambda: {"weights": _matrix(4, 3, 0)},
        invalid={"other_weights": [np.ones((4, 2))]},
    ),
    f"{_N}.relu_rkhs_projection": Spec(
        valid=lambda: {
            "hidden_weights": _matrix(5, 3, 0),
            "target_hidden_weights": _matrix(2, 3, 1),
            "target_readout": _vector(2, 2),
        },
        invalid={"target_readout": [np.ones(3)]},
    ),
    # ------------------------------------------------------------ tangent_features
    f"{_N}.Penalty": Exempt(
        "class users build from their own callables: test_returned_objects.py "
        "checks its construction (every field), its fields and its methods "
        "(__call__, function, mp, tilde); the penalties exported are called below"
    ),
    f"{_N}.squared_deviation": Spec(
        valid=lambda: {"z": 2.0},
        domains={"z": _REALS},
        infinite="beyond the float64 range it returns inf",
    ),
    f"{_N}.absolute_deviation": Spec(
        valid=lambda: {"z": 2.0},
        domains={"z": _REALS},
        infinite="beyond the float64 range it returns inf",
    ),
    f"{_N}.power_deviation": Spec(
        valid=lambda: {"p": 1.5},
        domains={"p": _POSITIVE},
        invalid={"p": [0.0, -1.0]},
    ),
    f"{_N}.join_penalty": Spec(
        valid=lambda: {"omega1": squared_deviation, "omega2": absolute_deviation},
        invalid={"omega1": [None, 1.0]},
    ),
    f"{_N}.omega_tilde": Spec(
        valid=lambda: {"omega": squared_deviation, "v": 2.0},
        domains={"v": _floats(-1e150, 1e150)},
        invalid={"omega": [None, 1.0]},
    ),
    f"{_N}.omega_join": Spec(
        valid=lambda: {
            "omega1": squared_deviation,
            "omega2": absolute_deviation,
            "v": 2.0,
        },
        domains={"v": _floats(1.0, 1e150)},
        invalid={"v": [0.5], "omega1": [None]},
    ),
    f"{_N}.omega_tilde_mp": Spec(
        valid=lambda: {"omega": squared_deviation.mp, "v": 2.0, "dps": 30},
        domains={"v": _floats(-1e6, 1e6)},
        invalid=_DPS_INVALID,
        max_examples=10,
    ),
    f"{_N}.omega_join_mp": Spec(
        valid=lambda: {
            "omega1": squared_deviation.mp,
            "omega2": absolute_deviation.mp,
            "v": 2.0,
            "dps": 30,
        },
        domains={"v": _floats(1.0, 1e6)},
        invalid={"v": [0.5], **_DPS_INVALID},
        max_examples=10,
    ),
}
