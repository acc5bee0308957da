"""Per-sample label counts by popcounts, and AA and RAR from their totals.

The kernels that :mod:`rejlab.multilabel` (the multi-label scores) and
:mod:`rejlab.accuracy` (AA and RAR of coverings) share: both read a true
and a predicted label set per sample as the counts TP, FP and FN of two
validated boolean indicator matrices (rows = samples, columns = labels).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["SampleCounts", "packed", "sample_counts", "totals", "aa_rar"]


class SampleCounts(NamedTuple):
    """Per-sample counts of a multi-label result (int arrays of length n).

    ``tp[p] = |Q_P(p) ∩ Q_P'(p)|``, ``fp[p] = |Q_P'(p) - Q_P(p)|``,
    ``fn[p] = |Q_P(p) - Q_P'(p)|``.
    """

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray


def packed(Y):
    """Each row of a boolean (n, m) matrix as bits: (n, w) uint64 words."""
    b = np.packbits(Y, axis=1, bitorder="little")
    k = b.shape[1]
    width = -(-k // 8) * 8
    if k != width:
        padded = np.zeros((b.shape[0], width), dtype=np.uint8)
        padded[:, :k] = b
        b = padded
    return np.ascontiguousarray(b).view(np.uint64)


def sample_counts(T, R):
    """SampleCounts of two validated boolean matrices, by popcounts on packed rows."""
    t, r = packed(T), packed(R)
    if t.shape[1] == 1:
        t, r = t[:, 0], r[:, 0]
        tp = np.bitwise_count(t & r)
        fp = np.bitwise_count(r & ~t)
        fn = np.bitwise_count(t & ~r)
    else:
        tp = np.bitwise_count(t & r).sum(axis=1)
        fp = np.bitwise_count(r & ~t).sum(axis=1)
        fn = np.bitwise_count(t & ~r).sum(axis=1)
    return SampleCounts(tp.astype(np.int64), fp.astype(np.int64), fn.astype(np.int64))


def totals(c):
    """``(T_pos, sum_i |P_i|, T_neg)`` of SampleCounts, as Python ints.

    ``T_pos = sum_p TP_p``, ``sum_i |P_i| = sum_p (TP_p + FN_p)`` and the
    unified ``T_neg = sum_p max(FP_p, FN_p)`` (neighborhood-system paper, Sec. 4.2).
    """
    tp = int(c.tp.sum())
    return tp, tp + int(c.fn.sum()), int(np.maximum(c.fp, c.fn).sum())


def aa_rar(T_pos, sum_P, T_neg):
    """``AA = T_pos / sum_P`` (NaN when no label is true) and ``RAR = T_pos / T_neg`` (inf at 0)."""
    aa = T_pos / sum_P if sum_P else float("nan")
    return float(aa), (T_pos / T_neg if T_neg else float("inf"))

