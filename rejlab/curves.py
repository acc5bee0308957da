"""The measures at every number of rejected samples: one ranking, then counts along it.

:func:`rejection_curves` ranks once (:func:`rejlab._ranking.ranked`) and keeps the
integer counts; each measure is computed from them on first use by the formulas
of :mod:`rejlab._formulas`, as :func:`rejlab.measures_from_counts` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Optional

import numpy as np

from . import _validate as v
from ._constraints import accepts
from ._formulas import FORMULAS, cost
from ._kinds import BOOL_1D, FINITE_1D, FLAG, INDICES, INTEGER, SINGLE_FRACTION, instance, integer
from ._ranking import ranked
from .measures import MEASURE_NAMES, OperatingPoint, SubsetCounts

__all__ = ["CURVE_FIELDS", "DISPLAY_POINTS", "FIELDS", "FIELD_CHUNK", "RejectionCurves",
           "rejection_curves", "subsample_curves"]

#: The per-point fields of :class:`RejectionCurves` after ``n_rejected``.
CURVE_FIELDS = ("r", *MEASURE_NAMES)

#: Points a figure draws: longer curves are thinned to this many (:func:`subsample_curves`).
DISPLAY_POINTS = 4000

#: Every field :meth:`RejectionCurves.compute` computes from the counts.
FIELDS = (*CURVE_FIELDS, "rho_0")

#: Points per chunk of :meth:`RejectionCurves.compute`: a chunk's counts and intermediates
#: (256 KB each) stay in cache, and no n-length temporary is made.
FIELD_CHUNK = 1 << 15


def _phi_along(k, ar, mr, n, n_acc, out, spare):
    np.divide(np.multiply(mr, n_acc, out=out), np.multiply(ar, n - n_acc, out=spare), out=out)
    if n_acc and n - n_acc:
        np.copyto(out, 1.0, where=k == 0)   # nothing rejected, |A| and |M| positive: 0 / 0 is 1
    return out


#: The formulas of :mod:`rejlab._formulas` with n and |A| fixed, ``f(|R|, |A∩R|, |M∩R|, n, |A|,
#: out, spare)``: the same operations, so the same bits (a test holds them equal), in place in
#: a chunk's scratch buffers, 2-3x faster at 10^6 points.
_ALONG = {
    "r": lambda k, ar, mr, n, n_acc, out, spare: np.divide(k, n, out=out),
    "A": lambda k, ar, mr, n, n_acc, out, spare: np.divide(
        np.subtract(n_acc, ar, out=out), np.subtract(n, k, out=spare), out=out),
    "Q": lambda k, ar, mr, n, n_acc, out, spare: np.divide(
        np.add(np.subtract(n_acc, ar, out=out), mr, out=out), n, out=out),
    "phi": _phi_along,
    "rho_0": lambda k, ar, mr, n, n_acc, out, spare: np.divide(mr, k, out=out),
}


_INDEX_BASES = {}


def _index_base(size):
    """0.0, 1.0, ..., size - 1 as float64, kept: a chunk's |R| is this plus its start."""
    if size not in _INDEX_BASES:
        _INDEX_BASES[size] = np.arange(size, dtype=np.float64)
    return _INDEX_BASES[size]


def _field(name, doc):
    """A field of the curves, computed from the counts on first use and kept (``compute``)."""
    return property(lambda self: self.__dict__[name] if name in self.__dict__
                    else self.compute(name)[0], doc=doc)


@dataclass(frozen=True, eq=False, repr=False)
class RejectionCurves:
    """r, A, Q and phi for every number of rejected samples ("Curves").

    They store |A∩R| at each point and the points' |R| (``points``, None for every
    k = 0 .. n); ``n_rejected``, ``counts`` and each measure are computed on first
    use and kept, so a caller that reads only Q never holds r, A or phi.
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

    r = _field("r", "``r = |R| / n`` at each point.")
    A = _field("A", "``A = |A∩N| / |N|`` at each point; NaN where nothing is kept.")
    Q = _field("Q", "``Q = (|A∩N| + |M∩R|) / n`` at each point.")
    phi = _field("phi", "``phi = (|M∩R| / |A∩R|) / (|M| / |A|)`` at each point (edge cases as "
                 ":func:`rejlab.measures_from_counts`).")
    rho_0 = _field("rho_0", "rho_0 = |M∩R| / |R| of every point against no rejection, NaN where "
                   "|R| = 0 (Condessa et al. 2017, Sec. 4); exact 0 and 1 from integer counts.")

    def compute(self, *names):
        """The fields ``names`` (of "r", "A", "Q", "phi", "rho_0"), in one pass over the counts.

        :data:`FIELD_CHUNK` points at a time, so the only n-length arrays made are the
        results; all are kept, and none is computed twice.

        Examples
        --------
        >>> r, Q = rejection_curves([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8]).compute("r", "Q")
        >>> Q
        array([0.5 , 0.75, 0.5 , 0.75, 0.5 ])
        """
        for name in names:
            v.choice(name, "name", FIELDS)
        outs = {name: np.empty(len(self)) for name in names if name not in self.__dict__}
        m = min(len(self), FIELD_CHUNK) if outs else 0
        k, ar, mr, spare = (np.empty(m) for _ in range(4))     # reused from chunk to chunk
        with np.errstate(divide="ignore", invalid="ignore"):
            for start in range(0, len(self) if outs else 0, FIELD_CHUNK):
                stop = min(start + FIELD_CHUNK, len(self))
                c = stop - start
                if self.points is None:
                    np.add(_index_base(m)[:c], start, out=k[:c])
                else:
                    np.copyto(k[:c], self.points[start:stop])
                np.copyto(ar[:c], self.n_accurate_rejected[start:stop])   # exact: below 2**53
                np.subtract(k[:c], ar[:c], out=mr[:c])
                for name, out in outs.items():
                    _ALONG[name](k[:c], ar[:c], mr[:c], self.n_samples, self.n_accurate,
                                 out[start:stop], spare[:c])
        self.__dict__.update(outs)                     # kept: the fields read them from here
        return tuple(self.__dict__[name] for name in names)

    def _rejected_at(self, start, stop):
        """|R| (int64) at the points start .. stop - 1, without making ``n_rejected`` for all."""
        if self.points is None and "n_rejected" not in self.__dict__:
            start, stop, _ = slice(start, stop).indices(len(self))
            return np.arange(start, max(start, stop), dtype=np.int64)
        return self.n_rejected[start:stop]

    def _counts(self, where, dtype=np.int64):
        """:class:`SubsetCounts` of the points ``where`` (a slice), from |A∩R| and |R|."""
        ar = self.n_accurate_rejected[where].astype(dtype, copy=False)
        mr = self._rejected_at(where.start, where.stop).astype(dtype, copy=False) - ar
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
        """The curves at the points ``indices`` only (the same counts at fewer points)."""
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
        """The cost ``L = (1 - A)(1 - r) + rho r = (|M∩N| + rho |R|) / n`` at every point (r = 1 too)."""
        out = np.empty(len(self))
        for start in range(0, len(self), FIELD_CHUNK):  # chunks: no n-length temporaries
            where = slice(start, start + FIELD_CHUNK)
            out[where] = cost(*self._counts(where, np.float64), rho)
        return out

    @accepts(rho=SINGLE_FRACTION)
    def min_cost(self, rho):
        """Index of the point of minimum cost at price ``rho`` (the first one on exact ties).

        Decided in integers: rho read as the nearest p / q (q at most 10^9) and the point
        minimising ``q |M∩N| + p |R|``, so float rounding never decides a tie.
        """
        n = self.n_samples
        price = Fraction(rho).limit_denominator(max(1, min(10**9, 2**62 // (2 * n + 2))))
        q, p = price.denominator, price.numerator
        # q |M∩N| + p |R| = q (|M| - |R| + |A∩R|) + p |R|, chunk by chunk (no n-length temporaries)
        return _first_extreme(lambda k, ar: q * ((n - self.n_accurate) - k + ar) + p * k,
                              self, np.argmin)

    @accepts(i=INTEGER)
    def point(self, i):
        """The :class:`rejlab.measures.OperatingPoint` at index ``i`` (the same bits as the arrays)."""
        i = v.index(i, "i", len(self), "a point of the curves") % len(self)
        counts = self._counts(slice(i, i + 1))
        return OperatingPoint(*(float(FORMULAS[name](*counts)[0]) for name in CURVE_FIELDS),
                              SubsetCounts(*(int(x[0]) for x in counts)))


def _first_extreme(score, curves, arg):
    """``arg(score(|R|, |A∩R|))`` (np.argmax or np.argmin, first on ties), chunk by chunk."""
    best = best_value = None
    ar = curves.n_accurate_rejected
    for s in range(0, ar.size, FIELD_CHUNK):
        part = score(curves._rejected_at(s, s + FIELD_CHUNK), ar[s:s + FIELD_CHUNK])
        i = int(arg(part))
        value = int(part[i])
        if best is None or (value > best_value if arg is np.argmax else value < best_value):
            best, best_value = s + i, value
    return best


@accepts(accurate=BOOL_1D, confidence=FINITE_1D, thresholds_only=FLAG,
         same_length=("accurate", "confidence"))
def rejection_curves(accurate, confidence, *, thresholds_only=False):
    """r, A, Q, phi for every number of rejected samples k = 0 .. n.

    Point k rejects the k least confident samples (ties by sample index; exact in the
    confidences' own dtype). ``thresholds_only=True`` keeps the points a threshold
    reaches: k = 0, k = n and every k between two distinct confidences; those never
    depend on the order of tied rows, a point inside a tied group does.

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
    ar, breaks = ranked(accurate, confidence, breaks=thresholds_only)
    n, n_acc = accurate.size, int(ar[-1])
    if not thresholds_only:
        return RejectionCurves(ar, n, n_acc)
    k = np.flatnonzero(breaks)
    return RejectionCurves(ar[k], n, n_acc, points=k.astype(np.int64, copy=False))


CURVES = instance(RejectionCurves, "a RejectionCurves (from rl.rejection_curves)")


@accepts(curves=CURVES, max_points=integer(3))
def subsample_curves(curves, max_points=DISPLAY_POINTS):
    """At most ``max_points`` evenly spaced points of a curve, keeping its ends and max Q.

    For figures and the O(m^2) optimality matrix; the default is :data:`DISPLAY_POINTS`.

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
