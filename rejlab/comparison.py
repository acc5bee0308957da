"""Two classifiers, or two rejectors of one, compared by their summaries with paired intervals.

"Rejector 1 has the lower AURC" on one test set is a point estimate;
:func:`compare_summaries` adds paired percentile-bootstrap bands (Efron &
Tibshirani 1993) to the differences of the :mod:`rejlab.selective` summaries.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._constraints import accepts
from ._kinds import BOOL_1D, FINITE_1D, N_BOOT, OPEN_FRACTION, SEED
from ._resampling import multiplicity_chunks, quantiles
from ._risk_coverage import FIELD_NAMES, field_numbers, tie_groups
from .bootstrap import Band

__all__ = ["SummaryComparison", "compare_summaries"]


class SummaryComparison(NamedTuple):
    """Paired bootstrap bands of the differences, pair 1 minus pair 2, of four summaries."""

    aurc: Band
    excess_aurc: Band
    augrc: Band
    failure_auroc: Band


@accepts(accurate_1=BOOL_1D, confidence_1=FINITE_1D, accurate_2=BOOL_1D, confidence_2=FINITE_1D,
         n_boot=N_BOOT, level=OPEN_FRACTION, seed=SEED,
         same_length=("accurate_1", "confidence_1", "accurate_2", "confidence_2"))
def compare_summaries(accurate_1, confidence_1, accurate_2, confidence_2, *, n_boot=1000,
                      level=0.95, seed=None):
    """Is one (classifier, confidence) better than another on these samples? Paired intervals.

    AURC, E-AURC, AUGRC and failure AUROC (the defaults of :func:`rejlab.aurc`), pair 1
    minus pair 2, each a :class:`rejlab.Band`: every replicate draws the same n samples
    (``default_rng(seed)``) for both pairs, which may be two rejectors of one
    classifier or two classifiers of the same samples. A band that contains 0 says
    these samples cannot tell them apart. One sort per pair, then O(n) per replicate.

    Examples
    --------
    >>> from rejlab.datasets import four_gaussians
    >>> toy = four_gaussians(50, seed=0)
    >>> cmp = compare_summaries(toy.accurate, toy.confidence("max_probability"),
    ...                         toy.accurate, toy.confidence("breaking_ties"), n_boot=200, seed=0)
    >>> bool(cmp.aurc.low < 0 < cmp.aurc.high)   # 200 samples cannot tell them apart
    True
    """
    pairs = ((accurate_1, confidence_1), (accurate_2, confidence_2))
    one, two = (field_numbers(tie_groups(a, c)) for a, c in pairs)
    low, high = quantiles(_paired_differences(pairs, n_boot, seed), level)
    return SummaryComparison(*(Band(one[k] - two[k], float(lo), float(hi))
                               for k, lo, hi in zip(FIELD_NAMES, low, high)))


def _paired_differences(pairs, n_boot, seed):
    """(n_boot, 4) differences, pair 1 minus pair 2, of the four summaries on shared resamples.

    A resample's tie groups are the original ones weighted by the draws, so each pair
    is grouped once; inside a group the expected errors are linear between its ends.
    """
    n = pairs[0][0].size
    k = np.arange(1, n + 1)
    groupings = [_grouping(c) for _, c in pairs]
    return np.concatenate([_weighted_fields(pairs[0][0], groupings[0], w, k)
                           - _weighted_fields(pairs[1][0], groupings[1], w, k)
                           for w in (w.astype(float) for w in
                                     multiplicity_chunks(n, n_boot, seed))])


def _grouping(confidence):
    """The samples by group of equal confidence, most confident group first, and where each starts."""
    values, inverse = np.unique(confidence, return_inverse=True)
    rank = values.size - 1 - inverse                         # most confident group first
    by_group = np.argsort(rank, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(rank[by_group]) != 0])
    return by_group, starts


def _weighted_fields(accurate, grouping, w, k):
    """AURC, E-AURC, AUGRC and failure AUROC of each row of sample weights ``w`` (integers)."""
    by_group, starts = grouping
    size = np.add.reduceat(w[:, by_group], starts, axis=1)
    errors = np.add.reduceat((w * ~accurate)[:, by_group], starts, axis=1)
    n = k.size
    kept = np.concatenate([np.zeros((w.shape[0], 1)), np.cumsum(size, axis=1)], axis=1)
    kept_errors = np.concatenate([np.zeros((w.shape[0], 1)), np.cumsum(errors, axis=1)], axis=1)
    err = np.array([np.interp(k, x, y) for x, y in zip(kept, kept_errors)])
    n_mis = kept_errors[:, -1]
    oracle = np.maximum(0, k[None, :] - (n - n_mis[:, None]))
    acc = size - errors
    mis_below = n_mis[:, None] - np.cumsum(errors, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        auroc = np.sum(acc * (2 * mis_below + errors), axis=1) / (2 * (n - n_mis) * n_mis)
    auroc[(n_mis == 0) | (n_mis == n)] = np.nan
    return np.column_stack([np.mean(err / k, axis=1), np.mean((err - oracle) / k, axis=1),
                            np.sum(err, axis=1) / (n * n), auroc])
