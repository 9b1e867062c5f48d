"""Source and Citation records: validation and rendering."""

from __future__ import annotations

import re

import pytest
import sympy as sp

from implicit_bias.claims import Claim, Derivation, Kind, Status, Step, relation_check
from implicit_bias.claims.discovery import shipped_registry
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
        Citation("T", ("A",), 2020, arxiv="2401.00001", arxiv_version="2")


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


# (field, value, needle): a record the renderers would print wrongly or crash on.
_BAD_CITATIONS: list[tuple[str, object, str]] = [
    ("title", "", "title=''"),
    ("title", "  ", "title='  '"),
    ("title", None, "title=None"),
    ("title", 3, "title=3"),
    ("authors", (), "authors=()"),
    ("authors", ("",), "authors=('',)"),
    ("authors", "Ada Lovelace", "authors='Ada Lovelace'"),
    ("authors", ("Ada Lovelace", None), "authors=('Ada Lovelace', None)"),
    ("authors", None, "authors=None"),
    ("year", "2024", "year='2024'"),
    ("year", 2024.0, "year=2024.0"),
    ("year", True, "year=True"),
    ("year", 24, "year=24"),
    ("year", None, "year=None"),
    ("venue", None, "venue=None"),
    ("arxiv", 2401.00001, "arxiv=2401.00001"),
    ("arxiv", "arXiv:2401.00001", "arxiv='arXiv:2401.00001'"),
    ("arxiv", "2401.00001v2", "arxiv='2401.00001v2'"),
    ("arxiv_version", "2", "arxiv_version='2'"),
    ("doi", "doi.org/10.1000/x", "doi='doi.org/10.1000/x'"),
    ("url", "example.org", "url='example.org'"),
    ("version_note", 3, "version_note=3"),
]


@pytest.mark.parametrize(("field", "value", "needle"), _BAD_CITATIONS)
def test_citation_refuses_bad_fields(field: str, value: object, needle: str) -> None:
    # A non-string title raised AttributeError ('int' has no .strip), a
    # string of authors was split into letters, a version without an arXiv
    # id or an id with its version printed "arXiv:v2" or "...v2v2".
    fields: dict[str, object] = {
        "title": "T",
        "authors": ("A B",),
        "year": 2020,
        "arxiv": "2401.00001",
    }
    with pytest.raises(InvalidArgumentError, match=re.escape(needle)):
        Citation(**(fields | {field: value}))  # type: ignore[arg-type]


def test_citation_version_needs_an_arxiv_id() -> None:
    with pytest.raises(InvalidArgumentError, match="arxiv_version='v2'"):
        Citation("T", ("A B",), 2020, arxiv_version="v2")


def test_citation_authors_become_a_tuple() -> None:
    # A list of authors made the (frozen, hashed) record unhashable.
    citation = Citation("T", ["A B", "C D"], 2020)  # type: ignore[arg-type]
    assert citation.authors == ("A B", "C D")
    assert hash(citation) == hash(Citation("T", ("A B", "C D"), 2020))


def test_citation_accepts_the_identifier_forms() -> None:
    for arxiv in ("2401.00001", "1710.10345", "math/0601001", "hep-th/9901001"):
        assert Citation("T", ("A B",), 2020, arxiv=arxiv).arxiv == arxiv
    cited = Citation("T", ("A B",), 2020, doi="10.1000/xyz-1", url="https://a.b/c")
    assert cited.text() == 'A B, "T", 2020; doi:10.1000/xyz-1.'


@pytest.mark.parametrize("key", ["", "a key", "k,1", "k}", "{k", None, 1, ["k"]])
def test_bibtex_refuses_a_key_that_breaks_the_entry(key: object) -> None:
    with pytest.raises(InvalidArgumentError, match="key="):
        Citation("T", ("A B",), 2020).bibtex(key)  # type: ignore[arg-type]


def test_bibtex_keys_of_the_shipped_sources() -> None:
    # latex.py keys a citation by its source id, "_" replaced by ":".
    entry = Citation("T", ("A B",), 2020).bibtex("ptft:relu-penalty.v2")
    assert entry.startswith("@misc{ptft:relu-penalty.v2,")


# --- the paper's order (issue 21: chains were listed after every claim)


def _at(equation: str, label: str) -> Claim:
    return Claim(
        "note",
        equation,
        label,
        Kind.IDENTITY,
        "$x = x$",
        relation_check(lambda: sp.Eq(x, x, evaluate=False)),
        Status.HOLDS,
    )


def _chain_at(equation: str, label: str) -> Derivation:
    return Derivation(
        source="note",
        equation=equation,
        label=label,
        title="$x = x$",
        start=lambda: x,
        steps=(Step(lambda: x, "nothing changes"), Step(lambda: x, "nor here")),
    )


def _order(source: Source) -> list[str]:
    return [claim.id.removeprefix("note:") for claim in source.all_claims()]


def test_all_claims_places_each_chain_where_its_equation_is_printed() -> None:
    source = Source(
        "note",
        "t",
        claims=(_at("6", "a"), _at("9", "b"), _at("9", "c"), _at("14", "d")),
        derivations=(
            _chain_at("7-8", "seven"),
            _chain_at("9", "nine"),
            _chain_at("12", "twelve"),
            _chain_at("12'", "slip"),
            _chain_at("15", "last"),
        ),
    )
    assert _order(source) == [
        "6:a",
        "7-8:seven-step-1",
        "7-8:seven-step-2",
        "9:b",
        "9:c",
        "9:nine-step-1",
        "9:nine-step-2",
        "12:twelve-step-1",
        "12:twelve-step-2",
        "12':slip-step-1",
        "12':slip-step-2",
        "14:d",
        "15:last-step-1",
        "15:last-step-2",
    ]


def test_labels_are_placed_by_the_sources_positions() -> None:
    claims = (_at("2", "a"), _at("sec-3", "b"), _at("5", "c"))
    derivations = (_chain_at("thm-1", "proof"), _chain_at("4", "four"))
    # Without positions: a label is passed over, a chain at one goes last.
    assert _order(Source("note", "t", claims=claims, derivations=derivations)) == [
        "2:a",
        "sec-3:b",
        "4:four-step-1",
        "4:four-step-2",
        "5:c",
        "thm-1:proof-step-1",
        "thm-1:proof-step-2",
    ]
    placed = Source(
        "note",
        "t",
        claims=claims,
        derivations=derivations,
        positions={"thm-1": 2.5, "sec-3": 4.5},
    )
    assert _order(placed) == [
        "2:a",
        "thm-1:proof-step-1",
        "thm-1:proof-step-2",
        "4:four-step-1",
        "4:four-step-2",
        "sec-3:b",
        "5:c",
    ]


@pytest.mark.parametrize("position", ["1.5", None, True])
def test_positions_are_numbers(position: object) -> None:
    with pytest.raises(InvalidArgumentError, match=r"positions\['sec-1'\]="):
        Source("note", "t", positions={"sec-1": position})  # type: ignore[dict-item]


def test_a_shipped_source_lists_its_chains_at_their_places() -> None:
    source = shipped_registry().source("ptft-relu-penalty")
    equations = [
        claim.equation
        if claim.label.partition("-step-")[1] == ""
        else claim.label.partition("-step-")[0]
        for claim in source.all_claims()
    ]
    # Chains unit-problem (eqs. 5-6) between the claims of (4) and (6),
    # p-of-u (eqs. 6-8) and stationary-points (9-10) between the claims of
    # (6) and (8), and of (8) and (10).
    runs = [e for i, e in enumerate(equations) if i == 0 or equations[i - 1] != e]
    assert runs[:7] == [
        "4",
        "unit-problem",
        "6",
        "p-of-u",
        "8",
        "stationary-points",
        "10",
    ]
