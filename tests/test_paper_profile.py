"""The paper-profile records and page: ``docs --paper-run`` and ``docs --check``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from implicit_bias import cli
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.paper_profile import PAGE, read_paper_run

_NOTE = """
from implicit_bias.claims import (
    Basis, Claim, Configuration, CostEstimate, Kind, Reason, Source, Status, Verdict,
)

def small():
    return Verdict.inconclusive("4 seeds: 1.2 SE", Reason.STATISTICAL)

def large():
    return Verdict.holds("64 seeds: 5.1 SE", Basis.STATISTICAL)

def same():
    return Verdict.holds("exact", Basis.PROOF)

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
        Claim("sized-note", "4", "identity", Kind.IDENTITY, "an identity", same,
              Status.HOLDS, quote="an identity"),
    ),
)
"""


def _run_file(tmp_path: Path, records: list[dict], **fields: object) -> Path:
    run = {
        "commit": "0123456789abcdef0123456789abcdef01234567",
        "work_tree_differs": False,
        "profile": "paper",
        "executor": "dask LocalCluster, 2 workers x 1 thread, nice 0",
        "started": "2026-11-27T18:43:00+00:00",
        "wall_seconds": 125.0,
        "cpu_seconds_workers": 240.5,
        "plan": {"summary": "2 claims: 6.4 s of CPU estimated (1 not estimated)"},
        "records": records,
        **fields,
    }
    path = tmp_path / "run.json"
    path.write_text(json.dumps(run), encoding="utf-8")
    return path


@pytest.fixture
def documented(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    """A note's docs, default verdicts generated, and a paper-profile run file."""
    note = tmp_path / "note.py"
    note.write_text(_NOTE, encoding="utf-8")
    docs = tmp_path / "docs"
    common = ["--file", str(note), "--cache-dir", str(tmp_path / "cache")]
    assert cli.main(["docs", *common, "--output", str(docs)]) == 0
    assert cli.main(["verify", *common, "--profile", "paper", "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    return note, _run_file(tmp_path, records)


def test_a_paper_run_becomes_records_and_a_page_that_docs_check_keeps(
    tmp_path: Path, documented: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    note, run_file = documented
    docs = tmp_path / "docs"
    options = ["--file", str(note), "--output", str(docs)]
    assert cli.main(["docs", *options, "--paper-run", str(run_file)]) == 0
    records = json.loads((docs / "verdicts/paper/sized-note.json").read_text("utf-8"))
    assert [(r["id"], r["status"], r.get("basis")) for r in records] == [
        ("sized-note:3:effect", "holds", "statistical"),
        ("sized-note:4:identity", "holds", "proof"),
    ]
    assert all(isinstance(r["seconds"], float) for r in records)
    run = json.loads((docs / "verdicts/paper/run.json").read_text("utf-8"))
    assert run["commit"] == "0123456789abcdef0123456789abcdef01234567"
    assert run["claims"] == 2
    page = (docs / PAGE).read_text("utf-8")
    assert "commit `0123456789abcdef0123456789abcdef01234567`" in page
    assert "2 claims: 6.4 s of CPU estimated" in page
    # The claim the paper size decides otherwise is said, with both verdicts.
    decided = page.split("## Decided differently at the paper's size")[1].split("##")[0]
    assert (
        "**sized-note:3:effect**: default inconclusive (statistical); at the "
        "paper's size holds (statistical). 64 seeds: 5.1 SE"
    ) in decided
    assert "sized-note:4:identity" not in decided
    assert (
        "| `sized-note:3:effect` | Fig. 3: 64 seeds | inconclusive (statistical) | "
        "holds (statistical) |"
    ) in page
    assert "1 of the 2 claims run at another size" in page
    assert (
        "## Not the verdict the registry expects at the paper's size\n\nNone." in page
    )
    capsys.readouterr()
    assert cli.main(["docs", *options, "--check"]) == 0
    (docs / PAGE).write_text(page.replace("holds (statistical)", "fails"), "utf-8")
    assert cli.main(["docs", *options, "--check"]) == 1
    assert f"{docs / PAGE}: stale or missing" in capsys.readouterr().out


def test_a_paper_verdict_other_than_the_expected_one_is_listed(
    tmp_path: Path, documented: tuple[Path, Path]
) -> None:
    note, run_file = documented
    run = json.loads(run_file.read_text("utf-8"))
    run["records"][0].update(status="fails", basis="statistical", detail="-3 SE")
    run_file.write_text(json.dumps(run), "utf-8")
    docs = tmp_path / "docs"
    options = ["--file", str(note), "--output", str(docs)]
    assert cli.main(["docs", *options, "--paper-run", str(run_file)]) == 0
    page = (docs / PAGE).read_text("utf-8")
    assert (
        "- **sized-note:3:effect**: expected holds, recorded fails (statistical)."
    ) in page


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ([], "holds no records"),
        ([{"id": "x:1:y"}], "needs id, source, status and detail"),
    ],
)
def test_a_file_that_is_not_a_paper_run_is_refused(
    tmp_path: Path, records: list[dict], message: str
) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        read_paper_run(_run_file(tmp_path, records))
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"records": []}), "utf-8")
    with pytest.raises(InvalidArgumentError, match="lacks commit"):
        read_paper_run(path)


def test_the_toolkit_docs_page_is_current() -> None:
    docs = Path(__file__).resolve().parent.parent / "docs"
    from implicit_bias.paper_profile import stale_paper_profile

    assert stale_paper_profile(docs) == []
