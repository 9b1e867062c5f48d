"""Mutation testing's hooks into the checks: capped symbolic budgets and an
injected bias of the numerical comparisons.

``implicit-bias mutate`` (:mod:`implicit_bias.claims.mutate`) judges many
relations, so it caps the CPU time of every symbolic step
(:func:`capped_budgets`), and asks whether a claim's decision notices an error
of a few tolerances by shifting what
:func:`~implicit_bias.claims.comparisons.check_close`,
:func:`~implicit_bias.claims.comparisons.check_positive` and
:func:`~implicit_bias.claims.repeats.check_not_consistently_below` compare
(:func:`injected_bias`). The state is one object of this module, read by every
check.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = [
    "BiasInjection",
    "bias_injected",
    "capped_budgets",
    "injected_bias",
    "shift_against_claim",
]


@dataclass
class BiasInjection:
    """A shift of the compared values, in tolerances (:func:`injected_bias`)."""

    factor: float
    #: How many comparisons were shifted (by a nonzero amount).
    comparisons: int = 0
    #: Of them, one-sided comparisons (see :func:`shift_against_claim`).
    one_sided: int = 0


@dataclass
class _Instrumentation:
    """Mutation testing's hooks (see :mod:`implicit_bias.claims.mutate`)."""

    #: Upper bound on every symbolic step's budget, or None.
    budget_cap: float | None = None
    injection: BiasInjection | None = None


_INSTRUMENTATION = _Instrumentation()


def _budget(seconds: float) -> float:
    cap = _INSTRUMENTATION.budget_cap
    return seconds if cap is None else min(seconds, cap)


@contextlib.contextmanager
def capped_budgets(seconds: float) -> Iterator[None]:
    """Within the block, no symbolic step of these checks gets more than
    ``seconds`` of CPU time (mutation testing judges many relations)."""
    previous = _INSTRUMENTATION.budget_cap
    _INSTRUMENTATION.budget_cap = seconds
    try:
        yield
    finally:
        _INSTRUMENTATION.budget_cap = previous


@contextlib.contextmanager
def injected_bias(factor: float) -> Iterator[BiasInjection]:
    r"""Within the block, ``check_close`` shifts the value it compares by
    ``factor`` times its tolerance before deciding, and the one-sided
    comparisons move theirs :math:`|\mathrm{factor}|` resolutions toward
    refutation (:func:`shift_against_claim`), so mutation testing can ask
    whether a claim's whole decision notices an error of that size.

    The yielded :class:`BiasInjection` counts the comparisons shifted; one
    whose tolerance is 0 is not moved, and not counted, nor is one whose shift
    rounding swallows (a tolerance of 1e-30 on a value of 1).
    """
    previous = _INSTRUMENTATION.injection
    injection = _INSTRUMENTATION.injection = BiasInjection(factor)
    try:
        yield injection
    finally:
        _INSTRUMENTATION.injection = previous


def shift_against_claim(scale: float) -> float:
    r"""The shift a one-sided comparison adds to its value under
    :func:`injected_bias`: :math:`-|\mathrm{factor}|` times ``scale`` (its
    tolerance), counted when nonzero; 0 outside the block.

    A statement that a value is above a threshold notices an error of a few
    tolerances only in one direction: moved up, it still holds, and rightly.
    So the value is moved toward refutation whatever the factor's sign, and
    mutation testing asks whether the claim's decision notices that.
    """
    injection = _INSTRUMENTATION.injection
    if injection is None or scale == 0:
        return 0.0
    injection.comparisons += 1
    injection.one_sided += 1
    return -abs(injection.factor) * scale


def bias_injected() -> bool:
    """Whether an :func:`injected_bias` block is active.

    A comparison whose shift costs something computes it only then.
    """
    return _INSTRUMENTATION.injection is not None
