"""The version of rejlab (one place: the package face and the build read it)."""

__version__ = "0.1.0"
