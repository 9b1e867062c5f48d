"""The source id of ptft-diagonal-networks (Lippl & Lindsey, Appendices A-G)."""

__all__ = ["SOURCE_ID"]

SOURCE_ID = "ptft-diagonal-networks"
