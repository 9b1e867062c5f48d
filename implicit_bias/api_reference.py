r"""``docs/api.md``: every name in every ``__all__`` of the toolkit.

Each with its signature and the first line of its docstring, reStructuredText
roles turned into GitHub Markdown; written by ``implicit-bias docs --api``
and kept current by ``docs --check``.
"""

from __future__ import annotations

import ast
import enum
import importlib
import inspect
import pkgutil
import re
import types
import typing
from typing import Any

from implicit_bias.markdown import COMMAND

__all__ = ["api_page", "public_modules"]


def public_modules() -> list[types.ModuleType]:
    """Every module of :mod:`implicit_bias` that declares ``__all__``, by name."""
    package = importlib.import_module("implicit_bias")
    names = [package.__name__] + [
        info.name
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
    ]
    modules = [importlib.import_module(name) for name in sorted(names)]
    return [module for module in modules if hasattr(module, "__all__")]


def _markdown_roles(text: str) -> str:
    r"""reStructuredText roles as GitHub Markdown: ``:math:`x``` is ``$x$``,
    which GitHub renders as mathematics; ``:func:``, ``:class:``, ``:mod:``
    (and the other cross-reference roles) and double-backquoted literals
    are code, a ``~`` prefix keeping the last dotted name as Sphinx does.

    Examples:
      >>> _markdown_roles(r"Decide :math:`x \le y` with :func:`~a.b.check`.")
      'Decide $x \\le y$ with `check`.'
    """
    text = re.sub(r":math:`([^`]+)`", r"$\1$", text)

    def code(match: re.Match[str]) -> str:
        target = match.group(1)
        if target.startswith("~"):
            target = target[1:].rsplit(".", 1)[-1]
        return f"`{target}`"

    text = re.sub(
        r":(?:py:)?(?:func|class|mod|meth|attr|data|exc|obj):`([^`]+)`", code, text
    )
    return re.sub(r"``([^`]+)``", r"`\1`", text)


def _first_line(text: str | None) -> str:
    lines = [line.strip() for line in (text or "").strip().splitlines()]
    if not lines:
        return ""
    first = lines[0]
    # A formula that runs on to the next lines is taken whole.
    for line in lines[1:]:
        if not re.search(r":math:`[^`]*$", first):
            break
        first += " " + line
    return _markdown_roles(first)


#: A line of source with its end, split as :mod:`ast` counts lines (on
#: ``\r\n``, ``\r``, ``\n`` only, where :meth:`str.splitlines` also splits on
#: form feeds and Unicode separators).
_SOURCE_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def _segment(lines: list[str], node: ast.expr) -> str:
    """:func:`ast.get_source_segment` from the source's ``lines``, split once:
    that function splits the whole source at every call, which dominated the
    API page's build."""
    if node.end_lineno is None or node.end_col_offset is None:
        return ""
    first, last = node.lineno - 1, node.end_lineno - 1
    # Column offsets count UTF-8 bytes.
    if first == last:
        return lines[first].encode()[node.col_offset : node.end_col_offset].decode()
    head = lines[first].encode()[node.col_offset :].decode()
    tail = lines[last].encode()[: node.end_col_offset].decode()
    return head + "".join(lines[first + 1 : last]) + tail


def _defined_names(module: types.ModuleType) -> dict[str, tuple[str, str]]:
    """Names bound at module level -> (their ``#:`` doc, the assigned source text)."""
    try:
        source = inspect.getsource(module)
    except (OSError, TypeError):
        return {}
    lines = source.splitlines()
    source_lines = _SOURCE_LINE.findall(source)
    names: dict[str, tuple[str, str]] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names[node.name] = ("", "")
            continue
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        comment: list[str] = []
        row = node.lineno - 2
        while row >= 0 and lines[row].lstrip().startswith("#:"):
            comment.insert(0, lines[row].lstrip().removeprefix("#:").strip())
            row -= 1
        value = getattr(node, "value", None)
        text = _segment(source_lines, value) if value else ""
        for target in targets:
            if isinstance(target, ast.Name):
                names[target.id] = (" ".join(comment), " ".join(text.split()))
    return names


class _Annotation(str):
    """A string annotation that prints without quotes in a signature."""

    def __repr__(self) -> str:
        return str(self)


def _signature(value: Any) -> str | None:
    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError):
        return None

    def plain(annotation: Any) -> Any:
        if isinstance(annotation, typing.ForwardRef):
            annotation = annotation.__forward_arg__
        return _Annotation(annotation) if isinstance(annotation, str) else annotation

    signature = signature.replace(
        parameters=[
            parameter.replace(annotation=plain(parameter.annotation))
            for parameter in signature.parameters.values()
        ],
        return_annotation=plain(signature.return_annotation),
    )
    # Object reprs carry memory addresses, which change from run to run.
    return re.sub(r" at 0x[0-9a-fA-F]+", "", str(signature))


def _entry(name: str, value: Any, comment: str, assigned: str) -> str:
    if inspect.ismodule(value):
        return f"- module `{name}` (`{value.__name__}`): {_first_line(value.__doc__)}"
    if inspect.isclass(value):
        if issubclass(value, enum.Enum):
            members = ", ".join(f"`{member.name}`" for member in value)
            return f"- enum `{name}` ({members}): {_first_line(inspect.getdoc(value))}"
        signature = _signature(value) or ""
        return f"- class `{name}{signature}`: {_first_line(inspect.getdoc(value))}"
    if typing.get_origin(value) is not None:
        # The source text, not the repr, which spells private module paths.
        alias = assigned or repr(value)
        return f"- type `{name} = {alias}`" + (
            f": {_markdown_roles(comment)}" if comment else ""
        )
    if inspect.isroutine(value):
        signature = _signature(value) or "(...)"
        return f"- `{name}{signature}`: {_first_line(inspect.getdoc(value))}"
    kind = type(value).__name__
    if isinstance(value, str | int | float):
        kind += f" = {value!r}"
    return f"- `{name}` ({kind})" + (f": {_markdown_roles(comment)}" if comment else "")


def api_page() -> str:
    """``docs/api.md``: every public name of every module, with signature and doc.

    A name a package re-exports from one of its modules is listed under the
    package with a pointer to the module, where its signature and first
    docstring line are given.
    """
    modules = public_modules()
    defined = {module.__name__: _defined_names(module) for module in modules}
    by_name = {module.__name__: module for module in modules}

    def home(module: types.ModuleType, name: str, value: Any) -> str | None:
        """The other documented module that defines ``name``, if any."""
        if inspect.ismodule(value):
            return None
        owner = getattr(value, "__module__", None)
        if not isinstance(owner, str) or not (
            inspect.isclass(value) or inspect.isfunction(value)
        ):
            owner = next(
                (
                    other
                    for other, names in defined.items()
                    if other != module.__name__
                    and name in names
                    and getattr(by_name[other], name, None) is value
                ),
                None,
            )
        if (
            owner is None
            or owner == module.__name__
            or owner not in by_name
            or name not in getattr(by_name[owner], "__all__", ())
        ):
            return None
        return owner

    lines = [
        f"<!-- Generated by `{COMMAND}`; do not edit. -->",
        "",
        "# Python API",
        "",
        "Every name in the `__all__` of every module of `implicit_bias`, with its "
        "signature and the first line of its docstring (`help()` gives the rest).",
        "",
    ]
    for module in modules:
        lines += [f"## `{module.__name__}`", "", _first_line(module.__doc__), ""]
        for name in module.__all__:
            value = getattr(module, name)
            owner = home(module, name, value)
            if owner is not None:
                lines.append(f"- `{name}`: from `{owner}`")
            else:
                comment, assigned = defined[module.__name__].get(name, ("", ""))
                lines.append(_entry(name, value, comment, assigned))
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
