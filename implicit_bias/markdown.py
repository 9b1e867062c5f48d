r"""Markdown for the generated pages: escaping, and the command that writes them.

The docs pages (:mod:`implicit_bias.reports`), the mutation report
(:mod:`implicit_bias.mutation_report`) and the API reference
(:mod:`implicit_bias.api_reference`) quote authors' text and evidence; these
helpers make it print as written on GitHub.
"""

from __future__ import annotations

import re

from implicit_bias.latex import split_math

__all__ = ["COMMAND", "escape_markdown", "text_markdown"]

#: The command that regenerates every page, as the pages cite it.
COMMAND = "implicit-bias docs --output docs/"

# Characters that start emphasis, code, links, HTML, math or strikethrough
# anywhere in a line; the others matter only at its start (below).
_MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]<$~])")


def escape_markdown(text: str) -> str:
    r"""``text`` with Markdown's (and GitHub's math) special characters escaped.

    Examples:
      >>> escape_markdown("m_h * x <= $5")
      'm\\_h \\* x \\<= \\$5'
      >>> escape_markdown("- 1")
      '\\- 1'
      >>> escape_markdown("2. x")
      '2\\. x'
    """
    escaped = _MARKDOWN_SPECIALS.sub(r"\\\1", text)
    # A leading "-", "+", ">", "#" or "1." would start a list, quote or heading.
    escaped = re.sub(r"^([-+>#])", r"\\\1", escaped, flags=re.MULTILINE)
    return re.sub(r"^([0-9]+)\.", r"\1\\.", escaped, flags=re.MULTILINE)


def text_markdown(text: str) -> str:
    r"""An author's text (a statement, a quote, a regime) for a page: its
    ``$...$`` mathematics as written, which GitHub renders, the rest escaped
    (:func:`escape_markdown`); the rule is
    :func:`~implicit_bias.latex.split_math`'s.

    Examples:
      >>> text_markdown(r"$\hat\beta_s$ fits m_h * x")
      '$\\hat\\beta_s$ fits m\\_h \\* x'
    """
    return "".join(
        f"${piece}$" if is_math else escape_markdown(piece)
        for is_math, piece in split_math(text)
    )
