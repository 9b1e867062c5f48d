"""The reusable checks: exact proof, numeric fallback, limits and series."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from sympy.core.cache import clear_cache

from implicit_bias.claims.checks import (
    capped_budgets,
    check_close,
    check_equal,
    check_identity,
    check_inequality,
    check_integral,
    check_limit,
    check_positive,
    check_series,
    injected_bias,
    interval,
    judge_relation,
    relation_check,
)
from implicit_bias.claims import checks, computed_results, identities
from implicit_bias.claims.engine import Basis, CheckTimeout, Reason, Status
from implicit_bias.errors import InvalidArgumentError

x = sp.Symbol("x", positive=True)


#: The modules whose checks run symbolic steps under ``time_limit``.
_TIMED_MODULES = (checks, computed_results, identities)


@contextlib.contextmanager
def _out_of_time(seconds: float) -> Iterator[None]:
    raise CheckTimeout(f"step exceeded its {seconds:g} s CPU-time budget")
    yield


@pytest.fixture
def sympy_out_of_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every symbolic step runs out of time at once, whatever the machine.

    A tiny ``budget_seconds`` would do the same only when SymPy is slower than
    the timer's first tick, which a warm SymPy cache is not.
    """
    for module in _TIMED_MODULES:
        monkeypatch.setattr(module, "time_limit", _out_of_time)


y = sp.Symbol("y", real=True)


def test_a_true_identity_is_proven_exactly() -> None:
    verdict = check_identity((x + 1) ** 2, x**2 + 2 * x + 1)
    assert verdict.status == Status.HOLDS
    assert verdict.detail.startswith("exact")


def test_a_false_identity_fails_with_a_point() -> None:
    verdict = check_identity((x + 1) ** 2, x**2 + 1)
    assert verdict.status == Status.FAILS
    assert "x=" in verdict.detail


def test_symbolic_false_decides_numerically_only() -> None:
    true = judge_relation(sp.Eq((x + 1) ** 2, x**2 + 2 * x + 1), symbolic=False)
    assert (true.status, true.basis) == (Status.HOLDS, Basis.NUMERICAL)
    assert true.detail.startswith("numerically")
    false = check_identity((x + 1) ** 2, x**2 + 1, symbolic=False)
    assert (false.status, false.basis) == (Status.FAILS, Basis.CERTIFIED)


def test_numeric_fallback_is_used_and_reported_when_sympy_has_no_time(
    sympy_out_of_time: None,
) -> None:
    # asinh(x) = log(x + sqrt(x^2 + 1)) holds; with no time for simplify, the
    # check must fall back to 50-digit numerics and say so.
    verdict = check_identity(sp.asinh(y), sp.log(y + sp.sqrt(y**2 + 1)))
    assert verdict.status == Status.HOLDS
    assert verdict.detail.startswith("numerically, 200 points")


def test_numeric_fallback_catches_a_small_error(sympy_out_of_time: None) -> None:
    verdict = check_identity(
        sp.asinh(y),
        sp.log(y + sp.sqrt(y**2 + 1)) + sp.Rational(1, 10**20),
        samplers={y: interval(1, 2)},
    )
    assert verdict.status == Status.FAILS
    assert "certified" in verdict.detail


def test_a_counterexample_that_cannot_be_certified_is_inconclusive() -> None:
    # Far from 0 in 50-digit arithmetic, but besselj has no ball version here.
    verdict = check_identity(sp.besselj(0, x), sp.Integer(0))
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.UNDECIDED)
    assert "not certified" in verdict.detail


def test_limits() -> None:
    assert check_limit(sp.sin(x) / x, x, 0, 1).status == Status.HOLDS
    assert check_limit(1 / x, x, 0, sp.oo).status == Status.HOLDS
    assert check_limit(1 / x, x, 0, 0).status == Status.FAILS


def test_series() -> None:
    assert check_series(sp.exp(x), x, 1 + x + x**2 / 2, 3).status == Status.HOLDS
    assert check_series(sp.exp(x), x, 1 + x, 3).status == Status.FAILS


# atan(y) + atan(1/y) = pi/2 holds for y > 0 only, and SymPy does not prove it:
# the numeric fallback decides it.
_ARCTANGENTS = (sp.atan(y) + sp.atan(1 / y), sp.pi / 2)


def test_a_residual_that_is_never_finite_is_inconclusive_not_holds() -> None:
    verdict = check_identity(*_ARCTANGENTS, samplers={y: lambda rng: mpmath.mpf(0)})
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.NON_FINITE)
    assert "200 of 200 points" in verdict.detail


def test_the_numeric_fallback_decides_on_finite_points() -> None:
    assert check_identity(*_ARCTANGENTS, samplers={y: interval(1e-3, 1e3)}).status == (
        Status.HOLDS
    )
    assert check_identity(*_ARCTANGENTS, samplers={y: interval(-2, -1)}).status == (
        Status.FAILS
    )


def test_a_finite_counterexample_fails_even_beside_non_finite_points() -> None:
    draws = iter([mpmath.mpf(0), mpmath.mpf(-1)] * 100)
    verdict = check_identity(*_ARCTANGENTS, samplers={y: lambda rng: next(draws)})
    assert verdict.status == Status.FAILS
    assert "y=-1.0" in verdict.detail


def test_a_residual_that_cannot_be_evaluated_is_inconclusive() -> None:
    # An integer-valued f has no concrete instance to refute 2 f = f at
    # (claims.function_instances); a plain f is refuted at one.
    f = sp.Function("f", integer=True)
    verdict = check_identity(2 * f(x), f(x))
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.UNEVALUATED)


def test_an_unevaluated_limit_or_series_is_inconclusive_not_fails() -> None:
    f = sp.Function("f")
    for verdict in (check_limit(f(x), x, 0, 0), check_series(f(x), x, f(0), 2)):
        assert (verdict.status, verdict.reason) == (
            Status.INCONCLUSIVE,
            Reason.UNEVALUATED,
        )


def test_a_limit_past_its_budget_is_inconclusive() -> None:
    heavy = (sp.exp(sp.sin(x) ** 7) - sp.exp(sp.tan(x) ** 7)) / x**9
    # ~0.4 s of CPU from a cold cache, ~0.5 ms from a warm one: start cold.
    clear_cache()
    verdict = check_limit(heavy, x, 0, 0, budget_seconds=1e-3)
    assert (verdict.status, verdict.reason) == (
        Status.INCONCLUSIVE,
        Reason.BUDGET,
    ), verdict.detail


def test_limits_with_symbols_fail_only_on_a_counterexample() -> None:
    assert check_limit(x * y, x, 1, y).status == Status.HOLDS
    refuted = check_limit(x * y, x, 1, 2 * y)
    assert refuted.status == Status.FAILS
    assert "y=" in refuted.detail
    assert check_limit(1 / x, x, 0, -sp.oo).status == Status.FAILS


def test_equal_values() -> None:
    assert check_equal(sp.sin(y) ** 2 + sp.cos(y) ** 2, sp.Integer(1)).status == (
        Status.HOLDS
    )
    assert check_equal(sp.Integer(1), sp.Integer(2)).status == Status.FAILS
    assert check_equal(sp.Integer(2), 2).status == Status.HOLDS  # type: ignore[arg-type]
    assert check_equal(sp.oo, 1).status == Status.FAILS  # type: ignore[arg-type]
    assert check_equal(sp.nan, sp.Integer(2)).status == Status.INCONCLUSIVE
    assert check_equal(sp.Limit(1 / y, y, 0), sp.oo).reason == Reason.UNEVALUATED


#: A ratio with only its sign stated: q**t -> 0 for q < 1 and oo for q > 1.
ratio = sp.Symbol("q", positive=True)
steps = sp.Symbol("t")


def test_a_parametric_limit_is_refuted_at_a_certified_point_not_by_is_zero() -> None:
    # sympy.limit gives exp(oo*sign(log(q))), which SymPy calls nonzero (it is
    # 0 for q < 1): the refutation must be a point q > 1 where the limit is oo.
    verdict = check_limit(ratio**steps, steps, sp.oo, 0)
    assert (verdict.status, verdict.basis) == (Status.FAILS, Basis.CERTIFIED)
    assert verdict.point is not None
    at = Fraction(verdict.point["q"])
    assert at > 1, verdict.point
    assert sp.limit(ratio**steps, steps, sp.oo).subs(ratio, sp.Rational(at)) == sp.oo
    assert verdict.counterexample is not None
    assert "limit = oo, not 0" in verdict.counterexample


def test_an_infinity_times_a_sign_is_decided_at_points() -> None:
    # x**2 - 2x + 2 = (x - 1)**2 + 1 > 0, which SymPy's assumptions miss: the
    # product is oo everywhere, not "different from oo".
    positive_sign = check_equal(sp.oo * sp.sign(x**2 - 2 * x + 2), sp.oo)
    assert (positive_sign.status, positive_sign.basis) == (
        Status.HOLDS,
        Basis.NUMERICAL,
    ), positive_sign.detail
    assert "at 40 points" in positive_sign.detail
    # oo * sign(y) is oo for y > 0: only a point y < 0 refutes it.
    either_sign = check_equal(sp.oo * sp.sign(y), sp.oo)
    assert (either_sign.status, either_sign.basis) == (Status.FAILS, Basis.CERTIFIED)
    assert either_sign.point is not None
    assert Fraction(either_sign.point["y"]) < 0


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (sp.sign(y), sp.Integer(1)),
        (sp.Piecewise((0, x < 1), (1, True)), sp.Integer(0)),
        (sp.Heaviside(y), sp.Integer(1)),
        (sp.Max(y, 0), y),
    ],
)
def test_sign_and_piecewise_results_fail_at_an_exact_point(
    value: sp.Expr, expected: sp.Expr
) -> None:
    # Ball arithmetic has no sign or Piecewise: these were "not certified".
    verdict = check_equal(value, expected)
    assert (verdict.status, verdict.basis) == (Status.FAILS, Basis.CERTIFIED)
    assert verdict.point is not None
    point = {
        s: sp.Rational(Fraction(verdict.point[str(s)]))
        for s in value.free_symbols | expected.free_symbols
    }
    # The point reads back exactly, and the two really differ there.
    assert value.xreplace(point) != expected.xreplace(point)


def test_a_true_inequality_is_proven_when_sympy_can() -> None:
    verdict = check_inequality(x**2, x**2 + 1, strict=True)
    assert (verdict.status, verdict.basis) == (Status.HOLDS, Basis.PROOF)


def test_a_true_inequality_sympy_cannot_prove_holds_numerically() -> None:
    # log x <= x - 1 for x > 0: SymPy's assumptions do not settle the sign.
    verdict = check_inequality(sp.log(x), x - 1)
    assert (verdict.status, verdict.basis) == (Status.HOLDS, Basis.NUMERICAL)


def test_a_false_inequality_fails_with_a_certified_counterexample() -> None:
    verdict = check_inequality(x - 1, sp.log(x), samplers={x: interval(2, 3)})
    assert (verdict.status, verdict.basis) == (Status.FAILS, Basis.CERTIFIED)
    assert verdict.counterexample is not None
    # The reported point, read back exactly, refutes the inequality.
    point = verdict.counterexample.split(",")[0].removeprefix("at x=")
    value = mpmath.mpf(point.split(" ")[0])
    assert value - 1 > mpmath.log(value)


def test_a_strict_inequality_met_with_equality_is_not_refuted(
    sympy_out_of_time: None,
) -> None:
    # sin^2 + cos^2 < 1 is false, but only by an equality ball arithmetic
    # cannot certify; it must not hold either.
    verdict = check_inequality(
        sp.sin(y) ** 2 + sp.cos(y) ** 2, sp.Integer(1), strict=True
    )
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.UNDECIDED)


def test_an_inequality_never_finite_is_inconclusive(sympy_out_of_time: None) -> None:
    verdict = check_inequality(sp.log(-x), sp.Integer(0))
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.NON_FINITE)


def test_relations_are_judged_by_their_form() -> None:
    assert judge_relation(sp.Eq((x + 1) ** 2, x**2 + 2 * x + 1)).status == Status.HOLDS
    assert judge_relation(sp.Eq(sp.Limit(sp.sin(x) / x, x, 0), 1)).basis == Basis.PROOF
    assert judge_relation(sp.Ge(sp.log(x), x - 1, evaluate=False)).status == (
        Status.FAILS
    )
    with pytest.raises(InvalidArgumentError, match="relation"):
        judge_relation(x + 1)


def test_a_relation_check_judges_the_relation_it_is_given() -> None:
    check = relation_check(lambda: sp.Eq(sp.log(x**2), 2 * sp.log(x)))
    assert check().status == Status.HOLDS
    assert check.judge(sp.Eq(sp.log(x**2), 3 * sp.log(x))).status == Status.FAILS


def test_close_values_hold_and_distant_ones_fail_at_the_worst_entry() -> None:
    reference = np.array([1.0, 2.0, 3.0])
    close = check_close(reference + 1e-9, reference, 1e-8, what="r")
    assert (close.status, close.basis) == (Status.HOLDS, Basis.NUMERICAL)
    far = check_close(reference + np.array([0, 0, 1e-7]), reference, 1e-8, what="r")
    assert far.status == Status.FAILS
    assert far.counterexample is not None
    assert "3.0000001" in far.counterexample
    relative = check_close(
        reference * (1 + 1e-9), reference, 1e-8, what="r", relative=True
    )
    assert relative.status == Status.HOLDS


def test_a_non_finite_comparison_is_inconclusive() -> None:
    verdict = check_close([1.0, np.nan], [1.0, 1.0], 1e-8, what="r")
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.NON_FINITE)


@pytest.mark.parametrize("factor", [2.0, -2.0, 5.0, -5.0])
def test_an_injected_bias_beyond_the_tolerance_is_detected(factor: float) -> None:
    reference = np.linspace(1.0, 2.0, 5)
    with injected_bias(factor) as record:
        verdict = check_close(reference, reference, 1e-6, what="r")
        check_close(reference, reference, 1e-6, what="again")
    assert record.comparisons == 2
    assert verdict.status == Status.FAILS


def test_an_injected_bias_within_the_tolerance_is_not() -> None:
    reference = np.linspace(1.0, 2.0, 5)
    with injected_bias(0.5) as record:
        assert check_close(reference, reference, 1e-6, what="r").status == Status.HOLDS
    assert record.comparisons == 1
    # Outside the block nothing is shifted.
    assert check_close(reference, reference, 0.0, what="r").status == Status.HOLDS


@pytest.mark.parametrize(
    ("value", "refutable", "status"),
    [
        (0.31, True, Status.HOLDS),
        (0.29, True, Status.INCONCLUSIVE),
        (-0.29, True, Status.INCONCLUSIVE),
        (-0.31, True, Status.FAILS),
        (-0.31, False, Status.INCONCLUSIVE),
    ],
)
def test_a_value_is_positive_beyond_its_resolution_and_refuted_beyond_minus_it(
    value: float, refutable: bool, status: Status
) -> None:
    verdict = check_positive(value, 0.3, what="gap", refutable=refutable)
    assert verdict.status == status
    if status == Status.INCONCLUSIVE:
        assert verdict.reason == Reason.STATISTICAL


def test_a_non_finite_or_unbounded_positive_comparison_is_refused_or_undecided() -> (
    None
):
    verdict = check_positive(np.nan, 0.3, what="gap")
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.NON_FINITE)
    with pytest.raises(InvalidArgumentError, match="resolution"):
        check_positive(1.0, -0.1, what="gap")


@pytest.mark.parametrize("factor", [2.0, -2.0])
def test_an_injected_bias_moves_a_one_sided_comparison_toward_refutation(
    factor: float,
) -> None:
    # 1.5 resolutions above 0: moved down 2 resolutions whatever the sign, it is
    # no longer positive beyond its resolution; moved up it would still hold.
    with injected_bias(factor) as record:
        verdict = check_positive(0.45, 0.3, what="gap")
    assert (record.comparisons, record.one_sided) == (1, 1)
    assert verdict.status == Status.INCONCLUSIVE
    with injected_bias(5.0):
        assert check_positive(0.45, 0.3, what="gap").status == Status.FAILS
    assert check_positive(0.45, 0.3, what="gap").status == Status.HOLDS


def test_a_comparison_with_a_zero_tolerance_is_not_counted_as_shifted() -> None:
    # Shifted by 0 it cannot notice anything: counting it would call the
    # claim instrumented and its bias mutants unkillable.
    with injected_bias(5.0) as record:
        assert check_close(1.0, 1.0, 0.0, what="r").status == Status.HOLDS
        assert check_positive(0.5, 0.0, what="gap").status == Status.HOLDS
    assert (record.comparisons, record.one_sided) == (0, 0)


def test_a_shift_rounding_swallows_is_not_counted() -> None:
    with injected_bias(5.0) as record:
        assert check_close(1.0, 1.0, 1e-30, what="r").status == Status.HOLDS
    assert record.comparisons == 0


def test_capped_budgets_bound_the_symbolic_attempt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    budgets: list[float] = []

    def recording_limit(seconds: float) -> contextlib.AbstractContextManager[None]:
        budgets.append(seconds)
        return _out_of_time(seconds)

    for module in _TIMED_MODULES:
        monkeypatch.setattr(module, "time_limit", recording_limit)
    identity = (sp.asinh(y), sp.log(y + sp.sqrt(y**2 + 1)))
    with capped_budgets(1e-3):
        verdict = check_identity(*identity, budget_seconds=20.0)
    assert budgets == [1e-3]
    # The cut-short exact attempt leaves the numeric fallback, which says so.
    assert (verdict.status, verdict.basis) == (Status.HOLDS, Basis.NUMERICAL)
    check_identity(*identity, budget_seconds=20.0)
    assert budgets == [1e-3, 20.0]


def test_a_constant_residual_is_a_counterexample(sympy_out_of_time: None) -> None:
    # The residual lambdifies to a plain Python number at every point.
    verdict = check_identity(x**2, x**2 + 1)
    assert (verdict.status, verdict.basis) == (Status.FAILS, Basis.CERTIFIED)


def test_constant_sides_are_compared_not_waved_through(sympy_out_of_time: None) -> None:
    verdict = check_identity(sp.Integer(2), sp.Integer(3))
    assert verdict.status == Status.FAILS
    assert "constants" in (verdict.counterexample or "")
    assert check_inequality(sp.Integer(3), sp.Integer(2)).status == Status.FAILS


def test_a_non_strict_inequality_met_with_equality_holds_numerically(
    sympy_out_of_time: None,
) -> None:
    verdict = check_inequality(sp.sin(y) ** 2 + sp.cos(y) ** 2, sp.Integer(1))
    assert (verdict.status, verdict.basis) == (Status.HOLDS, Basis.NUMERICAL)


def test_a_strict_inequality_with_a_tiny_certified_gap_holds() -> None:
    # The gap exp(-x^2) (2 + sin x) is positive, e^-1e6 small at x >= 1e3, and
    # SymPy cannot sign it: the sampled gap is 0 to 50 digits, and only its
    # certified sign tells a strict inequality from an equality.
    verdict = check_inequality(
        sp.Integer(1),
        1 + sp.exp(-(x**2)) * (2 + sp.sin(x)),
        strict=True,
        samplers={x: interval(1e3, 1e4)},
    )
    assert (verdict.status, verdict.basis) == (Status.HOLDS, Basis.NUMERICAL)


def test_what_lambdify_cannot_print_is_unevaluated_not_a_crash(
    sympy_out_of_time: None,
) -> None:
    verdict = check_identity(sp.Limit(sp.sin(x) / x, x, 0), 2 * x)
    assert (verdict.status, verdict.reason) == (
        Status.INCONCLUSIVE,
        Reason.UNEVALUATED,
    )


def test_a_pole_is_a_non_finite_point_not_a_crash(sympy_out_of_time: None) -> None:
    verdict = check_inequality(
        sp.gamma(y),
        sp.gamma(y) ** 2 + 1,
        samplers={y: lambda rng: mpmath.mpf(-2)},
    )
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.NON_FINITE)


def test_an_empty_sample_is_refused(sympy_out_of_time: None) -> None:
    with pytest.raises(InvalidArgumentError, match="points"):
        check_identity(sp.besselj(0, x), x, points=0)


def test_complex_values_and_negative_tolerances_are_not_compared() -> None:
    verdict = check_close(np.array([1 + 1j]), 1.0, 1e-9, what="v")
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.NON_FINITE)
    with pytest.raises(InvalidArgumentError, match="tolerance"):
        check_close(1.0, 1.0, -1e-9, what="v")
    nan_bound = check_close(1.0, 1.0, np.nan, what="v")
    assert "1 tolerances are not finite" in nan_bound.detail


def test_integrals_are_computed_and_compared() -> None:
    t = sp.Symbol("t", real=True)
    gaussian = check_integral(
        sp.exp(-(t**2) / 2), (t, -sp.oo, sp.oo), sp.sqrt(2 * sp.pi)
    )
    assert (gaussian.status, gaussian.basis) == (Status.HOLDS, Basis.PROOF)
    wrong = check_integral(x**2, (x, 0, 1), sp.Rational(1, 2))
    assert (wrong.status, wrong.basis) == (Status.FAILS, Basis.PROOF)
    assert "integral over x from 0 to 1" in wrong.detail
    assert "1/3" in wrong.detail


def test_an_integral_sympy_leaves_unevaluated_is_inconclusive() -> None:
    verdict = check_integral(sp.exp(sp.sin(x)) / x, (x, 1, 2), 0)
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.UNEVALUATED)


def test_an_integral_past_its_budget_is_inconclusive() -> None:
    clear_cache()
    verdict = check_integral(
        sp.exp(-(x**2)) * sp.cos(3 * x), (x, 0, sp.oo), 0, budget_seconds=1e-3
    )
    assert (verdict.status, verdict.reason) == (Status.INCONCLUSIVE, Reason.BUDGET)


def test_integral_limits_are_checked() -> None:
    with pytest.raises(InvalidArgumentError, match="limits"):
        check_integral(x, (0, 1), 0)  # type: ignore[arg-type]


def test_a_limit_sympy_gives_up_on_is_unevaluated_not_a_crash() -> None:
    # SymPy raises NotImplementedError ("Not sure of sign of ...") on the
    # limit of a power with a symbolic exponent of unknown sign.
    p = sp.Symbol("p", positive=True)
    v = sp.Symbol("v", positive=True)
    verdict = check_limit(v ** (p / 2 - sp.Rational(1, 2)), v, 0, 0)
    assert verdict.status == Status.INCONCLUSIVE
    assert verdict.reason == Reason.UNEVALUATED
    assert "cannot take it" in verdict.detail


# Issue 21, item 2: the default samplers honour integer=True. A relation true
# only at integers held as `fails` (a certified counterexample at a real t the
# symbol excludes) and one false at an integer went `inconclusive`.
t_integer = sp.Symbol("t", integer=True)
n_positive_integer = sp.Symbol("n", integer=True, positive=True)


def test_a_relation_true_at_every_integer_holds_numerically() -> None:
    # cos(2 pi t) = 1 for integer t only; SymPy would prove it, so the numeric
    # fallback is asked directly (symbolic=False).
    cosine = sp.cos(2 * sp.pi * t_integer, evaluate=False)
    verdict = check_identity(cosine, sp.Integer(1), symbolic=False)
    assert verdict.status == Status.HOLDS, verdict.detail
    assert verdict.basis == Basis.NUMERICAL


def test_an_inequality_true_at_every_integer_holds_numerically(
    sympy_out_of_time: None,
) -> None:
    # n**2 >= n at positive integers; at n = 1/2 it is 1/4 < 1/2.
    verdict = check_inequality(n_positive_integer, n_positive_integer**2)
    assert verdict.status == Status.HOLDS, verdict.detail
    assert verdict.basis == Basis.NUMERICAL


def test_a_relation_false_at_an_integer_fails_with_an_integer_counterexample() -> None:
    verdict = check_identity((-1) ** t_integer, sp.Integer(1))
    assert verdict.status == Status.FAILS, verdict.detail
    assert verdict.basis == Basis.CERTIFIED
    # The certified point is an odd integer, written exactly.
    assert verdict.counterexample is not None
    written = verdict.counterexample.split(" (exactly)")[0].removeprefix("at t=")
    assert int(written) % 2 == 1, verdict.counterexample


def test_an_inequality_false_at_an_integer_fails_at_an_integer() -> None:
    # n**2 <= 50 n fails at every integer n > 50 (and holds at n <= 50).
    verdict = check_inequality(
        n_positive_integer**2, 50 * n_positive_integer, budget_seconds=5.0
    )
    assert verdict.status == Status.FAILS, verdict.detail
    assert verdict.counterexample is not None
    written = verdict.counterexample.split(" (exactly)")[0].removeprefix("at n=")
    assert int(written) > 50, verdict.counterexample


def test_an_integer_point_is_evaluated_at_full_precision() -> None:
    # 1/n with a Python int n would be a float (16 digits): the residual of
    # this true identity would then look like a 1e-17 counterexample.
    n = n_positive_integer
    verdict = check_identity(
        1 / n + 1 / (n + 1), (2 * n + 1) / (n * (n + 1)), symbolic=False
    )
    assert verdict.status == Status.HOLDS, verdict.detail
