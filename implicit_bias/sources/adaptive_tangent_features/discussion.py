r"""Section 4 of adaptive-tangent-features: the discussion's eq. (20).

"Average features vs. final features": the average tangent features of eq.
(2) as an average transformation :math:`M_{\theta'}` of the initial ones
along the path, eq. (20). Checked exactly on a two-layer linear network with
symbolic entries, with an :math:`M_{\theta'}` in (10)'s Kronecker form.
"""

from __future__ import annotations

import sympy as sp

from implicit_bias.claims.checks import check_identity, judge_relation
from implicit_bias.claims.engine import (
    Claim,
    Kind,
    Reading,
    Status,
    Verdict,
    conjunction,
)
from implicit_bias.sources.adaptive_tangent_features import notation as nt
from implicit_bias.sources.adaptive_tangent_features._exact import undecided
from implicit_bias.sources.adaptive_tangent_features._matrices import generic_matrix
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID
from implicit_bias.theory import tangent_features as theory

__all__ = ["CLAIMS"]

t = theory.t


# --- Section 4, eq. (20): the average features as an average transformation
#
# A model in which the text's M_theta' exists for every x: the two-layer
# linear network f_theta(x) = a^T B x (C = 1, B of shape H x D = 2 x 2, a of
# H = 2), theta = concat(vec(B), a) as Section 3.2 orders the layers. Its
# tangent features are x^T (x) a^T in vec(B) and x^T B^T in a, so with B_0
# invertible and a_0 != 0,
#   M_theta' = blockdiag(I_D (x) (I_H + a_0 (a' - a_0)^T / ||a_0||^2),
#                        B_0^-T B'^T)
# maps the initial features to those at theta' = (B', a'): per layer, and in
# (10)'s Kronecker form on vec(B); at theta_0 it is I_P, as the text's
# M_theta0 = I_P. (The text does not say which M_theta' it means when several
# exist; (20) holds for any that maps the features, so this one decides it.)


_EQ20_HIDDEN = 2
_EQ20_INPUTS = 2


def _eq20_network() -> dict[str, sp.Matrix]:
    """The symbols of the two-layer instance: theta_0, theta, x, a test vector."""
    hidden, inputs = _EQ20_HIDDEN, _EQ20_INPUTS
    return {
        "b0": generic_matrix("B0", hidden, inputs),
        "b": generic_matrix("B", hidden, inputs),
        "a0": generic_matrix("a0", hidden, 1),
        "a": generic_matrix("a", hidden, 1),
        "x": generic_matrix("x", inputs, 1),
        "d": generic_matrix("d", hidden * inputs + hidden, 1),
    }


def _eq20_output(b: sp.Matrix, a: sp.Matrix, x: sp.Matrix) -> sp.Expr:
    return (a.T * b * x)[0, 0]


def _eq20_path_transformation(
    b0: sp.Matrix, b: sp.Matrix, a0: sp.Matrix, a: sp.Matrix
) -> sp.Matrix:
    r"""Our :math:`M_{\theta'}` at :math:`\theta' = (B', a')`, with
    :math:`\nabla_{\theta'} f_{\theta'}(x) = \nabla_{\theta_0} f_{\theta_0}(x)
    M_{\theta'}` for every x."""
    hidden, inputs = b0.shape
    first = theory.layer_transform(
        sp.eye(hidden) + a0 * (a - a0).T / (a0.T * a0)[0, 0], sp.eye(inputs)
    )
    last = b0.T.inv() * b.T
    return sp.diag(first, last)


def _eq20_features(b: sp.Matrix, a: sp.Matrix, x: sp.Matrix) -> sp.Matrix:
    """The tangent features at (B, a), by differentiating the output."""
    parameters = sp.Matrix.vstack(b.vec(), a)
    flat = sp.Matrix(sp.symbols(f"q1:{parameters.rows + 1}", real=True))
    hidden, inputs = b.shape
    output = _eq20_output(
        sp.Matrix(inputs, hidden, list(flat[: hidden * inputs])).T,
        flat[hidden * inputs :, :],
        x,
    )
    return (
        sp.Matrix([output])
        .jacobian(flat)
        .subs(dict(zip(flat, parameters, strict=True)))
    )


def _eq20_relations() -> tuple[sp.Eq, sp.Eq]:
    r"""The defining property of :math:`M_{\theta'}` along the path, and (20),
    each contracted with a symbolic vector d."""
    n = _eq20_network()
    b0, b, a0, a, x, d = (n[key] for key in ("b0", "b", "a0", "a", "x", "d"))
    b_path, a_path = b0 + t * (b - b0), a0 + t * (a - a0)
    features_0 = _eq20_features(b0, a0, x)
    features_path = _eq20_features(b_path, a_path, x)
    transformation = _eq20_path_transformation(b0, b_path, a0, a_path)
    identity = sp.eye(transformation.rows)
    defining = sp.Eq(
        (features_path * d)[0, 0],
        (features_0 * transformation * d)[0, 0],
        evaluate=False,
    )
    average = sp.Eq(
        sp.Integral((features_path * d)[0, 0], (t, 0, 1)),
        (features_0 * d)[0, 0]
        + sp.Integral((features_0 * (transformation - identity) * d)[0, 0], (t, 0, 1)),
        evaluate=False,
    )
    return defining, average


def _check_eq20_average_transformation() -> Verdict:
    defining, average = _eq20_relations()
    n = _eq20_network()
    at_start = _eq20_path_transformation(n["b0"], n["b0"], n["a0"], n["a0"])
    if at_start.applyfunc(sp.cancel) != sp.eye(at_start.rows):
        # Not the text's kind of transformation: the instance decides nothing.
        return undecided(f"our M_theta' at theta_0 is {at_start}, not I_P")
    maps = check_identity(defining.lhs, defining.rhs)
    return conjunction(
        [
            maps.with_detail(
                "M_theta' along the path: grad_theta' f_theta'(x) = grad f_0(x) "
                f"M_theta' for all t, x: {maps.detail}"
            ),
            judge_relation(average),
        ],
        "exact, every entry symbolic, f_theta(x) = a^T B x with B 2 x 2, a in "
        "R^2: our M_theta' (per-layer Kronecker form, exactly I_P at theta_0) maps the "
        "initial tangent features to those at every point of the path, and the "
        "path average of the tangent features (the t-integral of (2)) equals "
        "grad f_0(x) (I_P + int_0^1 (M_theta' - I_P) dt)",
    )


# --- formulas: what each check compares, for the ledger


def _formula_eq20() -> sp.Basic:
    return sp.Eq(
        nt.average_features,
        nt.tangent_features_0
        * (
            nt.identity + sp.Integral(nt.M_path - nt.identity, (nt.path_position, 0, 1))
        ),
    )


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "20",
        "average-transformation",
        Kind.IDENTITY,
        (
            r"if $\nabla_{\theta'} f_{\theta'}(x) = \nabla_{\theta_0} "
            r"f_{\theta_0}(x) M_{\theta'}$ along the path, the average features "
            r"of (2) are $\nabla_{\theta_0} f_{\theta_0}(x)(I_P + \int_0^1 "
            r"(M_{\theta'} - I_P)\,dt)$"
        ),
        _check_eq20_average_transformation,
        Status.HOLDS,
        quote=(
            r"\overline{\nabla f_{{\bm{\theta}}}}(\mathbf{x})=\nabla_{{\bm{\theta}}"
            r"_{0}}f_{{\bm{\theta}}_{0}}(\mathbf{x})\mathbf{M}=\nabla_{{\bm{\theta}}_"
            r"{0}}f_{{\bm{\theta}}_{0}}(\mathbf{x})\Big{(}\mathbf{I}_{P}+\int_{0}^{1}"
            r"(\mathbf{M}_{{\bm{\theta}}^{\prime}}-\mathbf{I}_{P})\big{|}_{{\bm{\th"
            r"eta}}^{\prime}=(1-t){\bm{\theta}}_{0}+t{\bm{\theta}}}dt\Big{)}"
        ),
        reading=Reading.PRINTED,
        regime=(
            "the two-layer linear network f_theta(x) = a^T B x (C = 1, B in "
            "R^(2x2), a in R^2, theta = concat(vec(B), a)), B_0 invertible, a_0 != "
            "0, every entry symbolic, with our M_theta' = blockdiag(I_2 (x) (I_2 + "
            "a_0 (a' - a_0)^T / ||a_0||^2), B_0^-T B'^T): one transformation of "
            "the kind the text asks for, I_P at theta_0"
        ),
        assumptions=(
            "B_0 invertible, a_0 != 0",
            "vec stacks columns (the text's Notation)",
        ),
        formula=_formula_eq20,
    ),
)
