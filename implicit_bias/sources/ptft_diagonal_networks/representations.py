r"""Claims of ptft-diagonal-networks: Appendix G's representation measures.

The participation ratio (PR), the effective number of shared dimensions (ENSD)
and its relation to linear CKA, checked on explicit symbolic matrices
(:data:`CLAIMS`); and our float64 evaluators of the three measures
(:func:`~implicit_bias.numerics.participation_ratio`,
:func:`~implicit_bias.numerics.cka`, :func:`~implicit_bias.numerics.ensd`)
against the same statements (:data:`EVALUATOR_CLAIMS`, the source's last
claim).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import sympy as sp
from sympy import ZZ
from sympy.polys.rings import PolyElement, ring

from implicit_bias.claims.checks import (
    RelationCheck,
    check_close,
    check_identity,
    judge_relation,
)
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
    conjunction,
)
from implicit_bias.numerics import cka, ensd, participation_ratio
from implicit_bias.sources.ptft_diagonal_networks._common import claim_id
from implicit_bias.sources.ptft_diagonal_networks.source import SOURCE_ID, measured
from implicit_bias.theory import representations as reps

__all__ = ["CLAIMS", "EVALUATOR_CLAIMS"]


def _relation_pr_trace_forms() -> sp.Eq:
    """PR(C_X) with C_X = X^T X / n against trace(X^T X)^2/trace((X^T X)^2)."""
    x = reps.symbolic_responses("x", 3, 2)
    n = sp.Symbol("n", positive=True)
    return sp.Eq(
        reps.participation_ratio(reps.covariance(x, n)),
        reps.participation_ratio_of_data(x),
        evaluate=False,
    )


def _judge_pr_trace_forms(relation: sp.Basic) -> Verdict:
    verdict = judge_relation(relation)
    return verdict.with_detail(
        f"3 x 2 symbolic X, C = X^T X / n with n > 0 symbolic: {verdict.detail}",
    )


_Polynomials = list[list[PolyElement]]


def _product(left: _Polynomials, right: _Polynomials) -> _Polynomials:
    """The product of two 3 x 3 matrices of polynomials."""
    return [
        [
            sum((left[i][k] * right[k][j] for k in range(3)), left[0][0].ring.zero)
            for j in range(3)
        ]
        for i in range(3)
    ]


def _transpose(matrix: _Polynomials) -> _Polynomials:
    return [list(row) for row in zip(*matrix, strict=True)]


def _trace(matrix: _Polynomials) -> PolyElement:
    return matrix[0][0] + matrix[1][1] + matrix[2][2]


def _cayley_numerator() -> tuple[_Polynomials, PolyElement, list[PolyElement]]:
    r"""The Cayley rotation :math:`Q = (I - S)(I + S)^{-1}` as N / d, and lambda.

    S is the skew matrix of three real parameters p; :math:`N = (I - S)\,
    \mathrm{adj}(I + S)` and :math:`d = \det(I + S)`, polynomials in
    :math:`\mathbb{Z}[p, \lambda]`, the ring of the eigenvalues
    :math:`\lambda_{1:3}` too (returned third).
    """
    _, p1, p2, p3, *lambdas = ring("p1 p2 p3 lambda1 lambda2 lambda3", ZZ)
    one, zero = p1.ring.one, p1.ring.zero
    skew = [[zero, -p3, p2], [p3, zero, -p1], [-p2, p1, zero]]
    plus = [
        [(one if i == j else zero) + skew[i][j] for j in range(3)] for i in range(3)
    ]
    minus = [
        [(one if i == j else zero) - skew[i][j] for j in range(3)] for i in range(3)
    ]

    def cofactor(i: int, j: int) -> PolyElement:
        rows = [r for r in range(3) if r != i]
        columns = [c for c in range(3) if c != j]
        minor = (
            plus[rows[0]][columns[0]] * plus[rows[1]][columns[1]]
            - plus[rows[0]][columns[1]] * plus[rows[1]][columns[0]]
        )
        return minor if (i + j) % 2 == 0 else -minor

    adjugate = [[cofactor(j, i) for j in range(3)] for i in range(3)]
    determinant = sum((plus[0][j] * cofactor(0, j) for j in range(3)), zero)
    return _product(minus, adjugate), determinant, lambdas


def _rotated_traces_hold(
    numerator: _Polynomials, d: PolyElement, lambdas: list[PolyElement]
) -> bool:
    r"""Whether Q = N/d is orthogonal and keeps the traces of diag(lambda).

    With :math:`C = Q \Lambda Q^\top`, :math:`\Lambda = \mathrm{diag}(\lambda)`,
    and the denominators cleared, the claims are the polynomial identities
    :math:`N^\top N = d^2 I`, :math:`\mathrm{tr}(N \Lambda N^\top) = d^2
    \sum\lambda` and :math:`\mathrm{tr}((N \Lambda N^\top)^2) = d^4
    \sum\lambda^2`, decided by exact arithmetic in :math:`\mathbb{Z}[p,
    \lambda]` (no rational-function cancellation); valid where d != 0.
    """
    zero = d.ring.zero
    diagonal = [[lambdas[i] if i == j else zero for j in range(3)] for i in range(3)]
    covariance = _product(_product(numerator, diagonal), _transpose(numerator))
    orthogonal = _product(_transpose(numerator), numerator) == [
        [d**2 if i == j else zero for j in range(3)] for i in range(3)
    ]
    first = _trace(covariance) == d**2 * sum(lambdas, zero)
    second = _trace(_product(covariance, covariance)) == d**4 * sum(
        (v**2 for v in lambdas), zero
    )
    return orthogonal and first and second


def _check_pr_eigenvalues() -> Verdict:
    a, b, c = sp.symbols("a b c", real=True)
    small = sp.Matrix([[a, b], [b, c]])
    eigenvalues = [v for v, k in small.eigenvals().items() for _ in range(k)]
    two = check_identity(
        reps.participation_ratio_of_eigenvalues(eigenvalues),
        reps.participation_ratio(small),
    )
    if two.status != Status.HOLDS:
        return two.with_detail(f"2 x 2: {two.detail}")
    # tr(C) = sum(lambda) and tr(C^2) = sum(lambda^2), so PR(C) = PR(lambda).
    numerator, d, lambdas = _cayley_numerator()
    p1, p2, p3 = d.ring.gens[:3]
    # d = 1 + |p|^2 > 0: Q is defined for every real p.
    positive = d == 1 + p1**2 + p2**2 + p3**2
    if not (positive and _rotated_traces_hold(numerator, d, lambdas)):
        # A polynomial identity that fails is not yet a point where the traces
        # differ; the 3 x 3 case is evidence for, not the statement.
        return Verdict.inconclusive(
            "3 x 3: with Q = N/d, one of N^T N = d^2 I, tr(N L N^T) = d^2 sum "
            "lambda, tr((N L N^T)^2) = d^4 sum lambda^2 is not a polynomial "
            "identity",
            Reason.UNDECIDED,
        )
    three = Verdict.holds(
        "exact in Z[p, lambda]: N^T N = d^2 I, tr(N L N^T) = d^2 sum lambda, "
        "tr((N L N^T)^2) = d^4 sum lambda^2",
        Basis.PROOF,
    )
    return conjunction(
        [two, three],
        f"2 x 2 symmetric [[a, b], [b, c]] with SymPy's eigenvalues: {two.detail}; "
        "3 x 3 Q diag(lambda) Q^T, Q = N/d = (I - S) adj(I + S)/det(I + S) a "
        "symbolic Cayley rotation (d = 1 + |p|^2 > 0), L = diag(lambda): "
        f"{three.detail}",
    )


def _check_pr_range() -> Verdict:
    shown = []
    for p in range(1, 7):
        lambdas = sp.symbols(f"lambda_1:{p + 1}", nonnegative=True)
        total = sp.Add(*lambdas)
        squares = sp.Add(*(v**2 for v in lambdas))
        pairs = list(itertools.combinations(lambdas, 2))
        cross = 2 * sp.Add(*(u * v for u, v in pairs))
        spread = sp.Add(*((u - v) ** 2 for u, v in pairs))
        lower = check_identity(total**2 - squares, cross)
        upper = check_identity(p * squares - total**2, spread)
        rewritings = {
            "(sum lambda)^2 - sum lambda^2 = 2 sum_{i<j} lambda_i lambda_j": lower,
            "p sum lambda^2 - (sum lambda)^2 = sum_{i<j} (lambda_i - lambda_j)^2": (
                upper
            ),
        }
        for rewriting, verdict in rewritings.items():
            if verdict.status == Status.FAILS:
                # Our rewriting of a gap, refuted: the argument is wrong, which
                # does not make the bounds false.
                return Verdict.inconclusive(
                    f"p = {p}: the step {rewriting} of our argument is false "
                    f"({verdict.detail}): the bounds are not shown",
                    Reason.UNDECIDED,
                )
        if lower.basis != Basis.PROOF or upper.basis != Basis.PROOF:
            # The identities only rewrite the gaps; a gap that is not rewritten
            # exactly is not shown of one sign, nor refuted.
            return Verdict.inconclusive(
                f"p = {p}: lower {lower.detail}; upper {upper.detail}",
                Reason.UNDECIDED,
            )
        if not (cross.is_nonnegative and spread.is_nonnegative):
            return Verdict.inconclusive(f"p = {p}: signs not decided", Reason.UNDECIDED)
        ones = [sp.Integer(1)] * p
        spike = [sp.Integer(1)] + [sp.Integer(0)] * (p - 1)
        if (
            reps.participation_ratio_of_eigenvalues(ones) != p
            or reps.participation_ratio_of_eigenvalues(spike) != 1
        ):
            return Verdict.inconclusive(
                f"p = {p}: the bounds are not attained (exact)", Reason.UNDECIDED
            )
        shown.append(p)
    return Verdict.holds(
        "for eigenvalues lambda_i >= 0 (C = X^T X / n is PSD), not all 0: "
        "(sum lambda)^2 - sum lambda^2 = 2 sum_{i<j} lambda_i lambda_j >= 0 and "
        "p sum lambda^2 - (sum lambda)^2 = sum_{i<j} (lambda_i - lambda_j)^2 >= 0 "
        f"(exact for p = {shown[0]}..{shown[-1]}; Lagrange's identity for every p), "
        "so 1 <= PR <= p, with PR = 1 for one nonzero eigenvalue and PR = p for "
        "equal ones",
        Basis.PROOF,
    )


def _check_ensd_cka() -> Verdict:
    cross = sp.Symbol("T_XY", nonnegative=True)
    gx, gy, gx2, gy2 = sp.symbols("T_X T_Y T_XX T_YY", positive=True)
    general = check_identity(
        reps.ensd_from_traces(cross, gx, gy, gx2, gy2),
        reps.linear_cka_from_traces(cross, gx2, gy2)
        * sp.sqrt((gx**2 / gx2) * (gy**2 / gy2)),
    )
    if general.status != Status.HOLDS:
        return general
    # The same through the matrix functions, on integer matrices (exact arithmetic).
    x = sp.Matrix([[1, -2], [3, 0], [-4, 2]])
    y = sp.Matrix([[2, 1], [-1, 1], [-1, -2]])
    explicit = check_identity(
        reps.ensd(x, y),
        reps.linear_cka(x, y)
        * sp.sqrt(
            reps.participation_ratio_of_data(x) * reps.participation_ratio_of_data(y)
        ),
    )
    return conjunction(
        [general, explicit],
        f"in the traces (positive for X, Y != 0): {general.detail}; on integer 3 x 2 "
        f"X, Y through the matrix formulas: {explicit.detail}",
    )


def _unmet_premises(units: sp.Matrix, variances: Sequence[sp.Expr]) -> list[str]:
    r"""What ``units`` misses of Appendix G's example: n mean-centred samples
    (rows) of uncorrelated units with these variances, i.e. every column of
    mean 0 and :math:`\mathbf{C}_X = \frac1n\mathbf{X}^\top\mathbf{X} =
    \operatorname{diag}(v)`, decided exactly; empty when it meets them."""
    unmet = []
    means = [sp.simplify(sum(units[:, j]) / units.rows) for j in range(units.cols)]
    if any(mean != 0 for mean in means):
        unmet.append(f"column means {means}, not all 0 (not mean-centred)")
    excess = (reps.covariance(units) - sp.diag(*variances)).applyfunc(sp.simplify)
    if not excess.is_zero_matrix:
        unmet.append(f"C_X - diag(v) = {excess}, not 0")
    return unmet


def _premises_unmet(unmet: list[str]) -> Verdict:
    return Verdict.inconclusive(
        "the responses built are not the example's mean-centred uncorrelated "
        f"units: {'; '.join(unmet)}",
        Reason.UNDECIDED,
    )


def _subset_ensd(variances: list[sp.Expr]) -> tuple[sp.Expr, list[str]]:
    """ENSD(X, Y) for X = 10 units of these variances and Y = its first five,
    and what X misses of the example's premises (:func:`_unmet_premises`)."""
    x = reps.uncorrelated_units([sp.sqrt(v) for v in variances])
    return sp.cancel(reps.ensd(x, x[:, :5])), _unmet_premises(x, variances)


def _check_ensd_subset_as_printed() -> Verdict:
    variances = list(sp.symbols("v_1:11", positive=True))
    value, unmet = _subset_ensd(variances)
    if unmet:
        return _premises_unmet(unmet)
    closed = (
        sp.Add(*variances) * sp.Add(*variances[:5]) / sp.Add(*(v**2 for v in variances))
    )
    form = check_identity(value, closed)
    counterexamples = {
        "variance 1 on the five shared units, 2 on the other five": [1] * 5 + [2] * 5,
        "variance 2 on one shared unit, 1 elsewhere": [2] + [1] * 9,
    }
    values = {
        label: sp.nsimplify(value.subs(dict(zip(variances, v, strict=True))))
        for label, v in counterexamples.items()
    }
    exact = all(v.is_Rational for v in values.values())
    if exact and all(v != 5 for v in values.values()):
        listing = "; ".join(f"{label}: ENSD = {v}" for label, v in values.items())
        return Verdict.fails(
            "X = 10 uncorrelated units (diagonal covariance with variances v_i), Y = "
            "units 1-5: ENSD = (sum_10 v)(sum_5 v)/sum_10 v^2 "
            f"({form.detail}), which is 5 only for equal variances. {listing}",
            Basis.PROOF,
            f"{listing} (exact rational arithmetic), not 5",
        )
    if exact and all(v == 5 for v in values.values()):
        return Verdict.inconclusive(
            f"ENSD = 5 at both variance profiles; in general ENSD = {value}",
            Reason.UNDECIDED,
        )
    return Verdict.inconclusive(f"ENSD = {values}", Reason.UNDECIDED)


def _exact_counterexample(
    value: sp.Expr, expected: int, point: dict[sp.Symbol, int]
) -> Verdict:
    """``fails`` when ``value`` at the integer ``point`` is an exact rational other
    than ``expected``, else ``inconclusive``."""
    at_point = value.subs(point)
    where = "all scales 1" if len(set(point.values())) == 1 else str(point)
    if at_point.is_Rational and at_point != expected:
        return Verdict.fails(
            f"ENSD = {value}, which is {at_point} at {where}, not {expected}",
            Basis.PROOF,
            f"at {where}: ENSD = {at_point} != {expected} (exact rational arithmetic)",
        )
    return Verdict.inconclusive(
        f"ENSD = {value}, not simplified to {expected}; at {where} it is {at_point}",
        Reason.UNDECIDED,
    )


def _check_ensd_subset_equal() -> Verdict:
    variance = sp.Symbol("v", positive=True)
    value, unmet = _subset_ensd([variance] * 10)
    if unmet:
        return _premises_unmet(unmet)
    if value == 5:
        return Verdict.holds(
            "exact: with all ten variances equal to v (X mean-centred, C_X = v I: "
            "exact), ENSD(X, Y) = 5 for every v (sympy.cancel of a rational "
            "function of v)",
            Basis.PROOF,
        )
    return _exact_counterexample(value, 5, {variance: 1})


def _check_ensd_disjoint() -> Verdict:
    scales_x = sp.symbols("sigma_1:11", positive=True)
    scales_y = sp.symbols("tau_1:6", positive=True)
    # Fifteen units, all pairwise uncorrelated: X the first ten, Y the last five.
    units = reps.uncorrelated_units([*scales_x, *scales_y])
    unmet = _unmet_premises(units, [s**2 for s in (*scales_x, *scales_y)])
    if unmet:
        return _premises_unmet(unmet)
    x, y = units[:, :10], units[:, 10:]
    value = sp.cancel(reps.ensd(x, y))
    if value == 0:
        return Verdict.holds(
            "exact: 10 + 5 mean-centred units with arbitrary variances, the "
            "covariance of all 15 diagonal (so X^T Y = 0), give ENSD = 0 "
            "(sympy.cancel)",
            Basis.PROOF,
        )
    return _exact_counterexample(value, 0, {s: 1 for s in (*scales_x, *scales_y)})


def _display_pr_range() -> sp.Basic:
    pr = reps.display_pr_traces().lhs
    return sp.And(
        sp.Le(1, pr, evaluate=False), sp.Le(pr, reps.units_atom, evaluate=False)
    )


# --- our float64 evaluators of Appendix G's measures


def _check_representation_numerics() -> Verdict:
    rng = np.random.default_rng(7)
    ensds, products = [], []
    for _ in range(20):
        x = rng.standard_normal((200, 8)) @ rng.standard_normal((8, 8))
        noise = 0.1 * rng.standard_normal((200, 6))
        y = x[:, :5] @ rng.standard_normal((5, 6)) + noise
        ensds.append(float(ensd(x, y)))
        products.append(
            float(cka(x, y))
            * float(np.sqrt(participation_ratio(x) * participation_ratio(y)))
        )
        pr = float(participation_ratio(x))
        if not 1 <= pr <= 8:
            return Verdict.inconclusive(
                f"participation_ratio gives {pr}, outside [1, 8] (float64, not "
                "certified)",
                Reason.UNDECIDED,
            )
    # Orthonormal columns orthogonal to the constant vector: mean-zero,
    # uncorrelated, equal variances.
    frame = np.column_stack([np.ones(500), rng.standard_normal((500, 10))])
    columns = np.linalg.qr(frame)[0][:, 1:]
    subset = float(ensd(columns, columns[:, :5]))
    worst = float(
        np.max(np.abs(np.array(ensds) - products) / np.abs(np.array(products)))
    )
    # Float64 traces: relative 1e-12 for the identity, 1e-9 for the example.
    identity_tolerance, example_tolerance = 1e-12, 1e-9
    verdict = conjunction(
        [
            check_close(
                ensds,
                products,
                identity_tolerance,
                what="ENSD against CKA sqrt(PR PR)",
                relative=True,
            ),
            check_close(
                subset, 5.0, example_tolerance, what="ENSD of 10 units and a 5-subset"
            ),
        ],
        f"numerics in float64: ENSD = CKA sqrt(PR PR) to {worst:.1e} on 20 random "
        f"pairs (relative tolerance {identity_tolerance:g}); PR in [1, p]; 10 "
        "equal-variance uncorrelated units and a 5-unit subset: ENSD = "
        f"{subset:.12f} (tolerance {example_tolerance:g})",
    )
    if verdict.status == Status.FAILS:
        return Verdict.inconclusive(
            f"{verdict.detail}: above the tolerances {identity_tolerance:g} / "
            f"{example_tolerance:g} (float64, not "
            "certified)",
            Reason.UNDECIDED,
        )
    return verdict


_UNITS = measured("units_p", "p", positive=True)
_SUBSET_ENSD = measured(
    "ensd_subset", r"\operatorname{ENSD}(X_{10}, X_{5})", positive=True
)


def _representation_formula() -> sp.Basic:
    rt = reps
    return sp.And(
        sp.Eq(rt.ensd_xy, rt.cka_xy * sp.sqrt(rt.pr_x * rt.pr_y), evaluate=False),
        sp.Le(1, rt.pr_x, evaluate=False),
        sp.Le(rt.pr_x, _UNITS, evaluate=False),
        sp.Eq(_SUBSET_ENSD, 5, evaluate=False),
    )


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "sec-G",
        "pr-trace-forms",
        Kind.IDENTITY,
        "trace(C_X)^2/trace(C_X^2) = trace(X^T X)^2/trace(X^T X X^T X) with "
        "C_X = X^T X / n",
        RelationCheck(_relation_pr_trace_forms, _judge_pr_trace_forms),
        Status.HOLDS,
        formula=reps.display_pr_traces,
        quote=(
            r"PR(X) = \frac{(\sum_{i=1}^p \lambda_i)^2}{\sum_{i=1}^p \lambda_i^2} = "
            r"\frac{\text{trace}(\mathbf{C}_X)^2}{\text{trace}(\mathbf{C}_X^2)} = "
            r"\frac{\text{trace}(\mathbf{X}^\top "
            r"\mathbf{X})^2}{\text{trace}(\mathbf{X}^\top \mathbf{X} \mathbf{X}^\top "
            r"\mathbf{X})}"
        ),
        reading=Reading.PRINTED,
        regime="3 x 2 real symbolic X, symbolic n > 0, as the definition is stated",
    ),
    Claim(
        SOURCE_ID,
        "sec-G",
        "pr-eigenvalues",
        Kind.IDENTITY,
        "(sum lambda_i)^2/sum lambda_i^2 = trace(C_X)^2/trace(C_X^2), lambda_i the "
        "eigenvalues of C_X",
        _check_pr_eigenvalues,
        Status.HOLDS,
        assumptions=("C_X symmetric",),
        formula=reps.display_pr_eigenvalues,
        quote=(
            r"PR(X) = \frac{(\sum_{i=1}^p \lambda_i)^2}{\sum_{i=1}^p \lambda_i^2} = "
            r"\frac{\text{trace}(\mathbf{C}_X)^2}{\text{trace}(\mathbf{C}_X^2)} = "
            r"\frac{\text{trace}(\mathbf{X}^\top "
            r"\mathbf{X})^2}{\text{trace}(\mathbf{X}^\top \mathbf{X} \mathbf{X}^\top "
            r"\mathbf{X})}"
        ),
        reading=Reading.PRINTED,
        regime=(
            "2 x 2 real symmetric C_X, and 3 x 3 C_X = Q diag(lambda) Q^T with a "
            "symbolic rotation Q: the text's covariance matrices"
        ),
    ),
    Claim(
        SOURCE_ID,
        "sec-G",
        "pr-range",
        Kind.INEQUALITY,
        "the PR scales from 1 to p",
        _check_pr_range,
        Status.HOLDS,
        assumptions=("C_X = X^T X / n positive semidefinite, C_X != 0",),
        formula=_display_pr_range,
        quote="The PR scales from 1 to p",
        reading=Reading.PROSE,
        regime=(
            "eigenvalues lambda_i >= 0, not all 0, p = 1..6 exactly (Lagrange's "
            "identity for every p): PSD covariances as in the text"
        ),
    ),
    Claim(
        SOURCE_ID,
        "sec-G",
        "ensd-cka",
        Kind.IDENTITY,
        "ENSD(X, Y) = CKA(X, Y) sqrt(PR(X) PR(Y)) with linear CKA "
        "tr(Y^T X X^T Y)/sqrt(tr((X^T X)^2) tr((Y^T Y)^2))",
        _check_ensd_cka,
        Status.HOLDS,
        assumptions=("X, Y != 0",),
        formula=reps.display_ensd_cka,
        quote=(
            "This measure is equal to the centered kernel alignment (CKA), a measure "
            "of similarity of two network representations ([Kornblith et al., "
            "2019a](#)), multiplied by the geometric mean of the participation ratios "
            "of the two representations."
        ),
        reading=Reading.PROSE,
        regime=(
            "X, Y != 0 with positive traces, and integer 3 x 2 X, Y: CKA linear and "
            "uncentred on the text's mean-centred responses"
        ),
    ),
    Claim(
        SOURCE_ID,
        "sec-G",
        "ensd-subset",
        Kind.IDENTITY,
        "if X consists of 10 uncorrelated units and Y is a subset of five of them, "
        "ENSD(X, Y) = 5",
        _check_ensd_subset_as_printed,
        Status.FAILS,
        assumptions=("uncorrelated: diagonal covariance (any variances)",),
        formula=lambda: sp.Eq(reps.display_ensd().lhs, 5),
        quote=(
            r"if \mathbf{X} consists of 10 uncorrelated units, if \mathbf{Y} is taken "
            r"from a subset of five of those units, the $ENSD(\mathbf{X}, "
            r"\mathbf{Y})$ will be 5"
        ),
        reading=Reading.INTERPRETATION,
        regime=(
            "10 units with exactly diagonal covariance and ANY positive variances: "
            "our reading; the text says only 'uncorrelated', not 'equal variance'"
        ),
    ),
    Claim(
        SOURCE_ID,
        "sec-G",
        "ensd-subset-equal-variances",
        Kind.IDENTITY,
        "if X consists of 10 uncorrelated units of equal variance and Y is a subset of "
        "five of them, ENSD(X, Y) = 5",
        _check_ensd_subset_equal,
        Status.HOLDS,
        assumptions=("diagonal covariance", "equal variances"),
        corrects=claim_id("sec-G", "ensd-subset"),
        formula=lambda: sp.Eq(reps.display_ensd().lhs, 5),
        quote=(
            r"if \mathbf{X} consists of 10 uncorrelated units, if \mathbf{Y} is taken "
            r"from a subset of five of those units, the $ENSD(\mathbf{X}, "
            r"\mathbf{Y})$ will be 5"
        ),
        reading=Reading.INTERPRETATION,
        regime=(
            "10 uncorrelated units of equal variance v > 0: our reading of the "
            "example under which it holds (then PR(X) = 10, as the example implies)"
        ),
    ),
    Claim(
        SOURCE_ID,
        "sec-G",
        "ensd-disjoint",
        Kind.IDENTITY,
        "if Y is five uncorrelated units uncorrelated with all those of X, "
        "ENSD(X, Y) = 0",
        _check_ensd_disjoint,
        Status.HOLDS,
        assumptions=("X^T Y = 0", "any variances"),
        formula=lambda: sp.Eq(reps.display_ensd().lhs, 0),
        quote=(
            r"If \mathbf{Y} is taken to be five uncorrelated units that are "
            r"themselves uncorrelated with all those in \mathbf{X} , the "
            r"$ENSD(\mathbf{X}, \mathbf{Y})$ will be zero."
        ),
        reading=Reading.PROSE,
        regime=(
            "10 + 5 mean-centred units with exactly diagonal covariances, any "
            "positive variances, X^T Y = 0: the text's example"
        ),
    ),
)


#: The claim on our evaluators of the measures, listed after the other
#: appendices' trained networks in the source's claims.
EVALUATOR_CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "sec-G",
        "numerics",
        Kind.NUMERIC,
        "participation_ratio, cka and ensd satisfy ENSD = CKA sqrt(PR PR), PR in "
        "[1, p], and the 10/5-units example",
        _check_representation_numerics,
        Status.HOLDS,
        formula=_representation_formula,
        quote=(
            "This measure is equal to the centered kernel alignment (CKA), a measure "
            "of similarity of two network representations ([Kornblith et al., "
            "2019a](#)), multiplied by the geometric mean of the participation ratios "
            "of the two representations."
        ),
        reading=Reading.EXTENSION,
        regime=(
            "20 random 200 x 8 / 200 x 6 float64 pairs and 10 equal-variance "
            "orthonormal units: our evaluators against the identities, relative "
            "tolerance 1e-12 (float64 traces)"
        ),
    ),
)
