r"""Verdicts and cost models of the direct solutions of problems (4) and (27).

Theorem 1 (:mod:`.structureless`) and Lemma 5 (:mod:`.appendix_a3_proofs`)
are compared with gradient descent on the original bilinear problems
(:mod:`implicit_bias.validation.tangent_features`). A descent is
deterministic: one that did not converge decides nothing, and one that
converged outside its tolerance has no standard error to count it in, so it
is reported, not taken as a refutation (:func:`deterministic_verdict`). Each
claim's cost is modelled from measured iterations (:func:`descent_cost`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from threadpoolctl import threadpool_limits

from implicit_bias.claims.engine import Reason, Status, Verdict, conjunction
from implicit_bias.claims.profiles import CostEstimate, measure_step_seconds

__all__ = ["EPS", "descent_cost", "deterministic_verdict"]


#: The float64 machine epsilon.
EPS = float(np.finfo(np.float64).eps)


def descent_cost(
    solve: Callable[[int], object], runs: int, steps: int, detail: str
) -> CostEstimate:
    """``runs`` descents of at most ``steps`` iterations of ``solve``'s problem.

    ``solve(k)`` runs a descent capped at k iterations on the hardest problem
    of the check (a quartic penalty far from its optimum, so that it does not
    stop early); one iteration costs a 21-iteration solve less a 1-iteration
    one, over 20, and a run's fixed cost (set-up, certificates, curvature) is
    the 1-iteration solve.
    """
    with threadpool_limits(limits=1):
        short = measure_step_seconds(lambda: solve(1), steps=5, repeats=3)
        long = measure_step_seconds(lambda: solve(21), steps=5, repeats=3)
    # Where timing noise hides the difference, the whole 21-iteration solve
    # per iteration bounds the step from above.
    step = (long - short) / 20.0 if long > short else long / 21.0
    training = CostEstimate.of_training(runs, steps, step)
    return CostEstimate(
        training.seconds + runs * short,
        runs,
        steps,
        step,
        f"{training.detail}; descents stop at their gradient tolerance, mostly "
        f"far before the cap; plus {short * 1e3:.3g} ms of set-up and "
        f"certificates per run; {detail}",
    )


def deterministic_verdict(
    comparisons: list[Verdict], converged: bool, criterion: str, detail: str
) -> Verdict:
    """The verdict of a direct (deterministic) solution against a prediction.

    ``comparisons`` are :func:`check_close` verdicts of the solution against
    the prediction. ``holds`` (numerically) when the solution converged
    (``criterion``) and every comparison holds; ``inconclusive`` otherwise: an
    unconverged descent decides nothing (budget), and a converged one that
    disagrees has no standard error to count it in, so it is reported, not
    taken as a refutation (undecided).
    """
    evidence = "; ".join(part.detail for part in comparisons)
    compared = conjunction(comparisons, f"{detail}; float64 descents [{evidence}]")
    if not converged:
        return Verdict.inconclusive(
            f"{compared.detail}; not converged ({criterion})", Reason.BUDGET
        )
    if compared.status == Status.HOLDS:
        return compared.with_detail(f"{compared.detail}; converged ({criterion})")
    return Verdict.inconclusive(
        f"{compared.detail}; converged ({criterion}) but outside the tolerance: a "
        "deterministic float64 descent, not a certified or statistical refutation",
        Reason.UNDECIDED,
    )
