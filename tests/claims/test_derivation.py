"""Derivation chains: one claim per step, each judged on its own."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from implicit_bias.claims import Basis, Derivation, Kind, Source, Status, Step, Verdict
from implicit_bias.claims.findings import Severity, Slip
from implicit_bias.errors import InvalidArgumentError

x = sp.Symbol("x", positive=True)


def _chain(*steps: Step) -> Derivation:
    return Derivation(
        source="note",
        equation="3-5",
        label="sinh",
        title="A difference of exponentials",
        start=lambda: sp.exp(-x) - sp.exp(x),
        steps=steps,
        quote="e^{-x} - e^x = -2 sinh x < 0",
    )


def test_each_step_is_a_claim_relating_the_previous_expression_to_its_own() -> None:
    chain = _chain(
        Step(lambda: -2 * sp.sinh(x), "e^-x - e^x = -2 sinh x", equation="4"),
        Step(lambda: sp.Integer(0), "sinh x > 0 for x > 0", "<"),
    )
    first, second = chain.claims
    assert [first.id, second.id] == ["note:4:sinh-step-1", "note:3-5:sinh-step-2"]
    assert (first.kind, second.kind) == (Kind.IDENTITY, Kind.INEQUALITY)
    assert first.formula is not None
    assert second.formula is not None
    assert first.formula() == sp.Eq(sp.exp(-x) - sp.exp(x), -2 * sp.sinh(x))
    assert second.formula() == sp.Lt(-2 * sp.sinh(x), 0, evaluate=False)
    assert [c.check().status for c in chain.claims] == [Status.HOLDS, Status.HOLDS]
    assert chain.expressions() == [sp.exp(-x) - sp.exp(x), -2 * sp.sinh(x), 0]
    assert first.quote == chain.quote
    assert "step 1: e^-x - e^x = -2 sinh x" in first.statement


def test_the_expressions_are_built_once() -> None:
    built: list[str] = []

    def start() -> sp.Basic:
        built.append("start")
        return sp.exp(-x) - sp.exp(x)

    chain = dataclasses.replace(
        _chain(Step(lambda: -2 * sp.sinh(x), "e^-x - e^x = -2 sinh x")), start=start
    )
    first = chain.expressions()
    first.append(sp.Integer(1))
    assert chain.expressions() == [sp.exp(-x) - sp.exp(x), -2 * sp.sinh(x)]
    assert built == ["start"]


def test_a_wrong_step_fails_on_its_own_with_a_counterexample() -> None:
    chain = _chain(
        Step(lambda: -2 * sp.sinh(x), "e^-x - e^x = -2 sinh x"),
        Step(lambda: -sp.sinh(x), "a dropped factor 2", expected=Status.FAILS),
        Step(lambda: sp.Integer(0), "sinh x > 0", "<"),
    )
    verdicts = [claim.check() for claim in chain.claims]
    assert [v.status for v in verdicts] == [Status.HOLDS, Status.FAILS, Status.HOLDS]
    assert verdicts[1].basis in (Basis.PROOF, Basis.CERTIFIED)
    assert chain.claims[1].expected == Status.FAILS


def test_a_step_names_the_slip_its_claim_shows() -> None:
    chain = _chain(
        Step(lambda: -2 * sp.sinh(x), "e^-x - e^x = -2 sinh x"),
        Step(
            lambda: -sp.sinh(x),
            "a dropped factor 2",
            expected=Status.FAILS,
            slip="factor-2-in-4",
        ),
    )
    assert [claim.slip for claim in chain.claims] == [None, "factor-2-in-4"]
    slip = Slip("factor-2-in-4", Severity.TYPO, "step 2 drops the factor 2 of step 1")
    source = Source("note", "A note", derivations=(chain,), slips=(slip,))
    assert source.slips == (slip,)


def test_steps_of_chains_are_claims_of_their_source() -> None:
    chain = _chain(Step(lambda: -2 * sp.sinh(x), "identity"))
    source = Source("note", "A note", derivations=(chain,))
    assert source.all_claims() == chain.claims


def test_bad_steps_are_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="relation"):
        Step(lambda: x, "why", relation="~")
    with pytest.raises(InvalidArgumentError, match="justification"):
        Step(lambda: x, " ")
    with pytest.raises(InvalidArgumentError, match="steps"):
        _chain()


def test_an_expression_where_a_builder_is_expected_is_refused_where_written() -> None:
    # Else each step crashes when checked ('Add' object is not callable).
    with pytest.raises(InvalidArgumentError, match="expression: a function of no"):
        Step(x + 1, "why")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="judge"):
        Step(lambda: x, "why", judge=Status.HOLDS)  # type: ignore[arg-type]
    step = Step(lambda: x, "why")
    fields = {
        "source": "note",
        "equation": "1",
        "label": "chain",
        "title": "A chain",
        "start": lambda: x,
        "steps": (step,),
    }
    Derivation(**fields)  # type: ignore[arg-type]
    for name, bad in [
        ("start", sp.exp(x)),
        ("steps", (lambda: x,)),
        ("source", "My Note"),
        ("label", "two words"),
        ("label", ""),
        ("points", 0),
        ("budget_seconds", 0.0),
    ]:
        with pytest.raises(InvalidArgumentError, match=f"^{name}:"):
            Derivation(**{**fields, name: bad})  # type: ignore[arg-type]


def test_a_step_says_which_of_its_sides_lhs_and_rhs_are() -> None:
    # Issue 21: a step's evidence spoke of "lhs - rhs" without saying which
    # sides; a >= step is checked as right side <= left side, so there lhs is
    # the step's right side.
    chain = _chain(
        Step(lambda: -sp.sinh(x), "a dropped factor 2", expected=Status.FAILS),
        Step(lambda: sp.Integer(0), "sinh x > 0", "<"),
        Step(lambda: x, "0 >= x", ">=", expected=Status.FAILS),
    )
    equal, less, greater = (claim.check() for claim in chain.claims)
    assert [v.status for v in (equal, less, greater)] == [
        Status.FAILS,
        Status.HOLDS,
        Status.FAILS,
    ]
    forward = (
        "step {k}: lhs is its left side (the expression before it), rhs its "
        "right side (the one it arrives at); "
    )
    assert equal.detail.startswith(forward.format(k=1))
    assert "lhs - rhs" in equal.detail
    assert less.detail.startswith(forward.format(k=2))
    assert greater.detail.startswith(
        "step 3: lhs is its right side (the one it arrives at), rhs its left "
        "side (the expression before it), as a >= step is checked the other way "
        "round; "
    )
    assert "lhs <= rhs is violated" in greater.detail
    # The counterexample, footnoted alone in the ledger, says so too, and its
    # point stays the check's.
    for number, verdict in ((1, equal), (3, greater)):
        assert verdict.counterexample is not None
        assert verdict.counterexample.startswith(f"step {number}: lhs is its ")
        assert verdict.point is not None
        assert list(verdict.point) == ["x"]


def test_a_steps_own_judge_keeps_its_own_words() -> None:
    # What a custom judge calls lhs and rhs is its own to say.
    def judge(relation: sp.Basic) -> Verdict:
        return Verdict.holds("my words", Basis.PROOF)

    (claim,) = _chain(Step(lambda: -2 * sp.sinh(x), "identity", judge=judge)).claims
    assert claim.check().detail == "my words"
