"""Families of blocks read at the door of the covering functions: blocks, universe and its order.

A covering (or any family of blocks) is a list / tuple of Python sets, or a
0/1 indicator matrix with one row per element and one column per block;
:func:`read_family` turns either into a tuple of frozensets, the universe U and
U's element order (which fixes how results print).
"""

from __future__ import annotations

import numpy as np

from . import _set_checks as sc, _validate as v
from ._sets import ElementSet

__all__ = ["read_family", "matrix_family", "covering_blocks", "subscripts_of", "neighborhood_of"]


def read_family(covering, name, universe=None):
    """Blocks (tuple of frozensets) and the universe (frozenset, plus its order).

    Blocks must be sets of elements of ``universe`` when it is given; the
    universe defaults to the union of the blocks. An indicator matrix gives
    blocks of row indices 0..n-1 (or of ``universe``'s elements, in its order).
    """
    if sc.is_set_family(covering):
        blocks = sc.set_family(covering, name)
        order = sc.universe_order(blocks, universe)
        U = frozenset(order)
        sc.blocks_within(blocks, U, name)
        return blocks, U, order
    return matrix_family(sc.indicator_matrix(covering, name), name, universe)


def matrix_family(Y, name, universe=None):
    """":func:`read_family` of a validated boolean indicator matrix."""
    if universe is None:
        order = tuple(range(Y.shape[0]))
    else:
        order = sc.universe_elements(universe)
        v.same_number("elements (one row per element)", universe=len(order), **{name: Y.shape[0]})
    names = np.empty(len(order), dtype=object)
    names[:] = order
    blocks = tuple(frozenset(names[Y[:, j]].tolist()) for j in range(Y.shape[1]))
    return blocks, frozenset(order), order


def covering_blocks(covering, name, universe=None):
    """Like :func:`read_family`, then check that the blocks cover the universe."""
    blocks, U, order = read_family(covering, name, universe)
    sc.covering_of(blocks, U, name)
    return blocks, U, order


def subscripts_of(blocks, p):
    return ElementSet(i for i, block in enumerate(blocks, start=1) if p in block)


def neighborhood_of(blocks, p):
    system = [block for block in blocks if p in block]
    if not system:
        return None
    return ElementSet(frozenset.intersection(*system))
