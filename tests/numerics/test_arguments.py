"""The argument checks every public entry uses (implicit_bias.numerics.arguments)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.arguments import (
    MAX_DPS,
    as_finite_array,
    check_dps,
    check_mp_real,
    check_real,
    check_seed,
)


@pytest.mark.parametrize(
    "value",
    [
        None,
        "0.5",
        b"0.5",
        1j,
        complex(0.5, 0.0),
        True,
        math.nan,
        math.inf,
        mpmath.mpf("inf"),
        mpmath.mpc(1, 1),
        np.ones(2),
        [0.5],
    ],
)
def test_mp_real_refuses_what_is_not_one_finite_real(value: object) -> None:
    # mpmath.mpf("0.5") and mpf(True) are accepted by mpmath itself: a
    # reference would silently evaluate at a number the caller did not pass.
    with pytest.raises(InvalidArgumentError, match=r"^u\b"):
        check_mp_real("u", value, meaning="a cosine")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (0.1, mpmath.mpf(0.1)),
        (3, mpmath.mpf(3)),
        (10**400, "1e400"),
        (np.float32(0.25), mpmath.mpf(0.25)),
        (np.array(0.5), mpmath.mpf(0.5)),
    ],
)
def test_mp_real_converts_exactly(value: object, expected: mpmath.mpf | str) -> None:
    # A string expectation is parsed at 500 digits (exact for 1e400).
    with mpmath.workdps(500):
        assert check_mp_real("u", value, meaning="a number") == mpmath.mpf(expected)


@pytest.mark.parametrize("value", [0, -5, MAX_DPS + 1, 10**9, 30.0, True, None, "30"])
def test_dps_is_a_bounded_positive_integer(value: object) -> None:
    with pytest.raises(InvalidArgumentError, match="dps"):
        check_dps(value)


@pytest.mark.parametrize("value", [None, -1, 1.0, True, "0", np.uint8(3) + 0.5])
def test_seed_is_a_nonnegative_integer(value: object) -> None:
    with pytest.raises(InvalidArgumentError, match="seed"):
        check_seed("seed", value)


@pytest.mark.parametrize(
    "value", [np.eye(2) + 1j, [1.0, 1j], None, "1.0", [1.0, np.nan]]
)
def test_arrays_refuse_complex_none_strings_and_nan(value: object) -> None:
    # np.asarray(eye + 1j, float) drops the imaginary part with a warning only.
    with pytest.raises(InvalidArgumentError, match="X"):
        as_finite_array("X", value)  # type: ignore[arg-type]


def test_real_names_the_argument_and_its_interval() -> None:
    with pytest.raises(InvalidArgumentError, match=r"sigma=-0.1 is outside \[0, inf\]"):
        check_real("sigma", -0.1, min_value=0.0, meaning="a noise level")


@pytest.mark.parametrize(
    "value",
    [
        [[1.0, 2.0], [3.0]],
        [[1.0], [[2.0]]],
        [np.ones(2), np.ones(3)],
        ([1, 2], [3]),
    ],
)
def test_ragged_nested_sequences_are_refused_by_name(value: object) -> None:
    # NumPy's own error ("inhomogeneous shape after 1 dimensions") names no
    # argument, and np.iscomplexobj raises it before any conversion.
    ragged = r"^x=.* is a ragged nested sequence"
    with pytest.raises(InvalidArgumentError, match=ragged):
        as_finite_array("x", value)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match=ragged):
        check_real("x", value, meaning="a number")
