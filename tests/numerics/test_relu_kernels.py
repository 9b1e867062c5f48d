r"""Tests of :mod:`implicit_bias.numerics.relu_kernels` (features-are-fate, App. C).

Domain of the kernel tests: every float in :math:`[-1, 1]`, with cosines
clustered at :math:`\pm1` (:math:`1 \mp u` down to one ulp), where eq. (153) as
printed cancels. Errors are in ulps of the exact value
(:func:`relu_kernel_mp`, eq. (153) at 50 digits, itself checked against the
defining Gaussian expectation by the claims). The projection is checked
against a textbook solve of eqs. (158)-(159) and against what defines a
projection (orthogonality, idempotence on the span).
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.relu_kernels import (
    KERNEL_ULPS,
    relu_gram,
    relu_kernel,
    relu_kernel_and_derivative,
    relu_kernel_mp,
    relu_rkhs_projection,
)

#: Digits of the mpmath reference.
DPS = 50


def _ulps(computed: float, cosine: float) -> float:
    with mpmath.workdps(DPS):
        exact = relu_kernel_mp(cosine, dps=DPS)
        if exact == 0:
            return 0.0 if computed == 0 else float("inf")
        return float(abs(mpmath.mpf(computed) - exact) / np.spacing(float(exact)))


_COSINES = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)
_NEAR_ENDS = st.builds(
    lambda sign, exponent: sign * (1.0 - 2.0**-exponent),
    st.sampled_from([-1.0, 1.0]),
    st.integers(min_value=1, max_value=53),
)


@given(st.one_of(_COSINES, _NEAR_ENDS))
@example(-1.0)
@example(1.0)
@example(0.0)
@example(-0.0)
@example(-float(np.cos(1.0)))
@example(float(np.nextafter(-np.cos(1.0), 0.0)))
@example(-1.0 + 2.0**-53)
@example(1.0 - 2.0**-53)
def test_kernel_within_bound_of_reference(cosine: float) -> None:
    assert _ulps(float(relu_kernel(cosine)), cosine) <= KERNEL_ULPS


def test_kernel_accuracy_clustered_at_both_ends() -> None:
    rng = np.random.default_rng(7)
    gaps = 10.0 ** rng.uniform(-16, 0, 400)
    cosines = np.concatenate([-1 + gaps, 1 - gaps])
    values = relu_kernel(cosines)
    worst = max(_ulps(float(v), float(c)) for v, c in zip(values, cosines, strict=True))
    assert worst <= KERNEL_ULPS


def test_printed_form_cancels_near_minus_one() -> None:
    # Why the stable form exists: at u = -1 + 1e-10 the printed form has no
    # correct digit left (k ~ 1e-15 while its terms are ~1e-5).
    cosine = -1 + 1e-10
    printed = (np.sqrt(1 - cosine**2) + cosine * (np.pi - np.arccos(cosine))) / (
        2 * np.pi
    )
    assert _ulps(float(printed), cosine) > 1e6
    assert _ulps(float(relu_kernel(cosine)), cosine) <= KERNEL_ULPS


def test_kernel_and_derivative_match_the_kernel_and_theory() -> None:
    # relu_kernel_and_derivative returns relu_kernel's values bit for bit (on
    # its fast path, a float64 array, and its checked one, a list), and k'(u)
    # of the theory layer's eq. (153) differentiated by SymPy within 4 ulp
    # (one arccos and one product, each within about 1 ulp).
    import sympy as sp

    from implicit_bias.theory import relu_kernels as theory

    gaps = 10.0 ** np.random.default_rng(3).uniform(-16, 0, 100)
    cosines = np.concatenate(
        [np.linspace(-1, 1, 201), -1 + gaps, 1 - gaps, [-float(np.cos(1.0))]]
    ).reshape(2, -1)
    kernel, slope = relu_kernel_and_derivative(cosines)
    np.testing.assert_array_equal(kernel, relu_kernel(cosines))
    listed = relu_kernel_and_derivative(cosines.tolist())
    np.testing.assert_array_equal(listed[0], kernel)
    np.testing.assert_array_equal(listed[1], slope)
    derivative = sp.lambdify(
        theory.u, sp.diff(theory.arc_cosine_kernel(theory.u), theory.u), "mpmath"
    )
    with mpmath.workdps(DPS):
        for value, cosine in zip(slope.ravel(), cosines.ravel(), strict=True):
            exact = derivative(mpmath.mpf(float(cosine)))
            error = abs(mpmath.mpf(float(value)) - exact) / np.spacing(float(exact))
            assert error <= 4


@pytest.mark.parametrize(
    "value",
    [np.array([0.5, 1.5]), np.array([np.nan, 0.0]), np.array([-np.inf]), [2.0], 1.01],
)
def test_kernel_and_derivative_reject_bad_cosines(value: Any) -> None:
    # The fast path's two reductions let no NaN or out-of-range cosine by.
    with pytest.raises(InvalidArgumentError, match=r"^u"):
        relu_kernel_and_derivative(value)


def test_kernel_shape_dtype_and_range() -> None:
    cosines = np.linspace(-1, 1, 201).reshape(3, 67)
    values = relu_kernel(cosines)
    assert values.shape == (3, 67)
    assert values.dtype == np.float64
    assert np.all(np.diff(values.ravel()) > 0)
    assert values.ravel()[0] == 0.0
    assert values.ravel()[-1] == 0.5
    assert relu_kernel(0.25).shape == ()
    assert relu_kernel([0.5, -0.5]).shape == (2,)


def test_kernel_odd_part() -> None:
    cosines = np.linspace(0, 1, 101)
    difference = relu_kernel(cosines) - relu_kernel(-cosines)
    np.testing.assert_allclose(difference, cosines / 2, rtol=0, atol=4e-16)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (1.0000000000000002, "outside"),
        (-1.5, "outside"),
        ([0.0, 2.0], "u=2.0"),
        (float("nan"), "not finite"),
        (float("inf"), "not finite"),
        ("cosine", "not a real number"),
    ],
)
def test_kernel_rejects_bad_cosines(value: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        relu_kernel(value)


@pytest.mark.parametrize("value", [1.5, -1.01, "x", None])
def test_reference_rejects_bad_cosines(value: Any) -> None:
    with pytest.raises(InvalidArgumentError, match="u="):
        relu_kernel_mp(value)


def test_reference_carries_its_digits() -> None:
    with mpmath.workdps(60):
        value = relu_kernel_mp(0.0, dps=55)
        assert abs(value - 1 / (2 * mpmath.pi)) < mpmath.mpf(10) ** -54


# --- Gram matrices


def _gram_loop(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.zeros((a.shape[0], b.shape[0]))
    for i, v in enumerate(a):
        for j, w in enumerate(b):
            nv, nw = np.linalg.norm(v), np.linalg.norm(w)
            if nv > 0 and nw > 0:
                cosine = min(1.0, max(-1.0, float(v @ w / (nv * nw))))
                out[i, j] = nv * nw * float(relu_kernel(cosine))
    return out


def test_gram_matches_textbook_loop() -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal((7, 4)) * rng.uniform(0.1, 10, (7, 1))
    b = rng.standard_normal((5, 4))
    a[2] = 0.0
    np.testing.assert_allclose(relu_gram(a, b), _gram_loop(a, b), rtol=1e-14, atol=0)
    assert np.all(relu_gram(a, b)[2] == 0.0)


def test_gram_symmetric_psd_and_homogeneous() -> None:
    rng = np.random.default_rng(4)
    weights = rng.standard_normal((30, 3))
    gram = relu_gram(weights)
    np.testing.assert_array_equal(gram, gram.T)
    assert np.linalg.eigvalsh(gram)[0] > -1e-12 * np.max(gram)
    # Scaling rounds the cosines differently (a few eps); k' <= 1/2 bounds the
    # absolute change, which is not small relative to k near u = -1.
    np.testing.assert_allclose(
        relu_gram(2.5 * weights), 6.25 * gram, rtol=0, atol=1e-14 * np.max(gram)
    )


def test_gram_of_parallel_and_antipodal_weights() -> None:
    # Rounding pushes these cosines past +-1; they are clipped, not rejected.
    w = np.array([[0.1, 0.7, 0.3]])
    gram = relu_gram(np.vstack([w, 3 * w, -w]))
    np.testing.assert_allclose(gram[0, :2], [0.5 * 0.59, 1.5 * 0.59], rtol=1e-14)
    # A cosine off -1 by a few eps gives k ~ (few eps)^(3/2) ~ 1e-23.
    assert 0.0 <= gram[0, 2] <= 1e-21


@pytest.mark.parametrize(
    ("weights", "other", "message"),
    [
        (np.ones(3), None, "must have 2 axes"),
        (np.ones((0, 3)), None, "at least one"),
        (np.ones((2, 3)), np.ones((2, 4)), "dimension"),
        (np.array([[np.nan, 1.0]]), None, "not finite"),
        (np.array([[1e200, 1e200], [1e200, -1e200]]), None, "cannot be formed"),
    ],
)
def test_gram_rejects_bad_weights(weights: Any, other: Any, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        relu_gram(weights, other)


# --- projections (158)-(159)


def _textbook_projection(
    model: np.ndarray, target: np.ndarray, readout: np.ndarray
) -> tuple[float, float]:
    m, m_star = model.shape[0], target.shape[0]
    kernel = _gram_loop(model, model) / m
    kernel_star = _gram_loop(target, target) / m_star
    kernel_tilde = _gram_loop(model, target) / np.sqrt(m * m_star)
    inside = readout @ kernel_tilde.T @ np.linalg.solve(kernel, kernel_tilde @ readout)
    total = readout @ kernel_star @ readout
    return inside / m_star, total / m_star - inside / m_star


_SIZES = st.tuples(
    st.integers(min_value=1, max_value=8),
    st.integers(min_value=1, max_value=8),
    st.integers(min_value=2, max_value=6),
    st.integers(min_value=0, max_value=2**32 - 1),
)


@given(_SIZES)
def test_projection_matches_eqs_158_159(sizes: tuple[int, int, int, int]) -> None:
    width, target_width, dimension, seed = sizes
    rng = np.random.default_rng(seed)
    model = rng.standard_normal((width, dimension))
    target = rng.standard_normal((target_width, dimension))
    readout = rng.standard_normal(target_width)
    projection = relu_rkhs_projection(model, target, readout)
    inside, outside = _textbook_projection(model, target, readout)
    scale = projection.target
    # Both routes are backward stable in the joint Gram matrix J of model and
    # target units (N = m + m_* of them): a perturbation of N eps ||J|| moves the
    # quadratic forms in c*/m_* by N eps ||J|| |c*/m_*|^2, amplified by cond(K)
    # through the solve with K (which reaches 1e9 for nearly parallel weights).
    # 16 is the small constant of these backward-error bounds.
    joint = relu_gram(np.vstack([model, target]))
    size = np.linalg.norm(joint, 2) * float(readout @ readout) / target_width**2
    condition = np.linalg.cond(relu_gram(model))
    units = width + target_width
    bound = 16 * units * condition * np.finfo(float).eps * size
    assert abs(projection.inside - inside) <= bound
    assert abs(projection.outside - outside) <= bound
    assert projection.outside >= 0.0
    assert projection.inside + projection.outside == pytest.approx(scale, rel=1e-12)


def test_projection_residual_is_orthogonal_to_the_features() -> None:
    rng = np.random.default_rng(5)
    model = rng.standard_normal((6, 4))
    target = rng.standard_normal((9, 4))
    readout = rng.standard_normal(9)
    projection = relu_rkhs_projection(model, target, readout)
    # <sigma_i, f_* - v.sigma> = (H c*/m_* - G v)_i.
    moments = relu_gram(model, target) @ readout / 9
    residual = moments - relu_gram(model) @ projection.coefficients
    assert np.max(np.abs(residual)) <= 1e-13 * np.max(np.abs(moments))


def test_target_in_the_span_has_no_outside_part() -> None:
    rng = np.random.default_rng(6)
    teacher = rng.standard_normal((10, 5))
    teacher /= np.linalg.norm(teacher, axis=1, keepdims=True)
    readout = rng.standard_normal(10)
    projection = relu_rkhs_projection(teacher, teacher, readout)
    assert projection.outside <= 1e-14 * projection.target
    assert projection.outside_fraction <= 1e-14
    # The coefficients reproduce c*/m_* (independent features).
    np.testing.assert_allclose(projection.coefficients, readout / 10, atol=1e-10)


def test_repeated_model_features_project_onto_their_span() -> None:
    # K is singular with a repeated weight; the projection is unchanged.
    rng = np.random.default_rng(8)
    model = rng.standard_normal((4, 3))
    target = rng.standard_normal((5, 3))
    readout = rng.standard_normal(5)
    single = relu_rkhs_projection(model, target, readout)
    repeated = relu_rkhs_projection(np.vstack([model, model[:1]]), target, readout)
    assert repeated.outside == pytest.approx(single.outside, rel=1e-9, abs=1e-16)


def test_outside_fraction_of_zero_target() -> None:
    projection = relu_rkhs_projection(np.eye(2), np.eye(2), [0.0, 0.0])
    assert projection.target == 0.0
    assert projection.outside_fraction == 0.0


@pytest.mark.parametrize(
    ("model", "target", "readout", "message"),
    [
        (np.ones((2, 3)), np.ones((2, 4)), np.ones(2), "dimension"),
        (np.ones((2, 3)), np.ones((2, 3)), np.ones(3), "one entry per target unit"),
        (np.ones((2, 3)), np.ones((2, 3)), np.ones((2, 1)), "must have 1 axis"),
        (np.ones((2, 3)), np.ones((2, 3)), [1.0, np.inf], "not finite"),
        (np.ones(3), np.ones((2, 3)), np.ones(2), "hidden_weights"),
    ],
)
def test_projection_rejects_bad_arguments(
    model: Any, target: Any, readout: Any, message: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        relu_rkhs_projection(model, target, readout)
