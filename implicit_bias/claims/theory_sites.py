r"""The mutants of a theory module: one small change inside one function.

:func:`theory_mutants` alters the source of a module (of
:mod:`implicit_bias.theory`, or a user's) one step at a time, inside the body
of one function

* an operator ``+``, ``-``, ``*``, ``/`` becomes its opposite (``-``, ``+``,
  ``/``, ``*``);
* a unary minus is dropped;
* a number :math:`c` becomes :math:`c + 1`;
* a comparison ``<``, ``>``, ``<=``, ``>=`` is turned around;

never in a docstring, a default, an index, an argument guard (an ``if`` that
only raises) or a ``raise``/``assert``; :func:`mutated_code` compiles the
module with one of them (its file is never written).
:mod:`implicit_bias.claims.theory_mutation` judges them.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import types
from collections.abc import Sequence
from dataclasses import dataclass

from implicit_bias.claims.mutate import _prefix_spread_order
from implicit_bias.errors import InvalidArgumentError

__all__ = ["PER_FUNCTION", "TheoryMutant", "mutated_code", "theory_mutants"]

#: Mutants per theory function, spread over its mutation sites.
PER_FUNCTION = 2
_OPPOSITE_OPERATORS: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
}
_TURNED_COMPARISONS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.Gt,
    ast.Gt: ast.Lt,
    ast.LtE: ast.GtE,
    ast.GtE: ast.LtE,
}
_LONGEST_SHOWN = 60


@dataclass(frozen=True)
class TheoryMutant:
    """One mutation of a theory module, inside one function.

    Attributes:
      module: the module's name (``implicit_bias.theory.relu_penalty``).
      function: the qualified name of the function (or method) it is in.
      site: the index of the mutation among the module's sites.
      line: its line in the module.
      description: what changed, e.g. ``line 57: `a + b` -> `a - b```.
      end_line: the last line of the changed expression.
    """

    module: str
    function: str
    site: int
    line: int
    description: str
    end_line: int = 0

    @property
    def label(self) -> str:
        """``module:function, description``."""
        return f"{self.module}:{self.function}, {self.description}"


def _shown(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= _LONGEST_SHOWN else text[: _LONGEST_SHOWN - 3] + "..."


def _is_guard(node: ast.If) -> bool:
    """An argument guard: an ``if`` whose body only raises."""
    return all(isinstance(statement, ast.Raise) for statement in node.body)


class _Sites(ast.NodeTransformer):
    """Finds a module's mutation sites in a fixed order; with ``target``,
    replaces that site (see the module docstring)."""

    def __init__(self, target: int | None = None) -> None:
        self.target = target
        self.found: list[tuple[str, int, str, int]] = []
        self._function = ""

    def _site(self, old: ast.AST, new: ast.AST) -> ast.AST | None:
        """Record a site; return ``new`` when it is the target."""
        index = len(self.found)
        line = getattr(old, "lineno", 0)
        self.found.append(
            (
                self._function,
                line,
                f"line {line}: `{_shown(old)}` -> `{_shown(new)}`",
                getattr(old, "end_lineno", None) or line,
            )
        )
        if index == self.target:
            return ast.copy_location(new, old)
        return None

    # --- where to look

    def visit_Module(self, node: ast.Module) -> ast.Module:
        node.body = [
            self.visit(statement)
            if isinstance(statement, (ast.FunctionDef, ast.ClassDef))
            else statement
            for statement in node.body
        ]
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.ClassDef:
        outer = self._function
        for statement in node.body:
            if isinstance(statement, ast.FunctionDef):
                self._function = f"{node.name}.{statement.name}"
                self._body(statement)
        self._function = outer
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        if not self._function:
            self._function = node.name
            self._body(node)
            self._function = ""
        else:
            self._body(node)
        return node

    def _body(self, node: ast.FunctionDef) -> None:
        body = node.body
        start = (
            1
            if body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
            else 0
        )
        node.body = body[:start] + [self.visit(s) for s in body[start:]]

    def visit_Raise(self, node: ast.Raise) -> ast.Raise:
        return node

    def visit_Assert(self, node: ast.Assert) -> ast.Assert:
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.JoinedStr:
        return node

    def visit_If(self, node: ast.If) -> ast.If:
        if _is_guard(node):
            node.orelse = [self.visit(s) for s in node.orelse]
            return node
        return self.generic_visit(node)  # type: ignore[return-value]

    def visit_Subscript(self, node: ast.Subscript) -> ast.Subscript:
        node.value = self.visit(node.value)
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.Lambda:
        node.body = self.visit(node.body)
        return node

    def visit_arguments(self, node: ast.arguments) -> ast.arguments:
        return node

    # --- what to change

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        opposite = _OPPOSITE_OPERATORS.get(type(node.op))
        if opposite is not None:
            new = ast.BinOp(left=node.left, op=opposite(), right=node.right)
            replaced = self._site(node, new)
            if replaced is not None:
                return replaced
        return self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        if isinstance(node.op, ast.USub):
            replaced = self._site(node, node.operand)
            if replaced is not None:
                return replaced
        return self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        turned = (
            _TURNED_COMPARISONS.get(type(node.ops[0])) if len(node.ops) == 1 else None
        )
        if turned is not None:
            new = ast.Compare(
                left=node.left, ops=[turned()], comparators=node.comparators
            )
            replaced = self._site(node, new)
            if replaced is not None:
                return replaced
        return self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        value = node.value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            replaced = self._site(node, ast.Constant(value + 1))
            if replaced is not None:
                return replaced
        return node


@functools.cache
def _module_tree(module_name: str) -> tuple[str, str]:
    """The file and source text of ``module_name``."""
    module = importlib.import_module(module_name)
    filename = inspect.getsourcefile(module)
    if filename is None:
        raise InvalidArgumentError(f"module: {module_name!r} has no source file")
    with open(filename, encoding="utf-8") as handle:
        return filename, handle.read()


def _sites(module_name: str) -> list[tuple[str, int, str, int]]:
    _, text = _module_tree(module_name)
    finder = _Sites()
    finder.visit(ast.parse(text))
    return finder.found


def mutated_code(mutant: TheoryMutant) -> types.CodeType:
    """The compiled module with ``mutant``'s change (line numbers kept)."""
    filename, text = _module_tree(mutant.module)
    tree = _Sites(mutant.site).visit(ast.parse(text))
    return compile(ast.fix_missing_locations(tree), filename, "exec")


def theory_mutants(
    module_name: str,
    functions: Sequence[str] | None = None,
    per_function: int | None = PER_FUNCTION,
) -> list[TheoryMutant]:
    """The mutants of ``module_name``, at most ``per_function`` in each function.

    Args:
      module_name: an importable module with a source file.
      functions: only these functions (qualified names); None: all.
      per_function: mutants per function, spread over its sites (the same
        ones every run); None: every site.

    Raises:
      InvalidArgumentError: ``per_function`` is below 1.
    """
    if per_function is not None and per_function < 1:
        raise InvalidArgumentError(
            f"per_function: must be >= 1 or None, got {per_function!r}"
        )
    by_function: dict[str, list[TheoryMutant]] = {}
    for index, (function, line, description, end) in enumerate(_sites(module_name)):
        if functions is None or function in functions:
            by_function.setdefault(function, []).append(
                TheoryMutant(module_name, function, index, line, description, end)
            )
    chosen: list[TheoryMutant] = []
    for mutants in by_function.values():
        order = _prefix_spread_order(len(mutants))
        if per_function is not None:
            order = order[:per_function]
        chosen.extend(mutants[i] for i in sorted(order))
    return chosen
