"""The arithmetic of the risk-coverage family, shared by :mod:`rejlab.selective` and the report.

Two summaries of validated inputs: :func:`index_errors` (``err_k``, ties broken
by sample index) and :func:`tie_groups` (size and errors of each group of equal
confidences, the source of every order-invariant number); then the three
conventions, each from its published definition (``docs/maths.md``, section (j)).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._ranking import ranked

__all__ = ["TieGroups", "tie_groups", "index_errors", "average_errors", "oracle_errors", "mean_risk",
           "excess_mean_risk", "mean_generalized_risk", "auroc_from_groups", "threshold_counts",
           "threshold_points", "trapezoid_aurc", "trapezoid_augrc", "continuous_oracle_aurc",
           "best_risk_with_coverage", "largest_coverage_with_risk", "dominant_points",
           "achievable_aurc", "kept_trapezoid", "field_numbers", "grid_trapezoid", "FIELD_NAMES",
           "threshold_field_numbers", "FIELD_LEAF"]


class TieGroups(NamedTuple):
    """The groups of equal confidence, most confident first (int64 arrays of one length)."""

    size: np.ndarray     #: |G|, samples in each group
    errors: np.ndarray   #: m_G, misclassified samples in each group


def tie_groups(accurate, confidence):
    """:class:`TieGroups`: the ranking's counts at the group boundaries (one value sort)."""
    ar, breaks = ranked(accurate, confidence, breaks=True, inside_ties=False)
    bounds = np.flatnonzero(breaks)
    size = np.diff(bounds)
    errors = size - np.diff(ar[bounds])
    return TieGroups(size[::-1], errors[::-1])


def index_errors(accurate, confidence):
    """``err_k`` (int64) for k = 1 .. n kept, ties broken by sample index, from one ranking."""
    ar, _ = ranked(accurate, confidence)
    n = ar.size - 1
    j = np.arange(n + 1, dtype=np.int64)              # rejected samples
    err = (n - ar[-1]) - (j - ar)                      # |M| - |M∩R| = |M∩N|
    return np.ascontiguousarray(err[n - 1::-1])        # kept k = n - j for j = n - 1 .. 0


def average_errors(groups):
    """``E[err_k] = err_before + (k - k_before) m_G / |G|`` (float) for k = 1 .. n.

    The expectation under a random order of the group G the cut splits; one
    correctly rounded division of exact integers per k, so a group's end is exact.
    """
    size, errors = groups
    ends, cumulative = np.cumsum(size), np.cumsum(errors)
    n = int(ends[-1])
    if size.size == n:                     # no tie: the integer counts themselves
        return cumulative
    tied = size > 1
    if 2 * int(size[tied].sum()) > n:      # mostly tied: every group (a singleton gives its count)
        tied[:] = True
    s, m, k_before, err_before = size[tied], errors[tied], (ends - size)[tied], (cumulative - errors)[tied]
    step = np.arange(1, int(s.sum()) + 1, dtype=np.int64) - np.repeat(np.cumsum(s) - s, s)
    values = step * np.repeat(m, s) / np.repeat(s, s) + np.repeat(err_before, s)
    if tied.all():
        return values
    out = np.empty(n)
    out[ends - 1] = cumulative
    out[np.repeat(k_before, s) + step - 1] = values
    return out


def oracle_errors(n, n_mis):
    """The oracle's ``err*_k = max(0, k - (n - m))`` for k = 1 .. n (every error ranked last)."""
    return np.maximum(0, np.arange(1, n + 1, dtype=np.int64) - (n - n_mis))


# --- "rejlab": the right Riemann sum over the n coverages ------------------------------------

def mean_risk(err):
    """AURC ``(1/n) sum_{k=1..n} err_k / k``."""
    return float(np.mean(err / np.arange(1, err.size + 1)))


def excess_mean_risk(err):
    """E-AURC ``(1/n) sum_k (err_k - err*_k) / k`` (exactly 0 for a perfect ranking)."""
    n = err.size
    n_mis = int(round(float(err[-1])))   # err_n = |M|: an integer under both tie rules
    return float(np.mean((err - oracle_errors(n, n_mis)) / np.arange(1, n + 1)))


def mean_generalized_risk(err):
    """AUGRC ``(1/n) sum_{k=1..n} err_k / n``."""
    return float(np.sum(err) / (err.size * err.size))


def auroc_from_groups(groups):
    """``U / (|A| |M|)``, ties counting 1/2, counted in integers; NaN when |A| or |M| is 0."""
    size, errors = groups
    acc = size - errors
    n_acc, n_mis = int(acc.sum()), int(errors.sum())
    if n_acc == 0 or n_mis == 0:
        return float("nan")
    mis_below = n_mis - np.cumsum(errors)          # errors strictly less confident
    twice_u = int(np.sum(acc * (2 * mis_below + errors)))
    return twice_u / (2 * n_acc * n_mis)


def threshold_counts(groups):
    """``(|R|, |A∩R|)`` (int64) at the points a threshold reaches, k = 0 .. n rejected."""
    size, errors = groups
    rejected = np.concatenate(([0], np.cumsum(size[::-1])))
    accurate_rejected = np.concatenate(([0], np.cumsum((size - errors)[::-1])))
    return rejected, accurate_rejected


# --- "fd-shifts": the curve where the confidence changes, trapezoids ------------------------

def threshold_points(groups):
    """Kept counts and kept errors at each threshold point, coverage 1 first, coverage 0 left out."""
    size, errors = groups
    return np.cumsum(size)[::-1], np.cumsum(errors)[::-1]


def kept_trapezoid(kept, values, n, last):
    """Trapezoids of ``values`` over the coverages ``kept / n`` (descending), then to (0, last)."""
    widths = (kept[:-1] - kept[1:]) / n
    inner = float(np.sum(widths * (values[:-1] + values[1:]) / 2))
    return inner + float(kept[-1] / n * (values[-1] + last) / 2)


def trapezoid_aurc(groups, n):
    """fd-shifts' AURC: trapezoids of the selective risk, the coverage-0 point at the last risk."""
    kept, err = threshold_points(groups)
    risk = err / kept
    return kept_trapezoid(kept, risk, n, risk[-1])


def trapezoid_augrc(groups, n):
    """fd-shifts' AUGRC: trapezoids of the generalized risk ``err / n``, 0 at coverage 0."""
    kept, err = threshold_points(groups)
    return kept_trapezoid(kept, err / n, n, 0.0)


def continuous_oracle_aurc(n_mis, n):
    """``e + (1 - e) ln(1 - e)`` with ``e = m / n`` (1 when every sample is an error)."""
    e = n_mis / n
    return 1.0 if n_mis == n else e + (1.0 - e) * math.log1p(-e)


def best_risk_with_coverage(groups, n, coverage):
    """The least selective risk of the threshold points with coverage at least ``coverage``."""
    kept, err = threshold_points(groups)
    ok = kept / n >= coverage
    return float(np.min(err[ok] / kept[ok])) if ok.any() else float("nan")


def largest_coverage_with_risk(groups, n, target):
    """The largest coverage of a threshold point whose selective risk is at most ``target``."""
    kept, err = threshold_points(groups)
    ok = err / kept <= target
    return float(kept[ok].max() / n) if ok.any() else 0.0


def dominant_points(groups):
    """Indices (into :func:`threshold_points`) of the corners of the ROC curve's upper hull.

    Exact integer cross products: vectorized passes drop points under the chord of
    their neighbours, then a monotone chain finishes. No error or only errors: point 0.
    """
    kept, err = threshold_points(groups)
    n, n_mis = int(kept[0]), int(err[0])
    if n_mis in (0, n) or kept.size == 1:
        return np.array([0])
    # ROC path from "keep nothing" to "keep all": x = kept errors, y = kept accurate
    x = np.concatenate(([0], err[::-1]))
    y = np.concatenate(([0], (kept - err)[::-1]))
    idx = np.arange(x.size)
    for _ in range(16):
        if idx.size < 3:
            break
        xo, yo = x[idx[:-2]], y[idx[:-2]]
        cross = (x[idx[1:-1]] - xo) * (y[idx[2:]] - yo) - (y[idx[1:-1]] - yo) * (x[idx[2:]] - xo)
        under = cross >= 0                                # on or below the chord: no corner
        if not under.any():
            break
        idx = idx[np.concatenate(([True], ~under, [True]))]
    hull = []
    for i in idx.tolist():
        while len(hull) >= 2:
            o, a = hull[-2], hull[-1]
            if (int(x[a]) - int(x[o])) * (int(y[i]) - int(y[o])) \
                    - (int(y[a]) - int(y[o])) * (int(x[i]) - int(x[o])) < 0:
                break
            hull.pop()
        hull.append(i)
    corners = np.array(hull[1:], dtype=np.int64)          # without "keep nothing"
    return np.sort(kept.size - corners)                    # back to coverage-1-first indices


def achievable_aurc(groups, n):
    """fd-shifts' achievable AURC (closed form in :func:`rejlab.achievable_aurc`)."""
    kept, err = threshold_points(groups)
    d = dominant_points(groups)
    p, q = kept[d].astype(float), err[d].astype(float)
    total = float(q[-1])                                   # from coverage 0 to the last point
    if d.size > 1:
        kp, kq, ep, eq = p[:-1], p[1:], q[:-1], q[1:]
        total += float(np.sum(ep - eq + (eq * kp - ep * kq) * np.log(kp / kq) / (kp - kq)))
    return total / n


# --- the report's numbers ----------------------------------------------------------------

#: The report's four selective numbers, in this order.
FIELD_NAMES = ("aurc", "excess_aurc", "augrc", "failure_auroc")


def field_numbers(groups):
    """AURC, E-AURC, AUGRC (rejlab's convention, ties averaged) and failure AUROC of the groups."""
    err = average_errors(groups)
    return dict(aurc=mean_risk(err), excess_aurc=excess_mean_risk(err),
                augrc=mean_generalized_risk(err), failure_auroc=auroc_from_groups(groups))


# Longest run of kept counts whose values :func:`threshold_field_numbers` makes at once
# (a leaf of the pairwise sum; read at call time, so a test can shrink it).
FIELD_LEAF = 1 << 15


def threshold_field_numbers(rejected, accurate_rejected, n):
    """:func:`field_numbers` from the points a threshold reaches, with no n-length temporary.

    ``rejected`` holds |R| at each threshold point (ascending, 0 and n included;
    None when there is no tie) and ``accurate_rejected`` |A∩R| there. The same
    operations on each ``E[err_k]``, :data:`FIELD_LEAF` kept counts at a time, summed
    in NumPy's own pairwise order (halves cut at a multiple of 8): the same bits as
    :func:`field_numbers` in memory proportional to the number of threshold points.
    """
    ar = accurate_rejected
    n_acc = int(ar[-1])
    n_mis = n - n_acc

    def errors(lo, hi):
        """``E[err_k]`` for the kept counts k = lo .. hi - 1 (1 <= lo < hi <= n + 1)."""
        j = np.arange(n - lo, n - hi, -1, dtype=np.int64)     # rejected, n - k
        if rejected is None:                                  # no tie: the integer counts
            return n_mis - (j - ar[j])
        i = np.searchsorted(rejected, j, side="right")        # the group [rejected[i-1], rejected[i])
        end, a_end = rejected[i], ar[i]
        size = end - rejected[i - 1]
        group_errors = size - (a_end - ar[i - 1])
        before = n_mis - (end - a_end)                        # errors kept above the group
        return (end - j) * group_errors / size + before

    def total(f, lo, hi):
        """The sum of ``f(k, err_k)`` over k = lo .. hi - 1, in NumPy's pairwise order."""
        m = hi - lo
        if m <= max(FIELD_LEAF, 128):          # NumPy sums up to 128 numbers without a split
            return np.add.reduce(f(np.arange(lo, hi, dtype=np.int64), errors(lo, hi)))
        half = m // 2
        half -= half % 8
        return total(f, lo, lo + half) + total(f, lo + half, hi)

    oracle = lambda k: np.maximum(0, k - (n - n_mis))  # noqa: E731  (oracle_errors)
    aurc = float(total(lambda k, err: err / k, 1, n + 1) / n)
    excess = float(total(lambda k, err: (err - oracle(k)) / k, 1, n + 1) / n)
    augrc = float(total(lambda k, err: err, 1, n + 1) / (n * n))
    return dict(aurc=aurc, excess_aurc=excess, augrc=augrc,
                failure_auroc=_threshold_auroc(rejected, ar, n))


def _threshold_auroc(rejected, ar, n):
    """:func:`auroc_from_groups` from the threshold points, a block of groups at a time."""
    n_acc = int(ar[-1])
    n_mis = n - n_acc
    if n_acc == 0 or n_mis == 0:
        return float("nan")
    twice_u = 0
    n_points = n + 1 if rejected is None else rejected.size
    for s in range(0, n_points - 1, FIELD_LEAF):
        e = min(n_points - 1, s + FIELD_LEAF)
        if rejected is None:
            k = np.arange(s, e + 1, dtype=np.int64)
        else:
            k = rejected[s:e + 1]
        a = ar[s:e + 1]
        acc = np.diff(a)                                    # accurate in each group
        errors = np.diff(k) - acc
        mis_below = k[:-1] - a[:-1]                         # errors strictly less confident
        twice_u += int(np.sum(acc * (2 * mis_below + errors)))
    return twice_u / (2 * n_acc * n_mis)


# --- "torch-uncertainty": trapezoids over k / n, k = 1 .. n ---------------------------------

def grid_trapezoid(values):
    """Trapezoids of ``values`` (k = 1 .. n) over the coverages k/n, divided by ``1 - 1/n``; NaN for n < 2."""
    n = values.size
    if n < 2:
        return float("nan")
    return float(np.sum((values[:-1] + values[1:]) / 2) / n / (1.0 - 1.0 / n))
