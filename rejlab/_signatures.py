"""Membership signatures: cov(C), the Theorem and a covering's summary without a loop per element.

The kernels behind :func:`rejlab.derived_covering`,
:func:`rejlab.overlapped_elements_theorem` and :func:`rejlab.covering_summary`
(their readable references, loops over the elements, sit beside them in
:mod:`rejlab.coverings`).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from itertools import chain
from operator import itemgetter

import numpy as np

from ._sets import ElementSet

__all__ = ["CHUNK", "Signatures", "signatures", "SupersetSearch", "collector_paused",
           "neighborhoods", "in_two_different_blocks", "elements_of"]

# --- membership signatures: cov(C), the Theorem and the summary without a loop per element ----
#
# The signature of p is its subscript set Q(p) = Q_NS(p). N(p) depends on p only through it:
# q lies in every block holding p iff Q(q) ⊇ Q(p), so N(p) = {q : Q(q) ⊇ Q(p)}. And distinct
# signatures give distinct neighborhoods: if N(p) = N(q), then p in N(q) and q in N(p), so
# Q(p) ⊇ Q(q) ⊇ Q(p). So cov(C) has exactly one set per distinct signature, and computing it
# means grouping the elements by signature and finding, among the D distinct signatures, the
# ones that include each signature (a set-containment join: SupersetSearch).

CHUNK = 1 << 20  # items per vectorized pass: bounds the temporaries (not the result)
_SPLIT_COST = 256   # a target entry found for a child costs about this many tested pairs
_SPLIT_GAIN = 0.75  # keep a split only if the children's pairs are at most this share
_TABLE = 1 << 11  # a node with this many pairs or more is tested as one table
_PACK_WORDS = 4   # test inclusions on bit rows when they take <= this many words per membership


class Signatures:
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
    """Consecutive ranges (lo, hi) covering all indices: each weighs <= CHUNK, or is one item."""
    cap = CHUNK  # read at call time (the tests shrink it to reach every path)
    cum = np.cumsum(weight)
    out, lo = [], 0
    while lo < len(cum):
        base = cum[lo - 1] if lo else 0
        hi = max(int(np.searchsorted(cum, base + cap, side="right")), lo + 1)
        out.append((lo, hi))
        lo = hi
    return out


def signatures(blocks, order):
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
    return Signatures(of, ptr, bits, start.astype(np.intp), members)


class SupersetSearch:
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
    ``CHUNK`` items (or one node), and finding the children of a node costs at most the
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
        step = max(1, CHUNK // outside.size)
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
def collector_paused():
    """Pause Python's cycle collector while many small sets are built (none can be in a
    cycle): otherwise it rescans the growing result again and again, about doubling the time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def neighborhoods(sig, order):
    """N for each distinct signature s, as a list of ElementSet: the elements of every t ⊇ s.

    Time and memory O(|cov(C)|) after the search (temporaries in chunks of ``CHUNK``).
    """
    q, t = SupersetSearch(sig).run()
    by_q = np.argsort(q, kind="stable")
    q, t = q[by_q], t[by_q]
    size = np.diff(sig.start)[t]
    per_q = np.bincount(q, weights=size, minlength=sig.D).astype(np.intp)
    pair_start = np.concatenate(([0], np.cumsum(np.bincount(q, minlength=sig.D))))
    names = np.fromiter(order, dtype=object, count=len(order))
    out = []
    with collector_paused():
        for lo, hi in _groups(per_q):
            a, b = pair_start[lo], pair_start[hi]
            objs = names[sig.members[_ranges(sig.start[t[a:b]], size[a:b])]].tolist()
            cut = np.concatenate(([0], np.cumsum(per_q[lo:hi]))).tolist()
            out.extend(ElementSet(objs[x:y]) for x, y in zip(cut[:-1], cut[1:]))
    return out


def in_two_different_blocks(blocks, sig):
    """Per signature (plus False for -1, no block): do two of its blocks differ as sets?"""
    number = {}
    kind = np.fromiter((number.setdefault(b, len(number)) for b in blocks), dtype=np.intp,
                       count=len(blocks))
    if not sig.D:
        return np.zeros(1, dtype=bool)
    label = kind[sig.bits]
    lo, hi = (f.reduceat(label, sig.ptr[:-1]) for f in (np.minimum, np.maximum))
    return np.append(lo != hi, False)


def elements_of(order, mask):
    """ElementSet of the elements of ``order`` where ``mask`` (one bool per element) is True."""
    return ElementSet(p for p, keep in zip(order, mask.tolist()) if keep)
