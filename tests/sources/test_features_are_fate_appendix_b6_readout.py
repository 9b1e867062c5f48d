"""The claims of features-are-fate's Appendix B.6, (104)-(107), (112), (114):
expected verdicts, and their judges refute altered relations."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from implicit_bias.claims.engine import Claim, Result, Status
from implicit_bias.sources.features_are_fate.appendix_b6_readout import (
    CLAIMS,
    DERIVATIONS,
    coefficient_draws,
    tikhonov_limit,
)
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from tests.claims.claim_checks import (
    assert_failures_are_refutations,
    assert_shift_detected,
    quick_results,
)

_ALL = list(CLAIMS) + [c for d in DERIVATIONS for c in d.claims]


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return quick_results(_ALL)


def _claim(label: str) -> Claim:
    return next(c for c in _ALL if c.id == f"{SOURCE_ID}:{label}")


def test_every_item_has_a_claim() -> None:
    assert {c.equation for c in _ALL} == {
        "104",
        "105",
        "106",
        "107",
        "112",
        "114",
        "112-114",
    }


@pytest.mark.parametrize("claim", _ALL, ids=lambda c: c.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.as_expected, (result.verdict.status, result.verdict.detail)
    assert result.verdict.status == Status.HOLDS


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)


def test_pseudoinverse_judge_refutes_a_wrong_normalization() -> None:
    check = _claim("104:penrose").check
    relation = check.relation()
    # ||z|| in place of ||z||^2: the Penrose equations fail.
    norm_squared = sum(s**2 for s in relation.rhs.free_symbols if s.name[0] == "z")
    wrong = sp.Eq(
        relation.lhs,
        (relation.rhs * sp.sqrt(norm_squared)).applyfunc(sp.cancel),
        evaluate=False,
    )
    assert check.judge(wrong).status == Status.FAILS


def test_change_of_variables_judge_refutes_swapped_angles() -> None:
    check = _claim("112:change-of-variables").check
    relation = check.relation()
    theta = next(s for s in relation.rhs.free_symbols if s.name == "theta")
    swapped = relation.rhs.subs(theta, sp.pi / 2 - theta)
    verdict = check.judge(sp.Eq(relation.lhs, swapped, evaluate=False))
    assert verdict.status == Status.FAILS


def test_readout_judge_refutes_a_doubled_readout() -> None:
    step = _claim("106:readout-step-2").check
    relation = step.relation()
    doubled = sp.Eq(relation.lhs, 2 * relation.rhs, evaluate=False)
    assert step.judge(doubled).status == Status.FAILS


def test_tikhonov_limit_is_the_pseudoinverse() -> None:
    # A rank-one rational matrix: SymPy's pinv as the reference.
    matrix = sp.Matrix([[1, 2], [2, 4], [sp.Rational(1, 3), sp.Rational(2, 3)]])
    assert tikhonov_limit(matrix) == matrix.pinv().applyfunc(sp.nsimplify)


def test_both_samplers_draw_the_coefficient() -> None:
    # theta = 0, sigma = 0: y = z exactly, so b = 1 on both sides.
    for flag in (True, False):
        draws = coefficient_draws(5, 7, 0.0, 0.0, draws=10, seed=3, through_data=flag)
        np.testing.assert_allclose(draws, 1.0, rtol=1e-12)


@pytest.mark.parametrize("factor", [5.0, -5.0])
def test_a_shift_of_five_tolerances_is_detected(factor: float) -> None:
    assert_shift_detected(_claim("112-114:monte-carlo"), factor)
