r"""A source's claims as ``align*`` ledgers: formulas aligned at their
relation, each tagged with its reference and its verdict in the margin,
claims stated in words as text lines, derivation chains one step a line
(see :mod:`implicit_bias.latex` for the whole layout).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

import sympy as sp

from implicit_bias.claims.derivation import Derivation
from implicit_bias.claims.discovery import default_registry
from implicit_bias.claims.engine import Claim, Reading, Status, Verdict
from implicit_bias.claims.recording import claim_formula
from implicit_bias.claims.source import Source
from implicit_bias.errors import ImplicitBiasError, InvalidArgumentError
from implicit_bias.latex.equations import equation_references, typeset
from implicit_bias.latex.text import escape_text, text_latex

__all__ = ["ledger_latex", "typeset_counts"]


# How the prefixes of equation labels that are not numbers are typeset; the
# math-mode \S because the text-mode one needs a TS1 font (see
# implicit_bias.latex.text._MATH_ESCAPES).
_LABEL_PREFIXES = {
    "sec-": r"$\S$\,",
    "app-": "App.~",
    "thm-": "Thm.~",
    "prop-": "Prop.~",
    "lemma-": "Lemma~",
    "cor-": "Cor.~",
    "def-": "Def.~",
    "fig-": "Fig.~",
}


def _reference_latex(reference: str) -> str:
    prefix = next((p for p in _LABEL_PREFIXES if reference.startswith(p)), "")
    rest = reference.removeprefix(prefix)
    # A range of equations such as 18-19 takes an en dash.
    rest = escape_text(re.sub(r"(?<=[0-9])-(?=[0-9])", "--", rest))
    return _LABEL_PREFIXES.get(prefix, "") + rest


def _known_sources(sources: Iterable[Source] | None) -> dict[str, Source]:
    if sources is None:
        return dict(default_registry().sources)
    return {source.id: source for source in sources}


def _glyphs(source_id: str, known: Mapping[str, Source]) -> dict[sp.Symbol, str]:
    source = known.get(source_id)
    if source is not None:
        return dict(source.glyphs)
    return default_registry().glyphs(source_id)


def _source_references(
    claims: Sequence[Claim], known: Mapping[str, Source]
) -> dict[str, str]:
    """References counted over each claim's whole source, so they never shift."""
    references = {}
    for source in dict.fromkeys(claim.source for claim in claims):
        registered = known.get(source)
        population = list(registered.all_claims()) if registered is not None else []
        # Claims given that their source does not hold come after its own.
        ids = {claim.id for claim in population}
        population += [c for c in claims if c.source == source and c.id not in ids]
        references.update(equation_references(population))
    return references


def _counterexample(observed: Status | Verdict | None) -> Verdict | None:
    """An observed ``fails`` with a counterexample, which the ledger footnotes."""
    if (
        isinstance(observed, Verdict)
        and observed.status == Status.FAILS
        and observed.counterexample is not None
    ):
        return observed
    return None


def _note(
    claim: Claim,
    verdicts: Mapping[str, Status | Verdict],
    references: Mapping[str, str],
) -> str:
    observed = verdicts.get(claim.id)
    status = observed.status if isinstance(observed, Verdict) else observed
    # A bare Status carries no reason; a Verdict's reason must be the expected one.
    reason = observed.reason if isinstance(observed, Verdict) else None
    expected_reason = claim.expected_reason if isinstance(observed, Verdict) else None
    if status is None:
        note = rf"\emph{{expected {claim.expected}}}"
    elif (status, reason) == (claim.expected, expected_reason):
        note = str(status) if reason is None else f"{status} ({reason})"
    else:
        shown = str(status) if reason is None else f"{status} ({reason})"
        wanted = str(claim.expected) + (
            "" if claim.expected_reason is None else f" ({claim.expected_reason})"
        )
        note = rf"\textbf{{{shown}}} (expected {wanted})"
    if isinstance(observed, Verdict) and observed.basis is not None:
        note += f", {observed.basis}"
    if _counterexample(observed) is not None:
        note += r"\footnotemark"
    if claim.reading is not None:
        note += rf"; \emph{{{claim.reading}}}"
    if claim.corrects is not None and claim.corrects in references:
        note += rf"; corrects ({_reference_latex(references[claim.corrects])})"
    return note


def _footnotes(texts: Sequence[str]) -> list[str]:
    r"""The ``\footnotetext`` of each ``\footnotemark`` of the environment just
    closed: a footnote cannot be set inside ``align``, so its marks step the
    counter there and the texts follow, numbered back from the last mark."""
    if not texts:
        return []
    return [
        rf"\addtocounter{{footnote}}{{-{len(texts)}}}",
        *(rf"\stepcounter{{footnote}}\footnotetext{{{text}}}" for text in texts),
    ]


def _counterexample_text(
    claim: Claim,
    verdicts: Mapping[str, Status | Verdict],
    reference: str,
    glyphs: Mapping[sp.Symbol, str],
) -> str | None:
    """The footnote of a refuted claim: its counterexample, and its point (if
    the verdict carries one) in the glyphs the ledger sets the claim in."""
    refuted = _counterexample(verdicts.get(claim.id))
    if refuted is None or refuted.counterexample is None:
        return None
    point = refuted.shown_point(glyphs, latex=True)
    at = "" if point is None else f" at {point}"
    return (
        rf"Counterexample to ({reference}){at}: "
        f"{escape_text(refuted.counterexample)}"
    )


def _formula_row(claim: Claim, glyphs: Mapping[sp.Symbol, str]) -> str | None:
    """The formula with ``&`` before its relation, or before it all if it has none."""
    formula = claim_formula(claim)
    if formula is None:
        return None
    body = typeset(formula, glyphs)
    if isinstance(formula, sp.core.relational.Relational):
        lhs = typeset(formula.lhs, glyphs)
        rhs = typeset(formula.rhs, glyphs)
        if body.startswith(lhs + " ") and body.endswith(" " + rhs):
            relation = body[len(lhs) : len(body) - len(rhs)].strip()
            return f"{lhs} &{relation} {rhs}"
    return f"&{body}"


def _stated_in_words(claim: Claim, row: str | None) -> bool:
    """Whether the ledger shows the statement: the claim has no formula, or its
    formula only compares the quantities of a sentence (not an equation as
    printed)."""
    return row is None or claim.reading not in (None, Reading.PRINTED)


def _words(claims: Sequence[Claim], rows: Mapping[str, str | None]) -> dict[str, str]:
    r"""Claim id -> the text typeset with it: its statement if it is stated in
    words, its assumptions and, where several claims share one formula, what
    tells them apart.

    Claims typeset with the same formula (as (6a) and (6b), a statement and its
    corrected form) each show their statement, regime and assumptions; if two
    still read the same, their labels tell them apart.
    """
    groups: dict[str, list[Claim]] = {}
    for claim in claims:
        row = rows[claim.id]
        if row is not None:
            groups.setdefault(row, []).append(claim)
    words = {}
    for claim in claims:
        row = rows[claim.id]
        shared = row is not None and len(groups[row]) > 1
        parts = []
        if shared or _stated_in_words(claim, row):
            parts.append(text_latex(claim.statement))
        assumptions = "; ".join(claim.assumptions)
        if shared:
            condition = "; ".join(filter(None, (claim.regime, assumptions)))
            if condition:
                parts.append(rf"\emph{{When:}} {text_latex(condition)}")
        elif assumptions:
            parts.append(rf"\emph{{Assuming:}} {text_latex(assumptions)}")
        words[claim.id] = " ".join(parts)
    for group in groups.values():
        texts = [words[claim.id] for claim in group]
        for claim, text in zip(group, texts, strict=True):
            if texts.count(text) > 1:
                label = escape_text(claim.label)
                words[claim.id] = rf"{text} \emph{{(check {label})}}".lstrip()
    return words


#: Rows wider than this many glyphs (an estimate from their LaTeX) are set in
#: an ``align*`` of their own: an environment is as wide as its widest left
#: side plus its widest right side, so one long formula would push every
#: other row of the ledger off the page.
_WIDE_ROW = 60


def _width(row: str) -> int:
    """A rough count of the glyphs a row of LaTeX prints."""
    return len(re.sub(r"\\[A-Za-z]+|[{}^_&\s]", "", row)) + row.count("\\")


#: Formulas wider than this many glyphs (several lines of a page) are set in
#: words: TeX cannot measure a line thousands of points wide ("Dimension too
#: large"), and no reader could follow it (a chain on symbolic matrices
#: written out entry by entry).
_LONGEST_FORMULA = 600


def _fitting(formula: str) -> str:
    """``formula``, or a note in words when it is too wide to typeset."""
    glyphs = _width(formula)
    if glyphs <= _LONGEST_FORMULA:
        return formula
    return (
        rf"\text{{[a formula of about {glyphs} glyphs, too wide to typeset; "
        r"the claim checks it as written]}"
    )


def _claims_align(
    claims: Sequence[Claim],
    verdicts: Mapping[str, Status | Verdict],
    references: Mapping[str, str],
    known: Mapping[str, Source],
) -> str:
    rows: dict[str, str | None] = {}
    failures: dict[str, str] = {}
    for claim in claims:
        try:
            row = _formula_row(claim, _glyphs(claim.source, known))
            # A formula too wide for TeX to measure is shown in words.
            too_wide = row is not None and _width(row) > _LONGEST_FORMULA
            rows[claim.id] = None if too_wide else row
        except Exception as error:
            # One formula that cannot be built does not take the ledger down:
            # the claim is shown in words, with the failure beside it.
            rows[claim.id] = None
            failures[claim.id] = f"{type(error).__name__}: {error}"
    words = _words(claims, rows)
    for claim_id, failure in failures.items():
        words[claim_id] += (
            rf" \emph{{(Its formula could not be built: {escape_text(failure)})}}"
        )
    # Each environment is a list of entries, each a list of lines whose last
    # one is a row (which ends with \\ if another entry follows) or a text line.
    environments: list[list[tuple[list[str], bool]]] = [[]]
    footnotes: list[list[str]] = [[]]
    for claim in claims:
        reference = _reference_latex(references[claim.id])
        note = _note(claim, verdicts, references)
        footnote = _counterexample_text(
            claim, verdicts, reference, _glyphs(claim.source, known)
        )
        row = rows[claim.id]
        alone = row is not None and _width(row) > _WIDE_ROW
        if alone and environments[-1]:
            environments.append([])
            footnotes.append([])
        if footnote is not None:
            footnotes[-1].append(footnote)
        # One comment line: a line break in the statement would end the comment.
        lines = [f"% {claim.id}: {' '.join(claim.statement.split())}"]
        if row is None:
            lines.append(
                rf"\intertext{{{words[claim.id]}"
                rf"\hfill\mbox{{({reference})\verdict{{{note}}}}}}}"
            )
            environments[-1].append((lines, False))
            continue
        if words[claim.id]:
            lines.append(rf"\intertext{{({reference}) {words[claim.id]}}}")
        lines.append(f"  {row} \\tag*{{({reference})\\verdict{{{note}}}}}")
        environments[-1].append((lines, True))
        if alone:
            environments.append([])
            footnotes.append([])
    blocks = []
    for entries, texts in zip(environments, footnotes, strict=True):
        if not entries:
            continue
        body = [r"\begin{align*}"]
        for position, (lines, is_row) in enumerate(entries):
            if is_row and position < len(entries) - 1:
                lines = [*lines[:-1], lines[-1] + r" \\"]
            body += lines
        blocks += [*body, r"\end{align*}", *_footnotes(texts)]
    return "\n".join(blocks)


#: How the relations of a derivation's steps are typeset.
_RELATIONS = {"=": "=", "<=": r"\leq", "<": "<", ">=": r"\geq", ">": ">"}


def _chain_latex(
    chain: Derivation,
    verdicts: Mapping[str, Status | Verdict],
    references: Mapping[str, str],
    known: Mapping[str, Source],
) -> str:
    r"""One derivation as one ``align*``: :math:`e_0`, then a line
    ``&REL e_k`` per step, its justification beside it (above it when an
    expression is too long to leave room) and its verdict in the margin; a
    refuted step's counterexample is a footnote."""
    glyphs = _glyphs(chain.source, known)
    try:
        expressions = chain.expressions()
    except Exception as error:
        raise ImplicitBiasError(
            f"derivation {chain.source}:{chain.equation}:{chain.label}: building "
            f"its expressions raised {type(error).__name__}: {error}"
        ) from error
    latex = [_fitting(typeset(expression, glyphs)) for expression in expressions]
    # A long expression leaves no room beside it: the justification goes above.
    wide = max(map(_width, latex)) > _WIDE_ROW // 2
    heading = [
        rf"\textbf{{Derivation ({_reference_latex(chain.equation)}): "
        rf"{text_latex(chain.title)}.}}"
    ]
    if chain.assumptions:
        heading.append(
            rf"\emph{{Assuming:}} {text_latex('; '.join(chain.assumptions))}."
        )
    if chain.regime:
        heading.append(rf"\emph{{Checked on:}} {text_latex(chain.regime)}.")
    lines = [
        rf"\par\noindent {' '.join(heading)}",
        r"\begin{align*}",
        f"% {chain.source}:{chain.equation}:{chain.label}",
        f"  & {latex[0]} \\\\",
    ]
    footnotes = []
    for number, (step, claim) in enumerate(
        zip(chain.steps, chain.claims, strict=True), start=1
    ):
        reference = _reference_latex(references[claim.id])
        note = _note(claim, verdicts, references)
        footnote = _counterexample_text(claim, verdicts, reference, glyphs)
        if footnote is not None:
            footnotes.append(footnote)
        end = "" if number == len(chain.steps) else r" \\"
        justification = text_latex(step.justification)
        tag = f"\\tag*{{({reference})\\verdict{{{note}}}}}{end}"
        body = f"&{_RELATIONS[step.relation]} {latex[number]}"
        if wide:
            lines += [
                f"% {claim.id}",
                rf"\intertext{{\footnotesize ({reference}) {justification}:}}",
                f"  {body} {tag}",
            ]
            continue
        lines += [
            f"% {claim.id}",
            f"  {body} && \\parbox[t]{{{_JUSTIFICATION_WIDTH}}}"
            f"{{\\raggedright\\footnotesize {justification}}} {tag}",
        ]
    lines.append(r"\end{align*}")
    return "\n".join([*lines, *_footnotes(footnotes)])


#: The width of the column of a derivation that gives each step's justification.
_JUSTIFICATION_WIDTH = r"0.3\linewidth"


def _step_chains(
    claims: Iterable[Claim], known: Mapping[str, Source]
) -> dict[str, Derivation]:
    """Step claim id -> its derivation, for the sources of ``claims``."""
    chains = {}
    for source_id in dict.fromkeys(claim.source for claim in claims):
        source = known.get(source_id)
        for chain in source.derivations if source is not None else ():
            for claim in chain.claims:
                chains[claim.id] = chain
    return chains


def ledger_latex(
    claims: Sequence[Claim],
    verdicts: Mapping[str, Status | Verdict] | None = None,
    *,
    sources: Iterable[Source] | None = None,
) -> str:
    r"""The claims of one source as ``align*`` ledgers, in the given order:
    each derivation chain, as an ``align*`` of its own, where its first step
    is among ``claims`` (:meth:`~implicit_bias.claims.Source.all_claims`
    places it where the paper prints its equation), the single claims
    around it in ``align*`` ledgers of their own.

    Each formula is a row tagged with its reference (see
    :func:`equation_references`) and its verdict as a margin note
    (``\verdict``, defined by :func:`document_latex` or by the fragment's own
    ``\providecommand``): the status, the basis of an observed
    :class:`~implicit_bias.claims.Verdict` and the claim's reading of the
    source. A claim stated in words (no formula, or a reading other than
    ``printed``) shows its statement as an ``\intertext`` line, above its
    formula if it has one; a claim's assumptions are given beside it, and
    claims typeset with the same formula are told apart by each one's
    statement, regime and assumptions. A claim that is a step of a
    :class:`~implicit_bias.claims.Derivation` is shown in its chain: the
    chain's expressions one line each, with the step's relation, its
    justification and its verdict. An observed ``fails`` with a
    counterexample gets a footnote giving it. A claim id missing from
    ``verdicts`` shows its expected verdict, labelled as such.

    Args:
      claims: the claims, all of one source.
      verdicts: observed verdicts (or statuses) by claim id.
      sources: where to find the claims' :class:`~implicit_bias.claims.Source`
        (its derivations and glyphs); by default the installed sources.
    """
    if not claims:
        raise InvalidArgumentError("claims is empty: an align* needs a row")
    verdicts = verdicts or {}
    known = _known_sources(sources)
    references = _source_references(claims, known)
    chains = _step_chains(claims, known)
    blocks: list[str] = []
    single: list[Claim] = []
    # Derivations hold mappings, so they are told apart by label, not hashed.
    shown: set[str] = set()
    for claim in claims:
        chain = chains.get(claim.id)
        if chain is None:
            single.append(claim)
            continue
        if chain.label in shown:
            continue
        shown.add(chain.label)
        if single:
            blocks.append(_claims_align(single, verdicts, references, known))
            single = []
        blocks.append(_chain_latex(chain, verdicts, references, known))
    if single:
        blocks.append(_claims_align(single, verdicts, references, known))
    return "\n\n".join(blocks)


def typeset_counts(
    claims: Iterable[Claim], *, sources: Iterable[Source] | None = None
) -> dict[str, int]:
    """How :func:`ledger_latex` typesets ``claims``: as mathematics (a formula,
    or a step of a derivation chain) or as text only (no formula, or one that
    could not be built).

    Examples:
      >>> from implicit_bias.claims.registry import claims_for
      >>> counts = typeset_counts(claims_for("ptft-relu-penalty"))
      >>> sorted(counts)
      ['mathematics', 'text']
    """
    claims = list(claims)
    chains = _step_chains(claims, _known_sources(sources))
    text = 0
    for claim in claims:
        if claim.id in chains:
            continue
        try:
            text += claim_formula(claim) is None
        except Exception:
            text += 1
    return {"mathematics": len(claims) - text, "text": text}
