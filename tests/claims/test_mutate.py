"""Mutation testing: mutants of a relation, judged by the claim's own check."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from implicit_bias.claims.checks import (
    RelationCheck,
    check_close,
    check_identity,
    relation_check,
)
from implicit_bias.claims.engine import Basis, Claim, Kind, Status, Verdict
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.claims.mutate import (
    MutantOutcome,
    Outcome,
    bias_outcomes,
    mutate_claims,
    mutation_outcomes,
    symbolic_mutants,
)

x = sp.Symbol("x", positive=True)
y = sp.Symbol("y", positive=True)


def _claim(check: object, kind: Kind = Kind.IDENTITY, label: str = "a") -> Claim:
    return Claim("test-source", "1", label, kind, "a statement", check, Status.HOLDS)  # type: ignore[arg-type]


def _binomial() -> sp.Basic:
    return sp.Eq((x - y) ** 2, x**2 - 2 * x * y + y**2, evaluate=False)


def test_every_operator_is_applied() -> None:
    descriptions = [m.description for m in symbolic_mutants(_binomial())]
    assert "lhs: exponent of (x - y)**2 -> 3" in descriptions
    assert "rhs: -2 -> -2 * 1001/1000" in descriptions
    assert "rhs: -2 -> -2 + 1" in descriptions
    assert "rhs: term -2*x*y -> 2*x*y" in descriptions
    assert "rhs: term -2*x*y dropped" in descriptions
    assert "x <-> y" in descriptions
    # A mutant that SymPy could decide stays a relation.
    assert all(isinstance(m.relation, sp.Eq) for m in symbolic_mutants(_binomial()))
    # Each mutant differs from the relation and from every other mutant.
    relations = [m.relation for m in symbolic_mutants(_binomial())]
    assert _binomial() not in relations
    assert len(set(relations)) == len(relations)


def test_the_limit_spreads_over_the_list_and_is_deterministic() -> None:
    every = symbolic_mutants(_binomial())
    some = symbolic_mutants(_binomial(), limit=5)
    assert len(some) == 5
    assert all(m in every for m in some)
    assert some == symbolic_mutants(_binomial(), limit=5)


def test_a_sound_check_kills_the_mutants_and_names_equivalent_ones() -> None:
    outcomes = mutation_outcomes(_claim(relation_check(_binomial)))
    by_outcome = {o.description: o.outcome for o in outcomes}
    # Swapping x and y gives (y - x)^2 = ..., the same identity.
    assert by_outcome["x <-> y"] == Outcome.EQUIVALENT
    assert by_outcome["rhs: term -2*x*y dropped"] == Outcome.KILLED
    survivors = [o for o in outcomes if o.outcome == Outcome.SURVIVED]
    assert survivors == []


def test_a_check_that_ignores_its_relation_lets_mutants_survive() -> None:
    # Judges a fixed relation, whatever it is given: too weak to notice.
    weak = RelationCheck(_binomial, lambda relation: check_identity(x + y, y + x))
    outcomes = mutation_outcomes(_claim(weak))
    assert outcomes
    assert {o.outcome for o in outcomes} <= {Outcome.SURVIVED, Outcome.EQUIVALENT}
    assert any(o.outcome == Outcome.SURVIVED for o in outcomes)


def test_a_check_without_its_relation_is_not_mutated() -> None:
    assert mutation_outcomes(_claim(lambda: Verdict.holds("ok", Basis.PROOF))) == []


def _sample_mean_check(tolerance_factor: float) -> Verdict:
    values = np.linspace(0.0, 1.0, 101)
    return check_close(values.mean(), 0.5, tolerance_factor * 1e-12, what="mean")


def test_a_shift_beyond_the_tolerance_is_detected() -> None:
    claim = _claim(lambda: _sample_mean_check(1.0), Kind.NUMERIC)
    outcomes = bias_outcomes(claim)
    assert [o.factor for o in outcomes] == [2.0, -2.0, 5.0, -5.0]
    assert all(o.outcome == Outcome.KILLED for o in outcomes)


def test_a_check_that_overrides_its_comparison_does_not_detect_a_shift() -> None:
    def lenient() -> Verdict:
        # Holds whatever the comparison says: the shift cannot be noticed.
        _sample_mean_check(1.0)
        return Verdict.holds("always", Basis.NUMERICAL)

    outcomes = bias_outcomes(_claim(lenient, Kind.NUMERIC))
    assert outcomes
    assert all(o.outcome == Outcome.SURVIVED for o in outcomes)


def test_claims_are_mutated_in_workers_in_order() -> None:
    claims = [
        _claim(relation_check(_binomial), label="a"),
        _claim(lambda: _sample_mean_check(1.0), Kind.NUMERIC, label="b"),
        _claim(lambda: Verdict.holds("ok", Basis.PROOF), label="c"),
    ]
    reports = mutate_claims(claims, limit=6, workers=2)
    assert [r.claim_id for r in reports] == [c.id for c in claims]
    assert len(reports[0].symbolic) == 6
    assert reports[0].bias == ()
    assert len(reports[1].bias) == 4
    assert reports[2].note.startswith("not instrumented")


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="limit"):
        symbolic_mutants(_binomial(), limit=0)
    with pytest.raises(InvalidArgumentError, match="limit"):
        mutate_claims([], limit=-1)


def test_an_undecided_mutant_is_not_killed() -> None:
    assert not MutantOutcome("a", "b", Outcome.UNDECIDED, "").killed
    assert MutantOutcome("a", "b", Outcome.KILLED, "").killed
