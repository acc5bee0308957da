"""The price of rejection along a curve: the cost at a price rho, and rho_0 of every point.

Condessa et al. 2017, Sec. 4 and Fig. 8: what :func:`rejlab.plot.cost_curves`,
:func:`rejlab.plot.cost_curve` and :func:`rejlab.plot.rho_zero_curve` draw,
computed from the integer counts of :func:`rejlab.rejection_curves`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._constraints import accepts
from ._kinds import SINGLE_FRACTION, integer
from .curves import CURVES, DISPLAY_POINTS, subsample_curves

__all__ = ["CostCurve", "cost_curve", "RhoZeroCurve", "rho_zero_curve"]


class CostCurve(NamedTuple):
    """The cost at one price of rejection along a curve, and its cheapest point."""

    r: np.ndarray               #: rejected fractions (at most ``max_points`` of the curve's)
    cost: np.ndarray            #: the cost ``L`` at those points
    rho: float                  #: the price of rejection
    cheapest_r: float           #: r of the cheapest point of the whole curve (first on ties)
    cheapest_cost: float        #: its cost
    no_rejection_cost: float    #: ``L(0) = 1 - alpha``, the cost of rejecting nothing


@accepts(curves=CURVES, rho=SINGLE_FRACTION, max_points=integer(3))
def cost_curve(curves, rho, *, max_points=DISPLAY_POINTS):
    """The cost ``L(r; rho)`` along a curve, with its cheapest point (Condessa et al. 2017, Sec. 4).

    ``L = (1 - A)(1 - r) + rho r``; the cheapest point is found on the whole curve
    (:meth:`~rejlab.curves.RejectionCurves.min_cost`), ``r`` and ``cost`` hold at most
    ``max_points`` for drawing. At rho = 1/2 it is the point of maximum Q.

    Examples
    --------
    >>> import rejlab as rl
    >>> c = cost_curve(rl.rejection_curves([1, 0, 1, 0], [0.9, 0.2, 0.6, 0.1]), 0.3)
    >>> float(c.cheapest_r), round(float(c.cheapest_cost), 3), float(c.no_rejection_cost)
    (0.5, 0.15, 0.5)
    """
    ends = curves.take(np.array([curves.min_cost(rho), 0]))
    cheapest_cost, no_rejection_cost = ends.cost(rho).tolist()
    shown = subsample_curves(curves, max_points)
    return CostCurve(shown.r, shown.cost(rho), rho, float(ends.r[0]), cheapest_cost,
                     no_rejection_cost)


class RhoZeroCurve(NamedTuple):
    """``rho_0`` of every rejected fraction against no rejection (Condessa et al. 2017, Fig. 8)."""

    r: np.ndarray
    rho_0: np.ndarray


@accepts(curves=CURVES)
def rho_zero_curve(curves):
    """The threshold price ``rho_0(r)`` of every operating point against no rejection.

    Condessa et al. 2017, Fig. 8: rejecting a fraction r beats no rejection iff
    ``rho < rho_0 = |M∩R| / |R|`` (:attr:`rejlab.RejectionCurves.rho_0`); NaN at r = 0.

    Examples
    --------
    >>> import rejlab as rl
    >>> cv = rl.rejection_curves([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.2])
    >>> r, rho0 = rho_zero_curve(cv)
    >>> r
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    >>> np.round(rho0, 6)
    array([     nan, 1.      , 1.      , 0.666667, 0.5     ])
    """
    return RhoZeroCurve(curves.r, curves.rho_0)
