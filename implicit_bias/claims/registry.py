"""The registry: the claims of every source and the verdict it is expected to have."""

from __future__ import annotations

from types import MappingProxyType

import sympy as sp

from implicit_bias.claims import (
    adaptive_tangent_features,
    features_are_fate,
    ptft_diagonal_networks,
    ptft_relu_penalty,
)
from implicit_bias.claims.engine import Claim, unique_ids
from implicit_bias.theory import diagonal_networks as diagonal_networks_theory
from implicit_bias.theory import relu_kernels as relu_kernels_theory
from implicit_bias.theory import relu_penalty as relu_penalty_theory
from implicit_bias.theory import representations as representations_theory
from implicit_bias.theory import tangent_features as tangent_features_theory
from implicit_bias.theory import task_distance as task_distance_theory
from implicit_bias.theory import transfer_asymptotics as transfer_asymptotics_theory
from implicit_bias.theory import transfer_risks as transfer_risks_theory

__all__ = ["GLYPHS", "SOURCES", "all_claims", "claims_for", "get_claim"]

#: Source id -> its claims, in the paper's order.
SOURCES: MappingProxyType[str, tuple[Claim, ...]] = MappingProxyType(
    {
        ptft_relu_penalty.SOURCE: ptft_relu_penalty.CLAIMS,
        ptft_diagonal_networks.SOURCE: ptft_diagonal_networks.CLAIMS,
        features_are_fate.SOURCE: features_are_fate.CLAIMS,
        adaptive_tangent_features.SOURCE: adaptive_tangent_features.CLAIMS,
    }
)

#: Source id -> how its symbols are typeset (the paper's notation).
GLYPHS: MappingProxyType[str, dict[sp.Symbol, str]] = MappingProxyType(
    {
        ptft_relu_penalty.SOURCE: relu_penalty_theory.GLYPHS,
        ptft_diagonal_networks.SOURCE: {
            **diagonal_networks_theory.GLYPHS,
            **representations_theory.GLYPHS,
        },
        features_are_fate.SOURCE: {
            **task_distance_theory.GLYPHS,
            # The proofs' expected risks are the main text's (their glyphs win).
            **transfer_asymptotics_theory.GLYPHS,
            **transfer_risks_theory.GLYPHS,
            **relu_kernels_theory.GLYPHS,
        },
        adaptive_tangent_features.SOURCE: tangent_features_theory.GLYPHS,
    }
)


def all_claims() -> list[Claim]:
    """Every registered claim, source by source; raises if two share an id."""
    return unique_ids(claim for claims in SOURCES.values() for claim in claims)


def claims_for(source: str | None) -> list[Claim]:
    """The claims of one source (all when ``source`` is None)."""
    if source is None:
        return all_claims()
    if source not in SOURCES:
        known = ", ".join(sorted(SOURCES))
        raise ValueError(f"source={source!r} is not registered; known sources: {known}")
    return list(SOURCES[source])


def get_claim(claim_id: str) -> Claim:
    """The claim with id ``claim_id`` (``source:equation:label``)."""
    for claim in all_claims():
        if claim.id == claim_id:
            return claim
    raise ValueError(f"claim={claim_id!r} is not registered; see `implicit-bias list`")
