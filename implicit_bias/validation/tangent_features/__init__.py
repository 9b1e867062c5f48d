r"""Direct minimization of the relaxed problem (4) and of Lemma 5's problem (27).

Theorem 1 and Lemma 5 of adaptive-tangent-features reduce bilinearly
constrained problems to scalar effective penalties
(:mod:`implicit_bias.numerics.tangent_features`). This module solves the
original problems directly, by gradient descent with hand-written gradients,
without using the reduction, so that the two can be compared.

**Problem (4)** with :math:`\Omega = \Omega_\omega` (eq. 6), tangent features
:math:`J\in\mathbb R^{N\times P}` (row i is
:math:`\nabla_{\theta_0} f_{\theta_0}(x_i)`), residual targets
:math:`r_i = \hat y_i - f_{\theta_0}(x_i)` and :math:`\delta = \theta-\theta_0`:

.. math:: \min_{M,\delta}\ \Omega_\omega(M) + \|\delta\|_2^2
          \quad\text{s.t.}\quad JM\delta = r.

For fixed M the best :math:`\delta` is the minimum-norm solution
:math:`\delta = M^\top J^\top u`, :math:`u = (JMM^\top J^\top)^{-1} r`, so the
descent runs on :math:`F(M) = \Omega_\omega(M) + r^\top(JMM^\top J^\top)^{-1}r`,
every iterate exactly feasible. By footnote 1 M may be taken symmetric, which
removes the orbit :math:`M\mapsto MQ` of equivalent minimizers; the descent
runs on symmetric M, where (Frobenius inner product)

.. math:: \nabla F(M) = U\,\mathrm{diag}(\omega'(|\lambda|)\,
          \mathrm{sign}\,\lambda)\,U^\top
          - (J^\top u\,\delta^\top + \delta\,u^\top J),
          \qquad M = U\,\mathrm{diag}(\lambda)\,U^\top .

**Duality certificate.** For any multiplier :math:`\lambda\in\mathbb R^N` and
any feasible :math:`(M,\delta)`, with :math:`c = \|J^\top\lambda\|^2`,

.. math:: \Omega_\omega(M) + \|\delta\|^2
          \ \ge\ 2\lambda^\top r + \sum_j\omega(\sigma_j) - \|M^\top J^\top
          \lambda\|^2 \ \ge\ 2\lambda^\top r + \min_{z\ge 0}\,(\omega(z) - cz^2),

(minimize the Lagrangian over :math:`\delta`, then use
:math:`\|M^\top v\|\le\sigma_1\|v\|` and :math:`\omega\ge 0`). With
:math:`\lambda = u` this lower bound meets the objective at the optimum, so
the *duality gap* ``objective - dual_bound`` bounds the distance of the
returned objective to the true minimum of (4) rigorously (up to rounding),
whatever the reduction of Theorem 1 says. For
:math:`\omega = |z-1|^p` the inner minimum is at :math:`z = 1+w`,
:math:`p\,w^{p-1} = 2c(1+w)` (one root for :math:`p\ge 2`, found by
bisection; for p = 2 it is :math:`w = c/(1-c)`, and :math:`-\infty` when
:math:`c \ge 1`).

**Problem (27)** with the constraint set a single matrix B
(:math:`P\times Q`):

.. math:: \min_{M_1, M_2}\ \Omega_{\omega_1}(M_1) + \Omega_{\omega_2}(M_2)
          + \|M_1^{-1} B M_2^{-1}\|_F^2,

again on symmetric :math:`M_1, M_2` (the footnote's argument on both sides),
with :math:`W = M_1^{-1}BM_2^{-1}` and gradients
:math:`-2\,\mathrm{sym}(M_1^{-1}WW^\top)` and
:math:`-2\,\mathrm{sym}(W^\top W M_2^{-1})` of the last term.

**Stopping and tolerances.** Descent (Barzilai-Borwein steps with an Armijo
backtracking safeguard) stops when the Frobenius norm of the gradient is at
most ``gradient_tol``. The curvature :math:`\mu`, the smallest eigenvalue of
the Hessian on symmetric matrices, is then estimated by central differences of
the analytic gradient (step ``1e-5``, error :math:`O(10^{-10})`). Near a
non-degenerate minimizer the quadratic model gives

.. math:: F - F^* \le \frac{\|\nabla F\|^2}{2\mu},\qquad
          \|x - x^*\| \le \frac{\|\nabla F\|}{\mu},

to first order: ``gap_bound`` and ``location_bound`` of the results. For (4)
the duality gap is the rigorous counterpart of ``gap_bound``. Only smooth
penalties can be descended: the power family :math:`|z-1|^p` with
:math:`p \ge 2` (the derivative is taken from the family's exponent).
"""

from __future__ import annotations

from implicit_bias.validation.tangent_features.descent import (
    DEFAULT_GRADIENT_TOLERANCE,
    DEFAULT_MAX_ITERATIONS,
    Float64Array as Float64Array,
    Point as Point,
    Objective as Objective,
)
from implicit_bias.validation.tangent_features.closed_forms import (
    minimum_norm_coefficients,
    relaxed_dual_bound,
    theorem_one_value,
)
from implicit_bias.validation.tangent_features.problems import (
    RelaxedProblemSolution,
    TwoSidedSolution,
    solve_relaxed_problem,
    solve_two_sided_problem,
)

__all__ = [
    "DEFAULT_GRADIENT_TOLERANCE",
    "DEFAULT_MAX_ITERATIONS",
    "RelaxedProblemSolution",
    "TwoSidedSolution",
    "minimum_norm_coefficients",
    "relaxed_dual_bound",
    "solve_relaxed_problem",
    "solve_two_sided_problem",
    "theorem_one_value",
]
