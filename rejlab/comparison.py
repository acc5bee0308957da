"""Two classifiers, or two rejectors of one, compared by their summaries with paired intervals.

On one test set, "rejector 1 has the lower AURC" is a point estimate: another
test set of the same size could reverse it. :func:`compare_summaries` gives
the differences of AURC, E-AURC, AUGRC and failure AUROC (rejlab's
convention, ties averaged: :mod:`rejlab.selective`) with paired
percentile-bootstrap bands (Efron & Tibshirani 1993): both pairs are
evaluated on the same resamples, so the band of a difference keeps the
correlation of two numbers measured on the same samples.
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np

from ._constraints import accepts
from ._kinds import BOOL_1D, FINITE_1D, N_BOOT, OPEN_FRACTION, SEED
from ._risk_coverage import FIELD_NAMES, field_numbers, paired_field_differences, tie_groups
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

    AURC, E-AURC, AUGRC and failure AUROC (the defaults of :func:`rejlab.aurc`
    and its family) of pair 1 minus pair 2, each with a paired percentile
    bootstrap band: every replicate draws the n samples with replacement
    (``numpy.random.default_rng(seed)``) once and evaluates both pairs on
    that same draw. The pairs may be two rejectors of one classifier
    (``accurate_1`` equal to ``accurate_2``) or two classifiers of the same
    samples. A band that contains 0 says these samples cannot tell the two
    apart. O(n log n) per replicate.

    Parameters
    ----------
    accurate_1, confidence_1 : array-like, shape (n,)
    accurate_2, confidence_2 : array-like, shape (n,)
        The same n samples, in the same order.
    n_boot : int, keyword-only, default 1000
    level : float in (0, 1), keyword-only, default 0.95
    seed : int or None, keyword-only

    Returns
    -------
    SummaryComparison
        Fields ``aurc``, ``excess_aurc``, ``augrc``, ``failure_auroc``, each a
        :class:`rejlab.Band` (estimate, low, high) of the difference; the
        estimate is the difference on the samples given, a band NaN where
        every replicate is (failure AUROC without errors).

    Examples
    --------
    >>> from rejlab.datasets import four_gaussians
    >>> toy = four_gaussians(50, seed=0)
    >>> cmp = compare_summaries(toy.accurate, toy.confidence("max_probability"),
    ...                         toy.accurate, toy.confidence("breaking_ties"), n_boot=200, seed=0)
    >>> bool(cmp.aurc.low < 0 < cmp.aurc.high)   # 200 samples cannot tell them apart
    True
    """
    a1, c1, a2, c2 = accurate_1, confidence_1, accurate_2, confidence_2
    one, two = (field_numbers(tie_groups(a, c)) for a, c in ((a1, c1), (a2, c2)))
    reps = paired_field_differences(((a1, c1), (a2, c2)), n_boot, seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # a column of NaN: a NaN band
        low, high = np.nanquantile(reps, [(1 - level) / 2, (1 + level) / 2], axis=0)
    return SummaryComparison(*(Band(one[k] - two[k], float(lo), float(hi))
                               for k, lo, hi in zip(FIELD_NAMES, low, high)))
