r"""Gradient descent on diagonal linear networks, batched: STL and MTL.

A diagonal linear network with O outputs (eqs. 7 and 25 of
ptft-diagonal-networks) computes :math:`f(x) = \beta x` with

.. math:: \beta_{o,d} = w^{(2)}_{+,o,d}\, w^{(1)}_{+,d}
          - w^{(2)}_{-,o,d}\, w^{(1)}_{-,d};

one output (O = 1) is the single-task network of eq. (7). The loss is eq. (8)'s
squared error divided by the number of samples n,

.. math:: L = \tfrac1n \|X\beta^\top - Y\|_F^2,\qquad
          G := \frac{\partial L}{\partial\beta} = \tfrac2n R^\top X,\qquad
          R = X\beta^\top - Y,

so that one learning rate suits every n. The division rescales the time of the
flow (8)-(9) by :math:`1/n` and leaves its limit :math:`\beta(\infty)`
unchanged. The gradients, written by hand, are
:math:`\partial L/\partial w^{(1)}_{\pm,d} = \pm\sum_o G_{o,d}
w^{(2)}_{\pm,o,d}` and :math:`\partial L/\partial w^{(2)}_{\pm,o,d} =
\pm G_{o,d} w^{(1)}_{\pm,d}`; gradient descent with learning rate
:math:`\eta` is the Euler discretization of that flow with time step
:math:`\eta`, so its endpoint is :math:`O(\eta)` away from the flow's.

Batching. K independent networks advance together: their weights are stacked
as (K, D) and (K, O, D) arrays, and one step costs two products with X for the
whole batch, :math:`R = X\beta^\top - Y` and :math:`G \propto R^\top X`. ``X``
is either shared, shape (n, D), and then each product is one matrix-matrix
product over all K networks, or per network, shape (K, n, D), a stacked
product that reads X once (``benchmarks/bench_diagonal_networks.py``).
Internally (``_train_groups``, for the experiments of
:mod:`implicit_bias.validation.diagonal_experiments`) X may also be one matrix
per group of networks, each group's products one matrix-matrix product.
Sample sizes may differ: network k uses the first ``sample_counts[k]`` rows;
the other rows are masked out of its residual and its loss is divided by
``sample_counts[k]``. Every network has its own learning rate and
initialization. A network whose loss reaches the tolerance is frozen and
dropped from the batch, so its result is the first iterate that met it.

Initialization. The single- and multi-task trainers start both branches at the
same weights, :math:`w_+(0) = w_-(0) = w_0`, the assumption of Appendix A (so
:math:`\beta(0) = 0`). Gradient flow that then converges to an interpolant ends
exactly at

.. math:: \beta(\infty) = \arg\min_{X\beta = y} \sum_d k_d\, q(2\beta_d/k_d),
          \qquad k_d = (w^{(1)}_{0,d})^2 + (w^{(2)}_{0,d})^2

(eqs. 21-23). PT+FT
(:mod:`implicit_bias.validation.diagonal_pretrain_finetune`) is two single-task
runs, the second from weights that keep this assumption.

Multi-task caveat. Eqs. (26)-(30) show that the minimum-PARAMETER-norm
multi-task network has the minimum :math:`\ell_{1,2}` predictor. Gradient
descent from small initialization need not find it: for O >= 2 the flow of
:math:`\beta_{:,d}` is preconditioned by
:math:`|\beta_{:,d}|(I + u u^\top)`, :math:`u = \beta_{:,d}/|\beta_{:,d}|`,
which is not the inverse Hessian of any potential, so there is no mirror-flow
argument as in Appendix A; on generic problems the endpoint's
:math:`\ell_{1,2}` norm stays above the minimum as :math:`\alpha \to 0`
(``tests/validation/test_diagonal_networks.py``).

Stopping. A network stops when its loss is at most ``tol`` times
:math:`\|y\|^2/n`, the loss of :math:`\beta = 0`; the default
``tol = 1e-20`` leaves a residual of :math:`10^{-10}\|y\|`. Near sparse
interpolants the last coordinates converge slowly (their rate is proportional
to their own size), which is why the experiments of Appendix E.1
(:mod:`implicit_bias.validation.diagonal_experiments`) stop at ``tol = 1e-6``.
Failures. Divergence raises :class:`~implicit_bias.errors.ConvergenceError`
at once (never NaN in a result): a loss that overflows or grows :math:`10^4`
times above its initial value (with a stable step the loss only decreases).
Every 1000 steps the weights are compared with those 1000 steps before: the
iteration is a function of the weights alone, so a network back at the same
weights (a stationary point such as :math:`w_0 = 0`, or steps below the
rounding of the weights) is stuck forever and raises at once. A network that
has not converged after ``max_steps`` steps raises too. With
``strict=False`` neither raises: the networks are returned as they are after
``max_steps`` steps (a stuck one without running them). A loss beyond the
float64 range at the initial weights raises
:class:`~implicit_bias.errors.OutOfRangeError`.
"""

from __future__ import annotations

from implicit_bias.validation.diagonal_networks.descent import (
    DEFAULT_MAX_STEPS,
    DEFAULT_TOLERANCE,
    DiagonalTrainingResult,
    diagonal_coefficients,
    Float64Array as Float64Array,
)
from implicit_bias.validation.diagonal_networks.trainers import (
    train_diagonal_networks,
    train_multitask_diagonal_networks,
)

# The sibling experiment modules (diagonal_experiments,
# diagonal_pretrain_finetune) share the trainers' argument checks and batching.
from implicit_bias.validation.diagonal_networks.trainers import (
    _flag as _flag,
    _positive as _positive,
    _prepare as _prepare,
    _train_groups as _train_groups,
)

__all__ = [
    "DEFAULT_MAX_STEPS",
    "DEFAULT_TOLERANCE",
    "DiagonalTrainingResult",
    "diagonal_coefficients",
    "train_diagonal_networks",
    "train_multitask_diagonal_networks",
]
