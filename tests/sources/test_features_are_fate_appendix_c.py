"""Claims of features-are-fate's Appendix C, the ReLU kernel (152)-(153): verdicts."""

from __future__ import annotations

import pytest
import sympy as sp

from implicit_bias.claims.engine import Basis, Result, Status
from implicit_bias.numerics.relu_kernels import relu_kernel_mp
from implicit_bias.sources.features_are_fate import appendix_c
from implicit_bias.sources.features_are_fate.appendix_c import CLAIMS as MODULE_CLAIMS
from implicit_bias.sources.features_are_fate.appendix_c import DERIVATIONS
from implicit_bias.theory import relu_kernels as theory
from implicit_bias.sources.features_are_fate import notation
from implicit_bias.sources.features_are_fate.source import SOURCE_ID
from implicit_bias.theory.relu_kernels import GLYPHS
from tests.claims.verdict_suites import (
    EquationsCovered,
    ExactOrCertifiedRefutations,
    ExpectedVerdicts,
    GlyphedFormulas,
    RefutationCounterexamples,
    ShiftDetection,
    SlowVerdicts,
)

#: The equations of the kernel that state something checkable.
CHECKABLE = {"152-153", "153"}

CLAIMS = MODULE_CLAIMS + tuple(c for d in DERIVATIONS for c in d.claims)


class TestClaims(
    ExpectedVerdicts,
    SlowVerdicts,
    ExactOrCertifiedRefutations,
    EquationsCovered,
    RefutationCounterexamples,
    GlyphedFormulas,
    ShiftDetection,
):
    claims = CLAIMS
    equations = CHECKABLE
    refutation_counterexamples = (
        ("153:general-weights-as-printed", ("the overlap is 3", "gives 1/2")),
    )
    glyphs = frozenset({*GLYPHS, *notation.GLYPHS})
    #: Cheap numeric claims whose decision goes through check_close.
    shifted = ("152-153:quadrature", "153:general-weights", "153:float64")

    def test_the_overlap_chain_is_the_printed_derivation(
        self,
        results: dict[str, Result],
    ) -> None:
        (chain,) = DERIVATIONS
        # (152) in polar coordinates, (153) in the angle, (153) as printed in u_ij.
        assert chain.expressions() == [
            theory.gaussian_overlap_polar(theory.theta),
            theory.arc_cosine_kernel_angular(theory.theta),
            theory.arc_cosine_kernel(theory.u),
        ]
        statuses = [results[c.id].verdict.status for c in chain.claims]
        assert statuses == [Status.HOLDS, Status.HOLDS]
        assert all(results[c.id].verdict.basis == Basis.PROOF for c in chain.claims)


_EPSILON = theory.epsilon


@pytest.mark.parametrize(
    "expression",
    [
        theory.arc_cosine_kernel(1 - _EPSILON),
        theory.arc_cosine_kernel(-1 + _EPSILON),
        # Parts whose leading terms cancel, and a product of two parts.
        sp.sqrt(2 * _EPSILON - _EPSILON**2) - sp.acos(1 - _EPSILON),
        (1 + _EPSILON) * sp.acos(1 - _EPSILON) * sp.sqrt(_EPSILON + _EPSILON**3),
        # Not a polynomial in its parts: expanded whole.
        sp.acos(1 - _EPSILON) / (1 + sp.sqrt(_EPSILON)),
    ],
)
def test_series_by_parts_is_sympys_series(expression: sp.Expr) -> None:
    by_parts = appendix_c._series_by_parts(expression, _EPSILON, 3)
    whole = sp.series(expression, _EPSILON, 0, 3)
    assert sp.expand(by_parts.removeO() - whole.removeO()) == 0
    assert by_parts.getO() == whole.getO()


def test_warm_up_computes_the_shared_quadratures_once() -> None:
    appendix_c._unit_quadrature_overlaps.cache_clear()
    appendix_c.warm_up({f"{SOURCE_ID}:152-153:quadrature"})
    assert appendix_c._unit_quadrature_overlaps.cache_info().currsize == 0
    appendix_c.warm_up(appendix_c._QUADRATURE_READERS)
    assert appendix_c._unit_quadrature_overlaps.cache_info().currsize == 1
    references = appendix_c._unit_quadrature_overlaps()
    appendix_c._unit_quadrature_overlaps.cache_clear()
    for cosine, reference in zip(
        appendix_c._QUADRATURE_COSINES, references, strict=True
    ):
        assert reference == appendix_c._quadrature_overlap(cosine, (1.0, 1.0))
        # The overlap of unit weights is eq. (153) (Cho & Saul 2009).
        assert abs(reference - relu_kernel_mp(cosine, dps=40)) < 1e-32


class _Stop(Exception):
    """Raised by the stand-in of the quadrature."""


def test_the_quadrature_readers_read_the_shared_references(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def stop(*args: object) -> None:
        raise _Stop

    monkeypatch.setattr(appendix_c, "_quadrature_overlap", stop)
    by_id = {c.id: c for c in CLAIMS}
    try:
        for claim_id in appendix_c._QUADRATURE_READERS:
            appendix_c._unit_quadrature_overlaps.cache_clear()
            with pytest.raises(_Stop):
                by_id[claim_id].check()
    finally:
        appendix_c._unit_quadrature_overlaps.cache_clear()
