"""The conservation-law (35) and fine-tuning ((142)-(144)) claims: verdicts."""

from __future__ import annotations


from tests.claims.verdict_suites import (
    EquationsCovered,
    ExactSymbolicClaims,
    ExpectedVerdicts,
    RefutationCounterexamples,
    ShiftDetection,
    SlowVerdicts,
)
from implicit_bias.claims.engine import (
    Basis,
    Kind,
    Result,
    Status,
)
from implicit_bias.sources.features_are_fate.finetuning import CLAIMS


class TestClaims(
    ExpectedVerdicts,
    SlowVerdicts,
    EquationsCovered,
    ExactSymbolicClaims,
    RefutationCounterexamples,
    ShiftDetection,
):
    claims = CLAIMS
    #: The steps of Appendix B this module covers: the conservation law (35)
    #: and fine-tuning (142)-(144).
    equations = frozenset({"35", "142", "143-144"})
    refutation_counterexamples = (
        ("142:as-printed", ("printed (142)", "gap - |beta_GD - corrected|")),
    )
    #: Cheap numeric claims whose decision goes through check_close.
    shifted = ("143-144:orthogonal-term",)

    def test_symbolic_holds_are_proofs(self, results: dict[str, Result]) -> None:
        for result in results.values():
            if (
                result.claim.kind == Kind.IDENTITY
                and result.verdict.status == Status.HOLDS
            ):
                assert result.verdict.basis in (Basis.PROOF, Basis.CERTIFIED)
