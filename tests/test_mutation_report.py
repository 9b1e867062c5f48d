"""The report of implicit-bias mutate: counts per source and survivors."""

from __future__ import annotations

from implicit_bias.claims.mutate import ClaimMutations, MutantOutcome, Outcome
from implicit_bias.mutation_report import mutation_page, mutation_summary


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
    assert "| s | 4 | 2 | 4 | 8 | 2 | 0 | 1 | 1 | 66.7% | 1 | 1 | 0 |" in page
    assert "`s:1:a` (survived): x \\<-> y -- holds" in page
    in_part, not_tested = page.split("## Claims mutation-tested in part")[1].split(
        "## Claims not mutation-tested"
    )
    assert "`s:1:d`: 1 of 9 mutants" in in_part
    assert "`s:1:c`: not instrumented" in not_tested
    assert "s:1:c" not in in_part
