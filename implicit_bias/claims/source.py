r"""A source: one paper (or a user's own note) and everything checked of it.

A :class:`Source` describes itself: its id, its bibliographic record
(:class:`Citation`), its notation (a glyph map for LaTeX), the regimes its
claims are checked on, its claims and its derivation chains. Sources are
found through the entry-point group ``implicit_bias.sources`` (see
:mod:`implicit_bias.claims.discovery`); the four papers the toolkit ships
register there exactly as a third party's package does.

Examples:
  >>> from implicit_bias.claims import Claim, Kind, Status, relation_check
  >>> import sympy as sp
  >>> x = sp.Symbol("x", positive=True)
  >>> claim = Claim(
  ...     "my-note", "1", "log-square", Kind.IDENTITY, "log x^2 = 2 log x",
  ...     relation_check(lambda: sp.Eq(sp.log(x**2), 2 * sp.log(x))), Status.HOLDS,
  ... )
  >>> note = Source("my-note", "My note", claims=(claim,))
  >>> [c.id for c in note.all_claims()]
  ['my-note:1:log-square']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

import sympy as sp

from implicit_bias.claims.engine import Claim
from implicit_bias.claims.findings import Slip
from implicit_bias.claims.inventory import Item, equation_numbers
from implicit_bias.errors import InvalidArgumentError

if TYPE_CHECKING:
    from implicit_bias.claims.derivation import Derivation

__all__ = ["Citation", "Source"]

_SOURCE_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
_BIBTEX_KEY = re.compile(r"[^\s,{}()\"#%'=~\\]+")
#: (field, its form, the form in words) of the identifiers a Citation holds.
_IDENTIFIERS = (
    (
        "arxiv",
        re.compile(r"\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?/\d{7}"),
        'an arXiv identifier ("2310.02396" or "math/0601001", without "arXiv:" '
        "or the version, which is arxiv_version)",
    ),
    (
        "arxiv_version",
        re.compile(r"v[1-9][0-9]*"),
        "an arXiv version ('v1', 'v2', ...)",
    ),
    (
        "doi",
        re.compile(r"10\.\d{4,9}/\S+"),
        'a DOI ("10.xxxx/suffix", no "doi:" or URL)',
    ),
    ("url", re.compile(r"https?://\S+"), 'an http(s) address ("https://...")'),
)


@dataclass(frozen=True)
class Citation:
    """The bibliographic record of a source.

    Attributes:
      title: the title as published.
      authors: the authors, each as "Given Family" (a list is stored as a
        tuple).
      year: the year of the version cited, a four-digit integer.
      venue: where it appeared ("NeurIPS 2024"), "" for a preprint or note.
      arxiv: the arXiv identifier ("2310.02396"), if any.
      arxiv_version: the arXiv version the equation numbers follow ("v3"),
        "" when it is not known (``version_note`` then says what is).
      doi: the DOI ("10.xxxx/suffix"), if any.
      url: a stable http(s) address, if there is no arXiv id or DOI.
      version_note: which text the equation numbers follow, in words.

    Raises:
      InvalidArgumentError: a field of another type or form (named, with its
        value and the form it must have).
    """

    title: str
    authors: tuple[str, ...]
    year: int
    venue: str = ""
    arxiv: str = ""
    arxiv_version: str = ""
    doi: str = ""
    url: str = ""
    version_note: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.title, str) or not self.title.strip():
            raise InvalidArgumentError(
                f"title={self.title!r} is not a non-empty string: a citation names "
                "its title"
            )
        # A string is a sequence of letters: it would pass as one author each.
        authors = self.authors
        named = isinstance(authors, tuple | list) and all(
            isinstance(author, str) and author.strip() for author in authors
        )
        if not (named and authors):
            raise InvalidArgumentError(
                f"authors={authors!r} is not a non-empty tuple of names: a "
                'citation names its authors, each as "Given Family"'
            )
        object.__setattr__(self, "authors", tuple(authors))
        if (
            isinstance(self.year, bool)
            or not isinstance(self.year, int)
            or not 1000 <= self.year <= 9999
        ):
            raise InvalidArgumentError(
                f"year={self.year!r} is not a four-digit integer year"
            )
        for name in ("venue", "arxiv", "arxiv_version", "doi", "url", "version_note"):
            if not isinstance(getattr(self, name), str):
                raise InvalidArgumentError(
                    f"{name}={getattr(self, name)!r} is not a string "
                    '("" where there is none)'
                )
        for name, pattern, form in _IDENTIFIERS:
            value = getattr(self, name)
            if value and not pattern.fullmatch(value):
                raise InvalidArgumentError(f"{name}={value!r} is not {form}")
        if self.arxiv_version and not self.arxiv:
            raise InvalidArgumentError(
                f"arxiv_version={self.arxiv_version!r} without an arxiv id: the "
                "version belongs to an arXiv identifier"
            )

    @property
    def author_list(self) -> str:
        """The authors as a sentence: "A", "A and B", "A, B and C"."""
        if len(self.authors) == 1:
            return self.authors[0]
        return ", ".join(self.authors[:-1]) + " and " + self.authors[-1]

    def text(self) -> str:
        """The citation in one line of plain text.

        Examples:
          >>> Citation("A note", ("Ada Lovelace",), 1843, arxiv="1843.00001").text()
          'Ada Lovelace, "A note", 1843; arXiv:1843.00001.'
        """
        parts = [f'{self.author_list}, "{self.title}"']
        if str(self.year) in self.venue:
            parts.append(self.venue)
        else:
            parts.append(f"{self.venue} {self.year}".strip())
        text = ", ".join(parts)
        identifiers = []
        if self.arxiv:
            identifiers.append(f"arXiv:{self.arxiv}{self.arxiv_version}")
        if self.doi:
            identifiers.append(f"doi:{self.doi}")
        if self.url and not identifiers:
            identifiers.append(self.url)
        return text + ("; " + "; ".join(identifiers) if identifiers else "") + "."

    def bibtex(self, key: str) -> str:
        """A BibTeX entry under ``key`` (``@article`` with the arXiv fields, or
        ``@misc`` for a note without a venue).

        Raises:
          InvalidArgumentError: ``key`` is not a non-empty string without
            white space, commas, braces, parentheses, quotes, ``#``, ``%``,
            ``=``, ``~`` or backslashes (each would end or break the entry).
        """
        if not isinstance(key, str) or not _BIBTEX_KEY.fullmatch(key):
            raise InvalidArgumentError(
                f"key={key!r} is not a BibTeX key: a non-empty string without "
                "white space or any of , { } ( ) \" # % ' = ~ \\"
            )
        fields = {
            "title": "{" + self.title + "}",
            "author": " and ".join(self.authors),
            "year": str(self.year),
        }
        if self.venue:
            fields["journal"] = self.venue
        if self.arxiv:
            fields["eprint"] = self.arxiv + self.arxiv_version
            fields["archivePrefix"] = "arXiv"
        if self.doi:
            fields["doi"] = self.doi
        if self.url:
            fields["url"] = self.url
        kind = "article" if self.venue else "misc"
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields.items())
        return f"@{kind}{{{key},\n{body}\n}}"


@dataclass(frozen=True)
class Source:
    """A paper or note, its notation, its regimes, its claims and derivations.

    Attributes:
      id: the id every claim of the source carries (``claim.source``):
        lower case letters, digits, ``.``, ``_`` and ``-``.
      title: a short title for listings and pages.
      citation: the bibliographic record (``None`` for an unpublished note).
      claims: the claims, in the order of the text.
      derivations: the derivation chains (:class:`~implicit_bias.claims.
        derivation.Derivation`); each step is a claim of its own, and
        :meth:`all_claims` places each chain among the claims where its
        equation is printed.
      glyphs: SymPy symbol -> its LaTeX in the source's notation.
      regimes: a name -> the domain in words, for the regimes claims use.
      description: a paragraph saying what the source is and what is checked.
      warm_up: work several of the source's checks share (a simulation, a
        SymPy expression), done once by the local runner in its own process
        (in a thread, while claims of other sources start) before it forks
        the workers that run this source's checks, so that each check
        inherits it instead of redoing it. Called with the ids of the claims
        about to run; a speed-up only: every check still computes what it
        needs when run alone (``verify --isolate``, a Dask worker).
      positions: where the labels that are not equation numbers sit in the
        text, as numbers between those of the equations around them
        (``{"sec-3.1": 9.5}``: between (9) and (10)), as for
        :func:`~implicit_bias.claims.engine.in_paper_order`; a chain whose
        equation is such a label and has no position goes last.
      inventory: every numbered equation, theorem, lemma, proposition and
        figure of the text (:class:`~implicit_bias.claims.inventory.Item`),
        in the text's order, for ``implicit-bias coverage``; empty when the
        source has not declared them (its coverage is then unknown).
      slips: the errors in the text its failing printed or prose claims show
        (:class:`~implicit_bias.claims.findings.Slip`), each named by at
        least one claim's ``slip``.
    """

    id: str
    title: str
    citation: Citation | None = None
    claims: tuple[Claim, ...] = ()
    derivations: tuple[Derivation, ...] = ()
    glyphs: Mapping[sp.Symbol, str] = field(default_factory=dict)
    regimes: Mapping[str, str] = field(default_factory=dict)
    description: str = ""
    warm_up: Callable[[Collection[str]], object] | None = None
    positions: Mapping[str, float] = field(default_factory=dict)
    inventory: tuple[Item, ...] = ()
    slips: tuple[Slip, ...] = ()

    def __post_init__(self) -> None:
        if not _SOURCE_ID.fullmatch(self.id):
            raise InvalidArgumentError(
                f"id: lower case letters, digits, '.', '_' and '-', got {self.id!r}"
            )
        for label, position in dict(self.positions).items():
            if isinstance(position, bool) or not isinstance(position, int | float):
                raise InvalidArgumentError(
                    f"positions[{label!r}]={position!r} is not a number: a "
                    "position is a place between equation numbers, e.g. 9.5"
                )
        object.__setattr__(self, "positions", MappingProxyType(dict(self.positions)))
        object.__setattr__(self, "claims", tuple(self.claims))
        object.__setattr__(self, "derivations", tuple(self.derivations))
        object.__setattr__(self, "glyphs", MappingProxyType(dict(self.glyphs)))
        object.__setattr__(self, "regimes", MappingProxyType(dict(self.regimes)))
        # Imported here: derivation.py imports this module (the source id form).
        from implicit_bias.claims.derivation import Derivation

        for name, items, kind in (
            ("claims", self.claims, Claim),
            ("derivations", self.derivations, Derivation),
        ):
            for item in items:
                if not isinstance(item, kind):
                    raise InvalidArgumentError(
                        f"{name}: {kind.__name__} objects, got a {type(item).__name__}"
                    )
        labels = [chain.label for chain in self.derivations]
        repeated = sorted({label for label in labels if labels.count(label) > 1})
        if repeated:
            raise InvalidArgumentError(
                f"derivations: each chain has its own label; repeated: {repeated}"
            )
        for chain in self.derivations:
            if chain.source != self.id:
                raise InvalidArgumentError(
                    f"derivations: the chain {chain.label!r} belongs to source "
                    f"{chain.source!r}, not {self.id!r}"
                )
        seen: set[str] = set()
        for claim in self.all_claims():
            if claim.source != self.id:
                raise InvalidArgumentError(
                    f"claims: {claim.id} belongs to source {claim.source!r}, "
                    f"not {self.id!r}"
                )
            if claim.id in seen:
                raise InvalidArgumentError(f"claims: duplicate claim id {claim.id!r}")
            seen.add(claim.id)
        self._check_inventory(seen)
        self._check_slips()

    def _check_slips(self) -> None:
        object.__setattr__(self, "slips", tuple(self.slips))
        ids = [slip.id for slip in self.slips if isinstance(slip, Slip)]
        if len(ids) != len(self.slips):
            raise InvalidArgumentError("slips: Slip objects")
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            raise InvalidArgumentError(f"slips: each slip once; repeated: {repeated}")
        named = {c.slip for c in self.all_claims() if c.slip is not None}
        unknown = sorted(named - set(ids))
        if unknown:
            raise InvalidArgumentError(
                f"slips: claims name slips the source does not declare: {unknown}"
            )
        unused = [i for i in ids if i not in named]
        if unused:
            raise InvalidArgumentError(
                f"slips: no claim shows {unused}: a slip is an error a failing "
                "claim shows"
            )

    def _check_inventory(self, claim_ids: Collection[str]) -> None:
        object.__setattr__(self, "inventory", tuple(self.inventory))
        labels: set[str] = set()
        on_label: dict[str, list[str]] = {}
        for claim in self.all_claims():
            for label in equation_numbers(claim.equation):
                on_label.setdefault(label, []).append(claim.id)
        for item in self.inventory:
            if not isinstance(item, Item):
                raise InvalidArgumentError(
                    f"inventory: Item objects, got a {type(item).__name__}"
                )
            if item.label in labels:
                raise InvalidArgumentError(
                    f"inventory: each item once; {item.label!r} is repeated"
                )
            labels.add(item.label)
            unknown = sorted(set(item.used_by + item.claims) - set(claim_ids))
            if unknown:
                raise InvalidArgumentError(
                    f"inventory: item {item.label!r} names claims the source does "
                    f"not have: {unknown}"
                )
            if item.not_checked and item.label in on_label:
                raise InvalidArgumentError(
                    f"inventory: item {item.label!r} has not_checked "
                    f"({item.not_checked!r}), yet claims check it: "
                    f"{on_label[item.label]}"
                )

    def all_claims(self) -> tuple[Claim, ...]:
        """The claims and every derivation's steps, in the order of the text.

        The claims keep their order; each chain's steps, together, go where
        the chain's equation is printed: before the first claim placed after
        it, so after the claims of its own equation. An equation ``"12"``,
        a range ``"17-18"`` or a variant ``"12'"`` is placed at its first
        number, any other label at its :attr:`positions` entry (the rule of
        :func:`~implicit_bias.claims.engine.in_paper_order`); a claim with
        neither is passed over, a chain with neither goes last. Chains at
        one place keep their order.

        Examples:
          >>> from implicit_bias.claims import Derivation, Kind, Status, Step
          >>> x = sp.Symbol("x", positive=True)
          >>> chain = Derivation(
          ...     source="my-note", equation="2", label="exp", title="exp log x",
          ...     start=lambda: sp.exp(sp.log(x)), steps=(Step(lambda: x, "exp"),),
          ... )
          >>> claims = [Claim("my-note", equation, "c", Kind.IDENTITY, "", print,
          ...                 Status.HOLDS) for equation in ("1", "3")]
          >>> note = Source("my-note", "A note", claims=claims, derivations=[chain])
          >>> [c.id for c in note.all_claims()]
          ['my-note:1:c', 'my-note:2:exp-step-1', 'my-note:3:c']
        """
        places = [self._place(claim.equation) for claim in self.claims]
        before: dict[int, list[Claim]] = {}
        for chain in self.derivations:
            here = self._place(chain.equation)
            index = next(
                (
                    i
                    for i, place in enumerate(places)
                    if here is not None and place is not None and place > here
                ),
                len(self.claims),
            )
            before.setdefault(index, []).extend(chain.claims)
        ordered: list[Claim] = []
        for index, claim in enumerate(self.claims):
            ordered += before.get(index, [])
            ordered.append(claim)
        return (*ordered, *before.get(len(self.claims), []))

    def _place(self, equation: str) -> float | None:
        """Where ``equation`` is printed: its :attr:`positions` entry, else
        its first number, else None."""
        if equation in self.positions:
            return float(self.positions[equation])
        number = re.match(r"[0-9]+", equation)
        return None if number is None else float(number.group())
