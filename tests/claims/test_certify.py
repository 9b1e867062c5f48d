"""Certified signs in ball arithmetic: what is certified, and what is not."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from flint import ctx
from hypothesis import given
from hypothesis import strategies as st

from implicit_bias.claims.certify import (
    PRECISIONS,
    certified_nonzero,
    certified_sign,
    exact_point,
)
from implicit_bias.claims.checks import check_identity, check_inequality, interval
from implicit_bias.claims.engine import Basis, Status

x = sp.Symbol("x", real=True)
# atan(x) + atan(1/x) - pi/2 is 0 for x > 0 and -pi for x < 0.
ARCTANGENTS = sp.atan(x) + sp.atan(1 / x) - sp.pi / 2


@given(st.floats(min_value=-1e6, max_value=-1e-6))
def test_a_nonzero_value_is_certified_with_an_enclosure(value: float) -> None:
    certificate = certified_nonzero(ARCTANGENTS, {x: mpmath.mpf(value)})
    assert certificate.certified
    assert certificate.bits == PRECISIONS[0]
    assert "3.14159265" in certificate.enclosure


@given(st.floats(min_value=1e-6, max_value=1e6))
def test_an_exact_zero_is_never_certified(value: float) -> None:
    certificate = certified_nonzero(ARCTANGENTS, {x: mpmath.mpf(value)})
    assert not certificate.certified
    assert certificate.bits == PRECISIONS[-1]


def test_a_residual_below_double_precision_is_certified_at_higher_precision() -> None:
    # asinh(x) = log(x + sqrt(x^2 + 1)) exactly; 1e-200 apart is certified only
    # once the working precision resolves it.
    residual = sp.asinh(x) - sp.log(x + sp.sqrt(x**2 + 1)) - sp.Rational(1, 10**200)
    certificate = certified_nonzero(residual, {x: mpmath.mpf(1.5)})
    assert certificate.certified
    assert certificate.bits > PRECISIONS[0]


@pytest.mark.parametrize(
    ("expression", "complaint"),
    [
        (sp.besselj(0, x), "no ball arithmetic for besselj"),
        (sp.sqrt(x - 5), "nan"),
        (sp.Piecewise((x, x > 0), (1, True)), "no ball arithmetic for Piecewise"),
    ],
)
def test_what_cannot_be_enclosed_is_not_certified(
    expression: sp.Expr, complaint: str
) -> None:
    certificate = certified_nonzero(expression, {x: mpmath.mpf(2)})
    assert not certificate.certified
    assert complaint in certificate.enclosure


def test_a_non_finite_point_is_not_certified() -> None:
    certificate = certified_nonzero(x + 1, {x: mpmath.inf})
    assert not certificate.certified
    assert "non-finite" in certificate.enclosure


def test_the_working_precision_is_restored() -> None:
    before = ctx.prec
    certified_nonzero(ARCTANGENTS, {x: mpmath.mpf(2)})
    assert ctx.prec == before


@given(st.floats(min_value=-1e6, max_value=-1e-6))
def test_the_sign_is_certified_only_when_it_is_the_one_asked(value: float) -> None:
    # ARCTANGENTS is -pi for x < 0.
    point = {x: mpmath.mpf(value)}
    assert certified_sign(ARCTANGENTS, point, -1).certified
    assert certified_sign(ARCTANGENTS, point, -1).sign == -1
    refused = certified_sign(ARCTANGENTS, point, +1)
    assert not refused.certified
    assert refused.sign == 0


def test_an_exact_rational_point_is_enclosed_exactly() -> None:
    # 3 x - 1 is 0 at x = 1/3 exactly, which no binary float is; at the
    # rational it is never certified, at its nearest float it is.
    line = 3 * x - 1
    assert not certified_nonzero(line, {x: Fraction(1, 3)}).certified
    assert certified_nonzero(line, {x: mpmath.mpf(1) / 3}).certified
    assert certified_nonzero(line, {x: Fraction(1, 3) + Fraction(1, 10**40)}).certified


def test_a_sign_other_than_plus_or_minus_one_is_refused() -> None:
    with pytest.raises(ValueError, match="sign"):
        certified_sign(ARCTANGENTS, {x: mpmath.mpf(-1)}, 0)


def test_a_point_keeps_every_bit_it_was_sampled_with() -> None:
    # x - c is 0 at the double nearest 1/3 but not at the 50-digit 1/3: the
    # certificate must be computed at the point as sampled, not rounded.
    with mpmath.workdps(50):
        third = mpmath.mpf(1) / 3
    nearest_double = sp.Rational(*float(third).as_integer_ratio())
    assert certified_nonzero(x - nearest_double, {x: third}).certified


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (Fraction(3, 2), "1.5"),
        (Fraction(-1, 4), "-0.25"),
        (Fraction(5), "5"),
        (-7, "-7"),
        (Fraction("1.5e-5"), "0.000015"),
        (Fraction("123456789012345e10"), "1234567890123450000000000"),
        (Fraction(1, 3), "1/3"),
        (Fraction(-2, 7), "-2/7"),
        (mpmath.mpf(0.1), "0.1000000000000000055511151231257827021181583404541015625"),
        (mpmath.mpf(-3), "-3"),
        (mpmath.mpf(2) ** -3, "0.125"),
    ],
)
def test_a_coordinate_is_written_exactly(
    value: mpmath.mpf | Fraction | int, written: str
) -> None:
    assert exact_point({x: value}) == {"x": written}


@given(st.fractions(max_denominator=10**6))
def test_a_written_rational_reads_back_as_the_same_number(value: Fraction) -> None:
    (written,) = exact_point({x: value}).values()
    assert Fraction(written) == value


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_a_written_binary_float_reads_back_as_the_same_number(value: float) -> None:
    (written,) = exact_point({x: mpmath.mpf(value)}).values()
    assert Fraction(written) == Fraction(value)
    assert "e" not in written


def test_a_non_finite_coordinate_is_refused() -> None:
    with pytest.raises(ValueError, match="non-finite"):
        exact_point({x: mpmath.inf})


def test_a_point_is_written_by_symbol_name_in_its_order() -> None:
    y = sp.Symbol("y", positive=True)
    point = {y: Fraction(1, 2), x: mpmath.mpf(2)}
    assert list(exact_point(point).items()) == [("y", "0.5"), ("x", "2")]


def _refutes(relation_gap: sp.Expr, point: dict[str, str], sign: int | None) -> bool:
    """Whether ``relation_gap`` is certified nonzero (of ``sign``) at the
    point read back from its written coordinates."""
    symbols = {str(s): s for s in relation_gap.free_symbols}
    exact = {symbols[name]: Fraction(value) for name, value in point.items()}
    if sign is None:
        return certified_nonzero(relation_gap, exact).certified
    return certified_sign(relation_gap, exact, sign).certified


def test_a_refuted_identity_carries_its_certified_point_as_data() -> None:
    # Issue 21: the point was only text ("at x=1.2345 (exactly), ...").
    y = sp.Symbol("y", positive=True)
    lhs, rhs = sp.log(x**2 * y), 2 * sp.log(x) + 2 * sp.log(y)
    verdict = check_identity(
        lhs, rhs, symbolic=False, samplers={x: interval(1, 2), y: interval(2, 3)}
    )
    assert (verdict.status, verdict.basis) == (Status.FAILS, Basis.CERTIFIED)
    assert verdict.point is not None
    assert list(verdict.point) == ["x", "y"]
    assert verdict.counterexample is not None
    assert verdict.counterexample.startswith(
        "at " + ", ".join(f"{name}={value}" for name, value in verdict.point.items())
    )
    assert _refutes(lhs - rhs, dict(verdict.point), None)


def test_a_refuted_inequality_carries_its_certified_point_as_data() -> None:
    verdict = check_inequality(x - 1, sp.log(x), samplers={x: interval(2, 3)})
    assert (verdict.status, verdict.basis) == (Status.FAILS, Basis.CERTIFIED)
    assert verdict.point is not None
    assert list(verdict.point) == ["x"]
    assert _refutes(sp.log(x) - (x - 1), dict(verdict.point), -1)
