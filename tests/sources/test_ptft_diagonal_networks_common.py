"""The helpers of ptft-diagonal-networks' symbolic claims (``_common``)."""

from __future__ import annotations

import sympy as sp

from implicit_bias.claims.engine import Basis, Reason, Status, Verdict
from implicit_bias.sources.ptft_diagonal_networks._common import (
    check_entries,
    refuted_as,
)


def test_refuted_as_keeps_a_certified_failure_and_nothing_else() -> None:
    certified = Verdict.fails("residual", Basis.CERTIFIED, "at x=1, [2 +/- 0]")
    kept = refuted_as(certified, "the claim")
    assert (kept.status, kept.basis, kept.counterexample) == (
        Status.FAILS,
        Basis.CERTIFIED,
        "at x=1, [2 +/- 0]",
    )
    uncertified = Verdict.fails("float64 residual", Basis.NUMERICAL, "x=1")
    for verdict in (
        uncertified,
        Verdict.holds("exact", Basis.PROOF),
        Verdict.inconclusive("not certified", Reason.UNDECIDED),
    ):
        assert refuted_as(verdict, "the claim").reason == Reason.UNDECIDED


def test_check_entries_is_exact_or_refutes_an_entry() -> None:
    x = sp.Symbol("x", real=True)
    exact = check_entries(sp.Matrix([(x + 1) ** 2]), sp.Matrix([x**2 + 2 * x + 1]))
    assert (exact.status, exact.basis) == (Status.HOLDS, Basis.PROOF)
    wrong = check_entries(sp.Matrix([x, x**2]), sp.Matrix([x, x**2 + x]))
    assert (wrong.status, wrong.basis) == (Status.FAILS, Basis.CERTIFIED)
    assert wrong.detail.startswith("entry 2:")
