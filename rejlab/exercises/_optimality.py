"""Exercises of the optimality lessons (registered with rejlab.exercises.exercise)."""

from . import exercise  # noqa: F401
