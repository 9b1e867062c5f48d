"""Discovery: entry points, files and modules; broken and duplicate sources."""

from __future__ import annotations

import importlib.metadata
import sys
import textwrap
from pathlib import Path

import pytest

from implicit_bias.claims.discovery import (
    ENTRY_POINT_GROUP,
    SourceNotFoundError,
    default_registry,
    discover,
)

NOTE = textwrap.dedent(
    """
    import sympy as sp
    from implicit_bias.claims import Claim, Kind, Source, Status, relation_check

    x = sp.Symbol("x", positive=True)
    SOURCE = Source(
        "{id}",
        "A note",
        claims=(
            Claim("{id}", "1", "log", Kind.IDENTITY, "log x^2 = 2 log x",
                  relation_check(lambda: sp.Eq(sp.log(x**2), 2 * sp.log(x))),
                  Status.HOLDS, quote="log x^2 = 2 log x"),
        ),
    )
    """
)


def _note(directory: Path, name: str, source_id: str) -> Path:
    path = directory / f"{name}.py"
    path.write_text(NOTE.format(id=source_id), encoding="utf-8")
    return path


def test_the_four_papers_register_through_the_entry_point_group() -> None:
    points = {
        p.name: p.value
        for p in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
        if p.dist is not None and p.dist.name == "implicit-bias"
    }
    assert points == {
        "ptft-relu-penalty": "implicit_bias.sources.ptft_relu_penalty:SOURCE",
        "ptft-diagonal-networks": "implicit_bias.sources.ptft_diagonal_networks:SOURCE",
        "features-are-fate": "implicit_bias.sources.features_are_fate:SOURCE",
        "adaptive-tangent-features": (
            "implicit_bias.sources.adaptive_tangent_features:SOURCE"
        ),
    }
    registry = default_registry()
    assert set(points) <= set(registry.sources)
    for source_id in points:
        assert registry.origins[source_id].startswith(f"entry point {source_id} = ")
        assert registry.source(source_id).citation is not None


def test_the_framework_names_no_paper() -> None:
    claims_dir = Path(__file__).parents[2] / "implicit_bias" / "claims"
    for path in claims_dir.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for paper in ("ptft_relu_penalty", "features_are_fate", "adaptive_tangent"):
            assert f"sources.{paper}" not in text, path


def test_a_file_registers_its_sources(tmp_path: Path) -> None:
    registry = discover(files=[_note(tmp_path, "note", "my-note")], entry_points=False)
    assert registry.errors == []
    assert [c.id for c in registry.claims("my-note")] == ["my-note:1:log"]
    assert registry.claim("my-note:1:log").check().status == "holds"
    assert registry.origins["my-note"] == f"file {tmp_path / 'note.py'}"


def test_a_module_registers_its_sources(tmp_path: Path) -> None:
    _note(tmp_path, "my_module_note", "module-note")
    sys.path.insert(0, str(tmp_path))
    try:
        registry = discover(modules=["my_module_note"], entry_points=False)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("my_module_note", None)
    assert registry.errors == []
    assert list(registry.sources) == ["module-note"]


def test_a_broken_source_is_reported_and_the_others_still_load(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('half-written note')\n", encoding="utf-8")
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n", encoding="utf-8")
    good = _note(tmp_path, "good", "good-note")
    registry = discover(
        files=[broken, empty, tmp_path / "missing.py", good],
        modules=["no_such_module_anywhere"],
        entry_points=False,
    )
    assert list(registry.sources) == ["good-note"]
    messages = [str(error) for error in registry.errors]
    assert len(messages) == 4
    assert "RuntimeError: half-written note" in messages[0]
    assert "defines no Source" in messages[1]
    assert "no such file" in messages[2]
    assert "ModuleNotFoundError" in messages[3]


def test_a_duplicate_source_id_is_reported_and_skipped(tmp_path: Path) -> None:
    first = _note(tmp_path, "first", "same-id")
    second = _note(tmp_path, "second", "same-id")
    registry = discover(files=[first, second], entry_points=False)
    assert registry.origins["same-id"] == f"file {first}"
    assert len(registry.errors) == 1
    assert "already registered by file" in str(registry.errors[0])


def test_unknown_source_and_claim_name_what_is_known(tmp_path: Path) -> None:
    registry = discover(files=[_note(tmp_path, "n", "n-note")], entry_points=False)
    with pytest.raises(SourceNotFoundError, match="known sources: n-note"):
        registry.claims("nope")
    with pytest.raises(ValueError, match="claim='n-note:9:x' is not registered"):
        registry.claim("n-note:9:x")


def test_what_a_source_prints_while_loading_goes_to_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # stdout is the command's: `verify --json --file note.py` must stay JSON.
    note = _note(tmp_path, "chatty", "chatty-note")
    note.write_text(
        note.read_text(encoding="utf-8") + "print('loaded the note')\n",
        encoding="utf-8",
    )
    registry = discover(files=[note], entry_points=False)
    assert list(registry.sources) == ["chatty-note"]
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "loaded the note" in captured.err


WARMED_NOTE = textwrap.dedent(
    """
    import sympy as sp
    from implicit_bias.claims import Claim, Kind, Source, Status, relation_check

    x = sp.Symbol("x", positive=True)
    CALLS = []


    def warm_up(claim_ids):
        CALLS.append(sorted(claim_ids))
        if "raise" in "{id}":
            raise RuntimeError("no warm-up today")


    SOURCE = Source(
        "{id}",
        "A note",
        claims=tuple(
            Claim("{id}", str(n), "log", Kind.IDENTITY, "log x^2 = 2 log x",
                  relation_check(lambda: sp.Eq(sp.log(x**2), 2 * sp.log(x))),
                  Status.HOLDS, quote="log x^2 = 2 log x")
            for n in (1, 2)
        ),
        warm_up=warm_up,
    )
    """
)


def test_warm_up_calls_each_source_with_its_claims_to_run(tmp_path: Path) -> None:
    (tmp_path / "warmed_a.py").write_text(
        WARMED_NOTE.replace("{id}", "warmed-a"), encoding="utf-8"
    )
    (tmp_path / "warmed_b.py").write_text(
        WARMED_NOTE.replace("{id}", "warmed-b"), encoding="utf-8"
    )
    (tmp_path / "raise_c.py").write_text(
        WARMED_NOTE.replace("{id}", "raise-c"), encoding="utf-8"
    )
    registry = discover(
        files=[tmp_path / f"{n}.py" for n in ("warmed_a", "warmed_b", "raise_c")],
        entry_points=False,
    )
    chosen = [
        registry.claim("warmed-a:2:log"),
        registry.claim("raise-c:1:log"),
    ]
    errors = registry.warm_up(chosen)
    calls = {
        source_id: sys.modules[
            registry.source(source_id).warm_up.__module__  # type: ignore[union-attr]
        ].CALLS
        for source_id in ("warmed-a", "warmed-b", "raise-c")
    }
    assert calls == {
        "warmed-a": [["warmed-a:2:log"]],
        "warmed-b": [],
        "raise-c": [["raise-c:1:log"]],
    }
    # A warm-up that raises is reported by source, not fatal.
    assert len(errors) == 1
    assert errors[0].startswith("raise-c: warm-up raised RuntimeError")
