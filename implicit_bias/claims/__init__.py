"""The claim framework: sources, claims, derivation chains, checks and verdicts.

This is the authoring API (see ``docs/authoring.md``): a :class:`Source`
holds a paper's (or a note's) :class:`Claim` objects and :class:`Derivation`
chains; checks from :mod:`implicit_bias.claims.checks` decide them and return
a :class:`Verdict`, drawing the points of a numeric check with the samplers
of :mod:`implicit_bias.claims.samplers` (inside a symbol's interval, stated
with :func:`bounded`; :mod:`implicit_bias.claims.intervals`), and deciding
results that depend on parameters at exact parameter values
(:mod:`implicit_bias.claims.parametric`). Sources are found through the
entry-point group ``implicit_bias.sources``
(:mod:`implicit_bias.claims.discovery`).
"""

from implicit_bias.claims.accuracy import check_against_reference
from implicit_bias.claims.bounds import check_within
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
from implicit_bias.claims.intervals import BoundedSymbol, bounded, interval_of
from implicit_bias.claims.parametric import decide_at_points, depends_on_parameters
from implicit_bias.claims.loewner import LoewnerLe, LoewnerLt, check_loewner
from implicit_bias.claims.matrix_checks import matrices_at
from implicit_bias.claims.profiles import (
    Configuration,
    CostEstimate,
    PowerCalculation,
    Profile,
    claim_for_profile,
    measure_step_seconds,
)
from implicit_bias.claims.registry import all_claims, claims_for, get_claim
from implicit_bias.claims.repeats import (
    check_not_consistently_below,
    student_t_critical,
)
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
from implicit_bias.claims.findings import Severity, Slip
from implicit_bias.claims.inventory import Item, ItemKind
from implicit_bias.claims.source import Citation, Source

__all__ = [
    "ENTRY_POINT_GROUP",
    "Basis",
    "BoundedSymbol",
    "Citation",
    "Claim",
    "Configuration",
    "CostEstimate",
    "Derivation",
    "Item",
    "ItemKind",
    "Kind",
    "LoadError",
    "LoewnerLe",
    "LoewnerLt",
    "MatrixSampler",
    "PowerCalculation",
    "Profile",
    "Reading",
    "Reason",
    "Registry",
    "RelationCheck",
    "Result",
    "Sampler",
    "Severity",
    "Slip",
    "Source",
    "Status",
    "Step",
    "Verdict",
    "all_claims",
    "bounded",
    "check_against_reference",
    "check_close",
    "check_convergence_order",
    "check_descent_endpoint",
    "check_equal",
    "check_identity",
    "check_inequality",
    "check_integral",
    "check_limit",
    "check_loewner",
    "check_mean",
    "check_not_consistently_below",
    "check_series",
    "check_within",
    "claim_for_profile",
    "claims_for",
    "conjunction",
    "decide_at_points",
    "default_registry",
    "depends_on_parameters",
    "discover",
    "from_assumptions",
    "gaussian_matrix",
    "get_claim",
    "integers",
    "interval",
    "interval_of",
    "judge_relation",
    "log_uniform",
    "low_rank_matrix",
    "matrices_at",
    "measure_step_seconds",
    "nonnegative",
    "orthogonal_matrix",
    "positive",
    "positive_definite_matrix",
    "relation_check",
    "run_claims",
    "student_t_critical",
    "symmetric_matrix",
]
