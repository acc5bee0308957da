"""Cost of rejection, relative optimality and operating sets (Condessa et al. 2017, Sec. 4).

The cost ``L(A, r; rho) = (1 - A)(1 - r) + rho r``, the relative optimality
``beta = (Q1 - Q0) / |r1 - r0|`` and the comparisons they give (derived in
``docs/maths.md``, section (d)). The formulas are simplest in the fraction of
samples kept and accurate, ``AN = A (1 - r)``, which :func:`operating_set` maps
to A, Q and phi. All functions broadcast over arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from . import _validate as v
from ._constraints import accepts
from ._formulas import FORMULAS, kept_accurate, kept_misclassified, snap
from ._kinds import ACCURACY, ACCURACY_1D, FRACTION, FRACTION_1D, SINGLE_ACCURACY, SINGLE_FRACTION, one_of
from .measures import MEASURE_NAMES

__all__ = ["cost", "relative_optimality", "compare", "rho_zero", "optimality_matrix",
           "compare_same_r", "compare_same_accurate_kept", "compare_same_misclassified_kept",
           "operating_region", "feasible_accuracy", "Borders", "BorderFeasibility",
           "OperatingSet", "operating_set"]

#: Outcomes closer than this (in units of rho) to a tie are called "equivalent".
TIE_TOLERANCE = 1e-10

#: Slack allowed when checking a precondition such as "same r" or feasibility.
CONDITION_TOLERANCE = 1e-9

#: Largest number of points :func:`optimality_matrix` accepts (10 000 x 10 000 floats: 800 MB).
MAX_MATRIX_POINTS = 10_000


def _out(x):
    """0-d arrays become plain Python scalars / strings; arrays stay arrays."""
    x = np.asarray(x)
    return x.item() if x.ndim == 0 else x


_POINTS = dict(A1=ACCURACY, r1=FRACTION, A0=ACCURACY, r0=FRACTION,
               defined_where_kept=[("A1", "r1"), ("A0", "r0")])


def _measures_of(an, r, alpha):
    """A, Q, phi at (an = |A∩N| / n, r); the subset fractions snap to 0 as integer counts would."""
    counts = (snap(an), snap(1.0 - r - an), snap(alpha - an), snap(an + r - alpha))
    return tuple(FORMULAS[name](*counts) for name in MEASURE_NAMES)


def _points(A1, r1, A0, r0):
    """Two operating points as (AN1, r1, AN0, r0), AN = A (1 - r)."""
    return kept_accurate(A1, r1), r1, kept_accurate(A0, r0), r0


@accepts(A=ACCURACY, r=FRACTION, rho=FRACTION, broadcast=("A", "r", "rho"),
         defined_where_kept=("A", "r"))
def cost(A, r, rho):
    """Cost of an operating point, ``L(A, r; rho) = (1 - A)(1 - r) + rho r``.

    Condessa et al. 2017, Eq. (11): a kept error costs 1, a rejection ``rho``, a kept
    accurate sample 0, averaged per sample. A may be NaN where r == 1.

    Examples
    --------
    >>> round(cost(0.8, 0.25, 0.4), 12)
    0.25
    >>> np.round(cost([0.7, 0.8], [0.0, 0.25], 0.4), 12)
    array([0.3 , 0.25])
    """
    return _out(kept_misclassified(A, r) + rho * r)


@accepts(**_POINTS, broadcast=("A1", "r1", "A0", "r0"))
def relative_optimality(A1, r1, A0, r0):
    """Relative optimality ``beta`` of point 1 = (A1, r1) against the reference 0 = (A0, r0).

    Condessa et al. 2017, Sec. 4: ``beta = (Q1 - Q0) / |r1 - r0|
    = [2 (A1 (1 - r1) - A0 (1 - r0)) + (r1 - r0)] / |r1 - r0|`` (alpha cancels).
    +1 on the best-behaviour border, -1 on the worst, in [-1, 1] for two points of
    one rejector. At ``r1 == r0``: ``+inf``, ``-inf`` or ``0`` by the sign of ``Q1 - Q0``.

    Examples
    --------
    >>> round(relative_optimality(0.8, 0.2, 0.75, 0.1), 12)
    0.3
    >>> relative_optimality([0.9, 0.7], 0.2, 0.8, 0.2)
    array([ inf, -inf])
    """
    return _out(_beta(*_points(A1, r1, A0, r0)))


def _beta(an1, r1, an0, r0):
    """The kernel of :func:`relative_optimality`, in AN = A (1 - r)."""
    dr = r1 - r0
    dq = 2.0 * (an1 - an0) + dr
    with np.errstate(divide="ignore", invalid="ignore"):
        beta = dq / np.abs(dr)
    same = dr == 0
    if np.any(same):
        beta = np.where(same, np.where(dq > 0, np.inf, np.where(dq < 0, -np.inf, 0.0)), beta)
    return beta


@accepts(**_POINTS, broadcast=("A1", "r1", "A0", "r0"))
def rho_zero(A1, r1, A0, r0):
    """Threshold price ``rho_0``: the rejection price at which both points cost the same.

    Condessa et al. 2017, Eq. (12): ``rho_0 = (1 + beta) / 2`` for ``r1 > r0``,
    ``(1 - beta) / 2`` for ``r1 < r0`` (symmetric in the points); the point that
    rejects more wins below it. NaN when ``r1 == r0``; ``|M∩R| / |R|`` against ``r0 = 0``.

    Examples
    --------
    >>> round(rho_zero(0.8, 0.2, 0.75, 0.1), 12)
    0.65
    >>> round(rho_zero(0.75, 0.1, 0.8, 0.2), 12)
    0.65
    """
    an1, r1, an0, r0 = _points(A1, r1, A0, r0)
    dr = r1 - r0
    with np.errstate(divide="ignore", invalid="ignore"):
        # L1 = L0  <=>  1 - AN1 - (1 - rho) r1 = 1 - AN0 - (1 - rho) r0
        rho0 = 1.0 + (an1 - an0) / dr
    return _out(np.where(dr == 0, np.nan, rho0))


@accepts(**_POINTS, rho=FRACTION, broadcast=("A1", "r1", "A0", "r0", "rho"))
def compare(A1, r1, A0, r0, rho):
    """Does point 1 = (A1, r1) outperform the reference 0 = (A0, r0) at price ``rho``?

    Condessa et al. 2017, Sec. 4: for ``r1 > r0`` iff ``rho < (1 + beta) / 2``, for
    ``r1 < r0`` iff ``rho > (1 - beta) / 2``, for ``r1 == r0`` the larger Q wins;
    "outperformed" when the inequality flips, "equivalent" within :data:`TIE_TOLERANCE`.

    Examples
    --------
    >>> compare(0.8, 0.2, 0.75, 0.1, rho=0.5)
    'outperforms'
    >>> compare(0.8, 0.2, 0.75, 0.1, rho=[0.3, 0.65, 0.9])
    array(['outperforms', 'equivalent', 'outperformed'], dtype='<U12')
    """
    return _out(_compare(*_points(A1, r1, A0, r0), rho))


def _compare(an1, r1, an0, r0, rho):
    """The kernel of :func:`compare`: the verdict array of validated points and prices."""
    beta = _beta(an1, r1, an0, r0)
    dr = r1 - r0
    with np.errstate(invalid="ignore"):
        margin = np.where(dr > 0, (1.0 + beta) / 2.0 - rho,   # point 1 wins below rho_0
                          np.where(dr < 0, rho - (1.0 - beta) / 2.0,  # ... above rho_0
                                   beta + 0.0 * rho))          # same r: sign of Q1 - Q0
    return _verdicts(margin)


def _verdicts(margin):
    return np.where(margin > TIE_TOLERANCE, "outperforms",
                    np.where(margin < -TIE_TOLERANCE, "outperformed", "equivalent"))


@accepts(A=ACCURACY_1D, r=FRACTION_1D, same_length=("A", "r"), defined_where_kept=("A", "r"))
def optimality_matrix(A, r):
    """Relative optimality of every operating point against every other (Condessa et al. 2017, Figs. 5, 8).

    ``beta[i, j] = relative_optimality(A[i], r[i], A[j], r[j])``: **row i is the test
    point, column j the reference**. O(m^2) memory: thin a long curve first with
    :func:`rejlab.curves.subsample_curves`.

    Examples
    --------
    >>> np.round(optimality_matrix([0.7, 0.8, 1.0], [0.0, 0.25, 0.5]), 12)
    array([[ 0. , -0.2, -0.2],
           [ 0.2,  0. , -0.2],
           [ 0.2,  0.2,  0. ]])
    """
    if A.size > MAX_MATRIX_POINTS:
        raise ValueError(f"A has {A.size} points; the {A.size} x {A.size} matrix would take "
                         f"{8 * A.size ** 2 / 1e9:.1f} GB: thin the curve first, e.g. "
                         f"rl.curves.subsample_curves(curves, 2000)")
    q = 2.0 * kept_accurate(A, r) + r  # Q + alpha; alpha cancels in Q1 - Q0
    num = np.subtract.outer(q, q)
    den = np.subtract.outer(r, r)
    np.abs(den, out=den)
    with np.errstate(divide="ignore", invalid="ignore"):
        np.divide(num, den, out=num)
    num[np.isnan(num)] = 0.0  # 0 / 0: equal r and equal Q (the diagonal)
    return num


# --- the three comparisons that need no cost function (Condessa et al. 2017, Sec. 4) ---

@accepts(**_POINTS, broadcast=("A1", "r1", "A0", "r0"))
def compare_same_r(A1, r1, A0, r0):
    """Same rejected fraction: the higher A wins, for every rho (``L1 - L0 = (1 - r)(A0 - A1)``).

    Examples
    --------
    >>> compare_same_r(0.85, 0.2, 0.8, 0.2)
    'outperforms'
    """
    an1, r1, an0, r0 = _points(A1, r1, A0, r0)
    v.close(r1, r0, CONDITION_TOLERANCE, "r1 must equal r0 for compare_same_r")
    return _out(_verdicts(an1 - an0))


@accepts(**_POINTS, broadcast=("A1", "r1", "A0", "r0"))
def compare_same_accurate_kept(A1, r1, A0, r0):
    """Same number of accurate samples kept, |A∩N|: the one that rejects more wins.

    Only errors were rejected in between (beta = +1): it wins for every rho < 1.

    Examples
    --------
    >>> compare_same_accurate_kept(0.8, 0.25, 0.75, 0.2)
    'outperforms'
    """
    an1, r1, an0, r0 = _points(A1, r1, A0, r0)
    v.close(an1, an0, CONDITION_TOLERANCE,
            "A1 (1 - r1) must equal A0 (1 - r0) (same |A∩N|) for compare_same_accurate_kept")
    return _out(_verdicts(np.sign(r1 - r0)))


@accepts(**_POINTS, broadcast=("A1", "r1", "A0", "r0"))
def compare_same_misclassified_kept(A1, r1, A0, r0):
    """Same number of misclassified samples kept, |M∩N|: the one that rejects less wins.

    Only accurate samples were rejected in between (beta = -1): it wins for every rho > 0.

    Examples
    --------
    >>> compare_same_misclassified_kept(0.8125, 0.2, 0.8, 0.25)
    'outperforms'
    """
    an1, r1, an0, r0 = _points(A1, r1, A0, r0)
    mn1, mn0 = 1.0 - r1 - an1, 1.0 - r0 - an0
    v.close(mn1, mn0, CONDITION_TOLERANCE,
            "(1 - A1)(1 - r1) must equal (1 - A0)(1 - r0) (same |M∩N|) for "
            "compare_same_misclassified_kept")
    return _out(_verdicts(np.sign(r0 - r1)))


# --- operating sets ---

def _feasible_bounds(r, alpha):
    """Lowest and highest feasible AN at rejected fraction r ("Operating sets")."""
    return np.maximum(0.0, alpha - r), np.minimum(alpha, 1.0 - r)


@accepts(r=FRACTION, alpha=FRACTION, broadcast=("r", "alpha"))
def feasible_accuracy(r, alpha):
    """The nonrejected accuracies A a classifier of accuracy ``alpha`` can reach at rejected fraction r.

    ``(low, high) = (max(0, alpha - r), min(alpha, 1 - r)) / (1 - r)``, the bounds of
    ``A (1 - r)`` divided by ``1 - r`` (Condessa et al. 2017, "Operating sets"); NaN at r = 1.

    Examples
    --------
    >>> feasible_accuracy(0.0, 0.7)
    (0.7, 0.7)
    >>> [round(a, 6) for a in feasible_accuracy(0.5, 0.7)]
    [0.4, 1.0]
    """
    low, high = _feasible_bounds(r, alpha)
    kept = np.where(r < 1, 1.0 - r, np.nan)
    return _out(low / kept), _out(high / kept)


_REFERENCE = dict(A0=SINGLE_ACCURACY, r0=SINGLE_FRACTION, alpha=SINGLE_FRACTION)


def _reference(A0, r0, alpha):
    """The reference as floats and its AN0, clipped to the feasible range; infeasible raises."""
    an0 = float(kept_accurate(A0, r0))
    low, high = _feasible_bounds(float(r0), float(alpha))
    if not (low - CONDITION_TOLERANCE <= an0 <= high + CONDITION_TOLERANCE):
        a_low, a_high = feasible_accuracy(float(r0), float(alpha))
        raise ValueError(
            f"A0 = {float(A0):.6g} is infeasible at r0 = {float(r0):.6g} for a classifier with "
            f"alpha = {float(alpha):.6g}: A0 must lie in [{a_low:.6g}, {a_high:.6g}] there "
            f"(it keeps a fraction A0 (1 - r0) = {an0:.6g} of accurate samples, which must lie "
            f"in [{low:.6g}, {high:.6g}]; infeasible reference)")
    return float(A0), float(r0), float(alpha), min(max(an0, low), high)


@accepts(A1=ACCURACY, r1=FRACTION, **_REFERENCE, broadcast=("A1", "r1"),
         defined_where_kept=[("A1", "r1"), ("A0", "r0")])
def operating_region(A1, r1, A0, r0, alpha):
    """Region of point 1 in the operating set of the reference 0 (Condessa et al. 2017, Fig. 2).

    ``"green"``: it outperforms for every rho in [0, 1]; ``"orange"``: it is outperformed
    for every rho; ``"white"``: it depends on rho; ``"infeasible"``: no classifier of
    accuracy ``alpha`` reaches it. ``L1 - L0`` is linear in rho: decided at 0 and 1.

    Examples
    --------
    >>> operating_region([0.86, 0.8, 0.7, 0.95], 0.2, 0.75, 0.1, alpha=0.7)
    array(['green', 'white', 'orange', 'infeasible'], dtype='<U10')
    """
    A0, r0, alpha, _ = _reference(A0, r0, alpha)
    an1, an0 = kept_accurate(A1, r1), kept_accurate(np.asarray(A0), np.asarray(r0))
    low, high = _feasible_bounds(r1, alpha)
    feasible = (an1 >= low - CONDITION_TOLERANCE) & (an1 <= high + CONDITION_TOLERANCE)
    at0, at1, feasible = np.broadcast_arrays(_compare(an1, r1, an0, r0, 0.0),
                                             _compare(an1, r1, an0, r0, 1.0), feasible)
    region = np.where((at0 == "outperforms") & (at1 == "outperforms"), "green",
                      np.where((at0 == "outperformed") & (at1 == "outperformed"),
                               "orange", "white"))
    return _out(np.where(feasible, region, "infeasible"))


class Borders(NamedTuple):
    """One measure along the grid r of an operating set: on the beta = +1, 0, -1 borders
    (``best``, ``mid``, ``worst``, clipped to the feasible range, along whose edge they then
    run) and the lowest and highest feasible value (``low``, ``high``)."""

    best: np.ndarray
    mid: np.ndarray
    worst: np.ndarray
    low: np.ndarray
    high: np.ndarray


class BorderFeasibility(NamedTuple):
    """Where (on the grid r) the unclipped beta = +1, 0, -1 borders are feasible."""

    best: np.ndarray
    mid: np.ndarray
    worst: np.ndarray


@dataclass(frozen=True)
class OperatingSet:
    """The operating set of a reference point over a grid of r (Condessa et al. 2017, Fig. 2).

    The reference and ``alpha``, the grid ``r`` and the :class:`Borders` of ``AN``
    (``A1 (1 - r1)``), ``A``, ``Q`` and ``phi``: white between ``worst`` and ``best``,
    green above, orange below, infeasible outside [low, high].
    """

    A0: float
    r0: float
    alpha: float
    Q0: float
    phi0: float
    r: np.ndarray
    AN: Borders
    A: Borders
    Q: Borders
    phi: Borders
    feasible: BorderFeasibility

    @accepts(name=one_of(MEASURE_NAMES + ("AN",)))
    def measure(self, name):
        """The :class:`Borders` of ``"A"``, ``"Q"``, ``"phi"`` or ``"AN"``."""
        return getattr(self, name)


@accepts(**_REFERENCE, r=FRACTION_1D, defined_where_kept=("A0", "r0"))
def operating_set(A0, r0, alpha, r):
    """Operating set of the reference (A0, r0): beta = +1, 0, -1 borders over the grid r.

    Condessa et al. 2017, Fig. 2: ``beta = b`` means ``AN1 = AN0 + (b |r1 - r0| - (r1 - r0)) / 2``
    in ``AN1 = A1 (1 - r1)``; feasible iff ``0 <= AN1 <= alpha`` and
    ``0 <= 1 - r1 - AN1 <= 1 - alpha``. Each border maps to A, Q and phi through its
    subset fractions (phi is never averaged). An infeasible reference raises ``ValueError``.

    Examples
    --------
    >>> ops = operating_set(0.8, 0.2, 0.7, [0.0, 0.2, 0.4])
    >>> np.round(ops.Q.best, 12), np.round(ops.Q.worst, 12)
    (array([0.7 , 0.78, 0.9 ]), array([0.7 , 0.78, 0.58]))
    >>> ops.feasible.best
    array([False,  True, False])
    """
    A0, r0, alpha, an0 = _reference(A0, r0, alpha)
    dr = r - r0
    low, high = _feasible_bounds(r, alpha)
    raw = {b: an0 + (b * np.abs(dr) - dr) / 2.0 for b in (1.0, 0.0, -1.0)}
    feasible = BorderFeasibility(*((raw[b] >= low - CONDITION_TOLERANCE)
                                   & (raw[b] <= high + CONDITION_TOLERANCE) for b in raw))
    an = {b: np.clip(raw[b], low, high) for b in raw}
    an_b = Borders(an[1.0], an[0.0], an[-1.0], low, high)
    mapped = [_measures_of(x, r, alpha) for x in an_b]  # 5 x (A, Q, phi)
    A_b, Q_b, phi_b = (Borders(*(m[i] for m in mapped)) for i in range(3))
    _, Q0, phi0 = _measures_of(np.array(an0), np.array(r0), alpha)
    return OperatingSet(A0, r0, alpha, float(Q0), float(phi0), r, an_b, A_b, Q_b, phi_b,
                        feasible)
