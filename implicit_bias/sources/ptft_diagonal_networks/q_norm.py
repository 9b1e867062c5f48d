r"""Claims of ptft-diagonal-networks: the Q-norm and its potential, eqs. (22)-(23).

The implicit bias of gradient flow from :math:`w_+(0) = w_-(0) = w_0`: the
limit :math:`\beta(\infty)` of eq. (21) minimizes the Q-norm (22) among
interpolating solutions, and the potential :math:`q` of (23) is
:math:`\ell_2`-like near 0 and :math:`\ell_1`-like (up to a logarithm) at
infinity. The KKT check uses the explicit instance of :mod:`.gradient_flow`.
"""

from __future__ import annotations

import sympy as sp

from implicit_bias.claims.checks import (
    RelationCheck,
    check_identity,
    check_series,
    judge_relation,
    relation_check,
)
from implicit_bias.claims.engine import (
    Basis,
    CheckTimeout,
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
    conjunction,
    time_limit,
)
from implicit_bias.sources.ptft_diagonal_networks._common import (
    SIZE,
    check_entries,
    symbolic_vector,
)
from implicit_bias.sources.ptft_diagonal_networks.source import SOURCE_ID
from implicit_bias.theory import diagonal_networks as theory
from implicit_bias.theory.symbols import gamma

__all__ = ["CLAIMS"]


#: CPU seconds to expand a series whose comparison check_series left undecided.
_SERIES_SECONDS = 30.0

_z = sp.Symbol("z", real=True)


def _pointwise(expression: sp.Expr) -> sp.Expr:
    """``expression`` with its derivatives carried out, evaluated pointwise away
    from the zeros of their arguments: sign(a) = a/|a| and DiracDelta(a) = 0
    for a != 0 (so that ball arithmetic can certify a counterexample)."""
    return (
        expression.doit()
        .replace(sp.sign, lambda a: a / sp.Abs(a))
        .replace(sp.DiracDelta, lambda *_: sp.S.Zero)
    )


def _evaluated(relation: sp.Basic) -> sp.Basic:
    """``relation`` with its derivatives carried out, still unevaluated itself."""
    if not isinstance(relation, sp.core.relational.Relational):
        raise AssertionError("isinstance(relation, sp.core.relational.Relational)")
    return type(relation)(
        _pointwise(relation.lhs), _pointwise(relation.rhs), evaluate=False
    )


def _judge_evaluated(relation: sp.Basic) -> Verdict:
    """:func:`judge_relation` of ``relation`` with its derivatives carried out."""
    return judge_relation(_evaluated(relation))


def _relation_q_gradient() -> sp.Eq:
    """d/dbeta_d of the summand of (22) against 2 asinh(beta_d/k_d)."""
    beta, k = theory.beta_d, theory.k_d
    return sp.Eq(
        sp.Derivative(theory.q_norm_term(beta, k), beta),
        2 * sp.asinh(beta / k),
        evaluate=False,
    )


def _relation_ptft_coefficient() -> sp.Eq:
    """k_d of (22) at (w0)^(1) = sqrt|beta_aux|, (w0)^(2) = gamma."""
    return sp.Eq(
        theory.ptft_coefficient(theory.beta_aux_d, gamma),
        sp.Abs(theory.beta_aux_d) + gamma**2,
        evaluate=False,
    )


def _relation_q_derivative() -> sp.Eq:
    """q'(z) = asinh(z/2) for q of (23)."""
    return sp.Eq(
        sp.Derivative(theory.q_potential(theory.z), theory.z),
        sp.asinh(theory.z / 2),
        evaluate=False,
    )


def _relation_q_second_derivative() -> sp.Eq:
    """q''(z) = 1/sqrt(4 + z^2) for q of (23)."""
    return sp.Eq(
        sp.Derivative(theory.q_potential(theory.z), (theory.z, 2)),
        1 / sp.sqrt(4 + theory.z**2),
        evaluate=False,
    )


def _judge_q_convex(relation: sp.Basic) -> Verdict:
    """The identity q'' = f, then f > 0: the whole statement q'' = f > 0."""
    if not isinstance(relation, sp.Eq):
        raise AssertionError("isinstance(relation, sp.Eq)")
    identity = _judge_evaluated(relation)
    if identity.status != Status.HOLDS:
        return identity.with_detail(f"q'' = {relation.rhs}: {identity.detail}")
    positive = judge_relation(sp.Gt(relation.rhs, 0, evaluate=False))
    return conjunction(
        [identity, positive],
        f"q'' = {sp.sstr(relation.rhs)} ({identity.detail}), which is > 0 "
        f"({positive.detail})",
    )


def _asinh_of_sinh(expression: sp.Expr) -> sp.Expr:
    """Rewrite asinh(sinh(a)) as a: asinh is the inverse of sinh on the reals."""
    return expression.replace(
        lambda e: isinstance(e, sp.asinh) and isinstance(e.args[0], sp.sinh),
        lambda e: e.args[0].args[0],
    )


def _check_kkt() -> Verdict:
    x = theory.data_matrix()
    r_integral = symbolic_vector("R", theory.SAMPLES)
    u = x.T * r_integral
    ks = [sp.Symbol(f"k_{i + 1}", positive=True) for i in range(theory.DIMENSION)]
    betas = sp.symbols(f"beta_1:{theory.DIMENSION + 1}", real=True)
    penalty = theory.q_norm(betas, ks)
    gradient = sp.Matrix([sp.diff(penalty, b) for b in betas])
    closed = sp.Matrix([2 * sp.asinh(b / k) for b, k in zip(betas, ks, strict=True)])
    form = check_entries(gradient, closed)
    if form.status != Status.HOLDS:
        return form.with_detail(f"gradient of (22): {form.detail}")
    # beta(oo) of eq. (21): k_d sinh(-4 (X^T int_0^oo r)_d); multiplier nu = -8 R.
    solution = {
        b: k * sp.sinh(-4 * u[i])
        for i, (b, k) in enumerate(zip(betas, ks, strict=True))
    }
    at_solution = closed.subs(solution).applyfunc(_asinh_of_sinh)
    stationarity = check_entries(at_solution, x.T * (-8 * r_integral))
    if stationarity.status != Status.HOLDS:
        return stationarity.with_detail(f"stationarity: {stationarity.detail}")
    curvature = [sp.simplify(sp.diff(c, b)) for c, b in zip(closed, betas, strict=True)]
    if not all(c.is_positive for c in curvature):
        return Verdict.inconclusive(
            f"could not show convexity: {curvature}", Reason.UNDECIDED
        )
    return conjunction(
        [form, stationarity],
        f"grad ||beta||_Q = 2 asinh(beta/k) ({form.detail}); at beta = k o "
        "sinh(-4 X^T R), R = int_0^oo r, it is -8 X^T R = X^T nu with nu = -8 R "
        f"(asinh(sinh a) = a for real a; {stationarity.detail}); ||beta||_Q is "
        f"separable with second derivatives {', '.join(sp.sstr(c) for c in curvature)}"
        " > 0, so stationarity and X beta = y make beta(oo) the unique minimizer",
    )


def _judge_series(relation: sp.Basic) -> Verdict:
    """``Eq(f, g + O(x**n))`` (x -> 0) or ``Eq(f, g + O(x**-n, (x, oo)))`` as
    :func:`check_series` of f against g to that order (at infinity in
    epsilon = 1/x > 0, logarithms written out); a relation without an order
    term is an identity, judged by :func:`judge_relation`."""
    if not isinstance(relation, sp.Eq):
        raise AssertionError("isinstance(relation, sp.Eq)")
    expression, stated = relation.lhs, relation.rhs
    order = stated.getO() if isinstance(stated, sp.Expr) else None
    if order is None:
        return judge_relation(relation)
    expected = stated.removeO()
    variable, point = order.variables[0], order.point[0]
    base, exponent = order.expr.as_base_exp()
    if base != variable or not exponent.is_Integer:
        return Verdict.inconclusive(
            f"the order term {sp.sstr(order)} is not a power of {variable}",
            Reason.UNEVALUATED,
        )
    if point == 0:
        at_zero = (expression, variable, expected, int(exponent))
    elif point is sp.oo:
        eps = sp.Symbol("epsilon", positive=True)
        at_zero = (
            expression.subs(variable, 1 / eps).rewrite(sp.log),
            eps,
            expected.subs(variable, 1 / eps),
            -int(exponent),
        )
    else:
        return Verdict.inconclusive(
            f"an expansion at {point} is not supported", Reason.UNEVALUATED
        )
    verdict = check_series(*at_zero)
    if verdict.status != Status.INCONCLUSIVE:
        return verdict
    return _coefficient_mismatch(*at_zero) or verdict


def _coefficient_mismatch(
    expression: sp.Expr, variable: sp.Symbol, expected: sp.Expr, order: int
) -> Verdict | None:
    """``fails`` when the truncated series of ``expression`` and ``expected``
    differ in the coefficient of some monomial variable^a log(variable)^b
    (these are linearly independent functions, so one coefficient that SymPy
    shows nonzero refutes the expansion); None when none is shown nonzero."""
    try:
        with time_limit(_SERIES_SECONDS):
            series = sp.series(expression, variable, 0, order).removeO()
            difference = sp.expand(series - expected)
            coefficients: dict[sp.Expr, sp.Expr] = {}
            for term in sp.Add.make_args(difference):
                coefficient, monomial = term.as_independent(variable, as_Add=False)
                coefficients[monomial] = coefficients.get(monomial, 0) + coefficient
            for monomial, coefficient in coefficients.items():
                coefficient = sp.simplify(coefficient)
                if coefficient.is_zero is False:
                    return Verdict.fails(
                        f"series to O({variable}**{order}) minus the stated terms has "
                        f"the coefficient {sp.sstr(coefficient)} != 0 at "
                        f"{sp.sstr(monomial)} (exact)",
                        Basis.PROOF,
                        f"coefficient of {sp.sstr(monomial)}: {sp.sstr(coefficient)}",
                    )
    except CheckTimeout:
        return None
    return None


def _relation_q_norm_near_zero() -> sp.Eq:
    """k q(2 beta/k) = beta^2/k - beta^4/(12 k^3) + O(beta^6)."""
    beta, k = theory.beta_d, theory.k_d
    return sp.Eq(
        theory.q_norm_term(beta, k),
        beta**2 / k - beta**4 / (12 * k**3) + sp.O(beta**6),
        evaluate=False,
    )


def _check_q_even_zero() -> Verdict:
    q = theory.q_potential(_z)
    at_zero = sp.simplify(q.subs(_z, 0))
    slope = sp.simplify(sp.diff(q, _z).subs(_z, 0))
    even = check_identity(q.subs(_z, -_z), q)
    for name, value in (("q(0)", at_zero), ("q'(0)", slope)):
        if value.is_number and value.is_zero is False:
            return Verdict.fails(
                f"{name} = {sp.sstr(value)}, not 0 (exact)",
                Basis.PROOF,
                f"{name} = {sp.sstr(value)} != 0",
            )
    if even.status != Status.HOLDS:
        # check_identity's fails is certified at its counterexample.
        return even.with_detail(f"q(-z) = q(z): {even.detail}")
    if at_zero != 0 or slope != 0:
        return Verdict.inconclusive(
            f"q(0) = {at_zero}, q'(0) = {slope}: not simplified to 0",
            Reason.UNDECIDED,
        )
    if even.basis is None:
        raise AssertionError("even.basis is not None")
    return Verdict.holds(
        f"q(0) = 0, q'(0) = 0 (exact), q(-z) = q(z) ({even.detail}); with q'' > 0, "
        "q(z) >= 0 with equality only at 0",
        even.basis,
    )


def _relation_q_small_z() -> sp.Eq:
    """q(z) = z^2/4 - z^4/192 + O(z^6) for q of (23)."""
    return sp.Eq(
        theory.q_potential(theory.z),
        theory.q_small_z(theory.z) + sp.O(theory.z**6),
        evaluate=False,
    )


def _relation_q_large_z() -> sp.Eq:
    """q(|z|) = |z| log|z| - |z| + 2 - 1/|z| + O(|z|^-3) as |z| -> oo."""
    # |z| as a positive atom: sympy.Order cannot expand Abs at infinity.
    a = theory.z_abs
    return sp.Eq(
        theory.q_potential(a),
        theory.q_large_z(a) + sp.O(a**-3, (a, sp.oo)),
        evaluate=False,
    )


def _judge_q_large_z(relation: sp.Basic) -> Verdict:
    verdict = _judge_series(relation)
    if verdict.status != Status.HOLDS:
        return verdict
    return verdict.with_detail(
        f"with |z| = 1/epsilon > 0: {verdict.detail}; q is even, so for |z| -> oo "
        "q(z) = |z| log|z| - |z| + 2 - 1/|z| + O(|z|^-3) and "
        "k q(2 beta/k) = 2|beta| log(2|beta|/k) - 2|beta| + 2k + O(k^2/|beta|): "
        "l1 up to the logarithm"
    )


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "22",
        "gradient",
        Kind.IDENTITY,
        "d/dbeta_d [k_d q(2 beta_d/k_d)] = 2 asinh(beta_d/k_d), the inverse of the "
        "sinh form (21)",
        RelationCheck(_relation_q_gradient, _judge_evaluated),
        Status.HOLDS,
        assumptions=("k_d = (w0_d^(1))^2 + (w0_d^(2))^2 > 0",),
        formula=_relation_q_gradient,
        quote=(
            r"\|\beta_d\|_Q := \sum_{d=1}^D \left(((w_0)_d^{(1)})^2 + "
            r"((w_0)_d^{(2)})^2 \right) q \left(\frac{2\beta_d}{((w_0)_d^{(1)})^2 + "
            r"((w_0)_d^{(2)})^2} \right)"
        ),
        reading=Reading.INTERPRETATION,
        regime=(
            "all real beta_d, k_d > 0: the step from the sinh form (21) to the "
            "penalty (22) that the text leaves to Woodworth et al.'s argument"
        ),
    ),
    Claim(
        SOURCE_ID,
        "22",
        "kkt",
        Kind.IDENTITY,
        "beta(oo) of (21) satisfies the KKT conditions of min ||beta||_Q s.t. "
        "X beta = y (multiplier nu = -8 int_0^oo r), so it minimizes (22) among "
        "interpolating solutions",
        _check_kkt,
        Status.HOLDS,
        assumptions=(
            "beta(oo) interpolates: X beta(oo) = y",
            "int_0^oo r converges",
            "k_d > 0",
            SIZE,
        ),
        formula=theory.display_eq22,
        quote=(
            r"it follows that under the assumption that $\vec{\beta}(\infty)$ fits "
            r"the training data with zero error, among all such solutions, "
            r"$\vec{\beta}(\infty)$ minimizes the penalty"
        ),
        reading=Reading.PROSE,
        regime=(
            "X beta(oo) = y, int_0^oo r convergent, k_d > 0, explicit instance D = 2, "
            "n = 2 with real symbolic X, y and weights: the text's assumption that "
            "beta(oo) 'fits the training data with zero error'"
        ),
    ),
    Claim(
        SOURCE_ID,
        "22",
        "l2-near-zero",
        Kind.LIMIT,
        "k q(2 beta/k) = beta^2/k - beta^4/(12 k^3) + O(beta^6): a weighted l2 "
        "penalty for small beta (our expansion)",
        RelationCheck(_relation_q_norm_near_zero, _judge_series),
        Status.HOLDS,
        assumptions=("k > 0",),
        quote="",
        reading=Reading.EXTENSION,
        regime=(
            "beta -> 0 at fixed k > 0 (series to O(beta^6)): a consequence the text "
            "does not draw"
        ),
    ),
    Claim(
        SOURCE_ID,
        "22",
        "ptft-coefficient",
        Kind.IDENTITY,
        "with (w0)_d^(2) = gamma and (w0)_d^(1) = sqrt|beta_aux_d|, "
        "k_d = |beta_aux_d| + gamma^2",
        relation_check(_relation_ptft_coefficient),
        Status.HOLDS,
        assumptions=("balanced pretraining (constant magnitude alpha)",),
        formula=_relation_ptft_coefficient,
        quote=(
            r"the assumption of constant magnitude α in the initialization of the "
            r"first and second-layer weights implies $(w_0)_d^{(1)} = "
            r"\sqrt{|\beta_d^{aux}|}$"
        ),
        reading=Reading.INTERPRETATION,
        regime=(
            "all real beta_aux_d and gamma: the text's PT+FT initialization (w0^(2) = "
            "gamma, w0^(1) = sqrt|beta_aux|) substituted into k_d of (22); the text "
            "only says 'the result in Equation 3 follows'"
        ),
    ),
    Claim(
        SOURCE_ID,
        "23",
        "derivative",
        Kind.IDENTITY,
        "q'(z) = asinh(z/2)",
        RelationCheck(_relation_q_derivative, _judge_evaluated),
        Status.HOLDS,
        formula=_relation_q_derivative,
        quote=r"q(z) = 2 - \sqrt{4 + z^2} + z \cdot \operatorname{arcsinh}(z/2)",
        reading=Reading.INTERPRETATION,
        regime=(
            "all real z, as (23) is stated: q' = asinh(z/2) is what makes (22) the "
            "inverse of the sinh form (21), implied by the text's 'it follows'"
        ),
    ),
    Claim(
        SOURCE_ID,
        "23",
        "convex",
        Kind.INEQUALITY,
        "q''(z) = 1/sqrt(4 + z^2) > 0: q is strictly convex",
        RelationCheck(_relation_q_second_derivative, _judge_q_convex),
        Status.HOLDS,
        quote=r"q(z) = 2 - \sqrt{4 + z^2} + z \cdot \operatorname{arcsinh}(z/2)",
        reading=Reading.INTERPRETATION,
        regime=(
            "all real z, as (23) is stated: strict convexity is what makes the "
            "minimizer of (22) unique, implied by the text's 'minimizes the penalty'"
        ),
    ),
    Claim(
        SOURCE_ID,
        "23",
        "even-nonnegative",
        Kind.IDENTITY,
        "q(0) = 0, q is even and q >= 0",
        _check_q_even_zero,
        Status.HOLDS,
        formula=theory.display_eq23,
        quote=r"q(z) = 2 - \sqrt{4 + z^2} + z \cdot \operatorname{arcsinh}(z/2)",
        reading=Reading.EXTENSION,
        regime="all real z: properties of (23) the text does not state",
    ),
    Claim(
        SOURCE_ID,
        "23",
        "small-z",
        Kind.LIMIT,
        "q(z) = z^2/4 - z^4/192 + O(z^6) (l2-like near 0)",
        RelationCheck(_relation_q_small_z, _judge_series),
        Status.HOLDS,
        quote=r"q(z) = 2 - \sqrt{4 + z^2} + z \cdot \operatorname{arcsinh}(z/2)",
        reading=Reading.EXTENSION,
        regime="z -> 0 (series to O(z^6)): a consequence the text does not draw",
    ),
    Claim(
        SOURCE_ID,
        "23",
        "large-z",
        Kind.LIMIT,
        "q(z) = |z| log|z| - |z| + 2 - 1/|z| + O(|z|^-3) as |z| -> oo (l1-like up to "
        "the log)",
        RelationCheck(_relation_q_large_z, _judge_q_large_z),
        Status.HOLDS,
        quote=r"q(z) = 2 - \sqrt{4 + z^2} + z \cdot \operatorname{arcsinh}(z/2)",
        reading=Reading.EXTENSION,
        regime=(
            "|z| -> oo (series in 1/|z| to O(|z|^-3)): a consequence the text does "
            "not draw"
        ),
    ),
)
