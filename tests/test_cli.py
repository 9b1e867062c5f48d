"""The command line, run in-process and as the installed console script."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from implicit_bias import cli
from implicit_bias.claims.discovery import shipped_registry
from implicit_bias.claims.engine import Claim
from implicit_bias.claims.registry import all_claims, claims_for
from implicit_bias.latex import document_latex
from tests.third_party import installed_package

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_list_prints_one_line_per_claim(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list", "--source", "ptft-relu-penalty"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    claims = claims_for("ptft-relu-penalty")
    assert len(lines) == len(claims)
    for line, claim in zip(lines, claims, strict=True):
        assert line.startswith(f"{claim.id}  {claim.kind}  {claim.reading}  ")


def test_verify_json_has_the_documented_records(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = cli.main(["verify", "--source", "ptft-relu-penalty", "--quick", "--json"])
    records = json.loads(capsys.readouterr().out)
    assert status == 0
    assert len(records) == len(
        [c for c in claims_for("ptft-relu-penalty") if not c.slow]
    )
    for record in records:
        assert {
            "id",
            "source",
            "equation",
            "kind",
            "status",
            "detail",
            "seconds",
            "basis",
            "counterexample",
            "quote",
            "reading",
            "regime",
        } <= set(record)
        assert record["status"] in {"holds", "fails", "inconclusive"}
        assert record["reading"] in {"printed", "prose", "interpretation", "extension"}
        if record["status"] != "inconclusive":
            assert record["basis"] in {
                "proof",
                "certified",
                "numerical",
                "statistical",
                "search",
            }
        if record["status"] == "fails":
            assert record["counterexample"]
    assert any("corrects" in r for r in records)


def test_unknown_source_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["verify", "--source", "no-such-paper"]) == 2
    assert "no-such-paper" in capsys.readouterr().err


def test_latex_of_one_claim_is_tagged_with_the_paper_number(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        cli.main(["latex", "--claim", "ptft-relu-penalty:10:stationary-points-step-2"])
        == 0
    )
    out = capsys.readouterr().out
    assert r"\tag{10}" in out
    assert r"m_{0h}^{(1)}" in out


@pytest.mark.skipif(
    shutil.which("implicit-bias") is None, reason="console script not installed"
)
def test_console_script_exits_zero_on_list() -> None:
    completed = subprocess.run(
        ["implicit-bias", "list"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert completed.returncode == 0
    assert "ptft-relu-penalty:10:stationary-points-step-2" in completed.stdout


# --- latex


def test_latex_output_writes_a_standalone_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "claims.tex"
    assert cli.main(["latex", "--output", str(output)]) == 0
    text = output.read_text("utf-8")
    claims = all_claims()
    note = (
        "Verdicts in the margin: 0 recorded (no files), 0 checked now, "
        f"{len(claims)} not run (their expected verdict is shown, in italics)."
    )
    assert text == document_latex(claims, {}, note=note)
    assert str(output) in capsys.readouterr().err


def test_latex_margin_shows_recorded_verdicts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "results.json"
    records.write_text(
        json.dumps(
            [
                {
                    "id": "ptft-relu-penalty:9:stationary-points-step-1",
                    "status": "fails",
                    "basis": "certified",
                    "detail": "",
                },
                {
                    "id": "ptft-relu-penalty:7:p-of-u-step-1",
                    "status": "holds",
                    "basis": "proof",
                    "detail": "",
                },
            ]
        )
    )
    arguments = ["latex", "--source", "ptft-relu-penalty", "--verdicts", str(records)]
    assert cli.main(arguments) == 0
    ledger = capsys.readouterr().out
    assert ledger.startswith(r"\providecommand{\verdict}")
    assert (
        r"\tag*{(9)\verdict{\textbf{fails} (expected holds), certified; "
        r"\emph{printed}}}" in ledger
    )
    assert r"\tag*{(7)\verdict{holds, proof; \emph{printed}}}" in ledger
    # The chain's step (8) comes before the single claim of (8) (issue 21).
    assert r"\tag*{(8a)\verdict{\emph{expected holds}; \emph{printed}}}" in ledger


def test_latex_run_checks_the_claim(capsys: pytest.CaptureFixture[str]) -> None:
    claim_id = "ptft-relu-penalty:10:stationary-points-step-2"
    assert cli.main(["latex", "--claim", claim_id, "--run", "--workers", "1"]) == 0
    captured = capsys.readouterr()
    assert r"\tag*{(10a)\verdict{holds, proof; \emph{printed}}}" in captured.out
    assert f"{claim_id}: holds" in captured.err


# --- docs


def test_docs_check_passes_on_the_committed_docs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["docs", "--check", "--output", str(DOCS)]) == 0
    assert capsys.readouterr().out == ""


def _made_up_basis_or_reason(claim: Claim) -> dict[str, str]:
    """What a record of the expected verdict carries besides its status."""
    if claim.expected_reason is None:
        return {"basis": "numerical"}
    return {"reason": str(claim.expected_reason)}


def test_docs_runs_the_claims_without_a_record(tmp_path: Path) -> None:
    source = "ptft-relu-penalty"
    rerun = f"{source}:7:p-of-u-step-1"
    made_up = [
        {"id": claim.id, "status": str(claim.expected)}
        | _made_up_basis_or_reason(claim)
        | {"detail": "made up"}
        for claim in claims_for(source)
        if claim.id != rerun
    ]
    records = tmp_path / "partial.json"
    records.write_text(json.dumps(made_up))
    output = tmp_path / "docs"
    arguments = ["docs", "--output", str(output), "--source", source]
    arguments += ["--verdicts", str(records), "--workers", "1"]
    assert cli.main(arguments) == 0
    written = json.loads((output / "verdicts" / f"{source}.json").read_text("utf-8"))
    fresh = next(r for r in written if r["id"] == rerun)
    assert fresh["status"] == "holds"
    assert fresh["detail"] != "made up"
    assert [r for r in written if r["id"] != rerun] == made_up
    assert (output / f"{source}.md").is_file()
    assert not (output / "ptft-diagonal-networks.md").exists()
    # The toolkit's API reference only with --api (issue 21).
    assert not (output / "api.md").exists()


def test_docs_quick_needs_recorded_slow_verdicts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = "ptft-diagonal-networks"
    slow = {c.id for c in claims_for(source) if c.slow}
    fast = [
        {"id": claim.id, "status": str(claim.expected), "detail": "made up"}
        | _made_up_basis_or_reason(claim)
        for claim in claims_for(source)
        if claim.id not in slow
    ]
    records = tmp_path / "fast.json"
    records.write_text(json.dumps(fast))
    arguments = ["docs", "--output", str(tmp_path / "docs"), "--source", source]
    arguments += ["--verdicts", str(records), "--quick"]
    assert cli.main(arguments) == 2
    error = capsys.readouterr().err
    assert "without --quick" in error
    assert all(claim_id in error for claim_id in slow)


def test_docs_rejects_a_bad_verdict_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "bad.json"
    records.write_text("{}")
    arguments = ["docs", "--output", str(tmp_path), "--verdicts", str(records)]
    assert cli.main(arguments) == 2
    assert "bad.json" in capsys.readouterr().err


def test_sweep_runs_and_resumes_a_builtin_sweep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "demo.sqlite"
    command = ["sweep", "relu-penalty-demo", "--store", str(store), "--workers", "2"]
    for already in (0, 55):
        assert cli.main([*command, "--quiet"]) == 0
        assert f"55 configurations, {already} already stored" in capsys.readouterr().out


def test_figure_writes_the_named_png(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    output = tmp_path / "fig.png"
    assert cli.main(["figure", "ptft-relu-penalty:1a", "--output", str(output)]) == 0
    assert output.read_bytes().startswith(b"\x89PNG")
    assert cli.main(["figure", "--list"]) == 0
    assert "ptft-relu-penalty:1b" in capsys.readouterr().out


def test_unknown_figure_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["figure", "nope", "--output", "x.png"]) == 2
    assert "name='nope' is not a known figure" in capsys.readouterr().err


# --- mutate


def test_mutate_kills_the_mutants_of_a_claim_and_writes_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claim_id = "ptft-relu-penalty:10:stationary-points-step-2"
    report = tmp_path / "mutation.md"
    arguments = ["mutate", "--claim", claim_id, "--limit", "6", "--json"]
    arguments += ["--theory-per-function", "1"]
    assert cli.main([*arguments, "--output", str(report), "--workers", "1"]) == 0
    captured = capsys.readouterr()
    records = json.loads(captured.out)
    (record,) = records["claims"]
    assert record["id"] == claim_id
    # The theory functions it calls were mutated too, and it noticed.
    killed = {t["function"] for t in records["theory"] if t["killed_by"] == claim_id}
    assert {"stationarity_eq9", "stationarity_eq10"} <= killed
    outcomes = [m["outcome"] for m in record["symbolic"]]
    assert len(outcomes) == 6
    assert set(outcomes) <= {"killed", "equivalent"}
    assert f"{claim_id}: " in captured.err
    page = report.read_text("utf-8")
    assert "| ptft-relu-penalty | 1 | 1 | 6 |" in page
    assert "## The theory layer" in page
    assert "| ptft-relu-penalty | 1 | 1 | 0 | 100.0% |" in page
    assert "implicit-bias mutate --claim" in page


_USER_NOTE = """
import sympy as sp
from implicit_bias.claims import Claim, Kind, Source, Status, relation_check

x = sp.Symbol("x", positive=True)
SOURCE = Source(
    "user-note",
    "A user's note",
    claims=(
        Claim("user-note", "1", "log", Kind.IDENTITY, "log x^2 = 2 log x",
              relation_check(lambda: sp.Eq(sp.log(x**2), 2 * sp.log(x))),
              Status.HOLDS, quote="log x^2 = 2 log x"),
        Claim("user-note", "2", "slip", Kind.IDENTITY, "log x^2 = 3 log x",
              relation_check(lambda: sp.Eq(sp.log(x**2), 3 * sp.log(x))),
              Status.FAILS, quote="log x^2 = 3 log x"),
    ),
)
"""


def test_a_file_of_claims_is_listed_verified_and_documented(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    note = tmp_path / "note.py"
    note.write_text(_USER_NOTE, encoding="utf-8")
    assert cli.main(["list", "--file", str(note)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "user-note:1:log  identity  None  expected holds: log x^2 = 2 log x",
        "user-note:2:slip  identity  None  expected fails: log x^2 = 3 log x",
    ]
    assert cli.main(["verify", "--file", str(note), "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [(r["id"], r["status"]) for r in records] == [
        ("user-note:1:log", "holds"),
        ("user-note:2:slip", "fails"),
    ]
    assert cli.main(["docs", "--file", str(note), "--output", str(tmp_path)]) == 0
    page = (tmp_path / "user-note.md").read_text(encoding="utf-8")
    assert f"implicit-bias verify --file {note} --source user-note" in page
    assert cli.main(["latex", "--file", str(note), "--claim", "user-note:2:slip"]) == 0
    assert r"\log{\left(x^{2} \right)} = 3 \log{\left(x \right)}" in (
        capsys.readouterr().out
    )


def test_verify_runs_the_claims_it_is_given(
    capsys: pytest.CaptureFixture[str],
) -> None:
    first, second = claims_for("ptft-relu-penalty")[:2]
    assert cli.main(
        ["verify", "--claim", first.id, "--claim", second.id, "--json"]
    ) in (
        0,
        1,
    )
    assert [r["id"] for r in json.loads(capsys.readouterr().out)] == [
        first.id,
        second.id,
    ]


def test_a_source_that_fails_to_load_is_reported_and_the_rest_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("import no_such_module_at_all\n", encoding="utf-8")
    assert (
        cli.main(["list", "--file", str(broken), "--source", "ptft-relu-penalty"]) == 0
    )
    captured = capsys.readouterr()
    assert f"source not loaded: file {broken}: ModuleNotFoundError" in captured.err
    assert len(captured.out.splitlines()) == len(claims_for("ptft-relu-penalty"))


def test_list_sources_cites_every_source_and_version_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["list", "--sources"]) == 0
    out = capsys.readouterr().out
    for arxiv in ("2310.02396", "2410.08194", "2308.15478"):
        assert f"arXiv:{arxiv}" in out
    with pytest.raises(SystemExit):
        cli.main(["--version"])
    assert capsys.readouterr().out.startswith("implicit-bias ")


def test_an_unknown_source_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list", "--source", "no-such-paper"]) == 2
    err = capsys.readouterr().err
    assert "source='no-such-paper' is not registered; known sources:" in err
    assert "ptft-relu-penalty" in err


@pytest.mark.parametrize("content", ["x = (\n", "x = 1\n"])
def test_a_file_that_registers_nothing_selects_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    # Not every installed claim, which `verify` would run for minutes.
    note = tmp_path / "note.py"
    note.write_text(content, encoding="utf-8")
    assert cli.main(["list", "--file", str(note)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"--file {note}: no source registered" in captured.err


_SIZED_NOTE = """
from implicit_bias.claims import (
    Basis, Claim, Configuration, CostEstimate, Kind, Reason, Source, Status, Verdict,
)

def small():
    return Verdict.inconclusive("4 seeds: 1.2 SE", Reason.STATISTICAL)

def large():
    return Verdict.holds("64 seeds: 5.1 SE", Basis.STATISTICAL)

SOURCE = Source(
    "sized-note",
    "A note with a paper-size run",
    claims=(
        Claim("sized-note", "3", "effect", Kind.SIMULATION, "the effect is positive",
              small, Status.INCONCLUSIVE, expected_reason=Reason.STATISTICAL,
              quote="the effect is positive",
              cost=lambda: CostEstimate.of_training(4, 100, 1e-3),
              paper=Configuration("Fig. 3: 64 seeds", large, 60.0, Status.HOLDS,
                                  lambda: CostEstimate.of_training(64, 10**5, 1e-3))),
        Claim("sized-note", "4", "slow", Kind.NUMERIC, "slow", large, Status.HOLDS,
              quote="slow", slow=True),
    ),
)
"""


def test_profiles_choose_the_size_and_the_plan_runs_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    note = tmp_path / "sized.py"
    note.write_text(_SIZED_NOTE, encoding="utf-8")
    common = ["--file", str(note), "--cache-dir", str(tmp_path / "cache")]
    assert cli.main(["verify", *common, "--plan", "--profile", "paper"]) == 0
    text = capsys.readouterr().out
    assert "profile paper" in text
    assert "64 runs x 100000 steps x 1 ms/step (measured)" in text
    assert "over an hour each (a cluster's work): sized-note:3:effect" in text
    assert cli.main(["verify", *common, "--profile", "paper", "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [(r["id"], r["status"]) for r in records] == [
        ("sized-note:3:effect", "holds"),
        ("sized-note:4:slow", "holds"),
    ]
    assert "at the paper's size: Fig. 3: 64 seeds" in records[0]["regime"]
    assert cli.main(["verify", *common, "--quick", "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert [(r["id"], r["status"]) for r in records] == [
        ("sized-note:3:effect", "inconclusive")
    ]
    assert cli.main(["verify", *common, "--quick", "--profile", "paper"]) == 2
    assert "--quick" in capsys.readouterr().err
    assert cli.main(["docs", *common, "--output", str(tmp_path / "docs")]) == 0
    page = (tmp_path / "docs" / "sized-note.md").read_text(encoding="utf-8")
    assert (
        "At the paper's size (`verify --profile paper`; configuration the source's): "
        "holds. Fig. 3: 64 seeds"
    ) in page


def test_verify_says_how_long_it_expects_to_take_before_it_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    note = tmp_path / "sized.py"
    note.write_text(_SIZED_NOTE, encoding="utf-8")
    common = ["--file", str(note), "--cache-dir", str(tmp_path / "cache")]
    assert cli.main(["verify", *common, "--workers", "1"]) == 0
    first = capsys.readouterr().err.splitlines()
    expected = [line for line in first if line.startswith("implicit-bias: running")]
    assert expected == [
        "implicit-bias: running 2 claims: 0.4 s of CPU estimated (1 not estimated), "
        "about 0.4 s of wall time on 1 process; estimated 1 by a cost model "
        "(an upper bound: every run at its step cap)"
    ]
    # Said before the first claim's verdict.
    assert first.index(expected[0]) < min(
        i for i, line in enumerate(first) if line.startswith("[")
    )
    assert cli.main(["verify", *common, "--workers", "2", "--no-cache"]) == 0
    again = capsys.readouterr().err
    assert "implicit-bias: running 2 claims: " in again
    assert "on 2 processes; estimated 2 by their last run" in again
    assert cli.main(["verify", *common]) == 0
    assert "implicit-bias: running" not in capsys.readouterr().err


_PID_NOTE = """
import os
from implicit_bias.claims import Basis, Claim, Kind, Source, Status, Verdict

WARMED = []


def report():
    return Verdict.holds(f"pid {os.getpid()} warmed {bool(WARMED)}", Basis.NUMERICAL)


SOURCE = Source(
    "pid-note",
    "Which process ran each claim",
    claims=tuple(
        Claim("pid-note", str(k), "pid", Kind.NUMERIC, "a process ran it", report,
              Status.HOLDS, quote="ran")
        for k in range(1, 4)
    ),
    warm_up=lambda claim_ids: WARMED.append(True),
)
"""


@pytest.mark.parametrize("isolate", [False, True])
def test_verify_reuses_a_warmed_worker_unless_told_to_isolate_claims(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], isolate: bool
) -> None:
    note = tmp_path / "pids.py"
    note.write_text(_PID_NOTE, encoding="utf-8")
    command = ["verify", "--file", str(note), "--workers", "1", "--json"]
    command += ["--no-cache", "--cache-dir", str(tmp_path / "cache")]
    assert cli.main(command + (["--isolate"] if isolate else [])) == 0
    details = {r["detail"] for r in json.loads(capsys.readouterr().out)}
    pids = {detail.split()[1] for detail in details}
    assert str(os.getpid()) not in pids
    if isolate:
        # A process of its own for each claim, and no warm-up shared.
        assert len(pids) == 3
        assert all(detail.endswith("warmed False") for detail in details)
    else:
        assert len(pids) == 1
        assert details == {f"pid {pids.pop()} warmed True"}


def test_isolate_is_refused_with_a_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    command = ["verify", "--isolate", "--executor", "dask", "--scheduler", "tcp://x:1"]
    assert cli.main(command) == 2
    assert "--isolate" in capsys.readouterr().err


_SLIP_NOTE = """
import sympy as sp
from implicit_bias.claims import Claim, Kind, Source, Status, relation_check

x = sp.Symbol("x", positive=True)
SOURCE = Source(
    "slip-note",
    "A note with a slip",
    claims=(
        Claim("slip-note", "1", "slip", Kind.IDENTITY, "log x^2 = 3 log x",
              relation_check(lambda: sp.Eq(sp.log(x**2), 3 * sp.log(x))),
              Status.HOLDS, quote="log x^2 = 3 log x"),
    ),
)
"""


def test_verify_refuses_a_forged_cache_entry_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IMPLICIT_BIAS_CACHE_KEY_FILE", str(tmp_path / "own-key"))
    note = tmp_path / "slip.py"
    note.write_text(_SLIP_NOTE, encoding="utf-8")
    cache = tmp_path / "cache"
    command = ["verify", "--file", str(note), "--cache-dir", str(cache), "--json"]
    assert cli.main(command) == 1
    capsys.readouterr()
    (entry,) = (p for p in cache.glob("*.json") if p.name != "parsed-modules.json")
    forged = json.loads(entry.read_text(encoding="utf-8"))
    forged.update(status="holds", counterexample=None)
    entry.write_text(json.dumps(forged), encoding="utf-8")
    assert cli.main(command) == 1
    printed = capsys.readouterr()
    assert "1 claims: 0 from the cache, 1 run" in printed.err
    assert "implicit-bias: cache: 1 cache file refused as tampered" in printed.err
    assert [r["status"] for r in json.loads(printed.out)] == ["fails"]


def test_verify_signs_with_the_key_file_it_is_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IMPLICIT_BIAS_CACHE_KEY_FILE", str(tmp_path / "own-key"))
    note = tmp_path / "slip.py"
    note.write_text(_SLIP_NOTE, encoding="utf-8")
    command = ["verify", "--file", str(note), "--cache-dir", str(tmp_path / "cache")]
    shared = ["--cache-key-file", str(tmp_path / "shared-key")]
    assert cli.main([*command, *shared]) == 1
    capsys.readouterr()
    assert cli.main([*command, *shared]) == 1
    assert "1 claims: 1 from the cache, 0 run" in capsys.readouterr().err
    # The per-user key wrote neither the entry nor the record of parsed
    # modules: another writer's, run again.
    assert cli.main(command) == 1
    printed = capsys.readouterr().err
    assert "1 claims: 0 from the cache, 1 run" in printed
    assert "implicit-bias: cache: 2 cache files refused as foreign" in printed


# Loading user files: what cannot be loaded is reported in one line per
# problem, with exit status 2, never a traceback, a silent exit or a hang.


@pytest.mark.parametrize(
    ("top_level", "message"),
    [
        (
            _USER_NOTE + "SOURCES = 42\n",
            "SOURCES is int 42; SOURCES must be a Source, a non-empty sequence "
            "of Sources, or a callable returning either",
        ),
        ("import sys\nsys.exit(3)\n", "called sys.exit(3) while being imported"),
        (
            "import time\ntime.sleep(10**6)\n",
            "still being imported after the wall-clock limit of 0.5 s "
            "(import_timeout, $IMPLICIT_BIAS_IMPORT_TIMEOUT); does its top level "
            "wait or loop forever?",
        ),
    ],
)
def test_a_file_that_cannot_be_loaded_is_reported_with_status_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    top_level: str,
    message: str,
) -> None:
    monkeypatch.setenv("IMPLICIT_BIAS_IMPORT_TIMEOUT", "0.5")
    note = tmp_path / "note.py"
    note.write_text(top_level, encoding="utf-8")
    assert cli.main(["list", "--file", str(note)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"implicit-bias: source not loaded: file {note}: {message}",
        f"implicit-bias: error: --file {note}: no source registered "
        "(see the errors above)",
    ]


def test_a_bad_import_timeout_in_the_environment_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("IMPLICIT_BIAS_IMPORT_TIMEOUT", "soon")
    note = tmp_path / "note.py"
    note.write_text(_USER_NOTE, encoding="utf-8")
    assert cli.main(["list", "--file", str(note)]) == 2
    assert capsys.readouterr().err == (
        "implicit-bias: error: $IMPLICIT_BIAS_IMPORT_TIMEOUT='soon' is not a number "
        "of seconds > 0 ('inf' for no limit)\n"
    )


def test_ctrl_c_while_a_file_loads_names_the_file_and_exits_130(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    note = tmp_path / "note.py"
    note.write_text("raise KeyboardInterrupt\n", encoding="utf-8")
    assert cli.main(["list", "--file", str(note)]) == 130
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "Traceback" not in captured.err
    assert captured.err.splitlines()[0] == (
        f"implicit-bias: file {note}: interrupted while being imported"
    )


# Evidence a reader can follow (issue 21): the table cut the evidence at the
# terminal's width, so a counterexample was visible only with --json, and in
# SymPy's names, not the source's glyphs.

_GLYPH_NOTE = """
import sympy as sp
from implicit_bias.claims import Claim, Kind, Source, Status, relation_check

x = sp.Symbol("x_raw", positive=True)
SOURCE = Source(
    "glyph-note",
    "A note with glyphs",
    claims=(
        Claim("glyph-note", "1", "log", Kind.IDENTITY, "log x^2 = 2 log x",
              relation_check(lambda: sp.Eq(sp.log(x**2), 2 * sp.log(x))),
              Status.HOLDS),
        Claim("glyph-note", "2", "slip", Kind.IDENTITY, "log x^2 = 3 log x",
              relation_check(lambda: sp.Eq(sp.log(x**2), 3 * sp.log(x))),
              Status.FAILS),
    ),
    glyphs={x: r"\\xi"},
)
"""


def _glyph_note(tmp_path: Path) -> Path:
    note = tmp_path / "glyph_note.py"
    note.write_text(_GLYPH_NOTE, encoding="utf-8")
    return note


def _evidence(out: str) -> list[str]:
    """The non-blank lines between the heading "Evidence:" after the table
    and the summary line."""
    lines = out.splitlines()
    start = lines.index("Evidence:") + 1
    summary = max(i for i, line in enumerate(lines) if re.match(r"\d+ claims: ", line))
    return [line for line in lines[start:summary] if line]


def _unwrapped(text: str) -> str:
    return " ".join(text.split())


def test_a_failing_claim_prints_its_full_evidence_in_the_source_glyphs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    note = _glyph_note(tmp_path)
    assert cli.main(["verify", "--file", str(note), "--json"]) == 0
    records = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    slip = records["glyph-note:2:slip"]
    (value,) = slip["counterexample_point"].values()
    monkeypatch.setenv("COLUMNS", "60")
    assert cli.main(["verify", "--file", str(note)]) == 0
    out = capsys.readouterr().out
    table = out[: out.index("Evidence:")]
    # The table is cut to the terminal; the evidence after it is not.
    assert slip["detail"] not in table
    evidence = _evidence(out)
    assert evidence[0] == "glyph-note:2:slip: fails (as expected), basis certified"
    text = _unwrapped("\n".join(evidence))
    assert _unwrapped(f"evidence: {slip['detail']}") in text
    assert _unwrapped(f"counterexample: {slip['counterexample']}") in text
    assert f"counterexample point: \\xi = {value}" in text
    # A claim that holds as expected adds nothing.
    assert "glyph-note:1:log" not in "\n".join(evidence)
    # Wrapped to the terminal (the text above: no word cut).
    assert all(len(line) <= 60 for line in evidence), evidence


def test_a_claim_asked_for_by_id_prints_its_evidence_even_when_it_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    note = _glyph_note(tmp_path)
    assert cli.main(["verify", "--file", str(note), "--claim", "glyph-note:1:log"]) == 0
    evidence = _evidence(capsys.readouterr().out)
    assert evidence[0] == "glyph-note:1:log: holds (as expected), basis proof"
    assert "counterexample" not in "\n".join(evidence)


def test_an_unexpected_verdict_prints_its_evidence_and_what_was_expected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    note = tmp_path / "slip.py"
    note.write_text(_SLIP_NOTE, encoding="utf-8")
    assert cli.main(["verify", "--file", str(note)]) == 1
    evidence = _evidence(capsys.readouterr().out)
    assert evidence[0] == (
        "slip-note:1:slip: fails (UNEXPECTED: expected holds), basis certified"
    )
    # No glyph for x: SymPy's name.
    assert "counterexample point: x = " in _unwrapped("\n".join(evidence))


def test_wide_prints_the_table_uncut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    note = _glyph_note(tmp_path)
    assert cli.main(["verify", "--file", str(note), "--json"]) == 0
    details = [r["detail"] for r in json.loads(capsys.readouterr().out)]
    monkeypatch.setenv("COLUMNS", "60")
    assert cli.main(["verify", "--file", str(note), "--wide"]) == 0
    table = capsys.readouterr().out.split("\n\n")[0].splitlines()
    for line, detail in zip(table[1:], details, strict=True):
        assert line.endswith(f"  {detail}")


_LINTED_NOTE = """
import numpy as np
import sympy as sp
from implicit_bias.claims import (
    Basis, Claim, Kind, Source, Status, Verdict, check_close, check_identity
)

x = sp.Symbol("x", positive=True)


def _simulated():
    draws = np.random.default_rng(0).standard_normal(1000)
    return check_close(draws.mean(), 0.0, 0.2, what="mean")


SOURCE = Source(
    "linted-note",
    "A note",
    claims=(
        Claim("linted-note", "1", "bare", Kind.IDENTITY, "log x^2 = 2 log x",
              lambda: check_identity(sp.log(x**2), 2 * sp.log(x)), Status.HOLDS),
        Claim("linted-note", "2", "by-hand", Kind.IDENTITY, "log 1 = 0",
              lambda: Verdict.holds("log 1 = 0 by hand", Basis.PROOF),
              Status.HOLDS),
        Claim("linted-note", "3", "mean", Kind.SIMULATION, "the mean is 0",
              _simulated, Status.HOLDS),
    ),
)
"""


def test_check_source_says_which_claims_cannot_be_typeset_or_mutated_and_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 21: a claim that is typeset in words only, or not mutated, said so
    # nowhere; `check-source` says why and how to fix it.
    note = tmp_path / "linted.py"
    note.write_text(_LINTED_NOTE, encoding="utf-8")
    assert cli.main(["check-source", "--file", str(note)]) == 1
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert [line.split(": ", 1)[0] for line in lines] == [
        "linted-note:2:by-hand",
        "linted-note:2:by-hand",
        "linted-note:3:mean",
    ]
    assert lines[0].startswith(
        "linted-note:2:by-hand: typeset in words only: its check calls no "
        "relation helper (check_identity"
    )
    assert (
        "give the claim formula= (a function returning the SymPy relation" in (lines[0])
    )
    assert lines[1].startswith(
        "linted-note:2:by-hand: not mutation-tested: its check calls no relation"
    )
    # A simulation comparing through check_close is mutated (shifted), but
    # without formula= it is typeset in words only.
    assert lines[2].startswith("linted-note:3:mean: typeset in words only")
    assert "3 claims: 1 typeset as mathematics and mutation-tested" in captured.err
    assert (
        cli.main(
            [
                "check-source",
                "--file",
                str(note),
                "--claim",
                "linted-note:1:bare",
                "--verbose",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out == (
        "linted-note:1:bare: typeset from the relation its check hands the relation "
        "helpers; mutated: mutants of the relation of its 1 helper call, replayed\n"
    )


# --- other installed sources; --shadow; docs --api (issue 21)


def test_docs_check_ignores_a_source_installed_besides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Installing a user's note made `docs --check` fail on the toolkit's docs.
    status = cli.main(["docs", "--check", "--output", str(DOCS)])
    alone = capsys.readouterr().out
    with installed_package(tmp_path / "site"):
        assert cli.main(["docs", "--check", "--output", str(DOCS)]) == status
    assert capsys.readouterr().out == alone


def test_docs_writes_the_api_page_only_when_asked(tmp_path: Path) -> None:
    with installed_package(tmp_path / "site"):
        mine = tmp_path / "mine"
        arguments = ["docs", "--source", "third-party-note", "--workers", "1"]
        assert cli.main([*arguments, "--output", str(mine)]) == 0
        assert sorted(p.name for p in mine.iterdir()) == [
            "third-party-note.md",
            "verdicts",
        ]
        assert cli.main(["docs", "--check", "--output", str(mine)]) == 0
        assert cli.main([*arguments, "--api", "--output", str(mine)]) == 0
        assert (mine / "api.md").is_file()
        # api.md is checked where it is, or when asked for.
        assert cli.main(["docs", "--check", "--output", str(mine)]) == 0
        checked = [*arguments[:3], "--check", "--api", "--output", str(mine)]
        assert cli.main(checked) == 0


def test_a_file_whose_id_is_installed_is_refused_unless_shadow(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    note = tmp_path / "note.py"
    note.write_text(_USER_NOTE, encoding="utf-8")
    with installed_package(tmp_path / "site", source_id="user-note") as module:
        assert cli.main(["list", "--file", str(note)]) == 2
        error = capsys.readouterr().err
        assert (
            f"source not loaded: file {note}: source id 'user-note' is already "
            f"registered by entry point user-note = {module}:SOURCE (user-note)"
        ) in error
        assert "pass --shadow on the command line" in error
        assert cli.main(["list", "--file", str(note), "--shadow"]) == 0
        captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        "user-note:1:log  identity  None  expected holds: log x^2 = 2 log x",
        "user-note:2:slip  identity  None  expected fails: log x^2 = 3 log x",
    ]
    assert captured.err == (
        f"implicit-bias: file {note} shadows the installed source user-note "
        f"(entry point user-note = {module}:SOURCE (user-note)) for this run\n"
    )


def test_shadow_is_refused_with_a_cluster(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    note = tmp_path / "note.py"
    note.write_text(_USER_NOTE, encoding="utf-8")
    arguments = ["verify", "--file", str(note), "--shadow", "--executor", "dask"]
    assert cli.main([*arguments, "--scheduler", "tcp://127.0.0.1:1"]) == 2
    assert "--shadow: for local runs only" in capsys.readouterr().err


def test_docs_api_concerns_the_toolkits_own_sources(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `docs --api --output docs/` is the toolkit's own docs: its sources (every
    # one of them, so a missing page is found) and api.md, and not a user's
    # note installed beside it.
    empty = tmp_path / "docs"
    empty.mkdir()
    with installed_package(tmp_path / "site"):
        assert cli.main(["docs", "--check", "--api", "--output", str(empty)]) == 1
    problems = capsys.readouterr().out.splitlines()
    missing = sorted(
        line.split(": ")[0].removeprefix(f"{empty}/verdicts/").removesuffix(".json")
        for line in problems
        if ": missing" in line
    )
    assert missing == sorted(shipped_registry().sources)
    assert problems[-1].startswith(f"{empty / 'api.md'}: stale or missing")
    assert "third-party-note" not in "\n".join(problems)


_INVENTORIED_NOTE = """
import sympy as sp
from implicit_bias.claims import (
    Claim, Item, ItemKind, Kind, Source, Status, relation_check,
)

x = sp.Symbol("x", positive=True)
SQUARE = Claim(
    "inventoried-note", "2", "square", Kind.IDENTITY, "(x+1)^2",
    relation_check(lambda: sp.Eq((x + 1) ** 2, x**2 + 2 * x + 1)), Status.HOLDS,
)
SLIP = Claim(
    "inventoried-note", "3", "slip", Kind.IDENTITY, "(x+1)^2 as misprinted",
    relation_check(lambda: sp.Eq((x + 1) ** 2, x**2 + x + 1)), Status.FAILS,
)
SOURCE = Source(
    "inventoried-note", "A note with an inventory", claims=(SQUARE, SLIP),
    inventory=(
        Item("1", ItemKind.DEFINITION, "Section 1", "x", used_by=(SQUARE.id,)),
        Item("2", ItemKind.RESULT, "Section 1", "the square"),
        Item("3", ItemKind.PROOF_STEP, "Section 2", "a step"),
        Item("4", ItemKind.PROOF_STEP, "Section 2", "the next step"),
    ),
)
"""


def test_coverage_reports_each_item_and_verify_prints_the_total(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    note = tmp_path / "inventoried.py"
    note.write_text(_INVENTORIED_NOTE, encoding="utf-8")
    common = ["--file", str(note), "--cache-dir", str(tmp_path / "cache")]
    # Nothing run yet: the results are "not run", and coverage says so.
    assert cli.main(["coverage", *common, "--json"]) == 0
    captured = capsys.readouterr()
    (record,) = json.loads(captured.out)
    assert [i["status"] for i in record["items"]] == [
        "definition",
        "not run",
        "not run",
        "missing",
    ]
    assert "0 recorded, 0 from the cache, 0 run, 2 not run (--run checks" in (
        captured.err
    )
    # verify prints the one-line total, and coverage then reads the cache.
    assert cli.main(["verify", *common]) == 0
    out = capsys.readouterr().out
    assert (
        "coverage: inventoried-note: 4 items, 3 accounted for (75.0%), 2 of 3 "
        "results and proof steps checked (66.7%); missing: (4)"
    ) in out
    assert cli.main(["coverage", *common]) == 0
    captured = capsys.readouterr()
    assert "0 recorded, 2 from the cache, 0 run, 0 not run" in captured.err
    lines = captured.out.splitlines()
    assert lines[0].startswith("inventoried-note: 4 items, 3 accounted for")
    assert "    (3) proof step, checked: inventoried-note:3:slip (fails)" in lines
    assert "    (4) proof step, missing: the next step" in lines
    assert (
        "    (1) definition, definition: used by inventoried-note:2:square (holds)"
        in lines
    )
    # With mutate's JSON: the square received mutants; the slip, expected to
    # fail, was not mutated.
    mutations = tmp_path / "mutations.json"
    assert cli.main(["mutate", "--file", str(note), "--json", "--workers", "1"]) == 0
    mutations.write_text(capsys.readouterr().out, encoding="utf-8")
    assert cli.main(["coverage", *common, "--mutations", str(mutations)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "2 of 3 results and proof steps checked (66.7%), 1 of them " in lines[0]
    assert (
        "    (3) proof step, checked (no mutant): inventoried-note:3:slip"
        in "\n".join(lines)
    )
