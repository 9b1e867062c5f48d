"""A third party's source package, installed for the length of a test.

The toolkit's docs and tests concern the sources it ships, whatever else is
installed (issue 21: installing a user's note made seven of them fail).
:func:`installed_package` puts a distribution on ``sys.path`` the way pip
leaves one in site-packages -- a module and its ``*.dist-info`` with an
``entry_points.txt`` -- so :mod:`importlib.metadata` finds its entry point in
the group ``implicit_bias.sources`` exactly as it would an installed one,
without installing anything.
"""

from __future__ import annotations

import contextlib
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

from implicit_bias.claims.discovery import (
    ENTRY_POINT_GROUP,
    installed_registry,
    shipped_registry,
)

#: The module of the package: one claim that holds, one that fails.
_MODULE = textwrap.dedent(
    """
    import sympy as sp
    from implicit_bias.claims import Claim, Kind, Source, Status, relation_check

    x = sp.Symbol("x", positive=True)
    SOURCE = Source(
        "{source_id}",
        "A third party's note",
        claims=(
            Claim("{source_id}", "1", "log", Kind.IDENTITY,
                  "$\\\\log x^2 = 2 \\\\log x$",
                  relation_check(lambda: sp.Eq(sp.log(x**2), 2 * sp.log(x))),
                  Status.HOLDS, quote="log x^2 = 2 log x"),
            Claim("{source_id}", "2", "slip", Kind.IDENTITY, "$(x + 1)^2 = x^2 + 1$",
                  relation_check(lambda: sp.Eq((x + 1)**2, x**2 + 1)),
                  Status.FAILS, quote="(x+1)^2 = x^2 + 1"),
        ),
    )
    """
)


def write_package(
    site: Path,
    *,
    source_id: str,
    distribution: str | None = None,
    entry_point: str | None = None,
) -> str:
    """Write a distribution registering the source ``source_id`` into the
    directory ``site``; returns its module's name.

    Args:
      site: a directory standing for site-packages.
      source_id: the id of the one source it registers.
      distribution: its name (default ``source_id``).
      entry_point: the entry point's name (default ``source_id``).
    """
    distribution = distribution or source_id
    module = distribution.replace("-", "_") + "_ct"
    (site / f"{module}.py").write_text(
        _MODULE.format(source_id=source_id), encoding="utf-8"
    )
    write_entry_point(site, distribution, entry_point or source_id, f"{module}:SOURCE")
    return module


def write_entry_point(site: Path, distribution: str, name: str, value: str) -> None:
    """Write the metadata of ``distribution`` into ``site``: its entry point
    ``name = value`` in the group ``implicit_bias.sources``."""
    info = site / f"{distribution.replace('-', '_')}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 0.1\n",
        encoding="utf-8",
    )
    (info / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\n{name} = {value}\n", encoding="utf-8"
    )


@contextlib.contextmanager
def installed_package(
    site: Path,
    *,
    source_id: str = "third-party-note",
    distribution: str | None = None,
    entry_point: str | None = None,
) -> Iterator[str]:
    """Inside the block, a distribution registering ``source_id`` is installed
    (:func:`write_package` into ``site``, which goes on ``sys.path``) and the
    registries are discovered afresh; yields the package's module name.

    Afterwards ``sys.path``, the module and the cached registries are as they
    were before.
    """
    site.mkdir(parents=True, exist_ok=True)
    module = write_package(
        site, source_id=source_id, distribution=distribution, entry_point=entry_point
    )
    path = list(sys.path)
    sys.path.append(str(site))
    installed_registry.cache_clear()
    shipped_registry.cache_clear()
    try:
        yield module
    finally:
        sys.path[:] = path
        sys.modules.pop(module, None)
        installed_registry.cache_clear()
        shipped_registry.cache_clear()
