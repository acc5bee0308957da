"""The report's points: the curves and the points a threshold reaches, from one ranking.

:func:`rejlab.rejection_report` reads its table, its maximum-Q and
minimum-cost points and its selective numbers off two
:class:`rejlab.curves.RejectionCurves` that share the ranking's counts (so
no n-length array is made twice), and a tabulated count that cuts through
a group of tied confidences gets the expectation over the group's orders
(Condessa et al. 2017, Sec. 3; ``docs/maths.md``). Inputs are validated by
the callers.
"""

from __future__ import annotations

import numpy as np

from ._formulas import FORMULAS
from ._ranking import ranked
from .curves import CURVE_FIELDS, RejectionCurves
from .measures import OperatingPoint, SubsetCounts

__all__ = ["curves_and_thresholds", "threshold_rejected", "point_at", "point_cost"]


def curves_and_thresholds(accurate, confidence):
    """The curves at every k, and at the points a threshold reaches, from one ranking.

    The ranking's counts serve both: the thresholds are its counts at the
    breaks between distinct confidences (the counts of the tie groups,
    whatever the order inside a group), and without ties they are the
    curves themselves (``points=None``), so no n-length array is made twice.
    """
    ar, breaks = ranked(accurate, confidence, breaks=True)
    n, n_acc = accurate.size, int(ar[-1])
    curves = RejectionCurves(ar, n, n_acc)
    if bool(breaks.all()):                    # every k is a threshold point: no tie
        return curves, curves
    k = np.flatnonzero(breaks)
    del breaks
    return curves, RejectionCurves(ar[k], n, n_acc, points=k.astype(np.int64, copy=False))


def threshold_rejected(thresholds, i):
    """|R| at the threshold point of index i."""
    return i if thresholds.points is None else int(thresholds.points[i])


def point_at(curves, thresholds, k):
    """The point rejecting k samples, or, where k cuts through a tie, its expectation.

    Inside a group of equal confidences (thresholds at s < k < e rejected,
    |A∩R| = a_s and a_e there), a uniformly random order of the group
    rejects ``E|A∩R| = a_s + (k - s)(a_e - a_s) / (e - s)`` accurate samples;
    the other counts follow, and the measures are computed from them.
    """
    if thresholds.points is None:          # no tie: every k is a threshold point
        return curves.point(k)
    ks = thresholds.points
    j = int(np.searchsorted(ks, k))
    if ks[j] == k:
        return curves.point(k)
    s, e = int(ks[j - 1]), int(ks[j])
    a_s, a_e = int(thresholds.n_accurate_rejected[j - 1]), int(thresholds.n_accurate_rejected[j])
    ar = a_s + ((k - s) * (a_e - a_s)) / (e - s)
    n, n_acc = curves.n_samples, curves.n_accurate
    counts = SubsetCounts(an=n_acc - ar, mn=(n - n_acc) - (k - ar), ar=ar, mr=k - ar)
    return OperatingPoint(*(float(FORMULAS[name](*counts)) for name in CURVE_FIELDS), counts)


def point_cost(point, k, rho, n):
    """The cost ``L = (|M∩N| + rho |R|) / n`` of one point: the bits of :meth:`RejectionCurves.cost`."""
    return float((point.counts.mn + rho * k) / n)
