"""The command line as a process among others: signals, piped output, and
checks that print or fork (the console script run in a subprocess)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from implicit_bias.validation.sweep_store import process_alive

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="parent-death signals are Linux's"
)

#: Seconds a hung command is given before the test calls it hung: far above
#: what any of these runs needs, so it detects a hang, not a slow machine.
_HANG = 300.0

_NOTE = """
import os, sys, time
from implicit_bias.claims import Basis, Claim, Kind, Reason, Source, Status, Verdict

import subprocess

RECORD = {record!r}


def _start_a_sleeper() -> None:
    # A process the check starts, which holds the run's output while it lives.
    sleeper = subprocess.Popen(["sleep", "600"])
    with open(RECORD + ".tmp", "w", encoding="ascii") as stream:
        stream.write(f"{{os.getpid()}} {{sleeper.pid}}")
    os.replace(RECORD + ".tmp", RECORD)


def waits() -> Verdict:
    _start_a_sleeper()
    time.sleep(600)
    return Verdict.holds("woke up", Basis.PROOF)


def spins() -> Verdict:
    _start_a_sleeper()
    while True:
        sum(range(1000))


def prints() -> Verdict:
    print("printed by a check")
    os.write(1, b"written to descriptor 1 by a check\\n")
    return Verdict.holds("printed", Basis.PROOF)


def forks() -> Verdict:
    # The copy returns too, as a careless check's would; a grandchild sleeps
    # holding the worker's descriptors.
    if os.fork() == 0:
        if os.fork() == 0:
            time.sleep(600)
        return Verdict.holds("the copy's", Basis.PROOF)
    return Verdict.holds("the worker's", Basis.PROOF)


CHECKS = {{"waits": waits, "prints": prints, "forks": forks}}
SOURCE = Source(
    "hostile-note",
    "Checks that wait, spin, print and fork",
    claims=tuple(
        Claim("hostile-note", "1", name, Kind.NUMERIC, name, check, Status.HOLDS,
              budget_seconds=60.0)
        for name, check in CHECKS.items()
    ) + (
        Claim("hostile-note", "1", "spins", Kind.NUMERIC, "spins", spins,
              Status.INCONCLUSIVE, expected_reason=Reason.BUDGET,
              budget_seconds=1.0),
    ),
)
"""


def _environment(tmp_path: Path) -> dict[str, str]:
    # A per-user file (the cache's key) lands under the test's directory.
    return {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}


def _verify(tmp_path: Path, claim: str, *options: str) -> list[str]:
    note = tmp_path / "hostile.py"
    note.write_text(_NOTE.format(record=str(tmp_path / "worker-pid")), encoding="utf-8")
    return [
        sys.executable,
        "-m",
        "implicit_bias.cli",
        "verify",
        "--file",
        str(note),
        "--claim",
        f"hostile-note:1:{claim}",
        "--workers",
        "1",
        "--no-cache",
        "--cache-dir",
        str(tmp_path / "cache"),
        *options,
    ]


def _verify_one(
    tmp_path: Path, claim: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, object]]:
    """Verify one claim with ``--json``, reading its pipes to their end (a
    process left holding them would hang this: the timeout says so)."""
    run = subprocess.run(
        _verify(tmp_path, claim, "--json"),
        capture_output=True,
        text=True,
        timeout=_HANG,
        env=_environment(tmp_path),
        check=False,
    )
    assert run.returncode == 0, run.stderr
    (record,) = json.loads(run.stdout)
    return run, record


def _gone(pid: int) -> bool:
    """Whether ``pid`` ends within :data:`_HANG` seconds (polled: a
    parent-death signal and init's reaping come on the kernel's time)."""
    deadline = time.monotonic() + _HANG
    while time.monotonic() < deadline:
        if not process_alive(pid):
            return True
        time.sleep(0.05)
    return False


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _started(tmp_path: Path, command: subprocess.Popen[str]) -> list[int]:
    """The pids of the worker running the check and of the process it started."""
    record = tmp_path / "worker-pid"
    deadline = time.monotonic() + _HANG
    while not record.exists():
        assert command.poll() is None, command.communicate()
        assert time.monotonic() < deadline, "the check never started"
        time.sleep(0.05)
    return [int(pid) for pid in record.read_text().split()]


@pytest.mark.parametrize(
    ("number", "status", "line"),
    [
        (signal.SIGTERM, 143, "implicit-bias verify: stopped by SIGTERM"),
        (signal.SIGINT, 130, "implicit-bias verify: interrupted by SIGINT"),
        (signal.SIGKILL, -signal.SIGKILL, None),
    ],
)
def test_a_killed_verify_leaves_no_worker(
    tmp_path: Path, number: int, status: int, line: str | None
) -> None:
    command = subprocess.Popen(
        _verify(tmp_path, "waits"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_environment(tmp_path),
        # A test run started in the background by a shell without job control
        # inherits SIGINT ignored, which Python then keeps: give verify the
        # terminal's default, as a user's shell does.
        preexec_fn=_default_sigint,
    )
    worker, sleeper = _started(tmp_path, command)
    command.send_signal(number)
    # Read to the end of the pipes: a process left holding them hangs here.
    _, stderr = command.communicate(timeout=_HANG)
    assert command.returncode == status
    if line is not None:
        # One line, no traceback.
        assert stderr.splitlines()[-1] == line
        assert "Traceback" not in stderr
    assert _gone(worker)
    assert _gone(sleeper)


def test_a_claim_killed_by_its_budget_leaves_nothing_it_started(
    tmp_path: Path,
) -> None:
    _, record = _verify_one(tmp_path, "spins")
    assert (record["status"], record["reason"]) == ("inconclusive", "budget")
    _, sleeper = (int(pid) for pid in (tmp_path / "worker-pid").read_text().split())
    assert _gone(sleeper)


def test_what_a_check_prints_leaves_the_json_records_parseable(
    tmp_path: Path,
) -> None:
    run, record = _verify_one(tmp_path, "prints")
    assert (record["id"], record["status"]) == ("hostile-note:1:prints", "holds")
    assert "printed by a check" in run.stderr
    assert "written to descriptor 1 by a check" in run.stderr


def test_a_check_that_forks_does_not_hold_a_piped_caller(tmp_path: Path) -> None:
    _, record = _verify_one(tmp_path, "forks")
    assert (record["status"], record["detail"]) == ("holds", "the worker's")
