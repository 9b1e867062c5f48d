r"""Gradient descent on deep linear networks, batched: pretraining and transfer.

A deep linear network of depth :math:`L \ge 2` (eq. 9 of features-are-fate)
computes :math:`f(x) = x^\top W_1 W_2 \cdots W_L = x^\top\beta` with
:math:`W_l \in \mathbb{R}^{d_{l-1}\times d_l}`, :math:`d_0 = d` and
:math:`d_L = 1`. Every loss of the paper is a function of :math:`\beta` alone:

* pretraining, the population loss (4) with :math:`x \sim N(0, I_d)`:
  :math:`\mathcal{L}_s = \tfrac12\|\beta - \beta_s\|^2 + \tfrac12\sigma^2`,
  gradient :math:`g = \beta - \beta_s`;
* target training, the empirical loss (5):
  :math:`\mathcal{L}_t = \tfrac1{2n}\|X\beta - y\|^2`,
  gradient :math:`g = X^\top(X\beta - y)/n`.

Gradients are backpropagated by hand (one chain of matrix-vector products
each way, no autograd) on K independent networks stacked on a leading axis,
which advance together; a network that has converged is frozen and dropped
from the batch. The engine, with the formulas of the backward pass, the
midpoint step and the adaptive step, is
:mod:`implicit_bias.validation._deep_linear_descent`.

Two integrators of the gradient flow (6):

* ``"gd"`` -- plain gradient descent (explicit Euler), the paper's recipe
  (Appendix D.1: fixed step :math:`\eta = 10^{-3}`);
* ``"midpoint"`` (default) -- the same step with the backpropagated factors
  evaluated at the midpoint weights :math:`(W_l + W_l')/2` and the gradient
  with respect to :math:`\beta` frozen at the start of the step. It conserves
  the invariant (35) :math:`D_l = W_l^\top W_l - W_{l+1}W_{l+1}^\top` to
  rounding at ANY step size, as under the flow, while an Euler step changes it
  by about :math:`\eta` times the loss decrease: the fine-tuning endpoint (142)
  depends on :math:`D_l` (it fixes the scale of the preserved source
  component), so Euler's endpoint carries an :math:`O(\eta)` error and the
  midpoint rule's does not.

Both integrators move :math:`W_1` only by :math:`g\,q_1^\top`
(:math:`q_1 = W_2\cdots W_L`) with :math:`g \in \mathrm{row}(X)`, so
:math:`(I - P_{\mathrm{row}(X)})W_1` is conserved exactly: this (with
interpolation) is what makes the scratch endpoint the minimum-norm solution
and the fine-tuning endpoint keep :math:`(I - P_{\mathrm{row}(X)})\beta_s`
(Appendices B.4 and B.8).

Step size. With ``learning_rate=None`` each network takes the step
:math:`1/h_k`, :math:`h_k` an upper bound on the largest eigenvalue of the
loss Hessian in the trainable weights at the current point (the Gauss-Newton
part plus the curvature of :math:`g^\top\beta`, bounded by products of
Frobenius norms of the layers; the engine's docstring gives it). Descent is
stable below :math:`2/h`.

Stopping. A network stops once its excess loss over the infimum of the loss
is at most ``tol`` times the loss of :math:`\beta = 0` above that infimum
(:math:`\tfrac12\|\beta_s\|^2` for pretraining; for the empirical loss the
infimum is the least-squares residual, zero when :math:`n \le d`). Linear
transfer (only :math:`W_L` trained) is a least-squares problem on the frozen
features :math:`\Phi = X W_1\cdots W_{L-1}`; at finite :math:`\alpha` they have
rank :math:`\min(n, d)`, with all but one singular value of order
:math:`\alpha^{L-1}`, so the loss first settles on the plateau of the
rank-one problem (the fit along the top singular direction, Theorem 3.7) and
would leave it only on the time scale :math:`\alpha^{-2(L-1)}` (the paper's
runs stop at :math:`t = 100`). Linear transfer therefore stops once the excess
loss along the top right singular vector v of :math:`\Phi`,
:math:`(v^\top\nabla_{W_L}\mathcal{L})^2/(2\lambda)` with
:math:`\lambda = \|\Phi v\|^2/n`, is at most ``tol`` times the loss that
direction can remove. Its step is :math:`1/\lambda`, which solves the
rank-one part in one step.

Input preconditioning (``preconditioned=True``, target training only): the
update uses :math:`X^+ r` in place of :math:`g = X^\top r/n`, i.e. gradient
descent in the metric :math:`(X^\top X/n)^+`. The direction still lies in
:math:`\mathrm{row}(X)` and the midpoint rule still conserves (35), so the
endpoint is unchanged (it is fixed by those two conservation laws and
interpolation), while the number of steps no longer grows with the condition
number of :math:`X^\top X` (about 20 steps instead of thousands near
:math:`\gamma = 1`); it costs one Gram matrix and its inverse per draw.

Failures. A network that does not stop within ``max_steps`` steps raises
:class:`~implicit_bias.errors.ConvergenceError`, as does divergence, caught at
once: a loss that overflows or grows :math:`10^4` times above its initial
value (descent with a stable step only lowers it), or, for the midpoint rule
with a fixed ``learning_rate``, a step whose implicit equation has no solution
(the adaptive step is halved instead). Every 1000 steps the weights are
compared with those 1000 steps before: the iteration is a function of the
weights alone, so a network back at the same weights (a stationary point such
as all-zero weights, or steps below the rounding of the weights) is stuck
forever, and raises at once (with ``strict=False`` it is returned as it would
be after ``max_steps`` steps). A loss beyond the float64 range at the initial
weights raises :class:`~implicit_bias.errors.OutOfRangeError`.
"""

from __future__ import annotations

from implicit_bias.validation.deep_linear_networks.networks import (
    DEFAULT_MAX_STEPS,
    DEFAULT_TOLERANCE,
    DeepLinearResult,
    Integrator,
    TransferResult,
    end_to_end,
)
from implicit_bias.validation.deep_linear_networks.balancedness import (
    balanced_initialization,
    balancedness_margin,
)
from implicit_bias.validation.deep_linear_networks.transfer import (
    finetune,
    linear_transfer,
    pretrain,
    train_from_scratch,
    transfer_experiment,
)

__all__ = [
    "DEFAULT_MAX_STEPS",
    "DEFAULT_TOLERANCE",
    "DeepLinearResult",
    "Integrator",
    "TransferResult",
    "balanced_initialization",
    "balancedness_margin",
    "end_to_end",
    "finetune",
    "linear_transfer",
    "pretrain",
    "train_from_scratch",
    "transfer_experiment",
]
