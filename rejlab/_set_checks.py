"""Families of sets, coverings and 0/1 indicator matrices at the door (the neighborhood-system paper).

"Sets are sets, arrays are arrays": a sequence of Python sets is a family of blocks
(or label sets), anything else a 2-D 0/1 indicator matrix (rows = samples).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ._labels import SELF_EQUAL, equals_itself
from ._sets import ordered
from ._validate import CONVERSION_ERRORS, as_array, describe, plain

__all__ = ["is_set_family", "set_family", "is_sets", "one_layer", "same_keys", "label_sets",
           "labels_known", "self_equal", "zero_division", "universe_elements", "blocks_within",
           "nonempty_blocks", "covering_of", "element_of", "indicator_matrix"]


def is_set_family(x):
    """True when ``x`` is a non-empty sequence whose first item is a set or frozenset."""
    if isinstance(x, (set, frozenset, str, bytes, np.ndarray)) or not hasattr(x, "__len__"):
        return False
    try:
        return len(x) > 0 and isinstance(x[0], (set, frozenset))
    except (TypeError, KeyError, IndexError):
        return False


def set_family(family, name):
    """A tuple of frozensets from a sequence of sets (blocks in subscript order).

    Empty blocks pass here (:func:`covering_of` refuses them).
    """
    if isinstance(family, (set, frozenset)):
        raise ValueError(f"{name} must be an ordered sequence of sets (a list or tuple), "
                         "not a set: the order gives the 1-based subscripts")
    if isinstance(family, (str, bytes)) or not hasattr(family, "__len__") \
            or not hasattr(family, "__getitem__"):
        raise ValueError(f"{name} must be a list or tuple of sets, got {type(family).__name__}")
    if len(family) == 0:
        raise ValueError(f"{name} must hold at least one block")
    blocks = []
    for i, block in enumerate(family, start=1):
        if not isinstance(block, (set, frozenset)):
            raise ValueError(f"{name}: block {i} must be a set (e.g. {{'a', 'b'}}), "
                             f"got {type(block).__name__}")
        self_equal(block, name, f": block {i} holds")
        blocks.append(frozenset(block))
    return tuple(blocks)


def self_equal(elements, name, holds=" holds"):
    """Raise unless every one of ``elements`` equals itself (``holds`` says where, in the message).

    A NaN-like element is found in a set only as the very same object.
    """
    for e in elements:
        if not isinstance(e, SELF_EQUAL) and not equals_itself(e):
            raise ValueError(f"{name}{holds} {describe(e)}, which does not equal itself "
                             "(a NaN-like value): sets would match it or not depending on "
                             "which NaN object it is")


def is_sets(x):
    """True for the set layer's inputs: a mapping element -> set, or a sequence of sets."""
    return isinstance(x, Mapping) or is_set_family(x)


def one_layer(**values):
    """True when every input is of the set layer, False when all are matrices; a mix raises."""
    (a, xa), *others = values.items()
    for b, xb in others:
        if is_sets(xa) != is_sets(xb):
            raise ValueError(f"{a} and {b} must both be sets (sequences of sets, or mappings "
                             "element -> label set) or both 0/1 indicator matrices; convert one "
                             "with rl.blocks_to_indicator or rl.indicator_to_blocks")
        if isinstance(xa, Mapping) != isinstance(xb, Mapping):
            raise ValueError(f"{a} and {b} must both be mappings element -> label set, "
                             "or both sequences")
    return is_sets(xa)


def same_keys(what="elements", **mappings):
    """Raise unless every keyword-named mapping labels the same ``what`` as the first."""
    (a, xa), *others = mappings.items()
    for b, xb in others:
        if set(xb) != set(xa):
            raise ValueError(f"{b} must label the same {what} as {a}")


def label_sets(x, name):
    """(elements, rows) of per-element label sets: a mapping element -> set, or a sequence.

    Keys in :func:`ordered` order, or elements 0..n-1; rows as frozensets (empty allowed).
    """
    if isinstance(x, Mapping):
        elements = ordered(x)
        values = [x[p] for p in elements]
    else:
        if isinstance(x, (str, bytes, set, frozenset)) or not hasattr(x, "__len__"):
            raise ValueError(f"{name} must be a sequence of sets or a mapping element -> set")
        elements = list(range(len(x)))
        values = list(x)
    if not values:
        raise ValueError(f"{name} must not be empty")
    self_equal(elements, name, ": an element (a key) is")
    rows = []
    for p, row in zip(elements, values):
        if not isinstance(row, (set, frozenset)):
            raise ValueError(f"{name}: the label set of {describe(p)} must be a set, "
                             f"got {type(row).__name__}")
        self_equal(row, name, f": the label set of {describe(p)} holds")
        rows.append(frozenset(row))
    return elements, rows


def labels_known(rows, labels, name):
    """Raise unless every label in ``rows`` (label sets) is one of ``labels``."""
    extra = frozenset().union(*rows).difference(labels)
    if extra:
        raise ValueError(f"{name} use label(s) not in labels: {_shown(extra)}")


def _shown(elements):
    """The first five of some elements, in display order, for a message."""
    return ", ".join(repr(plain(e)) for e in ordered(elements)[:5])


def zero_division(x, name="zero_division"):
    """scikit-learn's ``zero_division``: "warn", 0, 1 or np.nan -> (value, warn)."""
    if isinstance(x, str):
        if x == "warn":
            return 0.0, True
    elif isinstance(x, (int, float, np.integer, np.floating)) \
            and not isinstance(x, (bool, np.bool_)):
        if x in (0, 1):
            return float(x), False
        if isinstance(x, (float, np.floating)) and x != x:    # NaN; an int has none
            return float("nan"), False
    raise ValueError(f'{name} must be "warn", 0, 1 or np.nan, got {describe(x)}')


def universe_elements(universe, name="universe"):
    """The elements of ``universe`` as a tuple in a fixed order, or raise.

    A set in :func:`ordered` order; a list, tuple or range keeps its order, without repeats.
    """
    if isinstance(universe, (str, bytes)) or not hasattr(universe, "__iter__"):
        raise ValueError(f"{name} must be a collection of elements, got {universe!r}")
    try:
        items = list(universe)
        distinct = set(items)
    except CONVERSION_ERRORS as exc:  # unhashable items, a 2-D memoryview, ...
        raise ValueError(f"{name} must be a collection of hashable elements: {exc}") from None
    if not items:
        raise ValueError(f"{name} must not be empty")
    self_equal(items, name)
    if isinstance(universe, (set, frozenset)):
        return tuple(ordered(items))
    if len(distinct) != len(items):
        raise ValueError(f"{name} must not repeat an element")
    return tuple(items)


def blocks_within(blocks, universe, name):
    """Raise unless every block only holds elements of ``universe`` (a set)."""
    for i, block in enumerate(blocks, start=1):
        if block - universe:
            raise ValueError(f"{name}: block {i} holds element(s) not in the universe: "
                             f"{_shown(block - universe)}")


def nonempty_blocks(blocks, name):
    """Raise if a block is empty: a covering's blocks are non-empty subsets of U."""
    for i, block in enumerate(blocks, start=1):
        if not block:
            raise ValueError(f"{name}: block {i} is empty (a covering has non-empty blocks)")


def covering_of(blocks, universe, name):
    """Raise unless ``blocks`` is a covering of ``universe``: no empty block, union == universe."""
    nonempty_blocks(blocks, name)
    blocks_within(blocks, universe, name)
    missing = universe.difference(*blocks)
    if missing:
        raise ValueError(f"{name} does not cover the universe: element(s) {_shown(missing)} lie "
                         "in no block (their neighborhood system is empty)")


def element_of(p, universe, name="p"):
    """Raise unless ``p`` is an element of ``universe`` (a set)."""
    try:
        ok = p in universe
    except TypeError:
        ok = False
    if not ok:
        raise ValueError(f"{name} must be an element of the universe, got {describe(p)}")
    return p


def indicator_matrix(Y, name):
    """A 2-D boolean array from a 0/1 (or boolean) indicator matrix, or raise.

    Rows are samples, columns labels; int8 / uint8 / bool input is read without a copy.
    """
    arr = as_array(Y, name, "a 0/1 indicator matrix")
    if arr.ndim != 2:
        hint = " (write blocks and label sets as Python sets, e.g. {'a', 'b'})" \
            if arr.dtype == object or arr.ndim == 1 else ""
        raise ValueError(f"{name} must be a 2-D 0/1 indicator matrix (rows = samples, "
                         f"columns = labels), got shape {arr.shape}{hint}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    if arr.dtype == bool:
        return arr
    if arr.dtype.kind not in "iuf" or arr.dtype.names:
        raise ValueError(f"{name} must hold 0/1 values, got dtype {arr.dtype} "
                         "(write blocks and label sets as Python sets, e.g. {'a', 'b'})")
    if arr.dtype.itemsize == 1 and arr.dtype.kind in "iu":
        if arr.view(np.uint8).max() > 1:
            raise ValueError(f"{name} must hold 0/1 values only")
        return arr.view(bool)
    if not np.all((arr == 0) | (arr == 1)):
        raise ValueError(f"{name} must hold 0/1 values only")
    return arr.astype(bool)
