"""Exercises of the neighborhood lessons (registered with rejlab.exercises.exercise)."""

from . import exercise  # noqa: F401
