"""Evaluate your own classifier: one report from predictions (Condessa et al. 2017, Secs. 3-4).

:func:`rejection_report` gathers, from ``y_true, y_pred, confidence`` or an (n, K)
matrix of probabilities, the curves r, A, Q, phi, the points at a few rejected
fractions, the max-Q point, rho_0, the cost at a price rho and the selective
numbers; optionally bootstrap bands and a threshold chosen on validation data.
Nothing printed depends on the order of the rows (the bootstrap aside), and what
a table does not show is computed on first access. :func:`rejlab.plot.report`
draws a report; :func:`report_from_estimator` makes one from any object with
``predict_proba`` and ``classes_`` (scikit-learn is never imported here).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple, Optional

import numpy as np

from ._constraints import accepts
from ._formulas import FORMULAS
from ._kinds import (
    CALLBACK,
    FINITE_1D,
    LABELS_1D,
    N_BOOT_OR_ZERO,
    OPEN_FRACTION,
    PROBA,
    REAL_NUMBER,
    SEED,
    SINGLE_FRACTION,
    instance,
    integer,
    one_of,
)
from ._ranking import kth_smallest, ranked
from ._report_inputs import (
    ESTIMATOR,
    ESTIMATOR_VALIDATION,
    FRACTIONS,
    VALIDATION,
    column_labels,
    predicted_proba,
    predictions,
    validation_inputs,
)
from ._report_text import report_text, value_text
from ._risk_coverage import FIELD_NAMES, threshold_field_numbers
from .bootstrap import (
    DEFAULT_BAND_FRACTIONS,
    Band,
    CurveBands,
    PointBands,
    bootstrap_curves,
    bootstrap_threshold,
)
from .curves import CURVE_FIELDS, RejectionCurves, subsample_curves
from .measures import MEASURE_NAMES, OperatingPoint, SubsetCounts, operating_point
from .optimality import operating_set
from .partitions import Threshold, reject_below
from .prices import CostCurve, cost_curve, rho_zero_curve
from .rejectors import REJECTORS
from .selective import CRITERIA, select_threshold

__all__ = [
    "DEFAULT_FRACTIONS",
    "RejectionReport",
    "ReportWalk",
    "rejection_report",
    "report_from_estimator",
    "format_value",
    "format_report",
]

#: Rejected fractions tabulated when none are requested.
DEFAULT_FRACTIONS = (0.0, 0.05, 0.1, 0.2, 0.3)


@dataclass(frozen=True, eq=False, repr=False)
class RejectionReport:
    """Everything :func:`rejection_report` measured, ready to print or draw.

    Attributes
    ----------
    curves : RejectionCurves
        r, A, Q, phi and the subset counts for k = 0 .. n rejected samples.
    fractions, points, tied_fractions
        The requested fractions; the point rejecting ``round(fraction * n)`` at each
        (where that count splits a tied group, the expectation over the group's
        orders: expected counts, phi from them); the fractions that split one.
    best, best_index, min_cost, min_cost_index
        The max-Q point (least rejecting on ties) and the min-cost point at ``rho``
        (None without it) among those a threshold reaches, with their k.
    rejector, labels, rho
        The rejector's name (or ``"given confidence"``), the probability columns'
        labels, the price of rejection (None when not given).
    n_boot, level, seed, bands, point_bands, best_point_bands
        The bootstrap settings (``n_boot = 0``: no bands); the ``CurveBands``; the
        ``PointBands`` at each fraction; those of the max-Q point's threshold
        (:attr:`best_threshold`, fixed; ``gain`` the paired band of Q - alpha).
    criterion, threshold, test_point, test_point_bands
        With validation data (else None): the ``Threshold`` chosen there by
        ``criterion``, the point it gives on the test data, and its bands.
    aurc, excess_aurc, augrc, failure_auroc, rho_zero, cost
        The selective numbers (rejlab's convention, ties averaged), rho_0 and the
        cost at every k: computed on first access.
    """

    curves: RejectionCurves
    fractions: tuple
    points: tuple
    best: OperatingPoint
    best_index: int
    rejector: str
    labels: Optional[tuple] = None
    rho: Optional[float] = None
    min_cost: Optional[OperatingPoint] = None
    min_cost_index: Optional[int] = None
    n_boot: int = 0
    level: float = 0.95
    seed: object = None
    bands: Optional[CurveBands] = None
    point_bands: Optional[tuple] = None
    criterion: Optional[str] = None
    threshold: Optional[Threshold] = None
    test_point: Optional[OperatingPoint] = None
    test_point_bands: Optional[PointBands] = None
    tied_fractions: tuple = ()
    best_point_bands: Optional[PointBands] = None
    _thresholds: Optional[RejectionCurves] = None   #: the curves at the points a threshold reaches
    _confidence: Optional[np.ndarray] = None     #: the confidences (sorted on first need)
    _best_threshold: Optional[float] = None      #: see :attr:`best_threshold`

    @cached_property
    def _sorted_confidence(self):
        return np.sort(self._confidence)

    @cached_property
    def rho_zero(self):
        """rho_0 = |M∩R| / |R| of every curve point against no rejection (NaN at k = 0)."""
        return self.curves.rho_0

    @cached_property
    def cost(self):
        """``L = (1 - A)(1 - r) + rho r`` along the curve (None without ``rho``)."""
        return None if self.rho is None else self.curves.cost(self.rho)

    @cached_property
    def _field(self):
        # the four at once, from the threshold points: the row order never moves them
        t = self._thresholds
        return threshold_field_numbers(t.points, t.n_accurate_rejected, self.n)

    aurc, excess_aurc, augrc, failure_auroc = (
        property(lambda self, name=name: self._field[name],
                 doc=f"{name} of the test data: :func:`rejlab.{name}` with its defaults")
        for name in FIELD_NAMES)

    @accepts(start=integer(0), stop=integer(0))
    def row_thresholds(self, start, stop):
        """``(t, reaches)`` for k = start .. stop - 1 rejected (stop clipped to n + 1).

        t: the least confident kept sample's confidence (``inf`` at k = n; float64,
        or an object array for other dtypes); reaches: whether ``confidence < t``
        rejects exactly k samples (no tied group straddles k).
        """
        c, n = self._sorted_confidence, self.n
        k = np.arange(start, min(stop, n + 1), dtype=np.int64)
        values = c[np.minimum(k, n - 1)]
        values = values.astype(np.float64) if c.dtype == np.float64 else values.astype(object)
        values[k >= n] = math.inf
        inner = (k > 0) & (k < n)
        reaches = np.ones(k.shape, dtype=bool)
        reaches[inner] = c[k[inner] - 1] < c[k[inner]]
        return values, reaches

    @property
    def best_threshold(self):
        """The threshold of the max-Q point (:meth:`row_thresholds`), chosen on these same data."""
        return self._best_threshold

    @property
    def n(self):
        """Number of samples."""
        return len(self.curves) - 1

    @property
    def alpha(self):
        """alpha = A(0) = |A| / n, the accuracy without rejection."""
        return self.curves.alpha

    @property
    def counts_at_fractions(self):
        """Number of rejected samples ``round(fraction * n)`` for each requested fraction."""
        return tuple(_count(f, self.n) for f in self.fractions)

    def table(self):
        """The rows of the printed table, as a list of dicts (one per requested fraction)."""
        rows = []
        for f, k, p in zip(self.fractions, self.counts_at_fractions, self.points):
            row = {"fraction": f, "k": k, "r": p.r, **{m: getattr(p, m) for m in MEASURE_NAMES},
                   "rho_0": p.rho_0}
            if self.rho is not None:   # from the point's counts: expected ones in a tie
                row["cost"] = _point_cost(p, k, self.rho, self.n)
            rows.append(row)
        return rows

    @cached_property
    def display_curves(self):
        """The curves at the points a figure shows: :func:`rejlab.curves.subsample_curves`."""
        return subsample_curves(self.curves)

    @cached_property
    def best_operating_set(self):
        """The operating set of the max-Q point (Condessa et al. 2017, Fig. 2): 401 r1, and its own."""
        best = self.best
        grid = np.union1d(np.linspace(0.0, 1.0, 401), [best.r])
        return operating_set(best.A, best.r, self.alpha, grid)

    @cached_property
    def rho_zero_display(self):
        """rho_0 against no rejection at the points a figure shows (:func:`rejlab.rho_zero_curve`)."""
        return rho_zero_curve(self.display_curves)

    @accepts(r=SINGLE_FRACTION, rho=SINGLE_FRACTION)
    def walk(self, r, rho):
        """The operating point rejecting ``round(r n)`` samples, and the cost along the curve at rho.

        What the report explorer shows (:func:`rejlab.plot.report_point` draws it).
        """
        k = _count(r, self.n)
        point = self.curves.point(k)
        return ReportWalk(self.rejector, self.n, self.display_curves, k, point,
                          _point_cost(point, k, rho, self.n), cost_curve(self.curves, rho))

    def __str__(self):
        return report_text(self, 4)

    def __repr__(self):
        return (f"<RejectionReport n={self.n}, rejector={self.rejector!r}, "
                f"alpha={value_text(self.alpha, 4)}, max Q={value_text(self.best.Q, 4)} "
                f"at r={value_text(self.best.r, 4)}>")

    def _repr_pretty_(self, printer, cycle):
        printer.text(str(self))


class ReportWalk(NamedTuple):
    """What :meth:`RejectionReport.walk` returns: one point and the cost at one price."""

    rejector: str                #: the report's rejector
    n: int                       #: its number of samples
    curves: RejectionCurves      #: the report's curves at the points a figure shows
    k: int                       #: the number of rejected samples, ``round(r n)``
    point: OperatingPoint        #: the operating point rejecting k samples
    point_cost: float            #: its cost at ``cost.rho``
    cost: CostCurve              #: the cost along the curve, with its cheapest point


def _count(fraction, n):
    """The count ``reject_lowest(confidence, fraction)`` rejects."""
    return round(float(fraction) * n)


# --- the points: the curves and the points a threshold reaches, from one ranking ----------

def _curves_and_thresholds(accurate, confidence):
    """The curves at every k, and at the points a threshold reaches (the ranking's breaks).

    Without ties both are the same object, so no n-length array is made twice.
    """
    ar, breaks = ranked(accurate, confidence, breaks=True)
    n, n_acc = accurate.size, int(ar[-1])
    curves = RejectionCurves(ar, n, n_acc)
    if bool(breaks.all()):                    # every k is a threshold point: no tie
        return curves, curves
    k = np.flatnonzero(breaks)
    del breaks
    return curves, RejectionCurves(ar[k], n, n_acc, points=k.astype(np.int64, copy=False))


def _threshold_rejected(thresholds, i):
    """|R| at the threshold point of index i."""
    return i if thresholds.points is None else int(thresholds.points[i])


def _point_at(curves, thresholds, k):
    """The point rejecting k samples; inside a tied group, its expectation.

    Between threshold points s < k < e (|A∩R| = a_s, a_e), a random order of the
    group rejects ``E|A∩R| = a_s + (k - s)(a_e - a_s) / (e - s)``; the rest follows.
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


def _point_cost(point, k, rho, n):
    """The cost ``L = (|M∩N| + rho |R|) / n`` of a point: :meth:`RejectionCurves.cost`'s bits,
    from expected counts too."""
    return float((point.counts.mn + rho * k) / n)


_OPTIONS = dict(rejector=one_of(REJECTORS), fractions=FRACTIONS, rho=SINGLE_FRACTION,
                n_boot=N_BOOT_OR_ZERO, level=OPEN_FRACTION, seed=SEED,
                criterion=one_of(CRITERIA), target_accuracy=SINGLE_FRACTION, progress=CALLBACK)


@accepts(y_true=LABELS_1D, y_pred=LABELS_1D, confidence=FINITE_1D, proba=PROBA, labels=LABELS_1D,
         validation=VALIDATION, **_OPTIONS,
         same_length=[("y_true", "y_pred", "confidence"), ("y_true", "proba")])
def rejection_report(y_true, y_pred=None, confidence=None, *, proba=None, labels=None,
                     rejector="max_probability", fractions=DEFAULT_FRACTIONS, rho=None,
                     n_boot=0, level=0.95, seed=None, validation=None, criterion="max_Q",
                     target_accuracy=None, progress=None):
    """Measure a classifier with rejection from its predictions (Condessa et al. 2017, Secs. 3-4).

    Parameters
    ----------
    y_pred, confidence : array-like, shape (n,), optional
        Predicted labels and finite confidences (higher = surer), or ``proba``.
    proba : array-like, shape (n, K), keyword-only, optional
        Class probabilities, column j for class ``labels[j]`` (default ``0 .. K-1``);
        the prediction is the most probable class unless ``y_pred`` is given, the
        confidence that of ``rejector`` (:data:`rejlab.REJECTORS`).
    fractions : number or sequence in [0, 1], keyword-only
        Rejected fractions to tabulate, each ``round(fraction * n)`` samples.
    rho : float in [0, 1], keyword-only, optional
        Price of rejection: adds the cost ``L = (1 - A)(1 - r) + rho r`` and its minimum.
    n_boot, level, seed : keyword-only
        ``n_boot > 0`` (at most 100,000) adds percentile-bootstrap bands
        (:func:`rejlab.bootstrap_curves`); the same seed, the same bands.
    validation : mapping, keyword-only, optional
        ``dict(y_true=..., y_pred=..., confidence=...)`` or ``dict(y_true=..., proba=...)``
        of the same classifier: a threshold is chosen there by ``criterion`` (and
        ``target_accuracy``; :func:`rejlab.select_threshold`) and applied to the
        test data with :func:`rejlab.reject_below`: the honest operating point.
    progress : callable, keyword-only, optional
        Called with the fraction of the bootstrap done (0 .. 1).

    Examples
    --------
    >>> rep = rejection_report([0, 1, 1, 0], [0, 1, 0, 1], [0.9, 0.8, 0.3, 0.2],
    ...                        fractions=[0, 0.5])
    >>> [round(p.Q, 3) for p in rep.points]
    [0.5, 1.0]
    >>> rep.best_index, rep.best.A, rep.best.phi
    (2, 1.0, inf)
    >>> rep.rho_zero[1:].round(3)
    array([1.   , 1.   , 0.667, 0.5  ])
    >>> rep
    <RejectionReport n=4, rejector='given confidence', alpha=0.5000, max Q=1.0000 at r=0.5000>
    >>> rep2 = rejection_report(["a", "b"], proba=[[0.8, 0.2], [0.4, 0.6]],
    ...                         labels=["a", "b"], fractions=0)
    >>> rep2.best.A
    1.0
    >>> rep3 = rejection_report([0, 1, 1, 0], [0, 1, 0, 1], [0.9, 0.8, 0.3, 0.2],
    ...                         validation=dict(y_true=[0, 1, 1], y_pred=[0, 1, 0],
    ...                                         confidence=[0.9, 0.6, 0.4]))
    >>> rep3.threshold.value, rep3.test_point.r, rep3.test_point.Q
    (0.5, 0.5, 1.0)
    """
    accurate, confidence, rejector_name, label_tuple = predictions(
        y_true, y_pred, confidence, proba, labels, rejector)
    val = None
    if validation is not None:
        # the test data's labels (given or 0 .. K-1): the validation columns must be the same
        val = validation_inputs(validation, proba is not None, labels,
                                None if proba is None else proba.shape[1], rejector)
    return _report(accurate, confidence, rejector_name, label_tuple, fractions, rho, n_boot,
                   level, seed, val, criterion, target_accuracy, progress)


def _report(accurate, confidence, rejector_name, label_tuple, fractions, rho, n_boot, level, seed,
            val, criterion, target_accuracy, progress):
    """The report of checked inputs (``val``: the validation (accurate, confidence), or None)."""
    if val is None and (criterion != "max_Q" or target_accuracy is not None):
        raise ValueError("criterion and target_accuracy choose a threshold on validation data: "
                         "give validation=... too")
    curves, thresholds = _curves_and_thresholds(accurate, confidence)
    n = accurate.size
    points = tuple(_point_at(curves, thresholds, _count(f, n)) for f in fractions)
    best_index = _threshold_rejected(thresholds, thresholds.best_Q())
    min_cost_index = None if rho is None else _threshold_rejected(thresholds,
                                                                  thresholds.min_cost(rho))
    # the bootstrap's share of the work, for a progress bar: curves, then the test point
    runs = int(n_boot > 0) * (1 + int(val is not None))

    def stage(i):
        return None if progress is None else (lambda f: progress((i + f) / runs))

    bands = point_bands = chosen = test_point = test_point_bands = best_point_bands = None
    # the least confident kept sample's confidence at the max-Q point (as row_thresholds)
    best_threshold = math.inf if best_index >= n else kth_smallest(confidence, best_index).item()
    if n_boot:
        bands = bootstrap_curves(accurate, confidence, n_boot=n_boot, level=level, seed=seed,
                                 fractions=np.union1d(DEFAULT_BAND_FRACTIONS, fractions),
                                 progress=stage(0))
        point_bands = tuple(_bands_at(bands, f, p) for f, p in zip(fractions, points))
        if val is None:   # the verdict's interval: Q - alpha at the max-Q point's threshold
            best_point_bands = bootstrap_threshold(accurate, confidence, best_threshold, n_boot=n_boot,
                                                   level=level, seed=seed)
    if val is not None:
        try:
            chosen = select_threshold(*val, criterion=criterion, target_accuracy=target_accuracy,
                                      rho=rho if criterion == "min_cost" else None)
        except ValueError as exc:
            raise ValueError(f"validation: {exc}") from None
        test_point = operating_point(accurate, reject_below(confidence, chosen.value))
        if n_boot:
            test_point_bands = bootstrap_threshold(accurate, confidence, chosen.value,
                                                   n_boot=n_boot, level=level, seed=seed,
                                                   progress=stage(1))
    return RejectionReport(
        curves=curves, fractions=fractions, points=points, best=curves.point(best_index),
        best_index=best_index, rejector=rejector_name, labels=label_tuple, rho=rho,
        min_cost=None if rho is None else curves.point(min_cost_index),
        min_cost_index=min_cost_index, n_boot=n_boot, level=level, seed=seed, bands=bands,
        point_bands=point_bands, criterion=criterion if val is not None else None,
        threshold=chosen, test_point=test_point, test_point_bands=test_point_bands,
        tied_fractions=tuple(f for f, p in zip(fractions, points)
                             if isinstance(p.counts.ar, float)),
        best_point_bands=best_point_bands, _thresholds=thresholds,
        _confidence=confidence, _best_threshold=best_threshold)


def _bands_at(bands, fraction, point):
    """The bands of one tabulated point, out of the report's CurveBands."""
    i = int(np.flatnonzero(bands.fractions == fraction)[0])
    r = Band(point.r, point.r, point.r)   # the count is fixed at a fraction
    return PointBands(r, *(Band(float(b.estimate[i]), float(b.low[i]), float(b.high[i]))
                           for b in (bands.A, bands.Q, bands.phi)))


@accepts(estimator=ESTIMATOR, y=LABELS_1D, validation=ESTIMATOR_VALIDATION, **_OPTIONS)
def report_from_estimator(estimator, X, y, *, rejector="max_probability",
                          fractions=DEFAULT_FRACTIONS, rho=None, n_boot=0, level=0.95, seed=None,
                          validation=None, criterion="max_Q", target_accuracy=None,
                          progress=None):
    """:func:`rejection_report` for a fitted scikit-learn classifier on test data.

    ``estimator.predict_proba(X)`` with ``estimator.classes_`` as column labels; the
    prediction is the most probable class. ``X, y`` are test data (never the
    training set); ``validation=(X_val, y_val)`` chooses the threshold there. The
    other options are those of :func:`rejection_report`.

    Examples
    --------
    >>> class Constant:  # a stand-in for a fitted classifier
    ...     classes_ = ["no", "yes"]
    ...     def predict_proba(self, X):
    ...         return [[0.3, 0.7] if x > 0 else [0.9, 0.1] for x in X]
    >>> rep = report_from_estimator(Constant(), [1, -1, 2], ["yes", "no", "no"])
    >>> rep.alpha, rep.labels
    (0.6666666666666666, ('no', 'yes'))
    >>> rep = report_from_estimator(Constant(), [1, -1, 2], ["yes", "no", "no"],
    ...                             validation=([1, -1], ["no", "no"]))
    >>> rep.threshold.value, rep.threshold.r, rep.test_point.r
    (0.8, 0.5, 0.6666666666666666)
    """
    classes = LABELS_1D(estimator.classes_, "estimator.classes_")
    val = None
    if validation is not None:
        X_val, y_val = validation
        try:
            y_val = LABELS_1D(y_val, "y_val")
            val_proba = predicted_proba(estimator, X_val, y_val.size, "X_val", "y_val")
            val_labels = column_labels(classes, val_proba.shape[1])
            val = predictions(y_val, None, None, val_proba, val_labels, rejector)[:2]
        except ValueError as exc:
            raise ValueError(f"validation: {exc}") from None
    proba = predicted_proba(estimator, X, y.size, "X", "y")
    accurate, confidence, rejector_name, label_tuple = predictions(
        y, None, None, proba, column_labels(classes, proba.shape[1]), rejector)
    return _report(accurate, confidence, rejector_name, label_tuple, fractions, rho, n_boot,
                   level, seed, val, criterion, target_accuracy, progress)


# --- the plain-text table ---------------------------------------------------

@accepts(x=REAL_NUMBER, digits=integer(0, 15))
def format_value(x, digits=4):
    """A measure as plain text: fixed decimals, with nan / inf / -inf spelled out.

    >>> format_value(0.5), format_value(float("nan")), format_value(-float("inf"), 2)
    ('0.5000', 'nan', '-inf')
    """
    return value_text(x, digits)


@accepts(report=instance(RejectionReport, "a RejectionReport (from rl.rejection_report)"),
         digits=integer(0, 15))
def format_report(report, digits=4):
    """The plain-text table ``str(report)`` returns (values to ``digits`` decimals)."""
    return report_text(report, digits)
