"""Running claims with a theory mutant imported in place of the original.

Each function here runs in a process forked for it
(:func:`~implicit_bias.claims.workers.run_in_workers`): it drops the
project's theory, numerics, validation and source modules (and a user's
source package) from ``sys.modules`` and imports them again, the mutated
module in place of the original's file, so that evaluators lambdified from
the theory, tables computed at import and caches all carry the mutant; then
it runs claims. :func:`_control_in_child` does the same without a mutant,
recording which theory functions each claim calls.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import pkgutil
import sys
import time
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import sympy as sp

from implicit_bias.claims.engine import (
    CheckTimeout,
    Claim,
    Reason,
    Status,
    Verdict,
    time_limit,
)
from implicit_bias.claims.mutate import Outcome, _guarded
from implicit_bias.claims.source import Source
from implicit_bias.claims.theory_sites import TheoryMutant, _module_tree, mutated_code

#: CPU seconds for the equivalence test of a surviving mutant.
EQUIVALENCE_SECONDS = 3.0
#: The status of a run that could not import the sources with the mutant.
_IMPORT_FAILED = "import failed"

#: Modules imported again, with the mutant in place, before its claims run.
_RELOADED = (
    "implicit_bias.theory",
    "implicit_bias.numerics",
    "implicit_bias.validation",
    "implicit_bias.sources",
)


class _MutantFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports one module from the mutated code instead of its file."""

    def __init__(self, name: str, code: types.CodeType, filename: str) -> None:
        self.name = name
        self.code = code
        self.filename = filename

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.name:
            return None
        return importlib.util.spec_from_loader(fullname, self, origin=self.filename)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        module.__file__ = self.filename
        exec(self.code, vars(module))


def _claim_modules(source: Source) -> set[str]:
    """The modules the functions of ``source``'s claims are defined in."""
    names = set()
    for claim in source.all_claims():
        for part in (claim.check, getattr(claim.check, "relation", None)):
            function = getattr(part, "func", part)
            module = getattr(function, "__module__", None)
            if isinstance(module, str):
                names.add(module)
    return names


def _source_modules(sources: Sequence[Source]) -> dict[str, str]:
    """Source id -> the name of the loaded module that defines it: of the
    modules holding the source, one its claims' functions are defined in or
    under (a test or a script importing it is not), else the shortest name."""
    found: dict[str, list[str]] = {}
    wanted = {id(source): source.id for source in sources}
    for name, module in list(sys.modules.items()):
        if name.startswith("__") or getattr(module, "__spec__", None) is None:
            # A script's or a notebook's namespace (__main__, multiprocessing's
            # __mp_main__) cannot be imported again.
            continue
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        for value in list(namespace.values()):
            values = value if isinstance(value, (list, tuple)) else (value,)
            for item in values:
                source_id = wanted.get(id(item))
                if source_id is not None:
                    found.setdefault(source_id, []).append(name)
    chosen = {}
    for source in sources:
        names = sorted(set(found.get(source.id, ())), key=lambda n: (len(n), n))
        if not names:
            continue
        defining = _claim_modules(source)
        owners = [
            n for n in names if any(m == n or m.startswith(n + ".") for m in defining)
        ]
        chosen[source.id] = (owners or names)[0]
    return chosen


def _top_package(module: str) -> str:
    """What to import again for a source defined in ``module``: the whole
    top-level package of a user's source (its modules import the theory),
    the source's own package for a project source."""
    if module.startswith("implicit_bias."):
        return module
    return module.partition(".")[0]


def _reloaded(extra: Sequence[str]) -> list[str]:
    """Drop the project's theory, numerics, validation and source modules
    (and ``extra``) from ``sys.modules``, and the parents' attributes naming
    them; return the names dropped."""
    prefixes = (*_RELOADED, *extra)
    dropped = [
        name
        for name in sys.modules
        if any(name == p or name.startswith(p + ".") for p in prefixes)
    ]
    specs = {name: sys.modules[name].__spec__ for name in dropped}
    for name in dropped:
        del sys.modules[name]
    for name in dropped:
        parent, _, child = name.rpartition(".")
        if parent in sys.modules:
            with contextlib.suppress(AttributeError):
                delattr(sys.modules[parent], child)
    _reloaded_specs.clear()
    _reloaded_specs.update(specs)
    importlib.invalidate_caches()
    return dropped


_reloaded_specs: dict[str, importlib.machinery.ModuleSpec | None] = {}


def _import_again(name: str) -> types.ModuleType:
    try:
        return importlib.import_module(name)
    except ImportError:
        # A module loaded from a file (``--file``): not importable by name.
        spec = _reloaded_specs.get(name)
        if spec is None or spec.loader is None:
            raise
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module


def _fresh_claims(
    source_modules: Mapping[str, str], wanted: Mapping[str, Sequence[str]]
) -> dict[str, Claim]:
    from implicit_bias.claims.discovery import _sources_in

    claims: dict[str, Claim] = {}
    for source_id, ids in wanted.items():
        module = _import_again(source_modules[source_id])
        for source in _sources_in(module):
            if source.id == source_id:
                by_id = {claim.id: claim for claim in source.all_claims()}
                claims.update((i, by_id[i]) for i in ids if i in by_id)
    return claims


@dataclass(frozen=True)
class _Run:
    """One claim's verdict in a child, and its CPU seconds."""

    claim_id: str
    status: str
    detail: str
    seconds: float
    cut: bool = False


def _run_claim(claim: Claim, seconds: float) -> _Run:
    limit = min(claim.budget_seconds, seconds)
    started = time.process_time()
    try:
        with time_limit(limit):
            verdict = _guarded(claim.check, claim.budget_bytes, "the check")
    except CheckTimeout as error:
        verdict = Verdict.inconclusive(f"timed out: {error}", Reason.BUDGET)
    used = time.process_time() - started
    cut = (
        verdict.status == Status.INCONCLUSIVE
        and verdict.reason == Reason.BUDGET
        and limit < claim.budget_seconds
    )
    return _Run(claim.id, str(verdict.status), verdict.detail, used, cut)


def _symbolic_arguments(function: Callable[..., object]) -> list[sp.Symbol]:
    parameters = inspect.signature(function).parameters.values()
    return [
        sp.Symbol(parameter.name, positive=True)
        for parameter in parameters
        if parameter.default is inspect.Parameter.empty
        and parameter.kind
        in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    ]


def _resolved(module: types.ModuleType, qualname: str) -> object:
    value: object = module
    for part in qualname.split("."):
        value = getattr(value, part)
    return value


def _equal_results(first: object, second: object) -> bool:
    if isinstance(first, (tuple, list)) and isinstance(second, (tuple, list)):
        return len(first) == len(second) and all(
            _equal_results(a, b) for a, b in zip(first, second, strict=True)
        )
    if isinstance(first, sp.MatrixBase) and isinstance(second, sp.MatrixBase):
        return first.shape == second.shape and all(
            _equal_results(a, b) for a, b in zip(first, second, strict=True)
        )
    if isinstance(first, sp.Basic) and isinstance(second, sp.Basic):
        if first == second:
            return True
        if isinstance(first, sp.Expr) and isinstance(second, sp.Expr):
            return sp.simplify(first - second) == 0
        return False
    return bool(first == second) if type(first) is type(second) else False


def _executing(lines: range, filename: str) -> Callable[..., object]:
    """A trace function noting, in ``hit``, whether code of ``filename`` ran
    one of ``lines``."""
    hit: list[bool] = []

    def local(frame: types.FrameType, event: str, arg: object) -> object:
        if event == "line" and frame.f_lineno in lines:
            hit.append(True)
        return local

    def start(frame: types.FrameType, event: str, arg: object) -> object:
        return local if frame.f_code.co_filename == filename else None

    start.hit = hit  # type: ignore[attr-defined]
    return start


def _proved_equivalent(
    original: object, mutated: object, mutant: TheoryMutant, filename: str
) -> bool:
    """Whether SymPy shows the two functions equal at symbolic arguments
    (positive symbols for the parameters without defaults), the altered
    lines having run: a mutant in a branch those arguments do not take is
    never called equivalent."""
    if not (callable(original) and callable(mutated)):
        return False
    tracer = _executing(
        range(mutant.line, max(mutant.end_line, mutant.line) + 1), filename
    )
    try:
        with time_limit(EQUIVALENCE_SECONDS):
            arguments = _symbolic_arguments(original)
            expected = original(*arguments)
            sys.settrace(tracer)  # type: ignore[arg-type]
            try:
                found = mutated(*arguments)
            finally:
                sys.settrace(None)
            return bool(tracer.hit) and _equal_results(expected, found)  # type: ignore[attr-defined]
    except Exception:  # a guard, a timeout, an argument that must be an int
        return False


#: Calls of theory functions recorded by the control run's wrappers.
_calls: set[tuple[str, str]] = set()


def _recording(module: str, qualname: str, function: Callable[..., object]) -> object:
    @functools.wraps(function)
    def recorded(*args: object, **kwargs: object) -> object:
        _calls.add((module, qualname))
        return function(*args, **kwargs)

    return recorded


def _record_theory_calls(package: str) -> None:
    """Import ``package``'s modules again with every function they define
    wrapped to record its calls (before the sources import them)."""
    root = importlib.import_module(package)
    for info in pkgutil.walk_packages(root.__path__, package + "."):
        module = importlib.import_module(info.name)
        for name, value in list(vars(module).items()):
            if (
                callable(value)
                and not isinstance(value, type)
                and getattr(value, "__module__", None) == info.name
            ):
                qualname = getattr(value, "__qualname__", name)
                setattr(module, name, _recording(info.name, qualname, value))


def _control_in_child(
    package: str, source_modules: Mapping[str, str], source_id: str, ids: Sequence[str]
) -> list[tuple[_Run, frozenset[tuple[str, str]]]]:
    """Import the sources again, unaltered, with the theory's calls recorded;
    run every claim of ``ids``: its verdict, cost, and the theory functions
    it called (those called while the sources were imported included, marked
    by the claim id ``""``)."""
    _reloaded([package, *map(_top_package, source_modules.values())])
    _record_theory_calls(package)
    _calls.clear()
    claims = _fresh_claims(source_modules, {source_id: ids})
    results = [(_Run("", "", "", 0.0), frozenset(_calls))]
    for claim_id in ids:
        _calls.clear()
        run = _run_claim(claims[claim_id], float("inf"))
        results.append((run, frozenset(_calls)))
    return results


def _judged_in_child(
    package: str,
    mutant: TheoryMutant,
    source_modules: Mapping[str, str],
    order: Mapping[str, Sequence[str]],
    seconds: float,
    every_claim: bool = False,
) -> list[tuple[str, list[_Run]]]:
    """Import the sources again with ``mutant`` in place and run each
    source's claims of ``order`` in turn until one stops holding (all of
    them if ``every_claim``); returns the runs per source (a source that no
    longer imports: one run of claim id ``""``, status "import failed")."""
    original = _resolved(sys.modules[mutant.module], mutant.function)
    code = mutated_code(mutant)
    filename, _ = _module_tree(mutant.module)
    _reloaded([package, *map(_top_package, source_modules.values())])
    sys.meta_path.insert(0, _MutantFinder(mutant.module, code, filename))
    results = []
    try:
        claims = _fresh_claims(source_modules, order)
    except Exception as error:  # the mutant breaks what is computed at import
        detail = f"importing the sources raised {error!r}"
        return [(s, [_Run("", _IMPORT_FAILED, detail, 0.0)]) for s in order]
    for source_id, ids in order.items():
        runs: list[_Run] = []
        left = seconds
        for claim_id in ids:
            if left <= 0:
                break
            run = _run_claim(claims[claim_id], left)
            left -= run.seconds
            runs.append(run)
            if run.status != str(Status.HOLDS) and not run.cut and not every_claim:
                break
        results.append((source_id, runs))
    if not every_claim and all(
        all(r.status == str(Status.HOLDS) or r.cut for r in runs) for _, runs in results
    ):
        mutated = _resolved(sys.modules[mutant.module], mutant.function)
        if _proved_equivalent(original, mutated, mutant, filename):
            results.append(("", [_Run("", Outcome.EQUIVALENT, "", 0.0)]))
    return results
