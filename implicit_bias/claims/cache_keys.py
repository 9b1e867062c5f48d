r"""Claim keys for the verdict cache: a digest of the code a claim runs.

A claim's **key** is a SHA-256 digest of everything its verdict depends on
that can change between two runs on one machine:

* the claim's id and the fields that decide how its verdict is judged
  (``kind``, ``expected``, ``expected_reason``, ``budget_seconds`` and,
  when a claim gives one, ``budget_bytes``);
* the code of every project or user function its check can reach, found
  statically from ``claim.check`` (and ``claim.formula``): closures,
  defaults, ``functools.partial`` arguments, bound methods, instances of
  project classes and their classes, containers, and every global name or
  module attribute a reached code object reads. A function is hashed by its
  bytecode, names and constants, not by its file, line numbers or docstring,
  so moving a function or editing a comment changes no key;
* the values those functions read (closure cells, defaults, globals), the
  arguments a ``functools.partial`` binds and the fields of project or user
  instances: numbers, strings, SymPy expressions (by ``srepr``), NumPy arrays
  (by their bytes), NumPy random generators (by their state), other objects
  by their attributes;
* the module-level code of every project or user module a reached function
  reads the globals of, and of the project or user modules those import, with
  function and lambda bodies left out (so a constant or an import counts, a
  function body counts only where it is reached); functions a reached module
  calls at import time are reached too, as their results are its globals;
* the Python version and the versions of implicit-bias, SymPy, mpmath, NumPy,
  SciPy and python-flint, and of every other installed distribution whose
  functions, classes or objects the walk reaches (a plug-in installed
  without ``-e``, a library a check calls).

Seeds are constants in the code, so they are covered. *Project or user code*
is code in the ``implicit_bias`` package or in a file outside the standard
library and the installed packages (whose versions cover them); nothing is
traced while a check runs, so caching does not slow checks or move their CPU
budgets.

The key is computed in the parent process before any check runs; see
:mod:`implicit_bias.claims.cache` for the store.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import fractions
import functools
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import re
import site
import sys
import sysconfig
import types
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from implicit_bias.claims.engine import Claim
from implicit_bias.claims.module_code import (
    _imports,
    _raw_imports,
    _resolve,
    _StubBodies,
    _top_level_callees,
)

__all__ = ["FORMAT_VERSION", "ClaimKeys"]

#: Bumped whenever the key or the entry format changes, which empties the cache.
FORMAT_VERSION = 1

#: The distributions whose versions enter every key.
_LIBRARIES = ("implicit-bias", "sympy", "mpmath", "numpy", "scipy", "python-flint")

#: How deep containers are followed (a fingerprint past it is truncated).
_MAX_DEPTH = 8

_PACKAGE_DIR = Path(__file__).resolve().parents[1]
_COMPREHENSIONS = frozenset({"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"})
_CO_HAS_DOCSTRING = 0x4000000  # Python >= 3.14
_PLAIN = (type(None), bool, int, float, complex, str, bytes)
_DUMMY_INDEX = re.compile(r"dummy_index=\d+")
_COUNTER = re.compile(r"\d+")


@functools.cache
def _library_roots() -> tuple[str, ...]:
    """Directories of the standard library and of installed packages."""
    paths = sysconfig.get_paths()
    roots = {paths[name] for name in ("stdlib", "platstdlib", "purelib", "platlib")}
    roots.update(site.getsitepackages())
    roots.add(site.getusersitepackages())
    return tuple(
        sorted(os.path.join(os.path.realpath(root), "") for root in roots if root)
    )


@functools.cache
def _library_versions() -> tuple[tuple[str, str], ...]:
    versions = []
    for name in _LIBRARIES:
        try:
            versions.append((name, importlib.metadata.version(name)))
        except importlib.metadata.PackageNotFoundError:
            versions.append((name, "absent"))
    return tuple(versions)


def _digest(*parts: object) -> str:
    return hashlib.sha256(
        json.dumps(parts, separators=(",", ":")).encode("utf-8")
    ).hexdigest()


def _has_docstring(code: types.CodeType) -> bool:
    if sys.version_info >= (3, 14):
        return bool(code.co_flags & _CO_HAS_DOCSTRING)
    # Up to 3.13 a function's first constant is its docstring or None.
    return bool(code.co_flags & 0x1) and code.co_name not in _COMPREHENSIONS


def _filled_cells(function: types.FunctionType) -> Iterator[types.CellType]:
    for cell in function.__closure__ or ():
        try:
            cell.cell_contents  # noqa: B018 -- an empty cell raises
        except ValueError:
            continue
        yield cell


def _fields(value: object) -> dict[str, object]:
    """The state of an instance: dataclass fields, ``__dict__`` and slots."""
    state: dict[str, object] = {}
    if dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            state[field.name] = getattr(value, field.name, None)
    state.update(getattr(value, "__dict__", {}))
    for klass in type(value).__mro__:
        slots = vars(klass).get("__slots__", ())
        for slot in (slots,) if isinstance(slots, str) else slots:
            if slot not in ("__dict__", "__weakref__") and hasattr(value, slot):
                state.setdefault(slot, getattr(value, slot))
    return state


def _module_of(namespace: Mapping[str, Any]) -> types.ModuleType | None:
    module = sys.modules.get(namespace.get("__name__", ""))
    if module is not None and vars(module) is namespace:
        return module
    return None


@functools.cache
def _file_label(filename: str) -> str:
    """A name for a file that does not depend on the process."""
    if filename.startswith("<"):
        # <lambdifygenerated-12>: the counter depends on what ran before.
        return _COUNTER.sub("", filename)
    real = Path(os.path.realpath(filename))
    if real.is_relative_to(_PACKAGE_DIR.parent):
        return real.relative_to(_PACKAGE_DIR.parent).as_posix()
    return real.as_posix()


@dataclasses.dataclass
class _ModuleInfo:
    label: str
    digest: str
    imports: tuple[str, ...]
    callees: tuple[tuple[str, ...], ...]


@dataclasses.dataclass(frozen=True)
class _Node:
    """One object's part of a key: its entries and the objects it leads to."""

    functions: tuple[str, ...]
    values: tuple[str, ...]
    modules: tuple[types.ModuleType, ...]
    children: tuple[object, ...]


@dataclasses.dataclass
class _Walk:
    """What one claim's check reaches."""

    functions: set[str] = dataclasses.field(default_factory=set)
    values: set[str] = dataclasses.field(default_factory=set)
    modules: dict[str, types.ModuleType] = dataclasses.field(default_factory=dict)
    seen: set[int] = dataclasses.field(default_factory=set)


class ClaimKeys:
    """Computes claim keys (:meth:`key`), remembering what it parsed and hashed.

    It assumes that the files and objects it has seen do not change while it
    lives (objects it remembers by ``id`` are kept alive); a new one sees
    edited files.
    """

    def __init__(self) -> None:
        self._tracked_files: dict[str, bool] = {}
        self._code_digests: dict[int, tuple[types.CodeType, str]] = {}
        self._code_names: dict[int, tuple[types.CodeType, tuple[str, ...]]] = {}
        self._fingerprints: dict[int, tuple[object, str]] = {}
        self._modules: dict[str, _ModuleInfo | None] = {}
        self._closures: dict[str, tuple[str, ...]] = {}
        self._distributions: Mapping[str, list[str]] | None = None
        self._versions: dict[str, tuple[str, ...]] = {}
        self._nodes: dict[int, tuple[object, _Node]] = {}
        #: What :meth:`parse` found, by the digest of a file's text; kept
        #: between runs by the cache.
        self.parsed: dict[str, dict[str, Any]] = {}
        #: The entries of :attr:`parsed` used in this process.
        self.used: set[str] = set()

    # --- what is project or user code

    def tracked_file(self, filename: str | None) -> bool:
        """Whether code in ``filename`` is project or user code."""
        if not filename:
            return False
        known = self._tracked_files.get(filename)
        if known is None:
            if filename.startswith("<"):
                # Generated code (lambdify, dataclasses) belongs to whoever
                # generated it; frozen modules are the standard library.
                known = not filename.startswith("<frozen ")
            else:
                real = os.path.realpath(filename)
                known = real.startswith(os.path.join(str(_PACKAGE_DIR), "")) or not (
                    real.startswith(_library_roots())
                    or f"{os.sep}site-packages{os.sep}" in real
                    or f"{os.sep}dist-packages{os.sep}" in real
                )
            self._tracked_files[filename] = known
        return known

    def tracked_module(self, module: types.ModuleType) -> bool:
        return self.tracked_file(getattr(module, "__file__", None))

    def tracked_class(self, cls: type) -> bool:
        module = sys.modules.get(cls.__module__)
        return module is not None and self.tracked_module(module)

    def tracked_instance(self, value: object) -> bool:
        return not isinstance(value, type) and self.tracked_class(type(value))

    def installed_versions(self, value: object) -> tuple[str, ...]:
        """``distribution==version`` of the installed package ``value``
        comes from, unless it is project or user code.

        Code of an installed package is not walked; its version stands for it,
        so upgrading a plug-in (or anything a check calls) changes the key.
        """
        if isinstance(value, types.ModuleType):
            name = value.__name__
        elif isinstance(value, (types.FunctionType, type)):
            name = value.__module__
        else:
            name = type(value).__module__
        known = self._versions.get(name)
        if known is not None:
            return known
        module = sys.modules.get(name)
        versions: tuple[str, ...] = ()
        if module is not None and not self.tracked_module(module):
            if self._distributions is None:
                self._distributions = importlib.metadata.packages_distributions()
            found = []
            for distribution in sorted(
                set(self._distributions.get(name.partition(".")[0], ()))
            ):
                try:
                    version = importlib.metadata.version(distribution)
                except importlib.metadata.PackageNotFoundError:
                    continue
                found.append(f"installed:{distribution}=={version}")
            versions = tuple(found)
        self._versions[name] = versions
        return versions

    def module_label(self, module: types.ModuleType) -> str:
        """The file of a project or user module, else its name."""
        filename = getattr(module, "__file__", None)
        if filename and self.tracked_file(filename):
            return _file_label(filename)
        return module.__name__

    def type_label(self, cls: type) -> str:
        module = sys.modules.get(cls.__module__)
        owner = cls.__module__ if module is None else self.module_label(module)
        return f"{owner}:{cls.__qualname__}"

    # --- code and values

    def code_digest(self, code: types.CodeType) -> str:
        """Bytecode, names and constants of ``code``: not its place or docstring."""
        known = self._code_digests.get(id(code))
        if known is not None:
            return known[1]
        consts = list(code.co_consts)
        if consts and isinstance(consts[0], str) and _has_docstring(code):
            consts[0] = None
        digest = _digest(
            code.co_name,
            code.co_argcount,
            code.co_posonlyargcount,
            code.co_kwonlyargcount,
            code.co_flags,
            code.co_code.hex(),
            code.co_exceptiontable.hex(),
            code.co_names,
            code.co_varnames,
            code.co_freevars,
            code.co_cellvars,
            [self._constant(value) for value in consts],
        )
        self._code_digests[id(code)] = (code, digest)
        return digest

    def _constant(self, value: object) -> str:
        if isinstance(value, types.CodeType):
            return "code:" + self.code_digest(value)
        if isinstance(value, (tuple, frozenset)):
            items = [self._constant(item) for item in value]
            if isinstance(value, frozenset):
                items.sort()
            return f"{type(value).__name__}({','.join(items)})"
        return f"{type(value).__name__}:{value!r}"

    def code_names(self, code: types.CodeType) -> tuple[str, ...]:
        """The global and attribute names ``code`` and the code in it read."""
        known = self._code_names.get(id(code))
        if known is not None:
            return known[1]
        names = dict.fromkeys(code.co_names)
        for value in code.co_consts:
            if isinstance(value, types.CodeType):
                names.update(dict.fromkeys(self.code_names(value)))
        result = tuple(names)
        self._code_names[id(code)] = (code, result)
        return result

    def fingerprint(self, value: object, depth: int = 0) -> str:
        """Data by its value; code, classes and modules by their names.

        The code a fingerprint names is walked and hashed on its own.
        """
        if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
            return f"{type(value).__name__}:{value!r}"
        if isinstance(value, enum.Enum):
            return f"enum:{self.type_label(type(value))}.{value.name}"
        if depth > _MAX_DEPTH:
            return "..."
        known = self._fingerprints.get(id(value))
        if known is not None:
            return known[1]
        text = self._fingerprint(value, depth)
        self._fingerprints[id(value)] = (value, text)
        return text

    def _fingerprint(self, value: object, depth: int) -> str:
        if isinstance(value, (sp.Basic, sp.MatrixBase)):
            # A Dummy's index counts the Dummies made before it in the process.
            return "sympy:" + _DUMMY_INDEX.sub("", sp.srepr(value))
        if isinstance(value, np.ndarray):
            if value.dtype.hasobject:
                return "ndarray:" + self.fingerprint(value.tolist(), depth + 1)
            data = hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest()
            return f"ndarray:{value.dtype.str}{value.shape}:{data}"
        if isinstance(
            value,
            (np.generic, mpmath.mpf, mpmath.mpc, fractions.Fraction, range, slice),
        ):
            return f"{type(value).__name__}:{value!r}"
        if isinstance(value, (list, tuple)):
            items = ",".join(self.fingerprint(item, depth + 1) for item in value)
            return f"{type(value).__name__}[{items}]"
        if isinstance(value, (set, frozenset)):
            members = sorted(self.fingerprint(item, depth + 1) for item in value)
            return f"{type(value).__name__}{{{','.join(members)}}}"
        if isinstance(value, Mapping):
            entries = sorted(
                f"{self.fingerprint(k, depth + 1)}={self.fingerprint(v, depth + 1)}"
                for k, v in value.items()
            )
            return f"{self.type_label(type(value))}{{{','.join(entries)}}}"
        if isinstance(value, types.ModuleType):
            return f"module:{self.module_label(value)}"
        if isinstance(value, type):
            return f"type:{self.type_label(value)}"
        if isinstance(value, types.FunctionType):
            label = _file_label(value.__code__.co_filename)
            return f"function:{label}:{value.__qualname__}"
        if isinstance(value, functools.partial):
            # The bound arguments are data: partial(check, 3) is not partial(check, 4).
            bound = self.fingerprint((value.args, value.keywords), depth + 1)
            return f"partial:{self.fingerprint(value.func, depth + 1)}{bound}"
        if isinstance(value, (np.random.Generator, np.random.BitGenerator)):
            # A generator is its seed and position: the state says both.
            generator = (
                value.bit_generator if isinstance(value, np.random.Generator) else value
            )
            state = self.fingerprint(generator.state, depth + 1)
            return f"{self.type_label(type(value))}{state}"
        if isinstance(value, np.random.RandomState):
            state = self.fingerprint(value.get_state(legacy=False), depth + 1)
            return f"{self.type_label(type(value))}{state}"
        if self.tracked_instance(value):
            state = self.fingerprint(_fields(value), depth + 1)
            return f"instance:{self.type_label(type(value))}{state}"
        if callable(value):
            name = getattr(value, "__qualname__", None) or getattr(
                value, "__name__", ""
            )
            return f"callable:{self.type_label(type(value))}:{name}"
        attributes = getattr(value, "__dict__", None)
        if isinstance(attributes, dict) and attributes:
            # A library's object (a frozen distribution, a configuration)
            # computes with what it holds.
            held = self.fingerprint(attributes, depth + 1)
            return f"object:{self.type_label(type(value))}{held}"
        return f"object:{self.type_label(type(value))}"

    # --- modules

    def module_info(self, module: types.ModuleType) -> _ModuleInfo | None:
        """The module-level code of a project or user module."""
        name = module.__name__
        if name in self._modules:
            return self._modules[name]
        info = None
        filename = getattr(module, "__file__", None)
        parsed = None if filename is None else self.parse(filename)
        if filename is not None and parsed is not None:
            info = _ModuleInfo(
                label=_file_label(filename),
                digest=parsed["digest"],
                imports=tuple(_imports(parsed["imports"], module.__package__ or "")),
                callees=tuple(tuple(chain) for chain in parsed["callees"]),
            )
        self._modules[name] = info
        return info

    def parse(self, filename: str) -> dict[str, Any] | None:
        """The digest of a tracked file's module-level code, its imports and
        callees; remembered in :attr:`parsed` by the digest of its text."""
        if not self.tracked_file(filename):
            return None
        try:
            text = Path(filename).read_bytes()
        except OSError:
            return None
        # The AST (and so its dump) may change between Python versions.
        memo = hashlib.sha256(sys.version.encode() + b"\0" + text).hexdigest()
        known = self.parsed.get(memo)
        if known is None:
            try:
                tree = ast.parse(text, filename)
            except (SyntaxError, ValueError):
                return None
            callees = _top_level_callees(tree)
            stubbed = _StubBodies().visit(tree)
            known = {
                "digest": _digest(ast.dump(stubbed, include_attributes=False)),
                "imports": _raw_imports(stubbed),
                "callees": callees,
            }
            self.parsed[memo] = known
        self.used.add(memo)
        return known

    def module_closure(self, name: str) -> tuple[str, ...]:
        """``label=digest`` of a module, of the modules it imports, and so on."""
        known = self._closures.get(name)
        if known is not None:
            return known
        entries: set[str] = set()
        visited: set[str] = set()
        pending = [name]
        while pending:
            current = pending.pop()
            if current in visited:
                continue
            visited.add(current)
            module = sys.modules.get(current)
            info = None if module is None else self.module_info(module)
            if info is not None:
                entries.add(f"{info.label}={info.digest}")
                pending.extend(info.imports)
        result = tuple(sorted(entries))
        self._closures[name] = result
        return result

    def module_callees(self, module: types.ModuleType) -> list[object]:
        """What ``module`` calls (and decorates with) when imported."""
        info = self.module_info(module)
        if info is None:
            return []
        namespace = vars(module)
        return [
            target
            for target in (_resolve(callee, namespace) for callee in info.callees)
            if target is not None
        ]

    # --- the walk

    def parts(self, claim: Claim) -> dict[str, Any]:
        """What the key of ``claim`` is the digest of (see the module docstring)."""
        walk = _Walk()
        stack: list[object] = [claim.check]
        if claim.formula is not None:
            stack.append(claim.formula)
        expanded: set[str] = set()
        while stack:
            while stack:
                value = stack.pop()
                if id(value) in walk.seen or isinstance(value, _PLAIN):
                    continue
                walk.seen.add(id(value))
                node = self._node(value)
                walk.functions.update(node.functions)
                walk.values.update(node.values)
                for module in node.modules:
                    walk.modules.setdefault(module.__name__, module)
                stack.extend(node.children)
            # The functions a reached module called when imported made its globals.
            for name in [name for name in walk.modules if name not in expanded]:
                expanded.add(name)
                stack.extend(self.module_callees(walk.modules[name]))
        modules: set[str] = set()
        for name in walk.modules:
            modules.update(self.module_closure(name))
        parts = {
            "format": FORMAT_VERSION,
            "claim": claim.id,
            "kind": str(claim.kind),
            "expected": str(claim.expected),
            "expected_reason": (
                None if claim.expected_reason is None else str(claim.expected_reason)
            ),
            "budget_seconds": claim.budget_seconds,
            "functions": sorted(walk.functions),
            "values": sorted(walk.values),
            "modules": sorted(modules),
            "python": sys.version,
            "libraries": _library_versions(),
        }
        if claim.budget_bytes is not None:
            # Only when given, so that the keys of the claims without one
            # stay as they were before memory budgets existed.
            parts["budget_bytes"] = claim.budget_bytes
        return parts

    def key(self, claim: Claim) -> str:
        """The key of ``claim``: the digest of :meth:`parts`."""
        return _digest(self.parts(claim))

    def _node(self, value: object) -> _Node:
        """What ``value`` contributes to a key, and what it leads to."""
        known = self._nodes.get(id(value))
        if known is not None:
            return known[1]
        found = _Walk()
        children = tuple(self._children(value, found))
        if isinstance(value, functools.partial) or self.tracked_instance(value):
            # Globals, cells and defaults enter the key with the function that
            # reads them; bound arguments and an instance's fields enter here
            # (the claim's check may be either, made in a module nothing reads).
            found.values.add(f"reached:{self.fingerprint(value)}")
        found.values.update(self.installed_versions(value))
        node = _Node(
            tuple(found.functions),
            tuple(found.values),
            tuple(found.modules.values()),
            children,
        )
        self._nodes[id(value)] = (value, node)
        return node

    def _children(self, value: object, walk: _Walk) -> Iterator[object]:
        if isinstance(value, types.FunctionType):
            yield from self._function(value, walk)
        elif isinstance(value, types.MethodType):
            yield value.__func__
            yield value.__self__
        elif isinstance(value, functools.partial):
            yield value.func
            yield from value.args
            yield from value.keywords.values()
        elif isinstance(value, (staticmethod, classmethod)):
            yield value.__func__
        elif isinstance(value, property):
            yield from (value.fget, value.fset, value.fdel)
        elif isinstance(value, types.ModuleType):
            self._module(value, walk)
        elif isinstance(value, type):
            yield from self._class(value, walk)
        elif isinstance(value, (list, tuple, set, frozenset)):
            yield from value
        elif isinstance(value, Mapping):
            yield from value.keys()
            yield from value.values()
        elif isinstance(value, types.BuiltinFunctionType):
            owner = getattr(value, "__self__", None)
            if owner is not None and not isinstance(owner, types.ModuleType):
                yield owner
        elif isinstance(value, (sp.Basic, sp.MatrixBase)):
            # A project's class in an expression (a Function subclass) acts on it.
            parts = [value] if isinstance(value, sp.Basic) else list(value)
            for part in parts:
                for node in sp.preorder_traversal(part):
                    if self.tracked_class(type(node)):
                        yield type(node)
        elif self.tracked_instance(value):
            yield type(value)
            yield _fields(value)
        else:
            wrapped = getattr(value, "__wrapped__", None)
            if wrapped is not None:
                # functools.cache and other wrappers: what they call.
                yield wrapped
            state = getattr(value, "__dict__", None)
            if isinstance(state, dict):
                # A library's object holding project code: np.vectorize(f).pyfunc.
                yield from (
                    item
                    for item in state.values()
                    if isinstance(item, (types.FunctionType, functools.partial))
                )

    def _module(self, module: types.ModuleType, walk: _Walk) -> None:
        if module.__name__ not in walk.modules and self.tracked_module(module):
            walk.modules[module.__name__] = module

    def _function(self, function: types.FunctionType, walk: _Walk) -> Iterator[object]:
        code = function.__code__
        wrapped = getattr(function, "__wrapped__", None)
        if wrapped is not None:
            yield wrapped
        if not self.tracked_file(code.co_filename):
            return
        cells = tuple(cell.cell_contents for cell in _filled_cells(function))
        walk.functions.add(
            f"{_file_label(code.co_filename)}:{function.__qualname__}="
            f"{self.code_digest(code)}"
            f"|cells={self.fingerprint(cells)}"
            f"|defaults={self.fingerprint(function.__defaults__)}"
            f"|kwdefaults={self.fingerprint(function.__kwdefaults__)}"
        )
        yield from cells
        yield from function.__defaults__ or ()
        yield from (function.__kwdefaults__ or {}).values()
        namespace = function.__globals__
        module = _module_of(namespace)
        if module is not None:
            self._module(module, walk)
        where = _file_label(namespace.get("__file__") or "<namespace>")
        names = self.code_names(code)
        owners: list[types.ModuleType] = []
        for name in names:
            if name in namespace:
                found = namespace[name]
                walk.values.add(f"{where}:{name}={self.fingerprint(found)}")
                yield found
                if isinstance(found, types.ModuleType):
                    owners.append(found)
            else:
                # Imported in the function: `import a.b`, `from . import c`.
                package = namespace.get("__package__") or ""
                for candidate in (name, f"{package}.{name}"):
                    if candidate in sys.modules:
                        owners.append(sys.modules[candidate])
        # `theory.penalty(...)` reads `penalty` from the module `theory`.
        done: set[str] = set()
        while owners:
            owner = owners.pop()
            if owner.__name__ in done or not self.tracked_module(owner):
                continue
            done.add(owner.__name__)
            yield owner
            attributes = vars(owner)
            label = self.module_label(owner)
            for name in names:
                if name in attributes:
                    found = attributes[name]
                    walk.values.add(f"{label}:{name}={self.fingerprint(found)}")
                    yield found
                    if isinstance(found, types.ModuleType):
                        owners.append(found)
            if "__getattr__" in attributes:
                # A module's lazy attributes come from its __getattr__.
                yield attributes["__getattr__"]

    def _class(self, cls: type, walk: _Walk) -> Iterator[object]:
        for klass in cls.__mro__:
            if not self.tracked_class(klass):
                continue
            module = sys.modules.get(klass.__module__)
            if module is not None:
                self._module(module, walk)
            label = self.type_label(klass)
            for name, attribute in vars(klass).items():
                if name.startswith("__") and name.endswith("__"):
                    # Methods, not the docstring, __module__ or __dict__.
                    if isinstance(
                        attribute,
                        (types.FunctionType, staticmethod, classmethod, property),
                    ):
                        yield attribute
                    continue
                walk.values.add(f"{label}.{name}={self.fingerprint(attribute)}")
                yield attribute
