"""The previous state of the package for the benchmarks' same-run comparisons.

A benchmark that compares the current code with an earlier revision exports
the package as of that revision with ``git archive`` into a temporary
directory and runs it from there: ``python -c`` (or a script run with that
directory as its working directory and first ``sys.path`` entry) imports it
ahead of the installed package. The load average, printed before and after a
run, says how busy the machine was.

Imported by the benchmark scripts of this folder (``python benchmarks/X.py``
puts the folder first on ``sys.path``).
"""

from __future__ import annotations

import os
import subprocess
import tarfile
from pathlib import Path

#: The repository this folder belongs to.
REPOSITORY = Path(__file__).resolve().parent.parent


def checkout_at(revision: str, directory: Path) -> Path:
    """The package as of ``revision``, exported into ``directory``."""
    archive = directory / "package.tar"
    with archive.open("wb") as out:
        subprocess.run(
            ["git", "archive", revision, "implicit_bias"],
            cwd=REPOSITORY,
            stdout=out,
            check=True,
        )
    with tarfile.open(archive) as tar:
        tar.extractall(directory, filter="data")
    return directory


def load_average() -> str:
    """The 1-, 5- and 15-minute load averages, as ``uptime`` prints them."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())
