r"""The report of ``implicit-bias mutate``: kill rates per source, then survivors.

:func:`mutation_summary` counts the outcomes of
:func:`~implicit_bias.claims.mutate.mutate_claims` per source;
:func:`mutation_page` writes them as Markdown (``docs/mutation.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from implicit_bias.claims.mutate import ClaimMutations, Outcome
from implicit_bias.claims.theory_mutation import NOT_JUDGED, TheoryMutations
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.markdown import escape_markdown

__all__ = [
    "mutated_claims",
    "mutation_coverage",
    "mutation_page",
    "mutation_summary",
    "theory_summary",
]


def mutation_summary(reports: Sequence[ClaimMutations]) -> dict[str, dict[str, int]]:
    """Counts per source: symbolic mutants by outcome, and biased comparisons.

    Keys of each source's counts: ``claims``, ``relation_claims`` (claims
    whose check takes its relation), ``mutants`` (judged), ``unjudged`` (left
    by the claims' CPU budgets), one per
    :class:`~implicit_bias.claims.mutate.Outcome`, ``bias_claims`` (claims
    whose comparisons were shifted), ``detected_5x`` and ``detected_2x``
    (of them, those whose verdict changed under both signs of the shift).
    """
    counts: dict[str, dict[str, int]] = {}
    for report in reports:
        source = counts.setdefault(
            report.source,
            dict.fromkeys(
                (
                    "claims",
                    "relation_claims",
                    "mutants",
                    "unjudged",
                    Outcome.KILLED,
                    Outcome.UNDECIDED,
                    Outcome.NOT_DECIDED,
                    Outcome.EQUIVALENT,
                    Outcome.SURVIVED,
                    "bias_claims",
                    "detected_5x",
                    "detected_2x",
                ),
                0,
            ),
        )
        source["claims"] += 1
        source["relation_claims"] += bool(report.symbolic)
        source["mutants"] += len(report.symbolic)
        source["unjudged"] += report.unjudged
        for outcome in report.symbolic:
            source[outcome.outcome] += 1
        if report.bias:
            source["bias_claims"] += 1
            for factor, key in ((5, "detected_5x"), (2, "detected_2x")):
                shifted = [o for o in report.bias if abs(o.factor or 0) == factor]
                # The shift is the only change: any verdict but holds noticed it.
                source[key] += all(o.outcome != Outcome.SURVIVED for o in shifted)
    return counts


def mutated_claims(records: Mapping[str, object]) -> frozenset[str]:
    """The claims that received at least one mutant, from the JSON of
    ``implicit-bias mutate --json``: a judged mutant of their relation, a
    shifted comparison, or a theory mutant they judged.

    Raises:
      InvalidArgumentError: ``records`` is not that JSON.
    """
    claims = records.get("claims")
    if not isinstance(claims, list):
        raise InvalidArgumentError(
            "records: not the JSON of `implicit-bias mutate --json` (no 'claims' list)"
        )
    found = {
        str(record["id"])
        for record in claims
        if record.get("symbolic") or record.get("bias")
    }
    for outcome in records.get("theory") or ():  # type: ignore[attr-defined]
        found.update(outcome["judged"])
    for judgement in records.get("theory_judgements") or ():  # type: ignore[attr-defined]
        found.add(judgement["id"])
    return frozenset(found)


def theory_summary(theory: TheoryMutations) -> dict[str, dict[str, int]]:
    """Counts per source of the theory mutants its claims reach.

    Keys: ``mutants`` (reached), ``not judged``, one per
    :class:`~implicit_bias.claims.mutate.Outcome` (killed, equivalent,
    survived) and ``fails`` (kills by a ``fails`` verdict).
    """
    counts: dict[str, dict[str, int]] = {}
    for outcome in theory.outcomes:
        source = counts.setdefault(
            outcome.source,
            dict.fromkeys(
                (
                    "mutants",
                    NOT_JUDGED,
                    Outcome.KILLED,
                    "fails",
                    Outcome.EQUIVALENT,
                    Outcome.SURVIVED,
                ),
                0,
            ),
        )
        source["mutants"] += 1
        source[outcome.outcome] += 1
        source["fails"] += outcome.fails
    return counts


def mutation_coverage(
    reports: Sequence[ClaimMutations], theory: TheoryMutations | None = None
) -> dict[str, dict[str, int]]:
    """Per source: the claims expected to hold (``holding``) and how many of
    them received at least one mutant -- of their relation, of a theory
    function they call, or a shifted comparison (``mutated``)."""
    received = theory.received() if theory is not None else {}
    counts: dict[str, dict[str, int]] = {}
    for report in reports:
        if report.note.startswith("expected "):
            continue
        source = counts.setdefault(report.source, {"holding": 0, "mutated": 0})
        source["holding"] += 1
        source["mutated"] += bool(
            report.symbolic or report.bias or received.get(report.claim_id)
        )
    return counts


def _rate(killed: int, total: int) -> str:
    return f"{100 * killed / total:.1f}%" if total else "-"


def mutation_page(
    reports: Sequence[ClaimMutations],
    *,
    command: str,
    theory: TheoryMutations | None = None,
) -> str:
    """The Markdown report of ``implicit-bias mutate``: rates, then survivors.

    Args:
      reports: the outcomes, one per claim.
      command: the command that produced them, quoted in the page.
      theory: the outcomes of the theory layer's mutants, if they were run.
    """
    lines = [
        f"<!-- Generated by `{command}`. Do not edit: run it again. -->",
        "",
        "# Mutation testing: can each check fail?",
        "",
        "Each claim whose check takes its relation as input is judged again "
        "on altered copies of that relation (a constant times 1 +- 1e-3 or "
        "+- 1, a term's sign flipped or the term dropped, an exponent +- 1, "
        "two symbols of equal assumptions swapped); a mutant is *killed* "
        "when the check no longer says `holds` -- by `fails` (a refutation) or "
        "by `inconclusive` (it noticed, and refuted nothing: a check that "
        "answers every wrong formula so is weak, which the *fails share* "
        "shows) --, *equivalent* when SymPy "
        "shows the mutant true by itself (no sound check could kill it), and "
        "*survives* otherwise. Numeric "
        "and simulation claims deciding through `check_close` are run with "
        "the compared value shifted by +-2 and +-5 times the tolerance (a "
        "one-sided comparison, `check_positive` or "
        "`check_not_consistently_below`, is moved 2 and 5 times its resolution "
        "toward refutation: moved the other way it rightly still holds); a "
        "shift is detected when the claim's verdict is no longer `holds`. "
        "A claim's mutants are judged within a CPU budget (`--claim-seconds`) "
        "in an order spread over its relations; those it leaves are counted "
        "as *not judged* (not in the kill rate), and the claim is listed as "
        "mutation-tested in part.",
        "",
        f"Produced by `{command}`.",
        "",
        "## The relations",
        "",
        "| source | claims | with a relation | mutants | not judged | killed by "
        "fails | killed by inconclusive | equivalent | survived | kill rate | "
        "fails share | bias-tested | 5x detected | 2x detected |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
        "| --- | --- |",
    ]
    for source, c in mutation_summary(reports).items():
        decided = c["mutants"] - c[Outcome.EQUIVALENT] - c[Outcome.NOT_DECIDED]
        kills = c[Outcome.KILLED] + c[Outcome.UNDECIDED]
        lines.append(
            f"| {source} | {c['claims']} | {c['relation_claims']} | "
            f"{c['mutants']} | {c['unjudged'] + c[Outcome.NOT_DECIDED]} | "
            f"{c[Outcome.KILLED]} | "
            f"{c[Outcome.UNDECIDED]} | "
            f"{c[Outcome.EQUIVALENT]} | {c[Outcome.SURVIVED]} | "
            f"{_rate(kills, decided)} | {_rate(c[Outcome.KILLED], kills)} | "
            f"{c['bias_claims']} | {c['detected_5x']} | {c['detected_2x']} |"
        )
    lines += [
        "",
        "The kill rate is (killed by fails + killed by inconclusive) / (mutants - "
        "equivalent - not decided); the fails share is killed by fails / killed. "
        "*Not judged* counts the mutants a claim's budget left, and those a "
        "replayed check did not decide on its recorded path (listed below).",
        "",
    ]
    if theory is not None:
        lines += _theory_lines(theory)
    lines += _coverage_lines(reports, theory)
    lines += [
        "## Survivors, mutants killed only by inconclusive, undetected shifts",
        "",
    ]
    # A shifted comparison that leaves holds for any other verdict has been
    # noticed.
    weak = [
        (report, outcome)
        for report in reports
        for outcome in report.symbolic
        if outcome.outcome in (Outcome.SURVIVED, Outcome.UNDECIDED, Outcome.NOT_DECIDED)
    ] + [
        (report, outcome)
        for report in reports
        for outcome in report.bias
        if outcome.outcome == Outcome.SURVIVED
    ]
    if not weak:
        lines += ["None.", ""]
    for report, outcome in weak:
        shown = (
            "killed by inconclusive"
            if outcome.outcome == Outcome.UNDECIDED
            else outcome.outcome
        )
        lines.append(
            f"- `{report.claim_id}` ({shown}): "
            f"{escape_markdown(outcome.description)} -- "
            f"{escape_markdown(outcome.detail[:300])}"
        )
    if theory is not None:
        lines += _theory_survivor_lines(theory)
    received = theory.received() if theory is not None else {}
    excluded = theory.excluded if theory is not None else {}
    # A note on a claim with outcomes says what part of it was left out.
    in_part = [r for r in reports if r.note and (r.symbolic or r.bias)]
    not_run = [
        r
        for r in reports
        if r.note and not (r.symbolic or r.bias or received.get(r.claim_id))
    ]
    for heading, listed in (
        ("Claims mutation-tested in part", in_part),
        ("Claims not mutation-tested", not_run),
    ):
        if listed:
            lines += ["", f"## {heading}", ""]
            lines += [
                f"- `{r.claim_id}`: {escape_markdown(_why_not(r, theory, excluded))}"
                for r in listed
            ]
    return "\n".join(lines).rstrip("\n") + "\n"


def _why_not(
    report: ClaimMutations,
    theory: TheoryMutations | None,
    excluded: Mapping[str, str],
) -> str:
    """Why a claim received no mutant: its note, and why no theory mutant."""
    if theory is None or report.note.startswith("expected "):
        return report.note
    if report.claim_id in excluded:
        why = f"no theory mutant: {excluded[report.claim_id]}"
    elif not theory.reach.get(report.claim_id):
        why = "and it calls no function of the theory layer"
    else:
        why = "no theory mutant was judged by it within the budgets"
    return f"{report.note}; {why}"


def _theory_lines(theory: TheoryMutations) -> list[str]:
    lines = [
        "## The theory layer",
        "",
        "Each function of the theory layer that the claims call (found by "
        "running them once, with the calls recorded, after importing the "
        "sources again) is altered at up to two places in its body (an "
        "operator `+ - * /` turned into its opposite, a unary minus dropped, a "
        "number c into c + 1, a comparison turned around; never in a guard "
        "that raises). For each mutant, the theory, numerics, validation and "
        "source modules are imported again with it in place, so evaluators "
        "lambdified from the theory and tables computed at import carry the "
        "error, and each source's claims that call the function run, least "
        "tested and cheapest first, until one no longer says `holds`: the "
        "mutant is *killed* for that source (the *fails* column counts kills "
        "by a `fails` verdict, the rest by `inconclusive`). A mutant no claim "
        "kills is *equivalent* only when SymPy proves the altered function "
        "equal to the original at symbolic arguments, and *survives* "
        "otherwise. A claim whose two sides come from the same theory "
        "function (an evaluator lambdified from it against the function) "
        "cannot kill its mutants: it checks the generation, not the theory, "
        "and the survivors below name such functions.",
        "",
        "| source | theory mutants | not judged | killed | of them fails | "
        "equivalent | survived | kill rate |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for source, c in sorted(theory_summary(theory).items()):
        decided = c["mutants"] - c[Outcome.EQUIVALENT] - c[NOT_JUDGED]
        lines.append(
            f"| {source} | {c['mutants']} | {c[NOT_JUDGED]} | "
            f"{c[Outcome.KILLED]} | {_rate(c['fails'], c[Outcome.KILLED])} | "
            f"{c[Outcome.EQUIVALENT]} | {c[Outcome.SURVIVED]} | "
            f"{_rate(c[Outcome.KILLED], decided)} |"
        )
    lines += [
        "",
        "The kill rate is killed / (mutants - equivalent - not judged); "
        "*of them fails* is the share of the kills that are `fails`.",
        "",
    ]
    return lines


def _coverage_lines(
    reports: Sequence[ClaimMutations], theory: TheoryMutations | None
) -> list[str]:
    lines = [
        "## Coverage",
        "",
        "Claims expected to hold that received at least one mutant: of their "
        "relation, of a theory function they call, or a shifted comparison.",
        "",
        "| source | claims expected to hold | mutated | not mutated | coverage |",
        "| --- | --- | --- | --- | --- |",
    ]
    for source, c in mutation_coverage(reports, theory).items():
        lines.append(
            f"| {source} | {c['holding']} | {c['mutated']} | "
            f"{c['holding'] - c['mutated']} | {_rate(c['mutated'], c['holding'])} |"
        )
    return [*lines, ""]


def _theory_survivor_lines(theory: TheoryMutations) -> list[str]:
    survivors = [o for o in theory.outcomes if o.outcome == Outcome.SURVIVED]
    if not survivors:
        return []
    lines = ["", "Theory mutants no claim of a source killed:", ""]
    for outcome in survivors:
        lines.append(
            f"- `{outcome.source}`: `{outcome.mutant.module}:"
            f"{outcome.mutant.function}`, "
            # The description quotes code between backticks, balanced.
            f"{outcome.mutant.description} -- held by "
            + ", ".join(f"`{claim_id}`" for claim_id in outcome.judged)
        )
    return lines
