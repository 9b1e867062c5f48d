"""The linear-transfer claims of features-are-fate ((108)-(120)): expected verdicts."""

from __future__ import annotations

import pytest
import sympy as sp

from tests.claims.verdict_suites import (
    EquationsCovered,
    ExactSymbolicClaims,
    ExpectedVerdicts,
    JudgeRefutations,
    RefutationDetails,
    ShiftDetection,
    claim_labelled,
)
from implicit_bias.claims.engine import Result, Status
from implicit_bias.sources.features_are_fate.linear_transfer import (
    CLAIMS as MODULE_CLAIMS,
)
from implicit_bias.sources.features_are_fate.linear_transfer import DERIVATIONS
from implicit_bias.theory import transfer_asymptotics as theory

CLAIMS = MODULE_CLAIMS + tuple(c for d in DERIVATIONS for c in d.claims)


#: The steps of Appendix B this module covers: linear transfer (108)-(120).
COVERED = {
    "108-109",
    "111",
    "113",
    "115",
    "116",
    "117",
    "118",
    "119",
    "120",
}


class TestClaims(
    ExpectedVerdicts,
    EquationsCovered,
    ExactSymbolicClaims,
    RefutationDetails,
    ShiftDetection,
    JudgeRefutations,
):
    claims = CLAIMS
    equations = COVERED
    refutation_details = (
        ("117:inverse-norm-step-1", ("['oo', 'oo', 'oo']", "e^(+r^2/2)")),
        ("118:inverse-norm-step-2", ("exp(2*t)", "certified")),
    )
    #: Numeric and simulation claims whose decision goes through check_close.
    shifted = ("120:linear-transfer-exact",)
    judge_refutations = (
        ("118:substitution", "lhs: 2 -> 2 + 1"),
        ("119:inverse-norm-step-3", "rhs: term n/2 dropped"),
        ("120:inverse-norm-step-4", "lhs: term n/2 dropped"),
    )

    def test_the_inverse_norm_chain_is_the_printed_proof(
        self,
        results: dict[str, Result],
    ) -> None:
        (chain,) = DERIVATIONS
        # The printed (116)-(120) as the theory module transcribes them, in order.
        assert chain.expressions() == [
            theory.inverse_norm_eq116(),
            theory.inverse_norm_eq117(),
            theory.inverse_norm_eq118(),
            theory.inverse_norm_eq119(),
            theory.inverse_norm_eq120(),
        ]
        # As printed, (117) has e^{+r^2/2}: the steps into and out of it fail.
        assert chain.expressions()[1].has(sp.exp(theory.r**2 / 2))
        expected = [Status.FAILS, Status.FAILS, Status.HOLDS, Status.HOLDS]
        assert [c.expected for c in chain.claims] == expected
        assert [results[c.id].verdict.status for c in chain.claims] == expected


@pytest.mark.parametrize("label", ["113:mean", "115:second-moment"])
def test_the_moment_checks_notice_an_altered_coefficient(
    label: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The mutant b = numerator * ||z||^2 (issue 20's theory mutation) kept the
    # theory's moments, which the checks compared alone; they now also
    # integrate the coefficient b itself.
    original = theory.conditional_coefficient_moments

    def altered(samples: int = 3) -> tuple[sp.Expr, sp.Expr, sp.Expr, list[sp.Symbol]]:
        b, first, second, coordinates = original(samples)
        norm_squared = sum(c**2 for c in coordinates)
        return b * norm_squared**2, first, second, coordinates

    monkeypatch.setattr(theory, "conditional_coefficient_moments", altered)
    verdict = claim_labelled(CLAIMS, label).check()
    assert verdict.status == Status.FAILS, verdict.detail
