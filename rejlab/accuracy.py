"""Absolute accuracy AA, relative accuracy rate RAR and multi-label scores (issue 4)."""

__all__ = []
