"""docs/authoring.md runs as printed: its Python blocks, in order, in one namespace."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from implicit_bias.claims.discovery import discover

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
