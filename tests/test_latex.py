"""LaTeX of the claims: sympy.latex output in the paper's notation and numbering."""

from __future__ import annotations

import re

import sympy as sp

from implicit_bias.claims.registry import claims_for, get_claim
from implicit_bias.latex import claim_latex, claims_latex, formula_latex
from implicit_bias.theory import relu_penalty as theory


def test_numbered_claims_carry_the_paper_number_as_tag() -> None:
    for claim in claims_for("ptft-relu-penalty"):
        block = claim_latex(claim)
        if block is None:
            continue
        if claim.equation.isdigit():
            assert rf"\tag{{{claim.equation}}}" in block
        else:
            assert r"\notag" in block


def test_paper_glyphs_replace_symbol_names() -> None:
    text = "\n".join(
        line
        for line in claims_latex(claims_for("ptft-relu-penalty")).splitlines()
        if not line.startswith("%")
    )
    for glyph in (r"m_{0h}^{(1)}", r"\rho_{h}", r"\gamma", r"\tilde{r}"):
        assert glyph in text
    assert not re.search(r"(?<![\\a-zA-Z_{])m0(?![a-zA-Z])", text)
    assert "rtilde" not in text


def test_formula_is_sympy_latex_of_the_theory_expression() -> None:
    claim = get_claim("ptft-relu-penalty:9:derivative")
    expected = sp.latex(
        sp.Eq(
            sp.Derivative(theory.p_of_u, theory.u),
            theory.stationarity_eq9(),
            evaluate=False,
        ),
        symbol_names=theory.GLYPHS,
    )
    assert formula_latex(claim) == expected


def test_environments_balance() -> None:
    text = claims_latex(claims_for("ptft-relu-penalty"))
    assert text.count(r"\begin{equation}") == text.count(r"\end{equation}") > 10
    assert text.count("{") == text.count("}")
