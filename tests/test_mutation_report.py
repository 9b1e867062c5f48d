"""The report of implicit-bias mutate: counts per source and survivors."""

from __future__ import annotations

import pytest

from implicit_bias.claims.mutate import ClaimMutations, MutantOutcome, Outcome
from implicit_bias.claims.theory_mutation import (
    NOT_JUDGED,
    ClaimJudgement,
    TheoryMutant,
    TheoryMutations,
    TheoryOutcome,
)
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.mutation_report import (
    mutated_claims,
    mutation_coverage,
    mutation_page,
    mutation_summary,
    theory_summary,
)


def test_the_mutation_page_counts_and_lists_survivors() -> None:
    killed = MutantOutcome("s:1:a", "2 -> 3", Outcome.KILLED, "fails")
    survived = MutantOutcome("s:1:a", "x <-> y", Outcome.SURVIVED, "holds")
    equivalent = MutantOutcome("s:1:a", "term dropped", Outcome.EQUIVALENT, "holds")
    shifted = [
        MutantOutcome("s:1:b", f"shift {f}", outcome, "", f)
        for f, outcome in (
            (2.0, Outcome.SURVIVED),
            (-2.0, Outcome.KILLED),
            (5.0, Outcome.KILLED),
            (-5.0, Outcome.KILLED),
        )
    ]
    reports = [
        ClaimMutations("s:1:a", "s", "identity", (killed, survived, equivalent), ()),
        ClaimMutations("s:1:b", "s", "numeric", (), tuple(shifted)),
        ClaimMutations("s:1:c", "s", "numeric", (), (), "not instrumented"),
        ClaimMutations("s:1:d", "s", "identity", (killed,), (), "1 of 9 mutants", 8),
    ]
    counts = mutation_summary(reports)["s"]
    assert counts["claims"] == 4
    assert (counts["mutants"], counts["killed"], counts["survived"]) == (4, 2, 1)
    assert counts["unjudged"] == 8
    assert (counts["bias_claims"], counts["detected_5x"], counts["detected_2x"]) == (
        1,
        1,
        0,
    )
    page = mutation_page(reports, command="implicit-bias mutate --source s")
    # Two killed of three judged non-equivalent mutants; 8 left unjudged.
    assert "| s | 4 | 2 | 4 | 8 | 2 | 0 | 1 | 1 | 66.7% | 100.0% | 1 | 1 | 0 |" in page
    assert "`s:1:a` (survived): x \\<-> y -- holds" in page
    in_part, not_tested = page.split("## Claims mutation-tested in part")[1].split(
        "## Claims not mutation-tested"
    )
    assert "`s:1:d`: 1 of 9 mutants" in in_part
    assert "`s:1:c`: not instrumented" in not_tested
    assert "s:1:c" not in in_part


def test_the_page_reports_the_theory_layer_and_coverage() -> None:
    mutant = TheoryMutant("pkg.theory", "square", 0, 3, "line 3: `x * x` -> `x / x`")
    other = TheoryMutant("pkg.theory", "cube", 1, 7, "line 7: `3` -> `4`")
    theory = TheoryMutations(
        outcomes=(
            TheoryOutcome(mutant, "s", Outcome.KILLED, ("s:1:c",), "s:1:c", True),
            TheoryOutcome(other, "s", Outcome.SURVIVED, ("s:1:e",)),
            TheoryOutcome(other, "s", NOT_JUDGED, ()),
        ),
        excluded={"s:1:f": "slow (run with --slow)"},
        reach={"s:1:c": frozenset({("pkg.theory", "square")}), "s:1:g": frozenset()},
        judgements=(ClaimJudgement("s:1:g", mutant, "holds", ""),),
    )
    reports = [
        ClaimMutations("s:1:c", "s", "numeric", (), (), "not instrumented"),
        ClaimMutations("s:1:e", "s", "numeric", (), (), "not instrumented"),
        ClaimMutations("s:1:f", "s", "numeric", (), (), "not instrumented"),
        ClaimMutations("s:1:g", "s", "numeric", (), (), "not instrumented"),
        ClaimMutations("s:1:h", "s", "numeric", (), (), "not instrumented"),
        ClaimMutations("s:1:x", "s", "identity", (), (), "expected fails: only ..."),
    ]
    assert theory_summary(theory)["s"] == {
        "mutants": 3,
        NOT_JUDGED: 1,
        Outcome.KILLED: 1,
        "fails": 1,
        Outcome.EQUIVALENT: 0,
        Outcome.SURVIVED: 1,
    }
    # c, e (by the mutants' judging) and g (a judgement) received a mutant.
    assert mutation_coverage(reports, theory)["s"] == {"holding": 5, "mutated": 3}
    page = mutation_page(reports, command="implicit-bias mutate", theory=theory)
    assert "| s | 3 | 1 | 1 | 100.0% | 0 | 1 | 50.0% |" in page
    assert "| s | 5 | 3 | 2 | 60.0% |" in page
    assert "`pkg.theory:cube`, line 7: `3` -> `4` -- held by `s:1:e`" in page
    not_tested = page.split("## Claims not mutation-tested")[1]
    assert "`s:1:c`" not in not_tested
    assert "`s:1:f`: not instrumented; no theory mutant: slow" in not_tested
    assert "`s:1:h`: not instrumented; and it calls no function" in not_tested


def test_the_claims_that_received_a_mutant_are_read_from_the_json() -> None:
    records = {
        "claims": [
            {"id": "s:1:a", "symbolic": [{"outcome": "killed"}], "bias": []},
            {"id": "s:1:b", "symbolic": [], "bias": [{"outcome": "killed"}]},
            {"id": "s:1:c", "symbolic": [], "bias": []},
            {"id": "s:1:d", "symbolic": [], "bias": []},
            {"id": "s:1:e", "symbolic": [], "bias": []},
        ],
        "theory": [{"judged": ["s:1:c"]}],
        "theory_judgements": [{"id": "s:1:d"}],
    }
    assert mutated_claims(records) == {"s:1:a", "s:1:b", "s:1:c", "s:1:d"}
    with pytest.raises(InvalidArgumentError, match="mutate --json"):
        mutated_claims({"theory": []})


def test_an_inconclusive_verdict_kills_but_is_not_a_refutation() -> None:
    """Issue 20's definition: killed when the check stops saying holds; the
    fails share tells refutations from inconclusive answers."""
    outcomes = (
        MutantOutcome("s:1:a", "2 -> 3", Outcome.KILLED, "fails"),
        MutantOutcome("s:1:a", "x -> -x", Outcome.UNDECIDED, "inconclusive"),
        MutantOutcome("s:1:a", "y -> -y", Outcome.UNDECIDED, "inconclusive"),
        MutantOutcome("s:1:a", "z -> -z", Outcome.SURVIVED, "holds"),
    )
    reports = [ClaimMutations("s:1:a", "s", "identity", outcomes, ())]
    page = mutation_page(reports, command="implicit-bias mutate")
    # 3 of 4 killed, 1 of them by fails.
    assert "| s | 1 | 1 | 4 | 0 | 1 | 2 | 0 | 1 | 75.0% | 33.3% | 0 | 0 | 0 |" in page
    assert "`s:1:a` (killed by inconclusive): x -> -x" in page
