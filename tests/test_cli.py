"""The command line, run in-process and as the installed console script."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from implicit_bias import cli
from implicit_bias.claims.registry import claims_for


def test_list_prints_one_line_per_claim(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["list", "--source", "ptft-relu-penalty"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == len(claims_for("ptft-relu-penalty"))
    assert all(line.startswith("ptft-relu-penalty:") for line in lines)


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
        } <= set(record)
        assert record["status"] in {"holds", "fails", "inconclusive"}
    assert any("corrects" in r for r in records)


def test_unknown_source_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["verify", "--source", "no-such-paper"]) == 2
    assert "no-such-paper" in capsys.readouterr().err


def test_latex_of_one_claim_is_tagged_with_the_paper_number(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["latex", "--claim", "ptft-relu-penalty:10:quartic"]) == 0
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
    assert "ptft-relu-penalty:10:quartic" in completed.stdout
