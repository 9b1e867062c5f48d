r"""Monte-Carlo experiments against the risk formulas of features-are-fate.

Each comparison accepts a mean within 4 standard errors of an exact finite-size
prediction (:mod:`implicit_bias.numerics.transfer_asymptotics` and eq. (12),
which is exact at finite n), so a correct formula fails with probability about
6e-5; the draws are seeded, so the tests are deterministic.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable

import numpy as np
import pytest

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.transfer_asymptotics import (
    ridge_transfer_risk_finite,
    scratch_risk_finite,
)
from implicit_bias.numerics.transfer_risks import linear_transfer_risk
from implicit_bias.validation.transfer_experiments import (
    EndpointErrors,
    MeanComparison,
    TransferabilitySlices,
    compare_mean,
    endpoint_errors,
    endpoint_risks,
    transferability_slices,
    transferability_surface,
)


@pytest.mark.parametrize(
    ("samples", "dimension", "theta", "sigma"),
    [(20, 40, 0.3, 0.5), (60, 40, 1.2, 0.2), (8, 30, np.pi / 2, 0.0)],
)
def test_endpoint_risks_match_the_exact_finite_size_forms(
    samples: int, dimension: int, theta: float, sigma: float
) -> None:
    risks = endpoint_risks(
        samples, dimension, theta, sigma, draws=400, seed=9, ridges=(0.0, 0.3)
    )
    assert compare_mean(
        risks.scratch, float(scratch_risk_finite(samples, dimension, sigma))
    ).agrees
    assert compare_mean(
        risks.linear, float(linear_transfer_risk(samples, theta, sigma))
    ).agrees
    # lambda = 0 is linear transfer itself.
    np.testing.assert_allclose(risks.ridge[0], risks.linear, rtol=1e-12)
    assert compare_mean(
        risks.ridge[1],
        float(ridge_transfer_risk_finite(samples, 0.3, theta, sigma)),
    ).agrees


def test_printed_finetune_endpoint_risk_is_exact_at_finite_size() -> None:
    # E||(I-P)(beta_t - beta_s)||^2 = (1 - n/d)(2 - 2 cos theta) exactly.
    samples, dimension, theta = 15, 40, 1.0
    risks = endpoint_risks(samples, dimension, theta, 0.5, draws=400, seed=2)
    excess = risks.finetune_printed - risks.scratch
    gamma = samples / dimension
    assert compare_mean(excess, (1 - gamma) * (1 - 2 * np.cos(theta))).agrees


def test_a_wrong_formula_is_rejected() -> None:
    risks = endpoint_risks(12, 30, 0.5, 0.2, draws=2000, seed=1)
    right = float(linear_transfer_risk(12, 0.5, 0.2))
    # Dropping the finite-n term (the n -> infinity limit) is 0.025 off here,
    # far outside 4 SE (about 0.003).
    assert compare_mean(risks.linear, right).agrees
    assert not compare_mean(risks.linear, np.sin(0.5) ** 2).agrees


def test_transferability_slices_shapes_and_overparameterized_zero() -> None:
    slices = transferability_slices(
        (np.pi / 4,), (0.5, 1.5), dimension=20, draws=3, seed=1
    )
    assert slices.scratch.shape == (1, 2, 3)
    # Above gamma = 1 fine-tuning and scratch reach the same least-squares fit.
    np.testing.assert_allclose(slices.finetune_transferability[0, 1], 0.0, atol=1e-6)
    # Any multiple of beta_s is at least sin^2 theta from beta_t; the trained
    # feature is O(alpha) = 1e-5 off beta_s, which moves that floor by O(alpha).
    assert np.all(slices.linear >= np.sin(np.pi / 4) ** 2 - 10 * slices.init_scale)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: endpoint_risks(2, 10, 0.1, 0.1, draws=5), "samples"),
        (lambda: endpoint_risks(5, 1, 0.1, 0.1, draws=5), "dimension"),
        (lambda: endpoint_risks(5, 10, 0.1, 0.1, draws=1), "draws"),
        (lambda: endpoint_risks(5, 10, 0.1, 0.1, draws=3, ridges=(-1.0,)), "lambda"),
        (lambda: compare_mean(np.array([1.0]), 0.0), "sample"),
        (lambda: compare_mean(np.array([1.0, 2.0]), 0.0, z=0.0), "z="),
    ],
)
def test_invalid_arguments(call: Callable[[], object], match: str) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        call()


# One valid call of every public function taking sigma, theta / thetas or
# seed; the tests below replace one argument by an out-of-domain value.
VALID_CALLS: dict[str, tuple[Callable[..., object], dict[str, object]]] = {
    "endpoint_risks": (
        endpoint_risks,
        {"samples": 4, "dimension": 3, "theta": 0.3, "sigma": 0.1, "draws": 3},
    ),
    "transferability_slices": (
        transferability_slices,
        {"thetas": [0.5], "gammas": [1.0], "dimension": 3, "draws": 2},
    ),
    "transferability_surface": (
        transferability_surface,
        {"thetas": [0.5], "gammas": [1.0], "dimension": 3, "draws": 2, "sigma": 0.2},
    ),
    "endpoint_errors": (
        endpoint_errors,
        {
            "depth": 2,
            "dimension": 4,
            "samples": 3,
            "draws": 2,
            "theta": 0.8,
            "sigma": 0.3,
        },
    ),
}
OUT_OF_DOMAIN: list[tuple[str, object]] = [
    ("sigma", -0.1),
    ("sigma", -1e-300),
    ("theta", -0.1),
    ("theta", 3.2),
    ("theta", 7.0),
    ("thetas", [-0.1]),
    ("thetas", [0.5, 3.2]),
    ("seed", None),
    ("seed", -1),
    ("seed", 1.5),
]


@pytest.mark.parametrize(
    ("function", "argument", "value"),
    [
        (function, argument, value)
        for function, (call, arguments) in VALID_CALLS.items()
        for argument, value in OUT_OF_DOMAIN
        if argument in inspect.signature(call).parameters
    ],
)
def test_negative_sigma_angles_outside_0_pi_and_bad_seeds_are_rejected(
    function: str, argument: str, value: object
) -> None:
    # Before the argument checks these ran: a negative sigma is the same
    # noise as |sigma|, theta = 7 the angle 7 - 2 pi, seed None fresh entropy
    # (irreproducible draws), none of them what the caller meant.
    call, arguments = VALID_CALLS[function]
    with pytest.raises(InvalidArgumentError, match=argument):
        call(**(arguments | {argument: value}))


@pytest.mark.parametrize("init_scale", [1.0000001e60, 1e100, 1.7976931348623157e308])
def test_transferability_slices_refuse_an_init_scale_above_1e60(
    init_scale: float,
) -> None:
    # alpha * W overflowed at 1.8e308 (a RuntimeWarning); from about 1e77 the
    # losses, which grow like alpha^4, overflowed and named the data.
    call, arguments = VALID_CALLS["transferability_slices"]
    with pytest.raises(InvalidArgumentError, match=r"^init_scale=.* above 1e\+60"):
        call(**(arguments | {"init_scale": init_scale}))


def test_transferability_slices_train_at_an_init_scale_of_1e60() -> None:
    call, arguments = VALID_CALLS["transferability_slices"]
    slices = call(**(arguments | {"init_scale": 1e60}))
    assert isinstance(slices, TransferabilitySlices)
    assert np.isfinite(slices.scratch).all()


@pytest.mark.parametrize(
    "function", ["transferability_slices", "transferability_surface"]
)
@pytest.mark.parametrize("gammas", [[1000.5], [1.0, 1e300], [1.7976931348623157e308]])
def test_gammas_above_1e3_are_refused(function: str, gammas: list[float]) -> None:
    # round(gamma d) raised OverflowError at gamma d = inf, and a huge finite
    # gamma asked for round(gamma d) samples per draw.
    call, arguments = VALID_CALLS[function]
    with pytest.raises(InvalidArgumentError, match=r"^gammas=.* above 1000"):
        call(**(arguments | {"gammas": gammas}))


@pytest.mark.parametrize("sigma", [1e155, 1e300, 1.7976931348623157e308])
def test_labels_beyond_float64_name_sigma(sigma: float) -> None:
    # Labels finite but with squared norms beyond float64 went on to the
    # trainers, whose OutOfRangeError named y and X.
    for function in ("endpoint_errors", "transferability_slices", "endpoint_risks"):
        call, arguments = VALID_CALLS[function]
        with pytest.raises(OutOfRangeError, match=r"sigma=.*squared norms"):
            call(**(arguments | {"sigma": sigma}))


def test_a_constant_sample_compares_exactly() -> None:
    constant = np.full(5, 0.25)
    assert compare_mean(constant, 0.25).deviation == 0.0
    assert compare_mean(constant, 0.25).agrees
    off = compare_mean(constant, 0.5)
    assert off.deviation == -np.inf
    assert not off.agrees
    assert "SE" in off.describe()


# ---------------------------------------- result records (issue 22)


def _comparison(**fields: object) -> MeanComparison:
    valid: dict[str, object] = {
        "mean": 1.0,
        "standard_error": 0.1,
        "predicted": 1.2,
        "bias_bound": 0.0,
        "z": 4.0,
    }
    return MeanComparison(**(valid | fields))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("mean", math.nan),
        ("mean", math.inf),
        ("mean", "1.0"),
        ("mean", None),
        ("predicted", 1 + 1j),
        ("predicted", -math.inf),
        ("standard_error", -0.1),
        ("standard_error", math.nan),
        ("bias_bound", -1e-300),
        ("bias_bound", math.inf),
        ("z", 0.0),
        ("z", -4.0),
        ("z", True),
        ("z", np.ones(2)),
    ],
)
def test_mean_comparison_refuses_bad_fields(field: str, value: object) -> None:
    # Built with a NaN mean or a negative standard error, it answered agrees
    # and deviation with NaN or a wrong verdict.
    with pytest.raises(InvalidArgumentError, match=rf"^{field}[= ]"):
        _comparison(**{field: value})


def test_mean_comparison_fields_are_floats() -> None:
    comparison = _comparison(mean=np.float64(1.0), z=4)
    assert type(comparison.mean) is float
    assert type(comparison.z) is float
    assert comparison == _comparison()


def _errors(**fields: object) -> EndpointErrors:
    alphas = np.array([1e-1, 1e-2, 1e-3])
    valid: dict[str, object] = {
        "alphas": alphas,
        "errors": {"scratch": 2.0 * alphas, "linear": alphas**2},
        "depth": 2,
    }
    return EndpointErrors(**(valid | fields))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("alphas", [1e-3, 1e-2, 1e-1]),
        ("alphas", [1e-1, 1e-1, 1e-3]),
        ("alphas", [1e-1, 0.0, -1e-3]),
        ("alphas", [1e-1, math.nan, 1e-3]),
        ("alphas", [[1e-1, 1e-2, 1e-3]]),
        ("alphas", []),
        ("alphas", "alphas"),
        ("errors", {}),
        ("errors", {"scratch": [1.0, 2.0]}),
        ("errors", {"scratch": [1.0, 0.0, 2.0]}),
        ("errors", {"scratch": [1.0, math.inf, 2.0]}),
        ("errors", {"scratch": [1.0, 1j, 2.0]}),
        ("errors", {1: [1.0, 2.0, 3.0]}),
        ("errors", [1.0, 2.0, 3.0]),
        ("errors", None),
        ("depth", 1),
        ("depth", 2.0),
        ("depth", True),
        ("depth", None),
    ],
)
def test_endpoint_errors_refuse_bad_fields(field: str, value: object) -> None:
    with pytest.raises(InvalidArgumentError, match=rf"^{field}[=\[ ]"):
        _errors(**{field: value})


@pytest.mark.parametrize("name", ["no-such-error", "", 1, None, ["scratch"]])
def test_endpoint_orders_name_a_recorded_error(name: object) -> None:
    # An unknown name raised a raw KeyError (a list, TypeError).
    with pytest.raises(InvalidArgumentError, match="name="):
        _errors().orders(name)  # type: ignore[arg-type]


def test_endpoint_orders() -> None:
    errors = _errors()
    np.testing.assert_allclose(errors.orders("scratch"), [1.0, 1.0], rtol=1e-14)
    np.testing.assert_allclose(errors.orders("linear"), [2.0, 2.0], rtol=1e-14)
    # Ratios beyond the float64 range: e_i / e_{i+1} overflowed to inf / inf.
    extreme = np.array([1e300, 1e-300])
    wide = EndpointErrors(extreme, {"scratch": extreme}, 2)
    np.testing.assert_allclose(wide.orders("scratch"), [1.0], rtol=1e-14)
