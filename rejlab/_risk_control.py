"""Kernels of the guaranteed thresholds: the binomial test of a kept set, its bound, SGR and LTT.

Shared by :mod:`rejlab.guarantees` (one sample) and the course's study (one sample
per row), on trusted inputs. A kept set of k samples with e errors passes at level
delta' when ``P(Binomial(k, target) <= e) <= delta'``, i.e. when its Clopper-Pearson
bound (:func:`upper_bound`) is at most the target: SciPy's incomplete beta and its inverse.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import special

__all__ = ["p_value", "upper_bound", "critical_errors", "ranked_rows", "select_sgr",
           "select_ltt", "select_empirical", "SELECTIONS"]


def p_value(errors, kept, target):
    """``P(Binomial(kept, target) <= errors)`` (arrays broadcast; 1 when errors >= kept)."""
    e, k, p = np.broadcast_arrays(np.asarray(errors, dtype=np.int64),
                                  np.asarray(kept, dtype=np.int64), np.asarray(target, dtype=float))
    out = np.ones(e.shape)
    inner = e < k
    out[inner] = special.betaincc(e[inner] + 1, k[inner] - e[inner], p[inner])
    return out


def upper_bound(errors, kept, level):
    """The one-sided Clopper-Pearson bound: the largest b with ``P(Bin(kept, b) <= errors) >= level``.

    1 when errors >= kept; ``1 - level^(1/kept)`` with no error.
    """
    e, k, q = np.broadcast_arrays(np.asarray(errors, dtype=np.int64),
                                  np.asarray(kept, dtype=np.int64), np.asarray(level, dtype=float))
    out = np.ones(e.shape)
    inner = e < k
    out[inner] = special.betainccinv(e[inner] + 1, k[inner] - e[inner], q[inner])
    return out


@lru_cache(maxsize=64)
def _critical_table(n, target, level):
    k = np.arange(1, n + 1, dtype=np.int64)
    lo = np.full(n, -1, dtype=np.int64)   # P(X <= -1) = 0: always passes
    hi = k.copy()                         # P(X <= k) = 1: never passes
    while np.any(hi - lo > 1):
        mid = (lo + hi) // 2
        ok = p_value(mid, k, target) <= level
        lo, hi = np.where(ok, mid, lo), np.where(ok, hi, mid)
    table = np.concatenate([[-1], lo])
    table.setflags(write=False)
    return table


def critical_errors(n, target, level):
    """For k = 0 .. n kept samples, the most errors that pass the test at ``level`` (-1: none).

    By bisection on e for every k at once; cached and read-only, for the study's many samples.
    """
    return _critical_table(int(n), float(target), float(level))


def _kept_set_test(n, rows, target, level):
    """``passes(errors, kept)`` at ``level``: by p-values for one sample, by the table (n log2 n) for many."""
    if rows == 1:
        return lambda errors, kept: p_value(errors, kept, target) <= level
    table = critical_errors(n, target, level)
    return lambda errors, kept: errors <= table[kept]


def ranked_rows(accurate, confidence):
    """Each row sorted by confidence, most confident first: (confidences, errors among the top k, cuts).

    ``errors[:, k - 1]``: errors among the k most confident; ``cuts[:, k - 1]``: a threshold
    can keep exactly those k.
    """
    order = np.argsort(confidence, axis=1, kind="stable")[:, ::-1]
    c = np.take_along_axis(confidence, order, axis=1)
    errors = np.cumsum(~np.take_along_axis(accurate, order, axis=1), axis=1, dtype=np.int64)
    cuts = np.ones(c.shape, dtype=bool)
    cuts[:, :-1] = c[:, :-1] > c[:, 1:]
    return c, errors, cuts


def select_sgr(errors, cuts, target, delta):
    """SGR, row by row (:func:`rejlab.guaranteed_threshold`): (kept count, level of each test).

    ``ceil(log2 n)`` bisection steps over the sorted positions, each testing the whole group
    at ``(lo + hi) // 2``; the largest kept count that passed, 0 when none did.
    """
    m, n = errors.shape
    steps = max(1, math.ceil(math.log2(n)))
    level = delta / steps
    passes = _kept_set_test(n, m, target, level)
    pos = np.arange(1, n + 1, dtype=np.int64)
    # the kept count of the threshold at position j: the end of j's group of equal confidences
    group_end = np.minimum.accumulate(np.where(cuts, pos, n)[:, ::-1], axis=1)[:, ::-1]
    rows = np.arange(m)
    lo, hi = np.ones(m, dtype=np.int64), np.full(m, n, dtype=np.int64)
    best = np.zeros(m, dtype=np.int64)
    for _ in range(steps):
        j = (lo + hi) // 2
        kept = group_end[rows, j - 1]
        ok = passes(errors[rows, kept - 1], kept)
        best = np.where(ok, np.maximum(best, kept), best)
        lo, hi = np.where(ok, j, lo), np.where(ok, hi, j)
    return best, level


def select_ltt(errors, cuts, target, delta):
    """Learn then Test, row by row (:func:`rejlab.guaranteed_threshold`): (kept count, delta).

    The cuts in the order of k, from the smallest k that errorless samples could pass,
    up to the first that fails: the largest k before it, 0 when none.
    """
    m, n = errors.shape
    passes = _kept_set_test(n, m, target, delta)
    first, last = 0, n + 1     # k errorless pass from `last` on (n + 1: never), not at `first`
    while last - first > 1:    # (1 - target)^k falls as k grows
        mid = (first + last) // 2
        first, last = (first, mid) if passes(np.zeros(1, np.int64), np.array([mid]))[0] else (mid, last)
    tested = cuts.copy()
    tested[:, :last - 1] = False
    rows, cols = np.nonzero(tested)
    fail = np.zeros_like(tested)
    fail[rows, cols] = ~passes(errors[rows, cols], cols + 1)
    stop = np.where(fail.any(axis=1), fail.argmax(axis=1) + 1, n + 1)
    k = np.arange(1, n + 1, dtype=np.int64)
    ok = tested & (k[None, :] < stop[:, None])
    return np.where(ok, k[None, :], 0).max(axis=1), delta


def select_empirical(errors, cuts, target, delta=None):
    """No promise: the largest kept count whose *observed* risk ``errors_k / k`` is at most the target.

    As ``rl.select_threshold(..., criterion="target_accuracy")``: riskier on fresh data half the time.
    """
    n = errors.shape[1]
    k = np.arange(1, n + 1, dtype=np.int64)
    ok = cuts & (errors / k[None, :] <= target)
    return np.where(ok, k[None, :], 0).max(axis=1), float("nan")


#: The selections by method name: (errors, cuts, target, delta) -> (kept counts, level).
SELECTIONS = {"sgr": select_sgr, "ltt": select_ltt, "empirical": select_empirical}
