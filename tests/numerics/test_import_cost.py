"""Importing the NumPy evaluators does not import SymPy or SciPy.

Plain formulas are lambdified from the theory expressions at their first use
(implicit_bias.numerics._lazy), so that ``import implicit_bias.numerics``
costs NumPy and mpmath only (SciPy is imported by the solvers that use it, at
their first call). Each check runs
in a fresh interpreter: in this one, other tests have long since imported both.
No wall-clock assertion here (a busy CI machine would make it flaky); the
figure is measured by ``benchmarks/bench_cold_start.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from implicit_bias.numerics import _lazy
from implicit_bias.numerics._lazy import build_lazy_formulas

_HEAVY = ("sympy", "scipy")


def _loaded_after(statements: str) -> list[str]:
    """The modules of ``_HEAVY`` (and their submodules) loaded by ``statements``."""
    probe = (
        f"{statements}\n"
        "import json, sys\n"
        f"heavy = {_HEAVY!r}\n"
        "print(json.dumps(sorted(name for name in sys.modules "
        "if name.split('.')[0] in heavy)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    loaded: list[str] = json.loads(result.stdout.strip().splitlines()[-1])
    return loaded


@pytest.mark.parametrize(
    "statements",
    [
        "import implicit_bias",
        "import implicit_bias.numerics",
        "from implicit_bias.numerics import *",
    ],
)
def test_import_loads_neither_sympy_nor_scipy(statements: str) -> None:
    assert _loaded_after(statements) == []


def test_hand_written_evaluators_run_without_sympy_or_scipy() -> None:
    # The hot paths are written by hand; only the lambdified formulas and the
    # solvers that need LAPACK beyond NumPy may pull the heavy packages in.
    statements = (
        "import numpy as np\n"
        "from implicit_bias.numerics import (\n"
        "    q_potential, relu_kernel, relu_ptft_penalty, omega_tilde,\n"
        "    squared_deviation, chi_square_ridge_integrals, cka\n"
        ")\n"
        "q_potential(np.linspace(-3.0, 3.0, 7))\n"
        "relu_kernel(np.linspace(-1.0, 1.0, 5))\n"
        "relu_ptft_penalty(1.0, 0.5, 1.0, 0.1)\n"
        "omega_tilde(squared_deviation, np.array([0.5, 2.0]))\n"
        "chi_square_ridge_integrals(10, 0.5)\n"
        "x = np.random.default_rng(0).standard_normal((6, 3))\n"
        "cka(x, x)\n"
    )
    assert _loaded_after(statements) == []


def test_a_lambdified_evaluator_works_in_a_fresh_interpreter() -> None:
    # scratch_risk is lambdified from the theory expression, not at import:
    # its first call must build it. Eq. (10) is sigma^2 / (gamma - 1) for
    # gamma > 1, here exactly 0.25 / 1, and ((1 - gamma)^2 + gamma sigma^2) /
    # (1 - gamma) for gamma < 1, here exactly 0.25 / 0.5.
    statements = (
        "import implicit_bias.numerics as numerics\n"
        "assert float(numerics.scratch_risk(2.0, 0.5)) == 0.25\n"
        "assert float(numerics.scratch_risk(0.5, 0.0)) == 0.5\n"
    )
    _loaded_after(statements)


def test_build_lazy_formulas_builds_every_registered_formula() -> None:
    # What a runner calls before forking workers, so that they inherit the
    # built evaluators: relu_kernels 1, relu_penalty 1, transfer_asymptotics 1,
    # transfer_risks 5.
    count = build_lazy_formulas()
    assert count == len(_lazy._BUILDERS) == 8
    sizes = [builder.cache_info().currsize for builder in _lazy._BUILDERS]  # type: ignore[attr-defined]
    assert sizes == [1] * count
