"""The claim framework: sources, claims, derivation chains, checks and verdicts.

This is the authoring API (see ``docs/authoring.md``): a :class:`Source`
holds a paper's (or a note's) :class:`Claim` objects and :class:`Derivation`
chains; checks from :mod:`implicit_bias.claims.checks` decide them and return
a :class:`Verdict`, drawing the points of a numeric check with the samplers
of :mod:`implicit_bias.claims.samplers`. Sources are found through the
entry-point group ``implicit_bias.sources``
(:mod:`implicit_bias.claims.discovery`).
"""

from implicit_bias.claims.accuracy import check_against_reference
from implicit_bias.claims.checks import (
    RelationCheck,
    check_close,
    check_equal,
    check_identity,
    check_inequality,
    check_integral,
    check_limit,
    check_series,
    judge_relation,
    relation_check,
)
from implicit_bias.claims.derivation import Derivation, Step
from implicit_bias.claims.discovery import (
    ENTRY_POINT_GROUP,
    LoadError,
    Registry,
    default_registry,
    discover,
)
from implicit_bias.claims.estimates import (
    check_convergence_order,
    check_descent_endpoint,
    check_mean,
)
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
from implicit_bias.claims.profiles import (
    Configuration,
    CostEstimate,
    PowerCalculation,
    Profile,
    claim_for_profile,
    measure_step_seconds,
)
from implicit_bias.claims.registry import all_claims, claims_for, get_claim
from implicit_bias.claims.samplers import (
    MatrixSampler,
    Sampler,
    from_assumptions,
    gaussian_matrix,
    integers,
    interval,
    log_uniform,
    low_rank_matrix,
    nonnegative,
    orthogonal_matrix,
    positive,
    positive_definite_matrix,
    symmetric_matrix,
)
from implicit_bias.claims.inventory import Item, ItemKind
from implicit_bias.claims.source import Citation, Source

__all__ = [
    "ENTRY_POINT_GROUP",
    "Basis",
    "Citation",
    "Claim",
    "Configuration",
    "CostEstimate",
    "Derivation",
    "Item",
    "ItemKind",
    "Kind",
    "LoadError",
    "MatrixSampler",
    "PowerCalculation",
    "Profile",
    "Reading",
    "Reason",
    "Registry",
    "RelationCheck",
    "Result",
    "Sampler",
    "Source",
    "Status",
    "Step",
    "Verdict",
    "all_claims",
    "check_against_reference",
    "check_close",
    "check_convergence_order",
    "check_descent_endpoint",
    "check_equal",
    "check_identity",
    "check_inequality",
    "check_integral",
    "check_limit",
    "check_mean",
    "check_series",
    "claim_for_profile",
    "claims_for",
    "conjunction",
    "default_registry",
    "discover",
    "from_assumptions",
    "gaussian_matrix",
    "get_claim",
    "integers",
    "interval",
    "judge_relation",
    "log_uniform",
    "low_rank_matrix",
    "measure_step_seconds",
    "nonnegative",
    "orthogonal_matrix",
    "positive",
    "positive_definite_matrix",
    "relation_check",
    "run_claims",
    "symmetric_matrix",
]
