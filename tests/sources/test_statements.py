"""The texts of the shipped sources are written for the ledger and the pages.

Issue 21: statements were ASCII that the ledger half-converted (``M_hat``
became M with a subscript "hat", ``X~`` a tilde over nothing) and a
justification's quote printed its dollar signs. The rule
(:func:`implicit_bias.latex.split_math`): mathematics an author writes goes
between two ``$`` signs, as LaTeX; the rest is prose, which the ledger
escapes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from implicit_bias.claims.discovery import shipped_registry
from implicit_bias.claims.source import Source
from implicit_bias.latex import split_math, text_latex

#: ASCII mathematics the ledger would half-convert: an accent written as a
#: subscript (``M_hat`` is set as M with a subscript "hat") and a postfix
#: tilde (``X~`` is set as a tilde over nothing).
HALF_CONVERTED = re.compile(
    r"[A-Za-z0-9)\]}|]_\{?(?:hat|bar|dot|vec)\b|[A-Za-z0-9)\]]~"
)
#: Mathematics that starts with a script: LaTeX half-converted (``M$_{hat}$``).
BARE_SCRIPT = re.compile(r"\$[_^]\{")

SOURCES = list(shipped_registry().sources.values())


def author_texts(source: Source) -> Iterator[tuple[str, str]]:
    """(where, text) for every text of ``source`` an author writes: claims'
    statements, quotes, regimes and assumptions; chains' titles, quotes,
    regimes and assumptions; steps' justifications and quotes."""
    for claim in source.claims:
        yield f"{claim.id} statement", claim.statement
        yield f"{claim.id} quote", claim.quote or ""
        yield f"{claim.id} regime", claim.regime or ""
        for assumption in claim.assumptions:
            yield f"{claim.id} assumption", assumption
    for chain in source.derivations:
        where = f"{source.id}:{chain.equation}:{chain.label}"
        yield f"{where} title", chain.title
        yield f"{where} quote", chain.quote or ""
        yield f"{where} regime", chain.regime or ""
        for assumption in chain.assumptions:
            yield f"{where} assumption", assumption
        for number, step in enumerate(chain.steps, start=1):
            yield f"{where} step {number} justification", step.justification
            yield f"{where} step {number} quote", step.quote or ""


def half_converted(text: str) -> list[str]:
    """The half-converted mathematics of ``text``."""
    prose = " ".join(piece for is_math, piece in split_math(text) if not is_math)
    return HALF_CONVERTED.findall(prose) + BARE_SCRIPT.findall(text)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("M_hat (theta_hat - theta_0)", ["M_hat", "a_hat"]),
        ("X~(w1 o w2), Omega~", ["X~", "a~"]),
        ("w1_dot = grad L", ["1_dot"]),
        ("M$_{hat}$", ["$_{"]),
        (r"$\hat M (\hat\theta - \theta_0)$, $\tilde X$", []),
        ("omega_tilde evaluates m_aux and sigma_2 / sigma_1", []),
    ],
)
def test_half_converted_mathematics_is_found(text: str, found: list[str]) -> None:
    assert half_converted(text) == found


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.id)
def test_mathematics_is_between_paired_dollar_signs(source: Source) -> None:
    unpaired = [where for where, text in author_texts(source) if text.count("$") % 2]
    assert not unpaired, unpaired


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.id)
def test_no_mathematics_is_half_converted(source: Source) -> None:
    found = {
        where: half_converted(text)
        for where, text in author_texts(source)
        if half_converted(text)
    }
    assert not found, found


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s.id)
def test_the_ledger_shows_no_dollar_sign_of_an_author(source: Source) -> None:
    # A "$" the ledger escapes is a dollar sign printed (issue 21: a quote in a
    # justification printed "$u^3/2$" with its dollars).
    printed = [
        where for where, text in author_texts(source) if r"\$" in text_latex(text)
    ]
    assert not printed, printed
