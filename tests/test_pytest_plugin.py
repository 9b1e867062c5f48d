"""``pytest --claims``: claims as test items, run in pytest subprocesses.

Each run is a fresh ``python -m pytest`` (``pytester.runpytest_subprocess``)
that loads the plugin through its installed ``pytest11`` entry point, as a
user's session does; in-process runs would share this process's cached
registry and the sources already loaded into it.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from implicit_bias.claims.discovery import default_registry

pytest_plugins = ["pytester"]

#: A note of four tiny claims: one holds as expected, one is expected to fail
#: and fails (as expected: it passes), one is expected to hold and fails
#: (log x^2 = 3 log x, refuted with a certified counterexample), one is slow.
NOTE = """
import sympy as sp

from implicit_bias.claims import Claim, Kind, Source, Status, relation_check

x = sp.Symbol("x", positive=True)


def claim(equation, label, relation, expected, **options):
    return Claim(
        "my-note", equation, label, Kind.IDENTITY, label,
        relation_check(relation), expected, **options,
    )


SOURCE = Source("my-note", "My note", claims=(
    claim("1", "log-square", lambda: sp.Eq(sp.log(x**2), 2 * sp.log(x)),
          Status.HOLDS),
    claim("2", "log-cube-refuted", lambda: sp.Eq(sp.log(x**2), 3 * sp.log(x)),
          Status.FAILS),
    claim("3", "log-cube", lambda: sp.Eq(sp.log(x**2), 3 * sp.log(x)),
          Status.HOLDS, quote="log x^2 = 3 log x", reading="printed",
          regime="x > 0, the domain of the note"),
    claim("4", "pythagoras", lambda: sp.Eq(sp.sin(x)**2 + sp.cos(x)**2, 1),
          Status.HOLDS, slow=True),
))
"""

IDS = [
    "my-note:1:log-square",
    "my-note:2:log-cube-refuted",
    "my-note:3:log-cube",
    "my-note:4:pythagoras",
]


def _collected(output: list[str]) -> list[str]:
    """The claim ids a ``--collect-only -q`` run lists."""
    return [line.removeprefix("claims::") for line in output if "claims::" in line]


def test_claims_file_items_pass_as_expected_and_fail_with_the_evidence(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(note=NOTE)
    result = pytester.runpytest_subprocess("--claims-file=note.py", "-v")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*collected 4 items",
            "claims::my-note:1:log-square PASSED*",
            "claims::my-note:2:log-cube-refuted PASSED*",
            "claims::my-note:3:log-cube FAILED*",
            "claims::my-note:4:pythagoras PASSED*",
            "*_ claim my-note:3:log-cube _*",
            "my-note:3:log-cube: got fails, expected holds",
            "  basis:    certified",
            "  evidence: *",
            "  counterexample: at x=*excludes 0",
            "  quote:    log x^2 = 3 log x",
            "  reading:  printed",
            "  regime:   x > 0, the domain of the note",
            "*implicit-bias: 4 claims, 3 as expected*",
            "my-note:3:log-cube: fails, expected holds",
        ]
    )
    # The evidence replaces the traceback of the plugin that raised.
    assert "Traceback" not in result.stdout.str()
    assert "UnexpectedVerdictError" not in result.stdout.str()
    assert result.ret == pytest.ExitCode.TESTS_FAILED


@pytest.mark.parametrize(
    ("selection", "selected"),
    [
        (["-m", "slow"], ["my-note:4:pythagoras"]),
        (["-m", "not slow", "-k", "log-cube"], IDS[1:3]),
        (["-k", "my-note:1:log-square or pythagoras"], IDS[::3]),
    ],
)
def test_claims_are_selected_by_the_slow_marker_and_by_id(
    pytester: pytest.Pytester, selection: list[str], selected: list[str]
) -> None:
    pytester.makepyfile(note=NOTE)
    result = pytester.runpytest_subprocess(
        "--claims-file=note.py", "--collect-only", "-q", *selection
    )
    assert _collected(result.outlines) == selected


def test_a_source_that_fails_to_import_is_an_error_and_the_others_run(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(note=NOTE, broken="raise RuntimeError('broken on purpose')")
    result = pytester.runpytest_subprocess(
        "--claims-file=broken.py", "--claims-file=note.py", "-m", "not slow"
    )
    result.assert_outcomes(passed=2, failed=1, errors=1, deselected=1)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at setup of source not loaded: file broken.py*",
            "source not loaded: file broken.py: RuntimeError: broken on purpose",
        ]
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_a_source_collects_exactly_its_claims_without_running_them(
    pytester: pytest.Pytester,
) -> None:
    source = "ptft-relu-penalty"
    expected = [c.id for c in default_registry().claims(source) if not c.slow]
    assert expected, "the source has claims that are not slow"
    result = pytester.runpytest_subprocess(
        f"--claims={source}", "-m", "not slow", "--collect-only", "-q"
    )
    assert result.ret == pytest.ExitCode.OK
    assert _collected(result.outlines) == expected


def test_an_unknown_source_is_a_usage_error_naming_the_known_ones(
    pytester: pytest.Pytester,
) -> None:
    result = pytester.runpytest_subprocess("--claims=no-such-source")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*source='no-such-source' is not registered; known sources: *"]
    )
    for source in default_registry().sources:
        assert source in result.stderr.str()


def test_without_the_options_the_session_is_unchanged(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(test_plain="def test_one():\n    assert 1 + 1 == 2\n")
    result = pytester.runpytest_subprocess("-v")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["plugins:*implicit-bias*", "*collected 1 item"])
    assert "claims::" not in result.stdout.str()
    assert "implicit-bias:" not in result.stdout.str()


def test_importing_the_plugin_imports_nothing_heavy() -> None:
    # Every pytest session of anyone who installs implicit-bias imports it.
    code = (
        "import sys, implicit_bias.pytest_plugin; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'sympy', 'numpy', 'mpmath', 'flint'} or m.startswith('implicit_bias.c')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert loaded.stdout.strip() == "[]"
