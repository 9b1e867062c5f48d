"""Reusable checks: exact proof first, high-precision numerics as the fallback.

Symbolic checks try to decide a statement exactly (simplify a difference to
zero, compute a limit or a series). When SymPy cannot decide within its time
budget, :func:`check_identity` falls back to evaluating the residual with
mpmath at 50 digits at random points of the stated domain and says so in the
verdict: ``holds (numerically, 200 points, max residual ...)``.

The relation helpers (:func:`check_identity`, :func:`check_inequality`,
:func:`check_limit`, :func:`check_series`, :func:`check_integral`,
:func:`check_equal`, :func:`judge_relation`) take the relation they decide
as their arguments, so a claim written as a bare call,
``check=lambda: check_identity(lhs, rhs)``, states its relation once: while
:mod:`implicit_bias.claims.recording` records a check, each helper records
the relation it is handed instead of deciding it (the LaTeX ledger typesets
it), and while it replays one, the helper decides a mutant of that relation
(``implicit-bias mutate``). Otherwise they decide their arguments, and
nothing else changes.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np
import numpy.typing as npt
import sympy as sp

from implicit_bias.claims.certify import (
    Certificate,
    certified_nonzero,
    certified_sign,
    exact_point,
)
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.claims.function_instances import (
    refute_at_instances,
    undefined_functions,
)
from implicit_bias.claims.parametric import decide_parametric, depends_on_parameters
from implicit_bias.claims.samplers import (
    Sampler,
    from_assumptions,
    interval,
    log_uniform,
)
from implicit_bias.claims.recording import (
    helper_call,
    note_comparison,
    recording_or_replaying,
)
from implicit_bias.claims.engine import (
    Basis,
    CheckTimeout,
    Reason,
    Status,
    Verdict,
    time_limit,
)

__all__ = [
    "DEFAULT_DPS",
    "BiasInjection",
    "RelationCheck",
    "Sampler",
    "capped_budgets",
    "check_close",
    "check_equal",
    "check_identity",
    "check_inequality",
    "check_integral",
    "check_limit",
    "check_series",
    "close_or_undecided",
    "default_sampler",
    "injected_bias",
    "interval",
    "judge_relation",
    "log_uniform",
    "relation_check",
]

#: Digits of the numeric fallback.
DEFAULT_DPS = 50
#: A residual is "zero" at DEFAULT_DPS digits when below this, relative to the
#: size of the terms: 10 digits of headroom for cancellation in the residual.
_RELATIVE_ZERO = mpmath.mpf(10) ** (-(DEFAULT_DPS - 10))


@dataclass
class BiasInjection:
    """A shift of the values :func:`check_close` compares, in tolerances."""

    factor: float
    #: How many comparisons were shifted.
    comparisons: int = 0


@dataclass
class _Instrumentation:
    """Mutation testing's hooks (see :mod:`implicit_bias.claims.mutate`)."""

    #: Upper bound on every symbolic step's budget, or None.
    budget_cap: float | None = None
    injection: BiasInjection | None = None


_INSTRUMENTATION = _Instrumentation()


def _budget(seconds: float) -> float:
    cap = _INSTRUMENTATION.budget_cap
    return seconds if cap is None else min(seconds, cap)


@contextlib.contextmanager
def capped_budgets(seconds: float) -> Iterator[None]:
    """Within the block, no symbolic step of these checks gets more than
    ``seconds`` of CPU time (mutation testing judges many relations)."""
    previous = _INSTRUMENTATION.budget_cap
    _INSTRUMENTATION.budget_cap = seconds
    try:
        yield
    finally:
        _INSTRUMENTATION.budget_cap = previous


@contextlib.contextmanager
def injected_bias(factor: float) -> Iterator[BiasInjection]:
    """Within the block, :func:`check_close` shifts the value it compares by
    ``factor`` times its tolerance before deciding, so mutation testing can
    ask whether a claim's whole decision notices an error of that size.

    The yielded :class:`BiasInjection` counts the comparisons shifted.
    """
    previous = _INSTRUMENTATION.injection
    injection = _INSTRUMENTATION.injection = BiasInjection(factor)
    try:
        yield injection
    finally:
        _INSTRUMENTATION.injection = previous


def default_sampler(symbol: sp.Symbol) -> Sampler:
    """The sampler of a symbol given none: :func:`from_assumptions` (integers for
    ``integer=True``, signs from the assumptions); the name existing code uses."""
    return from_assumptions(symbol)


@dataclass(frozen=True)
class _Residuals:
    """The numeric fallback's sample: the worst finite relative residual, where
    it is, and the points where the residual or the scale is not a finite real."""

    worst: mpmath.mpf
    #: None when no point gave a finite residual.
    worst_point: dict[sp.Symbol, int | mpmath.mpf] | None
    non_finite: int
    non_finite_point: dict[sp.Symbol, int | mpmath.mpf]


def _finite_real(value: object) -> bool:
    return isinstance(value, mpmath.mpf) and bool(mpmath.isfinite(value))


def _numeric_residual(
    residual: sp.Expr,
    scale: sp.Expr,
    samplers: Mapping[sp.Symbol, Sampler],
    points: int,
    seed: int,
    *,
    signed: bool = False,
) -> _Residuals:
    """|residual| / (|scale| + 1e-300) at random points, split into finite and not.

    With ``signed``, the largest residual / (|scale| + 1e-300) instead (the
    most positive, not the largest in size).
    """
    if points < 1:
        raise InvalidArgumentError(f"points: must be >= 1, got {points!r}")
    rng = np.random.default_rng(seed)
    symbols = sorted(residual.free_symbols | scale.free_symbols, key=str)
    with mpmath.workdps(DEFAULT_DPS):
        f_residual = sp.lambdify(symbols, residual, modules="mpmath")
        f_scale = sp.lambdify(symbols, scale, modules="mpmath")
        worst = mpmath.mpf(0)
        worst_point: dict[sp.Symbol, int | mpmath.mpf] | None = None
        non_finite = 0
        non_finite_point: dict[sp.Symbol, int | mpmath.mpf] = {}
        drawers = {
            s: samplers[s] if s in samplers else default_sampler(s) for s in symbols
        }
        for _ in range(points):
            point = {s: drawers[s](rng) for s in symbols}
            # An int point stays exact for the certificate; evaluated as a
            # Python int, 1/n would be a 16-digit float.
            values = [mpmath.mpmathify(point[s]) for s in symbols]
            try:
                # A constant side lambdifies to a Python number: make it mpmath's.
                difference = mpmath.mpmathify(f_residual(*values))
                size = mpmath.mpmathify(f_scale(*values))
            except (ZeroDivisionError, OverflowError, ValueError):
                # A pole (mpmath raises ValueError there) is a non-finite point.
                difference = size = mpmath.nan
            if not (_finite_real(difference) and _finite_real(size)):
                non_finite += 1
                non_finite_point = non_finite_point or point
                continue
            magnitude = difference if signed else abs(difference)
            ratio = magnitude / (abs(size) + mpmath.mpf(10) ** -300)
            if worst_point is None or ratio > worst:
                worst, worst_point = ratio, point
    return _Residuals(worst, worst_point, non_finite, non_finite_point)


def _format_point(point: Mapping[sp.Symbol, int | mpmath.mpf]) -> str:
    return _joined(
        f"{s}={v if isinstance(v, int) else mpmath.nstr(v, 8)}"
        for s, v in point.items()
    )


def _joined(coordinates: Iterable[str]) -> str:
    return ", ".join(coordinates) or "(no free symbols: the sides are constants)"


def _decimal_point(point: Mapping[sp.Symbol, mpmath.mpf]) -> dict[sp.Symbol, Fraction]:
    """The point rounded to 15 significant digits, as exact rationals: a
    counterexample is certified at the decimal point it is reported at."""
    return {
        s: Fraction(mpmath.nstr(v, 15, min_fixed=-mpmath.inf, max_fixed=mpmath.inf))
        for s, v in point.items()
    }


def _at_integers(
    expression: sp.Expr, point: Mapping[sp.Symbol, int | mpmath.mpf]
) -> tuple[sp.Expr, dict[sp.Symbol, mpmath.mpf]]:
    """``expression`` with the int coordinates of ``point`` substituted exactly,
    and the other coordinates: SymPy then evaluates what has a meaning only at
    integers, such as (-1)**t, which ball arithmetic would take through log(-1)."""
    integers = {s: sp.Integer(v) for s, v in point.items() if isinstance(v, int)}
    reals = {s: v for s, v in point.items() if s not in integers}
    return expression.subs(integers), reals


def _certify(
    expression: sp.Expr,
    point: Mapping[sp.Symbol, int | mpmath.mpf],
    sign: int | None,
    *,
    violated: bool,
) -> tuple[Certificate, dict[str, str]]:
    """Certify ``expression`` nonzero (or of ``sign``) at the sampled ``point``,
    or, when the sample shows a clear violation there (``violated``), at the
    point rounded to 15 digits, a neighbour short enough to report. Returns
    the certificate and the point it holds at, written exactly by symbol name
    (:func:`~implicit_bias.claims.certify.exact_point`; an int coordinate as
    it is), or ``{}`` when it is not certified."""
    expression, reals = _at_integers(expression, point)
    candidates: list[dict[sp.Symbol, mpmath.mpf | Fraction]] = []
    if violated:
        candidates.append(_decimal_point(reals))
    candidates.append(dict(reals))
    certificate = Certificate(False, "", 0)
    for candidate in candidates:
        certificate = (
            certified_nonzero(expression, candidate)
            if sign is None
            else certified_sign(expression, candidate, sign)
        )
        if certificate.certified:
            # In the sampled point's order, with its int coordinates.
            return certificate, exact_point({**point, **candidate})
    return certificate, {}


def _written(point: Mapping[str, str]) -> str:
    """An exact point as a counterexample's text: ``x=1.5, y=1/3``."""
    return _joined(f"{name}={value}" for name, value in point.items())


def check_identity(
    lhs: sp.Expr,
    rhs: sp.Expr,
    *,
    samplers: Mapping[sp.Symbol, Sampler] | None = None,
    substitutions: Mapping[sp.Expr, sp.Expr] | None = None,
    budget_seconds: float = 20.0,
    points: int = 200,
    seed: int = 0,
    symbolic: bool = True,
) -> Verdict:
    """Decide ``lhs == rhs``: exactly if SymPy can, else at 50 digits numerically.

    Sides that are matrices, or hold them (a trace), are decided by
    :func:`~implicit_bias.claims.matrix_checks.check_matrix_identity`: exactly,
    else at exact rational instances.

    Args:
      lhs, rhs: the two sides.
      samplers: how to draw each free symbol for the numeric fallback (default
        from its assumptions, see :func:`default_sampler`).
      substitutions: applied to the difference before anything else (e.g. a
        constraint such as a unit-norm condition solved for one coordinate).
      budget_seconds: time for the exact attempt before falling back.
      points: random points of the numeric fallback.
      seed: seed of the numeric fallback's generator.
      symbolic: whether to try SymPy (expand, cancel, simplify) first; False
        goes straight to the numeric check, for forms known not to simplify.

    Returns:
      ``holds`` with "exact" or "numerically, N points, max residual r" (only
      when the residual is a finite real at every point); ``fails`` with the
      worst finite point, its residual and the ball enclosing lhs - rhs there
      that excludes 0 (a certified counterexample, see
      :mod:`implicit_bias.claims.certify`); ``inconclusive`` when that point
      cannot be certified (``Reason.UNDECIDED``), or when no point
      refutes it but some are not finite reals (``Reason.NON_FINITE``) or the
      residual cannot be evaluated (``Reason.UNEVALUATED``).
    """
    if recording_or_replaying():
        again = functools.partial(
            check_identity,
            samplers=samplers,
            substitutions=substitutions,
            budget_seconds=budget_seconds,
            points=points,
            seed=seed,
            symbolic=symbolic,
        )
        return _two_sided("check_identity", sp.Eq, again, lhs, rhs, substitutions)
    # Imported here: matrix_checks builds on this module.
    from implicit_bias.claims import matrix_checks

    if matrix_checks.involves_matrices(lhs) or matrix_checks.involves_matrices(rhs):
        return matrix_checks.check_matrix_identity(
            lhs,
            rhs,
            samplers=samplers,
            substitutions=substitutions,
            budget_seconds=budget_seconds,
            points=points,
            seed=seed,
            symbolic=symbolic,
        )
    difference = sp.sympify(lhs - rhs)
    if substitutions:
        difference = sp.expand(difference).subs(substitutions)
    # Past the budget, fall through to the numeric check.
    with contextlib.suppress(CheckTimeout), time_limit(_budget(budget_seconds)):
        for method in (sp.expand, sp.cancel, sp.simplify) if symbolic else ():
            if method(difference) == 0:
                return Verdict.holds(
                    f"exact: {method.__name__}(lhs - rhs) = 0", Basis.PROOF
                )
    if undefined_functions(lhs, rhs):
        # omega(s) cannot be evaluated: refute at concrete functions instead.
        decide = functools.partial(
            check_identity, samplers=samplers, points=points, seed=seed, symbolic=False
        )
        at_instances = refute_at_instances(
            lhs, rhs, decide, substitutions=substitutions, seed=seed
        )
        if at_instances is not None:
            return at_instances
    scale = sp.Abs(sp.sympify(lhs)) + sp.Abs(sp.sympify(rhs))
    if substitutions:
        scale = scale.subs(substitutions)
    try:
        sample = _numeric_residual(difference, scale, samplers or {}, points, seed)
    except (TypeError, NameError, NotImplementedError) as error:
        # lambdify leaves what it cannot translate (an unevaluated Integral,
        # an undefined function) as a name or object mpmath cannot evaluate.
        return Verdict.inconclusive(
            f"the residual cannot be evaluated numerically ({error})",
            Reason.UNEVALUATED,
        )
    if sample.worst_point is not None and sample.worst > _RELATIVE_ZERO:
        where = _format_point(sample.worst_point)
        certificate, exact = _certify(
            difference, sample.worst_point, None, violated=True
        )
        if certificate.certified:
            counterexample = (
                f"at {_written(exact)} (exactly), lhs - rhs is in "
                f"{certificate.enclosure} (ball arithmetic, {certificate.bits} "
                "bits), which excludes 0"
            )
            return Verdict.fails(
                f"relative residual {mpmath.nstr(sample.worst, 6)} at {where}; "
                f"certified: {counterexample}",
                Basis.CERTIFIED,
                counterexample,
                # A relation between constants has no point.
                point=exact or None,
            )
        return Verdict.inconclusive(
            f"relative residual {mpmath.nstr(sample.worst, 6)} at {where} in "
            f"{DEFAULT_DPS}-digit arithmetic, but not certified: "
            f"{certificate.enclosure or 'no enclosure'}",
            Reason.UNDECIDED,
        )
    if sample.non_finite:
        others = (
            f"; at the other points the max relative residual is "
            f"{mpmath.nstr(sample.worst, 3)}"
            if sample.worst_point is not None
            else ""
        )
        return Verdict.inconclusive(
            f"the residual or the size of the sides is not a finite real at "
            f"{sample.non_finite} of {points} points (e.g. "
            f"{_format_point(sample.non_finite_point)}){others}",
            Reason.NON_FINITE,
        )
    return Verdict.holds(
        f"numerically, {points} points at {DEFAULT_DPS} digits, "
        f"max relative residual {mpmath.nstr(sample.worst, 3)} (tolerance "
        f"{mpmath.nstr(_RELATIVE_ZERO, 1)})",
        Basis.NUMERICAL,
    )


def check_close(
    observed: npt.ArrayLike,
    reference: npt.ArrayLike,
    tolerance: npt.ArrayLike,
    *,
    what: str,
    relative: bool = False,
    basis: Basis = Basis.NUMERICAL,
) -> Verdict:
    r"""Decide :math:`|\mathrm{observed} - \mathrm{reference}| \le \mathrm{tol}`
    everywhere (relative: :math:`\le \mathrm{tol}\,|\mathrm{reference}|`).

    The tolerance must come from theory (rounding, a method's error order,
    ``z`` standard errors, with ``basis=Basis.STATISTICAL``); arrays broadcast.
    ``holds`` when every difference is within it; ``fails`` at the worst
    entry otherwise; ``inconclusive`` (``Reason.NON_FINITE``) when a value is
    not finite. ``what`` names the compared quantity in the evidence.

    Under :func:`injected_bias` the observed value is first shifted by a
    given number of tolerances, so mutation testing can ask whether a claim
    notices an error of that size.
    """
    note_comparison()
    raw = [np.asarray(v) for v in (observed, reference, tolerance)]
    complex_values = [v for v in raw if np.iscomplexobj(v) and np.any(np.imag(v))]
    if complex_values:
        return Verdict.inconclusive(
            f"{what}: a compared value or tolerance is complex, where a real is due",
            Reason.NON_FINITE,
        )
    observed_array, reference_array, tolerance_array = np.broadcast_arrays(
        *(np.real(v).astype(np.float64) for v in raw)
    )
    if np.any(tolerance_array < 0):
        raise InvalidArgumentError(
            f"tolerance: must be >= 0 (a derived bound), got {tolerance_array.min()}"
        )
    bound = tolerance_array * (np.abs(reference_array) if relative else 1.0)
    injection = _INSTRUMENTATION.injection
    if injection is not None:
        injection.comparisons += 1
        observed_array = observed_array + injection.factor * bound
    values = (observed_array, reference_array, bound)
    if not all(np.all(np.isfinite(v)) for v in values):
        bad = int(np.sum(~np.isfinite(observed_array) | ~np.isfinite(reference_array)))
        bad_bounds = int(np.sum(~np.isfinite(bound)))
        return Verdict.inconclusive(
            f"{what}: {bad} of {observed_array.size} compared values and "
            f"{bad_bounds} tolerances are not finite",
            Reason.NON_FINITE,
        )
    excess = np.abs(observed_array - reference_array) - bound
    worst = int(np.argmax(excess)) if excess.size else 0
    if excess.size == 0:
        return Verdict.inconclusive(f"{what}: nothing to compare", Reason.UNDECIDED)
    flat = [a.ravel()[worst] for a in (observed_array, reference_array, bound)]
    kind = "relative " if relative else ""
    detail = (
        f"{what}: max |observed - reference| over {excess.size} values "
        f"(float64) is "
        f"{np.max(np.abs(observed_array - reference_array)):.3g}; at the worst, "
        f"{flat[0]:.10g} against {flat[1]:.10g} with {kind}tolerance "
        f"{tolerance_array.ravel()[worst]:.3g}"
    )
    if excess[np.unravel_index(worst, excess.shape)] <= 0:
        return Verdict.holds(detail, basis)
    return Verdict.fails(
        detail,
        basis,
        f"{what} = {flat[0]:.10g}, reference {flat[1]:.10g}, beyond {flat[2]:.3g}",
    )


def close_or_undecided(
    observed: npt.ArrayLike,
    reference: npt.ArrayLike,
    tolerance: npt.ArrayLike,
    *,
    what: str,
    relative: bool = False,
) -> Verdict:
    """:func:`check_close` on a numerical basis, for floating-point evidence about
    a closed form: a miss is ``inconclusive`` (``Reason.UNDECIDED``), not a
    ``fails`` (a float outside its tolerance is no certified counterexample to a
    closed-form statement)."""
    verdict = check_close(observed, reference, tolerance, what=what, relative=relative)
    if verdict.status != Status.FAILS:
        return verdict
    return Verdict.inconclusive(
        f"{verdict.detail}; outside the tolerance in floating point, not certified",
        Reason.UNDECIDED,
        Basis.NUMERICAL,
    )


def check_inequality(
    lhs: sp.Expr,
    rhs: sp.Expr,
    *,
    strict: bool = False,
    samplers: Mapping[sp.Symbol, Sampler] | None = None,
    substitutions: Mapping[sp.Expr, sp.Expr] | None = None,
    budget_seconds: float = 20.0,
    points: int = 200,
    seed: int = 0,
) -> Verdict:
    r"""Decide :math:`\mathrm{lhs} \le \mathrm{rhs}` (``<`` if ``strict``).

    First SymPy: ``holds`` on a proof that ``rhs - lhs`` is nonnegative
    (positive) under the symbols' assumptions. Else the gap ``rhs - lhs``
    is sampled at ``points`` random points at 50 digits (``samplers`` as in
    :func:`check_identity`): ``fails`` only when the gap at the worst point
    is certified negative by ball arithmetic (a point where a strict
    inequality is an equality cannot be certified, so it is
    ``inconclusive``); ``holds`` numerically when every gap is a finite real
    and none is below :math:`-10^{-40}` relative to the sides;
    ``inconclusive`` otherwise.
    """
    if recording_or_replaying():
        again = functools.partial(
            check_inequality,
            strict=strict,
            samplers=samplers,
            substitutions=substitutions,
            budget_seconds=budget_seconds,
            points=points,
            seed=seed,
        )
        relation = sp.Lt if strict else sp.Le
        return _two_sided("check_inequality", relation, again, lhs, rhs, substitutions)
    gap = sp.sympify(rhs - lhs)
    if substitutions:
        gap = sp.expand(gap).subs(substitutions)
    with contextlib.suppress(CheckTimeout), time_limit(_budget(budget_seconds)):
        simplified = sp.simplify(gap)
        proven = simplified.is_positive if strict else simplified.is_nonnegative
        if proven:
            return Verdict.holds(
                f"exact: SymPy shows rhs - lhs = {sp.sstr(simplified)} "
                f"{'> 0' if strict else '>= 0'}",
                Basis.PROOF,
            )
    if undefined_functions(lhs, rhs):
        decide = functools.partial(
            check_inequality,
            strict=strict,
            samplers=samplers,
            budget_seconds=budget_seconds,
            points=points,
            seed=seed,
        )
        at_instances = refute_at_instances(
            lhs, rhs, decide, substitutions=substitutions, seed=seed
        )
        if at_instances is not None:
            return at_instances
    scale = sp.Abs(sp.sympify(lhs)) + sp.Abs(sp.sympify(rhs))
    if substitutions:
        scale = scale.subs(substitutions)
    # The most violating point is the one where -gap is largest: sample -gap as
    # a "residual" that must not be positive.
    try:
        sample = _numeric_residual(
            -gap, scale, samplers or {}, points, seed, signed=True
        )
    except (TypeError, NameError, NotImplementedError) as error:
        return Verdict.inconclusive(
            f"the gap cannot be evaluated numerically ({error})", Reason.UNEVALUATED
        )
    relation = "<" if strict else "<="
    if sample.worst_point is not None and sample.worst > -_RELATIVE_ZERO:
        where = _format_point(sample.worst_point)
        certificate, exact = _certify(
            gap, sample.worst_point, -1, violated=sample.worst > _RELATIVE_ZERO
        )
        if certificate.certified:
            counterexample = (
                f"at {_written(exact)} (exactly), rhs - lhs is in "
                f"{certificate.enclosure} (ball arithmetic, {certificate.bits} "
                "bits), which is < 0"
            )
            return Verdict.fails(
                f"lhs {relation} rhs is violated by {mpmath.nstr(sample.worst, 6)} "
                f"relative at {where}; certified: {counterexample}",
                Basis.CERTIFIED,
                counterexample,
                # A relation between constants has no point.
                point=exact or None,
            )
        if sample.worst > _RELATIVE_ZERO:
            return Verdict.inconclusive(
                f"lhs {relation} rhs violated by {mpmath.nstr(sample.worst, 6)} "
                f"relative at {where} in {DEFAULT_DPS}-digit arithmetic, but not "
                f"certified: {certificate.enclosure or 'no enclosure'}",
                Reason.UNDECIDED,
            )
        if (
            strict
            and not certified_sign(*_at_integers(gap, sample.worst_point), +1).certified
        ):
            return Verdict.inconclusive(
                f"rhs - lhs is 0 to {DEFAULT_DPS - 10} digits at {where}: a strict "
                "inequality cannot be refuted by an equality in ball arithmetic",
                Reason.UNDECIDED,
            )
        # A non-strict inequality met with equality to 40 digits holds there
        # within the numeric tolerance; a strict one holds where the tiny gap
        # is certified positive.
    if sample.non_finite:
        return Verdict.inconclusive(
            f"the gap or the size of the sides is not a finite real at "
            f"{sample.non_finite} of {points} points (e.g. "
            f"{_format_point(sample.non_finite_point)})",
            Reason.NON_FINITE,
        )
    return Verdict.holds(
        f"numerically, {points} points at {DEFAULT_DPS} digits, min relative "
        f"gap rhs - lhs {mpmath.nstr(-sample.worst, 3)} (tolerance "
        f"{mpmath.nstr(_RELATIVE_ZERO, 1)}: a smaller violation is equality)",
        Basis.NUMERICAL,
    )


def _unevaluated(expression: sp.Basic) -> bool:
    return bool(expression.has(sp.Limit, sp.Integral, sp.Subs, sp.Derivative, sp.Order))


def check_equal(
    value: sp.Expr,
    expected: sp.Expr,
    *,
    what: str = "value",
    budget_seconds: float = 30.0,
) -> Verdict:
    """Decide ``value == expected`` for a computed result (a limit, a series...).

    ``holds`` when they are identical or their difference simplifies to 0;
    ``fails`` when one is infinite and the other not (or a different infinity),
    when SymPy shows the difference nonzero, or when :func:`check_identity`
    finds a point where it is; ``inconclusive`` on NaN, a timeout or an
    undecided numeric sample. A result that depends on its parameters through
    an infinity, a ``sign``, a ``Piecewise``, an ``Abs``...
    (:func:`~implicit_bias.claims.parametric.depends_on_parameters`) is never
    decided by SymPy's ``is_zero`` / ``is_infinite``, which may hold for some
    parameter values only, but at exact parameter values drawn from the
    symbols' domains and intervals
    (:func:`~implicit_bias.claims.parametric.decide_at_points`).

    Args:
      value: the computed result; ``what`` names it in the evidence.
      expected: what the claim says it is.
      budget_seconds: CPU time for each symbolic step.
    """
    if recording_or_replaying():
        again = functools.partial(check_equal, what=what, budget_seconds=budget_seconds)
        return _two_sided("check_equal", sp.Eq, again, value, expected)
    value, expected = sp.sympify(value), sp.sympify(expected)
    if _unevaluated(value):
        return Verdict.inconclusive(
            f"{what} is the unevaluated {sp.sstr(value)}", Reason.UNEVALUATED
        )
    if value == expected:
        return Verdict.holds(f"exact: {what} = {sp.sstr(value)}", Basis.PROOF)
    if value is sp.nan or expected is sp.nan:
        return Verdict.inconclusive(f"{what} is {sp.sstr(value)}", Reason.UNDECIDED)
    if depends_on_parameters(value) or depends_on_parameters(expected):
        return decide_parametric(
            value, expected, what=what, budget_seconds=_budget(budget_seconds)
        )
    if value.is_infinite or expected.is_infinite:
        # Two different infinities, or an infinity and a finite value.
        return Verdict.fails(
            f"{what} is {sp.sstr(value)}, not {sp.sstr(expected)}",
            Basis.PROOF,
            f"{what} = {sp.sstr(value)}",
        )
    with contextlib.suppress(CheckTimeout), time_limit(_budget(budget_seconds)):
        difference = sp.simplify(value - expected)
        if difference == 0:
            return Verdict.holds(f"exact: {what} = {sp.sstr(value)}", Basis.PROOF)
        if difference.is_zero is False:
            return Verdict.fails(
                f"{what} is {sp.sstr(value)}, not {sp.sstr(expected)} (they differ "
                f"by {sp.sstr(difference)}, which SymPy shows nonzero)",
                Basis.PROOF,
                f"{what} - expected = {sp.sstr(difference)} != 0",
            )
    numeric = check_identity(value, expected, budget_seconds=budget_seconds)
    return numeric.with_detail(
        f"{what} is {sp.sstr(value)}; against {sp.sstr(expected)}: {numeric.detail}"
    )


def check_limit(
    expression: sp.Expr,
    variable: sp.Symbol,
    point: sp.Expr,
    expected: sp.Expr,
    *,
    direction: str = "+",
    budget_seconds: float = 30.0,
) -> Verdict:
    """Decide ``lim_{variable -> point} expression == expected`` with SymPy.

    ``fails`` only when the limit is evaluated and SymPy shows it differs from
    ``expected`` (or a numeric sample of the difference does); an unevaluated
    ``Limit`` or a timeout is ``inconclusive``.
    """
    if recording_or_replaying():
        return helper_call(
            "check_limit",
            lambda: sp.Eq(
                sp.Limit(expression, variable, point, dir=direction),
                expected,
                evaluate=False,
            ),
            functools.partial(_limit_of, budget_seconds=budget_seconds),
            lambda: check_limit(
                expression,
                variable,
                point,
                expected,
                direction=direction,
                budget_seconds=budget_seconds,
            ),
        )
    try:
        with time_limit(_budget(budget_seconds)):
            value = sp.limit(expression, variable, point, dir=direction)
    except CheckTimeout:
        return Verdict.inconclusive(
            f"sympy.limit did not finish within {_budget(budget_seconds):g} s",
            Reason.BUDGET,
        )
    except NotImplementedError as error:
        # SymPy gives up on limits it cannot decide (e.g. "Not sure of sign of
        # p/2 - 1/2" for a symbolic exponent): no limit, no verdict.
        return Verdict.inconclusive(
            f"sympy.limit cannot take it: {error}", Reason.UNEVALUATED
        )
    return check_equal(value, expected, what="limit", budget_seconds=budget_seconds)


def check_series(
    expression: sp.Expr,
    variable: sp.Symbol,
    expected: sp.Expr,
    order: int,
    *,
    budget_seconds: float = 30.0,
) -> Verdict:
    """Decide that ``expression = expected + O(variable**order)`` at 0 with SymPy.

    ``fails`` only when the truncated series is evaluated and differs from
    ``expected`` (shown by SymPy or a numeric sample); an unevaluated result or
    a timeout is ``inconclusive``.
    """
    if recording_or_replaying():
        again = functools.partial(check_series, budget_seconds=budget_seconds)
        return helper_call(
            "check_series",
            lambda: sp.Eq(
                expression,
                # Unevaluated: O(x**n) would absorb the terms of order n and
                # beyond that the claim states, and the relation would not
                # be the call's.
                sp.Add(
                    *sp.Add.make_args(sp.sympify(expected)),
                    sp.O(variable**order),
                    evaluate=False,
                ),
                evaluate=False,
            ),
            lambda relation: again(
                relation.lhs, variable, relation.rhs.removeO(), order
            ),
            lambda: again(expression, variable, expected, order),
        )
    try:
        with time_limit(_budget(budget_seconds)):
            series = sp.expand(sp.series(expression, variable, 0, order).removeO())
    except CheckTimeout:
        return Verdict.inconclusive(
            f"sympy.series did not finish within {_budget(budget_seconds):g} s",
            Reason.BUDGET,
        )
    return check_equal(
        series,
        sp.expand(sp.sympify(expected)),
        what=f"series to O({variable}**{order})",
        budget_seconds=budget_seconds,
    )


def check_integral(
    integrand: sp.Expr,
    limits: tuple[sp.Symbol, sp.Expr, sp.Expr],
    expected: sp.Expr,
    *,
    budget_seconds: float = 30.0,
) -> Verdict:
    r"""Decide :math:`\int_a^b f(x)\,dx = I` with SymPy.

    ``limits`` is ``(x, a, b)``. ``sympy.integrate`` runs under
    ``budget_seconds`` of CPU time (past it: ``inconclusive``,
    ``Reason.BUDGET``); an integral SymPy leaves unevaluated is
    ``inconclusive`` (``Reason.UNEVALUATED``); otherwise the value is
    compared with ``expected`` by :func:`check_equal`.

    Examples:
      >>> x = sp.Symbol("x", positive=True)
      >>> check_integral(sp.exp(-x), (x, 0, sp.oo), 1).status
      <Status.HOLDS: 'holds'>
      >>> check_integral(x**2, (x, 0, 1), sp.Rational(1, 2)).status
      <Status.FAILS: 'fails'>
    """
    if not (
        isinstance(limits, tuple)
        and len(limits) == 3
        and isinstance(limits[0], sp.Symbol)
    ):
        raise InvalidArgumentError(
            f"limits: a tuple (x, a, b) with x a SymPy Symbol, got {limits!r}"
        )
    variable, lower, upper = limits
    if recording_or_replaying():
        again = functools.partial(check_integral, budget_seconds=budget_seconds)
        return helper_call(
            "check_integral",
            lambda: sp.Eq(sp.Integral(integrand, limits), expected, evaluate=False),
            lambda relation: again(
                relation.lhs.function, tuple(relation.lhs.limits[0]), relation.rhs
            ),
            lambda: again(integrand, limits, expected),
        )
    try:
        with time_limit(_budget(budget_seconds)):
            value = sp.integrate(integrand, (variable, lower, upper))
    except CheckTimeout:
        return Verdict.inconclusive(
            f"sympy.integrate did not finish within {_budget(budget_seconds):g} s",
            Reason.BUDGET,
        )
    return check_equal(
        value,
        expected,
        what=f"integral over {variable} from {sp.sstr(lower)} to {sp.sstr(upper)}",
        budget_seconds=budget_seconds,
    )


def _two_sided(
    helper: str,
    relation: Callable[..., sp.Basic],
    again: Callable[[sp.Basic, sp.Basic], Verdict],
    lhs: sp.Basic,
    rhs: sp.Basic,
    substitutions: Mapping[sp.Expr, sp.Expr] | None = None,
) -> Verdict:
    """A call of ``helper(lhs, rhs, ...)`` while calls are recorded or
    replayed: its relation is ``relation(lhs, rhs)``, and ``again`` (the
    helper with the call's options) decides the two sides of one."""
    return helper_call(
        helper,
        lambda: relation(lhs, rhs, evaluate=False),
        lambda stated: again(*stated.args),
        lambda: again(lhs, rhs),
        substitutions=substitutions,
    )


def _limit_of(relation: sp.Basic, *, budget_seconds: float) -> Verdict:
    """:func:`check_limit` of ``Eq(Limit(f, x, a, dir), L)``."""
    limit, expected = relation.args
    expression, variable, point, direction = limit.args
    return check_limit(
        expression,
        variable,
        point,
        expected,
        direction=str(direction),
        budget_seconds=budget_seconds,
    )


#: The relations :func:`judge_relation` decides.
_JUDGED = (sp.Eq, sp.Le, sp.Lt, sp.Ge, sp.Gt)


def judge_relation(
    relation: sp.Basic,
    *,
    samplers: Mapping[sp.Symbol, Sampler] | None = None,
    substitutions: Mapping[sp.Expr, sp.Expr] | None = None,
    budget_seconds: float = 20.0,
    points: int = 200,
    symbolic: bool = True,
) -> Verdict:
    """Decide a SymPy relation with the check its form calls for.

    ``Eq(Limit(f, x, a, dir), L)``: :func:`check_limit`; ``Eq(a, b)``:
    :func:`check_identity` (``symbolic=False``: its numeric check only);
    ``a <= b``, ``a < b`` (and ``>=``, ``>``): :func:`check_inequality`.
    Unevaluated derivatives and integrals in the sides are evaluated
    (``doit``) first. Relations must be built with ``evaluate=False`` where
    SymPy would otherwise decide them on the spot.

    Raises:
      InvalidArgumentError: ``relation`` is not one of these forms.
    """
    if recording_or_replaying() and isinstance(relation, _JUDGED):
        again = functools.partial(
            judge_relation,
            samplers=samplers,
            substitutions=substitutions,
            budget_seconds=budget_seconds,
            points=points,
            symbolic=symbolic,
        )
        return helper_call(
            "judge_relation",
            lambda: relation,
            again,
            lambda: again(relation),
            substitutions=substitutions,
        )
    if isinstance(relation, sp.Eq):
        lhs, rhs = relation.lhs, relation.rhs
        if not isinstance(lhs, sp.Limit):
            # A relation may state a derivative or an integral unevaluated (as
            # the source writes it); the check compares what it evaluates to.
            try:
                with time_limit(_budget(budget_seconds)):
                    lhs, rhs = lhs.doit(), rhs.doit()
            except CheckTimeout:
                return Verdict.inconclusive(
                    f"evaluating the sides (doit) did not finish within "
                    f"{_budget(budget_seconds):g} s",
                    Reason.BUDGET,
                )
        if isinstance(lhs, sp.Limit) and not substitutions:
            expression, variable, point, direction = lhs.args
            return check_limit(
                expression,
                variable,
                point,
                rhs,
                direction=str(direction),
                budget_seconds=budget_seconds,
            )
        return check_identity(
            lhs,
            rhs,
            samplers=samplers,
            substitutions=substitutions,
            budget_seconds=budget_seconds,
            points=points,
            symbolic=symbolic,
        )
    if isinstance(relation, (sp.Le, sp.Lt, sp.Ge, sp.Gt)):
        smaller, larger = (
            (relation.lhs, relation.rhs)
            if isinstance(relation, (sp.Le, sp.Lt))
            else (relation.rhs, relation.lhs)
        )
        return check_inequality(
            smaller,
            larger,
            strict=isinstance(relation, (sp.Lt, sp.Gt)),
            samplers=samplers,
            substitutions=substitutions,
            budget_seconds=budget_seconds,
            points=points,
        )
    raise InvalidArgumentError(
        f"relation: an Eq, Le, Lt, Ge or Gt, got {type(relation).__name__}"
    )


@dataclass(frozen=True)
class RelationCheck:
    """A claim's check that takes the relation it checks as input.

    ``relation()`` builds the relation the claim states (its ``formula``, so
    the ledger typesets what is checked); ``judge(relation)`` decides it.
    Calling the check judges the claim's own relation; ``implicit-bias
    mutate`` judges altered copies of it with the same ``judge``.
    """

    relation: Callable[[], sp.Basic]
    judge: Callable[[sp.Basic], Verdict]
    #: The constraint the relation is stated under, as substitutions (e.g. a
    #: unit norm solved for one coordinate), if any.
    substitutions: Mapping[sp.Expr, sp.Expr] | None = None

    def __call__(self) -> Verdict:
        return self.judge(self.relation())


def relation_check(
    relation: Callable[[], sp.Basic],
    *,
    samplers: Mapping[sp.Symbol, Sampler] | None = None,
    substitutions: Mapping[sp.Expr, sp.Expr] | None = None,
    budget_seconds: float = 20.0,
    points: int = 200,
) -> RelationCheck:
    """A :class:`RelationCheck` deciding ``relation()`` with :func:`judge_relation`.

    Examples:
      >>> x = sp.Symbol("x", positive=True)
      >>> check = relation_check(lambda: sp.Eq(sp.log(x**2), 2 * sp.log(x)))
      >>> check().status, check().basis
      (<Status.HOLDS: 'holds'>, <Basis.PROOF: 'proof'>)
    """

    def judge(candidate: sp.Basic) -> Verdict:
        return judge_relation(
            candidate,
            samplers=samplers,
            substitutions=substitutions,
            budget_seconds=budget_seconds,
            points=points,
        )

    return RelationCheck(relation, judge, substitutions)
