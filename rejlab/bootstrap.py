"""How sure are we? Percentile-bootstrap bands on A, Q, phi and paired comparisons.

The measures of Condessa et al. 2017 are computed on one sample; another
sample of the same size gives other numbers. The percentile bootstrap
(Efron & Tibshirani 1993, Ch. 13) estimates that wobble: draw n indices with
replacement, recompute, repeat ``n_boot`` times, and report the
``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles of the replicate values
(linear interpolation between order statistics, NumPy's default; replicates
whose value is NaN are left out; an infinite order statistic gives an
infinite bound).

Conventions. Replicate b draws ``rng.integers(0, n, size=n)`` from
``numpy.random.default_rng(seed)``, replicates in order; a replicate is the
multiset of the drawn samples, taken in their original index order, so the
default tie policy (confidence ascending, then sample index ascending) holds
on it, and copies of one sample are interchangeable. The value at a rejected
fraction f rejects ``round(f n)`` samples, as :func:`rejlab.reject_lowest`.

:func:`holdout_optimism` resamples differently: it splits the samples at
random into a validation part and a test part, many times, to measure what
choosing the max-Q point on the test data itself adds to the reported Q.

Algorithm. One sort of the original sample (the library's rejection order).
A replicate is then a vector of multiplicities along that fixed order
(a bincount of the drawn indices); cumulative sums of the multiplicities and
of the signed multiplicities (+1 accurate, -1 misclassified) give every
count the measures need, without sorting a replicate and without a Python
loop over samples. Replicates are processed in chunks of about 2^18 numbers
(int32 work arrays of 1 MB; beyond n = 2^18 one replicate at a time, a few
arrays of n), so the work does not grow with ``n_boot``. What grows with ``n_boot`` is the replicates' values, kept for
the percentiles: 8 bytes per replicate and reported number (about 2.5 KB per
replicate with the 101 default fractions), hence at most 100,000 replicates.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

import numpy as np

from . import _validate as v
from ._ranking import order
from .measures import classification_quality, measures_from_counts
from .partitions import reject_below
from .selective import aurc, select_threshold

__all__ = [
    "Band",
    "CurveBands",
    "RejectorComparison",
    "PointBands",
    "DEFAULT_BAND_FRACTIONS",
    "bootstrap_curves",
    "compare_rejectors",
    "bootstrap_threshold",
    "HoldoutOptimism",
    "holdout_optimism",
]

#: Rejected fractions of :func:`bootstrap_curves` when none are given.
DEFAULT_BAND_FRACTIONS = np.linspace(0.0, 1.0, 101)

# numbers per chunk of replicates (each of the half-dozen work arrays is 1-2 MB)
_CHUNK = 2**18


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
    best_Q: Band           #: the maximum of Q over k = 0 .. n (scalars)
    best_r: Band           #: the r where it is reached, first on ties (scalars)


class RejectorComparison(NamedTuple):
    """Paired bootstrap of rejector 1 minus rejector 2 (same resampled samples for both)."""

    fractions: np.ndarray
    A: Band                #: A1 - A2 at each fraction
    Q: Band                #: Q1 - Q2 at each fraction
    aurc: Band             #: AURC1 - AURC2 (scalars; lower AURC is better)
    better: np.ndarray     #: "1", "2" or "neither" for Q at each fraction


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


# --- the machinery -----------------------------------------------------------------


def _quantiles(values, level):
    """Low and high percentile-bootstrap bounds along axis 0, NaN left out.

    Linear interpolation between order statistics (NumPy's "linear"
    method); where an order statistic involved is infinite the bound is that
    infinity (NumPy would return NaN for inf - inf); NaN where every
    replicate is NaN.
    """
    vals = np.sort(values, axis=0)                     # NaN sort last
    m = np.count_nonzero(~np.isnan(vals), axis=0)
    out = []
    for q in ((1.0 - level) / 2, (1.0 + level) / 2):
        h = q * np.maximum(m - 1, 0)
        i0 = np.floor(h).astype(np.int64)
        i1 = np.minimum(i0 + 1, np.maximum(m - 1, 0))
        t = h - i0
        a = np.take_along_axis(vals, i0[None], axis=0)[0]
        b = np.take_along_axis(vals, i1[None], axis=0)[0]
        with np.errstate(invalid="ignore"):
            d = b - a
            res = np.where(t >= 0.5, b - d * (1 - t), a + d * t)
        res = np.where((t == 0) | (a == b), a, res)
        res = np.where(np.isinf(a), a, np.where(np.isinf(b) & (t > 0), b, res))
        out.append(np.where(m > 0, res, np.nan))
    return out


def _band(estimate, replicates, level):
    low, high = _quantiles(replicates, level)
    if np.ndim(estimate) == 0:
        return Band(float(estimate), float(low), float(high))
    return Band(np.asarray(estimate, dtype=float), low, high)


def _weight_chunks(n, n_boot, seed, progress=None):
    """Multiplicities of the samples (original order), ``(chunk, n)`` int64, chunk by chunk.

    ``progress``, if given, is called with the fraction of replicates done
    after each chunk has been used.
    """
    rng = np.random.default_rng(seed)
    per = max(1, _CHUNK // n)
    for start in range(0, n_boot, per):
        c = min(per, n_boot - start)
        idx = np.empty((c, n), dtype=np.int64)
        for row in idx:
            row[:] = rng.integers(0, n, size=n)
        idx += (np.arange(c, dtype=np.int64) * n)[:, None]
        # counts, sums and positions stay below 2 n: int32 halves the memory traffic
        yield np.bincount(idx.ravel(), minlength=c * n).reshape(c, n).astype(_int_type(n))
        if progress is not None:
            progress((start + c) / n_boot)


class _Ranking:
    """One rejector's fixed rejection order and the counts along it.

    For the multiplicities ``w`` of one replicate along the order (least
    confident first) two cumulative sums tell everything: ``J = cumsum(w)``,
    the number of rejected samples once the copies of the i first samples
    are rejected, and ``g = cumsum(+-w)`` (+1 misclassified, -1 accurate),
    so that ``|M∩R| = (J + g) / 2`` there and ``Q n = |A| + g``.
    """

    def __init__(self, accurate, confidence):
        self.n = accurate.size
        self.order = order(confidence)
        acc = accurate[self.order]
        self.mis = (~acc).astype(np.int64)
        self.sign = np.where(acc, -1, 1).astype(_int_type(self.n))
        self.mis_at = np.flatnonzero(~acc)
        self._harmonic = None

    def cumulate(self, counts):
        """``w, J, g`` along the order, and the misclassified count ``m`` of each row."""
        dtype = _int_type(self.n)
        w = np.take(counts, self.order, axis=1)
        g = np.cumsum(w * self.sign, axis=1, dtype=dtype)
        J = np.cumsum(w, axis=1, dtype=dtype)
        return w, J, g, (self.n + g[:, -1].astype(np.int64)) >> 1

    def rejected_errors(self, J, g, rejected):
        """``|M∩R|`` after rejecting each count in ``rejected``, for each row.

        Copies of one sample are interchangeable: position j falls in the
        block of copies of sample i with ``J[i-1] < j <= J[i]``, so
        ``|M∩R| = (J_i + g_i) / 2 - mis_i (J_i - j)``.
        """
        i = np.stack([np.searchsorted(row, rejected) for row in J])
        Ji = np.take_along_axis(J, i, axis=1)
        gi = np.take_along_axis(g, i, axis=1)
        Ji, gi = Ji.astype(np.int64), gi.astype(np.int64)
        mr = ((Ji + gi) >> 1) - self.mis[i] * (Ji - rejected[None, :])
        return np.where(rejected[None, :] > 0, mr, 0)

    @staticmethod
    def best(J, g):
        """``max(0, max g)`` and the rejected count where Q = (|A| + g) / n peaks, first on ties.

        Inside a block of copies g moves by +-1 per position, so the maximum
        is at a block end, or at j = 0 (g = 0).
        """
        gmax = g.max(axis=1)
        first = np.argmax(g, axis=1)
        j = np.where(gmax > 0, J[np.arange(len(J)), first], 0)
        return np.maximum(gmax, 0).astype(np.int64), j

    def aurc(self, w, J, m):
        """AURC of each row, ``(1/n) sum_{j=0..n-1} E_{n-j} / (n - j)``, in closed form.

        ``E_{n-j} = m - |M∩R|_j``. Summing by parts over the blocks of copies,
        only the misclassified samples i remain:
        ``n AURC = m H_n - sum_i [w_i H_{n-J_i} + (n - p_i)(H_{n-p_i} - H_{n-J_i}) - w_i]``
        with ``p_i = J_i - w_i`` and H the harmonic numbers. Equal to
        :func:`rejlab.aurc` on the resampled data up to rounding (about
        1e-12 relative).
        """
        n = self.n
        if self._harmonic is None:   # H_{n - x} for x = 0 .. n
            self._harmonic = np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, n + 1))])[::-1].copy()
        Hr = self._harmonic
        wm = np.take(w, self.mis_at, axis=1)
        q = np.take(J, self.mis_at, axis=1)
        p = q - wm                                    # below n: no overflow
        Hq = np.take(Hr, q)
        terms = wm * (Hq - 1.0)
        terms += (n - p).astype(float) * (np.take(Hr, p) - Hq)
        return (m * Hr[0] - terms.sum(axis=1)) / n


def _measures(rejected, mr, m, n):
    """r, A, Q, phi from rejected counts and |M∩R| (rows of replicates, m = |M| per row)."""
    mn = m[:, None] - mr
    ar = rejected[None, :] - mr
    return measures_from_counts((n - m)[:, None] - ar, mn, ar, mr)


def _setup(fractions, n_boot, level, seed, n):
    fr = DEFAULT_BAND_FRACTIONS.copy() if fractions is None else v.fraction_grid(fractions, "fractions")
    n_boot = v.n_boot(n_boot)
    level = v.open_fraction(level, "level")
    seed = v.seed(seed)
    rejected = np.rint(fr * n).astype(np.int64)   # round(f n), as reject_lowest
    return fr, n_boot, level, seed, rejected


def _ones(n):
    return np.ones((1, n), dtype=_int_type(n))


def _int_type(n):
    return np.int32 if n < 2**29 else np.int64


# --- public functions ----------------------------------------------------------------


def bootstrap_curves(accurate, confidence, *, fractions=None, n_boot=1000, level=0.95, seed=None,
                     progress=None):
    """Percentile-bootstrap bands of A, Q, phi at rejected fractions, and of the max-Q point.

    For each fraction f, ``round(f n)`` samples are rejected under the
    default tie policy, on the original sample (the ``estimate``) and on
    each of ``n_boot`` resamples; a band is the ``(1 - level)/2`` and
    ``(1 + level)/2`` quantiles of the replicate values (Efron & Tibshirani
    1993, percentile interval), NaN replicates left out. ``best_Q`` is the
    maximum of Q over k = 0 .. n and ``best_r`` the r where it is reached
    (first on ties), each with its band: the max-Q point wanders from sample
    to sample. One sort, then O(n) per replicate (see the module notes).

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
    progress : callable, keyword-only, optional
        Called with the fraction of replicates done, after each chunk of
        replicates (for a progress bar).

    Returns
    -------
    CurveBands
        ``fractions``, ``A``, ``Q``, ``phi`` (Bands of arrays), ``best_Q``,
        ``best_r`` (Bands of floats).

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
    """
    a, c = v.accurate_and_confidence(accurate, confidence)
    n = a.size
    fr, n_boot, level, seed, rejected = _setup(fractions, n_boot, level, seed, n)
    progress = v.callback(progress, "progress")
    rank = _Ranking(a, c)

    def stats(counts):
        _, J, g, m = rank.cumulate(counts)
        _, A, Q, phi = _measures(rejected, rank.rejected_errors(J, g, rejected), m, n)
        gbest, jbest = rank.best(J, g)
        return A, Q, phi, ((n - m) + gbest) / n, jbest / n

    est = stats(_ones(n))
    reps = [stats(chunk) for chunk in _weight_chunks(n, n_boot, seed, progress)]
    A, Q, phi, bq, br = (np.concatenate(parts) for parts in zip(*reps))
    return CurveBands(fr, _band(est[0][0], A, level), _band(est[1][0], Q, level),
                      _band(est[2][0], phi, level), _band(est[3][0], bq, level),
                      _band(est[4][0], br, level))


def compare_rejectors(accurate, confidence_1, confidence_2, *, fractions=None, n_boot=1000,
                      level=0.95, seed=None, progress=None):
    """Paired percentile bootstrap of two rejectors on the same predictions: 1 minus 2.

    Each replicate resamples the samples once and evaluates both
    rejectors on that same resample, so the differences ``A1 - A2``,
    ``Q1 - Q2`` (at each rejected fraction, ``round(f n)`` rejected) and
    ``AURC1 - AURC2`` (:func:`rejlab.aurc`, ties by index) keep the
    correlation between the two: a paired interval is much narrower than two
    separate ones. ``better[i]`` is ``"1"`` when the Q band lies above 0,
    ``"2"`` when below, ``"neither"`` when it contains 0. The parameters are
    those of :func:`bootstrap_curves` (``progress`` included).

    Returns
    -------
    RejectorComparison
        ``fractions``, ``A``, ``Q``, ``aurc`` (Bands of the differences) and ``better``.

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
    a, c1 = v.accurate_and_confidence(accurate, confidence_1, "confidence_1")
    c2 = v.as_finite_1d(confidence_2, "confidence_2")
    v.same_length(accurate=a, confidence_2=c2)
    n = a.size
    fr, n_boot, level, seed, rejected = _setup(fractions, n_boot, level, seed, n)
    progress = v.callback(progress, "progress")
    ranks = (_Ranking(a, c1), _Ranking(a, c2))

    def stats(counts, with_aurc=True):
        out = []
        for rank in ranks:
            w, J, g, m = rank.cumulate(counts)
            _, A, Q, _ = _measures(rejected, rank.rejected_errors(J, g, rejected), m, n)
            out.append((A, Q, rank.aurc(w, J, m) if with_aurc else None))
        (A1, Q1, u1), (A2, Q2, u2) = out
        return A1 - A2, Q1 - Q2, (u1 - u2) if with_aurc else None

    dA, dQ, _ = stats(_ones(n), with_aurc=False)
    d_aurc = aurc(a, c1, ties="index") - aurc(a, c2, ties="index")   # as the replicates
    reps = [stats(chunk) for chunk in _weight_chunks(n, n_boot, seed, progress)]
    A, Q, U = (np.concatenate(parts) for parts in zip(*reps))
    Qb = _band(dQ[0], Q, level)
    better = np.where(Qb.low > 0, "1", np.where(Qb.high < 0, "2", "neither"))
    return RejectorComparison(fr, _band(dA[0], A, level), Qb, _band(d_aurc, U, level), better)


def bootstrap_threshold(accurate, confidence, threshold, *, n_boot=1000, level=0.95, seed=None,
                        progress=None):
    """Bootstrap bands of r, A, Q, phi for a fixed threshold rejector ``confidence < threshold``.

    The honest report of a threshold chosen on validation data
    (:func:`rejlab.select_threshold`) and applied to test data: the
    threshold stays fixed, so on each resample of the test data the
    rejected fraction r moves as well as A, Q and phi. Same resampling as
    :func:`bootstrap_curves` (the same seed draws the same resamples).

    Parameters
    ----------
    threshold : float or Threshold
        As :func:`rejlab.reject_below`.
    n_boot, level, seed, progress
        As :func:`bootstrap_curves`.

    Returns
    -------
    PointBands
        Scalar Bands ``r``, ``A``, ``Q``, ``phi``, and ``gain``: Q minus
        alpha on the same resamples, the paired band of what rejecting at
        this threshold adds over rejecting nothing.

    Examples
    --------
    >>> from rejlab.datasets import four_gaussians
    >>> toy = four_gaussians(50, seed=0)
    >>> pb = bootstrap_threshold(toy.accurate, toy.confidence(), 0.5, n_boot=200, seed=0)
    >>> pb.r.estimate, pb.Q.estimate
    (0.155, 0.725)
    """
    a, c = v.accurate_and_confidence(accurate, confidence)
    n_rej = int(np.count_nonzero(reject_below(c, threshold)))
    n = a.size
    n_boot = v.n_boot(n_boot)
    level = v.open_fraction(level, "level")
    seed = v.seed(seed)
    progress = v.callback(progress, "progress")
    rank = _Ranking(a, c)   # the rejected samples are the n_rej first in its order

    def stats(counts):
        _, J, g, m = rank.cumulate(counts)
        if n_rej == 0:
            rw = mr = np.zeros(len(counts), dtype=np.int64)
        else:
            rw = J[:, n_rej - 1].astype(np.int64)      # rejected copies
            mr = (rw + g[:, n_rej - 1]) >> 1           # misclassified among them
        ar = rw - mr
        measures = measures_from_counts((n - m) - ar, m - mr, ar, mr)
        # Q - alpha = (|M∩R| - |A∩R|) / n, exact in counts on every resample
        return (*measures, (mr - ar) / n)

    est = stats(_ones(n))
    reps = [stats(chunk) for chunk in _weight_chunks(n, n_boot, seed, progress)]
    vals = [np.concatenate(parts) for parts in zip(*reps)]
    return PointBands(*(_band(e[0], r, level) for e, r in zip(est, vals)))


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


def holdout_optimism(accurate, confidence, *, n_splits=200, validation_fraction=0.5, seed=None):
    """How optimistic the max-Q point is when it is chosen on the data it is reported on.

    Each of ``n_splits`` splits draws a random permutation
    (``numpy.random.default_rng(seed)``, splits in order) and puts its first
    ``round(validation_fraction n)`` samples in a validation part, the rest
    in a test part. On the test part, ``apparent`` is its own max Q
    (:func:`rejlab.select_threshold`, criterion "max_Q", chosen and measured
    there) and ``honest`` is its Q at the threshold chosen on the validation
    part (:func:`rejlab.reject_below`). The two parts are independent
    samples of the same population, so the mean of ``honest`` is what the
    chosen threshold is worth on fresh data, and
    :attr:`HoldoutOptimism.optimism` = mean(apparent - honest) estimates how
    much the reported max Q of a test set of that size overstates it. One
    loop over splits (each sorts its two parts), none over samples.

    Parameters
    ----------
    accurate : array-like of bool, shape (n,)
    confidence : array-like of float, shape (n,)
    n_splits : int >= 1, keyword-only, default 200
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
    a, c = v.accurate_and_confidence(accurate, confidence)
    n_splits = v.positive_integer(n_splits, "n_splits")
    fraction = v.open_fraction(validation_fraction, "validation_fraction")
    rng = np.random.default_rng(v.seed(seed))
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
        out[2, i] = classification_quality(a[test], reject_below(c[test], chosen))
    return HoldoutOptimism(*out)
