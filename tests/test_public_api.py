"""Every public name is exported deliberately and documented."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
from pathlib import Path

import pytest

import implicit_bias
from implicit_bias.claims.discovery import shipped_registry

#: Source id -> its claims (chains included), for the sources this package ships.
SOURCES = {s.id: s.all_claims() for s in shipped_registry().sources.values()}


PACKAGES = [
    "implicit_bias",
    "implicit_bias.theory",
    "implicit_bias.numerics",
    "implicit_bias.validation",
    "implicit_bias.claims",
]


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_is_documented(package: str) -> None:
    module = importlib.import_module(package)
    assert module.__doc__, f"{package} has no module docstring"
    for name in module.__all__:
        value = getattr(module, name)
        if (
            inspect.isfunction(value)
            or inspect.isclass(value)
            or inspect.ismodule(value)
        ):
            assert inspect.getdoc(value), f"{package}.{name} has no docstring"


@pytest.mark.parametrize("package", ["implicit_bias.numerics"])
def test_numerics_cite_their_source_equation(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        value = getattr(module, name)
        if not (inspect.isfunction(value) or inspect.isclass(value)):
            continue
        doc = inspect.getdoc(value) or ""
        assert "Eq" in doc or "Section" in doc, name
        assert any(f"of {source}" in doc for source in SOURCES), name
        assert ".. math::" in doc, name
        assert ">>>" in doc, name


def _imported_modules(tree: ast.Module) -> dict[str, str]:
    """Local names bound to implicit_bias modules by the imports of a file."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("implicit_bias.") and alias.asname:
                    bound[alias.asname] = alias.name
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "implicit_bias"
        ):
            for alias in node.names:
                qualified = f"{node.module}.{alias.name}"
                if _is_module(qualified):
                    bound[alias.asname or alias.name] = qualified
    return bound


def _is_module(qualified: str) -> bool:
    try:
        return importlib.util.find_spec(qualified) is not None
    except ModuleNotFoundError:
        return False


def _package_of(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_no_module_reads_the_private_names_of_another_package() -> None:
    # A private helper may change or vanish with its module (a claim calling a
    # removed numerics helper crashed to `inconclusive`): across packages, only
    # public names are used.
    root = Path(implicit_bias.__file__).parent
    offences: list[str] = []
    for path in sorted(root.rglob("*.py")):
        module = ".".join(
            ("implicit_bias", *path.relative_to(root).with_suffix("").parts)
        )
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "implicit_bias"
            ):
                assert node.module is not None
                offences.extend(
                    f"{path.name}:{node.lineno} imports {node.module}.{alias.name}"
                    for alias in node.names
                    # Dunders (``__version__``) are public by convention.
                    if alias.name.startswith("_")
                    and not alias.name.startswith("__")
                    and _package_of(node.module) != _package_of(module)
                )
        bound = _imported_modules(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and isinstance(node.value, ast.Name)
                and node.value.id in bound
                and _package_of(bound[node.value.id]) != _package_of(module)
            ):
                offences.append(
                    f"{path.name}:{node.lineno} reads "
                    f"{bound[node.value.id]}.{node.attr}"
                )
    assert not offences, "\n".join(offences)


def test_the_package_has_one_version_number() -> None:
    import importlib.metadata
    import tomllib
    from pathlib import Path

    import implicit_bias

    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    declared = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    assert implicit_bias.__version__ == declared["version"]
    assert implicit_bias.__version__ == importlib.metadata.version("implicit-bias")
