"""Claims of features-are-fate's Appendix C, Mercer and projections: verdicts."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from implicit_bias.sources.features_are_fate import appendix_c_mercer
from implicit_bias.sources.features_are_fate.appendix_c_mercer import CLAIMS
from implicit_bias.sources.features_are_fate import notation
from implicit_bias.theory.relu_kernels import GLYPHS
from tests.claims.verdict_suites import (
    EquationsCovered,
    ExactOrCertifiedRefutations,
    ExpectedVerdicts,
    GlyphedFormulas,
    RefutationCounterexamples,
    SlowVerdicts,
)

#: Appendix C equations of the Mercer decomposition and the projections that
#: state something checkable. Not listed: (145)-(147), (149) and (154)-(156)
#: define the networks, the RKHS, T_k and the matrices.
CHECKABLE = {"150-151", "151", "157", "158", "159", "158-159"}


class TestClaims(
    ExpectedVerdicts,
    SlowVerdicts,
    ExactOrCertifiedRefutations,
    EquationsCovered,
    RefutationCounterexamples,
    GlyphedFormulas,
):
    claims = CLAIMS
    equations = CHECKABLE
    refutation_counterexamples = (("150-151:as-printed", ("gives 8", "(148) is 2")),)
    glyphs = frozenset({*GLYPHS, *notation.GLYPHS})


@given(
    rows=st.integers(2, 50),
    columns=st.integers(1, 4),
    shift=st.floats(-3, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_standard_error_from_sums_is_the_two_pass_one(
    rows: int, columns: int, shift: float, seed: int
) -> None:
    draws = np.random.default_rng(seed).standard_normal((rows, columns)) + shift
    mean = draws.mean(axis=0)
    from_sums = appendix_c_mercer._standard_error((draws**2).sum(axis=0), mean, rows)
    two_pass = draws.std(axis=0, ddof=1) / np.sqrt(rows)
    # The one-pass variance sum x^2 - N xbar^2 carries the rounding of its
    # sums, <= (N + 2) u sum x^2, relative to (N - 1) s^2: the amplification
    # sum x^2/((N - 1) s^2) is the sample's, unbounded for a few draws close
    # together (N = 2 at shift 2 gives ~1e5), not the population's E[x^2]/Var x.
    # The square root halves the relative error; the bound keeps the factor 2.
    amplification = (draws**2).sum(axis=0) / ((rows - 1) * draws.var(axis=0, ddof=1))
    bound = (rows + 2) * np.finfo(float).eps / 2 * amplification
    assert np.all(np.abs(from_sums - two_pass) <= bound * two_pass), (
        from_sums,
        two_pass,
        bound,
    )
