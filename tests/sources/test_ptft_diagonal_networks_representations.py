"""ptft-diagonal-networks, Appendix G: the participation ratio, the ENSD and CKA."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
import sympy as sp

from implicit_bias.claims.engine import Status, Verdict
from implicit_bias.claims.mutate import Outcome, mutation_outcomes
from implicit_bias.claims.registry import get_claim
from implicit_bias.sources.ptft_diagonal_networks import representations
from implicit_bias.theory import representations as reps


def test_rotated_traces_reject_what_is_not_a_rotation() -> None:
    # The exact polynomial check of sec-G:pr-eigenvalues holds for the Cayley
    # rotation N/d and fails for a shear of it, a wrong denominator and a
    # scaled rotation (tr C would be 4 sum lambda).
    numerator, d, lambdas = representations._cayley_numerator()
    assert representations._rotated_traces_hold(numerator, d, lambdas)
    sheared = [list(row) for row in numerator]
    sheared[0][1] = sheared[0][1] + d
    assert not representations._rotated_traces_hold(sheared, d, lambdas)
    assert not representations._rotated_traces_hold(numerator, d + 1, lambdas)
    scaled = [[2 * entry for entry in row] for row in numerator]
    assert not representations._rotated_traces_hold(scaled, d, lambdas)


def test_wrong_formulas_in_the_pr_range_check_fail() -> None:
    # A mutated gap rewriting of our own argument for PR in [1, p] is named as
    # false, and leaves the claim inconclusive: it refutes the argument, not
    # the paper's range; the other mutants are refuted or still true.
    claim = get_claim("ptft-diagonal-networks:sec-G:pr-range")
    outcomes = mutation_outcomes(claim, limit=6, claim_seconds=None)
    noticed = {Outcome.KILLED, Outcome.EQUIVALENT, Outcome.UNDECIDED}
    assert all(
        "is false" in o.detail for o in outcomes if o.outcome == Outcome.UNDECIDED
    )
    assert outcomes
    assert {o.outcome for o in outcomes} <= noticed, [
        (o.description, o.detail) for o in outcomes if o.outcome not in noticed
    ]
    assert any(o.outcome != Outcome.EQUIVALENT for o in outcomes)


def _uncentred_units(scales: Sequence[sp.Expr]) -> sp.Matrix:
    # The same X^T X as uncorrelated_units, but every column has mean
    # sqrt(p) sigma_j / 2: not the example's mean-centred responses.
    block = sp.sqrt(len(scales)) * sp.diag(*scales)
    return sp.Matrix.vstack(block, block)


def _scaled_covariance(x: sp.Matrix, normalization: sp.Expr | None = None) -> sp.Matrix:
    # n X^T X instead of X^T X / n: PR and ENSD cannot tell, the variances can.
    n = sp.Integer(x.rows) if normalization is None else normalization
    return x.T * x * n


@pytest.mark.parametrize(
    ("name", "replacement"),
    [("uncorrelated_units", _uncentred_units), ("covariance", _scaled_covariance)],
)
@pytest.mark.parametrize(
    ("check", "expected"),
    [
        (representations._check_ensd_subset_equal, Status.HOLDS),
        (representations._check_ensd_disjoint, Status.HOLDS),
        (representations._check_ensd_subset_as_printed, Status.FAILS),
    ],
    ids=["subset-equal-variances", "disjoint", "subset-as-printed"],
)
def test_ensd_examples_check_their_units_are_the_stated_ones(
    name: str,
    replacement: Callable[..., sp.Matrix],
    check: Callable[[], Verdict],
    expected: Status,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The ENSD of the example is blind to centring and to the scale of C_X;
    # the example's premises (mean-centred, C_X = diag(v)) are not.
    monkeypatch.setattr(reps, name, replacement)
    assert check().status != expected


def test_unmet_premises_name_what_is_missing() -> None:
    v = sp.symbols("v_1:4", positive=True)
    scales = [sp.sqrt(x) for x in v]
    units = reps.uncorrelated_units(scales)
    assert representations._unmet_premises(units, v) == []
    (uncentred,) = representations._unmet_premises(_uncentred_units(scales), v)
    assert "not mean-centred" in uncentred
    (wrong,) = representations._unmet_premises(units, [2 * x for x in v])
    assert "C_X - diag(v)" in wrong
