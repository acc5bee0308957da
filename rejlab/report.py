"""Evaluate your own classifier: one report from predictions (Condessa et al. 2017, Secs. 3-4).

:func:`rejection_report` takes what a student already has, either
``y_true, y_pred, confidence`` or ``y_true`` plus an (n, K) matrix of class
probabilities, and gathers the measures of the first paper in one frozen
:class:`RejectionReport`:

- the curves r, A, Q, phi for every number of rejected samples
  (:func:`rejlab.rejection_curves`);
- the operating points at a few requested rejected fractions, with the
  semantics of :func:`rejlab.reject_lowest` (``count = round(fraction * n)``);
- the operating point of maximum classification quality Q;
- the rho_0 curve against no rejection: ``rho_0 = |M∩R| / |R|``, the price
  of rejection below which rejecting the k least confident samples beats not
  rejecting at all;
- optionally, for a price of rejection rho, the cost
  ``L = (1 - A)(1 - r) + rho r`` along the curve and its minimum.

A report computes and formats; it never draws. ``str(report)`` is a
plain-text table, :func:`rejlab.plot.report` draws it and
:func:`rejlab.widgets.report_explorer` walks along it.
:func:`report_from_estimator` does the same for a fitted scikit-learn
classifier (duck-typed: ``predict_proba`` and ``classes_``; scikit-learn is
never imported here).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Optional

import numpy as np

from . import _validate as v
from .measures import MEASURE_NAMES, OperatingPoint, RejectionCurves, accuracy_vector, rejection_curves
from .rejectors import REJECTORS, confidence_from_proba

__all__ = [
    "DEFAULT_FRACTIONS",
    "RejectionReport",
    "rejection_report",
    "report_from_estimator",
    "format_value",
    "format_report",
]

#: Rejected fractions tabulated when none are requested.
DEFAULT_FRACTIONS = (0.0, 0.05, 0.1, 0.2, 0.3)

#: The name a report carries when the confidence was given directly.
GIVEN_CONFIDENCE = "given confidence"


@dataclass(frozen=True, eq=False, repr=False)
class RejectionReport:
    """Everything :func:`rejection_report` measured, ready to print or draw.

    Attributes
    ----------
    curves : RejectionCurves
        r, A, Q, phi (and the four subset counts) for k = 0 .. n rejected samples.
    rho_zero : numpy.ndarray, shape (n + 1,)
        rho_0 of each curve point against no rejection, ``|M∩R| / |R|``;
        NaN at k = 0 (the point is the reference itself). The curves'
        :attr:`~rejlab.RejectionCurves.rho_0`, computed on first use.
    fractions : tuple of float
        The requested rejected fractions, in the order given.
    points : tuple of OperatingPoint
        The operating point at each requested fraction, rejecting
        ``round(fraction * n)`` samples (as :func:`rejlab.reject_lowest`).
    best : OperatingPoint
        The point of maximum Q (the first one on ties).
    best_index : int
        Its number of rejected samples k (= its index on the curves).
    rejector : str
        The rejector's name, or ``"given confidence"``.
    labels : tuple or None
        The class labels of the probability columns (None without ``proba``).
    rho : float or None
        The price of rejection, if one was given.
    cost : numpy.ndarray or None
        ``L = (1 - A)(1 - r) + rho r`` along the curve (None without ``rho``).
    min_cost : OperatingPoint or None
        The point of minimum cost (None without ``rho``).
    min_cost_index : int or None
        Its number of rejected samples k.
    """

    curves: RejectionCurves
    fractions: tuple
    points: tuple
    best: OperatingPoint
    best_index: int
    rejector: str
    labels: Optional[tuple] = None
    rho: Optional[float] = None
    cost: Optional[np.ndarray] = None
    min_cost: Optional[OperatingPoint] = None
    min_cost_index: Optional[int] = None

    @cached_property
    def rho_zero(self):
        """rho_0 = |M∩R| / |R| of every curve point (NaN at k = 0)."""
        return self.curves.rho_0

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
            if self.cost is not None:
                row["cost"] = float(self.cost[k])
            rows.append(row)
        return rows

    def __str__(self):
        return format_report(self)

    def __repr__(self):
        return (f"<RejectionReport n={self.n}, rejector={self.rejector!r}, "
                f"alpha={format_value(self.alpha)}, max Q={format_value(self.best.Q)} at r={format_value(self.best.r)}>")

    def _repr_pretty_(self, printer, cycle):
        # in a notebook, a report on the last line shows its table
        printer.text(str(self))


def _count(fraction, n):
    # the semantics of reject_lowest(confidence, fraction)
    return round(float(fraction) * n)


def _fractions(fractions):
    arr = v.real_array(fractions, "fractions", "a number or a 1-D sequence of numbers in [0, 1]")
    if arr.ndim > 1:
        raise ValueError("fractions must be a number or a 1-D sequence of numbers in [0, 1]")
    values = tuple(float(f) for f in np.atleast_1d(arr))
    if not values:
        raise ValueError("fractions must not be empty")
    v.fraction(values, "fractions")
    return values


def _labels(labels, n_classes):
    if labels is None:
        return np.arange(n_classes)
    arr = v.labels_1d(labels, "labels")
    if arr.size != n_classes:
        raise ValueError(
            f"labels must have one entry per probability column: got {arr.size} labels "
            f"for {n_classes} columns")
    try:
        distinct = np.unique(arr).size
    except TypeError:  # mixed types that do not compare (e.g. complex and float)
        raise ValueError("labels must be all numbers or all strings (comparable values), "
                         f"got {labels!r:.60}") from None
    if distinct != arr.size:
        raise ValueError("labels must not repeat")
    return arr


def _check_in_labels(y, name, labels):
    try:
        known = np.isin(y, labels)
    except TypeError:
        raise ValueError(f"{name} holds labels that do not compare with labels "
                         "(mix of numbers, strings or complex values)") from None
    if not np.all(known):
        i = int(np.flatnonzero(~known)[0])
        shown = ", ".join(repr(x) for x in labels.tolist()[:10])
        more = ", ..." if labels.size > 10 else ""
        raise ValueError(
            f"{name} holds label {y[i]!r} (sample {i}) that is not among the probability "
            f"columns' labels [{shown}{more}]; pass labels=... in column order")


def rejection_report(y_true, y_pred=None, confidence=None, *, proba=None, labels=None,
                     rejector="max_probability", fractions=DEFAULT_FRACTIONS, rho=None):
    """Measure a classifier with rejection from its predictions (Condessa et al. 2017, Secs. 3-4).

    Give either ``y_pred`` and ``confidence`` (higher = surer), or ``proba``,
    an (n, K) matrix of class probabilities. With ``proba`` the prediction is
    the most probable class, ``labels[argmax_k p_k]`` (or ``y_pred`` if it is
    given too), and the confidence comes from the rejector named by
    ``rejector`` (see :data:`rejlab.REJECTORS`: ``"max_probability"``,
    ``"breaking_ties"``).

    Rejection keeps the most confident samples, with the library's tie policy
    (confidence ascending, then sample index ascending, are rejected first).

    Parameters
    ----------
    y_true : array-like, shape (n,)
        Ground-truth labels.
    y_pred : array-like, shape (n,), optional
        Predicted labels. Required without ``proba``.
    confidence : array-like of float, shape (n,), optional
        Finite confidences. Give it without ``proba``, never with it.
    proba : array-like, shape (n, K), keyword-only, optional
        Class probabilities (rows sum to 1); column j is class ``labels[j]``.
    labels : array-like, shape (K,), keyword-only, optional
        The class of each probability column; default ``0 .. K-1``. Every
        label in ``y_true`` and ``y_pred`` must be one of them.
    rejector : str, keyword-only, default "max_probability"
        The rejector's name, used only with ``proba``.
    fractions : sequence of float in [0, 1], keyword-only
        Rejected fractions to tabulate; each rejects ``round(fraction * n)``
        samples, as :func:`rejlab.reject_lowest`. Default ``(0, .05, .1, .2, .3)``.
    rho : float in [0, 1], keyword-only, optional
        Price of rejection: adds the cost ``L = (1 - A)(1 - r) + rho r``
        along the curve and its minimum.

    Returns
    -------
    RejectionReport

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
    """
    y_true = v.labels_1d(y_true, "y_true")
    fractions = _fractions(fractions)
    if rho is not None:
        rho_arr = v.fraction(rho, "rho")
        if rho_arr.ndim != 0:
            raise ValueError("rho must be a single number in [0, 1]")
        rho = float(rho_arr)

    label_tuple = None
    if proba is not None:
        if confidence is not None:
            raise ValueError("give either confidence or proba, not both "
                             "(with proba the confidence comes from the rejector)")
        v.choice(rejector, "rejector", REJECTORS)
        p = v.probabilities(proba, "proba")
        if p.shape[0] != y_true.size:
            raise ValueError(f"y_true and proba must have the same number of samples, "
                             f"got {y_true.size} and {p.shape[0]}")
        lab = _labels(labels, p.shape[1])
        _check_in_labels(y_true, "y_true", lab)
        if y_pred is None:
            y_pred = lab[np.argmax(p, axis=1)]
        else:
            y_pred = v.labels_1d(y_pred, "y_pred")
            v.same_length(y_true=y_true, y_pred=y_pred)
            _check_in_labels(y_pred, "y_pred", lab)
        confidence = confidence_from_proba(p, rejector)
        label_tuple = tuple(lab.tolist())
        rejector_name = rejector
    else:
        if y_pred is None or confidence is None:
            raise ValueError("give y_pred and confidence, or proba=...")
        if labels is not None:
            raise ValueError("labels name the probability columns: give them only with proba")
        rejector_name = GIVEN_CONFIDENCE
        confidence = v.as_finite_1d(confidence, "confidence")
        v.same_length(y_true=y_true, confidence=confidence)

    accurate = accuracy_vector(y_true, y_pred)
    curves = rejection_curves(accurate, confidence)
    n = accurate.size
    points = tuple(curves.point(_count(f, n)) for f in fractions)
    best_index = curves.best_Q()

    cost = min_cost = min_cost_index = None
    if rho is not None:
        cost = curves.cost(rho)
        min_cost_index = curves.min_cost(rho)
        min_cost = curves.point(min_cost_index)

    return RejectionReport(
        curves=curves,
        fractions=fractions,
        points=points,
        best=curves.point(best_index),
        best_index=best_index,
        rejector=rejector_name,
        labels=label_tuple,
        rho=rho,
        cost=cost,
        min_cost=min_cost,
        min_cost_index=min_cost_index,
    )


def report_from_estimator(estimator, X, y, *, rejector="max_probability",
                          fractions=DEFAULT_FRACTIONS, rho=None):
    """:func:`rejection_report` for a fitted scikit-learn classifier on test data.

    Uses ``estimator.predict_proba(X)`` as the probability matrix and
    ``estimator.classes_`` as its column labels; the prediction is the most
    probable class (what ``predict`` returns for most classifiers).
    scikit-learn itself is not imported: any object with these two
    attributes works.

    Parameters
    ----------
    estimator : fitted classifier with ``predict_proba`` and ``classes_``
    X : array-like, shape (n, d)
        Test samples (never the training set, or the report is optimistic).
    y : array-like, shape (n,)
        Their true labels.
    rejector, fractions, rho
        As in :func:`rejection_report`.

    Returns
    -------
    RejectionReport

    Examples
    --------
    >>> class Constant:  # a stand-in for a fitted classifier
    ...     classes_ = ["no", "yes"]
    ...     def predict_proba(self, X):
    ...         return [[0.3, 0.7] if x > 0 else [0.9, 0.1] for x in X]
    >>> rep = report_from_estimator(Constant(), [1, -1, 2], ["yes", "no", "no"])
    >>> rep.alpha, rep.labels
    (0.6666666666666666, ('no', 'yes'))
    """
    if not callable(getattr(estimator, "predict_proba", None)):
        raise ValueError("estimator must be a fitted classifier with a predict_proba method")
    classes = getattr(estimator, "classes_", None)
    if classes is None:
        raise ValueError("estimator has no classes_ attribute: fit it first")
    proba = estimator.predict_proba(X)
    return rejection_report(y, proba=proba, labels=classes, rejector=rejector,
                            fractions=fractions, rho=rho)


# --- the plain-text table ---------------------------------------------------

def format_value(x, digits=4):
    """A measure as plain text: fixed decimals, with nan / inf / -inf spelled out."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.{digits}f}"


def format_report(report, digits=4):
    """The plain-text table ``str(report)`` returns (values to ``digits`` decimals)."""
    n = report.n
    if report.labels is not None:
        source = f"{report.rejector} on {len(report.labels)} class probabilities"
    else:
        source = report.rejector
    lines = [
        "Rejection report: A, Q, phi and rho_0 at rejected fractions",
        f"  samples n = {n}, rejector: {source}",
        f"  accuracy without rejection alpha = A(0) = {format_value(report.alpha, digits)}",
        "",
    ]
    cols = ["fraction", "k", "r", *MEASURE_NAMES, "rho_0"]
    if report.cost is not None:
        cols.append("cost")
    width = max(digits + 4, 8)
    kw = max(len(str(n)), 1)
    header = "  ".join(c.rjust(kw if c == "k" else width) for c in cols)
    lines.append(header)
    for row in report.table():
        cells = []
        for c in cols:
            if c == "k":
                cells.append(str(row["k"]).rjust(kw))
            else:
                cells.append(format_value(row[c], digits).rjust(width))
        lines.append("  ".join(cells))
    lines.append("")
    lines.append("  " + _point_line("maximum Q", report.best, report.best_index, digits))
    if report.min_cost is not None:
        lines.append("  " + _point_line(f"minimum cost (rho = {format_value(report.rho, digits)})",
                                        report.min_cost, report.min_cost_index, digits)
                     + f", cost = {format_value(report.cost[report.min_cost_index], digits)}")
    return "\n".join(lines)


def _point_line(title, p, k, digits):
    return (f"{title}: k = {k}, r = {format_value(p.r, digits)}, A = {format_value(p.A, digits)}, "
            f"Q = {format_value(p.Q, digits)}, phi = {format_value(p.phi, digits)}, "
            f"rho_0 = {format_value(p.rho_0, digits)}")
