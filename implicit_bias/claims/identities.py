"""Identities and inequalities between two sides: exact first, else sampled.

:func:`check_identity` and :func:`check_inequality` try SymPy within a CPU
budget, then the numeric fallback of
:mod:`implicit_bias.claims.numeric_fallback`; a ``fails`` carries a certified
counterexample. Sides holding matrices go to
:mod:`implicit_bias.claims.matrix_checks`.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Mapping

import mpmath
import sympy as sp

from implicit_bias.claims.certify import certified_sign
from implicit_bias.claims.engine import (
    Basis,
    CheckTimeout,
    Reason,
    Verdict,
    time_limit,
)
from implicit_bias.claims.function_instances import (
    refute_at_instances,
    undefined_functions,
)
from implicit_bias.claims.mutation_hooks import _budget
from implicit_bias.claims.numeric_fallback import (
    _RELATIVE_ZERO,
    DEFAULT_DPS,
    _at_integers,
    _certify,
    _format_point,
    _numeric_residual,
    _written,
)
from implicit_bias.claims.recording import helper_call, recording_or_replaying
from implicit_bias.claims.samplers import Sampler

__all__ = ["check_identity", "check_inequality"]


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
    :func:`check_identity`); when none violates the relation, a float64
    search from the closest (:func:`~.gap_search.search_violation`) proposes
    points, each evaluated at 50 digits: ``fails`` only when the gap at the
    worst point
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
            -gap,
            scale,
            samplers or {},
            points,
            seed,
            signed=True,
            sides=(_terms(lhs, substitutions), _terms(rhs, substitutions)),
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
        f"numerically, {points} points at {DEFAULT_DPS} digits and "
        f"{sample.searched or 'no local search'}, min relative "
        f"gap rhs - lhs {mpmath.nstr(-sample.worst, 3)} (tolerance "
        f"{mpmath.nstr(_RELATIVE_ZERO, 1)}: a smaller violation is equality)",
        Basis.NUMERICAL,
    )


def _terms(
    side: sp.Expr, substitutions: Mapping[sp.Expr, sp.Expr] | None
) -> list[sp.Expr]:
    """The terms of ``side`` as the gap is evaluated: under ``substitutions``
    (after expanding the term when a key is not a symbol, as the gap is)."""
    terms = list(sp.Add.make_args(sp.sympify(side)))
    if not substitutions:
        return terms
    if all(isinstance(key, sp.Symbol) for key in substitutions):
        return [t.subs(substitutions) for t in terms]
    return [sp.expand(t).subs(substitutions) for t in terms]


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
