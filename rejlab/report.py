"""Evaluate your own classifier: reports from predictions (issue 8)."""

__all__ = []
