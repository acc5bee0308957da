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

from . import _set_checks as sc
from ._blocks import covering_blocks, neighborhood_of, read_family, subscripts_of
from ._constraints import accepts
from ._conversions import (
    blocks_to_indicator,
    blocks_to_label_sets,
    indicator_to_blocks,
    indicator_to_label_sets,
    label_sets_to_blocks,
    label_sets_to_indicator,
)
from ._kinds import COVERING, ELEMENT, FAMILY, UNIVERSE
from ._sets import ElementSet
from ._signatures import collector_paused, elements_of, in_two_different_blocks, neighborhoods, signatures

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



@accepts(covering=COVERING, p=ELEMENT, universe=UNIVERSE)
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
    blocks, U, _ = read_family(covering, "covering", universe)
    sc.element_of(p, U)
    return neighborhood_of(blocks, p)


@accepts(covering=COVERING, p=ELEMENT, universe=UNIVERSE)
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
    blocks, U, _ = read_family(covering, "covering", universe)
    sc.element_of(p, U)
    return tuple(ElementSet(block) for block in blocks if p in block)


@accepts(covering=COVERING, p=ELEMENT, universe=UNIVERSE)
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
    blocks, U, _ = read_family(covering, "covering", universe)
    sc.element_of(p, U)
    return subscripts_of(blocks, p)


@accepts(covering=COVERING, universe=UNIVERSE)
def derived_covering(covering, *, universe=None):
    """The derived covering ``cov(C) = {N(p) : p in U}`` (Definition 4).

    Returns a tuple of distinct :class:`ElementSet` (it is a set: equal
    neighborhoods merge), ordered by the first element p, in universe order,
    whose neighborhood it is.

    Computed by membership signature: with ``Q(p) = Q_NS(p)``,
    ``N(p) = {q in U : Q(q) ⊇ Q(p)}``, and two elements have the same
    neighborhood iff they have the same signature (if N(p) = N(q), then
    p in N(q) and q in N(p), so Q(p) ⊇ Q(q) ⊇ Q(p)). So cov(C) holds one set
    per distinct signature: group the elements by signature (O(S log S) for a
    covering of size ``S = Σ|K|``), find among the D distinct signatures those
    that include each one (:class:`SupersetSearch`: near-linear on the usual
    coverings, O(D²⌈m/64⌉) word operations at worst, D ≤ min(n, 2^m)), then
    build the sets, O(|cov(C)|) with ``|cov(C)| = Σ_Y |Y|``. Memory
    O(S + |cov(C)|). No method can be O(n log n) in general, since the answer
    itself can be quadratic: with 40 blocks, half the elements in every block
    and the other half with distinct signatures, every Y holds the first half.
    :func:`_derived_covering_reference` is the readable element-by-element
    version it equals.

    Examples
    --------
    >>> import rejlab as rl
    >>> C = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}]
    >>> rl.derived_covering(C)
    ({'a'}, {'b', 'c', 'd'}, {'d'}, {'a', 'e', 'f'}, {'a', 'd', 'g'})
    """
    blocks, _, order = covering_blocks(covering, "covering", universe)
    return tuple(neighborhoods(signatures(blocks, order), order))


def _derived_covering_reference(blocks, order):
    """cov(C) by Definition 4 word for word: N(p) for each p of ``order``, duplicates merged.

    The readable reference of :func:`derived_covering` (O(n·S) for a
    covering of size S). Elements in no block (no neighborhood) are skipped.
    """
    seen = {}
    for p in order:
        Y = neighborhood_of(blocks, p)
        if Y is not None:
            seen.setdefault(Y, None)
    return tuple(seen)


def _counts(blocks, order):
    return {p: sum(p in block for block in blocks) for p in order}


@accepts(covering=COVERING, universe=UNIVERSE)
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
    blocks, _, order = covering_blocks(covering, "covering", universe)
    counts = _counts(blocks, order)
    return ElementSet(p for p in order if counts[p] >= 2)


@accepts(covering=COVERING, universe=UNIVERSE)
def overlapped_elements_theorem(covering, *, universe=None):
    """The paper's Theorem: ``D = ∪ {Y in cov(C) : Y is a proper subset of some K in C}``.

    With "subset or equal" the union would be all of U (every N(p) lies in a
    block), so the inclusion must be proper. The construction always returns
    overlapped elements, and returns all of them when the blocks are
    pairwise distinct as sets. It fails when two blocks are equal: their
    elements lie in two blocks, yet N(p) equals the block, which is no proper
    subset of anything.

    Computed without building cov(C), in time O(S log S) and memory O(S) for
    a covering of size ``S = Σ|K|``, from this characterization:
    ``q in D`` iff two blocks holding q differ as sets. *Proof.* A block K
    contains N(p) iff p in K: if p in K, K is one of the blocks intersected;
    if not, p in N(p) is missing from K. So N(p) is a proper subset of some
    block iff the blocks holding p are not all equal (if they all equal B,
    N(p) = B; if two differ, N(p) lies in their intersection, a proper subset
    of one of them). And q lies in N(p) iff every block holding p holds q.
    If two different blocks hold q, take p = q. If all blocks holding q are
    copies of B, every N(p) holding q comes from a p whose blocks all hold q,
    hence are copies of B too, so N(p) = B is no proper subset. ∎
    :func:`_theorem_reference` is the construction word for word.

    Examples
    --------
    >>> import rejlab as rl
    >>> rl.overlapped_elements_theorem([{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}])
    {'a', 'd'}
    >>> rl.overlapped_elements_theorem([{"a", "b"}, {"a", "b"}, {"c"}])
    set()
    """
    blocks, _, order = covering_blocks(covering, "covering", universe)
    sig = signatures(blocks, order)
    return elements_of(order, in_two_different_blocks(blocks, sig)[sig.of])


def _theorem_reference(blocks, order):
    """The Theorem's union built literally from cov(C): the reference of the fast version."""
    found = set()
    for Y in _derived_covering_reference(blocks, order):
        if any(Y < K for K in blocks):
            found |= Y
    return ElementSet(found)


@accepts(family=FAMILY, universe=UNIVERSE)
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
    return _kind(*read_family(family, "family", universe)[:2])


def _kind(blocks, U):
    if any(not block for block in blocks) or U.difference(*blocks):
        return "not a covering"
    if sum(len(block) for block in blocks) == len(U):
        return "partition"
    return "covering"


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


@accepts(family=FAMILY, universe=UNIVERSE)
def covering_summary(family, *, universe=None):
    """Neighborhoods, systems, subscripts, derived covering and overlaps, all at once.

    Unlike the single-purpose functions, this one reports a family that is
    not a covering (empty block, element of ``universe`` in no block) in its
    ``kind``, ``uncovered`` and ``empty_blocks`` fields instead of raising, so
    an explorer can show what is wrong.

    Elements with the same signature ``Q_NS(p)`` share their ``N``, ``NS``
    and ``Q`` values (one object each), and the blocks in ``NS`` are the ones
    in ``blocks``: memory O(S + |cov(C)|) for a family of size ``S = Σ|K|``,
    time as :func:`derived_covering` (whose cost it shares) plus O(n).
    :func:`_covering_summary_reference` is the readable element-by-element
    version it equals.

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
    blocks, U, order = read_family(family, "family", universe)
    sig = signatures(blocks, order)
    shown = tuple(ElementSet(b) for b in blocks)
    derived = tuple(neighborhoods(sig, order))
    sizes = np.diff(sig.ptr).tolist()
    cut = sig.ptr.tolist()
    subscripts, held = (sig.bits + 1).tolist(), sig.bits.tolist()
    with collector_paused():
        Q_of = [ElementSet(subscripts[a:b]) for a, b in zip(cut[:-1], cut[1:])]
        NS_of = [tuple(map(shown.__getitem__, held[a:b])) for a, b in zip(cut[:-1], cut[1:])]
    # signature -1 (an element in no block) picks the last item of each list
    N_of, Q_of, NS_of, count_of = [*derived, None], Q_of + [ElementSet()], NS_of + [()], sizes + [0]
    of = sig.of.tolist()

    def per_element(values):
        return dict(zip(order, map(values.__getitem__, of)))

    count = np.append(np.diff(sig.ptr), 0)[sig.of]
    return CoveringSummary(
        universe=order,
        blocks=shown,
        kind=_kind(blocks, U),
        uncovered=elements_of(order, sig.of < 0),
        empty_blocks=tuple(i for i, b in enumerate(blocks, start=1) if not b),
        N=per_element(N_of), NS=per_element(NS_of), Q=per_element(Q_of),
        count=per_element(count_of),
        derived=derived,
        overlapped=elements_of(order, count >= 2),
        overlapped_theorem=elements_of(order, in_two_different_blocks(blocks, sig)[sig.of]),
    )


@accepts(family=FAMILY, universe=UNIVERSE)
def _covering_summary_reference(family, *, universe=None):
    """:func:`covering_summary` element by element (the readable reference, O(n·S))."""
    blocks, U, order = read_family(family, "family", universe)
    N = {p: neighborhood_of(blocks, p) for p in order}
    NS = {p: tuple(ElementSet(b) for b in blocks if p in b) for p in order}
    Q = {p: subscripts_of(blocks, p) for p in order}
    count = {p: len(Q[p]) for p in order}
    return CoveringSummary(
        universe=order,
        blocks=tuple(ElementSet(b) for b in blocks),
        kind=_kind(blocks, U),
        uncovered=ElementSet(p for p in order if count[p] == 0),
        empty_blocks=tuple(i for i, b in enumerate(blocks, start=1) if not b),
        N=N, NS=NS, Q=Q, count=count,
        derived=_derived_covering_reference(blocks, order),
        overlapped=ElementSet(p for p in order if count[p] >= 2),
        overlapped_theorem=_theorem_reference(blocks, order),
    )
