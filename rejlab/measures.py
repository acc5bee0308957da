"""The four sample subsets and the three performance measures (Condessa et al. 2017, Sec. 3).

``r = |R| / n``, ``A = |A∩N| / |N|``, ``Q = (|A∩N| + |M∩R|) / n`` and
``phi = (|M∩R| / |A∩R|) / (|M| / |A|)``, from a partition, from the four counts,
or from the curve A(r) (``docs/maths.md``, section (b)); each formula is written
once, on the counts, in :mod:`rejlab._formulas`. :data:`MEASURES` is the table
of the three measures that reports, plots and explorers iterate over.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import _validate as v
from ._constraints import accepts
from ._formulas import FORMULAS, kept_accurate, snap
from ._kinds import ACCURACY, AMOUNTS, BOOL_1D, FRACTION, one_of

__all__ = ["Measure", "MEASURES", "MEASURE_NAMES", "measure_info", "Measures", "SubsetCounts",
           "OperatingPoint", "subset_counts", "rejected_fraction", "nonrejected_accuracy",
           "classification_quality", "rejection_quality", "operating_point",
           "measures_from_counts", "quality_from_accuracy", "rejection_quality_from_accuracy"]


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


@accepts(name=one_of(MEASURE_NAMES))
def measure_info(name):
    """The :class:`Measure` row of ``"A"``, ``"Q"`` or ``"phi"``.

    >>> measure_info("phi").symbol
    'φ'
    """
    return MEASURES[MEASURE_NAMES.index(name)]


class Measures(NamedTuple):
    """r, A, Q and phi (floats, or arrays of them), as :func:`measures_from_counts` returns."""

    r: object
    A: object
    Q: object
    phi: object


class SubsetCounts(NamedTuple):
    """Sizes of the four subsets A∩N, M∩N, A∩R, M∩R (ints, or int arrays on curves)."""

    an: int
    mn: int
    ar: int
    mr: int

    n = property(lambda self: self.an + self.mn + self.ar + self.mr, doc="n, the samples.")
    accurate = property(lambda self: self.an + self.ar, doc="|A|, the accurate samples.")
    misclassified = property(lambda self: self.mn + self.mr, doc="|M|, the misclassified ones.")
    nonrejected = property(lambda self: self.an + self.mn, doc="|N| = n - k (k rejected).")
    rejected = property(lambda self: self.ar + self.mr, doc="|R| = k, the number rejected.")

    @property
    def rho_0(self):
        """``|M∩R| / |R|``, the price below which this rejection beats none; NaN when k = 0."""
        rho_0 = FORMULAS["rho_0"](*self)
        return float(rho_0) if np.ndim(rho_0) == 0 else rho_0


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


def _measures(an, mn, ar, mr):
    return Measures(*(FORMULAS[name](an, mn, ar, mr) for name in ("r", *MEASURE_NAMES)))


_PARTITION = dict(accurate=BOOL_1D, rejected=BOOL_1D, same_length=("accurate", "rejected"))


@accepts(**_PARTITION)
def subset_counts(accurate, rejected):
    """Sizes of the four subsets A∩N, M∩N, A∩R, M∩R (Condessa et al. 2017, Fig. 1).

    Examples
    --------
    >>> subset_counts([1, 1, 0, 0, 1], [0, 1, 1, 0, 0])
    SubsetCounts(an=2, mn=1, ar=1, mr=1)
    """
    ar = int(np.count_nonzero(accurate & rejected))
    n_a, n_r = int(np.count_nonzero(accurate)), int(np.count_nonzero(rejected))
    return SubsetCounts(an=n_a - ar, mn=accurate.size - n_a - n_r + ar, ar=ar, mr=n_r - ar)


@accepts(**_PARTITION)
def operating_point(accurate, rejected):
    """All measures at one operating point: fields ``r, A, Q, phi, counts``.

    Examples
    --------
    >>> op = operating_point([1, 1, 0, 0, 1], [0, 1, 1, 0, 0])
    >>> op.r, op.A, op.Q
    (0.4, 0.6666666666666666, 0.6)
    """
    counts = subset_counts(accurate, rejected)
    return OperatingPoint(*(float(x) for x in _measures(*counts)), counts)


@accepts(**_PARTITION)
def rejected_fraction(accurate, rejected):
    """Rejected fraction ``r = |R| / n`` (Condessa et al. 2017, Eq. 2)."""
    return operating_point(accurate, rejected).r


@accepts(**_PARTITION)
def nonrejected_accuracy(accurate, rejected):
    """Nonrejected accuracy ``A = |A∩N| / |N|``; NaN when nothing is kept (the paper's n - k is a typo).

    Examples
    --------
    >>> nonrejected_accuracy([1, 1, 0, 0], [0, 0, 0, 1])
    0.6666666666666666
    """
    return operating_point(accurate, rejected).A


@accepts(**_PARTITION)
def classification_quality(accurate, rejected):
    """Classification quality ``Q = (|A∩N| + |M∩R|) / n``.

    Examples
    --------
    >>> classification_quality([1, 1, 0, 0], [0, 0, 0, 1])
    0.75
    """
    return operating_point(accurate, rejected).Q


@accepts(**_PARTITION)
def rejection_quality(accurate, rejected):
    """Rejection quality ``phi = (|M∩R| / |A∩R|) / (|M| / |A|)``.

    ``inf`` when |A∩R| = 0 < |R|; 1 when nothing is rejected; NaN, first of all, when
    |M| = 0 or |A| = 0 (the reference ratio has no meaning).

    Examples
    --------
    >>> rejection_quality([1, 1, 0, 0], [1, 0, 0, 1])
    1.0
    >>> rejection_quality([1, 1, 0, 0], [0, 0, 0, 1])
    inf
    """
    return operating_point(accurate, rejected).phi


@accepts(an=AMOUNTS, mn=AMOUNTS, ar=AMOUNTS, mr=AMOUNTS, broadcast=("an", "mn", "ar", "mr"))
def measures_from_counts(an, mn, ar, mr):
    """r, A, Q, phi from the four subset sizes (counts or fractions of n; arrays broadcast).

    The edge cases of :func:`rejection_quality`, and ``A = NaN`` when |N| = 0.

    Examples
    --------
    >>> measures_from_counts(6, 1, 1, 2).Q
    np.float64(0.8)
    """
    v.some_samples(an + mn + ar + mr, "an, mn, ar, mr")
    return _measures(*_unit_scaled(an, mn, ar, mr))


def _unit_scaled(an, mn, ar, mr):
    """The four counts times one power of two per point, the largest then in [0.5, 1).

    A power of two changes no bit of a ratio of the counts, but keeps counts of any
    scale (1e300, 5e-324) from overflowing or underflowing in ``|M∩R| |A|``.
    """
    counts = np.broadcast_arrays(*(np.asarray(x, dtype=np.float64) for x in (an, mn, ar, mr)))
    _, exponent = np.frexp(np.maximum.reduce([np.abs(c) for c in counts]))
    return tuple(np.ldexp(c, -exponent) for c in counts)


_CURVE = dict(A=ACCURACY, r=FRACTION, alpha=FRACTION, broadcast=("A", "r", "alpha"),
              defined_where_kept=("A", "r"), possible_point=("A", "r", "alpha"))


def _number(x):
    return float(x) if np.ndim(x) == 0 else x


@accepts(**_CURVE)
def quality_from_accuracy(A, r, alpha):
    """Classification quality from the accuracy-rejection curve: ``Q(r) = 2 A(r)(1 - r) + r - alpha``.

    ``alpha = A(0)``; ``A`` may be NaN where ``r = 1``. Broadcasts.

    Examples
    --------
    >>> round(quality_from_accuracy(0.8, 0.25, 0.7), 12)
    0.75
    """
    return _number(2 * kept_accurate(A, r) + r - alpha)


@accepts(**_CURVE)
def rejection_quality_from_accuracy(A, r, alpha):
    """Rejection quality from the accuracy-rejection curve.

    ``phi(r) = [(1 - alpha) - (1 - r)(1 - A(r))] / [alpha - (1 - r) A(r)] * alpha / (1 - alpha)``:
    the numerator is |M∩R| / n, the first denominator |A∩R| / n; the edge cases of
    :func:`rejection_quality` (inf when |A∩R| / n is below 1e-12).

    Examples
    --------
    >>> round(rejection_quality_from_accuracy(0.8, 0.25, 0.7), 12)  # (0.15 / 0.1) / (0.3 / 0.7)
    3.5
    >>> rejection_quality_from_accuracy(0.7, 0.0, 0.7)
    1.0
    """
    ar = snap(alpha - kept_accurate(A, r))     # |A∩R| / n
    mr = snap(r - ar)                          # |M∩R| / n
    with np.errstate(divide="ignore", invalid="ignore"):
        phi = np.where(ar > 0, mr / np.where(ar > 0, ar, 1.0), np.inf) * alpha / (1 - alpha)
    phi = np.where(r == 0, 1.0, phi)
    return _number(np.where((alpha == 0) | (alpha == 1), np.nan, phi))
