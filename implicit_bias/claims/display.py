r"""Claims, verdicts, results and derivations in LaTeX, HTML and Markdown, for Jupyter.

Jupyter shows the last value of a cell through its ``_repr_html_``,
``_repr_markdown_`` or ``_repr_latex_``: a front end renders the richest of
them it can (HTML, in JupyterLab and the classic notebook), and nbconvert's
LaTeX and PDF export takes the ``text/latex`` one.
:class:`~implicit_bias.claims.engine.Claim`,
:class:`~implicit_bias.claims.engine.Verdict`,
:class:`~implicit_bias.claims.engine.Result` and
:class:`~implicit_bias.claims.derivation.Derivation` define these methods
with the functions here, so a claim, or the verdict a check helper returns,
shows itself when a cell ends with it.

What an object shows is decided once, as a few blocks (paragraphs, a
displayed formula, labelled fields, a derivation's chain), and then written
in each markup: text escaped for it (:func:`html.escape` for HTML, the ten
special characters for LaTeX, Markdown's punctuation), formulas typeset by
:func:`sympy.latex` between ``$...$`` or ``$$...$$``, as MathJax reads them
in every notebook front end. Text may carry inline mathematics of its own
between ``$`` signs, as sources' quotes do (``"the $\ell_{1,2}$ norm"``):
it stays mathematics in every markup. Showing a claim builds its formula
(``Claim.formula``) but never runs its check.

Examples:
  >>> import sympy as sp
  >>> from implicit_bias.claims import Claim, Kind, Status, relation_check
  >>> x = sp.Symbol("x", positive=True)
  >>> claim = Claim(
  ...     "my-note", "1", "log-square", Kind.IDENTITY, "log x^2 = 2 log x",
  ...     relation_check(lambda: sp.Eq(sp.log(x**2), 2 * sp.log(x))), Status.HOLDS)
  >>> r"$$\log{\left(x^{2} \right)} = 2 \log{\left(x \right)}$$" in render_claim(
  ...     claim, "html")
  True
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeVar, assert_never

import sympy as sp

from implicit_bias.claims.engine import Claim, Reason, Result, Status, Verdict
from implicit_bias.errors import InvalidArgumentError

if TYPE_CHECKING:
    from implicit_bias.claims.derivation import Derivation, Step

__all__ = [
    "MARKUPS",
    "render_claim",
    "render_derivation",
    "render_result",
    "render_verdict",
]

#: The markups every ``render_*`` function writes.
MARKUPS = ("latex", "html", "markdown")

SpanKind = Literal["text", "strong", "code", "math", "status"]


@dataclass(frozen=True)
class _Span:
    """A run of inline content: text, strong text, code (an id), inline
    mathematics (LaTeX) or a status (its value), written with its mark."""

    kind: SpanKind
    text: str


@dataclass(frozen=True)
class _Paragraph:
    spans: tuple[_Span, ...]


@dataclass(frozen=True)
class _Formula:
    """A displayed formula (LaTeX)."""

    latex: str


@dataclass(frozen=True)
class _Fields:
    """Labelled lines: ``(label, content)``."""

    rows: tuple[tuple[str, tuple[_Span, ...]], ...]


@dataclass(frozen=True)
class _Chain:
    """A derivation's chain: the start, then per step its relation and
    expression (LaTeX) and what is said beside it."""

    start: str
    steps: tuple[tuple[str, str, tuple[_Span, ...]], ...]


_Block = _Paragraph | _Formula | _Fields | _Chain


@dataclass(frozen=True)
class _Document:
    """What one object shows; ``kind`` names it in the HTML's CSS class."""

    kind: str
    blocks: tuple[_Block, ...]


# ----------------------------------------------------------------- contents

_INLINE_MATH = re.compile(r"\$([^$]+)\$")


def _prose(text: str) -> tuple[_Span, ...]:
    """``text`` as spans, its runs of white space one space and its ``$...$``
    inline mathematics kept as mathematics."""
    spans: list[_Span] = []
    for number, piece in enumerate(_INLINE_MATH.split(" ".join(text.split()))):
        # re.split puts the captured mathematics at the odd places.
        if piece:
            spans.append(_Span("math" if number % 2 else "text", piece))
    return tuple(spans)


def _text(text: str) -> _Span:
    return _Span("text", text)


def _line(*parts: _Span | tuple[_Span, ...]) -> _Paragraph:
    """A paragraph of ``parts`` (a span, or spans as :func:`_prose` gives
    them, which keep their own spacing), one space between parts."""
    spans: list[_Span] = []
    for part in parts:
        if spans:
            spans.append(_text(" "))
        spans.extend((part,) if isinstance(part, _Span) else part)
    return _Paragraph(tuple(spans))


_T = TypeVar("_T")


def _built(builder: Callable[[], _T], what: str) -> _T | _Paragraph:
    """What ``builder`` returns; if it raises, a paragraph saying so instead,
    so that the rest of the object still shows (the error is what its author
    needs to see)."""
    try:
        return builder()
    except Exception as error:
        return _line(
            _Span("strong", f"{what} could not be built:"), _text(_error(error))
        )


def _error(error: Exception) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _expected(status: Status, reason: Reason | None) -> str:
    """``holds``, or ``inconclusive (budget)`` with the reason."""
    return str(Status(status)) + ("" if reason is None else f" ({Reason(reason)})")


def _claim_document(
    claim: Claim, symbol_names: Mapping[sp.Symbol, str] | None
) -> _Document:
    blocks: list[_Block] = [
        _line(
            _Span("strong", "Claim"),
            _Span("code", claim.id),
            _text(
                f"· {claim.kind} · expected "
                f"{_expected(claim.expected, claim.expected_reason)}"
            ),
        ),
        _Paragraph(_prose(claim.statement)),
    ]
    if claim.formula is not None:
        formula = _built(claim.formula, "The formula")
        blocks.append(
            formula
            if isinstance(formula, _Paragraph)
            else _Formula(sp.latex(formula, symbol_names=symbol_names or {}))
        )
    fields = _fields(
        [
            ("Quote", f"“{claim.quote}”" if claim.quote else ""),
            ("Reading", "" if claim.reading is None else str(claim.reading)),
            ("Regime", claim.regime),
            ("Assuming", "; ".join(claim.assumptions)),
            ("Corrects", claim.corrects or ""),
        ]
    )
    if fields.rows:
        blocks.append(fields)
    return _Document("claim", tuple(blocks))


def _fields(fields: Sequence[tuple[str, str]]) -> _Fields:
    """The fields that say something."""
    return _Fields(tuple((label, _prose(text)) for label, text in fields if text))


def _verdict_document(
    verdict: Verdict, symbol_names: Mapping[sp.Symbol, str] | None
) -> _Document:
    heading: list[_Span | tuple[_Span, ...]] = [_Span("status", str(verdict.status))]
    if verdict.reason is not None:
        heading += [_text("· reason"), _Span("strong", str(Reason(verdict.reason)))]
    if verdict.basis is not None:
        heading += [_text("· basis"), _Span("strong", str(verdict.basis))]
    blocks: list[_Block] = [_line(*heading)]
    if verdict.detail.strip():
        blocks.append(_Paragraph(_prose(verdict.detail)))
    if verdict.counterexample:
        blocks.append(
            _line(_Span("strong", "Counterexample:"), _prose(verdict.counterexample))
        )
    point = verdict.shown_point(symbol_names or {}, latex=True)
    if point:
        blocks.append(_line(_Span("strong", "Point:"), _prose(point)))
    return _Document("verdict", tuple(blocks))


def _result_document(
    result: Result, symbol_names: Mapping[sp.Symbol, str] | None
) -> _Document:
    seconds = _text(f"Checked in {result.seconds:.3g} s:")
    outcome = (
        _line(seconds, _text("as expected."))
        if result.as_expected
        else _line(
            seconds,
            _Span("strong", "not as expected,"),
            _text(
                f"expected "
                f"{_expected(result.claim.expected, result.claim.expected_reason)}."
            ),
        )
    )
    return _Document(
        "result",
        (
            *_claim_document(result.claim, symbol_names).blocks,
            *_verdict_document(result.verdict, symbol_names).blocks,
            outcome,
        ),
    )


#: LaTeX of a step's relation, as :func:`sympy.latex` writes it.
_RELATION_LATEX = {"=": "=", "<=": r"\leq", "<": "<", ">=": r"\geq", ">": ">"}


def _derivation_document(
    derivation: Derivation, symbol_names: Mapping[sp.Symbol, str] | None
) -> _Document:
    heading = _line(
        _Span("strong", "Derivation"),
        _Span("code", f"{derivation.source}:{derivation.equation}:{derivation.label}"),
        _text("·"),
        _prose(derivation.title),
    )
    expressions = _built(derivation.expressions, "The expressions")
    chain: _Block
    if isinstance(expressions, _Paragraph):
        chain = expressions
    else:
        latex = [sp.latex(e, symbol_names=symbol_names or {}) for e in expressions]
        chain = _Chain(
            latex[0],
            tuple(
                (_RELATION_LATEX[step.relation], expression, _step_note(step))
                for step, expression in zip(derivation.steps, latex[1:], strict=True)
            ),
        )
    blocks: list[_Block] = [heading, chain]
    fields = _fields(
        [
            ("Quote", f"“{derivation.quote}”" if derivation.quote else ""),
            ("Reading", str(derivation.reading)),
            ("Regime", derivation.regime),
            ("Assuming", "; ".join(derivation.assumptions)),
        ]
    )
    if fields.rows:
        blocks.append(fields)
    return _Document("derivation", tuple(blocks))


def _step_note(step: Step) -> tuple[_Span, ...]:
    """What a step says beside its expression: its justification, and the
    verdict it is expected to have when that is not ``holds``."""
    note = _prose(step.justification)
    if step.expected != Status.HOLDS:
        note += (_text(" — expected "), _Span("status", str(step.expected)))
    return note


# ------------------------------------------------------------------ writers

#: Each status's mark and, in HTML, its colour (legible on light and dark themes).
_MARKS = {
    Status.HOLDS: ("✓", r"$\checkmark$", "#1a7f37"),
    Status.FAILS: ("✗", r"$\times$", "#cf222e"),
    Status.INCONCLUSIVE: ("?", "?", "#9a6700"),
}


def _html_span(span: _Span) -> str:
    text = html.escape(span.text)
    if span.kind == "strong":
        return f"<strong>{text}</strong>"
    if span.kind == "code":
        return f"<code>{text}</code>"
    if span.kind == "math":
        return f"${text}$"
    if span.kind == "status":
        mark, _, colour = _MARKS[Status(span.text)]
        return f'<strong style="color: {colour}">{mark} {text}</strong>'
    return text


def _html_spans(spans: Sequence[_Span]) -> str:
    return "".join(map(_html_span, spans))


def _html_block(block: _Block) -> str:
    cell = '<td style="text-align: left">'
    match block:
        case _Paragraph(spans):
            return f"<p>{_html_spans(spans)}</p>"
        case _Formula(latex):
            return f"<p>$${html.escape(latex)}$$</p>"
        case _Fields(rows):
            lines = [
                f'<tr><th style="text-align: left">{html.escape(label)}</th>'
                f"{cell}{_html_spans(content)}</td></tr>"
                for label, content in rows
            ]
            return "\n".join(["<table>", *lines, "</table>"])
        case _Chain(start, steps):
            lines = [f"<tr>{cell}${html.escape(start)}$</td><td></td><td></td></tr>"]
            lines += [
                f"<tr>{cell}${html.escape(relation)} {html.escape(latex)}$</td>"
                f"<td>({number})</td>{cell}{_html_spans(note)}</td></tr>"
                for number, (relation, latex, note) in enumerate(steps, start=1)
            ]
            return "\n".join(["<table>", *lines, "</table>"])
        case _:
            assert_never(block)


def _html(document: _Document) -> str:
    return "\n".join(
        [
            f'<div class="implicit-bias-{document.kind}">',
            *map(_html_block, document.blocks),
            "</div>",
        ]
    )


#: Text-mode LaTeX of the characters that are not themselves in LaTeX text.
_LATEX_TEXT = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "^": r"\textasciicircum{}",
    "_": r"\_",
    "%": r"\%",
    "~": r"\textasciitilde{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
}
_LATEX_SPECIAL = re.compile("|".join(map(re.escape, _LATEX_TEXT)))


def _latex_text(text: str) -> str:
    return _LATEX_SPECIAL.sub(lambda match: _LATEX_TEXT[match.group()], text)


def _latex_span(span: _Span) -> str:
    if span.kind == "strong":
        return rf"\textbf{{{_latex_text(span.text)}}}"
    if span.kind == "code":
        return rf"\texttt{{{_latex_text(span.text)}}}"
    if span.kind == "math":
        return f"${span.text}$"
    if span.kind == "status":
        _, mark, _ = _MARKS[Status(span.text)]
        return rf"{mark} \textbf{{{span.text}}}"
    return _latex_text(span.text)


def _latex_spans(spans: Sequence[_Span]) -> str:
    return "".join(map(_latex_span, spans))


def _latex_block(block: _Block) -> str:
    match block:
        case _Paragraph(spans):
            return _latex_spans(spans)
        case _Formula(latex):
            return f"$${latex}$$"
        case _Fields(rows):
            return " \\\\\n".join(
                rf"\emph{{{_latex_text(label)}:}} {_latex_spans(content)}"
                for label, content in rows
            )
        case _Chain(start, steps):
            lines = [rf"  & {start}"]
            lines += [
                rf"  &{relation} {latex} && \text{{({number}) {_latex_spans(note)}}}"
                for number, (relation, latex, note) in enumerate(steps, start=1)
            ]
            return "\n".join(
                [r"\begin{align*}", " \\\\\n".join(lines), r"\end{align*}"]
            )
        case _:
            assert_never(block)


def _latex(document: _Document) -> str:
    return "\n\n".join(map(_latex_block, document.blocks))


#: The characters Markdown may read as markup anywhere in a line.
_MARKDOWN_SPECIAL = re.compile(r"[\\`*_\[\]#|~$]")
#: What opens a list at the start of a paragraph (a quote's ">" is an entity).
_MARKDOWN_OPENING = re.compile(r"^(\d+(?=[.)])|(?=[-+]))")


def _markdown_text(text: str) -> str:
    # Markdown passes HTML through: <, > and & become entities first.
    return _MARKDOWN_SPECIAL.sub(r"\\\g<0>", html.escape(text, quote=False))


def _markdown_math(latex: str) -> str:
    # Front ends take the mathematics out before reading the Markdown, but one
    # that does not would read "<" as HTML: \lt and \gt are MathJax's and KaTeX's.
    return latex.replace("<", r"\lt ").replace(">", r"\gt ")


def _markdown_span(span: _Span) -> str:
    if span.kind == "strong":
        return f"**{_markdown_text(span.text)}**"
    if span.kind == "code":
        fence = "`" * (max(map(len, re.findall("`+", span.text)), default=0) + 1)
        return f"{fence} {span.text} {fence}"
    if span.kind == "math":
        return f"${_markdown_math(span.text)}$"
    if span.kind == "status":
        mark, _, _ = _MARKS[Status(span.text)]
        return f"{mark} **{span.text}**"
    return _markdown_text(span.text)


def _markdown_spans(spans: Sequence[_Span]) -> str:
    return "".join(map(_markdown_span, spans))


def _markdown_block(block: _Block) -> str:
    match block:
        case _Paragraph(spans):
            # "1. x" or "- x" would open a list: escape the mark.
            return _MARKDOWN_OPENING.sub(r"\g<0>\\", _markdown_spans(spans), count=1)
        case _Formula(latex):
            return f"$${_markdown_math(latex)}$$"
        case _Fields(rows):
            return "\n".join(
                f"- **{_markdown_text(label)}:** {_markdown_spans(content)}"
                for label, content in rows
            )
        case _Chain(start, steps):
            lines = [
                f"{number}. ${_markdown_math(f'{relation} {latex}')}$ — "
                f"{_markdown_spans(note)}"
                for number, (relation, latex, note) in enumerate(steps, start=1)
            ]
            return f"${_markdown_math(start)}$\n\n" + "\n".join(lines)
        case _:
            assert_never(block)


def _markdown(document: _Document) -> str:
    return "\n\n".join(map(_markdown_block, document.blocks))


_WRITERS: dict[str, Callable[[_Document], str]] = {
    "latex": _latex,
    "html": _html,
    "markdown": _markdown,
}


def _written(document: _Document, markup: str) -> str:
    if markup not in _WRITERS:
        raise InvalidArgumentError(
            f"markup={markup!r} is not one of {', '.join(MARKUPS)}: the markups a "
            "notebook renders"
        )
    return _WRITERS[markup](document)


# ------------------------------------------------------------------- public


def render_claim(
    claim: Claim,
    markup: str,
    *,
    symbol_names: Mapping[sp.Symbol, str] | None = None,
) -> str:
    r"""A claim in ``markup`` (one of :data:`MARKUPS`): its id, kind and
    expected verdict, its statement, its formula typeset when it has one
    (built, never checked), and its quote, reading, regime, assumptions and
    the claim it corrects, where given.

    Args:
      claim: the claim.
      markup: ``"latex"``, ``"html"`` or ``"markdown"``.
      symbol_names: symbol -> its LaTeX, passed to :func:`sympy.latex` (a
        source's ``glyphs``, to typeset in its notation).

    Raises:
      InvalidArgumentError: ``markup`` is not one of :data:`MARKUPS`.
    """
    return _written(_claim_document(claim, symbol_names), markup)


def render_verdict(
    verdict: Verdict,
    markup: str,
    *,
    symbol_names: Mapping[sp.Symbol, str] | None = None,
) -> str:
    r"""A verdict in ``markup``: its status with its mark (✓ holds, ✗ fails,
    ? inconclusive), its reason and basis, its detail, its counterexample and
    the counterexample's point, each coordinate typeset.

    Args:
      verdict: the verdict.
      markup: ``"latex"``, ``"html"`` or ``"markdown"``.
      symbol_names: symbol -> its LaTeX, naming the point's coordinates (a
        source's ``glyphs``).

    Raises:
      InvalidArgumentError: ``markup`` is not one of :data:`MARKUPS`.
    """
    return _written(_verdict_document(verdict, symbol_names), markup)


def render_result(
    result: Result,
    markup: str,
    *,
    symbol_names: Mapping[sp.Symbol, str] | None = None,
) -> str:
    r"""A result of :func:`~implicit_bias.claims.engine.run_claims` in
    ``markup``: its claim (:func:`render_claim`), its verdict
    (:func:`render_verdict`), the seconds its check took and whether the
    verdict is the one the claim expects.

    Raises:
      InvalidArgumentError: ``markup`` is not one of :data:`MARKUPS`.
    """
    return _written(_result_document(result, symbol_names), markup)


def render_derivation(
    derivation: Derivation,
    markup: str,
    *,
    symbol_names: Mapping[sp.Symbol, str] | None = None,
) -> str:
    r"""A derivation in ``markup``: its id and title, then its chain
    :math:`e_0, \mathrel{R_1} e_1, \dots` typeset step by step in order, each
    step with its justification (and its expected verdict when that is not
    ``holds``), then its quote, reading, regime and assumptions.

    Raises:
      InvalidArgumentError: ``markup`` is not one of :data:`MARKUPS`.
    """
    return _written(_derivation_document(derivation, symbol_names), markup)
