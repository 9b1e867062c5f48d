r"""Helpers shared by the symbolic claims of ptft-diagonal-networks.

Used by :mod:`.gradient_flow`, :mod:`.q_norm`, :mod:`.multi_task` and
:mod:`.representations`. The vector identities are checked on an explicit
instance with :data:`~implicit_bias.theory.diagonal_networks.DIMENSION` inputs
and :data:`~implicit_bias.theory.diagonal_networks.SAMPLES` samples whose
entries are real symbols; :data:`SIZE` states it as an assumption.
"""

from __future__ import annotations

import sympy as sp

from implicit_bias.claims.checks import check_identity
from implicit_bias.claims.engine import Status, Verdict
from implicit_bias.claims.ptft_diagonal_networks.source import SOURCE
from implicit_bias.theory import diagonal_networks as theory

__all__ = ["SIZE", "check_entries", "claim_id", "symbolic_vector"]

#: The explicit instance the vector identities are checked on.
SIZE = f"D = {theory.DIMENSION}, n = {theory.SAMPLES}, symbolic X and y"


def claim_id(equation: str, label: str) -> str:
    """The id of this source's claim ``label`` of eq. ``equation``."""
    return f"{SOURCE}:{equation}:{label}"


def check_entries(lhs: sp.Matrix, rhs: sp.Matrix) -> Verdict:
    """:func:`check_identity` entry by entry; the first entry that does not hold."""
    details = []
    for index, (a, b) in enumerate(zip(lhs, rhs, strict=True), start=1):
        verdict = check_identity(a, b)
        if verdict.status != Status.HOLDS:
            return verdict.with_detail(f"entry {index}: {verdict.detail}")
        details.append(verdict.detail)
    if all(d.startswith("exact") for d in details):
        return Verdict.holds(f"exact, all {len(details)} entries: lhs - rhs = 0")
    return Verdict.holds(f"all {len(details)} entries: " + "; ".join(set(details)))


def symbolic_vector(name: str, size: int) -> sp.Matrix:
    """The column of real symbols ``name_1``, ..., ``name_size``."""
    return sp.Matrix([sp.Symbol(f"{name}_{i + 1}", real=True) for i in range(size)])
