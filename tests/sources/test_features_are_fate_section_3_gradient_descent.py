"""Every claim of features-are-fate's gradient-descent endpoints returns its verdict."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

from implicit_bias.sources.features_are_fate import section_3_gradient_descent
from implicit_bias.sources.features_are_fate.section_3_gradient_descent import CLAIMS
from implicit_bias.validation.transfer_experiments import EndpointErrors
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from tests.claims.verdict_suites import (
    ExpectedVerdicts,
    MeasuredRefutations,
    SimulationVerdicts,
)


class TestClaims(ExpectedVerdicts, SimulationVerdicts, MeasuredRefutations):
    claims = CLAIMS
    source_id = SOURCE_ID
    refutation_counterexamples = (
        ("50:as-printed", ("observed order", "not 2")),
        ("142:gd-as-printed", ("printed (142)", "corrected")),
    )


class _Stop(Exception):
    """Raised by the stand-ins of the simulations the warm-up does not run."""


def test_the_warm_up_runs_exactly_the_endpoints_its_claims_share(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Which claims read endpoint_errors(depth), found by running each check
    # against a stand-in that records the depths asked for (its numbers are
    # made up: only what is read matters here, not the verdicts).
    asked: list[int] = []

    def record(depth: int) -> EndpointErrors:
        asked.append(depth)
        alphas = np.array([10**-1.5, 1e-2, 10**-2.5])
        names = ("scratch", "linear", "finetune", "printed", "rank-one", "first-layer")
        return EndpointErrors(alphas, {name: alphas.copy() for name in names}, depth)

    monkeypatch.setattr(section_3_gradient_descent, "endpoint_errors", record)
    readers: dict[int, set[str]] = {2: set(), 3: set()}
    section_3_gradient_descent._shared_endpoint_errors.cache_clear()
    try:
        for claim in CLAIMS:
            if claim.slow:
                continue
            section_3_gradient_descent._shared_endpoint_errors.cache_clear()
            del asked[:]
            with contextlib.suppress(_Stop):
                claim.check()
            for depth in asked:
                readers[depth].add(claim.id)
        assert {d: frozenset(ids) for d, ids in readers.items()} == (
            section_3_gradient_descent._ENDPOINT_READERS
        )
        # Two readers or more: run once, shared; one alone computes it itself.
        section_3_gradient_descent._shared_endpoint_errors.cache_clear()
        del asked[:]
        only_three = sorted(readers[3] - readers[2])
        section_3_gradient_descent.warm_up(only_three[:1])
        assert asked == []
        section_3_gradient_descent.warm_up(only_three[:2])
        assert asked == [3]
        claim = next(c for c in CLAIMS if c.id == only_three[0])
        claim.check()
        assert asked == [3]
    finally:
        section_3_gradient_descent._shared_endpoint_errors.cache_clear()
