r"""Helpers shared by the symbolic claims of ptft-diagonal-networks.

Used by :mod:`.gradient_flow`, :mod:`.q_norm`, :mod:`.multi_task` and
:mod:`.representations` (and :func:`claim_id` by :mod:`.appendix_b1_min_l12`).
The vector identities are checked on an explicit instance with
:data:`~implicit_bias.theory.diagonal_networks.DIMENSION` inputs and
:data:`~implicit_bias.theory.diagonal_networks.SAMPLES` samples whose entries
are real symbols; :data:`SIZE` states it as an assumption.

A hand-built ``fails`` of an identity rests on :func:`refuted_as`: the
certified counterexample of the :func:`check_identity` that refuted it.
"""

from __future__ import annotations

import sympy as sp

from implicit_bias.claims.checks import check_identity
from implicit_bias.claims.engine import (
    Basis,
    Reason,
    Status,
    Verdict,
    conjunction,
)
from implicit_bias.sources.ptft_diagonal_networks.source import SOURCE_ID
from implicit_bias.theory import diagonal_networks as theory

__all__ = [
    "SIZE",
    "check_entries",
    "claim_id",
    "refuted_as",
    "symbolic_vector",
]

#: The explicit instance the vector identities are checked on.
SIZE = f"D = {theory.DIMENSION}, n = {theory.SAMPLES}, symbolic X and y"


def claim_id(equation: str, label: str) -> str:
    """The id of this source's claim ``label`` of eq. ``equation``."""
    return f"{SOURCE_ID}:{equation}:{label}"


def check_entries(lhs: sp.Matrix, rhs: sp.Matrix) -> Verdict:
    """:func:`check_identity` entry by entry; the first entry that does not hold.

    ``holds`` on the weakest basis of the entries (``Basis.PROOF`` when every
    entry simplifies exactly to 0).
    """
    verdicts = []
    for index, (a, b) in enumerate(zip(lhs, rhs, strict=True), start=1):
        verdict = check_identity(a, b)
        if verdict.status != Status.HOLDS:
            return verdict.with_detail(f"entry {index}: {verdict.detail}")
        verdicts.append(verdict)
    details = [v.detail for v in verdicts]
    if all(v.basis == Basis.PROOF for v in verdicts):
        return Verdict.holds(
            f"exact, all {len(details)} entries: lhs - rhs = 0", Basis.PROOF
        )
    return conjunction(
        verdicts, f"all {len(details)} entries: " + "; ".join(sorted(set(details)))
    )


def refuted_as(verdict: Verdict, detail: str) -> Verdict:
    """``verdict`` reported with ``detail``, if it is a ``fails``.

    A hand-written ``fails`` of an identity keeps the basis and the
    counterexample of the check that refuted it (:func:`check_identity`
    certifies its counterexamples); any other verdict means the identity was
    not refuted, and is returned ``inconclusive`` (``Reason.UNDECIDED``).
    """
    if verdict.status == Status.FAILS and verdict.basis in (
        Basis.PROOF,
        Basis.CERTIFIED,
    ):
        return Verdict.fails(detail, verdict.basis, verdict.counterexample)
    return Verdict.inconclusive(
        f"not refuted ({verdict.status}: {verdict.detail}); the claim was: {detail}",
        Reason.UNDECIDED,
    )


def symbolic_vector(name: str, size: int) -> sp.Matrix:
    """The column of real symbols ``name_1``, ..., ``name_size``."""
    return sp.Matrix([sp.Symbol(f"{name}_{i + 1}", real=True) for i in range(size)])
