r"""Claims of ptft-diagonal-networks: eqs. (7)-(35) and Appendix G, symbolically.

Conventions (the paper leaves them open): gradient flow is
:math:`\dot w = -\nabla L` and the residual is
:math:`r = \tilde X(w^{(1)}\circ w^{(2)}) - y = X\beta - y` (Woodworth et al.
2020, whose notation the paper adopts); :math:`R(t) = \int_0^t r` and
:math:`u = X^\top R`. The vector identities are checked on an explicit instance
with :data:`~implicit_bias.theory.diagonal_networks.DIMENSION` inputs and
:data:`~implicit_bias.theory.diagonal_networks.SAMPLES` samples whose entries
are real symbols; the multi-task identities with explicit output dimensions.
Appendix G's measures are checked on explicit symbolic matrices.

The numeric and simulation claims of the source (the Q-norm and
:math:`\ell_{1,2}` minimizers, trained networks) are in :mod:`.numeric`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import sympy as sp

from implicit_bias.claims.checks import check_identity, check_series
from implicit_bias.claims.engine import Claim, Kind, Status, Verdict
from implicit_bias.theory import diagonal_networks as theory
from implicit_bias.theory import representations as reps
from implicit_bias.theory.symbols import gamma

__all__ = ["CLAIMS", "SOURCE"]

SOURCE = "ptft-diagonal-networks"
_ID = f"{SOURCE}:{{}}"


def _claim_id(equation: str, label: str) -> str:
    return _ID.format(f"{equation}:{label}")


def _check_entries(lhs: sp.Matrix, rhs: sp.Matrix) -> Verdict:
    """:func:`check_identity` entry by entry; the first entry that does not hold."""
    details = []
    for index, (a, b) in enumerate(zip(lhs, rhs, strict=True), start=1):
        verdict = check_identity(a, b)
        if verdict.status != Status.HOLDS:
            return Verdict(verdict.status, f"entry {index}: {verdict.detail}")
        details.append(verdict.detail)
    if all(d.startswith("exact") for d in details):
        return Verdict.holds(f"exact, all {len(details)} entries: lhs - rhs = 0")
    return Verdict.holds(f"all {len(details)} entries: " + "; ".join(set(details)))


def _instance() -> tuple[sp.Matrix, sp.Matrix, sp.Matrix, sp.Matrix, sp.Matrix]:
    x = theory.data_matrix()
    x_tilde = theory.stacked_data(x)
    return (
        x,
        theory.targets(),
        x_tilde,
        theory.layer_weights(1),
        theory.layer_weights(2),
    )


def _vector(name: str, size: int) -> sp.Matrix:
    return sp.Matrix([sp.Symbol(f"{name}_{i + 1}", real=True) for i in range(size)])


_SIZE = f"D = {theory.DIMENSION}, n = {theory.SAMPLES}, symbolic X and y"


# --- eqs. (7)-(14): gradient flow and the change of variables


def _check_stacked_model() -> Verdict:
    x, _, x_tilde, w1, w2 = _instance()
    return _check_entries(
        x_tilde * theory.hadamard(w1, w2), x * theory.effective_weights(w1, w2)
    )


def _check_gradient_as_printed(layer: int) -> Verdict:
    _, y, x_tilde, w1, w2 = _instance()
    weights, other = (w1, w2) if layer == 1 else (w2, w1)
    gradient = theory.loss_gradient(theory.squared_loss(x_tilde, y, w1, w2), weights)
    r = theory.residual(x_tilde, y, w1, w2)
    printed = -2 * theory.hadamard(x_tilde.T * r, other)
    as_printed = _check_entries(gradient, printed)
    if as_printed.status == Status.HOLDS:
        return Verdict.holds(f"grad L = -2 X~^T r o w{3 - layer} ({as_printed.detail})")
    excess = _check_entries(
        gradient - printed, 4 * theory.hadamard(x_tilde.T * r, other)
    )
    flipped = _check_entries(gradient, -2 * theory.hadamard(x_tilde.T * (-r), other))
    other_name = f"w{3 - layer}"
    return Verdict.fails(
        f"with r = X~(w1 o w2) - y, grad_w{layer} L - (-2 X~^T r o {other_name}) = "
        f"4 X~^T r o {other_name} ({excess.detail}), not 0 ({as_printed.detail}). "
        f"'grad L = -2 X~^T r o {other_name}' holds only with the residual sign "
        f"flipped, r := y - X~(w1 o w2) ({flipped.detail}), and then 'w_dot = grad L' "
        "is gradient ascent on L: no sign convention for r makes the printed chain "
        f"gradient descent. Its outer equality w{layer}_dot = -2 X~^T r o "
        f"{other_name} is gradient flow (w_dot = -grad L) with r = X~(w1 o w2) - y"
    )


def _check_gradient_flow(layer: int) -> Verdict:
    _, y, x_tilde, w1, w2 = _instance()
    weights = w1 if layer == 1 else w2
    flow = -theory.loss_gradient(theory.squared_loss(x_tilde, y, w1, w2), weights)
    r = theory.residual(x_tilde, y, w1, w2)
    rhs = (
        theory.flow_rhs_eq8(x_tilde, r, w2)
        if layer == 1
        else theory.flow_rhs_eq9(x_tilde, r, w1)
    )
    verdict = _check_entries(flow, rhs)
    return Verdict(
        verdict.status, f"-grad L vs printed right-hand side: {verdict.detail}"
    )


def _check_change_of_variables(which: str) -> Verdict:
    # (8)-(9) with an arbitrary residual vector r: the step does not depend on r.
    _, _, x_tilde, w1, w2 = _instance()
    r = _vector("r", theory.SAMPLES)
    w1_dot = theory.flow_rhs_eq8(x_tilde, r, w2)
    w2_dot = theory.flow_rhs_eq9(x_tilde, r, w1)
    if which == "s":
        lhs = (w1_dot + w2_dot) / 2
        rhs = theory.flow_rhs_eq10(x_tilde, r, theory.sum_coordinates(w1, w2))
    else:
        lhs = (w1_dot - w2_dot) / 2
        rhs = theory.flow_rhs_eq11(x_tilde, r, theory.difference_coordinates(w1, w2))
    verdict = _check_entries(lhs, rhs)
    return Verdict(
        verdict.status,
        f"({which}_dot from (8)-(9), any r) vs (1{'0' if which == 's' else '1'}): "
        f"{verdict.detail}",
    )


def _check_closed_form(which: str) -> Verdict:
    _, _, x_tilde, _, _ = _instance()
    r_integral = theory.integrated_residual()
    size = x_tilde.cols
    init = _vector(f"{which}0", size)
    if which == "s":
        solution = theory.solution_eq13(init, x_tilde, r_integral)
        rhs = theory.flow_rhs_eq10(x_tilde, r_integral.diff(theory.t), solution)
    else:
        solution = theory.solution_eq14(init, x_tilde, r_integral)
        rhs = theory.flow_rhs_eq11(x_tilde, r_integral.diff(theory.t), solution)
    ode = _check_entries(solution.diff(theory.t), rhs)
    if ode.status != Status.HOLDS:
        return Verdict(ode.status, f"ODE: {ode.detail}")
    at_zero = solution.subs(theory.t, 0).subs(
        {f.subs(theory.t, 0): 0 for f in r_integral}
    )
    start = _check_entries(at_zero, init)
    if start.status != Status.HOLDS:
        return Verdict(start.status, f"initial value: {start.detail}")
    return Verdict.holds(
        "d/dt of the closed form is the ODE's right-hand side with r = R' "
        f"({ode.detail}); "
        f"at t = 0 (R(0) = 0) it is {which}(0) ({start.detail})"
    )


# --- eqs. (15)-(21): beta under w_+(0) = w_-(0) = w_0


def _scalar_halves() -> tuple[sp.Expr, ...]:
    a_p, b_p, a_m, b_m = sp.symbols("a_p b_p a_m b_m", real=True)
    return a_p, b_p, a_m, b_m


def _check_eq16() -> Verdict:
    a_p, b_p, a_m, b_m = _scalar_halves()
    beta = a_p * b_p - a_m * b_m
    return check_identity(
        beta,
        theory.beta_eq16(
            (a_p + b_p) / 2, (a_p - b_p) / 2, (a_m + b_m) / 2, (a_m - b_m) / 2
        ),
    )


def _check_eq17() -> Verdict:
    s_p, d_p, s_m, d_m = sp.symbols("s_p d_p s_m d_m", real=True)
    return check_identity(
        theory.beta_eq16(s_p, d_p, s_m, d_m), theory.beta_eq17(s_p, d_p, s_m, d_m)
    )


def _beta_from_flow() -> tuple[sp.Matrix, sp.Matrix, sp.Matrix, sp.Matrix]:
    """beta(t) from (13)-(14) and (17) with w_+(0) = w_-(0) = w_0; and s0, d0, u."""
    x, _, x_tilde, _, _ = _instance()
    r_integral = _vector("R", theory.SAMPLES)
    s0 = _vector("s0", theory.DIMENSION)
    d0 = _vector("d0", theory.DIMENSION)
    s = theory.solution_eq13(sp.Matrix.vstack(s0, s0), x_tilde, r_integral)
    d = theory.solution_eq14(sp.Matrix.vstack(d0, d0), x_tilde, r_integral)
    s_p, s_m = theory.split_halves(s)
    d_p, d_m = theory.split_halves(d)
    beta = sp.Matrix(
        [
            theory.beta_eq17(s_p[i], d_p[i], s_m[i], d_m[i])
            for i in range(theory.DIMENSION)
        ]
    )
    return beta, s0, d0, x.T * r_integral


def _per_dimension(
    form: Callable[[sp.Expr, sp.Expr, sp.Expr], sp.Expr],
    s0: sp.Matrix,
    d0: sp.Matrix,
    u: sp.Matrix,
) -> sp.Matrix:
    return sp.Matrix([form(s0[i], d0[i], u[i]) for i in range(theory.DIMENSION)])


def _check_eq18_19_as_printed() -> Verdict:
    beta, s0, d0, u = _beta_from_flow()
    printed = _per_dimension(theory.beta_eq18_19, s0, d0, u)
    verdict = _check_entries(beta, printed)
    if verdict.status == Status.HOLDS:
        return verdict
    double = _check_entries(printed, 2 * beta)
    return Verdict.fails(
        f"beta(t) from (13), (14), (17) and X~ = [X, -X] differs from (18)-(19) "
        f"({verdict.detail}); (18)-(19) = 2 beta(t) ({double.detail}): the printed "
        "2 s0^2 and 2 d0^2 should be s0^2 and d0^2"
    )


def _check_eq18_19_corrected() -> Verdict:
    beta, s0, d0, u = _beta_from_flow()
    return _check_entries(
        beta, _per_dimension(theory.beta_eq18_19_corrected, s0, d0, u)
    )


def _check_eq20_step() -> Verdict:
    s0, d0, u = sp.symbols("s0 d0 u", real=True)
    printed = theory.beta_eq18_19(s0, d0, u)
    eq20 = theory.beta_eq20(s0, d0, u).rewrite(sp.exp)
    verdict = check_identity(printed, eq20)
    if verdict.status == Status.HOLDS:
        return verdict
    double = check_identity(printed, 2 * eq20)
    return Verdict.fails(
        f"(18)-(19) vs (20): {verdict.detail}; (18)-(19) = 2 x (20) ({double.detail}), "
        "since e^-x - e^x = 2 sinh(-x): the step drops the factor 2 that (18)-(19) "
        "wrongly carry, so (20) is right although it does not follow from (18)-(19)"
    )


def _check_eq20() -> Verdict:
    beta, s0, d0, u = _beta_from_flow()
    eq20 = _per_dimension(theory.beta_eq20, s0, d0, u).applyfunc(
        lambda e: e.rewrite(sp.exp)
    )
    verdict = _check_entries(beta, eq20)
    return Verdict(
        verdict.status, f"beta(t) from (13), (14), (17) vs (20): {verdict.detail}"
    )


def _check_eq21() -> Verdict:
    a, b, u = sp.symbols("a b u", real=True)
    s0, d0 = (a + b) / 2, (a - b) / 2
    coefficient = check_identity(2 * (s0**2 + d0**2), theory.q_norm_coefficient(a, b))
    if coefficient.status != Status.HOLDS:
        return Verdict(coefficient.status, f"coefficient: {coefficient.detail}")
    verdict = check_identity(theory.beta_eq20(s0, d0, u), theory.beta_eq21(a, b, u))
    return Verdict(
        verdict.status,
        f"2(s0^2 + d0^2) = (w0^(1))^2 + (w0^(2))^2 ({coefficient.detail}); "
        f"(20) = (21): {verdict.detail}",
    )


# --- eqs. (22)-(23): the Q-norm

_z = sp.Symbol("z", real=True)
_beta = sp.Symbol("beta", real=True)
_k = sp.Symbol("k", positive=True)


def _check_q_gradient() -> Verdict:
    return check_identity(
        sp.diff(theory.q_norm_term(_beta, _k), _beta), 2 * sp.asinh(_beta / _k)
    )


def _asinh_of_sinh(expression: sp.Expr) -> sp.Expr:
    """Rewrite asinh(sinh(a)) as a: asinh is the inverse of sinh on the reals."""
    return expression.replace(
        lambda e: isinstance(e, sp.asinh) and isinstance(e.args[0], sp.sinh),
        lambda e: e.args[0].args[0],
    )


def _check_kkt() -> Verdict:
    x = theory.data_matrix()
    r_integral = _vector("R", theory.SAMPLES)
    u = x.T * r_integral
    ks = [sp.Symbol(f"k_{i + 1}", positive=True) for i in range(theory.DIMENSION)]
    betas = sp.symbols(f"beta_1:{theory.DIMENSION + 1}", real=True)
    penalty = theory.q_norm(betas, ks)
    gradient = sp.Matrix([sp.diff(penalty, b) for b in betas])
    closed = sp.Matrix([2 * sp.asinh(b / k) for b, k in zip(betas, ks, strict=True)])
    form = _check_entries(gradient, closed)
    if form.status != Status.HOLDS:
        return Verdict(form.status, f"gradient of (22): {form.detail}")
    # beta(oo) of eq. (21): k_d sinh(-4 (X^T int_0^oo r)_d); multiplier nu = -8 R.
    solution = {
        b: k * sp.sinh(-4 * u[i])
        for i, (b, k) in enumerate(zip(betas, ks, strict=True))
    }
    at_solution = closed.subs(solution).applyfunc(_asinh_of_sinh)
    stationarity = _check_entries(at_solution, x.T * (-8 * r_integral))
    if stationarity.status != Status.HOLDS:
        return Verdict(stationarity.status, f"stationarity: {stationarity.detail}")
    curvature = [sp.simplify(sp.diff(c, b)) for c, b in zip(closed, betas, strict=True)]
    if not all(c.is_positive for c in curvature):
        return Verdict.inconclusive(f"could not show convexity: {curvature}")
    return Verdict.holds(
        f"grad ||beta||_Q = 2 asinh(beta/k) ({form.detail}); at beta = k o "
        "sinh(-4 X^T R), R = int_0^oo r, it is -8 X^T R = X^T nu with nu = -8 R "
        f"(asinh(sinh a) = a for real a; {stationarity.detail}); ||beta||_Q is "
        f"separable with second derivatives {', '.join(sp.sstr(c) for c in curvature)}"
        " > 0, so stationarity and X beta = y make beta(oo) the unique minimizer"
    )


def _check_q_norm_near_zero() -> Verdict:
    return check_series(
        theory.q_norm_term(_beta, _k), _beta, _beta**2 / _k - _beta**4 / (12 * _k**3), 6
    )


def _check_ptft_coefficient() -> Verdict:
    beta_aux = sp.Symbol("beta_aux", real=True)
    return check_identity(
        theory.ptft_coefficient(beta_aux, gamma), sp.Abs(beta_aux) + gamma**2
    )


def _check_q_derivative() -> Verdict:
    return check_identity(sp.diff(theory.q_potential(_z), _z), sp.asinh(_z / 2))


def _check_q_convex() -> Verdict:
    second = sp.diff(theory.q_potential(_z), _z, 2)
    verdict = check_identity(second, 1 / sp.sqrt(4 + _z**2))
    if verdict.status != Status.HOLDS:
        return verdict
    if (1 / sp.sqrt(4 + _z**2)).is_positive:
        return Verdict.holds(
            f"q''(z) = 1/sqrt(4 + z^2) ({verdict.detail}) > 0 for real z"
        )
    return Verdict.inconclusive("SymPy could not decide the sign of 1/sqrt(4 + z^2)")


def _check_q_even_zero() -> Verdict:
    q = theory.q_potential(_z)
    at_zero = sp.simplify(q.subs(_z, 0))
    slope = sp.simplify(sp.diff(q, _z).subs(_z, 0))
    even = check_identity(q.subs(_z, -_z), q)
    if at_zero == 0 and slope == 0 and even.status == Status.HOLDS:
        return Verdict.holds(
            f"q(0) = 0, q'(0) = 0, q(-z) = q(z) ({even.detail}); with q'' > 0, "
            "q(z) >= 0 with equality only at 0"
        )
    return Verdict.fails(f"q(0) = {at_zero}, q'(0) = {slope}, evenness: {even.detail}")


def _check_q_small_z() -> Verdict:
    return check_series(theory.q_potential(_z), _z, theory.q_small_z(_z), 6)


def _check_q_large_z() -> Verdict:
    eps = sp.Symbol("epsilon", positive=True)
    expression = theory.q_potential(1 / eps).rewrite(sp.log)
    expected = theory.q_large_z(1 / eps)
    verdict = check_series(expression, eps, expected, 3)
    if verdict.status != Status.HOLDS:
        return verdict
    return Verdict.holds(
        f"with z = 1/epsilon > 0: {verdict.detail}; q is even, so for |z| -> oo "
        "q(z) = |z| log|z| - |z| + 2 - 1/|z| + O(|z|^-3) and "
        "k q(2 beta/k) = 2|beta| log(2|beta|/k) - 2|beta| + 2k + O(k^2/|beta|): "
        "l1 up to the logarithm"
    )


# --- Appendix B.1: multi-task diagonal networks


def _triangle_lower_bound(outputs: int) -> Verdict:
    """(26) >= 2||beta_d||: each link of the chain, as exact identities."""
    a = sp.Symbol("a", real=True)
    b = _vector("b", outputs)
    links = {
        "a^2 + ||b||^2 - 2|a| ||b|| = (|a| - ||b||)^2": check_identity(
            a**2 + theory.norm(b) ** 2 - 2 * sp.Abs(a) * theory.norm(b),
            (sp.Abs(a) - theory.norm(b)) ** 2,
        ),
        "||a b|| = |a| ||b||": check_identity(
            theory.norm(a * b) ** 2, (sp.Abs(a) * theory.norm(b)) ** 2
        ),
    }
    # Cauchy-Schwarz via Lagrange's identity, hence the triangle inequality
    # ||u - v|| <= ||u|| + ||v|| for u = a b and v = c e.
    u, v = _vector("u", outputs), _vector("v", outputs)
    dot = (u.T * v)[0, 0]
    lagrange = sum(
        (
            (u[i] * v[j] - u[j] * v[i]) ** 2
            for i, j in itertools.combinations(range(outputs), 2)
        ),
        sp.Integer(0),
    )
    links["||u||^2 ||v||^2 - (u.v)^2 = sum_{i<j} (u_i v_j - u_j v_i)^2"] = (
        check_identity(theory.norm(u) ** 2 * theory.norm(v) ** 2 - dot**2, lagrange)
    )
    links["(||u|| + ||v||)^2 - ||u - v||^2 = 2(||u|| ||v|| + u.v)"] = check_identity(
        (theory.norm(u) + theory.norm(v)) ** 2 - theory.norm(u - v) ** 2,
        2 * (theory.norm(u) * theory.norm(v) + dot),
    )
    failed = [k for k, verdict in links.items() if verdict.status != Status.HOLDS]
    if failed:
        return Verdict.inconclusive(f"links not shown: {failed}")
    return Verdict.holds(
        "(26)_d = (|a| - ||b||)^2 + (|c| - ||e||)^2 + 2(||a b|| + ||c e||) >= "
        "2||a b - c e|| = 2||beta_d|| (w+ = (a, b), w- = (c, e); Lagrange's identity "
        f"gives the triangle inequality; O = {outputs}, each link exact)"
    )


def _check_one_branch_zero() -> Verdict:
    findings = []
    # O = 1: w_+ = (1, 1), w_- = (1, -1); O = 2: w_+ = (2, (6/5, 8/5)),
    # w_- = (2, (-6/5, -8/5)). Rational, so everything below is exact.
    fifth = sp.Rational(1, 5)
    examples = [
        (sp.Integer(1), sp.Matrix([1]), sp.Integer(1), sp.Matrix([-1])),
        (
            sp.Integer(2),
            sp.Matrix([6, 8]) * fifth,
            sp.Integer(2),
            sp.Matrix([-6, -8]) * fifth,
        ),
    ]
    for a, b, c, e in examples:
        bound = _triangle_lower_bound(b.rows)
        if bound.status != Status.HOLDS:
            return bound
        beta = theory.mtl_effective_weights(a, b, c, e)
        cost = theory.mtl_parameter_norm_eq26(a, b, c, e)
        minimum = 2 * theory.norm(beta)
        if sp.simplify(cost - minimum) != 0:
            return Verdict.inconclusive(
                f"example {a, list(b), c, list(e)} is not minimal"
            )
        findings.append(
            f"O = {b.rows}: w_+ = ({a}, {list(b)}), w_- = ({c}, {list(e)}) give "
            f"beta_d = {list(beta)} at parameter norm {cost} = 2||beta_d|| = {minimum}"
        )
    return Verdict.fails(
        "minimizers with both branches nonzero exist: "
        + "; ".join(findings)
        + f", the minimum since {bound.detail}. The minimizer is not unique: the "
        "branches need only be balanced and aligned with beta_d, not zero"
    )


def _check_wlog_plus_branch() -> Verdict:
    outputs = 2
    bound = _triangle_lower_bound(outputs)
    if bound.status != Status.HOLDS:
        return bound
    beta = _vector("beta", outputs)
    size = theory.norm(beta)
    a = sp.sqrt(size)
    attained = check_identity(theory.mtl_parameter_norm_eq27(a, beta / a), 2 * size)
    if attained.status != Status.HOLDS:
        return Verdict(attained.status, f"attainment: {attained.detail}")
    return Verdict.holds(
        f"{bound.detail}; the + branch alone attains it, w+^(1) = sqrt||beta_d||, "
        f"w+^(2) = beta_d/w+^(1) ({attained.detail}): min (26) = min (27) = 2||beta_d||"
    )


def _check_objective(outputs: int) -> Verdict:
    z = sp.Symbol("z", positive=True)
    beta = _vector("beta", outputs)
    return check_identity(
        theory.mtl_parameter_norm_eq27(z, beta / z),
        theory.mtl_objective_eq28(z, theory.norm(beta)),
    )


def _check_stationary_z() -> Verdict:
    z, size = sp.symbols("z b", positive=True)
    objective = theory.mtl_objective_eq28(z, size)
    roots = [r for r in sp.solve(sp.diff(objective, z), z) if r.is_positive]
    if len(roots) != 1:
        return Verdict.fails(f"positive stationary points {roots}")
    squared = sp.simplify(roots[0] ** 2)
    curvature = sp.simplify(sp.diff(objective, z, 2).subs(z, roots[0]))
    if squared == theory.stationary_z_squared(size) and curvature.is_positive:
        return Verdict.holds(
            f"exact: the unique positive root of d/dz (z^2 + b^2/z^2) is z = "
            f"{sp.sstr(roots[0])}, so z^2 = b = ||.||_2; second derivative "
            f"{sp.sstr(curvature)} > 0"
        )
    return Verdict.fails(f"z^2 = {sp.sstr(squared)} at the stationary point")


def _check_minimum() -> Verdict:
    z, size = sp.symbols("z b", positive=True)
    objective = theory.mtl_objective_eq28(z, size)
    value = check_identity(objective.subs(z, sp.sqrt(size)), 2 * size)
    gap = check_identity(objective - 2 * size, (z - size / z) ** 2)
    if value.status == gap.status == Status.HOLDS:
        return Verdict.holds(
            f"at z^2 = b the value is 2b ({value.detail}); z^2 + b^2/z^2 - 2b = "
            f"(z - b/z)^2 >= 0 ({gap.detail}), so 2b is the minimum over z > 0 and "
            "the sum over d is 2 sum_d ||beta_d||_2"
        )
    return Verdict.fails(f"value: {value.detail}; gap: {gap.detail}")


def _check_l12_total() -> Verdict:
    outputs, dimension = 3, 2
    betas = sp.Matrix(
        outputs,
        dimension,
        lambda o, d: sp.Symbol(f"beta_{o + 1}{d + 1}", real=True),
    )
    z = [sp.Symbol(f"z_{d + 1}", positive=True) for d in range(dimension)]
    # eq. (27) with w+^(1)_d = z_d, w+^(2)_{o,d} = beta_{o,d}/z_d at z_d^2 = ||beta_d||
    total = sp.Add(
        *(
            theory.mtl_parameter_norm_eq27(z[d], betas[:, d] / z[d])
            for d in range(dimension)
        )
    )
    at_minimum = total.subs(
        {z[d]: sp.sqrt(theory.norm(betas[:, d])) for d in range(dimension)}
    )
    return check_identity(at_minimum, 2 * theory.l12_norm(betas))


def _check_single_output() -> Verdict:
    betas = sp.Matrix(1, 3, lambda _, d: sp.Symbol(f"beta_{d + 1}", real=True))
    return check_identity(
        2 * theory.l12_norm(betas), 2 * sp.Add(*(sp.Abs(b) for b in betas))
    )


# --- Appendix B.2: multi-task ReLU networks


def _relu_units(units: int, inputs: int, outputs: int) -> tuple[list, list]:
    w1 = [_vector(f"v{h + 1}", inputs) for h in range(units)]
    w2 = [_vector(f"a{h + 1}", outputs) for h in range(units)]
    return w1, w2


def _check_homogeneity() -> Verdict:
    w1, w2 = _relu_units(2, 2, 2)
    x = _vector("x", 2)
    lhs = theory.relu_network_eq31(w1, w2, x)
    terms = [
        theory.relu_magnitude_eq32(a, b)
        * theory.relu((theory.relu_direction_eq32(a).T * x)[0, 0])
        for a, b in zip(w1, w2, strict=True)
    ]
    rhs = sum(terms[1:], terms[0])
    as_abs = lambda e: e.rewrite(sp.Abs)  # noqa: E731 - (a)_+ = (a + |a|)/2
    verdict = _check_entries(lhs.applyfunc(as_abs), rhs.applyfunc(as_abs))
    return Verdict(
        verdict.status,
        f"H = 2 units, 2 inputs, O = 2 outputs, (a)_+ = (a + |a|)/2: {verdict.detail}",
    )


def _check_unit_direction() -> Verdict:
    w1, w2 = _relu_units(1, 3, 2)
    theta = theory.relu_direction_eq32(w1[0])
    unit = check_identity((theta.T * theta)[0, 0], sp.Integer(1))
    magnitude = theory.relu_magnitude_eq32(w1[0], w2[0])
    size = check_identity(
        theory.norm(magnitude) ** 2, theory.norm(w2[0]) ** 2 * theory.norm(w1[0]) ** 2
    )
    if unit.status == size.status == Status.HOLDS:
        return Verdict.holds(
            f"||theta_h|| = 1 ({unit.detail}); ||m_h|| = ||w_h^(2)|| ||w_h^(1)|| "
            f"({size.detail}), so (32) only rescales the unit"
        )
    return Verdict.fails(f"unit: {unit.detail}; magnitude: {size.detail}")


def _check_relu_objective() -> Verdict:
    z = sp.Symbol("z", positive=True)
    m = _vector("m", 3)
    # ||w^(1)||^2 = z^2 by definition of z; w^(2) = m/z.
    lhs = z**2 + theory.norm(m / z) ** 2
    return check_identity(lhs, theory.relu_objective_eq33(z, theory.norm(m)))


# --- Appendix G


def _check_pr_trace_forms() -> Verdict:
    x = reps.symbolic_responses("x", 3, 2)
    n = sp.Symbol("n", positive=True)
    verdict = check_identity(
        reps.participation_ratio(reps.covariance(x, n)),
        reps.participation_ratio_of_data(x),
    )
    return Verdict(
        verdict.status,
        f"3 x 2 symbolic X, C = X^T X / n with n > 0 symbolic: {verdict.detail}",
    )


def _cayley_rotation() -> sp.Matrix:
    """A 3 x 3 rotation with rational entries in three real parameters."""
    p1, p2, p3 = sp.symbols("p1 p2 p3", real=True)
    skew = sp.Matrix([[0, -p3, p2], [p3, 0, -p1], [-p2, p1, 0]])
    identity = sp.eye(3)
    return ((identity - skew) * (identity + skew).inv()).applyfunc(sp.cancel)


def _check_pr_eigenvalues() -> Verdict:
    a, b, c = sp.symbols("a b c", real=True)
    small = sp.Matrix([[a, b], [b, c]])
    eigenvalues = [v for v, k in small.eigenvals().items() for _ in range(k)]
    two = check_identity(
        reps.participation_ratio_of_eigenvalues(eigenvalues),
        reps.participation_ratio(small),
    )
    rotation = _cayley_rotation()
    orthogonal = (rotation.T * rotation).applyfunc(sp.cancel) == sp.eye(3)
    lambdas = sp.symbols("lambda_1:4", nonnegative=True)
    large = (rotation * sp.diag(*lambdas) * rotation.T).applyfunc(sp.cancel)
    # tr(C) = sum(lambda) and tr(C^2) = sum(lambda^2), so PR(C) = PR(lambda); the
    # traces are cancelled one at a time (cancelling the quotient is slow).
    first = sp.cancel(large.trace()) - sp.Add(*lambdas)
    second = sp.cancel((large * large).trace()) - sp.Add(*(v**2 for v in lambdas))
    three = (
        Verdict.holds(
            "exact: cancel(tr C - sum lambda) = cancel(tr C^2 - sum lambda^2) = 0"
        )
        if first == 0 and second == 0
        else Verdict.fails(
            f"tr C - sum lambda = {first}; tr C^2 - sum lambda^2 = {second}"
        )
    )
    if two.status == three.status == Status.HOLDS and orthogonal:
        return Verdict.holds(
            f"2 x 2 symmetric [[a, b], [b, c]] with SymPy's eigenvalues: {two.detail}; "
            f"3 x 3 Q diag(lambda) Q^T, Q a symbolic Cayley rotation: {three.detail}"
        )
    return Verdict.fails(f"2 x 2: {two.detail}; 3 x 3: {three.detail}")


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
        if lower.status != Status.HOLDS or upper.status != Status.HOLDS:
            return Verdict.fails(f"p = {p}: lower {lower.detail}; upper {upper.detail}")
        if not (cross.is_nonnegative and spread.is_nonnegative):
            return Verdict.inconclusive(f"p = {p}: signs not decided")
        ones = [sp.Integer(1)] * p
        spike = [sp.Integer(1)] + [sp.Integer(0)] * (p - 1)
        if (
            reps.participation_ratio_of_eigenvalues(ones) != p
            or reps.participation_ratio_of_eigenvalues(spike) != 1
        ):
            return Verdict.fails(f"p = {p}: the bounds are not attained")
        shown.append(p)
    return Verdict.holds(
        "for eigenvalues lambda_i >= 0 (C = X^T X / n is PSD), not all 0: "
        "(sum lambda)^2 - sum lambda^2 = 2 sum_{i<j} lambda_i lambda_j >= 0 and "
        "p sum lambda^2 - (sum lambda)^2 = sum_{i<j} (lambda_i - lambda_j)^2 >= 0 "
        f"(exact for p = {shown[0]}..{shown[-1]}; Lagrange's identity for every p), "
        "so 1 <= PR <= p, with PR = 1 for one nonzero eigenvalue and PR = p for "
        "equal ones"
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
    return Verdict(
        explicit.status,
        f"in the traces (positive for X, Y != 0): {general.detail}; on integer 3 x 2 "
        f"X, Y through the matrix formulas: {explicit.detail}",
    )


def _subset_ensd(variances: list[sp.Expr]) -> sp.Expr:
    x = reps.uncorrelated_units([sp.sqrt(v) for v in variances])
    return sp.cancel(reps.ensd(x, x[:, :5]))


def _check_ensd_subset_as_printed() -> Verdict:
    variances = list(sp.symbols("v_1:11", positive=True))
    value = _subset_ensd(variances)
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
    if form.status == Status.HOLDS and all(v != 5 for v in values.values()):
        listing = "; ".join(f"{label}: ENSD = {v}" for label, v in values.items())
        return Verdict.fails(
            "X = 10 uncorrelated units (diagonal covariance with variances v_i), Y = "
            "units 1-5: ENSD = (sum_10 v)(sum_5 v)/sum_10 v^2 "
            f"({form.detail}), which is 5 only for equal variances. {listing}"
        )
    return Verdict.holds(f"ENSD = {value}")


def _check_ensd_subset_equal() -> Verdict:
    variance = sp.Symbol("v", positive=True)
    value = _subset_ensd([variance] * 10)
    if value == 5:
        return Verdict.holds(
            "exact: with all ten variances equal to v, ENSD(X, Y) = 5 for every v"
        )
    return Verdict.fails(f"ENSD = {value}")


def _check_ensd_disjoint() -> Verdict:
    scales_x = sp.symbols("sigma_1:11", positive=True)
    scales_y = sp.symbols("tau_1:6", positive=True)
    x = sp.Matrix.vstack(reps.uncorrelated_units(scales_x), sp.zeros(10, 10))
    y = sp.Matrix.vstack(sp.zeros(20, 5), reps.uncorrelated_units(scales_y))
    value = sp.cancel(reps.ensd(x, y))
    if value == 0:
        return Verdict.holds(
            "exact: 10 + 5 mean-centred uncorrelated units with arbitrary variances "
            "and X^T Y = 0 give ENSD = 0"
        )
    return Verdict.fails(f"ENSD = {value}")


# --- the registry entries

_GRADIENT_FLOW = ("gradient flow w_dot = -grad L", "r = X~(w1 o w2) - y")


def _display_pr_range() -> sp.Basic:
    pr = reps.display_pr_traces().lhs
    return sp.And(
        sp.Le(1, pr, evaluate=False), sp.Le(pr, reps.units_atom, evaluate=False)
    )


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE,
        "7",
        "stacked-model",
        Kind.IDENTITY,
        "with X~ = [X, -X] and w = [w_+; w_-], X~ (w^(1) o w^(2)) = X beta(w) for "
        "beta of eq. (7)",
        _check_stacked_model,
        Status.HOLDS,
        assumptions=(_SIZE,),
        formula=theory.display_eq7,
    ),
    Claim(
        SOURCE,
        "8",
        "as-printed",
        Kind.IDENTITY,
        "w1_dot = grad_w1 L = grad_w1 ||X~(w1 o w2) - y||^2 = -2 X~^T r o w2",
        lambda: _check_gradient_as_printed(1),
        Status.FAILS,
        assumptions=(*_GRADIENT_FLOW, _SIZE),
        formula=theory.display_eq8,
    ),
    Claim(
        SOURCE,
        "8",
        "gradient-flow",
        Kind.IDENTITY,
        "w1_dot = -grad_w1 L = -2 X~^T r o w2 with r = X~(w1 o w2) - y",
        lambda: _check_gradient_flow(1),
        Status.HOLDS,
        assumptions=(*_GRADIENT_FLOW, _SIZE),
        corrects=_claim_id("8", "as-printed"),
        formula=lambda: theory.display_eq8(as_printed=False),
    ),
    Claim(
        SOURCE,
        "9",
        "as-printed",
        Kind.IDENTITY,
        "w2_dot = grad_w2 L = grad_w2 ||X~(w1 o w2) - y||^2 = -2 X~^T r o w1",
        lambda: _check_gradient_as_printed(2),
        Status.FAILS,
        assumptions=(*_GRADIENT_FLOW, _SIZE),
        formula=theory.display_eq9,
    ),
    Claim(
        SOURCE,
        "9",
        "gradient-flow",
        Kind.IDENTITY,
        "w2_dot = -grad_w2 L = -2 X~^T r o w1 with r = X~(w1 o w2) - y",
        lambda: _check_gradient_flow(2),
        Status.HOLDS,
        assumptions=(*_GRADIENT_FLOW, _SIZE),
        corrects=_claim_id("9", "as-printed"),
        formula=lambda: theory.display_eq9(as_printed=False),
    ),
    Claim(
        SOURCE,
        "10",
        "change-of-variables",
        Kind.IDENTITY,
        "with s = (w1 + w2)/2, (8)-(9) give s_dot = -2 X~^T r o s",
        lambda: _check_change_of_variables("s"),
        Status.HOLDS,
        assumptions=("any residual vector r", _SIZE),
        formula=theory.display_eq10,
    ),
    Claim(
        SOURCE,
        "11",
        "change-of-variables",
        Kind.IDENTITY,
        "with d = (w1 - w2)/2, (8)-(9) give d_dot = 2 X~^T r o d",
        lambda: _check_change_of_variables("d"),
        Status.HOLDS,
        assumptions=("any residual vector r", _SIZE),
        formula=theory.display_eq11,
    ),
    Claim(
        SOURCE,
        "13",
        "solves-10",
        Kind.IDENTITY,
        "s(t) = s(0) o exp(-2 X~^T int_0^t r) solves (10) with initial value s(0)",
        lambda: _check_closed_form("s"),
        Status.HOLDS,
        assumptions=("R(t) = int_0^t r, R' = r, R(0) = 0", _SIZE),
        formula=theory.display_eq13,
    ),
    Claim(
        SOURCE,
        "14",
        "solves-11",
        Kind.IDENTITY,
        "d(t) = d(0) o exp(2 X~^T int_0^t r) solves (11) with initial value d(0)",
        lambda: _check_closed_form("d"),
        Status.HOLDS,
        assumptions=("R(t) = int_0^t r, R' = r, R(0) = 0", _SIZE),
        formula=theory.display_eq14,
    ),
    Claim(
        SOURCE,
        "16",
        "difference-of-squares",
        Kind.IDENTITY,
        "beta of (15) equals (s_+^2 - d_+^2) - (s_-^2 - d_-^2) since w1 w2 = s^2 - d^2",
        _check_eq16,
        Status.HOLDS,
        formula=theory.display_eq16,
    ),
    Claim(
        SOURCE,
        "17",
        "regrouping",
        Kind.IDENTITY,
        "(16) equals (s_+^2 - s_-^2) - (d_+^2 - d_-^2)",
        _check_eq17,
        Status.HOLDS,
        formula=theory.display_eq17,
    ),
    Claim(
        SOURCE,
        "18-19",
        "as-printed",
        Kind.IDENTITY,
        "with w_+(0) = w_-(0) = w_0, beta(t) = 2 s0^2 o (e^{-4u} - e^{4u}) - "
        "2 d0^2 o (e^{4u} - e^{-4u}), u = X^T int_0^t r",
        _check_eq18_19_as_printed,
        Status.FAILS,
        assumptions=("w_+(0) = w_-(0) = w_0", "X~ = [X, -X]", _SIZE),
        formula=theory.display_eq18_19,
    ),
    Claim(
        SOURCE,
        "18-19",
        "corrected",
        Kind.IDENTITY,
        "with w_+(0) = w_-(0) = w_0, beta(t) = s0^2 o (e^{-4u} - e^{4u}) - "
        "d0^2 o (e^{4u} - e^{-4u}), u = X^T int_0^t r",
        _check_eq18_19_corrected,
        Status.HOLDS,
        assumptions=("w_+(0) = w_-(0) = w_0", "X~ = [X, -X]", _SIZE),
        corrects=_claim_id("18-19", "as-printed"),
        formula=lambda: theory.display_eq18_19(as_printed=False),
    ),
    Claim(
        SOURCE,
        "20",
        "from-18-19",
        Kind.IDENTITY,
        "(18)-(19) = 2(s0^2 + d0^2) o sinh(-4 X^T int_0^t r)",
        _check_eq20_step,
        Status.FAILS,
        formula=theory.display_eq20,
    ),
    Claim(
        SOURCE,
        "20",
        "sinh-form",
        Kind.IDENTITY,
        "beta(t) = 2(s0^2 + d0^2) o sinh(-4 X^T int_0^t r), from (13), (14) and (17)",
        _check_eq20,
        Status.HOLDS,
        assumptions=("w_+(0) = w_-(0) = w_0", "X~ = [X, -X]", _SIZE),
        corrects=_claim_id("20", "from-18-19"),
        formula=theory.display_eq20,
    ),
    Claim(
        SOURCE,
        "21",
        "coefficient",
        Kind.IDENTITY,
        "2(s0^2 + d0^2) = (w0^(1))^2 + (w0^(2))^2, so (20) = (21)",
        _check_eq21,
        Status.HOLDS,
        formula=theory.display_eq21,
    ),
    Claim(
        SOURCE,
        "22",
        "gradient",
        Kind.IDENTITY,
        "d/dbeta_d [k_d q(2 beta_d/k_d)] = 2 asinh(beta_d/k_d), the inverse of the "
        "sinh form (21)",
        _check_q_gradient,
        Status.HOLDS,
        assumptions=("k_d = (w0_d^(1))^2 + (w0_d^(2))^2 > 0",),
        formula=lambda: sp.Eq(
            sp.Derivative(
                theory.k_d * sp.Function("q")(2 * theory.beta_d / theory.k_d),
                theory.beta_d,
            ),
            2 * sp.asinh(theory.beta_d / theory.k_d),
            evaluate=False,
        ),
    ),
    Claim(
        SOURCE,
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
            _SIZE,
        ),
        formula=theory.display_eq22,
    ),
    Claim(
        SOURCE,
        "22",
        "l2-near-zero",
        Kind.LIMIT,
        "k q(2 beta/k) = beta^2/k - beta^4/(12 k^3) + O(beta^6): a weighted l2 "
        "penalty for small beta (our expansion)",
        _check_q_norm_near_zero,
        Status.HOLDS,
        assumptions=("k > 0",),
        formula=lambda: sp.Eq(
            theory.k_d * sp.Function("q")(2 * theory.beta_d / theory.k_d),
            theory.beta_d**2 / theory.k_d
            - theory.beta_d**4 / (12 * theory.k_d**3)
            + sp.O(theory.beta_d**6),
            evaluate=False,
        ),
    ),
    Claim(
        SOURCE,
        "22",
        "ptft-coefficient",
        Kind.IDENTITY,
        "with (w0)_d^(2) = gamma and (w0)_d^(1) = sqrt|beta_aux_d|, "
        "k_d = |beta_aux_d| + gamma^2",
        _check_ptft_coefficient,
        Status.HOLDS,
        assumptions=("balanced pretraining (constant magnitude alpha)",),
        formula=lambda: sp.Eq(
            theory.k_d, sp.Abs(theory.beta_aux_d) + gamma**2, evaluate=False
        ),
    ),
    Claim(
        SOURCE,
        "23",
        "derivative",
        Kind.IDENTITY,
        "q'(z) = asinh(z/2)",
        _check_q_derivative,
        Status.HOLDS,
        formula=lambda: sp.Eq(
            sp.Derivative(theory.q_of_z, theory.z), sp.asinh(theory.z / 2)
        ),
    ),
    Claim(
        SOURCE,
        "23",
        "convex",
        Kind.INEQUALITY,
        "q''(z) = 1/sqrt(4 + z^2) > 0: q is strictly convex",
        _check_q_convex,
        Status.HOLDS,
        formula=lambda: sp.Eq(
            sp.Derivative(theory.q_of_z, (theory.z, 2)), 1 / sp.sqrt(4 + theory.z**2)
        ),
    ),
    Claim(
        SOURCE,
        "23",
        "even-nonnegative",
        Kind.IDENTITY,
        "q(0) = 0, q is even and q >= 0",
        _check_q_even_zero,
        Status.HOLDS,
        formula=theory.display_eq23,
    ),
    Claim(
        SOURCE,
        "23",
        "small-z",
        Kind.LIMIT,
        "q(z) = z^2/4 - z^4/192 + O(z^6) (l2-like near 0)",
        _check_q_small_z,
        Status.HOLDS,
        formula=lambda: sp.Eq(
            theory.q_of_z,
            theory.q_small_z(theory.z) + sp.O(theory.z**6),
            evaluate=False,
        ),
    ),
    Claim(
        SOURCE,
        "23",
        "large-z",
        Kind.LIMIT,
        "q(z) = |z| log|z| - |z| + 2 - 1/|z| + O(|z|^-3) as |z| -> oo (l1-like up to "
        "the log)",
        _check_q_large_z,
        Status.HOLDS,
        formula=lambda: sp.Eq(
            theory.q_of_z,
            # O(|z|^-3) as an opaque function: sympy.Order cannot take |z| at oo.
            # |z| as a positive atom: sympy.Order cannot expand Abs at infinity.
            theory.q_large_z(theory.z_abs)
            + sp.O(theory.z_abs**-3, (theory.z_abs, sp.oo)),
            evaluate=False,
        ),
    ),
    Claim(
        SOURCE,
        "26",
        "one-branch-zero",
        Kind.INEQUALITY,
        "in the minimum parameter norm solution, for each input dimension d, either "
        "all its + weights or all its - weights are zero",
        _check_one_branch_zero,
        Status.FAILS,
        assumptions=("weights real and unconstrained",),
    ),
    Claim(
        SOURCE,
        "27",
        "wlog-plus-branch",
        Kind.INEQUALITY,
        "for fixed beta_d, the minimum of (26) over both branches is 2||beta_d||_2 and "
        "is attained with the - weights zero, so minimizing (27) loses nothing",
        _check_wlog_plus_branch,
        Status.HOLDS,
        assumptions=("beta_d != 0", "O = 2 (Lagrange's identity for any O)"),
        corrects=_claim_id("26", "one-branch-zero"),
    ),
    Claim(
        SOURCE,
        "28",
        "objective",
        Kind.IDENTITY,
        "with w_+,d^(1) = z_d and w_+,o,d^(2) = beta_o,d/z_d, (27)_d = z_d^2 + "
        "||beta_d||^2/z_d^2",
        lambda: _check_objective(3),
        Status.HOLDS,
        assumptions=("z_d > 0", "O = 3"),
        formula=theory.display_eq28,
    ),
    Claim(
        SOURCE,
        "29",
        "stationary-point",
        Kind.IDENTITY,
        "d/dz_d (28) = 0 at z_d^2 = ||beta_d||_2, the unique positive stationary point",
        _check_stationary_z,
        Status.HOLDS,
        assumptions=("z_d > 0", "beta_d != 0"),
        formula=theory.display_eq29,
    ),
    Claim(
        SOURCE,
        "30",
        "minimum",
        Kind.INEQUALITY,
        "the minimum of (28) over z_d is 2||beta_d||_2, so the minimal (27) is "
        "2 sum_d ||beta_d||_2",
        _check_minimum,
        Status.HOLDS,
        assumptions=("beta_d != 0 (for beta_d = 0 the minimum 0 is at w = 0)",),
        formula=theory.display_eq30,
    ),
    Claim(
        SOURCE,
        "30",
        "l12-total",
        Kind.IDENTITY,
        "summing (27) at z_d^2 = ||beta_d|| gives 2 ||beta||_{1,2}",
        _check_l12_total,
        Status.HOLDS,
        assumptions=("O = 3, D = 2", "beta_d != 0"),
        formula=theory.display_eq30,
    ),
    Claim(
        SOURCE,
        "30",
        "single-output-l1",
        Kind.IDENTITY,
        "with one output the penalty 2||beta||_{1,2} is 2||beta||_1",
        _check_single_output,
        Status.HOLDS,
        assumptions=("O = 1", "D = 3"),
    ),
    Claim(
        SOURCE,
        "31",
        "homogeneity",
        Kind.IDENTITY,
        "sum_h w_h^(2) (<w_h^(1), x>)_+ = sum_h m_h (<theta_h, x>)_+ with m_h, theta_h "
        "of (32)",
        _check_homogeneity,
        Status.HOLDS,
        assumptions=("w_h^(1) != 0",),
        formula=theory.display_eq31,
    ),
    Claim(
        SOURCE,
        "32",
        "unit-direction",
        Kind.IDENTITY,
        "theta_h = w_h^(1)/||w_h^(1)|| is a unit vector and ||m_h|| = "
        "||w_h^(2)|| ||w_h^(1)||",
        _check_unit_direction,
        Status.HOLDS,
        assumptions=("w_h^(1) != 0",),
    ),
    Claim(
        SOURCE,
        "33",
        "objective",
        Kind.IDENTITY,
        "with ||w_h^(1)|| = z_h and w_h^(2) = m_h/z_h, ||w_h^(1)||^2 + ||w_h^(2)||^2 = "
        "z_h^2 + ||m_h||^2/z_h^2",
        _check_relu_objective,
        Status.HOLDS,
        assumptions=("z_h > 0", "O = 3"),
        formula=theory.display_eq33,
    ),
    Claim(
        SOURCE,
        "34",
        "stationary-point",
        Kind.IDENTITY,
        "d/dz_h (33) = 0 at z_h^2 = ||m_h||_2, the unique positive stationary point",
        _check_stationary_z,
        Status.HOLDS,
        assumptions=("z_h > 0", "m_h != 0"),
        formula=theory.display_eq34,
    ),
    Claim(
        SOURCE,
        "35",
        "minimum",
        Kind.INEQUALITY,
        "the minimum of (33) over z_h is 2||m_h||_2, so the minimal parameter norm is "
        "2 sum_h ||m_h||_2",
        _check_minimum,
        Status.HOLDS,
        assumptions=("m_h != 0",),
        formula=theory.display_eq35,
    ),
    Claim(
        SOURCE,
        "sec-G",
        "pr-trace-forms",
        Kind.IDENTITY,
        "trace(C_X)^2/trace(C_X^2) = trace(X^T X)^2/trace(X^T X X^T X) with "
        "C_X = X^T X / n",
        _check_pr_trace_forms,
        Status.HOLDS,
        formula=reps.display_pr_traces,
    ),
    Claim(
        SOURCE,
        "sec-G",
        "pr-eigenvalues",
        Kind.IDENTITY,
        "(sum lambda_i)^2/sum lambda_i^2 = trace(C_X)^2/trace(C_X^2), lambda_i the "
        "eigenvalues of C_X",
        _check_pr_eigenvalues,
        Status.HOLDS,
        assumptions=("C_X symmetric",),
        formula=reps.display_pr_eigenvalues,
    ),
    Claim(
        SOURCE,
        "sec-G",
        "pr-range",
        Kind.INEQUALITY,
        "the PR scales from 1 to p",
        _check_pr_range,
        Status.HOLDS,
        assumptions=("C_X = X^T X / n positive semidefinite, C_X != 0",),
        formula=_display_pr_range,
    ),
    Claim(
        SOURCE,
        "sec-G",
        "ensd-cka",
        Kind.IDENTITY,
        "ENSD(X, Y) = CKA(X, Y) sqrt(PR(X) PR(Y)) with linear CKA "
        "tr(Y^T X X^T Y)/sqrt(tr((X^T X)^2) tr((Y^T Y)^2))",
        _check_ensd_cka,
        Status.HOLDS,
        assumptions=("X, Y != 0",),
        formula=reps.display_ensd_cka,
    ),
    Claim(
        SOURCE,
        "sec-G",
        "ensd-subset",
        Kind.IDENTITY,
        "if X consists of 10 uncorrelated units and Y is a subset of five of them, "
        "ENSD(X, Y) = 5",
        _check_ensd_subset_as_printed,
        Status.FAILS,
        assumptions=("uncorrelated: diagonal covariance (any variances)",),
        formula=lambda: sp.Eq(reps.display_ensd().lhs, 5),
    ),
    Claim(
        SOURCE,
        "sec-G",
        "ensd-subset-equal-variances",
        Kind.IDENTITY,
        "if X consists of 10 uncorrelated units of equal variance and Y is a subset of "
        "five of them, ENSD(X, Y) = 5",
        _check_ensd_subset_equal,
        Status.HOLDS,
        assumptions=("diagonal covariance", "equal variances"),
        corrects=_claim_id("sec-G", "ensd-subset"),
        formula=lambda: sp.Eq(reps.display_ensd().lhs, 5),
    ),
    Claim(
        SOURCE,
        "sec-G",
        "ensd-disjoint",
        Kind.IDENTITY,
        "if Y is five uncorrelated units uncorrelated with all those of X, "
        "ENSD(X, Y) = 0",
        _check_ensd_disjoint,
        Status.HOLDS,
        assumptions=("X^T Y = 0", "any variances"),
        formula=lambda: sp.Eq(reps.display_ensd().lhs, 0),
    ),
)
