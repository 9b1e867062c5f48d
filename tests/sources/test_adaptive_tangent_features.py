"""The symbolic and numeric claims of adaptive-tangent-features give their verdicts."""

from __future__ import annotations

import re

import pytest
import sympy as sp

from implicit_bias.sources.adaptive_tangent_features import (
    SOURCE,
    appendix_a,
    numeric,
    symbolic,
)
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Result,
    Status,
    Verdict,
    run_claims,
    unique_ids,
)
from implicit_bias.claims.checks import judge_relation
from implicit_bias.theory import tangent_features as tf
from tests.claims.claim_checks import assert_failures_are_refutations

STEPS = tuple(claim for chain in appendix_a.DERIVATIONS for claim in chain.claims)
CLAIMS = symbolic.CLAIMS + numeric.CLAIMS + STEPS
QUICK = [claim for claim in CLAIMS if not claim.slow]

#: Equations and statements of the paper this module must cover (the brief's
#: scope: (8)-(9), (11)-(12), (17)-(18), Propositions 3-4, Lemma 5 (27)-(29),
#: A.1 (21)-(22), the proof of Proposition 3 and (24)-(26); and (13), (20)).
COVERED = {
    "6",
    "8",
    "9",
    "11",
    "12",
    "13",
    "17-18",
    "20",
    "21",
    "22",
    "23",
    "24",
    "25",
    "26",
    "27",
    "28-29",
    "prop-3",
    "prop-3-proof",
    "prop-4",
    "fig-2",
    "sec-3.1",
}


@pytest.fixture(scope="module")
def results() -> dict[str, Result]:
    return {result.claim.id: result for result in run_claims(QUICK)}


def test_claims_belong_to_the_source_and_have_unique_ids() -> None:
    assert {claim.source for claim in CLAIMS} == {SOURCE_ID}
    assert len(unique_ids(CLAIMS)) == len(CLAIMS)
    assert {claim.kind for claim in numeric.CLAIMS} == {Kind.NUMERIC}


@pytest.mark.parametrize("claim", QUICK, ids=lambda claim: claim.id)
def test_verdict_is_the_expected_one(claim: Claim, results: dict[str, Result]) -> None:
    result = results[claim.id]
    assert result.as_expected, (result.verdict.reason, result.verdict.detail)
    if result.verdict.status != Status.INCONCLUSIVE:
        assert result.verdict.basis is not None, claim.id


def test_every_scoped_equation_has_a_claim() -> None:
    assert {claim.equation for claim in CLAIMS} >= COVERED


@pytest.mark.parametrize(
    ("claim_id", "needles"),
    [
        ("sec-3.1:l1-as-value", ["2 |beta|", "2||.||_1"]),
        ("17-18:as-printed", ["a1**2*b2**2 - 1", "j = k"]),
        ("prop-3:strict-increase-as-proved", ["not attained", "omega~(2) = omega~(3)"]),
        ("prop-3-proof:conjugate-as-printed", ["-> oo", "+oo"]),
        ("26:case-split-as-printed", ["3/2", "-2*v**2 < 0"]),
        ("27:alignment-as-printed", ["55249/260100", "33409/260100"]),
    ],
)
def test_failures_report_residual_or_counterexample(
    claim_id: str, needles: list[str], results: dict[str, Result]
) -> None:
    verdict = results[f"{SOURCE_ID}:{claim_id}"].verdict
    assert verdict.status == Status.FAILS
    # A refutation rests on exact or certified arithmetic and names its point.
    assert verdict.basis in (Basis.PROOF, Basis.CERTIFIED)
    assert verdict.counterexample
    for needle in needles:
        assert needle in verdict.detail


def test_symbolic_claims_are_exact_where_sympy_decides(
    results: dict[str, Result],
) -> None:
    # Only the radical (Ferrari) root is checked numerically, at 50 digits, and
    # the second-order condition in ball arithmetic at sampled points.
    inexact = {"squared-radicals": Basis.NUMERICAL, "power-minimum": Basis.CERTIFIED}
    for claim in symbolic.CLAIMS + STEPS:
        basis = results[claim.id].verdict.basis
        assert basis == inexact.get(claim.label, Basis.PROOF), claim.id


def test_every_claim_has_a_formula_in_paper_notation() -> None:
    glyphs = dict(SOURCE.glyphs)
    for claim in SOURCE.all_claims():
        assert claim.formula is not None, claim.id
        formula = claim.formula()
        symbols = {s for s in formula.free_symbols if not isinstance(s, sp.Indexed)}
        assert symbols <= set(glyphs), (claim.id, symbols - set(glyphs))
        text = sp.latex(formula, symbol_names=glyphs)
        assert not re.search(r"omega_tilde|(?<!\\)beta|_star|_norm|_GD", text), claim.id


def test_failures_are_refutations(results: dict[str, Result]) -> None:
    assert_failures_are_refutations(results)


def _refuted(verdict: Verdict) -> bool:
    return (
        verdict.status == Status.FAILS
        and verdict.basis in (Basis.PROOF, Basis.CERTIFIED)
        and bool(verdict.counterexample)
    )


def test_eq13_refutes_the_other_kronecker_order() -> None:
    # (z^T M) (x) I_C on a column-stacked vec(W_L) is not the output W_L^T M z.
    def swapped(features: sp.Matrix, m1: sp.Matrix, outputs: int) -> sp.Matrix:
        return sp.kronecker_product(features.T * m1, sp.eye(outputs))

    assert _refuted(symbolic._eq13_verdict(swapped))


def test_eq13_needs_a_symmetric_transformation() -> None:
    # With z_theta = M z_theta0 and M not symmetric, (13) is W^T M^T z, not
    # W^T M z: the regime (M_L^(1) symmetric) is what the claim holds on.
    verdict = symbolic._eq13_verdict(
        symbolic._eq13_features_as_printed, symmetric=False
    )
    assert _refuted(verdict)


def test_eq20_final_features_are_not_the_average() -> None:
    # grad f_0 M_theta (the transformation at the end of the path) in place of
    # the path average: Section 4's "average features vs. final features".
    _, average = symbolic._eq20_relations()
    final = average.rhs.replace(
        lambda node: isinstance(node, sp.Integral),
        lambda node: node.function.subs(symbolic.t, 1),
    )
    verdict = judge_relation(sp.Eq(average.lhs, final, evaluate=False))
    assert _refuted(verdict)


# -- checks that can fail: a visibly wrong theory formula is refuted (issue 20)


def _check_of(label: str) -> Claim:
    (claim,) = [
        claim for claim in symbolic.CLAIMS if claim.id == f"{SOURCE_ID}:{label}"
    ]
    return claim


def _wrong_transform(vector: sp.Matrix, scale: sp.Expr = tf.s) -> sp.Matrix:
    # Eq. (8) with s - 2 for s - 1: M_hat beta = (s - 1) beta.
    return sp.eye(vector.rows) + (scale - 2) * tf.unit_projector(vector)


def _wrong_parameters(vector: sp.Matrix, scale: sp.Expr = tf.s) -> sp.Matrix:
    # Eq. (8) with s^-2 for s^-1.
    return vector / scale**2


def _wrong_identity_part(vector: sp.Matrix, scale: sp.Expr = tf.s) -> sp.Matrix:
    # Eq. (8) with 2 I_P: the directions orthogonal to beta are doubled.
    return 2 * sp.eye(vector.rows) + (scale - 1) * tf.unit_projector(vector)


def _wrong_effective_parametric(
    argument: sp.Expr, value: sp.Expr, parameter: sp.Symbol
) -> tuple[sp.Expr, sp.Expr]:
    # The stationary u = omega' z^3 / (2 z') of (12) without its 1/2.
    stationary = sp.factor(
        sp.diff(value, parameter) * argument**3 / sp.diff(argument, parameter)
    )
    return stationary, sp.factor(sp.expand(value + stationary / argument**2))


@pytest.mark.parametrize(
    ("label", "function", "wrong"),
    [
        ("8:interpolates", "theorem1_transform", _wrong_transform),
        ("8:interpolates", "theorem1_parameters", _wrong_parameters),
        ("8:spectrum", "theorem1_transform", _wrong_transform),
        ("8:spectrum", "theorem1_transform", _wrong_identity_part),
        ("8:objective", "theorem1_parameters", _wrong_parameters),
        (
            "8:objective",
            "effective_objective",
            lambda omega, z_value, v_value: omega(z_value) + v_value**2 / z_value,
        ),
        ("9:adapted-kernel", "theorem1_transform", _wrong_transform),
        ("9:adapted-kernel", "theorem1_transform", _wrong_identity_part),
        (
            "fig-2:join-cardano",
            "squared_absolute_join_parametric",
            # v = 3 z^2 (z - 1) for 2 z^2 (z - 1): the root is solved from it.
            lambda: (3 * tf.z**2 * (tf.z - 1), 3 * tf.z**2 - 4 * tf.z),
        ),
        (
            "fig-2:join-closed-form",
            "squared_absolute_join_parametric",
            lambda: (3 * tf.z**2 * (tf.z - 1), 3 * tf.z**2 - 4 * tf.z),
        ),
        (
            "fig-2:join-closed-form",
            "join_objective",
            # omega_2 counted twice in (11): the curve and the kink move with it.
            lambda omega1, omega2, z_value, v_value: (
                omega1(z_value) + 2 * omega2(v_value / z_value)
            ),
        ),
        ("fig-2:join-closed-form", "join_kink", lambda: 1 + sp.sqrt(3) / 2),
        (
            "fig-2:omega3-tilde-closed-form",
            "squared_absolute_tilde_parametric",
            lambda: (4 * tf.z**5 * (tf.z - 1) ** 3, 4 * tf.z**2 - 4 * tf.z),
        ),
        (
            "fig-2:omega3-tilde-closed-form",
            "effective_parametric",
            _wrong_effective_parametric,
        ),
    ],
)
def test_a_wrong_theory_formula_fails(
    label: str, function: str, wrong: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: holds (join-cardano: the root solved from the wrong cubic solves
    # it) or inconclusive (the others: "SymPy did not simplify it to 0", or
    # "name 'omega' is not defined"; join-closed-form and
    # omega3-tilde-closed-form: "convexity ..., end slope at kink ...",
    # "envelope - 1/z = ...").
    monkeypatch.setattr(tf, function, wrong)
    verdict = _check_of(label).check()
    assert verdict.status == Status.FAILS, verdict
    assert verdict.basis in (Basis.PROOF, Basis.CERTIFIED)
    assert verdict.counterexample
