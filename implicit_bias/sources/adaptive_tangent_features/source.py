"""The source id of the claims of "An Adaptive Tangent Feature Perspective"."""

__all__ = ["SOURCE_ID"]

SOURCE_ID = "adaptive-tangent-features"
