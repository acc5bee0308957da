"""The element-set type of the neighborhood lessons and the one order they print in.

Elements of any hashable kind list in one deterministic order, so notebook
output is reproducible.
"""

from __future__ import annotations

import numbers

import numpy as np

from ._validate import plain

__all__ = ["ElementSet", "sort_key", "ordered"]


def sort_key(x):
    """Sort key that orders numbers, then strings, then anything else, deterministically.

    Booleans sort by name with the strings (``{1, True}`` has one element, and the
    order must not depend on which one Python kept).
    """
    if isinstance(x, (bool, np.bool_)):
        return (1, str(type(x).__name__), repr(x))
    if isinstance(x, numbers.Real):
        return (0, "", float(x))
    if isinstance(x, str):
        return (1, "", x)
    return (2, type(x).__name__, repr(x))


def ordered(elements):
    """The distinct ``elements`` in a deterministic order (numbers, then strings, then others).

    >>> ordered({"b", 2, "a", 1})
    [1, 2, 'a', 'b']
    """
    return sorted(set(elements), key=sort_key)


class ElementSet(frozenset):
    """A frozenset that prints its elements in :func:`ordered` order.

    >>> ElementSet({"c", "a", "b"})
    {'a', 'b', 'c'}
    >>> ElementSet({"a"}) == {"a"}
    True
    >>> ElementSet()
    set()
    """

    __slots__ = ()

    def __repr__(self):
        if not self:
            return "set()"
        return "{" + ", ".join(repr(plain(e)) for e in ordered(self)) + "}"

    __str__ = __repr__
