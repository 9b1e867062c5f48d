"""Discovery: entry points, files and modules; broken and duplicate sources."""

from __future__ import annotations

import importlib
import importlib.metadata
import signal
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from implicit_bias.claims.discovery import (
    ENTRY_POINT_GROUP,
    IMPORT_TIMEOUT_VARIABLE,
    TOOLKIT_DISTRIBUTION,
    LoadInterrupted,
    Registry,
    SourceNotFoundError,
    default_registry,
    discover,
    extended_registry,
    load_file,
    shipped_registry,
)
from implicit_bias.errors import InvalidArgumentError
from tests.third_party import installed_package, write_entry_point

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
        source_id: sys.modules[registry.source(source_id).warm_up.__module__].CALLS
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


_MUST_BE = "must be a Source, a non-empty sequence of Sources, or a callable"


@pytest.mark.parametrize(
    ("sources", "message"),
    [
        ("42", "SOURCES is int 42"),
        ("'listed'", "SOURCES is str 'listed'"),
        ("[]", "SOURCES is empty"),
        ("[SOURCE, 42]", "SOURCES[1] is int 42"),
        ("lambda: None", "SOURCES() is NoneType None"),
    ],
)
def test_sources_that_are_not_sources_are_a_load_error_naming_the_file(
    tmp_path: Path, sources: str, message: str
) -> None:
    note = _note(tmp_path, "listed", "listed-note")
    note.write_text(
        note.read_text(encoding="utf-8") + f"SOURCES = {sources}\n", encoding="utf-8"
    )
    good = _note(tmp_path, "good", "good-note")
    registry = discover(files=[note, good], entry_points=False)
    assert list(registry.sources) == ["good-note"]
    [error] = registry.errors
    assert error.origin == f"file {note}"
    assert error.message.startswith(f"{message}; SOURCES {_MUST_BE}")


def test_sources_that_raise_are_a_load_error(tmp_path: Path) -> None:
    note = tmp_path / "raising.py"
    note.write_text(
        "def SOURCES():\n    raise RuntimeError('not yet')\n", encoding="utf-8"
    )
    registry = discover(files=[note], entry_points=False)
    assert [str(error) for error in registry.errors] == [
        f"file {note}: RuntimeError: not yet"
    ]


@pytest.mark.parametrize(
    ("call", "shown"),
    [
        ("sys.exit(3)", "sys.exit(3)"),
        ("sys.exit()", "sys.exit()"),
        ("sys.exit('bye')", "sys.exit('bye')"),
    ],
)
def test_a_file_that_calls_sys_exit_is_a_load_error(
    tmp_path: Path, call: str, shown: str
) -> None:
    quitter = tmp_path / "quitter.py"
    quitter.write_text(f"import sys\n{call}\n", encoding="utf-8")
    good = _note(tmp_path, "good", "good-note")
    registry = discover(files=[quitter, good], entry_points=False)
    assert list(registry.sources) == ["good-note"]
    assert [str(error) for error in registry.errors] == [
        f"file {quitter}: called {shown} while being imported"
    ]
    assert not [name for name in sys.modules if "_user_quitter_" in name]


@pytest.mark.parametrize(
    "top_level",
    [
        "import time\ntime.sleep(10**6)\n",
        "while True:\n    pass\n",
        # A top level that swallows exceptions does not swallow the limit.
        "import time\nwhile True:\n    try:\n        time.sleep(10)\n"
        "    except Exception:\n        pass\n",
    ],
)
def test_a_top_level_that_never_returns_meets_the_wall_clock_limit(
    tmp_path: Path, top_level: str
) -> None:
    stuck = tmp_path / "stuck.py"
    stuck.write_text(top_level, encoding="utf-8")
    good = _note(tmp_path, "good", "good-note")
    # Long enough for the good note on a busy machine, and the stuck one waits
    # it out: each top level here takes the whole limit.
    registry = discover(files=[stuck, good], entry_points=False, import_timeout=2)
    assert list(registry.sources) == ["good-note"]
    assert [str(error) for error in registry.errors] == [
        f"file {stuck}: still being imported after the wall-clock limit of 2 s "
        f"(import_timeout, ${IMPORT_TIMEOUT_VARIABLE}); does its top level wait "
        "or loop forever?"
    ]


def test_the_wall_clock_limit_is_read_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stuck = tmp_path / "stuck.py"
    stuck.write_text("import time\ntime.sleep(10**6)\n", encoding="utf-8")
    monkeypatch.setenv(IMPORT_TIMEOUT_VARIABLE, "0.5")
    registry = discover(files=[stuck], entry_points=False)
    [error] = registry.errors
    assert "after the wall-clock limit of 0.5 s" in error.message


@pytest.mark.parametrize("value", [0, -1.0, float("nan"), True, "60"])
def test_a_bad_import_timeout_is_refused(tmp_path: Path, value: object) -> None:
    note = _note(tmp_path, "note", "my-note")
    with pytest.raises(InvalidArgumentError, match=r"^import_timeout=.* seconds > 0"):
        discover(
            files=[note],
            entry_points=False,
            import_timeout=value,  # type: ignore[arg-type]
        )


@pytest.mark.parametrize("value", ["0", "soon", "-5", "nan"])
def test_a_bad_import_timeout_in_the_environment_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    note = _note(tmp_path, "note", "my-note")
    monkeypatch.setenv(IMPORT_TIMEOUT_VARIABLE, value)
    with pytest.raises(
        InvalidArgumentError,
        match=rf"^\${IMPORT_TIMEOUT_VARIABLE}={value!r} .* seconds > 0",
    ):
        discover(files=[note], entry_points=False)


def test_the_wall_clock_limit_restores_the_alarm_it_borrowed(tmp_path: Path) -> None:
    # A program with its own SIGALRM handler and timer keeps both.
    fired: list[int] = []
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: fired.append(signum))
    handler = signal.getsignal(signal.SIGALRM)
    try:
        registry = discover(
            files=[_note(tmp_path, "note", "my-note")],
            entry_points=False,
            import_timeout=5,
        )
        assert list(registry.sources) == ["my-note"]
        assert signal.getsignal(signal.SIGALRM) is handler
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        signal.setitimer(signal.ITIMER_REAL, 100)
        registry = discover(
            files=[_note(tmp_path, "other", "other-note")],
            entry_points=False,
            import_timeout=5,
        )
        assert list(registry.sources) == ["other-note"]
        assert signal.getsignal(signal.SIGALRM) is handler
        # Still the program's timer, not the 5 s limit (which would have left
        # at most 5 s).
        assert 5 < signal.getitimer(signal.ITIMER_REAL)[0] <= 100
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert fired == []


def test_a_file_loads_outside_the_main_thread_without_a_limit(tmp_path: Path) -> None:
    # Signals reach the main thread only; elsewhere the import is not limited.
    quitter = tmp_path / "quitter.py"
    quitter.write_text("import sys\nsys.exit(3)\n", encoding="utf-8")
    files = [quitter, _note(tmp_path, "threaded", "threaded-note")]
    registries: list[Registry] = []
    thread = threading.Thread(
        target=lambda: registries.append(
            discover(files=files, entry_points=False, import_timeout=5)
        )
    )
    thread.start()
    thread.join()
    [registry] = registries
    assert list(registry.sources) == ["threaded-note"]
    assert [str(error) for error in registry.errors] == [
        f"file {quitter}: called sys.exit(3) while being imported"
    ]


def test_ctrl_c_while_a_file_loads_stops_the_loading_and_names_the_file(
    tmp_path: Path,
) -> None:
    interrupted = tmp_path / "interrupted.py"
    interrupted.write_text("raise KeyboardInterrupt\n", encoding="utf-8")
    registry = Registry()
    with pytest.raises(LoadInterrupted) as caught:
        load_file(registry, interrupted)
    # Still an interrupt: `except Exception` in a caller does not swallow it.
    assert isinstance(caught.value, KeyboardInterrupt)
    assert str(caught.value) == f"file {interrupted}: interrupted while being imported"
    assert registry.sources == {}
    assert not [name for name in sys.modules if "_user_interrupted_" in name]


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A directory on ``sys.path`` standing for site-packages, holding an
    installed module ``shadowed_ct``; the modules the tests import are
    forgotten after."""
    site = tmp_path / "site-packages"
    site.mkdir()
    (site / "shadowed_ct.py").write_text("ORIGIN = 'installed'\n", encoding="utf-8")
    monkeypatch.setattr(sys, "path", [*sys.path, str(site)])
    yield site
    for name in ("shadowed_ct", "lazy_helpers_ct", "lazy_helpers_ct.verdicts"):
        sys.modules.pop(name, None)


def test_a_module_beside_a_file_shadows_no_installed_module(
    tmp_path: Path, installed: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "shadowed_ct.py").write_text("ORIGIN = 'beside'\n", encoding="utf-8")
    note = _note(project, "shadowing", "shadowing-note")
    note.write_text(
        "import shadowed_ct\n" + note.read_text(encoding="utf-8"), encoding="utf-8"
    )
    path = list(sys.path)
    registry = discover(files=[note], entry_points=False)
    assert list(registry.sources) == ["shadowing-note"]
    assert sys.path == path
    sys.modules.pop("shadowed_ct")
    assert importlib.import_module("shadowed_ct").ORIGIN == "installed"


def test_the_directory_of_the_file_loaded_last_is_searched_first(
    tmp_path: Path, installed: Path
) -> None:
    # Two projects with a helper of the same name: each file, loaded again,
    # sees its own (the modules imported are forgotten between loads).
    notes = []
    for project in ("first", "second"):
        (tmp_path / project).mkdir()
        (tmp_path / project / "ordered_ct.py").write_text(
            f"ORIGIN = {project!r}\n", encoding="utf-8"
        )
        notes.append(_note(tmp_path / project, "note", f"{project}-note"))
    for note in [*notes, notes[0]]:
        sys.modules.pop("ordered_ct", None)
        assert discover(files=[note], entry_points=False).errors == []
        origin = importlib.import_module("ordered_ct").ORIGIN
        assert origin == note.parent.name
    sys.modules.pop("ordered_ct", None)


LAZY_NOTE = textwrap.dedent(
    """
    from implicit_bias.claims import Claim, Kind, Source, Status


    def check():
        # Imported when the check runs, long after the file was loaded.
        from lazy_helpers_ct.verdicts import verdict

        return verdict()


    SOURCE = Source(
        "lazy-note",
        "A note whose check imports a module beside it",
        claims=(
            Claim("lazy-note", "1", "lazy", Kind.NUMERIC, "the helper runs", check,
                  Status.HOLDS, quote="the helper runs"),
        ),
    )
    """
)


def test_a_check_imports_modules_beside_its_file_after_loading(
    tmp_path: Path, installed: Path
) -> None:
    project = tmp_path / "project"
    (project / "lazy_helpers_ct").mkdir(parents=True)
    (project / "lazy_helpers_ct" / "__init__.py").write_text("", encoding="utf-8")
    (project / "lazy_helpers_ct" / "verdicts.py").write_text(
        "from implicit_bias.claims import Basis, Verdict\n\n\n"
        "def verdict():\n    return Verdict.holds('the helper ran', Basis.PROOF)\n",
        encoding="utf-8",
    )
    (project / "lazy.py").write_text(LAZY_NOTE, encoding="utf-8")
    registry = discover(files=[project / "lazy.py"], entry_points=False)
    assert registry.errors == []
    assert "lazy_helpers_ct" not in sys.modules
    verdict = registry.claim("lazy-note:1:lazy").check()
    assert (verdict.status, verdict.detail) == ("holds", "the helper ran")


@pytest.mark.parametrize(
    ("method", "value", "message"),
    [
        ("claim", None, "claim=None is NoneType, not a str"),
        ("claim", 42, "claim=42 is int, not a str"),
        ("source", ["n-note"], "source=['n-note'] is list, not a str"),
        ("claims", 42, "source=42 is int, not a str"),
        ("derivations", b"n-note", "source=b'n-note' is bytes, not a str"),
    ],
)
def test_an_id_that_is_not_a_str_is_refused(
    tmp_path: Path, method: str, value: object, message: str
) -> None:
    registry = discover(files=[_note(tmp_path, "n", "n-note")], entry_points=False)
    with pytest.raises(InvalidArgumentError) as caught:
        getattr(registry, method)(value)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("method", "value", "message"),
    [
        (
            "source",
            "n-nte",
            "source='n-nte' is not registered (did you mean 'n-note'?);"
            " known sources: n-note",
        ),
        ("source", "zzz", "source='zzz' is not registered; known sources: n-note"),
        (
            "claim",
            "n-note:1:lg",
            "claim='n-note:1:lg' is not registered (did you mean"
            " 'n-note:1:log'?); see `implicit-bias list --source n-note`",
        ),
        (
            "claim",
            "n-note:9:zzz",
            "claim='n-note:9:zzz' is not registered; see "
            "`implicit-bias list --source n-note`",
        ),
        (
            "claim",
            "n-nte:1:log",
            "claim='n-nte:1:log' is not registered: no source "
            "'n-nte' (did you mean 'n-note'?); known sources: n-note",
        ),
    ],
)
def test_an_unknown_id_suggests_the_near_ones(
    tmp_path: Path, method: str, value: str, message: str
) -> None:
    registry = discover(files=[_note(tmp_path, "n", "n-note")], entry_points=False)
    with pytest.raises(SourceNotFoundError) as caught:
        getattr(registry, method)(value)
    assert str(caught.value) == message


def test_add_refuses_what_is_not_a_source() -> None:
    with pytest.raises(InvalidArgumentError, match=r"^source=42 is int, not a Source"):
        Registry().add(42, "file note.py")  # type: ignore[arg-type]


# --- installed packages besides the toolkit (issue 21)


def test_an_entry_point_named_otherwise_than_its_source_is_a_load_error(
    tmp_path: Path,
) -> None:
    # Was registered silently: `--source my-note` (the name in pyproject.toml,
    # which the skeleton's hint repeats) then found nothing.
    with installed_package(
        tmp_path / "site", source_id="ridge-note", entry_point="my-note"
    ):
        registry = discover()
    assert "ridge-note" not in registry.sources
    (error,) = [e for e in registry.errors if e.distribution == "ridge-note"]
    assert error.origin.startswith("entry point my-note = ")
    assert (
        "the entry point is named 'my-note' but registers the source 'ridge-note'"
        in error.message
    )
    assert "pyproject.toml" in error.message


def test_an_entry_point_may_register_several_sources_under_its_package_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # docs/authoring.md: "The entry point may name a Source, a sequence of
    # them, or a function returning either"; the id rule is for one source.
    site = tmp_path / "site"
    site.mkdir()
    (site / "two_notes_ct.py").write_text(
        "from implicit_bias.claims import Source\n"
        "SOURCES = [Source('note-a', 'A'), Source('note-b', 'B')]\n",
        encoding="utf-8",
    )
    write_entry_point(site, "two-notes", "my-notes", "two_notes_ct:SOURCES")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delitem(sys.modules, "two_notes_ct", raising=False)
    registry = discover()
    assert {"note-a", "note-b"} <= set(registry.sources)
    assert [e for e in registry.errors if e.distribution == "two-notes"] == []


def test_the_shipped_registry_ignores_what_else_is_installed(tmp_path: Path) -> None:
    with installed_package(tmp_path / "site") as module:
        installed = default_registry()
        shipped = shipped_registry()
        assert installed.distributions["third-party-note"] == "third-party-note"
        assert installed.origins["third-party-note"] == (
            f"entry point third-party-note = {module}:SOURCE (third-party-note)"
        )
    assert "third-party-note" not in shipped.sources
    assert shipped.errors == []
    assert list(shipped.sources) == [
        s
        for s, distribution in installed.distributions.items()
        if distribution == TOOLKIT_DISTRIBUTION
    ]
    assert set(shipped.distributions.values()) == {TOOLKIT_DISTRIBUTION}


def test_a_file_whose_source_id_is_installed_is_refused_saying_how_to_shadow(
    tmp_path: Path,
) -> None:
    note = _note(tmp_path, "mine", "third-party-note")
    with installed_package(tmp_path / "site") as module:
        registry = extended_registry([note])
    assert registry.sources["third-party-note"].title == "A third party's note"
    (error,) = [e for e in registry.errors if e.origin == f"file {note}"]
    assert error.message == (
        "source id 'third-party-note' is already registered by entry point "
        f"third-party-note = {module}:SOURCE (third-party-note); this one is "
        "skipped (to check this one in place of the installed one for this run, "
        "pass --shadow on the command line, shadow=True in Python; or give it an "
        "id of its own)"
    )


def test_shadow_lets_a_file_replace_an_installed_source_for_the_run(
    tmp_path: Path,
) -> None:
    note = _note(tmp_path, "mine", "third-party-note")
    with installed_package(tmp_path / "site") as module:
        registry = extended_registry([note], shadow=True)
        again = default_registry()
    assert registry.errors == []
    assert registry.sources["third-party-note"].title == "A note"
    assert registry.origins["third-party-note"] == f"file {note}"
    assert registry.shadowed == {
        "third-party-note": (
            f"entry point third-party-note = {module}:SOURCE (third-party-note)"
        )
    }
    assert "third-party-note" not in registry.distributions
    # The installed registry is unchanged.
    assert again.sources["third-party-note"].title == "A third party's note"


def test_shadow_replaces_installed_sources_only(tmp_path: Path) -> None:
    # Two files of one id: the second is refused, shadow or not, and the
    # message does not offer --shadow.
    first = _note(tmp_path, "first", "my-note")
    second = _note(tmp_path, "second", "my-note")
    registry = discover(files=[first, second], entry_points=False, shadow=True)
    (error,) = registry.errors
    assert error.message.endswith("this one is skipped")
    assert registry.origins["my-note"] == f"file {first}"
    assert registry.shadowed == {}
