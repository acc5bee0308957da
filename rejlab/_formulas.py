"""The measures' formulas on subset counts, each written once, for scalars and arrays alike.

Condessa et al. 2017, Sec. 3, with the edge cases settled (``docs/maths.md``,
section (b)). Every caller that turns the four subset sizes |A∩N|, |M∩N|,
|A∩R|, |M∩R| into r, A, Q, phi or rho_0 comes here: :func:`rejlab.measures_from_counts`
(numbers or arrays of counts, or fractions of n), the curves
(:class:`rejlab.curves.RejectionCurves`, chunk by chunk into their output
arrays) and one point of the curves (0-d arrays, so the same floating-point
operations give the same bits). Inputs are validated by the callers: counts
(or fractions) that are non-negative and broadcast together.

Each formula is one function of a :class:`Sums`: the four sizes and the sums
the formulas read (|N|, |R|, n, |A|, |M| and the good decisions
|A∩N| + |M∩R|), each computed once, on first use. :data:`FORMULAS` applies
them to four counts; the curves hand them a :class:`Sums` of one chunk of
points whose sums live in scratch buffers reused from chunk to chunk, so
that every formula is a division or two in place (no n-length temporary).
On integer counts every sum and product is an exact integer (below 2**53
for any n a computer holds) and each result one correctly rounded
division: the order of the sums does not change a bit, so a chunk and a
single point agree exactly.

The edge cases, in order of precedence:

- ``A = NaN`` when nothing is kept (|N| = 0);
- ``phi = NaN`` when |M| = 0 or |A| = 0 (the reference ratio |M| / |A| has
  no meaning), otherwise ``phi = 1`` when nothing is rejected and
  ``phi = inf`` when only misclassified samples were rejected (|A∩R| = 0 < |R|).
- ``rho_0 = NaN`` when nothing is rejected.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

__all__ = ["Sums", "OF_SUMS", "FORMULAS", "rejected_fraction", "nonrejected_accuracy",
           "classification_quality", "rejection_quality", "rho_zero_of", "rho_zero", "ZERO", "snap",
           "fraction_measures"]


class Sums:
    """The four subset sizes and the sums the formulas read, each computed once, on first use.

    ``Sums(an=..., mn=..., ar=..., mr=...)`` holds |A∩N|, |M∩N|, |A∩R|,
    |M∩R| (numbers or arrays that broadcast, as float64); any sum may be
    given instead of being derived (``Sums(mr=..., rejected=...)`` is enough
    for rho_0). A subclass may derive them otherwise (the curves derive
    them from |A∩R| and |R| into scratch buffers) as long as each attribute
    means the same count. :meth:`spare` gives a formula room for one
    intermediate array (None: let NumPy allocate it).
    """

    def __init__(self, **given):
        for name, x in given.items():
            setattr(self, name, np.asarray(x, dtype=np.float64))

    @cached_property
    def kept(self):
        """|N| = |A∩N| + |M∩N|."""
        return self.an + self.mn

    @cached_property
    def rejected(self):
        """|R| = |A∩R| + |M∩R|."""
        return self.ar + self.mr

    @cached_property
    def n(self):
        """n = |N| + |R|."""
        return self.kept + self.rejected

    @cached_property
    def accurate(self):
        """|A| = |A∩N| + |A∩R|."""
        return self.an + self.ar

    @cached_property
    def misclassified(self):
        """|M| = |M∩N| + |M∩R|."""
        return self.mn + self.mr

    @cached_property
    def good(self):
        """The good decisions, |A∩N| + |M∩R| (accurate and kept, or misclassified and rejected)."""
        return self.an + self.mr

    @property
    def shape(self):
        """The broadcast shape of the four sizes."""
        return np.broadcast_shapes(*(np.shape(getattr(self, k)) for k in ("an", "mn", "ar", "mr")))

    def spare(self):
        """Room for one intermediate of a formula (None: NumPy allocates it)."""
        return None


def rejected_fraction(s, out):
    """``r = |R| / n``."""
    return np.divide(s.rejected, s.n, out=out)


def nonrejected_accuracy(s, out):
    """``A = |A∩N| / |N|``; NaN where nothing is kept (0 / 0)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.divide(s.an, s.kept, out=out)


def classification_quality(s, out):
    """``Q = (|A∩N| + |M∩R|) / n``: the share of good decisions."""
    return np.divide(s.good, s.n, out=out)


def rejection_quality(s, out):
    """``phi = (|M∩R| / |A∩R|) / (|M| / |A|) = (|M∩R| |A|) / (|A∩R| |M|)``, edge cases as above.

    Written as one fraction so that integer counts give the correctly
    rounded quotient of two exact products. IEEE division already gives
    every edge case but one: ``x / 0 = inf`` is phi = inf (only misclassified
    samples rejected, |A∩R| = 0 < |M∩R|), and ``0 / 0 = NaN`` arises only
    where |A| = 0 or |M| = 0 (phi = NaN) or where nothing is rejected
    (|A∩R| = |M∩R| = 0), which is phi = 1 when both |A| and |M| are positive.
    """
    np.multiply(s.mr, s.accurate, out=out)
    below = np.multiply(s.ar, s.misclassified, out=s.spare())
    with np.errstate(divide="ignore", invalid="ignore"):
        np.divide(out, below, out=out)
    if out.size and np.isnan(out.min()):          # some 0 / 0: is it "nothing rejected"?
        np.copyto(out, 1.0, where=(s.rejected == 0) & (s.accurate > 0) & (s.misclassified > 0))
    return out


def rho_zero_of(s, out):
    """``rho_0 = |M∩R| / |R|``; NaN where nothing is rejected (0 / 0)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.divide(s.mr, s.rejected, out=out)


#: Each formula on a :class:`Sums`, by field name: ``OF_SUMS[name](sums, out)`` fills the
#: float64 array ``out`` (of the sums' shape) and returns it.
OF_SUMS = {"r": rejected_fraction, "A": nonrejected_accuracy, "Q": classification_quality,
           "phi": rejection_quality, "rho_0": rho_zero_of}


def _on_counts(formula):
    def on_counts(an, mn, ar, mr, out=None):
        s = Sums(an=an, mn=mn, ar=ar, mr=mr)
        result = formula(s, np.empty(s.shape) if out is None else out)
        return result[()] if out is None and result.ndim == 0 else result

    on_counts.__name__ = on_counts.__qualname__ = formula.__name__
    on_counts.__doc__ = f"{formula.__doc__.splitlines()[0]} From the four counts (see :data:`OF_SUMS`)."
    return on_counts


#: The measures' formulas on the four counts, by field name, in the order of
#: :data:`rejlab.measures.MEASURES` after r: ``FORMULAS[name](an, mn, ar, mr, out=None)``
#: (a number for 0-d inputs).
FORMULAS = {name: _on_counts(OF_SUMS[name]) for name in ("r", "A", "Q", "phi")}


def rho_zero(mr, rejected):
    """``rho_0 = |M∩R| / |R|`` (scalars or arrays); NaN where nothing is rejected.

    Condessa et al. 2017, Sec. 4: rejecting these samples beats not rejecting
    at all iff the price of rejection rho is below rho_0.
    """
    s = Sums(mr=mr, rejected=rejected)
    out = rho_zero_of(s, np.empty(np.broadcast_shapes(s.mr.shape, s.rejected.shape)))
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
