"""The scratch-risk claims of features-are-fate ((95)-(102)): expected verdicts."""

from __future__ import annotations

import pytest
import sympy as sp

from tests.claims.verdict_suites import (
    EquationsCovered,
    ExactSymbolicClaims,
    ExpectedVerdicts,
    ShiftDetection,
)
from implicit_bias.claims.checks import RelationCheck
from implicit_bias.claims.engine import Basis, Claim, Kind, Result, Status
from implicit_bias.sources.features_are_fate.random_matrix import (
    CLAIMS as MODULE_CLAIMS,
)
from implicit_bias.sources.features_are_fate.random_matrix import DERIVATIONS
from implicit_bias.theory import transfer_asymptotics as theory

CLAIMS = MODULE_CLAIMS + tuple(c for d in DERIVATIONS for c in d.claims)


#: The steps of Appendix B this module covers: the scratch risk (95)-(102).
COVERED = {
    "95",
    "100",
    "101",
    "102",
}


class TestClaims(
    ExpectedVerdicts, EquationsCovered, ExactSymbolicClaims, ShiftDetection
):
    claims = CLAIMS
    equations = COVERED
    #: Cheap numeric claims whose decision goes through check_close.
    shifted = ("95:finite-scratch-rate", "95:finite-scratch-risk")

    def test_symbolic_holds_are_proofs(self, results: dict[str, Result]) -> None:
        for result in results.values():
            if (
                result.claim.kind in (Kind.IDENTITY, Kind.LIMIT)
                and result.verdict.status == Status.HOLDS
            ):
                assert result.verdict.basis == Basis.PROOF, result.claim.id

    def test_the_inverse_trace_chain_is_the_printed_proof(
        self,
        results: dict[str, Result],
    ) -> None:
        (chain,) = DERIVATIONS
        # (100) with the printed (101) substituted, then (102) times -gamma.
        assert chain.expressions() == [
            -theory.gamma_ratio
            * sp.Limit(theory.stieltjes_eq101(), theory.z, 0, dir="+-"),
            theory.inverse_trace_limit(),
        ]
        (step,) = chain.claims
        assert step.id == "features-are-fate:102:inverse-trace-step-1"
        assert results[step.id].verdict.status == Status.HOLDS


@pytest.mark.parametrize(
    "claim",
    [c for c in CLAIMS if isinstance(c.check, RelationCheck)],
    ids=lambda c: c.id,
)
def test_relation_checks_judge_the_printed_formula(claim: Claim) -> None:
    assert isinstance(claim.check, RelationCheck)
    assert claim.formula is claim.check.relation


def test_the_limit_judge_refutes_a_wrong_value() -> None:
    (step,) = DERIVATIONS[0].claims
    assert isinstance(step.check, RelationCheck)
    relation = step.check.relation()
    wrong = sp.Eq(relation.lhs, theory.gamma_ratio / (1 + theory.gamma_ratio))
    assert step.check.judge(wrong).status == Status.FAILS


def _one_root_form(
    sign: int = -1,
    constant: sp.Expr = 1 - theory.gamma_ratio,
    upper_sign: int = -1,
    lower_sign: int = -1,
    scale_power: int = 1,
) -> sp.Expr:
    lower, upper = theory.marchenko_pastur_edges()
    root = sp.sqrt((theory.z + upper_sign * upper) * (theory.z + lower_sign * lower))
    numerator = theory.z - constant + sign * root
    return numerator / (2 * theory.gamma_ratio * theory.z**scale_power)


#: The altered theory functions (issue 20's mutation of the theory layer) that
#: 101:stieltjes-branch let through while it only asked the one-root form to
#: differ from the transform somewhere.
_ONE_ROOT_MUTANTS = {
    "+ sqrt": _one_root_form(sign=1),
    "z + (1 - gamma)": _one_root_form(constant=theory.gamma_ratio - 1),
    "1 + gamma": _one_root_form(constant=1 + theory.gamma_ratio),
    "z + upper": _one_root_form(upper_sign=1),
    "z + lower": _one_root_form(lower_sign=1),
    "2 gamma / z": _one_root_form(scale_power=-1),
}


def test_the_one_root_form_is_the_unaltered_one() -> None:
    assert sp.simplify(_one_root_form() - theory.stieltjes_eq101_single_root()) == 0


@pytest.mark.parametrize("mutant", list(_ONE_ROOT_MUTANTS), ids=str)
def test_the_branch_check_notices_an_altered_one_root_form(
    mutant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The one-root form must be the transform above lambda_+ and the
    # quadratic's other root below lambda_-, not just differ somewhere.
    monkeypatch.setattr(
        theory, "stieltjes_eq101_single_root", lambda: _ONE_ROOT_MUTANTS[mutant]
    )
    (claim,) = [c for c in CLAIMS if c.id.endswith(":101:stieltjes-branch")]
    assert claim.check().status != Status.HOLDS


def _inverse_trace(
    below: sp.Expr | None = None, above: sp.Expr | None = None
) -> sp.Expr:
    n, d = theory.n, theory.d
    return sp.Piecewise(
        (n / (d - n - 1) if below is None else below, n < d - 1),
        (d / (n - d - 1) if above is None else above, n > d + 1),
        (sp.oo, True),
    )


#: Altered inverse_trace_finite that 100:inverse-trace-limit let through while
#: it took only the d -> oo limit of the first branch.
_INVERSE_TRACE_MUTANTS = {
    "n/(d - n + 1)": _inverse_trace(below=theory.n / (theory.d - theory.n + 1)),
    "n/(d - n - 2)": _inverse_trace(below=theory.n / (theory.d - theory.n - 2)),
    "d (n - d - 1)": _inverse_trace(above=theory.d * (theory.n - theory.d - 1)),
    "d/(n - d + 1)": _inverse_trace(above=theory.d / (theory.n - theory.d + 1)),
    "d/(n - d - 2)": _inverse_trace(above=theory.d / (theory.n - theory.d - 2)),
}


def test_the_inverse_trace_stand_in_is_the_unaltered_one() -> None:
    assert _inverse_trace() == theory.inverse_trace_finite()


@pytest.mark.parametrize("mutant", list(_INVERSE_TRACE_MUTANTS), ids=str)
def test_the_inverse_trace_check_notices_an_altered_finite_value(
    mutant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    altered = _INVERSE_TRACE_MUTANTS[mutant]

    def finite(samples: sp.Expr = theory.n, dimension: sp.Expr = theory.d) -> sp.Expr:
        return altered.subs({theory.n: samples, theory.d: dimension}, simultaneous=True)

    monkeypatch.setattr(theory, "inverse_trace_finite", finite)
    (claim,) = [c for c in CLAIMS if c.id.endswith(":100:inverse-trace-limit")]
    verdict = claim.check()
    # An exact counterexample at integer n, d.
    assert verdict.status == Status.FAILS, verdict.detail
