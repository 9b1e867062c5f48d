"""The hand-written prefaces of the docs pages state no verdict (issue 20).

:func:`implicit_bias.reports.source_page` opens each ``docs/<source>.md`` with
``docs/prefaces/<source>.md``. Verdicts reach readers only from the records: a
preface gives context and conventions (what the paper is, its notation, the
regimes, how the claims are organized, how to read the page) and points at the
generated sections, and every statement that something holds or fails is
generated from ``docs/verdicts/<source>.json``. A preface that says so itself
goes stale the day a verdict changes, and then contradicts the page below it.

The scan looks for the vocabulary of verdicts, not for every paraphrase of
one: it keeps the common phrasings out ("holds only for", "does not hold as
printed", "off by", "misprint", "corrected claim", "proven", "agree", ...).
Only code spans that name a CLI command are skipped, and a short allow-list of
phrases describes the page's conventions.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from implicit_bias.reports import source_page

DOCS = Path(__file__).resolve().parents[1] / "docs"
PREFACES = sorted((DOCS / "prefaces").glob("*.md"))

#: Each pattern (case-insensitive, words split over lines allowed) and what
#: it says about a claim.
VERDICT_VOCABULARY: dict[str, str] = {
    r"\b(holds?|holding|held)\b": "holds / does not hold",
    r"\bfail(s|ed|ing|ures?)?\b": "fails",
    r"\b(in)?correct(s|ed|ly|ions?)?\b": "correct / incorrect / corrected",
    r"\bwrong(ly)?\b": "wrong",
    r"\berr(ors?|oneous(ly)?|ata|atum)\b": "an error",
    r"\b(misprint(s|ed)?|typos?|slips?|mistakes?|mistaken)\b": "a misprint or slip",
    r"\brefut(e|es|ed|ing|ations?)\b": "refuted",
    r"\bdisprov(e|es|ed|en)\b": "disproved",
    r"\bprov(ed|en|es)\b": "proven",
    r"\bconfirm(s|ed|ing|ations?)?\b": "confirmed",
    r"\bcontradict(s|ed|ing|ions?|ory)?\b": "contradicts",
    r"\boff\s+by\b": "off by",
    r"\bcounter-?examples?\b": "a counterexample",
    r"\bfalse\b": "false",
    r"\b(is|are|not|remains?)\s+true\b": "true",
    r"\b(dis)?agree(s|d|ment)?\b": "agrees",
    r"\b(not|never)\s+reproduc\w*|\breproduc(ed|es)\b|\bnon-?replication\b": (
        "(not) reproduced"
    ),
    r"\b(inconclusive|undecided)\b": "inconclusive",
    r"\bverifie[ds]\b": "verified",
    r"\b(in)?valid(ity|ates?|ated)?\b": "valid / invalid",
    r"\bwe\s+(found|find|show(ed)?)\b": "we found",
}
VERDICT_PATTERN = re.compile(
    "|".join(f"(?:{pattern})" for pattern in VERDICT_VOCABULARY), re.IGNORECASE
)

#: Phrases a preface may use to describe the page's conventions, not a verdict.
ALLOWED_PHRASES: tuple[str, ...] = (
    "`as-proved`",  # the id suffix of a claim encoding a proof step as written
    'section "Errors in the source"',  # a pointer at the generated section
)

#: A code span naming a CLI command (`implicit-bias verify --source x`).
CLI_CODE_SPAN = re.compile(r"`implicit-bias(?: [^`]*)?`")


def _blank(text: str, start: int, end: int) -> str:
    """``text`` with ``text[start:end]`` replaced by spaces, newlines kept."""
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


def verdict_statements(text: str) -> list[tuple[int, str, str]]:
    """Each verdict word of ``text``: its line number (from 1), the word and its line.

    Code spans naming a CLI command and the phrases of ``ALLOWED_PHRASES``
    (case-insensitive) are skipped; everything else is scanned, code spans
    of claim ids included.
    """
    scanned = text
    for span in CLI_CODE_SPAN.finditer(text):
        scanned = _blank(scanned, span.start(), span.end())
    for phrase in ALLOWED_PHRASES:
        pattern = r"\s+".join(map(re.escape, phrase.split()))
        for match in re.finditer(pattern, scanned, re.IGNORECASE):
            scanned = _blank(scanned, match.start(), match.end())
    lines = text.splitlines()
    found = []
    for match in VERDICT_PATTERN.finditer(scanned):
        number = scanned.count("\n", 0, match.start()) + 1
        found.append((number, " ".join(match.group().split()), lines[number - 1]))
    return found


def test_every_shipped_page_has_a_preface() -> None:
    assert {path.stem for path in PREFACES} == {
        "adaptive-tangent-features",
        "features-are-fate",
        "ptft-diagonal-networks",
        "ptft-relu-penalty",
    }


@pytest.mark.parametrize("preface", PREFACES, ids=lambda path: path.stem)
def test_no_preface_states_a_verdict(preface: Path) -> None:
    found = verdict_statements(preface.read_text(encoding="utf-8"))
    relative = preface.relative_to(DOCS.parent)
    listed = [f"{relative}:{n}: {word!r} in: {line.strip()}" for n, word, line in found]
    assert not found, "verdicts in a preface (point at the generated sections):\n" + (
        "\n".join(listed)
    )


#: Items of the prefaces as they were before issue 20, each a verdict.
VERDICT_SENTENCES = [
    "## What does not hold as printed",
    "holds only for 0 < sigma < 1 (at sigma = 1 the slope is positive throughout)",
    "so eqs. (16)-(17) hold only at sigma = 0",
    '"for any delta there is g" fails (f(x) = x: sup is 2, never reached)',
    "The fine-tuning endpoint (142) is wrong with label noise",
    "Eq. (137) drops the 1/(2 pi)^(n/2) of (136) (off by 9792.6 at n = 10).",
    "Eq. (28) is an\nupper bound, not an equality; eq. (32) as extracted is a misprint",
    "Corrected claim `sec-1.2:log-log-derivative`.",
    "the root is unique whenever rho <= 0 (proven, `10:unique-root-if`)",
    "is false: minimizers with both branches nonzero exist",
    "Theorem 1 and Lemma 5 agree with direct solves of problems (4) and (27)",
    "Figure 1's ordering is inconclusive in our synthetic analogue",
    "Not reproduced at this machine's size",
    "a typo the authors make twice",
    "an error in the source",
    '"Errors in the source" lists it',  # only the pointer at the section is allowed
    "the derivation is confirmed by SymPy",
    "refuted by a certified counterexample",
    "the simulation contradicts eq. (16)",
    "the three forms of the PR agree",
    "the statement is not true for bounded omega",
    "the lemma remains valid",
    "We found that the readout carries a third of the change",
    "`relu_ptft_penalty` fails at m = 0",  # a code span that is not a command
]


@pytest.mark.parametrize("sentence", VERDICT_SENTENCES)
def test_the_scan_finds_a_verdict(sentence: str) -> None:
    assert verdict_statements(sentence)


#: Context and conventions, which the scan lets through.
CONVENTION_SENTENCES = [
    "Equation numbers are those of the text we encoded.",
    "We take gradient flow w_dot = -grad L and the residual r = X beta - y.",
    "A claim whose id ends in `as-printed` encodes the formula as the text prints it.",
    "The threshold sigma sqrt(delta)/||f|| is the text's; the shareholders are not.",
    "Run `implicit-bias verify --source features-are-fate --quick` to re-check.",
    "A claim whose id ends in `as-proved` encodes the step as the proof writes it.",
    'The section "Errors in the source" below ranks them by severity.',
    "The simulations train deep linear networks from W_l(0) = alpha W_bar_l.",
]


@pytest.mark.parametrize("sentence", CONVENTION_SENTENCES)
def test_the_scan_lets_conventions_through(sentence: str) -> None:
    assert verdict_statements(sentence) == []


def test_the_scan_names_the_line_of_a_verdict() -> None:
    text = "Context.\n\nEq. (13)'s interval has its endpoints\nreversed: it fails.\n"
    assert verdict_statements(text) == [(4, "fails", "reversed: it fails.")]


def test_an_allowed_phrase_lets_only_itself_through() -> None:
    assert verdict_statements("ends in `as-proved`") == []
    assert [w for _, w, _ in verdict_statements("the step as proved")] == ["proved"]


def test_every_allowed_phrase_is_needed() -> None:
    """The allow-list stays short: each phrase holds a verdict word and a preface
    uses it."""
    texts = [" ".join(path.read_text("utf-8").split()).lower() for path in PREFACES]
    for phrase in ALLOWED_PHRASES:
        assert VERDICT_PATTERN.search(phrase), phrase
        assert any(phrase.lower() in text for text in texts), phrase


#: How a preface points at a generated section of its page.
SECTION_POINTER = re.compile(r'\bsection\s+"([^"]+)"')


@pytest.mark.parametrize("preface", PREFACES, ids=lambda path: path.stem)
def test_a_preface_points_at_generated_sections_of_its_page(preface: Path) -> None:
    """In place of the verdicts it once listed, each preface names the generated
    sections that list them; renaming such a section must update the pointer."""
    text = preface.read_text("utf-8")
    named = SECTION_POINTER.findall(" ".join(text.split()))
    # The page's frame as the code writes it now: no claim, so no record needed.
    page = source_page(preface.stem, [], {})
    generated = set(re.findall(r"^#+ (.+)$", page, re.MULTILINE))
    written = set(re.findall(r"^#+ (.+)$", text, re.MULTILINE))
    assert named, f"{preface.name} points at no generated section"
    for section in named:
        message = f'{preface.name}: its page has no generated section "{section}"'
        assert section in generated, message
        assert section not in written, message
