"""Equivalent mutants: relations SymPy shows true on their own."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.checks import RelationCheck, relation_check
from implicit_bias.claims.engine import Claim, Kind, Status
from implicit_bias.claims.loewner import LoewnerLe, LoewnerLt
from implicit_bias.claims.mutate import Outcome, mutation_outcomes, symbolic_mutants
from implicit_bias.claims.mutant_truth import renamed, true_by_itself, weakening

x = sp.Symbol("x", positive=True)


def test_a_series_mutant_that_is_still_true_is_equivalent() -> None:
    # The coefficient of x**3 is beyond O(x**3): changing it keeps it true.
    relation = sp.Eq(
        sp.exp(x),
        sp.Add(1, x, x**2 / 2, x**3, sp.O(x**3), evaluate=False),
        evaluate=False,
    )
    assert true_by_itself(relation, None, 5.0)
    wrong = sp.Eq(
        sp.exp(x), sp.Add(1, 2 * x, sp.O(x**3), evaluate=False), evaluate=False
    )
    assert not true_by_itself(wrong, None, 5.0)
    # The remainder itself is never mutated.
    mutants = symbolic_mutants(relation)
    assert mutants
    assert all(m.relation.rhs.getO() == sp.O(x**3) for m in mutants)
    assert not [m for m in mutants if m.description.startswith("rhs: term O(")]


def test_a_matrix_mutant_true_by_itself_is_equivalent_not_a_survivor() -> None:
    # A zero matrix is not == 0, and SymPy's Le takes no matrices: without
    # their own rules, true matrix mutants were counted as survivors.
    from implicit_bias.claims.loewner import LoewnerLe

    a, b = sp.MatrixSymbol("A", 3, 3), sp.MatrixSymbol("B", 3, 3)
    x = sp.MatrixSymbol("X", 2, 3)
    assert true_by_itself(sp.Eq((a * b).T, b.T * a.T, evaluate=False), None, 5.0)
    assert not true_by_itself(sp.Eq(a * b, b * a, evaluate=False), None, 5.0)
    gram = x.T * x
    assert true_by_itself(LoewnerLe(a, a + 3 * gram), None, 5.0)
    assert not true_by_itself(LoewnerLe(a, a - gram), None, 5.0)
    # Positive definite needs more than a Gram term.
    assert not true_by_itself(LoewnerLt(a, a + gram), None, 5.0)
    assert true_by_itself(LoewnerLt(a, a + gram + sp.Identity(3)), None, 5.0)


def test_an_inequality_the_stated_one_implies_is_equivalent() -> None:
    # x^2 + 1 >= 2x: a mutant that grows the greater side (x^2 + 2) or shrinks
    # the smaller one (x) is implied by it, so true; one that shrinks the
    # greater side (x^2) is not shown by this rule.
    stated = sp.Ge(x**2 + 1, 2 * x)
    assert true_by_itself(sp.Ge(x**2 + 2, 2 * x), None, 5.0, stated)
    assert true_by_itself(sp.Ge(x**2 + 1, x), None, 5.0, stated)
    assert not true_by_itself(sp.Ge(x**2, 2 * x), None, 5.0, stated)
    # Strictness is not gained from a weak original.
    assert not true_by_itself(sp.Gt(x**2 + 1, x), None, 5.0, stated)
    # Without the stated relation, x^2 + 2 >= 2x is not shown by its gap's sign.
    assert not true_by_itself(sp.Ge(x**2 + 2, 2 * x), None, 5.0)


def test_a_loosened_loewner_bound_is_equivalent() -> None:
    a = sp.Symbol("a", positive=True)
    stated = LoewnerLe(sp.diag(a, a), sp.diag(2 * a, 3 * a))
    assert true_by_itself(
        LoewnerLe(sp.diag(a, 0), sp.diag(2 * a, 3 * a)), None, 5.0, stated
    )
    # A larger lower side is not implied (here it happens to hold: the rule
    # does not claim it, and the Gram test of the gap decides it on its own).
    grown_lower = LoewnerLe(sp.diag(3 * a, a), sp.diag(2 * a, 3 * a))
    assert not true_by_itself(grown_lower, None, 5.0, stated)


def test_a_sign_shown_before_expansion_makes_a_mutant_equivalent() -> None:
    # (38) of features-are-fate as extracted, a non-positive sum bounded by a
    # square, is stated under the flow's substitutions, which expand it. A
    # mutant changing a term inside one of the squares is still true, which
    # SymPy reads from the squares as written, not from their expansion; a
    # mutant turning a square's sign is not true.
    u, v, w, z = sp.symbols("u v w z", real=True)
    flow = {z: -u * w}
    # Unevaluated, as a mutant is built: SymPy would fold them to True.
    stated = sp.Le(-((u - w) ** 2) - (v * w) ** 2, z**2, evaluate=False)
    inside = sp.Le(-((u + w) ** 2) - (v * w) ** 2, z**2, evaluate=False)
    turned = sp.Le((u - w) ** 2 - (v * w) ** 2, z**2, evaluate=False)
    assert true_by_itself(inside, flow, 5.0)
    assert true_by_itself(inside, flow, 5.0, stated)
    assert not true_by_itself(turned, flow, 5.0, stated)


def test_a_slow_simplification_does_not_hide_a_sign_shown_as_written() -> None:
    # The change from the stated relation, -E^2, has no sign as written and E
    # (a sum of 8 fractions) takes SymPy longer than the budget to simplify;
    # the mutant's own gap 1 + E^2 is positive as written. Each form of the
    # expressions has its share of the budget, so the timeout of the one does
    # not stop the other.
    y = sp.Symbol("y", positive=True)
    fractions = sum((x + i) / (x**2 + i * y + 1) for i in range(1, 9))
    stated = sp.Le(-(fractions**2), fractions**2 + 1, evaluate=False)
    mutant = sp.Le(-(fractions**2), 1, evaluate=False)
    assert true_by_itself(mutant, None, 1.0, stated)


def test_a_sign_is_read_after_factoring() -> None:
    # An expanded square: no sign as written, a square once factored.
    a, b = sp.symbols("a b", real=True)
    expanded = sp.Ge(a**2 + 2 * a * b + b**2, 0, evaluate=False)
    assert true_by_itself(expanded, None, 5.0)
    assert not true_by_itself(sp.Ge(a**2 + 2 * a * b, 0, evaluate=False), None, 5.0)


def test_a_weakening_is_shown_from_the_sign_of_its_change() -> None:
    s, f, a = sp.symbols("s f a", positive=True)
    stated = sp.Ge(1 - a**2 * (f + s) / s, 0)
    # The greater side grown by a**2 >= 0: implied; shrunk: not.
    assert weakening(sp.Ge(1 - a**2 * f / s, 0), stated, lambda e: e)
    assert not weakening(sp.Ge(1 - a**2 * (f + 2 * s) / s, 0), stated, lambda e: e)


def test_a_swap_is_a_renaming_only_where_the_check_ranges_over_domains() -> None:
    u, v, w = sp.symbols("u v w", positive=True)
    stated = sp.Le(u * v, (u**2 + v**2) / 2 + w, evaluate=False)
    over_domains = relation_check(lambda: stated)
    assert renamed(over_domains, stated, u, v)
    # A judge at values of its own (states, a table): u and v are not
    # interchangeable names there.
    at_states = RelationCheck(lambda: stated, over_domains.judge)
    assert not renamed(at_states, stated, u, v)
    # Different samplers: different domains.
    sampled = relation_check(lambda: stated, samplers={u: lambda rng: 2.0})
    assert not renamed(sampled, stated, u, v)
    # A constraint that does not commute with the swap.
    constrained = relation_check(lambda: stated, substitutions={w: u})
    assert not renamed(constrained, stated, u, v)
    assert renamed(constrained, stated, v, sp.Symbol("t", positive=True))


def test_a_renaming_swap_is_judged_equivalent_by_mutate() -> None:
    u, v = sp.symbols("u v", positive=True)
    stated = sp.Le(2 * u * v, u**2 + v**2 + u, evaluate=False)

    def swap_outcome(check: RelationCheck) -> tuple[str, str]:
        claim = Claim(
            "s", "1", "a", Kind.INEQUALITY, "a statement", check, Status.HOLDS
        )
        (swap,) = [
            o
            for o in mutation_outcomes(claim, claim_seconds=None)
            if o.description == "u <-> v"
        ]
        return swap.outcome, swap.detail

    check = relation_check(lambda: stated, points=20)
    outcome, detail = swap_outcome(check)
    assert outcome == Outcome.EQUIVALENT
    assert detail.startswith("a renaming")
    # The same judge, not declared to range over domains: the swap is judged.
    _, detail = swap_outcome(RelationCheck(lambda: stated, check.judge))
    assert not detail.startswith("a renaming")


def test_a_form_sympy_gives_up_on_leaves_the_next_its_say(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # sin^2 + cos^2 - 1 >= 0 is read only once simplified; factoring (the form
    # before) raising must not end the test.
    t = sp.Symbol("t", real=True)
    trigonometric = sp.Ge(sp.sin(t) ** 2 + sp.cos(t) ** 2 - 1, 0, evaluate=False)
    assert true_by_itself(trigonometric, None, 5.0)

    def gives_up(*args: object, **kwargs: object) -> sp.Expr:
        raise NotImplementedError("factoring over this domain")

    monkeypatch.setattr(sp, "factor", gives_up)
    assert true_by_itself(trigonometric, None, 5.0)
