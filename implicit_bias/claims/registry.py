"""The claims of every installed source and the verdicts they are expected to have.

Shorthands over :func:`implicit_bias.claims.discovery.default_registry`: the
sources registered through the entry-point group ``implicit_bias.sources``.
"""

from __future__ import annotations

from implicit_bias.claims.discovery import default_registry
from implicit_bias.claims.engine import Claim

__all__ = ["all_claims", "claims_for", "get_claim", "source_ids"]


def source_ids() -> list[str]:
    """The ids of the installed sources, in registration order."""
    return list(default_registry().sources)


def all_claims() -> list[Claim]:
    """Every claim of every installed source, source by source."""
    return default_registry().claims()


def claims_for(source: str | None) -> list[Claim]:
    """The claims of one installed source (all when ``source`` is None)."""
    return default_registry().claims(source)


def get_claim(claim_id: str) -> Claim:
    """The installed claim with id ``claim_id`` (``source:equation:label``)."""
    return default_registry().claim(claim_id)
