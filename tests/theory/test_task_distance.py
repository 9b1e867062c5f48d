"""Theorem 2.2 of features-are-fate (Appendix B.1) as SymPy expressions."""

from __future__ import annotations

import sympy as sp

from implicit_bias.theory import task_distance as td

_EXPRESSIONS = [
    td.dudley_witness,
    td.eq26_integrand,
    td.eq27_integrand,
    td.eq28_integrand,
    td.proof_target_scale,
    td.total_variation_linear_family,
    td.eq31_integrand,
    td.eq32_integrand,
    td.eq33,
    td.eq34,
    td.kl_divergence_integrand,
    td.kl_of_reflected_target,
    td.kl_scale_printed,
    td.kl_scale_corrected,
]


def test_every_symbol_has_a_glyph() -> None:
    for build in _EXPRESSIONS:
        assert build().free_symbols <= set(td.GLYPHS), build.__name__


def test_label_density_is_normalized_with_the_stated_mean() -> None:
    density = td.gaussian_label_density(td.f_x)
    assert sp.simplify(sp.integrate(density, (td.y, -sp.oo, sp.oo))) == 1
    mean = sp.integrate(td.y * density, (td.y, -sp.oo, sp.oo))
    assert sp.simplify(mean - td.f_x) == 0


def test_total_variation_of_gaussians_limits() -> None:
    gap = sp.Symbol("d", positive=True)
    tv = td.total_variation_gaussians(gap)
    assert tv.subs(gap, 0) == 0
    assert sp.limit(tv, gap, sp.oo) == 1
    family = td.total_variation_linear_family()
    assert family.subs(td.c, 1) == 0
    assert sp.limit(family, td.c, sp.oo) == 1


def test_eq33_and_eq34_agree_and_eq32_lacks_the_factor() -> None:
    assert sp.expand(td.eq33() - td.eq34()) == 0
    bracket_31 = td.eq31_integrand() / td.gaussian_label_density(td.f_x)
    bracket_32 = td.eq32_integrand() / td.gaussian_label_density(td.f_x)
    assert sp.simplify(bracket_32 / bracket_31) == 2 * td.sigma**2


def test_kl_thresholds_differ_by_sqrt_two() -> None:
    ratio = td.kl_scale_corrected() / td.kl_scale_printed()
    assert sp.simplify(ratio) == sp.sqrt(2)
    at_printed = td.kl_of_reflected_target().subs(td.alpha, td.kl_scale_printed())
    point = {td.f_norm: 1, td.sigma: 1, td.delta: 100}
    assert at_printed.subs(point) == sp.Rational(121, 2)


def test_proof_target_scale_squares_to_the_stated_ratio() -> None:
    scale = td.proof_target_scale()
    point = {td.delta: 2, td.sigma: 0, td.f_norm_squared: 1}
    assert scale.subs(point) ** 2 == 3
    assert td.mean_absolute_label(sp.pi / 2) == 1
