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

from implicit_bias.claims import Citation, Derivation, Source, Step
from implicit_bias.claims.checks import (
    check_identity,
    check_inequality,
    check_integral,
    check_limit,
    check_series,
)
from implicit_bias.claims.discovery import default_registry, shipped_registry
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
)
from implicit_bias.claims.registry import claims_for
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.latex import (
    PACKAGES,
    bibliography_bibtex,
    bibliography_latex,
    claim_latex,
    claims_latex,
    document_latex,
    equation_references,
    escape_text,
    formula_latex,
    ledger_latex,
    ledgers_latex,
    text_latex,
    typeset_counts,
)

# --- a structural checker of the generated LaTeX

#: Source id -> its claims (chains included), for the sources this package ships.
SOURCES = {s.id: s.all_claims() for s in shipped_registry().sources.values()}


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
    "footnotetext",
    "textsf",
    "texttt",
    "bibitem",
    "cite",
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


# --- a made-up source: a citation, claims sharing formulas, a derivation chain

_X = sp.Symbol("x_raw_name", positive=True)
_NASTY = "a_b 50% & #1 $5 {x} ~y ^z \\path <lt> >gt |bar| β ≤ 1\n\\end{document}"
_COUNTEREXAMPLE = "x = 1/2: 1/4 < 1/2 (exact) & 100% sure"
_SOURCE_ID = "made-up_source"


def _holds() -> Verdict:
    return Verdict.holds("made up", Basis.PROOF)


def _claim(
    equation: str, label: str, formula: object = None, **fields: object
) -> Claim:
    return Claim(
        _SOURCE_ID,
        equation,
        label,
        Kind.IDENTITY,
        str(fields.pop("statement", _NASTY)),
        _holds,
        Status(fields.pop("expected", Status.HOLDS)),
        formula=formula,  # type: ignore[arg-type]
        **fields,  # type: ignore[arg-type]
    )


def _synthetic_claims() -> list[Claim]:
    """Claims whose statements hold every character LaTeX treats specially."""
    x = _X
    return [
        _claim("1", "first", lambda: sp.Eq(x**2, x * x, evaluate=False)),
        _claim("1", "second"),
        _claim("sec-A.1", "prose", reading=Reading.PROSE),
        _claim("sec-A.1", "last", lambda: sp.Le(x, x + 1, evaluate=False)),
        _claim(
            "thm-2.2",
            "theorem",
            lambda: sp.Ge(x**2, 0, evaluate=False),
            assumptions=("x > 0",),
        ),
        # One formula, opposite verdicts: the regime tells them apart.
        _claim(
            "6",
            "as-printed",
            lambda: sp.Ge(x, 1),
            statement="x >= 1 everywhere",
            expected=Status.FAILS,
            reading=Reading.PROSE,
            regime="all x > 0",
        ),
        _claim(
            "6",
            "corrected",
            lambda: sp.Ge(x, 1),
            statement="x >= 1 everywhere",
            reading=Reading.EXTENSION,
            regime="x in [1, oo)",
            corrects=f"{_SOURCE_ID}:6:as-printed",
        ),
        # One formula, one statement, one regime: only the labels differ.
        _claim(
            "7",
            "twin-a",
            lambda: sp.Gt(x + 1, x, evaluate=False),
            statement="x + 1 > x",
        ),
        _claim(
            "7",
            "twin-b",
            lambda: sp.Gt(x + 1, x, evaluate=False),
            statement="x + 1 > x",
        ),
    ]


_CHAIN = Derivation(
    source=_SOURCE_ID,
    equation="8-9",
    label="square",
    title="A square bounded by x >= 0",
    start=lambda: (_X + 1) ** 2,
    steps=(
        Step(lambda: _X**2 + 2 * _X + 1, "expand the square (x+1)^2"),
        Step(lambda: 2 * _X + 1, "drop x^2 >= 0", ">="),
        Step(lambda: sp.Integer(1), "x > 0 ... wrongly", ">", expected=Status.FAILS),
    ),
    assumptions=("x > 0",),
    regime="symbolic x > 0",
)

_CITATION = Citation(
    "A made-up paper on $100 & 50% bounds",
    ("Ada Lovelace", "Émile Borel"),
    2024,
    venue="NeurIPS 2024",
    arxiv="2401.01234",
    arxiv_version="v2",
)

_SOURCE = Source(
    _SOURCE_ID,
    "A made-up source",
    citation=_CITATION,
    claims=tuple(_synthetic_claims()),
    derivations=(_CHAIN,),
    glyphs={_X: r"\xi"},
    description="Every special character: " + _NASTY,
)

#: The failing step refuted with a counterexample, as a run reports it.
_VERDICTS: dict[str, Status | Verdict] = {
    _CHAIN.claims[2].id: Verdict.fails(
        "1 > 2x+1 fails", Basis.CERTIFIED, _COUNTEREXAMPLE
    ),
    _CHAIN.claims[0].id: Status.HOLDS,
}


def _document(verdicts: dict[str, Status | Verdict] | None = None) -> str:
    sources = [*shipped_registry().sources.values(), _SOURCE]
    return document_latex(
        [*(c for shipped in SOURCES.values() for c in shipped), *_SOURCE.all_claims()],
        {**_VERDICTS, **(verdicts or {})},
        note="Verdicts recorded in results_v1.json (100% of them) & more.",
        sources=sources,
    )


def _synthetic_ledger(verdicts: dict[str, Status | Verdict] | None = None) -> str:
    return ledger_latex(_SOURCE.all_claims(), verdicts, sources=[_SOURCE])


# --- the fragments


def test_numbered_claims_carry_the_paper_number_as_tag() -> None:
    for claim in claims_for("ptft-relu-penalty"):
        block = claim_latex(claim)
        if block is None:
            continue
        if re.fullmatch(r"[0-9]+(-[0-9]+)?", claim.equation):
            assert rf"\tag{{{claim.equation}}}" in block
        else:
            assert r"\notag" in block


def test_paper_glyphs_replace_symbol_names() -> None:
    text = "\n".join(
        line
        for line in claims_latex(claims_for("ptft-relu-penalty")).splitlines()
        if not line.startswith("%")
    )
    for glyph in (r"m_{0h}^{(1)}", r"\rho_{h}", r"\gamma"):
        assert glyph in text
    assert not re.search(r"(?<![\\a-zA-Z_{])m0(?![a-zA-Z])", text)


def test_formula_is_sympy_latex_of_the_claims_relation() -> None:
    for claim in claims_for("ptft-relu-penalty"):
        if claim.formula is None:
            continue
        glyphs = default_registry().glyphs(claim.source)
        assert formula_latex(claim) == sp.latex(claim.formula(), symbol_names=glyphs)


def test_environments_balance() -> None:
    text = claims_latex(claims_for("ptft-relu-penalty"))
    assert text.count(r"\begin{equation}") == text.count(r"\end{equation}") > 10
    assert text.count("{") == text.count("}")


# --- escaping


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("m_h", r"m$_{h}$"),
        ("scratch_risk_finite", r"scratch\_risk\_finite"),
        ("W_{L-1}", r"W$_{L-1}$"),
        ("alpha^(L-1) and x^T", r"alpha$^{L-1}$ and x$^{T}$"),
        ("a ^ b", r"a \^{} b"),
        ("50%", r"50\%"),
        ("a & b", r"a \& b"),
        ("#1", r"\#1"),
        ("$5", r"$\$$5"),
        ("{x}", r"\{x\}"),
        ("~", r"\~{}"),
        ("^", r"\^{}"),
        ("\\", r"$\backslash$"),
        ("u -> 0", r"u $\to$ 0"),
        ("p >= 1", r"p $\geq$ 1"),
        ("s1, s2 <= 1", r"s1, s2 $\leq$ 1"),
        ("c != 0", r"c $\neq$ 0"),
        ("n -> oo, zoo", r"n $\to$ $\infty$, zoo"),
        ("||beta||^2", r"$\|$beta$\|^{2}$"),
        ("<w, v>", "$<$w, v$>$"),
        ("|m|", "$|$m$|$"),
        ("β", r"$\beta$"),
        ("β²", r"$\beta^{2}$"),
        ("M⁻¹", r"M$^{-1}$"),
        ("λ", r"$\lambda$"),
        ("Σ", r"$\Sigma$"),
        ("Α", r"$\mathrm{A}$"),
        ("ω̃", r"$\tilde{\omega}$"),
        ("É", r"\'{E}"),
        ("≤", r"$\leq$"),
        ("§", r"$\S$"),
        ("☃", "[U+2603]"),
        ("plain words 1.5", "plain words 1.5"),
    ],
)
def test_escape_text(text: str, escaped: str) -> None:
    assert escape_text(text) == escaped


@given(st.text(alphabet=string.printable.replace("\x0b", "").replace("\x0c", "")))
@example(r"\_%&#$^~{}<>|")
@example("a >= b <= c != d -> e")
def test_escaped_text_has_no_raw_special_characters(text: str) -> None:
    # Printable ASCII only: the domain of the statements and evidence.
    escaped = _strip_comments(escape_text(text))
    assert _mode_problems(escaped) == []
    assert "%" not in escaped.replace(r"\%", "")
    assert not re.search(r"(?<!\\)\$\$", escaped)
    # An ASCII relation is one symbol, never "$>$=" (greater-than, then "=").
    assert not re.search(r"\$[<>]\$=", escaped)


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
    references = equation_references(_SOURCE.all_claims())
    assert references[f"{_SOURCE_ID}:6:as-printed"] == "6a"
    assert references[f"{_SOURCE_ID}:thm-2.2:theorem"] == "thm-2.2"
    assert references[f"{_SOURCE_ID}:sec-A.1:prose"] == "sec-A.1a"


def test_ledger_has_every_claim_in_order_with_its_note() -> None:
    ledger = _synthetic_ledger()
    ids = re.findall(r"^% (\S+): ", ledger, flags=re.MULTILINE)
    assert ids == [claim.id for claim in _SOURCE.claims]
    with_formula = [c for c in _SOURCE.claims if c.formula is not None]
    # A row per claim with a formula and per step of the chain.
    assert ledger.count(r"\tag*{") == len(with_formula) + len(_CHAIN.steps)
    assert ledger.count(r"\verdict{\emph{expected ") == len(_SOURCE.all_claims())
    # Aligned at the relation: "lhs &= rhs".
    assert re.search(r"\\xi\^\{2\} &= \\xi\^\{2\} \\tag\*\{\(1a\)", ledger)
    assert r"(6b)\verdict{\emph{expected holds}; \emph{extension}; corrects (6a)}" in (
        ledger
    )


def test_claims_stated_in_words_show_statement_and_formula() -> None:
    ledger = _synthetic_ledger()
    prose = next(c for c in _SOURCE.claims if c.label == "as-printed")
    # The statement as text, with its relation as a symbol, above the formula.
    assert r"\intertext{(6a) x $\geq$ 1 everywhere" in ledger
    assert r"  \xi &\geq 1 \tag*{(6a)" in ledger
    assert "$>$=" not in ledger
    # A printed claim with a formula shows the formula, and its assumptions.
    assert r"\intertext{(Thm.~2.2) \emph{Assuming:} x $>$ 0}" in ledger
    # Without a formula, the statement alone, its tag at the right.
    assert re.search(r"\\intertext\{a\$_\{b\}\$ 50\\% .*\\hfill\\mbox\{\(1b\)", ledger)
    assert prose.formula is not None


def test_claims_sharing_a_formula_are_told_apart() -> None:
    ledger = _synthetic_ledger()
    lines = {
        reference: re.search(rf"\\intertext\{{\({reference}\) ([^\n]*)\}}\n", ledger)
        for reference in ("6a", "6b", "7a", "7b")
    }
    text = {reference: match.group(1) for reference, match in lines.items() if match}
    assert set(text) == {"6a", "6b", "7a", "7b"}
    assert r"\emph{When:} all x $>$ 0" in text["6a"]
    assert r"\emph{When:} x in [1, $\infty$)" in text["6b"]
    assert text["6a"] != text["6b"]
    # Same statement, regime and assumptions: the labels tell them apart.
    assert text["7a"].endswith(r"\emph{(check twin-a)}")
    assert text["7b"].endswith(r"\emph{(check twin-b)}")


def test_every_registered_pair_sharing_a_formula_is_told_apart() -> None:
    for source in shipped_registry().sources.values():
        claims = [c for c in source.claims if c.formula is not None]
        if not claims:
            continue
        lines = ledger_latex(source.claims).splitlines()
        formulas: dict[str, list[Claim]] = {}
        for claim in claims:
            formulas.setdefault(formula_latex(claim) or "", []).append(claim)
        for group in formulas.values():
            if len(group) < 2:
                continue
            texts = []
            for claim in group:
                # The line after the claim's comment: its words, then its row.
                comment = next(
                    n
                    for n, line in enumerate(lines)
                    if line.startswith(f"% {claim.id}:")
                )
                words = lines[comment + 1]
                assert words.startswith(r"\intertext{"), claim.id
                if r"\hfill\mbox{" in words:
                    # A formula too wide to typeset: the words stand alone,
                    # the reference and verdict after them.
                    texts.append(words[len(r"\intertext{") :].split(r"\hfill")[0])
                else:
                    assert words.startswith(r"\intertext{("), claim.id
                    texts.append(words.split(") ", 1)[1])
            assert len(set(texts)) == len(texts), [c.id for c in group]


def test_chain_is_one_align_with_justifications_and_verdicts() -> None:
    ledger = _synthetic_ledger(_VERDICTS)
    chain = ledger[ledger.index(r"\textbf{Derivation (8--9)") :]
    environment = chain[: chain.index(r"\end{align*}")]
    assert environment.count(r"\begin{align*}") == 1
    # e_0, then one line per step with its relation, justification and verdict.
    assert r"  & \left(\xi + 1\right)^{2} \\" in environment
    assert r"&= \xi^{2} + 2 \xi + 1 && \parbox" in environment
    assert r"&\geq 2 \xi + 1 && \parbox" in environment
    assert r"drop x$^{2}$ $\geq$ 0" in environment
    assert environment.count(r"\tag*{") == len(_CHAIN.steps)
    assert r"(8--9a)\verdict{holds; \emph{printed}}" in environment
    assert r"(8--9c)\verdict{fails, certified\footnotemark; \emph{printed}}" in (
        environment
    )
    # The steps are the chain, not rows of the ledger above it as well.
    for claim in _CHAIN.claims:
        assert ledger.count(claim.id) == 1
        assert escape_text(claim.statement) not in ledger


def test_counterexample_of_a_refuted_step_is_a_footnote() -> None:
    ledger = _synthetic_ledger(_VERDICTS)
    after = ledger[ledger.index(r"\textbf{Derivation (8--9)") :]
    after = after[after.index(r"\end{align*}") :]
    assert after.splitlines()[1:3] == [
        r"\addtocounter{footnote}{-1}",
        r"\stepcounter{footnote}\footnotetext{Counterexample to (8--9c): "
        + escape_text(_COUNTEREXAMPLE)
        + "}",
    ]
    assert ledger.count(r"\footnotemark") == ledger.count(r"\footnotetext") == 1
    # No verdict observed: no footnote.
    assert r"\footnotemark" not in _synthetic_ledger()
    assert r"\footnotetext" not in _synthetic_ledger()


def test_wide_rows_get_an_environment_of_their_own() -> None:
    x = _X
    wide = _claim("9", "wide", lambda: sp.Eq(sum(x**k / k for k in range(1, 30)), 1))
    claims = [*_SOURCE.claims[:2], wide, _SOURCE.claims[3]]
    ledger = ledger_latex(claims, sources=[_SOURCE])
    assert ledger.count(r"\begin{align*}") == 3
    assert structure_problems(ledger) == []


def test_typeset_counts_steps_and_formulas_as_mathematics() -> None:
    counts = typeset_counts(_SOURCE.all_claims(), sources=[_SOURCE])
    without = sum(1 for c in _SOURCE.claims if c.formula is None)
    assert counts == {
        "mathematics": len(_SOURCE.all_claims()) - without,
        "text": without,
    }


def test_every_claim_with_a_formula_is_typeset_as_mathematics() -> None:
    from implicit_bias.latex.equations import typeset
    from implicit_bias.latex.ledgers import _LONGEST_FORMULA, _fitting, _width

    document = _document()
    broken = 0
    for source in [*shipped_registry().sources.values(), _SOURCE]:
        glyphs = dict(source.glyphs)
        for claim in source.claims:
            if claim.formula is None:
                continue
            try:
                formula = claim.formula()
            except Exception:
                broken += 1
                continue
            shown = formula.rhs if isinstance(formula, sp.Rel) else formula
            written = typeset(formula, glyphs)
            if _width(written) > _LONGEST_FORMULA:
                # Too wide for TeX: the claim is shown in words.
                assert claim.statement.split()[0] in document, claim.id
                continue
            assert typeset(shown, glyphs) in document, claim.id
        for chain in source.derivations:
            for expression in chain.expressions():
                latex = _fitting(typeset(expression, glyphs))
                assert latex in document
    # A formula that cannot be built is said so, beside the claim's words.
    assert document.count("Its formula could not be built") == broken


def test_a_formula_that_cannot_be_built_is_shown_in_words() -> None:
    def broken() -> sp.Basic:
        raise NotImplementedError("Not sure of sign of L - 1")

    claim = _claim("3", "broken", broken, statement="x >= 1")
    ledger = ledger_latex([claim, *_SOURCE.claims[:1]], sources=[_SOURCE])
    assert (
        r"\intertext{x $\geq$ 1 \emph{(Its formula could not be built: "
        r"NotImplementedError: Not sure of sign of L - 1)}\hfill\mbox{(3)" in ledger
    )
    assert typeset_counts([claim], sources=[_SOURCE]) == {"mathematics": 0, "text": 1}


def test_observed_verdicts_replace_the_expected_ones() -> None:
    claims = _SOURCE.claims
    first, second = claims[5], claims[6]
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


def test_tags_typeset_ranges_and_named_labels() -> None:
    ledger = _synthetic_ledger()
    assert r"\tag*{(1a)" in ledger
    assert r"\mbox{($\S$\,A.1a)" in ledger
    assert r"\tag*{($\S$\,A.1b)" in ledger
    assert r"\tag*{(Thm.~2.2)" in ledger
    assert r"\tag*{(8--9b)" in ledger


def test_empty_ledger_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="claims is empty"):
        ledger_latex([])


def test_ledger_fragment_defines_its_margin_macro() -> None:
    fragment = ledgers_latex(_SOURCE.all_claims(), _VERDICTS, sources=[_SOURCE])
    assert fragment.startswith(r"\providecommand{\verdict}")
    assert structure_problems(fragment) == []


# --- the bibliography and the document


def test_bibliography_has_each_record_once_with_its_arxiv_id() -> None:
    sources = [*shipped_registry().sources.values(), _SOURCE]
    bibliography = bibliography_latex(sources)
    cited = {s.citation for s in sources if s.citation is not None}
    assert bibliography.count(r"\bibitem{") == len(cited)
    for citation in cited:
        assert f"arXiv:{citation.arxiv}{citation.arxiv_version}" in bibliography
    assert r"\bibitem{made-up:source} Ada Lovelace and \'{E}mile Borel." in bibliography
    assert r"\emph{A made-up paper on $\$$100 \& 50\% bounds}" in bibliography
    assert bibliography_latex([Source("no-record", "No record")]) == ""
    bibtex = bibliography_bibtex(sources)
    assert bibtex.count("\n@") + bibtex.startswith("@") == len(cited)
    assert "@article{made-up:source," in bibtex


def test_sources_sharing_a_record_share_its_key() -> None:
    twin = Source("twin-source", "Twin", citation=_CITATION)
    document = document_latex(
        [*_SOURCE.claims[:1], _claim_of("twin-source")],
        sources=[_SOURCE, twin],
    )
    assert document.count(r"\bibitem{") == 1
    assert document.count(r"\cite{made-up:source}") == 2


def _claim_of(source: str) -> Claim:
    return Claim(source, "1", "x", Kind.IDENTITY, "x", _holds, Status.HOLDS)


def test_document_is_structurally_sound() -> None:
    document = _document()
    assert document.startswith(r"\documentclass")
    assert document.rstrip().endswith(r"\end{document}")
    assert structure_problems(document) == []
    for source in [*shipped_registry().sources.values(), _SOURCE]:
        assert rf"\section*{{{escape_text(source.title)}" in document
        if source.citation is not None:
            assert r"\cite{" in document
    assert document.index(r"\begin{thebibliography}") > document.index(
        r"\section*{A made-up source"
    )
    for wrong in ("$>$=", "$<$=", "-$>$"):
        assert wrong not in document
    assert "/work/" not in document
    assert ".." + "/shared" not in document


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
    source = tmp_path / "claims.tex"
    source.write_text(_document(), encoding="utf-8")
    command = [
        "pdflatex",
        "-interaction=nonstopmode",
        "-halt-on-error",
        "-no-shell-escape",
        source.name,
    ]
    # Twice: the first run writes the citations the second one resolves.
    for _ in range(2):
        completed = subprocess.run(
            command,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )
        assert completed.returncode == 0, completed.stdout[-3000:]
    assert (tmp_path / "claims.pdf").stat().st_size > 10_000
    log = (tmp_path / "claims.log").read_text("latin-1")
    assert "undefined" not in log.lower(), re.findall(r".*undefined.*", log)
    # No TS1 text-companion font, which may exist only as METAFONT sources.
    assert not re.search(r"\btc(rm|ss|tt)[0-9]", log)


def test_an_inconclusive_for_another_reason_is_not_as_expected() -> None:
    claim = _claim(
        "2",
        "undecided",
        expected=Status.INCONCLUSIVE,
        expected_reason=Reason.UNDECIDED,
        reading=Reading.INTERPRETATION,
    )
    crashed = ledger_latex([claim], {claim.id: Verdict.inconclusive("x", Reason.CRASH)})
    assert (
        r"\textbf{inconclusive (crash)} (expected inconclusive (undecided))" in crashed
    )
    expected = ledger_latex([claim], {claim.id: Verdict.inconclusive("x")})
    assert r"\verdict{inconclusive (undecided); \emph{interpretation}}" in expected


def test_a_counterexample_footnote_names_the_point_in_the_source_glyphs() -> None:
    # Issue 21: the footnote gave SymPy's names (x_raw_name), the ledger xi.
    refuted = Verdict.fails(
        "1 > 2x+1 fails",
        Basis.CERTIFIED,
        _COUNTEREXAMPLE,
        point={"x_raw_name": "1/2", "y_other": "3"},
    )
    ledger = _synthetic_ledger({**_VERDICTS, _CHAIN.claims[2].id: refuted})
    # A symbol without a glyph is set by SymPy.
    assert (
        r"\footnotetext{Counterexample to (8--9c) at $\xi = 1/2$, $y_{other} = 3$: "
        + escape_text(_COUNTEREXAMPLE)
        + "}"
    ) in ledger
    assert structure_problems(ledger) == []


# --- claims written as bare calls of the relation helpers (issue 21)


def _bare(equation: str, label: str, kind: Kind, check: object) -> Claim:
    return Claim(
        _SOURCE_ID,
        equation,
        label,
        kind,
        f"claim {label}",
        check,  # type: ignore[arg-type]
        Status.HOLDS,
    )


def test_a_bare_helper_call_is_typeset_as_mathematics() -> None:
    # Before, a check=lambda: check_identity(lhs, rhs) with no formula= and no
    # relation_check was typeset as plain text.
    x = _X
    claims = [
        _bare("1", "identity", Kind.IDENTITY, lambda: check_identity(x * x, x**2)),
        _bare("2", "limit", Kind.LIMIT, lambda: check_limit(sp.sin(x) / x, x, 0, 1)),
        _bare("3", "bound", Kind.INEQUALITY, lambda: check_inequality(x, x + 1)),
        _bare(
            "4",
            "series",
            Kind.LIMIT,
            lambda: check_series(sp.exp(x), x, 1 + x + x**2 / 2, 3),
        ),
        _bare(
            "5",
            "integral",
            Kind.IDENTITY,
            lambda: check_integral(sp.exp(-x), (x, 0, sp.oo), 1),
        ),
    ]
    assert typeset_counts(claims, sources=[_SOURCE]) == {"mathematics": 5, "text": 0}
    ledger = ledger_latex(claims, sources=[_SOURCE])
    for row in (
        r"\xi^{2} &= \xi^{2}",
        r"\lim_{\xi \to 0^+}\left(\frac{\sin{\left(\xi \right)}}{\xi}\right) &= 1",
        r"\xi &\leq \xi + 1",
        r"&= 1 + \xi + \frac{\xi^{2}}{2} + O\left(\xi^{3}\right)",
        r"\int\limits_{0}^{\infty} e^{- \xi}\, d\xi &= 1",
    ):
        assert row in ledger
    # Equations as printed: no words beside them.
    assert r"\intertext{claim identity" not in ledger
    assert structure_problems(ledger) == []


def test_a_check_calling_no_relation_helper_is_still_typeset_in_words() -> None:
    claim = _bare("6", "by-hand", Kind.SIMULATION, _holds)
    assert typeset_counts([claim], sources=[_SOURCE]) == {"mathematics": 0, "text": 1}
    assert r"\intertext{claim by-hand" in ledger_latex([claim], sources=[_SOURCE])


def test_a_chain_is_typeset_where_the_paper_prints_it() -> None:
    # Issue 21: the chains came after every other claim of the source.
    before = _claim(
        "7", "before", lambda: sp.Gt(_X + 1, _X, evaluate=False), statement="x+1 > x"
    )
    after = _claim(
        "10", "after", lambda: sp.Ge(_X**2, 0, evaluate=False), statement="x^2 >= 0"
    )
    source = Source(
        _SOURCE_ID,
        "In the paper's order",
        claims=(before, after),
        derivations=(_CHAIN,),
        glyphs={_X: r"\xi"},
    )
    ledger = ledger_latex(source.all_claims(), sources=[source])
    places = [ledger.index(f"% {c.id}") for c in (before, *_CHAIN.claims, after)]
    assert places == sorted(places)
    # The single claims' align* is split around the chain's.
    assert ledger.count(r"\begin{align*}") == 3
    assert structure_problems(ledger) == []


def test_mathematics_between_dollar_signs_is_typeset_as_math() -> None:
    # Issue 21: a statement's "$x^2$" came out as "\$x\$$^{2}$\$", and a
    # quote in a justification printed its dollar signs.
    claim = _claim(
        "1",
        "squared",
        statement=r"$x^2 \geq 0$ for every real $x$, at $5 a test",
        reading=Reading.PROSE,
    )
    chain = Derivation(
        source=_SOURCE_ID,
        equation="2",
        label="quoted",
        title=r"The square of $\hat x$",
        start=lambda: (_X + 1) ** 2,
        steps=(
            Step(
                lambda: _X**2 + 2 * _X + 1,
                "expand ('multiplying by $u^3/2$ yields')",
            ),
        ),
    )
    source = Source(_SOURCE_ID, "t", claims=(claim,), derivations=(chain,))
    ledger = ledger_latex(source.all_claims(), sources=[source])
    assert r"$x^2 \geq 0$ for every real $x$, at $\$$5 a test" in ledger
    assert r"The square of $\hat x$" in ledger
    assert r"expand ('multiplying by $u^3/2$ yields')" in ledger
    assert r"\$u" not in ledger
    assert structure_problems(ledger) == []


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("$a$", "$a$"),
        (r"$\alpha$β", r"$\alpha \beta$"),  # one formula, the glyphs apart
        ("$a$ and $b$", "$a$ and $b$"),
        ("$5 and 50%", r"$\$$5 and 50\%"),  # a lone "$" is a dollar sign
        ("$$", r"$\$\$$"),
        ("M_hat", "M$_{hat}$"),
    ],
)
def test_text_latex(text: str, latex: str) -> None:
    assert text_latex(text) == latex


def test_a_formula_too_wide_for_tex_is_set_in_words() -> None:
    # TeX stops with "Dimension too large" on a line thousands of points wide
    # (a chain on symbolic 2x2 matrices written out entry by entry).
    from implicit_bias.latex.ledgers import _LONGEST_FORMULA, _fitting

    x = sp.Symbol("x")
    wide = sp.latex(sp.Add(*(sp.Symbol(f"x_{i}") ** i for i in range(400))))
    assert _fitting(sp.latex(x**2)) == "x^{2}"
    assert "too wide to typeset" in _fitting(wide)
    assert len(wide) > _LONGEST_FORMULA


def test_a_closed_integral_is_printed_without_being_integrated() -> None:
    # SymPy orders a sum's terms by evaluating their numeric factors: the docs
    # spent most of their build integrating the closed integrals of
    # features-are-fate's Gaussian expectations by quadrature.
    from implicit_bias.latex.equations import typeset

    evaluations: list[int] = []

    class Counted(sp.Function):
        def _eval_evalf(self, prec: int) -> sp.Float:
            evaluations.append(prec)
            return sp.Float(1, prec)

    t, y = sp.symbols("t y")
    expression = (
        sp.Integral(Counted(t), (t, 0, 1)) * y
        + sp.Integral(Counted(t), (t, 0, 2)) * y**2
    )
    written = typeset(expression, {y: r"\gamma"})
    assert evaluations == []
    assert r"\gamma^{2}" in written
    assert r"\int\limits_{0}^{1}" in written
    # Without a closed integral, SymPy's own order of the terms.
    assert typeset(y**2 + y + 1, {y: r"\gamma"}) == sp.latex(
        y**2 + y + 1, symbol_names={y: r"\gamma"}
    )
