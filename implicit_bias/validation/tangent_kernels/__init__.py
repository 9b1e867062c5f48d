r"""Tangent features and kernels of a small ReLU MLP, and the Figure 1 experiment.

A NumPy version of the network of Appendix B.1 of adaptive-tangent-features,
small enough for a test: an MLP with ReLU activations, no biases and one
output,

.. math:: f_\theta(x) = W_L^\top\,\phi(W_{L-1}^\top \cdots \phi(W_1^\top x)),
          \qquad \theta = \mathrm{concat}(\mathrm{vec}(W_1),\ldots,
          \mathrm{vec}(W_L)),

with :math:`W_\ell\in\mathbb R^{P_\ell\times Q_\ell}` (inputs by outputs, the
paper's orientation :math:`f = W_L^\top z`) and vec stacking columns, as in
Section 2's notation. Initialization is PyTorch's default for linear layers,
uniform with variance :math:`1/(3P_\ell)` (B.1 used PyTorch).

**Tangent features** :math:`\nabla_\theta f_\theta(x_i)` of every example are
computed by hand-written backpropagation: with :math:`a_0 = x`,
:math:`h_\ell = W_\ell^\top a_{\ell-1}`, :math:`a_\ell = \phi(h_\ell)`, the
backward signals are :math:`g_L = 1`,
:math:`g_{\ell} = \phi'(h_\ell)\odot W_{\ell+1} g_{\ell+1}`, and
:math:`\partial f/\partial W_\ell = a_{\ell-1} g_\ell^\top`, for all examples
at once.

**Kernels** on the training points: the initial NTK
:math:`K_0 = J_0 J_0^\top` (Section 3), the adapted kernel
:math:`K = \bar J\bar J^\top` of eq. (7) with the average tangent features
:math:`\bar J` of eq. (2) (equivalently eq. (20)), and the label kernel
:math:`K_{\hat y} = (f_{\hat\theta} - f_{\theta_0})(f_{\hat\theta} -
f_{\theta_0})^\top` of eq. (9). The average of eq. (2) is taken over the
linear path from :math:`\theta_0` to :math:`\hat\theta`, as Appendix B.1 does
("50 points along the linear path"), by the composite midpoint rule with
``nodes`` points. Along the path the integrand is piecewise polynomial with
jumps where a unit's activation switches, so the rule's error is
:math:`O(1/\text{nodes})` (jumps) plus :math:`O(1/\text{nodes}^2)` (smooth
pieces). Eq. (2) then holds as :math:`f_{\hat\theta} - f_{\theta_0} =
\bar J(\hat\theta - \theta_0)` up to that error. The training trajectory
enters only through its end point: along the trajectory itself the features
integrate (against the velocity) to the same change of f, but not to a
feature matrix applied to :math:`\hat\theta - \theta_0`, which is what eqs.
(2), (7) and (20) average.

**Figure 1.** Two Gaussian classes in :math:`\mathbb R^D` stand in for the
MNIST digits 2 and 3 (no download); each input is normalized to zero mean and
unit variance, as B.1 does with the images. The linear targets are
:math:`y = z(x)^\top b^*`, the least-squares fit of the :math:`\pm1` class
labels on the penultimate features :math:`z` of an independently initialized
network, and the binary targets are :math:`\mathrm{sign}(y)`. A fresh network
is trained on each by full-batch gradient descent on
:math:`\tfrac1{2N}\|f - y\|^2`; the alignment is the cosine similarity
:math:`\langle K, K_{\hat y}\rangle_F/(\|K\|_F\|K_{\hat y}\|_F)`. Both tasks
of one seed start from the same initialization (a paired comparison), and
the seed-level differences are summarized by their mean and standard error.
"""

from __future__ import annotations

from implicit_bias.validation.tangent_kernels.mlp import (
    TrainingRun,
    average_tangent_features,
    flatten_weights,
    initialize_mlp,
    mlp_outputs,
    mlp_tangent_features,
    train_mlp,
    Float64Array as Float64Array,
    Weights as Weights,
)
from implicit_bias.validation.tangent_kernels.kernels import (
    kernel_alignment,
    label_kernel,
    tangent_kernel,
)
from implicit_bias.validation.tangent_kernels.label_alignment import (
    LabelAlignmentStudy,
    LabelAlignmentTrial,
    label_alignment_study,
    label_alignment_trial,
    two_class_inputs,
)

__all__ = [
    "LabelAlignmentStudy",
    "LabelAlignmentTrial",
    "TrainingRun",
    "average_tangent_features",
    "flatten_weights",
    "initialize_mlp",
    "kernel_alignment",
    "label_alignment_study",
    "label_alignment_trial",
    "label_kernel",
    "mlp_outputs",
    "mlp_tangent_features",
    "tangent_kernel",
    "train_mlp",
    "two_class_inputs",
]
