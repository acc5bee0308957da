"""Exercises of the context lessons (registered with rejlab.exercises.exercise)."""

from . import exercise  # noqa: F401
