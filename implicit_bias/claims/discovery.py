"""Finding sources: the entry-point group, a Python file, a module.

Every installed package may register sources under the entry-point group
``implicit_bias.sources`` (:data:`ENTRY_POINT_GROUP`); an entry point names a
:class:`~implicit_bias.claims.source.Source`, a sequence of them, or a
callable returning either. For unpackaged work, :func:`load_file` and
:func:`load_module` collect the sources a file or module defines at its top
level (``Source`` objects, or a ``SOURCES`` sequence of them).

A source that cannot be loaded, or that reuses an id already taken, is
recorded as a :class:`LoadError` in the :class:`Registry`; the others are
still registered, so one broken plug-in never hides the rest. An entry
point's name must be the id of the source it registers (the id
``--source`` takes). A file's or module's source whose id an installed
source has is refused, unless ``shadow=True`` (``--shadow`` on the command
line) lets it replace the installed one for the run.

The sources the toolkit ships are those its own distribution
(:data:`TOOLKIT_DISTRIBUTION`) registers: :func:`shipped_registry` holds
them alone, whatever else is installed, for the toolkit's own docs and
tests. Importing runs
user code, so it is guarded: a top level that raises, calls ``sys.exit`` or
(for a file or module) runs past a wall-clock limit
(:data:`IMPORT_TIMEOUT_VARIABLE`) is a :class:`LoadError`; Ctrl-C stops the
loading as :class:`LoadInterrupted`.

Examples:
  In ``pyproject.toml`` of a package of one's own::

      [project.entry-points."implicit_bias.sources"]
      my-note = "my_note.claims:SOURCE"
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import importlib.util
import math
import os
import re
import reprlib
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType, ModuleType

import sympy as sp

from implicit_bias.claims.derivation import Derivation
from implicit_bias.claims.engine import Claim
from implicit_bias.claims.source import Source
from implicit_bias.errors import InvalidArgumentError

__all__ = [
    "DEFAULT_IMPORT_TIMEOUT",
    "ENTRY_POINT_GROUP",
    "IMPORT_TIMEOUT_VARIABLE",
    "TOOLKIT_DISTRIBUTION",
    "LoadError",
    "LoadInterrupted",
    "Registry",
    "SourceNotFoundError",
    "default_registry",
    "discover",
    "extended_registry",
    "installed_registry",
    "load_file",
    "load_module",
    "shipped_registry",
    "using_registry",
]

#: The entry-point group sources register under.
ENTRY_POINT_GROUP = "implicit_bias.sources"

#: The distribution whose entry points are the sources the toolkit ships.
TOOLKIT_DISTRIBUTION = "implicit-bias"

#: The environment variable that sets the wall-clock limit on importing a
#: file or module, in seconds (``inf`` for none), when the ``import_timeout``
#: argument is not given. Entry points are not limited: a limit set low for
#: one's own file must not drop the installed sources, whose imports are
#: their packages' to bound.
IMPORT_TIMEOUT_VARIABLE = "IMPLICIT_BIAS_IMPORT_TIMEOUT"

#: The wall-clock limit on importing a file or module when neither
#: ``import_timeout`` nor :data:`IMPORT_TIMEOUT_VARIABLE` sets one, in seconds:
#: far above what importing a source takes, far below a user's patience with a
#: hung command.
DEFAULT_IMPORT_TIMEOUT = 60.0


class SourceNotFoundError(InvalidArgumentError):
    """A source or claim id that no registered source has."""


class LoadInterrupted(KeyboardInterrupt):
    """Ctrl-C while a source was being imported; the message names the source.

    A :class:`KeyboardInterrupt`, not a :class:`LoadError`: the user asked the
    command to stop, not to skip one file, and ``except Exception`` in a
    caller does not swallow it.
    """


class _ImportTimeout(BaseException):
    """Raised in an import that ran past its wall-clock limit; a
    :class:`BaseException`, so a top level's ``except Exception`` does not
    swallow it."""


class _Refused(Exception):
    """What a file, module or entry point defines cannot be registered; the
    message says why."""


class _NotSources(_Refused):
    """What a file, module or entry point defines is not a source; the
    message says what it is instead."""


@dataclass(frozen=True)
class LoadError:
    """A source that could not be registered: where it came from and why.

    Attributes:
      origin: the entry point, file or module, in words.
      message: why nothing (or not this source) was registered from it.
      distribution: the installed distribution whose entry point it is
        ("" for a file or module).
    """

    origin: str
    message: str
    distribution: str = ""

    def __str__(self) -> str:
        return f"{self.origin}: {self.message}"


@dataclass
class Registry:
    """The registered sources, by id, and what failed to register.

    Attributes:
      sources: source id -> the source, in registration order.
      origins: source id -> where it came from, in words (``entry point
        NAME = VALUE (DISTRIBUTION)``, ``file PATH``, ``module NAME``).
      errors: what could not be registered.
      distributions: source id -> the installed distribution whose entry
        point registered it (the sources of files and modules have none).
      shadowed: source id -> the origin of the installed source that a
        file's or module's source of that id replaced (``shadow=True``).
    """

    sources: dict[str, Source] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)
    errors: list[LoadError] = field(default_factory=list)
    distributions: dict[str, str] = field(default_factory=dict)
    shadowed: dict[str, str] = field(default_factory=dict)

    def add(
        self,
        source: Source,
        origin: str,
        *,
        distribution: str = "",
        shadow: bool = False,
    ) -> None:
        """Register ``source`` (from ``origin``; an entry point of
        ``distribution`` if given); a taken id is a :class:`LoadError`.

        With ``shadow``, a source of a file or module takes the place of an
        installed source (one with a distribution) of the same id, and
        :attr:`shadowed` records the one it replaced; without it, and for
        any other taken id, the new source is skipped.
        """
        if not isinstance(source, Source):
            raise InvalidArgumentError(
                f"source={source!r} is {type(source).__name__}, not a Source"
            )
        _require_str(origin, "origin", "where the source came from")
        taken = source.id in self.sources
        installed = source.id in self.distributions
        if taken and not (shadow and installed and not distribution):
            self.errors.append(
                LoadError(
                    origin,
                    f"source id {source.id!r} is already registered by "
                    f"{self.origins[source.id]}; this one is skipped"
                    + (_HOW_TO_SHADOW if installed and not distribution else ""),
                    distribution,
                )
            )
            return
        if taken:
            self.shadowed[source.id] = self.origins[source.id]
            del self.distributions[source.id]
        self.sources[source.id] = source
        self.origins[source.id] = origin
        if distribution:
            self.distributions[source.id] = distribution

    def source(self, source_id: str) -> Source:
        """The source with id ``source_id``.

        Raises:
          SourceNotFoundError: no source has that id; the message lists the
            near ids and the known sources.
        """
        _require_str(source_id, "source", _SOURCE_ID)
        if source_id in self.sources:
            return self.sources[source_id]
        raise SourceNotFoundError(
            f"source={source_id!r} is not registered{self._near_sources(source_id)}"
        )

    def _near_sources(self, source_id: str) -> str:
        """``(did you mean ...?); known sources: ...``, ending a message."""
        known = ", ".join(sorted(self.sources)) or "none"
        near = _did_you_mean(source_id, {i: i for i in self.sources})
        return f"{near}; known sources: {known}"

    def claims(self, source_id: str | None = None) -> list[Claim]:
        """The claims of one source, or of all (``None``), steps of chains included."""
        sources = (
            self.sources.values() if source_id is None else [self.source(source_id)]
        )
        return [claim for source in sources for claim in source.all_claims()]

    def claim(self, claim_id: str) -> Claim:
        """The claim with id ``claim_id`` (``source:equation:label``).

        Raises:
          SourceNotFoundError: no claim has that id; the message lists the
            near ids of its source, or the known sources.
        """
        _require_str(claim_id, "claim", _CLAIM_ID)
        source_id, _, rest = claim_id.partition(":")
        source = self.sources.get(source_id)
        if source is None:
            raise SourceNotFoundError(
                f"claim={claim_id!r} is not registered: no source {source_id!r}"
                f"{self._near_sources(source_id)}"
            )
        claims = {claim.id: claim for claim in source.all_claims()}
        if claim_id in claims:
            return claims[claim_id]
        # Compared without the source's prefix, which every claim of the source
        # shares and which would make them all look near.
        near = _did_you_mean(rest, {i.partition(":")[2]: i for i in claims})
        raise SourceNotFoundError(
            f"claim={claim_id!r} is not registered{near}; "
            f"see `implicit-bias list --source {source_id}`"
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


_SOURCE_ID = "a source id, as `implicit-bias list --sources` shows"
_HOW_TO_SHADOW = (
    " (to check this one in place of the installed one for this run, pass "
    "--shadow on the command line, shadow=True in Python; or give it an id "
    "of its own)"
)
_CLAIM_ID = "a claim id (source:equation:label), as `implicit-bias list` shows"


def _require_str(value: object, name: str, what: str) -> None:
    """Refuse a ``value`` of parameter ``name`` that is not a str; ``what``
    says what the str must be."""
    if not isinstance(value, str):
        raise InvalidArgumentError(
            f"{name}={value!r} is {type(value).__name__}, not a str: {name} is {what}"
        )


def _did_you_mean(word: str, candidates: dict[str, str]) -> str:
    """`` (did you mean 'a' or 'b'?)`` naming the candidates whose key is near
    ``word``, or ``""`` if none is."""
    near = difflib.get_close_matches(word, list(candidates), n=3)
    if not near:
        return ""
    return f" (did you mean {' or '.join(repr(candidates[key]) for key in near)}?)"


def _shown(value: object) -> str:
    """The type and (abbreviated) repr of a value, for a message."""
    return f"{type(value).__name__} {reprlib.repr(value)}"


def _sources_of(value: object, name: str) -> list[Source]:
    """The sources that ``value``, bound to ``name`` in a module or named by an
    entry point, gives: a Source, a non-empty sequence of them, or a callable
    returning either.

    Raises:
      _NotSources: ``value`` is none of these; the message says what it is.
    """
    shown_name = name
    if callable(value) and not isinstance(value, Source):
        value, shown_name = value(), f"{name}()"
    if isinstance(value, Source):
        return [value]
    if not isinstance(value, Iterable) or isinstance(value, (str, bytes)):
        problem = f"{shown_name} is {_shown(value)}"
    else:
        items = list(value)
        wrong = [
            (i, item) for i, item in enumerate(items) if not isinstance(item, Source)
        ]
        if not items:
            problem = f"{shown_name} is empty"
        elif wrong:
            problem = f"{shown_name}[{wrong[0][0]}] is {_shown(wrong[0][1])}"
        else:
            return items
    raise _NotSources(
        f"{problem}; {name} must be a Source, a non-empty sequence of Sources, "
        "or a callable returning either"
    )


def _failure(error: BaseException) -> str:
    return traceback.format_exception_only(type(error), error)[-1].strip()


def _output_to_stderr() -> contextlib.AbstractContextManager[object]:
    """What a source prints while it loads goes to stderr: stdout carries
    what the command prints (``verify --json``, ``latex``)."""
    return contextlib.redirect_stdout(sys.stderr)


def _sources_in(module: ModuleType) -> list[Source]:
    """The sources ``module`` defines: its ``SOURCES``, else its Source objects."""
    if hasattr(module, "SOURCES"):
        return _sources_of(module.SOURCES, "SOURCES")
    found = [v for v in vars(module).values() if isinstance(v, Source)]
    if not found:
        raise _NotSources("defines no Source (a Source object or SOURCES)")
    return found


def _import_timeout(import_timeout: float | None) -> float:
    """The wall-clock limit on an import, in seconds: ``import_timeout``, else
    :data:`IMPORT_TIMEOUT_VARIABLE`, else :data:`DEFAULT_IMPORT_TIMEOUT`."""
    if import_timeout is None:
        text = os.environ.get(IMPORT_TIMEOUT_VARIABLE) or ""
        if not text:
            return DEFAULT_IMPORT_TIMEOUT
        try:
            seconds = float(text)
        except ValueError:
            seconds = math.nan
        if not seconds > 0:
            raise InvalidArgumentError(
                f"${IMPORT_TIMEOUT_VARIABLE}={text!r} is not a number of "
                "seconds > 0 ('inf' for no limit)"
            )
        return seconds
    if (
        isinstance(import_timeout, bool)
        or not isinstance(import_timeout, (int, float))
        or not import_timeout > 0
    ):
        raise InvalidArgumentError(
            f"import_timeout={import_timeout!r} is not a number of seconds > 0 "
            "(math.inf for no limit)"
        )
    return float(import_timeout)


@contextlib.contextmanager
def _wall_clock_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`_ImportTimeout` in the block after ``seconds`` of
    wall-clock time.

    Wall-clock, not CPU time (:func:`~implicit_bias.claims.engine.time_limit`):
    a top level that sleeps or waits for input uses no CPU. ``SIGALRM``
    (``ITIMER_REAL``) interrupts ``time.sleep`` and pure-Python loops alike,
    but is delivered to the main thread only; so outside it (a thread of a
    Dask worker), without ``SIGALRM`` (Windows), for an infinite limit, and
    while the program runs a real-time timer of its own (which this one would
    replace), the block runs without a limit. The handler and timer found are
    restored.
    """
    if (
        math.isinf(seconds)
        or not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
        or signal.getitimer(signal.ITIMER_REAL)[0] > 0
    ):
        yield
        return
    armed = True

    def _expire(signum: int, frame: FrameType | None) -> None:
        # A signal that arrives while the block is being left raises nothing.
        if armed:
            raise _ImportTimeout

    previous = signal.signal(signal.SIGALRM, _expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _exit_call(exit_: SystemExit) -> str:
    """The ``sys.exit(...)`` call that raised ``exit_``."""
    return "sys.exit()" if exit_.code is None else f"sys.exit({exit_.code!r})"


def _register_loaded(
    registry: Registry,
    origin: str,
    load: Callable[[], list[Source]],
    seconds: float,
    *,
    distribution: str = "",
    shadow: bool = False,
) -> None:
    """Register the sources ``load`` imports from ``origin`` (an entry point
    of ``distribution`` if given; ``shadow`` as for :meth:`Registry.add`), or
    the :class:`LoadError` saying why there are none.

    ``load`` runs user code, under a wall-clock limit of ``seconds``: what it
    raises, a ``sys.exit`` (which would end the command silently) and a run
    past the limit (which would hang it) are load errors.

    Raises:
      LoadInterrupted: Ctrl-C was pressed while ``load`` ran.
    """
    try:
        # The limit is the inner block: it is disarmed before stdout is given
        # back, which the alarm must not interrupt.
        with _output_to_stderr(), _wall_clock_limit(seconds):
            sources = load()
    except _Refused as error:
        message = str(error)
    except SystemExit as exit_:
        message = f"called {_exit_call(exit_)} while being imported"
    except _ImportTimeout:
        message = (
            f"still being imported after the wall-clock limit of {seconds:g} s "
            f"(import_timeout, ${IMPORT_TIMEOUT_VARIABLE}); does its top level "
            "wait or loop forever?"
        )
    except KeyboardInterrupt as interrupt:
        raise LoadInterrupted(
            f"{origin}: interrupted while being imported"
        ) from interrupt
    except Exception as error:
        message = _failure(error)
    else:
        for source in sources:
            registry.add(source, origin, distribution=distribution, shadow=shadow)
        return
    registry.errors.append(LoadError(origin, message, distribution))


class _BesideLoadedFiles(importlib.abc.MetaPathFinder):
    """Finds the top-level modules beside the files loaded, for the names no
    other finder resolves.

    ``python FILE`` puts the file's directory first on ``sys.path``; a library
    doing the same would let a ``json.py`` beside the file replace the
    standard ``json`` for the rest of the process. This finder sits last on
    ``sys.meta_path`` instead, so a module beside a file never shadows an
    installed or standard one, yet a check that imports its sibling modules
    when it runs, after the file was loaded, still finds them. The directory
    of the file loaded last is searched first.
    """

    def __init__(self) -> None:
        self.directories: tuple[str, ...] = ()

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        """The spec of the top-level module ``fullname`` in one of the
        directories; submodules are found through their package's path."""
        if path is not None:
            return None
        return importlib.machinery.PathFinder.find_spec(
            fullname, list(self.directories), target
        )

    def add(self, directory: str) -> None:
        """Search ``directory`` first, and make sure this finder is the last."""
        # Whole values are swapped in, never edited in place: an import in
        # another thread meanwhile finds every directory, and this finder.
        self.directories = (
            directory,
            *(known for known in self.directories if known != directory),
        )
        if sys.meta_path[-1:] != [self]:
            sys.meta_path.append(self)
            if sys.meta_path.count(self) > 1:
                sys.meta_path.remove(self)  # the earlier entry


_BESIDE_LOADED_FILES = _BesideLoadedFiles()


def load_module(
    registry: Registry,
    name: str,
    *,
    import_timeout: float | None = None,
    shadow: bool = False,
) -> None:
    """Register the sources the importable module ``name`` defines at top level.

    Args:
      registry: where to register them, and any :class:`LoadError`.
      name: the module's dotted name.
      import_timeout: the wall-clock limit on importing it, in seconds
        (``math.inf`` for none); ``None`` reads :data:`IMPORT_TIMEOUT_VARIABLE`,
        else takes :data:`DEFAULT_IMPORT_TIMEOUT`. Enforced in the main
        thread only.
      shadow: let a source whose id an installed source has replace it
        (:meth:`Registry.add`); without it, such a source is a
        :class:`LoadError`.

    Raises:
      InvalidArgumentError: ``import_timeout`` (or the variable) is not > 0.
      LoadInterrupted: Ctrl-C was pressed during the import.
    """
    seconds = _import_timeout(import_timeout)
    _register_loaded(
        registry,
        f"module {name}",
        lambda: _sources_in(importlib.import_module(name)),
        seconds,
        shadow=shadow,
    )


def load_file(
    registry: Registry,
    path: str | Path,
    *,
    import_timeout: float | None = None,
    shadow: bool = False,
) -> None:
    """Register the sources a Python file defines at top level.

    The file, and its checks when they run (after this returns), may import
    the modules beside it, except those whose name an installed or standard
    module already has: a ``json.py`` beside the file is not imported for
    ``import json``, by the file or by anyone else. ``sys.path`` is left as it
    was. A file that raises, calls ``sys.exit`` or runs past
    ``import_timeout`` is a :class:`LoadError` naming it.

    Args:
      registry: where to register them, and any :class:`LoadError`.
      path: the file.
      import_timeout, shadow: as for :func:`load_module`.

    Raises:
      InvalidArgumentError: ``import_timeout`` (or the variable) is not > 0.
      LoadInterrupted: Ctrl-C was pressed during the import.
    """
    seconds = _import_timeout(import_timeout)
    file = Path(path).resolve()
    origin = f"file {path}"
    if not file.is_file():
        registry.errors.append(LoadError(origin, "no such file"))
        return
    name = f"implicit_bias_user_{file.stem}_{abs(hash(str(file))):x}"
    spec = importlib.util.spec_from_file_location(name, file)
    if spec is None or spec.loader is None:
        registry.errors.append(LoadError(origin, "is not a Python module"))
        return
    loader = spec.loader
    _BESIDE_LOADED_FILES.add(str(file.parent))

    def load() -> list[Source]:
        module = importlib.util.module_from_spec(spec)
        try:
            sys.modules[name] = module
            loader.exec_module(module)
        except BaseException:
            sys.modules.pop(name, None)
            raise
        return _sources_in(module)

    _register_loaded(registry, origin, load, seconds, shadow=shadow)


def _entry_point_sources(point: importlib.metadata.EntryPoint) -> list[Source]:
    """The sources ``point`` names; one alone must have the entry point's
    name as its id.

    An entry point may register several sources (a sequence, as
    docs/authoring.md says); its name then names the package, not a source.

    Raises:
      _Refused: a single source whose id is not the entry point's name: the
        command line would take the name for the id (``--source NAME``) and
        find nothing.
    """
    sources = _sources_of(point.load(), point.value)
    ids = [source.id for source in sources]
    if len(ids) == 1 and point.name != ids[0]:
        raise _Refused(
            f"the entry point is named {point.name!r} but registers the source "
            f"{ids[0]!r}: an entry point's name must be the id of the source it "
            "registers "
            f"(`--source` takes the id); rename the entry point in "
            f'[project.entry-points."{ENTRY_POINT_GROUP}"] of its pyproject.toml '
            "(and reinstall the package) or the Source's id, so that they agree"
        )
    return sources


def _canonical(distribution: str) -> str:
    """A distribution name as package indexes compare them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", distribution).lower()


def _load_entry_points(registry: Registry, *, distribution: str | None = None) -> None:
    """Register the sources of the installed entry points (only those of
    ``distribution``, if given)."""
    points = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    for point in points:
        name = point.dist.name if point.dist else "?"
        if distribution is not None and _canonical(name) != _canonical(distribution):
            continue
        origin = f"entry point {point.name} = {point.value} ({name})"
        load = functools.partial(_entry_point_sources, point)
        # Not limited in time (IMPORT_TIMEOUT_VARIABLE says why).
        _register_loaded(registry, origin, load, math.inf, distribution=name)


def discover(
    *,
    files: Sequence[str | Path] = (),
    modules: Sequence[str] = (),
    entry_points: bool = True,
    import_timeout: float | None = None,
    shadow: bool = False,
) -> Registry:
    """A registry of the installed sources (``entry_points``), then ``files``
    and ``modules``, in that order; ``import_timeout`` limits the import of
    each file and module and ``shadow`` lets their sources replace installed
    ones, as in :func:`load_module`."""
    seconds = _import_timeout(import_timeout)
    registry = Registry()
    if entry_points:
        _load_entry_points(registry)
    for path in files:
        load_file(registry, path, import_timeout=seconds, shadow=shadow)
    for name in modules:
        load_module(registry, name, import_timeout=seconds, shadow=shadow)
    return registry


@functools.cache
def installed_registry() -> Registry:
    """The installed sources (entry points), discovered once per process."""
    return discover()


@functools.cache
def shipped_registry() -> Registry:
    """The sources the toolkit ships: the entry points of
    :data:`TOOLKIT_DISTRIBUTION` alone, discovered once per process.

    What the toolkit's own docs and tests concern: another installed
    package's sources (a user's note), or its load errors, are not here,
    and cannot take a shipped source's id first.
    """
    registry = Registry()
    _load_entry_points(registry, distribution=TOOLKIT_DISTRIBUTION)
    return registry


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
    files: Sequence[str | Path] = (),
    modules: Sequence[str] = (),
    *,
    import_timeout: float | None = None,
    shadow: bool = False,
) -> Registry:
    """A copy of the installed registry with the sources of ``files`` and
    ``modules`` added; ``import_timeout`` limits each import and ``shadow``
    lets them replace installed sources of the same id, as in
    :func:`load_module`."""
    seconds = _import_timeout(import_timeout)
    base = installed_registry()
    registry = Registry(
        dict(base.sources),
        dict(base.origins),
        list(base.errors),
        dict(base.distributions),
        dict(base.shadowed),
    )
    for path in files:
        load_file(registry, path, import_timeout=seconds, shadow=shadow)
    for name in modules:
        load_module(registry, name, import_timeout=seconds, shadow=shadow)
    return registry
