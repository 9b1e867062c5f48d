r"""Section 4 of features-are-fate at a laptop's size: ReLU student-teacher transfer.

The closed forms of Appendix C (:mod:`implicit_bias.numerics.relu_kernels`)
against Monte Carlo over Gaussian inputs, and the ablated transfer setup of
eqs. (18)-(21):

* a target teacher :math:`f_t^*(x) = \frac{1}{m_*}\sum_i c^*_i\sigma(w_i^{*\top}x)`
  with :math:`w^*_i` uniform on :math:`S^{d-1}` (as the paper constrains them)
  and :math:`c^*_i\sim\mathcal N(0,1)` or :math:`c^*_i = 1` (our choices: the
  paper does not say how its teachers' readouts are drawn); the source (19)
  keeps the units outside a uniformly random set :math:`\mathcal A` of
  :math:`\mu m_*` units and rescales by :math:`1/(1-\mu)`; inputs
  :math:`x\sim\mathcal N(0, I_d)`;
* a mean-field student (18), :math:`f(x) = \frac1m\sum_ic_i\sigma(w_i^\top x)`,
  trained on the source's population loss
  :math:`L = \frac12\mathbb E(f - f_s^*)^2` (exact through the arc-cosine
  kernel) by gradient descent with hand-written gradients: plain steps on c,
  projected steps on the sphere for each :math:`w_i` (App. D.2: hidden
  weights on the sphere, readouts initialized at :math:`10^{-7}`, step
  :math:`0.01m`);
* linear transfer (21): the readout refit on n target samples by least
  squares on fixed features, whose generalization error is computed exactly.

Error theory. A Monte-Carlo mean over N independent samples has standard
error :math:`\hat s/\sqrt N` from the sample standard deviation; the claims
compare with closed forms in units of that error. The in-sample residual of a
least-squares fit on N samples underestimates the population minimum and the
residual of that fit on fresh samples overestimates it, so the two bracket
:math:`\|P_\perp f_t^*\|^2` up to their standard errors.
"""

from __future__ import annotations

from implicit_bias.validation.relu_kernels.teachers import (
    AblationSetup,
    ablation_setup,
    relu_features,
    sample_sphere,
    Float64Array as Float64Array,
)
from implicit_bias.validation.relu_kernels.monte_carlo import (
    MonteCarloEstimate,
    ProjectionCheck,
    kernel_gram_on_inputs,
    linear_transfer_errors,
    monte_carlo_overlaps,
    monte_carlo_projection,
)
from implicit_bias.validation.relu_kernels.students import (
    KernelCondensation,
    StudentTraining,
    kernel_condensation,
    source_loss_and_gradients,
    train_student_on_source,
)

__all__ = [
    "AblationSetup",
    "KernelCondensation",
    "MonteCarloEstimate",
    "ProjectionCheck",
    "StudentTraining",
    "ablation_setup",
    "kernel_condensation",
    "kernel_gram_on_inputs",
    "linear_transfer_errors",
    "monte_carlo_overlaps",
    "monte_carlo_projection",
    "relu_features",
    "sample_sphere",
    "source_loss_and_gradients",
    "train_student_on_source",
]
