"""``implicit-bias new``: a skeleton whose claims hold before anything is edited."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from implicit_bias import cli
from implicit_bias.claims import discover, run_claims
from implicit_bias.claims.mutate import mutation_outcomes
from implicit_bias.claims.recording import lint_claim
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.latex import typeset_counts
from implicit_bias.scaffold import scaffold
from tests.third_party import write_entry_point


def test_the_skeleton_registers_a_source_whose_claims_are_as_expected(
    tmp_path: Path,
) -> None:
    written = scaffold("my-note", tmp_path / "my-note")
    names = sorted(str(p.relative_to(tmp_path / "my-note")) for p in written)
    assert names == [
        "README.md",
        "my_note/__init__.py",
        "pyproject.toml",
        "tests/test_my_note.py",
    ]
    pyproject = (tmp_path / "my-note" / "pyproject.toml").read_text()
    assert '[project.entry-points."implicit_bias.sources"]' in pyproject
    assert 'my-note = "my_note:SOURCE"' in pyproject
    sys.path.insert(0, str(tmp_path / "my-note"))
    try:
        registry = discover(modules=["my_note"], entry_points=False)
    finally:
        sys.path.remove(str(tmp_path / "my-note"))
        sys.modules.pop("my_note", None)
    assert registry.errors == []
    claims = registry.claims("my-note")
    assert [c.id for c in claims] == [
        "my-note:1:log-of-square",
        "my-note:2:difference-of-exponentials-step-1",
        "my-note:2:difference-of-exponentials-step-2",
    ]
    assert all(r.as_expected for r in run_claims(claims, workers=1))


def test_new_refuses_bad_names_and_full_directories(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgumentError, match="name='My Note'"):
        scaffold("My Note", tmp_path / "x")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "file").write_text("")
    with pytest.raises(InvalidArgumentError, match="not empty"):
        scaffold("full-note", tmp_path / "full")


def test_the_command_writes_the_skeleton(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["new", "a-note", str(tmp_path / "a")]) == 0
    assert (tmp_path / "a" / "a_note" / "__init__.py").is_file()
    assert "implicit-bias verify --source a-note" in capsys.readouterr().out
    assert cli.main(["new", "a-note", str(tmp_path / "a")]) == 2
    assert "not empty" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("implicit-bias", "the distribution 'implicit-bias' is installed"),
        ("sympy", "the distribution 'sympy' is installed"),
        ("json", "the module 'json' is importable"),
    ],
)
def test_new_refuses_a_name_that_would_replace_or_shadow_what_is_installed(
    tmp_path: Path, name: str, why: str
) -> None:
    # pip install -e of `new implicit-bias` would uninstall the toolkit.
    with pytest.raises(InvalidArgumentError, match=why):
        scaffold(name, tmp_path / name)
    assert not (tmp_path / name).exists()


def test_the_skeleton_is_written_in_the_style_that_keeps_everything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 21: the skeleton a user starts from is the style whose claims are
    # typeset as mathematics and mutation-tested, and says how to see that.
    scaffold("kept-note", tmp_path / "kept-note")
    init = (tmp_path / "kept-note" / "kept_note" / "__init__.py").read_text()
    assert "lambda: check_identity(sp.log(x**2), 2 * sp.log(x))" in init
    assert "implicit-bias check-source --source kept-note" in init
    readme = (tmp_path / "kept-note" / "README.md").read_text()
    assert "implicit-bias check-source --source kept-note" in readme
    sys.path.insert(0, str(tmp_path / "kept-note"))
    try:
        registry = discover(modules=["kept_note"], entry_points=False)
    finally:
        sys.path.remove(str(tmp_path / "kept-note"))
        sys.modules.pop("kept_note", None)
    claims = registry.claims("kept-note")
    assert typeset_counts(claims) == {"mathematics": len(claims), "text": 0}
    assert [lint_claim(c).problems for c in claims] == [()] * len(claims)
    outcomes = mutation_outcomes(claims[0], limit=4)
    assert len(outcomes) == 4
    assert all(o.killed for o in outcomes)


def test_a_skeleton_renamed_in_one_place_only_is_a_load_error_naming_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 21: SOURCE_ID edited, the entry point not: registered silently
    # under the new id, while the skeleton's hint (and pyproject.toml) named
    # the old one. The skeleton says the two go together.
    root = tmp_path / "my-note"
    scaffold("my-note", root)
    init = root / "my_note" / "__init__.py"
    text = init.read_text()
    assert "it is also the entry point's name\n#: in pyproject.toml" in text
    init.write_text(text.replace('SOURCE_ID = "my-note"', 'SOURCE_ID = "ridge-note"'))
    # Installed as pip would: the package and its entry point on sys.path.
    write_entry_point(root, "my-note", "my-note", "my_note:SOURCE")
    monkeypatch.syspath_prepend(str(root))
    try:
        registry = discover()
    finally:
        sys.modules.pop("my_note", None)
    assert "ridge-note" not in registry.sources
    assert "my-note" not in registry.sources
    (error,) = [e for e in registry.errors if e.distribution == "my-note"]
    assert "named 'my-note' but registers the source 'ridge-note'" in error.message
