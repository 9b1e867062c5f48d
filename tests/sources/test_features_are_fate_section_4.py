"""Claims of features-are-fate's Section 4: the expected verdicts."""

from __future__ import annotations


from implicit_bias.sources.features_are_fate.section_4 import CLAIMS
from implicit_bias.sources.features_are_fate import notation
from implicit_bias.theory.relu_kernels import GLYPHS
from tests.claims.verdict_suites import (
    EquationsCovered,
    ExactOrCertifiedRefutations,
    ExpectedVerdicts,
    GlyphedFormulas,
    SlowVerdicts,
)


class TestClaims(
    ExpectedVerdicts,
    SlowVerdicts,
    ExactOrCertifiedRefutations,
    EquationsCovered,
    GlyphedFormulas,
):
    claims = CLAIMS
    #: Section 4 statements: eq. (21) and Fig. 4(a)-(b), (d).
    equations = frozenset({"21", "sec-4"})
    glyphs = frozenset({*GLYPHS, *notation.GLYPHS})
