"""Partitions of the samples: accurate / misclassified, kept / rejected (Condessa et al. 2017, Sec. 2).

- the accuracy vector ``a_i = [y_hat_i == y_i]`` splits the samples into A
  (accurate) and M (misclassified): :func:`accuracy_vector`;
- a rejector rejects the k least confident samples: R (rejected, |R| = k)
  and N (nonrejected, |N| = n - k): :func:`reject_lowest`, or every sample
  below a confidence threshold: :func:`reject_below`.

Tie policy (used everywhere): samples are ordered by (confidence ascending,
sample index ascending) and the first ones in that order are rejected. It is
deterministic, and a group of equal confidences may be split. A threshold
rejector (:func:`reject_below`) rejects whole groups: it reaches only the
points between distinct confidence values.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from . import _validate as v
from ._constraints import Kind, accepts
from ._kinds import FINITE_1D, LABELS_1D, SINGLE_FRACTION, integer
from ._labels import same_kind

__all__ = ["Threshold", "accuracy_vector", "reject_lowest", "reject_below"]


class Threshold(NamedTuple):
    """A confidence threshold: reject every sample with ``confidence < value``.

    ``r``, ``A`` and ``Q`` are the measures it reached on the data it was
    chosen on (see :func:`rejlab.select_threshold`).
    """

    value: float  #: a float; an int for integers beyond 2**53, a longdouble for longdouble
    r: float
    A: float
    Q: float


#: A number (infinities allowed, not NaN) or a :class:`Threshold`, converted to its value.
THRESHOLD = Kind("THRESHOLD", lambda x, name: v.threshold_value(
    x.value if isinstance(x, Threshold) else x, name,
    "a number or a Threshold (from rl.select_threshold)"), example=0.5)


@accepts(y_true=LABELS_1D, y_pred=LABELS_1D, same_length=("y_true", "y_pred"))
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
    same_kind(y_true=y_true, y_pred=y_pred)
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


@accepts(confidence=FINITE_1D, fraction=SINGLE_FRACTION, count=integer(0))
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
    v.exactly_one(fraction=fraction, count=count)
    n = confidence.size
    if count is None:
        count = round(fraction * n)
    elif count > n:
        raise ValueError(f"count must lie in [0, {n}], got {count}")
    return _lowest(confidence, count)


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


@accepts(confidence=FINITE_1D, threshold=THRESHOLD)
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
    c, t = confidence, threshold   # c < t decided exactly: NumPy would compare in float64
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
