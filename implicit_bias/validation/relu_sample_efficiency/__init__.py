r"""Fig. 1c of ptft-relu-penalty: sample efficiency of STL and PT+FT in ReLU networks.

The paper's novel prediction (Section 1.2, last paragraph): the penalty
:math:`\tilde r` of eq. (11) makes a pretrained unit cheap to reuse for a
finetuning feature at correlation :math:`\rho = 1` whatever the magnitudes, but
at a moderate correlation (:math:`\rho = 0.9`) a unit pretrained with a much
larger weight than the finetuning feature's (:math:`m^{aux} = 100`,
:math:`m \approx 1`) costs more than a fresh one. Fig. 1c tests it with
teacher-student networks; this module runs that experiment at a laptop's size.

Networks. A two-layer ReLU network without biases, eq. (1),

.. math:: f_w(x) = \sum_{h=1}^H w_h^{(2)}\,(\langle w_h^{(1)}, x\rangle)_+,

trained on the loss :math:`L = \frac1{2n}\sum_i (f_w(x_i) - y_i)^2` by full-batch
gradient descent with the hand-written gradients

.. math:: \frac{\partial L}{\partial w_h^{(2)}} = \frac1n\sum_i r_i
          (\langle w_h^{(1)}, x_i\rangle)_+,\qquad
          \frac{\partial L}{\partial w_h^{(1)}} = \frac1n\sum_i r_i\,
          w_h^{(2)}\,\mathbb 1[\langle w_h^{(1)}, x_i\rangle > 0]\,x_i,

:math:`r_i = f_w(x_i) - y_i` (the ReLU's derivative at 0 is taken as 0, a
null set for Gaussian inputs). K networks advance together as (K, H, d) and
(K, H) arrays, each on its own data (K, n, d).

Teachers. Inputs are :math:`x\sim\mathcal N(0, I_d)`. The auxiliary
(pretraining) teacher has :math:`k = 6` units :math:`v_j` uniform on
:math:`S^{d-1}` and readouts 1 (feature magnitude :math:`m^{aux} = 1`):
:math:`f^{aux}(x) = \sum_j (\langle v_j, x\rangle)_+`. The finetuning teacher
has units :math:`u_j = \rho v_j + \sqrt{1-\rho^2}\,v_j^\perp` with
:math:`v_j^\perp` a uniformly random unit vector orthogonal to :math:`v_j`, so
that :math:`\langle u_j, v_j\rangle = \rho`, and readouts m:
:math:`f(x) = m\sum_j(\langle u_j, x\rangle)_+`. A smaller m is a larger
relative auxiliary magnitude (Fig. 1c's caption: the same as raising
:math:`m^{aux}` with m fixed).

Training. STL starts from a small random initialization,
:math:`w_h^{(1)}\sim\mathcal N(0, \sigma^2 I_d/d)`,
:math:`w_h^{(2)}\sim\mathcal N(0,\sigma^2)`. PT+FT trains the same way on n_aux
samples of the auxiliary task, then keeps the hidden weights and re-initializes
every readout to :math:`\gamma`, the initialization of eq. (2), and trains on
the n finetuning samples. Generalization error is the mean squared error on
fresh test inputs divided by the teacher's mean square on them (the error of
the zero function), so that magnitudes compare.

Scale equivalence of STL. Scaling every weight by :math:`\sqrt m` scales the
network by m, the loss by :math:`m^2` and the gradient step relative to the
weights by m; so STL on the teacher of magnitude m from initialization
:math:`\sigma\sqrt m` with learning rate :math:`\eta/m` follows exactly the
trajectory of STL on magnitude 1 from :math:`\sigma` with :math:`\eta`, scaled
by :math:`\sqrt m`, and has the same relative error. STL is therefore run once
per correlation, at magnitude 1 (:func:`train_relu_networks` is checked for this
in the tests). PT+FT has no such symmetry: its pretrained weights fix a scale.
"""

from __future__ import annotations

from implicit_bias.validation.relu_sample_efficiency.networks import (
    TrainedNetworks,
    relu_loss_and_gradients,
    relu_network_outputs,
    train_relu_networks,
    Float64Array as Float64Array,
)
from implicit_bias.validation.relu_sample_efficiency.teachers import (
    correlated_units,
    teacher_outputs,
)
from implicit_bias.validation.relu_sample_efficiency.experiment import (
    SampleEfficiency,
    SampleEfficiencySetup,
    sample_efficiency,
)

__all__ = [
    "SampleEfficiency",
    "SampleEfficiencySetup",
    "TrainedNetworks",
    "correlated_units",
    "relu_loss_and_gradients",
    "relu_network_outputs",
    "sample_efficiency",
    "teacher_outputs",
    "train_relu_networks",
]
