"""ptft-diagonal-networks, the end of Appendix A in numbers: the evaluators of
(22)-(23) and the reference of 23:q-float64."""

from __future__ import annotations

import math

import mpmath
import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from implicit_bias.claims.engine import Basis, Reason, Status
from implicit_bias.numerics import q_potential_mp
from implicit_bias.sources.ptft_diagonal_networks.appendix_a_min_q import (
    _REFERENCE_BITS,
    _certified_ulp_violation,
    _q_reference,
    _ulps,
)


def test_q_float64_fails_only_on_a_certified_excess() -> None:
    exact = float(q_potential_mp(1.0))
    off = _certified_ulp_violation("d", 1.0, exact * (1 + 1e-12), exact)
    assert (off.status, off.basis) == (Status.FAILS, Basis.CERTIFIED)
    assert "which is > 0" in (off.counterexample or "")
    within = _certified_ulp_violation("d", 1.0, exact, exact)
    assert (within.status, within.reason) == (
        Status.INCONCLUSIVE,
        Reason.UNDECIDED,
    )


# Domain: every finite float64 z (the check draws |z| from 1e-300 to 1e300).
@given(st.floats(allow_nan=False, allow_infinity=False))
@example(0.0)
@example(5e-324)
@example(-1e-300)
@example(1.7976931348623157e308)
def test_q_reference_agrees_with_the_50_digit_reference(value: float) -> None:
    # The arb reference of 23:q-float64 against mpmath at 50 digits (1e-50
    # relative, from its own working-precision analysis): both within 2^-78
    # relative, the reference's 80 correct bits with a margin of 2 bits.
    reference = _q_reference(value)
    exact = q_potential_mp(value)
    if value == 0.0:
        assert reference == 0
        assert exact == 0
        assert _ulps(0.0, reference) == 0.0
        return
    assert reference.rel_accuracy_bits() >= _REFERENCE_BITS
    with mpmath.workdps(60):
        middle = mpmath.mpf(reference.mid().str(60, radius=False))
        assert abs(middle - exact) <= abs(exact) * mpmath.mpf(2) ** -78
    # The rounded value is within 0.5 ulp; the next float64 away from zero
    # is one step of its own spacing further (a larger ulp past a power of 2).
    rounded = float(exact)
    above = float(np.nextafter(rounded, math.copysign(math.inf, rounded)))
    if math.isfinite(above):
        step = float(np.spacing(abs(rounded)) / np.spacing(abs(float(exact))))
        assert _ulps(rounded, reference) <= 0.5
        assert step - 0.5 <= _ulps(above, reference) <= step + 0.5
