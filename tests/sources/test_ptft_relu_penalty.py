"""Every claim of ptft-relu-penalty returns the verdict the registry expects."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest
import sympy as sp

from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Result,
    Status,
    run_claims,
)
from implicit_bias.claims.registry import get_claim
from implicit_bias.sources.ptft_relu_penalty import (
    SOURCE,
    derivation,
    penalty,
    reduction,
    section_1_2,
)
from implicit_bias.theory import relu_penalty as theory
from implicit_bias.theory.symbols import gamma, m, m0, rho, u
from tests.claims.claim_checks import assert_failures_are_refutations

# Eqs. (2)-(11) and Section 1.2, with the steps of the chains of eqs. (5)-(10);
# the Fig. 1c simulations have their own test file.
CHAINS = reduction.DERIVATIONS + derivation.DERIVATIONS
STEPS = tuple(c for chain in CHAINS for c in chain.claims)
CLAIMS = (
    reduction.CLAIMS + derivation.CLAIMS + penalty.CLAIMS + section_1_2.CLAIMS + STEPS
)


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return {r.claim.id: r for r in run_claims([c for c in CLAIMS if not c.slow])}


@pytest.mark.parametrize("claim", [c for c in CLAIMS if not c.slow], ids=lambda c: c.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.as_expected, (result.verdict.status, result.verdict.detail)
    if result.verdict.status != Status.INCONCLUSIVE:
        assert result.verdict.basis is not None, claim.id


def test_every_numbered_result_or_step_4_to_11_has_a_claim_or_a_step() -> None:
    equations = {c.equation for c in CLAIMS}
    assert {"4", "6", "7", "8", "9", "10", "11", "sec-1.2"} <= equations


def test_every_failing_claim_has_a_correction() -> None:
    failing = {c.id for c in CLAIMS if c.expected == Status.FAILS}
    corrected = {c.corrects for c in CLAIMS if c.corrects}
    assert failing == corrected
    for claim in CLAIMS:
        if claim.corrects:
            assert get_claim(claim.corrects).expected == Status.FAILS


def test_counterexample_to_the_unique_root_is_reported_with_roots(
    results: dict[str, Result],
) -> None:
    verdict = results["ptft-relu-penalty:10:unique-positive-root-beyond-regime"].verdict
    assert verdict.basis == Basis.PROOF
    assert "3 positive roots" in str(verdict.counterexample)
    assert str(verdict.counterexample).count("[") == 3


def test_one_positive_root_whenever_twice_m_squared_is_at_least_gamma_to_the_4() -> (
    None
):
    # The lemma of 10:unique-root-if-small-gamma, against exact root isolation
    # at points of its hardest case (rho > 0, gamma m > 0) up to its bound.
    rng = np.random.default_rng(0)
    for _ in range(100):
        gamma_value = 10 ** rng.uniform(-2, 1)
        m_value = gamma_value**2 / np.sqrt(2) * 10 ** rng.uniform(0, 1)
        point = derivation.exact_point(
            (m_value, rng.uniform(0, 1), 10 ** rng.uniform(-3, 2), gamma_value)
        )
        if 2 * point[0] ** 2 < point[3] ** 4:
            continue
        assert len(derivation.positive_root_intervals(point)) == 1, point


def test_several_positive_roots_occur_just_below_the_bound() -> None:
    # The lemma's bound is not vacuous: three roots exist with 2 m^2 < gamma^4.
    point = (sp.Rational(1, 10**6), sp.Rational(1), sp.Rational(1), sp.Rational(1, 10))
    assert 2 * point[0] ** 2 < point[3] ** 4
    assert len(derivation.positive_root_intervals(point)) == 3


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)


def test_the_source_registers_the_chains() -> None:
    assert SOURCE.derivations == CHAINS
    ids = {c.id for c in SOURCE.all_claims()}
    assert {c.id for c in STEPS} <= ids


def test_chain_of_eqs_6_to_8_steps_through_the_printed_equations() -> None:
    chain = derivation.P_OF_U
    assert [c.id for c in chain.claims] == [
        "ptft-relu-penalty:7:p-of-u-step-1",
        "ptft-relu-penalty:8:p-of-u-step-2",
    ]
    assert [c.expected for c in chain.claims] == [Status.HOLDS, Status.HOLDS]
    assert chain.expressions() == [
        theory.deviation_eq6(),
        theory.deviation_eq7(),
        theory.deviation_eq8(),
    ]
    assert [s.quote[-3:] for s in chain.steps] == ["(7)", "(8)"]


def test_chain_of_eqs_9_and_10_steps_through_the_printed_equations() -> None:
    chain = derivation.STATIONARY_POINTS
    assert [c.id for c in chain.claims] == [
        "ptft-relu-penalty:9:stationary-points-step-1",
        "ptft-relu-penalty:10:stationary-points-step-2",
    ]
    assert [c.expected for c in chain.claims] == [Status.HOLDS, Status.HOLDS]
    start, eq9, last = chain.expressions()
    assert start == sp.Derivative(theory.deviation_eq8(), u)
    assert eq9 == theory.stationarity_eq9()
    # The printed left-hand side of eq. (10) is a factor, untouched.
    assert theory.stationarity_eq10() in last.args
    assert 2 / u**3 in last.args


@pytest.mark.parametrize(
    ("step", "wrong"),
    [
        # Eq. (8) with the sign of its cross term flipped.
        (
            "ptft-relu-penalty:8:p-of-u-step-2",
            lambda: theory.deviation_eq8() + 4 * u * m0 * rho,
        ),
        # Eq. (10) with a factor u^3 instead of u^3/2.
        (
            "ptft-relu-penalty:10:stationary-points-step-2",
            lambda: theory.stationarity_eq10() / u**3,
        ),
    ],
)
def test_a_wrong_step_is_refuted(step: str, wrong: object) -> None:
    claim = get_claim(step)
    relation = claim.check.relation()
    verdict = claim.check.judge(type(relation)(relation.lhs, wrong(), evaluate=False))
    assert verdict.status == Status.FAILS, verdict.detail
    assert verdict.counterexample


_A, _B = sp.symbols("a b")


@pytest.mark.parametrize(
    ("expression", "order"),
    [
        # r~ along the root of eq. (10) through m0 rho (the small-m branch).
        (
            theory.deviation_eq8().subs(
                u, penalty._root_series(theory.stationarity_eq10(), m, m0 * rho, 2)
            ),
            3,
        ),
        ((_A + m) / (_B - _A * m + m**3), 5),  # rational, D(0) = b
        (m**2 / (1 - m) ** 2 + _A * m, 6),
        (sp.sqrt(1 + _A * m) / (2 - m), 4),  # not rational: by sp.series
        ((1 + m) / (m + m**2), 3),  # D(0) = 0, a pole: by sp.series
    ],
)
def test_taylor_polynomial_is_the_series(expression: sp.Expr, order: int) -> None:
    """The series of r~ by power-series division matches sp.series, term by term."""
    ours = penalty._taylor_polynomial(expression, m, order)
    reference = sp.series(expression, m, 0, order).removeO()
    assert sp.expand(ours - reference) == 0


# --- checks that must see a wrong eq. (10) or eq. (6) (issue 20)


@pytest.fixture
def fresh_root_series() -> Iterator[None]:
    """The series of r~ along roots of eq. (10) are cached: recompute them for a
    test that alters eq. (10), and forget what it computed."""
    caches = (
        penalty._penalty_branch,
        penalty._penalty_small_m,
        penalty._penalty_large_m,
    )
    for cache in caches:
        cache.cache_clear()
    yield
    for cache in caches:
        cache.cache_clear()


def _quartic_rooted_at_twice_m0_rho() -> sp.Expr:
    # Eq. (10) with 2 m0 rho u^3: at m_h = 0 its positive root is 2 m0 rho.
    return -(m**2) + gamma * m * u - 2 * m0 * rho * u**3 + u**4


def _quartic_with_four_m_squared() -> sp.Expr:
    # Eq. (10) with -4 m_h^2: for large m_h its root is u ~ sqrt(2 m_h), not sqrt(m_h).
    return -4 * m**2 + gamma * m * u - m0 * rho * u**3 + u**4


def _misscaled_large_m_quartic(eps: sp.Symbol, v: sp.Symbol) -> sp.Expr:
    # The rescaled eq. (10) with the sign of its cubic term flipped: the root
    # through v = 1 that it gives is not a root of eq. (10).
    return v**4 + m0 * rho * eps * v**3 + gamma * eps * v - 1


def test_a_quartic_without_the_branch_refutes_the_small_m_branch(
    monkeypatch: pytest.MonkeyPatch, fresh_root_series: None
) -> None:
    monkeypatch.setattr(theory, "stationarity_eq10", _quartic_rooted_at_twice_m0_rho)
    verdict = get_claim("ptft-relu-penalty:11:small-m-branch").check()
    assert verdict.status == Status.FAILS, verdict.detail
    assert "eq. (10)" in verdict.detail


@pytest.mark.parametrize(
    ("name", "wrong"),
    [
        ("stationarity_eq10", _quartic_with_four_m_squared),
        ("large_m_scaled_quartic", _misscaled_large_m_quartic),
    ],
)
def test_a_wrong_quartic_refutes_the_l1_limit(
    monkeypatch: pytest.MonkeyPatch,
    fresh_root_series: None,
    name: str,
    wrong: Callable[..., sp.Expr],
) -> None:
    monkeypatch.setattr(theory, name, wrong)
    verdict = get_claim("ptft-relu-penalty:11:l1-at-infinity").check()
    assert verdict.status == Status.FAILS, verdict.detail


def _eq6_with_flipped_gamma() -> sp.Eq:
    # Eq. (6) with +gamma in the readout term.
    return sp.Eq(theory.p_of_u, (m / u + gamma) ** 2 + theory.deviation_norm_sq)


def _eq6_with_flipped_norm() -> sp.Eq:
    # Eq. (6) with the squared norm subtracted: p is unbounded below.
    return sp.Eq(theory.p_of_u, (m / u - gamma) ** 2 - theory.deviation_norm_sq)


@pytest.mark.parametrize("wrong", [_eq6_with_flipped_gamma, _eq6_with_flipped_norm])
def test_a_sign_flip_in_eq_6_refutes_the_direct_minimization(
    monkeypatch: pytest.MonkeyPatch, wrong: Callable[[], sp.Eq]
) -> None:
    monkeypatch.setattr(theory, "display_eq6", wrong)
    verdict = get_claim("ptft-relu-penalty:6:direct-minimization").check()
    assert verdict.status == Status.FAILS, verdict.detail
