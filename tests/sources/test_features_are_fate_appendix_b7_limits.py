"""The claims of features-are-fate's Appendix B.7, (131)-(141): expected verdicts."""

from __future__ import annotations

import sympy as sp

from tests.claims.verdict_suites import (
    EquationsCovered,
    ExactSymbolicClaims,
    ExpectedVerdicts,
    JudgeRefutations,
    RefutationDetails,
    ShiftDetection,
)
from implicit_bias.claims.engine import Result, Status
from implicit_bias.sources.features_are_fate.appendix_b7_limits import (
    CLAIMS as MODULE_CLAIMS,
)
from implicit_bias.sources.features_are_fate.appendix_b7_limits import DERIVATIONS
from implicit_bias.theory import transfer_asymptotics as theory

CLAIMS = MODULE_CLAIMS + tuple(c for d in DERIVATIONS for c in d.claims)


#: The steps of the proof of Theorem 3.8 this module covers: (131)-(141).
COVERED = {
    "131",
    "132",
    "133",
    "133-134",
    "134",
    "135",
    "137",
    "138",
    "139",
    "140",
    "141",
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
        ("137:as-printed", ("2**(n/2)*pi**(n/2)", "9792.6")),
        ("141:strictly-increasing", ("2*lambda*cos(theta)**2/(lambda + 1)**3", "= 1")),
    )
    #: Numeric and simulation claims whose decision goes through check_close.
    shifted = ("134:laplace-accuracy",)
    judge_refutations = (
        ("131:i1-laplace-step-1", "lhs: exponent of (lambda*n + r**2)**(-2) -> -3"),
        ("132:i1-laplace-step-2", "lhs: exponent of (lambda*n + 2*u)**(-2) -> -3"),
        ("133:i1-laplace-step-3", "lhs: exponent of (lambda*n + 2*n*t)**(-2) -> -3"),
        ("135:saddle-value", "lhs: exponent of (lambda*n + n)**(-2) -> -3"),
    )

    def test_the_laplace_chain_is_the_printed_proof(
        self, results: dict[str, Result]
    ) -> None:
        (chain,) = DERIVATIONS
        n, r, u, t = theory.n, theory.r, theory.u, theory.t
        expressions = chain.expressions()
        # (129) for I_1(n) with S_{n-1}/(2 pi)^{n/2} set aside, as the text does.
        assert expressions[0] == sp.Integral(
            r ** (n + 1) * sp.exp(-(r**2) / 2) / (r**2 + n * theory.lam) ** 2,
            (r, 0, sp.oo),
        )
        assert expressions[1:3] == [
            sp.Integral(theory.ridge_i1_eq131(), (u, 0, sp.oo)),
            sp.Integral(theory.ridge_i1_eq132(), (t, 0, sp.oo)),
        ]
        assert expressions[3] == n * (2 * n) ** (n / 2) * sp.Integral(
            theory.laplace_prefactor() * sp.exp(n * theory.laplace_exponent()),
            (t, 0, sp.oo),
        )
        statuses = [results[c.id].verdict.status for c in chain.claims]
        assert statuses == [Status.HOLDS] * 3
