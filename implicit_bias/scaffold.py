"""``implicit-bias new NAME``: the skeleton of a source package of one's own.

The package it writes is installable (``pip install -e NAME``), registers its
source through the entry-point group ``implicit_bias.sources`` and holds one
claim and one derivation chain that hold, so that ``implicit-bias verify
--source NAME`` and ``pytest --claims=NAME`` work before anything is edited.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import string
from pathlib import Path

from implicit_bias.errors import InvalidArgumentError

__all__ = ["scaffold"]

_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")

_PYPROJECT = string.Template("""\
[build-system]
requires = ["setuptools>=68", "wheel"]
build-backend = "setuptools.build_meta"

[project]
name = "$name"
version = "0.1.0"
description = "Checked claims of $name"
requires-python = ">=3.11"
dependencies = ["implicit-bias"]

[project.optional-dependencies]
test = ["implicit-bias[test]"]

[project.entry-points."implicit_bias.sources"]
$name = "$package:SOURCE"

[tool.setuptools]
packages = ["$package"]
""")

_INIT = string.Template('''\
r"""The claims of $name, checked by implicit-bias.

Edit the citation, the glyphs, the claims and the chain below; every claim
quotes the words or equation it encodes (``quote``) and says how it reads
them (``reading``). Run ``implicit-bias verify --source $name``, and
``implicit-bias check-source --source $name`` to see that every claim is
typeset as mathematics and mutation-tested.
"""

import sympy as sp

from implicit_bias.claims import (
    Citation,
    Claim,
    Derivation,
    Kind,
    Reading,
    Source,
    Status,
    Step,
    check_identity,
)

#: The source's id, which `--source` takes: it is also the entry point's name
#: in pyproject.toml. To rename the source, change both (and reinstall).
SOURCE_ID = "$name"

x = sp.Symbol("x", positive=True)

#: The published result this note follows (replace with your own).
CITATION = Citation(
    title="Title of the paper or note",
    authors=("First Author", "Second Author"),
    year=2026,
)

CLAIMS = (
    Claim(
        SOURCE_ID,
        "1",
        "log-of-square",
        Kind.IDENTITY,
        "the logarithm of a square is twice the logarithm",
        # A relation helper called with the relation the claim states: the
        # ledger typesets log(x^2) = 2 log(x) and `implicit-bias mutate` alters
        # it. A check that calls no relation helper (a simulation) gives
        # formula= (a function returning the SymPy relation) as well.
        lambda: check_identity(sp.log(x**2), 2 * sp.log(x)),
        Status.HOLDS,
        quote="log x^2 = 2 log x   (1)",
        reading=Reading.PRINTED,
        regime="x > 0",
    ),
)

DERIVATIONS = (
    Derivation(
        source=SOURCE_ID,
        equation="2",
        label="difference-of-exponentials",
        title="A difference of exponentials is negative",
        start=lambda: sp.exp(-x) - sp.exp(x),
        steps=(
            Step(lambda: -2 * sp.sinh(x), "e^{-x} - e^x = -2 sinh x"),
            Step(lambda: sp.Integer(0), "sinh x > 0 for x > 0", relation="<"),
        ),
        quote="e^{-x} - e^x = -2 sinh x < 0   (2)",
        regime="x > 0",
    ),
)

SOURCE = Source(
    id=SOURCE_ID,
    title="$name",
    citation=CITATION,
    claims=CLAIMS,
    derivations=DERIVATIONS,
    glyphs={x: "x"},
)
''')

_TEST = string.Template('''\
"""The claims of $name get the verdicts they expect."""

import pytest

from implicit_bias.claims import run_claims

from $package import SOURCE


@pytest.mark.parametrize("claim", SOURCE.all_claims(), ids=lambda claim: claim.id)
def test_claim_verdict_is_as_expected(claim) -> None:
    (result,) = run_claims([claim], workers=1)
    assert result.as_expected, result.verdict.detail
''')

_README = string.Template("""\
# $name

Claims of my derivation, checked by
[implicit-bias](https://pypi.org/project/implicit-bias/).

```bash
pip install -e .
implicit-bias verify --source $name         # every verdict with its evidence
pytest --claims=$name                       # the claims as test items
implicit-bias latex --source $name --output $name.tex
implicit-bias check-source --source $name   # typeset and mutation-tested?
implicit-bias mutate --source $name         # can each check fail?
```
""")


def _taken(name: str, package: str) -> str:
    """Why ``pip install -e`` of the skeleton would break what is installed
    ("" if nothing): ``new sympy`` would shadow SymPy, ``new implicit-bias``
    would uninstall the toolkit."""
    try:
        importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        pass
    else:
        return f"the distribution {name!r} is installed; this one would replace it"
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        spec = None
    if spec is not None:
        return f"the module {package!r} is importable; the package would shadow it"
    return ""


def scaffold(name: str, directory: str | Path) -> list[Path]:
    """Write the skeleton of source package ``name`` into ``directory``.

    Args:
      name: the source id and distribution name: lower case words joined by
        ``-`` (the Python package is the same with ``_``).
      directory: where to write; must not exist or be empty.

    Returns:
      The files written.

    Raises:
      InvalidArgumentError: ``name`` is not of that form, names an installed
        distribution or an importable module, or ``directory`` is not empty.
    """
    if not _NAME.fullmatch(name):
        raise InvalidArgumentError(
            f"name={name!r}: lower case letters and digits, words joined by '-', "
            "starting with a letter (e.g. 'my-note')"
        )
    package = name.replace("-", "_")
    taken = _taken(name, package)
    if taken:
        raise InvalidArgumentError(f"name={name!r}: {taken}; choose another name")
    root = Path(directory)
    if root.exists() and any(root.iterdir()):
        raise InvalidArgumentError(f"directory={str(root)!r} exists and is not empty")
    values = {"name": name, "package": package}
    files = {
        root / "pyproject.toml": _PYPROJECT,
        root / "README.md": _README,
        root / package / "__init__.py": _INIT,
        root / "tests" / f"test_{package}.py": _TEST,
    }
    for path, template in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template.substitute(values), encoding="utf-8")
    return list(files)
