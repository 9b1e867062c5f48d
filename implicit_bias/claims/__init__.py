"""Claims of the source papers, the engine that checks them, and the registry."""

from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Reason,
    Result,
    Status,
    Verdict,
    conjunction,
    run_claims,
)
from implicit_bias.claims.registry import SOURCES, all_claims, claims_for, get_claim

__all__ = [
    "SOURCES",
    "Basis",
    "Claim",
    "Kind",
    "Reading",
    "Reason",
    "Result",
    "Status",
    "Verdict",
    "all_claims",
    "claims_for",
    "conjunction",
    "get_claim",
    "run_claims",
]
