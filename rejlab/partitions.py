"""Partitions of the samples: accurate / misclassified, kept / rejected (Condessa et al. 2017, Sec. 2).

:func:`accuracy_vector` splits the samples into A and M; :func:`reject_lowest`
rejects the k least confident (R) and keeps the rest (N), :func:`reject_below`
every sample under a threshold. Tie policy, used everywhere: order by (confidence,
sample index) ascending and reject the first; a threshold rejects whole groups
(``docs/maths.md``, section (a)).
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
from ._ranking import order

__all__ = ["Threshold", "accuracy_vector", "reject_lowest", "reject_below"]


class Threshold(NamedTuple):
    """A confidence threshold: reject every sample with ``confidence < value``.

    ``r``, ``A`` and ``Q``: on the data it was chosen on (:func:`rejlab.select_threshold`).
    """

    value: float  #: a float; an int for integers beyond 2**53, a longdouble for longdouble
    r: float
    A: float
    Q: float


def _threshold(x, name):
    """A number (infinities allowed, not NaN) or a :class:`Threshold`, as its value."""
    t = x.value if isinstance(x, Threshold) else x
    if isinstance(t, (bool, np.bool_)) or not isinstance(t, numbers.Real) or t != t:
        raise ValueError(f"{name} must be a number or a Threshold (from rl.select_threshold), "
                         f"got {v.describe(x)}")
    return t


THRESHOLD = Kind("THRESHOLD", _threshold, example=0.5)


@accepts(y_true=LABELS_1D, y_pred=LABELS_1D, same_length=("y_true", "y_pred"))
def accuracy_vector(y_true, y_pred):
    """Accuracy vector ``a_i = [y_hat_i == y_i]`` (Condessa et al. 2017, Sec. 2).

    Labels of any kind, compared as Python compares them.

    Examples
    --------
    >>> accuracy_vector([0, 1, 2, 2], [0, 2, 2, 1])
    array([ True, False,  True, False])
    """
    same_kind(y_true=y_true, y_pred=y_pred)
    return _labels_equal(y_true, y_pred)


def _labels_equal(x, y):
    """``x_i == y_i`` as Python compares the two labels (validated arrays of one kind).

    NumPy would compare integers with floats in float64, where ``2**53 + 1 == 2.0**53``.
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

    Among equal confidences the lower index goes first. Exactly one of ``fraction``
    (``round(fraction * n)`` samples) and ``count``. True = rejected.

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
    rejected = np.zeros(n, dtype=bool)
    rejected[order(confidence)[:count]] = True
    return rejected


@accepts(confidence=FINITE_1D, threshold=THRESHOLD)
def reject_below(confidence, threshold):
    """Threshold rejection: True (rejected) where ``confidence < threshold``.

    It never splits a tied group (the points of ``thresholds_only=True``). ``threshold``
    is a number (``-inf`` rejects nothing) or a :class:`Threshold` chosen on validation data.

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
