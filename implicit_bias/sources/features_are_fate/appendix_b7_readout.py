r"""Claims of features-are-fate, Appendix B.7: the ridge-transfer readout, (124).

The proof of Theorem 3.8 writes the coefficient of the network after ridge
transfer as :math:`\hat\beta = W_1W_2\cdots W_{L-1}\hat W_L` (124), with
:math:`\hat W_L` the ridge solution (121) on the rank-one features (122)-(123),
and arrives at :math:`\hat\beta = \frac{(X\beta_s)^\top y_t}{\|X\beta_s\|_2^2 +
n\lambda}\beta_s` (126). The chain is checked on the instance of
:func:`~implicit_bias.sources.features_are_fate.appendix_b6_readout.rank_one_layers`
(:math:`L = 3`, :math:`n = 3`, :math:`d = 2`, rank-one layers of Theorem 3.4,
:math:`X`, :math:`y_t` symbols): (124) from the gradient in :math:`x` of the
trained network, exactly; (126) with (121) substituted for :math:`\hat W_L`,
at exact rational instances (tolerance 0: a nonzero entry is a
counterexample).
"""

from __future__ import annotations

import sympy as sp

from implicit_bias.claims.derivation import Derivation, Step
from implicit_bias.claims.engine import Reading
from implicit_bias.sources.features_are_fate.appendix_b6_readout import (
    judge_with_readout,
    network_gradient,
    rank_one_layers,
)
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.theory import transfer_asymptotics as theory

__all__ = ["DERIVATIONS"]

_ridge = theory.lam


def _eq124() -> sp.Matrix:
    """(124): W_1 W_2 W_hat_L."""
    layers = rank_one_layers()
    return layers["W_1"] * layers["W_2"] * layers["W_L"]


def _eq126() -> sp.Matrix:
    """(126): (X beta_s)^T y_t/(||X beta_s||^2 + n lambda) beta_s."""
    layers = rank_one_layers()
    coefficient = theory.ridge_coefficient_eq126(layers["z"], layers["y"], _ridge)
    return coefficient * layers["beta_s"]


def _ridge_readout(point: dict) -> sp.Matrix:
    """(121) at ``point``: (Phi^T Phi + n lambda I)^{-1} Phi^T y_t, Phi = X W_1 W_2."""
    layers = rank_one_layers()
    return theory.ridge_readout_eq121(
        layers["Phi"].xreplace(point), layers["y"].xreplace(point), _ridge
    ).applyfunc(sp.cancel)


DERIVATIONS: tuple[Derivation, ...] = (
    Derivation(
        source=SOURCE_ID,
        equation="124-126",
        label="ridge-readout",
        title="The coefficient of the network after ridge transfer",
        start=network_gradient,
        steps=(
            Step(
                _eq124,
                "the network (9) is linear in x: its coefficient is the product "
                "of its layers",
                equation="124",
                quote="β̂ = W_1 W_2 ... W_{L−1} Ŵ_L (124)",
            ),
            Step(
                _eq126,
                "substitute the ridge readout (121) on Phi = (X beta_s) v^T "
                "(122) and W_1 ... W_{L-1} = beta_s v^T (123)",
                equation="126",
                quote="= ((Xβ_s)^T y_t/(∥Xβ_s∥²₂ + nλ)) β_s (126)",
                judge=judge_with_readout(
                    _ridge_readout,
                    "(Phi^T Phi + n lambda I)^{-1} Phi^T y_t (121)",
                ),
            ),
        ),
        quote="Combining these expressions we can solve for the linear function the "
        "network implements after transfer learning with ridge regression",
        reading=Reading.PRINTED,
        regime="L = 3, n = 3, d = 2: X and y_t symbols, the rank-one layers of "
        "Theorem 3.4 W_1 = beta_s u^T, W_2 = u v^T with unit beta_s, u, v rational "
        "in one symbol each, lambda > 0 symbolic; (124)-(126) are stated for every "
        "L, n, d",
        assumptions=(
            "Phi = X W_1 ... W_{L-1} = (X beta_s) v^T (Theorem 3.4)",
            "W_hat_L the ridge solution (121) of (14)",
        ),
    ),
)
