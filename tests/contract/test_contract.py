"""One argument contract for the whole public API (see tests/contract/harness.py).

Driven from ``__all__``: every public name of the modules in :data:`MODULES`
needs an entry in a ``specs_*.py`` table, so a new function is covered (and
fails until it is specified). Run with ``HYPOTHESIS_PROFILE=thorough`` for
10^4 in-domain examples per function.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.contract
from implicit_bias.errors import (
    ConvergenceError,
    InvalidArgumentError,
    OutOfRangeError,
)
from tests.contract.harness import (
    COUNTS,
    NO_DEFAULT,
    EXTREMES,
    CallBudgetExceeded,
    Exempt,
    Probe,
    Spec,
    assert_finite,
    cpu_budget,
    extreme_probes,
    generic_probes,
)

MODULES = (
    "implicit_bias.numerics",
    "implicit_bias.validation",
    "implicit_bias.validation.sweeps",
    "implicit_bias.testing",
    "implicit_bias.strategies",
)

# Named errors that in-domain input may meet: a result beyond float64, or an
# iterative method that says what to try.
IN_DOMAIN_ERRORS = (OutOfRangeError, ConvergenceError)


def _load_specs() -> dict[str, Spec | Exempt]:
    specs: dict[str, Spec | Exempt] = {}
    for info in pkgutil.iter_modules(tests.contract.__path__):
        if not info.name.startswith("specs_"):
            continue
        table = importlib.import_module(f"tests.contract.{info.name}").SPECS
        for key, spec in table.items():
            assert key not in specs, f"{key} is specified twice"
            specs[key] = spec
    return specs


SPECS = _load_specs()


def _public_names() -> list[str]:
    names: list[str] = []
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        names.extend(f"{module_name}.{name}" for name in module.__all__)
    return names


PUBLIC = _public_names()
CALLED = [key for key in PUBLIC if isinstance(SPECS.get(key), Spec)]


def _resolve(key: str) -> Callable[..., Any]:
    module_name, _, name = key.rpartition(".")
    return getattr(importlib.import_module(module_name), name)


def _call(key: str, spec: Spec, kwargs: dict[str, Any]) -> Any:
    COUNTS[f"calls:{key.split('.')[1]}"] += 1
    with cpu_budget(spec.budget_seconds):
        return _resolve(key)(**kwargs)


def _check(key: str, spec: Spec, result: Any) -> None:
    assert_finite(result, allow_inf=spec.infinite is not None)
    if spec.check_result is not None:
        spec.check_result(result)


def _generic_probes(key: str, spec: Spec) -> list[Probe]:
    """The generic and the extreme probes of the valid call, none skipped."""
    parameters = inspect.signature(_resolve(key)).parameters
    probes: list[Probe] = []
    for name, value in spec.valid().items():
        default = parameters[name].default if name in parameters else NO_DEFAULT
        probes.extend(generic_probes(name, value, default))
        probes.extend(extreme_probes(name, value))
    return probes


def _probes(key: str, spec: Spec) -> list[Probe]:
    probes = [
        probe
        for probe in _generic_probes(key, spec)
        if probe.name not in EXTREMES
        and (probe.argument, probe.name) not in spec.skip_probes
    ]
    for name, values in spec.invalid.items():
        probes.extend(
            Probe(name, f"invalid[{index}]", value)
            for index, value in enumerate(values)
        )
    return probes


def _extreme_probes(key: str, spec: Spec) -> list[Probe]:
    return [
        probe
        for probe in _generic_probes(key, spec)
        if probe.name in EXTREMES
        and (probe.argument, probe.name) not in spec.skip_probes
    ]


def _param(key: str, probe: Probe) -> Any:
    spec = SPECS[key]
    assert isinstance(spec, Spec)
    pending = spec.pending.get((probe.argument, probe.name))
    return pytest.param(
        key,
        probe,
        id=f"{key.removeprefix('implicit_bias.')}:{probe}",
        marks=[pytest.mark.xfail(strict=True, reason=pending)] if pending else [],
    )


PROBES = [
    _param(key, probe)
    for key in CALLED
    for probe in _probes(key, SPECS[key])  # type: ignore[arg-type]
]
EXTREME_PROBES = [
    _param(key, probe)
    for key in CALLED
    for probe in _extreme_probes(key, SPECS[key])  # type: ignore[arg-type]
]


def test_every_public_name_is_specified() -> None:
    missing = [key for key in PUBLIC if key not in SPECS]
    assert not missing, f"no contract entry for {missing}"


def test_no_entry_names_a_private_or_removed_name() -> None:
    stale = sorted(set(SPECS) - set(PUBLIC))
    assert not stale, f"contract entries for names not in __all__: {stale}"


def test_specs_name_real_parameters() -> None:
    for key in CALLED:
        spec = SPECS[key]
        assert isinstance(spec, Spec)
        parameters = inspect.signature(_resolve(key)).parameters
        named = set(spec.valid()) | set(spec.invalid)
        named |= {argument for argument, _ in spec.skip_probes}
        if isinstance(spec.domains, dict):
            named |= set(spec.domains)
        assert named <= set(parameters), f"{key}: {named - set(parameters)}"
        if spec.infinite is not None:
            doc = inspect.getdoc(_resolve(key)) or ""
            assert spec.infinite in " ".join(doc.split()), (
                f"{key}: the docstring does not say {spec.infinite!r}"
            )


def test_skipped_and_pending_probes_exist() -> None:
    # An entry naming no generic probe would skip or mark nothing, silently
    # (a renamed probe, or a pending entry left after its probe was fixed
    # and dropped from the valid call).
    for key in CALLED:
        spec = SPECS[key]
        assert isinstance(spec, Spec)
        probes = {(probe.argument, probe.name) for probe in _generic_probes(key, spec)}
        stale = (set(spec.skip_probes) | set(spec.pending)) - probes
        assert not stale, f"{key}: no such generic probe {sorted(stale)}"


@pytest.mark.parametrize("key", CALLED, ids=lambda k: k.removeprefix("implicit_bias."))
def test_valid_call_gives_a_finite_result(key: str) -> None:
    spec = SPECS[key]
    assert isinstance(spec, Spec)
    _check(key, spec, _call(key, spec, spec.valid()))


def _max_examples(spec: Spec) -> int:
    profile_examples = settings().max_examples
    if settings.get_current_profile_name() == "thorough" or spec.max_examples is None:
        return profile_examples
    return min(profile_examples, spec.max_examples)


def _has_domains(spec: Spec | Exempt) -> bool:
    # A strategy's truth value is a Hypothesis warning, so test its kind.
    assert isinstance(spec, Spec)
    return isinstance(spec.domains, st.SearchStrategy) or bool(spec.domains)


@pytest.mark.parametrize(
    "key",
    [key for key in CALLED if _has_domains(SPECS[key])],
    ids=lambda k: k.removeprefix("implicit_bias."),
)
def test_in_domain_inputs_give_finite_results(key: str) -> None:
    spec = SPECS[key]
    assert isinstance(spec, Spec)
    domains = spec.domains
    drawn = (
        domains
        if isinstance(domains, st.SearchStrategy)
        else st.fixed_dictionaries(dict(domains))
    )

    # Entries of strategies draw from the strategy they got back: a nested
    # @given, bounded by their few draws.
    @settings(
        max_examples=_max_examples(spec),
        suppress_health_check=[HealthCheck.nested_given],
    )
    @given(drawn)
    def run(arguments: dict[str, Any]) -> None:
        kwargs = spec.valid() | arguments
        try:
            result = _call(key, spec, kwargs)
        except IN_DOMAIN_ERRORS as error:
            COUNTS[f"in-domain:{type(error).__name__}"] += 1
            return
        COUNTS["in-domain:finite"] += 1
        _check(key, spec, result)

    run()


@pytest.mark.parametrize(("key", "probe"), PROBES)
def test_out_of_domain_input_raises_a_named_error(key: str, probe: Probe) -> None:
    spec = SPECS[key]
    assert isinstance(spec, Spec)
    kwargs = spec.valid() | {probe.argument: probe.value}
    with pytest.raises(InvalidArgumentError) as caught:
        _call(key, spec, kwargs)
    COUNTS[f"out-of-domain:{probe.name.split('[')[0]}"] += 1
    assert probe.argument in str(caught.value), (
        f"the message does not name {probe.argument!r}: {caught.value}"
    )


@pytest.mark.parametrize(("key", "probe"), EXTREME_PROBES)
def test_extreme_value_gives_a_finite_result_or_a_named_error(
    key: str, probe: Probe
) -> None:
    # A float64 extreme may be inside the domain (a finite result, or a result
    # beyond float64) or outside it (a tolerance no iteration reaches): any
    # named error is legitimate if it names the argument, a foreign one never.
    spec = SPECS[key]
    assert isinstance(spec, Spec)
    kwargs = spec.valid() | {probe.argument: probe.value}
    named: Exception | None = None
    try:
        result = _call(key, spec, kwargs)
    except (InvalidArgumentError, *IN_DOMAIN_ERRORS) as error:
        named = error
    if named is None:
        COUNTS["extreme:finite"] += 1
        _check(key, spec, result)
        return
    COUNTS[f"extreme:{type(named).__name__}"] += 1
    assert probe.argument in str(named), (
        f"the message does not name {probe.argument!r}: {named}"
    )


def test_the_budget_stops_an_endless_loop() -> None:
    def spin() -> None:
        while True:
            pass

    with pytest.raises(CallBudgetExceeded), cpu_budget(0.2):
        spin()


def test_finiteness_is_checked_through_containers() -> None:
    import dataclasses

    import numpy as np

    @dataclasses.dataclass
    class Record:
        values: Any

    for bad in ([1.0, float("nan")], Record(np.array([1.0, np.inf])), {"a": -np.inf}):
        with pytest.raises(AssertionError):
            assert_finite(bad)
    assert_finite(Record((1, np.array([2.0]), {"b": 3.0})))
    assert_finite([np.inf], allow_inf=True)
    with pytest.raises(AssertionError):
        assert_finite([np.nan], allow_inf=True)


def test_thorough_profile_runs_ten_thousand_examples() -> None:
    assert settings.get_profile("thorough").max_examples == 10_000
    assert os.environ.get("HYPOTHESIS_PROFILE", "dev") in {"dev", "ci", "thorough"}
