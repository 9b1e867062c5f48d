r"""Claims of ptft-relu-penalty, Fig. 1c: the "novel prediction" on sample efficiency.

The paper (Section 1.2, last paragraph, and Fig. 1c) predicts from the penalty
:math:`\tilde r` of eq. (11) and reports in teacher-student ReLU networks with
six teacher units: for perfectly overlapping pretraining and finetuning
features (:math:`\rho = 1`) PT+FT is much more sample efficient than STL even
when the finetuning feature weight is small relative to the pretraining one;
as :math:`\rho` decreases the benefit vanishes and reverses, for small
finetuning weights only (:math:`\rho = 0.9`, :math:`m^{aux} = 100`,
:math:`m \approx 1` is worse than :math:`m^{aux} = 0.01`).

The simulation is :func:`implicit_bias.validation.relu_sample_efficiency.
sample_efficiency`; its module docstring states the networks and training.
The paper does not give its protocol; these choices were fixed from the text
before any result was seen, and are the claims' assumptions:

* six teacher units (the paper's number), input dimension d = 8, inputs
  standard Gaussian, auxiliary readouts 1 (:math:`m^{aux} = 1`);
* finetuning magnitudes m = 1 (comparable) and m = 0.01 (the paper's example
  ratio :math:`m^{aux}/m = 100`); correlations :math:`\rho = 1` and
  :math:`\rho = 0.9` (the paper's example);
* student width H = 24, initialization scale :math:`\sigma = 10^{-2}` (rich
  regime), PT+FT readouts re-initialized to :math:`\gamma = 0` (in the set of
  small :math:`\gamma` the Section 1.2 claims use), 256 pretraining samples
  (the paper uses 1024), finetuning sample sizes n = 16 and 64;
* one learning rate (0.2) and 3000 full-batch steps for every phase; STL at
  magnitude m starts from :math:`\sigma\sqrt m` with learning rate
  :math:`\eta/m`, which by scale equivalence (validation module docstring)
  is STL at magnitude 1, so STL's relative error does not depend on m;
* six seeds (teachers, data and initializations drawn afresh per seed).

The slow claims (``slow=True``) rerun the same statements on
:data:`SLOW_SETUP`: 12 seeds, width 48, 1024 pretraining samples (the
paper's number), n in {8, 16, 32, 64, 128}, 6000 steps (about 11 CPU
seconds each on one core, half of it the pretraining, which the two claims
of master seed 0 share when one process runs both:
benchmarks/bench_relu_fig1c.py).

Sample efficiency is summarized per seed by the relative test error averaged
over the sample-size grid (the area under the learning curve on the grid), and
PT+FT is compared with STL through the paired per-seed difference
:math:`D_s = \bar e^{PT+FT}_s - \bar e^{STL}_s` (same teachers and data).
A difference is significant when :math:`|\bar D| > 3\,\mathrm{SE}`,
:math:`\mathrm{SE} = \mathrm{sd}(D)/\sqrt S`: with S = 6 seeds,
:math:`\bar D/\mathrm{SE}` is Student-t with 5 degrees of freedom under no
difference (for roughly normal :math:`D_s`), and :math:`P(|t_5| > 3) \approx
0.03 (:math:`P(|t_{11}| > 3) \approx 0.01` for the 12 seeds of the slow
runs), which keeps the family-wise false-positive rate near 0.1 over the few
comparisons of a claim, while a real effect of the size the paper plots (a
several-fold change in error) clears it easily.

Findings. The rho = 1 benefit holds (about 8 SE at both magnitudes). The
reversal as stated (error averaged over n, master seed 0) is not resolved in
the quick run (inconclusive): at :math:`\rho = 0.9`, m = 0.01, PT+FT is worse
than STL at n = 64 (0.037 against 0.012) but better at n = 16 (0.106 against
0.170), and the average difference is -0.019 +- 0.017 (-1.1 SE); the slow run
does not confirm it either (below). Our restricted statement (an extension)
puts the reversal at the largest n, where STL has learned the teacher's
features; it was suggested by the seed-0 run and is tested on independent
draws (master seed 2), where it
holds (+6.2 SE at m = 0.01, -4.9 SE at m = 1). An intermediate version that
also asserted a PT+FT benefit at n = 16 for m = 0.01 was tried on master seed 1
and failed there (-2.6 SE, below the 3 SE bar; the n = 64 reversal was +10.7
SE); it is not kept. In the slow runs, averaged over n in {8, ..., 128},
PT+FT at :math:`\rho = 0.9`, m = 0.01 is even significantly *better* than STL
(-0.054 +- 0.014, -3.7 SE; it wins for n <= 32 and loses at n = 64 and 128,
0.019 against 0.002 at n = 128), but those PT+FT runs are not converged
(relative training loss up to 1.5e-2 against the criterion :data:`CONVERGED`),
so the statement is inconclusive there, not refuted: a non-replication by runs
stopped early is no error of the source. The restricted statement holds on
master seed 2 (+11.3 SE at m = 0.01, -8.1 SE at m = 1, n = 128).

Caveat: training budget. At m = 0.01 the PT+FT hidden weights move at a rate
proportional to m (their gradient carries the readout), so finetuning is far
from converged after 3000 steps (relative training loss up to 2.5e-2, against
1e-4 for STL). With four times as many steps (master seed 2, n = 64) the PT+FT
error falls from 0.036 to 0.024 and the gap to STL from 0.023 +- 0.004 to
0.012 +- 0.005; the claims state the reversal at the stated budget, not at
convergence.

Paper profile (``verify --profile paper``). Each claim's paper
configuration runs :data:`SLOW_SETUP`'s sizes (the source's 1024 pretraining
samples and six teacher units; it gives no other size for Fig. 1c) with the
seeds its power calculation asks for and :data:`PAPER_FINETUNE_STEPS` of
finetuning, so that the m = 0.01 PT+FT runs converge; there a verdict either
way needs every run converged. The power calculations read the effect as a
factor 1.5 in error (the text gives no number) and take the per-seed sd from
the default configurations (six seeds): 6 seeds for the benefit, 15 for the
reversal, 34 for the reversal at the largest n.

Paper-profile findings (run here). The benefit holds at convergence (6 seeds,
largest relative training loss 5.2e-5): PT+FT better by 10.3 SE at m = 0.01
and 11.1 SE at m = 1. The reversal stays inconclusive (15 seeds): every
m = 0.01 PT+FT run converged (relative training loss at most 4.6e-4), and at
m = 0.01 PT+FT is better than STL, not worse, by -0.046 +- 0.018 (-2.6 SE,
within 3 SE); it wins for n <= 32 and loses at n = 128 (0.0058 against
0.0028). Two things keep it from a verdict: the per-seed sd (0.068) is above
the pilot's (0.040), so 15 seeds resolve only effects of about 0.08 (about
42 seeds would be needed for the reported one), and one m = 1 PT+FT run at
n = 8 stopped at a relative training loss of 6.2e-2 (a run that fits 8
points with units pretrained on other features can stall), so a ``fails``
would not have been earned either. The reversal at the largest n was not run
at its 34 seeds (cost model: about 17 CPU minutes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import sympy as sp

from implicit_bias.claims.engine import (
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
)
from implicit_bias.claims.profiles import (
    Configuration,
    CostEstimate,
    PowerCalculation,
)
from implicit_bias.sources.ptft_relu_penalty.fig1c_simulation import (
    CONVERGED,
    REPLICATE_SETUP,
    SETUP,
    SIGNIFICANCE,
    SLOW_REPLICATE_SETUP,
    SLOW_SETUP,
    _COMPARABLE,
    _SMALL,
    _check_benefit_at_rho_1,
    _check_reversal_at_largest_n,
    _check_reversal_at_rho_09,
    sample_efficiency_cost,
)
from implicit_bias.sources.ptft_relu_penalty.source import (
    SOURCE_ID,
    mean_difference,
    standard_error,
)
from implicit_bias.validation.relu_sample_efficiency import (
    SampleEfficiencySetup,
)

__all__ = [
    "CLAIMS",
    "CONVERGED",
    "REPLICATE_SETUP",
    "SETUP",
    "SIGNIFICANCE",
    "SLOW_REPLICATE_SETUP",
    "SLOW_SETUP",
]

_ASSUMPTIONS = (
    "six teacher units, d = 8, Gaussian inputs, m_aux = 1",
    "width 24, init 1e-2, PT+FT readouts re-initialized to gamma = 0",
    "256 pretraining samples, n in {16, 64}, 3000 steps at learning rate 0.2",
    "STL at magnitude m from init 1e-2 sqrt(m), learning rate 0.2/m",
    "error averaged over n, paired over 6 seeds, significant beyond 3 SE",
)
_SLOW_ASSUMPTIONS = (
    "six teacher units, d = 8, Gaussian inputs, m_aux = 1",
    "width 48, init 1e-2, PT+FT readouts re-initialized to gamma = 0",
    "1024 pretraining samples, n in {8, 16, 32, 64, 128}, 6000 steps at 0.2",
    "STL at magnitude m from init 1e-2 sqrt(m), learning rate 0.2/m",
    "error averaged over n, paired over 12 seeds, significant beyond 3 SE",
)
_BENEFIT = (
    "for perfectly overlapping features (rho = 1) PT+FT is much more sample "
    "efficient than STL even when the finetuning feature weight is small relative "
    "to the pretraining one (m = 0.01 and m = 1, m_aux = 1)"
)
_LARGEST_N_REVERSAL = (
    "at rho = 0.9 the benefit of PT+FT reverses for small finetuning feature "
    "weights only, at the largest n of the grid (where STL has learned the "
    "teacher's features): there PT+FT is less accurate than STL at m = 0.01 and "
    "more accurate at m = 1"
)
_REVERSAL = (
    "at rho = 0.9 the benefit of PT+FT reverses for small finetuning feature "
    "weights only: PT+FT is less sample efficient than STL at m = 0.01 (m_aux/m = "
    "100), not at m = 1"
)

_BENEFIT_QUOTE = (
    "For perfectly overlapping features (i.e. $\\rho = 1$), the pretrained network "
    "is indeed much more sample efficient even when the finetuning task feature "
    "weight is small relative to the pretraining task feature weight."
)
_REVERSAL_QUOTE = (
    "However, as the correlation decreases this benefit vanishes and reverses "
    "rapidly (but for small finetuning task feature weights only)."
)
_PROTOCOL = (
    "our protocol (the source gives none; module docstring): six teacher units "
    "(Fig. 1c's number), d = 8, m_aux = 1, m in {1, 0.01} (m_aux/m = 100 as in the "
    "text's example), gamma = 0"
)
_QUICK = (
    "; width 24, 256 pretraining samples, n in {16, 64}, 3000 steps, 6 seeds, "
    "master seed 0; significant beyond 3 SE of the paired per-seed difference"
)
_SLOW = (
    "; width 48, 1024 pretraining samples (the source's), n in {8, ..., 128}, "
    "6000 steps, 12 seeds, master seed 0; significant beyond 3 SE"
)
_BENEFIT_READING = (
    "; 'much more sample efficient' read as a lower error averaged over n by "
    "more than 3 SE, at m = 1 and m = 0.01"
)
_REVERSAL_READING = (
    "; rho = 0.9 (the text's example of a moderate correlation) read as where the "
    "benefit has reversed: PT+FT worse than STL by more than 3 SE (error averaged "
    "over n) at m = 0.01, not at m = 1"
)


# --- what the simulation claims compare: the paired mean difference against
# SIGNIFICANCE standard errors

_THRESHOLD = sp.nsimplify(SIGNIFICANCE)


def _significance(
    rho_value: float, magnitude: float, n: int | None = None
) -> tuple[sp.Symbol, sp.Expr]:
    return (
        mean_difference(rho_value, magnitude, n),
        _THRESHOLD * standard_error(rho_value, magnitude, n),
    )


def _benefit_formula() -> sp.Basic:
    return sp.And(
        *(
            sp.Lt(difference, -bound, evaluate=False)
            for difference, bound in (
                _significance(1.0, magnitude) for magnitude in (_SMALL, _COMPARABLE)
            )
        )
    )


def _reversal_formula() -> sp.Basic:
    small, small_bound = _significance(0.9, _SMALL)
    comparable, comparable_bound = _significance(0.9, _COMPARABLE)
    return sp.And(
        sp.Gt(small, small_bound, evaluate=False),
        sp.Le(comparable, comparable_bound, evaluate=False),
    )


def _largest_n_formula(n: int) -> sp.Basic:
    small, small_bound = _significance(0.9, _SMALL, n)
    comparable, comparable_bound = _significance(0.9, _COMPARABLE, n)
    return sp.And(
        sp.Gt(small, small_bound, evaluate=False),
        sp.Lt(comparable, -comparable_bound, evaluate=False),
    )


# Built at import, so that the source's glyph map holds their symbols.
_BENEFIT_FORMULA = _benefit_formula()
_REVERSAL_FORMULA = _reversal_formula()
_LARGEST_N_FORMULA = _largest_n_formula(REPLICATE_SETUP.sample_sizes[-1])
_SLOW_LARGEST_N_FORMULA = _largest_n_formula(SLOW_REPLICATE_SETUP.sample_sizes[-1])


# --- the paper profile: Fig. 1c at the source's sizes where it gives them, the
# seeds a power calculation asks for, and finetuning long enough for the
# m = 0.01 PT+FT runs to meet CONVERGED

#: PT+FT finetuning steps of the paper configurations. The m = 0.01 PT+FT runs'
#: relative training loss falls like 1/t (width 48, 1024 pretraining samples,
#: rho = 0.9, n = 128, 3 seeds: at most 1.1e-3 after 96000 steps, 6.0e-4 after
#: 192000), so 250000 steps meet CONVERGED with a margin for the slowest of
#: more seeds; a run that still misses it makes the verdict inconclusive.
PAPER_FINETUNE_STEPS = 250_000

_EFFECT_READING = (
    "Fig. 1c's values are not in the text; Section 1.2 gives no number ('{words}'). "
    "Read as PT+FT's relative error differing from STL's by half of STL's (a "
    "factor 1.5 on the learning curve), STL's error {where} from the pilot"
)
_PILOT = "the default configuration of the claim without '-large' ({setup})"

# Pilots: the default claims' configurations, six seeds (about a second each):
#   python -c "from implicit_bias.sources.ptft_relu_penalty.fig1c_simulation \
#     import *; \
#     print(pilot_statistics(SETUP, 1.0, 0.01), pilot_statistics(SETUP, 0.9, 0.01), \
#     pilot_statistics(REPLICATE_SETUP, 0.9, 0.01, largest_n=True))"
# gave (sd of D, STL error) = (0.02747, 0.1003), (0.04042, 0.09087) and
# (0.009044, 0.01336); m = 1 gives a smaller sd in each (0.02692 at rho = 1,
# 0.004831 at the largest n), so m = 0.01 sizes the seeds.
_BENEFIT_PILOT = (0.02747, 0.1003)
_REVERSAL_PILOT = (0.04042, 0.09087)
_LARGEST_N_PILOT = (0.009044, 0.01336)

_BENEFIT_POWER = PowerCalculation(
    effect=-_BENEFIT_PILOT[1] / 2,
    effect_quote=_EFFECT_READING.format(
        words="much more sample efficient", where="averaged over n"
    ),
    pilot_sd=_BENEFIT_PILOT[0],
    pilot_seeds=SETUP.seeds,
    pilot=_PILOT.format(setup="rho = 1, m = 0.01, width 24, n in {16, 64}, 3000 steps"),
    z=SIGNIFICANCE,
)
_REVERSAL_POWER = PowerCalculation(
    effect=_REVERSAL_PILOT[1] / 2,
    effect_quote=_EFFECT_READING.format(
        words="this benefit vanishes and reverses rapidly", where="averaged over n"
    ),
    pilot_sd=_REVERSAL_PILOT[0],
    pilot_seeds=SETUP.seeds,
    pilot=_PILOT.format(
        setup="rho = 0.9, m = 0.01, width 24, n in {16, 64}, 3000 steps"
    ),
    z=SIGNIFICANCE,
)
_LARGEST_N_POWER = PowerCalculation(
    effect=_LARGEST_N_PILOT[1] / 2,
    effect_quote=_EFFECT_READING.format(
        words="this benefit vanishes and reverses rapidly",
        where="at the largest n",
    ),
    pilot_sd=_LARGEST_N_PILOT[0],
    pilot_seeds=REPLICATE_SETUP.seeds,
    pilot=_PILOT.format(
        setup="rho = 0.9, m = 0.01, master seed 2, width 24, n = 64, 3000 steps"
    ),
    z=SIGNIFICANCE,
)

#: The paper configurations: :data:`SLOW_SETUP`'s sizes (1024 pretraining
#: samples and six teacher units are the source's), the seeds of each power
#: calculation (the source gives none), :data:`PAPER_FINETUNE_STEPS`.
PAPER_BENEFIT_SETUP = replace(
    SLOW_SETUP, seeds=_BENEFIT_POWER.seeds, finetune_steps=PAPER_FINETUNE_STEPS
)
PAPER_REVERSAL_SETUP = replace(
    SLOW_SETUP, seeds=_REVERSAL_POWER.seeds, finetune_steps=PAPER_FINETUNE_STEPS
)
PAPER_LARGEST_N_SETUP = replace(
    SLOW_REPLICATE_SETUP,
    seeds=_LARGEST_N_POWER.seeds,
    finetune_steps=PAPER_FINETUNE_STEPS,
)

_PAPER_SIZES = (
    "Fig. 1c at the source's sizes where it gives them: 'six teacher units' "
    "(Fig. 1c caption) and 1024 pretraining samples (Appendix D: '1024 auxiliary "
    "task samples and up to 1024 main task samples in most of our experiments'); "
    "rho = 1 and 0.9 and m_aux/m = 100 (Section 1.2's examples). The source gives "
    "no width, input dimension, n grid, learning rate, steps or seeds for Fig. "
    "1c: ours are width 48, d = 8, n in {{8, 16, 32, 64, 128}} (not up to 1024: "
    "the m = 0.01 PT+FT runs converge ever more slowly as n grows), learning "
    "rate 0.2, 6000 pretraining and STL steps, "
    f"{PAPER_FINETUNE_STEPS} finetuning steps (for the m = 0.01 PT+FT runs to reach "
    f"a relative training loss <= {CONVERGED:g}), and {{seeds}} seeds from the "
    "power calculation"
)


def _cost(setup: SampleEfficiencySetup, rho: float) -> Callable[[], CostEstimate]:
    return lambda: sample_efficiency_cost(replace(setup, correlations=(rho,)))


_PAPER_BENEFIT = Configuration(
    _PAPER_SIZES.format(seeds=PAPER_BENEFIT_SETUP.seeds)
    + "; rho = 1. Run here: holds, every run converged (module docstring)",
    lambda: _check_benefit_at_rho_1(PAPER_BENEFIT_SETUP, converge=True),
    budget_seconds=1800.0,
    expected=Status.HOLDS,
    cost=_cost(PAPER_BENEFIT_SETUP, 1.0),
    power=_BENEFIT_POWER,
)
_PAPER_REVERSAL = Configuration(
    _PAPER_SIZES.format(seeds=PAPER_REVERSAL_SETUP.seeds)
    + "; rho = 0.9. Run here: inconclusive, within 3 SE (module docstring)",
    lambda: _check_reversal_at_rho_09(PAPER_REVERSAL_SETUP, converge=True),
    budget_seconds=3600.0,
    expected=Status.INCONCLUSIVE,
    expected_reason=Reason.STATISTICAL,
    cost=_cost(PAPER_REVERSAL_SETUP, 0.9),
    power=_REVERSAL_POWER,
)
_PAPER_LARGEST_N = Configuration(
    _PAPER_SIZES.format(seeds=PAPER_LARGEST_N_SETUP.seeds)
    + "; rho = 0.9, master seed 2, at n = 128 only. Not run here (about 17 CPU "
    "minutes by its cost model, beyond this shared machine's share when the "
    "profile was set up): the expected verdict is the default claims' (holds), "
    "unconfirmed at convergence",
    lambda: _check_reversal_at_largest_n(PAPER_LARGEST_N_SETUP, converge=True),
    budget_seconds=7200.0,
    expected=Status.HOLDS,
    cost=_cost(PAPER_LARGEST_N_SETUP, 0.9),
    power=_LARGEST_N_POWER,
)

CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "fig-1c",
        "ptft-benefit-at-rho-1",
        Kind.SIMULATION,
        _BENEFIT,
        lambda: _check_benefit_at_rho_1(SETUP),
        Status.HOLDS,
        cost=_cost(SETUP, 1.0),
        paper=_PAPER_BENEFIT,
        formula=lambda: _BENEFIT_FORMULA,
        assumptions=_ASSUMPTIONS,
        budget_seconds=60.0,
        quote=_BENEFIT_QUOTE,
        reading=Reading.INTERPRETATION,
        regime="rho = 1, " + _PROTOCOL + _QUICK + _BENEFIT_READING,
    ),
    Claim(
        SOURCE_ID,
        "fig-1c",
        "reversal-at-rho-0.9",
        Kind.SIMULATION,
        _REVERSAL,
        lambda: _check_reversal_at_rho_09(SETUP),
        Status.INCONCLUSIVE,
        cost=_cost(SETUP, 0.9),
        paper=_PAPER_REVERSAL,
        expected_reason=Reason.STATISTICAL,
        formula=lambda: _REVERSAL_FORMULA,
        assumptions=_ASSUMPTIONS,
        budget_seconds=60.0,
        quote=_REVERSAL_QUOTE,
        reading=Reading.INTERPRETATION,
        regime="rho = 0.9, " + _PROTOCOL + _QUICK + _REVERSAL_READING,
    ),
    Claim(
        SOURCE_ID,
        "fig-1c",
        "reversal-at-rho-0.9-largest-n",
        Kind.SIMULATION,
        _LARGEST_N_REVERSAL,
        lambda: _check_reversal_at_largest_n(REPLICATE_SETUP),
        Status.HOLDS,
        cost=_cost(REPLICATE_SETUP, 0.9),
        paper=_PAPER_LARGEST_N,
        formula=lambda: _LARGEST_N_FORMULA,
        assumptions=(
            *_ASSUMPTIONS[:-1],
            "paired over 6 seeds at n = 64, significant beyond 3 SE",
            "master seed 2: draws independent of the runs that suggested it",
        ),
        budget_seconds=60.0,
        reading=Reading.EXTENSION,
        regime="rho = 0.9, "
        + _PROTOCOL
        + _QUICK.replace("master seed 0", "master seed 2")
        + "; at n = 64 only",
    ),
    Claim(
        SOURCE_ID,
        "fig-1c",
        "ptft-benefit-at-rho-1-large",
        Kind.SIMULATION,
        _BENEFIT,
        lambda: _check_benefit_at_rho_1(SLOW_SETUP),
        Status.HOLDS,
        cost=_cost(SLOW_SETUP, 1.0),
        paper=_PAPER_BENEFIT,
        formula=lambda: _BENEFIT_FORMULA,
        assumptions=_SLOW_ASSUMPTIONS,
        slow=True,
        budget_seconds=900.0,
        quote=_BENEFIT_QUOTE,
        reading=Reading.INTERPRETATION,
        regime="rho = 1, " + _PROTOCOL + _SLOW + _BENEFIT_READING,
    ),
    Claim(
        SOURCE_ID,
        "fig-1c",
        "reversal-at-rho-0.9-large",
        Kind.SIMULATION,
        _REVERSAL,
        lambda: _check_reversal_at_rho_09(SLOW_SETUP),
        Status.INCONCLUSIVE,
        cost=_cost(SLOW_SETUP, 0.9),
        paper=_PAPER_REVERSAL,
        expected_reason=Reason.STATISTICAL,
        formula=lambda: _REVERSAL_FORMULA,
        assumptions=_SLOW_ASSUMPTIONS,
        slow=True,
        budget_seconds=900.0,
        quote=_REVERSAL_QUOTE,
        reading=Reading.INTERPRETATION,
        regime="rho = 0.9, " + _PROTOCOL + _SLOW + _REVERSAL_READING,
    ),
    Claim(
        SOURCE_ID,
        "fig-1c",
        "reversal-at-rho-0.9-largest-n-large",
        Kind.SIMULATION,
        _LARGEST_N_REVERSAL,
        lambda: _check_reversal_at_largest_n(SLOW_REPLICATE_SETUP),
        Status.HOLDS,
        cost=_cost(SLOW_REPLICATE_SETUP, 0.9),
        paper=_PAPER_LARGEST_N,
        formula=lambda: _SLOW_LARGEST_N_FORMULA,
        assumptions=(
            *_SLOW_ASSUMPTIONS[:-1],
            "paired over 12 seeds at n = 128, significant beyond 3 SE",
            "master seed 2: draws independent of the runs that suggested it",
        ),
        slow=True,
        budget_seconds=900.0,
        reading=Reading.EXTENSION,
        regime="rho = 0.9, "
        + _PROTOCOL
        + _SLOW.replace("master seed 0", "master seed 2")
        + "; at n = 128 only",
    ),
)
