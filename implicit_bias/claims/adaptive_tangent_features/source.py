"""The source id of the claims of "An Adaptive Tangent Feature Perspective"."""

__all__ = ["SOURCE"]

SOURCE = "adaptive-tangent-features"
