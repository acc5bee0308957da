"""Coverings, neighborhoods and neighborhood systems (Sec. 3 of the neighborhood-system paper).

U is a finite set and a covering C = (C_1, ..., C_m) is a sequence of
non-empty subsets of U whose union is U (a partition when the blocks are also
pairwise disjoint). The order of the blocks gives their subscripts, which are
1-based as in the paper.

- neighborhood ``N(p) = ∩ {K in C : p in K}`` (Definition 2);
- neighborhood system ``NS(p) = {K in C : p in K}`` and its subscript set
  ``Q_NS(p)`` (Definition 3);
- derived covering ``cov(C) = {N(p) : p in U}`` (Definition 4);
- overlapped elements: those lying in two or more blocks. The paper's
  Theorem builds them as the union of the ``Y in cov(C)`` that are a *proper*
  subset of some block; that construction misses the elements of two equal
  blocks, so :func:`overlapped_elements` counts blocks and
  :func:`overlapped_elements_theorem` exposes the Theorem for comparison.

Representations. A covering is a list / tuple of Python sets (any hashable
elements), or a 0/1 indicator matrix with one row per element and one column
per block (scikit-learn's multilabel format: column i is the sample set P_i of
label i). The converters at the end of this module move between block sets
(the paper's P_i), per-element label sets (its Table 1) and indicator matrices.

Sets returned by this module are :class:`ElementSet` objects: frozensets
that print their elements sorted, so notebook output is reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _validate as v
from . import _set_checks as sc
from ._sets import ElementSet, ordered

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


def _family(covering, name, universe=None):
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
    return _matrix_family(sc.indicator_matrix(covering, name), name, universe)


def _matrix_family(Y, name, universe=None):
    """:func:`_family` of a validated boolean indicator matrix."""
    if universe is None:
        order = tuple(range(Y.shape[0]))
    else:
        order = sc.universe_elements(universe)
        v.same_number("elements (one row per element)", universe=len(order), **{name: Y.shape[0]})
    names = np.empty(len(order), dtype=object)
    names[:] = order
    blocks = tuple(frozenset(names[Y[:, j]].tolist()) for j in range(Y.shape[1]))
    return blocks, frozenset(order), order


def _covering(covering, name, universe=None):
    """Like :func:`_family`, then check that the blocks cover the universe."""
    blocks, U, order = _family(covering, name, universe)
    sc.covering_of(blocks, U, name)
    return blocks, U, order


def _subscripts(blocks, p):
    return ElementSet(i for i, block in enumerate(blocks, start=1) if p in block)


def _neighborhood(blocks, p):
    system = [block for block in blocks if p in block]
    if not system:
        return None
    return ElementSet(frozenset.intersection(*system))


def neighborhood(covering, p, *, universe=None):
    """The neighborhood ``N(p) = ∩ {K in C : p in K}`` (Definition 2).

    Parameters
    ----------
    covering : sequence of sets, or 0/1 indicator matrix (elements x blocks)
    p : element of the universe
    universe : collection, optional
        U; defaults to the union of the blocks.

    Returns
    -------
    ElementSet or None
        ``None`` when ``p`` lies in no block: its neighborhood system is
        empty, so p has no neighborhood (Definition 1.2). This can only
        happen when ``universe`` is given and the family does not cover it.

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
    blocks, U, _ = _family(covering, "covering", universe)
    sc.nonempty_blocks(blocks, "covering")
    sc.element_of(p, U)
    return _neighborhood(blocks, p)


def neighborhood_system(covering, p, *, universe=None):
    """The neighborhood system ``NS(p) = {K in C : p in K}`` (Definition 3).

    Returns the blocks that contain ``p``, in subscript order, as a tuple of
    :class:`ElementSet`. Two equal blocks both appear (their subscripts
    differ). An element in no block has the empty system ``()``.

    Examples
    --------
    >>> import rejlab as rl
    >>> C = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}]
    >>> rl.neighborhood_system(C, "d")
    ({'b', 'c', 'd'}, {'a', 'd', 'g'})
    >>> rl.neighborhood_system(C, "h", universe=set("abcdefgh"))
    ()
    """
    blocks, U, _ = _family(covering, "covering", universe)
    sc.nonempty_blocks(blocks, "covering")
    sc.element_of(p, U)
    return tuple(ElementSet(block) for block in blocks if p in block)


def subscripts(covering, p, *, universe=None):
    """The subscript set ``Q_NS(p)`` of the blocks containing ``p`` (1-based, Definition 3).

    Seen from the element, this is its label set: the labels i with p in P_i.

    Examples
    --------
    The paper's example of Definition 3:

    >>> import rejlab as rl
    >>> C = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}]
    >>> rl.subscripts(C, "a"), rl.subscripts(C, "c"), rl.subscripts(C, "d")
    ({2, 3}, {1}, {1, 3})
    """
    blocks, U, _ = _family(covering, "covering", universe)
    sc.nonempty_blocks(blocks, "covering")
    sc.element_of(p, U)
    return _subscripts(blocks, p)


def derived_covering(covering, *, universe=None):
    """The derived covering ``cov(C) = {N(p) : p in U}`` (Definition 4).

    Returns a tuple of distinct :class:`ElementSet` (it is a set: equal
    neighborhoods merge), ordered by the first element p, in universe order,
    whose neighborhood it is.

    Examples
    --------
    >>> import rejlab as rl
    >>> C = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}]
    >>> rl.derived_covering(C)
    ({'a'}, {'b', 'c', 'd'}, {'d'}, {'a', 'e', 'f'}, {'a', 'd', 'g'})
    """
    blocks, _, order = _covering(covering, "covering", universe)
    seen = {}
    for p in order:
        seen.setdefault(_neighborhood(blocks, p), None)
    return tuple(seen)


def _counts(blocks, order):
    return {p: sum(p in block for block in blocks) for p in order}


def overlapped_elements(covering, *, universe=None):
    """The overlapped elements: those lying in two or more blocks of the covering.

    This counts blocks by subscript, so the elements of two equal blocks are
    overlapped (the paper's Theorem misses them: see
    :func:`overlapped_elements_theorem`). For an ideal result P this is the
    set ``D_P`` of Section 4.

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.overlapped_elements([{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}])
    {'a', 'd'}
    >>> rl.overlapped_elements([{"a", "b"}, {"a", "b"}, {"c"}])
    {'a', 'b'}
    """
    blocks, _, order = _covering(covering, "covering", universe)
    counts = _counts(blocks, order)
    return ElementSet(p for p in order if counts[p] >= 2)


def overlapped_elements_theorem(covering, *, universe=None):
    """The paper's Theorem: ``D = ∪ {Y in cov(C) : Y is a proper subset of some K in C}``.

    With "subset or equal" the union would be all of U (every N(p) lies in a
    block), so the inclusion must be proper. The construction always returns
    overlapped elements, and returns all of them when the blocks are
    pairwise distinct as sets. It fails when two blocks are equal: their
    elements lie in two blocks, yet N(p) equals the block, which is no proper
    subset of anything.

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.overlapped_elements_theorem([{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}])
    {'a', 'd'}
    >>> rl.overlapped_elements_theorem([{"a", "b"}, {"a", "b"}, {"c"}])
    set()
    """
    blocks, _, order = _covering(covering, "covering", universe)
    found = set()
    for p in order:
        Y = _neighborhood(blocks, p)
        if any(Y < K for K in blocks):
            found |= Y
    return ElementSet(found)


def covering_kind(family, *, universe=None):
    """Detect what a family of sets is on U: "partition", "covering" or "not a covering".

    A partition is a covering with pairwise disjoint blocks. "not a covering"
    means an empty block or an element of ``universe`` in no block; this
    function reports it instead of raising (blocks that are not sets of U's
    elements still raise ``ValueError``).

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
    return _kind(*_family(family, "family", universe)[:2])


def _kind(blocks, U):
    if any(not block for block in blocks) or U.difference(*blocks):
        return "not a covering"
    if sum(len(block) for block in blocks) == len(U):
        return "partition"
    return "covering"


def is_covering(family, *, universe=None):
    """True when the blocks are non-empty and their union is U (partitions included)."""
    return covering_kind(family, universe=universe) != "not a covering"


def is_partition(family, *, universe=None):
    """True when the family is a covering of U with pairwise disjoint blocks.

    >>> import rejlab as rl
    >>> rl.is_partition([{"b", "c", "d"}, {"e", "f"}, {"a", "g"}])
    True
    """
    return covering_kind(family, universe=universe) == "partition"


@dataclass(frozen=True)
class CoveringSummary:
    """Everything Section 3 defines, for one family of sets on U.

    Built by :func:`covering_summary`, which never raises for a family that
    fails to be a covering: ``kind`` says so and ``uncovered`` / ``empty_blocks``
    say why (elements in no block have ``NS(p) = ()`` and ``N[p] = None``).

    Attributes
    ----------
    universe : tuple
        U in display order.
    blocks : tuple of ElementSet
        C_1..C_m (subscript i is ``blocks[i - 1]``).
    kind : str
        "partition", "covering" or "not a covering".
    uncovered : ElementSet
        Elements of U in no block (empty neighborhood system).
    empty_blocks : tuple of int
        1-based subscripts of empty blocks.
    N, NS, Q : dict
        ``N[p]`` (None when NS(p) is empty), ``NS[p]`` (tuple of blocks) and
        ``Q[p]`` (subscripts) for every p in U.
    count : dict
        ``count[p] = |Q_NS(p)|``, the number of blocks holding p.
    derived : tuple of ElementSet
        cov(C), the distinct neighborhoods.
    overlapped : ElementSet
        Elements in two or more blocks.
    overlapped_theorem : ElementSet
        The Theorem's construction (see :func:`overlapped_elements_theorem`).
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


def covering_summary(family, *, universe=None):
    """Neighborhoods, systems, subscripts, derived covering and overlaps, all at once.

    Unlike the single-purpose functions, this one reports a family that is
    not a covering (empty block, element of ``universe`` in no block) in its
    ``kind``, ``uncovered`` and ``empty_blocks`` fields instead of raising, so
    an explorer can show what is wrong.

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
    blocks, U, order = _family(family, "family", universe)
    N = {p: _neighborhood(blocks, p) for p in order}
    NS = {p: tuple(ElementSet(b) for b in blocks if p in b) for p in order}
    Q = {p: _subscripts(blocks, p) for p in order}
    count = {p: len(Q[p]) for p in order}
    derived = tuple(dict.fromkeys(y for y in N.values() if y is not None))
    theorem = set()
    for Y in derived:
        if any(Y < K for K in blocks):
            theorem |= Y
    return CoveringSummary(
        universe=order,
        blocks=tuple(ElementSet(b) for b in blocks),
        kind=_kind(blocks, U),
        uncovered=ElementSet(p for p in order if count[p] == 0),
        empty_blocks=tuple(i for i, b in enumerate(blocks, start=1) if not b),
        N=N, NS=NS, Q=Q, count=count, derived=derived,
        overlapped=ElementSet(p for p in order if count[p] >= 2),
        overlapped_theorem=ElementSet(theorem),
    )


# --- converters between the three representations ---------------------------


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
    if not sc.is_set_family(blocks):
        Y = sc.indicator_matrix(blocks, "blocks")
        _matrix_family(Y, "blocks", universe)  # a universe must name its rows
        return Y.astype(np.uint8)
    family, _, order = _family(blocks, "blocks", universe)
    index = {p: r for r, p in enumerate(order)}
    Y = np.zeros((len(order), len(family)), dtype=np.uint8)
    for j, block in enumerate(family):
        Y[[index[p] for p in block], j] = 1
    return Y


def indicator_to_blocks(Y, *, universe=None):
    """The blocks P_i (one per column) of an indicator matrix, as a tuple of ElementSet.

    ``universe`` names the rows (default 0..n-1).

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.indicator_to_blocks([[0, 1], [1, 0], [1, 1]], universe=["a", "b", "c"])
    ({'b', 'c'}, {'a', 'c'})
    """
    blocks, _, _ = _matrix_family(sc.indicator_matrix(Y, "Y"), "Y", universe)
    return tuple(ElementSet(b) for b in blocks)


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


def indicator_to_label_sets(Y, *, labels=None):
    """Per-sample label sets (one ElementSet per row) of an indicator matrix.

    ``labels`` names the columns (default 1..m, the paper's 1-based subscripts).

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.indicator_to_label_sets([[0, 1, 1], [1, 0, 0]])
    ({2, 3}, {1})
    """
    Y = sc.indicator_matrix(Y, "Y")
    names = _column_names(labels, Y.shape[1])
    return tuple(ElementSet(names[row].tolist()) for row in Y)


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
    family, _, order = _family(blocks, "blocks", universe)
    return {p: _subscripts(family, p) for p in order}


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
    return list(sc.universe_elements(labels, "labels"))


def _column_names(labels, m):
    if labels is None:
        names = list(range(1, m + 1))
    else:
        names = list(sc.universe_elements(labels, "labels"))
        v.same_number("names (one per column)", Y=m, labels=len(names))
    out = np.empty(m, dtype=object)
    out[:] = list(names)
    return out
