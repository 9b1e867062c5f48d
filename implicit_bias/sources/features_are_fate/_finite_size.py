r"""Finite-size corrections of the :math:`n, d\to\infty` risks of features-are-fate.

Eqs. (10), (13) and (15) are limits; a simulation at finite :math:`n, d`
estimates the finite-size expectation :math:`E_{n,d} = E_\infty + \Delta_{n,d}`.
A check of a limit formula :math:`L` compares the simulated mean with
:math:`L + \Delta_{n,d}` within a few standard errors. :math:`\Delta_{n,d}` is
derived here from the exact finite forms *alone* -- each minus its own limit,
computed by SymPy (:mod:`implicit_bias.theory.transfer_asymptotics`) -- and
never from the formula under test: were :math:`L` wrong by :math:`\delta`, the
comparison would miss by :math:`\delta`, where an allowance
:math:`|E_{n,d} - L|` would have grown by :math:`\delta` with it.

* :func:`scratch_correction` -- the min-norm risk, :math:`1-\frac nd+
  \frac{\sigma^2n}{d-n-1}` (:math:`n<d-1`) or :math:`\frac{\sigma^2d}{n-d-1}`
  (:math:`n>d+1`), minus its limit at :math:`n = \gamma d`, :math:`d\to\infty`,
  :math:`\gamma = n/d`: :math:`\frac{\sigma^2 n}{(d-n)(d-n-1)}` or
  :math:`\frac{\sigma^2 d}{(n-d)(n-d-1)}`, :math:`O(1/d)`.
* :func:`linear_correction` -- eq. (111) with (113), (115), (120) (exact at
  finite n) minus its :math:`n\to\infty` limit :math:`\sin^2\theta`:
  :math:`(\sin^2\theta+\sigma^2)/(n-2)`.
* :func:`ridge_correction` -- eq. (128) with exact :math:`I_1, I_2`
  (:func:`~implicit_bias.numerics.transfer_asymptotics.ridge_transfer_risk_finite`,
  float64 quadrature) minus the :math:`n^0` term of its :math:`1/n` expansion
  (:func:`~implicit_bias.theory.transfer_asymptotics.chi_square_expectation_expansion`:
  each :math:`E\,h(\chi^2_n/n)` at order 0 is :math:`h(1)`).

Each is evaluated in float64 with a rounding error of a few ulp of the risks
(below 1e-14 here), negligible beside the standard errors it is compared with.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import sympy as sp

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics import transfer_asymptotics as numerics
from implicit_bias.theory import transfer_asymptotics as theory

__all__ = ["linear_correction", "ridge_correction", "scratch_correction"]


def _own_limit_removed(finite: sp.Expr) -> sp.Expr:
    """``finite`` (in n, d) minus its limit at n = gamma d, d -> oo, at gamma = n/d."""
    limit = sp.limit(
        finite.subs(theory.n, theory.gamma_ratio * theory.d), theory.d, sp.oo
    )
    return sp.factor(
        sp.together(finite - limit.subs(theory.gamma_ratio, theory.n / theory.d))
    )


@functools.cache
def scratch_correction_expressions() -> tuple[sp.Expr, sp.Expr]:
    r""":math:`\Delta_{n,d}` of the scratch risk for :math:`n<d-1` and :math:`n>d+1`.

    The exact finite forms
    (:func:`~implicit_bias.theory.transfer_asymptotics.scratch_risk_finite`)
    minus their limits, as SymPy derives them.
    """
    return (
        _own_limit_removed(theory.scratch_risk_finite_overparameterized()),
        _own_limit_removed(theory.scratch_risk_finite_underparameterized()),
    )


@functools.cache
def _scratch_evaluators() -> tuple[Callable[..., float], Callable[..., float]]:
    symbols = (theory.n, theory.d, theory.sigma)
    over, under = scratch_correction_expressions()
    return sp.lambdify(symbols, over), sp.lambdify(symbols, under)


def scratch_correction(n: int, d: int, sigma: float) -> float:
    r"""The exact finite-size part of the expected min-norm (scratch) risk.

    .. math:: \Delta_{n,d} = E_{n,d}\mathcal R_{sc} - E_\infty\mathcal R_{sc}
              \big|_{\gamma=n/d} = \begin{cases}
              \frac{\sigma^2 n}{(d-n)(d-n-1)} & n<d-1\\
              \frac{\sigma^2 d}{(n-d)(n-d-1)} & n>d+1\end{cases}

    Args:
      n: samples; d: dimension; :math:`|n-d|\ge2` (the risk is infinite
        otherwise when :math:`\sigma>0`).
      sigma: label-noise standard deviation :math:`\sigma\ge0`.

    Raises:
      InvalidArgumentError: :math:`|n - d| < 2`.

    Examples:
      >>> import math
      >>> math.isclose(scratch_correction(30, 60, 0.5), 0.25 * 30 / (30 * 29))
      True
    """
    if abs(n - d) < 2:
        raise InvalidArgumentError(
            f"n={n!r}, d={d!r}: the finite scratch risk is finite only for |n - d| >= 2"
        )
    over, under = _scratch_evaluators()
    return float((over if n < d else under)(n, d, sigma))


@functools.cache
def linear_correction_expression() -> sp.Expr:
    r""":math:`\Delta_n` of linear transfer: eq. (111) with (113), (115), (120)
    minus its :math:`n\to\infty` limit, as SymPy derives it."""
    finite = theory.linear_transfer_risk_finite()
    return sp.simplify(finite - sp.limit(finite, theory.n, sp.oo))


@functools.cache
def _linear_evaluator() -> Callable[..., float]:
    return sp.lambdify(
        (theory.n, theory.theta, theory.sigma), linear_correction_expression()
    )


def linear_correction(n: int, theta: float, sigma: float) -> float:
    r"""The finite-n part of the expected linear-transfer risk.

    .. math:: \Delta_n = E_n\mathcal R_{lt} - \sin^2\theta
              = \frac{\sin^2\theta + \sigma^2}{n - 2}

    Examples:
      >>> import math
      >>> math.isclose(linear_correction(12, math.pi / 2, 0.0), 0.1)
      True
    """
    return float(_linear_evaluator()(n, theta, sigma))


@functools.cache
def ridge_limit_expression() -> sp.Expr:
    r"""The :math:`n^0` term of eq. (128) with exact :math:`I_1, I_2`.

    :math:`I_1(n+2) = E\frac{x^2}{(x+\lambda)^2}`, :math:`I_1(n) = \frac1n
    E\frac{x}{(x+\lambda)^2}` (no :math:`n^0` term) and :math:`I_2(n) =
    E\frac{x}{x+\lambda}`, :math:`x = \chi^2_n/n`, each at order 0 of
    :func:`~implicit_bias.theory.transfer_asymptotics.chi_square_expectation_expansion`.
    """
    lam = theory.lam
    (shifted,) = theory.chi_square_expectation_expansion(
        lambda v: v**2 / (v + lam) ** 2, 0
    )
    (second,) = theory.chi_square_expectation_expansion(lambda v: v / (v + lam), 0)
    return theory.ridge_risk_eq128().subs(
        {theory.i1_shifted: shifted, theory.i1_plain: 0, theory.i2_plain: second}
    )


@functools.cache
def _ridge_limit_evaluator() -> Callable[..., float]:
    return sp.lambdify(
        (theory.lam, theory.theta, theory.sigma), ridge_limit_expression()
    )


def ridge_correction(n: int, lam: float, theta: float, sigma: float) -> float:
    r"""The finite-n part of the expected ridge-transfer risk.

    .. math:: \Delta_n = E_n\mathcal R^\lambda_{lt} - c_0(\lambda, \theta),

    :math:`E_n` by eq. (128) with exact :math:`I_1, I_2` and :math:`c_0` the
    :math:`n^0` term of its expansion (:func:`ridge_limit_expression`);
    :math:`\Delta_n = c_1/n + O(n^{-2})`.

    Examples:
      >>> import math
      >>> math.isclose(ridge_correction(12, 0.0, 0.3, 0.2),
      ...              (math.sin(0.3) ** 2 + 0.04) / 10, rel_tol=1e-12)
      True
    """
    finite = float(numerics.ridge_transfer_risk_finite(n, lam, theta, sigma))
    return finite - float(_ridge_limit_evaluator()(lam, theta, sigma))
