"""The SymPy derivation of ptft-relu-penalty, step by step."""

from __future__ import annotations

import sympy as sp

from implicit_bias.theory import relu_penalty as theory
from implicit_bias.theory.symbols import gamma, m, m0, rho, u


def test_eq9_is_the_derivative_of_eq8() -> None:
    assert (
        sp.expand(sp.diff(theory.deviation_eq8(), u) - theory.stationarity_eq9()) == 0
    )


def test_eq10_is_eq9_times_u_cubed_over_two() -> None:
    assert (
        sp.expand(theory.stationarity_eq9() * u**3 / 2 - theory.stationarity_eq10())
        == 0
    )


def test_quartic_coefficients_in_np_roots_order() -> None:
    assert theory.quartic_coefficients() == (1, -m0 * rho, 0, gamma * m, -(m**2))


def test_geometric_form_equals_eq8_and_is_a_sum_of_squares() -> None:
    assert sp.expand(theory.deviation_geometric() - theory.deviation_eq8()) == 0
    for term in theory.deviation_geometric().subs(rho, sp.Rational(1, 3)).args:
        assert term.is_nonnegative


def test_eq11_at_u_is_eq8() -> None:
    assert sp.expand(theory.penalty_eq11(u) - theory.deviation_eq8()) == 0


def test_envelope_slope_is_the_partial_derivative_in_m() -> None:
    assert sp.simplify(theory.envelope_slope() - 2 * (m / u - gamma) / u) == 0


def test_vector_forms_agree_on_the_unit_sphere() -> None:
    _, _, unit = theory.unit_vectors()
    difference = sp.expand(theory.deviation_eq6() - theory.deviation_eq7())
    assert sp.expand(difference - u**2 * unit) == 0


def test_large_m_scaling_of_eq10() -> None:
    eps, v = sp.symbols("epsilon v", positive=True)
    scaled = theory.large_m_scaled_quartic(eps, v)
    assert sp.expand(scaled - (v**4 - m0 * rho * eps * v**3 + gamma * eps * v - 1)) == 0


def test_glyphs_cover_every_symbol_of_eq8() -> None:
    assert theory.deviation_eq8().free_symbols <= set(theory.GLYPHS)
