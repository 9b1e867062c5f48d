"""Mutation of the theory layer: sites, reach, kills, equivalents, controls."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from implicit_bias.claims.mutate import Outcome
from implicit_bias.claims.theory_mutation import NOT_JUDGED, mutate_theory
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


def branchy(x, shifted=False):
    if shifted:
        return x + 1
    return x
'''

_SOURCE = """
import sympy as sp
from implicit_bias.claims import Claim, Kind, Source, Status, check_identity
from {package}.theory import formulas

x = sp.Symbol("x", positive=True)


def busy():
    import time
    started = time.process_time()
    while time.process_time() - started < 0.5:
        pass


SOURCE = Source(
    "{package}",
    "A user's theory",
    claims=(
        Claim("{package}", "1", "independent", Kind.IDENTITY, "x x = x^2",
              lambda: check_identity(formulas.square(x), x**2), Status.HOLDS,
              quote="x x = x^2"),
        Claim("{package}", "2", "itself", Kind.IDENTITY, "square = square",
              lambda: check_identity(formulas.square(x), formulas.square(x)),
              Status.HOLDS, quote="square = square"),
        Claim("{package}", "3", "magnitude", Kind.IDENTITY, "|-x| = x",
              lambda: check_identity(formulas.magnitude(x), x), Status.HOLDS,
              quote="|-x| = x"),
        Claim("{package}", "4", "shift", Kind.IDENTITY, "x + 1 - x = 1",
              lambda: check_identity(formulas.shifted(x) - x, 1), Status.HOLDS,
              quote="x + 1 - x = 1"),
        Claim("{package}", "7", "busy", Kind.IDENTITY, "x x = x^2, slowly",
              lambda: busy() or check_identity(formulas.square(x), x**2),
              Status.HOLDS, quote="x x = x^2"),
        Claim("{package}", "6", "branchy", Kind.IDENTITY, "branchy(x) = x",
              lambda: check_identity(formulas.branchy(x), x), Status.HOLDS,
              quote="branchy(x) = x"),
        Claim("{package}", "5", "broken", Kind.IDENTITY, "x x = x^3",
              lambda: check_identity(formulas.square(x), x**3), Status.HOLDS,
              quote="x x = x^3"),
    ),
)
"""


@pytest.fixture
def user_package(tmp_path: Path) -> Iterator[str]:
    """A user's package with a theory subpackage and a source on it."""
    package = f"tmnote_{tmp_path.name.replace('-', '_')}"
    root = tmp_path / package
    (root / "theory").mkdir(parents=True)
    (root / "__init__.py").write_text("", "utf-8")
    (root / "theory" / "__init__.py").write_text("", "utf-8")
    (root / "theory" / "formulas.py").write_text(_FORMULAS, "utf-8")
    (root / "source.py").write_text(_SOURCE.format(package=package), "utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        yield package
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n.split(".")[0] == package]:
            del sys.modules[name]


def test_mutants_are_killed_survive_or_are_equivalent(user_package: str) -> None:
    source = importlib.import_module(f"{user_package}.source").SOURCE
    result = mutate_theory(
        source.all_claims(),
        [source],
        package=f"{user_package}.theory",
        per_function=None,
        workers=1,
    )
    by_function = {o.mutant.function: o for o in result.outcomes}
    # Compared with x^2, independently: killed, by a certified fails.
    square = by_function["square"]
    assert square.outcome == Outcome.KILLED
    assert square.killed_by == f"{user_package}:1:independent"
    assert square.fails
    # |x| = |-x|: the mutant is the same function, and SymPy proves it.
    assert by_function["magnitude"].outcome == Outcome.EQUIVALENT
    # x - items[0]: claim 4 notices.
    assert by_function["shifted"].outcome == Outcome.KILLED
    # A mutant in a branch the claims never take survives: that the function
    # is unchanged where SymPy tried it proves nothing about that branch.
    branchy = [o for o in result.outcomes if o.mutant.function == "branchy"]
    assert len(branchy) == 2
    assert {o.outcome for o in branchy} == {Outcome.SURVIVED}
    # No claim calls `unused`: it is not mutated at all.
    assert "unused" not in by_function
    # The claim that does not hold when imported again judges nothing.
    assert "does not hold" in result.excluded[f"{user_package}:5:broken"]
    assert f"{user_package}:5:broken" not in result.received()
    # What each claim called, recorded in the control run.
    formulas = f"{user_package}.theory.formulas"
    assert result.reach[f"{user_package}:1:independent"] == {(formulas, "square")}
    assert result.reach[f"{user_package}:4:shift"] == {(formulas, "shifted")}


def test_a_claim_comparing_a_function_with_itself_cannot_kill(
    user_package: str,
) -> None:
    source = importlib.import_module(f"{user_package}.source").SOURCE
    (itself,) = [c for c in source.all_claims() if c.label == "itself"]
    result = mutate_theory(
        [itself], [source], package=f"{user_package}.theory", workers=1
    )
    (outcome,) = result.outcomes
    assert outcome.outcome == Outcome.SURVIVED
    assert outcome.judged == (itself.id,)


def test_a_tight_budget_leaves_mutants_not_judged(user_package: str) -> None:
    source = importlib.import_module(f"{user_package}.source").SOURCE
    with pytest.raises(InvalidArgumentError, match="mutant_seconds"):
        mutate_theory(source.all_claims(), [source], mutant_seconds=0)
    # A check that spends 0.5 CPU s before deciding, given 0.1 s per mutant:
    # cut by the budget, it judges nothing (a fast check would decide within
    # any timer tick, so the budget is tested on a slow one).
    (busy,) = [c for c in source.all_claims() if c.label == "busy"]
    result = mutate_theory(
        [busy],
        [source],
        package=f"{user_package}.theory",
        mutant_seconds=0.1,
        workers=1,
    )
    assert {o.outcome for o in result.outcomes} == {NOT_JUDGED}, [
        (o.killed_by, o.detail) for o in result.outcomes
    ]


def test_the_project_theory_is_mutated_and_its_mutants_killed() -> None:
    """One claim of ptft-relu-penalty against the real theory layer: its
    source is imported again with each mutant of the functions it calls."""
    from implicit_bias.claims.discovery import default_registry

    registry = default_registry()
    claim = registry.claim("ptft-relu-penalty:10:stationary-points-step-2")
    result = mutate_theory(
        [claim], [registry.source("ptft-relu-penalty")], per_function=1, workers=1
    )
    called = {function for _, function in result.reach[claim.id]}
    assert {"stationarity_eq9", "stationarity_eq10"} <= called
    # The step's two sides are eqs. (9) and (10): a wrong one is noticed.
    stepped = [
        o
        for o in result.outcomes
        if o.mutant.function in ("stationarity_eq9", "stationarity_eq10")
    ]
    assert len(stepped) == 2
    assert all(o.outcome == Outcome.KILLED and o.fails for o in stepped)
