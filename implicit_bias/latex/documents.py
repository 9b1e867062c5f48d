r"""Standalone LaTeX: an article of every source's ledgers with a section per
source and a bibliography of the sources' citations (pdflatex compiles it
with the packages of :data:`PACKAGES` only), the ledgers alone as a
fragment, and the citations as BibTeX.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from implicit_bias.claims.engine import Claim, Status, Verdict
from implicit_bias.claims.source import Citation, Source
from implicit_bias.latex.ledgers import _known_sources, ledger_latex
from implicit_bias.latex.text import escape_text

__all__ = [
    "PACKAGES",
    "bibliography_bibtex",
    "bibliography_latex",
    "document_latex",
    "ledgers_latex",
]

#: The LaTeX packages a document of :func:`document_latex` loads (all in
#: Debian's ``texlive-latex-base`` and ``texlive-latex-recommended``).
PACKAGES = ("amsmath", "amssymb", "geometry")

# The margin note: a zero-width box that starts one \marginparsep right of the
# tag, which amsmath sets flush with the right text margin, so it sits where a
# \marginpar would (a real \marginpar is not allowed inside align).
_VERDICT_MACRO = (
    r"\providecommand{\verdict}[1]{\rlap{\hspace{\marginparsep}"
    r"\parbox[t]{\marginparwidth}{\raggedright\footnotesize\sffamily #1}}}"
)


def _by_source(claims: Iterable[Claim]) -> dict[str, list[Claim]]:
    groups: dict[str, list[Claim]] = {}
    for claim in claims:
        groups.setdefault(claim.source, []).append(claim)
    return groups


def _cite_keys(sources: Iterable[Source]) -> dict[str, str]:
    """Source id -> the key of its citation; sources citing one record share
    the first one's key (the id, which may be used as a key as it is: ``:``
    replaces ``_``, which no id has otherwise)."""
    keys: dict[str, str] = {}
    by_citation: dict[Citation, str] = {}
    for source in sources:
        if source.citation is None:
            continue
        key = by_citation.setdefault(source.citation, source.id.replace("_", ":"))
        keys[source.id] = key
    return keys


def _bibitem(key: str, citation: Citation) -> str:
    parts = [
        rf"\bibitem{{{key}}} {escape_text(citation.author_list)}.",
        rf"\newblock \emph{{{escape_text(citation.title)}}}.",
        rf"\newblock {escape_text(citation.venue)}, {citation.year}."
        if citation.venue
        else rf"\newblock {citation.year}.",
    ]
    identifiers = []
    if citation.arxiv:
        identifiers.append(
            f"arXiv:{escape_text(citation.arxiv + citation.arxiv_version)}"
        )
    if citation.doi:
        identifiers.append(f"doi:{escape_text(citation.doi)}")
    if citation.url:
        identifiers.append(escape_text(citation.url))
    if identifiers:
        parts.append(rf"\newblock {', '.join(identifiers)}.")
    if citation.version_note:
        parts.append(rf"\newblock {escape_text(citation.version_note)}")
    return "\n".join(parts)


def bibliography_latex(sources: Iterable[Source]) -> str:
    r"""A ``thebibliography`` of the sources' citations, one item per record.

    pdflatex typesets it without BibTeX; each source's ``\cite`` key is its
    id. Empty when no source has a citation.

    Examples:
      >>> from implicit_bias.claims import Citation, Source
      >>> note = Source("my-note", "My note", Citation("A note", ("A. B",), 2024,
      ...     arxiv="2401.00001"))
      >>> print(bibliography_latex([note]))
      \begin{thebibliography}{9}
      \bibitem{my-note} A. B.
      \newblock \emph{A note}.
      \newblock 2024.
      \newblock arXiv:2401.00001.
      \end{thebibliography}
    """
    sources = list(sources)
    keys = _cite_keys(sources)
    items = {keys[s.id]: s.citation for s in sources if s.citation is not None}
    if not items:
        return ""
    width = "9" * len(str(len(items)))
    body = [_bibitem(key, citation) for key, citation in items.items()]
    return "\n".join(
        [rf"\begin{{thebibliography}}{{{width}}}", *body, r"\end{thebibliography}"]
    )


def bibliography_bibtex(sources: Iterable[Source]) -> str:
    """The sources' citations as BibTeX entries, under the keys of
    :func:`bibliography_latex` (one entry per record)."""
    sources = list(sources)
    keys = _cite_keys(sources)
    entries = {keys[s.id]: s.citation for s in sources if s.citation is not None}
    return "".join(citation.bibtex(key) + "\n\n" for key, citation in entries.items())


def _section(source_id: str, known: Mapping[str, Source], key: str | None) -> list[str]:
    source = known.get(source_id)
    if source is None:
        return [rf"\section*{{{escape_text(source_id)}}}"]
    cite = "" if key is None else rf"~\cite{{{key}}}"
    lines = [
        rf"\section*{{{escape_text(source.title)}{cite}}}",
        rf"\noindent Source \texttt{{{escape_text(source.id)}}}."
        + (f" {escape_text(source.description)}" if source.description else ""),
        "",
    ]
    return lines


def document_latex(
    claims: Iterable[Claim],
    verdicts: Mapping[str, Status | Verdict] | None = None,
    *,
    note: str | None = None,
    sources: Iterable[Source] | None = None,
) -> str:
    """A standalone article: one section and ledger per source, in the given
    order, and the bibliography of the sources' citations.

    Args:
      claims: the claims, grouped by source in order of first appearance.
      verdicts: observed verdicts by claim id; others show the expected one.
      note: a sentence under the title saying where the verdicts come from.
      sources: where to find the claims' sources (title, citation,
        derivations, glyphs); by default the installed sources.
    """
    known = _known_sources(sources)
    groups = _by_source(claims)
    cited = [known[source] for source in groups if source in known]
    keys = _cite_keys(cited)
    body = []
    for source, group in groups.items():
        body += [
            *_section(source, known, keys.get(source)),
            ledger_latex(group, verdicts, sources=known.values()),
            "",
        ]
    bibliography = bibliography_latex(cited)
    preamble = [
        r"\documentclass[11pt]{article}",
        r"\usepackage{amsmath}",
        r"\usepackage{amssymb}",
        r"\usepackage[left=2cm,right=4.6cm,top=2.5cm,bottom=2.5cm,"
        r"marginparwidth=3.6cm,marginparsep=0.4cm]{geometry}",
        r"\allowdisplaybreaks",
        _VERDICT_MACRO,
        r"\title{Claims checked by implicit-bias}",
        r"\date{}",
        r"\begin{document}",
        r"\maketitle",
    ]
    if note:
        preamble += [r"\noindent " + escape_text(note), ""]
    ending = [bibliography] if bibliography else []
    return "\n".join([*preamble, *body, *ending, r"\end{document}", ""])


def ledgers_latex(
    claims: Iterable[Claim],
    verdicts: Mapping[str, Status | Verdict] | None = None,
    *,
    sources: Iterable[Source] | None = None,
) -> str:
    r"""The ledgers of :func:`document_latex` without the document around them.

    The fragment starts with a ``\providecommand`` for ``\verdict`` and needs
    ``amsmath``.
    """
    known = _known_sources(sources)
    blocks = [_VERDICT_MACRO]
    for source, group in _by_source(claims).items():
        blocks += [f"% {source}", ledger_latex(group, verdicts, sources=known.values())]
    return "\n\n".join(blocks) + "\n"
