"""Exercises of the rejection lessons (registered with rejlab.exercises.exercise)."""

from . import exercise  # noqa: F401
