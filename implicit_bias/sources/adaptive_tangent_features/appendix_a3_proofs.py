r"""Appendix A.3 of adaptive-tangent-features: Lemma 5 and the proofs.

Lemma 5 reduces the two-sided problem (27) to scalar problems (28)-(29) per
singular value; the proofs of Theorems 1 and 2 (A.3.1-A.3.2) rest on it.
Checked: the alignment step of its proof for fixed :math:`S_1, S_2` (as
printed, on an exact instance, and with the pairing of singular values
corrected), the scalar reduction (28)-(29) by direct minimization, and the
lemma itself against direct gradient descent on (27) (:mod:`._descents`):
its value, and the shared singular vectors of the minimizers.

Tolerance of the direct solutions' values of (27): :math:`\|\nabla F\|^2/2\mu`
(quadratic model at the end point) plus rounding, plus the stated 1e-12
relative accuracy of the numerics' generic :math:`\tilde\omega` and
:math:`\oplus` (doubled, as one is nested in the other).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import sympy as sp
from scipy import optimize

from implicit_bias.claims.checks import check_close
from implicit_bias.claims.engine import Basis, Claim, Kind, Reading, Status, Verdict
from implicit_bias.claims.profiles import CostEstimate
from implicit_bias.numerics.tangent_features import (
    Penalty,
    join_penalty,
    omega_tilde,
    power_deviation,
    squared_deviation,
)
from implicit_bias.sources.adaptive_tangent_features import notation as nt
from implicit_bias.sources.adaptive_tangent_features._descents import (
    EPS,
    descent_cost,
    deterministic_verdict,
)
from implicit_bias.sources.adaptive_tangent_features._float64 import (
    DIRECT_RTOL,
    Float64Array,
    compared,
)
from implicit_bias.sources.adaptive_tangent_features.penalty_families import PENALTIES
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID, claim_id
from implicit_bias.validation.tangent_features import (
    DEFAULT_MAX_ITERATIONS,
    solve_two_sided_problem,
)

__all__ = ["CLAIMS"]


# --- Lemma 5's proof: the alignment for fixed S1, S2, eq. (27)

_ALIGNMENT_S1 = np.array([2.5, 1.7, 1.0])
#: Nelder-Mead starts over the rotation angles (the landscape has a few basins,
#: one per pairing; 6 uniform starts found the best in every seed tried).
_ROTATION_STARTS = 6
_ALIGNMENT_S2 = np.array([3.0, 1.2])


def _alignment_instance() -> tuple[
    Float64Array, Float64Array, float, float, tuple[tuple[int, int], ...]
]:
    r"""B (3 x 2), its singular values, the index-aligned value and the best pairing.

    With U, V the singular vectors of B up to permutations, :math:`\|W\|_F^2 =
    \sum_j d_j^2/(s1_{i_j} s2_{k_j})^2` for an assignment of distinct rows
    :math:`i_j` and columns :math:`k_j` to the singular values :math:`d_j`; the
    last item is that best assignment, ``((i_1, k_1), (i_2, k_2))``.
    """
    rng = np.random.default_rng(27)
    b = rng.standard_normal((3, 2))
    singular = np.asarray(np.linalg.svd(b, compute_uv=False), dtype=np.float64)
    aligned = float(np.sum((singular / (_ALIGNMENT_S1[:2] * _ALIGNMENT_S2)) ** 2))
    best_pairing, rows, columns = min(
        (
            float(
                np.sum(
                    (
                        singular
                        / (_ALIGNMENT_S1[list(rows)] * _ALIGNMENT_S2[list(columns)])
                    )
                    ** 2
                )
            ),
            rows,
            columns,
        )
        for rows in itertools.permutations(range(3), 2)
        for columns in itertools.permutations(range(2), 2)
    )
    return b, singular, aligned, best_pairing, tuple(zip(rows, columns, strict=True))


def _rotation(angle: float, axes: tuple[int, int], size: int) -> Float64Array:
    rotation = np.eye(size)
    i, j = axes
    rotation[[i, i, j, j], [i, j, i, j]] = [
        np.cos(angle),
        -np.sin(angle),
        np.sin(angle),
        np.cos(angle),
    ]
    return rotation


def _frobenius_over_rotations(b: Float64Array, angles: Float64Array) -> float:
    """||S1^-1 U^T B V S2^-1||_F^2, U from 3 Euler angles, V a plane rotation.

    Reflections only flip signs of columns of B's singular vectors, which the
    squared norm does not see, so rotations cover every case.
    """
    u_matrix = (
        _rotation(angles[0], (0, 1), 3)
        @ _rotation(angles[1], (1, 2), 3)
        @ _rotation(angles[2], (0, 1), 3)
    )
    v_matrix = _rotation(angles[3], (0, 1), 2)
    sigma = (u_matrix.T @ b @ v_matrix) / np.outer(_ALIGNMENT_S1, _ALIGNMENT_S2)
    return float(np.sum(sigma**2))


def _best_over_rotations(b: Float64Array) -> float:
    rng = np.random.default_rng(270)
    return min(
        optimize.minimize(
            lambda x: _frobenius_over_rotations(b, x),
            rng.uniform(-np.pi, np.pi, 4),
            method="Nelder-Mead",
            options={"xatol": 1e-10, "fatol": 1e-15, "maxiter": 4000},
        ).fun
        for _ in range(_ROTATION_STARTS)
    )


#: An exact instance for the printed alignment: B = diag_{3 x 2}(d), d sorted,
#: so U = I, V = I are its singular vectors in the printed (sorted) order.
_EXACT_S1 = (Fraction(5, 2), Fraction(17, 10), Fraction(1))
_EXACT_S2 = (Fraction(3), Fraction(6, 5))
_EXACT_D = (Fraction(1), Fraction(9, 10))


def _check_alignment_as_printed() -> Verdict:
    # With U, V permutation matrices (orthogonal), S1^-1 U^T B V S2^-1 places
    # d_j at a distinct (row, column) pair: ||W||_F^2 = sum_j d_j^2/(s1 s2)^2,
    # in exact rational arithmetic.
    def value(pairing: tuple[tuple[int, int], ...]) -> Fraction:
        return sum(
            (
                d**2 / (_EXACT_S1[i] * _EXACT_S2[k]) ** 2
                for d, (i, k) in zip(_EXACT_D, pairing, strict=True)
            ),
            Fraction(0),
        )

    printed = value(((0, 0), (1, 1)))
    best, pairing = min(
        (
            value(tuple(zip(rows, columns, strict=True))),
            tuple(zip(rows, columns, strict=True)),
        )
        for rows in itertools.permutations(range(3), 2)
        for columns in itertools.permutations(range(2), 2)
    )
    instance = "B = diag_{3x2}(1, 9/10), S1 = diag(5/2, 17/10, 1), S2 = diag(3, 6/5)"
    if best >= printed:
        return Verdict.holds(
            f"{instance}: the sorted alignment gives the least ||W||_F^2 = "
            f"{printed} among the permutations U, V (exact)",
            Basis.PROOF,
        )
    pairs = " and ".join(
        f"d_{j + 1} with (s1, s2) = ({_EXACT_S1[i]}, {_EXACT_S2[k]})"
        for j, (i, k) in enumerate(pairing)
    )
    return Verdict.fails(
        f"{instance}: U = I, V = I (the singular vectors of B aligning the largest "
        "s1 and s2, i.e. the smallest values of S1^-1 and S2^-1, with the largest "
        f"singular value) give ||W||_F^2 = {printed} = {float(printed):.6g}, but "
        f"the permutations pairing {pairs} give {best} = {float(best):.6g} "
        "(exact rational arithmetic): for fixed S1, S2 the sorted alignment is "
        "not the minimum. Lemma 5 survives, as S1, S2 are optimized too: see "
        "27:alignment-pairing",
        Basis.PROOF,
        f"{instance}: ||W||_F^2 = {printed} at the sorted alignment > {best} at "
        f"the pairing {pairs} (exact)",
    )


def _check_alignment_pairing() -> Verdict:
    b, _, aligned, best_pairing, _ = _alignment_instance()
    best = _best_over_rotations(b)
    return compared(
        [
            check_close(
                best,
                best_pairing,
                DIRECT_RTOL,
                what="min over rotations vs the best pairing",
                relative=True,
                basis=Basis.SEARCH,
            )
        ],
        f"min over rotations U, V of ||S1^-1 U^T B V S2^-1||_F^2 = {best:.10g} "
        f"= the best assignment of singular values to (s1_i, s2_k) pairs "
        f"({best_pairing:.10g}; index-aligned: {aligned:.6g}); it is attained "
        "at the singular vectors of B, permuted, and since S1, S2 are optimized "
        "too, relabelling them gives the aligned form of (28)",
    )


# --- the scalar problem (28)-(29)


def _direct_scalar_reduction(
    omega1: Callable[[Float64Array], Float64Array],
    omega2: Callable[[Float64Array], Float64Array],
    d: float,
) -> float:
    """min over s1, s2 >= 1 of omega1(s1) + omega2(s2) + d^2/(s1 s2)^2 (eq. (28))."""
    grid = np.linspace(0.0, 4.0, 81) ** 2  # s - 1 = y^2 reaches s = 1 smoothly

    def objective(y: Float64Array) -> Float64Array:
        s_1, s_2 = 1.0 + y[0] ** 2, 1.0 + y[1] ** 2
        return np.asarray(
            omega1(s_1) + omega2(s_2) + d**2 / (s_1 * s_2) ** 2, dtype=np.float64
        )

    y1, y2 = np.meshgrid(np.sqrt(grid), np.sqrt(grid), indexing="ij")
    values = objective(np.stack([y1, y2]))
    i, j = np.unravel_index(int(np.argmin(values)), values.shape)
    result = optimize.minimize(
        lambda y: float(objective(np.asarray(y))),
        x0=np.array([y1[i, j], y2[i, j]]),
        method="Nelder-Mead",
        options={"xatol": 1e-12, "fatol": 1e-15, "maxiter": 20000},
    )
    return float(min(result.fun, values[i, j]))


def _check_scalar_reduction() -> Verdict:
    cases = (
        ("(z-1)^2", "|z-1|"),
        ("cosh(log z) - 1", "asymmetric kink"),
    )
    directs, effectives = [], []
    for first, second in cases:
        omega1, omega2 = PENALTIES[first], PENALTIES[second]
        joint = join_penalty(omega1, omega2)
        for d in (0.3, 1.0, 3.0, 10.0):
            directs.append(_direct_scalar_reduction(omega1, omega2, d))
            effectives.append(float(omega_tilde(joint, d)))
    return compared(
        [
            check_close(
                directs,
                effectives,
                DIRECT_RTOL,
                what="direct 2-D minimum vs omega~ of the join",
                relative=True,
                basis=Basis.SEARCH,
            )
        ],
        "min over s1, s2 >= 1, sigma >= 0 with s1 s2 sigma = d of omega_1(s1) + "
        "omega_2(s2) + sigma^2 (direct 2-D minimization) equals omega~ of "
        "omega_1 (+) omega_2 at d, for 2 pairs, d in {0.3, 1, 3, 10}",
    )


# --- Lemma 5 against direct solutions of (27)

#: The numerics' stated relative accuracy of omega_tilde / omega_join (generic).
_NUMERICS_RELATIVE = 1e-12


#: The seeds of (27)'s direct solutions.
_LEMMA_FIVE_SEEDS = (0, 1)


def _two_sided_cases() -> list[tuple[np.ndarray, Penalty, Penalty]]:
    rng = np.random.default_rng(27)
    quartic = power_deviation(4.0)
    return [
        (2.0 * rng.standard_normal((3, 3)), squared_deviation, squared_deviation),
        (2.0 * rng.standard_normal((3, 3)), squared_deviation, quartic),
        (2.0 * rng.standard_normal((3, 2)), squared_deviation, squared_deviation),
        (2.0 * rng.standard_normal((2, 3)), quartic, squared_deviation),
    ]


def _two_sided_cost(runs: int) -> CostEstimate:
    """Direct solutions of (27): timed on a 3 x 3 B, omega = (z-1)^4 on one side."""
    target, left, right = _two_sided_cases()[1]
    return descent_cost(
        lambda cap: solve_two_sided_problem(
            target, left, right, init_scale=0.5, max_iterations=cap
        ),
        runs,
        DEFAULT_MAX_ITERATIONS,
        "problem (27), B up to 3 x 3",
    )


def _lemma_five_predicted(
    target: np.ndarray, left: Penalty, right: Penalty
) -> tuple[float, np.ndarray, float]:
    singular = np.linalg.svd(target, compute_uv=False)
    per_value = omega_tilde(join_penalty(left, right), singular)
    total = float(np.sum(per_value))
    numerics = 2.0 * _NUMERICS_RELATIVE * float(np.sum(1.0 + per_value))
    return total, per_value, numerics


def _check_lemma_five_value() -> Verdict:
    worst, count, converged = -math.inf, 0, True
    objectives, predictions, tolerances = [], [], []
    for target, left, right in _two_sided_cases():
        predicted, _, numerics = _lemma_five_predicted(target, left, right)
        for seed in _LEMMA_FIVE_SEEDS:
            solution = solve_two_sided_problem(
                target, left, right, init_scale=0.5, seed=seed
            )
            tolerance = (
                solution.gap_bound + 64.0 * EPS * (1.0 + abs(predicted)) + numerics
            )
            worst = max(worst, abs(solution.objective - predicted) / tolerance)
            objectives.append(solution.objective)
            predictions.append(predicted)
            tolerances.append(tolerance)
            converged = converged and solution.converged
            count += 1
    detail = (
        f"{count} direct minimizations of (27) with the constraint set {{B}} "
        "(B 3x3, 3x2, 2x3; omega pairs (z-1)^2 / (z-1)^4): |objective - "
        "sum_j (omega1 (+) omega2)~(sigma_j(B))| / tolerance <= "
        f"{worst:.2e}"
    )
    return deterministic_verdict(
        [
            check_close(
                objectives,
                predictions,
                tolerances,
                what="objective of (27) vs sum_j (omega1 (+) omega2)~(sigma_j(B))",
            )
        ],
        converged,
        "every descent's gradient norm below its tolerance",
        detail,
    )


def _check_lemma_five_structure() -> Verdict:
    worst_commutator, worst_split, worst_below_one = 0.0, 0.0, 0.0
    converged = True
    commutators: list[float] = []
    commutator_bounds: list[float] = []
    splits: list[np.ndarray] = []
    split_tolerances: list[np.ndarray] = []
    shortfalls: list[float] = []
    distances: list[float] = []
    for target, left, right in _two_sided_cases():
        _, per_value, numerics = _lemma_five_predicted(target, left, right)
        solution = solve_two_sided_problem(target, left, right, init_scale=0.5, seed=3)
        converged = converged and solution.converged
        distance = 2.0 * solution.location_bound + math.sqrt(EPS)
        u, singular, vt = np.linalg.svd(target)
        gram_left, gram_right = target @ target.T, target.T @ target
        for matrix, gram in (
            (solution.left_map, gram_left),
            (solution.right_map, gram_right),
        ):
            commutator = float(np.linalg.norm(matrix @ gram - gram @ matrix))
            bound = 2.0 * float(np.linalg.norm(gram, 2)) * distance
            worst_commutator = max(worst_commutator, commutator / bound)
            commutators.append(commutator)
            commutator_bounds.append(bound)
        rank = singular.size
        s1 = np.einsum("ij,ik,kj->j", u[:, :rank], solution.left_map, u[:, :rank])
        s2 = np.einsum("ji,ik,jk->j", vt[:rank], solution.right_map, vt[:rank])
        sigma = np.einsum("ij,ik,jk->j", u[:, :rank], solution.weights, vt[:rank])
        split = left(s1) + right(s2) + sigma**2 - per_value
        tolerance = solution.gap_bound + numerics + 64.0 * EPS * (1 + per_value)
        # Each entry of (s1, s2, sigma) is within `distance` of its limit; the
        # split values move by at most their gradient times that.
        slope = np.abs(2 * (s1 - 1)) + np.abs(2 * (s2 - 1)) + 4 * (s2 - 1) ** 2
        slope += 2 * np.abs(sigma) + 1.0
        worst_split = max(
            worst_split, float(np.max(np.abs(split) / (tolerance + slope * distance)))
        )
        shortfall = max(float(np.max(1.0 - np.minimum(s1, s2))), 0.0)
        worst_below_one = max(worst_below_one, shortfall / distance)
        splits.append(split)
        split_tolerances.append(tolerance + slope * distance)
        shortfalls.append(shortfall)
        distances.append(distance)
    detail = (
        "minimizers of (27): M1, M2 commute with B B^T, B^T B (largest "
        f"||[M, BB^T]||_F / tolerance {worst_commutator:.2e}); along B's singular "
        "pairs, omega1(s1) + omega2(s2) + sigma^2 = (omega1 (+) omega2)~(d_j) "
        f"(largest |difference| / tolerance {worst_split:.2e}); s1, s2 >= 1 "
        f"(largest shortfall / tolerance {worst_below_one:.2e})"
    )
    comparisons = [
        check_close(commutators, 0.0, commutator_bounds, what="||[M, BB^T]||_F"),
        check_close(
            np.concatenate(splits),
            0.0,
            np.concatenate(split_tolerances),
            what="omega1(s1) + omega2(s2) + sigma^2 - (omega1 (+) omega2)~(d_j)",
        ),
        check_close(
            shortfalls, 0.0, distances, what="shortfall of min(s1, s2) below 1"
        ),
    ]
    return deterministic_verdict(
        comparisons,
        converged,
        "every descent's gradient norm below its tolerance",
        detail,
    )


# --- formulas: what each check compares, for the ledger


def _formula_alignment_as_printed() -> sp.Basic:
    return sp.Eq(nt.frobenius_minimum, nt.frobenius_aligned)


def _formula_alignment_pairing() -> sp.Basic:
    return sp.Eq(nt.frobenius_minimum, nt.frobenius_paired)


def _formula_scalar_reduction() -> sp.Basic:
    return sp.Eq(nt.scalar_minimum, nt.join_tilde(nt.singular_value))


def _formula_lemma5_minimum() -> sp.Basic:
    return sp.Eq(
        nt.minimum_27,
        sp.Sum(nt.join_tilde(nt.singular_values[nt.j]), (nt.j, 1, sp.Min(nt.P, nt.Q))),
    )


def _formula_shared_singular_vectors() -> sp.Basic:
    return sp.And(
        sp.Eq(nt.M1, nt.U * nt.S1 * nt.U_t),
        sp.Eq(nt.M2, nt.V * nt.S2 * nt.V_t),
        sp.Eq(nt.W, nt.U * nt.Sigma * nt.V_t),
    )


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "27",
        "alignment-as-printed",
        Kind.NUMERIC,
        "given S1, S2, ||W||_F = ||S1^-1 U^T B V S2^-1||_F is minimized when U and V "
        "align the smallest values of S1^-1 and S2^-1 with the largest singular "
        "values of B (proof of Lemma 5)",
        _check_alignment_as_printed,
        Status.FAILS,
        slip="alignment-lemma-5",
        quote=(
            r"is minimized when \mathbf{U} and \mathbf{V} are chosen to align the "
            r"smallest values of \mathbf{S}_{1}^{-1} and \mathbf{S}_{1}^{-2} with the "
            r"largest singular values of \mathbf{B}"
        ),
        reading=Reading.PROSE,
        regime=(
            "fixed S1, S2 as in the proof of Lemma 5 ('Fix a matrix B', then the "
            "SVDs of M1, M2): B = diag(1, 9/10), S1 = diag(5/2, 17/10, 1), S2 = "
            "diag(3, 6/5), U, V permutations"
        ),
        budget_seconds=30,
        formula=_formula_alignment_as_printed,
    ),
    Claim(
        SOURCE_ID,
        "27",
        "alignment-pairing",
        Kind.NUMERIC,
        "given S1, S2, the minimum of ||S1^-1 U^T B V S2^-1||_F over U, V is attained "
        "at singular vectors of B under the best assignment of singular values to "
        "(s1_i, s2_k) pairs; with S1, S2 free, relabelling gives Lemma 5's form",
        _check_alignment_pairing,
        Status.HOLDS,
        quote=(
            r"in other words, \mathbf{U} and \mathbf{V} are the left and right "
            r"singular vectors of \mathbf{B}, respectively"
        ),
        reading=Reading.EXTENSION,
        regime=(
            "B a random 3 x 2 (seed 27), S1 = diag(2.5, 1.7, 1), S2 = diag(3, 1.2), "
            "rotations searched by Nelder-Mead (6 starts): our corrected step"
        ),
        corrects=claim_id("27", "alignment-as-printed"),
        budget_seconds=30,
        formula=_formula_alignment_pairing,
    ),
    Claim(
        SOURCE_ID,
        "27-29",
        "direct-minimum",
        Kind.SIMULATION,
        (
            r"for a fixed $B$, $\min \Omega_{\omega_1}(M_1) + \Omega_{\omega_2}(M_2) + "
            r"\|W\|_F^2$ s.t. $M_1 W M_2 = B$ equals $\sum_j \widetilde{(\omega_1 "
            r"\oplus \omega_2)}(\sigma_j(B))$ (Lemma 5)"
        ),
        _check_lemma_five_value,
        Status.HOLDS,
        cost=lambda: _two_sided_cost(len(_two_sided_cases()) * len(_LEMMA_FIVE_SEEDS)),
        quote=(
            r"\widehat{\mathbf{B}}=\mathbf{U}\mathbf{D}\mathbf{V}^{\mathsf{T}}\in\ope"
            r"ratorname*{arg\,min}_{\mathbf{B}\in\mathcal{B}}\widetilde{\Omega}_{\ome"
            r"ga_{1}\oplus\omega_{2}}(\mathbf{B})"
        ),
        reading=Reading.INTERPRETATION,
        regime=(
            "constraint set {B}, B 3x3, 3x2, 2x3 (seed 27), omega pairs (z-1)^2 / "
            "(z-1)^4, 2 starts each: Lemma 5's equivalence read as equal optimal values"
        ),
        assumptions=("constraint set {B}", "omega_i = |z-1|^p, p in {2, 4}"),
        budget_seconds=60.0,
        formula=_formula_lemma5_minimum,
    ),
    Claim(
        SOURCE_ID,
        "28-29",
        "scalar-reduction",
        Kind.NUMERIC,
        (
            r"$\min$ over $s_1, s_2 \geq 1$, $\sigma \geq 0$ with $s_1 s_2 \sigma = d$ "
            r"of $\omega_1(s_1) + \omega_2(s_2) + \sigma^2$ is $\tilde\omega_{\omega_1 "
            r"\oplus \omega_2}(d)$, the effective penalty of (29) on one singular value"
        ),
        _check_scalar_reduction,
        Status.HOLDS,
        quote=(
            r"By Proposition 4, we must have s_{1},s_{2}\geq 1, and then by the "
            "definition of the effective penalty, we obtain the optimization over "
            r"\mathbf{B}"
        ),
        reading=Reading.PROSE,
        regime=(
            "2 pairs from PENALTIES, d in {0.3, 1, 3, 10}, s1, s2 searched over [1, "
            "17]: the proof of Lemma 5"
        ),
        budget_seconds=30,
        formula=_formula_scalar_reduction,
    ),
    Claim(
        SOURCE_ID,
        "28",
        "shared-singular-vectors",
        Kind.SIMULATION,
        "the minimizers of (27) are M1 = U S1 U^T, M2 = V S2 V^T, W = U Sigma V^T "
        "with B = U D V^T, and each (s1, s2, sigma)_j solves the scalar problem "
        "(28) with s1, s2 >= 1 (Lemma 5)",
        _check_lemma_five_structure,
        Status.HOLDS,
        cost=lambda: _two_sided_cost(len(_two_sided_cases())),
        quote=(
            "having the form "
            r"\widehat{\mathbf{M}}_{1}=\mathbf{U}\mathbf{S}_{1}\mathbf{U}^{\mathsf{T}}"
        ),
        reading=Reading.PRINTED,
        regime=(
            "constraint set {B}, the 4 cases of 27-29:direct-minimum, one start "
            "each, converged descents: Lemma 5"
        ),
        assumptions=("constraint set {B}", "omega_i = |z-1|^p, p in {2, 4}"),
        budget_seconds=60.0,
        formula=_formula_shared_singular_vectors,
    ),
)
