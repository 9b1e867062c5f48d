"""The worked examples in examples/ use the public API only, and verify as expected.

The rule for an example's imports of implicit_bias (checked on every .py file
under examples/ with ``ast``):

* the module imported from is one of the public packages
  :data:`PUBLIC_MODULES` or a submodule of one, and no component of its dotted
  path starts with ``_``;
* every name imported from it is public: a submodule that passes the rule
  above, or a name listed in the module's ``__all__`` (and so not starting
  with ``_``);
* no attribute starting with ``_`` is read from a name bound to an
  implicit_bias module.

``implicit_bias.sources`` (the papers, tenants like the example itself),
``cli``, ``latex``, ``reports`` and the rest are not for an example's code.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import sys
from pathlib import Path

import pytest

from implicit_bias.claims import Basis, Claim, Status, run_claims

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
#: The worked examples' packages, each in examples/<package>/<package>/.
NOTES = ("balance_note", "max_margin_note")

#: The packages an example may import from (with their public submodules).
PUBLIC_MODULES = (
    "implicit_bias.claims",
    "implicit_bias.strategies",
    "implicit_bias.testing",
    "implicit_bias.numerics",
    "implicit_bias.theory",
    "implicit_bias.validation",
    "implicit_bias.errors",
)


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def _module_offence(module: str) -> str | None:
    if any(part.startswith("_") for part in module.split(".")):
        return f"{module} is private (a component starts with '_')"
    if not any(module == p or module.startswith(p + ".") for p in PUBLIC_MODULES):
        return f"{module} is not one of the public packages {', '.join(PUBLIC_MODULES)}"
    if not _is_module(module):
        return f"{module} does not exist"
    return None


def _name_offence(module: str, name: str) -> str | None:
    qualified = f"{module}.{name}"
    if _is_module(qualified):
        return _module_offence(qualified)
    offence = _module_offence(module)
    if offence is not None:
        return offence
    public = getattr(importlib.import_module(module), "__all__", None)
    if name.startswith("_") or public is None or name not in public:
        return f"{qualified} is not in {module}.__all__"
    return None


def offences(source: str, filename: str = "<example>") -> list[str]:
    """The imports of ``source`` that break the rule of this module's docstring."""
    tree = ast.parse(source, filename)
    found: list[str] = []
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != "implicit_bias":
                    continue
                if alias.name == "implicit_bias":
                    found.append(
                        f"line {node.lineno}: import implicit_bias: name a package"
                    )
                    continue
                offence = _module_offence(alias.name)
                if offence is not None:
                    found.append(f"line {node.lineno}: {offence}")
                bound.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level or module.split(".")[0] != "implicit_bias":
                continue
            for alias in node.names:
                offence = (
                    _module_offence(f"{module}.{alias.name}")
                    if module == "implicit_bias"
                    else _name_offence(module, alias.name)
                )
                if offence is not None:
                    found.append(f"line {node.lineno}: {offence}")
                if _is_module(f"{module}.{alias.name}"):
                    bound.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in bound:
                found.append(f"line {node.lineno}: reads the private {node.attr}")
    return found


EXAMPLE_FILES = sorted(EXAMPLES.rglob("*.py"))


def test_there_are_examples() -> None:
    for package in NOTES:
        assert (EXAMPLES / package / package / "__init__.py") in EXAMPLE_FILES


@pytest.mark.parametrize(
    "path", EXAMPLE_FILES, ids=lambda p: str(p.relative_to(EXAMPLES))
)
def test_examples_import_only_public_names(path: Path) -> None:
    found = offences(path.read_text(encoding="utf-8"), str(path))
    assert not found, f"{path.relative_to(ROOT)}:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("source", "offending"),
    [
        ("from implicit_bias.claims.checks import _budget", True),
        ("from implicit_bias.validation import _deep_linear_descent", True),
        ("import implicit_bias.validation._deep_linear_descent", True),
        ("from implicit_bias.sources.ptft_relu_penalty import SOURCE", True),
        ("from implicit_bias.cli import main", True),
        ("from implicit_bias import cli", True),
        ("import implicit_bias", True),
        ("from implicit_bias.claims import engine\nengine._claim_verdict", True),
        ("import implicit_bias.claims.checks as c\nc._certify", True),
        ("from implicit_bias.claims import Claim, check_identity", False),
        ("from implicit_bias.claims.checks import close_or_undecided", False),
        ("from implicit_bias import claims", False),
        ("from implicit_bias.strategies import angles", False),
        ("from implicit_bias.errors import InvalidArgumentError", False),
        ("import numpy as np\nnp._private", False),
    ],
)
def test_the_rule_tells_public_from_private(source: str, offending: bool) -> None:
    assert bool(offences(source)) == offending, offences(source)


@pytest.fixture(scope="module", params=NOTES)
def note_claims(request: pytest.FixtureRequest) -> tuple[Claim, ...]:
    package = request.param
    if str(EXAMPLES / package) not in sys.path:
        sys.path.insert(0, str(EXAMPLES / package))
    note = importlib.import_module(package)
    experiment = importlib.import_module(f"{package}.experiment")
    # A simulation run once per process (max-margin-note's trajectory): once
    # here, so that the forked workers inherit it.
    if hasattr(experiment, "trajectory"):
        experiment.trajectory()
    return tuple(note.SOURCE.all_claims())


def test_every_claim_of_the_note_has_its_expected_verdict(
    note_claims: tuple[Claim, ...],
) -> None:
    fast = [claim for claim in note_claims if not claim.slow]
    results = run_claims(fast, workers=2)
    unexpected = [
        f"{r.claim.id}: expected {r.claim.expected}, got {r.verdict.status} "
        f"({r.verdict.detail})"
        for r in results
        if not r.as_expected
    ]
    assert not unexpected, "\n".join(unexpected)
    assert {r.verdict.status for r in results} == {Status.HOLDS, Status.FAILS}


def test_the_deliberate_slip_is_refuted_with_a_certified_counterexample(
    note_claims: tuple[Claim, ...],
) -> None:
    (slip,) = [c for c in note_claims if "slip" in c.label]
    assert slip.expected == Status.FAILS
    (result,) = run_claims([slip], workers=1)
    assert result.verdict.status == Status.FAILS
    assert result.verdict.basis in (Basis.CERTIFIED, Basis.PROOF)
    assert result.verdict.counterexample
