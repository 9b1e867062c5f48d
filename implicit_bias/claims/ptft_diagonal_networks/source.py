"""The source id of ptft-diagonal-networks (Lippl & Lindsey, Appendices A-G)."""

__all__ = ["SOURCE"]

SOURCE = "ptft-diagonal-networks"
