"""The measures' formulas on subset counts, each written once, for scalars and arrays alike.

Condessa et al. 2017, Sec. 3, with the edge cases settled (``docs/maths.md``,
section (b)). Every caller that turns the four subset sizes |A∩N|, |M∩N|,
|A∩R|, |M∩R| into r, A, Q or phi comes here: :func:`rejlab.measures_from_counts`
(numbers or arrays of counts, or fractions of n), the curves
(:class:`rejlab.curves.RejectionCurves`, chunk by chunk into their output
arrays) and one point of the curves (0-d arrays, so the same floating-point
operations give the same bits). Inputs are validated by the callers: counts
(or fractions) that are non-negative and broadcast together.

The edge cases, in order of precedence:

- ``A = NaN`` when nothing is kept (|N| = 0);
- ``phi = NaN`` when |M| = 0 or |A| = 0 (the reference ratio |M| / |A| has
  no meaning), otherwise ``phi = 1`` when nothing is rejected and
  ``phi = inf`` when only misclassified samples were rejected (|A∩R| = 0 < |R|).
"""

from __future__ import annotations

import numpy as np

__all__ = ["FORMULAS", "rejected_fraction", "nonrejected_accuracy", "classification_quality",
           "rejection_quality", "rho_zero", "ZERO", "snap", "fraction_measures"]


def _float(x):
    return np.asarray(x, dtype=np.float64)


def rejected_fraction(an, mn, ar, mr, out=None):
    """``r = |R| / n = (|A∩R| + |M∩R|) / n``."""
    out = np.add(ar, mr, out=out, dtype=np.float64)
    out /= np.add(np.add(an, mn, dtype=np.float64), out)
    return out


def nonrejected_accuracy(an, mn, ar, mr, out=None):
    """``A = |A∩N| / |N|``; NaN where nothing is kept (0 / 0)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.divide(an, np.add(an, mn, dtype=np.float64), out=out)


def classification_quality(an, mn, ar, mr, out=None):
    """``Q = (|A∩N| + |M∩R|) / n``."""
    out = np.add(an, mr, out=out, dtype=np.float64)
    out /= np.add(np.add(mn, ar, dtype=np.float64), out)
    return out


def rejection_quality(an, mn, ar, mr, out=None):
    """``phi = (|M∩R| / |A∩R|) / (|M| / |A|) = (|M∩R| |A|) / (|A∩R| |M|)``, edge cases as above.

    Written as one fraction so that integer counts give the correctly
    rounded quotient of two exact products (both below 2**53 for any n a
    computer holds).
    """
    an, mn, ar, mr = np.broadcast_arrays(*(_float(x) for x in (an, mn, ar, mr)))
    if out is None:
        out = np.empty(an.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        np.divide(mr * (an + ar), ar * (mn + mr), out=out)
    np.copyto(out, np.inf, where=(ar == 0) & (mr > 0))        # only misclassified rejected
    np.copyto(out, 1.0, where=(ar == 0) & (mr == 0))          # nothing rejected (0 / 0)
    np.copyto(out, np.nan, where=(an + ar == 0) | (mn + mr == 0))  # |A| = 0 or |M| = 0
    return out[()] if out.ndim == 0 else out


#: Each measure's formula by field name, in the order of :data:`rejlab.measures.MEASURES`
#: after r: ``FORMULAS[name](an, mn, ar, mr, out=None)``.
FORMULAS = {"r": rejected_fraction, "A": nonrejected_accuracy, "Q": classification_quality,
            "phi": rejection_quality}


def rho_zero(mr, rejected):
    """``rho_0 = |M∩R| / |R|`` (scalars or arrays); NaN where nothing is rejected.

    Condessa et al. 2017, Sec. 4: rejecting these samples beats not rejecting
    at all iff the price of rejection rho is below rho_0.
    """
    mr, rejected = np.asarray(mr), np.asarray(rejected)
    out = np.full(np.shape(rejected), np.nan)
    np.divide(mr, rejected, out=out, where=rejected > 0)
    return float(out) if out.ndim == 0 else out


# A fraction of n at most this far from 0 is 0. Operating points given as
# fractions (A, r, alpha) are rounded numbers, and a subset fraction such as
# |A∩R| / n = alpha - A (1 - r) is a difference of them: an exact 0 comes out
# as a few 1e-17, which would turn phi = inf into 1e16. A true count of one
# sample is 1 / n, far above this for any n below 10^12.
ZERO = 1e-12


def snap(x):
    """Subset fractions within :data:`ZERO` of 0 become exactly 0 (and never negative)."""
    x = np.asarray(x, dtype=float)
    return np.where(x <= ZERO, 0.0, x)


def fraction_measures(an, r, alpha):
    """A, Q, phi of points keeping a fraction ``an`` = |A∩N| / n accurate at rejected fraction r.

    The four subset fractions follow from (an, r, alpha) and are snapped to
    0 within :data:`ZERO`, so every edge case (phi = inf when |A∩R| = 0, A =
    NaN when nothing is kept, ...) is decided as it would be on the integer
    counts. Arrays broadcast.
    """
    ar = snap(alpha - an)
    mr = snap(an + r - alpha)
    mn = snap(1.0 - r - an)
    counts = (snap(an), mn, ar, mr)
    return tuple(FORMULAS[name](*counts) for name in ("A", "Q", "phi"))
