"""Markdown escaping for the generated pages."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from implicit_bias.markdown import escape_markdown


@given(st.text())
def test_escaped_markdown_unescapes_to_the_text(text: str) -> None:
    escaped = escape_markdown(text)
    assert re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", escaped) == text
