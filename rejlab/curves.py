"""The measures at every number of rejected samples: one ranking, then counts along it.

``rejection_curves(accurate, confidence)`` gives r, A, Q and phi for every
k = 0 .. n rejected samples under the default tie policy (confidence
ascending, then sample index ascending; :mod:`rejlab.partitions`), from one
ranking (:func:`rejlab._ranking.ranked`) and a cumulative sum: O(n log n),
no loop over samples. The curves hold integer counts; each measure is
computed from them on first use by the formulas of :mod:`rejlab._formulas`,
the same ones :func:`rejlab.measures_from_counts` uses.

Which summaries depend on the order of the rows: a point k that splits a
group of equal confidences counts the group's first members by sample index,
so its A, Q and phi (and everything read off single points: ``best_Q``,
``min_cost``) may change when tied rows are shuffled. The points
``thresholds_only=True`` keeps never split a group, and so never depend on
the order of the rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Optional

import numpy as np

from . import _validate as v
from ._constraints import accepts
from ._formulas import FORMULAS, OF_SUMS, Sums
from ._kinds import BOOL_1D, FINITE_1D, FLAG, INDICES, INTEGER, SINGLE_FRACTION, instance, integer
from ._ranking import CHUNK, ranked
from .measures import MEASURE_NAMES, OperatingPoint, SubsetCounts

__all__ = ["CURVE_FIELDS", "DISPLAY_POINTS", "FIELDS", "FIELD_CHUNK", "RejectionCurves", "rejection_curves",
           "subsample_curves"]

#: The per-point fields of :class:`RejectionCurves` after ``n_rejected``.
CURVE_FIELDS = ("r", *MEASURE_NAMES)

#: Points of a curve worth drawing: longer curves are thinned to this many
#: (:func:`subsample_curves`) before a figure shows them.
DISPLAY_POINTS = 4000

#: Every field :meth:`RejectionCurves.compute` computes from the counts.
FIELDS = (*CURVE_FIELDS, "rho_0")

#: Points per chunk of :meth:`RejectionCurves.compute`: its half-dozen float64
#: scratch buffers (256 KB each) stay in cache
FIELD_CHUNK = 1 << 15


@dataclass(frozen=True, eq=False, repr=False)
class RejectionCurves:
    """r, A, Q and phi for every number of rejected samples ("Curves").

    Attributes
    ----------
    n_rejected : int array
        Number of rejected samples |R| at each point (0 .. n).
    r, A, Q, phi : float arrays
        The measures at each point (A is NaN where nothing is kept).
    counts : SubsetCounts
        The four subset sizes at each point, as int arrays.

    The curves store |A∩R| at each point (``n_accurate_rejected``) and the
    points' |R| when they are not every k = 0 .. n; ``n_rejected`` and each
    measure are computed from these integer counts on first use and kept,
    so a caller that reads only Q never holds r, A or phi (a curve of 10^7
    samples has 10^7 + 1 points).
    """

    n_accurate_rejected: np.ndarray
    n_samples: int
    n_accurate: int
    points: Optional[np.ndarray] = None  #: |R| of each point; None: every k = 0 .. n

    @cached_property
    def n_rejected(self):
        """|R| at each point (int64)."""
        if self.points is None:
            return np.arange(self.n_samples + 1, dtype=np.int64)
        return self.points

    @cached_property
    def r(self):
        """``r = |R| / n`` at each point."""
        return self.compute("r")[0]

    @cached_property
    def A(self):
        """``A = |A∩N| / |N|`` at each point; NaN where nothing is kept."""
        return self.compute("A")[0]

    @cached_property
    def Q(self):
        """``Q = (|A∩N| + |M∩R|) / n`` at each point."""
        return self.compute("Q")[0]

    @cached_property
    def phi(self):
        """``phi = (|M∩R| / |A∩R|) / (|M| / |A|)`` at each point.

        Edge cases as :func:`rejlab.measures_from_counts`.
        """
        return self.compute("phi")[0]

    @cached_property
    def rho_0(self):
        """rho_0 of every point against no rejection: ``|M∩R| / |R|``, NaN where |R| = 0.

        Condessa et al. 2017, Sec. 4: rejecting these samples beats not
        rejecting at all iff the price of rejection rho is below rho_0.
        Computed from the integer counts, so it is exactly 0 where only
        accurate samples were rejected and exactly 1 where only
        misclassified ones were.
        """
        return self.compute("rho_0")[0]

    def compute(self, *names):
        """The fields ``names`` (of "r", "A", "Q", "phi", "rho_0"), in one pass over the counts.

        Each field is its formula from :mod:`rejlab._formulas` applied chunk
        by chunk into one output array; the subset counts of a chunk are
        derived from |A∩R| and |R| once for all the fields asked for, into
        scratch buffers of :data:`FIELD_CHUNK` numbers reused from chunk to
        chunk (small enough to stay in the core's cache), so the only
        n-length arrays made are the results. Fields already computed are
        not computed again; all are kept (``curves.A`` then reads the kept
        array). Returns the arrays in the order asked.

        Examples
        --------
        >>> r, Q = rejection_curves([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8]).compute("r", "Q")
        >>> Q
        array([0.5 , 0.75, 0.5 , 0.75, 0.5 ])
        """
        for name in names:
            v.choice(name, "name", FIELDS)
        todo = [name for name in dict.fromkeys(names) if name not in self.__dict__]
        if todo:
            outs = [np.empty(len(self)) for _ in todo]
            scratch = _Scratch(min(len(self), FIELD_CHUNK))
            for start in range(0, len(self), FIELD_CHUNK):
                chunk = _ChunkSums(self, start, min(len(self), start + FIELD_CHUNK), scratch)
                for name, out in zip(todo, outs):
                    OF_SUMS[name](chunk, out[start:start + FIELD_CHUNK])
            for name, out in zip(todo, outs):
                self.__dict__[name] = out      # what cached_property keeps
        return tuple(self.__dict__[name] for name in names)

    def _rejected_at(self, start, stop):
        """|R| (int64) at the points start .. stop - 1, without making ``n_rejected`` for all."""
        if self.points is None and "n_rejected" not in self.__dict__:
            start, stop, _ = slice(start, stop).indices(len(self))
            return np.arange(start, max(start, stop), dtype=np.int64)
        return self.n_rejected[start:stop]

    def _counts(self, where):
        """:class:`SubsetCounts` of the points ``where`` (a slice), from |A∩R| and |R|."""
        ar = self.n_accurate_rejected[where]
        k = self._rejected_at(where.start, where.stop)
        mr = k - ar
        return SubsetCounts(an=self.n_accurate - ar, mn=(self.n_samples - self.n_accurate) - mr,
                            ar=ar, mr=mr)

    def __repr__(self):
        self.compute(*CURVE_FIELDS)
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in ("n_rejected", *CURVE_FIELDS))
        return f"RejectionCurves({shown})"

    def __len__(self):
        return len(self.n_accurate_rejected)

    @accepts(indices=INDICES)
    def take(self, indices):
        """The curves at the points ``indices`` only (indices of these curves' points).

        The same counts at fewer points: every measure follows from them as
        on the whole curves.
        """
        m = len(self)
        if indices.size and not (-m <= indices.min() and indices.max() < m):
            raise ValueError(f"indices must be indices of the curves' points, in [-{m}, {m - 1}]")
        return RejectionCurves(self.n_accurate_rejected[indices], self.n_samples, self.n_accurate,
                               points=self.n_rejected[indices])

    @property
    def counts(self):
        """The four subset sizes at each point: ``SubsetCounts`` of int arrays."""
        return self._counts(slice(None))

    @property
    def alpha(self):
        """A(0) = |A| / n, the accuracy without rejection."""
        return self.n_accurate / self.n_samples

    def best_Q(self):
        """Index of the point of maximum classification quality Q (first one on ties).

        Decided in integers, ``n Q - |A| = |R| - 2 |A∩R|``, so no Q array is needed.
        """
        return _first_extreme(lambda k, ar: k - 2 * ar, self, np.argmax)

    @accepts(rho=SINGLE_FRACTION)
    def cost(self, rho):
        """The cost ``L = (1 - A)(1 - r) + rho r`` at every point, from the counts.

        ``(1 - A)(1 - r) = |M∩N| / n``, so ``L = (|M∩N| + rho |R|) / n``:
        defined at r = 1 too, where A is not (Condessa et al. 2017, Sec. 4).
        """
        ar, n = self.n_accurate_rejected, self.n_samples
        out = np.empty(len(self))
        for s in range(0, len(self), CHUNK):  # chunks: no n-length temporaries
            kc = self._rejected_at(s, s + CHUNK)
            mn = (n - self.n_accurate) - (kc - ar[s:s + CHUNK])
            np.divide(mn + rho * kc, n, out=out[s:s + CHUNK])
        return out

    @accepts(rho=SINGLE_FRACTION)
    def min_cost(self, rho):
        """Index of the point of minimum cost at price ``rho`` (the first one on exact ties).

        Decided in integers, as :meth:`best_Q` is: rho is read as the fraction
        p / q nearest to it (q at most 10^9, below the float's own precision
        for a price in [0, 1]), and the point minimises ``q |M∩N| + p |R|``.
        Float rounding of the costs never decides a tie.
        """
        n = self.n_samples
        price = Fraction(rho).limit_denominator(max(1, min(10**9, 2**62 // (2 * n + 2))))
        q, p = price.denominator, price.numerator
        # q |M∩N| + p |R| = q (|M| - |R| + |A∩R|) + p |R|, chunk by chunk (no n-length temporaries)
        return _first_extreme(lambda k, ar: q * ((n - self.n_accurate) - k + ar) + p * k,
                              self, np.argmin)

    @accepts(i=INTEGER)
    def point(self, i):
        """The :class:`rejlab.measures.OperatingPoint` at index ``i`` of the curves.

        The formulas of the arrays on this one point, so the same bits.
        """
        i = v.index(i, "i", len(self), "a point of the curves") % len(self)
        counts = self._counts(slice(i, i + 1))
        return OperatingPoint(*(float(FORMULAS[name](*counts)[0]) for name in CURVE_FIELDS),
                              SubsetCounts(*(int(x[0]) for x in counts)))


class _Scratch:
    """Float64 buffers of one chunk's length, handed out in turn and reused from chunk to chunk."""

    def __init__(self, size):
        self.size, self.buffers, self.used = size, [], 0

    def take(self, length):
        if self.used == len(self.buffers):
            self.buffers.append(np.empty(self.size))
        self.used += 1
        return self.buffers[self.used - 1][:length]


class _ChunkSums(Sums):
    """The :class:`rejlab._formulas.Sums` of the points [start, stop) of the curves.

    n, |A| and |M| are the same at every point (numbers); |R| is the
    points' index (or their ``points``) and |A∩R| the stored counts; every
    other sum is derived from these on first use, into a scratch buffer.
    """

    def __init__(self, curves, start, stop, scratch):
        self.n, self.accurate = curves.n_samples, curves.n_accurate
        self.misclassified = curves.n_samples - curves.n_accurate
        self._curves, self._where, self._length = curves, slice(start, stop), stop - start
        self._scratch = scratch
        scratch.used = 0

    def spare(self):
        return self._scratch.take(self._length)

    @cached_property
    def rejected(self):
        out = self.spare()
        if self._curves.points is None:      # every k: the chunk's indices, made in cache
            np.add(_index_base(self._scratch.size)[:self._length], self._where.start, out=out)
        else:
            np.copyto(out, self._curves.points[self._where])
        return out

    @cached_property
    def ar(self):
        out = self.spare()
        np.copyto(out, self._curves.n_accurate_rejected[self._where])
        return out

    @cached_property
    def mr(self):
        return np.subtract(self.rejected, self.ar, out=self.spare())

    @cached_property
    def an(self):
        return np.subtract(self.accurate, self.ar, out=self.spare())

    @cached_property
    def mn(self):
        return np.subtract(self.misclassified, self.mr, out=self.spare())

    @cached_property
    def kept(self):
        return np.subtract(self.n, self.rejected, out=self.spare())

    @cached_property
    def good(self):
        return np.add(self.an, self.mr, out=self.spare())

    @property
    def shape(self):
        return (self._length,)


_INDEX_BASES = {}


def _index_base(size):
    """0.0, 1.0, ..., size - 1 as float64, kept: a chunk's indices are this plus its start."""
    if size not in _INDEX_BASES:
        _INDEX_BASES[size] = np.arange(size, dtype=np.float64)
    return _INDEX_BASES[size]


def _first_extreme(score, curves, arg):
    """``arg(score(|R|, |A∩R|))`` over the curves' points (np.argmax or np.argmin, first on ties).

    Chunk by chunk: neither the scores nor ``n_rejected`` are made for all points.
    """
    best = best_value = None
    ar = curves.n_accurate_rejected
    for s in range(0, ar.size, CHUNK):
        part = score(curves._rejected_at(s, s + CHUNK), ar[s:s + CHUNK])
        i = int(arg(part))
        value = int(part[i])
        if best is None or (value > best_value if arg is np.argmax else value < best_value):
            best, best_value = s + i, value
    return best


@accepts(accurate=BOOL_1D, confidence=FINITE_1D, thresholds_only=FLAG,
         same_length=("accurate", "confidence"))
def rejection_curves(accurate, confidence, *, thresholds_only=False):
    """r, A, Q, phi for every number of rejected samples k = 0 .. n.

    Point k rejects the k least confident samples under the default tie
    policy (confidence ascending, then sample index ascending). One sort of
    the confidences' values (two when accurate and misclassified samples
    share many confidences) and one cumulative sum: O(n log n), no loop over
    samples, no stable argsort. Confidences are ranked in their own dtype
    (integers beyond 2**53 and longdouble stay exact). The curves hold the
    integer counts; ``r``, ``A``, ``Q`` and ``phi`` are computed from them on
    first use.

    Row order: the points are the paper's measures at k rejected, so a point
    k that cuts through a group of tied confidences, and whatever is read off
    single points (``point(k)``, ``best_Q()``, ``min_cost(rho)``, ``cost``,
    ``rho_0`` at such a k), depends on the order of the tied rows. The
    points of ``thresholds_only=True``, and ``alpha``, never do; neither do
    the summaries of :mod:`rejlab.selective` (``rl.aurc`` and its family,
    ties averaged by default) nor what :func:`rejlab.rejection_report` prints.

    Parameters
    ----------
    accurate : array-like of bool, shape (n,)
        The accuracy vector ``a``.
    confidence : array-like of float, shape (n,)
        Finite confidences, higher = surer.
    thresholds_only : bool, default False
        Keep only the points a threshold rejector can reach: k = 0, k = n and
        every k that falls between two distinct confidence values.

    Returns
    -------
    RejectionCurves
        Fields ``n_rejected, r, A, Q, phi`` (and ``counts``).

    Examples
    --------
    >>> cv = rejection_curves([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8])
    >>> cv.n_rejected
    array([0, 1, 2, 3, 4])
    >>> cv.Q
    array([0.5 , 0.75, 0.5 , 0.75, 0.5 ])
    >>> rejection_curves([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8], thresholds_only=True).n_rejected
    array([0, 1, 3, 4])
    """
    a, c = accurate, confidence
    ar, breaks = ranked(a, c, breaks=thresholds_only)
    n_acc = int(ar[-1])
    if not thresholds_only:
        return RejectionCurves(ar, a.size, n_acc)
    k = np.flatnonzero(breaks)
    return RejectionCurves(ar[k], a.size, n_acc, points=k.astype(np.int64, copy=False))


#: Curves from :func:`rejection_curves`.
CURVES = instance(RejectionCurves, "a RejectionCurves (from rl.rejection_curves)")


@accepts(curves=CURVES, max_points=integer(3))
def subsample_curves(curves, max_points=DISPLAY_POINTS):
    """At most ``max_points`` evenly spaced points of a curve, keeping its ends and max Q.

    A curve of 100 000 samples has 100 001 points: more than a figure can
    show, and the relative-optimality matrix is O(m^2). This keeps the
    first and last point, the point of maximum Q, and evenly spaced points
    in between (by index); the measures follow from the kept counts as
    before. The default, :data:`DISPLAY_POINTS`, is what the figures draw.

    Examples
    --------
    >>> import rejlab as rl
    >>> cv = rl.rejection_curves([1, 0, 1, 0, 1, 1], [6, 1, 5, 2, 4, 3])
    >>> subsample_curves(cv, 3).n_rejected
    array([0, 2, 6])
    """
    m = len(curves)
    if m <= max_points:
        return curves
    idx = np.round(np.linspace(0, m - 1, max_points - 1)).astype(np.int64)
    idx = np.union1d(idx, [curves.best_Q()])
    return curves.take(idx)
