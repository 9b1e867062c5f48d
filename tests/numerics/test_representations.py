r"""Tests of :mod:`implicit_bias.numerics.representations` (Section G).

Notation follows the module: X and Y are (samples, units) response matrices,
mean-centered over samples; :math:`PR = \mathrm{tr}(C)^2/\mathrm{tr}(C^2)`,
linear CKA, and :math:`ENSD = CKA\sqrt{PR_X PR_Y}`.

Domain of the property tests: matrices of 2 to 40 samples and 1 to 12 units
with entries :math:`10^e\cdot N(0, 1)` for a common scale
:math:`e \in [-150, 150]` and per-unit scales spanning up to 4 decades, so
both Gram paths (units by units and samples by samples) and extreme
magnitudes are exercised. The references are the textbook formulas: the
eigenvalues of the covariance matrix, and traces of the full products.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.linalg import hadamard

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.representations import cka, ensd, participation_ratio

#: Relative agreement of two float64 evaluations of the same trace ratio from
#: different products; Gram entries of a (40 x 12) matrix carry ~40 eps each.
RTOL = 1e-10


def _responses(
    seed: int, samples: int, units: int, exponent: int, spread: float
) -> Any:
    rng = np.random.default_rng(seed)
    unit_scales = 10.0 ** rng.uniform(-spread, 0.0, units)
    return 10.0**exponent * rng.standard_normal((samples, units)) * unit_scales


_MATRICES = st.builds(
    _responses,
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    samples=st.integers(min_value=2, max_value=40),
    units=st.integers(min_value=1, max_value=12),
    exponent=st.integers(min_value=-150, max_value=150),
    spread=st.floats(min_value=0.0, max_value=4.0),
)


@st.composite
def _pairs(draw: st.DrawFn) -> tuple[Any, Any]:
    x = draw(_MATRICES)
    units = draw(st.integers(min_value=1, max_value=12))
    exponent = draw(st.integers(min_value=-150, max_value=150))
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    rng = np.random.default_rng(seed)
    # Y shares some of X's directions (a random linear readout) plus noise.
    mixing = rng.standard_normal((x.shape[1], units))
    noise = draw(st.floats(min_value=0.0, max_value=2.0))
    y = (x / np.max(np.abs(x))) @ mixing + noise * rng.standard_normal(
        (x.shape[0], units)
    )
    return x, 10.0**exponent * y


def _centered(x: Any) -> Any:
    return x - x.mean(axis=0)


def _has_variance(x: Any) -> bool:
    centered = _centered(x)
    return bool(np.any(np.abs(centered) > 1e-13 * np.max(np.abs(x))))


# ---------------------------------------------------------------------------
# Participation ratio.
# ---------------------------------------------------------------------------


@given(x=_MATRICES)
def test_participation_ratio_matches_covariance_eigenvalues(x: Any) -> None:
    if not _has_variance(x):
        return
    centered = _centered(x / np.max(np.abs(x)))
    eigenvalues = np.linalg.eigvalsh(centered.T @ centered / x.shape[0])
    reference = np.sum(eigenvalues) ** 2 / np.sum(eigenvalues**2)
    value = participation_ratio(x)
    assert abs(value - reference) <= RTOL * reference
    # PR lies in [1, rank] and rank <= min(n - 1, p) after centering.
    assert 1 - RTOL <= value <= min(x.shape[0] - 1, x.shape[1]) * (1 + RTOL)


@pytest.mark.parametrize("units", [1, 2, 5, 15])
def test_participation_ratio_of_uncorrelated_equal_units_is_their_count(
    units: int,
) -> None:
    # Hadamard columns 1..15 are orthogonal, centered and of equal norm.
    x = hadamard(16)[:, 1 : units + 1].astype(float)
    assert np.isclose(participation_ratio(x), units, rtol=1e-14)


def test_participation_ratio_is_invariant_to_rotation_and_scale() -> None:
    x = _responses(3, 30, 6, 0, 2.0)
    rotation = np.linalg.qr(np.random.default_rng(4).standard_normal((6, 6)))[0]
    base = participation_ratio(x)
    assert np.isclose(participation_ratio(1e-200 * x @ rotation), base, rtol=RTOL)
    assert np.isclose(participation_ratio(x + 1e3), base, rtol=1e-9)


# ---------------------------------------------------------------------------
# CKA and ENSD.
# ---------------------------------------------------------------------------


def _textbook(x: Any, y: Any) -> tuple[float, float]:
    """CKA and ENSD from the printed traces, with every product formed."""
    x = _centered(x / np.max(np.abs(x)))
    y = _centered(y / np.max(np.abs(y)))
    xx, yy = x.T @ x, y.T @ y
    cross = np.trace(y.T @ x @ x.T @ y)
    cka_value = cross / np.sqrt(np.trace(xx @ xx) * np.trace(yy @ yy))
    ensd_value = (
        cross * np.trace(xx) * np.trace(yy) / (np.trace(xx @ xx) * np.trace(yy @ yy))
    )
    return float(cka_value), float(ensd_value)


@given(pair=_pairs())
def test_cka_and_ensd_match_the_printed_traces(pair: tuple[Any, Any]) -> None:
    x, y = pair
    if not (_has_variance(x) and _has_variance(y)):
        return
    cka_reference, ensd_reference = _textbook(x, y)
    cka_value, ensd_value = cka(x, y), ensd(x, y)
    assert abs(cka_value - cka_reference) <= RTOL * max(cka_reference, 1e-300) + 1e-14
    assert abs(ensd_value - ensd_reference) <= RTOL * ensd_reference + 1e-14
    assert -1e-15 <= cka_value <= 1 + RTOL


@given(pair=_pairs())
def test_ensd_is_cka_times_the_geometric_mean_of_prs(pair: tuple[Any, Any]) -> None:
    x, y = pair
    if not (_has_variance(x) and _has_variance(y)):
        return
    geometric = np.sqrt(participation_ratio(x) * participation_ratio(y))
    value = ensd(x, y)
    assert abs(value - cka(x, y) * geometric) <= RTOL * value + 1e-14
    assert value <= geometric * (1 + RTOL)  # CKA <= 1


def test_ensd_of_ten_units_and_five_of_them_is_five() -> None:
    # Section G's example, exactly: orthogonal, centered, equal-variance units.
    units = hadamard(16)[:, 1:].astype(float)
    x = units[:, :10]
    assert np.isclose(ensd(x, x[:, :5]), 5.0, rtol=1e-14)
    assert np.isclose(cka(x, x[:, :5]), np.sqrt(0.5), rtol=1e-14)
    # Five units uncorrelated with all of X's: no shared dimensions.
    assert abs(ensd(x, units[:, 10:15])) <= 1e-14
    # A rotation of Y's units shares the same dimensions.
    rotation = np.linalg.qr(np.random.default_rng(0).standard_normal((5, 5)))[0]
    assert np.isclose(ensd(x, x[:, :5] @ rotation), 5.0, rtol=1e-13)


def test_ensd_of_sampled_uncorrelated_units_is_five_within_monte_carlo_error() -> None:
    # ENSD of sampled data is a smooth function of the sample covariance S = I + E,
    # E = O(1/sqrt(n)): its spread is O(1/sqrt(n)) and its bias, from the
    # second-order term over the p^2 entries of E, at most ~p^2/(2n) (36/n
    # to 46/n measured for p = 10). Replicates give the standard error.
    samples, replicates, units = 4000, 20, 10
    values = []
    for seed in range(replicates):
        x = np.random.default_rng(seed).standard_normal((samples, units))
        values.append(ensd(x, x[:, :5]))
    standard_error = np.std(values, ddof=1) / np.sqrt(replicates)
    bias_bound = units**2 / (2 * samples)
    assert abs(np.mean(values) - 5.0) <= 4 * standard_error + bias_bound


def test_both_gram_paths_agree() -> None:
    # n < p uses samples-by-samples Grams, n >= p units-by-units.
    wide = _responses(8, 6, 40, 0, 1.0)
    other = _responses(9, 6, 30, 0, 1.0)
    cka_reference, ensd_reference = _textbook(wide, other)
    assert np.isclose(cka(wide, other), cka_reference, rtol=RTOL)
    assert np.isclose(ensd(wide, other), ensd_reference, rtol=RTOL)
    eigenvalues = np.linalg.eigvalsh(_centered(wide).T @ _centered(wide))
    assert np.isclose(
        participation_ratio(wide),
        np.sum(eigenvalues) ** 2 / np.sum(eigenvalues**2),
        rtol=RTOL,
    )


def test_uncentered_measures_use_the_raw_responses() -> None:
    x = np.ones((4, 2)) + np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
    # Uncentered: the mean direction (1, 1) dominates the second moment.
    gram = x.T @ x
    assert np.isclose(
        participation_ratio(x, center=False),
        np.trace(gram) ** 2 / np.sum(gram * gram),
        rtol=1e-14,
    )
    assert np.isclose(participation_ratio(x), 2.0, rtol=1e-14)


# ---------------------------------------------------------------------------
# Bad input.
# ---------------------------------------------------------------------------

_GOOD = np.arange(6.0).reshape(3, 2) ** 2


@pytest.mark.parametrize(
    ("value", "match"),
    [
        (np.ones((5, 3)), "X is zero after mean-centering"),
        (np.arange(4.0).reshape(1, 4), "X is zero after mean-centering"),
        (np.ones(4), "X has shape .* must have 2 axes"),
        (np.ones((0, 3)), "both >= 1"),
        ([[1.0, np.nan], [0.0, 1.0]], "X=nan is not finite"),
        ([["a"]], "not a real number"),
    ],
)
def test_participation_ratio_rejects_bad_arguments(value: Any, match: str) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        participation_ratio(value)


def test_uncentered_zero_is_rejected_too() -> None:
    with pytest.raises(InvalidArgumentError, match=r"X is zero \(shape"):
        participation_ratio(np.zeros((3, 2)), center=False)


@pytest.mark.parametrize("function", [cka, ensd])
@pytest.mark.parametrize(
    ("x", "y", "match"),
    [
        (_GOOD, np.ones((4, 2)), "X has 3 samples and Y has 4"),
        (_GOOD, np.ones((3, 2)), "Y is zero after mean-centering"),
        (np.ones((3, 1)), _GOOD, "X is zero after mean-centering"),
        (_GOOD, [[np.inf, 0.0], [0, 0], [1, 1]], "Y=inf is not finite"),
        (_GOOD, np.ones(3), "Y has shape .* must have 2 axes"),
    ],
)
def test_cka_and_ensd_reject_bad_arguments(
    function: Any, x: Any, y: Any, match: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=match):
        function(x, y)
