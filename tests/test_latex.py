"""LaTeX of the claims: sympy.latex output in the paper's notation and numbering.

The standalone document is checked two ways: structurally, always (balanced
environments and braces, only the packages of ``PACKAGES``, unique tags per
source, no raw special characters in text mode, ASCII only), and by pdflatex
where one is installed (Debian: ``texlive-latex-base texlive-latex-recommended``).
"""

from __future__ import annotations

import re
import shutil
import string
import subprocess
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import example, given
from hypothesis import strategies as st

from implicit_bias.claims.engine import Basis, Claim, Kind, Reason, Status, Verdict
from implicit_bias.claims.discovery import default_registry
from implicit_bias.claims.registry import all_claims, claims_for, get_claim
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.latex import (
    PACKAGES,
    claim_latex,
    claims_latex,
    document_latex,
    equation_references,
    escape_text,
    formula_latex,
    ledger_latex,
    ledgers_latex,
)
from implicit_bias.theory import relu_penalty as theory

# --- a structural checker of the generated LaTeX

#: Source id -> its claims (chains included), as registered.
SOURCES = {s.id: s.all_claims() for s in default_registry().sources.values()}


_MATH_ENVIRONMENTS = {"align", "align*", "equation", "equation*"}
# Commands whose braced arguments are typeset in text mode, even inside math.
_TEXT_COMMANDS = {
    "intertext",
    "text",
    "tag",
    "tag*",
    "mbox",
    "verdict",
    "section*",
    "title",
    "emph",
    "textbf",
    "parbox",
}


def _strip_comments(text: str) -> str:
    return re.sub(r"(?<!\\)%.*", "", text)


def _mode_problems(text: str) -> list[str]:
    """Raw special characters in text mode, and unbalanced braces or environments."""
    problems = []
    # The open brace groups, innermost last: (mode, is a text command's argument).
    groups = [("text", False)]
    environments: list[tuple[str, str]] = []  # (name, mode it restores)
    pending = False  # the next brace group is an argument of a text command
    index = 0
    while index < len(text):
        character = text[index]
        mode = groups[-1][0]
        if character == "\\":
            match = re.compile(r"\\([A-Za-z]+\*?|.)").match(text, index)
            assert match is not None
            command, index = match.group(1), match.end()
            pending = command in _TEXT_COMMANDS
            if command in ("begin", "end"):
                name_match = re.compile(r"\{([^}]*)\}").match(text, index)
                if name_match is None:
                    problems.append(f"\\{command} without an environment name")
                    continue
                name, index = name_match.group(1), name_match.end()
                if command == "begin":
                    environments.append((name, mode))
                    if name in _MATH_ENVIRONMENTS:
                        groups[-1] = ("math", groups[-1][1])
                elif not environments or environments[-1][0] != name:
                    problems.append(f"\\end{{{name}}} does not close the open one")
                else:
                    groups[-1] = (environments.pop()[1], groups[-1][1])
            continue
        if character == "[" and pending:
            # An optional argument, e.g. \parbox[t]: the braced ones follow.
            index = text.find("]", index) + 1 or len(text)
            continue
        if character == "{":
            groups.append(("text" if pending else mode, pending))
            pending = False
        elif character == "}":
            if len(groups) == 1:
                problems.append(f"unbalanced '}}' at offset {index}")
            else:
                _, was_argument = groups.pop()
                pending = was_argument and text[index + 1 : index + 2] == "{"
            index += 1
            continue
        elif character == "$":
            groups[-1] = ("text" if mode == "math" else "math", groups[-1][1])
        elif character in "_^&" and mode == "text":
            context = text[max(0, index - 30) : index + 10]
            problems.append(f"raw {character!r} in text mode: {context!r}")
        elif character == "#" and not text[index + 1 : index + 2].isdigit():
            problems.append(f"raw '#': {text[max(0, index - 30) : index + 10]!r}")
        if not character.isspace():
            pending = False
        index += 1
    if len(groups) != 1:
        problems.append(f"{len(groups) - 1} '{{' left open")
    if environments:
        problems.append(f"environments left open: {[name for name, _ in environments]}")
    return problems


def structure_problems(document: str) -> list[str]:
    """Every structural problem of a LaTeX document; empty when it looks sound."""
    text = _strip_comments(document)
    problems = _mode_problems(text)
    for character in set(text):
        if not character.isascii():
            problems.append(f"non-ASCII character {character!r}")
    for options_and_names in re.findall(
        r"\\usepackage(?:\[[^\]]*\])?\{([^}]*)\}", text
    ):
        for package in options_and_names.split(","):
            if package.strip() not in PACKAGES:
                problems.append(f"package {package.strip()!r} is not in PACKAGES")
    for section in re.split(r"\\section\*?\{", text):
        tags = re.findall(r"\\tag\*?\{\(?([^(){}]*(?:\{[^{}]*\}[^(){}]*)*)\)?", section)
        duplicates = {tag for tag in tags if tags.count(tag) > 1}
        if duplicates:
            problems.append(f"tags used twice in one section: {sorted(duplicates)}")
    return problems


def _synthetic_claims() -> list[Claim]:
    """A made-up source whose statements hold every character LaTeX treats specially."""
    x = sp.Symbol("x_raw_name")
    nasty = "a_b 50% & #1 $5 {x} ~y ^z \\path <lt> >gt |bar| β ≤ 1\n\\end{document}"

    def verdict() -> Verdict:
        return Verdict.holds("made up", Basis.PROOF)

    return [
        Claim(
            "made-up_source",
            equation,
            label,
            Kind.IDENTITY,
            nasty,
            verdict,
            Status.HOLDS,
            formula=formula,
        )
        for equation, label, formula in [
            ("1", "first", lambda: sp.Eq(x**2, x * x, evaluate=False)),
            ("1", "second", None),
            ("sec-A.1", "prose", None),
            ("sec-A.1", "last", lambda: sp.Le(x, x + 1)),
            ("thm-2.2", "theorem", lambda: sp.Ge(x**2, 0)),
        ]
    ]


def _document(verdicts: dict[str, Status] | None = None) -> str:
    return document_latex(
        [*all_claims(), *_synthetic_claims()],
        verdicts,
        note="Verdicts recorded in results_v1.json (100% of them) & more.",
    )


# --- the fragments


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
            sp.Derivative(theory.deviation_eq8(), theory.u),
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


# --- escaping


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("m_h", r"m\_h"),
        ("50%", r"50\%"),
        ("a & b", r"a \& b"),
        ("#1", r"\#1"),
        ("$5", r"\$5"),
        ("{x}", r"\{x\}"),
        ("~", r"\~{}"),
        ("^", r"\^{}"),
        ("\\", r"$\backslash$"),
        ("u -> 0", "u -$>$ 0"),
        ("<w, v>", "$<$w, v$>$"),
        ("|m|", "$|$m$|$"),
        ("β", r"$\beta$"),
        ("Σ", r"$\Sigma$"),
        ("≤", r"$\leq$"),
        ("§", r"$\S$"),
        ("plain words 1.5", "plain words 1.5"),
    ],
)
def test_escape_text(text: str, escaped: str) -> None:
    assert escape_text(text) == escaped


@given(st.text(alphabet=string.printable.replace("\x0b", "").replace("\x0c", "")))
@example(r"\_%&#$^~{}<>|")
def test_escaped_text_has_no_raw_special_characters(text: str) -> None:
    # Printable ASCII only: the domain of the statements and evidence.
    assert _mode_problems(_strip_comments(escape_text(text))) == []
    assert "%" not in _strip_comments(escape_text(text)).replace(r"\%", "")


# --- the ledger


def test_references_are_unique_and_keep_lone_numbers_bare() -> None:
    for source, claims in SOURCES.items():
        references = equation_references(claims)
        assert len(set(references.values())) == len(claims), source
        for claim in claims:
            shared = sum(1 for c in claims if c.equation == claim.equation) > 1
            reference = references[claim.id]
            assert reference.startswith(claim.equation)
            assert (reference != claim.equation) == shared, claim.id
    references = equation_references(claims_for("ptft-relu-penalty"))
    assert [
        references[f"ptft-relu-penalty:6:{label}"]
        for label in ("divergence", "divergence-nonzero-m", "direct-minimization")
    ] == ["6a", "6b", "6c"]
    assert references["ptft-relu-penalty:9:derivative"] == "9"


def test_ledger_has_every_claim_in_order_with_its_note() -> None:
    claims = claims_for("ptft-relu-penalty")
    ledger = ledger_latex(claims)
    ids = re.findall(r"^% (\S+): ", ledger, flags=re.MULTILINE)
    assert ids == [claim.id for claim in claims]
    with_formula = [c for c in claims if c.formula is not None]
    formulas = [formula_latex(c) for c in with_formula]
    shared = [f for f in formulas if formulas.count(f) > 1]
    assert shared, "the ledger of this source has claims sharing a formula"
    assert ledger.count(r"\tag*{") == len(with_formula)
    # A line for each claim without a formula, and one stating the condition of
    # each claim that shares its formula with another.
    assert ledger.count(r"\intertext{") == (
        len(claims) - len(with_formula) + len(shared)
    )
    assert ledger.count(r"\verdict{\emph{expected ") == len(claims)
    # Aligned at the relation of eq. (10): "lhs &= rhs".
    assert re.search(r"u\^\{4\} &= 0 \\tag\*\{\(10[a-z]\)", ledger)
    assert (
        r"(6b)\verdict{\emph{expected holds}; \emph{extension}; corrects (6a)}"
        in ledger
    )


def test_observed_verdicts_replace_the_expected_ones() -> None:
    claims = claims_for("ptft-relu-penalty")
    first, second = claims[0], claims[1]
    assert (first.expected, second.expected) == (Status.FAILS, Status.HOLDS)
    ledger = ledger_latex(claims, {first.id: Status.FAILS, second.id: Status.FAILS})
    assert r"(6a)\verdict{fails; \emph{prose}}" in ledger
    assert (
        r"(6b)\verdict{\textbf{fails} (expected holds); \emph{extension}; "
        r"corrects (6a)}" in ledger
    )
    assert ledger.count(r"\verdict{\emph{expected ") == len(claims) - 2
    observed = ledger_latex(claims, {first.id: Verdict.fails("d", Basis.PROOF)})
    assert r"(6a)\verdict{fails, proof; \emph{prose}}" in observed


def test_claims_sharing_a_formula_are_told_apart_by_their_condition() -> None:
    claims = [
        get_claim("ptft-relu-penalty:10:unique-positive-root"),
        get_claim("ptft-relu-penalty:10:unique-positive-root-beyond-regime"),
    ]
    assert formula_latex(claims[0]) == formula_latex(claims[1])
    ledger = ledger_latex(claims)
    for claim in claims:
        assert escape_text(claim.statement) in ledger
        assert escape_text(claim.regime) in ledger


def test_tags_typeset_ranges_and_named_labels() -> None:
    ledger = ledger_latex(_synthetic_claims())
    assert r"\tag*{(1a)" in ledger
    assert r"\mbox{($\S$\,A.1a)" in ledger
    assert r"\tag*{($\S$\,A.1b)" in ledger
    assert r"\tag*{(Thm.~2.2)" in ledger
    diagonal = ledger_latex(claims_for("ptft-diagonal-networks"))
    assert r"\tag*{(18--19a)" in diagonal


def test_empty_ledger_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="claims is empty"):
        ledger_latex([])


def test_ledger_fragment_defines_its_margin_macro() -> None:
    fragment = ledgers_latex(claims_for("ptft-diagonal-networks"))
    assert fragment.startswith(r"\providecommand{\verdict}")
    assert structure_problems(fragment) == []


def test_document_is_structurally_sound() -> None:
    claims = all_claims()
    observed = {claims[0].id: Status.HOLDS, claims[1].id: Status.FAILS}
    document = _document(observed)
    assert document.startswith(r"\documentclass")
    assert document.rstrip().endswith(r"\end{document}")
    assert structure_problems(document) == []
    for source in SOURCES:
        assert rf"\section*{{{escape_text(source)}}}" in document


@pytest.mark.parametrize(
    ("broken", "complaint"),
    [
        (r"\intertext{a_b}", "raw '_'"),
        (r"\begin{align*} x \end{equation}", "does not close"),
        (r"\usepackage{tikz}", "tikz"),
        (r"\section*{s}\begin{align*}a\tag*{(1)}\\ b\tag*{(1)}\end{align*}", "twice"),
        (r"\textbf{50% off}", "left open"),
        (r"a & b", "raw '&'"),
        ("β", "non-ASCII"),
        (r"{x", "left open"),
    ],
)
def test_structure_check_finds_problems(broken: str, complaint: str) -> None:
    problems = structure_problems(broken)
    assert any(complaint in problem for problem in problems), problems


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")
def test_document_compiles_with_pdflatex(tmp_path: Path) -> None:
    claims = all_claims()
    source = tmp_path / "claims.tex"
    source.write_text(_document({claims[1].id: Status.FAILS}), encoding="utf-8")
    completed = subprocess.run(
        [
            "pdflatex",
            "-interaction=nonstopmode",
            "-halt-on-error",
            "-no-shell-escape",
            source.name,
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stdout[-3000:]
    assert (tmp_path / "claims.pdf").stat().st_size > 10_000


def test_an_inconclusive_for_another_reason_is_not_as_expected() -> None:
    claim = get_claim("ptft-relu-penalty:sec-1.2:l1-like-at-0.99")
    assert claim.expected_reason == Reason.UNDECIDED
    crashed = ledger_latex([claim], {claim.id: Verdict.inconclusive("x", Reason.CRASH)})
    assert (
        r"\textbf{inconclusive (crash)} (expected inconclusive (undecided))" in crashed
    )
    expected = ledger_latex([claim], {claim.id: Verdict.inconclusive("x")})
    assert r"\verdict{inconclusive (undecided); \emph{interpretation}}" in expected
