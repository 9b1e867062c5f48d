"""Mutation testing: mutants of a relation, judged by the claim's own check."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import numpy as np
import pytest
import sympy as sp

from implicit_bias.claims.checks import (
    RelationCheck,
    check_close,
    check_identity,
    check_inequality,
    check_integral,
    check_limit,
    check_positive,
    check_series,
    relation_check,
)
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Status,
    Verdict,
    conjunction,
)
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.claims.mutate import (
    MutantOutcome,
    Outcome,
    bias_outcomes,
    _prefix_spread_order,
    _symbolic_outcomes,
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
    assert "lhs: exponent of (x - y)**2 -> 3 (at lhs)" in descriptions
    assert (
        "rhs: -2 -> -2 * 1001/1000, so -2*x*y becomes -1001*x*y/500 "
        "(at rhs.args[2].args[0])"
    ) in descriptions
    assert "rhs: -2 -> -2 + 1, so -2*x*y becomes -x*y (at rhs.args[2].args[0])" in (
        descriptions
    )
    assert (
        "rhs: term -2*x*y -> 2*x*y, so x**2 - 2*x*y + y**2 becomes "
        "x**2 + 2*x*y + y**2 (at rhs)"
    ) in descriptions
    assert (
        "rhs: term -2*x*y dropped, so x**2 - 2*x*y + y**2 becomes x**2 + y**2 (at rhs)"
    ) in descriptions
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
    assert (
        by_outcome[
            "rhs: term -2*x*y dropped, so x**2 - 2*x*y + y**2 becomes x**2 + y**2 "
            "(at rhs)"
        ]
        == Outcome.KILLED
    )
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


def test_a_one_sided_comparison_is_moved_once_per_factor_toward_refutation() -> None:
    # 3.5 resolutions above 0: a move of 2 resolutions leaves it positive beyond
    # its resolution (undetected), one of 5 refutes it.
    claim = _claim(lambda: check_positive(0.35, 0.1, what="gap"), Kind.SIMULATION)
    outcomes = bias_outcomes(claim)
    assert [o.factor for o in outcomes] == [-2.0, -5.0]
    assert [o.outcome for o in outcomes] == [Outcome.SURVIVED, Outcome.KILLED]
    assert all("toward refutation" in o.description for o in outcomes)


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


# --- which occurrence a mutant changed (issue 21)


def test_a_mutant_says_which_occurrence_of_a_constant_it_changed() -> None:
    # 2 occurs three times; before, each of their mutants read "lhs: 2 -> 2 + 1"
    # or "rhs: 2 -> 2 + 1".
    rhs = sp.Mul(2, x + y**2, evaluate=False)
    relation = sp.Eq(2 * x + 2 * y**2, rhs, evaluate=False)
    mutants = symbolic_mutants(relation)
    plus_one = [m for m in mutants if "2 -> 2 + 1" in m.description]
    descriptions = [m.description for m in plus_one]
    assert len(plus_one) == 3
    assert len(set(descriptions)) == 3
    assert "lhs: 2 -> 2 + 1, so 2*x becomes 3*x (at lhs.args[0].args[0])" in (
        descriptions
    )
    assert "lhs: 2 -> 2 + 1, so 2*y**2 becomes 3*y**2 (at lhs.args[1].args[0])" in (
        descriptions
    )
    # Each description's path leads to the occurrence its mutant changed.
    for mutant in plus_one:
        path = mutant.description.rsplit("(at ", 1)[1].rstrip(")")
        assert eval(path, {"lhs": relation.lhs, "rhs": relation.rhs}) == 2


def test_a_subexpression_occurring_twice_is_told_apart_by_its_context() -> None:
    # x**2 occurs in both terms of the left side: its exponent's mutants quote
    # the whole term each is in, which occurs once.
    relation = sp.Eq(x**2 * y + x**2, x**2 * (y + 1), evaluate=False)
    descriptions = [
        m.description
        for m in symbolic_mutants(relation)
        if m.description.startswith("lhs: exponent of x**2 -> 3")
    ]
    assert descriptions == [
        "lhs: exponent of x**2 -> 3, so x**2*y + x**2 becomes x**3 + x**2*y "
        "(at lhs.args[0])",
        "lhs: exponent of x**2 -> 3, so x**2*y becomes x**3*y (at lhs.args[1].args[1])",
    ]


# --- claims written as bare calls of the relation helpers (issue 21)


def _bare(check: object, kind: Kind = Kind.IDENTITY, label: str = "bare") -> Claim:
    return _claim(check, kind, label)


@pytest.mark.parametrize(
    ("kind", "check", "killed"),
    [
        (Kind.IDENTITY, lambda: check_identity(sp.log(x**2), 2 * sp.log(x)), 6),
        # Two mutants are true inequalities (equivalent), one SymPy cannot
        # show true survives.
        (Kind.INEQUALITY, lambda: check_inequality(x**2 + 1, (x + 1) ** 2), 2),
        (Kind.LIMIT, lambda: check_limit(sp.sin(x) / x, x, 0, 1), 5),
        (Kind.LIMIT, lambda: check_series(sp.exp(x), x, 1 + x + x**2 / 2, 3), 6),
        (Kind.IDENTITY, lambda: check_integral(sp.exp(-x), (x, 0, sp.oo), 1), 5),
    ],
    ids=["identity", "inequality", "limit", "series", "integral"],
)
def test_a_bare_helper_call_is_mutated(
    kind: Kind, check: Callable[[], Verdict], killed: int
) -> None:
    # Before, a check that is not a RelationCheck was "not instrumented".
    outcomes = mutation_outcomes(_bare(check, kind), limit=6)
    assert len(outcomes) >= killed
    assert sum(o.killed for o in outcomes) >= killed


def test_every_relation_of_a_conjunction_is_mutated_through_the_whole_check() -> None:
    def both() -> Verdict:
        return conjunction(
            [
                check_identity(sp.log(x**2), 2 * sp.log(x)),
                check_limit(sp.sin(x) / x, x, 0, 1),
            ],
            "both",
        )

    outcomes = mutation_outcomes(_bare(both))
    firsts = [o for o in outcomes if o.description.startswith("call 1 of 2 (check_i")]
    seconds = [o for o in outcomes if o.description.startswith("call 2 of 2 (check_l")]
    assert firsts
    assert seconds
    assert len(firsts) + len(seconds) == len(outcomes)
    # The conjunction's verdict is the check's: a refuted part refutes it.
    assert all(o.killed for o in seconds)
    assert any(o.killed for o in firsts)


def test_a_check_taking_another_path_on_a_mutant_leaves_it_not_decided() -> None:
    # A fallback the recording never saw: when the first attempt is not a
    # proof, the check decides the *original* relation numerically. Its holds
    # on a mutant says nothing of the mutant, so the mutant is neither a
    # survivor nor a kill.
    def with_fallback() -> Verdict:
        first = check_identity(x**2 - 1, (x - 1) * (x + 1), points=5)
        if first.basis == Basis.PROOF:
            return first
        return check_identity(
            x**2 - 1 + sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1,
            (x - 1) * (x + 1),
            symbolic=False,
        )

    outcomes = mutation_outcomes(_bare(with_fallback), limit=4)
    assert outcomes
    assert not [o for o in outcomes if o.outcome == Outcome.SURVIVED]
    assert all(o.outcome in (Outcome.KILLED, Outcome.NOT_DECIDED) for o in outcomes)


def test_a_check_deciding_no_relation_says_why_it_is_not_mutated() -> None:
    claims = [
        _claim(lambda: check_identity(sp.log(x**2), 2 * sp.log(x)), label="bare"),
        _claim(lambda: Verdict.holds("ok", Basis.PROOF), label="plain"),
        _claim(lambda: Verdict.holds("ok", Basis.PROOF), Kind.SIMULATION, "sim"),
    ]
    reports = mutate_claims(claims, limit=4, workers=1)
    assert len(reports[0].symbolic) == 4
    assert reports[0].note == ""
    assert reports[1].note == (
        "not instrumented: its check calls no relation helper (check_identity, "
        "check_inequality, check_limit, check_series, check_integral, "
        "check_equal, check_loewner, judge_relation); decide the relation it "
        "states through a "
        "relation helper (check_identity, check_inequality, check_limit, "
        "check_series, check_integral, relation_check)"
    )
    assert (
        "and it compares nothing through check_close or check_positive"
        in reports[2].note
    )
    assert reports[2].note.endswith(
        ", or compare through check_close or check_positive"
    )


def test_a_check_that_does_not_hold_when_replayed_is_not_mutated() -> None:
    claim = _claim(lambda: check_identity(x, x + 1))
    outcomes, note, unjudged = _symbolic_outcomes(claim, 4, 5.0, None)
    assert (outcomes, unjudged) == ([], 0)
    assert note.startswith("its check, re-run unaltered, says fails")


def _hungry_judge(relation: sp.Basic) -> Verdict:
    """Holds for the claim's own relation; grows without end on a mutant."""
    if relation == _binomial():
        return check_identity(relation.lhs, relation.rhs)
    blocks = []
    while len(blocks) < 64:  # bounded: 4 GiB, should the budget be missing
        blocks.append(np.ones(2**23))
    return Verdict.holds("took it all", Basis.NUMERICAL)


def test_a_mutant_runs_under_the_claims_memory_budget() -> None:
    # Mutants ran without one: a check that grows on a wrong formula took the
    # machine's memory instead of being stopped at its budget.
    claim = dataclasses.replace(
        _claim(RelationCheck(_binomial, _hungry_judge)), budget_bytes=256 * 2**20
    )
    (mutations,) = mutate_claims([claim], limit=2, workers=1)
    assert mutations.symbolic
    for outcome in mutations.symbolic:
        assert outcome.outcome == Outcome.UNDECIDED
        assert "memory budget" in outcome.detail


@pytest.mark.parametrize("count", [0, 1, 2, 3, 7, 8, 9, 40])
def test_every_prefix_of_the_judging_order_is_spread(count: int) -> None:
    order = _prefix_spread_order(count)
    assert sorted(order) == list(range(count))
    # Each prefix of 2^k indices has one index in each of 2^k equal blocks.
    for size in (1, 2, 4, 8):
        if size <= count and count % size == 0:
            blocks = {index * size // count for index in order[:size]}
            assert blocks == set(range(size))


def _spinning_judge(seconds: float) -> Callable[[sp.Basic], Verdict]:
    def judge(relation: sp.Basic) -> Verdict:
        started = time.process_time()
        while time.process_time() - started < seconds:
            pass
        return check_identity(relation.lhs, relation.rhs)

    return judge


def test_a_claim_whose_judging_outruns_its_seconds_is_mutated_in_part_evenly() -> None:
    claim = _claim(RelationCheck(_binomial, _spinning_judge(0.05)))
    every = [m.description for m in symbolic_mutants(_binomial())]
    outcomes, note, unjudged = _symbolic_outcomes(claim, None, 5.0, 0.3)
    # The budget is checked before each mutant, and each takes >= 0.05 s of
    # CPU: at most 0.3 / 0.05 + 1 are judged; the first costs far less than
    # 0.3 s, so a second is judged too.
    judged = [o.description for o in outcomes]
    assert 2 <= len(judged) <= 7 < len(every)
    assert note.startswith(f"mutation-tested in part: {len(judged)} of {len(every)}")
    assert unjudged == len(every) - len(judged)
    # A prefix of the spread order, reported in the list's order: the first
    # and the middle mutant among them.
    order = _prefix_spread_order(len(every))
    assert judged == [every[i] for i in sorted(order[: len(judged)])]
    assert {every[0], every[len(every) // 2]} <= set(judged)
    unlimited, note, unjudged = _symbolic_outcomes(
        _claim(relation_check(_binomial)), None, 5.0, None
    )
    assert (len(unlimited), note, unjudged) == (len(every), "", 0)


def test_the_seconds_for_a_claim_must_be_positive() -> None:
    claim = _claim(relation_check(_binomial))
    for bad in (0.0, -1.0, float("nan")):
        with pytest.raises(InvalidArgumentError, match="claim_seconds"):
            mutation_outcomes(claim, claim_seconds=bad)
        with pytest.raises(InvalidArgumentError, match="claim_seconds"):
            mutate_claims([claim], claim_seconds=bad)


def test_only_the_mutants_kept_are_described(monkeypatch: pytest.MonkeyPatch) -> None:
    # Describing a mutant prints its context: seconds each on the Appendix B
    # chains' sides, which have thousands of mutants.
    from implicit_bias.claims import mutate

    described: list[str] = []
    original = mutate._described

    def counted(*args: object) -> str:
        described.append(args[2])  # type: ignore[arg-type]
        return original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(mutate, "_described", counted)
    relation = sp.Eq(sum(k * x**k for k in range(1, 30)), y, evaluate=False)
    kept = symbolic_mutants(relation, limit=3)
    assert len(kept) == 3
    assert len(described) == 3
    every = symbolic_mutants(relation)
    # The same three as before: evenly spread over the whole list.
    chosen = [every[int(i * len(every) / 3)] for i in range(3)]
    assert [(m.description, m.relation) for m in kept] == [
        (m.description, m.relation) for m in chosen
    ]


def test_a_long_context_is_told_without_printing_it() -> None:
    from implicit_bias.claims.mutate import _longer_than

    short, long = x + 2 * y, sum(x**k for k in range(200))
    assert not _longer_than(short, 80)
    assert _longer_than(long, 80)
    assert _longer_than(sum(x**k for k in range(10)), 20) == (
        len(str(sum(x**k for k in range(10)))) > 20
    )


def test_mutants_never_change_a_shape() -> None:
    w = sp.MatrixSymbol("W", 3, 3)
    explicit = sp.ImmutableMatrix([[2 * x, 1], [0, 3]])
    relation = sp.Eq(2 * w * w.T + sp.Identity(3), w**2 + 2 * x * w, evaluate=False)
    for mutant in [
        *symbolic_mutants(relation),
        *symbolic_mutants(sp.Eq(explicit, explicit.T, evaluate=False)),
    ]:
        shapes = {m.shape for m in mutant.relation.atoms(sp.MatrixSymbol, sp.Identity)}
        assert shapes <= {(3, 3)}, mutant.description
        for side in mutant.relation.args:
            if isinstance(side, sp.MatrixBase):
                assert side.shape == (2, 2), mutant.description
    # The coefficients and the exponent are mutated, and an explicit matrix's
    # entries.
    descriptions = [m.description for m in symbolic_mutants(relation)]
    assert any("2 -> 2 + 1" in d for d in descriptions)
    assert any("exponent of W**2" in d for d in descriptions)
    entries = symbolic_mutants(sp.Eq(explicit, explicit.T, evaluate=False))
    assert any("3 -> 3 + 1" in m.description for m in entries)


def test_matrix_symbols_are_swapped_only_with_one_of_their_shape() -> None:
    # Before, swapping A (2 x 3) and B (3 x 2) raised a ShapeError, and the
    # claim was not mutated at all.
    a, b = sp.MatrixSymbol("A", 2, 3), sp.MatrixSymbol("B", 3, 2)
    c, d = sp.MatrixSymbol("C", 2, 2), sp.MatrixSymbol("D", 2, 2)
    relation = sp.Eq(a * b + c * d, d * c + a * b, evaluate=False)
    swaps = [
        m.description for m in symbolic_mutants(relation) if "<->" in m.description
    ]
    assert swaps == ["C <-> D"]


def test_a_claims_worker_may_spend_the_seconds_given_for_its_mutants(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The worker's own CPU budget must not stop it before --claim-seconds is
    # spent: killed, it reports none of the mutants it judged.
    from implicit_bias.claims import mutate
    from implicit_bias.claims.mutate import STEP_SECONDS
    from implicit_bias.claims.workers import MAX_BUDGET_SECONDS

    class Planned(Exception):
        pass

    budgets: list[float] = []

    def recorded(tasks: list[tuple[object, float]], **_: object) -> None:
        budgets.extend(budget for _, budget in tasks)
        raise Planned

    monkeypatch.setattr(mutate, "run_in_workers", recorded)
    claim = _claim(relation_check(_binomial))
    for seconds in (30.0, 1000.0, 5000.0, None):
        with pytest.raises(Planned):
            mutate_claims([claim], claim_seconds=seconds)
    default, thousand, five_thousand, unlimited = budgets
    # The default leaves the backstop as it was (40 mutants, 3 steps each,
    # and the bias runs).
    assert default == 40 * 3 * STEP_SECONDS + 4 * claim.budget_seconds
    assert thousand > 1000 + 4 * claim.budget_seconds
    assert five_thousand > 5000 + 4 * claim.budget_seconds
    assert unlimited == MAX_BUDGET_SECONDS


def test_a_mutant_the_replayed_check_does_not_reach_is_not_decided() -> None:
    # After its recording and its unaltered re-run, the check stops making its
    # second helper call: a mutant of that call's relation is not decided by
    # the verdict (holds, about the first relation only), so it is neither a
    # kill nor a survivor, and stays out of the kill rate.
    runs = []

    def check() -> Verdict:
        runs.append(1)
        first = check_identity((x + 1) ** 2, x**2 + 2 * x + 1)
        if len(runs) > 2:
            return first
        return conjunction([first, check_identity(x * (x + 1), x**2 + x)], "both")

    outcomes = mutation_outcomes(_claim(check), claim_seconds=None)
    second = [o for o in outcomes if o.description.startswith("call 2 of 2")]
    assert second
    assert {o.outcome for o in second} == {Outcome.NOT_DECIDED}
    assert all("did not reach call 2" in o.detail for o in second)
    first = [o for o in outcomes if o.description.startswith("call 1 of 2")]
    assert {o.outcome for o in first} <= {Outcome.KILLED, Outcome.EQUIVALENT}
