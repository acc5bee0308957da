"""Partitions, the four sample subsets and the three performance measures.

Condessa et al. 2017, Secs. 2-3:

- the accuracy vector ``a`` splits the samples into A (accurate) and M
  (misclassified);
- a rejector rejects the k least confident samples: R (rejected, |R| = k) and
  N (nonrejected, |N| = n - k);
- rejected fraction ``r = |R| / n``, nonrejected accuracy ``A = |A∩N| / |N|``,
  classification quality ``Q = (|A∩N| + |M∩R|) / n`` and rejection quality
  ``phi = (|M∩R| / |A∩R|) / (|M| / |A|)``.

Tie policy (used everywhere): samples are ordered by (confidence ascending,
sample index ascending) and the first ones in that order are rejected. It is
deterministic, and a group of equal confidences may be split. A threshold
rejector (:func:`reject_below`) rejects whole groups: it reaches only the
points between distinct confidence values.

:data:`MEASURES` is the one table of the three measures (field name,
symbol, label, scale) that reports, plots, explorers and the command line
iterate over.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import NamedTuple, Optional

import numpy as np

from . import _validate as v
from ._ranking import _CHUNK, _ranked

__all__ = [
    "Measure",
    "MEASURES",
    "MEASURE_NAMES",
    "measure_info",
    "Measures",
    "Threshold",
    "SubsetCounts",
    "OperatingPoint",
    "RejectionCurves",
    "accuracy_vector",
    "reject_lowest",
    "reject_below",
    "subset_counts",
    "rejected_fraction",
    "nonrejected_accuracy",
    "classification_quality",
    "rejection_quality",
    "operating_point",
    "rejection_curves",
    "measures_from_counts",
    "quality_from_accuracy",
    "rejection_quality_from_accuracy",
]


class Measure(NamedTuple):
    """How one measure is named and drawn (a row of :data:`MEASURES`)."""

    name: str        #: field name on results: ``op.A``, ``curves.phi``
    symbol: str      #: as the paper writes it
    label: str       #: in words
    log_scale: bool  #: drawn on a log axis (phi spans 0 .. inf)


#: The three measures of Condessa et al. 2017, in the paper's order.
MEASURES = (
    Measure("A", "A", "nonrejected accuracy", False),
    Measure("Q", "Q", "classification quality", False),
    Measure("phi", "φ", "rejection quality", True),
)

#: Their field names, in the same order.
MEASURE_NAMES = tuple(m.name for m in MEASURES)

#: The per-point fields of :class:`RejectionCurves` after ``n_rejected``.
CURVE_FIELDS = ("r", *MEASURE_NAMES)


def measure_info(name):
    """The :class:`Measure` row of ``"A"``, ``"Q"`` or ``"phi"``.

    >>> measure_info("phi").symbol
    'φ'
    """
    v.choice(name, "name", MEASURE_NAMES)
    return MEASURES[MEASURE_NAMES.index(name)]


class Measures(NamedTuple):
    """r, A, Q and phi (floats, or arrays of them), as :func:`measures_from_counts` returns."""

    r: object
    A: object
    Q: object
    phi: object


class Threshold(NamedTuple):
    """A confidence threshold: reject every sample with ``confidence < value``.

    ``r``, ``A`` and ``Q`` are the measures it reached on the data it was
    chosen on (see :func:`rejlab.select_threshold`).
    """

    value: float  #: a float; an int for integers beyond 2**53, a longdouble for longdouble
    r: float
    A: float
    Q: float


class SubsetCounts(NamedTuple):
    """Sizes of the four subsets A∩N, M∩N, A∩R, M∩R (ints, or int arrays on curves)."""

    an: int
    mn: int
    ar: int
    mr: int

    @property
    def n(self):
        """Number of samples; ``an + mn + ar + mr``."""
        return self.an + self.mn + self.ar + self.mr

    @property
    def accurate(self):
        """|A|, the accurately classified samples."""
        return self.an + self.ar

    @property
    def misclassified(self):
        """|M|, the misclassified samples."""
        return self.mn + self.mr

    @property
    def nonrejected(self):
        """|N| = n - k (k rejected)."""
        return self.an + self.mn

    @property
    def rejected(self):
        """|R| = k, the number rejected."""
        return self.ar + self.mr

    @property
    def rho_0(self):
        """``|M∩R| / |R|``, the price of rejection below which this rejection beats none.

        NaN when nothing is rejected (Condessa et al. 2017, Sec. 4; see
        :attr:`RejectionCurves.rho_0`).
        """
        return _rho_zero(self.mr, self.rejected)


def _rho_zero(mr, rejected):
    """``|M∩R| / |R|`` from integer counts (scalars or arrays); NaN where |R| = 0."""
    mr, rejected = np.asarray(mr), np.asarray(rejected)
    out = np.full(np.shape(rejected), np.nan)
    np.divide(mr, rejected, out=out, where=rejected > 0)
    return float(out) if out.ndim == 0 else out


class OperatingPoint(NamedTuple):
    """One operating point of a classifier with rejection."""

    r: float
    A: float
    Q: float
    phi: float
    counts: SubsetCounts

    @property
    def rho_0(self):
        """``|M∩R| / |R|`` against no rejection (NaN when nothing is rejected)."""
        return self.counts.rho_0


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
        return self.n_rejected / self.n_samples

    @cached_property
    def Q(self):
        """``Q = (|A∩N| + |M∩R|) / n`` at each point."""
        k, ar = self.n_rejected, self.n_accurate_rejected
        q = np.subtract(k, ar, dtype=np.float64)      # |M∩R| (integers, exact in float64)
        q -= ar
        q += self.n_accurate                           # + |A∩N| = |A| - |A∩R|
        q /= self.n_samples
        return q

    @cached_property
    def A(self):
        """``A = |A∩N| / |N|`` at each point; NaN where nothing is kept."""
        A = np.subtract(self.n_accurate, self.n_accurate_rejected, dtype=np.float64)
        with np.errstate(invalid="ignore"):
            # nothing kept: |A∩N| = 0 too, and 0 / 0 is the NaN the policy asks for
            A /= np.subtract(self.n_samples, self.n_rejected, dtype=np.float64)
        return A

    @cached_property
    def phi(self):
        """``phi = (|M∩R| / |A∩R|) / (|M| / |A|)`` at each point, edge cases as :func:`measures_from_counts`."""
        k, ar = self.n_rejected, self.n_accurate_rejected
        n_acc, n_mis = self.n_accurate, self.n_samples - self.n_accurate
        if n_acc == 0 or n_mis == 0:
            return np.full(k.shape, np.nan)
        phi = np.subtract(k, ar, dtype=np.float64)    # |M∩R|
        phi *= float(n_acc)
        with np.errstate(divide="ignore", invalid="ignore"):
            # |A∩R| = 0 < |R|: |M∩R| > 0 over 0 is the inf the policy asks for
            phi /= np.multiply(ar, float(n_mis))
        phi[k == 0] = 1.0                              # nothing rejected (0 / 0 above)
        return phi

    def __repr__(self):
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in ("n_rejected", *CURVE_FIELDS))
        return f"RejectionCurves({shown})"

    def __len__(self):
        return len(self.n_accurate_rejected)

    @property
    def counts(self):
        """The four subset sizes at each point: ``SubsetCounts`` of int arrays."""
        ar = self.n_accurate_rejected
        mr = self.n_rejected - ar
        return SubsetCounts(an=self.n_accurate - ar,
                            mn=(self.n_samples - self.n_accurate) - mr, ar=ar, mr=mr)

    @property
    def alpha(self):
        """A(0) = |A| / n, the accuracy without rejection."""
        return self.n_accurate / self.n_samples

    def best_Q(self):
        """Index of the point of maximum classification quality Q (first one on ties).

        Decided in integers, ``n Q - |A| = |R| - 2 |A∩R|``, so no Q array is needed.
        """
        return _first_extreme(lambda k, ar: k - 2 * ar, self.n_rejected,
                              self.n_accurate_rejected, np.argmax)

    @property
    def rho_0(self):
        """rho_0 of every point against no rejection: ``|M∩R| / |R|``, NaN where |R| = 0.

        Condessa et al. 2017, Sec. 4: rejecting these samples beats not
        rejecting at all iff the price of rejection rho is below rho_0.
        Computed from the integer counts, so it is exactly 0 where only
        accurate samples were rejected and exactly 1 where only
        misclassified ones were.
        """
        return _rho_zero(self.n_rejected - self.n_accurate_rejected, self.n_rejected)

    def cost(self, rho):
        """The cost ``L = (1 - A)(1 - r) + rho r`` at every point, from the counts.

        ``(1 - A)(1 - r) = |M∩N| / n``, so ``L = (|M∩N| + rho |R|) / n``:
        defined at r = 1 too, where A is not (Condessa et al. 2017, Sec. 4).
        """
        rho = v.single_fraction(rho, "rho")
        k, ar, n = self.n_rejected, self.n_accurate_rejected, self.n_samples
        out = np.empty(k.shape)
        for s in range(0, k.size, _CHUNK):  # chunks: no n-length temporaries
            kc = k[s:s + _CHUNK]
            mn = (n - self.n_accurate) - (kc - ar[s:s + _CHUNK])
            np.divide(mn + rho * kc, n, out=out[s:s + _CHUNK])
        return out

    def min_cost(self, rho):
        """Index of the point of minimum cost at price ``rho`` (the first one on exact ties).

        Decided in integers, as :meth:`best_Q` is: rho is read as the fraction
        p / q nearest to it (q at most 10^9, below the float's own precision
        for a price in [0, 1]), and the point minimises ``q |M∩N| + p |R|``.
        Float rounding of the costs never decides a tie.
        """
        rho = v.single_fraction(rho, "rho")
        n = self.n_samples
        price = Fraction(rho).limit_denominator(max(1, min(10**9, 2**62 // (2 * n + 2))))
        q, p = price.denominator, price.numerator
        # q |M∩N| + p |R| = q (|M| - |R| + |A∩R|) + p |R|, chunk by chunk (no n-length temporaries)
        return _first_extreme(lambda k, ar: q * ((n - self.n_accurate) - k + ar) + p * k,
                              self.n_rejected, self.n_accurate_rejected, np.argmin)

    def point(self, i):
        """The :class:`OperatingPoint` at index ``i`` of the curves."""
        i = v.index(i, "i", len(self), "a point of the curves")
        n, n_acc = self.n_samples, self.n_accurate
        k = i % (n + 1) if self.points is None else int(self.points[i])
        ar = int(self.n_accurate_rejected[i])
        c = SubsetCounts(an=n_acc - ar, mn=(n - n_acc) - (k - ar), ar=ar, mr=k - ar)
        # the arrays' formulas on one point (the same float operations, so the same bits)
        if n_acc == 0 or n_acc == n:
            phi = math.nan
        elif k == 0:
            phi = 1.0
        elif ar == 0:
            phi = math.inf
        else:
            phi = (float(c.mr) * float(n_acc)) / (float(ar) * float(n - n_acc))
        A = c.an / (n - k) if k < n else math.nan
        return OperatingPoint(k / n, A, (c.mr + c.an) / n, phi, c)


def _first_extreme(score, k, ar, arg):
    """``arg(score(k, ar))`` (np.argmax or np.argmin, first on ties), chunk by chunk."""
    best = best_value = None
    for s in range(0, k.size, _CHUNK):
        part = score(k[s:s + _CHUNK], ar[s:s + _CHUNK])
        i = int(arg(part))
        value = int(part[i])
        if best is None or (value > best_value if arg is np.argmax else value < best_value):
            best, best_value = s + i, value
    return best


def accuracy_vector(y_true, y_pred):
    """Accuracy vector ``a_i = [y_hat_i == y_i]`` (Condessa et al. 2017, Sec. 2).

    Parameters
    ----------
    y_true, y_pred : array-like, shape (n,)
        Ground truth and predicted labels (any comparable labels).

    Returns
    -------
    numpy.ndarray of bool
        True for the accurately classified samples (the subset A).

    Examples
    --------
    >>> accuracy_vector([0, 1, 2, 2], [0, 2, 2, 1])
    array([ True, False,  True, False])
    """
    y_true, y_pred = v.label_pair(y_true=y_true, y_pred=y_pred)
    return _labels_equal(y_true, y_pred)


def _labels_equal(x, y):
    """``x_i == y_i`` as Python compares the two labels (validated arrays of one kind).

    NumPy compares an integer array with a float array in float64, where
    ``2**53 + 1 == 2.0**53``; here an integer equals a float only if the
    float is that very integer.
    """
    kx, ky = x.dtype.kind, y.dtype.kind
    if {kx, ky} <= set("biu") or {kx, ky} <= set("bf") or "O" in (kx, ky) or kx == ky:
        return np.asarray(x == y, dtype=bool)
    i, f = (x, y) if kx in "biu" else (y, x)          # one integer array, one float array
    eq = i.astype(f.dtype) == f                        # necessary: the float rounds the integer
    if np.any(eq):
        info = np.iinfo(i.dtype)
        # floats of integer value in the integer type's range convert exactly
        fc = f[eq]
        inside = (fc >= info.min) & (fc < float(info.max) + 1)
        exact = np.zeros(fc.shape, dtype=bool)
        exact[inside] = fc[inside].astype(i.dtype) == i[eq][inside]
        eq[eq] = exact
    return eq


def reject_lowest(confidence, fraction=None, *, count=None):
    """Reject the least confident samples (the monotone rejector, Condessa et al. 2017, Sec. 2).

    If sample i is rejected, every sample j with ``c_j < c_i`` is rejected too.
    Ties are broken by sample index: among equal confidences the lower index is
    rejected first.

    Parameters
    ----------
    confidence : array-like of float, shape (n,)
        Higher means surer. Must be finite.
    fraction : float in [0, 1], optional
        Fraction of samples to reject; the count is ``round(fraction * n)``.
    count : int in [0, n], keyword-only, optional
        Number of samples to reject. Give exactly one of ``fraction``/``count``.

    Returns
    -------
    numpy.ndarray of bool
        True = rejected (the subset R).

    Examples
    --------
    >>> reject_lowest([0.9, 0.2, 0.5, 0.2], count=2)
    array([False,  True, False,  True])
    >>> reject_lowest([0.9, 0.2, 0.5, 0.2], 0.25)
    array([False,  True, False, False])
    """
    c = v.as_finite_1d(confidence, "confidence")
    n = c.size
    v.exactly_one(fraction=fraction, count=count)
    if count is None:
        count = round(v.single_fraction(fraction, "fraction") * n)
    else:
        count = v.count(count, "count", n)
    return _lowest(c, count)


def _lowest(c, count):
    """The ``count`` first samples in (confidence, index) order, without sorting: O(n).

    The count-th smallest confidence t splits them: every sample below t,
    then the first samples equal to t by index.
    """
    if count == 0 or count == c.size:
        return np.full(c.size, count > 0)
    t = np.partition(c, count - 1)[count - 1]
    rejected = c < t
    ties = np.flatnonzero(c == t)[:count - int(np.count_nonzero(rejected))]
    rejected[ties] = True
    return rejected


def reject_below(confidence, threshold):
    """Threshold rejection: True (rejected) where ``confidence < threshold``.

    The rejector that a threshold on the confidence defines. Unlike
    :func:`reject_lowest` it never splits a group of equal confidences, so
    it reaches only the points ``rejection_curves(..., thresholds_only=True)``
    lists. ``threshold`` is a number (``-inf`` rejects nothing, ``+inf``
    everything) or a :class:`Threshold` chosen on validation data with
    :func:`rejlab.select_threshold`, to be applied to test data.

    Examples
    --------
    >>> reject_below([0.9, 0.2, 0.5, 0.2], 0.5)
    array([False,  True, False,  True])
    """
    c = v.as_finite_1d(confidence, "confidence")
    t = v.threshold_value(threshold.value if isinstance(threshold, Threshold) else threshold,
                          "threshold", "a number or a Threshold (from rl.select_threshold)")
    return _below(c, t)


def _below(c, t):
    """``c < t`` decided exactly, whatever the dtypes (NumPy would compare in float64).

    ``c`` is a validated confidence array, ``t`` a real number (possibly
    infinite, never NaN).
    """
    if t in (math.inf, -math.inf):
        return np.full(c.shape, t > 0)
    if c.dtype.kind in "iu":
        # exact ceiling: a longdouble or a Fraction may lie between two large integers
        if isinstance(t, (numbers.Integral, np.integer)):
            bound = int(t)
        else:
            bound = math.ceil(_exact(t) if isinstance(t, (float, np.floating)) else t)
        info = np.iinfo(c.dtype)               # integers c: c < t  <=>  c < ceil(t)
        if not info.min < bound <= info.max:
            return np.full(c.shape, bound > info.max)
        return c < c.dtype.type(bound)
    try:
        f = c.dtype.type(t)                      # the value of c's type nearest to t
    except OverflowError:
        return np.full(c.shape, t > 0)
    if not np.isfinite(f):
        return np.full(c.shape, t > 0)
    # no value of c's type lies strictly between t and f
    return c < f if _exact(f) >= _exact(t) else c <= f


def _exact(x):
    """A finite real number (Python or NumPy) as an exact Fraction."""
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    return Fraction(*x.as_integer_ratio())


def _masks(accurate, rejected):
    a = v.as_bool_1d(accurate, "accurate")
    r = v.as_bool_1d(rejected, "rejected")
    v.same_length(accurate=a, rejected=r)
    return a, r


def subset_counts(accurate, rejected):
    """Sizes of the four subsets A∩N, M∩N, A∩R, M∩R (Condessa et al. 2017, Fig. 1).

    Examples
    --------
    >>> subset_counts([1, 1, 0, 0, 1], [0, 1, 1, 0, 0])
    SubsetCounts(an=2, mn=1, ar=1, mr=1)
    """
    return _subset_counts(*_masks(accurate, rejected))


def _subset_counts(a, r):
    """The kernel of :func:`subset_counts` (validated boolean masks of one length)."""
    n = a.size
    ar = int(np.count_nonzero(a & r))
    n_a = int(np.count_nonzero(a))
    n_r = int(np.count_nonzero(r))
    return SubsetCounts(an=n_a - ar, mn=n - n_a - n_r + ar, ar=ar, mr=n_r - ar)


def _point_measures(accurate, rejected):
    """(counts, Measures) of validated public inputs: one validation, one count."""
    counts = _subset_counts(*_masks(accurate, rejected))
    return counts, _measures(*counts)


def measures_from_counts(an, mn, ar, mr):
    """r, A, Q, phi from the four subset sizes (scalars or equal-shape arrays).

    Condessa et al. 2017, Sec. 3, with the edge cases settled:
    ``A = NaN`` when |N| = 0; ``phi = NaN`` when |M| = 0 or |A| = 0 (the ratio
    |M|/|A| has no meaning), otherwise ``phi = 1`` when |R| = 0 and
    ``phi = inf`` when |A∩R| = 0 < |R|.

    Returns
    -------
    Measures
        Fields ``r, A, Q, phi`` (float arrays; unpacks as a 4-tuple).
    """
    an, mn, ar, mr = (v.nonnegative_amounts(x, name)
                      for x, name in zip((an, mn, ar, mr), ("an", "mn", "ar", "mr")))
    v.broadcastable(an=an, mn=mn, ar=ar, mr=mr)
    v.some_samples(an + mn + ar + mr, "an, mn, ar, mr")
    return _measures(an, mn, ar, mr)


def _measures(an, mn, ar, mr):
    """The kernel of :func:`measures_from_counts`: validated, non-negative counts or fractions."""
    n = an + mn + ar + mr
    kept = an + mn
    n_acc = an + ar
    n_mis = mn + mr
    n_rej = ar + mr
    with np.errstate(divide="ignore", invalid="ignore"):
        r = n_rej / n
        A = np.where(kept > 0, an / np.where(kept > 0, kept, 1.0), np.nan)
        Q = (an + mr) / n
        # (mr / ar) / (n_mis / n_acc) written as one fraction; ar = 0 -> inf
        phi = np.where(ar > 0, (mr * n_acc) / np.where(ar > 0, ar * n_mis, 1.0), np.inf)
        phi = np.where(n_rej == 0, 1.0, phi)
        phi = np.where((n_mis == 0) | (n_acc == 0), np.nan, phi)
    return Measures(r, A, Q, phi)


# A fraction of n at most this far from 0 is 0. Operating points given as
# fractions (A, r, alpha) are rounded numbers, and a subset fraction such as
# |A∩R| / n = alpha - A (1 - r) is a difference of them: an exact 0 comes out
# as a few 1e-17, which would turn phi = inf into 1e16. A true count of one
# sample is 1 / n, far above this for any n below 10^12.
_ZERO = 1e-12


def _snap(x):
    """Subset fractions within :data:`_ZERO` of 0 become exactly 0 (and never negative)."""
    x = np.asarray(x, dtype=float)
    return np.where(x <= _ZERO, 0.0, x)


def _fraction_measures(an, r, alpha):
    """A, Q, phi of points keeping a fraction ``an`` = |A∩N| / n accurate at rejected fraction r.

    The four subset fractions follow from (an, r, alpha) and are snapped to
    0 within :data:`_ZERO`, so every edge case of :func:`measures_from_counts`
    (phi = inf when |A∩R| = 0, A = NaN when nothing is kept, ...) is decided
    as it would be on the integer counts.
    """
    ar = _snap(alpha - an)
    mr = _snap(an + r - alpha)
    mn = _snap(1.0 - r - an)
    _, A, Q, phi = _measures(_snap(an), mn, ar, mr)
    return A, Q, phi


def rejected_fraction(accurate, rejected):
    """Rejected fraction ``r = |R| / n`` (Condessa et al. 2017, Eq. 2)."""
    return float(_point_measures(accurate, rejected)[1].r)


def nonrejected_accuracy(accurate, rejected):
    """Nonrejected accuracy ``A = |A∩N| / |N|``; NaN when nothing is kept.

    (The paper, whose k counts the kept samples, writes the denominator as
    n - k; its |N| = k is right.)

    Examples
    --------
    >>> nonrejected_accuracy([1, 1, 0, 0], [0, 0, 0, 1])
    0.6666666666666666
    """
    return float(_point_measures(accurate, rejected)[1].A)


def classification_quality(accurate, rejected):
    """Classification quality ``Q = (|A∩N| + |M∩R|) / n``.

    Examples
    --------
    >>> classification_quality([1, 1, 0, 0], [0, 0, 0, 1])
    0.75
    """
    return float(_point_measures(accurate, rejected)[1].Q)


def rejection_quality(accurate, rejected):
    """Rejection quality ``phi = (|M∩R| / |A∩R|) / (|M| / |A|)``.

    ``phi = inf`` when |A∩R| = 0 and |R| > 0 (only misclassified samples were
    rejected); ``phi = 1`` when nothing is rejected; ``phi = NaN`` when |M| = 0
    or |A| = 0, because the reference ratio |M| / |A| then has no meaning
    (this rule takes precedence over the other two).

    Examples
    --------
    >>> rejection_quality([1, 1, 0, 0], [1, 0, 0, 1])
    1.0
    >>> rejection_quality([1, 1, 0, 0], [0, 0, 0, 1])
    inf
    """
    return float(_point_measures(accurate, rejected)[1].phi)


def operating_point(accurate, rejected):
    """All measures at one operating point: fields ``r, A, Q, phi, counts``.

    Examples
    --------
    >>> op = operating_point([1, 1, 0, 0, 1], [0, 1, 1, 0, 0])
    >>> op.r, op.A, op.Q
    (0.4, 0.6666666666666666, 0.6)
    """
    counts, m = _point_measures(accurate, rejected)
    return OperatingPoint(*(float(x) for x in m), counts)


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
    thresholds_only = v.flag(thresholds_only, "thresholds_only")
    a = v.as_bool_1d(accurate, "accurate")
    c = v.as_finite_1d(confidence, "confidence")
    v.same_length(accurate=a, confidence=c)
    ar, breaks = _ranked(a, c, breaks=thresholds_only)
    n_acc = int(ar[-1])
    if not thresholds_only:
        return RejectionCurves(ar, a.size, n_acc)
    k = np.flatnonzero(breaks)
    return RejectionCurves(ar[k], a.size, n_acc, points=k.astype(np.int64, copy=False))


# --- Q and phi as functions of A(r) (Condessa et al. 2017, Sec. 3) ----------------------

def _triplet_inputs(A, r, alpha):
    A, r = v.accuracy_and_rejection(A, r)
    alpha = v.fraction(alpha, "alpha")
    v.broadcastable(A=A, r=r, alpha=alpha)
    # A is undefined (NaN) only where nothing is kept; A (1 - r) is then 0
    kept_accurate = np.where(r == 1, 0.0, A * (1 - r))
    v.fraction(np.where(r == 1, 0.0, A), "A")
    return kept_accurate, r, alpha


def quality_from_accuracy(A, r, alpha):
    """Classification quality from the accuracy-rejection curve: ``Q(r) = 2 A(r)(1 - r) + r - alpha``.

    ``alpha = A(0)`` is the accuracy without rejection. Follows from
    ``|A∩N| / n = A (1 - r)`` and ``|M∩R| / n = r - (alpha - A (1 - r))``, so
    ``Q(0) = A(0)``. ``A`` may be NaN where ``r = 1``. Broadcasts.

    Examples
    --------
    >>> round(quality_from_accuracy(0.8, 0.25, 0.7), 12)
    0.75
    """
    kept_accurate, r, alpha = _triplet_inputs(A, r, alpha)
    Q = 2 * kept_accurate + r - alpha
    return float(Q) if Q.ndim == 0 else Q


def rejection_quality_from_accuracy(A, r, alpha):
    """Rejection quality from the accuracy-rejection curve.

    ``phi(r) = [(1 - alpha) - (1 - r)(1 - A(r))] / [alpha - (1 - r) A(r)] * alpha / (1 - alpha)``:
    the numerator is |M∩R| / n and the first denominator |A∩R| / n. The same
    edge cases as :func:`rejection_quality`: 1 at r = 0, inf when no accurate
    sample is rejected (|A∩R| / n below 1e-12), NaN when alpha is 0 or 1.

    Examples
    --------
    >>> round(rejection_quality_from_accuracy(0.8, 0.25, 0.7), 12)  # (0.15 / 0.1) / (0.3 / 0.7)
    3.5
    >>> rejection_quality_from_accuracy(0.7, 0.0, 0.7)
    1.0
    """
    kept_accurate, r, alpha = _triplet_inputs(A, r, alpha)
    ar = _snap(alpha - kept_accurate)           # |A∩R| / n
    mr = _snap(r - ar)                          # |M∩R| / n
    with np.errstate(divide="ignore", invalid="ignore"):
        phi = np.where(ar > 0, mr / np.where(ar > 0, ar, 1.0), np.inf) * alpha / (1 - alpha)
    phi = np.where(r == 0, 1.0, phi)
    phi = np.where((alpha == 0) | (alpha == 1), np.nan, phi)
    return float(phi) if phi.ndim == 0 else phi
