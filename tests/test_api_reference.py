"""docs/api.md: every public name, with its signature and docstring's first line."""

from __future__ import annotations

import re
from pathlib import Path

from implicit_bias.api_reference import api_page, public_modules

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_every_public_name_is_in_the_api_page() -> None:
    text = (DOCS / "api.md").read_text("utf-8")
    sections = dict(
        re.findall(r"^## `([\w.]+)`\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    )
    for module in public_modules():
        assert module.__name__ in sections, module.__name__
        listed = set(re.findall(r"^- (?:\w+ )?`(\w+)", sections[module.__name__], re.M))
        assert set(module.__all__) <= listed, module.__name__


def test_api_page_gives_signature_and_first_docstring_line() -> None:
    text = api_page()
    assert (
        "- `claims_for(source: str | None) -> list[Claim]`: "
        "The claims of one installed source (all when `source` is None)." in text
    )
    # reStructuredText roles become Markdown: math GitHub renders, code spans.
    assert ":math:`" not in text
    assert ":func:`" not in text
    assert ":class:`" not in text
    assert "- `absolute_deviation` (Penalty): $\\omega(z) = |z-1|$" in text
    assert "$e_0 = e_1 = \\dots = e_n$" in text
    assert (
        "- class `CheckTimeout`: A step of a check ran past the time given to it "
        "by `time_limit`." in text
    )
    assert "- `Claim`: from `implicit_bias.claims.engine`" in text
    assert "- enum `Status` (`HOLDS`, `FAILS`, `INCONCLUSIVE`)" in text
    assert not re.search(r" at 0x[0-9a-f]+", text)


def test_a_module_level_value_is_read_as_ast_reads_its_source() -> None:
    import ast

    from implicit_bias.api_reference import _SOURCE_LINE, _segment

    # Multi-byte characters before and inside a value (offsets count UTF-8
    # bytes), a form feed (a line break for str.splitlines, not for ast), a
    # value over several lines, a file without a final newline.
    source = (
        'A = "θ ⊥ ν"  # \u00e9\n\x0cB = (1,\n     "β",\n     2)\r\nC = {"α": [1,\r 2]}'
    )
    lines = _SOURCE_LINE.findall(source)
    values = [node.value for node in ast.parse(source).body]
    assert [_segment(lines, value) for value in values] == [
        ast.get_source_segment(source, value) for value in values
    ]
