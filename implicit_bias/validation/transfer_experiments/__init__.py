r"""Monte-Carlo checks of the risk formulas of features-are-fate (Section 3).

Two kinds of samples of the generalization error
:math:`\mathcal R = \|\hat\beta - \beta_t\|^2` (eq. 8 with :math:`x\sim N(0,I)`)
over independent draws of the target data :math:`(X, y = X\beta_t +
\epsilon)`:

* :func:`endpoint_risks` -- the :math:`\alpha\to0` endpoints in closed form
  (scratch :math:`X^+y`; linear transfer :math:`b\beta_s`, eq. 108; ridge
  transfer, eq. 126; fine-tuning, eq. 142 as printed and corrected, see
  :func:`~implicit_bias.numerics.transfer_endpoints.finetune_endpoint`),
  cheap enough for thousands of draws;
* :func:`transferability_slices` -- networks trained by gradient descent
  (:mod:`implicit_bias.validation.deep_linear_networks`) on the figures'
  slices :math:`\theta = \pi/8, \pi/4, 3\pi/8`.

By rotation invariance of :math:`N(0, I_d)` the source and target are
:math:`\beta_s = e_1`, :math:`\beta_t = \cos\theta e_1 + \sin\theta e_2`
without loss of generality.

:func:`compare_mean` turns a sample into a verdict: the mean must lie within
``z`` standard errors (sample standard deviation over :math:`\sqrt{K}`) of the
prediction, widened by a stated bound on the finite-size bias when the
prediction is an :math:`n, d\to\infty` limit.
"""

from __future__ import annotations

from implicit_bias.validation.transfer_experiments.endpoints import (
    ENDPOINT_PREDICTED_ORDERS,
    EndpointErrors,
    EndpointRisks,
    endpoint_errors,
    endpoint_risks,
    Float64Array as Float64Array,
)
from implicit_bias.validation.transfer_experiments.mean_comparison import (
    MeanComparison,
    compare_mean,
)
from implicit_bias.validation.transfer_experiments.transferability import (
    TransferabilitySlices,
    TransferabilitySurface,
    transferability_slices,
    transferability_surface,
)

__all__ = [
    "ENDPOINT_PREDICTED_ORDERS",
    "EndpointErrors",
    "EndpointRisks",
    "MeanComparison",
    "TransferabilitySlices",
    "TransferabilitySurface",
    "compare_mean",
    "endpoint_errors",
    "endpoint_risks",
    "transferability_slices",
    "transferability_surface",
]
