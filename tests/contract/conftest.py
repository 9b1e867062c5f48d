"""Print the contract test's call counts at the end of the run."""

from __future__ import annotations

import pytest

from tests.contract.harness import COUNTS


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not COUNTS:
        return
    terminalreporter.section("argument contract")
    for kind, count in sorted(COUNTS.items()):
        terminalreporter.write_line(f"{kind}: {count}")
