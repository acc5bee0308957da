"""Placeholder, filled by its issue."""

__all__ = []
