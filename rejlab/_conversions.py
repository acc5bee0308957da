"""Converters between the three representations of a family: block sets, label sets, indicator matrices.

The neighborhood-system paper writes a result as block sets P_i (Sec. 4) and
as per-element label sets (its Table 1); scikit-learn's multilabel format is
a 0/1 indicator matrix (rows = elements, columns = labels). These functions
move between them; :mod:`rejlab.coverings` exports them.
"""

from __future__ import annotations

import numpy as np

from . import _set_checks as sc, _validate as v
from ._blocks import matrix_family, read_family, subscripts_of
from ._constraints import accepts
from ._kinds import DISTINCT, FAMILY, INDICATOR, LABEL_SETS, UNIVERSE
from ._sets import ElementSet, ordered

__all__ = ["blocks_to_indicator", "indicator_to_blocks", "label_sets_to_indicator",
           "indicator_to_label_sets", "blocks_to_label_sets", "label_sets_to_blocks"]


@accepts(blocks=FAMILY, universe=UNIVERSE)
def blocks_to_indicator(blocks, *, universe=None):
    """0/1 indicator matrix (elements x blocks) of a sequence of sets.

    Row r is the r-th element of ``universe`` (default: the union of the
    blocks in sorted order), column i-1 is block i: ``Y[r, i-1] = 1`` iff the
    element lies in P_i. Returns a ``uint8`` array.

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.blocks_to_indicator([{"b", "c"}, {"a", "c"}])
    array([[0, 1],
           [1, 0],
           [1, 1]], dtype=uint8)
    """
    if not isinstance(blocks, tuple):
        matrix_family(blocks, "blocks", universe)  # a universe must name its rows
        return blocks.astype(np.uint8)
    family, _, order = read_family(blocks, "blocks", universe)
    index = {p: r for r, p in enumerate(order)}
    Y = np.zeros((len(order), len(family)), dtype=np.uint8)
    for j, block in enumerate(family):
        Y[[index[p] for p in block], j] = 1
    return Y


@accepts(Y=INDICATOR, universe=UNIVERSE)
def indicator_to_blocks(Y, *, universe=None):
    """The blocks P_i (one per column) of an indicator matrix, as a tuple of ElementSet.

    ``universe`` names the rows (default 0..n-1).

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.indicator_to_blocks([[0, 1], [1, 0], [1, 1]], universe=["a", "b", "c"])
    ({'b', 'c'}, {'a', 'c'})
    """
    blocks, _, _ = matrix_family(Y, "Y", universe)
    return tuple(ElementSet(b) for b in blocks)


@accepts(label_sets=LABEL_SETS, labels=DISTINCT)
def label_sets_to_indicator(label_sets, *, labels=None):
    """0/1 indicator matrix (samples x labels) of per-sample label sets.

    ``label_sets`` is a sequence of sets (one per sample, in row order) or a
    mapping element -> set (rows in sorted key order). ``labels`` fixes the
    columns (default: the sorted union of all labels).

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.label_sets_to_indicator([{2, 3}, {1}, set()])
    array([[0, 1, 1],
           [1, 0, 0],
           [0, 0, 0]], dtype=uint8)
    """
    rows = sc.label_sets(label_sets, "label_sets")[1]
    cols = _labels(rows, labels)
    sc.labels_known(rows, cols, "label_sets")
    col = {label: j for j, label in enumerate(cols)}
    Y = np.zeros((len(rows), len(cols)), dtype=np.uint8)
    for r, row in enumerate(rows):
        Y[r, [col[label] for label in row]] = 1
    return Y


@accepts(Y=INDICATOR, labels=DISTINCT)
def indicator_to_label_sets(Y, *, labels=None):
    """Per-sample label sets (one ElementSet per row) of an indicator matrix.

    ``labels`` names the columns (default 1..m, the paper's 1-based subscripts).

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.indicator_to_label_sets([[0, 1, 1], [1, 0, 0]])
    ({2, 3}, {1})
    """
    names = _column_names(labels, Y.shape[1])
    return tuple(ElementSet(names[row].tolist()) for row in Y)


@accepts(blocks=FAMILY, universe=UNIVERSE)
def blocks_to_label_sets(blocks, *, universe=None):
    """Per-element label sets of a family of blocks: ``{p: Q_NS(p)}`` (1-based subscripts).

    This is how Section 5.1 reads the same data that Section 5.2 writes as
    blocks: the label set of p is the subscript set of its neighborhood system.

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.blocks_to_label_sets([{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}])
    {'a': {2, 3}, 'b': {1}, 'c': {1}, 'd': {1}, 'e': {2}, 'f': {2}, 'g': {3}}
    """
    family, _, order = read_family(blocks, "blocks", universe)
    return {p: subscripts_of(family, p) for p in order}


@accepts(label_sets=LABEL_SETS, labels=DISTINCT)
def label_sets_to_blocks(label_sets, *, labels=None):
    """Blocks P_i (the samples carrying label i) from per-sample label sets.

    ``label_sets`` is a mapping element -> set of labels (or a sequence of
    sets, elements 0..n-1). One block per label, in ``labels`` order (default
    the sorted union of the labels). A label nobody carries gives an empty
    block.

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.label_sets_to_blocks({"a": {2, 3}, "b": {1}, "c": {1}, "d": {3}})
    ({'b', 'c'}, {'a'}, {'a', 'd'})
    """
    elements, rows = sc.label_sets(label_sets, "label_sets")
    cols = _labels(rows, labels)
    sc.labels_known(rows, cols, "label_sets")
    blocks = tuple(ElementSet(p for p, row in zip(elements, rows) if label in row)
                   for label in cols)
    return blocks


def _labels(rows, labels):
    if labels is None:
        cols = ordered(frozenset().union(*rows))
        if not cols:
            raise ValueError("label_sets hold no label at all: pass labels=...")
        return cols
    return list(labels)


def _column_names(labels, m):
    if labels is None:
        names = list(range(1, m + 1))
    else:
        names = list(labels)
        v.same_number("names (one per column)", Y=m, labels=len(names))
    out = np.empty(m, dtype=object)
    out[:] = list(names)
    return out
