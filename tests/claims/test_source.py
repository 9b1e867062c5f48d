"""Source and Citation records: validation and rendering."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims import Claim, Derivation, Kind, Status, Step, relation_check
from implicit_bias.claims.source import Citation, Source
from implicit_bias.errors import InvalidArgumentError

x = sp.Symbol("x", positive=True)


def _claim(source: str, label: str = "a") -> Claim:
    return Claim(
        source,
        "1",
        label,
        Kind.IDENTITY,
        "x = x",
        relation_check(lambda: sp.Eq(x, x, evaluate=False)),
        Status.HOLDS,
    )


def test_citation_text_and_bibtex() -> None:
    citation = Citation(
        "The title",
        ("Ada Lovelace", "Charles Babbage", "Mary Somerville"),
        2024,
        venue="ICML 2024",
        arxiv="2401.00001",
        arxiv_version="v2",
    )
    assert citation.text() == (
        'Ada Lovelace, Charles Babbage and Mary Somerville, "The title", ICML 2024; '
        "arXiv:2401.00001v2."
    )
    entry = citation.bibtex("key")
    assert entry.startswith("@article{key,")
    assert "author = {Ada Lovelace and Charles Babbage and Mary Somerville}" in entry
    assert "eprint = {2401.00001v2}" in entry
    assert Citation("T", ("A B",), 2020).bibtex("k").startswith("@misc{k,")


@pytest.mark.parametrize(
    ("arguments", "parameter"),
    [
        (("", ("A",), 2020), "title"),
        (("T", (), 2020), "authors"),
        (("T", ("",), 2020), "authors"),
    ],
)
def test_citation_refuses_an_incomplete_record(
    arguments: tuple, parameter: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=parameter):
        Citation(*arguments)
    with pytest.raises(InvalidArgumentError, match="arxiv_version"):
        Citation("T", ("A",), 2020, arxiv="1", arxiv_version="2")


def test_source_validates_its_id_and_claims() -> None:
    with pytest.raises(InvalidArgumentError, match="id"):
        Source("My Note", "t")
    with pytest.raises(InvalidArgumentError, match="belongs to source 'other'"):
        Source("note", "t", claims=(_claim("other"),))
    with pytest.raises(InvalidArgumentError, match="duplicate claim id"):
        Source("note", "t", claims=(_claim("note"), _claim("note")))
    source = Source("note", "t", claims=[_claim("note")], glyphs={x: r"\xi"})
    assert isinstance(source.claims, tuple)
    with pytest.raises(TypeError):
        source.glyphs[x] = "y"  # type: ignore[index]


def _chain(source: str, equation: str) -> Derivation:
    return Derivation(
        source=source,
        equation=equation,
        label="chain",
        title="x = x",
        start=lambda: x,
        steps=(Step(lambda: x, "nothing changes"),),
    )


def test_source_validates_its_derivations() -> None:
    with pytest.raises(
        InvalidArgumentError,
        match="derivations: the chain 'chain' belongs to source 'other'",
    ):
        Source("note", "t", derivations=(_chain("other", "1"),))
    # Two chains of one label would be one name for two derivations.
    with pytest.raises(InvalidArgumentError, match="repeated: \\['chain'\\]"):
        Source("note", "t", derivations=(_chain("note", "1"), _chain("note", "2")))
    with pytest.raises(InvalidArgumentError, match="claims: Claim objects, got a"):
        Source("note", "t", claims=(_chain("note", "1"),))  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="derivations: Derivation objects"):
        Source("note", "t", derivations=(_claim("note"),))  # type: ignore[arg-type]
