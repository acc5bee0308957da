"""How sure are we? Percentile-bootstrap bands on A, Q, phi and paired comparisons.

The measures of Condessa et al. 2017 are computed on one sample; another
sample of the same size gives other numbers. The percentile bootstrap
(Efron & Tibshirani 1993, Ch. 13) estimates that wobble: replicate b draws
``rng.integers(0, n, size=n)`` from ``numpy.random.default_rng(seed)``
(replicates in order), the value is recomputed on the drawn samples, and a
band is the ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles of the
replicate values (NumPy's linear interpolation; NaN replicates left out;
an infinite order statistic gives an infinite bound). A replicate is the
multiset of the drawn samples, so copies of one sample are interchangeable;
the value at a rejected fraction f rejects ``round(f n)`` samples, and
where that count cuts through a group of equal confidences, the expectation
over the group's orders (:func:`rejlab.aurc`'s default convention, and the
report's), so no number depends on the order of the rows.

Pointwise or simultaneous. A pointwise band holds at each fraction on its
own: where nothing differs, about one in twenty of many 95 % intervals of a
difference misses 0 by chance. A simultaneous band (``band="simultaneous"``)
holds over all the fractions at once. For A, Q and phi it is the studentized
sup-t band: each measure on a scale where it is unbounded (logit for A and Q,
log for phi), every count of a cell given half a sample (Haldane's
correction: an empty cell gives neither an infinite value nor a zero
standard error), each replicate's deviation from the estimate counted in
*its own* standard error there, c the ``level`` quantile of each replicate
curve's largest such deviation (about 2 for one fraction, growing slowly
with their number), and the band ``estimate +- c se`` mapped back, with se
the sample's standard error; :func:`rejlab.bootstrap._pivots` gives
the scales and errors, :func:`rejlab._resampling.simultaneous_band_reference`
the construction. Standardising each replicate by its own error is the
bootstrap-t; it keeps its level where few samples are kept or rejected
(a sample that keeps no misclassified sample among the 40 it keeps is not
taken to be sure that A is 1), which the spread of the replicates alone did
not (the band ``estimate +- c s`` with s their standard deviation held the
whole curve on 84 % of samples of 400 at level 0.95). The differences of
:func:`compare_rejectors` get the sup-t band on their own scale, with s the
replicates' standard deviation. It assumes what the bootstrap does, for the
whole vector of values (independent samples, Beran 1988); it covers the
fractions asked for, not the values between them, and each measure on its
own.

Cost (:mod:`rejlab._resampling`): one sort of the sample, then O(n) per
replicate (its multiplicities walked along that fixed order); the replicate
values kept for the percentiles take 8 bytes per replicate and reported
number, hence at most 100,000 replicates.

:func:`holdout_optimism` resamples differently: it splits the samples at
random into a validation part and a test part, many times, to measure what
choosing the max-Q point on the test data itself adds to the reported Q.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple, Optional

import numpy as np

from ._constraints import accepts
from ._formulas import FORMULAS
from ._kinds import (
    BOOL_1D,
    CALLBACK,
    FINITE_1D,
    FRACTION_GRID,
    N_BOOT,
    OPEN_FRACTION,
    SEED,
    one_of,
)
from ._resampling import (
    Pivots,
    draws,
    multiplicity_chunks,
    quantiles,
    rejection_walk,
    simultaneous_band,
)
from .measures import classification_quality
from .partitions import THRESHOLD, reject_below
from .selective import aurc, select_threshold

__all__ = ["Band", "CurveBands", "RejectorComparison", "PointBands", "BAND_KINDS",
           "DEFAULT_BAND_FRACTIONS", "bootstrap_curves", "compare_rejectors", "bootstrap_threshold",
           "HoldoutOptimism", "holdout_optimism"]

#: Rejected fractions of :func:`bootstrap_curves` when none are given.
DEFAULT_BAND_FRACTIONS = np.linspace(0.0, 1.0, 101)

#: The kinds of band over fractions: each fraction on its own, or all fractions at once.
BAND_KINDS = ("pointwise", "simultaneous")

#: The resampling options the bootstrap functions share.
_RESAMPLING = dict(n_boot=N_BOOT, level=OPEN_FRACTION, seed=SEED, progress=CALLBACK)
#: ... and those of the bands over fractions.
_BANDS = dict(_RESAMPLING, fractions=FRACTION_GRID, band=one_of(BAND_KINDS))


class Band(NamedTuple):
    """A point estimate and its percentile-bootstrap interval (floats or arrays)."""

    estimate: object
    low: object
    high: object


class CurveBands(NamedTuple):
    """Bootstrap bands of A, Q, phi at rejected fractions, and of the max-Q point."""

    fractions: np.ndarray  #: rejected fractions f (each rejects round(f n) samples)
    A: Band                #: arrays over fractions
    Q: Band
    phi: Band
    best_Q: Band           #: the maximum of Q over the points a threshold reaches (scalars)
    best_r: Band           #: the r where it is reached, the least rejecting (scalars)
    band: str = "pointwise"          #: "pointwise" or "simultaneous" (A, Q, phi)
    level: Optional[float] = None    #: the level asked for
    critical_value: Optional[dict] = None
    """For a simultaneous band, by measure: how many standard errors the band reaches on
    either side of the estimate, on the measure's scale (logit for A and Q, log for phi; a
    difference's own, in units of its replicates' standard deviation); about 2 would be one
    fraction's."""


class RejectorComparison(NamedTuple):
    """Paired bootstrap of rejector 1 minus rejector 2 (same resampled samples for both)."""

    fractions: np.ndarray
    A: Band                #: A1 - A2 at each fraction
    Q: Band                #: Q1 - Q2 at each fraction
    aurc: Band             #: AURC1 - AURC2 (scalars; lower AURC is better)
    better: np.ndarray     #: "1", "2" or "neither" for Q at each fraction
    band: str = "pointwise"          #: "pointwise" or "simultaneous" (A, Q and so better)
    level: Optional[float] = None    #: the level asked for
    critical_value: Optional[dict] = None  #: as :attr:`CurveBands.critical_value`


class PointBands(NamedTuple):
    """Bootstrap bands of r, A, Q, phi at a fixed confidence threshold (scalar Bands).

    ``gain`` is Q minus alpha (the Q of rejecting nothing) on the *same*
    resamples: the paired band of what rejecting at this threshold adds
    (None where only the four measures were resampled).
    """

    r: Band
    A: Band
    Q: Band
    phi: Band
    gain: Optional[Band] = None


def _band(estimate, replicates, level):
    low, high = quantiles(replicates, level)
    if np.ndim(estimate) == 0:
        return Band(float(estimate), float(low), float(high))
    return Band(np.asarray(estimate, dtype=float), low, high)


#: The scale each measure's simultaneous band is built on (rejlab._resampling.SCALES): A and Q,
#: shares, on the logit scale; phi, a ratio of odds, on the log scale. The differences of
#: :func:`compare_rejectors` keep the sup-t band on their own scale.
_SCALE = {"A": "logit", "Q": "logit", "phi": "log"}


def _pivots(name, rejected, mr, m, n):
    """The measure ``name`` on its band's scale, and its standard error there, from the counts.

    Every count of the four cells of a rejector is given half a sample more
    (Haldane's correction), so that no value is infinite and no standard
    error 0 where a cell is empty: with ``an, mn, ar, mr`` the corrected
    |A∩N|, |M∩N|, |A∩R|, |M∩R|,

    - A: ``logit A = log(an / mn)``, standard error ``sqrt(1/an + 1/mn)``;
    - Q: ``log((an + mr) / (mn + ar))``, ``sqrt(1/(an + mr) + 1/(mn + ar))``;
    - phi: ``log phi = log(mr / ar) - log(m / a)`` with ``m = mr + mn``,
      ``a = ar + an``, ``sqrt(1/mr - 1/m + 1/ar - 1/a)`` (the delta method's
      variance of the log of the ratio of two odds); where nothing is
      rejected or nothing kept, phi is 1 on every resample: 0, no error.

    Rows as ``mr`` (the sample, then the replicates), columns the fractions.
    """
    mn = m[:, None] - mr
    ar = rejected[None, :] - mr
    an = (n - m)[:, None] - ar
    an, mn, ar, mr = (np.asarray(x, dtype=float) + 0.5 for x in (an, mn, ar, mr))
    if name == "A":
        return Pivots(np.log(an / mn), np.sqrt(1 / an + 1 / mn))
    if name == "Q":
        good, bad = an + mr, mn + ar
        return Pivots(np.log(good / bad), np.sqrt(1 / good + 1 / bad))
    mis, acc = mr + mn, ar + an
    fixed = np.broadcast_to((rejected == 0) | (rejected == n), mr.shape)   # phi is 1
    return Pivots(np.where(fixed, 0.0, np.log(mr / ar) - np.log(mis / acc)),
                  np.where(fixed, 0.0, np.sqrt(1 / mr - 1 / mis + 1 / ar - 1 / acc)))


def _curve_bands(estimates, replicates, level, kind, pivots=None):
    """Bands over fractions of each measure (by name), of the ``kind`` asked, and critical values.

    With ``pivots`` (a measure's name to its :class:`~rejlab._resampling.Pivots`, made one
    measure at a time) the simultaneous bands are the studentized ones on each measure's
    scale (:data:`_SCALE`); without, the sup-t band on the values.
    """
    if kind == "pointwise":
        return {name: _band(estimates[name], replicates[name], level) for name in replicates}, None
    bands, critical = {}, {}
    for name, values in replicates.items():
        how = ("identity", None) if pivots is None else (_SCALE[name], pivots(name))
        low, high, critical[name] = simultaneous_band(estimates[name], values, level, *how)
        bands[name] = Band(np.asarray(estimates[name], dtype=float), low, high)
    return bands, critical


def _measures(rejected, mr, m, n, names=("A", "Q", "phi")):
    """A, Q, phi (by name) from rejected counts and |M∩R| (rows of replicates, |M| per row)."""
    mn = m[:, None] - mr
    ar = rejected[None, :] - mr
    an = (n - m)[:, None] - ar
    return {name: FORMULAS[name](an, mn, ar, mr) for name in names}


def _setup(fractions, n):
    """The fractions (the default grid when None) and the counts they reject, round(f n)."""
    fr = DEFAULT_BAND_FRACTIONS.copy() if fractions is None else fractions
    return fr, np.rint(fr * n).astype(np.int64)   # as reject_lowest


def _walked(walks, n, n_boot, seed, progress):
    """Row 0: the sample itself; rows 1 .. n_boot: the replicates, walked by every walk."""
    for walk in walks:
        walk.add(np.ones(n, dtype=np.int32), 0)
    for row, d in enumerate(draws(n, n_boot, seed, progress), start=1):
        w = None
        for walk in walks:
            if hasattr(walk, "add_draws"):      # a tied walk counts its groups from the draws
                walk.add_draws(d, row)
                continue
            if w is None:
                w = np.bincount(d, minlength=n)
            walk.add(w, row)
    return [walk.counts() for walk in walks]


@accepts(accurate=BOOL_1D, confidence=FINITE_1D, **_BANDS, same_length=("accurate", "confidence"))
def bootstrap_curves(accurate, confidence, *, fractions=None, n_boot=1000, level=0.95, seed=None,
                     band="pointwise", progress=None):
    """Percentile-bootstrap bands of A, Q, phi at rejected fractions, and of the max-Q point.

    For each fraction f, ``round(f n)`` samples are rejected (a group of
    equal confidences cut through: the expectation over its orders), on
    the original sample (the ``estimate``) and on
    each of ``n_boot`` resamples (the module notes give the resampling and
    the two kinds of band). A simultaneous band reaches ``critical_value``
    standard errors on either side of the estimate on each measure's scale
    (logit for A and Q, log for phi) and is at least as wide as the
    pointwise band everywhere. ``best_Q`` is
    the maximum of Q over the points a threshold reaches and ``best_r`` the
    r where it is reached (the least rejecting on ties; on the sample, the
    report's maximum-Q point), each with its band: the max-Q point wanders
    from sample to sample.

    Parameters
    ----------
    accurate : array-like of bool, shape (n,)
    confidence : array-like of float, shape (n,)
    fractions : array-like of float in [0, 1], keyword-only
        Default ``np.linspace(0, 1, 101)``.
    n_boot : int in 1 .. 100,000, keyword-only, default 1000
    level : float in (0, 1), keyword-only, default 0.95
    seed : int, Generator or None, keyword-only
        For ``numpy.random.default_rng``; the same seed gives the same bands.
    band : "pointwise" or "simultaneous", keyword-only, default "pointwise"
    progress : callable, keyword-only, optional
        Called with the fraction of replicates done, every few replicates.

    Returns
    -------
    CurveBands
        ``fractions``, ``A``, ``Q``, ``phi`` (Bands of arrays), ``best_Q``,
        ``best_r`` (Bands of floats), ``band``, ``level`` and ``critical_value``.

    Examples
    --------
    >>> from rejlab.datasets import four_gaussians
    >>> toy = four_gaussians(50, seed=0)
    >>> bands = bootstrap_curves(toy.accurate, toy.confidence(), fractions=[0, 0.2],
    ...                          n_boot=200, seed=0)
    >>> bands.Q.estimate
    array([0.68, 0.72])
    >>> bool(bands.Q.low[1] < bands.Q.estimate[1] < bands.Q.high[1])
    True
    >>> wide = bootstrap_curves(toy.accurate, toy.confidence(), fractions=[0, 0.2],
    ...                         n_boot=200, seed=0, band="simultaneous")
    >>> bool(wide.critical_value["Q"] > 1.9 and wide.Q.low[1] <= bands.Q.low[1])
    True
    """
    a, c = accurate, confidence
    n = a.size
    fr, rejected = _setup(fractions, n)
    (counts,) = _walked([rejection_walk(a, c, rejected, n_boot + 1)], n, n_boot, seed, progress)
    values = _measures(rejected, counts.mr, counts.m, n)
    pivots = partial(_pivots, rejected=rejected, mr=counts.mr, m=counts.m, n=n)
    bands, critical = _curve_bands({k: x[0] for k, x in values.items()},
                                 {k: x[1:] for k, x in values.items()}, level, band, pivots)
    best_Q, best_r = (((n - counts.m) + counts.best_g) / n, counts.best_j / n)
    best_Q, best_r = (_band(x[0], x[1:], level) for x in (best_Q, best_r))
    return CurveBands(fr, bands["A"], bands["Q"], bands["phi"], best_Q, best_r, band, level,
                      critical)


@accepts(accurate=BOOL_1D, confidence_1=FINITE_1D, confidence_2=FINITE_1D, **_BANDS,
         same_length=("accurate", "confidence_1", "confidence_2"))
def compare_rejectors(accurate, confidence_1, confidence_2, *, fractions=None, n_boot=1000,
                      level=0.95, seed=None, band="pointwise", progress=None):
    """Paired percentile bootstrap of two rejectors on the same predictions: 1 minus 2.

    Each replicate resamples the samples once and evaluates both rejectors
    on it, so the differences ``A1 - A2``, ``Q1 - Q2`` (``round(f n)``
    rejected at each fraction f, ties as in :func:`bootstrap_curves`) and
    ``AURC1 - AURC2`` (:func:`rejlab.aurc`, ties averaged: the estimate is
    ``aurc(accurate, confidence_1) - aurc(accurate, confidence_2)``) keep
    the correlation between the two: a paired interval is much narrower
    than two separate ones. ``better[i]`` is ``"1"`` when the Q band lies
    above 0, ``"2"`` when below, ``"neither"`` when it contains 0; with
    pointwise bands, "1" at one fraction in twenty is expected by chance
    alone where the rejectors do not differ, with ``band="simultaneous"``
    every "1" or "2" holds at once. The parameters are those of
    :func:`bootstrap_curves`.

    Returns
    -------
    RejectorComparison

    Examples
    --------
    >>> from rejlab.datasets import four_gaussians
    >>> toy = four_gaussians(50, seed=0)
    >>> cmp = compare_rejectors(toy.accurate, toy.confidence("max_probability"),
    ...                         toy.confidence("breaking_ties"), fractions=[0, 0.2],
    ...                         n_boot=200, seed=0)
    >>> cmp.Q.estimate, cmp.better
    (array([0., 0.]), array(['neither', 'neither'], dtype='<U7'))
    """
    a, c1, c2 = accurate, confidence_1, confidence_2
    n = a.size
    fr, rejected = _setup(fractions, n)
    one, two = _walked([rejection_walk(a, conf, rejected, n_boot + 1, aurc=True)
                        for conf in (c1, c2)], n, n_boot, seed, progress)
    m1, m2 = (_measures(rejected, cc.mr, cc.m, n, ("A", "Q")) for cc in (one, two))
    diff = {k: m1[k] - m2[k] for k in m1}
    bands, critical = _curve_bands({k: x[0] for k, x in diff.items()},
                                 {k: x[1:] for k, x in diff.items()}, level, band)
    # ties averaged, as the replicates
    d_aurc = _band(aurc(a, c1) - aurc(a, c2), (one.aurc - two.aurc)[1:], level)
    q = bands["Q"]
    better = np.where(q.low > 0, "1", np.where(q.high < 0, "2", "neither"))
    return RejectorComparison(fr, bands["A"], q, d_aurc, better, band, level, critical)


@accepts(accurate=BOOL_1D, confidence=FINITE_1D, threshold=THRESHOLD, **_RESAMPLING,
         same_length=("accurate", "confidence"))
def bootstrap_threshold(accurate, confidence, threshold, *, n_boot=1000, level=0.95, seed=None,
                        progress=None):
    """Bootstrap bands of r, A, Q, phi for a fixed threshold rejector ``confidence < threshold``.

    The honest report of a threshold chosen on validation data
    (:func:`rejlab.select_threshold`) and applied to test data: the
    threshold stays fixed, so on each resample of the test data r moves as
    well as A, Q and phi. The bands are conditional on the threshold: how
    much the test data's numbers wobble for *this* threshold, not how much a
    threshold chosen on another validation sample would move them. The
    resampling, ``n_boot``, ``level``, ``seed`` and ``progress`` are those of
    :func:`bootstrap_curves`; ``threshold`` is a number or a ``Threshold``, as
    for :func:`rejlab.reject_below`.

    Returns
    -------
    PointBands

    Examples
    --------
    >>> from rejlab.datasets import four_gaussians
    >>> toy = four_gaussians(50, seed=0)
    >>> pb = bootstrap_threshold(toy.accurate, toy.confidence(), 0.5, n_boot=200, seed=0)
    >>> pb.r.estimate, pb.Q.estimate
    (0.155, 0.725)
    """
    a, n = accurate, accurate.size
    rejected = reject_below(confidence, threshold)
    # rejected copies, misclassified rejected copies, misclassified copies: the sample, then
    # each replicate (no walk: a fixed threshold rejects the same samples on every resample)
    masks = np.column_stack([rejected, rejected & ~a, ~a]).astype(np.int64)
    rw, mr, m = np.concatenate([masks.sum(axis=0)[None]] + [
        w @ masks for w in multiplicity_chunks(n, n_boot, seed, progress=progress)]).T
    ar = rw - mr
    values = [FORMULAS[name]((n - m) - ar, m - mr, ar, mr) for name in ("r", "A", "Q", "phi")]
    # Q - alpha = (|M∩R| - |A∩R|) / n, exact in counts on every resample
    values.append((mr - ar) / n)
    return PointBands(*(_band(x[0], x[1:], level) for x in values))


# --- choosing on the data one reports on ---------------------------------------------


class HoldoutOptimism(NamedTuple):
    """Random validation / test splits: the test part's max Q against the honest Q (one per split)."""

    alpha: np.ndarray     #: accuracy of each test part (Q of rejecting nothing)
    apparent: np.ndarray  #: max Q of each test part, chosen and measured on it
    honest: np.ndarray    #: Q on each test part at the threshold chosen on its validation part

    @property
    def optimism(self):
        """Mean of ``apparent - honest``: what choosing on the reported data adds to Q."""
        return float(np.mean(self.apparent - self.honest))


@accepts(accurate=BOOL_1D, confidence=FINITE_1D, n_splits=N_BOOT,
         validation_fraction=OPEN_FRACTION, seed=SEED, same_length=("accurate", "confidence"))
def holdout_optimism(accurate, confidence, *, n_splits=200, validation_fraction=0.5, seed=None):
    """How optimistic the max-Q point is when it is chosen on the data it is reported on.

    Each of ``n_splits`` splits draws a random permutation
    (``numpy.random.default_rng(seed)``, splits in order) and puts its first
    ``round(validation_fraction n)`` samples in a validation part, the rest
    in a test part. On the test part, ``apparent`` is its own max Q
    (:func:`rejlab.select_threshold`, chosen and measured there) and
    ``honest`` its Q at the threshold chosen on the validation part. The two
    parts are independent samples of one population, so
    :attr:`HoldoutOptimism.optimism` = mean(apparent - honest) estimates how
    much the reported max Q of a test set of that size overstates what the
    chosen threshold is worth on fresh data.

    Parameters
    ----------
    accurate : array-like of bool, shape (n,)
    confidence : array-like of float, shape (n,)
    n_splits : int in 1 .. 100,000, keyword-only, default 200
    validation_fraction : float in (0, 1), keyword-only, default 0.5
        Both parts must hold at least one sample.
    seed : int, Generator or None, keyword-only

    Returns
    -------
    HoldoutOptimism
        Arrays ``alpha``, ``apparent``, ``honest`` (one value per split) and
        the property ``optimism``.

    Examples
    --------
    >>> from rejlab.datasets import four_gaussians
    >>> toy = four_gaussians(300, seed=0)
    >>> ho = holdout_optimism(toy.accurate, toy.confidence(), n_splits=50, seed=0)
    >>> ho.apparent.shape, bool(ho.optimism > 0)
    ((50,), True)
    """
    a, c, fraction = accurate, confidence, validation_fraction
    rng = np.random.default_rng(seed)
    n = a.size
    m = round(fraction * n)
    if not 0 < m < n:
        raise ValueError(f"validation_fraction = {fraction!r} leaves an empty part of "
                         f"{n} samples (each part needs at least one)")
    out = np.empty((3, n_splits))
    for i in range(n_splits):
        perm = rng.permutation(n)
        val, test = perm[:m], perm[m:]
        chosen = select_threshold(a[val], c[val])
        out[0, i] = np.mean(a[test])
        out[1, i] = select_threshold(a[test], c[test]).Q
        out[2, i] = classification_quality(a[test],
                                                     reject_below(c[test], chosen.value))
    return HoldoutOptimism(*out)
