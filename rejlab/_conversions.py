"""Families of sets read at the door, and the converters between their three representations.

Blocks P_i (the paper's Sec. 4), per-element label sets (its Table 1) and 0/1
indicator matrices (scikit-learn's multilabel format); :func:`read_family` reads a
family as :mod:`rejlab.coverings` needs it.
"""

from __future__ import annotations

import numpy as np

from . import _set_checks as sc, _validate as v
from ._constraints import accepts
from ._kinds import DISTINCT, FAMILY, INDICATOR, LABEL_SETS, UNIVERSE
from ._sets import ElementSet, ordered

__all__ = ["blocks_to_indicator", "indicator_to_blocks", "label_sets_to_indicator",
           "indicator_to_label_sets", "blocks_to_label_sets", "label_sets_to_blocks"]


def read_family(family, name, universe=None):
    """(blocks, U, order): a declared family as a tuple of frozensets, its universe and U's order.

    ``family``: a tuple of frozensets or a boolean indicator matrix (column j is block
    j + 1, rows 0..n-1 or ``universe``). ``universe`` must hold every block; by
    default U is the union of the blocks, :func:`rejlab._sets.ordered`.
    """
    if not isinstance(family, tuple):
        return _matrix_family(family, name, universe)
    if universe is None:
        order = tuple(ordered(frozenset().union(*family)))
        return family, frozenset(order), order
    U = frozenset(universe)
    sc.blocks_within(family, U, name)
    return family, U, universe


def _matrix_family(Y, name, universe=None):
    order = tuple(range(Y.shape[0])) if universe is None else universe
    v.same_number("elements (one row per element)", universe=len(order), **{name: Y.shape[0]})
    names = np.empty(len(order), dtype=object)
    names[:] = order
    blocks = tuple(frozenset(names[Y[:, j]].tolist()) for j in range(Y.shape[1]))
    return blocks, frozenset(order), order


def covering_blocks(covering, name, universe=None):
    """:func:`read_family`, refusing a family that does not cover its universe."""
    blocks, U, order = read_family(covering, name, universe)
    sc.covering_of(blocks, U, name)
    return blocks, U, order


def family_kind(counts, sizes):
    """"partition", "covering" or "not a covering", from how many blocks hold each element
    (``counts``) and how many elements each block holds (``sizes``)."""
    if not (np.all(counts) and np.all(sizes)):
        return "not a covering"
    return "partition" if np.all(np.asarray(counts) == 1) else "covering"


def subscripts_of(blocks, p):
    """``Q_NS(p)``: the 1-based subscripts of the blocks holding ``p``."""
    return ElementSet(i for i, block in enumerate(blocks, start=1) if p in block)


def membership(sets, position, width):
    """Boolean (len(sets), width) matrix: row i is True at ``position[x]`` for each x in ``sets[i]``."""
    Y = np.zeros((len(sets), width), dtype=bool)
    for i, s in enumerate(sets):
        Y[i, [position[x] for x in s]] = True
    return Y


@accepts(blocks=FAMILY, universe=UNIVERSE)
def blocks_to_indicator(blocks, *, universe=None):
    """0/1 indicator matrix (elements x blocks) of a sequence of sets.

    ``Y[r, i-1] = 1`` iff the r-th element of ``universe`` (default: the sorted union)
    lies in P_i; ``uint8``.

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.blocks_to_indicator([{"b", "c"}, {"a", "c"}])
    array([[0, 1],
           [1, 0],
           [1, 1]], dtype=uint8)
    """
    if not isinstance(blocks, tuple):
        _matrix_family(blocks, "blocks", universe)  # a universe must name its rows
        return blocks.astype(np.uint8)
    family, _, order = read_family(blocks, "blocks", universe)
    position = {p: r for r, p in enumerate(order)}
    return np.ascontiguousarray(membership(family, position, len(order)).T, dtype=np.uint8)


@accepts(Y=INDICATOR, universe=UNIVERSE)
def indicator_to_blocks(Y, *, universe=None):
    """The blocks P_i (one per column) of an indicator matrix whose rows are ``universe`` (default 0..n-1).

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.indicator_to_blocks([[0, 1], [1, 0], [1, 1]], universe=["a", "b", "c"])
    ({'b', 'c'}, {'a', 'c'})
    """
    return tuple(map(ElementSet, _matrix_family(Y, "Y", universe)[0]))


def _columns(rows, labels):
    """The labels of the columns: ``labels``, checked, or the sorted union of the label sets."""
    if labels is None:
        labels = ordered(frozenset().union(*rows))
        if not labels:
            raise ValueError("label_sets hold no label at all: pass labels=...")
    sc.labels_known(rows, labels, "label_sets")
    return list(labels)


@accepts(label_sets=LABEL_SETS, labels=DISTINCT)
def label_sets_to_indicator(label_sets, *, labels=None):
    """0/1 indicator matrix (samples x labels) of per-sample label sets.

    A sequence of sets or a mapping element -> set (rows in sorted key order);
    ``labels`` fixes the columns (default: the sorted union).

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.label_sets_to_indicator([{2, 3}, {1}, set()])
    array([[0, 1, 1],
           [1, 0, 0],
           [0, 0, 0]], dtype=uint8)
    """
    rows = sc.label_sets(label_sets, "label_sets")[1]
    cols = _columns(rows, labels)
    return membership(rows, {label: j for j, label in enumerate(cols)}, len(cols)).astype(np.uint8)


@accepts(Y=INDICATOR, labels=DISTINCT)
def indicator_to_label_sets(Y, *, labels=None):
    """Per-sample label sets (one per row) of an indicator matrix.

    ``labels`` names the columns (default 1..m, the paper's subscripts).

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.indicator_to_label_sets([[0, 1, 1], [1, 0, 0]])
    ({2, 3}, {1})
    """
    m = Y.shape[1]
    if labels is not None:
        v.same_number("names (one per column)", Y=m, labels=len(labels))
    names = np.empty(m, dtype=object)
    names[:] = list(range(1, m + 1) if labels is None else labels)
    return tuple(ElementSet(names[row].tolist()) for row in Y)


@accepts(blocks=FAMILY, universe=UNIVERSE)
def blocks_to_label_sets(blocks, *, universe=None):
    """Per-element label sets ``{p: Q_NS(p)}`` of a family of blocks (1-based subscripts).

    How Section 5.1 reads the data Section 5.2 writes as blocks.

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
    """Blocks P_i (the samples carrying label i) of per-sample label sets, one per label.

    A mapping element -> labels (or a sequence, elements 0..n-1); blocks in ``labels``
    order (default: the sorted union); a label nobody carries gives an empty block.

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.label_sets_to_blocks({"a": {2, 3}, "b": {1}, "c": {1}, "d": {3}})
    ({'b', 'c'}, {'a'}, {'a', 'd'})
    """
    elements, rows = sc.label_sets(label_sets, "label_sets")
    return tuple(ElementSet(p for p, row in zip(elements, rows) if label in row)
                 for label in _columns(rows, labels))
