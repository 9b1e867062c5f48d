r"""The source id of ptft-relu-penalty, and the domain its numeric claims sample.

The numeric claims of :mod:`.derivation` and :mod:`.penalty` (eqs. (6), (10)
and (11)) draw their test points from :func:`domain_sample`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SOURCE", "domain_sample"]

SOURCE = "ptft-relu-penalty"


def domain_sample(size: int, seed: int) -> tuple[np.ndarray, ...]:
    r"""A seeded sample of the stated domain, with |m| reaching down to 1e-10.

    Returns ``(m, rho, m0, gamma)``, each of length ``size``: :math:`|m_h|` in
    :math:`[10^{-10}, 10^3]` log-uniform with a random sign, :math:`\rho` in
    :math:`[-1, 1]`, :math:`m_0` in :math:`[10^{-3}, 10^2]` log-uniform and
    :math:`|\gamma|` in :math:`[10^{-4}, 10]` log-uniform with a random sign.
    """
    rng = np.random.default_rng(seed)
    m_values = rng.choice([-1.0, 1.0], size) * 10.0 ** rng.uniform(-10, 3, size)
    rho_values = rng.uniform(-1, 1, size)
    m0_values = 10.0 ** rng.uniform(-3, 2, size)
    gamma_values = rng.choice([-1.0, 1.0], size) * 10.0 ** rng.uniform(-4, 1, size)
    return m_values, rho_values, m0_values, gamma_values
