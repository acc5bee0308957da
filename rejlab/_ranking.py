"""The one ranking behind every curve: counts along the default rejection order.

The curves, the risk-coverage family and the bootstrap start from :func:`ranked`
(or :func:`order`), so the tie policy (confidence ascending, then sample index)
lives in one place; confidences are ranked exactly in their own dtype.
"""

from __future__ import annotations

import numpy as np

__all__ = ["CHUNK", "order", "ranked", "ranked_reference", "kth_smallest"]


def order(confidence):
    """The default rejection order as a permutation: a stable argsort in the confidences' own dtype."""
    return np.argsort(confidence, kind="stable")


def ranked_reference(accurate, confidence, *, breaks=False):
    """What :func:`ranked` computes, written the obvious way: a stable argsort, then a cumsum.

    ``ar[k]`` (int64) is |A∩R| after rejecting the k first samples; ``keep`` (with
    ``breaks=True``) marks the points a threshold can reach.
    """
    by_rank = order(confidence)
    ar = np.zeros(accurate.size + 1, dtype=np.int64)
    np.cumsum(accurate[by_rank], out=ar[1:])
    if not breaks:
        return ar, None
    keep = np.ones(accurate.size + 1, dtype=bool)
    ranked_confidence = confidence[by_rank]
    keep[1:-1] = ranked_confidence[1:] != ranked_confidence[:-1]
    return ar, keep


def ranked(accurate, confidence, *, breaks=False, inside_ties=True):
    """:func:`ranked_reference`'s ``(ar, keep)`` (read that one first), without a stable argsort.

    ``inside_ties=False`` asks for ``ar`` exact at the breaks only, skipping the fix-up
    of mixed ties. How: one value sort (about 20 times faster than a stable argsort)
    of keys ``(order-preserving uint64 of the confidence) << 1 | accurate``, exact
    except inside a tie of accurate and misclassified samples, which the policy
    orders by index: a few are redone from their members, many by a second sort
    with the index in the key (:func:`_by_index`). Longdouble takes the reference.
    """
    n = accurate.size
    ar = np.empty(n + 1, dtype=np.int64)
    ar[0] = 0
    keep = np.empty(n + 1, dtype=bool) if breaks else None
    # the keys live in ar's own memory until they become the counts: no other
    # n-length array of 8-byte words (and no page faults for one)
    keys = ar[1:].view(np.uint64)
    ends = _key_range(confidence)
    if ends is None:
        ar[:], reference_keep = ranked_reference(accurate, confidence, breaks=breaks)
        return ar, reference_keep
    if ends[1] - ends[0] >= 2**63:
        _ranked_split(accurate, confidence, _sortable(confidence, out=keys), ar, keep, inside_ties)
    else:
        _ranked_keys(accurate, confidence, keys, ends[0], ends[1] - ends[0], ar, keep, inside_ties)
    if keep is not None:
        keep[0] = keep[n] = True
    return ar, keep


# Chunk length of the passes that would otherwise allocate n-length temporaries (page faults).
CHUNK = 1 << 18
# Chunk length of chained elementwise steps: 512 KB, so they work in cache.
_FUSED = 1 << 16
# Up to this many mixed tie groups are redone from their members; more take a second sort.
_FEW_MIXED = 8

_TOP = np.uint64(1 << 63)


def _sortable(c, out=None, negatives=None):
    """Unsigned 64-bit keys that order exactly as ``c`` does (equal iff equal), or None.

    float64: the IEEE bits of ``c + 0.0`` with the sign folded in (negatives: every bit
    flipped; others: the top bit set); int64: the top bit flipped; uint64: the values.
    Other dtypes: None. :func:`_values_of` inverts it; ``negatives`` (float64) may say
    whether ``c`` holds negative numbers.
    """
    if c.dtype == np.float64:
        u = np.add(c, 0.0, out=None if out is None else out.view(np.float64)).view(np.uint64)
        if negatives is None:
            negatives = bool(c.size and c.min() < 0)
        if negatives:
            for s in range(0, u.size, CHUNK):
                part = u[s:s + CHUNK]
                mask = part >> np.uint64(63)
                mask *= np.uint64((1 << 63) - 1)
                mask |= _TOP
                part ^= mask
        else:
            u ^= _TOP
        return u
    if c.dtype == np.int64:
        return np.bitwise_xor(c.view(np.uint64), _TOP, out=out)
    if c.dtype == np.uint64:
        if out is None:
            return c.copy()
        np.copyto(out, c)
        return out
    return None


def _values_of(keys, dtype):
    """The confidences of ``dtype`` whose :func:`_sortable` keys are ``keys``."""
    keys = np.asarray(keys, dtype=np.uint64)
    if dtype == np.float64:
        return np.where(keys >= _TOP, keys ^ _TOP, ~keys).view(np.float64)
    if dtype == np.int64:
        return (keys ^ _TOP).view(np.int64)
    return keys


def _key_range(c):
    """The :func:`_sortable` keys of the smallest and the largest confidence (ints), or None."""
    if c.dtype not in (np.float64, np.int64, np.uint64):
        return None
    ends = _sortable(np.array([c.min(), c.max()], dtype=c.dtype))
    return int(ends[0]), int(ends[1])


def _make_keys(confidence, accurate, out, lo, shift, bits, with_index=False):
    """``out = ((key - lo) >> shift) << bits | [sample index << 1] | accurate``, chunk by chunk.

    One cache-sized chunk at a time (:data:`_FUSED`): the keys go to memory once.
    """
    n = out.size
    negatives = confidence.dtype == np.float64 and lo < (1 << 63)   # keys below 2**63: negative
    lo, shift, bits = np.uint64(lo), np.uint64(shift), np.uint64(bits)
    index = np.arange(0, 2 * min(n, _FUSED), 2, dtype=np.uint64) if with_index else None
    for s in range(0, n, _FUSED):
        part = out[s:s + _FUSED]
        _sortable(confidence[s:s + _FUSED], out=part, negatives=negatives)
        part -= lo
        if shift:
            part >>= shift
        part <<= bits
        if with_index:
            part |= index[:part.size]
            index += np.uint64(2 * _FUSED)
        part |= accurate[s:s + _FUSED]
    return out


def _ranked_split(accurate, confidence, u, ar, keep, inside_ties):
    """Keys spanning 2**63 or more: rank the lower and the upper half of key space apart.

    Every lower key is below every upper one and each half keeps index order, so
    the halves' counts follow each other.
    """
    low = u < _TOP
    n_low = int(np.count_nonzero(low))
    for part, start in ((low, 0), (~low, n_low)):
        a, c = accurate[part], confidence[part]
        sub_ar, sub_keep = ranked(a, c, breaks=keep is not None, inside_ties=inside_ties)
        ar[start + 1:start + a.size + 1] = sub_ar[1:] + ar[start]
        if keep is not None:
            keep[start:start + a.size + 1] = sub_keep


def _cumsum_bits(key, ar):
    """``ar[1:] = cumsum(key & 1)``, in place: ``key`` is ``ar[1:]`` seen as uint64."""
    key &= np.uint64(1)
    counts = ar[1:]
    carry = 0
    for s in range(0, counts.size, CHUNK):
        part = counts[s:s + CHUNK]
        np.cumsum(part, out=part)
        part += carry
        carry = int(part[-1])


def _ranked_keys(accurate, confidence, key, lo, span, ar, keep, inside_ties):
    """Pass 1: one sort of (value key, accuracy bit); then the mixed ties, if asked and any.

    ``key`` is ``ar[1:]`` as uint64; ``lo``, ``span``: the smallest key and the keys' range.
    """
    n = key.size
    _make_keys(confidence, accurate, key, lo, 0, 1)
    key.sort()
    # consecutive keys differ in the value bits where the confidence changes, and
    # only in the accuracy bit (misclassified, then accurate) once per mixed group
    vchange = np.empty(n - 1, dtype=bool)
    mixed = []
    d = np.empty(min(n - 1, _FUSED), dtype=np.uint64)
    one = np.empty(d.size, dtype=bool)
    for s in range(0, n - 1, _FUSED):
        e = min(n - 1, s + _FUSED)
        np.bitwise_xor(key[s + 1:e + 1], key[s:e], out=d[:e - s])
        np.greater(d[:e - s], 1, out=vchange[s:e])
        if inside_ties:
            np.equal(d[:e - s], 1, out=one[:e - s])
            if one[:e - s].any():
                mixed.append(np.flatnonzero(one[:e - s]) + s)
    if keep is not None:
        keep[1:n] = vchange
    if not mixed:             # the keys' order is the policy's (or what is asked of it)
        _cumsum_bits(key, ar)
        return
    mixed = np.concatenate(mixed)
    if mixed.size > _FEW_MIXED:
        _by_index(accurate, confidence, key, lo, span, vchange, ar)
        return
    # a few mixed ties: [b, e) of each in sorted order, then its members' flags in index order
    value_keys = key[mixed]
    b = np.searchsorted(key, value_keys, side="left").tolist()
    e = np.searchsorted(key, value_keys | np.uint64(1), side="right").tolist()
    values = _values_of((value_keys >> np.uint64(1)) + np.uint64(lo), confidence.dtype)
    _cumsum_bits(key, ar)
    for value, start, stop in zip(values, b, e):
        members = np.flatnonzero(confidence == value)       # in index order
        ar[start + 1:stop + 1] = ar[start] + np.cumsum(accurate[members])


def _by_index(accurate, confidence, key, lo, span, vchange, ar):
    """Pass 2, for many mixed ties: sort keys (value key, sample index, accuracy bit).

    The value key is shifted right to make room for the index; distinct values that
    shift merges (``vchange`` of pass 1 inside a run) are put back in order by a
    lexsort of their few samples.
    """
    n = key.size
    bits = max(1, (n - 1).bit_length()) + 1          # sample index, then the accuracy bit
    shift = max(0, span.bit_length() - (64 - bits))
    u = _make_keys(confidence, accurate, key, lo, shift, bits, with_index=True)
    u.sort()
    if shift:
        at = np.flatnonzero(vchange)             # value changes: the next key must change run
        g = np.uint64(bits)
        same = (u[at] >> g) == (u[at + 1] >> g)
        if same.any():
            _reorder_runs(u, u[at[same]] >> g, bits, confidence)
    _cumsum_bits(u, ar)


def _reorder_runs(u, runs, bits, confidence):
    """Put the runs of merged value keys ``runs`` back in (confidence, index) order."""
    runs = np.unique(runs)
    g = np.uint64(bits)
    starts = np.searchsorted(u, runs << g, side="left")
    stops = np.searchsorted(u, (runs << g) | np.uint64((1 << bits) - 1), side="right")
    lengths = stops - starts
    pos = np.repeat(starts - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())
    entries = u[pos]
    index = ((entries >> np.uint64(1)) & np.uint64((1 << (bits - 1)) - 1)).astype(np.int64)
    label = np.repeat(np.arange(runs.size), lengths)
    u[pos] = entries[np.lexsort((index, confidence[index], label))]


#: :func:`kth_smallest` picks its pivots from a sample of about this many values, and sorts
#: arrays up to four times as long directly.
SELECT_SAMPLE = 1 << 14


def kth_smallest(values, k):
    """``np.sort(values)[k]`` (read that one as the reference), without an n-length copy.

    A regular sample of :data:`SELECT_SAMPLE` values, sorted, gives two pivots that bracket
    rank k with a margin of eight standard deviations of a sample rank; one pass in chunks
    counts the values below the pivots and keeps those between, and the k-th smallest is
    picked among these. Where the pivots miss (values arranged against the sample), the
    reference answers. At 10^7 values this keeps the report's peak 80 MB lower.
    """
    n = values.size
    if n <= 4 * SELECT_SAMPLE:
        return np.sort(values)[k]
    sample = np.sort(values[::n // SELECT_SAMPLE])
    at, margin = k * sample.size / n, 4 * sample.size ** 0.5 + 2
    # near either end, the pivot on that side is the end itself (no cut)
    lo = sample[int(at - margin)] if at - margin >= 0 else None
    hi = sample[int(at + margin)] if at + margin < sample.size else None
    below, between = 0, []
    for s in range(0, n, CHUNK):
        part = values[s:s + CHUNK]
        inside = np.ones(part.size, dtype=bool)
        if lo is not None:
            np.greater_equal(part, lo, out=inside)
            below += part.size - int(np.count_nonzero(inside))
        if hi is not None:
            inside &= part <= hi
        between.append(part[inside])
    between = np.concatenate(between)
    j = k - below
    if 0 <= j < between.size:
        return np.partition(between, j)[j]
    return np.sort(values)[k]
