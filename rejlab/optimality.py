"""Cost of rejection, relative optimality and operating sets (issue 3)."""

__all__ = []
