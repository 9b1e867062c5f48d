"""Every public name is exported deliberately and documented."""

from __future__ import annotations

import importlib
import inspect

import pytest

from implicit_bias.claims.registry import SOURCES

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
