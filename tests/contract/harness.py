"""The argument contract of the public API, as data the contract test runs.

Every public name of :mod:`implicit_bias.numerics`,
:mod:`implicit_bias.validation`, :mod:`implicit_bias.validation.sweeps`,
:mod:`implicit_bias.testing` and :mod:`implicit_bias.strategies` has an entry
in one of the ``specs_*.py`` tables of this package: a :class:`Spec` saying
how to call it inside its domain, or an :class:`Exempt` saying why it is not
called (a constant, a result record the library builds). A name without an
entry fails the contract test, so a new function is covered by default.

The contract (tests/contract/test_contract.py):

* **In domain** -- the valid call, and Hypothesis draws from ``domains``:
  the result is finite (every float in it, through tuples, dataclasses and
  arrays), or the function raises a named error that in-domain input may
  legitimately meet (:class:`~implicit_bias.errors.OutOfRangeError`,
  :class:`~implicit_bias.errors.ConvergenceError`), or -- only where
  ``infinite`` quotes the docstring sentence documenting it -- contains inf.
  NaN is never allowed.
* **Out of domain** -- generic probes derived from the valid call's value of
  each argument (NaN, +-inf, complex, a string, None, bool for integers,
  non-integers for integers, empty and extra-axis arrays, an unknown option)
  plus the spec's own ``invalid`` values: each raises
  :class:`~implicit_bias.errors.InvalidArgumentError` whose message names the
  argument.
* **Ragged and zero-size** -- among the generic probes of an array
  argument: a ragged nested list (``[[1.0, 2.0], [3.0]]``) and a matrix
  with no columns (and an empty sequence for a sequence of numbers) raise
  :class:`~implicit_bias.errors.InvalidArgumentError` naming the argument;
  where an empty argument is documented, the spec's ``skip_probes`` says so.
* **Extreme values** -- every float argument at the smallest subnormal
  (``5e-324``) and at the float64 limits (``+-1.7976931348623157e308``):
  a finite result, or :class:`~implicit_bias.errors.InvalidArgumentError`,
  :class:`~implicit_bias.errors.OutOfRangeError` or
  :class:`~implicit_bias.errors.ConvergenceError` whose message names the
  argument -- never a foreign error (``ZeroDivisionError``, a raw NumPy
  error, ``LinAlgError``, a ``RuntimeWarning``), never NaN. These are
  :func:`extreme_probes`, each outcome legitimate in or out of the domain.
* **Nothing hangs** -- every call runs under a CPU-time budget
  (``ITIMER_PROF``), so a busy machine does not make it flaky while an
  endless loop still ends the test.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import signal
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import Any

import mpmath
import numpy as np
from hypothesis import strategies as st

__all__ = [
    "COUNTS",
    "NO_DEFAULT",
    "CallBudgetExceeded",
    "Exempt",
    "Probe",
    "Spec",
    "assert_finite",
    "cpu_budget",
    "extreme_probes",
    "generic_probes",
]

COUNTS: Counter[str] = Counter()
"""Calls made by the contract test, by kind, for its terminal summary."""

NO_DEFAULT = inspect.Parameter.empty

RAGGED = [[1.0, 2.0], [3.0]]
"""A nested list whose rows differ in length: no array, whatever the dtype."""

EXTREMES = {
    "tiny": 5e-324,
    "max": 1.7976931348623157e308,
    "-max": -1.7976931348623157e308,
}
"""The float64 extremes each float argument is called with: name -> value."""


@dataclasses.dataclass(frozen=True)
class Spec:
    """How to call one public function inside and outside its domain.

    Attributes:
      valid: returns the keyword arguments of one valid call (a fresh dict:
        arrays may be built in it).
      domains: in-domain strategies, each drawn value replacing the valid
        call's: a mapping argument -> strategy, or one strategy of dicts
        where arguments constrain each other (shapes, joint domains).
      invalid: argument -> out-of-domain values beyond the generic probes
        (``rho=1.5`` for a cosine, ``n=2`` where ``n > 2``).
      skip_probes: (argument, probe name) -> why that generic probe is in
        the domain (e.g. ``("seed", "None")`` where None is documented).
      pending: (argument, probe name) -> the open defect that probe shows,
        where its fix belongs to another change: the probe runs as a strict
        xfail, so it fails once fixed, until the entry is removed.
      infinite: the docstring's words documenting an infinite result, or None.
      max_examples: cap on Hypothesis examples outside the ``thorough``
        profile, for functions that train networks.
      budget_seconds: CPU seconds one call may take before it counts as a hang.
      check_result: extra assertions on a result (e.g. draw from a strategy).
    """

    valid: Callable[[], dict[str, Any]]
    domains: (
        Mapping[str, st.SearchStrategy[Any]] | st.SearchStrategy[dict[str, Any]]
    ) = dataclasses.field(default_factory=dict)
    invalid: Mapping[str, Sequence[Any]] = dataclasses.field(default_factory=dict)
    skip_probes: Mapping[tuple[str, str], str] = dataclasses.field(default_factory=dict)
    pending: Mapping[tuple[str, str], str] = dataclasses.field(default_factory=dict)
    infinite: str | None = None
    max_examples: int | None = None
    budget_seconds: float = 60.0
    check_result: Callable[[Any], None] | None = None


@dataclasses.dataclass(frozen=True)
class Exempt:
    """A public name the contract test does not call, and why."""

    reason: str


@dataclasses.dataclass(frozen=True)
class Probe:
    """One out-of-domain value of one argument."""

    argument: str
    name: str
    value: Any

    def __str__(self) -> str:
        return f"{self.argument}:{self.name}"


class CallBudgetExceeded(Exception):
    """A call ran past its CPU-time budget: treated as a hang."""


@contextmanager
def cpu_budget(seconds: float) -> Iterator[None]:
    """Raise :class:`CallBudgetExceeded` after ``seconds`` of this process's CPU time.

    CPU time, not wall time: a loaded machine slows a call down without
    making it use more CPU, so the budget flags loops, not a busy neighbour.
    """

    def expire(signum: int, frame: FrameType | None) -> None:
        raise CallBudgetExceeded(f"call used more than {seconds:g} s of CPU time")

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def _non_finite_paths(
    value: Any, path: str, seen: set[int]
) -> Iterator[tuple[str, bool]]:
    """``(where, is_nan)`` of every non-finite float inside ``value``."""
    if id(value) in seen:
        return
    if isinstance(value, bool | int | np.integer | str | bytes) or value is None:
        return
    if isinstance(value, float | np.floating):
        if not math.isfinite(value):
            yield f"{path}={value!r}", math.isnan(value)
        return
    if isinstance(value, complex | np.complexfloating):
        yield f"{path}={value!r} (complex)", True
        return
    if isinstance(value, mpmath.mpf):
        if not mpmath.isfinite(value):
            yield f"{path}={value!r}", bool(mpmath.isnan(value))
        return
    seen.add(id(value))
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "fc":
            bad = ~np.isfinite(value)
            if bad.any():
                nan = np.isnan(value)
                first = nan if nan.any() else bad
                index = np.argwhere(first)[0].tolist()
                yield f"{path}[{index}]={value[first].flat[0]!r}", bool(nan.any())
        elif value.dtype.kind == "O":
            for index, item in enumerate(value.flat):
                yield from _non_finite_paths(item, f"{path}.flat[{index}]", seen)
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _non_finite_paths(
                getattr(value, field.name), f"{path}.{field.name}", seen
            )
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _non_finite_paths(item, f"{path}[{key!r}]", seen)
        return
    if isinstance(value, list | tuple):
        names = getattr(value, "_fields", None)
        for index, item in enumerate(value):
            label = f".{names[index]}" if names else f"[{index}]"
            yield from _non_finite_paths(item, f"{path}{label}", seen)


def assert_finite(result: Any, *, allow_inf: bool = False) -> None:
    """Assert that every float inside ``result`` is finite (or +-inf if allowed)."""
    bad = [
        where
        for where, is_nan in _non_finite_paths(result, "result", set())
        if is_nan or not allow_inf
    ]
    assert not bad, "non-finite values in the result: " + "; ".join(bad[:5])


def _is_number_sequence(value: Any) -> bool:
    return (
        isinstance(value, list | tuple)
        and len(value) > 0
        and all(
            isinstance(item, int | float | np.number) and not isinstance(item, bool)
            for item in value
        )
    )


def generic_probes(name: str, value: Any, default: Any) -> list[Probe]:
    """Out-of-domain values of argument ``name``, derived from a valid ``value``.

    ``default`` is the parameter's default (:data:`NO_DEFAULT` if it has
    none): None is probed only where None is not the default.
    """
    probes: list[Probe] = []

    def add(probe_name: str, probe_value: Any) -> None:
        probes.append(Probe(name, probe_name, probe_value))

    if isinstance(value, bool) or callable(value):
        return probes
    if default is not None:
        add("None", None)
    if isinstance(value, int | np.integer):
        add("nan", math.nan)
        add("inf", math.inf)
        add("non-integer", float(value) + 0.5)
        add("bool", True)
        add("complex", complex(value, 1))
        add("string", "1")
    elif isinstance(value, float | np.floating):
        add("nan", math.nan)
        add("inf", math.inf)
        add("-inf", -math.inf)
        add("complex", complex(value, 1))
        add("string", "1.0")
    elif isinstance(value, str):
        add("unknown-option", value + "-no-such-option")
        add("number", 1)
    elif isinstance(value, np.ndarray) and value.dtype.kind in "fiu":
        array = np.array(value, dtype=np.float64)
        if array.ndim == 0:
            return generic_probes(name, float(array), default)
        with_nan = array.copy()
        with_nan.flat[0] = math.nan
        add("nan-entry", with_nan)
        with_inf = array.copy()
        with_inf.flat[-1] = math.inf
        add("inf-entry", with_inf)
        add("complex", array + 1j)
        add("string", "1.0")
        add("empty", np.empty((0, *array.shape[1:])))
        if array.ndim >= 2:
            add("no-columns", np.empty((*array.shape[:-1], 0)))
        add("extra-axis", array[np.newaxis])
        add("ragged", RAGGED)
    elif _is_number_sequence(value):
        add("empty", type(value)())
        add("ragged", RAGGED)
        if all(isinstance(item, int | np.integer) for item in value):
            add("non-integer-entry", type(value)([*value[:-1], value[-1] + 0.5]))
            add("string", "1")
        else:
            add("nan-entry", type(value)([math.nan, *value[1:]]))
            add("complex-entry", type(value)([complex(value[0], 1), *value[1:]]))
    return probes


def extreme_probes(name: str, value: Any) -> list[Probe]:
    """The float64 extremes (:data:`EXTREMES`) of argument ``name``, if a float.

    A float argument is a Python or NumPy float or a 0-d float array. The
    extremes may lie inside the domain or outside it: the contract accepts a
    finite result or a named error (see the module docstring), not a
    foreign error or NaN.
    """
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind == "f":
        value = float(value)
    if isinstance(value, bool) or not isinstance(value, float | np.floating):
        return []
    return [Probe(name, extreme, number) for extreme, number in EXTREMES.items()]
