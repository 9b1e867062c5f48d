"""The source id of the claims of "An Adaptive Tangent Feature Perspective"."""

__all__ = ["SOURCE_ID", "claim_id"]

SOURCE_ID = "adaptive-tangent-features"


def claim_id(equation: str, label: str) -> str:
    """The id of this source's claim ``label`` on ``equation``."""
    return f"{SOURCE_ID}:{equation}:{label}"
