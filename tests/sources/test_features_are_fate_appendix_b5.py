"""features-are-fate Appendix B.5: the chains' judging of (97)-(99)."""

from __future__ import annotations

import sympy as sp

from implicit_bias.claims.engine import Status
from implicit_bias.claims.mutation_hooks import capped_budgets
from implicit_bias.sources.features_are_fate import SOURCE


def test_the_limit_of_99_is_evaluated_beyond_the_steps_judging_budget() -> None:
    # Regression (CI): the limit in (99) takes about 0.6 CPU s to evaluate,
    # and evaluated within the steps' 1 s budget it timed out on a busy
    # machine. Here the judging budget is cut to 0.2 s and SymPy's cache
    # emptied: the evaluation has its own budget, so the step still holds.
    (claim,) = [
        c
        for c in SOURCE.all_claims()
        if c.id == "features-are-fate:99:inverse-trace-finite-step-3"
    ]
    sp.core.cache.clear_cache()
    with capped_budgets(0.2):
        verdict = claim.check()
    assert verdict.status == Status.HOLDS, verdict.detail
