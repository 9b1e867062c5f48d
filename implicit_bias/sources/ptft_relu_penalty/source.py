r"""The source id of ptft-relu-penalty, the domain its numeric claims sample.

The numeric claims of :mod:`.derivation` and :mod:`.penalty` (eqs. (6), (10)
and (11)) draw their test points from :func:`domain_sample` (the whole domain)
or :func:`regime_sample` (the regime the source uses, :data:`REGIME`) and
evaluate eq. (8) at the roots they find with :func:`deviation_mp`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from implicit_bias.theory import relu_penalty as theory
from implicit_bias.theory.symbols import gamma, m, m0, rho, u

__all__ = [
    "GLYPHS",
    "REGIME",
    "REGIME_GAMMA",
    "REGIME_M",
    "SOURCE_ID",
    "deviation_mp",
    "domain_sample",
    "mean_difference",
    "penalty_at",
    "regime_sample",
    "standard_error",
]

SOURCE_ID = "ptft-relu-penalty"

_W_HAT, _W0, _ = theory.unit_vectors()

#: How this package's own symbols are typeset: the coordinates of the explicit
#: vectors the chain of eqs. (6)-(8) is checked with, and the measured
#: quantities the numeric and simulation claims compare (each named once in
#: :func:`penalty_at`, :func:`mean_difference` and :func:`standard_error`).
GLYPHS: dict[sp.Symbol, str] = {
    **{c: rf"\hat{{w}}_{{h,{i}}}" for i, c in enumerate(_W_HAT, start=1)},
    **{c: rf"w_{{0h,{i}}}^{{(1)}}" for i, c in enumerate(_W0, start=1)},
}


def _measured(name: str, latex: str, **assumptions: bool) -> sp.Symbol:
    """A symbol for a measured quantity, registered in :data:`GLYPHS`."""
    symbol = sp.Symbol(name, **assumptions)
    GLYPHS[symbol] = latex
    return symbol


def _conditions(*pairs: tuple[str, str, float | int | None]) -> tuple[str, str]:
    """The name suffix and the LaTeX conditions of the given (name, glyph, value)."""
    given = [(name, glyph, value) for name, glyph, value in pairs if value is not None]
    return (
        "".join(f"_{name}{value:g}" for name, _, value in given),
        r",\,".join(f"{glyph}={value:g}" for _, glyph, value in given),
    )


def penalty_at(*, rho_value: float | None = None, m_aux: float) -> sp.Symbol:
    r"""The penalty :math:`\tilde r(m_h)` of eq. (11) at a given :math:`m^{aux}`.

    And at a given :math:`\rho_h`, if ``rho_value`` is given. A symbol, for
    the function of :math:`m_h` the claims evaluate numerically
    (:func:`implicit_bias.numerics.relu_penalty.relu_ptft_penalty` with
    :math:`m_{0h}^{(1)} = \sqrt{m^{aux}}`, Section 1.2 of ptft-relu-penalty).
    """
    suffix, conditions = _conditions(
        ("rho", r"\rho_{h}", rho_value), ("maux", r"m^{\text{aux}}", m_aux)
    )
    return _measured(
        "rtilde" + suffix,
        rf"\tilde{{r}}(m_{{h}} \mid {conditions})",
        nonnegative=True,
    )


def mean_difference(
    rho_value: float, magnitude: float, n: int | None = None
) -> sp.Symbol:
    r"""The mean over seeds of PT+FT's minus STL's relative test error (Fig. 1c).

    .. math:: \bar D = \frac1S \sum_s
              (\bar e^{\mathrm{PT+FT}}_s - \bar e^{\mathrm{STL}}_s),

    the error averaged over the sample-size grid, or at the one sample size
    ``n`` if given; measured by :func:`implicit_bias.validation.
    relu_sample_efficiency.sample_efficiency`.
    """
    suffix, conditions = _conditions(
        ("rho", r"\rho_{h}", rho_value), ("m", r"m_{h}", magnitude), ("n", "n", n)
    )
    return _measured("Dbar" + suffix, rf"\bar{{D}}_{{{conditions}}}", real=True)


def standard_error(
    rho_value: float, magnitude: float, n: int | None = None
) -> sp.Symbol:
    r"""The standard error :math:`\mathrm{sd}(D)/\sqrt S` of :func:`mean_difference`."""
    suffix, conditions = _conditions(
        ("rho", r"\rho_{h}", rho_value), ("m", r"m_{h}", magnitude), ("n", "n", n)
    )
    return _measured("SE" + suffix, rf"\mathrm{{SE}}_{{{conditions}}}", positive=True)


def domain_sample(size: int, seed: int) -> tuple[np.ndarray, ...]:
    r"""A seeded sample of the stated domain, with |m| reaching down to 1e-10.

    Returns ``(m, rho, m0, gamma)``, each of length ``size``: :math:`|m_h|` in
    :math:`[10^{-10}, 10^3]` log-uniform with a random sign, :math:`\rho` in
    :math:`[-1, 1]`, :math:`m_0` in :math:`[10^{-3}, 10^2]` log-uniform and
    :math:`|\gamma|` in :math:`[10^{-4}, 10]` log-uniform with a random sign.
    """
    rng = np.random.default_rng(seed)
    m_values = rng.choice([-1.0, 1.0], size) * 10.0 ** rng.uniform(-10, 3, size)
    rho_values = rng.uniform(-1, 1, size)
    m0_values = 10.0 ** rng.uniform(-3, 2, size)
    gamma_values = rng.choice([-1.0, 1.0], size) * 10.0 ** rng.uniform(-4, 1, size)
    return m_values, rho_values, m0_values, gamma_values


#: The largest readout initialization of the regime: the text's "small value
#: gamma" is never quantified; 1e-2 is the largest of the small gammas the
#: Section 1.2 claims use (:data:`.section_1_2.SMALL_GAMMAS`).
REGIME_GAMMA = 1e-2
#: The smallest |m_h| of the regime: the text gives no m range for Fig. 1; it
#: discusses m ~ 1 and the l1- and l2-like regimes either side, and 1e-3 is
#: three decades below m ~ 1.
REGIME_M = 1e-3
#: The regime of the printed claims about eqs. (10)-(11), in words.
REGIME = (
    f"|gamma| <= {REGIME_GAMMA:g} (the text's 'initialized by a small value gamma'; "
    f"its value is never given), {REGIME_M:g} <= |m_h| <= 1e3 (no m range is given "
    "for Fig. 1; three decades either side of the m ~ 1 the text discusses), "
    "m0 in [0.1, 10] (Fig. 1's m_aux in {0.01, 1, 100}), rho in [-1, 1]"
)


def regime_sample(size: int, seed: int) -> tuple[np.ndarray, ...]:
    r"""A seeded sample of :data:`REGIME`, the regime the source uses.

    Returns ``(m, rho, m0, gamma)``, each of length ``size``: :math:`|m_h|` in
    :math:`[10^{-3}, 10^3]` log-uniform with a random sign, :math:`\rho` in
    :math:`[-1, 1]`, :math:`m_0` in :math:`[0.1, 10]` log-uniform and
    :math:`|\gamma|` in :math:`[10^{-4}, 10^{-2}]` log-uniform with a random
    sign.
    """
    rng = np.random.default_rng(seed)
    m_values = rng.choice([-1.0, 1.0], size) * 10.0 ** rng.uniform(
        np.log10(REGIME_M), 3, size
    )
    rho_values = rng.uniform(-1, 1, size)
    m0_values = 10.0 ** rng.uniform(-1, 1, size)
    gamma_values = rng.choice([-1.0, 1.0], size) * 10.0 ** rng.uniform(
        -4, np.log10(REGIME_GAMMA), size
    )
    return m_values, rho_values, m0_values, gamma_values


_deviation_mpmath: Callable[..., Any] = sp.lambdify(
    (u, m, rho, m0, gamma), theory.deviation_geometric(), modules="mpmath"
)


def deviation_mp(scale: Any, point: tuple[float, ...]) -> Any:
    r"""Eq. (8) of ptft-relu-penalty at :math:`u` = ``scale``, in mpmath.

    .. math:: p(u) = (m_h/u-\gamma)^2 + (u - m_{0h}^{(1)}\rho_h)^2
              + (m_{0h}^{(1)})^2 (1-\rho_h)(1+\rho_h)

    lambdified from :func:`implicit_bias.theory.relu_penalty.deviation_geometric`
    and evaluated at the working precision; ``point`` is ``(m, rho, m0, gamma)``.
    """
    return _deviation_mpmath(scale, *(mpmath.mpf(value) for value in point))
