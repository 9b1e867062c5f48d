"""Checks shared by the tests of the claim modules (one source, many modules)."""

from __future__ import annotations

from collections.abc import Iterable

from implicit_bias.claims.checks import RelationCheck, injected_bias
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Result,
    Status,
    run_claims,
)
from implicit_bias.claims.mutate import symbolic_mutants

#: Kinds whose checks are symbolic: when they hold, they hold exactly.
SYMBOLIC_KINDS = (Kind.IDENTITY, Kind.LIMIT, Kind.INEQUALITY)


def quick(claims: Iterable[Claim]) -> list[Claim]:
    """The claims the default test run checks (slow ones are marked)."""
    return [claim for claim in claims if not claim.slow]


def quick_results(claims: Iterable[Claim]) -> dict[str, Result]:
    """Run the quick claims once; results by claim id."""
    return {result.claim.id: result for result in run_claims(quick(claims))}


def assert_symbolic_claims_exact(results: dict[str, Result]) -> None:
    """A symbolic claim that holds was shown exactly, not by a numeric fallback."""
    for claim_id, result in results.items():
        if (
            result.claim.kind in SYMBOLIC_KINDS
            and result.verdict.status == Status.HOLDS
        ):
            assert "numerically" not in result.verdict.detail, claim_id


def assert_detail_mentions(result: Result, needles: Iterable[str]) -> None:
    """The verdict's evidence names each of ``needles`` (residuals, counterexamples)."""
    for needle in needles:
        assert needle in result.verdict.detail, (result.claim.id, needle)


def assert_failures_are_refutations(results: dict[str, Result]) -> None:
    """Every ``fails`` names its counterexample and rests on what may refute:
    a proof or a certificate for a closed-form statement; for a simulation,
    runs measured in standard errors, or deterministic runs (numerical)."""
    for claim_id, result in results.items():
        verdict = result.verdict
        if verdict.status != Status.FAILS:
            continue
        assert verdict.counterexample, claim_id
        allowed = (
            (Basis.STATISTICAL, Basis.NUMERICAL)
            if result.claim.kind == Kind.SIMULATION
            else (Basis.PROOF, Basis.CERTIFIED)
        )
        assert verdict.basis in allowed, claim_id


def assert_shift_detected(claim: Claim, factor: float) -> None:
    """Mutation testing's bias injection: every value the claim compares moved by
    ``factor`` tolerances must turn its verdict away from ``holds``."""
    with injected_bias(factor) as record:
        verdict = claim.check()
    assert record.comparisons > 0, claim.id
    assert verdict.status != Status.HOLDS, (claim.id, verdict.detail)


def assert_judge_refutes(claim: Claim, description: str) -> None:
    """The claim's check takes its relation: the symbolic mutant named by
    ``description`` (a one-step error in the relation) is refuted.

    ``description`` is the change alone (``"lhs: 2 -> 2 + 1"``): the first
    mutant making it is taken, whatever the context its full description
    adds (", so ... becomes ...", "(at ...)").
    """
    assert isinstance(claim.check, RelationCheck), claim.id
    mutant = next(
        m
        for m in symbolic_mutants(claim.check.relation())
        if m.description.split(", so ")[0].split(" (at ")[0] == description
    )
    verdict = claim.check.judge(mutant.relation)
    assert verdict.status == Status.FAILS, (claim.id, verdict.detail)
