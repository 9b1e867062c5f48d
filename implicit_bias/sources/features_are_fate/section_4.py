r"""Claims of features-are-fate, Section 4: student-teacher ReLU networks.

Section 4 (eqs. (18)-(21), Fig. 4) transfers a two-layer ReLU network between
an ablated teacher (the source (19)) and the full teacher (the target (20)):
the exact population loss of the source task, the trained model's kernel
(Fig. 4(a)-(b)), the error decomposition (21) and the growth of the
irreducible part with the ablated fraction (Fig. 4(d)). The conventions and
tolerances are :mod:`._kernels`'; the kernel and projections the checks use
are Appendix C's (:mod:`.appendix_c`, :mod:`.appendix_c_mercer`).

Inconclusive at both sizes run here: Fig. 4(a)-(b)'s "the trained model's
kernel is nearly the source teacher's". At d = 10, m = 100, m_* = 10 the loss
reaches App. D.2's 1e-6 only after ~4e4 steps of 0.2 m, while the kernel
distance stays at ~0.43 from 2e4 steps on: many units keep directions of no
source unit, and the model's RKHS is larger than the source's. At the paper's
d = 100, m = 1000, m_* = 100 (the profile 'paper'), the flow time of the
paper's 1e5 steps of 0.01 m leaves the loss at 1.7e-4, not converged, and the
distance at 0.30 (0.32 at initialization: random ReLU features in d = 100 give
nearly the same kernel whatever their directions); training on to 1e-6 is a
cluster's work.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import sympy as sp

from implicit_bias.claims.checks import (
    check_close,
)
from implicit_bias.claims.profiles import Configuration, PowerCalculation
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
)
from implicit_bias.sources.features_are_fate._costs import (
    MonteCarloDraws,
    StudentRun,
)
from implicit_bias.sources.features_are_fate import notation as nt
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.numerics.relu_kernels import (
    relu_gram,
    relu_rkhs_projection,
)
from implicit_bias.theory import relu_kernels as theory
from implicit_bias.validation.relu_kernels import (
    AblationSetup,
    ablation_setup,
    kernel_condensation,
    linear_transfer_errors,
    relu_features,
    sample_sphere,
    source_loss_and_gradients,
)
from implicit_bias.sources.features_are_fate._kernels import (
    _Z_MAX,
    _inputs,
    _replicated,
)

__all__ = ["CLAIMS"]


def _ablated_outside_fraction(
    teacher_gram: np.ndarray, readout: np.ndarray, kept: np.ndarray
) -> float:
    r""":math:`\|P_\perp f_t^*\|^2/\|f_t^*\|^2` with the kept units as the features.

    Eq. (159) with :math:`K`, :math:`\tilde K`, :math:`K_*` all blocks of the
    teacher's Gram matrix: the target's part outside the span is that of its
    ablated units, :math:`c_{\mathcal A}^\top(G_{\mathcal A\mathcal A}
    - G_{\mathcal A K}G_{KK}^{-1}G_{K\mathcal A})c_{\mathcal A}/m_*^2`.
    """
    ablated = np.setdiff1d(np.arange(readout.size), kept)
    total = readout @ teacher_gram @ readout
    if ablated.size == 0:
        return 0.0
    cross = teacher_gram[np.ix_(kept, ablated)]
    schur = teacher_gram[np.ix_(ablated, ablated)] - cross.T @ np.linalg.solve(
        teacher_gram[np.ix_(kept, kept)], cross
    )
    part = readout[ablated]
    return float(part @ schur @ part / total)


def _ablation_values(
    rng: np.random.Generator,
    readout: Literal["gaussian", "ones"],
    draws: int,
    fractions: tuple[float, ...],
) -> tuple[np.ndarray, AblationSetup]:
    """The outside fractions of ``draws`` teachers (d = 100, m_* = 100), each
    ablated independently at every fraction: ``values[row, column]`` for
    ``fractions[row]`` and draw ``column``, drawn from ``rng`` in that order;
    and the setup of the first draw at ``fractions[2]``, which the check also
    evaluates with :func:`relu_rkhs_projection`."""
    values = np.empty((len(fractions), draws))
    probe = None
    for column in range(draws):
        teacher = ablation_setup(100, 100, 0.0, rng, readout=readout)
        gram = relu_gram(teacher.teacher_weights)
        for row, mu in enumerate(fractions):
            setup = ablation_setup(
                100,
                100,
                mu,
                rng,
                teacher=(teacher.teacher_weights, teacher.teacher_readout),
            )
            values[row, column] = _ablated_outside_fraction(
                gram, setup.teacher_readout, setup.kept
            )
            if column == 0 and row == 2:
                probe = setup
    if probe is None:
        raise AssertionError("probe is not None")
    return values, probe


def _check_ablation_monotone(draws: int = 20) -> Verdict:
    # The paper's teacher size: d = 100, m_* = 100; the source's RKHS is spanned
    # by the kept units (the kernel identification of Fig. 4(a)-(b)). Each draw
    # ablates one teacher independently at every mu; the steps between
    # consecutive mu are compared with their paired standard errors.
    rng = np.random.default_rng(40)
    fractions = (0.0, 0.2, 0.4, 0.6, 0.8)
    details = []
    ok, decreasing = True, False
    agreement = 0.0
    pairs: list[tuple[float, float]] = []
    for readout in ("gaussian", "ones"):
        values, probe = _ablation_values(rng, readout, draws, fractions)
        general = relu_rkhs_projection(
            probe.source_weights, probe.teacher_weights, probe.teacher_readout
        ).outside_fraction
        agreement = max(agreement, abs(general - values[2, 0]))
        pairs.append((general, float(values[2, 0])))
        steps = np.diff(values, axis=0)
        step_z = steps.mean(axis=1) / (steps.std(axis=1, ddof=1) / np.sqrt(draws))
        ok = ok and values[0].max() == 0.0 and bool(np.all(step_z > _Z_MAX))
        decreasing = decreasing or bool(np.any(step_z < -_Z_MAX))
        name = "c* ~ N(0, 1)" if readout == "gaussian" else "c* = 1"
        details.append(
            f"{name}: {np.array2string(values.mean(axis=1), precision=4)} "
            f"(steps of {np.array2string(step_z, precision=1)} paired SE)"
        )
    detail = (
        f"d = 100, m_* = 100, {draws} teachers, independent ablations: "
        f"||P_perp f_t||^2 / ||f_t||^2 at mu = {list(fractions)}: "
        + "; ".join(details)
        + f"; relu_rkhs_projection agrees to {agreement:.1e} (every step must "
        f"exceed {_Z_MAX:g} paired SE)"
    )
    # The two evaluations of (159) must agree to 1e-10 (float64 solves of
    # well-conditioned Gram blocks); the steps are an ordering, not a tolerance.
    general_values, schur_values = np.array(pairs).T
    agrees = check_close(
        general_values,
        schur_values,
        1e-10,
        what="relu_rkhs_projection against the Schur complement of (159)",
    )
    if ok and agrees.status == Status.HOLDS:
        return Verdict.holds(detail, Basis.STATISTICAL)
    if decreasing:
        return Verdict.fails(
            detail + ": a step decreases by more than the stated SE",
            Basis.STATISTICAL,
            "a step of ||P_perp f_t||^2/||f_t||^2 between consecutive mu below "
            f"-{_Z_MAX:g} paired SE",
        )
    return Verdict.inconclusive(
        detail + ": not every step is resolved at this number of teachers",
        Reason.STATISTICAL,
        Basis.STATISTICAL,
    )


def _check_irreducible_error(draws: int = 300, count: int = 400_000) -> Verdict:
    rng = np.random.default_rng(21)
    setup = ablation_setup(10, 10, 0.3, rng)
    model = setup.source_weights
    projection = relu_rkhs_projection(
        model, setup.teacher_weights, setup.teacher_readout
    )
    sizes = (100, 400, 1600)
    errors = linear_transfer_errors(
        model, setup.teacher_weights, setup.teacher_readout, sizes, draws, rng
    )
    excess = errors - projection.outside
    mean = excess.mean(axis=1)
    error = excess.std(axis=1, ddof=1) / np.sqrt(excess.shape[1])
    # Misspecified least squares: n * C(n) -> tr(G^{-1} E[r^2 sigma sigma^T]), the
    # sandwich variance, estimated by Monte Carlo (its standard error is below 1%).
    inputs = rng.standard_normal((count, model.shape[1]))
    features = relu_features(inputs, model)
    target = (
        relu_features(inputs, setup.teacher_weights)
        @ setup.teacher_readout
        / setup.teacher_readout.size
    )
    residual = target - features @ projection.coefficients
    sandwich = (features * residual[:, None] ** 2).T @ features / inputs.shape[0]
    predicted = np.trace(np.linalg.solve(relu_gram(model), sandwich))
    scaled = mean * np.asarray(sizes)
    detail = (
        f"d = 10, m_* = 10, mu = 0.3, features of the source's 7 units, readout "
        f"refit on n = {list(sizes)} noiseless target samples ({draws} draws each): "
        f"||P_perp f_t||^2 = {projection.outside:.4e}; C(n) = E[R] - ||P_perp||^2 "
        f"= {np.array2string(mean, precision=3)} +- "
        f"{np.array2string(error, precision=2)}; n C(n) = "
        f"{np.array2string(scaled, precision=3)} vs the asymptotic "
        f"tr(G^-1 E[r^2 s s^T]) = {predicted:.3e}"
    )
    # O(m/n) corrections: at n = 1600 and m = 7 they are below 2%; allow 5 SE
    # of the mean plus 5% of the prediction.
    constant = check_close(
        scaled[-1],
        predicted,
        _Z_MAX * error[-1] * sizes[-1] + 0.05 * predicted,
        what=f"n C(n) at n = {sizes[-1]} against tr(G^-1 E[r^2 s s^T])",
        basis=Basis.STATISTICAL,
    )
    ok = (
        bool(np.all(mean > 0))
        and bool(np.all(np.diff(mean) < 0))
        and constant.status == Status.HOLDS
    )
    return _replicated(
        ok,
        detail + f" (allowed {_Z_MAX:g} SE of the mean + 5% for O(m/n) terms: "
        f"{constant.detail})",
        Basis.STATISTICAL,
    )


def _check_population_loss(count: int = 400_000) -> Verdict:
    rng = np.random.default_rng(18)
    setup = ablation_setup(10, 8, 0.3, rng)
    weights = sample_sphere(20, 8, rng)
    readout = rng.standard_normal(20)
    loss, _, _ = source_loss_and_gradients(weights, readout, setup)
    inputs = rng.standard_normal((count, 8))
    student = relu_features(inputs, weights) @ readout / 20
    source = (
        relu_features(inputs, setup.source_weights)
        @ setup.source_readout
        / setup.kept.size
    )
    squares = 0.5 * (student - source) ** 2
    error = squares.std(ddof=1) / np.sqrt(squares.size)
    z = abs(squares.mean() - loss) / error
    detail = (
        "d = 8, m = 20 student units, m_* = 10, mu = 0.3: the population loss "
        f"(1/2)||f - f_s*||^2 through eq. (153) = {loss:.6e}; Monte Carlo over 4e5 "
        f"Gaussian inputs {squares.mean():.6e} ({z:.2f} SE, bound {_Z_MAX:g})"
    )
    return check_close(
        squares.mean(),
        loss,
        _Z_MAX * error,
        what="Monte-Carlo population loss against eq. (153)'s",
        basis=Basis.STATISTICAL,
    ).with_detail(detail)


#: The loss at which App. D.2 stops training ("train for 1e5 iterations or
#: until the loss reaches 1e-6"): a run above it has not converged.
_CONVERGED_LOSS = 1e-6
#: "Nearly indistinguishable" read as a relative distance of the kernel Grams
#: at most this (see :func:`_check_kernel_sparsifies`).
_KERNEL_DISTANCE_TOLERANCE = 0.1
#: The check's own size (fits a laptop in ~20 s).
_STUDENT = StudentRun()
#: App. D.2's sizes, d = 100, m = 1000, m_* = 100. Its 1e5 steps of 0.01 m are
#: a flow time of 1e3; steps of 0.2 m (stable at every m: the step scales with
#: m, the mean-field Hessian with 1/m) reach it in 5e3. Run here (``verify
#: --profile paper``, 1687 s wall on a shared 2-core machine, ~300 s CPU): the
#: loss falls from 3.0e-3 to 1.7e-4 only, the kernel distance from 0.318 to
#: 0.301, no unit within cosine 0.99 of a source unit: not converged, so
#: inconclusive (budget).
_PAPER_STUDENT = StudentRun(
    dimension=100, teacher_units=100, width=1000, steps=5_000, learning_rate=0.2
)


def _check_kernel_sparsifies(run: StudentRun) -> Verdict:
    experiment = kernel_condensation(
        dimension=run.dimension,
        teacher_units=run.teacher_units,
        ablated_fraction=run.ablated_fraction,
        width=run.width,
        steps=run.steps,
        learning_rate=run.learning_rate,
        seed=run.seeds[0],
    )
    setup, training = experiment.setup, experiment.training
    before, after = experiment.distance_before, experiment.distance_after
    nearest = experiment.nearest_cosines
    condensed = float(np.mean(nearest > 0.99))
    final_loss, _, _ = source_loss_and_gradients(
        training.hidden_weights, training.readout, setup
    )
    # What eq. (21) uses: the target's part outside the model's RKHS.
    target = (setup.teacher_weights, setup.teacher_readout)
    with_model = relu_rkhs_projection(training.hidden_weights, *target)
    with_source = relu_rkhs_projection(setup.source_weights, *target)
    detail = (
        f"d = {run.dimension}, m = {run.width}, m_* = {run.teacher_units}, mu = "
        f"{run.ablated_fraction:g}, c* ~ N(0, 1), population loss, float64 "
        "projected GD "
        f"(step {run.learning_rate:g} m, {run.steps} steps, readouts from "
        f"1e-7, seed {run.seeds[0]}): loss {training.losses[0]:.3e} -> "
        f"{final_loss:.3e} (a run has converged at a loss <= {_CONVERGED_LOSS:g}, "
        "App. D.2's criterion); relative Frobenius distance of the model's kernel "
        f"Gram (300 Gaussian inputs) to the source teacher's: {before:.3f} at "
        f"initialization, {after:.3f} trained (tolerance "
        f"{_KERNEL_DISTANCE_TOLERANCE:g}, our reading of '≈'); {condensed:.0%} of "
        "the units "
        f"within cosine 0.99 of a source unit (min cosine {nearest.min():.3f}); "
        f"||P_perp f_t||^2/||f_t||^2 in the trained model's RKHS "
        f"{with_model.outside_fraction:.4f} vs the source's "
        f"{with_source.outside_fraction:.4f}"
    )
    if final_loss > _CONVERGED_LOSS:
        where = (
            "at d = 10, m = 100 the distance stays ~0.43 from 2e4 to 4e4 steps, "
            "where the loss reaches 1e-6 (units without a source direction keep "
            "their features); the paper's size is the profile 'paper'"
            if run == _STUDENT
            else "this is the flow time of App. D.2's 1e5 steps of 0.01 m; "
            "training on to a loss of 1e-6 at this size is a cluster's work"
        )
        return Verdict.inconclusive(
            detail + f": not converged (loss above {_CONVERGED_LOSS:g}) within "
            f"{run.steps} steps, so the kernel is not the trained one's; {where}",
            Reason.BUDGET,
            Basis.NUMERICAL,
        )
    # "Nearly indistinguishable" read as a relative distance below 0.1: 10% of
    # the teacher Gram's norm, the least a visual comparison of two heat maps
    # on one color scale resolves (0.74 at initialization at d = 10, 0.32 at
    # the paper's d = 100).
    if after <= _KERNEL_DISTANCE_TOLERANCE:
        return Verdict.holds(detail, Basis.NUMERICAL)
    # Converged and still apart: not reproduced. The threshold, mu and c* are
    # our reading (the paper gives none of them), so this refutes nothing.
    return Verdict.inconclusive(
        detail + ": converged, but the kernels differ by more than the threshold "
        f"{_KERNEL_DISTANCE_TOLERANCE:g} (our reading of '≈'; mu and c* are "
        "unspecified in the paper): not "
        "reproduced (not evidence against it)",
        Reason.STATISTICAL,
        Basis.NUMERICAL,
    )


_POPULATION_INPUTS = _inputs(_check_population_loss, "a Gaussian input, d = 8")


# A draw refits the readout at n = 100, 400, 1600; the sandwich constant's
# 4e5 inputs are scaled with the draws (4e5 / 300 per draw) when timed.


def _irreducible_draws(count: int) -> MonteCarloDraws:
    return MonteCarloDraws(
        lambda draws: _check_irreducible_error(draws, count=draws * 4000 // 3),
        count,
        timed=8,
        what="3 least-squares refits and 1333 inputs of the sandwich constant",
    )


def _ablation_teachers(count: int) -> MonteCarloDraws:
    return MonteCarloDraws(
        _check_ablation_monotone,
        count,
        timed=2,
        what="a teacher, d = 100, m_* = 100: Gram and 5 x 2 ablations",
    )


_IRREDUCIBLE_DRAWS = _irreducible_draws(300)
_ABLATION_TEACHERS = _ablation_teachers(20)
#: Fig. 4(d)'s steps, resolved for the readout c* = 1 (whose fractions, 0.003
#: to 0.07, are of the figure's size; c* ~ N(0, 1) gives steps of 0.08 to
#: 0.17, resolved by any of these sizes): the largest per-teacher sd of a
#: step, from the check's own 20 teachers (seed 40).
ABLATION_POWER = PowerCalculation(
    effect=0.01,
    effect_quote="Fig. 4(d): ||P_perp f_t||^2/||f_t||^2 rises from ~0.01 at mu = "
    "0.2 to ~0.04 at mu = 0.8, ~0.01 per step of 0.2 in mu",
    pilot_sd=0.0086,
    pilot_seeds=20,
    pilot="the check's d = 100, m_* = 100, 20 teachers, c* = 1, the step mu = "
    "0.6 -> 0.8",
    z=_Z_MAX,
)
ABLATION_PAPER_TEACHERS = max(10, ABLATION_POWER.seeds)
#: C(n) must be resolved positive and decreasing: C(400) - C(1600) against the
#: sd of a difference of two independent draws.
IRREDUCIBLE_POWER = PowerCalculation(
    effect=9.4e-5,
    effect_quote="(21): E R_lt = C(n) + ||P_perp f_t||^2 with C(n) ~ 1/n; C(400) - "
    "C(1600) = 9.4e-5 here (the pilot's means, 1.24e-4 and 3.0e-5)",
    pilot_sd=7.4e-5,
    pilot_seeds=300,
    pilot="the check's d = 10, m_* = 10, mu = 0.3, 300 draws (seed 21): sd "
    "7.2e-5 at n = 400 and 1.8e-5 at n = 1600",
    z=_Z_MAX,
)
IRREDUCIBLE_PAPER_DRAWS = max(100, IRREDUCIBLE_POWER.seeds)


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "sec-4",
        "exact-population-loss",
        Kind.SIMULATION,
        "the source task's population loss can be computed exactly for the "
        "two-layer ReLU model (through the arc-cosine kernel)",
        _check_population_loss,
        Status.HOLDS,
        cost=_POPULATION_INPUTS.cost,
        formula=lambda: nt.eq(nt.mc_population_loss, nt.exact_population_loss),
        assumptions=("x ~ N(0, I_d), all hidden weights on the unit sphere",),
        quote=(
            "train the source task on the population loss, which can be "
            "computed exactly for this model"
        ),
        reading=Reading.PROSE,
        regime=(
            "d = 8, m = 20 student units, m_* = 10, mu = 0.3, weights on the "
            "unit sphere (Section 4's constraint), 4e5 Gaussian inputs, within "
            "5 SE"
        ),
    ),
    Claim(
        SOURCE_ID,
        "sec-4",
        "kernel-sparsifies",
        Kind.SIMULATION,
        "Fig. 4(a)-(b): after training on the source's population loss, the model's "
        "kernel (1/m) sum_i sigma(w_i.x) sigma(w_i.x') is nearly indistinguishable "
        "from the source teacher's (1/((1-mu) m_*)) sum_{A^c} sigma(w*_i.x) "
        "sigma(w*_i.x')",
        lambda: _check_kernel_sparsifies(_STUDENT),
        Status.INCONCLUSIVE,
        formula=lambda: nt.le(nt.kernel_distance, sp.Rational(1, 10)),
        expected_reason=Reason.BUDGET,
        assumptions=(
            "d = 10, m = 100, m_* = 10 instead of d = 100, m = 1000, m_* = 100",
            "c* ~ N(0, 1) (unspecified in the paper)",
        ),
        slow=True,
        budget_seconds=120.0,
        cost=_STUDENT.cost,
        paper=Configuration(
            "App. D.2: 'we use the parameters d=100, m=1000, m_*=100 ... output "
            "weights are initialized at 10^-7 ... learning rate 0.01m and train "
            "for 10^5 iterations or until the loss reaches 10^-6'; here the same "
            "flow time (10^3) in 5e3 steps of 0.2 m, converged when the loss is "
            "<= 1e-6; mu = 0.3, c* ~ N(0, 1) and one seed are ours (Fig. 4(a)-(b) "
            "gives none)",
            lambda: _check_kernel_sparsifies(_PAPER_STUDENT),
            budget_seconds=3600.0,
            expected=Status.INCONCLUSIVE,
            expected_reason=Reason.BUDGET,
            cost=_PAPER_STUDENT.cost,
        ),
        quote=(
            "we demonstrate empirically in Fig. 4(a)-(b) that this relationship "
            "is preserved at the level of the model's kernel, so that k(x, x′) "
            "= (1/m) Σ_{i=1}^m σ(w_i^T x)σ(w_i^T x′) ≈ (1/((1−µ)m_∗)) Σ_{i∈A^c} "
            "σ(w_i^{∗T} x)σ(w_i^{∗T} x′)"
        ),
        reading=Reading.INTERPRETATION,
        regime=(
            "d = 10, m = 100, m_* = 10, mu = 0.3, 2e4 projected GD steps (the "
            "paper: d = 100, m = 1000, m_* = 100, 1e5 steps); '≈' read as a "
            "relative Frobenius distance <= 0.1 between Gram matrices on 300 "
            "inputs (10% of the norm; 0.74 at initialization)"
        ),
    ),
    Claim(
        SOURCE_ID,
        "21",
        "irreducible-error",
        Kind.SIMULATION,
        "linear transfer's generalization error is C(n) + ||P_perp f_t||^2 with an "
        "n-dependent C(n) that vanishes for large n (here: C(n) ~ 1/n)",
        _check_irreducible_error,
        Status.HOLDS,
        cost=_IRREDUCIBLE_DRAWS.cost,
        paper=Configuration(
            "Fig. 4: 'we use 100 realizations of the training data': "
            f"{IRREDUCIBLE_PAPER_DRAWS} draws, max(100, the power calculation's "
            f"{IRREDUCIBLE_POWER.seeds}); d = 10, m_* = 10 and n = 100, 400, 1600 "
            "are ours (the paper's d = 100, m_* = 100)",
            lambda: _check_irreducible_error(IRREDUCIBLE_PAPER_DRAWS),
            budget_seconds=300.0,
            expected=Status.HOLDS,
            cost=_irreducible_draws(IRREDUCIBLE_PAPER_DRAWS).cost,
            power=IRREDUCIBLE_POWER,
        ),
        formula=lambda: nt.eq(
            nt.samples * (nt.relu_transfer_risk - nt.target_complement),
            nt.sandwich_constant,
        ),
        assumptions=(
            "features of the source teacher (Fig. 4(a)-(b)); noiseless labels",
            "readout refit by least squares on n samples",
        ),
        budget_seconds=30.0,
        quote=("E_D R_lt = C(n) + ||P_⊥ f_t^∗(x)||^2_{L2}."),
        reading=Reading.INTERPRETATION,
        regime=(
            "d = 10, m_* = 10, mu = 0.3, features of the 7 kept source units, "
            "noiseless labels (Fig. 4's sigma = 0), n = 100, 400, 1600, 300 "
            "draws; C(n) ~ 1/n (the text's deep-linear rate) read for ReLU "
            "features: n C(n) within 5 SE + 5% of the sandwich constant"
        ),
    ),
    Claim(
        SOURCE_ID,
        "21",
        "increases-with-mu",
        Kind.SIMULATION,
        "Fig. 4(d): ||P_perp f_t||^2 / ||f_t||^2 increases monotonically with the "
        "ablated fraction mu (and is 0 at mu = 0)",
        _check_ablation_monotone,
        Status.HOLDS,
        cost=_ABLATION_TEACHERS.cost,
        paper=Configuration(
            "Fig. 4: d = 100, m_* = 100 (App. D.2), 'averaged over ... 10 "
            f"realizations of random draws of the teacher': {ABLATION_PAPER_TEACHERS} "
            "teachers, max(10, the power calculation's "
            f"{ABLATION_POWER.seeds}); mu = 0 to 0.8 as Fig. 4(d)",
            lambda: _check_ablation_monotone(ABLATION_PAPER_TEACHERS),
            budget_seconds=300.0,
            expected=Status.HOLDS,
            cost=_ablation_teachers(ABLATION_PAPER_TEACHERS).cost,
            power=ABLATION_POWER,
        ),
        formula=lambda: nt.gt(
            sp.Derivative(nt.complement_fraction(theory.mu), theory.mu), 0
        ),
        assumptions=(
            "the model's RKHS is that of the source teacher's units",
            "c* ~ N(0, 1) and c* = 1 (unspecified in the paper)",
        ),
        budget_seconds=30.0,
        quote=(
            "As expected, the norm of this projection increases monotonically "
            "with µ as shown in Fig. 4(d)."
        ),
        reading=Reading.INTERPRETATION,
        regime=(
            "d = 100, m_* = 100 (the paper's teacher), mu = 0 to 0.8 (Fig. "
            "4(d)'s range), 20 teachers, c* ~ N(0, 1) and c* = 1, each step > 5 "
            "paired SE; the model's RKHS read as the source teacher's (Fig. "
            "4(a)-(b))"
        ),
    ),
)
