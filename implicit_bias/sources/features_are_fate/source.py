"""The source id of the claims of "Features are fate" (Tahir, Ganguli, Rotskoff)."""

__all__ = ["SOURCE_ID"]

SOURCE_ID = "features-are-fate"
