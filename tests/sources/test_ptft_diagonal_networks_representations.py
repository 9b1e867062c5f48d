"""ptft-diagonal-networks, Appendix G: the participation ratio, the ENSD and CKA."""

from __future__ import annotations

from implicit_bias.claims.mutate import Outcome, mutation_outcomes
from implicit_bias.claims.registry import get_claim
from implicit_bias.sources.ptft_diagonal_networks import representations


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
