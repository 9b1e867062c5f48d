"""The README's Python examples run as printed (a newcomer's first steps)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
#: Examples that name a user's own package, which does not exist here.
_USER_CODE = "mypackage"


def _python_blocks() -> list[str]:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)
    return [block for block in blocks if _USER_CODE not in block]


def test_the_readme_has_runnable_examples() -> None:
    assert len(_python_blocks()) >= 2


@pytest.mark.parametrize("block", _python_blocks(), ids=lambda b: b.split("\n")[0])
def test_readme_example_runs(block: str) -> None:
    namespace: dict[str, object] = {}
    exec(compile(block, str(README), "exec"), namespace)
    # A property test defined by an example is run, as pytest would run it.
    for name, value in namespace.items():
        if name.startswith("test_") and callable(value):
            value()


def _committed_text_files() -> list[Path]:
    root = README.parent
    roots = [root / "README.md", root / "CHANGELOG.md", root / "pyproject.toml"]
    for folder in ("implicit_bias", "docs", "benchmarks", "examples", "tests"):
        roots.extend(
            path
            for path in (root / folder).rglob("*")
            if path.suffix in {".py", ".md", ".json", ".toml", ".txt", ".tex"}
        )
    return [path for path in roots if path.is_file()]


def test_nothing_points_outside_the_repository() -> None:
    # A user's clone has only the repository: the papers are cited, never
    # pointed to as files beside it.
    outside = ".." + "/shared"
    offenders = [
        str(path.relative_to(README.parent))
        for path in _committed_text_files()
        if outside in path.read_text(errors="replace")
    ]
    assert not offenders
