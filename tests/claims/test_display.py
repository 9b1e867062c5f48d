"""Claims, verdicts, results and derivations in LaTeX, HTML and Markdown."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims import (
    Basis,
    Claim,
    Derivation,
    Kind,
    Reading,
    Reason,
    Result,
    Status,
    Step,
    Verdict,
    relation_check,
)
from implicit_bias.claims.display import (
    MARKUPS,
    render_claim,
    render_derivation,
    render_result,
    render_verdict,
)
from implicit_bias.errors import InvalidArgumentError

x = sp.Symbol("x", positive=True)
gamma = sp.Symbol("gamma", positive=True)

#: sympy 1.14's LaTeX of the formula of ``_claim()``.
LOG_SQUARE = r"\log{\left(x^{2} \right)} = 2 \log{\left(x \right)}"


def _claim(**fields: object) -> Claim:
    defaults: dict[str, object] = {
        "source": "my-note",
        "equation": "1",
        "label": "log-square",
        "kind": Kind.IDENTITY,
        "statement": "log x^2 = 2 log x",
        "check": relation_check(lambda: sp.Eq(sp.log(x**2), 2 * sp.log(x))),
        "expected": Status.HOLDS,
    }
    return Claim(**{**defaults, **fields})  # type: ignore[arg-type]


def _never_run() -> Verdict:
    raise AssertionError("displaying a claim ran its check")


FAILS = Verdict.fails(
    "relative residual 0.2 at x=0.9986",
    Basis.CERTIFIED,
    "at x=0.998561648322451 (exactly), lhs - rhs is in [-0.00144 +/- 3.3e-38]",
)


@pytest.mark.parametrize("markup", MARKUPS)
def test_a_claim_shows_its_id_statement_and_typeset_formula(markup: str) -> None:
    claim = _claim(
        check=relation_check(lambda: sp.Eq(sp.log(x**2), 2 * sp.log(x))),
        quote="log x^2 = 2 log x",
        reading=Reading.PRINTED,
        regime="x > 0",
        assumptions=("x positive",),
    )
    shown = render_claim(claim, markup)
    assert f"$${LOG_SQUARE}$$" in shown
    for text in ("my-note:1:log-square", "identity", "expected holds", "printed"):
        assert text in shown
    assert "x positive" in shown
    assert shown.index("Quote") < shown.index("Reading") < shown.index("Regime")


def test_the_formula_is_typeset_in_the_given_glyphs() -> None:
    claim = _claim(formula=lambda: sp.Le(gamma**2, gamma + 1))
    assert r"$$\tilde{\gamma}^{2} \leq \tilde{\gamma} + 1$$" in render_claim(
        claim, "html", symbol_names={gamma: r"\tilde{\gamma}"}
    )


@pytest.mark.parametrize("markup", MARKUPS)
def test_a_claim_without_formula_shows_its_statement_and_never_runs_its_check(
    markup: str,
) -> None:
    claim = _claim(statement="the risk falls as n grows", check=_never_run)
    assert claim.formula is None
    shown = render_claim(claim, markup)
    assert "the risk falls as n grows" in shown
    assert "$$" not in shown
    # No verdict is shown, since none was computed.
    assert not any(mark in shown for mark in ("✓", "✗", "basis"))


@pytest.mark.parametrize("markup", MARKUPS)
def test_a_formula_that_cannot_be_built_is_reported_in_place(markup: str) -> None:
    claim = _claim(formula=lambda: sp.Integer(1) / 0 + 1 / 0, check=_never_run)
    shown = render_claim(claim, markup)
    assert "could not be built" in shown
    assert "ZeroDivisionError: division by zero" in shown
    assert "log x" in shown


def test_html_escapes_the_text_and_the_formula() -> None:
    evil = sp.Symbol("<img src=x onerror=alert(1)>")
    claim = _claim(
        statement="a <script>alert(1)</script> & co",
        quote='"quoted" <b>',
        formula=lambda: sp.Eq(evil, 1),
    )
    shown = render_claim(claim, "html")
    assert "<script>" not in shown
    assert "<img" not in shown
    assert "<b>" not in shown
    assert "a &lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in shown
    assert "$$&lt;img src=x onerror=alert(1)&gt; = 1$$" in shown


def test_markdown_escapes_html_and_its_own_markup() -> None:
    claim = _claim(
        statement="1. <script>x</script> *not bold* _nor_ [a link](u) |cell|",
        formula=lambda: sp.Lt(x, 1),
    )
    shown = render_claim(claim, "markdown")
    assert "<script>" not in shown
    assert (
        r"1\. &lt;script&gt;x&lt;/script&gt; \*not bold\* \_nor\_ \[a link\](u) "
        r"\|cell\|"
    ) in shown
    # In mathematics "<" is MathJax's \lt, which no renderer reads as a tag.
    assert r"$$x \lt  1$$" in shown


def test_latex_escapes_its_special_characters() -> None:
    claim = _claim(statement=r"50% of a_b & c#1 {~} \o/ ^ <>", label="a_b")
    shown = render_claim(claim, "latex")
    assert (
        r"50\% of a\_b \& c\#1 \{\textasciitilde{}\} \textbackslash{}o/ "
        r"\textasciicircum{} \textless{}\textgreater{}"
    ) in shown
    assert r"\texttt{my-note:1:a\_b}" in shown


@pytest.mark.parametrize("markup", MARKUPS)
def test_inline_mathematics_in_text_stays_mathematics(markup: str) -> None:
    claim = _claim(quote=r"the $\ell_{1,2}$ norm_x")
    shown = render_claim(claim, markup)
    assert r"$\ell_{1,2}$" in shown
    assert r"\_{1,2}" not in shown


@pytest.mark.parametrize(
    ("verdict", "html", "latex", "markdown"),
    [
        (
            Verdict.holds("exact: expand(lhs - rhs) = 0", Basis.PROOF),
            '<strong style="color: #1a7f37">✓ holds</strong> · basis '
            "<strong>proof</strong>",
            r"$\checkmark$ \textbf{holds} · basis \textbf{proof}",
            "✓ **holds** · basis **proof**",
        ),
        (
            FAILS,
            '<strong style="color: #cf222e">✗ fails</strong> · basis '
            "<strong>certified</strong>",
            r"$\times$ \textbf{fails} · basis \textbf{certified}",
            "✗ **fails** · basis **certified**",
        ),
        (
            Verdict.inconclusive("timed out", Reason.BUDGET, Basis.NUMERICAL),
            '<strong style="color: #9a6700">? inconclusive</strong> · reason '
            "<strong>budget</strong> · basis <strong>numerical</strong>",
            r"? \textbf{inconclusive} · reason \textbf{budget} · basis "
            r"\textbf{numerical}",
            "? **inconclusive** · reason **budget** · basis **numerical**",
        ),
    ],
    ids=["holds", "fails", "inconclusive"],
)
def test_each_status_shows_its_mark_reason_and_basis(
    verdict: Verdict, html: str, latex: str, markdown: str
) -> None:
    assert render_verdict(verdict, "html").splitlines()[1] == f"<p>{html}</p>"
    assert render_verdict(verdict, "latex").startswith(latex + "\n\n")
    assert render_verdict(verdict, "markdown").startswith(markdown + "\n\n")
    for markup in MARKUPS:
        assert verdict.detail in render_verdict(verdict, markup)


def test_a_failing_verdict_shows_its_counterexample() -> None:
    shown = render_verdict(FAILS, "html")
    assert (
        "<p><strong>Counterexample:</strong> at x=0.998561648322451 (exactly), "
        "lhs - rhs is in [-0.00144 +/- 3.3e-38]</p>"
    ) in shown
    assert r"\textbf{Counterexample:} at x=0.998561648322451" in render_verdict(
        FAILS, "latex"
    )


@pytest.mark.parametrize("markup", MARKUPS)
def test_a_counterexample_point_is_typeset_in_the_given_glyphs(markup: str) -> None:
    verdict = Verdict.fails(
        "negative at gamma=3/2, x=1/2",
        Basis.PROOF,
        "gamma=3/2, x=1/2",
        point={"gamma": "3/2", "x": "1/2"},
    )
    shown = render_verdict(verdict, markup, symbol_names={gamma: r"\gamma"})
    assert r"$\gamma = 3/2$, $x = 1/2$" in shown
    assert "Point:" in shown


@pytest.mark.parametrize("markup", MARKUPS)
def test_a_result_shows_claim_verdict_seconds_and_whether_expected(
    markup: str,
) -> None:
    claim = _claim(expected=Status.HOLDS)
    expected = render_result(
        Result(claim, Verdict.holds("exact", Basis.PROOF), 0.25), markup
    )
    assert f"$${LOG_SQUARE}$$" in expected
    assert "Checked in 0.25 s" in expected
    assert "as expected." in expected
    assert "not as expected" not in expected
    surprise = render_result(Result(claim, FAILS, 1.5), markup)
    assert "Checked in 1.5 s" in surprise
    assert "not as expected" in surprise
    assert "expected holds." in surprise
    assert "at x=0.998561648322451" in surprise
    # The claim comes first, then its verdict, then the outcome.
    assert surprise.index("log") < surprise.index("fails") < surprise.index("Checked")


def test_an_unexpected_reason_is_not_as_expected() -> None:
    claim = _claim(expected=Status.INCONCLUSIVE, expected_reason=Reason.STATISTICAL)
    shown = render_result(
        Result(claim, Verdict.inconclusive("over", Reason.BUDGET), 2.0), "html"
    )
    assert "<strong>not as expected,</strong> expected inconclusive (statistical)." in (
        shown
    )


def _chain(*steps: Step) -> Derivation:
    return Derivation(
        source="my-note",
        equation="3",
        label="sinh",
        title="A difference of exponentials",
        start=lambda: sp.exp(-x) - sp.exp(x),
        steps=steps,
        quote="e^{-x} - e^x < 0",
        regime="x > 0",
    )


SINH_CHAIN = (
    Step(lambda: -2 * sp.sinh(x), "the definition of sinh"),
    Step(lambda: sp.Integer(0), "sinh x > 0 for x > 0", "<"),
    Step(lambda: -sp.sinh(x), "a dropped factor", "<=", expected=Status.FAILS),
)


def test_a_derivation_shows_its_steps_in_order_in_html() -> None:
    shown = render_derivation(_chain(*SINH_CHAIN), "html")
    rows = [line for line in shown.splitlines() if line.startswith("<tr><td")]
    cell = '<td style="text-align: left">'
    assert rows == [
        f"<tr>{cell}$- e^{{x}} + e^{{- x}}$</td><td></td><td></td></tr>",
        f"<tr>{cell}$= - 2 \\sinh{{\\left(x \\right)}}$</td><td>(1)</td>"
        f"{cell}the definition of sinh</td></tr>",
        f"<tr>{cell}$&lt; 0$</td><td>(2)</td>"
        f"{cell}sinh x &gt; 0 for x &gt; 0</td></tr>",
        f"<tr>{cell}$\\leq - \\sinh{{\\left(x \\right)}}$</td><td>(3)</td>"
        f'{cell}a dropped factor — expected <strong style="color: #cf222e">'
        "✗ fails</strong></td></tr>",
    ]
    assert "<code>my-note:3:sinh</code> · A difference of exponentials" in shown
    assert "“e^{-x} - e^x &lt; 0”" in shown


def test_a_derivation_is_one_align_block_in_latex() -> None:
    shown = render_derivation(_chain(*SINH_CHAIN), "latex")
    assert (
        "\\begin{align*}\n"
        "  & - e^{x} + e^{- x} \\\\\n"
        "  &= - 2 \\sinh{\\left(x \\right)} && \\text{(1) the definition of sinh} "
        "\\\\\n"
        "  &< 0 && \\text{(2) sinh x \\textgreater{} 0 for x \\textgreater{} 0} \\\\\n"
        "  &\\leq - \\sinh{\\left(x \\right)} && \\text{(3) a dropped factor — "
        "expected $\\times$ \\textbf{fails}}\n"
        "\\end{align*}"
    ) in shown


def test_a_derivation_is_a_numbered_list_in_markdown() -> None:
    shown = render_derivation(_chain(*SINH_CHAIN), "markdown")
    assert (
        "$- e^{x} + e^{- x}$\n\n"
        "1. $= - 2 \\sinh{\\left(x \\right)}$ — the definition of sinh\n"
        "2. $\\lt  0$ — sinh x &gt; 0 for x &gt; 0\n"
        "3. $\\leq - \\sinh{\\left(x \\right)}$ — a dropped factor — expected "
        "✗ **fails**"
    ) in shown


def test_a_derivation_whose_expressions_cannot_be_built_still_shows() -> None:
    shown = render_derivation(
        _chain(Step(lambda: sp.Integer(1) / 0 + 1 / 0, "a broken step")), "html"
    )
    assert "The expressions could not be built:</strong> ZeroDivisionError" in shown
    assert "A difference of exponentials" in shown


@pytest.mark.parametrize("markup", ["pdf", "HTML", "", "md"])
def test_an_unknown_markup_is_refused(markup: str) -> None:
    with pytest.raises(InvalidArgumentError, match=f"markup={markup!r} is not one of"):
        render_verdict(FAILS, markup)


@pytest.mark.parametrize("markup", MARKUPS)
def test_the_objects_show_themselves_through_these_functions(markup: str) -> None:
    claim = _claim()
    result = Result(claim, FAILS, 0.5)
    chain = _chain(*SINH_CHAIN)
    method = f"_repr_{markup}_"
    assert getattr(claim, method)() == render_claim(claim, markup)
    assert getattr(FAILS, method)() == render_verdict(FAILS, markup)
    assert getattr(result, method)() == render_result(result, markup)
    assert getattr(chain, method)() == render_derivation(chain, markup)
