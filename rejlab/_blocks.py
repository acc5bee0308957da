"""Families of blocks read at the door of the covering functions: blocks, universe and its order.

A covering (or any family of blocks) is a list / tuple of Python sets, or a
0/1 indicator matrix with one row per element and one column per block;
:func:`read_family` turns either into a tuple of frozensets, the universe U and
U's element order (which fixes how results print).
"""

from __future__ import annotations

import numpy as np

from . import _set_checks as sc, _validate as v
from ._sets import ElementSet, ordered

__all__ = ["read_family", "matrix_family", "covering_blocks", "subscripts_of", "neighborhood_of"]


def read_family(covering, name, universe=None):
    """Blocks (tuple of frozensets) and the universe (frozenset, plus its order) of a declared family.

    ``covering`` is what the ``FAMILY`` or ``COVERING`` kind of
    :mod:`rejlab._kinds` made of it: a tuple of frozensets, or a boolean
    indicator matrix, whose blocks are sets of row indices 0..n-1 (or of
    ``universe``'s elements, in its order). ``universe`` is None (U is then
    the union of the blocks) or the tuple the ``UNIVERSE`` kind made of it,
    and every block must lie in it.
    """
    if not isinstance(covering, tuple):
        return matrix_family(covering, name, universe)
    if universe is None:
        order = tuple(ordered(frozenset().union(*covering)))
        return covering, frozenset(order), order
    U = frozenset(universe)
    sc.blocks_within(covering, U, name)
    return covering, U, universe


def matrix_family(Y, name, universe=None):
    """":func:`read_family` of a validated boolean indicator matrix."""
    if universe is None:
        order = tuple(range(Y.shape[0]))
    else:
        order = universe
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
