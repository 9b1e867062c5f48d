r"""Symbols on an interval: :math:`a < q < b`, stated once, honoured by every check.

SymPy symbols carry signs (``positive=True``) but no bounds, so a statement
such as :math:`\lim_{t\to\infty} q^t = 0` for :math:`0 < q < 1` cannot be
written with a plain ``Symbol``: its checks would draw :math:`q > 1` and
refute it. :func:`bounded` returns the symbol *on an interval*: a
:class:`BoundedSymbol` that prints as the original (same name), carries the
sign assumptions the interval implies (``positive`` for :math:`0 < q < 1`,
so SymPy's own reasoning uses them), and carries the interval itself, which

* the samplers honour: :func:`~implicit_bias.claims.samplers.from_assumptions`
  draws the symbol inside its interval, so :func:`~implicit_bias.claims.check_identity`,
  :func:`~implicit_bias.claims.check_inequality` and the parametric decision of
  :func:`~implicit_bias.claims.check_equal` (:mod:`implicit_bias.claims.parametric`)
  sample only there;
* travels with the expression: the interval is part of the symbol, not of a
  registry, so it survives SymPy's caches, pickling between worker
  processes, recording and replaying of relations (``implicit-bias mutate``),
  and two claims using ``q`` on different intervals do not interfere.

A ``BoundedSymbol`` is a different symbol from the plain one it was made from
(``bounded(q, 0, 1) != q``): put it into an expression built from the plain
one with ``expression.xreplace({q: bounded(q, 0, 1)})``.

The interval is open, :math:`a < q < b`; an end may be infinite
(``sympy.oo``), so :math:`q > 1` is ``bounded(q, 1, sp.oo)``. For a symbolic
proof on the interval (which sampling never gives), reparametrize instead:
:math:`q = 1/(1 + s)` with ``s`` positive.

Examples:
  >>> import sympy as sp
  >>> q = sp.Symbol("q", positive=True)
  >>> share = bounded(q, 0, 1)
  >>> share, interval_of(share), share.is_positive
  (q, (0, 1), True)
  >>> interval_of(q) is None, share == bounded(q, 0, 1), share == q
  (True, True, False)
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import Any

import mpmath
import sympy as sp
from sympy.core.cache import cacheit
from sympy.core.symbol import Symbol

from implicit_bias.errors import InvalidArgumentError

__all__ = ["BoundedSymbol", "bounded", "interval_of", "within_interval"]


class BoundedSymbol(Symbol):
    r"""A real SymPy symbol with an open interval :math:`a < s < b`.

    Equal to another symbol only if the name, the assumptions and the
    interval agree; pickles with its interval, and ``srepr`` shows it. Build
    one with :func:`bounded`, which checks the interval and derives the
    assumptions; the constructor takes ``(name, lower, upper, **assumptions)``
    as they are (it is what unpickling calls).
    """

    __slots__ = ("lower", "upper")

    lower: sp.Expr
    upper: sp.Expr

    def __new__(
        cls, name: str, lower: sp.Expr, upper: sp.Expr, **assumptions: bool
    ) -> BoundedSymbol:
        cls._sanitize(assumptions, cls)
        return BoundedSymbol._cached(cls, name, lower, upper, **assumptions)

    @staticmethod
    @cacheit
    def _cached(
        cls: type[BoundedSymbol],
        name: str,
        lower: sp.Expr,
        upper: sp.Expr,
        **assumptions: bool,
    ) -> BoundedSymbol:
        # As SymPy caches a Symbol: one object per name, assumptions and
        # interval, so equal symbols are usually identical.
        symbol = Symbol.__xnew__(cls, name, **assumptions)
        symbol.lower, symbol.upper = sp.sympify(lower), sp.sympify(upper)
        return symbol

    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, bool]]:
        return (self.name, self.lower, self.upper), self._assumptions_orig

    def _hashable_content(self) -> tuple[Any, ...]:
        return (*Symbol._hashable_content(self), self.lower, self.upper)

    @cacheit
    def sort_key(self, order: object = None) -> tuple[Any, ...]:
        return (
            self.class_key(),
            (3, (self.name, str(self.lower), str(self.upper))),
            sp.S.One.sort_key(),
            sp.S.One,
        )

    def _sympyrepr(self, printer: Any) -> str:
        # srepr keys the verdict cache: the interval must be in it.
        assumptions = "".join(
            f", {key}={value}" for key, value in self._assumptions_orig.items()
        )
        return (
            f"BoundedSymbol({self.name!r}, {printer._print(self.lower)}, "
            f"{printer._print(self.upper)}{assumptions})"
        )


def _end(name: str, value: object) -> sp.Expr:
    """An end of an interval as an exact SymPy real or +-oo."""
    if isinstance(value, bool):
        raise InvalidArgumentError(
            f"{name}={value!r} is not a real number: {name} is an end of an interval"
        )
    if isinstance(value, float):
        if math.isnan(value):
            raise InvalidArgumentError(
                f"{name}={value!r} is not a real number: {name} is an end of an "
                "interval"
            )
        if math.isinf(value):
            return sp.oo if value > 0 else -sp.oo
        # A float means the decimal it prints as: 0.1 is 1/10.
        return sp.Rational(repr(value))
    if isinstance(value, (numbers.Rational, Fraction)):
        return sp.Rational(int(value.numerator), int(value.denominator))
    if isinstance(value, sp.Basic):
        end = sp.sympify(value)
        if (
            isinstance(end, sp.Expr)
            and not end.free_symbols
            and end.is_extended_real is True
        ):
            return end
    raise InvalidArgumentError(
        f"{name}={value!r} is not a real number or +-oo: {name} is an end of an "
        "interval (an int, a float, a Fraction, or a SymPy real such as "
        "Rational(1, 3), pi or oo)"
    )


def _is_true(relation: sp.Basic) -> bool:
    return relation is sp.true


def bounded(symbol: Symbol, lower: object, upper: object) -> BoundedSymbol:
    r"""``symbol`` restricted to the open interval :math:`a < s < b`.

    Let :math:`a` be ``lower`` and :math:`b` be ``upper``. The result has the
    symbol's name and assumptions, plus ``real``, ``positive`` when
    :math:`a \ge 0` and ``negative`` when :math:`b \le 0`; its interval is
    :math:`(a, b)` intersected with what its sign assumptions already say
    (a ``positive`` symbol bounded on :math:`(-1, 1)` is on :math:`(0, 1)`),
    and intersected with the interval of a symbol that already has one.

    Args:
      symbol: a SymPy ``Symbol`` (a :class:`BoundedSymbol` too).
      lower: :math:`a`: an int, a float (read as the decimal it prints as),
        a ``Fraction``, or a SymPy real number (``Rational(1, 3)``, ``pi``);
        ``-sympy.oo`` (or ``-math.inf``) for no lower bound.
      upper: :math:`b > a`, likewise; ``sympy.oo`` for no upper bound.

    Returns:
      The :class:`BoundedSymbol`, equal to every other made from the same
      symbol and interval.

    Raises:
      InvalidArgumentError: ``symbol`` is not a ``Symbol``; an end is not a
        real number or an infinity; :math:`a \ge b`; or the interval holds no
        value the symbol's assumptions allow (no integer for an ``integer``
        symbol, no positive value for a ``positive`` one).

    Examples:
      >>> q = sp.Symbol("q", positive=True)
      >>> interval_of(bounded(q, -1, 1))
      (0, 1)
      >>> interval_of(bounded(sp.Symbol("s"), 1, sp.oo))
      (1, oo)
      >>> bounded(q, 1, 1)  # doctest: +ELLIPSIS
      Traceback (most recent call last):
        ...
      implicit_bias.errors.InvalidArgumentError: upper=1 is not above lower=1: ...
    """
    if not isinstance(symbol, Symbol):
        raise InvalidArgumentError(
            f"symbol={symbol!r} is not a SymPy Symbol: only a symbol has an interval"
        )
    low, high = _end("lower", lower), _end("upper", upper)
    if not _is_true(sp.Lt(low, high)):
        raise InvalidArgumentError(
            f"upper={upper!r} is not above lower={lower!r}: the interval "
            f"({low}, {high}) is empty"
        )
    if symbol.is_real is False:
        raise InvalidArgumentError(
            f"symbol={symbol!r} is not real: an interval bounds a real symbol"
        )
    stated = (low, high)
    known = interval_of(symbol)
    if known is not None:
        low, high = sp.Max(low, known[0]), sp.Min(high, known[1])
    if symbol.is_nonnegative:
        low = sp.Max(low, 0)
    if symbol.is_nonpositive:
        high = sp.Min(high, 0)
    if not _is_true(sp.Lt(low, high)) or (
        symbol.is_integer and _is_true(sp.Gt(sp.floor(low) + 1, sp.ceiling(high) - 1))
    ):
        raise InvalidArgumentError(
            f"lower={lower!r}, upper={upper!r}: the interval ({stated[0]}, "
            f"{stated[1]}) holds no value of {symbol!r}, whose assumptions are "
            f"{symbol._assumptions_orig}"
            + (f" and whose interval is ({known[0]}, {known[1]})" if known else "")
        )
    assumptions = dict(symbol._assumptions_orig)
    assumptions["real"] = True
    if _is_true(sp.Ge(low, 0)):
        assumptions["positive"] = True
    if _is_true(sp.Le(high, 0)):
        assumptions["negative"] = True
    try:
        return BoundedSymbol(symbol.name, low, high, **assumptions)
    except sp.core.facts.InconsistentAssumptions as error:
        raise InvalidArgumentError(
            f"symbol={symbol!r}: its assumptions contradict the interval "
            f"({low}, {high}) ({error})"
        ) from error


def interval_of(symbol: sp.Basic) -> tuple[sp.Expr, sp.Expr] | None:
    """The open interval ``(lower, upper)`` of a :class:`BoundedSymbol`, else None.

    Examples:
      >>> x = sp.Symbol("x")
      >>> interval_of(x) is None, interval_of(bounded(x, -2, 3))
      (True, (-2, 3))
    """
    if isinstance(symbol, BoundedSymbol):
        return symbol.lower, symbol.upper
    return None


def within_interval(symbol: sp.Basic, value: int | mpmath.mpf | sp.Expr) -> bool:
    """Whether ``value`` (exactly, not rounded) lies in the interval of
    ``symbol``; True for a symbol without one.

    Examples:
      >>> share = bounded(sp.Symbol("q"), 0, sp.Rational(1, 3))
      >>> within_interval(share, mpmath.mpf(1) / 3)  # 53 bits: just below 1/3
      True
      >>> within_interval(share, sp.Rational(1, 3))
      False
    """
    bounds = interval_of(symbol)
    if bounds is None:
        return True
    exact = _exact(value)
    return _is_true(sp.Lt(bounds[0], exact)) and _is_true(sp.Lt(exact, bounds[1]))


def _exact(value: int | mpmath.mpf | sp.Expr) -> sp.Expr:
    if isinstance(value, mpmath.mpf):
        sign, mantissa, exponent, _ = value._mpf_
        if not mpmath.isfinite(value):
            raise InvalidArgumentError(f"value={value!r} is not finite")
        return (-1) ** sign * sp.Integer(int(mantissa)) * sp.Integer(2) ** int(exponent)
    return sp.sympify(value)
