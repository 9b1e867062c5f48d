"""The risks of Section 3 of features-are-fate (eqs. (10)-(17)) as SymPy expressions."""

from __future__ import annotations

import sympy as sp

from implicit_bias.theory import transfer_risks as tr

_EXPRESSIONS = [
    tr.scratch_risk,
    tr.scratch_risk_overparameterized,
    tr.scratch_risk_underparameterized,
    tr.linear_transfer_risk,
    tr.linear_transferability,
    tr.linear_transferability_overparameterized,
    tr.linear_transferability_underparameterized,
    tr.negative_transfer_quadratic,
    tr.negative_transfer_discriminant,
    tr.gamma_plus,
    tr.gamma_minus,
    tr.underparameterized_negative_transfer_gamma,
    tr.ridge_transfer_risk,
    tr.finetune_risk,
    tr.finetune_risk_overparameterized,
    tr.finetune_transferability,
    tr.finetune_transferability_overparameterized,
]


def test_every_symbol_has_a_glyph() -> None:
    for build in _EXPRESSIONS:
        assert build().free_symbols <= set(tr.GLYPHS), build.__name__
    latex = sp.latex(tr.linear_transferability(), symbol_names=tr.GLYPHS)
    assert r"\gamma" in latex
    assert r"\theta" in latex
    assert "gamma" not in latex.replace(r"\gamma", "")


def test_values_at_rational_points() -> None:
    half = sp.Rational(1, 2)
    assert tr.scratch_risk().subs({tr.gamma: half, tr.sigma: 0}) == half
    assert tr.scratch_risk().subs({tr.gamma: 3, tr.sigma: 2}) == 2
    assert tr.linear_transfer_risk().subs(
        {tr.n: 12, tr.theta: sp.pi / 2, tr.sigma: 0}
    ) == sp.Rational(11, 10)
    assert tr.ridge_transfer_risk().subs({tr.lam: 1, tr.theta: 0}) == sp.Rational(1, 4)
    assert tr.finetune_transferability().subs({tr.gamma: 2, tr.theta: 1}) == 0
    assert tr.finetune_transferability().subs({tr.gamma: half, tr.theta: 0}) == half


def test_branches_are_the_piecewise_pieces() -> None:
    point = {tr.theta: sp.Rational(3, 7), tr.sigma: sp.Rational(1, 3)}
    for gamma, branch in (
        (sp.Rational(1, 4), tr.linear_transferability_overparameterized()),
        (sp.Rational(9, 4), tr.linear_transferability_underparameterized()),
    ):
        whole = tr.linear_transferability().subs({**point, tr.gamma: gamma})
        assert sp.simplify(whole - branch.subs({**point, tr.gamma: gamma})) == 0
    # Eq. (10) is printed for gamma != 1: no branch covers the threshold.
    assert tr.scratch_risk().subs(tr.gamma, 1) is sp.nan


def test_gamma_pm_are_the_roots_of_the_quadratic() -> None:
    quadratic = tr.negative_transfer_quadratic()
    for root in (tr.gamma_plus(), tr.gamma_minus()):
        assert sp.expand(quadratic.subs(tr.gamma, root)) == 0
    product = sp.expand(tr.gamma_plus() * tr.gamma_minus())
    assert sp.simplify(product - sp.cos(tr.theta) ** 2) == 0


def test_quadratic_is_the_numerator_of_the_transferability() -> None:
    numerator = (1 - tr.gamma) * tr.linear_transferability_overparameterized()
    assert sp.simplify(numerator - tr.negative_transfer_quadratic()) == 0


def test_noiseless_roots_at_a_rational_cosine() -> None:
    # theta = pi/3: cos^2 = 1/4, so (gamma_-, gamma_+) = (1/4, 1) at sigma = 0.
    point = {tr.theta: sp.pi / 3, tr.sigma: 0}
    assert sp.nsimplify(tr.gamma_minus().subs(point)) == sp.Rational(1, 4)
    assert sp.nsimplify(tr.gamma_plus().subs(point)) == 1


def test_finetune_is_scratch_minus_its_transferability() -> None:
    difference = (
        tr.scratch_risk_overparameterized() - tr.finetune_risk_overparameterized()
    )
    assert sp.expand(difference - tr.finetune_transferability_overparameterized()) == 0
