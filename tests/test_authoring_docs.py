"""docs/authoring.md runs as printed: its Python blocks, in order, in one namespace."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from implicit_bias.claims.discovery import discover
from implicit_bias.claims.recording import lint_claim
from implicit_bias.latex import typeset_counts

AUTHORING = Path(__file__).resolve().parents[1] / "docs" / "authoring.md"
#: A block that must not run is marked ```python no-run (none is, today).
_BLOCK = re.compile(r"^```python( no-run)?\n(.*?)^```", flags=re.DOTALL | re.MULTILINE)


def _blocks() -> list[str]:
    return [code for skip, code in _BLOCK.findall(AUTHORING.read_text()) if not skip]


def test_the_guide_has_an_example_per_check() -> None:
    text = "\n".join(_blocks())
    for helper in (
        "check_identity",
        "check_limit",
        "check_series",
        "check_inequality",
        "check_integral",
        "check_mean",
        "check_against_reference",
        "check_convergence_order",
        "check_descent_endpoint",
        "Derivation(",
        "Source(",
        "register_profiles()",
    ):
        assert helper in text, helper


def test_every_block_runs_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    # Run as `python my_claims.py` would: the guarded run of every claim too.
    namespace: dict[str, object] = {"__name__": "__main__"}
    for number, block in enumerate(_blocks(), start=1):
        code = compile(block, f"{AUTHORING}:block-{number}", "exec")
        exec(code, namespace)
    # A property test the guide defines runs as pytest would run it.
    tests = [v for k, v in namespace.items() if k.startswith("test_") and callable(v)]
    assert tests
    for test in tests:
        test()
    printed = capsys.readouterr().out
    assert "factorization-note:5:bound-step-2 holds numerical" in printed


def test_the_blocks_make_a_claims_file(tmp_path: Path) -> None:
    # Saved as one file, the guide's code is what `verify --file` loads.
    path = tmp_path / "my_claims.py"
    path.write_text("\n\n".join(_blocks()))
    registry = discover(files=[path], entry_points=False)
    assert not registry.errors, [str(e) for e in registry.errors]
    (source,) = registry.sources.values()
    assert source.id == "factorization-note"
    assert len(source.all_claims()) == 12


def test_the_guide_leads_with_the_style_that_keeps_everything(
    tmp_path: Path,
) -> None:
    # Issue 21: the first style the guide showed (a bare check_identity) was
    # typeset as text and not mutated; the style that kept both came later.
    # Now the guide opens with the one style, and each of its claims is
    # typeset as mathematics and mutation-tested (or expected not to hold).
    text = AUTHORING.read_text()
    opening = text[: text.index("## The running example")]
    assert "`check=lambda:\ncheck_identity(lhs, rhs)`" in opening
    assert "implicit-bias check-source --file my_claims.py" in opening
    claims_section = "\n".join(_blocks()[1:3])
    assert "relation_check(" not in claims_section
    path = tmp_path / "my_claims.py"
    path.write_text("\n\n".join(_blocks()))
    (source,) = discover(files=[path], entry_points=False).sources.values()
    claims = source.all_claims()
    assert typeset_counts(claims) == {"mathematics": len(claims), "text": 0}
    problems = {c.id: lint_claim(c).problems for c in claims}
    assert problems == dict.fromkeys(problems, ())
