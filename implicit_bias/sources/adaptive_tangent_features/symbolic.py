"""The former module of the symbolic claims, kept only as an import path.

The claims are organized by the paper's sections (see the package docstring);
``from implicit_bias.sources.adaptive_tangent_features.symbolic import
EXPONENTS`` still gives :data:`.penalty_families.EXPONENTS`. No ``__all__``:
this module has no API of its own.
"""

from implicit_bias.sources.adaptive_tangent_features.penalty_families import (
    EXPONENTS as EXPONENTS,
)
