"""Context (spatial smoothness) and rejection on images (issue 6)."""

__all__ = []
