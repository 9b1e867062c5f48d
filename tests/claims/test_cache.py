"""The verdict cache: keys follow exactly the code a claim runs; hits, misses,
what is never stored, ``verify`` run twice, and entries that cannot be forged."""

from __future__ import annotations

import ast

import dataclasses
import functools
import importlib
import json
import os
import shutil
import stat
import subprocess
import sys
import textwrap
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

import implicit_bias

from implicit_bias import cli
from implicit_bias.claims.cache import (
    CACHE_DIR_VARIABLE,
    VerdictCache,
    run_claims_cached,
)
from implicit_bias.claims.discovery import discover
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reason,
    Result,
    Status,
    Verdict,
)
from implicit_bias.errors import InvalidArgumentError

#: A user's theory module: ``f`` reads the constant, ``g`` does not, ``h`` is
#: called when the claims module is imported.
THEORY = textwrap.dedent(
    """
    SCALE = 2


    def f(x):
        return SCALE * x


    def g(x):
        return x * x


    def h():
        return 9
    """
)

#: Claim ``a`` uses ``f``, ``b`` uses ``g`` and the value ``h()`` had at import.
CLAIMS = textwrap.dedent(
    """
    import theory_ct
    from implicit_bias.claims import Basis, Claim, Kind, Source, Status, Verdict

    TARGET = theory_ct.h()


    def check_a():
        return Verdict.decide(theory_ct.f(2) == 4, "f(2) = 4", Basis.PROOF)


    def check_b():
        return Verdict.decide(theory_ct.g(3) == TARGET, "g(3) = 9", Basis.PROOF)


    SOURCE = Source(
        "cache-note",
        "A note",
        claims=(
            Claim("cache-note", "1", "a", Kind.NUMERIC, "f(2) = 4", check_a,
                  Status.HOLDS),
            Claim("cache-note", "2", "b", Kind.NUMERIC, "g(3) = 9", check_b,
                  Status.HOLDS),
        ),
    )
    """
)

#: Claims that import nothing of the theory; ``one`` and ``two`` are two
#: lambdas of one module.
OTHER = textwrap.dedent(
    """
    import sympy as sp
    from implicit_bias.claims import Claim, Kind, Source, Status, relation_check

    x = sp.Symbol("x", positive=True)
    SOURCE = Source(
        "cache-other",
        "Another note",
        claims=(
            Claim("cache-other", "1", "one", Kind.IDENTITY, "log x^2 = 2 log x",
                  relation_check(lambda: sp.Eq(sp.log(x**2), 2 * sp.log(x))),
                  Status.HOLDS),
            Claim("cache-other", "2", "two", Kind.IDENTITY, "log x^3 = 3 log x",
                  relation_check(lambda: sp.Eq(sp.log(x**3), 3 * sp.log(x))),
                  Status.HOLDS),
        ),
    )
    """
)

_MODULES = ("theory_ct", "helpers_ct")

#: The environment variable naming the key file (a literal: the tests of
#: forgery must run, and fail, against a cache that does not know it).
KEY_VARIABLE = "IMPLICIT_BIAS_CACHE_KEY_FILE"


@pytest.fixture(autouse=True)
def _private_key(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sign entries with a key of the test's own, never the user's."""
    key_file = tmp_path_factory.mktemp("cache-key") / "cache-key"
    monkeypatch.setenv(KEY_VARIABLE, str(key_file))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A directory with the three files; imported modules are forgotten after."""
    # Rewritten files are re-read, never taken from stale bytecode of the same
    # size and second.
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.setattr(sys, "path", list(sys.path))
    (tmp_path / "theory_ct.py").write_text(THEORY, encoding="utf-8")
    (tmp_path / "claims_ct.py").write_text(CLAIMS, encoding="utf-8")
    (tmp_path / "other_ct.py").write_text(OTHER, encoding="utf-8")
    yield tmp_path
    for name in _MODULES:
        sys.modules.pop(name, None)


def _keys(project: Path, cache_dir: Path | None = None) -> dict[str, str]:
    """Every claim's key, the files imported afresh as they are now."""
    for name in _MODULES:
        sys.modules.pop(name, None)
    importlib.invalidate_caches()
    registry = discover(
        files=[project / "claims_ct.py", project / "other_ct.py"], entry_points=False
    )
    assert not registry.errors
    cache = VerdictCache(cache_dir or project / "cache")
    return {claim.id: cache.key(claim) for claim in registry.claims()}


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")


def _changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    assert before.keys() == after.keys()
    return {claim_id for claim_id in before if before[claim_id] != after[claim_id]}


def test_a_key_is_the_same_when_computed_again(project: Path) -> None:
    first = _keys(project)
    assert _keys(project, project / "elsewhere") == first
    assert len(set(first.values())) == len(first) == 4


def test_a_key_is_the_same_in_another_process_with_another_hash_seed(
    project: Path,
) -> None:
    script = textwrap.dedent(
        f"""
        import json
        from implicit_bias.claims.cache import VerdictCache
        from implicit_bias.claims.discovery import discover
        registry = discover(files=[{str(project / "claims_ct.py")!r},
                                   {str(project / "other_ct.py")!r}],
                            entry_points=False)
        cache = VerdictCache({str(project / "cache")!r})
        print(json.dumps({{c.id: cache.key(c) for c in registry.claims()}}))
        """
    )
    seeds = {"1": None, "2": None}
    for seed in seeds:
        environment = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            env=environment,
            check=True,
        )
        seeds[seed] = json.loads(done.stdout)
    assert seeds["1"] == seeds["2"] == _keys(project)


def test_a_key_does_not_depend_on_what_the_process_imported_before(
    project: Path,
) -> None:
    # A method that imports a module when called (a Verdict's display for a
    # notebook, once) made keys follow whether that module was loaded: the
    # key of one claim then differed between a fresh `verify` and a process
    # that had imported more of the package.
    script = textwrap.dedent(
        f"""
        import importlib, json, pkgutil, sys
        import implicit_bias
        if sys.argv[1] == "everything":
            prefix = "implicit_bias."
            for module in pkgutil.walk_packages(implicit_bias.__path__, prefix):
                if ".sources." not in module.name:
                    importlib.import_module(module.name)
        from implicit_bias.claims.cache import VerdictCache
        from implicit_bias.claims.discovery import discover
        registry = discover(files=[{str(project / "claims_ct.py")!r},
                                   {str(project / "other_ct.py")!r}],
                            entry_points=False)
        cache = VerdictCache({str(project / "cache")!r})
        print(json.dumps({{c.id: cache.key(c) for c in registry.claims()}}))
        """
    )
    keys = [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", script, imported],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        for imported in ("little", "everything")
    ]
    assert keys[0] == keys[1]


def test_editing_a_function_body_changes_only_the_claims_that_use_it(
    project: Path,
) -> None:
    before = _keys(project)
    _edit(project / "theory_ct.py", "return SCALE * x", "return x * SCALE")
    assert _changed(before, _keys(project)) == {"cache-note:1:a"}


def test_a_function_called_at_import_counts_for_the_module_that_calls_it(
    project: Path,
) -> None:
    # h's value stays 9 (and 3 * 3 would be folded to the same bytecode):
    # only following what the claims module calls when imported sees that
    # its code changed.
    before = _keys(project)
    _edit(project / "theory_ct.py", "return 9", 'return int("9")')
    assert _changed(before, _keys(project)) == {"cache-note:1:a", "cache-note:2:b"}


def test_editing_a_lambda_changes_only_its_claim(project: Path) -> None:
    before = _keys(project)
    _edit(project / "other_ct.py", "3 * sp.log(x)", "sp.log(x) * 3")
    assert _changed(before, _keys(project)) == {"cache-other:2:two"}


def test_comments_docstrings_and_moving_a_function_change_no_key(
    project: Path,
) -> None:
    before = _keys(project)
    moved = THEORY.replace(
        "def f(x):\n    return SCALE * x\n",
        "",
    ).replace(
        "def h():",
        "# f moved below g and h, with comments and a docstring.\n\n\n"
        'def f(x):\n    """Scale x."""\n    # The scale is SCALE.\n'
        "    return SCALE * x  # still the same\n\n\ndef h():",
    )
    assert moved != THEORY
    (project / "theory_ct.py").write_text("# A comment.\n" + moved, encoding="utf-8")
    assert _changed(before, _keys(project)) == set()


def test_a_module_constant_changes_the_claims_of_modules_importing_it(
    project: Path,
) -> None:
    before = _keys(project)
    _edit(project / "theory_ct.py", "SCALE = 2", "SCALE = 3")
    # b does not read SCALE, but its module imports theory_ct; other_ct does not.
    assert _changed(before, _keys(project)) == {"cache-note:1:a", "cache-note:2:b"}


def test_the_fields_that_decide_a_verdict_change_the_key(project: Path) -> None:
    registry = discover(files=[project / "other_ct.py"], entry_points=False)
    claim = registry.claims()[0]
    cache = VerdictCache(project / "cache")
    variants = [
        dataclasses.replace(claim, budget_seconds=61.0),
        dataclasses.replace(claim, expected=Status.FAILS),
        dataclasses.replace(
            claim, expected=Status.INCONCLUSIVE, expected_reason=Reason.UNDECIDED
        ),
        dataclasses.replace(claim, label="renamed"),
    ]
    keys = {cache.key(claim), *(cache.key(variant) for variant in variants)}
    assert len(keys) == 1 + len(variants)
    assert cache.key(dataclasses.replace(claim, statement="reworded")) == cache.key(
        claim
    )


#: Checks made in the claims file from a helper's code: the data they hold
#: (bound arguments, an instance's fields, a generator's seed) is written in
#: the claims file, which no reached function reads.
HELPERS = textwrap.dedent(
    """
    from implicit_bias.claims import Basis, Verdict


    def check_at(n, rng=None):
        return Verdict.decide(n > 0, f"n = {n}", Basis.PROOF)


    class Checker:
        def __init__(self, n):
            self.n = n

        def __call__(self):
            return check_at(self.n)
    """
)
BOUND = textwrap.dedent(
    """
    import functools

    import numpy as np

    import helpers_ct
    from implicit_bias.claims import Claim, Kind, Source, Status

    SOURCE = Source(
        "cache-bound",
        "Checks holding data",
        claims=(
            Claim("cache-bound", "1", "partial", Kind.NUMERIC, "n > 0",
                  functools.partial(helpers_ct.check_at, 1), Status.HOLDS),
            Claim("cache-bound", "2", "instance", Kind.NUMERIC, "n > 0",
                  helpers_ct.Checker(1), Status.HOLDS),
            Claim("cache-bound", "3", "seed", Kind.NUMERIC, "n > 0",
                  functools.partial(helpers_ct.check_at, 2,
                                    rng=np.random.default_rng(1)),
                  Status.HOLDS),
        ),
    )
    """
)


@pytest.mark.parametrize(
    ("old", "new", "changed"),
    [
        ("check_at, 1)", "check_at, 5)", "cache-bound:1:partial"),
        ("Checker(1)", "Checker(5)", "cache-bound:2:instance"),
        ("default_rng(1)", "default_rng(5)", "cache-bound:3:seed"),
    ],
)
def test_data_a_check_holds_changes_its_key(
    project: Path, old: str, new: str, changed: str
) -> None:
    (project / "helpers_ct.py").write_text(HELPERS, encoding="utf-8")
    (project / "bound_ct.py").write_text(BOUND, encoding="utf-8")

    def keys() -> dict[str, str]:
        sys.modules.pop("helpers_ct", None)
        importlib.invalidate_caches()
        registry = discover(files=[project / "bound_ct.py"], entry_points=False)
        assert not registry.errors
        cache = VerdictCache(project / "cache")
        return {claim.id: cache.key(claim) for claim in registry.claims()}

    before = keys()
    _edit(project / "bound_ct.py", old, new)
    assert _changed(before, keys()) == {changed}


def test_the_version_of_an_installed_package_a_check_calls_is_in_its_key(
    project: Path,
) -> None:
    # A plug-in installed without -e: its code is not walked, so its version
    # must stand for it.
    site = project / "site-packages"
    (site / "plugin_ct").mkdir(parents=True)
    (site / "plugin_ct" / "__init__.py").write_text(HELPERS, encoding="utf-8")
    sys.path.insert(0, str(site))
    (project / "uses_ct.py").write_text(
        textwrap.dedent(
            """
            import plugin_ct
            from implicit_bias.claims import Claim, Kind, Source, Status

            SOURCE = Source("cache-plugin", "A plug-in's check", claims=(
                Claim("cache-plugin", "1", "n", Kind.NUMERIC, "n > 0",
                      plugin_ct.Checker(1), Status.HOLDS),
            ))
            """
        ),
        encoding="utf-8",
    )

    def key(version: str) -> str:
        for old in site.glob("*.dist-info"):
            shutil.rmtree(old)
        info = site / f"plugin_ct-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: plugin-ct\nVersion: {version}\n",
            encoding="utf-8",
        )
        (info / "top_level.txt").write_text("plugin_ct\n", encoding="utf-8")
        sys.modules.pop("plugin_ct", None)
        importlib.invalidate_caches()
        registry = discover(files=[project / "uses_ct.py"], entry_points=False)
        assert not registry.errors
        (claim,) = registry.claims()
        return VerdictCache(project / "cache").key(claim)

    try:
        assert key("1.0") == key("1.0")
        assert key("1.0") != key("2.0")
    finally:
        sys.modules.pop("plugin_ct", None)


def _doubled(x: float) -> float:
    return 2 * x


def _summed(x: float) -> float:
    return x + x


def _apply(function: Callable[[float], float]) -> Verdict:
    return Verdict.decide(function(2.0) == 4.0, "f(2) = 4", Basis.NUMERICAL)


def test_code_held_by_a_library_object_counts(project: Path) -> None:
    claim = discover(files=[project / "other_ct.py"], entry_points=False).claims()[0]
    # _doubled before and after an edit of its body: the same name.
    edited = types.FunctionType(_summed.__code__, globals(), "_doubled")
    edited.__qualname__ = "_doubled"
    keys = {
        VerdictCache(project / "cache").key(
            dataclasses.replace(
                claim, check=functools.partial(_apply, np.vectorize(function))
            )
        )
        for function in (_doubled, edited)
    }
    assert len(keys) == 2


def _claims(project: Path) -> list[Claim]:
    return discover(files=[project / "other_ct.py"], entry_points=False).claims()


def test_an_unchanged_claim_is_a_hit_and_read_false_runs_it(project: Path) -> None:
    claims = _claims(project)
    directory = project / "cache"
    first, cached = run_claims_cached(claims, VerdictCache(directory), workers=1)
    assert cached == 0
    assert [str(r.verdict.status) for r in first] == ["holds", "holds"]
    seen: list[tuple[str, int, int, bool]] = []
    again, cached = run_claims_cached(
        claims,
        VerdictCache(directory),
        on_result=lambda r, done, total, hit: seen.append(
            (r.claim.id, done, total, hit)
        ),
    )
    assert cached == 2
    assert [r.verdict for r in again] == [r.verdict for r in first]
    assert seen == [
        ("cache-other:1:one", 1, 2, True),
        ("cache-other:2:two", 2, 2, True),
    ]
    forced, cached = run_claims_cached(
        claims, VerdictCache(directory), workers=1, read=False
    )
    assert cached == 0
    assert [r.verdict.status for r in forced] == [r.verdict.status for r in first]


def test_the_longest_claims_run_first_and_prepare_sees_those_to_run(
    project: Path,
) -> None:
    first, second = _claims(project)
    cache = VerdictCache(project / "cache")
    # The second claim took longer last time: it starts first, even with
    # read=False (the seconds are a schedule, not a verdict).
    cache.put(Result(first, Verdict.holds("stored", Basis.PROOF), 1.0))
    cache.put(Result(second, Verdict.holds("stored", Basis.PROOF), 9.0))
    assert cache.last_seconds(second) == 9.0
    prepared: list[list[str]] = []
    order: list[str] = []
    results, cached = run_claims_cached(
        [first, second],
        VerdictCache(project / "cache"),
        workers=1,
        read=False,
        prepare=lambda claims: prepared.append([c.id for c in claims]),
        on_result=lambda r, done, total, hit: order.append(r.claim.id),
    )
    assert cached == 0
    assert prepared == [[second.id, first.id]]
    assert order == [second.id, first.id]
    # Results stay in the order of the claims given.
    assert [r.claim.id for r in results] == [first.id, second.id]
    # Nothing to run, nothing to prepare.
    prepared.clear()
    run_claims_cached(
        [first, second],
        VerdictCache(project / "cache"),
        prepare=lambda claims: prepared.append([c.id for c in claims]),
    )
    assert prepared == []


def test_claims_never_run_start_after_the_timed_ones_longest_kind_first(
    project: Path,
) -> None:
    first, second = _claims(project)
    cache = VerdictCache(project / "cache")
    cache.put(Result(second, Verdict.holds("stored", Basis.PROOF), 0.5))
    never_run = [
        dataclasses.replace(first, label=kind.name.lower(), kind=kind)
        for kind in (Kind.INEQUALITY, Kind.IDENTITY, Kind.SIMULATION, Kind.NUMERIC)
    ]
    order: list[str] = []
    run_claims_cached(
        [*never_run, second],
        VerdictCache(project / "cache"),
        workers=1,
        read=False,
        on_result=lambda r, done, total, hit: order.append(r.claim.id),
    )
    assert order == [
        second.id,
        *(
            f"{first.source}:{first.equation}:{label}"
            for label in ("simulation", "numeric", "identity", "inequality")
        ),
    ]


def test_a_claim_never_run_has_no_last_seconds(project: Path) -> None:
    assert VerdictCache(project / "cache").last_seconds(_claims(project)[0]) is None


def test_an_expected_budget_overrun_is_stored(project: Path) -> None:
    claim = dataclasses.replace(
        _claims(project)[0],
        expected=Status.INCONCLUSIVE,
        expected_reason=Reason.BUDGET,
    )
    cache = VerdictCache(project / "cache")
    overrun = Verdict.inconclusive("known overrun", Reason.BUDGET)
    assert cache.put(Result(claim, overrun, 1.0))
    hit = cache.get(claim)
    assert hit is not None
    assert hit.verdict == overrun
    crash = dataclasses.replace(claim, expected_reason=Reason.BUDGET)
    assert not cache.put(
        Result(crash, Verdict.inconclusive("raised", Reason.CRASH), 1.0)
    )


@pytest.mark.parametrize("reason", [Reason.BUDGET, Reason.CRASH])
def test_budget_and_crash_verdicts_are_not_stored(
    project: Path, reason: Reason
) -> None:
    claim = _claims(project)[0]
    cache = VerdictCache(project / "cache")
    assert not cache.put(Result(claim, Verdict.inconclusive("no", reason), 1.0))
    assert cache.get(claim) is None
    # An inconclusive verdict for another reason is a verdict, and is stored.
    undecided = Verdict.inconclusive("sign unknown", Reason.UNDECIDED)
    assert cache.put(Result(claim, undecided, 1.0))
    hit = cache.get(claim)
    assert hit is not None
    assert hit.verdict == undecided


@pytest.mark.parametrize(
    ("content", "refused"),
    [
        ("{not json", True),
        ("[]", True),
        ("[" * 100_000, True),
        # Unsigned, as by a version that did not sign: stale, not refused.
        (
            json.dumps({"format": 1, "claim": "cache-other:1:one", "status": "maybe"}),
            False,
        ),
    ],
)
def test_a_corrupt_entry_is_a_miss(project: Path, content: str, refused: bool) -> None:
    claim = _claims(project)[0]
    cache = VerdictCache(project / "cache")
    verdict = Verdict.holds("shown", Basis.PROOF)
    assert cache.put(Result(claim, verdict, 0.5))
    entry = project / "cache" / f"{cache.key(claim)}.json"
    assert cache.get(claim) is not None
    entry.write_text(content, encoding="utf-8")
    reader = VerdictCache(project / "cache")
    assert reader.get(claim) is None
    assert reader.tampered == ({entry.name} if refused else set())


def test_an_entry_of_another_claim_is_a_miss(project: Path) -> None:
    one, two = _claims(project)
    cache = VerdictCache(project / "cache")
    assert cache.put(Result(one, Verdict.holds("shown", Basis.PROOF), 0.5))
    (project / "cache" / f"{cache.key(one)}.json").rename(
        project / "cache" / f"{cache.key(two)}.json"
    )
    assert cache.get(two) is None


def test_verify_twice_takes_every_verdict_from_the_cache(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    note = project / "other_ct.py"
    command = ["verify", "--file", str(note), "--source", "cache-other", "--json"]
    directory = project / "verdicts"
    assert cli.main([*command, "--cache-dir", str(directory)]) == 0
    first = capsys.readouterr()
    assert "2 claims: 0 from the cache, 2 run" in first.err
    assert cli.main([*command, "--cache-dir", str(directory)]) == 0
    second = capsys.readouterr()
    assert "2 claims: 2 from the cache, 0 run" in second.err
    assert "(cached)" in second.err
    assert json.loads(second.out) == json.loads(first.out)
    assert cli.main([*command, "--cache-dir", str(directory), "--no-cache"]) == 0
    assert "2 claims: 0 from the cache, 2 run" in capsys.readouterr().err


def test_the_cache_directory_comes_from_the_environment(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = project / "from-environment"
    monkeypatch.setenv(CACHE_DIR_VARIABLE, str(directory))
    note = project / "other_ct.py"
    assert cli.main(["verify", "--file", str(note), "--source", "cache-other"]) == 0
    assert f"(cache: {directory})" in capsys.readouterr().err
    assert len(list(directory.glob("*.json"))) == 3  # two verdicts, parsed modules
    assert (directory / ".gitignore").read_text(encoding="utf-8").endswith("*\n")


#: A claim that fails where it is expected to hold (a slip in a note).
SLIP = textwrap.dedent(
    """
    import sympy as sp
    from implicit_bias.claims import Claim, Kind, Source, Status, relation_check

    x = sp.Symbol("x", positive=True)
    SOURCE = Source(
        "cache-slip",
        "A note with a slip",
        claims=(
            Claim("cache-slip", "1", "slip", Kind.IDENTITY, "log x^2 = 3 log x",
                  relation_check(lambda: sp.Eq(sp.log(x**2), 3 * sp.log(x))),
                  Status.HOLDS),
        ),
    )
    """
)


def _entry_file(cache: VerdictCache, claim: Claim) -> Path:
    return cache.directory / f"{cache.key(claim)}.json"


def _rewrite(path: Path, **fields: object) -> None:
    """Edit fields of a stored entry as anyone with write access can."""
    entry = json.loads(path.read_text(encoding="utf-8"))
    entry.update(fields)
    path.write_text(json.dumps(entry, indent=1), encoding="utf-8")


def test_a_failing_claims_entry_edited_to_holds_is_run_again(project: Path) -> None:
    (project / "slip_ct.py").write_text(SLIP, encoding="utf-8")
    (claim,) = discover(files=[project / "slip_ct.py"], entry_points=False).claims()
    directory = project / "cache"
    (first,), _ = run_claims_cached([claim], VerdictCache(directory), workers=1)
    assert first.verdict.status == Status.FAILS
    entry = _entry_file(VerdictCache(directory), claim)
    _rewrite(entry, status="holds", detail="forged", counterexample=None)
    cache = VerdictCache(directory)
    (again,), cached = run_claims_cached([claim], cache, workers=1)
    assert cached == 0
    assert again.verdict.status == Status.FAILS
    assert cache.tampered == {entry.name}
    assert cache.foreign == set()
    assert cache.refusals() == [
        "1 cache file refused as tampered (its signature, name or file type is "
        "not what this cache's key wrote); run again"
    ]


@pytest.mark.parametrize("planted", ["symlink", "directory", "fifo"])
def test_an_entry_that_is_not_a_regular_file_is_refused(
    project: Path, planted: str
) -> None:
    claim = _claims(project)[0]
    cache = VerdictCache(project / "cache")
    assert cache.put(Result(claim, Verdict.holds("shown", Basis.PROOF), 0.5))
    entry = _entry_file(cache, claim)
    if planted == "symlink":
        # A genuine entry, kept outside the cache where its writer may change
        # it at will after the cache has been checked.
        elsewhere = project / "elsewhere.json"
        entry.rename(elsewhere)
        entry.symlink_to(elsewhere)
    elif planted == "directory":
        entry.unlink()
        entry.mkdir()
    else:
        # Would block a plain read for ever.
        entry.unlink()
        os.mkfifo(entry)
    reader = VerdictCache(project / "cache")
    assert reader.get(claim) is None
    assert reader.last_seconds(claim) is None
    assert reader.tampered == {entry.name}


def test_an_entry_copied_to_another_keys_file_name_is_refused(project: Path) -> None:
    claim = _claims(project)[0]
    # The same claim under another key, as after an edit of its code.
    edited = dataclasses.replace(claim, budget_seconds=61.0)
    cache = VerdictCache(project / "cache")
    assert cache.key(edited) != cache.key(claim)
    assert cache.put(Result(claim, Verdict.holds("shown", Basis.PROOF), 0.5))
    copy = _entry_file(cache, edited)
    shutil.copyfile(_entry_file(cache, claim), copy)
    reader = VerdictCache(project / "cache")
    assert reader.get(edited) is None
    assert reader.tampered == {copy.name}
    assert reader.get(claim) is not None


def test_an_entry_written_under_another_key_is_a_foreign_miss(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    claim = _claims(project)[0]
    directory = project / "cache"
    monkeypatch.setenv(KEY_VARIABLE, str(project / "keys" / "theirs"))
    assert VerdictCache(directory).put(
        Result(claim, Verdict.holds("theirs", Basis.PROOF), 0.5)
    )
    monkeypatch.setenv(KEY_VARIABLE, str(project / "keys" / "mine"))
    reader = VerdictCache(directory)
    assert reader.get(claim) is None
    assert reader.foreign == {_entry_file(reader, claim).name}
    assert reader.tampered == set()
    assert reader.refusals() == [
        "1 cache file refused as foreign (written under another key: a cache "
        "shared without sharing its key file?); run again"
    ]
    # Run again, the verdict is stored under this key and read back.
    assert reader.put(Result(claim, Verdict.holds("mine", Basis.PROOF), 0.5))
    hit = VerdictCache(directory).get(claim)
    assert hit is not None
    assert hit.verdict.detail == "mine"


def test_an_unsigned_entry_of_an_older_version_is_a_plain_miss(project: Path) -> None:
    claim = _claims(project)[0]
    cache = VerdictCache(project / "cache")
    assert cache.put(Result(claim, Verdict.holds("shown", Basis.PROOF), 0.5))
    entry = _entry_file(cache, claim)
    unsigned = json.loads(entry.read_text(encoding="utf-8"))
    del unsigned["mac"], unsigned["writer"]
    entry.write_text(json.dumps(unsigned), encoding="utf-8")
    reader = VerdictCache(project / "cache")
    assert reader.get(claim) is None
    # Stale, as after an upgrade: not reported as an attack.
    assert reader.tampered == reader.foreign == set()
    assert reader.refusals() == []


def test_a_tampered_record_of_parsed_modules_does_not_steer_keys(
    project: Path,
) -> None:
    claims = _claims(project)
    directory = project / "cache"
    run_claims_cached(claims, VerdictCache(directory), workers=1)
    parsed = directory / "parsed-modules.json"
    stored = json.loads(parsed.read_text(encoding="utf-8"))
    assert stored["modules"]
    # A module's digest stands for its code in every key: a forged one could
    # give edited code the key of a verdict stored before the edit.
    for module in stored["modules"].values():
        module["digest"] = "0" * 64
    parsed.write_text(json.dumps(stored), encoding="utf-8")
    cache = VerdictCache(directory)
    _, cached = run_claims_cached(claims, cache, workers=1)
    assert cached == 2
    assert cache.tampered == {parsed.name}
    # Parsed again and stored signed.
    assert VerdictCache(directory).tampered == set()


def test_a_dangling_gitignore_symlink_is_not_written_through(project: Path) -> None:
    directory = project / "cache"
    directory.mkdir()
    outside = project / "outside"
    outside.mkdir()
    (directory / ".gitignore").symlink_to(outside / "planted")
    claim = _claims(project)[0]
    cache = VerdictCache(directory)
    assert cache.put(Result(claim, Verdict.holds("shown", Basis.PROOF), 0.5))
    assert list(outside.iterdir()) == []
    assert cache.get(claim) is not None
    assert (directory / ".gitignore").is_symlink()


@pytest.mark.parametrize(
    ("variables", "expected"),
    [
        ({"XDG_CONFIG_HOME": "config"}, "config/implicit-bias/cache-key"),
        ({"HOME": "home"}, "home/.config/implicit-bias/cache-key"),
        ({KEY_VARIABLE: "keys/shared"}, "keys/shared"),
    ],
)
def test_the_key_file_is_created_private_outside_the_cache(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    variables: dict[str, str],
    expected: str,
) -> None:
    for name in (KEY_VARIABLE, "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, str(project / value))
    key_file = project / expected
    assert VerdictCache.default_key_file() == key_file
    claim = _claims(project)[0]
    cache = VerdictCache(project / "cache")
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    secret = key_file.read_text(encoding="utf-8")
    assert cache.put(Result(claim, Verdict.holds("shown", Basis.PROOF), 0.5))
    # Entries are as shareable as their directory; the key is not in it.
    entry = _entry_file(cache, claim)
    assert stat.S_IMODE(entry.stat().st_mode) == 0o644
    assert all(
        secret.strip() not in path.read_text(encoding="utf-8")
        for path in cache.directory.iterdir()
    )
    assert VerdictCache(project / "cache").get(claim) is not None
    assert key_file.read_text(encoding="utf-8") == secret


def test_a_shared_key_file_given_explicitly_serves_two_caches(project: Path) -> None:
    claim = _claims(project)[0]
    shared = project / "cluster" / "cache-key"
    writer = VerdictCache(project / "cache", key_file=shared)
    assert writer.put(Result(claim, Verdict.holds("shown", Basis.PROOF), 0.5))
    reader = VerdictCache(project / "cache", key_file=shared)
    hit = reader.get(claim)
    assert hit is not None
    assert hit.verdict.detail == "shown"
    # Under the per-user key the same entry is another writer's.
    assert VerdictCache(project / "cache").get(claim) is None


@pytest.mark.parametrize("inside", ["cache-key", "keys/cache-key", "."])
def test_a_key_file_inside_the_cache_directory_is_refused(
    project: Path, inside: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=r"key_file=.* is inside"):
        VerdictCache(project / "cache", key_file=project / "cache" / inside)


@pytest.mark.parametrize("content", ["", "not hexadecimal\n", "ab" * 31 + "\n"])
def test_a_key_file_that_holds_no_key_is_refused(project: Path, content: str) -> None:
    key_file = project / "cache-key"
    key_file.write_text(content, encoding="utf-8")
    with pytest.raises(InvalidArgumentError, match=r"key_file=.*32 bytes"):
        VerdictCache(project / "cache", key_file=key_file)


def test_with_no_key_to_be_had_nothing_is_read_or_stored(project: Path) -> None:
    claim = _claims(project)[0]
    VerdictCache(project / "cache").put(
        Result(claim, Verdict.holds("shown", Basis.PROOF), 0.5)
    )
    blocked = project / "a-file"
    blocked.write_text("", encoding="utf-8")
    cache = VerdictCache(project / "cache", key_file=blocked / "cache-key")
    assert cache.get(claim) is None
    assert not cache.put(Result(claim, Verdict.holds("shown", Basis.PROOF), 0.5))
    assert len(cache.errors) == 1
    assert cache.errors[0].startswith("no key to sign entries with")
    assert cache.errors[0].endswith(
        "verdicts are neither read from the cache nor stored"
    )


def test_a_counterexample_point_is_cached_and_an_entry_without_one_still_reads(
    project: Path,
) -> None:
    # Issue 21: a verdict carries its counterexample point as data.
    (project / "slip_pt.py").write_text(SLIP, encoding="utf-8")
    (claim,) = discover(files=[project / "slip_pt.py"], entry_points=False).claims()
    directory = project / "cache"
    (first,), _ = run_claims_cached([claim], VerdictCache(directory), workers=1)
    assert first.verdict.point is not None
    stored = VerdictCache(directory).get(claim)
    assert stored is not None
    assert stored.verdict == first.verdict
    assert stored.verdict.point == first.verdict.point
    # An entry written before verdicts carried a point, signed by this key.
    cache = VerdictCache(directory)
    entry = json.loads(_entry_file(cache, claim).read_text(encoding="utf-8"))
    old = {k: v for k, v in entry.items() if k not in ("counterexample_point", "mac")}
    assert cache._write(_entry_file(cache, claim).name, old)
    older = VerdictCache(directory).get(claim)
    assert older is not None
    assert older.verdict.point is None
    assert older.verdict.counterexample == first.verdict.counterexample


def test_without_a_home_directory_the_cache_stores_nothing_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A container run under an arbitrary uid has no HOME and no password
    # entry: Path.home() raises, which ended `verify` (even --no-cache).
    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.delenv("IMPLICIT_BIAS_CACHE_KEY_FILE", raising=False)
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    cache = VerdictCache(tmp_path / "cache")
    assert cache.key_file is None
    assert any("no home directory" in problem for problem in cache.errors)
    claim = Claim(
        "no-home",
        "1",
        "x",
        Kind.NUMERIC,
        "a statement",
        functools.partial(Verdict.holds, "ok", Basis.PROOF),
        Status.HOLDS,
    )
    assert cache.put(Result(claim, Verdict.holds("ok", Basis.PROOF), 0.1)) is False
    assert cache.get(claim) is None


def test_no_module_of_the_package_has_an_assert_statement() -> None:
    # pytest rewrites the assert statements of a plugin's package (this one
    # registers `pytest --claims`): a function with one got other bytecode,
    # and its module a `@pytest_ar` global, under pytest than under
    # `implicit-bias verify`, so the two computed different keys for one claim.
    package = Path(implicit_bias.__file__).parent
    found = [
        f"{path.relative_to(package)}:{node.lineno}"
        for path in sorted(package.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Assert)
    ]
    assert not found
