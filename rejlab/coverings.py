"""Coverings, neighborhoods and neighborhood systems (Sec. 3 of the neighborhood-system paper).

N(p), NS(p), Q_NS(p), the derived covering cov(C), the overlapped elements and
the paper's Theorem (see ``docs/maths.md``, section (g)). A covering is a sequence
of sets (order gives the 1-based subscripts) or a 0/1 indicator matrix (elements
x blocks); returned sets are :class:`ElementSet`, frozensets that print sorted.
"""

from __future__ import annotations

import gc
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain

import numpy as np

from . import _set_checks as sc
from ._constraints import accepts
from ._conversions import (
    blocks_to_indicator,
    blocks_to_label_sets,
    covering_blocks,
    family_kind,
    indicator_to_blocks,
    indicator_to_label_sets,
    label_sets_to_blocks,
    label_sets_to_indicator,
    read_family,
    subscripts_of,
)
from ._kinds import COVERING, ELEMENT, FAMILY, UNIVERSE
from ._sets import ElementSet

__all__ = [
    "ElementSet",
    "CoveringSummary",
    "neighborhood",
    "neighborhood_system",
    "subscripts",
    "derived_covering",
    "overlapped_elements",
    "overlapped_elements_theorem",
    "covering_kind",
    "is_covering",
    "is_partition",
    "covering_summary",
    "blocks_to_indicator",
    "indicator_to_blocks",
    "label_sets_to_indicator",
    "indicator_to_label_sets",
    "blocks_to_label_sets",
    "label_sets_to_blocks",
]


def _neighborhood_of(blocks, p):
    """N(p) of Definition 2; None when p lies in no block (its system is empty)."""
    system = [block for block in blocks if p in block]
    return ElementSet(frozenset.intersection(*system)) if system else None


@accepts(covering=COVERING, p=ELEMENT, universe=UNIVERSE)
def neighborhood(covering, p, *, universe=None):
    """The neighborhood ``N(p) = ∩ {K in C : p in K}`` (Definition 2).

    ``universe`` defaults to the union of the blocks; None when ``p`` lies in no
    block (an empty neighborhood system, Definition 1.2).

    Examples
    --------
    >>> from rejlab.coverings import neighborhood
    >>> C = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}]
    >>> neighborhood(C, "a")
    {'a'}
    >>> neighborhood(C, "b")
    {'b', 'c', 'd'}
    >>> neighborhood(C, "h", universe=set("abcdefgh")) is None
    True
    """
    blocks, U, _ = read_family(covering, "covering", universe)
    sc.element_of(p, U)
    return _neighborhood_of(blocks, p)


@accepts(covering=COVERING, p=ELEMENT, universe=UNIVERSE)
def neighborhood_system(covering, p, *, universe=None):
    """The neighborhood system ``NS(p) = {K in C : p in K}`` (Definition 3).

    A tuple in subscript order: two equal blocks both appear; no block gives ``()``.

    Examples
    --------
    >>> import rejlab as rl
    >>> C = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}]
    >>> rl.neighborhood_system(C, "d")
    ({'b', 'c', 'd'}, {'a', 'd', 'g'})
    >>> rl.neighborhood_system(C, "h", universe=set("abcdefgh"))
    ()
    """
    blocks, U, _ = read_family(covering, "covering", universe)
    sc.element_of(p, U)
    return tuple(ElementSet(block) for block in blocks if p in block)


@accepts(covering=COVERING, p=ELEMENT, universe=UNIVERSE)
def subscripts(covering, p, *, universe=None):
    """The subscript set ``Q_NS(p)`` of the blocks containing ``p`` (1-based, Definition 3).

    Seen from the element, this is its label set.

    Examples
    --------
    >>> import rejlab as rl
    >>> C = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}]
    >>> rl.subscripts(C, "a"), rl.subscripts(C, "c"), rl.subscripts(C, "d")
    ({2, 3}, {1}, {1, 3})
    """
    blocks, U, _ = read_family(covering, "covering", universe)
    sc.element_of(p, U)
    return subscripts_of(blocks, p)


@accepts(covering=COVERING, universe=UNIVERSE)
def derived_covering(covering, *, universe=None):
    """The derived covering ``cov(C) = {N(p) : p in U}`` (Definition 4).

    Distinct sets, in the universe order of their first element. Built from the
    elements' signatures: seconds at 10^5 elements, where the word-for-word
    :func:`_derived_covering_reference` (O(n·S), ``S = Σ|K|``) takes minutes.

    Examples
    --------
    >>> import rejlab as rl
    >>> C = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}]
    >>> rl.derived_covering(C)
    ({'a'}, {'b', 'c', 'd'}, {'d'}, {'a', 'e', 'f'}, {'a', 'd', 'g'})
    """
    blocks, _, order = covering_blocks(covering, "covering", universe)
    return tuple(_neighborhoods(blocks, order, *_signatures(blocks, order)))


def _derived_covering_reference(blocks, order):
    """cov(C) by Definition 4 word for word: N(p) for each p of ``order``, duplicates merged."""
    seen = {}
    for p in order:
        Y = _neighborhood_of(blocks, p)
        if Y is not None:
            seen.setdefault(Y, None)
    return tuple(seen)


# --- cov(C) by signatures ----------------------------------------------------------------
#
# N(p) depends on p only through its signature Q(p) = Q_NS(p): q lies in every block holding p
# iff Q(q) ⊇ Q(p), so N(p) = {q : Q(q) ⊇ Q(p)}. And N(p) = N(q) iff Q(p) = Q(q) (each lies in
# the other's neighborhood). So cov(C) holds one set per distinct signature s: the elements of
# every signature that includes s.

_CHUNK = 1 << 20  # cells of one inclusion table at a time (bounds its memory)
_SMALL = 1 << 12  # a node with this few (query, target) pairs is tested at once
_RATIO = 16       # split a node when its queries outnumber their next blocks this many times


def _signatures(blocks, order):
    """(words, of): the distinct signatures as rows of 64-bit words (bit j: block j + 1), in
    order of first element, and each element's signature number (-1: no block)."""
    position = {p: r for r, p in enumerate(order)}
    words = np.zeros((len(order), (len(blocks) + 63) // 64), dtype=np.uint64)
    for j, block in enumerate(blocks):
        rows = np.fromiter(map(position.__getitem__, block), dtype=np.intp, count=len(block))
        words[rows, j >> 6] |= np.uint64(1) << np.uint64(j & 63)
    covered = np.flatnonzero(words.any(axis=1))
    of = np.full(len(order), -1, dtype=np.intp)
    if not len(covered):
        return words[:0], of
    distinct, first, inverse = np.unique(words[covered], axis=0, return_index=True,
                                         return_inverse=True)
    by_first = np.argsort(first)
    number = np.empty_like(by_first)
    number[by_first] = np.arange(len(by_first))
    of[covered] = number[inverse.reshape(-1)]
    return distinct[by_first], of


def _bits(words, m):
    """The (D, m) boolean matrix of the signatures: which blocks each holds."""
    as_bytes = words.astype("<u8", copy=False).view(np.uint8)
    return np.unpackbits(as_bytes, axis=1, count=m, bitorder="little").view(bool)


def _superset_pairs(words, m):
    """(q, t): every pair of distinct signatures with t ⊇ q, q itself included.

    A search over the blocks, rarest first: a node holds the queries sharing their
    first ``depth`` blocks P and every target holding P. Queries are tested against
    all targets at once (t ⊇ q iff q AND t == q), unless they outnumber their next
    blocks ``_RATIO`` times: then each moves to the child of its next block. A rare
    block cuts the targets at once; O(D²·⌈m/64⌉) at worst for D signatures.
    """
    held = _bits(words, m)
    rarity = np.argsort(held.sum(axis=0), kind="stable")
    rows, cols = np.nonzero(held[:, rarity])
    rarest_first = rarity[cols]  # row by row: each signature's blocks, rarest first
    length = np.bincount(rows, minlength=len(words))
    start = np.cumsum(length) - length
    found, todo = [], [(np.arange(len(words)), np.arange(len(words)), 0)]
    while todo:
        queries, targets, depth = todo.pop()
        done = length[queries] == depth
        found.append((np.repeat(queries[done], len(targets)), np.tile(targets, done.sum())))
        queries = queries[~done]
        if not len(queries):
            continue
        following = rarest_first[start[queries] + depth]
        children = np.unique(following)
        if len(queries) * len(targets) <= _SMALL or _RATIO * len(children) > len(queries):
            step = max(1, _CHUNK // (len(targets) * words.shape[1]))
            wt = words[targets][None]
            for a in range(0, len(queries), step):
                wq = words[queries[a:a + step]][:, None]
                qi, ti = np.nonzero(((wq & wt) == wq).all(axis=2))
                found.append((queries[a:a + step][qi], targets[ti]))
            continue
        for b in children.tolist():
            holds = (words[targets, b >> 6] >> np.uint64(b & 63)) & np.uint64(1)
            todo.append((queries[following == b], targets[holds.astype(bool)], depth + 1))
    q, t = (np.concatenate(side) for side in zip(*found))
    return q, t


def _neighborhoods(blocks, order, words, of):
    """N of each distinct signature, in signature order: the elements of every t ⊇ it."""
    if not len(words):
        return []
    q, t = _superset_pairs(words, len(blocks))
    by_q = np.argsort(q, kind="stable")
    q, t = q[by_q], t[by_q]
    size = np.bincount(of[of >= 0], minlength=len(words))
    start = np.cumsum(size) - size
    members = np.argsort(of, kind="stable")[np.count_nonzero(of < 0):]  # by signature
    ends = np.cumsum(size[t])  # all members of all t, gathered at once:
    picks = members[np.arange(ends[-1]) + np.repeat(start[t] - ends + size[t], size[t])]
    names = np.empty(len(order), dtype=object)
    names[:] = order
    flat = names[picks].tolist()
    cut = np.cumsum(np.bincount(q, weights=size[t], minlength=len(words))).astype(np.intp)
    with _collector_paused():
        return [ElementSet(flat[a:b]) for a, b in zip([0, *cut[:-1].tolist()], cut.tolist())]


@contextmanager
def _collector_paused():
    """Pause the cycle collector while many small acyclic objects are built (it would rescan
    the growing result again and again, doubling the time)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# --- overlapped elements ------------------------------------------------------------------

@accepts(covering=COVERING, universe=UNIVERSE)
def overlapped_elements(covering, *, universe=None):
    """The overlapped elements: those lying in two or more blocks of the covering.

    Blocks count by subscript, so the elements of two equal blocks are overlapped
    (the Theorem misses them). For an ideal result P this is ``D_P`` of Section 4.

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.overlapped_elements([{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}])
    {'a', 'd'}
    >>> rl.overlapped_elements([{"a", "b"}, {"a", "b"}, {"c"}])
    {'a', 'b'}
    """
    blocks, _, order = covering_blocks(covering, "covering", universe)
    return _held_twice(blocks, order)


def _held_twice(blocks, order):
    count = Counter(chain.from_iterable(blocks))
    return ElementSet(p for p in order if count[p] >= 2)


@accepts(covering=COVERING, universe=UNIVERSE)
def overlapped_elements_theorem(covering, *, universe=None):
    """The paper's Theorem: ``D = ∪ {Y in cov(C) : Y is a proper subset of some K in C}``.

    The inclusion must be proper (else D = U). D misses the elements of two equal
    blocks. Computed in O(S) without cov(C): q is in D iff two *different* blocks
    hold it (proof: docs/maths.md, section (g)); :func:`_theorem_reference` is the
    construction word for word.

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.overlapped_elements_theorem([{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}])
    {'a', 'd'}
    >>> rl.overlapped_elements_theorem([{"a", "b"}, {"a", "b"}, {"c"}])
    set()
    """
    blocks, _, order = covering_blocks(covering, "covering", universe)
    return _held_twice(set(blocks), order)


def _theorem_reference(blocks, order):
    """The Theorem's union built literally from cov(C)."""
    found = set()
    for Y in _derived_covering_reference(blocks, order):
        if any(Y < K for K in blocks):
            found |= Y
    return ElementSet(found)


# --- what a family is ---------------------------------------------------------------------

@accepts(family=FAMILY, universe=UNIVERSE)
def covering_kind(family, *, universe=None):
    """What a family of sets is on U: "partition", "covering" or "not a covering".

    "not a covering" (an empty block, or an element of ``universe`` in no block) is
    reported instead of raised; blocks that are not sets of U's elements still raise.

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.covering_kind([{"b", "c", "d"}, {"e", "f"}, {"a", "g"}])
    'partition'
    >>> rl.covering_kind([{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}])
    'covering'
    >>> rl.covering_kind([{"b", "c", "d"}, {"e", "f"}], universe=set("abcdefg"))
    'not a covering'
    """
    blocks, _, order = read_family(family, "family", universe)
    count = Counter(chain.from_iterable(blocks))
    return family_kind([count[p] for p in order], list(map(len, blocks)))


@accepts(family=FAMILY, universe=UNIVERSE)
def is_covering(family, *, universe=None):
    """True when the blocks are non-empty and their union is U (partitions included)."""
    return covering_kind(family, universe=universe) != "not a covering"


@accepts(family=FAMILY, universe=UNIVERSE)
def is_partition(family, *, universe=None):
    """True when the family is a covering of U with pairwise disjoint blocks.

    >>> import rejlab as rl
    >>> rl.is_partition([{"b", "c", "d"}, {"e", "f"}, {"a", "g"}])
    True
    """
    return covering_kind(family, universe=universe) == "partition"


@dataclass(frozen=True)
class CoveringSummary:
    """Everything Section 3 defines, for one family of sets on U (see :func:`covering_summary`).

    ``universe`` (U in display order), ``blocks`` (C_i is ``blocks[i - 1]``), ``kind``,
    ``uncovered`` (elements in no block), ``empty_blocks`` (1-based); for every p,
    ``N[p]`` (None when NS(p) is empty), ``NS[p]``, ``Q[p]`` and ``count[p] = |Q[p]|``;
    ``derived`` (cov(C)), ``overlapped`` and ``overlapped_theorem``.
    """

    universe: tuple
    blocks: tuple
    kind: str
    uncovered: ElementSet
    empty_blocks: tuple
    N: dict
    NS: dict
    Q: dict
    count: dict
    derived: tuple
    overlapped: ElementSet
    overlapped_theorem: ElementSet

    @property
    def m(self):
        """Number of blocks."""
        return len(self.blocks)

    @property
    def is_covering(self):
        """True for a covering (partitions included)."""
        return self.kind != "not a covering"


@accepts(family=FAMILY, universe=UNIVERSE)
def covering_summary(family, *, universe=None):
    """Neighborhoods, systems, subscripts, derived covering and overlaps, all at once.

    A family that is not a covering is described instead of refused, so an explorer
    can show what is wrong. Elements of one signature share their ``N``, ``NS`` and
    ``Q`` objects: memory O(S + |cov(C)|); :func:`_covering_summary_reference` is
    the element-by-element version.

    Examples
    --------
    >>> import rejlab as rl
    >>> s = rl.covering_summary([{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}])
    >>> s.kind, s.N["d"], s.Q["d"], s.overlapped
    ('covering', {'d'}, {1, 3}, {'a', 'd'})
    >>> t = rl.covering_summary([{"b", "c", "d"}, {"a", "e", "f"}], universe=set("abcdefg"))
    >>> t.kind, t.uncovered, t.NS["g"], t.N["g"]
    ('not a covering', {'g'}, (), None)
    """
    blocks, _, order = read_family(family, "family", universe)
    size_of_blocks = list(map(len, blocks))
    words, of = _signatures(blocks, order)
    shown = tuple(map(ElementSet, blocks))
    derived = tuple(_neighborhoods(blocks, order, words, of))
    rows, cols = np.nonzero(_bits(words, len(blocks)))
    size = np.bincount(rows, minlength=len(words)).tolist()
    cut, held, subscript = np.cumsum([0, *size]).tolist(), cols.tolist(), (cols + 1).tolist()
    with _collector_paused():
        Q_of = [ElementSet(subscript[a:b]) for a, b in zip(cut[:-1], cut[1:])]
        NS_of = [tuple(map(shown.__getitem__, held[a:b])) for a, b in zip(cut[:-1], cut[1:])]
    of = of.tolist()  # -1 (an element in no block) picks the last item of each list

    def per_element(values, empty):
        values = [*values, empty]
        return dict(zip(order, map(values.__getitem__, of)))

    count = per_element(size, 0)
    return CoveringSummary(
        universe=order, blocks=shown, kind=family_kind(list(count.values()), size_of_blocks),
        uncovered=ElementSet(p for p in order if not count[p]),
        empty_blocks=tuple(i for i, b in enumerate(blocks, start=1) if not b),
        N=per_element(derived, None), NS=per_element(NS_of, ()),
        Q=per_element(Q_of, ElementSet()), count=count, derived=derived,
        overlapped=ElementSet(p for p in order if count[p] >= 2),
        overlapped_theorem=_held_twice(set(blocks), order),
    )


def _covering_summary_reference(blocks, U, order):
    """:func:`covering_summary` element by element (O(n·S)), from :func:`read_family`'s answer."""
    Q = {p: subscripts_of(blocks, p) for p in order}
    return CoveringSummary(
        universe=order, blocks=tuple(map(ElementSet, blocks)),
        kind=family_kind([len(Q[p]) for p in order], list(map(len, blocks))),
        uncovered=ElementSet(p for p in order if not Q[p]),
        empty_blocks=tuple(i for i, b in enumerate(blocks, start=1) if not b),
        N={p: _neighborhood_of(blocks, p) for p in order},
        NS={p: tuple(ElementSet(b) for b in blocks if p in b) for p in order},
        Q=Q, count={p: len(Q[p]) for p in order},
        derived=_derived_covering_reference(blocks, order),
        overlapped=ElementSet(p for p in order if len(Q[p]) >= 2),
        overlapped_theorem=_theorem_reference(blocks, order),
    )
