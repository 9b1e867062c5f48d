"""Relation helper calls, recorded to typeset a check and replayed to mutate it."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
import sympy as sp

from implicit_bias.claims.checks import (
    check_close,
    check_equal,
    check_identity,
    check_inequality,
    check_integral,
    check_limit,
    check_series,
    judge_relation,
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
from implicit_bias.claims.recording import (
    MAX_RECORDED_CALLS,
    MAX_TYPESET_RELATIONS,
    RECORDING_SECONDS,
    claim_formula,
    claim_recording,
    lint_claim,
    recorded_calls,
    replaced_call,
)

x = sp.Symbol("x", positive=True)
y = sp.Symbol("y", positive=True)


def _claim(check: Callable[[], object], **fields: object) -> Claim:
    return Claim(
        "test-source",
        "1",
        str(fields.pop("label", "a")),
        Kind(fields.pop("kind", Kind.IDENTITY)),
        "a statement",
        check,  # type: ignore[arg-type]
        Status(fields.pop("expected", Status.HOLDS)),
        **fields,  # type: ignore[arg-type]
    )


# --- what each helper records


@pytest.mark.parametrize(
    ("check", "relation"),
    [
        (
            lambda: check_identity(sp.log(x**2), 2 * sp.log(x)),
            sp.Eq(sp.log(x**2), 2 * sp.log(x), evaluate=False),
        ),
        (lambda: check_inequality(x, x + 1), sp.Le(x, x + 1, evaluate=False)),
        (
            lambda: check_inequality(x, x + 1, strict=True),
            sp.Lt(x, x + 1, evaluate=False),
        ),
        (
            lambda: check_limit(sp.sin(x) / x, x, 0, 1),
            sp.Eq(sp.Limit(sp.sin(x) / x, x, 0), 1, evaluate=False),
        ),
        (
            lambda: check_series(sp.exp(x), x, 1 + x, 2),
            sp.Eq(sp.exp(x), sp.Add(1, x, sp.O(x**2), evaluate=False), evaluate=False),
        ),
        (
            lambda: check_integral(sp.exp(-x), (x, 0, sp.oo), 1),
            sp.Eq(sp.Integral(sp.exp(-x), (x, 0, sp.oo)), 1, evaluate=False),
        ),
        (lambda: check_equal(sp.Integer(2), 2), sp.Eq(2, 2, evaluate=False)),
        (
            lambda: judge_relation(sp.Ge(x + 1, x, evaluate=False)),
            sp.Ge(x + 1, x, evaluate=False),
        ),
        (
            relation_check(lambda: sp.Eq(x * x, x**2, evaluate=False)),
            sp.Eq(x * x, x**2, evaluate=False),
        ),
    ],
    ids=[
        "identity",
        "inequality",
        "strict",
        "limit",
        "series",
        "integral",
        "equal",
        "judge_relation",
        "relation_check",
    ],
)
def test_each_helper_records_the_relation_it_is_handed(
    check: Callable[[], Verdict], relation: sp.Basic
) -> None:
    recorded = recorded_calls(check)
    assert recorded.stopped == ""
    assert [call.relation for call in recorded.calls] == [relation]
    assert recorded.formula() == relation


def test_a_series_keeps_the_terms_its_remainder_would_absorb() -> None:
    # Evaluated, 1 + x**3 + O(x**2) would be 1 + O(x**2): not what is checked.
    (call,) = recorded_calls(lambda: check_series(sp.exp(x), x, 1 + x**3, 2)).calls
    assert call.relation.rhs.removeO() == 1 + x**3


def test_recording_decides_nothing_and_the_check_runs_on_as_if_it_held() -> None:
    seen: list[Verdict] = []

    def check() -> Verdict:
        verdict = check_identity(x, x + 1)  # false: decided, it would fail
        seen.append(verdict)
        return verdict

    assert recorded_calls(check).formula() == sp.Eq(x, x + 1, evaluate=False)
    assert [v.detail for v in seen] == ["recorded, not decided"]
    # Outside a recording, the helper decides as ever.
    assert check().status == Status.FAILS


def test_a_conjunction_and_a_call_made_once_another_holds_are_recorded() -> None:
    def check() -> Verdict:
        first = check_identity(sp.log(x**2), 2 * sp.log(x))
        if first.status != Status.HOLDS:
            return first
        return conjunction(
            [first, check_limit(sp.sin(x) / x, x, 0, 1), check_inequality(x, x + 1)],
            "all three",
        )

    recorded = recorded_calls(check)
    assert [call.helper for call in recorded.calls] == [
        "check_identity",
        "check_limit",
        "check_inequality",
    ]
    formula = recorded.formula()
    assert isinstance(formula, sp.And)
    assert set(formula.args) == {call.relation for call in recorded.calls}


def test_a_check_calling_a_helper_in_a_loop() -> None:
    def few() -> Verdict:
        return conjunction([check_identity(x**n, x * x ** (n - 1)) for n in (2, 3)], "")

    assert len(recorded_calls(few).relations()) == 2
    assert recorded_calls(few).formula() is not None

    def many() -> Verdict:
        cases = range(2, MAX_TYPESET_RELATIONS + 3)
        return conjunction([check_identity(x**n, x * x ** (n - 1)) for n in cases], "")

    recorded = recorded_calls(many)
    assert recorded.stopped == ""
    assert recorded.formula() is None
    assert "hands the relation helpers 5 relations (a loop" in recorded.why_no_formula()

    def endless() -> Verdict:
        n = 1
        while True:  # A check gone wrong: the recording stops it.
            check_identity(x**n, x**n)
            n += 1

    recorded = recorded_calls(endless)
    assert len(recorded.calls) == MAX_RECORDED_CALLS
    assert recorded.stopped == (
        f"its check made more than {MAX_RECORDED_CALLS} helper calls"
    )


def test_what_a_check_computes_before_its_helper_is_budgeted() -> None:
    def expensive() -> Verdict:
        deadline = time.process_time() + 30
        while time.process_time() < deadline:
            pass
        return check_identity(x, x)

    started = time.process_time()
    recorded = recorded_calls(expensive, budget_seconds=0.2)
    assert time.process_time() - started < 5
    assert recorded.calls == ()
    assert recorded.why_no_formula() == (
        "its check computed for more than 0.2 s of CPU, before it called a "
        "relation helper"
    )


def test_a_check_that_raises_or_calls_no_helper_says_so() -> None:
    def broken() -> Verdict:
        raise ZeroDivisionError("1/0")

    assert recorded_calls(broken).why_no_formula() == (
        "its check raised ZeroDivisionError('1/0') while its calls were recorded, "
        "before it called a relation helper"
    )
    plain = recorded_calls(lambda: Verdict.holds("by hand", Basis.PROOF))
    assert plain.formula() is None
    assert plain.why_no_formula().startswith(
        "its check calls no relation helper (check_identity, check_inequality"
    )
    compared = recorded_calls(lambda: check_close(1.0, 1.0, 1e-12, what="one"))
    assert compared.comparisons == 1
    # What mutation testing could not shift is not a comparison it can shift.
    exact = recorded_calls(lambda: check_close(1.0, 1.0, 0.0, what="one"))
    assert exact.comparisons == 0


# --- replays


def _two_calls() -> Verdict:
    return conjunction(
        [check_identity(x**2 - 1, (x - 1) * (x + 1)), check_inequality(x, x + 1)],
        "both",
    )


def test_a_replay_decides_the_replacement_at_its_call_only() -> None:
    recorded = recorded_calls(_two_calls)
    wrong = sp.Eq(x**2 + 1, (x - 1) * (x + 1), evaluate=False)
    with replaced_call(recorded, 0, wrong) as replay:
        verdict = _two_calls()
    assert verdict.status == Status.FAILS
    assert replay.applied
    assert not replay.diverged
    # At the other call, the first decides its own relation again.
    with replaced_call(recorded, 1, sp.Le(x + 2, x + 1, evaluate=False)) as replay:
        verdict = _two_calls()
    assert verdict.status == Status.FAILS
    assert verdict.counterexample is not None
    assert "rhs - lhs is in" in verdict.counterexample
    assert replay.applied
    # Unaltered, the check holds on the recorded path.
    with replaced_call(recorded, -1, None) as replay:
        assert _two_calls().status == Status.HOLDS
    assert not replay.applied
    assert not replay.diverged


def test_a_helper_calling_another_is_one_call() -> None:
    # check_limit decides through check_equal, which is not a call of its own.
    check = lambda: check_limit(sp.sin(x) / x, x, 0, 1)  # noqa: E731
    recorded = recorded_calls(check)
    assert len(recorded.calls) == 1
    mutant = sp.Eq(sp.Limit(sp.sin(x) / x, x, 0), 2, evaluate=False)
    with replaced_call(recorded, 0, mutant) as replay:
        assert check().status == Status.FAILS
    assert replay.applied
    assert not replay.diverged


def test_a_check_taking_another_path_diverges() -> None:
    state = {"calls": 0}

    def unsteady() -> Verdict:
        # Another relation every run: the replay cannot match the recording.
        state["calls"] += 1
        return check_identity(x ** state["calls"], x ** state["calls"])

    recorded = recorded_calls(unsteady)
    mutant = sp.Eq(x**2, x, evaluate=False)
    with replaced_call(recorded, 0, mutant) as replay:
        assert unsteady().status == Status.HOLDS
    assert replay.diverged
    assert not replay.applied


# --- claims: a formula derived when typeset, in a child process


def test_a_claims_formula_is_derived_when_asked_for_not_when_made(
    tmp_path: Path,
) -> None:
    runs = tmp_path / "runs"

    def counted() -> Verdict:
        # A file, not a variable: the recording runs in a forked child.
        with runs.open("a") as stream:
            stream.write("run\n")
        return check_identity(sp.log(x**2), 2 * sp.log(x))

    claim = _claim(counted)
    assert claim.formula is None
    assert not runs.exists()
    assert claim_formula(claim) == sp.Eq(sp.log(x**2), 2 * sp.log(x), evaluate=False)
    assert claim_formula(claim) == sp.Eq(sp.log(x**2), 2 * sp.log(x), evaluate=False)
    # Recorded once in this process, and the check was not run here.
    assert runs.read_text() == "run\n"


def test_a_given_formula_wins_over_the_recorded_relation() -> None:
    given = sp.Eq(sp.log(x**2), 2 * sp.log(x), evaluate=False)
    claim = _claim(lambda: check_identity(sp.log(x**2) - 2 * sp.log(x), 0))
    assert claim_formula(claim) == sp.Eq(sp.log(x**2) - 2 * sp.log(x), 0)
    with_formula = _claim(claim.check, formula=lambda: given)
    assert claim_formula(with_formula) == given


def test_what_a_check_prints_while_recorded_goes_to_stderr(
    capfd: pytest.CaptureFixture[str],
) -> None:
    def noisy() -> Verdict:
        print("noise")
        return check_identity(x, x)

    # Sent back from the child, a relation SymPy would decide stays one.
    assert claim_formula(_claim(noisy)) == sp.Eq(x, x, evaluate=False)
    captured = capfd.readouterr()
    assert "noise" not in captured.out


def test_a_check_computing_past_the_budget_in_the_child_says_so() -> None:
    def spinning() -> Verdict:
        while True:  # a simulation far longer than the recording's budget
            pass

    recorded = claim_recording(_claim(spinning, label="spinning"))
    assert recorded.calls == ()
    assert recorded.stopped == (
        f"its check computed for more than {RECORDING_SECONDS:g} s of CPU"
    )


# --- the lint


def test_the_lint_says_how_each_claim_is_typeset_and_mutated() -> None:
    bare = lint_claim(_claim(lambda: check_identity(sp.log(x**2), 2 * sp.log(x))))
    assert bare.problems == ()
    assert bare.typeset == "the relation its check hands the relation helpers"
    assert bare.mutated == "mutants of the relation of its 1 helper call, replayed"
    relation = lint_claim(_claim(relation_check(lambda: sp.Eq(x, x))))
    assert relation.problems == ()
    assert relation.typeset == "its check's relation (RelationCheck)"
    simulated = lint_claim(
        _claim(
            lambda: check_close(1.0, 1.0, 1e-12, what="one"),
            kind=Kind.SIMULATION,
            formula=lambda: sp.Eq(x, x),
        )
    )
    assert simulated.problems == ()
    assert simulated.mutated.startswith("its numerical comparisons, shifted")
    refuted = lint_claim(_claim(lambda: check_identity(x, x + 1), expected="fails"))
    assert refuted.problems == ()
    assert refuted.mutated == "not mutated: it is expected fails, by design"


def test_the_lint_says_why_a_claim_cannot_be_typeset_or_mutated_and_the_fix() -> None:
    lint = lint_claim(_claim(lambda: Verdict.holds("by hand", Basis.PROOF)))
    typeset, mutated = lint.problems
    assert typeset.startswith(
        "typeset in words only: its check calls no relation helper (check_identity"
    )
    assert typeset.endswith(
        "give the claim formula= (a function returning the SymPy relation it "
        "states), or decide the relation through a relation helper (check_identity, "
        "check_inequality, check_limit, check_series, check_integral, relation_check)"
    )
    assert mutated.startswith("not mutation-tested: its check calls no relation")
    assert mutated.endswith("so that mutate can alter it")


def _branches_on_the_placeholder() -> Verdict:
    first = check_identity(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1)
    if first.detail == "recorded, not decided":  # true only while recording
        return conjunction([first, check_identity(x, x)], "both")
    return first


def test_a_check_that_takes_another_path_when_run_is_not_replayed() -> None:
    # The recording saw two calls; run for real, the check makes one: its
    # mutants must not be judged as if the recorded path were taken.
    recorded = recorded_calls(_branches_on_the_placeholder)
    assert len(recorded.calls) == 2
    with replaced_call(recorded, -1, None) as replay:
        verdict = _branches_on_the_placeholder()
    assert verdict.status == Status.HOLDS
    assert replay.diverged


def _loops() -> Verdict:
    for k in range(MAX_RECORDED_CALLS + 5):
        check_inequality(sp.Integer(0), x + k)
    return Verdict.holds("every k", Basis.PROOF)


def test_a_stopped_recording_is_not_promised_as_mutation_tested() -> None:
    claim = Claim(
        "rec", "1", "loop", Kind.INEQUALITY, "0 <= x + k", _loops, Status.HOLDS
    )
    lint = lint_claim(claim)
    assert lint.mutated == ""
    assert any(
        problem.startswith("not mutation-tested: the recording of its helper calls")
        for problem in lint.problems
    )


def _hungry_then_identity() -> Verdict:
    import numpy as np

    blocks = []
    while len(blocks) < 32:  # bounded: 2 GiB, should the budget be missing
        blocks.append(np.ones(2**23))
    return check_identity(x + y, y + x)


def test_mutate_records_a_check_under_its_memory_budget() -> None:
    from implicit_bias.claims.mutate import mutate_claims

    claim = Claim(
        "rec",
        "1",
        "hungry",
        Kind.IDENTITY,
        "x + y = y + x",
        _hungry_then_identity,
        Status.HOLDS,
        budget_bytes=256 * 2**20,
    )
    (mutations,) = mutate_claims([claim], limit=2, workers=1)
    # Stopped by its budget while recorded (it took 2 GiB before).
    assert "MemoryError" in mutations.note
    assert "while its calls were recorded" in mutations.note


def _stated(formula: Callable[[], sp.Basic]) -> Claim:
    return Claim(
        "rec",
        "1",
        "built-once",
        Kind.INEQUALITY,
        "x <= x + y",
        lambda: check_inequality(x, x + y),
        Status.HOLDS,
        formula=formula,
    )


def test_a_claims_formula_is_built_once_per_process() -> None:
    # The docs' pages, ledger and staleness check each ask for every formula;
    # some take seconds to build.
    built: list[int] = []

    def formula() -> sp.Basic:
        built.append(1)
        return sp.Le(x, x + y)

    claim = _stated(formula)
    assert claim_formula(claim) == claim_formula(claim) == sp.Le(x, x + y)
    assert built == [1]
    # Another claim's formula is its own, even where an equal claim was seen.
    assert claim_formula(_stated(lambda: sp.Le(x, 2 * x + y))) == sp.Le(x, 2 * x + y)
