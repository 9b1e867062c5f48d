r"""Appendix A.1 of adaptive-tangent-features: the diagonal M example.

With M constrained to be diagonal, problem (4) separates over coordinates
into scalar problems, eq. (21), and with :math:`\omega(m) = m^2` their
minimum is :math:`2|\beta_j|`, so :math:`\tilde\Omega = 2\|\cdot\|_1`, eq.
(22). Checked: (21) by direct minimization over all :math:`m > 0` for the
penalties of :data:`~.penalty_families.PENALTIES`; (22) exactly, and tied to
eq. (30) of ptft-diagonal-networks (the :math:`\ell_{1,2}` result with one
output). Section 3.1's remark on this case is in :mod:`.structureless`,
which uses :func:`diagonal_frobenius_minimum`, :func:`eq22_relation` and
:func:`judge_eq22`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import sympy as sp

from implicit_bias.claims.checks import RelationCheck, check_close, judge_relation
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Status,
    Verdict,
    conjunction,
)
from implicit_bias.numerics.tangent_features import omega_tilde
from implicit_bias.sources.adaptive_tangent_features import notation as nt
from implicit_bias.sources.adaptive_tangent_features._exact import is_zero, undecided
from implicit_bias.sources.adaptive_tangent_features._float64 import (
    DIRECT_RTOL,
    Float64Array,
    compared,
    unconstrained_minimum,
)
from implicit_bias.sources.adaptive_tangent_features.penalty_families import PENALTIES
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID
from implicit_bias.theory import diagonal_networks
from implicit_bias.theory import tangent_features as theory

__all__ = ["CLAIMS", "diagonal_frobenius_minimum", "eq22_relation", "judge_eq22"]


# --- eq. (21): the problem separates over coordinates


def _check_diagonal_unconstrained() -> Verdict:
    tildes, minima = [], []
    for omega in PENALTIES.values():
        for beta in (0.05, 0.7, 4.0, 50.0):

            def objective(
                log_m: Float64Array,
                b: float = beta,
                penalty: Callable[[Float64Array], Float64Array] = omega,
            ) -> Float64Array:
                m = np.exp(log_m)
                return np.asarray(penalty(m) + b**2 / m**2, dtype=np.float64)

            value, _ = unconstrained_minimum(objective, -3.0, 8.0, (0.0,))
            tildes.append(float(omega_tilde(omega, beta)))
            minima.append(value)
    return compared(
        [
            check_close(
                tildes,
                minima,
                DIRECT_RTOL,
                what="omega~(beta) vs the minimum over all m > 0",
                relative=True,
                basis=Basis.SEARCH,
            )
        ],
        "A.1's scalar problem min over all m > 0 of omega(m) + beta^2/m^2 equals "
        "omega~(beta) of eq. (12) (z >= 1) over 7 penalties and beta in {0.05, "
        "0.7, 4, 50}; so Omega~(beta) = sum_j omega~(beta_j)",
    )


# --- eq. (22): omega(m) = m^2 gives 2||beta||_1


def diagonal_frobenius_minimum() -> tuple[sp.Expr, sp.Expr]:
    """Minimize m^2 + beta^2/m^2 over m > 0: (m^2 at the minimum, the minimum)."""
    objective = theory.diagonal_objective(lambda x: x**2, theory.m, theory.beta)
    # The roots are +-i sqrt|beta| and sqrt|beta|; keep the real one.
    stationary = [
        r for r in sp.solve(sp.diff(objective, theory.m), theory.m) if not r.has(sp.I)
    ]
    (m_star,) = stationary
    return sp.simplify(m_star**2), sp.simplify(objective.subs(theory.m, m_star))


def eq22_relation() -> sp.Eq:
    """Eq. (22) for one coordinate: the objective at m_j^2 = |beta_j| is 2|beta_j|."""
    return sp.Eq(
        theory.diagonal_objective(
            lambda x: x**2, sp.sqrt(sp.Abs(theory.beta)), theory.beta
        ),
        2 * sp.Abs(theory.beta),
        evaluate=False,
    )


def judge_eq22(relation: sp.Basic) -> Verdict:
    """The relation (the value at m_j^2 = |beta_j|), and that m_j^2 = |beta_j| is
    the only positive stationary point of m^2 + beta_j^2/m^2 (so the minimum)."""
    m_squared, _ = diagonal_frobenius_minimum()
    value = judge_relation(relation)
    if is_zero(m_squared - sp.Abs(theory.beta)):
        minimizer = Verdict.holds(
            "exact: the only positive stationary point is m^2 = |beta_j|", Basis.PROOF
        )
    else:
        minimizer = undecided(f"m^2 - |beta| = {m_squared - sp.Abs(theory.beta)}")
    return conjunction(
        [minimizer, value],
        f"{minimizer.detail}; the value there, {sp.sstr(relation)}: {value.detail}; "
        "summed over j: 2||beta||_1",
    )


def _check_eq22_diagonal_networks() -> Verdict:
    beta_j, m_j = theory.beta, theory.m
    ours = theory.diagonal_objective(lambda x: x**2, m_j, beta_j)
    theirs = diagonal_networks.mtl_objective_eq28(m_j, sp.Abs(beta_j))
    same_objective = is_zero(ours - theirs)
    same_minimizer = is_zero(
        diagonal_networks.stationary_z_squared(sp.Abs(beta_j))
        - diagonal_frobenius_minimum()[0]
    )
    betas = sp.Matrix([sp.symbols("b1:4", real=True)]).T
    ours_total = sum(2 * sp.Abs(b) for b in betas)
    theirs_total = 2 * diagonal_networks.l12_norm(betas.T)
    same_norm = is_zero(ours_total - theirs_total)
    if same_objective and same_minimizer and same_norm:
        return Verdict.holds(
            "exact: omega(m) + beta_j^2/m^2 with omega(m) = m^2 is "
            "diagonal_networks.mtl_objective_eq28(m, |beta_j|) (eq. (28) of "
            "ptft-diagonal-networks, one output), its minimizer m^2 = |beta_j| is "
            "stationary_z_squared (eq. (29)), and 2 sum_j |beta_j| is 2 l12_norm of "
            "the 1 x 3 matrix of betas (eq. (30)): eq. (22) is eq. (30) with O = 1",
            Basis.PROOF,
        )
    return undecided(
        f"objective equal: {same_objective}, minimizer equal: {same_minimizer}, "
        f"norm equal: {same_norm}"
    )


# --- formulas: what each check compares, for the ledger


def _formula_separable() -> sp.Basic:
    return sp.Eq(
        nt.effective_penalty(theory.beta),
        sp.Sum(nt.omega_tilde(nt.beta_entry[nt.j]), (nt.j, 1, nt.P)),
    )


def _formula_diagonal_networks() -> sp.Basic:
    return sp.Eq(nt.effective_penalty(theory.beta), 2 * nt.l12_norm)


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "21",
        "separable",
        Kind.NUMERIC,
        (
            r"for diagonal $M$ the problem separates into $\min_{m_j} \omega(m_j) + "
            r"\beta_j^2/m_j^2$, and $\tilde\Omega(\beta) = \sum_j "
            r"\tilde\omega(\beta_j)$"
        ),
        _check_diagonal_unconstrained,
        Status.HOLDS,
        quote=(
            r"\widetilde{\Omega}({\bm{\beta}})=\sum_{j=1}^{P}\tilde{\omega}(\beta_{j})"
        ),
        reading=Reading.PRINTED,
        regime=(
            "the 7 penalties of PENALTIES, beta_j in {0.05, 0.7, 4, 50}, m searched "
            "over [e^-3, e^8]: Appendix A.1"
        ),
        assumptions=("the 7 penalties of PENALTIES",),
        formula=_formula_separable,
    ),
    Claim(
        SOURCE_ID,
        "22",
        "l1",
        Kind.IDENTITY,
        (
            r"with $\omega(m) = m^2$ the minimizer of $m_j^2 + \beta_j^2/m_j^2$ is "
            r"$m_j^2 = |\beta_j|$ and $\tilde\Omega(\beta) = 2\|\beta\|_1$"
        ),
        RelationCheck(eq22_relation, judge_eq22),
        Status.HOLDS,
        quote=(
            r"\widetilde{\Omega}({\bm{\beta}})=\sum_{j=1}^{P}2|\beta_{j}|=2\|{\bm{\be"
            r"ta}}\|_{1}"
        ),
        reading=Reading.PRINTED,
        regime=(
            "all real beta_j, omega(m) = m^2 minimized over m > 0: Appendix A.1, as "
            "stated"
        ),
    ),
    Claim(
        SOURCE_ID,
        "22",
        "diagonal-networks-eq30",
        Kind.IDENTITY,
        "eq. (22) is the l_{1,2} result of eq. (30) of ptft-diagonal-networks with "
        "one output: same objective (eq. (28)), minimizer (eq. (29)) and value",
        _check_eq22_diagonal_networks,
        Status.HOLDS,
        quote=(
            r"\widetilde{\Omega}({\bm{\beta}})=\sum_{j=1}^{P}2|\beta_{j}|=2\|{\bm{\be"
            r"ta}}\|_{1}"
        ),
        reading=Reading.EXTENSION,
        regime=(
            "all real beta_j, omega(m) = m^2, three coordinates: a link to another "
            "source that this one does not draw"
        ),
        formula=_formula_diagonal_networks,
    ),
)
