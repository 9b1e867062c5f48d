"""Formulas lambdified from the theory layer at first use, not at import.

Importing :mod:`implicit_bias.numerics` does not import SymPy (a NumPy
evaluator should not cost a fresh process SymPy's import time). A module of
numerics that evaluates a theory expression wraps the function that lambdifies
it in :func:`lazy_formula`: the first call imports SymPy and the theory module
and builds the evaluator, later calls return the cached one.

:func:`build_lazy_formulas` builds them all at once. A process about to
fork workers (such as the claims runner) can call it first, so that every
worker inherits the built evaluators instead of building its own within its
time budget.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

_Built = TypeVar("_Built")

_BUILDERS: list[Callable[[], object]] = []


def lazy_formula(builder: Callable[[], _Built]) -> Callable[[], _Built]:
    """``builder``, run once at its first call, its result cached and registered."""
    cached = functools.cache(builder)
    _BUILDERS.append(cached)
    return cached


def build_lazy_formulas() -> int:
    """Build every formula of :mod:`implicit_bias.numerics` now; return how many.

    Imports SymPy and the theory modules the formulas come from.
    """
    # The formulas register when their modules are imported; the package
    # imports every one of them.
    import implicit_bias.numerics  # noqa: F401

    for builder in _BUILDERS:
        builder()
    return len(_BUILDERS)
