"""Coverings, neighborhoods and neighborhood systems (issue 4)."""

__all__ = []
