"""Kernels of the guaranteed thresholds: the binomial tail, its inversion, SGR's and LTT's choices.

Shared by :mod:`rejlab.guarantees` (one validation sample, checked at the
door) and :mod:`rejlab.datasets._guarantees` (thousands of simulated
validation samples at once, one per row), so both make the same choice by
the same code. Inputs are trusted: validated counts, levels in (0, 1).

- :func:`binomial_cdf` is ``P(Binomial(k, p) <= e)``, through the
  regularized incomplete beta function ``I_{1-p}(k - e, e + 1)``, evaluated
  by its continued fraction (modified Lentz), elementwise in NumPy.
- :func:`upper_bound` inverts it in ``p`` by bisection: the largest risk
  ``b`` with ``P(Binomial(k, b) <= e) >= level``, the one-sided
  Clopper-Pearson upper bound (Clopper & Pearson 1934), the "binomial tail
  inversion" of Geifman & El-Yaniv 2017.
- :func:`critical_errors` is, for every kept count k, the largest number of
  errors whose bound is still at most the target: the bound test as a
  table, so that testing a kept set is one comparison of integers.
- :func:`ranked_rows`, :func:`select_sgr`, :func:`select_ltt` and
  :func:`select_empirical` choose, row by row, the kept count k (0 when no
  set of kept samples can be certified).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

__all__ = ["binomial_cdf", "upper_bound", "critical_errors", "ranked_rows", "sgr_steps",
           "select_sgr", "select_ltt", "select_empirical", "SELECTIONS"]

_TINY = 1e-300
_EPS = 1e-15
_MAX_TERMS = 100_000
_BISECTIONS = 100  # the most rounds of the safeguarded Newton search (a bisection each, at worst)
_lgamma = np.vectorize(math.lgamma, otypes=[float])


def _continued_fraction(a, b, x):
    """The continued fraction of I_x(a, b) (Numerical Recipes' betacf), elementwise.

    Converges fast for ``x < (a + 1) / (a + b + 2)``, in about
    ``sqrt(max(a, b))`` terms; every element iterates until all have converged.
    """
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = np.ones_like(x)
    d = 1.0 - qab * x / qap
    d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
    h = d.copy()
    for m in range(1, _MAX_TERMS):
        m2 = 2.0 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                   -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + aa * d
            d = 1.0 / np.where(np.abs(d) < _TINY, _TINY, d)
            c = 1.0 + aa / c
            c = np.where(np.abs(c) < _TINY, _TINY, c)
            step = d * c
            h = h * step
        if np.all(np.abs(step - 1.0) < _EPS):
            return h
    raise ArithmeticError("the incomplete beta continued fraction did not converge")  # pragma: no cover


def _betainc(a, b, x):
    """Regularized incomplete beta ``I_x(a, b)`` for a, b > 0 and x in [0, 1] (arrays broadcast)."""
    a, b, x = (np.asarray(t, dtype=float) for t in np.broadcast_arrays(a, b, x))
    out = np.where(x >= 1.0, 1.0, 0.0)
    inner = (x > 0.0) & (x < 1.0)
    if not inner.any():
        return out
    a, b, x = a[inner], b[inner], x[inner]
    with np.errstate(divide="ignore"):
        front = _lgamma(a + b) - _lgamma(a) - _lgamma(b) + a * np.log(x) + b * np.log1p(-x)
    direct = x < (a + 1.0) / (a + b + 2.0)
    value = np.empty(x.shape)
    if direct.any():
        i = direct
        value[i] = np.exp(front[i]) * _continued_fraction(a[i], b[i], x[i]) / a[i]
    if (~direct).any():
        i = ~direct  # the symmetry I_x(a, b) = 1 - I_{1-x}(b, a)
        value[i] = 1.0 - np.exp(front[i]) * _continued_fraction(b[i], a[i], 1.0 - x[i]) / b[i]
    out[inner] = np.clip(value, 0.0, 1.0)
    return out


def binomial_cdf(e, k, p):
    """``P(Binomial(k, p) <= e)`` for integer arrays e, k >= 0 and probabilities p (broadcast).

    0 when e < 0, 1 when e >= k; otherwise ``I_{1-p}(k - e, e + 1)``.
    """
    e, k, p = np.broadcast_arrays(np.asarray(e, dtype=np.int64), np.asarray(k, dtype=np.int64),
                                  np.asarray(p, dtype=float))
    out = np.where(e >= k, 1.0, 0.0)
    inner = (e >= 0) & (e < k)
    if inner.any():
        ei, ki = e[inner], k[inner]
        out[inner] = _betainc((ki - ei).astype(float), (ei + 1).astype(float), 1.0 - p[inner])
    return out


def upper_bound(e, k, level):
    """The one-sided Clopper-Pearson bound: the largest b with ``P(Bin(k, b) <= e) >= level``.

    1 when e >= k (every risk explains that many errors); ``1 - level^(1/k)``
    when e = 0. Otherwise the root of ``f(b) = log P(Bin(k, b) <= e) - log level``,
    which falls as b grows, by Newton steps on f (its derivative is
    ``-k P(Bin(k - 1, b) = e) / P(Bin(k, b) <= e)``) kept inside a bracket
    that every step narrows, with a bisection whenever a step would leave it;
    a few iterations reach about 1e-12 (the tail at the value returned is the
    level to within 1e-10 of it, or below).
    """
    e, k, level = np.broadcast_arrays(np.asarray(e, dtype=np.int64),
                                      np.asarray(k, dtype=np.int64),
                                      np.asarray(level, dtype=float))
    out = np.ones(e.shape)
    inner = e < k
    if not inner.any():
        return out
    ei, ki, li = e[inner], k[inner], level[inner]
    result = -np.expm1(np.log(li) / ki)          # e = 0: (1 - b)^k = level
    rest = ei > 0
    if rest.any():
        result[rest] = _newton_bound(ei[rest], ki[rest], li[rest])
    out[inner] = result
    return out


def _newton_bound(e, k, level):
    """The root in b of log P(Bin(k, b) <= e) = log level, for 0 < e < k (safeguarded Newton).

    Each element iterates until its Newton step is below 1e-12 relative (that
    step is then taken even if rounding noise puts it just outside the
    bracket) or its bracket is below 1e-13 relative; at most ``_BISECTIONS``
    rounds.
    """
    log_level = np.log(level)
    # log C(k - 1, e), for the derivative P(Bin(k - 1, b) = e)
    log_choose = _lgamma(k.astype(float)) - _lgamma(e + 1.0) - _lgamma((k - e).astype(float))
    lo = -np.expm1(np.log(level) / k)             # the bound of zero errors is below
    hi = np.ones(e.shape)
    b = np.clip((e + 1.0) / (k + 1.0), lo, 1.0 - 1e-12)
    b = np.where(b > lo, b, (lo + hi) / 2)
    active = np.arange(e.size)
    for _ in range(_BISECTIONS):
        ea, ka, ba, la, lo_a, hi_a = e[active], k[active], b[active], log_level[active], \
            lo[active], hi[active]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            cdf = binomial_cdf(ea, ka, ba)
            f = np.log(cdf) - la
            slope = -ka * np.exp(log_choose[active] + ea * np.log(ba)
                                 + (ka - 1 - ea) * np.log1p(-ba)) / cdf
            step = ba - f / slope
        above = f > 0                              # the tail is still above the level: go right
        lo_a, hi_a = np.where(above, ba, lo_a), np.where(above, hi_a, ba)
        inside = np.isfinite(step) & (step > lo_a) & (step < hi_a)
        # near the root, rounding noise can push a good step just outside the bracket
        close = np.isfinite(step) & (np.abs(step - ba) <= 1e-12 * ba)
        b_next = np.where(inside | close, step, (lo_a + hi_a) / 2)
        lo[active], hi[active], b[active] = lo_a, hi_a, b_next
        done = close | (hi_a - lo_a <= 1e-13 * hi_a)
        active = active[~done]
        if active.size == 0:
            break
    # the root, or (if its computed tail is above the level by more than rounding) the
    # bracket's upper end, where the tail is at most the level
    return np.where(binomial_cdf(e, k, b) <= level * (1 + 1e-10), b, hi)


@lru_cache(maxsize=64)
def _critical_table(n, target, level):
    k = np.arange(1, n + 1, dtype=np.int64)
    lo = np.full(n, -1, dtype=np.int64)   # CDF(-1) = 0 <= level: always allowed
    hi = k.copy()                         # CDF(k) = 1 > level: never allowed
    while np.any(hi - lo > 1):
        mid = (lo + hi) // 2
        ok = binomial_cdf(mid, k, target) <= level
        lo, hi = np.where(ok, mid, lo), np.where(ok, hi, mid)
    table = np.concatenate([[-1], lo])
    table.setflags(write=False)
    return table


def critical_errors(n, target, level):
    """For k = 0 .. n kept samples, the most errors whose level bound is at most ``target``.

    Entry k is the largest e with ``P(Bin(k, target) <= e) <= level`` (the
    exact binomial test of "risk >= target" rejects at that level), which
    is the same as ``upper_bound(e, k, level) <= target``; -1 when not even
    k errorless samples would do (and at k = 0). Non-decreasing in k.
    Cached and read-only.
    """
    return _critical_table(int(n), float(target), float(level))


def ranked_rows(accurate, confidence):
    """Each row sorted by confidence, most confident first: (confidences, errors among the top k, cuts).

    ``errors[:, k - 1]`` counts the misclassified samples among the k most
    confident; ``cuts[:, k - 1]`` is True where a threshold can keep exactly
    those k (the k-th is more confident than the (k + 1)-th, or k = n).
    """
    order = np.argsort(confidence, axis=1, kind="stable")[:, ::-1]
    c = np.take_along_axis(confidence, order, axis=1)
    errors = np.cumsum(~np.take_along_axis(accurate, order, axis=1), axis=1, dtype=np.int64)
    cuts = np.ones(c.shape, dtype=bool)
    cuts[:, :-1] = c[:, :-1] > c[:, 1:]
    return c, errors, cuts


def sgr_steps(n):
    """The number of thresholds SGR tests on n samples: ``ceil(log2 n)`` (at least 1)."""
    return max(1, math.ceil(math.log2(n)))


def select_sgr(errors, cuts, target, delta):
    """Geifman & El-Yaniv's binary search, row by row: (kept count, level of each test).

    The paper's Algorithm 1 on the confidences sorted most confident first:
    positions lo = 1, hi = n; at each of ``ceil(log2 n)`` steps test the
    threshold at the confidence of position ``(lo + hi) // 2`` (it keeps the
    whole group of that confidence), at level ``delta / ceil(log2 n)``; if its
    bound is at most the target keep more (lo = mid), else keep fewer
    (hi = mid). Returned: the largest kept count whose bound passed (0 when
    none did; the paper returns the last one tested, whose bound may exceed
    the target).
    """
    m, n = errors.shape
    steps = sgr_steps(n)
    level = delta / steps
    table = critical_errors(n, target, level)
    pos = np.arange(1, n + 1, dtype=np.int64)
    # the kept count of the threshold at position j: the end of j's group of equal confidences
    group_end = np.minimum.accumulate(np.where(cuts, pos, n)[:, ::-1], axis=1)[:, ::-1]
    rows = np.arange(m)
    lo, hi = np.ones(m, dtype=np.int64), np.full(m, n, dtype=np.int64)
    best = np.zeros(m, dtype=np.int64)
    for _ in range(steps):
        j = (lo + hi) // 2
        kept = group_end[rows, j - 1]
        ok = errors[rows, kept - 1] <= table[kept]
        best = np.where(ok, np.maximum(best, kept), best)
        lo, hi = np.where(ok, j, lo), np.where(ok, hi, j)
    return best, level


def select_ltt(errors, cuts, target, delta):
    """Learn then Test with fixed-sequence testing, row by row: (kept count, level of each test).

    The nulls "the risk of the k most confident exceeds the target" are
    tested at level delta in the order of k, from the most confident down,
    with the exact binomial p-value ``P(Bin(k, target) <= errors_k)``; the
    first k tested is the smallest for which k errorless samples could reject
    (smaller k can never pass, whatever the data); testing stops at the first
    null not rejected. Only cuts (whole groups of equal confidence) are
    tested. Returned: the largest k rejected before the stop (0 when none).
    """
    m, n = errors.shape
    table = critical_errors(n, target, delta)[1:]
    k = np.arange(1, n + 1, dtype=np.int64)
    tested = cuts & (table >= 0)[None, :]
    fail = tested & (errors > table[None, :])
    stop = np.where(fail.any(axis=1), fail.argmax(axis=1) + 1, n + 1)
    ok = tested & (k[None, :] < stop[:, None])
    return np.where(ok, k[None, :], 0).max(axis=1), delta


def select_empirical(errors, cuts, target, delta=None):
    """No promise: the largest kept count whose *observed* risk ``errors_k / k`` is at most the target.

    What choosing "risk at most the target on validation" does without any
    bound (``rl.select_threshold(..., criterion="target_accuracy")``): about
    half of the time the same threshold is riskier on fresh data.
    """
    n = errors.shape[1]
    k = np.arange(1, n + 1, dtype=np.int64)
    ok = cuts & (errors / k[None, :] <= target)
    return np.where(ok, k[None, :], 0).max(axis=1), float("nan")


#: The selections by method name: (errors, cuts, target, delta) -> (kept counts, level).
SELECTIONS = {"sgr": select_sgr, "ltt": select_ltt, "empirical": select_empirical}
