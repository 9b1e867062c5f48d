"""Test suites shared by the tests of the claim modules, as mixin classes.

A claim module's test file gathers the suites it needs in one ``Test...``
class and gives it the module's ``claims`` and what each suite reads (labels,
needles, equations)::

    class TestClaims(ExpectedVerdicts, ExactSymbolicClaims, ShiftDetection):
        claims = CLAIMS
        shifted = ("13:boundaries-numeric",)

The claims are run once for the class (the ``results`` fixture, the quick
claims' results by id); the module's own tests that read them are methods of
the class. A label is a claim's id without its source
(``"13:boundaries-numeric"``).

The suites' parametrized arguments are read off the test class by
:meth:`ClaimSuite.pytest_generate_tests` (pytest calls a test class's own hook),
which asks each suite in the class's MRO to parametrize its own tests: a
suite elsewhere (a source's own checks) subclasses :class:`ClaimSuite` and
defines ``parametrize_suite`` the same way.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import ClassVar

import pytest
import sympy as sp

from implicit_bias.claims.engine import Basis, Claim, Kind, Result, Status, run_claims
from tests.claims.claim_checks import (
    assert_detail_mentions,
    assert_failures_are_refutations,
    assert_judge_refutes,
    assert_shift_detected,
    assert_symbolic_claims_exact,
    quick,
    quick_results,
)


def claim_labelled(claims: Sequence[Claim], label: str) -> Claim:
    """The one claim of ``claims`` whose id is ``source:label``."""
    (claim,) = [c for c in claims if c.id == f"{c.source}:{label}"]
    return claim


def _claim_id(claim: Claim) -> str:
    return claim.id


class ClaimSuite:
    """The base of the suites: the claims under test, and the hook that lets
    each suite parametrize its own tests from the test class's attributes
    (its ``parametrize_suite``)."""

    claims: ClassVar[Sequence[Claim]] = ()

    @pytest.fixture(scope="class")
    @classmethod
    def results(cls) -> dict[str, Result]:
        """The quick claims' results by id, run once for the class."""
        return quick_results(cls.claims)

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        for suite in type(self).__mro__:
            parametrize_suite = vars(suite).get("parametrize_suite")
            if parametrize_suite is not None:
                parametrize_suite(self, metafunc)

    def parametrize_suite(self, metafunc: pytest.Metafunc) -> None:
        if "claim" in metafunc.fixturenames:
            metafunc.parametrize("claim", quick(self.claims), ids=_claim_id)


class ExpectedVerdicts(ClaimSuite):
    """Every quick claim returns its expected verdict; every ``fails`` is a
    refutation (:func:`~tests.claims.claim_checks.assert_failures_are_refutations`)."""

    def test_verdict_is_the_expected_one(
        self, claim: Claim, results: dict[str, Result]
    ) -> None:
        result = results[claim.id]
        assert result.as_expected, (result.verdict.status, result.verdict.detail)

    def test_failures_are_refutations(self, results: dict[str, Result]) -> None:
        assert_failures_are_refutations(results)


class SlowVerdicts(ClaimSuite):
    """The slow claims (left out of the default run) return their verdicts."""

    def parametrize_suite(self, metafunc: pytest.Metafunc) -> None:
        if "slow_claim" in metafunc.fixturenames:
            slow = [c for c in self.claims if c.slow]
            metafunc.parametrize("slow_claim", slow, ids=_claim_id)

    @pytest.mark.slow
    def test_slow_verdict_is_the_expected_one(self, slow_claim: Claim) -> None:
        (result,) = run_claims([slow_claim])
        assert result.as_expected, (result.verdict.status, result.verdict.detail)


class ExactSymbolicClaims(ClaimSuite):
    """A symbolic claim that holds was shown exactly."""

    def test_symbolic_claims_are_exact(self, results: dict[str, Result]) -> None:
        assert_symbolic_claims_exact(results)


class EquationsCovered(ClaimSuite):
    """The claims are those of exactly the equations in the module's scope."""

    equations: ClassVar[Collection[str]]

    def test_every_equation_in_scope_has_a_claim(self) -> None:
        assert {c.equation for c in self.claims} == set(self.equations)


class RefutationDetails(ClaimSuite):
    """A refuted claim's detail names its evidence (``refutation_details``)."""

    #: (label, what the refutation's detail names) pairs.
    refutation_details: ClassVar[Sequence[tuple[str, Sequence[str]]]]

    def parametrize_suite(self, metafunc: pytest.Metafunc) -> None:
        if "detail_needles" in metafunc.fixturenames:
            metafunc.parametrize(
                ("refuted", "detail_needles"),
                self.refutation_details,
                ids=[label for label, _ in self.refutation_details],
            )

    def test_failures_report_the_counterexample(
        self, refuted: str, detail_needles: Sequence[str], results: dict[str, Result]
    ) -> None:
        result = results[claim_labelled(self.claims, refuted).id]
        # The evidence is the one of the refutation, not of another outcome.
        assert result.verdict.status == Status.FAILS, result.verdict.detail
        assert_detail_mentions(result, detail_needles)


class RefutationCounterexamples(ClaimSuite):
    """A refuted claim's counterexample names its evidence
    (``refutation_counterexamples``)."""

    #: (label, what the counterexample names) pairs.
    refutation_counterexamples: ClassVar[Sequence[tuple[str, Sequence[str]]]]

    def parametrize_suite(self, metafunc: pytest.Metafunc) -> None:
        if "counterexample_needles" in metafunc.fixturenames:
            metafunc.parametrize(
                ("refuted", "counterexample_needles"),
                self.refutation_counterexamples,
                ids=[label for label, _ in self.refutation_counterexamples],
            )

    def test_failures_write_the_counterexample(
        self,
        refuted: str,
        counterexample_needles: Sequence[str],
        results: dict[str, Result],
    ) -> None:
        # The counterexample is written only when the check refutes the claim.
        verdict = results[claim_labelled(self.claims, refuted).id].verdict
        assert verdict.status == Status.FAILS, verdict.detail
        assert verdict.counterexample is not None
        for needle in counterexample_needles:
            assert needle in verdict.counterexample, (refuted, needle)


class MeasuredRefutations(RefutationCounterexamples):
    """A refuted simulation's counterexample gives the numbers measured."""

    def parametrize_suite(self, metafunc: pytest.Metafunc) -> None:
        if "measured" in metafunc.fixturenames:
            measured = [label for label, _ in self.refutation_counterexamples]
            metafunc.parametrize("measured", measured)

    def test_failures_report_the_numbers(
        self, measured: str, results: dict[str, Result]
    ) -> None:
        verdict = results[claim_labelled(self.claims, measured).id].verdict
        assert verdict.counterexample is not None
        assert re.search(r"\d\.\d", verdict.counterexample), verdict.counterexample


class ShiftDetection(ClaimSuite):
    """Every value the ``shifted`` claims compare, moved by five tolerances
    either way, turns their verdicts away from ``holds``."""

    #: Labels of the claims deciding through check_close.
    shifted: ClassVar[Sequence[str]]

    def parametrize_suite(self, metafunc: pytest.Metafunc) -> None:
        if "shifted_label" in metafunc.fixturenames:
            metafunc.parametrize("shifted_label", list(self.shifted))

    @pytest.mark.parametrize("factor", [5.0, -5.0])
    def test_a_shift_of_five_tolerances_is_detected(
        self, shifted_label: str, factor: float
    ) -> None:
        assert_shift_detected(claim_labelled(self.claims, shifted_label), factor)


class JudgeRefutations(ClaimSuite):
    """The check takes its relation as input: a one-step error in the relation
    (one of mutation testing's symbolic mutants) is refuted."""

    #: (label, the change a symbolic mutant makes) pairs.
    judge_refutations: ClassVar[Sequence[tuple[str, str]]]

    def parametrize_suite(self, metafunc: pytest.Metafunc) -> None:
        if "mutation" in metafunc.fixturenames:
            metafunc.parametrize(("judged", "mutation"), list(self.judge_refutations))

    def test_the_judge_refutes_a_wrong_relation(
        self, judged: str, mutation: str
    ) -> None:
        assert_judge_refutes(claim_labelled(self.claims, judged), mutation)


class ExactOrCertifiedRefutations(ClaimSuite):
    """A refuted closed-form claim rests on a proof or a certificate, and every
    decided verdict names its basis."""

    def test_refutations_are_exact_or_certified(
        self, claim: Claim, results: dict[str, Result]
    ) -> None:
        verdict = results[claim.id].verdict
        if verdict.status == Status.FAILS:
            assert verdict.counterexample
            if claim.kind in (Kind.IDENTITY, Kind.INEQUALITY, Kind.NUMERIC):
                assert verdict.basis in (Basis.PROOF, Basis.CERTIFIED)
        if verdict.status != Status.INCONCLUSIVE:
            assert verdict.basis is not None


class SimulationVerdicts(ClaimSuite):
    """The claims are simulations of ``source_id``, each decided verdict rests
    on runs, and each ``fails`` names its counterexample."""

    source_id: ClassVar[str]

    def test_claims_are_simulations_of_this_source(self) -> None:
        assert {c.source for c in self.claims} == {self.source_id}
        assert {c.kind for c in self.claims} == {Kind.SIMULATION}
        assert len({c.id for c in self.claims}) == len(self.claims)

    def test_decided_verdicts_rest_on_runs(
        self, claim: Claim, results: dict[str, Result]
    ) -> None:
        verdict = results[claim.id].verdict
        if verdict.status != Status.INCONCLUSIVE:
            assert verdict.basis in (Basis.STATISTICAL, Basis.NUMERICAL), claim.id
        if verdict.status == Status.FAILS:
            assert verdict.counterexample, claim.id


class GlyphedFormulas(ClaimSuite):
    """Each claim's formula is a relation (or a conjunction of relations) in
    the source's glyphed symbols (``glyphs``)."""

    glyphs: ClassVar[Collection[sp.Symbol]]

    def test_formulas_use_glyphed_symbols(self) -> None:
        glyphs = set(self.glyphs)
        for claim in self.claims:
            if claim.formula is not None:
                formula = claim.formula()
                # A relation, or a conjunction of relations (several compared pairs).
                parts = formula.args if isinstance(formula, sp.And) else (formula,)
                assert all(isinstance(p, sp.core.relational.Relational) for p in parts)
                symbols = {s for s in formula.free_symbols if isinstance(s, sp.Symbol)}
                assert symbols <= glyphs, (claim.id, symbols - glyphs)
