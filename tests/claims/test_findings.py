"""Errors in a source: slips, their severity, and the section pages show."""

from __future__ import annotations

import pytest

from implicit_bias.claims import (
    Basis,
    Claim,
    Kind,
    Reading,
    Severity,
    Slip,
    Source,
    Status,
    Verdict,
)
from implicit_bias.claims.findings import errors_markdown
from implicit_bias.errors import InvalidArgumentError


def _claim(
    equation: str, slip: str | None = None, reading: Reading = Reading.PRINTED
) -> Claim:
    return Claim(
        "note",
        equation,
        "a",
        Kind.IDENTITY,
        "",
        print,
        Status.FAILS,
        reading=reading,
        slip=slip,
    )


TYPO = Slip("factor-2", Severity.TYPO, "(8) drops a factor 2 that (9) keeps.")
WRONG = Slip("endpoint", Severity.SUBSTANTIVE, "(12) is off by 1/2 for sigma > 0.")
STEP = Slip("step-10", Severity.MINOR, "(10) has the wrong sign; (11) is right.")
LOST = Slip(
    "lost-sign",
    Severity.MINOR,
    "(13) lacks a minus sign.",
    artefact="As extracted, the exponent lost its sign; (14) uses it.",
)
CLAIMS = (
    _claim("8", "factor-2"),
    _claim("9", "factor-2"),
    _claim("10", "step-10"),
    _claim("12", "endpoint"),
    _claim("13", "lost-sign"),
    _claim("14"),
    _claim("15", reading=Reading.INTERPRETATION),
)


def _fails() -> Verdict:
    return Verdict.fails("no", Basis.PROOF, "x = 1")


def test_a_slip_is_validated() -> None:
    with pytest.raises(InvalidArgumentError, match="id: lower case"):
        Slip("Factor 2", Severity.TYPO, "x")
    with pytest.raises(InvalidArgumentError, match="severity must be one of"):
        Slip("f", "grave", "x")  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="summary says where"):
        Slip("f", Severity.TYPO, " ")
    assert Slip("f", "typo", "x").severity is Severity.TYPO  # type: ignore[arg-type]
    assert TYPO.counted
    assert not LOST.counted


def test_only_a_printed_or_prose_claim_names_a_slip() -> None:
    with pytest.raises(InvalidArgumentError, match="printed or prose, not inter"):
        _claim("8", "factor-2", Reading.INTERPRETATION)


def test_a_source_declares_each_slip_its_claims_name_and_no_other() -> None:
    slips = (TYPO, STEP, WRONG, LOST)
    assert Source("note", "N", claims=CLAIMS, slips=slips).slips == slips
    with pytest.raises(InvalidArgumentError, match=r"does not declare: \['endpoint'\]"):
        Source("note", "N", claims=CLAIMS, slips=(TYPO, STEP, LOST))
    unused = Slip("unused", Severity.TYPO, "x")
    with pytest.raises(InvalidArgumentError, match=r"no claim shows \['unused'\]"):
        Source("note", "N", claims=CLAIMS, slips=(*slips, unused))
    with pytest.raises(InvalidArgumentError, match=r"repeated: \['factor-2'\]"):
        Source("note", "N", claims=CLAIMS, slips=(*slips, TYPO))


def test_the_page_ranks_distinct_errors_and_sets_artefacts_apart() -> None:
    verdicts = {c.id: _fails() for c in CLAIMS}
    page = errors_markdown((TYPO, STEP, WRONG, LOST), CLAIMS, verdicts)
    assert (
        "3 distinct errors (1 substantive, 1 minor, 1 typo) shown by the 6 printed "
        "or prose claims that fail; 1 possible extraction artefacts, not counted; "
        "1 failing claims whose error is not yet assessed."
    ) in page
    ranked = [line for line in page.splitlines() if line[:2] in ("1.", "2.", "3.")]
    assert ranked == [
        "1. **substantive** (endpoint): (12) is off by 1/2 for sigma > 0. Shown by "
        "`12:a`.",
        "2. **minor** (step-10): (10) has the wrong sign; (11) is right. Shown by "
        "`10:a`.",
        "3. **typo** (factor-2): (8) drops a factor 2 that (9) keeps. Shown by "
        "`8:a`, `9:a`.",
    ]
    assert (
        "- (lost-sign, minor if the paper prints it): (13) lacks a minus sign. As "
        "extracted, the exponent lost its sign; (14) uses it. Shown by `13:a`."
    ) in page
    assert "Not yet assessed: `14:a`." in page
    # Our own reading failing is no error of the source.
    assert "15:a" not in page


def test_a_slip_no_failing_verdict_shows_is_not_listed() -> None:
    verdicts = {c.id: _fails() for c in CLAIMS}
    verdicts[CLAIMS[3].id] = Verdict.holds("now right", Basis.PROOF)
    page = errors_markdown((TYPO, STEP, WRONG, LOST), CLAIMS, verdicts)
    assert "(endpoint)" not in page
    assert page.count("**") == 4


def test_a_simulation_failing_on_its_statistics_is_no_error_of_the_source() -> None:
    # category() calls it a non-replication; the errors section must agree,
    # or one claim is counted as both.
    from implicit_bias.reports import category

    simulation = Claim(
        "note",
        "16",
        "a",
        Kind.SIMULATION,
        "",
        print,
        Status.FAILS,
        reading=Reading.PROSE,
    )
    statistical = Verdict.fails("no", Basis.STATISTICAL, "seeds 0-9")
    deterministic = Verdict.fails("no", Basis.NUMERICAL, "converged runs")
    claims = (*CLAIMS, simulation)
    verdicts = {c.id: _fails() for c in CLAIMS}
    for verdict, shown in ((statistical, False), (deterministic, True)):
        page = errors_markdown(
            (TYPO, STEP, WRONG, LOST), claims, {**verdicts, simulation.id: verdict}
        )
        assert ("16:a" in page) is shown
        assert (category(simulation, verdict) == "error in the source") is shown
        assert f"the {6 + shown} printed or prose claims that fail" in page
