"""The rejector seen as a binary classifier (Condessa et al. 2017, Sec. 4).

Positive = rejected, actual positive = misclassified: ``TP = |M∩R|``, ``FP = |A∩R|``,
``TN = |A∩N|``, ``FN = |M∩N|`` (fractions of n). Q is the binary accuracy, phi = TPR / FPR,
and A, which the paper calls "the precision", is the negative predictive value
(``docs/maths.md``, section (c)).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import _validate as v
from ._constraints import Kind, accepts
from ._formulas import FORMULAS, kept_accurate, kept_misclassified
from ._kinds import ACCURACY, AMOUNTS, FRACTION
from .measures import SubsetCounts

__all__ = ["Confusion", "Triplet", "confusion_from_triplet", "triplet_from_confusion",
           "confusion_from_counts"]

# Slack allowed when deciding that a triplet is impossible (rounding only).
_TOL = 1e-9


def _number(x):
    return float(x) if np.ndim(x) == 0 else x


def _rate(num, den):
    """num / den, NaN where den is 0 (a rate of an empty class); scalars or arrays."""
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    out = np.full(np.broadcast_shapes(num.shape, den.shape), np.nan)
    return _number(np.divide(num, den, out=out, where=den > 0))


class Confusion(NamedTuple):
    """Confusion matrix of the rejector, as fractions of n (positive = rejected).

    ``npv`` is A, ``tpr / fpr`` is phi, ``tp + tn`` is Q.

    >>> c = Confusion(tp=0.1, fp=0.1, tn=0.6, fn=0.2)
    >>> round(c.npv, 3), round(c.tpr / c.fpr, 3)
    (0.75, 2.333)
    """

    tp: float
    fp: float
    tn: float
    fn: float

    @property
    def tpr(self):
        """True positive rate (recall) ``TP / (TP + FN)``: share of the errors rejected."""
        return _rate(self.tp, self.tp + self.fn)

    @property
    def fpr(self):
        """False positive rate ``FP / (FP + TN)``: share of the accurate samples rejected."""
        return _rate(self.fp, self.fp + self.tn)

    @property
    def ppv(self):
        """Positive predictive value (precision) ``TP / (TP + FP)``: errors among the rejected."""
        return _rate(self.tp, self.tp + self.fp)

    @property
    def npv(self):
        """Negative predictive value ``TN / (TN + FN)``: accurate among the kept, i.e. A."""
        return _rate(self.tn, self.tn + self.fn)


class Triplet(NamedTuple):
    """The triplet (A, Q, r) that determines the rejector's behaviour."""

    A: float
    Q: float
    r: float


@accepts(A=ACCURACY, Q=FRACTION, r=FRACTION, broadcast=("A", "Q", "r"),
         defined_where_kept=("A", "r"))
def confusion_from_triplet(A, Q, r):
    """Rebuild the rejector's confusion matrix from the triplet (A, Q, r).

    ``TN = A (1 - r)``, ``FN = (1 - A)(1 - r)``, ``TP = Q - A (1 - r)``, ``FP = r - TP``;
    broadcasts. ValueError when Q is impossible for A and r (TP or FP negative).

    Examples
    --------
    >>> c = confusion_from_triplet(0.8, 0.7, 0.25)
    >>> [round(x, 3) for x in c]  # tp, fp, tn, fn
    [0.1, 0.15, 0.6, 0.15]
    """
    tn, fn = kept_accurate(A, r), kept_misclassified(A, r)
    tp = Q - tn
    fp = r - tp
    bad = (tp < -_TOL) | (fp < -_TOL)
    if np.any(bad):
        # the first impossible triplet, with its numbers: what the student typed, and the range
        i = np.unravel_index(np.argmax(bad), np.shape(bad)) if np.ndim(bad) else ()
        a, q, rr, low = (float(np.broadcast_to(x, np.shape(bad))[i])
                         for x in (np.where(r == 1, 0.0, A), Q, r, tn))
        raise ValueError(f"Q = {q:.3g} is inconsistent with A = {a:.3g} and r = {rr:.3g}: it "
                         f"needs Q in [A(1-r), A(1-r) + r] = [{low:.3g}, {low + rr:.3g}]")
    return Confusion(_number(tp), _number(fp), _number(tn), _number(fn))


@accepts(tp=AMOUNTS, fp=AMOUNTS, tn=AMOUNTS, fn=AMOUNTS, broadcast=("tp", "fp", "tn", "fn"))
def triplet_from_confusion(tp, fp, tn, fn):
    """The inverse: ``A = TN / (TN + FN)``, ``Q = TP + TN``, ``r = TP + FP`` (counts are normalised).

    Examples
    --------
    >>> triplet_from_confusion(1, 1, 6, 2)
    Triplet(A=0.75, Q=0.7, r=0.2)
    """
    total = tp + fp + tn + fn
    v.some_samples(total, "tp, fp, tn, fn")
    A = FORMULAS["A"](tn, fn, fp, tp)   # an = TN, mn = FN, ar = FP, mr = TP
    return Triplet(_number(A), _number((tp + tn) / total), _number((tp + fp) / total))


def _counts(x, name):
    """Subset counts: a :class:`SubsetCounts` of numbers >= 0 (or arrays), not all 0."""
    fields = SubsetCounts._fields
    v.has_fields(x, name, fields, "a SubsetCounts (an, mn, ar, mr) from rl.subset_counts")
    counts = SubsetCounts(*(v.nonnegative_amounts(getattr(x, f), f"{name}.{f}") for f in fields))
    v.some_samples(counts.n, ", ".join(f"{name}.{f}" for f in fields))
    return counts


@accepts(counts=Kind("SUBSET_COUNTS", _counts))
def confusion_from_counts(counts):
    """Confusion fractions from :func:`rejlab.subset_counts` output.

    Examples
    --------
    >>> confusion_from_counts(SubsetCounts(an=6, mn=2, ar=1, mr=1))
    Confusion(tp=0.1, fp=0.1, tn=0.6, fn=0.2)
    """
    n = counts.n
    return Confusion(*(_number(np.divide(x, n)) for x in (counts.mr, counts.ar, counts.an,
                                                           counts.mn)))
