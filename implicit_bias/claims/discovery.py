"""Finding sources: the entry-point group, a Python file, a module.

Every installed package may register sources under the entry-point group
``implicit_bias.sources`` (:data:`ENTRY_POINT_GROUP`); an entry point names a
:class:`~implicit_bias.claims.source.Source`, a sequence of them, or a
callable returning either. For unpackaged work, :func:`load_file` and
:func:`load_module` collect the sources a file or module defines at its top
level (``Source`` objects, or a ``SOURCES`` sequence of them).

A source that cannot be loaded, or that reuses an id already taken, is
recorded as a :class:`LoadError` in the :class:`Registry`; the others are
still registered, so one broken plug-in never hides the rest.

Examples:
  In ``pyproject.toml`` of a package of one's own::

      [project.entry-points."implicit_bias.sources"]
      my-note = "my_note.claims:SOURCE"
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.metadata
import importlib.util
import sys
import traceback
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import sympy as sp

from implicit_bias.claims.derivation import Derivation
from implicit_bias.claims.engine import Claim
from implicit_bias.claims.source import Source
from implicit_bias.errors import ImplicitBiasError, InvalidArgumentError

__all__ = [
    "ENTRY_POINT_GROUP",
    "LoadError",
    "Registry",
    "SourceNotFoundError",
    "default_registry",
    "discover",
    "extended_registry",
    "installed_registry",
    "load_file",
    "load_module",
    "using_registry",
]

#: The entry-point group sources register under.
ENTRY_POINT_GROUP = "implicit_bias.sources"


class SourceNotFoundError(InvalidArgumentError):
    """A source or claim id that no registered source has."""


@dataclass(frozen=True)
class LoadError:
    """A source that could not be registered: where it came from and why."""

    origin: str
    message: str

    def __str__(self) -> str:
        return f"{self.origin}: {self.message}"


@dataclass
class Registry:
    """The registered sources, by id, and what failed to register."""

    sources: dict[str, Source] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)
    errors: list[LoadError] = field(default_factory=list)

    def add(self, source: Source, origin: str) -> None:
        """Register ``source`` (from ``origin``); a taken id is a :class:`LoadError`."""
        if source.id in self.sources:
            self.errors.append(
                LoadError(
                    origin,
                    f"source id {source.id!r} is already registered by "
                    f"{self.origins[source.id]}; this one is skipped",
                )
            )
            return
        self.sources[source.id] = source
        self.origins[source.id] = origin

    def source(self, source_id: str) -> Source:
        """The source with id ``source_id``."""
        try:
            return self.sources[source_id]
        except KeyError:
            known = ", ".join(sorted(self.sources)) or "none"
            raise SourceNotFoundError(
                f"source={source_id!r} is not registered; known sources: {known}"
            ) from None

    def claims(self, source_id: str | None = None) -> list[Claim]:
        """The claims of one source, or of all (``None``), steps of chains included."""
        sources = (
            self.sources.values() if source_id is None else [self.source(source_id)]
        )
        return [claim for source in sources for claim in source.all_claims()]

    def claim(self, claim_id: str) -> Claim:
        """The claim with id ``claim_id`` (``source:equation:label``)."""
        source_id = claim_id.split(":", 1)[0]
        if source_id in self.sources:
            for claim in self.sources[source_id].all_claims():
                if claim.id == claim_id:
                    return claim
        raise SourceNotFoundError(
            f"claim={claim_id!r} is not registered; see `implicit-bias list`"
        )

    def derivations(self, source_id: str | None = None) -> list[Derivation]:
        """The derivation chains of one source, or of all."""
        sources = (
            self.sources.values() if source_id is None else [self.source(source_id)]
        )
        return [chain for source in sources for chain in source.derivations]

    def has_warm_up(self, claim: Claim) -> bool:
        """Whether ``claim``'s source has a ``warm_up``: the local runner starts
        the claim only after :meth:`warm_up` (claims of other sources may run
        beside it)."""
        source = self.sources.get(claim.source)
        return source is not None and source.warm_up is not None

    def warm_up(self, claims: Sequence[Claim]) -> list[str]:
        """Do the shared work of the sources of ``claims`` before they run.

        Calls each such source's ``warm_up`` (:class:`Source`) with the ids of
        its claims among ``claims``. A warm-up that raises is reported, not
        fatal: the checks then do the work themselves.

        Returns:
          What went wrong, one message per source whose warm-up raised.
        """
        chosen: dict[str, set[str]] = {}
        for claim in claims:
            chosen.setdefault(claim.source, set()).add(claim.id)
        errors = []
        for source_id, claim_ids in chosen.items():
            source = self.sources.get(source_id)
            if source is None or source.warm_up is None:
                continue
            try:
                source.warm_up(frozenset(claim_ids))
            except Exception as error:
                errors.append(f"{source_id}: warm-up raised {_failure(error)}")
        return errors

    def glyphs(self, source_id: str) -> dict[sp.Symbol, str]:
        """How the source typesets its symbols ({} for an unknown source)."""
        source = self.sources.get(source_id)
        return {} if source is None else dict(source.glyphs)


def _sources_of(value: object, origin: str) -> list[Source]:
    if callable(value) and not isinstance(value, Source):
        value = value()
    if isinstance(value, Source):
        return [value]
    if isinstance(value, Iterable) and not isinstance(value, (str, bytes)):
        items = list(value)
        if items and all(isinstance(item, Source) for item in items):
            return items
    raise ImplicitBiasError(
        f"{origin} gives {type(value).__name__}, not a Source or a sequence of them"
    )


def _failure(error: BaseException) -> str:
    return traceback.format_exception_only(type(error), error)[-1].strip()


def _output_to_stderr() -> contextlib.AbstractContextManager[object]:
    """What a source prints while it loads goes to stderr: stdout carries
    what the command prints (``verify --json``, ``latex``)."""
    return contextlib.redirect_stdout(sys.stderr)


def _add_module(registry: Registry, module: ModuleType, origin: str) -> None:
    found: list[Source] = []
    if hasattr(module, "SOURCES"):
        found = _sources_of(module.SOURCES, f"{origin}:SOURCES")
    else:
        found = [v for v in vars(module).values() if isinstance(v, Source)]
    if not found:
        registry.errors.append(
            LoadError(origin, "defines no Source (a Source object or SOURCES)")
        )
    for source in found:
        registry.add(source, origin)


def load_module(registry: Registry, name: str) -> None:
    """Register the sources the importable module ``name`` defines at top level."""
    try:
        with _output_to_stderr():
            module = importlib.import_module(name)
    except Exception as error:
        registry.errors.append(LoadError(f"module {name}", _failure(error)))
        return
    _add_module(registry, module, f"module {name}")


def load_file(registry: Registry, path: str | Path) -> None:
    """Register the sources a Python file defines at top level.

    The file's directory is put first on ``sys.path`` (as ``python FILE``
    does), so the file may import modules beside it.
    """
    file = Path(path).resolve()
    origin = f"file {path}"
    if not file.is_file():
        registry.errors.append(LoadError(origin, "no such file"))
        return
    name = f"implicit_bias_user_{file.stem}_{abs(hash(str(file))):x}"
    if str(file.parent) not in sys.path:
        sys.path.insert(0, str(file.parent))
    spec = importlib.util.spec_from_file_location(name, file)
    if spec is None or spec.loader is None:
        registry.errors.append(LoadError(origin, "is not a Python module"))
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        with _output_to_stderr():
            spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        registry.errors.append(LoadError(origin, _failure(error)))
        return
    _add_module(registry, module, origin)


def _load_entry_points(registry: Registry) -> None:
    points = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    for point in points:
        distribution = point.dist.name if point.dist else "?"
        origin = f"entry point {point.name} = {point.value} ({distribution})"
        try:
            with _output_to_stderr():
                sources = _sources_of(point.load(), origin)
        except Exception as error:
            registry.errors.append(LoadError(origin, _failure(error)))
            continue
        for source in sources:
            registry.add(source, origin)


def discover(
    *,
    files: Sequence[str | Path] = (),
    modules: Sequence[str] = (),
    entry_points: bool = True,
) -> Registry:
    """A registry of the installed sources (``entry_points``), then ``files``
    and ``modules``, in that order."""
    registry = Registry()
    if entry_points:
        _load_entry_points(registry)
    for path in files:
        load_file(registry, path)
    for name in modules:
        load_module(registry, name)
    return registry


@functools.cache
def installed_registry() -> Registry:
    """The installed sources (entry points), discovered once per process."""
    return discover()


_active: list[Registry] = []


def default_registry() -> Registry:
    """The registry in use: the innermost :func:`using_registry`, else the
    installed sources (:func:`installed_registry`)."""
    return _active[-1] if _active else installed_registry()


@contextlib.contextmanager
def using_registry(registry: Registry) -> Iterator[Registry]:
    """Make ``registry`` the :func:`default_registry` inside the block (the
    command line adds the sources of ``--file`` and ``--module`` this way,
    without changing the installed registry)."""
    _active.append(registry)
    try:
        yield registry
    finally:
        _active.pop()


def extended_registry(
    files: Sequence[str | Path] = (), modules: Sequence[str] = ()
) -> Registry:
    """A copy of the installed registry with the sources of ``files`` and
    ``modules`` added."""
    base = installed_registry()
    registry = Registry(dict(base.sources), dict(base.origins), list(base.errors))
    for path in files:
        load_file(registry, path)
    for name in modules:
        load_module(registry, name)
    return registry
