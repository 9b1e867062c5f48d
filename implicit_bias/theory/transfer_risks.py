r"""Asymptotic risks of deep linear transfer learning (Section 3 of features-are-fate).

Theorems 3.6-3.9 and eqs. (10), (12), (13), (15), (16), (17) of
features-are-fate, as SymPy expressions, with the negative-transfer boundaries
the text derives from them.

Notation (the paper's). :math:`\gamma = n/d` is the ratio of target samples to
input dimension (``gamma``; :math:`\gamma < 1` is overparameterized),
:math:`\sigma` the standard deviation of the target label noise (``sigma``;
the paper's :math:`\epsilon\sim\mathcal N(0,\sigma^2)` of eqs. (1)-(2)),
:math:`\theta` the angle between the unit-norm source and target weight vectors,
:math:`\beta_s^\top\beta_t = \cos\theta` (``theta``; Assumption 3.2 fixes
:math:`\|\beta_s\|_2 = \|\beta_t\|_2 = 1`), :math:`n` the number of target
samples (``n``, eq. (12) is exact at finite n) and :math:`\lambda` the ridge
parameter of eq. (14) (``lam``). Risks are expectations over the training set,
:math:`\mathbb E_{\mathcal D}\mathcal R`, and transferabilities
:math:`\mathcal T = \mathbb E_{\mathcal D}(\mathcal R_{sc} - \mathcal R_{tx})`
(eq. 7).

The two branches of the piecewise results are also given separately
(``*_overparameterized`` for :math:`\gamma<1`, ``*_underparameterized`` for
:math:`\gamma>1`), since most statements of the text are about one regime.

Negative transfer of linear transfer in the overparameterized regime.
Multiplying eq. (13) by :math:`1-\gamma>0`,

.. math:: (1-\gamma)\,\mathcal T_{lt} = \gamma^2 - (1+\cos^2\theta-\sigma^2)\gamma
          + \cos^2\theta \equiv q(\gamma),

whose roots are the paper's
:math:`\gamma_\pm = \tfrac12[(1+\cos^2\theta-\sigma^2)
\pm\sqrt{(1+\cos^2\theta-\sigma^2)^2 - 4\cos^2\theta}]`.

Every object here is a SymPy expression; nothing is evaluated numerically.
"""

from __future__ import annotations

import sympy as sp

__all__ = [
    "GLYPHS",
    "finetune_risk",
    "finetune_risk_overparameterized",
    "finetune_transferability",
    "finetune_transferability_overparameterized",
    "gamma",
    "gamma_minus",
    "gamma_minus_atom",
    "gamma_plus",
    "gamma_plus_atom",
    "lam",
    "linear_transfer_risk",
    "linear_transferability",
    "linear_transferability_overparameterized",
    "linear_transferability_underparameterized",
    "n",
    "negative_transfer_discriminant",
    "negative_transfer_quadratic",
    "ridge_transfer_risk",
    "risk_finetune",
    "risk_linear",
    "risk_ridge",
    "risk_scratch",
    "scratch_risk",
    "scratch_risk_overparameterized",
    "scratch_risk_underparameterized",
    "sigma",
    "theta",
    "transferability_finetune",
    "transferability_linear",
    "underparameterized_negative_transfer_gamma",
]

#: Target samples per input dimension, :math:`\gamma = n/d`.
gamma = sp.Symbol("gamma", positive=True)
#: Standard deviation of the target label noise.
sigma = sp.Symbol("sigma", nonnegative=True)
#: Angle between source and target weights, :math:`\beta_s^\top\beta_t=\cos\theta`.
theta = sp.Symbol("theta", real=True)
#: Number of target samples (eq. (12) holds for n > 2).
n = sp.Symbol("n", positive=True)
#: Ridge parameter of eq. (14).
lam = sp.Symbol("lambda", nonnegative=True)

#: Display atoms: the expected risks and transferabilities as the paper names them.
risk_scratch = sp.Symbol("R_sc", real=True)
risk_linear = sp.Symbol("R_lt", real=True)
risk_ridge = sp.Symbol("R_lt_lambda", real=True)
risk_finetune = sp.Symbol("R_ft", real=True)
transferability_linear = sp.Symbol("T_lt", real=True)
transferability_finetune = sp.Symbol("T_ft", real=True)
gamma_minus_atom = sp.Symbol("gamma_minus", real=True)
gamma_plus_atom = sp.Symbol("gamma_plus", real=True)

#: How each symbol of this module is typeset (paper notation).
GLYPHS: dict[sp.Symbol, str] = {
    risk_scratch: r"\mathbb{E}_{\mathcal{D}}\mathcal{R}_{sc}",
    risk_linear: r"\mathbb{E}_{\mathcal{D}}\mathcal{R}_{lt}",
    risk_ridge: r"\mathbb{E}_{\mathcal{D}}\mathcal{R}^{\lambda}_{lt}",
    risk_finetune: r"\mathbb{E}_{\mathcal{D}}\mathcal{R}_{ft}",
    transferability_linear: r"\mathcal{T}_{lt}",
    transferability_finetune: r"\mathcal{T}_{ft}",
    gamma_minus_atom: r"\gamma_-",
    gamma_plus_atom: r"\gamma_+",
    gamma: r"\gamma",
    sigma: r"\sigma",
    theta: r"\theta",
    n: r"n",
    lam: r"\lambda",
}


# --- Theorem 3.6: training from scratch (double descent)


def scratch_risk_overparameterized() -> sp.Expr:
    r"""Eq. (10), :math:`\gamma<1`: :math:`((1-\gamma)^2+\gamma\sigma^2)/(1-\gamma)`."""
    return ((1 - gamma) ** 2 + gamma * sigma**2) / (1 - gamma)


def scratch_risk_underparameterized() -> sp.Expr:
    r"""Eq. (10), :math:`\gamma>1`: :math:`\sigma^2/(\gamma-1)`."""
    return sigma**2 / (gamma - 1)


def scratch_risk() -> sp.Piecewise:
    r"""Eq. (10): the expected risk of the minimum-norm (scratch-trained) model.

    .. math:: \mathbb E_{\mathcal D}\mathcal R_{sc} = \begin{cases}
              \frac{(1-\gamma)^2+\gamma\sigma^2}{1-\gamma} & \gamma<1\\
              \frac{\sigma^2}{\gamma-1} & \gamma>1\end{cases}

    Theorem 3.6 of features-are-fate; :math:`\gamma = 1` is left out, as printed.
    """
    return sp.Piecewise(
        (scratch_risk_overparameterized(), gamma < 1),
        (scratch_risk_underparameterized(), gamma > 1),
    )


# --- Theorem 3.7 and eq. (13): linear transfer


def linear_transfer_risk() -> sp.Expr:
    r"""Eq. (12): :math:`\sin^2\theta + (\sigma^2+\sin^2\theta)/(n-2)`.

    Theorem 3.7 of features-are-fate: the expected risk of retraining the last
    layer of the pretrained network on n target samples (finite n > 2).
    """
    return sp.sin(theta) ** 2 + (sigma**2 + sp.sin(theta) ** 2) / (n - 2)


# Eq. (13) is transcribed as printed, not built from eqs. (10) and (12), so
# that the claim that it follows from them compares two transcriptions.


def linear_transferability_overparameterized() -> sp.Expr:
    r"""Eq. (13), :math:`\gamma<1`, as printed.

    .. math:: \frac{(1-\gamma)^2+\gamma\sigma^2}{1-\gamma} - \sin^2\theta
    """
    return ((1 - gamma) ** 2 + gamma * sigma**2) / (1 - gamma) - sp.sin(theta) ** 2


def linear_transferability_underparameterized() -> sp.Expr:
    r"""Eq. (13), :math:`\gamma>1`, as printed.

    .. math:: \frac{\sigma^2}{\gamma-1} - \sin^2\theta
    """
    return sigma**2 / (gamma - 1) - sp.sin(theta) ** 2


def linear_transferability() -> sp.Piecewise:
    r"""Eq. (13): the linear transferability as :math:`n, d\to\infty`.

    .. math:: \mathcal T_{lt} = \begin{cases}
              \frac{(1-\gamma)^2+\gamma\sigma^2}{1-\gamma} - \sin^2\theta
              & \gamma<1\\
              \frac{\sigma^2}{\gamma-1} - \sin^2\theta & \gamma>1\end{cases}

    Eq. (13) of features-are-fate.
    """
    return sp.Piecewise(
        (linear_transferability_overparameterized(), gamma < 1),
        (linear_transferability_underparameterized(), gamma > 1),
    )


def negative_transfer_quadratic() -> sp.Expr:
    r""":math:`q(\gamma) = \gamma^2-(1+\cos^2\theta-\sigma^2)\gamma+\cos^2\theta`.

    :math:`q = (1-\gamma)\mathcal T_{lt}` for :math:`\gamma<1` (module docstring),
    so it has the sign of eq. (13) there.
    """
    return gamma**2 - (1 + sp.cos(theta) ** 2 - sigma**2) * gamma + sp.cos(theta) ** 2


def negative_transfer_discriminant() -> sp.Expr:
    r"""The discriminant :math:`(1+\cos^2\theta-\sigma^2)^2-4\cos^2\theta` of q."""
    return (1 + sp.cos(theta) ** 2 - sigma**2) ** 2 - 4 * sp.cos(theta) ** 2


def gamma_plus() -> sp.Expr:
    r""":math:`\gamma_+ = \frac12[1+\cos^2\theta-\sigma^2+\sqrt{\Delta}]` (Sec. 3.3)."""
    linear = 1 + sp.cos(theta) ** 2 - sigma**2
    return (linear + sp.sqrt(negative_transfer_discriminant())) / 2


def gamma_minus() -> sp.Expr:
    r""":math:`\gamma_- = \frac12[1+\cos^2\theta-\sigma^2-\sqrt{\Delta}]` (Sec. 3.3)."""
    linear = 1 + sp.cos(theta) ** 2 - sigma**2
    return (linear - sp.sqrt(negative_transfer_discriminant())) / 2


def underparameterized_negative_transfer_gamma() -> sp.Expr:
    r""":math:`1+\sigma^2/\sin^2\theta`: eq. (13) is negative above it for gamma > 1.

    The text's condition :math:`\gamma - 1 > \sigma^2/\sin^2\theta` (Section 3.3).
    """
    return 1 + sigma**2 / sp.sin(theta) ** 2


# --- Theorem 3.8: ridge linear transfer


def ridge_transfer_risk() -> sp.Expr:
    r"""Eq. (15): :math:`1-\cos^2\theta\,(1+2\lambda)/(1+\lambda)^2`.

    Theorem 3.8 of features-are-fate: the :math:`n\to\infty` risk of linear
    transfer with the ridge penalty :math:`\frac\lambda2\|W_L\|^2` of eq. (14).
    """
    return 1 - sp.cos(theta) ** 2 * (1 + 2 * lam) / (1 + lam) ** 2


# --- Theorem 3.9: fine-tuning


def finetune_risk_overparameterized() -> sp.Expr:
    r"""Eq. (16), :math:`\gamma\le1`: (10) plus :math:`(1-\gamma)(1-2\cos\theta)`."""
    return scratch_risk_overparameterized() + (1 - gamma) * (1 - 2 * sp.cos(theta))


def finetune_risk() -> sp.Piecewise:
    r"""Eq. (16): the expected risk of fine-tuning all layers from pretraining.

    .. math:: \mathbb E_{\mathcal D}\mathcal R_{ft} = \begin{cases}
              \mathbb E_{\mathcal D}\mathcal R_{sc}+(1-\gamma)(1-2\cos\theta)
              & \gamma\le1\\
              \mathbb E_{\mathcal D}\mathcal R_{sc} & \gamma>1\end{cases}

    Theorem 3.9 of features-are-fate (at :math:`\gamma=1` eq. (10) is undefined,
    so the first branch is written for :math:`\gamma<1`).
    """
    return sp.Piecewise(
        (finetune_risk_overparameterized(), gamma < 1),
        (scratch_risk_underparameterized(), gamma > 1),
    )


def finetune_transferability_overparameterized() -> sp.Expr:
    r"""Eq. (17), :math:`\gamma\le1`: :math:`(\gamma-1)(1-2\cos\theta)`."""
    return (gamma - 1) * (1 - 2 * sp.cos(theta))


def finetune_transferability() -> sp.Piecewise:
    r"""Eq. (17): :math:`(\gamma-1)(1-2\cos\theta)` for :math:`\gamma\le1`, else 0.

    Eq. (17) of features-are-fate.
    """
    return sp.Piecewise(
        (finetune_transferability_overparameterized(), gamma <= 1),
        (sp.Integer(0), True),
    )
