"""The mutants of a theory module: where they are, and what they change."""

from __future__ import annotations

import importlib
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from implicit_bias.claims.theory_sites import mutated_code, theory_mutants
from implicit_bias.errors import InvalidArgumentError

_FORMULAS = '''
import sympy as sp


def square(x):
    """The square: 2 in a docstring is never mutated."""
    if x is None:
        raise ValueError(1)
    return x * x


def magnitude(x):
    return sp.Abs(-x)


def shifted(x, items=(1, 2)):
    return x + items[0]


def unused(x):
    return x - 1
'''


@pytest.fixture
def user_module(tmp_path: Path) -> Iterator[str]:
    """A user's module of formulas, importable by name."""
    name = f"tmformulas_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(_FORMULAS, "utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        yield name
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop(name, None)


def test_sites_skip_docstrings_guards_defaults_and_indices(user_module: str) -> None:
    module = user_module
    mutants = theory_mutants(module, per_function=None)
    descriptions = {(m.function, m.description.partition(": ")[2]) for m in mutants}
    assert descriptions == {
        ("square", "`x * x` -> `x / x`"),
        ("magnitude", "`-x` -> `x`"),
        ("shifted", "`x + items[0]` -> `x - items[0]`"),
        ("unused", "`x - 1` -> `x + 1`"),
        ("unused", "`1` -> `2`"),
    }
    # The mutated code replaces that site only.
    (square,) = [m for m in mutants if m.function == "square"]
    namespace: dict[str, object] = {}
    exec(mutated_code(square), namespace)
    assert namespace["square"](3) == 1  # type: ignore[operator]
    assert namespace["unused"](3) == 2  # type: ignore[operator]


def test_per_function_spreads_and_refuses_nonsense(user_module: str) -> None:
    module = user_module
    assert {m.function for m in theory_mutants(module, per_function=1)} == {
        "square",
        "magnitude",
        "shifted",
        "unused",
    }
    assert len(theory_mutants(module, ["unused"], per_function=1)) == 1
    with pytest.raises(InvalidArgumentError, match="per_function"):
        theory_mutants(module, per_function=0)


def test_mutated_source_text_is_left_alone(user_module: str) -> None:
    module = user_module
    before = Path(importlib.import_module(module).__file__ or "").read_text("utf-8")
    for mutant in theory_mutants(module, per_function=None):
        mutated_code(mutant)
    after = Path(importlib.import_module(module).__file__ or "").read_text("utf-8")
    assert before == after
    assert textwrap.dedent(_FORMULAS) == after
