"""Contract entries of implicit_bias.numerics.transfer_risks (features-are-fate)."""

from __future__ import annotations

import math

from hypothesis import strategies as st

from tests.contract.harness import Spec

_N = "implicit_bias.numerics"

# gamma = n/d > 0 over the float64 range, away from the threshold gamma = 1.
_GAMMAS = st.floats(min_value=1e-300, max_value=1e300).filter(lambda g: g != 1.0)
_SIGMAS = st.floats(min_value=0.0, max_value=1e150)
_THETAS = st.floats(min_value=0.0, max_value=math.pi)

SPECS = {
    f"{_N}.scratch_risk": Spec(
        valid=lambda: {"gamma": 0.5, "sigma": 0.3},
        domains={"gamma": _GAMMAS, "sigma": _SIGMAS},
        invalid={"gamma": [0.0, -1.0], "sigma": [-0.1]},
    ),
}
