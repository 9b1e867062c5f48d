"""The direct minimization of eq. (5) against the quartic evaluator of the numerics.

:mod:`implicit_bias.validation.relu_networks` minimizes the deviation R of
eq. (5) of ptft-relu-penalty over the actual weight vectors, without the
quartic (10) or the form (8); :mod:`implicit_bias.numerics.relu_penalty`
evaluates the same penalty through the roots of eq. (10). The two must agree
within the error theory of the direct search (module docstring there):

* value: a refinement tolerance ``tol`` in ``tau = t - log s`` costs at most
  ``R_tt tol^2 / 2``, and the float64 rounding of the vector norms (and of the
  quartic path) a few ulps of ``F = u^2 + m0^2 + (m/u)^2 + gamma^2``, the
  squared magnitudes that enter R;
* location: where R is flat to within those ulps, the minimizer is only
  determined to ``sqrt(2 * rounding / R_tt)`` in t.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from numpy.typing import NDArray

import implicit_bias.validation as validation
from implicit_bias.errors import ConvergenceError, InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics import (
    relu_ptft_penalty,
    relu_ptft_scale,
    relu_ptft_stationary_count,
)
from implicit_bias.validation import (
    UNIT_NORM_TOLERANCE,
    minimize_unit_deviation,
    minimize_unit_deviation_batch,
    unit_deviation,
)

EPS = float(np.finfo(np.float64).eps)
#: The default refinement tolerance of the direct search (bracket width in t).
TOL = 1e-12
#: Ulps of F allowed for rounding: the vector norms of the direct search
#: (observed <= 5 on 2000 random points), the quartic path's own rounding, and
#: the construction of w_hat, w0 from (rho, m0) in a random frame.
ROUNDING_ULPS = 16.0


def reference_terms(
    m: NDArray[np.float64],
    rho: NDArray[np.float64],
    m0: NDArray[np.float64],
    gamma: NDArray[np.float64],
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """(u*, F, R_tt at u*) from the numerics, for the tolerances (module docstring).

    With u = e^t, R_tt = u^2 p''(u) + u p'(u) and p'(u*) = 0, so
    R_tt = 6 m^2/u^2 - 4 gamma m/u + 2 u^2 (from eq. (8)).
    """
    u = relu_ptft_scale(m, rho, m0, gamma)
    readout = np.divide(m, u, out=np.zeros_like(u), where=u > 0)
    magnitudes = u**2 + m0**2 + readout**2 + gamma**2
    curvature = 6.0 * readout**2 - 4.0 * gamma * readout + 2.0 * u**2
    return u, magnitudes, curvature


def penalty_tolerance(
    m: NDArray[np.float64],
    rho: NDArray[np.float64],
    m0: NDArray[np.float64],
    gamma: NDArray[np.float64],
) -> NDArray[np.float64]:
    """Absolute tolerance on the penalty: refinement + rounding (module docstring)."""
    _, magnitudes, curvature = reference_terms(m, rho, m0, gamma)
    return ROUNDING_ULPS * EPS * magnitudes + 0.5 * np.abs(curvature) * TOL**2


# Domain: magnitudes log-uniform in [1e-3, 1e3] (a simulation-level check; the
# numerics' own tests cover the extreme ranges), either sign for m and gamma,
# and the edges 0; rho uniform in [-1, 1], at +-1 and 0, and within 1e-12..1
# of 1, where the pretrained unit is reused.
magnitudes = st.floats(min_value=-3.0, max_value=3.0).map(lambda e: 10.0**e)
signed = st.tuples(st.sampled_from([-1.0, 1.0]), magnitudes).map(lambda p: p[0] * p[1])
ms = st.one_of(signed, st.just(0.0))
rhos = st.one_of(
    st.floats(min_value=-1.0, max_value=1.0),
    st.sampled_from([-1.0, 0.0, 1.0]),
    st.floats(min_value=-12.0, max_value=0.0).map(lambda e: 1.0 - 10.0**e),
)
m0s = st.one_of(magnitudes, st.just(0.0))
gammas = st.one_of(signed, st.just(0.0))


def seeded_domain(
    seed: int, size: int
) -> tuple[
    NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]
]:
    """The Hypothesis domain above, drawn with a fixed seed."""
    rng = np.random.default_rng(seed)
    m = rng.choice([-1.0, 1.0], size) * 10.0 ** rng.uniform(-3.0, 3.0, size)
    rho = np.concatenate(
        [
            rng.uniform(-1.0, 1.0, size - size // 2),
            1.0 - 10.0 ** rng.uniform(-12.0, 0.0, size // 2),
        ]
    )
    m0 = 10.0 ** rng.uniform(-3.0, 3.0, size)
    gamma = rng.choice([-1.0, 1.0], size) * 10.0 ** rng.uniform(-3.0, 3.0, size)
    m[::25] = 0.0
    m0[3::17] = 0.0
    gamma[5::11] = 0.0
    rho[7::19] = 1.0
    return m, rho, m0, gamma


BATCH = seeded_domain(seed=20240501, size=200)


@given(
    m=ms,
    rho=rhos,
    m0=m0s,
    gamma=gammas,
    dimension=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
)
@example(
    m=1e-8, rho=1.0, m0=1.0, gamma=0.01, dimension=3, seed=0
)  # three roots of (10)
@example(m=1.0, rho=-1.0, m0=1.0, gamma=-1.0, dimension=2, seed=0)
@example(m=0.0, rho=0.5, m0=2.0, gamma=0.5, dimension=3, seed=0)
def test_direct_minimum_matches_quartic(
    m: float, rho: float, m0: float, gamma: float, dimension: int, seed: int
) -> None:
    direct = minimize_unit_deviation_batch(
        m, rho, m0, gamma, dimension=dimension, rng=seed
    )
    args = tuple(np.array(v) for v in (m, rho, m0, gamma))
    quartic = relu_ptft_penalty(*args)
    assert abs(direct - quartic) <= penalty_tolerance(*args)


def test_direct_minimum_matches_quartic_on_seeded_batch() -> None:
    direct = minimize_unit_deviation_batch(*BATCH, dimension=4, rng=7)
    quartic = relu_ptft_penalty(*BATCH)
    assert direct.shape == (200,)
    np.testing.assert_array_less(np.abs(direct - quartic), penalty_tolerance(*BATCH))
    # Relative agreement where the penalty is not itself near rounding level: with
    # r~ > 1e-6 F the absolute tolerance is a relative one of 16 eps / 1e-6 < 4e-9
    # (observed: 1.1e-14 on these 189 points, 1.8e-13 over all 200).
    _, magnitudes, _ = reference_terms(*BATCH)
    visible = quartic > 1e-6 * magnitudes
    relative = np.abs(direct / quartic - 1.0)
    assert np.max(relative[visible]) <= ROUNDING_ULPS * EPS / 1e-6


def test_batch_is_reproducible_and_keeps_shape() -> None:
    m, rho, m0, gamma = (v[:12].reshape(3, 4) for v in BATCH)
    first = minimize_unit_deviation_batch(m, rho, m0, gamma, rng=3)
    again = minimize_unit_deviation_batch(
        m, rho, m0, gamma, rng=np.random.default_rng(3)
    )
    assert first.shape == (3, 4)
    assert first.dtype == np.float64
    np.testing.assert_array_equal(first, again)


def test_three_root_case_refines_both_minima() -> None:
    # Eq. (10) has three positive roots here; the global minimum is the right one.
    w_hat = np.array([0.0, 1.0, 0.0])
    result = minimize_unit_deviation(w_hat, 1e-8, w_hat, 0.01)
    assert relu_ptft_stationary_count(1e-8, 1.0, 1.0, 0.01) == 3.0
    assert result.grid_minima == 2
    assert abs(result.penalty - relu_ptft_penalty(1e-8, 1.0, 1.0, 0.01)) < 16 * EPS
    assert result.scale == pytest.approx(float(relu_ptft_scale(1e-8, 1.0, 1.0, 0.01)))


def local_minima_values(m: float, rho: float, m0: float, gamma: float) -> list[float]:
    """Values of p at every local minimizer, from np.roots of eq. (10) (textbook)."""
    roots = np.roots([1.0, -m0 * rho, 0.0, gamma * m, -(m**2)])
    real = roots.real[(np.abs(roots.imag) <= 1e-9 * np.abs(roots)) & (roots.real > 0)]
    values = []
    for u in real:
        curvature = 6.0 * m**2 / u**4 - 4.0 * gamma * m / u**3 + 2.0
        if curvature > 0:
            values.append((m / u - gamma) ** 2 + u**2 + m0**2 - 2.0 * u * m0 * rho)
    return values


def test_minimizer_scale_matches_quartic_root() -> None:
    rng = np.random.default_rng(11)
    u, magnitudes, curvature = reference_terms(*BATCH)
    checked = 0
    for k, (m, rho, m0, gamma) in enumerate(zip(*BATCH, strict=True)):
        dimension = int(rng.integers(2, 6))
        frame, _ = np.linalg.qr(rng.standard_normal((dimension, 2)))
        w0 = m0 * (rho * frame[:, 0] + np.sqrt((1.0 - rho) * (1.0 + rho)) * frame[:, 1])
        result = minimize_unit_deviation(frame[:, 0], m, w0, gamma)
        if m == 0.0:
            # Switching off either layer: u* = max(<w_hat, w0>, 0) or 0, exactly.
            assert result.scale == pytest.approx(u[k], rel=1e-12, abs=1e-12 * m0)
            checked += 1
            continue
        minima = sorted(local_minima_values(m, rho, m0, gamma))
        rounding = ROUNDING_ULPS * EPS * magnitudes[k]
        if len(minima) > 1 and minima[1] - minima[0] < 1e3 * rounding:
            continue  # two near-tied minima: either minimizer is correct
        # Flat bottom: R is determined to `rounding`, so t to sqrt(2 rounding / R_tt).
        tolerance_t = TOL + np.sqrt(2.0 * rounding / curvature[k])
        assert abs(np.log(result.scale / u[k])) <= tolerance_t
        checked += 1
    assert checked >= 190


def test_direct_minimum_is_below_random_feasible_points() -> None:
    rng = np.random.default_rng(5)
    for m, rho, m0, gamma in zip(*(v[:40] for v in BATCH), strict=True):
        frame, _ = np.linalg.qr(rng.standard_normal((3, 2)))
        w_hat = frame[:, 0]
        w0 = m0 * (rho * w_hat + np.sqrt((1.0 - rho) * (1.0 + rho)) * frame[:, 1])
        result = minimize_unit_deviation(w_hat, m, w0, gamma)
        # Feasible points of eq. (5): w1 = e^t w_hat, w2 = m e^-t, t near and far.
        center = np.log(result.scale) if result.scale > 0 else 0.0
        t = np.concatenate(
            [center + rng.normal(0.0, 1e-3, 200), rng.uniform(-20, 20, 200)]
        )
        w1 = np.exp(t)[:, None] * w_hat
        w2 = m * np.exp(-t)
        feasible = unit_deviation(w1, w2, w0, gamma)
        slack = ROUNDING_ULPS * EPS * (np.exp(2 * t) + m0**2 + w2**2 + gamma**2)
        assert np.all(result.penalty <= feasible + slack)
        # The reported weights are feasible and attain the reported penalty.
        attained = unit_deviation(result.hidden_weights, result.readout, w0, gamma)
        assert attained == pytest.approx(result.penalty, rel=1e-12, abs=1e-300)
        if m != 0.0:
            assert result.scale * result.readout == pytest.approx(m, rel=1e-12)
            direction = result.hidden_weights / np.linalg.norm(result.hidden_weights)
            np.testing.assert_allclose(direction, w_hat, atol=1e-15)


@given(m=signed, rho=rhos, m0=m0s, gamma=gammas)
def test_penalty_is_invariant_under_sign_flip(
    m: float, rho: float, m0: float, gamma: float
) -> None:
    # R sees (m, gamma) only through (m e^-t - gamma)^2: flipping both is a symmetry.
    plus = minimize_unit_deviation_batch(m, rho, m0, gamma, rng=1)
    minus = minimize_unit_deviation_batch(-m, rho, m0, -gamma, rng=1)
    args = tuple(np.array(v) for v in (m, rho, m0, gamma))
    assert abs(plus - minus) <= 2 * penalty_tolerance(*args)


UNIT = [1.0, 0.0, 0.0]

MINIMIZE_BAD = [
    ({"w_hat": [1.0, 1.0, 0.0]}, "w_hat"),
    ({"w_hat": [1.0 + 1e3 * UNIT_NORM_TOLERANCE, 0.0, 0.0]}, "w_hat"),
    ({"w_hat": [1.0, 0.0]}, "w_hat"),
    ({"w_hat": [[1.0, 0.0, 0.0]]}, "w_hat"),
    ({"w_hat": [np.nan, 1.0, 0.0]}, "w_hat"),
    ({"w_hat": []}, "w_hat"),
    ({"w0": [np.inf, 0.0, 0.0]}, "w0"),
    ({"w0": 1.0}, "w0"),
    ({"m": np.nan}, "m"),
    ({"m": [1.0, 2.0]}, "m"),
    ({"gamma": np.inf}, "gamma"),
    ({"gamma": "a"}, "gamma"),
    ({"grid_size": 4}, "grid_size"),
    ({"grid_size": 100.5}, "grid_size"),
    ({"grid_size": True}, "grid_size"),
    ({"tol": 0.0}, "tol"),
    ({"tol": np.nan}, "tol"),
]


@pytest.mark.parametrize(("override", "name"), MINIMIZE_BAD)
def test_minimize_rejects_bad_arguments(override: dict[str, object], name: str) -> None:
    arguments: dict[str, object] = {
        "w_hat": UNIT,
        "m": 1.0,
        "w0": [0.5, 0.5, 0.0],
        "gamma": 0.1,
    }
    arguments.update(override)
    with pytest.raises(InvalidArgumentError, match=rf"^{name}\b"):
        minimize_unit_deviation(**arguments)  # type: ignore[arg-type]


BATCH_BAD = [
    ({"rho": 1.3}, "rho"),
    ({"rho": -1.0 - 1e-12}, "rho"),
    ({"m0": -1.0}, "m0"),
    ({"m": np.nan}, "m"),
    ({"gamma": -np.inf}, "gamma"),
    ({"m": [1.0, 2.0], "rho": [0.1, 0.2, 0.3]}, "shapes"),
    ({"dimension": 1}, "dimension"),
    ({"dimension": 2.5}, "dimension"),
    ({"grid_size": 2}, "grid_size"),
]


@pytest.mark.parametrize(("override", "name"), BATCH_BAD)
def test_batch_rejects_bad_arguments(override: dict[str, object], name: str) -> None:
    arguments: dict[str, object] = {"m": 1.0, "rho": 0.5, "m0": 1.0, "gamma": 0.1}
    arguments.update(override)
    with pytest.raises(InvalidArgumentError, match=rf"^{name}\b"):
        minimize_unit_deviation_batch(**arguments)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("hidden_weights", "w0", "name"),
    [(1.0, [1.0, 0.0], "hidden_weights"), ([1.0, 0.0], [1.0, 0.0, 0.0], "shapes")],
)
def test_unit_deviation_rejects_bad_arguments(
    hidden_weights: object, w0: object, name: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=rf"^{name}\b"):
        unit_deviation(hidden_weights, 0.0, w0, 0.0)  # type: ignore[arg-type]


def test_invalid_argument_error_is_value_error() -> None:
    with pytest.raises(ValueError, match="rho"):
        minimize_unit_deviation_batch(1.0, 2.0, 1.0, 0.0)


@pytest.mark.parametrize("name", validation.relu_networks.__all__)
def test_public_names_are_documented(name: str) -> None:
    obj = getattr(validation.relu_networks, name)
    if inspect.isfunction(obj):
        doc = inspect.getdoc(obj) or ""
        for section in (".. math::", "Args:", "Returns:", "Examples:", "References:"):
            assert section in doc, f"{name} lacks {section}"
        assert "of ptft-relu-penalty" in doc
    elif inspect.isclass(obj):
        assert inspect.getdoc(obj)
    else:  # a constant documented by a `#:` comment in its module
        source = inspect.getsource(validation.relu_networks)
        assert "#: " in source.split(f"\n{name} =")[0].rsplit("\n\n", 1)[-1]


def test_switched_off_unit_overflow_raises() -> None:
    # Regression: at m = 0 the penalty ||w0||^2 ~ 1e400 was returned as inf
    # (the overflow check ran only for m != 0).
    with pytest.raises(ConvergenceError, match="overflows"):
        minimize_unit_deviation([1.0, 0.0, 0.0], 0.0, [0.0, 1e200, 0.0], 0.0)


def test_unit_deviation_overflow_raises() -> None:
    with pytest.raises(OutOfRangeError, match="rescale"):
        unit_deviation([1e200, 0.0], 0.0, [0.0, 0.0], 0.0)


CONTRACT_BAD = [
    # Regression: complex vectors lost their imaginary part (np.array(..., float)).
    (lambda: minimize_unit_deviation([0.6 + 1j, 0.8], 1.0, [0.5, 0.5], 0.1), "w_hat"),
    # Regression: a string tolerance passed float("0.5").
    (
        lambda: minimize_unit_deviation(UNIT, 1.0, [0.5, 0.5, 0.0], 0.1, tol="0.5"),
        "tol",
    ),
    (
        lambda: minimize_unit_deviation(UNIT, 1.0, [0.5, 0.5, 0.0], 0.1, tol=0.5j),
        "tol",
    ),
    (
        lambda: minimize_unit_deviation(
            UNIT, 1.0, [0.5, 0.5, 0.0], 0.1, grid_size=2**30
        ),
        "grid_size",
    ),
    # Regression: a readout not broadcasting with the batch raised NumPy's error.
    (lambda: unit_deviation(np.ones((3, 2)), np.ones(2), [1.0, 0.0], 0.0), "shapes"),
    (lambda: unit_deviation("1.0", 0.0, [1.0], 0.0), "hidden_weights"),
    (lambda: unit_deviation([1.0 + 1j], 0.0, [1.0], 0.0), "hidden_weights"),
    (lambda: unit_deviation(np.ones(0), 0.0, np.ones(0), 0.0), "hidden_weights"),
    # Regression: a negative seed raised NumPy's ValueError naming no argument.
    (lambda: minimize_unit_deviation_batch(1.0, 0.5, 1.0, 0.1, rng=-1), "rng"),
    (lambda: minimize_unit_deviation_batch(1.0, 0.5, 1.0, 0.1, rng=1.5), "rng"),
    (lambda: minimize_unit_deviation_batch(1.0, 0.5, 1.0, 0.1, dimension=True), "dim"),
]


@pytest.mark.parametrize(("call", "name"), CONTRACT_BAD)
def test_bad_arguments_are_named(call: Callable[[], object], name: str) -> None:
    with pytest.raises(InvalidArgumentError, match=rf"^{name}"):
        call()


def test_a_tolerance_below_float64_resolution_stops_at_the_resolution() -> None:
    # tol = 5e-324 made the golden-section step count log(width / tol) infinite
    # (OverflowError); the bracket cannot shrink below the spacing of float64
    # numbers near tau, so the refinement stops there (documented clamp).
    w_hat = np.array([0.6, 0.8])
    w0 = np.array([0.5, 0.5])
    finest = minimize_unit_deviation(w_hat, 1.0, w0, 0.1, tol=5e-324)
    resolved = minimize_unit_deviation(w_hat, 1.0, w0, 0.1, tol=1e-300)
    assert finest.penalty == resolved.penalty
    assert finest.evaluations == resolved.evaluations
    batch = minimize_unit_deviation_batch(
        np.array([1.0, -2.0]), 0.5, 1.0, 0.1, dimension=3, rng=0, tol=5e-324
    )
    assert np.isfinite(batch).all()
