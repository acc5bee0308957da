"""The measures as plain functions of the four subset counts (Condessa et al. 2017, Sec. 3).

Every caller that turns ``an, mn, ar, mr`` (counts or fractions of n, broadcasting)
into r, A, Q, phi or rho_0 comes here. Each formula groups its sums the same way,
so on integer counts every result is one correctly rounded division of exact
integers and a chunk of the curves and a single point agree bit for bit. The edge
cases are those of ``docs/maths.md``, section (b).
"""

from __future__ import annotations

import numpy as np

__all__ = ["FORMULAS", "rejected_fraction", "nonrejected_accuracy", "classification_quality",
           "rejection_quality", "rho_zero", "cost", "kept_accurate",
           "kept_misclassified", "ZERO", "snap"]


def _floats(an, mn, ar, mr):
    """The four counts as float64 arrays of their broadcast shape (views, no copies)."""
    return np.broadcast_arrays(*(np.asarray(x, dtype=np.float64) for x in (an, mn, ar, mr)))


def _divide(num, den):
    """num / den, a number for numbers; IEEE's 0 / 0 = NaN and x / 0 = inf, silently."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.divide(num, den)


def rejected_fraction(an, mn, ar, mr):
    """``r = |R| / n``."""
    an, mn, ar, mr = _floats(an, mn, ar, mr)
    return _divide(ar + mr, (an + mn) + (ar + mr))


def nonrejected_accuracy(an, mn, ar, mr):
    """``A = |A∩N| / |N|``; NaN where nothing is kept (0 / 0)."""
    an, mn, ar, mr = _floats(an, mn, ar, mr)
    return _divide(an, an + mn)


def classification_quality(an, mn, ar, mr):
    """``Q = (|A∩N| + |M∩R|) / n``: the share of good decisions."""
    an, mn, ar, mr = _floats(an, mn, ar, mr)
    return _divide(an + mr, (an + mn) + (ar + mr))


def rejection_quality(an, mn, ar, mr):
    """``phi = (|M∩R| / |A∩R|) / (|M| / |A|) = (|M∩R| |A|) / (|A∩R| |M|)``.

    One fraction of two exact products; IEEE division gives every edge case but phi = 1
    when nothing is rejected (0 / 0 there).
    """
    an, mn, ar, mr = _floats(an, mn, ar, mr)
    accurate, misclassified = an + ar, mn + mr
    phi = _divide(mr * accurate, ar * misclassified)
    nothing_rejected = (ar + mr == 0) & (accurate > 0) & (misclassified > 0)
    return np.where(nothing_rejected, 1.0, phi)[()]


def rho_zero(an, mn, ar, mr):
    """``rho_0 = |M∩R| / |R|``, the price below which this rejection beats none; NaN at |R| = 0."""
    an, mn, ar, mr = _floats(an, mn, ar, mr)
    return _divide(mr, ar + mr)


def cost(an, mn, ar, mr, rho):
    """``L = (1 - A)(1 - r) + rho r = (|M∩N| + rho |R|) / n`` (Condessa et al. 2017, Sec. 4; r = 1 too)."""
    an, mn, ar, mr = _floats(an, mn, ar, mr)
    return (mn + rho * (ar + mr)) / ((an + mn) + (ar + mr))


#: The formulas by field name: ``FORMULAS[name](an, mn, ar, mr)``.
FORMULAS = {"r": rejected_fraction, "A": nonrejected_accuracy, "Q": classification_quality,
            "phi": rejection_quality, "rho_0": rho_zero}


def kept_accurate(A, r):
    """``AN = |A∩N| / n = A (1 - r)``; 0 where r == 1 (nothing kept, A is NaN there)."""
    with np.errstate(invalid="ignore"):
        return np.where(r == 1, 0.0, A * (1.0 - r))


def kept_misclassified(A, r):
    """``MN = |M∩N| / n = (1 - A)(1 - r)``; 0 where r == 1 (nothing kept, A is NaN there)."""
    with np.errstate(invalid="ignore"):
        return np.where(r == 1, 0.0, (1.0 - A) * (1.0 - r))


# A fraction of n at most this far from 0 is 0: a subset fraction computed from rounded
# (A, r, alpha), e.g. alpha - A (1 - r), comes out as a few 1e-17 for an exact 0, which
# would turn phi = inf into 1e16; one sample in n < 10^12 is far above it.
ZERO = 1e-12


def snap(x):
    """Subset fractions within :data:`ZERO` of 0 become exactly 0 (and never negative)."""
    x = np.asarray(x, dtype=float)
    return np.where(x <= ZERO, 0.0, x)
