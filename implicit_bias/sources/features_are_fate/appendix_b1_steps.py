r"""Claims of features-are-fate, Appendix B.1: the steps (25) and (30) of the
proof of Theorem 2.2.

* (25) writes the Dudley metric of the joint laws :math:`p_f, p_g` of
  :math:`(x, y)`, :math:`y = f(x) + \epsilon`,
  :math:`\epsilon\sim\mathcal N(0, \sigma^2)`, with the Gaussian label
  densities: "By conditioning :math:`p_f(x,y)` and :math:`p_g(x,y)` on
  :math:`x`". For every test function :math:`h`,

  .. math::
     E_{p_f} h = \int\!\!\int h(x, f(x)+\epsilon)\,
     \frac{e^{-\epsilon^2/2\sigma^2}}{\sqrt{2\pi\sigma^2}}\,p(x)\,d\epsilon\,dx
     = \frac{1}{\sqrt{2\pi\sigma^2}}\int\!\!\int h(x,y)\,
     e^{-(y-f(x))^2/2\sigma^2}\,p(x)\,dx\,dy,

  and (25) is the difference of this for :math:`f` and :math:`g` under the
  supremum of (23). The step is checked for generic (undefined) :math:`h, f,
  p`: at fixed :math:`x` the substitution :math:`y = f(x) + \epsilon`
  (Jacobian 1) maps the right side's integrand onto the left side's, exactly.
* (30): :math:`\int f^2 p = \sum_{ij}\alpha_i\alpha_j\int p\,\phi_i\phi_j =
  \sum_i \alpha_i^2` for an orthonormal basis of :math:`L_2(p)`, as a chain
  on the instance :math:`p = \mathcal N(0, 1)`, :math:`\phi_i` the
  normalized Hermite polynomials :math:`He_i/\sqrt{i!}`, :math:`i < M = 4`,
  the :math:`\alpha_i` symbols; every integral evaluated exactly by SymPy.
"""

from __future__ import annotations

import sympy as sp

from implicit_bias.claims.checks import RelationCheck, check_identity
from implicit_bias.claims.derivation import Derivation, Step
from implicit_bias.claims.engine import (
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
    time_limit,
)
from implicit_bias.sources.features_are_fate.source import SOURCE_ID

__all__ = ["BASIS_SIZE", "CLAIMS", "DERIVATIONS", "GLYPHS"]

_x = sp.Symbol("x", real=True)
_y = sp.Symbol("y", real=True)
_noise = sp.Symbol("epsilon", real=True)
_sigma = sp.Symbol("sigma", positive=True)
_test = sp.Function("h")
_regression = sp.Function("f")
_marginal = sp.Function("p")

#: M, the number of basis functions of the instance of (30).
BASIS_SIZE = 4
_coefficients = [sp.Symbol(f"alpha_{i}", real=True) for i in range(BASIS_SIZE)]


def _gaussian(value: sp.Expr) -> sp.Expr:
    return sp.exp(-(value**2) / (2 * _sigma**2))


def _conditioning() -> sp.Basic:
    r"""Eq(E_{p_f} h through the model y = f(x) + eps, (25)'s form)."""
    model = sp.Integral(
        _test(_x, _regression(_x) + _noise)
        * _gaussian(_noise)
        / sp.sqrt(2 * sp.pi * _sigma**2)
        * _marginal(_x),
        (_noise, -sp.oo, sp.oo),
        (_x, -sp.oo, sp.oo),
    )
    printed = sp.Integral(
        _test(_x, _y) * _gaussian(_y - _regression(_x)) * _marginal(_x),
        (_x, -sp.oo, sp.oo),
        (_y, -sp.oo, sp.oo),
    ) / sp.sqrt(2 * sp.pi * _sigma**2)
    return sp.Eq(model, printed, evaluate=False)


def _integrand(side: sp.Expr) -> tuple[sp.Expr, tuple] | None:
    """A side's prefactor times its one integral's integrand, and the integral's
    limits; None if the side is not a prefactor times one integral."""
    integrals = side.atoms(sp.Integral)
    if len(integrals) != 1:
        return None
    integral = integrals.pop()
    prefactor = sp.simplify(side / integral)
    if prefactor.has(sp.Integral):
        return None
    return prefactor * integral.function, integral.limits


def _judge_conditioning(relation: sp.Basic) -> Verdict:
    r"""Decide ``Eq(int int l(x, eps), int int r(x, y))`` over the plane by the
    change of variables :math:`y = f(x) + \epsilon` at fixed :math:`x`
    (Jacobian 1, mapping the line onto itself): ``holds`` when
    :math:`r(x, f(x)+\epsilon) = l(x, \epsilon)` for generic :math:`h, f, p`
    (exactly), else :func:`check_identity`'s verdict on the integrands."""
    left, right = (_integrand(side) for side in (relation.lhs, relation.rhs))
    whole_line = (-sp.oo, sp.oo)
    if (
        left is None
        or right is None
        or any(tuple(lim[1:]) != whole_line for lim in left[1] + right[1])
    ):
        return Verdict.inconclusive(
            "the sides are not each a prefactor times one integral over the plane",
            Reason.UNDECIDED,
        )
    model, printed = left[0], right[0]
    substituted = printed.subs(_y, _regression(_x) + _noise)
    with time_limit(30):
        verdict = check_identity(substituted, model, budget_seconds=10.0)
    return verdict.with_detail(
        "with y = f(x) + epsilon (dy = d epsilon at fixed x), the integrand of "
        "(25)'s form, prefactor included, against the model's: "
        f"{verdict.detail}"
    )


# --- (30)


def _hermite(index: int) -> sp.Expr:
    """The orthonormal Hermite polynomial He_i/sqrt(i!) of L_2(N(0, 1))."""
    return sp.hermite_prob(index, _x) / sp.sqrt(sp.factorial(index))


def _density() -> sp.Expr:
    return sp.exp(-(_x**2) / 2) / sp.sqrt(2 * sp.pi)


def _squared_norm() -> sp.Expr:
    """int f^2 p dx, f = sum_i alpha_i phi_i."""
    function = sum(a * _hermite(i) for i, a in enumerate(_coefficients))
    return sp.Integral(function**2 * _density(), (_x, -sp.oo, sp.oo))


def _double_sum() -> sp.Expr:
    """sum_ij alpha_i alpha_j int p phi_i phi_j dx."""
    return sp.Add(
        *(
            a
            * b
            * sp.Integral(_density() * _hermite(i) * _hermite(j), (_x, -sp.oo, sp.oo))
            for i, a in enumerate(_coefficients)
            for j, b in enumerate(_coefficients)
        )
    )


def _sum_of_squares() -> sp.Expr:
    return sp.Add(*(a**2 for a in _coefficients))


def _judge_integrals(relation: sp.Basic) -> Verdict:
    """Evaluate every integral of both sides exactly (``doit``), then
    :func:`check_identity`."""
    with time_limit(60):
        lhs, rhs = (sp.expand(side.doit()) for side in relation.args)
    if lhs.has(sp.Integral) or rhs.has(sp.Integral):
        return Verdict.inconclusive(
            "SymPy left an integral unevaluated", Reason.UNEVALUATED
        )
    verdict = check_identity(lhs, rhs)
    return verdict.with_detail(
        f"p = N(0, 1), phi_i = He_i/sqrt(i!), M = {BASIS_SIZE}, the integrals "
        f"evaluated exactly: {verdict.detail}"
    )


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "25",
        "conditioning",
        Kind.IDENTITY,
        "E_{p_f} h = (2 pi sigma^2)^{-1/2} int int h(x, y) e^{-(y - f(x))^2/"
        "(2 sigma^2)} p(x) dx dy for every h: (25) is the difference of this "
        "for f and g under the supremum of (23)",
        RelationCheck(_conditioning, _judge_conditioning),
        Status.HOLDS,
        formula=_conditioning,
        assumptions=("y = f(x) + epsilon, epsilon ~ N(0, sigma^2) independent of x",),
        quote="By conditioning p_f(x,y) and p_g(x,y) on x, we can write γ_β(p_f, "
        "p_g) = sup_{∥h∥_BL≤1} |1/√(2πσ²) ∫ [h(x,y) e^{−(y−f(x))²/2σ²} − h(x,y) "
        "e^{−(y−g(x))²/2σ²}] p(x) dx dy| (25)",
        reading=Reading.PRINTED,
        regime="h, f and p undefined functions (every test function, regression "
        "function and input law with a density), sigma > 0 symbolic",
    ),
)

DERIVATIONS: tuple[Derivation, ...] = (
    Derivation(
        source=SOURCE_ID,
        equation="30",
        label="orthonormal-expansion",
        title="The squared norm of f in an orthonormal basis of L_2(p)",
        start=_squared_norm,
        steps=(
            Step(
                _double_sum,
                "expand the square of f = sum_i alpha_i phi_i",
                quote="∫ f(x)² p(x) dx = Σ_{i,j} α_i α_j ∫ p(x) ϕ_i(x) ϕ_j(x) dx",
                judge=_judge_integrals,
            ),
            Step(
                _sum_of_squares,
                "orthonormality: int p phi_i phi_j = delta_ij",
                quote="= Σ_i α_i² (30)",
                judge=_judge_integrals,
            ),
        ),
        quote="We can expand f in the orthonormal basis {ϕ_i}_{i=1}^M as f = "
        "Σ_{i=1}^M α_i ϕ_i, so that",
        reading=Reading.PRINTED,
        regime=f"p = N(0, 1), phi_i the normalized Hermite polynomials, M = "
        f"{BASIS_SIZE}, alpha_i symbolic; (30) is stated for any p and orthonormal "
        "basis",
    ),
)

#: Symbol -> LaTeX for the symbols of this module's formulas.
GLYPHS: dict[sp.Symbol, str] = {
    _x: "x",
    _y: "y",
    _noise: r"\epsilon",
    _sigma: r"\sigma",
    **{a: rf"\alpha_{{{i}}}" for i, a in enumerate(_coefficients)},
}
