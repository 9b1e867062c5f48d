"""The source id of ptft-diagonal-networks (Lippl & Lindsey, Appendices A-G).

And the glyphs of this package's own symbols (:data:`GLYPHS`): the coordinates
of the instances its chains are checked on, and the measured quantities its
numeric and simulation claims compare (named once in :func:`measured`).
"""

from __future__ import annotations

import sympy as sp

__all__ = ["GLYPHS", "SOURCE_ID", "measured"]

SOURCE_ID = "ptft-diagonal-networks"

#: Symbol -> its LaTeX, for the symbols this package introduces.
GLYPHS: dict[sp.Symbol, str] = {
    sp.Symbol(f"beta_{o}", real=True): rf"\beta_{{{o},d}}" for o in range(1, 4)
}


def measured(name: str, latex: str, **assumptions: bool) -> sp.Symbol:
    """A symbol for a measured or computed quantity, registered in :data:`GLYPHS`."""
    symbol = sp.Symbol(name, **assumptions)
    GLYPHS[symbol] = latex
    return symbol
