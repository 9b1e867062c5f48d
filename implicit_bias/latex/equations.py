r"""Claims as LaTeX equations: a claim's formula in its source's notation,
tagged with the paper's equation number, and the references that tell apart
claims sharing one equation (``10a``, ``10b``).
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Iterable, Mapping, Sequence

import sympy as sp

from implicit_bias.claims.discovery import default_registry
from implicit_bias.claims.engine import Claim
from implicit_bias.claims.recording import claim_formula

__all__ = [
    "claim_latex",
    "claims_latex",
    "equation_references",
    "formula_latex",
    "typeset",
]


def typeset(expression: sp.Basic, glyphs: Mapping[sp.Symbol, str]) -> str:
    r""":func:`sympy.latex` of ``expression``, its symbols written as ``glyphs``.

    SymPy orders a sum's terms by the values of their numeric factors, and a
    definite integral without free symbols is one: printing would integrate it
    by quadrature (a second or more apiece; most of the time of building the
    docs) only to place it. A formula holding such an integral keeps its terms
    in SymPy's canonical order instead.

    >>> t = sp.Symbol("t")
    >>> typeset(sp.Integral(sp.exp(-(t**2)), (t, 0, 1)) + 1, {t: "x"})
    '1 + \\int\\limits_{0}^{1} e^{- x^{2}}\\, dx'
    """
    try:
        return _typeset(expression, frozenset(glyphs.items()))
    except TypeError:  # an unhashable expression (a mutable Matrix)
        return _typeset.__wrapped__(expression, frozenset(glyphs.items()))


@functools.lru_cache(maxsize=4096)
def _typeset(expression: sp.Basic, glyphs: frozenset[tuple[sp.Symbol, str]]) -> str:
    """:func:`typeset`, memoized: the docs' pages, ledger and staleness check
    each print every formula."""
    atoms = getattr(expression, "atoms", None)
    closed = atoms is not None and any(
        not integral.free_symbols for integral in atoms(sp.Integral)
    )
    return sp.latex(
        expression, symbol_names=dict(glyphs), order="none" if closed else None
    )


def formula_latex(claim: Claim) -> str | None:
    """The claim's formula as LaTeX in its source's notation, or None if it has none
    (see the module docstring for where a formula comes from)."""
    formula = claim_formula(claim)
    if formula is None:
        return None
    return typeset(formula, default_registry().glyphs(claim.source))


def _tag(claim: Claim) -> str:
    number = (
        claim.equation if re.fullmatch(r"[0-9]+(-[0-9]+)?", claim.equation) else None
    )
    return rf"\tag{{{number}}}" if number else r"\notag"


def claim_latex(claim: Claim) -> str | None:
    r"""One claim as a tagged ``equation`` environment with its id as a comment."""
    body = formula_latex(claim)
    if body is None:
        return None
    return "\n".join(
        [
            f"% {claim.id}: {claim.statement}",
            r"\begin{equation}",
            f"  {body} {_tag(claim)}",
            r"\end{equation}",
        ]
    )


def claims_latex(claims: Iterable[Claim]) -> str:
    """The LaTeX of every claim that has a formula, separated by blank lines."""
    blocks = [block for block in map(claim_latex, claims) if block is not None]
    return "\n\n".join(blocks) + "\n"


def _letters(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = string.ascii_lowercase[remainder] + letters
    return letters


def equation_references(claims: Sequence[Claim]) -> dict[str, str]:
    """Claim id -> its reference: the equation as printed, plus a letter if shared.

    Where several of ``claims`` name one equation they are told apart by
    letters in their order (``10a``, ``10b``, ...); the letter follows a dot
    when the equation does not end in a digit (``sec-G.a``). A claim alone on
    its equation keeps the bare number, so every reference is unique.

    Examples:
      >>> from implicit_bias.claims import Basis, Claim, Kind, Status, Verdict
      >>> def claim(equation, label):
      ...     return Claim("note", equation, label, Kind.IDENTITY, label,
      ...                  lambda: Verdict.holds("", Basis.PROOF), Status.HOLDS)
      >>> claims = [claim("10", "a"), claim("10", "b"), claim("sec-G", "c"),
      ...           claim("sec-G", "d"), claim("9", "e")]
      >>> list(equation_references(claims).values())
      ['10a', '10b', 'sec-G.a', 'sec-G.b', '9']
    """
    counts: dict[str, int] = {}
    for claim in claims:
        counts[claim.equation] = counts.get(claim.equation, 0) + 1
    seen: dict[str, int] = {}
    references = {}
    for claim in claims:
        equation = claim.equation
        if counts[equation] == 1:
            references[claim.id] = equation
            continue
        index = seen.get(equation, 0)
        seen[equation] = index + 1
        separator = "" if equation[-1:].isdigit() else "."
        references[claim.id] = f"{equation}{separator}{_letters(index)}"
    return references
