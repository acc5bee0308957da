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

import gc
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain
from operator import itemgetter

import numpy as np

from . import _set_checks as sc, _validate as v
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


# --- membership signatures: cov(C), the Theorem and the summary without a loop per element ----
#
# The signature of p is its subscript set Q(p) = Q_NS(p). N(p) depends on p only through it:
# q lies in every block holding p iff Q(q) ⊇ Q(p), so N(p) = {q : Q(q) ⊇ Q(p)}. And distinct
# signatures give distinct neighborhoods: if N(p) = N(q), then p in N(q) and q in N(p), so
# Q(p) ⊇ Q(q) ⊇ Q(p). So cov(C) has exactly one set per distinct signature, and computing it
# means grouping the elements by signature and finding, among the D distinct signatures, the
# ones that include each signature (a set-containment join: _SupersetSearch).

_CHUNK = 1 << 20  # items per vectorized pass: bounds the temporaries (not the result)
_SPLIT_COST = 256   # a target entry found for a child costs about this many tested pairs
_SPLIT_GAIN = 0.75  # keep a split only if the children's pairs are at most this share
_TABLE = 1 << 11  # a node with this many pairs or more is tested as one table
_PACK_WORDS = 4   # test inclusions on bit rows when they take <= this many words per membership


class _Signatures:
    """The elements grouped by signature, in compressed-row form (0-based blocks and elements).

    ``of[r]`` is the signature number of element r of the universe order (-1 for an element in
    no block); signatures are numbered 0..D-1 by their first element. Signature s holds blocks
    ``bits[ptr[s]:ptr[s + 1]]`` (ascending) and elements ``members[start[s]:start[s + 1]]`` (in
    universe order).
    """

    __slots__ = ("of", "ptr", "bits", "start", "members")

    def __init__(self, of, ptr, bits, start, members):
        self.of, self.ptr, self.bits, self.start, self.members = of, ptr, bits, start, members

    @property
    def D(self):
        return len(self.ptr) - 1


def _ranges(starts, lengths):
    """The concatenation of ``arange(s, s + l)`` over the pairs (s, l), as one intp array."""
    ends = np.cumsum(lengths, dtype=np.intp)
    total = int(ends[-1]) if len(ends) else 0
    return np.arange(total, dtype=np.intp) + np.repeat(starts - (ends - lengths), lengths)


def _groups(weight):
    """Consecutive ranges (lo, hi) covering all indices: each weighs <= _CHUNK, or is one item."""
    cap = _CHUNK  # read at call time (the tests shrink it to reach every path)
    cum = np.cumsum(weight)
    out, lo = [], 0
    while lo < len(cum):
        base = cum[lo - 1] if lo else 0
        hi = max(int(np.searchsorted(cum, base + cap, side="right")), lo + 1)
        out.append((lo, hi))
        lo = hi
    return out


def _signatures(blocks, order):
    """Group the elements of ``order`` by the set of blocks holding them, in O(S log S), S = Σ|K|.

    Each element's block list becomes a bytes key; a dict numbers the distinct keys in order
    of first appearance, so equal signatures are found exactly, in memory O(S + n).
    """
    n = len(order)
    index = {p: r for r, p in enumerate(order)}
    sizes = np.fromiter(map(len, blocks), dtype=np.intp, count=len(blocks))
    rows = np.fromiter(chain.from_iterable(itemgetter(*b)(index) if len(b) > 1 else
                                           [index[p] for p in b] for b in blocks),
                       dtype=np.intp, count=int(sizes.sum()))  # itemgetter: one C call a block
    cols = np.repeat(np.arange(len(blocks), dtype=np.intp), sizes)
    by_row = np.argsort(rows, kind="stable")  # blocks stay ascending within an element
    cols = cols[by_row]
    count = np.bincount(rows, minlength=n)
    bounds = np.concatenate(([0], np.cumsum(count)))
    raw, w = cols.astype(np.int64).tobytes(), 8
    number = {b"": -1}  # the empty signature (an element in no block) is -1
    at = bounds.tolist()
    of = np.array([number.setdefault(raw[w * a:w * b], len(number) - 1)
                   for a, b in zip(at[:-1], at[1:])], dtype=np.intp).reshape(n)
    covered = np.flatnonzero(of >= 0)
    first = covered[np.unique(of[covered], return_index=True)[1]]
    ptr = np.concatenate(([0], np.cumsum(count[first]))).astype(np.intp)
    bits = cols[_ranges(bounds[first], count[first])]
    members = np.argsort(of, kind="stable")[n - len(covered):]
    start = np.concatenate(([0], np.cumsum(np.bincount(of[covered], minlength=len(first)))))
    return _Signatures(of, ptr, bits, start.astype(np.intp), members)


class _SupersetSearch:
    """All pairs (q, t) of distinct signatures with t ⊇ q, q itself included.

    A set-enumeration tree over the blocks, taken rarest first: a node is a prefix P (the
    first blocks of some signatures, in that order) with its queries (the signatures that
    start with P) and its targets T(P) = {t : t ⊇ P}. A query equal to P is answered by T(P).
    The others are either *tested* against every target (t ⊇ q iff q has no block outside
    t: one AND per 64 blocks on bit rows, a whole query x target table at once for a big
    node; one sorted look-up per block when bit rows would not fit in linear memory), or
    the node is *split*: each query moves to the child P + (its next block), whose
    targets are those of T(P) holding that block, found by listing each target's later
    blocks or by checking each child's block in each target, whichever is cheaper.

    Cost. A node with q queries and t targets costs q·t word operations (times ⌈m/64⌉) to
    test. It is split only when finding its children costs at most 1/``_SPLIT_COST`` of
    that, and the split is kept only when the children's pairs sum to at most
    ``_SPLIT_GAIN`` = 3/4 of its own (else the node is tested). So the pairs shrink
    geometrically down every path: the depth is O(log D) and the work O(D²·⌈m/64⌉) at
    worst (D distinct signatures, m blocks; the worst case is a root that no split pays
    for). On the usual coverings it is far less: a rare block cuts the targets at once.
    The nodes of one level are handled together, in vectorized passes of at most
    ``_CHUNK`` items (or one node), and finding the children of a node costs at most the
    sizes of its targets' signatures, so the memory stays O(S) per level.
    """

    def __init__(self, sig):
        D, bits = sig.D, sig.bits
        length = np.diff(sig.ptr)
        freq = np.bincount(bits)
        present = np.flatnonzero(freq)
        rank = np.zeros(len(freq), dtype=np.intp)
        rank[present[np.argsort(freq[present], kind="stable")]] = np.arange(len(present))
        row = np.repeat(np.arange(D, dtype=np.intp), length)
        relabeled = rank[bits]
        self.bits = relabeled[np.lexsort((relabeled, row))]  # rarest block first in each row
        self.ptr, self.length, self.nbits, self.D = sig.ptr, length, max(len(present), 1), D
        n_words = (self.nbits + 63) // 64
        self.words = self.before = self.keys = None
        if D * n_words <= _PACK_WORDS * (len(bits) + D):
            flat = np.zeros(D * n_words, dtype=np.uint64)
            np.bitwise_or.at(flat, row * n_words + (self.bits >> 6),
                             np.left_shift(np.uint64(1), (self.bits & 63).astype(np.uint64)))
            self.words = flat if n_words == 1 else flat.reshape(D, n_words)
            if n_words > 1:  # blocks of a row held in its earlier words
                counts = np.bitwise_count(self.words).astype(np.intp)
                self.before = np.cumsum(counts, axis=1) - counts
        else:
            self.keys = row.astype(np.int64) * self.nbits + self.bits  # ascending
        self.found = []

    def run(self):
        """(q, t) arrays of all the pairs with t ⊇ q."""
        D = self.D
        if D:
            every = np.arange(D, dtype=np.intp)
            root = np.zeros(D, dtype=np.intp)
            start = np.full(D, -1, dtype=np.intp)  # no block of the empty prefix yet
            self._visit(0, 1, root, every, start, root.copy(), every.copy())
        if not self.found:
            return np.zeros(0, np.intp), np.zeros(0, np.intp)
        q, t = (np.concatenate(side) for side in zip(*self.found))
        return q, t

    def _visit(self, level, k, tn, tt, tp, qn, qq):
        """Nodes 0..k-1 of one level: targets (node tn, signature tt, position tp in tt of the
        prefix's last block) and queries (node qn, signature qq), both sorted by node."""
        length, nb = self.length, self.nbits
        nt = np.bincount(tn, minlength=k)
        tstart = np.concatenate(([0], np.cumsum(nt)))
        done = length[qq] == level
        if done.any():  # a query equal to its prefix P: its supersets are T(P)
            fq, fn = qq[done], qn[done]
            self.found.append((np.repeat(fq, nt[fn]), tt[_ranges(tstart[fn], nt[fn])]))
            qq, qn = qq[~done], qn[~done]
            if not len(qq):
                return
        nq = np.bincount(qn, minlength=k)
        qstart = np.concatenate(([0], np.cumsum(nq)))
        child_key, q_child = np.unique(qn.astype(np.int64) * nb + self.bits[self.ptr[qq] + level],
                                       return_inverse=True)
        n_child = np.bincount(child_key // nb, minlength=k)
        cstart = np.concatenate(([0], np.cumsum(n_child)))
        pairs = nq.astype(np.int64) * nt
        listing = np.bincount(tn, weights=length[tt] - tp - 1, minlength=k)
        checking = nt * n_child if self.words is not None else np.full(k, np.inf)
        cost = np.minimum(listing, checking)
        split = (nq > 0) & (_SPLIT_COST * cost <= pairs)
        test = (nq > 0) & ~split
        for lo, hi in _groups(np.where(split, cost, 0)):
            if split[lo:hi].any():
                test[lo:hi] |= self._split(
                    level, lo, hi, split & (listing <= checking), split & (listing > checking),
                    pairs, (tn, tt, tp, nt, tstart), (qq, q_child.reshape(-1), qstart),
                    child_key, cstart)
        if self.words is not None:  # big nodes: one query x target table each, no index pairs
            for i in np.flatnonzero(test & (pairs >= _TABLE)).tolist():
                self._table(tt[tstart[i]:tstart[i + 1]], qq[qstart[i]:qstart[i + 1]])
            test &= pairs < _TABLE
        if test.any():
            chosen = test[qn]
            bq, bn = qq[chosen], qn[chosen]
            cost = nt[bn] * ((length[bq] - level) if self.words is None else 1)
            for lo, hi in _groups(cost):
                cnt = nt[bn[lo:hi]]
                q = np.repeat(bq[lo:hi], cnt)
                t = tt[_ranges(tstart[bn[lo:hi]], cnt)]
                ok = self._includes(t, q, level)
                self.found.append((q[ok], t[ok]))

    def _split(self, level, lo, hi, by_listing, by_checking, pairs, targets, queries, child_key,
               cstart):
        """Split the chosen nodes among lo..hi-1 and visit their children; return the nodes
        (a mask over lo..hi-1) whose split did not pay and that must be tested instead."""
        nb, bits, ptr = self.nbits, self.bits, self.ptr
        tn, tt, tp, nt, tstart = targets
        qq, q_child, qstart = queries
        keys = child_key[cstart[lo]:cstart[hi]]  # the children of nodes lo..hi-1, sorted
        parent = keys // nb
        # children found by listing the later blocks of each target
        ts = slice(tstart[lo], tstart[hi])
        keep = by_listing[tn[ts]]
        etn, ett, etp = tn[ts][keep], tt[ts][keep], tp[ts][keep]
        later = self.length[ett] - etp - 1
        source = np.repeat(np.arange(len(ett), dtype=np.intp), later)
        at = _ranges(ptr[ett] + etp + 1, later)
        key = etn[source].astype(np.int64) * nb + bits[at]
        slot = np.minimum(np.searchsorted(keys, key), len(keys) - 1)
        hit = keys[slot] == key
        c_tn, c_tt, c_tp = [slot[hit]], [ett[source[hit]]], [at[hit] - ptr[ett[source[hit]]]]
        # children found by checking their block in each target of the parent
        checked = np.flatnonzero(by_checking[parent])
        if len(checked):
            cnt = nt[parent[checked]]
            child = np.repeat(checked, cnt)
            t = tt[_ranges(tstart[parent[checked]], cnt)]
            has, pos = self._block_at(t, keys[child] % nb)
            c_tn.append(child[has])
            c_tt.append(t[has])
            c_tp.append(pos[has])
        c_tn, c_tt, c_tp = (np.concatenate(a) for a in (c_tn, c_tt, c_tp))
        qs = slice(qstart[lo], qstart[hi])
        gq, gc = qq[qs], q_child[qs] - cstart[lo]
        n_c = len(keys)
        after = np.bincount(parent - lo, minlength=hi - lo,
                            weights=np.bincount(c_tn, minlength=n_c)
                            * np.bincount(gc, minlength=n_c).astype(np.float64))
        split = by_listing[lo:hi] | by_checking[lo:hi]
        pays = split & (after <= _SPLIT_GAIN * pairs[lo:hi])
        kept = pays[parent - lo]
        if kept.any():
            renumber = np.cumsum(kept) - 1
            e = kept[c_tn]
            c_tn, c_tt, c_tp = renumber[c_tn[e]], c_tt[e], c_tp[e]
            e = kept[gc]
            c_qn, c_qq = renumber[gc[e]], gq[e]
            by_t, by_q = np.argsort(c_tn, kind="stable"), np.argsort(c_qn, kind="stable")
            self._visit(level + 1, int(renumber[-1]) + 1, c_tn[by_t], c_tt[by_t], c_tp[by_t],
                        c_qn[by_q], c_qq[by_q])
        return split & ~pays

    def _block_at(self, t, block):
        """Whether each target t holds ``block`` (relabeled), and its position in t's row."""
        word, shift = block >> 6, (block & 63).astype(np.uint64)
        w = self.words[t] if self.before is None else self.words[t, word]
        has = ((w >> shift) & np.uint64(1)).astype(bool)
        pos = np.bitwise_count(w & ((np.uint64(1) << shift) - np.uint64(1))).astype(np.intp)
        if self.before is not None:
            pos += self.before[t, word]
        return has, pos

    def _table(self, targets, queries):
        """Test every query of one node against every target, a table of queries at a time."""
        outside = ~self.words[targets]  # t ⊇ q iff q has no block outside t
        step = max(1, _CHUNK // outside.size)
        for a in range(0, len(queries), step):
            wq = self.words[queries[a:a + step]]
            if outside.ndim == 1:
                inside = (wq[:, None] & outside[None, :]) == 0
            else:
                inside = ((wq[:, None, :] & outside[None, :, :]) == 0).all(axis=2)
            qi, ti = np.divmod(np.flatnonzero(inside), len(targets))  # 1-D: far faster
            self.found.append((queries[a:a + step][qi], targets[ti]))

    def _includes(self, t, q, level):
        """Mask of the pairs with t ⊇ q (both already share q's first ``level`` blocks)."""
        if self.words is not None:
            wq = self.words[q]
            inside = (self.words[t] & wq) == wq
            return inside if inside.ndim == 1 else inside.all(axis=1)
        rest = self.length[q] - level
        pair = np.repeat(np.arange(len(q), dtype=np.intp), rest)
        key = t[pair].astype(np.int64) * self.nbits + self.bits[_ranges(self.ptr[q] + level, rest)]
        slot = np.minimum(np.searchsorted(self.keys, key), len(self.keys) - 1)
        missing = self.keys[slot] != key
        return np.bincount(pair[missing], minlength=len(q)) == 0


@contextmanager
def _collector_paused():
    """Pause Python's cycle collector while many small sets are built (none can be in a
    cycle): otherwise it rescans the growing result again and again, about doubling the time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _neighborhoods(sig, order):
    """N for each distinct signature s, as a list of ElementSet: the elements of every t ⊇ s.

    Time and memory O(|cov(C)|) after the search (temporaries in chunks of ``_CHUNK``).
    """
    q, t = _SupersetSearch(sig).run()
    by_q = np.argsort(q, kind="stable")
    q, t = q[by_q], t[by_q]
    size = np.diff(sig.start)[t]
    per_q = np.bincount(q, weights=size, minlength=sig.D).astype(np.intp)
    pair_start = np.concatenate(([0], np.cumsum(np.bincount(q, minlength=sig.D))))
    names = np.fromiter(order, dtype=object, count=len(order))
    out = []
    with _collector_paused():
        for lo, hi in _groups(per_q):
            a, b = pair_start[lo], pair_start[hi]
            objs = names[sig.members[_ranges(sig.start[t[a:b]], size[a:b])]].tolist()
            cut = np.concatenate(([0], np.cumsum(per_q[lo:hi]))).tolist()
            out.extend(ElementSet(objs[x:y]) for x, y in zip(cut[:-1], cut[1:]))
    return out


def _in_two_different_blocks(blocks, sig):
    """Per signature (plus False for -1, no block): do two of its blocks differ as sets?"""
    number = {}
    kind = np.fromiter((number.setdefault(b, len(number)) for b in blocks), dtype=np.intp,
                       count=len(blocks))
    if not sig.D:
        return np.zeros(1, dtype=bool)
    label = kind[sig.bits]
    lo, hi = (f.reduceat(label, sig.ptr[:-1]) for f in (np.minimum, np.maximum))
    return np.append(lo != hi, False)


def _elements(order, mask):
    """ElementSet of the elements of ``order`` where ``mask`` (one bool per element) is True."""
    return ElementSet(p for p, keep in zip(order, mask.tolist()) if keep)


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

    Computed by membership signature: with ``Q(p) = Q_NS(p)``,
    ``N(p) = {q in U : Q(q) ⊇ Q(p)}``, and two elements have the same
    neighborhood iff they have the same signature (if N(p) = N(q), then
    p in N(q) and q in N(p), so Q(p) ⊇ Q(q) ⊇ Q(p)). So cov(C) holds one set
    per distinct signature: group the elements by signature (O(S log S) for a
    covering of size ``S = Σ|K|``), find among the D distinct signatures those
    that include each one (:class:`_SupersetSearch`: near-linear on the usual
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
    blocks, _, order = _covering(covering, "covering", universe)
    return tuple(_neighborhoods(_signatures(blocks, order), order))


def _derived_covering_reference(blocks, order):
    """cov(C) by Definition 4 word for word: N(p) for each p of ``order``, duplicates merged.

    The readable reference of :func:`derived_covering` (O(n·S) for a
    covering of size S). Elements in no block (no neighborhood) are skipped.
    """
    seen = {}
    for p in order:
        Y = _neighborhood(blocks, p)
        if Y is not None:
            seen.setdefault(Y, None)
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
    blocks, _, order = _covering(covering, "covering", universe)
    sig = _signatures(blocks, order)
    return _elements(order, _in_two_different_blocks(blocks, sig)[sig.of])


def _theorem_reference(blocks, order):
    """The Theorem's union built literally from cov(C): the reference of the fast version."""
    found = set()
    for Y in _derived_covering_reference(blocks, order):
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
    blocks, U, order = _family(family, "family", universe)
    sig = _signatures(blocks, order)
    shown = tuple(ElementSet(b) for b in blocks)
    derived = tuple(_neighborhoods(sig, order))
    sizes = np.diff(sig.ptr).tolist()
    cut = sig.ptr.tolist()
    subscripts, held = (sig.bits + 1).tolist(), sig.bits.tolist()
    with _collector_paused():
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
        uncovered=_elements(order, sig.of < 0),
        empty_blocks=tuple(i for i, b in enumerate(blocks, start=1) if not b),
        N=per_element(N_of), NS=per_element(NS_of), Q=per_element(Q_of),
        count=per_element(count_of),
        derived=derived,
        overlapped=_elements(order, count >= 2),
        overlapped_theorem=_elements(order, _in_two_different_blocks(blocks, sig)[sig.of]),
    )


def _covering_summary_reference(family, *, universe=None):
    """:func:`covering_summary` element by element (the readable reference, O(n·S))."""
    blocks, U, order = _family(family, "family", universe)
    N = {p: _neighborhood(blocks, p) for p in order}
    NS = {p: tuple(ElementSet(b) for b in blocks if p in b) for p in order}
    Q = {p: _subscripts(blocks, p) for p in order}
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
