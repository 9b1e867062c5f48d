"""The module-level code of a file, read statically for the claim keys.

A module's part of a claim key (:mod:`implicit_bias.claims.cache_keys`) is
its module-level code with function and lambda bodies and docstrings left
out, its functions in a fixed order (:class:`_StubBodies`); the walk follows
the modules it imports (:func:`_raw_imports`, :func:`_imports`) and the
functions it calls when imported (:func:`_top_level_callees`,
:func:`_resolve`), whose results are its globals.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
import types
from collections.abc import Iterator, Mapping, Sequence
from typing import Any


class _StubBodies(ast.NodeTransformer):
    """Module-level code only: function and lambda bodies and docstrings out;
    the functions of a module or class in a fixed order (moving one is no
    change)."""

    def visit_Module(self, node: ast.Module) -> ast.AST:
        self.generic_visit(node)
        node.body = _sorted_functions(_without_docstring(node.body))
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.body = [ast.Pass()]
        self.generic_visit(node)
        return node

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        node.body = [ast.Pass()]
        self.generic_visit(node)
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        node.body = ast.Constant(None)
        self.generic_visit(node)
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        self.generic_visit(node)
        node.body = _sorted_functions(_without_docstring(node.body))
        return node


def _sorted_functions(body: list[ast.stmt]) -> list[ast.stmt]:
    """The other statements in order, then the function definitions sorted.

    Defining a function runs nothing but its decorators and defaults, so
    where it stands among the statements does not change what they compute
    (a name defined twice is the exception, and keeps its order).
    """
    functions = [
        node
        for node in body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    names = [node.name for node in functions]
    if len(set(names)) < len(names):
        return body
    others = [node for node in body if node not in functions]
    return others + sorted(
        functions, key=lambda node: ast.dump(node, include_attributes=False)
    )


def _without_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    first = body[0] if body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return body[1:] or [ast.Pass()]
    return body


def _top_level_callees(tree: ast.Module) -> list[list[str]]:
    """The callees (and decorators) of the code a module runs when imported,
    as dotted names (``theory.penalty`` is ``["theory", "penalty"]``)."""
    found: list[ast.expr] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.extend(node.decorator_list)
            parts: list[ast.AST] = [*node.decorator_list, node.args]
            if node.returns is not None:
                parts.append(node.returns)
            for part in parts:
                visit(part)
            return
        if isinstance(node, ast.Lambda):
            visit(node.args)
            return
        if isinstance(node, ast.ClassDef):
            found.extend(node.decorator_list)
        if isinstance(node, ast.Call):
            found.append(node.func)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    chains = []
    for callee in found:
        chain: list[str] = []
        while isinstance(callee, ast.Attribute):
            chain.append(callee.attr)
            callee = callee.value
        if isinstance(callee, ast.Name):
            chains.append([callee.id, *reversed(chain)])
    return chains


def _raw_imports(tree: ast.Module) -> list[tuple[int, str, list[str]]]:
    """``(level, module, names)`` of each import at module level; ``names`` is
    empty for ``import module``."""
    found: list[tuple[int, str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((0, alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names = [alias.name for alias in node.names]
            found.append((node.level, node.module or "", names))
    return found


def _imports(raw: Sequence[Sequence[Any]], package: str) -> Iterator[str]:
    """The modules the imports of :func:`_raw_imports` bind names from.

    ``from pkg import sub`` of a submodule names ``pkg.sub``, not ``pkg``: the
    package's ``__init__`` runs, but what it defines is not what the code
    uses (a package read for its own names is reached through them). Only
    modules the process has imported count: those are the ones that ran.
    """
    for level, module, names in raw:
        if not names:
            yield module
            continue
        base = module
        if level:
            try:
                base = importlib.util.resolve_name("." * level + module, package)
            except (ImportError, ValueError):
                continue
        submodules = [f"{base}.{name}" for name in names]
        yield from (name for name in submodules if name in sys.modules)
        if any(name not in sys.modules for name in submodules):
            yield base


def _resolve(chain: Sequence[str], namespace: Mapping[str, Any]) -> object:
    """The object a dotted callee names (``f``, ``module.f``), if any."""
    found = namespace.get(chain[0])
    for attribute in chain[1:]:
        if not isinstance(found, types.ModuleType):
            # A method of a class or object: walking the owner reaches it.
            return found
        found = vars(found).get(attribute)
    return found
